//! The whole pipeline — load, validate, map, cost, render every artefact — on
//! synthetic models of 10, 100, 1,000 and 5,000 aggregates (about ten entities
//! and value objects each, with access patterns).
//!
//! `cargo bench -p cosmap-codegen --bench pipeline`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

#[path = "support/pipeline.rs"]
mod pipeline;

/// The allocator the `cosmap` binary uses (`src/main.rs`), as the `pipeline` example
/// does: measured with glibc's `malloc`, the run is slower than any user's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let templates = cosmap_codegen::Templates::load(None).expect("embedded templates");
    let mut group = c.benchmark_group("pipeline");
    group.sample_size(10);
    for aggregates in [10, 100, 1000, 5000] {
        let text = cosmap_domain::synthetic::json(aggregates);
        group.throughput(Throughput::Elements(aggregates as u64));
        group.bench_with_input(BenchmarkId::from_parameter(aggregates), &text, |b, text| {
            b.iter(|| {
                let output = pipeline::run(text.as_bytes(), &templates);
                std::hint::black_box((output.report.totals.optimised, output.artefacts.len()))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
