//! The work a `build.rs` does with [`cosmap_codegen::Builder`] for the e-commerce
//! model: load and validate the model file, map it, load the templates and render
//! `cosmap.rs` (everything `compile` does but the write-if-changed).
//!
//! `cargo bench -p cosmap-codegen --bench build_step` (goal: under 50 ms)

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
    let builder = cosmap_codegen::Builder::new().model(&model);
    c.bench_function("build step (ecommerce)", |b| {
        b.iter(|| std::hint::black_box(builder.render().expect("the e-commerce model renders").len()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
