//! The Rust document types cosmap-codegen generates for models drawn from the
//! property tests' strategy (`crates/cosmap-mapper/tests/properties/strategy.rs`)
//! with a fixed seed: `build.rs` generates them with `cosmap_codegen::Builder`, one
//! module per model, and the types of `regressions.json`, a fixed model of the
//! shapes these models found wrong; each module also holds the generated data
//! access (`*_data.rs`, on `azure_data_cosmos`). That they compile (and pass
//! `clippy -D warnings`, with no `allow` here) is the first test;
//! `tests/round_trip.rs` and `tests/regressions.rs` are the others.
#![forbid(unsafe_code)]

/// The types of the first model drawn.
pub mod model_0 {
    include!(concat!(env!("OUT_DIR"), "/model_0.rs"));
    include!(concat!(env!("OUT_DIR"), "/model_0_data.rs"));
}

/// The types of the second model drawn.
pub mod model_1 {
    include!(concat!(env!("OUT_DIR"), "/model_1.rs"));
    include!(concat!(env!("OUT_DIR"), "/model_1_data.rs"));
}

/// The types of the third model drawn.
pub mod model_2 {
    include!(concat!(env!("OUT_DIR"), "/model_2.rs"));
    include!(concat!(env!("OUT_DIR"), "/model_2_data.rs"));
}

/// The types of the fourth model drawn.
pub mod model_3 {
    include!(concat!(env!("OUT_DIR"), "/model_3.rs"));
    include!(concat!(env!("OUT_DIR"), "/model_3_data.rs"));
}

/// The types of `regressions.json`: a copy whose partition key comes from a
/// reference data snapshot (`country.countryId`), a container named `Kind` (its
/// module `kind` holds a `kind` module of discriminators), a `partitionKey`
/// attribute beside the `partition_key()` method, and a member's reference to its
/// root renamed off the partition key (`teamRef`).
pub mod regressions {
    include!(concat!(env!("OUT_DIR"), "/regressions.rs"));
    include!(concat!(env!("OUT_DIR"), "/regressions_data.rs"));
}

/// The types of the `cosmic-works` example: products partitioned by their
/// category, sales orders by their customer (the `partitionKey` optimisation), so a
/// reference to a product carries its category's id as the partition key value.
pub mod cosmic_works {
    include!(concat!(env!("OUT_DIR"), "/cosmic_works.rs"));
    include!(concat!(env!("OUT_DIR"), "/cosmic_works_data.rs"));
}

/// The types of `crates/cosmap-verify/tests/models/unique-claims.json`: accounts
/// whose unique `email` and `handle` are claimed by documents in `UniqueClaims`.
pub mod unique_claims {
    include!(concat!(env!("OUT_DIR"), "/unique_claims.rs"));
    include!(concat!(env!("OUT_DIR"), "/unique_claims_data.rs"));
}

/// The types of the `newsfeed` example: the newest posts' short forms are kept in a
/// feed (`Feeds`, partitioned by the source's `type`).
pub mod newsfeed {
    include!(concat!(env!("OUT_DIR"), "/newsfeed.rs"));
    include!(concat!(env!("OUT_DIR"), "/newsfeed_data.rs"));
}

/// The types of the `help-desk` example: tickets under a hierarchical partition key
/// (tenant, then ticket), so their partition key value is a tuple and a reference to
/// a ticket carries both levels.
pub mod help_desk {
    include!(concat!(env!("OUT_DIR"), "/help_desk.rs"));
    include!(concat!(env!("OUT_DIR"), "/help_desk_data.rs"));
}

/// The types of `patterns/extended-reference`: a comment's reference to its author
/// carries the author's username (`UserRefWithUsername`), built from the user.
pub mod extended_reference {
    include!(concat!(env!("OUT_DIR"), "/extended_reference.rs"));
    include!(concat!(env!("OUT_DIR"), "/extended_reference_data.rs"));
}

/// The types of `patterns/computed-value`: a post keeps its number of comments, a
/// product its number of reviews (`commentCount`, `reviewCount`).
pub mod computed_value {
    include!(concat!(env!("OUT_DIR"), "/computed_value.rs"));
    include!(concat!(env!("OUT_DIR"), "/computed_value_data.rs"));
}

