//! Each model's generated data access run on the SDK's in-memory engine, as an
//! application would call it: the reads and writes the generator once listed as "not
//! generated" (a short form with references followed, a write across partitions, a
//! count a copy carries, a scan sent once beside a read, a write that rewrites the
//! document embedding what it returns, claims across partitions, a member's count of its
//! own children, members that do not name their root), with what they return asserted.

use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;
use models_app::{
    across_partitions, claims_across_partitions, feed_with_counts, library, member_counts, rewrites_an_embedding,
    scan_beside_a_point_read, scan_beside_a_query, shared_partition, short_form,
};

/// An in-memory account with `model`'s containers (keep both alive while testing).
async fn provisioned(model: &str) -> (InMemoryAccount, Connection) {
    let domain = cosmap_domain::load_file(std::path::Path::new(model)).expect("the model loads");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let account = InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("models", &logical.container_definitions())
        .await
        .expect("the containers are created");
    (account, connection)
}

/// The connection's database, for a generated `Database::open`.
fn database(connection: &Connection) -> azure_data_cosmos::clients::DatabaseClient {
    connection.cosmos_client().database_client(connection.database())
}

#[tokio::test]
async fn recent_loans_of_a_member_carry_the_title_of_their_book() {
    // The search keeps each loan's book title beside its reference (an extended
    // reference, made in its second round once the copy of loans into their member is
    // kept): the read returns the rows alone, the title in each row's `book`.
    use library::{book, loan, types};
    let (_account, connection) = provisioned("../library/model.json").await;
    let db = library::data::Database::open(&database(&connection))
        .await
        .expect("opens");
    let mut dune = book::Book::new("b1", "Dune", "Herbert", "1965-08-01", "sf", 3);
    db.add_a_book(&mut dune).await.expect("the book is added");
    let missing = types::BookRefWithTitle {
        id: "no-such-book".to_string(),
        partition_key: "no-such-book".to_string(),
        title: "Lost".to_string(),
    };
    let loans = [
        ("l1", "2026-01-01T10:00:00Z", types::BookRefWithTitle::from(&dune), "m1"),
        ("l2", "2026-02-01T10:00:00Z", missing, "m1"),
        ("l3", "2026-03-01T10:00:00Z", types::BookRefWithTitle::from(&dune), "m2"),
    ];
    for (id, at, book, member) in loans {
        let member = types::MemberRef::new(member);
        let mut lent = loan::Loan::new(id, at, "2026-04-01", "out", "0.00", book, member);
        db.lend_a_book(&mut lent).await.expect("the loan is written");
    }
    let copied = db
        .loan_to_member_worker()
        .run_once()
        .await
        .expect("the copy worker runs");
    assert_eq!(copied, 3, "every loan is copied to its member");
    let rows = db.recent_loans_of_a_member("m1").await.expect("the read runs");
    let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["l2", "l1"], "the member's loans, newest first");
    let titles: Vec<&str> = rows.iter().map(|r| r.book.title.as_str()).collect();
    assert_eq!(titles, ["Lost", "Dune"], "each row carries its book's title");
    assert_eq!(rows[1].book.id, "b1");
}

#[tokio::test]
async fn a_short_form_follows_its_author_and_its_editor_each_into_a_field_of_its_own() {
    use short_form::{post, types, user};
    let model = "../../crates/cosmap-verify/tests/models/short-form-with-kept-name-and-count.json";
    let (_account, connection) = provisioned(model).await;
    let db = short_form::data::Database::open(&database(&connection))
        .await
        .expect("opens");
    for (id, name) in [("u1", "ada"), ("u2", "grace")] {
        let mut someone = user::User::new(id, name, format!("{name}@example.com"));
        db.rename_a_user(&mut someone).await.expect("the user is written");
    }
    let (author, editor) = (types::UserRef::new("u1"), types::UserRef::new("u2"));
    let mut first = post::Post::new(
        "p1",
        "First",
        "rust",
        "…",
        "2026-01-01T10:00:00Z",
        author.clone(),
        editor,
    );
    db.publish_a_post(&mut first).await.expect("published");
    let mut second = post::Post::new(
        "p2",
        "Second",
        "rust",
        "…",
        "2026-01-02T10:00:00Z",
        author,
        types::UserRef::new("u9"),
    );
    db.publish_a_post(&mut second).await.expect("published");
    let items = db.newest_posts_in_a_topic("rust").await.expect("the read runs");
    let ids: Vec<&str> = items.iter().map(|i| i.post.id.as_str()).collect();
    assert_eq!(ids, ["p2", "p1"], "newest first");
    let names = |users: &[user::User]| users.iter().map(|u| u.username.clone()).collect::<Vec<_>>();
    assert_eq!(names(&items[1].author), ["ada"]);
    assert_eq!(names(&items[1].editor), ["grace"]);
    assert_eq!(names(&items[0].author), ["ada"]);
    assert!(items[0].editor.is_empty(), "a dangling editor leads to none");
    assert!(db
        .newest_posts_in_a_topic("go")
        .await
        .expect("the read runs")
        .is_empty());
}

