//! Reads: where a read pattern finds its data and the requests that fetch it.

use super::*;

pub(super) fn read(all: &Places<'_>, subsets: &Subsets<'_>, p: &AccessPattern) -> Option<Operation> {
    if let Some(requests) = read_subset(subsets, p).or_else(|| read_buckets(all, p)) {
        return Operation::new(p.name.clone(), p.per_second, requests);
    }
    let mut best: Option<Vec<Request>> = None;
    for location in places(all, &p.start, true) {
        // A feed holds only the newest few: only the pattern it serves may read it.
        let feed_of_another = location
            .document
            .copy_of
            .as_ref()
            .is_some_and(|of| of.newest.is_some() && of.serves != p.name);
        if feed_of_another {
            continue;
        }
        let requests = read_at(all, p, location);
        let better = match &best {
            None => true,
            Some(current) => requests[0].kind() < current[0].kind(),
        };
        if better {
            best = Some(requests);
        }
    }
    Operation::new(p.name.clone(), p.per_second, best?)
}

/// A read a subset serves (`subset`): a point read of the parent that keeps the
/// newest children, by the one filter's value (its identity and partition key).
pub(super) fn read_subset(subsets: &Subsets<'_>, p: &AccessPattern) -> Option<Vec<Request>> {
    let &(c, d, e) = subsets.get(p.name.as_str())?;
    let parameter = p
        .filters()
        .into_iter()
        .flatten()
        .next()?
        .parameters()
        .into_iter()
        .next()?;
    let action = Action::PointRead {
        partition_key: ValueSource::Parameter(parameter.clone()),
        id: ValueSource::Parameter(parameter),
    };
    let purpose = Purpose::ReadSubset {
        document: d.name.clone(),
        property: e.name.clone(),
        element: p.start.clone(),
    };
    Some(vec![Request::new(action, &c.name, &d.name, purpose)])
}

/// A read of children kept in buckets (`bucket`): a query, in the parent's partition,
/// for the buckets whose windows the pattern's time range touches (a window is the
/// start of its items' times, so `t >= @tMin` keeps the windows from `@tMin`'s own),
/// in the order of the pattern's sort; the application takes the items in range.
pub(super) fn read_buckets(all: &Places<'_>, p: &AccessPattern) -> Option<Vec<Request>> {
    let at = places(all, &p.start, false).find(|l| l.document.role == Role::Bucket && l.path.is_empty())?;
    let (c, d) = (at.container, at.document);
    let b = d.bucket.as_ref()?;
    let key = &c.partition_key_property;
    let mut clauses = vec![format!("{} = @{key}", sql::property("c", key))];
    let mut parameters = vec![key.clone()];
    let length = b.window.prefix_len();
    let mut bounds = Vec::new();
    for f in p.filters().into_iter().flatten().filter(|f| f.is_range()) {
        for parameter in f.parameters() {
            let op = if parameter.ends_with("Min") { ">=" } else { "<=" };
            clauses.push(format!("c.window {op} LEFT(@{parameter}, {length})"));
            // The items' own comparison keeps its strictness.
            let item_op = match (f.op, parameter.ends_with("Min")) {
                (FilterOp::Greater, _) => ">",
                (FilterOp::Less, _) => "<",
                (_, true) => ">=",
                (_, false) => "<=",
            };
            bounds.push((parameter.clone(), item_op.to_string()));
            parameters.push(parameter);
        }
    }
    clauses.push(format!("c.type = {}", sql::literal(&d.discriminator)));
    let descending = p.sort_keys().first().is_some_and(|k| k.descending);
    let sql = format!(
        "SELECT * FROM c WHERE {} ORDER BY c.window{}",
        clauses.join(" AND "),
        if descending { " DESC" } else { "" }
    );
    Some(vec![Request {
        action: Action::query(Some(ValueSource::Parameter(key.clone())), sql, parameters),
        container: c.name.clone(),
        document_types: vec![d.name.clone()],
        purpose: Purpose::ReadBuckets {
            document: d.name.clone(),
            element: p.start.clone(),
            items: b.items.clone(),
            time: b.time.clone(),
            bounds,
            newest_first: descending,
            limit: p.limit,
        },
        index_paths: vec![format!("/{key}/?"), "/type/?".to_string(), "/window/?".to_string()],
        order_by: Vec::new(),
    }])
}

/// What a read's filters bind at one place: the id, the parameter of each level of
/// the partition key (if any), and the conditions on other properties.
struct Bound {
    id: Option<String>,
    levels: Vec<Option<String>>,
    conditions: Vec<Condition>,
}

