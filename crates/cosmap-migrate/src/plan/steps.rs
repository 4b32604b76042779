//! The step each kind of change becomes: a repartitioning copy, a split, a back-filled
//! default, a copy with unique keys, a rewrite or retarget of a property, an embedding,
//! claims of newly unique values; each refused with the reason it cannot be derived.

use cosmap_diff::{Change, ChangeKind};
use cosmap_mapper::{IdSource, LogicalModel, PropertyHolder, Role};
use serde::Serialize;

use super::*;

/// A partition key change the copy can derive: one path before and after, and the new
/// key's value stored in every old document (as the new key, or as the old key when the
/// root's identity, which is the key, was renamed).
pub(super) fn repartition(
    old: &LogicalModel,
    new: &LogicalModel,
    name: &str,
    definitions: &[ContainerDefinition],
) -> Result<(ContainerDefinition, Step), String> {
    let (Some(before), Some(after)) = (old.container(name), new.container(name)) else {
        return Err("the container is not in both models".into());
    };
    // The old key may be hierarchical (the copy reads the change feed of the whole
    // container); the new one is written as one value.
    single_level(after)?;
    let old_key = before.partition_key_property.clone();
    let new_key = after.partition_key_property.clone();
    let renamed = renamed_identity(before, after);
    let mut key_from = Vec::new();
    for document_type in before.document_types.iter() {
        let Some(property) = key_source(document_type, &new_key, renamed.as_deref()) else {
            return Err(format!(
                "the old `{}` documents store no `{new_key}` (not as an attribute, a partition key level, their id as the root's identity, or a renamed identity): the new key's values cannot be derived; next: give `{}` a required `{new_key}` in a model between the two, back-fill it, then migrate to the new model",
                document_type.discriminator, document_type.source
            ));
        };
        key_from.push(KeyFrom {
            document_type: document_type.discriminator.clone(),
            property,
        });
    }
    if before
        .document_types
        .iter()
        .map(|d| &d.discriminator)
        .ne(after.document_types.iter().map(|d| &d.discriminator))
    {
        return Err("the container's document types change too: migrate one change at a time".into());
    }
    let target = repartitioned_name(name, &new_key);
    let definition = definition_as(definitions, name, &target)?;
    let lease = LeaseRef {
        container: target.clone(),
        partition_key_property: new_key.clone(),
        id: format!("{LEASE_TYPE}-repartition-{name}"),
    };
    Ok((
        definition,
        Step::Repartition {
            source: name.to_string(),
            target,
            old_key,
            new_key,
            key_from,
            lease,
        },
    ))
}

/// A value object made separate: its holder in the same container, the new document
/// type's partition key (and parent link) taken from the holder.
pub(super) fn split(old: &LogicalModel, new: &LogicalModel, change: &Change, from: &str) -> Result<Step, String> {
    let container = &change.subject.container;
    let (Some(before), Some(after)) = (old.container(container), new.container(container)) else {
        return Err("the container is not in both models".into());
    };
    single_level(after)?;
    let document_type = subject_type(after, change).ok_or("the new document type is not in the container")?;
    let (holder_name, property) = from.split_once('.').ok_or("the old holder is not named")?;
    let holder = before
        .document_types
        .iter()
        .find(|d| d.source == holder_name && matches!(d.role, Role::Root | Role::Entity))
        .ok_or_else(|| format!("the holder `{holder_name}` is not a document type of `{container}`"))?;
    let embedded = holder
        .embedded
        .iter()
        .find(|e| e.name == property)
        .ok_or_else(|| format!("`{from}` is not embedded in the old model"))?;
    let parent_property = match (&document_type.parent, holder.role) {
        (Some(link), _) if link.entity == holder.source => Some(link.property.clone()),
        (None, Role::Root) => None,
        _ => return Err("the new document type's parent link does not name the old holder".into()),
    };
    Ok(Step::SplitEmbedded {
        container: container.clone(),
        holder: holder.discriminator.clone(),
        property: property.to_string(),
        many: embedded.many,
        discriminator: document_type.discriminator.clone(),
        partition_key_property: after.partition_key_property.clone(),
        parent_property,
        lease: LeaseRef {
            container: container.clone(),
            partition_key_property: after.partition_key_property.clone(),
            id: format!("{LEASE_TYPE}-split-{}-{property}", holder.discriminator),
        },
    })
}

