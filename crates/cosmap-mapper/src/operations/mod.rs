//! Access patterns as operations: how each pattern runs on a logical model —
//! point read, single-partition query, cross-partition query or writes (with the
//! extra writes that keep copies in sync) — with the container, the typed partition
//! key and id values it needs and the parameterised SQL.
//!
//! Everything here is typed data: the text printer and the templates make prose of
//! it; verify, the cost model and codegen read it without parsing any string.

mod live;
mod locate;
mod naive;
mod purpose;
mod request;
mod resolve;
mod sql;

pub use naive::naive_operations;
pub use purpose::{Counted, Each, Purpose};
pub use request::{
    Action, Operation, OperationKind, Parameter, PropertyPath, Request, ValueSource, WriteKind, WrittenPartition,
};
pub use resolve::{extended_reference_sync, listed_as_point_reads, listed_parameter, worker_queries};
pub(crate) use resolve::{members, resolve};

/// How the generated SQL names property `name` of the item alias `alias`:
/// `c.total`, or `c['value']` for a word the SQL reserves.
pub fn sql_property(alias: &str, name: &str) -> String {
    sql::property(alias, name)
}
