//! Validation: checks a [`ModelSpec`] for every problem at once and builds the
//! lookup index a [`crate::DomainModel`] answers questions from.

mod access_patterns;
mod aggregates;
mod defaults;
mod names;
mod numbers;
mod pins;
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

/// From this many access patterns the checks that read the index run on two threads:
/// below it a thread costs more than it saves.
const PARALLEL_FROM: usize = 512;

/// Validates `spec`; returns what `then` makes of the index, or every problem found,
/// in the order of the checks: names, numbers, aggregates, relationships, access
/// patterns. The checks that fill the index run first, beside those that read only
/// the model (the other names and the numbers); the others only read the index. On a
/// large model each of these two steps runs on two threads, each share's problems put
/// back in that order. `then` runs once the index is complete and the checks before
/// it on its thread found nothing (on a large model beside the second thread's share,
/// whose problems, as the other shares', then drop its result).
pub(crate) fn validate<T>(spec: &ModelSpec, then: impl FnOnce(&Index<'_>) -> T) -> Result<T, Vec<Diagnostic>> {
    validate_on(spec, spec.access_patterns.len() >= PARALLEL_FROM, then)
}

/// [`validate`], on two threads when `parallel` says so.
fn validate_on<T>(spec: &ModelSpec, parallel: bool, then: impl FnOnce(&Index<'_>) -> T) -> Result<T, Vec<Diagnostic>> {
    // The checks that fill the index: the problems of the element names, of the
    // aggregates, and the index.
    let fill = || {
        let mut checker = Checker {
            spec,
            diagnostics: Vec::new(),
            index: Cow::Owned(Index::sized_for(spec)),
        };
        checker.check_element_names();
        let element_names = std::mem::take(&mut checker.diagnostics);
        checker.check_aggregates();
        (element_names, checker.diagnostics, checker.index.into_owned())
    };
    let ((element_names, aggregates, index), (names, numbers)) = if parallel {
        std::thread::scope(|scope| {
            let model_share = scope.spawn(|| Checker::model_share(spec));
            let filled = fill();
            (filled, joined(model_share))
        })
    } else {
        (fill(), Checker::model_share(spec))
    };
    let reader = || Checker {
        spec,
        diagnostics: Vec::new(),
        index: Cow::Borrowed(&index),
    };
    let mut checker = reader();
    let clean_before = element_names.is_empty() && aggregates.is_empty() && names.is_empty() && numbers.is_empty();
    // `key_clashes`: the partition key clashes; `last`: the relationships' property
    // clashes, then the access patterns' problems.
    let ((key_clashes, last), made) = if !parallel {
        let (key_clashes, last) = reader().second_share();
        checker.first_share();
        let clean = clean_before && key_clashes.is_empty() && last.is_empty() && checker.diagnostics.is_empty();
        ((key_clashes, last), clean.then(|| then(&index)))
    } else {
        std::thread::scope(|scope| {
            let second = scope.spawn(|| reader().second_share());
            checker.first_share();
            let made = (clean_before && checker.diagnostics.is_empty()).then(|| then(&index));
            (joined(second), made)
        })
    };
    let mut diagnostics = element_names;
    diagnostics.extend(names);
    diagnostics.extend(numbers);
    diagnostics.extend(aggregates);
    diagnostics.extend(key_clashes);
    diagnostics.extend(checker.diagnostics);
    diagnostics.extend(last);
    match made {
        Some(made) if diagnostics.is_empty() => Ok(made),
        _ => Err(diagnostics),
    }
}

/// What a scoped thread returned; its panic resumed on the joining thread.
fn joined<T>(thread: std::thread::ScopedJoinHandle<'_, T>) -> T {
    thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
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
    /// Owned while the checks of names and aggregates fill it; then shared by the
    /// checks that only read it (on two threads for a large model).
    index: Cow<'a, Index<'a>>,
}

impl<'a> Checker<'a> {
    /// The checks that read only the model, not the index: the other names and the
    /// numbers (reported after the element names, before the aggregates), each
    /// returned apart. On a large model they run on a second thread while the first
    /// fills the index (on 1,000 aggregates about 9.5 M instructions against 12 M).
    fn model_share(spec: &'a ModelSpec) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        let mut checker = Checker {
            spec,
            diagnostics: Vec::new(),
            index: Cow::Owned(Index::default()),
        };
        checker.check_other_names();
        let names = std::mem::take(&mut checker.diagnostics);
        checker.check_numbers();
        (names, checker.diagnostics)
    }

    /// The checks of the first thread once the index is complete: the aggregates'
    /// clashes but the partition key's, and the relationships but their property
    /// clashes (their problems left in `self.diagnostics`). The first thread then
    /// builds what `then` makes of the index, while the second runs
    /// [`Checker::second_share`].
    fn first_share(&mut self) {
        self.check_aggregate_clashes();
        self.check_pinned_keys();
        self.check_pins();
        self.check_relationships();
    }

    /// The checks of the second thread on a large model, once the index is complete:
    /// the partition key clashes (returned first: reported first of the aggregates'
    /// clashes), then the relationships' property clashes and the access patterns
    /// (returned second: reported last, in this order). The clashes are here so that
    /// the two threads take about as long, the first one's share including what
    /// `then` makes (on 1,000 aggregates about 36 M instructions each; with these
    /// clashes on the first thread it was 53 M against 33 M).
    fn second_share(mut self) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        self.check_key_clashes();
        let key_clashes = std::mem::take(&mut self.diagnostics);
        self.check_property_clashes();
        self.check_access_patterns();
        (key_clashes, self.diagnostics)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    /// An example model broken in every group of checks, its access patterns repeated
    /// (renamed) past [`PARALLEL_FROM`].
    fn broken_model() -> ModelSpec {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
        let text = std::fs::read_to_string(path).expect("the e-commerce example");
        let mut spec: ModelSpec = serde_json::from_str(&text).expect("parses");
        let patterns = spec.access_patterns.clone();
        for round in 0..PARALLEL_FROM / patterns.len() + 1 {
            spec.access_patterns.extend(patterns.iter().cloned().map(|mut p| {
                p.name = format!("{} {round}", p.name);
                p
            }));
        }
        spec.entities[0].attributes[0].name = "Bad Name".into();
        spec.entities[1].identity = "id".into();
        let repeated = spec.value_objects[0].attributes[0].clone();
        spec.value_objects[0].attributes.push(repeated);
        spec.access_patterns[3].per_second = -1.0;
        // A partition key clash: a member of the first aggregate with an attribute
        // named as the root's identity (checked on the second thread).
        let root = spec.aggregates[0].root.clone();
        let key = spec
            .entities
            .iter()
            .find(|e| e.name == root)
            .expect("the root")
            .identity
            .clone();
        let member = spec.aggregates[0].members[0].clone();
        let attribute = crate::model::Attribute::new(key, crate::model::AttributeType::String);
        match spec.entities.iter_mut().find(|e| e.name == member) {
            Some(entity) => entity.attributes.push(attribute),
            None => spec
                .value_objects
                .iter_mut()
                .find(|v| v.name == member)
                .expect("the member")
                .attributes
                .push(attribute),
        }
        spec.aggregates[0].members.push("Nowhere".into());
        spec.aggregates[1].default_ttl_seconds = Some(0);
        spec.relationships[0].max = Some(0);
        // A property clash (with `Account`'s identity), checked on the second thread.
        spec.relationships[0].property = Some(spec.entities[0].identity.clone());
        spec.relationships[1].to = "Missing".into();
        spec.access_patterns[5].start = "Unknown".into();
        spec.access_patterns[PARALLEL_FROM + 1].filter.push("nothing".into());
        spec
    }

    #[test]
    fn two_threads_report_what_one_reports_in_the_same_order() {
        let spec = broken_model();
        let one = validate_on(&spec, false, |_| ()).expect_err("broken");
        let two = validate_on(&spec, true, |_| ()).expect_err("broken");
        assert!(one.len() >= 10, "{one:#?}");
        assert!(one.iter().any(|d| d.message.contains("would hold both")), "{one:#?}");
        assert!(
            one.iter().any(|d| d.message.contains("is the partition key")),
            "{one:#?}"
        );
        assert_eq!(one, two);
    }
}
