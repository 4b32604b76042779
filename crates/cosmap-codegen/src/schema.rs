//! JSON Schemas (draft 2020-12) for each document type, for services written in
//! other languages. Written straight as the text the `document.schema.json.hbs`
//! template prints (pretty JSON, keys in the order written), member by member: a
//! large model has thousands of them, and building each as a [`Json`] tree only to
//! print it cost more than the printing.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

use cosmap_domain::AttributeType;
use cosmap_mapper::{Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Property, Reference};

use crate::json::{Json, Members, Object};

/// `{"type": ty}`, its own line `depth` levels in.
fn typed(out: &mut String, depth: usize, ty: &str) {
    let mut o = Object::open(out, depth);
    o.string("type", ty);
    o.close();
}

/// `{"type": ty, "description": description}`, its own line `depth` levels in.
fn described(out: &mut String, depth: usize, ty: &str, description: &[&str]) {
    let mut o = Object::open(out, depth);
    o.string("type", ty).string_of("description", description);
    o.close();
}

/// The text of a value that is the same in every schema, and the depth it was
/// written at: written once a run.
type Cached = OnceLock<(usize, String)>;

/// What `write` writes at `depth`, copied from `cell` (written there the first
/// time, at the depth of that time): `id`, a partition key level, `ttl` and a
/// plain attribute are the same in every schema.
fn cached(out: &mut String, depth: usize, cell: &Cached, write: impl Fn(&mut String, usize)) {
    let (at, text) = cell.get_or_init(|| {
        let mut text = String::new();
        write(&mut text, depth);
        (depth, text)
    });
    if *at == depth {
        out.push_str(text);
    } else {
        write(out, depth);
    }
}

/// `{"$ref": "#/$defs/{name}"}`, its own line `depth` levels in.
fn reference_to(out: &mut String, depth: usize, name: &str) {
    let mut o = Object::open(out, depth);
    o.string_of("$ref", &["#/$defs/", name]);
    o.close();
}

/// Room for a document's property values ([`Members`]) before their text grows:
/// a schema of the synthetic models is under 3 KiB.
const VALUES_CAPACITY: usize = 4096;

/// The `$defs` of a schema: each definition's text (an object whose own line is
/// two levels in) by name, in name order; a later one of a name replaces the earlier.
struct Defs<'a> {
    /// The definitions' text, one after the other (a replaced one stays, unused).
    text: String,
    /// Each name and where its definition lies in `text`.
    at: BTreeMap<Cow<'a, str>, Range<usize>>,
}

impl<'a> Defs<'a> {
    /// The depth of a definition's own line.
    const DEPTH: usize = 2;

    /// Sets definition `name` to what `write` writes (at [`Defs::DEPTH`]).
    fn insert(&mut self, name: Cow<'a, str>, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        self.at.insert(name, start..self.text.len());
    }
}

/// The schema of document type `d` in container `c`, as a [`Json`] (for an
/// overriding template): its text ([`write_document`]) read back. That text is
/// always JSON (the tests compare it with `serde_json`'s printing of it), so a
/// failure to read it is a bug in the writer, reported as such rather than handed
/// to the template as `null`.
pub fn document(c: &Container, d: &DocumentType) -> Json {
    let mut text = String::new();
    write_document(&mut text, c, d);
    serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "the JSON Schema written for `{}` is not JSON ({e}): a bug in cosmap",
            d.name
        )
    })
}

