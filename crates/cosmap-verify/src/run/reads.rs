//! Reads: the main request, bound from the samples and judged against
//! [`crate::expected`]; the requests after it (point reads through a reference,
//! queries for returned elements stored elsewhere).

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::{AccessPattern, FilterOp};
use cosmap_mapper::operations::{Operation, OperationKind, Purpose, Request, ValueSource};
use cosmap_mapper::{BucketOf, Container, Role};
use serde_json::Value;

use super::{bind, bind_key, error, fail, id_of, key_in, pattern_outcome, verdict, Run};
use crate::expected::{holds_element, start_instances, Binding, ReadSpec};
use crate::fields::{Beside, Fields};
use crate::report::{PatternOutcome, RequestOutcome, Verdict};
use crate::samples::{lookup, Key, Sample};

mod bucket;
mod kept;
mod secondary;
mod tree;

pub(super) use bucket::bucket_items;

/// How many bindings besides the reported one a read runs (spread over all of them).
const MAX_OTHER_BINDINGS: usize = 24;

/// What the main request of a read leaves for the others: its binding and the
/// documents it should have returned.
struct MainRead<'s> {
    binding: Binding,
    expected: Vec<&'s Sample>,
    /// The documents the server returned for `binding`; `None` when it refused.
    answer: Option<Vec<Value>>,
}

