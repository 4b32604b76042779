//! Rust document types: the view (`view`), identifier rules (`names`), and
//! rendering through the `cosmap.rs.hbs` template, checked by `syn` and
//! formatted by `prettyplease` (`format`, in parallel chunks).

mod codecs;
mod format;
mod hooks;
mod names;
mod view;

use cosmap_mapper::LogicalModel;

use crate::error::CodegenError;
use crate::options::TypeMapping;
use crate::templates::Templates;

/// The template that renders the Rust types.
const TEMPLATE: &str = "cosmap.rs.hbs";

/// Renders `cosmap.rs` for `model` (the Rust document types alone): parsed and
/// pretty-printed, so it is valid and formatted without rustfmt.
pub fn render(model: &LogicalModel, mapping: &TypeMapping, templates: &Templates) -> Result<String, CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    let text = templates.render(TEMPLATE, &view)?;
    let printed = format::parse_and_print(&text).map_err(|e| CodegenError::InvalidRust {
        template: templates.origin(TEMPLATE),
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
