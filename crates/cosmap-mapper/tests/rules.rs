//! Each rule decided the other way, on small models built with the builder API,
//! and the examples that push the rules against the e-commerce defaults.

use cosmap_domain::{
    AccessKind, AccessPattern, Aggregate, Cardinality, DomainModel, Entity, Growth, ModelBuilder, Relationship,
    ThresholdOverrides, ValueObject,
};
use cosmap_mapper::{map, LogicalModel, Options, PartitionKeyValue, Role, Rule};

mod common;
use common::{assert_reason, decision, document, mapped, roots, text};

/// A `Basket` aggregate whose root holds `Line` value objects through `rel`.
fn basket(rel: Relationship, line_bytes: f64) -> ModelBuilder {
    ModelBuilder::new("Shop")
        .entity(
            Entity::new("Basket", "basketId")
                .attribute(text("owner"))
                .volume(1e6, 1000.0),
        )
        .value_object(
            ValueObject::new("Line")
                .attribute(text("sku"))
                .avg_size_bytes(line_bytes),
        )
        .aggregate(Aggregate::new("Basket").member("Line"))
        .relationship(rel)
}

fn is_separate(m: &LogicalModel, container: &str, doc: &str) -> bool {
    m.container(container)
        .and_then(|c| c.document_type(doc))
        .is_some_and(|d| d.role == Role::ValueObject)
}

#[test]
fn mr4_embeds_a_bounded_few_as_an_array() {
    let m = mapped(basket(
        Relationship::new("Basket", "Line", Cardinality::Few).max(20),
        100.0,
    ));
    let root = document(&m, "Basket", "Basket");
    assert_eq!(root.embedded[0].name, "lines");
    assert!(root.embedded[0].many);
    let d = decision(&m, Rule::Mr4, "Basket.lines");
    assert!(d.reason.contains("well under the 2 MB item limit"), "{}", d.reason);
    assert_eq!(d.evidence["estimatedParentBytes"], 3000.0);
}

#[test]
fn mr4_separates_squillions() {
    let m = mapped(basket(
        Relationship::new("Basket", "Line", Cardinality::Squillions),
        100.0,
    ));
    assert!(is_separate(&m, "Basket", "Line"));
    assert_reason(&m, Rule::Mr4, "Basket.lines", "one-to-squillions");
}

#[test]
fn mr4_separates_many_without_a_bound_and_unbounded_growth() {
    let m = mapped(basket(Relationship::new("Basket", "Line", Cardinality::Many), 100.0));
    assert!(is_separate(&m, "Basket", "Line"));
    assert_reason(&m, Rule::Mr4, "Basket.lines", "without `max`");
    let m = mapped(basket(
        Relationship::new("Basket", "Line", Cardinality::Many).growth(Growth::Unbounded),
        100.0,
    ));
    assert_reason(&m, Rule::Mr4, "Basket.lines", "grows without a useful bound");
}

#[test]
fn mr4_separates_more_than_a_few_unless_the_threshold_is_raised() {
    let rel = Relationship::new("Basket", "Line", Cardinality::Many).max(500);
    let m = mapped(basket(rel.clone(), 10.0));
    assert!(is_separate(&m, "Basket", "Line"));
    assert_reason(&m, Rule::Mr4, "Basket.lines", "fewMaxItems 100");
    let raised = ThresholdOverrides {
        few_max_items: Some(500),
        ..Default::default()
    };
    let m = mapped(basket(rel.clone(), 10.0).thresholds(raised));
    assert!(!is_separate(&m, "Basket", "Line"), "the model file's threshold applies");
    assert_eq!(m.thresholds.few_max_items, 500);
    // The caller's options win over the model file.
    let model = basket(rel, 10.0).thresholds(raised).build().unwrap();
    let options = Options::default().thresholds(ThresholdOverrides {
        few_max_items: Some(50),
        ..Default::default()
    });
    assert!(is_separate(&map(&model, &options), "Basket", "Line"));
}

