//! The search as it went: the workload after each step of the optimised map, in the
//! order the steps ran, so `cosmap cost` can show where the RU/s went.

use serde::Serialize;

use super::Priced;

/// One step of the search and the workload it left.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchStep {
    /// What the step did, in words: "partition keys and copies", "feeds", …
    pub step: String,
    /// The rules the step weighed (`partitionKey`, `copy`; `feed`; …), as decisions name them.
    pub rules: Vec<crate::decision::Rule>,
    /// RU/s of the whole workload in the design the step left.
    pub workload_ru_per_second: f64,
}

/// The steps recorded so far.
#[derive(Debug, Default)]
pub(crate) struct Search {
    steps: Vec<SearchStep>,
}

impl Search {
    /// Records that the step weighing `rules` left `priced` (nothing when it priced no
    /// design: it changed nothing, and the workload is the one before).
    pub(crate) fn after(&mut self, step: &str, rules: &[crate::decision::Rule], priced: &Option<Priced>) {
        let workload = priced
            .as_ref()
            .map(Priced::total)
            .or_else(|| self.steps.last().map(|s| s.workload_ru_per_second));
        if let Some(workload) = workload {
            self.record(step, rules, workload);
        }
    }

    /// Records that the step weighing `rules` left a workload of `workload` RU/s.
    pub(crate) fn record(&mut self, step: &str, rules: &[crate::decision::Rule], workload: f64) {
        self.steps.push(SearchStep {
            step: step.to_string(),
            rules: rules.to_vec(),
            workload_ru_per_second: crate::cost::units::round(workload),
        });
    }

    /// How many steps are recorded.
    pub(crate) fn len(&self) -> usize {
        self.steps.len()
    }

    /// `other`'s steps in place of those recorded after the first `len`: a search
    /// taken again from there.
    pub(crate) fn replace_from(&mut self, len: usize, other: Search) {
        self.steps.truncate(len);
        self.steps.extend(other.steps);
    }

    /// The steps, in order.
    pub(crate) fn finish(self) -> Vec<SearchStep> {
        self.steps
    }
}
