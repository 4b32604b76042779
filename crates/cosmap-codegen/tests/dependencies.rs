//! The generator is a build-dependency: generated data access depends on the Azure
//! SDK, the generator itself must not (`cargo tree -p cosmap-codegen`).

use std::process::Command;

#[test]
fn the_generator_depends_on_no_sdk_async_runtime_or_http_client() {
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
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.lines().any(|l| l.starts_with("handlebars ")), "{tree}");
    let unwanted: Vec<&str> = tree
        .lines()
        .filter(|l| {
            ["azure_", "tokio ", "reqwest ", "hyper ", "futures "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect();
    assert!(unwanted.is_empty(), "cosmap-codegen depends on {unwanted:?}");
}
