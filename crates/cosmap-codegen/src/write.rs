//! Writing artefacts to disk only when their content changed (so cargo and
//! rust-analyzer do not loop), all or nothing (through a temporary directory),
//! and checking whether files on disk are stale.

use std::path::{Path, PathBuf};

use crate::artefacts::{Artefact, Pieces, Sink};
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
/// generated are reported as [`FileStatus::Orphaned`], never deleted. The report
/// is in path order, the orphans last.
pub fn write_all(out_dir: &Path, artefacts: &[Artefact]) -> Result<Vec<(PathBuf, FileStatus)>, CodegenError> {
    let mut out = OutputDir::write(out_dir);
    for a in artefacts {
        out.put(a)?;
    }
    out.finish()
}

/// [`write_all`] or [`check_all`] an artefact at a time, as they are rendered
/// ([`generate_each`](crate::generate_each)): each is compared with the file on
/// disk and, when writing and changed, written into the temporary directory at
/// once, so that only its path is kept; [`finish`](Self::finish) moves the written
/// files into place, all or nothing as [`write_all`] does.
pub struct OutputDir {
    out_dir: PathBuf,
    /// Compare only (`--check`), writing nothing.
    check: bool,
    /// Where the changed files are written, made at the first.
    staging: Option<Staging>,
    /// The changed files, by path relative to `out_dir`.
    changed: Vec<PathBuf>,
    /// Every artefact put, with its status.
    report: Vec<(PathBuf, FileStatus)>,
}

impl OutputDir {
    /// Writes the artefacts put under `out_dir` (all or nothing, at [`finish`](Self::finish)).
    pub fn write(out_dir: &Path) -> Self {
        Self::new(out_dir, false)
    }

    /// Compares the artefacts put with the files under `out_dir`, writing nothing.
    pub fn check(out_dir: &Path) -> Self {
        Self::new(out_dir, true)
    }

    fn new(out_dir: &Path, check: bool) -> Self {
        OutputDir {
            out_dir: out_dir.to_path_buf(),
            check,
            staging: None,
            changed: Vec::new(),
            report: Vec::new(),
        }
    }

    /// Compares `a` with its file and, when writing and changed, writes it into the
    /// temporary directory; nothing is moved into place before [`finish`](Self::finish).
    pub fn put(&mut self, a: &Artefact) -> Result<(), CodegenError> {
        let status = match read_at_most(&self.out_dir.join(&a.path), a.contents.len() as u64) {
            Ok(old) if old == a.contents.as_bytes() => FileStatus::Unchanged,
            Ok(_) if self.check => FileStatus::Stale,
            Err(_) if self.check => FileStatus::Missing,
            _ => FileStatus::Written,
        };
        if status == FileStatus::Written {
            let staging = match &mut self.staging {
                Some(staging) => staging,
                staging => staging.insert(Staging::create(&self.out_dir)?),
            };
            staging.write(&a.path, &a.contents)?;
            self.changed.push(a.path.clone());
        }
        self.report.push((a.path.clone(), status));
        Ok(())
    }

    /// Moves the written files into place (a file cannot replace a directory: found
    /// before anything is moved) and reports every file put, in path order, and the
    /// schemas on disk that none of them is ([`FileStatus::Orphaned`]).
    pub fn finish(self) -> Result<Vec<(PathBuf, FileStatus)>, CodegenError> {
        let OutputDir {
            out_dir,
            staging,
            changed,
            report,
            ..
        } = self;
        if let Some(staging) = staging {
            for path in &changed {
                let target = out_dir.join(path);
                if target.is_dir() {
                    return Err(io(
                        target,
                        std::io::Error::other("a directory is in the way of the generated file"),
                    ));
                }
            }
            for path in &changed {
                let target = out_dir.join(path);
                if let Some(dir) = target.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| io(dir.to_path_buf(), e))?;
                }
                std::fs::rename(staging.dir.join(path), &target).map_err(|e| io(target.clone(), e))?;
            }
        }
        let mut report = crate::artefacts::sorted_by_path(report, |(p, _)| p);
        let orphans = orphans(&out_dir, report.iter().map(|(p, _)| p.as_path()).collect());
        report.extend(orphans);
        Ok(report)
    }
}

impl Sink for OutputDir {
    fn put(&mut self, artefact: Artefact) -> Result<(), CodegenError> {
        OutputDir::put(self, &artefact)
    }

