//! The generated write of an aggregate's root and members (`place_an_order(&mut order,
//! &mut tickets)`) under the judge: verify makes the documents the plan's writes would
//! send — the root (a new one, the next revision of a live one, the live one to
//! delete) and its members in the root's partition (a new one to create, each live one
//! to replace or delete) — calls the method with them, and judges every document
//! stored as written (or gone), every claim held (or released), each copy, and a
//! second owner of a claimed value refused.

use serde_json::Value;

use super::*;

/// The documents one of the plan's own writes (`request`) sends, each with the stored
/// one it replaces or deletes.
struct Planned<'r> {
    request: &'r Request,
    kind: WriteKind,
    documents: Vec<(Sample, Option<Sample>)>,
}

/// Whether a pattern whose own writes are `mains` writes an aggregate: several
/// documents, or one for each member.
pub(super) fn is_aggregate(mains: &[&Request]) -> bool {
    mains.len() > 1 || mains.iter().any(|r| r.purpose.each().is_some())
}

/// Why the aggregate write of `mains` is not judged on the generated code (`None`: it
/// is): its first write must be the root's, once, and every write a document of its
/// own in the root's partition (what a generated aggregate write sends in one batch).
pub(super) fn unjudged(mains: &[&Request]) -> Option<String> {
    let first = mains.first()?;
    if first.purpose.each().is_some() {
        return Some("its first write is sent for each member: no root to judge them with".into());
    }
    if let Some(r) = mains.iter().find(|r| !matches!(r.purpose, Purpose::Write { .. })) {
        return Some(format!(
            "it {}: an aggregate write that rewrites an embedding document is not judged on the generated code",
            r.purpose
        ));
    }
    if mains.iter().any(|r| r.container != first.container) {
        return Some("it writes documents of several containers: not judged on the generated code".into());
    }
    mains
        .iter()
        .any(|r| r.partition_key() != first.partition_key())
        .then(|| "it writes members in other partitions than its root's: not judged on the generated code yet".into())
}

/// Whether request `r` (beside an aggregate's own writes) is judged on what the
/// generated code leaves: a claim held or released, a copy or feed entry.
pub(super) fn is_judged_beside(r: &Request) -> bool {
    is_claim(r) || matches!(r.purpose, Purpose::SyncCopy { .. } | Purpose::SyncFeed { .. })
}

