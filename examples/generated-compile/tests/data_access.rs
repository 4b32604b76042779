//! The generated data access of the fixed models on the SDK's in-memory engine:
//! every model's containers open, and the write patterns that claim unique values
//! claim, refuse and release them as the model says.

use cosmap_provision::in_memory::InMemoryAccount;
use cosmap_provision::Connection;

/// The in-memory account (kept alive), its connection and the database holding the
/// model's containers, provisioned as `cosmap provision` would.
struct Provisioned {
    _account: InMemoryAccount,
    connection: Connection,
}

impl Provisioned {
    async fn new(model: &str) -> Provisioned {
        Provisioned::with(model, cosmap_mapper::Options::default()).await
    }

    async fn with(model: &str, options: cosmap_mapper::Options) -> Provisioned {
        let domain = cosmap_domain::load_file(std::path::Path::new(model)).expect("the model loads");
        let logical = cosmap_mapper::map(&domain, &options);
        let account = InMemoryAccount::new().expect("an in-memory account");
        let connection = account
            .provisioned("data-access", &logical.container_definitions())
            .await
            .expect("the containers are created");
        Provisioned {
            _account: account,
            connection,
        }
    }

    fn database(&self) -> azure_data_cosmos::DatabaseClient {
        self.connection
            .cosmos_client()
            .database_client(self.connection.database())
    }
}

/// Creates `document` through the SDK as it is: a parent no access pattern of the
/// model creates; `what` names it when the create fails.
async fn create<T: serde::Serialize>(
    client: &azure_data_cosmos::ContainerClient,
    partition_key: String,
    id: &str,
    document: &T,
    what: &str,
) {
    client
        .create_item(partition_key, id, document, None)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e}"));
}

macro_rules! opens {
    ($($module:ident => $model:literal),* $(,)?) => {
        $(
            let provisioned = Provisioned::new($model).await;
            generated_compile::$module::data::Database::open(&provisioned.database())
                .await
                .unwrap_or_else(|e| panic!("{}: {e}", $model));
        )*
    };
}

