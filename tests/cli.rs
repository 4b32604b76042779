//! The `cosmap` command as a user runs it, on the bundled examples.

mod support_cli;

use std::path::Path;

use support_cli::{cosmap, repo, stdout, tempdir};

/// Compares `actual` with a committed file; `COSMAP_BLESS=1` rewrites the file.
fn assert_matches_file(actual: &str, relative: &str) {
    let path = repo().join(relative);
    if std::env::var_os("COSMAP_BLESS").is_some() {
        std::fs::write(&path, actual).expect("write expected file");
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "output differs from {relative}; review it and run with COSMAP_BLESS=1 if the change is intended\n--- actual ---\n{actual}"
    );
}

#[test]
fn check_accepts_every_example() {
    for example in ["ecommerce", "iot-fleet", "publishing"] {
        let path = format!("examples/{example}/model.json");
        let out = cosmap(&["check", &path]);
        assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout(&out).contains("is valid"), "{}", stdout(&out));
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn model_json_is_the_committed_contract() {
    let out = cosmap(&["model", "examples/ecommerce/model.json", "--format", "json"]);
    assert!(out.status.success());
    assert_matches_file(&stdout(&out), "examples/ecommerce/logical-model.json");
    let again = cosmap(&["model", "examples/ecommerce/model.json", "--format", "json"]);
    assert_eq!(out.stdout, again.stdout, "byte-identical on every run");
}

#[test]
fn model_text_fits_80_columns_and_explains_every_rule() {
    let out = cosmap(&["model", "examples/ecommerce/model.json"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line:?}");
    }
    for rule in [
        "MR1 ",
        "MR2 ",
        "MR3 ",
        "MR4 ",
        "MR5 ",
        "MR6 ",
        "copy ",
        "embedReferenceData ",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(rule)),
            "no {rule}decision in:\n{text}"
        );
    }
    assert!(text.starts_with("Ecommerce: 6 containers"));
    assert_matches_file(&text, "examples/ecommerce/logical-model.txt");
}

