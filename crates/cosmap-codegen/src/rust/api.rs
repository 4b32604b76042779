//! The one listing of the generated data access's public API: each pattern method
//! (its name, parameters with the SQL parameter each binds, the shape of what it
//! returns, what it sends), each repository and worker, and who enforces each unique
//! value — from the same view `cosmap_data.rs` is rendered from. A harness that calls
//! the generated methods by pattern name (the oracle crate in `examples/`) writes its
//! calls from it instead of parsing the generated Rust, and `cosmap diff` compares it
//! between two designs ([`DataApi::items`]), so an application learns what its code
//! loses or gains.

use cosmap_mapper::LogicalModel;
use serde::Serialize;

use super::data_access::{AggregateView, DataView, KeyView, ParamView, PatternView, ValueView, WrittenParamView};
use crate::error::CodegenError;
use crate::options::TypeMapping;

/// The public API of one model's generated data access, and what is not generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataApi {
    /// One per generated pattern method, in the order they are generated.
    pub methods: Vec<PatternMethod>,
    /// What is not generated, each with why (as the module's docs list it): a
    /// pattern, aggregate or copy the data access leaves to the application.
    pub skipped: Vec<String>,
    /// One per generated repository, in the order they are generated.
    pub repositories: Vec<Repository>,
    /// The module the data access lives in (`data`, or `data_` beside a container
    /// module of that name).
    pub module: String,
    /// One per generated change-feed worker: copies and feeds first, then those that
    /// keep extended references, counts and subsets, ancestors lists.
    pub workers: Vec<Worker>,
    /// Who enforces each unique value of the design (a unique key, or claims and the
    /// generated code that takes them), sorted by value.
    pub unique: Vec<Enforcement>,
}

/// The repository of one aggregate: `Database::{constructor}()`, whose `load` reads
/// the root and its members, and whose `save` and `delete` write them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repository {
    /// The repository's type (`OrderRepository`).
    pub name: String,
    /// The root's document type.
    pub root: String,
    /// The aggregate's type (`OrderAggregate`): `new(root)`, the root and its members.
    pub aggregate: String,
    /// Each kind of member: the aggregate's field and the documents' `type`.
    pub members: Vec<(String, String)>,
    /// The container the aggregate lives in.
    pub container: String,
    /// The `Database` method that makes the repository.
    pub constructor: String,
    /// Whether `load` takes the root's id alone (else also its partition key).
    pub by_id: bool,
    /// What `load` sends: its query, or a point read of the root.
    pub sends: String,
}

/// A change-feed worker: `Database::{constructor}()`, whose `run_once` applies every
/// change since its last run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worker {
    /// The worker's type (`OrderToAccountWorker`).
    pub name: String,
    /// The `Database` method that makes it.
    pub constructor: String,
    /// What it keeps: `a copy or feed`, `extended references`, `counts and subsets`
    /// or `ancestors lists`.
    pub keeps: &'static str,
}

/// One access pattern's method on `Database`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternMethod {
    /// The access pattern's name in the model.
    pub pattern: String,
    /// The method's identifier.
    pub method: String,
    /// The parameters before any document argument, in the method's order.
    pub params: Vec<MethodParam>,
    /// What the method returns, and how its results are told apart.
    pub answer: Answer,
    /// The method that reads a page at a time (`…_page`), where there is one.
    pub page: Option<String>,
    /// What it sends: its SQL, its point read, or its requests in order.
    pub sends: String,
}

/// A parameter of a pattern method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodParam {
    /// Its identifier.
    pub ident: String,
    /// Its Rust type as the signature spells it (`&str`, `i64`, `&[&str]`, `&T`).
    pub ty: String,
    /// The pattern parameter it is (the SQL parameter's name without `@`).
    pub parameter: String,
}

