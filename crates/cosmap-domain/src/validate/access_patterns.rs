//! Access patterns: they start from a declared element and filter and sort on
//! properties its documents will carry.

use std::collections::{BTreeMap, BTreeSet};

use super::{Checker, ElementId};
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::Relationship;
use crate::naming::closest;

impl<'a> Checker<'a> {
    pub(super) fn check_access_patterns(&mut self) {
        let spec = self.spec;
        // Relationships by the elements at either end, built once.
        let mut touching: BTreeMap<&str, Vec<&Relationship>> = BTreeMap::new();
        for rel in &spec.relationships {
            touching.entry(rel.from.as_str()).or_default().push(rel);
            if rel.to != rel.from {
                touching.entry(rel.to.as_str()).or_default().push(rel);
            }
        }
        for (i, pattern) in spec.access_patterns.iter().enumerate() {
            let path = JsonPath::root().key("accessPatterns").index(i);
            for (r, name) in pattern.returns.iter().enumerate() {
                self.require_element(name, path.key("returns").index(r), "returned element");
            }
            if pattern.write.is_some() && pattern.kind == crate::model::AccessKind::Read {
                self.report(
                    Diagnostic::new(path.key("write"), "`write` is set on a read access pattern")
                        .help("remove `write`, or set `\"kind\": \"write\"`"),
                );
            }
            if !self.require_element(&pattern.start, path.key("start"), "start") {
                continue;
            }
            let valid = self.queryable_properties(&pattern.start, touching.get(pattern.start.as_str()));
            let lists = [("filter", &pattern.filter), ("sort", &pattern.sort)];
            for (list, names) in lists {
                for (f, name) in names.iter().enumerate() {
                    if valid.contains(name.as_str()) {
                        if list == "sort" && self.is_list_attribute(&pattern.start, name) {
                            let msg = format!("`{name}` is a list (`\"many\": true`) and cannot be sorted on");
                            self.report(Diagnostic::new(path.key(list).index(f), msg).help(
                                "Cosmos DB orders only by single values (a list gives 400 across partitions): sort on another attribute, or drop the sort",
                            ));
                        }
                        continue;
                    }
                    let all = valid.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
                    let help = match closest(name, valid.iter().copied()) {
                        Some(near) => format!("did you mean `{near}`? ({} can {list} on {all})", pattern.start),
                        None => format!("`{}` can {list} on {all}", pattern.start),
                    };
                    let msg = format!("`{name}` is not a property of `{}`", pattern.start);
                    self.report(Diagnostic::new(path.key(list).index(f), msg).help(help));
                }
            }
        }
    }

    /// Whether `attribute` of `element` holds a list of values (`many`).
    fn is_list_attribute(&self, element: &str, attribute: &str) -> bool {
        let spec = self.spec;
        let attributes = match self.index.elements.get(element) {
            Some(ElementId::Entity(i)) => &spec.entities[*i].attributes,
            Some(ElementId::ValueObject(i)) => &spec.value_objects[*i].attributes,
            None => return false,
        };
        attributes.iter().any(|a| a.name == attribute && a.many)
    }

    /// The properties a document of `element` carries and a query can use: its
    /// attributes and identity, its aggregate root's identity (the partition key,
    /// MR2), and the identities of the roots it refers to or is referred from (MR6).
    fn queryable_properties(&self, element: &str, touching: Option<&Vec<&'a Relationship>>) -> BTreeSet<&'a str> {
        let spec = self.spec;
        let mut valid: BTreeSet<&str> = BTreeSet::new();
        match self.index.elements.get(element) {
            Some(ElementId::Entity(i)) => {
                let e = &spec.entities[*i];
                valid.insert(&e.identity);
                valid.extend(e.attributes.iter().map(|a| a.name.as_str()));
            }
            Some(ElementId::ValueObject(i)) => {
                valid.extend(spec.value_objects[*i].attributes.iter().map(|a| a.name.as_str()));
            }
            None => {}
        }
        let root_identity = |name: &str| self.root_of(name).and_then(|root| self.identity_of(root));
        valid.extend(root_identity(element));
        for rel in touching.into_iter().flatten() {
            if rel.from == element {
                valid.extend(root_identity(&rel.to));
            } else if rel.to == element {
                valid.extend(root_identity(&rel.from));
            }
        }
        valid
    }
}
