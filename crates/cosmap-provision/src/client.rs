//! The SDK client, set up for the target, and the one place requests are sent from
//! (with retries, a timeout and a trace line each).
//!
//! # Settings for local servers (loopback endpoints only)
//!
//! Measured against `@vercel/cosmosdb-server` and needed by the official emulator's
//! Linux builds too; each is applied only when the endpoint is `localhost`,
//! `127.0.0.1` or `[::1]`:
//!
//! - **HTTP/1.1**: the SDK offers only HTTP/2 over TLS, which Node.js-based servers
//!   refuse (`NoApplicationProtocol`);
//! - **emulator certificates accepted** (`RequiredUnlessEmulator`): local servers
//!   use self-signed certificates; the SDK relaxes the check for loopback hosts only;
//! - **lazy partition topology**: the local server returns partition key ranges
//!   with a numeric `id` the SDK's eager resolution rejects;
//! - **text JSON**: binary encoding off, which local servers do not speak.
//!
//! Everywhere: the SDK's own throttling retries are off, so that
//! [`crate::retry`] is the one retry policy, and the account's own region order is
//! used (no preferred regions).

use std::future::Future;
use std::time::Instant;

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::options::{
    BinaryEncodingOptions, ConnectionPoolOptions, OperationOptionsBuilder, PartitionFailoverOptions,
    PartitionTopologyCacheMode, ServerCertificateValidation, ThrottlingRetryOptionsBuilder,
};
use azure_data_cosmos::{
    AccountEndpoint, AccountReference, CosmosClient, CosmosError, CosmosRuntime, CosmosRuntimeBuilder, DatabaseClient,
    FeedScope, Query, RoutingStrategy,
};
use futures::TryStreamExt;
use serde_json::Value;

use crate::error::{http_requests, status_text, ProvisionError};
use crate::retry::{self, Failure, RetryPolicy};
use crate::target::{KeySource, Target};
use crate::trace::Trace;

/// How requests are sent: retries and timeout, and where trace lines go.
/// `Settings::default()` and the setters, so a new setting is not a breaking change.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Settings {
    /// Retries and the per-request timeout.
    pub retry: RetryPolicy,
    /// `--verbose` lines.
    pub trace: Trace,
}

impl Settings {
    /// Retries and the per-request timeout.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Where `--verbose` lines go.
    pub fn trace(mut self, trace: Trace) -> Self {
        self.trace = trace;
        self
    }
}

/// A client for one account and database.
pub struct Connection {
    client: CosmosClient,
    endpoint: String,
    database: String,
    loopback: bool,
    settings: Settings,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("endpoint", &self.endpoint)
            .field("database", &self.database)
            .field("loopback", &self.loopback)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Connects to the target: builds the SDK client (which reads the account) with
    /// the settings the endpoint needs.
    pub async fn open(target: &Target, settings: Settings) -> Result<Connection, ProvisionError> {
        let loopback = target.is_loopback();
        let trace = &settings.trace;
        trace.line(format_args!("endpoint: {}", target.endpoint()));
        trace.line(format_args!(
            "key: {}",
            match target.key_source() {
                KeySource::Given => "given (COSMOS_KEY or --key; not shown)",
                KeySource::EmulatorWellKnown => "the emulator's well-known key (loopback endpoint)",
            }
        ));
        trace.line(format_args!(
            "client: {}; {} s per request, up to {} attempts",
            if loopback {
                "local-server settings (HTTP/1.1, emulator certificate accepted, lazy partition topology, text JSON)"
            } else {
                "SDK defaults (certificates checked)"
            },
            settings.retry.request_timeout.as_secs_f32(),
            settings.retry.max_attempts
        ));
        let mut pool = ConnectionPoolOptions::builder();
        if loopback {
            pool = pool
                .with_is_http2_allowed(false)
                .with_server_certificate_validation(ServerCertificateValidation::RequiredUnlessEmulator);
        }
        let pool = pool
            .build()
            .map_err(|e| client_error("configure the connection pool", &e))?;
        let runtime = CosmosRuntime::builder().with_connection_pool(pool);
        let account = AccountReference::with_authentication_key(
            AccountEndpoint::from(target.url().clone()),
            target.key().to_secret(),
        );
        Self::build(
            account,
            runtime,
            target.endpoint(),
            target.database(),
            loopback,
            settings,
        )
        .await
    }

