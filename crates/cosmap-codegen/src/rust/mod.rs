//! Rust document types: the view (`view`), identifier rules (`names`), and the
//! built-in `cosmap.rs` written from the view (`emit`), its one writer. An
//! overridden `cosmap.rs.hbs` (feature `templates`) renders from the same view
//! through handlebars; its output, like the built-in text with the user's own
//! attributes or type spellings, is checked by `syn` and printed by `prettyplease`
//! (feature `format`). The data access (`data_access`, feature `data-access`) is
//! rendered by handlebars.

#[cfg(feature = "data-access")]
mod api;
mod codecs;
#[cfg(feature = "data-access")]
mod data_access;
mod emit;
#[cfg(feature = "format")]
mod format;
mod hooks;
mod names;
#[cfg(feature = "format")]
mod pieces;
#[cfg(feature = "data-access")]
mod runtime;
mod view;
#[cfg(feature = "data-access")]
pub use api::{
    data_api, Answer, ApiItem, DataApi, Enforcement, MethodParam, PatternMethod, Repository, Worker, WrittenParam,
};
mod view_text;
pub(crate) use view::one_line;

use cosmap_mapper::LogicalModel;

use crate::error::CodegenError;
use crate::options::TypeMapping;
use crate::templates::Templates;

/// The template that overrides the Rust types.
const TEMPLATE: &str = crate::templates::RUST_TEMPLATE;

/// The template that renders the data access (`Builder::data_access`).
#[cfg(feature = "data-access")]
const DATA_TEMPLATE: &str = "cosmap_data.rs.hbs";

/// Renders `cosmap.rs` for `model` (the Rust document types alone): the built-in
/// text as `emit` writes it, or an overridden template's output, parsed and printed
/// (see the module's doc).
pub fn render(model: &LogicalModel, mapping: &TypeMapping, templates: &Templates) -> Result<String, CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    render_view(&view, mapping, templates)
}

/// [`render`] of the view built for it.
fn render_view(view: &view::RustView, mapping: &TypeMapping, templates: &Templates) -> Result<String, CodegenError> {
    if templates.is_overridden(TEMPLATE) {
        let text = templates.render(TEMPLATE, view)?;
        return print(text, &templates.origin(TEMPLATE));
    }
    let text = emit::rust(view);
    if users_own_text(mapping) {
        // The user's attributes and type spellings are any text: checked by parsing.
        return print(text, BUILTIN);
    }
    Ok(text)
}

/// What messages call the built-in `cosmap.rs` when the user's text in it does not parse.
const BUILTIN: &str = "the built-in cosmap.rs with the type mapping's attributes and types";

/// Whether `mapping` puts the user's own text in `cosmap.rs`: attributes
/// (`type_attribute`, `field_attribute`), or type paths other than plain ones
/// (words, `::`, `<`, `>`, `&` and `, `, as `prettyplease` spells them).
fn users_own_text(mapping: &TypeMapping) -> bool {
    let plain = |ty: &str| {
        !ty.is_empty()
            && ty.bytes().enumerate().all(|(i, b)| match b {
                b' ' => i > 0 && ty.as_bytes()[i - 1] == b',',
                b',' => ty.as_bytes().get(i + 1) == Some(&b' '),
                b':' | b'<' | b'>' | b'&' | b'_' => true,
                _ => b.is_ascii_alphanumeric() || b >= 0x80,
            })
            && !ty.replace("::", "").contains(':')
            && !ty.contains(", >")
    };
    !mapping.type_attributes.is_empty()
        || !mapping.field_attributes.is_empty()
        || ![&mapping.date_time, &mapping.date, &mapping.decimal, &mapping.uuid]
            .into_iter()
            .chain(mapping.extern_paths.iter().map(|(_, path)| path))
            .all(|ty| plain(ty))
}

/// Checks Rust `text` with `syn` and prints it with `prettyplease`, keeping its
/// leading `//` header comment: what [`render`] does with the output of an
/// overridden `cosmap.rs.hbs`.
#[cfg(feature = "format")]
pub fn format_rust(text: &str) -> Result<String, CodegenError> {
    print(text.to_string(), &format!("templates/{TEMPLATE}"))
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
        let origin = templates.origin(DATA_TEMPLATE);
        let mut data = {
            let mut data = data_access::build(
                model,
                &view::build(model, mapping).map_err(CodegenError::Model)?,
                mapping,
            );
            data.rt = runtime::none();
            // Turned into handlebars' JSON once, for both renders; the views dropped.
            crate::templates::Data::of(&data, &origin)?
        };
        // Rendered once without the runtime helpers, then with the ones it names.
        let rt = runtime::used(&templates.render_data(DATA_TEMPLATE, &data)?);
        data.set("rt", &rt, &origin)?;
        let text = templates.render_data(DATA_TEMPLATE, &data)?;
        drop(data);
        print(text, &origin)
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
fn print(text: String, _: &str) -> Result<String, CodegenError> {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// The rendered text checked by `syn` and printed by `prettyplease`; `origin` names
/// the template in messages. The text is dropped before its leading comment is put
/// back, so that at most the text and its printing are held (a data access of
/// 20,000 aggregates prints some 360 MB).
#[cfg(feature = "format")]
fn print(text: String, origin: &str) -> Result<String, CodegenError> {
    // Comments are not part of the syntax tree: keep the template's leading `//` header.
    let plain_comment = |l: &str| l.starts_with("//") && !l.starts_with("///") && !l.starts_with("//!");
    let mut header: String = text
        .lines()
        .map(str::trim_start)
        .take_while(|l| plain_comment(l) || l.is_empty())
        .filter(|l| plain_comment(l))
        .map(|l| format!("{l}\n"))
        .collect();
    if !header.is_empty() {
        header.push('\n');
    }
    let mut printed = format::parse_and_print(&text).map_err(|e| CodegenError::InvalidRust {
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
    drop(text);
    printed.insert_str(0, &header);
    Ok(printed)
}
