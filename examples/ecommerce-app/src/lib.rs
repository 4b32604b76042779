//! The e-commerce example's Cosmos DB document types, generated at build time.
//!
//! `build.rs` runs `cosmap_codegen::Builder` on `../ecommerce/model.json`; the
//! generated `cosmap.rs` holds one module per container (`account`, `dictionary`,
//! `item`, `order`, `presented_product`), each with a struct per document type, an
//! enum over them and the container's name and partition key path, and a `types`
//! module with the embedded value objects, reference data snapshots and references.
//! The same files are committed as `examples/ecommerce/generated/cosmap.rs` and
//! `cosmap_data.rs` for reading.

//!
//! With `.data_access(true)` the build script also writes `cosmap_data.rs`: the
//! `data` module, data access on `azure_data_cosmos` (a handle per container, a
//! repository per aggregate, a method per access pattern, a change-feed worker per
//! copy), included here beside the types it uses.

include!(concat!(env!("OUT_DIR"), "/cosmap.rs"));
include!(concat!(env!("OUT_DIR"), "/cosmap_data.rs"));
