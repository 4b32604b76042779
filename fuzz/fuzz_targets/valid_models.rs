//! Fuzzes the mapper and code generation with *valid* models: the input seeds the
//! property tests' strategy (`crates/cosmap-mapper/tests/properties/strategy.rs`),
//! and the model it draws must load from its JSON, map, be costed and generate every
//! artefact (the body shared with the `pipeline` target), and give byte-identical
//! artefacts when its declarations are shuffled. Arbitrary bytes rarely make a valid
//! model (`pipeline`), so this target reaches the mapper's and codegen's corners.

#![no_main]

use std::sync::OnceLock;

use cosmap_codegen::{generate, Templates, TypeMapping};
use cosmap_mapper::Options;
use libfuzzer_sys::fuzz_target;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

#[path = "../../tests/support_fuzz/pipeline.rs"]
mod pipeline;
#[path = "../../crates/cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

/// Every artefact of `spec`'s optimised mapping.
fn artefacts(spec: cosmap_domain::ModelSpec, templates: &Templates) -> Vec<cosmap_codegen::Artefact> {
    let model = cosmap_domain::DomainModel::new(spec).expect("the strategy draws valid models");
    let logical = cosmap_mapper::map(&model, &Options::default());
    generate(&logical, &TypeMapping::default(), templates).expect("a valid model generates")
}

fuzz_target!(|bytes: &[u8]| {
    // The first 32 bytes seed the draw, the next 8 the shuffle.
    let mut seed = [0u8; 32];
    let mut shuffle = [0u8; 8];
    for (i, &b) in bytes.iter().take(40).enumerate() {
        match i {
            0..32 => seed[i] = b,
            _ => shuffle[i - 32] = b,
        }
    }
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let Ok(tree) = strategy::model_spec().new_tree(&mut runner) else {
        return;
    };
    let spec = tree.current();
    let text = serde_json::to_vec_pretty(&spec).expect("a model serialises");
    if let Err(error) = cosmap_domain::from_slice(&text, None) {
        panic!("a drawn model does not load from its own JSON: {error}");
    }
    pipeline::run(&text);
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    let templates = TEMPLATES.get_or_init(|| Templates::load(None).expect("the embedded templates load"));
    let shuffled = strategy::permute(&spec, u64::from_le_bytes(shuffle));
    assert!(
        artefacts(spec, templates) == artefacts(shuffled, templates),
        "artefacts change when the declarations are shuffled"
    );
});
