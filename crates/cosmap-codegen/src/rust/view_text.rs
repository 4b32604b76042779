//! The pieces of the Rust view that are Rust text: scalar and key types, the
//! constructors' parameters, the doc comments of references, embedded objects and
//! descriptions (escaped for rustdoc), defaults, and the fields' names made unique.

use std::borrow::Cow;
use std::collections::HashSet;

use cosmap_domain::{AttributeType, NameSet};
use cosmap_mapper::{Embedded, EmbeddedKind, LogicalModel, Property, Reference};

use super::names;
use super::view::*;
use crate::options::{Codec, TypeMapping};

/// How generated code spells `String`.
pub(crate) const STRING: &str = "::std::string::String";
pub(super) const INTO_STRING: &str = "impl ::core::convert::Into<::std::string::String>";
pub(super) const INTO: &str = "::core::convert::Into::into";

/// The Rust type of one value of attribute type `ty` under `mapping`, with the
/// built-in codec that writes its canonical text (if the mapping uses one).
pub(crate) fn scalar_type(mapping: &TypeMapping, ty: AttributeType) -> (&str, Option<Codec>) {
    match ty {
        AttributeType::String => (STRING, None),
        AttributeType::Integer => ("i64", None),
        AttributeType::Number => ("f64", None),
        AttributeType::Boolean => ("bool", None),
        AttributeType::Decimal => (&mapping.decimal, mapping.decimal_codec),
        AttributeType::DateTime => (&mapping.date_time, mapping.date_time_codec),
        AttributeType::Date => (&mapping.date, mapping.date_codec),
        AttributeType::Uuid => (&mapping.uuid, mapping.uuid_codec),
    }
}

/// The Rust type of a partition key value of `levels` levels: a `String`, or a tuple
/// of one per level (the Azure SDK takes either as a partition key).
pub(crate) fn key_type(levels: usize) -> String {
    if levels <= 1 {
        return STRING.to_string();
    }
    format!("({})", vec![STRING; levels].join(", "))
}

/// Where a constructor takes (a level of) the partition key value from.
#[derive(Clone, Copy)]
pub(super) enum PartitionKeySource<'f> {
    /// The document's `id` (partitioned by its own identity).
    Id,
    /// The `id` of the reference held in this field (partitioned by a reference).
    ReferenceId(&'f str),
    /// A parameter of its own.
    Parameter,
}

/// The parameters and field values of a document type's `new`: `id`, the
/// partition key value unless it is the id (then it is filled from it: one source
/// of truth) or a constant, and every required field; optional fields are `None`
/// and lists empty, so adding either to the model keeps calls to `new` compiling.
pub(super) fn constructor<'a>(
    keys: &[(&FieldView<'a>, PartitionKeySource<'_>)],
    fields: &[FieldView<'a>],
    id_param: bool,
) -> (Vec<ParamView<'a>>, Vec<InitView<'a>>) {
    // A field's identifier and type as the field holds them: cloning a borrowed one
    // copies no text.
    let param = |f: &FieldView<'a>| ParamView {
        ident: f.ident.clone(),
        ty: if f.ty == STRING {
            INTO_STRING.into()
        } else {
            f.ty.clone()
        },
    };
    let init = |f: &FieldView<'a>, value: Cow<'a, str>| InitView {
        ident: f.ident.clone(),
        value,
    };
    let mut params = Vec::new();
    if id_param {
        params.push(ParamView {
            ident: "id".into(),
            ty: INTO_STRING.into(),
        });
    }
    let mut inits = Vec::new();
    for (pk, source) in keys {
        match source {
            PartitionKeySource::Id => inits.push(init(pk, "::core::clone::Clone::clone(&id)".into())),
            // Initialised before the reference field is moved in.
            PartitionKeySource::ReferenceId(field) => inits.push(init(
                pk,
                concat(&["::core::clone::Clone::clone(&", field, ".id)"]).into(),
            )),
            PartitionKeySource::Parameter => {
                // A partition key level is a `String`.
                params.push(param(pk));
                inits.push(init(pk, concat(&[INTO, "(", &pk.ident, ")"]).into()));
            }
        }
    }
    for (ident, value) in [
        ("id", "id"),
        ("r#type", "::core::default::Default::default()"),
        ("etag", "::core::option::Option::None"),
        ("ts", "::core::option::Option::None"),
    ] {
        inits.push(InitView {
            ident: ident.into(),
            value: value.into(),
        });
    }
    for f in fields {
        let value: Cow<'a, str> = if f.computed {
            "0".into()
        } else if let Some(d) = &f.default {
            concat(&["Self::", &d.function, "()"]).into()
        } else if f.optional {
            "::core::option::Option::None".into()
        } else if f.list {
            "::std::vec::Vec::new()".into()
        } else {
            params.push(param(f));
            if f.ty == STRING {
                concat(&[INTO, "(", &f.ident, ")"]).into()
            } else {
                f.ident.clone()
            }
        };
        inits.push(init(f, value));
    }
    (params, inits)
}

