//! The step's writes, each conditional on the version it was computed from, so that
//! a document an application writes while a step runs is never overwritten by a copy
//! read before that write (docs/migrate.md, "Writers during a migration").
//!
//! - a document edited in place is replaced with `if-match` the `_etag` of the version
//!   the edit was computed from; on 412 it is read again and the edit applied again;
//! - a new document (a split value, a copy) is created; when its id is taken, it is
//!   replaced (with `if-match`) only when it is what this run wrote or older than the
//!   version it comes from, and otherwise kept as the newer write.

use azure_data_cosmos::clients::ContainerClient;
use azure_data_cosmos::options::{ItemWriteOptions, Precondition};
use azure_data_cosmos::PartitionKey;
use serde_json::Value;

use super::{charge, strip_system, text, Feed};
use crate::error::MigrateError;

/// Times a write is computed again after a writer changed its document meanwhile
/// (each time from the newer version): a bound, so that a document rewritten without
/// pause cannot hold the step forever; a rerun resumes from the lease.
pub(super) const CONFLICT_RETRIES: usize = 8;

/// What a conditional write found.
pub(super) enum Outcome {
    /// Written.
    Written,
    /// The document changed (412) or went (404) since the version read.
    Changed,
    /// A unique key of the container refuses it (409): another document of the
    /// partition holds the value.
    Refused,
}

/// What to do with a new document whose id is taken.
pub(super) enum Taken {
    /// It already holds what would be written.
    Same,
    /// Replace it with `if-match` its `_etag`.
    Replace(String),
    /// Keep it: it was written after the version the new one comes from.
    Newer,
}

/// Where a document goes: its container (client and name) and partition key.
pub(super) struct Place<'p> {
    /// The container's client (a clone of the feed's: the feed is borrowed mutably while it writes).
    pub client: ContainerClient,
    /// The container's name, for messages.
    pub container: &'p str,
    /// The partition key value.
    pub key: String,
}

/// The document's `_ts` (seconds), `0` when absent.
pub(super) fn timestamp(document: &Value) -> u64 {
    document.get("_ts").and_then(Value::as_u64).unwrap_or(0)
}

