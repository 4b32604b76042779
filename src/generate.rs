//! `cosmap generate`: render every artefact into a directory, or check it is up to date.

use std::path::Path;

use anyhow::bail;
use cosmap_codegen::{FileStatus, OutputDir, Templates, TypeMapping};
use cosmap_domain::DomainModel;

/// Writes (or with `check`, compares) every artefact of `model` under `out`, the
/// Rust types with the `KIND=CRATE` type mappings `types` (and with `data_access`,
/// `cosmap_data.rs`). Each artefact is written (or compared) as it is rendered, the
/// data access and `cosmap.rs` a piece at a time, and the domain model is dropped
/// once mapped: what a large model holds at once.
pub fn run(
    model: DomainModel,
    out: &Path,
    templates: Option<&Path>,
    check: bool,
    options: &cosmap_mapper::Options,
    types: &[String],
    data_access: bool,
) -> anyhow::Result<()> {
    let mut mapping = TypeMapping {
        data_access,
        ..TypeMapping::default()
    };
    for spec in types {
        mapping.apply(spec)?;
    }
    let logical = cosmap_mapper::map(&model, options);
    drop(model);
    let templates = Templates::load(templates)?;
    let mut files = if check {
        OutputDir::check(out)
    } else {
        OutputDir::write(out)
    };
    cosmap_codegen::generate_to(&logical, &mapping, &templates, &mut files)?;
    let report = files.finish()?;
    let count = |status| report.iter().filter(|(_, s)| *s == status).count();
    for (path, status) in &report {
        let shown = out.join(path);
        match status {
            FileStatus::Written => println!("wrote     {}", shown.display()),
            FileStatus::Stale => println!("stale     {}", shown.display()),
            FileStatus::Missing => println!("missing   {}", shown.display()),
            FileStatus::Orphaned => println!(
                "orphaned  {} (no longer generated; delete it if nothing uses it)",
                shown.display()
            ),
            FileStatus::Unchanged => {}
        }
    }
    let unchanged = count(FileStatus::Unchanged);
    if check {
        let stale = count(FileStatus::Stale) + count(FileStatus::Missing) + count(FileStatus::Orphaned);
        if stale > 0 {
            bail!(
                "{stale} generated file(s) in `{}` are out of date; run `cosmap generate` without `--check`",
                out.display()
            );
        }
        println!("{} files in `{}` are up to date", unchanged, out.display());
    } else {
        println!(
            "{} written, {} unchanged in `{}`",
            count(FileStatus::Written),
            unchanged,
            out.display()
        );
    }
    Ok(())
}
