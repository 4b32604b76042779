//! Build-time generation costs nothing when nothing changed: a second
//! `cargo build` of `examples/ecommerce-app` neither re-runs its build script
//! (the generation step) nor recompiles the crate. Checked from `cargo build -v`,
//! in a target directory of its own (the outer `cargo test` holds the main one).

use std::path::Path;
use std::process::Command;

fn build_verbose(target: &Path) -> String {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "-v", "-p", "ecommerce-app", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "cargo build failed:\n{stderr}");
    stderr
}

#[test]
fn a_noop_rebuild_of_the_example_app_neither_generates_nor_compiles() {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("noop-rebuild");
    build_verbose(&target);
    let second = build_verbose(&target);
    // A second build of the app's dependencies: half a GB that nothing else reads.
    let _ = std::fs::remove_dir_all(&target);
    let relevant: Vec<&str> = second.lines().filter(|l| l.contains("ecommerce")).collect();
    assert!(
        relevant
            .iter()
            .any(|l| l.trim_start().starts_with("Fresh ecommerce-app")),
        "the crate is not reported fresh:\n{second}"
    );
    for line in &relevant {
        let line = line.trim_start();
        assert!(
            !line.starts_with("Compiling") && !line.starts_with("Dirty") && !line.starts_with("Running"),
            "a no-op rebuild did work: `{line}`\n{second}"
        );
    }
}
