//! Physical optimisations, applied after MR1–MR6 and driven by access-pattern
//! statistics: partition keys, copies, feeds, embedded reference data, and the rule
//! book's derived data (extended references, computed counts, subsets, tree
//! ancestors, buckets), each weighed
//! on a [`Priced`] design; [`weigh`] is the batch weighing the derived data share.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use cosmap_domain::{AccessKind, DomainModel, PinChoice};

use crate::cost::design::Design;
use crate::cost::{facts, Consistency};
use crate::decision::{Rule, Trace};
use crate::logical_model::{Container, DocumentType, Role};
use crate::operations::Operation;

pub(crate) mod bucket;
pub(crate) mod computed_value;
pub(crate) mod copy;
pub(crate) mod embed_reference_data;
pub(crate) mod extended_reference;
pub(crate) mod feed;
pub(crate) mod partition_key;
pub(crate) mod pins;
pub(crate) mod rounds;
pub mod search;
pub(crate) mod step;
pub(crate) mod subset;
pub(crate) mod tree_ancestors;
pub(crate) mod unused_copies;

/// A candidate design, finished (unique keys, operations, indexing) and priced by
/// the cost table's own figures: what an optimisation is weighed on.
#[derive(Clone)]
pub(crate) struct Priced {
    /// Shared with the map's record of the first design it finished (see
    /// [`crate::FirstFinished`]), so that design is kept without a copy.
    pub(crate) containers: Arc<Vec<Container>>,
    pub(crate) operations: Arc<Vec<Operation>>,
    /// RU/s of each access pattern, by name.
    pub(crate) by_pattern: BTreeMap<String, f64>,
    /// RU/s each container serves, by name.
    pub(crate) by_container: BTreeMap<String, f64>,
    /// RU/s of each request of each operation, in their order (what the requests that
    /// read or write a document type serve is summed from them when asked).
    pub(crate) request_ru_per_second: Vec<Vec<f64>>,
    /// The access patterns that send a request to each container, by its name.
    pub(crate) patterns_by_container: BTreeMap<String, BTreeSet<String>>,
    /// Which of the map's weighings with copies priced this design (their index, in
    /// the order weighed), so the copies it was priced with can be taken without
    /// comparing whole designs; `None` for a design priced without copies.
    pub(crate) weighing: Option<usize>,
    /// The decisions finishing the design recorded (unique keys, claims, indexing),
    /// so the map's last finish can take this design as it is when nothing changed it.
    pub(crate) finished: Trace,
}

impl Priced {
    /// Whether this design costs less than `other`: fewer access patterns that no
    /// container can carry (infinite RU/s), then fewer RU/s for the others.
    pub(crate) fn cheaper_than(&self, other: &Priced) -> bool {
        self.cheaper_by(other, 0.0)
    }

    /// Whether this design costs less than `other` by more than `margin` (a share of
    /// `other`'s RU/s): fewer patterns no container can carry, or as many and the others'
    /// RU/s lower by more than the margin.
    pub(crate) fn cheaper_by(&self, other: &Priced, margin: f64) -> bool {
        let key = |p: &Priced| {
            let unbounded = p.by_pattern.values().filter(|v| !v.is_finite()).count();
            let finite: f64 = p.by_pattern.values().filter(|v| v.is_finite()).sum();
            (unbounded, finite)
        };
        let (a, b) = (key(self), key(other));
        a.0 < b.0 || (a.0 == b.0 && a.1 < b.1 * (1.0 - margin))
    }

    /// RU/s of the whole workload (infinite when a container cannot carry it).
    pub(crate) fn total(&self) -> f64 {
        self.by_pattern.values().sum()
    }

    /// This design's figures alone, for comparisons: its finished containers and
    /// operations (with each request's RU/s and what finishing recorded) let go.
    pub(crate) fn figures(self) -> Self {
        Priced {
            containers: Arc::default(),
            operations: Arc::default(),
            request_ru_per_second: Vec::new(),
            weighing: None,
            finished: Trace::default(),
            ..self
        }
    }

    /// This design with `finished`, what finishing it recorded.
    pub(crate) fn with_finished(mut self, finished: Trace) -> Self {
        self.finished = finished;
        self
    }

