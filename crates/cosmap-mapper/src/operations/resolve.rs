//! Resolves each access pattern against a logical model: finds where its data
//! lives (home documents and copies), picks the cheapest way to run it, and
//! writes the SQL.

use cosmap_domain::{AccessKind, AccessPattern, AttributeType, DomainModel, FilterOp, WriteOperation};

use std::collections::BTreeMap;

use super::locate::{index, Location, Step};
use super::sql::{self, Condition};
use super::{Action, Operation, Parameter, PropertyPath, Purpose, Request, ValueSource, WriteKind};
use crate::logical_model::{
    ClaimOf, Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, Keeping, PartitionKeyValue,
    PropertyHolder, Role,
};

/// The operations of every access pattern of `model` on `containers`, by pattern name.
pub(crate) fn resolve(model: &DomainModel, containers: &[Container]) -> Vec<Operation> {
    let mut patterns: Vec<&AccessPattern> = model.access_patterns().iter().collect();
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    let places = index(containers);
    let keepers = keepers(containers);
    let subsets = subsets(containers);
    // The claims containers, found once: a write looks only at them.
    let claims: Vec<&Container> = containers.iter().filter(|k| k.kind == ContainerKind::Claims).collect();
    let one = |p: &&AccessPattern| match p.kind {
        AccessKind::Read => read(&places, &subsets, p).map(|mut op| {
            op.parameters = parameters(model, p);
            op
        }),
        AccessKind::Write => write(model, &places, &claims, &keepers, p),
    };
    let mut operations: Vec<Operation> = patterns.iter().filter_map(one).collect();
    super::live::leave_out_expiring(&mut operations, containers);
    operations
}

/// The parameters a read's caller gives: each filter's, typed by the attribute it
/// compares (text for an identity); an `in` filter takes a list.
fn parameters(model: &DomainModel, p: &AccessPattern) -> Vec<Parameter> {
    let mut out: Vec<Parameter> = Vec::new();
    for filter in p.filters().into_iter().flatten() {
        let ty = model
            .filter_attribute(&p.start, filter.attribute)
            .map_or(AttributeType::String, |a| a.ty);
        for name in filter.parameters() {
            if !out.iter().any(|o| o.name == name) {
                out.push(Parameter {
                    name,
                    ty,
                    list: filter.op == FilterOp::In,
                });
            }
        }
    }
    out
}

/// The documents that keep something derived from other documents current (a count,
/// a subset, an extended reference kept in sync), with their containers: found once,
/// so that each write looks only at them.
type Keepers<'a> = Vec<(&'a Container, &'a DocumentType)>;

fn keepers(containers: &[Container]) -> Keepers<'_> {
    containers
        .iter()
        .flat_map(|c| c.document_types.iter().map(move |d| (c, d)))
        .filter(|(_, d)| {
            !d.computed.is_empty()
                || d.embedded.iter().any(|e| e.subset.is_some())
                || d.references
                    .iter()
                    .any(|r| r.extended.as_ref().is_some_and(|e| e.sync.is_some()))
        })
        .collect()
}

/// The subsets (`subset`) by the pattern each serves, with their parents.
type Subsets<'a> = BTreeMap<&'a str, (&'a Container, &'a DocumentType, &'a Embedded)>;

fn subsets(containers: &[Container]) -> Subsets<'_> {
    let mut out = BTreeMap::new();
    for c in containers {
        for d in &c.document_types {
            for e in &d.embedded {
                if let Some(of) = &e.subset {
                    out.entry(of.serves.as_str()).or_insert((c, d, e));
                }
            }
        }
    }
    out
}

/// Where each element lives (see [`index`]).
type Places<'a> = cosmap_domain::NameMap<&'a str, Vec<Location<'a>>>;

/// The places of `element`; with `copies` unset, its home documents only.
fn places<'p, 'a>(places: &'p Places<'a>, element: &str, copies: bool) -> impl Iterator<Item = &'p Location<'a>> {
    places
        .get(element)
        .into_iter()
        .flatten()
        .filter(move |l| l.document.role != Role::Claim && (copies || l.document.role != Role::Copy))
}

/// How one filter attribute is met in a document.
enum Match {
    /// A level of the partition key (0 unless it is hierarchical).
    PartitionKey(usize),
    Id,
    Condition(Condition),
}

