//! A design the mapper does not make: two aggregates with members in one container,
//! keyed by `/tenantId`, which neither root's identity is, so no member names its
//! root. Built from `shared-partition.json` mapped, then the `Blog` container's
//! documents moved into `Forum`'s. `build.rs` generates its code, the tests run it,
//! and cosmap-codegen's `tests/data_access.rs` checks its repositories' listing.

use std::path::Path;

use cosmap_mapper::{map, LogicalModel, Options, PartitionKey};

/// The design of `model` (`shared-partition.json`) with `Blog`'s documents in `Forum`'s
/// container, keyed by `/tenantId`, which every document carries instead.
pub fn design(model: &Path) -> LogicalModel {
    let domain = cosmap_domain::load_file(model).expect("the model loads");
    let mut model = map(&domain, &Options::default());
    let blog = model.containers.iter().position(|c| c.name == "Blog").expect("Blog");
    let blog = model.containers.remove(blog);
    let forum = model.containers.iter_mut().find(|c| c.name == "Forum").expect("Forum");
    forum.aggregates.extend(blog.aggregates.iter().cloned());
    forum.partition_key = PartitionKey::on("tenantId");
    forum.partition_key_property = "tenantId".into();
    let documents = forum.document_types.make_mut();
    documents.extend(blog.document_types.iter().cloned());
    for d in documents {
        d.partition_key_property = "tenantId".into();
    }
    model
}
