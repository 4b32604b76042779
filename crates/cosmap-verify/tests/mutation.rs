//! Mutation test of the oracle: every query the mapper generates for the bundled
//! examples (and the models in `tests/models/`) is mutated — a clause dropped, the
//! attribute a condition reads swapped for another, a range turned around, a sort
//! direction reversed, the `TOP` removed, a property of a short form left out (the
//! id, the partition key and a kept count included) or read from another reference,
//! an equality loosened to `STARTSWITH` or `LOWER`, a range's bound moved off by one —
//! and verify must fail the pattern for at least 95% of the mutants.
//!
//! A mutant that cannot change any answer on documents the model allows is
//! *equivalent* and not counted (it is listed): dropping the partition key condition
//! of a single-partition query (the request's partition key still scopes it), and
//! dropping the type condition when no other document type of the container stores
//! what the remaining conditions read. Every surviving mutant is listed in the
//! test's output (`cargo test -p cosmap-verify --test mutation -- --nocapture`).

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cosmap_domain::DomainModel;
use cosmap_mapper::operations::{Action, OperationKind, Request, ValueSource};
use cosmap_mapper::{Container, DocumentType, LogicalModel, Property};

/// The smallest share of (non-equivalent) mutants verify must kill.
const MIN_KILLED: f64 = 0.95;

/// A query's parts, as `operations::resolve` writes them:
/// `SELECT [TOP n ]{*|VALUE c|c.id, c.type, c.pk, …} FROM c[ JOIN a IN c.list][ WHERE a AND b][ ORDER BY k [DESC], …]`.
#[derive(Debug, Clone)]
struct Query {
    top: Option<String>,
    select: Vec<String>,
    /// A join over a list of the document (`JOIN a IN c.ancestors`).
    join: Option<String>,
    clauses: Vec<String>,
    order: Vec<String>,
}

impl Query {
    fn parse(sql: &str) -> Option<Query> {
        let rest = sql.strip_prefix("SELECT ")?;
        let (top, rest) = match rest.strip_prefix("TOP ") {
            Some(r) => {
                let (n, r) = r.split_once(' ')?;
                (Some(n.to_string()), r)
            }
            None => (None, rest),
        };
        let (select, rest) = rest.split_once(" FROM c")?;
        let select = select.split(", ").map(str::to_string).collect();
        let (join, rest) = match rest.strip_prefix(" JOIN ") {
            Some(r) => match r.split_once(" WHERE ") {
                Some((j, _)) => (Some(j.to_string()), &r[j.len()..]),
                None => (Some(r.to_string()), ""),
            },
            None => (None, rest),
        };
        let (rest, order) = match rest.split_once(" ORDER BY ") {
            Some((r, o)) => (r, o.split(", ").map(str::to_string).collect()),
            None => (rest, Vec::new()),
        };
        let clauses = match rest.strip_prefix(" WHERE ") {
            Some(w) => split_and(w),
            None if rest.is_empty() => Vec::new(),
            None => return None,
        };
        Some(Query {
            top,
            select,
            join,
            clauses,
            order,
        })
    }

    fn sql(&self) -> String {
        let mut sql = String::from("SELECT ");
        if let Some(n) = &self.top {
            let _ = write!(sql, "TOP {n} ");
        }
        let _ = write!(sql, "{} FROM c", self.select.join(", "));
        if let Some(join) = &self.join {
            let _ = write!(sql, " JOIN {join}");
        }
        if !self.clauses.is_empty() {
            let _ = write!(sql, " WHERE {}", self.clauses.join(" AND "));
        }
        if !self.order.is_empty() {
            let _ = write!(sql, " ORDER BY {}", self.order.join(", "));
        }
        sql
    }
}

