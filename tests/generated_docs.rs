//! The generated modules document cleanly: `cargo doc` with `RUSTDOCFLAGS="-D
//! warnings"` of `examples/ecommerce-app` and `examples/tricky-names` (each includes
//! its generated `cosmap.rs` and `cosmap_data.rs`) succeeds — every intra-doc link
//! resolves, no description reads as a bare URL or an HTML tag — and the
//! descriptions tricky-names writes to inject HTML and links render as their text.
//! In a target directory of its own (the outer `cargo test` holds the main one),
//! kept between runs so that a second run only documents the two crates.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `cargo doc` of the two example crates into `target`; its stderr on failure.
fn document(target: &Path) -> Result<(), String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "doc",
            "--no-deps",
            "-p",
            "ecommerce-app",
            "-p",
            "tricky-names",
            "--manifest-path",
        ])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTDOCFLAGS", "-D warnings")
        .env_remove("RUSTFLAGS")
        .output()
        .map_err(|e| format!("cargo does not run: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

fn page(target: &Path, path: &str) -> String {
    let file: PathBuf = target.join("doc").join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

#[test]
fn generated_modules_document_without_warnings_and_descriptions_stay_text() {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated-docs");
    if let Err(stderr) = document(&target) {
        panic!("cargo doc -D warnings failed:\n{stderr}");
    }
    // The link of the data module's doc to its `Database` resolves.
    let data = page(&target, "ecommerce_app/data/index.html");
    assert!(data.contains("struct.Database.html"), "no link to Database");
    // tricky-names' `aBC` description: `<script>`, `<img>`, a Markdown link, a code
    // span and bare URLs, shown as text.
    let option = page(&target, "tricky_names/option/struct.Option.html");
    assert!(
        option.contains("&lt;script&gt;alert(") && option.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "the description is not shown as text"
    );
    assert!(
        option.contains("[a link](https://example.com/x)"),
        "the Markdown link is not shown as text"
    );
    assert!(option.contains("`code`"), "the code span is not shown as text");
    for live in [
        "<script>alert",
        "<img src=x",
        "href=\"https://example.com/x\"",
        "<code>code</code>",
    ] {
        assert!(!option.contains(live), "`{live}` reached the page");
    }
    // The pattern named as HTML is quoted as code, never markup.
    let database = page(&target, "tricky_names/data/struct.Database.html");
    assert!(
        database.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "the pattern name is not text"
    );
    assert!(
        !database.contains("<img src=x"),
        "the pattern name's tag reached the page"
    );
    assert!(
        database.contains("ñandú_por_id"),
        "the non-ASCII method is not documented"
    );
}
