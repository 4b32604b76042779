//! A write pattern's view: one document written (with the counts, subsets and
//! ancestors lists kept in its batch), or an append to a bucket.

use super::*;

/// A write pattern: one write of a document the caller gives; the copies it keeps
/// current follow from the change feed (their workers).
pub(super) fn write_pattern(
    cx: &Context<'_>,
    op: &Operation,
    mut view: PatternView,
    mut docs: Vec<String>,
) -> Result<PatternView, String> {
    let Context {
        model,
        rust,
        handles,
        sources,
        claim_sets,
        ..
    } = *cx;
    if let [append] = &op.requests[..] {
        if let Purpose::AppendToBucket { .. } = append.purpose {
            return append_pattern(cx, append, view, docs).map(|mut view| {
                view.docs.extend(aggregate_write::sent_in_order(op));
                view
            });
        }
    }
    let mains: Vec<&Request> = op
        .requests
        .iter()
        .filter(|r| matches!(r.purpose, Purpose::Write { .. } | Purpose::RewriteEmbedding { .. }))
        .collect();
    let [main] = mains[..] else {
        return aggregate_write::view(cx, op, view, docs, &mains);
    };
    if !main.partition_key().is_some_and(ValueSource::is_given) {
        return Err("its write's partition key comes from a document".into());
    }
    let cv = module_of(rust, &main.container)?;
    let handle = handle_of(handles, &main.container)?;
    view.field = handle.field.clone();
    view.handle = handle.handle.clone();
    docs[0] = format!(
        "`{}` ({}): {}.",
        op.pattern,
        cosmap_mapper::human_rate(op.per_second),
        main.purpose
    );
    let d = main.document_types.first().ok_or("it writes no document type")?;
    let claim_set = claim_set_of(claim_sets, &cv.module, d);
    let write = main.write().unwrap_or(WriteKind::Replace);
    let mut counts = Vec::new();
    let mut ancestors = None;
    for r in op.requests.iter().filter(|r| !std::ptr::eq(*r, main)) {
        match &r.purpose {
            // Claimed and released by the function, through the claim function.
            Purpose::Claim { .. } | Purpose::ReleaseClaim { .. } if claim_set.is_some() => {}
            // A count on a parent in the same partition: rewritten in the write's batch.
            Purpose::UpdateCount { property, element, .. }
                if r.partition_key() == main.partition_key()
                    && r.container == main.container
                    && claim_set.is_none() =>
            {
                let (Some(ValueSource::Parameter(key)), Some(ValueSource::Parameter(id))) = (r.partition_key(), r.id())
                else {
                    return Err(format!(
                        "its count `{property}` names its parent other than by the written document's values"
                    ));
                };
                let delta = match write {
                    WriteKind::Create => 1,
                    WriteKind::Delete => -1,
                    WriteKind::Replace => continue, // a replace changes no number of children
                };
                docs.push(format!(
                    "In the same transactional batch, the parent's `{property}` (its number of `{element}`s) goes {}, at the parent's version (read again and retried if it changed meanwhile).",
                    if delta > 0 { "up by one" } else { "down by one" }
                ));
                counts.push(CountView {
                    key: key.clone(),
                    id: id.clone(),
                    update: format!("rt::counted(parent, {property:?}, {delta})"),
                });
            }
            // A subset on a parent in the same partition: the new child put in its
            // place in the parent's list, in the write's batch.
            Purpose::UpdateSubset {
                document,
                property,
                element,
            } if r.partition_key() == main.partition_key()
                && r.container == main.container
                && claim_set.is_none()
                && write == WriteKind::Create =>
            {
                let (Some(ValueSource::Parameter(key)), Some(ValueSource::Parameter(id))) = (r.partition_key(), r.id())
                else {
                    return Err(format!(
                        "its subset `{property}` names its parent other than by the written document's values"
                    ));
                };
                let e = model
                    .container(&r.container)
                    .and_then(|c| c.document_type(document))
                    .and_then(|d| d.embedded.iter().find(|e| e.name == *property))
                    .ok_or_else(|| format!("`{document}` keeps no `{property}`"))?;
                let of = e
                    .subset
                    .as_ref()
                    .ok_or_else(|| format!("`{document}.{property}` is not a subset"))?;
                let (identity, kept) = subset_items(e);
                let sort: Vec<String> = of
                    .sort
                    .iter()
                    .map(|k| match k.strip_prefix('-') {
                        Some(name) => format!("({name:?}, true)"),
                        None => format!("({k:?}, false)"),
                    })
                    .collect();
                docs.push(format!(
                    "In the same transactional batch, the new `{element}` takes its place among the parent's `{property}` (its newest {}), at the parent's version (read again and retried if it changed meanwhile).",
                    of.newest
                ));
                counts.push(CountView {
                    key: key.clone(),
                    id: id.clone(),
                    update: format!(
                        "rt::subset_with(parent, {property:?}, &body, {identity:?}, &[{}], &[{}], {})",
                        quoted(&kept),
                        sort.join(", "),
                        of.newest
                    ),
                });
            }
            // A tree's ancestors list, made from the new parent's before the write.
            Purpose::ReadParentAncestors { document, reference } => {
                let list = model
                    .container(&r.container)
                    .and_then(|c| c.document_type(document))
                    .and_then(|d| {
                        d.references
                            .iter()
                            .find(|l| l.ancestry.as_ref().is_some_and(|a| a.parent == *reference))
                    })
                    .ok_or_else(|| format!("`{document}` keeps no ancestors list along `{reference}`"))?;
                let attributes: Vec<String> = list
                    .extended
                    .as_ref()
                    .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
                    .unwrap_or_default();
                docs.push(format!(
                    "Before the write, it reads the new `{reference}` and sets `{}` to its ancestors and itself (root first).",
                    list.name
                ));
                ancestors = Some(AncestorsView {
                    reference: reference.clone(),
                    list: list.name.clone(),
                    attributes: format!("&[{}]", quoted(&attributes)),
                });
            }
            // Kept current from the change feed, after the write, by a worker.
            p @ (Purpose::SyncCopy { .. }
            | Purpose::SyncFeed { .. }
            | Purpose::SyncExtendedReference { .. }
            | Purpose::SyncAncestors { .. }
            | Purpose::UpdateCount { .. }
            | Purpose::UpdateSubset { .. })
                if !r.partition_key().is_some_and(ValueSource::is_given) =>
            {
                // A query and its rewrite share the purpose: said once.
                let line = format!(
                    "Then, from the change feed: {} (its worker).",
                    lower_camel(&p.to_string())
                );
                if !docs.contains(&line) {
                    docs.push(line);
                }
            }
            p => {
                return Err(format!(
                    "it also {} in the same request flow, which generated functions do not do yet",
                    lower_camel(&p.to_string())
                ))
            }
        }
    }
    if let Some(advice) = op.not_atomic_advice() {
        docs.push(format!(
            "It is {advice}. This function sends them in that order and releases its claims if the write fails."
        ));
    }

    let dv = doc_view(cv, d)?;
    let soft = sources.contains(&(cv.name.to_string(), dv.discriminator.to_string()));
    let identity = model
        .container(&main.container)
        .and_then(|c| c.document_type(d))
        .and_then(|d| match &d.id {
            IdSource::Identity { attribute } => Some(attribute.clone()),
            IdSource::Assigned => None,
        })
        .unwrap_or_default();
    docs.push(match write {
        WriteKind::Create => format!("Creates the `{d}` (an error if it exists) and sets its `etag`."),
        WriteKind::Replace => format!(
            "Writes the `{d}`: with an `etag`, only over that version (`Error::Stale` otherwise); without, whatever is there. Sets its new `etag`."
        ),
        WriteKind::Delete if soft => format!(
            "Deletes the `{d}` by setting its `ttl`, so the change feed tells what is kept from it; with an `etag`, only that version."
        ),
        WriteKind::Delete => format!("Deletes the `{d}`; with an `etag`, only that version. A missing document is not an error."),
    });
    view.returns = "()".into();
    if claim_set.is_some() {
        docs.push(match write {
            WriteKind::Create => "Its unique values are claimed first and released again if the write fails.".to_string(),
            WriteKind::Replace => "It reads the stored document first: a unique value it changes is claimed before the write and the old one released after.".to_string(),
            WriteKind::Delete => "Its unique values are released after the delete.".to_string(),
        });
    }
    if ancestors.is_some() && !counts.is_empty() {
        return Err(
            "it keeps both a count and an ancestors list, which generated functions do not do together yet".into(),
        );
    }
    docs.extend(aggregate_write::sent_in_order(op));
    let (counts_empty, has_claims) = (counts.is_empty(), claim_set.is_some());
    view.write = Some(WriteView {
        ancestors,
        counts,
        identity,
        claim_set,
        document: format!("super::{}::{d}", cv.module),
        create: write == WriteKind::Create,
        replace: write == WriteKind::Replace,
        delete: write == WriteKind::Delete,
        soft_delete: soft,
        needs_body: write != WriteKind::Delete || soft || !counts_empty || has_claims,
    });
    view.docs = docs;
    Ok(view)
}

