//! Aggregates: each has an entity as root, and every entity and value object
//! belongs to exactly one aggregate.

use std::collections::hash_map::Entry;

use super::{Checker, ElementId};
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::embedding::{fixed_placement, FixedPlacement};
use crate::model::Relationship;
use crate::name_lookup::{name_map, NameMap};

/// Per member entity held by another member entity: (that entity, its identity), the
/// parent link its documents carry.
type EntityLinks<'a> = NameMap<&'a str, (&'a str, &'a str)>;
use crate::naming::{lower_camel, upper_camel};

/// Cosmos DB's largest time-to-live: a 32-bit signed number of seconds.
const MAX_TTL_SECONDS: i64 = i32::MAX as i64;

impl<'a> Checker<'a> {
    /// Each aggregate's root, members and time-to-live: fills the index's `aggregate_of`.
    pub(super) fn check_aggregates(&mut self) {
        let spec = self.spec;
        let mut first_seen: NameMap<&str, Placed> = name_map(spec.entities.len() + spec.value_objects.len());
        for (a, aggregate) in spec.aggregates.iter().enumerate() {
            // Built only for a problem: a valid model needs no path.
            let path = || JsonPath::root().key("aggregates").index(a);
            let root_ok = if aggregate.root.trim().is_empty() {
                self.report(
                    Diagnostic::new(
                        path().key("root"),
                        format!("aggregate `{}` has no root", aggregate.display_name()),
                    )
                    .help("set `root` to the entity that is the aggregate's entry point"),
                );
                false
            } else if self.require_element(&aggregate.root, || path().key("root"), "root") {
                if self.is_entity(&aggregate.root) {
                    true
                } else {
                    self.report(
                        Diagnostic::new(path().key("root"), format!("the root `{}` is a value object", aggregate.root))
                            .help("an aggregate root must be an entity (it needs an identity): make it an entity or choose another root"),
                    );
                    false
                }
            } else {
                false
            };
            if root_ok {
                let at = Placed {
                    aggregate: a,
                    member: None,
                };
                self.place(&aggregate.root, at, a, &mut first_seen);
            }
            for (m, name) in aggregate.members.iter().enumerate() {
                let at = Placed {
                    aggregate: a,
                    member: Some(m),
                };
                if *name == aggregate.root {
                    self.report(
                        Diagnostic::new(at.path(), format!("`{name}` is the root and also listed as a member"))
                            .help("remove it from `members`: the root always belongs to its aggregate"),
                    );
                } else if self.require_element(name, || at.path(), "member") {
                    self.place(name, at, a, &mut first_seen);
                }
            }
            if let Some(ttl) = aggregate.default_ttl_seconds {
                if ttl == 0 || !(-1..=MAX_TTL_SECONDS).contains(&ttl) {
                    self.report(
                        Diagnostic::new(
                            path().key("defaultTtlSeconds"),
                            format!("{ttl} is not a valid default time-to-live"),
                        )
                        .help(format!(
                            "use a number of seconds from 1 to {MAX_TTL_SECONDS} (about 68 years), or -1 for \"documents do not expire unless they say so\""
                        )),
                    );
                }
            }
        }
    }

