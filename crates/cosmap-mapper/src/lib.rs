//! # cosmap-mapper
//!
//! The second stage of cosmap's flow: **`DomainModel` → `LogicalModel`**.
//!
//! [`map`] applies the mapping rules MR1–MR6 (containers, partition keys,
//! document types, embedding, dictionaries, references) and then the physical
//! optimisations driven by access-pattern statistics (copies into the container
//! a hot query filters by; embedded never-changing reference data). Every
//! decision is recorded with its rule and evidence in [`LogicalModel::decisions`].
//! The function is pure and deterministic: the same model gives the same logical
//! model whatever the declaration order. Rendering (`cosmap-codegen`) and
//! provisioning (`cosmap-provision`) consume its output.

mod assemble;
pub mod cost;
mod decision;
mod logical_model;
pub mod operations;
mod optimise;
mod options;
mod overrides;
mod physical;
mod rules;
mod statistics;

pub use decision::{Decision, Rule};
pub use logical_model::{
    Container, ContainerKind, CopyOf, DocumentType, Embedded, EmbeddedKind, IdSource, LogicalModel, ParentLink,
    PartitionKey, PartitionKeyValue, Property, Reference, Role, FORMAT_VERSION,
};
pub use options::{
    Options, Thresholds, LOGICAL_PARTITION_BYTES, LOGICAL_PARTITION_RU_PER_SECOND, MAX_ITEM_BYTES,
    PHYSICAL_PARTITION_BYTES,
};
pub use overrides::overridden_by;
pub use physical::{CompositePath, ContainerDefinition, IndexPath, IndexingPolicy, UniqueKey, UniqueKeyPolicy};
pub use statistics::{human_bytes, human_rate};

use cosmap_domain::DomainModel;

/// Maps a validated domain model to a Cosmos DB logical model.
pub fn map(model: &DomainModel, options: &Options) -> LogicalModel {
    let thresholds = Thresholds::default()
        .with(&model.thresholds())
        .with(&options.thresholds);
    let stats = statistics::Statistics::new(model);
    let mut trace = decision::Trace::default();
    let mut plans = rules::mr1_containers::containers(model, &mut trace);
    rules::mr2_partition_keys::partition(model, &mut plans, &mut trace);
    let plans = rules::mr5_dictionaries::share(
        model,
        &thresholds,
        &stats,
        &options.dictionary_container,
        plans,
        &mut trace,
    );
    let mut assembler = assemble::Assembler::new(model, &thresholds, &stats, &plans, &mut trace);
    let mut containers: Vec<Container> = plans.iter().map(|plan| assembler.container(plan)).collect();
    if options.optimise {
        optimise::copy::apply(model, &thresholds, &stats, &mut containers, &mut trace);
        optimise::embed_reference_data::apply(model, &mut containers, &mut trace);
    }
    for container in &mut containers {
        rules::unique_keys::apply(container, &mut trace);
    }
    let operations = operations::resolve(model, &containers);
    if !options.index_all {
        rules::indexing::apply(&mut containers, &operations, &mut trace);
    }
    LogicalModel {
        format_version: FORMAT_VERSION,
        model: model.name().to_string(),
        thresholds,
        containers,
        operations,
        decisions: trace.finish(),
    }
}

/// The `type` discriminator value of a document type: its name in lowerCamelCase.
pub fn discriminator(name: &str) -> String {
    cosmap_domain::naming::lower_camel(name)
}
