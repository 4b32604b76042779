//! JSON Schemas (draft 2020-12) for each document type, for services written in
//! other languages: built as `serde_json` values (keys in the order inserted, with
//! `serde_json`'s `preserve_order`) and printed by `serde_json`.

use std::collections::BTreeMap;

use cosmap_domain::AttributeType;
use cosmap_mapper::{Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Property, Reference};
use serde_json::{json, Map, Value};

/// The properties of an object: a later one of a name takes the earlier one's value
/// in its place (names come from the model, and so may meet).
type Properties = Map<String, Value>;

/// `{"$ref": "#/$defs/{name}"}`.
fn reference_to(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

/// An array of items of the definition `name`, `extra` members after them.
fn array_of(name: &str, extra: Map<String, Value>) -> Value {
    let mut array = Map::new();
    array.insert("type".into(), "array".into());
    array.insert("items".into(), reference_to(name));
    array.extend(extra);
    Value::Object(array)
}

/// The schema of document type `d` in container `c`.
pub fn document(c: &Container, d: &DocumentType) -> Value {
    let mut properties = Properties::new();
    let mut required: Vec<&str> = vec!["id", "type"];
    let mut defs: BTreeMap<String, Value> = BTreeMap::new();
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
            required.push(level);
        }
    }
    if c.default_ttl.is_some() {
        properties.insert(
            "ttl".into(),
            json!({"type": "integer", "description": "Time to live in seconds (the container has TTL on)."}),
        );
    }
    if let Some(parent) = &d.parent {
        let description = format!("Identity of the `{}` this belongs to.", parent.entity);
        properties.insert(
            parent.property.clone(),
            json!({"type": "string", "description": description}),
        );
        required.push(&parent.property);
    }
    let members = Members {
        attributes: &d.attributes,
        embedded: &d.embedded,
        references: &d.references,
    };
    members.add(&mut properties, &mut required, &mut defs);
    for v in &d.computed {
        let description = format!("The number of `{}`s that belong to it (computedValue).", v.counts);
        properties.insert(
            v.name.clone(),
            json!({"type": "integer", "minimum": 0, "description": description}),
        );
        required.push(&v.name);
    }
    let mut description = format!(
        "Document type `{}` of Cosmos DB container `{}` (partition key `{}`).",
        d.name,
        c.name,
        c.partition_key.paths.join(", ")
    );
    if let Some(text) = d.description.as_deref().map(crate::rust::one_line) {
        description.push(' ');
        description.push_str(&text);
    }
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("{}/{}.schema.json", c.name, d.name),
        "title": d.name,
        "description": description,
        "type": "object",
        "properties": properties,
        "required": required,
    });
    if !defs.is_empty() {
        schema["$defs"] = Value::Object(defs.into_iter().collect());
    }
    schema
}

/// An object's members (of a document or an embedded object).
struct Members<'a> {
    attributes: &'a [Property],
    embedded: &'a [Embedded],
    references: &'a [Reference],
}

impl<'a> Members<'a> {
    /// Adds their properties, the required ones' names, and the definitions of their
    /// embedded objects' and references' types.
    fn add(&self, properties: &mut Properties, required: &mut Vec<&'a str>, defs: &mut BTreeMap<String, Value>) {
        for p in self.attributes {
            properties.insert(p.name.clone(), attribute(p));
            // A document written before a defaulted property existed lacks it, and reads.
            if !p.optional && p.default.is_none() {
                required.push(&p.name);
            }
        }
        for e in self.embedded {
            embedded(e, properties, defs);
            required.push(&e.name);
        }
        for r in self.references {
            reference(r, properties, defs);
            // An optional reference (a tree's root has no parent) may be absent.
            if !r.optional {
                required.push(&r.name);
            }
        }
    }
}

/// Embedded object `e`: its property, and its type's definition.
fn embedded(e: &Embedded, properties: &mut Properties, defs: &mut BTreeMap<String, Value>) {
    let name = match e.kind {
        EmbeddedKind::ValueObject => e.source.clone(),
        EmbeddedKind::ReferenceData => format!("{}Snapshot", e.source),
        EmbeddedKind::Subset => format!("{}Subset", e.source),
    };
    let mut inner = Properties::new();
    let mut inner_required = Vec::new();
    let members = Members {
        attributes: &e.attributes,
        embedded: &e.embedded,
        references: &e.references,
    };
    members.add(&mut inner, &mut inner_required, defs);
    let property = if e.many {
        let mut extra = Map::new();
        if let Some(max) = e.max {
            extra.insert("maxItems".into(), max.into());
        }
        array_of(&name, extra)
    } else {
        reference_to(&name)
    };
    properties.insert(e.name.clone(), property);
    defs.insert(
        name,
        json!({"type": "object", "properties": inner, "required": inner_required, "additionalProperties": false}),
    );
}

