//! partitionKey: when an aggregate's heaviest reads filter on something other than
//! its root's identity — a string attribute of the root (`currency`) or the id of a
//! root it refers to (`categoryId`) — its container may be partitioned by that
//! instead, so those reads become single-partition queries.
//!
//! The key is kept only when the whole workload's RU/s drops (reads by id alone
//! become queries across partitions, and are priced so) and the largest logical
//! partition, estimated from the values' count and skew, stays within
//! `logicalPartitionMaxBytes` after `growthYears` of growth and within
//! `logicalPartitionMaxRuPerSecond`. Where the value alone would overflow either, the
//! key becomes hierarchical (Cosmos DB's `MultiHash`): the value, then the root's
//! identity, so each logical partition holds one aggregate while the reads that filter
//! on the value become prefix queries, routed to the physical partitions holding it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use cosmap_domain::{AccessKind, AccessPattern, AttributeType, DomainModel, FilterOp, NameMap};

use super::Priced;
use crate::cost::constants::DEFAULT_SKEW;
use crate::cost::facts::{self, largest_share};
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, ContainerKind, Embedded, PartitionKey, PartitionKeyValue, Reference, Role};
use crate::options::Thresholds;
use crate::statistics::Statistics;
use crate::statistics::{about, human_bytes, human_count, human_ru_per_second, human_share};

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
    /// Bytes under the most common value after `growthYears`.
    largest_bytes: f64,
    /// Bytes of the largest logical partition under the whole key: `largest_bytes`,
    /// or one aggregate's under a hierarchical key.
    partition_bytes: f64,
    /// A hierarchical key's further levels (the root's identity), with why the value
    /// alone cannot be the key; empty for a single-path key.
    sub: Vec<String>,
    split: Option<String>,
    /// The share of the data and traffic in the largest logical partition under the
    /// whole key: `largest_share`, or one aggregate's under a hierarchical key.
    partition_share: f64,
}

impl Candidate {
    /// A key on `property` with `distinct` values, before its reads are counted.
    fn new(property: &str, source: Source, distinct: f64, declared_share: Option<f64>) -> Self {
        let share = largest_share(distinct, declared_share);
        Candidate {
            property: property.to_string(),
            source,
            distinct,
            largest_share: share,
            declared_share: declared_share.is_some(),
            reads_ru_per_second: 0.0,
            patterns: Vec::new(),
            largest_bytes: 0.0,
            partition_bytes: 0.0,
            sub: Vec::new(),
            split: None,
            partition_share: share,
        }
    }

    fn with_largest_bytes(mut self, bytes: f64) -> Self {
        self.largest_bytes = bytes;
        self.partition_bytes = bytes;
        self
    }

    /// The hierarchical key: this value, then `identity`, whose logical partitions
    /// hold one of `aggregates` aggregates (of `aggregate_bytes` each) apiece;
    /// `why` the value alone cannot be the key.
    fn split(mut self, identity: &str, aggregates: f64, aggregate_bytes: f64, why: String) -> Self {
        self.sub = vec![identity.to_string()];
        self.split = Some(why);
        self.partition_share = 1.0 / aggregates.max(1.0);
        self.partition_bytes = aggregate_bytes;
        self
    }

