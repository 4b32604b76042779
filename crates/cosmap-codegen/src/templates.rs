//! cosmap's templates. The built-in artefacts are written by Rust emitters straight
//! from their views: `cosmap.rs` by `rust/emit.rs` alone (its template,
//! `cosmap.rs.hbs`, has no built-in text: an override renders from the view of
//! `rust/view.rs`), the small text artefacts by `text` in `bicep.rs`, `mermaid.rs`
//! and `artefacts.rs`, the same text handlebars makes of the embedded
//! `templates/*.hbs`. With feature `templates`, a file of a template's name in a
//! directory overrides it, rendered by handlebars (`registry.rs`). The data access
//! (`cosmap_data.rs.hbs`, feature `data-access`) is always rendered by handlebars.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::CodegenError;

/// The template an override of the Rust types (`cosmap.rs`) is named: it has no
/// embedded text, the built-in file being written by `rust/emit.rs`.
pub const RUST_TEMPLATE: &str = "cosmap.rs.hbs";

/// Whether a file named `name` overrides one of cosmap's templates.
#[cfg(feature = "templates")]
pub(crate) fn is_template(name: &str) -> bool {
    name == RUST_TEMPLATE || TEMPLATES.iter().any(|(known, _)| *known == name)
}

/// The names of the templates a directory may override, for messages.
#[cfg(feature = "templates")]
pub(crate) fn template_names() -> String {
    let mut names = vec![RUST_TEMPLATE];
    names.extend(TEMPLATES.iter().map(|(name, _)| *name));
    names.join(", ")
}

/// Template names, each with its embedded text.
pub const TEMPLATES: &[(&str, &str)] = &[
    (
        "cosmap_data.rs.hbs",
        include_str!("../../../templates/cosmap_data.rs.hbs"),
    ),
    (
        "containers.json.hbs",
        include_str!("../../../templates/containers.json.hbs"),
    ),
    (
        "containers.bicep.hbs",
        include_str!("../../../templates/containers.bicep.hbs"),
    ),
    (
        "document.schema.json.hbs",
        include_str!("../../../templates/document.schema.json.hbs"),
    ),
    ("model.mmd.hbs", include_str!("../../../templates/model.mmd.hbs")),
];

/// The templates of a run: the built-in ones, and with feature `templates` the
/// handlebars templates (the overrides, and the embedded text, parsed when first used).
pub struct Templates {
    #[cfg(feature = "templates")]
    registry: crate::registry::Registry,
    /// Templates that came from the override directory.
    pub overridden: Vec<PathBuf>,
}

impl Templates {
    /// The embedded templates, with any file in `overrides` (same name) taking
    /// their place. Unknown files in the directory are an error, to catch typos.
    /// Overrides need feature `templates`: without it, `Some` is
    /// [`CodegenError::FeatureOff`].
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

    /// Built-in template `name` for `view`: its override rendered by handlebars if
    /// there is one, else the text `direct` writes (the same text as the embedded
    /// template's, without the template engine).
    pub(crate) fn render_builtin<T: Serialize>(
        &self,
        name: &str,
        view: &T,
        direct: impl FnOnce(&T) -> Result<String, CodegenError>,
    ) -> Result<String, CodegenError> {
        if self.is_overridden(name) {
            return self.render(name, view);
        }
        direct(view)
    }

    /// Whether template `name` came from the override directory (not the embedded one).
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