/// Reference `r`: its property, and its reference type's definition.
fn reference(r: &Reference, properties: &mut Properties, defs: &mut BTreeMap<String, Value>) {
    let mut name = format!("{}Ref", r.target);
    // The reference object's properties.
    let mut members = Properties::new();
    members.insert("id".into(), json!({"type": "string"}));
    members.insert("partitionKey".into(), reference_key(r));
    let mut members_required = vec!["id", "partitionKey"];
    // An extended reference: the target's attributes read through it, beside it.
    if let Some(extended) = &r.extended {
        name.push_str("With");
        let names: Vec<String> = extended
            .attributes
            .iter()
            .map(|a| cosmap_domain::naming::upper_camel(&a.name))
            .collect();
        name.push_str(&names.join("And"));
        for a in &extended.attributes {
            members.insert(a.name.clone(), attribute(a));
            if !a.optional {
                members_required.push(&a.name);
            }
        }
    }
    let property = match (r.many, &r.ancestry) {
        // Every ancestor up a tree's parent link, root first.
        (_, Some(a)) => {
            let mut extra = Map::new();
            extra.insert("maxItems".into(), a.max.into());
            let description = format!("Every ancestor up `{}`, root first.", a.parent);
            extra.insert("description".into(), description.into());
            array_of(&name, extra)
        }
        (true, None) => array_of(&name, Map::new()),
        (false, None) => reference_to(&name),
    };
    properties.insert(r.name.clone(), property);
    let description = format!("Reference to `{}` in container `{}`.", r.target, r.target_container);
    defs.insert(
        name,
        json!({
            "type": "object",
            "description": description,
            "properties": members,
            "required": members_required,
            "additionalProperties": false,
        }),
    );
}

/// The schema of attribute `p`.
fn attribute(p: &Property) -> Value {
    let mut schema = typed_members(p.ty, p.many);
    if let Some(text) = &p.description {
        schema.insert("description".into(), crate::rust::one_line(text).into());
    }
    if let Some(value) = p.default.as_deref() {
        schema.insert("default".into(), value.clone());
    }
    Value::Object(schema)
}

/// The members of the schema of an attribute of type `ty`: a value's, or a list's
/// when `many`.
fn typed_members(ty: AttributeType, many: bool) -> Map<String, Value> {
    if many {
        let mut schema = Map::new();
        schema.insert("type".into(), "array".into());
        schema.insert("items".into(), Value::Object(scalar(ty)));
        schema
    } else {
        scalar(ty)
    }
}

/// The schema of one value of type `ty`.
fn scalar(ty: AttributeType) -> Map<String, Value> {
    let (ty, extra) = match ty {
        AttributeType::String => ("string", None),
        AttributeType::Integer => ("integer", None),
        AttributeType::Number => ("number", None),
        AttributeType::Boolean => ("boolean", None),
        AttributeType::Decimal => ("string", Some(("pattern", "^-?[0-9]+(\\.[0-9]+)?$"))),
        AttributeType::DateTime => ("string", Some(("format", "date-time"))),
        AttributeType::Date => ("string", Some(("format", "date"))),
        AttributeType::Uuid => ("string", Some(("format", "uuid"))),
    };
    let mut schema = Map::new();
    schema.insert("type".into(), ty.into());
    if let Some((key, value)) = extra {
        schema.insert(key.into(), value.into());
    }
    schema
}

/// The schema of a reference's `partitionKey`: a string, or for a target under a
/// hierarchical key one string per level.
fn reference_key(r: &Reference) -> Value {
    match &r.partition_key_value {
        cosmap_mapper::PartitionKeyValue::Levels { properties } => {
            let description = format!(
                "The target's {}, in that order (a hierarchical partition key).",
                properties.join(", ")
            );
            json!({
                "type": "array",
                "items": {"type": "string"},
                "minItems": properties.len(),
                "maxItems": properties.len(),
                "description": description,
            })
        }
        _ => json!({"type": "string"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A schema's keys are in the order built (`preserve_order`): `$schema` first.
    #[test]
    fn a_schemas_keys_are_in_the_order_built() {
        let model = crate::test_models::meter("integer", serde_json::json!(3));
        for c in &model.containers {
            for d in &c.document_types {
                let value = document(c, d);
                let keys: Vec<&str> = value
                    .as_object()
                    .expect("an object")
                    .keys()
                    .map(|k| k.as_str())
                    .collect();
                assert_eq!(keys[..2], ["$schema", "$id"]);
            }
        }
    }
}
