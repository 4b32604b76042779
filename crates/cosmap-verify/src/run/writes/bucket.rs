//! A child appended to its window's bucket (`bucket`), checked by reading the
//! bucket back: the append planned, sent and checked in three steps, so the generated
//! append (`run/generated_writes/append.rs`) is given the same item and judged alike.

use super::*;
use crate::run::reads::bucket_items;

/// An append as verify makes it: the new item, the bucket it goes to, and what that
/// bucket held before — what the plan's append sends and the generated one is given.
pub(crate) struct Append<'r> {
    /// The append's outcome so far (its partition key, id and expected bucket).
    pub(crate) outcome: RequestOutcome,
    /// The new item.
    pub(crate) item: Value,
    /// The bucket's partition key (its parent's key) and id (the item's window).
    pub(crate) key: Key,
    pub(crate) id: String,
    /// The latest bucket before, whose body a new bucket starts from, and its items.
    last: Sample,
    before: Vec<Value>,
    bucket: &'r BucketOf,
    container: &'r str,
}

impl Run<'_> {
    /// A new child appended to its window's bucket (`bucket`): a new item in the
    /// latest window of the first parent's buckets ([`Run::planned_append`]), sent as
    /// the plan says, then read back ([`Run::appended`]).
    pub(super) async fn append_to_bucket(&self, r: &Request, state: &mut WriteState) -> RequestOutcome {
        let append = match self.planned_append(r, state) {
            Ok(append) => append,
            Err(outcome) => return *outcome,
        };
        let (c, pk, id) = (append.container, &append.key, &append.id);
        let current = match self.point_read(c, pk, id).await {
            Ok(current) => current,
            Err(cause) => return error(append.outcome, cause),
        };
        let mut body = current.clone().unwrap_or_else(|| append.last.body.clone());
        let mut list = current
            .as_ref()
            .map(|v| bucket_items(append.bucket, v))
            .unwrap_or_default();
        list.push(append.item.clone());
        if let Value::Object(map) = &mut body {
            map.insert(append.bucket.items.clone(), Value::Array(list));
        }
        let sent = self.put_bucket(c, pk, id, &body, current.is_some()).await;
        if let Err(e) = sent {
            return fail(append.outcome, format!("appending to `{id}` failed: {e}"));
        }
        self.appended(append, state).await
    }

    /// The append request `r` sends: a new item at the end of the latest window of the
    /// first parent's buckets, whose bucket the request's id must name (the item's
    /// window, worked out from the model); or the failed outcome (boxed: it is large).
    pub(crate) fn planned_append<'r>(
        &'r self,
        r: &Request,
        state: &WriteState,
    ) -> Result<Append<'r>, Box<RequestOutcome>> {
        let outcome = self.outcome(r);
        let Some((c, d, b)) = self.bucket_of(r) else {
            return Err(Box::new(fail(outcome, format!("`{}` holds no buckets", r.container))));
        };
        // The latest bucket of the first parent, and a new item at its window's end.
        let Some(last) = state.latest_bucket(c, d) else {
            return Err(Box::new(fail(
                outcome,
                format!("there is no `{}` to append to", d.name),
            )));
        };
        let before = bucket_items(b, &last.body);
        let made = new_bucket_item(b, &last, &before).and_then(|(item, window)| {
            // The id the request names, bound from the item; the model says what it must be.
            bucket_id(r, &item).map(|id| (item, window, id))
        });
        let (item, window, id) = made.map_err(|reason| Box::new(fail(outcome.clone(), reason)))?;
        let mut outcome = outcome;
        outcome.partition_key = Some(last.partition_key.to_string());
        outcome.id = Some(id.clone());
        outcome.expected = vec![window.clone()];
        if id != window {
            let what = b.window.as_str();
            let reason = format!("the request appends to `{id}`, but the item's {what} is `{window}`");
            return Err(Box::new(fail(outcome, reason)));
        }
        if self.client(&c.name).is_err() {
            return Err(Box::new(fail(outcome, format!("there is no container `{}`", c.name))));
        }
        let key = last.partition_key.clone();
        Ok(Append {
            outcome,
            item,
            key,
            id,
            last,
            before,
            bucket: b,
            container: &c.name,
        })
    }

    /// `append` judged on the bucket read back: it must hold what it held and the new
    /// item, in that order (then it is what the samples hold of it).
    pub(crate) async fn appended(&self, append: Append<'_>, state: &mut WriteState) -> RequestOutcome {
        let Append {
            mut outcome,
            item,
            key,
            id,
            mut before,
            bucket,
            container,
            ..
        } = append;
        before.push(item);
        match self.point_read(container, &key, &id).await {
            Ok(Some(read)) => {
                outcome.returned = Some(vec![id.clone()]);
                if bucket_items(bucket, &read) != before {
                    return fail(
                        outcome,
                        format!("`{id}` does not hold its items and the new one, in order"),
                    );
                }
                if let Some(live) = state
                    .live
                    .iter_mut()
                    .find(|s| s.container == container && s.id == id && s.partition_key == key)
                {
                    live.body = read;
                }
                outcome.verdict = Verdict::Pass;
                outcome
            }
            Ok(None) => fail(outcome, format!("`{id}` is not there after the append")),
            Err(cause) => error(outcome, cause),
        }
    }

    /// Sends bucket `body` as item `id` (in `container`, partition `pk`): a replace
    /// of the bucket that `exists`, else a create.
    async fn put_bucket(&self, container: &str, pk: &Key, id: &str, body: &Value, exists: bool) -> Result<(), String> {
        let client = self.client(container)?;
        let operation = format!("replace item `{id}` in `{container}`");
        let sent = if exists {
            self.connection
                .request(&operation, &[], || client.replace_item(pk.sdk(), id, body, None))
                .await
                .map(|_| ())
        } else {
            self.connection
                .request(&operation, &[], || client.create_item(pk.sdk(), id, body, None))
                .await
                .map(|_| ())
        };
        sent.map_err(|e| e.to_string())
    }
}

