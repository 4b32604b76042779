//! Numbers: volumes, sizes and frequencies must be finite, not negative, and plausible.

use super::Checker;
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::{Attribute, AttributeType, Throughput, Volume};

use crate::limits::{LOGICAL_PARTITION_BYTES, LOGICAL_PARTITION_RU_PER_SECOND, MAX_ITEM_BYTES};
/// Largest plausible instance count (a thousand trillion).
pub const MAX_COUNT: f64 = 1e15;
/// Largest plausible rate: a billion operations per second.
pub const MAX_PER_SECOND: f64 = 1e9;
/// The least throughput Cosmos DB provisions on a container or database: 400 RU/s.
pub const MIN_PROVISIONED_RU_PER_SECOND: f64 = 400.0;

impl Checker<'_> {
    pub(super) fn check_numbers(&mut self) {
        let spec = self.spec;
        for (i, entity) in spec.entities.iter().enumerate() {
            self.check_attribute_values(&entity.attributes, &|| Self::entity_path(i));
            if let Some(volume) = &entity.volume {
                self.check_volume(volume, &|| Self::entity_path(i).key("volume"));
            }
        }
        for (i, vo) in spec.value_objects.iter().enumerate() {
            self.check_attribute_values(&vo.attributes, &|| Self::value_object_path(i));
            if let Some(volume) = &vo.volume {
                self.check_volume(volume, &|| Self::value_object_path(i).key("volume"));
            }
        }
        for (i, rel) in spec.relationships.iter().enumerate() {
            // Built only for a problem: a valid model needs no path.
            let path = || JsonPath::root().key("relationships").index(i);
            if let Some(rate) = rel.updates_per_second {
                let what = "number of updates per second";
                self.check_range(rate, &|| path().key("updatesPerSecond"), 0.0, MAX_PER_SECOND, what);
            }
            if let Some(avg) = rel.avg {
                let bound = rel.max.map_or(MAX_COUNT, |m| m as f64);
                let what = "typical number of targets per source (`avg`)";
                self.check_range(avg, &|| path().key("avg"), 0.0, bound, what);
            }
            if let Some(max) = rel.max.filter(|&max| max as f64 > MAX_COUNT) {
                self.report(
                    Diagnostic::new(path().key("max"), format!("a bound of {max} is not plausible"))
                        .help(format!("give the real largest number of `{}` per `{}` (at most {}), or use `squillions` without `max` when there is no useful bound", rel.to, rel.from, show(MAX_COUNT))),
                );
            }
        }
        for (i, pattern) in spec.access_patterns.iter().enumerate() {
            let path = || JsonPath::root().key("accessPatterns").index(i).key("perSecond");
            let what = "number of executions per second";
            self.check_range(pattern.per_second, &path, 0.0, MAX_PER_SECOND, what);
        }
        if let Some(t) = &spec.thresholds {
            self.check_thresholds(t);
        }
    }

    /// `thresholds` `t`: each figure within its plausible range, `fewMaxItems` at
    /// least 1, and the throughput setting.
    fn check_thresholds(&mut self, t: &crate::model::ThresholdOverrides) {
        let path = JsonPath::root().key("thresholds");
        if t.few_max_items == Some(0) {
            self.report(
                Diagnostic::new(path.key("fewMaxItems"), "`fewMaxItems` must be at least 1")
                    .help("it is the largest list that is embedded"),
            );
        }
        let fields = [
            ("updateRatio", t.update_ratio, f64::MAX),
            ("minUpdatesPerSecond", t.min_updates_per_second, MAX_PER_SECOND),
            (
                "maxEmbeddedDocumentBytes",
                t.max_embedded_document_bytes,
                MAX_ITEM_BYTES,
            ),
            ("frequentPerSecond", t.frequent_per_second, MAX_PER_SECOND),
            ("largeContainerBytes", t.large_container_bytes, f64::MAX),
            ("dictionaryMaxBytes", t.dictionary_max_bytes, f64::MAX),
            (
                "dictionaryMaxOperationsPerSecond",
                t.dictionary_max_operations_per_second,
                MAX_PER_SECOND,
            ),
            ("dictionaryMaxItems", t.dictionary_max_items, MAX_COUNT),
            (
                "dictionaryMaxWritesPerSecond",
                t.dictionary_max_writes_per_second,
                MAX_PER_SECOND,
            ),
            (
                "logicalPartitionMaxBytes",
                t.logical_partition_max_bytes,
                LOGICAL_PARTITION_BYTES,
            ),
            (
                "logicalPartitionMaxRuPerSecond",
                t.logical_partition_max_ru_per_second,
                LOGICAL_PARTITION_RU_PER_SECOND,
            ),
            ("growthYears", t.growth_years, 100.0),
            ("decisionMargin", t.decision_margin, 0.5),
        ];
        for (name, value, max) in fields {
            if let Some(value) = value {
                self.check_range(value, &|| path.key(name), 0.0, max, &format!("`{name}`"));
            }
        }
        if let Some(throughput) = &t.throughput {
            self.check_throughput(throughput, &path.key("throughput"));
        }
    }

    /// `thresholds.throughput` (at `path`): RU/s Cosmos DB can provision (at least its
    /// 400 RU/s minimum), on containers or on the database but not both, and a headroom
    /// of at least 1 only where no figure is given.
    fn check_throughput(&mut self, t: &Throughput, path: &JsonPath) {
        for (name, value) in [("container", t.container), ("database", t.database)] {
            if let Some(value) = value {
                let what = "provisioned throughput (RU/s)";
                self.check_range(
                    value,
                    &|| path.key(name),
                    MIN_PROVISIONED_RU_PER_SECOND,
                    MAX_PER_SECOND,
                    what,
                );
            }
        }
        if t.container.is_some() && t.database.is_some() {
            self.report(
                Diagnostic::new(
                    path.key("database"),
                    "throughput is given both per container and for the database",
                )
                .help("keep `container` (RU/s each container has) or `database` (RU/s its containers share), not both"),
            );
        }
        if let Some(headroom) = t.headroom {
            if t.container.is_some() || t.database.is_some() {
                self.report(
                    Diagnostic::new(path.key("headroom"), "`headroom` applies only when no throughput is given")
                        .help("remove `headroom`, or remove `container` and `database` to size each container by its own load times the headroom"),
                );
            } else {
                self.check_range(headroom, &|| path.key("headroom"), 1.0, 100.0, "`headroom`");
            }
        }
    }

    /// Checks a volume at `path` (built only for a problem).
    fn check_volume(&mut self, volume: &Volume, path: &dyn Fn() -> JsonPath) {
        if let Some(count) = volume.count {
            self.check_range(count, &|| path().key("count"), 0.0, MAX_COUNT, "instance count");
        }
        if let Some(size) = volume.avg_size_bytes {
            if size > MAX_ITEM_BYTES && size.is_finite() {
                self.report(
                    Diagnostic::new(path().key("avgSizeBytes"), format!("an average size of {} bytes is over Cosmos DB's 2 MB item limit", show(size)))
                        .help("split the data into smaller entities or value objects, or store large blobs elsewhere (for example Blob Storage) and keep a link"),
                );
            } else {
                self.check_range(
                    size,
                    &|| path().key("avgSizeBytes"),
                    0.0,
                    MAX_ITEM_BYTES,
                    "average size in bytes",
                );
            }
        }
    }

    /// Per attribute: `distinctValues` of at least 1, a `largestValueShare` above 0 and
    /// at most 1 (and at least the even share `1 / distinctValues`), and no `unique` boolean.
    /// `element` is the element's path, built only for a problem.
    fn check_attribute_values(&mut self, attributes: &[Attribute], element: &dyn Fn() -> JsonPath) {
        for (a, attribute) in attributes.iter().enumerate() {
            if attribute.distinct_values == Some(0) {
                let path = element().key("attributes").index(a).key("distinctValues");
                self.report(
                    Diagnostic::new(path, "`distinctValues` is 0: every instance holds some value")
                        .help("give how many different values occur, 1 or more, or remove `distinctValues`"),
                );
            }
            if let Some(share) = attribute.largest_value_share {
                let path = || element().key("attributes").index(a).key("largestValueShare");
                let even = attribute.distinct_values.filter(|&d| d > 0).map(|d| 1.0 / d as f64);
                if !share.is_finite() || share <= 0.0 || share > 1.0 {
                    self.report(
                        Diagnostic::new(path(), format!("`largestValueShare` is {}: it is a share of the instances", show(share)))
                            .help("give a number above 0 and at most 1, for example 0.05 when the most common value is held by one instance in twenty"),
                    );
                } else if let Some(even) = even.filter(|&even| share < even * (1.0 - 1e-9)) {
                    self.report(
                        Diagnostic::new(
                            path(),
                            format!(
                                "`largestValueShare` is {}, less than the even share 1 / {} = {}: the most common value is held by at least that share",
                                show(share),
                                attribute.distinct_values.unwrap_or(1),
                                show(even)
                            ),
                        )
                        .help("raise `largestValueShare` to at least 1 / distinctValues, or correct `distinctValues`"),
                    );
                }
            }
            if attribute.unique && attribute.ty == AttributeType::Boolean {
                let path = element().key("attributes").index(a).key("unique");
                self.report(
                    Diagnostic::new(
                        path,
                        format!(
                            "`{}` is a unique boolean: at most two instances could exist",
                            attribute.name
                        ),
                    )
                    .help(
                        "remove `unique`, or make the attribute a string or an integer if its values really are unique",
                    ),
                );
            }
        }
    }

    /// Reports `value` unless it is finite and from `min` to `max`; `path` is built only then.
    fn check_range(&mut self, value: f64, path: &dyn Fn() -> JsonPath, min: f64, max: f64, what: &str) {
        if !value.is_finite() || value < min || value > max {
            let help = if max == f64::MAX {
                format!("use a finite number of at least {}", show(min))
            } else {
                format!("use a number from {} to {}", show(min), show(max))
            };
            self.report(Diagnostic::new(path(), format!("{} is not a valid {what}", show(value))).help(help));
        }
    }
}

/// A number as a person would write it: `1e308` rather than 309 digits.
fn show(value: f64) -> String {
    if value.is_finite() && value != 0.0 && (value.abs() >= 1e9 || value.abs() < 1e-4) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::{show, MAX_ITEM_BYTES};

    #[test]
    fn shows_numbers_briefly() {
        assert_eq!(show(1e308), "1e308");
        assert_eq!(show(-1000.0), "-1000");
        assert_eq!(show(0.5), "0.5");
        assert_eq!(show(MAX_ITEM_BYTES), "2097152");
    }
}
