//! [`NameLookup`]: what a [`crate::DomainModel`] answers by element name, in one
//! hash lookup. The mapper asks these questions millions of times on a large model;
//! an ordered map of thousands of names costs a dozen string comparisons each.
//! Only looked up, never iterated, so hash order never reaches any output.

use crate::model::ModelSpec;
use crate::validate::{ElementId, Index};

/// Everything known about one element name.
#[derive(Debug, Clone)]
pub(crate) struct Named {
    /// Where it is declared.
    pub element: ElementId,
    /// The aggregate (index) it belongs to.
    pub aggregate: Option<usize>,
    /// Its aggregate's root entity (index in `entities`).
    pub root: Option<usize>,
    /// The relationship (index) that leads to it from inside its own aggregate.
    pub parent: Option<usize>,
    /// The relationships (indexes) declared from it, in declaration order.
    pub from: Vec<usize>,
    /// The relationships (indexes) from or to it, in declaration order, each once.
    pub touching: Vec<usize>,
}

/// Element names → [`Named`], built once from a validated model.
#[derive(Debug, Clone, Default)]
pub(crate) struct NameLookup {
    by_name: NameMap<String, Named>,
    /// Access pattern names → their index in `accessPatterns`.
    patterns: NameMap<String, usize>,
}

impl NameLookup {
    /// The lookup of a validated `spec`, from its validation `index`.
    ///
    /// One hash lookup per element (its aggregate) and two per relationship (its
    /// ends): each relationship is put, in declaration order, into the `from` and
    /// `touching` lists of its ends and, when it leads to a member from inside the
    /// member's own aggregate, becomes the member's parent unless an earlier one did.
    /// The roots are found once per aggregate.
    pub(crate) fn new(spec: &ModelSpec, index: &Index<'_>) -> Self {
        let roots: Vec<Option<usize>> = spec
            .aggregates
            .iter()
            .map(|a| match index.elements.get(a.root.as_str()) {
                Some(&ElementId::Entity(i)) => Some(i),
                _ => None,
            })
            .collect();
        let mut by_name: NameMap<String, Named> = NameMap::default();
        by_name.reserve(index.elements.len());
        for (name, &element) in &index.elements {
            let aggregate = index.aggregate_of.get(name).copied();
            by_name.insert(
                name.to_string(),
                Named {
                    element,
                    aggregate,
                    root: aggregate.and_then(|a| roots[a]),
                    parent: None,
                    from: Vec::new(),
                    touching: Vec::new(),
                },
            );
        }
        for (i, rel) in spec.relationships.iter().enumerate() {
            // The parent link: to a member (not the root) from inside its aggregate.
            let adopt = |named: &mut Named, from_aggregate: Option<usize>| {
                if let (Some(a), None) = (from_aggregate, named.parent) {
                    if named.aggregate == Some(a) && spec.aggregates[a].root != rel.to {
                        named.parent = Some(i);
                    }
                }
            };
            let from_aggregate = match by_name.get_mut(rel.from.as_str()) {
                Some(named) => {
                    named.from.push(i);
                    named.touching.push(i);
                    if rel.to == rel.from {
                        let aggregate = named.aggregate;
                        adopt(named, aggregate);
                    }
                    named.aggregate
                }
                None => None,
            };
            if rel.to != rel.from {
                if let Some(named) = by_name.get_mut(rel.to.as_str()) {
                    named.touching.push(i);
                    adopt(named, from_aggregate);
                }
            }
        }
        let mut patterns: NameMap<String, usize> = NameMap::default();
        patterns.reserve(spec.access_patterns.len());
        for (i, pattern) in spec.access_patterns.iter().enumerate() {
            patterns.insert(pattern.name.clone(), i);
        }
        NameLookup { by_name, patterns }
    }

    /// The index of the access pattern called `name`.
    pub(crate) fn pattern(&self, name: &str) -> Option<usize> {
        self.patterns.get(name).copied()
    }

    /// What is known about `name`, when it is a declared element.
    #[inline]
    pub(crate) fn get(&self, name: &str) -> Option<&Named> {
        self.by_name.get(name)
    }
}

/// A hash map keyed by names, with `rustc-hash`'s deterministic Fx hasher (no random
/// seed): for maps only looked up (or whose iteration is sorted before it can reach
/// an output).
pub type NameMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// A hash set of names, with the hasher of [`NameMap`]: only looked up, never iterated.
pub type NameSet<K> = rustc_hash::FxHashSet<K>;

/// An empty [`NameMap`] with room for `capacity` names: a map filled from a large
/// model's lists grows a dozen times otherwise, rehashing each time.
pub(crate) fn name_map<K, V>(capacity: usize) -> NameMap<K, V> {
    NameMap::with_capacity_and_hasher(capacity, rustc_hash::FxBuildHasher)
}
