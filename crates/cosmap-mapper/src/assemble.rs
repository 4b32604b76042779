//! Fills planned containers with document types: the root (MR1), non-root
//! entities (MR3), embedded or separated value objects (MR4) and references
//! to other aggregates (MR6).

use std::collections::BTreeMap;
use std::sync::Arc;

use cosmap_domain::{Attribute, DomainModel, Element, Relationship};

use crate::decision::Trace;
use crate::logical_model::{
    Container, ContainerKind, Containment, DocumentType, Embedded, EmbeddedKind, IdSource, ParentLink,
    PartitionKeyValue, Property, Reference, Role,
};
use crate::options::Thresholds;
use crate::rules::mr4_value_objects::{self, Placement};
use crate::rules::mr6_references::{self, Location};
use crate::rules::{mr3_entities, ContainerPlan};
use crate::statistics::Statistics;

/// The container of every plan, in plan order, with their decisions recorded in
/// `trace` in that order.
pub(crate) fn all<'m>(
    model: &'m DomainModel,
    thresholds: &Thresholds,
    stats: &Statistics,
    plans: &[ContainerPlan<'m>],
    trace: &mut Trace,
) -> Vec<Container> {
    let mut assembler = Assembler::new(model, thresholds, stats, plans, trace);
    plans.iter().map(|plan| assembler.container(plan)).collect()
}

/// Where each planned aggregate's root lives: its container, and how a reference to
/// it finds the partition key value.
fn locations(plans: &[ContainerPlan<'_>]) -> BTreeMap<String, Location> {
    let mut locations = BTreeMap::new();
    for plan in plans {
        for aggregate in &plan.aggregates {
            let partition_key_value = match plan.kind {
                ContainerKind::Dictionary => PartitionKeyValue::Constant {
                    value: crate::discriminator(&aggregate.root),
                },
                ContainerKind::Aggregate | ContainerKind::Claims => PartitionKeyValue::SameAsId,
            };
            locations.insert(
                aggregate.root.clone(),
                Location {
                    container: plan.name.clone(),
                    partition_key_value,
                },
            );
        }
    }
    locations
}

/// The relationships of `model` by their `from` element, each with its property name
/// (figured once, not per document that holds it), each list sorted by property name,
/// then target (a stable sort: declaration order breaks ties).
fn outgoing(model: &DomainModel) -> BTreeMap<&str, Vec<(String, &Relationship)>> {
    let mut outgoing: BTreeMap<&str, Vec<(String, &Relationship)>> = BTreeMap::new();
    for rel in model.relationships() {
        outgoing
            .entry(rel.from.as_str())
            .or_default()
            .push((rel.property_name(), rel));
    }
    for list in outgoing.values_mut() {
        list.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.to.cmp(&y.to)));
    }
    outgoing
}

/// Builds document types for planned containers.
pub(crate) struct Assembler<'m, 't> {
    pub model: &'m DomainModel,
    pub thresholds: &'t Thresholds,
    pub stats: &'t Statistics,
    pub trace: &'t mut Trace,
    // The lookups below are built once and only read while assembling: shared, so
    // that [`all`] can assemble on two threads without building them twice.
    locations: Arc<BTreeMap<String, Location>>,
    reversed: Arc<BTreeMap<&'m str, Vec<&'m Relationship>>>,
    /// Relationships by their `from` element, each with its property name (figured
    /// once, not per document that holds it), each list sorted by property name.
    outgoing: Arc<BTreeMap<&'m str, Vec<(String, &'m Relationship)>>>,
}

/// The contents of a document or embedded object while it is being built.
struct ObjectDraft {
    attributes: Vec<Property>,
    embedded: Vec<Embedded>,
    references: Vec<Reference>,
    /// The largest size: embedded lists at their bound (`max`), for MR4's 2 MB check.
    bytes: Option<f64>,
    /// The typical size: embedded lists at their typical length (`avg`, else `max`),
    /// for costs and storage.
    typical_bytes: Option<f64>,
    /// Names a document uses besides the lists above (`id`, `type` and the other
    /// reserved properties, the partition key, the parent's identity), so no
    /// reference (forward or stored back) takes one; empty for embedded objects.
    reserved: Vec<String>,
}

impl ObjectDraft {
    fn new(attributes: &[Attribute], bytes: Option<f64>) -> Self {
        ObjectDraft {
            attributes: attributes.iter().map(property).collect(),
            embedded: Vec::new(),
            references: Vec::new(),
            bytes,
            typical_bytes: bytes,
            reserved: Vec::new(),
        }
    }

