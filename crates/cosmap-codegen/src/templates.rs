//! The handlebars templates: embedded from the repository's `templates/` at
//! compile time, each overridable by a file of the same name in a directory.

use std::path::{Path, PathBuf};

use handlebars::{Context, Handlebars, Helper, HelperResult, Output, RenderContext, RenderErrorReason};
use serde::Serialize;

use crate::error::CodegenError;

/// Template names, each with its embedded text.
pub const TEMPLATES: &[(&str, &str)] = &[
    ("cosmap.rs.hbs", include_str!("../../../templates/cosmap.rs.hbs")),
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

/// A template registry with cosmap's helpers and no HTML escaping.
pub struct Templates {
    registry: Handlebars<'static>,
    /// Templates that came from the override directory.
    pub overridden: Vec<PathBuf>,
}

impl Templates {
    /// The embedded templates, with any file in `overrides` (same name) taking
    /// their place. Unknown files in the directory are an error, to catch typos.
    pub fn load(overrides: Option<&Path>) -> Result<Self, CodegenError> {
        let mut registry = Handlebars::new();
        registry.register_escape_fn(handlebars::no_escape);
        registry.set_strict_mode(true);
        registry.register_helper("json", Box::new(json_helper));
        registry.register_helper("bicep", Box::new(crate::bicep::helper));
        let mut overridden = Vec::new();
        if let Some(dir) = overrides {
            let entries = std::fs::read_dir(dir).map_err(|source| CodegenError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
            let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            names.sort();
            for path in names {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default()
                    .to_string();
                if !TEMPLATES.iter().any(|(known, _)| *known == name) {
                    let known = TEMPLATES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
                    return Err(CodegenError::UnknownTemplate { path, known });
                }
                overridden.push(path);
            }
        }
        for (name, text) in TEMPLATES {
            let path = overridden
                .iter()
                .find(|p| p.file_name().and_then(|n| n.to_str()) == Some(name));
            let (text, origin) = match path {
                Some(path) => {
                    let text = read_template(path)?;
                    (text, path.display().to_string())
                }
                None => (text.to_string(), format!("templates/{name}")),
            };
            registry
                .register_template_string(name, text)
                .map_err(|e| CodegenError::Template {
                    template: origin,
                    message: e.to_string(),
                })?;
        }
        Ok(Templates { registry, overridden })
    }

    /// Renders template `name` with `data`.
    pub fn render<T: Serialize>(&self, name: &str, data: &T) -> Result<String, CodegenError> {
        self.registry.render(name, data).map_err(|e| CodegenError::Template {
            template: self.origin(name),
            message: e.to_string(),
        })
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

/// `{{json value}}`: the value as pretty-printed JSON.
fn json_helper(h: &Helper, _: &Handlebars, _: &Context, _: &mut RenderContext, out: &mut dyn Output) -> HelperResult {
    let value = h
        .param(0)
        .ok_or(RenderErrorReason::ParamNotFoundForIndex("json", 0))?
        .value();
    let text = serde_json::to_string_pretty(value).map_err(|e| RenderErrorReason::Other(e.to_string()))?;
    out.write(&text)?;
    Ok(())
}

/// Largest template override cosmap reads (1 MiB); the embedded ones are a few KiB.
pub const MAX_TEMPLATE_BYTES: u64 = 1024 * 1024;

/// Reads an override, stopping one byte past [`MAX_TEMPLATE_BYTES`] (a device or a
/// runaway file is refused, not read to its end).
fn read_template(path: &Path) -> Result<String, CodegenError> {
    let io = |source| CodegenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = cosmap_domain::read_at_most(path, MAX_TEMPLATE_BYTES).map_err(io)?;
    if bytes.len() as u64 > MAX_TEMPLATE_BYTES {
        return Err(CodegenError::Template {
            template: path.display().to_string(),
            message: format!(
                "the file is larger than {} MiB; a template is a few KiB",
                MAX_TEMPLATE_BYTES / 1048576
            ),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not valid UTF-8 (byte {} is not)", e.utf8_error().valid_up_to()),
        ))
    })
}
