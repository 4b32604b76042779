//! `cosmap report` for every example, opened offline in headless Chromium
//! (tests/browser/report.js): no console error, no failed request and none that
//! leaves the machine; the diagram draws every container, the chart three bars per
//! access pattern, all with a size; the rule filter shows exactly that rule's
//! decisions. Screenshots (the whole page, and its top) are left under
//! `target/report-browser/`.

mod support_browser;

use std::path::{Path, PathBuf};
use std::process::Command;

use support_browser::{number, out_dir, repo, run};

const EXAMPLES: [&str; 4] = ["ecommerce", "iot-fleet", "publishing", "tricky-names"];

fn cosmap(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_cosmap"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("cosmap runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn every_example_report_opens_offline_and_draws_its_pictures() {
    let dir = out_dir("report-browser");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut models = Vec::new();
    for example in EXAMPLES {
        let model = format!("examples/{example}/model.json");
        let file = dir.join(format!("{example}.html"));
        cosmap(&["report", &model, "--out", file.to_str().expect("UTF-8 path")]);
        let logical: serde_json::Value =
            serde_json::from_slice(&cosmap(&["model", &model, "--format", "json"]).stdout).expect("JSON model");
        files.push(file);
        models.push(logical);
    }
    let args: Vec<&Path> = std::iter::once(dir.as_path())
        .chain(files.iter().map(PathBuf::as_path))
        .collect();
    let results = run("report.js", &args);
    assert_eq!(results.len(), files.len(), "one result per report: {results:?}");
    for ((example, logical), r) in EXAMPLES.iter().zip(&models).zip(&results) {
        let containers = logical["containers"].as_array().map_or(0, Vec::len);
        let documents: usize = logical["containers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| c["documentTypes"].as_array().map_or(0, Vec::len))
            .sum();
        let patterns = logical["operations"].as_array().map_or(0, Vec::len);
        let decisions = logical["decisions"].as_array().map_or(0, Vec::len);
        assert!(containers > 0, "{example}: {logical}");
        assert!(
            number(&r["diagram"], "width") > 0.0 && number(&r["diagram"], "height") > 0.0,
            "{example}: {r}"
        );
        assert_eq!(number(r, "containers") as usize, containers, "{example}: {r}");
        assert_eq!(number(r, "containersDrawn") as usize, containers, "{example}: {r}");
        assert_eq!(number(r, "documentRows") as usize, documents, "{example}: {r}");
        if patterns > 0 {
            let chart = &r["chart"];
            assert!(
                number(chart, "width") > 0.0 && number(chart, "height") > 0.0,
                "{example}: {r}"
            );
        } else {
            assert!(r["chart"].is_null(), "{example}: a chart of no pattern: {r}");
        }
        assert_eq!(number(r, "bars") as usize, 3 * patterns, "{example}: {r}");
        assert_eq!(number(r, "barsDrawn") as usize, 3 * patterns, "{example}: {r}");
        assert_eq!(number(r, "totalBarsDrawn") as usize, 3, "{example}: {r}");
        assert_eq!(number(r, "patterns") as usize, patterns, "{example}: {r}");
        assert_eq!(number(r, "decisions") as usize, decisions, "{example}: {r}");
        let filtered = number(r, "visibleAfterFilter") as usize;
        assert!(
            filtered > 0 && filtered < decisions,
            "{example}: the filter hid nothing: {r}"
        );
        assert_eq!(filtered, number(r, "ofThatRule") as usize, "{example}: {r}");
        assert_eq!(
            r["shownCount"].as_str(),
            Some(filtered.to_string().as_str()),
            "{example}: {r}"
        );
        assert_eq!(number(r, "visibleAfterAll") as usize, decisions, "{example}: {r}");
        for shot in ["screenshot", "topScreenshot"] {
            let path = r[shot].as_str().map(|p| repo().join(p)).unwrap_or_default();
            let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            assert!(
                size > 10_000,
                "{example}: {shot} {} is missing or blank",
                path.display()
            );
        }
    }
    let ecommerce = &results[0];
    // The references, the copy, and the projection copy's one reference (`account`).
    assert_eq!(number(ecommerce, "links"), 8.0, "references and the copy: {ecommerce}");
    assert_eq!(
        number(ecommerce, "overridden"),
        11.0,
        "MR1/MR2 of three dictionaries, four MR6, PresentedProduct's MR2 key: {ecommerce}"
    );
}
