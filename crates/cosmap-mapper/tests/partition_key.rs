//! The `partitionKey` optimisation: an aggregate partitioned by what its heaviest
//! reads filter on, only where the workload costs less and the largest logical
//! partition fits, on the bundled examples.

use cosmap_domain::DomainModel;
use cosmap_mapper::operations::{OperationKind, ValueSource};
use cosmap_mapper::{map, LogicalModel, Options, PartitionKeyValue, Rule};

mod common;
use common::{costed, document, embedded, load};

fn decision<'m>(m: &'m LogicalModel, subject: &str) -> &'m cosmap_mapper::Decision {
    m.decision(Rule::PartitionKey, subject)
        .unwrap_or_else(|| panic!("no partitionKey decision about `{subject}`"))
}

/// `model` with no decision margin: every saving, however small, moves a key (these
/// tests weigh keys on their figures; `tests/search.rs` tests the margin).
fn without_margin(model: &DomainModel) -> DomainModel {
    let mut spec = model.spec().clone();
    spec.thresholds.get_or_insert_with(Default::default).decision_margin = Some(0.0);
    DomainModel::new(spec).expect("still valid")
}

/// `model` with every read's copy avoided (`pins`): a copy of the loans into `Member`
/// serves the reads by member for less than a key by member, and these tests weigh the
/// keys alone.
fn without_copies(model: &DomainModel) -> DomainModel {
    use cosmap_domain::{AccessKind, Pin, PinnedOptimisation};
    let mut spec = model.spec().clone();
    spec.pins = spec
        .access_patterns
        .iter()
        .filter(|p| p.kind == AccessKind::Read)
        .map(|p| Pin::avoid(PinnedOptimisation::Copy, p.name.clone()))
        .collect();
    DomainModel::new(spec).expect("still valid")
}

#[test]
fn cosmic_works_partitions_products_by_category_with_the_figures() {
    let model = without_margin(&load("examples/cosmic-works/model.json"));
    let m = map(&model, &Options::default());
    let products = m.container("Product").unwrap();
    assert_eq!(products.partition_key.paths, ["/categoryId"]);
    assert!(products.rules.contains(&Rule::PartitionKey));
    assert_eq!(m.container("SalesOrder").unwrap().partition_key.paths, ["/customerId"]);
    let d = decision(&m, "Product");
    assert_eq!(d.outcome, "partition key `/categoryId` instead of `/productId`");
    let before = d.evidence["affectedRuPerSecond"].as_f64().unwrap();
    let after = d.evidence["affectedRuPerSecondWith"].as_f64().unwrap();
    assert!(after < before, "{after} < {before}");
    assert!(d.evidence["largestPartitionBytes"].as_f64().unwrap() <= 10e9);
    assert!(d.evidence["largestPartitionRuPerSecond"].as_f64().unwrap() <= 5_000.0);
    assert_eq!(d.evidence["distinctValues"].as_f64(), Some(40.0));
    // The hot read is one logical partition's query, keyed by the category.
    let op = m.operation("products in a category").unwrap();
    assert_eq!(op.kind, OperationKind::SinglePartitionQuery);
    assert_eq!(
        op.requests[0].partition_key(),
        Some(&ValueSource::Parameter("categoryId".into()))
    );
    // An order line's reference to its product carries the product's category.
    let order = document(&m, "SalesOrder", "SalesOrder");
    let detail = embedded(order, "details");
    let product = detail.references.iter().find(|r| r.target == "Product").unwrap();
    assert_eq!(
        product.partition_key_value,
        PartitionKeyValue::Property {
            property: "categoryId".into()
        }
    );
    // MR2's decision is marked overridden.
    let overridden = cosmap_mapper::overridden_by(&m);
    let mr2 = m
        .decisions
        .iter()
        .position(|d| d.rule == Rule::Mr2 && d.subject == "Product")
        .unwrap();
    assert_eq!(overridden[mr2].map(|i| m.decisions[i].rule), Some(Rule::PartitionKey));
}

#[test]
fn publishing_converts_prices_in_one_partition_instead_of_an_unbounded_fan_out() {
    let model = load("examples/publishing/model.json");
    let report = costed(&model);
    assert!(
        report.totals.rules.is_infinite(),
        "MR1–MR6 cannot carry 5,000 fan-outs a second"
    );
    assert!(report.totals.optimised.is_finite(), "{}", report.totals.optimised);
    let m = map(&model, &Options::default());
    assert_eq!(m.container("ExchangeRate").unwrap().partition_key.paths, ["/currency"]);
    let rate = m
        .container("ExchangeRate")
        .unwrap()
        .document_type("ExchangeRate")
        .unwrap();
    assert!(
        rate.attributes.iter().all(|a| a.name != "currency"),
        "the key is the partition key property, not also an attribute"
    );
}

