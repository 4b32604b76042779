//! Embed reference data: when a referenced dictionary never changes, the
//! referencing documents embed its attributes instead of a reference, so reads
//! need no second request and no copy ever goes stale.

use cosmap_domain::{AttributeType, ChangeRate, DomainModel};

use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, DocumentType, Embedded, EmbeddedKind, Property, Reference, Role};
use crate::operations::PropertyPath;
use crate::sync_plan::SyncPlan;

/// Replaces references to never-changing reference data with embedded snapshots.
pub(crate) fn apply(model: &DomainModel, containers: &mut [Container], trace: &mut Trace) {
    for container in containers.iter_mut() {
        for doc in &mut container.document_types {
            let subject = if doc.role == Role::Copy {
                format!("{}.{}", container.name, doc.name)
            } else {
                doc.name.clone()
            };
            rewrite(model, &subject, &mut doc.references, &mut doc.embedded, trace);
            follow_snapshot(model, &container.name, doc, trace);
        }
    }
}

/// A copy takes its partition key from a reference of its source (`country.id`);
/// when that reference has become a snapshot, which holds the referenced root's
/// identity under its own name instead of an `id`, the copy takes it from there
/// (`country.countryId`). The source document has the same snapshot: the
/// optimisation rewrites every document alike.
fn follow_snapshot(model: &DomainModel, container: &str, doc: &mut DocumentType, trace: &mut Trace) {
    let Some(of) = &mut doc.copy_of else {
        return;
    };
    let [via, id] = of.partition_key_from.names() else {
        return;
    };
    if id != "id" {
        return;
    }
    let via = via.clone();
    let snapshot = doc
        .embedded
        .iter()
        .find(|e| e.name == via && e.kind == EmbeddedKind::ReferenceData && !e.many);
    let Some(identity) = snapshot.and_then(|e| model.entity(&e.source)).map(|e| &e.identity) else {
        return;
    };
    let from = PropertyPath::new([via.as_str(), identity.as_str()]);
    of.sync = SyncPlan::copy(
        &of.container,
        &of.document_type,
        &doc.discriminator,
        container,
        &doc.name,
        &doc.partition_key_property,
        &from,
    );
    trace.record(
        Rule::EmbedReferenceData,
        format!("{container}.{}", doc.name),
        format!("the copy takes its partition key `{}` from `{from}`", doc.partition_key_property),
        format!(
            "`{via}` is now a snapshot, which holds the identity of the referenced `{}` as `{identity}` instead of an `id`",
            snapshot.map(|e| e.source.as_str()).unwrap_or_default()
        ),
    );
    of.partition_key_from = from;
}

fn rewrite(
    model: &DomainModel,
    subject: &str,
    references: &mut Vec<Reference>,
    embedded: &mut Vec<Embedded>,
    trace: &mut Trace,
) {
    for e in embedded.iter_mut() {
        let site = format!("{subject}.{}", e.name);
        rewrite(model, &site, &mut e.references, &mut e.embedded, trace);
    }
    let (snapshots, kept): (Vec<Reference>, Vec<Reference>) = std::mem::take(references).into_iter().partition(|r| {
        model
            .entity(&r.target)
            .is_some_and(|e| e.reference_data == Some(ChangeRate::Never))
    });
    *references = kept;
    for reference in snapshots {
        let Some(target) = model.entity(&reference.target) else {
            continue;
        };
        let mut attributes = vec![Property {
            name: target.identity.clone(),
            ty: AttributeType::String,
            optional: false,
            many: false,
            unique: false,
        }];
        attributes.extend(target.attributes.iter().map(|a| Property {
            name: a.name.clone(),
            ty: a.ty,
            optional: a.optional,
            many: a.many,
            unique: false,
        }));
        let names: Vec<String> = attributes.iter().map(|a| a.name.clone()).collect();
        trace
            .record(
                Rule::EmbedReferenceData,
                format!("{subject}.{}", reference.name),
                format!("embeds `{}`'s attributes instead of referencing it", target.name),
                format!(
                    "`{}` is reference data that never changes: a snapshot never goes stale and saves a read of container `{}`",
                    target.name, reference.target_container
                ),
            )
            .with("referenceData", "never")
            .with("attributes", names);
        embedded.push(Embedded {
            name: reference.name,
            source: target.name.clone(),
            kind: EmbeddedKind::ReferenceData,
            many: reference.many,
            max: None,
            attributes,
            embedded: Vec::new(),
            references: Vec::new(),
        });
    }
}
