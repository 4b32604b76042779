//! Copy: when a read filters a large container by an attribute that is
//! not its partition key, and another container is partitioned by that
//! attribute, keep copies of those documents in that container, so the read is
//! a single-partition query there. The copy is kept in sync from the source
//! container's change feed.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::{AccessKind, AccessPattern, DomainModel, NameMap, PinChoice};

use crate::cost::constants::DEFAULT_ITEM_BYTES;
use crate::cost::design::Design;
use crate::cost::facts::document_paths;
use crate::cost::units;
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, ContainerKind, CopyOf, DocumentType, Embedded, EmbeddedKind, Property, Role};
use crate::operations::PropertyPath;
use crate::statistics::{human_bytes, human_rate, Statistics};
use crate::sync_plan::SyncPlan;

/// Adds copy document types to `containers` where an access pattern needs them (at any
/// rate: the price of the designs with and without a copy decides).
///
/// `design` holds the figures of `containers` as MR1–MR6 left them (the cost table's
/// rules design): their storage and physical partitions decide. Returns whether it
/// changed `containers` (a copy added or widened), so that a caller weighing a design
/// need not keep a copy of it to compare. Only the reads `Considered` admits are
/// considered.
pub(crate) fn apply(
    model: &DomainModel,
    stats: &Statistics,
    design: &Design<'_>,
    containers: &mut Cow<'_, [Container]>,
    trace: &mut Trace,
    considered: Considered<'_>,
) -> bool {
    let pins = super::pins::Pins::of(model, Rule::Copy);
    let kept = |p: &AccessPattern| pins.choice(&p.name) == Some(PinChoice::Keep);
    let mut patterns: Vec<&AccessPattern> = model
        .access_patterns()
        .iter()
        .filter(|p| p.kind == AccessKind::Read)
        .filter(|p| match considered {
            Considered::Every => true,
            Considered::Pinned => kept(p),
            Considered::PinnedAnd(names) => kept(p) || names.contains(p.name.as_str()),
        })
        .collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    // Copies never hold the data a pattern starts from, and adding them moves no
    // other document: both lookups stay valid while copies are added.
    let holders = Holders::of(containers);
    let by_name: BTreeMap<String, usize> = containers
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), i))
        .collect();
    let within = design.read_within_partitions();
    let mut changed = false;
    for pattern in patterns {
        let site = Site {
            holders: &holders,
            by_name: &by_name,
            pin: pins.choice(&pattern.name),
            within: &within,
        };
        changed |= consider(model, pattern, stats, design, &site, containers, trace);
    }
    changed
}

/// The reads [`apply`] considers copies for.
#[derive(Clone, Copy)]
pub(crate) enum Considered<'a> {
    /// Every read.
    Every,
    /// Those the model pins a copy `keep` for.
    Pinned,
    /// Those, and the reads named.
    PinnedAnd(&'a BTreeSet<String>),
}

/// What [`apply`] looks up for every pattern it considers, made once.
struct Site<'a> {
    holders: &'a Holders,
    by_name: &'a BTreeMap<String, usize>,
    /// How the model pins a copy for the pattern (`pins`).
    pin: Option<PinChoice>,
    /// The patterns the design reads within partitions already (see
    /// [`Design::read_within_partitions`]).
    within: &'a BTreeSet<&'a str>,
}

