//! `write_all` is all or nothing: a failure while writing leaves the previous
//! output whole, and nothing of the temporary directory behind.

use std::path::{Path, PathBuf};

use cosmap_codegen::{check_all, write_all, Artefact, FileStatus};

fn dir(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("cosmap-write-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    root
}

fn artefact(path: &str, contents: &str) -> Artefact {
    Artefact {
        path: PathBuf::from(path),
        contents: contents.to_string(),
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// Everything in `root`, names only, sorted.
fn listing(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_failure_midway_leaves_the_previous_output_whole() {
    let root = dir("failure");
    let out = root.join("gen");
    let old = [
        artefact("a.txt", "old a\n"),
        artefact("schemas/X/X.schema.json", "{}\n"),
    ];
    write_all(&out, &old).unwrap();

    // `b` as a file and `b/c` inside it cannot both be written: the second fails
    // after `a.txt` and the schema are already written (into the temporary directory).
    let new = [
        artefact("a.txt", "new a\n"),
        artefact("b", "file\n"),
        artefact("b/c", "nested\n"),
        artefact("schemas/X/X.schema.json", "{\"new\": true}\n"),
    ];
    let err = write_all(&out, &new).unwrap_err().to_string();
    assert!(err.contains("cannot access"), "{err}");
    assert_eq!(read(&out.join("a.txt")), "old a\n", "nothing was replaced");
    assert_eq!(read(&out.join("schemas/X/X.schema.json")), "{}\n");
    assert!(!out.join("b").exists());
    assert_eq!(listing(&root), ["gen"], "the temporary directory is gone");
}

#[test]
fn a_directory_in_the_way_is_found_before_anything_moves() {
    let root = dir("in-the-way");
    let out = root.join("gen");
    write_all(&out, &[artefact("a.txt", "old\n")]).unwrap();
    std::fs::create_dir_all(out.join("z.txt")).unwrap();
    let err = write_all(&out, &[artefact("a.txt", "new\n"), artefact("z.txt", "z\n")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("a directory is in the way"), "{err}");
    assert_eq!(read(&out.join("a.txt")), "old\n");
    assert_eq!(listing(&root), ["gen"]);
}

#[test]
fn only_changed_files_are_written_and_orphans_are_kept() {
    let root = dir("changes");
    let out = root.join("gen");
    let first = [artefact("a.txt", "a\n"), artefact("schemas/X/Old.schema.json", "{}\n")];
    let report = write_all(&out, &first).unwrap();
    assert!(report.iter().all(|(_, s)| *s == FileStatus::Written), "{report:?}");

    let modified = std::fs::metadata(out.join("a.txt")).unwrap().modified().unwrap();
    let second = [artefact("a.txt", "a\n"), artefact("b.txt", "b\n")];
    let report = write_all(&out, &second).unwrap();
    assert_eq!(
        report,
        [
            (PathBuf::from("a.txt"), FileStatus::Unchanged),
            (PathBuf::from("b.txt"), FileStatus::Written),
            (PathBuf::from("schemas/X/Old.schema.json"), FileStatus::Orphaned),
        ]
    );
    assert_eq!(
        std::fs::metadata(out.join("a.txt")).unwrap().modified().unwrap(),
        modified,
        "an unchanged file is not rewritten"
    );
    assert!(out.join("schemas/X/Old.schema.json").exists(), "never deleted");
    assert!(check_all(&out, &second)
        .iter()
        .all(|(_, s)| matches!(s, FileStatus::Unchanged | FileStatus::Orphaned)));
    assert_eq!(listing(&root), ["gen"]);
}

#[test]
fn a_relative_directory_without_a_parent_works() {
    let root = dir("relative");
    let out = root.join("gen");
    std::fs::create_dir_all(&out).unwrap();
    // `.` has no file name: the temporary directory goes inside it.
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "write_dot_helper", "--ignored", "--nocapture"])
        .current_dir(&out)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(listing(&out), ["x.txt"]);
}

/// Run by [`a_relative_directory_without_a_parent_works`] in its own directory.
#[test]
#[ignore = "run by a_relative_directory_without_a_parent_works"]
fn write_dot_helper() {
    write_all(Path::new("."), &[artefact("x.txt", "x\n")]).unwrap();
}