/// What a read returns besides its start's document: the discriminators and names of
/// the document types the same query reads, and the other requests.
struct Returned {
    types: Vec<String>,
    names: Vec<String>,
    extra: Vec<Request>,
}

impl Returned {
    /// Adds `request`, unless an equal one is already there.
    fn add(&mut self, request: Option<Request>) {
        if let Some(request) = request.filter(|r| !self.extra.contains(r)) {
            self.extra.push(request);
        }
    }
}

/// What a query read at one place is made of.
struct QueryParts<'q> {
    levels: &'q [&'q str],
    bound: &'q Bound,
    prefix: &'q [String],
    types: &'q [String],
    link: Option<&'q str>,
    orders: &'q [(Vec<String>, bool)],
}

/// The requests of read pattern `p` run at `at`: the main read (a point read when
/// the id and the whole key are known, else a query), then the requests for the
/// returned elements stored elsewhere and for the counts.
pub(super) fn read_at(all: &Places<'_>, p: &AccessPattern, at: &Location<'_>) -> Vec<Request> {
    let (c, d) = (at.container, at.document);
    let levels = c.partition_key_properties();
    let mut bound = bind_filters(p, at, levels.len());
    // The partition key: the levels bound from the first on (all of them: one logical
    // partition; fewer: a prefix). A level bound after a gap is a plain condition.
    let prefix: Vec<String> = bound.levels.iter().map_while(Clone::clone).collect();
    let whole_key = !prefix.is_empty() && prefix.len() == levels.len();
    for (level, parameter) in bound.levels.iter().enumerate().skip(prefix.len()) {
        if let Some(parameter) = parameter.as_ref().filter(|p| bound.id.as_ref() != Some(*p)) {
            bound.conditions.push(condition(&[], &[levels[level]], parameter));
        }
    }
    let partition_key = if prefix.is_empty() {
        fixed_partition_key(at)
    } else {
        Some(key_from(
            prefix.iter().cloned().map(ValueSource::Parameter).collect(),
            levels.len(),
        ))
    };
    let returned = returned(all, p, at);
    let orders: Vec<(Vec<String>, bool)> = p
        .sort_keys()
        .iter()
        .filter_map(|k| Some((sort_path(at, k.attribute)?, k.descending)))
        .collect();
    let link = bound.id.as_deref().and_then(|id| child_link(c, d, &returned.names, id));
    // With the id and partition key known, one point read fetches the document; any
    // other filter (say, on an embedded object) is then matched in the application.
    let point_read =
        orders.is_empty() && returned.names.len() == 1 && (whole_key || bound.levels.iter().all(Option::is_none));
    let (action, purpose, index_paths) = match (partition_key, bound.id.clone()) {
        (Some(partition_key), Some(id)) if point_read => {
            let (action, purpose) = point_read_at(p, d, &bound.conditions, partition_key, id);
            (action, purpose, Vec::new())
        }
        (partition_key, _) => {
            let q = QueryParts {
                levels: &levels,
                bound: &bound,
                prefix: &prefix,
                types: &returned.types,
                link,
                orders: &orders,
            };
            (
                query_at(p, at, &q, partition_key),
                read_purpose(p, d),
                index_paths_of(&q),
            )
        }
    };
    let mut requests = vec![Request {
        action,
        container: c.name.clone(),
        document_types: returned.names,
        purpose,
        index_paths,
        order_by: composite_order(&orders),
    }];
    requests.extend(returned.extra);
    requests.extend(p.counts.iter().filter_map(|element| count(all, p, at, element)));
    requests
}

/// The partition key a read at `at` has before any filter binds one: a dictionary's
/// partition (its document type), a feed's one partition (its source's `type`), else none.
fn fixed_partition_key(at: &Location<'_>) -> Option<ValueSource> {
    let d = at.document;
    let feed = d.copy_of.as_ref().filter(|of| of.newest.is_some());
    match (at.container.kind, feed) {
        (ContainerKind::Dictionary, _) => Some(ValueSource::Constant(d.discriminator.clone())),
        // A feed is one logical partition: its source's `type`.
        (ContainerKind::Aggregate, Some(of)) => Some(ValueSource::Constant(crate::discriminator(&of.document_type))),
        (ContainerKind::Aggregate | ContainerKind::Claims, _) => None,
    }
}

