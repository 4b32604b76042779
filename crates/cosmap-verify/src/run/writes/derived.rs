//! Derived data kept current after a write: extended references (`extendedReference`),
//! ancestors lists (`treeAncestors`), counts (`computedValue`) and subsets (`subset`),
//! by query and rewrite.

use super::*;
use cosmap_mapper::{ComputedValue, Embedded};

/// A count or subset kept on a parent: what its query must return (`expected`, in
/// order when `ordered`) and how its answer is judged, the property the rewrite
/// stores (`stored`), and what a reader sees of it (`shown`).
struct Kept<'a> {
    expected: Vec<String>,
    ordered: bool,
    judge: Judge<'a>,
    stored: (&'a str, Value),
    shown: Box<dyn Fn(&Value) -> String + 'a>,
}

/// How the answer (`&[Value]`) of a kept count's or subset's query (`&Request`) is judged.
type Judge<'a> = Box<dyn Fn(&Request, RequestOutcome, &[Value]) -> RequestOutcome + 'a>;

/// A count `v` kept on parent `parent`, which `expected` children belong to.
fn count_kept<'a>(v: &'a ComputedValue, expected: usize, parent: &str) -> Kept<'a> {
    let parent = parent.to_string();
    let judge = move |q: &Request, mut outcome: RequestOutcome, found: &[Value]| {
        // `SELECT VALUE COUNT(1)` in one partition; `SELECT VALUE 1` per match across.
        let n = if q.counts_matches() {
            found.len().to_string()
        } else {
            found.first().map(Value::to_string).unwrap_or_default()
        };
        outcome.returned = Some(vec![n.clone()]);
        let problem = (n != expected.to_string())
            .then(|| format!("counted {n} `{}`s of `{parent}`, expected {expected}", v.counts));
        verdict(outcome, problem)
    };
    Kept {
        expected: vec![expected.to_string()],
        ordered: false,
        judge: Box::new(judge),
        stored: (v.name.as_str(), Value::from(expected)),
        shown: Box::new(|read: &Value| read.get(&v.name).map_or_else(|| "nothing".into(), Value::to_string)),
    }
}

