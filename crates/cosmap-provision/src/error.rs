//! Typed errors, and the translation of SDK errors into messages a user can act on.
//!
//! The SDK reports an unreachable endpoint as `503/20010 … error sending request`;
//! the useful words ("connection refused", a DNS or certificate failure) are only in
//! the error's source chain, so [`cause`] walks it. No message here is built from
//! the key, request headers or SDK diagnostics.

use std::error::Error as StdError;
use std::io::ErrorKind;
use std::time::Duration;

use azure_data_cosmos::CosmosError;
use thiserror::Error;

use crate::plan::{ContainerPlan, Difference};
use crate::retry::Failure;
use crate::target::TargetError;
use crate::throughput::ThroughputError;

/// Everything provisioning can fail with.
#[derive(Debug, Error)]
pub enum ProvisionError {
    /// The endpoint, key or database name was refused before anything was sent.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The throughput asked for is not one Cosmos DB accepts.
    #[error(transparent)]
    Throughput(#[from] ThroughputError),
    /// Nothing answered at the endpoint.
    #[error("cannot reach {endpoint}: {cause}")]
    Unreachable {
        /// The account endpoint.
        endpoint: String,
        /// Why it failed.
        cause: String,
        /// Whether the endpoint is on this machine (the emulator's address).
        loopback: bool,
    },
    /// The server refused the key.
    #[error("the key was rejected (401/403) by {endpoint} when trying to {operation}")]
    KeyRejected {
        /// The account endpoint.
        endpoint: String,
        /// What was being done.
        operation: String,
        /// The HTTP status the server answered.
        status: String,
    },
    /// Throttled or failing transiently on every attempt.
    #[error("could not {operation}: {endpoint} answered {status} on each of {attempts} attempts{}", http_requests_note(*.attempts, *.requests))]
    RetriesExhausted {
        /// The account endpoint.
        endpoint: String,
        /// What was being done.
        operation: String,
        /// The HTTP status the server answered.
        status: String,
        /// How many times it was tried.
        attempts: u32,
        /// HTTP requests sent in all: the SDK retries some answers itself within one attempt.
        requests: usize,
    },
    /// No answer within the request timeout.
    #[error("could not {operation}: no answer from {endpoint} within {} s", .timeout.as_secs_f32())]
    TimedOut {
        /// The account endpoint.
        endpoint: String,
        /// What was being done.
        operation: String,
        /// How long it waited.
        timeout: Duration,
    },
    /// Any other refusal by the server.
    #[error("could not {operation}: {endpoint} answered {status}: {message}")]
    Refused {
        /// The account endpoint.
        endpoint: String,
        /// What was being done.
        operation: String,
        /// The HTTP status the server answered.
        status: String,
        /// The message that came with it.
        message: String,
    },
    /// The SDK failed before anything reached the server.
    #[error("could not {operation}: {message}")]
    Client {
        /// What was being done.
        operation: String,
        /// The message that came with it.
        message: String,
    },
    /// An answer that is not what Cosmos DB sends.
    #[error("could not {operation}: the answer from {endpoint} is not a Cosmos DB resource ({message})")]
    BadAnswer {
        /// The account endpoint.
        endpoint: String,
        /// What was being done.
        operation: String,
        /// The message that came with it.
        message: String,
    },
    /// Containers whose definition Cosmos DB cannot change in place: nothing was changed.
    #[error("{}", drift_message(.0))]
    Drift(Vec<ContainerPlan>),
    /// A container definition the SDK cannot express.
    #[error("container `{container}`: {message}")]
    Definition {
        /// The container.
        container: String,
        /// The message that came with it.
        message: String,
    },
    /// The indexing policy cannot be replaced without losing settings cosmap does not know.
    #[error("container `{container}`: its indexing policy was not replaced, because replacing it would reset settings cosmap does not carry over ({})", .fields.join(", "))]
    UnsafeReplace {
        /// The container.
        container: String,
        /// The fields that would change.
        fields: Vec<String>,
    },
    /// A failure after some changes were already made: they stay made, and running
    /// provisioning again converges (every step is idempotent).
    #[error("{}", partial_message(.made, .cause))]
    Partial {
        /// The changes made before the failure, in order.
        made: Vec<crate::apply::Applied>,
        /// What stopped provisioning.
        cause: Box<ProvisionError>,
    },
    /// The database does not exist and was not to be created (`--create-database`).
    #[error("the database `{database}` does not exist at {endpoint}; nothing was created")]
    DatabaseMissing {
        /// The database id.
        database: String,
        /// The account endpoint.
        endpoint: String,
    },
    /// A container created by someone else between planning and applying, differently.
    #[error("container `{container}` was created by someone else while provisioning, with a different definition: {}", describe(.differences))]
    ChangedMeanwhile {
        /// The container.
        container: String,
        /// How its definition differs from the plan's.
        differences: Vec<Difference>,
    },
}

/// How the CLI should treat an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// Invalid input: nothing was contacted.
    Usage,
    /// Drift: refused before anything was sent, or found midway (then
    /// [`ProvisionError::made`] lists what was already changed).
    Drift,
    /// Anything else (unreachable, rejected key, server failure).
    Failure,
}

