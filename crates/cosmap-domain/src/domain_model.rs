//! [`DomainModel`]: a model that passed validation, with lookups by name.

use crate::diagnostic::Diagnostic;
use crate::model::{
    AccessPattern, Aggregate, Attribute, Entity, ModelSpec, Relationship, ThresholdOverrides, ValueObject, Volume,
};
use crate::name_lookup::NameLookup;
use crate::validate::{self, ElementId};

/// A validated domain model: every name resolves, every entity and value object
/// belongs to exactly one aggregate, every number is plausible.
#[derive(Debug, Clone)]
pub struct DomainModel {
    spec: ModelSpec,
    /// Lookups by element name: where it is declared, its aggregate and root, its
    /// parent relationship, the relationships from it.
    lookup: NameLookup,
}

/// An entity or a value object, looked up by name.
#[derive(Debug, Clone, Copy)]
pub enum Element<'a> {
    /// An entity.
    Entity(&'a Entity),
    /// A value object.
    ValueObject(&'a ValueObject),
}

impl<'a> Element<'a> {
    /// Its name.
    pub fn name(&self) -> &'a str {
        match self {
            Element::Entity(e) => &e.name,
            Element::ValueObject(v) => &v.name,
        }
    }

    /// Its attributes (for an entity, without the identity).
    pub fn attributes(&self) -> &'a [Attribute] {
        match self {
            Element::Entity(e) => &e.attributes,
            Element::ValueObject(v) => &v.attributes,
        }
    }

    /// Its declared volume, if any.
    pub fn volume(&self) -> Option<&'a Volume> {
        match self {
            Element::Entity(e) => e.volume.as_ref(),
            Element::ValueObject(v) => v.volume.as_ref(),
        }
    }

    /// Its `description`, when the model gives one.
    pub fn description(&self) -> Option<&'a str> {
        match self {
            Element::Entity(e) => e.description.as_deref(),
            Element::ValueObject(v) => v.description.as_deref(),
        }
    }

    /// True for entities.
    pub fn is_entity(&self) -> bool {
        matches!(self, Element::Entity(_))
    }
}

impl DomainModel {
    /// Validates `spec`; on failure returns every problem found (with JSON paths,
    /// without line numbers: the spec has no text).
    pub fn new(spec: ModelSpec) -> Result<Self, Vec<Diagnostic>> {
        // The lookups are built from the validation index.
        let lookup = validate::validate(&spec, |index| NameLookup::new(&spec, index))?;
        Ok(DomainModel { spec, lookup })
    }

    /// The relationship that leads to `name` from inside its own aggregate (the
    /// first declared, when several do): how `name` hangs from its parent. `None`
    /// for a root, even when a member refers back to it.
    pub fn parent_relationship(&self, name: &str) -> Option<&Relationship> {
        let i = self.lookup.get(name)?.parent?;
        Some(&self.spec.relationships[i])
    }

    /// The model as declared.
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// The model's name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// All entities, in declaration order.
    pub fn entities(&self) -> &[Entity] {
        &self.spec.entities
    }

    /// All value objects, in declaration order.
    pub fn value_objects(&self) -> &[ValueObject] {
        &self.spec.value_objects
    }

    /// All aggregates, in declaration order.
    pub fn aggregates(&self) -> &[Aggregate] {
        &self.spec.aggregates
    }

    /// All relationships, in declaration order.
    pub fn relationships(&self) -> &[Relationship] {
        &self.spec.relationships
    }

    /// All access patterns, in declaration order.
    pub fn access_patterns(&self) -> &[AccessPattern] {
        &self.spec.access_patterns
    }

    /// The elements a pattern's `returns` names: an element itself, or for a
    /// property of the start (`"categories"`) or a path (`"author.username"`), the
    /// element the relationship of that property leads to.
    pub fn returned_elements<'p>(&'p self, pattern: &'p AccessPattern) -> Vec<&'p str> {
        let mut out: Vec<&str> = Vec::new();
        for entry in &pattern.returns {
            let element = if self.element(entry).is_some() {
                Some(entry.as_str())
            } else {
                let first = entry.split('.').next().unwrap_or(entry);
                self.relationship_by_property(&pattern.start, first)
                    .map(|r| r.to.as_str())
            };
            if let Some(element) = element.filter(|e| !out.contains(e)) {
                out.push(element);
            }
        }
        out
    }

