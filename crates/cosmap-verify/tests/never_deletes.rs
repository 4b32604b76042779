//! Verify leaves what it creates for the user: no code path deletes a database or a
//! container. The one delete it sends is an access pattern's own `delete` write, of
//! a sample document it wrote itself into the database it created.

use std::path::{Path, PathBuf};

const FORBIDDEN: [&str; 7] = [
    ".delete(",
    "delete_container",
    "delete_database",
    "DeleteContainerOptions",
    "DeleteDatabaseOptions",
    "Method::Delete",
    "DELETE",
];

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn the_source_deletes_no_database_or_container_and_items_in_one_place() {
    let mut paths = vec![];
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut paths);
    let files = paths.len();
    let mut hits = vec![];
    let mut item_deletes = vec![];
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let place = format!("{}:{}", path.display(), number + 1);
            hits.extend(
                FORBIDDEN
                    .iter()
                    .filter(|api| code.contains(*api))
                    .map(|api| format!("{place}: {api}")),
            );
            if code.contains("delete_item") {
                item_deletes.push(place);
            }
        }
    }
    assert!(files >= 8, "the scan found too few files: {files}");
    assert!(
        hits.is_empty(),
        "verify must not delete databases or containers:\n{}",
        hits.join("\n")
    );
    assert_eq!(item_deletes.len(), 1, "{item_deletes:?}");
    assert!(item_deletes[0].contains("writes.rs"), "{item_deletes:?}");
}
