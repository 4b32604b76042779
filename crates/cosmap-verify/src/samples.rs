//! Deterministic sample documents for every document type of a logical model.
//!
//! - each root document type gets [`ROOTS`] documents (`account-1` …), partitioned
//!   by their own id (or, in a dictionary container, by their `type`); a read with a
//!   `limit` on it asks for more (`limited_counts`: twice the limit plus [`ROOTS`],
//!   the extra ones joining the first pair);
//! - each entity and separated value object gets [`CHILDREN`] documents per parent
//!   (2, 1, 3, 2, …: parents hold different numbers, so a query that strays outside
//!   its partition returns too many; the first parent as many as a limit asks for),
//!   with the parent's partition key and, under a non-root entity, the parent's
//!   identity;
//! - embedded value objects are an object, or an array of [`ARRAY_LEN`];
//! - references point at existing samples (`id` and `partitionKey` as the target's
//!   partition key value kind says), documents in pairs on the same target so that
//!   targets have 2, 1 and 0 referrers;
//! - reference data snapshots hold the target sample's own values (its `id` as the
//!   identity), as the generated `From<&Target>` builds them;
//! - copies are built from their source samples as the generated `From<&Source>`
//!   conversion does: the same `id`, the copy's own `type`, the partition key taken
//!   from `copyOf.partitionKeyFrom` (e.g. `account.id`), and the copy's fields taken
//!   from the source's fields of the same name.
//!
//! Attribute values come from [`crate::values`].

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::FilterOp;
use cosmap_mapper::operations::PropertyPath;
use cosmap_mapper::{
    BucketWindow, Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, LogicalModel, PartitionKeyValue,
    Reference, Role,
};
use serde_json::{json, Map, Value};

use crate::error::VerifyError;
pub use crate::key::{Key, MAX_KEY_LEVELS};
use crate::values::{self, Seed, Spread};

/// Documents per root document type.
pub const ROOTS: usize = 3;

/// Buckets (`bucket`) per parent: consecutive windows, each with [`ARRAY_LEN`] items.
pub const BUCKETS: usize = 3;

/// Documents of a root type that is a tree (an optional link to itself): enough for
/// a chain with grandchildren below the first sample.
pub const TREE_ROOTS: usize = 5;
/// Child documents per parent, by the parent's position (cycled).
pub const CHILDREN: [usize; 3] = [2, 1, 3];
/// Elements of an embedded array (and references of a list of references).
pub const ARRAY_LEN: usize = 2;
/// The most documents of one type (or children of one parent) a `limit` asks for
/// (see [`limited_counts`]), so that a query without its `TOP` returns too many.
pub const MAX_LIMITED: usize = 100 + ROOTS;
/// How deep reference data snapshots may nest (a deeper chain is a cycle).
const MAX_DEPTH: usize = 16;

/// The sample documents of `logical` (mapped from `domain`), in the order verify
/// writes them: each container's documents, then the copies.
pub fn sample_documents(
    domain: &cosmap_domain::DomainModel,
    logical: &LogicalModel,
) -> Result<Vec<Sample>, VerifyError> {
    Generator::new(logical, attribute_spreads(domain), limited_counts(domain))?.samples()
}

/// [`sample_documents`], with the values of each attribute named in `distinct` all
/// different (as a sorted attribute's are): for a rehearsed migration that makes them
/// unique, whose old samples must not hold the duplicates the new model refuses.
pub fn sample_documents_with_distinct(
    domain: &cosmap_domain::DomainModel,
    logical: &LogicalModel,
    distinct: &BTreeSet<String>,
) -> Result<Vec<Sample>, VerifyError> {
    let mut spreads = attribute_spreads(domain);
    for name in distinct {
        spreads.insert(name.clone(), Spread::Sorted);
    }
    Generator::new(logical, spreads, limited_counts(domain))?.samples()
}

/// How each attribute's sample values spread (see [`crate::values`]): the attributes
/// some access pattern sorts on or compares by range are all different; those a pattern filters on take
/// one binary digit each, different digits for the filters of one pattern; the rest
/// are plain.
pub(crate) fn attribute_spreads(domain: &cosmap_domain::DomainModel) -> BTreeMap<String, Spread> {
    let attributes: BTreeSet<&str> = domain
        .entities()
        .iter()
        .flat_map(|e| &e.attributes)
        .chain(domain.value_objects().iter().flat_map(|v| &v.attributes))
        .map(|a| a.name.as_str())
        .collect();
    let mut spreads = BTreeMap::new();
    for p in domain.access_patterns() {
        // Sorted, or compared by range: all different, so every bound leaves some out.
        let ranged = p
            .filters()
            .into_iter()
            .flatten()
            .filter(|f| f.is_range())
            .map(|f| f.attribute);
        for attribute in p.sort_keys().iter().map(|k| k.attribute).chain(ranged) {
            spreads.insert(attribute.to_string(), Spread::Sorted);
        }
    }
    for p in domain.access_patterns() {
        for f in p.filters().into_iter().flatten().filter(|f| f.op == FilterOp::In) {
            spreads.entry(f.attribute.to_string()).or_insert(Spread::ThreeWay);
        }
    }
    for p in domain.access_patterns() {
        let filtered = p.filter_attributes();
        let mut used: BTreeSet<u32> = filtered
            .iter()
            .filter_map(|f| match spreads.get(*f) {
                Some(Spread::Filtered(d)) => Some(*d),
                _ => None,
            })
            .collect();
        for f in filtered.into_iter().filter(|f| attributes.contains(f)) {
            if !spreads.contains_key(f) {
                let digit = (0..).find(|d| !used.contains(d)).unwrap_or(0);
                used.insert(digit);
                spreads.insert(f.to_string(), Spread::Filtered(digit));
            }
        }
    }
    spreads
}

