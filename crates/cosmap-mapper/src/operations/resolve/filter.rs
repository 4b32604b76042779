//! How a filter or sort attribute is met in a document: partition key, id or a
//! condition on a property path.

use super::*;

/// How filter attribute `f` of element `element` is met at `at`.
pub(super) fn filter(at: &Location<'_>, f: &str) -> Match {
    let levels = at.container.partition_key_properties();
    if let Some(level) = levels.iter().position(|l| *l == f) {
        return Match::PartitionKey(level);
    }
    // A root partitioned by a reference (`partitionKey`): the path to the referenced
    // id (`member.memberId`) is the partition key too.
    if let Some((first, rest)) = f.split_once('.') {
        let level = levels.iter().position(|l| *l == rest);
        // A copy keyed by that reference's id (`author.id` gives its `/userId`) too.
        let copy_keyed = at
            .document
            .copy_of
            .as_ref()
            .is_some_and(|of| of.partition_key_from.names() == [first, "id"]);
        // The key is the first single reference to a root of that identity: with two
        // (`product`, `product2`), a path through the second is a plain condition.
        let keyed = at.path.is_empty()
            && (at.document.role != Role::Copy || copy_keyed)
            && level.is_some()
            && at
                .node
                .references()
                .iter()
                .find(|r| !r.many && r.target_identity == rest && r.target != at.document.source)
                .is_some_and(|r| r.name == first);
        if let (true, Some(level)) = (keyed, level) {
            return Match::PartitionKey(level);
        }
    }
    if at.path.is_empty() && identity_of(at.document) == Some(f) {
        return Match::Id;
    }
    if let Some(parent) = &at.document.parent {
        if parent.property == f {
            return Match::Condition(condition(&[], &[f], f));
        }
    }
    Match::Condition(find_property(at, f).unwrap_or_else(|| unfound(f)))
}

/// A filter the document does not store where it was looked for: a path it does
/// not hold matches nothing (`c.x.y = @p` on a missing path is false), as verify
/// reports; a bare name is looked for on the document itself.
pub(super) fn unfound(f: &str) -> Condition {
    let leaf: Vec<&str> = f.split('.').collect();
    condition(&[], &leaf, f)
}

/// Where property `f` sits in the element's object: an attribute, a reference's
/// id, or an embedded reference data snapshot's identity.
pub(super) fn find_property(at: &Location<'_>, f: &str) -> Option<Condition> {
    let node: PropertyHolder<'_> = at.node;
    // A path: a reference and the referenced root's identity, or an embedded
    // object and one of its attributes.
    if let Some((first, rest)) = f.split_once('.') {
        if let Some(r) = node
            .references()
            .iter()
            .find(|r| r.name == first && r.target_identity == rest)
        {
            return Some(reference_condition(at, r, f));
        }
        let mut steps = at.path.clone();
        let e = node.embedded().iter().find(|e| e.name == first)?;
        let attribute = e.attributes.iter().find(|a| a.name == rest)?;
        steps.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        return Some(Condition {
            contains: attribute.many,
            ..condition(&steps, &[rest], f)
        });
    }
    if let Some(attribute) = node.attributes().iter().find(|a| a.name == f) {
        // A list attribute matches when it holds the value (`ARRAY_CONTAINS`).
        return Some(Condition {
            contains: attribute.many,
            ..condition(&at.path, &[f], f)
        });
    }
    if let Some(r) = node.references().iter().find(|r| r.target_identity == f) {
        return Some(reference_condition(at, r, f));
    }
    let snapshot = node
        .embedded()
        .iter()
        .find(|e| e.kind == EmbeddedKind::ReferenceData && e.attributes.first().is_some_and(|a| a.name == f));
    if let Some(e) = snapshot {
        let mut steps = at.path.clone();
        steps.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        return Some(condition(&steps, &[f], f));
    }
    None
}

/// The condition on the id a reference `r` holds: `c.author.id`, or for a list of
/// references its elements' `id` (one must match).
pub(super) fn reference_condition(at: &Location<'_>, r: &crate::logical_model::Reference, f: &str) -> Condition {
    let mut steps = at.path.clone();
    if r.many {
        steps.push(Step {
            name: r.name.clone(),
            many: true,
        });
        return Condition {
            once: true,
            ..condition(&steps, &["id"], f)
        };
    }
    condition(&steps, &[&r.name, "id"], f)
}

pub(super) fn condition(steps: &[Step], leaf: &[&str], param: &str) -> Condition {
    Condition {
        steps: steps.to_vec(),
        leaf: leaf.iter().map(|s| s.to_string()).collect(),
        param: param.to_string(),
        contains: false,
        op: FilterOp::Equal,
        once: false,
    }
}

/// The property path of sort attribute `s`, unless it sits inside an array (not sortable).
pub(super) fn sort_path(at: &Location<'_>, s: &str) -> Option<Vec<String>> {
    match filter(at, s) {
        Match::PartitionKey(level) => at
            .container
            .partition_key_properties()
            .get(level)
            .map(|l| vec![l.to_string()]),
        Match::Id => Some(vec!["id".to_string()]),
        Match::Condition(c) if !c.contains && c.steps.iter().all(|st| !st.many) => {
            Some(c.steps.iter().map(|st| st.name.clone()).chain(c.leaf).collect())
        }
        Match::Condition(_) => None,
    }
}

/// The index path a condition needs, e.g. `/deliveryAddresses/[]/addressType/?`.
pub(super) fn index_path(c: &Condition) -> String {
    let mut parts: Vec<String> = Vec::new();
    for step in &c.steps {
        parts.push(step.name.clone());
        if step.many {
            parts.push("[]".to_string());
        }
    }
    parts.extend(c.leaf.iter().cloned());
    if c.contains {
        parts.push("[]".to_string());
    }
    format!("/{}/?", parts.join("/"))
}
