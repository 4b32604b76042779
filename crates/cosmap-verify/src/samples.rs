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

mod build;
mod derived;
mod instances;

use build::string_in;
pub(crate) use derived::{belongs, keep_counts, keep_subsets, subset_items};
use instances::{
    child_instance, child_instances, key_roots_by_reference, parent_type, partitioned_by, root_instance, root_instances,
};

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
        let mut instances = root_instances(model, &limited);
        key_roots_by_reference(model, &mut instances)?;
        for c in &model.containers {
            let mut types: Vec<&DocumentType> = c
                .document_types
                .iter()
                .filter(|d| !matches!(d.role, Role::Copy | Role::Claim | Role::Root))
                .collect();
            types.sort_by_key(|d| d.role);
            // Each after its parent: a member entity under another member entity (a
            // post under its thread) takes its parents' instances.
            while !types.is_empty() {
                let ready = types
                    .iter()
                    .position(|d| parent_type(c, d).map_or(true, |p| instances.contains_key(&key(&c.name, &p))))
                    .unwrap_or(0);
                let d = types.remove(ready);
                let children = child_instances(c, d, &instances, &limited)?;
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

    /// A new member of type `document_type` in `container`, unlike every sample
    /// (`serial` counts the new ones already made), that belongs to `parent`: what an
    /// aggregate's write adds beside its root.
    pub fn new_member(
        &self,
        container: &str,
        document_type: &str,
        serial: usize,
        parent: &Sample,
    ) -> Result<Sample, VerifyError> {
        let (c, d) = self.find(container, document_type)?;
        let count = self.instances.get(&key(&c.name, &d.name)).map_or(0, Vec::len);
        self.sample(c, d, &child_instance(d, &parent.instance, count + serial), 0, 0)
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
        let value = string_in(owner.body.get(&of.attribute), |what| {
            format!(
                "the claim `{}` claims `{}` of `{}`, which is {what} in the sample `{}`",
                d.name, of.attribute, of.document_type, owner.id
            )
        })?;
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
}

fn key(container: &str, document_type: &str) -> TypeKey {
    (container.to_string(), document_type.to_string())
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
