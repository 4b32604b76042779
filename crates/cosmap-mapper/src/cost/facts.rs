//! The sizes and counts the estimate needs, for one design: documents per type,
//! item sizes, indexed paths, storage and partition key values per container.

use std::collections::BTreeMap;

use cosmap_domain::{DomainModel, Element};

use super::constants::{DEFAULT_ITEM_BYTES, DEFAULT_SKEW};
use crate::logical_model::{Container, ContainerKind, DocumentType, Embedded, Role};
use crate::options::Thresholds;
use crate::statistics::Statistics;

/// One document type's figures.
#[derive(Debug, Clone)]
pub(crate) struct DocFacts {
    pub count: f64,
    pub bytes: f64,
    pub indexed_paths: usize,
    /// Top-level properties besides `id`, `type` and the partition key (a short
    /// form returns a share of the bytes by their number).
    pub properties: usize,
    /// For a bucket: the children it typically holds.
    pub bucket_items: Option<f64>,
    /// The copies and feeds of it in other containers, each kept by its own sync from
    /// this document's change feed: a rewrite of it reaches each of them.
    pub copies: usize,
}

/// One container's figures.
#[derive(Debug, Clone, Default)]
pub(crate) struct ContainerFacts {
    pub documents: BTreeMap<String, DocFacts>,
    pub storage_bytes: f64,
    /// Storage after the model's `growthYears` ([`storage_after`]): what its physical
    /// partitions must hold, since partitions split as data grows and never merge back.
    pub grown_storage_bytes: f64,
    /// The `growthYears` [`ContainerFacts::grown_storage_bytes`] is taken after.
    pub growth_years: f64,
    /// Distinct partition key values (logical partitions).
    pub partition_key_values: f64,
    /// The share of the container's data (and traffic) in its largest logical
    /// partition: an even share under the root's identity, the key's skew otherwise.
    pub largest_partition_share: f64,
    /// Under a hierarchical key, for each proper prefix (its first level, then its
    /// first two): the distinct prefix values and the share under the most common.
    pub prefixes: Vec<(f64, f64)>,
    pub dictionary: bool,
}

impl ContainerFacts {
    /// Logical partitions that share one value of the first `levels` levels of the key
    /// (all of it, or a prefix of a hierarchical key): (distinct values, largest share).
    pub(crate) fn values_of_prefix(&self, levels: usize) -> (f64, f64) {
        match levels.checked_sub(1).and_then(|i| self.prefixes.get(i)) {
            Some(&prefix) => prefix,
            None => (self.partition_key_values, self.largest_partition_share),
        }
    }
}

/// Figures of every container of a design, by name.
pub(crate) type Facts = BTreeMap<String, ContainerFacts>;

/// The instance count of `element`: its declared count, or (for a member without
/// one) its parent's count times the relationship's typical count (`avg`, else its
/// bound), up the aggregate's tree.
/// A relationship back up the tree (a member referring to its root) is no parent:
/// the walk stops where it would go round.
pub(crate) fn count_of(model: &DomainModel, element: &str) -> f64 {
    let mut factor = 1.0;
    let mut current = element;
    // The elements walked through after `element` (which is compared apart): most
    // walks end one step up, at a declared count, without a list made.
    let mut walked: Vec<&str> = Vec::new();
    let mut first = true;
    loop {
        let declared = model.element(current).and_then(|e| e.volume()).and_then(|v| v.count);
        if let Some(count) = declared {
            return factor * count;
        }
        let round = !first && (current == element || walked.contains(&current));
        let parent = model.parent_relationship(current).filter(|_| !round);
        let Some(r) = parent else {
            return factor;
        };
        if !first {
            walked.push(current);
        }
        first = false;
        factor *= r.typical().unwrap_or(1.0);
        current = &r.from;
    }
}

/// Seconds in a year of 365.25 days.
pub(crate) const SECONDS_PER_YEAR: f64 = 365.25 * 24.0 * 3600.0;

