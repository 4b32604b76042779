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
    let model = cx.model;
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
    let cv = module_of(cx.rust, &main.container)?;
    let handle = handle_of(cx.handles, &main.container)?;
    view.field = handle.field.clone();
    view.handle = handle.handle.clone();
    docs[0] = headline(op, &main.purpose);
    let d = main.document_types.first().ok_or("it writes no document type")?;
    let claim_set = claim_set_of(cx.claim_sets, &cv.module, d);
    let write = main.write().unwrap_or(WriteKind::Replace);
    let mut beside = Beside {
        main,
        write,
        claims: claim_set.is_some(),
        counts: Vec::new(),
        ancestors: None,
        docs,
    };
    for r in op.requests.iter().filter(|r| !std::ptr::eq(*r, main)) {
        beside.request(model, r)?;
    }
    let Beside {
        counts,
        ancestors,
        mut docs,
        ..
    } = beside;
    let dv = doc_view(cv, d)?;
    let soft = cx
        .sources
        .contains(&(cv.name.to_string(), dv.discriminator.to_string()));
    let identity = identity_of(model, &main.container, d);
    docs.extend(write_docs(op, d, write, soft, claim_set.is_some()));
    view.returns = ReturnsView::new("()", false, false);
    if ancestors.is_some() && !counts.is_empty() {
        return Err(
            "it keeps both a count and an ancestors list, which generated functions do not do together yet".into(),
        );
    }
    docs.extend(aggregate_write::sent_in_order(op));
    let (counts_empty, has_claims) = (counts.is_empty(), claim_set.is_some());
    view.write = Some(Box::new(WriteView {
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
    }));
    view.docs = docs;
    Ok(view)
}

/// The identity attribute of document type `d` in `container` (empty: an assigned id).
fn identity_of(model: &LogicalModel, container: &str, d: &str) -> String {
    let id = model
        .container(container)
        .and_then(|c| c.document_type(d))
        .map(|d| &d.id);
    match id {
        Some(IdSource::Identity { attribute }) => attribute.clone(),
        _ => String::new(),
    }
}

/// What write pattern `op`'s write of `d` (`write`, a soft delete or not, with claims
/// or not) does, in its docs: first whether it is atomic.
fn write_docs(op: &Operation, d: &str, write: WriteKind, soft: bool, claims: bool) -> Vec<String> {
    let mut docs: Vec<String> = op
        .not_atomic_advice()
        .map(|advice| {
            format!(
                "It is {advice}. This function sends them in that order and releases its claims if the write fails."
            )
        })
        .into_iter()
        .collect();
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
    if claims {
        docs.push(match write {
            WriteKind::Create => "Its unique values are claimed first and released again if the write fails.".to_string(),
            WriteKind::Replace => "It reads the stored document first: a unique value it changes is claimed before the write and the old one released after.".to_string(),
            WriteKind::Delete => "Its unique values are released after the delete.".to_string(),
        });
    }
    docs
}

/// What a write of one document (`main`) sends beside it, read request by request:
/// the counts and subsets on a parent in its batch, a tree's ancestors list made before
/// it, and the doc lines that say so.
struct Beside<'r> {
    main: &'r Request,
    write: WriteKind,
    /// Whether the written document's unique values are claimed (its function claims them).
    claims: bool,
    counts: Vec<CountView>,
    ancestors: Option<AncestorsView>,
    docs: Vec<String>,
}

