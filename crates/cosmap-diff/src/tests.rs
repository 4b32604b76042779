//! One test per change class and kind: small models written as JSON, changed, mapped
//! with `cosmap_mapper::map` and compared.

use cosmap_domain::DomainModel;
use cosmap_mapper::{DocumentType, LogicalModel, Options, Role};
use serde_json::{json, Value};

use crate::{diff, diff_deployed, Change, ChangeKind, Class, DeployedContainer, Derived, ModelDiff, Volumes};

/// A shop: customers (with an embedded address) and orders (with a few lines
/// embedded, a reference to their customer, and payments as their own documents).
fn base() -> Value {
    json!({
        "name": "Shop",
        "entities": [
            {"name": "Customer", "identity": "customerId", "attributes": [
                {"name": "email", "type": "string"},
                {"name": "nickname", "type": "string", "optional": true}
            ], "volume": {"count": 1000000, "avgSizeBytes": 1000}},
            {"name": "Order", "identity": "orderId", "attributes": [
                {"name": "placedAt", "type": "dateTime"},
                {"name": "total", "type": "integer"},
                {"name": "note", "type": "string", "optional": true}
            ], "volume": {"count": 2000000, "avgSizeBytes": 2000}},
            {"name": "Payment", "identity": "paymentId", "attributes": [
                {"name": "amount", "type": "decimal"}
            ], "volume": {"count": 3000000, "avgSizeBytes": 400}}
        ],
        "valueObjects": [
            {"name": "Address", "attributes": [{"name": "city", "type": "string"}]},
            {"name": "Line", "attributes": [{"name": "sku", "type": "string"}], "volume": {"avgSizeBytes": 100}}
        ],
        "aggregates": [
            {"root": "Customer", "members": ["Address"]},
            {"root": "Order", "members": ["Line", "Payment"]}
        ],
        "relationships": [
            {"from": "Customer", "to": "Address", "cardinality": "one"},
            {"from": "Order", "to": "Line", "cardinality": "few", "max": 20, "avg": 5},
            {"from": "Order", "to": "Payment", "cardinality": "many", "max": 100, "avg": 2},
            {"from": "Order", "to": "Customer", "cardinality": "one"}
        ]
    })
}

fn domain(spec: &Value) -> DomainModel {
    cosmap_domain::from_slice(spec.to_string().as_bytes(), None).expect("valid test model")
}

fn map(spec: &Value) -> LogicalModel {
    cosmap_mapper::map(&domain(spec), &Options::default())
}

/// The diff of the base model against the base changed by `change`, priced with the
/// base's volumes.
fn changed(change: impl FnOnce(&mut Value)) -> ModelDiff {
    let old = base();
    let mut new = base();
    change(&mut new);
    let old_logical = map(&old);
    diff(&old_logical, &map(&new), &Volumes::of(&domain(&old), &old_logical)).expect("comparable")
}

/// A partition key changed from the one path `old` to the one path `new`.
fn key_changed(old: &str, new: &str) -> ChangeKind {
    ChangeKind::PartitionKeyChanged {
        old: vec![old.into()],
        new: vec![new.into()],
        definition: None,
    }
}

/// The entity called `name` in a model spec.
fn entity<'a>(spec: &'a mut Value, name: &str) -> &'a mut Value {
    spec["entities"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["name"] == name)
        .unwrap()
}

fn attributes<'a>(spec: &'a mut Value, name: &str) -> &'a mut Vec<Value> {
    entity(spec, name)["attributes"].as_array_mut().unwrap()
}

/// `old` against `new` with `document_type` added to its `Customer` container.
fn with_in_customer(old: &LogicalModel, new: &mut LogicalModel, document_type: DocumentType) -> ModelDiff {
    let customer = new.containers.iter_mut().find(|c| c.name == "Customer").unwrap();
    customer.document_types.make_mut().push(document_type);
    diff(old, new, &Volumes::of(&domain(&base()), old)).unwrap()
}

/// Asserts that `d` has no change of one of the `kinds`.
fn assert_none_of(d: &ModelDiff, kinds: &[&str]) {
    let found = d.changes.iter().find(|c| kinds.contains(&c.kind.name().as_str()));
    assert!(found.is_none(), "{found:#?} among {:#?}", d.changes);
}

/// The only change of `d`, or a panic listing them.
fn only(d: &ModelDiff) -> &Change {
    assert_eq!(d.changes.len(), 1, "{:#?}", d.changes);
    &d.changes[0]
}

