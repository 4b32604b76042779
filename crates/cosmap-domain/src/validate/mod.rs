//! Validation: checks a [`ModelSpec`] for every problem at once and builds the
//! lookup index a [`crate::DomainModel`] answers questions from.

mod access_patterns;
mod aggregates;
mod defaults;
mod names;
mod numbers;
mod relationships;

use std::borrow::Cow;

use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::{ModelSpec, Relationship};
use crate::name_lookup::{name_map, NameMap};
use crate::naming::closest;

/// Where an entity or value object is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ElementId {
    Entity(usize),
    ValueObject(usize),
}

/// Name lookups built while validating; complete only when there are no diagnostics.
/// Hash maps: looked up by name, and what iterates them sorts what it finds first.
#[derive(Debug, Default, Clone)]
pub(crate) struct Index {
    /// Entity and value object names → declaration.
    pub elements: NameMap<String, ElementId>,
    /// Entity and value object names → the aggregate (index) they belong to.
    pub aggregate_of: NameMap<String, usize>,
    /// Element names → the relationships (indexes, in declaration order) from it.
    pub from: NameMap<String, Vec<usize>>,
}

impl Index {
    /// The relationships of `spec` declared from `element`, in declaration order.
    pub(crate) fn relationships_from<'s>(
        &self,
        spec: &'s ModelSpec,
        element: &str,
    ) -> impl Iterator<Item = &'s Relationship> + use<'s, '_> {
        self.from
            .get(element)
            .into_iter()
            .flatten()
            .map(move |&i| &spec.relationships[i])
    }
}

/// From this many access patterns they are checked on a thread of their own: below
/// it a thread costs more than it saves.
const PARALLEL_FROM: usize = 512;

/// Validates `spec`; returns what `then` makes of the index, or every problem found.
/// On a large model `then` runs beside the last checks, once the index is complete
/// and the checks before found nothing (its result is dropped when the last checks
/// find a problem); on a small one, after every check passed.
pub(crate) fn validate<T>(spec: &ModelSpec, then: impl FnOnce(&Index) -> T) -> Result<T, Vec<Diagnostic>> {
    let elements = spec.entities.len() + spec.value_objects.len();
    let mut from: NameMap<String, Vec<usize>> = name_map(elements.min(spec.relationships.len()));
    for (i, rel) in spec.relationships.iter().enumerate() {
        from.entry(rel.from.clone()).or_default().push(i);
    }
    let mut checker = Checker {
        spec,
        diagnostics: Vec::new(),
        index: Cow::Owned(Index {
            elements: name_map(elements),
            aggregate_of: name_map(elements),
            from,
        }),
    };
    checker.check_names();
    checker.check_numbers();
    checker.check_aggregates();
    // The index is complete: relationships and access patterns only read it, so on a
    // large model they are checked on two threads, their problems reported in the
    // same order as one after the other.
    let index = std::mem::take(&mut checker.index).into_owned();
    let mut checker = Checker {
        index: Cow::Borrowed(&index),
        ..checker
    };
    let made = if spec.access_patterns.len() < PARALLEL_FROM {
        checker.check_relationships();
        checker.check_access_patterns();
        checker.diagnostics.is_empty().then(|| then(&index))
    } else {
        let mut patterns = Checker {
            spec,
            diagnostics: Vec::new(),
            index: Cow::Borrowed(&index),
        };
        let (later, made) = std::thread::scope(|scope| {
            let later = scope.spawn(move || {
                patterns.check_access_patterns();
                patterns.diagnostics
            });
            checker.check_relationships();
            let made = checker.diagnostics.is_empty().then(|| then(&index));
            (later.join(), made)
        });
        checker
            .diagnostics
            .extend(later.unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        made
    };
    match made {
        Some(made) if checker.diagnostics.is_empty() => Ok(made),
        _ => Err(checker.diagnostics),
    }
}

pub(crate) struct Checker<'a> {
    spec: &'a ModelSpec,
    diagnostics: Vec<Diagnostic>,
    /// Owned while the checks of names and aggregates fill it; then shared by the
    /// checks that only read it (on two threads for a large model).
    index: Cow<'a, Index>,
}

impl<'a> Checker<'a> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn entity_path(i: usize) -> JsonPath {
        JsonPath::root().key("entities").index(i)
    }

    fn value_object_path(i: usize) -> JsonPath {
        JsonPath::root().key("valueObjects").index(i)
    }

    fn element_path(id: ElementId) -> JsonPath {
        match id {
            ElementId::Entity(i) => Self::entity_path(i),
            ElementId::ValueObject(i) => Self::value_object_path(i),
        }
    }

    /// The relationships declared from `element`, in declaration order.
    fn relationships_from(&self, element: &str) -> impl Iterator<Item = &'a Relationship> + use<'a, '_> {
        self.index.relationships_from(self.spec, element)
    }

    fn is_entity(&self, name: &str) -> bool {
        matches!(self.index.elements.get(name), Some(ElementId::Entity(_)))
    }

    /// The root entity of the aggregate `name` belongs to, if known.
    fn root_of(&self, name: &str) -> Option<&'a str> {
        let spec = self.spec;
        self.index
            .aggregate_of
            .get(name)
            .map(|&a| spec.aggregates[a].root.as_str())
    }

    /// The identity attribute of entity `name`.
    fn identity_of(&self, name: &str) -> Option<&'a str> {
        match self.index.elements.get(name) {
            Some(ElementId::Entity(i)) => Some(self.spec.entities[*i].identity.as_str()),
            _ => None,
        }
    }

    /// The declared attributes of element `name` (none for an unknown name).
    fn attributes_of(&self, name: &str) -> &'a [crate::model::Attribute] {
        match self.index.elements.get(name) {
            Some(ElementId::Entity(i)) => &self.spec.entities[*i].attributes,
            Some(ElementId::ValueObject(i)) => &self.spec.value_objects[*i].attributes,
            None => &[],
        }
    }

    /// What element `name` itself holds: its identity (an entity's) and its
    /// attributes; `None` for an unknown name.
    fn own_names(&self, name: &str) -> Option<Vec<&'a str>> {
        self.index.elements.get(name)?;
        let attributes = self.attributes_of(name).iter().map(|a| a.name.as_str());
        Some(self.identity_of(name).into_iter().chain(attributes).collect())
    }

    /// Reports `name` at `path` as unknown unless it is a declared element (`path` is
    /// built only then).
    fn require_element(&mut self, name: &str, path: impl FnOnce() -> JsonPath, role: &str) -> bool {
        if self.index.elements.contains_key(name) {
            return true;
        }
        let message = if name.is_empty() {
            format!("{role} is empty")
        } else {
            format!("{role} `{name}` is not a declared entity or value object")
        };
        let help = match closest(name, self.index.elements.keys().map(String::as_str)) {
            Some(near) => format!("did you mean `{near}`?"),
            None if name.is_empty() => "give the name of a declared entity or value object".to_string(),
            None => "declare it under `entities` or `valueObjects`, or fix the name".to_string(),
        };
        self.report(Diagnostic::new(path(), message).help(help));
        false
    }
}
