//! What the new model no longer has is never deleted: a container dropped is listed as
//! droppable; documents of a removed document type stay, and since the container's
//! generated enum refuses their `type`, the plan and the report say to delete them
//! before the new readers load whole partitions.

mod common;

use common::map;

use cosmap_migrate::{plan, Step};
use serde_json::{json, Value};

fn spec(with_notes: bool, unique_email: bool) -> Value {
    let mut entities = vec![json!({"name": "Account", "identity": "accountId", "attributes": [
        {"name": "email", "type": "string", "unique": unique_email}
    ], "volume": {"count": 1000000, "avgSizeBytes": 500}})];
    let mut members = vec![];
    let mut relationships = vec![];
    if with_notes {
        entities
            .push(json!({"name": "Note", "identity": "noteId", "attributes": [{"name": "text", "type": "string"}]}));
        members.push("Note");
        relationships
            .push(json!({"from": "Account", "to": "Note", "cardinality": "many", "growth": "unbounded", "avg": 5}));
    }
    json!({
        "name": "Accounts",
        "entities": entities,
        "aggregates": [{"root": "Account", "members": members}],
        "relationships": relationships
    })
}

#[tokio::test]
async fn removed_containers_and_document_types_are_left_to_the_user_and_said_so() {
    let (old, new) = (map(&spec(true, true)), map(&spec(false, false)));
    let plan = plan(&old, &new).expect("removals are planned, not refused");
    common::assert_droppable(&plan, "container `UniqueClaims`, which the new model no longer uses");
    common::assert_step(
        &plan,
        |s| matches!(s, Step::DeleteYourself { document_type, .. } if document_type == "Note"),
    );
    let (_account, connection) = common::provisioned("Accounts", &old).await;
    let report = common::migrate(&plan, &connection).await.expect("nothing to send");
    let text = report.to_text();
    assert!(
        text.contains("still to do") && text.contains("delete the `Note` documents in `Account` yourself"),
        "{text}"
    );
    assert!(text.contains("nothing was deleted"), "{text}");
}
