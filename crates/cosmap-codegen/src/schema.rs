//! JSON Schemas (draft 2020-12) for each document type, for services written in
//! other languages. Built as data here; the `document.schema.json.hbs` template
//! prints them.

use std::collections::BTreeMap;

use cosmap_domain::AttributeType;
use cosmap_mapper::{Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Property, Reference};
use serde_json::{json, Map, Value};

/// The schema of document type `d` in container `c`.
pub fn document(c: &Container, d: &DocumentType) -> Value {
    let mut defs = BTreeMap::new();
    let mut properties = Map::new();
    let mut required = vec!["id".to_string(), "type".to_string()];
    properties.insert(
        "id".into(),
        json!({"type": "string", "minLength": 1, "description": "Document id, unique within the partition."}),
    );
    properties.insert(
        "type".into(),
        json!({"type": "string", "const": d.discriminator, "description": "Document type discriminator."}),
    );
    if c.kind == ContainerKind::Aggregate {
        for level in d.partition_key_properties() {
            properties.insert(
                level.to_string(),
                json!({"type": "string", "description": "Partition key value."}),
            );
            required.push(level.to_string());
        }
    }
    if c.default_ttl.is_some() {
        properties.insert(
            "ttl".into(),
            json!({"type": "integer", "description": "Time to live in seconds (the container has TTL on)."}),
        );
    }
    if let Some(parent) = &d.parent {
        properties.insert(
            parent.property.clone(),
            json!({"type": "string", "description": format!("Identity of the `{}` this belongs to.", parent.entity)}),
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
            json!({"type": "integer", "minimum": 0, "description": format!("The number of `{}`s that belong to it (computedValue).", v.counts)}),
        );
        required.push(v.name.clone());
    }
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("{}/{}.schema.json", c.name, d.name),
        "title": d.name,
        "description": format!(
            "Document type `{}` of Cosmos DB container `{}` (partition key `{}`).{}",
            d.name,
            c.name,
            c.partition_key.paths.join(", "),
            d.description.as_deref().map(|t| format!(" {}", crate::rust::one_line(t))).unwrap_or_default()
        ),
        "type": "object",
        "properties": properties,
        "required": required,
    });
    if !defs.is_empty() {
        schema["$defs"] = Value::Object(defs.into_iter().collect());
    }
    schema
}

fn object_members(
    attributes: &[Property],
    embedded: &[Embedded],
    references: &[Reference],
    properties: &mut Map<String, Value>,
    required: &mut Vec<String>,
    defs: &mut BTreeMap<String, Value>,
) {
    for p in attributes {
        properties.insert(p.name.clone(), attribute(p));
        if !p.optional {
            required.push(p.name.clone());
        }
    }
    for e in embedded {
        let name = match e.kind {
            EmbeddedKind::ValueObject => e.source.clone(),
            EmbeddedKind::ReferenceData => format!("{}Snapshot", e.source),
            EmbeddedKind::Subset => format!("{}Subset", e.source),
        };
        let mut inner_properties = Map::new();
        let mut inner_required = Vec::new();
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
            json!({"type": "object", "properties": inner_properties, "required": inner_required, "additionalProperties": false}),
        );
        let one = json!({"$ref": format!("#/$defs/{name}")});
        let value = if e.many {
            let mut array = json!({"type": "array", "items": one});
            if let Some(max) = e.max {
                array["maxItems"] = json!(max);
            }
            array
        } else {
            one
        };
        properties.insert(e.name.clone(), value);
        required.push(e.name.clone());
    }
    for r in references {
        let mut name = format!("{}Ref", r.target);
        let mut members = Map::new();
        members.insert("id".into(), json!({"type": "string"}));
        members.insert("partitionKey".into(), reference_key(r));
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
            json!({
                "type": "object",
                "description": format!("Reference to `{}` in container `{}`.", r.target, r.target_container),
                "properties": members,
                "required": members_required,
                "additionalProperties": false
            }),
        );
        let one = json!({"$ref": format!("#/$defs/{name}")});
        let value = match (r.many, &r.ancestry) {
            // Every ancestor up a tree's parent link, root first.
            (_, Some(a)) => json!({
                "type": "array",
                "items": one,
                "maxItems": a.max,
                "description": format!("Every ancestor up `{}`, root first.", a.parent)
            }),
            (true, None) => json!({"type": "array", "items": one}),
            (false, None) => one,
        };
        properties.insert(r.name.clone(), value);
        // An optional reference (a tree's root has no parent) may be absent.
        if !r.optional {
            required.push(r.name.clone());
        }
    }
}

fn attribute(p: &Property) -> Value {
    let one = match p.ty {
        AttributeType::String => json!({"type": "string"}),
        AttributeType::Integer => json!({"type": "integer"}),
        AttributeType::Number => json!({"type": "number"}),
        AttributeType::Boolean => json!({"type": "boolean"}),
        AttributeType::Decimal => json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"}),
        AttributeType::DateTime => json!({"type": "string", "format": "date-time"}),
        AttributeType::Date => json!({"type": "string", "format": "date"}),
        AttributeType::Uuid => json!({"type": "string", "format": "uuid"}),
    };
    let mut schema = if p.many {
        json!({"type": "array", "items": one})
    } else {
        one
    };
    if let Some(text) = &p.description {
        schema["description"] = json!(crate::rust::one_line(text));
    }
    schema
}

/// The schema of a reference's `partitionKey`: a string, or for a target under a
/// hierarchical key one string per level.
fn reference_key(r: &Reference) -> Value {
    match &r.partition_key_value {
        cosmap_mapper::PartitionKeyValue::Levels { properties } => json!({
            "type": "array",
            "items": {"type": "string"},
            "minItems": properties.len(),
            "maxItems": properties.len(),
            "description": format!("The target's {}, in that order (a hierarchical partition key).", properties.join(", "))
        }),
        _ => json!({"type": "string"}),
    }
}