/// How each filter of `p` is met at `at` (on a key of `levels` levels): a level of the
/// partition key, the id, or a condition.
fn bind_filters(p: &AccessPattern, at: &Location<'_>, levels: usize) -> Bound {
    let d = at.document;
    let mut bound = Bound {
        id: None,
        levels: vec![None; levels],
        conditions: Vec::new(),
    };
    for entry in p.filters().into_iter().flatten() {
        let f = &entry.attribute.to_string();
        if entry.op != FilterOp::Equal {
            // A range or membership: always a condition, never the partition or the id.
            let found = find_property(at, f).unwrap_or_else(|| unfound(f));
            bound.conditions.push(Condition {
                op: entry.op,
                contains: false,
                ..found
            });
            continue;
        }
        match filter(at, f) {
            Match::PartitionKey(level) => {
                // A path (`member.memberId`) binds its one-word parameter (`memberMemberId`).
                let parameter = entry.parameters().into_iter().next().unwrap_or_else(|| f.clone());
                bound.levels[level] = Some(parameter);
                // A root's id is its identity, which is also (a level of) the partition key.
                if d.role != Role::Copy && identity_of(d) == Some(f.as_str()) {
                    bound.id = Some(f.clone());
                }
            }
            Match::Id => bound.id = Some(f.clone()),
            Match::Condition(condition) => bound.conditions.push(condition),
        }
    }
    bound
}

/// Where the elements `p` returns besides its start are, seen from `at`: in this
/// document, in other documents of the same container (read by the same query), or
/// elsewhere (a request each).
fn returned(all: &Places<'_>, p: &AccessPattern, at: &Location<'_>) -> Returned {
    let (c, d) = (at.container, at.document);
    let mut out = Returned {
        types: vec![d.discriminator.clone()],
        names: vec![d.name.clone()],
        extra: Vec::new(),
    };
    for r in p.returns.iter().filter(|r| **r != p.start) {
        if let Some(parent) = r.split('.').next().and_then(|f| f.strip_suffix('*')) {
            out.add(follow_ancestors(all, at, r, parent));
            continue;
        }
        if stored_beside(at, r) {
            continue;
        }
        let Some(home) = places(all, r, false).next() else {
            out.add(follow_named(all, at, r));
            continue;
        };
        if home.document.name == d.name && home.container.name == c.name {
            continue; // embedded in the document read
        }
        if home.container.name == c.name && c.kind == ContainerKind::Aggregate {
            if !out.types.contains(&home.document.discriminator) {
                out.types.push(home.document.discriminator.clone());
                out.names.push(home.document.name.clone());
            }
            continue;
        }
        out.extra.push(follow(at, home));
    }
    out
}

/// The ancestors up a tree's parent link (`parent*`, returned as `r`): with the
/// document when it lists them (`treeAncestors`), else one point read per level.
fn follow_ancestors(all: &Places<'_>, at: &Location<'_>, r: &str, parent: &str) -> Option<Request> {
    let rest = r.split_once('.').map(|(_, rest)| rest);
    let listed = at.node.references().iter().any(|x| {
        x.ancestry.as_ref().is_some_and(|a| a.parent == parent)
            && rest.is_none_or(|rest| {
                x.extended
                    .as_ref()
                    .is_some_and(|e| e.attributes.iter().any(|a| a.name == rest))
            })
    });
    if listed {
        return None;
    }
    let reference = at.node.references().iter().find(|x| x.name == parent && !x.many)?;
    let target = places(all, &reference.target, false).next()?;
    Some(Request {
        purpose: Purpose::FollowAncestors {
            target: reference.target.clone(),
            reference: parent.to_string(),
        },
        ..follow_reference(target, reference)
    })
}

/// Whether returned path `r` is an attribute stored beside its reference
/// (`extendedReference`): it comes with the document.
fn stored_beside(at: &Location<'_>, r: &str) -> bool {
    let Some((first, rest)) = r.split_once('.') else {
        return false;
    };
    at.node.references().iter().any(|x| {
        x.name == first
            && x.extended
                .as_ref()
                .is_some_and(|e| e.attributes.iter().any(|a| a.name == rest))
    })
}

/// A returned property of the start (`categories`) or a path (`author.username`) that
/// is no element: the reference of that name is followed (the application takes the
/// attribute); an embedded value object comes with the document (`None`).
fn follow_named(all: &Places<'_>, at: &Location<'_>, r: &str) -> Option<Request> {
    let first = r.split('.').next().unwrap_or(r);
    let reference = at.node.references().iter().find(|x| x.name == first)?;
    let target = places(all, &reference.target, false).next()?;
    Some(if reference.many {
        read_listed(target, reference)
    } else {
        follow_reference(target, reference)
    })
}