/// `a AND b AND EXISTS(… AND …)` split at the top level.
fn split_and(conjunction: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let bytes = conjunction.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => depth -= 1,
            b' ' if !quoted && depth == 0 && conjunction[i..].starts_with(" AND ") => {
                out.push(conjunction[start..i].to_string());
                start = i + 5;
                i += 4;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(conjunction[start..].to_string());
    out
}

/// One mutant: which request of which pattern, the new SQL, what was changed.
#[derive(Debug, Clone)]
struct Mutant {
    pattern: String,
    request: usize,
    sql: String,
    change: String,
    equivalent: bool,
}

/// The property a condition reads and its (first) parameter: `c.a.b = @p` → (`b`,
/// `p`); `c.dueOn < @dueOnMax` → (`dueOn`, `dueOnMax`); `ARRAY_CONTAINS(c.tags, @tag)`
/// → (`tags`, `tag`); `ARRAY_CONTAINS(@statusList, c.status)` → (`status`,
/// `statusList`); `(c.x BETWEEN @xMin AND @xMax)` → (`x`, `xMin`); inside `EXISTS`
/// the inner one.
fn condition_property(clause: &str) -> Option<(String, String)> {
    let (left, param) = if let Some(inner) = clause.strip_prefix("ARRAY_CONTAINS(@") {
        let (param, path) = inner.trim_end_matches(')').split_once(", ")?;
        (path.to_string(), param.to_string())
    } else if let Some(inner) = clause.strip_prefix("ARRAY_CONTAINS(") {
        let (path, param) = inner.trim_end_matches(')').rsplit_once(", @")?;
        (path.to_string(), param.to_string())
    } else if clause.starts_with("EXISTS(") {
        let body = clause.rsplit_once(" WHERE ")?.1.trim_end_matches(')');
        return condition_property(split_and(body).first()?);
    } else if let Some(inner) = clause.strip_prefix('(') {
        let (path, rest) = inner.split_once(" BETWEEN @")?;
        (path.to_string(), rest.split(' ').next()?.to_string())
    } else {
        let (left, param) = clause.split_once(" @")?;
        let path = left.rsplit_once(' ')?.0;
        (path.to_string(), param.to_string())
    };
    let name = left.rsplit(['.', '[']).next()?.trim_matches(|c| c == '\'' || c == ']');
    Some((name.to_string(), param))
}

/// A one-sided range condition turned around: `<` ↔ `>=`, `<=` ↔ `>`.
fn reversed_range(clause: &str) -> Option<String> {
    operator_replaced(
        clause,
        [
            (" < @", " >= @"),
            (" <= @", " > @"),
            (" > @", " <= @"),
            (" >= @", " < @"),
        ],
    )
}

/// `clause` with its comparison replaced: the first of the `(from, to)` pairs found.
fn operator_replaced(clause: &str, pairs: [(&str, &str); 4]) -> Option<String> {
    let (at, from, to) = pairs
        .iter()
        .find_map(|(from, to)| Some((clause.find(from)?, from, to)))?;
    Some(format!("{}{to}{}", &clause[..at], &clause[at + from.len()..]))
}

/// The short form's mutants: a property left out — any, the id, the type and the
/// partition key levels included (a short form must be read back and told apart), a
/// count kept on the document named so — or a reference read from another reference
/// of the document (`c.editor AS author`).
fn field_mutants(query: &Query, holder: &DocumentType) -> Vec<(Query, String)> {
    let mut out = Vec::new();
    let whole = |item: &String| item == "*" || item.starts_with("VALUE ");
    for (i, item) in query.select.iter().enumerate().filter(|(_, item)| !whole(item)) {
        let mut q = query.clone();
        q.select.remove(i);
        let count = holder.computed.iter().any(|v| *item == format!("c.{}", v.name));
        let what = if count { "count" } else { "property" };
        out.push((q, format!("{what} `{item}` left out of the short form")));
        let reference = holder.references.iter().find(|r| *item == format!("c.{}", r.name));
        if let Some(r) = reference {
            for other in holder
                .references
                .iter()
                .filter(|o| o.name != r.name && o.many == r.many)
            {
                let mut q = query.clone();
                q.select[i] = format!("c.{} AS {}", other.name, r.name);
                out.push((q, format!("`{item}` read from the reference `{}`", other.name)));
            }
        }
    }
    out
}

/// The comparisons' mutants: an equality on a string loosened to `STARTSWITH` or to
/// `LOWER` on both sides; a range's bound moved off by one. Each with the clause it
/// changed.
fn comparison_mutants(query: &Query, holder: &DocumentType) -> Vec<(Query, String, String)> {
    let mut out = Vec::new();
    for (i, clause) in query.clauses.iter().enumerate() {
        let mut changed = bound_moved(clause);
        if let Some((path, param)) = equality(clause) {
            let name = path.rsplit('.').next().unwrap_or(path);
            let string = name == "id"
                || holder
                    .attributes
                    .iter()
                    .any(|a| a.name == name && a.ty == cosmap_domain::AttributeType::String);
            if string {
                changed.push(format!("STARTSWITH({path}, @{param})"));
                changed.push(format!("LOWER({path}) = LOWER(@{param})"));
            }
        }
        for c in changed {
            let mut q = query.clone();
            q.clauses[i] = c.clone();
            out.push((q, format!("`{clause}` became `{c}`"), clause.clone()));
        }
    }
    out
}

/// `path = @param` (a plain equality, not inside `EXISTS`): its path and parameter.
fn equality(clause: &str) -> Option<(&str, &str)> {
    let (path, param) = clause.split_once(" = @")?;
    let plain = |s: &str| {
        s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '\''))
    };
    (plain(path) && plain(param) && !path.starts_with('@')).then_some((path, param))
}

