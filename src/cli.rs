//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use cosmap_provision::{AccountKey, EMULATOR_ENDPOINT};

/// Maps a Domain-Driven-Design model to an Azure Cosmos DB (NoSQL API) data model.
#[derive(Debug, Parser)]
#[command(name = "cosmap", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 failure (for example an unreadable file), 2 invalid model or usage, 3 provisioning refused because of drift; `cosmap diff`: 0 no changes, 10-13 the worst change's class (see `cosmap diff --help`)."
)]
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
        #[command(flatten)]
        mapping: MappingArgs,
    },
    /// Generate container definitions, Bicep, Rust document types, JSON Schemas and a diagram.
    Generate {
        /// The model file (JSON).
        model: PathBuf,
        /// Directory to write into (created if missing); files are rewritten only when they change.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Directory of handlebars overrides, each rendered from its file's view in place of the built-in writer: cosmap.rs.hbs, containers.json.hbs, containers.bicep.hbs, document.schema.json.hbs, model.mmd.hbs, cosmap_data.rs.hbs.
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Write nothing; exit 1 if any file in `--out` is missing or stale (for CI).
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        mapping: MappingArgs,
        /// Map an attribute type to a crate's Rust type in `cosmap.rs` (repeatable):
        /// dateTime=chrono|time, date=chrono|time, uuid=uuid, decimal=rust_decimal
        /// (or =string, the default). Values are written in one canonical, sortable text form.
        #[arg(long = "type", value_name = "KIND=CRATE")]
        types: Vec<String>,
        /// Also write `cosmap_data.rs`: data access on the Azure SDK (`azure_data_cosmos`): a
        /// handle per container, a repository per aggregate, a method per access pattern and a
        /// change-feed worker per copy. Include it beside `cosmap.rs`.
        #[arg(long)]
        data_access: bool,
    },
    /// Estimate request units per access pattern: naive port, MR1-MR6, and MR1-MR6 with optimisations.
    Cost {
        /// The model file (JSON).
        model: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CostFormat::Text)]
        format: CostFormat,
        /// Read consistency of the account (strong and bounded staleness double read costs).
        #[arg(long, value_enum, default_value_t = ConsistencyArg::Session)]
        consistency: ConsistencyArg,
        /// Also show how the design changes at half and twice each access pattern's rate
        /// and each entity's count (maps the model twice per figure).
        #[arg(long)]
        sensitivity: bool,
        #[command(flatten)]
        mapping: MappingArgs,
    },
    /// Write a self-contained HTML design report: overview, diagram, cost charts, requests, decisions.
    Report {
        /// The model file (JSON).
        model: PathBuf,
        /// The HTML file to write.
        #[arg(long, default_value = "report.html")]
        out: PathBuf,
        /// Read consistency the cost figures assume.
        #[arg(long, value_enum, default_value_t = ConsistencyArg::Session)]
        consistency: ConsistencyArg,
        #[command(flatten)]
        mapping: MappingArgs,
    },
    /// Print the JSON Schema of the model file format.
    Schema,
    /// Create the model's database and containers on a Cosmos DB account or emulator.
    #[command(after_help = PROVISION_HELP)]
    Provision(ProvisionArgs),
    /// Run every access pattern on sample documents and check what comes back (in-memory engine by default).
    #[command(after_help = VERIFY_HELP)]
    Verify(VerifyArgs),
    /// Show what changing the model does: each difference of the logical models (or,
    /// with --endpoint, of the containers provisioned on an account) classified as in
    /// place, additive, data migration or breaking for readers.
    #[command(
        after_help = DIFF_HELP,
        override_usage = "cosmap diff [OPTIONS] <OLD> <NEW>\n       cosmap diff [OPTIONS] <NEW> --endpoint <ENDPOINT>"
    )]
    Diff(DiffArgs),
    /// Migrate the documents from OLD to NEW: create containers, copy repartitioned
    /// containers, split embedded value objects out; resumable, never deleting.
    #[command(after_help = MIGRATE_HELP)]
    Migrate(MigrateArgs),
}

const MIGRATE_HELP: &str = "\
Maps OLD and NEW, plans the migration from their diff (docs/migrate.md) and runs it
through the SDK: new containers first (never deleting or replacing one), then the copies
and rewrites, each reading a change feed from the beginning and keeping its position in
a lease document, so a run that stops resumes where it was. Nothing is deleted: the
report lists what you may drop once satisfied. A change it cannot migrate refuses the
whole plan, each one named, before anything is sent. With --rehearse, the plan runs on
the in-memory engine over cosmap verify's samples of OLD, then NEW's types and access
patterns are checked on the result; no account is touched.

Exit codes: 0 done (or a dry run, or a rehearsal that passed); 4 a change cannot be
migrated (nothing was done); 5 the rehearsal failed; 1 failure; 2 invalid model or
usage.";

