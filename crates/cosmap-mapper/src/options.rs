//! The mapper's thresholds: named, documented defaults, overridable by the model
//! file and then by the caller.

use cosmap_domain::ThresholdOverrides;
use serde::Serialize;

/// What counts as "a bounded few", "updated often", "frequent", "large" and
/// "small enough for the dictionary container".
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Thresholds {
    /// Largest bounded list of value objects embedded as an array (MR4).
    pub few_max_items: u64,
    /// A value object is updated often when its update rate exceeds its parent's
    /// write rate by this factor (MR4) ...
    pub update_ratio: f64,
    /// ... and is at least this many updates per second (MR4).
    pub min_updates_per_second: f64,
    /// Largest estimated document size, in bytes, that embedding may produce (MR4).
    pub max_embedded_document_bytes: f64,
    /// An access pattern is frequent from this many executions per second (copy).
    pub frequent_per_second: f64,
    /// A container is large from this estimated storage, in bytes (copy).
    pub large_container_bytes: f64,
    /// Largest estimated storage, in bytes, of an orphan aggregate in the dictionary container (MR5).
    pub dictionary_max_bytes: f64,
    /// Largest access rate, in operations per second, of an orphan aggregate in the dictionary container (MR5).
    pub dictionary_max_operations_per_second: f64,
    /// Most instances, after `growth_years`, of an orphan aggregate in the dictionary container (MR5).
    pub dictionary_max_items: f64,
    /// Most writes per second of an orphan aggregate in the dictionary container (MR5).
    pub dictionary_max_writes_per_second: f64,
    /// Largest estimated logical partition, in bytes after `growth_years`, that a
    /// partition key other than the root's identity may make (partitionKey).
    pub logical_partition_max_bytes: f64,
    /// Largest RU/s one logical partition may be estimated to serve under such a key (partitionKey).
    pub logical_partition_max_ru_per_second: f64,
    /// Years of growth a logical partition must still hold (partitionKey).
    pub growth_years: f64,
    /// How much cheaper (a share) the patterns a partition key changes must get before
    /// it replaces the root's identity, so that a small change of a rate does not flip
    /// the design (partitionKey).
    pub decision_margin: f64,
}

pub use cosmap_domain::limits::{
    LOGICAL_PARTITION_BYTES, LOGICAL_PARTITION_RU_PER_SECOND, MAX_ITEM_BYTES, PHYSICAL_PARTITION_BYTES,
};

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            // The usual "one-to-few" bound; 100 small objects stay a few KB.
            few_max_items: 100,
            // An order of magnitude more updates than the parent gets means most
            // rewrites of the parent document would be for the child alone.
            update_ratio: 10.0,
            // Below one update per second, rewriting the parent costs little.
            min_updates_per_second: 1.0,
            // A quarter of the 2 MB item limit: "well under", with room to grow.
            max_embedded_document_bytes: MAX_ITEM_BYTES / 4.0,
            // Ten a second is 864,000 a day: worth a copy when it fans out.
            frequent_per_second: 10.0,
            // More than one physical partition's worth of data: cross-partition
            // queries then check several partitions' indexes.
            large_container_bytes: PHYSICAL_PARTITION_BYTES,
            // The dictionary container is partitioned by `type`, so each dictionary
            // is one logical partition (20 GB): keep a tenth of that.
            dictionary_max_bytes: LOGICAL_PARTITION_BYTES / 10.0,
            // ... and a tenth of a logical partition's 10,000 RU/s, at >= 1 RU per operation.
            dictionary_max_operations_per_second: LOGICAL_PARTITION_RU_PER_SECOND / 10.0,
            // A dictionary is read whole by one query: ten thousand items is a hundred
            // pages already, and more is a catalogue, not a dictionary.
            dictionary_max_items: 10_000.0,
            // Reference data changes rarely: an aggregate written more than once a
            // second has a life of its own, and its writes would share one logical
            // partition with every read of it.
            dictionary_max_writes_per_second: 1.0,
            // Half of a logical partition's 20 GB: the estimate is rough, and a full
            // logical partition refuses every write.
            logical_partition_max_bytes: LOGICAL_PARTITION_BYTES / 2.0,
            // Half of a logical partition's 10,000 RU/s: bursts and skew beyond the
            // estimate are throttled, not spread.
            logical_partition_max_ru_per_second: LOGICAL_PARTITION_RU_PER_SECOND / 2.0,
            // A partition key cannot be changed without moving every document:
            // choose one that lasts.
            growth_years: 5.0,
            // Estimates are rough to tens of percent: a 5% difference is noise, and a
            // key that moves costs a migration of every document.
            decision_margin: 0.05,
        }
    }
}