    /// Prices `operations` on `containers` at the default consistency; `finished` is
    /// what finishing them recorded.
    pub(crate) fn new(
        model: &DomainModel,
        containers: Vec<Container>,
        operations: Vec<Operation>,
        finished: Trace,
    ) -> Self {
        let facts = facts::of_containers(model, &containers);
        let operations = Arc::new(operations);
        let design = Design::new(model, facts, &operations, Consistency::default());
        Priced::of(Arc::new(containers), Arc::clone(&operations), &design).with_finished(finished)
    }

    /// Prices `operations` on `containers` by `design`, their figures already made
    /// (at the default consistency).
    pub(crate) fn of(containers: Arc<Vec<Container>>, operations: Arc<Vec<Operation>>, design: &Design<'_>) -> Self {
        // Each request's RU, figured once: an operation's cost is their sum (as
        // `Design::operation_cost` adds them), and each request's share is its own.
        let request_ru: Vec<Vec<f64>> = design.request_rus(&operations);
        let mut by_pattern: BTreeMap<String, f64> = BTreeMap::new();
        let mut patterns_by_container: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut request_ru_per_second: Vec<Vec<f64>> = Vec::with_capacity(operations.len());
        // The names are cloned into the maps only when new.
        for (op, rus) in operations.iter().zip(&request_ru) {
            let ru: f64 = rus.iter().copied().sum();
            let ru_per_second = crate::cost::units::round(ru * op.per_second);
            match by_pattern.get_mut(op.pattern.as_str()) {
                Some(sum) => *sum += ru_per_second,
                // Summed from zero, as the others are (`0.0 +` makes a -0.0 a 0.0).
                None => _ = by_pattern.insert(op.pattern.clone(), 0.0 + ru_per_second),
            }
            request_ru_per_second.push(rus.iter().map(|ru| ru * op.per_second).collect());
            for r in &op.requests {
                match patterns_by_container.get_mut(r.container.as_str()) {
                    Some(patterns) if patterns.contains(op.pattern.as_str()) => {}
                    Some(patterns) => _ = patterns.insert(op.pattern.clone()),
                    None => _ = patterns_by_container.insert(r.container.clone(), BTreeSet::from([op.pattern.clone()])),
                }
            }
        }
        let by_container = design
            .containers()
            .into_iter()
            .map(|c| (c.name, c.ru_per_second))
            .collect();
        Priced {
            containers,
            operations,
            by_pattern,
            by_container,
            request_ru_per_second,
            patterns_by_container,
            weighing: None,
            finished: Trace::default(),
        }
    }
}

/// One candidate of a batch weighing: the RU/s it saves and adds on the patterns it
/// changes, and whether it saves more than it adds.
pub(crate) struct Weighed<'c, C> {
    pub(crate) candidate: &'c C,
    /// Its place among the candidates weighed.
    place: usize,
    pub(crate) saves: f64,
    pub(crate) adds: f64,
    pub(crate) saving: bool,
    /// How the model pins it (`pins`): kept or avoided whatever it saves.
    pub(crate) pin: Option<PinChoice>,
}

impl<C> Weighed<'_, C> {
    /// Completes `decision` (this candidate's): what it saves and adds, the figure at
    /// which it would flip, and, when the model pins it, the pin and what it costs. `kept`: whether it was kept.
    pub(crate) fn mark(&self, decision: &mut crate::decision::Decision, kept: bool) {
        decision
            .with("savesRuPerSecond", crate::cost::units::round(self.saves))
            .with("addsRuPerSecond", crate::cost::units::round(self.adds));
        break_even(decision, self.saves, self.adds, kept);
        if let Some(choice) = self.pin {
            pins::mark(decision, choice, self.saves, self.adds);
        }
    }
}

