//! A proptest strategy for *valid* cosmap domain models, and declaration-order
//! permutations of them.
//!
//! Self-contained (it needs only `proptest`, `cosmap_domain` and `serde_json`), so
//! the mapper's and the codegen's property tests and
//! `examples/generated-compile/build.rs` all include it with `#[path = …] mod strategy;`.
//!
//! [`model_spec`] draws a *blueprint* ([`Raw`]: sizes, choices and indices) and
//! [`build`] turns it into a [`ModelSpec`] deterministically, repairing whatever the
//! validator would reject (a clashing property name, a `max` on a `one`
//! relationship, …), so every drawn model is valid and shrinking stays valid too.
//! The models have 1–8 aggregates, each a root entity with member entities and
//! value objects (a containment tree, so no cycles), relationships of every
//! cardinality (`max`, growth, `updatesPerSecond`), reference data, volumes,
//! TTLs, references across aggregates, occasional threshold overrides, and
//! access patterns of every kind (read by id, queries with filters and sorts,
//! writes that create, replace or delete). Names mix realistic ones with Rust
//! keywords and prelude names, and names that collide once converted
//! (`HttpServer`/`HTTPServer`, `aBC`/`aBc`), never two of these in one place
//! (validation refuses two names that give one Rust identifier).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::naming::{lower_camel, NON_RAW_KEYWORDS, RESERVED_PROPERTIES};
use cosmap_domain::{
    AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Cardinality, ChangeRate, Entity, Growth,
    ModelBuilder, ModelSpec, Relationship, ThresholdOverrides, ValueObject, Volume, WriteOperation,
};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// Type names: realistic ones, Rust keywords and prelude names, cosmap's own
/// generated names, and pairs that collide in snake_case.
pub const TYPE_NAMES: &[&str] = &[
    "Account",
    "Order",
    "Customer",
    "Product",
    "Invoice",
    "Payment",
    "Shipment",
    "Warehouse",
    "Country",
    "Currency",
    "Address",
    "LineItem",
    "Contact",
    "Review",
    "Category",
    "Price",
    "Discount",
    "Supplier",
    "Parcel",
    "Device",
    "Sensor",
    "Reading",
    "Tenant",
    "Article",
    "Comment",
    "TaxRate",
    "OrderStatusHistory",
    "CreditCard",
    "DeliveryMethod",
    "Status",
    "HttpServer",
    "HTTPServer",
    "Type",
    "TYPE",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "Clone",
    "Into",
    "Default",
    "Super",
    "Crate",
    "Some",
    "None",
    "Ok",
    "Fn",
    "Match",
    "Impl",
    "Kind",
    "Types",
    "Copy",
    "Sized",
    "Iterator",
    "Dictionary",
    "DictionaryContainer",
    "AccountRef",
    "OrderDocument",
    "OrderCopy",
    "Id",
    "Ttl",
    "CONTAINER",
];

/// Attribute names: realistic ones, Rust keywords (raw identifiers), prelude
/// names, and names that share a snake_case form.
pub const ATTRIBUTE_NAMES: &[&str] = &[
    "name",
    "createdAt",
    "updatedAt",
    "status",
    "total",
    "quantity",
    "email",
    "label",
    "code",
    "sku",
    "price",
    "amount",
    "note",
    "title",
    "version",
    "active",
    "rating",
    "tags",
    "kind",
    "value",
    "city",
    "address2Line",
    "aBC",
    "aBc",
    "partitionKey",
    "match",
    "loop",
    "async",
    "await",
    "fn",
    "where",
    "impl",
    "dyn",
    "move",
    "ref",
    "static",
    "struct",
    "trait",
    "enum",
    "mod",
    "pub",
    "use",
    "box",
    "yield",
    "gen",
    "try",
    "abstract",
    "final",
    "override",
    "macro",
    "become",
    "typeof",
    "unsized",
    "virtual",
    "priv",
    "do",
    "in",
    "as",
    "if",
    "else",
    "for",
    "while",
    "let",
    "mut",
    "const",
    "break",
    "continue",
    "extern",
    "false",
    "true",
    "return",
    "unsafe",
    "option",
    "some",
    "none",
    "result",
    "string",
    "vec",
    "default",
    "clone",
    "into",
    "from",
];

/// Identity names other than the usual `<entity>Id` and the entity's own name
/// (see [`RawEntity::identity`]).
pub const IDENTITY_NAMES: &[&str] = &["code", "key", "sku", "slug", "handle", "loop", "ref", "number"];

/// Explicit relationship property names; some are also [`IDENTITY_NAMES`], so a
/// property may take the name of a partition key or a parent link where the
/// mapper makes no document that holds it twice.
pub const PROPERTY_NAMES: &[&str] = &[
    "primary", "main", "extra", "owner", "impl", "fn", "where", "items", "parent", "code", "key",
];

/// Model names (free text, shown in generated headers).
pub const MODEL_NAMES: &[&str] = &[
    "Shop",
    "Fleet",
    "Publishing",
    "Shop & Co",
    "O'Brien \"quoted\" model",
    "Café ünïcode 🚀",
    "{{braces}} <tags> `ticks`",
    "back\\slash */ /*",
];

