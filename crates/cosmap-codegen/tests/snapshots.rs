//! The e-commerce artefacts are committed under `examples/ecommerce/generated/`
//! and must be reproduced byte for byte, whatever the declaration order.

mod corpus;

use std::path::Path;

use corpus::{example, repo, tempdir};
use cosmap_codegen::{generate, Artefact, Templates, TypeMapping};
use cosmap_domain::DomainModel;
use cosmap_mapper::{map, Options};

fn ecommerce() -> DomainModel {
    example("ecommerce")
}

/// Every artefact, the data access (`cosmap_data.rs`) included.
fn artefacts(model: &DomainModel) -> Vec<Artefact> {
    let templates = Templates::load(None).expect("embedded templates compile");
    let mapping = TypeMapping {
        data_access: true,
        ..TypeMapping::default()
    };
    generate(&map(model, &Options::default()), &mapping, &templates).expect("generates")
}

#[test]
fn artefacts_match_the_committed_files() {
    let dir = repo().join("examples/ecommerce/generated");
    let artefacts = artefacts(&ecommerce());
    if std::env::var_os("COSMAP_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        cosmap_codegen::write_all(&dir, &artefacts).unwrap();
    }
    let mut differing = Vec::new();
    for a in &artefacts {
        let on_disk = std::fs::read_to_string(dir.join(&a.path)).unwrap_or_default();
        if on_disk != a.contents {
            differing.push(a.path.display().to_string());
        }
    }
    assert!(
        differing.is_empty(),
        "generated files differ from examples/ecommerce/generated: {differing:?}; review and run with COSMAP_BLESS=1 if intended"
    );
    let expected: Vec<&Path> = artefacts.iter().map(|a| a.path.as_path()).collect();
    assert!(expected.contains(&Path::new("cosmap.rs")));
    assert!(expected.contains(&Path::new("cosmap_data.rs")));
    assert!(expected.contains(&Path::new("containers.json")));
    assert!(expected.contains(&Path::new("containers.bicep")));
    assert!(expected.contains(&Path::new("model.mmd")));
    assert!(expected.contains(&Path::new("schemas/Account/Order.schema.json")));
    assert_eq!(artefacts.len(), 5 + 17, "one schema per document type");
}

#[test]
fn output_does_not_depend_on_declaration_order() {
    let model = ecommerce();
    let expected = artefacts(&model);
    let mut spec = corpus::reversed(&model);
    spec.relationships.rotate_left(7);
    for aggregate in &mut spec.aggregates {
        aggregate.members.reverse();
    }
    let permuted = DomainModel::new(spec).expect("still valid");
    assert!(
        artefacts(&permuted) == expected,
        "a permuted model gives other artefacts"
    );
}

#[test]
fn containers_json_is_what_cosmos_db_takes() {
    let artefacts = artefacts(&ecommerce());
    let json = &artefacts
        .iter()
        .find(|a| a.path == Path::new("containers.json"))
        .unwrap()
        .contents;
    let containers: Vec<cosmap_mapper::ContainerDefinition> = serde_json::from_str(json).unwrap();
    let ids: Vec<&str> = containers.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "Account",
            "Dictionary",
            "Item",
            "Order",
            "PresentedProduct",
            "UniqueClaims"
        ]
    );
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(value[0]["partitionKey"]["paths"][0], "/accountId");
    assert_eq!(value[0]["indexingPolicy"]["automatic"], true);
    assert_eq!(value[0]["indexingPolicy"]["indexingMode"], "consistent");
}

#[test]
fn a_template_override_replaces_one_template() {
    let dir = tempdir("override");
    std::fs::write(dir.join("model.mmd.hbs"), "custom diagram of {{model}}\n").unwrap();
    let templates = Templates::load(Some(&dir)).unwrap();
    let all = generate(
        &map(&ecommerce(), &Options::default()),
        &TypeMapping::default(),
        &templates,
    )
    .unwrap();
    let mmd = all.iter().find(|a| a.path == Path::new("model.mmd")).unwrap();
    assert_eq!(mmd.contents, "custom diagram of Ecommerce\n");
    let rust = all.iter().find(|a| a.path == Path::new("cosmap.rs")).unwrap();
    assert!(rust.contents.contains("pub mod account"), "the others stay embedded");
}

#[test]
fn a_data_access_override_written_for_the_whole_view_renders_once() {
    // The built-in template is rendered a part at a time; an override is rendered
    // once, from the whole view, so one written without `part.*` gates is not repeated.
    let dir = tempdir("data-override");
    std::fs::write(
        dir.join("cosmap_data.rs.hbs"),
        "pub struct Data;\n{{#each containers}}pub struct Handle{{@index}};\n{{/each}}\
         {{#each patterns}}pub fn pattern{{@index}}() {}\n{{/each}}",
    )
    .unwrap();
    let templates = Templates::load(Some(&dir)).unwrap();
    let logical = map(&ecommerce(), &Options::default());
    let text = cosmap_codegen::render_data_access(&logical, &TypeMapping::default(), &templates).unwrap();
    for once in ["pub struct Data;", "pub struct Handle0;", "pub fn pattern0()"] {
        assert_eq!(text.matches(once).count(), 1, "`{once}` once in:\n{text}");
    }
    assert!(text.contains("pub fn pattern1()"), "every pattern rendered: {text}");
}

#[test]
fn an_unknown_template_file_is_refused() {
    let dir = tempdir("unknown");
    std::fs::write(dir.join("model.md.hbs"), "x").unwrap();
    let err = Templates::load(Some(&dir)).err().expect("refused").to_string();
    assert!(
        err.contains("model.md.hbs") && err.contains("is not one of cosmap's templates"),
        "{err}"
    );
}

