//! `typify-vs-cosmap`: cosmap's Rust generation side by side with typify, in one process.
//!
//! Both sides start from the same synthetic logical model
//! (`cosmap_domain::synthetic::model(N)`, mapped with the default options):
//!
//! * **cosmap** renders the Rust document types (`cosmap.rs`) from the `LogicalModel` with
//!   `cosmap_codegen::render_rust`: the view, the `cosmap.rs.hbs` template, the `syn` parse
//!   and `prettyplease` printing (in chunks on every core). Wall clock and the process's CPU
//!   time (all threads) are both reported, as cosmap uses every core and typify one.
//! * **typify** gets the JSON Schemas cosmap emits (the `schemas/<container>/<doc>.schema.json`
//!   artefacts of `generate` with the default templates, as text) and, timed: parses each into
//!   a `schemars::schema::RootSchema`, adds them all to one `typify::TypeSpace` (default
//!   settings), `to_stream()`s it, then (the "+ prettyplease" figure) formats it with
//!   `prettyplease::unparse(&syn::parse2(..))`, as cosmap's output is formatted too.
//!
//! One `TypeSpace` keys `$defs` by name, so a definition that several schemas carry (the
//! same `RootNRef` or `RootNSnapshot` in documents of different containers) would be
//! emitted once per schema, under the same name. The harness therefore drops from each
//! schema the `$defs` entries an earlier schema already added, after checking they are
//! identical (a differing one is reported and kept); `$ref`s still resolve by name. That
//! is what cosmap does too (one `types` module). `--typify-mode per-schema` instead gives
//! every schema its own `TypeSpace` and module, as `cargo typify` run on each file would.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cosmap_codegen::{Templates, TypeMapping};
use cosmap_mapper::LogicalModel;
use schemars::schema::{RootSchema, Schema};
use typify::{TypeSpace, TypeSpaceSettings};

const USAGE: &str = "usage: typify-vs-cosmap [--aggregates N] [--runs R] [--warmup W] \
[--only cosmap|typify] [--typify-mode shared|per-schema] [--dump DIR]";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Both,
    Cosmap,
    Typify,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TypifyMode {
    /// One `TypeSpace` for all schemas; shared `$defs` added once.
    Shared,
    /// One `TypeSpace` (and output module) per schema.
    PerSchema,
}

struct Args {
    aggregates: usize,
    runs: usize,
    warmup: usize,
    side: Side,
    mode: TypifyMode,
    dump: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        aggregates: 1000,
        runs: 5,
        warmup: 1,
        side: Side::Both,
        mode: TypifyMode::Shared,
        dump: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--aggregates" | "-n" => args.aggregates = value()?.parse().map_err(|e| format!("--aggregates: {e}"))?,
            "--runs" => args.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--warmup" => args.warmup = value()?.parse().map_err(|e| format!("--warmup: {e}"))?,
            "--only" => {
                args.side = match value()?.as_str() {
                    "cosmap" => Side::Cosmap,
                    "typify" => Side::Typify,
                    other => return Err(format!("--only: `{other}` is not cosmap or typify")),
                }
            }
            "--typify-mode" => {
                args.mode = match value()?.as_str() {
                    "shared" => TypifyMode::Shared,
                    "per-schema" => TypifyMode::PerSchema,
                    other => return Err(format!("--typify-mode: `{other}` is not shared or per-schema")),
                }
            }
            "--dump" => args.dump = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    if args.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("typify-vs-cosmap: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args = parse_args()?;

    // --- Setup, not timed: the model, its logical model, the schemas cosmap emits. ---
    let started = Instant::now();
    let model = cosmap_domain::DomainModel::new(cosmap_domain::synthetic::model(args.aggregates))
        .map_err(|problems| format!("synthetic model invalid: {problems:?}"))?;
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    let mapping = TypeMapping::default();
    let mapped = started.elapsed();
    // The schemas, only for typify (so `--only cosmap` under callgrind skips this).
    let schemas: Vec<(String, String)> = if args.side == Side::Cosmap {
        Vec::new()
    } else {
        let templates = Templates::load(None).map_err(|e| e.to_string())?;
        cosmap_codegen::generate(&logical, &mapping, &templates)
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|a| a.path.starts_with("schemas"))
            .map(|a| (a.path.display().to_string(), a.contents))
            .collect()
    };
    let templates = Templates::load(None).map_err(|e| e.to_string())?;
    let documents: usize = logical.containers.iter().map(|c| c.document_types.len()).sum();
    println!(
        "model: {} aggregates -> {} containers, {} document types, {} JSON Schemas ({} bytes); \
         setup (not timed): model + map {:.2?}, all {:.2?}",
        args.aggregates,
        logical.containers.len(),
        documents,
        schemas.len(),
        schemas.iter().map(|(_, t)| t.len()).sum::<usize>(),
        mapped,
        started.elapsed(),
    );