/// A one-sided range's bound moved off by one (`>=` → `>`, `>` → `>=`, `<=` → `<`,
/// `<` → `<=`); a `BETWEEN` made exclusive at its lower, then its upper end.
fn bound_moved(clause: &str) -> Vec<String> {
    if let Some(inner) = clause.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
        let Some((path, rest)) = inner.split_once(" BETWEEN ") else {
            return Vec::new();
        };
        let Some((low, high)) = rest.split_once(" AND ") else {
            return Vec::new();
        };
        return vec![
            format!("({path} > {low} AND {path} <= {high})"),
            format!("({path} >= {low} AND {path} < {high})"),
        ];
    }
    operator_replaced(
        clause,
        [
            (" >= @", " > @"),
            (" <= @", " < @"),
            (" > @", " >= @"),
            (" < @", " <= @"),
        ],
    )
    .into_iter()
    .collect()
}

/// The mutants of request `index` of `pattern`.
fn mutants_of(logical: &LogicalModel, pattern: &str, index: usize, request: &Request) -> Vec<Mutant> {
    let Some(sql) = request.sql() else {
        return Vec::new();
    };
    let query = Query::parse(sql).unwrap_or_else(|| panic!("cannot parse the generated SQL `{sql}`"));
    let container = logical.container(&request.container).expect("the request's container");
    let holder = request
        .document_types
        .first()
        .and_then(|d| container.document_type(d))
        .expect("the request's first document type");
    let mut out = Vec::new();
    let mut push = |q: Query, change: String, equivalent: bool| {
        out.push(Mutant {
            pattern: pattern.to_string(),
            request: index,
            sql: q.sql(),
            change,
            equivalent,
        });
    };
    for (i, clause) in query.clauses.iter().enumerate() {
        // A clause dropped.
        let mut q = query.clone();
        q.clauses.remove(i);
        let equivalent = scoped_by_partition_key(container, request, clause)
            || (is_type_condition(clause) && no_other_type_matches(container, clause, &q.clauses));
        push(q, format!("dropped `{clause}`"), equivalent);

        // The attribute a condition reads swapped for another of the holder's.
        if let Some((name, _)) = condition_property(clause) {
            let original = holder.attributes.iter().find(|a| a.name == name);
            let candidates: Vec<&Property> = holder.attributes.iter().filter(|a| a.name != name).collect();
            let other = candidates
                .iter()
                .find(|a| original.is_some_and(|o| o.ty == a.ty))
                .or_else(|| candidates.first());
            if let Some(other) = other {
                let mut q = query.clone();
                q.clauses[i] = swap_last(clause, &name, &other.name);
                push(q, format!("`{name}` read as `{}`", other.name), false);
            }
        } else if let Some(literal) = clause.strip_prefix("c.type = ") {
            // The type condition pointed at another document type of the container.
            let other = container
                .document_types
                .iter()
                .map(|d| format!("'{}'", d.discriminator))
                .find(|d| d != literal);
            if let Some(other) = other {
                let mut q = query.clone();
                q.clauses[i] = format!("c.type = {other}");
                push(q, format!("type {literal} read as {other}"), false);
            }
        }
    }
    // A range turned around.
    for (i, clause) in query.clauses.iter().enumerate() {
        if let Some(turned) = reversed_range(clause) {
            let mut q = query.clone();
            q.clauses[i] = turned;
            push(q, format!("`{clause}` turned around"), false);
        }
    }
    // A sort direction reversed.
    for (i, key) in query.order.iter().enumerate() {
        let mut q = query.clone();
        q.order[i] = match key.strip_suffix(" DESC") {
            Some(ascending) => ascending.to_string(),
            None => format!("{key} DESC"),
        };
        push(q, format!("`{key}` reversed"), false);
    }
    for (q, change) in field_mutants(&query, holder) {
        push(q, change, false);
    }
    // Loosening the partition key's own condition in a single-partition query is
    // equivalent, as dropping it is: every document of the partition holds the key.
    for (q, change, clause) in comparison_mutants(&query, holder) {
        let equivalent = scoped_by_partition_key(container, request, &clause);
        push(q, change, equivalent);
    }
    // The limit removed.
    if let Some(n) = &query.top {
        let mut q = query.clone();
        q.top = None;
        push(q, format!("`TOP {n}` removed"), false);
    }
    out
}