    /// The key's paths as the decision quotes them: `/tenantId` or `/tenantId`, `/orderId`.
    fn paths(&self) -> String {
        std::iter::once(&self.property)
            .chain(&self.sub)
            .map(|p| format!("`/{p}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Repartitions each aggregate container whose heaviest reads filter on an attribute
/// or reference of the root, where that lowers the workload's RU/s within the limits.
///
/// `price` finishes and prices a candidate design. Every candidate that fits its
/// limits is weighed at once: the design with all of them against the design without,
/// each candidate by the patterns that read or write its container in either design
/// (a repartition changes little beyond its own container). The candidates that save
/// are kept together, and only if the design with exactly those costs less than none.
/// `hold_without`: whether the design without new keys is held whole while the others
/// are priced (the cost table keeps it anyway, as MR1–MR6's design); else only its
/// figures are, and it is priced again should no key be kept. Returns the priced
/// design it leaves (when it priced one).
pub(crate) fn apply(
    model: &DomainModel,
    (t, stats): (&Thresholds, &Statistics),
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    price: &dyn Fn(&[Container]) -> Priced,
    hold_without: bool,
) -> Option<Priced> {
    if !containers.iter().any(eligible) {
        return None;
    }
    let keys = Keys { model, t, stats };
    let without = price(containers);
    // The reads of each element, in name order.
    let mut reads: BTreeMap<&str, Vec<&AccessPattern>> = BTreeMap::new();
    for p in model.access_patterns().iter().filter(|p| p.kind == AccessKind::Read) {
        reads.entry(p.start.as_str()).or_default().push(p);
    }
    for list in reads.values_mut() {
        list.sort_by(|a, b| a.name.cmp(&b.name));
    }
    // Each container's heaviest candidate that can be its key, weighed on the design as
    // it stands: one that would clash or overflow is refused and the next one tried.
    let mut candidates: Vec<(String, Candidate)> = Vec::new();
    // The containers whose key the model pins to something other than the identity.
    let mut pinned: BTreeSet<String> = BTreeSet::new();
    for c in containers.iter().filter(|c| eligible(c)) {
        candidates.extend(keys.candidate(c, &reads, &without, &mut pinned, trace));
    }
    if candidates.is_empty() {
        return Some(without);
    }
    // While the design with every key is priced, the design without new keys is held
    // as its figures alone, unless it is held anyway.
    let without = if hold_without { without } else { without.figures() };
    let all = repartitioned(containers, &candidates);
    let with_all = price(&all);
    // Both designs' figures by name, looked up for every candidate.
    let before = Lookup::of(&without);
    let weighing = keys.weigh(containers, candidates, &pinned, &before, &Lookup::of(&with_all));
    // The design with exactly the kept keys must cost less than none.
    let Weighing {
        mut kept,
        weighed,
        split_for_load,
    } = weighing;
    // The design with every key, when it is the one kept (else let go here).
    let every = (kept.len() == weighed.len() && !split_for_load).then_some((all, with_all));
    let mut chosen: Option<(Vec<Container>, Priced)> = if kept.is_empty() {
        None
    } else {
        Some(every.unwrap_or_else(|| priced_with(containers, &kept, price)))
    };
    let mut together = chosen.as_ref().is_none_or(|(_, priced)| priced.cheaper_than(&without));
    // Keys the model pins stay whatever they cost; the others only if they save together.
    if !together && kept.iter().any(|(name, _)| pinned.contains(name)) {
        kept.retain(|(name, _)| pinned.contains(name));
        drop(chosen.take());
        chosen = Some(priced_with(containers, &kept, price));
        together = true;
    }
    let outcome = Outcome {
        kept: &kept,
        together,
        chosen: chosen.as_ref().map(|(_, priced)| priced),
        without: &without,
        before: &before,
        pinned: &pinned,
    };
    keys.record(containers, weighed, &outcome, trace);
    match (together, chosen) {
        (true, Some((chosen, priced))) => {
            *containers = Arc::new(chosen);
            Some(priced)
        }
        _ if hold_without => Some(without),
        _ => Some(price(containers)),
    }
}

/// `containers` with `keys`' containers repartitioned, priced.
fn priced_with(
    containers: &[Container],
    keys: &[(String, Candidate)],
    price: &dyn Fn(&[Container]) -> Priced,
) -> (Vec<Container>, Priced) {
    let design = repartitioned(containers, keys);
    let priced = price(&design);
    (design, priced)
}

/// What the partition keys are weighed with: the model, its thresholds and statistics.
struct Keys<'a> {
    model: &'a DomainModel,
    t: &'a Thresholds,
    stats: &'a Statistics,
}

/// The candidates weighed: those kept (by container name), every one with its figures,
/// and whether one was split for its load (so the design with all is not the one kept).
struct Weighing {
    kept: Vec<(String, Candidate)>,
    weighed: Vec<(String, Candidate, Figures)>,
    split_for_load: bool,
}

/// What the weighing chose, for the decisions: the keys kept, whether they cost less
/// together than none, the design with them priced, the design without, its figures,
/// and the containers whose key the model pins.
struct Outcome<'a> {
    kept: &'a [(String, Candidate)],
    together: bool,
    chosen: Option<&'a Priced>,
    without: &'a Priced,
    before: &'a Lookup<'a>,
    pinned: &'a BTreeSet<String>,
}

impl Keys<'_> {
    /// `c`'s heaviest candidate that can be its key (the next tried where one clashes or
    /// overflows, refusals recorded), or the heaviest split by the identity when none
    /// fits alone; `pinned` gains `c` when the model pins its key to another property.
    fn candidate(
        &self,
        c: &Container,
        reads: &BTreeMap<&str, Vec<&AccessPattern>>,
        without: &Priced,
        pinned: &mut BTreeSet<String>,
        trace: &mut Trace,
    ) -> Option<(String, Candidate)> {
        let (model, t) = (self.model, self.t);
        let root = c.document_types.iter().find(|d| d.role == Role::Root)?;
        let identity = c.partition_key_property.clone();
        let pin = pin_of(model, c);
        if pin == Some(identity.as_str()) {
            record_pinned_identity(trace, &c.name, &identity);
            return None;
        }
        // Overflowing values, refused unless the first becomes a hierarchical key.
        let mut overflowing: Vec<(Candidate, String)> = Vec::new();
        let storage = facts::storage_after(model, self.stats, c, t.growth_years);
        let future = facts::count_after(model, self.stats, &root.source, c.default_ttl, t.growth_years);
        let aggregate_bytes = storage / future.max(1.0);
        let mut found = candidates_of(model, reads, c, &root.source, without);
        if let Some(pin) = pin {
            // Only the pinned key is weighed, whatever the reads filter on.
            found.retain(|k| k.property == pin);
            if found.is_empty() {
                found.extend(pinned_candidate(model, c, &root.source, pin));
            }
            pinned.insert(c.name.clone());
        }
        let mut chosen = None;
        for candidate in found {
            if let Some(clash) = clash(c, &candidate) {
                refuse(trace, &c.name, &identity, &candidate, clash);
                continue;
            }
            // The largest logical partition after `growth_years`.
            let largest_bytes = candidate.largest_share * storage;
            let candidate = candidate.with_largest_bytes(largest_bytes);
            match self.too_large(c, root, &candidate, largest_bytes, (storage, future)) {
                Some(why) => overflowing.push((candidate, why)),
                None => {
                    chosen = Some((c.name.clone(), candidate));
                    break;
                }
            }
        }
        // No value fits alone: the heaviest, then the identity (one aggregate per
        // logical partition), when one aggregate fits.
        let mut overflowing = overflowing.into_iter();
        if chosen.is_none() && aggregate_bytes <= t.logical_partition_max_bytes {
            chosen = overflowing
                .next()
                .map(|(candidate, why)| (c.name.clone(), candidate.split(&identity, future, aggregate_bytes, why)));
        }
        for (candidate, why) in overflowing {
            let bytes = candidate.largest_bytes.round();
            refuse(trace, &c.name, &identity, &candidate, why).with("largestPartitionBytes", bytes);
        }
        chosen
    }

    /// Why `candidate` cannot be `c`'s key alone: its largest logical partition would
    /// hold `largest_bytes` (of `storage` bytes in `future` aggregates) over the limit, or
    /// the aggregate's other documents would lose their tie to the root; `None` if it can.
    fn too_large(
        &self,
        c: &Container,
        root: &crate::logical_model::DocumentType,
        candidate: &Candidate,
        largest_bytes: f64,
        (storage, future): (f64, f64),
    ) -> Option<String> {
        let t = self.t;
        if largest_bytes > t.logical_partition_max_bytes {
            return Some(format!(
                "its largest logical partition would hold about {} after {} years ({} of about {} aggregates of {} each; {}), over `logicalPartitionMaxBytes` ({})",
                human_bytes(largest_bytes),
                t.growth_years,
                human_share(candidate.largest_share),
                human_count(future),
                human_bytes(storage / future.max(1.0)),
                share_origin(candidate),
                human_bytes(t.logical_partition_max_bytes)
            ));
        }
        // The aggregate's other documents (entities, separated value objects) carry the
        // root's identity only as the partition key: under a value alone they would
        // lose what ties them to their root, so the identity stays, as the second level.
        let members: Vec<&str> = c
            .document_types
            .iter()
            .filter(|d| d.role != Role::Root)
            .map(|d| d.name.as_str())
            .collect();
        (!members.is_empty()).then(|| {
            format!(
                "the `{}` documents would lose the `{}` that ties each to its `{}`",
                members.join("`, `"),
                c.partition_key_property,
                root.source
            )
        })
    }

    /// Each candidate by its figures (`before` and `after` all of them): those that save
    /// past the decision margin (or are pinned) are kept, split by the identity where
    /// one value's partition would be too busy.
    fn weigh(
        &self,
        containers: &[Container],
        candidates: Vec<(String, Candidate)>,
        pinned: &BTreeSet<String>,
        before: &Lookup<'_>,
        after: &Lookup<'_>,
    ) -> Weighing {
        let t = self.t;
        // Each container's place by name, looked up once per candidate (never iterated).
        let by_name = by_name(containers);
        let mut weighing = Weighing {
            kept: Vec::new(),
            weighed: Vec::new(),
            split_for_load: false,
        };
        for (name, candidate) in candidates {
            let figures = Figures::of(&name, &candidate, before, after);
            weighing.weighed.push((name.clone(), candidate.clone(), figures));
            if !figures.saves(t.decision_margin) && !pinned.contains(&name) {
                continue;
            }
            if figures.largest_ru <= t.logical_partition_max_ru_per_second {
                weighing.kept.push((name, candidate));
            } else if candidate.sub.is_empty() {
                // Too busy alone: the value, then the identity, spreads its load.
                let Some(c) = by_name.get(name.as_str()).map(|&i| &containers[i]) else {
                    continue;
                };
                let future = facts::count_after(self.model, self.stats, &root_of(c), c.default_ttl, t.growth_years);
                let storage = facts::storage_after(self.model, self.stats, c, t.growth_years);
                let why = busiest_why(t, &candidate, &figures);
                let identity = c.partition_key_property.clone();
                let split = candidate.split(&identity, future, storage / future.max(1.0), why);
                weighing.kept.push((name, split));
                weighing.split_for_load = true;
            }
        }
        weighing
    }

    /// Records the decision on every candidate `weighed`, as `outcome` chose.
    fn record(
        &self,
        containers: &[Container],
        weighed: Vec<(String, Candidate, Figures)>,
        outcome: &Outcome<'_>,
        trace: &mut Trace,
    ) {
        let t = self.t;
        let by_name = by_name(containers);
        let chosen_workload = outcome.chosen.map(workload).unwrap_or_default();
        // The kept keys by container, looked up once per weighed candidate.
        let kept_by_name: NameMap<&str, &Candidate> = outcome.kept.iter().map(|(k, c)| (k.as_str(), c)).collect();
        for (name, candidate, figures) in weighed {
            let identity = by_name
                .get(name.as_str())
                .map(|&i| containers[i].partition_key_property.as_str())
                .unwrap_or_default();
            let kept_as = kept_by_name.get(name.as_str()).copied();
            let is_kept = kept_as.is_some();
            if let (Some(kept_as), true) = (kept_as, outcome.together) {
                // A key split for its load is weighed again on the design that has it.
                let figures = match outcome.chosen {
                    Some(priced) if kept_as.sub.len() != candidate.sub.len() => {
                        Figures::of(&name, kept_as, outcome.before, &Lookup::of(priced))
                    }
                    _ => figures,
                };
                record_kept(trace, t, &name, identity, kept_as, &figures);
                if let Some(decision) = trace.last_mut() {
                    figures.break_even(decision, true);
                }
                if outcome.pinned.contains(&name) {
                    record_pinned(trace, &name, &figures);
                }
                continue;
            }
            let why = if figures.largest_ru > t.logical_partition_max_ru_per_second && !is_kept {
                busiest_why(t, &candidate, &figures)
            } else if is_kept {
                format!(
                    "alone it would lower the RU/s of the patterns on `{name}`, but the workload with the other keys kept would cost {chosen_workload} against {} now",
                    workload(outcome.without)
                )
            } else {
                format!(
                    "the patterns that read or write `{name}` would cost {} against {} now (with the copies each design would get): what the reads that filter on it save does not make up for the reads by id alone that become queries across partitions, or a copy serves them for less",
                    about(human_ru_per_second(figures.after)),
                    about(human_ru_per_second(figures.before))
                )
            };
            let decision = refuse(trace, &name, identity, &candidate, why)
                .with("largestPartitionRuPerSecond", figures.largest_ru.round())
                .with("affectedRuPerSecond", rounded(figures.before))
                .with("affectedRuPerSecondWith", rounded(figures.after));
            figures.break_even(decision, false);
        }
    }
}

/// The partition key the model pins for `c`'s aggregate (`partitionKey`), if any.
fn pin_of<'m>(model: &'m DomainModel, c: &Container) -> Option<&'m str> {
    let aggregate = c.aggregates.first()?;
    model
        .aggregates()
        .iter()
        .find(|a| a.display_name() == aggregate.as_str())?
        .partition_key
        .as_deref()
}