fn read(all: &Places<'_>, subsets: &Subsets<'_>, p: &AccessPattern) -> Option<Operation> {
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
fn read_subset(subsets: &Subsets<'_>, p: &AccessPattern) -> Option<Vec<Request>> {
    let &(c, d, e) = subsets.get(p.name.as_str())?;
    let parameter = p
        .filters()
        .into_iter()
        .flatten()
        .next()?
        .parameters()
        .into_iter()
        .next()?;
    Some(vec![Request {
        action: Action::PointRead {
            partition_key: ValueSource::Parameter(parameter.clone()),
            id: ValueSource::Parameter(parameter),
        },
        container: c.name.clone(),
        document_types: vec![d.name.clone()],
        purpose: Purpose::ReadSubset {
            document: d.name.clone(),
            property: e.name.clone(),
            element: p.start.clone(),
        },
        index_paths: Vec::new(),
        order_by: Vec::new(),
    }])
}

/// A read of children kept in buckets (`bucket`): a query, in the parent's partition,
/// for the buckets whose windows the pattern's time range touches (a window is the
/// start of its items' times, so `t >= @tMin` keeps the windows from `@tMin`'s own),
/// in the order of the pattern's sort; the application takes the items in range.
fn read_buckets(all: &Places<'_>, p: &AccessPattern) -> Option<Vec<Request>> {
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

fn read_at(all: &Places<'_>, p: &AccessPattern, at: &Location<'_>) -> Vec<Request> {
    let c = at.container;
    let d = at.document;
    let feed = d.copy_of.as_ref().filter(|of| of.newest.is_some());
    let mut partition_key = match (c.kind, feed) {
        (ContainerKind::Dictionary, _) => Some(ValueSource::Constant(d.discriminator.clone())),
        // A feed is one logical partition: its source's `type`.
        (ContainerKind::Aggregate, Some(of)) => Some(ValueSource::Constant(crate::discriminator(&of.document_type))),
        (ContainerKind::Aggregate | ContainerKind::Claims, _) => None,
    };
    let mut id = None;
    let mut conditions = Vec::new();
    // The parameter bound to each level of the partition key, if any.
    let levels = c.partition_key_properties();
    let mut bound: Vec<Option<String>> = vec![None; levels.len()];
    for entry in p.filters().into_iter().flatten() {
        let f = &entry.attribute.to_string();
        if entry.op != FilterOp::Equal {
            // A range or membership: always a condition, never the partition or the id.
            let found = find_property(at, f).unwrap_or_else(|| unfound(f));
            conditions.push(Condition {
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
                bound[level] = Some(parameter);
                // A root's id is its identity, which is also (a level of) the partition key.
                if d.role != Role::Copy && identity_of(d) == Some(f.as_str()) {
                    id = Some(f.clone());
                }
            }
            Match::Id => id = Some(f.clone()),
            Match::Condition(condition) => conditions.push(condition),
        }
    }
    // The partition key: the levels bound from the first on (all of them: one logical
    // partition; fewer: a prefix). A level bound after a gap is a plain condition.
    let prefix: Vec<String> = bound.iter().map_while(Clone::clone).collect();
    let whole_key = !prefix.is_empty() && prefix.len() == levels.len();
    for (level, parameter) in bound.iter().enumerate().skip(prefix.len()) {
        if let Some(parameter) = parameter.as_ref().filter(|p| id.as_ref() != Some(*p)) {
            conditions.push(condition(&[], &[levels[level]], parameter));
        }
    }
    if !prefix.is_empty() {
        partition_key = Some(key_from(
            prefix.iter().cloned().map(ValueSource::Parameter).collect(),
            levels.len(),
        ));
    }
    // Returned elements: in this document, in other documents of the same container, or elsewhere.
    let mut types = vec![d.discriminator.clone()];
    let mut names = vec![d.name.clone()];
    let mut extra = Vec::new();
    for r in p.returns.iter().filter(|r| **r != p.start) {
        // The ancestors up a tree's parent link (`parent*`): with the document when it
        // lists them (`treeAncestors`), else one point read per level.
        if let Some(parent) = r.split('.').next().and_then(|f| f.strip_suffix('*')) {
            let rest = r.split_once('.').map(|(_, rest)| rest);
            let listed = at.node.references().iter().any(|x| {
                x.ancestry.as_ref().is_some_and(|a| a.parent == parent)
                    && rest.is_none_or(|rest| {
                        x.extended
                            .as_ref()
                            .is_some_and(|e| e.attributes.iter().any(|a| a.name == rest))
                    })
            });
            let reference = at.node.references().iter().find(|x| x.name == parent && !x.many);
            let target = reference.and_then(|x| places(all, &x.target, false).next());
            if let (false, Some(reference), Some(target)) = (listed, reference, target) {
                let request = Request {
                    purpose: Purpose::FollowAncestors {
                        target: reference.target.clone(),
                        reference: parent.to_string(),
                    },
                    ..follow_reference(target, reference)
                };
                if !extra.contains(&request) {
                    extra.push(request);
                }
            }
            continue;
        }
        // An attribute stored beside its reference (`extendedReference`) comes with the document.
        if let Some((first, rest)) = r.split_once('.') {
            let beside = at.node.references().iter().any(|x| {
                x.name == first
                    && x.extended
                        .as_ref()
                        .is_some_and(|e| e.attributes.iter().any(|a| a.name == rest))
            });
            if beside {
                continue;
            }
        }
        let Some(home) = places(all, r, false).next() else {
            // A property of the start (`categories`) or a path (`author.username`):
            // the reference of that name is followed (the application takes the
            // attribute); an embedded value object comes with the document.
            let first = r.split('.').next().unwrap_or(r);
            let reference = at.node.references().iter().find(|x| x.name == first);
            let target = reference.and_then(|x| places(all, &x.target, false).next());
            if let (Some(reference), Some(target)) = (reference, target) {
                let request = if reference.many {
                    read_listed(target, reference)
                } else {
                    follow_reference(target, reference)
                };
                if !extra.contains(&request) {
                    extra.push(request);
                }
            }
            continue;
        };
        if home.document.name == d.name && home.container.name == c.name {
            continue; // embedded in the document read
        }
        if home.container.name == c.name && c.kind == ContainerKind::Aggregate {
            if !types.contains(&home.document.discriminator) {
                types.push(home.document.discriminator.clone());
                names.push(home.document.name.clone());
            }
            continue;
        }
        extra.push(follow(at, home));
    }
    let orders: Vec<(Vec<String>, bool)> = p
        .sort_keys()
        .iter()
        .filter_map(|k| Some((sort_path(at, k.attribute)?, k.descending)))
        .collect();
    let mut index_paths: Vec<String> = levels.iter().map(|l| format!("/{l}/?")).collect();
    index_paths.push("/type/?".to_string());
    index_paths.extend(conditions.iter().map(index_path));
    index_paths.extend(orders.iter().map(|(o, _)| format!("/{}/?", o.join("/"))));
    let link = id.as_deref().and_then(|id| child_link(c, d, &names, id));
    index_paths.extend(link.map(|l| format!("/{l}/?")));
    // With the id and partition key known, one point read fetches the document; any
    // other filter (say, on an embedded object) is then matched in the application.
    let point_read = orders.is_empty() && names.len() == 1 && (whole_key || bound.iter().all(Option::is_none));
    let (action, purpose) = match (partition_key, id) {
        (Some(partition_key), Some(id)) if point_read => {
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
        (partition_key, id) => {
            let mut clauses = Vec::new();
            let mut parameters: Vec<String> = Vec::new();
            match (&partition_key, c.kind) {
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
            if let Some(id) = &id {
                let is_key = prefix.contains(id);
                // The root's identity as a level of a hierarchical key past the levels
                // given: with its members (whose ids are their own), matched on that
                // level, which every document of the aggregate holds.
                let level = levels
                    .iter()
                    .zip(&bound)
                    .find(|(_, b)| b.as_ref() == Some(id))
                    .map(|(level, _)| *level)
                    .filter(|_| types.len() > 1);
                if !is_key || c.kind == ContainerKind::Dictionary {
                    match (level, link) {
                        (Some(level), _) => clauses.push(format!("{} = @{id}", sql::property("c", level))),
                        // Its children returned with it hold its identity in their link.
                        (None, Some(link)) => {
                            clauses.push(format!("(c.id = @{id} OR {} = @{id})", sql::property("c", link)))
                        }
                        (None, None) => clauses.push(format!("c.id = @{id}")),
                    }
                    parameters.push(id.clone());
                }
            }
            let (joins, conjunction) = sql::joins_and_conjunction(&conditions);
            clauses.extend(conjunction);
            for parameter in conditions.iter().flat_map(Condition::parameters) {
                if !parameters.contains(&parameter) {
                    parameters.push(parameter);
                }
            }
            let mut sorted = types.clone();
            sorted.sort();
            clauses.push(if sorted.len() == 1 {
                format!("c.type = {}", sql::literal(&sorted[0]))
            } else {
                let list: Vec<String> = sorted.iter().map(|t| sql::literal(t)).collect();
                format!("c.type IN ({})", list.join(", "))
            });
            let top = p.limit.map(|n| format!("TOP {n} ")).unwrap_or_default();
            // Over a join, the document itself (`*` would give each alias).
            let whole = if joins.is_empty() { "*" } else { "VALUE c" };
            let select = projection(p, at).unwrap_or_else(|| whole.to_string());
            let mut sql = format!(
                "SELECT {top}{select} FROM c{} WHERE {}",
                joins.concat(),
                clauses.join(" AND ")
            );
            if !orders.is_empty() {
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
                sql.push_str(&format!(" ORDER BY {}", by.join(", ")));
            }
            (Action::query(partition_key, sql, parameters), read_purpose(p, d))
        }
    };
    let point = matches!(action, Action::PointRead { .. });
    let mut requests = vec![Request {
        action,
        container: c.name.clone(),
        document_types: names,
        purpose,
        index_paths: if point { Vec::new() } else { index_paths },
        order_by: if orders.len() > 1 {
            orders
                .iter()
                .map(|(o, descending)| (format!("/{}", o.join("/")), *descending))
                .collect()
        } else {
            Vec::new()
        },
    }];
    requests.extend(extra);
    requests.extend(p.counts.iter().filter_map(|element| count(all, p, at, element)));
    requests
}

/// The query that counts `element`s for each result read at `at`, unless each
/// result stores them (an embedded list, a list of references: the application
/// counts it): one `SELECT VALUE COUNT(1)` in one partition (the result's own, or a
/// dictionary's), or across partitions over the documents that refer to it
/// `SELECT VALUE 1`, whose answers the application counts (the SDK runs no
/// aggregate across partitions).
fn count(all: &Places<'_>, p: &AccessPattern, at: &Location<'_>, element: &str) -> Option<Request> {
    let node = at.node;
    // Kept on the document (`computedValue`) when it is the document read.
    let kept = at.path.is_empty() && at.document.computed.iter().any(|v| v.counts == element);
    // A subset (the newest few) is not all of them: it counts nothing.
    let stored = kept
        || node
            .embedded()
            .iter()
            .any(|e| e.source == element && e.subset.is_none())
        || node.references().iter().any(|r| r.target == element);
    if stored || !at.path.is_empty() {
        return None;
    }
    let home = places(all, element, false).next()?;
    let identity = identity_of(at.document)?.to_string();
    let (c, d) = (at.container, at.document);
    let mut clauses = Vec::new();
    let mut parameters = Vec::new();
    let partition_key = if home.container.name == c.name && c.kind == ContainerKind::Aggregate && d.role != Role::Copy {
        // The result's aggregate: its partition, and below a non-root entity its own children.
        if let Some(link) = home.document.parent.as_ref().filter(|l| l.entity == p.start) {
            clauses.push(format!("{} = @{}", sql::property("c", &link.property), link.property));
            parameters.push(link.property.clone());
        }
        let own = |level: &str| ValueSource::Property(PropertyPath::new([level]));
        let levels = c.partition_key_properties();
        Some(key_from(levels.iter().map(|l| own(l)).collect(), levels.len()))
    } else {
        let r = home
            .document
            .references
            .iter()
            .find(|r| r.target == p.start && !r.many)?;
        // Partitioned by that very reference (check-ins by `/eventId`): the result's id
        // names the one partition its children are in, which is the whole condition.
        let by_reference = home.container.kind == ContainerKind::Aggregate
            && home.container.sub_partition_key_properties.is_empty()
            && home.container.partition_key_property == r.target_identity;
        if !by_reference {
            clauses.push(format!(
                "{} = @{identity}",
                sql::path("c", &[r.name.clone(), "id".to_string()])
            ));
            parameters.push(identity);
        }
        match home.container.kind {
            ContainerKind::Dictionary => Some(ValueSource::Constant(home.document.discriminator.clone())),
            ContainerKind::Aggregate if by_reference => Some(ValueSource::Property(PropertyPath::new(["id"]))),
            ContainerKind::Aggregate | ContainerKind::Claims => None,
        }
    };
    clauses.push(format!("c.type = {}", sql::literal(&home.document.discriminator)));
    // Across partitions the SDK runs no aggregate: one `1` per match, counted by the application.
    let value = if partition_key.is_some() { "COUNT(1)" } else { "1" };
    let sql = format!("SELECT VALUE {value} FROM c WHERE {}", clauses.join(" AND "));
    Some(Request {
        action: Action::query(partition_key, sql, parameters),
        container: home.container.name.clone(),
        document_types: vec![home.document.name.clone()],
        purpose: Purpose::Count {
            element: element.to_string(),
            per: p.start.clone(),
        },
        index_paths: Vec::new(),
        order_by: Vec::new(),
    })
}

/// The select list of a short form (`project`): `id`, `type`, the partition key and
/// the projected properties, when the start element is the document read and it
/// stores every one of them; `None` (the whole document) otherwise.
fn projection(p: &AccessPattern, at: &Location<'_>) -> Option<String> {
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

fn read_purpose(p: &AccessPattern, d: &DocumentType) -> Purpose {
    Purpose::Read {
        element: p.start.clone(),
        from_copy: d.role == Role::Copy,
    }
}

/// A returned element in another container: a point read through the reference
/// the document holds; else a query for those that refer back to it (a list stored
/// the other way round, MR6); else a cross-partition query.
fn follow(from: &Location<'_>, home: &Location<'_>) -> Request {
    let target = &home.document.source;
    let reference = from.document.references.iter().find(|r| &r.target == target && !r.many);
    let back = home
        .document
        .references
        .iter()
        .find(|r| r.target == from.document.source && from.document.role == Role::Root);
    // A list of references to it: read in one query per result (see [`read_listed`]).
    let listed = from.document.references.iter().find(|r| &r.target == target && r.many);
    if let (None, Some(r)) = (reference, listed) {
        return read_listed(home, r);
    }
    match (reference, back, identity_of(from.document)) {
        (Some(r), _, _) => follow_reference(home, r),
        (None, Some(r), Some(identity)) => {
            let c = home.container;
            let by_reference = !r.many
                && r.target != home.document.source
                && c.sub_partition_key_properties.is_empty()
                && c.partition_key_property == r.target_identity;
            // A list element is `{id, partitionKey}`: matched whole where the key follows
            // from the id, else by its id alone, through a join (one row per document: an
            // id appears once in a list; `ARRAY_CONTAINS` with a partial match is not run
            // by every engine).
            let list = sql::property("c", &r.name);
            let (select, condition) = match (r.many, &r.partition_key_value) {
                (true, PartitionKeyValue::SameAsId) => (
                    "* FROM c".to_string(),
                    format!("ARRAY_CONTAINS({list}, {{\"id\": @{identity}, \"partitionKey\": @{identity}}})"),
                ),
                (true, PartitionKeyValue::Constant { value }) => (
                    "* FROM c".to_string(),
                    format!(
                        "ARRAY_CONTAINS({list}, {{\"id\": @{identity}, \"partitionKey\": {}}})",
                        sql::literal(value)
                    ),
                ),
                (true, _) => (
                    format!("VALUE c FROM c JOIN r IN {list}"),
                    format!("r.id = @{identity}"),
                ),
                (false, _) => (
                    "* FROM c".to_string(),
                    format!("{} = @{identity}", sql::path("c", &[r.name.clone(), "id".to_string()])),
                ),
            };
            let sql = format!(
                "SELECT {select} WHERE {condition} AND c.type = {}",
                sql::literal(&home.document.discriminator)
            );
            let index = if r.many {
                format!("/{}/[]/id/?", r.name)
            } else {
                format!("/{}/id/?", r.name)
            };
            Request {
                action: Action::query(
                    by_reference.then(|| ValueSource::Parameter(identity.to_string())),
                    sql,
                    vec![identity.to_string()],
                ),
                container: c.name.clone(),
                document_types: vec![home.document.name.clone()],
                purpose: Purpose::FindReferring {
                    target: target.clone(),
                    from: from.document.source.clone(),
                    reference: r.name.clone(),
                },
                index_paths: vec![index, "/type/?".to_string()],
                order_by: Vec::new(),
            }
        }
        _ => Request {
            action: Action::CrossPartitionQuery {
                sql: format!(
                    "SELECT * FROM c WHERE c.type = {}",
                    sql::literal(&home.document.discriminator)
                ),
                parameters: Vec::new(),
            },
            container: home.container.name.clone(),
            document_types: vec![home.document.name.clone()],
            purpose: Purpose::ScanUnreferenced {
                target: target.clone(),
                from: from.document.name.clone(),
            },
            index_paths: vec!["/type/?".to_string()],
            order_by: Vec::new(),
        },
    }
}

/// The targets of list of references `r`, in `home`: one query for the ids the
/// lists of every result hold (`ARRAY_CONTAINS(@<list>Ids, c.id)`), in the one
/// partition the list's keys name when they are a constant (a dictionary), else
/// across partitions.
/// [`crate::cost::choose`] turns it back into a point read per element
/// ([`listed_as_point_reads`]) where that costs less.
fn read_listed(home: &Location<'_>, r: &crate::logical_model::Reference) -> Request {
    let parameter = listed_parameter(&r.name);
    let partition_key = match &r.partition_key_value {
        PartitionKeyValue::Constant { value } => Some(ValueSource::Constant(value.clone())),
        _ => None,
    };
    let sql = format!(
        "SELECT * FROM c WHERE ARRAY_CONTAINS(@{parameter}, c.id) AND c.type = {}",
        sql::literal(&home.document.discriminator)
    );
    Request {
        action: Action::query(partition_key, sql, vec![parameter]),
        container: home.container.name.clone(),
        document_types: vec![home.document.name.clone()],
        purpose: Purpose::ReadListed {
            target: home.document.source.clone(),
            reference: r.name.clone(),
        },
        index_paths: vec!["/type/?".to_string()],
        order_by: Vec::new(),
    }
}

/// The parameter a [`Purpose::ReadListed`] query binds to the ids of list `reference`:
/// `@partsIds` for `parts`.
pub fn listed_parameter(reference: &str) -> String {
    format!("{reference}Ids")
}

/// A [`Purpose::ReadListed`] query as the other way to read the same documents: a
/// point read of each element of the list (its id and partition key); `None` for any
/// other request.
pub fn listed_as_point_reads(r: &Request) -> Option<Request> {
    let Purpose::ReadListed { target, reference } = &r.purpose else {
        return None;
    };
    Some(Request {
        action: Action::PointRead {
            partition_key: ValueSource::Property(PropertyPath::new([reference.as_str(), "partitionKey"])),
            id: ValueSource::Property(PropertyPath::new([reference.as_str(), "id"])),
        },
        container: r.container.clone(),
        document_types: r.document_types.clone(),
        purpose: Purpose::FollowReference { target: target.clone() },
        index_paths: Vec::new(),
        order_by: Vec::new(),
    })
}

/// A point read of what reference `r` leads to, in `home`: for a list of
/// references, of each element (the id and partition key of each).
fn follow_reference(home: &Location<'_>, r: &crate::logical_model::Reference) -> Request {
    Request {
        action: Action::PointRead {
            partition_key: ValueSource::Property(PropertyPath::new([r.name.as_str(), "partitionKey"])),
            id: ValueSource::Property(PropertyPath::new([r.name.as_str(), "id"])),
        },
        container: home.container.name.clone(),
        document_types: vec![home.document.name.clone()],
        purpose: Purpose::FollowReference {
            target: home.document.source.clone(),
        },
        index_paths: Vec::new(),
        order_by: Vec::new(),
    }
}

/// How many of `element`, a member of its aggregate, the start of write pattern `p`
/// holds, when several: the member is written (and its values claimed) once for
/// each. Of two relationships between them, the larger count (whatever their order).
pub(crate) fn members(model: &DomainModel, p: &AccessPattern, element: &str) -> Option<super::Each> {
    if element == p.start || model.is_root(element) || !model.same_aggregate(&p.start, element) {
        return None;
    }
    let typical = model
        .relationships_from(&p.start)
        .filter(|r| r.to == element && r.is_many())
        .map(|r| r.typical().unwrap_or(1.0))
        .reduce(f64::max)?;
    Some(super::Each {
        of: p.start.clone(),
        typical,
    })
}

fn write(
    model: &DomainModel,
    all: &Places<'_>,
    claims: &[&Container],
    keepers: &Keepers<'_>,
    p: &AccessPattern,
) -> Option<Operation> {
    let kind = match p.write.unwrap_or(WriteOperation::Replace) {
        WriteOperation::Create => WriteKind::Create,
        WriteOperation::Replace => WriteKind::Replace,
        WriteOperation::Delete => WriteKind::Delete,
    };
    let mut elements = vec![p.start.as_str()];
    elements.extend(p.returns.iter().map(String::as_str).filter(|r| *r != p.start));
    let mut requests: Vec<Request> = Vec::new();
    // Claims released after every other write of the pattern.
    let mut releases: Vec<Request> = Vec::new();
    for element in elements {
        let Some(home) = places(all, element, false).next() else {
            continue;
        };
        let (c, d) = (home.container, home.document);
        if requests
            .iter()
            .any(|r| r.container == c.name && r.document_types[0] == d.name)
        {
            continue;
        }
        // Writing an embedded object rewrites the document that holds it.
        let this = if home.path.is_empty() { kind } else { WriteKind::Replace };
        let partition_key = match c.kind {
            ContainerKind::Dictionary => ValueSource::Constant(d.discriminator.clone()),
            ContainerKind::Aggregate | ContainerKind::Claims => {
                let levels = c.partition_key_properties();
                key_from(
                    levels.iter().map(|l| ValueSource::Parameter(l.to_string())).collect(),
                    levels.len(),
                )
            }
        };
        // A child kept in a bucket: appended to its window's bucket.
        if let Some(b) = d.bucket.as_ref().filter(|_| home.path.is_empty()) {
            requests.push(Request {
                action: Action::Write {
                    write: WriteKind::Replace,
                    partition_key: partition_key.clone(),
                    id: ValueSource::Window {
                        parameter: b.time.clone(),
                        length: b.window.prefix_len(),
                    },
                },
                container: c.name.clone(),
                document_types: vec![d.name.clone()],
                purpose: Purpose::AppendToBucket {
                    document: d.name.clone(),
                    element: element.to_string(),
                    items: b.items.clone(),
                },
                index_paths: Vec::new(),
                order_by: Vec::new(),
            });
            continue;
        }
        let id = identity_of(d).unwrap_or("id");
        // A tree's element created or moved: its new parent is read first, whose
        // ancestors and itself make the written one's list (treeAncestors).
        if home.path.is_empty() && matches!(this, WriteKind::Create | WriteKind::Replace) {
            requests.extend(read_parents(c, d));
        }
        // Its own write, whose place the claims come before and whose key the derived
        // data kept in its logical partition shares.
        let own = requests.len();
        let own_key = partition_key.clone();
        requests.push(Request {
            action: Action::Write {
                write: this,
                partition_key,
                id: ValueSource::Parameter(id.to_string()),
            },
            container: c.name.clone(),
            document_types: vec![d.name.clone()],
            purpose: if home.path.is_empty() {
                Purpose::Write {
                    element: element.to_string(),
                    each: members(model, p, element),
                }
            } else {
                Purpose::RewriteEmbedding {
                    document: d.name.clone(),
                    element: element.to_string(),
                }
            },
            index_paths: Vec::new(),
            order_by: Vec::new(),
        });
        // A child written: the subsets of the newest kept in its parent (subset).
        if home.path.is_empty() {
            requests.extend(update_subsets(keepers, c, d, &own_key));
        }
        // A child created or deleted: the counts kept on its parent (computedValue).
        if home.path.is_empty() && matches!(this, WriteKind::Create | WriteKind::Delete) {
            requests.extend(update_counts(keepers, c, d, &own_key));
        }
        // A root replaced: every document that stores its attributes beside a
        // reference to it is found and rewritten (extendedReference).
        if home.path.is_empty() && this == WriteKind::Replace && d.role == Role::Root {
            requests.extend(refresh_extended(keepers, d));
            requests.extend(refresh_ancestors(c, d));
        }
        // A unique value no unique key enforces is claimed before any document of
        // the pattern is written (a taken value writes nothing), and released after
        // every write (uniqueClaim).
        if home.path.is_empty() && matches!(this, WriteKind::Create | WriteKind::Delete) {
            for (claims, claim, of) in claims_of(claims, &c.name, &d.name) {
                let request = Request {
                    action: Action::Write {
                        write: this,
                        partition_key: ValueSource::Parameter(of.attribute.clone()),
                        id: ValueSource::Constant(claim.discriminator.clone()),
                    },
                    container: claims.name.clone(),
                    document_types: vec![claim.name.clone()],
                    purpose: if this == WriteKind::Create {
                        Purpose::Claim {
                            element: element.to_string(),
                            attribute: of.attribute.clone(),
                            each: members(model, p, element),
                        }
                    } else {
                        Purpose::ReleaseClaim {
                            element: element.to_string(),
                            attribute: of.attribute.clone(),
                            each: members(model, p, element),
                        }
                    },
                    index_paths: Vec::new(),
                    order_by: Vec::new(),
                };
                if this == WriteKind::Create {
                    let first_write = requests
                        .iter()
                        .position(|r| {
                            matches!(r.action, Action::Write { .. }) && !matches!(r.purpose, Purpose::Claim { .. })
                        })
                        .unwrap_or(own);
                    requests.insert(first_write, request);
                } else {
                    releases.push(request);
                }
            }
        }
        let copies = places(all, &d.source, true).filter_map(|l| {
            let of = l.document.copy_of.as_ref()?;
            (l.path.is_empty() && of.container == c.name && of.document_type == d.name).then_some((l, of))
        });
        for (copy, of) in copies {
            let target = copy.container;
            requests.push(Request {
                action: Action::Write {
                    write: this,
                    partition_key: ValueSource::Property(of.partition_key_from.clone()),
                    id: ValueSource::Parameter(id.to_string()),
                },
                container: target.name.clone(),
                document_types: vec![copy.document.name.clone()],
                purpose: if of.newest.is_some() {
                    Purpose::SyncFeed {
                        document: d.name.clone(),
                        container: target.name.clone(),
                    }
                } else {
                    Purpose::SyncCopy {
                        document: d.name.clone(),
                        container: target.name.clone(),
                    }
                },
                index_paths: Vec::new(),
                order_by: Vec::new(),
            });
        }
    }
    requests.extend(releases);
    Operation::new(p.name.clone(), p.per_second, requests)
}

/// The point read of the parent of `d` (in `c`) for each ancestors list `d` keeps:
/// through the parent reference the written document holds (none at a root).
fn read_parents(c: &Container, d: &DocumentType) -> Vec<Request> {
    d.references
        .iter()
        .filter_map(|r| r.ancestry.as_ref())
        .filter_map(|a| d.references.iter().find(|r| r.name == a.parent && !r.many))
        .map(|parent| Request {
            action: Action::PointRead {
                partition_key: ValueSource::Property(PropertyPath::new([parent.name.as_str(), "partitionKey"])),
                id: ValueSource::Property(PropertyPath::new([parent.name.as_str(), "id"])),
            },
            container: c.name.clone(),
            document_types: vec![d.name.clone()],
            purpose: Purpose::ReadParentAncestors {
                document: d.name.clone(),
                reference: parent.name.clone(),
            },
            index_paths: Vec::new(),
            order_by: Vec::new(),
        })
        .collect()
}

/// The requests that keep the ancestors lists of `d`'s descendants current after it
/// is replaced (renamed or moved): a query for the documents whose list holds it,
/// across partitions, and a replace of each (its key and id from the document found).
fn refresh_ancestors(c: &Container, d: &DocumentType) -> Vec<Request> {
    let Some(identity) = identity_of(d) else {
        return Vec::new();
    };
    let mut requests = Vec::new();
    // Kept in sync (reference data that never changes has no sync).
    let synced = d
        .references
        .iter()
        .filter(|r| r.extended.as_ref().is_some_and(|e| e.sync.is_some()));
    for (r, a) in synced.filter_map(|r| Some((r, r.ancestry.as_ref()?))) {
        let purpose = Purpose::SyncAncestors {
            document: d.name.clone(),
            element: d.source.clone(),
            property: r.name.clone(),
            reference: a.parent.clone(),
        };
        // One row per document: an id appears once in a list. (A join, as `ARRAY_CONTAINS`
        // with a partial match is not run by every engine.)
        let sql = format!(
            "SELECT VALUE c FROM c JOIN a IN {} WHERE a.id = @{identity} AND c.type = {}",
            sql::property("c", &r.name),
            sql::literal(&d.discriminator)
        );
        let query = Action::query(None, sql, vec![identity.to_string()]);
        let index_paths = vec![format!("/{}/[]/id/?", r.name), "/type/?".to_string()];
        requests.extend(find_and_rewrite(c, d, query, index_paths, purpose));
    }
    requests
}

/// A sync's two requests: `query` for the `d` documents (in `c`) that hold what
/// changed, then a replace of each one found (its key and id from the document).
fn find_and_rewrite(
    c: &Container,
    d: &DocumentType,
    query: Action,
    index_paths: Vec<String>,
    purpose: Purpose,
) -> [Request; 2] {
    let levels = c.partition_key_properties();
    let own = |level: &str| ValueSource::Property(PropertyPath::new([level]));
    [
        Request {
            action: query,
            container: c.name.clone(),
            document_types: vec![d.name.clone()],
            purpose: purpose.clone(),
            index_paths,
            order_by: Vec::new(),
        },
        Request {
            action: Action::Write {
                write: WriteKind::Replace,
                partition_key: key_from(levels.iter().map(|l| own(l)).collect(), levels.len()),
                id: ValueSource::Property(PropertyPath::new(["id"])),
            },
            container: c.name.clone(),
            document_types: vec![d.name.clone()],
            purpose,
            index_paths: Vec::new(),
            order_by: Vec::new(),
        },
    ]
}

/// The requests that keep the extended references to root `target` current, as a write
/// of the root sends them: for each holder, the query that finds the holders and the
/// replace of each one found. For the change-feed worker of a root that no access
/// pattern writes (no operation holds these requests).
pub fn extended_reference_sync(containers: &[Container], target: &DocumentType) -> Vec<Request> {
    let mut requests = refresh_extended(&keepers(containers), target);
    super::live::leave_out_expiring_in(requests.iter_mut(), containers);
    requests
}

/// The requests the change-feed workers that keep extended references current send,
/// whether or not an access pattern writes their roots: what the indexing must cover.
pub fn worker_queries(containers: &[Container]) -> Vec<Request> {
    let keepers = keepers(containers);
    let targets: std::collections::BTreeSet<&str> = keepers
        .iter()
        .flat_map(|(_, d)| &d.references)
        .filter(|r| r.extended.as_ref().is_some_and(|e| e.sync.is_some()))
        .map(|r| r.target.as_str())
        .collect();
    let roots = containers
        .iter()
        .flat_map(|c| c.document_types.iter())
        .filter(|d| d.role == Role::Root && targets.contains(d.source.as_str()));
    roots
        .flat_map(|root| extended_reference_sync(containers, root))
        .collect()
}

/// The requests that keep extended references to root `target` current after it is
/// replaced: for each document type that stores some of its attributes beside a
/// reference to it (and is kept in sync), a query for those that refer to it, in
/// one partition when the holders are partitioned by that reference, and a replace
/// of each one found (its key and id from the document found).
fn refresh_extended(keepers: &Keepers<'_>, target: &DocumentType) -> Vec<Request> {
    let Some(identity) = identity_of(target) else {
        return Vec::new();
    };
    let mut requests = Vec::new();
    let holders = keepers
        .iter()
        .filter(|(c, h)| c.kind == ContainerKind::Aggregate && matches!(h.role, Role::Root | Role::Entity));
    for &(c, h) in holders {
        let synced = |r: &&crate::logical_model::Reference| {
            r.target == target.source && r.extended.as_ref().is_some_and(|e| e.sync.is_some())
        };
        for r in h.references.iter().filter(synced) {
            let purpose = Purpose::SyncExtendedReference {
                document: h.name.clone(),
                reference: r.name.clone(),
                target: target.source.clone(),
            };
            // Partitioned by the reference, not by its own identity (a tree's parent link).
            let by_reference = !r.many
                && r.target != h.source
                && c.sub_partition_key_properties.is_empty()
                && c.partition_key_property == r.target_identity;
            // A list of references: one row per holder, as an id appears once in a list
            // (a join: `ARRAY_CONTAINS` with a partial match is not run by every engine).
            let (sql, index) = if r.many {
                let sql = format!(
                    "SELECT VALUE c FROM c JOIN a IN {} WHERE a.id = @{identity} AND c.type = {}",
                    sql::property("c", &r.name),
                    sql::literal(&h.discriminator)
                );
                (sql, format!("/{}/[]/id/?", r.name))
            } else {
                let sql = format!(
                    "SELECT * FROM c WHERE {} = @{identity} AND c.type = {}",
                    sql::path("c", &[r.name.clone(), "id".to_string()]),
                    sql::literal(&h.discriminator)
                );
                (sql, format!("/{}/id/?", r.name))
            };
            let partition_key = by_reference.then(|| ValueSource::Parameter(identity.to_string()));
            let query = Action::query(partition_key, sql, vec![identity.to_string()]);
            let index_paths = vec![index, "/type/?".to_string()];
            requests.extend(find_and_rewrite(c, h, query, index_paths, purpose));
        }
    }
    requests
}

/// The requests that keep the counts of `child` documents (in `c`, written with
/// partition key `key`) on their parents (`computedValue`).
fn update_counts(keepers: &Keepers<'_>, c: &Container, child: &DocumentType, key: &ValueSource) -> Vec<Request> {
    let mut requests = Vec::new();
    // A copy or feed of the parent carries the count its source keeps: the copy's own
    // sync (from the source's change feed) brings each new count, in the copy's key.
    for &(pc, pd) in keepers.iter().filter(|(_, d)| d.role != Role::Copy) {
        for v in pd
            .computed
            .iter()
            .filter(|v| v.container == c.name && v.document_type == child.name)
        {
            let purpose = Purpose::UpdateCount {
                document: pd.name.clone(),
                property: v.name.clone(),
                element: v.counts.clone(),
            };
            let parent = Parent {
                c: pc,
                d: pd,
                kept: &v.kept,
            };
            requests.extend(parent.kept_by(c, child, key, purpose, |r, identity, by_reference| {
                let sql = format!(
                    "SELECT VALUE {} FROM c WHERE {} = @{identity} AND c.type = {}",
                    if by_reference { "COUNT(1)" } else { "1" },
                    sql::path("c", &[r.name.clone(), "id".to_string()]),
                    sql::literal(&child.discriminator)
                );
                (sql, Vec::new(), Vec::new())
            }));
        }
    }
    requests
}

/// The requests that keep the subsets of `child` documents (in `c`, written with
/// partition key `key`) in their parents (`subset`).
fn update_subsets(keepers: &Keepers<'_>, c: &Container, child: &DocumentType, key: &ValueSource) -> Vec<Request> {
    let mut requests = Vec::new();
    for &(pc, pd) in keepers {
        for e in &pd.embedded {
            let Some(of) = e
                .subset
                .as_ref()
                .filter(|of| of.container == c.name && of.document_type == child.name)
            else {
                continue;
            };
            let purpose = Purpose::UpdateSubset {
                document: pd.name.clone(),
                property: e.name.clone(),
                element: e.source.clone(),
            };
            let parent = Parent {
                c: pc,
                d: pd,
                kept: &of.kept,
            };
            requests.extend(parent.kept_by(c, child, key, purpose, |r, identity, _| {
                let order: Vec<String> = of
                    .sort
                    .iter()
                    .map(|s| match s.strip_prefix('-') {
                        Some(a) => format!("{} DESC", sql::property("c", a)),
                        None => sql::property("c", s),
                    })
                    .collect();
                let sql = format!(
                    "SELECT TOP {} * FROM c WHERE {} = @{identity} AND c.type = {} ORDER BY {}",
                    of.newest,
                    sql::path("c", &[r.name.clone(), "id".to_string()]),
                    sql::literal(&child.discriminator),
                    order.join(", ")
                );
                let paths = of
                    .sort
                    .iter()
                    .map(|s| format!("/{}/?", s.trim_start_matches('-')))
                    .collect();
                // A multi-property ORDER BY needs its composite index.
                let order_by = if of.sort.len() > 1 {
                    of.sort
                        .iter()
                        .map(|s| (format!("/{}", s.trim_start_matches('-')), s.starts_with('-')))
                        .collect()
                } else {
                    Vec::new()
                };
                (sql, paths, order_by)
            }));
        }
    }
    requests
}

/// A parent document that keeps a value derived from its children (a count, a
/// subset), and how it is kept.
struct Parent<'a> {
    c: &'a Container,
    d: &'a DocumentType,
    kept: &'a Keeping,
}

impl Parent<'_> {
    /// The requests that keep the value after a `child` (in `c`, written with key
    /// `key`) is written: in the same batch, a rewrite of the parent in the child's
    /// logical partition (its id from the child's parent link or the root's
    /// identity); from the change feed, the `query` (SQL, index paths, composite
    /// order) over the children that refer to the parent, then its rewrite (its key
    /// and id from the child's reference).
    fn kept_by(
        &self,
        c: &Container,
        child: &DocumentType,
        key: &ValueSource,
        purpose: Purpose,
        query: impl Fn(&crate::logical_model::Reference, &str, bool) -> (String, Vec<String>, Vec<(String, bool)>),
    ) -> Vec<Request> {
        let rewrite = |partition_key: ValueSource, id: ValueSource| Request {
            action: Action::Write {
                write: WriteKind::Replace,
                partition_key,
                id,
            },
            container: self.c.name.clone(),
            document_types: vec![self.d.name.clone()],
            purpose: purpose.clone(),
            index_paths: Vec::new(),
            order_by: Vec::new(),
        };
        let identity = identity_of(self.d).unwrap_or("id").to_string();
        match self.kept {
            Keeping::Batch => {
                let id = match &child.parent {
                    Some(link) if link.entity == self.d.source => link.property.clone(),
                    _ => identity,
                };
                vec![rewrite(key.clone(), ValueSource::Parameter(id))]
            }
            Keeping::ChangeFeed { .. } => {
                let Some(r) = child.references.iter().find(|r| r.target == self.d.source && !r.many) else {
                    return Vec::new();
                };
                let by_reference =
                    c.sub_partition_key_properties.is_empty() && c.partition_key_property == r.target_identity;
                let (sql, paths, order_by) = query(r, &identity, by_reference);
                let from = |leaf: &str| ValueSource::Property(PropertyPath::new([r.name.as_str(), leaf]));
                let mut index_paths = vec![format!("/{}/id/?", r.name), "/type/?".to_string()];
                index_paths.extend(paths);
                vec![
                    Request {
                        action: Action::query(by_reference.then(|| from("id")), sql, vec![identity]),
                        container: c.name.clone(),
                        document_types: vec![child.name.clone()],
                        purpose: purpose.clone(),
                        index_paths,
                        order_by,
                    },
                    rewrite(from("partitionKey"), from("id")),
                ]
            }
        }
    }
}

/// The claim document types (with their container) on `document_type` of `container`,
/// among the `claims` containers.
fn claims_of<'c>(
    claims: &'c [&'c Container],
    container: &'c str,
    document_type: &'c str,
) -> impl Iterator<Item = (&'c Container, &'c DocumentType, &'c ClaimOf)> {
    claims
        .iter()
        .copied()
        .flat_map(|k| k.document_types.iter().map(move |d| (k, d)))
        .filter_map(move |(k, d)| {
            let of = d.claim_of.as_ref()?;
            (of.container == container && of.document_type == document_type).then_some((k, d, of))
        })
}

/// The partition key value `given` makes on a key of `levels` levels: the one value of
/// a single-path key, else the levels given (a prefix when fewer).
fn key_from(mut given: Vec<ValueSource>, levels: usize) -> ValueSource {
    if levels == 1 && given.len() == 1 {
        return given.remove(0);
    }
    ValueSource::Levels(given)
}

/// The property that links the other document types `names` read with `d` (in `c`)
/// to a `d` by its identity `id`, when each is a child of `d`'s element: a read of an
/// element with its children by its id matches theirs on the link, not on their ids.
fn child_link<'c>(c: &'c Container, d: &DocumentType, names: &[String], id: &str) -> Option<&'c str> {
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

fn identity_of(d: &DocumentType) -> Option<&str> {
    d.id.attribute()
}

/// How filter attribute `f` of element `element` is met at `at`.
fn filter(at: &Location<'_>, f: &str) -> Match {
    let levels = at.container.partition_key_properties();
    if let Some(level) = levels.iter().position(|l| *l == f) {
        return Match::PartitionKey(level);
    }
    // A root partitioned by a reference (`partitionKey`): the path to the referenced
    // id (`member.memberId`) is the partition key too.
    if let Some((first, rest)) = f.split_once('.') {
        let level = levels.iter().position(|l| *l == rest);
        // A copy keyed by that reference's id (`author.id` gives its `/userId`) too.
        let copy_keyed = at
            .document
            .copy_of
            .as_ref()
            .is_some_and(|of| of.partition_key_from.names() == [first, "id"]);
        // The key is the first single reference to a root of that identity: with two
        // (`product`, `product2`), a path through the second is a plain condition.
        let keyed = at.path.is_empty()
            && (at.document.role != Role::Copy || copy_keyed)
            && level.is_some()
            && at
                .node
                .references()
                .iter()
                .find(|r| !r.many && r.target_identity == rest && r.target != at.document.source)
                .is_some_and(|r| r.name == first);
        if let (true, Some(level)) = (keyed, level) {
            return Match::PartitionKey(level);
        }
    }
    if at.path.is_empty() && identity_of(at.document) == Some(f) {
        return Match::Id;
    }
    if let Some(parent) = &at.document.parent {
        if parent.property == f {
            return Match::Condition(condition(&[], &[f], f));
        }
    }
    Match::Condition(find_property(at, f).unwrap_or_else(|| unfound(f)))
}

/// A filter the document does not store where it was looked for: a path it does
/// not hold matches nothing (`c.x.y = @p` on a missing path is false), as verify
/// reports; a bare name is looked for on the document itself.
fn unfound(f: &str) -> Condition {
    let leaf: Vec<&str> = f.split('.').collect();
    condition(&[], &leaf, f)
}

/// Where property `f` sits in the element's object: an attribute, a reference's
/// id, or an embedded reference data snapshot's identity.
fn find_property(at: &Location<'_>, f: &str) -> Option<Condition> {
    let node: PropertyHolder<'_> = at.node;
    // A path: a reference and the referenced root's identity, or an embedded
    // object and one of its attributes.
    if let Some((first, rest)) = f.split_once('.') {
        if let Some(r) = node
            .references()
            .iter()
            .find(|r| r.name == first && r.target_identity == rest)
        {
            return Some(reference_condition(at, r, f));
        }
        let mut steps = at.path.clone();
        let e = node.embedded().iter().find(|e| e.name == first)?;
        let attribute = e.attributes.iter().find(|a| a.name == rest)?;
        steps.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        return Some(Condition {
            contains: attribute.many,
            ..condition(&steps, &[rest], f)
        });
    }
    if let Some(attribute) = node.attributes().iter().find(|a| a.name == f) {
        // A list attribute matches when it holds the value (`ARRAY_CONTAINS`).
        return Some(Condition {
            contains: attribute.many,
            ..condition(&at.path, &[f], f)
        });
    }
    if let Some(r) = node.references().iter().find(|r| r.target_identity == f) {
        return Some(reference_condition(at, r, f));
    }
    let snapshot = node
        .embedded()
        .iter()
        .find(|e| e.kind == EmbeddedKind::ReferenceData && e.attributes.first().is_some_and(|a| a.name == f));
    if let Some(e) = snapshot {
        let mut steps = at.path.clone();
        steps.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        return Some(condition(&steps, &[f], f));
    }
    None
}

/// The condition on the id a reference `r` holds: `c.author.id`, or for a list of
/// references its elements' `id` (one must match).
fn reference_condition(at: &Location<'_>, r: &crate::logical_model::Reference, f: &str) -> Condition {
    let mut steps = at.path.clone();
    if r.many {
        steps.push(Step {
            name: r.name.clone(),
            many: true,
        });
        return Condition {
            once: true,
            ..condition(&steps, &["id"], f)
        };
    }
    condition(&steps, &[&r.name, "id"], f)
}

fn condition(steps: &[Step], leaf: &[&str], param: &str) -> Condition {
    Condition {
        steps: steps.to_vec(),
        leaf: leaf.iter().map(|s| s.to_string()).collect(),
        param: param.to_string(),
        contains: false,
        op: FilterOp::Equal,
        once: false,
    }
}

/// The property path of sort attribute `s`, unless it sits inside an array (not sortable).
fn sort_path(at: &Location<'_>, s: &str) -> Option<Vec<String>> {
    match filter(at, s) {
        Match::PartitionKey(level) => at
            .container
            .partition_key_properties()
            .get(level)
            .map(|l| vec![l.to_string()]),
        Match::Id => Some(vec!["id".to_string()]),
        Match::Condition(c) if !c.contains && c.steps.iter().all(|st| !st.many) => {
            Some(c.steps.iter().map(|st| st.name.clone()).chain(c.leaf).collect())
        }
        Match::Condition(_) => None,
    }
}

/// The index path a condition needs, e.g. `/deliveryAddresses/[]/addressType/?`.
fn index_path(c: &Condition) -> String {
    let mut parts: Vec<String> = Vec::new();
    for step in &c.steps {
        parts.push(step.name.clone());
        if step.many {
            parts.push("[]".to_string());
        }
    }
    parts.extend(c.leaf.iter().cloned());
    if c.contains {
        parts.push("[]".to_string());
    }
    format!("/{}/?", parts.join("/"))
}