    /// The relationship from `element` stored under `property`.
    pub fn relationship_by_property(&self, element: &str, property: &str) -> Option<&Relationship> {
        self.relationships_from(element).find(|r| r.property_name() == property)
    }

    /// The relationships from or to `element`, in declaration order, each once.
    pub fn relationships_touching<'s>(&'s self, element: &str) -> impl Iterator<Item = &'s Relationship> + use<'s> {
        let touching = self.lookup.get(element).map_or(&[][..], |n| n.touching.as_slice());
        touching.iter().map(|&i| &self.spec.relationships[i])
    }

    /// The access pattern called `name`.
    pub fn access_pattern(&self, name: &str) -> Option<&AccessPattern> {
        self.lookup.pattern(name).map(|i| &self.spec.access_patterns[i])
    }

    /// The relationships declared from `element`, in declaration order.
    pub fn relationships_from<'s>(&'s self, element: &str) -> impl Iterator<Item = &'s Relationship> + use<'s> {
        let from = self.lookup.get(element).map_or(&[][..], |n| n.from.as_slice());
        from.iter().map(|&i| &self.spec.relationships[i])
    }

    /// The attribute a filter of a pattern starting at `start` compares, by the
    /// filter's path: one of `start`'s attributes (`status`), or an attribute of a
    /// value object it holds (`address.city`). `None` for an identity (its own, its
    /// root's or a referenced root's, `author.userId`): identities are text.
    pub fn filter_attribute(&self, start: &str, path: &str) -> Option<&Attribute> {
        match path.split_once('.') {
            None => self.element(start)?.attributes().iter().find(|a| a.name == path),
            Some((property, rest)) => {
                let rel = self.relationship_by_property(start, property)?;
                self.element(&rel.to)?.attributes().iter().find(|a| a.name == rest)
            }
        }
    }

    /// The choices of the mapper's search the model pins (`pins`).
    pub fn pins(&self) -> &[crate::model::Pin] {
        &self.spec.pins
    }

    /// The model's threshold overrides (all unset when the model has none).
    pub fn thresholds(&self) -> ThresholdOverrides {
        self.spec.thresholds.unwrap_or_default()
    }

    /// The entity or value object called `name`.
    pub fn element(&self, name: &str) -> Option<Element<'_>> {
        self.lookup.get(name).map(|n| match n.element {
            ElementId::Entity(i) => Element::Entity(&self.spec.entities[i]),
            ElementId::ValueObject(i) => Element::ValueObject(&self.spec.value_objects[i]),
        })
    }

    /// The entity called `name`.
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        match self.element(name)? {
            Element::Entity(e) => Some(e),
            Element::ValueObject(_) => None,
        }
    }

    /// The aggregate that `name` (an entity or value object) belongs to.
    pub fn aggregate_of(&self, name: &str) -> Option<&Aggregate> {
        let a = self.lookup.get(name)?.aggregate?;
        Some(&self.spec.aggregates[a])
    }

    /// The root entity of the aggregate that `name` belongs to.
    pub fn root_of(&self, name: &str) -> Option<&Entity> {
        let i = self.lookup.get(name)?.root?;
        Some(&self.spec.entities[i])
    }

    /// True when `name` is the root of its aggregate.
    pub fn is_root(&self, name: &str) -> bool {
        self.aggregate_of(name).is_some_and(|a| a.root == name)
    }

    /// True when `a` and `b` belong to the same aggregate.
    pub fn same_aggregate(&self, a: &str, b: &str) -> bool {
        let aggregate = |name: &str| self.lookup.get(name).and_then(|n| n.aggregate);
        matches!((aggregate(a), aggregate(b)), (Some(x), Some(y)) if x == y)
    }
}
