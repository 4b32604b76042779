//! The public listing of the generated data access's pattern methods: each method's
//! name, parameters (with the SQL parameter each binds) and the shape of what it
//! returns, from the same view `cosmap_data.rs` is rendered from. A harness that
//! calls the generated methods by pattern name (the oracle crate in `examples/`)
//! writes its calls from this listing instead of parsing the generated Rust.

use cosmap_mapper::LogicalModel;

use super::data_access::{AggregateView, ParamView, PatternView};
use crate::error::CodegenError;
use crate::options::TypeMapping;

/// The pattern methods of one model's generated `Database`, and what is not generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataApi {
    /// The module the data access lives in (`data`, or `data_`).
    pub module: String,
    /// One per generated pattern method, in the order they are generated.
    pub methods: Vec<PatternMethod>,
    /// What is not generated, each with why (as the module's docs list it).
    pub skipped: Vec<String>,
    /// One per generated repository, in the order they are generated.
    pub repositories: Vec<Repository>,
}

/// The repository of one aggregate: `Database::{constructor}()`, whose `load` reads
/// the root and its members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repository {
    /// The root's document type.
    pub root: String,
    /// The container the aggregate lives in.
    pub container: String,
    /// The `Database` method that makes the repository.
    pub constructor: String,
    /// Whether `load` takes the root's id alone (else also its partition key).
    pub by_id: bool,
    /// Each kind of member: the aggregate's field and the documents' `type`.
    pub members: Vec<(String, String)>,
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
    /// The newest children a point-read parent keeps (a subset): a list.
    Subset,
    /// The items taken from buckets: a list.
    Buckets,
    /// A write: it takes a document after its parameters.
    Write,
    /// An append to a bucket: it takes the item.
    Append,
}

/// The listing of the pattern methods `render_data_access` generates for `model`.
pub fn data_api(model: &LogicalModel, mapping: &TypeMapping) -> Result<DataApi, CodegenError> {
    let view = super::view::build(model, mapping).map_err(CodegenError::Model)?;
    let data = super::data_access::build(model, &view, mapping);
    let methods = data.patterns.iter().map(method_of).collect();
    let repositories = data.aggregates.iter().map(repository_of).collect();
    Ok(DataApi {
        module: data.module,
        methods,
        skipped: data.skipped,
        repositories,
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
    }
}

/// Aggregate `a`'s repository as the listing shows it.
fn repository_of(a: &AggregateView) -> Repository {
    let members = a.members.iter().map(|m| (m.ident.clone(), m.discriminator.clone()));
    Repository {
        root: a.root.clone(),
        container: a.container.clone(),
        constructor: a.constructor.clone(),
        by_id: !a.load_params.contains("partition_key"),
        members: members.collect(),
    }
}

/// The shape of what pattern `p`'s method returns.
fn answer_of(p: &PatternView) -> Answer {
    if p.write.is_some() || p.aggregate_write.is_some() {
        return Answer::Write;
    }
    if p.append.is_some() {
        return Answer::Append;
    }
    if let Some(item) = &p.item {
        return Answer::Items {
            main: item.main_ident.clone(),
        };
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
        assert_eq!(method("add a bank account").answer, Answer::Write);
        assert_eq!(
            api.methods.len(),
            domain.access_patterns().len(),
            "every pattern is generated"
        );
    }
}
