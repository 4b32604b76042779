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
/// it) until a round changes nothing, at most [`ROUNDS`]; records each step of the first
/// round in `search`, and each later run that changed the design. The design left,
/// priced when a step priced it.
pub(crate) fn run(
    steps: &mut [Step<'_>],
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    mut priced: Option<Priced>,
    search: &mut Search,
) -> Option<Priced> {
    let mut made = Made::new();
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
            priced = (step.weigh)(containers, trace, priced, &mut made, round == 1);
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

    #[test]
    fn the_rounds_are_bounded() {
        let (a, b) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        rounds(&mut [changing(usize::MAX, &a), changing(usize::MAX, &b)]);
        assert_eq!((a.get(), b.get()), (ROUNDS, ROUNDS));
    }
}
