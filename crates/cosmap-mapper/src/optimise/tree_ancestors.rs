//! treeAncestors: a read of the path to the root of a tree (`returns: ["parent*"]`
//! or `["parent*.name"]` on a tree's parent link, `Category.parent`) follows the
//! link once per level, one point read each. Stored on each element, a list of every
//! ancestor (`ancestors: [{id, partitionKey, name}, …]`, root first: extended
//! references, only the attributes read, never a `sensitive` one) comes with the
//! element instead. A create or a move then reads the new parent (its list and
//! itself make the new one's), and a change of an element rewrites every descendant
//! that lists it, from the change feed. The average element has as many descendants
//! as ancestors (each element is counted once per ancestor), so a change rewrites
//! `depth.avg` documents on average. Kept only where the workload's RU/s drops and
//! the list fits an item at `depth.max` entries. "Children of" needs no list: it
//! queries the parent reference.

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::limits::{REFERENCE_BYTES, REFERENCE_LIST_MAX_BYTES};
use cosmap_domain::{AccessKind, AccessPattern, ChangeRate, DomainModel};

use super::{Batch, Weighed};
use crate::cost::facts;
use crate::cost::units;
use crate::decision::{Rule, Trace};
use crate::logical_model::{Ancestry, Container, ExtendedReference, Property, Reference, Role};
use crate::operations::PropertyPath;
use crate::statistics::{about, human_ru_per_second};
use crate::sync_plan::{ChangeKind, KeyMapping, SyncAction, SyncOperation, SyncPlan, SyncTrigger};

/// One tree whose ancestors reads take: the element, its parent reference, the
/// attributes read of each ancestor and the patterns that read them.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
pub(crate) struct Candidate {
    element: String,
    parent: String,
    attributes: BTreeSet<String>,
    patterns: BTreeSet<String>,
    max: u64,
    typical: f64,
}

impl Candidate {
    fn subject(&self) -> String {
        format!("{}.{}", self.element, self.parent)
    }
}

/// Stores the ancestors lists reads of the path to the root call for, where that
/// lowers the workload's RU/s (weighed like the other derived data: [`super::weigh`]).
pub(crate) struct TreeAncestors<'m> {
    pub(crate) model: &'m DomainModel,
}

impl super::step::Optimisation for TreeAncestors<'_> {
    type Candidate = Candidate;
    const RULE: Rule = Rule::TreeAncestors;

    fn candidates(&self, current: &mut super::step::Current<'_>, trace: &mut Trace) -> Vec<Candidate> {
        candidates(self.model, current.containers, trace)
    }

    fn subject(&self, c: &Candidate) -> String {
        c.subject()
    }

    fn make(&self, design: &[Container], kept: &[Candidate]) -> Vec<Container> {
        with_ancestors(self.model, design, kept)
    }

    fn affected(&self, c: &Candidate) -> BTreeSet<String> {
        super::affected(self.model, |p| c.patterns.contains(p), &[&c.element])
    }

    fn record(&self, w: &Weighed<'_, Candidate>, batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let model = self.model;
        let (c, saves, adds) = (w.candidate, w.saves, w.adds);
        let reads: Vec<String> = c.patterns.iter().map(|p| format!("`{p}`")).collect();
        let stored = stored_attributes(c);
        let (outcome, reason) = batch.said(
            w,
            (
                format!("stores every ancestor up `{}` on each `{}`, root first", c.parent, c.element),
                format!(
                    "{} {} the path to the root, {} of `{}` per result on average ({} at most): stored as a list of {stored}, it comes with the element and saves {}; a create or a move reads the new parent, and a change rewrites every descendant that lists it (from the change feed, {} on average), {}",
                    reads.join(", "),
                    if reads.len() == 1 { "reads" } else { "read" },
                    if c.typical == 1.0 {
                        "1 point read".to_string()
                    } else {
                        format!("{} point reads", c.typical)
                    },
                    c.element,
                    c.max,
                    about(human_ru_per_second(saves)),
                    c.typical,
                    about(human_ru_per_second(adds))
                ),
            ),
            format!("follows `{}` up, one point read per level", c.parent),
            ("the list", "other ancestors lists"),
            format!(
                "a list of ancestors would save {} of point reads for {} but add {} of writes (the parent read on each create, the rewrite of the descendants on each change, larger documents): the workload's RU/s would not drop",
                about(human_ru_per_second(saves)),
                reads.join(", "),
                about(human_ru_per_second(adds))
            ),
        );
        trace
            .record(Rule::TreeAncestors, c.subject(), outcome, reason)
            .with("attributes", c.attributes.iter().cloned().collect::<Vec<_>>())
            .with("maxDepth", c.max)
            .with("listBytes", units::round(list_bytes(model, c)));
    }
}