/// A default to write where documents lack it: the document type's container and key
/// from the new model; never into a partition key or unique key path, which Cosmos DB
/// does not let a replace change (or which a shared value would break).
pub(super) fn backfill(new: &LogicalModel, change: &Change, value: &serde_json::Value) -> Result<Step, String> {
    let name = &change.subject.container;
    let (container, document_type, path) = located(new, change)?;
    Ok(Step::BackfillDefault {
        container: name.clone(),
        document_type: document_type.discriminator.clone(),
        lease: LeaseRef {
            container: name.clone(),
            partition_key_property: container.partition_key_property.clone(),
            id: format!(
                "{LEASE_TYPE}-backfill-{}-{}",
                document_type.discriminator,
                path.join(".")
            ),
        },
        path,
        value: value.clone(),
        partition_key_property: container.partition_key_property.clone(),
    })
}

/// The name a container copied for new unique keys gets: `<name>-unique-<the keys'
/// properties>` (`Order-unique-sku`, `Order-unique-none` when there are none).
pub fn unique_keys_name(container: &str, unique_keys: &[Vec<String>]) -> String {
    let mut parts: Vec<String> = unique_keys
        .iter()
        .flatten()
        .map(|path| path.trim_start_matches('/').replace('/', "."))
        .collect();
    if parts.is_empty() {
        parts.push("none".to_string());
    }
    format!("{container}-unique-{}", parts.join("-"))
}

/// The new model's definition of container `name`, named `target`: the container a
/// copying step creates.
fn definition_as(definitions: &[ContainerDefinition], name: &str, target: &str) -> Result<ContainerDefinition, String> {
    let mut definition = definitions
        .iter()
        .find(|d| d.id == name)
        .cloned()
        .ok_or("the new model has no definition for it")?;
    definition.id = target.to_string();
    Ok(definition)
}

/// Unique keys changed: a copy into a new container with them, the same partition key.
pub(super) fn copy_with_unique_keys(
    new: &LogicalModel,
    name: &str,
    unique_keys: &[Vec<String>],
    definitions: &[ContainerDefinition],
) -> Result<(ContainerDefinition, Step), String> {
    let container = new.container(name).ok_or("the container is not in the new model")?;
    single_level(container)?;
    let target = unique_keys_name(name, unique_keys);
    let definition = definition_as(definitions, name, &target)?;
    let key = container.partition_key_property.clone();
    Ok((
        definition,
        Step::CopyWithUniqueKeys {
            source: name.to_string(),
            lease: LeaseRef {
                container: target.clone(),
                partition_key_property: key.clone(),
                id: format!("{LEASE_TYPE}-unique-keys-{name}"),
            },
            target,
            key,
            unique_keys: unique_keys.to_vec(),
        },
    ))
}

/// How [`Step::Rewrite`] changes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Conversion {
    /// A single value becomes a list of it (`x` → `[x]`).
    WrapInList,
    /// A list becomes its one value (`[x]` → `x`). A list of two or more stops the
    /// step, naming the document: which value to keep is the user's call. An empty list
    /// becomes absent where the new model's property is `optional`, and stops the step
    /// where it is required (a document without it would no longer deserialise).
    UnwrapList {
        /// The new model's property may be absent.
        optional: bool,
    },
    /// A number or a boolean becomes its JSON text (`42` → `"42"`), for a property
    /// retyped to `string` or `decimal`.
    ToText,
    /// A reference's `partitionKey` becomes its `id` (each reference of a list): its
    /// target is partitioned by its identity now.
    KeyFromId,
}

