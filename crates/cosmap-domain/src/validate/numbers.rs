//! Numbers: volumes, sizes and frequencies must be finite, not negative, and plausible.

use super::Checker;
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::Volume;

/// Cosmos DB's item size limit: 2 MB.
pub const MAX_ITEM_BYTES: f64 = 2.0 * 1024.0 * 1024.0;
/// Largest plausible instance count (a thousand trillion).
pub const MAX_COUNT: f64 = 1e15;
/// Largest plausible rate: a billion operations per second.
pub const MAX_PER_SECOND: f64 = 1e9;

impl Checker<'_> {
    pub(super) fn check_numbers(&mut self) {
        let spec = self.spec;
        for (i, entity) in spec.entities.iter().enumerate() {
            if let Some(volume) = &entity.volume {
                self.check_volume(volume, Self::entity_path(i).key("volume"));
            }
        }
        for (i, vo) in spec.value_objects.iter().enumerate() {
            if let Some(volume) = &vo.volume {
                self.check_volume(volume, Self::value_object_path(i).key("volume"));
            }
        }
        for (i, rel) in spec.relationships.iter().enumerate() {
            if let Some(rate) = rel.updates_per_second {
                let path = JsonPath::root().key("relationships").index(i).key("updatesPerSecond");
                self.check_range(rate, path, 0.0, MAX_PER_SECOND, "updates per second");
            }
        }
        for (i, pattern) in spec.access_patterns.iter().enumerate() {
            let path = JsonPath::root().key("accessPatterns").index(i).key("perSecond");
            self.check_range(pattern.per_second, path, 0.0, MAX_PER_SECOND, "executions per second");
        }
        if let Some(t) = &spec.thresholds {
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
            ];
            for (name, value, max) in fields {
                if let Some(value) = value {
                    self.check_range(value, path.key(name), 0.0, max, name);
                }
            }
        }
    }

    fn check_volume(&mut self, volume: &Volume, path: JsonPath) {
        if let Some(count) = volume.count {
            self.check_range(count, path.key("count"), 0.0, MAX_COUNT, "instance count");
        }
        if let Some(size) = volume.avg_size_bytes {
            if size > MAX_ITEM_BYTES && size.is_finite() {
                self.report(
                    Diagnostic::new(path.key("avgSizeBytes"), format!("an average size of {size} bytes is over Cosmos DB's 2 MB item limit"))
                        .help("split the data into smaller entities or value objects, or store large blobs elsewhere (for example Blob Storage) and keep a link"),
                );
            } else {
                self.check_range(
                    size,
                    path.key("avgSizeBytes"),
                    0.0,
                    MAX_ITEM_BYTES,
                    "average size in bytes",
                );
            }
        }
    }

    fn check_range(&mut self, value: f64, path: JsonPath, min: f64, max: f64, what: &str) {
        if !value.is_finite() || value < min || value > max {
            let bound = if max == f64::MAX {
                "a finite number".to_string()
            } else {
                format!("at most {max:e}")
            };
            self.report(
                Diagnostic::new(path, format!("{value} is not a valid {what}"))
                    .help(format!("use a number of at least {min} and {bound}")),
            );
        }
    }
}
