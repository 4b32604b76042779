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
    // The Rust file is most of the work on a large model: it renders on its own
    // thread while this one renders everything else.
    let (rust, mut artefacts) = std::thread::scope(|scope| {
        let rust = scope.spawn(|| crate::rust::render(model, mapping, templates));
        let others = others(model, templates);
        (rust.join(), others)
    });
    let rust = rust.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    artefacts.push(Ok(artefact(RUST_FILE, rust)));
    let mut artefacts: Vec<Artefact> = artefacts.into_iter().collect::<Result<_, _>>()?;
    artefacts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(artefacts)
}

/// Every artefact but the Rust file.
fn others(model: &LogicalModel, templates: &Templates) -> Vec<Result<Artefact, CodegenError>> {
    let mut artefacts = vec![
        templates
            .render(
                "containers.json.hbs",
                &json!({ "containers": model.container_definitions() }),
            )
            .map(|text| artefact("containers.json", text)),
        templates
            .render("containers.bicep.hbs", &crate::bicep::view(model))
            .map(|text| artefact("containers.bicep", text)),
        mermaid(model, templates).map(|text| artefact("model.mmd", text)),
    ];
    for c in &model.containers {
        for d in &c.document_types {
            let schema = crate::schema::document(c, d);
            let path = format!("schemas/{}/{}.schema.json", c.name, d.name);
            artefacts.push(
                templates
                    .render("document.schema.json.hbs", &json!({ "schema": schema }))
                    .map(|text| artefact(&path, text)),
            );
        }
    }
    artefacts
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
