//! The built-in `cosmap.rs`, written straight from the view ([`RustView`]): its one
//! writer. An override of `cosmap.rs.hbs` renders from the same view through
//! handlebars (feature `templates`).
//!
//! Each function writes one part of the file, named after it; `Out::line` writes
//! the pieces of one line and its line break, `Out::lines` text of its own. The text
//! is written as it is: its lines are not broken to a width (a crate that wants it
//! formatted runs `prettyplease` or rustfmt over it, as [`crate::format_rust`] does).

use super::codecs::CodecView;
use super::view::{ContainerView, DocView, FieldView, RefView, RustView, StructView};

/// Text the writer writes as it is, any number of whole lines.
#[derive(Clone, Copy)]
struct Lines(&'static str);

impl Lines {
    /// `text`, whole lines.
    const fn of(text: &'static str) -> Lines {
        Lines(text)
    }
}

/// The text being written.
struct Out {
    out: String,
}

impl Out {
    /// An empty text of `capacity` bytes.
    fn new(capacity: usize) -> Out {
        Out {
            out: String::with_capacity(capacity),
        }
    }

    /// Appends `text` as it is.
    fn text(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// Appends `lines` as they are.
    fn lines(&mut self, lines: Lines) {
        self.out.push_str(lines.0);
    }

    /// Appends one line: `parts` one after the other, then a line break.
    fn line(&mut self, parts: &[&str]) {
        for part in parts {
            self.out.push_str(part);
        }
        self.out.push('\n');
    }

    /// Appends a constructor's signature, `pub fn new(p: T, …) -> Self {`, indented
    /// `indent`: on one line with one parameter at most, else one parameter a line.
    fn constructor<'a>(&mut self, indent: usize, params: impl ExactSizeIterator<Item = (&'a str, &'a str)>) {
        // A document with many required values takes them all: clippy's limit on
        // arguments is allowed on this one function, not on the module.
        if params.len() > 7 {
            crate::spaces::push_spaces(&mut self.out, indent);
            self.out.push_str("#[allow(clippy::too_many_arguments)]\n");
        }
        crate::spaces::push_spaces(&mut self.out, indent);
        self.out.push_str("pub fn new(");
        let one_line = params.len() <= 1;
        for (name, ty) in params {
            if !one_line {
                self.out.push('\n');
                crate::spaces::push_spaces(&mut self.out, indent + 4);
            }
            for part in [name, ": ", ty] {
                self.out.push_str(part);
            }
            if !one_line {
                self.out.push(',');
            }
        }
        if !one_line {
            self.out.push('\n');
            crate::spaces::push_spaces(&mut self.out, indent);
        }
        self.out.push_str(") -> Self {\n");
    }

    /// Appends a match arm `Type::Variant(binding) => expr,` indented `indent`.
    fn arm(&mut self, indent: usize, path: [&str; 2], binding: &str, expr: &str) {
        crate::spaces::push_spaces(&mut self.out, indent);
        self.line(&[path[0], "::", path[1], "(", binding, ") => ", expr, ","]);
    }
}

/// Whether handlebars' `{{#if}}` takes an optional string as true: present and not empty.
fn given(value: &Option<String>) -> bool {
    value.as_deref().is_some_and(|v| !v.is_empty())
}

/// The text of `cosmap.rs` for `view`.
pub fn rust(view: &RustView) -> String {
    let structs =
        view.shared.len() + view.references.len() + view.containers.iter().map(|c| c.documents.len()).sum::<usize>();
    let mut text = String::with_capacity(structs * BYTES_PER_STRUCT + CODEC_HELPERS.len());
    let collected: Result<(), std::convert::Infallible> = rust_into(view, &mut |piece| {
        text.push_str(piece);
        Ok(())
    });
    match collected {
        Ok(()) => text,
    }
}

/// The text of `cosmap.rs` for `view` handed to `each` a piece at a time: the header,
/// each struct of the types module, then each container's module, so that only one
/// piece's text is held.
pub fn rust_into<E>(view: &RustView, each: &mut dyn FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let mut out = Out::new(BYTES_PER_STRUCT + CODEC_HELPERS.len());
    header(&mut out, view);
    types_module(&mut out, view, each)?;
    for c in &view.containers {
        out.out.reserve(c.documents.len() * BYTES_PER_STRUCT);
        container(&mut out, view, c);
        flush(&mut out, each)?;
    }
    Ok(())
}

/// Hands the text written so far to `each`, and starts the next piece.
fn flush<E>(out: &mut Out, each: &mut dyn FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    each(&out.out)?;
    out.out.clear();
    Ok(())
}

/// Room reserved per struct of the view (a document type with its enum arms and
/// impls): the synthetic and fuzzed models write 3.1 to 3.5 KiB a struct. Too little
/// doubles the whole text once it is nearly written; too much costs nothing but
/// address space, as pages never written are never touched.
const BYTES_PER_STRUCT: usize = 4096;

fn header(out: &mut Out, view: &RustView) {
    out.line(&[
        "// Generated by cosmap from the model `",
        &view.model,
        "`. Do not edit: change the model and regenerate.",
    ]);
    out.lines(const { Lines::of("//\n// One module per Cosmos DB container, holding a struct per document type, an enum\n// over them, and the container's name and partition key path; value objects,\n") });
    out.line(&[
        "// reference data snapshots and references live in `",
        &view.types_module,
        "`.",
    ]);
    out.lines(const { Lines::of("\n") });
}

/// `types`: the codecs, the shared structs and the references, each handed to
/// `each` once written (its closing brace left in `out`).
fn types_module<E>(out: &mut Out, view: &RustView, each: &mut dyn FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    out.lines(const { Lines::of("/// Embedded value objects, reference data snapshots and references to aggregate roots.\n") });
    out.line(&["pub mod ", &view.types_module, " {"]);
    if !view.codecs.is_empty() {
        out.lines(const { Lines::of(CODEC_TRAIT) });
        for c in &view.codecs {
            codec(out, c);
        }
        out.lines(const { Lines::of(CODEC_HELPERS) });
    }
    for s in &view.shared {
        shared_struct(out, view, s);
        flush(out, each)?;
    }
    for r in &view.references {
        reference(out, view, r);
        flush(out, each)?;
    }
    out.lines(const { Lines::of("}\n") });
    Ok(())
}

/// One `impl Canonical for …` of the `codec` module.
fn codec(out: &mut Out, c: &CodecView) {
    out.line(&["        /// `", &c.mapping, "`."]);
    out.line(&["        impl Canonical for ", c.ty, " {"]);
    out.lines(const { Lines::of("            fn write(\n                &self,\n            ) -> ::core::result::Result<::std::string::String, ::std::string::String> {\n") });
    out.line(&["                ", c.write]);
    out.lines(const { Lines::of("            }\n            fn read(text: &str) -> ::core::result::Result<Self, ::std::string::String> {\n") });
    out.line(&["                ", c.read]);
    out.lines(const { Lines::of("            }\n        }\n") });
}

/// A value object, snapshot or subset item struct, and its `From` the document it copies.
fn shared_struct(out: &mut Out, view: &RustView, s: &StructView) {
    out.line(&["    /// ", &s.doc]);
    out.lines(const { Lines::of("    #[derive(\n") });
    out.text(&view.derive_lines);
    if s.default && !s.has_defaults {
        out.lines(const { Lines::of(",\n        ::core::default::Default") });
    }
    out.lines(const { Lines::of("\n    )]\n    #[serde(rename_all = \"camelCase\")]\n") });
    for a in &s.attributes {
        out.line(&["    ", a]);
    }
    out.line(&["    pub struct ", &s.name, " {"]);
    for f in &s.fields {
        field(out, f, Field::Full);
    }
    out.lines(const { Lines::of("    }\n") });
    if s.has_defaults {
        defaults(out, &s.name, &s.fields);
        if s.default {
            default_by_hand(out, &s.name, &s.fields);
        }
    }
    if let Some(of) = &s.snapshot_of {
        out.line(&["    impl ::core::convert::From<&", &of.source, "> for ", &s.name, " {"]);
        out.lines(const { Lines::of("        /// Builds it from the document it copies (the reference data, or the child).\n") });
        out.line(&["        fn from(source: &", &of.source, ") -> Self {"]);
        out.line(&["            ", &s.name, " {"]);
        out.line(&[
            "                ",
            &of.identity,
            ": ::core::clone::Clone::clone(&source.id),",
        ]);
        for f in &of.fields {
            out.line(&["                ", f, ": ::core::clone::Clone::clone(&source.", f, "),"]);
        }
        out.lines(const { Lines::of("            }\n        }\n    }\n") });
    }
}

/// Which of a field's attributes a struct's template writes.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    /// A shared struct's or document type's field: every attribute.
    Full,
    /// An extended reference's copied attribute: no `computed` default, no user attributes.
    Reference,
    /// A partition key level: the rename and the user's attributes only.
    Key,
}

