//! What a read should return, worked out in Rust over the sample documents —
//! never by trusting the operation's SQL.
//!
//! An access pattern starts from an element (`start`) and filters on attributes by
//! equality, by range (`<`, `<=`, `>`, `>=`, `between`) or by membership (`in`). On a document of the container the operation reads, each filter
//! attribute is found where the logical model says the document keeps it:
//!
//! - the container's partition key property, the document's `id` (the start's own
//!   identity), or a separated value object's parent identity: on the document;
//! - otherwise on an *instance* of the start element in the document — the document
//!   itself, or each object embedded at the start's path (through arrays): one of its
//!   attributes, the `id` of a reference to the root the filter names, or the
//!   identity of an embedded reference data snapshot.
//!
//! A document matches when its document-level filters hold and one instance satisfies
//! all the instance-level filters together ("any element" semantics through arrays).
//! The documents expected are those of the start's document type (and, in an aggregate
//! container, of the document types that store a returned element, as their own
//! documents or embedded) that match
//! (whatever partition the request itself names). A pattern's `sort` gives the
//! expected order, compared with Cosmos DB's ordering of JSON values.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use cosmap_domain::{AccessPattern, Filter, FilterOp};
use cosmap_mapper::{Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, PropertyHolder, Role};
use serde_json::Value;

use crate::samples::Sample;

/// One step into a document towards an instance of the start element.
#[derive(Debug, Clone)]
struct Step {
    name: String,
    many: bool,
}

/// Where instances of the start element sit in a document type.
#[derive(Debug, Clone)]
struct Site<'a> {
    path: Vec<Step>,
    node: PropertyHolder<'a>,
}

/// Where a filter or sort attribute is found.
#[derive(Debug, Clone)]
enum Place {
    /// A property of the document itself.
    Document(String),
    /// A property of the start element's instance (an attribute, or a path through a
    /// reference or a snapshot); `many` when the first step holds an array.
    Instance { path: Vec<String>, many: bool },
    /// Not stored where the start element is.
    Missing,
}

/// Filter values by attribute name.
pub(crate) type Binding = BTreeMap<String, Value>;

/// The filters of a read with their values at one instance of its start element.
type FilterValues<'f> = Vec<(Filter<'f>, Value)>;

/// A read pattern's main request on one container.
#[derive(Debug)]
pub(crate) struct ReadSpec<'a> {
    pattern: &'a AccessPattern,
    container: &'a Container,
    /// The document type that holds the start element (the operation's first type).
    holder: &'a DocumentType,
    /// The document types expected in the answer.
    types: Vec<&'a DocumentType>,
}

impl<'a> ReadSpec<'a> {
    /// The spec for `pattern` reading `holder` (and what it returns) in `container`;
    /// an error when `holder` does not hold the pattern's start element.
    pub fn new(pattern: &'a AccessPattern, container: &'a Container, holder: &str) -> Result<Self, String> {
        let holder = container
            .document_type(holder)
            .ok_or_else(|| format!("`{}` has no document type `{holder}`", container.name))?;
        if sites(holder, &pattern.start).is_empty() {
            return Err(format!(
                "the operation reads `{}`, which does not hold the pattern's start `{}`",
                holder.name, pattern.start
            ));
        }
        let mut types = vec![holder];
        if container.kind == ContainerKind::Aggregate {
            for d in &container.document_types {
                // A returned element stored as its own documents, or embedded in another document type.
                let returned = pattern
                    .returns
                    .iter()
                    .any(|r| *r != pattern.start && (*r == d.source || !sites(d, r).is_empty()));
                if returned && d.role != Role::Copy && !types.iter().any(|t| t.name == d.name) {
                    types.push(d);
                }
            }
        }
        Ok(ReadSpec {
            pattern,
            container,
            holder,
            types,
        })
    }

