//! The shape of a derived-data optimisation (extended references, computed counts,
//! subsets, tree ancestors, buckets): an [`Optimisation`] says what it could make, what
//! a design with some of it looks like, which patterns it changes and how its decision
//! reads; [`run`] weighs every one the same way on the design the steps before it left
//! ([`super::weigh`]: each candidate charged its own requests, the saving ones
//! kept together if the design with them costs less, the model's pins applied).
//! Adding one is a file with an `impl Optimisation` and a line in the map's steps.

use std::collections::BTreeSet;
use std::sync::Arc;

use cosmap_domain::DomainModel;

use super::{Batch, Priced, Weighed};
use crate::decision::{Rule, Trace};
use crate::logical_model::Container;
use crate::operations::Request;

/// The design a step starts from, priced when a step before priced it, or on demand.
pub(crate) struct Current<'a> {
    /// Its containers.
    pub(crate) containers: &'a [Container],
    price: &'a dyn Fn(&[Container]) -> Priced,
    priced: Option<Priced>,
}

impl Current<'_> {
    /// The design priced (priced now if no step before priced it).
    pub(crate) fn priced(&mut self) -> &Priced {
        let (containers, price) = (self.containers, self.price);
        self.priced.get_or_insert_with(|| price(containers))
    }

    /// `design` priced as the cost table prices it.
    pub(crate) fn price(&self, design: &[Container]) -> Priced {
        (self.price)(design)
    }
}

/// One optimisation the search weighs.
pub(crate) trait Optimisation {
    /// A change it could make (one reference extended, one count kept, …).
    type Candidate: Clone;
    /// The rule its decisions are recorded under, and pinned by.
    const RULE: Rule;

    /// What it could make on `current`; the refusals of what it cannot, recorded.
    fn candidates(&self, current: &mut Current<'_>, trace: &mut Trace) -> Vec<Self::Candidate>;

    /// What its decision on `c` is about, as `cosmap model` prints it (and a pin names it).
    fn subject(&self, c: &Self::Candidate) -> String;

    /// `design` with exactly `kept` made.
    fn make(&self, design: &[Container], kept: &[Self::Candidate]) -> Vec<Container>;

    /// The access patterns `c` changes: the reads it saves, the writes that keep it.
    fn affected(&self, c: &Self::Candidate) -> BTreeSet<String>;

    /// Which of `candidates` a request of the design with all of them is sent for
    /// (a sync that keeps it), so each pays only its own; `None`: not one's own.
    fn owner(&self, _r: &Request, _candidates: &[Self::Candidate]) -> Option<usize> {
        None
    }

    /// Records the decision on `w` (kept when `batch.kept(w)`).
    fn record(&self, w: &Weighed<'_, Self::Candidate>, batch: &Batch<'_, Self::Candidate>, trace: &mut Trace);

    /// Once `after` (with the kept candidates) replaces `before`: what else to record
    /// (the containers whose change feed now keeps what was made).
    fn made(
        &self,
        _before: &[Container],
        _after: &[Container],
        _batch: &Batch<'_, Self::Candidate>,
        _trace: &mut Trace,
    ) {
    }
}

/// What the search has made so far, by rule and subject: a candidate already made is
/// not weighed again when a later round runs its step on the design the others left.
pub(crate) type Made = BTreeSet<(Rule, String)>;

/// Weighs `o`'s candidates on `containers` (priced as `priced` when a step before priced
/// it) and keeps those that pay: the design it leaves, priced when it priced it. A
/// candidate in `made` is already in the design and not weighed; those kept join it.
pub(crate) fn run<O: Optimisation>(
    o: &O,
    model: &DomainModel,
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    price: &dyn Fn(&[Container]) -> Priced,
    priced: Option<Priced>,
    made: &mut Made,
) -> Option<Priced> {
    let mut current = Current {
        containers: containers.as_slice(),
        price,
        priced,
    };
    let mut candidates = o.candidates(&mut current, trace);
    candidates.retain(|c| !made.contains(&(O::RULE, o.subject(c))));
    let priced = current.priced;
    if candidates.is_empty() {
        return priced;
    }
    let without = priced.unwrap_or_else(|| price(containers));
    let pins = super::pins::Pins::of(model, O::RULE);
    let mut batch = super::weigh(
        &candidates,
        &without,
        price,
        |kept| o.make(containers, kept),
        |c| o.affected(c),
        |r| o.owner(r, &candidates),
        |c| pins.choice(&o.subject(c)),
    );
    for w in &batch.weighed {
        o.record(w, &batch, trace);
        if let Some(d) = trace.last_mut() {
            w.mark(d, batch.kept(w));
        }
        if batch.kept(w) {
            made.insert((O::RULE, o.subject(w.candidate)));
        }
    }
    match batch.chosen.take() {
        Some((design, priced)) => {
            o.made(containers, &design, &batch, trace);
            *containers = Arc::new(design);
            Some(priced)
        }
        None => Some(without),
    }
}

/// A step's `run` again (of `rule`), on the design the steps after it left: what it
/// makes now is recorded in place of its earlier refusal; what it refuses again keeps
/// the first decision.
pub(crate) fn again(
    rule: Rule,
    trace: &mut Trace,
    made: &mut Made,
    run: impl FnOnce(&mut Trace, &mut Made) -> Option<Priced>,
) -> Option<Priced> {
    let before = made.clone();
    let mut again = Trace::default();
    let after = run(&mut again, made);
    let new: BTreeSet<&str> = made.difference(&before).map(|(_, subject)| subject.as_str()).collect();
    if new.is_empty() {
        return after;
    }
    let new = |d: &crate::decision::Decision| d.rule == rule && new.contains(d.subject.as_str());
    trace.retain(|d| !new(d));
    again.retain(|d| d.rule != rule || new(d));
    trace.append(again);
    after
}
