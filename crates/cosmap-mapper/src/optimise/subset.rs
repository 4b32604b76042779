//! subset: a read of a parent's newest N children (`filter` on the parent, `sort`,
//! `limit`) becomes a point read of the parent when it keeps those N embedded, while
//! every child stays its own document. Each write of a child then rewrites the
//! parent's subset: in the same transactional batch where they share its logical
//! partition, else from the children's change feed (a query for the newest N, so a
//! replayed change is harmless). Kept only where the whole workload's RU/s drops and
//! the parent stays within `maxEmbeddedDocumentBytes`; never a `sensitive` value.

use std::collections::BTreeSet;

use cosmap_domain::{AccessKind, AccessPattern, DomainModel, FilterOp};

use super::copy::strip_sensitive;
use super::{Batch, Weighed};
use crate::cost::constants::DEFAULT_ITEM_BYTES;
use crate::decision::{Rule, Trace};
use crate::logical_model::{
    Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Keeping, Property, Role, SubsetOf,
};
use crate::options::Thresholds;
use crate::statistics::{about, human_bytes, human_ru_per_second};
use crate::sync_plan::{SyncOperation, SyncPlan};

/// A read of the newest children of one parent, and how their subset would be kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    pattern: String,
    element: String,
    parent_container: String,
    parent_document: String,
    embedded: Embedded,
}

/// Gives the parents of the newest-children reads a subset of them, where that
/// lowers the workload's RU/s; weighed like the other derived data ([`super::step`]).
pub(crate) struct Subsets<'m> {
    pub(crate) model: &'m DomainModel,
    pub(crate) thresholds: &'m Thresholds,
}

impl super::step::Optimisation for Subsets<'_> {
    type Candidate = Candidate;
    const RULE: Rule = Rule::Subset;

    fn candidates(&self, current: &mut super::step::Current<'_>, trace: &mut Trace) -> Vec<Candidate> {
        candidates(self.model, self.thresholds, current.containers, trace)
    }

    fn subject(&self, c: &Candidate) -> String {
        c.pattern.clone()
    }

    fn make(&self, design: &[Container], kept: &[Candidate]) -> Vec<Container> {
        subsets(design, kept)
    }

    fn affected(&self, c: &Candidate) -> BTreeSet<String> {
        super::affected(self.model, |p| p == c.pattern, &[&c.element, &c.parent_document])
    }

    fn record(&self, w: &Weighed<'_, Candidate>, batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let (c, saves, adds) = (w.candidate, w.saves, w.adds);
        let Some(of) = &c.embedded.subset else { return };
        let how = match &of.kept {
            Keeping::Batch => format!(
                "each write of a `{}` rewrites the subset in the same transactional batch",
                c.element
            ),
            Keeping::ChangeFeed { .. } => format!(
                "each write of a `{}` queries the newest again and rewrites the subset, from the change feed of `{}`",
                c.element, of.container
            ),
        };
        let (outcome, reason) = batch.said(
            w,
            (
                format!(
                    "keeps the newest {} `{}`s in `{}.{}`",
                    of.newest, c.element, c.parent_document, c.embedded.name
                ),
                format!(
                    "`{}` reads the newest {} `{}`s of one `{}`: as a point read of it they save {}, and {how}, adding {}; each `{}` stays its own document",
                    c.pattern,
                    of.newest,
                    c.element,
                    c.parent_document,
                    about(human_ru_per_second(saves)),
                    about(human_ru_per_second(adds)),
                    c.element
                ),
            ),
            format!("queries the newest `{}`s", c.element),
            (&format!("a subset of the newest {}", of.newest), "other subsets"),
            format!(
                "a subset of the newest {} in `{}` would save {} for `{}` but {how}, adding {}: the workload's RU/s would not drop",
                of.newest,
                c.parent_document,
                about(human_ru_per_second(saves)),
                c.pattern,
                about(human_ru_per_second(adds))
            ),
        );
        trace
            .record(Rule::Subset, c.pattern.as_str(), outcome, reason)
            .with("newest", of.newest)
            .with("kept", of.kept.as_str());
    }

    fn made(&self, before: &[Container], after: &[Container], batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let why = |k: &Container| {
            let kept = batch.kept_where(
                |c| c.embedded.subset.as_ref().is_some_and(|of| of.container == k.name),
                |c| format!("the newest `{}`s in `{}`", c.element, c.parent_document),
            );
            (!kept.is_empty()).then(|| format!("its change feed keeps {}", kept.join(", ")))
        };
        super::copy::mark_children_sources(before, after, why, trace);
    }
}