#[tokio::test]
async fn a_write_across_two_partitions_sends_a_batch_each_and_a_failed_second_leaves_the_first_written() {
    use across_partitions::{account2, account4, data, types};
    let model = "../../crates/cosmap-verify/tests/models/copy-that-grows-its-target.json";
    let (_account, connection) = provisioned(model).await;
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    let refs = || (types::AccountRef::new("a1"), types::AccountRef::new("a1"));
    let (account, account_ref) = refs();
    let mut two = account2::Account2::new("x2", account, account_ref);
    let mut four = account4::Account4::new("c4", types::Account3Ref::new("a3"), types::Account2Ref::new("x2"));
    db.write_an_account2(&mut two, &mut four)
        .await
        .expect("both are written");
    assert!(
        two.etag.is_some() && four.etag.is_some(),
        "each batch gives its documents their etags"
    );
    let loaded = db
        .account4_repository()
        .load("c4")
        .await
        .expect("loads")
        .expect("exists");
    assert_eq!(loaded.root.account2, types::Account2Ref::new("x2"));

    // The second batch fails (a stale version): the first stays written.
    let stale = four.etag.clone();
    db.write_an_account2(&mut two, &mut four).await.expect("written again");
    let mut newer = account4::Account4::new("c4", types::Account3Ref::new("a3"), types::Account2Ref::new("x3"));
    newer.etag = stale;
    let (account, account_ref) = refs();
    let mut renamed = account2::Account2::new("x3", account, account_ref);
    let failed = db.write_an_account2(&mut renamed, &mut newer).await;
    assert!(matches!(failed, Err(data::Error::Stale { .. })), "{failed:?}");
    let first = db.account2_repository().load("x3").await.expect("loads");
    assert!(first.is_some(), "the first partition's batch stays written");
    let second = db
        .account4_repository()
        .load("c4")
        .await
        .expect("loads")
        .expect("exists");
    assert_eq!(
        second.root.account2,
        types::Account2Ref::new("x2"),
        "the second wrote nothing"
    );

    // Called again at the version now stored, it completes; the first is written again.
    newer.etag = second.root.etag.clone();
    db.write_an_account2(&mut renamed, &mut newer)
        .await
        .expect("the rerun completes");
    let second = db
        .account4_repository()
        .load("c4")
        .await
        .expect("loads")
        .expect("exists");
    assert_eq!(second.root.account2, types::Account2Ref::new("x3"));
}

#[tokio::test]
async fn a_posts_comment_count_reaches_its_feed_copy_through_the_posts_worker_and_the_copy_worker() {
    use feed_with_counts::{comment, post, types};
    let (_account, connection) = provisioned("../../crates/cosmap-verify/tests/models/feed-with-counts.json").await;
    let db = feed_with_counts::data::Database::open(&database(&connection))
        .await
        .expect("opens");
    let mut hello = post::Post::new("p1", "Hello", "2026-01-01T10:00:00Z");
    db.publish_a_post(&mut hello).await.expect("published");
    for id in ["c1", "c2"] {
        let mut said = comment::Comment::new(id, "nice", types::PostRef::new("p1"));
        db.comment_on_a_post(&mut said).await.expect("commented");
    }
    db.post_comment_count_worker()
        .run_once()
        .await
        .expect("the count worker runs");
    let counted = db.post_by_id("p1").await.expect("reads").expect("exists");
    assert_eq!(counted.comment_count, 2, "the post's count is kept");
    db.post_to_feeds_worker()
        .run_once()
        .await
        .expect("the copy worker runs");
    let feed = db.the_newest_posts().await.expect("reads");
    let counts: Vec<(&str, i64)> = feed.iter().map(|p| (p.id.as_str(), p.comment_count)).collect();
    assert_eq!(counts, [("p1", 2)], "the copy carries the post's count");
}