/// The only change of `d`, checked to be of `class`.
fn only_of(d: &ModelDiff, class: Class) -> &Change {
    let c = only(d);
    assert_eq!(c.class, class, "{c:#?}");
    c
}

/// The change of kind `name` at `subject` (as displayed).
fn find<'a>(d: &'a ModelDiff, name: &str, subject: &str) -> &'a Change {
    d.changes
        .iter()
        .find(|c| c.kind.name() == name && c.subject.to_string() == subject)
        .unwrap_or_else(|| panic!("no {name} at {subject}: {:#?}", d.changes))
}

#[test]
fn a_model_against_itself_has_no_changes() {
    let d = changed(|_| {});
    assert!(d.is_empty(), "{:#?}", d.changes);
    assert_eq!(d.worst, None);
    assert_eq!(serde_json::to_value(&d).unwrap()["changes"], json!([]));
}

#[test]
fn an_optional_property_added_is_additive() {
    let d = changed(|m| attributes(m, "Order").push(json!({"name": "coupon", "type": "string", "optional": true})));
    let c = only_of(&d, Class::Additive);
    assert_eq!(c.subject.to_string(), "Order/Order.coupon");
    assert!(matches!(c.kind, ChangeKind::PropertyAdded { optional: true, .. }));
    assert_eq!(c.estimate, None);
    assert_eq!(d.worst, Some(Class::Additive));
}

#[test]
fn a_required_list_added_reads_as_empty() {
    let d = changed(|m| attributes(m, "Order").push(json!({"name": "tags", "type": "string", "many": true})));
    assert_eq!(only(&d).class, Class::Additive);
}

#[test]
fn a_required_property_added_breaks_readers_and_is_priced() {
    let d = changed(|m| attributes(m, "Order").push(json!({"name": "channel", "type": "string"})));
    let c = only_of(&d, Class::BreakingForReaders);
    assert!(c.explanation.contains("back-fill"), "{}", c.explanation);
    let estimate = c.estimate.expect("priced from the volumes");
    assert_eq!(estimate.documents, 2_000_000.0);
    assert!(
        estimate.ru > estimate.documents,
        "a read and a replace each: {estimate:?}"
    );
}

#[test]
fn a_removed_property_is_left_in_place() {
    let d = changed(|m| attributes(m, "Order").retain(|a| a["name"] != "note"));
    let c = only(&d);
    assert_eq!((c.class, &c.kind), (Class::InPlace, &ChangeKind::PropertyRemoved));
    assert!(c.explanation.contains("ignore unknown fields"));
}

#[test]
fn a_retyped_property_breaks_readers_but_integer_to_number_does_not() {
    let d = changed(|m| attributes(m, "Order")[1]["type"] = json!("string"));
    let c = only_of(&d, Class::BreakingForReaders);
    assert!(matches!(c.kind, ChangeKind::PropertyRetyped { .. }));
    let d = changed(|m| attributes(m, "Order")[1]["type"] = json!("number"));
    assert_eq!(only(&d).class, Class::InPlace);
}

#[test]
fn a_property_made_required_breaks_readers_and_made_optional_does_not() {
    let d = changed(|m| attributes(m, "Order")[2]["optional"] = json!(false));
    assert_eq!(only(&d).class, Class::BreakingForReaders);
    assert!(matches!(
        only(&d).kind,
        ChangeKind::BecameRequired { default: None, .. }
    ));
    let d = changed(|m| attributes(m, "Order")[0]["optional"] = json!(true));
    assert_eq!(
        (only(&d).class, &only(&d).kind),
        (Class::InPlace, &ChangeKind::BecameOptional)
    );
}

#[test]
fn a_single_value_made_a_list_breaks_readers() {
    let d = changed(|m| attributes(m, "Order")[0]["many"] = json!(true));
    let c = only_of(&d, Class::BreakingForReaders);
    assert!(matches!(
        c.kind,
        ChangeKind::CardinalityChanged {
            old_many: false,
            new_many: true
        }
    ));
}

#[test]
fn a_ttl_change_is_in_place() {
    let d = changed(|m| m["aggregates"][1]["defaultTtlSeconds"] = json!(86400));
    let c = only_of(&d, Class::InPlace);
    assert_eq!(
        c.kind,
        ChangeKind::TtlChanged {
            old: None,
            new: Some(86400)
        }
    );
    assert!(c.explanation.contains("expire"), "{}", c.explanation);
}

