//! The generated claim documents of `unique-claims.json`: a claim's `id` is its
//! `type` and its partition key the claimed value, so two claims of one value are
//! the same item and Cosmos DB refuses the second.

use generated_compile::unique_claims::unique_claims::AccountEmailClaim;

#[test]
fn a_claim_is_keyed_by_its_value_and_identified_by_its_type() {
    let claim = AccountEmailClaim::new("ada@example.com", "a1", "a1");
    assert_eq!(claim.id, AccountEmailClaim::TYPE);
    assert_eq!(claim.partition_key(), "ada@example.com");
    let value = serde_json::to_value(&claim).unwrap();
    assert_eq!(value["id"], "accountEmailClaim");
    assert_eq!(value["type"], "accountEmailClaim");
    assert_eq!(value["claim"], "ada@example.com");
    assert_eq!(value["ownerId"], "a1");
    assert_eq!(value["ownerPartitionKey"], "a1");
    let other = AccountEmailClaim::new("ada@example.com", "a2", "a2");
    assert_eq!(
        (other.id.as_str(), other.partition_key()),
        (claim.id.as_str(), claim.partition_key())
    );
}
