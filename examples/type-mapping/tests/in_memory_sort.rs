//! The pattern "readings of a meter" (sorted by `takenAt`) on the SDK's in-memory
//! Cosmos DB engine: readings written with a mapped date-time type come back in
//! time order from `ORDER BY`, because the generated codec writes one fixed-width
//! UTC form. The same instants written as chrono's own `to_rfc3339()` text (what a
//! hand-written mapping stores) come back misordered.

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::FeedScope;
use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::{apply, plan, ApplyOptions, Settings, Throughput};
use futures::TryStreamExt;
use serde::de::DeserializeOwned;
use serde::Serialize;
use type_mapping::{plain, with_chrono, with_time};

/// Instants in the order they are written: offsets other than UTC, whole seconds
/// and fractions of several widths, so that text not in one form misorders them.
const TAKEN_AT: &[&str] = &[
    "2024-05-01T10:00:00.5Z",
    "2024-05-01T12:00:00+02:00",
    "2024-05-01T09:59:59.999Z",
    "2024-05-01T10:00:00Z",
    "2024-05-01T10:00:00.25Z",
    "2024-05-01T05:30:01-04:30",
];

const SORTED: &str = "SELECT * FROM c WHERE c.type = 'reading' ORDER BY c.takenAt";

async fn meters() -> (InMemoryAccount, ContainerClient) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model.json");
    let model = cosmap_domain::load_file(&path).expect("the model loads");
    let definitions = cosmap_mapper::map(&model, &cosmap_mapper::Options::default()).container_definitions();
    let account = InMemoryAccount::new().expect("engine starts");
    let connection = account
        .connect("Metering", Settings::default())
        .await
        .expect("connects");
    let plan = plan(&connection, &definitions, Throughput::None).await.expect("plans");
    apply(&connection, &plan, &ApplyOptions::default())
        .await
        .expect("applies");
    let container = connection
        .cosmos_client()
        .database_client("Metering")
        .container_client("Meter", None)
        .await
        .expect("container exists");
    (account, container)
}

/// A reading of meter `meter`, read from JSON by the generated type `T`.
fn reading<T: DeserializeOwned>(meter: &str, n: usize, taken_at: &str) -> T {
    serde_json::from_value(serde_json::json!({
        "id": format!("r-{n}"),
        "type": "reading",
        "meterId": meter,
        "takenAt": taken_at,
        "kilowattHours": "1.5"
    }))
    .expect("a reading")
}

async fn write_and_query<T>(container: &ContainerClient, meter: &str, readings: &[T]) -> Vec<T>
where
    T: Serialize + DeserializeOwned + Send + 'static,
{
    for (n, r) in readings.iter().enumerate() {
        container
            .create_item(meter.to_string(), &format!("r-{n}"), r, None)
            .await
            .unwrap_or_else(|e| panic!("create r-{n}: {e}"));
    }
    container
        .query_items(SORTED, FeedScope::partition(meter.to_string()), None)
        .await
        .expect("query starts")
        .try_collect()
        .await
        .expect("query runs")
}

#[tokio::test]
async fn readings_mapped_to_chrono_come_back_in_time_order() {
    let (_account, container) = meters().await;
    let written: Vec<with_chrono::meter::Reading> = TAKEN_AT
        .iter()
        .enumerate()
        .map(|(n, t)| reading("m-chrono", n, t))
        .collect();
    let mut expected: Vec<_> = written.iter().map(|r| r.taken_at).collect();
    expected.sort();
    let found = write_and_query(&container, "m-chrono", &written).await;
    let order: Vec<_> = found.iter().map(|r| r.taken_at).collect();
    assert_eq!(order, expected);
}

#[tokio::test]
async fn readings_mapped_to_time_come_back_in_time_order() {
    let (_account, container) = meters().await;
    let written: Vec<with_time::meter::Reading> = TAKEN_AT
        .iter()
        .enumerate()
        .map(|(n, t)| reading("m-time", n, t))
        .collect();
    let mut expected: Vec<_> = written.iter().map(|r| r.taken_at).collect();
    expected.sort();
    let found = write_and_query(&container, "m-time", &written).await;
    let order: Vec<_> = found.iter().map(|r| r.taken_at).collect();
    assert_eq!(order, expected);
}

/// The trap the codecs avoid: chrono's own RFC 3339 text has a fraction only
/// when there is one, so `10:00:00Z` sorts after `10:00:00.5Z`.
#[tokio::test]
async fn chrono_own_text_would_misorder_them() {
    let (_account, container) = meters().await;
    let mut instants: Vec<chrono::DateTime<chrono::Utc>> = TAKEN_AT
        .iter()
        .map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap().to_utc())
        .collect();
    let written: Vec<plain::meter::Reading> = instants
        .iter()
        .enumerate()
        .map(|(n, t)| reading("m-plain", n, &t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)))
        .collect();
    instants.sort();
    let found = write_and_query(&container, "m-plain", &written).await;
    let order: Vec<_> = found
        .iter()
        .map(|r| chrono::DateTime::parse_from_rfc3339(&r.taken_at).unwrap().to_utc())
        .collect();
    assert_ne!(order, instants, "string order happened to be time order");
}