/// The shape of a pattern method's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A list of documents or short-form rows (`Vec<T>`).
    List,
    /// At most one document (`Option<T>`): a point read or a query for one.
    Optional,
    /// A list of items, each a result (in field `main`) with what it leads to.
    Items {
        /// The item's field holding the result read first.
        main: String,
    },
    /// The items of [`Answer::Items`] (in field `items` of a struct the method
    /// returns) beside the documents it reads once for all of them: a scan of each
    /// kind nothing in the results refers to, one field each, for the application to
    /// match.
    Scanned {
        /// The item's field holding the result read first.
        main: String,
        /// The answer's fields holding the scanned documents, in the order read.
        scans: Vec<String>,
    },
    /// The newest children a point-read parent keeps (a subset): a list.
    Subset,
    /// The items taken from buckets: a list.
    Buckets,
    /// A write of one document: it takes the document (`&mut T`, or `&T` to delete).
    Write {
        /// The document's Rust type, from the data access module (`super::order::Order`).
        document: String,
        /// Whether it deletes the document (and so takes `&T`).
        delete: bool,
    },
    /// A write of an aggregate's root and members (several arguments).
    AggregateWrite {
        /// Its arguments in the method's order: one per document type it writes, in
        /// the plan's order of its own writes (the root's first).
        params: Vec<WrittenParam>,
    },
    /// An append to a bucket: it takes the parent's key (its one parameter) and the item.
    Append {
        /// The item's Rust type, from the data access module (`super::types::Reading`).
        item: String,
    },
}

/// One argument of an aggregate's write: the documents of one type it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenParam {
    /// Its identifier (`order`, `tickets`).
    pub ident: String,
    /// The documents' Rust type, from the data access module (`super::order::Ticket`).
    pub document: String,
    /// Whether it takes a list of them (`&mut [T]`) rather than one (`&mut T`).
    pub several: bool,
    /// Whether it takes them mutably (to set their etags; a delete takes them shared).
    pub mutable: bool,
}

/// One public item of the generated data access, as `cosmap diff` compares them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiItem {
    /// `method`, `repository` or `worker`.
    pub kind: &'static str,
    /// Its Rust name: `place_an_order`, `order_with_tickets_page`, `OrderRepository`.
    pub name: String,
    /// What it serves: the access pattern, the aggregate's root, or what the worker keeps.
    pub of: String,
    /// What it sends (a method's SQL or requests in order, a repository's load): the
    /// same name sending something else is a change its callers do not see.
    pub sends: String,
}

/// Who enforces one unique value of a design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enforcement {
    /// `Attendee.email`: the document type and its unique attribute.
    pub value: String,
    /// `a unique key of container `Attendee``, or `claims in `UniqueClaims`, taken by
    /// `AttendeeRepository`, `register_an_attendee``, or taken by no generated code.
    pub by: String,
}

impl DataApi {
    /// Every public item (methods and their `…_page` methods, repositories, workers),
    /// sorted by kind and name: what `cosmap diff` compares between two designs.
    pub fn items(&self) -> Vec<ApiItem> {
        let item = |kind: &'static str, name: &str, of: &str, sends: &str| ApiItem {
            kind,
            name: name.to_string(),
            of: of.to_string(),
            sends: sends.to_string(),
        };
        let mut items = Vec::new();
        for m in &self.methods {
            items.push(item("method", &m.method, &m.pattern, &m.sends));
            if let Some(page) = &m.page {
                items.push(item("method", page, &m.pattern, &m.sends));
            }
        }
        for r in &self.repositories {
            items.push(item("repository", &r.name, &r.root, &r.sends));
        }
        for w in &self.workers {
            items.push(item("worker", &w.name, w.keeps, ""));
        }
        items.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
        items
    }
}

/// The listing of the public API `render_data_access` generates for `model`.
pub fn data_api(model: &LogicalModel, mapping: &TypeMapping) -> Result<DataApi, CodegenError> {
    let view = super::view::build(model, mapping).map_err(CodegenError::Model)?;
    let data = super::data_access::build(model, view, mapping);
    let methods = data.patterns.iter().map(method_of).collect();
    let repositories = data.aggregates.iter().map(repository_of).collect();
    let unique = enforcement(model, &data);
    Ok(DataApi {
        workers: workers_of(&data),
        module: data.module,
        methods,
        skipped: data.skipped,
        repositories,
        unique,
    })
}

