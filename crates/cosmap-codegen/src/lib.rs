//! # cosmap-codegen
//!
//! The rendering stage of cosmap's flow: **`LogicalModel` → files**.
//!
//! Renders every artefact of a logical model: `containers.json` (container
//! definitions as Cosmos DB takes them), `containers.bicep`, `cosmap.rs` (typed
//! Rust document types, written indented as its emitter writes them), a JSON Schema per
//! document type and a Mermaid diagram; on request `cosmap_data.rs` (generated data
//! access on `azure_data_cosmos`, for the crate that includes it; this crate does
//! not depend on the SDK); and the HTML design report of `cosmap report`
//! ([`render_report`]: SVG diagram and bar charts drawn in Rust). [`Builder`] does
//! the Rust part from a `build.rs`, like `prost-build`. It is a build-dependency,
//! so it stays lean: no Azure SDK, no async runtime, no HTTP client, and by default
//! no template engine.
//!
//! Each built-in artefact has one writer, a Rust emitter straight from its view;
//! an override (a handlebars template named as in [`OVERRIDES`]) renders from the
//! same view in its place. The data access alone has a built-in template,
//! `templates/cosmap_data.rs.hbs`. Cargo features:
//!
//! - `templates`: overrides from a directory ([`Templates::load`],
//!   `Builder::templates`, `cosmap generate --templates`), rendered by handlebars;
//! - `data-access` (turns on `templates`): `cosmap_data.rs`
//!   ([`Builder::data_access`], [`render_data_access`]), rendered by handlebars;
//! - `format`: checks an override's output (and the text with the user's own
//!   attributes or type spellings) with `syn` and prints it with `prettyplease`.
//!
//! Asking for overrides or the data access with its feature off is
//! [`CodegenError::FeatureOff`], naming the feature.

#![warn(missing_docs)]

mod artefacts;
mod bicep;
mod builder;
mod error;
mod mermaid;
mod options;
#[cfg(feature = "templates")]
mod registry;
mod report;
mod rust;
mod schema;
mod spaces;
mod templates;
#[cfg(test)]
mod test_models;
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
#[cfg(feature = "data-access")]
pub use rust::{
    data_api, Answer, ApiItem, DataApi, Enforcement, MethodParam, PatternMethod, Repository, Worker, WrittenParam,
};
pub use templates::{Templates, OVERRIDES, TEMPLATES};
pub use write::{check_all, write_all, FileStatus};
