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
#[cfg(feature = "data-access")]
mod data_parts;
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

use crate::artefacts::Pieces;
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

/// [`render`] written into `out` a piece at a time: the built-in text a container's
/// module at a time as `emit` writes it, an override's output (or the text with the
/// user's own attributes or type spellings, parsed and printed) whole.
pub(crate) fn write_rust(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
    out: &mut dyn Pieces,
) -> Result<(), CodegenError> {
    let view = view::build(model, mapping).map_err(CodegenError::Model)?;
    if templates.is_overridden(TEMPLATE) || users_own_text(mapping) {
        return out.push(&render_view(&view, mapping, templates)?);
    }
    emit::rust_into(&view, &mut |piece| out.push(piece))
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
    let mut text = String::new();
    write_data_access(model, mapping, templates, &mut text)?;
    Ok(text)
}

/// [`render_data_access`] written into `out` a part at a time as it is printed
/// (`data_parts.rs`): one part's view as handlebars' JSON, its text and its printing
/// held at a time, besides the data access's view.
pub(crate) fn write_data_access(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
    out: &mut dyn Pieces,
) -> Result<(), CodegenError> {
    #[cfg(feature = "data-access")]
    {
        let rust = view::build(model, mapping).map_err(CodegenError::Model)?;
        // The Rust view is given up to the data access's: of it, only the names it
        // reads are kept while the data access's view is built.
        let mut data = data_access::build(model, rust, mapping);
        // An override renders once from the whole view, every section on: one written
        // for the whole file keeps working (rendered a part at a time, it would be
        // repeated part by part).
        let whole = templates.is_overridden(DATA_TEMPLATE);
        // Rendered once without the runtime helpers, then with the ones its parts name.
        data.rt = runtime::none();
        let mut named = std::collections::BTreeSet::new();
        if whole {
            runtime_paths(&templates.render(DATA_TEMPLATE, &data_parts::whole(&data))?, &mut named);
        } else {
            for part in data_parts::parts(&data) {
                runtime_paths(&templates.render(DATA_TEMPLATE, &part)?, &mut named);
            }
        }
        data.rt = runtime::used(named.iter().map(String::as_str));
        if whole {
            let text = templates.render(DATA_TEMPLATE, &data_parts::whole(&data))?;
            return out.push(&print(text, &templates.origin(DATA_TEMPLATE))?);
        }
        print_parts(&data, templates, out)
    }
    #[cfg(not(feature = "data-access"))]
    {
        let _ = (model, mapping, templates, out);
        Err(CodegenError::FeatureOff {
            what: "the data access (`cosmap_data.rs`)",
            feature: "data-access",
        })
    }
}

/// Adds to `named` each path `text` names after `rt::` ([`runtime::named`]), once:
/// what `runtime::used` reads, gathered from every part without holding their texts.
#[cfg(feature = "data-access")]
fn runtime_paths(text: &str, named: &mut std::collections::BTreeSet<String>) {
    for path in runtime::named(text) {
        if !named.contains(path) {
            named.insert(path.to_string());
        }
    }
}

/// Renders each part of `data` and writes its printing into `out` as it is printed:
/// the template's leading `//` header first (comments are not part of the syntax
/// tree). A part that does not split or parse (an override's text, say) starts the
/// file again, rendered and printed whole, so that its error is reported at its
/// line and column in the file.
#[cfg(all(feature = "data-access", feature = "format"))]
fn print_parts(data: &data_access::DataView, templates: &Templates, out: &mut dyn Pieces) -> Result<(), CodegenError> {
    let mut printer = format::Printer::default();
    for (i, part) in data_parts::parts(data).enumerate() {
        let text = templates.render(DATA_TEMPLATE, &part)?;
        if i == 0 {
            if format::opens_with_inner_attributes(&text) {
                return print_whole(data, templates, out);
            }
            out.push(&header_of(&text))?;
        }
        match printer.part(&text) {
            Some(printed) => out.push(&printed)?,
            None => return print_whole(data, templates, out),
        }
    }
    if !printer.is_closed() {
        return print_whole(data, templates, out);
    }
    Ok(())
}

/// Writes the rendered parts of `data` into `out` as they are, without the lines
/// the template left blank.
#[cfg(all(feature = "data-access", not(feature = "format")))]
fn print_parts(data: &data_access::DataView, templates: &Templates, out: &mut dyn Pieces) -> Result<(), CodegenError> {
    // A line a part leaves unfinished is finished by the next.
    let mut line = String::new();
    for part in data_parts::parts(data) {
        line.push_str(&templates.render(DATA_TEMPLATE, &part)?);
        let done = line.rfind('\n').map_or(0, |i| i + 1);
        out.push(&print(line[..done].to_string(), "")?)?;
        line.drain(..done);
    }
    out.push(&print(line, "")?)
}

/// `data`'s parts rendered into one text, printed whole into `out` (started again).
#[cfg(all(feature = "data-access", feature = "format"))]
fn print_whole(data: &data_access::DataView, templates: &Templates, out: &mut dyn Pieces) -> Result<(), CodegenError> {
    let mut text = String::new();
    for part in data_parts::parts(data) {
        text.push_str(&templates.render(DATA_TEMPLATE, &part)?);
    }
    out.restart()?;
    out.push(&print(text, &templates.origin(DATA_TEMPLATE))?)
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

/// The leading `//` comment lines of `text` (not doc comments), then a blank line:
/// what the printing puts back before the printed items, which drop comments.
#[cfg(feature = "format")]
fn header_of(text: &str) -> String {
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
    header
}

/// The rendered text checked by `syn` and printed by `prettyplease`; `origin` names
/// the template in messages. The text is dropped before its leading comment is put
/// back, so that at most the text and its printing are held (a data access of
/// 20,000 aggregates prints some 360 MB).
#[cfg(feature = "format")]
fn print(text: String, origin: &str) -> Result<String, CodegenError> {
    // Comments are not part of the syntax tree: keep the template's leading `//` header.
    let header = header_of(&text);
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