impl Run<'_> {
    pub(super) async fn read(&self, op: &Operation, pattern: &AccessPattern) -> PatternOutcome {
        // A subset or buckets: one request, checked on its own.
        match op.requests.first() {
            Some(r) if matches!(r.purpose, Purpose::ReadSubset { .. }) => {
                return pattern_outcome(op, vec![self.subset_read(r, pattern).await]);
            }
            Some(r) if matches!(r.purpose, Purpose::ReadBuckets { .. }) => {
                return pattern_outcome(op, vec![self.bucket_read(r, pattern).await]);
            }
            _ => {}
        }
        let mut requests = Vec::new();
        let mut main = None;
        let beside = beside(op);
        // A lookup through a claim: the claim's point read names the main request's
        // document, and is judged by what that read returns.
        let claim = op
            .requests
            .first()
            .filter(|r| matches!(r.purpose, Purpose::ReadClaim { .. }));
        let first = usize::from(claim.is_some());
        for (i, r) in op.requests.iter().enumerate().skip(first) {
            let outcome = if i == first {
                let (outcome, read) = self.main_read(r, claim, pattern, &beside).await;
                if let Some(claim) = claim {
                    requests.push(self.claim_outcome(claim, &outcome));
                }
                main = read;
                outcome
            } else {
                self.secondary_read(r, pattern, main.as_ref()).await
            };
            requests.push(outcome);
        }
        if let (Some(main), Some(first)) = (main.as_ref(), op.requests.get(first)) {
            requests.extend(self.kept_counts(first, pattern, main).await);
            requests.extend(self.kept_ancestors(op, pattern, main).await);
        }
        pattern_outcome(op, requests)
    }

    async fn main_read(
        &self,
        r: &Request,
        claim: Option<&Request>,
        pattern: &AccessPattern,
        beside: &Beside,
    ) -> (RequestOutcome, Option<MainRead<'_>>) {
        let outcome = self.outcome(r);
        let Some(container) = self.logical.container(&r.container) else {
            return (fail(outcome, format!("there is no container `{}`", r.container)), None);
        };
        let holder = r.document_types.first().map(String::as_str).unwrap_or("");
        let spec = match ReadSpec::new(pattern, container, holder) {
            Ok(spec) => spec,
            Err(reason) => return (fail(outcome, reason), None),
        };
        let bindings = spec.bindings(&self.samples);
        if bindings.is_empty() {
            return (fail(outcome, no_binding(&spec, pattern, holder)), None);
        }
        let mut bindings = chosen_bindings(&spec, &self.samples, bindings).into_iter();
        let Some(binding) = bindings.next() else {
            return (fail(outcome, "no binding".into()), None);
        };
        let fields = Fields {
            pattern,
            domain: self.domain,
            logical: self.logical,
            samples: &self.samples,
            beside,
        };
        let (outcome, expected, answer) = self.read_with(r, claim, &spec, &fields, &binding, outcome).await;
        let main = MainRead {
            binding,
            expected,
            answer,
        };
        if outcome.verdict != Verdict::Pass {
            return (outcome, Some(main));
        }
        // Filters the application matches (after a point read) are not the database's.
        let in_application = match &r.purpose {
            Purpose::ReadMatchedInApplication { filters, .. } => filters.clone(),
            _ => Vec::new(),
        };
        let probes = probes(pattern, &main.binding, &in_application);
        let others = bindings
            .map(|b| (b, false))
            .chain(probes.into_iter().map(|p| (p, true)));
        for (other, probe) in others {
            let (checked, ..) = self.read_with(r, claim, &spec, &fields, &other, self.outcome(r)).await;
            // A probe the server refuses (the local server answers 500 for some keys
            // no document has) proves nothing either way: it is left out.
            if probe && checked.verdict == Verdict::Error {
                continue;
            }
            if checked.verdict != Verdict::Pass {
                let values: Vec<String> = other.iter().map(|(name, value)| format!("{name} = {value}")).collect();
                let reason = format!(
                    "with {}: {}",
                    values.join(", "),
                    checked.reason.unwrap_or_else(|| "a wrong answer".into())
                );
                let outcome = match checked.verdict {
                    Verdict::Error => error(outcome, reason),
                    _ => fail(outcome, reason),
                };
                return (outcome, Some(main));
            }
        }
        (outcome, Some(main))
    }

    /// Runs the main request `r` with `binding` and judges the answer; also gives the
    /// documents it should have returned, and those it returned (none when refused).
    async fn read_with<'s>(
        &'s self,
        r: &Request,
        claim: Option<&Request>,
        spec: &ReadSpec<'_>,
        fields: &Fields<'_>,
        binding: &Binding,
        mut outcome: RequestOutcome,
    ) -> (RequestOutcome, Vec<&'s Sample>, Option<Vec<Value>>) {
        let scoped = matches!(r.kind(), OperationKind::PointRead | OperationKind::SinglePartitionQuery);
        // Through a claim: the owner it names, or none when the value is not claimed.
        let claimed = match claim {
            Some(claim) => match self.through_claim(claim, r, binding).await {
                Ok(owner) => Some(owner),
                Err(reason) => return (fail(outcome, reason), Vec::new(), None),
            },
            None => None,
        };
        let partition = if let Some(owner) = &claimed {
            owner.as_ref().map(|(key, _)| key.clone())
        } else if scoped {
            match bind_key(r.partition_key(), binding) {
                Ok(p) => Some(p),
                Err(reason) => return (fail(outcome, reason), Vec::new(), None),
            }
        } else {
            None
        };
        let mut expected = spec.expected(&self.samples, binding);
        let ordered = spec.ordered(&expected);
        // `limit`: the first N in the pattern's order; without an order, any N of them.
        let unordered_limit = match spec.limit() {
            Some(n) if ordered => {
                expected.truncate(n);
                None
            }
            Some(n) if n < expected.len() => Some(n),
            _ => None,
        };
        outcome.expected = expected.iter().map(|s| s.id.clone()).collect();
        outcome.ordered = ordered;
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let answer = match self
            .send(
                r,
                &fields.pattern.name,
                binding,
                partition.as_ref(),
                claimed.as_ref(),
                &mut outcome,
            )
            .await
        {
            Ok(answer) => answer,
            Err(reason) => return (fail(outcome, reason), expected, None),
        };
        match answer {
            Ok(returned) => {
                let outcome = match unordered_limit {
                    Some(n) => judge_some(outcome, &returned, n),
                    None => judge(outcome, &returned, |docs| spec.in_order(docs, &self.samples)),
                };
                let outcome = match (outcome.verdict, self.fields_differ(r, fields, &returned)) {
                    (Verdict::Pass, Some(reason)) => fail(outcome, reason),
                    _ => outcome,
                };
                (outcome, expected, Some(returned))
            }
            Err(cause) => (error(outcome, cause), expected, None),
        }
    }

    /// The partition key and id of the owner that `claim`'s document for `binding`'s
    /// value names, where `owner` (the read after it) takes them; `None` when no claim
    /// holds the value.
    async fn through_claim(
        &self,
        claim: &Request,
        owner: &Request,
        binding: &Binding,
    ) -> Result<Option<(Key, String)>, String> {
        let pk = bind_key(claim.partition_key(), binding)?;
        let id = bind(claim.id(), binding, "id")?;
        let Some(doc) = self.point_read(&claim.container, &pk, &id).await? else {
            return Ok(None);
        };
        let key = match owner.partition_key() {
            Some(source) => key_in(source, &doc)?,
            None => None,
        };
        let owner_id = match owner.id() {
            Some(ValueSource::Property(path)) => lookup(&doc, path).and_then(Value::as_str),
            _ => None,
        };
        match (key, owner_id) {
            (Some(key), Some(owner_id)) => Ok(Some((key, owner_id.to_string()))),
            _ => Err(format!(
                "the claim `{id}` in partition `{pk}` of `{}` does not name its owner's partition key and id",
                claim.container
            )),
        }
    }

    /// The outcome of the point read of a claim that named the main read's document:
    /// judged by that read (`main`), which sends it for every binding.
    fn claim_outcome(&self, claim: &Request, main: &RequestOutcome) -> RequestOutcome {
        let mut outcome = self.outcome(claim);
        outcome.verdict = main.verdict;
        if main.verdict != Verdict::Pass {
            outcome.reason = Some("judged by the read of the owner it names, below".into());
        }
        outcome
    }

    /// Sends read `r` bound to `binding` (in `partition`; after a claim, to the owner
    /// it named, `claimed`), or asks the generated method of `pattern` where it answers
    /// it (`verify_generated`), noting the id and parameters in `outcome`: the answer,
    /// or the server's refusal; `Err` when the request cannot be bound.
    async fn send(
        &self,
        r: &Request,
        pattern: &str,
        binding: &Binding,
        partition: Option<&Key>,
        claimed: Option<&Option<(Key, String)>>,
        outcome: &mut RequestOutcome,
    ) -> Result<Result<Vec<Value>, String>, String> {
        match r.kind() {
            OperationKind::PointRead => {
                // Through a claim: the owner it names (none when the value is unclaimed).
                let id = match claimed {
                    Some(owner) => owner.as_ref().map(|(_, id)| id.clone()),
                    None => Some(bind(r.id(), binding, "id")?),
                };
                outcome.id = id.clone();
                if let Some(answer) = self.generated_answer(pattern, binding).await {
                    return Ok(answer);
                }
                let Some(id) = id else {
                    return Ok(Ok(Vec::new()));
                };
                let pk = partition.ok_or("a point read needs a partition key")?;
                Ok(self
                    .point_read(&r.container, pk, &id)
                    .await
                    .map(|doc| doc.into_iter().collect()))
            }
            OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery => {
                outcome.parameters = self.parameters(r, binding)?;
                if let Some(answer) = self.generated_answer(pattern, binding).await {
                    return Ok(answer);
                }
                let sql = r.sql().unwrap_or_default();
                Ok(self.query(&r.container, sql, &outcome.parameters, partition).await)
            }
            OperationKind::Write => Ok(Err("a read pattern's operation cannot be a write".to_string())),
        }
    }

    /// The first asked-for field of a returned document that is not what its sample
    /// says ([`Fields`]): the reason names the document and the field.
    fn fields_differ(&self, r: &Request, fields: &Fields<'_>, returned: &[Value]) -> Option<String> {
        let short = r.selects_short_form();
        returned.iter().find_map(|doc| {
            let id = doc.get("id").and_then(Value::as_str)?;
            let sample = self.samples.iter().find(|s| s.container == r.container && s.id == id)?;
            fields.first_difference(sample, doc, short)
        })
    }

    /// The document types of `container` a request after the main one should return:
    /// the returned elements' own documents there, or, for an element with none, the
    /// documents it is embedded in — of the types the request names (one container
    /// can hold two returned elements, each read by a request of its own).
    fn returned_types<'c>(&self, container: &'c Container, r: &Request, pattern: &AccessPattern) -> Vec<&'c str> {
        let kept = container
            .document_types
            .iter()
            .filter(|d| d.role != Role::Copy && r.document_types.contains(&d.name));
        let mut types: Vec<&str> = Vec::new();
        for element in self.returned_elements(pattern) {
            let own: Vec<&str> = kept
                .clone()
                .filter(|d| d.source == element)
                .map(|d| d.name.as_str())
                .collect();
            if own.is_empty() {
                types.extend(
                    kept.clone()
                        .filter(|d| holds_element(d, element))
                        .map(|d| d.name.as_str()),
                );
            } else {
                types.extend(own);
            }
        }
        types
    }

    /// The elements a pattern's `returns` names: an element, or for a property of the
    /// start or a path (`categories`, `author.username`), what the start's reference
    /// of that name leads to (the domain's relationship when the start has no document
    /// of its own: a value object embedded in another document).
    fn returned_elements<'p>(&'p self, pattern: &'p AccessPattern) -> Vec<&'p str> {
        pattern
            .returns
            .iter()
            .filter_map(|entry| {
                if self.domain.element(entry).is_some() {
                    return Some(entry.as_str());
                }
                let first = entry.split('.').next().unwrap_or(entry);
                self.logical
                    .containers
                    .iter()
                    .flat_map(|c| &c.document_types)
                    .filter(|d| d.source == pattern.start)
                    .flat_map(|d| &d.references)
                    .find(|r| r.name == first)
                    .map(|r| r.target.as_str())
                    .or_else(|| {
                        self.domain
                            .relationship_by_property(&pattern.start, first)
                            .map(|r| r.to.as_str())
                    })
            })
            .collect()
    }

    /// The query's parameters, each bound to the filter of the same name.
    fn parameters(&self, r: &Request, binding: &Binding) -> Result<BTreeMap<String, Value>, String> {
        let Some((_, names)) = r.query() else {
            return Err("the request is not a query".into());
        };
        let mut out = BTreeMap::new();
        for name in names {
            let value = binding
                .get(name)
                .ok_or_else(|| format!("the SQL's parameter `@{name}` is not one of the pattern's filters"))?;
            out.insert(format!("@{name}"), value.clone());
        }
        Ok(out)
    }
}