/// How many documents of an element the patterns' `limit`s ask for (twice the
/// largest limit on a read starting there plus [`ROOTS`], at most [`MAX_LIMITED`]).
pub(crate) fn limited_counts(domain: &cosmap_domain::DomainModel) -> BTreeMap<String, usize> {
    let mut out: BTreeMap<String, usize> = BTreeMap::new();
    for p in domain.access_patterns() {
        if let Some(limit) = p.limit {
            // Roots beyond the first pair join it, so the pair's target has limit + 1
            // referrers; twice the limit, so that an equality filter (which keeps
            // about half) still leaves more than the limit.
            let wanted = usize::try_from(limit)
                .unwrap_or(usize::MAX)
                .saturating_mul(2)
                .saturating_add(ROOTS)
                .min(MAX_LIMITED);
            let entry = out.entry(p.start.clone()).or_default();
            *entry = (*entry).max(wanted);
        }
    }
    out
}

/// One sample document and where it goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The container.
    pub container: String,
    /// The document type's name.
    pub document_type: String,
    /// The document's `id`.
    pub id: String,
    /// Its partition key value.
    pub partition_key: Key,
    /// The document.
    pub body: Value,
    pub(crate) instance: Instance,
}

impl Sample {
    /// A document already stored in container `container` of `model` (written by
    /// someone else: a rehearsed migration), as a sample of its document type, the
    /// `ordinal`-th read: what [`crate::verify_stored`] judges the reads against. `None`
    /// for a document whose `type` the container does not have, without a text `id`,
    /// or whose partition key values are not text.
    pub fn stored(model: &LogicalModel, container: &str, body: Value, ordinal: usize) -> Option<Sample> {
        let c = model.container(container)?;
        let kind = body.get("type")?.as_str()?;
        let d = c.document_types.iter().find(|d| d.discriminator == kind)?;
        let id = body.get("id")?.as_str()?.to_string();
        let values = c
            .partition_key_properties()
            .into_iter()
            .map(|p| body.get(p).and_then(Value::as_str).map(str::to_string))
            .collect::<Option<Vec<_>>>()?;
        let partition_key = Key::levels(values);
        let parent = d
            .parent
            .as_ref()
            .and_then(|link| body.get(&link.property))
            .and_then(Value::as_str)
            .map(str::to_string);
        Some(Sample {
            container: c.name.clone(),
            document_type: d.name.clone(),
            id: id.clone(),
            partition_key: partition_key.clone(),
            body,
            instance: Instance {
                id,
                partition_key,
                parent,
                ordinal,
                group: ordinal / 2,
            },
        })
    }
}

/// Which instance of its document type a sample is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Instance {
    id: String,
    partition_key: Key,
    /// The parent entity's identity, for a value object under a non-root entity.
    parent: Option<String>,
    ordinal: usize,
    /// Shared with neighbours: documents in pairs; roots beyond [`ROOTS`] (made for
    /// a `limit`) all join the first pair, so one target has more referrers than
    /// the limit.
    group: usize,
}

/// (container, document type)
type TypeKey = (String, String);

/// Builds samples for one logical model.
#[derive(Debug)]
pub(crate) struct Generator<'a> {
    model: &'a LogicalModel,
    /// How attribute values spread, by attribute name (absent: plain).
    spreads: BTreeMap<String, Spread>,
    instances: BTreeMap<TypeKey, Vec<Instance>>,
}