/// Whether `clause` is the partition key condition of a single-partition query whose
/// partition key is the same value (`c.accountId = @accountId` with partition key
/// `@accountId`; in a dictionary, `c.type = 'language'` with partition key `language`).
fn scoped_by_partition_key(container: &Container, request: &Request, clause: &str) -> bool {
    if request.kind() != OperationKind::SinglePartitionQuery {
        return false;
    }
    let key = &container.partition_key_property;
    if let Some(literal) = clause.strip_prefix(&format!("c.{key} = '")) {
        let literal = literal.trim_end_matches('\'');
        return request.partition_key() == Some(&ValueSource::Constant(literal.to_string()));
    }
    // Each level the key gives (a hierarchical key, or its prefix), by its parameter.
    let given: Vec<(&str, ValueSource)> = match request.partition_key() {
        Some(ValueSource::Levels(levels)) => container
            .partition_key_properties()
            .into_iter()
            .zip(levels.iter().cloned())
            .collect(),
        Some(one) => vec![(key.as_str(), one.clone())],
        None => Vec::new(),
    };
    if condition_property(clause)
        .is_some_and(|(name, param)| given.contains(&(name.as_str(), ValueSource::Parameter(param))))
    {
        return true;
    }
    // A query for a parent's children scoped by the id their reference holds, in a
    // container partitioned by that id (`c.product.id = @productId`, partition key
    // `product.id`).
    given.iter().any(|(_, source)| match source {
        ValueSource::Property(path) => match path.names() {
            [reference, id] if id == "id" => clause.starts_with(&format!("c.{reference}.id = @")),
            _ => false,
        },
        _ => false,
    })
}

fn is_type_condition(clause: &str) -> bool {
    clause.starts_with("c.type = '") || clause.starts_with("c.type IN (")
}

/// Whether no document type of `container` other than those the type condition
/// names stores the first property of every remaining condition: then no document
/// the model allows could tell the condition's absence.
fn no_other_type_matches(container: &Container, type_clause: &str, rest: &[String]) -> bool {
    container
        .document_types
        .iter()
        .filter(|d| !type_clause.contains(&format!("'{}'", d.discriminator)))
        .all(|d| {
            !rest
                .iter()
                .all(|clause| first_property(clause).is_some_and(|p| stores(container, d, &p)))
        })
}

/// The top-level property a condition reads: `c.warehouse.id` → `warehouse`.
fn first_property(clause: &str) -> Option<String> {
    let path = if let Some(inner) = clause.strip_prefix("ARRAY_CONTAINS(") {
        inner
    } else if clause.starts_with("EXISTS(") {
        clause.split_once(" IN ")?.1
    } else {
        clause
    };
    let rest = path.strip_prefix("c")?;
    let name = match rest.strip_prefix("['") {
        Some(r) => r.split('\'').next()?,
        None => rest
            .strip_prefix('.')?
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .next()?,
    };
    Some(name.to_string())
}