/// Adds (or widens) a copy serving `pattern` where it pays; whether it changed
/// `containers`.
fn consider(
    model: &DomainModel,
    pattern: &AccessPattern,
    stats: &Statistics,
    design: &Design<'_>,
    site: &Site<'_>,
    containers: &mut Cow<'_, [Container]>,
    trace: &mut Trace,
) -> bool {
    let Some((ci, di)) = site.holders.locate(&pattern.start) else {
        return false;
    };
    let source = &containers[ci];
    let doc = &source.document_types[di];
    // A path to a referenced root's id (`author.userId`) is the same question as the
    // bare id (`userId`): one design for both.
    let filters = bare_equality_filters(pattern, doc);
    if filters.contains(&source.partition_key_property.as_str()) || site.within.contains(pattern.name.as_str()) {
        return false; // already read within partitions (by its key, or through a claim)
    }
    let bytes = match source_bytes(model, pattern, design, source, doc) {
        Ok(bytes) => bytes,
        Err(why) => {
            refuse(trace, pattern, why);
            return false;
        }
    };
    let Some((tj, via)) = target_of(containers, site.by_name, ci, doc, &filters) else {
        refuse(trace, pattern, format!(
                    "a cross-partition read of `{}` filtering on {}, but no other container is partitioned by one of those that `{}` refers to",
                    source.name, pattern.filter.join(", "), doc.name
                ))
            .with("containerBytes", bytes);
        return false;
    };
    // A copy stores the target's partition key beside the source's own properties:
    // a property of that name would be there twice.
    let pk = &containers[tj].partition_key_property;
    if let Some((name, what)) = named(doc, pk) {
        refuse(trace, pattern, format!(
                    "a copy of `{}` in `{}` would store that container's partition key `{pk}` beside `{}`'s own property `{name}` ({what}): rename that property to allow the copy",
                    doc.name, containers[tj].name, doc.name
                ))
            .with("targetContainer", containers[tj].name.as_str())
            .with("property", name);
        return false;
    }
    // A short form (`project`) is copied as such: only what the pattern reads.
    let copy = projected(doc, pattern, &via);
    // The cost model decides: a copy pays when the fan-out it saves on reads
    // exceeds the writes it adds (each write of the source is written again).
    let partitions = design.partitions(&source.name);
    let saved = units::fan_out_saved(partitions) * pattern.per_second;
    let writes = stats.writes_per_second(&doc.source);
    let size = copy.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES);
    let added = writes * units::replace(size, document_paths(&copy));
    if site.pin == Some(PinChoice::Avoid) || (saved <= added && site.pin.is_none()) {
        let reason = format!(
            "a copy would save about {saved:.0} RU/s of cross-partition fan-out over {partitions} partitions but add about {added:.0} RU/s of writes ({} of `{}`)",
            human_rate(writes),
            doc.name
        );
        let decision = refuse(trace, pattern, reason)
            .with("physicalPartitions", partitions)
            .with("readRuSaved", units::round(saved))
            .with("writeRuAdded", units::round(added));
        break_even(decision, &source.name, partitions, pattern.per_second, added, false);
        if let Some(pin) = site.pin {
            super::pins::mark(decision, pin, saved, added);
        }
        return false;
    }
    let figures = CopyFigures {
        bytes,
        partitions,
        saved,
        added,
    };
    make(pattern, site, containers, (ci, tj, &via), copy, &figures, trace)
}

/// What a copy saves and adds, with the source's size and physical partitions.
struct CopyFigures {
    bytes: f64,
    partitions: f64,
    saved: f64,
    added: f64,
}

/// The size of `source` for `pattern`'s copy, or why no copy can serve it: the read
/// filters on nothing, reads a `sensitive` attribute, or the source's size is unknown.
fn source_bytes(
    model: &DomainModel,
    pattern: &AccessPattern,
    design: &Design<'_>,
    source: &Container,
    doc: &DocumentType,
) -> Result<f64, String> {
    if pattern.filter.is_empty() {
        return Err(format!(
            "a read of `{}` that filters on nothing: no container partitioned by a filter can serve it (a feed may, see `feed`)",
            source.name
        ));
    }
    if let Some(sensitive) = reads_sensitive(doc, pattern) {
        return Err(format!(
            "it reads `{sensitive}`, which is `sensitive`: a copy would store it outside its own document"
        ));
    }
    // The size is known when every root stored here declares its count.
    let known = source.document_types.iter().filter(|d| d.role == Role::Root).all(|d| {
        model
            .element(&d.source)
            .and_then(|e| e.volume())
            .and_then(|v| v.count)
            .is_some()
    });
    if !known {
        return Err(format!(
            "a cross-partition read of `{}`, but its size is unknown: give its entities a `volume` (count and avgSizeBytes)",
            source.name
        ));
    }
    Ok(design.storage_bytes(&source.name))
}