    /// Compares the pieces with the file as they come and, when writing, writes them
    /// into the temporary directory from the first that differs (with the file's
    /// bytes before it): no more than a piece is held.
    fn put_pieces(
        &mut self,
        path: &Path,
        write: &mut dyn FnMut(&mut dyn Pieces) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        let mut file = Streamed {
            old: old_file(&self.out_dir.join(path)),
            equal: 0,
            differs: false,
            staged: None,
            check: self.check,
            out_dir: &self.out_dir,
            staging: &mut self.staging,
            relative: path,
            scratch: Vec::new(),
        };
        let status = write(&mut file).and_then(|()| file.finish());
        let status = match status {
            Ok(status) => status,
            Err(e) => {
                file.discard();
                return Err(e);
            }
        };
        if status == FileStatus::Written {
            self.changed.push(path.to_path_buf());
        }
        self.report.push((path.to_path_buf(), status));
        Ok(())
    }
}

/// The file at `path` open for reading, if it is one.
fn old_file(path: &Path) -> Option<std::io::BufReader<std::fs::File>> {
    let file = std::fs::File::open(path).ok()?;
    file.metadata().ok()?.is_file().then(|| std::io::BufReader::new(file))
}

/// An artefact written a piece at a time ([`OutputDir`]'s `put_pieces`): compared
/// with its file as the pieces come, and written into the temporary directory from
/// the first difference.
struct Streamed<'o> {
    /// The file on disk, read as far as the pieces so far (while they are equal).
    old: Option<std::io::BufReader<std::fs::File>>,
    /// How many bytes of the pieces are the file's.
    equal: u64,
    /// Whether the pieces differ from the file.
    differs: bool,
    /// The file being written in the temporary directory, once they differ.
    staged: Option<(PathBuf, std::io::BufWriter<std::fs::File>)>,
    check: bool,
    out_dir: &'o Path,
    staging: &'o mut Option<Staging>,
    relative: &'o Path,
    /// The file's bytes read to compare with a piece.
    scratch: Vec<u8>,
}