#[test]
fn a_key_whose_largest_partition_would_overflow_is_weighed_as_a_hierarchical_key_with_the_figure() {
    // A genre would hold more than a logical partition can after five years: as the
    // first level of `/genre`, `/bookId` it fits, and with `Book` spread over the
    // partitions of its grown storage the reads by genre save more than the reads by
    // id alone, now queries given a prefix, cost.
    let model = without_copies(&without_margin(&load("examples/library/model.json")));
    let m = map(&model, &Options::default());
    assert_eq!(m.container("Book").unwrap().partition_key.paths, ["/genre", "/bookId"]);
    let d = decision(&m, "Book");
    assert_eq!(
        d.outcome,
        "hierarchical partition key `/genre`, `/bookId` instead of `/bookId`"
    );
    assert!(d.reason.contains("logicalPartitionMaxBytes"), "{}", d.reason);
    assert!(d.evidence["valueLargestPartitionBytes"].as_f64().unwrap() > 10e9);
    assert!(d.evidence["largestPartitionBytes"].as_f64().unwrap() < 1e6);
}

/// The library example on today's data: no growth (`growthYears` 0), so its
/// containers keep the few partitions their storage needs today.
fn library_today() -> DomainModel {
    let mut spec = load("examples/library/model.json").spec().clone();
    spec.thresholds = Some(cosmap_domain::ThresholdOverrides {
        growth_years: Some(0.0),
        ..cosmap_domain::ThresholdOverrides::default()
    });
    DomainModel::new(spec).expect("valid model")
}

#[test]
fn help_desk_partitions_tickets_by_tenant_then_ticket_and_queries_a_tenant_by_prefix() {
    let model = load("examples/help-desk/model.json");
    let m = map(&model, &Options::default());
    let tickets = m.container("Ticket").unwrap();
    assert_eq!(tickets.partition_key.paths, ["/tenantId", "/ticketId"]);
    assert_eq!(tickets.partition_key.kind, "MultiHash");
    assert_eq!(tickets.partition_key_properties(), ["tenantId", "ticketId"]);
    // Every document of the aggregate carries both levels.
    for d in &tickets.document_types {
        assert_eq!(d.partition_key_properties(), ["tenantId", "ticketId"], "{}", d.name);
    }
    let d = m
        .decisions
        .iter()
        .find(|d| d.rule == Rule::PartitionKey && d.subject == "Ticket" && d.outcome.starts_with("hierarchical"))
        .expect("the hierarchical key's decision");
    assert_eq!(
        d.outcome,
        "hierarchical partition key `/tenantId`, `/ticketId` instead of `/ticketId`"
    );
    assert!(d.reason.contains("logicalPartitionMaxBytes"), "{}", d.reason);
    assert!(d.evidence["valueLargestPartitionBytes"].as_f64().unwrap() > 10e9);
    assert!(d.evidence["largestPartitionBytes"].as_f64().unwrap() <= 10e9);
    let before = d.evidence["affectedRuPerSecond"].as_f64().unwrap();
    let after = d.evidence["affectedRuPerSecondWith"].as_f64().unwrap();
    assert!(after < before, "{after} < {before}");
    let op = |name: &str| m.operation(name).unwrap();
    let tenant =
        |levels: &[&str]| ValueSource::Levels(levels.iter().map(|l| ValueSource::Parameter(l.to_string())).collect());
    // One tenant's tickets: a query given the first level only (a prefix).
    let newest = op("tickets of a tenant");
    assert_eq!(newest.kind, OperationKind::SinglePartitionQuery);
    assert_eq!(newest.requests[0].partition_key(), Some(&tenant(&["tenantId"])));
    assert!(newest.requests[0].sql().unwrap().contains("c.tenantId = @tenantId"));
    // Both levels: a point read, or one logical partition's query.
    let one = op("a ticket of a tenant");
    assert_eq!(one.kind, OperationKind::PointRead);
    assert_eq!(
        one.requests[0].partition_key(),
        Some(&tenant(&["tenantId", "ticketId"]))
    );
    let with_comments = op("a ticket with its comments");
    assert_eq!(with_comments.kind, OperationKind::SinglePartitionQuery);
    let sql = with_comments.requests[0].sql().unwrap();
    assert!(
        sql.contains("c.tenantId = @tenantId AND c.ticketId = @ticketId"),
        "{sql}"
    );
    // The id alone: across partitions.
    assert_eq!(op("ticket by id").kind, OperationKind::CrossPartitionQuery);
    // Writes take both levels.
    let write = op("comment on a ticket");
    assert_eq!(
        write.requests[0].partition_key(),
        Some(&tenant(&["tenantId", "ticketId"]))
    );
    // A survey's reference to its ticket stores both levels' values.
    let survey = document(&m, "Survey", "Survey");
    assert_eq!(
        survey.references[0].partition_key_value,
        PartitionKeyValue::Levels {
            properties: vec!["tenantId".into(), "ticketId".into()]
        }
    );
    // Each ticket is alone in its logical partition: no unique key would constrain its
    // number, so a claim does.
    assert!(tickets.unique_keys.is_empty());
    let claims = m.container("UniqueClaims").unwrap();
    let claim = &claims.document_types[0];
    let owner = claim.attributes.iter().find(|a| a.name == "ownerPartitionKey").unwrap();
    assert!(owner.many, "the owner's key is one value per level");
}

