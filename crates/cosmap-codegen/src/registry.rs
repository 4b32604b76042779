//! The handlebars registry (feature `templates`): the embedded templates, each
//! replaced by a file of the same name in an override directory, and cosmap's
//! helpers (`json`, `bicep`). The built-in artefacts do not need it (their Rust
//! emitters write the same text); overrides and the data access do.

use std::path::{Path, PathBuf};

use handlebars::{Context, Handlebars, Helper, HelperResult, Output, RenderContext, RenderErrorReason};

use crate::error::CodegenError;
use crate::templates::TEMPLATES;

/// The registry with every template (overrides from `overrides` in place of the
/// embedded ones), and the override files it read.
pub fn load(overrides: Option<&Path>) -> Result<(Handlebars<'static>, Vec<PathBuf>), CodegenError> {
    let mut registry = Handlebars::new();
    registry.register_escape_fn(handlebars::no_escape);
    registry.set_strict_mode(true);
    registry.register_helper("json", Box::new(json_helper));
    registry.register_helper("bicep", Box::new(bicep_helper));
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
    Ok((registry, overridden))
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

/// `{{bicep value indent}}`: `value` as a Bicep literal, nested lines indented by `indent` spaces.
fn bicep_helper(h: &Helper, _: &Handlebars, _: &Context, _: &mut RenderContext, out: &mut dyn Output) -> HelperResult {
    let value = h
        .param(0)
        .ok_or(RenderErrorReason::ParamNotFoundForIndex("bicep", 0))?
        .value();
    let indent = h.param(1).and_then(|p| p.value().as_u64()).unwrap_or(0) as usize;
    out.write(&crate::bicep::literal(value, indent))?;
    Ok(())
}
