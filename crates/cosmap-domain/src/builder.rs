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

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.spec.description = Some(description.into());
        self
    }

    /// Adds an entity.
    pub fn entity(mut self, entity: Entity) -> Self {
        self.spec.entities.push(entity);
        self
    }

    /// Adds a value object.
    pub fn value_object(mut self, value_object: ValueObject) -> Self {
        self.spec.value_objects.push(value_object);
        self
    }

    /// Adds an aggregate.
    pub fn aggregate(mut self, aggregate: Aggregate) -> Self {
        self.spec.aggregates.push(aggregate);
        self
    }

    /// Adds a relationship.
    pub fn relationship(mut self, relationship: Relationship) -> Self {
        self.spec.relationships.push(relationship);
        self
    }

    /// Adds an access pattern.
    pub fn access_pattern(mut self, pattern: AccessPattern) -> Self {
        self.spec.access_patterns.push(pattern);
        self
    }

    /// Overrides thresholds for this model.
    pub fn thresholds(mut self, thresholds: ThresholdOverrides) -> Self {
        self.spec.thresholds = Some(thresholds);
        self
    }

    /// Pins a choice of the mapper's search (see [`crate::Pin`]).
    pub fn pin(mut self, pin: Pin) -> Self {
        self.spec.pins.push(pin);
        self
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