/// One field at a struct's field indentation (8), with its doc comment and attributes.
fn field(out: &mut Out, f: &FieldView, kind: Field) {
    out.line(&["        /// ", &f.doc]);
    if f.rename {
        out.line(&["        #[serde(rename = \"", &f.json_name, "\")]"]);
    }
    if kind != Field::Key {
        if f.optional {
            out.lines(const { Lines::of("        #[serde(default, skip_serializing_if = \"::core::option::Option::is_none\")]\n") });
        }
        if f.list {
            out.lines(const { Lines::of("        #[serde(default)]\n") });
        }
        if kind == Field::Full && f.computed {
            out.lines(const { Lines::of("        #[serde(default)]\n") });
        }
        if let Some(d) = &f.default {
            out.line(&["        #[serde(default = \"", &d.path, "\")]"]);
        }
        if given(&f.serde_with) {
            out.line(&[
                "        #[serde(with = \"",
                f.serde_with.as_deref().unwrap_or_default(),
                "\")]",
            ]);
        }
        if given(&f.schema_with) {
            out.line(&[
                "        #[schemars(with = \"",
                f.schema_with.as_deref().unwrap_or_default(),
                "\")]",
            ]);
        }
    }
    if kind != Field::Reference {
        for a in &f.attributes {
            out.line(&["        ", a]);
        }
    }
    out.line(&["        pub ", &f.ident, ": ", &f.ty, ","]);
}

