//! Writes: each write request sent for real (a new sample, a revised one, one
//! deleted; copies built from their new source), then a point read of what it wrote,
//! and of every copy the operation did not write itself.

use std::collections::BTreeMap;

use cosmap_mapper::operations::{Operation, OperationKind, Purpose, Request, ValueSource, WriteKind};
use cosmap_mapper::{Container, DocumentType, Role};
use serde_json::Value;

use super::{error, fail, id_of, pattern_outcome, Run};
use crate::report::{PatternOutcome, RequestOutcome, Verdict};
use crate::samples::{lookup, Key, Sample};

/// A document an operation wrote.
pub(super) struct Written {
    pub(super) sample: Sample,
    pub(super) kind: WriteKind,
    /// The server accepted the write.
    pub(super) accepted: bool,
}

/// Writes made so far: documents still there, new documents made, revisions used.
pub(super) struct WriteState {
    pub(super) live: Vec<Sample>,
    pub(super) created: BTreeMap<(String, String), usize>,
    pub(super) revision: u32,
}

impl WriteState {
    /// Before any write: the samples as written.
    pub(super) fn new(samples: Vec<Sample>) -> Self {
        WriteState {
            live: samples,
            created: BTreeMap::new(),
            revision: 0,
        }
    }
}

impl Run<'_> {
    pub(super) async fn write(&self, op: &Operation, state: &mut WriteState) -> PatternOutcome {
        let mut requests = Vec::new();
        // What this operation wrote (for the copies that follow their source).
        let mut written: Vec<Written> = Vec::new();
        // Parent reads (treeAncestors) waiting for their document's write: where to
        // report each, and the request.
        let mut parent_reads: Vec<(usize, &Request)> = Vec::new();
        let mut list = op.requests.iter().peekable();
        while let Some(r) = list.next() {
            // A subset or count kept on a parent: a query (from the change feed), then its rewrite.
            if matches!(r.purpose, Purpose::UpdateCount { .. } | Purpose::UpdateSubset { .. }) {
                let rewrite = if r.kind() == OperationKind::Write {
                    Some(r)
                } else {
                    list.next_if(|n| n.kind() == OperationKind::Write && n.purpose == r.purpose)
                };
                let query = (r.kind() != OperationKind::Write).then_some(r);
                let checks = if matches!(r.purpose, Purpose::UpdateSubset { .. }) {
                    self.update_subset(query, rewrite, &written, state).await
                } else {
                    self.update_count(query, rewrite, &written, state).await
                };
                requests.extend(checks);
                continue;
            }
            // An extended reference's sync: the query for the holders, then their rewrite.
            if matches!(r.purpose, Purpose::SyncExtendedReference { .. }) && r.kind() != OperationKind::Write {
                let rewrite = list.next_if(|n| n.kind() == OperationKind::Write && n.purpose == r.purpose);
                requests.extend(self.refresh_holders(r, rewrite, &written, state).await);
                continue;
            }
            // A child kept in a bucket: appended to its window's bucket.
            if matches!(r.purpose, Purpose::AppendToBucket { .. }) {
                requests.push(self.append_to_bucket(r, state).await);
                continue;
            }
            // A tree's parent, read for the document a later request writes (after a
            // claim, say): checked once that one is written, reported in its place.
            if matches!(r.purpose, Purpose::ReadParentAncestors { .. }) {
                parent_reads.push((requests.len(), r));
                continue;
            }
            // An ancestors list's sync: the query for the descendants, then their rewrite.
            if matches!(r.purpose, Purpose::SyncAncestors { .. }) && r.kind() != OperationKind::Write {
                let rewrite = list.next_if(|n| n.kind() == OperationKind::Write && n.purpose == r.purpose);
                requests.extend(self.refresh_descendants(r, rewrite, &written, state).await);
                continue;
            }
            requests.push(self.write_request(r, state, &mut written).await);
            // The parent reads waiting for this document.
            let mut k = 0;
            while k < parent_reads.len() {
                let (at, read) = parent_reads[k];
                let Purpose::ReadParentAncestors { document, .. } = &read.purpose else {
                    k += 1;
                    continue;
                };
                if r.document_types.first() == Some(document) {
                    let outcome = self.parent_read(read, &written).await;
                    requests.insert(at, outcome);
                    parent_reads.remove(k);
                } else {
                    k += 1;
                }
            }
        }
        // A parent read whose document was never written fails, in its place.
        for (at, read) in parent_reads.into_iter().rev() {
            let outcome = self.parent_read(read, &written).await;
            requests.insert(at.min(requests.len()), outcome);
        }
        requests.extend(self.copies_in_sync(&written).await);
        requests.extend(self.duplicates_refused(op, state).await);
        pattern_outcome(op, requests)
    }

    /// The sync of an extended reference after its target was written: `query` must
    /// find every live holder that refers to it; each found is rewritten with the
    /// target's new values (`rewrite`), and a point read of each must then show them
    /// (a rename reaches every holder).
    async fn refresh_holders(
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
        // Every parameter names the changed document's identity.
        outcome.parameters = super::all_bound_to(query, &changed.id);
        let partition = (query.kind() == OperationKind::SinglePartitionQuery).then(|| Key::one(changed.id.clone()));
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let sql = query.sql().unwrap_or_default().to_string();
        let found = match self.query(&c.name, &sql, &outcome.parameters, partition.as_ref()).await {
            Ok(found) => found,
            Err(cause) => return vec![error(outcome, cause)],
        };
        let judged = super::reads::judge(outcome, &found, |_| true);
        let mut checks = vec![self.probed(judged, query, &changed.id, partition.is_some()).await];
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

    /// A new child appended to its window's bucket (`bucket`): a new item in the
    /// latest window of the first parent's buckets, whose bucket the request's id
    /// must name (the item's window, worked out from the model), then read back: the
    /// bucket must hold what it held and the new item, in that order.
    async fn append_to_bucket(&self, r: &Request, state: &mut WriteState) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Some((c, d, b)) = self.bucket_of(r) else {
            return fail(outcome, format!("`{}` holds no buckets", r.container));
        };
        // The latest bucket of the first parent, and a new item at its window's end.
        let buckets = || {
            state
                .live
                .iter()
                .filter(|s| s.container == c.name && s.document_type == d.name)
        };
        let first = buckets().next().map(|s| s.partition_key.clone());
        let Some(last) = buckets()
            .filter(|s| Some(&s.partition_key) == first.as_ref())
            .max_by(|x, y| x.id.cmp(&y.id))
            .cloned()
        else {
            return fail(outcome, format!("there is no `{}` to append to", d.name));
        };
        let items = |body: &Value| {
            body.get(&b.items)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let before = items(&last.body);
        let Some(Value::Object(mut item)) = before.first().cloned() else {
            return fail(
                outcome,
                format!("the bucket `{}` holds no item to model a new one on", last.id),
            );
        };
        let end = match b.window {
            cosmap_mapper::BucketWindow::Minute => ":59Z",
            cosmap_mapper::BucketWindow::Hour => ":59:59Z",
            cosmap_mapper::BucketWindow::Day => "T23:59:59Z",
        };
        let time = format!("{}{end}", last.id);
        item.insert(b.time.clone(), Value::String(time.clone()));
        let item = Value::Object(item);
        // The id the request names, bound from the item; the model says what it must be.
        let window: String = time.chars().take(b.window.prefix_len()).collect();
        let id = match r.id() {
            Some(ValueSource::Window { parameter, length }) => match item.get(parameter).and_then(Value::as_str) {
                Some(t) => t.chars().take(*length).collect::<String>(),
                None => return fail(outcome, format!("the item holds no `{parameter}` to name its bucket")),
            },
            other => {
                let what = other.map_or_else(|| "nothing".to_string(), ToString::to_string);
                return fail(
                    outcome,
                    format!("the bucket's id comes from {what}, not from the item's window"),
                );
            }
        };
        let pk = last.partition_key.clone();
        outcome.partition_key = Some(pk.to_string());
        outcome.id = Some(id.clone());
        outcome.expected = vec![window.clone()];
        if id != window {
            return fail(
                outcome,
                format!(
                    "the request appends to `{id}`, but the item's {} is `{window}`",
                    b.window.as_str()
                ),
            );
        }
        let Ok(client) = self.client(&c.name) else {
            return fail(outcome, format!("there is no container `{}`", c.name));
        };
        let current = match self.point_read(&c.name, &pk, &id).await {
            Ok(current) => current,
            Err(cause) => return error(outcome, cause),
        };
        let mut body = current.clone().unwrap_or_else(|| last.body.clone());
        let mut list = current.as_ref().map(&items).unwrap_or_default();
        list.push(item.clone());
        if let Value::Object(map) = &mut body {
            map.insert(b.items.clone(), Value::Array(list));
        }
        let operation = format!("replace item `{id}` in `{}`", c.name);
        let sent = if current.is_some() {
            self.connection
                .request(&operation, &[], || client.replace_item(pk.sdk(), &id, &body, None))
                .await
                .map(|_| ())
        } else {
            self.connection
                .request(&operation, &[], || client.create_item(pk.sdk(), &id, &body, None))
                .await
                .map(|_| ())
        };
        if let Err(e) = sent {
            return fail(outcome, format!("appending to `{id}` failed: {e}"));
        }
        let mut want = before.clone();
        want.push(item);
        match self.point_read(&c.name, &pk, &id).await {
            Ok(Some(read)) => {
                outcome.returned = Some(vec![id.clone()]);
                if items(&read) != want {
                    return fail(
                        outcome,
                        format!("`{id}` does not hold its items and the new one, in order"),
                    );
                }
                if let Some(live) = state
                    .live
                    .iter_mut()
                    .find(|s| s.container == c.name && s.id == id && s.partition_key == pk)
                {
                    live.body = body;
                }
                outcome.verdict = Verdict::Pass;
                outcome
            }
            Ok(None) => fail(outcome, format!("`{id}` is not there after the append")),
            Err(cause) => error(outcome, cause),
        }
    }

    /// The point read of the new parent of the tree element just written
    /// (`treeAncestors`): through the parent reference it holds (nothing to read at a
    /// root), and its ancestors list must be the parent's list and the parent, root
    /// first, as the application builds it.
    async fn parent_read(&self, r: &Request, written: &[Written]) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Purpose::ReadParentAncestors { document, reference } = &r.purpose else {
            return fail(outcome, "not a parent read".into());
        };
        let Some(child) = written
            .iter()
            .rev()
            .find(|w| w.accepted && w.sample.document_type == *document)
            .map(|w| &w.sample)
        else {
            return fail(
                outcome,
                format!("the operation wrote no `{document}` whose parent to read"),
            );
        };
        let lists: Vec<String> = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(document))
            .map(|d| {
                d.references
                    .iter()
                    .filter(|x| x.ancestry.as_ref().is_some_and(|a| a.parent == *reference))
                    .map(|x| x.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let ids = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|l| l.iter().map(id_of).collect())
                .unwrap_or_default()
        };
        let Some(link) = child.body.get(reference) else {
            // A root: no parent, and an empty list.
            outcome.expected = Vec::new();
            return match lists.iter().find(|l| !ids(child.body.get(l.as_str())).is_empty()) {
                Some(l) => fail(outcome, format!("the root `{}` lists ancestors in `{l}`", child.id)),
                None => super::reads::judge(outcome, &[], |_| true),
            };
        };
        let (Some(pk), Some(id)) = (
            link.get("partitionKey").and_then(Key::from_json),
            link.get("id").and_then(Value::as_str),
        ) else {
            return fail(
                outcome,
                format!("`{}` holds no id and partition key in `{reference}`", child.id),
            );
        };
        outcome.partition_key = Some(pk.to_string());
        outcome.id = Some(id.to_string());
        outcome.expected = vec![id.to_string()];
        let parent = match self.point_read(&r.container, &pk, id).await {
            Ok(parent) => parent,
            Err(cause) => return error(outcome, cause),
        };
        if let Some(parent) = &parent {
            for l in &lists {
                let mut want = ids(parent.get(l.as_str()));
                want.push(id.to_string());
                let got = ids(child.body.get(l.as_str()));
                if got != want {
                    let why = format!(
                        "`{}` lists {got:?} in `{l}`, but its parent's list and the parent make {want:?}",
                        child.id
                    );
                    return fail(outcome, why);
                }
            }
        }
        super::reads::judge(outcome, &parent.into_iter().collect::<Vec<_>>(), |_| true)
    }

    /// The sync of an ancestors list after a tree element was replaced (renamed or
    /// moved): `query` must find every live document whose list holds it; each found
    /// is rewritten (`rewrite`) with the element's new ancestors and values in place of
    /// the entries down to it, and a point read of each must then show them.
    async fn refresh_descendants(
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
        outcome.parameters = super::all_bound_to(query, &changed.id);
        let sql = query.sql().unwrap_or_default().to_string();
        let found = match self.query(&c.name, &sql, &outcome.parameters, None).await {
            Ok(found) => found,
            Err(cause) => return vec![error(outcome, cause)],
        };
        let judged = super::reads::judge(outcome, &found, |_| true);
        let mut checks = vec![self.probed(judged, query, &changed.id, false).await];
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

    /// What a sync after `query` works on: the `changed` document of type `written_type`
    /// the operation wrote, the query's container, and the attributes the holders'
    /// `reference` (of document type `document`) copies from it.
    fn sync_of(
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
    async fn rewrite_found(
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
    fn rewritten(&self, rewrite: Option<&Request>, document: &str) -> Option<(&Container, &DocumentType)> {
        let c = self.logical.container(&rewrite?.container)?;
        Some((c, c.document_type(document)?))
    }

    /// A count kept on the parent of the child just written (computedValue): the
    /// `recount` query (from the change feed) must find the live children; the
    /// `rewrite` stores their number in the parent, and a point read must show it.
    async fn update_count(
        &self,
        recount: Option<&Request>,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let Some(first) = recount.or(rewrite) else {
            return Vec::new();
        };
        let Purpose::UpdateCount { document, property, .. } = &first.purpose else {
            return Vec::new();
        };
        let outcome = self.outcome(first);
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
            let mut body = parent.body.clone();
            if let Value::Object(map) = &mut body {
                map.insert(v.name.clone(), Value::from(expected));
            }
            let shown = |read: &Value| read.get(&v.name).map_or_else(|| "nothing".into(), Value::to_string);
            let outcome = self.outcome(w);
            checks.push(
                self.rewrite_parent(outcome, &pc.name, &parent, body, state, shown)
                    .await,
            );
        }
        checks
    }

    /// A subset kept on the parent of the child just written (`subset`): the `query`
    /// (from the change feed) must return the parent's newest live children in order;
    /// the `rewrite` stores them in the parent, and a point read must show them.
    async fn update_subset(
        &self,
        query: Option<&Request>,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let Some(first) = query.or(rewrite) else {
            return Vec::new();
        };
        let Purpose::UpdateSubset { document, property, .. } = &first.purpose else {
            return Vec::new();
        };
        let outcome = self.outcome(first);
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
                    super::reads::judge(outcome, &found, move |docs| {
                        docs.iter().map(|d| id_of(d)).collect::<Vec<_>>() == wanted
                    })
                }
                Err(cause) => error(outcome, cause),
            };
            let scoped = q.kind() == OperationKind::SinglePartitionQuery;
            checks.push(self.probed(checked, q, &parent.id, scoped).await);
        }
        if let Some(w) = rewrite {
            let mut body = parent.body.clone();
            if let Value::Object(map) = &mut body {
                map.insert(e.name.clone(), Value::Array(items));
            }
            let shown = |read: &Value| ids_of(read.get(&e.name).and_then(Value::as_array)).join(", ");
            let outcome = self.outcome(w);
            checks.push(
                self.rewrite_parent(outcome, &pc.name, &parent, body, state, shown)
                    .await,
            );
        }
        checks
    }

    /// The document type `document_type` of `container`.
    fn counted(&self, container: &str, document_type: &str) -> Result<&DocumentType, String> {
        self.logical
            .container(container)
            .and_then(|c| c.document_type(document_type))
            .ok_or_else(|| format!("there is no `{document_type}` in `{container}`"))
    }

    /// Runs query `q` (from a child's change feed) for `parent`'s children: each
    /// parameter bound to the parent's id, in its partition when the query is scoped.
    async fn parent_query(
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

    /// Rewrites `parent` in container `container` with `body` (a count or subset kept
    /// on it), then reads it back: `shown` of what the server holds must equal `shown`
    /// of what was written.
    async fn rewrite_parent(
        &self,
        mut outcome: RequestOutcome,
        container: &str,
        parent: &Sample,
        body: Value,
        state: &mut WriteState,
        shown: impl Fn(&Value) -> String,
    ) -> RequestOutcome {
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

    /// For each document the operation wrote whose type has copies it did not write:
    /// a point read of the copy, which must show the new source (or be gone).
    pub(super) async fn copies_in_sync(&self, written: &[Written]) -> Vec<RequestOutcome> {
        let mut checks = Vec::new();
        for w in written.iter().filter(|w| w.accepted) {
            for c in &self.logical.containers {
                for d in &c.document_types {
                    let copies_it = d.copy_of.as_ref().is_some_and(|of| {
                        of.container == w.sample.container && of.document_type == w.sample.document_type
                    });
                    let synced = written.iter().any(|x| {
                        x.sample.container == c.name && x.sample.document_type == d.name && x.sample.id == w.sample.id
                    });
                    if !copies_it || synced {
                        continue;
                    }
                    checks.push(self.copy_check(c, d, w).await);
                }
            }
        }
        checks
    }

    async fn copy_check(&self, c: &Container, d: &DocumentType, w: &Written) -> RequestOutcome {
        let mut outcome = RequestOutcome {
            added: true,
            check: Some("copy in sync?".into()),
            ..RequestOutcome::pending(OperationKind::PointRead, None, &c.name, vec![d.name.clone()], true)
        };
        let copy = match self.generator.copy_of(&c.name, &d.name, &w.sample) {
            Ok(copy) => copy,
            Err(e) => return fail(outcome, e.to_string()),
        };
        outcome.partition_key = Some(copy.partition_key.to_string());
        outcome.id = Some(copy.id.clone());
        if w.kind != WriteKind::Delete {
            outcome.expected = vec![copy.id.clone()];
        }
        let read = match self.point_read(&c.name, &copy.partition_key, &copy.id).await {
            Ok(read) => read,
            Err(cause) => return error(outcome, cause),
        };
        outcome.returned = Some(read.iter().map(id_of).collect());
        let unsynced = "the operation does not write the copy, and nothing else keeps it in sync here";
        let problem = match (w.kind, &read) {
            (WriteKind::Delete, None) => None,
            (WriteKind::Delete, Some(_)) => Some(format!("the copy of `{}` is still there; {unsynced}", copy.id)),
            (_, None) => Some(format!("there is no copy of `{}`; {unsynced}", copy.id)),
            (_, Some(read)) => differences(&copy.body, read)
                .map(|fields| format!("the copy of `{}` differs in {fields}; {unsynced}", copy.id)),
        };
        match problem {
            None => {
                outcome.verdict = Verdict::Pass;
                outcome
            }
            Some(reason) => fail(outcome, reason),
        }
    }

    /// The claim a claim request writes: on the owner this operation creates next
    /// (the claim comes first), or on the owner it deleted (the claim comes after).
    fn claimed(
        &self,
        d: &DocumentType,
        kind: WriteKind,
        state: &WriteState,
        written: &[Written],
    ) -> Result<Sample, String> {
        let of = d
            .claim_of
            .as_ref()
            .ok_or_else(|| format!("the claim `{}` does not say what it claims", d.name))?;
        let owner = match kind {
            WriteKind::Create => {
                let serial = state
                    .created
                    .get(&(of.container.clone(), of.document_type.clone()))
                    .copied()
                    .unwrap_or(0);
                self.generator
                    .new_sample(&of.container, &of.document_type, serial)
                    .map_err(|e| e.to_string())?
            }
            WriteKind::Delete | WriteKind::Replace => written
                .iter()
                .rev()
                .map(|w| &w.sample)
                .find(|s| s.container == of.container && s.document_type == of.document_type)
                .cloned()
                .ok_or_else(|| format!("no `{}` written before its claim", of.document_type))?,
        };
        let claim_container = self
            .logical
            .containers
            .iter()
            .find(|c| {
                c.document_types
                    .iter()
                    .any(|x| x.name == d.name && x.role == Role::Claim)
            })
            .map(|c| c.name.clone())
            .unwrap_or_default();
        self.generator
            .claim_of(&claim_container, &d.name, &owner)
            .map_err(|e| e.to_string())
    }

    /// After a claim request: a new owner holding the value another live owner holds
    /// is claimed through the same request (its id and partition key bound as the
    /// operation binds them), and the server must refuse it (409), or the design does
    /// not enforce uniqueness.
    pub(super) async fn duplicates_refused(&self, op: &Operation, state: &WriteState) -> Vec<RequestOutcome> {
        let mut checks = Vec::new();
        for r in op
            .requests
            .iter()
            .filter(|r| matches!(r.purpose, Purpose::Claim { .. }))
        {
            let Some((c, d)) = self.logical.container(&r.container).and_then(|c| {
                let d = c.document_type(r.document_types.first()?)?;
                (d.role == Role::Claim).then_some((c, d))
            }) else {
                continue;
            };
            let Some(of) = &d.claim_of else { continue };
            let mut outcome = RequestOutcome {
                added: true,
                check: Some("duplicate refused?".into()),
                ..RequestOutcome::pending(
                    OperationKind::Write,
                    Some(WriteKind::Create),
                    &c.name,
                    vec![d.name.clone()],
                    false,
                )
            };
            match self.duplicate_claim(r, c, d, of, state) {
                Err(reason) => checks.push(fail(outcome, reason)),
                Ok((pk, id, body)) => {
                    let value = pk.clone();
                    outcome.partition_key = Some(pk.to_string());
                    outcome.id = Some(id.clone());
                    let Ok(client) = self.client(&c.name) else {
                        checks.push(fail(outcome, format!("there is no container `{}`", c.name)));
                        continue;
                    };
                    let operation = format!("claim `{value}` again in `{}`", c.name);
                    let sent = self
                        .connection
                        .request(&operation, &[409], || client.create_item(pk.sdk(), &id, &body, None))
                        .await;
                    outcome.returned = Some(Vec::new());
                    checks.push(match sent {
                        Ok(None) => {
                            outcome.verdict = Verdict::Pass;
                            outcome
                        }
                        Ok(Some(_)) => fail(
                            outcome,
                            format!(
                                "a second `{}` with the `{}` `{value}` was claimed: the value is not unique",
                                of.document_type, of.attribute
                            ),
                        ),
                        Err(e) => error(outcome, e.to_string()),
                    });
                }
            }
        }
        checks
    }

    /// The claim request `r` would send for a new `of.document_type` that holds the
    /// value of a live one: (partition key, which is the value; id; body).
    fn duplicate_claim(
        &self,
        r: &Request,
        c: &Container,
        d: &DocumentType,
        of: &cosmap_mapper::ClaimOf,
        state: &WriteState,
    ) -> Result<(Key, String, Value), String> {
        let holder = state
            .live
            .iter()
            .find(|s| s.container == of.container && s.document_type == of.document_type)
            .ok_or_else(|| format!("no `{}` holds a value to claim again", of.document_type))?;
        let value = holder
            .body
            .get(&of.attribute)
            .cloned()
            .ok_or_else(|| format!("the `{}` `{}` has no `{}`", of.document_type, holder.id, of.attribute))?;
        let serial = state
            .created
            .get(&(of.container.clone(), of.document_type.clone()))
            .copied()
            .unwrap_or(0);
        // An owner no sample is yet (the next one a create would make; never written).
        let mut owner = self
            .generator
            .new_sample(&of.container, &of.document_type, serial)
            .map_err(|e| e.to_string())?;
        if let Value::Object(body) = &mut owner.body {
            body.insert(of.attribute.clone(), value);
        }
        let claim = self
            .generator
            .claim_of(&c.name, &d.name, &owner)
            .map_err(|e| e.to_string())?;
        // The id as the request binds it: a constant, or a property of the owner.
        let id = match r.id() {
            Some(ValueSource::Constant(id)) => id.clone(),
            Some(ValueSource::Parameter(name)) => match owner.body.get(name) {
                Some(Value::String(v)) if name != "id" => v.clone(),
                _ => owner.id.clone(),
            },
            _ => return Err("the claim request has no id".into()),
        };
        let mut body = claim.body;
        if let Value::Object(map) = &mut body {
            map.insert("id".into(), Value::String(id.clone()));
        }
        Ok((claim.partition_key, id, body))
    }

    async fn write_request(&self, r: &Request, state: &mut WriteState, written: &mut Vec<Written>) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Some(kind) = r.write() else {
            return fail(
                outcome,
                "the write request does not say whether it creates, replaces or deletes".into(),
            );
        };
        let Some((c, d)) = self
            .logical
            .container(&r.container)
            .and_then(|c| Some((c, c.document_type(r.document_types.first()?)?)))
        else {
            return fail(
                outcome,
                format!(
                    "`{}` has no document type `{}`",
                    r.container,
                    r.document_types.join(", ")
                ),
            );
        };
        // The document written: a copy follows its source; others are a new sample,
        // a revision of a live one, or a live one to delete.
        let mut source_body: Option<Value> = None;
        let document = if d.role == Role::Claim {
            match self.claimed(d, kind, state, written) {
                Ok(claim) => claim,
                Err(reason) => return fail(outcome, reason),
            }
        } else if d.role == Role::Copy {
            let Some(of) = &d.copy_of else {
                return fail(outcome, format!("the copy `{}` does not say what it copies", d.name));
            };
            let source = written
                .iter()
                .rev()
                .map(|w| &w.sample)
                .find(|s| s.container == of.container && s.document_type == of.document_type)
                .or_else(|| {
                    state
                        .live
                        .iter()
                        .find(|s| s.container == of.container && s.document_type == of.document_type)
                });
            source_body = source.map(|s| s.body.clone());
            match source.map(|s| self.generator.copy_of(&c.name, &d.name, s)) {
                Some(Ok(copy)) => copy,
                Some(Err(e)) => return fail(outcome, e.to_string()),
                None => {
                    return fail(
                        outcome,
                        format!("no `{}` in `{}` to copy", of.document_type, of.container),
                    )
                }
            }
        } else {
            let live_of_type = |s: &&Sample| s.container == c.name && s.document_type == d.name;
            let made = match kind {
                WriteKind::Create => {
                    let serial = state.created.entry((c.name.clone(), d.name.clone())).or_insert(0);
                    *serial += 1;
                    self.generator.new_sample(&c.name, &d.name, *serial - 1)
                }
                WriteKind::Replace => match state.live.iter().find(live_of_type) {
                    Some(s) => {
                        state.revision += 1;
                        self.generator.revised(s, state.revision)
                    }
                    None => return fail(outcome, format!("no `{}` left to replace", d.name)),
                },
                WriteKind::Delete => match state.live.iter().rev().find(live_of_type) {
                    Some(s) => Ok(s.clone()),
                    None => return fail(outcome, format!("no `{}` left to delete", d.name)),
                },
            };
            match made {
                Ok(document) => document,
                Err(e) => return fail(outcome, e.to_string()),
            }
        };
        written.push(Written {
            sample: document.clone(),
            kind,
            accepted: false,
        });

        // The request's own partition key and id, bound from the document.
        let identity = d.id.attribute();
        let from_document = |source: Option<&ValueSource>, what: &str| -> Result<String, String> {
            match source {
                None => Err(format!("the request has no {what}")),
                Some(ValueSource::Constant(value)) => Ok(value.clone()),
                // A claim's partition key is the claimed value, bound from the owner.
                Some(ValueSource::Parameter(_)) if d.role == Role::Claim && what == "partition key" => {
                    Ok(document.partition_key.to_string())
                }
                Some(ValueSource::Parameter(name)) => {
                    if name == "id" || Some(name.as_str()) == identity {
                        return Ok(document.id.clone());
                    }
                    match document.body.get(name) {
                        Some(Value::String(value)) => Ok(value.clone()),
                        _ => Err(format!("the {what} `@{name}` is not a property of `{}`", d.name)),
                    }
                }
                // A copy's keys come from its source document.
                Some(ValueSource::Property(path)) => match source_body.as_ref().and_then(|b| lookup(b, path)) {
                    Some(Value::String(value)) => Ok(value.clone()),
                    _ => Err(format!(
                        "the {what} comes from `{path}` of the source document, which holds no string there"
                    )),
                },
                Some(ValueSource::Levels(_)) => Err(format!("the {what} has levels: it is a partition key")),
                // A bucket's window: the first characters of the written date-time.
                Some(ValueSource::Window { parameter, length }) => match document.body.get(parameter) {
                    Some(Value::String(value)) => Ok(value.chars().take(*length).collect()),
                    _ => Err(format!(
                        "the {what} is the window of `{parameter}`, which `{}` does not hold",
                        d.name
                    )),
                },
            }
        };
        // Under a hierarchical key, one value per level.
        let key = match r.partition_key() {
            Some(ValueSource::Levels(levels)) => levels
                .iter()
                .map(|level| from_document(Some(level), "partition key level"))
                .collect::<Result<Vec<_>, _>>()
                .map(Key::levels),
            other => from_document(other, "partition key").map(Key::one),
        };
        let (pk, id) = match (key, from_document(r.id(), "id")) {
            (Ok(pk), Ok(id)) => (pk, id),
            (Err(reason), _) | (_, Err(reason)) => return fail(outcome, reason),
        };
        outcome.partition_key = Some(pk.to_string());
        outcome.id = Some(id.clone());
        outcome.expected = match kind {
            WriteKind::Delete => Vec::new(),
            WriteKind::Create | WriteKind::Replace => vec![document.id.clone()],
        };

        let Ok(client) = self.client(&r.container) else {
            return fail(outcome, format!("there is no container `{}`", r.container));
        };
        let body = &document.body;
        let sent = match kind {
            WriteKind::Create => {
                let operation = format!("create item `{id}` in `{}`", r.container);
                self.connection
                    .request(&operation, &[], || client.create_item(pk.sdk(), &id, body, None))
                    .await
            }
            WriteKind::Replace => {
                let operation = format!("replace item `{id}` in `{}`", r.container);
                self.connection
                    .request(&operation, &[], || client.replace_item(pk.sdk(), &id, body, None))
                    .await
            }
            WriteKind::Delete => {
                let operation = format!("delete item `{id}` in `{}`", r.container);
                self.connection
                    .request(&operation, &[], || client.delete_item(pk.sdk(), &id, None))
                    .await
            }
        };
        if let Err(e) = sent {
            return error(outcome, e.to_string());
        }
        if let Some(w) = written.last_mut() {
            w.accepted = true;
        }
        match kind {
            WriteKind::Create => state.live.push(document.clone()),
            WriteKind::Replace => {
                if let Some(slot) = state.live.iter_mut().find(|s| same_item(s, &document)) {
                    *slot = document.clone();
                }
            }
            WriteKind::Delete => state.live.retain(|s| !same_item(s, &document)),
        }

        // What a point read shows now, where the document belongs.
        let read = match self
            .point_read(&document.container, &document.partition_key, &document.id)
            .await
        {
            Ok(read) => read,
            Err(cause) => {
                return error(
                    outcome,
                    format!("the write was accepted, but reading it back failed: {cause}"),
                )
            }
        };
        outcome.returned = Some(read.iter().map(id_of).collect());
        let problem = match (kind, &read) {
            (WriteKind::Delete, None) => None,
            (WriteKind::Delete, Some(_)) => Some("the item is still there after the delete".to_string()),
            (_, None) => Some(format!(
                "a point read of `{}` in partition `{}` finds nothing after the write",
                document.id, document.partition_key
            )),
            (_, Some(read)) => differences(body, read)
                .map(|fields| format!("the point read shows other values for {fields} than were written")),
        };
        match problem {
            None => {
                outcome.verdict = Verdict::Pass;
                outcome
            }
            Some(reason) => fail(outcome, reason),
        }
    }
}

