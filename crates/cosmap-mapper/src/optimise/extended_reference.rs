//! extendedReference: the attributes reads take through a reference
//! (`returns: ["author.username"]`) are stored beside it (`author: {id,
//! partitionKey, username}`), so the read needs no point read per result. A change
//! of the referenced root then rewrites every document that refers to it, from the
//! referenced container's change feed (none for reference data that never
//! changes). Only the attributes read are copied, never a `sensitive` one; a
//! reference is extended only where the whole workload's RU/s drops, the rewrites
//! priced at the rates of the writes that trigger them.

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::{AccessKind, ChangeRate, DomainModel};

use super::{Batch, Weighed};
use crate::cost::facts;
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, DocumentType, ExtendedReference, Property, Role};
use crate::operations::PropertyPath;
use crate::statistics::{about, human_ru_per_second};
use crate::sync_plan::{ChangeKind, KeyMapping, SyncAction, SyncOperation, SyncPlan, SyncTrigger};

/// One reference that reads go through: the element holding it, its name, what it
/// refers to, the attributes read and the patterns that read them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Candidate {
    holder: String,
    /// The holder's home document type, found once (its syncs name it).
    holder_document: Option<String>,
    reference: String,
    target: String,
    attributes: BTreeSet<String>,
    patterns: BTreeSet<String>,
}

/// Extends the references reads go through, where that lowers the workload's RU/s.
///
/// Weighed like the snapshots: the design with every candidate extended against the
/// design with none, each candidate by the patterns it changes (the reads that no
/// longer follow it, the writes of its target that now rewrite the holders, the
/// writes of the holder that grow); those that save more than they add are kept
/// together, and only if the design with exactly those costs less than none.
pub(crate) struct ExtendedReferences<'m> {
    pub(crate) model: &'m DomainModel,
}

impl super::step::Optimisation for ExtendedReferences<'_> {
    type Candidate = Candidate;
    const RULE: Rule = Rule::ExtendedReference;

    fn candidates(&self, current: &mut super::step::Current<'_>, trace: &mut Trace) -> Vec<Candidate> {
        let mut found = candidates(self.model, current.containers, trace);
        for c in &mut found {
            c.holder_document = holder_of(current.containers, c).map(str::to_string);
        }
        found
    }

    fn subject(&self, c: &Candidate) -> String {
        format!("{}.{}", c.holder, c.reference)
    }

    fn make(&self, design: &[Container], kept: &[Candidate]) -> Vec<Container> {
        extended(self.model, design, kept)
    }

    fn affected(&self, c: &Candidate) -> BTreeSet<String> {
        super::affected(self.model, |p| c.patterns.contains(p), &[&c.holder, &c.target])
    }

    /// Each candidate is charged only the rewrites of its own holders.
    fn owner(&self, r: &crate::operations::Request, candidates: &[Candidate]) -> Option<usize> {
        let crate::operations::Purpose::SyncExtendedReference {
            document, reference, ..
        } = &r.purpose
        else {
            return None;
        };
        candidates
            .iter()
            .position(|c| c.holder_document.as_deref() == Some(document.as_str()) && c.reference == *reference)
    }

    fn record(&self, w: &Weighed<'_, Candidate>, batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let model = self.model;
        let (c, saves, adds) = (w.candidate, w.saves, w.adds);
        let synced = changes(model, &c.target);
        let attributes: Vec<String> = c.attributes.iter().map(|a| format!("`{a}`")).collect();
        let reads: Vec<String> = c.patterns.iter().map(|p| format!("`{p}`")).collect();
        let (outcome, reason) = batch.said(
            w,
            (
                format!(
                    "stores {} of `{}` beside the reference",
                    attributes.join(", "),
                    c.target
                ),
                format!(
                    "{} {} {} through `{}`: stored beside it, they save {} of point reads{}",
                    reads.join(", "),
                    if reads.len() == 1 { "reads" } else { "read" },
                    attributes.join(", "),
                    c.reference,
                    about(human_ru_per_second(saves)),
                    if synced {
                        format!(
                            "; a change of a `{}` rewrites every `{}` that refers to it (from the change feed of its container), {}",
                            c.target,
                            c.holder,
                            about(human_ru_per_second(adds))
                        )
                    } else {
                        format!(
                            ", and `{}` never changes, so nothing keeps them in sync (they add {} to the writes)",
                            c.target,
                            about(human_ru_per_second(adds))
                        )
                    }
                ),
            ),
            "keeps a plain reference".to_string(),
            (&format!("storing {}", attributes.join(", ")), "other extended references"),
            format!(
                "storing {} beside it would save {} of point reads for {} but add {} of writes (the rewrites of every `{}` when a `{}` changes, and larger documents): the workload's RU/s would not drop",
                attributes.join(", "),
                about(human_ru_per_second(saves)),
                reads.join(", "),
                about(human_ru_per_second(adds)),
                c.holder,
                c.target
            ),
        );
        trace
            .record(Rule::ExtendedReference, self.subject(c), outcome, reason)
            .with("attributes", c.attributes.iter().cloned().collect::<Vec<_>>())
            .with("synced", synced);
    }
}