impl<'a> Generator<'a> {
    /// Decides every instance (ids, partition keys, parents) of `model`'s document types.
    pub fn new(
        model: &'a LogicalModel,
        spreads: BTreeMap<String, Spread>,
        limited: BTreeMap<String, usize>,
    ) -> Result<Self, VerifyError> {
        // Cosmos DB keys have one to three levels (a `Key` holds as many).
        if let Some(c) = model
            .containers
            .iter()
            .find(|c| !(1..=MAX_KEY_LEVELS).contains(&c.partition_key_properties().len()))
        {
            return Err(VerifyError::Samples(format!(
                "`{}` is partitioned by {} paths; Cosmos DB takes one to {MAX_KEY_LEVELS}",
                c.name,
                c.partition_key_properties().len()
            )));
        }
        let mut instances: BTreeMap<TypeKey, Vec<Instance>> = BTreeMap::new();
        // Roots first, everywhere: a root partitioned by a reference takes the
        // referenced root's id as its partition key value, and its children take it
        // from the root.
        for c in &model.containers {
            for d in c.document_types.iter().filter(|d| d.role == Role::Root) {
                // A tree gets chains deep enough for grandchildren (see `tree_parent`).
                let tree = d
                    .references
                    .iter()
                    .any(|r| r.optional && !r.many && r.target == d.source);
                let least = if tree { TREE_ROOTS } else { ROOTS };
                let n = limited.get(&d.source).copied().unwrap_or(0).max(least);
                instances.insert(key(&c.name, &d.name), (0..n).map(|i| root_instance(c, d, i)).collect());
            }
        }
        for c in &model.containers {
            for d in c.document_types.iter().filter(|d| d.role == Role::Root) {
                let Some(r) = partitioned_by(c, d) else {
                    continue;
                };
                let targets: Vec<String> = instances
                    .get(&key(&r.target_container, &r.target))
                    .map(|list| list.iter().map(|t| t.id.clone()).collect())
                    .unwrap_or_default();
                if targets.is_empty() {
                    return Err(VerifyError::Samples(format!(
                        "`{}` in `{}` is partitioned by its `{}`, whose `{}` has no documents",
                        d.name, c.name, r.name, r.target
                    )));
                }
                for instance in instances.get_mut(&key(&c.name, &d.name)).into_iter().flatten() {
                    instance.partition_key = instance
                        .partition_key
                        .clone()
                        .with_first(targets[instance.group % targets.len()].clone());
                }
            }
        }
        for c in &model.containers {
            let mut types: Vec<&DocumentType> = c
                .document_types
                .iter()
                .filter(|d| !matches!(d.role, Role::Copy | Role::Claim | Role::Root))
                .collect();
            types.sort_by_key(|d| d.role);
            for d in types {
                let parent_type = parent_type(c, d)?;
                let parents = instances.get(&key(&c.name, &parent_type)).ok_or_else(|| {
                    VerifyError::Samples(format!(
                        "`{}` in `{}` belongs to `{parent_type}`, which has no documents there",
                        d.name, c.name
                    ))
                })?;
                let mut children = Vec::new();
                // Buckets: a few windows per parent, each named by its window.
                if let Some(b) = &d.bucket {
                    for (p, parent) in parents.iter().enumerate() {
                        for k in 0..BUCKETS {
                            children.push(Instance {
                                id: window_of(&bucket_time(b.window, k, 0), b.window),
                                partition_key: parent.partition_key.clone(),
                                parent: None,
                                ordinal: p * BUCKETS + k,
                                group: k,
                            });
                        }
                    }
                    instances.insert(key(&c.name, &d.name), children);
                    continue;
                }
                for (p, parent) in parents.iter().enumerate() {
                    let mut count = CHILDREN[p % CHILDREN.len()];
                    if p == 0 {
                        count = count.max(limited.get(&d.source).copied().unwrap_or(0));
                    }
                    for _ in 0..count {
                        children.push(child_instance(d, parent, children.len()));
                    }
                }
                instances.insert(key(&c.name, &d.name), children);
            }
        }
        Ok(Generator {
            model,
            spreads,
            instances,
        })
    }

    /// Every sample: the documents of each container in order, then the copies.
    pub fn samples(&self) -> Result<Vec<Sample>, VerifyError> {
        let mut out = Vec::new();
        for c in &self.model.containers {
            for d in c
                .document_types
                .iter()
                .filter(|d| !matches!(d.role, Role::Copy | Role::Claim))
            {
                for instance in self.instances.get(&key(&c.name, &d.name)).into_iter().flatten() {
                    out.push(self.sample(c, d, instance, 0, 0)?);
                }
            }
        }
        keep_counts(self.model, &mut out);
        keep_subsets(self.model, &mut out);
        let sources = out.clone();
        for c in &self.model.containers {
            for d in c.document_types.iter().filter(|d| d.role == Role::Copy) {
                let Some(of) = &d.copy_of else {
                    return Err(VerifyError::Samples(format!(
                        "the copy `{}` in `{}` does not say what it copies",
                        d.name, c.name
                    )));
                };
                for source in sources
                    .iter()
                    .filter(|s| s.container == of.container && s.document_type == of.document_type)
                {
                    out.push(self.copy(c, d, source)?);
                }
            }
        }
        // A claim on each owner's unique value (uniqueClaim).
        for c in &self.model.containers {
            for d in c.document_types.iter().filter(|d| d.role == Role::Claim) {
                let Some(of) = &d.claim_of else { continue };
                for owner in sources
                    .iter()
                    .filter(|s| s.container == of.container && s.document_type == of.document_type)
                {
                    out.push(self.claim(c, d, owner)?);
                }
            }
        }
        let mut seen = BTreeSet::new();
        for s in &out {
            if !seen.insert((&s.container, &s.partition_key, &s.id)) {
                return Err(VerifyError::Samples(format!(
                    "two sample documents in `{}` would have the id `{}`",
                    s.container, s.id
                )));
            }
        }
        Ok(out)
    }

    /// A new document of type `document_type` in `container`, unlike every sample
    /// (`serial` counts the new ones already made), under the first parent.
    pub fn new_sample(&self, container: &str, document_type: &str, serial: usize) -> Result<Sample, VerifyError> {
        let (c, d) = self.find(container, document_type)?;
        let instance = match d.role {
            Role::Root => {
                let count = self.instances.get(&key(&c.name, &d.name)).map_or(ROOTS, Vec::len);
                let mut instance = root_instance(c, d, count + serial);
                if let Some(r) = partitioned_by(c, d) {
                    let (tc, td) = self.root_of(&r.target, Some(&r.target_container))?;
                    let target = self.target(tc, td, instance.group)?.id.clone();
                    instance.partition_key = instance.partition_key.with_first(target);
                }
                instance
            }
            Role::Copy | Role::Claim => {
                return Err(VerifyError::Samples(format!(
                    "`{}` in `{}` is a {}: it is built from its source",
                    d.name,
                    c.name,
                    d.role.as_str()
                )))
            }
            _ => {
                let count = self.instances.get(&key(&c.name, &d.name)).map_or(0, Vec::len);
                let parent_type = parent_type(c, d)?;
                let parent = self
                    .instances
                    .get(&key(&c.name, &parent_type))
                    .and_then(|list| list.first())
                    .ok_or_else(|| VerifyError::Samples(format!("`{parent_type}` has no documents in `{}`", c.name)))?;
                child_instance(d, parent, count + serial)
            }
        };
        self.sample(c, d, &instance, 0, 0)
    }