/// The point read of `d` by `id` in `partition_key`, with the pattern's other
/// `conditions` (if any) matched in the application.
fn point_read_at(
    p: &AccessPattern,
    d: &DocumentType,
    conditions: &[Condition],
    partition_key: ValueSource,
    id: String,
) -> (Action, Purpose) {
    let purpose = if conditions.is_empty() {
        read_purpose(p, d)
    } else {
        Purpose::ReadMatchedInApplication {
            document: d.name.clone(),
            element: p.start.clone(),
            filters: conditions.iter().map(|c| c.param.clone()).collect(),
        }
    };
    let action = Action::PointRead {
        partition_key,
        id: ValueSource::Parameter(id),
    };
    (action, purpose)
}

/// The query of pattern `p` at `at`, in `partition_key` (if known): the key levels
/// given, the id, the conditions, the document types, the limit and the order.
fn query_at(p: &AccessPattern, at: &Location<'_>, q: &QueryParts<'_>, partition_key: Option<ValueSource>) -> Action {
    let c = at.container;
    let mut clauses = Vec::new();
    let mut parameters: Vec<String> = Vec::new();
    key_clauses(c, q.levels, partition_key.as_ref(), &mut clauses, &mut parameters);
    if let Some(id) = &q.bound.id {
        id_clause(c, q, id, &mut clauses, &mut parameters);
    }
    let (joins, conjunction) = sql::joins_and_conjunction(&q.bound.conditions);
    clauses.extend(conjunction);
    for parameter in q.bound.conditions.iter().flat_map(Condition::parameters) {
        if !parameters.contains(&parameter) {
            parameters.push(parameter);
        }
    }
    clauses.push(type_clause(q.types));
    let top = p.limit.map(|n| format!("TOP {n} ")).unwrap_or_default();
    // Over a join, the document itself (`*` would give each alias).
    let whole = if joins.is_empty() { "*" } else { "VALUE c" };
    let select = projection(p, at).unwrap_or_else(|| whole.to_string());
    let mut sql = format!(
        "SELECT {top}{select} FROM c{} WHERE {}",
        joins.concat(),
        clauses.join(" AND ")
    );
    if !q.orders.is_empty() {
        sql.push_str(&order_clause(q.orders));
    }
    Action::query(partition_key, sql, parameters)
}

/// The clauses of the partition key levels given (`partition_key`) in `c`.
fn key_clauses(
    c: &Container,
    levels: &[&str],
    partition_key: Option<&ValueSource>,
    clauses: &mut Vec<String>,
    parameters: &mut Vec<String>,
) {
    match (partition_key, c.kind) {
        (Some(ValueSource::Parameter(pk)), ContainerKind::Aggregate) => {
            clauses.push(format!("{} = @{pk}", sql::property("c", &c.partition_key_property)));
            parameters.push(pk.clone());
        }
        // Each level given, in the SQL too.
        (Some(ValueSource::Levels(given)), ContainerKind::Aggregate) => {
            for (level, source) in levels.iter().zip(given) {
                if let ValueSource::Parameter(pk) = source {
                    clauses.push(format!("{} = @{pk}", sql::property("c", level)));
                    parameters.push(pk.clone());
                }
            }
        }
        // A feed's one partition, named in the SQL too (a server that ignores
        // the request's partition key still stays in it).
        (Some(ValueSource::Constant(value)), ContainerKind::Aggregate) => {
            clauses.push(format!(
                "{} = {}",
                sql::property("c", &c.partition_key_property),
                sql::literal(value)
            ));
        }
        _ => {}
    }
}

/// The clause on identity `id`, unless it is a level of the key already given.
fn id_clause(c: &Container, q: &QueryParts<'_>, id: &String, clauses: &mut Vec<String>, parameters: &mut Vec<String>) {
    let is_key = q.prefix.contains(id);
    if is_key && c.kind != ContainerKind::Dictionary {
        return;
    }
    // The root's identity as a level of a hierarchical key past the levels
    // given: with its members (whose ids are their own), matched on that
    // level, which every document of the aggregate holds.
    let level = q
        .levels
        .iter()
        .zip(&q.bound.levels)
        .find(|(_, b)| b.as_ref() == Some(id))
        .map(|(level, _)| *level)
        .filter(|_| q.types.len() > 1);
    match (level, q.link) {
        (Some(level), _) => clauses.push(format!("{} = @{id}", sql::property("c", level))),
        // Its children returned with it hold its identity in their link.
        (None, Some(link)) => clauses.push(format!("(c.id = @{id} OR {} = @{id})", sql::property("c", link))),
        (None, None) => clauses.push(format!("c.id = @{id}")),
    }
    parameters.push(id.clone());
}

