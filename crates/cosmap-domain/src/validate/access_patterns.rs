//! Access patterns: they start from a declared element and filter and sort on
//! properties its documents will carry.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};

use super::{Checker, ElementId};
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::limits::MAX_TOP;
use crate::model::Relationship;
use crate::name_lookup::{name_map, NameMap};
use crate::naming::{closest, field_ident};

/// What is wrong with the shape of a filter entry, as a message and a fix: a space
/// before or after it (`"status "` would bind `@status `), or more than an attribute
/// and one operator (`"status in in"` would give invalid SQL). `None` for
/// `attribute` and `attribute operator`, one space between.
fn filter_shape(entry: &str) -> Option<(String, String)> {
    if entry.trim() != entry {
        return Some((
            format!("the filter `{entry}` has a space before or after it"),
            format!(
                "write `\"{}\"`: the attribute, then a space and an operator if any, nothing around them",
                entry.trim()
            ),
        ));
    }
    if entry.split(' ').count() > 2
        || entry
            .split(' ')
            .any(|w| w.is_empty() || w.contains(char::is_whitespace))
    {
        return Some((
            format!("the filter `{entry}` is more than an attribute and an operator"),
            "write the attribute alone for equality, or the attribute, one space and one operator (`\"status in\"`); list another condition as its own entry".to_string(),
        ));
    }
    None
}

impl<'a> Checker<'a> {
    pub(super) fn check_access_patterns(&mut self) {
        let spec = self.spec;
        // Relationships by the elements at either end, built once.
        let mut touching: NameMap<&str, Vec<&Relationship>> =
            name_map((spec.entities.len() + spec.value_objects.len()).min(2 * spec.relationships.len()));
        for rel in &spec.relationships {
            touching.entry(rel.from.as_str()).or_default().push(rel);
            if rel.to != rel.from {
                touching.entry(rel.to.as_str()).or_default().push(rel);
            }
        }
        // The queryable properties of each start, figured once: many patterns share a start.
        let mut queryable: NameMap<&str, BTreeSet<&str>> = name_map(touching.len());
        for (i, pattern) in spec.access_patterns.iter().enumerate() {
            // Paths are built only for a problem: a valid model needs none.
            let path = || JsonPath::root().key("accessPatterns").index(i);
            self.check_returns(pattern, &touching, &path);
            if pattern.write.is_some() && pattern.kind == crate::model::AccessKind::Read {
                self.report(
                    Diagnostic::new(path().key("write"), "`write` is set on a read access pattern")
                        .help("remove `write`, or set `\"kind\": \"write\"`"),
                );
            }
            if !self.require_element(&pattern.start, || path().key("start"), "start") {
                continue;
            }
            self.check_limit(pattern, &path);
            let valid: &BTreeSet<&str> = queryable
                .entry(pattern.start.as_str())
                .or_insert_with(|| self.queryable_properties(&pattern.start, touching.get(pattern.start.as_str())));
            self.check_projection(pattern, &path);
            self.check_counts(pattern, &path, touching.get(pattern.start.as_str()));
            self.check_filter_operators(pattern, &path, valid);
            self.check_sort_twice(pattern, &path);
            self.check_filtered_and_sorted(pattern, &path, valid, &touching);
        }
    }

    /// Each element or property `pattern` returns: an element related to the start, or
    /// a property of it; else the closest property or element is suggested.
    fn check_returns(
        &mut self,
        pattern: &'a crate::model::AccessPattern,
        touching: &NameMap<&str, Vec<&Relationship>>,
        path: &dyn Fn() -> JsonPath,
    ) {
        for (r, name) in pattern.returns.iter().enumerate() {
            let at = || path().key("returns").index(r);
            if self.index.elements.contains_key(name.as_str()) {
                self.check_returned_element_related(pattern, name, touching, &at);
                continue;
            }
            if self.index.elements.contains_key(pattern.start.as_str()) && self.returns_property(pattern, name, &at) {
                continue;
            }
            // Close to a property of the start rather than to an element: say so.
            let properties: Vec<String> = self
                .relationships_from(&pattern.start)
                .map(|rel| rel.property_name())
                .collect();
            let first = name.split('.').next().unwrap_or(name);
            let near_element = closest(name, self.index.elements.keys().copied()).is_some();
            if let (false, Some(near)) = (near_element, closest(first, properties.iter().map(String::as_str))) {
                self.report(
                    Diagnostic::new(
                        at(),
                        format!("`{name}` is neither an element nor a property of `{}`", pattern.start),
                    )
                    .help(format!(
                        "did you mean the property `{near}`? (or name an entity or value object)"
                    )),
                );
                continue;
            }
            self.require_element(name, at, "returned element");
        }
    }