/// The `impl` of struct `name`'s default functions: what each field with a model
/// default reads as in a document written without it.
fn defaults(out: &mut Out, name: &str, fields: &[FieldView]) {
    out.line(&["    impl ", name, " {"]);
    for f in fields {
        let Some(d) = &f.default else { continue };
        out.line(&[
            "        /// What `",
            &f.json_name,
            "` reads as in a document written without it: the model's default, `",
            &d.json,
            "`.",
        ]);
        out.line(&["        pub fn ", &d.function, "() -> ", &f.ty, " {"]);
        out.line(&["            ", &d.value]);
        out.lines(const { Lines::of("        }\n") });
    }
    out.lines(const { Lines::of("    }\n") });
}

/// `Default` of a value object with model defaults: those fields take them, the
/// others their type's own.
fn default_by_hand(out: &mut Out, name: &str, fields: &[FieldView]) {
    out.line(&["    impl ::core::default::Default for ", name, " {"]);
    out.lines(const { Lines::of("        fn default() -> Self {\n") });
    out.line(&["            ", name, " {"]);
    for f in fields {
        match &f.default {
            Some(d) => out.line(&["                ", &f.ident, ": ", &d.path, "(),"]),
            None => out.line(&["                ", &f.ident, ": ::core::default::Default::default(),"]),
        }
    }
    out.lines(const { Lines::of("            }\n        }\n    }\n") });
}

/// A reference struct: its constructor (a plain reference) and its `From` the target document.
fn reference(out: &mut Out, view: &RustView, r: &RefView) {
    out.line(&[
        "    /// A reference to `",
        r.target,
        "` in container `",
        r.container,
        "`: its id and partition key value, enough for a point read",
        &if r.fields.is_empty() {
            String::new()
        } else {
            format!(
                ", and the attributes read through it (an extended reference: build it from the `{}` with `From`, kept current from the change feed)",
                r.target
            )
        },
        ".",
    ]);
    out.lines(const { Lines::of("    #[derive(\n") });
    out.text(&view.derive_lines);
    out.lines(const { Lines::of("\n    )]\n    #[serde(rename_all = \"camelCase\")]\n") });
    out.line(&["    pub struct ", &r.name, " {"]);
    out.line(&["        /// The `", r.target, "`'s `id`."]);
    out.lines(const { Lines::of("        pub id: ::std::string::String,\n") });
    out.line(&[
        "        /// The `",
        r.target,
        "`'s partition key value",
        if r.levels {
            ": one per level of its hierarchical key"
        } else {
            ""
        },
        ".",
    ]);
    out.line(&["        pub partition_key: ", &r.key_type, ","]);
    for f in &r.fields {
        field(out, f, Field::Reference);
    }
    out.lines(const { Lines::of("    }\n") });
    if r.has_defaults {
        defaults(out, &r.name, &r.fields);
    }
    if r.fields.is_empty() {
        reference_constructor(out, r);
    }
    out.line(&["    impl ::core::convert::From<&", &r.document, "> for ", &r.name, " {"]);
    out.lines(const { Lines::of("        /// A reference to this document.\n") });
    out.line(&["        fn from(document: &", &r.document, ") -> Self {"]);
    out.line(&["            ", &r.name, " {"]);
    out.lines(const { Lines::of("                id: ::core::clone::Clone::clone(&document.id),\n                partition_key: document.partition_key(),\n") });
    for f in &r.fields {
        out.line(&[
            "                ",
            &f.ident,
            ": ::core::clone::Clone::clone(&document.",
            &f.ident,
            "),",
        ]);
    }
    out.lines(const { Lines::of("            }\n        }\n    }\n") });
}