#[test]
fn a_prefix_query_costs_less_than_the_fan_out_it_replaces() {
    let model = load("examples/help-desk/model.json");
    let report = costed(&model);
    let row = report.pattern("tickets of a tenant").unwrap();
    assert_eq!(row.rules.operation, OperationKind::CrossPartitionQuery);
    assert_eq!(row.optimised.operation, OperationKind::SinglePartitionQuery);
    assert!(
        row.optimised.ru < row.rules.ru,
        "{} < {}",
        row.optimised.ru,
        row.rules.ru
    );
    assert!(report.totals.optimised < report.totals.rules);
}

#[test]
fn a_skewed_key_is_refused_for_its_busiest_partition_unless_its_skew_is_declared() {
    let path = "crates/cosmap-verify/tests/models/partitioned-by-attribute-and-reference.json";
    let declared = load(path);
    assert_eq!(
        map(&declared, &Options::default())
            .container("Shelf")
            .unwrap()
            .partition_key
            .paths,
        ["/branch"]
    );
    // Without `largestValueShare`, the busiest of 20 branches is assumed to take
    // half the traffic (ten times its even share): over 5,000 RU/s.
    let mut spec = declared.spec().clone();
    for e in &mut spec.entities {
        for a in &mut e.attributes {
            a.largest_value_share = None;
        }
    }
    // Then the branch is the first level of a hierarchical key, the shelf the second:
    // each logical partition serves one shelf's share.
    let m = map(&DomainModel::new(spec).unwrap(), &Options::default());
    assert_eq!(
        m.container("Shelf").unwrap().partition_key.paths,
        ["/branch", "/shelfId"]
    );
    let d = decision(&m, "Shelf");
    assert_eq!(
        d.outcome,
        "hierarchical partition key `/branch`, `/shelfId` instead of `/shelfId`"
    );
    assert!(d.reason.contains("logicalPartitionMaxRuPerSecond"), "{}", d.reason);
    assert!(d.reason.contains("declare `largestValueShare`"), "{}", d.reason);
    assert!(d.evidence["largestPartitionRuPerSecond"].as_f64().unwrap() <= 5_000.0);
}

#[test]
fn a_key_that_does_not_lower_the_workload_is_refused() {
    // Loans are read by id 100 times a second: as queries across partitions those
    // cost more than partitioning by member saves on today's few partitions (after
    // five years of loans the fan-out it removes is wider, and the key pays).
    let m = map(&without_margin(&library_today()), &Options::default());
    assert_eq!(m.container("Loan").unwrap().partition_key.paths, ["/loanId"]);
    let d = decision(&m, "Loan");
    let before = d.evidence["affectedRuPerSecond"].as_f64().unwrap();
    let after = d.evidence["affectedRuPerSecondWith"].as_f64().unwrap();
    assert!(after >= before, "{after} >= {before}");
    let grown = map(
        &without_copies(&without_margin(&load("examples/library/model.json"))),
        &Options::default(),
    );
    assert_eq!(grown.container("Loan").unwrap().partition_key.paths, ["/memberId"]);
}

#[test]
fn when_the_heaviest_key_would_overflow_the_next_one_is_weighed() {
    use cosmap_domain::{AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Entity, ModelBuilder};
    // 100 GB of shelves: a region (4 values) would hold all of them in one logical
    // partition; a branch (100,000 values) holds a ten-thousandth.
    let model = ModelBuilder::new("Shelves")
        .entity(
            Entity::new("Shelf", "shelfId")
                .attribute(Attribute::new("region", AttributeType::String).distinct_values(4))
                .attribute(Attribute::new("branch", AttributeType::String).distinct_values(100_000))
                .volume(1e8, 1000.0),
        )
        .aggregate(Aggregate::new("Shelf"))
        .access_pattern(AccessPattern::new("shelves of a region", AccessKind::Read, "Shelf", 30.0).filter("region"))
        .access_pattern(AccessPattern::new("shelves of a branch", AccessKind::Read, "Shelf", 10.0).filter("branch"))
        .build()
        .expect("valid model");
    let m = map(&without_margin(&model), &Options::default());
    let refusals: Vec<&str> = m
        .decisions
        .iter()
        .filter(|d| d.rule == Rule::PartitionKey && d.subject == "Shelf")
        .map(|d| d.outcome.as_str())
        .collect();
    assert_eq!(
        refusals,
        [
            "keeps `/shelfId`, not `/region`",
            "partition key `/branch` instead of `/shelfId`"
        ]
    );
    assert_eq!(m.container("Shelf").unwrap().partition_key.paths, ["/branch"]);
}