    /// `limit`: at least 1, at most what a query's `TOP` takes, and on reads only.
    fn check_limit(&mut self, pattern: &crate::model::AccessPattern, path: &dyn Fn() -> JsonPath) {
        match pattern.limit {
            Some(0) => self.report(
                Diagnostic::new(path().key("limit"), "`limit` is 0: the read would return nothing")
                    .help("give the most items one execution returns, 1 or more, or remove `limit`"),
            ),
            Some(n) if n > MAX_TOP => self.report(
                Diagnostic::new(
                    path().key("limit"),
                    format!("`limit` is {n}, more than a query's `TOP` takes ({MAX_TOP})"),
                )
                .help(format!(
                    "give at most {MAX_TOP} (a 32-bit integer, the bound of Cosmos DB's query plans), or remove `limit` to read every match"
                )),
            ),
            Some(_) if pattern.kind == crate::model::AccessKind::Write => self.report(
                Diagnostic::new(path().key("limit"), "`limit` is set on a write access pattern")
                    .help("remove `limit`: it bounds what a read returns"),
            ),
            _ => {}
        }
    }

    /// Each attribute `pattern` filters or sorts on: a property of the start (`valid`),
    /// single-valued to sort on; else why its documents do not store it.
    fn check_filtered_and_sorted(
        &mut self,
        pattern: &crate::model::AccessPattern,
        path: &dyn Fn() -> JsonPath,
        valid: &BTreeSet<&str>,
        touching: &NameMap<&str, Vec<&Relationship>>,
    ) {
        let sorted: Vec<&str> = pattern.sort_keys().iter().map(|k| k.attribute).collect();
        let filtered: Vec<&str> = pattern.filter_attributes();
        let lists = [("filter", &filtered), ("sort", &sorted)];
        for (list, names) in lists {
            for (f, &name) in names.iter().enumerate() {
                if list == "filter" && filter_shape(&pattern.filter[f]).is_some() {
                    continue; // reported with the operators
                }
                if list == "filter" && name.contains('.') {
                    self.check_filter_path(&pattern.start, name, &|| path().key(list).index(f));
                    continue;
                }
                if list == "filter" && self.ambiguous(&pattern.start, name, &|| path().key(list).index(f)) {
                    continue;
                }
                if valid.contains(name) {
                    if list == "sort" && self.is_list_attribute(&pattern.start, name) {
                        let msg = format!("`{name}` is a list (`\"many\": true`) and cannot be sorted on");
                        self.report(Diagnostic::new(path().key(list).index(f), msg).help(
                            "Cosmos DB orders only by single values (a list gives 400 across partitions): sort on another attribute, or drop the sort",
                        ));
                    }
                    continue;
                }
                let help = self.not_stored_help(pattern, name, list, valid, touching);
                let msg = format!("`{name}` is not a property of `{}`", pattern.start);
                self.report(Diagnostic::new(path().key(list).index(f), msg).help(help));
            }
        }
    }

