//! `cosmap report`: maps the model both ways, estimates the three designs' cost and
//! writes the HTML page `cosmap_codegen::render_report` draws.

use std::path::Path;

use anyhow::Context as _;
use cosmap_domain::DomainModel;

use cosmap_mapper::cost::Consistency;

/// Writes the report of `model`, mapped with `options`, to `out`.
pub fn run(
    model: &DomainModel,
    out: &Path,
    consistency: Consistency,
    options: &cosmap_mapper::Options,
) -> anyhow::Result<()> {
    let (optimised, cost) = cosmap_mapper::cost::map_and_cost(model, options, consistency);
    let html = cosmap_codegen::render_report(&optimised, &cost);
    std::fs::write(out, html).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
