//! What each optimisation of the optimised design saves and adds, in RU/s, by the
//! same figures as the cost table: the difference, pattern by pattern, between the
//! MR1–MR6 design and the optimised one, credited to the optimisation that changed
//! the pattern's requests. What no single optimisation explains (a container grown by
//! copies, so that its other queries fan out wider) is reported apart.

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::NameMap;
use serde::Serialize;

use super::estimate::PatternCost;
use super::units;
use crate::decision::Rule;
use crate::logical_model::{Container, Embedded, EmbeddedKind, LogicalModel, Role};
use crate::operations::{Operation, OperationKind};

/// One optimisation's effect on the workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OptimisationEffect {
    /// The decision's rule: `partitionKey`, `copy`, `feed`, `embedReferenceData`,
    /// `extendedReference`, `computedValue`, `subset` or `treeAncestors`.
    pub rule: Rule,
    /// What it made: `Order` copied into `Account`, `Country` embedded.
    pub subject: String,
    /// RU/s the patterns it serves no longer spend.
    pub saves_ru_per_second: f64,
    /// RU/s the writes that keep it current (or that carry it) spend on top.
    pub adds_ru_per_second: f64,
    /// The patterns whose cost it changes, by name.
    pub patterns: Vec<String>,
}

/// Every optimisation of `optimised` with its effect, and the RU/s the optimised
/// design saves that none of them accounts for alone (negative when it adds).
pub(crate) fn effects(
    optimised: &LogicalModel,
    rules: (&[Container], &[Operation]),
    patterns: &[PatternCost],
) -> (Vec<OptimisationEffect>, f64) {
    let mut out = Vec::new();
    partition_keys(optimised, patterns, &mut out);
    copies(optimised, patterns, &mut out);
    snapshots_embedded(optimised, rules, patterns, &mut out);
    extended_references(optimised, rules.1, patterns, &mut out);
    kept_with_parents(optimised, rules.1, patterns, &mut out);
    ancestors(optimised, rules.1, patterns, &mut out);
    let total_saved: f64 = patterns
        .iter()
        .map(|p| p.rules.ru_per_second - p.optimised.ru_per_second)
        .filter(|d| d.is_finite())
        .sum();
    let credited: BTreeSet<&str> = out.iter().flat_map(|e| e.patterns.iter().map(String::as_str)).collect();
    let explained: f64 = patterns
        .iter()
        .filter(|p| credited.contains(p.name.as_str()))
        .map(|p| p.rules.ru_per_second - p.optimised.ru_per_second)
        .filter(|d| d.is_finite())
        .sum();
    (out, units::round(total_saved - explained))
}

/// Partition keys other than the root's identity, each with its effect: the patterns
/// that read or write the repartitioned container.
fn partition_keys(optimised: &LogicalModel, patterns: &[PatternCost], out: &mut Vec<OptimisationEffect>) {
    for c in optimised
        .containers
        .iter()
        .filter(|c| c.rules.contains(&Rule::PartitionKey))
    {
        let touches = |op: &Operation| op.requests.iter().any(|r| r.container == c.name);
        out.push(effect(
            Rule::PartitionKey,
            format!("`{}` partitioned by `{}`", c.name, c.partition_key.paths.join(", ")),
            optimised.operations.iter().filter(|op| touches(op)),
            patterns,
        ));
    }
}

/// Copies and feeds, each with its effect: the patterns that read or write a copy
/// document type.
fn copies(optimised: &LogicalModel, patterns: &[PatternCost], out: &mut Vec<OptimisationEffect>) {
    for c in &optimised.containers {
        for d in c.document_types.iter().filter(|d| d.role == Role::Copy) {
            let touches = |op: &Operation| {
                op.requests
                    .iter()
                    .any(|r| r.container == c.name && r.document_types.contains(&d.name))
            };
            let source = d
                .copy_of
                .as_ref()
                .map_or(d.source.as_str(), |o| o.document_type.as_str());
            let (rule, subject) = match d.copy_of.as_ref().and_then(|o| o.newest) {
                Some(n) => (
                    Rule::Feed,
                    format!("a feed of the newest {n} `{source}` in `{}`", c.name),
                ),
                None => (Rule::Copy, format!("`{source}` copied into `{}`", c.name)),
            };
            out.push(effect(
                rule,
                subject,
                optimised.operations.iter().filter(|op| touches(op)),
                patterns,
            ));
        }
    }
}