/// Records in `decision` the figure at which it would flip, from what it saves on the
/// reads it serves and adds to the writes that keep it (both at today's rates): the
/// factor on those reads' rates at which the two are equal (`breakEvenReadFactor`),
/// in its evidence and reason. `kept`: whether it was kept.
pub(crate) fn break_even(decision: &mut crate::decision::Decision, saves: f64, adds: f64, kept: bool) {
    let sentence = if saves.is_infinite() {
        "without it a pattern no container can carry: it pays at any rate".to_string()
    } else if saves <= 0.0 {
        "it saves nothing at any rate".to_string()
    } else if adds <= 0.0 {
        "it adds nothing, so it pays at any rate of its reads".to_string()
    } else {
        let factor = adds / saves;
        decision.with("breakEvenReadFactor", (factor * 100.0).round() / 100.0);
        let shown = crate::statistics::human_factor(factor);
        if kept {
            format!("kept while the reads it serves run at more than {shown} today's rates (or its writes at less than {} theirs)", crate::statistics::human_factor(1.0 / factor))
        } else {
            format!(
                "it would pay with the reads it serves at {shown} today's rates (or its writes at {} theirs)",
                crate::statistics::human_factor(1.0 / factor)
            )
        }
    };
    decision.reason = format!("{}; break-even: {sentence}", decision.reason);
}

/// The outcome of weighing a batch of one optimisation's candidates.
pub(crate) struct Batch<'c, C> {
    /// Every candidate, in order.
    pub(crate) weighed: Vec<Weighed<'c, C>>,
    /// Whether each candidate (by its place) is in the design chosen.
    kept: Vec<bool>,
    /// The design with exactly the kept candidates, when any is kept, priced.
    pub(crate) chosen: Option<(Vec<Container>, Priced)>,
    /// The workload's RU/s without any candidate.
    pub(crate) without: f64,
}

impl<C> Batch<'_, C> {
    /// Whether `w` is kept: pinned `keep`, or it saves, is not pinned `avoid`, and the
    /// design chosen holds it.
    pub(crate) fn kept(&self, w: &Weighed<'_, C>) -> bool {
        match w.pin {
            Some(PinChoice::Keep) => true,
            Some(PinChoice::Avoid) => false,
            None => self.kept[w.place],
        }
    }

    /// Whether `w` saves alone but is not kept beside the others (not pinned).
    pub(crate) fn not_together(&self, w: &Weighed<'_, C>) -> bool {
        w.pin.is_none() && w.saving && !self.kept[w.place]
    }

    /// Each kept candidate that `which` picks, as `say` words it.
    pub(crate) fn kept_where(&self, which: impl Fn(&C) -> bool, say: impl Fn(&C) -> String) -> Vec<String> {
        self.weighed
            .iter()
            .filter(|w| self.kept(w) && which(w.candidate))
            .map(|w| say(w.candidate))
            .collect()
    }

    /// The outcome and reason of `w`'s decision, the same three ways for every kind of
    /// derived data: `kept` when kept; else the `plain` outcome (what reads do without
    /// it), with [`not_together`]'s reason (`what` the candidate does, beside the
    /// `others` of its kind) when it saves alone but not beside them, or `refused`
    /// when it does not pay.
    pub(crate) fn said(
        &self,
        w: &Weighed<'_, C>,
        kept: (String, String),
        plain: String,
        (what, others): (&str, &str),
        refused: String,
    ) -> (String, String) {
        if self.kept(w) {
            kept
        } else if self.not_together(w) {
            (plain, not_together(what, others, w.saves, w.adds, self.without))
        } else {
            (plain, refused)
        }
    }
}