/// The key `pin` of `c` (rooted at `root`) when no read filters on it: validation
/// made sure it is a required single string attribute of the root or the identity
/// of a root it refers to; without a declared count of values, as many as the
/// roots (each its own).
fn pinned_candidate(model: &DomainModel, c: &Container, root: &str, pin: &str) -> Option<Candidate> {
    let entity = model.entity(root)?;
    let doc = c.document_types.iter().find(|d| d.role == Role::Root)?;
    if let Some(a) = entity.attributes.iter().find(|a| a.name == pin) {
        let distinct = a
            .distinct_values
            .map_or_else(|| facts::count_of(model, root), |d| d as f64);
        return Some(Candidate::new(pin, Source::Attribute, distinct, a.largest_value_share));
    }
    let r = doc.references.iter().find(|r| !r.many && r.target_identity == pin)?;
    let source = Source::Reference {
        name: r.name.clone(),
        target: r.target.clone(),
    };
    Some(Candidate::new(pin, source, facts::count_of(model, &r.target), None))
}

/// Records that the model pins `c`'s key to its root's `identity`: no other is weighed.
fn record_pinned_identity(trace: &mut Trace, c: &str, identity: &str) {
    trace
        .record(
            Rule::PartitionKey,
            c,
            format!("keeps `/{identity}` (pinned)"),
            format!(
                "the model pins the partition key of `{c}` to `{identity}` (`partitionKey`): no other key is weighed"
            ),
        )
        .with("pinned", true);
}

