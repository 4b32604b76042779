//! Adversarial inputs to the `cosmap` command: endless files, hostile names, partial
//! failures. Each test is a finding of issue 11 that must not come back.

mod support_cli;

use std::process::Command;
use std::time::{Duration, Instant};

use support_cli::{cosmap, repo, stderr, tempdir};

#[cfg(unix)]
#[test]
fn an_endless_file_is_refused_at_once() {
    let start = Instant::now();
    let out = cosmap(&["check", "/dev/zero"]);
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("more than 32 MiB"), "{}", stderr(&out));
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[cfg(unix)]
#[test]
fn an_endless_template_is_refused_at_once() {
    let dir = tempdir("endless-template");
    std::os::unix::fs::symlink("/dev/zero", dir.join("cosmap.rs.hbs")).unwrap();
    let out_dir = tempdir("endless-template-out");
    let start = Instant::now();
    let out = cosmap(&[
        "generate",
        "examples/ecommerce/model.json",
        "--out",
        out_dir.to_str().unwrap(),
        "--templates",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("larger than 1 MiB"), "{}", stderr(&out));
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn an_os_error_shows_its_cause_once() {
    let out = cosmap(&["check", "no-such-model.json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let cause = "No such file or directory";
    assert_eq!(err.matches(cause).count(), 1, "{err}");
}

#[test]
fn diagnostics_escape_terminal_and_text_direction_characters() {
    let dir = tempdir("escape");
    let model = dir.join("model.json");
    std::fs::write(
        &model,
        r#"{"name": "Shop", "entities": [{"name": "Or\u001b]0;owned\u0007der\u202e", "identity": "orderId"}], "aggregates": [{"root": "Order"}]}"#,
    )
    .unwrap();
    let out = cosmap(&["check", model.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!err.contains(raw), "raw {raw:?} echoed: {err:?}");
    }
    assert!(err.contains(r"Or\u{001B}]0;owned\u{0007}der\u{202E}"), "{err}");
}

#[test]
fn database_names_a_url_would_lose_are_refused_before_any_request() {
    // Port 9 (discard) is never contacted: the name is refused first.
    for database in [".", "..", "a\u{202e}b"] {
        let out = cosmap(&[
            "provision",
            "examples/ecommerce/model.json",
            "--endpoint",
            "http://127.0.0.1:9",
            "--database",
            database,
        ]);
        assert_eq!(out.status.code(), Some(2), "{database:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("is not valid"), "{}", stderr(&out));
        assert!(!stderr(&out).contains('\u{202e}'), "{}", stderr(&out));
    }
}

/// The database name `verify --endpoint` announces on stderr.
fn verify_database(err: &str) -> String {
    let start = err.find("the new database `").expect("the database is named") + "the new database `".len();
    err[start..].split('`').next().unwrap().to_string()
}

#[test]
fn two_verify_runs_started_together_use_two_databases() {
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_cosmap"))
            .args([
                "verify",
                "examples/ecommerce/model.json",
                "--endpoint",
                "https://127.0.0.1:1/",
            ])
            .current_dir(repo())
            .env_remove("COSMOS_ENDPOINT")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("cosmap starts")
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let (ea, eb) = (stderr(&a), stderr(&b));
    let (da, db) = (verify_database(&ea), verify_database(&eb));
    assert!(da.starts_with("Ecommerce-verify-"), "{da}");
    assert_ne!(da, db, "two runs share a database");
    // Nothing answers there; the hint names the flag verify reads, not COSMOS_ENDPOINT.
    assert_eq!(a.status.code(), Some(1), "{ea}");
    assert!(ea.contains("hint: is the Cosmos DB emulator"), "{ea}");
    assert!(ea.contains("--endpoint") && !ea.contains("COSMOS_ENDPOINT"), "{ea}");
}