/// The first container (in order) partitioned by a filtered attribute that `doc` (in
/// container `ci`) refers to once, with the name of the first such reference.
fn target_of(
    containers: &[Container],
    by_name: &BTreeMap<String, usize>,
    ci: usize,
    doc: &DocumentType,
    filters: &[&str],
) -> Option<(usize, String)> {
    let mut target: Option<(usize, String)> = None;
    for r in doc.references.iter().filter(|r| !r.many) {
        let Some(&j) = by_name.get(&r.target_container) else {
            continue;
        };
        let c = &containers[j];
        let fits = j != ci
            && c.kind == ContainerKind::Aggregate
            && c.sub_partition_key_properties.is_empty()
            && filters.contains(&c.partition_key_property.as_str())
            && r.target_identity == c.partition_key_property;
        if fits && target.as_ref().is_none_or(|(best, _)| j < *best) {
            target = Some((j, r.name.clone()));
        }
    }
    target
}

/// `doc`'s own property called `name`, and what it is (an attribute, an embedded
/// object, a reference), if it has one.
fn named<'d>(doc: &'d DocumentType, name: &str) -> Option<(&'d str, &'static str)> {
    doc.attributes
        .iter()
        .map(|a| (a.name.as_str(), "an attribute"))
        .chain(doc.embedded.iter().map(|e| (e.name.as_str(), "an embedded object")))
        .chain(doc.references.iter().map(|r| (r.name.as_str(), "a reference")))
        .find(|(n, _)| *n == name)
}

/// Makes `copy` (of the document read in container `ci`) in container `tj`, its
/// partition key taken through the reference `via`, or widens the copy already there;
/// records the decision. Whether it changed `containers`.
fn make(
    pattern: &AccessPattern,
    site: &Site<'_>,
    containers: &mut Cow<'_, [Container]>,
    (ci, tj, via): (usize, usize, &str),
    mut copy: DocumentType,
    figures: &CopyFigures,
    trace: &mut Trace,
) -> bool {
    let subject = pattern.name.as_str();
    let source_name = containers[ci].name.clone();
    // The design is cloned only when a copy is made (a weighing often makes none).
    let target = &mut containers.to_mut()[tj];
    let existing = target.document_types.make_mut().iter_mut().find(|d| {
        d.copy_of
            .as_ref()
            .is_some_and(|c| c.container == source_name && c.document_type == copy.name)
    });
    if let Some(existing) = existing {
        // The copy keeps what every pattern it serves reads.
        let widened = widen(existing, &copy);
        trace.record(
            Rule::Copy,
            subject,
            format!("served by the existing copy of `{}` in `{}`", copy.name, target.name),
            if widened {
                "an earlier access pattern already keeps this copy; it now also stores what this one reads"
            } else {
                "an earlier access pattern already keeps this copy"
            },
        );
        return widened;
    }
    let pk = target.partition_key_property.clone();
    let partition_key_from = PropertyPath::new([via, "id"]);
    let source_type = copy.name.clone();
    while target.document_types.iter().any(|d| d.name == copy.name) {
        copy.name.push_str("Copy");
    }
    copy.copy_of = Some(Box::new(CopyOf {
        container: source_name.clone(),
        sync: SyncPlan::copy(
            &source_name,
            &source_type,
            &copy.discriminator,
            &target.name,
            &copy.name,
            &pk,
            &partition_key_from,
        ),
        document_type: source_type,
        partition_key_from,
        serves: pattern.name.clone(),
        newest: None,
    }));
    copy.role = Role::Copy;
    copy.partition_key_property = pk.clone();
    copy.sub_partition_key_properties = Vec::new();
    copy.parent = None;
    copy.containment = None;
    record_made(pattern, site, &source_name, &copy.source, target, figures, trace);
    target.document_types.make_mut().push(copy);
    if !target.rules.contains(&Rule::Copy) {
        target.rules.push(Rule::Copy);
    }
    mark_copy_source(&mut containers.to_mut()[ci], trace);
    true
}

