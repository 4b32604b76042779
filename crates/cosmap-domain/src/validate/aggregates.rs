//! Aggregates: each has an entity as root, and every entity and value object
//! belongs to exactly one aggregate.

use std::collections::BTreeMap;

use super::{Checker, ElementId};
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::naming::{lower_camel, upper_camel};

/// Cosmos DB's largest time-to-live: a 32-bit signed number of seconds.
const MAX_TTL_SECONDS: i64 = i32::MAX as i64;

impl<'a> Checker<'a> {
    pub(super) fn check_aggregates(&mut self) {
        let spec = self.spec;
        let mut first_seen: BTreeMap<&str, JsonPath> = BTreeMap::new();
        for (a, aggregate) in spec.aggregates.iter().enumerate() {
            let path = JsonPath::root().key("aggregates").index(a);
            let root_ok = if aggregate.root.trim().is_empty() {
                self.report(
                    Diagnostic::new(
                        path.key("root"),
                        format!("aggregate `{}` has no root", aggregate.display_name()),
                    )
                    .help("set `root` to the entity that is the aggregate's entry point"),
                );
                false
            } else if self.require_element(&aggregate.root, path.key("root"), "root") {
                if self.is_entity(&aggregate.root) {
                    true
                } else {
                    self.report(
                        Diagnostic::new(path.key("root"), format!("the root `{}` is a value object", aggregate.root))
                            .help("an aggregate root must be an entity (it needs an identity): make it an entity or choose another root"),
                    );
                    false
                }
            } else {
                false
            };
            if root_ok {
                self.place(&aggregate.root, path.key("root"), a, &mut first_seen);
            }
            for (m, name) in aggregate.members.iter().enumerate() {
                let at = path.key("members").index(m);
                if *name == aggregate.root {
                    self.report(
                        Diagnostic::new(at, format!("`{name}` is the root and also listed as a member"))
                            .help("remove it from `members`: the root always belongs to its aggregate"),
                    );
                } else if self.require_element(name, at.clone(), "member") {
                    self.place(name, at, a, &mut first_seen);
                }
            }
            if let Some(ttl) = aggregate.default_ttl_seconds {
                if ttl == 0 || !(-1..=MAX_TTL_SECONDS).contains(&ttl) {
                    self.report(
                        Diagnostic::new(
                            path.key("defaultTtlSeconds"),
                            format!("{ttl} is not a valid default time-to-live"),
                        )
                        .help(format!(
                            "use a number of seconds from 1 to {MAX_TTL_SECONDS} (about 68 years), or -1 for \"documents do not expire unless they say so\""
                        )),
                    );
                }
            }
        }
        self.check_partition_key_clashes();
        let unplaced: Vec<(String, ElementId)> = self
            .index
            .elements
            .iter()
            // An empty name is already reported, and cannot be placed anyway.
            .filter(|(name, _)| !name.is_empty() && !self.index.aggregate_of.contains_key(*name))
            .map(|(name, id)| (name.clone(), *id))
            .collect();
        for (name, id) in unplaced {
            let help = match id {
                ElementId::Entity(_) => format!(
                    "add `{name}` to an aggregate's `members`, or give it its own aggregate: {{\"root\": \"{name}\"}}"
                ),
                ElementId::ValueObject(_) => format!("add `{name}` to the `members` of the aggregate that owns it"),
            };
            self.report(
                Diagnostic::new(
                    Self::element_path(id).key("name"),
                    format!("`{name}` is in no aggregate"),
                )
                .help(help),
            );
        }
    }

    /// Records that `name` (at `at`) belongs to aggregate `a`, or reports that it already belongs to one.
    fn place<'s>(&mut self, name: &'s str, at: JsonPath, a: usize, first_seen: &mut BTreeMap<&'s str, JsonPath>) {
        if let Some(first) = first_seen.get(name) {
            let other = self.spec.aggregates[self.index.aggregate_of[name]].display_name();
            let this = self.spec.aggregates[a].display_name();
            let msg = if other == this {
                format!("`{name}` is listed twice in aggregate `{other}` (first at {first})")
            } else {
                format!("`{name}` is in two aggregates: `{other}` (at {first}) and `{this}`")
            };
            self.report(Diagnostic::new(at, msg).help(
                "an entity or value object belongs to exactly one aggregate: remove it from one, or split it into two types",
            ));
        } else {
            first_seen.insert(name, at);
            self.index.aggregate_of.insert(name.to_string(), a);
        }
    }

    /// Every document of an aggregate carries the root's identity as its partition
    /// key (MR2), and a member's documents (a member entity's, MR3, or a separated
    /// value object's, MR4) store the member's own properties beside it: no member
    /// may have an attribute, nor a member entity an identity, of that name.
    fn check_partition_key_clashes(&mut self) {
        let spec = self.spec;
        for (i, entity) in spec.entities.iter().enumerate() {
            let Some((root, key)) = self.member_partition_key(&entity.name) else {
                continue;
            };
            let path = Self::entity_path(i);
            if entity.identity == key {
                let taken: Vec<&str> = entity.attributes.iter().map(|a| a.name.as_str()).collect();
                let suggestion = unused(format!("{}Id", lower_camel(&entity.name)), key, &taken);
                self.report(
                    Diagnostic::new(
                        path.key("identity"),
                        format!("`{key}` is the partition key every document of aggregate `{root}` carries"),
                    )
                    .help(format!(
                        "rename this identity, for example `{suggestion}`: `{}` documents store `{key}` already, as the identity of their `{root}` (MR2)",
                        entity.name
                    )),
                );
            }
            if let Some(j) = entity.attributes.iter().position(|a| a.name == key) {
                let path = path.key("attributes").index(j).key("name");
                self.report(
                    Diagnostic::new(
                        path,
                        format!("`{key}` is the partition key every document of aggregate `{root}` carries"),
                    )
                    .help(format!(
                        "remove this attribute: `{}` documents store `{key}` already (MR2)",
                        entity.name
                    )),
                );
            }
        }
        for (i, vo) in spec.value_objects.iter().enumerate() {
            let Some((root, key)) = self.member_partition_key(&vo.name) else {
                continue;
            };
            let Some(j) = vo.attributes.iter().position(|a| a.name == key) else {
                continue;
            };
            let taken: Vec<&str> = vo.attributes.iter().map(|a| a.name.as_str()).collect();
            let suggestion = unused(format!("{}{}", lower_camel(&vo.name), upper_camel(key)), key, &taken);
            let path = Self::value_object_path(i).key("attributes").index(j).key("name");
            self.report(
                Diagnostic::new(
                    path,
                    format!("`{key}` is the partition key every document of aggregate `{root}` carries"),
                )
                .help(format!(
                    "rename this attribute, for example `{suggestion}`: when `{}` is stored as a document of its own (MR4), that document stores `{key}` already (MR2)",
                    vo.name
                )),
            );
        }
    }

    /// For a member (not the root) of an aggregate: the root and its identity,
    /// which every document of the aggregate carries as its partition key.
    fn member_partition_key(&self, name: &str) -> Option<(&'a str, &'a str)> {
        let root = self.root_of(name)?;
        if root == name {
            return None;
        }
        Some((root, self.identity_of(root)?))
    }
}

/// `wanted`, or `wanted` with a number appended, whichever first is neither
/// `key` nor in `taken`.
fn unused(wanted: String, key: &str, taken: &[&str]) -> String {
    let free = |name: &str| name != key && !taken.contains(&name);
    let mut name = wanted.clone();
    let mut n = 1;
    while !free(&name) {
        n += 1;
        name = format!("{wanted}{n}");
    }
    name
}
