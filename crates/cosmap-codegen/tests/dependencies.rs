//! The generator is a build-dependency: generated data access depends on the Azure
//! SDK, the generator itself must not (`cargo tree -p cosmap-codegen`); and by
//! default it compiles no template engine or Rust parser (the built-in artefacts are
//! written by Rust emitters; the JSON ones by `serde_json`, its maps ordered).

use std::process::Command;

/// `cargo tree -p cosmap-codegen -e normal` with `features` (`""`: the default), one
/// package a line.
fn tree(features: &str) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "-p",
            "cosmap-codegen",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--offline",
            "--features",
            features,
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The lines of `tree` that start with one of `prefixes`.
fn starting_with<'t>(tree: &'t str, prefixes: &[&str]) -> Vec<&'t str> {
    tree.lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect()
}

#[test]
fn by_default_the_generator_compiles_no_template_engine_or_parser() {
    let default = tree("");
    let unwanted = starting_with(&default, &["handlebars ", "pest", "prettyplease "]);
    assert!(unwanted.is_empty(), "cosmap-codegen depends on {unwanted:?} by default");
    // The same listing names handlebars when a feature asks for it.
    assert!(tree("templates").lines().any(|l| l.starts_with("handlebars ")));
}

#[test]
fn the_generator_depends_on_no_sdk_async_runtime_or_http_client() {
    let tree = tree("templates data-access format");
    let unwanted = starting_with(&tree, &["azure_", "tokio ", "reqwest ", "hyper ", "futures "]);
    assert!(unwanted.is_empty(), "cosmap-codegen depends on {unwanted:?}");
}