    let mut rows: Vec<(&str, Stats)> = Vec::new();
    let mut outputs: Vec<(&str, String)> = Vec::new();

    if args.side != Side::Typify {
        let mut rust = String::new();
        let times = measure(args.warmup, args.runs, || {
            rust = cosmap_rust(&logical, &mapping, &templates)?;
            Ok(vec![])
        })?;
        rows.push(("cosmap: Rust types (render_rust)", Stats::of(&times[0])));
        outputs.push(("cosmap", rust));
    }

    if args.side != Side::Cosmap {
        let mut report = TypifyReport::default();
        let mut formatted = String::new();
        let times = measure(args.warmup, args.runs, || {
            let start = Clock::now();
            let (tokens, r) = typify_tokens(&schemas, args.mode)?;
            let tokens_done = start.elapsed();
            formatted = pretty(tokens)?;
            let formatted_done = start.elapsed();
            report = r;
            Ok(vec![tokens_done, formatted_done])
        })?;
        report.print();
        rows.push(("typify: parse + TypeSpace + to_stream", Stats::of(&times[1])));
        rows.push(("typify + prettyplease (syn::parse2, unparse)", Stats::of(&times[2])));
        outputs.push(("typify", formatted));
    }

    // --- Report. ---
    println!();
    println!(
        "N = {}, {} runs after {} warm-up; wall clock, and CPU time of the whole process (all threads; \
         {} cores available)",
        args.aggregates,
        args.runs,
        args.warmup,
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    println!(
        "{:<52} {:>11} {:>11} {:>11} {:>11}",
        "what", "wall median", "wall min", "CPU median", "CPU min"
    );
    for (name, s) in &rows {
        println!(
            "{name:<52} {:>11} {:>11} {:>11} {:>11}",
            ms(s.wall_median),
            ms(s.wall_min),
            ms(s.cpu_median),
            ms(s.cpu_min)
        );
    }
    if let (Some(c), Some(t), Some(tp)) = (
        rows.iter().find(|r| r.0.starts_with("cosmap")),
        rows.iter().find(|r| r.0.starts_with("typify:")),
        rows.iter().find(|r| r.0.starts_with("typify +")),
    ) {
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        for (what, typify) in [("typify", &t.1), ("typify + prettyplease", &tp.1)] {
            println!(
                "ratio cosmap / {what:<22} wall {:.2} (median) {:.2} (min); CPU {:.2} (median) {:.2} (min)  \
                 (goal: <= 0.50)",
                ratio(c.1.wall_median, typify.wall_median),
                ratio(c.1.wall_min, typify.wall_min),
                ratio(c.1.cpu_median, typify.cpu_median),
                ratio(c.1.cpu_min, typify.cpu_min),
            );
        }
    }
    println!();
    println!(
        "{:<8} {:>12} {:>9} {:>8} {:>7} {:>7} {:>7} {:>7}",
        "output", "bytes", "lines", "structs", "enums", "types", "impls", "mods"
    );
    for (side, text) in &outputs {
        let c = Counts::of(text)?;
        println!(
            "{side:<8} {:>12} {:>9} {:>8} {:>7} {:>7} {:>7} {:>7}",
            text.len(),
            text.lines().count(),
            c.structs,
            c.enums,
            c.aliases,
            c.impls,
            c.mods
        );
    }
    if let Some(dir) = &args.dump {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (side, text) in &outputs {
            let path = dir.join(format!("{side}.rs"));
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        for (path, text) in &schemas {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap_or(dir)).map_err(|e| e.to_string())?;
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        println!("outputs and schemas written to {}", dir.display());
    }
    Ok(())
}

/// cosmap's side: the Rust document types of `model`. A function of its own, never
/// inlined, so that `profile.sh` can cut it out of a callgrind run.
#[inline(never)]
fn cosmap_rust(model: &LogicalModel, mapping: &TypeMapping, templates: &Templates) -> Result<String, String> {
    cosmap_codegen::render_rust(model, mapping, templates).map_err(|e| e.to_string())
}

/// typify's tokens formatted the way cosmap formats its own: `prettyplease`.
#[inline(never)]
fn pretty(tokens: proc_macro2::TokenStream) -> Result<String, String> {
    let file = syn::parse2::<syn::File>(tokens).map_err(|e| format!("typify's output does not parse: {e}"))?;
    Ok(prettyplease::unparse(&file))
}

/// What typify was given, beyond the schema texts.
#[derive(Default)]
struct TypifyReport {
    schemas: usize,
    defs_total: usize,
    defs_dropped_as_duplicates: usize,
    conflicting_defs: Vec<String>,
    duplicate_titles: Vec<String>,
}

impl TypifyReport {
    fn print(&self) {
        println!(
            "typify input: {} root schemas, {} $defs entries ({} dropped as identical repeats of an earlier schema's)",
            self.schemas, self.defs_total, self.defs_dropped_as_duplicates
        );
        if !self.conflicting_defs.is_empty() {
            println!(
                "  $defs with one name but different content: {:?}",
                self.conflicting_defs
            );
        }
        if !self.duplicate_titles.is_empty() {
            println!(
                "  root schemas sharing a title (type name): {:?}",
                self.duplicate_titles
            );
        }
    }
}

/// The timed typify pipeline up to its token stream.
#[inline(never)]
fn typify_tokens(
    schemas: &[(String, String)],
    mode: TypifyMode,
) -> Result<(proc_macro2::TokenStream, TypifyReport), String> {
    let settings = TypeSpaceSettings::default();
    let mut report = TypifyReport {
        schemas: schemas.len(),
        ..TypifyReport::default()
    };
    match mode {
        TypifyMode::Shared => {
            let mut space = TypeSpace::new(&settings);
            let mut seen_defs: BTreeMap<String, Schema> = BTreeMap::new();
            let mut seen_titles: BTreeMap<String, String> = BTreeMap::new();
            for (path, text) in schemas {
                let mut root: RootSchema =
                    serde_json::from_str(text).map_err(|e| format!("{path}: not a RootSchema: {e}"))?;
                report.defs_total += root.definitions.len();
                root.definitions.retain(|name, schema| match seen_defs.get(name) {
                    Some(earlier) if earlier == schema => {
                        report.defs_dropped_as_duplicates += 1;
                        false
                    }
                    Some(_) => {
                        report.conflicting_defs.push(format!("{path}#/$defs/{name}"));
                        true
                    }
                    None => {
                        seen_defs.insert(name.clone(), schema.clone());
                        true
                    }
                });
                if let Some(title) = root.schema.metadata.as_ref().and_then(|m| m.title.clone()) {
                    if let Some(first) = seen_titles.insert(title.clone(), path.clone()) {
                        report.duplicate_titles.push(format!("{title}: {first}, {path}"));
                    }
                }
                space
                    .add_root_schema(root)
                    .map_err(|e| format!("typify rejected {path}: {e}"))?;
            }
            Ok((space.to_stream(), report))
        }
        TypifyMode::PerSchema => {
            let mut all = proc_macro2::TokenStream::new();
            for (path, text) in schemas {
                let root: RootSchema =
                    serde_json::from_str(text).map_err(|e| format!("{path}: not a RootSchema: {e}"))?;
                report.defs_total += root.definitions.len();
                let mut space = TypeSpace::new(&settings);
                space
                    .add_root_schema(root)
                    .map_err(|e| format!("typify rejected {path}: {e}"))?;
                let module = quote_ident(&module_name(path));
                let body = space.to_stream();
                all.extend(quote_mod(module, body));
            }
            Ok((all, report))
        }
    }
}

/// `schemas/Root0/Part0x1.schema.json` -> `root0_part0x1`.
fn module_name(path: &str) -> String {
    let trimmed = path.trim_start_matches("schemas/").trim_end_matches(".schema.json");
    trimmed
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

fn quote_ident(name: &str) -> proc_macro2::Ident {
    proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
}

fn quote_mod(name: proc_macro2::Ident, body: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let mut out = proc_macro2::TokenStream::new();
    out.extend([
        TokenTree::Ident(quote_ident("pub")),
        TokenTree::Ident(quote_ident("mod")),
        TokenTree::Ident(name),
        TokenTree::Group(Group::new(Delimiter::Brace, body)),
    ]);
    out
}

/// A point in wall-clock time and in the process's CPU time (all threads).
struct Clock {
    wall: Instant,
    cpu: Duration,
}

/// Wall-clock and CPU time spent since a [`Clock`].
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    cpu: Duration,
}

impl Clock {
    fn now() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: process_cpu_time(),
        }
    }