impl Conversion {
    /// One line for people.
    pub fn describe(self) -> &'static str {
        match self {
            Conversion::WrapInList => "a single value becomes a list of it",
            Conversion::UnwrapList { optional: true } => {
                "a list becomes its one value, an empty one absent (a longer list stops the step)"
            }
            Conversion::UnwrapList { optional: false } => {
                "a list becomes its one value (an empty or longer list stops the step)"
            }
            Conversion::ToText => "a number or boolean becomes its text",
            Conversion::KeyFromId => "each reference's `partitionKey` becomes its `id`",
        }
    }
}

/// A retyping that [`Conversion::ToText`] serves: a number or boolean read as text.
pub(super) fn to_text(
    old: cosmap_domain::AttributeType,
    new: cosmap_domain::AttributeType,
) -> Result<Conversion, String> {
    use cosmap_domain::AttributeType as T;
    match (old, new) {
        (T::Integer | T::Number | T::Boolean, T::String) | (T::Integer, T::Decimal) => Ok(Conversion::ToText),
        _ => Err(format!(
            "{} {} is not rewritten as {} {}: convert the values yourself (cosmap migrate writes integers, numbers and booleans as text, and integers as decimals)",
            article(old),
            old.as_str(),
            article(new),
            new.as_str()
        )),
    }
}

pub(super) fn article(ty: cosmap_domain::AttributeType) -> &'static str {
    if ty == cosmap_domain::AttributeType::Integer {
        "an"
    } else {
        "a"
    }
}

/// A shape change rewritten in place: the document type's container and key from the
/// new model; never a partition key or unique key path.
pub(super) fn rewrite(new: &LogicalModel, change: &Change) -> Result<Step, String> {
    let (container, document_type, path) = located(new, change)?;
    let conversion = match &change.kind {
        ChangeKind::CardinalityChanged { new_many: true, .. } => Conversion::WrapInList,
        ChangeKind::CardinalityChanged { .. } => Conversion::UnwrapList {
            optional: optional_at(document_type, &path),
        },
        ChangeKind::PropertyRetyped { old, new } => to_text(*old, *new)?,
        ChangeKind::ReferenceChanged { .. } => Conversion::KeyFromId,
        _ => return Err("not a shape cosmap migrate rewrites".to_string()),
    };
    Ok(Step::Rewrite {
        container: change.subject.container.clone(),
        document_type: document_type.discriminator.clone(),
        lease: LeaseRef {
            container: change.subject.container.clone(),
            partition_key_property: container.partition_key_property.clone(),
            id: format!(
                "{LEASE_TYPE}-rewrite-{}-{}",
                document_type.discriminator,
                path.join(".")
            ),
        },
        path,
        conversion,
        partition_key_property: container.partition_key_property.clone(),
    })
}

/// A reference whose target is partitioned by its identity now (the target's key
/// moved to it): each reference's `partitionKey` rewritten to its `id`, in place. Any
/// other retarget (another target or container, a key value taken from the target's
/// document, a reshaped key) is refused with the next step.
pub(super) fn retarget(old: &LogicalModel, new: &LogicalModel, change: &Change) -> Result<Step, String> {
    let (_, document_type, path) = located(new, change)?;
    let after = reference_at(document_type, &path).ok_or("the reference is not in the new model")?;
    let before = old
        .container(&change.subject.container)
        .and_then(|c| subject_type(c, change))
        .and_then(|d| reference_at(d, &path))
        .ok_or("the reference is not in the old model's document type")?;
    if before.target != after.target || before.target_container != after.target_container {
        return Err(format!(
            "it points to another root (`{}` in `{}` → `{}` in `{}`); next: write the new target's id and partition key into each reference yourself, with the mapping from old targets to new ones that only you know",
            before.target, before.target_container, after.target, after.target_container
        ));
    }
    if after.partition_key_value != cosmap_mapper::PartitionKeyValue::SameAsId {
        return Err(format!(
            "its partition key value is now {}, which a rewrite in place cannot read from the reference; next: write each reference's `partitionKey` from its target yourself (a point read of the target by its id), then run again",
            match &after.partition_key_value {
                cosmap_mapper::PartitionKeyValue::Constant { value } => format!("the constant `{value}`"),
                cosmap_mapper::PartitionKeyValue::Property { property } => format!("the target's `{property}`"),
                cosmap_mapper::PartitionKeyValue::Levels { properties } => format!("the levels `{}`", properties.join("`, `")),
                cosmap_mapper::PartitionKeyValue::SameAsId => "the id".to_string(),
            }
        ));
    }
    match rewrite(new, change) {
        Ok(Step::Rewrite {
            container,
            document_type,
            path,
            partition_key_property,
            mut lease,
            ..
        }) => {
            lease.id = format!("{LEASE_TYPE}-retarget-{document_type}-{}", path.join("."));
            Ok(Step::Rewrite {
                container,
                document_type,
                path,
                conversion: Conversion::KeyFromId,
                partition_key_property,
                lease,
            })
        }
        Ok(_) => Err("not a rewrite".into()),
        Err(why) => Err(why),
    }
}

