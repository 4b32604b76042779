//! The parts of the data access module, each named as it is taken: a repository per
//! aggregate, a method per access pattern, a worker per copy, extended reference,
//! ancestors list, count and subset kept from a change feed.

use super::*;

/// The names the data access module takes as it is built (its types', its
/// `Database`'s methods'), each made unique in the order taken, and what is not
/// generated, with why.
pub(super) struct Names {
    pub(super) types: BTreeSet<String>,
    pub(super) methods: BTreeSet<String>,
    pub(super) skipped: Vec<String>,
}

impl Names {
    /// `name`, or `name_`, `name__`, …: the first not taken, now taken.
    pub(super) fn unique(&mut self, name: String) -> String {
        super::names::claim(&mut self.types, name)
    }

    /// Worker `feed` named `name` (made unique), with its `Database` method.
    fn name_worker(&mut self, feed: &mut FeedWorker, name: String) {
        feed.name = self.unique(name);
        feed.constructor = method(&mut self.methods, &snake_case(&feed.name));
    }

    /// A repository per root of each aggregate (and dictionary) container.
    pub(super) fn aggregates(&mut self, cx: &Context<'_>) -> Vec<AggregateView> {
        let mut aggregates = Vec::new();
        for (c, cv) in cx.model.containers.iter().zip(&cx.rust.containers) {
            if !matches!(c.kind, ContainerKind::Aggregate | ContainerKind::Dictionary) {
                continue;
            }
            let handle = &cx
                .handles
                .iter()
                .find(|h| h.name == c.name)
                .expect("a handle per container");
            for root in c.document_types.iter().filter(|d| d.role == Role::Root) {
                match aggregate(c, cv, root, handle, cx.sources, cx.claim_sets) {
                    Ok(mut a) => {
                        a.aggregate = self.unique(format!("{}Aggregate", root.name));
                        a.repository = self.unique(format!("{}Repository", root.name));
                        a.constructor = method(&mut self.methods, &format!("{}_repository", snake_case(&root.name)));
                        aggregates.push(a);
                    }
                    Err(reason) => self.skipped.push(format!("a repository of `{}`: {reason}", root.name)),
                }
            }
        }
        aggregates
    }

    /// A method per access pattern (and a page method where it pages), with the names
    /// of the rows, items and answers it returns.
    pub(super) fn patterns(&mut self, cx: &Context<'_>) -> Vec<PatternView> {
        let mut patterns = Vec::new();
        for op in &cx.model.operations {
            match pattern(cx, op) {
                Ok(p) => patterns.push(self.named(p)),
                Err(reason) => self
                    .skipped
                    .push(format!("the access pattern `{}`: {reason}", op.pattern)),
            }
        }
        patterns
    }

    /// `p` with its method's name, and its row's, item's and answer's.
    fn named(&mut self, mut p: PatternView) -> PatternView {
        p.ident = method(&mut self.methods, &p.name);
        if p.page.is_some() && !self.methods.insert(format!("{}_page", p.ident)) {
            p.page = None;
            self.skipped.push(format!(
                "the page method of `{}`: `{}_page` names another method",
                p.name, p.ident
            ));
        }
        if p.row.is_some() || p.item.is_some() {
            p.at_most_one = false;
        }
        if let Some(row) = &mut p.row {
            row.name = self.unique(format!("{}Row", upper_camel_of_snake(&p.ident)));
            p.returns = ReturnsView::new(&row.name, true, false);
        }
        if let Some(item) = &mut p.item {
            item.name = self.unique(format!("{}Item", upper_camel_of_snake(&p.ident)));
            if let Some(row) = &p.row {
                item.main_type.clone_from(&row.name);
            }
            p.returns = ReturnsView::new(&item.name, true, false);
            if !item.scans.is_empty() {
                item.answer = self.unique(format!("{}Answer", upper_camel_of_snake(&p.ident)));
                p.returns = ReturnsView::new(&item.answer, false, false);
            }
        }
        p
    }

    /// A worker per copy and feed, upserting from its source's change feed (and
    /// trimming a feed to its size).
    pub(super) fn copy_workers(&mut self, model: &LogicalModel, handles: &[HandleView]) -> Vec<WorkerView> {
        let mut workers = Vec::new();
        for c in &model.containers {
            for d in &c.document_types {
                let Some(of) = &d.copy_of else { continue };
                let Some(trim) = self.trim(model, c, d, of) else {
                    continue;
                };
                let discriminator = model
                    .container(&of.container)
                    .and_then(|s| s.document_type(&of.document_type))
                    .map(|s| s.discriminator.clone())
                    .unwrap_or_default();
                let lease_id = format!("copy-{}-{}-to-{}", of.container, of.document_type, c.name);
                let Ok(mut feed) = FeedWorker::new(handles, &of.container, &discriminator, c, lease_id) else {
                    continue;
                };
                let target = upper_camel_of_snake(&feed.target_field);
                self.name_worker(&mut feed, format!("{}To{target}Worker", of.document_type));
                workers.push(WorkerView {
                    source_document: format!("super::{}::{}", feed.source_field, of.document_type),
                    target_document: format!("super::{}::{}", feed.target_field, d.name),
                    feed,
                    trim,
                });
            }
        }
        workers
    }