#[test]
fn an_indexing_change_is_in_place() {
    let spec = base();
    let narrow = map(&spec);
    let all = cosmap_mapper::map(&domain(&spec), &Options::default().index_all(true));
    let d = diff(&narrow, &all, &Volumes::unknown()).unwrap();
    assert!(!d.is_empty());
    assert!(d
        .changes
        .iter()
        .all(|c| c.class == Class::InPlace && c.kind.name() == "indexingChanged"));
    // The kind's fields in camelCase, as docs/diff.md documents them.
    let json = serde_json::to_value(&d.changes[0]).unwrap();
    assert_eq!(json["includedAdded"], json!(["/*"]), "{json}");
    assert!(json["includedRemoved"].is_array(), "{json}");
    assert!(json.get("included_added").is_none(), "{json}");
}

#[test]
fn a_new_aggregate_is_an_additive_container_and_a_dropped_one_a_migration() {
    let add = |m: &mut Value| {
        m["entities"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "Shop", "identity": "shopId",
            "attributes": [{"name": "title", "type": "string"}], "volume": {"count": 100000000}}));
        m["valueObjects"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "Hours", "attributes": [{"name": "open", "type": "string"}]}));
        m["aggregates"]
            .as_array_mut()
            .unwrap()
            .push(json!({"root": "Shop", "members": ["Hours"]}));
        m["relationships"]
            .as_array_mut()
            .unwrap()
            .push(json!({"from": "Shop", "to": "Hours", "cardinality": "one"}));
    };
    let d = changed(add);
    let c = only(&d);
    assert_eq!((c.class, &c.kind), (Class::Additive, &ChangeKind::ContainerAdded));
    assert_eq!(c.subject.to_string(), "Shop");

    let mut bigger = base();
    add(&mut bigger);
    let (old, new) = (map(&bigger), map(&base()));
    let d = diff(&old, &new, &Volumes::unknown()).unwrap();
    assert_eq!(
        (only(&d).class, &only(&d).kind),
        (Class::DataMigration, &ChangeKind::ContainerRemoved)
    );
}

#[test]
fn a_partition_key_change_breaks_readers_and_is_priced_for_the_whole_container() {
    let d = changed(|m| entity(m, "Order")["identity"] = json!("orderNumber"));
    let c = find(&d, "partitionKeyChanged", "Order");
    assert_eq!(c.class, Class::BreakingForReaders);
    assert_eq!(c.kind, key_changed("/orderId", "/orderNumber"));
    assert!(c.explanation.contains("new name"), "{}", c.explanation);
    // Orders and their payments (3 million declared), each copied.
    assert_eq!(c.estimate.unwrap().documents, 2_000_000.0 + 3_000_000.0);
    assert_eq!(d.worst, Some(Class::BreakingForReaders));
}

#[test]
fn a_new_unique_key_needs_a_new_container() {
    let old = map(&base());
    let mut new = old.clone();
    let order = new.containers.iter_mut().find(|c| c.name == "Order").unwrap();
    order.unique_keys.push(cosmap_mapper::UniqueKey {
        paths: vec!["/placedAt".into()],
    });
    let d = diff(&old, &new, &Volumes::of(&domain(&base()), &old)).unwrap();
    let c = only_of(&d, Class::DataMigration);
    assert!(matches!(&c.kind, ChangeKind::UniqueKeysChanged { old, new } if old.is_empty() && new.len() == 1));
    // Orders and payments, copied into the new container.
    assert_eq!(c.estimate.unwrap().documents, 5_000_000.0);
}

#[test]
fn a_unique_value_claimed_across_partitions_back_fills_its_claims() {
    let d = changed(|m| attributes(m, "Customer")[0]["unique"] = json!(true));
    assert_eq!(find(&d, "containerAdded", "UniqueClaims").class, Class::Additive);
    let claims = d
        .changes
        .iter()
        .find(|c| c.kind.name() == "derivedAdded")
        .expect("claims");
    assert_eq!(claims.class, Class::DataMigration);
    assert_eq!(
        claims.estimate.unwrap().documents,
        1_000_000.0,
        "one claim per customer"
    );
}

