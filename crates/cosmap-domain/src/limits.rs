//! Azure Cosmos DB's service limits, in one place: validation and the mapper
//! (its rules and its cost model) read them from here.
//!
//! Sources (learn.microsoft.com/azure/cosmos-db): "Service quotas"
//! (`concepts-limits`) and "Partitioning and horizontal scaling" (`partitioning-overview`).

/// Decimal gigabytes, as the service quotas state partition sizes.
const GB: f64 = 1e9;

/// An item is at most 2 MB (enforced as 2 MiB, 2,097,152 bytes).
pub const MAX_ITEM_BYTES: f64 = 2.0 * 1024.0 * 1024.0;
/// One logical partition holds at most 20 GB.
pub const LOGICAL_PARTITION_BYTES: f64 = 20.0 * GB;
/// One logical partition serves at most 10,000 RU/s.
pub const LOGICAL_PARTITION_RU_PER_SECOND: f64 = 10_000.0;
/// One physical partition holds up to 50 GB.
pub const PHYSICAL_PARTITION_BYTES: f64 = 50.0 * GB;
/// One physical partition serves up to 10,000 RU/s.
pub const PHYSICAL_PARTITION_RU_PER_SECOND: f64 = 10_000.0;
/// The bytes one stored reference takes (`{"id": …, "partitionKey": …}` and its
/// JSON punctuation), for the size of a list of references.
pub const REFERENCE_BYTES: f64 = 100.0;
/// A list of references is kept on the side read from only when its bound times
/// [`REFERENCE_BYTES`] fits this share of an item (a quarter: 512 KiB), leaving the
/// rest of the document room to grow.
pub const REFERENCE_LIST_MAX_BYTES: f64 = MAX_ITEM_BYTES / 4.0;
/// A transactional batch holds at most 100 operations, in one logical partition.
pub const MAX_BATCH_OPERATIONS: usize = 100;
/// The largest `TOP n` a query takes: the query plan the Cosmos DB SDKs read for a
/// cross-partition query holds `top` as a 32-bit signed integer (the in-memory
/// engine parses an `i64`; the smaller bound is the one every engine takes).
pub const MAX_TOP: u64 = i32::MAX as u64;