    /// Every binding the samples offer: for each instance of the start element in a
    /// sample of the holder type, the value of each filter attribute there, as the
    /// filter's parameters: the value itself (equality, and a range's one bound), the
    /// value and the next larger one any sample holds (`between`'s two bounds, `in`'s
    /// array). Bindings where some filter attribute is not stored are left out.
    pub fn bindings(&self, samples: &[Sample]) -> Vec<Binding> {
        let filters: Vec<Filter<'_>> = self.pattern.filters().into_iter().flatten().collect();
        let wanted: usize = filters.iter().map(|f| f.parameters().len()).sum();
        let (known, found) = self.filter_values(samples, &filters);
        // `between` reaches past the limit when the samples allow, so that a query
        // without its `TOP` returns too many.
        let span = self.limit().unwrap_or(1).max(1);
        let next = |attribute: &str, value: &Value, step: usize| -> Value {
            let list = known.get(attribute).map_or(&[][..], Vec::as_slice);
            let at = list.iter().position(|v| v == value).unwrap_or(0);
            list.get((at + step).min(list.len().saturating_sub(1)))
                .unwrap_or(value)
                .clone()
        };
        let mut out: Vec<Binding> = Vec::new();
        for values in found {
            let mut binding = Binding::new();
            for (f, value) in values {
                let names = f.parameters();
                match f.op {
                    FilterOp::Between => {
                        binding.insert(names[0].clone(), value.clone());
                        binding.insert(names[1].clone(), next(f.attribute, &value, span));
                    }
                    FilterOp::In => {
                        // The value and another one (the next, or else the first).
                        let list = known.get(f.attribute).map_or(&[][..], Vec::as_slice);
                        let at = list.iter().position(|v| *v == value).unwrap_or(0);
                        let other = list.get((at + 1) % list.len().max(1)).unwrap_or(&value).clone();
                        binding.insert(names[0].clone(), Value::Array(vec![value, other]));
                    }
                    _ => {
                        binding.insert(names[0].clone(), value);
                    }
                }
            }
            if binding.len() != wanted {
                continue;
            }
            // With a limit, also every value in each `in` list: the widest answer.
            if self.limit().is_some() {
                let mut wide = binding.clone();
                for f in filters.iter().filter(|f| f.op == FilterOp::In) {
                    let all = known.get(f.attribute).cloned().unwrap_or_default();
                    wide.insert(f.parameters()[0].clone(), Value::Array(all));
                }
                if wide != binding && !out.contains(&wide) {
                    out.push(wide);
                }
            }
            if !out.contains(&binding) {
                out.push(binding);
            }
        }
        out
    }

