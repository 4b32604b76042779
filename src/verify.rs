//! `cosmap verify`: flags in, cosmap-verify's report out. The work is the library's.

use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::anyhow;
use cosmap_provision::{ProvisionError, Settings, Target};
use cosmap_verify::{fresh_database_name, verify, Engine, VerifyError};

use crate::cli::{VerifyArgs, VerifyFormat};
use crate::provision::Failure;

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let model = cosmap_domain::load_file(&args.model)?;
    let logical = cosmap_mapper::map(&model, &args.mapping.options());
    let engine = match &args.endpoint {
        None => Engine::InMemory,
        Some(endpoint) => {
            let now = SystemTime::now().duration_since(UNIX_EPOCH)?;
            let database = format!(
                "{}-{}",
                fresh_database_name(model.name(), now.as_secs()),
                run_suffix(now.subsec_nanos())
            );
            let target = Target::new(endpoint, args.key, &database)
                .map_err(|e| Failure::for_endpoint_flag(ProvisionError::from(e)))?;
            eprintln!(
                "verify: writing into the new database `{database}` at {}",
                target.endpoint()
            );
            Engine::Endpoint(target)
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let report = runtime
        .block_on(verify(&model, &logical, engine, Settings::default()))
        .inspect_err(|e| left_in_place(e, &args.endpoint))
        .map_err(|e| match e {
            VerifyError::Provision(e) => anyhow::Error::from(Failure::for_endpoint_flag(e)),
            other => match other.hint() {
                Some(hint) => anyhow!("{other}\n  hint: {hint}"),
                None => anyhow!("{other}"),
            },
        })?;
    // A report on an endpoint: verify created its database (it refuses an existing one).
    if args.endpoint.is_some() {
        eprintln!(
            "verify: the database `{}` it created is left in place: drop it when done",
            report.engine.database
        );
    }
    crate::print(&match args.format {
        VerifyFormat::Text => report.to_text(),
        VerifyFormat::Json => report.to_json(),
    })?;
    if report.passed() {
        Ok(())
    } else {
        Err(anyhow!(
            "{} of {} access patterns did not pass verification",
            report.summary.failed,
            report.summary.patterns
        ))
    }
}

/// Eight hex digits that tell this run's database from any other's, also from a run
/// started in the same second: the standard library's per-process random hash keys
/// over the process id and the clock's nanoseconds. (Verify still refuses a database
/// that exists: it writes only into one it creates.)
fn run_suffix(nanos: u32) -> String {
    use std::hash::BuildHasher;
    let random = std::collections::hash_map::RandomState::new().hash_one((std::process::id(), nanos));
    format!("{:08x}", random as u32)
}

/// After a failure on an endpoint: says the database is left in place only when verify
/// created it (the samples are written after the creation; a partial provisioning
/// lists it as made). A database found existing, or never reached, is not verify's.
fn left_in_place(error: &VerifyError, endpoint: &Option<String>) {
    if endpoint.is_none() {
        return;
    }
    let created = match error {
        VerifyError::Samples(_) | VerifyError::WriteSample { .. } => true,
        VerifyError::Provision(e) => e
            .made()
            .iter()
            .any(|a| a.action == cosmap_provision::AppliedAction::CreatedDatabase),
        VerifyError::DatabaseExists { .. } => false,
    };
    if created {
        eprintln!("verify: the database it created is left in place: drop it when done");
    }
}