/// The document type that holds candidate `c`'s reference: its holder's home document.
fn holder_of<'c>(containers: &'c [Container], c: &Candidate) -> Option<&'c str> {
    super::home(containers, &c.holder).map(|(_, d)| d.name.as_str())
}

/// How many targets candidate `c`'s reference typically holds: a list's `avg` (else
/// its `max`), 1 for a single reference.
fn list_length(model: &DomainModel, c: &Candidate) -> f64 {
    model
        .relationship_by_property(&c.holder, &c.reference)
        .filter(|rel| rel.is_many())
        .and_then(|rel| rel.typical())
        .unwrap_or(1.0)
}

/// Whether `target` can change: reference data that never changes needs no sync.
fn changes(model: &DomainModel, target: &str) -> bool {
    model.entity(target).and_then(|e| e.reference_data) != Some(ChangeRate::Never)
}

/// The references reads take attributes through, one candidate per holding element
/// and reference, in name order. A `sensitive` attribute is never one of them (the
/// refusal is recorded); a list of references stores them beside each element; a
/// reference inside an embedded object is not extended. A holder copied elsewhere is: its copies carry the
/// attributes too.
fn candidates(model: &DomainModel, containers: &[Container], trace: &mut Trace) -> Vec<Candidate> {
    let mut found: BTreeMap<(String, String), Candidate> = BTreeMap::new();
    let mut refused: BTreeSet<String> = BTreeSet::new();
    let mut patterns: Vec<_> = model
        .access_patterns()
        .iter()
        .filter(|p| p.kind == AccessKind::Read)
        .collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    for p in patterns {
        for returned in &p.returns {
            let Some((first, attribute)) = returned.split_once('.') else {
                continue;
            };
            // The start's own document and its single, top-level reference of that name.
            let Some((_, holder)) = super::home(containers, &p.start) else {
                continue;
            };
            let Some(reference) = holder.references.iter().find(|r| r.name == first) else {
                continue;
            };
            let Some(target) = model.entity(&reference.target) else {
                continue;
            };
            let Some(a) = target.attributes.iter().find(|a| a.name == attribute) else {
                continue;
            };
            let subject = format!("{}.{first}", p.start);
            if a.sensitive {
                if refused.insert(format!("{subject}.{attribute}")) {
                    trace.record(
                        Rule::ExtendedReference,
                        subject,
                        format!("does not store `{attribute}` beside the reference"),
                        format!(
                            "`{}` reads `{returned}`, but `{}.{attribute}` is `sensitive`: it never leaves its own document, so the read follows the reference",
                            p.name, target.name
                        ),
                    );
                }
                continue;
            }
            // A holder copied elsewhere (a copy, a feed): its copies carry the stored
            // attributes too, kept by their own sync from the holder's change feed.
            let entry = found
                .entry((p.start.clone(), first.to_string()))
                .or_insert_with(|| Candidate {
                    holder: p.start.clone(),
                    holder_document: None,
                    reference: first.to_string(),
                    target: reference.target.clone(),
                    attributes: BTreeSet::new(),
                    patterns: BTreeSet::new(),
                });
            entry.attributes.insert(attribute.to_string());
            entry.patterns.insert(p.name.clone());
        }
    }
    found.into_values().collect()
}