/// The reads of a parent's newest children that a subset can serve: one equality
/// filter naming the parent (the root's identity, its partition key; or the id of a
/// root the child refers to once, whose container is partitioned by its identity),
/// a sort on the child's own attributes, a `limit`, nothing else returned or counted,
/// a parent not copied elsewhere, and room for the subset in it.
fn candidates(model: &DomainModel, t: &Thresholds, containers: &[Container], trace: &mut Trace) -> Vec<Candidate> {
    let mut patterns: Vec<&AccessPattern> = model
        .access_patterns()
        .iter()
        .filter(|p| p.kind == AccessKind::Read && p.limit.is_some() && !p.sort.is_empty())
        .collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    patterns
        .into_iter()
        .filter_map(|p| candidate(t, containers, p, trace))
        .collect()
}

/// The subset `p` could be served by (see [`candidates`]), the refusal of one it cannot
/// recorded.
fn candidate(t: &Thresholds, containers: &[Container], p: &AccessPattern, trace: &mut Trace) -> Option<Candidate> {
    let [Some(filter)] = p.filters()[..] else {
        return None;
    };
    let only_start = p.returns.iter().all(|r| *r == p.start) && p.counts.is_empty();
    if filter.op != FilterOp::Equal || !only_start {
        return None;
    }
    let (cc, cd) = super::home(containers, &p.start)?;
    let sortable = p.sort_keys().iter().all(|k| {
        cd.attributes
            .iter()
            .any(|a| a.name == k.attribute && !a.many && !a.sensitive)
    });
    if !sortable {
        return None;
    }
    let (pc, pd, kept) = parent(containers, cc, cd, filter.attribute)?;
    let newest = p.limit.unwrap_or_default();
    let refuse = |trace: &mut Trace, why: String| {
        trace.record(
            Rule::Subset,
            p.name.as_str(),
            format!("queries the newest `{}`s", p.start),
            why,
        );
    };
    if super::copied(containers, pc, pd) {
        refuse(
            trace,
            format!(
                "`{}` documents are copied elsewhere: every child written would rewrite the copies too",
                pd.name
            ),
        );
        return None;
    }
    let child_bytes = cd.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES);
    let parent_bytes = pd.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES);
    let with = parent_bytes + newest as f64 * child_bytes;
    if with > t.max_embedded_document_bytes {
        refuse(
            trace,
            format!(
                "the newest {newest} `{}`s (about {} each) would make `{}` about {}, over `maxEmbeddedDocumentBytes` ({})",
                p.start,
                human_bytes(child_bytes),
                pd.name,
                human_bytes(with),
                human_bytes(t.max_embedded_document_bytes)
            ),
        );
        return None;
    }
    Some(Candidate {
        pattern: p.name.clone(),
        element: p.start.clone(),
        parent_container: pc.name.clone(),
        parent_document: pd.name.clone(),
        embedded: subset_of(p, (cc, cd), (pc, pd), kept),
    })
}

