//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Maps a Domain-Driven-Design model to an Azure Cosmos DB (NoSQL API) data model.
#[derive(Debug, Parser)]
#[command(name = "cosmap", version, about, long_about = None)]
#[command(after_help = "Exit codes: 0 success, 1 failure (for example an unreadable file), 2 invalid model or usage.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate a model file and report every problem at once.
    Check {
        /// The model file (JSON).
        model: PathBuf,
    },
    /// Print the logical Cosmos DB model, with the rule behind each decision.
    Model {
        /// The model file (JSON).
        model: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ModelFormat::Text)]
        format: ModelFormat,
        /// Apply rules MR1-MR6 only, without the optimisations (copies, embedded reference data).
        #[arg(long)]
        no_optimise: bool,
    },
    /// Generate container definitions, Bicep, Rust document types, JSON Schemas and a diagram.
    Generate {
        /// The model file (JSON).
        model: PathBuf,
        /// Directory to write into (created if missing); files are rewritten only when they change.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Directory of template overrides, named like the templates in `templates/`.
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Write nothing; exit 1 if any file in `--out` is missing or stale (for CI).
        #[arg(long)]
        check: bool,
    },
    /// Print the JSON Schema of the model file format.
    Schema,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelFormat {
    /// Human-readable, fits an 80-column terminal.
    Text,
    /// The documented JSON contract (docs/logical-model.md).
    Json,
    /// A Mermaid flowchart (the same as `generate` writes to model.mmd).
    Mermaid,
}
