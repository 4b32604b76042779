//! The handlebars templates (feature `templates`): the overrides, parsed when
//! loaded, and the embedded data access template, parsed the first time it is
//! rendered, with cosmap's helpers (`json`, `bicep`) and no HTML escaping.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use handlebars::{Context, Handlebars, Helper, HelperResult, Output, RenderContext, RenderErrorReason};
use serde::Serialize;

use crate::error::CodegenError;
use crate::templates::TEMPLATES;

/// The templates handlebars renders.
pub struct Registry {
    /// The overrides, each under its template's name.
    overrides: Handlebars<'static>,
    /// The embedded templates, in [`TEMPLATES`] order: each a registry of that one
    /// template once it is first rendered, or why it did not parse.
    embedded: Vec<OnceLock<Result<Handlebars<'static>, String>>>,
}

impl Registry {
    /// Renders template `name` (its override if there is one) with `data`; `origin`
    /// names it in messages.
    pub fn render<T: Serialize>(&self, name: &str, data: &T, origin: &str) -> Result<String, CodegenError> {
        let context = Context::wraps(data).map_err(|e| CodegenError::Template {
            template: origin.to_string(),
            message: e.to_string(),
        })?;
        self.render_context(name, &context, origin)
    }

    /// [`Registry::render`] of data turned into handlebars' JSON already.
    fn render_context(&self, name: &str, data: &Context, origin: &str) -> Result<String, CodegenError> {
        let failed = |message: String| CodegenError::Template {
            template: origin.to_string(),
            message,
        };
        if self.overrides.has_template(name) {
            return self
                .overrides
                .render_with_context(name, data)
                .map_err(|e| failed(e.to_string()));
        }
        let Some(i) = TEMPLATES.iter().position(|(known, _)| *known == name) else {
            return Err(failed("no such template".into()));
        };
        let registry = self.embedded[i].get_or_init(|| {
            let mut registry = engine();
            registry
                .register_template_string(name, TEMPLATES[i].1)
                .map_err(|e| e.to_string())?;
            Ok(registry)
        });
        match registry {
            Ok(registry) => registry
                .render_with_context(name, data)
                .map_err(|e| failed(e.to_string())),
            Err(message) => Err(failed(message.clone())),
        }
    }
}

/// A registry with cosmap's helpers, strict, without HTML escaping.
fn engine() -> Handlebars<'static> {
    let mut registry = Handlebars::new();
    registry.register_escape_fn(handlebars::no_escape);
    registry.set_strict_mode(true);
    registry.register_helper("json", Box::new(json_helper));
    registry.register_helper("bicep", Box::new(bicep_helper));
    registry
}

/// The overrides in `overrides` (files named like cosmap's templates), parsed, and
/// the files read.
pub fn load(overrides: Option<&Path>) -> Result<(Registry, Vec<PathBuf>), CodegenError> {
    let mut registry = engine();
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
            if !crate::templates::is_template(&name) {
                let known = crate::templates::template_names();
                return Err(CodegenError::UnknownTemplate { path, known });
            }
            let text = read_template(&path)?;
            registry
                .register_template_string(&name, text)
                .map_err(|e| CodegenError::Template {
                    template: path.display().to_string(),
                    message: e.to_string(),
                })?;
            overridden.push(path);
        }
    }
    let embedded = TEMPLATES.iter().map(|_| OnceLock::new()).collect();
    Ok((
        Registry {
            overrides: registry,
            embedded,
        },
        overridden,
    ))
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