/// The newest (or first) `p.limit` children `cd` (of `cc`) as `p` sorts them, kept in
/// their parent `pd` (of `pc`) as `kept` says: their identity and attributes (none
/// unique, none sensitive), their embedded objects and references (not to the parent).
fn subset_of(
    p: &AccessPattern,
    (cc, cd): (&Container, &DocumentType),
    (pc, pd): (&Container, &DocumentType),
    kept: Keeping,
) -> Embedded {
    let newest = p.limit.unwrap_or_default();
    let prefix = if p.sort.first().is_some_and(|s| s.starts_with('-')) {
        "newest"
    } else {
        "first"
    };
    let mut name = format!("{prefix}{}s", p.start);
    while super::taken(pc, pd, &name) {
        name.push_str("Subset");
    }
    let identity = cd.id.attribute().unwrap_or("id").to_string();
    let mut attributes = vec![Property::text(&identity)];
    attributes.extend(cd.attributes.iter().map(|a| Property {
        unique: false,
        ..a.clone()
    }));
    let mut embedded = cd.embedded.clone();
    strip_sensitive(&mut attributes, &mut embedded);
    Embedded {
        name,
        source: p.start.clone(),
        kind: EmbeddedKind::Subset,
        description: cd.description.clone(),
        many: true,
        max: Some(newest),
        attributes,
        embedded,
        // Not the reference to the parent that holds them.
        references: cd
            .references
            .iter()
            .filter(|r| r.target != pd.source)
            .cloned()
            .collect(),
        subset: Some(Box::new(SubsetOf {
            container: cc.name.clone(),
            document_type: cd.name.clone(),
            newest,
            sort: p.sort.clone(),
            serves: p.name.clone(),
            kept,
        })),
    }
}

/// The parent `filter` names for children `cd` in `cc`, and how a subset of them is
/// kept: the root of their aggregate (the filter is its identity, their partition
/// key) in the same batch, or a root they refer to once (the filter is its id, its
/// container partitioned by it) from their change feed.
fn parent<'c>(
    containers: &'c [Container],
    cc: &'c Container,
    cd: &DocumentType,
    filter: &str,
) -> Option<(&'c Container, &'c DocumentType, Keeping)> {
    let single = cc.sub_partition_key_properties.is_empty();
    if cd.role == Role::Entity && single && filter == cc.partition_key_property {
        let root = cc
            .document_types
            .iter()
            .find(|d| d.role == Role::Root && d.id.attribute() == Some(filter))?;
        return Some((cc, root, Keeping::Batch));
    }
    let r = cd
        .references
        .iter()
        .find(|r| !r.many && (filter == r.target_identity || filter == format!("{}.{}", r.name, r.target_identity)))?;
    let (pc, pd) = super::home(containers, &r.target)?;
    let by_identity = pc.kind == ContainerKind::Aggregate
        && pc.sub_partition_key_properties.is_empty()
        && pc.partition_key_property == r.target_identity;
    if !by_identity || pd.role != Role::Root {
        return None;
    }
    let sync = SyncPlan::parent_kept(
        (&cc.name, &cd.name, &cd.discriminator),
        &r.name,
        (&pc.name, &pd.name),
        SyncOperation::Resubset,
    );
    Some((pc, pd, Keeping::ChangeFeed { sync }))
}

/// `containers` with each candidate's subset embedded in its parent's documents.
fn subsets(containers: &[Container], candidates: &[Candidate]) -> Vec<Container> {
    let mut out = containers.to_vec();
    for c in candidates {
        let child_bytes = c
            .embedded
            .subset
            .as_ref()
            .and_then(|of| {
                out.iter()
                    .find(|k| k.name == of.container)?
                    .document_type(&of.document_type)
            })
            .and_then(|d| d.estimated_size_bytes)
            .unwrap_or(DEFAULT_ITEM_BYTES);
        let parent = super::document_mut(&mut out, &c.parent_container, &c.parent_document);
        if let Some(d) = parent {
            let newest = c.embedded.max.unwrap_or_default() as f64;
            d.estimated_size_bytes = d.estimated_size_bytes.map(|b| b + newest * child_bytes);
            d.embedded.push(c.embedded.clone());
        }
        // Kept from the children's change feed: their deletes must reach it.
        if let Some(of) = c
            .embedded
            .subset
            .as_ref()
            .filter(|of| matches!(of.kept, Keeping::ChangeFeed { .. }))
        {
            if let Some(children) = out.iter_mut().find(|k| k.name == of.container) {
                super::copy::soft_deletes(children);
            }
        }
    }
    out
}
