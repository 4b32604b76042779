//! `cosmap report`: one self-contained HTML page about a logical model — an
//! overview (containers, document types, the workload's RU/s under the three
//! designs, the warnings), an SVG diagram of the containers laid out in layers,
//! where the workload's RU/s go (by pattern and by container, on one scale), a bar
//! chart of every access pattern's cost under the three designs, each pattern's requests and
//! SQL, and the decisions with their evidence, filterable by rule.
//!
//! A model of more than 200 containers gets a summary page (`scope.rs`): the
//! containers and patterns that cost most in detail, the rest counted.
//!
//! Everything is drawn here, in Rust, as inline SVG: no script library, no
//! font, no request; the only script is the rule filter. Every text taken from
//! the model is HTML-escaped, and the same model gives the same bytes.

mod chart;
mod diagram;
mod html;
mod layout;
mod page;
mod scope;
mod sections;
mod spending;

use cosmap_mapper::cost::CostReport;
use cosmap_mapper::LogicalModel;

/// The report page for `model` (the optimised logical model) and its `cost`
/// estimate (the three designs, as [`cosmap_mapper::cost::estimate`] gives it).
pub fn render(model: &LogicalModel, cost: &CostReport) -> String {
    let scope = scope::Scope::of(model, cost);
    let mut out = page::open(&html::esc(&format!("{} · cosmap design report", model.model)));
    out.push_str(&sections::overview(model, cost, &scope));
    out.push_str(&sections::diagram(&scope.diagram_model(model)));
    out.push_str(&spending::section(cost, &scope));
    out.push_str(&sections::costs(cost, &scope));
    out.push_str(&sections::patterns(model, &scope));
    out.push_str(&sections::decisions(model, &scope));
    out.push_str(&page::close());
    out
}
