//! The data the Rust template renders: every name already a valid, unique Rust
//! identifier and every type already spelled out, so the template only lays out.
//!
//! The view lives no longer than the model and type mapping it is built from (`'a`):
//! what it shows as they spell it (a property's JSON name, a document type's name and
//! discriminator, a reference's target, a scalar type, a fixed doc sentence) is
//! borrowed from them rather than copied, which spares tens of thousands of strings
//! on a large model. Borrowed strings serialise as owned ones do, so handlebars
//! templates see the same view.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::NameMap;
use cosmap_mapper::{
    ContainerKind, DocumentType, Embedded, EmbeddedKind, IdSource, LogicalModel, PartitionKeyValue, Property,
    Reference, Role,
};
use serde::Serialize;

use super::codecs::{self, CodecView};
use super::hooks;
use super::names;
use crate::options::TypeMapping;

use super::view_text::*;

mod keys;

use keys::{key_fields, key_sources, key_value, role_name, window_from_id};
// The view's text helpers that the data access and the crate name as the view's.
pub(crate) use super::view_text::{one_line, scalar_type, STRING};

/// Everything `cosmap.rs.hbs` needs.
#[derive(Debug, Serialize)]
pub struct RustView<'a> {
    /// The model's name.
    pub model: String,
    /// The derives every document and struct takes, on one line (`Debug, Clone, …`).
    pub derives: String,
    /// The derives one a line at a struct's indentation (4), as `prettyplease` breaks
    /// the attribute (always: it is longer than a line), without a trailing comma.
    pub derive_lines: String,
    /// The `kind` enums' derives (the above, `Copy`, `Eq` and `Default`) one a line at
    /// their indentation (8).
    pub kind_derive_lines: String,
    /// The module of the types shared across containers (`types`, or `types_` beside a
    /// container module of that name).
    pub types_module: String,
    /// The built-in codecs the type mapping uses (`types::codec`).
    pub codecs: Vec<CodecView>,
    /// The embedded value objects and reference data snapshots, each a struct.
    pub shared: Vec<StructView<'a>>,
    /// The typed references to aggregate roots.
    pub references: Vec<RefView<'a>>,
    /// One module per container, with its document types.
    pub containers: Vec<ContainerView<'a>>,
}

/// A struct for an embedded value object or a reference data snapshot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StructView<'a> {
    /// The struct's Rust name.
    pub name: String,
    /// Its doc comment's text (the model's description, escaped for rustdoc).
    pub doc: String,
    /// Its fields, in the model's order.
    pub fields: Vec<FieldView<'a>>,
    /// Attributes from [`TypeMapping::type_attributes`], each a line of Rust.
    pub attributes: Vec<String>,
    /// For a reference data snapshot: the document it is taken from.
    pub snapshot_of: Option<SnapshotView<'a>>,
    /// Implements `Default`: a value object whose every field has a default (an empty
    /// value object is a value; a snapshot, subset item or reference without its
    /// document's id is not). Derived, or by hand when a field has a model default.
    pub default: bool,
    /// A field has a model default: the struct gets an `impl` of default functions.
    pub has_defaults: bool,
}

/// How a snapshot is built from the reference data document it copies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SnapshotView<'a> {
    /// Path of the document struct, e.g. `super::dictionary::Country`.
    pub source: String,
    /// The snapshot field that holds the document's `id`.
    pub identity: Cow<'a, str>,
    /// The other fields, named alike in both.
    pub fields: Vec<Cow<'a, str>>,
}

/// One struct field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldView<'a> {
    /// The JSON name itself, borrowed, when that is already an identifier (most
    /// are: `amount`, `title`); else made from it (`created_at`, `r#type`).
    pub ident: Cow<'a, str>,
    /// The JSON property name (not `json`: that is a template helper's name),
    /// borrowed from the model.
    pub json_name: Cow<'a, str>,
    /// Needs `#[serde(rename = …)]`: camelCase of `ident` is not `json`.
    pub rename: bool,
    /// Borrowed when it is a spelling of its own (a scalar type, `String`), built
    /// when it wraps one (`Vec<…>`, `Option<…>`).
    pub ty: Cow<'a, str>,
    /// Optional in the model: `Option<…>`, skipped when `None`.
    pub optional: bool,
    /// A required list: `#[serde(default)]`, so a document without it reads as empty.
    pub list: bool,
    /// Borrowed when it is a fixed sentence (`ttl`'s, a partition key's), built otherwise.
    pub doc: Cow<'a, str>,
    /// `#[serde(with = …)]`: the codec helper of a mapped type.
    pub serde_with: Option<String>,
    /// `#[schemars(with = …)]`: the text type a mapped type is written as.
    pub schema_with: Option<String>,
    /// Attributes from [`TypeMapping::field_attributes`], each a line of Rust.
    pub attributes: Vec<String>,
    /// A count kept on the document (`computedValue`): `0` in `new`, and
    /// `serde(default)` so a document written before it existed still reads.
    pub computed: bool,
    /// The model's `default`: what a document written without the field reads as
    /// (boxed: few fields have one, and a large model has a hundred thousand fields).
    pub default: Option<Box<DefaultView>>,
}

