//! Writing artefacts to disk only when their content changed (so cargo and
//! rust-analyzer do not loop), all or nothing (through a temporary directory),
//! and checking whether files on disk are stale.

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

/// Writes each artefact under `out_dir` whose content differs from the file on disk,
/// all or nothing: the changed files are first written into a temporary directory
/// beside `out_dir` (same file system), and only when every one of them is written
/// are they renamed into place, file by file. A failure before that leaves the
/// previous output whole and removes the temporary directory. Unchanged files are
/// not touched (so cargo and rust-analyzer see no change); schemas no longer
/// generated are reported as [`FileStatus::Orphaned`], never deleted.
pub fn write_all(out_dir: &Path, artefacts: &[Artefact]) -> Result<Vec<(PathBuf, FileStatus)>, CodegenError> {
    let mut report = Vec::new();
    let mut changed = Vec::new();
    for a in artefacts {
        if same_contents(&out_dir.join(&a.path), &a.contents) {
            report.push((a.path.clone(), FileStatus::Unchanged));
        } else {
            report.push((a.path.clone(), FileStatus::Written));
            changed.push(a);
        }
    }
    if !changed.is_empty() {
        let staging = Staging::create(out_dir)?;
        for a in &changed {
            staging.write(&a.path, &a.contents)?;
        }
        // A file cannot replace a directory: found before anything is moved.
        for a in &changed {
            let target = out_dir.join(&a.path);
            if target.is_dir() {
                return Err(io(
                    target,
                    std::io::Error::other("a directory is in the way of the generated file"),
                ));
            }
        }
        for a in &changed {
            let target = out_dir.join(&a.path);
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|e| io(dir.to_path_buf(), e))?;
            }
            std::fs::rename(staging.dir.join(&a.path), &target).map_err(|e| io(target.clone(), e))?;
        }
    }
    report.extend(orphans(out_dir, artefacts));
    Ok(report)
}

fn io(path: PathBuf, source: std::io::Error) -> CodegenError {
    CodegenError::Io { path, source }
}

/// The temporary directory new files are written into before they are moved into
/// place; removed (with whatever it still holds) when dropped.
struct Staging {
    dir: PathBuf,
}

impl Staging {
    /// A new, empty directory beside `out_dir` (inside it when `out_dir` has no
    /// parent to sit beside, such as `.` or `/`), created along with `out_dir`.
    fn create(out_dir: &Path) -> Result<Staging, CodegenError> {
        std::fs::create_dir_all(out_dir).map_err(|e| io(out_dir.to_path_buf(), e))?;
        let (parent, stem) = match (out_dir.parent(), out_dir.file_name()) {
            (Some(parent), Some(name)) => (
                if parent.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    parent
                },
                format!(".{}", name.to_string_lossy()),
            ),
            _ => (out_dir, String::new()),
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        for attempt in 0..100u32 {
            let dir = parent.join(format!(
                "{stem}.cosmap-generate-{}-{nanos}-{attempt}",
                std::process::id()
            ));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Staging { dir }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io(dir, e)),
            }
        }
        Err(io(
            parent.to_path_buf(),
            std::io::Error::other("no free name for a temporary directory"),
        ))
    }

    fn write(&self, relative: &Path, contents: &str) -> Result<(), CodegenError> {
        let path = self.dir.join(relative);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io(dir.to_path_buf(), e))?;
        }
        std::fs::write(&path, contents).map_err(|e| io(path.clone(), e))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
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
