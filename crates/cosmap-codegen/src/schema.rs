//! JSON Schemas (draft 2020-12) for each document type, for services written in
//! other languages. Built as data here, as [`Json`] (keys in the order written);
//! printed as the `document.schema.json.hbs` template prints them.

use std::collections::BTreeMap;

use cosmap_domain::AttributeType;
use cosmap_mapper::{Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Property, Reference};

use crate::json::Json;

/// `{"type": ty}`.
fn typed(ty: &'static str) -> Json {
    Json::object([("type", ty.into())])
}

/// `{"type": ty, "description": description}`.
fn described(ty: &'static str, description: impl Into<Json>) -> Json {
    Json::object([("type", ty.into()), ("description", description.into())])
}

/// `parts` one after the other, in one allocation: what `format!` makes of
/// strings, without its formatting machinery (a few per embedded object and
/// reference of each of thousands of schemas).
fn concat(parts: &[&str]) -> String {
    let mut text = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for part in parts {
        text.push_str(part);
    }
    text
}

/// The schema of document type `d` in container `c`.
pub fn document(c: &Container, d: &DocumentType) -> Json {
    let mut defs = BTreeMap::new();
    // `id`, `type`, up to three key levels, `ttl`, the parent, the members, the counts.
    let room = 7 + members_count(&d.attributes, &d.embedded, &d.references) + d.computed.len();
    let mut properties = Json::Object(Vec::with_capacity(room));
    let mut required = Vec::with_capacity(room);
    required.extend(["id".to_string(), "type".to_string()]);
    properties.insert(
        "id",
        Json::object([
            ("type", "string".into()),
            ("minLength", 1u64.into()),
            ("description", "Document id, unique within the partition.".into()),
        ]),
    );
    properties.insert(
        "type",
        Json::object([
            ("type", "string".into()),
            ("const", d.discriminator.clone().into()),
            ("description", "Document type discriminator.".into()),
        ]),
    );
    if c.kind == ContainerKind::Aggregate {
        for level in d.partition_key_properties() {
            properties.insert(level.to_string(), described("string", "Partition key value."));
            required.push(level.to_string());
        }
    }
    if c.default_ttl.is_some() {
        properties.insert(
            "ttl",
            described("integer", "Time to live in seconds (the container has TTL on)."),
        );
    }
    if let Some(parent) = &d.parent {
        properties.insert(
            parent.property.clone(),
            described(
                "string",
                format!("Identity of the `{}` this belongs to.", parent.entity),
            ),
        );
        required.push(parent.property.clone());
    }
    object_members(
        &d.attributes,
        &d.embedded,
        &d.references,
        &mut properties,
        &mut required,
        &mut defs,
    );
    for v in &d.computed {
        properties.insert(
            v.name.clone(),
            Json::object([
                ("type", "integer".into()),
                ("minimum", 0u64.into()),
                (
                    "description",
                    format!("The number of `{}`s that belong to it (computedValue).", v.counts).into(),
                ),
            ]),
        );
        required.push(v.name.clone());
    }
    let mut schema = Json::object([
        ("$schema", "https://json-schema.org/draft/2020-12/schema".into()),
        ("$id", concat(&[&c.name, "/", &d.name, ".schema.json"]).into()),
        ("title", d.name.clone().into()),
        (
            "description",
            format!(
                "Document type `{}` of Cosmos DB container `{}` (partition key `{}`).{}",
                d.name,
                c.name,
                c.partition_key.paths.join(", "),
                d.description
                    .as_deref()
                    .map(|t| format!(" {}", crate::rust::one_line(t)))
                    .unwrap_or_default()
            )
            .into(),
        ),
        ("type", "object".into()),
        ("properties", properties),
        ("required", required.into()),
    ]);
    if !defs.is_empty() {
        schema.insert(
            "$defs",
            Json::Object(defs.into_iter().map(|(k, v)| (k.into(), v)).collect()),
        );
    }
    schema
}

/// How many properties [`object_members`] adds for these members: to size the
/// object and its `required` list once (a wrong count only costs a regrowth).
fn members_count(attributes: &[Property], embedded: &[Embedded], references: &[Reference]) -> usize {
    attributes.len() + embedded.len() + references.len()
}