/// A field's model default: `#[serde(default = "{path}")]` and the function
/// `fn {function}() -> {ty} { {value} }` in an `impl` of the struct that owns it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DefaultView {
    /// The function's name, `default_{field}`.
    pub function: String,
    /// How serde calls it: `{Struct}::{function}`.
    pub path: String,
    /// The expression it returns (one line).
    pub value: String,
    /// The value as the model spells it (JSON), for the function's doc comment.
    pub json: String,
}

impl DefaultView {
    /// Names the function after field `ident` of struct `owner`.
    fn own(&mut self, owner: &str, ident: &str) {
        self.function = concat(&["default_", ident.trim_start_matches("r#")]);
        self.path = concat(&[owner, "::", &self.function]);
    }
}

#[cfg(feature = "data-access")]
impl FieldView<'_> {
    /// The field with every string its own: for a view kept apart from the model it
    /// was built from (a row of the data access, copied from a document's field).
    pub(crate) fn into_owned(self) -> FieldView<'static> {
        FieldView {
            json_name: Cow::Owned(self.json_name.into_owned()),
            ty: Cow::Owned(self.ty.into_owned()),
            doc: Cow::Owned(self.doc.into_owned()),
            ident: Cow::Owned(self.ident.into_owned()),
            rename: self.rename,
            optional: self.optional,
            list: self.list,
            serde_with: self.serde_with,
            schema_with: self.schema_with,
            attributes: self.attributes,
            computed: self.computed,
            default: self.default,
        }
    }
}

/// Names the default functions of `fields` (their identifiers final) after `owner`.
fn own_defaults(fields: &mut [FieldView<'_>], owner: &str) {
    for f in fields {
        if let Some(d) = &mut f.default {
            d.own(owner, &f.ident);
        }
    }
}

/// Whether any of `fields` has a model default (its struct gets an `impl` of them).
pub(crate) fn has_defaults(fields: &[FieldView<'_>]) -> bool {
    fields.iter().any(|f| f.default.is_some())
}

/// A typed reference to an aggregate root: id and partition key value.
#[derive(Debug, Serialize)]
pub struct RefView<'a> {
    /// The reference struct's Rust name (`AccountRef`).
    pub name: String,
    /// The aggregate root it refers to.
    pub target: &'a str,
    /// The container the root is stored in.
    pub container: &'a str,
    /// The constant partition key value (dictionary container), if not the id.
    pub constant: Option<String>,
    /// The target's partition key is one of its own properties (the `partitionKey`
    /// optimisation), so a reference is built from an id and that value.
    pub by_property: Option<String>,
    /// The target's key is hierarchical: a reference is built from an id and a tuple
    /// of the levels' values.
    pub levels: bool,
    /// The Rust type of its `partition_key`: `String`, or a tuple of one per level.
    pub key_type: String,
    /// An extended reference's copied attributes (empty for a plain reference).
    pub fields: Vec<FieldView<'a>>,
    /// Path of the target's document struct, e.g. `super::account::Account`.
    pub document: String,
    /// A copied attribute has a model default (an `impl` of default functions).
    pub has_defaults: bool,
}

/// One container module.
#[derive(Debug, Serialize)]
pub struct ContainerView<'a> {
    /// The container's module name.
    pub module: String,
    /// The container's name in Cosmos DB.
    pub name: &'a str,
    /// The partition key's (first level's) path.
    pub partition_key_path: String,
    /// Every level's path.
    pub partition_key_paths: Vec<String>,
    /// The key has more than one level.
    pub hierarchical: bool,
    /// The enum of the container's document types (one variant each, by `type`).
    pub enum_name: String,
    /// What `partition_key()` returns: `String`, or a tuple of one per level.
    pub key_type: String,
    /// The container's document types, each a struct.
    pub documents: Vec<DocView<'a>>,
}

