//! MR4's fixed part: what a containment relationship alone says about embedding a
//! value object, whatever the thresholds. The mapper's MR4 starts from it and
//! validation uses it to tell which names a value object's document may take, so
//! the two cannot drift apart.

use std::fmt;

use crate::model::{Cardinality, Growth, Relationship};

/// Why a relationship has no useful bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unbounded {
    /// One-to-squillions.
    Squillions,
    /// Declared `growth: unbounded`.
    Grows,
    /// A list (`few`, `many`, `manyToMany`) without `max`.
    NoMax(Cardinality),
}

impl fmt::Display for Unbounded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unbounded::Squillions => f.write_str("it has no useful bound (one-to-squillions)"),
            Unbounded::Grows => f.write_str("it grows without a useful bound"),
            Unbounded::NoMax(c) => write!(f, "a `{}` without `max` has no known bound", c.as_str()),
        }
    }
}

/// The bound a containment relationship puts on its targets per source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// At most this many (1 for `one`).
    AtMost(u64),
    /// No useful bound: never embedded.
    Unbounded(Unbounded),
}

/// The bound of `rel`.
pub fn bound(rel: &Relationship) -> Bound {
    if rel.cardinality == Cardinality::Squillions {
        return Bound::Unbounded(Unbounded::Squillions);
    }
    if rel.growth == Some(Growth::Unbounded) {
        return Bound::Unbounded(Unbounded::Grows);
    }
    match (rel.cardinality, rel.max) {
        (Cardinality::One, _) => Bound::AtMost(1),
        (_, Some(max)) => Bound::AtMost(max),
        (c, None) => Bound::Unbounded(Unbounded::NoMax(c)),
    }
}

/// What MR4 decides for a value object whatever the thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixedPlacement {
    /// One per parent, never updated by itself and of no declared size: no
    /// threshold separates it (`fewMaxItems` is at least 1).
    AlwaysEmbedded,
    /// No useful bound: no threshold embeds it.
    AlwaysSeparated(Unbounded),
    /// The thresholds and the workload decide.
    Either,
}

/// MR4's fixed part for the value object `rel.to`, of declared size `child_bytes`.
pub fn fixed_placement(rel: &Relationship, child_bytes: Option<f64>) -> FixedPlacement {
    if let Bound::Unbounded(why) = bound(rel) {
        return FixedPlacement::AlwaysSeparated(why);
    }
    let updated = rel.updates_per_second.is_some_and(|rate| rate > 0.0);
    if rel.cardinality == Cardinality::One && !updated && child_bytes.is_none() {
        FixedPlacement::AlwaysEmbedded
    } else {
        FixedPlacement::Either
    }
}
