//! bucket: many small children of one parent, created often and read by their
//! parent and by time (`filter: ["deviceId", "measuredAt >="], sort:
//! ["-measuredAt"]`), are stored together: one bucket document per parent and time
//! window (`id` the window, `2026-12-01T13` for an hour), holding the children
//! written in it (`readings: [...]`). A read then takes a few buckets instead of
//! many documents (a page of 100 buckets holds many pages of children); a create
//! appends to its window's bucket (a patch, priced as the rewrite of a half-full
//! bucket) instead of writing a small document. The window is the longest of a day,
//! an hour and a minute whose typical bucket holds at most [`BUCKET_MAX_ITEMS`]
//! children, and whose bucket at ten times the typical rate still fits an item,
//! weighed by cost. Kept only where the whole workload's RU/s drops.
//!
//! Only what a bucket can serve is bucketed: children with documents of their own in
//! their parent's logical partition, every read of them by the parent (and ranges
//! and a sort on one date-time), every write a create. Anything else is refused with
//! the reason.

use std::collections::BTreeSet;

use cosmap_domain::limits::MAX_ITEM_BYTES;
use cosmap_domain::{AccessKind, AccessPattern, AttributeType, DomainModel, FilterOp, NameMap, WriteOperation};

use super::{Batch, Weighed};
use crate::cost::constants::{DEFAULT_ITEM_BYTES, DEFAULT_SKEW};
use crate::cost::facts;
use crate::cost::units;
use crate::decision::{Rule, Trace};
use crate::logical_model::{
    BucketOf, BucketWindow, Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, IdSource, Property, Role,
};
use crate::statistics::{about, human_count, human_ru_per_second, Statistics};

/// The most children a typical bucket holds: beyond it each append rewrites a large
/// document.
pub const BUCKET_MAX_ITEMS: f64 = 1_000.0;

/// One child element whose reads and writes a bucket can serve.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    container: String,
    document: String,
    element: String,
    time: String,
    window: BucketWindow,
    typical_items: f64,
    item_bytes: f64,
    patterns: BTreeSet<String>,
}

/// Buckets the children whose reads and writes buckets serve, where that lowers the
/// workload's RU/s: for each, the window that costs least is weighed against none.
pub(crate) struct Buckets<'m> {
    pub(crate) model: &'m DomainModel,
    pub(crate) stats: &'m Statistics,
}

