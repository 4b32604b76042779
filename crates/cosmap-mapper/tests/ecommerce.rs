//! The reference example of DESIGN.md must map to exactly the expected logical model.

use cosmap_mapper::operations::PropertyPath;
use cosmap_mapper::{
    map, Container, DocumentType, EmbeddedKind, LogicalModel, Options, Role, Rule, SyncOperation, SyncTrigger,
};

mod common;
use common::{example, repo};

fn ecommerce() -> LogicalModel {
    map(&example("ecommerce"), &Options::default())
}

fn container<'a>(model: &'a LogicalModel, name: &str) -> &'a Container {
    model.container(name).unwrap_or_else(|| panic!("no container {name}"))
}

fn document<'a>(c: &'a Container, name: &str) -> &'a DocumentType {
    c.document_type(name)
        .unwrap_or_else(|| panic!("no document type {name} in {}", c.name))
}

fn names(c: &Container) -> Vec<(&str, Role)> {
    c.document_types.iter().map(|d| (d.name.as_str(), d.role)).collect()
}

#[test]
fn six_containers_with_the_expected_partition_keys() {
    let m = ecommerce();
    let keys: Vec<(&str, &str)> = m
        .containers
        .iter()
        .map(|c| (c.name.as_str(), c.partition_key.paths[0].as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("Account", "/accountId"),
            ("Dictionary", "/type"),
            ("Item", "/itemId"),
            ("Order", "/orderId"),
            // Its two cross-partition reads by country (500/s) would fan out over the
            // partitions of its storage after five years: a hierarchical key, by country first.
            ("PresentedProduct", "/countryId"),
            ("UniqueClaims", "/claim"),
        ]
    );
    for c in &m.containers {
        let kind = if c.partition_key.paths.len() > 1 {
            "MultiHash"
        } else {
            "Hash"
        };
        assert_eq!(
            (c.partition_key.kind.as_str(), c.partition_key.version),
            (kind, 2),
            "{}",
            c.name
        );
    }
}

#[test]
fn mr1_and_mr2_start_from_seven_aggregates() {
    let m = ecommerce();
    let mr1 = m.decisions.iter().filter(|d| d.rule == Rule::Mr1).count();
    assert_eq!(mr1, 7);
    let mut mr2: Vec<&str> = m
        .decisions
        .iter()
        .filter(|d| d.rule == Rule::Mr2)
        .map(|d| d.outcome.as_str())
        .collect();
    mr2.sort_unstable();
    assert_eq!(
        mr2,
        [
            "partition key `/accountId`",
            "partition key `/countryId`",
            "partition key `/deliveryMethodId`",
            "partition key `/itemId`",
            "partition key `/orderId`",
            "partition key `/productId`",
            "partition key `/warehouseId`",
        ]
    );
}

#[test]
fn mr3_entities_and_the_copy_are_document_types() {
    let m = ecommerce();
    assert_eq!(
        names(container(&m, "Account")),
        [
            ("Account", Role::Root),
            ("BankAccount", Role::Entity),
            ("Contact", Role::Entity),
            ("CreditCard", Role::Entity),
            ("Order", Role::Copy),
        ]
    );
    assert_eq!(
        names(container(&m, "Order")),
        [
            ("Order", Role::Root),
            ("OrderStatusHistory", Role::Entity),
            ("Package", Role::Entity),
            ("Payment", Role::Entity),
        ]
    );
    assert_eq!(
        names(container(&m, "Item")),
        [("Item", Role::Root), ("ProductAvailability", Role::ValueObject)]
    );
    assert_eq!(
        names(container(&m, "PresentedProduct")),
        [("PresentedProduct", Role::Root)]
    );
    assert_eq!(
        names(container(&m, "Dictionary")),
        [
            ("Country", Role::Root),
            ("DeliveryMethod", Role::Root),
            ("Warehouse", Role::Root)
        ]
    );
}

#[test]
fn every_document_carries_its_containers_partition_key() {
    let m = ecommerce();
    for c in &m.containers {
        for d in &c.document_types {
            assert_eq!(
                d.partition_key_property, c.partition_key_property,
                "{}/{}",
                c.name, d.name
            );
            assert_eq!(d.sub_partition_key_properties, c.sub_partition_key_properties);
            let levels: Vec<String> = std::iter::once(&d.partition_key_property)
                .chain(&d.sub_partition_key_properties)
                .map(|p| format!("/{p}"))
                .collect();
            assert_eq!(c.partition_key.paths, levels);
        }
    }
}