/// The blueprint of a model; [`build`] makes it a valid [`ModelSpec`].
#[derive(Debug, Clone)]
pub struct Raw {
    name: usize,
    description: bool,
    thresholds: Option<RawThresholds>,
    aggregates: Vec<RawAggregate>,
    references: Vec<RawReference>,
    patterns: Vec<RawPattern>,
    /// Frequent reads through a reference of their own: what the copy optimisation looks for.
    hot: Vec<RawHot>,
    /// Trees: a root's optional link to itself, read as the path to the root
    /// (`treeAncestors`).
    trees: Vec<RawTree>,
}

/// An optional `one` link from a root to itself (a tree) of `depth` ancestors at most,
/// a read of the ancestors (with a string attribute of theirs, when `with_attribute`
/// and the root has one) and a replace of the root, at their rates.
#[derive(Debug, Clone)]
pub struct RawTree {
    aggregate: Index,
    depth: u64,
    with_attribute: bool,
    reads_per_second: f64,
    writes_per_second: f64,
}

fn tree() -> impl Strategy<Value = RawTree> {
    (
        any::<Index>(),
        1u64..8,
        any::<bool>(),
        per_second(),
        select(vec![0.0, 0.01, 1.0, 100.0]),
    )
        .prop_map(
            |(aggregate, depth, with_attribute, reads_per_second, writes_per_second)| RawTree {
                aggregate,
                depth,
                with_attribute,
                reads_per_second,
                writes_per_second,
            },
        )
}

/// A frequent read of a large aggregate's node filtering on the identity of
/// another root it refers to once (the "orders of an account" shape): the
/// reference, the pattern and volumes that make the source large and keep the
/// target out of the dictionary container.
#[derive(Debug, Clone)]
pub struct RawHot {
    link: RawLink,
    per_second: f64,
}

/// A node of one aggregate (by position) and another aggregate whose root it refers to.
#[derive(Debug, Clone)]
pub struct RawLink {
    from_aggregate: Index,
    from_node: Index,
    to_aggregate: Index,
}