#[test]
fn mr4_separates_a_bounded_few_updated_constantly() {
    let rel = Relationship::new("Basket", "Line", Cardinality::Few)
        .max(5)
        .updates_per_second(200.0);
    let m =
        mapped(basket(rel, 100.0).access_pattern(AccessPattern::new("edit basket", AccessKind::Write, "Basket", 2.0)));
    assert!(is_separate(&m, "Basket", "Line"));
    let d = decision(&m, Rule::Mr4, "Basket.lines");
    assert!(d.reason.contains("updated often"), "{}", d.reason);
    assert_eq!(d.evidence["updatesPerSecond"], 200.0);
    assert_eq!(d.evidence["parentWritesPerSecond"], 2.0);
    // Slower updates stay embedded.
    let rel = Relationship::new("Basket", "Line", Cardinality::Few)
        .max(5)
        .updates_per_second(15.0);
    let m =
        mapped(basket(rel, 100.0).access_pattern(AccessPattern::new("edit basket", AccessKind::Write, "Basket", 2.0)));
    assert!(!is_separate(&m, "Basket", "Line"));
}

#[test]
fn mr4_separates_what_would_make_the_parent_too_large() {
    let m = mapped(basket(
        Relationship::new("Basket", "Line", Cardinality::Few).max(100),
        8000.0,
    ));
    assert!(is_separate(&m, "Basket", "Line"));
    let d = decision(&m, Rule::Mr4, "Basket.lines");
    assert!(d.reason.contains("2 MB item limit"), "{}", d.reason);
    assert_eq!(d.evidence["estimatedParentBytes"], 801_000.0);
}

#[test]
fn a_separated_value_object_under_an_entity_links_to_it() {
    let m = mapped(
        ModelBuilder::new("Shop")
            .entity(Entity::new("Basket", "basketId"))
            .entity(Entity::new("Shipment", "shipmentId"))
            .value_object(ValueObject::new("Scan").attribute(text("place")))
            .aggregate(Aggregate::new("Basket").member("Shipment").member("Scan"))
            .relationship(Relationship::new("Basket", "Shipment", Cardinality::Few).max(3))
            .relationship(Relationship::new("Shipment", "Scan", Cardinality::Squillions)),
    );
    let scan = document(&m, "Basket", "Scan");
    let parent = scan.parent.as_ref().expect("parent link");
    assert_eq!(
        (parent.entity.as_str(), parent.property.as_str()),
        ("Shipment", "shipmentId")
    );
    assert_eq!(scan.partition_key_property, "basketId");
}

#[test]
fn mr6_stores_an_unbounded_reference_list_on_the_many_side() {
    let m = mapped(
        roots(
            "Blog",
            [Entity::new("Author", "authorId"), Entity::new("Post", "postId")],
        )
        .relationship(Relationship::new("Author", "Post", Cardinality::Squillions)),
    );
    let author = document(&m, "Dictionary", "Author");
    assert!(author.references.is_empty(), "no unbounded list in Author");
    let post = document(&m, "Dictionary", "Post");
    assert_eq!(post.references[0].name, "author");
    assert_eq!(post.references[0].target, "Author");
    assert_eq!(
        post.references[0].partition_key_value,
        PartitionKeyValue::Constant { value: "author".into() }
    );
    let d = decision(&m, Rule::ReferenceList, "Post.author");
    assert!(d.reason.contains("the many side refers to the one"), "{}", d.reason);
    assert!(d.reason.contains("squillions"), "{}", d.reason);
}

#[test]
fn mr5_dictionary_container_name_never_collides() {
    let m = mapped(
        ModelBuilder::new("Odd")
            .entity(Entity::new("Dictionary", "dictionaryId"))
            .entity(Entity::new("Word", "wordId"))
            .value_object(ValueObject::new("Meaning").attribute(text("text")))
            .aggregate(Aggregate::new("Dictionary").member("Meaning"))
            .aggregate(Aggregate::new("Word"))
            .relationship(Relationship::new("Dictionary", "Meaning", Cardinality::One)),
    );
    let names: Vec<&str> = m.containers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Dictionary", "DictionaryContainer"]);
}

#[test]
fn copy_needs_a_known_size_and_a_target_container() {
    let build = |with_volume: bool| {
        let order = Entity::new("Order", "orderId").attribute(text("status"));
        let order = if with_volume { order.volume(1e9, 2000.0) } else { order };
        ModelBuilder::new("Shop")
            .entity(Entity::new("Customer", "customerId"))
            .entity(Entity::new("Line", "lineId"))
            .entity(order)
            .aggregate(Aggregate::new("Customer").member("Line"))
            .aggregate(Aggregate::new("Order"))
            .relationship(Relationship::new("Customer", "Line", Cardinality::Few).max(2))
            .relationship(Relationship::new("Order", "Customer", Cardinality::One))
            .access_pattern(AccessPattern::new("orders by status", AccessKind::Read, "Order", 100.0).filter("status"))
            .access_pattern(
                AccessPattern::new("orders of a customer", AccessKind::Read, "Order", 100.0).filter("customerId"),
            )
            // Written often: not a dictionary, whose reads would be in one partition.
            .access_pattern(AccessPattern::new("place an order", AccessKind::Write, "Order", 100.0))
    };
    let m = mapped(build(false));
    assert_reason(&m, Rule::Copy, "orders of a customer", "size is unknown");
    let m = mapped(build(true));
    assert_reason(&m, Rule::Copy, "orders by status", "no other container");
    assert_eq!(document(&m, "Customer", "Order").role, Role::Copy);
}