/// The instance count of `element` after `years`: its count now plus the creates
/// minus the deletes of the write patterns that start at or return it; with a TTL
/// (seconds), the steady state of creates times the TTL. Never fewer than now.
pub(crate) fn count_after(model: &DomainModel, stats: &Statistics, element: &str, ttl: Option<i64>, years: f64) -> f64 {
    let now = count_of(model, element);
    let (creates, deletes) = (stats.creates_per_second(element), stats.deletes_per_second(element));
    match ttl.filter(|&ttl| ttl > 0) {
        Some(ttl) => now.max(creates * ttl as f64),
        None => now + (creates - deletes).max(0.0) * years * SECONDS_PER_YEAR,
    }
}

/// [`super::documents_today`].
pub(crate) fn documents_today(model: &DomainModel, d: &DocumentType) -> f64 {
    documents_of(d, count_of(model, &d.source))
}

/// How many documents of type `d` there are when its element has `count` instances:
/// all of them, but for a feed only the newest it keeps.
fn documents_of(d: &DocumentType, count: f64) -> f64 {
    // A bucket holds many children of its element.
    if let Some(b) = &d.bucket {
        return count / b.typical_items.max(1.0);
    }
    match d.copy_of.as_ref().and_then(|of| of.newest) {
        Some(newest) => count.min(newest as f64),
        None => count,
    }
}

/// Storage of `c` after `years` of growth ([`count_after`] for each document type).
pub(crate) fn storage_after(model: &DomainModel, stats: &Statistics, c: &Container, years: f64) -> f64 {
    c.document_types
        .iter()
        .map(|d| {
            let count = documents_of(d, count_after(model, stats, &d.source, c.default_ttl, years));
            count * d.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES)
        })
        .sum()
}

/// The bytes of `c`'s largest logical partition after `years`: one aggregate's
/// share of the grown storage under the root's identity (aggregates and their
/// members grow alike), one claim per claimed attribute in a claims container
/// (partitioned by the value), the key's largest share of it otherwise.
pub(crate) fn largest_partition_after(
    model: &DomainModel,
    stats: &Statistics,
    c: &Container,
    f: &ContainerFacts,
    years: f64,
) -> f64 {
    if c.kind == ContainerKind::Claims {
        // Partitioned by the claimed value: a logical partition holds at most one
        // claim of each claimed attribute (two attributes may claim the same value),
        // however many values there are.
        return c
            .document_types
            .iter()
            .map(|d| d.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES))
            .sum();
    }
    let storage = storage_after(model, stats, c, years);
    // The key's last level: one aggregate per logical partition when it is the identity.
    let last = c.partition_key_properties().last().copied().unwrap_or_default();
    let by_identity = c
        .document_types
        .iter()
        .filter(|d| d.role == Role::Root)
        .all(|d| d.id.attribute() == Some(last));
    if by_identity {
        let roots: f64 = c
            .document_types
            .iter()
            .filter(|d| d.role == Role::Root)
            .map(|d| count_after(model, stats, &d.source, c.default_ttl, years))
            .sum();
        storage / roots.max(1.0)
    } else {
        storage * f.largest_partition_share
    }
}

/// The declared size of one `element`, or 1 KB.
pub(crate) fn bytes_of(model: &DomainModel, element: &str) -> f64 {
    element_bytes(model.element(element))
}

/// The declared size of one instance of `element` (when there is one), or 1 KB.
fn element_bytes(element: Option<Element<'_>>) -> f64 {
    element
        .and_then(|e| e.volume())
        .and_then(|v| v.avg_size_bytes)
        .unwrap_or(DEFAULT_ITEM_BYTES)
}

/// Facts of a design's containers (the MR-only or the optimised design). Collected,
/// not inserted one by one: the containers are sorted by name first (references,
/// small to move), so the map is built from facts already in order (the last of a
/// name kept, as inserting would).
/// Each container's storage is also taken after the model's `growthYears` (its
/// threshold, or the default).
pub(crate) fn of_containers(model: &DomainModel, containers: &[Container]) -> Facts {
    let mut sorted: Vec<&Container> = containers.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let stats = Statistics::new(model);
    let years = Thresholds::default().with(&model.thresholds()).growth_years;
    let mut facts: Facts = sorted
        .into_iter()
        .map(|c| {
            let mut f = container_facts(model, c);
            // Never less than today's: a container does not give partitions back.
            f.grown_storage_bytes = storage_after(model, &stats, c, years).max(f.storage_bytes);
            f.growth_years = years;
            (c.name.clone(), f)
        })
        .collect();
    // Each copy or feed counted on its source.
    let sources = containers
        .iter()
        .flat_map(|c| c.document_types.iter())
        .filter_map(|d| d.copy_of.as_ref());
    for of in sources {
        let source = facts.get_mut(&of.container);
        if let Some(d) = source.and_then(|f| f.documents.get_mut(&of.document_type)) {
            d.copies += 1;
        }
    }
    facts
}