    fn has_property(&self, name: &str) -> bool {
        self.reserved.iter().any(|r| r == name)
            || self.attributes.iter().any(|a| a.name == name)
            || self.embedded.iter().any(|e| e.name == name)
            || self.references.iter().any(|r| r.name == name)
    }
}

fn property(attribute: &Attribute) -> Property {
    Property {
        unique: attribute.unique,
        ..Property::copy_of(attribute)
    }
}

impl<'m, 't> Assembler<'m, 't> {
    pub fn new(
        model: &'m DomainModel,
        thresholds: &'t Thresholds,
        stats: &'t Statistics,
        plans: &[ContainerPlan<'m>],
        trace: &'t mut Trace,
    ) -> Self {
        let (locations, reversed, outgoing) = (locations(plans), mr6_references::reversed(model), outgoing(model));
        Assembler {
            model,
            thresholds,
            stats,
            trace,
            locations: Arc::new(locations),
            reversed: Arc::new(reversed),
            outgoing: Arc::new(outgoing),
        }
    }

    /// The container for `plan`, with all its document types.
    pub fn container(&mut self, plan: &ContainerPlan<'m>) -> Container {
        let mut documents = Vec::new();
        for aggregate in &plan.aggregates {
            let mut separated = Vec::new();
            documents.push(self.document(plan, &aggregate.root, Role::Root, None, &mut separated));
            let mut entities: Vec<&str> = aggregate
                .members
                .iter()
                .map(String::as_str)
                .filter(|m| self.model.element(m).is_some_and(|e| e.is_entity()))
                .collect();
            entities.sort_unstable();
            let root_identity = self
                .model
                .entity(&aggregate.root)
                .map(|e| e.identity.as_str())
                .unwrap_or_default();
            for entity in entities {
                let identity = self
                    .model
                    .entity(entity)
                    .map(|e| e.identity.as_str())
                    .unwrap_or_default();
                mr3_entities::record(entity, identity, &aggregate.root, &plan.name, root_identity, self.trace);
                let parent = self.parent_link(entity);
                let mut document = self.document(plan, entity, Role::Entity, parent, &mut separated);
                document.containment = self.model.parent_relationship(entity).map(Containment::of);
                documents.push(document);
            }
            separated.sort_by(|a, b| a.name.cmp(&b.name));
            documents.extend(separated);
        }
        documents.iter_mut().for_each(DocumentType::compact);
        documents.shrink_to_fit();
        Container {
            name: plan.name.clone(),
            kind: plan.kind,
            aggregates: plan.aggregates.iter().map(|a| a.display_name().to_string()).collect(),
            partition_key: crate::logical_model::PartitionKey::on(&plan.partition_key_property),
            partition_key_property: plan.partition_key_property.clone(),
            sub_partition_key_properties: Vec::new(),
            default_ttl: plan.aggregates.iter().find_map(|a| a.default_ttl_seconds),
            indexing_policy: crate::physical::IndexingPolicy::default(),
            unique_keys: Vec::new(),
            rules: plan.rules.clone(),
            document_types: documents.into(),
        }
    }

    /// The link a member entity's documents carry to the member entity that holds it
    /// (a post to its thread, both members of the forum): the partition key names the
    /// root alone, so without it the entity's documents could not be told apart by
    /// parent. `None` when its parent is the root.
    fn parent_link(&self, entity: &str) -> Option<ParentLink> {
        let parent = self
            .model
            .parent_relationship(entity)
            .filter(|rel| rel.from != entity)?;
        member_entity_link(self.model, &parent.from)
    }

    fn document(
        &mut self,
        plan: &ContainerPlan<'m>,
        element: &str,
        role: Role,
        parent: Option<ParentLink>,
        separated: &mut Vec<DocumentType>,
    ) -> DocumentType {
        let found = self.model.element(element);
        let attributes = found.map(|e| e.attributes()).unwrap_or_default();
        let bytes = found.and_then(|e| e.volume()).and_then(|v| v.avg_size_bytes);
        let mut node = ObjectDraft::new(attributes, bytes);
        node.reserved = cosmap_domain::naming::RESERVED_PROPERTIES
            .iter()
            .map(|r| r.to_string())
            .chain([plan.partition_key_property.clone()])
            .chain(parent.iter().map(|p| p.property.clone()))
            .collect();
        self.fill(plan, element, element, &mut node, separated);
        let id = match found {
            Some(Element::Entity(e)) => IdSource::Identity {
                attribute: e.identity.clone(),
            },
            _ => IdSource::Assigned,
        };
        DocumentType {
            name: element.to_string(),
            discriminator: crate::discriminator(element),
            source: element.to_string(),
            role,
            id,
            partition_key_property: plan.partition_key_property.clone(),
            sub_partition_key_properties: Vec::new(),
            parent,
            containment: None,
            attributes: node.attributes,
            embedded: node.embedded,
            references: node.references,
            copy_of: None,
            claim_of: None,
            description: found.and_then(|e| e.description()).map(str::to_string),
            computed: Vec::new(),
            bucket: None,
            estimated_size_bytes: node.typical_bytes,
        }
    }

    /// Adds `element`'s value objects (MR4) and references (MR6) to `node`.
    fn fill(
        &mut self,
        plan: &ContainerPlan<'m>,
        element: &str,
        subject: &str,
        node: &mut ObjectDraft,
        separated: &mut Vec<DocumentType>,
    ) {
        let model = self.model;
        // Shared, so the list is borrowed while `self` records decisions.
        let outgoing = Arc::clone(&self.outgoing);
        let relationships = outgoing.get(element).map(Vec::as_slice).unwrap_or_default();
        // The element's own relationship properties (unique among its properties,
        // validation says), so a renamed reference does not take a later one's name.
        let own: Vec<&str> = relationships.iter().map(|(name, _)| name.as_str()).collect();
        for &(ref property, rel) in relationships {
            let property = property.as_str();
            let site = format!("{subject}.{property}");
            if mr6_references::is_reference(model, rel) {
                if !mr6_references::is_reversed(rel) {
                    let taken = |name: &str| node.has_property(name) || (name != property && own.contains(&name));
                    let reference = mr6_references::forward(model, &self.locations, rel, &taken, &site, self.trace);
                    node.references.extend(reference);
                }
                continue;
            }
            let Some(Element::ValueObject(vo)) = model.element(&rel.to) else {
                continue; // a member entity: its own document (MR3)
            };
            let child_bytes = vo.volume.and_then(|v| v.avg_size_bytes);
            let placement = mr4_value_objects::decide(
                self.thresholds,
                self.stats,
                rel,
                node.bytes,
                child_bytes,
                &site,
                self.trace,
            );
            match placement {
                Placement::Embed => {
                    let mut child = ObjectDraft::new(&vo.attributes, child_bytes);
                    self.fill(plan, &vo.name, &site, &mut child, separated);
                    embed(node, child, vo, rel, property);
                }
                Placement::Separate => {
                    if !separated.iter().any(|d| d.source == vo.name) {
                        let parent = member_entity_link(model, element);
                        let mut document = self.document(plan, &vo.name, Role::ValueObject, parent, separated);
                        document.containment = Some(Containment::of(rel));
                        separated.push(document);
                    }
                }
            }
        }
        if let Some(back) = self.reversed.get(element).cloned() {
            for rel in back {
                let taken = |name: &str| node.has_property(name);
                let reference = mr6_references::backward(model, &self.locations, rel, &taken, subject, self.trace);
                node.references.extend(reference);
            }
        }
    }
}

/// The link to `element` a document it holds carries: its identity, when `element` is
/// a member entity (not its aggregate's root).
fn member_entity_link(model: &DomainModel, element: &str) -> Option<ParentLink> {
    match model.element(element) {
        Some(Element::Entity(e)) if !model.is_root(element) => Some(ParentLink {
            entity: e.name.clone(),
            property: e.identity.clone(),
        }),
        _ => None,
    }
}

/// Embeds `child`, the object of value object `vo` (related by `rel`), in `node` as
/// its `property`, whose sizes grow by the child's (times the bound of a list, or
/// its typical length).
fn embed(
    node: &mut ObjectDraft,
    child: ObjectDraft,
    vo: &cosmap_domain::ValueObject,
    rel: &Relationship,
    property: &str,
) {
    let count = if rel.is_many() {
        rel.max.unwrap_or(1) as f64
    } else {
        1.0
    };
    if let Some(b) = child.bytes {
        node.bytes = Some(node.bytes.unwrap_or(0.0) + b * count);
    }
    if let Some(b) = child.typical_bytes {
        let typical = rel.typical().unwrap_or(count);
        node.typical_bytes = Some(node.typical_bytes.unwrap_or(0.0) + b * typical);
    }
    node.embedded.push(Embedded {
        subset: None,
        description: vo.description.clone(),
        name: property.to_string(),
        source: vo.name.clone(),
        kind: EmbeddedKind::ValueObject,
        many: rel.is_many(),
        max: rel.max,
        attributes: child.attributes,
        embedded: child.embedded,
        references: child.references,
    });
}
