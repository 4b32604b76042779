//! `cosmap migrate`: maps two model files, plans the migration (cosmap-migrate), prints
//! it, and unless `--dry-run` runs it on the account with progress on stderr.

use cosmap_migrate::{Control, MigrateError, RunOptions};
use cosmap_provision::{Connection, Settings};
use serde_json::json;

use crate::cli::{MigrateArgs, PlanFormat};
use crate::provision::Failure;

/// Exit code when a change cannot be migrated (nothing was done).
pub const EXIT_REFUSED: u8 = 4;

/// Exit code when a rehearsal fails (the migration stops, a document does not read, or
/// a pattern fails).
pub const EXIT_REHEARSAL_FAILED: u8 = 5;

/// Progress lines on stderr every this many documents (and at each step's end).
const PROGRESS_EVERY: u64 = 500;

/// Runs `cosmap migrate`; returns the exit code.
pub fn run(args: MigrateArgs) -> anyhow::Result<u8> {
    let options = args.mapping.options().optimise(!args.no_optimise);
    let old = crate::load(&args.old)?;
    let new = crate::load(&args.new)?;
    let (old_logical, new_logical) = (cosmap_mapper::map(&old, &options), cosmap_mapper::map(&new, &options));
    let plan = match cosmap_migrate::plan(&old_logical, &new_logical) {
        Ok(plan) => plan,
        Err(refused @ MigrateError::Refused(_)) => {
            eprintln!("error: {refused}");
            return Ok(EXIT_REFUSED);
        }
        Err(other) => return Err(other.into()),
    };
    let text = args.format == PlanFormat::Text;
    if args.rehearse {
        return rehearse((&old, &old_logical), (&new, &new_logical), &plan, text);
    }
    if args.dry_run {
        crate::print(&if text {
            format!("{}\nDry run: nothing was sent.\n", plan.to_text())
        } else {
            serde_json::to_string_pretty(&json!({"plan": plan, "dryRun": true}))? + "\n"
        })?;
        return Ok(0);
    }
    if text {
        crate::print(&plan.to_text())?;
    }
    let database = args.database.clone().unwrap_or_else(|| old.name().to_string());
    let (target, trace) = crate::provision::target_and_trace(args.account, &database, args.verbose)?;
    let run_options = RunOptions::default()
        .page_size(args.page_size)
        .create_database(args.create_database);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let connection = match Connection::open(&target, Settings::default().trace(trace)).await {
            Ok(connection) => connection,
            Err(error) => {
                let failure = Failure::from(error);
                if !text {
                    crate::print(&outcome(&plan, None, Some(&failure.to_string()))?)?;
                }
                return Err(failure.into());
            }
        };
        let (report, error) = cosmap_migrate::run_reporting(&plan, &connection, &run_options, |p| {
            if p.done % PROGRESS_EVERY == 0 || Some(p.done) == p.total {
                let total = p.total.map_or("?".to_string(), |t| t.to_string());
                eprintln!("{}: {} / {total} documents, {:.1} RU", p.step, p.done, p.request_units);
            }
            Control::Continue
        })
        .await;
        let error = error.map(|e| match e {
            MigrateError::Provision(p) => anyhow::Error::from(provision_failure(p)),
            other => other.into(),
        });
        // What was done is printed also when an error stopped the rest.
        let message = error.as_ref().map(|e| match report.steps.is_empty() {
            true => e.to_string(),
            false => format!("{e}\n  {RESUMES}"),
        });
        crate::print(&if text {
            format!("\n{}", report.to_text())
        } else {
            outcome(&plan, Some(&report), message.as_deref())?
        })?;
        match (error, message) {
            (Some(error), Some(message)) => Err(match error.downcast::<Failure>() {
                Ok(failure) => Failure::new(failure.code, message).into(),
                Err(_) => anyhow::anyhow!(message),
            }),
            _ => Ok(0),
        }
    })
}

/// `--rehearse`: the plan, then the rehearsal on the in-memory engine; its text or
/// `{"plan": …, "rehearsal": …}`.
fn rehearse(
    old: (&cosmap_domain::DomainModel, &cosmap_mapper::LogicalModel),
    new: (&cosmap_domain::DomainModel, &cosmap_mapper::LogicalModel),
    plan: &cosmap_migrate::MigrationPlan,
    text: bool,
) -> anyhow::Result<u8> {
    let mapped = |(domain, logical)| cosmap_migrate::Mapped { domain, logical };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let rehearsal = runtime.block_on(cosmap_migrate::rehearse(mapped(old), mapped(new), plan))?;
    crate::print(&if text {
        format!("{}\n{}", plan.to_text(), rehearsal.to_text())
    } else {
        serde_json::to_string_pretty(&json!({"plan": plan, "rehearsal": rehearsal}))? + "\n"
    })?;
    Ok(if rehearsal.passed() { 0 } else { EXIT_REHEARSAL_FAILED })
}

/// A request's failure during a run: its message and hint, but no hint about
/// provisioning when retries ran out or a request timed out (a rerun resumes, said
/// after it).
fn provision_failure(error: cosmap_provision::ProvisionError) -> Failure {
    use cosmap_provision::ProvisionError as E;
    match error {
        E::RetriesExhausted { .. } | E::TimedOut { .. } => Failure::new(EXIT_FAILURE, error.to_string()),
        other => Failure::from(other),
    }
}

/// Exit code of a failure once connected.
const EXIT_FAILURE: u8 = 1;

/// Said after any failure once connected: nothing done is undone, and a rerun resumes.
const RESUMES: &str = "rerun: what was done is kept; running `cosmap migrate` again resumes each step from its lease";

/// `{"plan": …, "dryRun": false, "report": …, "error": …}`: the report holds the steps
/// done, also when `error` says what stopped the rest (`null` when nothing was sent).
fn outcome(
    plan: &cosmap_migrate::MigrationPlan,
    report: Option<&cosmap_migrate::MigrationReport>,
    error: Option<&str>,
) -> anyhow::Result<String> {
    let mut out = json!({"plan": plan, "dryRun": false, "report": report});
    if let Some(error) = error {
        out["error"] = json!({ "message": error });
    }
    Ok(serde_json::to_string_pretty(&out)? + "\n")
}
