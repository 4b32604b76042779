//! Sample documents built from their instances: attributes, embedded objects,
//! references, snapshots of reference data and copies.

use super::*;

impl<'a> Generator<'a> {
    pub(super) fn sample(
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
    pub(super) fn tree(
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

    pub(super) fn fill(
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

    pub(super) fn embedded(&self, e: &Embedded, seed: Seed<'_>, depth: usize) -> Result<Value, VerifyError> {
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
    pub(super) fn root_of(
        &self,
        source: &str,
        container: Option<&str>,
    ) -> Result<(&'a Container, &'a DocumentType), VerifyError> {
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

    pub(super) fn target(&self, c: &Container, d: &DocumentType, index: usize) -> Result<&Instance, VerifyError> {
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
    pub(super) fn snapshot(&self, e: &Embedded, index: usize, depth: usize) -> Result<Value, VerifyError> {
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
    pub(super) fn reference(&self, r: &Reference, index: usize) -> Result<Value, VerifyError> {
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
    pub(super) fn copy(&self, c: &Container, d: &DocumentType, source: &Sample) -> Result<Sample, VerifyError> {
        let Some(of) = &d.copy_of else {
            return Err(VerifyError::Samples(format!(
                "`{}` in `{}` is not a copy",
                d.name, c.name
            )));
        };
        let partition_key = string_in(lookup(&source.body, &of.partition_key_from), |what| {
            format!(
                "the copy `{}` in `{}` takes its partition key from `{}` of `{}`, which is {what} in the sample `{}`",
                d.name, c.name, of.partition_key_from, of.document_type, source.id
            )
        })?;
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
pub(super) struct Fields<'a> {
    attributes: &'a [cosmap_mapper::Property],
    embedded: &'a [Embedded],
    references: &'a [Reference],
}

/// The seed of a document's own values: documents in pairs share a group.
pub(super) fn seed_of(instance: &Instance, revision: u32) -> Seed<'_> {
    Seed {
        group: instance.group,
        ordinal: instance.ordinal,
        tag: &instance.id,
        revision,
    }
}

/// The string `value` holds; else the error `problem` words from how it is not one
/// (`missing`, or `not a string (…)`).
pub(super) fn string_in(value: Option<&Value>, problem: impl FnOnce(String) -> String) -> Result<String, VerifyError> {
    let what = match value {
        Some(Value::String(value)) => return Ok(value.clone()),
        None => "missing".to_string(),
        Some(value) => format!("not a string ({value})"),
    };
    Err(VerifyError::Samples(problem(what)))
}