#[tokio::test]
async fn currencies_come_with_every_product_read_once_beside_them() {
    use scan_beside_a_query::{data, dictionary, product, types};
    let model = "../../crates/cosmap-verify/tests/models/returned-element-embedded-in-another-container.json";
    let (_account, connection) = provisioned(model).await;
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    for (code, name) in [("USD", "Dollar"), ("EUR", "Euro")] {
        let mut currency = data::CurrencyAggregate::new(dictionary::Currency::new(code, name));
        db.currency_repository().save(&mut currency).await.expect("saved");
    }
    for (id, currency) in [("p1", "EUR"), ("p2", "USD"), ("p3", "EUR")] {
        let price = types::PriceTag {
            amount: "9.99".into(),
            currency: types::CurrencyRef::new(currency),
        };
        let mut product = data::ProductAggregate::new(product::Product::new(id, "Thing", price));
        db.product_repository().save(&mut product).await.expect("saved");
    }
    let answer = db.currencies_with_their_price_tags().await.expect("the read runs");
    let names: Vec<&str> = answer.items.iter().map(|i| i.currency.name.as_str()).collect();
    assert_eq!(names, ["Dollar", "Euro"], "the currencies, by name");
    let mut ids: Vec<&str> = answer.products.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["p1", "p2", "p3"], "every product, once");
    let euro = answer.products.iter().filter(|p| p.price.currency.id == "EUR").count();
    assert_eq!(euro, 2, "the application matches them by their price tag's currency");
}

#[tokio::test]
async fn a_product_comes_with_its_supplier_and_every_certificate_read_once() {
    use scan_beside_a_point_read::{data, product, supplier, types};
    let model = "../../crates/cosmap-verify/tests/models/two-returned-elements-in-one-container.json";
    let (_account, connection) = provisioned(model).await;
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    for (id, name, certificates) in [("s1", "Acme", &["c1", "c2"][..]), ("s2", "Globex", &["c3"][..])] {
        let mut aggregate = data::SupplierAggregate::new(supplier::Supplier::new(id, name));
        for c in certificates {
            let certificate = supplier::Certificate::new(*c, id, "2026-01-01T00:00:00Z", "ISO 9001");
            aggregate.certificates.push(certificate);
        }
        db.supplier_repository().save(&mut aggregate).await.expect("saved");
    }
    let supplier = || types::SupplierRef::new("s1");
    let mut product = data::ProductAggregate::new(product::Product::new("p1", "Widget", supplier(), supplier()));
    db.product_repository().save(&mut product).await.expect("saved");
    let answer = db
        .a_product_with_its_supplier_and_every_certificate("p1")
        .await
        .expect("the read runs");
    let [item] = &answer.items[..] else {
        panic!("one product: {answer:?}");
    };
    assert_eq!(item.product.title, "Widget");
    let names: Vec<&str> = item.suppliers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Acme"], "its supplier, followed");
    let mut ids: Vec<&str> = answer.certificates.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["c1", "c2", "c3"], "every certificate, of every supplier");
    let none = db
        .a_product_with_its_supplier_and_every_certificate("p9")
        .await
        .expect("the read runs");
    assert!(none.items.is_empty(), "no such product");
    assert_eq!(
        none.certificates.len(),
        3,
        "the scan is sent all the same, as the plan does"
    );
}

