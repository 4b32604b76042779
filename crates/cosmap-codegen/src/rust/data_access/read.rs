//! A read pattern's view: its first request (a point read, a claim's lookup, a
//! query) with its parameters and keys, and the short form it selects.

use super::*;

/// The view of access pattern `op`: a read's method here, a write's in [`write_pattern`].
pub(super) fn pattern(cx: &Context<'_>, op: &Operation) -> Result<PatternView, String> {
    // A read by a claimed value: the claim's point read names the document read.
    let claim = op
        .requests
        .first()
        .filter(|r| matches!(r.purpose, Purpose::ReadClaim { .. }));
    let main = usize::from(claim.is_some());
    let first = op.requests.get(main).ok_or("it sends no request")?;
    let handle = handle_of(cx.handles, &first.container)?;
    let cv = module_of(cx.rust, &first.container)?;
    let docs = vec![headline(op, claim.map_or(&first.purpose, |c| &c.purpose))];
    let base = base_view(op, handle);
    if op.kind == OperationKind::Write {
        return write_pattern(cx, op, base, docs);
    }
    let mut view = PatternView { docs, ..base };
    // The requests after the first follow each result's references.
    let (follows, scans) = follows_of(cx, &op.requests[main + 1..], &mut view.docs)?;
    plain_read(first, claim)?;
    let read = Read {
        cv,
        first,
        params: params_of(cx, op, first, claim),
    };
    match &first.action {
        Action::PointRead { .. } if claim.is_some() => claim_read(cx, &read, claim, &mut view)?,
        Action::PointRead { partition_key, id } => point_read(&read, partition_key, id, &mut view)?,
        Action::SinglePartitionQuery { sql, .. } | Action::CrossPartitionQuery { sql, .. } => {
            query_read(cx, &read, sql, &mut view)?
        }
        Action::Write { .. } => return Err("its first request is a write".into()),
    }
    with_follows(&mut view, first, follows, scans)?;
    // A read of whole documents that may return many pages them.
    view.page = view
        .query
        .as_ref()
        .filter(|q| q.buckets.is_none() && view.row.is_none() && view.item.is_none() && !view.at_most_one)
        .map(|q| q.item.clone());
    view.params = read.params;
    Ok(view)
}

/// The view of `op` before its body is known: its names and its container's handle.
fn base_view(op: &Operation, handle: &HandleView) -> PatternView {
    PatternView {
        name: op.pattern.clone(),
        per_second: cosmap_mapper::human_rate(op.per_second),
        field: handle.field.clone(),
        handle: handle.handle.clone(),
        ..PatternView::default()
    }
}

/// What a read sends after its first request (`requests`): for each result, or once
/// (a scan of what nothing in the results refers to), each said in `docs`.
fn follows_of(
    cx: &Context<'_>,
    requests: &[Request],
    docs: &mut Vec<String>,
) -> Result<(Vec<FollowView>, Vec<ScanView>), String> {
    let mut follows = Vec::new();
    let mut scans: Vec<ScanView> = Vec::new();
    for r in requests {
        if let Purpose::ScanUnreferenced { target, .. } = &r.purpose {
            let mut scan = scan(cx, r, target)?;
            scan.ident = names::unclaimed(std::mem::take(&mut scan.ident), |n| {
                n == "items" || scans.iter().any(|s| s.ident == n)
            });
            docs.push(format!(
                "Then, once: {}: every one (a cross-partition query), returned beside the results for the application to match.",
                r.purpose
            ));
            scans.push(scan);
            continue;
        }
        match follow(cx.rust, cx.handles, r) {
            Ok(f) => {
                docs.push(format!("Then, for each result: {}.", r.purpose));
                follows.push(f);
            }
            Err(reason) => {
                return Err(format!(
                    "it also {} for each result, {reason}; send it as `cosmap model` shows",
                    lower_camel(&r.purpose.to_string())
                ))
            }
        }
    }
    // Two that read the same target (an author and an editor) are named by the
    // result's property each reads through.
    let named: Vec<String> = follows
        .iter()
        .map(|f| match f.paths.first() {
            Some(path) if follows.iter().filter(|g| g.ident == f.ident).count() > 1 => names::field(path),
            _ => f.ident.clone(),
        })
        .collect();
    let mut idents: BTreeSet<String> = BTreeSet::new();
    for (f, ident) in follows.iter_mut().zip(named) {
        f.ident = names::claim(&mut idents, ident);
    }
    Ok((follows, scans))
}

