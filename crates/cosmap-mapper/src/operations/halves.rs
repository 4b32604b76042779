//! Work on each item of a long list in two halves, one per thread.
//!
//! Used where each item is worked on its own (everything else only read): resolving
//! each access pattern, figuring each request's charge, each container's facts and
//! indexing. The first half's results followed by the second half's are the same
//! list, in the same order, as one pass gives: the output does not depend on the
//! threads. Each runs once per priced design (several times per optimised map).

/// Below this many items one thread does it all: spawning costs more than it saves.
const SPLIT_AT: usize = 512;

/// `items.iter().filter_map(f)` collected in order, the two halves on two threads
/// when there are many items.
pub(crate) fn filter_map<T, U, F>(items: &[T], f: F) -> Vec<U>
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

/// `items.iter().map(f)` collected in order, the two halves on two threads when
/// there are many items.
pub(crate) fn map<T, U, F>(items: &[T], f: F) -> Vec<U>
where
    T: Sync,
    U: Send,
    F: Fn(&T) -> U + Sync,
{
    filter_map(items, |item| Some(f(item)))
}