/// What each entry holds, for the decision: `id, partitionKey` and the attributes.
fn stored_attributes(c: &Candidate) -> String {
    let mut parts = vec!["`id`".to_string(), "`partitionKey`".to_string()];
    parts.extend(c.attributes.iter().map(|a| format!("`{a}`")));
    parts.join(", ")
}

/// The bytes of one entry's copied attributes: a share of the element's size, by the
/// properties copied (as an extended reference counts them).
fn attribute_bytes(model: &DomainModel, element: &str, copied: usize) -> f64 {
    let total = model.entity(element).map_or(0, |e| e.attributes.len());
    facts::bytes_of(model, element) * copied as f64 / (total + 3) as f64
}

/// The list's size at its bound (`depth.max` entries).
fn list_bytes(model: &DomainModel, c: &Candidate) -> f64 {
    c.max as f64 * (REFERENCE_BYTES + attribute_bytes(model, &c.element, c.attributes.len()))
}

/// The trees reads take ancestors of, one candidate per element and parent link, in
/// name order. A `sensitive` attribute, a list over the item budget at `depth.max`,
/// or an element whose documents are copied elsewhere is refused, with the reason.
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
            let Some(tree) = TreeRead::of(model, containers, p, returned) else {
                continue;
            };
            let subject = format!("{}.{}", p.start, tree.parent);
            if let Some((key, outcome, reason)) = tree.refusal(model, containers, p, returned) {
                if refused.insert(key.unwrap_or_else(|| subject.clone())) {
                    trace.record(Rule::TreeAncestors, subject, outcome, reason);
                }
                continue;
            }
            let entry = found
                .entry((p.start.clone(), tree.parent.to_string()))
                .or_insert_with(|| Candidate {
                    element: p.start.clone(),
                    parent: tree.parent.to_string(),
                    attributes: BTreeSet::new(),
                    patterns: BTreeSet::new(),
                    max: tree.max,
                    typical: tree.typical,
                });
            entry.attributes.extend(tree.attribute.map(str::to_string));
            entry.patterns.insert(p.name.clone());
        }
    }
    found.into_values().filter(|c| fits(model, c, trace)).collect()
}

/// A read's `returned` path up a tree (`parent*` or `parent*.name`) from a root that
/// holds the single parent link, with the tree's depth.
struct TreeRead<'a> {
    parent: &'a str,
    attribute: Option<&'a str>,
    max: u64,
    typical: f64,
    home: &'a Container,
    holder: &'a crate::logical_model::DocumentType,
}

impl<'a> TreeRead<'a> {
    /// `returned` of `p` as a read up a tree, if it is one.
    fn of(model: &DomainModel, containers: &'a [Container], p: &AccessPattern, returned: &'a str) -> Option<Self> {
        let (first, attribute) = match returned.split_once('.') {
            Some((first, rest)) => (first, Some(rest)),
            None => (returned, None),
        };
        let parent = first.strip_suffix('*')?;
        let rel = model
            .relationship_by_property(&p.start, parent)
            .filter(|r| r.is_tree())?;
        let depth = rel.depth.as_ref()?;
        let (home, holder) = super::home(containers, &p.start).filter(|(_, d)| d.role == Role::Root)?;
        if !holder.references.iter().any(|r| r.name == parent && !r.many) {
            return None;
        }
        Some(TreeRead {
            parent,
            attribute,
            max: depth.max,
            typical: depth.typical(),
            home,
            holder,
        })
    }

