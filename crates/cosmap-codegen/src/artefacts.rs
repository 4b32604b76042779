//! Every artefact of a logical model, as (relative path, contents) pairs in path order.

use std::path::PathBuf;

use cosmap_mapper::LogicalModel;
use serde_json::json;

use crate::error::CodegenError;
use crate::options::TypeMapping;
use crate::templates::Templates;

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artefact {
    /// Path relative to the output directory.
    pub path: PathBuf,
    /// The file's contents.
    pub contents: String,
}

/// Name of the generated Rust file.
pub const RUST_FILE: &str = "cosmap.rs";

/// Renders every artefact: `cosmap.rs`, `containers.json`, `containers.bicep`,
/// `model.mmd` and `schemas/<container>/<documentType>.schema.json`.
pub fn generate(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
) -> Result<Vec<Artefact>, CodegenError> {
    let mut artefacts = vec![
        artefact(RUST_FILE, crate::rust::render(model, mapping, templates)?),
        artefact(
            "containers.json",
            templates.render(
                "containers.json.hbs",
                &json!({ "containers": model.container_definitions() }),
            )?,
        ),
        artefact(
            "containers.bicep",
            templates.render("containers.bicep.hbs", &crate::bicep::view(model))?,
        ),
        artefact("model.mmd", mermaid(model, templates)?),
    ];
    for c in &model.containers {
        for d in &c.document_types {
            let schema = crate::schema::document(c, d);
            let text = templates.render("document.schema.json.hbs", &json!({ "schema": schema }))?;
            artefacts.push(artefact(&format!("schemas/{}/{}.schema.json", c.name, d.name), text));
        }
    }
    artefacts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(artefacts)
}

/// The Mermaid diagram alone (`cosmap model --format mermaid`).
pub fn mermaid(model: &LogicalModel, templates: &Templates) -> Result<String, CodegenError> {
    templates.render("model.mmd.hbs", &crate::mermaid::view(model))
}

fn artefact(path: &str, contents: String) -> Artefact {
    let contents = if contents.ends_with('\n') {
        contents
    } else {
        contents + "\n"
    };
    Artefact {
        path: PathBuf::from(path),
        contents,
    }
}
