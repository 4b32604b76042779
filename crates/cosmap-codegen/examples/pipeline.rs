//! One run of the whole pipeline on a synthetic model, for peak memory and profiles:
//!
//! ```text
//! cargo build --release -p cosmap-codegen --example pipeline
//! /usr/bin/time -v target/release/examples/pipeline 1000
//! /usr/bin/time -v target/release/examples/pipeline 20000 --data-access --out /tmp/gen
//! target/release/examples/pipeline 20000 --data-access --memory   # bytes held per stage
//! valgrind --tool=massif target/profiling/examples/pipeline 1000 --data-access --map-only
//! cargo build --profile profiling -p cosmap-codegen --example pipeline   # line tables
//! valgrind --tool=callgrind target/profiling/examples/pipeline 1000
//! ```
//!
//! With `--data-access`, what `cosmap generate --data-access` runs: load and validate,
//! map (no cost estimate), and render every artefact with `cosmap_data.rs`, each
//! written under `--out` as it is rendered, the data access and `cosmap.rs` a piece
//! at a time (without `--out`, counted and dropped).
//! With `--memory`, a counting allocator prints the bytes held after each stage and
//! the most held during it, and what each part of the logical model holds.
//!
//! Prints the size of each stage's output, so the work cannot be optimised away.

#[path = "../benches/support/pipeline.rs"]
mod pipeline;

use std::alloc::{GlobalAlloc, Layout};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::Instant;

/// The allocator the `cosmap` binary uses (`src/main.rs`), mimalloc (the pipeline
/// allocates and frees millions of small strings and vectors, which glibc's
/// `malloc` spends about a third of the run on), counting the bytes held when
/// `--memory` asks for it.
struct Counting;