    /// Each pinned partition key (`partitionKey`) names what the mapper could key the
    /// container by: the root's identity, a required single string attribute of the
    /// root, or the identity of a root the root refers to through a required single
    /// reference. Needs every element placed.
    pub(super) fn check_pinned_keys(&mut self) {
        let spec = self.spec;
        for (a, aggregate) in spec.aggregates.iter().enumerate() {
            let Some(key) = aggregate.partition_key.as_deref() else {
                continue;
            };
            let Some(identity) = self.identity_of(&aggregate.root) else {
                continue; // the root's own problem is reported already
            };
            let mut choices: Vec<&str> = vec![identity];
            choices.extend(
                self.attributes_of(&aggregate.root)
                    .iter()
                    .filter(|x| x.ty == crate::AttributeType::String && !x.many && !x.optional)
                    .map(|x| x.name.as_str()),
            );
            for rel in self.relationships_from(&aggregate.root) {
                let single = rel.cardinality == crate::Cardinality::One && !rel.optional && rel.to != aggregate.root;
                if single && self.root_of(&rel.to) == Some(rel.to.as_str()) {
                    choices.extend(self.identity_of(&rel.to));
                }
            }
            if choices.contains(&key) {
                continue;
            }
            let listed: Vec<String> = choices.iter().map(|c| format!("`{c}`")).collect();
            self.report(
                Diagnostic::new(
                    JsonPath::root().key("aggregates").index(a).key("partitionKey"),
                    format!(
                        "`{key}` cannot be the partition key of aggregate `{}`",
                        aggregate.display_name()
                    ),
                )
                .help(format!(
                    "pin one of {}: the root's identity, a required single string attribute of `{}`, or the identity of a root it refers to through a required single reference",
                    listed.join(", "),
                    aggregate.root
                )),
            );
        }
    }

