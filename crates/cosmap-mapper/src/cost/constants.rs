//! Every figure the cost model uses, in one table, each with its source.
//!
//! Sources (Azure Cosmos DB documentation on learn.microsoft.com/azure/cosmos-db):
//! [RU] "Request units" (`request-units`); [OPT] "Optimize request cost"
//! (`optimize-cost-reads-writes`); [USE] "Understand request unit consumption"
//! (`understand-request-unit-consumption`); [PART] "Partitioning and horizontal
//! scaling" (`partitioning-overview`); [LIM] "Service quotas" (`concepts-limits`).
//! Figures marked FIT are fitted to 141 published measurements: the rows not excluded
//! of `tests/data/cosmos-ru-measurements.csv` (reads of one to a few items, writes) and
//! `tests/data/cosmos-ru-measurements-multi-item.csv` (reads of many items, scans, pages,
//! consistency), by `scripts/fit-cost-model.py`; the constants, residuals and exclusions
//! are in docs/cost.md, and `tests/calibration.rs` checks them. Figures marked ASSUMPTION are neither documented nor measured;
//! `cosmap cost` prints them.

/// Point read of a 1 KB item: 1 RU. [RU], [OPT] point reads table (the measurements agree).
pub const POINT_READ_1KB_RU: f64 = 1.0;
/// Point read of a 100 KB item: 10 RU. [OPT] point reads table (the measurements agree).
pub const POINT_READ_100KB_RU: f64 = 10.0;
/// FIT: an insert's fixed part, 5.16 RU (an unindexed 1 KB insert is then 5.59 RU; [OPT]
/// says about 5.5). Fitted with the per-KB and per-path figures on 20 measured creates
/// (`scripts/fit-cost-model.py`, docs/cost.md).
pub const INSERT_BASE_RU: f64 = 5.16;
/// FIT: each KB (1,000 bytes) of the item adds 0.43 RU to an insert (a 400 KB insert
/// measured 186 RU; the fit gives 177.5).
pub const INSERT_RU_PER_KB: f64 = 0.43;
/// FIT: each indexed path of an item adds 0.34 RU to a write (same-item comparisons
/// with and without indexing measured 0.23-0.40).
pub const RU_PER_INDEXED_PATH: f64 = 0.34;
/// A replace (or upsert of an existing item) costs twice an insert: [OPT]; the measured
/// ratio fits 1.99.
pub const REPLACE_FACTOR: f64 = 2.0;
/// FIT: a delete costs 1.07 × the insert formula (measured deletes equal the creates of
/// the same items; the factor absorbs the insert formula's error at those sizes).
pub const DELETE_FACTOR: f64 = 1.07;
/// A query pays about 2.5 RU for each further physical partition whose index it checks
/// ([OPT] queries: "at least 2.5 RU per partition"; two partitions measured 4.6 RU).
pub const QUERY_RU_PER_PARTITION: f64 = 2.5;
/// FIT: a query's fixed part in one partition, 2.66 RU (single-item queries measure
/// 2.8-2.9 RU with their item; an empty partition check about 2.3-2.5 RU).
pub const QUERY_BASE_RU: f64 = 2.66;
/// FIT: each backend page of a query beyond its first, 4.13 RU (17,000 tiny items in 18
/// pages cost 54 RU more than in one; ORDER BY drains of 5-8 pages of 20 KB items).
pub const QUERY_RU_PER_PAGE: f64 = 4.13;
/// FIT: each item a query returns adds 0.0572 RU (index-driven reads of many items:
/// 17,000 tiny items measured 1,001 RU, 207 items of 20 KB 140.75 RU).
pub const QUERY_RU_PER_ITEM: f64 = 0.0572;
/// FIT: each KB (1,000 bytes) a query returns adds 0.0253 RU (a 400 KB item by query
/// measured 17 RU; a 1 KB item then costs 0.0825 RU with its per-item part). Projections
/// load the same items, so they cost the same.
pub const QUERY_RU_PER_KB: f64 = 0.0253;
/// FIT: each document a query loads without returning it (a scan: a filter the index
/// cannot serve, skipped items) adds 0.0186 RU (1,000 tiny documents scanned for one
/// measured 18.59 RU).
pub const QUERY_RU_PER_LOADED: f64 = 0.0186;
/// FIT: each KB (1,000 bytes) a query loads without returning it adds 0.005 RU (8,618
/// documents of 6.4 KB scanned measured 411.88 RU, 0.047 RU each).
pub const QUERY_RU_PER_LOADED_KB: f64 = 0.005;
/// Cosmos DB's limits (item size, logical and physical partitions): [PART], [LIM],
/// defined once in `cosmap_domain::limits`.
pub use cosmap_domain::limits::{
    LOGICAL_PARTITION_BYTES, LOGICAL_PARTITION_RU_PER_SECOND, MAX_ITEM_BYTES, PHYSICAL_PARTITION_BYTES,
    PHYSICAL_PARTITION_RU_PER_SECOND,
};
/// Strong and bounded-staleness reads cost twice as much: a point read doubles, and so
/// does a query's whole charge (measured: 2.82 -> 5.64 RU, 2.84 -> 5.68 RU, 1.14 -> 2.28
/// RU for a 2 KB read). [OPT] role of the consistency level, [RU].
pub const STRONG_READ_FACTOR: f64 = 2.0;
/// ASSUMPTION: without a `thresholds.throughput` figure, each container is provisioned
/// with its own peak load as the design estimates it, times this headroom (1: none; the
/// model's `headroom` raises it).
pub const DEFAULT_THROUGHPUT_HEADROOM: f64 = 1.0;
/// ASSUMPTION: an item whose size the model does not give is 1 KB.
pub const DEFAULT_ITEM_BYTES: f64 = 1024.0;
/// ASSUMED: without a declared `largestValueShare`, the most common of a key's values
/// holds this many times its even share (at most all of them).
pub const DEFAULT_SKEW: f64 = 10.0;
/// ASSUMPTION: one execution of a query reads one page of at most this many items
/// (applications page through larger results), or as many pages as its `limit` asks.
pub const QUERY_PAGE_ITEMS: f64 = 100.0;
/// ASSUMPTION: an equality filter on an attribute that is neither an identity nor a
/// reference, and declares no `distinctValues`, matches one item.
pub const SELECTIVE_FILTER_ITEMS: f64 = 1.0;
/// The bytes a `SELECT VALUE COUNT(1)` query returns: one small number.
pub const COUNT_RESULT_BYTES: f64 = 16.0;
/// ASSUMPTION: a one-sided range filter (`<`, `<=`, `>`, `>=`) keeps a third of the
/// items in scope (the textbook default selectivity of an open range).
pub const RANGE_FILTER_SHARE: f64 = 1.0 / 3.0;
/// ASSUMPTION: a `between` filter keeps a tenth of the items in scope.
pub const BETWEEN_FILTER_SHARE: f64 = 0.1;
/// ASSUMPTION: an `in` filter's array holds this many values, each matching as an
/// equality filter on the attribute would.
pub const IN_FILTER_VALUES: f64 = 3.0;

/// The assumptions above, as printed under the cost table.
pub const ASSUMPTIONS: &[&str] = &[
    "an item without a declared size is 1 KB",
    "an equality filter on an ordinary attribute matches one item, or items / distinctValues when the model gives it; on a reference, count(source) / count(target)",
    "a range filter keeps a third of the items in scope (`between`: a tenth); an `in` filter matches as 3 equality filters would",
    "a short form (`project`) returns a share of each document's bytes: (projected properties + 3) / (properties + 3)",
    "requests spread over partition key values as the data does: evenly, but under a key other than the root's identity its most common value takes `largestValueShare` of both (ten times the even share when not declared)",
    "one execution of a query reads one page of at most 100 items, or as many pages as its `limit` asks",
    "a create in a feed also deletes the oldest item it pushes out",
    "without thresholds.throughput, each container is provisioned with its own peak load (no headroom) and has max(storage after growthYears / 50 GB, that load / 10,000 RU/s) physical partitions",
    "a query given a prefix of a hierarchical key selects count / (the prefix's values) items and checks the physical partitions its most common value's data fills (50 GB each), as a query across that many partitions; the levels combine as if independent",
];