impl WriteState {
    /// The latest live bucket `d` (in `c`) of the first parent that has any.
    fn latest_bucket(&self, c: &Container, d: &DocumentType) -> Option<Sample> {
        let buckets = || {
            self.live
                .iter()
                .filter(|s| s.container == c.name && s.document_type == d.name)
        };
        let first = buckets().next().map(|s| s.partition_key.clone());
        buckets()
            .filter(|s| Some(&s.partition_key) == first.as_ref())
            .max_by(|x, y| x.id.cmp(&y.id))
            .cloned()
    }
}

/// A new item for bucket `last` (modelled on its first, of those `before`) at the end
/// of its window, with that window.
fn new_bucket_item(b: &BucketOf, last: &Sample, before: &[Value]) -> Result<(Value, String), String> {
    let Some(Value::Object(mut item)) = before.first().cloned() else {
        return Err(format!("the bucket `{}` holds no item to model a new one on", last.id));
    };
    let end = match b.window {
        cosmap_mapper::BucketWindow::Minute => ":59Z",
        cosmap_mapper::BucketWindow::Hour => ":59:59Z",
        cosmap_mapper::BucketWindow::Day => "T23:59:59Z",
    };
    let time = format!("{}{end}", last.id);
    item.insert(b.time.clone(), Value::String(time.clone()));
    let window: String = time.chars().take(b.window.prefix_len()).collect();
    Ok((Value::Object(item), window))
}

/// The bucket id append request `r` names, bound from `item` (its window).
fn bucket_id(r: &Request, item: &Value) -> Result<String, String> {
    match r.id() {
        Some(ValueSource::Window { parameter, length }) => match item.get(parameter).and_then(Value::as_str) {
            Some(t) => Ok(t.chars().take(*length).collect::<String>()),
            None => Err(format!("the item holds no `{parameter}` to name its bucket")),
        },
        other => {
            let what = other.map_or_else(|| "nothing".to_string(), ToString::to_string);
            Err(format!("the bucket's id comes from {what}, not from the item's window"))
        }
    }
}
