//! Reads of children kept in buckets (`bucket`): the buckets a time range touches,
//! and the items the application takes from them.

use super::*;

impl Run<'_> {
    /// A read of children kept in buckets (`bucket`), worked out on the buckets' items
    /// alone: for the first parent, a time range that cuts its buckets (the filters'
    /// bounds taken from its items' times), the buckets whose windows the range
    /// touches must come back in the sort's order, and the items the application takes
    /// from them (in range, sorted, up to the limit) must be the parent's items in
    /// range, sorted, up to the limit.
    pub(super) async fn bucket_read(&self, r: &Request, pattern: &AccessPattern) -> RequestOutcome {
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
        let mut times: Vec<String> = own
            .iter()
            .flat_map(|s| bucket_items(b, &s.body))
            .map(|i| item_time(b, &i))
            .collect();
        times.sort();
        if times.is_empty() {
            return fail(outcome, format!("the `{}` samples of `{parent}` hold no items", d.name));
        }
        let range = TimeRange::new(pattern, b, &times);
        let mut expected_buckets: Vec<String> = own.iter().map(|s| s.id.clone()).filter(|w| range.touches(w)).collect();
        expected_buckets.sort();
        if range.descending {
            expected_buckets.reverse();
        }
        outcome.expected = range.take(own.iter().flat_map(|s| bucket_items(b, &s.body)).collect());
        outcome.partition_key = Some(parent.to_string());
        outcome.parameters = range.parameters(c, &parent);
        let Some(sql) = r.sql() else {
            return fail(outcome, "a bucket read is a query".into());
        };
        let returned = match self.query(&c.name, sql, &outcome.parameters, Some(&parent)).await {
            Ok(returned) => returned,
            Err(cause) => return error(outcome, cause),
        };
        let returned_buckets: Vec<String> = returned.iter().map(crate::run::id_of).collect();
        let taken = range.take(returned.iter().flat_map(|v| bucket_items(b, v)).collect());
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
            Some(Ok(items)) if items.iter().map(|i| item_time(b, i)).collect::<Vec<_>>() != outcome.expected => {
                let got: Vec<String> = items.iter().map(|i| item_time(b, i)).collect();
                fail(outcome, format!("the generated method took the items at {got:?}"))
            }
            Some(Err(cause)) => error(outcome, cause),
            _ => {
                outcome.verdict = Verdict::Pass;
                outcome
            }
        }
    }
}

/// The time range a bucket read asks for, its bounds drawn from the parent's item
/// times, and how the application takes the items in it.
struct TimeRange<'p> {
    b: &'p BucketOf,
    ranges: Vec<cosmap_domain::Filter<'p>>,
    low: String,
    high: String,
    descending: bool,
    limit: usize,
}

impl<'p> TimeRange<'p> {
    /// The range of `pattern`'s range filters over the sorted item `times`: a quarter
    /// and three quarters in, or the middle for one bound.
    fn new(pattern: &'p AccessPattern, b: &'p BucketOf, times: &[String]) -> Self {
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
        TimeRange {
            b,
            ranges,
            low,
            high,
            descending: pattern.sort_keys().first().is_some_and(|k| k.descending),
            limit: pattern.limit.map_or(usize::MAX, |n| n as usize),
        }
    }

    /// The query's parameters: the parent's key (in `c`) and the bounds.
    fn parameters(&self, c: &Container, parent: &Key) -> BTreeMap<String, Value> {
        let mut parameters = BTreeMap::new();
        parameters.insert(
            format!("@{}", c.partition_key_property),
            Value::String(parent.to_string()),
        );
        for f in &self.ranges {
            for name in f.parameters() {
                let value = if name.ends_with("Min") { &self.low } else { &self.high };
                parameters.insert(format!("@{name}"), Value::String(value.clone()));
            }
        }
        parameters
    }

    /// Whether item time `t` is in the range.
    fn holds(&self, t: &str) -> bool {
        let (low, high) = (self.low.as_str(), self.high.as_str());
        self.ranges.iter().all(|f| match f.op {
            FilterOp::Greater => t > low,
            FilterOp::GreaterOrEqual => t >= low,
            FilterOp::Less => t < high,
            FilterOp::LessOrEqual => t <= high,
            FilterOp::Between => t >= low && t <= high,
            FilterOp::Equal | FilterOp::In => true,
        })
    }

    /// Whether the range touches the bucket of `window` (the start of its items' times).
    fn touches(&self, window: &str) -> bool {
        let first = crate::samples::window_of(&self.low, self.b.window);
        let last = crate::samples::window_of(&self.high, self.b.window);
        self.ranges.iter().all(|f| match f.op {
            FilterOp::Greater | FilterOp::GreaterOrEqual => window >= first.as_str(),
            FilterOp::Less | FilterOp::LessOrEqual => window <= last.as_str(),
            FilterOp::Between => window >= first.as_str() && window <= last.as_str(),
            FilterOp::Equal | FilterOp::In => true,
        })
    }

    /// The times of the `items` the application takes: in range, sorted, up to the limit.
    fn take(&self, mut items: Vec<Value>) -> Vec<String> {
        items.retain(|i| self.holds(&item_time(self.b, i)));
        items.sort_by_key(|i| item_time(self.b, i));
        if self.descending {
            items.reverse();
        }
        items.iter().take(self.limit).map(|i| item_time(self.b, i)).collect()
    }
}

/// The time of bucket item `item` (empty when it holds none).
pub(super) fn item_time(b: &BucketOf, item: &Value) -> String {
    item.get(&b.time)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The items a bucket `body` holds (none when it holds no list).
pub(in crate::run) fn bucket_items(b: &BucketOf, body: &Value) -> Vec<Value> {
    body.get(&b.items)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}
