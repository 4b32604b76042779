//! Rust document types: the view (`view`), identifier rules (`names`), and
//! rendering through the `cosmap.rs.hbs` template, checked by `syn` and
//! formatted by `prettyplease` (`format`, in parallel chunks).

mod codecs;
mod data_access;
#[cfg(feature = "format")]
mod format;
mod hooks;
mod names;
mod view;
pub(crate) use view::one_line;

use cosmap_mapper::LogicalModel;

use crate::error::CodegenError;
use crate::options::TypeMapping;
use crate::templates::Templates;

/// The template that renders the Rust types.
const TEMPLATE: &str = "cosmap.rs.hbs";

/// The template that renders the data access (`Builder::data_access`).
const DATA_TEMPLATE: &str = "cosmap_data.rs.hbs";

/// Renders `cosmap.rs` for `model` (the Rust document types alone): parsed and
/// pretty-printed, so it is valid and formatted without rustfmt.
pub fn render(model: &LogicalModel, mapping: &TypeMapping, templates: &Templates) -> Result<String, CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    let text = templates.render(TEMPLATE, &view)?;
    print(&text, templates, TEMPLATE)
}

/// Renders `cosmap_data.rs` for `model`: the data access on `azure_data_cosmos`
/// over the types `cosmap.rs` defines (include both in one module).
pub fn render_data_access(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
) -> Result<String, CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    let data = data_access::build(model, &view, mapping);
    let text = templates.render(DATA_TEMPLATE, &data)?;
    print(&text, templates, DATA_TEMPLATE)
}

/// The rendered text as it is, without the lines the template left blank.
#[cfg(not(feature = "format"))]
fn print(text: &str, _: &Templates, _: &str) -> Result<String, CodegenError> {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The rendered text checked by `syn` and printed by `prettyplease`.
#[cfg(feature = "format")]
fn print(text: &str, templates: &Templates, template: &str) -> Result<String, CodegenError> {
    let printed = format::parse_and_print(text).map_err(|e| CodegenError::InvalidRust {
        template: templates.origin(template),
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