    /// `sample` rewritten with new values (same id, partition key, parent and
    /// references). A value a claim holds stays: a replace keeps its claim, and a
    /// change of the value is a claim of the new one and a release of the old.
    pub fn revised(&self, sample: &Sample, revision: u32) -> Result<Sample, VerifyError> {
        let (c, d) = self.find(&sample.container, &sample.document_type)?;
        let mut revised = self.sample(c, d, &sample.instance, revision, 0)?;
        // A count or subset kept on it stays what its children make it.
        let kept = d
            .computed
            .iter()
            .map(|v| &v.name)
            .chain(d.embedded.iter().filter(|e| e.subset.is_some()).map(|e| &e.name));
        for name in kept {
            if let (Value::Object(body), Some(value)) = (&mut revised.body, sample.body.get(name)) {
                body.insert(name.clone(), value.clone());
            }
        }
        let claimed = self
            .model
            .containers
            .iter()
            .flat_map(|k| &k.document_types)
            .filter_map(|k| k.claim_of.as_ref())
            .filter(|of| of.container == c.name && of.document_type == d.name);
        for of in claimed {
            if let (Value::Object(body), Some(value)) = (&mut revised.body, sample.body.get(&of.attribute)) {
                body.insert(of.attribute.clone(), value.clone());
            }
        }
        Ok(revised)
    }

    /// The copy of `source` kept in copy document type `document_type` of `container`.
    pub fn copy_of(&self, container: &str, document_type: &str, source: &Sample) -> Result<Sample, VerifyError> {
        let (c, d) = self.find(container, document_type)?;
        self.copy(c, d, source)
    }

    /// The claim, in claim document type `document_type` of `container`, on the
    /// unique value of `owner` (uniqueClaim).
    pub fn claim_of(&self, container: &str, document_type: &str, owner: &Sample) -> Result<Sample, VerifyError> {
        let (c, d) = self.find(container, document_type)?;
        self.claim(c, d, owner)
    }

    /// A claim document as the application writes it: its `id` is its `type`, its
    /// partition key the owner's value.
    fn claim(&self, c: &Container, d: &DocumentType, owner: &Sample) -> Result<Sample, VerifyError> {
        let Some(of) = &d.claim_of else {
            return Err(VerifyError::Samples(format!(
                "`{}` in `{}` is not a claim",
                d.name, c.name
            )));
        };
        let value = match owner.body.get(&of.attribute) {
            Some(Value::String(value)) => value.clone(),
            other => {
                return Err(VerifyError::Samples(format!(
                    "the claim `{}` claims `{}` of `{}`, which is {} in the sample `{}`",
                    d.name,
                    of.attribute,
                    of.document_type,
                    what_is(other),
                    owner.id
                )))
            }
        };
        let mut body = Map::new();
        body.insert("id".into(), json!(d.discriminator));
        body.insert("type".into(), json!(d.discriminator));
        body.insert(c.partition_key_property.clone(), json!(value));
        body.insert("ownerId".into(), json!(owner.id));
        body.insert("ownerPartitionKey".into(), owner.partition_key.to_json());
        Ok(Sample {
            container: c.name.clone(),
            document_type: d.name.clone(),
            id: d.discriminator.clone(),
            partition_key: Key::one(value.clone()),
            body: Value::Object(body),
            instance: Instance {
                id: d.discriminator.clone(),
                partition_key: Key::one(value),
                parent: None,
                ordinal: owner.instance.ordinal,
                group: owner.instance.group,
            },
        })
    }

    fn find(&self, container: &str, document_type: &str) -> Result<(&'a Container, &'a DocumentType), VerifyError> {
        let c = self
            .model
            .container(container)
            .ok_or_else(|| VerifyError::Samples(format!("there is no container `{container}`")))?;
        let d = c.document_type(document_type).ok_or_else(|| {
            VerifyError::Samples(format!("there is no document type `{document_type}` in `{container}`"))
        })?;
        Ok((c, d))
    }

    fn sample(
        &self,
        c: &Container,
        d: &DocumentType,
        instance: &Instance,
        revision: u32,
        depth: usize,
    ) -> Result<Sample, VerifyError> {
        let mut body = Map::new();
        body.insert("id".into(), json!(instance.id));
        body.insert("type".into(), json!(d.discriminator));
        if c.kind != ContainerKind::Dictionary {
            for (level, value) in c
                .partition_key_properties()
                .into_iter()
                .zip(instance.partition_key.values())
            {
                body.insert(level.to_string(), json!(value));
            }
        }
        if let (Some(link), Some(parent)) = (&d.parent, &instance.parent) {
            body.insert(link.property.clone(), json!(parent));
        }
        let seed = seed_of(instance, revision);
        let fields = Fields {
            attributes: &d.attributes,
            embedded: &d.embedded,
            references: &d.references,
        };
        self.fill(&mut body, fields, seed, depth)?;
        if d.role == Role::Root {
            self.tree(c, d, instance, &mut body)?;
        }
        // A bucket: its window, and its items' times in it, in order.
        if let Some(b) = &d.bucket {
            body.insert("window".into(), json!(instance.id));
            if let Some(Value::Array(items)) = body.get_mut(&b.items) {
                for (j, item) in items.iter_mut().enumerate() {
                    if let Value::Object(item) = item {
                        item.insert(b.time.clone(), json!(bucket_time(b.window, instance.group, j + 1)));
                    }
                }
            }
        }
        // A count kept on it (computedValue): none yet; see `keep_counts`.
        for v in &d.computed {
            body.insert(v.name.clone(), json!(0));
        }
        Ok(Sample {
            container: c.name.clone(),
            document_type: d.name.clone(),
            id: instance.id.clone(),
            partition_key: instance.partition_key.clone(),
            body: Value::Object(body),
            instance: instance.clone(),
        })
    }