pub(super) fn reference_doc(r: &Reference) -> String {
    if let Some(a) = &r.ancestry {
        return format!(
            "Every ancestor up `{}`, root first (at most {}), each a reference to `{}` in container `{}`; kept from the change feed.",
            a.parent, a.max, r.target, r.target_container
        );
    }
    let what = if r.many { "References" } else { "Reference" };
    let absent = if r.optional { " Absent when there is none." } else { "" };
    format!(
        "{what} to `{}` in container `{}`.{absent}",
        r.target, r.target_container
    )
}

/// The field of reference `r` of Rust type `ty`: a list, an option (an optional
/// `one`), or the reference itself.
pub(super) fn reference_field(r: &Reference, ty: String) -> FieldView<'_> {
    if r.optional && !r.many {
        return plain_field(
            &r.name,
            concat(&["::core::option::Option<", &ty, ">"]),
            true,
            reference_doc(r),
        );
    }
    container_field(&r.name, ty, r.many, reference_doc(r))
}

pub(super) fn embedded_doc(e: &Embedded) -> String {
    match (e.kind, e.many) {
        (EmbeddedKind::ValueObject, true) => format!(
            "Embedded `{}` list{}.",
            e.source,
            e.max.map(|m| format!(" (at most {m})")).unwrap_or_default()
        ),
        (EmbeddedKind::ValueObject, false) => concat(&["Embedded `", &e.source, "`."]),
        (EmbeddedKind::ReferenceData, _) => concat(&["Embedded snapshot of `", &e.source, "`."]),
        (EmbeddedKind::Subset, _) => format!(
            "The newest `{}`s (at most {}), kept from their own documents (`subset`).",
            e.source,
            e.max.unwrap_or_default()
        ),
    }
}

/// `parts` one after the other.
pub(super) fn concat(parts: &[&str]) -> String {
    parts.concat()
}

/// A model's `description` as one line of a doc comment (whitespace, line breaks
/// included, collapsed: a line break would end the comment).
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A model's `description` as one line of a doc comment that renders as the text it
/// is ([`one_line`], then [`push_doc_text`]'s escapes): no HTML, link or code span
/// of a description reaches the `cargo doc` page.
pub(super) fn doc_line(text: &str) -> String {
    let mut line = String::new();
    push_doc_text(&mut line, &one_line(text));
    line
}

/// `text` at the end of `out` as rustdoc Markdown shows it literally: `<`, `>` and
/// `&` as HTML entities (no tag, no autolink `<https://…>`, no entity of its own),
/// `` ` ``, `[`, `]` and `\` escaped with a backslash (no code span, link or image),
/// and `:` before `//` as `&#58;` (rustdoc warns of a bare URL, which
/// `cargo doc -D warnings` refuses).
pub(super) fn push_doc_text(out: &mut String, text: &str) {
    for (i, c) in text.char_indices() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '`' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ':' if text[i + 1..].starts_with("//") => out.push_str("&#58;"),
            _ => out.push(c),
        }
    }
}

