//! partitionKey: when an aggregate's heaviest reads filter on something other than
//! its root's identity — a string attribute of the root (`currency`) or the id of a
//! root it refers to (`categoryId`) — its container may be partitioned by that
//! instead, so those reads become single-partition queries.
//!
//! The key is kept only when the whole workload's RU/s drops (reads by id alone
//! become queries across partitions, and are priced so) and the largest logical
//! partition, estimated from the values' count and skew, stays within
//! `logicalPartitionMaxBytes` after `growthYears` of growth and within
//! `logicalPartitionMaxRuPerSecond`.

use std::collections::BTreeMap;

use cosmap_domain::{AccessKind, AttributeType, DomainModel, FilterOp};

use super::Priced;
use crate::cost::facts;
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, ContainerKind, Embedded, PartitionKey, PartitionKeyValue, Reference, Role};
use crate::options::Thresholds;
use crate::statistics::{human_bytes, human_count, human_ru_per_second, human_share};

/// Without a declared `largestValueShare`, the most common value is assumed to hold
/// this many times its even share (at most all of them).
pub(crate) const DEFAULT_SKEW: f64 = 10.0;

/// What a container could be partitioned by instead of its root's identity.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// A required, single-valued string attribute of the root.
    Attribute,
    /// A single reference of the root: the key holds the referenced root's id.
    Reference { name: String, target: String },
}

#[derive(Debug, Clone)]
struct Candidate {
    /// The top-level property the partition key path points at.
    property: String,
    source: Source,
    /// How many different values occur.
    distinct: f64,
    /// The share of the aggregates holding the most common value.
    largest_share: f64,
    /// Whether the share was declared (`largestValueShare`) or assumed.
    declared_share: bool,
    /// RU/s (in the current design) of the reads that filter on it.
    reads_ru_per_second: f64,
    /// Those reads, by name.
    patterns: Vec<String>,
}

/// Repartitions each aggregate container whose heaviest reads filter on an attribute
/// or reference of the root, where that lowers the workload's RU/s within the limits.
/// `price` finishes and prices a candidate design.
pub(crate) fn apply(
    model: &DomainModel,
    t: &Thresholds,
    containers: &mut Vec<Container>,
    trace: &mut Trace,
    price: &dyn Fn(Vec<Container>) -> Priced,
) {
    let eligible = |c: &Container| c.kind == ContainerKind::Aggregate && c.aggregates.len() == 1;
    if !containers.iter().any(eligible) {
        return;
    }
    let mut current = price(containers.clone());
    // Every container's heaviest candidate, weighed on the design MR1–MR6 made,
    // then tried heaviest first: a key that makes an unbounded read bounded is
    // tried before one that only trims a bounded one.
    let mut candidates: Vec<(String, Candidate)> = containers
        .iter()
        .filter(|c| eligible(c))
        .filter_map(|c| {
            let root = c.document_types.iter().find(|d| d.role == Role::Root)?;
            Some((c.name.clone(), best_candidate(model, c, &root.source, &current)?))
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.1.reads_ru_per_second
            .total_cmp(&a.1.reads_ru_per_second)
            .then_with(|| a.0.cmp(&b.0))
    });
    for (name, candidate) in candidates {
        let Some(index) = containers.iter().position(|c| c.name == name) else {
            continue;
        };
        let identity = containers[index].partition_key_property.clone();
        if let Some(clash) = clash(&containers[index], &candidate) {
            refuse(trace, &name, &identity, &candidate, clash);
            continue;
        }
        // The largest logical partition, now and after `growth_years`.
        let root_name = containers[index]
            .document_types
            .iter()
            .find(|d| d.role == Role::Root)
            .map(|d| d.source.clone())
            .unwrap_or_default();
        let storage = facts::storage_after(model, &containers[index], t.growth_years);
        let future = facts::count_after(model, &root_name, containers[index].default_ttl, t.growth_years);
        let per_aggregate = storage / future.max(1.0);
        let largest_bytes = candidate.largest_share * storage;
        if largest_bytes > t.logical_partition_max_bytes {
            let why = format!(
                "its largest logical partition would hold about {} after {} years ({} of about {} aggregates of {} each; {}), over `logicalPartitionMaxBytes` ({})",
                human_bytes(largest_bytes),
                t.growth_years,
                human_share(candidate.largest_share),
                human_count(future),
                human_bytes(per_aggregate),
                share_origin(&candidate),
                human_bytes(t.logical_partition_max_bytes)
            );
            refuse(trace, &name, &identity, &candidate, why).with("largestPartitionBytes", largest_bytes.round());
            continue;
        }
        let candidate_containers = repartition(containers, index, &candidate);
        let priced = price(candidate_containers.clone());
        let container_ru = priced.by_container.get(&name).copied().unwrap_or(0.0);
        let largest_ru = candidate.largest_share * container_ru;
        if largest_ru > t.logical_partition_max_ru_per_second {
            let why = format!(
                "its busiest logical partition would serve {} ({} of the container's {}; {}), over `logicalPartitionMaxRuPerSecond` ({})",
                about(human_ru_per_second(largest_ru)),
                human_share(candidate.largest_share),
                human_ru_per_second(container_ru),
                share_origin(&candidate),
                human_ru_per_second(t.logical_partition_max_ru_per_second)
            );
            refuse(trace, &name, &identity, &candidate, why).with("largestPartitionRuPerSecond", largest_ru.round());
            continue;
        }
        let (before, after) = (workload(&current), workload(&priced));
        if !priced.cheaper_than(&current) {
            let why = format!(
                "the workload, with the copies each design would get, would cost {after} against {before} now: what the reads that filter on it save does not make up for the reads by id alone that become queries across partitions, or a copy serves them for less"
            );
            refuse(trace, &name, &identity, &candidate, why)
                .with("workloadRuPerSecond", rounded(current.total))
                .with("workloadRuPerSecondWith", rounded(priced.total));
            continue;
        }
        let source = match &candidate.source {
            Source::Attribute => format!("the root's attribute `{}`", candidate.property),
            Source::Reference { name, target } => {
                format!("the id of the `{target}` the root refers to through `{name}`")
            }
        };
        trace
            .record(
                Rule::PartitionKey,
                name.as_str(),
                format!("partition key `/{}` instead of `/{identity}`", candidate.property),
                format!(
                    "{} on {source}: as single-partition queries the workload costs {after} instead of {before} (with the copies each design would get); the largest logical partition holds about {} after {} years and serves {} ({} of the data; {}), within {} and {}; writes and point reads take the `{}` value, and a change of it moves the aggregate (delete, then create)",
                    list(&candidate.patterns),
                    human_bytes(largest_bytes),
                    t.growth_years,
                    about(human_ru_per_second(largest_ru)),
                    human_share(candidate.largest_share),
                    share_origin(&candidate),
                    human_bytes(t.logical_partition_max_bytes),
                    human_ru_per_second(t.logical_partition_max_ru_per_second),
                    candidate.property,
                ),
            )
            .with("property", candidate.property.as_str())
            .with("distinctValues", candidate.distinct)
            .with("largestValueShare", candidate.largest_share)
            .with("largestPartitionBytes", largest_bytes.round())
            .with("largestPartitionRuPerSecond", largest_ru.round())
            .with("workloadRuPerSecond", rounded(current.total))
            .with("workloadRuPerSecondWith", rounded(priced.total));
        *containers = candidate_containers;
        current = priced;
    }
}