#[test]
fn no_optimise_leaves_out_copies() {
    let out = cosmap(&[
        "model",
        "examples/ecommerce/model.json",
        "--no-optimise",
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let roles: Vec<&str> = model["containers"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["documentTypes"].as_array().unwrap())
        .map(|d| d["role"].as_str().unwrap())
        .collect();
    assert!(!roles.contains(&"copy"));
    // 12 entities and separated value objects, and the claims on `email` and `sku`.
    assert_eq!(roles.iter().filter(|r| **r == "claim").count(), 2);
    assert_eq!(roles.len(), 16);
}

#[test]
fn schema_is_the_committed_schema_and_describes_the_examples() {
    let out = cosmap(&["schema"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_matches_file(&text, "schema/cosmap-model.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema["additionalProperties"], false,
        "unknown fields are rejected by editors too"
    );
    for section in [
        "entities",
        "valueObjects",
        "aggregates",
        "relationships",
        "accessPatterns",
    ] {
        assert!(schema["properties"][section].is_object(), "{section}");
    }
    let example: serde_json::Value =
        serde_json::from_slice(&std::fs::read(repo().join("examples/ecommerce/model.json")).unwrap()).unwrap();
    let reference = Path::new("examples/ecommerce").join(example["$schema"].as_str().unwrap());
    assert!(
        repo().join(reference).exists(),
        "the example's $schema points at the schema file"
    );
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(cosmap(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(cosmap(&["model"]).status.code(), Some(2));
    assert_eq!(cosmap(&["model", "x.json", "--format", "yaml"]).status.code(), Some(2));
    let help = cosmap(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("Exit codes"));
}

#[test]
fn the_committed_generated_files_are_up_to_date() {
    let out = cosmap(&[
        "generate",
        "examples/ecommerce/model.json",
        "--out",
        "examples/ecommerce/generated",
        "--check",
        "--data-access",
    ]);
    assert!(
        out.status.success(),
        "{}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("22 files"), "{}", stdout(&out));
}

#[test]
fn data_access_is_written_on_request() {
    let dir = tempdir("data-access");
    let out_dir = dir.to_str().unwrap();
    let plain = cosmap(&["generate", "examples/ecommerce/model.json", "--out", out_dir]);
    assert!(plain.status.success());
    assert!(!dir.join("cosmap_data.rs").exists(), "only with --data-access");
    let with = cosmap(&[
        "generate",
        "examples/ecommerce/model.json",
        "--out",
        out_dir,
        "--data-access",
    ]);
    assert!(with.status.success());
    assert!(stdout(&with).contains("1 written, 21 unchanged"), "{}", stdout(&with));
    let data = std::fs::read_to_string(dir.join("cosmap_data.rs")).unwrap();
    assert!(data.contains("pub mod data {"), "{data}");
    assert!(data.contains("pub async fn orders_of_an_account("));
    assert!(data.contains("pub struct OrderRepository"));
    assert!(data.contains("pub struct OrderToAccountWorker"));
    // A post that keeps its newest comments has a repository whose save recomputes them.
    let subset = cosmap(&[
        "generate",
        "examples/patterns/subset/model.json",
        "--out",
        out_dir,
        "--data-access",
    ]);
    assert!(subset.status.success());
    let data = std::fs::read_to_string(dir.join("cosmap_data.rs")).unwrap();
    assert!(data.contains("pub struct PostRepository"), "{data}");
    assert!(data.contains("fn recompute(&mut self)"), "{data}");
    // An order written with its tickets is a typed function, claims first.
    let ticketing = cosmap(&[
        "generate",
        "examples/ticketing/model.json",
        "--out",
        out_dir,
        "--data-access",
    ]);
    assert!(ticketing.status.success());
    let data = std::fs::read_to_string(dir.join("cosmap_data.rs")).unwrap();
    assert!(!data.contains("/// Not generated"), "{data}");
    assert!(data.contains("pub async fn place_an_order("), "{data}");
    assert!(data.contains("pub struct OrderRepository"), "{data}");
    // A short form whose references are followed per result: items of its row.
    let short_form = cosmap(&[
        "generate",
        "crates/cosmap-verify/tests/models/short-form-with-kept-name-and-count.json",
        "--out",
        out_dir,
        "--data-access",
    ]);
    assert!(short_form.status.success());
    let data = std::fs::read_to_string(dir.join("cosmap_data.rs")).unwrap();
    assert!(!data.contains("/// Not generated"), "{data}");
    assert!(data.contains("pub post: NewestPostsInATopicRow,"), "{data}");
}

#[test]
fn generate_writes_only_changes_and_check_finds_stale_files() {
    let dir = tempdir("generate");
    let out_dir = dir.to_str().unwrap();
    let first = cosmap(&["generate", "examples/ecommerce/model.json", "--out", out_dir]);
    assert!(first.status.success());
    assert!(stdout(&first).contains("21 written, 0 unchanged"), "{}", stdout(&first));
    let second = cosmap(&["generate", "examples/ecommerce/model.json", "--out", out_dir]);
    assert!(
        stdout(&second).contains("0 written, 21 unchanged"),
        "{}",
        stdout(&second)
    );

    std::fs::write(dir.join("model.mmd"), "edited by hand\n").unwrap();
    let orphan = dir.join("schemas/Account/Gone.schema.json");
    std::fs::write(&orphan, "{}").unwrap();
    let check = cosmap(&["generate", "examples/ecommerce/model.json", "--out", out_dir, "--check"]);
    assert_eq!(check.status.code(), Some(1));
    let text = stdout(&check);
    assert!(text.contains("stale") && text.contains("model.mmd"), "{text}");
    assert!(text.contains("orphaned") && text.contains("Gone.schema.json"), "{text}");
    assert!(String::from_utf8_lossy(&check.stderr).contains("out of date"));
    assert_eq!(
        std::fs::read_to_string(dir.join("model.mmd")).unwrap(),
        "edited by hand\n",
        "--check writes nothing"
    );

    let again = cosmap(&["generate", "examples/ecommerce/model.json", "--out", out_dir]);
    assert!(stdout(&again).contains("1 written"), "{}", stdout(&again));
    assert!(orphan.exists(), "generate never deletes a file");
}

#[test]
fn model_mermaid_is_the_generated_diagram() {
    let out = cosmap(&["model", "examples/ecommerce/model.json", "--format", "mermaid"]);
    assert!(out.status.success());
    let expected = std::fs::read_to_string(repo().join("examples/ecommerce/generated/model.mmd")).unwrap();
    assert_eq!(stdout(&out), expected);
    assert!(expected.contains("flowchart LR"));
    assert!(expected.contains("==>|\"copy by account.id, change feed\"|"));
}

#[test]
fn a_missing_template_directory_is_a_failure_not_a_crash() {
    let out = cosmap(&[
        "generate",
        "examples/ecommerce/model.json",
        "--out",
        tempdir("templates").to_str().unwrap(),
        "--templates",
        "no-such-dir",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-dir"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn cost_compares_three_designs() {
    let out = cosmap(&["cost", "examples/ecommerce/model.json", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let patterns = report["patterns"].as_array().unwrap();
    assert_eq!(patterns.len(), 17, "one per access pattern");
    let orders = patterns.iter().find(|p| p["name"] == "orders of an account").unwrap();
    assert_eq!(orders["naive"]["operation"], "crossPartitionQuery");
    assert_eq!(orders["rules"]["operation"], "crossPartitionQuery");
    assert_eq!(orders["optimised"]["operation"], "singlePartitionQuery");
    assert!(orders["optimised"]["ru"].as_f64().unwrap() < orders["rules"]["ru"].as_f64().unwrap());
    for design in ["naive", "rules", "optimised"] {
        assert!(report["totals"][design].as_f64().unwrap() > 0.0, "{design}");
    }
    assert!(!report["assumptions"].as_array().unwrap().is_empty());

    let text = cosmap(&["cost", "examples/ecommerce/model.json"]);
    assert!(text.status.success());
    let text = stdout(&text);
    assert!(
        text.contains("Workload total (RU/s)") && text.contains("Assumptions"),
        "{text}"
    );
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "too wide: {line:?}");
    }
    let strong = cosmap(&[
        "cost",
        "examples/ecommerce/model.json",
        "--format",
        "json",
        "--consistency",
        "strong",
    ]);
    let strong: serde_json::Value = serde_json::from_slice(&strong.stdout).unwrap();
    assert_eq!(strong["consistency"], "strong");
    assert!(strong["totals"]["optimised"].as_f64() > report["totals"]["optimised"].as_f64());
    // Consistency levels by the names Cosmos DB gives them, never a Debug name.
    for (flag, shown) in [
        ("boundedStaleness", "boundedStaleness"),
        ("bounded-staleness", "boundedStaleness"),
        ("consistentPrefix", "consistentPrefix"),
    ] {
        let out = cosmap(&["cost", "examples/ecommerce/model.json", "--consistency", flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("({shown} consistency)")), "{flag}: {text}");
    }
}

#[test]
fn index_all_keeps_the_default_indexing_policy() {
    let out = cosmap(&[
        "model",
        "examples/ecommerce/model.json",
        "--index-all",
        "--format",
        "json",
    ]);
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for c in model["containers"].as_array().unwrap() {
        assert_eq!(c["indexingPolicy"]["includedPaths"][0]["path"], "/*", "{}", c["name"]);
    }
    let narrow = cosmap(&["model", "examples/ecommerce/model.json", "--format", "json"]);
    let narrow: serde_json::Value = serde_json::from_slice(&narrow.stdout).unwrap();
    assert_eq!(
        narrow["containers"][0]["indexingPolicy"]["excludedPaths"][0]["path"],
        "/*"
    );
}

#[test]
fn report_writes_one_html_file_and_reports_an_unwritable_path() {
    let dir = std::env::temp_dir().join(format!("cosmap-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("report.html");
    let out = cosmap(&[
        "report",
        "examples/ecommerce/model.json",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("id=\"diagram\""));
    let out = cosmap(&[
        "report",
        "examples/ecommerce/model.json",
        "--out",
        dir.join("no/such/dir/r.html").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn model_text_starts_with_an_overview_and_marks_overridden_decisions() {
    let out = cosmap(&["model", "examples/ecommerce/model.json"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let overview = text.find("\nOverview\n").expect("an overview");
    let first_container = text.find("\nAccount · partition key").expect("the Account block");
    assert!(overview < first_container, "the overview comes first");
    assert!(
        text.contains("  Dictionary        /type\n      Country, DeliveryMethod, Warehouse\n"),
        "{text}"
    );
    assert!(text.contains("11 decisions overridden by a later rule"), "{text}");
    // Each container states its physical partitions and where they come from.
    assert!(
        text.contains("Order · partition key /orderId")
            && text.contains("physical partitions: 86 for its storage after 5 years"),
        "{text}"
    );
    assert!(
        text.contains("MR1  Country: container `Country` [overridden by MR5]"),
        "{text}"
    );
    assert!(
        !text.contains("MR1  Account: container `Account` [overridden"),
        "{text}"
    );
    assert!(
        text.lines().all(|l| l.chars().count() <= 80 || !l.contains(' ')),
        "fits 80 columns"
    );
}

#[test]
fn generate_maps_attribute_types_and_refuses_unknown_mappings() {
    let dir = tempdir("type-mapping");
    let out_dir = dir.to_str().unwrap();
    let args = ["generate", "examples/type-mapping/model.json", "--out", out_dir];
    let mapped = cosmap(&[&args[..], &["--type", "dateTime=time", "--type", "uuid=uuid"]].concat());
    assert!(mapped.status.success(), "{}", String::from_utf8_lossy(&mapped.stderr));
    let rust = std::fs::read_to_string(dir.join("cosmap.rs")).unwrap();
    assert!(rust.contains("pub taken_at: ::time::OffsetDateTime"), "{rust}");
    assert!(rust.contains("pub serial: ::uuid::Uuid"));
    assert!(rust.contains("impl Canonical for ::time::OffsetDateTime"));
    assert!(
        rust.contains("pub tariff: ::std::string::String"),
        "decimal keeps the default"
    );

    let refused = cosmap(&[&args[..], &["--type", "dateTime=jiff"]].concat());
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("`dateTime` cannot be mapped to `jiff`: use one of chrono, time"),
        "{err}"
    );
}

/// `cosmap cost` shows the search and, on request, what flips at half and twice each
/// figure; `cosmap model` ends with the patterns dearer than the naive port, each with
/// the rule that makes it so.
#[test]
fn cost_shows_the_search_and_the_sensitivity_and_model_the_dearer_patterns() {
    let out = cosmap(&["cost", "examples/ecommerce/model.json", "--sensitivity"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("The search (the workload after each step"), "{text}");
    assert!(text.contains("  MR1–MR6 alone"), "{text}");
    assert!(text.contains("then partition keys and copies"), "{text}");
    assert!(
        text.contains("Sensitivity (each rate and count halved and doubled"),
        "{text}"
    );
    assert!(text.contains("`Country` counts 500 (2×):"), "{text}");
    let json = cosmap(&[
        "cost",
        "examples/ecommerce/model.json",
        "--sensitivity",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(!report["search"].as_array().unwrap().is_empty());
    assert!(!report["sensitivity"].as_array().unwrap().is_empty());
    // Without the flag there is no sensitivity in the JSON.
    let plain = cosmap(&["cost", "examples/ecommerce/model.json", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(report.get("sensitivity").is_none());
    let model = stdout(&cosmap(&["model", "examples/help-desk/model.json"]));
    let dearer = model
        .split("\nDearer than the naive port")
        .nth(1)
        .expect("help-desk's `ticket by id` is dearer than the naive port");
    assert!(dearer.contains("ticket by id: about"), "{dearer}");
    assert!(dearer.contains("because of `partitionKey`"), "{dearer}");
}