    /// A tree's parent link and ancestors list (`treeAncestors`): the samples form
    /// chains (see [`tree_parent`]), each root without a parent, and each list holds
    /// the chain above the sample, root first, with the ancestors' own values.
    fn tree(
        &self,
        c: &Container,
        d: &DocumentType,
        instance: &Instance,
        body: &mut Map<String, Value>,
    ) -> Result<(), VerifyError> {
        let existing = self.instances.get(&key(&c.name, &d.name)).map_or(0, Vec::len);
        for r in d
            .references
            .iter()
            .filter(|r| r.optional && !r.many && r.target == d.source)
        {
            let lists: Vec<&Reference> = d
                .references
                .iter()
                .filter(|x| x.ancestry.as_ref().is_some_and(|a| a.parent == r.name))
                .collect();
            let max = lists
                .iter()
                .filter_map(|x| x.ancestry.as_ref())
                .map(|a| a.max as usize)
                .min()
                .unwrap_or(ROOTS);
            // Nearest first.
            let mut chain = Vec::new();
            let mut at = instance.ordinal;
            while let Some(parent) = tree_parent(at, existing, max).filter(|_| chain.len() < max) {
                chain.push(parent);
                at = parent;
            }
            match chain.first() {
                Some(&parent) => body.insert(r.name.clone(), self.reference(r, parent)?),
                None => body.remove(&r.name),
            };
            for list in lists {
                let entries = chain
                    .iter()
                    .rev()
                    .map(|&j| self.reference(list, j))
                    .collect::<Result<Vec<_>, _>>()?;
                body.insert(list.name.clone(), Value::Array(entries));
            }
        }
        Ok(())
    }

    fn fill(
        &self,
        object: &mut Map<String, Value>,
        fields: Fields<'_>,
        seed: Seed<'_>,
        depth: usize,
    ) -> Result<(), VerifyError> {
        for a in fields.attributes {
            let spread = self.spreads.get(&a.name).copied().unwrap_or(Spread::Plain);
            object.insert(a.name.clone(), values::attribute(a, seed, spread));
        }
        for e in fields.embedded {
            let value = match (e.kind, e.many) {
                (EmbeddedKind::ValueObject, false) => {
                    let tag = format!("{}.{}", seed.tag, e.name);
                    self.embedded(e, Seed { tag: &tag, ..seed }, depth)?
                }
                (EmbeddedKind::ValueObject, true) => {
                    let mut list = Vec::new();
                    for j in 0..ARRAY_LEN {
                        let tag = format!("{}.{}[{j}]", seed.tag, e.name);
                        let element = Seed {
                            group: seed.group + j,
                            ordinal: seed.ordinal * ARRAY_LEN + j,
                            tag: &tag,
                            revision: seed.revision,
                        };
                        list.push(self.embedded(e, element, depth)?);
                    }
                    Value::Array(list)
                }
                // A subset holds its parent's newest children: see `keep_subsets`.
                (EmbeddedKind::Subset, _) => Value::Array(Vec::new()),
                (EmbeddedKind::ReferenceData, false) => self.snapshot(e, seed.group, depth)?,
                (EmbeddedKind::ReferenceData, true) => Value::Array(
                    (0..ARRAY_LEN)
                        .map(|j| self.snapshot(e, seed.group + j, depth))
                        .collect::<Result<_, _>>()?,
                ),
            };
            object.insert(e.name.clone(), value);
        }
        for (i, r) in fields.references.iter().enumerate() {
            let value = if r.many {
                Value::Array(
                    (0..ARRAY_LEN)
                        .map(|j| self.reference(r, seed.group + j))
                        .collect::<Result<_, _>>()?,
                )
            } else {
                // A second reference to the same root names another one, the one
                // before (an author and an editor differ, and the first target has
                // referrers through both), so a value read through the wrong one shows.
                let before = fields.references[..i]
                    .iter()
                    .filter(|x| !x.many && x.target == r.target)
                    .count();
                let back = if before == 0 {
                    0
                } else {
                    let (c, d) = self.root_of(&r.target, Some(&r.target_container))?;
                    let n = self.instances.get(&key(&c.name, &d.name)).map_or(1, Vec::len).max(1);
                    before * (n - 1)
                };
                self.reference(r, seed.group + back)?
            };
            object.insert(r.name.clone(), value);
        }
        Ok(())
    }

    fn embedded(&self, e: &Embedded, seed: Seed<'_>, depth: usize) -> Result<Value, VerifyError> {
        let mut object = Map::new();
        let fields = Fields {
            attributes: &e.attributes,
            embedded: &e.embedded,
            references: &e.references,
        };
        self.fill(&mut object, fields, seed, depth)?;
        Ok(Value::Object(object))
    }