impl super::step::Optimisation for Buckets<'_> {
    type Candidate = Candidate;
    const RULE: Rule = Rule::Bucket;

    fn candidates(&self, current: &mut super::step::Current<'_>, trace: &mut Trace) -> Vec<Candidate> {
        // Each child at the window that costs least alone (one that fits is not priced twice).
        let mut candidates = Vec::new();
        for mut windows in shapes(self.model, self.stats, current.containers, trace) {
            if windows.len() == 1 {
                candidates.extend(windows.pop());
                continue;
            }
            let best = windows
                .into_iter()
                .map(|c| {
                    let total = current
                        .price(&bucketed(current.containers, std::slice::from_ref(&c)))
                        .total();
                    (c, total)
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            candidates.extend(best.map(|(c, _)| c));
        }
        candidates
    }

    fn subject(&self, c: &Candidate) -> String {
        c.element.clone()
    }

    fn make(&self, design: &[Container], kept: &[Candidate]) -> Vec<Container> {
        bucketed(design, kept)
    }

    fn affected(&self, c: &Candidate) -> BTreeSet<String> {
        c.patterns.clone()
    }

    fn record(&self, w: &Weighed<'_, Candidate>, batch: &Batch<'_, Candidate>, trace: &mut Trace) {
        let model = self.model;
        let (c, saves, adds) = (w.candidate, w.saves, w.adds);
        let reads: Vec<String> = c
            .patterns
            .iter()
            .filter(|p| {
                model
                    .access_patterns()
                    .iter()
                    .any(|x| x.name == **p && x.kind == AccessKind::Read)
            })
            .map(|p| format!("`{p}`"))
            .collect();
        let shape = format!(
            "one `{}Bucket` per parent and {} of `{}` (about {} `{}`s, {})",
            c.document,
            c.window.as_str(),
            c.time,
            human_count(c.typical_items),
            c.element,
            crate::statistics::human_bytes(c.typical_items * c.item_bytes)
        );
        let (outcome, reason) = batch.said(
            w,
            (
                format!("stores `{}` in buckets by {} of `{}`", c.element, c.window.as_str(), c.time),
                format!(
                    "{shape}: {} {} a few buckets instead of a document per `{}`, saving {}; each create appends to its window's bucket, {}",
                    reads.join(", "),
                    if reads.len() == 1 { "reads" } else { "read" },
                    c.element,
                    about(human_ru_per_second(saves)),
                    about(human_ru_per_second(adds))
                ),
            ),
            format!("keeps a document per `{}`", c.element),
            (&shape, "other buckets"),
            format!(
                "{shape} would save {} on the reads but add {} to the creates (each rewrites a bucket of about {} instead of writing {}): the workload's RU/s would not drop",
                about(human_ru_per_second(saves)),
                about(human_ru_per_second(adds)),
                crate::statistics::human_bytes(c.typical_items * c.item_bytes / 2.0),
                crate::statistics::human_bytes(c.item_bytes)
            ),
        );
        trace
            .record(Rule::Bucket, self.subject(c), outcome, reason)
            .with("window", c.window.as_str())
            .with("time", c.time.as_str())
            .with("typicalItems", units::round(c.typical_items));
    }
}

/// For each child a bucket can serve, one candidate per window that fits (longest
/// first); the children that cannot be bucketed are refused with the reason.
fn shapes(model: &DomainModel, stats: &Statistics, containers: &[Container], trace: &mut Trace) -> Vec<Vec<Candidate>> {
    let by_element = patterns_by_element(model);
    let mut out = Vec::new();
    for c in containers.iter().filter(|c| c.kind == ContainerKind::Aggregate) {
        for d in c
            .document_types
            .iter()
            .filter(|d| matches!(d.role, Role::Entity | Role::ValueObject))
        {
            let child = Child {
                model,
                stats,
                containers,
                c,
                d,
            };
            out.extend(child.windows(&by_element, trace));
        }
    }
    out
}

/// The patterns that start at or return each element, each list in name order. Only
/// looked up (each list sorted alone): its order reaches no output.
fn patterns_by_element(model: &DomainModel) -> NameMap<&str, Vec<&AccessPattern>> {
    let mut by_element: NameMap<&str, Vec<&AccessPattern>> = NameMap::default();
    for p in model.access_patterns() {
        // Each element once, whether it starts the pattern, is returned, or both.
        let mut elements: Vec<&str> = p.returns.iter().map(String::as_str).collect();
        elements.push(p.start.as_str());
        elements.sort_unstable();
        elements.dedup();
        for element in elements {
            by_element.entry(element).or_default().push(p);
        }
    }
    for list in by_element.values_mut() {
        list.sort_by(|a, b| a.name.cmp(&b.name));
    }
    by_element
}

/// A child document type `d` of container `c`, with what weighing its buckets needs.
struct Child<'a> {
    model: &'a DomainModel,
    stats: &'a Statistics,
    containers: &'a [Container],
    c: &'a Container,
    d: &'a crate::logical_model::DocumentType,
}

