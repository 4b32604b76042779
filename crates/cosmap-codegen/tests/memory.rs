//! The memory `cosmap generate --data-access` takes grows by a bounded amount per
//! aggregate (issue 33: once 10.5 GB at 20,000 aggregates, when the data access was
//! parsed whole by `syn`; 2.43 GB when every artefact was held until written).
//! Counted by a global allocator: the largest number of bytes held at once while a
//! synthetic model is loaded, mapped and every artefact rendered with the data
//! access, at two sizes; the growth between them, per aggregate, is what a larger
//! model adds. The renders' peak beyond the logical model is checked apart: the
//! data access and `cosmap.rs` are handed on a piece at a time, so that what they
//! hold is their views, not their texts; and the data access's views apart again
//! (the Rust view, then its names and the data access's view: never both views
//! whole at once). docs/performance.md has the figures measured on release builds
//! (peak RSS at 1,000, 5,000 and 20,000 aggregates).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use cosmap_codegen::{data_api, generate_to, Artefact, CodegenError, Pieces, Sink, Templates, TypeMapping};

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

/// Where the artefacts go: counted, each piece dropped once handed on, as
/// `OutputDir` writes each piece into its file.
#[derive(Default)]
struct Counted {
    bytes: usize,
    /// Where the artefact being written a piece at a time started.
    started: usize,
}

impl Sink for Counted {
    fn put(&mut self, artefact: Artefact) -> Result<(), CodegenError> {
        self.bytes += artefact.contents.len();
        Ok(())
    }

    fn put_pieces(
        &mut self,
        _: &std::path::Path,
        write: &mut dyn FnMut(&mut dyn Pieces) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        self.started = self.bytes;
        write(self)
    }
}

impl Pieces for Counted {
    fn push(&mut self, text: &str) -> Result<(), CodegenError> {
        self.bytes += text.len();
        Ok(())
    }

    fn restart(&mut self) -> Result<(), CodegenError> {
        self.bytes = self.started;
        Ok(())
    }
}

/// What one generation held: the most bytes held at once beyond those held before
/// (while `aggregates` synthetic aggregates are loaded, mapped and rendered with the
/// data access as `cosmap generate --data-access` does: the domain model dropped
/// once mapped, each artefact, or each piece of the data access and `cosmap.rs`,
/// dropped once handed on), the most the renders held beyond the logical model,
/// and the artefacts' bytes.
struct Peaks {
    whole: usize,
    renders: usize,
    bytes: usize,
}

fn peaks_of_generate(aggregates: usize, templates: &Templates) -> Peaks {
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
    let mapped = LIVE.load(Ordering::Relaxed);
    let whole = PEAK.swap(mapped, Ordering::Relaxed);
    let mut counted = Counted::default();
    generate_to(&logical, &mapping, templates, &mut counted).expect("artefacts render");
    let renders = PEAK.load(Ordering::Relaxed) - mapped;
    drop(logical);
    Peaks {
        whole: whole.max(mapped + renders) - before,
        renders,
        bytes: counted.bytes,
    }
}

/// Most bytes a model may add to the peak per aggregate. Measured 2026-12-05 (debug
/// build, 25 → 125 aggregates): 45.5 KB, the mapper's peak (the domain model, the
/// logical model and the designs it weighs), which the renders no longer reach
/// (62 KB before the mapper kept its decisions compact and shared; the renders
/// write the data access and `cosmap.rs` a piece at a time: 82 KB when each
/// artefact was handed on whole, 116–119 KB when every artefact was held until
/// written; some 800 KB more when the data access was parsed whole). With about 20%
/// headroom.
const MAX_BYTES_PER_AGGREGATE: usize = 54_000;

/// Most bytes the renders may hold beyond the logical model, per aggregate, at 25 →
/// 125 aggregates: the views' bound (below), as they hold nothing else that grows
/// with the model (each part's JSON, text and printing is dropped once handed on).
/// Measured 2026-12-05 (debug build): 2.7 KB (22.2 KB when the whole Rust view and
/// the data access's view were held at once): at these sizes the renders' peak is
/// mostly a fixed cost (the data access's head, its runtime helpers, parsed and
/// printed), so the views' own growth is checked apart, at sizes where they are the
/// peak.
const MAX_RENDER_BYTES_PER_AGGREGATE: usize = MAX_VIEW_BYTES_PER_AGGREGATE;

