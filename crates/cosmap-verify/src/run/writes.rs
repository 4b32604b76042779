//! Writes: each write request sent for real (a new sample, a revised one, one
//! deleted; copies built from their new source), then a point read of what it wrote,
//! and of every copy the operation did not write itself.

use std::collections::BTreeMap;

use cosmap_mapper::operations::{Operation, OperationKind, Purpose, Request, ValueSource, WriteKind};
use cosmap_mapper::{BucketOf, Container, DocumentType, Role};
use serde_json::Value;

use super::{error, fail, id_of, pattern_outcome, verdict, Run};
use crate::report::{PatternOutcome, RequestOutcome, Verdict};
use crate::samples::{lookup, Key, Sample};

mod ancestors;
mod bucket;
mod claims;
mod derived;
mod derived_stored;

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
                requests.extend(self.update_kept(r, rewrite, &written, state).await);
                continue;
            }
            // An extended reference's or an ancestors list's sync: the query for the
            // holders, then their rewrite.
            if matches!(
                r.purpose,
                Purpose::SyncExtendedReference { .. } | Purpose::SyncAncestors { .. }
            ) && r.kind() != OperationKind::Write
            {
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
        let mut outcome = RequestOutcome::pending(OperationKind::PointRead, None, &c.name, vec![d.name.clone()], true)
            .added("copy in sync?");
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
        verdict(outcome, problem)
    }

    async fn write_request(&self, r: &Request, state: &mut WriteState, written: &mut Vec<Written>) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let (kind, c, d) = match self.write_target(r) {
            Ok(target) => target,
            Err(reason) => return fail(outcome, reason),
        };
        // The document written: a copy follows its source; others are a new sample,
        // a revision of a live one, or a live one to delete.
        let (document, source_body) = match self.document_to_write(c, d, kind, state, written) {
            Ok(made) => made,
            Err(reason) => return fail(outcome, reason),
        };
        written.push(Written {
            sample: document.clone(),
            kind,
            accepted: false,
        });
        // The request's own partition key and id, bound from the document.
        let bind =
            |source: Option<&ValueSource>, what: &str| bound_value(d, &document, source_body.as_ref(), source, what);
        // Under a hierarchical key, one value per level.
        let key = match r.partition_key() {
            Some(ValueSource::Levels(levels)) => levels
                .iter()
                .map(|level| bind(Some(level), "partition key level"))
                .collect::<Result<Vec<_>, _>>()
                .map(Key::levels),
            other => bind(other, "partition key").map(Key::one),
        };
        let (pk, id) = match (key, bind(r.id(), "id")) {
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
        let operation = format!("{} item `{id}` in `{}`", kind.as_str(), r.container);
        let body = &document.body;
        let sent = match kind {
            WriteKind::Create => {
                self.connection
                    .request(&operation, &[], || client.create_item(pk.sdk(), &id, body, None))
                    .await
            }
            WriteKind::Replace => {
                self.connection
                    .request(&operation, &[], || client.replace_item(pk.sdk(), &id, body, None))
                    .await
            }
            WriteKind::Delete => {
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
        state.apply(kind, &document);
        self.read_back(outcome, kind, &document).await
    }

    /// The kind of write `r` makes and the document type it writes (with its container).
    fn write_target(&self, r: &Request) -> Result<(WriteKind, &Container, &DocumentType), String> {
        let Some(kind) = r.write() else {
            return Err("the write request does not say whether it creates, replaces or deletes".into());
        };
        self.logical
            .container(&r.container)
            .and_then(|c| Some((kind, c, c.document_type(r.document_types.first()?)?)))
            .ok_or_else(|| {
                format!(
                    "`{}` has no document type `{}`",
                    r.container,
                    r.document_types.join(", ")
                )
            })
    }

    /// The document a write of `d` (in `c`) sends, with the body of the source a copy
    /// follows: a claim of a value written, a copy of its source written last (or
    /// live), a new sample, a revision of a live one or a live one to delete.
    fn document_to_write(
        &self,
        c: &Container,
        d: &DocumentType,
        kind: WriteKind,
        state: &mut WriteState,
        written: &[Written],
    ) -> Result<(Sample, Option<Value>), String> {
        if d.role == Role::Claim {
            return Ok((self.claimed(d, kind, state, written)?, None));
        }
        if d.role == Role::Copy {
            let Some(of) = &d.copy_of else {
                return Err(format!("the copy `{}` does not say what it copies", d.name));
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
                })
                .ok_or_else(|| format!("no `{}` in `{}` to copy", of.document_type, of.container))?;
            let copy = self
                .generator
                .copy_of(&c.name, &d.name, source)
                .map_err(|e| e.to_string())?;
            return Ok((copy, Some(source.body.clone())));
        }
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
                None => return Err(format!("no `{}` left to replace", d.name)),
            },
            WriteKind::Delete => match state.live.iter().rev().find(live_of_type) {
                Some(s) => Ok(s.clone()),
                None => return Err(format!("no `{}` left to delete", d.name)),
            },
        };
        Ok((made.map_err(|e| e.to_string())?, None))
    }

    /// What a point read shows after the write of `document` (where it belongs): the
    /// values written, or nothing after a delete.
    async fn read_back(&self, mut outcome: RequestOutcome, kind: WriteKind, document: &Sample) -> RequestOutcome {
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
            (_, Some(read)) => differences(&document.body, read)
                .map(|fields| format!("the point read shows other values for {fields} than were written")),
        };
        verdict(outcome, problem)
    }
}

impl WriteState {
    /// The live samples after `document` was written as `kind`.
    fn apply(&mut self, kind: WriteKind, document: &Sample) {
        match kind {
            WriteKind::Create => self.live.push(document.clone()),
            WriteKind::Replace => {
                if let Some(slot) = self.live.iter_mut().find(|s| same_item(s, document)) {
                    *slot = document.clone();
                }
            }
            WriteKind::Delete => self.live.retain(|s| !same_item(s, document)),
        }
    }
}

/// The value a write request's partition key or id (`what`) takes from `source`,
/// bound from the `document` of `d` written (a copy's from its `source_body`).
fn bound_value(
    d: &DocumentType,
    document: &Sample,
    source_body: Option<&Value>,
    source: Option<&ValueSource>,
    what: &str,
) -> Result<String, String> {
    match source {
        None => Err(format!("the request has no {what}")),
        Some(ValueSource::Constant(value)) => Ok(value.clone()),
        // A claim's partition key is the claimed value, bound from the owner.
        Some(ValueSource::Parameter(_)) if d.role == Role::Claim && what == "partition key" => {
            Ok(document.partition_key.to_string())
        }
        Some(ValueSource::Parameter(name)) => {
            if name == "id" || Some(name.as_str()) == d.id.attribute() {
                return Ok(document.id.clone());
            }
            match document.body.get(name) {
                Some(Value::String(value)) => Ok(value.clone()),
                _ => Err(format!("the {what} `@{name}` is not a property of `{}`", d.name)),
            }
        }
        // A copy's keys come from its source document.
        Some(ValueSource::Property(path)) => match source_body.and_then(|b| lookup(b, path)) {
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