    fn elapsed(&self) -> Sample {
        Sample {
            wall: self.wall.elapsed(),
            cpu: process_cpu_time().saturating_sub(self.cpu),
        }
    }
}

/// CPU time of this process, every thread included (cosmap renders on several).
fn process_cpu_time() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec; CLOCK_PROCESS_CPUTIME_ID exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Runs `f` `warmup` times untimed, then `runs` times timed. Column 0 is the whole call;
/// further columns are split times `f` returns.
fn measure(
    warmup: usize,
    runs: usize,
    mut f: impl FnMut() -> Result<Vec<Sample>, String>,
) -> Result<Vec<Vec<Sample>>, String> {
    for _ in 0..warmup {
        f()?;
    }
    let mut columns: Vec<Vec<Sample>> = vec![Vec::new()];
    for _ in 0..runs {
        let start = Clock::now();
        let splits = f()?;
        columns[0].push(start.elapsed());
        for (i, d) in splits.into_iter().enumerate() {
            if columns.len() <= i + 1 {
                columns.push(Vec::new());
            }
            columns[i + 1].push(d);
        }
    }
    Ok(columns)
}

struct Stats {
    wall_median: Duration,
    wall_min: Duration,
    cpu_median: Duration,
    cpu_min: Duration,
}

impl Stats {
    fn of(samples: &[Sample]) -> Stats {
        let wall: Vec<Duration> = samples.iter().map(|s| s.wall).collect();
        let cpu: Vec<Duration> = samples.iter().map(|s| s.cpu).collect();
        let (wall_median, wall_min) = median_min(wall);
        let (cpu_median, cpu_min) = median_min(cpu);
        Stats {
            wall_median,
            wall_min,
            cpu_median,
            cpu_min,
        }
    }
}

fn median_min(mut sorted: Vec<Duration>) -> (Duration, Duration) {
    sorted.sort();
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2
    };
    (median, sorted[0])
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// Items in a generated file, counted through nested modules.
#[derive(Default)]
struct Counts {
    structs: usize,
    enums: usize,
    aliases: usize,
    impls: usize,
    mods: usize,
}

impl Counts {
    fn of(text: &str) -> Result<Counts, String> {
        let file = syn::parse_file(text).map_err(|e| format!("output does not parse: {e}"))?;
        let mut c = Counts::default();
        c.add(&file.items);
        Ok(c)
    }

    fn add(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Struct(_) => self.structs += 1,
                syn::Item::Enum(_) => self.enums += 1,
                syn::Item::Type(_) => self.aliases += 1,
                syn::Item::Impl(_) => self.impls += 1,
                syn::Item::Mod(m) => {
                    self.mods += 1;
                    if let Some((_, inner)) = &m.content {
                        self.add(inner);
                    }
                }
                _ => {}
            }
        }
    }
}
