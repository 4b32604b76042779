//! The generated append to a bucket (`record_a_reading(device_id, &item)`) under the
//! judge: verify makes the item the plan's append would send (a new item at the end of
//! the latest window of the first parent's buckets), calls the method with the
//! parent's key and the item, and judges the bucket read back as it judges the plan's
//! append (`writes/bucket.rs`): it holds what it held and the new item, in order.

use super::*;

/// Whether `op` is an append to a bucket: one request, the append.
pub(super) fn is_append(op: &Operation) -> bool {
    matches!(&op.requests[..], [r] if matches!(r.purpose, Purpose::AppendToBucket { .. }))
}

impl Run<'_> {
    /// Append `op` sent by its generated method and judged on the bucket afterwards.
    pub(super) async fn generated_append(
        &self,
        generated: &dyn Answerer,
        op: &Operation,
        state: &mut WriteState,
    ) -> PatternOutcome {
        let [r] = &op.requests[..] else {
            return pattern_outcome(op, Vec::new());
        };
        let append = match self.planned_append(r, state) {
            Ok(append) => append,
            Err(outcome) => return pattern_outcome(op, vec![*outcome]),
        };
        let database = self.connection.database_client();
        let key = match append.key.values() {
            [key] => key.clone(),
            levels => {
                let reason = format!("the bucket's partition key has {} levels: one expected", levels.len());
                return pattern_outcome(op, vec![fail(append.outcome, reason)]);
            }
        };
        if let Err(cause) = generated.append(&database, &op.pattern, &key, &append.item).await {
            let reason = format!("the generated append failed: {cause}");
            return pattern_outcome(op, vec![error(append.outcome, reason)]);
        }
        pattern_outcome(op, vec![self.appended(append, state).await])
    }
}
