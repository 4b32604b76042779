use serde::{Deserialize, Serialize};

/// Per-model overrides of the mapper's thresholds; each unset field keeps the
/// mapper's documented default (see `cosmap-mapper`'s `Thresholds`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThresholdOverrides {
    /// Largest bounded list of value objects embedded as an array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub few_max_items: Option<u64>,
    /// A value object is "updated often" when its updates per second exceed its
    /// parent's by this factor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_ratio: Option<f64>,
    /// ... and are at least this many per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_updates_per_second: Option<f64>,
    /// Largest estimated document size (bytes) that embedding may produce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_embedded_document_bytes: Option<f64>,
    /// An access pattern is "frequent" at this many executions per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frequent_per_second: Option<f64>,
    /// A container is "large" from this estimated storage in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub large_container_bytes: Option<f64>,
    /// Largest estimated storage (bytes) of an orphan aggregate kept in the dictionary container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dictionary_max_bytes: Option<f64>,
    /// Largest access rate (operations per second) of an orphan aggregate kept in the dictionary container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dictionary_max_operations_per_second: Option<f64>,
    /// Most instances (after `growthYears`) of an orphan aggregate kept in the dictionary container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dictionary_max_items: Option<f64>,
    /// Most writes per second of an orphan aggregate kept in the dictionary container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dictionary_max_writes_per_second: Option<f64>,
    /// Largest estimated logical partition (bytes, after `growthYears`) a partition key
    /// other than the root's identity may make.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logical_partition_max_bytes: Option<f64>,
    /// Largest RU/s one logical partition may be estimated to serve under such a key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logical_partition_max_ru_per_second: Option<f64>,
    /// How many years of growth (creates minus deletes, at the write patterns' rates)
    /// a logical partition must still hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth_years: Option<f64>,
    /// How much cheaper (a share, 0.05 for 5%) a design must be before a decision
    /// moves away from what MR1–MR6 chose, so that a small change of a rate does
    /// not flip it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_margin: Option<f64>,
    /// The throughput the account will provision, which sets each container's physical
    /// partitions (with its storage after `growthYears`); unset, the design's own peak load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<Throughput>,
}

/// Provisioned throughput, as the account will have it: a container's physical
/// partitions are max(its storage after `growthYears` / 50 GB, these RU/s / 10,000), and
/// every cross-partition query of it checks that many.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Throughput {
    /// RU/s provisioned on each container (manual, or its autoscale maximum with `autoscale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<f64>,
    /// RU/s provisioned on the database and shared by its containers: each container's
    /// data spreads over the partitions this throughput gives (set `container` or this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<f64>,
    /// Whether the figure is an autoscale maximum (partitions follow the maximum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autoscale: Option<bool>,
    /// Without `container` or `database`: each container is provisioned with its own peak
    /// load (the design's estimate) times this factor (default 1: no headroom).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headroom: Option<f64>,
}