/// The scan `r` of every `target`, which nothing in the results refers to: one query,
/// across partitions.
fn scan(cx: &Context<'_>, r: &Request, target: &str) -> Result<ScanView, String> {
    let Action::CrossPartitionQuery { sql, parameters } = &r.action else {
        return Err(format!("it reads `{target}` other than by one query across partitions"));
    };
    if !parameters.is_empty() {
        return Err(format!("its scan of `{target}` takes parameters"));
    }
    let (handle, cv, d) = followed(cx.rust, cx.handles, r)?;
    Ok(ScanView {
        ident: names::field(&cosmap_domain::naming::plural(&lower_camel(target))),
        document: format!("super::{}::{d}", cv.module),
        target: target.to_string(),
        field: handle.field.clone(),
        sql: format!("{sql:?}"),
    })
}

/// Whether `first` (after `claim`, if the read is by a claimed value) is a read the
/// generated functions send: a plain read, keyed by the method's parameters.
fn plain_read(first: &Request, claim: Option<&Request>) -> Result<(), String> {
    if !matches!(
        first.purpose,
        Purpose::Read { .. }
            | Purpose::ReadMatchedInApplication { .. }
            | Purpose::ReadSubset { .. }
            | Purpose::ReadBuckets { .. }
    ) {
        return Err(format!("its request ({}) is not a plain read", first.purpose));
    }
    if first.counts_matches() {
        return Err("it counts matches, which generated functions do not do yet".into());
    }
    if let Some(key) = first.partition_key().filter(|_| claim.is_none()) {
        if !key.is_given() {
            return Err("its partition key comes from a document, not from its parameters".into());
        }
    }
    Ok(())
}

/// The method's parameters: those of `op` that `first` (and `claim`) name.
fn params_of(cx: &Context<'_>, op: &Operation, first: &Request, claim: Option<&Request>) -> Vec<ParamView> {
    let mut used = used_parameters(first);
    used.extend(claim.map(used_parameters).unwrap_or_default());
    let types = &cx.rust.types_module;
    let mut params = Vec::new();
    for p in op.parameters.iter().filter(|p| used.contains(&p.name)) {
        let (base_ty, codec) = scalar_type(cx.mapping, p.ty);
        let text = base_ty == STRING;
        // Text is borrowed as `str`; a type with a codec is borrowed and bound in its
        // canonical form.
        let canonical = (codec.is_some() && !text).then(|| types.clone());
        let ty = match (p.list, text) {
            (false, true) => "&str".to_string(),
            (true, true) => "&[&str]".to_string(),
            (false, false) if canonical.is_some() => format!("&{base_ty}"),
            (false, false) => base_ty.to_string(),
            (true, false) => format!("&[{base_ty}]"),
        };
        params.push(ParamView {
            sql_name: format!("@{}", p.name),
            ident: names::field(&p.name),
            ty,
            canonical,
            list: p.list,
        });
    }
    params
}

/// A read's first request, the Rust module of its container, and the method's parameters.
struct Read<'r, 'a> {
    cv: &'r ContainerNames<'a>,
    first: &'r Request,
    params: Vec<ParamView>,
}

impl Read<'_, '_> {
    /// The parameter `@name` as a key's value (it must be text).
    fn text_param(&self, name: &str) -> Result<ValueView, String> {
        let p = self
            .params
            .iter()
            .find(|p| p.sql_name == format!("@{name}"))
            .ok_or_else(|| format!("its key names `@{name}`, which is not one of its parameters"))?;
        if p.ty != "&str" {
            return Err(format!("its key `@{name}` is not text"));
        }
        Ok(ValueView::param(&p.ident))
    }

