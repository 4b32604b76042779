//! The generated data access of models whose reads and writes take the rarer shapes,
//! one module each (`build.rs` generates them): the library's recent loans (each loan
//! with its book's title kept beside the reference), a short form following two references to
//! one type (`short_form`), a write of two documents in two logical partitions
//! (`across_partitions`), a count kept on a post that its feed's copy carries
//! (`feed_with_counts`), reads that also scan a type nothing in their results
//! refers to (`scan_beside_a_query`, `scan_beside_a_point_read`), a write that rewrites
//! the document embedding what it returns (`rewrites_an_embedding`), a write with claims
//! across partitions (`claims_across_partitions`), counts members keep of their own
//! children (`member_counts`) and aggregates whose members do not name their root
//! (`shared_partition`). The tests run them on the SDK's in-memory engine.

/// The library example (`examples/library`).
pub mod library {
    include!(concat!(env!("OUT_DIR"), "/library/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/library/cosmap_data.rs"));
}

/// Verify's model `short-form-with-kept-name-and-count`: newest posts in a topic, a
/// short form with its author and editor read per result.
pub mod short_form {
    include!(concat!(env!("OUT_DIR"), "/short_form/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/short_form/cosmap_data.rs"));
}

/// Verify's model `copy-that-grows-its-target`: `write an account2` writes an
/// `Account2` and an `Account4`, each in its own logical partition.
pub mod across_partitions {
    include!(concat!(env!("OUT_DIR"), "/across_partitions/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/across_partitions/cosmap_data.rs"));
}

/// Verify's model `feed-with-counts`: a post's comment count, kept from the comments'
/// change feed, which the feed's copy of the post carries.
pub mod feed_with_counts {
    include!(concat!(env!("OUT_DIR"), "/feed_with_counts/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/feed_with_counts/cosmap_data.rs"));
}

/// Verify's model `returned-element-embedded-in-another-container`: currencies, and
/// every product (whose price tags refer to them), read once beside them.
pub mod scan_beside_a_query {
    include!(concat!(env!("OUT_DIR"), "/scan_beside_a_query/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/scan_beside_a_query/cosmap_data.rs"));
}

/// Verify's model `two-returned-elements-in-one-container`: a product with its
/// supplier, and every certificate, read once beside it.
pub mod scan_beside_a_point_read {
    include!(concat!(env!("OUT_DIR"), "/scan_beside_a_point_read/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/scan_beside_a_point_read/cosmap_data.rs"));
}

/// Verify's model `write-that-rewrites-an-embedding`: a playlist written with a track
/// whose embedded credits the write returns, in one batch of the playlist's partition.
pub mod rewrites_an_embedding {
    include!(concat!(env!("OUT_DIR"), "/rewrites_an_embedding/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/rewrites_an_embedding/cosmap_data.rs"));
}

/// Verify's model `claims-across-partitions`: a club founded with its founder, each
/// with a unique value kept by claims, one batch in each partition.
pub mod claims_across_partitions {
    include!(concat!(env!("OUT_DIR"), "/claims_across_partitions/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/claims_across_partitions/cosmap_data.rs"));
}

/// Verify's model `member-that-counts-its-children`: each thread of a forum keeps its
/// number of reactions, which a save of the forum recomputes.
pub mod member_counts {
    include!(concat!(env!("OUT_DIR"), "/member_counts/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/member_counts/cosmap_data.rs"));
}

/// `shared_partition.rs`: two aggregates with members in one container keyed by a
/// tenant, so no member names its root (a design made by hand from a mapped one).
pub mod shared_partition {
    include!(concat!(env!("OUT_DIR"), "/shared_partition/cosmap.rs"));
    include!(concat!(env!("OUT_DIR"), "/shared_partition/cosmap_data.rs"));
}
