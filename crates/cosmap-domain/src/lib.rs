//! # cosmap-domain
//!
//! The first stage of cosmap's flow: **model file or builder → `DomainModel`**.
//!
//! It defines the Domain-Driven-Design vocabulary cosmap maps from — entities,
//! value objects, aggregates, relationships, reference data, access patterns and
//! volumes — loads it from JSON (with a JSON Schema from `schemars` for editors),
//! offers a Rust builder for the same model, and validates it, reporting every
//! problem at once with its JSON path, line:column and a fix. The mapper
//! (`cosmap-mapper`) only ever sees a validated [`DomainModel`].

#![warn(missing_docs)]

#[macro_use]
mod setters;

mod builder;
mod diagnostic;
mod domain_model;
pub mod embedding;
pub mod limits;
mod load;
pub mod model;
mod name_lookup;
pub mod naming;
#[cfg(feature = "synthetic")]
pub mod synthetic;
mod validate;

pub use builder::ModelBuilder;
pub use diagnostic::{Diagnostic, JsonPath, ModelError, PathSegment};
pub use domain_model::{DomainModel, Element};
pub use load::{from_slice, load_file, read_at_most, MAX_MODEL_BYTES};
pub use model::{
    AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Cardinality, ChangeRate, Depth, Entity, Filter,
    FilterOp, Growth, ModelSpec, Pin, PinChoice, PinnedOptimisation, Relationship, SortKey, SubjectKind,
    ThresholdOverrides, Throughput, ValueObject, Volume, WriteOperation, FILTER_OPERATORS,
};
pub use name_lookup::{NameMap, NameSet};
