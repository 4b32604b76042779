//! Relationships: both ends exist, bounds make sense, only roots are referenced
//! across aggregates, containment has no cycles, every value object has a parent,
//! and no two things share a property name in one document (a check of its own,
//! [`Checker::check_property_clashes`], reported right after the others).

use std::fmt;

use super::{Checker, ElementId};
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::{Cardinality, Growth, Relationship};
use crate::name_lookup::{name_map, NameMap};
use crate::naming::field_ident;

impl Checker<'_> {
    /// Every check of the relationships but their properties' clashes, which run
    /// apart ([`Checker::check_property_clashes`], reported right after these).
    pub(super) fn check_relationships(&mut self) {
        let spec = self.spec;
        // Containment edges (inside one aggregate, not pointing at its root), for cycles and
        // parents: looked up by hash; the cycle search goes through them in name order.
        let mut contains: NameMap<&str, Vec<(&str, usize)>> = name_map(spec.relationships.len());
        let mut has_parent: NameMap<&str, ()> = name_map(spec.relationships.len());
        for (i, rel) in spec.relationships.iter().enumerate() {
            // Built only for a problem: a valid model needs no path.
            let path = || JsonPath::root().key("relationships").index(i);
            self.check_bounds(rel, &path);
            // A name placed in an aggregate is a declared element (it is placed only
            // then): its aggregate's lookup answers both questions, and the elements
            // are asked (and a wrong name reported) only for the other names.
            let from_agg = self.index.aggregate_of.get(rel.from.as_str()).copied();
            let to_agg = self.index.aggregate_of.get(rel.to.as_str()).copied();
            let from_ok = from_agg.is_some() || self.require_element(&rel.from, || path().key("from"), "`from`");
            let to_ok = to_agg.is_some() || self.require_element(&rel.to, || path().key("to"), "`to`");
            if !(from_ok && to_ok) {
                if to_ok {
                    // Its parent's name is wrong (reported above), not missing.
                    has_parent.insert(rel.to.as_str(), ());
                }
                continue;
            }
            let (Some(from_agg), Some(to_agg)) = (from_agg, to_agg) else {
                continue; // reported as "in no aggregate"
            };
            let to_root = spec.aggregates[to_agg].root.as_str();
            if from_agg != to_agg && rel.to != to_root {
                let owner = spec.aggregates[to_agg].display_name();
                let help = if self.is_entity(&rel.to) {
                    format!("only aggregate roots are referenced across aggregates: refer to `{to_root}` instead, or move `{}` into `{owner}`'s aggregate", rel.from)
                } else {
                    format!("a value object belongs to its own aggregate only: move `{}` into aggregate `{owner}`, or give `{}` a value object of its own", rel.to, rel.from)
                };
                let msg = format!(
                    "`{}` points into aggregate `{owner}` at `{}`, which is not its root",
                    rel.from, rel.to
                );
                self.report(Diagnostic::new(path().key("to"), msg).help(help));
            } else if from_agg == to_agg && rel.to != to_root {
                contains
                    .entry(rel.from.as_str())
                    .or_default()
                    .push((rel.to.as_str(), i));
                has_parent.insert(rel.to.as_str(), ());
            }
        }
        self.check_cycles(&Containment::new(contains));
        let mut orphans: Vec<(&str, &str, ElementId)> = self
            .index
            .elements
            .iter()
            .filter(|(name, id)| matches!(id, ElementId::ValueObject(_)) && !has_parent.contains_key(*name))
            .filter_map(|(&name, &id)| self.root_of(name).map(|root| (name, root, id)))
            .collect();
        // In name order (the index is a hash map).
        orphans.sort_by(|a, b| a.0.cmp(b.0));
        for (name, root, id) in orphans {
            self.report(
                Diagnostic::new(Self::element_path(id).key("name"), format!("value object `{name}` has no parent"))
                    .help(format!(
                        "add a relationship that says what holds it, for example {{\"from\": \"{root}\", \"to\": \"{name}\", \"cardinality\": \"one\"}}"
                    )),
            );
        }
    }

    fn check_bounds(&mut self, rel: &Relationship, path: &dyn Fn() -> JsonPath) {
        match (rel.cardinality, rel.max) {
            (Cardinality::Few, None) => self.report(
                Diagnostic::new(path().key("cardinality"), "a `few` relationship needs an upper bound").help(format!(
                    "add `\"max\": N`: the most `{}` one `{}` can have",
                    rel.to, rel.from
                )),
            ),
            (Cardinality::One, Some(_)) => self.report(
                Diagnostic::new(path().key("max"), "`max` does not apply to a `one` relationship")
                    .help("remove `max`, or use `few` or `many` for a bounded list"),
            ),
            (Cardinality::Squillions, Some(_)) => self.report(
                Diagnostic::new(
                    path().key("max"),
                    "`squillions` means there is no useful bound, but `max` gives one",
                )
                .help("remove `max`, or use `many` with `max` for a bounded list"),
            ),
            (_, Some(0)) => self.report(
                Diagnostic::new(path().key("max"), "`max` is 0").help("give the largest number of items, at least 1"),
            ),
            _ => {}
        }
        if rel.optional && rel.cardinality != Cardinality::One {
            self.report(
                Diagnostic::new(
                    path().key("optional"),
                    "`optional` applies to a `one` relationship only",
                )
                .help("remove `optional`: a list of `to` may be empty already"),
            );
        }
        if let Some(depth) = rel.depth {
            if !rel.is_tree() {
                self.report(
                    Diagnostic::new(
                        path().key("depth"),
                        "`depth` applies to a tree: an optional `one` relationship from an element to itself",
                    )
                    .help(if rel.from == rel.to && rel.cardinality == Cardinality::One {
                        "add `\"optional\": true`: the roots of the tree have no parent".to_string()
                    } else {
                        format!("remove `depth`: `{}` → `{}` is no tree's parent link", rel.from, rel.to)
                    }),
                );
            }
            if depth.max == 0 {
                self.report(
                    Diagnostic::new(path().key("depth").key("max"), "`depth.max` is 0")
                        .help("give the most ancestors an element has, at least 1"),
                );
            }
            if let Some(avg) = depth.avg {
                if !(avg.is_finite() && avg >= 0.0 && avg <= depth.max as f64) {
                    self.report(
                        Diagnostic::new(
                            path().key("depth").key("avg"),
                            format!("`depth.avg` is {avg}, outside 0 to `depth.max` ({})", depth.max),
                        )
                        .help("give the typical number of ancestors, at most `depth.max`"),
                    );
                }
            }
        }
        if rel.growth == Some(Growth::Unbounded) && rel.max.is_some() {
            self.report(
                Diagnostic::new(path().key("growth"), "`growth: unbounded` contradicts `max`")
                    .help("remove `max` if the list keeps growing, or `growth` if `max` holds"),
            );
        }
    }

    /// Reports each containment cycle once, at the relationship that closes it.
    fn check_cycles(&mut self, contains: &Containment<'_>) {
        #[derive(Clone, Copy, PartialEq)]
        enum State {
            Open,
            Done,
        }
        let mut state: NameMap<&str, State> = name_map(2 * contains.sources.len());
        let mut found: Vec<(Vec<String>, usize)> = Vec::new();
        for &start in &contains.sources {
            if state.contains_key(start) {
                continue;
            }
            // Iterative depth-first search; `stack` holds (node, next edge to try).
            let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
            state.insert(start, State::Open);
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                let edges = contains.edges.get(node).map(Vec::as_slice).unwrap_or(&[]);
                if let Some(&(child, rel)) = edges.get(*next) {
                    *next += 1;
                    match state.get(child) {
                        None => {
                            state.insert(child, State::Open);
                            stack.push((child, 0));
                        }
                        Some(State::Open) => {
                            let from = stack.iter().position(|(n, _)| *n == child).unwrap_or(0);
                            let mut cycle: Vec<String> = stack[from..].iter().map(|(n, _)| n.to_string()).collect();
                            cycle.push(child.to_string());
                            found.push((cycle, rel));
                        }
                        Some(State::Done) => {}
                    }
                } else {
                    state.insert(node, State::Done);
                    stack.pop();
                }
            }
        }
        for (cycle, rel) in found {
            let path = JsonPath::root().key("relationships").index(rel);
            self.report(
                Diagnostic::new(path, format!("relationships form a containment cycle: {}", cycle.join(" → ")))
                    .help("a document cannot contain itself: remove one of these relationships, or turn one end into its own aggregate and refer to its root"),
            );
        }
    }

    /// Attributes, identity and relationship properties of one element share one JSON object.
    /// Reported right after the other checks of the relationships.
    pub(super) fn check_property_clashes(&mut self) {
        let spec = self.spec;
        // Each relationship's property (`None` for a member entity: its own document, not
        // a property), then who holds each of these properties of each element. Only
        // the relationships' properties are kept: an identity or attribute no
        // relationship's property names cannot clash, and the map stays a fifth as large.
        let properties: Vec<Option<String>> = spec
            .relationships
            .iter()
            .map(|rel| (!self.is_member_entity_of_its_aggregate(rel)).then(|| rel.property_name()))
            .collect();
        // By element: one lookup per element, not one per attribute (most elements hold
        // no such property, the others a few).
        let mut owners: NameMap<&str, Vec<Held<'_>>> = name_map(properties.len());
        for (rel, property) in spec.relationships.iter().zip(&properties) {
            if let Some(property) = property {
                let held = owners.entry(rel.from.as_str()).or_default();
                if !held.iter().any(|h| h.property == property.as_str()) {
                    held.push(Held {
                        property: property.as_str(),
                        owner: None,
                    });
                }
            }
        }
        for entity in &spec.entities {
            let Some(held) = owners.get_mut(entity.name.as_str()) else {
                continue;
            };
            // The identity overrides an attribute of the same name; an attribute is
            // recorded only where nothing is yet.
            if let Some(h) = held.iter_mut().find(|h| h.property == entity.identity) {
                h.owner = Some(Owner::Identity);
            }
            Self::record_attributes(held, &entity.attributes);
        }
        for vo in &spec.value_objects {
            if let Some(held) = owners.get_mut(vo.name.as_str()) {
                Self::record_attributes(held, &vo.attributes);
            }
        }
        for (i, (rel, property)) in spec.relationships.iter().zip(&properties).enumerate() {
            let Some(property) = property else {
                continue; // a member entity is its own document, not a property
            };
            let path = || JsonPath::root().key("relationships").index(i);
            let mut held = owners.get_mut(rel.from.as_str()).into_iter().flatten();
            let Some(slot) = held.find(|h| h.property == property.as_str()).map(|h| &mut h.owner) else {
                continue; // inserted above for every relationship with a property
            };
            if let Some(owner) = *slot {
                let msg = format!(
                    "property `{property}` of `{}` would hold both {owner} and `{}`",
                    rel.from, rel.to
                );
                self.report(Diagnostic::new(path(), msg).help("set this relationship's `property` to another name"));
            } else {
                *slot = Some(Owner::Relationship(i));
                if crate::naming::RESERVED_PROPERTIES.contains(&property.as_str()) && rel.property.is_none() {
                    let msg = format!("the default property name `{property}` is reserved");
                    self.report(
                        Diagnostic::new(path(), msg).help("set this relationship's `property` to another name"),
                    );
                } else {
                    self.check_property_ident(i, property, &properties);
                }
            }
        }
    }

    /// Relationship `i`'s property `property` against the other names of its element
    /// (identity, attributes, earlier relationships' properties): one that differs
    /// from it but gives the same Rust field ([`field_ident`]; such names are equal
    /// ignoring ASCII case) is reported with its place.
    fn check_property_ident(&mut self, i: usize, property: &str, properties: &[Option<String>]) {
        let spec = self.spec;
        let from = spec.relationships[i].from.as_str();
        let clashes = |other: &str| {
            other != property && other.eq_ignore_ascii_case(property) && field_ident(other) == field_ident(property)
        };
        let element = || match self.index.elements.get(from) {
            Some(&ElementId::Entity(e)) => JsonPath::root().key("entities").index(e),
            Some(&ElementId::ValueObject(v)) => JsonPath::root().key("valueObjects").index(v),
            None => JsonPath::root(),
        };
        let attributes = self.attributes_of(from);
        let other = if let Some(identity) = self.identity_of(from).filter(|id| clashes(id)) {
            Some((identity, element().key("identity")))
        } else if let Some(k) = attributes.iter().position(|a| clashes(&a.name)) {
            Some((
                attributes[k].name.as_str(),
                element().key("attributes").index(k).key("name"),
            ))
        } else {
            // The earlier relationships from the same element, by the index.
            let from_here = self.index.from.get(from).map(Vec::as_slice).unwrap_or_default();
            from_here
                .iter()
                .copied()
                .take_while(|&j| j < i)
                .find(|&j| properties[j].as_deref().is_some_and(&clashes))
                .and_then(|j| {
                    Some((
                        properties[j].as_deref()?,
                        JsonPath::root().key("relationships").index(j),
                    ))
                })
        };
        if let Some((other, at)) = other {
            let msg = format!(
                "property `{property}` of `{from}` and `{other}` (at {at}) both become the Rust field `{}`",
                field_ident(property)
            );
            self.report(
                Diagnostic::new(JsonPath::root().key("relationships").index(i), msg).help(
                    "set this relationship's `property` to a name that differs in more than the case of its letters",
                ),
            );
        }
    }

    /// Whether `rel` leads to an entity of its own aggregate other than the root: a
    /// member entity, its own document rather than a property of `from`.
    fn is_member_entity_of_its_aggregate(&self, rel: &Relationship) -> bool {
        // An entity first: most relationships lead to a value object, and need no
        // more lookups. `to`'s aggregate is looked up once, for the comparison and
        // for its root.
        if !self.is_entity(&rel.to) {
            return false;
        }
        let aggregate = self.index.aggregate_of.get(rel.to.as_str());
        self.index.aggregate_of.get(rel.from.as_str()) == aggregate
            && aggregate.map(|&a| self.spec.aggregates[a].root.as_str()) != Some(rel.to.as_str())
    }

    /// Records `attributes` of an element as the owners of the properties of that
    /// name it `held` that nothing holds yet.
    fn record_attributes(held: &mut [Held<'_>], attributes: &[crate::model::Attribute]) {
        for a in attributes {
            if let Some(h) = held.iter_mut().find(|h| h.property == a.name) {
                if h.owner.is_none() {
                    h.owner = Some(Owner::Attribute);
                }
            }
        }
    }
}