#[test]
fn an_embedded_value_object_made_separate_is_one_migration() {
    let d = changed(|m| {
        m["relationships"][1] = json!({"from": "Order", "to": "Line", "cardinality": "squillions"});
    });
    let c = find(&d, "embeddedToSeparate", "Order/Line");
    assert_eq!(c.class, Class::DataMigration);
    assert!(
        matches!(&c.kind, ChangeKind::EmbeddedToSeparate { from, .. } if from == "Order.lines"),
        "{:?}",
        c.kind
    );
    assert!(c.estimate.is_some());
    // Neither an `embeddedRemoved` nor a `documentTypeAdded` besides it.
    assert_none_of(&d, &["embeddedRemoved", "documentTypeAdded"]);
}

#[test]
fn a_separate_value_object_embedded_again_is_one_migration() {
    let mut separate = base();
    separate["relationships"][1] = json!({"from": "Order", "to": "Line", "cardinality": "squillions"});
    let old_logical = map(&separate);
    let d = diff(
        &old_logical,
        &map(&base()),
        &Volumes::of(&domain(&separate), &old_logical),
    )
    .unwrap();
    let c = find(&d, "separateToEmbedded", "Order/Order.lines");
    assert_eq!(c.class, Class::DataMigration, "an array reads as empty meanwhile");
    assert_none_of(&d, &["embeddedAdded", "documentTypeRemoved"]);
}

#[test]
fn an_entity_added_is_additive_and_removed_breaks_mixed_reads() {
    let d = changed(|m| {
        m["entities"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "Refund", "identity": "refundId", "attributes": []}));
        m["aggregates"][1]["members"]
            .as_array_mut()
            .unwrap()
            .push(json!("Refund"));
        m["relationships"]
            .as_array_mut()
            .unwrap()
            .push(json!({"from": "Order", "to": "Refund", "cardinality": "many", "max": 10}));
    });
    let c = only(&d);
    assert_eq!(
        (c.class, &c.kind),
        (Class::Additive, &ChangeKind::DocumentTypeAdded { role: Role::Entity })
    );

    let d = changed(|m| {
        m["entities"].as_array_mut().unwrap().retain(|e| e["name"] != "Payment");
        m["aggregates"][1]["members"] = json!(["Line"]);
        m["relationships"]
            .as_array_mut()
            .unwrap()
            .retain(|r| r["to"] != "Payment");
    });
    let c = find(&d, "documentTypeRemoved", "Order/Payment");
    assert_eq!(c.class, Class::BreakingForReaders);
    assert_eq!(c.estimate.unwrap().documents, 3_000_000.0);
}

#[test]
fn a_required_reference_added_breaks_readers_and_a_removed_one_does_not() {
    let d = changed(|m| {
        m["relationships"]
            .as_array_mut()
            .unwrap()
            .push(json!({"from": "Payment", "to": "Customer", "cardinality": "one"}));
    });
    let c = only_of(&d, Class::BreakingForReaders);
    assert!(matches!(
        c.kind,
        ChangeKind::ReferenceAdded {
            optional: false,
            many: false,
            ..
        }
    ));

    let d = changed(|m| {
        m["relationships"]
            .as_array_mut()
            .unwrap()
            .retain(|r| r["to"] != "Customer")
    });
    let c = only_of(&d, Class::InPlace);
    assert!(matches!(c.kind, ChangeKind::ReferenceRemoved { .. }));
}

#[test]
fn a_copy_added_is_a_back_fill_of_its_source() {
    let old = map(&base());
    let mut new = old.clone();
    let order = new.container("Order").unwrap().document_type("Order").unwrap().clone();
    let copy = cosmap_mapper::DocumentType {
        name: "Order".into(),
        role: Role::Copy,
        copy_of: Some(Box::new(cosmap_mapper::CopyOf {
            container: "Order".into(),
            document_type: "Order".into(),
            partition_key_from: cosmap_mapper::operations::PropertyPath::new(["customer", "id"]),
            sync: cosmap_mapper::SyncPlan {
                trigger: cosmap_mapper::SyncTrigger::ChangeFeed {
                    container: "Order".into(),
                    document_type: "Order".into(),
                    discriminator: "order".into(),
                },
                actions: Vec::new(),
            },
            serves: "orders of a customer".into(),
            newest: None,
        })),
        ..order
    };
    let d = with_in_customer(&old, &mut new, copy);
    let c = only_of(&d, Class::DataMigration);
    assert_eq!(
        c.kind,
        ChangeKind::DerivedAdded {
            derived: Derived::Copy,
            required: false,
            kept_from_change_feed: true
        }
    );
    assert!(c.explanation.contains("first run back-fills it"), "{}", c.explanation);
    assert_eq!(c.estimate.unwrap().documents, 2_000_000.0);

    // And dropped again: the copies left behind break the container's enum.
    let d = diff(&new, &old, &Volumes::unknown()).unwrap();
    assert_eq!(only(&d).class, Class::BreakingForReaders);
    assert_eq!(only(&d).kind, ChangeKind::DerivedRemoved { derived: Derived::Copy });
}

