//! The memory `map` takes grows by a bounded amount per aggregate (issue 33 part 7:
//! at 20,000 aggregates the map once held 1.39 GB at most, the domain model's 293 MB
//! with it, and the logical model it returned was 627 MB). Counted by a global
//! allocator around the system's: the bytes the logical model holds once `map`
//! returns, and the most held at once while it maps, beyond the domain model it
//! reads, at two sizes of the synthetic model; the growth between them, per
//! aggregate, is what a larger model adds. docs/performance.md has the figures
//! measured on release builds at 1,000, 5,000 and 20,000 aggregates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system's allocator, counting the bytes it holds and the most it has held at
/// once (since `most` was last set); a failed allocation ends the test run anyway.
struct Counting {
    held: AtomicUsize,
    most: AtomicUsize,
}

impl Counting {
    /// Records that `grown` bytes were taken and `shrunk` given back.
    fn change(&self, grown: usize, shrunk: usize) {
        let now = self.held.fetch_add(grown, Relaxed) + grown;
        self.most.fetch_max(now, Relaxed);
        self.held.fetch_sub(shrunk, Relaxed);
    }

    /// The bytes held now, and the most held at once since the last call (which
    /// starts counting the most again from now).
    fn held_and_most(&self) -> (usize, usize) {
        let held = self.held.load(Relaxed);
        (held, self.most.swap(held, Relaxed))
    }
}

// SAFETY: every call goes to `System` as it came; the counts only observe it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.change(layout.size(), 0);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        self.change(0, layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let old = layout.size();
        self.change(size.saturating_sub(old), old.saturating_sub(size));
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting {
    held: AtomicUsize::new(0),
    most: AtomicUsize::new(0),
};

/// What mapping `aggregates` synthetic aggregates holds, beyond the domain model:
/// the logical model once returned, and the most held at once while mapping.
fn map_of(aggregates: usize) -> (usize, usize) {
    let text = cosmap_domain::synthetic::json(aggregates);
    let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("a valid synthetic model");
    drop(text);
    let (before, _) = COUNTING.held_and_most();
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    let (after, most) = COUNTING.held_and_most();
    let (held, most) = (after - before, most - before);
    assert!(logical.containers.len() >= aggregates / 10, "a container per aggregate");
    (held, most)
}

/// Most bytes the logical model may grow by per aggregate. Measured 2026-12-05 (debug
/// build, 40 → 200 aggregates, `serde_json` without `preserve_order`, so its `Value`
/// is 32 bytes, not the CLI's 80): 14.6 KB; 18.5 KB before round 7 (operations and
/// document types kept without the spare room their lists were pushed with), 27.4 KB
/// before round 6 (the decisions' texts and evidence kept without spare room, evidence
/// names not copied, rare parts of document types, references and properties boxed).
/// About 20% headroom.
const MAX_HELD_PER_AGGREGATE: usize = 17_500;

/// Most bytes the map's peak, beyond the domain model, may grow by per aggregate.
/// Measured the same way: 25.1 KB; 36.5 KB before round 7 (besides the logical model's
/// savings, a design's figures borrow its operations instead of copying every request,
/// the design without new keys or snapshots held as its figures alone while the
/// design with every one is priced, MR1–MR6's design not kept by `map`), 49.9 KB
/// before round 6. About 20% headroom.
const MAX_PEAK_PER_AGGREGATE: usize = 30_000;

#[test]
fn the_map_and_the_logical_model_grow_by_a_bounded_amount_per_aggregate() {
    let (small, large) = (40, 200);
    let (held_small, most_small) = map_of(small);
    let (held_large, most_large) = map_of(large);
    let held = held_large.saturating_sub(held_small) / (large - small);
    let most = most_large.saturating_sub(most_small) / (large - small);
    eprintln!(
        "logical model: {held_small} bytes at {small} aggregates, {held_large} at {large}: {held} per aggregate; \
         the map's peak: {most_small} → {most_large}: {most} per aggregate"
    );
    assert!(
        held <= MAX_HELD_PER_AGGREGATE,
        "the logical model grew by {held} bytes per aggregate; at most {MAX_HELD_PER_AGGREGATE} allowed"
    );
    assert!(
        most <= MAX_PEAK_PER_AGGREGATE,
        "the map's peak grew by {most} bytes per aggregate; at most {MAX_PEAK_PER_AGGREGATE} allowed"
    );
}