/// A subset `e` kept on a parent, whose newest live children are `items`, in order.
fn subset_kept(e: &Embedded, items: Vec<Value>) -> Kept<'_> {
    let identity = e.attributes.first().map_or("id", |a| a.name.as_str());
    let ids_of = move |list: Option<&Vec<Value>>| -> Vec<String> {
        list.map(|list| {
            list.iter()
                .map(|i| i.get(identity).and_then(Value::as_str).unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
    };
    let wanted = ids_of(Some(&items));
    let expected = wanted.clone();
    let judge = move |_: &Request, outcome: RequestOutcome, found: &[Value]| {
        super::super::reads::judge(outcome, found, |docs| {
            docs.iter().map(|d| id_of(d)).collect::<Vec<_>>() == wanted
        })
    };
    Kept {
        expected,
        ordered: true,
        judge: Box::new(judge),
        stored: (e.name.as_str(), Value::Array(items)),
        shown: Box::new(move |read: &Value| ids_of(read.get(&e.name).and_then(Value::as_array)).join(", ")),
    }
}

/// What a sync keeps current in its holders: an ancestors list (`treeAncestors`),
/// whose entries down to the changed tree element are replaced, or an extended
/// reference (`extendedReference`), whose copied values are.
#[derive(Clone, Copy, PartialEq)]
enum Held {
    Ancestors,
    Reference,
}

impl Held {
    /// Whether `body`'s `property` holds the document `changed`.
    fn holds(self, body: &Value, property: &str, changed: &str) -> bool {
        match self {
            Held::Ancestors => position(body, property, changed).is_some(),
            Held::Reference => body.get(property).is_some_and(|r| !referring(r, changed).is_empty()),
        }
    }

    /// `holder` as the rewrite makes it: for an ancestors list, the `changed`
    /// element's own list, then its entry with its new values, then the entries below
    /// it as they were; for a reference, each entry of `changed` with its new values.
    fn edit(self, holder: &Value, property: &str, changed: &Sample, copied: &[String]) -> Value {
        let mut body = holder.clone();
        let at = position(holder, property, &changed.id);
        match (self, body.get_mut(property), at) {
            (Held::Ancestors, Some(Value::Array(list)), Some(at)) => {
                let above = changed
                    .body
                    .get(property)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let mut entry = list[at].clone();
                copy_values(&mut entry, changed, copied);
                let below: Vec<Value> = list[at + 1..].to_vec();
                *list = above.into_iter().chain([entry]).chain(below).collect();
            }
            (Held::Reference, Some(Value::Array(list)), _) => {
                list.iter_mut().for_each(|e| copy_values(e, changed, copied));
            }
            (Held::Reference, Some(single), _) => copy_values(single, changed, copied),
            _ => {}
        }
        body
    }

    /// Whether the `read` holder shows what was written (`body`).
    fn shows(self, read: &Value, body: &Value, property: &str, changed: &Sample, copied: &[String]) -> bool {
        match self {
            Held::Ancestors => read.get(property) == body.get(property),
            Held::Reference => read.get(property).is_some_and(|r| {
                referring(r, &changed.id)
                    .iter()
                    .all(|r| copied.iter().all(|a| r.get(a.as_str()) == changed.body.get(a.as_str())))
            }),
        }
    }

    /// What a holder that does not show it is said to miss.
    fn stale(self, property: &str, changed: &str) -> String {
        match self {
            Held::Ancestors => format!("does not show `{changed}`'s new values and ancestors in `{property}`"),
            Held::Reference => format!("still shows the old `{property}` values"),
        }
    }
}

/// Where `changed` stands in `body`'s list `property`.
fn position(body: &Value, property: &str, changed: &str) -> Option<usize> {
    body.get(property).and_then(Value::as_array).and_then(|l| {
        l.iter()
            .position(|e| e.get("id").and_then(Value::as_str) == Some(changed))
    })
}

/// Sets each of the `copied` attributes of `entry` (when it is `changed`'s) to
/// `changed`'s value, removing those `changed` no longer has.
fn copy_values(entry: &mut Value, changed: &Sample, copied: &[String]) {
    let Value::Object(e) = entry else { return };
    if e.get("id").and_then(Value::as_str) != Some(changed.id.as_str()) {
        return;
    }
    for a in copied {
        match changed.body.get(a) {
            Some(v) => e.insert(a.clone(), v.clone()),
            None => e.remove(a),
        };
    }
}

impl Run<'_> {
    /// The sync of a copy after what it copies was written: of an ancestors list after
    /// a tree element was replaced (renamed or moved), or of an extended reference after
    /// its target was written. `query` must find every live document that holds it;
    /// each found is rewritten (`rewrite`) with its new values (and for an ancestors
    /// list its new ancestors), and a point read of each must then show them (a rename
    /// reaches every holder).
    pub(super) async fn refresh_holders(
        &self,
        query: &Request,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let mut outcome = self.outcome(query);
        let (held, document, property, target) = match &query.purpose {
            Purpose::SyncAncestors { document, property, .. } => (Held::Ancestors, document, property, document),
            Purpose::SyncExtendedReference {
                document,
                reference,
                target,
            } => (Held::Reference, document, reference, target),
            _ => return vec![fail(outcome, "not a copy's sync".into())],
        };
        let (changed, c, copied) = match self.sync_of(query, written, target, document, property) {
            Ok(found) => found,
            Err(reason) => return vec![fail(outcome, reason)],
        };
        outcome.expected = state
            .live
            .iter()
            .filter(|s| {
                s.container == c.name && s.document_type == *document && held.holds(&s.body, property, &changed.id)
            })
            .map(|s| s.id.clone())
            .collect();
        let scoped = held == Held::Reference && query.kind() == OperationKind::SinglePartitionQuery;
        let partition = scoped.then(|| Key::one(changed.id.clone()));
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let (probed, found) = match self
            .sync_query(query, outcome, &c.name, &changed.id, partition.as_ref())
            .await
        {
            Ok(found) => found,
            Err(failed) => return vec![failed],
        };
        let Some(rewrite) = rewrite else {
            return vec![probed];
        };
        let edit = |holder: &Value| held.edit(holder, property, &changed, &copied);
        let shows = |read: &Value, body: &Value| held.shows(read, body, property, &changed, &copied);
        let stale = held.stale(property, &changed.id);
        let rewritten = self
            .rewrite_found(rewrite, c, &found, state, &edit, &shows, &stale)
            .await;
        vec![probed, rewritten]
    }

    /// A sync's `query` for what holds `changed` in container `container` (in
    /// `partition`, when one), every parameter bound to `changed`, judged against
    /// `outcome`'s expected ids and probed, with the documents it found; the error
    /// when it cannot run.
    async fn sync_query(
        &self,
        query: &Request,
        mut outcome: RequestOutcome,
        container: &str,
        changed: &str,
        partition: Option<&Key>,
    ) -> Result<(RequestOutcome, Vec<Value>), RequestOutcome> {
        outcome.parameters = super::super::all_bound_to(query, changed);
        let sql = query.sql().unwrap_or_default().to_string();
        let found = match self.query(container, &sql, &outcome.parameters, partition).await {
            Ok(found) => found,
            Err(cause) => return Err(error(outcome, cause)),
        };
        let judged = super::super::reads::judge(outcome, &found, |_| true);
        Ok((self.probed(judged, query, changed, partition.is_some()).await, found))
    }

    /// What a sync after `query` works on: the `changed` document of type `written_type`
    /// the operation wrote, the query's container, and the attributes the holders'
    /// `reference` (of document type `document`) copies from it.
    pub(super) fn sync_of(
        &self,
        query: &Request,
        written: &[Written],
        written_type: &str,
        document: &str,
        reference: &str,
    ) -> Result<(Sample, &Container, Vec<String>), String> {
        let changed = written
            .iter()
            .rev()
            .find(|w| w.accepted && w.sample.document_type == written_type)
            .map(|w| w.sample.clone())
            .ok_or_else(|| format!("the operation wrote no `{written_type}` to sync"))?;
        let c = self
            .logical
            .container(&query.container)
            .ok_or_else(|| format!("there is no container `{}`", query.container))?;
        let copied = c
            .document_type(document)
            .and_then(|d| d.references.iter().find(|r| r.name == reference))
            .and_then(|r| r.extended.as_ref())
            .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
            .unwrap_or_default();
        Ok((changed, c, copied))
    }

    /// Rewrites each document `found` in `c` as `edit` makes it (the `rewrite` request
    /// of a sync), keeps the live samples current, and checks by a point read that
    /// each `shows` what was written; a document that does not is `stale`.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn rewrite_found(
        &self,
        rewrite: &Request,
        c: &Container,
        found: &[Value],
        state: &mut WriteState,
        edit: &dyn Fn(&Value) -> Value,
        shows: &dyn Fn(&Value, &Value) -> bool,
        stale: &str,
    ) -> RequestOutcome {
        let mut outcome = self.outcome(rewrite);
        outcome.expected = found.iter().map(id_of).collect();
        let mut shown = Vec::new();
        let mut problems = Vec::new();
        let levels = c.partition_key_properties();
        for holder in found {
            let body = edit(holder);
            let key: Option<Vec<String>> = levels
                .iter()
                .map(|l| body.get(*l).and_then(Value::as_str).map(str::to_string))
                .collect();
            let (Some(key), id) = (key.map(Key::levels), id_of(&body)) else {
                problems.push(format!("`{}` holds no partition key", id_of(holder)));
                continue;
            };
            let Ok(client) = self.client(&c.name) else {
                problems.push(format!("there is no container `{}`", c.name));
                continue;
            };
            let operation = format!("replace item `{id}` in `{}`", c.name);
            let sent = self
                .connection
                .request(&operation, &[], || client.replace_item(key.sdk(), &id, &body, None))
                .await;
            if let Err(e) = sent {
                problems.push(format!("rewriting `{id}` failed: {e}"));
                continue;
            }
            if let Some(live) = state
                .live
                .iter_mut()
                .find(|s| s.container == c.name && s.id == id && s.partition_key == key)
            {
                live.body = body.clone();
            }
            match self.point_read(&c.name, &key, &id).await {
                Ok(Some(read)) if shows(&read, &body) => shown.push(id),
                Ok(Some(_)) => problems.push(format!("`{id}` {stale}")),
                Ok(None) => problems.push(format!("`{id}` is gone after its rewrite")),
                Err(cause) => problems.push(cause),
            }
        }
        outcome.returned = Some(shown);
        verdict(outcome, (!problems.is_empty()).then(|| problems.join("; ")))
    }

    /// The parent document type `document` that `rewrite` rewrites, with its container.
    pub(super) fn rewritten(&self, rewrite: Option<&Request>, document: &str) -> Option<(&Container, &DocumentType)> {
        let c = self.logical.container(&rewrite?.container)?;
        Some((c, c.document_type(document)?))
    }

    /// A count or subset kept on a parent: `r`, its query (from the change feed) or its
    /// rewrite alone, and the `rewrite` that follows the query, if any. The query must
    /// find the parent's live children (their number, or the newest in order); the
    /// rewrite stores them in the parent, and a point read must show them.
    pub(super) async fn update_kept(
        &self,
        r: &Request,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let kept = match &r.purpose {
            Purpose::UpdateCount { document, property, .. } => {
                self.kept_on_parent(rewrite, (document, property, false), written, state)
            }
            Purpose::UpdateSubset { document, property, .. } => {
                self.kept_on_parent(rewrite, (document, property, true), written, state)
            }
            _ => return Vec::new(),
        };
        let (container, parent, kept) = match kept {
            Ok(kept) => kept,
            Err(reason) => return vec![fail(self.outcome(r), reason)],
        };
        let mut checks = Vec::new();
        if let Some(q) = (r.kind() != OperationKind::Write).then_some(r) {
            let mut outcome = self.outcome(q);
            outcome.expected = kept.expected.clone();
            outcome.ordered = kept.ordered;
            let checked = match self.parent_query(q, &parent, &mut outcome).await {
                Ok(found) => (kept.judge)(q, outcome, &found),
                Err(cause) => error(outcome, cause),
            };
            let scoped = q.kind() == OperationKind::SinglePartitionQuery;
            checks.push(self.probed(checked, q, &parent.id, scoped).await);
        }
        if let Some(w) = rewrite {
            checks.push(
                self.rewrite_parent(w, container, &parent, kept.stored, state, kept.shown)
                    .await,
            );
        }
        checks
    }

    /// The count or subset (`subset`) kept in parent document type `document`'s
    /// `property`, which `rewrite` stores, for the child the operation wrote last: the
    /// parent's container, its live sample and what is kept on it.
    fn kept_on_parent<'a>(
        &'a self,
        rewrite: Option<&Request>,
        (document, property, subset): (&str, &str, bool),
        written: &[Written],
        state: &WriteState,
    ) -> Result<(&'a str, Sample, Kept<'a>), String> {
        let missing = || {
            format!(
                "`{document}` keeps no {}`{property}`",
                if subset { "subset " } else { "" }
            )
        };
        let (pc, pd) = self.rewritten(rewrite, document).ok_or_else(missing)?;
        let count = pd.computed.iter().find(|v| !subset && v.name == *property);
        let list = pd.embedded.iter().find(|e| subset && e.name == *property);
        let (container, document_type) = match (count, list.and_then(|e| e.subset.as_ref())) {
            (Some(v), _) => (&v.container, &v.document_type),
            (None, Some(of)) => (&of.container, &of.document_type),
            (None, None) => return Err(missing()),
        };
        let counted = self.counted(container, document_type)?;
        let (_, parent) = child_and_parent(written, state, pc, pd, counted, container)?;
        let kept = match (count, list) {
            (Some(v), _) => {
                let belongs = |s: &&Sample| crate::samples::belongs(counted, container, &pd.source, &parent, s);
                count_kept(v, state.live.iter().filter(belongs).count(), &parent.id)
            }
            (None, Some(e)) => subset_kept(
                e,
                crate::samples::subset_items(self.logical, e, &pd.source, &parent, &state.live),
            ),
            (None, None) => return Err(missing()),
        };
        Ok((&pc.name, parent, kept))
    }

    /// The document type `document_type` of `container`.
    pub(super) fn counted(&self, container: &str, document_type: &str) -> Result<&DocumentType, String> {
        self.logical
            .container(container)
            .and_then(|c| c.document_type(document_type))
            .ok_or_else(|| format!("there is no `{document_type}` in `{container}`"))
    }

    /// Runs query `q` (from a child's change feed) for `parent`'s children: each
    /// parameter bound to the parent's id, in its partition when the query is scoped.
    pub(super) async fn parent_query(
        &self,
        q: &Request,
        parent: &Sample,
        outcome: &mut RequestOutcome,
    ) -> Result<Vec<Value>, String> {
        outcome.parameters = super::super::all_bound_to(q, &parent.id);
        let partition = (q.kind() == OperationKind::SinglePartitionQuery).then(|| Key::one(parent.id.clone()));
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let sql = q.sql().unwrap_or_default().to_string();
        self.query(&q.container, &sql, &outcome.parameters, partition.as_ref())
            .await
    }

    /// Rewrites `parent` in container `container` (the request `rewrite`) with its
    /// property `name` set to `value` (a count or subset kept on it), then reads it back:
    /// `shown` of what the server holds must equal `shown` of what was written.
    pub(super) async fn rewrite_parent(
        &self,
        rewrite: &Request,
        container: &str,
        parent: &Sample,
        (name, value): (&str, Value),
        state: &mut WriteState,
        shown: impl Fn(&Value) -> String,
    ) -> RequestOutcome {
        let mut outcome = self.outcome(rewrite);
        let mut body = parent.body.clone();
        if let Value::Object(map) = &mut body {
            map.insert(name.to_string(), value);
        }
        outcome.partition_key = Some(parent.partition_key.to_string());
        outcome.id = Some(parent.id.clone());
        let wanted = shown(&body);
        outcome.expected = vec![wanted.clone()];
        let Ok(client) = self.client(container) else {
            return fail(outcome, format!("there is no container `{container}`"));
        };
        let operation = format!("replace item `{}` in `{container}`", parent.id);
        let sent = self
            .connection
            .request(&operation, &[], || {
                client.replace_item(parent.partition_key.sdk(), &parent.id, &body, None)
            })
            .await;
        if let Err(e) = sent {
            return error(outcome, e.to_string());
        }
        if let Some(live) = state.live.iter_mut().find(|s| same_item(s, parent)) {
            live.body = body.clone();
        }
        match self.point_read(container, &parent.partition_key, &parent.id).await {
            Ok(Some(read)) => {
                let held = shown(&read);
                outcome.returned = Some(vec![held.clone()]);
                let problem =
                    (held != wanted).then(|| format!("`{}` holds {held} after the rewrite, not {wanted}", parent.id));
                verdict(outcome, problem)
            }
            Ok(None) => fail(outcome, format!("`{}` is gone after its rewrite", parent.id)),
            Err(cause) => error(outcome, cause),
        }
    }
}

/// The `counted` child (in `container`) the operation wrote last, and the live sample
/// of `pd` (in `pc`) it belongs to.
pub(super) fn child_and_parent(
    written: &[Written],
    state: &WriteState,
    pc: &Container,
    pd: &DocumentType,
    counted: &DocumentType,
    container: &str,
) -> Result<(Sample, Sample), String> {
    let child = written
        .iter()
        .rev()
        .find(|w| w.accepted && w.sample.container == container && w.sample.document_type == counted.name)
        .map(|w| w.sample.clone())
        .ok_or_else(|| format!("the operation wrote no `{}`", counted.name))?;
    let parent = state
        .live
        .iter()
        .find(|p| {
            p.container == pc.name
                && p.document_type == pd.name
                && crate::samples::belongs(counted, container, &pd.source, p, &child)
        })
        .cloned()
        .ok_or_else(|| format!("no live `{}` that `{}` belongs to", pd.name, child.id))?;
    Ok((child, parent))
}