/// Records that the key kept for `c` is the model's pin, with what it costs against
/// the root's identity.
fn record_pinned(trace: &mut Trace, c: &str, f: &Figures) {
    let (with, without) = (
        about(human_ru_per_second(f.after)),
        about(human_ru_per_second(f.before)),
    );
    trace
        .record(
            Rule::PartitionKey,
            c,
            "the key is pinned by the model",
            format!("the model pins it (`partitionKey`): the patterns on `{c}` cost {with} with it against {without} with the root's identity"),
        )
        .with("pinned", true)
        .with("pinCostsRuPerSecond", rounded(f.after - f.before));
}

/// Where each container of `containers` is, by name (the first of a name, as a
/// search from the front finds it).
fn by_name(containers: &[Container]) -> NameMap<&str, usize> {
    let mut out: NameMap<&str, usize> = NameMap::default();
    for (i, c) in containers.iter().enumerate() {
        out.entry(c.name.as_str()).or_insert(i);
    }
    out
}

/// Whether `c` may be repartitioned: an aggregate container of one aggregate.
fn eligible(c: &Container) -> bool {
    c.kind == ContainerKind::Aggregate && c.aggregates.len() == 1
}

/// Why `candidate` alone is too busy: its busiest logical partition's load.
fn busiest_why(t: &Thresholds, candidate: &Candidate, figures: &Figures) -> String {
    format!(
        "its busiest logical partition would serve {} ({} of the container's {}; {}), over `logicalPartitionMaxRuPerSecond` ({})",
        about(human_ru_per_second(figures.largest_ru)),
        human_share(candidate.largest_share),
        human_ru_per_second(figures.container_ru),
        share_origin(candidate),
        human_ru_per_second(t.logical_partition_max_ru_per_second)
    )
}