/// Weighs `candidates` the way derived data is chosen: the design with all of them
/// (`design`) against the design `without` any, each candidate by the `affected`
/// patterns it changes (the reads it saves, the writes that keep it current); those
/// that save more than they add are kept together if the design with exactly those
/// costs less than none, else the one that saves least is dropped until the rest do;
/// then each kept one is dropped where the design costs less without it ([`settle`]). `owner` tells which candidate (by its place in
/// `candidates`) a request of the design with all of them is sent for (a sync that
/// keeps it): each candidate is charged its own such requests, never another's sent by
/// the same write (two holders of an extended reference to one root). `pinned` says
/// how the model pins a candidate: one pinned `keep` is kept whatever it costs, one
/// pinned `avoid` never.
pub(crate) fn weigh<'c, C: Clone>(
    candidates: &'c [C],
    without: &Priced,
    price: &dyn Fn(&[Container]) -> Priced,
    design: impl Fn(&[C]) -> Vec<Container>,
    affected: impl Fn(&C) -> BTreeSet<String>,
    owner: impl Fn(&crate::operations::Request) -> Option<usize>,
    pinned: impl Fn(&C) -> Option<PinChoice>,
) -> Batch<'c, C> {
    let all = design(candidates);
    let with_all = price(&all);
    // RU/s of the requests each candidate is charged, by pattern: (pattern, owner) → RU/s.
    let mut owned: BTreeMap<(&str, usize), f64> = BTreeMap::new();
    for (op, rus) in with_all.operations.iter().zip(&with_all.request_ru_per_second) {
        for (r, ru) in op.requests.iter().zip(rus) {
            if let Some(i) = owner(r) {
                *owned.entry((op.pattern.as_str(), i)).or_default() += ru;
            }
        }
    }
    let others = |name: &str, me: usize| -> f64 {
        owned
            .range((name, 0)..=(name, usize::MAX))
            .filter(|((_, i), _)| *i != me)
            .map(|(_, ru)| ru)
            .sum()
    };
    let mut weighed = Vec::new();
    let mut kept: Vec<C> = Vec::new();
    let mut forced: Vec<C> = Vec::new();
    for (me, candidate) in candidates.iter().enumerate() {
        let affected = affected(candidate);
        let ru = |p: &Priced, name: &str| p.by_pattern.get(name).copied().unwrap_or(0.0);
        let (saves, adds) = crate::cost::optimisations::saves_and_adds(
            affected
                .iter()
                .map(|name| ru(without, name) - (ru(&with_all, name) - others(name, me))),
        );
        // A pattern no container could carry without it and one can with it: it saves
        // without bound (the figures' difference is not a number).
        let carries = affected
            .iter()
            .any(|name| !ru(without, name).is_finite() && ru(&with_all, name).is_finite());
        let saves = if carries { f64::INFINITY } else { saves };
        let saving = saves > adds;
        let pin = pinned(candidate);
        if pin == Some(PinChoice::Keep) {
            forced.push(candidate.clone());
        }
        if pin == Some(PinChoice::Keep) || (saving && pin.is_none()) {
            kept.push(candidate.clone());
        }
        weighed.push(Weighed {
            candidate,
            place: me,
            saves,
            adds,
            saving,
            pin,
        });
    }
    let chosen = settle(&weighed, without, price, &design, (all, with_all));
    let kept = (0..candidates.len())
        .map(|i| chosen.as_ref().is_some_and(|(kept, _, _)| kept.contains(&i)))
        .collect();
    Batch {
        weighed,
        kept,
        chosen: chosen.map(|(_, design, priced)| (design, priced)),
        without: without.total(),
    }
}

