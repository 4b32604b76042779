//! Load + validate + map + cost of a synthetic 1,000-aggregate model (about ten
//! entities and value objects per aggregate, ~3,600 access patterns).
//!
//! `cargo bench -p cosmap-mapper --bench load_map_cost`

use cosmap_mapper::cost::{cost, Consistency};
use cosmap_mapper::Options;
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let text = cosmap_domain::synthetic::json(1000);
    let mut group = c.benchmark_group("synthetic-1000");
    group.sample_size(10);
    group.bench_function("load+map+cost", |b| {
        b.iter(|| {
            let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("valid synthetic model");
            let report = cost(&model, &Options::default(), Consistency::Session);
            std::hint::black_box(report.totals.optimised)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
