//! Unique claims: a `unique` attribute that no unique key can enforce (its owners
//! do not share a logical partition, or other documents there lack it) gets claim
//! documents in a container of their own, partitioned by the claimed value. A claim's
//! `id` is its `type`, so a second claim of the same value is a conflict (409):
//! creating the owner first creates its claim, and a duplicate is refused before the
//! owner is written; deleting the owner deletes its claim.

use cosmap_domain::naming::upper_camel;
use cosmap_domain::AttributeType;

use crate::decision::{Rule, Trace};
use crate::logical_model::{ClaimOf, Container, ContainerKind, DocumentType, IdSource, PartitionKey, Property, Role};
use crate::physical::IndexingPolicy;

/// The partition key property of the claims container: the claimed value.
pub(crate) const CLAIM_PROPERTY: &str = "claim";

/// A claim document's size: `id`, `type`, the value and the owner's id and key.
const CLAIM_BYTES: f64 = 250.0;

/// Adds a claims container named `name` (made unique) holding a claim document type
/// for every unique attribute of `containers` that no unique key enforces.
pub(crate) fn apply(containers: &mut Vec<Container>, name: &str, trace: &mut Trace) {
    let mut claims = claims_needed(containers, trace);
    if claims.is_empty() {
        return;
    }
    let mut name = name.to_string();
    while containers.iter().any(|c| c.name == name) {
        name.push_str("Container");
    }
    claims.sort_by(|a, b| a.name.cmp(&b.name));
    // Two owners can make the same name (`AB`.`cX` and `ABC`.`x`): a claim's type is
    // its id, so each must differ, or two attributes' values would collide.
    let mut taken: Vec<String> = Vec::new();
    for d in &mut claims {
        let base = d.name.clone();
        let mut n = 1;
        while taken.contains(&d.name) {
            n += 1;
            d.name = format!("{base}{n}");
        }
        d.discriminator = crate::discriminator(&d.name);
        taken.push(d.name.clone());
    }
    for d in &claims {
        let Some(of) = &d.claim_of else { continue };
        let owner = &containers.iter().find(|c| c.name == of.container);
        let key = owner.map(|c| c.partition_key.paths.join(", ")).unwrap_or_default();
        trace
            .record(
                Rule::UniqueClaim,
                format!("{}.{}", of.document_type, of.attribute),
                format!("claim documents `{}` in `{name}`, partitioned by the value", d.name),
                format!(
                    "no unique key in `{}` (partitioned by `{key}`) can compare two `{}`s' `{}`; a claim `{{\"id\": \"{}\", \"{CLAIM_PROPERTY}\": <value>}}` is created before the `{}` and Cosmos DB refuses a second one of the same value (409), so a duplicate is refused before anything else is written; deleting the `{}` deletes its claim; a replace keeps the value (to change it, claim the new one first, then release the old)",
                    of.container, of.document_type, of.attribute, d.discriminator, of.document_type, of.document_type
                ),
            )
            .with("container", name.as_str())
            .with("attribute", of.attribute.as_str());
    }
    containers.push(Container {
        name: name.clone(),
        kind: ContainerKind::Claims,
        aggregates: Vec::new(),
        partition_key: PartitionKey::on(CLAIM_PROPERTY),
        partition_key_property: CLAIM_PROPERTY.to_string(),
        sub_partition_key_properties: Vec::new(),
        default_ttl: None,
        indexing_policy: IndexingPolicy::default(),
        unique_keys: Vec::new(),
        rules: vec![Rule::UniqueClaim],
        document_types: claims.into(),
    });
}

