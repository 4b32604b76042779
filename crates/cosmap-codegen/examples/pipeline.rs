//! One run of the whole pipeline on a synthetic model, for peak memory and profiles:
//!
//! ```text
//! cargo build --release -p cosmap-codegen --example pipeline
//! /usr/bin/time -v target/release/examples/pipeline 1000
//! /usr/bin/time -v target/release/examples/pipeline 20000 --data-access   # and cosmap_data.rs
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
    let mut data_access = false;
    let mut aggregates = 1000;
    for arg in std::env::args().skip(1) {
        if arg == "--data-access" {
            data_access = true;
            continue;
        }
        aggregates = match arg.parse::<usize>() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: `{arg}`: the arguments are a number of aggregates and `--data-access`: {e}");
                std::process::exit(2);
            }
        };
    }
    let text = cosmap_domain::synthetic::json(aggregates);
    let templates = cosmap_codegen::Templates::load(None).expect("embedded templates");
    let started = std::time::Instant::now();
    let output = pipeline::run(text.as_bytes(), &templates, data_access);
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
        output.report.map_or(0, |r| r.patterns.len()),
        ms(started.elapsed()),
        stages.join(", ")
    );
}