/// The candidates to keep among `weighed`, by their places, with their design priced:
/// first those that save (or are pinned `keep`); while that design costs no less than
/// `without`, the one that saves least for what it adds is dropped; then each kept
/// one is dropped where the design costs less without it. What is pinned `keep` is
/// never dropped, and is made even when it alone costs more. `all` is the design with
/// every candidate, priced (reused when every one is kept).
fn settle<C: Clone>(
    weighed: &[Weighed<'_, C>],
    without: &Priced,
    price: &dyn Fn(&[Container]) -> Priced,
    design: &dyn Fn(&[C]) -> Vec<Container>,
    all: (Vec<Container>, Priced),
) -> Option<(BTreeSet<usize>, Vec<Container>, Priced)> {
    let pinned = |i: &usize| weighed[*i].pin == Some(PinChoice::Keep);
    let mut kept: BTreeSet<usize> = weighed
        .iter()
        .filter(|w| w.pin == Some(PinChoice::Keep) || (w.saving && w.pin.is_none()))
        .map(|w| w.place)
        .collect();
    let mut all = Some(all);
    let mut priced = |kept: &BTreeSet<usize>| -> (Vec<Container>, Priced) {
        match all.take().filter(|_| kept.len() == weighed.len()) {
            Some(all) => all,
            None => {
                let chosen: Vec<C> = kept.iter().map(|i| weighed[*i].candidate.clone()).collect();
                let design = design(&chosen);
                let priced = price(&design);
                (design, priced)
            }
        }
    };
    // The order to drop in: what saves least for what it adds first (the last placed
    // first among equals), never what the model pins `keep`.
    let net = |i: &usize| weighed[*i].saves - weighed[*i].adds;
    let mut droppable: Vec<usize> = kept.iter().copied().filter(|i| !pinned(i)).collect();
    droppable.sort_by(|a, b| net(a).total_cmp(&net(b)).then(b.cmp(a)));
    let mut best: Option<(Vec<Container>, Priced)> = None;
    let mut order = droppable.into_iter();
    // Cheaper than none, or dropped one at a time until it is (or only pins remain).
    while !kept.is_empty() {
        let (d, p) = priced(&kept);
        if p.cheaper_than(without) || kept.iter().all(pinned) {
            best = Some((d, p));
            break;
        }
        let Some(worst) = order.next() else { break };
        kept.remove(&worst);
    }
    let (mut design_kept, mut priced_kept) = best?;
    // Each kept one dropped where the design costs less without it.
    for i in order {
        if kept.len() < 2 {
            break;
        }
        kept.remove(&i);
        let (d, p) = priced(&kept);
        if p.cheaper_than(&priced_kept) {
            (design_kept, priced_kept) = (d, p);
        } else {
            kept.insert(i);
        }
    }
    Some((kept, design_kept, priced_kept))
}

/// Why a candidate that saves alone is not kept: `what` alone would save `saves` and add
/// `adds`, but with the `others` kept the workload would cost no less than `without`.
pub(crate) fn not_together(what: &str, others: &str, saves: f64, adds: f64, without: f64) -> String {
    use crate::statistics::{about, human_ru_per_second};
    format!(
        "alone {what} would save {} and add {}, but with the {others} kept the workload would cost no less than the {} it costs without them",
        about(human_ru_per_second(saves)),
        about(human_ru_per_second(adds)),
        human_ru_per_second(without)
    )
}

/// The patterns a candidate of derived data changes: the reads `reads` names (those
/// it serves), and every write that starts at or returns one of the `written`
/// elements (those that keep it current, or write larger documents).
pub(crate) fn affected(model: &DomainModel, reads: impl Fn(&str) -> bool, written: &[&str]) -> BTreeSet<String> {
    model
        .access_patterns()
        .iter()
        .filter(|p| match p.kind {
            AccessKind::Read => reads(&p.name),
            AccessKind::Write => written
                .iter()
                .any(|e| p.start == *e || p.returns.iter().any(|r| r == e)),
        })
        .map(|p| p.name.clone())
        .collect()
}

/// The home document of `element`: its root or entity document (not a copy), with
/// its container.
pub(crate) fn home<'c>(containers: &'c [Container], element: &str) -> Option<(&'c Container, &'c DocumentType)> {
    containers.iter().find_map(|c| {
        let d = c
            .document_types
            .iter()
            .find(|d| d.source == element && matches!(d.role, Role::Root | Role::Entity))?;
        Some((c, d))
    })
}

/// The document type `document` of container `container`, to change (its container's
/// list copied first when another design shares it).
pub(crate) fn document_mut<'c>(
    containers: &'c mut [Container],
    container: &str,
    document: &str,
) -> Option<&'c mut DocumentType> {
    let c = containers.iter_mut().find(|k| k.name == container)?;
    c.document_types.make_mut().iter_mut().find(|d| d.name == document)
}

/// Whether round one refused a candidate of `rule` (outcome `refused`) that it priced
/// (its evidence has `figure`): only then can running the step again make one.
pub(crate) fn refused_priced(trace: &Trace, rule: Rule, refused: &str, figure: &str) -> bool {
    trace
        .decisions()
        .any(|d| d.rule == rule && d.outcome == refused && d.evidence.get(figure).is_some())
}

/// Round one's decisions on `rule` replaced by those `again` made anew (an outcome
/// `made` accepts), with `again`'s copy sources when it made any: how a step run
/// again on a later design keeps what it now makes.
pub(crate) fn replace_made(trace: &mut Trace, mut again: Trace, rule: Rule, made: impl Fn(&str) -> bool) {
    let made: BTreeSet<String> = again
        .decisions()
        .filter(|d| d.rule == rule && made(&d.outcome))
        .map(|d| d.subject.clone())
        .collect();
    trace.retain(|d| !(d.rule == rule && made.contains(&d.subject)));
    again.retain(|d| match d.rule {
        r if r == rule => made.contains(&d.subject),
        Rule::CopySource => !made.is_empty(),
        _ => false,
    });
    trace.append(again);
}

