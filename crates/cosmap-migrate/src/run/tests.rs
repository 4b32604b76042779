//! The document edits of `run.rs`: filling, keys from ids, conversions.

use super::{convert, fill, Conversion};

#[test]
fn an_empty_list_becomes_absent_only_where_the_new_model_allows_it() {
    let path = ["alias".to_string()];
    let mut doc = json!({"alias": []});
    assert_eq!(
        convert(&mut doc, &path, Conversion::UnwrapList { optional: true }),
        Ok(true)
    );
    assert_eq!(doc, json!({}));
    let mut doc = json!({"alias": []});
    let err = convert(&mut doc, &path, Conversion::UnwrapList { optional: false }).unwrap_err();
    assert!(err.contains("requires one value"), "{err}");
    assert_eq!(doc, json!({"alias": []}), "left as it was");
    let mut doc = json!({"alias": ["ada"]});
    assert_eq!(
        convert(&mut doc, &path, Conversion::UnwrapList { optional: false }),
        Ok(true)
    );
    assert_eq!(doc, json!({"alias": "ada"}));
}
use serde_json::json;

#[test]
fn a_references_partition_key_becomes_its_id_once() {
    let path = ["checkIn".to_string()];
    let mut doc = json!({"checkIn": {"id": "c-1", "partitionKey": "e-1", "gate": "A"}});
    assert_eq!(convert(&mut doc, &path, Conversion::KeyFromId), Ok(true));
    assert_eq!(
        doc,
        json!({"checkIn": {"id": "c-1", "partitionKey": "c-1", "gate": "A"}})
    );
    assert_eq!(
        convert(&mut doc, &path, Conversion::KeyFromId),
        Ok(false),
        "a replay changes nothing"
    );
    let path = ["visits".to_string()];
    let mut doc = json!({"visits": [{"id": "c-1", "partitionKey": "e-1"}, {"id": "c-2", "partitionKey": "e-2"}]});
    assert_eq!(convert(&mut doc, &path, Conversion::KeyFromId), Ok(true));
    assert_eq!(
        (&doc["visits"][0]["partitionKey"], &doc["visits"][1]["partitionKey"]),
        (&json!("c-1"), &json!("c-2")),
        "every reference of the list"
    );
    let mut doc = json!({"visits": null});
    assert_eq!(convert(&mut doc, &path, Conversion::KeyFromId), Ok(false));
}

#[test]
fn fill_sets_what_is_missing_inside_objects_and_arrays() {
    let path = |p: &str| p.split('.').map(String::from).collect::<Vec<_>>();
    let mut doc = json!({"a": 1, "layout": {}, "items": [{"q": 2}, {}, {"q": null}]});
    assert!(fill(&mut doc, &path("status"), &json!("open")));
    assert!(fill(&mut doc, &path("layout.theme"), &json!("light")));
    assert!(fill(&mut doc, &path("items.q"), &json!(1)));
    assert_eq!(
        doc,
        json!({"a": 1, "status": "open", "layout": {"theme": "light"}, "items": [{"q": 2}, {"q": 1}, {"q": 1}]})
    );
    // Held already, or nothing to hold it: nothing set.
    assert!(!fill(&mut doc, &path("status"), &json!("x")));
    assert!(!fill(&mut doc, &path("missing.deep"), &json!("x")));
    assert_eq!(doc["status"], "open");
}
