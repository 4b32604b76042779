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
    let (rules, optimised) = cosmap_mapper::map_both(model, options);
    let cost = cosmap_mapper::cost::estimate(model, &rules, &optimised, consistency);
    let html = cosmap_codegen::render_report(&optimised, &cost);
    std::fs::write(out, html).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