#[derive(Debug, Clone)]
pub struct RawThresholds {
    few_max_items: Option<u64>,
    frequent_per_second: Option<f64>,
    large_container_bytes: Option<f64>,
    update_ratio: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct RawAggregate {
    root: RawEntity,
    members: Vec<RawMember>,
    explicit_name: bool,
    ttl: Option<i64>,
    reference_data: Option<ChangeRate>,
}

#[derive(Debug, Clone)]
pub struct RawEntity {
    name: usize,
    /// `None`: `<entity>Id`; `Some(IDENTITY_NAMES.len())`: the entity's name in
    /// lowerCamelCase (`Match` → `match`), so a reference to it (named so by
    /// default) has the name of the partition key its identity gives (the mapper
    /// renames it `…Ref` in a member of its aggregate, and makes no copy that would
    /// hold it twice); otherwise an index into [`IDENTITY_NAMES`].
    identity: Option<usize>,
    attributes: Vec<RawAttribute>,
    volume: Option<(f64, f64)>,
}

#[derive(Debug, Clone)]
pub struct RawAttribute {
    name: usize,
    ty: AttributeType,
    optional: bool,
    many: bool,
    unique: bool,
}

#[derive(Debug, Clone)]
pub enum RawMember {
    Entity {
        entity: RawEntity,
        /// The node (root or an earlier member) that holds it, if the model says so.
        parent: Option<(Index, RawShape)>,
    },
    ValueObject {
        name: usize,
        attributes: Vec<RawAttribute>,
        volume: Option<(Option<f64>, f64)>,
        /// The node (root or an earlier member) that holds it.
        parent: Index,
        shape: RawShape,
        /// Also an attribute named like the parent entity's identity (kept where
        /// validation allows it: see [`build`]).
        parent_identity: bool,
    },
}

#[derive(Debug, Clone)]
pub struct RawShape {
    cardinality: Cardinality,
    max: Option<u64>,
    growth: Option<Growth>,
    updates_per_second: Option<f64>,
    /// Give the relationship an explicit property: an index into
    /// [`PROPERTY_NAMES`]; `PROPERTY_NAMES.len()` for the name of the partition
    /// key of the `from` element's aggregate (its root's identity); above, the
    /// name of another (or the same) root's identity, by position.
    property: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct RawReference {
    link: RawLink,
    shape: RawShape,
}

#[derive(Debug, Clone)]
pub struct RawPattern {
    start: Index,
    kind: AccessKind,
    write: Option<WriteOperation>,
    filter: Vec<Index>,
    sort: Vec<Index>,
    returns: Vec<Index>,
    per_second: f64,
    name: usize,
}

fn attribute_type() -> impl Strategy<Value = AttributeType> {
    select(vec![
        AttributeType::String,
        AttributeType::Integer,
        AttributeType::Number,
        AttributeType::Decimal,
        AttributeType::Boolean,
        AttributeType::DateTime,
        AttributeType::Date,
        AttributeType::Uuid,
    ])
}

fn raw_attribute() -> impl Strategy<Value = RawAttribute> {
    (
        0..ATTRIBUTE_NAMES.len(),
        attribute_type(),
        prop::bool::weighted(0.25),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(name, ty, optional, many, unique)| RawAttribute {
            name,
            ty,
            optional,
            many,
            // A unique boolean is refused (at most two instances could exist).
            unique: unique && ty != AttributeType::Boolean,
        })
}

fn attributes() -> impl Strategy<Value = Vec<RawAttribute>> {
    prop::collection::vec(raw_attribute(), 0..5)
}

/// Instance counts and sizes, including fractional ones and counts whose byte
/// totals are past 2^53 (so float sums would show their order).
fn entity_volume() -> impl Strategy<Value = Option<(f64, f64)>> {
    prop::option::weighted(
        0.7,
        (
            select(vec![
                1.0, 12.0, 100.0, 1234.5, 1e4, 1e6, 3.3e7, 1e8, 2.5e9, 1e11, 7.77e12,
            ]),
            select(vec![
                64.0,
                100.0,
                333.3,
                512.5,
                1500.0,
                20_000.0,
                300_000.0,
                1_900_000.0,
            ]),
        ),
    )
}

fn vo_volume() -> impl Strategy<Value = Option<(Option<f64>, f64)>> {
    prop::option::weighted(
        0.6,
        (
            prop::option::weighted(0.2, select(vec![10.0, 1e6, 4.2e9])),
            select(vec![16.0, 120.0, 99.9, 2048.0, 60_000.0, 500_000.0]),
        ),
    )
}

fn raw_entity() -> impl Strategy<Value = RawEntity> {
    (
        0..TYPE_NAMES.len(),
        prop_oneof![
            7 => Just(None),
            2 => (0..IDENTITY_NAMES.len()).prop_map(Some),
            1 => Just(Some(IDENTITY_NAMES.len())),
        ],
        attributes(),
        entity_volume(),
    )
        .prop_map(|(name, identity, attributes, volume)| RawEntity {
            name,
            identity,
            attributes,
            volume,
        })
}

fn shape() -> impl Strategy<Value = RawShape> {
    (
        select(vec![
            Cardinality::One,
            Cardinality::Few,
            Cardinality::Many,
            Cardinality::Squillions,
            Cardinality::ManyToMany,
        ]),
        prop::option::weighted(0.6, select(vec![1u64, 2, 3, 5, 10, 20, 100, 101, 500, 100_000])),
        prop::option::weighted(0.3, select(vec![Growth::Bounded, Growth::Unbounded])),
        prop::option::weighted(0.3, select(vec![0.0, 0.5, 1.0, 20.0, 500.0, 10_000.0])),
        prop_oneof![
            80 => Just(None),
            12 => (0..PROPERTY_NAMES.len()).prop_map(Some),
            5 => Just(Some(PROPERTY_NAMES.len())),
            3 => (PROPERTY_NAMES.len() + 1..PROPERTY_NAMES.len() + 9).prop_map(Some),
        ],
    )
        .prop_map(|(cardinality, max, growth, updates_per_second, property)| RawShape {
            cardinality,
            max,
            growth,
            updates_per_second,
            property,
        })
}

fn member() -> impl Strategy<Value = RawMember> {
    prop_oneof![
        1 => (raw_entity(), prop::option::weighted(0.7, (any::<Index>(), shape())))
            .prop_map(|(entity, parent)| RawMember::Entity { entity, parent }),
        2 => (
            0..TYPE_NAMES.len(),
            attributes(),
            vo_volume(),
            any::<Index>(),
            shape(),
            prop::bool::weighted(0.5),
        )
            .prop_map(|(name, attributes, volume, parent, shape, parent_identity)| RawMember::ValueObject {
                name,
                attributes,
                volume,
                parent,
                shape,
                parent_identity,
            }),
    ]
}

fn aggregate() -> impl Strategy<Value = RawAggregate> {
    (
        raw_entity(),
        // About a third are orphans (no members): dictionaries and reference data.
        prop_oneof![1 => Just(0usize), 2 => 1usize..6].prop_flat_map(|n| prop::collection::vec(member(), n)),
        prop::bool::weighted(0.15),
        prop::option::weighted(0.15, select(vec![-1i64, 1, 3600, i64::from(i32::MAX)])),
        prop::option::weighted(0.4, select(vec![ChangeRate::Never, ChangeRate::Rarely])),
    )
        .prop_map(|(root, members, explicit_name, ttl, reference_data)| RawAggregate {
            root,
            members,
            explicit_name,
            ttl,
            reference_data,
        })
}

fn link() -> impl Strategy<Value = RawLink> {
    (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(|(from_aggregate, from_node, to_aggregate)| RawLink {
        from_aggregate,
        from_node,
        to_aggregate,
    })
}

fn reference() -> impl Strategy<Value = RawReference> {
    (link(), shape()).prop_map(|(link, shape)| RawReference { link, shape })
}

fn per_second() -> impl Strategy<Value = f64> {
    select(vec![0.0, 0.1, 1.0, 5.0, 10.0, 20.0, 50.0, 100.0, 500.0, 2000.0])
}

fn pattern() -> impl Strategy<Value = RawPattern> {
    (
        any::<Index>(),
        select(vec![AccessKind::Read, AccessKind::Write]),
        prop::option::of(select(vec![
            WriteOperation::Create,
            WriteOperation::Replace,
            WriteOperation::Delete,
        ])),
        prop::collection::vec(any::<Index>(), 0..3),
        prop::collection::vec(any::<Index>(), 0..3),
        prop::collection::vec(any::<Index>(), 0..3),
        per_second(),
        0..PATTERN_NAMES.len(),
    )
        .prop_map(
            |(start, kind, write, filter, sort, returns, per_second, name)| RawPattern {
                start,
                kind,
                write,
                filter,
                sort,
                returns,
                per_second,
                name,
            },
        )
}

fn thresholds() -> impl Strategy<Value = RawThresholds> {
    (
        prop::option::of(select(vec![1u64, 5, 20, 1000])),
        prop::option::of(select(vec![1.0, 10.0, 1000.0])),
        prop::option::of(select(vec![1e6, 1e9, 1e12])),
        prop::option::of(select(vec![0.5, 10.0, 100.0])),
    )
        .prop_map(
            |(few_max_items, frequent_per_second, large_container_bytes, update_ratio)| RawThresholds {
                few_max_items,
                frequent_per_second,
                large_container_bytes,
                update_ratio,
            },
        )
}

fn hot() -> impl Strategy<Value = RawHot> {
    (link(), select(vec![10.0, 50.0, 400.0])).prop_map(|(link, per_second)| RawHot { link, per_second })
}

/// Blueprints of models with 1–8 aggregates.
pub fn raw() -> impl Strategy<Value = Raw> {
    (
        0..MODEL_NAMES.len(),
        any::<bool>(),
        prop::option::weighted(0.2, thresholds()),
        prop::collection::vec(aggregate(), 1..=8),
        prop::collection::vec(reference(), 0..8),
        prop::collection::vec(pattern(), 0..10),
        prop::collection::vec(hot(), 0..3),
        prop::collection::vec(tree(), 0..2),
    )
        .prop_map(
            |(name, description, thresholds, aggregates, references, patterns, hot, trees)| Raw {
                name,
                description,
                thresholds,
                aggregates,
                references,
                patterns,
                hot,
                trees,
            },
        )
}

/// Valid domain models (checked: a model the validator rejects is a bug here).
pub fn model_spec() -> impl Strategy<Value = ModelSpec> {
    raw().prop_map(|raw| build(&raw))
}

/// Pattern name templates; `{}` is the start element.
const PATTERN_NAMES: &[&str] = &[
    "{} by id",
    "list {}",
    "save {}",
    "{} of an owner",
    "\"{}\" — détails ✓",
    "{} {{braces}} <b>",
    "{}: back\\slash",
];

/// A unique element name from the pool: `Order`, then `Order2`, `Order3`, ….
/// Unique ignoring case too (validation refuses `Type` beside `TYPE`: one file name on
/// a case-insensitive file system), so `TYPE` after `Type` becomes `TYPE2`.
fn unique_type_name(pool_index: usize, used: &mut BTreeSet<String>) -> String {
    let base = TYPE_NAMES[pool_index % TYPE_NAMES.len()];
    let mut name = base.to_string();
    let mut n = 1;
    while used.contains(&name.to_ascii_lowercase()) {
        n += 1;
        name = format!("{base}{n}");
    }
    used.insert(name.to_ascii_lowercase());
    name
}

/// Attributes without duplicates, even by case (`aBC`/`aBc` give one Rust field,
/// which validation refuses), and without the names in `forbidden`.
fn attribute_list(raw: &[RawAttribute], forbidden: &[&str]) -> Vec<Attribute> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for a in raw {
        let name = ATTRIBUTE_NAMES[a.name % ATTRIBUTE_NAMES.len()];
        if forbidden.contains(&name) || !seen.insert(name.to_ascii_lowercase()) {
            continue;
        }
        let mut attribute = Attribute::new(name, a.ty);
        attribute.optional = a.optional;
        attribute.many = a.many;
        attribute.unique = a.unique;
        out.push(attribute);
    }
    out
}

fn identity(raw: &RawEntity, name: &str) -> String {
    let own = format!("{}Id", lower_camel(name));
    match raw.identity {
        Some(i) if i == IDENTITY_NAMES.len() => {
            let named = lower_camel(name);
            // `Type` → `type`, `Super` → `super`: not a name an identity can have.
            if RESERVED_PROPERTIES.contains(&named.as_str()) || NON_RAW_KEYWORDS.contains(&named.as_str()) {
                own
            } else {
                named
            }
        }
        Some(i) => IDENTITY_NAMES[i % IDENTITY_NAMES.len()].to_string(),
        None => own,
    }
}

/// What MR4 decides for a value object held through `rel` (of `size` bytes when
/// declared) whatever the thresholds, as validation judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mr4 {
    /// One per parent, never updated by itself, of no declared size.
    AlwaysEmbedded,
    /// No useful bound: `squillions`, unbounded growth, a list without `max`.
    AlwaysSeparated,
    /// The thresholds and the statistics decide.
    Either,
}

fn mr4(rel: &Relationship, size: Option<f64>) -> Mr4 {
    let bounded = rel.cardinality == Cardinality::One || rel.max.is_some();
    if rel.cardinality == Cardinality::Squillions || rel.growth == Some(Growth::Unbounded) || !bounded {
        Mr4::AlwaysSeparated
    } else if rel.cardinality == Cardinality::One && rel.updates_per_second.unwrap_or(0.0) <= 0.0 && size.is_none() {
        Mr4::AlwaysEmbedded
    } else {
        Mr4::Either
    }
}

fn volume(raw: Option<(f64, f64)>) -> Option<Volume> {
    raw.map(|(count, size)| Volume {
        count: Some(count),
        avg_size_bytes: Some(size),
    })
}

/// A relationship with the raw shape, repaired so the validator accepts it.
fn relationship(from: &str, to: &str, shape: &RawShape) -> Relationship {
    let mut rel = Relationship::new(from, to, shape.cardinality);
    rel.max = match shape.cardinality {
        Cardinality::One | Cardinality::Squillions => None,
        Cardinality::Few => Some(shape.max.unwrap_or(3)),
        Cardinality::Many | Cardinality::ManyToMany => shape.max,
    };
    rel.growth = match (shape.growth, rel.max) {
        (Some(Growth::Unbounded), Some(_)) => Some(Growth::Bounded),
        (growth, _) => growth,
    };
    rel.updates_per_second = shape.updates_per_second;
    rel
}

/// Gives `rel` an explicit property when asked to (`keys`: the partition key of
/// `rel.from`'s aggregate, then every root's identity), or when its default one
/// is reserved, `forbidden` or already taken on `rel.from`; records the property
/// as taken.
fn name_property(
    rel: &mut Relationship,
    shape: &RawShape,
    keys: &[String],
    taken: &mut BTreeMap<String, BTreeSet<String>>,
    forbidden: &[&str],
) {
    let props = taken.entry(rel.from.clone()).or_default();
    let wanted = match shape.property {
        Some(i) if i < PROPERTY_NAMES.len() => PROPERTY_NAMES[i].to_string(),
        Some(i) => keys[(i - PROPERTY_NAMES.len()) % keys.len()].clone(),
        None => rel.property_name(),
    };
    let free = |p: &str| !props.contains(p) && !RESERVED_PROPERTIES.contains(&p) && !forbidden.contains(&p);
    let mut property = wanted.clone();
    let mut n = 1;
    while !free(&property) {
        n += 1;
        property = format!("{wanted}{n}");
    }
    if shape.property.is_some() || property != rel.property_name() {
        rel.property = Some(property.clone());
    }
    props.insert(property);
}

/// A plain `one` relationship's shape: no bound, growth, rate or property name.
fn one() -> RawShape {
    RawShape {
        cardinality: Cardinality::One,
        max: None,
        growth: None,
        updates_per_second: None,
        property: None,
    }
}

/// One element of the model being built.
struct Node {
    name: String,
    aggregate: usize,
}

/// The valid model that `raw` describes.
pub fn build(raw: &Raw) -> ModelSpec {
    let mut used = BTreeSet::new();
    let mut builder = ModelBuilder::new(MODEL_NAMES[raw.name % MODEL_NAMES.len()]);
    if raw.description {
        builder = builder.description("Generated by the property tests' strategy.");
    }
    if let Some(t) = &raw.thresholds {
        builder = builder.thresholds(ThresholdOverrides {
            few_max_items: t.few_max_items,
            frequent_per_second: t.frequent_per_second,
            large_container_bytes: t.large_container_bytes,
            update_ratio: t.update_ratio,
            ..ThresholdOverrides::default()
        });
    }
    // Properties taken on each element: identity, attributes, relationship properties.
    let mut taken: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Per aggregate: its nodes (root first) and its root's identity.
    let mut nodes: Vec<Vec<String>> = Vec::new();
    let mut roots: Vec<(String, String)> = Vec::new();
    let mut all: Vec<Node> = Vec::new();
    let mut identities: BTreeMap<String, String> = BTreeMap::new();
    // The parent link each member entity held by another member entity carries.
    let mut links: BTreeMap<String, String> = BTreeMap::new();
    let mut aggregate_names = BTreeSet::new();
    let mut relationships: Vec<Relationship> = Vec::new();
    // Value objects MR4 may separate, with the parent link their document carries.
    let mut separable: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut aggregates = Vec::new();
    let root_names: Vec<String> = raw
        .aggregates
        .iter()
        .map(|a| unique_type_name(a.root.name, &mut used))
        .collect();
    let root_identities: Vec<String> = raw
        .aggregates
        .iter()
        .zip(&root_names)
        .map(|(a, name)| identity(&a.root, name))
        .collect();
    // A document the mapper makes for a member (a member entity, a separated value
    // object) stores the partition key, and a value object separated from a
    // member entity a parent link, beside the element's attributes and
    // relationship properties. Validation rejects a member's attribute or identity
    // named like its root's identity, a value object's attribute named like the
    // parent link it may carry, and a value object's relationship property named
    // like either in a document it may be embedded at the top of (see [`mr4`] for
    // "may"), so the strategy gives none of these. The mapper renames a reference
    // that would take the partition key's or parent link's name, and the copy
    // optimisation refuses a copy that would hold its target's partition key
    // twice, so everything else may take any root identity's name.

    // The names an explicit property may take from the root identities (see
    // [`RawShape::property`]): the `from` element's partition key first.
    let keys = |own: &str| -> Vec<String> {
        std::iter::once(own.to_string())
            .chain(root_identities.iter().cloned())
            .collect()
    };
    let count = raw.aggregates.len();
    let hot_sources: BTreeSet<usize> = raw.hot.iter().map(|h| h.link.from_aggregate.index(count)).collect();
    let hot_targets: BTreeSet<usize> = raw.hot.iter().map(|h| h.link.to_aggregate.index(count)).collect();
    for (a, raw_aggregate) in raw.aggregates.iter().enumerate() {
        let root_name = root_names[a].clone();
        let root_identity = root_identities[a].clone();
        let mut root = Entity::new(&root_name, &root_identity);
        root.attributes = attribute_list(&raw_aggregate.root.attributes, &[root_identity.as_str()]);
        root.volume = volume(raw_aggregate.root.volume);
        let bytes = raw_aggregate.root.volume.map_or(0.0, |(count, size)| count * size);
        if hot_sources.contains(&a) && bytes < 1e12 {
            root.volume = volume(Some((1e9, 1500.0)));
        } else if hot_targets.contains(&a) && bytes < 1e10 {
            root.volume = volume(Some((1e7, 1000.0)));
        }
        if raw_aggregate.members.is_empty() {
            root.reference_data = raw_aggregate.reference_data;
        }
        taken.insert(
            root_name.clone(),
            std::iter::once(root_identity.clone())
                .chain(root.attributes.iter().map(|a| a.name.clone()))
                .collect(),
        );
        identities.insert(root_name.clone(), root_identity.clone());
        builder = builder.entity(root);
        let mut aggregate = Aggregate::new(&root_name);
        aggregate.default_ttl_seconds = raw_aggregate.ttl;
        let mut here = vec![root_name.clone()];
        all.push(Node {
            name: root_name.clone(),
            aggregate: a,
        });
        for member in &raw_aggregate.members {
            match member {
                RawMember::Entity { entity, parent } => {
                    let name = unique_type_name(entity.name, &mut used);
                    // Held by another member entity, its documents carry that entity's
                    // identity as their parent link (MR3).
                    let from = parent.as_ref().map(|(p, _)| p.get(&here).clone());
                    let link = from
                        .as_ref()
                        .filter(|from| **from != root_name)
                        .and_then(|from| identities.get(from))
                        .cloned()
                        .unwrap_or_default();
                    let mut own_identity = identity(entity, &name);
                    if own_identity == root_identity || own_identity == link {
                        // Rejected by validation: its documents carry the root's
                        // identity (MR2) and their parent link, and so would its
                        // separated value objects' parent links.
                        own_identity = format!("{}Id", lower_camel(&name));
                    }
                    let mut e = Entity::new(&name, &own_identity);
                    // A member entity's documents carry the root's identity (MR2).
                    let not = [root_identity.as_str(), own_identity.as_str(), link.as_str()];
                    e.attributes = attribute_list(&entity.attributes, &not);
                    e.volume = volume(entity.volume);
                    taken.insert(
                        name.clone(),
                        std::iter::once(own_identity.clone())
                            .chain(e.attributes.iter().map(|a| a.name.clone()))
                            .collect(),
                    );
                    identities.insert(name.clone(), own_identity);
                    if !link.is_empty() {
                        links.insert(name.clone(), link);
                    }
                    builder = builder.entity(e);
                    if let (Some((_, shape)), Some(from)) = (parent, from) {
                        // A member entity is its own document (MR3), not a property.
                        let mut rel = relationship(&from, &name, shape);
                        name_property(&mut rel, shape, &keys(&root_identity), &mut taken, &[]);
                        relationships.push(rel);
                    }
                    aggregate = aggregate.member(&name);
                    here.push(name.clone());
                    all.push(Node { name, aggregate: a });
                }
                RawMember::ValueObject {
                    name,
                    attributes,
                    volume,
                    parent,
                    shape,
                    parent_identity,
                } => {
                    let name = unique_type_name(*name, &mut used);
                    let from = parent.get(&here).clone();
                    let mut rel = relationship(&from, &name, shape);
                    let placement = mr4(&rel, volume.map(|(_, size)| size));
                    let from_member_entity = from != root_name && identities.contains_key(&from);
                    // Where MR4 may separate it: the parent link its document
                    // would carry (`None` for none: separated from the root or a
                    // value object).
                    if placement != Mr4::AlwaysEmbedded {
                        let link = identities.get(&from).filter(|_| from_member_entity).cloned();
                        separable.insert(name.clone(), link);
                    }
                    let mut vo = ValueObject::new(&name);
                    let mut not = vec![root_identity.as_str()];
                    if let Some(Some(link)) = separable.get(&name) {
                        not.push(link);
                    }
                    vo.attributes = attribute_list(attributes, &not);
                    // The parent entity's identity as an attribute, where validation allows it.
                    let allowed = |identity: &&String| {
                        !not.contains(&identity.as_str()) && !vo.attributes.iter().any(|a| &a.name == *identity)
                    };
                    if let Some(identity) = identities.get(&from).filter(|_| *parent_identity).filter(allowed) {
                        vo.attributes.push(Attribute::new(identity, AttributeType::String));
                    }
                    vo.volume = volume.map(|(count, size)| Volume {
                        count,
                        avg_size_bytes: Some(size),
                    });
                    taken.insert(name.clone(), vo.attributes.iter().map(|a| a.name.clone()).collect());
                    builder = builder.value_object(vo);
                    // The top-level names of the document `from` it may be
                    // embedded in: a member entity's, or a separable value
                    // object's.
                    let mut top: Vec<&str> = Vec::new();
                    if placement != Mr4::AlwaysSeparated {
                        if from_member_entity {
                            top.push(&root_identity);
                            top.extend(links.get(&from).map(String::as_str));
                        } else if let Some(link) = separable.get(&from) {
                            top.push(&root_identity);
                            top.extend(link.as_deref());
                        }
                    }
                    name_property(&mut rel, shape, &keys(&root_identity), &mut taken, &top);
                    relationships.push(rel);
                    aggregate = aggregate.member(&name);
                    here.push(name.clone());
                    all.push(Node { name, aggregate: a });
                }
            }
        }
        if raw_aggregate.explicit_name {
            let name = format!("{root_name}Aggregate");
            if !used.contains(&name.to_ascii_lowercase()) && !aggregate_names.contains(&name) {
                aggregate.name = Some(name);
            }
        }
        aggregate_names.insert(aggregate.display_name().to_string());
        aggregates.push(aggregate);
        nodes.push(here);
        roots.push((root_name, root_identity));
    }
    for aggregate in aggregates {
        builder = builder.aggregate(aggregate);
    }
    // References across aggregates (or back to the own root), from any node to a root.
    for r in &raw.references {
        let a = r.link.from_aggregate.index(nodes.len());
        let from = r.link.from_node.get(&nodes[a]).clone();
        let (to, _) = r.link.to_aggregate.get(&roots);
        let mut rel = relationship(&from, to, &r.shape);
        name_property(&mut rel, &r.shape, &keys(&roots[a].1), &mut taken, &[]);
        relationships.push(rel);
    }
    // Trees: each root at most once, its link named off its other properties.
    let mut tree_reads: Vec<(String, String, String, &RawTree)> = Vec::new();
    for t in &raw.trees {
        let a = t.aggregate.index(roots.len());
        let (root, identity) = roots[a].clone();
        if tree_reads.iter().any(|(r, ..)| *r == root) {
            continue;
        }
        let shape = one();
        let mut rel = relationship(&root, &root, &shape).optional().depth(t.depth, None);
        name_property(&mut rel, &shape, &keys(&identity), &mut taken, &[]);
        tree_reads.push((root, identity, rel.property_name(), t));
        relationships.push(rel);
    }
    let mut hot_reads: Vec<(String, String, String, f64)> = Vec::new();
    for h in &raw.hot {
        let RawLink {
            from_aggregate,
            from_node,
            to_aggregate,
        } = &h.link;
        let from = from_node.get(&nodes[from_aggregate.index(count)]).clone();
        let (to, to_identity) = to_aggregate.get(&roots).clone();
        // A node's own root is no other aggregate: no reference to read through.
        if to_aggregate.index(roots.len()) == from_aggregate.index(count) {
            continue;
        }
        let shape = one();
        let mut rel = relationship(&from, &to, &shape);
        name_property(
            &mut rel,
            &shape,
            &keys(&roots[from_aggregate.index(count)].1),
            &mut taken,
            &[],
        );
        let property = rel.property_name();
        relationships.push(rel);
        hot_reads.push((from, to_identity, property, h.per_second));
    }
    // Which properties a pattern starting at each element may filter and sort on.
    let root_identity_of = |name: &str| -> String {
        let a = all.iter().find(|n| n.name == name).map(|n| n.aggregate).unwrap_or(0);
        roots[a].1.clone()
    };
    let mut queryable: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for node in &all {
        let mut set = taken.get(&node.name).cloned().unwrap_or_default();
        // `taken` also holds relationship properties, which are not queryable: rebuild.
        set.retain(|p| identities.get(&node.name) == Some(p) || is_attribute(&builder, &node.name, p));
        set.insert(root_identity_of(&node.name));
        queryable.insert(node.name.clone(), set);
    }
    // A document stores the identity of the roots it refers to, unless the list is
    // stored the other way round (MR6); then the other side stores it.
    let aggregate_of = |name: &str| all.iter().find(|n| n.name == name).map(|n| n.aggregate);
    // Forward references to roots, by (element, identity): with two or more, a bare
    // identity is ambiguous (validation refuses it): filters name the path instead.
    let mut forward: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for rel in &relationships {
        let to_root = root_identity_of(&rel.to);
        let from_root = root_identity_of(&rel.from);
        let reference = roots.iter().any(|(r, _)| *r == rel.to) && aggregate_of(&rel.from) != aggregate_of(&rel.to);
        if reference && rel.is_stored_reversed() {
            queryable.entry(rel.to.clone()).or_default().insert(from_root);
        } else {
            if reference {
                forward
                    .entry((rel.from.clone(), to_root.clone()))
                    .or_default()
                    .push(rel.property_name());
            }
            queryable.entry(rel.from.clone()).or_default().insert(to_root);
        }
    }
    for ((element, identity), properties) in forward {
        let own = identities.get(&element) == Some(&identity) || is_attribute(&builder, &element, &identity);
        if properties.len() > 1 && !own {
            let set = queryable.entry(element).or_default();
            set.remove(&identity);
            set.extend(properties.iter().map(|p| format!("{p}.{identity}")));
        }
    }
    // Which elements are related (either way): a read returns only those of its start
    // (validation refuses the others).
    let related: BTreeSet<(String, String)> = relationships
        .iter()
        .flat_map(|rel| [(rel.from.clone(), rel.to.clone()), (rel.to.clone(), rel.from.clone())])
        .collect();
    for rel in relationships {
        builder = builder.relationship(rel);
    }
    let names: Vec<String> = all.iter().map(|n| n.name.clone()).collect();
    let mut pattern_names = BTreeSet::new();
    let mut unique_pattern = |name: String| {
        let mut candidate = name.clone();
        let mut n = 1;
        while !pattern_names.insert(candidate.clone()) {
            n += 1;
            candidate = format!("{name} #{n}");
        }
        candidate
    };
    for p in &raw.patterns {
        let start = p.start.get(&names).clone();
        let valid: Vec<String> = queryable[&start].iter().cloned().collect();
        let pick = |list: &[Index]| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for i in list {
                let name = i.get(&valid).clone();
                if !out.contains(&name) {
                    out.push(name);
                }
            }
            out
        };
        let name = unique_pattern(PATTERN_NAMES[p.name % PATTERN_NAMES.len()].replace("{}", &start));
        let mut pattern = AccessPattern::new(name, p.kind, &start, p.per_second);
        pattern.filter = pick(&p.filter);
        // A list attribute cannot be sorted on, nor a path (validation refuses both).
        pattern.sort = pick(&p.sort)
            .into_iter()
            .filter(|property| !is_list_attribute(&builder, &start, property) && !property.contains('.'))
            .collect();
        for r in &p.returns {
            let name = r.get(&names).clone();
            let returnable = name == start
                || related.contains(&(start.clone(), name.clone()))
                || aggregate_of(&name).is_some_and(|a| Some(a) == aggregate_of(&start));
            if returnable && !pattern.returns.contains(&name) {
                pattern.returns.push(name);
            }
        }
        if p.kind == AccessKind::Write {
            pattern.write = p.write;
        }
        builder = builder.access_pattern(pattern);
    }
    for (root, identity, link, t) in tree_reads {
        let attribute = builder
            .spec()
            .entities
            .iter()
            .find(|e| e.name == root)
            .and_then(|e| {
                e.attributes
                    .iter()
                    .find(|a| a.ty == AttributeType::String && !a.many && a.name != identity)
            })
            .map(|a| a.name.clone())
            .filter(|_| t.with_attribute);
        let returned = match attribute {
            Some(a) => format!("{link}*.{a}"),
            None => format!("{link}*"),
        };
        let read = unique_pattern(format!("path of a {root}"));
        let mut pattern = AccessPattern::new(read, AccessKind::Read, &root, t.reads_per_second).filter(identity);
        pattern.returns.push(returned);
        builder = builder.access_pattern(pattern);
        let write = unique_pattern(format!("move a {root}"));
        builder = builder.access_pattern(AccessPattern::new(write, AccessKind::Write, &root, t.writes_per_second));
    }
    for (from, to_identity, property, per_second) in hot_reads {
        let name = unique_pattern(format!("{from} by {to_identity}"));
        // Through the hot reference itself when the bare identity is ambiguous.
        let filter = if queryable.get(&from).is_some_and(|set| set.contains(&to_identity)) {
            to_identity
        } else {
            format!("{property}.{to_identity}")
        };
        // Each result shows what it refers to (the reference followed): a snapshot of
        // never-changing reference data saves those reads.
        let mut pattern = AccessPattern::new(name, AccessKind::Read, &from, per_second).filter(filter);
        pattern.returns.push(property);
        builder = builder.access_pattern(pattern);
    }
    let spec = builder.spec().clone();
    if let Err(e) = builder.build() {
        panic!(
            "the strategy built an invalid model: {e:?}\n{}",
            serde_json::to_string_pretty(&spec).unwrap_or_default()
        );
    }
    spec
}