    /// Why the start of `pattern` stores no `name` to `list` (filter or sort) on, and
    /// what to do: a root refers to it, a list of references is stored the other way
    /// round, or the closest of its properties (`valid`).
    fn not_stored_help(
        &self,
        pattern: &crate::model::AccessPattern,
        name: &str,
        list: &str,
        valid: &BTreeSet<&str>,
        touching: &NameMap<&str, Vec<&Relationship>>,
    ) -> String {
        let all = valid.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
        // A root that refers to the start holds the reference; the start stores nothing of it.
        let holder = touching.get(pattern.start.as_str()).into_iter().flatten().find(|rel| {
            rel.to == pattern.start
                && rel.from != pattern.start
                && self.root_of(&rel.from).and_then(|root| self.identity_of(root)) == Some(name)
        });
        // A list of references stored the other way round (MR6): its targets hold them.
        let reversed = touching.get(pattern.start.as_str()).into_iter().flatten().find(|rel| {
            rel.from == pattern.start
                && rel.is_stored_reversed()
                && self.root_of(&rel.to) == Some(rel.to.as_str())
                && self.identity_of(&rel.to) == Some(name)
        });
        match (holder, reversed, closest(name, valid.iter().copied())) {
            (Some(rel), _, _) => format!(
                "`{}` holds the reference to `{}`, so `{}` documents do not store `{name}`: start the pattern at `{}` and return `{}`, or {list} on {all}",
                rel.from, pattern.start, pattern.start, rel.from, pattern.start
            ),
            (None, Some(rel), _) => format!(
                "a `{}` list without a useful bound is stored the other way round: each `{}` refers to its `{}`, so `{}` documents do not store `{name}`; start the pattern at `{}` and return `{}`, or {list} on {all}",
                rel.cardinality.as_str(), rel.to, pattern.start, pattern.start, rel.to, pattern.start
            ),
            (None, None, Some(near)) => {
                format!("did you mean `{near}`? (`{}` can {list} on {all})", pattern.start)
            }
            (None, None, None) => format!("`{}` can {list} on {all}", pattern.start),
        }
    }

    /// Each filter entry's operator: known, on an attribute it can compare (ranges need
    /// one ordered, single value), and no two entries binding the same parameter.
    fn check_filter_operators(
        &mut self,
        pattern: &crate::model::AccessPattern,
        path: &dyn Fn() -> JsonPath,
        valid: &BTreeSet<&str>,
    ) {
        use crate::model::{Filter, FILTER_OPERATORS};
        // Each parameter's Rust identifier → the parameter and the entry that bound it last.
        let mut bound: BTreeMap<String, (String, &str)> = BTreeMap::new();
        for (f, entry) in pattern.filter.iter().enumerate() {
            let at = || path().key("filter").index(f);
            if let Some((message, help)) = filter_shape(entry) {
                self.report(Diagnostic::new(at(), message).help(help));
                continue;
            }
            let Some(filter) = Filter::parse(entry) else {
                let word = entry.trim_end().rsplit(' ').next().unwrap_or_default();
                let ops = FILTER_OPERATORS
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                self.report(
                    Diagnostic::new(at(), format!("`{word}` is not a filter operator"))
                        .help(format!("write the attribute alone for equality, or follow it with a space and one of {ops} (`\"dueOn <\"`)")),
                );
                continue;
            };
            if valid.contains(filter.attribute) {
                self.check_filter_comparison(pattern, entry, filter, &at);
            } else if !filter.attribute.contains('.') {
                continue; // reported with the other unknown names
            }
            for parameter in filter.parameters() {
                // A parameter bound again is reported with the entry that bound it last.
                let other = match bound.entry(field_ident(&parameter)) {
                    Entry::Vacant(vacant) => {
                        vacant.insert((parameter.clone(), entry.as_str()));
                        None
                    }
                    Entry::Occupied(mut occupied) => {
                        let ident = occupied.key().clone();
                        let (before, other) = occupied.insert((parameter.clone(), entry.as_str()));
                        Some((ident, before, other))
                    }
                };
                let Some((ident, before, other)) = other else {
                    continue;
                };
                let diagnostic = if before == parameter {
                    Diagnostic::new(
                        at(),
                        format!("`{entry}` and `{other}` both bind the parameter `@{parameter}`"),
                    )
                    .help("keep one of them: `<` and `<=` are both an upper bound, `between` already has both bounds")
                } else {
                    Diagnostic::new(
                        at(),
                        format!(
                            "`{entry}` and `{other}` bind `@{parameter}` and `@{before}`, which both become the Rust parameter `{ident}`"
                        ),
                    )
                    .help("filter on attributes whose names differ in more than the case of their letters")
                };
                self.report(diagnostic);
            }
        }
    }