/// The schema of document type `d` in container `c`, as pretty JSON, written at the
/// end of `out`.
pub fn write_document(out: &mut String, c: &Container, d: &DocumentType) {
    // Sized once when there will be definitions (a schema of the synthetic models
    // is under 3 KiB).
    let has_defs = !(d.embedded.is_empty() && d.references.is_empty());
    let mut defs = Defs {
        text: String::with_capacity(if has_defs { VALUES_CAPACITY } else { 0 }),
        at: BTreeMap::new(),
    };
    // Every object's property values, nested ones too, written here first.
    let mut values = String::with_capacity(VALUES_CAPACITY);
    let values = &mut values;
    // `id`, `type`, up to three key levels, `ttl`, the parent, the members, the counts.
    let room = 7 + members_count(&d.attributes, &d.embedded, &d.references) + d.computed.len();
    let mut properties = Members::new(1, room);
    let mut required: Vec<&str> = Vec::with_capacity(room);
    required.extend(["id", "type"]);
    static ID: Cached = OnceLock::new();
    properties.insert(values, "id", |out, depth| {
        cached(out, depth, &ID, |out, depth| {
            let mut o = Object::open(out, depth);
            o.string("type", "string")
                .number("minLength", 1)
                .string("description", "Document id, unique within the partition.");
            o.close();
        })
    });
    properties.insert(values, "type", |out, depth| {
        let mut o = Object::open(out, depth);
        o.string("type", "string")
            .string("const", &d.discriminator)
            .string("description", "Document type discriminator.");
        o.close();
    });
    if c.kind == ContainerKind::Aggregate {
        static KEY: Cached = OnceLock::new();
        for level in d.partition_key_properties() {
            properties.insert(values, level, |out, depth| {
                cached(out, depth, &KEY, |out, depth| {
                    described(out, depth, "string", &["Partition key value."])
                })
            });
            required.push(level);
        }
    }
    if c.default_ttl.is_some() {
        static TTL: Cached = OnceLock::new();
        properties.insert(values, "ttl", |out, depth| {
            cached(out, depth, &TTL, |out, depth| {
                described(
                    out,
                    depth,
                    "integer",
                    &["Time to live in seconds (the container has TTL on)."],
                )
            })
        });
    }
    if let Some(parent) = &d.parent {
        properties.insert(values, &parent.property, |out, depth| {
            described(
                out,
                depth,
                "string",
                &["Identity of the `", &parent.entity, "` this belongs to."],
            )
        });
        required.push(&parent.property);
    }
    object_members(
        &d.attributes,
        &d.embedded,
        &d.references,
        values,
        &mut properties,
        &mut required,
        &mut defs,
    );
    for v in &d.computed {
        properties.insert(values, &v.name, |out, depth| {
            let mut o = Object::open(out, depth);
            o.string("type", "integer").number("minimum", 0).string_of(
                "description",
                &["The number of `", &v.counts, "`s that belong to it (computedValue)."],
            );
            o.close();
        });
        required.push(&v.name);
    }
    let mut schema = Object::open(out, 0);
    schema
        .string("$schema", "https://json-schema.org/draft/2020-12/schema")
        .string_of("$id", &[&c.name, "/", &d.name, ".schema.json"])
        .string("title", &d.name);
    let mut description = vec![
        "Document type `",
        &d.name,
        "` of Cosmos DB container `",
        &c.name,
        "` (partition key `",
    ];
    for (i, path) in c.partition_key.paths.iter().enumerate() {
        if i > 0 {
            description.push(", ");
        }
        description.push(path);
    }
    description.push("`).");
    let own = d.description.as_deref().map(crate::rust::one_line);
    if let Some(text) = &own {
        description.extend([" ", text.as_str()]);
    }
    schema.string_of("description", &description).string("type", "object");
    properties.write(values, schema.key("properties"));
    schema.strings("required", &required);
    if !defs.at.is_empty() {
        let mut all = schema.object("$defs");
        for (name, at) in &defs.at {
            all.key(name).push_str(&defs.text[at.clone()]);
        }
        all.close();
    }
    schema.close();
}

/// How many properties [`object_members`] adds for these members: to size the
/// object and its `required` list once (a wrong count only costs a regrowth).
fn members_count(attributes: &[Property], embedded: &[Embedded], references: &[Reference]) -> usize {
    attributes.len() + embedded.len() + references.len()
}