    /// Partition key `source`, made of the parameters and constants.
    fn key(&self, source: &ValueSource) -> Result<KeyView, String> {
        let value = |l: &ValueSource, from_document: &str| match l {
            ValueSource::Parameter(name) => self.text_param(name),
            ValueSource::Constant(value) => Ok(ValueView::constant(value)),
            _ => Err(from_document.to_string()),
        };
        let levels = match source {
            ValueSource::Levels(levels) => levels
                .iter()
                .map(|l| value(l, "a level of its key comes from a document"))
                .collect::<Result<Vec<_>, _>>()?,
            _ => vec![value(source, "its key comes from a document")?],
        };
        Ok(KeyView {
            tuple: levels.len() > 1,
            levels,
        })
    }

    /// The path of document type `name` in the container's module.
    fn document(&self, name: &str) -> String {
        format!("super::{}::{name}", self.cv.module)
    }

    /// The one document type the first request reads.
    fn read_type(&self) -> Result<&str, String> {
        self.first
            .document_types
            .first()
            .map(String::as_str)
            .ok_or_else(|| "it reads no document type".to_string())
    }
}

/// A read by a claimed value: the claim's point read (`claim`), then the owner it names.
fn claim_read(cx: &Context<'_>, read: &Read, claim: Option<&Request>, view: &mut PatternView) -> Result<(), String> {
    let d = read.read_type()?;
    let claim = claim.ok_or("it reads no claim")?;
    let claims = cx
        .handles
        .iter()
        .find(|h| h.name == claim.container)
        .ok_or("its claims container has no handle")?;
    let (Some(key), Some(ValueSource::Constant(id))) = (claim.partition_key(), claim.id()) else {
        return Err("its claim is not read by the value and a constant id".into());
    };
    view.docs.push(format!("Then: {}.", read.first.purpose));
    view.returns = ReturnsView::new(&read.document(d), false, true);
    view.point_read = Some(Box::new(PointReadView {
        key: None,
        id: None,
        document: read.document(d),
        subset: None,
        claim: Some(ClaimLookupView {
            field: claims.field.clone(),
            key: read.key(key)?,
            id: ValueView::constant(id),
        }),
    }));
    Ok(())
}