    /// The values of `filters` at each instance of the start element in the holder's
    /// `samples` (those stored there), and each filter attribute's values over them
    /// all, in Cosmos DB's order.
    fn filter_values<'f>(
        &self,
        samples: &[Sample],
        filters: &[Filter<'f>],
    ) -> (BTreeMap<&'f str, Vec<Value>>, Vec<FilterValues<'f>>) {
        let mut known: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
        let mut found: Vec<Vec<(Filter<'_>, Value)>> = Vec::new();
        for sample in self.samples_of(samples, &[self.holder]) {
            for site in sites(self.holder, &self.pattern.start) {
                for instance in instances(&sample.body, &site.path) {
                    let mut values = Vec::new();
                    for f in filters {
                        let value = match place(
                            self.container,
                            self.holder,
                            &self.pattern.start,
                            Some(&site),
                            f.attribute,
                        ) {
                            Place::Document(name) => sample.body.get(&name),
                            Place::Instance { path, .. } => values_at(instance, &path).into_iter().next(),
                            Place::Missing => None,
                        };
                        if let Some(value) = value {
                            let list = known.entry(f.attribute).or_default();
                            if !list.contains(value) {
                                list.push(value.clone());
                            }
                            values.push((*f, value.clone()));
                        }
                    }
                    found.push(values);
                }
            }
        }
        for list in known.values_mut() {
            list.sort_by(|x, y| cosmos_order(Some(x), Some(y)));
        }
        (known, found)
    }

    /// The filters no sample of the holder type stores (why no binding exists).
    pub fn missing_filters(&self) -> Vec<String> {
        let sites = sites(self.holder, &self.pattern.start);
        self.pattern
            .filter_attributes()
            .into_iter()
            .filter(|f| {
                sites.iter().all(|s| {
                    matches!(
                        place(self.container, self.holder, &self.pattern.start, Some(s), f),
                        Place::Missing
                    )
                })
            })
            .map(str::to_string)
            .collect()
    }

    /// The samples expected for `binding`, in the pattern's order when it sorts,
    /// else in sample order. The partition comes from the filters (the partition key
    /// property is one of them, when the pattern filters on it), never from the request.
    pub fn expected<'s>(&self, samples: &'s [Sample], binding: &Binding) -> Vec<&'s Sample> {
        let filters: Vec<&str> = self.pattern.filter.iter().map(String::as_str).collect();
        self.expected_with(samples, binding, &filters)
    }

    /// How many of the pattern's filters `binding` needs: for how many filters the
    /// answer without that one filter holds more documents. A binding where every
    /// filter counts tells a query that lost a clause from the right one.
    pub fn needed_filters(&self, samples: &[Sample], binding: &Binding) -> usize {
        let all: Vec<&str> = self.pattern.filter.iter().map(String::as_str).collect();
        let answer = self.expected_with(samples, binding, &all).len();
        all.iter()
            .filter(|dropped| {
                let rest: Vec<&str> = all.iter().copied().filter(|f| f != *dropped).collect();
                self.expected_with(samples, binding, &rest).len() > answer
            })
            .count()
    }

    fn expected_with<'s>(&self, samples: &'s [Sample], binding: &Binding, filters: &[&str]) -> Vec<&'s Sample> {
        let mut found: Vec<&Sample> = self
            .samples_of(samples, &self.types)
            .filter(|s| self.matches(s, binding, filters))
            .collect();
        if self.sort_keys(found.first().copied()).is_some() {
            found.sort_by(|a, b| self.compare(&self.sort_keys(Some(a)), &self.sort_keys(Some(b))));
        }
        found
    }

    /// The pattern's `limit`: how many of the expected documents one execution returns.
    pub fn limit(&self) -> Option<usize> {
        self.pattern.limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    /// Two sort keys in the pattern's order: each attribute ascending, or descending
    /// when its `sort` entry starts with `-`.
    fn compare(&self, a: &Option<Vec<Option<Value>>>, b: &Option<Vec<Option<Value>>>) -> Ordering {
        let (Some(a), Some(b)) = (a, b) else {
            return compare_keys(a, b);
        };
        for ((x, y), key) in a.iter().zip(b).zip(self.pattern.sort_keys()) {
            let ordering = compare_keys(&Some(vec![x.clone()]), &Some(vec![y.clone()]));
            let ordering = if key.descending { ordering.reverse() } else { ordering };
            if ordering != Ordering::Equal {
                return ordering;
            }
        }
        Ordering::Equal
    }

    /// Whether the pattern sorts and every expected document that holds the start
    /// has a sort key (not inside an array): then the answer must come in that order.
    /// The sort is the start's: documents of other elements returned beside it (its
    /// members) hold no value of it, so they may come anywhere — and, under a
    /// `limit`, which of them come is not judged by order either.
    pub fn ordered(&self, expected: &[&Sample]) -> bool {
        let mixed_under_a_limit = self.pattern.limit.is_some() && expected.iter().any(|s| !self.holds_start(s));
        if self.pattern.sort.is_empty() || mixed_under_a_limit {
            return false;
        }
        expected
            .iter()
            .all(|s| !self.holds_start(s) || self.sort_keys(Some(s)).is_some())
    }

    /// Whether `returned` (documents, in the order the server sent them) is in the
    /// pattern's order, among those that hold the start; documents it does not know
    /// compare as missing keys.
    pub fn in_order(&self, returned: &[&Value], samples: &[Sample]) -> bool {
        let keys: Vec<Option<Vec<Option<Value>>>> = returned
            .iter()
            .filter_map(|doc| {
                let sample = samples.iter().find(|s| {
                    s.container == self.container.name && doc.get("id").and_then(Value::as_str) == Some(s.id.as_str())
                });
                match sample {
                    Some(s) if !self.holds_start(s) => None,
                    _ => Some(self.sort_keys(sample)),
                }
            })
            .collect();
        keys.windows(2)
            .all(|pair| self.compare(&pair[0], &pair[1]) != Ordering::Greater)
    }

    /// How many samples of the expected types there are in the whole container.
    pub fn total(&self, samples: &[Sample]) -> usize {
        self.samples_of(samples, &self.types).count()
    }

    fn samples_of<'s, 't>(
        &'t self,
        samples: &'s [Sample],
        types: &'t [&'a DocumentType],
    ) -> impl Iterator<Item = &'s Sample> + 't
    where
        's: 't,
    {
        samples
            .iter()
            .filter(move |s| s.container == self.container.name && types.iter().any(|d| d.name == s.document_type))
    }

    /// Whether `sample` holds an instance of the pattern's start element.
    fn holds_start(&self, sample: &Sample) -> bool {
        self.document_type(sample)
            .is_some_and(|d| !sites(d, &self.pattern.start).is_empty())
    }

    fn document_type(&self, sample: &Sample) -> Option<&'a DocumentType> {
        self.types.iter().copied().find(|d| d.name == sample.document_type)
    }

    fn matches(&self, sample: &Sample, binding: &Binding, filters: &[&str]) -> bool {
        let Some(d) = self.document_type(sample) else {
            return false;
        };
        let start = &self.pattern.start;
        let sites = sites(d, start);
        let filters: Vec<Filter<'_>> = filters.iter().filter_map(|f| Filter::parse(f)).collect();
        let on_document =
            |f: &Filter<'_>, site: Option<&Site<'_>>| match place(self.container, d, start, site, f.attribute) {
                Place::Document(name) => Some(sample.body.get(&name).is_some_and(|v| satisfies(f, v, binding))),
                _ => None,
            };
        if sites.is_empty() {
            // A returned document that does not hold the start: the filters apply to its own properties.
            return filters.iter().all(|f| on_document(f, None).unwrap_or(false));
        }
        sites.iter().any(|site| {
            let documents_ok = filters.iter().all(|f| on_document(f, Some(site)).unwrap_or(true));
            documents_ok
                && instances(&sample.body, &site.path).into_iter().any(|instance| {
                    filters
                        .iter()
                        .all(|f| match place(self.container, d, start, Some(site), f.attribute) {
                            Place::Document(_) => true,
                            Place::Instance { path, .. } => {
                                values_at(instance, &path).into_iter().any(|v| satisfies(f, v, binding))
                            }
                            Place::Missing => false,
                        })
                })
        })
    }

    /// The sort key of a sample: one value (or none, for a missing property) per sort
    /// attribute; `None` when the pattern does not sort or an attribute sits in an array.
    fn sort_keys(&self, sample: Option<&Sample>) -> Option<Vec<Option<Value>>> {
        if self.pattern.sort.is_empty() {
            return None;
        }
        let Some(sample) = sample else {
            return Some(vec![None; self.pattern.sort.len()]);
        };
        let d = self.document_type(sample)?;
        let start = &self.pattern.start;
        let sites = sites(d, start);
        let site = sites.iter().find(|s| s.path.iter().all(|step| !step.many));
        if !sites.is_empty() && site.is_none() {
            return None;
        }
        let mut keys = Vec::new();
        for key in self.pattern.sort_keys() {
            let value = match place(self.container, d, start, site, key.attribute) {
                Place::Document(name) => sample.body.get(&name).cloned(),
                Place::Instance { many: true, .. } => return None,
                Place::Instance { path, .. } => {
                    let owner = site.map(|s| &s.path[..]).unwrap_or(&[]);
                    let instance = instances(&sample.body, owner).into_iter().next()?;
                    values_at(instance, &path).into_iter().next().cloned()
                }
                Place::Missing => None,
            };
            keys.push(value);
        }
        Some(keys)
    }
}