    /// The root document type of element `source`: its container and the type.
    fn root_of(&self, source: &str, container: Option<&str>) -> Result<(&'a Container, &'a DocumentType), VerifyError> {
        self.model
            .containers
            .iter()
            .filter(|c| container.is_none_or(|name| c.name == name))
            .find_map(|c| {
                c.document_types
                    .iter()
                    .find(|d| d.source == source && d.role == Role::Root)
                    .map(|d| (c, d))
            })
            .ok_or_else(|| VerifyError::Samples(format!("`{source}` is referenced but has no root document type")))
    }

    fn target(&self, c: &Container, d: &DocumentType, index: usize) -> Result<&Instance, VerifyError> {
        let list = self
            .instances
            .get(&key(&c.name, &d.name))
            .map_or(&[][..], Vec::as_slice);
        if list.is_empty() {
            return Err(VerifyError::Samples(format!(
                "`{}` has no documents in `{}`",
                d.name, c.name
            )));
        }
        Ok(&list[index % list.len()])
    }

    /// A reference data snapshot: the target sample's identity and the values its
    /// document holds for the snapshot's other fields. Only those fields are built, so
    /// reference data that refers to itself (a category's parent category) is no cycle.
    fn snapshot(&self, e: &Embedded, index: usize, depth: usize) -> Result<Value, VerifyError> {
        if depth >= MAX_DEPTH {
            return Err(VerifyError::Samples(format!(
                "the reference data snapshots of `{}` refer to each other in a cycle",
                e.source
            )));
        }
        let (c, d) = self.root_of(&e.source, None)?;
        let target = self.target(c, d, index)?;
        let mut object = Map::new();
        let mut names = e.attributes.iter().map(|a| a.name.as_str());
        if let Some(identity) = names.next() {
            object.insert(identity.to_string(), json!(target.id));
        }
        let held: BTreeSet<&str> = names
            .chain(e.embedded.iter().map(|x| x.name.as_str()))
            .chain(e.references.iter().map(|r| r.name.as_str()))
            .collect();
        fn kept<T: Clone>(list: &[T], name: impl Fn(&T) -> &str, held: &BTreeSet<&str>) -> Vec<T> {
            list.iter().filter(|x| held.contains(name(x))).cloned().collect()
        }
        let attributes = kept(&d.attributes, |a| &a.name, &held);
        let embedded = kept(&d.embedded, |e| &e.name, &held);
        let references = kept(&d.references, |r| &r.name, &held);
        let fields = Fields {
            attributes: &attributes,
            embedded: &embedded,
            references: &references,
        };
        self.fill(&mut object, fields, seed_of(target, 0), depth + 1)?;
        Ok(Value::Object(object))
    }

    /// `{ "id", "partitionKey" }` of an existing sample of the reference's target.
    fn reference(&self, r: &Reference, index: usize) -> Result<Value, VerifyError> {
        let (c, d) = self.root_of(&r.target, Some(&r.target_container))?;
        let target = self.target(c, d, index)?;
        let partition_key = match &r.partition_key_value {
            PartitionKeyValue::SameAsId => json!(target.id),
            PartitionKeyValue::Constant { value } => json!(value),
            PartitionKeyValue::Property { .. } | PartitionKeyValue::Levels { .. } => target.partition_key.to_json(),
        };
        let mut object = Map::new();
        object.insert("id".into(), json!(target.id));
        object.insert("partitionKey".into(), partition_key);
        // An extended reference: the target's own values of the attributes it copies.
        if let Some(extended) = &r.extended {
            let copied: BTreeSet<&str> = extended.attributes.iter().map(|a| a.name.as_str()).collect();
            let attributes: Vec<cosmap_mapper::Property> = d
                .attributes
                .iter()
                .filter(|a| copied.contains(a.name.as_str()))
                .cloned()
                .collect();
            let fields = Fields {
                attributes: &attributes,
                embedded: &[],
                references: &[],
            };
            self.fill(&mut object, fields, seed_of(target, 0), 0)?;
        }
        Ok(Value::Object(object))
    }

    /// A copy built from `source` like the generated `From` conversion.
    fn copy(&self, c: &Container, d: &DocumentType, source: &Sample) -> Result<Sample, VerifyError> {
        let Some(of) = &d.copy_of else {
            return Err(VerifyError::Samples(format!(
                "`{}` in `{}` is not a copy",
                d.name, c.name
            )));
        };
        let partition_key = match lookup(&source.body, &of.partition_key_from) {
            Some(Value::String(value)) => value.clone(),
            other => {
                return Err(VerifyError::Samples(format!(
                    "the copy `{}` in `{}` takes its partition key from `{}` of `{}`, which is {} in the sample `{}`",
                    d.name,
                    c.name,
                    of.partition_key_from,
                    of.document_type,
                    what_is(other),
                    source.id
                )))
            }
        };
        let mut body = Map::new();
        body.insert("id".into(), json!(source.id));
        body.insert("type".into(), json!(d.discriminator));
        if c.kind != ContainerKind::Dictionary {
            body.insert(c.partition_key_property.clone(), json!(partition_key));
        }
        let names = d
            .attributes
            .iter()
            .map(|a| &a.name)
            .chain(d.embedded.iter().map(|e| &e.name))
            .chain(d.references.iter().map(|r| &r.name))
            // The counts kept on the source travel with it (its sync copies them).
            .chain(d.computed.iter().map(|v| &v.name));
        for name in names {
            if let Some(value) = source.body.get(name) {
                body.insert(name.clone(), value.clone());
            }
        }
        Ok(Sample {
            container: c.name.clone(),
            document_type: d.name.clone(),
            id: source.id.clone(),
            partition_key: Key::one(partition_key.clone()),
            body: Value::Object(body),
            instance: Instance {
                id: source.id.clone(),
                partition_key: Key::one(partition_key),
                parent: None,
                ordinal: source.instance.ordinal,
                group: source.instance.group,
            },
        })
    }
}

