//! cosmap's templates: the handlebars templates a run renders. Every built-in
//! artefact has one writer, a Rust emitter straight from its view: `cosmap.rs` by
//! `rust/emit.rs`, the small text artefacts by `text` in `bicep.rs` and `mermaid.rs`
//! and by `artefacts.rs`; none of them has a built-in template. With feature
//! `templates`, a file of an [`OVERRIDES`] name in a directory takes the emitter's
//! place, rendered by handlebars (`registry.rs`) from the same view. The data
//! access (`cosmap_data.rs.hbs`, feature `data-access`) is the one built-in
//! template, embedded ([`TEMPLATES`]) and always rendered by handlebars.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::CodegenError;

/// The template an override of the Rust types (`cosmap.rs`) is named.
pub const RUST_TEMPLATE: &str = "cosmap.rs.hbs";

/// The templates a directory may override, each with the view it renders from (the
/// fields documented on the view's type, the helpers `json` and `bicep` besides
/// handlebars' own):
///
/// | template | writes | view |
/// |---|---|---|
/// | `cosmap.rs.hbs` | `cosmap.rs` | `RustView` (`src/rust/view.rs`): `containers`, each with its `module`, `documents`, `structs`, … |
/// | `containers.json.hbs` | `containers.json` | `containers`: each container definition as Cosmos DB takes it (`{{json containers}}` is the built-in text) |
/// | `containers.bicep.hbs` | `containers.bicep` | `model` (its name); `containers`, each with `symbol` (the Bicep symbol), `id` and `resource` (the definition; `{{bicep resource 4}}` prints it as a Bicep literal indented by 4) |
/// | `document.schema.json.hbs` | each `schemas/<container>/<documentType>.schema.json` | `schema`: the document type's JSON Schema (`{{json schema}}` is the built-in text) |
/// | `model.mmd.hbs` | `model.mmd` | `model`; `containers` (`id`, `label`, `nodes`: `id`, `label`, `document`, `description`); `patterns` (`id`, `label`); `edges` (`from`, `to`, `label`, `kind`: `embeds`, `contains`, `references`, `copy` or `pattern`); every label quoted for Mermaid already |
/// | `cosmap_data.rs.hbs` | `cosmap_data.rs` | the data access's view (`src/rust/data_access.rs`) whole, with every `part.*` section flag set (the built-in template is embedded ([`TEMPLATES`]) and rendered a part at a time instead, `src/rust/data_parts.rs`: once per part, `part` naming the section it renders, `{{#if part.methods}}`, …, and each list holding the part's items alone) |
pub const OVERRIDES: &[&str] = &[
    RUST_TEMPLATE,
    "containers.json.hbs",
    "containers.bicep.hbs",
    "document.schema.json.hbs",
    "model.mmd.hbs",
    DATA_ACCESS_TEMPLATE,
];

/// The data access's template, the one built-in template.
const DATA_ACCESS_TEMPLATE: &str = "cosmap_data.rs.hbs";

/// Whether a file named `name` overrides one of cosmap's templates.
#[cfg(feature = "templates")]
pub(crate) fn is_template(name: &str) -> bool {
    OVERRIDES.contains(&name)
}

/// The names of the templates a directory may override, for messages.
#[cfg(feature = "templates")]
pub(crate) fn template_names() -> String {
    OVERRIDES.join(", ")
}

/// The built-in templates, each name with its embedded text: the data access's alone
/// (every other artefact is written by its Rust emitter).
pub const TEMPLATES: &[(&str, &str)] = &[(
    DATA_ACCESS_TEMPLATE,
    include_str!("../../../templates/cosmap_data.rs.hbs"),
)];

/// The templates of a run: with feature `templates`, the overrides of a directory
/// and the embedded data access template, rendered by handlebars.
pub struct Templates {
    #[cfg(feature = "templates")]
    registry: crate::registry::Registry,
    /// Templates that came from the override directory.
    pub overridden: Vec<PathBuf>,
}

impl Templates {
    /// The built-in templates, with any file in `overrides` named like one of
    /// [`OVERRIDES`] taking the place of its emitter (or of the embedded template).
    /// Unknown files in the directory are an error, to catch typos. Overrides need
    /// feature `templates`: without it, `Some` is [`CodegenError::FeatureOff`].
    pub fn load(overrides: Option<&Path>) -> Result<Self, CodegenError> {
        #[cfg(feature = "templates")]
        {
            let (registry, overridden) = crate::registry::load(overrides)?;
            Ok(Templates { registry, overridden })
        }
        #[cfg(not(feature = "templates"))]
        match overrides {
            Some(_) => Err(CodegenError::FeatureOff {
                what: "template overrides",
                feature: "templates",
            }),
            None => Ok(Templates { overridden: Vec::new() }),
        }
    }

    /// Renders template `name` (its override, or the embedded text) with `data`
    /// through handlebars; without feature `templates`, [`CodegenError::FeatureOff`].
    pub fn render<T: Serialize>(&self, name: &str, data: &T) -> Result<String, CodegenError> {
        #[cfg(feature = "templates")]
        {
            self.registry.render(name, data, &self.origin(name))
        }
        #[cfg(not(feature = "templates"))]
        {
            let _ = (name, data);
            Err(CodegenError::FeatureOff {
                what: "rendering a handlebars template",
                feature: "templates",
            })
        }
    }

    /// The text of the artefact of template `name` for `view`: its override
    /// rendered by handlebars if there is one, else what its emitter, `emit`, writes.
    pub(crate) fn render_or_emit<T: Serialize>(
        &self,
        name: &str,
        view: &T,
        emit: impl FnOnce(&T) -> Result<String, CodegenError>,
    ) -> Result<String, CodegenError> {
        if self.is_overridden(name) {
            return self.render(name, view);
        }
        emit(view)
    }

    /// Whether template `name` came from the override directory.
    pub fn is_overridden(&self, name: &str) -> bool {
        self.overridden
            .iter()
            .any(|p| p.file_name().and_then(|n| n.to_str()) == Some(name))
    }

    /// Where template `name` came from, for messages.
    pub fn origin(&self, name: &str) -> String {
        self.overridden
            .iter()
            .find(|p| p.file_name().and_then(|n| n.to_str()) == Some(name))
            .map_or_else(|| format!("templates/{name}"), |p| p.display().to_string())
    }
}