/// An object's members (of a document or an embedded object): their properties,
/// the required ones' names, and the definitions of their embedded objects' and
/// references' types.
fn object_members<'a>(
    attributes: &'a [Property],
    embedded: &'a [Embedded],
    references: &'a [Reference],
    values: &mut String,
    properties: &mut Members<'a>,
    required: &mut Vec<&'a str>,
    defs: &mut Defs<'a>,
) {
    for p in attributes {
        properties.insert(values, &p.name, |out, depth| attribute(out, depth, p));
        // A document written before a defaulted property existed lacks it, and reads.
        if !p.optional && p.default.is_none() {
            required.push(&p.name);
        }
    }
    for e in embedded {
        let name: Cow<str> = match e.kind {
            EmbeddedKind::ValueObject => Cow::Borrowed(&e.source),
            EmbeddedKind::ReferenceData => Cow::Owned([&e.source, "Snapshot"].concat()),
            EmbeddedKind::Subset => Cow::Owned([&e.source, "Subset"].concat()),
        };
        let room = members_count(&e.attributes, &e.embedded, &e.references);
        // A definition's properties object is a level in from it.
        let mut inner_properties = Members::new(Defs::DEPTH + 1, room);
        let mut inner_required = Vec::with_capacity(room);
        object_members(
            &e.attributes,
            &e.embedded,
            &e.references,
            values,
            &mut inner_properties,
            &mut inner_required,
            defs,
        );
        properties.insert(values, &e.name, |out, depth| {
            if !e.many {
                return reference_to(out, depth, &name);
            }
            let mut array = Object::open(out, depth);
            array.string("type", "array");
            let items = array.inner();
            reference_to(array.key("items"), items, &name);
            if let Some(max) = e.max {
                array.number("maxItems", max);
            }
            array.close();
        });
        defs.insert(name, |out| {
            let mut o = Object::open(out, Defs::DEPTH);
            o.string("type", "object");
            inner_properties.write(values, o.key("properties"));
            o.strings("required", &inner_required)
                .bool("additionalProperties", false);
            o.close();
        });
        required.push(&e.name);
    }
    for r in references {
        let mut name = [&r.target, "Ref"].concat();
        // The reference object's properties, a level in from its definition.
        let mut members = Members::new(Defs::DEPTH + 1, 2);
        members.insert(values, "id", |out, depth| typed(out, depth, "string"));
        members.insert(values, "partitionKey", |out, depth| reference_key(out, depth, r));
        let mut members_required = vec!["id", "partitionKey"];
        // An extended reference: the target's attributes read through it, beside it.
        if let Some(extended) = &r.extended {
            name.push_str("With");
            for (i, a) in extended.attributes.iter().enumerate() {
                if i > 0 {
                    name.push_str("And");
                }
                name.push_str(&cosmap_domain::naming::upper_camel(&a.name));
            }
            for a in &extended.attributes {
                members.insert(values, &a.name, |out, depth| attribute(out, depth, a));
                if !a.optional {
                    members_required.push(&a.name);
                }
            }
        }
        properties.insert(values, &r.name, |out, depth| match (r.many, &r.ancestry) {
            // Every ancestor up a tree's parent link, root first.
            (_, Some(a)) => {
                let mut array = Object::open(out, depth);
                array.string("type", "array");
                let items = array.inner();
                reference_to(array.key("items"), items, &name);
                array
                    .number("maxItems", a.max)
                    .string_of("description", &["Every ancestor up `", &a.parent, "`, root first."]);
                array.close();
            }
            (true, None) => {
                let mut array = Object::open(out, depth);
                array.string("type", "array");
                let items = array.inner();
                reference_to(array.key("items"), items, &name);
                array.close();
            }
            (false, None) => reference_to(out, depth, &name),
        });
        defs.insert(Cow::Owned(name), |out| {
            let mut o = Object::open(out, Defs::DEPTH);
            o.string("type", "object").string_of(
                "description",
                &[
                    "Reference to `",
                    &r.target,
                    "` in container `",
                    &r.target_container,
                    "`.",
                ],
            );
            members.write(values, o.key("properties"));
            o.strings("required", &members_required)
                .bool("additionalProperties", false);
            o.close();
        });
        // An optional reference (a tree's root has no parent) may be absent.
        if !r.optional {
            required.push(&r.name);
        }
    }
}

/// The schema of attribute `p`, its own line `depth` levels in.
fn attribute(out: &mut String, depth: usize, p: &Property) {
    if p.description.is_none() && p.default.is_none() {
        // Alike for every attribute of a type and shape: written once a run for each,
        // at each of the depths attributes are (a document's properties, a definition's).
        static PLAIN: [[Cached; 2]; 2 * TYPES] = [const { [const { OnceLock::new() }; 2] }; 2 * TYPES];
        let cell = &PLAIN[2 * type_index(p.ty) + usize::from(p.many)][usize::from(depth > 2)];
        return cached(out, depth, cell, |out, depth| {
            let mut schema = Object::open(out, depth);
            typed_members(&mut schema, p.ty, p.many);
            schema.close();
        });
    }
    let mut schema = Object::open(out, depth);
    typed_members(&mut schema, p.ty, p.many);
    if let Some(text) = &p.description {
        schema.string("description", &crate::rust::one_line(text));
    }
    if let Some(value) = &p.default {
        schema.value("default", &value.into());
    }
    schema.close();
}

