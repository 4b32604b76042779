//! The builder and a model file describe the same `DomainModel`.

use cosmap_domain::{
    AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Cardinality, ChangeRate, DomainModel, Entity,
    ModelBuilder, Relationship, ThresholdOverrides, Throughput, ValueObject,
};

const FILE: &str = r#"{
  "name": "Shop",
  "entities": [
    {"name": "Customer", "identity": "customerId",
     "attributes": [{"name": "email", "type": "string", "unique": true}],
     "volume": {"count": 1000, "avgSizeBytes": 500}},
    {"name": "Country", "identity": "countryId", "attributes": [{"name": "name", "type": "string"}],
     "referenceData": "never"}
  ],
  "valueObjects": [{"name": "Address", "attributes": [{"name": "city", "type": "string", "optional": true}]}],
  "aggregates": [{"root": "Customer", "members": ["Address"]}, {"root": "Country"}],
  "relationships": [
    {"from": "Customer", "to": "Address", "cardinality": "few", "max": 5},
    {"from": "Address", "to": "Country", "cardinality": "one"}
  ],
  "accessPatterns": [
    {"name": "customer by email", "kind": "read", "start": "Customer", "filter": ["email"], "perSecond": 3}
  ]
}"#;

/// The model `builder` builds, checked to be the one `file` (a model file's text) describes.
fn built_as(file: &str, builder: ModelBuilder) -> DomainModel {
    let loaded = cosmap_domain::from_slice(file.as_bytes(), None).expect("valid file");
    let built = builder.build().expect("valid builder");
    assert_eq!(built.spec(), loaded.spec());
    built
}

#[test]
fn builder_and_file_give_the_same_model() {
    let builder = ModelBuilder::new("Shop")
        .entity(
            Entity::new("Customer", "customerId")
                .attribute(Attribute::new("email", AttributeType::String).unique())
                .volume(1000.0, 500.0),
        )
        .entity(
            Entity::new("Country", "countryId")
                .attribute(Attribute::new("name", AttributeType::String))
                .reference_data(ChangeRate::Never),
        )
        .value_object(ValueObject::new("Address").attribute(Attribute::new("city", AttributeType::String).optional()))
        .aggregate(Aggregate::new("Customer").member("Address"))
        .aggregate(Aggregate::new("Country"))
        .relationship(Relationship::new("Customer", "Address", Cardinality::Few).max(5))
        .relationship(Relationship::new("Address", "Country", Cardinality::One))
        .access_pattern(AccessPattern::new("customer by email", AccessKind::Read, "Customer", 3.0).filter("email"));
    built_as(FILE, builder);
}

#[test]
fn the_builder_reports_problems_like_a_file() {
    let err = ModelBuilder::new("Shop")
        .entity(Entity::new("Customer", "customerId"))
        .aggregate(Aggregate::new("Custmer"))
        .build()
        .unwrap_err();
    let problems: Vec<String> = err
        .diagnostics()
        .iter()
        .map(|d| format!("{}: {}", d.path, d.message))
        .collect();
    assert_eq!(
        problems,
        [
            "$.aggregates[0].root: root `Custmer` is not a declared entity or value object",
            "$.entities[0].name: `Customer` is in no aggregate",
        ]
    );
    assert_eq!(err.diagnostics()[0].help.as_deref(), Some("did you mean `Customer`?"));
}

/// `sort_descending` and `limit` build what `"sort": ["-at"]` and `"limit"` say.
#[test]
fn descending_sort_and_limit_from_the_builder_and_the_file() {
    let file = r#"{"name": "Forum",
             "entities": [{"name": "Topic", "identity": "topicId", "attributes": [{"name": "at", "type": "dateTime"}]}],
             "aggregates": [{"root": "Topic"}],
             "accessPatterns": [{"name": "newest", "kind": "read", "start": "Topic", "sort": ["-at", "topicId"], "limit": 10, "perSecond": 1}]}"#;
    let builder = ModelBuilder::new("Forum")
        .entity(Entity::new("Topic", "topicId").attribute(Attribute::new("at", AttributeType::DateTime)))
        .aggregate(Aggregate::new("Topic"))
        .access_pattern(
            AccessPattern::new("newest", AccessKind::Read, "Topic", 1.0)
                .sort_descending("at")
                .sort("topicId")
                .limit(10),
        );
    let built = built_as(file, builder);
    let keys = built.access_patterns()[0].sort_keys();
    assert_eq!(
        keys,
        [
            cosmap_domain::SortKey {
                attribute: "at",
                descending: true
            },
            cosmap_domain::SortKey {
                attribute: "topicId",
                descending: false
            }
        ]
    );
}

