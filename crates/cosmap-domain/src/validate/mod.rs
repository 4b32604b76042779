//! Validation: checks a [`ModelSpec`] for every problem at once and builds the
//! lookup index a [`crate::DomainModel`] answers questions from.

mod access_patterns;
mod aggregates;
mod defaults;
mod names;
mod numbers;
mod pins;
mod relationships;

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
/// Keyed by the names in the model's own text (`'a`): no name is copied.
pub(crate) struct Index<'a> {
    /// Entity and value object names → declaration.
    pub elements: NameMap<&'a str, ElementId>,
    /// Entity and value object names → the aggregate (index) they belong to.
    pub aggregate_of: NameMap<&'a str, usize>,
    /// Element names → the relationships (indexes, in declaration order) from it.
    pub from: NameMap<&'a str, Vec<usize>>,
}

impl Index<'_> {
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

/// Validates `spec`; returns what `then` makes of the index, or every problem found,
/// in the order of the checks: names, numbers, aggregates, relationships, access
/// patterns. The checks of the element names and of the aggregates fill the index;
/// the checks after them read it. `then` runs only on a model with no problem.
pub(crate) fn validate<T>(spec: &ModelSpec, then: impl FnOnce(&Index<'_>) -> T) -> Result<T, Vec<Diagnostic>> {
    let mut checker = Checker {
        spec,
        diagnostics: Vec::new(),
        index: Index::sized_for(spec),
    };
    checker.check_element_names();
    checker.check_other_names();
    checker.check_numbers();
    checker.check_aggregates();
    checker.check_aggregate_clashes();
    checker.check_pinned_keys();
    checker.check_pins();
    checker.check_relationships();
    checker.check_property_clashes();
    checker.check_access_patterns();
    if checker.diagnostics.is_empty() {
        Ok(then(&checker.index))
    } else {
        Err(checker.diagnostics)
    }
}

impl<'a> Index<'a> {
    /// The index of `spec` before validation: the relationships by element, and room
    /// for the elements and their aggregates.
    fn sized_for(spec: &'a ModelSpec) -> Self {
        let elements = spec.entities.len() + spec.value_objects.len();
        let mut from: NameMap<&str, Vec<usize>> = name_map(elements.min(spec.relationships.len()));
        for (i, rel) in spec.relationships.iter().enumerate() {
            from.entry(rel.from.as_str()).or_default().push(i);
        }
        Index {
            elements: name_map(elements),
            aggregate_of: name_map(elements),
            from,
        }
    }
}

pub(crate) struct Checker<'a> {
    spec: &'a ModelSpec,
    diagnostics: Vec<Diagnostic>,
    /// Filled by the checks of the element names and the aggregates; read by those
    /// after them.
    index: Index<'a>,
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
        let help = match closest(name, self.index.elements.keys().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None if name.is_empty() => "give the name of a declared entity or value object".to_string(),
            None => "declare it under `entities` or `valueObjects`, or fix the name".to_string(),
        };
        self.report(Diagnostic::new(path(), message).help(help));
        false
    }
}
