//! [`plan`]: the steps a change of the model takes, from `cosmap-diff`'s changes; every
//! change it cannot migrate refuses the whole plan, each one named.

use cosmap_diff::{Change, ChangeKind, Class, Derived, Volumes};
use cosmap_mapper::{ContainerDefinition, IdSource, LogicalModel, PropertyHolder, Role};
use serde::Serialize;

use crate::error::{MigrateError, Refusal};

/// The `type` of the lease documents a migration keeps its position in.
pub const LEASE_TYPE: &str = "cosmapMigrateLease";

/// Where one document type's value for a new partition key is in its old documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyFrom {
    /// The document type's `type` value.
    pub document_type: String,
    /// The top-level property of its old documents that holds the value.
    pub property: String,
}

/// Version of the plan's JSON (`cosmap migrate --dry-run --format json`).
pub const MIGRATION_FORMAT_VERSION: u32 = 1;

/// Where a step keeps its position: one document in `container`, partitioned by its
/// own id (`partition_key_property` holds the id; by [`LEASE_TYPE`] where the
/// container is partitioned by `type`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeaseRef {
    /// The container holding the lease document.
    pub container: String,
    /// The container's partition key property (set to the lease's id).
    pub partition_key_property: String,
    /// The lease document's id.
    pub id: String,
}

impl LeaseRef {
    /// The lease document's partition key value: its id, or in a container partitioned
    /// by `type` the lease type, so that its `type` stays [`LEASE_TYPE`].
    pub fn key(&self) -> String {
        if self.partition_key_property == "type" {
            LEASE_TYPE.to_string()
        } else {
            self.id.clone()
        }
    }
}

/// One step of a migration, run in order. More kinds of step come as more changes are
/// migrated, so a `match` outside this crate needs a wildcard arm.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase", tag = "step")]
pub enum Step {
    /// Create containers through `cosmap-provision`'s plan/apply (never deleting or
    /// replacing one; an existing container of another definition refuses the step).
    CreateContainers {
        /// The definitions, under the names they get.
        definitions: Vec<ContainerDefinition>,
    },
    /// Copy every document of `source` into `target` (another partition key), reading
    /// `source`'s change feed from the beginning: each document is upserted with the
    /// same id, so a replay is harmless. Run again, it copies what changed since.
    Repartition {
        /// The container as it is.
        source: String,
        /// The new container.
        target: String,
        /// The old partition key property.
        old_key: String,
        /// The new partition key property.
        new_key: String,
        /// Where each old document type's new key value comes from, by its `type`: a
        /// property of the old document (the new key itself when the documents store
        /// it, `id` for the root whose identity is the new key, the old name of a
        /// renamed identity), classified from the typed models.
        key_from: Vec<KeyFrom>,
        /// The step's lease (in `target`).
        lease: LeaseRef,
    },
    /// Copy every document of `source` into `target`, a container with the new unique
    /// keys (Cosmos DB cannot change them in place) and the same partition key, reading
    /// `source`'s change feed from the beginning; each document is upserted with the
    /// same id. A document whose value the new keys refuse (a duplicate within its
    /// partition) stops the step, naming it: resolve the duplicates, then run again.
    CopyWithUniqueKeys {
        /// The container as it is.
        source: String,
        /// The new container.
        target: String,
        /// The partition key property (the same in both).
        key: String,
        /// The new unique keys, each its paths.
        unique_keys: Vec<Vec<String>>,
        /// The step's lease (in `target`).
        lease: LeaseRef,
    },
    /// Write one document of type `discriminator` per value embedded in `property` of
    /// the `holder` documents of `container`, then rewrite each holder without it.
    /// The new documents' ids are `<holder id>-<property>-<index>`: a replay upserts
    /// the same ones.
    SplitEmbedded {
        /// The container.
        container: String,
        /// The holder's `type`.
        holder: String,
        /// The embedded property.
        property: String,
        /// Whether it is an array.
        many: bool,
        /// The new document type's `type`.
        discriminator: String,
        /// The container's partition key property (the new documents take the holder's value).
        partition_key_property: String,
        /// For a holder that is not the root: the property of the new documents that
        /// holds the holder's identity.
        parent_property: Option<String>,
        /// The step's lease (in `container`).
        lease: LeaseRef,
    },
    /// Embed the separate `child` documents of `container` into their holders (the
    /// inverse of [`Step::SplitEmbedded`]), reading the container's change feed from the
    /// beginning: for each child seen, its holder's `property` is rebuilt from every
    /// child of that holder (a query in its partition, ordered by id), so a replay
    /// writes the same holder. The child documents stay (cosmap never deletes): the
    /// report lists them as to drop.
    EmbedSeparate {
        /// The container (holders and children share it and its partition key).
        container: String,
        /// The children's `type`.
        child: String,
        /// The holders' `type`.
        holder: String,
        /// The holders' property the children go into.
        property: String,
        /// An array (else one object: a holder with two children stops the step).
        many: bool,
        /// The container's partition key property.
        partition_key_property: String,
        /// The children's property holding their holder's identity; `None`: the holder
        /// is the root, whose identity is the partition key value.
        parent_property: Option<String>,
        /// The properties of a child that the embedded value keeps.
        keep: Vec<String>,
        /// The step's lease (in `container`).
        lease: LeaseRef,
    },
    /// Create the uniqueness claims of a value made unique across partitions: one claim
    /// document (`id` and `type` the claim type, partitioned by the value) in `container`
    /// per `owner` document of `owner_container` that holds the attribute, reading the
    /// owners' change feed from the beginning. A claim the owner already holds is
    /// left as it is; a value another owner holds stops the step, naming both.
    ClaimValues {
        /// The claims container.
        container: String,
        /// The claims' partition key property (holds the value).
        claim_property: String,
        /// The claim document type's `type` (and `id`).
        claim: String,
        /// The owners' container.
        owner_container: String,
        /// The owners' `type`.
        owner: String,
        /// The claimed attribute (top-level in the owners).
        attribute: String,
        /// The owners' partition key property.
        owner_partition_key_property: String,
        /// The step's lease (in `container`).
        lease: LeaseRef,
    },
    /// Write `value` into every `document_type` document of `container` that lacks
    /// the property at `path` (in each element of an array on the way), reading the
    /// container's change feed from the beginning: a required property's model
    /// default, so that queries on it find old documents, or an old default a change
    /// of default would otherwise reinterpret. A document that holds it is left as it is.
    BackfillDefault {
        /// The container.
        container: String,
        /// The documents' `type`.
        document_type: String,
        /// The property's path in the document (`["layout", "theme"]`).
        path: Vec<String>,
        /// The value written where it is missing.
        value: serde_json::Value,
        /// The container's partition key property.
        partition_key_property: String,
        /// The step's lease (in `container`).
        lease: LeaseRef,
    },
    /// Rewrite the value at `path` of every `document_type` document of `container`
    /// (in each element of an array on the way) into the new shape, reading the
    /// container's change feed from the beginning. A value already in the new shape is
    /// left as it is, so a replay is harmless.
    Rewrite {
        /// The container.
        container: String,
        /// The documents' `type`.
        document_type: String,
        /// The property's path in the document.
        path: Vec<String>,
        /// What becomes of the value.
        conversion: Conversion,
        /// The container's partition key property.
        partition_key_property: String,
        /// The step's lease (in `container`).
        lease: LeaseRef,
    },
    /// Derived data kept from a change feed (a copy, a feed, a count or subset, an
    /// extended reference): the generated worker that keeps it reads the feed from the
    /// beginning, so its first run back-fills it; cosmap cannot run the application's
    /// worker, so the step is left to the user, and the report says so.
    RunWorker {
        /// What is derived (`Container/DocumentType.path`).
        subject: String,
        /// What kind of derived data.
        derived: String,
    },
    /// Documents of a document type the new model no longer has (removed, or derived
    /// data no longer kept): they stay in the container, whose generated enum no longer
    /// knows their `type`, so mixed reads of a partition fail on them. cosmap never
    /// deletes: the step is left to the user, and the report says so.
    DeleteYourself {
        /// The container.
        container: String,
        /// The document type (its name in the old model).
        document_type: String,
    },
    /// Nothing to move: the change is served by the documents as they are (a new
    /// optional property: nothing to back-fill), or applied elsewhere.
    Nothing {
        /// What changed (`Container/DocumentType.path`).
        subject: String,
        /// The change's kind.
        kind: String,
        /// Why nothing is needed, or what else to run.
        reason: String,
    },
}