/// Whether `property` is a list (`many`) attribute of `element`.
fn is_list_attribute(builder: &ModelBuilder, element: &str, property: &str) -> bool {
    let spec = builder.spec();
    spec.entities
        .iter()
        .filter(|e| e.name == element)
        .flat_map(|e| &e.attributes)
        .chain(
            spec.value_objects
                .iter()
                .filter(|v| v.name == element)
                .flat_map(|v| &v.attributes),
        )
        .any(|a| a.name == property && a.many)
}

fn is_attribute(builder: &ModelBuilder, element: &str, property: &str) -> bool {
    let spec = builder.spec();
    let attributes = spec
        .entities
        .iter()
        .find(|e| e.name == element)
        .map(|e| &e.attributes)
        .or_else(|| {
            spec.value_objects
                .iter()
                .find(|v| v.name == element)
                .map(|v| &v.attributes)
        });
    attributes.is_some_and(|list| list.iter().any(|a| a.name == property))
}

/// `spec` with every list of declarations shuffled by `seed`: entities, value
/// objects, aggregates and their members, relationships, access patterns.
pub fn permute(spec: &ModelSpec, seed: u64) -> ModelSpec {
    let mut rng = SplitMix(seed);
    let mut spec = spec.clone();
    rng.shuffle(&mut spec.entities);
    rng.shuffle(&mut spec.value_objects);
    rng.shuffle(&mut spec.aggregates);
    for aggregate in &mut spec.aggregates {
        rng.shuffle(&mut aggregate.members);
    }
    rng.shuffle(&mut spec.relationships);
    rng.shuffle(&mut spec.access_patterns);
    spec
}

/// SplitMix64: a tiny deterministic generator for shuffles.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher–Yates.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}
