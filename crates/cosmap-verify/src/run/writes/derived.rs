//! Derived data kept current after a write: extended references (`extendedReference`),
//! ancestors lists (`treeAncestors`), counts (`computedValue`) and subsets (`subset`),
//! by query and rewrite.

use super::*;

/// A count or subset kept on a parent: the `query` (from the change feed) and the
/// `rewrite` of parent document type `document`'s `property`, either absent, and the
/// outcome the first of them starts.
struct KeptOnParent<'r> {
    query: Option<&'r Request>,
    rewrite: Option<&'r Request>,
    document: &'r str,
    property: &'r str,
    outcome: RequestOutcome,
}

impl Run<'_> {
    /// The sync of an ancestors list after a tree element was replaced (renamed or
    /// moved): `query` must find every live document whose list holds it; each found
    /// is rewritten (`rewrite`) with the element's new ancestors and values in place of
    /// the entries down to it, and a point read of each must then show them.
    pub(super) async fn refresh_descendants(
        &self,
        query: &Request,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let mut outcome = self.outcome(query);
        let Purpose::SyncAncestors { document, property, .. } = &query.purpose else {
            return vec![fail(outcome, "not an ancestors list's sync".into())];
        };
        let (changed, c, copied) = match self.sync_of(query, written, document, document, property) {
            Ok(found) => found,
            Err(reason) => return vec![fail(outcome, reason)],
        };
        let position = |body: &Value| {
            body.get(property).and_then(Value::as_array).and_then(|l| {
                l.iter()
                    .position(|e| e.get("id").and_then(Value::as_str) == Some(changed.id.as_str()))
            })
        };
        outcome.expected = state
            .live
            .iter()
            .filter(|s| s.container == c.name && s.document_type == *document && position(&s.body).is_some())
            .map(|s| s.id.clone())
            .collect();
        let (probed, found) = match self.sync_query(query, outcome, &c.name, &changed.id, None).await {
            Ok(found) => found,
            Err(failed) => return vec![failed],
        };
        let mut checks = vec![probed];
        let Some(rewrite) = rewrite else {
            return checks;
        };
        // The changed element's own list, then its entry with its new values, then
        // the entries below it as they were.
        let above: Vec<Value> = changed
            .body
            .get(property)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let edit = |holder: &Value| {
            let mut body = holder.clone();
            let Some(at) = position(&body) else { return body };
            if let Some(Value::Array(list)) = body.get_mut(property) {
                let mut entry = list[at].clone();
                if let Value::Object(e) = &mut entry {
                    for a in &copied {
                        match changed.body.get(a) {
                            Some(v) => e.insert(a.clone(), v.clone()),
                            None => e.remove(a),
                        };
                    }
                }
                let below: Vec<Value> = list[at + 1..].to_vec();
                *list = above.iter().cloned().chain([entry]).chain(below).collect();
            }
            body
        };
        let shows = |read: &Value, body: &Value| read.get(property) == body.get(property);
        let stale = format!(
            "does not show `{}`'s new values and ancestors in `{property}`",
            changed.id
        );
        checks.push(
            self.rewrite_found(rewrite, c, &found, state, &edit, &shows, &stale)
                .await,
        );
        checks
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

    /// The sync of an extended reference after its target was written: `query` must
    /// find every live holder that refers to it; each found is rewritten with the
    /// target's new values (`rewrite`), and a point read of each must then show them
    /// (a rename reaches every holder).
    pub(super) async fn refresh_holders(
        &self,
        query: &Request,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let mut outcome = self.outcome(query);
        let Purpose::SyncExtendedReference {
            document,
            reference,
            target,
        } = &query.purpose
        else {
            return vec![fail(outcome, "not an extended reference's sync".into())];
        };
        let (changed, c, copied) = match self.sync_of(query, written, target, document, reference) {
            Ok(found) => found,
            Err(reason) => return vec![fail(outcome, reason)],
        };
        let refers = |s: &Sample| {
            s.container == c.name
                && s.document_type == *document
                && s.body
                    .get(reference)
                    .is_some_and(|r| !referring(r, &changed.id).is_empty())
        };
        outcome.expected = state.live.iter().filter(|s| refers(s)).map(|s| s.id.clone()).collect();
        let partition = (query.kind() == OperationKind::SinglePartitionQuery).then(|| Key::one(changed.id.clone()));
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let (probed, found) = match self
            .sync_query(query, outcome, &c.name, &changed.id, partition.as_ref())
            .await
        {
            Ok(found) => found,
            Err(failed) => return vec![failed],
        };
        let mut checks = vec![probed];
        let Some(rewrite) = rewrite else {
            return checks;
        };
        let edit = |holder: &Value| {
            let mut body = holder.clone();
            let elements: Vec<&mut Value> = match body.get_mut(reference) {
                Some(Value::Array(list)) => list.iter_mut().collect(),
                Some(single) => vec![single],
                None => Vec::new(),
            };
            for element in elements {
                let Value::Object(r) = element else { continue };
                if r.get("id").and_then(Value::as_str) != Some(changed.id.as_str()) {
                    continue;
                }
                for a in &copied {
                    match changed.body.get(a) {
                        Some(v) => r.insert(a.clone(), v.clone()),
                        None => r.remove(a),
                    };
                }
            }
            body
        };
        let shows = |read: &Value, _: &Value| {
            read.get(reference).is_some_and(|r| {
                referring(r, &changed.id)
                    .iter()
                    .all(|r| copied.iter().all(|a| r.get(a.as_str()) == changed.body.get(a.as_str())))
            })
        };
        let stale = format!("still shows the old `{reference}` values");
        checks.push(
            self.rewrite_found(rewrite, c, &found, state, &edit, &shows, &stale)
                .await,
        );
        checks
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
        if problems.is_empty() {
            outcome.verdict = Verdict::Pass;
            outcome
        } else {
            fail(outcome, problems.join("; "))
        }
    }

    /// The parent document type `document` that `rewrite` rewrites, with its container.
    pub(super) fn rewritten(&self, rewrite: Option<&Request>, document: &str) -> Option<(&Container, &DocumentType)> {
        let c = self.logical.container(&rewrite?.container)?;
        Some((c, c.document_type(document)?))
    }

    /// A count or subset kept on a parent: `r`, its query (from the change feed) or its
    /// rewrite alone, and the `rewrite` that follows the query, if any.
    pub(super) async fn update_kept(
        &self,
        r: &Request,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let (Purpose::UpdateCount { document, property, .. } | Purpose::UpdateSubset { document, property, .. }) =
            &r.purpose
        else {
            return Vec::new();
        };
        let query = (r.kind() != OperationKind::Write).then_some(r);
        let outcome = self.outcome(r);
        let kept = KeptOnParent {
            query,
            rewrite,
            document,
            property,
            outcome,
        };
        if matches!(r.purpose, Purpose::UpdateSubset { .. }) {
            self.update_subset(kept, written, state).await
        } else {
            self.update_count(kept, written, state).await
        }
    }

    /// A count kept on the parent of the child just written (computedValue): the
    /// `recount` query (from the change feed) must find the live children; the
    /// `rewrite` stores their number in the parent, and a point read must show it.
    async fn update_count(
        &self,
        kept: KeptOnParent<'_>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let KeptOnParent {
            query: recount,
            rewrite,
            document,
            property,
            outcome,
        } = kept;
        let found = self
            .rewritten(rewrite, document)
            .and_then(|(c, d)| Some((c, d, d.computed.iter().find(|v| v.name == *property)?)));
        let Some((pc, pd, v)) = found else {
            return vec![fail(outcome, format!("`{document}` keeps no `{property}`"))];
        };
        let (counted, parent) = match self.counted(&v.container, &v.document_type).and_then(|counted| {
            let (_, parent) = child_and_parent(written, state, pc, pd, counted, &v.container)?;
            Ok((counted, parent))
        }) {
            Ok(found) => found,
            Err(reason) => return vec![fail(outcome, reason)],
        };
        let expected = state
            .live
            .iter()
            .filter(|s| crate::samples::belongs(counted, &v.container, &pd.source, &parent, s))
            .count();
        let mut checks = Vec::new();
        if let Some(q) = recount {
            let mut outcome = self.outcome(q);
            outcome.expected = vec![expected.to_string()];
            let checked = match self.parent_query(q, &parent, &mut outcome).await {
                Ok(found) => {
                    // `SELECT VALUE COUNT(1)` in one partition; `SELECT VALUE 1` per match across.
                    let n = if q.counts_matches() {
                        found.len().to_string()
                    } else {
                        found.first().map(Value::to_string).unwrap_or_default()
                    };
                    outcome.returned = Some(vec![n.clone()]);
                    if n == expected.to_string() {
                        outcome.verdict = Verdict::Pass;
                        outcome
                    } else {
                        let why = format!("counted {n} `{}`s of `{}`, expected {expected}", v.counts, parent.id);
                        fail(outcome, why)
                    }
                }
                Err(cause) => error(outcome, cause),
            };
            let scoped = q.kind() == OperationKind::SinglePartitionQuery;
            checks.push(self.probed(checked, q, &parent.id, scoped).await);
        }
        if let Some(w) = rewrite {
            let shown = |read: &Value| read.get(&v.name).map_or_else(|| "nothing".into(), Value::to_string);
            let stored = (v.name.as_str(), Value::from(expected));
            checks.push(self.rewrite_parent(w, &pc.name, &parent, stored, state, shown).await);
        }
        checks
    }

    /// A subset kept on the parent of the child just written (`subset`): the `query`
    /// (from the change feed) must return the parent's newest live children in order;
    /// the `rewrite` stores them in the parent, and a point read must show them.
    async fn update_subset(
        &self,
        kept: KeptOnParent<'_>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let KeptOnParent {
            query,
            rewrite,
            document,
            property,
            outcome,
        } = kept;
        let found = self.rewritten(rewrite, document).and_then(|(c, d)| {
            let e = d.embedded.iter().find(|e| e.name == *property)?;
            Some((c, d, e, e.subset.as_ref()?))
        });
        let Some((pc, pd, e, of)) = found else {
            return vec![fail(outcome, format!("`{document}` keeps no subset `{property}`"))];
        };
        let parent = match self
            .counted(&of.container, &of.document_type)
            .and_then(|counted| child_and_parent(written, state, pc, pd, counted, &of.container))
        {
            Ok((_, parent)) => parent,
            Err(reason) => return vec![fail(outcome, reason)],
        };
        let items = crate::samples::subset_items(self.logical, e, &pd.source, &parent, &state.live);
        let identity = e.attributes.first().map_or("id", |a| a.name.as_str());
        let ids_of = |list: Option<&Vec<Value>>| -> Vec<String> {
            list.map(|list| {
                list.iter()
                    .map(|i| i.get(identity).and_then(Value::as_str).unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
        };
        let ids = ids_of(Some(&items));
        let mut checks = Vec::new();
        if let Some(q) = query {
            let mut outcome = self.outcome(q);
            outcome.expected = ids.clone();
            outcome.ordered = true;
            let checked = match self.parent_query(q, &parent, &mut outcome).await {
                Ok(found) => {
                    let wanted = ids.clone();
                    super::super::reads::judge(outcome, &found, move |docs| {
                        docs.iter().map(|d| id_of(d)).collect::<Vec<_>>() == wanted
                    })
                }
                Err(cause) => error(outcome, cause),
            };
            let scoped = q.kind() == OperationKind::SinglePartitionQuery;
            checks.push(self.probed(checked, q, &parent.id, scoped).await);
        }
        if let Some(w) = rewrite {
            let shown = |read: &Value| ids_of(read.get(&e.name).and_then(Value::as_array)).join(", ");
            let stored = (e.name.as_str(), Value::Array(items));
            checks.push(self.rewrite_parent(w, &pc.name, &parent, stored, state, shown).await);
        }
        checks
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
        outcome.parameters = q
            .query()
            .map(|(_, names)| {
                names
                    .iter()
                    .map(|n| (format!("@{n}"), Value::String(parent.id.clone())))
                    .collect()
            })
            .unwrap_or_default();
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
                if held == wanted {
                    outcome.verdict = Verdict::Pass;
                    outcome
                } else {
                    fail(
                        outcome,
                        format!("`{}` holds {held} after the rewrite, not {wanted}", parent.id),
                    )
                }
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