#[test]
fn a_document_type_moved_between_containers_must_be_copied() {
    let old = map(&base());
    let mut new = old.clone();
    let order = new.containers.iter_mut().find(|c| c.name == "Order").unwrap();
    let at = order.document_types.iter().position(|d| d.name == "Payment").unwrap();
    let payment = order.document_types.make_mut().remove(at);
    let d = with_in_customer(&old, &mut new, payment);
    let c = only_of(&d, Class::BreakingForReaders);
    assert_eq!(c.subject.to_string(), "Customer/Payment");
    assert_eq!(
        c.kind,
        ChangeKind::DocumentTypeMoved {
            from: "Order".into(),
            to: "Customer".into()
        }
    );
    assert_eq!(c.estimate.unwrap().documents, 3_000_000.0);
}

#[test]
fn a_snapshot_in_place_of_a_reference_breaks_readers() {
    let old = map(&base());
    let mut new = old.clone();
    let order = new.containers.iter_mut().find(|c| c.name == "Order").unwrap();
    let root = order
        .document_types
        .make_mut()
        .iter_mut()
        .find(|d| d.name == "Order")
        .unwrap();
    let reference = root.references.remove(0);
    root.embedded.push(cosmap_mapper::Embedded {
        name: reference.name.clone(),
        source: reference.target.clone(),
        kind: cosmap_mapper::EmbeddedKind::ReferenceData,
        many: false,
        max: None,
        attributes: Vec::new(),
        embedded: Vec::new(),
        references: Vec::new(),
        subset: None,
        description: None,
    });
    let d = diff(&old, &new, &Volumes::unknown()).unwrap();
    let added = find(&d, "derivedAdded", "Order/Order.customer");
    assert_eq!(added.class, Class::BreakingForReaders);
    assert_eq!(
        find(&d, "referenceRemoved", "Order/Order.customer").class,
        Class::InPlace
    );
    assert_eq!(d.worst, Some(Class::BreakingForReaders));
}

#[test]
fn changes_come_in_a_deterministic_order_and_serialise_with_their_kind() {
    let change = |m: &mut Value| {
        attributes(m, "Order").push(json!({"name": "channel", "type": "string"}));
        attributes(m, "Customer").push(json!({"name": "age", "type": "integer", "optional": true}));
        m["aggregates"][1]["defaultTtlSeconds"] = json!(60);
    };
    let (a, b) = (changed(change), changed(change));
    assert_eq!(a, b);
    let subjects: Vec<String> = a.changes.iter().map(|c| c.subject.to_string()).collect();
    assert_eq!(subjects, ["Customer/Customer.age", "Order", "Order/Order.channel"]);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["worst"], "breakingForReaders");
    assert_eq!(json["changes"][0]["kind"], "propertyAdded");
    assert_eq!(json["changes"][0]["class"], "additive");
    assert_eq!(
        json["changes"][0]["subject"],
        json!({"container": "Customer", "documentType": "Customer", "path": ["age"]})
    );
    assert_eq!(json["changes"][2]["estimate"]["documents"], 2_000_000.0);
}

#[test]
fn classes_are_ordered_by_severity() {
    assert!(Class::InPlace < Class::Additive);
    assert!(Class::Additive < Class::DataMigration);
    assert!(Class::DataMigration < Class::BreakingForReaders);
}

#[test]
fn models_of_different_format_versions_are_refused() {
    let old = map(&base());
    let mut new = old.clone();
    new.format_version += 1;
    let err = diff(&old, &new, &Volumes::unknown()).unwrap_err();
    assert!(matches!(err, crate::DiffError::FormatVersion { .. }));
}