/// `new` of a plain reference: from an id and, unless the id gives it, the partition key value.
fn reference_constructor(out: &mut Out, r: &RefView) {
    const INTO_STRING: &str = "impl ::core::convert::Into<::std::string::String>";
    out.line(&["    impl ", &r.name, " {"]);
    if r.levels {
        out.line(&[
            "        /// A reference to the `",
            r.target,
            "` with this id, whose partition key value",
        ]);
        out.lines(const { Lines::of("        /// (one per level of its hierarchical key) is `partition_key`.\n") });
        out.line(&[
            "        pub fn new(id: ",
            INTO_STRING,
            ", partition_key: ",
            &r.key_type,
            ") -> Self {",
        ]);
        out.line(&["            ", &r.name, " {"]);
        out.lines(const { Lines::of("                id: ::core::convert::Into::into(id),\n                partition_key,\n            }\n        }\n") });
    } else if given(&r.by_property) {
        out.line(&[
            "        /// A reference to the `",
            r.target,
            "` with this id, whose partition key value",
        ]);
        out.line(&[
            "        /// (its `",
            r.by_property.as_deref().unwrap_or_default(),
            "`) is `partition_key`.",
        ]);
        out.line(&[
            "        pub fn new(id: ",
            INTO_STRING,
            ", partition_key: ",
            INTO_STRING,
            ") -> Self {",
        ]);
        out.line(&["            ", &r.name, " {"]);
        out.lines(const { Lines::of("                id: ::core::convert::Into::into(id),\n                partition_key: ::core::convert::Into::into(partition_key),\n            }\n        }\n") });
    } else {
        out.line(&["        /// A reference to the `", r.target, "` with this id."]);
        out.line(&["        pub fn new(id: ", INTO_STRING, ") -> Self {"]);
        out.lines(
            const { Lines::of("            let id: ::std::string::String = ::core::convert::Into::into(id);\n") },
        );
        out.line(&["            ", &r.name, " {"]);
        if given(&r.constant) {
            out.lines(const { Lines::of("                id,\n") });
            out.line(&[
                "                partition_key: ::std::string::String::from(\"",
                r.constant.as_deref().unwrap_or_default(),
                "\"),",
            ]);
        } else {
            out.lines(
                const {
                    Lines::of("                partition_key: ::core::clone::Clone::clone(&id),\n                id,\n")
                },
            );
        }
        out.lines(const { Lines::of("            }\n        }\n") });
    }
    out.lines(const { Lines::of("    }\n") });
}

/// `a, b`: `items` quoted by `quote` and separated by `separator`.
fn joined(items: &[String], separator: &str, quote: &str) -> String {
    let mut text = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            text.push_str(separator);
        }
        text.push_str(quote);
        text.push_str(item);
        text.push_str(quote);
    }
    text
}

/// One container's module: constants, `kind` enums, document types, the enum over them.
fn container(out: &mut Out, view: &RustView, c: &ContainerView) {
    out.line(&[
        "/// Container `",
        c.name,
        "`, partitioned by ",
        &joined(&c.partition_key_paths, ", then ", "`"),
        ".",
    ]);
    // Named after its container, whatever module the crate includes it in (a module
    // `unique_claims` around the file of a model with `UniqueClaims`).
    out.lines(const { Lines::of("#[allow(clippy::module_inception)]\n") });
    out.line(&["pub mod ", &c.module, " {"]);
    out.lines(const { Lines::of("    /// The container's id.\n") });
    out.line(&["    pub const CONTAINER: &str = \"", c.name, "\";"]);
    out.line(&[
        "    /// The container's partition key path",
        if c.hierarchical {
            " (the first level of its hierarchical key)"
        } else {
            ""
        },
        ".",
    ]);
    out.line(&[
        "    pub const PARTITION_KEY_PATH: &str = \"",
        &c.partition_key_path,
        "\";",
    ]);
    out.lines(const { Lines::of("    /// The container's partition key paths, first level first (more than one: a\n    /// hierarchical key).\n") });
    out.line(&[
        "    pub const PARTITION_KEY_PATHS: &[&str] = &[",
        &joined(&c.partition_key_paths, ", ", "\""),
        "];",
    ]);
    out.lines(const { Lines::of("    /// The `type` discriminators: each serialises as its document type's `type`\n    /// value and accepts no other.\n    #[allow(clippy::module_inception)]\n    pub mod kind {\n") });
    for d in &c.documents {
        kind_enum(out, view, d);
    }
    out.lines(const { Lines::of("    }\n") });
    for d in &c.documents {
        document(out, view, d);
    }
    container_enum(out, c);
    out.lines(const { Lines::of("}\n") });
}

