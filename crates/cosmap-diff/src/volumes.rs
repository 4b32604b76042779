//! How many documents the old model has of each type, and what moving them costs:
//! the figures behind a data migration's [`Estimate`].
//!
//! The counts follow the cost model's own (`cosmap_mapper::cost`): an element's
//! declared `volume.count`, or its parent's count times the relationship's typical
//! count up the aggregate's tree; a bucket holds its typical items per document, a
//! feed its newest N. Sizes are the logical model's `estimatedSizeBytes` (1 KB when
//! the model gives none, as the cost model assumes). Charges come from
//! `cosmap_mapper::cost::units`: the same formulas the cost table uses.

use std::collections::BTreeMap;

use cosmap_domain::DomainModel;
use cosmap_mapper::cost::units;
use cosmap_mapper::{Container, DocumentType, Embedded, LogicalModel};

use crate::change::Estimate;

/// The size the cost model assumes for a document without a declared size.
const DEFAULT_ITEM_BYTES: f64 = 1024.0;

/// One document type's figures in the old model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DocVolume {
    /// Estimated documents.
    pub documents: f64,
    /// Estimated bytes of one.
    pub bytes: f64,
    /// Paths its container indexes for it (a write's charge grows with them).
    pub indexed_paths: usize,
}

/// The old model's document counts and sizes, by container and document type. Empty
/// (no estimates) when the caller has only the logical models.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Volumes {
    documents: BTreeMap<(String, String), DocVolume>,
}

impl Volumes {
    /// No figures: changes carry no estimate.
    pub fn unknown() -> Self {
        Volumes::default()
    }

    /// The figures of `logical`, mapped from `domain` (the model whose documents are
    /// already written: the old one).
    pub fn of(domain: &DomainModel, logical: &LogicalModel) -> Self {
        let mut documents = BTreeMap::new();
        for c in &logical.containers {
            for d in &c.document_types {
                let volume = DocVolume {
                    documents: cosmap_mapper::cost::documents_today(domain, d),
                    bytes: bytes_of(d),
                    indexed_paths: indexed_paths(c, d),
                };
                documents.insert((c.name.clone(), d.name.clone()), volume);
            }
        }
        Volumes { documents }
    }

    /// The figures of document type `document_type` in `container`, if known.
    pub fn get(&self, container: &str, document_type: &str) -> Option<DocVolume> {
        self.documents
            .get(&(container.to_string(), document_type.to_string()))
            .copied()
    }

    /// The figures of every document type of `container`.
    pub fn container_documents(&self, container: &str) -> Vec<DocVolume> {
        self.documents
            .iter()
            .filter(|((c, _), _)| c == container)
            .map(|(_, v)| *v)
            .collect()
    }
}

/// What a migration does to each document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Read it and write it again in place (a replace).
    Rewrite,
    /// Read it and insert it elsewhere (a new container, another document type).
    Copy,
    /// Write a new document per existing one (a back-fill of derived data).
    Insert,
    /// Delete it.
    Delete,
}

/// The estimate of `work` on `volume`'s documents, with `indexed_paths` paths
/// indexed where they are written (their own container's when `None`).
pub fn estimate(volume: DocVolume, work: Work, indexed_paths: Option<usize>) -> Estimate {
    let paths = indexed_paths.unwrap_or(volume.indexed_paths);
    let read = units::point_read(volume.bytes);
    let per_document = match work {
        Work::Rewrite => read + units::replace(volume.bytes, paths),
        Work::Copy => read + units::insert(volume.bytes, paths),
        Work::Insert => units::insert(volume.bytes, paths),
        Work::Delete => units::delete(volume.bytes, paths),
    };
    Estimate {
        documents: volume.documents.round(),
        ru: units::round(volume.documents * per_document),
    }
}

/// The estimates of `volumes` summed (`None` for none).
pub fn sum(volumes: impl IntoIterator<Item = Estimate>) -> Option<Estimate> {
    volumes.into_iter().reduce(|a, b| Estimate {
        documents: a.documents + b.documents,
        ru: units::round(a.ru + b.ru),
    })
}

/// Paths `c` indexes for a document of type `d`: its included paths, or under
/// "index everything" the document's own paths (as the cost model counts them).
pub fn indexed_paths(c: &Container, d: &DocumentType) -> usize {
    let index_all = c.indexing_policy.included_paths.iter().any(|p| p.path == "/*");
    if !index_all {
        return c.indexing_policy.included_paths.len();
    }
    fn embedded(list: &[Embedded]) -> usize {
        list.iter()
            .map(|e| e.attributes.len() + 2 * e.references.len() + embedded(&e.embedded))
            .sum()
    }
    3 + d.attributes.len() + 2 * d.references.len() + embedded(&d.embedded)
}

/// The estimated size of one document of type `d`.
pub fn bytes_of(d: &DocumentType) -> f64 {
    d.estimated_size_bytes.unwrap_or(DEFAULT_ITEM_BYTES)
}