/// Facts of container `c`.
fn container_facts(model: &DomainModel, c: &Container) -> ContainerFacts {
    let index_all = c.indexing_policy.included_paths.iter().any(|p| p.path == "/*");
    let mut f = ContainerFacts {
        dictionary: c.kind == ContainerKind::Dictionary,
        ..ContainerFacts::default()
    };
    for d in &c.document_types {
        let count = documents_of(d, count_of(model, &d.source));
        let bytes = d.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES);
        let indexed_paths = if index_all {
            document_paths(d)
        } else {
            c.indexing_policy.included_paths.len()
        };
        f.storage_bytes += count * bytes;
        f.documents.insert(
            d.name.clone(),
            DocFacts {
                count,
                bytes,
                indexed_paths,
                properties: d.attributes.len() + d.embedded.len() + d.references.len(),
                bucket_items: d.bucket.as_ref().map(|b| b.typical_items),
                copies: 0,
            },
        );
    }
    let mut levels = partition_key_values(model, c);
    (f.partition_key_values, f.largest_partition_share) = levels.pop().unwrap_or((1.0, 1.0));
    f.prefixes = levels;
    f
}

/// For each prefix of `c`'s partition key (the first level, the first two, … the whole
/// key), the number of its values and the share of the data under the most common:
/// in a dictionary one per document type (the largest takes all of its type); in a
/// claims container one per claimed value (at most one claim per attribute); under
/// the root's identity one per aggregate; under an attribute of the root its
/// `distinctValues` and `largestValueShare`; under a reference of the root the
/// referenced root's count. Levels combine as if independent, never beyond one
/// value per aggregate. Without a declared share the most common value holds
/// `DEFAULT_SKEW` times its even share.
fn partition_key_values(model: &DomainModel, c: &Container) -> Vec<(f64, f64)> {
    if c.kind == ContainerKind::Dictionary {
        let types = (c.document_types.len() as f64).max(1.0);
        return vec![(types, 1.0 / types)];
    }
    if c.kind == ContainerKind::Claims {
        // One logical partition per claimed value (each claim's value is unique within
        // its attribute), holding at most one claim of each claimed attribute.
        let counts: Vec<f64> = c.document_types.iter().map(|d| count_of(model, &d.source)).collect();
        let values = counts.iter().copied().fold(1.0_f64, f64::max);
        let claims = counts.iter().sum::<f64>().max(1.0);
        return vec![(values, (counts.len() as f64 / claims).min(1.0))];
    }
    let roots: Vec<&DocumentType> = c.document_types.iter().filter(|d| d.role == Role::Root).collect();
    let aggregates = roots.iter().map(|d| count_of(model, &d.source)).sum::<f64>().max(1.0);
    let skewed = |distinct: f64, declared: Option<f64>| (distinct.max(1.0), largest_share(distinct, declared));
    let level = |property: &str| -> (f64, f64) {
        if let [root] = roots.as_slice() {
            if let Some(entity) = model.entity(&root.source) {
                if entity.identity != property {
                    if let Some(a) = entity.attributes.iter().find(|a| a.name == property) {
                        let distinct = a.distinct_values.map_or(aggregates, |d| d as f64);
                        return skewed(distinct, a.largest_value_share);
                    }
                    if let Some(r) = root.references.iter().find(|r| r.target_identity == property) {
                        return skewed(count_of(model, &r.target), None);
                    }
                }
            }
        }
        (aggregates, 1.0 / aggregates)
    };
    let mut prefixes: Vec<(f64, f64)> = Vec::new();
    let (mut values, mut share) = (1.0_f64, 1.0_f64);
    for property in c.partition_key_properties() {
        let (v, s) = level(property);
        values = (values * v).min(aggregates);
        share = (share * s).max(1.0 / aggregates);
        prefixes.push((values, share));
    }
    prefixes
}

