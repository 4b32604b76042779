//! The search's rounds: the derived-data steps (extended references, counts, subsets,
//! tree ancestors, buckets, then copies and feeds weighed again) run in order, then
//! again on the design the others left, until a round changes nothing. A step runs
//! again only when the design changed since it last ran (the same design weighs the
//! same), and a candidate made is never weighed twice, so every round that runs adds
//! to the design; the rounds are bounded all the same.

use std::sync::Arc;

use super::search::Search;
use super::step::{self, Made, Optimisation};
use super::Priced;
use crate::decision::{Rule, Trace};
use crate::logical_model::Container;

/// The most rounds the search runs (the first included): each round after the first
/// runs only because the one before made something, and what is made is never
/// weighed again, so the search settles well before this on every model tried.
pub(crate) const ROUNDS: usize = 4;

/// How a step weighs its optimisation on a design: given the design (changed in place
/// when it keeps something), the decisions so far, the design priced when a step
/// before priced it, what the search made, and whether this is the first round.
type Weigh<'s> =
    dyn FnMut(&mut Arc<Vec<Container>>, &mut Trace, Option<Priced>, &mut Made, bool) -> Option<Priced> + 's;

/// One step of the rounds: what it is called in the search, the rules it weighs, and
/// how it weighs them.
pub(crate) struct Step<'s> {
    name: &'static str,
    rules: Vec<Rule>,
    weigh: Box<Weigh<'s>>,
}

impl<'s> Step<'s> {
    /// A step that weighs `rules` by `weigh`.
    pub(crate) fn new(
        name: &'static str,
        rules: &[Rule],
        weigh: impl FnMut(&mut Arc<Vec<Container>>, &mut Trace, Option<Priced>, &mut Made, bool) -> Option<Priced> + 's,
    ) -> Self {
        Step {
            name,
            rules: rules.to_vec(),
            weigh: Box::new(weigh),
        }
    }

    /// The step weighing the derived data `o`: [`step::run`] in the first round,
    /// within [`step::again`] after (what it makes then replaces its earlier refusal).
    pub(crate) fn derived<O: Optimisation + 's>(
        name: &'static str,
        o: O,
        model: &'s cosmap_domain::DomainModel,
        price: &'s dyn Fn(&[Container]) -> Priced,
    ) -> Self {
        Step::new(name, &[O::RULE], move |containers, trace, priced, made, first| {
            if first {
                step::run(&o, model, containers, trace, price, priced, made)
            } else {
                step::again(O::RULE, trace, made, |trace, made| {
                    step::run(&o, model, containers, trace, price, priced, made)
                })
            }
        })
    }
}