/// Whether `value` meets filter `f` with the parameters of `binding`. A range
/// compares values of one kind only (numbers with numbers, strings with strings), as
/// Cosmos DB does: a value of another kind matches no range.
fn satisfies(f: &Filter<'_>, value: &Value, binding: &Binding) -> bool {
    let names = f.parameters();
    let bound = |i: usize| names.get(i).and_then(|n| binding.get(n));
    let same_kind = |a: &Value, b: &Value| {
        matches!(
            (a, b),
            (Value::Number(_), Value::Number(_))
                | (Value::String(_), Value::String(_))
                | (Value::Bool(_), Value::Bool(_))
        )
    };
    let compare = |b: &Value| same_kind(value, b).then(|| cosmos_order(Some(value), Some(b)));
    match f.op {
        FilterOp::Equal => bound(0) == Some(value),
        FilterOp::Less => bound(0).and_then(compare) == Some(Ordering::Less),
        FilterOp::LessOrEqual => bound(0).and_then(compare).is_some_and(|o| o != Ordering::Greater),
        FilterOp::Greater => bound(0).and_then(compare) == Some(Ordering::Greater),
        FilterOp::GreaterOrEqual => bound(0).and_then(compare).is_some_and(|o| o != Ordering::Less),
        FilterOp::Between => {
            bound(0).and_then(compare).is_some_and(|o| o != Ordering::Less)
                && bound(1).and_then(compare).is_some_and(|o| o != Ordering::Greater)
        }
        FilterOp::In => bound(0)
            .and_then(Value::as_array)
            .is_some_and(|list| list.contains(value)),
    }
}