impl Streamed<'_> {
    /// Whether the file's next `text.len()` bytes are `text`.
    fn same(&mut self, text: &[u8]) -> bool {
        use std::io::Read;
        let Some(old) = &mut self.old else {
            return false;
        };
        self.scratch.resize(text.len(), 0);
        old.read_exact(&mut self.scratch).is_ok() && self.scratch == text
    }

    /// The pieces differ from the file from here: when writing, the file in the
    /// temporary directory is started with the file's bytes before them.
    fn start_differing(&mut self) -> Result<(), CodegenError> {
        self.differs = true;
        if self.check {
            return Ok(());
        }
        let staging = match &mut *self.staging {
            Some(staging) => staging,
            staging => staging.insert(Staging::create(self.out_dir)?),
        };
        let path = staging.dir.join(self.relative);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io(dir.to_path_buf(), e))?;
        }
        let file = std::fs::File::create(&path).map_err(|e| io(path.clone(), e))?;
        let mut writer = std::io::BufWriter::new(file);
        if self.equal > 0 {
            let old = self.out_dir.join(self.relative);
            let from = std::fs::File::open(&old).map_err(|e| io(old.clone(), e))?;
            let mut before = std::io::Read::take(from, self.equal);
            std::io::copy(&mut before, &mut writer).map_err(|e| io(old, e))?;
        }
        self.staged = Some((path, writer));
        Ok(())
    }

    /// The file's status once every piece is written (its file flushed).
    fn finish(&mut self) -> Result<FileStatus, CodegenError> {
        if !self.differs {
            if self.at_end() {
                return Ok(FileStatus::Unchanged);
            }
            self.start_differing()?;
        }
        if let Some((path, writer)) = &mut self.staged {
            std::io::Write::flush(writer).map_err(|e| io(path.clone(), e))?;
        }
        Ok(match (self.check, self.old.is_some()) {
            (false, _) => FileStatus::Written,
            (true, true) => FileStatus::Stale,
            (true, false) => FileStatus::Missing,
        })
    }

    /// Whether the file has no byte past those compared (`false` with no file).
    fn at_end(&mut self) -> bool {
        let mut rest = [0u8; 1];
        let read = self.old.as_mut().map(|old| std::io::Read::read(old, &mut rest));
        matches!(read, Some(Ok(0)))
    }

    /// Removes the file begun in the temporary directory (the artefact failed).
    fn discard(&mut self) {
        if let Some((path, writer)) = self.staged.take() {
            drop(writer);
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Pieces for Streamed<'_> {
    fn push(&mut self, text: &str) -> Result<(), CodegenError> {
        if !self.differs {
            if self.same(text.as_bytes()) {
                self.equal += text.len() as u64;
                return Ok(());
            }
            self.start_differing()?;
        }
        match &mut self.staged {
            Some((path, writer)) => std::io::Write::write_all(writer, text.as_bytes()).map_err(|e| io(path.clone(), e)),
            None => Ok(()),
        }
    }

    fn restart(&mut self) -> Result<(), CodegenError> {
        self.discard();
        self.old = old_file(&self.out_dir.join(self.relative));
        (self.equal, self.differs) = (0, false);
        Ok(())
    }
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
    /// parent to sit beside, such as `.` or `/`), created along with that parent;
    /// `out_dir` itself is made when the first file is moved into it.
    fn create(out_dir: &Path) -> Result<Staging, CodegenError> {
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
        std::fs::create_dir_all(parent).map_err(|e| io(parent.to_path_buf(), e))?;
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

/// Compares each artefact with the file under `out_dir`, writing nothing; the
/// report in path order, the orphans last.
pub fn check_all(out_dir: &Path, artefacts: &[Artefact]) -> Vec<(PathBuf, FileStatus)> {
    let mut out = OutputDir::check(out_dir);
    for a in artefacts {
        // Comparing only reads: it cannot fail.
        let _ = out.put(a);
    }
    out.finish().unwrap_or_default()
}

/// At most one byte more than `limit` of the file: enough to tell whether it equals
/// content of that length, without reading a huge or endless file to its end.
fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    cosmap_domain::read_at_most(path, limit)
}

/// `.schema.json` files under `out_dir/schemas` that are not among `generated`.
fn orphans(out_dir: &Path, generated: std::collections::BTreeSet<&Path>) -> Vec<(PathBuf, FileStatus)> {
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
            if is_schema && !generated.contains(relative.as_path()) {
                found.push((relative, FileStatus::Orphaned));
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puts `text` at `a.rs` under `dir` in pieces of three bytes.
    fn put_in_pieces(out: &mut OutputDir, text: &str) -> Result<(), CodegenError> {
        Sink::put_pieces(out, Path::new("a.rs"), &mut |pieces| {
            for piece in text.as_bytes().chunks(3) {
                pieces.push(std::str::from_utf8(piece).expect("ASCII"))?;
            }
            Ok(())
        })
    }

    /// A file written a piece at a time is compared with the file on disk as the
    /// pieces come: unchanged when equal, else written whole (the file's equal bytes
    /// first), stale or missing when checking, what came before a restart forgotten,
    /// and nothing kept when the writing fails.
    #[test]
    fn an_artefact_in_pieces_is_compared_and_written_as_a_whole_one() {
        let dir = std::env::temp_dir().join(format!("cosmap-pieces-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let status = |text: &str, check: bool| {
            let mut out = if check {
                OutputDir::check(&dir)
            } else {
                OutputDir::write(&dir)
            };
            put_in_pieces(&mut out, text).expect("put");
            out.finish().expect("finished")[0].1
        };
        assert_eq!(status("fn a() {}\n", true), FileStatus::Missing);
        assert_eq!(status("fn a() {}\n", false), FileStatus::Written);
        assert_eq!(status("fn a() {}\n", false), FileStatus::Unchanged);
        for changed in ["fn a() {}\n// more\n", "fn a() {", "fn b() {}\n"] {
            assert_eq!(status(changed, true), FileStatus::Stale, "{changed}");
            assert_eq!(status(changed, false), FileStatus::Written, "{changed}");
            assert_eq!(std::fs::read_to_string(dir.join("a.rs")).expect("written"), changed);
        }
        let mut out = OutputDir::write(&dir);
        Sink::put_pieces(&mut out, Path::new("a.rs"), &mut |pieces| {
            pieces.push("fn other() {}\n")?;
            pieces.restart()?;
            pieces.push("fn b() {}\n")
        })
        .expect("put");
        assert_eq!(
            out.finish().expect("finished")[0].1,
            FileStatus::Unchanged,
            "started again"
        );
        let mut out = OutputDir::write(&dir);
        let failed = Sink::put_pieces(&mut out, Path::new("a.rs"), &mut |pieces| {
            pieces.push("fn c() {}\n")?;
            Err(CodegenError::FileNames("the render failed".into()))
        });
        assert!(matches!(failed, Err(CodegenError::FileNames(_))));
        assert!(out.finish().expect("finished").is_empty());
        assert_eq!(std::fs::read_to_string(dir.join("a.rs")).expect("kept"), "fn b() {}\n");
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}
