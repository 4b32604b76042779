//! Loading the bundled examples and verifying on the in-memory engine.

#![allow(dead_code)]

use std::path::Path;

use cosmap_domain::DomainModel;
use cosmap_mapper::LogicalModel;
use cosmap_verify::{verify, Engine, Report};

/// An example model (`examples/NAME/model.json`) and its logical model.
pub fn example(name: &str) -> (DomainModel, LogicalModel) {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../examples/{name}/model.json")))
}

/// A test model (`tests/models/NAME.json`) and its logical model.
pub fn test_model(name: &str) -> (DomainModel, LogicalModel) {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/models/{name}.json")))
}

/// The model file at `path` and its logical model (the default options).
pub fn load(path: &Path) -> (DomainModel, LogicalModel) {
    let model = cosmap_domain::load_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    (model, logical)
}

/// The model in JSON `text` and its logical model mapped with `options`.
pub fn from_json(text: &[u8], options: &cosmap_mapper::Options) -> (DomainModel, LogicalModel) {
    let model = cosmap_domain::from_slice(text, None).expect("a valid model");
    let logical = cosmap_mapper::map(&model, options);
    (model, logical)
}

/// The operation of access pattern `pattern` in `logical`.
pub fn operation<'l>(logical: &'l LogicalModel, pattern: &str) -> &'l cosmap_mapper::operations::Operation {
    let found = logical.operations.iter().find(|o| o.pattern == pattern);
    found.unwrap_or_else(|| panic!("no operation for `{pattern}`"))
}

/// Verifies on a new in-memory engine.
pub async fn in_memory(model: &DomainModel, logical: &LogicalModel) -> Report {
    verify(model, logical, Engine::InMemory, Default::default())
        .await
        .expect("verification runs")
}
