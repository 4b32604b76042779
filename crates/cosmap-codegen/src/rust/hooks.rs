//! The user's attributes on generated types and fields ([`TypeMapping::type_attributes`],
//! [`TypeMapping::field_attributes`]), matched by name after the view is built.

use super::view::{ContainerView, FieldView, StructView};
use crate::options::TypeMapping;

/// Whether `matcher` selects an item known by any of `names`: `.` selects every
/// item, any other matcher one of the names exactly.
fn selects(matcher: &str, names: &[String]) -> bool {
    matcher == "." || names.iter().any(|n| n == matcher)
}

/// The attributes of `rules` whose matcher selects `names`, in the order given.
fn matching(rules: &[(String, String)], names: &[String]) -> Vec<String> {
    rules
        .iter()
        .filter(|(matcher, _)| selects(matcher, names))
        .map(|(_, attribute)| attribute.clone())
        .collect()
}

/// Sets the attributes of the fields of a type known by `owners`: a field is known as
/// `Owner.jsonName` for each owner name.
fn fields(mapping: &TypeMapping, owners: &[String], fields: &mut [FieldView]) {
    for f in fields {
        let names: Vec<String> = owners.iter().map(|o| format!("{o}.{}", f.json_name)).collect();
        f.attributes = matching(&mapping.field_attributes, &names);
    }
}

/// Puts the user's attributes on the shared structs (known by their Rust name) and
/// document types (known as `DocumentType` and `Container.DocumentType`).
pub fn apply(mapping: &TypeMapping, structs: &mut [StructView], containers: &mut [ContainerView]) {
    if mapping.type_attributes.is_empty() && mapping.field_attributes.is_empty() {
        return;
    }
    for s in structs {
        let names = vec![s.name.clone()];
        s.attributes = matching(&mapping.type_attributes, &names);
        fields(mapping, &names, &mut s.fields);
    }
    for c in containers {
        for d in &mut c.documents {
            let names = vec![d.name.to_string(), format!("{}.{}", c.name, d.name)];
            d.attributes = matching(&mapping.type_attributes, &names);
            fields(mapping, &names, &mut d.fields);
            if let Some(pk) = &mut d.partition_key_field {
                fields(mapping, &names, std::slice::from_mut(pk));
            }
            fields(mapping, &names, &mut d.sub_key_fields);
        }
    }
}
