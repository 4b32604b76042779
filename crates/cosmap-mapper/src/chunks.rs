//! Work over a long list on this thread and one more, in chunks.
//!
//! A list split in two halves, one per thread, waits for the slower half: when a
//! third thread shares the two cores (the naive baseline, the foreseen snapshots),
//! the half that loses the core finishes long after the other. Here both threads take
//! the next chunk as they finish one, so neither waits for more than a chunk. Each
//! chunk's result is kept in its place: the output is in the list's order, the same
//! whichever thread did which chunk.

use std::sync::atomic::{AtomicUsize, Ordering};

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
    // Each thread takes the next chunk's number until none is left, and keeps what it
    // worked with the number: each number is taken once, by one thread.
    let take = || {
        let mut worked = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= count {
                return worked;
            }
            worked.push((i, work(&items[i * size..((i + 1) * size).min(items.len())])));
        }
    };
    let mut worked = std::thread::scope(|scope| {
        let other = scope.spawn(take);
        let mut worked = take();
        worked.extend(other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        worked
    });
    worked.sort_unstable_by_key(|&(i, _)| i);
    worked.into_iter().map(|(_, result)| result).collect()
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

    /// Both threads work chunks, and the results still come back in the list's order,
    /// not in the order the threads finished them: the first chunk waits until another
    /// chunk is done, so the other thread surely works one, and finishes after it.
    #[test]
    fn chunks_worked_by_both_threads_come_back_in_order() {
        let items: Vec<u32> = (0..40).collect();
        let others_done = AtomicUsize::new(0);
        let worked = map(&items, 2, 0, |c: &[u32]| {
            if c[0] == 0 {
                let waiting = std::time::Instant::now();
                while others_done.load(Ordering::Relaxed) == 0 {
                    assert!(waiting.elapsed().as_secs() < 60, "no other chunk was worked");
                    std::thread::yield_now();
                }
            } else {
                std::thread::sleep(std::time::Duration::from_millis(1));
                others_done.fetch_add(1, Ordering::Relaxed);
            }
            (c[0], std::thread::current().id())
        });
        let firsts: Vec<u32> = worked.iter().map(|&(first, _)| first).collect();
        assert_eq!(firsts, (0..40).step_by(2).collect::<Vec<u32>>());
        let threads: std::collections::BTreeSet<String> = worked.iter().map(|(_, t)| format!("{t:?}")).collect();
        assert_eq!(threads.len(), 2, "both threads took chunks");
    }
}
