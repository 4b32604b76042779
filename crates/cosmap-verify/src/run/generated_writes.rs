//! The generated writes under the judge ([`verify_generated`](crate::verify_generated)):
//! a write pattern whose one document a generated method writes is sent by that method
//! (with the document the plan's write would send), the generated workers are run,
//! and what is stored afterwards is judged as the plan's write is: the document reads
//! back as written (or is gone), its claims are held (or released), its copies show it
//! (or are gone), a second owner of a claimed value is refused, and each count,
//! subset, extended reference and ancestors list it keeps holds what the plan's
//! requests would leave (`writes/derived_stored.rs`). Each plan request gets its line in the
//! report, judged on what the generated code left.

use cosmap_mapper::operations::{Operation, Purpose, Request, WriteKind};
use cosmap_mapper::{ContainerKind, Role};

use super::writes::{differences, same_item, WriteState, Written};
use super::{error, fail, id_of, pattern_outcome, verdict, Run};
use crate::generated::Answerer;
use crate::report::{PatternOutcome, RequestOutcome, Verdict};
use crate::samples::Sample;

mod aggregate;
mod append;

/// Why the generated write of `op` (a pattern of `logical`) is not judged on the
/// generated code but run as the plan says; `None` when it is judged. Judged: one
/// request that writes the pattern's own document (or the one embedding it), with its
/// claims, releases, copies, feed entries and the data derived from it (counts,
/// subsets, extended references, ancestors lists) — what a generated single-document
/// write and the workers do; an aggregate's write of its root and members in one
/// container, with their claims and copies (`generated_writes/aggregate.rs`); and an
/// append to a bucket (`generated_writes/append.rs`).
pub fn unjudged_write(logical: &cosmap_mapper::LogicalModel, op: &Operation) -> Option<String> {
    if append::is_append(op) {
        return None;
    }
    let mains: Vec<&Request> = op.requests.iter().filter(|r| is_main(logical, r)).collect();
    if mains.is_empty() {
        return Some("it writes no document of its own: not judged on the generated code".into());
    }
    let aggregate = aggregate::is_aggregate(&mains);
    if aggregate {
        if let Some(why) = aggregate::unjudged(&mains) {
            return Some(why);
        }
    }
    let judged_beside = if aggregate {
        aggregate::is_judged_beside
    } else {
        is_judged_beside
    };
    let other = op.requests.iter().find(|r| !is_main(logical, r) && !judged_beside(r));
    other.map(|r| {
        format!(
            "it also sends a request that {}: verify runs that as the plan says, not on the generated code yet",
            r.purpose
        )
    })
}

/// Whether request `r` (beside the main write) is judged on what the generated code
/// leaves: a claim held or released, a copy or feed entry (kept by the workers), a
/// count, subset, extended reference or ancestors list as the plan would leave it,
/// the new parent a tree element takes its ancestors from.
fn is_judged_beside(r: &Request) -> bool {
    use Purpose::{SyncAncestors, SyncCopy, SyncExtendedReference, SyncFeed, UpdateCount, UpdateSubset};
    let copied = matches!(r.purpose, SyncCopy { .. } | SyncFeed { .. });
    let counted = matches!(r.purpose, UpdateCount { .. } | UpdateSubset { .. });
    let synced = matches!(r.purpose, SyncExtendedReference { .. } | SyncAncestors { .. });
    is_claim(r) || copied || counted || synced || matches!(r.purpose, Purpose::ReadParentAncestors { .. })
}

/// Whether request `r` takes or releases a claim of a unique value.
fn is_claim(r: &Request) -> bool {
    matches!(r.purpose, Purpose::Claim { .. } | Purpose::ReleaseClaim { .. })
}

/// Whether request `r` writes the pattern's own document (or the one that embeds it).
fn is_main(logical: &cosmap_mapper::LogicalModel, r: &Request) -> bool {
    let role = logical
        .container(&r.container)
        .and_then(|c| c.document_type(r.document_types.first()?))
        .map(|d| d.role);
    matches!(r.purpose, Purpose::Write { .. } | Purpose::RewriteEmbedding { .. })
        && !matches!(role, Some(Role::Claim | Role::Copy) | None)
}

