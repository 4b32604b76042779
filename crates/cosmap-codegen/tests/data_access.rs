//! Repositories of aggregates whose members `load` cannot find by key alone: every
//! aggregate still has one. Two aggregates with members put in one container under a
//! key neither's identity is (a design the mapper does not make today, built here by
//! hand from a mapped one, `examples/models-app/shared_partition.rs`, whose tests
//! run its generated code): each repository holds its own members' types, reads its
//! root alone, and says why in its docs.

use cosmap_codegen::{data_api, render_data_access, Templates, TypeMapping};
use cosmap_mapper::LogicalModel;

#[path = "../../../examples/models-app/shared_partition.rs"]
mod shared_partition;

fn shared_container() -> LogicalModel {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models-app/shared-partition.json"
    );
    shared_partition::design(std::path::Path::new(file))
}

#[test]
fn aggregates_sharing_a_partition_each_have_a_repository_of_their_own_members() {
    let model = shared_container();
    let api = data_api(&model, &TypeMapping::default()).expect("the data access");
    assert!(api.skipped.is_empty(), "{:?}", api.skipped);
    let members = |root: &str| {
        let r = api.repositories.iter().find(|r| r.root == root);
        let r = r.unwrap_or_else(|| panic!("a repository of `{root}`: {:?}", api.repositories));
        (r.members.clone(), r.sends.clone())
    };
    let read_alone = "point read of the root".to_string();
    assert_eq!(
        members("Forum"),
        (vec![("threads".into(), "thread".into())], read_alone.clone())
    );
    assert_eq!(members("Blog"), (vec![("entries".into(), "entry".into())], read_alone));

    let templates = Templates::load(None).expect("the templates");
    let code = render_data_access(&model, &TypeMapping::default(), &templates).expect("renders");
    syn::parse_file(&code).expect("the data access parses");
    for (root, member) in [("Forum", "Thread"), ("Blog", "Entry")] {
        let docs = format!("/// Its members (`{member}`) carry only the partition key (tenantId), which other aggregates share, and nothing that names their root: `load` reads the root alone");
        let repository = code
            .find(&format!("pub struct {root}Repository"))
            .expect("the repository");
        let before = &code[..repository];
        assert!(
            before.rfind(&docs) > before.rfind("pub struct"),
            "{root}'s docs say why"
        );
    }
}
