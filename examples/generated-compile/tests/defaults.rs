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

/// Data written before the extended reference existed (holders without the copied
/// `tier`): the generated worker reads the authors' change feed from the beginning,
/// so its first run back-fills every holder, as `cosmap migrate` tells the user to run
/// it (`RunWorker`); a second run has nothing to do.
#[tokio::test(flavor = "current_thread")]
async fn a_new_extended_references_worker_back_fills_it_on_its_first_run() {
    use generated_compile::defaults::data::Database;
    let path = std::path::Path::new("../../crates/cosmap-verify/tests/models/defaults-of-every-kind.json");
    let domain = cosmap_domain::load_file(path).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let account = cosmap_provision::in_memory::InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("defaults", &logical.container_definitions())
        .await
        .expect("the containers are created");
    let database = connection.cosmos_client().database_client(connection.database());
    let (authors, posts) = (
        database.container_client("Author", None).await.unwrap(),
        database.container_client("Post", None).await.unwrap(),
    );
    let author =
        serde_json::json!({"id": "a-1", "type": "author", "authorId": "a-1", "username": "ada", "tier": "gold"});
    authors
        .create_item("a-1".to_string(), "a-1", &author, None)
        .await
        .unwrap();
    for i in 0..3 {
        let mut post = old_post();
        let id = format!("p-{i}");
        post["id"] = serde_json::json!(id);
        post["postId"] = serde_json::json!(id);
        posts.create_item(id.clone(), &id, &post, None).await.unwrap();
    }
    let db = Database::open(&database).await.expect("the containers open");
    let before = db.post_with_its_author_s_tier("p-0").await.unwrap().expect("a post");
    assert_eq!(before.author.tier, "free", "not back-filled yet: the default");
    db.post_author_worker().run_once().await.expect("the worker runs");
    for i in 0..3 {
        let post = db
            .post_with_its_author_s_tier(&format!("p-{i}"))
            .await
            .unwrap()
            .expect("a post");
        assert_eq!(post.author.tier, "gold", "back-filled from the author");
    }
    assert_eq!(db.post_author_worker().run_once().await.unwrap(), 0, "caught up");
}