/// Bindings no sample offers, made from `binding` to tell equality from a looser
/// comparison: for each equality filter bound to a string, the string in other
/// capitals (a `LOWER` on both sides finds what it should not) and the string
/// without its last character (a `STARTSWITH` finds what it should not). The
/// expected answer is worked out as for any binding (usually nothing). Filters the
/// application matches (`skip`) are left alone.
fn probes(pattern: &AccessPattern, binding: &Binding, skip: &[String]) -> Vec<Binding> {
    let mut out = Vec::new();
    let filters = pattern.filters().into_iter().flatten();
    for f in filters.filter(|f| f.op == FilterOp::Equal && !skip.iter().any(|s| s == f.attribute)) {
        let Some(name) = f.parameters().into_iter().next() else {
            continue;
        };
        let Some(Value::String(value)) = binding.get(&name) else {
            continue;
        };
        let upper = value.to_uppercase();
        let other_case = if upper == *value { value.to_lowercase() } else { upper };
        let mut shorter = value.clone();
        shorter.pop();
        for probe in [other_case, shorter] {
            if probe != *value && !probe.is_empty() {
                let mut b = binding.clone();
                b.insert(name.clone(), Value::String(probe));
                if !out.contains(&b) {
                    out.push(b);
                }
            }
        }
    }
    out
}