/// The account `provision` and `migrate` connect to: endpoint and key.
#[derive(Debug, Args)]
pub struct AccountArgs {
    /// The account endpoint. http:// and the emulator's well-known key are only used for
    /// loopback hosts (localhost, 127.0.0.1, [::1]).
    #[arg(long, env = "COSMOS_ENDPOINT", default_value = EMULATOR_ENDPOINT)]
    pub endpoint: String,
    /// The account key; prefer COSMOS_KEY (a flag shows in the process list). Never printed.
    /// Without it, loopback endpoints get the emulator's well-known key.
    #[arg(long, env = "COSMOS_KEY", hide_env_values = true, value_parser = key)]
    pub key: Option<AccountKey>,
}

/// `cosmap migrate`.
#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The model as it is deployed (JSON): its documents are the ones already written.
    pub old: PathBuf,
    /// The changed model (JSON).
    pub new: PathBuf,
    #[command(flatten)]
    pub account: AccountArgs,
    /// The database holding OLD's containers [default: OLD's name].
    #[arg(long)]
    pub database: Option<String>,
    /// Create the database when it does not exist (without it, a missing database is
    /// an error and nothing is created).
    #[arg(long)]
    pub create_database: bool,
    /// Print the plan and send nothing (no connection is made).
    #[arg(long)]
    pub dry_run: bool,
    /// Rehearse on the in-memory engine instead (no connection is made): write
    /// cosmap verify's samples of OLD, run the plan, then check that NEW's types read
    /// every document and NEW's access patterns pass on them; exit 5 when not.
    #[arg(long, conflicts_with = "dry_run")]
    pub rehearse: bool,
    /// Output format of the plan (`--dry-run`) and of the report.
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
    /// Changes read per change feed page; the lease is written after each page.
    #[arg(long, default_value_t = 100)]
    pub page_size: u32,
    /// Trace each request on stderr (never the key).
    #[arg(long, short)]
    pub verbose: bool,
    /// Map both models with rules MR1-MR6 only, without the optimisations.
    #[arg(long)]
    pub no_optimise: bool,
    #[command(flatten)]
    pub mapping: MappingArgs,
}

const DIFF_HELP: &str = "\
Maps OLD and NEW and compares the logical models: containers, partition keys, unique
keys, indexing, TTL, document types, properties, embedded or separate value objects,
references, copies and other derived data. Each change is classified by what it takes to
deploy; data migrations are estimated in documents and RU from OLD's volumes
(docs/diff.md).

With --endpoint, the one model file is NEW and the old side is what is provisioned in the
database on that account (reads only): containers only (added, removed, partition keys,
unique keys, indexing, TTL), since an account holds no model of its documents; compare
two model files for document shapes. COSMOS_ENDPOINT is not read: `cosmap diff OLD NEW`
stays a comparison of two files.

Exit codes (the worst change's class, like `terraform plan -detailed-exitcode`):
  0   no changes
  10  in place: indexing, TTL, properties left behind (nothing is rewritten)
  11  additive: new containers, document types, optional properties
  12  data migration: documents must be rewritten, copied or back-filled
  13  breaking for readers: old documents no longer deserialise into the new types
  1   failure (an unreadable file; with --endpoint: unreachable, key rejected)
  2   invalid model or usage (one file without --endpoint, two files with it)";

/// `cosmap diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The model as it is deployed (JSON): its documents are the ones already written.
    /// With --endpoint: the changed model, NEW.
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The changed model (JSON). Not with --endpoint.
    #[arg(value_name = "NEW")]
    pub new: Option<PathBuf>,
    /// Compare NEW with what is provisioned on this Cosmos DB account or emulator (its
    /// containers only) instead of with a second file. http:// and the emulator's
    /// well-known key are only used for loopback hosts (localhost, 127.0.0.1, [::1]).
    #[arg(long)]
    pub endpoint: Option<String>,
    /// The account key for --endpoint; prefer COSMOS_KEY (a flag shows in the process
    /// list). Never printed. Without it, loopback endpoints get the emulator's well-known key.
    #[arg(long, env = "COSMOS_KEY", hide_env_values = true, value_parser = key)]
    pub key: Option<AccountKey>,
    /// The database to read with --endpoint [default: NEW's name].
    #[arg(long, requires = "endpoint")]
    pub database: Option<String>,
    /// Trace each request to --endpoint on stderr (never the key).
    #[arg(long, short, requires = "endpoint")]
    pub verbose: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Map the models with rules MR1-MR6 only, without the optimisations.
    #[arg(long)]
    pub no_optimise: bool,
    #[command(flatten)]
    pub mapping: MappingArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// The changes by class, worst first, each with what to do.
    Text,
    /// The documented JSON (docs/diff.md).
    Json,
}

const PROVISION_HELP: &str = "\
Plans first (reads only), prints the plan, then creates what is missing. Never deletes or
recreates anything; a second run changes nothing. Drift (a partition key or unique keys that
differ from the model: Cosmos DB cannot change them in place) is refused before any change.