impl Run<'_> {
    /// Write pattern `op`: sent by its generated method where the generated code
    /// writes it and it is judged there ([`unjudged_write`]), else as the plan says.
    pub(super) async fn write_either(&self, op: &Operation, state: &mut WriteState) -> PatternOutcome {
        match self.generated.filter(|g| g.writes(&op.pattern)) {
            Some(generated) if unjudged_write(self.logical, op).is_none() => {
                let mains: Vec<&Request> = op.requests.iter().filter(|r| is_main(self.logical, r)).collect();
                if append::is_append(op) {
                    self.generated_append(generated, op, state).await
                } else if aggregate::is_aggregate(&mains) {
                    self.generated_aggregate_write(generated, op, &mains, state).await
                } else {
                    self.generated_write(generated, op, state).await
                }
            }
            _ => self.write(op, state).await,
        }
    }

    /// `op` sent by its generated method and judged on what is stored afterwards.
    async fn generated_write(
        &self,
        generated: &dyn Answerer,
        op: &Operation,
        state: &mut WriteState,
    ) -> PatternOutcome {
        let Some(main) = op.requests.iter().find(|r| is_main(self.logical, r)) else {
            return pattern_outcome(op, Vec::new());
        };
        let (document, before) = match self.planned_document(main, state) {
            Ok(planned) => planned,
            Err(reason) => return pattern_outcome(op, vec![fail(self.outcome(main), reason)]),
        };
        let kind = main.write().unwrap_or(WriteKind::Create);
        let outcome = self.document_outcome(main, &document, kind);
        let database = self.connection.database_client();
        if let Err(cause) = generated.write(&database, &op.pattern, &document.body).await {
            let reason = format!("the generated write failed: {cause}");
            return pattern_outcome(op, vec![error(outcome, reason)]);
        }
        // The workers keep the copies of what was written and what derives from it
        // (none to wait for without either).
        let copied = has_copies(self.logical, &document);
        let derived = op.requests.iter().any(|r| !is_main(self.logical, r) && !is_claim(r));
        let settled = if copied || derived {
            generated.settle(&database).await
        } else {
            Ok(())
        };
        if let Err(cause) = settled {
            let reason = format!("the write was accepted, but the generated workers failed: {cause}");
            return pattern_outcome(op, vec![error(outcome, reason)]);
        }
        let written = [Written {
            sample: document.clone(),
            kind,
            accepted: true,
        }];
        // What is stored decides what the judge counts on next: a write that left
        // nothing is not recorded.
        let stored = self.stored(outcome, &document, kind != WriteKind::Delete).await;
        if stored.verdict == Verdict::Pass {
            record(state, document.clone(), kind);
        }
        let mut requests = Vec::new();
        for r in &op.requests {
            let judged = match &r.purpose {
                _ if std::ptr::eq(r, main) => stored.clone(),
                Purpose::Claim { .. } | Purpose::ReleaseClaim { .. } => {
                    self.claim_left(r, &document, before.as_ref(), kind).await
                }
                // The counts, subsets, extended references and ancestors lists kept.
                _ => match self.kept(r, &written, state).await {
                    Some(judged) => judged,
                    // The copies and feeds are judged below, each against its source.
                    None => continue,
                },
            };
            requests.push(judged);
        }
        requests.extend(self.copies_in_sync(&written).await);
        requests.extend(self.duplicates_refused(op, state).await);
        pattern_outcome(op, requests)
    }

    /// The document the plan's write `r` sends (a new sample, the next revision of a
    /// live one, the last live one to delete), as the plan's run makes it, and the
    /// stored one it replaces or deletes.
    fn planned_document(&self, r: &Request, state: &mut WriteState) -> Result<(Sample, Option<Sample>), String> {
        let (container, document_type) = (&r.container, r.document_types.first().cloned().unwrap_or_default());
        let live_of_type = |s: &&Sample| s.container == *container && s.document_type == document_type;
        match r.write() {
            Some(WriteKind::Create) => {
                let serial = state.created.get(&(container.clone(), document_type.clone())).copied();
                let made = self
                    .generator
                    .new_sample(container, &document_type, serial.unwrap_or(0));
                made.map(|s| (s, None)).map_err(|e| e.to_string())
            }
            Some(WriteKind::Replace) => {
                let stored = state
                    .live
                    .iter()
                    .find(live_of_type)
                    .cloned()
                    .ok_or_else(|| format!("no `{document_type}` left to replace"))?;
                state.revision += 1;
                let revised = self.generator.revised(&stored, state.revision);
                revised.map(|s| (s, Some(stored))).map_err(|e| e.to_string())
            }
            Some(WriteKind::Delete) => {
                let stored = state.live.iter().rev().find(live_of_type).cloned();
                let stored = stored.ok_or_else(|| format!("no `{document_type}` left to delete"))?;
                Ok((stored.clone(), Some(stored)))
            }
            None => Err("the write request does not say whether it creates, replaces or deletes".into()),
        }
    }

    /// The outcome of write request `r`, of `kind`, for `document` (before it is judged).
    fn document_outcome(&self, r: &Request, document: &Sample, kind: WriteKind) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        outcome.partition_key = Some(document.partition_key.to_string());
        outcome.id = Some(document.id.clone());
        if kind != WriteKind::Delete {
            outcome.expected = vec![document.id.clone()];
        }
        outcome
    }

    /// `outcome` judged on a point read of `document`: it must be stored as written
    /// (`present`), or gone.
    async fn stored(&self, mut outcome: RequestOutcome, document: &Sample, present: bool) -> RequestOutcome {
        let (container, key, id) = (&document.container, &document.partition_key, &document.id);
        let found = self.point_read(container, key, id).await;
        let found = found.map_err(|cause| format!("reading what the generated write left failed: {cause}"));
        let read = match found {
            Err(reason) => return error(outcome, reason),
            Ok(read) => read,
        };
        outcome.returned = Some(read.iter().map(id_of).collect());
        let problem = if present {
            match &read {
                Some(read) => differences(&document.body, read)
                    .map(|fields| format!("the point read shows other values for {fields} than were written")),
                None => Some(format!(
                    "a point read of `{id}` in partition `{key}` finds nothing after the generated write"
                )),
            }
        } else {
            read.map(|_| format!("`{id}` is still there after the generated write"))
        };
        verdict(outcome, problem)
    }

    /// Claim request `r` judged on what the generated write left: the claim of the
    /// written document's value is held unless it was deleted; a released claim (of
    /// the value the stored document held, `before`) is gone unless the write kept
    /// that value.
    async fn claim_left(
        &self,
        r: &Request,
        document: &Sample,
        before: Option<&Sample>,
        kind: WriteKind,
    ) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let claim_type = r.document_types.first().cloned().unwrap_or_default();
        let claim_of = |owner: &Sample| {
            self.generator
                .claim_of(&r.container, &claim_type, owner)
                .map_err(|e| e.to_string())
        };
        let now = match claim_of(document) {
            Ok(claim) => claim,
            Err(reason) => return fail(outcome, reason),
        };
        let (claim, held) = match (&r.purpose, before) {
            (Purpose::ReleaseClaim { .. }, Some(old)) if kind == WriteKind::Replace => match claim_of(old) {
                Ok(old) => {
                    let kept = same_item(&old, &now);
                    (old, kept)
                }
                Err(reason) => return fail(outcome, reason),
            },
            (Purpose::ReleaseClaim { .. }, _) => (now, false),
            _ => (now, kind != WriteKind::Delete),
        };
        let claims = self.logical.container(&r.container).map(|c| c.kind);
        if claims != Some(ContainerKind::Claims) {
            return fail(outcome, format!("`{}` is no claims container", r.container));
        }
        outcome.partition_key = Some(claim.partition_key.to_string());
        outcome.id = Some(claim.id.clone());
        if held {
            outcome.expected = vec![claim.id.clone()];
        }
        self.stored(outcome, &claim, held).await
    }
}

/// Whether some document type of `logical` copies `document`'s (its copies are kept
/// by the generated workers).
fn has_copies(logical: &cosmap_mapper::LogicalModel, document: &Sample) -> bool {
    logical.containers.iter().flat_map(|c| &c.document_types).any(|d| {
        d.copy_of
            .as_ref()
            .is_some_and(|of| of.container == document.container && of.document_type == document.document_type)
    })
}

/// What the generated write of `document` (of `kind`) leaves in the write state, as
/// the plan's write would: a new document live (and the next serial used), a revision
/// in place, a deleted one gone.
fn record(state: &mut WriteState, document: Sample, kind: WriteKind) {
    match kind {
        WriteKind::Create => {
            *state
                .created
                .entry((document.container.clone(), document.document_type.clone()))
                .or_insert(0) += 1;
            state.live.push(document);
        }
        WriteKind::Replace => {
            if let Some(slot) = state.live.iter_mut().find(|s| same_item(s, &document)) {
                *slot = document;
            }
        }
        WriteKind::Delete => state.live.retain(|s| !same_item(s, &document)),
    }
}
