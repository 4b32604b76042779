//! Resolves each access pattern against a logical model: finds where its data
//! lives (home documents and copies), picks the cheapest way to run it, and
//! writes the SQL.

use cosmap_domain::{AccessKind, AccessPattern, AttributeType, DomainModel, FilterOp, WriteOperation};

use std::collections::BTreeMap;

use super::locate::{index, Location, Step};
use super::sql::{self, Condition};
use super::{Action, Operation, Parameter, PropertyPath, Purpose, Request, ValueSource, WriteKind};

mod filter;
mod follow;
mod keep;
mod read;
mod write;

use filter::{condition, filter, find_property, index_path, sort_path, unfound};
use follow::{count, follow, follow_reference, read_listed};
use keep::{refresh_ancestors, refresh_extended, update_counts, update_subsets};
use read::read;
use write::write;

use crate::logical_model::{
    ClaimOf, Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Keeping, PartitionKeyValue,
    PropertyHolder, Role,
};
pub use follow::{listed_as_point_reads, listed_parameter};
pub use keep::{extended_reference_sync, worker_queries};
pub(crate) use write::members;

/// The operations of every access pattern of `model` on `containers`, by pattern name.
pub(crate) fn resolve(model: &DomainModel, containers: &[Container]) -> Vec<Operation> {
    let mut patterns: Vec<&AccessPattern> = model.access_patterns().iter().collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    let places = index(containers);
    let keepers = keepers(containers);
    let subsets = subsets(containers);
    // The claims containers, found once: a write looks only at them.
    let claims: Vec<&Container> = containers.iter().filter(|k| k.kind == ContainerKind::Claims).collect();
    let one = |p: &&AccessPattern| match p.kind {
        AccessKind::Read => read(&places, &subsets, p).map(|mut op| {
            op.parameters = parameters(model, p);
            op
        }),
        AccessKind::Write => write(model, &places, &claims, &keepers, p),
    };
    let mut operations: Vec<Operation> = patterns.iter().filter_map(one).collect();
    super::live::leave_out_expiring(&mut operations, containers);
    operations.iter_mut().for_each(Operation::compact);
    operations
}

/// The parameters a read's caller gives: each filter's, typed by the attribute it
/// compares (text for an identity); an `in` filter takes a list.
fn parameters(model: &DomainModel, p: &AccessPattern) -> Vec<Parameter> {
    let mut out: Vec<Parameter> = Vec::new();
    for filter in p.filters().into_iter().flatten() {
        let ty = model
            .filter_attribute(&p.start, filter.attribute)
            .map_or(AttributeType::String, |a| a.ty);
        for name in filter.parameters() {
            if !out.iter().any(|o| o.name == name) {
                out.push(Parameter {
                    name,
                    ty,
                    list: filter.op == FilterOp::In,
                });
            }
        }
    }
    out
}

/// The documents that keep something derived from other documents current (a count,
/// a subset, an extended reference kept in sync), with their containers: found once,
/// so that each write looks only at them.
type Keepers<'a> = Vec<(&'a Container, &'a DocumentType)>;

fn keepers(containers: &[Container]) -> Keepers<'_> {
    containers
        .iter()
        .flat_map(|c| c.document_types.iter().map(move |d| (c, d)))
        .filter(|(_, d)| {
            !d.computed.is_empty()
                || d.embedded.iter().any(|e| e.subset.is_some())
                || d.references
                    .iter()
                    .any(|r| r.extended.as_ref().is_some_and(|e| e.sync.is_some()))
        })
        .collect()
}

/// The subsets (`subset`) by the pattern each serves, with their parents.
type Subsets<'a> = BTreeMap<&'a str, (&'a Container, &'a DocumentType, &'a Embedded)>;

fn subsets(containers: &[Container]) -> Subsets<'_> {
    let mut out = BTreeMap::new();
    for c in containers {
        for d in &c.document_types {
            for e in &d.embedded {
                if let Some(of) = &e.subset {
                    out.entry(of.serves.as_str()).or_insert((c, d, e));
                }
            }
        }
    }
    out
}

/// Where each element lives (see [`index`]).
type Places<'a> = cosmap_domain::NameMap<&'a str, Vec<Location<'a>>>;

/// The places of `element`; with `copies` unset, its home documents only.
fn places<'p, 'a>(places: &'p Places<'a>, element: &str, copies: bool) -> impl Iterator<Item = &'p Location<'a>> {
    places
        .get(element)
        .into_iter()
        .flatten()
        .filter(move |l| l.document.role != Role::Claim && (copies || l.document.role != Role::Copy))
}

/// How one filter attribute is met in a document.
enum Match {
    /// A level of the partition key (0 unless it is hierarchical).
    PartitionKey(usize),
    Id,
    Condition(Condition),
}

/// The partition key value `given` makes on a key of `levels` levels: the one value of
/// a single-path key, else the levels given (a prefix when fewer).
fn key_from(mut given: Vec<ValueSource>, levels: usize) -> ValueSource {
    if levels == 1 && given.len() == 1 {
        return given.remove(0);
    }
    ValueSource::Levels(given)
}

fn identity_of(d: &DocumentType) -> Option<&str> {
    d.id.attribute()
}
