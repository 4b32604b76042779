//! Models drawn from the mapper's property-test strategy (a fixed seed, so every
//! run draws the same ones) are verified on the in-memory engine: every access
//! pattern of every model must pass, or be refused by the engine for a query it
//! cannot run ([`ENGINE_LIMITS`]: Cosmos DB runs them; `verify --endpoint` proves
//! them). A shape that failed here became a model under `tests/models/` (checked by
//! `valid_models.rs`), fixed at its cause.
//!
//! `COSMAP_DRAWN_MODELS` sets how many are drawn (default [`MODELS`]) and
//! `COSMAP_DRAWN_SEED` another seed (its first 32 bytes, zero-padded).

mod common;

use cosmap_domain::DomainModel;
use cosmap_verify::{PatternOutcome, Verdict};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

#[path = "../../cosmap-mapper/tests/properties/strategy.rs"]
mod strategy;

/// The seed the models are drawn with.
const SEED: &[u8; 32] = b"cosmap verify drawn models 00001";
/// How many models are drawn.
const MODELS: usize = 200;

/// What the SDK's in-memory engine answers for queries it cannot run: a subquery
/// (`EXISTS`), and an `ORDER BY` across partitions on a property a keyword names
/// (`c['in']`, which its query plan does not take for a path).
const ENGINE_LIMITS: &[&str] = &[
    "unsupported expression: subqueries",
    "ClientQueryPlanComplexProjectionUnsupported",
];

fn seed() -> [u8; 32] {
    let Ok(text) = std::env::var("COSMAP_DRAWN_SEED") else {
        return *SEED;
    };
    let mut seed = [0; 32];
    let bytes = &text.as_bytes()[..text.len().min(32)];
    seed[..bytes.len()].copy_from_slice(bytes);
    seed
}

fn count() -> usize {
    std::env::var("COSMAP_DRAWN_MODELS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(MODELS)
}

/// Whether every request of `pattern` passed, or erred on one of the engine's limits.
fn passed_or_engine_limit(pattern: &PatternOutcome) -> bool {
    pattern.passed
        || pattern.reason.is_none()
            && !pattern.requests.is_empty()
            && pattern.requests.iter().all(|r| match r.verdict {
                Verdict::Pass => true,
                Verdict::Error => r
                    .reason
                    .as_deref()
                    .is_some_and(|reason| ENGINE_LIMITS.iter().any(|limit| reason.contains(limit))),
                _ => false,
            })
}

/// Every pattern of every drawn model passes (or meets an engine limit); the failures
/// are listed with the model that gave them (its JSON, to save as a test model).
#[tokio::test]
async fn every_drawn_model_verifies_on_the_in_memory_engine() {
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed()));
    let mut failures = Vec::new();
    let (mut patterns, mut passed, mut limited) = (0, 0, 0);
    // Each pattern that met an engine limit, with the SQL the engine refused.
    let mut limits = Vec::new();
    let models = count();
    for n in 0..models {
        let spec = strategy::model_spec()
            .new_tree(&mut runner)
            .expect("a model is drawn")
            .current();
        let model = DomainModel::new(spec.clone()).unwrap_or_else(|d| panic!("drawn model {n} is invalid: {d:?}"));
        let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
        let report = common::in_memory(&model, &logical).await;
        patterns += report.patterns.len();
        passed += report.summary.passed;
        for p in report
            .patterns
            .iter()
            .filter(|p| !p.passed && passed_or_engine_limit(p))
        {
            limited += 1;
            let sql = p
                .requests
                .iter()
                .filter(|r| r.verdict == Verdict::Error)
                .filter_map(|r| r.sql.as_deref());
            limits.push(format!(
                "drawn model {n}, `{}`: {}",
                p.pattern,
                sql.collect::<Vec<_>>().join(" / ")
            ));
        }
        if !report.patterns.iter().all(passed_or_engine_limit) {
            let json = serde_json::to_string_pretty(&spec).expect("the model serialises");
            failures.push(format!("drawn model {n}:\n{}\n{json}", report.to_text()));
        }
    }
    eprintln!("{models} drawn models, {patterns} patterns: {passed} passed, {limited} met an engine limit");
    for line in &limits {
        eprintln!("  {line}");
    }
    assert!(patterns > models, "the drawn models hold {patterns} patterns");
    assert!(
        failures.is_empty(),
        "{} of {models} drawn models failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
