//! Loading the bundled examples and verifying on the in-memory engine.

#![allow(dead_code)]

use std::path::Path;

use cosmap_domain::DomainModel;
use cosmap_mapper::LogicalModel;
use cosmap_verify::{verify, Engine, Report};

/// An example model (`examples/NAME/model.json`) and its logical model.
pub fn example(name: &str) -> (DomainModel, LogicalModel) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../examples/{name}/model.json"));
    let model = cosmap_domain::load_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    (model, logical)
}

/// Verifies on a new in-memory engine.
pub async fn in_memory(model: &DomainModel, logical: &LogicalModel) -> Report {
    verify(model, logical, Engine::InMemory, Default::default())
        .await
        .expect("verification runs")
}