/// The `counted` child (in `container`) the operation wrote last, and the live sample
/// of `pd` (in `pc`) it belongs to.
fn child_and_parent(
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

/// The same item: container, partition key and id (claims share their id, the
/// claimed value tells them apart).
pub(super) fn same_item(a: &Sample, b: &Sample) -> bool {
    a.container == b.container && a.partition_key == b.partition_key && a.id == b.id
}

/// The fields of `written` that `read` does not hold alike (system properties such as
/// `_etag` aside), as a list for a message; `None` when all are alike.
pub(crate) fn differences(written: &Value, read: &Value) -> Option<String> {
    let (Value::Object(written), Value::Object(read)) = (written, read) else {
        return Some("the whole document".into());
    };
    let fields: Vec<String> = written
        .iter()
        .filter(|(k, v)| !read.get(*k).is_some_and(|r| same(v, r)))
        .map(|(k, _)| format!("`{k}`"))
        .collect();
    (!fields.is_empty()).then(|| fields.join(", "))
}

/// JSON equality, with numbers compared by value (`10` and `10.0` alike).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The references to `id` that `value` holds: itself (one reference), or the elements
/// of a list of references.
fn referring<'v>(value: &'v Value, id: &str) -> Vec<&'v Value> {
    let refers = |r: &&Value| r.get("id").and_then(Value::as_str) == Some(id);
    match value {
        Value::Array(list) => list.iter().filter(refers).collect(),
        single => std::iter::once(single).filter(refers).collect(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn written_fields_must_read_back_alike() {
        let written = json!({"id": "a", "n": 10, "l": [{"x": 1.5}]});
        let read = json!({"id": "a", "n": 10.0, "l": [{"x": 1.5}], "_etag": "e"});
        assert_eq!(differences(&written, &read), None);
        // (In the order of `written`'s fields, which depends on serde_json's features.)
        let listed = differences(&written, &json!({"id": "a", "n": 11})).unwrap_or_default();
        let mut fields: Vec<&str> = listed.split(", ").collect();
        fields.sort_unstable();
        assert_eq!(fields, ["`l`", "`n`"]);
    }
}