    /// A filter entry's operator against its (known) attribute: no range on a list or
    /// a boolean.
    fn check_filter_comparison(
        &mut self,
        pattern: &crate::model::AccessPattern,
        entry: &str,
        filter: crate::model::Filter<'_>,
        at: &dyn Fn() -> JsonPath,
    ) {
        use crate::model::{AttributeType, FilterOp};
        let ty = self.attribute_type(&pattern.start, filter.attribute);
        if filter.op != FilterOp::Equal && self.is_list_attribute(&pattern.start, filter.attribute) {
            self.report(
                Diagnostic::new(
                    at(),
                    format!(
                        "`{}` is a list (`\"many\": true`): it cannot be compared with `{}`",
                        filter.attribute,
                        entry.trim_end().rsplit(' ').next().unwrap_or_default()
                    ),
                )
                .help(format!(
                    "filter on `{}` alone: on a list it matches the items that hold the value",
                    filter.attribute
                )),
            );
        } else if filter.is_range() && ty == Some(AttributeType::Boolean) {
            self.report(
                Diagnostic::new(
                    at(),
                    format!("`{}` is a boolean: it has no range to compare", filter.attribute),
                )
                .help(format!("filter on `{}` alone (equality)", filter.attribute)),
            );
        }
    }

    /// `sort`: each attribute once, whatever its direction (`["-title", "title"]` asks
    /// for two orders of one property, which no index or query can serve).
    fn check_sort_twice(&mut self, pattern: &crate::model::AccessPattern, path: &dyn Fn() -> JsonPath) {
        let keys = pattern.sort_keys();
        for (i, key) in keys.iter().enumerate() {
            let Some(first) = keys[..i].iter().position(|k| k.attribute == key.attribute) else {
                continue;
            };
            let message = format!(
                "`{}` sorts on `{}` again (first at {})",
                pattern.sort[i],
                key.attribute,
                path().key("sort").index(first)
            );
            let help = if keys[first].descending == key.descending {
                "remove the second entry: a sort key is listed once".to_string()
            } else {
                format!(
                    "keep one direction: `\"{0}\"` (ascending) or `\"-{0}\"` (descending); the composite index would hold `/{0}` twice",
                    key.attribute
                )
            };
            self.report(Diagnostic::new(path().key("sort").index(i), message).help(help));
        }
    }

