//! The generated types of `patterns/subset`: a post keeps its newest comments, each
//! built `From` the comment's own document; a post written before the subset existed
//! still reads (with none).

use generated_compile::subset::{post, types};

#[test]
fn a_subset_item_is_built_from_the_childs_document() {
    let comment = post::Comment::new("c-1", "p-1", "Ann", "First!", "2026-12-01T10:00:00.000000000Z");
    let item = types::CommentSubset::from(&comment);
    assert_eq!(item.comment_id, "c-1");
    assert_eq!(item.text, "First!");
    let mut p = post::Post::new("p-1", "Hello", "2026-12-01T09:00:00.000000000Z");
    assert!(p.newest_comments.is_empty());
    p.newest_comments.push(item);
    let value = serde_json::to_value(&p).unwrap();
    assert_eq!(value["newestComments"][0]["commentId"], "c-1");
    let back: post::Post = serde_json::from_value(value).unwrap();
    assert_eq!(back, p);
}
