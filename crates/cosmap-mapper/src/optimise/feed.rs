//! feed: a read of the newest N across all aggregates (a `sort` and a
//! `limit`, no filter) can only fan out over every partition; instead it reads a feed
//! — the short forms of the newest N, in one logical partition of a feeds container
//! (partitioned by `/feed`, the source's `type`) — kept current from the change feed
//! of the source container and trimmed to N. Kept only when the workload priced with
//! the feed costs less than without: the writes that keep it cost against the fan-out
//! it replaces.

use cosmap_domain::{AccessKind, AccessPattern, DomainModel, PinChoice};
use std::sync::Arc;

use super::copy::{mark_copy_source, projected};
use super::Priced;
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, ContainerKind, CopyOf, DocumentType, DocumentTypes, PartitionKey, Role};
use crate::operations::{OperationKind, PropertyPath};
use crate::options::Thresholds;
use crate::physical::IndexingPolicy;
use crate::statistics::{human_rate, human_ru_per_second};
use crate::sync_plan::SyncPlan;

/// The partition key property of the feeds container: the source's `type`.
pub(crate) const FEED_PROPERTY: &str = "feed";

/// Adds a feed for each read of the newest N across all aggregates where the
/// workload then costs less. `priced` is `containers` priced already; returns the
/// design it leaves, priced.
pub(crate) fn apply(
    model: &DomainModel,
    t: &Thresholds,
    name: &str,
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    price: &dyn Fn(&[Container]) -> Priced,
    priced: Option<Priced>,
) -> Option<Priced> {
    let pins = super::pins::Pins::of(model, Rule::Feed);
    let mut patterns: Vec<&AccessPattern> = model
        .access_patterns()
        .iter()
        .filter(|p| p.kind == AccessKind::Read && p.limit.is_some() && !p.sort.is_empty() && p.filter.is_empty())
        .collect();
    if patterns.is_empty() {
        return priced;
    }
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    let feeds = Feeds { t, name, price };
    let mut current = priced.unwrap_or_else(|| price(containers));
    for pattern in patterns {
        let fans_out = current
            .operations
            .iter()
            .find(|op| op.pattern == pattern.name)
            .is_some_and(|op| op.kind == OperationKind::CrossPartitionQuery);
        if !fans_out {
            continue;
        }
        if let Some((design, priced)) = feeds.weigh(containers, &current, pattern, pins.choice(&pattern.name), trace) {
            *containers = Arc::new(design);
            current = priced;
        }
    }
    Some(current)
}

/// What a feed is weighed with: the thresholds, the feeds container's name and the
/// pricing of a design.
struct Feeds<'a> {
    t: &'a Thresholds,
    name: &'a str,
    price: &'a dyn Fn(&[Container]) -> Priced,
}