/// Most bytes the data access's views may hold beyond the logical model, per
/// aggregate, at 100 → 400 aggregates: the peak of the data access's stage at any
/// size past a hundred or so aggregates (and of `cosmap.rs`'s: the Rust view).
/// Measured 2026-12-05 (debug build): 14.8 KB, the Rust view while it is built,
/// then its names and the data access's view (34.1 KB when the whole Rust view and
/// the data access's view were held at once). With about 20% headroom.
const MAX_VIEW_BYTES_PER_AGGREGATE: usize = 18_000;

#[test]
fn generate_with_the_data_access_grows_by_a_bounded_amount_per_aggregate() {
    let templates = Templates::load(None).expect("embedded templates");
    let (small, large) = (25, 125);
    let at_small = peaks_of_generate(small, &templates);
    let at_large = peaks_of_generate(large, &templates);
    assert!(
        at_large.bytes > at_small.bytes * 4,
        "{} → {} bytes of artefacts",
        at_small.bytes,
        at_large.bytes
    );
    let per_aggregate = |peak: fn(&Peaks) -> usize| peak(&at_large).saturating_sub(peak(&at_small)) / (large - small);
    let (whole, renders) = (per_aggregate(|p| p.whole), per_aggregate(|p| p.renders));
    eprintln!(
        "peak: {} bytes at {small} aggregates, {} at {large}: {whole} per aggregate; the renders {renders} per aggregate",
        at_small.whole, at_large.whole
    );
    // Apart, and after: the counts are the process's, one test at a time.
    let (small_views, large_views) = (100, 400);
    let (at_small_views, at_large_views) = (peak_of_views(small_views), peak_of_views(large_views));
    let views = at_large_views.saturating_sub(at_small_views) / (large_views - small_views);
    eprintln!("the data access's views: {at_small_views} bytes at {small_views} aggregates, {at_large_views} at {large_views}: {views} per aggregate");
    assert!(
        views <= MAX_VIEW_BYTES_PER_AGGREGATE,
        "the data access's views grew by {views} bytes per aggregate ({at_small_views} bytes at {small_views} aggregates, {at_large_views} at {large_views}); at most {MAX_VIEW_BYTES_PER_AGGREGATE} allowed"
    );
    assert!(
        whole <= MAX_BYTES_PER_AGGREGATE,
        "the peak grew by {whole} bytes per aggregate ({} bytes at {small} aggregates, {} at {large}); at most {MAX_BYTES_PER_AGGREGATE} allowed",
        at_small.whole,
        at_large.whole
    );
    assert!(
        renders <= MAX_RENDER_BYTES_PER_AGGREGATE,
        "the renders' peak beyond the logical model grew by {renders} bytes per aggregate ({} bytes at {small} aggregates, {} at {large}); at most {MAX_RENDER_BYTES_PER_AGGREGATE} allowed",
        at_small.renders,
        at_large.renders
    );
}

/// The most the data access's views held beyond the logical model of `aggregates`
/// synthetic aggregates: the Rust view, then its names and the data access's view,
/// as the data access's render builds them ([`data_api`] builds them alike, and
/// renders nothing).
fn peak_of_views(aggregates: usize) -> usize {
    let text = cosmap_domain::synthetic::json(aggregates);
    let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("a valid synthetic model");
    let logical = cosmap_mapper::map(&model, &cosmap_mapper::Options::default());
    drop((model, text));
    let mapping = TypeMapping {
        data_access: true,
        ..TypeMapping::default()
    };
    let mapped = LIVE.load(Ordering::Relaxed);
    PEAK.store(mapped, Ordering::Relaxed);
    let api = data_api(&logical, &mapping).expect("the data access's listing");
    let views = PEAK.load(Ordering::Relaxed) - mapped;
    drop(api);
    views
}