/// The `kind` enum of document type `d`: its `type` value.
fn kind_enum(out: &mut Out, view: &RustView, d: &DocView) {
    out.line(&["        /// `type` of `", d.name, "`: `\"", d.discriminator, "\"`."]);
    out.lines(const { Lines::of("        #[derive(\n") });
    out.text(&view.kind_derive_lines);
    out.lines(const { Lines::of("\n        )]\n") });
    out.line(&["        pub enum ", d.name, " {"]);
    out.line(&["            /// `\"", d.discriminator, "\"`"]);
    out.lines(const { Lines::of("            #[default]\n") });
    out.line(&["            #[serde(rename = \"", d.discriminator, "\")]"]);
    out.line(&["            ", d.name, ","]);
    out.lines(const { Lines::of("        }\n") });
}

/// A document type's struct, its `impl` (constructor, partition key, bucket window)
/// and, for a copy, its `From` the source.
fn document(out: &mut Out, view: &RustView, d: &DocView) {
    out.line(&["    /// ", &d.doc]);
    out.lines(const { Lines::of("    #[derive(\n") });
    out.text(&view.derive_lines);
    out.lines(const { Lines::of("\n    )]\n    #[serde(rename_all = \"camelCase\")]\n") });
    for a in &d.attributes {
        out.line(&["    ", a]);
    }
    out.line(&["    pub struct ", d.name, " {"]);
    out.lines(
        const {
            Lines::of("        /// Document id, unique within the partition.\n        pub id: ::std::string::String,\n")
        },
    );
    out.line(&["        /// Document type discriminator, `\"", d.discriminator, "\"`."]);
    out.line(&["        pub r#type: kind::", d.name, ","]);
    if let Some(f) = &d.partition_key_field {
        field(out, f, Field::Key);
    }
    for f in &d.sub_key_fields {
        field(out, f, Field::Key);
    }
    for f in &d.fields {
        field(out, f, Field::Full);
    }
    out.lines(const { Lines::of(SYSTEM_FIELDS) });
    if d.has_defaults {
        defaults(out, d.name, &d.fields);
    }
    document_impl(out, d);
    if let Some(copy) = &d.copy {
        out.line(&["    impl ::core::convert::From<&", &copy.source, "> for ", d.name, " {"]);
        out.lines(
            const { Lines::of("        /// Builds the copy kept in this container from its source document.\n") },
        );
        out.line(&["        fn from(source: &", &copy.source, ") -> Self {"]);
        out.line(&["            ", d.name, " {"]);
        out.lines(const { Lines::of("                id: ::core::clone::Clone::clone(&source.id),\n                r#type: ::core::default::Default::default(),\n                etag: ::core::option::Option::None,\n                ts: ::core::option::Option::None,\n") });
        let key = d.partition_key_field.as_ref().map_or("", |f| &*f.ident);
        out.line(&["                ", key, ": ", &copy.pk_init, ","]);
        for f in &copy.fields {
            out.line(&["                ", f, ": ::core::clone::Clone::clone(&source.", f, "),"]);
        }
        out.lines(const { Lines::of("            }\n        }\n    }\n") });
    }
}

/// The `_etag` and `_ts` fields every document type ends with, and the struct's end.
const SYSTEM_FIELDS: &str = r#"        /// The version Cosmos DB gave the document (`_etag`), for optimistic concurrency:
        /// kept when read, not written when `None`.
        #[serde(
            rename = "_etag",
            default,
            skip_serializing_if = "::core::option::Option::is_none"
        )]
        pub etag: ::core::option::Option<::std::string::String>,
        /// When Cosmos DB last wrote the document (`_ts`, seconds since the Unix epoch):
        /// kept when read, not written when `None`.
        #[serde(
            rename = "_ts",
            default,
            skip_serializing_if = "::core::option::Option::is_none"
        )]
        pub ts: ::core::option::Option<i64>,
    }
"#;