impl Child<'_> {
    /// One candidate per window that fits (longest first), when a bucket can serve the
    /// child; the refusal recorded when it cannot and the child is written.
    fn windows(&self, by_element: &NameMap<&str, Vec<&AccessPattern>>, trace: &mut Trace) -> Option<Vec<Candidate>> {
        let Child {
            model,
            stats,
            containers,
            c,
            d,
        } = *self;
        let element = d.source.as_str();
        let touching: &[&AccessPattern] = by_element.get(element).map(Vec::as_slice).unwrap_or_default();
        let reads: Vec<&AccessPattern> = touching
            .iter()
            .copied()
            .filter(|p| p.kind == AccessKind::Read)
            .collect();
        let creates = stats.creates_per_second(element);
        // Not read by time, or never created: nothing to bucket, nothing to say.
        let time = reads.iter().find_map(|p| time_of(model, p))?;
        let mut refuse = |reason: String| {
            trace.record(
                Rule::Bucket,
                element,
                format!("keeps a document per `{element}`"),
                reason,
            );
        };
        if let Some(reason) = unservable(containers, c, d, touching, &time) {
            // Never written: nothing piles up, nothing to say.
            if touching.iter().any(|p| p.kind == AccessKind::Write) {
                refuse(reason);
            }
            return None;
        }
        if creates <= 0.0 {
            return None;
        }
        let root = c.document_types.iter().find(|r| r.role == Role::Root);
        let parents = root.map_or(1.0, |r| facts::count_of(model, &r.source)).max(1.0);
        let per_parent = creates / parents;
        let item_bytes = d.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES);
        let fits = |n: f64| (2.0..=BUCKET_MAX_ITEMS).contains(&n) && DEFAULT_SKEW * n * item_bytes <= MAX_ITEM_BYTES;
        let windows: Vec<Candidate> = BucketWindow::ALL
            .into_iter()
            .filter(|w| fits(per_parent * w.seconds()))
            .map(|window| Candidate {
                container: c.name.clone(),
                document: d.name.clone(),
                element: element.to_string(),
                time: time.clone(),
                window,
                typical_items: per_parent * window.seconds(),
                item_bytes,
                patterns: touching.iter().map(|p| p.name.clone()).collect(),
            })
            .collect();
        if windows.is_empty() {
            refuse(format!(
            "a parent gets about {} `{element}`s a minute and {} a day: no window of a minute, an hour or a day holds 2 to {} of them within the item size limit",
            human_count(per_parent * 60.0),
            human_count(per_parent * 86_400.0),
            human_count(BUCKET_MAX_ITEMS)
        ));
            return None;
        }
        Some(windows)
    }
}

/// The date-time attribute a read of a child sorts or ranges on, when it does.
fn time_of(model: &DomainModel, p: &AccessPattern) -> Option<String> {
    let is_time = |name: &str| {
        model
            .element(&p.start)
            .and_then(|e| e.attributes().iter().find(|a| a.name == name).map(|a| a.ty))
            == Some(AttributeType::DateTime)
    };
    p.sort_keys()
        .iter()
        .map(|k| k.attribute)
        .chain(
            p.filters()
                .into_iter()
                .flatten()
                .filter(|f| f.is_range())
                .map(|f| f.attribute),
        )
        .find(|a| is_time(a))
        .map(str::to_string)
}