/// The root element of aggregate container `c`.
fn root_of(c: &Container) -> String {
    c.document_types
        .iter()
        .find(|d| d.role == Role::Root)
        .map(|d| d.source.clone())
        .unwrap_or_default()
}

/// What a candidate changes, between the design without any new key and the design
/// with all of them: the RU/s of the patterns that touch its container in either.
#[derive(Debug, Clone, Copy)]
struct Figures {
    before: f64,
    after: f64,
    /// RU/s the patterns the key makes cheaper save, and those it makes dearer add.
    gains: f64,
    losses: f64,
    container_ru: f64,
    largest_ru: f64,
}

/// A priced design's figures by name (hashed: only looked up, never iterated), so
/// that weighing many candidates on it searches no ordered map.
struct Lookup<'p> {
    by_pattern: NameMap<&'p str, f64>,
    by_container: NameMap<&'p str, f64>,
    patterns_by_container: NameMap<&'p str, &'p BTreeSet<String>>,
}

impl<'p> Lookup<'p> {
    fn of(p: &'p Priced) -> Self {
        Lookup {
            by_pattern: p.by_pattern.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
            by_container: p.by_container.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
            patterns_by_container: p.patterns_by_container.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        }
    }
}

impl Figures {
    fn of(name: &str, candidate: &Candidate, without: &Lookup<'_>, with: &Lookup<'_>) -> Self {
        // Both designs' patterns, each once, in name order (as a set would give them).
        let mut patterns: Vec<&str> = Vec::new();
        for p in [without, with] {
            if let Some(touching) = p.patterns_by_container.get(name) {
                patterns.extend(touching.iter().map(String::as_str));
            }
        }
        patterns.sort_unstable();
        patterns.dedup();
        let (mut before, mut after) = (0.0, 0.0);
        let mut deltas = Vec::with_capacity(patterns.len());
        for pattern in patterns {
            let (b, a) = (
                without.by_pattern.get(pattern).copied().unwrap_or(0.0),
                with.by_pattern.get(pattern).copied().unwrap_or(0.0),
            );
            before += b;
            after += a;
            deltas.push(b - a);
        }
        let (gains, losses) = crate::cost::optimisations::saves_and_adds(deltas);
        let container_ru = with.by_container.get(name).copied().unwrap_or(0.0);
        Figures {
            before,
            after,
            gains,
            losses,
            container_ru,
            largest_ru: candidate.partition_share * container_ru,
        }
    }