/// The fields of a document or an embedded object.
#[derive(Clone, Copy)]
struct Fields<'a> {
    attributes: &'a [cosmap_mapper::Property],
    embedded: &'a [Embedded],
    references: &'a [Reference],
}

/// The seed of a document's own values: documents in pairs share a group.
fn seed_of(instance: &Instance, revision: u32) -> Seed<'_> {
    Seed {
        group: instance.group,
        ordinal: instance.ordinal,
        tag: &instance.id,
        revision,
    }
}

/// How a value that should be a string is not: `missing`, or `not a string (…)`.
fn what_is(value: Option<&Value>) -> String {
    match value {
        None => "missing".to_string(),
        Some(value) => format!("not a string ({value})"),
    }
}

/// Whether sample `s` is one of the `counted` documents (in `container`) that belong to
/// `parent`, a sample of element `per`: by its parent link, its reference to it, or
/// else its logical partition.
pub(crate) fn belongs(counted: &DocumentType, container: &str, per: &str, parent: &Sample, s: &Sample) -> bool {
    if s.container != container || s.document_type != counted.name {
        return false;
    }
    if let Some(link) = counted.parent.as_ref().filter(|l| l.entity == per) {
        return s.body.get(&link.property).and_then(Value::as_str) == Some(parent.id.as_str());
    }
    if let Some(reference) = counted.references.iter().find(|x| x.target == per && !x.many) {
        return s
            .body
            .get(&reference.name)
            .and_then(|v| v.get("id"))
            .and_then(Value::as_str)
            == Some(parent.id.as_str());
    }
    s.partition_key.starts_with(&parent.partition_key)
}

/// Sets every count kept on a sample (computedValue) to the number of its children
/// among `samples`.
pub(crate) fn keep_counts(model: &LogicalModel, samples: &mut [Sample]) {
    let mut updates: Vec<(usize, String, usize)> = Vec::new();
    for (i, parent) in samples.iter().enumerate() {
        let Some(d) = model
            .container(&parent.container)
            .and_then(|c| c.document_type(&parent.document_type))
        else {
            continue;
        };
        for v in &d.computed {
            let Some(counted) = model
                .container(&v.container)
                .and_then(|c| c.document_type(&v.document_type))
            else {
                continue;
            };
            let n = samples
                .iter()
                .filter(|s| belongs(counted, &v.container, &d.source, parent, s))
                .count();
            updates.push((i, v.name.clone(), n));
        }
    }
    for (i, name, n) in updates {
        if let Value::Object(body) = &mut samples[i].body {
            body.insert(name, json!(n));
        }
    }
}

/// The items subset `e` of `parent` (a sample of element `per`) holds: its newest
/// children among `samples` by the subset's sort, at most its bound, each with the
/// child's id under the identity's name and the properties the subset keeps.
pub(crate) fn subset_items(
    model: &LogicalModel,
    e: &Embedded,
    per: &str,
    parent: &Sample,
    samples: &[Sample],
) -> Vec<Value> {
    let Some(of) = &e.subset else {
        return Vec::new();
    };
    let Some(counted) = model
        .container(&of.container)
        .and_then(|c| c.document_type(&of.document_type))
    else {
        return Vec::new();
    };
    let mut children: Vec<&Sample> = samples
        .iter()
        .filter(|s| belongs(counted, &of.container, per, parent, s))
        .collect();
    children.sort_by(|a, b| {
        for key in &of.sort {
            let (name, descending) = match key.strip_prefix('-') {
                Some(name) => (name, true),
                None => (key.as_str(), false),
            };
            let ordering = crate::expected::cosmos_order(a.body.get(name), b.body.get(name));
            let ordering = if descending { ordering.reverse() } else { ordering };
            if ordering != std::cmp::Ordering::Equal {
                return ordering;
            }
        }
        std::cmp::Ordering::Equal
    });
    children.truncate(usize::try_from(of.newest).unwrap_or(usize::MAX));
    let mut names = e.attributes.iter().map(|a| a.name.as_str());
    let identity = names.next().unwrap_or("id");
    let kept: Vec<&str> = names
        .chain(e.embedded.iter().map(|x| x.name.as_str()))
        .chain(e.references.iter().map(|r| r.name.as_str()))
        .collect();
    children
        .into_iter()
        .map(|child| {
            let mut item = Map::new();
            item.insert(identity.to_string(), json!(child.id));
            for name in &kept {
                if let Some(value) = child.body.get(*name) {
                    item.insert(name.to_string(), value.clone());
                }
            }
            Value::Object(item)
        })
        .collect()
}