impl ProvisionError {
    /// Usage, drift or failure.
    pub fn class(&self) -> ErrorClass {
        match self {
            ProvisionError::Target(_) | ProvisionError::Throughput(_) | ProvisionError::DatabaseMissing { .. } => {
                ErrorClass::Usage
            }
            ProvisionError::Drift(_) | ProvisionError::ChangedMeanwhile { .. } => ErrorClass::Drift,
            ProvisionError::Partial { cause, .. } => cause.class(),
            _ => ErrorClass::Failure,
        }
    }

    /// The changes made before this error (empty unless it is [`ProvisionError::Partial`]).
    pub fn made(&self) -> &[crate::apply::Applied] {
        match self {
            ProvisionError::Partial { made, .. } => made,
            _ => &[],
        }
    }

    /// What the user can do about it, when there is something to say.
    pub fn hint(&self) -> Option<String> {
        self.hint_naming(true)
    }

    /// [`ProvisionError::hint`] for a caller that takes the endpoint from `--endpoint`
    /// only (such as `cosmap verify`): it does not point to `COSMOS_ENDPOINT`.
    pub fn hint_without_endpoint_variable(&self) -> Option<String> {
        self.hint_naming(false)
    }

    fn hint_naming(&self, endpoint_variable: bool) -> Option<String> {
        let endpoint_flag = if endpoint_variable {
            "--endpoint or COSMOS_ENDPOINT"
        } else {
            "--endpoint"
        };
        let hint = match self {
            ProvisionError::Unreachable { loopback: true, cause, .. } if !cause.contains("certificate") => {
                return Some(format!("is the Cosmos DB emulator (or another local server) running and listening there? Point elsewhere with {endpoint_flag}"));
            }
            ProvisionError::Unreachable { loopback: false, .. } => {
                return Some(format!("check the endpoint ({endpoint_flag}: the account's URI from the portal) and the network"));
            }
            ProvisionError::Partial { cause, .. } if cause.class() == ErrorClass::Drift => {
                let hint = cause.hint_naming(endpoint_variable).unwrap_or_default();
                return Some(format!("{hint}. The changes already made stay; once the drift is resolved, running provisioning again creates only what is still missing"));
            }
            ProvisionError::Partial { cause, .. } => {
                return Some(match cause.hint_naming(endpoint_variable) {
                    Some(hint) => format!("{hint}; the changes already made stay, and running provisioning again converges (it creates only what is still missing)"),
                    None => "the changes already made stay; running provisioning again converges (it creates only what is still missing)".to_string(),
                })
            }
            ProvisionError::Unreachable { .. } => {
                "the SDK relaxes certificate checks for the emulator only on localhost, 127.0.0.1 and [::1]"
            }
            ProvisionError::KeyRejected { .. } => {
                "check COSMOS_KEY (or --key): use the account's primary or secondary key, not a read-only key"
            }
            ProvisionError::RetriesExhausted { .. } | ProvisionError::TimedOut { .. } => {
                "provisioning is idempotent: run it again later to finish; if it keeps happening, check the account's health and throughput"
            }
            ProvisionError::Drift(_) | ProvisionError::ChangedMeanwhile { .. } => {
                "Cosmos DB cannot change a container's partition key or unique keys in place, and cosmap never deletes or recreates a container. Either keep the container's current definition in the model, or provision under a new container name or into a new database (--database NAME) and migrate the data there (for example with the change feed)"
            }
            ProvisionError::DatabaseMissing { .. } => {
                "pass --create-database to create it, or --database to name the database that holds the containers"
            }
            ProvisionError::UnsafeReplace { .. } => {
                "change this container's indexing policy with the portal, the Azure CLI or Bicep instead"
            }
            _ => return None,
        };
        Some(hint.to_string())
    }

