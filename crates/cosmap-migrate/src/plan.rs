//! [`plan`]: the steps a change of the model takes, from `cosmap-diff`'s changes; every
//! change it cannot migrate refuses the whole plan, each one named.

use cosmap_diff::{Change, ChangeKind, Class, Derived, Volumes};
use cosmap_mapper::{ContainerDefinition, IdSource, LogicalModel, Role};
use serde::Serialize;

use crate::error::{MigrateError, Refusal};

mod steps;

use steps::*;
pub use steps::{unique_keys_name, Conversion};

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
            Step::CreateContainers { definitions } => created(definitions),
            Step::Repartition {
                source,
                target,
                old_key,
                new_key,
                key_from,
                ..
            } => format!(
                "copy every document of `{source}` (/{old_key}) into `{target}` (/{new_key}, from {}) through the change feed",
                sources_text(key_from)
            ),
            Step::CopyWithUniqueKeys {
                source,
                target,
                unique_keys,
                ..
            } => format!(
                "copy every document of `{source}` into `{target}`, which has the new unique keys ({}), through the change feed",
                unique_keys_text(unique_keys)
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
        let renamed = self
            .renamed
            .iter()
            .map(|(from, to)| format!("readers and writers of `{from}` switch to `{to}` once it has caught up\n"));
        out.extend(renamed);
        push_list(
            &mut out,
            "you may drop, once satisfied (cosmap never deletes):",
            &self.droppable,
        );
        out
    }
}

/// Appends `heading` and then `items`, one `  - item` line each, to `out`; nothing when
/// there are no items.
pub(crate) fn push_list(out: &mut String, heading: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    out.push_str(heading);
    out.push('\n');
    for item in items {
        out.push_str(&format!("  - {item}\n"));
    }
}