/// Whether documents of type `d` store top-level property `name`.
fn stores(container: &Container, d: &DocumentType, name: &str) -> bool {
    name == container.partition_key_property
        || name == "id"
        || name == "type"
        || d.parent.as_ref().is_some_and(|p| p.property == name)
        || d.attributes.iter().any(|a| a.name == name)
        || d.embedded.iter().any(|e| e.name == name)
        || d.references.iter().any(|r| r.name == name)
}

/// `clause` with the last occurrence of property `from` (before the parameter) renamed.
fn swap_last(clause: &str, from: &str, to: &str) -> String {
    for end in [" ", ",", ")"] {
        let (before, after) = (format!(".{from}{end}"), format!(".{to}{end}"));
        if let Some(at) = clause.rfind(&before) {
            return format!("{}{after}{}", &clause[..at], &clause[at + before.len()..]);
        }
    }
    let quoted = format!("['{from}']");
    match clause.rfind(&quoted) {
        Some(at) => format!("{}.{to}{}", &clause[..at], &clause[at + quoted.len()..]),
        None => clause.to_string(),
    }
}

fn with_sql(logical: &LogicalModel, mutant: &Mutant) -> LogicalModel {
    let mut logical = logical.clone();
    let op = logical
        .operations
        .iter_mut()
        .find(|o| o.pattern == mutant.pattern)
        .expect("the mutant's operation");
    match &mut op.requests[mutant.request].action {
        Action::SinglePartitionQuery { sql, .. } | Action::CrossPartitionQuery { sql, .. } => {
            *sql = mutant.sql.clone();
        }
        other => panic!("not a query: {other:?}"),
    }
    logical
}

fn models() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folders = ["../../examples", "../../examples/patterns", "tests/models"].map(|dir| root.join(dir));
    let mut paths: Vec<PathBuf> = folders
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("the models' folder"))
        .map(|entry| entry.expect("an entry").path())
        .map(|path| if path.is_dir() { path.join("model.json") } else { path })
        .filter(|model| model.extension().is_some_and(|e| e == "json") && model.is_file())
        .collect();
    paths.sort();
    paths
}

/// Runs `future` on a runtime of this thread (verify's futures stay on one thread).
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

#[test]
fn verify_kills_the_mutants_of_every_generated_query() {
    let (mut total, mut equivalent) = (0usize, 0usize);
    let mut lines = Vec::new();
    let mut jobs: Vec<(Arc<DomainModel>, LogicalModel, Mutant)> = Vec::new();
    for path in models() {
        let (model, logical) = common::load(&path);
        let baseline = block_on(common::in_memory(&model, &logical));
        assert!(baseline.passed(), "{}: {}", path.display(), baseline.to_text());
        let model = Arc::new(model);
        for op in &logical.operations {
            for (i, request) in op.requests.iter().enumerate() {
                for mutant in mutants_of(&logical, &op.pattern, i, request) {
                    if mutant.equivalent {
                        equivalent += 1;
                        lines.push(format!(
                            "  equivalent  {} — {}: {}",
                            model.name(),
                            mutant.pattern,
                            mutant.change
                        ));
                        continue;
                    }
                    total += 1;
                    jobs.push((Arc::clone(&model), with_sql(&logical, &mutant), mutant));
                }
            }
        }
    }
    // Each mutant on its own in-memory engine; the jobs shared among a thread per core.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let outcomes: Vec<(usize, bool)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some((model, mutated, mutant)) = jobs.get(i) else {
                            break;
                        };
                        let report = block_on(common::in_memory(model, mutated));
                        done.push((i, report.pattern(&mutant.pattern).is_some_and(|p| !p.passed)));
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker")).collect()
    });
    let mut caught = vec![false; jobs.len()];
    for (i, killed) in outcomes {
        caught[i] = killed;
    }
    let killed = caught.iter().filter(|c| **c).count();
    let survivors: Vec<String> = jobs
        .iter()
        .zip(&caught)
        .filter(|(_, c)| !**c)
        .map(|((model, _, mutant), _)| {
            format!(
                "  SURVIVED    {} — {}: {}\n              {}",
                model.name(),
                mutant.pattern,
                mutant.change,
                mutant.sql
            )
        })
        .collect();
    let share = killed as f64 / total.max(1) as f64;
    println!(
        "mutants: {total} ({equivalent} more equivalent, not counted); killed {killed} ({:.1}%)",
        share * 100.0
    );
    for line in lines.iter().chain(&survivors) {
        println!("{line}");
    }
    assert!(total >= 20, "too few mutants to judge: {total}");
    assert!(
        share >= MIN_KILLED,
        "verify killed {killed} of {total} mutants ({:.1}%), under {:.0}%; survivors:\n{}",
        share * 100.0,
        MIN_KILLED * 100.0,
        survivors.join("\n")
    );
}