/// Records the copy of `element` (from container `source`) made into `target` for
/// `pattern`, with its figures, its break-even and the model's pin.
fn record_made(
    pattern: &AccessPattern,
    site: &Site<'_>,
    source: &str,
    element: &str,
    target: &Container,
    figures: &CopyFigures,
    trace: &mut Trace,
) {
    let CopyFigures {
        bytes,
        partitions,
        saved,
        added,
    } = *figures;
    let pk = &target.partition_key_property;
    let decision = trace
        .record(
            Rule::Copy,
            pattern.name.as_str(),
            format!("copy `{element}` documents into `{}` (partitioned by `/{pk}`)", target.name),
            format!(
                "`{}` runs {} and filters `{source}` (about {}, over {partitions} physical partitions) on {}, not its partition key; in `{}` it becomes a single-partition query, saving about {saved:.0} RU/s of fan-out for {added:.0} RU/s of copy writes; the change feed keeps the copy in sync, and TTL is turned on in `{source}` (defaultTtl -1) so deletions reach the feed",
                pattern.name,
                human_rate(pattern.per_second),
                human_bytes(bytes),
                pattern.filter.join(", "),
                target.name,
            ),
        )
        .with("perSecond", pattern.per_second)
        .with("containerBytes", bytes)
        .with("physicalPartitions", partitions)
        .with("filter", pattern.filter.clone())
        .with("readRuSaved", units::round(saved))
        .with("writeRuAdded", units::round(added))
        .with("targetContainer", target.name.as_str());
    break_even(decision, source, partitions, pattern.per_second, added, true);
    if let Some(pin) = site.pin {
        super::pins::mark(decision, pin, saved, added);
    }
}

/// The equality filters of `pattern` on `doc`, a path to the id of a root that `doc`
/// refers to once (`author.userId`) given as that id (`userId`).
fn bare_equality_filters<'p>(pattern: &'p AccessPattern, doc: &DocumentType) -> Vec<&'p str> {
    pattern
        .equality_filters()
        .into_iter()
        .map(|f| match f.split_once('.') {
            Some((first, rest))
                if doc
                    .references
                    .iter()
                    .any(|r| r.name == first && !r.many && r.target_identity == rest) =>
            {
                rest
            }
            _ => f,
        })
        .collect()
}

/// Turns TTL on in `source`, whose documents are copied elsewhere: the change feed
/// does not show deletions, so sources are deleted by TTL, which Cosmos DB only
/// honours when the container has a default TTL (-1: on, no expiry).
pub(crate) fn mark_copy_source(source: &mut Container, trace: &mut Trace) {
    if soft_deletes(source) {
        record_change_feed_source(source, "its documents are copied elsewhere", trace);
    }
}

/// Turns soft deletes on in `source`, whose change feed keeps derived data elsewhere
/// (copies, feeds, counts, subsets): rule `copySource` and TTL on (-1 unless it has a
/// default TTL already). `false` when it had them.
pub(crate) fn soft_deletes(source: &mut Container) -> bool {
    if source.rules.contains(&Rule::CopySource) {
        return false;
    }
    source.rules.push(Rule::CopySource);
    source.default_ttl.get_or_insert(-1);
    true
}

/// Records why `source` (just given soft deletes by [`soft_deletes`]) has TTL on: `why`
/// its change feed is read.
pub(crate) fn record_change_feed_source(source: &Container, why: &str, trace: &mut Trace) {
    let ttl = source.default_ttl.unwrap_or(-1);
    trace
        .record(
            Rule::CopySource,
            source.name.as_str(),
            format!("TTL on (defaultTtl {ttl})"),
            format!("{why}: the change feed shows no deletion, so a document is deleted by setting its `ttl`, which Cosmos DB honours only when the container has a default TTL (-1: on, nothing expires unless it says so)"),
        )
        .with("defaultTtl", ttl);
}

/// Gives soft deletes to each container whose change feed `design` reads for a value kept
/// on a parent (`children` of each kept candidate), recording why for those
/// that had none in `before`.
pub(crate) fn mark_children_sources(
    before: &[Container],
    design: &[Container],
    why: impl Fn(&Container) -> Option<String>,
    trace: &mut Trace,
) {
    for c in design {
        let had = before
            .iter()
            .any(|b| b.name == c.name && b.rules.contains(&Rule::CopySource));
        if had || !c.rules.contains(&Rule::CopySource) {
            continue;
        }
        if let Some(why) = why(c) {
            record_change_feed_source(c, &why, trace);
        }
    }
}

