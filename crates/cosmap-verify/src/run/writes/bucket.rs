//! A child appended to its window's bucket (`bucket`), checked by reading the
//! bucket back.

use super::*;
use crate::run::reads::bucket_items;

impl Run<'_> {
    /// A new child appended to its window's bucket (`bucket`): a new item in the
    /// latest window of the first parent's buckets, whose bucket the request's id
    /// must name (the item's window, worked out from the model), then read back: the
    /// bucket must hold what it held and the new item, in that order.
    pub(super) async fn append_to_bucket(&self, r: &Request, state: &mut WriteState) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Some((c, d, b)) = self.bucket_of(r) else {
            return fail(outcome, format!("`{}` holds no buckets", r.container));
        };
        // The latest bucket of the first parent, and a new item at its window's end.
        let Some(last) = state.latest_bucket(c, d) else {
            return fail(outcome, format!("there is no `{}` to append to", d.name));
        };
        let before = bucket_items(b, &last.body);
        let (item, window) = match new_bucket_item(b, &last, &before) {
            Ok(made) => made,
            Err(reason) => return fail(outcome, reason),
        };
        // The id the request names, bound from the item; the model says what it must be.
        let id = match bucket_id(r, &item) {
            Ok(id) => id,
            Err(reason) => return fail(outcome, reason),
        };
        let pk = last.partition_key.clone();
        outcome.partition_key = Some(pk.to_string());
        outcome.id = Some(id.clone());
        outcome.expected = vec![window.clone()];
        if id != window {
            return fail(
                outcome,
                format!(
                    "the request appends to `{id}`, but the item's {} is `{window}`",
                    b.window.as_str()
                ),
            );
        }
        if self.client(&c.name).is_err() {
            return fail(outcome, format!("there is no container `{}`", c.name));
        }
        let current = match self.point_read(&c.name, &pk, &id).await {
            Ok(current) => current,
            Err(cause) => return error(outcome, cause),
        };
        let mut body = current.clone().unwrap_or_else(|| last.body.clone());
        let mut list = current.as_ref().map(|v| bucket_items(b, v)).unwrap_or_default();
        list.push(item.clone());
        if let Value::Object(map) = &mut body {
            map.insert(b.items.clone(), Value::Array(list));
        }
        let sent = self.put_bucket(&c.name, &pk, &id, &body, current.is_some()).await;
        if let Err(e) = sent {
            return fail(outcome, format!("appending to `{id}` failed: {e}"));
        }
        let mut want = before;
        want.push(item);
        match self.point_read(&c.name, &pk, &id).await {
            Ok(Some(read)) => {
                outcome.returned = Some(vec![id.clone()]);
                if bucket_items(b, &read) != want {
                    return fail(
                        outcome,
                        format!("`{id}` does not hold its items and the new one, in order"),
                    );
                }
                if let Some(live) = state
                    .live
                    .iter_mut()
                    .find(|s| s.container == c.name && s.id == id && s.partition_key == pk)
                {
                    live.body = body;
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