/// Reference data embedded where referenced, each with its effect: the patterns whose
/// MR1–MR6 operation reads the element's documents, or whose optimised operation
/// writes a document carrying it.
fn snapshots_embedded(
    optimised: &LogicalModel,
    rules: (&[Container], &[Operation]),
    patterns: &[PatternCost],
    out: &mut Vec<OptimisationEffect>,
) {
    let mut embedded: BTreeSet<&str> = BTreeSet::new();
    for c in &optimised.containers {
        for d in &c.document_types {
            snapshots(&d.embedded, &mut embedded);
        }
    }
    let touched = snapshot_patterns(rules, (&optimised.containers, &optimised.operations));
    let none = BTreeSet::new();
    for element in embedded {
        let names = touched.get(element).unwrap_or(&none);
        out.push(effect(
            Rule::EmbedReferenceData,
            format!("`{element}` embedded where referenced"),
            optimised
                .operations
                .iter()
                .filter(|op| names.contains(op.pattern.as_str())),
            patterns,
        ));
    }
}

/// Extended references, each with its effect: the patterns that read
/// `holder.reference.attribute` (no longer following it) and the writes that rewrite
/// or create its holders.
fn extended_references(
    optimised: &LogicalModel,
    rules_operations: &[Operation],
    patterns: &[PatternCost],
    out: &mut Vec<OptimisationEffect>,
) {
    // A copy carries its source's extended references: the source's are the ones kept,
    // and the reads of its copies are theirs.
    // Each source's copies, by the source's container and document type.
    let mut copies: BTreeMap<(&str, &str), Vec<(&str, &str)>> = BTreeMap::new();
    for k in &optimised.containers {
        for x in &k.document_types {
            if let Some(of) = &x.copy_of {
                let copy = (k.name.as_str(), x.name.as_str());
                copies.entry((&of.container, &of.document_type)).or_default().push(copy);
            }
        }
    }
    let extended = |d: &&crate::logical_model::DocumentType| {
        d.copy_of.is_none() && d.references.iter().any(|r| r.extended.is_some())
    };
    for c in &optimised.containers {
        for d in c.document_types.iter().filter(extended) {
            let own = (c.name.as_str(), d.name.as_str());
            let mut homes = vec![own];
            homes.extend(copies.get(&own).into_iter().flatten().copied());
            for r in d
                .references
                .iter()
                .filter(|r| r.extended.is_some() && r.ancestry.is_none())
            {
                let reads_through = |op: &Operation| {
                    rules_operations.iter().any(|before| {
                        before.pattern == op.pattern
                            && before.requests.iter().any(|x| {
                                matches!(&x.purpose, crate::operations::Purpose::FollowReference { target } if *target == r.target)
                            })
                    }) && op.requests.first().is_some_and(|x| {
                        homes
                            .iter()
                            .any(|(container, doc)| x.container == *container && x.document_types.iter().any(|t| t == doc))
                    })
                };
                let keeps_it = |op: &Operation| {
                    op.requests.iter().any(|x| {
                        matches!(&x.purpose, crate::operations::Purpose::SyncExtendedReference { document, reference, .. } if homes.iter().any(|(_, doc)| document == doc) && *reference == r.name)
                    })
                };
                out.push(effect(
                    Rule::ExtendedReference,
                    format!("`{}.{}` extended with its `{}`'s attributes", d.name, r.name, r.target),
                    optimised
                        .operations
                        .iter()
                        .filter(|op| reads_through(op) || keeps_it(op)),
                    patterns,
                ));
            }
        }
    }
}

