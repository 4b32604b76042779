//! Derived data on the samples, as the writes that keep it would leave it: counts
//! (`computedValue`) and subsets (`subset`).

use super::*;

/// Whether sample `s` is one of the `counted` documents (in `container`) that belong to
/// `parent`, a sample of element `per`: by its parent link, its reference to it, or
/// else its logical partition.
pub(crate) fn belongs(counted: &DocumentType, container: &str, per: &str, parent: &Sample, s: &Sample) -> bool {
    if s.container != container || s.document_type != counted.name {
        return false;
    }
    if let Some(link) = counted.parent.as_ref().filter(|l| l.entity == per) {
        return s.body.get(&link.property).and_then(Value::as_str) == Some(parent.id.as_str());
    }
    if let Some(reference) = counted.references.iter().find(|x| x.target == per && !x.many) {
        return s
            .body
            .get(&reference.name)
            .and_then(|v| v.get("id"))
            .and_then(Value::as_str)
            == Some(parent.id.as_str());
    }
    s.partition_key.starts_with(&parent.partition_key)
}

/// Sets every count kept on a sample (computedValue) to the number of its children
/// among `samples`.
pub(crate) fn keep_counts(model: &LogicalModel, samples: &mut [Sample]) {
    let mut updates: Vec<(usize, String, usize)> = Vec::new();
    for (i, parent) in samples.iter().enumerate() {
        let Some(d) = document_type_of(model, parent) else {
            continue;
        };
        for v in &d.computed {
            let Some(counted) = model
                .container(&v.container)
                .and_then(|c| c.document_type(&v.document_type))
            else {
                continue;
            };
            let n = samples
                .iter()
                .filter(|s| belongs(counted, &v.container, &d.source, parent, s))
                .count();
            updates.push((i, v.name.clone(), n));
        }
    }
    for (i, name, n) in updates {
        if let Value::Object(body) = &mut samples[i].body {
            body.insert(name, json!(n));
        }
    }
}

/// The items subset `e` of `parent` (a sample of element `per`) holds: its newest
/// children among `samples` by the subset's sort, at most its bound, each with the
/// child's id under the identity's name and the properties the subset keeps.
pub(crate) fn subset_items(
    model: &LogicalModel,
    e: &Embedded,
    per: &str,
    parent: &Sample,
    samples: &[Sample],
) -> Vec<Value> {
    let Some(of) = &e.subset else {
        return Vec::new();
    };
    let Some(counted) = model
        .container(&of.container)
        .and_then(|c| c.document_type(&of.document_type))
    else {
        return Vec::new();
    };
    let mut children: Vec<&Sample> = samples
        .iter()
        .filter(|s| belongs(counted, &of.container, per, parent, s))
        .collect();
    children.sort_by(|a, b| {
        for key in &of.sort {
            let (name, descending) = match key.strip_prefix('-') {
                Some(name) => (name, true),
                None => (key.as_str(), false),
            };
            let ordering = crate::expected::cosmos_order(a.body.get(name), b.body.get(name));
            let ordering = if descending { ordering.reverse() } else { ordering };
            if ordering != std::cmp::Ordering::Equal {
                return ordering;
            }
        }
        std::cmp::Ordering::Equal
    });
    children.truncate(usize::try_from(of.newest).unwrap_or(usize::MAX));
    let mut names = e.attributes.iter().map(|a| a.name.as_str());
    let identity = names.next().unwrap_or("id");
    let kept: Vec<&str> = names
        .chain(e.embedded.iter().map(|x| x.name.as_str()))
        .chain(e.references.iter().map(|r| r.name.as_str()))
        .collect();
    children
        .into_iter()
        .map(|child| {
            let mut item = Map::new();
            item.insert(identity.to_string(), json!(child.id));
            for name in &kept {
                if let Some(value) = child.body.get(*name) {
                    item.insert(name.to_string(), value.clone());
                }
            }
            Value::Object(item)
        })
        .collect()
}

/// Sets every subset a sample keeps (`subset`) to its newest children among `samples`.
pub(crate) fn keep_subsets(model: &LogicalModel, samples: &mut [Sample]) {
    let mut updates: Vec<(usize, String, Vec<Value>)> = Vec::new();
    for (i, parent) in samples.iter().enumerate() {
        let Some(d) = document_type_of(model, parent) else {
            continue;
        };
        for e in d.embedded.iter().filter(|e| e.subset.is_some()) {
            updates.push((i, e.name.clone(), subset_items(model, e, &d.source, parent, samples)));
        }
    }
    for (i, name, items) in updates {
        if let Value::Object(body) = &mut samples[i].body {
            body.insert(name, Value::Array(items));
        }
    }
}

/// The document type of sample `s` in `model`.
fn document_type_of<'m>(model: &'m LogicalModel, s: &Sample) -> Option<&'m DocumentType> {
    model.container(&s.container)?.document_type(&s.document_type)
}