    /// Records in `decision` where the key would flip: the factor on the rates of the
    /// patterns it makes cheaper (against those it makes dearer) at which the two
    /// balance, before the decision margin (`breakEvenGainFactor`). `kept`: whether
    /// the key was taken.
    fn break_even(&self, decision: &mut crate::decision::Decision, kept: bool) {
        let sentence = if self.gains.is_infinite() {
            "without it a pattern no container can carry".to_string()
        } else if self.gains <= 0.0 {
            "it makes no pattern cheaper".to_string()
        } else if self.losses <= 0.0 {
            "it makes no pattern dearer".to_string()
        } else {
            let factor = self.losses / self.gains;
            decision.with("breakEvenGainFactor", (factor * 100.0).round() / 100.0);
            let shown = crate::statistics::human_factor(factor);
            if kept {
                format!("it pays while the patterns it makes cheaper run at more than {shown} today's rates against those it makes dearer (before the decision margin)")
            } else {
                format!("it would pay with the patterns it makes cheaper at {shown} today's rates against those it makes dearer (and then past the decision margin)")
            }
        };
        decision.reason = format!("{}; break-even: {sentence}", decision.reason);
    }

    /// Whether the patterns it changes cost less by more than `margin` (a share of
    /// what they cost now; an unbounded cost made bounded counts).
    fn saves(&self, margin: f64) -> bool {
        if self.before.is_infinite() {
            return self.after.is_finite();
        }
        self.after < self.before * (1.0 - margin)
    }
}