/// The types of the library example on today's data (`growthYears` 0): a loan keeps
/// its book's title (an extended reference) though no access pattern rewrites a book.
pub mod library {
    include!(concat!(env!("OUT_DIR"), "/library.rs"));
    include!(concat!(env!("OUT_DIR"), "/library_data.rs"));
}

/// The types of `patterns/computed-value` by rules MR1–MR6 alone: the counts are not
/// kept, so its reads count with a query per result.
pub mod counted_per_read {
    include!(concat!(env!("OUT_DIR"), "/counted_per_read.rs"));
    include!(concat!(env!("OUT_DIR"), "/counted_per_read_data.rs"));
}

/// The types of verify's `tree-with-claimed-slugs` model: a category keeps its ancestors
/// and claims its slug (unique across partitions).
pub mod tree_claims {
    include!(concat!(env!("OUT_DIR"), "/tree_claims.rs"));
    include!(concat!(env!("OUT_DIR"), "/tree_claims_data.rs"));
}

/// The types of `patterns/tree-ancestors` by rules MR1–MR6 alone: no ancestors list is
/// kept, so "a category with its path" climbs the tree a point read per level.
pub mod tree_climbing {
    include!(concat!(env!("OUT_DIR"), "/tree_climbing.rs"));
    include!(concat!(env!("OUT_DIR"), "/tree_climbing_data.rs"));
}

/// The types of `patterns/subset`: a post keeps its ten newest comments
/// (`newest_comments`), a product its five newest reviews.
pub mod subset {
    include!(concat!(env!("OUT_DIR"), "/subset.rs"));
    include!(concat!(env!("OUT_DIR"), "/subset_data.rs"));
}

/// The types of `patterns/tree-ancestors`: a category's optional parent and its
/// list of ancestors, root first.
pub mod tree_ancestors {
    include!(concat!(env!("OUT_DIR"), "/tree_ancestors.rs"));
    include!(concat!(env!("OUT_DIR"), "/tree_ancestors_data.rs"));
}

/// The types of `patterns/bucket`: a device's readings of one hour in one bucket,
/// whose id is the hour.
pub mod bucket {
    include!(concat!(env!("OUT_DIR"), "/bucket.rs"));
    include!(concat!(env!("OUT_DIR"), "/bucket_data.rs"));
}

/// The types of `patterns/reference-list`: parts hold the references of the lists
/// stored the other way round (a product's parts, a supplier's, a warehouse's).
pub mod reference_list {
    include!(concat!(env!("OUT_DIR"), "/reference_list.rs"));
    include!(concat!(env!("OUT_DIR"), "/reference_list_data.rs"));
}

/// The types of `crates/cosmap-verify/tests/models/defaults-of-every-kind.json`:
/// required attributes with a model `default` of every type, in a document, an
/// embedded value object (`Default` by hand), an extended reference and a short form.
pub mod defaults {
    include!(concat!(env!("OUT_DIR"), "/defaults.rs"));
    include!(concat!(env!("OUT_DIR"), "/defaults_data.rs"));
}

/// The types of the `iot-fleet` example.
pub mod iot_fleet {
    include!(concat!(env!("OUT_DIR"), "/iot_fleet.rs"));
    include!(concat!(env!("OUT_DIR"), "/iot_fleet_data.rs"));
}

/// The types of the `publishing` example.
pub mod publishing {
    include!(concat!(env!("OUT_DIR"), "/publishing.rs"));
    include!(concat!(env!("OUT_DIR"), "/publishing_data.rs"));
}

/// The types of the `library` example after its `growthYears` of growth (the model
/// as written): books and loans repartitioned.
pub mod library_grown {
    include!(concat!(env!("OUT_DIR"), "/library_grown.rs"));
    include!(concat!(env!("OUT_DIR"), "/library_grown_data.rs"));
}

/// The types of the e-commerce example's second version (`examples/ecommerce/v2`).
pub mod ecommerce_v2 {
    include!(concat!(env!("OUT_DIR"), "/ecommerce_v2.rs"));
    include!(concat!(env!("OUT_DIR"), "/ecommerce_v2_data.rs"));
}
