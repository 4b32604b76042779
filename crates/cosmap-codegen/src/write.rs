//! Writing artefacts to disk only when their content changed (so cargo and
//! rust-analyzer do not loop), and checking whether files on disk are stale.

use std::path::{Path, PathBuf};

use crate::artefacts::Artefact;
use crate::error::CodegenError;

/// What happened, or would happen, to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FileStatus {
    /// On disk with the same content.
    Unchanged,
    /// Written (new or changed).
    Written,
    /// On disk with other content (check mode).
    Stale,
    /// Not on disk (check mode).
    Missing,
    /// A schema file under `schemas/` that is no longer generated; never deleted.
    Orphaned,
}

/// Writes each artefact under `out_dir` whose content differs from the file on disk.
pub fn write_all(out_dir: &Path, artefacts: &[Artefact]) -> Result<Vec<(PathBuf, FileStatus)>, CodegenError> {
    let mut report = Vec::new();
    for a in artefacts {
        let path = out_dir.join(&a.path);
        let status = if same_contents(&path, &a.contents) {
            FileStatus::Unchanged
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|source| CodegenError::Io {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
            std::fs::write(&path, &a.contents).map_err(|source| CodegenError::Io {
                path: path.clone(),
                source,
            })?;
            FileStatus::Written
        };
        report.push((a.path.clone(), status));
    }
    report.extend(orphans(out_dir, artefacts));
    Ok(report)
}

/// Compares each artefact with the file under `out_dir`, writing nothing.
pub fn check_all(out_dir: &Path, artefacts: &[Artefact]) -> Vec<(PathBuf, FileStatus)> {
    let mut report: Vec<(PathBuf, FileStatus)> = artefacts
        .iter()
        .map(|a| {
            let status = match read_at_most(&out_dir.join(&a.path), a.contents.len() as u64) {
                Ok(old) if old == a.contents.as_bytes() => FileStatus::Unchanged,
                Ok(_) => FileStatus::Stale,
                Err(_) => FileStatus::Missing,
            };
            (a.path.clone(), status)
        })
        .collect();
    report.extend(orphans(out_dir, artefacts));
    report
}

/// Whether the file at `path` holds exactly `contents`.
fn same_contents(path: &Path, contents: &str) -> bool {
    read_at_most(path, contents.len() as u64).is_ok_and(|old| old == contents.as_bytes())
}

/// At most one byte more than `limit` of the file: enough to tell whether it equals
/// content of that length, without reading a huge or endless file to its end.
fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    cosmap_domain::read_at_most(path, limit)
}

/// `.schema.json` files under `out_dir/schemas` that no artefact produces.
fn orphans(out_dir: &Path, artefacts: &[Artefact]) -> Vec<(PathBuf, FileStatus)> {
    let mut found = Vec::new();
    let root = out_dir.join("schemas");
    let Ok(containers) = std::fs::read_dir(&root) else {
        return found;
    };
    for container in containers.flatten() {
        let Ok(files) = std::fs::read_dir(container.path()) else {
            continue;
        };
        for file in files.flatten() {
            let Ok(relative) = file.path().strip_prefix(out_dir).map(Path::to_path_buf) else {
                continue;
            };
            let is_schema = relative.to_string_lossy().ends_with(".schema.json");
            if is_schema && !artefacts.iter().any(|a| a.path == relative) {
                found.push((relative, FileStatus::Orphaned));
            }
        }
    }
    found.sort();
    found
}