/// The containment edges by source element, and the sources in name order: the
/// order the cycle search starts from them in (cycles are reported in it).
struct Containment<'s> {
    edges: NameMap<&'s str, Vec<(&'s str, usize)>>,
    sources: Vec<&'s str>,
}

impl<'s> Containment<'s> {
    fn new(edges: NameMap<&'s str, Vec<(&'s str, usize)>>) -> Self {
        let mut sources: Vec<&str> = edges.keys().copied().collect();
        sources.sort_unstable();
        Containment { edges, sources }
    }
}

/// A property of an element that a relationship's property names, once each, and
/// what holds it so far.
struct Held<'s> {
    property: &'s str,
    owner: Option<Owner>,
}

/// What already holds a property of an element, for the message when a relationship's
/// property would hold it too (written only then).
#[derive(Debug, Clone, Copy)]
enum Owner {
    Identity,
    Attribute,
    /// The relationship of this index.
    Relationship(usize),
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Identity => f.write_str("its identity"),
            Owner::Attribute => f.write_str("an attribute"),
            Owner::Relationship(i) => write!(f, "relationships[{i}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::model::{Attribute, AttributeType, Entity, ModelSpec, ValueObject};

    /// The former check: every identity and attribute in one map with the
    /// relationships' properties, the diagnostics it gave.
    fn clashes_with_one_map(checker: &mut Checker<'_>) -> Vec<Diagnostic> {
        let spec = checker.spec;
        let mut owners: NameMap<(&str, Cow<'_, str>), Owner> = name_map(0);
        for entity in &spec.entities {
            owners.insert(
                (entity.name.as_str(), Cow::Borrowed(entity.identity.as_str())),
                Owner::Identity,
            );
            for a in &entity.attributes {
                owners
                    .entry((entity.name.as_str(), Cow::Borrowed(a.name.as_str())))
                    .or_insert(Owner::Attribute);
            }
        }
        for vo in &spec.value_objects {
            for a in &vo.attributes {
                owners
                    .entry((vo.name.as_str(), Cow::Borrowed(a.name.as_str())))
                    .or_insert(Owner::Attribute);
            }
        }
        let mut found = Vec::new();
        for (i, rel) in spec.relationships.iter().enumerate() {
            if checker.is_member_entity_of_its_aggregate(rel) {
                continue;
            }
            let path = || JsonPath::root().key("relationships").index(i);
            let key = (rel.from.as_str(), Cow::Owned(rel.property_name()));
            if let Some(owner) = owners.get(&key) {
                let msg = format!(
                    "property `{}` of `{}` would hold both {owner} and `{}`",
                    key.1, rel.from, rel.to
                );
                found.push(Diagnostic::new(path(), msg).help("set this relationship's `property` to another name"));
            } else {
                if crate::naming::RESERVED_PROPERTIES.contains(&key.1.as_ref()) && rel.property.is_none() {
                    let msg = format!("the default property name `{}` is reserved", key.1);
                    found.push(Diagnostic::new(path(), msg).help("set this relationship's `property` to another name"));
                }
                owners.insert(key, Owner::Relationship(i));
            }
        }
        found
    }

    /// The e-commerce example with clashes of every kind: with an identity, with an
    /// attribute, between relationships, under a name declared twice, on an
    /// undeclared `from`, and a reserved default property.
    fn clashing_model() -> ModelSpec {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
        let text = std::fs::read_to_string(path).expect("the e-commerce example");
        let mut spec: ModelSpec = serde_json::from_str(&text).expect("parses");
        let first = spec.entities[0].name.clone();
        let attribute = spec.entities[0].attributes[0].name.clone();
        let identity = spec.entities[0].identity.clone();
        let mut twin = Entity::new(first.clone(), attribute.clone());
        twin.attributes
            .push(Attribute::new(identity.clone(), AttributeType::String));
        twin.attributes.push(Attribute::new("extra", AttributeType::String));
        spec.entities.push(twin);
        let mut vo = ValueObject::new(first.clone());
        vo.attributes
            .push(Attribute::new("fromTheValueObject", AttributeType::String));
        spec.value_objects.push(vo);
        let template = spec.relationships[0].clone();
        for (from, property) in [
            (first.as_str(), Some(attribute.as_str())),
            (first.as_str(), Some(identity.as_str())),
            (first.as_str(), Some("extra")),
            (first.as_str(), Some("fromTheValueObject")),
            (first.as_str(), Some("twice")),
            (first.as_str(), Some("twice")),
            ("Undeclared", Some("same")),
            ("Undeclared", Some("same")),
            (first.as_str(), None),
        ] {
            let mut rel = template.clone();
            rel.from = from.to_string();
            rel.property = property.map(str::to_string);
            spec.relationships.push(rel);
        }
        let mut reserved = template.clone();
        reserved.to = "Id".to_string();
        spec.relationships.push(reserved);
        spec
    }

    #[test]
    fn the_clashes_are_those_of_one_map_of_every_property() {
        let spec = clashing_model();
        let mut checker = Checker {
            spec: &spec,
            diagnostics: Vec::new(),
            index: super::super::Index::sized_for(&spec),
        };
        checker.check_element_names();
        checker.check_aggregates();
        checker.diagnostics.clear();
        let expected = clashes_with_one_map(&mut checker);
        checker.check_property_clashes();
        assert!(expected.len() >= 6, "{expected:#?}");
        assert_eq!(checker.diagnostics, expected);
    }
}
