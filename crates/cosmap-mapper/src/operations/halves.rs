//! Resolving the access patterns of a large model in two halves, one per thread.
//!
//! Each pattern resolves on its own (the containers and their lookups are only
//! read), so the first half's operations followed by the second half's are the same
//! list, in the same order, as one pass gives: the output does not depend on the
//! threads. Resolution runs once per priced design (several times per optimised map),
//! and on a model of a thousand aggregates it is most of finishing a design.

/// Below this many items one thread does it all: spawning costs more than it saves.
const SPLIT_AT: usize = 512;

/// `items.iter().filter_map(f)` collected in order, the two halves on two threads
/// when there are many items.
pub(super) fn filter_map<T, U, F>(items: &[T], f: F) -> Vec<U>
where
    T: Sync,
    U: Send,
    F: Fn(&T) -> Option<U> + Sync,
{
    if items.len() < SPLIT_AT {
        return items.iter().filter_map(&f).collect();
    }
    let (first, second) = items.split_at(items.len() / 2);
    std::thread::scope(|scope| {
        let later = scope.spawn(|| second.iter().filter_map(&f).collect::<Vec<U>>());
        let mut out: Vec<U> = first.iter().filter_map(&f).collect();
        let later = later.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        out.extend(later);
        out
    })
}
