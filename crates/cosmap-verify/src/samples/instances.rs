//! Which documents exist: the instances (ids, partition keys, parents) of every
//! document type, roots first.

use super::*;

/// The instances of every document type, by container and document type.
pub(super) type Instances = BTreeMap<TypeKey, Vec<Instance>>;

/// The instances of every root, everywhere (before any child: a root partitioned by
/// a reference takes the referenced root's id as its partition key value, and its
/// children take it from the root): [`ROOTS`] (a tree [`TREE_ROOTS`], deep enough
/// for grandchildren, see `tree_parent`), or as many as a limited read asks for.
pub(super) fn root_instances(model: &LogicalModel, limited: &BTreeMap<String, usize>) -> Instances {
    let mut instances = Instances::new();
    for c in &model.containers {
        for d in c.document_types.iter().filter(|d| d.role == Role::Root) {
            let tree = d
                .references
                .iter()
                .any(|r| r.optional && !r.many && r.target == d.source);
            let least = if tree { TREE_ROOTS } else { ROOTS };
            let n = limited.get(&d.source).copied().unwrap_or(0).max(least);
            instances.insert(key(&c.name, &d.name), (0..n).map(|i| root_instance(c, d, i)).collect());
        }
    }
    instances
}

/// The roots partitioned by a reference take the ids of the referenced roots as
/// their partition key values (in turn, by group).
pub(super) fn key_roots_by_reference(model: &LogicalModel, instances: &mut Instances) -> Result<(), VerifyError> {
    for c in &model.containers {
        for d in c.document_types.iter().filter(|d| d.role == Role::Root) {
            let Some(r) = partitioned_by(c, d) else {
                continue;
            };
            let targets: Vec<String> = instances
                .get(&key(&r.target_container, &r.target))
                .map(|list| list.iter().map(|t| t.id.clone()).collect())
                .unwrap_or_default();
            if targets.is_empty() {
                return Err(VerifyError::Samples(format!(
                    "`{}` in `{}` is partitioned by its `{}`, whose `{}` has no documents",
                    d.name, c.name, r.name, r.target
                )));
            }
            for instance in instances.get_mut(&key(&c.name, &d.name)).into_iter().flatten() {
                instance.partition_key = instance
                    .partition_key
                    .clone()
                    .with_first(targets[instance.group % targets.len()].clone());
            }
        }
    }
    Ok(())
}

/// The instances of child document type `d` (in `c`) under its parents' instances:
/// [`BUCKETS`] windows per parent for buckets, else [`CHILDREN`] in turn per parent
/// (the first as many as a limited read asks for).
pub(super) fn child_instances(
    c: &Container,
    d: &DocumentType,
    instances: &Instances,
    limited: &BTreeMap<String, usize>,
) -> Result<Vec<Instance>, VerifyError> {
    let parent_type = parent_type(c, d)?;
    let parents = instances.get(&key(&c.name, &parent_type)).ok_or_else(|| {
        VerifyError::Samples(format!(
            "`{}` in `{}` belongs to `{parent_type}`, which has no documents there",
            d.name, c.name
        ))
    })?;
    let mut children = Vec::new();
    // Buckets: a few windows per parent, each named by its window.
    if let Some(b) = &d.bucket {
        for (p, parent) in parents.iter().enumerate() {
            for k in 0..BUCKETS {
                children.push(Instance {
                    id: window_of(&bucket_time(b.window, k, 0), b.window),
                    partition_key: parent.partition_key.clone(),
                    parent: None,
                    ordinal: p * BUCKETS + k,
                    group: k,
                });
            }
        }
        return Ok(children);
    }
    for (p, parent) in parents.iter().enumerate() {
        let mut count = CHILDREN[p % CHILDREN.len()];
        if p == 0 {
            count = count.max(limited.get(&d.source).copied().unwrap_or(0));
        }
        for _ in 0..count {
            children.push(child_instance(d, parent, children.len()));
        }
    }
    Ok(children)
}

pub(super) fn root_instance(c: &Container, d: &DocumentType, i: usize) -> Instance {
    let id = format!("{}-{}", d.discriminator, i + 1);
    let group = if i < ROOTS { i / 2 } else { 0 };
    // Each level: the root's id where it is the identity; else (partitioned by an
    // attribute of the root, `partitionKey`) a value neighbours share. (By a reference:
    // replaced by the referenced root's id, see `Generator::new`.)
    let level = |property: &str| {
        if d.id.attribute() == Some(property) {
            id.clone()
        } else {
            format!("{property}-{}", group + 1)
        }
    };
    let partition_key = match c.kind {
        ContainerKind::Dictionary => Key::one(d.discriminator.clone()),
        ContainerKind::Aggregate | ContainerKind::Claims => {
            Key::levels(c.partition_key_properties().into_iter().map(level).collect())
        }
    };
    Instance {
        id,
        partition_key,
        parent: None,
        ordinal: i,
        group,
    }
}

/// The reference of root `d` whose target's id is `c`'s partition key value, when
/// the `partitionKey` optimisation partitioned `c` by it.
pub(super) fn partitioned_by<'c>(c: &'c Container, d: &'c DocumentType) -> Option<&'c Reference> {
    if c.kind != ContainerKind::Aggregate || d.id.attribute() == Some(c.partition_key_property.as_str()) {
        return None;
    }
    d.references
        .iter()
        .find(|r| !r.many && r.target != d.source && r.target_identity == c.partition_key_property)
}

pub(super) fn child_instance(d: &DocumentType, parent: &Instance, ordinal: usize) -> Instance {
    Instance {
        id: format!("{}-{}", d.discriminator, ordinal + 1),
        partition_key: parent.partition_key.clone(),
        parent: d.parent.as_ref().map(|_| parent.id.clone()),
        ordinal,
        group: ordinal / 2,
    }
}

/// The document type a non-root document belongs to: its parent entity, or the root.
pub(super) fn parent_type(c: &Container, d: &DocumentType) -> Result<String, VerifyError> {
    if let Some(link) = &d.parent {
        return c
            .document_types
            .iter()
            .find(|p| p.source == link.entity && p.role != Role::Copy)
            .map(|p| p.name.clone())
            .ok_or_else(|| {
                VerifyError::Samples(format!(
                    "`{}` belongs to `{}`, which is not a document type of `{}`",
                    d.name, link.entity, c.name
                ))
            });
    }
    let roots: Vec<&DocumentType> = c.document_types.iter().filter(|p| p.role == Role::Root).collect();
    match roots.as_slice() {
        [root] => Ok(root.name.clone()),
        _ => Err(VerifyError::Samples(format!(
            "`{}` in `{}` needs one root document type to belong to; the container has {}",
            d.name,
            c.name,
            roots.len()
        ))),
    }
}