    /// How the worker of copy `d` (in `c`) trims it: `Some(None)` when it does not
    /// trim, `None` when it cannot be generated (said in `skipped`).
    fn trim(
        &mut self,
        model: &LogicalModel,
        c: &cosmap_mapper::Container,
        d: &DocumentType,
        of: &cosmap_mapper::CopyOf,
    ) -> Option<Option<TrimView>> {
        let trims = of.sync.actions.iter().any(|a| a.operation == SyncOperation::Trim);
        match (trims, of.newest) {
            (false, _) => Some(None),
            (true, Some(newest)) => match trim_view(model, c, d, &of.serves, newest) {
                Ok(trim) => Some(Some(trim)),
                Err(reason) => {
                    self.skipped.push(format!(
                        "the worker that keeps the feed `{}` in `{}` current: {reason}",
                        d.name, c.name
                    ));
                    None
                }
            },
            (true, None) => {
                self.skipped.push(format!(
                    "the worker that keeps `{}` in `{}` current: it trims without a size",
                    d.name, c.name
                ));
                None
            }
        }
    }

    /// A worker per extended reference, rewriting the holders that copy a changed
    /// document's attributes.
    pub(super) fn refresh_workers(&mut self, model: &LogicalModel, handles: &[HandleView]) -> Vec<RefreshWorkerView> {
        let mut out = Vec::new();
        for c in &model.containers {
            for d in &c.document_types {
                for r in d.references.iter().filter(|r| r.ancestry.is_none()) {
                    out.extend(self.rewriter(model, handles, (c, d, r), Rewrites::Holders));
                }
            }
        }
        out
    }

    /// A worker per ancestors list (rewriting a moved element's descendants), and per
    /// count or subset kept from a change feed (not the source's own, which the source's
    /// workers carry): each document's ancestors lists first, then what it keeps.
    pub(super) fn ancestors_and_kept_workers(
        &mut self,
        model: &LogicalModel,
        handles: &[HandleView],
    ) -> (Vec<RefreshWorkerView>, Vec<KeptWorkerView>) {
        let (mut ancestors, mut kept) = (Vec::new(), Vec::new());
        for c in &model.containers {
            for d in &c.document_types {
                for r in d.references.iter().filter(|r| r.ancestry.is_some()) {
                    ancestors.extend(self.rewriter(model, handles, (c, d, r), Rewrites::Descendants));
                }
                let counts = d.computed.iter().filter_map(|v| match &v.kept {
                    cosmap_mapper::Keeping::ChangeFeed { sync } => Some((v.name.as_str(), sync, None)),
                    cosmap_mapper::Keeping::Batch => None,
                });
                let subsets = d.embedded.iter().filter_map(|e| match &e.subset.as_ref()?.kept {
                    cosmap_mapper::Keeping::ChangeFeed { sync } => Some((e.name.as_str(), sync, Some(e))),
                    cosmap_mapper::Keeping::Batch => None,
                });
                let own = counts
                    .chain(subsets)
                    .filter(|(_, sync, _)| !kept_on_the_source(d, sync));
                for (property, sync, subset) in own {
                    match kept_worker(model, handles, c, d, property, sync, subset) {
                        Ok(mut w) => {
                            let value = upper_camel_of_snake(&names::field(property));
                            self.name_worker(&mut w.feed, format!("{}{value}Worker", d.name));
                            kept.push(w);
                        }
                        Err(reason) => self.skipped.push(format!(
                            "the worker that keeps `{}.{property}` current: {reason}",
                            d.name
                        )),
                    }
                }
            }
        }
        (ancestors, kept)
    }

    /// The worker that keeps what reference `r` of `d` (in `c`) copies current, named;
    /// `None` (said in `skipped`) when it cannot be generated.
    fn rewriter(
        &mut self,
        model: &LogicalModel,
        handles: &[HandleView],
        (c, d, r): (&cosmap_mapper::Container, &DocumentType, &cosmap_mapper::Reference),
        rewrites: Rewrites,
    ) -> Option<RefreshWorkerView> {
        let sync = r.extended.as_ref().and_then(|e| e.sync.as_ref())?;
        match rewriting_worker(model, handles, c, d, r, sync, rewrites) {
            Ok(mut w) => {
                let reference = upper_camel_of_snake(&names::field(&r.name));
                self.name_worker(&mut w.feed, format!("{}{reference}Worker", d.name));
                Some(w)
            }
            Err(reason) => {
                let what = match rewrites {
                    Rewrites::Holders => format!("the attributes `{}.{}` copies", d.name, r.name),
                    Rewrites::Descendants => format!("the ancestors list `{}.{}`", d.name, r.name),
                };
                self.skipped
                    .push(format!("the worker that keeps {what} current: {reason}"));
                None
            }
        }
    }
}
