//! Provisioning is never destructive: no code path deletes (or, so, recreates) a
//! database, container or item. This fails as soon as the crate's source names any
//! of the SDK's delete operations.

use std::path::Path;

/// The SDK's delete operations and their options, and a raw HTTP DELETE.
const DELETE_APIS: [&str; 9] = [
    ".delete(",
    "delete_item",
    "delete_container",
    "delete_database",
    "DeleteContainerOptions",
    "DeleteDatabaseOptions",
    "BatchDeleteOptions",
    "Method::Delete",
    "DELETE",
];

fn sources(dir: &Path, found: &mut Vec<(String, String)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            found.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn the_source_never_calls_a_delete_api() {
    let mut files = vec![];
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() >= 8, "the scan found too few files: {}", files.len());
    assert!(
        files.iter().any(|(_, text)| text.contains("create_container(")),
        "the scan does not see the code it should"
    );
    let mut hits = vec![];
    for (path, text) in &files {
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for api in DELETE_APIS {
                if code.contains(api) {
                    hits.push(format!("{path}:{}: `{api}` in {}", number + 1, line.trim()));
                }
            }
        }
    }
    assert!(hits.is_empty(), "provisioning must never delete:\n{}", hits.join("\n"));
}