/// A write that appends an item to the bucket of its window (`bucket`): the caller
/// gives the parent's key and the item.
fn append_pattern(
    cx: &Context<'_>,
    r: &Request,
    mut view: PatternView,
    mut docs: Vec<String>,
) -> Result<PatternView, String> {
    let Purpose::AppendToBucket { document, items, .. } = &r.purpose else {
        return Err("not an append".into());
    };
    let (Some(ValueSource::Parameter(key)), Some(ValueSource::Window { parameter, .. })) = (r.partition_key(), r.id())
    else {
        return Err("its bucket is not named by a key and a window".into());
    };
    let cv = module_of(cx.rust, &r.container)?;
    let handle = handle_of(cx.handles, &r.container)?;
    let dv = doc_view(cv, document)?;
    if dv.params.len() != 2 || cv.partition_key_paths.len() != 1 {
        return Err(format!("`{document}` is built from more than its window and key"));
    }
    let field = field_of(dv, items)?;
    let item = field
        .ty
        .strip_prefix("::std::vec::Vec<")
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(|| format!("`{document}.{items}` is not a list"))?;
    view.field = handle.field.clone();
    view.handle = handle.handle.clone();
    docs.push(format!(
        "It reads the bucket of the item's window (its `{parameter}`'s first characters) and writes it back with the item added, at the version read (read again and retried if it changed meanwhile); the window's first item creates the bucket. An append retried after an unknown outcome may add the item twice."
    ));
    view.docs = docs;
    view.returns = "()".into();
    view.params = vec![ParamView {
        ident: names::field(key),
        ty: "&str".into(),
        sql_name: format!("@{key}"),
        bind: names::field(key),
    }];
    view.append = Some(AppendView {
        bucket: format!("super::{}::{document}", cv.module),
        item: item.to_string(),
        items: items.clone(),
        time: parameter.clone(),
        key: names::field(key),
    });
    Ok(view)
}