/// `impl Document`: `TYPE`, `new`, `partition_key` and a bucket's window.
fn document_impl(out: &mut Out, d: &DocView) {
    out.line(&["    impl ", d.name, " {"]);
    out.lines(const { Lines::of("        /// The `type` value of this document type.\n") });
    out.line(&["        pub const TYPE: &'static str = \"", d.discriminator, "\";"]);
    out.line(&[
        "        /// Builds a `",
        d.name,
        "` from its required values",
        if d.pk_from_id {
            " (its partition key value is its `id`)"
        } else {
            ""
        },
        if d.id_is_type {
            " (its `id` is its `type`: one claim of a value per partition)"
        } else {
            ""
        },
        if d.bucket.is_some() {
            " (its `id` is its window, see [`Self::window_of`]; `window` takes the same value)"
        } else {
            ""
        },
        if d.has_defaults {
            ": optional values are `None`, lists empty and values with a model default take it."
        } else {
            ": optional values are `None` and lists empty."
        },
    ]);
    // Followed by a `let`: the layout of the line does not depend on the next.
    out.constructor(8, d.params.iter().map(|p| (&*p.ident, &*p.ty)));
    if d.id_is_type {
        out.lines(const { Lines::of("            let id = ::std::string::String::from(Self::TYPE);\n") });
    } else {
        out.lines(
            const { Lines::of("            let id: ::std::string::String = ::core::convert::Into::into(id);\n") },
        );
    }
    out.line(&["            ", d.name, " {"]);
    for i in &d.inits {
        if i.value == i.ident {
            out.line(&["                ", &i.ident, ","]);
        } else {
            out.line(&["                ", &i.ident, ": ", &i.value, ","]);
        }
    }
    out.lines(const { Lines::of("            }\n        }\n") });
    if d.sub_key_fields.is_empty() {
        out.lines(const { Lines::of("        /// The partition key value, for point reads and writes: an owned `String`, which\n        /// the Azure SDK takes as a partition key (`impl Into<PartitionKey>`) as it is.\n") });
    } else {
        out.lines(const { Lines::of("        /// The partition key value, for point reads and writes: a tuple of its levels' values,\n        /// which the Azure SDK takes as a hierarchical partition key (`impl Into<PartitionKey>`) as it is.\n") });
    }
    out.lines(const { Lines::of("        #[allow(clippy::misnamed_getters)]\n") });
    out.line(&["        pub fn partition_key(&self) -> ", &d.key_type, " {"]);
    out.line(&["            ", &d.key_value]);
    out.lines(const { Lines::of("        }\n") });
    if let Some(b) = &d.bucket {
        out.line(&[
            "        /// How many characters of a `",
            &b.time,
            "` (its UTC RFC 3339 text) name its ",
            &b.window,
            ":",
        ]);
        out.lines(const { Lines::of("        /// the bucket's `id` and `window`.\n") });
        out.line(&["        pub const WINDOW_LENGTH: usize = ", &b.length.to_string(), ";"]);
        out.line(&[
            "        /// The ",
            &b.window,
            " a `",
            &b.time,
            "` falls in, the id of its bucket: the first",
        ]);
        out.lines(const { Lines::of("        /// [`Self::WINDOW_LENGTH`] characters of its UTC RFC 3339 text.\n        pub fn window_of(time: &str) -> &str {\n            time.get(..Self::WINDOW_LENGTH).unwrap_or(time)\n        }\n") });
    }
    out.lines(const { Lines::of("    }\n") });
}

/// The enum over a container's document types, its accessors, `From`s and serde impls.
fn container_enum(out: &mut Out, c: &ContainerView) {
    let e = c.enum_name.as_str();
    out.line(&[
        "    /// Any document of container `",
        c.name,
        "`, told apart by its `type`; a query over",
    ]);
    out.lines(const { Lines::of("    /// a mixed partition deserialises each item into the right variant.\n    #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]\n") });
    // Each variant holds a whole document, of whatever size its type has: boxing them
    // would change every match, so clippy's size lint is allowed on this enum alone.
    if c.documents.len() > 1 {
        out.lines(const { Lines::of("    #[allow(clippy::large_enum_variant)]\n") });
    }
    out.line(&["    pub enum ", e, " {"]);
    for d in &c.documents {
        out.line(&[
            "        /// A document of type `",
            d.name,
            "` (`type` `\"",
            d.discriminator,
            "\"`).",
        ]);
        out.line(&["        ", d.name, "(", d.name, "),"]);
    }
    out.lines(const { Lines::of("    }\n") });
    out.line(&["    impl ", e, " {"]);
    out.lines(const { Lines::of("        /// The document's partition key value, as the Azure SDK takes it.\n") });
    out.line(&["        pub fn partition_key(&self) -> ", &c.key_type, " {"]);
    out.lines(const { Lines::of("            match self {\n") });
    for d in &c.documents {
        out.arm(16, [e, d.name], "document", "document.partition_key()");
    }
    out.lines(const { Lines::of("            }\n        }\n        /// The document's id.\n        pub fn id(&self) -> &str {\n            match self {\n") });
    for d in &c.documents {
        out.arm(16, [e, d.name], "document", "&document.id");
    }
    out.lines(const { Lines::of("            }\n        }\n    }\n") });
    for d in &c.documents {
        out.line(&["    impl ::core::convert::From<", d.name, "> for ", e, " {"]);
        out.line(&["        fn from(document: ", d.name, ") -> Self {"]);
        out.line(&["            ", e, "::", d.name, "(document)"]);
        out.lines(const { Lines::of("        }\n    }\n") });
    }
    out.line(&["    impl ::serde::Serialize for ", e, " {"]);
    out.lines(const { Lines::of("        fn serialize<S: ::serde::Serializer>(\n            &self,\n            serializer: S,\n        ) -> ::core::result::Result<S::Ok, S::Error> {\n            match self {\n") });
    for d in &c.documents {
        out.arm(
            16,
            [e, d.name],
            "document",
            "::serde::Serialize::serialize(document, serializer)",
        );
    }
    out.lines(const { Lines::of("            }\n        }\n    }\n") });
    out.line(&["    impl<'de> ::serde::Deserialize<'de> for ", e, " {"]);
    out.lines(const { Lines::of(DESERIALIZE_START) });
    for d in &c.documents {
        out.line(&[
            "                ::core::option::Option::Some(\"",
            d.discriminator,
            "\") => {",
        ]);
        out.lines(const { Lines::of("                    ::serde_json::from_value(value)\n") });
        out.line(&["                        .map(", e, "::", d.name, ")"]);
        out.lines(const { Lines::of("                        .map_err(D::Error::custom)\n                }\n") });
    }
    out.lines(const { Lines::of("                ::core::option::Option::Some(other) => {\n                    ::core::result::Result::Err(\n                        D::Error::custom(\n                            ::std::format!(\n") });
    out.line(&[
        "                                \"unknown document type `{other}` in container `",
        c.name,
        "`\"",
    ]);
    out.lines(const { Lines::of(DESERIALIZE_END) });
}

