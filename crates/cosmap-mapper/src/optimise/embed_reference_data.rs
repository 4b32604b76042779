//! Embed reference data: when a referenced dictionary never changes, the
//! referencing documents may embed its attributes instead of a reference, so reads
//! need no second request and no copy ever goes stale. A snapshot also makes every
//! document that carries it larger, so it is kept only where the whole workload's
//! RU/s drops, by the cost table's own figures.

use std::collections::BTreeSet;
use std::sync::Arc;

use cosmap_domain::{ChangeRate, DomainModel};

use super::Priced;
use crate::cost::optimisations::{saves_and_adds, snapshot_reads, snapshot_writes};
use crate::cost::units;
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, DocumentType, Embedded, EmbeddedKind, Property, Reference, Role};
use crate::operations::PropertyPath;
use crate::statistics::human_ru_per_second;
use crate::sync_plan::SyncPlan;

/// Replaces references to never-changing reference data with embedded snapshots,
/// element by element, where that lowers the workload's RU/s.
///
/// `price` finishes and prices a candidate design; `priced` is `containers` priced
/// already, when the caller has it. Each element's snapshots are
/// weighed by the patterns they change (the reads they save, the writes they make
/// larger) between the design without any snapshot and the design with all of
/// them; the elements that save more than they add are kept together, and only if
/// the workload priced with exactly those snapshots costs less than without.
/// `hold_without`: whether the design without snapshots is held whole while the
/// others are priced; else only its figures are, and it is priced again should no
/// snapshot be kept.
pub(crate) fn apply(
    model: &DomainModel,
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    price: &dyn Fn(&[Container]) -> Priced,
    priced: Option<Priced>,
    hold_without: bool,
) -> Option<Priced> {
    let candidates = candidates(model, containers);
    if candidates.is_empty() {
        return priced;
    }
    let without = priced.unwrap_or_else(|| price(containers));
    let mut touched = snapshot_reads((&without.containers, &without.operations));
    let without = if hold_without { without } else { without.figures() };
    let with_all = with_all(model, containers, &candidates, price);
    snapshot_writes((&with_all.containers, &with_all.operations), &mut touched);
    let mut kept = BTreeSet::new();
    let mut weighed = Vec::new();
    let none = BTreeSet::new();
    for element in &candidates {
        let patterns = touched.get(element).unwrap_or(&none);
        let (saves, adds) = saves_and_adds(patterns.iter().map(|name| {
            let ru = |p: &Priced| p.by_pattern.get(name).copied().unwrap_or(0.0);
            ru(&without) - ru(&with_all)
        }));
        if saves > adds {
            kept.insert(element.clone());
        }
        weighed.push((element.clone(), saves, adds));
    }
    // The design with exactly the kept snapshots, which must cost less than none (the
    // design with every one let go first when it is not that one).
    let every = (kept == candidates).then_some(with_all);
    let chosen = if kept.is_empty() {
        None
    } else {
        Some(every.unwrap_or_else(|| price(&embedded(model, containers, &kept, &mut Trace::default()))))
    };
    let together_worse = chosen.as_ref().is_some_and(|p| !p.cheaper_than(&without));
    record(trace, weighed, &kept, together_worse, without.total());
    match chosen {
        Some(priced) if !together_worse => {
            *containers = Arc::new(embedded(model, containers, &kept, trace));
            Some(priced)
        }
        _ if hold_without => Some(without),
        _ => Some(price(containers)),
    }
}

/// Records the decision on each element `weighed` (with what its snapshots save and
/// add): embedded when `kept` holds it and the kept ones are not worse together than
/// none (the workload `without` them).
fn record(
    trace: &mut Trace,
    weighed: Vec<(String, f64, f64)>,
    kept: &BTreeSet<String>,
    together_worse: bool,
    without: f64,
) {
    for (element, saves, adds) in weighed {
        let (ru_saved, ru_added) = (human_ru_per_second(saves), human_ru_per_second(adds));
        let embeds = kept.contains(&element) && !together_worse;
        let (outcome, reason) = if embeds {
            (
                format!("embeds `{element}` where it is referenced"),
                format!("its snapshots save about {ru_saved} of reads and add about {ru_added} of writes"),
            )
        } else {
            let reason = if kept.contains(&element) {
                format!(
                    "alone its snapshots save about {ru_saved} and add about {ru_added}, but with the other snapshots kept the workload would cost no less than the {} it costs without them",
                    human_ru_per_second(without)
                )
            } else {
                format!("its snapshots would save about {ru_saved} of reads and add about {ru_added} of writes: the workload's RU/s would not drop")
            };
            (format!("keeps references to `{element}`"), reason)
        };
        let decision = trace
            .record(Rule::EmbedReferenceData, element, outcome, reason)
            .with("referenceData", "never")
            .with("savesRuPerSecond", units::round(saves))
            .with("addsRuPerSecond", units::round(adds));
        super::break_even(decision, saves, adds, embeds);
    }
}

/// The design with every snapshot of `candidates` in `containers`, priced.
fn with_all(
    model: &DomainModel,
    containers: &[Container],
    candidates: &BTreeSet<String>,
    price: &dyn Fn(&[Container]) -> Priced,
) -> Priced {
    price(&embedded(model, containers, candidates, &mut Trace::default()))
}