/// The reference at `path` of `document_type` (through embedded objects).
pub(super) fn reference_at<'d>(
    document_type: &'d cosmap_mapper::DocumentType,
    path: &[String],
) -> Option<&'d cosmap_mapper::Reference> {
    let (last, inner) = path.split_last()?;
    let mut holder = PropertyHolder::Document(document_type);
    for step in inner {
        holder = PropertyHolder::Embedded(holder.embedded().iter().find(|e| &e.name == step)?);
    }
    holder.references().iter().find(|r| &r.name == last)
}

/// Whether the property at `path` of `document_type` may be absent in the new model:
/// an optional attribute or reference (an embedded object is always present).
pub(super) fn optional_at(document_type: &cosmap_mapper::DocumentType, path: &[String]) -> bool {
    let Some((last, inner)) = path.split_last() else {
        return false;
    };
    let mut holder = PropertyHolder::Document(document_type);
    for step in inner {
        match holder.embedded().iter().find(|e| &e.name == step) {
            Some(e) => holder = PropertyHolder::Embedded(e),
            None => return false,
        }
    }
    let attribute = holder.attributes().iter().find(|a| &a.name == last).map(|a| a.optional);
    let reference = || holder.references().iter().find(|r| &r.name == last).map(|r| r.optional);
    attribute.or_else(reference).unwrap_or(false)
}

/// The container, document type and property path `change` is about, in the new model:
/// refused for a hierarchical key, and for a partition key or unique key path, which a
/// document cannot be given or change in place.
pub(super) fn located<'m>(
    new: &'m LogicalModel,
    change: &Change,
) -> Result<
    (
        &'m cosmap_mapper::Container,
        &'m cosmap_mapper::DocumentType,
        Vec<String>,
    ),
    String,
> {
    let container = new
        .container(&change.subject.container)
        .ok_or("the container is not in the new model")?;
    single_level(container)?;
    let document_type =
        subject_type(container, change).ok_or("the document type is not in the new model's container")?;
    let path = change.subject.path.clone();
    let dotted = format!("/{}", path.join("/"));
    let keyed = container
        .partition_key
        .paths
        .iter()
        .chain(container.unique_keys.iter().flat_map(|k| &k.paths))
        .any(|p| *p == dotted);
    if keyed {
        return Err(format!(
            "`{}` is a partition key or unique key path: documents cannot be given or change a value there in place",
            path.join(".")
        ));
    }
    Ok((container, document_type, path))
}