    /// Turns a failed SDK call into a message about `operation` on `endpoint`.
    ///
    /// `earlier_requests` counts the HTTP requests of the attempts before the last.
    pub(crate) fn from_failure(
        failure: Failure<CosmosError>,
        operation: &str,
        endpoint: &str,
        loopback: bool,
        timeout: Duration,
        earlier_requests: usize,
    ) -> ProvisionError {
        let (error, attempts, exhausted) = match failure {
            Failure::TimedOut => {
                return ProvisionError::TimedOut {
                    endpoint: endpoint.to_string(),
                    operation: operation.to_string(),
                    timeout,
                }
            }
            Failure::Error {
                error,
                attempts,
                exhausted,
            } => (error, attempts, exhausted),
        };
        let status = error.status();
        let code = u16::from(status);
        let status_text = status_text(&error);
        if is_unreadable_body(&error) {
            // The SDK's own 500/20020: the server answered, but not with a body it can read.
            return ProvisionError::BadAnswer {
                endpoint: endpoint.to_string(),
                operation: operation.to_string(),
                message: format!("its body cannot be read: {}", one_line(&error.to_string())),
            };
        }
        if exhausted {
            return ProvisionError::RetriesExhausted {
                endpoint: endpoint.to_string(),
                operation: operation.to_string(),
                status: status_text,
                attempts,
                requests: earlier_requests + http_requests(&error),
            };
        }
        if code == 401 || (code == 403 && !status.is_write_forbidden() && !status.is_database_account_not_found()) {
            return ProvisionError::KeyRejected {
                endpoint: endpoint.to_string(),
                operation: operation.to_string(),
                status: status_text,
            };
        }
        if error.is_from_wire() {
            return ProvisionError::Refused {
                endpoint: endpoint.to_string(),
                operation: operation.to_string(),
                status: status_text,
                message: server_message(&error),
            };
        }
        match connection_cause(&error) {
            Some(cause) => ProvisionError::Unreachable {
                endpoint: endpoint.to_string(),
                cause,
                loopback,
            },
            None => ProvisionError::Client {
                operation: operation.to_string(),
                message: one_line(&error.to_string()),
            },
        }
    }
}

/// Whether `error` is the SDK's "response body invalid" (500/20020): made up by the
/// client when an answer (often a 200) does not parse, not sent by the server.
pub(crate) fn is_unreadable_body(error: &CosmosError) -> bool {
    u16::from(error.status()) == 500 && error.status().sub_status().is_some_and(|sub| sub.value() == 20020)
}

/// HTTP requests behind one SDK call (its diagnostics count the SDK's own retries).
pub(crate) fn http_requests(error: &CosmosError) -> usize {
    error.diagnostics().map_or(1, |d| d.request_count().max(1))
}

/// ` (12 HTTP requests in all)` when the SDK sent more requests than cosmap attempts.
fn http_requests_note(attempts: u32, requests: usize) -> String {
    if requests > attempts as usize {
        format!(" ({requests} HTTP requests in all: the SDK retries some answers itself within one attempt)")
    } else {
        String::new()
    }
}

/// `409 (conflict)`, `503/20010`, … for messages and traces.
pub(crate) fn status_text(error: &CosmosError) -> String {
    let status = error.status();
    let code = u16::from(status);
    let base = match status.sub_status() {
        Some(sub) if sub.value() != 0 => format!("{code}/{}", sub.value()),
        _ => code.to_string(),
    };
    match reason(code) {
        Some(reason) => format!("{base} ({reason})"),
        None => base,
    }
}

fn reason(code: u16) -> Option<&'static str> {
    Some(match code {
        400 => "bad request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not found",
        408 => "request timeout",
        409 => "conflict",
        412 => "precondition failed",
        413 => "entity too large",
        429 => "throttled",
        449 => "retry with",
        500 => "internal server error",
        502 => "bad gateway",
        503 => "service unavailable",
        504 => "gateway timeout",
        _ => return None,
    })
}

/// The server's own words, without the SDK's header line.
fn server_message(error: &CosmosError) -> String {
    let text = error.to_string();
    let message = text
        .split_once("Details: ")
        .map_or(text.as_str(), |(_, details)| details)
        .trim();
    let message = one_line(message);
    if message.is_empty() {
        "no message".to_string()
    } else {
        message
    }
}