#[tokio::test]
async fn a_write_that_returns_an_embedded_value_rewrites_its_holder_in_the_roots_batch() {
    // The credits are embedded in a track, a document of its own in the playlist's
    // partition: the write takes the playlist and the track with its credits changed,
    // and writes both in one batch at the versions given.
    use rewrites_an_embedding::{data, playlist, types};
    let model = "../../crates/cosmap-verify/tests/models/write-that-rewrites-an-embedding.json";
    let (_account, connection) = provisioned(model).await;
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    let mut stored = data::PlaylistAggregate::new(playlist::Playlist::new("p1", "Road trip"));
    stored.tracks.push(playlist::Track::new("t1", "p1", "Intro", 1));
    let repository = db.playlist_repository();
    repository.save(&mut stored).await.expect("the playlist is saved");
    let (mut list, mut track) = (stored.root.clone(), stored.tracks[0].clone());
    list.title = "Long road trip".into();
    track.credits.push(types::Credit {
        artist: "Ada".into(),
        role: "composer".into(),
    });
    db.rename_a_playlist_and_credit_a_track(&mut list, &mut track)
        .await
        .expect("both are written");
    let loaded = repository.load("p1").await.expect("loads").expect("exists");
    assert_eq!(loaded.root.title, "Long road trip");
    assert_eq!(loaded.tracks.len(), 1);
    assert_eq!(loaded.tracks[0].credits[0].artist, "Ada", "the track is rewritten");
    assert_eq!(loaded.tracks[0].etag, track.etag, "the track takes its new etag");

    // A stale track fails the batch: the playlist is not renamed either.
    let mut stale = stored.tracks[0].clone();
    list.title = "Short trip".into();
    let failed = db.rename_a_playlist_and_credit_a_track(&mut list, &mut stale).await;
    assert!(matches!(failed, Err(data::Error::Stale { .. })), "{failed:?}");
    let loaded = repository.load("p1").await.expect("loads").expect("exists");
    assert_eq!(loaded.root.title, "Long road trip", "all or none");
}

#[tokio::test]
async fn a_write_with_claims_across_partitions_keeps_the_claims_of_the_batches_written() {
    use claims_across_partitions::{club, data, member, types};
    let model = "../../crates/cosmap-verify/tests/models/claims-across-partitions.json";
    let (_account, connection) = provisioned(model).await;
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    let found = |club_id: &str, name: &str, member_id: &str, email: &str| {
        let founder = member::Member::new(member_id, email, "Founder", types::ClubRef::new(club_id));
        (club::Club::new(club_id, name), founder)
    };
    let (mut chess, mut ada) = found("c1", "Chess", "m1", "ada@example.com");
    db.found_a_club(&mut chess, &mut ada).await.expect("founded");
    assert!(chess.etag.is_some() && ada.etag.is_some(), "each batch sets its etags");
    assert!(db.member_by_id("m1").await.expect("reads").is_some());

    // A taken name writes nothing, and claims nothing of the founder's.
    let (mut again, mut bob) = found("c2", "Chess", "m2", "bob@example.com");
    let taken = db.found_a_club(&mut again, &mut bob).await;
    assert!(matches!(taken, Err(data::Error::Taken { .. })), "{taken:?}");
    assert!(db.club_by_id("c2").await.expect("reads").is_none());
    let (mut go, mut bob) = found("c3", "Go", "m2", "bob@example.com");
    db.found_a_club(&mut go, &mut bob)
        .await
        .expect("bob's email was not kept");

    // The second batch fails (the founder exists): the club stays written with its
    // name claimed, and the founder's email is released.
    let (mut bridge, mut twice) = found("c4", "Bridge", "m1", "eve@example.com");
    let failed = db.found_a_club(&mut bridge, &mut twice).await;
    assert!(matches!(failed, Err(data::Error::Exists { .. })), "{failed:?}");
    assert!(
        db.club_by_id("c4").await.expect("reads").is_some(),
        "the first batch stays"
    );
    let (mut other, mut carol) = found("c5", "Bridge", "m5", "carol@example.com");
    let kept = db.found_a_club(&mut other, &mut carol).await;
    assert!(
        matches!(kept, Err(data::Error::Taken { .. })),
        "the written club keeps its name: {kept:?}"
    );
    let (mut poker, mut eve) = found("c6", "Poker", "m6", "eve@example.com");
    db.found_a_club(&mut poker, &mut eve)
        .await
        .expect("the failed founder's email was released");
}