#[test]
fn queries_split_and_rebuild() {
    let sql = "SELECT TOP 10 * FROM c WHERE c.a = @a AND EXISTS(SELECT VALUE x0 FROM x0 IN c.l WHERE x0.b = @b AND x0.c = @c) AND c.type IN ('x', 'y') ORDER BY c.t DESC, c.u";
    let q = Query::parse(sql).expect("parses");
    assert_eq!(q.top.as_deref(), Some("10"));
    assert_eq!(q.clauses.len(), 3);
    assert_eq!(q.order, ["c.t DESC", "c.u"]);
    assert_eq!(q.sql(), sql);
    assert_eq!(condition_property(&q.clauses[1]), Some(("b".into(), "b".into())));
    assert_eq!(
        swap_last("c.warehouse.id = @warehouseId", "id", "sku"),
        "c.warehouse.sku = @warehouseId"
    );
    assert_eq!(
        swap_last("ARRAY_CONTAINS(c.tags, @tag)", "tags", "labels"),
        "ARRAY_CONTAINS(c.labels, @tag)"
    );
    assert_eq!(
        swap_last("ARRAY_CONTAINS(@sList, c.status)", "status", "kind"),
        "ARRAY_CONTAINS(@sList, c.kind)"
    );
    assert_eq!(
        condition_property("c.dueOn < @dueOnMax"),
        Some(("dueOn".into(), "dueOnMax".into()))
    );
    assert_eq!(
        condition_property("(c.x BETWEEN @xMin AND @xMax)"),
        Some(("x".into(), "xMin".into()))
    );
    assert_eq!(
        condition_property("ARRAY_CONTAINS(@sList, c.status)"),
        Some(("status".into(), "sList".into()))
    );
    assert_eq!(
        reversed_range("c.dueOn < @dueOnMax").as_deref(),
        Some("c.dueOn >= @dueOnMax")
    );
    assert_eq!(bound_moved("c.dueOn < @dueOnMax"), ["c.dueOn <= @dueOnMax"]);
    assert_eq!(bound_moved("c.at >= @atMin"), ["c.at > @atMin"]);
    assert_eq!(
        bound_moved("(c.x BETWEEN @xMin AND @xMax)"),
        ["(c.x > @xMin AND c.x <= @xMax)", "(c.x >= @xMin AND c.x < @xMax)"]
    );
    assert!(bound_moved("c.a = @a").is_empty());
    assert_eq!(
        equality("c.author.id = @authorUserId"),
        Some(("c.author.id", "authorUserId"))
    );
    assert_eq!(equality("j0.id = @votersUserId"), Some(("j0.id", "votersUserId")));
    assert_eq!(equality("ARRAY_CONTAINS(c.tags, @tag)"), None);
    // A filter through a list of references, written as a join.
    let sql = "SELECT TOP 3 VALUE c FROM c JOIN j0 IN c.voters WHERE j0.id = @votersUserId AND c.type = 'review' ORDER BY c.postedAt DESC";
    let q = Query::parse(sql).expect("parses");
    assert_eq!(q.join.as_deref(), Some("j0 IN c.voters"));
    assert_eq!(q.clauses, ["j0.id = @votersUserId", "c.type = 'review'"]);
    assert_eq!(q.sql(), sql);
}