/// The attribute of `doc` marked `sensitive` that `pattern` names (projects, filters
/// or sorts on), if any: no copy or feed can serve it.
pub(crate) fn reads_sensitive<'d>(doc: &'d DocumentType, pattern: &AccessPattern) -> Option<&'d str> {
    fn any_sensitive(attributes: &[Property], embedded: &[Embedded]) -> bool {
        attributes.iter().any(|a| a.sensitive) || embedded.iter().any(|e| any_sensitive(&e.attributes, &e.embedded))
    }
    // Most documents hold nothing sensitive: then nothing the pattern names is.
    if !any_sensitive(&doc.attributes, &doc.embedded) {
        return None;
    }
    let mut named: BTreeSet<&str> = pattern.project.iter().map(String::as_str).collect();
    named.extend(pattern.filter_attributes());
    named.extend(pattern.sort_keys().iter().map(|k| k.attribute));
    fn find<'d>(
        attributes: &'d [Property],
        embedded: &'d [Embedded],
        named: &BTreeSet<&str>,
        prefix: &str,
    ) -> Option<&'d str> {
        for a in attributes.iter().filter(|a| a.sensitive) {
            if named.contains(a.name.as_str()) || named.contains(format!("{prefix}{}", a.name).as_str()) {
                return Some(&a.name);
            }
        }
        embedded
            .iter()
            .find_map(|e| find(&e.attributes, &e.embedded, named, &format!("{}.", e.name)))
    }
    find(&doc.attributes, &doc.embedded, &named, "")
}

/// `list` without the attributes marked `sensitive`, at every depth of `embedded`.
pub(crate) fn strip_sensitive(attributes: &mut Vec<Property>, embedded: &mut [Embedded]) {
    attributes.retain(|a| !a.sensitive);
    for e in embedded {
        strip_sensitive(&mut e.attributes, &mut e.embedded);
    }
}

/// The document a copy or feed of `doc` stores for `pattern`: for a short form
/// (`project`) of the document's own element, only the projected properties, what
/// the pattern filters and sorts on, and the reference `via` the copy's partition key
/// comes from; otherwise the whole document; never a `sensitive` value.
pub(crate) fn projected(doc: &DocumentType, pattern: &AccessPattern, via: &str) -> DocumentType {
    let mut copy = doc.clone();
    strip_sensitive(&mut copy.attributes, &mut copy.embedded);
    if pattern.project.is_empty() || doc.source != pattern.start {
        return copy;
    }
    let mut read: BTreeSet<&str> = pattern.project.iter().map(String::as_str).collect();
    read.extend(pattern.filter_attributes());
    // A path filter (`voters.userId`) reads the property it starts from.
    read.extend(
        pattern
            .filter_attributes()
            .into_iter()
            .filter_map(|f| f.split_once('.').map(|(first, _)| first)),
    );
    read.extend(pattern.sort_keys().iter().map(|k| k.attribute));
    // A property the read follows or returns (`author.username`, `categories`).
    read.extend(pattern.returns.iter().filter_map(|r| r.split('.').next()));
    let before = doc.attributes.len() + doc.embedded.len() + doc.references.len();
    copy.attributes.retain(|a| read.contains(a.name.as_str()));
    copy.embedded.retain(|e| {
        read.contains(e.name.as_str())
            || (e.kind == EmbeddedKind::ReferenceData
                && e.attributes.first().is_some_and(|a| read.contains(a.name.as_str())))
    });
    copy.references
        .retain(|r| r.name == via || read.contains(r.name.as_str()) || read.contains(r.target_identity.as_str()));
    let after = copy.attributes.len() + copy.embedded.len() + copy.references.len();
    copy.estimated_size_bytes = doc
        .estimated_size_bytes
        .map(|b| b * (after + 3) as f64 / (before + 3) as f64);
    copy
}

