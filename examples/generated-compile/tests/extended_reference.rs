//! The generated types of `patterns/extended-reference`: a comment stores its
//! author's username beside the reference (an extended reference), built from the
//! user document so the two never differ; a post's author stays a plain reference.

use generated_compile::extended_reference::{post, types, user};

fn ann() -> user::User {
    user::User::new("u-1", "ann", "ann@example.com", "$argon2id$…")
}

#[test]
fn a_comment_stores_its_authors_username_beside_the_reference() {
    let author = types::UserRefWithUsername::from(&ann());
    assert_eq!(author.id, "u-1");
    assert_eq!(author.partition_key, "u-1");
    assert_eq!(author.username, "ann");
    let comment = post::Comment::new("c-1", "p-1", "Nice post", "2026-12-01T10:00:00.000000000Z", author);
    let value = serde_json::to_value(&comment).unwrap();
    assert_eq!(
        value["author"],
        serde_json::json!({"id": "u-1", "partitionKey": "u-1", "username": "ann"})
    );
    // Nothing sensitive travels with it.
    assert!(value["author"].get("email").is_none());
    assert!(value["author"].get("passwordHash").is_none());
    let back: post::Comment = serde_json::from_value(value).unwrap();
    assert_eq!(back, comment);
}

#[test]
fn a_posts_author_is_a_plain_reference() {
    let author = types::UserRef::from(&ann());
    let p = post::Post::new("p-1", "Hello", "…", "2026-12-01T09:00:00.000000000Z", author);
    let value = serde_json::to_value(&p).unwrap();
    assert_eq!(value["author"], serde_json::json!({"id": "u-1", "partitionKey": "u-1"}));
}
