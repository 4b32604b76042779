//! Required attributes with a model `default`: a document written before they
//! existed reads their defaults — in the document, in an embedded value object and in
//! an extended reference's copy — and so does a short form; constructors and `Default`
//! fill them.

use generated_compile::defaults::post::{Post, PostDocument};
use generated_compile::defaults::types::Layout;

/// A post as written before `visibility`, `score` and the other defaulted attributes,
/// `layout.theme`, `layout.columns` and `author.tier` existed.
fn old_post() -> serde_json::Value {
    serde_json::json!({
        "id": "p-1", "type": "post", "postId": "p-1", "title": "Hello",
        "layout": {},
        "author": {"id": "a-1", "partitionKey": "a-1"}
    })
}

#[test]
fn an_old_document_reads_every_default() {
    let post: Post = serde_json::from_value(old_post()).expect("an old post reads");
    assert_eq!(post.visibility, "public");
    assert_eq!(post.score, 0.5);
    assert!(!post.pinned);
    assert_eq!(post.edited_at, "2020-01-01T00:00:00Z");
    assert_eq!(post.price, "0.00");
    assert_eq!(post.revision, "00000000-0000-0000-0000-000000000000");
    assert_eq!((post.layout.theme.as_str(), post.layout.columns), ("light", 1));
    assert_eq!(post.layout.banner, None);
    assert_eq!(post.author.tier, "free");
    // Through the container's enum too, and written back whole.
    let PostDocument::Post(again) = serde_json::from_value(old_post()).expect("reads as the enum");
    assert_eq!(again, post);
    let written = serde_json::to_value(&post).unwrap();
    assert_eq!(written["visibility"], "public");
    assert_eq!(written["layout"]["columns"], 1);
}

#[test]
fn default_of_a_value_object_takes_the_model_defaults() {
    let layout = Layout::default();
    assert_eq!(
        (layout.theme.as_str(), layout.columns, layout.banner),
        ("light", 1, None)
    );
}

#[test]
fn a_short_form_of_an_old_document_reads_the_default() {
    let row: generated_compile::defaults::data::PublicPostsOfAnAuthorRow = serde_json::from_value(
        serde_json::json!({"type": "post", "id": "p-1", "postId": "p-1", "title": "Hello", "editedAt": "2021-05-01T00:00:00Z"}),
    )
    .expect("a short form without `visibility` reads");
    assert_eq!(row.visibility, "public");
}