/// Why `d`'s documents (in `c`) cannot become buckets by `time`, if they cannot.
fn unservable(
    containers: &[Container],
    c: &Container,
    d: &DocumentType,
    touching: &[&AccessPattern],
    time: &str,
) -> Option<String> {
    let element = d.source.as_str();
    let key = c.partition_key_property.as_str();
    let root_identity = c
        .document_types
        .iter()
        .find(|r| r.role == Role::Root)
        .and_then(|r| r.id.attribute());
    if !c.sub_partition_key_properties.is_empty() || root_identity != Some(key) {
        return Some(format!(
            "`{}` is not partitioned by its root's identity alone, so a bucket would not hold one parent's `{element}`s",
            c.name
        ));
    }
    if d.parent.is_some() {
        return Some(format!(
            "`{element}` belongs to an entity below the root: its bucket would mix parents"
        ));
    }
    if let Some(other) = c
        .document_types
        .iter()
        .find(|x| x.parent.as_ref().is_some_and(|l| l.entity == element))
    {
        return Some(format!(
            "`{}` documents belong to each `{element}`, which a bucket item cannot own",
            other.name
        ));
    }
    if super::copied(containers, c, d)
        || containers.iter().flat_map(|k| &k.document_types).any(|k| {
            k.computed.iter().any(|v| v.document_type == d.name)
                || k.embedded
                    .iter()
                    .any(|e| e.subset.as_ref().is_some_and(|s| s.document_type == d.name))
        })
    {
        return Some(format!(
            "`{element}` documents are copied, counted or kept as a subset elsewhere, which reads them one by one"
        ));
    }
    for p in touching {
        match p.kind {
            AccessKind::Write if p.write != Some(WriteOperation::Create) => {
                return Some(format!(
                    "`{}` replaces or deletes `{element}`s: a bucket's items are written once",
                    p.name
                ));
            }
            AccessKind::Write => {}
            AccessKind::Read => {
                let by_parent = p.equality_filters() == [key];
                let ranges_on_time = p
                    .filters()
                    .into_iter()
                    .flatten()
                    .filter(|f| f.op != FilterOp::Equal)
                    .all(|f| f.is_range() && f.attribute == time);
                let sorted_by_time = p.sort_keys().iter().all(|k| k.attribute == time);
                let plain = p.start == element
                    && p.project.is_empty()
                    && p.counts.is_empty()
                    && p.returns.iter().all(|r| r == element);
                if !(by_parent && ranges_on_time && sorted_by_time && plain) {
                    return Some(format!(
                        "`{}` reads `{element}` otherwise than by its parent's `{key}` and a range or sort on `{time}`, which buckets by `{time}` cannot serve",
                        p.name
                    ));
                }
            }
        }
    }
    None
}

/// `containers` with each candidate's child documents replaced by buckets.
fn bucketed(containers: &[Container], candidates: &[Candidate]) -> Vec<Container> {
    let mut out = containers.to_vec();
    for k in candidates {
        let Some(c) = out.iter_mut().find(|c| c.name == k.container) else {
            continue;
        };
        let Some(at) = c.document_types.iter().position(|d| d.name == k.document) else {
            continue;
        };
        let documents = c.document_types.make_mut();
        let d = documents.remove(at);
        documents.insert(at, bucket_of(&d, k));
    }
    out
}

/// The bucket document type that holds `d`'s documents as items.
fn bucket_of(d: &DocumentType, k: &Candidate) -> DocumentType {
    // An entity's items keep its identity (a document's `id` before).
    let mut attributes = d.attributes.clone();
    if let IdSource::Identity { attribute } = &d.id {
        if !attributes.iter().any(|a| &a.name == attribute) {
            attributes.insert(0, Property::text(attribute));
        }
    }
    let items = d
        .containment
        .as_ref()
        .map(|c| c.property.clone())
        .unwrap_or_else(|| cosmap_domain::naming::plural(&crate::discriminator(&d.name)));
    let name = format!("{}Bucket", d.name);
    DocumentType {
        discriminator: crate::discriminator(&name),
        name,
        role: Role::Bucket,
        id: IdSource::Identity {
            attribute: "window".to_string(),
        },
        parent: None,
        attributes: vec![Property {
            description: Some(format!(
                "The {}: the first {} characters of the items' `{}` (UTC RFC 3339).",
                k.window.as_str(),
                k.window.prefix_len(),
                k.time
            )),
            ..Property::text("window")
        }],
        embedded: vec![Embedded {
            name: items.clone(),
            source: d.source.clone(),
            kind: EmbeddedKind::ValueObject,
            many: true,
            max: None,
            attributes,
            embedded: d.embedded.clone(),
            references: d.references.clone(),
            subset: None,
            description: d.description.clone(),
        }],
        references: Vec::new(),
        copy_of: None,
        claim_of: None,
        description: Some(format!(
            "The `{}`s of one parent written in one {} of `{}`.",
            d.source,
            k.window.as_str(),
            k.time
        )),
        computed: Vec::new(),
        bucket: Some(Box::new(BucketOf {
            element: d.source.clone(),
            time: k.time.clone(),
            window: k.window,
            items,
            typical_items: k.typical_items,
        })),
        estimated_size_bytes: Some(k.typical_items * k.item_bytes + 200.0),
        ..d.clone()
    }
}