    /// Why its ancestors cannot be stored (the key the refusal is said once for, when
    /// not the subject; the outcome; the reason): a `sensitive` attribute, or documents
    /// copied elsewhere.
    fn refusal(
        &self,
        model: &DomainModel,
        containers: &[Container],
        p: &AccessPattern,
        returned: &str,
    ) -> Option<(Option<String>, String, String)> {
        let parent = self.parent;
        if let Some(a) = self.attribute {
            let sensitive = model
                .entity(&p.start)
                .and_then(|e| e.attributes.iter().find(|x| x.name == a))
                .is_some_and(|x| x.sensitive);
            if sensitive {
                return Some((
                    Some(format!("{}.{parent}.{a}", p.start)),
                    format!("does not store `{a}` of the ancestors"),
                    format!(
                        "`{}` reads `{returned}`, but `{}.{a}` is `sensitive`: it never leaves its own document, so the read follows `{parent}` up",
                        p.name, p.start
                    ),
                ));
            }
        }
        super::copied(containers, self.home, self.holder).then(|| {
            (
                None,
                "follows the parent link up".to_string(),
                format!(
                    "`{}` reads `{returned}`, but `{}` documents are copied elsewhere, and a list of ancestors there would go stale between the two syncs",
                    p.name, self.holder.name
                ),
            )
        })
    }
}

/// Whether `c`'s list fits the item budget at its bound; the refusal recorded if not.
fn fits(model: &DomainModel, c: &Candidate, trace: &mut Trace) -> bool {
    let bytes = list_bytes(model, c);
    if bytes <= REFERENCE_LIST_MAX_BYTES {
        return true;
    }
    trace
        .record(
            Rule::TreeAncestors,
            c.subject(),
            format!("follows `{}` up, one point read per level", c.parent),
            format!(
                "a list of up to {} ancestors would take about {:.0} KB, over the {:.0} KB a list may take of an item",
                c.max,
                bytes / 1000.0,
                REFERENCE_LIST_MAX_BYTES / 1000.0
            ),
        )
        .with("maxDepth", c.max)
        .with("listBytes", units::round(bytes));
    false
}

/// `containers` with an ancestors list on each candidate's root documents.
fn with_ancestors(model: &DomainModel, containers: &[Container], candidates: &[Candidate]) -> Vec<Container> {
    let mut out = containers.to_vec();
    for c in candidates {
        let Some(entity) = model.entity(&c.element) else {
            continue;
        };
        let attributes: Vec<Property> = entity
            .attributes
            .iter()
            .filter(|a| c.attributes.contains(&a.name) && !a.sensitive)
            .map(Property::copy_of)
            .collect();
        let extra = c.typical * (REFERENCE_BYTES + attribute_bytes(model, &c.element, attributes.len()));
        for container in out.iter_mut() {
            let Some(at) = container
                .document_types
                .iter()
                .position(|d| d.source == c.element && d.role == Role::Root)
            else {
                continue;
            };
            let d = &container.document_types[at];
            let Some(parent) = d.references.iter().find(|r| r.name == c.parent && !r.many).cloned() else {
                continue;
            };
            let taken = |name: &str| super::taken(container, d, name);
            let mut name = "ancestors".to_string();
            if taken(&name) {
                name = format!("{}Ancestors", c.parent);
            }
            while taken(&name) {
                name.push_str("List");
            }
            // Reference data that never changes needs no sync.
            let sync = (entity.reference_data != Some(ChangeRate::Never))
                .then(|| reancestor(&container.name, &d.name, &d.discriminator, &name));
            let d = &mut container.document_types.make_mut()[at];
            d.references.push(Reference {
                name,
                many: true,
                optional: false,
                extended: Some(Box::new(ExtendedReference {
                    attributes: attributes.clone(),
                    sync,
                })),
                ancestry: Some(Ancestry {
                    parent: c.parent.clone(),
                    max: c.max,
                }),
                ..parent
            });
            d.estimated_size_bytes = d.estimated_size_bytes.map(|b| b + extra);
        }
    }
    out
}

/// The sync of an ancestors list: each change of an element in its container's
/// change feed rewrites the lists of every document that holds it.
fn reancestor(container: &str, document: &str, discriminator: &str, list: &str) -> SyncPlan {
    SyncPlan {
        trigger: SyncTrigger::ChangeFeed {
            container: container.to_string(),
            document_type: document.to_string(),
            discriminator: discriminator.to_string(),
        },
        actions: vec![SyncAction {
            on: ChangeKind::Upserted,
            operation: SyncOperation::Reancestor,
            container: container.to_string(),
            document_type: document.to_string(),
            keys: vec![KeyMapping {
                property: format!("{list}[].id"),
                from: PropertyPath::new(["id"]),
            }],
        }],
    }
}
