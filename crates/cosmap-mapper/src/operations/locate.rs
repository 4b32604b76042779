//! Where an element's data lives in a logical model: its own document, or an
//! object embedded (possibly inside arrays) in another document.

use cosmap_domain::NameMap;

use crate::logical_model::{Container, DocumentType, Embedded, EmbeddedKind, PropertyHolder, Role};

/// One step into a document: a property, and whether it holds an array.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Step {
    pub name: String,
    pub many: bool,
}

/// Where an element lives.
#[derive(Debug, Clone)]
pub(crate) struct Location<'a> {
    pub container: &'a Container,
    pub document: &'a DocumentType,
    /// From the document to the element's object; empty when the element is the document.
    pub path: Vec<Step>,
    pub node: PropertyHolder<'a>,
}

/// Every place each element lives, by element name: its home document first (in
/// container order), then optimisation copies. Built once per logical model; only
/// looked up (never iterated), so its hash order reaches no output.
pub(crate) fn index(containers: &[Container]) -> NameMap<&str, Vec<Location<'_>>> {
    let mut homes: NameMap<&str, Vec<Location<'_>>> = NameMap::default();
    let mut copies: NameMap<&str, Vec<Location<'_>>> = NameMap::default();
    for container in containers {
        for document in &container.document_types {
            let map = if document.role == Role::Copy {
                &mut copies
            } else {
                &mut homes
            };
            map.entry(document.source.as_str()).or_default().push(Location {
                container,
                document,
                path: Vec::new(),
                node: PropertyHolder::Document(document),
            });
            let mut found = Vec::new();
            walk(&document.embedded, &mut Vec::new(), &mut found);
            for (element, path, e) in found {
                map.entry(element).or_default().push(Location {
                    container,
                    document,
                    path,
                    node: PropertyHolder::Embedded(e),
                });
            }
        }
    }
    for (element, list) in copies {
        homes.entry(element).or_default().extend(list);
    }
    // Most elements live in one place: a list pushed once holds room for four.
    homes.values_mut().for_each(Vec::shrink_to_fit);
    homes
}

/// Every embedded value object under `embedded`, with its path.
fn walk<'a>(embedded: &'a [Embedded], path: &mut Vec<Step>, found: &mut Vec<(&'a str, Vec<Step>, &'a Embedded)>) {
    for e in embedded.iter().filter(|e| e.kind == EmbeddedKind::ValueObject) {
        path.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        found.push((e.source.as_str(), path.clone(), e));
        walk(&e.embedded, path, found);
        path.pop();
    }
}
