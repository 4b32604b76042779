//! Properties of code generation over generated valid models (the mapper's
//! strategy, `cosmap-mapper/tests/properties/strategy.rs`): every model
//! generates; `cosmap.rs` parses as Rust with no two items of one name in a
//! module; every JSON artefact is JSON; and every artefact is byte-identical
//! under any permutation of the model's declarations.

#[path = "../../cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use cosmap_codegen::{generate, Artefact, Templates, TypeMapping, RUST_FILE};
use cosmap_domain::{DomainModel, ModelSpec};
use cosmap_mapper::{map, Options};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Cases per property: each renders every artefact of a model of up to 8 aggregates.
const CASES: u32 = 64;

/// The embedded templates, loaded once (parsing them takes a while in a debug build).
fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES.get_or_init(|| Templates::load(None).expect("the embedded templates load"))
}

fn artefacts(spec: &ModelSpec, optimise: bool) -> Result<Vec<Artefact>, TestCaseError> {
    let model = DomainModel::new(spec.clone()).expect("the strategy makes valid models");
    let options = Options::default().optimise(optimise);
    generate(&map(&model, &options), &TypeMapping::default(), templates())
        .map_err(|e| TestCaseError::fail(format!("generation failed (optimise {optimise}): {e}")))
}

/// Fails when two items of `items` (or of a module among them) share a name in
/// the type namespace, where modules, structs and enums live.
fn check_unique_items(items: &[syn::Item], module: &str) -> Result<(), TestCaseError> {
    let mut names = BTreeSet::new();
    for item in items {
        let name = match item {
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    check_unique_items(inner, &format!("{module}::{}", m.ident))?;
                }
                &m.ident
            }
            syn::Item::Struct(s) => &s.ident,
            syn::Item::Enum(e) => &e.ident,
            syn::Item::Type(t) => &t.ident,
            syn::Item::Trait(t) => &t.ident,
            _ => continue,
        };
        prop_assert!(
            names.insert(name.to_string()),
            "`{}` is defined twice in `{}`",
            name,
            module
        );
    }
    Ok(())
}

fn check_artefacts(artefacts: &[Artefact]) -> Result<(), TestCaseError> {
    let mut paths = BTreeSet::new();
    for a in artefacts {
        let path = a.path.display().to_string();
        prop_assert!(paths.insert(path.clone()), "two artefacts at `{}`", path);
        if path == RUST_FILE {
            let file = syn::parse_file(&a.contents)
                .map_err(|e| TestCaseError::fail(format!("{RUST_FILE} does not parse: {e}")))?;
            check_unique_items(&file.items, "crate")?;
        } else if path.ends_with(".json") {
            if let Err(e) = serde_json::from_str::<serde_json::Value>(&a.contents) {
                return Err(TestCaseError::fail(format!("{path} is not JSON: {e}")));
            }
        }
    }
    prop_assert!(paths.contains(RUST_FILE) && paths.contains("containers.json"));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn every_model_generates_valid_rust_and_json(spec in strategy::model_spec()) {
        for optimise in [true, false] {
            check_artefacts(&artefacts(&spec, optimise)?)?;
        }
    }

    #[test]
    fn artefacts_do_not_depend_on_declaration_order(spec in strategy::model_spec(), seed in any::<u64>()) {
        let expected = artefacts(&spec, true)?;
        let actual = artefacts(&strategy::permute(&spec, seed), true)?;
        prop_assert_eq!(expected.len(), actual.len());
        for (e, a) in expected.iter().zip(&actual) {
            prop_assert_eq!(&e.path, &a.path);
            prop_assert!(e.contents == a.contents, "{} changed with the declaration order", e.path.display());
        }
    }
}

