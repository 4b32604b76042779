//! One run of the whole pipeline on a synthetic model, for peak memory and profiles:
//!
//! ```text
//! cargo build --release -p cosmap-codegen --example pipeline
//! /usr/bin/time -v target/release/examples/pipeline 1000
//! cargo build --profile profiling -p cosmap-codegen --example pipeline   # line tables
//! valgrind --tool=callgrind target/profiling/examples/pipeline 1000
//! ```
//!
//! Prints the size of each stage's output, so the work cannot be optimised away.

#[path = "../benches/support/pipeline.rs"]
mod pipeline;

/// The allocator the `cosmap` binary uses (`src/main.rs`): the pipeline allocates and
/// frees millions of small strings and vectors, which glibc's `malloc` spends about a
/// third of the run on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let aggregates = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: the argument must be a number of aggregates: {e}");
            std::process::exit(2);
        }
    };
    let text = cosmap_domain::synthetic::json(aggregates);
    let templates = cosmap_codegen::Templates::load(None).expect("embedded templates");
    let started = std::time::Instant::now();
    let output = pipeline::run(text.as_bytes(), &templates);
    let bytes: usize = output.artefacts.iter().map(|a| a.contents.len()).sum();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let stages: Vec<String> = output
        .stages
        .iter()
        .map(|(name, d)| format!("{name} {:.1} ms", ms(*d)))
        .collect();
    println!(
        "{aggregates} aggregates, {} model bytes: {} artefacts ({bytes} bytes), {} costed patterns, {:.1} ms ({})",
        text.len(),
        output.artefacts.len(),
        output.report.patterns.len(),
        ms(started.elapsed()),
        stages.join(", ")
    );
}