impl Step {
    /// One line for people.
    pub fn describe(&self) -> String {
        match self {
            Step::CreateContainers { definitions } => format!(
                "create container{} {}",
                if definitions.len() == 1 { "" } else { "s" },
                definitions
                    .iter()
                    .map(|d| format!("`{}` ({})", d.id, d.partition_key.paths.join(", ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Step::Repartition {
                source,
                target,
                old_key,
                new_key,
                key_from,
                ..
            } => {
                let mut sources: Vec<&str> = key_from.iter().map(|k| k.property.as_str()).collect();
                sources.dedup();
                let sources = sources.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(" or ");
                format!(
                    "copy every document of `{source}` (/{old_key}) into `{target}` (/{new_key}, from {sources}) through the change feed"
                )
            }
            Step::CopyWithUniqueKeys {
                source,
                target,
                unique_keys,
                ..
            } => format!(
                "copy every document of `{source}` into `{target}`, which has the new unique keys ({}), through the change feed",
                if unique_keys.is_empty() {
                    "none".to_string()
                } else {
                    unique_keys.iter().map(|k| k.join(" + ")).collect::<Vec<_>>().join(", ")
                }
            ),
            Step::SplitEmbedded {
                container,
                holder,
                property,
                discriminator,
                ..
            } => format!(
                "in `{container}`, write a `{discriminator}` document per value of `{holder}.{property}`, then rewrite each `{holder}` without `{property}`"
            ),
            Step::BackfillDefault {
                container,
                document_type,
                path,
                value,
                ..
            } => format!(
                "in `{container}`, write `{value}` into `{}` of every `{document_type}` document that lacks it",
                path.join(".")
            ),
            Step::ClaimValues {
                container,
                owner_container,
                owner,
                attribute,
                ..
            } => format!(
                "in `{container}`, claim the `{attribute}` of every `{owner}` document of `{owner_container}` (a duplicate stops the step)"
            ),
            Step::EmbedSeparate {
                container,
                child,
                holder,
                property,
                ..
            } => format!(
                "in `{container}`, embed every `{child}` document into its `{holder}`'s `{property}` (the `{child}` documents stay, to be dropped by you)"
            ),
            Step::Rewrite {
                container,
                document_type,
                path,
                conversion,
                ..
            } => format!(
                "in `{container}`, rewrite `{}` of every `{document_type}` document: {}",
                path.join("."),
                conversion.describe()
            ),
            Step::DeleteYourself { container, document_type } => format!(
                "delete the `{document_type}` documents in `{container}` yourself before the new readers load whole partitions: the new model no longer has them and the container's generated enum refuses their `type` (cosmap never deletes)"
            ),
            Step::RunWorker { subject, derived } => format!(
                "{subject}: the new {derived} — run its generated change-feed worker once (it reads the feed from the beginning, so it back-fills what is already written) before the new readers rely on it"
            ),
            Step::Nothing { subject, kind, reason } => format!("{subject} ({kind}): nothing to migrate — {reason}"),
        }
    }

    /// The step's lease, when it reads a change feed.
    pub fn lease(&self) -> Option<&LeaseRef> {
        match self {
            Step::Repartition { lease, .. }
            | Step::CopyWithUniqueKeys { lease, .. }
            | Step::SplitEmbedded { lease, .. }
            | Step::Rewrite { lease, .. }
            | Step::EmbedSeparate { lease, .. }
            | Step::ClaimValues { lease, .. }
            | Step::BackfillDefault { lease, .. } => Some(lease),
            _ => None,
        }
    }
}

/// What `cosmap migrate` will do, in order; what the user may drop afterwards.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrationPlan {
    /// [`MIGRATION_FORMAT_VERSION`].
    pub format_version: u32,
    /// The old model's name.
    pub old: String,
    /// The new model's name.
    pub new: String,
    /// The steps, in order: containers first, then copies and rewrites.
    pub steps: Vec<Step>,
    /// Containers the new model's readers and writers must use instead of the names
    /// the model gives (a repartitioned container gets a new name): `(model name, new name)`.
    pub renamed: Vec<(String, String)>,
    /// What the user may drop once satisfied (cosmap never deletes).
    pub droppable: Vec<String>,
}

impl MigrationPlan {
    /// The plan as text, one step a line.
    pub fn to_text(&self) -> String {
        let count = self.steps.len();
        let steps = if count == 1 { "step" } else { "steps" };
        let mut out = format!("{} → {}: {count} {steps}\n", self.old, self.new);
        for (i, s) in self.steps.iter().enumerate() {
            out.push_str(&format!("{:>3}. {}\n", i + 1, s.describe()));
        }
        for (from, to) in &self.renamed {
            out.push_str(&format!(
                "readers and writers of `{from}` switch to `{to}` once it has caught up\n"
            ));
        }
        if !self.droppable.is_empty() {
            out.push_str("you may drop, once satisfied (cosmap never deletes):\n");
            for d in &self.droppable {
                out.push_str(&format!("  - {d}\n"));
            }
        }
        out
    }
}

/// Records that container `source` is copied into `target` (for its new `what`): readers
/// and writers switch to the copy, and the old container may be dropped once they have.
fn copied_into(
    source: &str,
    target: &str,
    what: &str,
    renamed: &mut Vec<(String, String)>,
    droppable: &mut Vec<String>,
) {
    renamed.push((source.to_string(), target.to_string()));
    droppable.push(format!(
        "container `{source}` (the old {what}), once readers and writers use `{target}`"
    ));
}

/// What the user does next about a change refused for `why`: nothing more when `why`
/// says it; a model between the two when changes must go one at a time; otherwise what
/// the diff says the change takes.
fn next_step(why: &str, change: &Change) -> String {
    if why.contains("next:") || why.contains("yourself") {
        String::new()
    } else if why.contains("one change at a time") {
        "write a model between the two with one of the changes, migrate to it, then to the new model".to_string()
    } else if matches!(
        change.kind,
        ChangeKind::PartitionKeyChanged { .. } | ChangeKind::UniqueKeysChanged { .. }
    ) {
        "copy the documents yourself into a container under a new name with the new definition (its change feed from the beginning, each document upserted with its id and its new key's value), switch readers and writers to it, and keep the old container until you are satisfied".to_string()
    } else {
        change.explanation.clone()
    }
}

/// The root's identity attribute in `container`, from its root document type's id.
fn root_identity(container: &cosmap_mapper::Container) -> Option<(&str, &str)> {
    let root = container.document_types.iter().find(|d| d.role == Role::Root)?;
    match &root.id {
        IdSource::Identity { attribute } => Some((root.source.as_str(), attribute.as_str())),
        IdSource::Assigned => None,
    }
}

/// The old name of the root's identity when the new model renamed it (the same root
/// element, another identity attribute that the old root did not have): the value is
/// the same, so it is taken from where the old documents keep the old name.
fn renamed_identity(before: &cosmap_mapper::Container, after: &cosmap_mapper::Container) -> Option<String> {
    let (old_root, old_identity) = root_identity(before)?;
    let (new_root, new_identity) = root_identity(after)?;
    let old_has_new = before
        .document_types
        .iter()
        .any(|d| d.source == old_root && d.attributes.iter().any(|a| a.name == new_identity));
    (old_root == new_root && old_identity != new_identity && !old_has_new).then(|| old_identity.to_string())
}

/// Where an old document of `document_type` holds its value of the new partition key
/// `new_key`, from the typed model: the key itself (a level of the old key, or a
/// required attribute), `id` (the root, whose identity is the new key), or the old
/// name of a `renamed` identity (a level of the old key, or the root's `id`).
fn key_source(document_type: &cosmap_mapper::DocumentType, new_key: &str, renamed: Option<&str>) -> Option<String> {
    let levels: Vec<&str> = std::iter::once(document_type.partition_key_property.as_str())
        .chain(document_type.sub_partition_key_properties.iter().map(String::as_str))
        .collect();
    let stored = |name: &str| {
        levels.contains(&name)
            || document_type
                .attributes
                .iter()
                .any(|a| a.name == name && !a.optional && !a.many)
    };
    let is_id = |name: &str| {
        document_type.role == Role::Root
            && matches!(&document_type.id, IdSource::Identity { attribute } if attribute == name)
    };
    if stored(new_key) {
        return Some(new_key.to_string());
    }
    if is_id(new_key) {
        return Some("id".to_string());
    }
    let old_name = renamed?;
    if stored(old_name) {
        Some(old_name.to_string())
    } else if is_id(old_name) {
        Some("id".to_string())
    } else {
        None
    }
}

/// The name a repartitioned container's copy gets: `<name>-<new key property>`.
pub fn repartitioned_name(container: &str, new_key: &str) -> String {
    format!("{container}-{new_key}")
}

/// The migration from `old` to `new`: from `cosmap_diff::diff`'s changes, each turned
/// into a step, or refused. Every refused change is named in the error.
pub fn plan(old: &LogicalModel, new: &LogicalModel) -> Result<MigrationPlan, MigrateError> {
    let diff = cosmap_diff::diff(old, new, &Volumes::unknown())?;
    let mut refused = Vec::new();
    let mut created: Vec<ContainerDefinition> = Vec::new();
    let mut moves = Vec::new();
    let mut nothing = Vec::new();
    let mut workers = Vec::new();
    let mut renamed = Vec::new();
    let mut droppable = Vec::new();
    let definitions = new.container_definitions();
    // Containers copied into a new one (a partition key or unique keys changed): other
    // steps in them would race the copy, so they are refused.
    let repartitioned: Vec<&str> = diff
        .changes
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                ChangeKind::PartitionKeyChanged { .. } | ChangeKind::UniqueKeysChanged { .. }
            )
        })
        .map(|c| c.subject.container.as_str())
        .collect();
    let repartitioned_by_key: Vec<&str> = diff
        .changes
        .iter()
        .filter(|c| matches!(c.kind, ChangeKind::PartitionKeyChanged { .. }))
        .map(|c| c.subject.container.as_str())
        .collect();

    for change in &diff.changes {
        let subject = change.subject.to_string();
        let refuse = |why: &str| Refusal {
            subject: subject.clone(),
            kind: change.kind.name().to_string(),
            class: change.class,
            reason: why.to_string(),
            next: next_step(why, change),
        };
        match &change.kind {
            ChangeKind::ContainerAdded => {
                if let Some(d) = definitions.iter().find(|d| d.id == change.subject.container) {
                    created.push(d.clone());
                }
            }
            ChangeKind::PartitionKeyChanged { .. } => {
                match repartition(old, new, &change.subject.container, &definitions) {
                    Ok((definition, step)) => {
                        copied_into(
                            &change.subject.container,
                            &definition.id,
                            "partition key",
                            &mut renamed,
                            &mut droppable,
                        );
                        created.push(definition);
                        moves.push(step);
                    }
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            // The repartition's new container is created with the new unique keys.
            ChangeKind::UniqueKeysChanged { .. }
                if repartitioned_by_key.contains(&change.subject.container.as_str()) =>
            {
                nothing.push(Step::Nothing {
                    subject,
                    kind: change.kind.name().into(),
                    reason: "the repartitioned container is created with the new unique keys".into(),
                })
            }
            ChangeKind::UniqueKeysChanged { new: keys, .. } => {
                match copy_with_unique_keys(new, &change.subject.container, keys, &definitions) {
                    Ok((definition, step)) => {
                        copied_into(
                            &change.subject.container,
                            &definition.id,
                            "unique keys",
                            &mut renamed,
                            &mut droppable,
                        );
                        created.push(definition);
                        moves.push(step);
                    }
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            ChangeKind::EmbeddedToSeparate { from, .. } => {
                if repartitioned.contains(&change.subject.container.as_str()) {
                    refused.push(refuse(
                        "the container is also repartitioned: migrate one change at a time",
                    ));
                    continue;
                }
                match split(old, new, change, from) {
                    Ok(step) => moves.push(step),
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            // A copied container is created with the new indexing policy.
            ChangeKind::IndexingChanged { .. } if repartitioned.contains(&change.subject.container.as_str()) => nothing
                .push(Step::Nothing {
                    subject,
                    kind: change.kind.name().into(),
                    reason: "the new container is created with the new indexing policy".into(),
                }),
            ChangeKind::IndexingChanged { .. } => nothing.push(Step::Nothing {
                subject,
                kind: change.kind.name().into(),
                reason: "applied in place by `cosmap provision --update-indexing` (no document moves)".into(),
            }),
            ChangeKind::TtlChanged { .. } => nothing.push(Step::Nothing {
                subject,
                kind: change.kind.name().into(),
                reason:
                    "applied in place by `cosmap provision` (it changes a default TTL on every run; no document moves)"
                        .into(),
            }),
            ChangeKind::PropertyAdded {
                default: Some(value), ..
            }
            | ChangeKind::BecameRequired {
                default: Some(value), ..
            }
            | ChangeKind::DefaultChanged { old: Some(value), .. }
                if change.class >= Class::DataMigration =>
            {
                if repartitioned.contains(&change.subject.container.as_str()) {
                    refused.push(refuse(
                        "the container is also repartitioned: migrate one change at a time",
                    ));
                    continue;
                }
                match backfill(new, change, value) {
                    Ok(step) => moves.push(step),
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            ChangeKind::DerivedAdded {
                derived: Derived::Claim,
                ..
            } => match claims(new, change, &repartitioned) {
                Ok(step) => moves.push(step),
                Err(why) => refused.push(refuse(&why)),
            },
            ChangeKind::SeparateToEmbedded {
                document_type, many, ..
            } => {
                if repartitioned.contains(&change.subject.container.as_str()) {
                    refused.push(refuse("the container is also copied: migrate one change at a time"));
                    continue;
                }
                match embed(old, new, change, document_type, *many) {
                    Ok(step) => {
                        if let Step::EmbedSeparate {
                            container,
                            child,
                            holder,
                            ..
                        } = &step
                        {
                            droppable.push(format!(
                                "the `{child}` documents in `{container}`, now embedded in their `{holder}`s: delete them before readers load whole partitions (the container's generated enum no longer knows `{child}`)"
                            ));
                        }
                        moves.push(step);
                    }
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            ChangeKind::ReferenceChanged { .. } if !repartitioned.contains(&change.subject.container.as_str()) => {
                match retarget(old, new, change) {
                    Ok(step) => moves.push(step),
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            ChangeKind::CardinalityChanged { .. } | ChangeKind::PropertyRetyped { .. }
                if change.class >= Class::DataMigration
                    && !repartitioned.contains(&change.subject.container.as_str()) =>
            {
                match rewrite(new, change) {
                    Ok(step) => moves.push(step),
                    Err(why) => refused.push(refuse(&why)),
                }
            }
            ChangeKind::DerivedAdded {
                derived,
                kept_from_change_feed: true,
                ..
            } => workers.push(Step::RunWorker {
                subject,
                derived: derived.as_str().to_string(),
            }),
            ChangeKind::PropertyAdded { optional, many, .. } if *optional || *many => nothing.push(Step::Nothing {
                subject,
                kind: change.kind.name().into(),
                reason: "an optional property or a list: old documents read it as absent, nothing to back-fill".into(),
            }),
            ChangeKind::ContainerRemoved => {
                droppable.push(format!(
                    "container `{}`, which the new model no longer uses",
                    change.subject.container
                ));
                nothing.push(Step::Nothing {
                    subject,
                    kind: change.kind.name().into(),
                    reason: "cosmap never deletes: drop it yourself once nothing uses it".into(),
                });
            }
            ChangeKind::DocumentTypeRemoved { .. }
            | ChangeKind::DerivedRemoved {
                derived: Derived::Copy | Derived::Claim | Derived::Bucket,
            } => {
                let document_type = change.subject.document_type.clone().unwrap_or_default();
                workers.push(Step::DeleteYourself {
                    container: change.subject.container.clone(),
                    document_type,
                })
            }
            _ if change.class <= Class::Additive => nothing.push(Step::Nothing {
                subject,
                kind: change.kind.name().into(),
                reason: format!("{}: the documents serve the new model as they are", change.class),
            }),
            _ => refused.push(refuse(&format!(
                "cosmap migrate does not make a `{}` change ({})",
                change.kind.name(),
                change.class
            ))),
        }
    }
    if !refused.is_empty() {
        return Err(MigrateError::Refused(refused));
    }
    let leases: Vec<String> = moves
        .iter()
        .filter_map(Step::lease)
        .map(|l| format!("lease document `{}` in `{}` (type `{LEASE_TYPE}`)", l.id, l.container))
        .collect();
    droppable.extend(leases);
    let mut steps = Vec::new();
    if !created.is_empty() {
        steps.push(Step::CreateContainers { definitions: created });
    }
    steps.extend(moves);
    steps.extend(workers);
    steps.extend(nothing);
    Ok(MigrationPlan {
        format_version: MIGRATION_FORMAT_VERSION,
        old: old.model.clone(),
        new: new.model.clone(),
        steps,
        renamed,
        droppable,
    })
}

/// A partition key change the copy can derive: one path before and after, and the new
/// key's value stored in every old document (as the new key, or as the old key when the
/// root's identity, which is the key, was renamed).
fn repartition(
    old: &LogicalModel,
    new: &LogicalModel,
    name: &str,
    definitions: &[ContainerDefinition],
) -> Result<(ContainerDefinition, Step), String> {
    let (Some(before), Some(after)) = (old.container(name), new.container(name)) else {
        return Err("the container is not in both models".into());
    };
    // The old key may be hierarchical (the copy reads the change feed of the whole
    // container); the new one is written as one value.
    single_level(after)?;
    let old_key = before.partition_key_property.clone();
    let new_key = after.partition_key_property.clone();
    let renamed = renamed_identity(before, after);
    let mut key_from = Vec::new();
    for document_type in before.document_types.iter() {
        let Some(property) = key_source(document_type, &new_key, renamed.as_deref()) else {
            return Err(format!(
                "the old `{}` documents store no `{new_key}` (not as an attribute, a partition key level, their id as the root's identity, or a renamed identity): the new key's values cannot be derived; next: give `{}` a required `{new_key}` in a model between the two, back-fill it, then migrate to the new model",
                document_type.discriminator, document_type.source
            ));
        };
        key_from.push(KeyFrom {
            document_type: document_type.discriminator.clone(),
            property,
        });
    }
    if before
        .document_types
        .iter()
        .map(|d| &d.discriminator)
        .ne(after.document_types.iter().map(|d| &d.discriminator))
    {
        return Err("the container's document types change too: migrate one change at a time".into());
    }
    let target = repartitioned_name(name, &new_key);
    let mut definition = definitions
        .iter()
        .find(|d| d.id == name)
        .cloned()
        .ok_or("the new model has no definition for it")?;
    definition.id = target.clone();
    let lease = LeaseRef {
        container: target.clone(),
        partition_key_property: new_key.clone(),
        id: format!("{LEASE_TYPE}-repartition-{name}"),
    };
    Ok((
        definition,
        Step::Repartition {
            source: name.to_string(),
            target,
            old_key,
            new_key,
            key_from,
            lease,
        },
    ))
}

/// A value object made separate: its holder in the same container, the new document
/// type's partition key (and parent link) taken from the holder.
fn split(old: &LogicalModel, new: &LogicalModel, change: &Change, from: &str) -> Result<Step, String> {
    let container = &change.subject.container;
    let (Some(before), Some(after)) = (old.container(container), new.container(container)) else {
        return Err("the container is not in both models".into());
    };
    single_level(after)?;
    let document_type = subject_type(after, change).ok_or("the new document type is not in the container")?;
    let (holder_name, property) = from.split_once('.').ok_or("the old holder is not named")?;
    let holder = before
        .document_types
        .iter()
        .find(|d| d.source == holder_name && matches!(d.role, Role::Root | Role::Entity))
        .ok_or_else(|| format!("the holder `{holder_name}` is not a document type of `{container}`"))?;
    let embedded = holder
        .embedded
        .iter()
        .find(|e| e.name == property)
        .ok_or_else(|| format!("`{from}` is not embedded in the old model"))?;
    let parent_property = match (&document_type.parent, holder.role) {
        (Some(link), _) if link.entity == holder.source => Some(link.property.clone()),
        (None, Role::Root) => None,
        _ => return Err("the new document type's parent link does not name the old holder".into()),
    };
    Ok(Step::SplitEmbedded {
        container: container.clone(),
        holder: holder.discriminator.clone(),
        property: property.to_string(),
        many: embedded.many,
        discriminator: document_type.discriminator.clone(),
        partition_key_property: after.partition_key_property.clone(),
        parent_property,
        lease: LeaseRef {
            container: container.clone(),
            partition_key_property: after.partition_key_property.clone(),
            id: format!("{LEASE_TYPE}-split-{}-{property}", holder.discriminator),
        },
    })
}

/// A default to write where documents lack it: the document type's container and key
/// from the new model; never into a partition key or unique key path, which Cosmos DB
/// does not let a replace change (or which a shared value would break).
fn backfill(new: &LogicalModel, change: &Change, value: &serde_json::Value) -> Result<Step, String> {
    let name = &change.subject.container;
    let (container, document_type, path) = located(new, change)?;
    Ok(Step::BackfillDefault {
        container: name.clone(),
        document_type: document_type.discriminator.clone(),
        lease: LeaseRef {
            container: name.clone(),
            partition_key_property: container.partition_key_property.clone(),
            id: format!(
                "{LEASE_TYPE}-backfill-{}-{}",
                document_type.discriminator,
                path.join(".")
            ),
        },
        path,
        value: value.clone(),
        partition_key_property: container.partition_key_property.clone(),
    })
}

/// The name a container copied for new unique keys gets: `<name>-unique-<the keys'
/// properties>` (`Order-unique-sku`, `Order-unique-none` when there are none).
pub fn unique_keys_name(container: &str, unique_keys: &[Vec<String>]) -> String {
    let mut parts: Vec<String> = unique_keys
        .iter()
        .flatten()
        .map(|path| path.trim_start_matches('/').replace('/', "."))
        .collect();
    if parts.is_empty() {
        parts.push("none".to_string());
    }
    format!("{container}-unique-{}", parts.join("-"))
}

/// Unique keys changed: a copy into a new container with them, the same partition key.
fn copy_with_unique_keys(
    new: &LogicalModel,
    name: &str,
    unique_keys: &[Vec<String>],
    definitions: &[ContainerDefinition],
) -> Result<(ContainerDefinition, Step), String> {
    let container = new.container(name).ok_or("the container is not in the new model")?;
    single_level(container)?;
    let target = unique_keys_name(name, unique_keys);
    let mut definition = definitions
        .iter()
        .find(|d| d.id == name)
        .cloned()
        .ok_or("the new model has no definition for it")?;
    definition.id = target.clone();
    let key = container.partition_key_property.clone();
    Ok((
        definition,
        Step::CopyWithUniqueKeys {
            source: name.to_string(),
            lease: LeaseRef {
                container: target.clone(),
                partition_key_property: key.clone(),
                id: format!("{LEASE_TYPE}-unique-keys-{name}"),
            },
            target,
            key,
            unique_keys: unique_keys.to_vec(),
        },
    ))
}

/// How [`Step::Rewrite`] changes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Conversion {
    /// A single value becomes a list of it (`x` → `[x]`).
    WrapInList,
    /// A list becomes its one value (`[x]` → `x`). A list of two or more stops the
    /// step, naming the document: which value to keep is the user's call. An empty list
    /// becomes absent where the new model's property is `optional`, and stops the step
    /// where it is required (a document without it would no longer deserialise).
    UnwrapList {
        /// The new model's property may be absent.
        optional: bool,
    },
    /// A number or a boolean becomes its JSON text (`42` → `"42"`), for a property
    /// retyped to `string` or `decimal`.
    ToText,
    /// A reference's `partitionKey` becomes its `id` (each reference of a list): its
    /// target is partitioned by its identity now.
    KeyFromId,
}

impl Conversion {
    /// One line for people.
    pub fn describe(self) -> &'static str {
        match self {
            Conversion::WrapInList => "a single value becomes a list of it",
            Conversion::UnwrapList { optional: true } => {
                "a list becomes its one value, an empty one absent (a longer list stops the step)"
            }
            Conversion::UnwrapList { optional: false } => {
                "a list becomes its one value (an empty or longer list stops the step)"
            }
            Conversion::ToText => "a number or boolean becomes its text",
            Conversion::KeyFromId => "each reference's `partitionKey` becomes its `id`",
        }
    }
}

/// A retyping that [`Conversion::ToText`] serves: a number or boolean read as text.
fn to_text(old: cosmap_domain::AttributeType, new: cosmap_domain::AttributeType) -> Result<Conversion, String> {
    use cosmap_domain::AttributeType as T;
    match (old, new) {
        (T::Integer | T::Number | T::Boolean, T::String) | (T::Integer, T::Decimal) => Ok(Conversion::ToText),
        _ => Err(format!(
            "{} {} is not rewritten as {} {}: convert the values yourself (cosmap migrate writes integers, numbers and booleans as text, and integers as decimals)",
            article(old),
            old.as_str(),
            article(new),
            new.as_str()
        )),
    }
}

fn article(ty: cosmap_domain::AttributeType) -> &'static str {
    if ty == cosmap_domain::AttributeType::Integer {
        "an"
    } else {
        "a"
    }
}

/// A shape change rewritten in place: the document type's container and key from the
/// new model; never a partition key or unique key path.
fn rewrite(new: &LogicalModel, change: &Change) -> Result<Step, String> {
    let (container, document_type, path) = located(new, change)?;
    let conversion = match &change.kind {
        ChangeKind::CardinalityChanged { new_many: true, .. } => Conversion::WrapInList,
        ChangeKind::CardinalityChanged { .. } => Conversion::UnwrapList {
            optional: optional_at(document_type, &path),
        },
        ChangeKind::PropertyRetyped { old, new } => to_text(*old, *new)?,
        ChangeKind::ReferenceChanged { .. } => Conversion::KeyFromId,
        _ => return Err("not a shape cosmap migrate rewrites".to_string()),
    };
    Ok(Step::Rewrite {
        container: change.subject.container.clone(),
        document_type: document_type.discriminator.clone(),
        lease: LeaseRef {
            container: change.subject.container.clone(),
            partition_key_property: container.partition_key_property.clone(),
            id: format!(
                "{LEASE_TYPE}-rewrite-{}-{}",
                document_type.discriminator,
                path.join(".")
            ),
        },
        path,
        conversion,
        partition_key_property: container.partition_key_property.clone(),
    })
}

/// A reference whose target is partitioned by its identity now (the target's key
/// moved to it): each reference's `partitionKey` rewritten to its `id`, in place. Any
/// other retarget (another target or container, a key value taken from the target's
/// document, a reshaped key) is refused with the next step.
fn retarget(old: &LogicalModel, new: &LogicalModel, change: &Change) -> Result<Step, String> {
    let (_, document_type, path) = located(new, change)?;
    let after = reference_at(document_type, &path).ok_or("the reference is not in the new model")?;
    let before = old
        .container(&change.subject.container)
        .and_then(|c| subject_type(c, change))
        .and_then(|d| reference_at(d, &path))
        .ok_or("the reference is not in the old model's document type")?;
    if before.target != after.target || before.target_container != after.target_container {
        return Err(format!(
            "it points to another root (`{}` in `{}` → `{}` in `{}`); next: write the new target's id and partition key into each reference yourself, with the mapping from old targets to new ones that only you know",
            before.target, before.target_container, after.target, after.target_container
        ));
    }
    if after.partition_key_value != cosmap_mapper::PartitionKeyValue::SameAsId {
        return Err(format!(
            "its partition key value is now {}, which a rewrite in place cannot read from the reference; next: write each reference's `partitionKey` from its target yourself (a point read of the target by its id), then run again",
            match &after.partition_key_value {
                cosmap_mapper::PartitionKeyValue::Constant { value } => format!("the constant `{value}`"),
                cosmap_mapper::PartitionKeyValue::Property { property } => format!("the target's `{property}`"),
                cosmap_mapper::PartitionKeyValue::Levels { properties } => format!("the levels `{}`", properties.join("`, `")),
                cosmap_mapper::PartitionKeyValue::SameAsId => "the id".to_string(),
            }
        ));
    }
    match rewrite(new, change) {
        Ok(Step::Rewrite {
            container,
            document_type,
            path,
            partition_key_property,
            mut lease,
            ..
        }) => {
            lease.id = format!("{LEASE_TYPE}-retarget-{document_type}-{}", path.join("."));
            Ok(Step::Rewrite {
                container,
                document_type,
                path,
                conversion: Conversion::KeyFromId,
                partition_key_property,
                lease,
            })
        }
        Ok(_) => Err("not a rewrite".into()),
        Err(why) => Err(why),
    }
}

/// The reference at `path` of `document_type` (through embedded objects).
fn reference_at<'d>(
    document_type: &'d cosmap_mapper::DocumentType,
    path: &[String],
) -> Option<&'d cosmap_mapper::Reference> {
    let (last, inner) = path.split_last()?;
    let mut holder = PropertyHolder::Document(document_type);
    for step in inner {
        holder = PropertyHolder::Embedded(holder.embedded().iter().find(|e| &e.name == step)?);
    }
    holder.references().iter().find(|r| &r.name == last)
}

/// Whether the property at `path` of `document_type` may be absent in the new model:
/// an optional attribute or reference (an embedded object is always present).
fn optional_at(document_type: &cosmap_mapper::DocumentType, path: &[String]) -> bool {
    let Some((last, inner)) = path.split_last() else {
        return false;
    };
    let mut holder = PropertyHolder::Document(document_type);
    for step in inner {
        match holder.embedded().iter().find(|e| &e.name == step) {
            Some(e) => holder = PropertyHolder::Embedded(e),
            None => return false,
        }
    }
    let attribute = holder.attributes().iter().find(|a| &a.name == last).map(|a| a.optional);
    let reference = || holder.references().iter().find(|r| &r.name == last).map(|r| r.optional);
    attribute.or_else(reference).unwrap_or(false)
}

/// The container, document type and property path `change` is about, in the new model:
/// refused for a hierarchical key, and for a partition key or unique key path, which a
/// document cannot be given or change in place.
fn located<'m>(
    new: &'m LogicalModel,
    change: &Change,
) -> Result<
    (
        &'m cosmap_mapper::Container,
        &'m cosmap_mapper::DocumentType,
        Vec<String>,
    ),
    String,
> {
    let container = new
        .container(&change.subject.container)
        .ok_or("the container is not in the new model")?;
    single_level(container)?;
    let document_type =
        subject_type(container, change).ok_or("the document type is not in the new model's container")?;
    let path = change.subject.path.clone();
    let dotted = format!("/{}", path.join("/"));
    let keyed = container
        .partition_key
        .paths
        .iter()
        .chain(container.unique_keys.iter().flat_map(|k| &k.paths))
        .any(|p| *p == dotted);
    if keyed {
        return Err(format!(
            "`{}` is a partition key or unique key path: documents cannot be given or change a value there in place",
            path.join(".")
        ));
    }
    Ok((container, document_type, path))
}

/// A value object made embedded again: its separate documents (`document_type` in the
/// old model) and their holder share the container and its partition key; the holder's
/// property is a top-level one.
fn embed(
    old: &LogicalModel,
    new: &LogicalModel,
    change: &Change,
    document_type: &str,
    many: bool,
) -> Result<Step, String> {
    let name = &change.subject.container;
    let (Some(before), Some(after)) = (old.container(name), new.container(name)) else {
        return Err(
            "the separate documents and their new holder are in different containers: migrate one change at a time"
                .into(),
        );
    };
    single_level(before)?;
    single_level(after)?;
    if before.partition_key_property != after.partition_key_property {
        return Err("the container is also repartitioned: migrate one change at a time".into());
    }
    let child = before
        .document_type(document_type)
        .ok_or_else(|| format!("`{document_type}` is not a document type of `{name}` in the old model"))?;
    let holder = subject_type(after, change).ok_or("the holder is not in the new model's container")?;
    let [property] = change.subject.path.as_slice() else {
        return Err("embedded inside another embedded object: not migrated yet".into());
    };
    let site = holder
        .embedded
        .iter()
        .find(|e| &e.name == property)
        .ok_or_else(|| format!("`{property}` is not embedded in the new `{}`", holder.name))?;
    let parent_property = match (&child.parent, holder.role) {
        (Some(link), _) if link.entity == holder.source => Some(link.property.clone()),
        (None, Role::Root) => None,
        _ => return Err("the separate documents' parent link does not name the new holder".into()),
    };
    if !matches!(holder.id, IdSource::Identity { .. }) {
        return Err("the holder's id is not its identity: its children cannot find it".into());
    }
    let keep = site
        .attributes
        .iter()
        .map(|a| a.name.clone())
        .chain(site.embedded.iter().map(|e| e.name.clone()))
        .chain(site.references.iter().map(|r| r.name.clone()))
        .collect();
    Ok(Step::EmbedSeparate {
        container: name.clone(),
        child: child.discriminator.clone(),
        holder: holder.discriminator.clone(),
        property: property.clone(),
        many,
        partition_key_property: after.partition_key_property.clone(),
        parent_property,
        keep,
        lease: LeaseRef {
            container: name.clone(),
            partition_key_property: after.partition_key_property.clone(),
            id: format!("{LEASE_TYPE}-embed-{}-{property}", child.discriminator),
        },
    })
}

/// Claims added for a value made unique across partitions: the claim document type's
/// container in the new model, its owner's container unchanged (not copied elsewhere)
/// and under a single-level key.
fn claims(new: &LogicalModel, change: &Change, copied: &[&str]) -> Result<Step, String> {
    let name = &change.subject.container;
    let container = new
        .container(name)
        .ok_or("the claims container is not in the new model")?;
    let claim = subject_type(container, change).ok_or("the claim document type is not in the new model")?;
    let of = claim.claim_of.as_ref().ok_or("the document type is not a claim")?;
    if copied.contains(&of.container.as_str()) {
        return Err(format!(
            "the owners' container `{}` is also copied: migrate one change at a time",
            of.container
        ));
    }
    let owners = new
        .container(&of.container)
        .ok_or("the owners' container is not in the new model")?;
    single_level(owners)?;
    let owner = owners
        .document_type(&of.document_type)
        .ok_or("the owners' document type is not in the new model")?;
    Ok(Step::ClaimValues {
        container: name.clone(),
        claim_property: container.partition_key_property.clone(),
        claim: claim.discriminator.clone(),
        owner_container: of.container.clone(),
        owner: owner.discriminator.clone(),
        attribute: of.attribute.clone(),
        owner_partition_key_property: owners.partition_key_property.clone(),
        lease: LeaseRef {
            container: name.clone(),
            partition_key_property: container.partition_key_property.clone(),
            id: format!("{LEASE_TYPE}-claims-{}", claim.discriminator),
        },
    })
}

/// The document type `change` is about, in `container`.
fn subject_type<'m>(
    container: &'m cosmap_mapper::Container,
    change: &Change,
) -> Option<&'m cosmap_mapper::DocumentType> {
    change
        .subject
        .document_type
        .as_deref()
        .and_then(|d| container.document_type(d))
}

/// Refuses a container under a hierarchical key: no step handles its array values yet.
fn single_level(container: &cosmap_mapper::Container) -> Result<(), String> {
    if container.sub_partition_key_properties.is_empty() {
        Ok(())
    } else {
        Err("hierarchical partition keys are not migrated yet".into())
    }
}
