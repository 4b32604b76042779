//! Gathers the changes as the comparisons find them: classifies each and prices the
//! migrations it calls for.

use std::collections::BTreeSet;

use cosmap_mapper::LogicalModel;

use crate::change::{Change, ChangeKind, Estimate, Subject};
use crate::classify::{self, Place};
use crate::volumes::{self, Volumes};

/// Which old documents a change's migration touches.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Basis<'a> {
    /// None (or none known).
    None,
    /// The documents of one old document type; `paths`: indexed paths where they are
    /// written, when not their own container's.
    Document {
        container: &'a str,
        name: &'a str,
        paths: Option<usize>,
    },
    /// Every document of an old container.
    Container(&'a str),
}

/// The two models, the old model's volumes and the changes found so far.
pub(crate) struct Collector<'a> {
    pub old: &'a LogicalModel,
    pub new: &'a LogicalModel,
    volumes: &'a Volumes,
    /// Value objects embedded in the old model and separate documents in the new one.
    pub became_separate: BTreeSet<String>,
    /// Value objects separate in the old model and embedded in the new one.
    pub became_embedded: BTreeSet<String>,
    changes: Vec<Change>,
}

impl<'a> Collector<'a> {
    pub fn new(old: &'a LogicalModel, new: &'a LogicalModel, volumes: &'a Volumes) -> Self {
        Collector {
            old,
            new,
            volumes,
            became_separate: BTreeSet::new(),
            became_embedded: BTreeSet::new(),
            changes: Vec::new(),
        }
    }

    /// Records `kind` at `subject`, found at `place`, its migration touching `basis`.
    pub fn push(&mut self, subject: Subject, kind: ChangeKind, place: Place, basis: Basis<'_>) {
        let assessment = classify::assess(&kind, place);
        let estimate = assessment.work.and_then(|work| self.estimate(work, basis));
        self.changes.push(Change {
            class: assessment.class,
            subject,
            kind,
            explanation: assessment.explanation,
            estimate,
        });
    }

    /// Whether the new model's queries filter, sort or partition on the property at
    /// `subject`: its container indexes it (or everything), or keys on it.
    pub fn queried(&self, subject: &Subject) -> bool {
        let Some(container) = self.new.container(&subject.container) else {
            return false;
        };
        let property: Vec<&str> = subject.path.iter().map(String::as_str).collect();
        let policy = &container.indexing_policy;
        let indexed = policy
            .included_paths
            .iter()
            .map(|p| p.path.as_str())
            .chain(policy.composite_indexes.iter().flatten().map(|p| p.path.as_str()));
        let keys = container
            .partition_key
            .paths
            .iter()
            .chain(container.unique_keys.iter().flat_map(|k| &k.paths))
            .map(String::as_str);
        indexed.chain(keys).any(|path| covers(path, &property))
    }

    fn estimate(&self, work: volumes::Work, basis: Basis<'_>) -> Option<Estimate> {
        match basis {
            Basis::None => None,
            Basis::Document { container, name, paths } => self
                .volumes
                .get(container, name)
                .map(|v| volumes::estimate(v, work, paths)),
            Basis::Container(container) => volumes::sum(
                self.volumes
                    .container_documents(container)
                    .into_iter()
                    .map(|v| volumes::estimate(v, work, None)),
            ),
        }
    }

    /// The changes, in a deterministic order: by subject (container, then document
    /// type, then path), in the order found within one subject.
    pub fn finish(mut self) -> Vec<Change> {
        in_order(&mut self.changes);
        self.changes
    }
}

/// Puts `changes` in the diff's order: by subject (container, then document type,
/// then path), in the order found within one subject.
pub(crate) fn in_order(changes: &mut [Change]) {
    changes.sort_by(|a, b| a.subject.cmp(&b.subject));
}

/// Whether index or key path `path` (`/a/[]/b/?`, `/a/*`, `/a/b`) covers the property
/// at `property` (`["a", "b"]`): array steps are skipped, `*` covers what is below.
fn covers(path: &str, property: &[&str]) -> bool {
    let mut steps = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != "[]" && *s != "?")
        .map(|s| s.trim_matches('"'));
    let mut at = 0;
    loop {
        match steps.next() {
            None => return at == property.len(),
            Some("*") => return true,
            Some(step) if property.get(at) == Some(&step) => at += 1,
            Some(_) => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::covers;

    #[test]
    fn index_paths_cover_properties() {
        assert!(covers("/visibility/?", &["visibility"]));
        assert!(covers("/items/[]/quantity/?", &["items", "quantity"]));
        assert!(covers("/*", &["anything", "below"]));
        assert!(covers("/layout/*", &["layout", "theme"]));
        assert!(covers("/orderId", &["orderId"]));
        assert!(!covers("/visibility/?", &["visible"]));
        assert!(!covers("/layout/theme/?", &["layout"]));
        assert!(!covers("/layout/?", &["layout", "theme"]));
    }
}