impl Run<'_> {
    /// Aggregate write `op` (own writes `mains`) sent by its generated method and
    /// judged on what is stored afterwards.
    pub(super) async fn generated_aggregate_write(
        &self,
        generated: &dyn Answerer,
        op: &Operation,
        mains: &[&Request],
        state: &mut WriteState,
    ) -> PatternOutcome {
        let Some(first) = mains.first() else {
            return pattern_outcome(op, Vec::new());
        };
        let planned = match self.planned_aggregate(mains, state) {
            Ok(planned) => planned,
            Err(reason) => return pattern_outcome(op, vec![fail(self.outcome(first), reason)]),
        };
        let documents: Vec<Vec<Value>> = planned
            .iter()
            .map(|p| p.documents.iter().map(|(d, _)| d.body.clone()).collect())
            .collect();
        let database = self.connection.database_client();
        if let Err(cause) = generated.write_aggregate(&database, &op.pattern, &documents).await {
            let reason = format!("the generated write failed: {cause}");
            return pattern_outcome(op, vec![error(self.outcome(first), reason)]);
        }
        let written: Vec<Written> = planned
            .iter()
            .flat_map(|p| p.documents.iter().map(|(d, _)| (d, p.kind)))
            .map(|(sample, kind)| Written {
                sample: sample.clone(),
                kind,
                accepted: true,
            })
            .collect();
        if written.iter().any(|w| has_copies(self.logical, &w.sample)) {
            if let Err(cause) = generated.settle(&database).await {
                let reason = format!("the write was accepted, but the generated workers failed: {cause}");
                return pattern_outcome(op, vec![error(self.outcome(first), reason)]);
            }
        }
        let mut requests = Vec::new();
        for r in &op.requests {
            requests.extend(self.aggregate_left(r, &planned, state).await);
        }
        requests.extend(self.copies_in_sync(&written).await);
        requests.extend(self.duplicates_refused(op, state).await);
        pattern_outcome(op, requests)
    }

    /// Request `r` of an aggregate write judged on what the generated write left: each
    /// document of one of its own writes stored as written (then recorded) or gone;
    /// each claim of the documents of the element it claims held or released.
    async fn aggregate_left(
        &self,
        r: &Request,
        planned: &[Planned<'_>],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let mut judged = Vec::new();
        if let Some(p) = planned.iter().find(|p| std::ptr::eq(p.request, r)) {
            for (document, _) in &p.documents {
                let outcome = self.document_outcome(r, document, p.kind);
                let stored = self.stored(outcome, document, p.kind != WriteKind::Delete).await;
                if stored.verdict == Verdict::Pass {
                    record(state, document.clone(), p.kind);
                }
                judged.push(stored);
            }
            return judged;
        }
        let (Purpose::Claim { element, .. } | Purpose::ReleaseClaim { element, .. }) = &r.purpose else {
            return judged;
        };
        let owners = planned
            .iter()
            .find(|p| matches!(&p.request.purpose, Purpose::Write { element: e, .. } if e == element));
        let Some(owners) = owners.filter(|p| !p.documents.is_empty()) else {
            let reason = format!("no `{element}` was written to judge its claim on");
            return vec![fail(self.outcome(r), reason)];
        };
        for (document, before) in &owners.documents {
            judged.push(self.claim_left(r, document, before.as_ref(), owners.kind).await);
        }
        judged
    }

    /// The documents each of `mains` sends: the root first (as a single write's, but
    /// a delete takes the last live root with a member of each kind written), then
    /// each kind of member in the root's partition.
    fn planned_aggregate<'r>(&self, mains: &[&'r Request], state: &mut WriteState) -> Result<Vec<Planned<'r>>, String> {
        let (first, members) = mains.split_first().ok_or("it writes no document of its own")?;
        let kind_of = |r: &Request| {
            r.write()
                .ok_or_else(|| "the write request does not say whether it creates, replaces or deletes".to_string())
        };
        let kind = kind_of(first)?;
        let root_type = first.document_types.first().cloned().unwrap_or_default();
        let with_members = |root: &Sample| {
            members.iter().all(|r| {
                let member_type = r.document_types.first();
                state.live.iter().any(|s| {
                    s.container == r.container
                        && Some(&s.document_type) == member_type
                        && s.partition_key == root.partition_key
                })
            })
        };
        let deleted = if kind == WriteKind::Delete {
            let mut roots = state.live.iter().rev();
            roots
                .find(|s| s.container == first.container && s.document_type == root_type && with_members(s))
                .cloned()
        } else {
            None
        };
        let (root, before) = match deleted {
            Some(root) => (root.clone(), Some(root)),
            None => self.planned_document(first, state)?,
        };
        let mut planned = Vec::new();
        for r in members {
            let kind = kind_of(r)?;
            let documents = self.members_planned(r, kind, &root, state)?;
            planned.push(Planned {
                request: r,
                kind,
                documents,
            });
        }
        let documents = vec![(root, before)];
        planned.insert(
            0,
            Planned {
                request: first,
                kind,
                documents,
            },
        );
        Ok(planned)
    }

    /// The members of `root` member write `r` (of `kind`) sends: a new one to create;
    /// the live ones in the root's partition to replace (their next revisions) or to
    /// delete — each of them when the write is sent for each member, else the first.
    fn members_planned(
        &self,
        r: &Request,
        kind: WriteKind,
        root: &Sample,
        state: &mut WriteState,
    ) -> Result<Vec<(Sample, Option<Sample>)>, String> {
        let member_type = r.document_types.first().cloned().unwrap_or_default();
        if kind == WriteKind::Create {
            let serial = state.created.get(&(r.container.clone(), member_type.clone())).copied();
            let made = self
                .generator
                .new_member(&r.container, &member_type, serial.unwrap_or(0), root);
            return made.map(|m| vec![(m, None)]).map_err(|e| e.to_string());
        }
        let limit = if r.purpose.each().is_some() { usize::MAX } else { 1 };
        let live: Vec<Sample> = state
            .live
            .iter()
            .filter(|s| s.container == r.container && s.document_type == member_type)
            .filter(|s| s.partition_key == root.partition_key)
            .take(limit)
            .cloned()
            .collect();
        let mut documents = Vec::new();
        for stored in live {
            let document = if kind == WriteKind::Replace {
                state.revision += 1;
                self.generator
                    .revised(&stored, state.revision)
                    .map_err(|e| e.to_string())?
            } else {
                stored.clone()
            };
            documents.push((document, Some(stored)));
        }
        Ok(documents)
    }
}