/// A value object made embedded again: its separate documents (`document_type` in the
/// old model) and their holder share the container and its partition key; the holder's
/// property is a top-level one.
pub(super) fn embed(
    old: &LogicalModel,
    new: &LogicalModel,
    change: &Change,
    document_type: &str,
    many: bool,
) -> Result<Step, String> {
    let name = &change.subject.container;
    let (Some(before), Some(after)) = (old.container(name), new.container(name)) else {
        return Err(
            "the separate documents and their new holder are in different containers: migrate one change at a time"
                .into(),
        );
    };
    single_level(before)?;
    single_level(after)?;
    if before.partition_key_property != after.partition_key_property {
        return Err("the container is also repartitioned: migrate one change at a time".into());
    }
    let child = before
        .document_type(document_type)
        .ok_or_else(|| format!("`{document_type}` is not a document type of `{name}` in the old model"))?;
    let holder = subject_type(after, change).ok_or("the holder is not in the new model's container")?;
    let [property] = change.subject.path.as_slice() else {
        return Err("embedded inside another embedded object: not migrated yet".into());
    };
    let site = holder
        .embedded
        .iter()
        .find(|e| &e.name == property)
        .ok_or_else(|| format!("`{property}` is not embedded in the new `{}`", holder.name))?;
    let parent_property = match (&child.parent, holder.role) {
        (Some(link), _) if link.entity == holder.source => Some(link.property.clone()),
        (None, Role::Root) => None,
        _ => return Err("the separate documents' parent link does not name the new holder".into()),
    };
    if !matches!(holder.id, IdSource::Identity { .. }) {
        return Err("the holder's id is not its identity: its children cannot find it".into());
    }
    let keep = site
        .attributes
        .iter()
        .map(|a| a.name.clone())
        .chain(site.embedded.iter().map(|e| e.name.clone()))
        .chain(site.references.iter().map(|r| r.name.clone()))
        .collect();
    Ok(Step::EmbedSeparate {
        container: name.clone(),
        child: child.discriminator.clone(),
        holder: holder.discriminator.clone(),
        property: property.clone(),
        many,
        partition_key_property: after.partition_key_property.clone(),
        parent_property,
        keep,
        lease: LeaseRef {
            container: name.clone(),
            partition_key_property: after.partition_key_property.clone(),
            id: format!("{LEASE_TYPE}-embed-{}-{property}", child.discriminator),
        },
    })
}

/// Claims added for a value made unique across partitions: the claim document type's
/// container in the new model, its owner's container unchanged (not copied elsewhere)
/// and under a single-level key.
pub(super) fn claims(new: &LogicalModel, change: &Change, copied: &[&str]) -> Result<Step, String> {
    let name = &change.subject.container;
    let container = new
        .container(name)
        .ok_or("the claims container is not in the new model")?;
    let claim = subject_type(container, change).ok_or("the claim document type is not in the new model")?;
    let of = claim.claim_of.as_ref().ok_or("the document type is not a claim")?;
    if copied.contains(&of.container.as_str()) {
        return Err(format!(
            "the owners' container `{}` is also copied: migrate one change at a time",
            of.container
        ));
    }
    let owners = new
        .container(&of.container)
        .ok_or("the owners' container is not in the new model")?;
    single_level(owners)?;
    let owner = owners
        .document_type(&of.document_type)
        .ok_or("the owners' document type is not in the new model")?;
    Ok(Step::ClaimValues {
        container: name.clone(),
        claim_property: container.partition_key_property.clone(),
        claim: claim.discriminator.clone(),
        owner_container: of.container.clone(),
        owner: owner.discriminator.clone(),
        attribute: of.attribute.clone(),
        owner_partition_key_property: owners.partition_key_property.clone(),
        lease: LeaseRef {
            container: name.clone(),
            partition_key_property: container.partition_key_property.clone(),
            id: format!("{LEASE_TYPE}-claims-{}", claim.discriminator),
        },
    })
}

/// The document type `change` is about, in `container`.
pub(super) fn subject_type<'m>(
    container: &'m cosmap_mapper::Container,
    change: &Change,
) -> Option<&'m cosmap_mapper::DocumentType> {
    change
        .subject
        .document_type
        .as_deref()
        .and_then(|d| container.document_type(d))
}

/// Refuses a container under a hierarchical key: no step handles its array values yet.
pub(super) fn single_level(container: &cosmap_mapper::Container) -> Result<(), String> {
    if container.sub_partition_key_properties.is_empty() {
        Ok(())
    } else {
        Err("hierarchical partition keys are not migrated yet".into())
    }
}