/// A design's workload as the decision quotes it: its RU/s, and the patterns no
/// container can carry.
fn workload(p: &Priced) -> String {
    let unbounded: Vec<String> = p
        .by_pattern
        .iter()
        .filter(|(_, v)| !v.is_finite())
        .map(|(name, _)| format!("`{name}`"))
        .collect();
    let finite: f64 = p.by_pattern.values().filter(|v| v.is_finite()).sum();
    if unbounded.is_empty() {
        about(human_ru_per_second(finite))
    } else {
        format!(
            "{} with {} unbounded",
            about(human_ru_per_second(finite)),
            unbounded.join(", ")
        )
    }
}

/// "about 5 RU/s", but "under 0.1 RU/s" as it is.
fn about(figure: String) -> String {
    if figure.starts_with("under") || figure.starts_with("unbounded") {
        figure
    } else {
        format!("about {figure}")
    }
}

/// A figure for the evidence: one decimal, and `null` (JSON has no infinity) when unbounded.
fn rounded(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 10.0).round() / 10.0)
}

/// "`a` filters" or "`a`, `b` filter": the reads, with the verb agreeing.
fn list(patterns: &[String]) -> String {
    let quoted: Vec<String> = patterns.iter().map(|p| format!("`{p}`")).collect();
    let verb = if quoted.len() == 1 { "filters" } else { "filter" };
    format!("{} {verb}", quoted.join(", "))
}

fn share_origin(c: &Candidate) -> String {
    if c.declared_share {
        "its declared `largestValueShare`".to_string()
    } else {
        format!(
            "assumed: {DEFAULT_SKEW} times the even share of {} values; declare `largestValueShare` to say it",
            human_count(c.distinct)
        )
    }
}

fn refuse<'t>(
    trace: &'t mut Trace,
    container: &str,
    identity: &str,
    candidate: &Candidate,
    why: String,
) -> &'t mut crate::decision::Decision {
    trace
        .record(
            Rule::PartitionKey,
            container,
            format!("keeps `/{identity}`, not `/{}`", candidate.property),
            format!("{} on `{}`, but {why}", list(&candidate.patterns), candidate.property),
        )
        .with("property", candidate.property.as_str())
        .with("distinctValues", candidate.distinct)
        .with("largestValueShare", candidate.largest_share)
}

