//! What the ticketing application's tests share: the generated `Database` on a fresh
//! in-memory account, provisioned with the model's containers.

use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;
use ticketing_app::data::Database;

/// The in-memory account (kept alive), a connection and the generated `Database`.
pub struct Fixture {
    _account: InMemoryAccount,
    _connection: Connection,
    pub db: Database,
}

/// A fresh in-memory account with the ticketing model's containers, opened.
pub async fn fixture() -> Fixture {
    let domain = cosmap_domain::load_file(std::path::Path::new("../ticketing/model.json")).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let account = InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("ticketing", &logical.container_definitions())
        .await
        .expect("the containers are created");
    let database = connection.cosmos_client().database_client(connection.database());
    let db = Database::open(&database).await.expect("the containers open");
    Fixture {
        _account: account,
        _connection: connection,
        db,
    }
}