impl Feeds<'_> {
    /// A feed for `pattern` on `containers` (priced `current`), as the model pins it:
    /// the design with it, priced, where it is made; its decision recorded either way.
    fn weigh(
        &self,
        containers: &[Container],
        current: &Priced,
        pattern: &AccessPattern,
        pin: Option<PinChoice>,
        trace: &mut Trace,
    ) -> Option<(Vec<Container>, Priced)> {
        let t = self.t;
        let home = super::home(containers, &pattern.start);
        let sensitive = home.and_then(|(_, d)| super::copy::reads_sensitive(d, pattern));
        if let Some(attribute) = sensitive {
            let why = format!("would store `{attribute}`, which is `sensitive`, outside its own document");
            no_feed(trace, pattern, why);
            return None;
        }
        let (mut candidate, feed_name, source) = with_feed(containers, pattern, self.name)?;
        let with = (self.price)(&candidate);
        let (before, after) = (current.total(), with.total());
        // The feed is one logical partition: its reads and the writes that keep it.
        let feed_ru = feed_load(&with, &feed_name);
        if feed_ru > t.logical_partition_max_ru_per_second {
            no_feed(
                trace,
                pattern,
                format!(
                    "is one logical partition, which would serve about {}, over `logicalPartitionMaxRuPerSecond` ({}); a feed replicated over several partitions is not built",
                    human_ru_per_second(feed_ru),
                    human_ru_per_second(t.logical_partition_max_ru_per_second)
                ),
            )
            .with("feedRuPerSecond", feed_ru.round());
            return None;
        }
        // What it saves on the read it serves, and adds to the other patterns (the writes
        // that keep it): its break-even.
        let (saves, adds) = crate::cost::optimisations::saves_and_adds(
            with.by_pattern
                .iter()
                .map(|(name, ru)| current.by_pattern.get(name).copied().unwrap_or(0.0) - ru),
        );
        if pin == Some(PinChoice::Avoid) {
            let decision = no_feed(trace, pattern, String::new())
                .with("workloadRuPerSecond", before)
                .with("workloadRuPerSecondWith", after);
            super::pins::mark(decision, PinChoice::Avoid, saves, adds);
            return None;
        }
        if !with.cheaper_than(current) && pin.is_none() {
            let decision = no_feed(
                trace,
                pattern,
                format!(
                    "would make the workload cost {} against {}: the writes that keep the feed cost more than the fan-out it saves",
                    human_ru_per_second(after),
                    human_ru_per_second(before)
                ),
            )
            .with("workloadRuPerSecond", before)
            .with("workloadRuPerSecondWith", after);
            super::break_even(decision, saves, adds, false);
            return None;
        }
        let into = container_name(&candidate);
        let decision = record_made(trace, pattern, &feed_name, &into, (before, after));
        super::break_even(decision, saves, adds, true);
        if let Some(pin) = pin {
            super::pins::mark(decision, pin, saves, adds);
        }
        if let Some(source) = candidate.iter_mut().find(|c| c.name == source) {
            mark_copy_source(source, trace);
        }
        let priced = (self.price)(&candidate);
        Some((candidate, priced))
    }
}

/// Records the feed `feed_name` made in container `into` for `pattern`, with the
/// workload `before` and `after` it.
fn record_made<'t>(
    trace: &'t mut Trace,
    pattern: &AccessPattern,
    feed_name: &str,
    into: &str,
    (before, after): (f64, f64),
) -> &'t mut crate::decision::Decision {
    let limit = pattern.limit.unwrap_or_default();
    trace
        .record(
            Rule::Feed,
            pattern.name.as_str(),
            format!("a feed `{feed_name}` of the newest {limit} in `{into}`"),
            format!(
                "`{}` runs {} across every partition for the newest {limit} by {}; a feed of their short forms in one logical partition, upserted from the change feed and trimmed to {limit} on each create, makes it a single-partition query: the workload costs {} instead of {}; only this pattern reads the feed",
                pattern.name,
                human_rate(pattern.per_second),
                pattern.sort.join(", "),
                human_ru_per_second(after),
                human_ru_per_second(before)
            ),
        )
        .with("limit", limit)
        .with("workloadRuPerSecond", before)
        .with("workloadRuPerSecondWith", after)
}

/// Records that `pattern` gets no feed, and `why` (after "a feed of its newest N").
fn no_feed<'t>(trace: &'t mut Trace, pattern: &AccessPattern, why: String) -> &'t mut crate::decision::Decision {
    trace.record(
        Rule::Feed,
        pattern.name.as_str(),
        "no feed",
        format!(
            "`{}` runs {} across every partition, but a feed of its newest {} {why}",
            pattern.name,
            human_rate(pattern.per_second),
            pattern.limit.unwrap_or_default(),
        ),
    )
}

/// RU/s the feed document type `feed` serves in the design `p`: the reads of it and
/// the writes that keep it.
fn feed_load(p: &Priced, feed: &str) -> f64 {
    // By container (in name order), each the sum of its requests in the operations' order.
    let mut by_container: std::collections::BTreeMap<&str, f64> = std::collections::BTreeMap::new();
    for (op, rus) in p.operations.iter().zip(&p.request_ru_per_second) {
        for (r, &ru) in op.requests.iter().zip(rus) {
            for d in &r.document_types {
                if d == feed {
                    *by_container.entry(r.container.as_str()).or_default() += ru;
                }
            }
        }
    }
    by_container.values().sum()
}

/// The feeds container of `containers` (the one holding feeds, by its rule).
fn container_name(containers: &[Container]) -> String {
    containers
        .iter()
        .find(|c| c.rules.contains(&Rule::Feed))
        .map(|c| c.name.clone())
        .unwrap_or_default()
}