/// What `op` gives beside its main answer: the references it follows with a point
/// read (by the first name of the path its id comes from), the elements it counts.
fn beside(op: &Operation) -> Beside {
    let mut beside = Beside::default();
    for r in op.requests.iter().skip(1) {
        match (&r.purpose, r.kind(), r.id()) {
            (Purpose::Count { element, .. }, _, _) => beside.counted.push(element.clone()),
            (_, OperationKind::PointRead, Some(ValueSource::Property(path))) => {
                if let Some(first) = path.names().first() {
                    beside.followed.push(first.clone());
                }
            }
            _ => {}
        }
    }
    beside
}

/// For a `limit` without an order: `n` distinct documents, each one of `outcome.expected`.
fn judge_some(mut outcome: RequestOutcome, returned: &[Value], n: usize) -> RequestOutcome {
    let ids: Vec<String> = returned.iter().map(id_of).collect();
    outcome.returned = Some(ids.clone());
    let distinct: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let unexpected: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| !outcome.expected.iter().any(|e| e == id))
        .collect();
    let mut problems = Vec::new();
    if !unexpected.is_empty() {
        problems.push(format!("not expected {}", unexpected.join(", ")));
    }
    if distinct.len() != ids.len() {
        problems.push("a document returned more than once".to_string());
    }
    if ids.len() != n {
        problems.push(format!(
            "{} documents, where the limit asks for {n} of the {} that match",
            ids.len(),
            outcome.expected.len()
        ));
    }
    verdict(outcome, (!problems.is_empty()).then(|| problems.join("; ")))
}