/// How many attribute types there are ([`type_index`]).
const TYPES: usize = 8;

/// Attribute type `ty`'s place among the [`TYPES`].
fn type_index(ty: AttributeType) -> usize {
    match ty {
        AttributeType::String => 0,
        AttributeType::Integer => 1,
        AttributeType::Number => 2,
        AttributeType::Boolean => 3,
        AttributeType::Decimal => 4,
        AttributeType::DateTime => 5,
        AttributeType::Date => 6,
        AttributeType::Uuid => 7,
    }
}

/// The members of the schema of an attribute of type `ty`: a value's, or a list's
/// when `many`.
fn typed_members(schema: &mut Object, ty: AttributeType, many: bool) {
    if many {
        schema.string("type", "array");
        let items = schema.inner();
        scalar(schema.key("items"), items, ty);
    } else {
        scalar_members(schema, ty);
    }
}

/// The schema of one value of type `ty`, its own line `depth` levels in.
fn scalar(out: &mut String, depth: usize, ty: AttributeType) {
    let mut o = Object::open(out, depth);
    scalar_members(&mut o, ty);
    o.close();
}

/// The members of the schema of one value of type `ty`.
fn scalar_members(o: &mut Object, ty: AttributeType) {
    match ty {
        AttributeType::String => o.string("type", "string"),
        AttributeType::Integer => o.string("type", "integer"),
        AttributeType::Number => o.string("type", "number"),
        AttributeType::Boolean => o.string("type", "boolean"),
        AttributeType::Decimal => o.string("type", "string").string("pattern", "^-?[0-9]+(\\.[0-9]+)?$"),
        AttributeType::DateTime => o.string("type", "string").string("format", "date-time"),
        AttributeType::Date => o.string("type", "string").string("format", "date"),
        AttributeType::Uuid => o.string("type", "string").string("format", "uuid"),
    };
}

/// The schema of a reference's `partitionKey`: a string, or for a target under a
/// hierarchical key one string per level; its own line `depth` levels in.
fn reference_key(out: &mut String, depth: usize, r: &Reference) {
    match &r.partition_key_value {
        cosmap_mapper::PartitionKeyValue::Levels { properties } => {
            let mut o = Object::open(out, depth);
            o.string("type", "array");
            let items = o.inner();
            typed(o.key("items"), items, "string");
            let mut description = vec!["The target's "];
            for (i, p) in properties.iter().enumerate() {
                if i > 0 {
                    description.push(", ");
                }
                description.push(p);
            }
            description.push(", in that order (a hierarchical partition key).");
            o.number("minItems", properties.len() as u64)
                .number("maxItems", properties.len() as u64)
                .string_of("description", &description);
            o.close();
        }
        _ => typed(out, depth, "string"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value written once and copied is what writing it gives, at the depth it
    /// was first written at and at any other.
    #[test]
    fn cached_text_is_the_written_text() {
        static CELL: Cached = OnceLock::new();
        let write = |out: &mut String, depth: usize| described(out, depth, "string", &["a \"quoted\" ", "word"]);
        for depth in [2, 4, 2, 0] {
            let mut copied = String::from("x");
            cached(&mut copied, depth, &CELL, write);
            let mut written = String::from("x");
            write(&mut written, depth);
            assert_eq!(copied, written, "{depth}");
        }
    }

    /// A schema is pretty JSON as `serde_json` prints it, its keys in the order written.
    #[test]
    fn a_schema_is_serde_jsons_pretty_text() {
        let model = crate::test_models::meter("integer", serde_json::json!(3));
        for c in &model.containers {
            for d in &c.document_types {
                let mut text = String::new();
                write_document(&mut text, c, d);
                let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                assert_eq!(serde_json::to_string_pretty(&value).expect("printed"), text);
                assert_eq!(document(c, d), Json::from(&value));
            }
        }
    }
}