/// `containers` with a feed for `pattern` (the feeds container made when missing),
/// the feed's document type name and its source's container; `None` when the
/// pattern's start is not a document of an aggregate container, or stores a property
/// named `feed`.
fn with_feed(
    containers: &[Container],
    pattern: &AccessPattern,
    name: &str,
) -> Option<(Vec<Container>, String, String)> {
    let (source, doc) = containers.iter().find_map(|c| {
        let d = c
            .document_types
            .iter()
            .find(|d| d.source == pattern.start && matches!(d.role, Role::Root | Role::Entity))?;
        (c.kind == ContainerKind::Aggregate).then_some((c, d))
    })?;
    let taken = doc.attributes.iter().any(|a| a.name == FEED_PROPERTY)
        || doc.embedded.iter().any(|e| e.name == FEED_PROPERTY)
        || doc.references.iter().any(|r| r.name == FEED_PROPERTY)
        || doc.parent.as_ref().is_some_and(|p| p.property == FEED_PROPERTY);
    if taken {
        return None;
    }
    let mut out = containers.to_vec();
    let feeds = match out.iter().position(|c| c.rules.contains(&Rule::Feed)) {
        Some(i) => i,
        None => {
            let mut unique = name.to_string();
            while out.iter().any(|c| c.name == unique) {
                unique.push_str("Container");
            }
            out.push(Container {
                name: unique,
                kind: ContainerKind::Aggregate,
                aggregates: Vec::new(),
                partition_key: PartitionKey::on(FEED_PROPERTY),
                partition_key_property: FEED_PROPERTY.to_string(),
                sub_partition_key_properties: Vec::new(),
                default_ttl: None,
                indexing_policy: IndexingPolicy::default(),
                unique_keys: Vec::new(),
                rules: vec![Rule::Feed],
                document_types: DocumentTypes::default(),
            });
            out.len() - 1
        }
    };
    let feed = feed_of(source, doc, pattern, &out[feeds]);
    let feed_name = feed.name.clone();
    out[feeds].document_types.make_mut().push(feed);
    Some((out, feed_name, source.name.clone()))
}

/// The feed document type: the short form the pattern reads, its partition key the
/// source's `type`, its id the source's.
fn feed_of(source: &Container, doc: &DocumentType, pattern: &AccessPattern, feeds: &Container) -> DocumentType {
    let mut feed = projected(doc, pattern, "");
    feed.name = format!("{}Feed", doc.name);
    while feeds.document_types.iter().any(|d| d.name == feed.name) {
        feed.name.push_str("Feed");
    }
    feed.discriminator = crate::discriminator(&feed.name);
    feed.role = Role::Copy;
    feed.partition_key_property = FEED_PROPERTY.to_string();
    feed.sub_partition_key_properties = Vec::new();
    feed.parent = None;
    feed.containment = None;
    feed.claim_of = None;
    let key_from = PropertyPath::new(["type"]);
    feed.copy_of = Some(Box::new(CopyOf {
        container: source.name.clone(),
        document_type: doc.name.clone(),
        sync: SyncPlan::feed(
            &source.name,
            &doc.name,
            &doc.discriminator,
            &feeds.name,
            &feed.name,
            FEED_PROPERTY,
            &key_from,
        ),
        partition_key_from: key_from,
        serves: pattern.name.clone(),
        newest: pattern.limit,
    }));
    feed
}

/// The feed step (`run`: [`apply`] on the design the later steps left) again, when
/// round one refused a feed it priced: a count or an extended reference kept since can make a feed pay
/// (a read that counted per result was unbounded either way; the feed's short form
/// now carries the kept count, and its sync brings the new values). The feeds it now
/// makes are kept (each weighed as in round one, on the whole design), their
/// decisions replacing round one's.
pub(crate) fn again(
    trace: &mut Trace,
    priced: Option<Priced>,
    run: impl FnOnce(&mut Trace, Option<Priced>) -> Option<Priced>,
) -> Option<Priced> {
    if !super::refused_priced(trace, Rule::Feed, "no feed", "workloadRuPerSecond") {
        return priced;
    }
    let mut again = Trace::default();
    let after = run(&mut again, priced);
    super::replace_made(trace, again, Rule::Feed, |outcome| outcome != "no feed");
    after
}