    /// Each aggregate's partition key (its root's identity), looked up once: every
    /// element asks for its own.
    fn partition_keys(&self) -> Vec<Option<&'a str>> {
        self.spec.aggregates.iter().map(|a| self.identity_of(&a.root)).collect()
    }

    /// What needs every element placed: the partition key clashes
    /// ([`Self::check_partition_key_clashes`]), the parent link clashes, and the
    /// elements in no aggregate. Reads the index only.
    pub(super) fn check_aggregate_clashes(&mut self) {
        let keys = self.partition_keys();
        self.check_partition_key_clashes(&keys);
        let links = self.member_entity_links(&keys);
        self.check_separated_document_clashes(&keys, &links);
        self.check_member_entity_links(&keys, &links);
        let mut unplaced: Vec<(&str, ElementId)> = self
            .index
            .elements
            .iter()
            // An empty name is already reported, and cannot be placed anyway.
            .filter(|(name, _)| !name.is_empty() && !self.index.aggregate_of.contains_key(*name))
            .map(|(&name, &id)| (name, id))
            .collect();
        // In name order (the index is a hash map).
        unplaced.sort_by(|a, b| a.0.cmp(b.0));
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
    fn place(&mut self, name: &'a str, at: Placed, a: usize, first_seen: &mut NameMap<&'a str, Placed>) {
        // One lookup for both the question and the record.
        let first = match first_seen.entry(name) {
            Entry::Occupied(first) => first.get().path(),
            Entry::Vacant(slot) => {
                slot.insert(at);
                self.index.aggregate_of.insert(name, a);
                return;
            }
        };
        let other = self.spec.aggregates[self.index.aggregate_of[name]].display_name();
        let this = self.spec.aggregates[a].display_name();
        let msg = if other == this {
            format!("`{name}` is listed twice in aggregate `{other}` (first at {first})")
        } else {
            format!("`{name}` is in two aggregates: `{other}` (at {first}) and `{this}`")
        };
        self.report(Diagnostic::new(at.path(), msg).help(
            "an entity or value object belongs to exactly one aggregate: remove it from one, or split it into two types",
        ));
    }

    /// Every document of an aggregate carries the root's identity as its partition
    /// key (MR2), and a member's documents (a member entity's, MR3, or a separated
    /// value object's, MR4) store the member's own properties beside it: no member
    /// may have an attribute, nor a member entity an identity, of that name.
    fn check_partition_key_clashes(&mut self, keys: &[Option<&'a str>]) {
        let spec = self.spec;
        for (i, entity) in spec.entities.iter().enumerate() {
            let Some((root, key)) = self.member_partition_key(keys, &entity.name) else {
                continue;
            };
            let path = || Self::entity_path(i);
            if entity.identity == key {
                let taken: Vec<&str> = entity.attributes.iter().map(|a| a.name.as_str()).collect();
                let suggestion = unused(format!("{}Id", lower_camel(&entity.name)), key, &taken);
                self.report(
                    Diagnostic::new(
                        path().key("identity"),
                        format!("`{key}` is the partition key every document of aggregate `{root}` carries"),
                    )
                    .help(format!(
                        "rename this identity, for example `{suggestion}`: `{}` documents store `{key}` already, as the identity of their `{root}` (MR2)",
                        entity.name
                    )),
                );
            }
            if let Some(j) = entity.attributes.iter().position(|a| a.name == key) {
                let path = path().key("attributes").index(j).key("name");
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
            let Some((root, key)) = self.member_partition_key(keys, &vo.name) else {
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

    /// A value object that MR4 separates from a member entity is a document that
    /// stores the entity's identity as its parent link (beside the partition key,
    /// see [`Self::check_partition_key_clashes`]), so none of its attributes may
    /// have that name; and a value object embedded at the top of a member's
    /// document (a member entity's, or a separated value object's) is a property
    /// of that document, so its relationship's property may be neither the
    /// partition key nor the parent link.
    ///
    /// Like the partition key rule, these reject a model whatever MR4 decides
    /// where the thresholds decide (they can be set by the model and by the
    /// caller), but not where the model alone settles it: a value object that is
    /// always embedded ([`FixedPlacement::AlwaysEmbedded`]) is never a document with a parent
    /// link, and one that is always separated ([`FixedPlacement::AlwaysSeparated`]) is no
    /// property of its parent's document.
    fn check_separated_document_clashes(&mut self, keys: &[Option<&'a str>], links: &EntityLinks<'a>) {
        let spec = self.spec;
        // Containment inside one aggregate, to a value object, both ends known.
        let contains: Vec<(usize, &'a Relationship, FixedPlacement)> = spec
            .relationships
            .iter()
            .enumerate()
            .filter(|(_, rel)| {
                let aggregate = self.index.aggregate_of.get(rel.from.as_str());
                matches!(
                    self.index.elements.get(rel.to.as_str()),
                    Some(ElementId::ValueObject(_))
                ) && aggregate.is_some()
                    && aggregate == self.index.aggregate_of.get(rel.to.as_str())
            })
            .map(|(i, rel)| (i, rel, self.mr4(rel)))
            .collect();
        let mut separable = self.separable_links(keys, &contains);
        // A member entity's documents carry their parent link too (a post's, its
        // thread's identity): a value object embedded at their top takes no such name.
        for (&entity, &link) in links {
            separable.entry(entity).or_default().push(link);
        }
        self.check_parent_link_attributes(keys, &separable);
        self.check_embedded_property_clashes(keys, &contains, &separable);
    }

    /// The value objects MR4 may separate, with the parent links their documents may
    /// carry: (parent entity, its identity), one per member entity parent.
    fn separable_links(
        &self,
        keys: &[Option<&'a str>],
        contains: &[(usize, &'a Relationship, FixedPlacement)],
    ) -> NameMap<&'a str, Vec<(&'a str, &'a str)>> {
        // Only looked up; sized for every containment, so it never grows.
        let mut separable: NameMap<&str, Vec<(&'a str, &'a str)>> = name_map(contains.len());
        for &(_, rel, mr4) in contains {
            if mr4 == FixedPlacement::AlwaysEmbedded {
                continue;
            }
            let links = separable.entry(rel.to.as_str()).or_default();
            let member = self.member_partition_key(keys, &rel.from).is_some();
            if let (true, Some(identity)) = (member, self.identity_of(&rel.from)) {
                if !links.iter().any(|(_, l)| *l == identity) {
                    links.push((rel.from.as_str(), identity));
                }
            }
        }
        separable
    }

    /// A member entity held by another member entity (a post by its thread) stores that
    /// entity's identity in its documents, as their parent link (the partition key names
    /// only the root): it has no identity, nor attribute, of that name.
    fn check_member_entity_links(&mut self, keys: &[Option<&'a str>], links: &EntityLinks<'a>) {
        let spec = self.spec;
        for (i, entity) in spec.entities.iter().enumerate() {
            let Some((_, key)) = self.member_partition_key(keys, &entity.name) else {
                continue;
            };
            let Some(&(parent, link)) = links.get(entity.name.as_str()).filter(|(_, link)| *link != key) else {
                continue;
            };
            let message = || {
                format!(
                    "`{link}` is the parent link a document of `{}` carries: the identity of its `{parent}`",
                    entity.name
                )
            };
            if entity.identity == link {
                self.report(Diagnostic::new(Self::entity_path(i).key("identity"), message()).help(format!(
                    "rename this identity: `{}` documents store `{link}` already, as the identity of the `{parent}` that holds them (MR3)",
                    entity.name
                )));
            }
            if let Some(j) = entity.attributes.iter().position(|a| a.name == link) {
                self.report(
                    Diagnostic::new(Self::entity_path(i).key("attributes").index(j).key("name"), message()).help(format!(
                        "remove or rename this attribute: `{}` documents store `{link}` already, as the identity of the `{parent}` that holds them (MR3)",
                        entity.name
                    )),
                );
            }
        }
    }

    /// The parent link each member entity held by another member entity carries in its
    /// documents, by entity: (parent, its identity). Its parent is as the model finds it,
    /// the first relationship to it from inside its aggregate; one pass over them.
    fn member_entity_links(&self, keys: &[Option<&'a str>]) -> EntityLinks<'a> {
        let mut first: NameMap<&'a str, &'a str> = name_map(self.spec.entities.len());
        for rel in &self.spec.relationships {
            let aggregate = self.index.aggregate_of.get(rel.to.as_str());
            if aggregate.is_some() && aggregate == self.index.aggregate_of.get(rel.from.as_str()) {
                first.entry(rel.to.as_str()).or_insert(rel.from.as_str());
            }
        }
        let member = |name: &str| self.is_entity(name) && self.member_partition_key(keys, name).is_some();
        let mut links = name_map(first.len());
        for (to, from) in first {
            if from != to && member(to) && member(from) {
                if let Some(identity) = self.identity_of(from) {
                    links.insert(to, (from, identity));
                }
            }
        }
        links
    }

    /// A value object MR4 may separate has no attribute named like a parent link its
    /// document would carry.
    fn check_parent_link_attributes(
        &mut self,
        keys: &[Option<&'a str>],
        separable: &NameMap<&'a str, Vec<(&'a str, &'a str)>>,
    ) {
        let spec = self.spec;
        for (i, vo) in spec.value_objects.iter().enumerate() {
            let Some((_, key)) = self.member_partition_key(keys, &vo.name) else {
                continue;
            };
            let Some(links) = separable.get(vo.name.as_str()) else {
                continue;
            };
            for &(parent, link) in links {
                // A parent identity named like the partition key is reported there.
                if link == key {
                    continue;
                }
                let Some(j) = vo.attributes.iter().position(|a| a.name == link) else {
                    continue;
                };
                let mut taken: Vec<&str> = vo.attributes.iter().map(|a| a.name.as_str()).collect();
                taken.push(key);
                let suggestion = unused(format!("{}{}", lower_camel(&vo.name), upper_camel(link)), link, &taken);
                let path = Self::value_object_path(i).key("attributes").index(j).key("name");
                self.report(
                    Diagnostic::new(path, parent_link_message(link, &vo.name, parent)).help(format!(
                        "rename this attribute, for example `{suggestion}`: when `{}` is stored as a document of its own (MR4), that document stores `{link}` already, as the identity of its `{parent}`",
                        vo.name
                    )),
                );
            }
        }
    }

    /// The property of a value object embedded at the top of a member's document is
    /// neither the partition key nor a parent link that document carries.
    fn check_embedded_property_clashes(
        &mut self,
        keys: &[Option<&'a str>],
        contains: &[(usize, &'a Relationship, FixedPlacement)],
        separable: &NameMap<&'a str, Vec<(&'a str, &'a str)>>,
    ) {
        for &(i, rel, mr4) in contains {
            if matches!(mr4, FixedPlacement::AlwaysSeparated(_)) {
                continue;
            }
            let Some((root, key)) = self.member_partition_key(keys, &rel.from) else {
                continue; // the root: its identity is the partition key, and a property of that name clashes with it
            };
            let property = rel.property_name();
            let from_entity = self.is_entity(&rel.from);
            let links: &[(&str, &str)] = match separable.get(rel.from.as_str()) {
                Some(links) => links,
                None if from_entity => &[],
                None => continue, // a value object always embedded: no document of its own
            };
            // Most properties are neither the partition key nor a parent link: the
            // element's own properties are listed only for those that are.
            if property != key && !links.iter().any(|(_, link)| *link == property) {
                continue;
            }
            let own = self.own_properties(&rel.from);
            if own.contains(&property.as_str()) {
                continue; // reported as a property clash (relationships)
            }
            let (message, document) = if property == key {
                let document = if from_entity {
                    format!("every `{}` document stores `{key}` already (MR2)", rel.from)
                } else {
                    format!(
                        "when `{}` is stored as a document of its own (MR4), that document stores `{key}` already (MR2)",
                        rel.from
                    )
                };
                (
                    format!("`{key}` is the partition key every document of aggregate `{root}` carries"),
                    document,
                )
            } else if let Some(&(parent, link)) = links.iter().find(|(_, link)| *link == property) {
                let document = if from_entity {
                    format!(
                        "every `{}` document stores `{link}` already, as the identity of its `{parent}` (MR3)",
                        rel.from
                    )
                } else {
                    format!(
                        "when `{}` is stored as a document of its own (MR4), that document stores `{link}` already",
                        rel.from
                    )
                };
                (parent_link_message(link, &rel.from, parent), document)
            } else {
                continue;
            };
            let diagnostic = self.clash_diagnostic(i, rel, key, links, own, (message, document));
            self.report(diagnostic);
        }
    }

    /// The diagnostic of relationship `i` (`rel`), whose property clashes with the
    /// partition key `key` or a parent link (`links`) of the document it is embedded
    /// in (whose `own` properties are taken too): `message`, and `document` saying
    /// what that document stores, with a free name to use instead.
    fn clash_diagnostic(
        &self,
        i: usize,
        rel: &Relationship,
        key: &str,
        links: &[(&str, &str)],
        own: Vec<&str>,
        (message, document): (String, String),
    ) -> Diagnostic {
        let spec = self.spec;
        let property = rel.property_name();
        let siblings: Vec<String> = spec
            .relationships
            .iter()
            .filter(|r| r.from == rel.from)
            .map(Relationship::property_name)
            .collect();
        let mut taken = own;
        taken.extend(siblings.iter().map(String::as_str));
        taken.push(key);
        taken.extend(links.iter().map(|(_, link)| *link));
        let suggestion = unused(
            format!("{}{}", lower_camel(&rel.to), upper_camel(&property)),
            &property,
            &taken,
        );
        let embedded = format!("`{}`, when embedded in it, would take the same name", rel.to);
        let path = JsonPath::root().key("relationships").index(i);
        match rel.property {
            Some(_) => Diagnostic::new(path.key("property"), message).help(format!(
                "rename this property, for example `{suggestion}`: {document}, and {embedded}"
            )),
            None => Diagnostic::new(path, message).help(format!(
                "set this relationship's `property`, for example to `{suggestion}`: {document}, and {embedded}"
            )),
        }
    }

    /// The identity and attribute names of entity or value object `name`.
    fn own_properties(&self, name: &str) -> Vec<&'a str> {
        let spec = self.spec;
        match self.index.elements.get(name) {
            Some(ElementId::Entity(i)) => {
                let entity = &spec.entities[*i];
                std::iter::once(entity.identity.as_str())
                    .chain(entity.attributes.iter().map(|a| a.name.as_str()))
                    .collect()
            }
            Some(ElementId::ValueObject(i)) => spec.value_objects[*i]
                .attributes
                .iter()
                .map(|a| a.name.as_str())
                .collect(),
            None => Vec::new(),
        }
    }

    /// What MR4 can decide for the value object `rel.to`, judged from the model
    /// alone: [`crate::embedding::fixed_placement`], which the mapper's MR4 uses too.
    fn mr4(&self, rel: &Relationship) -> FixedPlacement {
        let size = match self.index.elements.get(rel.to.as_str()) {
            Some(ElementId::ValueObject(i)) => self.spec.value_objects[*i].volume.and_then(|v| v.avg_size_bytes),
            _ => None,
        };
        fixed_placement(rel, size)
    }

    /// For a member (not the root) of an aggregate: the root and its identity,
    /// which every document of the aggregate carries as its partition key. `keys`
    /// holds each aggregate's root identity (by aggregate index), found once.
    fn member_partition_key(&self, keys: &[Option<&'a str>], name: &str) -> Option<(&'a str, &'a str)> {
        let &a = self.index.aggregate_of.get(name)?;
        let root = self.spec.aggregates[a].root.as_str();
        if root == name {
            return None;
        }
        Some((root, keys[a]?))
    }
}

/// The message for a name that is the parent link of a separated `vo`.
fn parent_link_message(link: &str, vo: &str, parent: &str) -> String {
    format!("`{link}` is the parent link a document of `{vo}` carries: the identity of its `{parent}`")
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

#[cfg(test)]
mod tests {
    use crate::{
        Aggregate, Attribute, AttributeType, Cardinality, Entity, Growth, ModelBuilder, Relationship, ValueObject,
    };

    /// (path, message, help) of each problem validation finds in `builder`'s model.
    fn problems(builder: ModelBuilder) -> Vec<(String, String, String)> {
        match builder.build() {
            Ok(_) => Vec::new(),
            Err(e) => e
                .diagnostics()
                .iter()
                .map(|d| {
                    (
                        d.path.to_string(),
                        d.message.clone(),
                        d.help.clone().unwrap_or_default(),
                    )
                })
                .collect(),
        }
    }

    fn text(attribute: &str) -> Attribute {
        Attribute::new(attribute, AttributeType::String)
    }

    /// A team (`team` is its identity, so the partition key) whose players hold a
    /// kit through `kit`.
    fn league(kit: Relationship) -> ModelBuilder {
        league_of(
            Entity::new("Team", "team"),
            Entity::new("Player", "playerId").attribute(text("name")),
            kit,
        )
    }

    /// The `team` entity root of an aggregate whose `player` entities hold a kit
    /// through `kit`.
    fn league_of(team: Entity, player: Entity, kit: Relationship) -> ModelBuilder {
        let kit_object = ValueObject::new("Kit").attribute(text("colour"));
        one_aggregate("League", [team, player], [kit_object], [kit])
    }

    /// An order whose shipments hold `scan` value objects through `scans`.
    fn shop(scan: ValueObject, scans: Relationship) -> ModelBuilder {
        let entities = [Entity::new("Order", "orderId"), Entity::new("Shipment", "shipmentId")];
        one_aggregate("Shop", entities, [scan], [scans])
    }

    /// Model `name` of one aggregate: its root and member entity, its value objects
    /// and the relationships between them.
    fn one_aggregate<const V: usize, const R: usize>(
        name: &str,
        [root, member]: [Entity; 2],
        values: [ValueObject; V],
        relationships: [Relationship; R],
    ) -> ModelBuilder {
        let mut aggregate = Aggregate::new(&root.name).member(&member.name);
        for v in &values {
            aggregate = aggregate.member(&v.name);
        }
        let builder = ModelBuilder::new(name).entity(root).entity(member);
        let builder = values.into_iter().fold(builder, ModelBuilder::value_object);
        relationships
            .into_iter()
            .fold(builder.aggregate(aggregate), ModelBuilder::relationship)
    }

    #[test]
    fn an_embedded_value_object_named_like_the_partition_key_is_rejected() {
        let found = problems(league(
            Relationship::new("Player", "Kit", Cardinality::One).property("team"),
        ));
        assert_eq!(
            found,
            [(
                "$.relationships[0].property".to_string(),
                "`team` is the partition key every document of aggregate `Team` carries".to_string(),
                "rename this property, for example `kitTeam`: every `Player` document stores `team` already (MR2), and `Kit`, when embedded in it, would take the same name".to_string(),
            )]
        );
    }

    #[test]
    fn a_default_property_named_like_the_partition_key_is_rejected_at_the_relationship() {
        let found = problems(league_of(
            Entity::new("Team", "kit"),
            Entity::new("Player", "playerId"),
            Relationship::new("Player", "Kit", Cardinality::One),
        ));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "$.relationships[0]");
        assert_eq!(
            found[0].1,
            "`kit` is the partition key every document of aggregate `Team` carries"
        );
        assert!(
            found[0]
                .2
                .starts_with("set this relationship's `property`, for example to `kitKit`:"),
            "{}",
            found[0].2
        );
    }

    #[test]
    fn a_value_object_that_is_always_separated_may_take_the_partition_key_s_name() {
        for kit in [
            Relationship::new("Player", "Kit", Cardinality::Squillions),
            Relationship::new("Player", "Kit", Cardinality::Many),
            Relationship::new("Player", "Kit", Cardinality::One).growth(Growth::Unbounded),
        ] {
            let kit = kit.property("team");
            assert_eq!(problems(league(kit.clone())), [], "{kit:?}");
        }
        // Bounded: the thresholds decide, so it is rejected.
        let kit = Relationship::new("Player", "Kit", Cardinality::Many)
            .max(5)
            .property("team");
        assert_eq!(problems(league(kit)).len(), 1);
    }

    #[test]
    fn a_value_object_embedded_in_a_separable_one_is_checked_against_its_document() {
        let builder = |kit: Relationship| {
            one_aggregate(
                "League",
                [Entity::new("Team", "team"), Entity::new("Player", "playerId")],
                [
                    ValueObject::new("Kit").attribute(text("colour")),
                    ValueObject::new("Badge").attribute(text("motto")),
                ],
                [
                    kit,
                    Relationship::new("Kit", "Badge", Cardinality::One).property("team"),
                ],
            )
        };
        let found = problems(builder(Relationship::new("Player", "Kit", Cardinality::Squillions)));
        assert_eq!(
            found,
            [(
                "$.relationships[1].property".to_string(),
                "`team` is the partition key every document of aggregate `Team` carries".to_string(),
                "rename this property, for example `badgeTeam`: when `Kit` is stored as a document of its own (MR4), that document stores `team` already (MR2), and `Badge`, when embedded in it, would take the same name".to_string(),
            )]
        );
        // `Kit` always embedded: `team` is a property of the embedded `kit` object only.
        assert_eq!(
            problems(builder(Relationship::new("Player", "Kit", Cardinality::One))),
            []
        );
    }

    #[test]
    fn an_embedded_value_object_named_like_the_parent_link_is_rejected() {
        let found = problems(one_aggregate(
            "Shop",
            [Entity::new("Order", "orderId"), Entity::new("Shipment", "shipmentId")],
            [
                ValueObject::new("Scan").attribute(text("place")),
                ValueObject::new("Tag").attribute(text("label")),
            ],
            [
                Relationship::new("Shipment", "Scan", Cardinality::Squillions),
                Relationship::new("Scan", "Tag", Cardinality::One).property("shipmentId"),
            ],
        ));
        assert_eq!(
            found,
            [(
                "$.relationships[1].property".to_string(),
                "`shipmentId` is the parent link a document of `Scan` carries: the identity of its `Shipment`".to_string(),
                "rename this property, for example `tagShipmentId`: when `Scan` is stored as a document of its own (MR4), that document stores `shipmentId` already, and `Tag`, when embedded in it, would take the same name".to_string(),
            )]
        );
    }

    #[test]
    fn a_value_object_attribute_named_like_the_parent_link_is_rejected() {
        let scan = ValueObject::new("Scan")
            .attribute(text("place"))
            .attribute(text("shipmentId"));
        let found = problems(shop(
            scan.clone(),
            Relationship::new("Shipment", "Scan", Cardinality::Squillions),
        ));
        assert_eq!(
            found,
            [(
                "$.valueObjects[0].attributes[1].name".to_string(),
                "`shipmentId` is the parent link a document of `Scan` carries: the identity of its `Shipment`".to_string(),
                "rename this attribute, for example `scanShipmentId`: when `Scan` is stored as a document of its own (MR4), that document stores `shipmentId` already, as the identity of its `Shipment`".to_string(),
            )]
        );
        // The thresholds decide: rejected.
        for scans in [
            Relationship::new("Shipment", "Scan", Cardinality::Few).max(3),
            Relationship::new("Shipment", "Scan", Cardinality::One).updates_per_second(50.0),
        ] {
            assert_eq!(problems(shop(scan.clone(), scans.clone())).len(), 1, "{scans:?}");
        }
        assert_eq!(
            problems(shop(
                scan.clone().avg_size_bytes(100.0),
                Relationship::new("Shipment", "Scan", Cardinality::One)
            ))
            .len(),
            1
        );
        // Always embedded: a `shipmentId` inside the embedded `scan` object is fine.
        assert_eq!(
            problems(shop(scan, Relationship::new("Shipment", "Scan", Cardinality::One))),
            []
        );
    }

    #[test]
    fn no_parent_link_without_a_member_entity_parent() {
        // Separated from the root: no parent link (the root's identity is the
        // partition key, a rule of its own); nor from a value object.
        let found = problems(
            ModelBuilder::new("Shop")
                .entity(Entity::new("Order", "orderId"))
                .value_object(ValueObject::new("Line").attribute(text("sku")))
                .value_object(ValueObject::new("Note").attribute(text("sku")))
                .aggregate(Aggregate::new("Order").member("Line").member("Note"))
                .relationship(Relationship::new("Order", "Line", Cardinality::Squillions))
                .relationship(Relationship::new("Line", "Note", Cardinality::Squillions)),
        );
        assert_eq!(found, []);
    }

    #[test]
    fn a_clash_with_the_element_s_own_property_is_reported_once() {
        let found = problems(league_of(
            Entity::new("Team", "team"),
            Entity::new("Player", "playerId").attribute(text("kit")),
            Relationship::new("Player", "Kit", Cardinality::One),
        ));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].1,
            "property `kit` of `Player` would hold both an attribute and `Kit`"
        );
    }
}

/// Where an element is placed in an aggregate: as its root, or as a member (by
/// index). Kept instead of its JSON path, which is built only for a problem.
#[derive(Debug, Clone, Copy)]
struct Placed {
    aggregate: usize,
    member: Option<usize>,
}

impl Placed {
    /// `$.aggregates[a].root` or `$.aggregates[a].members[m]`.
    fn path(self) -> JsonPath {
        let aggregate = JsonPath::root().key("aggregates").index(self.aggregate);
        match self.member {
            None => aggregate.key("root"),
            Some(m) => aggregate.key("members").index(m),
        }
    }
}
