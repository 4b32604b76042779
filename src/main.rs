//! The `cosmap` command line: parses flags, runs the library crates, prints.
//! No mapping logic lives here.

mod cli;
mod cost;
mod diff;
mod generate;
mod migrate;
mod overview;
mod provision;
mod report;
mod text;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use cosmap_domain::{DomainModel, ModelError};

use cli::{Cli, Command, ModelFormat};

/// mimalloc instead of the system's allocator: the pipeline allocates and frees
/// millions of small strings and vectors (docs/performance.md, "The whole pipeline").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit code for an invalid model (bad JSON, wrong shape, failed validation).
const EXIT_INVALID: u8 = 2;
/// Exit code for every other failure (unreadable file, failed write, …).
const EXIT_FAILURE: u8 = 1;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            let code = match (
                err.downcast_ref::<ModelError>(),
                err.downcast_ref::<provision::Failure>(),
            ) {
                (Some(ModelError::Invalid { .. }), _) => EXIT_INVALID,
                (_, Some(failure)) => failure.code,
                _ if err.downcast_ref::<diff::Usage>().is_some() => EXIT_INVALID,
                _ => EXIT_FAILURE,
            };
            match err.downcast_ref::<ModelError>() {
                Some(ModelError::Invalid { .. }) => eprintln!("{err}"),
                _ => eprintln!("error: {}", chain(&err)),
            }
            ExitCode::from(code)
        }
    }
}

/// The error and its causes, `: `-separated, leaving out a cause whose text the
/// message already holds (library errors often name their cause themselves).
/// Hidden characters are escaped line by line.
fn chain(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        // A server's message or a name may hold ESC, OSC or bidi characters: shown escaped.
        let cause = cause
            .to_string()
            .split('\n')
            .map(cosmap_domain::naming::escape_hidden)
            .collect::<Vec<_>>()
            .join("\n");
        let text = cause;
        if out.is_empty() {
            out = text;
        } else if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
}

/// Runs the command; returns the exit code (0 but for `diff`, whose code is its worst change).
fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Diff(args) => diff::run(args),
        Command::Migrate(args) => migrate::run(args),
        command => run_command(command).map(|()| 0),
    }
}

fn run_command(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Check { model } => {
            let loaded = load(&model)?;
            let spec = loaded.spec();
            println!(
                "{}: the model `{}` is valid ({} entities, {} value objects, {} aggregates, {} relationships, {} access patterns)",
                model.display(),
                loaded.name(),
                spec.entities.len(),
                spec.value_objects.len(),
                spec.aggregates.len(),
                spec.relationships.len(),
                spec.access_patterns.len()
            );
            Ok(())
        }
        Command::Model {
            model,
            format,
            no_optimise,
            mapping,
        } => {
            let loaded = load(&model)?;
            let options = mapping.options().optimise(!no_optimise);
            let out = match format {
                ModelFormat::Text => {
                    // Mapped and priced once: the containers' figures and the
                    // comparison with the naive port come from the cost table.
                    let (logical, report) = cosmap_mapper::cost::map_and_cost(
                        &loaded,
                        &options,
                        cosmap_mapper::cost::Consistency::default(),
                    );
                    text::render(&logical, &report.containers.optimised, &report.dearer_than_naive)
                }
                ModelFormat::Json => serde_json::to_string_pretty(&cosmap_mapper::map(&loaded, &options))? + "\n",
                ModelFormat::Mermaid => {
                    let templates = cosmap_codegen::Templates::load(None)?;
                    cosmap_codegen::mermaid(&cosmap_mapper::map(&loaded, &options), &templates)?
                }
            };
            print(&out)
        }
        Command::Generate {
            model,
            out,
            templates,
            check,
            mapping,
            types,
            data_access,
        } => generate::run(
            load(&model)?,
            &out,
            templates.as_deref(),
            check,
            &mapping.options(),
            &types,
            data_access,
        ),
        Command::Provision(args) => provision::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Cost {
            model,
            format,
            consistency,
            sensitivity,
            mapping,
        } => cost::run(
            &load(&model)?,
            format,
            consistency.into(),
            sensitivity,
            &mapping.options(),
        ),
        Command::Report {
            model,
            out,
            consistency,
            mapping,
        } => report::run(&load(&model)?, &out, consistency.into(), &mapping.options()),
        Command::Schema => {
            let schema = cosmap_domain::ModelSpec::json_schema();
            print(&(serde_json::to_string_pretty(&schema)? + "\n"))
        }
        Command::Diff(_) | Command::Migrate(_) => unreachable!("`run` handles diff and migrate"),
    }
}

fn load(path: &std::path::Path) -> Result<DomainModel, ModelError> {
    cosmap_domain::load_file(path)
}

/// Writes to stdout; a closed pipe (`cosmap model … | head`) is not an error.
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