    /// The references `element` stores forward (MR6) to roots other than its own, in
    /// declaration order. An iterator: a caller that needs no property name (most
    /// need only the targets) builds none.
    fn forward_references<'s>(&'s self, element: &'s str) -> impl Iterator<Item = &'a Relationship> + 's {
        let own_root = self.root_of(element);
        self.relationships_from(element).filter(move |rel| {
            !rel.is_stored_reversed()
                && self.root_of(&rel.to) == Some(rel.to.as_str())
                // Not a member's link to its own root; a root's link to itself (a tree) is a reference.
                && (own_root != Some(rel.to.as_str()) || rel.from == rel.to)
        })
    }

    /// A bare filter name that names the identity of more than one root `start`
    /// refers to (and nothing of its own): reported with the paths to choose from.
    fn ambiguous(&mut self, start: &str, name: &str, at: &dyn Fn() -> JsonPath) -> bool {
        // A name of the start's own is never ambiguous: the references are not followed then.
        if self.attribute_type(start, name).is_some() || self.identity_of(start) == Some(name) {
            return false;
        }
        let reaching = || {
            self.forward_references(start)
                .filter(|rel| self.identity_of(&rel.to) == Some(name))
        };
        // Counted first: the paths are written out only for a problem.
        if reaching().nth(1).is_none() {
            return false;
        }
        let paths: Vec<String> = reaching()
            .map(|rel| format!("`{}.{name}`", rel.property_name()))
            .collect();
        self.report(
            Diagnostic::new(
                at(),
                format!(
                    "`{name}` is reachable by more than one path from `{start}`: {}",
                    paths.join(", ")
                ),
            )
            .help("name the path the filter follows, for example the first of them"),
        );
        true
    }

    /// A dotted filter path from `start`: a reference's property and the referenced
    /// root's identity (`author.userId`), or an embedded value object's property and
    /// one of its attributes (`address.city`).
    fn check_filter_path(&mut self, start: &str, name: &str, at: &dyn Fn() -> JsonPath) {
        let spec = self.spec;
        let (first, rest) = name.split_once('.').unwrap_or((name, ""));
        let mut choices: Vec<String> = Vec::new();
        for rel in self.forward_references(start) {
            if let Some(identity) = self.identity_of(&rel.to) {
                let property = rel.property_name();
                if property == first && rest == identity {
                    return;
                }
                choices.push(format!("{property}.{identity}"));
            }
        }
        for rel in self.relationships_from(start) {
            let Some(ElementId::ValueObject(i)) = self.index.elements.get(rel.to.as_str()) else {
                continue;
            };
            let property = rel.property_name();
            for a in &spec.value_objects[*i].attributes {
                if property == first && a.name == rest {
                    return;
                }
                choices.push(format!("{property}.{}", a.name));
            }
        }
        let all = choices.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
        let help = match closest(name, choices.iter().map(String::as_str)) {
            Some(near) => format!("did you mean `{near}`? (paths from `{start}`: {all})"),
            None if choices.is_empty() => format!("`{start}` holds no reference or value object to follow"),
            None => format!("paths from `{start}`: {all}"),
        };
        self.report(Diagnostic::new(at(), format!("`{name}` is not a path from `{start}`")).help(help));
    }

    /// A `returns` entry that names a property of the start (`"categories"`: follow
    /// the references and return the targets) or a path (`"author.username"`: with
    /// each result, that attribute of what the reference leads to). `false` when the
    /// entry is neither (the caller reports it as an unknown element); `true` when it
    /// is one, reported here if it is wrong.
    fn returns_property(
        &mut self,
        pattern: &crate::model::AccessPattern,
        entry: &str,
        at: &dyn Fn() -> JsonPath,
    ) -> bool {
        let (first, rest) = match entry.split_once('.') {
            Some((first, rest)) => (first, Some(rest)),
            None => (entry, None),
        };
        // `parent*`: every ancestor up a tree's parent link.
        let (first, ancestors) = match first.strip_suffix('*') {
            Some(reference) => (reference, true),
            None => (first, false),
        };
        let Some(rel) = self
            .relationships_from(&pattern.start)
            .find(|r| r.property_name() == first)
        else {
            return false;
        };
        if ancestors {
            let problem = ancestors_problem(pattern, entry, first, rel);
            if let Some((message, help)) = problem {
                self.report(Diagnostic::new(at(), message).help(help));
                return true;
            }
        }
        if pattern.kind == crate::model::AccessKind::Write {
            self.report(
                Diagnostic::new(
                    at(),
                    format!("`{entry}` follows a property: a write returns elements, not properties"),
                )
                .help(format!("name the element `{}`", rel.to)),
            );
            return true;
        }
        let Some(rest) = rest else {
            return true;
        };
        let Some(names) = self.own_names(&rel.to) else {
            return true;
        };
        if !names.contains(&rest) {
            let all = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
            let help = match closest(rest, names.iter().copied()) {
                Some(near) => format!("did you mean `{first}.{near}`? (`{}` holds {all})", rel.to),
                None => format!("`{}` holds {all}", rel.to),
            };
            self.report(Diagnostic::new(at(), format!("`{rest}` is not an attribute of `{}`", rel.to)).help(help));
        }
        true
    }

    /// Whether the pattern's list `key` (`list`), which only a read may have (it `does`
    /// that), is there to check: not when empty; reported on a write.
    fn read_list_to_check(
        &mut self,
        pattern: &crate::model::AccessPattern,
        list: &[String],
        key: &str,
        does: &str,
        path: &dyn Fn() -> JsonPath,
    ) -> bool {
        if list.is_empty() {
            return false;
        }
        if pattern.kind == crate::model::AccessKind::Write {
            self.report(
                Diagnostic::new(path().key(key), format!("`{key}` is set on a write access pattern"))
                    .help(format!("remove `{key}`: it {does}")),
            );
            return false;
        }
        true
    }

    /// `project`: on reads only, each name an attribute (or the identity) of the start
    /// element, or a property it holds (an embedded value object, a reference), once.
    fn check_projection(&mut self, pattern: &crate::model::AccessPattern, path: &dyn Fn() -> JsonPath) {
        if !self.read_list_to_check(pattern, &pattern.project, "project", "names what a read returns", path) {
            return;
        }
        let Some(own) = self.own_names(&pattern.start) else {
            return;
        };
        let mut names: BTreeSet<&str> = own.into_iter().collect();
        let properties: Vec<String> = self
            .relationships_from(&pattern.start)
            .map(|r| r.property_name())
            .collect();
        names.extend(properties.iter().map(String::as_str));
        let start = &pattern.start;
        self.check_listed(&pattern.project, "project", "attribute", &names, path, |at, name| {
            let all = names.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
            let help = match closest(name, names.iter().copied()) {
                Some(near) => format!("did you mean `{near}`? (`{start}` holds {all})"),
                None => format!("`{start}` holds {all}"),
            };
            Diagnostic::new(at, format!("`{name}` is not a property of `{start}`")).help(help)
        });
    }

    /// Each entry of the pattern's list `key` (`list`, naming `what`s) once, and each
    /// one `known` holds; `unknown` says what is wrong with one it does not hold.
    fn check_listed(
        &mut self,
        list: &[String],
        key: &str,
        what: &str,
        known: &BTreeSet<&str>,
        path: &dyn Fn() -> JsonPath,
        unknown: impl Fn(JsonPath, &str) -> Diagnostic,
    ) {
        let mut seen = BTreeSet::new();
        for (i, name) in list.iter().enumerate() {
            let at = path().key(key).index(i);
            if !seen.insert(name.as_str()) {
                self.report(
                    Diagnostic::new(at, format!("`{name}` is listed twice in `{key}`"))
                        .help(format!("list each {what} once")),
                );
            } else if !known.contains(name.as_str()) {
                self.report(unknown(at, name));
            }
        }
    }

    /// `counts`: on reads only, each an element related to the start — its child (the
    /// start relates to it) or an element that refers to it — once.
    fn check_counts(
        &mut self,
        pattern: &crate::model::AccessPattern,
        path: &dyn Fn() -> JsonPath,
        touching: Option<&Vec<&'a Relationship>>,
    ) {
        let shows = "names what a read shows with each result";
        if !self.read_list_to_check(pattern, &pattern.counts, "counts", shows, path) {
            return;
        }
        let related: BTreeSet<&str> = touching
            .into_iter()
            .flatten()
            .filter_map(|rel| {
                if rel.from == pattern.start && rel.to != pattern.start {
                    Some(rel.to.as_str())
                } else if rel.to == pattern.start && rel.from != pattern.start {
                    Some(rel.from.as_str())
                } else {
                    None
                }
            })
            .collect();
        let start = &pattern.start;
        self.check_listed(&pattern.counts, "counts", "element", &related, path, |at, name| {
            let all = related.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
            let help = match (closest(name, related.iter().copied()), related.is_empty()) {
                (_, true) => format!("no relationship joins `{start}` to another element: add one, or remove `counts`"),
                (Some(near), _) => format!("did you mean `{near}`? (`{start}` can count {all})"),
                (None, _) => format!("`{start}` can count {all}"),
            };
            Diagnostic::new(
                at,
                format!("`{name}` is not related to `{start}`: there is nothing of it to count"),
            )
            .help(help)
        });
    }

    /// The declared type of `attribute` of `element`, when it is one of its attributes.
    fn attribute_type(&self, element: &str, attribute: &str) -> Option<crate::model::AttributeType> {
        self.attributes_of(element)
            .iter()
            .find(|a| a.name == attribute)
            .map(|a| a.ty)
    }

    /// Whether `attribute` of `element` holds a list of values (`many`).
    fn is_list_attribute(&self, element: &str, attribute: &str) -> bool {
        self.attributes_of(element)
            .iter()
            .any(|a| a.name == attribute && a.many)
    }

    /// The properties a document of `element` carries and a query can use: its
    /// attributes and identity, its aggregate root's identity (the partition key,
    /// MR2), and the identities of the roots whose references it stores (MR6): the
    /// roots it refers to, unless that list is stored the other way round, and the
    /// roots that refer to it with a list stored the other way round. A root that
    /// refers to it with a bounded list is not among them: it holds the list, not this.
    fn queryable_properties(&self, element: &str, touching: Option<&Vec<&'a Relationship>>) -> BTreeSet<&'a str> {
        let mut valid: BTreeSet<&str> = self.own_names(element).unwrap_or_default().into_iter().collect();
        let root_identity = |name: &str| self.root_of(name).and_then(|root| self.identity_of(root));
        valid.extend(root_identity(element));
        let is_root = |name: &str| self.root_of(name) == Some(name);
        for rel in touching.into_iter().flatten() {
            // Containment inside one aggregate adds only the root's identity, added above.
            let reference = is_root(&rel.to) && self.root_of(&rel.from) != Some(rel.to.as_str());
            if rel.from == element && !(reference && rel.is_stored_reversed()) {
                valid.extend(root_identity(&rel.to));
            } else if rel.to == element && reference && rel.is_stored_reversed() {
                valid.extend(root_identity(&rel.from));
            }
        }
        valid
    }
}

