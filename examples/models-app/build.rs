//! Generates, for each model in `MODELS`, its document types and data access into a
//! directory of its own under `OUT_DIR` (`src/lib.rs` includes them, one module each).

use std::path::PathBuf;

/// Each model's module name and file.
const MODELS: &[(&str, &str)] = &[
    ("library", "../library/model.json"),
    (
        "short_form",
        "../../crates/cosmap-verify/tests/models/short-form-with-kept-name-and-count.json",
    ),
    (
        "across_partitions",
        "../../crates/cosmap-verify/tests/models/copy-that-grows-its-target.json",
    ),
    (
        "feed_with_counts",
        "../../crates/cosmap-verify/tests/models/feed-with-counts.json",
    ),
    (
        "scan_beside_a_query",
        "../../crates/cosmap-verify/tests/models/returned-element-embedded-in-another-container.json",
    ),
    (
        "scan_beside_a_point_read",
        "../../crates/cosmap-verify/tests/models/two-returned-elements-in-one-container.json",
    ),
    (
        "rewrites_an_embedding",
        "../../crates/cosmap-verify/tests/models/write-that-rewrites-an-embedding.json",
    ),
    (
        "claims_across_partitions",
        "../../crates/cosmap-verify/tests/models/claims-across-partitions.json",
    ),
    (
        "member_counts",
        "../../crates/cosmap-verify/tests/models/member-that-counts-its-children.json",
    ),
];

#[path = "shared_partition.rs"]
mod shared_partition;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    // A design made by hand from a mapped one (`shared_partition.rs`).
    println!("cargo:rerun-if-changed=shared_partition.rs");
    println!("cargo:rerun-if-changed=shared-partition.json");
    let design = shared_partition::design(std::path::Path::new("shared-partition.json"));
    let (mapping, templates) = (
        cosmap_codegen::TypeMapping::default(),
        cosmap_codegen::Templates::load(None)?,
    );
    std::fs::create_dir_all(out.join("shared_partition"))?;
    let types = cosmap_codegen::render_rust(&design, &mapping, &templates)?;
    std::fs::write(out.join("shared_partition/cosmap.rs"), types)?;
    let data = cosmap_codegen::render_data_access(&design, &mapping, &templates)?;
    std::fs::write(out.join("shared_partition/cosmap_data.rs"), data)?;
    for (name, model) in MODELS {
        cosmap_codegen::Builder::new()
            .model(model)
            .out_dir(out.join(name))
            .data_access(true)
            .compile()?;
    }
    Ok(())
}