/// The first line, at most 300 characters.
fn one_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    match line.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// Why a request could not reach the server, from the error's source chain;
/// `None` when the chain says nothing about the connection.
fn connection_cause(error: &CosmosError) -> Option<String> {
    let transport = u16::from(error.status()) == 503 || u16::from(error.status()) == 408;
    let cause = cause(error);
    (transport || cause.is_some()).then(|| cause.unwrap_or_else(|| one_line(&error.to_string())))
}

/// The most telling cause in an error's source chain: the kind of the innermost
/// I/O error, else a DNS or TLS failure named in any message.
pub(crate) fn cause(error: &(dyn StdError + 'static)) -> Option<String> {
    let mut io_kind = None;
    let mut messages = vec![];
    let mut current = Some(error);
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            io_kind = Some(io.kind());
        }
        messages.push(e.to_string());
        current = e.source();
    }
    if let Some(kind) = io_kind {
        let known = match kind {
            ErrorKind::ConnectionRefused => Some("connection refused"),
            ErrorKind::ConnectionReset => Some("connection reset by the server"),
            ErrorKind::ConnectionAborted => Some("connection aborted"),
            ErrorKind::TimedOut => Some("connection timed out"),
            ErrorKind::AddrNotAvailable => Some("address not available"),
            ErrorKind::UnexpectedEof => Some("the server closed the connection"),
            _ => None,
        };
        if let Some(known) = known {
            return Some(known.to_string());
        }
    }
    let lower: Vec<String> = messages.iter().map(|m| m.to_lowercase()).collect();
    let any = |needle: &str| lower.iter().any(|m| m.contains(needle));
    let innermost = messages.last().map(|m| one_line(m)).unwrap_or_default();
    if any("dns error") || any("failed to lookup address") || any("name or service not known") {
        Some(format!("the host name could not be resolved ({innermost})"))
    } else if any("certificate") {
        Some(format!("the server's TLS certificate was not accepted ({innermost})"))
    } else if any("invalidcontenttype") || any("corrupt message") || any("handshake") {
        Some(format!(
            "the TLS handshake failed; is the server speaking https? ({innermost})"
        ))
    } else if any("connection refused") {
        Some("connection refused".to_string())
    } else if any("error sending request") || any("connect error") || any("connection closed") {
        Some(innermost)
    } else {
        None
    }
}

fn drift_message(containers: &[ContainerPlan]) -> String {
    match containers {
        [one] => format!(
            "container `{}` cannot be changed in place: {}; nothing was changed",
            one.id,
            describe(&one.differences)
        ),
        many => {
            let mut message = format!(
                "{} containers cannot be changed in place; nothing was changed:",
                many.len()
            );
            for container in many {
                message += &format!("\n  container `{}`: {}", container.id, describe(&container.differences));
            }
            message
        }
    }
}