Exit codes:
  0  done, or nothing to do (everything unchanged)
  1  failure: endpoint unreachable, key rejected (401/403), throttled or failing after retries
  2  invalid model or usage (bad endpoint, missing key, invalid throughput)
  3  drift refused before any change, or found midway (the error lists the changes made)";

const VERIFY_HELP: &str = "\
Provisions the containers, writes deterministic sample documents for every document type
(copies included), runs each access pattern's operation (point reads, queries with their
SQL, writes and copy-sync writes) and checks each answer against the samples. Without
--endpoint it runs on the SDK's in-memory Cosmos DB engine inside this process; with it, in
a new database named <model>-verify-<unix seconds>-<random>, which is left in place for you to drop.

Exit codes:
  0  every access pattern passed
  1  a pattern failed (or the server refused it), or the endpoint could not be used
  2  invalid model or usage (bad endpoint, missing key)";

/// `cosmap verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The model file (JSON).
    pub model: PathBuf,
    /// Verify on this Cosmos DB account or emulator instead of the in-memory engine, in a
    /// new database. http:// and the emulator's well-known key are only used for loopback
    /// hosts (localhost, 127.0.0.1, [::1]). COSMOS_ENDPOINT is not read: verify writes
    /// only where it is told to.
    #[arg(long)]
    pub endpoint: Option<String>,
    /// The account key for --endpoint; prefer COSMOS_KEY (a flag shows in the process
    /// list). Never printed. Without it, loopback endpoints get the emulator's well-known key.
    #[arg(long, env = "COSMOS_KEY", hide_env_values = true, value_parser = key)]
    pub key: Option<AccountKey>,
    /// Output format of the report.
    #[arg(long, value_enum, default_value_t = VerifyFormat::Text)]
    pub format: VerifyFormat,
    #[command(flatten)]
    pub mapping: MappingArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    /// A table, then the details of what did not pass.
    Text,
    /// The documented JSON report (docs/verify.md).
    Json,
}

/// `cosmap provision`.
#[derive(Debug, Args)]
pub struct ProvisionArgs {
    /// The model file (JSON).
    pub model: PathBuf,
    #[command(flatten)]
    pub account: AccountArgs,
    /// The database to provision into [default: the model's name].
    #[arg(long)]
    pub database: Option<String>,
    /// Create the database when it does not exist (without it, a missing database is
    /// an error and nothing is created).
    #[arg(long)]
    pub create_database: bool,
    /// Print the plan and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Output format of the plan.
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
    /// Manual throughput (RU/s, at least 400) for each container created.
    #[arg(long, value_name = "RU", conflicts_with = "autoscale")]
    pub throughput: Option<u32>,
    /// Autoscale throughput up to MAX RU/s (at least 1000) for each container created.
    #[arg(long, value_name = "MAX")]
    pub autoscale: Option<u32>,
    /// Also replace indexing policies that differ from the model (Cosmos DB re-indexes in place).
    #[arg(long)]
    pub update_indexing: bool,
    /// Trace each request on stderr (never the key).
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub mapping: MappingArgs,
}

/// Takes any value without checking it here: a clap error would echo it.
fn key(value: &str) -> Result<AccountKey, std::convert::Infallible> {
    Ok(AccountKey::new(value))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    /// A table.
    Text,
    /// The plan and what was done, as JSON (docs/provisioning.md).
    Json,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CostFormat {
    /// Human-readable, fits an 80-column terminal.
    Text,
    /// The documented JSON contract (docs/cost.md).
    Json,
}

/// How the model is mapped: the same flags, meaning the same, on every command that
/// maps it (`model`, `generate`, `cost`, `provision`, `verify`, `diff`).
#[derive(Debug, Clone, Args)]
pub struct MappingArgs {
    /// Keep Cosmos DB's default indexing policy (index every path) instead of indexing
    /// only what the access patterns filter and sort on.
    #[arg(long)]
    pub index_all: bool,
}

impl MappingArgs {
    /// The mapper's options these flags ask for: the one place the CLI builds them.
    pub fn options(&self) -> cosmap_mapper::Options {
        cosmap_mapper::Options::default().index_all(self.index_all)
    }
}

/// `--consistency`: the account's read consistency (names as in Cosmos DB's API;
/// the kebab-case forms are accepted too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConsistencyArg {
    Strong,
    #[value(name = "boundedStaleness", alias = "bounded-staleness")]
    BoundedStaleness,
    Session,
    #[value(name = "consistentPrefix", alias = "consistent-prefix")]
    ConsistentPrefix,
    Eventual,
}

impl From<ConsistencyArg> for cosmap_mapper::cost::Consistency {
    fn from(arg: ConsistencyArg) -> Self {
        use cosmap_mapper::cost::Consistency;
        match arg {
            ConsistencyArg::Strong => Consistency::Strong,
            ConsistencyArg::BoundedStaleness => Consistency::BoundedStaleness,
            ConsistencyArg::Session => Consistency::Session,
            ConsistencyArg::ConsistentPrefix => Consistency::ConsistentPrefix,
            ConsistencyArg::Eventual => Consistency::Eventual,
        }
    }
}