/// "create containers `A` (/a), `B` (/b)": what a [`Step::CreateContainers`] does.
fn created(definitions: &[ContainerDefinition]) -> String {
    format!(
        "create container{} {}",
        if definitions.len() == 1 { "" } else { "s" },
        definitions
            .iter()
            .map(|d| format!("`{}` ({})", d.id, d.partition_key.paths.join(", ")))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The properties a repartitioning copy takes the new key from: "`a` or `b`".
fn sources_text(key_from: &[KeyFrom]) -> String {
    let mut sources: Vec<&str> = key_from.iter().map(|k| k.property.as_str()).collect();
    sources.dedup();
    sources
        .iter()
        .map(|p| format!("`{p}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Unique keys as a step says them: "a + b, c", or "none".
fn unique_keys_text(unique_keys: &[Vec<String>]) -> String {
    if unique_keys.is_empty() {
        "none".to_string()
    } else {
        unique_keys.iter().map(|k| k.join(" + ")).collect::<Vec<_>>().join(", ")
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
    let copied_by = |partition_key_only: bool| -> Vec<&str> {
        diff.changes
            .iter()
            .filter(|c| match c.kind {
                ChangeKind::PartitionKeyChanged { .. } => true,
                ChangeKind::UniqueKeysChanged { .. } => !partition_key_only,
                _ => false,
            })
            .map(|c| c.subject.container.as_str())
            .collect()
    };
    let mut p = Planner {
        old,
        new,
        definitions: new.container_definitions(),
        repartitioned: copied_by(false),
        repartitioned_by_key: copied_by(true),
        refused: Vec::new(),
        created: Vec::new(),
        moves: Vec::new(),
        nothing: Vec::new(),
        workers: Vec::new(),
        renamed: Vec::new(),
        droppable: Vec::new(),
    };
    for change in &diff.changes {
        p.change(change);
    }
    if !p.refused.is_empty() {
        return Err(MigrateError::Refused(p.refused));
    }
    let leases: Vec<String> = p
        .moves
        .iter()
        .filter_map(Step::lease)
        .map(|l| format!("lease document `{}` in `{}` (type `{LEASE_TYPE}`)", l.id, l.container))
        .collect();
    p.droppable.extend(leases);
    let mut steps = Vec::new();
    if !p.created.is_empty() {
        steps.push(Step::CreateContainers { definitions: p.created });
    }
    steps.extend(p.moves);
    steps.extend(p.workers);
    steps.extend(p.nothing);
    Ok(MigrationPlan {
        format_version: MIGRATION_FORMAT_VERSION,
        old: old.model.clone(),
        new: new.model.clone(),
        steps,
        renamed: p.renamed,
        droppable: p.droppable,
    })
}

/// The plan in the making: the models, what the diff copies, and the steps (or
/// refusals) made so far, by kind.
struct Planner<'m> {
    old: &'m LogicalModel,
    new: &'m LogicalModel,
    definitions: Vec<ContainerDefinition>,
    /// Containers copied into a new one (a partition key or unique keys changed):
    /// other steps in them would race the copy, so they are refused.
    repartitioned: Vec<&'m str>,
    /// Those copied because their partition key changed.
    repartitioned_by_key: Vec<&'m str>,
    refused: Vec<Refusal>,
    created: Vec<ContainerDefinition>,
    moves: Vec<Step>,
    nothing: Vec<Step>,
    workers: Vec<Step>,
    renamed: Vec<(String, String)>,
    droppable: Vec<String>,
}

impl Planner<'_> {
    /// The step `change` takes, or its refusal.
    fn change(&mut self, change: &Change) {
        let (old, new) = (self.old, self.new);
        let container = change.subject.container.as_str();
        let copied = self.repartitioned.contains(&container);
        match &change.kind {
            ChangeKind::ContainerAdded => {
                if let Some(d) = self.definitions.iter().find(|d| d.id == container) {
                    self.created.push(d.clone());
                }
            }
            ChangeKind::PartitionKeyChanged { .. } => {
                let copy = repartition(old, new, container, &self.definitions);
                self.copy(change, copy, "partition key");
            }
            // The repartition's new container is created with the new unique keys.
            ChangeKind::UniqueKeysChanged { .. } if self.repartitioned_by_key.contains(&container) => self.nothing(
                change,
                "the repartitioned container is created with the new unique keys".into(),
            ),
            ChangeKind::UniqueKeysChanged { new: keys, .. } => {
                let copy = copy_with_unique_keys(new, container, keys, &self.definitions);
                self.copy(change, copy, "unique keys");
            }
            ChangeKind::EmbeddedToSeparate { .. } | ChangeKind::SeparateToEmbedded { .. } if copied => {
                let why = match change.kind {
                    ChangeKind::EmbeddedToSeparate { .. } => "the container is also repartitioned",
                    _ => "the container is also copied",
                };
                self.refuse(change, &format!("{why}: migrate one change at a time"));
            }
            ChangeKind::EmbeddedToSeparate { from, .. } => self.step(change, split(old, new, change, from)),
            // A copied container is created with the new indexing policy.
            ChangeKind::IndexingChanged { .. } if copied => self.nothing(
                change,
                "the new container is created with the new indexing policy".into(),
            ),
            ChangeKind::IndexingChanged { .. } => self.nothing(
                change,
                "applied in place by `cosmap provision --update-indexing` (no document moves)".into(),
            ),
            ChangeKind::TtlChanged { .. } => self.nothing(
                change,
                "applied in place by `cosmap provision` (it changes a default TTL on every run; no document moves)"
                    .into(),
            ),
            ChangeKind::PropertyAdded {
                default: Some(value), ..
            }
            | ChangeKind::BecameRequired {
                default: Some(value), ..
            }
            | ChangeKind::DefaultChanged { old: Some(value), .. }
                if change.class >= Class::DataMigration =>
            {
                if copied {
                    self.refuse(
                        change,
                        "the container is also repartitioned: migrate one change at a time",
                    );
                } else {
                    self.step(change, backfill(new, change, value));
                }
            }
            ChangeKind::DerivedAdded {
                derived: Derived::Claim,
                ..
            } => {
                let step = claims(new, change, &self.repartitioned);
                self.step(change, step);
            }
            ChangeKind::SeparateToEmbedded {
                document_type, many, ..
            } => self.embed(change, embed(old, new, change, document_type, *many)),
            _ => self.other_change(change, copied),
        }
    }

    /// The step of a `change` of a reference, a cardinality or a type, of a derived
    /// datum or of what a container holds; nothing for one the documents serve as they
    /// are; else its refusal.
    fn other_change(&mut self, change: &Change, copied: bool) {
        let subject = change.subject.to_string();
        match &change.kind {
            ChangeKind::ReferenceChanged { .. } if !copied => self.step(change, retarget(self.old, self.new, change)),
            ChangeKind::CardinalityChanged { .. } | ChangeKind::PropertyRetyped { .. }
                if change.class >= Class::DataMigration && !copied =>
            {
                self.step(change, rewrite(self.new, change))
            }
            ChangeKind::DerivedAdded {
                derived,
                kept_from_change_feed: true,
                ..
            } => self.workers.push(Step::RunWorker {
                subject,
                derived: derived.as_str().to_string(),
            }),
            ChangeKind::PropertyAdded { optional, many, .. } if *optional || *many => self.nothing(
                change,
                "an optional property or a list: old documents read it as absent, nothing to back-fill".into(),
            ),
            ChangeKind::ContainerRemoved => {
                self.droppable.push(format!(
                    "container `{}`, which the new model no longer uses",
                    change.subject.container
                ));
                self.nothing(
                    change,
                    "cosmap never deletes: drop it yourself once nothing uses it".into(),
                );
            }
            ChangeKind::DocumentTypeRemoved { .. }
            | ChangeKind::DerivedRemoved {
                derived: Derived::Copy | Derived::Claim | Derived::Bucket,
            } => {
                let document_type = change.subject.document_type.clone().unwrap_or_default();
                self.workers.push(Step::DeleteYourself {
                    container: change.subject.container.clone(),
                    document_type,
                })
            }
            _ if change.class <= Class::Additive => self.nothing(
                change,
                format!("{}: the documents serve the new model as they are", change.class),
            ),
            _ => self.refuse(
                change,
                &format!(
                    "cosmap migrate does not make a `{}` change ({})",
                    change.kind.name(),
                    change.class
                ),
            ),
        }
    }

    /// `change` refused, for the reason `why`.
    fn refuse(&mut self, change: &Change, why: &str) {
        self.refused.push(Refusal {
            subject: change.subject.to_string(),
            kind: change.kind.name(),
            class: change.class,
            reason: why.to_string(),
            next: next_step(why, change),
        });
    }

    /// Nothing to move for `change`, for `reason`.
    fn nothing(&mut self, change: &Change, reason: String) {
        self.nothing.push(Step::Nothing {
            subject: change.subject.to_string(),
            kind: change.kind.name(),
            reason,
        });
    }

    /// The step that moves documents for `change`, or its refusal.
    fn step(&mut self, change: &Change, step: Result<Step, String>) {
        match step {
            Ok(step) => self.moves.push(step),
            Err(why) => self.refuse(change, &why),
        }
    }

    /// The copy of a container into a new one (its `what` changed), or its refusal.
    fn copy(&mut self, change: &Change, copy: Result<(ContainerDefinition, Step), String>, what: &str) {
        match copy {
            Ok((definition, step)) => {
                let source = &change.subject.container;
                copied_into(source, &definition.id, what, &mut self.renamed, &mut self.droppable);
                self.created.push(definition);
                self.moves.push(step);
            }
            Err(why) => self.refuse(change, &why),
        }
    }

    /// The step that embeds separate documents in their holders, or its refusal;
    /// the separate documents left are for the user to delete.
    fn embed(&mut self, change: &Change, step: Result<Step, String>) {
        if let Ok(Step::EmbedSeparate {
            container,
            child,
            holder,
            ..
        }) = &step
        {
            self.droppable.push(format!(
                "the `{child}` documents in `{container}`, now embedded in their `{holder}`s: delete them before readers load whole partitions (the container's generated enum no longer knows `{child}`)"
            ));
        }
        self.step(change, step);
    }
}
