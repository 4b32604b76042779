//! Load + validate alone (`cosmap_domain::from_slice`) on a synthetic model, repeated,
//! for wall times and profiles of the pipeline's first stage:
//!
//! ```text
//! cargo build --release -p cosmap-domain --features synthetic --example load
//! target/release/examples/load 1000 20        # aggregates, runs
//! valgrind --tool=callgrind target/release/examples/load 1000 1
//! ```
//!
//! Prints each run's time, then the minimum and the median.

/// The allocator the `cosmap` binary and the `pipeline` example use.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let arg = |n: usize, default: usize| {
        std::env::args()
            .nth(n)
            .map_or(default, |a| a.parse().expect("arguments: AGGREGATES [RUNS]"))
    };
    let (aggregates, runs) = (arg(1, 1000), arg(2, 10).max(1));
    let text = cosmap_domain::synthetic::json(aggregates);
    let mut times = Vec::new();
    for _ in 0..runs {
        let started = std::time::Instant::now();
        let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("a valid synthetic model");
        times.push(started.elapsed().as_secs_f64() * 1e3);
        drop(std::hint::black_box(model));
    }
    let shown: Vec<String> = times.iter().map(|t| format!("{t:.1}")).collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{aggregates} aggregates, {} bytes: load+validate min {:.1} ms, median {:.1} ms ({} ms)",
        text.len(),
        times[0],
        times[times.len() / 2],
        shown.join(" ")
    );
}
