//! `cosmap migrate`: maps two model files, plans the migration (cosmap-migrate), prints
//! it, and unless `--dry-run` runs it on the account with progress on stderr.

use cosmap_migrate::{Control, MigrateError, RunOptions};
use cosmap_provision::{Connection, Settings};
use serde_json::json;

use crate::cli::{MigrateArgs, PlanFormat};
use crate::provision::Failure;

/// Exit code when a change cannot be migrated (nothing was done).
pub const EXIT_REFUSED: u8 = 4;

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
    let run_options = RunOptions::default().page_size(args.page_size);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let connection = Connection::open(&target, Settings::default().trace(trace))
            .await
            .map_err(Failure::from)?;
        let report = cosmap_migrate::run(&plan, &connection, &run_options, |p| {
            if p.done % PROGRESS_EVERY == 0 || Some(p.done) == p.total {
                let total = p.total.map_or("?".to_string(), |t| t.to_string());
                eprintln!("{}: {} / {total} documents, {:.1} RU", p.step, p.done, p.request_units);
            }
            Control::Continue
        })
        .await
        .map_err(|e| match e {
            MigrateError::Provision(p) => anyhow::Error::from(Failure::from(p)),
            other => other.into(),
        })?;
        crate::print(&if text {
            format!("\n{}", report.to_text())
        } else {
            serde_json::to_string_pretty(&json!({"plan": plan, "dryRun": false, "report": report}))? + "\n"
        })?;
        Ok(0)
    })
}
