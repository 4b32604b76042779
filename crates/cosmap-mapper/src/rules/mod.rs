//! Mapping rules MR1–MR6, one file each. MR1, MR2 and MR5 decide the containers;
//! MR3, MR4 and MR6 decide the document types inside them (driven by `assemble`).

pub(crate) mod indexing;
pub(crate) mod mr1_containers;
pub(crate) mod mr2_partition_keys;
pub(crate) mod mr3_entities;
pub(crate) mod mr4_value_objects;
pub(crate) mod mr5_dictionaries;
pub(crate) mod mr6_references;
pub(crate) mod unique_claims;
pub(crate) mod unique_keys;

use cosmap_domain::Aggregate;

use crate::decision::Rule;
use crate::logical_model::ContainerKind;

/// A container being planned: what it holds and what it is partitioned by.
#[derive(Debug, Clone)]
pub(crate) struct ContainerPlan<'m> {
    pub name: String,
    pub kind: ContainerKind,
    pub aggregates: Vec<&'m Aggregate>,
    pub partition_key_property: String,
    pub rules: Vec<Rule>,
}
