//! computedValue: a read that `counts` an element per result runs a `COUNT` query for
//! every result; keeping the number on the parent (`commentCount`) answers it from
//! the document. The writes that create and delete a child then rewrite the parent
//! too: in the same transactional batch where parent and children share a logical
//! partition, else from the children's change feed (a recount, so a replayed change
//! is harmless). Kept only where the whole workload's RU/s drops.

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::{AccessKind, DomainModel};

use super::{Batch, Priced, Weighed};
use crate::decision::{Rule, Trace};
use crate::logical_model::{ComputedValue, Container, DocumentType, Keeping, Role};
use crate::operations::Purpose;
use crate::statistics::{about, human_ru_per_second};
use crate::sync_plan::{SyncOperation, SyncPlan};

/// A count one read runs per result, and how it could be kept instead.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    /// The parent element and the counted one.
    parent: String,
    element: String,
    /// The parent's and the children's container and document type.
    parent_container: String,
    parent_document: String,
    child_container: String,
    child_document: String,
    /// The property it would be kept in.
    name: String,
    kept: Keeping,
    /// The reads that count it.
    patterns: BTreeSet<String>,
}

/// Keeps the counts reads ask for on their parents, where that lowers the workload's
/// RU/s; weighed like the other derived data (all candidates against none, each by
/// the patterns it changes, the kept ones together).
pub(crate) struct ComputedValues<'m> {
    pub(crate) model: &'m DomainModel,
}

impl super::step::Optimisation for ComputedValues<'_> {
    type Candidate = Candidate;
    const RULE: Rule = Rule::ComputedValue;

    fn candidates(&self, current: &mut super::step::Current<'_>, trace: &mut Trace) -> Vec<Candidate> {
        let counting = self
            .model
            .access_patterns()
            .iter()
            .any(|p| p.kind == AccessKind::Read && !p.counts.is_empty());
        if !counting {
            return Vec::new();
        }
        let containers = current.containers;
        candidates(containers, current.priced(), trace)
    }

    fn subject(&self, c: &Candidate) -> String {
        format!("{}.{}", c.parent_document, c.name)
    }

    fn make(&self, design: &[Container], kept: &[Candidate]) -> Vec<Container> {
        computed(design, kept)
    }

    fn affected(&self, c: &Candidate) -> BTreeSet<String> {
        super::affected(self.model, |p| c.patterns.contains(p), &[&c.element])
    }

    fn record(&self, w: &Weighed<'_, Candidate>, batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let (c, saves, adds) = (w.candidate, w.saves, w.adds);
        let reads: Vec<String> = c.patterns.iter().map(|p| format!("`{p}`")).collect();
        let how = match &c.kept {
            Keeping::Batch => format!(
                "each create or delete of a `{}` rewrites the `{}` in the same transactional batch (one logical partition)",
                c.element, c.parent
            ),
            Keeping::ChangeFeed { .. } => format!(
                "each create or delete of a `{}` recounts them and rewrites the `{}`, from the change feed of `{}`",
                c.element, c.parent, c.child_container
            ),
        };
        let (outcome, reason) = batch.said(
            w,
            (
                format!("keeps `{}.{}`, its number of `{}`s", c.parent_document, c.name, c.element),
                format!(
                    "{} {} the `{}`s of each `{}` with a query per result; kept on the `{}` it saves {}, and {how}, adding {}",
                    reads.join(", "),
                    if reads.len() == 1 { "counts" } else { "count" },
                    c.element,
                    c.parent,
                    c.parent,
                    about(human_ru_per_second(saves)),
                    about(human_ru_per_second(adds))
                ),
            ),
            format!("counts `{}`s on each read", c.element),
            ("keeping the count", "other counts"),
            format!(
                "keeping the count on the `{}` would save {} of count queries for {} but {how}, adding {}: the workload's RU/s would not drop",
                c.parent,
                about(human_ru_per_second(saves)),
                reads.join(", "),
                about(human_ru_per_second(adds))
            ),
        );
        trace
            .record(
                Rule::ComputedValue,
                format!("{}.{}", c.parent_document, c.name),
                outcome,
                reason,
            )
            .with("counts", c.element.as_str())
            .with("kept", c.kept.as_str());
    }

    fn made(&self, before: &[Container], after: &[Container], batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let why = |k: &Container| {
            let counted = batch.kept_where(
                |c| c.child_container == k.name,
                |c| format!("`{}`s on their `{}`", c.element, c.parent),
            );
            (!counted.is_empty()).then(|| format!("its change feed keeps the counts of {}", counted.join(", ")))
        };
        super::copy::mark_children_sources(before, after, why, trace);
    }
}