fn example(name: &str) -> LogicalModel {
    map(&common::example(name), &Options::default())
}

#[test]
fn iot_fleet_separates_readings_and_hot_alerts() {
    let m = example("iot-fleet");
    assert!(is_separate(&m, "Device", "SensorReading"));
    assert!(is_separate(&m, "Device", "Alert"));
    assert_reason(&m, Rule::Mr4, "Device.readings", "one-to-squillions");
    assert_reason(&m, Rule::Mr4, "Device.alerts", "updated often");
    let device = document(&m, "Device", "Device");
    assert_eq!(device.embedded[0].source, "Configuration");
}

#[test]
fn publishing_keeps_large_and_hot_orphans_out_of_the_dictionary() {
    let m = example("publishing");
    let names: Vec<&str> = m.containers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["Article", "Author", "Dictionary", "ExchangeRate", "UniqueClaims"]
    );
    assert_reason(
        &m,
        Rule::Mr5,
        "Article",
        "2,000,000 instances after 5 years is over the 10,000 a dictionary may hold (`dictionaryMaxItems`)",
    );
    assert_reason(
        &m,
        Rule::Mr5,
        "ExchangeRate",
        "2/s of writes is over the 1/s of a dictionary (`dictionaryMaxWritesPerSecond`)",
    );
    let dictionary = m.container("Dictionary").unwrap();
    assert_eq!(dictionary.aggregates, ["Language", "Tag"]);
    let article = document(&m, "Article", "Article");
    // No read goes through an article's language: a snapshot would save nothing.
    assert!(
        article.references.iter().any(|r| r.target == "Language"),
        "never-changing, but never read through: referenced"
    );
    assert!(
        article.references.iter().any(|r| r.target == "Tag"),
        "rarely-changing: referenced"
    );
}

/// The ecommerce model with every list of declarations reversed and rotated.
fn permuted(model: &DomainModel, turn: usize) -> DomainModel {
    fn shuffle<T>(v: &mut [T], turn: usize) {
        v.reverse();
        if !v.is_empty() {
            let n = v.len();
            v.rotate_left(turn % n);
        }
    }
    let mut spec = model.spec().clone();
    shuffle(&mut spec.entities, turn);
    shuffle(&mut spec.value_objects, turn);
    shuffle(&mut spec.aggregates, turn);
    shuffle(&mut spec.relationships, turn);
    shuffle(&mut spec.access_patterns, turn);
    for aggregate in &mut spec.aggregates {
        shuffle(&mut aggregate.members, turn);
    }
    DomainModel::new(spec).expect("still valid")
}

#[test]
fn output_does_not_depend_on_declaration_order() {
    let model = common::example("ecommerce");
    let expected = serde_json::to_string(&map(&model, &Options::default())).unwrap();
    for turn in 0..5 {
        let actual = serde_json::to_string(&map(&permuted(&model, turn), &Options::default())).unwrap();
        assert!(actual == expected, "permutation {turn} changed the logical model");
    }
}