impl<'a> Checker<'a> {
    /// A returned element other than the start must be related to it (a relationship
    /// between the two, either way, or one aggregate): nothing else says which of its
    /// documents belong to each result, and a read of all of them is no answer.
    fn check_returned_element_related(
        &mut self,
        pattern: &crate::AccessPattern,
        name: &str,
        touching: &NameMap<&str, Vec<&Relationship>>,
        at: &dyn Fn() -> JsonPath,
    ) {
        let start = pattern.start.as_str();
        if name == start || !self.index.elements.contains_key(start) {
            return;
        }
        let related = touching
            .get(start)
            .is_some_and(|rels| rels.iter().any(|rel| rel.to == name || rel.from == name));
        let one_aggregate = self.index.aggregate_of.contains_key(name)
            && self.index.aggregate_of.get(name) == self.index.aggregate_of.get(start);
        if related || one_aggregate {
            return;
        }
        self.report(
            Diagnostic::new(at(), format!("`{}` returns `{name}`, which `{start}` is not related to", pattern.name))
                .help(format!(
                    "return only elements related to `{start}` (a relationship between the two, or one aggregate); to read `{name}` through another element, start a read from that element, or declare the relationship"
                )),
        );
    }
}

/// Why `entry` (`first*`: the ancestors up relationship `rel`) cannot be read by
/// `pattern`, as a message and its help: `rel` is not a `one` link of an element to
/// itself, never ends at a root, has no depth, or the pattern is a write.
fn ancestors_problem(
    pattern: &crate::model::AccessPattern,
    entry: &str,
    first: &str,
    rel: &crate::model::Relationship,
) -> Option<(String, String)> {
    if rel.from != rel.to || rel.cardinality != crate::model::Cardinality::One {
        Some((
            format!(
                "`{entry}` reads the ancestors up `{first}`, but `{first}` is not a `one` relationship from `{}` to itself",
                pattern.start
            ),
            format!("name a tree's parent link with `*`, or write `{first}` to follow it once"),
        ))
    } else if !rel.optional {
        Some((
            format!(
                "`{entry}` reads the ancestors up `{first}`, but every `{}` has a `{first}`, so the chain never ends at a root",
                pattern.start
            ),
            format!("add `\"optional\": true` to the relationship `{0}` → `{0}`: the roots have none", rel.from),
        ))
    } else if rel.depth.is_none() {
        Some((
            format!("`{entry}` reads the ancestors up `{first}`, but the tree's depth is not given"),
            format!(
                "add `\"depth\": {{\"max\": N, \"avg\": M}}` to the relationship `{0}` → `{0}`: the most and the typical number of ancestors",
                rel.from
            ),
        ))
    } else if pattern.kind == crate::model::AccessKind::Write {
        Some((
            format!("`{entry}` reads ancestors, but the pattern is a write"),
            format!("name the element `{}`", rel.to),
        ))
    } else {
        None
    }
}