/// Pattern `p`'s method as the listing shows it.
fn method_of(p: &PatternView) -> PatternMethod {
    let param = |q: &ParamView| MethodParam {
        ident: q.ident.clone(),
        ty: q.ty.clone(),
        parameter: q.sql_name.trim_start_matches('@').to_string(),
    };
    PatternMethod {
        pattern: p.name.clone(),
        method: p.ident.clone(),
        params: p.params.iter().map(param).collect(),
        answer: answer_of(p),
        page: p.page.as_ref().map(|_| format!("{}_page", p.ident)),
        sends: sends(p),
    }
}

/// Aggregate `a`'s repository as the listing shows it.
fn repository_of(a: &AggregateView) -> Repository {
    let members = a.members.iter().map(|m| (m.ident.clone(), m.discriminator.clone()));
    Repository {
        name: a.repository.clone(),
        root: a.root.clone(),
        aggregate: a.aggregate.clone(),
        container: a.container.clone(),
        constructor: a.constructor.clone(),
        by_id: a.by_id,
        members: members.collect(),
        sends: a
            .load_sql
            .as_deref()
            .map_or_else(|| "point read of the root".into(), unquoted),
    }
}

/// Every worker of `data`, with what it keeps.
fn workers_of(data: &DataView) -> Vec<Worker> {
    let feeds = data.workers.iter().map(|w| (&w.feed, "a copy or feed"));
    let refresh = data.refresh_workers.iter().map(|w| (&w.feed, "extended references"));
    let kept = data.kept_workers.iter().map(|w| (&w.feed, "counts and subsets"));
    let ancestors = data.ancestors_workers.iter().map(|w| (&w.feed, "ancestors lists"));
    feeds
        .chain(refresh)
        .chain(kept)
        .chain(ancestors)
        .map(|(feed, keeps)| Worker {
            name: feed.name.clone(),
            constructor: feed.constructor.clone(),
            keeps,
        })
        .collect()
}

/// The shape of what pattern `p`'s method returns.
fn answer_of(p: &PatternView) -> Answer {
    if let Some(w) = &p.write {
        return Answer::Write {
            document: w.document.clone(),
            delete: w.delete,
        };
    }
    if let Some(w) = &p.aggregate_write {
        let param = |p: &WrittenParamView| WrittenParam {
            ident: p.ident.clone(),
            document: p.document.clone(),
            several: p.several,
            mutable: p.mutable,
        };
        return Answer::AggregateWrite {
            params: w.params.iter().map(param).collect(),
        };
    }
    if let Some(a) = &p.append {
        return Answer::Append { item: a.item.clone() };
    }
    if let Some(item) = &p.item {
        let main = item.main_ident.clone();
        if item.scans.is_empty() {
            return Answer::Items { main };
        }
        let scans = item.scans.iter().map(|s| s.ident.clone()).collect();
        return Answer::Scanned { main, scans };
    }
    if p.point_read.as_ref().is_some_and(|r| r.subset.is_some()) {
        return Answer::Subset;
    }
    if p.query.as_ref().is_some_and(|q| q.buckets.is_some()) {
        return Answer::Buckets;
    }
    if p.point_read.is_some() || p.at_most_one {
        return Answer::Optional;
    }
    Answer::List
}

/// SQL as the template writes it (a Rust string literal), read back.
fn unquoted(literal: &str) -> String {
    serde_json::from_str(literal).unwrap_or_else(|_| literal.to_string())
}

/// What pattern method `p` sends: its SQL, its point read, or its requests in order.
fn sends(p: &PatternView) -> String {
    if let Some(q) = &p.query {
        return unquoted(&q.sql);
    }
    if let Some(r) = &p.point_read {
        let (key, id) = (r.key.as_ref().map(listed_key), r.id.as_ref().map(listed));
        let (key, id) = (key.unwrap_or_default(), id.unwrap_or_default());
        return format!("point read of {} at {key}, id {id}", r.document);
    }
    let numbered: Vec<&str> = p
        .docs
        .iter()
        .map(String::as_str)
        .filter(|l| l.split_once(". ").is_some_and(|(n, _)| n.parse::<usize>().is_ok()))
        .collect();
    numbered.join(" ")
}

/// A key's or an id's value as the listing shows it: the parameter or the constant.
fn listed(value: &ValueView) -> String {
    value
        .param
        .clone()
        .or_else(|| value.constant.clone())
        .unwrap_or_default()
}