/// Sets every subset a sample keeps (`subset`) to its newest children among `samples`.
pub(crate) fn keep_subsets(model: &LogicalModel, samples: &mut [Sample]) {
    let mut updates: Vec<(usize, String, Vec<Value>)> = Vec::new();
    for (i, parent) in samples.iter().enumerate() {
        let Some(d) = model
            .container(&parent.container)
            .and_then(|c| c.document_type(&parent.document_type))
        else {
            continue;
        };
        for e in d.embedded.iter().filter(|e| e.subset.is_some()) {
            updates.push((i, e.name.clone(), subset_items(model, e, &d.source, parent, samples)));
        }
    }
    for (i, name, items) in updates {
        if let Value::Object(body) = &mut samples[i].body {
            body.insert(name, Value::Array(items));
        }
    }
}

fn key(container: &str, document_type: &str) -> TypeKey {
    (container.to_string(), document_type.to_string())
}

fn root_instance(c: &Container, d: &DocumentType, i: usize) -> Instance {
    let id = format!("{}-{}", d.discriminator, i + 1);
    let group = if i < ROOTS { i / 2 } else { 0 };
    // Each level: the root's id where it is the identity; else (partitioned by an
    // attribute of the root, `partitionKey`) a value neighbours share. (By a reference:
    // replaced by the referenced root's id, see `Generator::new`.)
    let level = |property: &str| {
        if d.id.attribute() == Some(property) {
            id.clone()
        } else {
            format!("{property}-{}", group + 1)
        }
    };
    let partition_key = match c.kind {
        ContainerKind::Dictionary => Key::one(d.discriminator.clone()),
        ContainerKind::Aggregate | ContainerKind::Claims => {
            Key::levels(c.partition_key_properties().into_iter().map(level).collect())
        }
    };
    Instance {
        id,
        partition_key,
        parent: None,
        ordinal: i,
        group,
    }
}

/// The reference of root `d` whose target's id is `c`'s partition key value, when
/// the `partitionKey` optimisation partitioned `c` by it.
fn partitioned_by<'c>(c: &'c Container, d: &'c DocumentType) -> Option<&'c Reference> {
    if c.kind != ContainerKind::Aggregate || d.id.attribute() == Some(c.partition_key_property.as_str()) {
        return None;
    }
    d.references
        .iter()
        .find(|r| !r.many && r.target != d.source && r.target_identity == c.partition_key_property)
}

/// The time of item `j` of bucket `k` (item 0 is the window's start), as the samples
/// write date-times (`2025-01-01T02:20:00Z`): windows follow each other from the
/// start of 2025, and a window's items spread over it.
pub(crate) fn bucket_time(window: BucketWindow, k: usize, j: usize) -> String {
    let step = window.seconds() as usize / (ARRAY_LEN + 2);
    let seconds = k * window.seconds() as usize + j * step;
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    format!(
        "2025-01-{:02}T{:02}:{:02}:{:02}Z",
        days + 1,
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The window a date-time's text falls in: its first characters.
pub(crate) fn window_of(time: &str, window: BucketWindow) -> String {
    time.chars().take(window.prefix_len()).collect()
}

/// The parent of root sample `ordinal` in a tree of at most `max` ancestors, of
/// which `existing` samples were written first. The samples stand in chains of
/// `max + 1`, the first two swapped (`1` a root, `0` under it, `2` under `0`, …), so
/// the first sample, which reads and replaces take, has both ancestors and
/// descendants; a new sample goes under the first (under the root when `max` is 1).
pub(crate) fn tree_parent(ordinal: usize, existing: usize, max: usize) -> Option<usize> {
    let swap = |i: usize| match (existing >= 2, i) {
        (true, 0) => 1,
        (true, 1) => 0,
        _ => i,
    };
    if ordinal >= existing {
        return (existing >= 2).then_some(if max >= 2 { 0 } else { 1 });
    }
    let position = swap(ordinal);
    (position % (max + 1) != 0).then(|| swap(position - 1))
}

fn child_instance(d: &DocumentType, parent: &Instance, ordinal: usize) -> Instance {
    Instance {
        id: format!("{}-{}", d.discriminator, ordinal + 1),
        partition_key: parent.partition_key.clone(),
        parent: d.parent.as_ref().map(|_| parent.id.clone()),
        ordinal,
        group: ordinal / 2,
    }
}

/// The document type a non-root document belongs to: its parent entity, or the root.
fn parent_type(c: &Container, d: &DocumentType) -> Result<String, VerifyError> {
    if let Some(link) = &d.parent {
        return c
            .document_types
            .iter()
            .find(|p| p.source == link.entity && p.role != Role::Copy)
            .map(|p| p.name.clone())
            .ok_or_else(|| {
                VerifyError::Samples(format!(
                    "`{}` belongs to `{}`, which is not a document type of `{}`",
                    d.name, link.entity, c.name
                ))
            });
    }
    let roots: Vec<&DocumentType> = c.document_types.iter().filter(|p| p.role == Role::Root).collect();
    match roots.as_slice() {
        [root] => Ok(root.name.clone()),
        _ => Err(VerifyError::Samples(format!(
            "`{}` in `{}` needs one root document type to belong to; the container has {}",
            d.name,
            c.name,
            roots.len()
        ))),
    }
}

/// The value at a property path (`account.id`), through the first element of arrays.
pub(crate) fn lookup<'v>(value: &'v Value, path: &PropertyPath) -> Option<&'v Value> {
    path.names().iter().try_fold(value, |v, name| {
        let v = match v {
            Value::Array(items) => items.first()?,
            other => other,
        };
        v.get(name)
    })
}