/// `containers` with each candidate's reference extended in its holder's documents.
fn extended(model: &DomainModel, containers: &[Container], candidates: &[Candidate]) -> Vec<Container> {
    let mut out = containers.to_vec();
    let homes: BTreeMap<String, (String, String)> = containers
        .iter()
        .flat_map(|c| {
            c.document_types
                .iter()
                .filter(|d| d.role == Role::Root)
                .map(move |d| (d.source.clone(), (c.name.clone(), d.discriminator.clone())))
        })
        .collect();
    for c in candidates {
        let Some(target) = model.entity(&c.target) else {
            continue;
        };
        let attributes: Vec<Property> = target
            .attributes
            .iter()
            .filter(|a| c.attributes.contains(&a.name) && !a.sensitive)
            .map(Property::copy_of)
            .collect();
        // A share of the target's size, by the properties copied (beside each element
        // of a list: as many times as it typically holds).
        let per_reference =
            facts::bytes_of(model, &c.target) * attributes.len() as f64 / (target.attributes.len() + 3) as f64;
        let extra = per_reference * list_length(model, c);
        let holds = |d: &DocumentType| d.source == c.holder && matches!(d.role, Role::Root | Role::Entity);
        // The holder's copies (copies and feeds of its home document) carry them too.
        let home = super::home(containers, &c.holder).map(|(_, d)| d.name.clone());
        let copies = |d: &DocumentType| {
            d.role == Role::Copy
                && d.copy_of
                    .as_ref()
                    .is_some_and(|of| Some(&of.document_type) == home.as_ref())
        };
        for container in out.iter_mut().filter(|k| k.document_types.iter().any(copies)) {
            for d in container.document_types.make_mut().iter_mut().filter(|d| copies(d)) {
                let Some(r) = d.references.iter_mut().find(|r| r.name == c.reference) else {
                    continue;
                };
                // No sync of its own: the copy's sync brings the holder's new values.
                r.extended = Some(Box::new(ExtendedReference {
                    attributes: attributes.clone(),
                    sync: None,
                }));
                d.estimated_size_bytes = d.estimated_size_bytes.map(|b| b + extra);
            }
        }
        // Only the containers holding the holder have their documents changed (copied).
        for container in out.iter_mut().filter(|k| k.document_types.iter().any(holds)) {
            let name = container.name.clone();
            for d in container.document_types.make_mut().iter_mut().filter(|d| holds(d)) {
                let Some(r) = d.references.iter_mut().find(|r| r.name == c.reference) else {
                    continue;
                };
                let sync = match (changes(model, &c.target), homes.get(&c.target)) {
                    (true, Some((source, discriminator))) => {
                        Some(refresh(source, &c.target, discriminator, &name, &d.name, &c.reference))
                    }
                    _ => None,
                };
                r.extended = Some(Box::new(ExtendedReference {
                    attributes: attributes.clone(),
                    sync,
                }));
                d.estimated_size_bytes = d.estimated_size_bytes.map(|b| b + extra);
            }
        }
    }
    out
}

/// The sync of an extended reference: each change of a `target` document in
/// `source`'s change feed refreshes the copied attributes of every `holder` in
/// `container` whose `reference.id` is the changed document's id.
fn refresh(
    source: &str,
    target: &str,
    discriminator: &str,
    container: &str,
    holder: &str,
    reference: &str,
) -> SyncPlan {
    SyncPlan {
        trigger: SyncTrigger::ChangeFeed {
            container: source.to_string(),
            document_type: target.to_string(),
            discriminator: discriminator.to_string(),
        },
        actions: vec![SyncAction {
            on: ChangeKind::Upserted,
            operation: SyncOperation::Refresh,
            container: container.to_string(),
            document_type: holder.to_string(),
            keys: vec![KeyMapping {
                property: format!("{reference}.id"),
                from: PropertyPath::new(["id"]),
            }],
        }],
    }
}
