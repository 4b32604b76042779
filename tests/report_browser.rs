//! `cosmap report` for every example, opened offline in headless Chromium
//! (tests/browser/report.js): no console error, no failed request and none that
//! leaves the machine; the diagram draws every container, the chart three bars per
//! access pattern, all with a size; the rule filter shows exactly that rule's
//! decisions; in the diagram, with and without the attributes, no two edge labels
//! overlap, no label covers a box, no edge passes through a box it does not join,
//! and the page fits 1,400 px. Screenshots of every example (the whole page, its
//! top, the diagram, the diagram with its attributes, where the cost goes) are left under
//! `target/report-screenshots/` for a look.

mod support_browser;

use std::path::{Path, PathBuf};
use std::process::Command;

use support_browser::{number, out_dir, repo, run};

/// The reports opened: the examples, and a ticketing service's model the size of the
/// one the report was first read with (`tests/browser/models/ticketing.json`).
const REPORTS: [(&str, &str); 9] = [
    ("ecommerce", "examples/ecommerce/model.json"),
    ("iot-fleet", "examples/iot-fleet/model.json"),
    ("publishing", "examples/publishing/model.json"),
    ("tricky-names", "examples/tricky-names/model.json"),
    ("help-desk", "examples/help-desk/model.json"),
    ("cosmic-works", "examples/cosmic-works/model.json"),
    ("library", "examples/library/model.json"),
    ("extended-reference", "examples/patterns/extended-reference/model.json"),
    ("ticketing", "tests/browser/models/ticketing.json"),
];

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
    let dir = out_dir("report-screenshots");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut models = Vec::new();
    for (name, model) in REPORTS {
        let file = dir.join(format!("{name}.html"));
        cosmap(&["report", model, "--out", file.to_str().expect("UTF-8 path")]);
        let logical: serde_json::Value =
            serde_json::from_slice(&cosmap(&["model", model, "--format", "json"]).stdout).expect("JSON model");
        files.push(file);
        models.push(logical);
    }
    let args: Vec<&Path> = std::iter::once(dir.as_path())
        .chain(files.iter().map(PathBuf::as_path))
        .collect();
    let results = run("report.js", &args);
    assert_eq!(results.len(), files.len(), "one result per report: {results:?}");
    for (((example, _), logical), r) in REPORTS.iter().zip(&models).zip(&results) {
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
        assert!(
            number(r, "pageWidth") <= 1400.0,
            "{example}: the page scrolls sideways: {r}"
        );
        let drawings = r["layout"].as_array().expect("both drawings measured");
        assert_eq!(drawings.len(), 2, "{example}: {r}");
        for d in drawings {
            for problem in ["overlaps", "crossings", "labelOverBox"] {
                assert_eq!(
                    d[problem].as_array().map(Vec::len),
                    Some(0),
                    "{example}: {problem}: {d}"
                );
            }
            assert_eq!(
                number(d, "labels"),
                number(d, "links"),
                "{example}: a label per edge: {d}"
            );
            assert!(number(d, "right") <= 1400.0, "{example}: {d}");
            assert_eq!(
                d["kinds"], drawings[0]["kinds"],
                "{example}: the same edges in both: {r}"
            );
        }
        for shot in [
            "screenshot",
            "topScreenshot",
            "attributesScreenshot",
            "spendingScreenshot",
        ] {
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
    // Order's copy in Account, the claims of an account's email and an item's SKU
    // (both owners' edges to `UniqueClaims`), and the references between containers.
    let kinds = &ecommerce["layout"][0]["kinds"];
    assert_eq!(number(kinds, "copy"), 1.0, "{ecommerce}");
    assert_eq!(number(kinds, "claim"), 2.0, "{ecommerce}");
    assert!(number(kinds, "ref") >= 4.0, "{ecommerce}");
    // Comments keep their author's name: an extended reference, drawn as one (whether
    // the ticketing model's event keeps its venue's name depends on the prices).
    let extended = &results[7]["layout"][0]["kinds"];
    assert!(number(extended, "ext") >= 1.0, "{extended}");
    let ticketing = &results[8]["layout"][0]["kinds"];
    assert!(number(ticketing, "claim") >= 2.0, "{ticketing}");
    let extended = &results[7]["layout"][0]["kinds"];
    assert_eq!(number(extended, "ext"), 1.0, "{extended}");
    assert_eq!(
        number(ecommerce, "overridden"),
        11.0,
        "MR1/MR2 of three dictionaries, four MR6, PresentedProduct's MR2 key: {ecommerce}"
    );
}