#[test]
fn unique_keys_only_where_they_constrain_something_and_every_document_stores_the_path() {
    // Each author is alone in its logical partition (`/authorId`): a unique key on
    // `email` would compare no two authors, so none is made, and the decision says so.
    let m = example("publishing");
    assert!(m.container("Author").unwrap().unique_keys.is_empty());
    let d = decision(&m, Rule::UniqueKey, "Author.email");
    assert!(d.outcome.contains("it would constrain nothing"), "{}", d.outcome);
    let definitions = m.container_definitions();
    let def = definitions.iter().find(|d| d.id == "Author").unwrap();
    assert!(def.unique_key_policy.is_none());
    // Every country shares the one logical partition of its dictionary: a unique key
    // on `isoCode` there is enforced for all of them.
    let m = mapped(
        ModelBuilder::new("Geo")
            .entity(
                Entity::new("Country", "countryId")
                    .attribute(text("isoCode").unique())
                    .volume(250.0, 200.0),
            )
            .aggregate(Aggregate::new("Country")),
    );
    let dictionary = m.container("Dictionary").unwrap();
    assert_eq!(dictionary.unique_keys.len(), 1);
    assert_eq!(dictionary.unique_keys[0].paths, ["/isoCode"]);
    let definitions = m.container_definitions();
    let def = definitions.iter().find(|d| d.id == "Dictionary").unwrap();
    assert_eq!(
        def.unique_key_policy.as_ref().unwrap().unique_keys[0].paths,
        ["/isoCode"]
    );
    assert!(def.indexing_policy.automatic);
    // A second dictionary type lacks `isoCode`: its documents would all count as
    // null, which may occur once per logical partition, so no key.
    let m = mapped(roots(
        "Geo",
        [
            Entity::new("Country", "countryId")
                .attribute(text("isoCode").unique())
                .volume(250.0, 200.0),
            Entity::new("Currency", "currencyId").volume(180.0, 100.0),
        ],
    ));
    assert!(m.container("Dictionary").unwrap().unique_keys.is_empty());
    assert_reason(
        &m,
        Rule::UniqueKey,
        "Country.isoCode",
        "`Currency` in `Dictionary` may lack `isoCode`",
    );
    // A device's serial number: each device is alone in its partition, with its
    // alerts and readings (which lack `serialNumber`): no key either way.
    let m = example("iot-fleet");
    assert!(m.container("Device").unwrap().unique_keys.is_empty());
    assert_reason(
        &m,
        Rule::UniqueKey,
        "Device.serialNumber",
        "each `Device` is alone in its own",
    );
}

/// A filter path names which reference it follows: `voters.userId` reads the
/// `voters` list (one element must hold the id: a join, as the list holds each user
/// once), `author.userId` the author, and
/// `place.city` the embedded place — never the first reference that happens to
/// hold a `userId`.
#[test]
fn filter_paths_follow_the_named_reference() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/filter-paths.json");
    let m = cosmap_domain::load_file(&path).expect("the model loads");
    let logical = map(&m, &Options::default());
    let sql = |pattern: &str| {
        logical
            .operation(pattern)
            .and_then(|o| o.requests[0].sql())
            .unwrap_or_else(|| panic!("no query for `{pattern}`"))
            .to_string()
    };
    assert_eq!(
        sql("reviews a user voted on"),
        "SELECT VALUE c FROM c JOIN j0 IN c.voters WHERE j0.id = @votersUserId AND c.type = 'review'"
    );
    assert_eq!(
        sql("reviews by an author"),
        "SELECT * FROM c WHERE c.author.id = @authorUserId AND c.type = 'review' ORDER BY c.postedAt DESC"
    );
    assert_eq!(
        sql("reviews in a city"),
        "SELECT * FROM c WHERE c.place.city = @placeCity AND c.type = 'review'"
    );
}

/// A member entity held by another member entity (a post by its thread, both members
/// of the forum) carries its holder's identity as a parent link: the reads of one
/// thread's posts, and the count of each thread's posts, name the thread (they took
/// every post of the forum's partition before).
#[test]
fn a_member_entity_under_a_member_entity_links_to_it() {
    let m = map(
        &common::test_model("member-entity-under-a-member-entity"),
        &Options::default(),
    );
    let post = m
        .container("Forum")
        .and_then(|c| c.document_type("Post"))
        .expect("posts");
    let link = post.parent.as_ref().expect("a parent link");
    assert_eq!((link.entity.as_str(), link.property.as_str()), ("Thread", "threadId"));
    let thread = m
        .container("Forum")
        .and_then(|c| c.document_type("Thread"))
        .expect("threads");
    assert!(
        thread.parent.is_none(),
        "a thread hangs from the root: {:?}",
        thread.parent
    );
    let read = common::op(&m, "a thread with its posts");
    let sql = read.requests[0].sql().expect("a query");
    assert!(sql.contains("c.threadId = @threadId"), "{sql}");
    // The count is kept on the thread, or counted by a query that names it.
    let counted = common::op(&m, "threads of a forum with their post counts");
    let kept = thread.computed.iter().any(|v| v.counts == "Post");
    assert!(
        kept || counted
            .requests
            .iter()
            .filter_map(|r| r.sql())
            .any(|s| s.contains("c.threadId = ")),
        "{counted:?}"
    );
}