#[test]
fn a_required_property_with_a_default_added_is_additive_unless_queried() {
    let added = json!({"name": "channel", "type": "string", "default": "web"});
    let d = changed(|m| attributes(m, "Order").push(added.clone()));
    let c = only_of(&d, Class::Additive);
    assert!(
        matches!(&c.kind, ChangeKind::PropertyAdded { default: Some(v), queried: false, .. } if v == "web"),
        "{:?}",
        c.kind
    );
    assert!(c.explanation.contains("read `\"web\"`"), "{}", c.explanation);
    assert_eq!(c.estimate, None);

    // A read that filters on it: old documents, which lack it, would not match.
    let d = changed(|m| {
        attributes(m, "Order").push(added.clone());
        m["accessPatterns"] = json!([{"name": "orders by channel", "kind": "read", "start": "Order",
            "filter": ["channel"], "perSecond": 5}]);
    });
    let c = find(&d, "propertyAdded", "Order/Order.channel");
    assert_eq!(c.class, Class::DataMigration);
    assert!(matches!(c.kind, ChangeKind::PropertyAdded { queried: true, .. }));
    assert!(c.explanation.contains("back-fill `\"web\"`"), "{}", c.explanation);
    assert_eq!(c.estimate.expect("priced").documents, 2_000_000.0);
    let json = serde_json::to_value(c).unwrap();
    assert_eq!((&json["default"], &json["queried"]), (&json!("web"), &json!(true)));
}

#[test]
fn a_property_made_required_with_a_default_still_reads() {
    let d = changed(|m| {
        attributes(m, "Order")[2]["optional"] = json!(false);
        attributes(m, "Order")[2]["default"] = json!("none");
    });
    let c = only_of(&d, Class::Additive);
    assert!(matches!(&c.kind, ChangeKind::BecameRequired { default: Some(_), .. }));
}

#[test]
fn a_changed_or_removed_default_is_a_migration_or_breaks_readers() {
    let with_default = |value: Value| {
        move |m: &mut Value| {
            attributes(m, "Order").push(json!({"name": "channel", "type": "string", "default": value}));
        }
    };
    let old = {
        let mut m = base();
        with_default(json!("web"))(&mut m);
        m
    };
    let compare = |change: &dyn Fn(&mut Value)| {
        let mut new = old.clone();
        change(&mut new);
        let old_logical = map(&old);
        diff(&old_logical, &map(&new), &Volumes::of(&domain(&old), &old_logical)).expect("comparable")
    };
    // Another default: documents without it would read `"app"` where they meant `"web"`.
    let d = compare(&|m| attributes(m, "Order")[3]["default"] = json!("app"));
    let c = only_of(&d, Class::DataMigration);
    assert_eq!(
        c.kind,
        ChangeKind::DefaultChanged {
            old: Some(json!("web")),
            new: Some(json!("app")),
            optional: false
        }
    );
    assert!(c.explanation.contains("back-fill `\"web\"`"), "{}", c.explanation);
    // No default any more: documents without it no longer deserialise.
    let d = compare(&|m| {
        attributes(m, "Order")[3].as_object_mut().unwrap().remove("default");
    });
    assert_eq!(only(&d).class, Class::BreakingForReaders);
    // Optional now: they read as absent instead of `"web"`.
    let d = compare(&|m| {
        let a = attributes(m, "Order")[3].as_object_mut().unwrap();
        a.remove("default");
        a.insert("optional".into(), json!(true));
    });
    assert_eq!(
        find(&d, "defaultChanged", "Order/Order.channel").class,
        Class::DataMigration
    );
    assert_eq!(find(&d, "becameOptional", "Order/Order.channel").class, Class::InPlace);
    // A default given to a required attribute every document holds: nothing to do.
    let d = changed(|m| attributes(m, "Order")[1]["default"] = json!(0));
    assert_eq!(only(&d).class, Class::InPlace);
}

// What is provisioned against a model (`diff_deployed`): containers only.

/// The base model's containers as an account returns them once provisioned, `edit`ed.
fn deployed(edit: impl FnOnce(&mut Vec<DeployedContainer>)) -> ModelDiff {
    let new = map(&base());
    let mut containers: Vec<DeployedContainer> = new
        .container_definitions()
        .into_iter()
        .map(DeployedContainer::from)
        .collect();
    edit(&mut containers);
    diff_deployed("Shop at https://localhost:8081/", &containers, &new)
}

fn definition<'a>(containers: &'a mut [DeployedContainer], id: &str) -> &'a mut cosmap_mapper::ContainerDefinition {
    &mut containers
        .iter_mut()
        .find(|c| c.definition.id == id)
        .unwrap_or_else(|| panic!("no container {id}"))
        .definition
}

