//! The e-commerce example's Cosmos DB document types, generated at build time.
//!
//! `build.rs` runs `cosmap_codegen::Builder` on `../ecommerce/model.json`; the
//! generated `cosmap.rs` holds one module per container (`account`, `dictionary`,
//! `item`, `order`, `presented_product`), each with a struct per document type, an
//! enum over them and the container's name and partition key path, and a `types`
//! module with the embedded value objects, reference data snapshots and references.
//! The same file is committed as `examples/ecommerce/generated/cosmap.rs` for reading.

include!(concat!(env!("OUT_DIR"), "/cosmap.rs"));