/// A claim document type for every unique single-valued attribute of a root or entity
/// of `containers` that no unique key enforces; a sensitive or non-text one gets
/// none, and the decision says why.
fn claims_needed(containers: &[Container], trace: &mut Trace) -> Vec<DocumentType> {
    let mut claims: Vec<DocumentType> = Vec::new();
    for c in containers.iter() {
        for d in &c.document_types {
            if !matches!(d.role, Role::Root | Role::Entity) {
                continue;
            }
            for a in d.attributes.iter().filter(|a| a.unique && !a.many) {
                let key = format!("/{}", a.name);
                if c.unique_keys.iter().any(|k| k.paths == [key.as_str()]) {
                    continue;
                }
                if a.sensitive {
                    trace.record(
                        Rule::UniqueClaim,
                        format!("{}.{}", d.name, a.name),
                        "no claim: enforce it in the application",
                        "the value is `sensitive`, and a claim would store it as its partition key, outside its own document",
                    );
                    continue;
                }
                if !is_text(a.ty) {
                    trace.record(
                        Rule::UniqueClaim,
                        format!("{}.{}", d.name, a.name),
                        "no claim: enforce it in the application",
                        format!(
                            "a claim's partition key is the value as text, and `{}` values have no one text form that every writer uses",
                            a.ty.as_str()
                        ),
                    );
                    continue;
                }
                claims.push(claim(c, d, a));
            }
        }
    }
    claims
}

/// Types whose JSON value is a string: the value is the claim's partition key as it is.
fn is_text(ty: AttributeType) -> bool {
    matches!(
        ty,
        AttributeType::String
            | AttributeType::Uuid
            | AttributeType::Date
            | AttributeType::DateTime
            | AttributeType::Decimal
    )
}

fn claim(c: &Container, d: &DocumentType, a: &Property) -> DocumentType {
    let name = format!("{}{}Claim", d.name, upper_camel(&a.name));
    let text = Property::text;
    DocumentType {
        discriminator: crate::discriminator(&name),
        name,
        source: d.source.clone(),
        role: Role::Claim,
        id: IdSource::Assigned,
        partition_key_property: CLAIM_PROPERTY.to_string(),
        sub_partition_key_properties: Vec::new(),
        parent: None,
        // An owner under a hierarchical key is located by its levels' values, an array.
        attributes: vec![
            text("ownerId"),
            Property {
                many: c.partition_key.is_hierarchical(),
                ..text("ownerPartitionKey")
            },
        ],
        embedded: Vec::new(),
        references: Vec::new(),
        containment: None,
        copy_of: None,
        description: None,
        computed: Vec::new(),
        bucket: None,
        claim_of: Some(Box::new(ClaimOf {
            container: c.name.clone(),
            document_type: d.name.clone(),
            attribute: a.name.clone(),
        })),
        estimated_size_bytes: Some(CLAIM_BYTES),
    }
}

#[cfg(test)]
mod tests {
    use cosmap_domain::{AccessKind, AccessPattern, Aggregate, Attribute, AttributeType, Entity, ModelBuilder};

    use crate::{map, ContainerKind, Options};

    /// `AB.cX` and `ABC.x` both make `ABCXClaim`: the second is renamed, so the two
    /// attributes' claims never share an id.
    #[test]
    fn claims_whose_names_coincide_get_distinct_types() {
        let model = ModelBuilder::new("Names")
            .entity(Entity::new("AB", "abId").attribute(Attribute::new("cX", AttributeType::String).unique()))
            .entity(Entity::new("ABC", "abcId").attribute(Attribute::new("x", AttributeType::String).unique()))
            .aggregate(Aggregate::new("AB"))
            .aggregate(Aggregate::new("ABC"))
            .access_pattern(AccessPattern::new("ab", AccessKind::Read, "AB", 5000.0).filter("abId"))
            .access_pattern(AccessPattern::new("abc", AccessKind::Read, "ABC", 5000.0).filter("abcId"))
            .build()
            .expect("valid model");
        let m = map(&model, &Options::default());
        let claims = m
            .containers
            .iter()
            .find(|c| c.kind == ContainerKind::Claims)
            .expect("a claims container");
        let types: Vec<&str> = claims.document_types.iter().map(|d| d.discriminator.as_str()).collect();
        assert_eq!(types.len(), 2);
        assert_ne!(types[0], types[1], "{types:?}");
    }
}