#[test]
fn a_tree_from_the_builder_and_the_file() {
    let file = r#"{"name": "Catalog",
             "entities": [{"name": "Category", "identity": "categoryId", "attributes": [{"name": "name", "type": "string"}]}],
             "aggregates": [{"root": "Category"}],
             "relationships": [{"from": "Category", "to": "Category", "cardinality": "one", "property": "parent",
                                "optional": true, "depth": {"max": 6, "avg": 3.0}}],
             "accessPatterns": [{"name": "path", "kind": "read", "start": "Category", "filter": ["categoryId"],
                                 "returns": ["parent*.name"], "perSecond": 1}]}"#;
    let builder = ModelBuilder::new("Catalog")
        .entity(Entity::new("Category", "categoryId").attribute(Attribute::new("name", AttributeType::String)))
        .aggregate(Aggregate::new("Category"))
        .relationship(
            Relationship::new("Category", "Category", Cardinality::One)
                .property("parent")
                .optional()
                .depth(6, Some(3.0)),
        )
        .access_pattern(
            AccessPattern::new("path", AccessKind::Read, "Category", 1.0)
                .filter("categoryId")
                .returns("parent*.name"),
        );
    let built = built_as(file, builder);
    assert!(built.relationships()[0].is_tree());
    // Without `optional`, the chain never ends: the builder refuses it as a file is.
    let required = ModelBuilder::new("Catalog")
        .entity(Entity::new("Category", "categoryId"))
        .aggregate(Aggregate::new("Category"))
        .relationship(Relationship::new("Category", "Category", Cardinality::One).property("parent"))
        .access_pattern(
            AccessPattern::new("path", AccessKind::Read, "Category", 1.0)
                .filter("categoryId")
                .returns("parent*"),
        )
        .build();
    let error = required.expect_err("a required parent link has no root").to_string();
    assert!(error.contains("never ends at a root"), "{error}");
}

/// `thresholds.throughput` from the builder is the file's, beside the other overrides,
/// and the builder refuses what the file refuses (throughput on both levels).
#[test]
fn throughput_from_the_builder_and_the_file() {
    let file = r#"{
      "name": "Shop",
      "entities": [{"name": "Order", "identity": "orderId", "attributes": []}],
      "aggregates": [{"root": "Order"}],
      "thresholds": {"growthYears": 2, "throughput": {"container": 40000, "autoscale": true}}
    }"#;
    let from_file = cosmap_domain::from_slice(file.as_bytes(), None).expect("valid model");
    let builder = || {
        ModelBuilder::new("Shop")
            .entity(Entity::new("Order", "orderId"))
            .aggregate(Aggregate::new("Order"))
            .thresholds(ThresholdOverrides {
                growth_years: Some(2.0),
                ..ThresholdOverrides::default()
            })
    };
    let built = builder()
        .throughput(Throughput {
            container: Some(40000.0),
            autoscale: Some(true),
            ..Throughput::default()
        })
        .build()
        .expect("valid model");
    assert_eq!(built.thresholds(), from_file.thresholds());
    assert_eq!(
        built.thresholds().growth_years,
        Some(2.0),
        "the other overrides are kept"
    );
    let both = builder().throughput(Throughput {
        container: Some(40000.0),
        database: Some(40000.0),
        ..Throughput::default()
    });
    let err = both.build().expect_err("throughput on both levels").to_string();
    assert!(err.contains("1 problem"), "{err}");
}
