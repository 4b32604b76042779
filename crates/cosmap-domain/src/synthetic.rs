//! Synthetic models of any size, for benchmarks and property tests: `n`
//! aggregates of about ten entities and value objects each, with references
//! between aggregates, reference data, volumes and access patterns.

use crate::model::{
    AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Cardinality, ChangeRate, Entity, Growth, ModelSpec,
    Relationship, ValueObject, WriteOperation,
};
use crate::ModelBuilder;

/// A valid model of `aggregates` aggregates (every tenth one a small dictionary).
pub fn model(aggregates: usize) -> ModelSpec {
    let mut b = ModelBuilder::new(format!("Synthetic{aggregates}"));
    for i in 0..aggregates {
        b = if i % 10 == 9 {
            dictionary(b, i)
        } else {
            aggregate(b, i, aggregates)
        };
    }
    b.spec().clone()
}

/// A string attribute called `name`.
fn text(name: &str) -> Attribute {
    Attribute::new(name, AttributeType::String)
}

/// `b` with the `i`th aggregate a small dictionary (reference data).
fn dictionary(b: ModelBuilder, i: usize) -> ModelBuilder {
    let root = format!("Root{i}");
    b.entity(
        Entity::new(&root, format!("root{i}Id"))
            .attribute(text("label"))
            .attribute(text("code"))
            .reference_data(if i % 20 == 19 {
                ChangeRate::Never
            } else {
                ChangeRate::Rarely
            })
            .volume(100.0, 200.0),
    )
    .aggregate(Aggregate::new(&root))
}

/// `b` with the `i`th aggregate (of `aggregates`): a root, three parts, five value
/// objects, a reference to the next root and to its dictionary, and four patterns.
fn aggregate(b: ModelBuilder, i: usize, aggregates: usize) -> ModelBuilder {
    let root = format!("Root{i}");
    let id = format!("root{i}Id");
    let b = b.entity(
        Entity::new(&root, &id)
            .attribute(text("name"))
            .attribute(Attribute::new("createdAt", AttributeType::DateTime))
            .attribute(Attribute::new("total", AttributeType::Decimal).optional())
            .volume(1e6 * (1 + i % 7) as f64, 1500.0),
    );
    let (mut b, aggregate) = members(b, i, &root);
    b = b.aggregate(aggregate);
    let next = (i + 1) % aggregates;
    if next != i {
        b = b.relationship(Relationship::new(&root, format!("Root{next}"), Cardinality::One));
    }
    let dictionary = (i / 10) * 10 + 9;
    if dictionary < aggregates && dictionary != next {
        b = b.relationship(Relationship::new(
            format!("Detail{i}x0"),
            format!("Root{dictionary}"),
            Cardinality::One,
        ));
    }
    patterns(b, i, (next != i).then_some(next))
}

/// `b` with the `i`th aggregate's parts and value objects, and the aggregate of `root`
/// holding them.
fn members(mut b: ModelBuilder, i: usize, root: &str) -> (ModelBuilder, Aggregate) {
    let mut aggregate = Aggregate::new(root);
    for j in 0..3 {
        let part = format!("Part{i}x{j}");
        b = b
            .entity(
                Entity::new(&part, format!("part{i}x{j}Id"))
                    .attribute(text("title"))
                    .attribute(Attribute::new("quantity", AttributeType::Integer))
                    .volume(3e6, 500.0),
            )
            .relationship(Relationship::new(root, &part, Cardinality::Few).max(20));
        aggregate = aggregate.member(part);
    }
    let shapes = [
        Relationship::new(root, format!("Detail{i}x0"), Cardinality::One),
        Relationship::new(root, format!("Detail{i}x1"), Cardinality::Few).max(10),
        Relationship::new(root, format!("Detail{i}x2"), Cardinality::Many).growth(Growth::Unbounded),
        Relationship::new(root, format!("Detail{i}x3"), Cardinality::Few)
            .max(5)
            .updates_per_second(500.0),
        Relationship::new(format!("Part{i}x0"), format!("Detail{i}x4"), Cardinality::One),
    ];
    for (k, rel) in shapes.into_iter().enumerate() {
        let vo = format!("Detail{i}x{k}");
        b = b
            .value_object(
                ValueObject::new(&vo)
                    .attribute(text("kind"))
                    .attribute(Attribute::new("amount", AttributeType::Number))
                    .avg_size_bytes(120.0),
            )
            .relationship(rel);
        aggregate = aggregate.member(vo);
    }
    (b, aggregate)
}

/// `b` with the `i`th aggregate's access patterns (a read by the `next` root's id when
/// it refers to one).
fn patterns(b: ModelBuilder, i: usize, next: Option<usize>) -> ModelBuilder {
    let root = format!("Root{i}");
    let id = format!("root{i}Id");
    let b = b
        .access_pattern(AccessPattern::new(format!("root {i} by id"), AccessKind::Read, &root, 50.0).filter(&id))
        .access_pattern(
            AccessPattern::new(
                format!("parts of root {i}"),
                AccessKind::Read,
                format!("Part{i}x1"),
                20.0,
            )
            .filter(&id),
        )
        .access_pattern(
            AccessPattern::new(format!("save root {i}"), AccessKind::Write, &root, 5.0)
                .returns(&root)
                .returns(format!("Detail{i}x1"))
                .write(WriteOperation::Replace),
        );
    match next {
        Some(next) => b.access_pattern(
            AccessPattern::new(format!("roots {i} by next"), AccessKind::Read, &root, 15.0)
                .filter(format!("root{next}Id"))
                .sort("createdAt"),
        ),
        None => b,
    }
}

/// [`model`] as pretty-printed JSON, as a model file would hold it.
pub fn json(aggregates: usize) -> String {
    serde_json::to_string_pretty(&model(aggregates)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn synthetic_models_are_valid() {
        for n in [1, 2, 10, 25] {
            let spec = super::model(n);
            if let Err(problems) = crate::DomainModel::new(spec) {
                panic!("{n}: {problems:#?}");
            }
        }
        let text = super::json(12);
        assert!(crate::from_slice(text.as_bytes(), None).is_ok());
    }
}
