//! The partition key of a document view: its fields, where the constructor takes
//! each level from, and the expression of its value.

use super::*;

/// The fields of the partition key of document type `d` in a container of `kind`:
/// its first level (none in a dictionary, whose key is the `type`), and the others
/// of a hierarchical key.
pub(super) fn key_fields(kind: ContainerKind, d: &DocumentType) -> (Option<FieldView<'_>>, Vec<FieldView<'_>>) {
    let partition_key_field = match kind {
        ContainerKind::Dictionary => None,
        ContainerKind::Aggregate | ContainerKind::Claims => Some(plain_field(
            &d.partition_key_property,
            "::std::string::String",
            false,
            "Partition key value.",
        )),
    };
    let levels = d.sub_partition_key_properties.len() + 1;
    let sub_key_fields = d
        .sub_partition_key_properties
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let doc = format!(
                "Partition key value, level {} of {levels} of the hierarchical key.",
                i + 2
            );
            plain_field(level, STRING, false, doc)
        })
        .collect();
    (partition_key_field, sub_key_fields)
}

/// What a document type of `role` is called in its doc comment.
pub(super) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Root => "aggregate root",
        Role::Entity => "entity",
        Role::ValueObject => "separated value object",
        Role::Copy => "copy",
        Role::Claim => "uniqueness claim",
        Role::Bucket => "bucket of children by time window",
    }
}

/// Each level of `d`'s partition key (its fields) with where its constructor takes
/// the value from: the id (`pk_is_id`, or a further level that is the identity), the
/// reference of the root it is partitioned by, or a parameter.
pub(super) fn key_sources<'k, 'a>(
    d: &DocumentType,
    pk_is_id: bool,
    fields: &'k [FieldView<'a>],
    partition_key_field: &'k Option<FieldView<'a>>,
    sub_key_fields: &'k [FieldView<'a>],
) -> Vec<(&'k FieldView<'a>, PartitionKeySource<'k>)> {
    // Partitioned by a reference of the root (`partitionKey`): the key is the
    // referenced root's id, taken from the reference so the two never differ.
    let pk_from_reference = d
        .references
        .iter()
        .find(|r| !pk_is_id && d.role == Role::Root && !r.many && r.target_identity == d.partition_key_property)
        .and_then(|r| fields.iter().find(|f| f.json_name == r.name))
        .map(|f| &*f.ident);
    let pk_source = match (pk_is_id, pk_from_reference) {
        (true, _) => PartitionKeySource::Id,
        (false, Some(field)) => PartitionKeySource::ReferenceId(field),
        (false, None) => PartitionKeySource::Parameter,
    };
    // Each further level: the id where it is the identity, else a parameter.
    let is_id = |level: &str| matches!(&d.id, IdSource::Identity { attribute } if attribute == level);
    let mut keys: Vec<(&FieldView, PartitionKeySource)> = partition_key_field.iter().map(|f| (f, pk_source)).collect();
    for f in sub_key_fields {
        let source = if is_id(&f.json_name) {
            PartitionKeySource::Id
        } else {
            PartitionKeySource::Parameter
        };
        keys.push((f, source));
    }
    keys
}

/// A bucket's `window` field taken from its id rather than a parameter: cloned
/// before `id` moves in.
pub(super) fn window_from_id<'a>(
    fields: &[FieldView<'a>],
    params: &mut Vec<ParamView<'a>>,
    inits: &mut Vec<InitView<'a>>,
) {
    let Some(window) = fields.iter().find(|f| f.json_name == "window") else {
        return;
    };
    params.retain(|p| p.ident != window.ident);
    inits.retain(|i| i.ident != window.ident);
    let at = inits.iter().position(|i| i.ident == "id").unwrap_or(0);
    inits.insert(
        at,
        InitView {
            ident: window.ident.clone(),
            value: "::core::clone::Clone::clone(&id)".into(),
        },
    );
}

/// The expression of a document's partition key value: the `type` in a dictionary,
/// the key field, or the tuple of a hierarchical key's fields.
pub(super) fn key_value(
    d: &DocumentType,
    partition_key_field: Option<&FieldView<'_>>,
    sub_key_fields: &[FieldView<'_>],
) -> String {
    match (partition_key_field, sub_key_fields.is_empty()) {
        (None, _) => format!("::std::string::String::from(\"{}\")", d.discriminator),
        (Some(f), true) => concat(&["::core::clone::Clone::clone(&self.", &f.ident, ")"]),
        (Some(f), false) => {
            let values: Vec<String> = std::iter::once(f)
                .chain(sub_key_fields)
                .map(|f| concat(&["::core::clone::Clone::clone(&self.", &f.ident, ")"]))
                .collect();
            format!("({})", values.join(", "))
        }
    }
}
