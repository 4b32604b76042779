//! The whole cosmap pipeline on a model file's bytes, shared by the `pipeline`
//! bench and the `pipeline` example (one run, for `/usr/bin/time -v` and callgrind).

use std::time::{Duration, Instant};

use cosmap_codegen::{generate, Artefact, Templates, TypeMapping};
use cosmap_domain::DomainModel;
use cosmap_mapper::cost::{map_and_cost, Consistency, CostReport};
use cosmap_mapper::Options;

/// What one run produces: the cost report, every artefact, and each stage's time.
pub struct Output {
    pub report: CostReport,
    pub artefacts: Vec<Artefact>,
    #[allow(dead_code)] // printed by the example; the bench times the whole run
    pub stages: Vec<(&'static str, Duration)>,
}

/// Load and validate, map (with and without optimisations) and cost the three
/// designs, and render every artefact of the optimised design.
pub fn run(text: &[u8], templates: &Templates) -> Output {
    let mut stages = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str| stages.push((name, std::mem::replace(&mut clock, Instant::now()).elapsed()));
    let model = cosmap_domain::from_slice(text, None).expect("a valid synthetic model");
    lap("load+validate");
    // The map and the cost estimate in one call: the rules-only design is the first
    // the optimised map finishes, and the naive baseline, which needs no map, is
    // figured beside it.
    let (logical, report) = map_and_cost(&model, &Options::default(), Consistency::Session);
    lap("map+cost");
    let artefacts = generate(&logical, &TypeMapping::default(), templates).expect("artefacts render");
    lap("render");
    Output {
        report,
        artefacts,
        stages,
    }
}

/// The synthetic model of `text`, loaded and validated, the text dropped: past what
/// a model file may hold (20,000 aggregates are 89 MiB of JSON), parsed and validated
/// without the positions a file's problems are reported at.
#[allow(dead_code)] // the example's `--data-access`
pub fn load(text: Vec<u8>) -> DomainModel {
    if text.len() as u64 > cosmap_domain::MAX_MODEL_BYTES {
        let spec = serde_json::from_slice(&text).expect("a synthetic model's JSON");
        drop(text);
        cosmap_domain::DomainModel::new(spec).expect("a valid synthetic model")
    } else {
        cosmap_domain::from_slice(&text, None).expect("a valid synthetic model")
    }
}
