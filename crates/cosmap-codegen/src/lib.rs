//! # cosmap-codegen
//!
//! The rendering stage of cosmap's flow: **`LogicalModel` → files**.
//!
//! Renders, with handlebars templates (embedded from the repository's
//! `templates/`, each overridable from a directory), every artefact of a logical
//! model: `containers.json` (container definitions as Cosmos DB takes them),
//! `containers.bicep`, `cosmap.rs` (typed Rust document types, laid out as
//! `prettyplease` prints them; an overridden template's output checked with `syn`
//! and printed with `prettyplease`, feature `format`), on request `cosmap_data.rs`
//! (generated data access on `azure_data_cosmos`, for the crate that includes it;
//! this crate does not depend on the SDK), a JSON Schema per document type and a
//! Mermaid diagram; and the HTML design report of `cosmap report` ([`render_report`]:
//! SVG diagram and bar charts drawn in Rust). [`Builder`] does the Rust part from a `build.rs`, like
//! `prost-build`. It is a build-dependency, so it stays lean: no Azure SDK, no
//! async runtime, no HTTP client.

mod artefacts;
mod bicep;
mod builder;
mod error;
mod mermaid;
mod options;
mod report;
mod rust;
mod schema;
mod templates;
mod write;

pub use artefacts::{generate, mermaid, Artefact, DATA_ACCESS_FILE, RUST_FILE};
pub use builder::{BuildError, Builder};
pub use error::CodegenError;
pub use options::{Codec, TypeMapping, TypeMappingError};
pub use report::render as render_report;
#[cfg(feature = "format")]
pub use rust::format_rust;
pub use rust::render as render_rust;
pub use rust::render_data_access;
#[doc(hidden)]
pub use rust::render_direct as render_rust_direct;
pub use templates::{Templates, TEMPLATES};
pub use write::{check_all, write_all, FileStatus};
