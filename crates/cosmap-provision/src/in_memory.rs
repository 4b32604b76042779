//! The SDK's in-memory Cosmos DB engine as a provisioning target (feature
//! `in-memory-emulator`, for tests).
//!
//! The engine (`azure_data_cosmos_driver`'s `__internal_in_memory_emulator`)
//! replaces only the HTTP transport: the whole SDK pipeline runs as against a real
//! account, and it behaves like Cosmos DB (404 on missing items, unique keys,
//! transactional batches, single-partition queries). It is internal to the SDK and
//! may change in any release, hence the exact version pins and the feature gate.

use std::sync::Arc;

use azure_data_cosmos::{AccountEndpoint, AccountReference, CosmosRuntimeBuilder};
use azure_data_cosmos_driver::in_memory_emulator::{
    ConsistencyLevel, InMemoryEmulatorHttpClient, VirtualAccountConfig, VirtualRegion,
};

pub use azure_core::http::{Method, Request};
pub use azure_data_cosmos_driver::in_memory_emulator::RequestObserver;

use crate::client::{Connection, Settings};
use crate::error::ProvisionError;
use crate::key::AccountKey;

/// The virtual account's endpoint (never resolved: no request leaves the process).
pub const IN_MEMORY_ENDPOINT: &str = "https://eastus.emulator.local/";

/// One in-memory account: its databases live as long as this value.
pub struct InMemoryAccount {
    emulator: Arc<InMemoryEmulatorHttpClient>,
}

impl InMemoryAccount {
    /// A new, empty account.
    pub fn new() -> Result<Self, ProvisionError> {
        Ok(InMemoryAccount {
            emulator: Arc::new(InMemoryEmulatorHttpClient::try_new(config()?).map_err(engine_error)?),
        })
    }

    /// A new, empty account that shows every request to `observer` (to count writes).
    pub fn observed(observer: Arc<dyn RequestObserver>) -> Result<Self, ProvisionError> {
        let emulator = InMemoryEmulatorHttpClient::try_new(config()?)
            .map_err(engine_error)?
            .with_request_observer(observer);
        Ok(InMemoryAccount {
            emulator: Arc::new(emulator),
        })
    }

    /// A connection to `database` in this account, set up like any other.
    pub async fn connect(&self, database: &str, settings: Settings) -> Result<Connection, ProvisionError> {
        let endpoint: AccountEndpoint = IN_MEMORY_ENDPOINT.parse().map_err(engine_error)?;
        let key = AccountKey::from("aW4tbWVtb3J5LWVtdWxhdG9y");
        let account = AccountReference::with_authentication_key(endpoint, key.to_secret());
        let runtime = CosmosRuntimeBuilder::from(self.emulator.runtime_builder());
        Connection::build(account, runtime, IN_MEMORY_ENDPOINT, database, false, settings).await
    }
}

impl InMemoryAccount {
    /// A connection to `database` in this account with `definitions` created in it,
    /// planned and applied as `cosmap provision` does: for tests of code that reads
    /// and writes a provisioned model.
    pub async fn provisioned(
        &self,
        database: &str,
        definitions: &[cosmap_mapper::ContainerDefinition],
    ) -> Result<Connection, ProvisionError> {
        let connection = self.connect(database, Settings::default()).await?;
        let planned = crate::plan(&connection, definitions, crate::Throughput::None).await?;
        crate::apply(&connection, &planned, &crate::ApplyOptions::default()).await?;
        Ok(connection)
    }
}

fn config() -> Result<VirtualAccountConfig, ProvisionError> {
    let url = azure_core::http::Url::parse(IN_MEMORY_ENDPOINT).map_err(|e| ProvisionError::Client {
        operation: "start the in-memory emulator".to_string(),
        message: e.to_string(),
    })?;
    Ok(VirtualAccountConfig::new(vec![VirtualRegion::new("East US", url)])
        .map_err(engine_error)?
        .with_consistency(ConsistencyLevel::Session))
}

fn engine_error(error: impl std::fmt::Display) -> ProvisionError {
    ProvisionError::Client {
        operation: "start the in-memory emulator".to_string(),
        message: error.to_string(),
    }
}