/// Counts, subsets and buckets kept with their parents, each with its effect: the
/// patterns whose requests read or keep them.
fn kept_with_parents(
    optimised: &LogicalModel,
    rules_operations: &[Operation],
    patterns: &[PatternCost],
    out: &mut Vec<OptimisationEffect>,
) {
    use crate::operations::Purpose;
    for c in &optimised.containers {
        // A copy carries its source's counts: the source's are the ones kept.
        for d in c.document_types.iter().filter(|d| d.copy_of.is_none()) {
            for v in &d.computed {
                let touches = |op: &Operation| {
                    op.requests.iter().any(|x| {
                        matches!(&x.purpose, Purpose::UpdateCount { document, property, .. } if *document == d.name && *property == v.name)
                    }) || rules_operations.iter().any(|before| {
                        before.pattern == op.pattern
                            && before.requests.iter().any(|x| {
                                matches!(&x.purpose, Purpose::Count { element, per } if *element == v.counts && *per == d.source)
                            })
                    })
                };
                out.push(effect(
                    Rule::ComputedValue,
                    format!("`{}.{}` kept", d.name, v.name),
                    optimised.operations.iter().filter(|op| touches(op)),
                    patterns,
                ));
            }
            for e in d.embedded.iter().filter(|e| e.subset.is_some()) {
                let touches = |op: &Operation| {
                    op.requests.iter().any(|x| match &x.purpose {
                        Purpose::ReadSubset { document, property, .. }
                        | Purpose::UpdateSubset { document, property, .. } => {
                            *document == d.name && *property == e.name
                        }
                        _ => false,
                    })
                };
                out.push(effect(
                    Rule::Subset,
                    format!("`{}.{}`: the newest `{}`s", d.name, e.name, e.source),
                    optimised.operations.iter().filter(|op| touches(op)),
                    patterns,
                ));
            }
            if let Some(b) = &d.bucket {
                let touches = |op: &Operation| {
                    op.requests.iter().any(|x| match &x.purpose {
                        Purpose::ReadBuckets { document, .. } | Purpose::AppendToBucket { document, .. } => {
                            *document == d.name
                        }
                        _ => false,
                    })
                };
                out.push(effect(
                    Rule::Bucket,
                    format!(
                        "`{}` in `{}`s by {} of `{}`",
                        b.element,
                        d.name,
                        b.window.as_str(),
                        b.time
                    ),
                    optimised.operations.iter().filter(|op| touches(op)),
                    patterns,
                ));
            }
        }
    }
}

/// Lists of ancestors, each with its effect: the reads that no longer follow the
/// parent link up, and the writes that read the parent or rewrite the descendants.
fn ancestors(
    optimised: &LogicalModel,
    rules_operations: &[Operation],
    patterns: &[PatternCost],
    out: &mut Vec<OptimisationEffect>,
) {
    for c in &optimised.containers {
        for d in &c.document_types {
            for (r, ancestry) in d.references.iter().filter_map(|r| Some((r, r.ancestry.as_ref()?))) {
                let reads_up = |op: &Operation| {
                    rules_operations.iter().any(|before| {
                        before.pattern == op.pattern
                            && before.requests.iter().any(|x| {
                                matches!(&x.purpose, crate::operations::Purpose::FollowAncestors { target, reference } if *target == d.source && *reference == ancestry.parent)
                            })
                    })
                };
                let keeps_it = |op: &Operation| {
                    op.requests.iter().any(|x| match &x.purpose {
                        crate::operations::Purpose::SyncAncestors { document, property, .. } => {
                            *document == d.name && *property == r.name
                        }
                        crate::operations::Purpose::ReadParentAncestors { document, .. } => *document == d.name,
                        _ => false,
                    })
                };
                out.push(effect(
                    Rule::TreeAncestors,
                    format!("`{}.{}`: every ancestor up `{}`", d.name, r.name, ancestry.parent),
                    optimised.operations.iter().filter(|op| reads_up(op) || keeps_it(op)),
                    patterns,
                ));
            }
        }
    }
}

/// The RU/s saved (the positive differences, before minus after) and added (the
/// negative ones) of patterns' `deltas`: a pattern no container could carry before and
/// one can after saves without bound (and the other way round adds without bound); a
/// pattern unbounded on both sides (no number) counts in neither.
pub(crate) fn saves_and_adds(deltas: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (mut saves, mut adds) = (0.0, 0.0);
    for delta in deltas.into_iter().filter(|d| !d.is_nan()) {
        if delta >= 0.0 {
            saves += delta;
        } else {
            adds -= delta;
        }
    }
    (saves, adds)
}

