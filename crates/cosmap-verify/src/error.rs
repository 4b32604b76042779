//! What can stop a verification before it has a report to give.
//!
//! A pattern that returns the wrong documents, or that the server refuses, is not an
//! error here: it is a failed line of the [`crate::Report`]. These errors are the
//! cases where there is nothing to report on — the engine or account cannot be
//! reached or provisioned, the database is not fresh, the sample documents cannot
//! be built or written.

use cosmap_provision::ProvisionError;
use thiserror::Error;

/// Everything that stops `verify` before it can check the access patterns.
#[derive(Debug, Error)]
pub enum VerifyError {
    /// Connecting, planning or creating the containers failed (or the target was refused).
    #[error(transparent)]
    Provision(#[from] ProvisionError),
    /// The database verify would use already exists: verify only writes into a new one.
    #[error("the database `{database}` already exists at {endpoint}; verify writes its sample documents only into a database it creates")]
    DatabaseExists {
        /// The account's endpoint.
        endpoint: String,
        /// The database that exists.
        database: String,
    },
    /// The logical model does not allow building a sample document.
    #[error("cannot build sample documents: {0}")]
    Samples(String),
    /// The server refused a sample document.
    #[error("could not write the sample document `{id}` into `{container}`: {cause}")]
    WriteSample {
        /// The container written.
        container: String,
        /// The sample document's id.
        id: String,
        /// Why the server refused it.
        cause: Box<ProvisionError>,
    },
}

impl VerifyError {
    /// What the user can do about it, when there is something to say.
    pub fn hint(&self) -> Option<String> {
        match self {
            VerifyError::Provision(e) => e.hint(),
            VerifyError::DatabaseExists { .. } => Some(
                "run verify again: it names a new database after the current time, with a random suffix".to_string(),
            ),
            VerifyError::Samples(_) | VerifyError::WriteSample { .. } => None,
        }
    }
}