#[test]
fn the_containers_provisioned_from_a_model_have_no_changes() {
    let d = deployed(|_| {});
    assert!(d.is_empty(), "{:#?}", d.changes);
    assert_eq!(d.worst, None);
    assert!(d.containers_only);
    assert_eq!(
        (d.old.as_str(), d.new.as_str()),
        ("Shop at https://localhost:8081/", "Shop")
    );
    let json = serde_json::to_value(&d).unwrap();
    assert_eq!(json["containersOnly"], true);
    assert_eq!(json["changes"], json!([]));
    // Two models: no `containersOnly`.
    assert!(serde_json::to_value(changed(|_| {}))
        .unwrap()
        .get("containersOnly")
        .is_none());
}

#[test]
fn what_a_server_changes_only_in_form_compares_equal() {
    let d = deployed(|containers| {
        for c in containers.iter_mut() {
            let policy = &mut c.definition.indexing_policy;
            // Mode in another case, paths reordered and repeated, `_etag` left implicit.
            policy.indexing_mode = policy.indexing_mode.to_uppercase();
            policy.included_paths.reverse();
            if let Some(first) = policy.included_paths.first().cloned() {
                policy.included_paths.push(first);
            }
            policy.excluded_paths.retain(|p| p.path != "/\"_etag\"/?");
            policy.excluded_paths.reverse();
            policy.composite_indexes.reverse();
        }
        // Unique keys in another order, each key's paths too.
        let order = definition(containers, "Order");
        order.unique_key_policy = Some(cosmap_mapper::UniqueKeyPolicy {
            unique_keys: vec![
                cosmap_mapper::UniqueKey {
                    paths: vec!["/type".into(), "/note".into()],
                },
                cosmap_mapper::UniqueKey {
                    paths: vec!["/placedAt".into()],
                },
            ],
        });
    });
    // Only the unique keys differ: the model has none on Order.
    let c = only(&d);
    assert_eq!(c.subject.to_string(), "Order");
    assert_eq!(
        c.kind,
        ChangeKind::UniqueKeysChanged {
            old: vec![vec!["/note".into(), "/type".into()], vec!["/placedAt".into()]],
            new: vec![],
        }
    );
    assert_eq!(c.class, Class::DataMigration);
    assert_eq!(c.estimate, None, "an account gives no volumes");
}

#[test]
fn containers_the_model_does_not_have_are_removed_and_missing_ones_added() {
    let d = deployed(|containers| {
        containers.retain(|c| c.definition.id != "Customer");
        let mut lease = containers[0].clone();
        lease.definition.id = "leases".into();
        lease.definition.partition_key = cosmap_mapper::PartitionKey::on("id");
        containers.push(lease);
    });
    let kinds: Vec<(String, String, Class)> = d
        .changes
        .iter()
        .map(|c| (c.subject.to_string(), c.kind.name(), c.class))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Customer".to_string(), "containerAdded".to_string(), Class::Additive),
            (
                "leases".to_string(),
                "containerRemoved".to_string(),
                Class::DataMigration
            ),
        ]
    );
    assert_eq!(d.worst, Some(Class::DataMigration));
}

#[test]
fn a_provisioned_partition_key_that_differs_breaks_readers() {
    let d = deployed(|containers| {
        definition(containers, "Order").partition_key = cosmap_mapper::PartitionKey::on("customerId")
    });
    let c = only_of(&d, Class::BreakingForReaders);
    assert_eq!(c.kind, key_changed("/customerId", "/orderId"));
}

#[test]
fn a_version_1_partition_key_on_the_same_path_is_a_data_migration() {
    let d = deployed(|containers| definition(containers, "Order").partition_key.version = 1);
    let c = only_of(&d, Class::DataMigration);
    assert!(c.explanation.contains("version"), "{}", c.explanation);
    let json = serde_json::to_value(c).unwrap();
    assert_eq!(json["kind"], "partitionKeyChanged");
    assert_eq!(json["old"], json!(["/orderId"]));
    assert_eq!(
        (json["oldKind"].clone(), json["oldVersion"].clone()),
        (json!("Hash"), json!(1))
    );
    assert_eq!(
        (json["newKind"].clone(), json["newVersion"].clone()),
        (json!("Hash"), json!(2))
    );
}