/// Runs `steps` in rounds on `containers` (priced as `priced` when a step before priced
/// it) until a round changes nothing, at most [`ROUNDS`] (see [`rounds`]); then drops
/// what a later step made needless, where that saves more than `margin` of the
/// workload (see [`drop_pass`]). Records the steps in `search`. The design left,
/// priced when a step priced it.
pub(crate) fn run(
    steps: &mut [Step<'_>],
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    priced: Option<Priced>,
    search: &mut Search,
    margin: f64,
) -> Option<Priced> {
    let start = Start {
        containers: Arc::clone(containers),
        trace: trace.clone(),
        priced: priced.clone(),
        search: search.len(),
        margin,
    };
    let mut made = Made::new();
    let priced = rounds(steps, containers, trace, priced, search, &mut made);
    drop_pass(steps, start, made, containers, trace, priced, search)
}

/// The design, decisions, price and search length the rounds started from.
struct Start {
    containers: Arc<Vec<Container>>,
    trace: Trace,
    priced: Option<Priced>,
    search: usize,
    /// The share of the workload a drop must save (`thresholds.decisionMargin`).
    margin: f64,
}

/// Each candidate the rounds made (in rule and subject order), dropped: the rounds run
/// again from `start` without it (and without those dropped before), and where the
/// design they leave costs less than the one kept by more than the margin (estimates
/// are rough: a drop on noise would only unsteady the design), it replaces it, its decisions saying
/// the candidate was dropped and why. So no single candidate the rounds made lowers the
/// workload by more than the margin when dropped. What the model pins is never dropped.
/// One pass; the design left, priced.
fn drop_pass(
    steps: &mut [Step<'_>],
    start: Start,
    made: Made,
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    priced: Option<Priced>,
    search: &mut Search,
) -> Option<Priced> {
    let Some(mut best) = priced else {
        // Nothing priced: nothing made.
        return None;
    };
    let mut kept = made;
    let mut dropped = Made::new();
    // What the model pins is never dropped (its decision says it is pinned).
    let pinned = |trace: &Trace, (rule, subject): &(Rule, String)| {
        trace
            .decisions()
            .any(|d| d.rule == *rule && d.subject == *subject && d.evidence.contains_key("pinned"))
    };
    for candidate in kept.clone() {
        if !kept.contains(&candidate) || pinned(trace, &candidate) {
            continue;
        }
        // `made` seeded with what is dropped: a candidate made is never weighed again.
        let mut without: Made = dropped.clone();
        without.insert(candidate.clone());
        let mut design = Arc::clone(&start.containers);
        let mut decisions = start.trace.clone();
        let mut steps_taken = Search::default();
        let rerun = rounds(
            steps,
            &mut design,
            &mut decisions,
            start.priced.clone(),
            &mut steps_taken,
            &mut without,
        );
        let Some(rerun) = rerun.filter(|p| p.cheaper_by(&best, start.margin)) else {
            continue;
        };
        let (rule, subject) = &candidate;
        decisions
            .record(
                *rule,
                subject.as_str(),
                "dropped by the search",
                format!(
                    "made in a round before, it is dropped: the design costs {} without it against {} with it (what the later steps made serves its reads)",
                    crate::statistics::human_ru_per_second(rerun.total()),
                    crate::statistics::human_ru_per_second(best.total())
                ),
            )
            .with("withRuPerSecond", crate::cost::units::round(best.total()))
            .with("withoutRuPerSecond", crate::cost::units::round(rerun.total()));
        search.replace_from(start.search, steps_taken);
        search.record(&format!("{rule} `{subject}` dropped"), &[*rule], rerun.total());
        dropped.insert(candidate);
        kept = without.difference(&dropped).cloned().collect();
        (*containers, *trace, best) = (design, decisions, rerun);
    }
    Some(best)
}

/// Runs `steps` in rounds on `containers` until a round changes nothing, at most
/// [`ROUNDS`]; `made` holds what the search made (seeded with what it must not make).
/// Records each step of the first round in `search`, and each later run that changed
/// the design.
fn rounds(
    steps: &mut [Step<'_>],
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    mut priced: Option<Priced>,
    search: &mut Search,
    made: &mut Made,
) -> Option<Priced> {
    // How many times the design changed, and that count when each step last ran.
    let mut changes = 0usize;
    let mut ran_at: Vec<Option<usize>> = vec![None; steps.len()];
    for round in 1..=ROUNDS {
        let changes_before = changes;
        for (step, ran) in steps.iter_mut().zip(&mut ran_at) {
            if *ran == Some(changes) {
                continue;
            }
            let before = Arc::clone(containers);
            priced = (step.weigh)(containers, trace, priced, made, round == 1);
            let changed = !Arc::ptr_eq(&before, containers);
            drop(before);
            if changed {
                changes += 1;
            }
            *ran = Some(changes);
            if round == 1 {
                search.after(step.name, &step.rules, &priced);
            } else if changed {
                search.after(&format!("{} (round {round})", step.name), &step.rules, &priced);
            }
        }
        if changes == changes_before {
            break;
        }
    }
    priced
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step that changes the design (a fresh `Arc`) on its first `times` runs, and
    /// counts its runs.
    fn changing<'s>(times: usize, runs: &'s std::cell::Cell<usize>) -> Step<'s> {
        Step::new("changes", &[Rule::Copy], move |containers, _, priced, _, _| {
            runs.set(runs.get() + 1);
            if runs.get() <= times {
                *containers = Arc::new(containers.to_vec());
            }
            priced
        })
    }

    fn rounds(steps: &mut [Step<'_>]) {
        let mut containers = Arc::new(Vec::new());
        run(
            steps,
            &mut containers,
            &mut Trace::default(),
            None,
            &mut Search::default(),
            0.05,
        );
    }

    #[test]
    fn a_step_runs_again_only_when_another_changed_the_design_since() {
        let (a, b) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        // `a` changes the design once, before `b` runs: nothing changed after either
        // ran, so round two runs neither.
        rounds(&mut [changing(1, &a), changing(0, &b)]);
        assert_eq!((a.get(), b.get()), (1, 1));
        // `b` changes it after `a` ran: round two runs `a` again, not `b`.
        let (a, b) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        rounds(&mut [changing(0, &a), changing(1, &b)]);
        assert_eq!((a.get(), b.get()), (2, 1));
    }

    use crate::optimise::tests::priced;

    /// A step that makes `subject` (recorded in the trace, which stands for the design)
    /// unless the search made it or must not; the workload is `cost` of what is made.
    fn making<'s>(subject: &'static str, cost: &'s dyn Fn(&Trace) -> f64) -> Step<'s> {
        Step::new(
            "makes",
            &[Rule::ExtendedReference],
            move |containers, trace, before, made, _| {
                let key = (Rule::ExtendedReference, subject.to_string());
                if made.contains(&key) {
                    return before;
                }
                made.insert(key);
                trace.record(Rule::ExtendedReference, subject, "made", "");
                *containers = Arc::new(containers.to_vec());
                Some(priced(cost(trace)))
            },
        )
    }

    #[test]
    fn what_a_later_step_made_needless_is_dropped() {
        // `a` pays alone (80 against 100); `b`, made after it, pays more (60), and
        // without `a` more still (50): `a` is dropped, and the design is `b`'s.
        let cost = |trace: &Trace| {
            let has = |s: &str| trace.decisions().any(|d| d.subject == s && d.outcome == "made");
            match (has("a"), has("b")) {
                (true, true) => 60.0,
                (true, false) => 80.0,
                (false, true) => 50.0,
                (false, false) => 100.0,
            }
        };
        let mut steps = [making("a", &cost), making("b", &cost)];
        let (mut containers, mut trace, mut search) = (Arc::new(Vec::new()), Trace::default(), Search::default());
        let left = run(
            &mut steps,
            &mut containers,
            &mut trace,
            Some(priced(100.0)),
            &mut search,
            0.05,
        );
        assert_eq!(left.map(|p| p.total()), Some(50.0));
        let outcomes: Vec<(&str, &str)> = trace
            .decisions()
            .map(|d| (d.subject.as_str(), d.outcome.as_str()))
            .collect();
        assert_eq!(outcomes, [("b", "made"), ("a", "dropped by the search")]);
        let last = search.finish().pop().expect("a step");
        assert_eq!(
            (last.step.as_str(), last.workload_ru_per_second),
            ("extendedReference `a` dropped", 50.0)
        );
    }

    #[test]
    fn the_rounds_are_bounded() {
        let (a, b) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        rounds(&mut [changing(usize::MAX, &a), changing(usize::MAX, &b)]);
        assert_eq!((a.get(), b.get()), (ROUNDS, ROUNDS));
    }
}