#[tokio::test]
async fn a_save_recomputes_the_count_each_member_keeps_of_its_own_children() {
    // Each thread keeps its number of reactions, which name their thread: a save of
    // the forum counts them again from the reactions it holds, in its batch, and the
    // write of one reaction keeps the count as the save left it.
    use member_counts::{data, forum};
    let model = "../../crates/cosmap-verify/tests/models/member-that-counts-its-children.json";
    let (_account, connection) = provisioned(model).await;
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    let repository = db.forum_repository();
    let mut stored = data::ForumAggregate::new(forum::Forum::new("f1", "Rust"));
    stored.threads.push(forum::Thread::new("t1", "f1", "Async"));
    stored.threads.push(forum::Thread::new("t2", "f1", "Macros"));
    for (id, thread) in [("r1", "t1"), ("r2", "t1"), ("r3", "t2")] {
        let at = "2026-12-01T09:00:00Z";
        stored.reactions.push(forum::Reaction::new(id, "f1", thread, "+1", at));
    }
    stored.threads[0].reaction_count = 7; // stale: the save counts again
    repository.save(&mut stored).await.expect("the forum is saved");
    let counts = |threads: &[forum::Thread]| -> Vec<(String, i64)> {
        threads.iter().map(|t| (t.id.clone(), t.reaction_count)).collect()
    };
    let expected = vec![("t1".to_string(), 2), ("t2".to_string(), 1)];
    assert_eq!(
        counts(&stored.threads),
        expected,
        "the aggregate saved holds the counts"
    );
    let read = db
        .threads_of_a_forum_with_their_reaction_counts("f1")
        .await
        .expect("reads");
    assert_eq!(counts(&read), expected, "the counts are stored");

    let mut more = forum::Reaction::new("r4", "f1", "t2", "heart", "2026-12-01T10:00:00Z");
    db.react_to_a_thread(&mut more).await.expect("the reaction is written");
    let mut loaded = repository.load("f1").await.expect("loads").expect("exists");
    assert_eq!(
        counts(&loaded.threads),
        vec![("t1".to_string(), 2), ("t2".to_string(), 2)]
    );

    // A reaction removed from the aggregate: the save deletes it and counts again.
    loaded.reactions.retain(|r| r.id != "r1");
    repository.save(&mut loaded).await.expect("saved again");
    let read = db
        .threads_of_a_forum_with_their_reaction_counts("f1")
        .await
        .expect("reads");
    assert_eq!(counts(&read), vec![("t1".to_string(), 1), ("t2".to_string(), 2)]);
}

#[path = "../shared_partition.rs"]
mod design;

#[tokio::test]
async fn aggregates_whose_members_do_not_name_their_root_load_the_root_and_save_what_they_hold() {
    // Forums and blogs share one container keyed by tenant, and nothing in a thread
    // names its forum: `load` reads the root alone, a save writes the members the
    // aggregate holds, a delete deletes those it saved, and another aggregate's
    // documents in the partition are never touched.
    use shared_partition::{data, forum};
    let logical = design::design(std::path::Path::new("shared-partition.json"));
    let account = InMemoryAccount::new().expect("an in-memory account");
    let connection = account
        .provisioned("models", &logical.container_definitions())
        .await
        .expect("the containers are created");
    let db = data::Database::open(&database(&connection)).await.expect("opens");
    let (forums, blogs) = (db.forum_repository(), db.blog_repository());
    let mut rust = data::ForumAggregate::new(forum::Forum::new("f1", "t1", "Rust"));
    rust.threads.push(forum::Thread::new("th1", "t1", "Async"));
    forums.save(&mut rust).await.expect("the forum is saved");
    let mut notes = data::BlogAggregate::new(forum::Blog::new("b1", "t1", "Notes"));
    notes.entries.push(forum::Entry::new("e1", "t1", "Hello"));
    blogs.save(&mut notes).await.expect("the blog is saved");

    let thread = || db.forum.read("t1".to_string(), "th1");
    let mut loaded = forums
        .load("t1".to_string(), "f1")
        .await
        .expect("loads")
        .expect("exists");
    assert_eq!(loaded.root.title, "Rust");
    assert!(
        loaded.threads.is_empty(),
        "the root alone: nothing names a thread's forum"
    );
    loaded.root.title = "Rust and more".into();
    forums.save(&mut loaded).await.expect("the root is saved");
    assert!(
        thread().await.expect("reads").is_some(),
        "a thread not held is left alone"
    );

    // The aggregate as saved (with its thread, at the root's new version) deletes both.
    rust.root.etag.clone_from(&loaded.root.etag);
    rust.root.title = "Rust and more".into();
    forums.save(&mut rust).await.expect("saved with its thread");
    forums.delete(rust).await.expect("the root and its thread are deleted");
    assert!(forums.load("t1".to_string(), "f1").await.expect("loads").is_none());
    assert!(
        thread().await.expect("reads").is_none(),
        "the thread it saved is deleted"
    );
    let blog = blogs
        .load("t1".to_string(), "b1")
        .await
        .expect("loads")
        .expect("the blog stays");
    assert_eq!(blog.root.title, "Notes");
}