#[test]
fn indexing_and_ttl_differences_are_in_place() {
    let d = deployed(|containers| {
        let order = definition(containers, "Order");
        order.indexing_policy = cosmap_mapper::IndexingPolicy::default();
        order.default_ttl = Some(3600);
    });
    assert_eq!(d.worst, Some(Class::InPlace));
    let indexing = find(&d, "indexingChanged", "Order");
    match &indexing.kind {
        ChangeKind::IndexingChanged {
            included_added,
            included_removed,
            ..
        } => {
            assert_eq!(included_removed, &["/*".to_string()]);
            assert!(!included_added.is_empty(), "the model indexes some paths only");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        find(&d, "ttlChanged", "Order").kind,
        ChangeKind::TtlChanged {
            old: Some(3600),
            new: None
        }
    );
    // Indexes a model never declares make the policy differ too.
    let d = deployed(|containers| containers[0].other_indexes = vec!["spatialIndexes".into()]);
    assert!(matches!(
        only(&d).kind,
        ChangeKind::IndexingChanged {
            other: true,
            ref included_added,
            ref included_removed,
        } if included_added.is_empty() && included_removed.is_empty()
    ));
    assert_eq!(only(&d).class, Class::InPlace);
}

#[test]
fn the_deployed_diff_does_not_depend_on_the_order_read() {
    let edit = |containers: &mut Vec<DeployedContainer>| {
        definition(containers, "Order").default_ttl = Some(60);
        definition(containers, "Customer").partition_key = cosmap_mapper::PartitionKey::on("email");
        let mut extra = containers[0].clone();
        extra.definition.id = "Audit".into();
        containers.push(extra);
    };
    let a = deployed(edit);
    let b = deployed(|containers| {
        edit(containers);
        containers.reverse();
    });
    assert_eq!(a, b);
    let subjects: Vec<String> = a.changes.iter().map(|c| c.subject.to_string()).collect();
    assert_eq!(subjects, ["Audit", "Customer", "Order"]);
    // Two containers of one name (not something an account has): the first counts.
    let c = deployed(|containers| {
        let mut twin = containers[0].clone();
        twin.definition.partition_key = cosmap_mapper::PartitionKey::on("other");
        containers.push(twin);
    });
    assert!(c.is_empty(), "{:#?}", c.changes);
}

/// The base with the Customer aggregate's partition key pinned to `email`.
fn keyed_by_email(m: &mut Value) {
    let aggregates = m["aggregates"].as_array_mut().unwrap();
    aggregates[0]["partitionKey"] = json!("email");
}

#[test]
fn an_attribute_that_became_the_partition_key_is_not_removed() {
    let d = changed(keyed_by_email);
    assert!(
        !d.changes.iter().any(|c| c.kind == ChangeKind::PropertyRemoved),
        "{:#?}",
        d.changes
    );
    let c = find(&d, "becamePartitionKey", "Customer/Customer.email");
    let ChangeKind::BecamePartitionKey { key, was_optional } = &c.kind else {
        unreachable!()
    };
    assert_eq!(
        (key[0].as_str(), *was_optional, c.class),
        ("/email", false, Class::InPlace)
    );
    assert!(c.explanation.contains("under the same name"), "{}", c.explanation);
    assert_eq!(
        find(&d, "partitionKeyChanged", "Customer").class,
        Class::BreakingForReaders,
        "the move itself is the container's change"
    );
}

#[test]
fn a_partition_key_that_became_an_attribute_is_not_added() {
    let mut old = base();
    keyed_by_email(&mut old);
    let old_logical = map(&old);
    let d = diff(&old_logical, &map(&base()), &Volumes::of(&domain(&old), &old_logical)).unwrap();
    assert_none_of(&d, &["propertyAdded"]);
    let c = find(&d, "noLongerPartitionKey", "Customer/Customer.email");
    assert_eq!(c.class, Class::InPlace);
    assert!(
        c.explanation.contains("hold it under the same name"),
        "{}",
        c.explanation
    );
}

#[test]
fn an_optional_attribute_that_became_the_partition_key_breaks_readers() {
    let mut old = base();
    for a in attributes(&mut old, "Customer") {
        if a["name"] == "email" {
            a["optional"] = json!(true);
        }
    }
    let mut new = base();
    keyed_by_email(&mut new);
    let old_logical = map(&old);
    let d = diff(&old_logical, &map(&new), &Volumes::of(&domain(&old), &old_logical)).unwrap();
    let c = find(&d, "becamePartitionKey", "Customer/Customer.email");
    assert_eq!(c.class, Class::BreakingForReaders);
    assert!(c.explanation.contains("back-fill a value"), "{}", c.explanation);
    assert_none_of(&d, &["becameRequired"]); // one change, not two
}
