//! The requests a read sends for each result after its first: references followed,
//! the documents that refer to it, counts, the targets of lists.

use super::*;

/// A follow-up point read per result, through a reference the result holds.
pub(super) fn follow(rust: &RustNames, handles: &[HandleView], r: &Request) -> Result<FollowView, String> {
    if let Purpose::FindReferring { target, .. } = &r.purpose {
        return find_referring(rust, handles, r, target);
    }
    if let Purpose::Count { element, .. } = &r.purpose {
        return count_per_result(handles, r, element);
    }
    if let Purpose::ReadListed { target, reference } = &r.purpose {
        return read_listed(rust, handles, r, target, reference);
    }
    let (target, climb) = match &r.purpose {
        Purpose::FollowReference { target } => (target, None),
        Purpose::FollowAncestors { target, reference } => (target, Some(reference.clone())),
        _ => return Err("which generated functions do not do yet".into()),
    };
    let Action::PointRead { partition_key, id } = &r.action else {
        return Err("not as a point read".into());
    };
    let ValueSource::Property(id_path) = id else {
        return Err("its id does not come from the result".into());
    };
    let key = result_key(partition_key).ok_or("its partition key does not come from the result")?;
    let (handle, cv, d) = followed(rust, handles, r)?;
    let ident = match &climb {
        Some(_) => names::field("ancestors"),
        None => names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
    };
    Ok(FollowView {
        ident,
        document: format!("super::{}::{d}", cv.module),
        field: handle.field.clone(),
        key: Some(key),
        id: id_path.names().to_vec(),
        target: target.clone(),
        climb,
        paths: first_names([id, partition_key]),
        ..FollowView::default()
    })
}

/// A count query per result for its `element`s: a single-partition `COUNT(1)` in the
/// partition the result names, or one `1` per match across partitions, summed.
fn count_per_result(handles: &[HandleView], r: &Request, element: &str) -> Result<FollowView, String> {
    let (sql, parameters) = r.query().ok_or("not as a query")?;
    let handle = handle_of(handles, &r.container)?;
    let key = match r.partition_key() {
        None => None,
        Some(source) => Some(result_key(source).ok_or("in a partition its result does not name by one property")?),
    };
    Ok(FollowView {
        ident: names::field(&format!("{}Count", lower_camel(element))),
        field: handle.field.clone(),
        target: element.to_string(),
        count: Some(CountQueryView {
            sql: format!("{sql:?}"),
            parameters: sql_parameters(parameters),
            key,
        }),
        paths: ["id".to_string()]
            .into_iter()
            .chain(first_names(r.partition_key()))
            .collect(),
        ..FollowView::default()
    })
}

/// A query per result for the documents that refer to it: every parameter bound to
/// the result's id, in the partition that id names when the query has one.
fn find_referring(rust: &RustNames, handles: &[HandleView], r: &Request, target: &str) -> Result<FollowView, String> {
    let (sql, parameters) = r.query().ok_or("not as a query")?;
    let handle = handle_of(handles, &r.container)?;
    let cv = module_of(rust, &r.container)?;
    let item = match &r.document_types[..] {
        [one] => {
            doc_view(cv, one)?;
            format!("super::{}::{one}", cv.module)
        }
        _ => format!("super::{}::{}", cv.module, cv.enum_name),
    };
    if r.partition_key().is_some() && cv.partition_key_paths.len() > 1 {
        return Err("in a partition of a hierarchical key".into());
    }
    Ok(FollowView {
        ident: names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
        document: item,
        field: handle.field.clone(),
        target: target.to_string(),
        query: Some(FindView {
            sql: format!("{sql:?}"),
            parameters: sql_parameters(parameters),
            single: r.partition_key().is_some(),
        }),
        paths: vec!["id".to_string()],
        ..FollowView::default()
    })
}

/// A query per result for the `target`s its list `reference` names.
fn read_listed(
    rust: &RustNames,
    handles: &[HandleView],
    r: &Request,
    target: &str,
    reference: &str,
) -> Result<FollowView, String> {
    let (sql, parameters) = r.query().ok_or("not as a query")?;
    let [parameter] = parameters else {
        return Err("its query does not take exactly one list of ids".into());
    };
    let constant = match r.partition_key() {
        None => None,
        Some(ValueSource::Constant(value)) => Some(format!("{value:?}")),
        Some(_) => return Err("its partition is not a constant".into()),
    };
    let (handle, cv, d) = followed(rust, handles, r)?;
    Ok(FollowView {
        ident: names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
        document: format!("super::{}::{d}", cv.module),
        field: handle.field.clone(),
        target: target.to_string(),
        listed: Some(ListedView {
            sql: format!("{sql:?}"),
            parameter: format!("@{parameter}"),
            list: reference.to_string(),
            constant,
        }),
        paths: vec![reference.to_string()],
        ..FollowView::default()
    })
}

/// What a follow-up request `r` reads: its container's handle and Rust module, and the
/// one document type it reads (which must have a Rust type there).
pub(super) fn followed<'v, 'a>(
    rust: &'v RustNames<'a>,
    handles: &'v [HandleView],
    r: &'v Request,
) -> Result<(&'v HandleView, &'v ContainerNames<'a>, &'v str), String> {
    let handle = handle_of(handles, &r.container)?;
    let cv = module_of(rust, &r.container)?;
    let d = r.document_types.first().ok_or("it reads no document type")?;
    doc_view(cv, d)?;
    Ok((handle, cv, d))
}

/// Where partition key `source` is in each result: a path of its properties, or a constant.
fn result_key(source: &ValueSource) -> Option<ResultKeyView> {
    match source {
        ValueSource::Property(path) => Some(ResultKeyView {
            path: path.names().to_vec(),
            constant: None,
        }),
        ValueSource::Constant(value) => Some(ResultKeyView {
            path: Vec::new(),
            constant: Some(format!("{value:?}")),
        }),
        _ => None,
    }
}

/// The first property of each of `sources` that is a path in the result (`author` of
/// `author.id`).
fn first_names<'s>(sources: impl IntoIterator<Item = &'s ValueSource>) -> Vec<String> {
    let first = |s: &ValueSource| match s {
        ValueSource::Property(path) => path.names().first().cloned(),
        _ => None,
    };
    sources.into_iter().filter_map(first).collect()
}