/// Two containers whose names share a snake_case form (`HTTPServer`,
/// `HttpServer`) were both rendered as `pub mod http_server` (the Rust view now
/// numbers them apart), and gave one Bicep symbol `container_http_server` and, on a
/// case-insensitive file system, one schema directory: validation refuses them.
#[test]
fn containers_named_alike_in_snake_case_are_refused() {
    use cosmap_domain::{Aggregate, Entity, ModelBuilder};
    let spec = ModelBuilder::new("Servers")
        .entity(Entity::new("HTTPServer", "httpServerId"))
        .entity(Entity::new("HttpServer", "serverId"))
        .aggregate(Aggregate::new("HTTPServer"))
        .aggregate(Aggregate::new("HttpServer"))
        .spec()
        .clone();
    let problems = DomainModel::new(spec).unwrap_err();
    assert!(
        problems.iter().any(|d| d.message.contains("differ only by case")
            && d.help.as_deref().is_some_and(|h| h.contains("`http_server`"))),
        "{problems:?}"
    );
}

/// How many models [`drawn_models_skip_nothing_in_their_data_access`] draws
/// (`COSMAP_DRAWN` sets another number).
const DRAWN: usize = 200;

/// What the data access of drawn models (a fixed seed, [`DRAWN`] models, each mapped
/// with and without the optimisations) does not generate, counted by reason: every
/// aggregate has a repository and every write pattern a function, so nothing is.
#[test]
fn drawn_models_skip_nothing_in_their_data_access() {
    let drawn = std::env::var("COSMAP_DRAWN")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DRAWN);
    // Each reason (its names left out), how often, and the first model that gave it.
    let mut reasons: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    for (n, spec) in drawn_models(drawn) {
        let model = DomainModel::new(spec.clone()).expect("the strategy makes valid models");
        for optimise in [true, false] {
            let logical = map(&model, &Options::default().optimise(optimise));
            let api = cosmap_codegen::data_api(&logical, &TypeMapping::default()).expect("the data access generates");
            for skipped in api.skipped {
                let reason = skipped.split_once("`: ").map_or(skipped.as_str(), |(_, r)| r);
                let reason = reason.split('`').step_by(2).collect::<Vec<_>>().join("`…`");
                let json = serde_json::to_string(&spec).expect("the model serialises");
                let entry = reasons
                    .entry(reason)
                    .or_insert_with(|| (0, format!("drawn model {n} (optimise {optimise}): {skipped}\n{json}")));
                entry.0 += 1;
            }
        }
    }
    let total: usize = reasons.values().map(|(count, _)| count).sum();
    let listed: Vec<String> = reasons
        .iter()
        .map(|(reason, (count, first))| format!("{count:5}  {reason}\n       first: {first}"))
        .collect();
    assert_eq!(total, 0, "{drawn} drawn models skip:\n{}", listed.join("\n"));
}

/// `count` models drawn with the data access tests' fixed seed, numbered.
fn drawn_models(count: usize) -> impl Iterator<Item = (usize, ModelSpec)> {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let seed = b"cosmap codegen data access 00001";
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, seed));
    (0..count).map(move |n| {
        (
            n,
            strategy::model_spec().new_tree(&mut runner).expect("a model").current(),
        )
    })
}

/// The generated functions of drawn models are snake_case as rustc's `non_snake_case`
/// wants it (a claim function once took `claim_crate__crate` from the module `crate_`).
#[test]
fn drawn_models_name_their_functions_in_snake_case() {
    for (n, spec) in drawn_models(DRAWN / 4) {
        let model = DomainModel::new(spec).expect("the strategy makes valid models");
        let code =
            cosmap_codegen::render_data_access(&map(&model, &Options::default()), &TypeMapping::default(), templates())
                .expect("the data access renders");
        let names = code.split("fn ").skip(1).map(|rest| {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#'))
                .unwrap_or(rest.len());
            rest[..end].trim_start_matches("r#")
        });
        for name in names {
            assert!(
                !name.contains("__") && !name.ends_with('_') || name.is_empty(),
                "drawn model {n}: `fn {name}`"
            );
        }
    }
}
