//! Work over a long list on this thread and one more, in chunks.
//!
//! A list split in two halves, one per thread, waits for the slower half: when a
//! third thread shares the two cores (the naive baseline, the foreseen snapshots),
//! the half that loses the core finishes long after the other. Here both threads take
//! the next chunk as they finish one, so neither waits for more than a chunk. Each
//! chunk's result is kept in its place: the output is in the list's order, the same
//! whichever thread did which chunk.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work` of each chunk of `items` (`size` items, the last fewer), in order: on this
/// thread alone below `threshold` items, else on this thread and a second one.
pub(crate) fn map<T, R, F>(items: &[T], size: usize, threshold: usize, work: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> R + Sync,
{
    let size = size.max(1);
    if items.len() < threshold {
        return items.chunks(size).map(&work).collect();
    }
    let count = items.len().div_ceil(size);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<R>>> = Mutex::new((0..count).map(|_| None).collect());
    let take = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count {
            return;
        }
        let chunk = &items[i * size..((i + 1) * size).min(items.len())];
        let result = work(chunk);
        // A poisoned lock means the other thread panicked: its join reports it.
        if let Ok(mut done) = done.lock() {
            done[i] = Some(result);
        }
    };
    std::thread::scope(|scope| {
        let other = scope.spawn(take);
        take();
        other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    });
    done.into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .into_iter()
        // Every chunk was taken by one thread, which finished it (or panicked, and
        // then the join above did not return).
        .map(|result| result.expect("every chunk is worked"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chunks_come_back_in_order_on_either_side_of_the_threshold() {
        let items: Vec<u32> = (0..1000).collect();
        let sums = |threshold| map(&items, 7, threshold, |c: &[u32]| c.iter().sum::<u32>());
        let alone = sums(usize::MAX);
        let shared = sums(0);
        assert_eq!(alone, shared);
        assert_eq!(alone.len(), 143);
        assert_eq!(alone[0], 21);
        assert_eq!(alone[142], 999 + 998 + 997 + 996 + 995 + 994);
        assert!(map(&[] as &[u32], 7, 0, |c: &[u32]| c.len()).is_empty());
    }
}