/// The instances of element `start` in `body`, a document of type `d`: the document
/// itself, or the objects embedded in it (through arrays) — where a reference the
/// element holds is found.
pub(crate) fn start_instances<'v>(d: &DocumentType, start: &str, body: &'v Value) -> Vec<&'v Value> {
    sites(d, start)
        .iter()
        .flat_map(|site| instances(body, &site.path))
        .collect()
}

/// Whether documents of type `d` hold element `element`: as themselves, or embedded.
pub(crate) fn holds_element(d: &DocumentType, element: &str) -> bool {
    !sites(d, element).is_empty()
}

/// Where instances of element `start` sit in document type `d`.
fn sites<'a>(d: &'a DocumentType, start: &str) -> Vec<Site<'a>> {
    let mut out = Vec::new();
    if d.source == start {
        out.push(Site {
            path: Vec::new(),
            node: PropertyHolder::Document(d),
        });
    }
    walk(&d.embedded, start, &mut Vec::new(), &mut out);
    out
}

fn walk<'a>(embedded: &'a [Embedded], start: &str, path: &mut Vec<Step>, out: &mut Vec<Site<'a>>) {
    for e in embedded.iter().filter(|e| e.kind == EmbeddedKind::ValueObject) {
        path.push(Step {
            name: e.name.clone(),
            many: e.many,
        });
        if e.source == start {
            out.push(Site {
                path: path.clone(),
                node: PropertyHolder::Embedded(e),
            });
        }
        walk(&e.embedded, start, path, out);
        path.pop();
    }
}

/// Where attribute `f` is found on a document of type `d` (see the module docs).
fn place(c: &Container, d: &DocumentType, start: &str, site: Option<&Site<'_>>, f: &str) -> Place {
    // A path: through a reference to its target's identity, or into an embedded object.
    if let Some((first, rest)) = f.split_once('.') {
        let Some(node) = site.map(|s| s.node) else {
            return Place::Missing;
        };
        if let Some(r) = node
            .references()
            .iter()
            .find(|r| r.name == first && r.target_identity == rest)
        {
            return reference_place(r);
        }
        let embedded = node
            .embedded()
            .iter()
            .find(|e| e.name == first && e.attributes.iter().any(|a| a.name == rest));
        return match embedded {
            Some(e) => Place::Instance {
                path: vec![e.name.clone(), rest.to_string()],
                many: e.many,
            },
            None => Place::Missing,
        };
    }
    if c.partition_key_properties().contains(&f) {
        return Place::Document(f.to_string());
    }
    let own_document = site.is_some_and(|s| s.path.is_empty()) && d.source == start;
    if own_document && d.id.attribute() == Some(f) {
        return Place::Document("id".to_string());
    }
    if d.parent.as_ref().is_some_and(|link| link.property == f) {
        return Place::Document(f.to_string());
    }
    let Some(site) = site else {
        return Place::Document(f.to_string());
    };
    let node = site.node;
    if node.attributes().iter().any(|a| a.name == f) {
        return Place::Instance {
            path: vec![f.to_string()],
            many: false,
        };
    }
    if let Some(r) = node.references().iter().find(|r| r.target_identity == f) {
        return reference_place(r);
    }
    let snapshot = node
        .embedded()
        .iter()
        .find(|e| e.kind == EmbeddedKind::ReferenceData && e.attributes.first().is_some_and(|a| a.name == f));
    if let Some(e) = snapshot {
        return Place::Instance {
            path: vec![e.name.clone(), f.to_string()],
            many: e.many,
        };
    }
    Place::Missing
}

