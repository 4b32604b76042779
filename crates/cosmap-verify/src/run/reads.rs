//! Reads: the main request, bound from the samples and judged against
//! [`crate::expected`]; the requests after it (point reads through a reference,
//! queries for returned elements stored elsewhere).

use std::collections::{BTreeMap, BTreeSet};

use cosmap_domain::{AccessPattern, FilterOp};
use cosmap_mapper::operations::{Operation, OperationKind, Purpose, Request, ValueSource};
use cosmap_mapper::{Container, Role};
use serde_json::Value;

use super::{bind, bind_key, error, fail, id_of, key_in, pattern_outcome, Run};
use crate::expected::{holds_element, start_instances, Binding, ReadSpec};
use crate::fields::{Beside, Fields};
use crate::report::{PatternOutcome, RequestOutcome, Verdict};
use crate::samples::{lookup, Key, Sample};

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
        if let Some(r) = op
            .requests
            .first()
            .filter(|r| matches!(r.purpose, Purpose::ReadSubset { .. }))
        {
            let outcome = self.subset_read(r, pattern).await;
            return pattern_outcome(op, vec![outcome]);
        }
        if let Some(r) = op
            .requests
            .first()
            .filter(|r| matches!(r.purpose, Purpose::ReadBuckets { .. }))
        {
            let outcome = self.bucket_read(r, pattern).await;
            return pattern_outcome(op, vec![outcome]);
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

    /// A read of children kept in buckets (`bucket`), worked out on the buckets' items
    /// alone: for the first parent, a time range that cuts its buckets (the filters'
    /// bounds taken from its items' times), the buckets whose windows the range
    /// touches must come back in the sort's order, and the items the application takes
    /// from them (in range, sorted, up to the limit) must be the parent's items in
    /// range, sorted, up to the limit.
    async fn bucket_read(&self, r: &Request, pattern: &AccessPattern) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Some((c, d, b)) = self.bucket_of(r) else {
            return fail(outcome, format!("`{}` holds no buckets", r.container));
        };
        let buckets: Vec<&Sample> = self
            .samples
            .iter()
            .filter(|s| s.container == c.name && s.document_type == d.name)
            .collect();
        let Some(parent) = buckets.first().map(|s| s.partition_key.clone()) else {
            return fail(outcome, format!("there are no `{}` samples", d.name));
        };
        let own: Vec<&Sample> = buckets.into_iter().filter(|s| s.partition_key == parent).collect();
        let time = |item: &Value| {
            item.get(&b.time)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let items_of = |bucket: &Value| -> Vec<Value> {
            bucket
                .get(&b.items)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let mut times: Vec<String> = own.iter().flat_map(|s| items_of(&s.body)).map(|i| time(&i)).collect();
        times.sort();
        if times.is_empty() {
            return fail(outcome, format!("the `{}` samples of `{parent}` hold no items", d.name));
        }
        // The bounds: a quarter and three quarters in, or the middle for one bound.
        let ranges: Vec<cosmap_domain::Filter<'_>> = pattern
            .filters()
            .into_iter()
            .flatten()
            .filter(|f| f.is_range())
            .collect();
        let both = ranges.iter().any(|f| f.op == FilterOp::Between)
            || (ranges
                .iter()
                .any(|f| matches!(f.op, FilterOp::Greater | FilterOp::GreaterOrEqual))
                && ranges
                    .iter()
                    .any(|f| matches!(f.op, FilterOp::Less | FilterOp::LessOrEqual)));
        let (low, high) = if both {
            (times[times.len() / 4].clone(), times[times.len() * 3 / 4].clone())
        } else {
            (times[times.len() / 2].clone(), times[times.len() / 2].clone())
        };
        let mut parameters = BTreeMap::new();
        parameters.insert(
            format!("@{}", c.partition_key_property),
            Value::String(parent.to_string()),
        );
        for f in &ranges {
            for name in f.parameters() {
                let value = if name.ends_with("Min") { &low } else { &high };
                parameters.insert(format!("@{name}"), Value::String(value.clone()));
            }
        }
        let in_range = |t: &str| {
            ranges.iter().all(|f| match f.op {
                FilterOp::Greater => t > low.as_str(),
                FilterOp::GreaterOrEqual => t >= low.as_str(),
                FilterOp::Less => t < high.as_str(),
                FilterOp::LessOrEqual => t <= high.as_str(),
                FilterOp::Between => t >= low.as_str() && t <= high.as_str(),
                FilterOp::Equal | FilterOp::In => true,
            })
        };
        let descending = pattern.sort_keys().first().is_some_and(|k| k.descending);
        let take = |mut items: Vec<Value>| -> Vec<String> {
            items.retain(|i| in_range(&time(i)));
            items.sort_by_key(|i| time(i));
            if descending {
                items.reverse();
            }
            let limit = pattern.limit.map_or(usize::MAX, |n| n as usize);
            items.iter().take(limit).map(time).collect()
        };
        // The buckets the range touches, by window (the start of their items' times).
        let (first, last) = (
            crate::samples::window_of(&low, b.window),
            crate::samples::window_of(&high, b.window),
        );
        let touches = |window: &str| {
            ranges.iter().all(|f| match f.op {
                FilterOp::Greater | FilterOp::GreaterOrEqual => window >= first.as_str(),
                FilterOp::Less | FilterOp::LessOrEqual => window <= last.as_str(),
                FilterOp::Between => window >= first.as_str() && window <= last.as_str(),
                FilterOp::Equal | FilterOp::In => true,
            })
        };
        let mut expected_buckets: Vec<String> = own.iter().map(|s| s.id.clone()).filter(|w| touches(w)).collect();
        expected_buckets.sort();
        if descending {
            expected_buckets.reverse();
        }
        outcome.expected = take(own.iter().flat_map(|s| items_of(&s.body)).collect());
        outcome.partition_key = Some(parent.to_string());
        outcome.parameters = parameters;
        let Some(sql) = r.sql() else {
            return fail(outcome, "a bucket read is a query".into());
        };
        let returned = match self.query(&c.name, sql, &outcome.parameters, Some(&parent)).await {
            Ok(returned) => returned,
            Err(cause) => return error(outcome, cause),
        };
        let returned_buckets: Vec<String> = returned.iter().map(super::id_of).collect();
        let taken = take(returned.iter().flat_map(items_of).collect());
        outcome.returned = Some(taken.clone());
        if returned_buckets != expected_buckets {
            let why = format!("returned the buckets {returned_buckets:?}, expected {expected_buckets:?} in this order");
            return fail(outcome, why);
        }
        if taken != outcome.expected {
            return fail(
                outcome,
                "the items taken from the buckets are not the parent's items in range".into(),
            );
        }
        // The generated method takes the items itself: the same ones, in the same order.
        let binding = outcome
            .parameters
            .iter()
            .map(|(n, v)| (n[1..].to_string(), v.clone()))
            .collect();
        match self.generated_answer(&pattern.name, &binding).await {
            Some(Ok(items)) if items.iter().map(time).collect::<Vec<_>>() != outcome.expected => {
                let got: Vec<String> = items.iter().map(time).collect();
                fail(outcome, format!("the generated method took the items at {got:?}"))
            }
            Some(Err(cause)) => error(outcome, cause),
            _ => {
                outcome.verdict = Verdict::Pass;
                outcome
            }
        }
    }

    /// A read a subset serves (`subset`): what the pattern should return is worked out
    /// on the children's own documents (the newest N of the parent the filter names,
    /// in order); the point read of the parent must hold exactly those, in that order.
    async fn subset_read(&self, r: &Request, pattern: &AccessPattern) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Purpose::ReadSubset { property, .. } = &r.purpose else {
            return fail(outcome, "not a subset read".into());
        };
        let subset = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(r.document_types.first()?))
            .and_then(|d| d.embedded.iter().find(|e| e.name == *property));
        let Some((e, of)) = subset.and_then(|e| Some((e, e.subset.as_ref()?))) else {
            return fail(outcome, format!("`{}` keeps no subset `{property}`", r.container));
        };
        let Some(children) = self.logical.container(&of.container) else {
            return fail(outcome, format!("there is no container `{}`", of.container));
        };
        let spec = match ReadSpec::new(pattern, children, &of.document_type) {
            Ok(spec) => spec,
            Err(reason) => return fail(outcome, reason),
        };
        // The parent with the most children: the subset must leave some out.
        let Some(binding) = spec
            .bindings(&self.samples)
            .into_iter()
            .max_by_key(|b| spec.expected(&self.samples, b).len())
        else {
            return fail(
                outcome,
                format!("no sample `{}` offers a value for the filter", of.document_type),
            );
        };
        let mut expected = spec.expected(&self.samples, &binding);
        if let Some(n) = spec.limit() {
            expected.truncate(n);
        }
        outcome.expected = expected.iter().map(|s| s.id.clone()).collect();
        outcome.ordered = true;
        let id = match bind(r.id(), &binding, "id") {
            Ok(id) => id,
            Err(reason) => return fail(outcome, reason),
        };
        let key = Key::one(id.clone());
        outcome.partition_key = Some(key.to_string());
        outcome.id = Some(id.clone());
        let identity = e.attributes.first().map_or("id", |a| a.name.as_str());
        // The generated method returns the subset's items; the plan reads the parent.
        let kept = match self.generated_answer(&pattern.name, &binding).await {
            Some(answer) => answer,
            None => match self.point_read(&r.container, &key, &id).await {
                Ok(Some(parent)) => Ok(parent
                    .get(property)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()),
                Ok(None) => return fail(outcome, format!("the parent `{id}` is not there")),
                Err(cause) => Err(cause),
            },
        };
        match kept {
            Ok(kept) => {
                let items: Vec<Value> = kept
                    .iter()
                    .map(|item| serde_json::json!({ "id": item.get(identity).cloned().unwrap_or(Value::Null) }))
                    .collect();
                let wanted = outcome.expected.clone();
                judge(outcome, &items, move |docs| {
                    docs.iter().map(|d| id_of(d)).collect::<Vec<_>>() == wanted
                })
            }
            Err(cause) => error(outcome, cause),
        }
    }

    /// For each element the pattern `counts` that the document read keeps a count of
    /// (computedValue): a point read of the first result, whose count must equal the
    /// number of its children among the samples (`+ count kept?`).
    async fn kept_counts(&self, first: &Request, pattern: &AccessPattern, main: &MainRead<'_>) -> Vec<RequestOutcome> {
        let Some(d) = self
            .logical
            .container(&first.container)
            .and_then(|c| c.document_type(first.document_types.first()?))
        else {
            return Vec::new();
        };
        let mut checks = Vec::new();
        for v in d.computed.iter().filter(|v| pattern.counts.contains(&v.counts)) {
            let mut outcome = RequestOutcome {
                added: true,
                check: Some("count kept?".into()),
                ..RequestOutcome::pending(
                    OperationKind::PointRead,
                    None,
                    &first.container,
                    vec![d.name.clone()],
                    false,
                )
            };
            let Some(result) = main
                .expected
                .iter()
                .find(|s| s.container == first.container && s.document_type == d.name)
            else {
                checks.push(fail(outcome, format!("the main read should return no `{}`", d.name)));
                continue;
            };
            let counted = self
                .logical
                .container(&v.container)
                .and_then(|c| c.document_type(&v.document_type));
            let Some(counted) = counted else {
                checks.push(fail(
                    outcome,
                    format!("there is no `{}` in `{}`", v.document_type, v.container),
                ));
                continue;
            };
            let expected = self
                .samples
                .iter()
                .filter(|s| crate::samples::belongs(counted, &v.container, &d.source, result, s))
                .count();
            outcome.partition_key = Some(result.partition_key.to_string());
            outcome.id = Some(result.id.clone());
            outcome.expected = vec![expected.to_string()];
            match self
                .point_read(&first.container, &result.partition_key, &result.id)
                .await
            {
                Ok(Some(read)) => {
                    let kept = read
                        .get(&v.name)
                        .map(Value::to_string)
                        .unwrap_or_else(|| "nothing".into());
                    outcome.returned = Some(vec![kept.clone()]);
                    checks.push(if kept == expected.to_string() {
                        outcome.verdict = Verdict::Pass;
                        outcome
                    } else {
                        let why = format!(
                            "`{}.{}` holds {kept}, but {expected} `{}`s belong to it",
                            result.id, v.name, v.counts
                        );
                        fail(outcome, why)
                    });
                }
                Ok(None) => checks.push(fail(outcome, format!("`{}` is not there", result.id))),
                Err(cause) => checks.push(error(outcome, cause)),
            }
        }
        checks
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
            let missing = spec.missing_filters();
            let reason = if missing.is_empty() {
                format!(
                    "no sample of `{holder}` holds `{}` with a value for every filter",
                    pattern.start
                )
            } else {
                format!(
                    "no sample offers a value for every filter: `{}` is not stored in `{holder}`",
                    missing.join("`, `")
                )
            };
            return (fail(outcome, reason), None);
        }
        // The binding reported is the one that tells most wrong queries from the
        // right one: every filter needed (a query that lost a clause returns more),
        // more answers than the limit (a query that lost its limit returns more),
        // then the largest answer that still leaves documents out. Every other
        // binding the samples offer is run too, and must be answered as well.
        let total = spec.total(&self.samples);
        let limit = spec.limit();
        let mut scored: Vec<((usize, bool, bool, usize), Binding)> = bindings
            .into_iter()
            .map(|binding| {
                let count = spec.expected(&self.samples, &binding).len();
                let needed = spec.needed_filters(&self.samples, &binding);
                (
                    (needed, limit.is_some_and(|n| count > n), count < total, count),
                    binding,
                )
            })
            .collect();
        // Best first; equal scores keep the samples' order.
        scored.sort_by_key(|scored| std::cmp::Reverse(scored.0));
        // The others: at most MAX_OTHER_BINDINGS of them, spread evenly, and the best
        // one whose answer exceeds the limit.
        let step = scored.len().div_ceil(MAX_OTHER_BINDINGS + 1).max(1);
        let over_limit = scored.iter().position(|(score, _)| score.1);
        let mut bindings = scored
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i == 0 || i % step == 0 || Some(*i) == over_limit)
            .map(|(_, (_, binding))| binding);
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

    /// A request after the main one: a point read through a reference the documents
    /// read hold, or a query for returned elements stored elsewhere.
    async fn secondary_read(
        &self,
        r: &Request,
        pattern: &AccessPattern,
        main: Option<&MainRead<'_>>,
    ) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Some(main) = main else {
            return fail(outcome, "not run: the main request could not be run".into());
        };
        if let Purpose::Count { element, per } = &r.purpose {
            return self.count_read(r, element, per, main, outcome).await;
        }
        if let Purpose::FollowAncestors { reference, .. } = &r.purpose {
            return self.ancestors_read(r, reference, main, outcome).await;
        }
        let Some(container) = self.logical.container(&r.container) else {
            return fail(outcome, format!("there is no container `{}`", r.container));
        };
        let types = self.returned_types(container, r, pattern);
        if types.is_empty() {
            return fail(
                outcome,
                format!("`{}` holds none of the elements the pattern returns", r.container),
            );
        }
        let of_types = |s: &&Sample| s.container == r.container && types.contains(&s.document_type.as_str());
        let through_reference = matches!(r.partition_key(), Some(ValueSource::Property(_)));
        let answer = if r.kind() == OperationKind::PointRead && through_reference {
            let (Some(ValueSource::Property(pk_path)), Some(ValueSource::Property(id_path))) =
                (r.partition_key(), r.id())
            else {
                return fail(
                    outcome,
                    "a point read through a reference needs its id and partition key from the document read".into(),
                );
            };
            // The reference is on the start element: the document, or an object in it.
            let held = |s: &Sample, body: &Value| {
                let d = self.logical.container(&s.container)?.document_type(&s.document_type)?;
                let mut holders = vec![body];
                holders.extend(start_instances(d, &pattern.start, body));
                holders.into_iter().find_map(|holder| {
                    let pk = Key::from_json(lookup(holder, pk_path)?)?;
                    let id = lookup(holder, id_path)?.as_str()?;
                    Some((pk, id.to_string()))
                })
            };
            // The application follows the reference the answer holds: the first result
            // the answer returned (any, when the server refused it) that should hold one.
            let first = main.expected.iter().find_map(|s| {
                let body = match &main.answer {
                    None => &s.body,
                    Some(answer) => answer
                        .iter()
                        .find(|doc| doc.get("id").and_then(Value::as_str) == Some(s.id.as_str()))?,
                };
                Some((held(s, &s.body)?, body, *s))
            });
            let Some(((pk, id), body, sample)) = first else {
                return fail(
                    outcome,
                    format!("no document the main request returned holds `{pk_path}` and `{id_path}` as it should"),
                );
            };
            let Some((sent_pk, sent_id)) = held(sample, body) else {
                return fail(
                    outcome,
                    format!(
                        "`{}` as returned holds no `{pk_path}` and `{id_path}` to follow",
                        sample.id
                    ),
                );
            };
            outcome.partition_key = Some(sent_pk.to_string());
            outcome.id = Some(sent_id.clone());
            outcome.expected = self
                .samples
                .iter()
                .filter(of_types)
                .filter(|s| s.id == id && s.partition_key == pk)
                .map(|s| s.id.clone())
                .collect();
            self.point_read(&r.container, &sent_pk, &sent_id)
                .await
                .map(|doc| doc.into_iter().collect())
        } else if let (Some(sql), true) = (r.sql(), r.kind() != OperationKind::PointRead) {
            // Those that refer back to a document the main request returns (a list
            // stored the other way round): the query runs per result, by its id; here
            // for the first.
            let referred = match &r.purpose {
                Purpose::FindReferring { from, .. } => match main.expected.first() {
                    Some(m) => Some(*m),
                    None => {
                        return fail(
                            outcome,
                            format!("the main read should return no `{from}` to find what refers to it"),
                        )
                    }
                },
                _ => None,
            };
            // The targets the results' lists name: one query for the ids every result's
            // list holds, each once.
            let listed: Option<Vec<String>> = match &r.purpose {
                Purpose::ReadListed { reference, .. } => match main.expected.first() {
                    Some(_) => {
                        let mut ids: Vec<String> = Vec::new();
                        for id in main.expected.iter().flat_map(|m| listed_ids(&m.body, reference)) {
                            if !ids.contains(&id) {
                                ids.push(id);
                            }
                        }
                        Some(ids)
                    }
                    None => {
                        return fail(
                            outcome,
                            format!("the main read should return nothing whose `{reference}` lists what to read"),
                        )
                    }
                },
                _ => None,
            };
            let partition = match (r.kind() == OperationKind::SinglePartitionQuery, referred) {
                (false, _) => None,
                (true, None) if listed.is_some() => match bind_key(r.partition_key(), &main.binding) {
                    Ok(p) => Some(p),
                    Err(reason) => return fail(outcome, reason),
                },
                // Partitioned by the reference: the referred document's id.
                (true, Some(m)) => Some(Key::one(m.id.clone())),
                (true, None) => match bind_key(r.partition_key(), &main.binding) {
                    Ok(p) => Some(p),
                    Err(reason) => return fail(outcome, reason),
                },
            };
            outcome.partition_key = partition.as_ref().map(Key::to_string);
            let referring = |s: &&Sample| match (&r.purpose, referred) {
                (Purpose::FindReferring { reference, .. }, Some(m)) => {
                    let ids: Vec<&str> = match s.body.get(reference) {
                        Some(Value::Array(list)) => list.iter().filter_map(|x| x.get("id")?.as_str()).collect(),
                        Some(one) => one.get("id").and_then(Value::as_str).into_iter().collect(),
                        None => Vec::new(),
                    };
                    ids.contains(&m.id.as_str())
                }
                _ => listed.as_ref().is_none_or(|ids| ids.contains(&s.id)),
            };
            outcome.expected = self
                .samples
                .iter()
                .filter(of_types)
                .filter(|s| partition.as_ref().is_none_or(|p| s.partition_key.starts_with(p)))
                .filter(referring)
                .map(|s| s.id.clone())
                .collect();
            let parameters = match (referred, &listed) {
                (Some(m), _) => Ok(super::all_bound_to(r, &m.id)),
                (None, Some(ids)) => Ok(super::list_bound_to(r, ids)),
                (None, None) => self.parameters(r, &main.binding),
            };
            match parameters {
                Ok(parameters) => {
                    outcome.parameters = parameters;
                    self.query(&r.container, sql, &outcome.parameters, partition.as_ref())
                        .await
                }
                Err(reason) => return fail(outcome, reason),
            }
        } else {
            return fail(outcome, "cannot tell how to run this request".into());
        };
        match answer {
            Ok(returned) => judge(outcome, &returned, |_| true),
            Err(cause) => error(outcome, cause),
        }
    }

    /// The ancestors of the first result the main read should return, up a tree's
    /// parent link `reference`: one point read per level through the link the document
    /// before holds, until a root; expected, the chain the samples' links make.
    async fn ancestors_read(
        &self,
        r: &Request,
        reference: &str,
        main: &MainRead<'_>,
        mut outcome: RequestOutcome,
    ) -> RequestOutcome {
        let Some(first) = main.expected.first() else {
            return fail(outcome, "the main read should return nothing to climb from".into());
        };
        let link = |body: &Value| tree_link(body, reference);
        let expected = self.chain(first, reference);
        outcome.expected = expected.clone();
        let mut returned = Vec::new();
        let mut at = link(&first.body);
        while let Some((pk, id)) = at.take().filter(|_| returned.len() <= expected.len()) {
            match self.point_read(&r.container, &pk, &id).await {
                Ok(Some(doc)) => {
                    at = link(&doc);
                    returned.push(doc);
                }
                Ok(None) => break,
                Err(cause) => return error(outcome, cause),
            }
        }
        judge(outcome, &returned, |_| true)
    }

    /// The ids of `sample`'s ancestors up the tree link `reference`, nearest first, by
    /// the samples' own links (bounded by their number: a cycle is no tree).
    fn chain(&self, sample: &Sample, reference: &str) -> Vec<String> {
        let mut chain = Vec::new();
        let mut at = tree_link(&sample.body, reference);
        while let Some((pk, id)) = at.take().filter(|_| chain.len() <= self.samples.len()) {
            let next = self
                .samples
                .iter()
                .find(|s| s.container == sample.container && s.id == id && s.partition_key == pk);
            chain.push(id);
            at = next.and_then(|s| tree_link(&s.body, reference));
        }
        chain
    }

    /// A read of the ancestors (`parent*`) that does not climb: the first result must
    /// hold them in its list (`treeAncestors`), root first, as the samples' parent
    /// links make them; a read that neither climbs nor holds a list cannot pass.
    async fn kept_ancestors(
        &self,
        op: &Operation,
        pattern: &AccessPattern,
        main: &MainRead<'_>,
    ) -> Vec<RequestOutcome> {
        let Some(first) = op.requests.first() else {
            return Vec::new();
        };
        let climbs = |reference: &str| {
            op.requests
                .iter()
                .any(|r| matches!(&r.purpose, Purpose::FollowAncestors { reference: x, .. } if x == reference))
        };
        let d = self
            .logical
            .container(&first.container)
            .and_then(|c| c.document_type(first.document_types.first()?));
        let mut checks = Vec::new();
        for reference in pattern
            .returns
            .iter()
            .filter_map(|r| r.split('.').next()?.strip_suffix('*'))
        {
            if climbs(reference) {
                continue;
            }
            let mut outcome = RequestOutcome {
                added: true,
                check: Some("ancestors kept?".into()),
                ..RequestOutcome::pending(
                    OperationKind::PointRead,
                    None,
                    &first.container,
                    first.document_types.clone(),
                    false,
                )
            };
            let list = d.and_then(|d| {
                d.references
                    .iter()
                    .find(|x| x.ancestry.as_ref().is_some_and(|a| a.parent == reference))
            });
            let (Some(list), Some(result)) = (list, main.expected.first()) else {
                checks.push(fail(
                    outcome,
                    format!("the read returns the ancestors up `{reference}`, but neither climbs them nor reads a list of them"),
                ));
                continue;
            };
            let mut expected = self.chain(result, reference);
            expected.reverse();
            outcome.partition_key = Some(result.partition_key.to_string());
            outcome.id = Some(result.id.clone());
            outcome.expected = expected.clone();
            match self
                .point_read(&first.container, &result.partition_key, &result.id)
                .await
            {
                Ok(Some(read)) => {
                    let held: Vec<String> = read
                        .get(&list.name)
                        .and_then(Value::as_array)
                        .map(|l| l.iter().map(super::id_of).collect())
                        .unwrap_or_default();
                    outcome.returned = Some(held.clone());
                    checks.push(if held == expected {
                        outcome.verdict = Verdict::Pass;
                        outcome
                    } else {
                        let why = format!("`{}` lists {held:?}, but its ancestors are {expected:?}", result.id);
                        fail(outcome, why)
                    });
                }
                Ok(None) => checks.push(fail(outcome, format!("`{}` is not there", result.id))),
                Err(cause) => checks.push(error(outcome, cause)),
            }
        }
        checks
    }

    /// A count per result (`counts`): for the first result the main read should
    /// return, the number of `element` samples that belong to it or refer to it,
    /// worked out from the logical model (its parent link, its reference, or else its
    /// partition), never from the SQL.
    async fn count_read(
        &self,
        r: &Request,
        element: &str,
        per: &str,
        main: &MainRead<'_>,
        mut outcome: RequestOutcome,
    ) -> RequestOutcome {
        let source_of = |s: &Sample| {
            self.logical
                .container(&s.container)
                .and_then(|c| c.document_type(&s.document_type))
                .map(|d| d.source.as_str())
        };
        let Some(result) = main.expected.iter().find(|s| source_of(s) == Some(per)) else {
            return fail(
                outcome,
                format!("the main read should return no `{per}` to count `{element}`s for"),
            );
        };
        let Some(counted) = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(r.document_types.first().map_or("", String::as_str)))
        else {
            return fail(outcome, format!("`{}` holds no `{element}` documents", r.container));
        };
        let belongs = |s: &&Sample| crate::samples::belongs(counted, &r.container, per, result, s);
        let expected = self.samples.iter().filter(belongs).count();
        outcome.expected = vec![expected.to_string()];
        let partition = match r.partition_key().map(|source| (source, key_in(source, &result.body))) {
            Some((_, Ok(Some(pk)))) => Some(pk),
            Some((source, Ok(None))) => {
                return fail(
                    outcome,
                    format!("`{}` holds no `{source}` to scope the count", result.id),
                )
            }
            Some((_, Err(why))) => return fail(outcome, format!("a count's partition comes from each result: {why}")),
            None => None,
        };
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let Some(sql) = r.sql() else {
            return fail(outcome, "a count is a query".into());
        };
        // Every parameter of a count names the result's identity (or its parent link).
        outcome.parameters = super::all_bound_to(r, &result.id);
        let checked = match self
            .query(&r.container, sql, &outcome.parameters, partition.as_ref())
            .await
        {
            Ok(returned) => {
                // `SELECT VALUE 1` (across partitions): the application counts the answers.
                let values: Vec<String> = if r.counts_matches() {
                    vec![returned.len().to_string()]
                } else {
                    returned.iter().map(Value::to_string).collect()
                };
                outcome.returned = Some(values.clone());
                if values == outcome.expected {
                    outcome.verdict = Verdict::Pass;
                    outcome
                } else {
                    let reason = format!(
                        "counted {} `{element}`s for `{}`, expected {expected}",
                        values.join(", "),
                        result.id
                    );
                    fail(outcome, reason)
                }
            }
            Err(cause) => error(outcome, cause),
        };
        self.probed(checked, r, &result.id, partition.is_some()).await
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
    if problems.is_empty() {
        outcome.verdict = Verdict::Pass;
        outcome
    } else {
        fail(outcome, problems.join("; "))
    }
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
    if problems.is_empty() {
        outcome.verdict = Verdict::Pass;
        outcome
    } else {
        fail(outcome, problems.join("; "))
    }
}

/// The id and partition key of the parent a tree element's link `reference` holds.
fn tree_link(body: &Value, reference: &str) -> Option<(Key, String)> {
    let l = body.get(reference)?;
    Some((
        Key::from_json(l.get("partitionKey")?)?,
        l.get("id")?.as_str()?.to_string(),
    ))
}

/// The ids list `reference` of `body` holds (each element's `id`), in its order.
fn listed_ids(body: &Value, reference: &str) -> Vec<String> {
    match body.get(reference) {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|x| Some(x.get("id")?.as_str()?.to_string()))
            .collect(),
        _ => Vec::new(),
    }
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
