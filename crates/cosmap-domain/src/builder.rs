//! [`ModelBuilder`]: the Rust way to declare a model, producing the same
//! [`DomainModel`] as a model file (used by tests and build scripts).

use crate::diagnostic::ModelError;
use crate::model::{
    AccessPattern, Aggregate, Entity, ModelSpec, Pin, Relationship, ThresholdOverrides, Throughput, ValueObject,
};
use crate::DomainModel;

/// Assembles a [`ModelSpec`] step by step and validates it on [`ModelBuilder::build`].
///
/// ```
/// use cosmap_domain::{Aggregate, Attribute, AttributeType, Entity, ModelBuilder};
///
/// let model = ModelBuilder::new("Shop")
///     .entity(Entity::new("Customer", "customerId").attribute(Attribute::new("email", AttributeType::String)))
///     .aggregate(Aggregate::new("Customer"))
///     .build()
///     .unwrap();
/// assert_eq!(model.entities().len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct ModelBuilder {
    spec: ModelSpec,
}

impl ModelBuilder {
    /// An empty model called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        ModelBuilder {
            spec: ModelSpec {
                schema: None,
                name: name.into(),
                description: None,
                entities: Vec::new(),
                value_objects: Vec::new(),
                aggregates: Vec::new(),
                relationships: Vec::new(),
                access_patterns: Vec::new(),
                thresholds: None,
                pins: Vec::new(),
            },
        }
    }

    setters! {
        /// Sets the description.
        description(description: impl Into<String>) => some_into spec.description;
        /// Adds an entity.
        entity(entity: Entity) => push spec.entities;
        /// Adds a value object.
        value_object(value_object: ValueObject) => push spec.value_objects;
        /// Adds an aggregate.
        aggregate(aggregate: Aggregate) => push spec.aggregates;
        /// Adds a relationship.
        relationship(relationship: Relationship) => push spec.relationships;
        /// Adds an access pattern.
        access_pattern(pattern: AccessPattern) => push spec.access_patterns;
        /// Overrides thresholds for this model.
        thresholds(thresholds: ThresholdOverrides) => some spec.thresholds;
        /// Pins a choice of the mapper's search (see [`crate::Pin`]).
        pin(pin: Pin) => push spec.pins;
    }
    /// Sets the throughput the account will provision (`thresholds.throughput`), keeping
    /// the other threshold overrides: it sets each container's physical partitions.
    pub fn throughput(mut self, throughput: Throughput) -> Self {
        let mut thresholds = self.spec.thresholds.unwrap_or_default();
        thresholds.throughput = Some(throughput);
        self.spec.thresholds = Some(thresholds);
        self
    }

    /// The model as declared so far, unvalidated.
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// Validates and returns the model, or every problem found.
    pub fn build(self) -> Result<DomainModel, ModelError> {
        DomainModel::new(self.spec).map_err(|diagnostics| ModelError::Invalid {
            origin: None,
            diagnostics,
        })
    }
}
