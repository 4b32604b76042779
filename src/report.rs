//! `cosmap report`: maps the model both ways, estimates the three designs' cost and
//! writes the HTML page `cosmap_codegen::render_report` draws.

use std::path::Path;

use anyhow::Context as _;
use cosmap_domain::DomainModel;

use crate::cli::ConsistencyArg;

/// Writes the report of `model` to `out`.
pub fn run(model: &DomainModel, out: &Path, consistency: ConsistencyArg, index_all: bool) -> anyhow::Result<()> {
    let options = cosmap_mapper::Options {
        index_all,
        ..Default::default()
    };
    let rules = cosmap_mapper::map(
        model,
        &cosmap_mapper::Options {
            optimise: false,
            ..options.clone()
        },
    );
    let optimised = cosmap_mapper::map(model, &options);
    let cost = cosmap_mapper::cost::estimate(model, &rules, &optimised, crate::cost::level(consistency));
    let html = cosmap_codegen::render_report(&optimised, &cost);
    std::fs::write(out, html).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