/// The clause on the document types read: `c.type = 'x'` or `c.type IN (…)`, sorted.
fn type_clause(types: &[String]) -> String {
    let mut sorted = types.to_vec();
    sorted.sort();
    if sorted.len() == 1 {
        format!("c.type = {}", sql::literal(&sorted[0]))
    } else {
        let list: Vec<String> = sorted.iter().map(|t| sql::literal(t)).collect();
        format!("c.type IN ({})", list.join(", "))
    }
}

/// ` ORDER BY` and the sort paths (`DESC` where descending).
fn order_clause(orders: &[(Vec<String>, bool)]) -> String {
    let by: Vec<String> = orders
        .iter()
        .map(|(o, descending)| {
            let path = sql::path("c", o);
            if *descending {
                format!("{path} DESC")
            } else {
                path
            }
        })
        .collect();
    format!(" ORDER BY {}", by.join(", "))
}

/// The index paths a query read needs: the key levels, `type`, the conditions, the
/// sort paths and the children's link.
fn index_paths_of(q: &QueryParts<'_>) -> Vec<String> {
    let mut index_paths: Vec<String> = q.levels.iter().map(|l| format!("/{l}/?")).collect();
    index_paths.push("/type/?".to_string());
    index_paths.extend(q.bound.conditions.iter().map(index_path));
    index_paths.extend(q.orders.iter().map(|(o, _)| format!("/{}/?", o.join("/"))));
    index_paths.extend(q.link.map(|l| format!("/{l}/?")));
    index_paths
}

/// The composite order an ORDER BY of more than one path needs; none otherwise.
fn composite_order(orders: &[(Vec<String>, bool)]) -> Vec<(String, bool)> {
    if orders.len() < 2 {
        return Vec::new();
    }
    orders
        .iter()
        .map(|(o, descending)| (format!("/{}", o.join("/")), *descending))
        .collect()
}

/// The select list of a short form (`project`): `id`, `type`, the partition key and
/// the projected properties, when the start element is the document read and it
/// stores every one of them; `None` (the whole document) otherwise.
pub(super) fn projection(p: &AccessPattern, at: &Location<'_>) -> Option<String> {
    if p.project.is_empty() || !at.path.is_empty() {
        return None;
    }
    let d = at.document;
    let mut names: Vec<&str> = vec!["id", "type"];
    for level in at.container.partition_key_properties() {
        if !names.contains(&level) {
            names.push(level);
        }
    }
    // What a counted element's number is read from: its list in the document.
    for element in &p.counts {
        let held = d
            .embedded
            .iter()
            .map(|e| (&e.source, &e.name))
            .chain(d.references.iter().map(|r| (&r.target, &r.name)));
        for (source, name) in held {
            if source == element && !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        // Or its count kept on the document (computedValue).
        for v in d.computed.iter().filter(|v| v.counts == *element) {
            if !names.contains(&v.name.as_str()) {
                names.push(&v.name);
            }
        }
    }
    // A path the pattern returns through a reference (`author.username`): the
    // reference, which holds the kept attribute (or leads to it).
    for first in p.returns.iter().filter_map(|r| Some(r.split_once('.')?.0)) {
        if d.references.iter().any(|r| r.name == first) && !names.contains(&first) {
            names.push(first);
        }
    }
    for name in &p.project {
        let stored = d.attributes.iter().any(|a| a.name == *name)
            || d.embedded.iter().any(|e| e.name == *name)
            || d.references.iter().any(|r| r.name == *name)
            || d.parent.as_ref().is_some_and(|l| l.property == *name);
        if identity_of(d) == Some(name.as_str()) {
            continue; // the id
        }
        if !stored {
            return None;
        }
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    Some(
        names
            .iter()
            .map(|n| sql::property("c", n))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

pub(super) fn read_purpose(p: &AccessPattern, d: &DocumentType) -> Purpose {
    Purpose::Read {
        element: p.start.clone(),
        from_copy: d.role == Role::Copy,
    }
}

/// The property that links the other document types `names` read with `d` (in `c`)
/// to a `d` by its identity `id`, when each is a child of `d`'s element: a read of an
/// element with its children by its id matches theirs on the link, not on their ids.
pub(super) fn child_link<'c>(c: &'c Container, d: &DocumentType, names: &[String], id: &str) -> Option<&'c str> {
    let mut others = names.iter().filter(|n| **n != d.name).peekable();
    others.peek()?;
    let mut link = None;
    for name in others {
        let parent = c.document_types.iter().find(|x| x.name == *name)?.parent.as_ref()?;
        if parent.entity != d.source || parent.property != id {
            return None;
        }
        link = Some(parent.property.as_str());
    }
    link
}