/// The patterns a snapshot of each element changes, by element: those whose operation
/// in the design `without` it reads the element's documents (the snapshot saves that
/// read), and those whose operation in the design `with` it writes a document carrying
/// it (the snapshot makes that write larger). One pass over the operations for every
/// element; an element no pattern touches has no entry.
pub(crate) fn snapshot_patterns(
    without: (&[Container], &[Operation]),
    with: (&[Container], &[Operation]),
) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = snapshot_reads(without);
    snapshot_writes(with, &mut out);
    out
}

/// The first half of [`snapshot_patterns`]: the patterns whose operation in the design
/// `without` snapshots reads each element's documents.
pub(crate) fn snapshot_reads(
    (containers, operations): (&[Container], &[Operation]),
) -> BTreeMap<String, BTreeSet<String>> {
    let before = by_name(containers);
    let mut out = BTreeMap::new();
    for op in operations {
        for r in op.requests.iter().filter(|r| r.kind() != OperationKind::Write) {
            let Some(c) = before.get(r.container.as_str()) else {
                continue;
            };
            for d in c.document_types.iter().filter(|d| r.document_types.contains(&d.name)) {
                touches(&mut out, &d.source, &op.pattern);
            }
        }
    }
    out
}

/// The second half of [`snapshot_patterns`]: the patterns whose operation in the design
/// `with` snapshots writes a document carrying one, added to `out`.
pub(crate) fn snapshot_writes(
    (containers, operations): (&[Container], &[Operation]),
    out: &mut BTreeMap<String, BTreeSet<String>>,
) {
    let after = by_name(containers);
    for op in operations {
        for r in op.requests.iter().filter(|r| r.kind() == OperationKind::Write) {
            let Some(c) = after.get(r.container.as_str()) else {
                continue;
            };
            for d in c.document_types.iter().filter(|d| r.document_types.contains(&d.name)) {
                let mut found = BTreeSet::new();
                snapshots(&d.embedded, &mut found);
                for element in found {
                    touches(out, element, &op.pattern);
                }
            }
        }
    }
}

/// Each container of `containers` by name (the last of a name, as collecting keeps
/// it): only looked up, so hashed, not ordered.
fn by_name(containers: &[Container]) -> NameMap<&str, &Container> {
    containers.iter().map(|c| (c.name.as_str(), c)).collect()
}

/// Records that `pattern` touches `element`'s snapshots (each name copied once).
fn touches(out: &mut BTreeMap<String, BTreeSet<String>>, element: &str, pattern: &str) {
    if !out.contains_key(element) {
        out.insert(element.to_string(), BTreeSet::new());
    }
    if let Some(patterns) = out.get_mut(element).filter(|p| !p.contains(pattern)) {
        patterns.insert(pattern.to_string());
    }
}

/// The reference data elements embedded (as snapshots) anywhere in `list`.
pub(crate) fn snapshots<'a>(list: &'a [Embedded], out: &mut BTreeSet<&'a str>) {
    for e in list {
        if e.kind == EmbeddedKind::ReferenceData {
            out.insert(e.source.as_str());
        }
        snapshots(&e.embedded, out);
    }
}

/// The effect on `ops`' patterns: each one's saving (MR1–MR6 minus optimised) counted
/// as saved when positive, as added when negative.
fn effect<'a>(
    rule: Rule,
    subject: String,
    ops: impl Iterator<Item = &'a Operation>,
    patterns: &[PatternCost],
) -> OptimisationEffect {
    let names: BTreeSet<&str> = ops.map(|op| op.pattern.as_str()).collect();
    let (saves, adds) = saves_and_adds(
        patterns
            .iter()
            .filter(|p| names.contains(p.name.as_str()))
            .map(|p| p.rules.ru_per_second - p.optimised.ru_per_second),
    );
    OptimisationEffect {
        rule,
        subject,
        saves_ru_per_second: units::round(saves),
        adds_ru_per_second: units::round(adds),
        patterns: names.into_iter().map(str::to_string).collect(),
    }
}