/// ` {description}` after a generated sentence, or nothing ([`doc_line`]).
pub(super) fn described(description: Option<&str>) -> String {
    description.map(|d| format!(" {}", doc_line(d))).unwrap_or_default()
}

/// The field of JSON property `json`, of Rust type `ty`, with doc comment `doc`:
/// the name borrowed from the model, the type and doc borrowed when they are
/// `&str`s, taken as they are when already `String`s (never copied: a large model
/// has tens of thousands of fields).
pub(super) fn plain_field<'a>(
    json: &'a str,
    ty: impl Into<Cow<'a, str>>,
    optional: bool,
    doc: impl Into<Cow<'a, str>>,
) -> FieldView<'a> {
    let ident = names::field_of(json);
    let ty = ty.into();
    let rename = names::serde_camel(&ident) != json;
    FieldView {
        rename,
        ident,
        json_name: Cow::Borrowed(json),
        optional,
        list: !optional && ty.starts_with("::std::vec::Vec<"),
        ty,
        doc: doc.into(),
        serde_with: None,
        schema_with: None,
        attributes: Vec::new(),
        computed: false,
        default: None,
    }
}

/// A model default on an attribute whose type `mapping` maps to the user's own type
/// without a built-in codec: cosmap cannot spell such a value, so it refuses.
pub(super) fn unbuildable_default(model: &LogicalModel, mapping: &TypeMapping) -> Option<String> {
    // Each owner is spelled only for the message: the walk finds nothing almost always.
    type Owner<'o> = &'o dyn Fn() -> String;
    fn in_properties(owner: Owner, properties: &[Property], mapping: &TypeMapping) -> Option<String> {
        properties.iter().find_map(|p| {
            let (base, codec) = scalar_type(mapping, p.ty);
            (p.default.is_some() && codec.is_none() && !matches!(base, STRING | "i64" | "f64" | "bool")).then(|| {
                format!(
                    "`{}.{}` has a model `default`, and its type {} is mapped to your own type `{base}`, which cosmap cannot build a value of: map {} to a built-in codec (or to `String`), or remove the default",
                    owner(),
                    p.name,
                    p.ty.as_str(),
                    p.ty.as_str()
                )
            })
        })
    }
    fn in_embedded(owner: Owner, e: &Embedded, mapping: &TypeMapping) -> Option<String> {
        let owner = || format!("{}.{}", owner(), e.name);
        in_properties(&owner, &e.attributes, mapping)
            .or_else(|| e.embedded.iter().find_map(|inner| in_embedded(&owner, inner, mapping)))
            .or_else(|| in_references(&owner, &e.references, mapping))
    }
    fn in_references(owner: Owner, references: &[Reference], mapping: &TypeMapping) -> Option<String> {
        references.iter().find_map(|r| {
            let owner = || format!("{}.{}", owner(), r.name);
            r.extended
                .iter()
                .find_map(|x| in_properties(&owner, &x.attributes, mapping))
        })
    }
    model.containers.iter().flat_map(|c| &c.document_types).find_map(|d| {
        let owner = || d.name.clone();
        in_properties(&owner, &d.attributes, mapping)
            .or_else(|| d.embedded.iter().find_map(|e| in_embedded(&owner, e, mapping)))
            .or_else(|| in_references(&owner, &d.references, mapping))
    })
}

/// The Rust expression of model default `value` for a field of Rust type `base`:
/// a literal, or for a mapped type read through its codec (from the types module
/// `types`), whose text the model's validation checked.
pub(super) fn default_value(base: &str, codec_types: Option<&str>, value: &serde_json::Value) -> String {
    use serde_json::Value;
    match (value, codec_types) {
        (Value::String(text), Some(types)) => format!("super::{types}::codec::default_of({text:?})"),
        (Value::String(text), None) => format!("{STRING}::from({text:?})"),
        (Value::Bool(b), _) => b.to_string(),
        (Value::Number(n), _) if base == "f64" => format!("{:?}", n.as_f64().unwrap_or_default()),
        (other, _) => other.to_string(),
    }
}

