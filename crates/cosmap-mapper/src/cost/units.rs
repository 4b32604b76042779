//! Request units per operation, from the figures in `constants`: the one home of
//! every RU formula. The cost table, the copy decision and every other price in the
//! mapper go through these functions.

use super::constants::*;
use crate::operations::WriteKind;

const KB: f64 = 1024.0;

/// Interpolates between the documented 1 KB and 100 KB figures; linear, never below the 1 KB figure.
fn scaled(bytes: f64, at_1kb: f64, at_100kb: f64) -> f64 {
    let kb = (bytes / KB).max(1.0);
    at_1kb + (kb - 1.0) * (at_100kb - at_1kb) / 99.0
}

/// A point read of an item of `bytes`.
pub fn point_read(bytes: f64) -> f64 {
    scaled(bytes, POINT_READ_1KB_RU, POINT_READ_100KB_RU)
}

/// An insert of an item of `bytes` with `indexed_paths` indexed paths.
pub fn insert(bytes: f64, indexed_paths: usize) -> f64 {
    scaled(bytes, INSERT_1KB_RU, INSERT_100KB_RU) + RU_PER_INDEXED_PATH * indexed_paths as f64
}

/// A replace (or upsert of an existing item).
pub fn replace(bytes: f64, indexed_paths: usize) -> f64 {
    REPLACE_FACTOR * insert(bytes, indexed_paths)
}

/// A delete.
pub fn delete(bytes: f64, indexed_paths: usize) -> f64 {
    DELETE_FACTOR * insert(bytes, indexed_paths)
}

/// A write of `kind` of an item of `bytes` with `indexed_paths` indexed paths.
pub fn write(kind: WriteKind, bytes: f64, indexed_paths: usize) -> f64 {
    match kind {
        WriteKind::Create => insert(bytes, indexed_paths),
        WriteKind::Replace => replace(bytes, indexed_paths),
        WriteKind::Delete => delete(bytes, indexed_paths),
    }
}

/// A request's charge: what it pays once, and what it pays for each physical
/// partition whose index it checks (zero unless it fans out).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Charge {
    /// Paid once per execution.
    pub fixed: f64,
    /// Paid per physical partition checked.
    pub per_partition: f64,
}

impl Charge {
    /// A charge paid once.
    pub fn once(ru: f64) -> Self {
        Charge {
            fixed: ru,
            per_partition: 0.0,
        }
    }

    /// The request units of one execution that checks `partitions` physical partitions.
    pub fn at(self, partitions: f64) -> f64 {
        if self.per_partition == 0.0 {
            self.fixed
        } else {
            self.fixed + self.per_partition * partitions.max(1.0)
        }
    }

    /// This charge with every figure multiplied by `factor` (for example strong reads).
    pub fn scaled(self, factor: f64) -> Self {
        Charge {
            fixed: self.fixed * factor,
            per_partition: self.per_partition * factor,
        }
    }
}

/// A query that returns `returned` groups of (items, bytes of each item). Within one
/// logical partition it checks one partition's index; across partitions, every
/// physical partition's ([`Charge::at`] the container's partition count).
pub fn query(cross_partition: bool, returned: &[(f64, f64)]) -> Charge {
    let items: f64 = returned
        .iter()
        .map(|(items, bytes)| items.max(0.0) * point_read(*bytes))
        .sum();
    if cross_partition {
        Charge {
            fixed: items,
            per_partition: QUERY_RU_PER_PARTITION,
        }
    } else {
        Charge::once(QUERY_RU_PER_PARTITION + items)
    }
}

/// What a query over `partitions` physical partitions saves when it runs in one
/// logical partition instead (the fan-out a copy or a partition key removes).
pub fn fan_out_saved(partitions: f64) -> f64 {
    let cross = query(true, &[]).at(partitions);
    let single = query(false, &[]).at(1.0);
    (cross - single).max(0.0)
}

/// Request units rounded to 0.01, as reports print them.
pub fn round(ru: f64) -> f64 {
    (ru * 100.0).round() / 100.0
}

/// Physical partitions a container needs for its storage and throughput.
pub fn physical_partitions(storage_bytes: f64, ru_per_second: f64) -> f64 {
    let by_storage = (storage_bytes / PHYSICAL_PARTITION_BYTES).ceil();
    let by_throughput = (ru_per_second / PHYSICAL_PARTITION_RU_PER_SECOND).ceil();
    by_storage.max(by_throughput).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn reads_match_the_documented_figures() {
        assert!(close(point_read(1024.0), 1.0));
        assert!(close(point_read(100.0 * 1024.0), 10.0));
        assert!(close(point_read(200.0), 1.0), "small items cost the 1 KB figure");
        assert!(point_read(50.0 * 1024.0) > 5.0 && point_read(50.0 * 1024.0) < 6.0);
    }

    #[test]
    fn writes_match_the_documented_figures() {
        assert!(close(insert(1024.0, 0), 5.5));
        assert!(close(insert(100.0 * 1024.0, 0), 50.0));
        assert!(close(insert(1024.0, 10), 6.5), "0.1 RU per indexed path");
        assert!(close(replace(1024.0, 0), 11.0), "a replace is about twice an insert");
        assert!(close(delete(1024.0, 0), 5.5));
    }

    #[test]
    fn queries_pay_per_partition_checked() {
        assert!(close(query(false, &[]).at(1.0), 2.5));
        assert!(
            close(query(false, &[(1.0, 1024.0)]).at(7.0), 3.5),
            "one partition, whatever the count"
        );
        assert!(close(query(true, &[(1.0, 1024.0)]).at(10.0), 26.0));
        assert!(close(fan_out_saved(10.0), 22.5));
        assert!(close(fan_out_saved(1.0), 0.0));
    }

    #[test]
    fn partitions_follow_storage_and_throughput() {
        let gb = 1024.0 * 1024.0 * 1024.0;
        assert!(close(physical_partitions(10.0 * gb, 100.0), 1.0));
        assert!(close(physical_partitions(120.0 * gb, 100.0), 3.0));
        assert!(close(physical_partitions(1.0 * gb, 25_000.0), 3.0));
    }
}