/// The enum's `deserialize` up to the arms of its document types.
const DESERIALIZE_START: &str = r#"        fn deserialize<D: ::serde::Deserializer<'de>>(
            deserializer: D,
        ) -> ::core::result::Result<Self, D::Error> {
            use ::serde::de::Error as _;
            let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(
                deserializer,
            )?;
            let discriminator = value
                .get("type")
                .and_then(::serde_json::Value::as_str)
                .map(::std::string::String::from);
            match discriminator.as_deref() {
"#;

/// The enum's `deserialize` after the unknown type's message, and the `impl`'s end.
const DESERIALIZE_END: &str = r#"                            ),
                        ),
                    )
                }
                ::core::option::Option::None => {
                    ::core::result::Result::Err(
                        D::Error::custom("the document has no string `type` property"),
                    )
                }
            }
        }
    }
"#;

/// The start of the `codec` module, up to the codecs' implementations.
const CODEC_TRAIT: &str = r#"    /// Canonical text forms of the mapped attribute types: one form per value, so
    /// equal values are equal strings, and date-times and dates (years 0000-9999)
    /// sort as strings in time order.
    pub mod codec {
        /// A type with one canonical text form.
        pub trait Canonical: ::core::marker::Sized {
            /// The canonical text of the value.
            fn write(
                &self,
            ) -> ::core::result::Result<::std::string::String, ::std::string::String>;
            /// The value that `text` spells.
            fn read(text: &str) -> ::core::result::Result<Self, ::std::string::String>;
        }
"#;

/// The rest of the `codec` module, after the codecs' implementations: the text
/// helpers and the `#[serde(with)]` modules (the closing brace included).
const CODEC_HELPERS: &str = r#"        /// `YYYY-MM-DDThh:mm:ss.fffffffZ`: UTC, 100 ns precision (Cosmos DB's own form).
        #[allow(dead_code)]
        fn date_time_text(
            year: i32,
            month: u32,
            day: u32,
            hour: u32,
            minute: u32,
            second: u32,
            nanosecond: u32,
        ) -> ::core::result::Result<::std::string::String, ::std::string::String> {
            let date = date_text(year, month, day)?;
            let ticks = nanosecond.min(999_999_999) / 100;
            ::core::result::Result::Ok(
                ::std::format!("{date}T{hour:02}:{minute:02}:{second:02}.{ticks:07}Z"),
            )
        }
        /// `YYYY-MM-DD`, for years 0000-9999 (the years whose text sorts in order).
        #[allow(dead_code)]
        fn date_text(
            year: i32,
            month: u32,
            day: u32,
        ) -> ::core::result::Result<::std::string::String, ::std::string::String> {
            if !(0..=9999).contains(&year) {
                return ::core::result::Result::Err(
                    ::std::format!(
                        "year {year} is outside 0000-9999, the years written in sortable text"
                    ),
                );
            }
            ::core::result::Result::Ok(::std::format!("{year:04}-{month:02}-{day:02}"))
        }
        /// Year, month and day of `YYYY-MM-DD` text.
        #[allow(dead_code)]
        fn date_parts(
            text: &str,
        ) -> ::core::result::Result<(i32, u32, u32), ::std::string::String> {
            let bytes = text.as_bytes();
            let shape = bytes.len() == 10
                && bytes
                    .iter()
                    .enumerate()
                    .all(|(i, b)| {
                        if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() }
                    });
            let number = |range: ::core::ops::Range<usize>| {
                text.get(range).and_then(|t| t.parse::<u32>().ok())
            };
            match (shape, number(0..4), number(5..7), number(8..10)) {
                (
                    true,
                    ::core::option::Option::Some(year),
                    ::core::option::Option::Some(month),
                    ::core::option::Option::Some(day),
                ) => {
                    ::core::result::Result::Ok((
                        i32::try_from(year).unwrap_or_default(),
                        month,
                        day,
                    ))
                }
                _ => {
                    ::core::result::Result::Err(
                        ::std::format!("`{text}` is not a YYYY-MM-DD date"),
                    )
                }
            }
        }
        /// A model `default` of a mapped type: its text, which the model's validation
        /// checked, read as the value.
        #[allow(dead_code)]
        pub fn default_of<T: Canonical>(text: &str) -> T {
            match T::read(text) {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(e) => {
                    ::core::panic!("the model's default `{text}` does not read: {e}")
                }
            }
        }
        struct Ref<'a, T>(&'a T);
        impl<T: Canonical> ::serde::Serialize for Ref<'_, T> {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                let text = self
                    .0
                    .write()
                    .map_err(<S::Error as ::serde::ser::Error>::custom)?;
                serializer.serialize_str(&text)
            }
        }
        struct Owned<T>(T);
        impl<'de, T: Canonical> ::serde::Deserialize<'de> for Owned<T> {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let text = <::std::string::String as ::serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                T::read(&text)
                    .map(Owned)
                    .map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
        /// `#[serde(with)]` for a required value.
        pub mod one {
            use super::{Canonical, Owned, Ref};
            /// Writes the canonical text.
            pub fn serialize<T: Canonical, S: ::serde::Serializer>(
                value: &T,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                ::serde::Serialize::serialize(&Ref(value), serializer)
            }
            /// Reads the text.
            pub fn deserialize<'de, T: Canonical, D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<T, D::Error> {
                <Owned<T> as ::serde::Deserialize>::deserialize(deserializer)
                    .map(|o| o.0)
            }
        }
        /// `#[serde(with)]` for an optional value.
        pub mod option {
            use super::{Canonical, Owned, Ref};
            /// Writes the canonical text, or `null`.
            pub fn serialize<T: Canonical, S: ::serde::Serializer>(
                value: &::core::option::Option<T>,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                match value {
                    ::core::option::Option::Some(value) => {
                        serializer.serialize_some(&Ref(value))
                    }
                    ::core::option::Option::None => serializer.serialize_none(),
                }
            }
            /// Reads the text, or `null`.
            pub fn deserialize<'de, T: Canonical, D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<::core::option::Option<T>, D::Error> {
                <::core::option::Option<
                    Owned<T>,
                > as ::serde::Deserialize>::deserialize(deserializer)
                    .map(|o| o.map(|o| o.0))
            }
        }
        /// `#[serde(with)]` for a list.
        pub mod many {
            use super::{Canonical, Owned, Ref};
            /// Writes each value's canonical text.
            pub fn serialize<T: Canonical, S: ::serde::Serializer>(
                values: &[T],
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.collect_seq(values.iter().map(Ref))
            }
            /// Reads each value's text.
            pub fn deserialize<'de, T: Canonical, D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<::std::vec::Vec<T>, D::Error> {
                <::std::vec::Vec<
                    Owned<T>,
                > as ::serde::Deserialize>::deserialize(deserializer)
                    .map(|v| v.into_iter().map(|o| o.0).collect())
            }
        }
        /// `#[serde(with)]` for an optional list.
        pub mod option_many {
            use super::{Canonical, Owned, Ref};
            /// Writes each value's canonical text, or `null`.
            pub fn serialize<T: Canonical, S: ::serde::Serializer>(
                values: &::core::option::Option<::std::vec::Vec<T>>,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                match values {
                    ::core::option::Option::Some(values) => {
                        serializer
                            .serialize_some(
                                &values.iter().map(Ref).collect::<::std::vec::Vec<_>>(),
                            )
                    }
                    ::core::option::Option::None => serializer.serialize_none(),
                }
            }
            /// Reads each value's text, or `null`.
            pub fn deserialize<'de, T: Canonical, D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<
                ::core::option::Option<::std::vec::Vec<T>>,
                D::Error,
            > {
                <::core::option::Option<
                    ::std::vec::Vec<Owned<T>>,
                > as ::serde::Deserialize>::deserialize(deserializer)
                    .map(|o| o.map(|v| v.into_iter().map(|o| o.0).collect()))
            }
        }
    }
"#;