/// The counts the design's reads run per result (`Purpose::Count`), one candidate per
/// parent and counted element, where the count can be kept: the parent's own
/// document (not a copy's, and not copied elsewhere, where the copy would be rewritten
/// on every child) and children that either share its logical partition and name it
/// (its root alone in the partition, or their parent link), or refer to it once.
fn candidates(containers: &[Container], priced: &Priced, trace: &mut Trace) -> Vec<Candidate> {
    let mut found: BTreeMap<(String, String), Candidate> = BTreeMap::new();
    let mut refused: BTreeSet<(String, String)> = BTreeSet::new();
    for op in priced.operations.iter() {
        for r in &op.requests {
            let Purpose::Count { element, per } = &r.purpose else {
                continue;
            };
            let key = (per.clone(), element.clone());
            if let Some(c) = found.get_mut(&key) {
                c.patterns.insert(op.pattern.clone());
                continue;
            }
            if refused.contains(&key) {
                continue;
            }
            let parent = super::home(containers, per);
            let child = containers
                .iter()
                .find(|c| c.name == r.container)
                .and_then(|c| Some((c, c.document_type(r.document_types.first()?)?)));
            let (Some((pc, pd)), Some((cc, cd))) = (parent, child) else {
                continue;
            };
            let kept = match keeping(containers, pc, pd, cc, cd) {
                Ok(kept) => kept,
                Err(why) => {
                    trace.record(
                        Rule::ComputedValue,
                        format!("{}.{element}", pd.name),
                        format!("counts `{element}`s on each read"),
                        format!("`{}` counts the `{element}`s of each `{per}`, but {why}", op.pattern),
                    );
                    refused.insert(key);
                    continue;
                }
            };
            let mut name = format!("{}Count", cosmap_domain::naming::lower_camel(element));
            while super::taken(pc, pd, &name) {
                name.push_str("Value");
            }
            found.insert(
                key,
                Candidate {
                    parent: per.clone(),
                    element: element.clone(),
                    parent_container: pc.name.clone(),
                    parent_document: pd.name.clone(),
                    child_container: cc.name.clone(),
                    child_document: cd.name.clone(),
                    name,
                    kept,
                    patterns: BTreeSet::from([op.pattern.clone()]),
                },
            );
        }
    }
    found.into_values().collect()
}

/// How a count of `child` documents on `parent` can be kept, or why it cannot.
fn keeping(
    containers: &[Container],
    pc: &Container,
    pd: &DocumentType,
    cc: &Container,
    cd: &DocumentType,
) -> Result<Keeping, String> {
    let copied = containers.iter().flat_map(|c| &c.document_types).any(|d| {
        d.copy_of
            .as_ref()
            .is_some_and(|of| of.document_type == pd.name && of.container == pc.name)
    });
    if copied {
        return Err(format!(
            "`{}` documents are copied elsewhere: every child written would rewrite the copies too",
            pd.name
        ));
    }
    if cc.name == pc.name {
        let alone = pd.role == Role::Root && pd.id.attribute() == pc.partition_key_properties().last().copied();
        let linked = cd.parent.as_ref().is_some_and(|l| l.entity == pd.source);
        if alone || linked {
            return Ok(Keeping::Batch);
        }
        return Err(format!(
            "the `{}`s share their logical partition with other `{}`s and do not name theirs",
            cd.name, pd.name
        ));
    }
    let Some(r) = cd.references.iter().find(|r| r.target == pd.source && !r.many) else {
        return Err(format!("the `{}`s do not refer to their `{}`", cd.name, pd.name));
    };
    let sync = SyncPlan::parent_kept(
        (&cc.name, &cd.name, &cd.discriminator),
        &r.name,
        (&pc.name, &pd.name),
        SyncOperation::Recount,
    );
    Ok(Keeping::ChangeFeed { sync })
}

/// `containers` with each candidate's count on its parent's documents.
fn computed(containers: &[Container], candidates: &[Candidate]) -> Vec<Container> {
    let mut out = containers.to_vec();
    for c in candidates {
        let parent = super::document_mut(&mut out, &c.parent_container, &c.parent_document);
        if let Some(d) = parent {
            d.computed.push(ComputedValue {
                name: c.name.clone(),
                counts: c.element.clone(),
                container: c.child_container.clone(),
                document_type: c.child_document.clone(),
                kept: c.kept.clone(),
            });
            // An integer property: a few bytes.
            d.estimated_size_bytes = d.estimated_size_bytes.map(|b| b + 20.0);
        }
        // Kept from the children's change feed: their deletes must reach it.
        if matches!(c.kept, Keeping::ChangeFeed { .. }) {
            if let Some(children) = out.iter_mut().find(|k| k.name == c.child_container) {
                super::copy::soft_deletes(children);
            }
        }
    }
    out
}
