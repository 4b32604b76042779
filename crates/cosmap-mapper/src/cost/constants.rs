//! Every figure the cost model uses, in one table, each with its source.
//!
//! Sources (Azure Cosmos DB documentation on learn.microsoft.com/azure/cosmos-db):
//! [RU] "Request units" (`request-units`); [OPT] "Optimize request cost"
//! (`optimize-cost-reads-writes`); [USE] "Understand request unit consumption"
//! (`understand-request-unit-consumption`); [PART] "Partitioning and horizontal
//! scaling" (`partitioning-overview`); [LIM] "Service quotas" (`concepts-limits`).
//! Figures marked ASSUMPTION are not in the documentation; `cosmap cost` prints them.

/// Point read of a 1 KB item: 1 RU. [RU], [OPT] point reads table.
pub const POINT_READ_1KB_RU: f64 = 1.0;
/// Point read of a 100 KB item: 10 RU. [OPT] point reads table.
pub const POINT_READ_100KB_RU: f64 = 10.0;
/// Insert of a 1 KB item without indexing: about 5.5 RU ([USE] measures 4.95 RU for a 1 KB write).
pub const INSERT_1KB_RU: f64 = 5.5;
/// Insert of a 100 KB item: about 50 RU ([USE] measures 48.19 RU for a 128 KB write).
pub const INSERT_100KB_RU: f64 = 50.0;
/// ASSUMPTION: each indexed path of an item adds this much to a write (the
/// documentation says only that writes cost more per indexed path).
pub const RU_PER_INDEXED_PATH: f64 = 0.1;
/// ASSUMPTION: a replace costs about twice an insert (it removes the old item's index
/// terms and adds the new ones; the documentation gives no separate figure).
pub const REPLACE_FACTOR: f64 = 2.0;
/// ASSUMPTION: a delete costs about what an insert of the same item costs.
pub const DELETE_FACTOR: f64 = 1.0;
/// A query costs about 2.5 RU for each physical partition whose index it checks,
/// plus the cost of what it returns. [OPT] queries.
pub const QUERY_RU_PER_PARTITION: f64 = 2.5;
/// Cosmos DB's limits (item size, logical and physical partitions): [PART], [LIM],
/// defined once in `cosmap_domain::limits`.
pub use cosmap_domain::limits::{
    LOGICAL_PARTITION_BYTES, LOGICAL_PARTITION_RU_PER_SECOND, MAX_ITEM_BYTES, PHYSICAL_PARTITION_BYTES,
    PHYSICAL_PARTITION_RU_PER_SECOND,
};
/// Strong and bounded-staleness reads cost twice as much. [OPT] role of the consistency level, [RU].
pub const STRONG_READ_FACTOR: f64 = 2.0;
/// ASSUMPTION: an item whose size the model does not give is 1 KB.
pub const DEFAULT_ITEM_BYTES: f64 = 1024.0;
/// ASSUMPTION: one execution of a query reads one page of at most this many items
/// (applications page through larger results).
pub const QUERY_PAGE_ITEMS: f64 = 100.0;
/// ASSUMPTION: an equality filter on an attribute that is neither an identity nor a
/// reference matches one item.
pub const SELECTIVE_FILTER_ITEMS: f64 = 1.0;

/// The assumptions above, as printed under the cost table.
pub const ASSUMPTIONS: &[&str] = &[
    "each indexed path adds 0.1 RU to a write (the docs give no figure)",
    "a replace costs about twice an insert",
    "a delete costs what an insert of the same item costs",
    "an item without a declared size is 1 KB",
    "an equality filter on an ordinary attribute matches one item; on a reference, count(source) / count(target)",
    "requests spread evenly over partition key values",
    "one execution of a query reads one page of at most 100 items",
];
