//! The data access's view a part at a time: `cosmap_data.rs.hbs` is rendered once
//! per part, so that only one part's view is turned into handlebars' JSON and only
//! one part's text is held (a data access of 20,000 aggregates is some 360 MB of
//! text, its JSON more). Each part sets one section of the template (`part.head`,
//! `part.methods`, …) and holds its items alone (one pattern, one aggregate, …);
//! the parts' texts, one after the other, are the whole file.

use std::collections::BTreeMap;

use serde::Serialize;

use super::data_access::{
    AggregateView, ClaimSetView, DataView, HandleView, KeptWorkerView, PatternView, RefreshWorkerView, WorkerView,
};

/// Which section of the template a part renders (`{{#if part.methods}}`): one is
/// set, in this order in the file.
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct Section {
    /// The header, the module's docs and its opening, `Error`, the constants and `mod rt`.
    pub head: bool,
    /// A container's handle (`containers` holds it).
    pub handles: bool,
    /// `Database` and the opening of its `impl` (`containers` holds every container).
    pub database: bool,
    /// A repository's or a worker's constructor on `Database`.
    pub constructors: bool,
    /// An access pattern's method on `Database` (`patterns` holds it).
    pub methods: bool,
    /// The closing of `impl Database`.
    pub database_end: bool,
    /// A claim function (`claim_sets` holds it).
    pub claim_sets: bool,
    /// A pattern's item and answer types (`patterns` holds it).
    pub items: bool,
    /// A pattern's row type (`patterns` holds it).
    pub rows: bool,
    /// `Written`, when the model has aggregates.
    pub written: bool,
    /// An aggregate and its repository (`aggregates` holds it).
    pub aggregates: bool,
    /// A change-feed worker (one of the worker lists holds it).
    pub workers: bool,
    /// The closing of the module.
    pub end: bool,
}

/// The view of one part: the data access's fields ([`DataView`]), each list holding
/// the part's items alone, and `part`, the section it renders.
#[derive(Debug, Serialize)]
pub struct PartView<'v> {
    /// The section this part renders.
    pub part: Section,
    /// [`DataView::model`].
    pub model: &'v str,
    /// [`DataView::module`].
    pub module: &'v str,
    /// [`DataView::containers`]: the part's handle, or every one for `database`.
    pub containers: &'v [HandleView],
    /// [`DataView::aggregates`]: the part's aggregate.
    pub aggregates: &'v [AggregateView],
    /// [`DataView::patterns`]: the part's pattern.
    pub patterns: &'v [PatternView],
    /// [`DataView::workers`]: the part's worker.
    pub workers: &'v [WorkerView],
    /// [`DataView::refresh_workers`]: the part's worker.
    pub refresh_workers: &'v [RefreshWorkerView],
    /// [`DataView::kept_workers`]: the part's worker.
    pub kept_workers: &'v [KeptWorkerView],
    /// [`DataView::ancestors_workers`]: the part's worker.
    pub ancestors_workers: &'v [RefreshWorkerView],
    /// [`DataView::claim_sets`]: the part's claim function.
    pub claim_sets: &'v [ClaimSetView],
    /// [`DataView::skipped`], whole in every part.
    pub skipped: &'v [String],
    /// [`DataView::lease_type`].
    pub lease_type: &'v str,
    /// [`DataView::rt`], whole in every part.
    pub rt: &'v BTreeMap<String, bool>,
}

impl<'v> PartView<'v> {
    /// The part of `view` that renders `section` (set by `set`), with no items.
    fn of(view: &'v DataView, set: fn(&mut Section)) -> Self {
        let mut part = Section::default();
        set(&mut part);
        PartView {
            part,
            model: &view.model,
            module: &view.module,
            containers: &[],
            aggregates: &[],
            patterns: &[],
            workers: &[],
            refresh_workers: &[],
            kept_workers: &[],
            ancestors_workers: &[],
            claim_sets: &[],
            skipped: &view.skipped,
            lease_type: &view.lease_type,
            rt: &view.rt,
        }
    }
}

/// A part of `view` for each of `items`, rendering `section`, its list (`field`)
/// holding that item alone.
fn each<'v, T>(
    view: &'v DataView,
    set: fn(&mut Section),
    items: &'v [T],
    field: fn(&mut PartView<'v>, &'v [T]),
) -> impl Iterator<Item = PartView<'v>> {
    items.chunks(1).map(move |item| {
        let mut part = PartView::of(view, set);
        field(&mut part, item);
        part
    })
}

/// All of `view` as one part, every section on (`written` when there are
/// aggregates): what an override renders from, once, as it did before parts.
pub fn whole(view: &DataView) -> PartView<'_> {
    let mut part = PartView::of(view, |s| {
        *s = Section {
            head: true,
            handles: true,
            database: true,
            constructors: true,
            methods: true,
            database_end: true,
            claim_sets: true,
            items: true,
            rows: true,
            written: false,
            aggregates: true,
            workers: true,
            end: true,
        }
    });
    part.part.written = !view.aggregates.is_empty();
    part.containers = &view.containers;
    part.aggregates = &view.aggregates;
    part.patterns = &view.patterns;
    part.workers = &view.workers;
    part.refresh_workers = &view.refresh_workers;
    part.kept_workers = &view.kept_workers;
    part.ancestors_workers = &view.ancestors_workers;
    part.claim_sets = &view.claim_sets;
    part
}

/// Every part of `view`, in the order of the file.
pub fn parts(view: &DataView) -> impl Iterator<Item = PartView<'_>> {
    let one = |set| std::iter::once(PartView::of(view, set));
    let mut database = PartView::of(view, |s| s.database = true);
    database.containers = &view.containers;
    let written = (!view.aggregates.is_empty()).then(|| PartView::of(view, |s| s.written = true));
    let constructor = |s: &mut Section| s.constructors = true;
    let worker = |s: &mut Section| s.workers = true;
    one(|s| s.head = true)
        .chain(each(
            view,
            |s| s.handles = true,
            &view.containers,
            |p, c| p.containers = c,
        ))
        .chain(std::iter::once(database))
        .chain(each(view, constructor, &view.aggregates, |p, a| p.aggregates = a))
        .chain(each(view, constructor, &view.workers, |p, w| p.workers = w))
        .chain(each(view, constructor, &view.refresh_workers, |p, w| {
            p.refresh_workers = w
        }))
        .chain(each(view, constructor, &view.ancestors_workers, |p, w| {
            p.ancestors_workers = w
        }))
        .chain(each(view, constructor, &view.kept_workers, |p, w| p.kept_workers = w))
        .chain(each(view, |s| s.methods = true, &view.patterns, |p, x| p.patterns = x))
        .chain(one(|s| s.database_end = true))
        .chain(each(
            view,
            |s| s.claim_sets = true,
            &view.claim_sets,
            |p, c| p.claim_sets = c,
        ))
        .chain(each(view, |s| s.items = true, &view.patterns, |p, x| p.patterns = x))
        .chain(each(view, |s| s.rows = true, &view.patterns, |p, x| p.patterns = x))
        .chain(written)
        .chain(each(
            view,
            |s| s.aggregates = true,
            &view.aggregates,
            |p, a| p.aggregates = a,
        ))
        .chain(each(view, worker, &view.workers, |p, w| p.workers = w))
        .chain(each(view, worker, &view.refresh_workers, |p, w| p.refresh_workers = w))
        .chain(each(view, worker, &view.kept_workers, |p, w| p.kept_workers = w))
        .chain(each(view, worker, &view.ancestors_workers, |p, w| {
            p.ancestors_workers = w
        }))
        .chain(one(|s| s.end = true))
}
