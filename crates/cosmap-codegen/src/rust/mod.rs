//! Rust document types: the view (`view`), identifier rules (`names`), and the
//! text of the built-in `cosmap.rs.hbs` written directly from the view (`emit`),
//! laid out as `prettyplease` prints it, with its long lines broken as
//! `prettyplease` breaks them as it is written (`layout::Writer`): it is written
//! as it is. An overridden
//! template (feature `templates`) is rendered by handlebars, and its output, like
//! the text with the user's own attributes or type spellings, is checked by `syn`
//! and formatted by `prettyplease` (feature `format`, in parallel chunks). The data
//! access (`data_access`, feature `data-access`) is rendered by handlebars.

mod codecs;
#[cfg(feature = "data-access")]
mod data_access;
mod emit;
#[cfg(feature = "format")]
mod format;
mod hooks;
mod layout;
mod names;
#[cfg(feature = "data-access")]
mod runtime;
mod view;
pub(crate) use view::one_line;

use cosmap_mapper::LogicalModel;

use crate::error::CodegenError;
use crate::options::TypeMapping;
use crate::templates::Templates;

/// The template that renders the Rust types.
const TEMPLATE: &str = "cosmap.rs.hbs";

/// The template that renders the data access (`Builder::data_access`).
#[cfg(feature = "data-access")]
const DATA_TEMPLATE: &str = "cosmap_data.rs.hbs";

/// Renders `cosmap.rs` for `model` (the Rust document types alone), formatted as
/// `prettyplease` prints it without rustfmt: the built-in template's text (written
/// by `emit`) laid out as it is written, an overridden template's parsed and printed.
pub fn render(model: &LogicalModel, mapping: &TypeMapping, templates: &Templates) -> Result<String, CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    render_view(&view, mapping, templates)
}

/// [`render`], its result handed to `deliver` before the view is dropped: on its own
/// thread, the caller goes on with the text while the view's thousands of strings
/// are freed (≈ 11 M instructions on the 1,000-aggregate model).
pub(crate) fn render_then(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
    deliver: impl FnOnce(Result<String, CodegenError>),
) {
    match view::build(model, mapping) {
        Ok(view) => {
            deliver(render_view(&view, mapping, templates));
            drop(view);
        }
        Err(message) => deliver(Err(CodegenError::Model(message))),
    }
}

/// [`render`] of the view built for it.
fn render_view(view: &view::RustView, mapping: &TypeMapping, templates: &Templates) -> Result<String, CodegenError> {
    if !templates.is_overridden(TEMPLATE) && layout::lays_out(mapping) {
        // `None`: a long line of a shape `layout` does not mirror (see there).
        if let Some(text) = emit::rust_laid_out(view) {
            return Ok(text);
        }
    }
    let text = templates.render_builtin(TEMPLATE, view, |v| Ok(emit::rust(v)))?;
    print(&text, &templates.origin(TEMPLATE))
}

/// The built-in template's output for `model`, laid out without parsing it; `None`
/// when [`render`] parses and prints it instead (an overridden template, a type
/// mapping with the user's own attributes or type spellings, or a long line of a
/// shape `layout` does not mirror). For tests that compare it with `prettyplease`.
#[doc(hidden)]
pub fn render_direct(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
) -> Result<Option<String>, CodegenError> {
    if templates.is_overridden(TEMPLATE) || !layout::lays_out(mapping) {
        return Ok(None);
    }
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    Ok(emit::rust_laid_out(&view))
}

/// [`render_direct`] the way it was first done, and the reference for it: the
/// built-in template's whole text written, then laid out in a pass over it
/// (`layout::lay_out`). For the test that the two agree.
#[doc(hidden)]
pub fn render_direct_after(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
) -> Result<Option<String>, CodegenError> {
    if templates.is_overridden(TEMPLATE) || !layout::lays_out(mapping) {
        return Ok(None);
    }
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    Ok(layout::lay_out(&emit::rust(&view)))
}

/// The built-in template's text for `model` before `layout` breaks its lines:
/// written by `emit`, or with `handlebars`, rendered by it (for the test that the
/// two agree).
pub(crate) fn builtin_text(
    model: &LogicalModel,
    mapping: &TypeMapping,
    handlebars: Option<&Templates>,
) -> Result<String, CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    match handlebars {
        Some(templates) => templates.render(TEMPLATE, &view),
        None => Ok(emit::rust(&view)),
    }
}

/// Checks Rust `text` with `syn` and prints it with `prettyplease`, keeping its
/// leading `//` header comment: what [`render`] does with the output of an
/// overridden `cosmap.rs.hbs` (and what the built-in template's output already is).
#[cfg(feature = "format")]
pub fn format_rust(text: &str) -> Result<String, CodegenError> {
    print(text, &format!("templates/{TEMPLATE}"))
}

/// Renders `cosmap_data.rs` for `model`: the data access on `azure_data_cosmos`
/// over the types `cosmap.rs` defines (include both in one module), through the
/// handlebars template `cosmap_data.rs.hbs`; checked and printed like an overridden
/// template's output (feature `format`), else as rendered. Needs feature
/// `data-access`: without it, [`CodegenError::FeatureOff`].
pub fn render_data_access(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
) -> Result<String, CodegenError> {
    #[cfg(feature = "data-access")]
    {
        let view = view::build(model, mapping).map_err(CodegenError::Model)?;
        let mut data = data_access::build(model, &view, mapping);
        // Rendered once without the runtime helpers, then with the ones it names.
        data.rt = runtime::none();
        data.rt = runtime::used(&templates.render(DATA_TEMPLATE, &data)?);
        let text = templates.render(DATA_TEMPLATE, &data)?;
        print(&text, &templates.origin(DATA_TEMPLATE))
    }
    #[cfg(not(feature = "data-access"))]
    {
        let _ = (model, mapping, templates);
        Err(CodegenError::FeatureOff {
            what: "the data access (`cosmap_data.rs`)",
            feature: "data-access",
        })
    }
}

/// The rendered text as it is, without the lines the template left blank.
#[cfg(not(feature = "format"))]
fn print(text: &str, _: &str) -> Result<String, CodegenError> {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The rendered text checked by `syn` and printed by `prettyplease`.
#[cfg(feature = "format")]
/// `origin` names the template in messages.
fn print(text: &str, origin: &str) -> Result<String, CodegenError> {
    let printed = format::parse_and_print(text).map_err(|e| CodegenError::InvalidRust {
        template: origin.to_string(),
        line: e.line,
        column: e.column,
        code: text
            .lines()
            .nth(e.line.saturating_sub(1))
            .unwrap_or_default()
            .trim()
            .to_string(),
        message: e.message,
    })?;
    // Comments are not part of the syntax tree: keep the template's leading `//` header.
    let plain_comment = |l: &str| l.starts_with("//") && !l.starts_with("///") && !l.starts_with("//!");
    let header: String = text
        .lines()
        .map(str::trim_start)
        .take_while(|l| plain_comment(l) || l.is_empty())
        .filter(|l| plain_comment(l))
        .map(|l| format!("{l}\n"))
        .collect();
    let separator = if header.is_empty() { "" } else { "\n" };
    Ok(format!("{header}{separator}{printed}"))
}