#[tokio::test(flavor = "current_thread")]
async fn every_fixed_models_containers_open() {
    opens!(
        regressions => "regressions.json",
        cosmic_works => "../cosmic-works/model.json",
        unique_claims => "../../crates/cosmap-verify/tests/models/unique-claims.json",
        newsfeed => "../newsfeed/model.json",
        help_desk => "../help-desk/model.json",
        extended_reference => "../patterns/extended-reference/model.json",
        computed_value => "../patterns/computed-value/model.json",
        subset => "../patterns/subset/model.json",
        tree_ancestors => "../patterns/tree-ancestors/model.json",
        bucket => "../patterns/bucket/model.json",
        reference_list => "../patterns/reference-list/model.json",
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_create_claims_its_unique_values_and_a_delete_releases_them() {
    use generated_compile::unique_claims::account::Account;
    use generated_compile::unique_claims::data::{Database, Error};
    let provisioned = Provisioned::new("../../crates/cosmap-verify/tests/models/unique-claims.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");

    let mut ada = Account::new("a1", "ada@example.com", "ada", 1);
    db.open_an_account(&mut ada).await.expect("the first account opens");
    // Another account with Ada's handle: refused, and its email is not left claimed.
    let mut copycat = Account::new("a2", "copycat@example.com", "ada", 2);
    let error = db.open_an_account(&mut copycat).await.expect_err("the handle is taken");
    assert!(
        matches!(&error, Error::Taken { attribute, value } if *attribute == "handle" && value == "ada"),
        "{error}"
    );
    assert!(
        db.account_by_id("a2").await.unwrap().is_none(),
        "the account was not written"
    );
    let mut other = Account::new("a3", "copycat@example.com", "grace", 3);
    db.open_an_account(&mut other)
        .await
        .expect("the email the refused account claimed was released");

    // A replace that changes the email moves its claim.
    let repository = db.account_repository();
    let mut aggregate = repository.load("a1").await.unwrap().expect("Ada loads");
    aggregate.root.email = "ada@lovelace.example".into();
    repository.save(&mut aggregate).await.expect("the new email is claimed");
    let mut late = Account::new("a4", "ada@example.com", "late", 4);
    db.open_an_account(&mut late)
        .await
        .expect("Ada's old email was released");

    // Closing Ada's account releases her handle and email.
    let ada = db.account_by_id("a1").await.unwrap().expect("Ada is there");
    db.close_an_account(&ada).await.expect("the account closes");
    assert!(db.account_by_id("a1").await.unwrap().is_none());
    let mut heir = Account::new("a5", "ada@lovelace.example", "ada", 5);
    db.open_an_account(&mut heir)
        .await
        .expect("the released values can be claimed again");
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_follows_each_results_reference() {
    use generated_compile::extended_reference::data::Database;
    use generated_compile::extended_reference::{post::Post, types::UserRef, user::User};
    let provisioned = Provisioned::new("../patterns/extended-reference/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let mut ada = User::new("u1", "ada", "ada@example.com", "hash");
    db.rename_a_user(&mut ada).await.expect("an upsert");
    let mut post = Post::new("p1", "Notes", "…", "2026-12-01T09:00:00.0000000Z", UserRef::new("u1"));
    db.publish_a_post(&mut post).await.expect("a create");
    let mut orphan = Post::new("p2", "Lost", "…", "2026-12-01T10:00:00.0000000Z", UserRef::new("gone"));
    db.publish_a_post(&mut orphan).await.expect("a create");

    let items = db.a_post_with_its_author("p1").await.expect("the read runs");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].post.title, "Notes");
    let authors: Vec<&str> = items[0].users.iter().map(|u| u.username.as_str()).collect();
    assert_eq!(authors, ["ada"], "the reference was followed");
    let dangling = db.a_post_with_its_author("p2").await.expect("the read runs");
    assert!(dangling[0].users.is_empty(), "a dangling reference reads nothing");
    assert!(
        db.a_post_with_its_author("p3").await.unwrap().is_empty(),
        "no post, no item"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_finds_the_documents_that_refer_to_each_result() {
    use generated_compile::reference_list::data::{Database, PartAggregate, ProductAggregate, SupplierAggregate};
    use generated_compile::reference_list::{part::Part, product::Product, supplier::Supplier, types};
    let provisioned = Provisioned::new("../patterns/reference-list/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    for (id, name) in [("s1", "Acme"), ("s2", "Other")] {
        let mut supplier = SupplierAggregate::new(Supplier::new(id, name));
        db.supplier_repository().save(&mut supplier).await.expect("a supplier");
    }
    let mut product = ProductAggregate::new(Product::new("pr1", "Bike"));
    db.product_repository().save(&mut product).await.expect("a product");
    for (id, supplier, products) in [
        ("pa1", "s1", vec!["pr1"]),
        ("pa2", "s1", vec![]),
        ("pa3", "s2", vec!["pr1"]),
    ] {
        let mut part = Part::new(
            id,
            "bolt",
            types::SupplierRef::new(supplier),
            types::WarehouseRef::new("w1"),
        );
        part.products = products.into_iter().map(types::ProductRef::new).collect();
        db.part_repository()
            .save(&mut PartAggregate::new(part))
            .await
            .expect("a part");
    }
    let ids = |parts: &[Part]| {
        let mut ids: Vec<String> = parts.iter().map(|p| p.id.clone()).collect();
        ids.sort();
        ids
    };
    let of_supplier = db.parts_of_a_supplier("s1").await.expect("the read runs");
    assert_eq!(of_supplier.len(), 1);
    assert_eq!(of_supplier[0].supplier.name, "Acme");
    assert_eq!(ids(&of_supplier[0].parts), ["pa1", "pa2"]);
    let of_product = db.parts_of_a_product("pr1").await.expect("the read runs");
    assert_eq!(
        ids(&of_product[0].parts),
        ["pa1", "pa3"],
        "through the list of product references"
    );
    assert!(db.parts_of_a_supplier("nobody").await.unwrap().is_empty());
}

#[tokio::test(flavor = "current_thread")]
async fn the_feed_worker_keeps_the_newest_and_trims_the_rest() {
    use generated_compile::newsfeed::data::Database;
    use generated_compile::newsfeed::{post::Post, types::MemberRef};
    let provisioned = Provisioned::new("../newsfeed/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    for i in 0..53 {
        let at = format!("2026-12-01T{:02}:{:02}:00.0000000Z", i / 60, i % 60);
        let mut post = Post::new(format!("p{i:02}"), format!("Post {i}"), "…", at, MemberRef::new("m1"));
        db.publish_a_post(&mut post).await.expect("a post");
    }
    let applied = db.post_to_feeds_worker().run_once().await.expect("the worker runs");
    assert_eq!(applied, 53);
    let newest = db.the_newest_posts().await.expect("the feed reads");
    let ids: Vec<&str> = newest.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), 50, "the feed keeps its newest 50");
    assert_eq!(
        (ids[0], ids[49]),
        ("p52", "p03"),
        "newest first, the three oldest trimmed"
    );
    let held = db
        .feeds
        .client()
        .query_items::<serde_json::Value>(
            "SELECT * FROM c WHERE c.type = 'postFeed'",
            azure_data_cosmos::FeedScope::full_container(),
            None,
        )
        .await
        .expect("a query");
    use futures::TryStreamExt as _;
    let held: Vec<serde_json::Value> = held.try_collect().await.expect("the pages");
    assert_eq!(held.len(), 50, "the trimmed ones are deleted, not just unread");

    // An edit reaches the feed; a replay of the feed changes nothing.
    let mut edited = db.post_by_id("p52").await.unwrap().expect("the post");
    edited.title = "Edited".into();
    db.edit_a_post(&mut edited).await.expect("an edit");
    assert_eq!(db.post_to_feeds_worker().run_once().await.unwrap(), 1);
    assert_eq!(db.the_newest_posts().await.unwrap()[0].title, "Edited");
}

#[tokio::test(flavor = "current_thread")]
async fn the_extended_reference_worker_rewrites_every_holder() {
    use generated_compile::extended_reference::data::Database;
    use generated_compile::extended_reference::{post::Comment, types::UserRefWithUsername, user::User};
    let provisioned = Provisioned::new("../patterns/extended-reference/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let mut ada = User::new("u1", "ada", "ada@example.com", "hash");
    db.rename_a_user(&mut ada).await.expect("a user");
    let mut grace = User::new("u2", "grace", "grace@example.com", "hash");
    db.rename_a_user(&mut grace).await.expect("a user");
    for (id, post, author) in [("c1", "p1", &ada), ("c2", "p2", &ada), ("c3", "p1", &grace)] {
        let mut comment = Comment::new(
            id,
            post,
            "…",
            "2026-12-01T09:00:00.0000000Z",
            UserRefWithUsername::from(author),
        );
        db.comment_on_a_post(&mut comment).await.expect("a comment");
    }
    ada.username = "countess".into();
    db.rename_a_user(&mut ada).await.expect("a rename");
    db.comment_author_worker().run_once().await.expect("the worker runs");
    let names = |comments: Vec<Comment>| {
        let mut names: Vec<(String, String)> = comments.into_iter().map(|c| (c.id, c.author.username)).collect();
        names.sort();
        names
    };
    let p1 = names(db.comments_of_a_post("p1").await.unwrap());
    assert_eq!(p1, [("c1".into(), "countess".into()), ("c3".into(), "grace".into())]);
    let p2 = names(db.comments_of_a_post("p2").await.unwrap());
    assert_eq!(
        p2,
        [("c2".into(), "countess".into())],
        "a holder in another partition too"
    );
    // Caught up, and a replay writes nothing new.
    assert_eq!(db.comment_author_worker().run_once().await.unwrap(), 0);
}

#[tokio::test(flavor = "current_thread")]
async fn a_count_in_the_childs_partition_moves_in_the_childs_batch() {
    use generated_compile::computed_value::data::{Database, Error};
    use generated_compile::computed_value::post::{Comment, Post};
    let provisioned = Provisioned::new("../patterns/computed-value/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let post = Post::new("p1", "Notes", "2026-12-01T09:00:00.0000000Z");
    create(db.post.client(), post.partition_key(), &post.id, &post, "a post").await;
    let count = || async {
        db.a_post_with_its_comment_count("p1")
            .await
            .unwrap()
            .expect("the post")
            .comment_count
    };

    let mut c1 = Comment::new("c1", "p1", "first", "2026-12-01T09:01:00.0000000Z");
    db.comment_on_a_post(&mut c1).await.expect("a comment");
    assert!(c1.etag.is_some(), "the comment took its etag");
    let mut c2 = Comment::new("c2", "p1", "second", "2026-12-01T09:02:00.0000000Z");
    db.comment_on_a_post(&mut c2).await.expect("a comment");
    assert_eq!(count().await, 2);

    // A comment that exists already: the batch fails whole, the count stays.
    let error = db
        .comment_on_a_post(&mut c2.clone())
        .await
        .expect_err("a second create");
    assert!(matches!(error, Error::Exists { .. }), "{error}");
    assert_eq!(count().await, 2);
    // A comment on a post that does not exist: refused, nothing written.
    let mut lost = Comment::new("c9", "nowhere", "?", "2026-12-01T09:03:00.0000000Z");
    let error = db.comment_on_a_post(&mut lost).await.expect_err("no parent");
    assert!(matches!(error, Error::Missing { .. }), "{error}");
    assert!(
        db.post.read("nowhere".into(), "c9").await.unwrap().is_none(),
        "the comment was not written"
    );

    db.delete_a_comment(&c1).await.expect("a delete");
    assert_eq!(count().await, 1);
    assert!(
        db.post.read("p1".into(), "c1").await.unwrap().is_none(),
        "the comment is gone"
    );
    assert!(db.post.read("p1".into(), "c2").await.unwrap().is_some());
}

#[tokio::test(flavor = "current_thread")]
async fn count_and_subset_workers_keep_the_parent_current_from_the_change_feed() {
    {
        use generated_compile::computed_value::data::Database;
        use generated_compile::computed_value::{product::Product, review::Review, types::ProductRef};
        let provisioned = Provisioned::new("../patterns/computed-value/model.json").await;
        let db = Database::open(&provisioned.database())
            .await
            .expect("the containers open");
        let product = Product::new("pr1", "Bike", "100.00");
        create(
            db.product.client(),
            product.partition_key(),
            &product.id,
            &product,
            "a product",
        )
        .await;
        for i in 0..3 {
            let mut review = Review::new(format!("r{i}"), 5, "good", ProductRef::new("pr1"));
            db.review_a_product(&mut review).await.expect("a review");
        }
        let count = || async {
            db.a_product_with_its_review_count("pr1")
                .await
                .unwrap()
                .unwrap()
                .review_count
        };
        assert_eq!(count().await, 0, "kept from the change feed: not yet");
        assert_eq!(db.product_review_count_worker().run_once().await.unwrap(), 3);
        assert_eq!(count().await, 3);
        assert_eq!(
            db.product_review_count_worker().run_once().await.unwrap(),
            0,
            "caught up"
        );
        // A delete reaches the count: it sets the review's `ttl` (the change feed shows
        // no hard delete), and the recount leaves the expiring review out.
        let reviews = db.review_repository();
        let review = reviews.load("r0").await.unwrap().expect("review r0");
        reviews.delete(review).await.expect("the delete");
        assert!(reviews.load("r0").await.unwrap().is_none(), "deleted");
        assert_eq!(db.product_review_count_worker().run_once().await.unwrap(), 1);
        assert_eq!(count().await, 2, "the deleted review is not counted");
    }
    {
        use generated_compile::subset::data::Database;
        use generated_compile::subset::{product::Product, review::Review, types::ProductRef};
        let provisioned = Provisioned::new("../patterns/subset/model.json").await;
        let db = Database::open(&provisioned.database())
            .await
            .expect("the containers open");
        let product = Product::new("pr1", "Bike", "100.00");
        create(
            db.product.client(),
            product.partition_key(),
            &product.id,
            &product,
            "a product",
        )
        .await;
        for i in 0..7 {
            let at = format!("2026-12-01T09:0{i}:00.0000000Z");
            let mut review = Review::new(format!("r{i}"), 4, "fine", at, "x@example.com", ProductRef::new("pr1"));
            db.review_a_product(&mut review).await.expect("a review");
        }
        assert!(
            db.newest_reviews_of_a_product("pr1").await.unwrap().is_empty(),
            "not kept yet"
        );
        // The worker run, then the subset read: its reviews' ids.
        let newest = || async {
            db.product_newest_reviews_worker()
                .run_once()
                .await
                .expect("the worker runs");
            let reviews = db.newest_reviews_of_a_product("pr1").await.unwrap();
            reviews.into_iter().map(|r| r.review_id).collect::<Vec<String>>()
        };
        assert_eq!(
            newest().await,
            ["r6", "r5", "r4", "r3", "r2"],
            "the newest five, newest first"
        );
        let reviews = db.review_repository();
        let review = reviews.load("r6").await.unwrap().expect("review r6");
        reviews.delete(review).await.expect("the delete");
        assert_eq!(
            newest().await,
            ["r5", "r4", "r3", "r2", "r1"],
            "the deleted review left the subset"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_hierarchical_key_serves_prefix_queries_claims_and_follows() {
    use generated_compile::help_desk::data::{Database, Error};
    use generated_compile::help_desk::{survey::Survey, ticket::Ticket, types::TicketRef};
    let provisioned = Provisioned::new("../help-desk/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    for (id, tenant, number, at) in [
        ("t1", "acme", "A-1", "2026-12-01T09:00:00.0000000Z"),
        ("t2", "acme", "A-2", "2026-12-01T10:00:00.0000000Z"),
        ("t3", "other", "O-1", "2026-12-01T11:00:00.0000000Z"),
    ] {
        let mut ticket = Ticket::new(id, tenant, number, "Broken", "open", at);
        db.open_a_ticket(&mut ticket).await.expect("a ticket");
    }
    // The number is claimed: a second ticket with it is refused, whatever its tenant.
    let mut twin = Ticket::new("t4", "other", "A-1", "Twin", "open", "2026-12-01T12:00:00.0000000Z");
    let error = db.open_a_ticket(&mut twin).await.expect_err("the number is taken");
    assert!(matches!(error, Error::Taken { .. }), "{error}");

    // A query given the first level of the key: the tenant's tickets, newest first.
    let acme: Vec<String> = db
        .tickets_of_a_tenant("acme")
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(acme, ["t2", "t1"]);

    // A reference whose partition key is both levels, followed per result.
    let mut survey = Survey::new("s1", 5, TicketRef::new("t2", ("acme".to_string(), "t2".to_string())));
    db.answer_a_survey(&mut survey).await.expect("a survey");
    let items = db.a_survey_with_its_ticket("s1").await.expect("the read runs");
    let tickets: Vec<&str> = items[0].tickets.iter().map(|t| t.number.as_str()).collect();
    assert_eq!(tickets, ["A-2"]);
}

#[tokio::test(flavor = "current_thread")]
async fn a_tree_element_takes_its_ancestors_from_its_new_parent() {
    use generated_compile::tree_ancestors::category::Category;
    use generated_compile::tree_ancestors::data::{Database, Error};
    use generated_compile::tree_ancestors::types::CategoryRef;
    let provisioned = Provisioned::new("../patterns/tree-ancestors/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let mut root = Category::new("c1", "Sports", "sports", "");
    db.add_a_category(&mut root).await.expect("a root");
    assert!(root.ancestors.is_empty());
    let mut child = Category::new("c2", "Cycling", "cycling", "");
    child.parent = Some(CategoryRef::new("c1"));
    db.add_a_category(&mut child).await.expect("a child");
    let mut grandchild = Category::new("c3", "Helmets", "helmets", "");
    grandchild.parent = Some(CategoryRef::new("c2"));
    // A list the caller made up is replaced by the parent's.
    grandchild.ancestors = vec![];
    db.add_a_category(&mut grandchild).await.expect("a grandchild");
    let path: Vec<(String, String)> = grandchild
        .ancestors
        .iter()
        .map(|a| (a.id.clone(), a.name.clone()))
        .collect();
    assert_eq!(
        path,
        [("c1".into(), "Sports".into()), ("c2".into(), "Cycling".into())],
        "root first"
    );
    assert!(grandchild.etag.is_some());
    let stored = db.a_category_with_its_path("c3").await.unwrap().expect("stored");
    assert_eq!(
        stored.ancestors, grandchild.ancestors,
        "what was written is what the caller sees"
    );
    // A parent that does not exist: refused, nothing written.
    let mut orphan = Category::new("c9", "Lost", "lost", "");
    orphan.parent = Some(CategoryRef::new("nowhere"));
    let error = db.add_a_category(&mut orphan).await.expect_err("no parent");
    assert!(matches!(error, Error::Missing { .. }), "{error}");
    assert!(db.a_category_with_its_path("c9").await.unwrap().is_none());
}

#[tokio::test(flavor = "current_thread")]
async fn the_ancestors_worker_carries_a_rename_and_a_move_to_every_descendant() {
    use generated_compile::tree_ancestors::category::Category;
    use generated_compile::tree_ancestors::data::Database;
    use generated_compile::tree_ancestors::types::CategoryRef;
    let provisioned = Provisioned::new("../patterns/tree-ancestors/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let add = |id: &'static str, name: &'static str, parent: Option<&'static str>| {
        let db = &db;
        async move {
            let mut c = Category::new(id, name, id, "");
            c.parent = parent.map(CategoryRef::new);
            db.add_a_category(&mut c).await.expect("a category");
        }
    };
    add("c1", "Sports", None).await;
    add("r2", "Outdoor", None).await;
    add("c2", "Cycling", Some("c1")).await;
    add("c3", "Helmets", Some("c2")).await;
    let path = |id: &'static str| {
        let db = &db;
        async move {
            let c = db.a_category_with_its_path(id).await.unwrap().expect("stored");
            c.ancestors.into_iter().map(|a| a.name).collect::<Vec<_>>()
        }
    };
    db.category_ancestors_worker()
        .run_once()
        .await
        .expect("the worker runs");
    assert_eq!(path("c3").await, ["Sports", "Cycling"]);

    // A rename of the root reaches the grandchild.
    let mut sports = db.a_category_with_its_path("c1").await.unwrap().unwrap();
    sports.name = "All sports".into();
    db.rename_or_move_a_category(&mut sports).await.expect("a rename");
    db.category_ancestors_worker()
        .run_once()
        .await
        .expect("the worker runs");
    assert_eq!(path("c2").await, ["All sports"]);
    assert_eq!(path("c3").await, ["All sports", "Cycling"]);

    // A move of the middle element under another root: its descendants follow.
    let mut cycling = db.a_category_with_its_path("c2").await.unwrap().unwrap();
    cycling.parent = Some(CategoryRef::new("r2"));
    db.rename_or_move_a_category(&mut cycling).await.expect("a move");
    assert_eq!(
        path("c2").await,
        ["Outdoor"],
        "the moved element's own list, before the write"
    );
    db.category_ancestors_worker()
        .run_once()
        .await
        .expect("the worker runs");
    assert_eq!(path("c3").await, ["Outdoor", "Cycling"]);
    assert_eq!(db.category_ancestors_worker().run_once().await.unwrap(), 0, "caught up");
}

#[tokio::test(flavor = "current_thread")]
async fn readings_go_into_the_bucket_of_their_hour_and_come_back_in_range() {
    use generated_compile::bucket::data::Database;
    use generated_compile::bucket::device::ReadingBucket;
    use generated_compile::bucket::types::Reading;
    let provisioned = Provisioned::new("../patterns/bucket/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    for (at, celsius) in [
        ("2026-12-01T08:10:00.0000000Z", 1.0),
        ("2026-12-01T09:05:00.0000000Z", 2.0),
        ("2026-12-01T09:45:00.0000000Z", 3.0),
        ("2026-12-01T10:20:00.0000000Z", 4.0),
    ] {
        let reading = Reading {
            measured_at: at.into(),
            celsius,
        };
        db.record_a_reading("d1", &reading).await.expect("an append");
    }
    db.record_a_reading(
        "d2",
        &Reading {
            measured_at: "2026-12-01T09:30:00.0000000Z".into(),
            celsius: 9.0,
        },
    )
    .await
    .expect("another device's");
    // One bucket per hour: the 09 bucket holds two readings.
    let nine = db
        .device
        .read("d1".into(), "2026-12-01T09")
        .await
        .unwrap()
        .expect("the 09 bucket");
    let generated_compile::bucket::device::DeviceDocument::ReadingBucket(nine) = nine else {
        panic!("not a bucket: {nine:?}");
    };
    assert_eq!(nine.readings.len(), 2);
    assert_eq!(ReadingBucket::window_of("2026-12-01T09:45:00.0000000Z"), nine.id);

    let chart = db
        .chart_of_a_device_s_last_day("d1", "2026-12-01T09:00:00.0000000Z")
        .await
        .expect("the read runs");
    let values: Vec<f64> = chart.iter().map(|r| r.celsius).collect();
    assert_eq!(
        values,
        [4.0, 3.0, 2.0],
        "in range, newest first; another device's and older ones left out"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_subset_in_the_childs_partition_takes_the_new_child_in_its_batch() {
    use generated_compile::subset::data::Database;
    use generated_compile::subset::post::{Comment, Post};
    let provisioned = Provisioned::new("../patterns/subset/model.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let post = Post::new("p1", "Notes", "2026-12-01T08:00:00.0000000Z");
    create(db.post.client(), post.partition_key(), &post.id, &post, "a post").await;
    // Twelve comments, not in time order: the subset keeps the newest ten, newest first.
    for i in [3, 1, 11, 0, 7, 5, 9, 2, 10, 4, 8, 6] {
        let at = format!("2026-12-01T09:{i:02}:00.0000000Z");
        let mut comment = Comment::new(format!("c{i:02}"), "p1", "ada", "…", at);
        db.comment_on_a_post(&mut comment).await.expect("a comment");
    }
    let newest: Vec<String> = db
        .newest_comments_of_a_post("p1")
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.comment_id)
        .collect();
    let expected: Vec<String> = (2..12).rev().map(|i| format!("c{i:02}")).collect();
    assert_eq!(newest, expected);
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_counts_each_results_children_with_a_query_when_the_count_is_not_kept() {
    use generated_compile::counted_per_read::data::Database;
    use generated_compile::counted_per_read::post::{Comment, Post};
    use generated_compile::counted_per_read::{product::Product, review::Review, types::ProductRef};
    let mut unoptimised = cosmap_mapper::Options::default();
    unoptimised.optimise = false;
    let provisioned = Provisioned::with("../patterns/computed-value/model.json", unoptimised).await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    for id in ["p1", "p2"] {
        let post = Post::new(id, "Notes", "2026-12-01T09:00:00.0000000Z");
        create(db.post.client(), post.partition_key(), &post.id, &post, "a post").await;
    }
    for i in 0..3 {
        let mut comment = Comment::new(format!("c{i}"), "p1", "hi", "2026-12-01T09:01:00.0000000Z");
        db.comment_on_a_post(&mut comment).await.expect("a comment");
    }
    // A single-partition COUNT(1) in the post's partition: its own comments only.
    for (id, comments) in [("p1", 3), ("p2", 0)] {
        let items = db.a_post_with_its_comment_count(id).await.expect("the read");
        assert_eq!(items.len(), 1, "one post");
        assert_eq!(items[0].comment_count, comments, "{id}");
    }

    for id in ["pr1", "pr2"] {
        let product = Product::new(id, "Bike", "100.00");
        create(
            db.product.client(),
            product.partition_key(),
            &product.id,
            &product,
            "a product",
        )
        .await;
    }
    for (i, product) in ["pr1", "pr1", "pr2"].into_iter().enumerate() {
        let mut review = Review::new(format!("r{i}"), 5, "good", ProductRef::new(product));
        db.review_a_product(&mut review).await.expect("a review");
    }
    // Across partitions: one `1` per review of the product, summed.
    let items = db.a_product_with_its_review_count("pr1").await.expect("the read");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].product.product_id, "pr1");
    assert_eq!(items[0].review_count, 2);
}

#[tokio::test(flavor = "current_thread")]
async fn the_extended_reference_worker_runs_where_no_pattern_rewrites_the_root() {
    use generated_compile::library::data::Database;
    use generated_compile::library::types::{BookRefWithTitle, MemberRef};
    use generated_compile::library::{book::Book, loan::Loan};
    // The library on today's data, as the build generated its types (`library_today.json`).
    let provisioned = Provisioned::new(concat!(env!("OUT_DIR"), "/library_today.json")).await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let mut book = Book::new("b1", "Dune", "Herbert", "1965-08-01", "sf", 2);
    db.add_a_book(&mut book).await.expect("a book");
    let mut loan = Loan::new(
        "l1",
        "2026-12-01T09:00:00.0000000Z",
        "2026-12-15",
        "open",
        "0.00",
        BookRefWithTitle::from(&book),
        MemberRef::new("m1"),
    );
    db.lend_a_book(&mut loan).await.expect("a loan");
    let worker = db.loan_book_worker();
    worker.run_once().await.expect("the worker catches up");

    // No access pattern rewrites a book: the application replaces it through the SDK.
    book.title = "Dune (revised)".into();
    book.etag = None;
    db.book
        .client()
        .replace_item(book.partition_key(), &book.id, &book, None)
        .await
        .expect("the book replaced");
    assert_eq!(worker.run_once().await.expect("the worker runs"), 1);
    let loan = db.loan_by_id("l1").await.unwrap().expect("the loan");
    assert_eq!(loan.book.title, "Dune (revised)", "the copied title follows the book");
}

#[tokio::test(flavor = "current_thread")]
async fn a_read_climbs_the_tree_where_no_ancestors_list_is_kept() {
    use generated_compile::tree_climbing::category::Category;
    use generated_compile::tree_climbing::data::Database;
    use generated_compile::tree_climbing::types::CategoryRef;
    let mut unoptimised = cosmap_mapper::Options::default();
    unoptimised.optimise = false;
    let provisioned = Provisioned::with("../patterns/tree-ancestors/model.json", unoptimised).await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    // bikes ← road ← racing: each points at its parent.
    for (id, parent) in [("bikes", None), ("road", Some("bikes")), ("racing", Some("road"))] {
        let mut category = Category::new(id, id, id, "");
        category.parent = parent.map(CategoryRef::new);
        db.add_a_category(&mut category).await.expect("a category");
    }
    let db = &db;
    let path = |id: &'static str| async move {
        let items = db.a_category_with_its_path(id).await.expect("the read");
        assert_eq!(items.len(), 1, "one category");
        items[0].ancestors.iter().map(|c| c.id.clone()).collect::<Vec<_>>()
    };
    assert_eq!(path("racing").await, ["bikes", "road"], "root first");
    assert_eq!(path("road").await, ["bikes"]);
    assert!(path("bikes").await.is_empty(), "a root has no ancestors");
}

#[tokio::test(flavor = "current_thread")]
async fn a_tree_write_keeps_its_ancestors_and_claims_its_unique_values() {
    use generated_compile::tree_claims::category::Category;
    use generated_compile::tree_claims::data::{Database, Error};
    use generated_compile::tree_claims::types::CategoryRef;
    let provisioned = Provisioned::new("../../crates/cosmap-verify/tests/models/tree-with-claimed-slugs.json").await;
    let db = Database::open(&provisioned.database())
        .await
        .expect("the containers open");
    let mut bikes = Category::new("bikes", "Bikes", "bikes", "");
    db.add_a_category(&mut bikes).await.expect("the root");
    let mut road = Category::new("road", "Road", "road", "");
    road.parent = Some(CategoryRef::from(&bikes));
    db.add_a_category(&mut road).await.expect("a child");
    let names: Vec<&str> = road.ancestors.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Bikes"], "the new parent's ancestors and itself");

    // Another category with the slug `road` is refused, and writes nothing.
    let mut copycat = Category::new("road-2", "Road again", "road", "");
    copycat.parent = Some(CategoryRef::from(&bikes));
    let refused = db.add_a_category(&mut copycat).await;
    assert!(matches!(refused, Err(Error::Taken { .. })), "{refused:?}");
    assert!(db.category.read("road-2".into(), "road-2").await.unwrap().is_none());

    // A rename moves the claim: the old slug is free again, the new one taken.
    road.slug = "road-bikes".into();
    db.rename_or_move_a_category(&mut road).await.expect("the rename");
    let mut reuse = Category::new("road-3", "Road", "road", "");
    reuse.parent = Some(CategoryRef::from(&bikes));
    db.add_a_category(&mut reuse).await.expect("the released slug is free");
}

#[tokio::test(flavor = "current_thread")]
async fn a_repository_save_recomputes_what_the_root_keeps_of_its_members() {
    {
        use generated_compile::subset::data::{Database, PostAggregate};
        use generated_compile::subset::post::{Comment, Post};
        let provisioned = Provisioned::new("../patterns/subset/model.json").await;
        let db = Database::open(&provisioned.database())
            .await
            .expect("the containers open");
        let posts = db.post_repository();
        let mut aggregate = PostAggregate::new(Post::new("p1", "Notes", "2026-12-01T08:00:00.0000000Z"));
        for i in [3, 1, 11, 0, 7, 5, 9, 2, 10, 4, 8, 6] {
            let at = format!("2026-12-01T09:{i:02}:00.0000000Z");
            aggregate
                .comments
                .push(Comment::new(format!("c{i:02}"), "p1", "ada", "…", at));
        }
        posts.save(&mut aggregate).await.expect("saved");
        let ids = |post: &Post| -> Vec<String> { post.newest_comments.iter().map(|c| c.comment_id.clone()).collect() };
        let expected: Vec<String> = (2..12).rev().map(|i| format!("c{i:02}")).collect();
        assert_eq!(
            ids(&aggregate.root),
            expected,
            "the saved aggregate holds the recomputed subset"
        );
        let mut loaded = posts.load("p1").await.expect("loads").expect("exists");
        assert_eq!(ids(&loaded.root), expected, "the subset was written in the batch");
        // The newest removed: the next one takes its place.
        loaded.comments.retain(|c| c.id != "c11");
        posts.save(&mut loaded).await.expect("saved again");
        let reloaded = posts.load("p1").await.expect("loads").expect("exists");
        let expected: Vec<String> = (1..11).rev().map(|i| format!("c{i:02}")).collect();
        assert_eq!(ids(&reloaded.root), expected);
    }
    {
        use generated_compile::computed_value::data::{Database, PostAggregate};
        use generated_compile::computed_value::post::{Comment, Post};
        let provisioned = Provisioned::new("../patterns/computed-value/model.json").await;
        let db = Database::open(&provisioned.database())
            .await
            .expect("the containers open");
        let posts = db.post_repository();
        let mut aggregate = PostAggregate::new(Post::new("p1", "Notes", "2026-12-01T08:00:00.0000000Z"));
        for i in 0..3 {
            aggregate
                .comments
                .push(Comment::new(format!("c{i}"), "p1", "…", "2026-12-01T09:00:00.0000000Z"));
        }
        posts.save(&mut aggregate).await.expect("saved");
        let mut loaded = posts.load("p1").await.expect("loads").expect("exists");
        assert_eq!(loaded.root.comment_count, 3, "the count was written in the batch");
        loaded.comments.pop();
        posts.save(&mut loaded).await.expect("saved again");
        let reloaded = posts.load("p1").await.expect("loads").expect("exists");
        assert_eq!(reloaded.root.comment_count, 2);
    }
}