/// Compares what came back with `outcome.expected`: the same ids, each once, and in
/// the expected order when `outcome.ordered` (checked by `in_order`).
pub(super) fn judge(
    mut outcome: RequestOutcome,
    returned: &[Value],
    in_order: impl Fn(&[&Value]) -> bool,
) -> RequestOutcome {
    let ids: Vec<String> = returned.iter().map(id_of).collect();
    outcome.returned = Some(ids.clone());
    let mut seen = BTreeSet::new();
    let twice: Vec<&str> = ids
        .iter()
        .filter(|id| !seen.insert(id.as_str()))
        .map(String::as_str)
        .collect();
    let expected: BTreeSet<&str> = outcome.expected.iter().map(String::as_str).collect();
    let missing: Vec<&str> = outcome
        .expected
        .iter()
        .map(String::as_str)
        .filter(|id| !seen.contains(id))
        .collect();
    let extra: Vec<String> = returned
        .iter()
        .filter(|doc| !expected.contains(id_of(doc).as_str()))
        .map(|doc| {
            let kind = doc.get("type").and_then(Value::as_str).unwrap_or("?");
            format!("{} ({kind})", id_of(doc))
        })
        .collect();
    let mut problems = Vec::new();
    if !missing.is_empty() {
        problems.push(format!("missing {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        problems.push(format!("not expected {}", extra.join(", ")));
    }
    if !twice.is_empty() {
        problems.push(format!("returned more than once {}", twice.join(", ")));
    }
    if problems.is_empty() && outcome.ordered {
        let docs: Vec<&Value> = returned.iter().collect();
        if !in_order(&docs) {
            problems.push("the right documents, in another order than the pattern's sort".to_string());
        }
    }
    verdict(outcome, (!problems.is_empty()).then(|| problems.join("; ")))
}

/// Why the samples offer no binding for a read of `pattern` on `holder`.
fn no_binding(spec: &ReadSpec<'_>, pattern: &AccessPattern, holder: &str) -> String {
    let missing = spec.missing_filters();
    if missing.is_empty() {
        format!(
            "no sample of `{holder}` holds `{}` with a value for every filter",
            pattern.start
        )
    } else {
        format!(
            "no sample offers a value for every filter: `{}` is not stored in `{holder}`",
            missing.join("`, `")
        )
    }
}

/// The bindings a read runs, the one reported first: the one that tells most wrong
/// queries from the right one: every filter needed (a query that lost a clause
/// returns more), more answers than the limit (a query that lost its limit returns
/// more), then the largest answer that still leaves documents out. Then the others,
/// each of which must be answered as well: at most [`MAX_OTHER_BINDINGS`] of them,
/// spread evenly, and the best one whose answer exceeds the limit.
fn chosen_bindings(spec: &ReadSpec<'_>, samples: &[Sample], bindings: Vec<Binding>) -> Vec<Binding> {
    let total = spec.total(samples);
    let limit = spec.limit();
    let mut scored: Vec<((usize, bool, bool, usize), Binding)> = bindings
        .into_iter()
        .map(|binding| {
            let count = spec.expected(samples, &binding).len();
            let needed = spec.needed_filters(samples, &binding);
            (
                (needed, limit.is_some_and(|n| count > n), count < total, count),
                binding,
            )
        })
        .collect();
    // Best first; equal scores keep the samples' order.
    scored.sort_by_key(|scored| std::cmp::Reverse(scored.0));
    let step = scored.len().div_ceil(MAX_OTHER_BINDINGS + 1).max(1);
    let over_limit = scored.iter().position(|(score, _)| score.1);
    scored
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i == 0 || i % step == 0 || Some(*i) == over_limit)
        .map(|(_, (_, binding))| binding)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn binds_parameters_and_constants() {
        let binding: Binding = [("accountId".to_string(), json!("account-1"))].into();
        let parameter = |name: &str| ValueSource::Parameter(name.to_string());
        assert_eq!(
            bind(Some(&parameter("accountId")), &binding, "pk"),
            Ok("account-1".into())
        );
        assert_eq!(
            bind(Some(&ValueSource::Constant("country".into())), &binding, "pk"),
            Ok("country".into())
        );
        assert!(bind(Some(&parameter("orderId")), &binding, "pk").is_err());
        assert!(bind(None, &binding, "pk").is_err());
    }
}
