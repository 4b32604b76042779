//! `cosmap provision`: plan, print, apply. The work is cosmap-provision's; this file
//! turns flags into its inputs and its plan into a table or JSON.

use std::fmt;

use cosmap_provision::{
    apply_reporting, plan, Applied, ApplyOptions, Connection, ContainerAction, ContainerPlan, DatabaseAction,
    ErrorClass, Plan, ProvisionError, Settings, Target, Throughput, Trace,
};
use serde_json::json;

use crate::cli::{PlanFormat, ProvisionArgs};

/// Exit code when drift is refused.
const EXIT_DRIFT: u8 = 3;
/// Exit code for invalid usage.
const EXIT_USAGE: u8 = 2;
/// Exit code for failures.
const EXIT_FAILURE: u8 = 1;

/// A provisioning error with its exit code; its text is the message and the hint.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

impl From<ProvisionError> for Failure {
    fn from(error: ProvisionError) -> Self {
        let hint = error.hint();
        Failure::with_hint(error, hint)
    }
}

impl Failure {
    /// A failure with `code` and the whole `message` (hint included).
    pub fn new(code: u8, message: String) -> Failure {
        Failure { code, message }
    }

    /// For `cosmap verify` and `cosmap diff`, which read their endpoint from
    /// `--endpoint` only: the hint does not point to `COSMOS_ENDPOINT`.
    pub fn for_endpoint_flag(error: ProvisionError) -> Failure {
        let hint = error.hint_without_endpoint_variable();
        Failure::with_hint(error, hint)
    }

    fn with_hint(error: ProvisionError, hint: Option<String>) -> Failure {
        let code = match error.class() {
            ErrorClass::Usage => EXIT_USAGE,
            ErrorClass::Drift => EXIT_DRIFT,
            ErrorClass::Failure => EXIT_FAILURE,
        };
        let message = match hint {
            Some(hint) => format!("{error}\n  hint: {hint}"),
            None => error.to_string(),
        };
        Failure { code, message }
    }
}

pub fn run(args: ProvisionArgs) -> anyhow::Result<()> {
    let model = cosmap_domain::load_file(&args.model)?;
    let definitions = cosmap_mapper::map(&model, &args.mapping.options()).container_definitions();
    let database = args.database.clone().unwrap_or_else(|| model.name().to_string());
    let throughput = match (args.throughput, args.autoscale) {
        (Some(ru), _) => Throughput::manual(ru).map_err(ProvisionError::from),
        (None, Some(max)) => Throughput::autoscale(max).map_err(ProvisionError::from),
        (None, None) => Ok(Throughput::None),
    }
    .map_err(Failure::from)?;
    let (target, trace) = target_and_trace(args.account, &database, args.verbose)?;
    let options = ApplyOptions::default()
        .update_indexing(args.update_indexing)
        .create_database(args.create_database);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let connection = Connection::open(&target, Settings::default().trace(trace))
            .await
            .map_err(Failure::from)?;
        let plan = plan(&connection, &definitions, throughput)
            .await
            .map_err(Failure::from)?;
        let text = args.format == PlanFormat::Text;
        if text {
            crate::print(&render_plan(&plan, &options))?;
        }
        if args.dry_run {
            if !text {
                crate::print(&report(&plan, true, &[], None)?)?;
            }
            // Drift and a missing database are decided by the library, for a dry run
            // as for a real one.
            plan.refuse_drift().map_err(Failure::from)?;
            plan.refuse_missing_database(&options).map_err(Failure::from)?;
            if text {
                crate::print(&format!(
                    "\nDry run: nothing was changed ({} would be sent).\n",
                    writes(plan.writes(&options))
                ))?;
            }
            return Ok(());
        }
        // Each change is printed the moment it is made, so a failure further on
        // cannot hide what was already done.
        let mut first = true;
        let result = apply_reporting(&connection, &plan, &options, &mut |change| {
            if text {
                let gap = if std::mem::take(&mut first) { "\n" } else { "" };
                let _ = crate::print(&format!("{gap}{}\n", change.describe()));
            }
        })
        .await;
        match result {
            Ok(applied) => crate::print(&if text {
                render_outcome(&plan, &applied)
            } else {
                report(&plan, false, &applied, None)?
            }),
            Err(error) => {
                if !text {
                    crate::print(&report(&plan, false, error.made(), Some(&error))?)?;
                }
                Err(Failure::from(error).into())
            }
        }
    })
}

/// `{"plan": …, "dryRun": …, "applied": […], "error": …}` (docs/provisioning.md):
/// `applied` holds the changes made, also when `error` says what stopped the rest.
fn report(plan: &Plan, dry_run: bool, applied: &[Applied], error: Option<&ProvisionError>) -> anyhow::Result<String> {
    let mut report = json!({ "plan": plan, "dryRun": dry_run, "applied": applied });
    if let Some(error) = error {
        report["error"] = json!({
            "class": match error.class() {
                ErrorClass::Usage => "usage",
                ErrorClass::Drift => "drift",
                ErrorClass::Failure => "failure",
            },
            "message": error.to_string(),
            "hint": error.hint(),
        });
    }
    Ok(serde_json::to_string_pretty(&report)? + "\n")
}