fn object_members(
    attributes: &[Property],
    embedded: &[Embedded],
    references: &[Reference],
    properties: &mut Json,
    required: &mut Vec<String>,
    defs: &mut BTreeMap<String, Json>,
) {
    for p in attributes {
        properties.insert(p.name.clone(), attribute(p));
        // A document written before a defaulted property existed lacks it, and reads.
        if !p.optional && p.default.is_none() {
            required.push(p.name.clone());
        }
    }
    for e in embedded {
        let name = match e.kind {
            EmbeddedKind::ValueObject => e.source.clone(),
            EmbeddedKind::ReferenceData => concat(&[&e.source, "Snapshot"]),
            EmbeddedKind::Subset => concat(&[&e.source, "Subset"]),
        };
        let room = members_count(&e.attributes, &e.embedded, &e.references);
        let mut inner_properties = Json::Object(Vec::with_capacity(room));
        let mut inner_required = Vec::with_capacity(room);
        object_members(
            &e.attributes,
            &e.embedded,
            &e.references,
            &mut inner_properties,
            &mut inner_required,
            defs,
        );
        defs.insert(
            name.clone(),
            Json::object([
                ("type", "object".into()),
                ("properties", inner_properties),
                ("required", inner_required.into()),
                ("additionalProperties", false.into()),
            ]),
        );
        let one = Json::object([("$ref", concat(&["#/$defs/", &name]).into())]);
        let value = if e.many {
            let mut array = Json::object([("type", "array".into()), ("items", one)]);
            if let Some(max) = e.max {
                array.insert("maxItems", max.into());
            }
            array
        } else {
            one
        };
        properties.insert(e.name.clone(), value);
        required.push(e.name.clone());
    }
    for r in references {
        let mut name = concat(&[&r.target, "Ref"]);
        let mut members = Json::object([("id", typed("string")), ("partitionKey", reference_key(r))]);
        let mut members_required = vec!["id".to_string(), "partitionKey".to_string()];
        // An extended reference: the target's attributes read through it, beside it.
        if let Some(extended) = &r.extended {
            let parts: Vec<String> = extended
                .attributes
                .iter()
                .map(|a| cosmap_domain::naming::upper_camel(&a.name))
                .collect();
            name = format!("{name}With{}", parts.join("And"));
            for a in &extended.attributes {
                members.insert(a.name.clone(), attribute(a));
                if !a.optional {
                    members_required.push(a.name.clone());
                }
            }
        }
        defs.insert(
            name.clone(),
            Json::object([
                ("type", "object".into()),
                (
                    "description",
                    concat(&[
                        "Reference to `",
                        &r.target,
                        "` in container `",
                        &r.target_container,
                        "`.",
                    ])
                    .into(),
                ),
                ("properties", members),
                ("required", members_required.into()),
                ("additionalProperties", false.into()),
            ]),
        );
        let one = Json::object([("$ref", concat(&["#/$defs/", &name]).into())]);
        let value = match (r.many, &r.ancestry) {
            // Every ancestor up a tree's parent link, root first.
            (_, Some(a)) => Json::object([
                ("type", "array".into()),
                ("items", one),
                ("maxItems", a.max.into()),
                (
                    "description",
                    format!("Every ancestor up `{}`, root first.", a.parent).into(),
                ),
            ]),
            (true, None) => Json::object([("type", "array".into()), ("items", one)]),
            (false, None) => one,
        };
        properties.insert(r.name.clone(), value);
        // An optional reference (a tree's root has no parent) may be absent.
        if !r.optional {
            required.push(r.name.clone());
        }
    }
}

fn attribute(p: &Property) -> Json {
    let one = match p.ty {
        AttributeType::String => typed("string"),
        AttributeType::Integer => typed("integer"),
        AttributeType::Number => typed("number"),
        AttributeType::Boolean => typed("boolean"),
        AttributeType::Decimal => {
            Json::object([("type", "string".into()), ("pattern", "^-?[0-9]+(\\.[0-9]+)?$".into())])
        }
        AttributeType::DateTime => Json::object([("type", "string".into()), ("format", "date-time".into())]),
        AttributeType::Date => Json::object([("type", "string".into()), ("format", "date".into())]),
        AttributeType::Uuid => Json::object([("type", "string".into()), ("format", "uuid".into())]),
    };
    let mut schema = if p.many {
        Json::object([("type", "array".into()), ("items", one)])
    } else {
        one
    };
    if let Some(text) = &p.description {
        schema.insert("description", crate::rust::one_line(text).into());
    }
    if let Some(value) = &p.default {
        schema.insert("default", value.into());
    }
    schema
}

/// The schema of a reference's `partitionKey`: a string, or for a target under a
/// hierarchical key one string per level.
fn reference_key(r: &Reference) -> Json {
    match &r.partition_key_value {
        cosmap_mapper::PartitionKeyValue::Levels { properties } => Json::object([
            ("type", "array".into()),
            ("items", typed("string")),
            ("minItems", properties.len().into()),
            ("maxItems", properties.len().into()),
            (
                "description",
                format!(
                    "The target's {}, in that order (a hierarchical partition key).",
                    properties.join(", ")
                )
                .into(),
            ),
        ]),
        _ => typed("string"),
    }
}