#[test]
fn mr4_embeds_every_value_object_but_product_availability() {
    let m = ecommerce();
    let embedded = |c: &str, d: &str| -> Vec<(String, String, bool)> {
        document(container(&m, c), d)
            .embedded
            .iter()
            .filter(|e| e.kind == EmbeddedKind::ValueObject)
            .map(|e| (e.name.clone(), e.source.clone(), e.many))
            .collect()
    };
    let t = |n: &str, s: &str, many: bool| (n.to_string(), s.to_string(), many);
    assert_eq!(
        embedded("Account", "Account"),
        [
            t("deliveryAddresses", "DeliveryAddress", true),
            t("mainAddress", "MainAddress", false)
        ]
    );
    assert_eq!(
        embedded("Account", "CreditCard"),
        [t("cardType", "CreditCardType", false)]
    );
    assert_eq!(embedded("Account", "Contact"), [t("contactType", "ContactType", false)]);
    assert_eq!(
        embedded("Order", "Order"),
        [
            t("items", "OrderItem", true),
            t("orderType", "OrderType", false),
            t("status", "OrderStatus", false)
        ]
    );
    assert_eq!(embedded("Order", "Payment"), [t("method", "PaymentMethod", false)]);
    assert_eq!(
        embedded("Order", "OrderStatusHistory"),
        [t("status", "OrderStatus", false)]
    );
    assert_eq!(
        embedded("PresentedProduct", "PresentedProduct"),
        [
            t("options", "Option", true),
            t("sizes", "Size", true),
            t("variants", "Variant", true)
        ]
    );
    let separated = m
        .decisions
        .iter()
        .filter(|d| d.rule == Rule::Mr4 && d.outcome.contains("separate"))
        .map(|d| d.subject.as_str())
        .collect::<Vec<_>>();
    assert_eq!(separated, ["Item.productAvailabilities"]);
}

#[test]
fn mr6_references_and_embedded_country() {
    let m = ecommerce();
    let refs = |c: &str, d: &str| -> Vec<(String, String)> {
        document(container(&m, c), d)
            .references
            .iter()
            .map(|r| (r.name.clone(), r.target.clone()))
            .collect()
    };
    let r = |n: &str, t: &str| (n.to_string(), t.to_string());
    assert_eq!(
        refs("Order", "Order"),
        [
            r("account", "Account"),
            r("deliveryMethod", "DeliveryMethod"),
            r("warehouse", "Warehouse")
        ]
    );
    assert_eq!(refs("Item", "ProductAvailability"), [r("warehouse", "Warehouse")]);
    assert_eq!(refs("PresentedProduct", "PresentedProduct"), [r("items", "Item")]);
    let order = document(container(&m, "Order"), "Order");
    assert_eq!(
        order.embedded[0].references[0].target, "Item",
        "each OrderItem refers to its Item"
    );
    // Countries never change and "address by account id and address type" shows the
    // country's name: embedded (saving that read), never referenced.
    let all_refs = m
        .containers
        .iter()
        .flat_map(|c| &c.document_types)
        .flat_map(|d| d.references.iter().chain(d.embedded.iter().flat_map(|e| &e.references)));
    assert!(all_refs.clone().all(|r| r.target != "Country"));
    let country_snapshots = m
        .decisions
        .iter()
        .filter(|d| d.rule == Rule::EmbedReferenceData)
        .map(|d| d.subject.as_str())
        .collect::<Vec<_>>();
    assert_eq!(
        country_snapshots,
        [
            "Country",
            "Account.deliveryAddresses.country",
            "Account.mainAddress.country",
            "Warehouse.country",
            "PresentedProduct.country"
        ]
    );
    let product = document(container(&m, "PresentedProduct"), "PresentedProduct");
    let country = product
        .embedded
        .iter()
        .find(|e| e.name == "country")
        .expect("embedded country");
    assert_eq!(country.kind, EmbeddedKind::ReferenceData);
    assert_eq!(country.attributes[0].name, "countryId");
}

#[test]
fn orders_are_copied_into_the_account_container() {
    let m = ecommerce();
    let copy = document(container(&m, "Account"), "Order");
    let of = copy.copy_of.as_ref().expect("a copy");
    assert_eq!((of.container.as_str(), of.document_type.as_str()), ("Order", "Order"));
    assert_eq!(of.partition_key_from, PropertyPath::new(["account", "id"]));
    assert_eq!(of.serves, "orders of an account");
    assert_eq!(
        of.sync.trigger,
        SyncTrigger::ChangeFeed {
            container: "Order".into(),
            document_type: "Order".into(),
            discriminator: "order".into()
        }
    );
    assert_eq!(of.sync.key("accountId"), Some(&of.partition_key_from));
    let operations: Vec<SyncOperation> = of.sync.actions.iter().map(|a| a.operation).collect();
    assert_eq!(operations, [SyncOperation::Upsert, SyncOperation::Delete]);
    assert_eq!(copy.discriminator, "order");
    let decision = m.decision(Rule::Copy, "orders of an account").expect("copy decision");
    assert_eq!(decision.evidence["perSecond"], 500.0);
    // The copy is the only one.
    let copies = m
        .containers
        .iter()
        .flat_map(|c| &c.document_types)
        .filter(|d| d.role == Role::Copy);
    assert_eq!(copies.count(), 1);
}

#[test]
fn without_optimisations_there_is_no_copy_and_country_is_referenced() {
    let m = map(&example("ecommerce"), &Options::default().optimise(false));
    assert!(container(&m, "Account").document_type("Order").is_none());
    let product = document(container(&m, "PresentedProduct"), "PresentedProduct");
    assert!(product.references.iter().any(|r| r.target == "Country"));
}

#[test]
fn json_matches_the_committed_expected_model() {
    let actual = serde_json::to_string_pretty(&ecommerce()).unwrap() + "\n";
    let path = repo().join("examples/ecommerce/logical-model.json");
    if std::env::var_os("COSMAP_BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).expect("run with COSMAP_BLESS=1 to create the expected file");
    assert!(
        actual == expected,
        "the logical model differs from {}; review the diff and run with COSMAP_BLESS=1 if the change is intended",
        path.display()
    );
}