/// A partition key as the listing shows it (`(tenant, id)` for a tuple).
fn listed_key(key: &KeyView) -> String {
    let levels: Vec<String> = key.levels.iter().map(listed).collect();
    match key.tuple {
        true => format!("({})", levels.join(", ")),
        false => levels.join(", "),
    }
}

/// Who enforces each unique value of `model`: a unique key of its container, or claims
/// taken by the generated functions and repositories of `data` that call its claim function.
fn enforcement(model: &LogicalModel, data: &DataView) -> Vec<Enforcement> {
    let mut out = Vec::new();
    for c in &model.containers {
        for key in &c.unique_keys {
            for path in &key.paths {
                let attribute = path.trim_start_matches('/');
                for d in c
                    .document_types
                    .iter()
                    .filter(|d| d.attributes.iter().any(|a| a.name == attribute))
                {
                    out.push(Enforcement {
                        value: format!("{}.{attribute}", d.name),
                        by: format!("a unique key of container `{}`", c.name),
                    });
                }
            }
        }
        for d in &c.document_types {
            let Some(of) = &d.claim_of else { continue };
            let set = data
                .claim_sets
                .iter()
                .find(|s| s.owner == of.document_type && s.claims.iter().any(|k| k.attribute == of.attribute));
            let function = set.map(|s| s.function.as_str()).unwrap_or_default();
            let mut takers: Vec<String> = data
                .aggregates
                .iter()
                .filter(|a| {
                    a.claim_set.as_deref() == Some(function)
                        || a.members.iter().any(|m| m.claim_set.as_deref() == Some(function))
                })
                .map(|a| format!("`{}`", a.repository))
                .collect();
            takers.extend(
                data.patterns
                    .iter()
                    .filter(|p| calls(p, function))
                    .map(|p| format!("`{}`", p.ident)),
            );
            let by = if takers.is_empty() || set.is_none() {
                format!("claims in `{}`, taken by no generated code", c.name)
            } else {
                format!("claims in `{}`, taken by {}", c.name, takers.join(", "))
            };
            out.push(Enforcement {
                value: format!("{}.{}", of.document_type, of.attribute),
                by,
            });
        }
    }
    out.sort_by(|a, b| a.value.cmp(&b.value));
    out.dedup();
    out
}