/// The share of the data under the most common of `distinct` values: the declared
/// `largestValueShare`, else `DEFAULT_SKEW` times the even share (at most all).
pub(crate) fn largest_share(distinct: f64, declared: Option<f64>) -> f64 {
    declared.unwrap_or((DEFAULT_SKEW / distinct.max(1.0)).min(1.0))
}

/// Facts of the naive design: a container per entity and value object, by `/id`.
/// Collected, not inserted one by one: the names are sorted first (small to move),
/// so the map is built from facts already in order (the last of a name kept, as
/// inserting would).
pub(crate) fn of_naive(model: &DomainModel) -> Facts {
    let mut names: Vec<&str> = model
        .entities()
        .iter()
        .map(|e| e.name.as_str())
        .chain(model.value_objects().iter().map(|v| v.name.as_str()))
        .collect();
    names.sort();
    let stats = Statistics::new(model);
    let years = Thresholds::default().with(&model.thresholds()).growth_years;
    names
        .into_iter()
        .map(|name| {
            let mut f = naive_container(model, name);
            let bytes = f.documents.get(name).map_or(DEFAULT_ITEM_BYTES, |d| d.bytes);
            f.grown_storage_bytes = (count_after(model, &stats, name, None, years) * bytes).max(f.storage_bytes);
            f.growth_years = years;
            (name.to_string(), f)
        })
        .collect()
}

/// Facts of `name`'s own container in the naive design.
fn naive_container(model: &DomainModel, name: &str) -> ContainerFacts {
    let count = count_of(model, name);
    // Looked up once for its size, attributes and kind.
    let element = model.element(name);
    let bytes = element_bytes(element);
    let attributes = element.map_or(0, |e| e.attributes().len());
    let extra = usize::from(matches!(element, Some(Element::Entity(_))));
    let mut f = ContainerFacts {
        storage_bytes: count * bytes,
        partition_key_values: count.max(1.0),
        largest_partition_share: 1.0 / count.max(1.0),
        ..ContainerFacts::default()
    };
    f.documents.insert(
        name.to_string(),
        DocFacts {
            count,
            bytes,
            indexed_paths: attributes + extra + 2,
            properties: attributes,
            bucket_items: None,
            copies: 0,
        },
    );
    f
}

/// Paths a document has under Cosmos DB's default "index everything" policy.
pub(crate) fn document_paths(d: &DocumentType) -> usize {
    fn embedded(list: &[Embedded]) -> usize {
        list.iter()
            .map(|e| e.attributes.len() + 2 * e.references.len() + embedded(&e.embedded))
            .sum()
    }
    3 + d.attributes.len() + 2 * d.references.len() + embedded(&d.embedded)
}

#[cfg(test)]
mod tests {
    use cosmap_domain::{Aggregate, Cardinality, Entity, ModelBuilder, Relationship};

    /// A member's count is its parents' typical counts multiplied up the tree to the
    /// root's declared count, each step once, however deep (past the first step the
    /// walk keeps a list of where it has been).
    #[test]
    fn a_member_count_multiplies_up_the_tree_to_the_root() {
        let model = ModelBuilder::new("Deep")
            .entity(Entity::new("Root", "rootId").volume(10.0, 1000.0))
            .entity(Entity::new("A", "aId"))
            .entity(Entity::new("B", "bId"))
            .entity(Entity::new("C", "cId"))
            .entity(Entity::new("D", "dId"))
            .aggregate(Aggregate::new("Root").member("A").member("B").member("C").member("D"))
            .relationship(Relationship::new("Root", "A", Cardinality::Many).avg(5.0))
            .relationship(Relationship::new("A", "B", Cardinality::Many).avg(2.0))
            .relationship(Relationship::new("B", "C", Cardinality::Many).avg(3.0))
            .relationship(Relationship::new("C", "D", Cardinality::Many).avg(7.0))
            // A reference back to the root makes no parent of it: the walk ends there.
            .relationship(Relationship::new("D", "Root", Cardinality::One))
            .build()
            .expect("a valid model");
        let count = |name| super::count_of(&model, name);
        assert_eq!(count("Root"), 10.0);
        assert_eq!(count("A"), 50.0);
        assert_eq!(count("B"), 100.0);
        assert_eq!(count("C"), 300.0);
        assert_eq!(count("D"), 2100.0);
    }
}