/// Whether Rust type `ty`, as a field spells it, implements `Default`: the plain
/// types, and the mapped types that do (`time`'s do not).
pub(super) fn has_default(ty: &str) -> bool {
    const DEFAULTS: [&str; 8] = [
        "::std::string::String",
        "i64",
        "f64",
        "bool",
        "::chrono::DateTime<::chrono::Utc>",
        "::chrono::NaiveDate",
        "::uuid::Uuid",
        "::rust_decimal::Decimal",
    ];
    DEFAULTS.contains(&ty) || ty.starts_with("::std::vec::Vec<") || ty.starts_with("::core::option::Option<")
}

/// The field of JSON property `json` holding `ty` (taken as it is when one), or a
/// list of them when `many`.
pub(super) fn container_field<'a>(
    json: &'a str,
    ty: String,
    many: bool,
    doc: impl Into<Cow<'a, str>>,
) -> FieldView<'a> {
    let ty = if many {
        concat(&["::std::vec::Vec<", &ty, ">"])
    } else {
        ty
    };
    plain_field(json, ty, false, doc)
}

/// Makes field identifiers unique (two JSON names can share a snake_case form)
/// and rejects two fields with one JSON name; `reserved` are (JSON name, ident)
/// pairs the struct already uses; `owner` names the struct in the message.
pub(super) fn dedupe(
    fields: &mut [FieldView<'_>],
    reserved: &[(&str, &str)],
    owner: impl Fn() -> String,
) -> Result<(), String> {
    if let Some(i) = first_repeat(fields, reserved.iter().map(|(json, _)| *json), |f| &f.json_name) {
        return Err(format!(
            "`{}` would have two properties named `{}`",
            owner(),
            fields[i].json_name
        ));
    }
    // Each field in turn gets trailing `_`s until it differs from those before it.
    let mut idents: HashSet<String> = reserved.iter().map(|(_, ident)| ident.to_string()).collect();
    for f in fields.iter_mut() {
        while idents.contains(&*f.ident) {
            f.ident.to_mut().push('_');
            f.rename = true;
        }
        idents.insert(f.ident.to_string());
    }
    Ok(())
}

/// The index of the first field whose name (`name` of it: its JSON name or its
/// identifier) is one of the `reserved` names or an earlier field's.
pub(super) fn first_repeat<'n>(
    fields: &'n [FieldView<'_>],
    reserved: impl Iterator<Item = &'n str>,
    name: fn(&'n FieldView<'_>) -> &'n str,
) -> Option<usize> {
    let mut seen: NameSet<&str> = reserved.collect();
    fields.iter().position(|f| !seen.insert(name(f)))
}

/// The doc comment of the struct of embedded `e`: what it is, and its description.
pub(super) fn embedded_struct_doc(e: &Embedded) -> String {
    let what = match e.kind {
        EmbeddedKind::ValueObject => concat(&["Value object `", &e.source, "`, embedded in its parent's document."]),
        EmbeddedKind::ReferenceData => format!(
            "Snapshot of never-changing reference data `{}`, embedded where it is referenced.",
            e.source
        ),
        EmbeddedKind::Subset => format!(
            "One of the newest `{}`s, embedded in their parent (a subset: each is also its own document).",
            e.source
        ),
    };
    what + &described(e.description.as_deref())
}

/// How a snapshot or subset struct is built from `source` (a document type's path):
/// its first field the identity, the others copied.
pub(super) fn snapshot<'a>(source: String, fields: &[FieldView<'a>]) -> SnapshotView<'a> {
    SnapshotView {
        source,
        identity: fields.first().map(|f| f.ident.clone()).unwrap_or_default(),
        fields: fields.iter().skip(1).map(|f| f.ident.clone()).collect(),
    }
}