/// Whether pattern method `p` calls claim function `function`.
fn calls(p: &PatternView, function: &str) -> bool {
    let single = p.write.as_ref().and_then(|w| w.claim_set.as_deref()) == Some(function);
    let calls = |f: &Option<String>| f.as_deref() == Some(function);
    let several = p
        .aggregate_write
        .as_ref()
        .is_some_and(|w| w.steps.iter().any(|s| calls(&s.claim) || calls(&s.release)));
    single || several
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_generated_pattern_method_of_the_ecommerce_model() {
        let text = include_str!("../../../../examples/ecommerce/model.json");
        let domain = cosmap_domain::from_slice(text.as_bytes(), None).expect("the model loads");
        let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
        let api = data_api(&logical, &TypeMapping::default()).expect("the listing");
        let method = |pattern: &str| {
            let found = api.methods.iter().find(|m| m.pattern == pattern);
            found.unwrap_or_else(|| panic!("no method for `{pattern}`"))
        };
        let orders = method("orders of an account");
        assert_eq!(orders.method, "orders_of_an_account");
        assert_eq!(orders.answer, Answer::List);
        let params: Vec<String> = orders
            .params
            .iter()
            .map(|p| format!("{} {}", p.ty, p.parameter))
            .collect();
        assert_eq!(params, ["&str accountId"]);
        assert_eq!(
            method("address by account id and address type").answer,
            Answer::Optional
        );
        assert!(matches!(
            method("add a bank account").answer,
            Answer::Write { ref document, delete: false } if document == "super::account::BankAccount"
        ));
        assert_eq!(
            api.methods.len(),
            domain.access_patterns().len(),
            "every pattern is generated"
        );
    }

    /// An aggregate's write lists its arguments (the root's first, then each kind of
    /// member, a list where it is written for each) and an append its item's type: what
    /// a dispatch calls them with.
    #[test]
    fn aggregate_writes_list_their_arguments_and_appends_their_item() {
        let listing = |path: &str| {
            let domain = cosmap_domain::load_file(std::path::Path::new(path)).expect("the model loads");
            let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
            data_api(&logical, &TypeMapping::default()).expect("the listing")
        };
        let api = listing(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/ticketing/model.json"
        ));
        let answer = |api: &DataApi, pattern: &str| {
            let m = api.methods.iter().find(|m| m.pattern == pattern);
            m.unwrap_or_else(|| panic!("no method for `{pattern}`")).answer.clone()
        };
        let params = |pattern: &str| match answer(&api, pattern) {
            Answer::AggregateWrite { params } => params
                .iter()
                .map(|p| format!("{} {} {} {}", p.ident, p.document, p.several, p.mutable))
                .collect::<Vec<_>>(),
            other => panic!("`{pattern}` listed as {other:?}"),
        };
        let place = params("place an order");
        assert_eq!(
            place,
            [
                "order super::order::Order false true",
                "tickets super::order::Ticket true true"
            ]
        );
        let cancel = params("cancel an order");
        assert_eq!(
            cancel,
            [
                "order super::order::Order false false",
                "tickets super::order::Ticket true false"
            ]
        );
        let bucket = listing(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/patterns/bucket/model.json"
        ));
        assert!(matches!(
            answer(&bucket, "record a reading"),
            Answer::Append { ref item } if item.ends_with("::Reading")
        ));
    }

    /// A read that scans what nothing in its results refers to returns a struct (its
    /// items and the documents scanned), not a list of items: the listing says so.
    #[test]
    fn a_scan_read_answers_its_items_beside_the_documents_scanned() {
        let text = r#"{"name": "Scan",
          "entities": [
            {"name": "Shop", "identity": "shopId", "attributes": [{"name": "name", "type": "string"}]},
            {"name": "Aisle", "identity": "aisleId", "attributes": [{"name": "label", "type": "string"}]},
            {"name": "Product", "identity": "productId", "attributes": [{"name": "title", "type": "string"}]}],
          "aggregates": [{"root": "Shop", "members": ["Aisle"]}, {"root": "Product"}],
          "relationships": [{"from": "Shop", "to": "Aisle", "cardinality": "squillions"},
            {"from": "Aisle", "to": "Product", "cardinality": "many"}],
          "accessPatterns": [{"name": "aisle with its products", "kind": "read", "start": "Aisle",
            "filter": ["aisleId"], "returns": ["Aisle", "Product"], "perSecond": 5}]}"#;
        let domain = cosmap_domain::from_slice(text.as_bytes(), None).expect("the model loads");
        let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
        let api = data_api(&logical, &TypeMapping::default()).expect("the listing");
        let m = api.methods.first().expect("the read's method");
        let Answer::Scanned { main, scans } = &m.answer else {
            panic!("a scan read listed as {:?}", m.answer);
        };
        // The generated method returns the answer struct, with each listed field.
        let code = crate::render_data_access(
            &logical,
            &TypeMapping::default(),
            &crate::Templates::load(None).expect("the templates load"),
        )
        .expect("the data access renders");
        let signature = format!("pub async fn {}(", m.method);
        let method = code.split(&signature).nth(1).expect("the method is generated");
        let returns = method.split("-> Result<").nth(1).and_then(|r| r.split(',').next());
        let answer = returns.expect("the method returns a result").trim();
        let declared = code.split(&format!("pub struct {answer} {{")).nth(1);
        let fields = declared
            .and_then(|d| d.split('}').next())
            .expect("the answer struct is generated");
        for field in scans.iter().chain(["items".to_string()].iter()) {
            assert!(
                fields.contains(&format!("pub {field}: ")),
                "`{answer}` has no `{field}`: {fields}"
            );
        }
        let item = fields
            .split("pub items: ::std::vec::Vec<")
            .nth(1)
            .and_then(|i| i.split('>').next());
        let item = item.expect("the items' type");
        assert!(code.contains(&format!("pub struct {item} {{")) && code.contains(&format!("pub {main}: ")));
    }
}
