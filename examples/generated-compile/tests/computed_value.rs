//! The generated types of `patterns/computed-value`: a count kept on a document starts
//! at zero in `new`, is written with the document, and a document written before the
//! count existed still reads (as zero).

use generated_compile::computed_value::post;

#[test]
fn a_new_post_has_no_comments_and_its_count_round_trips() {
    let mut p = post::Post::new("p-1", "Hello", "2026-12-01T09:00:00.000000000Z");
    assert_eq!(p.comment_count, 0);
    p.comment_count = 3;
    let value = serde_json::to_value(&p).unwrap();
    assert_eq!(value["commentCount"], 3);
    let back: post::Post = serde_json::from_value(value).unwrap();
    assert_eq!(back.comment_count, 3);
}

#[test]
fn a_post_written_before_the_count_reads_as_zero() {
    let old = serde_json::json!({
        "id": "p-1", "type": "post", "postId": "p-1",
        "title": "Hello", "publishedAt": "2026-12-01T09:00:00.000000000Z"
    });
    let p: post::Post = serde_json::from_value(old).unwrap();
    assert_eq!(p.comment_count, 0);
}
