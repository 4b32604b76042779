//! Where an element's data lives in a logical model: its own document, or an
//! object embedded (possibly inside arrays) in another document.

use crate::logical_model::{Container, DocumentType, Embedded, EmbeddedKind, Property, Reference, Role};

/// One step into a document: a property, and whether it holds an array.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Step {
    pub name: String,
    pub many: bool,
}

/// The object that holds an element's own properties.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Node<'a> {
    Document(&'a DocumentType),
    Embedded(&'a Embedded),
}

impl<'a> Node<'a> {
    pub fn attributes(&self) -> &'a [Property] {
        match self {
            Node::Document(d) => &d.attributes,
            Node::Embedded(e) => &e.attributes,
        }
    }

    pub fn embedded(&self) -> &'a [Embedded] {
        match self {
            Node::Document(d) => &d.embedded,
            Node::Embedded(e) => &e.embedded,
        }
    }

    pub fn references(&self) -> &'a [Reference] {
        match self {
            Node::Document(d) => &d.references,
            Node::Embedded(e) => &e.references,
        }
    }
}

/// Where an element lives.
#[derive(Debug, Clone)]
pub(crate) struct Location<'a> {
    pub container: &'a Container,
    pub document: &'a DocumentType,
    /// From the document to the element's object; empty when the element is the document.
    pub path: Vec<Step>,
    pub node: Node<'a>,
}

/// Every place `element` lives: its home document first (in container order),
/// then, when `copies` is set, optimisation copies.
pub(crate) fn locate<'a>(containers: &'a [Container], element: &str, copies: bool) -> Vec<Location<'a>> {
    let mut found = Vec::new();
    let mut copied = Vec::new();
    for container in containers {
        for document in &container.document_types {
            if document.role == Role::Copy && !copies {
                continue;
            }
            let location = if document.source == element {
                Some(Location {
                    container,
                    document,
                    path: Vec::new(),
                    node: Node::Document(document),
                })
            } else {
                find(&document.embedded, element, &mut Vec::new()).map(|(path, e)| Location {
                    container,
                    document,
                    path,
                    node: Node::Embedded(e),
                })
            };
            match location {
                Some(l) if document.role == Role::Copy => copied.push(l),
                Some(l) => found.push(l),
                None => {}
            }
        }
    }
    found.extend(copied);
    found
}

fn find<'a>(embedded: &'a [Embedded], element: &str, path: &mut Vec<Step>) -> Option<(Vec<Step>, &'a Embedded)> {
    for e in embedded.iter().filter(|e| e.kind == EmbeddedKind::ValueObject) {
        path.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        if e.source == element {
            return Some((path.clone(), e));
        }
        if let Some(hit) = find(&e.embedded, element, path) {
            return Some(hit);
        }
        path.pop();
    }
    None
}