/// Adds to `existing` the properties of `wanted` it lacks; whether it added any.
fn widen(existing: &mut DocumentType, wanted: &DocumentType) -> bool {
    let mut widened = false;
    for a in &wanted.attributes {
        if !existing.attributes.iter().any(|x| x.name == a.name) {
            existing.attributes.push(a.clone());
            widened = true;
        }
    }
    for e in &wanted.embedded {
        if !existing.embedded.iter().any(|x| x.name == e.name) {
            existing.embedded.push(e.clone());
            widened = true;
        }
    }
    for r in &wanted.references {
        if !existing.references.iter().any(|x| x.name == r.name) {
            existing.references.push(r.clone());
            widened = true;
        }
    }
    if widened {
        existing.estimated_size_bytes = match (existing.estimated_size_bytes, wanted.estimated_size_bytes) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
    widened
}

/// Records that `pattern` gets no copy, and why.
fn refuse<'t>(trace: &'t mut Trace, pattern: &AccessPattern, reason: String) -> &'t mut crate::decision::Decision {
    trace
        .record(Rule::Copy, pattern.name.as_str(), "no copy", reason)
        .with("perSecond", pattern.per_second)
}

/// Where each element's data is held, ignoring copies: its own document, or
/// else the document it is embedded in, in the first container that has either.
/// Only looked up (never iterated), so its hash order reaches no output.
struct Holders(NameMap<String, (usize, usize)>);

impl Holders {
    fn of(containers: &[Container]) -> Self {
        let mut found: NameMap<String, (usize, usize)> = NameMap::default();
        for (ci, c) in containers.iter().enumerate() {
            let originals = || {
                c.document_types
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.role != Role::Copy)
            };
            // In the container, an element's own document comes before any it is
            // embedded in; across containers, the first container that holds it.
            let mut names = Vec::new();
            for (di, d) in originals() {
                names.push((d.source.as_str(), di));
            }
            for (di, d) in originals() {
                let mut embedded = Vec::new();
                embedded_sources(&d.embedded, &mut embedded);
                names.extend(embedded.into_iter().map(|name| (name, di)));
            }
            for (name, di) in names {
                if !found.contains_key(name) {
                    found.insert(name.to_string(), (ci, di));
                }
            }
        }
        Holders(found)
    }

    /// The container and document type that hold `element`'s data.
    fn locate(&self, element: &str) -> Option<(usize, usize)> {
        self.0.get(element).copied()
    }
}

fn embedded_sources<'c>(embedded: &'c [Embedded], out: &mut Vec<&'c str>) {
    for e in embedded {
        out.push(&e.source);
        embedded_sources(&e.embedded, out);
    }
}

/// Records in `decision` the physical partitions of `source` (it has `partitions`) at
/// which a copy for a read at `rate` saves as much fan-out as its `added` writes cost
/// (`breakEvenPartitions`), in its evidence and reason. `kept`: whether it was made.
fn break_even(
    decision: &mut crate::decision::Decision,
    source: &str,
    partitions: f64,
    rate: f64,
    added: f64,
    kept: bool,
) {
    let Some(needed) = partitions_to_pay(rate, added) else {
        decision.reason = format!(
            "{}; break-even: no number of partitions of `{source}` makes it pay",
            decision.reason
        );
        return;
    };
    decision.with("breakEvenPartitions", needed);
    let count = crate::statistics::human_count(needed);
    let has = crate::statistics::human_count(partitions);
    decision.reason = if kept {
        format!(
            "{}; break-even: kept while `{source}` has at least {count} physical partitions (it has {has})",
            decision.reason
        )
    } else {
        format!(
            "{}; break-even: it would pay from {count} physical partitions of `{source}` (it has {has})",
            decision.reason
        )
    };
}

/// The fewest physical partitions over which a query at `rate` a second costs more in
/// fan-out than `added` RU/s; `None` past ten million.
fn partitions_to_pay(rate: f64, added: f64) -> Option<f64> {
    let pays = |p: f64| units::fan_out_saved(p) * rate > added;
    let mut high = 1.0;
    while !pays(high) {
        high *= 2.0;
        if high > 1e7 {
            return None;
        }
    }
    let mut low = (high / 2.0).max(1.0);
    if pays(low) {
        return Some(low);
    }
    // `low` does not pay, `high` does.
    while high - low > 1.0 {
        let mid = ((low + high) / 2.0).floor();
        if pays(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}
