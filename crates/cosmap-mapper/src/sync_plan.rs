//! How derived data (optimisation copies now; extended references, counts and
//! feeds as they come) is kept current: a [`SyncPlan`] says what triggers it and
//! which upserts and deletes it makes, with typed key mappings. Generated sync
//! workers, verify and the text printer read it; none of them parses prose.

use serde::Serialize;

use crate::operations::PropertyPath;

/// What keeps one kind of derived document current.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncPlan {
    /// What starts it.
    pub trigger: SyncTrigger,
    /// What it does for each change, in order.
    pub actions: Vec<SyncAction>,
}

/// What starts a sync.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum SyncTrigger {
    /// Each change of `document_type` documents in `container`'s change feed.
    ChangeFeed {
        /// The container whose change feed is read.
        container: String,
        /// The document type whose changes count (by its `type` value, `discriminator`).
        document_type: String,
        /// The `type` value of those documents.
        discriminator: String,
    },
}

/// Which changes an action answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ChangeKind {
    /// A document created or replaced (its `ttl` not set).
    Upserted,
    /// A document deleted by setting its `ttl` (the change feed shows no hard delete;
    /// the source container has TTL on for this).
    Expiring,
}

/// What an action does to the target document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SyncOperation {
    /// Creates or replaces it (idempotent: a replayed change writes the same document).
    Upsert,
    /// Deletes it (a missing document is not an error: a replayed change is harmless).
    Delete,
    /// Deletes the documents of its partition beyond the newest the feed keeps, by the
    /// served pattern's sort (a feed: `copyOf.newest`); idempotent.
    Trim,
    /// Rewrites the copied attributes of every target document whose `keys` match the
    /// changed document (an extended reference to it): found by a query, each
    /// replaced; idempotent (a replayed change writes the same values).
    Refresh,
    /// Rewrites the ancestors list of every target document whose list holds the
    /// changed document (`treeAncestors`): the changed one's entry takes its new
    /// values, and the entries above it its new ancestors (a move); found by a query,
    /// each replaced; idempotent.
    Reancestor,
    /// Counts the target's children again (a `COUNT` query) and writes the number into
    /// the target found by `keys`; idempotent.
    Recount,
    /// Queries the target's newest children again and writes them into the target's
    /// subset (`subset`); idempotent.
    Resubset,
}

/// One step of a sync: on `on` changes, `operation` the `document_type` document in
/// `container`, found by `keys`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncAction {
    /// The changes it answers.
    pub on: ChangeKind,
    /// What it does.
    pub operation: SyncOperation,
    /// The target container.
    pub container: String,
    /// The target document type.
    pub document_type: String,
    /// How the target's `id` and partition key are taken from the changed document.
    pub keys: Vec<KeyMapping>,
}

/// A target property and the path in the changed (source) document its value comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyMapping {
    /// The target document's property, for example `accountId`.
    pub property: String,
    /// Where its value is in the source document, for example `account.id`.
    pub from: PropertyPath,
}

impl SyncPlan {
    /// The plan that keeps a copy current: from the change feed of `source`'s
    /// `document_type` documents, upsert the copy into `target` (its `id` the source's,
    /// its partition key `target_key` from `key_from`); delete it when the source expires.
    pub fn copy(
        source: &str,
        document_type: &str,
        discriminator: &str,
        target: &str,
        copy_type: &str,
        target_key: &str,
        key_from: &PropertyPath,
    ) -> Self {
        let keys = vec![
            KeyMapping {
                property: "id".to_string(),
                from: PropertyPath::new(["id"]),
            },
            KeyMapping {
                property: target_key.to_string(),
                from: key_from.clone(),
            },
        ];
        let action = |on, operation| SyncAction {
            on,
            operation,
            container: target.to_string(),
            document_type: copy_type.to_string(),
            keys: keys.clone(),
        };
        SyncPlan {
            trigger: SyncTrigger::ChangeFeed {
                container: source.to_string(),
                document_type: document_type.to_string(),
                discriminator: discriminator.to_string(),
            },
            actions: vec![
                action(ChangeKind::Upserted, SyncOperation::Upsert),
                action(ChangeKind::Expiring, SyncOperation::Delete),
            ],
        }
    }

    /// The plan that keeps a value derived from children on their parent: each change
    /// (or expiry) of a `child_type` document in `children`'s change feed makes
    /// `operation` on the `parent_type` document in `parent`, found through the
    /// child's `reference` (its `id` and `partitionKey`).
    pub fn parent_kept(
        children: (&str, &str, &str),
        reference: &str,
        parent: (&str, &str),
        operation: SyncOperation,
    ) -> Self {
        let (container, document_type, discriminator) = children;
        let keys = vec![
            KeyMapping {
                property: "id".to_string(),
                from: PropertyPath::new([reference, "id"]),
            },
            KeyMapping {
                property: "partitionKey".to_string(),
                from: PropertyPath::new([reference, "partitionKey"]),
            },
        ];
        let action = |on| SyncAction {
            on,
            operation,
            container: parent.0.to_string(),
            document_type: parent.1.to_string(),
            keys: keys.clone(),
        };
        SyncPlan {
            trigger: SyncTrigger::ChangeFeed {
                container: container.to_string(),
                document_type: document_type.to_string(),
                discriminator: discriminator.to_string(),
            },
            actions: vec![action(ChangeKind::Upserted), action(ChangeKind::Expiring)],
        }
    }

    /// The plan that keeps a feed current: a copy's plan, and after each upsert a trim of
    /// the feed's partition to the newest it keeps.
    pub fn feed(
        source: &str,
        document_type: &str,
        discriminator: &str,
        target: &str,
        feed_type: &str,
        target_key: &str,
        key_from: &PropertyPath,
    ) -> Self {
        let mut plan = SyncPlan::copy(
            source,
            document_type,
            discriminator,
            target,
            feed_type,
            target_key,
            key_from,
        );
        let trim = SyncAction {
            operation: SyncOperation::Trim,
            ..plan.actions[0].clone()
        };
        plan.actions.insert(1, trim);
        plan
    }

    /// The target's partition key mapping of the first action: the property and its source path.
    pub fn key(&self, property: &str) -> Option<&PropertyPath> {
        self.actions
            .first()?
            .keys
            .iter()
            .find(|k| k.property == property)
            .map(|k| &k.from)
    }
}