    /// Builds the client on `runtime` (retried and timed out like any request).
    pub(crate) async fn build(
        account: AccountReference,
        runtime: CosmosRuntimeBuilder,
        endpoint: &str,
        database: &str,
        loopback: bool,
        settings: Settings,
    ) -> Result<Connection, ProvisionError> {
        // No SDK throttling retries, on the runtime (which reads the account) and the
        // client alike: `retry` is the one policy.
        let operations = OperationOptionsBuilder::new()
            .with_throttling_retry_options(ThrottlingRetryOptionsBuilder::new().with_max_retry_count(0).build())
            .build();
        let runtime = runtime
            .with_default_operation_options(operations.clone())
            .build()
            .await
            .map_err(|e| client_error("start the SDK runtime", &e))?;
        let lazy_topology = PartitionFailoverOptions::builder()
            .with_partition_topology_cache_mode(PartitionTopologyCacheMode::Lazy)
            .build()
            .map_err(|e| client_error("configure partition routing", &e))?;
        let started = Instant::now();
        let earlier_requests = std::cell::Cell::new(0);
        let client = retry::run(
            &settings.retry,
            || {
                let mut builder = CosmosClient::builder()
                    .with_runtime(runtime.clone())
                    .with_default_operation_options(operations.clone());
                if loopback {
                    builder = builder
                        .with_partition_failover_options(lazy_topology.clone())
                        .with_binary_encoding_options(BinaryEncodingOptions::new().with_enabled(false));
                }
                builder.build(account.clone(), RoutingStrategy::PreferredRegions(vec![]))
            },
            retry::verdict,
            |attempt, error, wait| {
                earlier_requests.set(earlier_requests.get() + http_requests(error));
                settings.trace.line(format_args!(
                    "request: read account: {} (attempt {attempt}), retrying in {} ms",
                    status_text(error),
                    wait.as_millis()
                ))
            },
        )
        .await;
        let client = match client {
            Ok(client) => client,
            Err(failure) => {
                let error = ProvisionError::from_failure(
                    failure,
                    "read the account",
                    endpoint,
                    loopback,
                    settings.retry.request_timeout,
                    earlier_requests.get(),
                );
                settings.trace.line(format_args!(
                    "request: read account: failed ({} ms)",
                    started.elapsed().as_millis()
                ));
                return Err(error);
            }
        };
        settings.trace.line(format_args!(
            "request: read account: ok ({} ms)",
            started.elapsed().as_millis()
        ));
        Ok(Connection {
            client,
            endpoint: endpoint.to_string(),
            database: database.to_string(),
            loopback,
            settings,
        })
    }

    /// The account endpoint.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The database provisioned into.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// The SDK client, to go on working with the provisioned containers.
    pub fn cosmos_client(&self) -> &CosmosClient {
        &self.client
    }

    /// A client of the database provisioned into, to work with its containers.
    pub fn database_client(&self) -> DatabaseClient {
        self.client.database_client(&self.database)
    }

    /// Sends one request (`attempt` may be called again on a transient failure) with
    /// the retries, the timeout and the trace of this connection, for provisioning and
    /// for a later stage (such as `cosmap verify`'s item reads and writes). The answer
    /// is `Some(value)`, or `None` when the server answered one of the `accept`
    /// statuses (such as 404 for a missing item); any other failure is a
    /// [`ProvisionError`] saying what the server answered.
    pub async fn request<T, F, Fut>(
        &self,
        operation: &str,
        accept: &[u16],
        attempt: F,
    ) -> Result<Option<T>, ProvisionError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = azure_data_cosmos::Result<T>>,
    {
        let trace = &self.settings.trace;
        let started = Instant::now();
        let earlier_requests = std::cell::Cell::new(0);
        let result = retry::run(&self.settings.retry, attempt, retry::verdict, |attempt, error, wait| {
            earlier_requests.set(earlier_requests.get() + http_requests(error));
            trace.line(format_args!(
                "request: {operation}: {} (attempt {attempt}), retrying in {} ms",
                status_text(error),
                wait.as_millis()
            ))
        })
        .await;
        let elapsed = started.elapsed().as_millis();
        match result {
            Ok(value) => {
                trace.line(format_args!("request: {operation}: ok ({elapsed} ms)"));
                Ok(Some(value))
            }
            Err(Failure::Error { error, .. }) if accept.contains(&u16::from(error.status())) => {
                trace.line(format_args!(
                    "request: {operation}: {} ({elapsed} ms)",
                    status_text(&error)
                ));
                Ok(None)
            }
            Err(failure) => {
                let error = ProvisionError::from_failure(
                    failure,
                    operation,
                    &self.endpoint,
                    self.loopback,
                    self.settings.retry.request_timeout,
                    earlier_requests.get(),
                );
                trace.line(format_args!("request: {operation}: failed ({elapsed} ms)"));
                Err(error)
            }
        }
    }

    /// Every document `query` finds in `scope` of `client`'s container, every page of
    /// the answer, sent like [`request`](Self::request) (`operation` names it).
    pub async fn query_all(
        &self,
        operation: &str,
        client: &ContainerClient,
        query: &Query,
        scope: &FeedScope,
    ) -> Result<Vec<Value>, ProvisionError> {
        let found = self
            .request(operation, &[], || {
                let (query, scope) = (query.clone(), scope.clone());
                async move {
                    client
                        .query_items::<Value>(query, scope, None)
                        .await?
                        .try_collect::<Vec<Value>>()
                        .await
                }
            })
            .await?;
        Ok(found.unwrap_or_default())
    }

    /// A container's definition as the server returns it (raw JSON), or `None`
    /// when it does not exist.
    pub(crate) async fn read_container(&self, id: &str) -> Result<Option<Value>, ProvisionError> {
        let database = &self.database_client();
        let operation = format!("read container `{id}`");
        let reply = self
            .request(&operation, &[404], || async move {
                let container = database.container_client(id, None).await?;
                container.read(None).await?.into_body().single()
            })
            .await?;
        let Some(body) = reply else {
            return Ok(None);
        };
        match serde_json::from_slice::<Value>(&body) {
            Ok(value) if value.is_object() => Ok(Some(value)),
            Ok(_) => Err(self.bad_answer(&operation, "not a JSON object")),
            Err(e) => Err(self.bad_answer(&operation, &e.to_string())),
        }
    }

    pub(crate) fn bad_answer(&self, operation: &str, message: &str) -> ProvisionError {
        ProvisionError::BadAnswer {
            endpoint: self.endpoint.clone(),
            operation: operation.to_string(),
            message: message.to_string(),
        }
    }

    pub(crate) fn trace(&self) -> &Trace {
        &self.settings.trace
    }
}

fn client_error(operation: &str, error: &CosmosError) -> ProvisionError {
    ProvisionError::Client {
        operation: operation.to_string(),
        message: error.to_string(),
    }
}