/// One document type struct.
#[derive(Debug, Serialize)]
pub struct DocView<'a> {
    /// The document type's name (the struct's).
    pub name: &'a str,
    /// The `id` is the `type` (a uniqueness claim): `new` takes no id.
    pub id_is_type: bool,
    /// Its `type` value.
    pub discriminator: &'a str,
    /// Its doc comment's text (the model's description, escaped for rustdoc).
    pub doc: String,
    /// The partition key field, or `None` when the partition key is `type`.
    pub partition_key_field: Option<FieldView<'a>>,
    /// The partition key value when it is the `type` constant.
    pub partition_key_constant: Option<&'a str>,
    /// A hierarchical key's further levels, each a field after the first.
    pub sub_key_fields: Vec<FieldView<'a>>,
    /// What `partition_key()` returns.
    pub key_type: String,
    /// The expression `partition_key()` returns.
    pub key_value: String,
    /// Its fields besides `id`, `type` and the key's, in the model's order.
    pub fields: Vec<FieldView<'a>>,
    /// Attributes from [`TypeMapping::type_attributes`], each a line of Rust.
    pub attributes: Vec<String>,
    /// For a copy or a feed: how it is built from its source (boxed, as it is rare).
    pub copy: Option<Box<CopyView<'a>>>,
    /// The partition key value is the id: `new` fills it from `id`.
    pub pk_from_id: bool,
    /// `new`: the required values as parameters, in field order.
    pub params: Vec<ParamView<'a>>,
    /// `new`: every field's value, in the order they are evaluated.
    pub inits: Vec<InitView<'a>>,
    /// A bucket (`bucket`): its `id` is its window, taken from a date-time's text
    /// (boxed, as it is rare).
    pub bucket: Option<Box<BucketView>>,
    /// A field has a model default (an `impl` of default functions).
    pub has_defaults: bool,
}

/// What a bucket document type says about its window.
#[derive(Debug, Serialize)]
pub struct BucketView {
    /// The items' date-time attribute that picks the bucket.
    pub time: String,
    /// `minute`, `hour` or `day`.
    pub window: String,
    /// How many characters of the date-time's text name the window.
    pub length: usize,
}

/// A parameter of a document type's constructor. The spellings generated alike
/// for every document, and the identifiers and types its field borrows, are
/// borrowed, not copied (a large model has tens of thousands).
#[derive(Debug, Serialize)]
pub struct ParamView<'a> {
    /// The parameter's name.
    pub ident: Cow<'a, str>,
    /// Its Rust type.
    pub ty: Cow<'a, str>,
}

/// A field's value in a document type's constructor (borrowed as [`ParamView`]'s).
#[derive(Debug, Serialize)]
pub struct InitView<'a> {
    /// The field's name.
    pub ident: Cow<'a, str>,
    /// The expression it is set to.
    pub value: Cow<'a, str>,
}

/// How a copy is built from its source.
#[derive(Debug, Serialize)]
pub struct CopyView<'a> {
    /// Path of the source's document struct.
    pub source: String,
    /// The source's field the partition key value is read from: a reference, or
    /// a reference data snapshot that replaced one (empty for a feed, whose key is
    /// its source's `type`; the emitter uses `pk_init`, this stays for
    /// overrides written before it).
    pub via: String,
    /// The field of `via` that holds the value: `id` for a reference, the
    /// identity field for a snapshot (e.g. `country_id`).
    pub via_field: String,
    /// The expression the copy's partition key field is built from.
    pub pk_init: String,
    /// The copy's fields, each taken from the source's field of the same name.
    pub fields: Vec<Cow<'a, str>>,
}

