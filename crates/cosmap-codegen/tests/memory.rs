//! The memory `cosmap generate --data-access` takes grows by a bounded amount per
//! aggregate (issue 33: once 10.5 GB at 20,000 aggregates, when the data access was
//! parsed whole by `syn`; 2.43 GB when every artefact was held until written).
//! Counted by a global allocator: the largest number of bytes held at once while a
//! synthetic model is loaded, mapped and every artefact rendered with the data
//! access, at two sizes; the growth between them, per aggregate, is what a larger
//! model adds. docs/performance.md has the figures measured on release
//! builds (peak RSS at 1,000, 5,000 and 20,000 aggregates).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use cosmap_codegen::{generate_each, Templates, TypeMapping};

/// Counts the bytes allocated and not yet freed, and the most there have been.
struct Counting;

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most bytes held at once since [`PEAK`] was last reset.
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is passed to `System` as it came; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes held at once beyond those held before, while `aggregates`
/// synthetic aggregates are loaded, mapped and rendered with the data access as
/// `cosmap generate --data-access` does (the domain model dropped once mapped, each
/// artefact dropped once handed on, as its file is written), and the artefacts' bytes.
fn peak_of_generate(aggregates: usize, templates: &Templates) -> (usize, usize) {
    let text = cosmap_domain::synthetic::json(aggregates);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("a valid synthetic model");
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    drop(model);
    let mapping = TypeMapping {
        data_access: true,
        ..TypeMapping::default()
    };
    let mut bytes = 0;
    generate_each(&logical, &mapping, templates, |a| {
        bytes += a.contents.len();
        Ok(())
    })
    .expect("artefacts render");
    drop(logical);
    (PEAK.load(Ordering::Relaxed) - before, bytes)
}

/// Most bytes a model may add to the peak per aggregate. Measured 2026-12-05 (debug
/// build, 25 → 125 aggregates): 82 KB, since each artefact is handed on as it is
/// rendered and the data access's printing no longer copied (116–119 KB when every
/// artefact was held until written; some 800 KB more when the data access was parsed
/// whole). Of the 82 KB, some 31 KB are the logical model and the rest the largest
/// render's view and text at the time (the data access's, or `cosmap.rs`'s with the
/// room its emitter reserves). This bound, with about 20% headroom, keeps 20,000
/// aggregates under 2 GB, not under issue 33's 1 GB: the mapper alone holds some
/// 1.4 GB at once while it maps them (docs/performance.md).
const MAX_BYTES_PER_AGGREGATE: usize = 100_000;

#[test]
fn generate_with_the_data_access_grows_by_a_bounded_amount_per_aggregate() {
    let templates = Templates::load(None).expect("embedded templates");
    let (small, large) = (25, 125);
    let (at_small, small_bytes) = peak_of_generate(small, &templates);
    let (at_large, large_bytes) = peak_of_generate(large, &templates);
    assert!(
        large_bytes > small_bytes * 4,
        "{small_bytes} → {large_bytes} bytes of artefacts"
    );
    let per_aggregate = at_large.saturating_sub(at_small) / (large - small);
    assert!(
        per_aggregate <= MAX_BYTES_PER_AGGREGATE,
        "the peak grew by {per_aggregate} bytes per aggregate ({at_small} bytes at {small} aggregates, {at_large} at {large}); at most {MAX_BYTES_PER_AGGREGATE} allowed"
    );
    eprintln!("peak: {at_small} bytes at {small} aggregates, {at_large} at {large}: {per_aggregate} per aggregate");
}
