//! The generated feed of the `newsfeed` example: built from a post, it keeps the
//! short form the feed's one reader needs, in the partition named by the post's type.

use generated_compile::newsfeed::{feeds, post, types};

#[test]
fn a_feed_item_is_the_short_form_of_its_post_in_the_posts_partition() {
    let p = post::Post::new(
        "p1",
        "Hello",
        "A long body",
        "2026-12-01T10:00:00Z",
        types::MemberRef::new("m1"),
    );
    let item = feeds::PostFeed::from(&p);
    assert_eq!(item.id, "p1");
    assert_eq!(item.feed, post::Post::TYPE);
    assert_eq!(item.partition_key(), "post");
    let value = serde_json::to_value(&item).unwrap();
    assert_eq!(value["title"], "Hello");
    assert_eq!(value["author"]["id"], "m1");
    assert!(value.get("body").is_none(), "only what the feed's reader needs");
}
