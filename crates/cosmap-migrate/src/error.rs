//! [`MigrateError`]: what stops a plan or a run.

use cosmap_diff::Class;

/// A change `plan` cannot migrate.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// What changed (`Container/DocumentType.path`).
    pub subject: String,
    /// The change's kind, as `cosmap diff --format json` spells it.
    pub kind: String,
    /// The diff's class of the change.
    pub class: Class,
    /// Why it is refused.
    pub reason: String,
    /// What the user does next to make the change (empty when `reason` says it).
    pub next: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {}): {}", self.subject, self.kind, self.class, self.reason)?;
        if !self.next.is_empty() {
            write!(f, "; next: {}", self.next)?;
        }
        Ok(())
    }
}

/// What stops a migration.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// The two models cannot be compared.
    #[error(transparent)]
    Diff(#[from] cosmap_diff::DiffError),
    /// Changes the migration cannot make; nothing was done.
    #[error("cosmap migrate cannot migrate {} change{}; nothing was done:\n{}", .0.len(), if .0.len() == 1 { "" } else { "s" }, .0.iter().map(|r| format!("  - {r}")).collect::<Vec<_>>().join("\n"))]
    Refused(Vec<Refusal>),
    /// A rehearsal could not build or check its samples.
    #[error(transparent)]
    Verify(#[from] cosmap_verify::VerifyError),
    /// The server answers a request a migration needs in a shape Cosmos DB never
    /// sends: it lacks that feature (a local server without a change feed).
    #[error("{endpoint} does not serve {feature}, which `cosmap migrate` needs ({cause}): run it against Cosmos DB or its emulator, or rehearse it with `--rehearse`")]
    ServerFeature {
        /// The server.
        endpoint: String,
        /// What it lacks, in words.
        feature: String,
        /// What it answered.
        cause: String,
    },
    /// A request failed (after the connection's retries).
    #[error(transparent)]
    Provision(#[from] cosmap_provision::ProvisionError),
    /// A document or lease is not what the step expects.
    #[error("{step}: {message}")]
    Data {
        /// The step.
        step: String,
        /// What is wrong.
        message: String,
    },
}