/// Whether some copy or feed copies `d`'s documents (of container `c`).
pub(crate) fn copied(containers: &[Container], c: &Container, d: &DocumentType) -> bool {
    containers.iter().flat_map(|k| &k.document_types).any(|k| {
        k.copy_of
            .as_ref()
            .is_some_and(|of| of.document_type == d.name && of.container == c.name)
    })
}

/// Whether `d` (in `c`) already has a top-level property called `name`.
pub(crate) fn taken(c: &Container, d: &DocumentType, name: &str) -> bool {
    c.partition_key_properties().contains(&name)
        || d.attributes.iter().any(|a| a.name == name)
        || d.embedded.iter().any(|e| e.name == name)
        || d.references.iter().any(|r| r.name == name)
        || d.parent.as_ref().is_some_and(|p| p.property == name)
        || d.computed.iter().any(|v| v.name == name)
        || ["id", "type", "ttl"].contains(&name)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::RefCell;

    use super::*;

    /// A design priced at `total` RU/s (one pattern, nothing else).
    pub(crate) fn priced(total: f64) -> Priced {
        Priced {
            containers: Arc::new(Vec::new()),
            operations: Arc::new(Vec::new()),
            by_pattern: BTreeMap::from([("workload".to_string(), total)]),
            by_container: BTreeMap::new(),
            request_ru_per_second: Vec::new(),
            patterns_by_container: BTreeMap::new(),
            weighing: None,
            finished: Trace::default(),
        }
    }

    fn weighed(
        candidates: &[usize],
        figures: &[(f64, f64)],
        pins: &[Option<PinChoice>],
    ) -> Vec<Weighed<'static, usize>> {
        let candidates: &'static [usize] = Vec::leak(candidates.to_vec());
        candidates
            .iter()
            .zip(figures)
            .zip(pins)
            .enumerate()
            .map(|(place, ((candidate, &(saves, adds)), &pin))| Weighed {
                candidate,
                place,
                saves,
                adds,
                saving: saves > adds,
                pin,
            })
            .collect()
    }

    /// Settles `w` where the design with each set of candidates costs `cost(set)`.
    fn settled(w: &[Weighed<'_, usize>], cost: impl Fn(&[usize]) -> f64) -> Option<(Vec<usize>, f64)> {
        let last: RefCell<Vec<usize>> = RefCell::default();
        let design = |kept: &[usize]| {
            *last.borrow_mut() = kept.to_vec();
            Vec::new()
        };
        let price = |_: &[Container]| priced(cost(&last.borrow()));
        let every: Vec<usize> = w.iter().map(|w| *w.candidate).collect();
        let all = (Vec::new(), priced(cost(&every)));
        let (kept, _, p) = settle(w, &priced(100.0), &price, &design, all)?;
        Some((kept.into_iter().collect(), p.total()))
    }

    #[test]
    fn what_costs_more_together_is_dropped_one_at_a_time_until_the_rest_pays() {
        // Each saves alone; all three together cost more than none; without the one
        // that saves least they pay, and without the next they pay more.
        let w = weighed(&[0, 1, 2], &[(30.0, 0.0), (20.0, 0.0), (5.0, 0.0)], &[None; 3]);
        let cost = |set: &[usize]| match set {
            [0, 1, 2] => 120.0,
            [0, 1] => 90.0,
            [0] => 80.0,
            _ => 99.0,
        };
        assert_eq!(settled(&w, cost), Some((vec![0], 80.0)));
        // Where together they pay and no single drop lowers it, all are kept.
        assert_eq!(settled(&w, |set| 70.0 - set.len() as f64), Some((vec![0, 1, 2], 67.0)));
        // Where no set pays, none is kept.
        assert_eq!(settled(&w, |_| 150.0), None);
    }

    #[test]
    fn a_pin_to_keep_is_never_dropped() {
        let pins = [None, Some(PinChoice::Keep), Some(PinChoice::Avoid)];
        let w = weighed(&[0, 1, 2], &[(30.0, 0.0), (1.0, 5.0), (40.0, 0.0)], &pins);
        // Nothing pays: the pinned one alone is made; the avoided one never is.
        assert_eq!(settled(&w, |_| 150.0), Some((vec![1], 150.0)));
        // The pinned one with the saving one pays.
        assert_eq!(
            settled(&w, |set| if set == [0, 1] { 90.0 } else { 150.0 }),
            Some((vec![0, 1], 90.0))
        );
    }
}