impl Beside<'_> {
    /// Request `r` of the write's plan, beside its own write.
    fn request(&mut self, model: &LogicalModel, r: &Request) -> Result<(), String> {
        let in_batch =
            r.partition_key() == self.main.partition_key() && r.container == self.main.container && !self.claims;
        match &r.purpose {
            // Claimed and released by the function, through the claim function.
            Purpose::Claim { .. } | Purpose::ReleaseClaim { .. } if self.claims => Ok(()),
            // A count on a parent in the same partition: rewritten in the write's batch.
            Purpose::UpdateCount { property, element, .. } if in_batch => self.count(r, property, element),
            // A subset on a parent in the same partition: the new child put in its
            // place in the parent's list, in the write's batch.
            Purpose::UpdateSubset {
                document,
                property,
                element,
            } if in_batch && self.write == WriteKind::Create => self.subset(model, r, document, property, element),
            // A tree's ancestors list, made from the new parent's before the write.
            Purpose::ReadParentAncestors { document, reference } => self.ancestors(model, r, document, reference),
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
                if !self.docs.contains(&line) {
                    self.docs.push(line);
                }
                Ok(())
            }
            p => Err(format!(
                "it also {} in the same request flow, which generated functions do not do yet",
                lower_camel(&p.to_string())
            )),
        }
    }

    /// The parent's key and id, named by the written document's values (`r`'s).
    fn parent(r: &Request, what: &str) -> Result<(String, String), String> {
        let (Some(ValueSource::Parameter(key)), Some(ValueSource::Parameter(id))) = (r.partition_key(), r.id()) else {
            return Err(format!(
                "its {what} names its parent other than by the written document's values"
            ));
        };
        Ok((key.clone(), id.clone()))
    }

    /// The parent's count `property` of its `element`s, up or down by one in the batch.
    fn count(&mut self, r: &Request, property: &str, element: &str) -> Result<(), String> {
        let (key, id) = Self::parent(r, &format!("count `{property}`"))?;
        let delta = match self.write {
            WriteKind::Create => 1,
            WriteKind::Delete => -1,
            WriteKind::Replace => return Ok(()), // a replace changes no number of children
        };
        self.docs.push(format!(
            "In the same transactional batch, the parent's `{property}` (its number of `{element}`s) goes {}, at the parent's version (read again and retried if it changed meanwhile).",
            if delta > 0 { "up by one" } else { "down by one" }
        ));
        self.counts.push(CountView {
            key,
            id,
            property: property.to_string(),
            delta,
            subset: None,
        });
        Ok(())
    }

    /// The parent's subset `property`: the new `element` put in its place in the batch.
    fn subset(
        &mut self,
        model: &LogicalModel,
        r: &Request,
        document: &str,
        property: &str,
        element: &str,
    ) -> Result<(), String> {
        let (key, id) = Self::parent(r, &format!("subset `{property}`"))?;
        let e = model
            .container(&r.container)
            .and_then(|c| c.document_type(document))
            .and_then(|d| d.embedded.iter().find(|e| e.name == *property))
            .ok_or_else(|| format!("`{document}` keeps no `{property}`"))?;
        let of = e
            .subset
            .as_ref()
            .ok_or_else(|| format!("`{document}.{property}` is not a subset"))?;
        self.docs.push(format!(
            "In the same transactional batch, the new `{element}` takes its place among the parent's `{property}` (its newest {}), at the parent's version (read again and retried if it changed meanwhile).",
            of.newest
        ));
        self.counts.push(CountView {
            key,
            id,
            property: property.to_string(),
            delta: 0,
            subset: subset_view(e),
        });
        Ok(())
    }

    /// The written tree element's ancestors list along `reference`, made from the new
    /// parent's (read first).
    fn ancestors(&mut self, model: &LogicalModel, r: &Request, document: &str, reference: &str) -> Result<(), String> {
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
        self.docs.push(format!(
            "Before the write, it reads the new `{reference}` and sets `{}` to its ancestors and itself (root first).",
            list.name
        ));
        self.ancestors = Some(AncestorsView {
            reference: reference.to_string(),
            list: list.name.clone(),
            attributes,
        });
        Ok(())
    }
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
    if dv.params != 2 || cv.partition_key_paths.len() != 1 {
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
    view.returns = ReturnsView::new("()", false, false);
    view.params = vec![ParamView {
        ident: names::field(key),
        ty: "&str".into(),
        sql_name: format!("@{key}"),
        canonical: None,
        list: false,
    }];
    view.append = Some(Box::new(AppendView {
        bucket: format!("super::{}::{document}", cv.module),
        item: item.to_string(),
        items: items.clone(),
        time: parameter.clone(),
        key: names::field(key),
    }));
    Ok(view)
}