fn record_kept(trace: &mut Trace, t: &Thresholds, name: &str, identity: &str, candidate: &Candidate, f: &Figures) {
    let source = match &candidate.source {
        Source::Attribute => format!("the root's attribute `{}`", candidate.property),
        Source::Reference { name, target } => {
            format!("the id of the `{target}` the root refers to through `{name}`")
        }
    };
    let (outcome, how, share) = match &candidate.split {
        None => (
            format!("partition key `/{}` instead of `/{identity}`", candidate.property),
            "as single-partition queries".to_string(),
            format!("{} of the data; {}", human_share(candidate.largest_share), share_origin(candidate)),
        ),
        Some(why) => (
            format!("hierarchical partition key {} instead of `/{identity}`", candidate.paths()),
            format!(
                "`/{}` alone would not do ({why}), so the key is `MultiHash`: as prefix queries, routed to the physical partitions that hold the value,",
                candidate.property
            ),
            "one aggregate".to_string(),
        ),
    };
    let levels: Vec<&str> = std::iter::once(candidate.property.as_str())
        .chain(candidate.sub.iter().map(String::as_str))
        .collect();
    let decision = trace.record(
        Rule::PartitionKey,
        name,
        outcome,
        format!(
            "{} on {source}: {how} the patterns that read or write `{name}` cost {} instead of {} (with the copies each design would get); the largest logical partition holds about {} after {} years and serves {} ({share}), within {} and {}; writes and point reads take the `{}` {}, and a change of it moves the aggregate (delete, then create)",
            list(&candidate.patterns),
            about(human_ru_per_second(f.after)),
            about(human_ru_per_second(f.before)),
            human_bytes(candidate.partition_bytes),
            t.growth_years,
            about(human_ru_per_second(f.largest_ru)),
            human_bytes(t.logical_partition_max_bytes),
            human_ru_per_second(t.logical_partition_max_ru_per_second),
            levels.join("` and `"),
            if levels.len() > 1 { "values" } else { "value" },
        ),
    );
    if candidate.split.is_some() {
        decision.with("valueLargestPartitionBytes", candidate.largest_bytes.round());
    }
    if !candidate.sub.is_empty() {
        decision.with("levels", levels.join(", ").as_str());
    }
    decision
        .with("property", candidate.property.as_str())
        .with("distinctValues", candidate.distinct)
        .with("largestValueShare", candidate.largest_share)
        .with("largestPartitionBytes", candidate.partition_bytes.round())
        .with("largestPartitionRuPerSecond", f.largest_ru.round())
        .with("affectedRuPerSecond", rounded(f.before))
        .with("affectedRuPerSecondWith", rounded(f.after));
}

/// `containers` with each of `keys`' containers repartitioned, and every reference to
/// a repartitioned root taking its partition key value from the new key.
fn repartitioned(containers: &[Container], keys: &[(String, Candidate)]) -> Vec<Container> {
    // The last of a name, as collecting into a map keeps it.
    let index: NameMap<&str, usize> = containers
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let mut out = containers.to_vec();
    let mut values: BTreeMap<String, PartitionKeyValue> = BTreeMap::new();
    for (name, candidate) in keys {
        if let Some(&i) = index.get(name.as_str()) {
            let root = repartition(&mut out[i], candidate);
            let value = if candidate.sub.is_empty() {
                PartitionKeyValue::Property {
                    property: candidate.property.clone(),
                }
            } else {
                PartitionKeyValue::Levels {
                    properties: std::iter::once(&candidate.property)
                        .chain(&candidate.sub)
                        .cloned()
                        .collect(),
                }
            };
            values.insert(root, value);
        }
    }
    // Only the containers that refer to a repartitioned root are copied to change.
    for c in out.iter_mut() {
        if c.document_types
            .iter()
            .any(|d| refers_to(&d.references, &d.embedded, &values))
        {
            for d in c.document_types.make_mut() {
                point_at(&mut d.references, &mut d.embedded, &values);
            }
        }
    }
    out
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
    let (outcome, why) = match &candidate.split {
        None => (format!("keeps `/{identity}`, not `/{}`", candidate.property), why),
        Some(alone) => (
            format!("keeps `/{identity}`, not the hierarchical key {}", candidate.paths()),
            format!(
                "`/{}` alone would not do ({alone}), and as the first level of a hierarchical key {why}",
                candidate.property
            ),
        ),
    };
    let decision = trace.record(
        Rule::PartitionKey,
        container,
        outcome,
        format!("{} on `{}`, but {why}", list(&candidate.patterns), candidate.property),
    );
    if candidate.split.is_some() {
        decision
            .with("valueLargestPartitionBytes", candidate.largest_bytes.round())
            .with("largestPartitionBytes", candidate.partition_bytes.round());
    }
    decision
        .with("property", candidate.property.as_str())
        .with("distinctValues", candidate.distinct)
        .with("largestValueShare", candidate.largest_share)
}

