//! Request units per operation, from the figures in `constants`: the one home of
//! every RU formula. The cost table, the copy decision and every other price in the
//! mapper go through these functions.

use super::constants::*;
use crate::operations::WriteKind;

/// A kilobyte as the measurements count it (docs/cost.md): 1,000 bytes.
const KB: f64 = 1000.0;

/// A point read of an item of `bytes`: the documented 1 RU at 1 KB and 10 RU at 100 KB,
/// linear between and beyond, never below 1 RU.
pub fn point_read(bytes: f64) -> f64 {
    let kb = (bytes / KB).max(1.0);
    POINT_READ_1KB_RU + (kb - 1.0) * (POINT_READ_100KB_RU - POINT_READ_1KB_RU) / 99.0
}

/// An insert of an item of `bytes` with `indexed_paths` indexed paths:
/// fixed + per KB + per indexed path (fitted, see `constants`).
pub fn insert(bytes: f64, indexed_paths: usize) -> f64 {
    INSERT_BASE_RU + INSERT_RU_PER_KB * bytes.max(0.0) / KB + RU_PER_INDEXED_PATH * indexed_paths as f64
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

    /// This charge and `other`, both paid.
    pub fn plus(self, other: Charge) -> Self {
        Charge {
            fixed: self.fixed + other.fixed,
            per_partition: self.per_partition + other.per_partition,
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

/// A query that returns `returned` groups of (items, bytes of each item), under session
/// or weaker consistency: [`query_under`] with a read factor of 1.
pub fn query(cross_partition: bool, returned: &[(f64, f64)]) -> Charge {
    query_under(1.0, cross_partition, returned)
}

/// A query that returns `returned` groups of (items, bytes of each item) when reads cost
/// `read_factor` times the session figure (2 under strong or bounded staleness, on the
/// whole charge: measured): a fixed part (`QUERY_BASE_RU`) plus, for each item,
/// `QUERY_RU_PER_ITEM` and `QUERY_RU_PER_KB` per KB it returns ([`returned_items`]). N
/// items are not N point reads. Within one logical partition it checks one partition's
/// index; across partitions it pays `QUERY_RU_PER_PARTITION` for each further physical
/// partition ([`Charge::at`] the container's partition count).
pub fn query_under(read_factor: f64, cross_partition: bool, returned: &[(f64, f64)]) -> Charge {
    let session = QUERY_BASE_RU + returned_items(returned);
    if cross_partition {
        Charge {
            fixed: session - QUERY_RU_PER_PARTITION,
            per_partition: QUERY_RU_PER_PARTITION,
        }
        .scaled(read_factor)
    } else {
        Charge::once(session * read_factor)
    }
}

/// What a query pays, under session consistency, for the items it returns: per item
/// `QUERY_RU_PER_ITEM`, and `QUERY_RU_PER_KB` per KB of each (`returned`: groups of
/// (items, bytes of each item)).
pub fn returned_items(returned: &[(f64, f64)]) -> f64 {
    returned
        .iter()
        .map(|(items, bytes)| items.max(0.0) * (QUERY_RU_PER_ITEM + QUERY_RU_PER_KB * bytes.max(0.0) / KB))
        .sum()
}

/// What a query pays, under session consistency, for `documents` of `bytes` each that
/// it loads without returning them (a scan: a filter the index cannot serve, or items
/// skipped): `QUERY_RU_PER_LOADED` each and `QUERY_RU_PER_LOADED_KB` per KB.
pub fn loaded(documents: f64, bytes: f64) -> f64 {
    documents.max(0.0) * (QUERY_RU_PER_LOADED + QUERY_RU_PER_LOADED_KB * bytes.max(0.0) / KB)
}

/// Each backend page of a query beyond its first, when reads cost `read_factor` times
/// the session figure: `QUERY_RU_PER_PAGE` (its items are paid per item either way).
pub fn further_page(read_factor: f64) -> f64 {
    QUERY_RU_PER_PAGE * read_factor
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

/// Physical partitions a container of `storage_bytes` needs when provisioned with its
/// own load times `headroom`, its load being `fixed + per_partition × partitions` RU/s
/// (the fan-out of its cross-partition queries grows with them): the fewest partitions
/// that carry it, never fewer than its storage needs; unbounded when each further
/// partition would add more load than it carries.
pub fn partitions_for_own_load(storage_bytes: f64, fixed: f64, per_partition: f64, headroom: f64) -> f64 {
    let (fixed, per_partition) = (fixed * headroom, per_partition * headroom);
    let by_storage = physical_partitions(storage_bytes, 0.0);
    let carried = |p: f64| physical_partitions(0.0, fixed + per_partition * p) <= p;
    if carried(by_storage) {
        by_storage
    } else if per_partition < PHYSICAL_PARTITION_RU_PER_SECOND {
        (fixed / (PHYSICAL_PARTITION_RU_PER_SECOND - per_partition))
            .ceil()
            .max(by_storage)
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn reads_match_the_documented_figures() {
        assert!(close(point_read(1000.0), 1.0));
        assert!(close(point_read(100_000.0), 10.0));
        assert!(close(point_read(200.0), 1.0), "small items cost the 1 KB figure");
        assert!(point_read(50_000.0) > 5.0 && point_read(50_000.0) < 6.0);
    }

    #[test]
    fn writes_follow_the_fitted_formula() {
        assert!(close(insert(1000.0, 0), 5.59), "about the documented 5.5 RU");
        assert!(close(insert(100_000.0, 0), 48.16));
        assert!(close(insert(1000.0, 10), 8.99), "0.34 RU per indexed path");
        assert!(close(replace(1000.0, 0), 11.18), "a replace is twice an insert");
        assert!(close(delete(1000.0, 0), 1.07 * 5.59));
    }

    #[test]
    fn a_query_pays_per_item_far_less_than_a_point_read() {
        let one = query(false, &[(1.0, 500.0)]).at(1.0);
        assert!((2.7..3.0).contains(&one), "{one}");
        let fifty = query(false, &[(50.0, 500.0)]).at(1.0);
        assert!(fifty < 7.0, "50 small items: {fifty}, not 50 point reads");
        assert!(fifty > one + 2.0, "many items are not free: {fifty}");
        let big = query(false, &[(1.0, 400_000.0)]).at(1.0);
        assert!(close(big, 2.66 + 0.0572 + 0.0253 * 400.0));
        // The multi-item measurements: 207 items of about 20 KB measured 140.75 RU.
        let many = query(false, &[(207.0, 20_300.0)]).at(1.0);
        assert!((100.0..180.0).contains(&many), "{many}");
    }

    #[test]
    fn queries_pay_per_partition_checked() {
        assert!(close(query(false, &[]).at(1.0), 2.66));
        let one_item = 0.0572 + 0.0253;
        assert!(
            close(query(false, &[(1.0, 1000.0)]).at(7.0), 2.66 + one_item),
            "one partition, whatever the count"
        );
        assert!(close(query(true, &[]).at(1.0), 2.66), "one partition: no fan-out");
        assert!(close(
            query(true, &[(1.0, 1000.0)]).at(10.0),
            2.66 + 9.0 * 2.5 + one_item
        ));
        assert!(close(fan_out_saved(10.0), 22.5));
        assert!(close(fan_out_saved(1.0), 0.0));
    }

    #[test]
    fn strong_reads_double_the_whole_query() {
        let session = query(false, &[(1.0, 400_000.0)]).at(1.0);
        let strong = query_under(2.0, false, &[(1.0, 400_000.0)]).at(1.0);
        assert!(close(strong, 2.0 * session));
        let cross = query_under(2.0, true, &[(3.0, 1000.0)]);
        assert!(close(cross.at(3.0), 2.0 * query(true, &[(3.0, 1000.0)]).at(3.0)));
        assert!(close(further_page(2.0), 2.0 * further_page(1.0)));
    }

    #[test]
    fn pages_and_scans_are_paid_for() {
        assert!(close(further_page(1.0), 4.13));
        assert!(close(loaded(1000.0, 60.0), 1000.0 * (0.0186 + 0.005 * 0.06)));
        assert!(close(loaded(-1.0, 1000.0), 0.0), "nothing loaded, nothing paid");
        // 8,618 documents of 6.4 KB scanned for one: measured 411.88 RU.
        let scan = query(true, &[(1.0, 7_799.0)]).at(2.0) + loaded(8618.0, 6394.0);
        assert!((300.0..500.0).contains(&scan), "{scan}");
    }

    #[test]
    fn partitions_follow_storage_and_throughput() {
        let gb = 1024.0 * 1024.0 * 1024.0;
        assert!(close(physical_partitions(10.0 * gb, 100.0), 1.0));
        assert!(close(physical_partitions(120.0 * gb, 100.0), 3.0));
        assert!(close(physical_partitions(1.0 * gb, 25_000.0), 3.0));
    }

    #[test]
    fn a_container_sized_by_its_own_load_carries_it() {
        let gb = 1024.0 * 1024.0 * 1024.0;
        assert!(
            close(partitions_for_own_load(120.0 * gb, 100.0, 0.0, 1.0), 3.0),
            "storage wins"
        );
        assert!(close(partitions_for_own_load(gb, 25_000.0, 0.0, 1.0), 3.0));
        assert!(close(partitions_for_own_load(gb, 25_000.0, 0.0, 2.0), 5.0), "headroom");
        // 20,000 RU/s fixed and 2,000 per partition: 3 partitions carry 26,000, 4 carry 28,000.
        assert!(close(partitions_for_own_load(gb, 20_000.0, 2_000.0, 1.0), 3.0));
        assert!(partitions_for_own_load(gb, 20_000.0, 10_000.0, 1.0).is_infinite());
    }
}
