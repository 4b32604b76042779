//! The generated types of the `cosmic-works` example, whose `Product` container is
//! partitioned by the product's category (the `partitionKey` optimisation): the
//! partition key comes from the reference, and a reference to a product carries
//! the category's id, not the product's.

use generated_compile::cosmic_works::{product, types};

fn bike() -> product::Product {
    product::Product::new(
        "p1",
        "BK-1",
        "Road bike",
        "Light",
        "999.00",
        types::ProductCategoryRef::new("bikes"),
    )
}

#[test]
fn a_product_is_partitioned_by_the_category_it_refers_to() {
    let p = bike();
    assert_eq!(p.category_id, "bikes");
    assert_eq!(p.partition_key(), "bikes");
    let value = serde_json::to_value(&p).unwrap();
    assert_eq!(value["categoryId"], "bikes");
    assert_eq!(value["category"]["id"], "bikes");
    assert_eq!(value["id"], "p1");
}

#[test]
fn a_reference_to_a_product_carries_its_category_as_partition_key() {
    let from_document = types::ProductRef::from(&bike());
    assert_eq!(from_document.id, "p1");
    assert_eq!(from_document.partition_key, "bikes");
    let built = types::ProductRef::new("p1", "bikes");
    assert_eq!(built, from_document);
}