#[test]
fn a_template_that_renders_invalid_rust_names_the_template_and_line() {
    let dir = tempdir("broken");
    std::fs::write(
        dir.join("cosmap.rs.hbs"),
        "pub struct Ok;\n{{#each containers}}\npub mod {{module}} {\n    pub struct Broken(\n}\n{{/each}}\n",
    )
    .unwrap();
    let templates = Templates::load(Some(&dir)).unwrap();
    let err = generate(
        &map(&ecommerce(), &Options::default()),
        &TypeMapping::default(),
        &templates,
    )
    .expect_err("invalid Rust is refused")
    .to_string();
    assert!(
        err.contains("cosmap.rs.hbs") && err.contains("invalid Rust at generated line"),
        "{err}"
    );
    assert!(
        err.contains("| }") || err.contains("pub struct Broken("),
        "shows the generated line: {err}"
    );
}

#[test]
fn chrono_and_decimal_types_are_configurable() {
    let mapping = TypeMapping {
        date_time: "::chrono::DateTime<::chrono::Utc>".into(),
        decimal: "::rust_decimal::Decimal".into(),
        json_schema: true,
        ..TypeMapping::default()
    };
    let templates = Templates::load(None).unwrap();
    let all = generate(&map(&ecommerce(), &Options::default()), &mapping, &templates).unwrap();
    let rust = &all.iter().find(|a| a.path == Path::new("cosmap.rs")).unwrap().contents;
    assert!(rust.contains("pub ordered_at: ::chrono::DateTime<::chrono::Utc>"));
    assert!(rust.contains("pub total: ::rust_decimal::Decimal"));
    assert!(rust.contains("::schemars::JsonSchema"));
}

#[test]
fn an_extern_path_replaces_a_shared_struct_and_attributes_go_where_matched() {
    let templates = Templates::load(None).unwrap();
    let mapping = TypeMapping {
        extern_paths: vec![("MainAddress".into(), "crate::addresses::Address".into())],
        type_attributes: vec![
            ("Account.Order".into(), "#[derive(Default)]".into()),
            ("CountrySnapshot".into(), "#[non_exhaustive]".into()),
        ],
        field_attributes: vec![(".".into(), "#[doc(alias = \"x\")]".into())],
        ..TypeMapping::default()
    };
    let rust = cosmap_codegen::render_rust(&map(&ecommerce(), &Options::default()), &mapping, &templates).unwrap();
    assert!(!rust.contains("pub struct MainAddress"), "the struct is not generated");
    assert!(
        rust.contains("pub main_address: crate::addresses::Address,"),
        "the field uses the path"
    );
    // One `Order` document type of two (`Account.Order`, the copy, and `Order.Order`).
    assert_eq!(rust.matches("#[derive(Default)]").count(), 1, "{rust}");
    assert_eq!(rust.matches("#[non_exhaustive]").count(), 1);
    assert!(rust.matches("#[doc(alias = \"x\")]").count() > 50, "every field");
}

#[test]
fn a_mapped_type_is_described_to_schemars_as_its_text() {
    let templates = Templates::load(None).unwrap();
    let mut mapping = TypeMapping {
        json_schema: true,
        ..TypeMapping::default()
    };
    mapping.apply("dateTime=chrono").unwrap();
    let rust = cosmap_codegen::render_rust(&map(&ecommerce(), &Options::default()), &mapping, &templates).unwrap();
    assert!(
        rust.contains(
            "#[serde(with = \"super::types::codec::one\")]\n        #[schemars(with = \"::std::string::String\")]\n        pub created_at: ::chrono::DateTime<::chrono::Utc>,"
        ),
        "{rust}"
    );
    assert!(rust.contains("#[schemars(with = \"::core::option::Option<::std::string::String>\")]"));
}

/// A model's `description`s reach the generated docs, the JSON Schemas and the
/// diagram, each on one line with its runs of spaces collapsed.
#[test]
fn descriptions_reach_the_docs_the_schemas_and_the_diagram() {
    use cosmap_domain::{AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Entity, ModelBuilder};
    let model = ModelBuilder::new("Notes")
        .entity(
            Entity::new("Note", "noteId")
                .description("A note   someone wrote.")
                .attribute(Attribute::new("text", AttributeType::String).description("What it says.")),
        )
        .aggregate(Aggregate::new("Note"))
        .access_pattern(AccessPattern::new("a note", AccessKind::Read, "Note", 1.0).filter("noteId"))
        .build()
        .expect("a valid model");
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    let templates = cosmap_codegen::Templates::load(None).expect("built-in templates");
    let files =
        cosmap_codegen::generate(&logical, &cosmap_codegen::TypeMapping::default(), &templates).expect("generated");
    let file = |name: &str| {
        files
            .iter()
            .find(|a| a.path.to_string_lossy().ends_with(name))
            .map(|a| a.contents.clone())
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let rust = file("cosmap.rs");
    assert!(
        rust.contains("its `type` is `\"note\"`. A note someone wrote."),
        "{rust}"
    );
    assert!(rust.contains("/// `text` (string): What it says."), "{rust}");
    let schema: serde_json::Value = serde_json::from_str(&file("Note.schema.json")).unwrap();
    assert!(schema["description"]
        .as_str()
        .unwrap()
        .ends_with("A note someone wrote."));
    assert_eq!(schema["properties"]["text"]["description"], "What it says.");
    assert!(file("model.mmd").contains("%% Note · root: A note someone wrote."));
}