/// The heaviest attribute or reference the root's reads filter on by equality, when
/// it can be a partition key and its number of values is known.
fn best_candidate(model: &DomainModel, c: &Container, root: &str, base: &Priced) -> Option<Candidate> {
    let entity = model.entity(root)?;
    let doc = c.document_types.iter().find(|d| d.role == Role::Root)?;
    let mut found: BTreeMap<String, Candidate> = BTreeMap::new();
    // In name order, so the decision reads the same whatever the declaration order.
    let mut patterns: Vec<_> = model.access_patterns().iter().collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    for p in patterns {
        if p.kind != AccessKind::Read || p.start != root {
            continue;
        }
        for filter in p.filters().into_iter().flatten() {
            if filter.op != FilterOp::Equal || filter.attribute == entity.identity {
                continue;
            }
            // A path to a referenced root's id (`member.memberId`) names the same key
            // as the bare id (`memberId`).
            let f = match filter.attribute.split_once('.') {
                None => filter.attribute,
                Some((first, rest)) => {
                    let single = doc
                        .references
                        .iter()
                        .any(|r| r.name == first && !r.many && r.target_identity == rest);
                    if !single {
                        continue;
                    }
                    rest
                }
            };
            let candidate = if let Some(a) = entity.attributes.iter().find(|a| a.name == f) {
                if a.ty != AttributeType::String || a.optional || a.many {
                    continue;
                }
                let Some(distinct) = a.distinct_values.filter(|&d| d > 1) else {
                    continue;
                };
                let distinct = distinct as f64;
                Candidate {
                    property: f.to_string(),
                    source: Source::Attribute,
                    distinct,
                    largest_share: a.largest_value_share.unwrap_or((DEFAULT_SKEW / distinct).min(1.0)),
                    declared_share: a.largest_value_share.is_some(),
                    reads_ru_per_second: 0.0,
                    patterns: Vec::new(),
                }
            } else if let Some(r) = doc.references.iter().find(|r| !r.many && r.target_identity == f) {
                let distinct = facts::count_of(model, &r.target);
                if distinct <= 1.0 {
                    continue;
                }
                Candidate {
                    property: f.to_string(),
                    source: Source::Reference {
                        name: r.name.clone(),
                        target: r.target.clone(),
                    },
                    distinct,
                    largest_share: (DEFAULT_SKEW / distinct).min(1.0),
                    declared_share: false,
                    reads_ru_per_second: 0.0,
                    patterns: Vec::new(),
                }
            } else {
                continue;
            };
            let entry = found.entry(f.to_string()).or_insert(candidate);
            entry.reads_ru_per_second += base.by_pattern.get(&p.name).copied().unwrap_or(0.0);
            if !entry.patterns.contains(&p.name) {
                entry.patterns.push(p.name.clone());
            }
        }
    }
    // The heaviest; on a tie the first by name (the map's order).
    found
        .into_values()
        .fold(None, |best: Option<Candidate>, c| match best {
            Some(b) if b.reads_ru_per_second >= c.reads_ru_per_second => Some(b),
            _ => Some(c),
        })
        .filter(|c| c.reads_ru_per_second > 0.0)
}

/// Why `candidate` cannot become a top-level property of every document in `c`:
/// another document type already stores a property of that name.
fn clash(c: &Container, candidate: &Candidate) -> Option<String> {
    for d in &c.document_types {
        let own_attribute = d.role == Role::Root && candidate.source == Source::Attribute;
        let taken = (!own_attribute && d.attributes.iter().any(|a| a.name == candidate.property))
            || d.embedded.iter().any(|e| e.name == candidate.property)
            || d.references.iter().any(|r| r.name == candidate.property)
            || d.parent.as_ref().is_some_and(|p| p.property == candidate.property);
        if taken {
            return Some(format!(
                "`{}` already stores a property `{}`, and every document in `{}` would carry the partition key under that name",
                d.name, candidate.property, c.name
            ));
        }
    }
    None
}

/// `containers` with container `index` partitioned by `candidate`: every document
/// there carries the property, the root no longer stores it as an attribute, and
/// every reference to the root takes its partition key value from it.
fn repartition(containers: &[Container], index: usize, candidate: &Candidate) -> Vec<Container> {
    let mut out = containers.to_vec();
    let c = &mut out[index];
    let root = c
        .document_types
        .iter()
        .find(|d| d.role == Role::Root)
        .map(|d| d.source.clone())
        .unwrap_or_default();
    c.partition_key = PartitionKey::on(&candidate.property);
    c.partition_key_property = candidate.property.clone();
    if !c.rules.contains(&Rule::PartitionKey) {
        c.rules.push(Rule::PartitionKey);
    }
    for d in &mut c.document_types {
        d.partition_key_property = candidate.property.clone();
        if d.role == Role::Root && candidate.source == Source::Attribute {
            d.attributes.retain(|a| a.name != candidate.property);
        }
    }
    let value = PartitionKeyValue::Property {
        property: candidate.property.clone(),
    };
    for d in out.iter_mut().flat_map(|c| c.document_types.iter_mut()) {
        point_at(&mut d.references, &mut d.embedded, &root, &value);
    }
    out
}

fn point_at(references: &mut [Reference], embedded: &mut [Embedded], root: &str, value: &PartitionKeyValue) {
    for r in references.iter_mut().filter(|r| r.target == root) {
        r.partition_key_value = value.clone();
    }
    for e in embedded {
        point_at(&mut e.references, &mut e.embedded, root, value);
    }
}