/// The never-changing reference data elements some document refers to, by name.
fn candidates(model: &DomainModel, containers: &[Container]) -> BTreeSet<String> {
    fn walk(model: &DomainModel, references: &[Reference], embedded: &[Embedded], out: &mut BTreeSet<String>) {
        // An optional reference stays one: a snapshot cannot be absent, and a tree's
        // parent link must lead on to the parent's own.
        for r in references.iter().filter(|r| !r.optional) {
            if model
                .entity(&r.target)
                .is_some_and(|e| e.reference_data == Some(ChangeRate::Never))
            {
                out.insert(r.target.clone());
            }
        }
        for e in embedded {
            walk(model, &e.references, &e.embedded, out);
        }
    }
    let mut out = BTreeSet::new();
    for d in containers.iter().flat_map(|c| &c.document_types) {
        walk(model, &d.references, &d.embedded, &mut out);
    }
    out
}

/// `containers` with every reference to an element of `elements` replaced by a snapshot.
fn embedded(
    model: &DomainModel,
    containers: &[Container],
    elements: &BTreeSet<String>,
    trace: &mut Trace,
) -> Vec<Container> {
    let mut containers = containers.to_vec();
    // A container none of whose documents refers to them, nor is a copy, keeps its
    // document types as they are, shared with the design before (not copied).
    let touched = |d: &DocumentType| d.copy_of.is_some() || refers(elements, &d.references, &d.embedded);
    for container in containers.iter_mut() {
        if !container.document_types.iter().any(touched) {
            continue;
        }
        for doc in container.document_types.make_mut() {
            let subject = if doc.role == Role::Copy {
                format!("{}.{}", container.name, doc.name)
            } else {
                doc.name.clone()
            };
            rewrite(model, elements, &subject, &mut doc.references, &mut doc.embedded, trace);
            follow_snapshot(model, &container.name, doc, trace);
        }
    }
    containers
}

/// A copy takes its partition key from a reference of its source (`country.id`);
/// when that reference has become a snapshot, which holds the referenced root's
/// identity under its own name instead of an `id`, the copy takes it from there
/// (`country.countryId`). The source document has the same snapshot: the
/// optimisation rewrites every document alike.
fn follow_snapshot(model: &DomainModel, container: &str, doc: &mut DocumentType, trace: &mut Trace) {
    let Some(of) = &mut doc.copy_of else {
        return;
    };
    let [via, id] = of.partition_key_from.names() else {
        return;
    };
    if id != "id" {
        return;
    }
    let via = via.clone();
    let snapshot = doc
        .embedded
        .iter()
        .find(|e| e.name == via && e.kind == EmbeddedKind::ReferenceData && !e.many);
    let Some(identity) = snapshot.and_then(|e| model.entity(&e.source)).map(|e| &e.identity) else {
        return;
    };
    let from = PropertyPath::new([via.as_str(), identity.as_str()]);
    of.sync = SyncPlan::copy(
        &of.container,
        &of.document_type,
        &doc.discriminator,
        container,
        &doc.name,
        &doc.partition_key_property,
        &from,
    );
    trace.record(
        Rule::EmbedReferenceData,
        format!("{container}.{}", doc.name),
        format!("the copy takes its partition key `{}` from `{from}`", doc.partition_key_property),
        format!(
            "`{via}` is now a snapshot, which holds the identity of the referenced `{}` as `{identity}` instead of an `id`",
            snapshot.map(|e| e.source.as_str()).unwrap_or_default()
        ),
    );
    of.partition_key_from = from;
}

/// Whether a reference among `references`, or inside `embedded`, becomes a snapshot
/// of one of `elements` (what [`rewrite`] replaces).
fn refers(elements: &BTreeSet<String>, references: &[Reference], embedded: &[Embedded]) -> bool {
    references.iter().any(|r| elements.contains(&r.target) && !r.optional)
        || embedded.iter().any(|e| refers(elements, &e.references, &e.embedded))
}

fn rewrite(
    model: &DomainModel,
    elements: &BTreeSet<String>,
    subject: &str,
    references: &mut Vec<Reference>,
    embedded: &mut Vec<Embedded>,
    trace: &mut Trace,
) {
    for e in embedded.iter_mut() {
        let site = format!("{subject}.{}", e.name);
        rewrite(model, elements, &site, &mut e.references, &mut e.embedded, trace);
    }
    let (snapshots, kept): (Vec<Reference>, Vec<Reference>) = std::mem::take(references)
        .into_iter()
        .partition(|r| elements.contains(&r.target) && !r.optional);
    *references = kept;
    for reference in snapshots {
        let Some(target) = model.entity(&reference.target) else {
            continue;
        };
        let mut attributes = vec![Property::text(&target.identity)];
        // A sensitive value never leaves its own document.
        let (sensitive, copied): (Vec<_>, Vec<_>) = target.attributes.iter().partition(|a| a.sensitive);
        attributes.extend(copied.iter().map(|a| Property::copy_of(a)));
        let names: Vec<String> = attributes.iter().map(|a| a.name.clone()).collect();
        let left_out: Vec<String> = sensitive.iter().map(|a| format!("`{}`", a.name)).collect();
        let decision = trace
            .record(
                Rule::EmbedReferenceData,
                format!("{subject}.{}", reference.name),
                format!("embeds `{}`'s attributes instead of referencing it", target.name),
                format!(
                    "`{}` is reference data that never changes: a snapshot never goes stale and saves a read of container `{}`{}",
                    target.name,
                    reference.target_container,
                    if left_out.is_empty() {
                        String::new()
                    } else {
                        format!("; it leaves out {}, which is `sensitive`", left_out.join(", "))
                    }
                ),
            )
            .with("referenceData", "never")
            .with("attributes", names);
        if !left_out.is_empty() {
            decision.with("sensitiveLeftOut", left_out.len());
        }
        embedded.push(Embedded {
            subset: None,
            description: target.description.clone(),
            name: reference.name,
            source: target.name.clone(),
            kind: EmbeddedKind::ReferenceData,
            many: reference.many,
            max: None,
            attributes,
            embedded: Vec::new(),
            references: Vec::new(),
        });
    }
}