/// The `id` a reference holds, on the start's instance (through the list, for many).
fn reference_place(r: &cosmap_mapper::Reference) -> Place {
    Place::Instance {
        path: vec![r.name.clone(), "id".to_string()],
        many: r.many,
    }
}

/// The objects at `path` in `document`, through arrays.
fn instances<'v>(document: &'v Value, path: &[Step]) -> Vec<&'v Value> {
    let mut current = vec![document];
    for step in path {
        current = current
            .into_iter()
            .filter_map(|v| v.get(&step.name))
            .flat_map(|v| match v {
                Value::Array(items) => items.iter().collect::<Vec<_>>(),
                other => vec![other],
            })
            .collect();
    }
    current
}

/// The values at a property path in `object`, through arrays.
fn values_at<'v>(object: &'v Value, path: &[String]) -> Vec<&'v Value> {
    let steps: Vec<Step> = path
        .iter()
        .map(|name| Step {
            name: name.clone(),
            many: true,
        })
        .collect();
    instances(object, &steps)
}

fn compare_keys(a: &Option<Vec<Option<Value>>>, b: &Option<Vec<Option<Value>>>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a
            .iter()
            .zip(b)
            .map(|(x, y)| cosmos_order(x.as_ref(), y.as_ref()))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal),
        _ => Ordering::Equal,
    }
}

/// Cosmos DB's `ORDER BY` ordering of JSON values: undefined, null, booleans,
/// numbers, strings (by UTF-16 code units), then arrays and objects.
pub(crate) fn cosmos_order(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    fn rank(v: Option<&Value>) -> u8 {
        match v {
            None => 0,
            Some(Value::Null) => 1,
            Some(Value::Bool(_)) => 2,
            Some(Value::Number(_)) => 3,
            Some(Value::String(_)) => 4,
            Some(Value::Array(_)) => 5,
            Some(Value::Object(_)) => 6,
        }
    }
    match (a, b) {
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x.cmp(y),
        (Some(Value::Number(x)), Some(Value::Number(y))) => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
        (Some(Value::String(x)), Some(Value::String(y))) => x.encode_utf16().cmp(y.encode_utf16()),
        _ => rank(a).cmp(&rank(b)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn cosmos_ordering_of_values() {
        let ordered = [
            None,
            Some(json!(null)),
            Some(json!(false)),
            Some(json!(true)),
            Some(json!(-1)),
            Some(json!(2.5)),
            Some(json!(10)),
            Some(json!("B")),
            Some(json!("a")),
        ];
        for pair in ordered.windows(2) {
            assert_eq!(
                cosmos_order(pair[0].as_ref(), pair[1].as_ref()),
                Ordering::Less,
                "{pair:?}"
            );
        }
    }

    #[test]
    fn instances_go_through_arrays() {
        let doc = json!({"a": [{"b": {"c": 1}}, {"b": {"c": 2}}], "d": {"e": 3}});
        let path = |names: &[(&str, bool)]| -> Vec<Step> {
            names
                .iter()
                .map(|(n, many)| Step {
                    name: n.to_string(),
                    many: *many,
                })
                .collect()
        };
        assert_eq!(
            instances(&doc, &path(&[("a", true), ("b", false)])),
            [&json!({"c": 1}), &json!({"c": 2})]
        );
        assert_eq!(values_at(&doc, &["d".into(), "e".into()]), [&json!(3)]);
        assert!(instances(&doc, &path(&[("x", false)])).is_empty());
    }
}