/// `partition key paths are ["/a"] on the server, the model wants ["/b"]; …`
pub(crate) fn describe(differences: &[Difference]) -> String {
    differences
        .iter()
        .filter(|d| !d.in_place)
        .map(|d| {
            format!(
                "{} {} {} on the server, the model wants {}",
                d.property.label(),
                if d.property.is_plural() { "are" } else { "is" },
                d.current,
                d.wanted
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `cause`, then the changes made before it, so nobody reads "nothing was changed".
fn partial_message(made: &[crate::apply::Applied], cause: &ProvisionError) -> String {
    let changes: Vec<String> = made.iter().map(crate::apply::Applied::describe).collect();
    let mut out = cause.to_string();
    if matches!(cause, ProvisionError::ChangedMeanwhile { .. }) {
        out += " (the containers before it were provisioned; this one was left as it is)";
    }
    out += &format!(
        "\n  {} already made before this: {}",
        if made.len() == 1 {
            "1 change was".to_string()
        } else {
            format!("{} changes were", made.len())
        },
        changes.join("; ")
    );
    out
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::*;

    /// An error chain like the SDK's for a refused connection.
    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<dyn StdError + Send + Sync + 'static>>);

    impl fmt::Display for Layer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl StdError for Layer {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            self.1.as_deref().map(|e| e as &(dyn StdError + 'static))
        }
    }

    fn chain(messages: &[&'static str], io: Option<std::io::Error>) -> Layer {
        let mut inner: Option<Box<dyn StdError + Send + Sync>> =
            io.map(|e| Box::new(e) as Box<dyn StdError + Send + Sync>);
        for message in messages.iter().rev() {
            inner = Some(Box::new(Layer(message, inner)));
        }
        match inner {
            Some(outer) => Layer("outer", Some(outer)),
            None => Layer("outer", None),
        }
    }

    #[test]
    fn the_cause_comes_from_the_source_chain() {
        let refused = chain(
            &[
                "error sending request for url (https://127.0.0.1:1/)",
                "client error (Connect)",
                "tcp connect error",
            ],
            Some(std::io::Error::from(ErrorKind::ConnectionRefused)),
        );
        assert_eq!(cause(&refused).as_deref(), Some("connection refused"));

        let dns = chain(
            &[
                "error sending request",
                "dns error",
                "failed to lookup address information: Name or service not known",
            ],
            None,
        );
        assert_eq!(
            cause(&dns).as_deref(),
            Some(
                "the host name could not be resolved (failed to lookup address information: Name or service not known)"
            )
        );

        let tls = chain(
            &["error sending request", "invalid peer certificate: UnknownIssuer"],
            None,
        );
        assert!(cause(&tls).is_some_and(|c| c.contains("certificate was not accepted")));

        assert_eq!(cause(&chain(&["something else entirely"], None)), None);
    }

    #[test]
    fn http_requests_are_counted_when_the_sdk_sent_more() {
        assert_eq!(http_requests_note(5, 5), "");
        assert_eq!(
            http_requests_note(5, 20),
            " (20 HTTP requests in all: the SDK retries some answers itself within one attempt)"
        );
    }

    #[test]
    fn sdk_errors_become_clear_messages() {
        use azure_core::http::StatusCode;
        use azure_data_cosmos::CosmosStatus;

        let unauthorized = CosmosError::builder()
            .with_status(CosmosStatus::new(StatusCode::Unauthorized))
            .with_message("The input authorization token can't serve the request.")
            .build();
        let err = ProvisionError::from_failure(
            Failure::Error {
                error: unauthorized,
                attempts: 1,
                exhausted: false,
            },
            "read database `Shop`",
            "https://acct.documents.azure.com/",
            false,
            Duration::from_secs(30),
            0,
        );
        assert_eq!(
            err.to_string(),
            "the key was rejected (401/403) by https://acct.documents.azure.com/ when trying to read database `Shop`"
        );
        assert_eq!(err.class(), ErrorClass::Failure);
        assert!(err.hint().is_some_and(|h| h.contains("COSMOS_KEY")));

        let refused = CosmosError::builder()
            .with_status(CosmosStatus::new(StatusCode::ServiceUnavailable).with_sub_status(20010))
            .with_message("AccountProperties fetch from https://127.0.0.1:1/: error sending request")
            .with_source(chain(
                &["tcp connect error"],
                Some(std::io::Error::from(ErrorKind::ConnectionRefused)),
            ))
            .build();
        let err = ProvisionError::from_failure(
            Failure::Error {
                error: refused,
                attempts: 1,
                exhausted: false,
            },
            "connect",
            "https://127.0.0.1:1/",
            true,
            Duration::from_secs(30),
            0,
        );
        assert_eq!(err.to_string(), "cannot reach https://127.0.0.1:1/: connection refused");
        assert!(err.hint().is_some_and(|h| h.contains("emulator")));

        let throttled = CosmosError::builder()
            .with_status(CosmosStatus::new(StatusCode::TooManyRequests))
            .build();
        let err = ProvisionError::from_failure(
            Failure::Error {
                error: throttled,
                attempts: 5,
                exhausted: true,
            },
            "create container `Order`",
            "https://acct.documents.azure.com/",
            false,
            Duration::from_secs(30),
            0,
        );
        assert_eq!(
            err.to_string(),
            "could not create container `Order`: https://acct.documents.azure.com/ answered 429 (throttled) on each of 5 attempts"
        );

        let err = ProvisionError::from_failure(
            Failure::TimedOut,
            "read database `Shop`",
            "https://127.0.0.1:1/",
            true,
            Duration::from_millis(1500),
            0,
        );
        assert_eq!(
            err.to_string(),
            "could not read database `Shop`: no answer from https://127.0.0.1:1/ within 1.5 s"
        );
    }
}