/// The attributes and references the root's reads filter on by equality that can be
/// a partition key and whose number of values is known, heaviest first (on a tie, by
/// name).
fn candidates_of(
    model: &DomainModel,
    reads: &BTreeMap<&str, Vec<&AccessPattern>>,
    c: &Container,
    root: &str,
    base: &Priced,
) -> Vec<Candidate> {
    let Some(entity) = model.entity(root) else {
        return Vec::new();
    };
    let Some(doc) = c.document_types.iter().find(|d| d.role == Role::Root) else {
        return Vec::new();
    };
    let mut found: BTreeMap<String, Candidate> = BTreeMap::new();
    // In name order, so the decision reads the same whatever the declaration order.
    for p in reads.get(root).into_iter().flatten() {
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
                        .any(|r| r.name == first && !r.many && r.target_identity == rest && r.target != root);
                    if !single {
                        continue;
                    }
                    rest
                }
            };
            let candidate = if let Some(a) = entity.attributes.iter().find(|a| a.name == f) {
                // A unique attribute keeps its claim (uniqueClaim), which needs it stored as an attribute.
                if a.ty != AttributeType::String || a.optional || a.many || a.unique {
                    continue;
                }
                let Some(distinct) = a.distinct_values.filter(|&d| d > 1) else {
                    continue;
                };
                Candidate::new(f, Source::Attribute, distinct as f64, a.largest_value_share)
            } else if let Some(r) = doc
                .references
                .iter()
                .find(|r| !r.many && !r.optional && r.target_identity == f && r.target != root)
            {
                let distinct = facts::count_of(model, &r.target);
                if distinct <= 1.0 {
                    continue;
                }
                let source = Source::Reference {
                    name: r.name.clone(),
                    target: r.target.clone(),
                };
                Candidate::new(f, source, distinct, None)
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
    // The map is in name order, and the sort is stable.
    let mut list: Vec<Candidate> = found.into_values().filter(|c| c.reads_ru_per_second > 0.0).collect();
    list.sort_by(|a, b| b.reads_ru_per_second.total_cmp(&a.reads_ru_per_second));
    list
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

/// Partitions `c` by `candidate`: every document there carries the property and the
/// root no longer stores it as an attribute. Returns the root's name.
fn repartition(c: &mut Container, candidate: &Candidate) -> String {
    let root = c
        .document_types
        .iter()
        .find(|d| d.role == Role::Root)
        .map(|d| d.source.clone())
        .unwrap_or_default();
    let levels: Vec<&String> = std::iter::once(&candidate.property).chain(&candidate.sub).collect();
    c.partition_key = PartitionKey::hierarchical(&levels);
    c.partition_key_property = candidate.property.clone();
    c.sub_partition_key_properties = candidate.sub.clone();
    if !c.rules.contains(&Rule::PartitionKey) {
        c.rules.push(Rule::PartitionKey);
    }
    for d in c.document_types.make_mut() {
        d.partition_key_property = candidate.property.clone();
        d.sub_partition_key_properties = candidate.sub.clone();
        if d.role == Role::Root && candidate.source == Source::Attribute {
            d.attributes.retain(|a| a.name != candidate.property);
        }
    }
    root
}

/// Whether a reference (or one in an embedded object) goes to a root of `values`.
fn refers_to(references: &[Reference], embedded: &[Embedded], values: &BTreeMap<String, PartitionKeyValue>) -> bool {
    references.iter().any(|r| values.contains_key(&r.target))
        || embedded.iter().any(|e| refers_to(&e.references, &e.embedded, values))
}

/// Points every reference to a root of `values` at that root's new partition key.
fn point_at(references: &mut [Reference], embedded: &mut [Embedded], values: &BTreeMap<String, PartitionKeyValue>) {
    for r in references.iter_mut() {
        if let Some(value) = values.get(&r.target) {
            r.partition_key_value = value.clone();
        }
    }
    for e in embedded {
        point_at(&mut e.references, &mut e.embedded, values);
    }
}
