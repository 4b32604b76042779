//! A value object stored as separate documents (`Line`, growing without a bound) made
//! embedded (a few per order): `cosmap migrate` rebuilds each order's `lines` from its
//! `Line` documents, in id order, keeping only the embedded shape's properties; the
//! `Line` documents stay (to be dropped by the user); a second run changes nothing; a
//! line whose order does not exist stops the step, naming it.

mod common;

use common::map;

use cosmap_migrate::{plan, run, Control, MigrateError, RunOptions, Step};
use serde_json::{json, Value};

#[tokio::test]
async fn separate_documents_are_embedded_into_their_holders_and_stay() {
    let (v1, v2) = (map(&common::shop(false)), map(&common::shop(true)));
    let plan = plan(&v1, &v2).expect("separate → embedded is migrated");
    common::assert_step(&plan, |s| {
        matches!(s, Step::EmbedSeparate { child, property, many: true, .. }
            if child == "line" && property == "lines")
    });
    common::assert_droppable(&plan, "the `line` documents in `Order`");

    let (_account, connection) = common::provisioned("Shop", &v1).await;
    let orders = common::container(&connection, "Order").await;
    let mut written = Vec::new();
    for (o, lines) in [(0, 2), (1, 0), (2, 3)] {
        let order = format!("o-{o}");
        written.push(json!({"id": order, "type": "order", "orderId": order, "placedAt": "2024-01-01T00:00:00Z"}));
        // Written newest first: the embedded array follows the ids.
        for l in (0..lines).rev() {
            written.push(
                json!({"id": format!("{order}-line-{l}"), "type": "line", "orderId": order,
                "sku": format!("sku-{l}"), "quantity": l + 1, "ttl": null}),
            );
        }
    }
    for d in &written {
        let (id, key) = (d["id"].as_str().unwrap(), d["orderId"].as_str().unwrap().to_string());
        orders.create_item(key, id, d, None).await.unwrap();
    }

    let report = run(&plan, &connection, &RunOptions::default().page_size(2), |_| {
        Control::Continue
    })
    .await
    .expect("migrated");
    assert!(report.steps.iter().all(|s| s.caught_up), "{report:?}");
    let holders = common::query(&orders, "SELECT * FROM c WHERE c.type = 'order'").await;
    let lines = |h: &Value| h.get("lines").cloned().unwrap_or(Value::Null);
    assert_eq!(
        lines(&holders[0]),
        json!([{"sku": "sku-0", "quantity": 1}, {"sku": "sku-1", "quantity": 2}])
    );
    assert_eq!(
        lines(&holders[1]),
        Value::Null,
        "no lines: left as it was (reads as empty)"
    );
    assert_eq!(lines(&holders[2]).as_array().map(Vec::len), Some(3));
    assert_eq!(
        holders[0]["placedAt"], "2024-01-01T00:00:00Z",
        "the rest of the order is kept"
    );
    assert_eq!(
        common::query(&orders, "SELECT * FROM c WHERE c.type = 'line'")
            .await
            .len(),
        5,
        "nothing is deleted"
    );

    common::assert_second_run_changes_nothing(&plan, &connection).await;

    // A line whose order is missing stops the step, naming it.
    let orphan = json!({"id": "o-9-line-0", "type": "line", "orderId": "o-9", "sku": "x", "quantity": 1});
    orders
        .create_item("o-9".to_string(), "o-9-line-0", &orphan, None)
        .await
        .unwrap();
    let err = common::migrate(&plan, &connection)
        .await
        .expect_err("an orphan stops the step");
    assert!(matches!(err, MigrateError::Data { .. }));
    assert!(
        err.to_string().contains("`line` `o-9-line-0` names `order` `o-9`"),
        "{err}"
    );
}
