//! What the page details. A model of at most [`WHOLE`] containers is shown whole;
//! past that the page is a summary with the details of what costs most: the
//! [`HEAVIEST`] containers and access patterns with the highest optimised RU/s
//! (ties by name), the first [`PER_RULE`] decisions of each rule and the first
//! [`HEAVIEST`] warnings, each list saying how many it leaves out and which command
//! prints them all. The page of a 20,000-aggregate model stays a few MB (the whole
//! page grows by about 18 KB per aggregate, and a browser takes minutes over it).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use cosmap_mapper::cost::CostReport;
use cosmap_mapper::LogicalModel;

use super::html::{esc, num};

/// Containers up to which the page shows every part of the model.
pub const WHOLE: usize = 200;
/// Containers and access patterns a summarised page details.
pub const HEAVIEST: usize = 50;
/// Decisions of each rule a summarised page lists.
pub const PER_RULE: usize = 20;
/// The command that lists every container, pattern and decision a summary leaves out.
pub const MODEL_JSON: &str = "cosmap model MODEL --format json";
/// The command that lists every pattern's and container's cost.
pub const COST_JSON: &str = "cosmap cost MODEL --format json";

/// The containers and patterns the page details: every one (`None`), or the heaviest.
pub struct Scope {
    containers: Option<BTreeSet<String>>,
    patterns: Option<BTreeSet<String>>,
}

impl Scope {
    /// The scope of the page for `model` and its `cost`.
    pub fn of(model: &LogicalModel, cost: &CostReport) -> Scope {
        if model.containers.len() <= WHOLE {
            return Scope {
                containers: None,
                patterns: None,
            };
        }
        let containers = cost
            .containers
            .optimised
            .iter()
            .map(|c| (c.name.as_str(), c.ru_per_second));
        let patterns = cost
            .patterns
            .iter()
            .map(|p| (p.name.as_str(), p.optimised.ru_per_second));
        Scope {
            containers: Some(heaviest(containers)),
            patterns: Some(heaviest(patterns)),
        }
    }

    /// Whether the page shows the whole model.
    pub fn whole(&self) -> bool {
        self.containers.is_none()
    }

    /// Whether the page details container `name`.
    pub fn container(&self, name: &str) -> bool {
        self.containers.as_ref().is_none_or(|shown| shown.contains(name))
    }

    /// Whether the page details access pattern `name`.
    pub fn pattern(&self, name: &str) -> bool {
        self.patterns.as_ref().is_none_or(|shown| shown.contains(name))
    }

    /// How many items of a list of `len` the page shows (warnings, a rule's decisions).
    pub fn cap(&self, len: usize, summarised: usize) -> usize {
        if self.whole() {
            len
        } else {
            len.min(summarised)
        }
    }

    /// The model the diagram draws: `model`, or its detailed containers alone.
    pub fn diagram_model<'m>(&self, model: &'m LogicalModel) -> Cow<'m, LogicalModel> {
        if self.whole() {
            return Cow::Borrowed(model);
        }
        Cow::Owned(LogicalModel {
            format_version: model.format_version,
            model: model.model.clone(),
            thresholds: model.thresholds,
            containers: model
                .containers
                .iter()
                .filter(|c| self.container(&c.name))
                .cloned()
                .collect(),
            operations: Vec::new(),
            decisions: Vec::new(),
        })
    }

    /// The note under the page's title: empty for a whole page, else what the
    /// summary details and where the rest is.
    pub fn note(&self, model: &LogicalModel) -> String {
        if self.whole() {
            return String::new();
        }
        format!(
            "<p class=\"warning\" id=\"summary-note\">A summary: this model has {} containers (more than {WHOLE}), so the page details the {HEAVIEST} containers and the {HEAVIEST} access patterns that cost most and the first {PER_RULE} decisions of each rule; the totals are the whole workload's. Every container and decision: <code>{MODEL_JSON}</code>; every pattern's cost: <code>{COST_JSON}</code>.</p>\n",
            num(model.containers.len() as f64)
        )
    }

    /// A line saying `shown` of `all` `what` are listed (empty when all are).
    pub fn left_out(shown: usize, all: usize, what: &str, command: &str) -> String {
        if shown == all {
            return String::new();
        }
        format!(
            "<p class=\"muted left-out\">{shown} of {} {} shown; all of them: <code>{}</code>.</p>\n",
            num(all as f64),
            esc(what),
            esc(command)
        )
    }

    /// How many decisions each rule made, for a summarised page's decisions section.
    pub fn rule_counts(model: &LogicalModel) -> String {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for d in &model.decisions {
            *counts.entry(d.rule.as_str()).or_default() += 1;
        }
        let mut out = String::from("<p class=\"muted\">Decisions by rule:");
        for (rule, n) in counts {
            let _ = write!(out, " {} {};", esc(rule), num(n as f64));
        }
        out.pop();
        out.push_str(".</p>\n");
        out
    }
}

/// The names of the [`HEAVIEST`] of `figures` (name, RU/s), the highest first, ties by name.
fn heaviest<'a>(figures: impl Iterator<Item = (&'a str, f64)>) -> BTreeSet<String> {
    let mut all: Vec<(&str, f64)> = figures.collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    all.into_iter()
        .take(HEAVIEST)
        .map(|(name, _)| name.to_string())
        .collect()
}
