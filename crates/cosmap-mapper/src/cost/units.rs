//! Request units per operation, from the figures in `constants`.

use super::constants::*;

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

/// A query that checks `partitions` physical partitions' indexes and returns
/// `items` items of `bytes` each.
pub fn query(partitions: f64, items: f64, bytes: f64) -> f64 {
    QUERY_RU_PER_PARTITION * partitions.max(1.0) + items.max(0.0) * point_read(bytes)
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
        assert!(close(query(1.0, 0.0, 1024.0), 2.5));
        assert!(close(query(10.0, 1.0, 1024.0), 26.0));
    }

    #[test]
    fn partitions_follow_storage_and_throughput() {
        let gb = 1024.0 * 1024.0 * 1024.0;
        assert!(close(physical_partitions(10.0 * gb, 100.0), 1.0));
        assert!(close(physical_partitions(120.0 * gb, 100.0), 3.0));
        assert!(close(physical_partitions(1.0 * gb, 25_000.0), 3.0));
    }
}