/// Builds the view for `model` with the given type mapping.
pub fn build<'a>(model: &'a LogicalModel, mapping: &'a TypeMapping) -> Result<RustView<'a>, String> {
    let (modules, module_names) = container_modules(model);
    if let Some(problem) = unbuildable_default(model, mapping) {
        return Err(problem);
    }
    let types_module = names::unclaimed("types".to_string(), |n| module_names.contains(n));
    let mut shared = Shared {
        model,
        mapping,
        types: types_module.clone(),
        modules,
        structs: Vec::new(),
        struct_index: NameMap::default(),
        refs: BTreeMap::new(),
    };
    // How a container module spells a path in the types module: `super::types::`.
    let types_prefix = concat(&["super::", &types_module, "::"]);
    let mut containers = Vec::with_capacity(model.containers.len());
    for c in &model.containers {
        let module = shared.module(&c.name);
        let mut taken: BTreeSet<&str> = c.document_types.iter().map(|d| d.name.as_str()).collect();
        taken.insert("kind");
        let enum_name = names::unclaimed(format!("{}Document", c.name), |n| taken.contains(n));
        let mut documents = Vec::with_capacity(c.document_types.len());
        for d in &c.document_types {
            documents.push(shared.document(c.kind, ttl_doc(c), d, &types_prefix, &c.name)?);
        }
        containers.push(ContainerView {
            module,
            name: &c.name,
            partition_key_path: c.partition_key.paths.first().cloned().unwrap_or_default(),
            partition_key_paths: c.partition_key.paths.clone(),
            hierarchical: c.partition_key.is_hierarchical(),
            enum_name,
            key_type: key_type(c.partition_key.paths.len()),
            documents,
        });
    }
    let derives = derives(mapping);
    // Moved out in the order they were made, not copied: nothing looks them up now.
    let mut structs = std::mem::take(&mut shared.structs);
    structs.retain(|s| !mapping.extern_paths.iter().any(|(name, _)| *name == s.name));
    hooks::apply(mapping, &mut structs, &mut containers);
    Ok(RustView {
        model: model.model.clone(),
        derive_lines: derive_lines(&derives, 8),
        kind_derive_lines: derive_lines(
            &[
                &derives[..],
                &["::core::marker::Copy", "::core::cmp::Eq", "::core::default::Default"],
            ]
            .concat(),
            12,
        ),
        derives: derives.join(", "),
        codecs: mapping.codecs().into_iter().map(codecs::view).collect(),
        types_module,
        shared: structs,
        references: shared.refs.into_values().collect(),
        containers,
    })
}

/// Each container's module, by container name, and the set of module names. Two
/// container names can share a snake_case form (`HttpServer`, `HTTPServer`): the
/// later one, in container order, gets a trailing `_`.
fn container_modules(model: &LogicalModel) -> (BTreeMap<String, String>, BTreeSet<String>) {
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    let mut module_names: BTreeSet<String> = BTreeSet::new();
    for c in &model.containers {
        let module = names::claim(&mut module_names, names::module(&c.name));
        modules.insert(c.name.clone(), module);
    }
    (modules, module_names)
}

/// The derives of every generated struct (and `JsonSchema` when `mapping` asks for it).
fn derives(mapping: &TypeMapping) -> Vec<&'static str> {
    let mut derives = vec![
        "::serde::Serialize",
        "::serde::Deserialize",
        "::core::fmt::Debug",
        "::core::clone::Clone",
        "::core::cmp::PartialEq",
    ];
    if mapping.json_schema {
        derives.push("::schemars::JsonSchema");
    }
    derives
}

/// How many fields [`Shared::document`] gives document type `d` (partition key
/// levels aside) with `ttl` or not: its parent's identity, `ttl`, its attributes,
/// counts, embedded objects and references. Sizes the fields' vector exactly: a
/// field is some 180 bytes, and a large model has a hundred thousand.
fn field_count(d: &DocumentType, ttl: bool) -> usize {
    usize::from(d.parent.is_some())
        + usize::from(ttl)
        + d.attributes.len()
        + d.computed.len()
        + d.embedded.len()
        + d.references.len()
}

/// `derives` one a line, each indented `indent`, separated by commas.
fn derive_lines(derives: &[&str], indent: usize) -> String {
    let pad = " ".repeat(indent);
    derives
        .iter()
        .map(|d| format!("{pad}{d}"))
        .collect::<Vec<_>>()
        .join(",\n")
}

struct Shared<'a> {
    model: &'a LogicalModel,
    mapping: &'a TypeMapping,
    /// The types module's name.
    types: String,
    /// Container name → module name.
    modules: BTreeMap<String, String>,
    /// The shared structs, in the order they were made: the types module's.
    structs: Vec<StructView<'a>>,
    /// Each shared struct's place in `structs` by name: only looked up, so hashed
    /// rather than sorted (a struct is looked up several times as it is made).
    struct_index: NameMap<String, usize>,
    refs: BTreeMap<String, RefView<'a>>,
}