impl Thresholds {
    /// These thresholds with every field that `overrides` sets replaced.
    pub fn with(mut self, overrides: &ThresholdOverrides) -> Self {
        let o = overrides;
        self.few_max_items = o.few_max_items.unwrap_or(self.few_max_items);
        self.update_ratio = o.update_ratio.unwrap_or(self.update_ratio);
        self.min_updates_per_second = o.min_updates_per_second.unwrap_or(self.min_updates_per_second);
        self.max_embedded_document_bytes = o
            .max_embedded_document_bytes
            .unwrap_or(self.max_embedded_document_bytes);
        self.frequent_per_second = o.frequent_per_second.unwrap_or(self.frequent_per_second);
        self.large_container_bytes = o.large_container_bytes.unwrap_or(self.large_container_bytes);
        self.dictionary_max_bytes = o.dictionary_max_bytes.unwrap_or(self.dictionary_max_bytes);
        self.dictionary_max_operations_per_second = o
            .dictionary_max_operations_per_second
            .unwrap_or(self.dictionary_max_operations_per_second);
        self.dictionary_max_items = o.dictionary_max_items.unwrap_or(self.dictionary_max_items);
        self.dictionary_max_writes_per_second = o
            .dictionary_max_writes_per_second
            .unwrap_or(self.dictionary_max_writes_per_second);
        self.logical_partition_max_bytes = o
            .logical_partition_max_bytes
            .unwrap_or(self.logical_partition_max_bytes);
        self.logical_partition_max_ru_per_second = o
            .logical_partition_max_ru_per_second
            .unwrap_or(self.logical_partition_max_ru_per_second);
        self.growth_years = o.growth_years.unwrap_or(self.growth_years);
        self.decision_margin = o.decision_margin.unwrap_or(self.decision_margin);
        self
    }
}

/// How to map: threshold overrides that win over the model file's, and names.
///
/// Built from [`Options::default`] and the setters (`Options::default().index_all(true)`),
/// so a new option is not a breaking change.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// Overrides applied after the model file's own `thresholds`.
    pub thresholds: ThresholdOverrides,
    /// Name of the container that holds small orphan aggregates (MR5).
    pub dictionary_container: String,
    /// Name of the container that holds uniqueness claims (uniqueClaim).
    pub claims_container: String,
    /// Name of the container that holds feeds (feed).
    pub feeds_container: String,
    /// Apply the physical optimisations (copies, embedded reference data).
    pub optimise: bool,
    /// Keep Cosmos DB's default indexing policy (index every path) instead of
    /// indexing only what the access patterns filter and sort on.
    pub index_all: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            thresholds: ThresholdOverrides::default(),
            dictionary_container: "Dictionary".to_string(),
            claims_container: "UniqueClaims".to_string(),
            feeds_container: "Feeds".to_string(),
            optimise: true,
            index_all: false,
        }
    }
}

impl Options {
    /// Threshold overrides that win over the model file's.
    pub fn thresholds(mut self, overrides: ThresholdOverrides) -> Self {
        self.thresholds = overrides;
        self
    }

    /// The name of the shared dictionary container (MR5); `Dictionary` by default.
    pub fn dictionary_container(mut self, name: impl Into<String>) -> Self {
        self.dictionary_container = name.into();
        self
    }

    /// The name of the uniqueness claims container (uniqueClaim); `UniqueClaims` by default.
    pub fn claims_container(mut self, name: impl Into<String>) -> Self {
        self.claims_container = name.into();
        self
    }

    /// The name of the feeds container (feed); `Feeds` by default.
    pub fn feeds_container(mut self, name: impl Into<String>) -> Self {
        self.feeds_container = name.into();
        self
    }

    /// Apply the physical optimisations (on by default).
    pub fn optimise(mut self, on: bool) -> Self {
        self.optimise = on;
        self
    }

    /// Keep Cosmos DB's default indexing policy (off by default).
    pub fn index_all(mut self, on: bool) -> Self {
        self.index_all = on;
        self
    }
}