/// Whether to count (`--memory`): off, the allocator is mimalloc and one load.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated and not yet freed (while counting).
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most bytes held at once since it was last reset.
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grew(by: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        let by = by as isize;
        let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

fn shrank(by: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE.fetch_sub(by as isize, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed to mimalloc as it came; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            grew(new_size.saturating_sub(layout.size()));
            shrank(layout.size().saturating_sub(new_size));
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What the command line asks for.
struct Args {
    aggregates: usize,
    data_access: bool,
    /// Stop after the map (`--map-only`, with `--data-access`): the mapper's peak alone.
    map_only: bool,
    out: Option<PathBuf>,
}

fn args() -> Args {
    let mut parsed = Args {
        aggregates: 1000,
        data_access: false,
        map_only: false,
        out: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--data-access" => parsed.data_access = true,
            "--memory" => COUNTING.store(true, Ordering::Relaxed),
            "--map-only" => parsed.map_only = true,
            "--out" => parsed.out = args.next().map(PathBuf::from),
            _ => match arg.parse::<usize>() {
                Ok(n) => parsed.aggregates = n,
                Err(e) => {
                    eprintln!("error: `{arg}`: the arguments are a number of aggregates, `--data-access`, `--out DIR`, `--memory` and `--map-only`: {e}");
                    std::process::exit(2);
                }
            },
        }
    }
    parsed
}

fn main() {
    let args = args();
    let templates = cosmap_codegen::Templates::load(None).expect("embedded templates");
    if args.data_access {
        return data_access(&args, &templates);
    }
    let text = cosmap_domain::synthetic::json(args.aggregates);
    let started = Instant::now();
    let output = pipeline::run(text.as_bytes(), &templates);
    let bytes: usize = output.artefacts.iter().map(|a| a.contents.len()).sum();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let stages: Vec<String> = output
        .stages
        .iter()
        .map(|(name, d)| format!("{name} {:.1} ms", ms(*d)))
        .collect();
    println!(
        "{} aggregates, {} model bytes: {} artefacts ({bytes} bytes), {} costed patterns, {:.1} ms ({})",
        args.aggregates,
        text.len(),
        output.artefacts.len(),
        output.report.patterns.len(),
        ms(started.elapsed()),
        stages.join(", ")
    );
}

/// Prints the time since the last stage, the bytes held now and the most held
/// during the stage (while counting), and starts the next stage.
fn stage(name: &str, clock: &mut Instant) {
    let (live, peak) = (
        LIVE.load(Ordering::Relaxed),
        PEAK.swap(LIVE.load(Ordering::Relaxed), Ordering::Relaxed),
    );
    let mb = |b: isize| b as f64 / 1e6;
    if COUNTING.load(Ordering::Relaxed) {
        println!(
            "{name}: {:.1} ms, held {:.1} MB, most during it {:.1} MB",
            clock.elapsed().as_secs_f64() * 1e3,
            mb(live),
            mb(peak)
        );
    } else {
        println!("{name}: {:.1} ms", clock.elapsed().as_secs_f64() * 1e3);
    }
    *clock = Instant::now();
}

/// `cosmap generate --data-access` on the synthetic model: the model's text dropped
/// once parsed, the domain model once mapped, each artefact written (or counted)
/// as it is rendered.
fn data_access(args: &Args, templates: &cosmap_codegen::Templates) {
    let mut clock = Instant::now();
    let text = cosmap_domain::synthetic::json(args.aggregates);
    let model_bytes = text.len();
    stage("model text", &mut clock);
    let model = pipeline::load(text.into_bytes());
    stage("load+validate", &mut clock);
    let mut logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    drop(model);
    stage("map", &mut clock);
    if args.map_only {
        return logical_model_parts(&mut logical);
    }
    let mapping = cosmap_codegen::TypeMapping {
        data_access: true,
        ..cosmap_codegen::TypeMapping::default()
    };
    let mut out = Stages {
        out: args.out.as_deref().map(cosmap_codegen::OutputDir::write),
        clock,
        files: 0,
        bytes: 0,
    };
    cosmap_codegen::generate_to(&logical, &mapping, templates, &mut out).expect("artefacts render");
    let Stages {
        out,
        mut clock,
        files,
        bytes,
    } = out;
    stage("the schemas", &mut clock);
    if let Some(out) = out {
        out.finish().expect("written");
        stage("moved into place", &mut clock);
    }
    println!(
        "{} aggregates, {model_bytes} model bytes: {files} artefacts ({bytes} bytes)",
        args.aggregates
    );
    if COUNTING.load(Ordering::Relaxed) {
        logical_model_parts(&mut logical);
    }
}

/// Where the artefacts go: written under `--out` (or counted and dropped), a stage
/// printed for each but the schemas.
struct Stages {
    out: Option<cosmap_codegen::OutputDir>,
    clock: Instant,
    files: usize,
    bytes: usize,
}

impl Stages {
    /// Counts a file of `bytes` at `path`, ending its stage.
    fn counted(&mut self, path: &std::path::Path, bytes: usize) {
        self.files += 1;
        self.bytes += bytes;
        if !path.starts_with("schemas") {
            stage(&path.to_string_lossy(), &mut self.clock);
        }
    }
}

impl cosmap_codegen::Sink for Stages {
    fn put(&mut self, a: cosmap_codegen::Artefact) -> Result<(), cosmap_codegen::CodegenError> {
        self.counted(&a.path, a.contents.len());
        self.out.as_mut().map_or(Ok(()), |out| out.put(&a))
    }

    fn put_pieces(
        &mut self,
        path: &std::path::Path,
        write: &mut dyn FnMut(&mut dyn cosmap_codegen::Pieces) -> Result<(), cosmap_codegen::CodegenError>,
    ) -> Result<(), cosmap_codegen::CodegenError> {
        let mut bytes = 0;
        match &mut self.out {
            Some(out) => cosmap_codegen::Sink::put_pieces(out, path, &mut |pieces| {
                write(&mut Counted {
                    pieces,
                    bytes: &mut bytes,
                })
            })?,
            None => write(&mut Counted {
                pieces: &mut Dropped,
                bytes: &mut bytes,
            })?,
        }
        self.counted(path, bytes);
        Ok(())
    }
}

/// Pieces counted on their way.
struct Counted<'p> {
    pieces: &'p mut dyn cosmap_codegen::Pieces,
    bytes: &'p mut usize,
}

impl cosmap_codegen::Pieces for Counted<'_> {
    fn push(&mut self, text: &str) -> Result<(), cosmap_codegen::CodegenError> {
        *self.bytes += text.len();
        self.pieces.push(text)
    }

    fn restart(&mut self) -> Result<(), cosmap_codegen::CodegenError> {
        *self.bytes = 0;
        self.pieces.restart()
    }
}

/// Pieces dropped as they come (without `--out`).
struct Dropped;

impl cosmap_codegen::Pieces for Dropped {
    fn push(&mut self, _: &str) -> Result<(), cosmap_codegen::CodegenError> {
        Ok(())
    }

    fn restart(&mut self) -> Result<(), cosmap_codegen::CodegenError> {
        Ok(())
    }
}

/// Prints what each part of the logical model holds: the bytes freed when it is
/// dropped, in turn.
fn logical_model_parts(logical: &mut cosmap_mapper::LogicalModel) {
    freed("decisions", std::mem::take(&mut logical.decisions));
    freed("operations", std::mem::take(&mut logical.operations));
    freed("containers", std::mem::take(&mut logical.containers));
}

/// Prints the bytes freed by dropping `part`.
fn freed<T>(name: &str, part: T) {
    let before = LIVE.load(Ordering::Relaxed);
    drop(part);
    let after = LIVE.load(Ordering::Relaxed);
    println!("logical model, {name}: {:.1} MB", (before - after) as f64 / 1e6);
}