/// A point read by the method's parameters (of a parent's subset, or a whole document).
fn point_read(
    read: &Read,
    partition_key: &ValueSource,
    id: &ValueSource,
    view: &mut PatternView,
) -> Result<(), String> {
    let d = read.read_type()?;
    if let Purpose::ReadMatchedInApplication { element, filters, .. } = &read.first.purpose {
        view.docs.push(format!(
            "It returns the whole `{d}`: match `{element}` on {} in the application.",
            filters.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    let id = match id {
        ValueSource::Parameter(name) => read
            .params
            .iter()
            .find(|p| p.sql_name == format!("@{name}"))
            .filter(|p| p.ty == "&str")
            .map(|p| ValueView::param(&p.ident))
            .ok_or_else(|| format!("its id `@{name}` is not a text parameter"))?,
        ValueSource::Constant(value) => ValueView::constant(value),
        _ => return Err("its id comes from a document".into()),
    };
    if levels_of(partition_key).is_some_and(|levels| levels < read.cv.partition_key_paths.len()) {
        return Err("it gives only a prefix of its hierarchical key".into());
    }
    view.returns = ReturnsView::new(&read.document(d), false, true);
    // A subset (`subset`): the parent's list of its newest children.
    let subset = match &read.first.purpose {
        Purpose::ReadSubset { property, .. } => {
            let field = field_of(doc_view(read.cv, d)?, property)?;
            view.returns = ReturnsView::new(&field.ty, false, false);
            view.docs.push(format!(
                "It returns the `{d}`'s `{property}`: empty when there is no `{d}`."
            ));
            Some(field.ident.to_string())
        }
        _ => None,
    };
    view.point_read = Some(Box::new(PointReadView {
        key: Some(read.key(partition_key)?),
        id: Some(id),
        document: read.document(d),
        subset,
        claim: None,
    }));
    Ok(())
}

/// A query (`sql`): in the partition its key names, or across partitions; of whole
/// documents, a short form (a row type) or buckets' items.
fn query_read(cx: &Context<'_>, read: &Read, sql: &str, view: &mut PatternView) -> Result<(), String> {
    let cv = read.cv;
    let key = match read.first.partition_key() {
        Some(partition_key) => {
            // A prefix of a hierarchical key: the SDK routes the query to the
            // physical partitions that hold the prefix.
            if let Some(levels) = levels_of(partition_key).filter(|l| *l < cv.partition_key_paths.len()) {
                view.docs.push(format!(
                    "It gives {levels} of the key's {} levels (a prefix): the query runs in every logical partition under it.",
                    cv.partition_key_paths.len()
                ));
            }
            Some(read.key(partition_key)?)
        }
        None => {
            view.docs
                .push("It fans out over every physical partition (a cross-partition query).".into());
            None
        }
    };
    view.docs.push(format!("`{sql}`"));
    let item = match read.first.projected_properties() {
        Some(properties) => {
            view.row = Some(Box::new(row(
                doc_view(cv, read.read_type()?)?,
                &cv.module,
                &properties,
            )?));
            String::new()
        }
        None if read.first.document_types.len() == 1 => read.document(&read.first.document_types[0]),
        None => format!("super::{}::{}", cv.module, cv.enum_name),
    };
    view.returns = ReturnsView::new(&item, true, false);
    if view.row.is_none() && at_most_one(cx.model, read.first, sql) {
        view.at_most_one = true;
        view.returns = ReturnsView::new(&item, false, true);
        view.docs
            .push("It finds at most one (a `unique` value, or `TOP 1`): `None` when there is none.".into());
    }
    let buckets = buckets_of(read, view)?;
    view.query = Some(Box::new(QueryView {
        sql: format!("{sql:?}"),
        key,
        item,
        buckets,
    }));
    Ok(())
}

/// A read of buckets (`bucket`): the items in range, from the buckets the range touches.
fn buckets_of(read: &Read, view: &mut PatternView) -> Result<Option<BucketsView>, String> {
    let Purpose::ReadBuckets {
        document,
        items,
        time,
        bounds,
        newest_first,
        limit,
        ..
    } = &read.first.purpose
    else {
        return Ok(None);
    };
    let field = field_of(doc_view(read.cv, document)?, items)?;
    view.returns = ReturnsView::new(&field.ty, false, false);
    view.docs.push(format!(
        "It returns the items of the buckets in range, {}{}.",
        if *newest_first { "newest first" } else { "oldest first" },
        limit.map(|n| format!(", at most {n}")).unwrap_or_default()
    ));
    let mut bound_views = Vec::new();
    for (parameter, op) in bounds {
        let p = read
            .params
            .iter()
            .find(|p| p.sql_name == format!("@{parameter}"))
            .ok_or_else(|| format!("its bound `@{parameter}` is not one of its parameters"))?;
        bound_views.push(BoundView {
            param: p.clone(),
            op: op.clone(),
        });
    }
    Ok(Some(BucketsView {
        items: items.clone(),
        time: time.clone(),
        bounds: bound_views,
        newest_first: *newest_first,
        limit: *limit,
    }))
}

/// The items of a read that follows references per result (`follows`): each result
/// (a document, or the short form it selects, which must hold every path followed)
/// with what it leads to.
fn with_follows(
    view: &mut PatternView,
    first: &Request,
    follows: Vec<FollowView>,
    scans: Vec<ScanView>,
) -> Result<(), String> {
    if follows.is_empty() && scans.is_empty() {
        return Ok(());
    }
    let main_ident = first.document_types.first().map(|d| names::field(&lower_camel(d)));
    let main_ident = names::unclaimed(main_ident.unwrap_or_default(), |n| follows.iter().any(|f| f.ident == n));
    let main_type = match (&view.row, &view.query, &view.point_read) {
        // The row's name is given with the method's (`build`).
        (Some(_), _, _) => {
            let selected = first.projected_properties().unwrap_or_default();
            if let Some(path) = follows.iter().flat_map(|f| &f.paths).find(|p| !selected.contains(p)) {
                return Err(format!(
                    "it follows `{path}` for each result, which its short form does not select"
                ));
            }
            String::new()
        }
        (_, Some(q), _) => q.item.clone(),
        (_, _, Some(p)) => p.document.clone(),
        _ => return Err("it reads nothing first".into()),
    };
    view.item = Some(Box::new(ItemView {
        name: String::new(),
        main_ident,
        main_type,
        follows,
        scans,
        answer: String::new(),
    }));
    Ok(())
}

/// Whether `sql` (the read's request `r`) finds at most one document: `TOP 1`, or an
/// equality on a `unique` attribute of the one document type it reads.
pub(super) fn at_most_one(model: &LogicalModel, r: &Request, sql: &str) -> bool {
    if sql.starts_with("SELECT TOP 1 ") {
        return true;
    }
    let [document] = &r.document_types[..] else {
        return false;
    };
    let Some(d) = model.container(&r.container).and_then(|c| c.document_type(document)) else {
        return false;
    };
    d.attributes.iter().filter(|a| a.unique && !a.many).any(|a| {
        let equality = format!(
            "{} = @{} ",
            cosmap_mapper::operations::sql_property("c", &a.name),
            a.name
        );
        format!("{sql} ").contains(&equality)
    })
}

/// The parameters request `r` names: in its key, its id and its SQL.
pub(super) fn used_parameters(r: &Request) -> BTreeSet<String> {
    fn add(source: &ValueSource, out: &mut BTreeSet<String>) {
        match source {
            ValueSource::Parameter(name) => {
                out.insert(name.clone());
            }
            ValueSource::Levels(levels) => levels.iter().for_each(|l| add(l, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    r.partition_key()
        .into_iter()
        .chain(r.id())
        .for_each(|s| add(s, &mut out));
    if let Some((_, names)) = r.query() {
        out.extend(names.iter().cloned());
    }
    out
}

/// How many levels of a hierarchical key `source` gives (`None`: a one-level key).
pub(super) fn levels_of(source: &ValueSource) -> Option<usize> {
    match source {
        ValueSource::Levels(levels) => Some(levels.len()),
        _ => None,
    }
}

/// The row struct of a short form: each selected property typed as in document `dv`.
pub(super) fn row(dv: &DocNames, module: &str, properties: &[String]) -> Result<RowView, String> {
    let mut fields = Vec::new();
    for p in properties {
        let field = match p.as_str() {
            "id" => crate::rust::view_text::plain_field("id", STRING, false, "Document id."),
            "type" => continue,
            _ => dv
                .partition_key_field
                .iter()
                .chain(&dv.sub_key_fields)
                .chain(&dv.fields)
                .find(|f| f.json_name == *p)
                .cloned()
                .map(|mut f| {
                    // The document's default function, called from this module.
                    if let Some(d) = &mut f.default {
                        d.path = format!("super::{module}::{}", d.path);
                    }
                    f.into_owned()
                })
                .ok_or_else(|| format!("it selects `{p}`, which `{}` does not have", dv.name))?,
        };
        fields.push(field);
    }
    Ok(RowView {
        name: String::new(),
        fields,
        kind: format!("super::{module}::kind::{}", dv.name),
    })
}

impl ValueView {
    /// Parameter `ident`'s value.
    pub(super) fn param(ident: &str) -> Self {
        ValueView {
            param: Some(ident.to_string()),
            constant: None,
        }
    }

    /// Constant `value`.
    pub(super) fn constant(value: &str) -> Self {
        ValueView {
            param: None,
            constant: Some(format!("{value:?}")),
        }
    }
}
