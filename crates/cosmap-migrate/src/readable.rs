//! Whether a stored document is one the new model's generated types read, judged from
//! the typed logical model the way those types deserialise (docs/diff.md, "Classes"):
//! its `type` is one of its container's, its partition key values are text, and every
//! required single attribute (without a `default`), embedded object and reference is
//! present with a value of its kind; an optional or defaulted one may be absent, a
//! list may be absent or must be an array.

use cosmap_domain::AttributeType;
use cosmap_mapper::{Container, PropertyHolder};
use serde_json::Value;

/// Why `document` (stored for `container`) does not read, or `None` when it does.
pub fn unreadable(container: &Container, document: &Value) -> Option<String> {
    let kind = document.get("type").and_then(Value::as_str).unwrap_or_default();
    let Some(document_type) = container.document_types.iter().find(|d| d.discriminator == kind) else {
        return Some(format!(
            "`type` `{kind}` is not a document type of `{}`",
            container.name
        ));
    };
    for level in container.partition_key_properties() {
        if !document.get(level).is_some_and(Value::is_string) {
            return Some(format!("no text partition key `{level}`"));
        }
    }
    holder(PropertyHolder::Document(document_type), document, "")
}

/// The first property of `holder` that `value` (the object holding it, at `at`) lacks
/// or holds in another kind.
fn holder(holder: PropertyHolder<'_>, value: &Value, at: &str) -> Option<String> {
    for a in holder.attributes() {
        let path = format!("{at}{}", a.name);
        match value.get(&a.name).filter(|v| !v.is_null()) {
            None if a.optional || a.many || a.default.is_some() => {}
            None => return Some(format!("no `{path}` ({}, required)", a.ty.as_str())),
            Some(Value::Array(items)) if a.many => {
                if let Some(bad) = items.iter().find(|v| !of_kind(a.ty, v)) {
                    return Some(format!("`{path}` holds {bad}, not a {}", a.ty.as_str()));
                }
            }
            Some(v) if a.many => return Some(format!("`{path}` holds {v}, not a list")),
            Some(v) if !of_kind(a.ty, v) => return Some(format!("`{path}` holds {v}, not a {}", a.ty.as_str())),
            Some(_) => {}
        }
    }
    for e in holder.embedded() {
        let path = format!("{at}{}", e.name);
        match value.get(&e.name).filter(|v| !v.is_null()) {
            None if e.many => {}
            None => return Some(format!("no `{path}` (an embedded `{}`)", e.source)),
            Some(Value::Array(items)) if e.many => {
                let inner = format!("{path}[].");
                if let Some(why) = items.iter().find_map(|i| holder_of(e, i, &inner)) {
                    return Some(why);
                }
            }
            Some(v) if e.many => return Some(format!("`{path}` holds {v}, not a list")),
            Some(v) => {
                if let Some(why) = holder_of(e, v, &format!("{path}.")) {
                    return Some(why);
                }
            }
        }
    }
    for r in holder.references() {
        let path = format!("{at}{}", r.name);
        match value.get(&r.name).filter(|v| !v.is_null()) {
            None if r.optional || r.many => {}
            None => return Some(format!("no `{path}` (a reference to `{}`)", r.target)),
            Some(Value::Array(_)) if r.many => {}
            Some(v) if r.many => return Some(format!("`{path}` holds {v}, not a list")),
            Some(v) if !v.get("id").is_some_and(Value::is_string) => {
                return Some(format!("`{path}` holds {v}, not a reference with an `id`"))
            }
            Some(_) => {}
        }
    }
    None
}

fn holder_of(embedded: &cosmap_mapper::Embedded, value: &Value, at: &str) -> Option<String> {
    if !value.is_object() {
        return Some(format!("`{}` holds {value}, not an object", at.trim_end_matches('.')));
    }
    holder(PropertyHolder::Embedded(embedded), value, at)
}

/// Whether `value` is what an attribute of type `ty` deserialises from.
fn of_kind(ty: AttributeType, value: &Value) -> bool {
    match ty {
        AttributeType::Integer => value.is_i64() || value.is_u64(),
        AttributeType::Number => value.is_number(),
        AttributeType::Boolean => value.is_boolean(),
        AttributeType::String
        | AttributeType::Decimal
        | AttributeType::DateTime
        | AttributeType::Date
        | AttributeType::Uuid => value.is_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn order() -> Container {
        let spec = json!({
            "name": "Shop",
            "entities": [{"name": "Order", "identity": "orderId", "attributes": [
                {"name": "total", "type": "integer"},
                {"name": "note", "type": "string", "optional": true},
                {"name": "channel", "type": "string", "default": "web"},
                {"name": "tags", "type": "string", "many": true}
            ], "volume": {"count": 1000000, "avgSizeBytes": 500}}],
            "aggregates": [{"root": "Order"}]
        });
        let model = cosmap_domain::from_slice(spec.to_string().as_bytes(), None).unwrap();
        let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
        logical
            .containers
            .into_iter()
            .find(|c| c.document_types.iter().any(|d| d.discriminator == "order"))
            .unwrap()
    }

    #[test]
    fn what_the_generated_types_read_and_what_they_do_not() {
        let c = order();
        let ok = json!({"id": "o-1", "type": "order", "orderId": "o-1", "total": 3});
        assert_eq!(unreadable(&c, &ok), None, "optional, defaulted and lists may be absent");
        for (document, why) in [
            (
                json!({"id": "o-1", "type": "order", "orderId": "o-1"}),
                "no `total` (integer, required)",
            ),
            (
                json!({"id": "o-1", "type": "order", "orderId": "o-1", "total": "3"}),
                "`total` holds \"3\", not a integer",
            ),
            (
                json!({"id": "o-1", "type": "order", "orderId": "o-1", "total": 3, "tags": "a"}),
                "`tags` holds \"a\", not a list",
            ),
            (
                json!({"id": "o-1", "type": "order", "total": 3}),
                "no text partition key `orderId`",
            ),
            (
                json!({"id": "o-1", "type": "invoice", "orderId": "o-1", "total": 3}),
                "`type` `invoice` is not a document type of `Order`",
            ),
        ] {
            assert_eq!(unreadable(&c, &document).as_deref(), Some(why), "{document}");
        }
    }
}