fn render_plan(plan: &Plan, options: &ApplyOptions) -> String {
    let width = plan
        .containers
        .iter()
        .map(|c| c.id.chars().count())
        .chain([plan.database.id.chars().count()])
        .max()
        .unwrap_or(0);
    let mut out = format!("Plan for database `{}` at {}\n\n", plan.database.id, plan.endpoint);
    let database_action = match plan.database.action {
        DatabaseAction::Create if !options.create_database => "MISSING (created only with --create-database)",
        DatabaseAction::Create => "create",
        DatabaseAction::Present => "present",
    };
    out += &format!("  database   {:width$}  {database_action}\n", plan.database.id);
    for container in &plan.containers {
        let action = match container.action {
            ContainerAction::Create => "create",
            ContainerAction::Unchanged => "unchanged",
            ContainerAction::Differs => "differs",
            ContainerAction::Drift => "DRIFT",
        };
        out += &format!(
            "  container  {:width$}  {action:9}  {}\n",
            container.id,
            container.wanted.partition_key.paths.join(", ")
        );
        for difference in &container.differences {
            out += &format!(
                "  {:width$}             {}: {} on the server, the model wants {}\n",
                "",
                difference.property.label(),
                difference.current,
                difference.wanted
            );
        }
    }
    out += "\n";
    out += &summary(plan, options);
    out
}

/// The plan in one or two sentences.
fn summary(plan: &Plan, options: &ApplyOptions) -> String {
    let create = plan.count(ContainerAction::Create);
    let unchanged = plan.count(ContainerAction::Unchanged);
    let differs = plan.count(ContainerAction::Differs);
    let drift = plan.count(ContainerAction::Drift);
    let mut parts = vec![];
    if plan.database.action == DatabaseAction::Create {
        parts.push(if options.create_database {
            "1 database to create".to_string()
        } else {
            "the database is missing".to_string()
        });
    }
    for (count, what) in [
        (create, "to create"),
        (unchanged, "unchanged"),
        (differs, "differ"),
        (drift, "in drift"),
    ] {
        if count > 0 {
            parts.push(format!("{count} {} {what}", containers(count)));
        }
    }
    let mut out = parts.join(", ") + "\n";
    if create > 0 {
        out += &format!("Containers created get {}.\n", throughput_words(plan.throughput));
    }
    let indexing: Vec<&ContainerPlan> = plan
        .containers
        .iter()
        .filter(|c| c.replaces_indexing_policy())
        .collect();
    if !indexing.is_empty() && !options.update_indexing && drift == 0 {
        out += &format!(
            "Indexing policies that differ ({}) are left as they are: pass --update-indexing to replace them.\n",
            ids(&indexing)
        );
    }
    let ttl: Vec<&ContainerPlan> = plan.containers.iter().filter(|c| c.changes_default_ttl()).collect();
    if !ttl.is_empty() {
        out += &format!(
            "Default TTLs that differ ({}) are changed in place (Cosmos DB allows it): items without a `ttl` of their own then expire by the new default, counted from their last write.\n",
            ids(&ttl)
        );
    }
    out
}

fn throughput_words(throughput: Throughput) -> String {
    match throughput {
        Throughput::None => {
            "no throughput of their own (right for a serverless account, or a database sharing its throughput)"
                .to_string()
        }
        other => format!("{other} each"),
    }
}

fn containers(count: usize) -> &'static str {
    if count == 1 {
        "container"
    } else {
        "containers"
    }
}

fn ids(plans: &[&ContainerPlan]) -> String {
    plans
        .iter()
        .map(|c| format!("`{}`", c.id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// After a successful apply, whose changes were printed as they were made.
fn render_outcome(plan: &Plan, applied: &[Applied]) -> String {
    if !applied.is_empty() {
        return format!("Done: {}.\n", writes(applied.len()));
    }
    if plan.differs() {
        "\nNothing was changed: the differences listed above are left as they are.\n".to_string()
    } else {
        "\nNothing to do: everything is as the model says.\n".to_string()
    }
}

fn writes(count: usize) -> String {
    match count {
        0 => "no change".to_string(),
        1 => "1 change".to_string(),
        n => format!("{n} changes"),
    }
}

/// The account `account` names with `database`, and the request trace (`--verbose`: each
/// request on stderr, never the key): what `provision` and `migrate` connect with.
pub(crate) fn target_and_trace(
    account: crate::cli::AccountArgs,
    database: &str,
    verbose: bool,
) -> Result<(Target, Trace), Failure> {
    let target =
        Target::new(&account.endpoint, account.key, database).map_err(|e| Failure::from(ProvisionError::from(e)))?;
    Ok((target, trace(verbose)))
}

/// The request trace: with `verbose`, each request on stderr (never the key).
pub(crate) fn trace(verbose: bool) -> Trace {
    if verbose {
        Trace::to(|line| eprintln!("trace: {line}"))
    } else {
        Trace::off()
    }
}