/// The doc of the `ttl` field of `c`'s documents, when it has TTL on: in a container
/// whose change feed keeps derived data (rule `copySource`) a set `ttl` is a delete.
fn ttl_doc(c: &cosmap_mapper::Container) -> Option<&'static str> {
    c.default_ttl?;
    Some(if c.rules.contains(&cosmap_mapper::Rule::CopySource) {
        "Time to live in seconds, set by a delete: the change feed keeps derived data from this container, so a delete sets `ttl` and the document waits to expire; reads and queries leave it out."
    } else {
        "Time to live in seconds: Cosmos DB deletes the document that long after its last write (the container has TTL on)."
    })
}
impl<'a> Shared<'a> {
    /// The shared struct named `name`, if one is made.
    fn struct_named(&self, name: &str) -> Option<&StructView<'a>> {
        self.struct_index.get(name).map(|&i| &self.structs[i])
    }

    /// The module of container `name`.
    fn module(&self, name: &str) -> String {
        self.modules.get(name).cloned().unwrap_or_else(|| names::module(name))
    }

    /// The view of document type `d` of a container of `kind` (its `ttl` doc if it
    /// has TTL on) named `container`; `prefix` spells the types module's paths.
    fn document(
        &mut self,
        kind: ContainerKind,
        ttl: Option<&'static str>,
        d: &'a DocumentType,
        prefix: &str,
        container: &str,
    ) -> Result<DocView<'a>, String> {
        let (partition_key_field, sub_key_fields) = key_fields(kind, d);
        let (fields, embedded_types) = self.fields(d, ttl, prefix)?;
        let mut fields = fields;
        let mut reserved = Vec::with_capacity(5 + sub_key_fields.len());
        reserved.extend([("id", "id"), ("type", "r#type"), ("_etag", "etag"), ("_ts", "ts")]);
        reserved.extend(
            partition_key_field
                .iter()
                .chain(&sub_key_fields)
                .map(|f| (&*f.json_name, &*f.ident)),
        );
        dedupe(&mut fields, &reserved, || format!("{container}::{}", d.name))?;
        own_defaults(&mut fields, &d.name);
        let copy = self.copy(d, &fields, &embedded_types, container)?;
        let pk_is_id = matches!(&d.id, IdSource::Identity { attribute } if *attribute == d.partition_key_property);
        // A uniqueness claim's id is its type: one claim per value in each partition.
        let id_is_type = d.role == Role::Claim;
        let keys = key_sources(d, pk_is_id, &fields, &partition_key_field, &sub_key_fields);
        let (mut params, mut inits) = constructor(&keys, &fields, !id_is_type);
        // A bucket's `window` is its id: one source of truth.
        let bucket = d.bucket.as_ref().map(|b| {
            Box::new(BucketView {
                time: b.time.clone(),
                window: b.window.as_str().to_string(),
                length: b.window.prefix_len(),
            })
        });
        if bucket.is_some() {
            window_from_id(&fields, &mut params, &mut inits);
        }
        let levels = d.sub_partition_key_properties.len() + 1;
        Ok(DocView {
            key_type: key_type(levels),
            key_value: key_value(d, partition_key_field.as_ref(), &sub_key_fields),
            sub_key_fields,
            id_is_type,
            attributes: Vec::new(),
            pk_from_id: pk_is_id && partition_key_field.is_some(),
            params,
            inits,
            bucket,
            has_defaults: has_defaults(&fields),
            name: &d.name,
            discriminator: &d.discriminator,
            doc: concat(&[
                "Document type `",
                &d.name,
                "` (",
                role_name(d.role),
                ") of container `",
                container,
                "`; its `type` is `\"",
                &d.discriminator,
                "\"`.",
                &described(d.description.as_deref()),
            ]),
            partition_key_constant: partition_key_field.is_none().then_some(d.discriminator.as_str()),
            partition_key_field,
            fields,
            copy: copy.map(Box::new),
        })
    }

    /// The fields of document type `d` besides its keys (its `ttl` doc if it has TTL
    /// on; `prefix` spells the types module's paths), before their names are made
    /// unique, with the type of each embedded object by its property.
    fn fields(
        &mut self,
        d: &'a DocumentType,
        ttl: Option<&'static str>,
        prefix: &str,
    ) -> Result<(Vec<FieldView<'a>>, BTreeMap<&'a str, String>), String> {
        // Sized once: a field is hundreds of bytes, and each regrowth moves them all.
        let mut fields = Vec::with_capacity(field_count(d, ttl.is_some()));
        if let Some(parent) = &d.parent {
            fields.push(plain_field(
                &parent.property,
                "::std::string::String",
                false,
                concat(&["Identity of the `", &parent.entity, "` this belongs to."]),
            ));
        }
        if let Some(doc) = ttl {
            fields.push(plain_field("ttl", "::core::option::Option<i64>", true, doc));
        }
        fields.extend(d.attributes.iter().map(|p| self.attribute(p)));
        for v in &d.computed {
            let doc = concat(&[
                "The number of `",
                &v.counts,
                "`s that belong to it (`computedValue`), kept current by the writes that create and delete them.",
            ]);
            fields.push(FieldView {
                computed: true,
                ..plain_field(&v.name, "i64", false, doc)
            });
        }
        // A claim's owner under a hierarchical key is its levels' values: required, as
        // a claim that cannot find its owner would hold the value for nobody.
        if d.role == Role::Claim {
            for f in fields.iter_mut().filter(|f| f.json_name == "ownerPartitionKey") {
                f.list = false;
            }
        }
        let mut embedded_types = BTreeMap::new();
        for e in &d.embedded {
            let ty = self.embedded(e)?;
            fields.push(container_field(
                &e.name,
                self.shared_type(&ty, prefix),
                e.many,
                embedded_doc(e),
            ));
            embedded_types.insert(e.name.as_str(), ty);
        }
        for r in &d.references {
            let ty = self.reference(r);
            fields.push(reference_field(r, concat(&[prefix, &ty])));
        }
        Ok((fields, embedded_types))
    }

    /// How copy `d` (in `container`) is built from its source: its partition key from
    /// the source's `type` (a feed), a reference's `id` or a snapshot's field; `None`
    /// for a document type that is no copy.
    fn copy(
        &self,
        d: &DocumentType,
        fields: &[FieldView<'a>],
        embedded_types: &BTreeMap<&str, String>,
        container: &str,
    ) -> Result<Option<CopyView<'a>>, String> {
        let Some(of) = &d.copy_of else {
            return Ok(None);
        };
        let source = format!("super::{}::{}", self.module(&of.container), of.document_type);
        let all = || fields.iter().map(|f| f.ident.clone()).collect();
        // A feed's partition is its source's `type`.
        if of.partition_key_from.names() == ["type"] {
            return Ok(Some(CopyView {
                pk_init: format!("::std::string::String::from({source}::TYPE)"),
                source,
                via: String::new(),
                via_field: String::new(),
                fields: all(),
            }));
        }
        // `account.id` (a reference) or `country.countryId` (a snapshot's identity).
        let missing = || {
            format!(
                "copy `{container}::{}` takes its partition key from `{}`, which is neither a reference's `id` nor a field of a snapshot it holds",
                d.name, of.partition_key_from
            )
        };
        let [via, inner] = of.partition_key_from.names() else {
            return Err(missing());
        };
        let (via, inner) = (via.as_str(), inner.as_str());
        let via_ident = fields
            .iter()
            .find(|f| f.json_name == via)
            .map(|f| f.ident.to_string())
            .ok_or_else(missing)?;
        let via_field = if d.references.iter().any(|r| r.name == via && !r.many) && inner == "id" {
            "id".to_string()
        } else {
            embedded_types
                .get(via)
                .and_then(|ty| self.struct_named(ty))
                .and_then(|s| s.fields.iter().find(|f| f.json_name == inner))
                .filter(|_| d.embedded.iter().any(|e| e.name == via && !e.many))
                .map(|f| f.ident.to_string())
                .ok_or_else(missing)?
        };
        Ok(Some(CopyView {
            source,
            pk_init: format!("::core::clone::Clone::clone(&source.{via_ident}.{via_field})"),
            via: via_ident,
            via_field,
            fields: all(),
        }))
    }

    fn attribute(&self, p: &'a Property) -> FieldView<'a> {
        let (base, codec) = scalar_type(self.mapping, p.ty);
        // A required single value is the scalar's own spelling, borrowed (most
        // attributes); a list or an option is spelled in one string.
        let wrap = |base: &'a str| -> Cow<'a, str> {
            match (p.optional, p.many) {
                (false, false) => Cow::Borrowed(base),
                (false, true) => concat(&["::std::vec::Vec<", base, ">"]).into(),
                (true, false) => concat(&["::core::option::Option<", base, ">"]).into(),
                (true, true) => concat(&["::core::option::Option<::std::vec::Vec<", base, ">>"]).into(),
            }
        };
        let default = p.default.as_ref().filter(|_| !p.optional && !p.many);
        // The default as the model spells it, for the doc and the default function's doc.
        let json = default.map(|value| value.to_string());
        let [with, json_text, after] = match &json {
            Some(text) => [", default `", text.as_str(), "`"],
            None => ["", "", ""],
        };
        let ty = p.ty.as_str();
        let doc = match &p.description {
            Some(text) => concat(&["`", &p.name, "` (", ty, with, json_text, after, "): ", &doc_line(text)]),
            None => concat(&["`", &p.name, "` (", ty, with, json_text, after, ")."]),
        };
        let mut field = plain_field(&p.name, wrap(base), p.optional, doc);
        if let (Some(value), Some(json)) = (default, json) {
            field.default = Some(Box::new(DefaultView {
                function: String::new(),
                path: String::new(),
                value: default_value(base, codec.map(|_| self.types.as_str()), value),
                json,
            }));
        }
        if codec.is_some() {
            let helper = match (p.optional, p.many) {
                (false, false) => "one",
                (true, false) => "option",
                (false, true) => "many",
                (true, true) => "option_many",
            };
            field.serde_with = Some(format!("super::{}::codec::{helper}", self.types));
            field.schema_with = self
                .mapping
                .json_schema
                .then(|| wrap("::std::string::String").into_owned());
        }
        field
    }

    /// How a field spells shared struct `name` from a module where the types module
    /// is `prefix`: the user's own type if [`TypeMapping::extern_paths`] names one.
    fn shared_type(&self, name: &str, prefix: &str) -> String {
        match self.mapping.extern_paths.iter().find(|(n, _)| n == name) {
            Some((_, path)) => path.clone(),
            None => concat(&[prefix, name]),
        }
    }

    /// The shared struct for embedded `e` (created once per shape); returns its name.
    fn embedded(&mut self, e: &'a Embedded) -> Result<String, String> {
        let mut fields: Vec<FieldView<'a>> = e.attributes.iter().map(|p| self.attribute(p)).collect();
        for inner in &e.embedded {
            let ty = self.embedded(inner)?;
            let ty = self.shared_type(&ty, "");
            fields.push(container_field(&inner.name, ty, inner.many, embedded_doc(inner)));
        }
        for r in &e.references {
            let ty = self.reference(r);
            fields.push(reference_field(r, ty));
        }
        let base = match e.kind {
            EmbeddedKind::ValueObject => e.source.clone(),
            EmbeddedKind::ReferenceData => concat(&[&e.source, "Snapshot"]),
            EmbeddedKind::Subset => concat(&[&e.source, "Subset"]),
        };
        dedupe(&mut fields, &[], || base.clone())?;
        let doc = embedded_struct_doc(e);
        let mut name = base.clone();
        let mut n = 1;
        loop {
            match self.struct_named(&name) {
                Some(existing) if existing.fields == fields => return Ok(name),
                None if !self.refs.contains_key(&name) => break,
                // Taken by another shape or a reference: the next number.
                _ => {
                    n += 1;
                    name = format!("{base}{n}");
                }
            }
        }
        own_defaults(&mut fields, &name);
        // A model default is not the type's own: such a struct implements `Default`
        // by hand (the template), calling the default functions.
        let default = e.kind == EmbeddedKind::ValueObject
            && fields.iter().all(|f| {
                f.optional || f.list || has_default(&f.ty) || self.struct_named(&f.ty).is_some_and(|s| s.default)
            });
        let snapshot_of = match e.kind {
            EmbeddedKind::ValueObject => None,
            // A subset item is built from the child's own document.
            EmbeddedKind::Subset => e.subset.as_ref().map(|of| {
                let source = format!("super::{}::{}", self.module(&of.container), of.document_type);
                snapshot(source, &fields)
            }),
            EmbeddedKind::ReferenceData => self.root_document(&e.source).map(|source| snapshot(source, &fields)),
        };
        self.struct_index.insert(name.clone(), self.structs.len());
        self.structs.push(StructView {
            name: name.clone(),
            doc,
            attributes: Vec::new(),
            snapshot_of,
            default,
            has_defaults: has_defaults(&fields),
            fields,
        });
        Ok(name)
    }

    fn reference(&mut self, r: &'a Reference) -> String {
        // An extended reference: one struct per set of copied attributes.
        let extended: Vec<&'a Property> = r.extended.iter().flat_map(|e| &e.attributes).collect();
        let mut name = concat(&[&r.target, "Ref"]);
        if !extended.is_empty() {
            let parts: Vec<String> = extended
                .iter()
                .map(|a| cosmap_domain::naming::upper_camel(&a.name))
                .collect();
            name = format!("{name}With{}", parts.join("And"));
        }
        let name = names::unclaimed(name, |n| self.struct_index.contains_key(n));
        // Made once a name: a reference met again is named, not built again.
        if self.refs.contains_key(&name) {
            return name;
        }
        let mut fields: Vec<FieldView<'a>> = extended.iter().map(|a| self.attribute(a)).collect();
        own_defaults(&mut fields, &name);
        let (constant, by_property, levels) = match &r.partition_key_value {
            PartitionKeyValue::SameAsId => (None, None, 1),
            PartitionKeyValue::Constant { value } => (Some(value.clone()), None, 1),
            PartitionKeyValue::Property { property } => (None, Some(property.clone()), 1),
            PartitionKeyValue::Levels { properties } => (None, None, properties.len()),
        };
        let document = concat(&["super::", &self.module(&r.target_container), "::", &r.target]);
        self.refs.insert(
            name.clone(),
            RefView {
                name: name.clone(),
                target: &r.target,
                container: &r.target_container,
                constant,
                by_property,
                levels: levels > 1,
                key_type: key_type(levels),
                has_defaults: has_defaults(&fields),
                fields,
                document,
            },
        );
        name
    }

    /// Path of the document struct of root entity `entity`, from the types module.
    fn root_document(&self, entity: &str) -> Option<String> {
        self.model.containers.iter().find_map(|c| {
            c.document_types
                .iter()
                .find(|d| d.role == Role::Root && d.source == entity)
                .map(|d| format!("super::{}::{}", self.module(&c.name), d.name))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A description renders as its text: no tag, link, code span or bare URL.
    #[test]
    fn descriptions_are_escaped_for_rustdoc() {
        assert_eq!(
            doc_line("<script>alert(1)</script> &amp;\n [a](https://x.example) `c` \\"),
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; \\[a\\](https&#58;//x.example) \\`c\\` \\\\"
        );
        assert_eq!(doc_line("plain words: a list"), "plain words: a list");
    }

    /// The first repeat is found among few names and many: of a reserved name, of an
    /// earlier field's, or none.
    #[test]
    fn repeats_are_found_among_few_names_and_many() {
        let reserved = [("id", "id"), ("type", "r#type")];
        for count in [3, 74] {
            let names: Vec<String> = (0..count).map(|i| format!("name{i}")).collect();
            let fields = |names: &[String]| -> Vec<FieldView<'static>> {
                names
                    .iter()
                    .map(|n| plain_field(n, STRING, false, "").into_owned())
                    .collect()
            };
            let json = |fields: &[FieldView<'_>]| {
                first_repeat(fields, reserved.iter().map(|(json, _)| *json), |f| &f.json_name)
            };
            assert_eq!(json(&fields(&names)), None, "{count}");
            let mut with_reserved = names.clone();
            with_reserved[2] = "type".to_string();
            assert_eq!(json(&fields(&with_reserved)), Some(2), "{count}");
            let mut twice = names.clone();
            twice[2] = "name0".to_string();
            twice.push("name1".to_string());
            assert_eq!(json(&fields(&twice)), Some(2), "{count}");
            // Two JSON names of one identifier: the later one renamed.
            let mut alike = names.clone();
            alike.push("Name0".to_string());
            let mut alike = fields(&alike);
            dedupe(&mut alike, &reserved, String::new).expect("deduped");
            assert_eq!(alike.last().map(|f| &*f.ident), Some("name0_"), "{count}");
            assert!(dedupe(&mut fields(&twice), &reserved, String::new).is_err(), "{count}");
        }
    }

    #[test]
    fn a_default_of_a_type_mapped_to_the_users_own_is_refused_by_name() {
        let mut mapping = TypeMapping {
            date_time: "crate::MyTime".to_string(),
            ..TypeMapping::default()
        };
        let err = build(
            &crate::test_models::meter("dateTime", serde_json::json!("2024-01-01T00:00:00Z")),
            &mapping,
        )
        .expect_err("refused");
        assert!(err.contains("`Meter.at` has a model `default`"), "{err}");
        assert!(err.contains("`crate::MyTime`"), "{err}");
        // Mapped to a built-in codec, it is read through the codec.
        mapping.map("dateTime", "chrono").unwrap();
        let model = crate::test_models::meter("dateTime", serde_json::json!("2024-01-01T00:00:00Z"));
        let view = build(&model, &mapping).expect("built");
        let field = view.containers[0].documents[0]
            .fields
            .iter()
            .find(|f| f.json_name == "at")
            .unwrap();
        let default = field.default.as_ref().expect("a default");
        assert_eq!(
            default.value,
            "super::types::codec::default_of(\"2024-01-01T00:00:00Z\")"
        );
        assert_eq!(default.path, "Meter::default_at");
    }

    #[test]
    fn plain_defaults_are_rust_literals() {
        let cases = [
            (
                "string",
                serde_json::json!("a \"quoted\" \\ value"),
                "::std::string::String::from(\"a \\\"quoted\\\" \\\\ value\")",
            ),
            ("integer", serde_json::json!(-7), "-7"),
            ("number", serde_json::json!(2), "2.0"),
            ("number", serde_json::json!(0.25), "0.25"),
            ("boolean", serde_json::json!(true), "true"),
        ];
        for (ty, value, expected) in cases {
            let model = crate::test_models::meter(ty, value);
            let mapping = TypeMapping::default();
            let view = build(&model, &mapping).expect("built");
            let field = view.containers[0].documents[0]
                .fields
                .iter()
                .find(|f| f.json_name == "at")
                .unwrap();
            assert_eq!(field.default.as_ref().unwrap().value, expected, "{ty}");
        }
    }
}