impl Feed<'_> {
    /// Partition `key` of `container` in the old database, which the feed reads.
    pub(super) fn in_source<'p>(&self, container: &'p str, key: String) -> Place<'p> {
        let client = self.source.clone();
        Place { client, container, key }
    }

    /// Partition `key` of `container` in the new database.
    pub(super) fn in_target<'p>(&self, container: &'p str, key: String) -> Place<'p> {
        let client = self.target.clone();
        Place { client, container, key }
    }

    /// Reads `id` in partition `key` of `container` (`None` when it is gone).
    pub(super) async fn read(&mut self, at: &Place<'_>, id: &str) -> Result<Option<Value>, MigrateError> {
        let Place { client, container, key } = at;
        let operation = format!("read item `{id}` in partition `{key}` of `{container}`");
        let found = self
            .connection
            .request(&operation, &[404], || {
                client.read_item(PartitionKey::from(key.to_string()), id, None)
            })
            .await?;
        let Some(found) = found else {
            return Ok(None);
        };
        self.report.request_units += charge(found.headers());
        let document: Value = found.into_model().map_err(|e| self.data(format!("`{id}`: {e}")))?;
        Ok(Some(document))
    }

    /// Replaces `id` with `body` when its `_etag` is still `etag`.
    pub(super) async fn replace_if_match(
        &mut self,
        at: &Place<'_>,
        id: &str,
        body: &Value,
        etag: &str,
    ) -> Result<Outcome, MigrateError> {
        let Place { client, container, key } = at;
        let operation = format!("replace item `{id}` in partition `{key}` of `{container}` if unchanged");
        let options = ItemWriteOptions::default().with_precondition(Precondition::if_match(etag.to_string()));
        let response = self
            .connection
            .request(&operation, &[404, 409, 412], || {
                client.replace_item(PartitionKey::from(key.to_string()), id, body, Some(options.clone()))
            })
            .await?;
        let Some(response) = response else {
            // Refused while still the version read: not a change meanwhile (412, 404)
            // but a unique key (409).
            let unchanged = self
                .read(at, id)
                .await?
                .is_some_and(|now| text(&now, "_etag").as_deref() == Some(etag));
            return Ok(if unchanged { Outcome::Refused } else { Outcome::Changed });
        };
        self.report.request_units += charge(response.headers());
        self.report.written += 1;
        self.remember(key, id, response.headers().etag().map(|e| e.to_string()));
        Ok(Outcome::Written)
    }

    /// Creates `id` as `body`; [`Outcome::Changed`] when the id is taken (409).
    pub(super) async fn create_new(&mut self, at: &Place<'_>, id: &str, body: &Value) -> Result<Outcome, MigrateError> {
        let Place { client, container, key } = at;
        let operation = format!("create item `{id}` in partition `{key}` of `{container}`");
        let response = self
            .connection
            .request(&operation, &[409], || {
                client.create_item(PartitionKey::from(key.to_string()), id, body, None)
            })
            .await?;
        let Some(response) = response else {
            return Ok(Outcome::Changed);
        };
        self.report.request_units += charge(response.headers());
        self.report.written += 1;
        self.remember(key, id, response.headers().etag().map(|e| e.to_string()));
        Ok(Outcome::Written)
    }

    /// Whether `existing` (a document whose id a new one wants) may be replaced by
    /// `body`, which comes from a version written at `source_ts`.
    pub(super) fn taken(&self, key: &str, existing: &Value, body: &Value, source_ts: u64) -> Taken {
        if strip_system(existing) == *body {
            return Taken::Same;
        }
        let etag = text(existing, "_etag").unwrap_or_default();
        let ours = text(existing, "id").is_some_and(|id| self.wrote.get(&(key.to_string(), id)) == Some(&etag));
        if ours || timestamp(existing) <= source_ts {
            Taken::Replace(etag)
        } else {
            Taken::Newer
        }
    }

    /// Writes the new document `id` (`body`, from a version written at `source_ts`):
    /// created, or replacing what holds its id unless that is newer. Whether it was
    /// written (or held it already); `false` when a newer one was kept.
    pub(super) async fn write_new(
        &mut self,
        at: &Place<'_>,
        id: &str,
        body: &Value,
        source_ts: u64,
    ) -> Result<bool, MigrateError> {
        for _ in 0..=CONFLICT_RETRIES {
            let existing = match self.create_new(at, id, body).await? {
                Outcome::Written => return Ok(true),
                // Its id is taken (or a unique key refuses it: then nothing holds the id).
                _ => match self.read(at, id).await? {
                    Some(existing) => existing,
                    None => return Err(self.unique_conflict(id, &at.key)),
                },
            };
            match self.taken(&at.key, &existing, body, source_ts) {
                Taken::Same => return Ok(true),
                Taken::Newer => return Ok(false),
                Taken::Replace(etag) => match self.replace_if_match(at, id, body, &etag).await? {
                    Outcome::Written => return Ok(true),
                    Outcome::Refused => return Err(self.unique_conflict(id, &at.key)),
                    Outcome::Changed => {}
                },
            }
        }
        Err(self.changed_too_often(id))
    }

    /// `body`'s document edited in place: `edit` applied to the version `document`,
    /// replaced with `if-match` its `_etag`; on a change meanwhile, read again and
    /// edited again. `false` when nothing needs writing (the edit changes nothing,
    /// or the document is gone).
    pub(super) async fn edit_conditionally(
        &mut self,
        at: &Place<'_>,
        id: &str,
        document: &Value,
        edit: &mut dyn FnMut(&mut Value) -> Result<bool, String>,
        describe: &str,
    ) -> Result<bool, MigrateError> {
        let mut current = document.clone();
        for _ in 0..=CONFLICT_RETRIES {
            let mut body = strip_system(&current);
            match edit(&mut body) {
                Ok(false) => return Ok(false),
                Ok(true) => {}
                Err(why) => return Err(self.data(format!("{describe} `{id}`: {why}"))),
            }
            let Some(etag) = text(&current, "_etag") else {
                // A feed without `_etag`: the version to edit is read first.
                match self.read(at, id).await? {
                    Some(read) if text(&read, "_etag").is_some() => current = read,
                    Some(_) => {
                        return Err(self.data(format!("{describe} `{id}` has no `_etag` to write it conditionally")))
                    }
                    None => return Ok(false),
                }
                continue;
            };
            match self.replace_if_match(at, id, &body, &etag).await? {
                Outcome::Written => return Ok(true),
                Outcome::Refused => return Err(self.unique_conflict(id, &at.key)),
                Outcome::Changed => match self.read(at, id).await? {
                    Some(read) => current = read,
                    None => return Ok(false),
                },
            }
        }
        Err(self.changed_too_often(id))
    }

    fn remember(&mut self, key: &str, id: &str, etag: Option<String>) {
        if let Some(etag) = etag {
            self.wrote.insert((key.to_string(), id.to_string()), etag);
        }
    }

    fn changed_too_often(&self, id: &str) -> MigrateError {
        self.data(format!(
            "`{id}` changed {} times while this step wrote it (a writer rewrites it without pause): run `cosmap migrate` again (it resumes from its lease)",
            CONFLICT_RETRIES + 1
        ))
    }

    fn unique_conflict(&self, id: &str, key: &str) -> MigrateError {
        self.data(format!(
            "document `{id}` in partition `{key}` holds a value the new unique keys refuse there: another document of the partition holds it too. Make the values unique in the old container, then run `cosmap migrate` again (it resumes from its lease)"
        ))
    }
}
