//! The four-way order test (#37): for every example, each write pattern's requests
//! are one sequence in the mapper's plan (`LogicalModel.operations`), the text of
//! `cosmap model`, the HTML report and the generated data access (its doc list of
//! what it sends; the numbered steps of a body, which formatting drops, are checked
//! where they stay: `examples/ticketing-app/tests/write_patterns.rs`) — claims
//! first, releases last.

use std::path::{Path, PathBuf};
use std::process::Command;

use cosmap_codegen::{render_data_access, Templates, TypeMapping};
use cosmap_mapper::operations::{Operation, OperationKind, Purpose, Request};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `model.json` under `examples/`, sorted.
fn example_models() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("a readable directory")
            .map(|e| e.expect("an entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() && !path.ends_with("target") {
                walk(&path, out);
            } else if path.file_name().is_some_and(|n| n == "model.json") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&repo().join("examples"), &mut out);
    out
}

fn cosmap(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cosmap"))
        .args(args)
        .output()
        .expect("cosmap runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// A request as every output names it: `create Ticket in `Order``.
fn line(r: &Request) -> String {
    let what = r.write().map_or(r.kind().as_str(), |w| w.as_str());
    format!("{what} {} in `{}`", r.document_types.join(", "), r.container)
}

/// `create Ticket in `Order`` from the head of a request line of `cosmap model`
/// (`create Ticket in `Order`, partition key …: …`), or of the report once its tags
/// are gone (`write (create) of Ticket in `Order`, …`).
fn head(text: &str) -> String {
    let end = text
        .find("`")
        .and_then(|open| text[open + 1..].find('`').map(|close| open + close + 2));
    let head = &text[..end.unwrap_or(text.len())];
    match head.split_once(" of ") {
        Some((kind, rest)) if kind.starts_with("write (") => {
            format!("{} {rest}", kind.trim_start_matches("write (").trim_end_matches(')'))
        }
        Some((kind, rest)) if !kind.contains(' ') => format!("{kind} {rest}"),
        _ => head.to_string(),
    }
}

/// Each pattern's request heads as `cosmap model` prints them, by pattern name.
fn text_sequences(text: &str, operations: &[Operation]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut current: Option<usize> = None;
    for l in text.lines() {
        if !l.starts_with(' ') {
            // A section's heading: its patterns end.
            current = None;
        } else if let Some(rest) = l.strip_prefix("  ").filter(|r| !r.starts_with(' ')) {
            current = operations
                .iter()
                .find(|op| rest.starts_with(&format!("{} (", op.pattern)) && rest.contains("/s): "))
                .map(|op| {
                    out.push((op.pattern.clone(), Vec::new()));
                    out.len() - 1
                });
        } else if let (Some(i), Some(rest)) = (current, l.strip_prefix("    ")) {
            if !rest.starts_with(' ') && !rest.starts_with("not atomic") {
                out[i].1.push(head(rest));
            }
        }
    }
    out
}

/// Each pattern's request heads as the report lists them, by pattern name.
fn report_sequences(html: &str) -> Vec<(String, Vec<String>)> {
    let plain = |s: &str| {
        s.replace("<b>", "")
            .replace("</b>", "")
            .replace("<code>", "`")
            .replace("</code>", "`")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    };
    let mut out = Vec::new();
    for block in html.split("<div class=\"pattern\"><h3>").skip(1) {
        let name = plain(block.split(" <span class=\"tag\">").next().unwrap_or_default());
        let list = block.split("</ol>").next().unwrap_or_default();
        let heads = list.split("<li>").skip(1).map(|li| head(&plain(li))).collect();
        out.push((name, heads));
    }
    out
}

/// The numbered lines after `marker` (`/// Sends, in this order` or `// `) up to the
/// first line that is not one, each as its head.
fn numbered(lines: &[&str], prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        let Some(rest) = l.trim_start().strip_prefix(prefix) else {
            break;
        };
        let Some((n, rest)) = rest.split_once(". ") else { break };
        if n.parse::<usize>() != Ok(out.len() + 1) {
            break;
        }
        out.push(head(rest));
    }
    out
}

/// Each generated write function's list of what it sends (its docs), and the numbered
/// steps of its body (empty for a write of one document), in the order of the file.
fn generated_sequences(code: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.trim_start().starts_with("/// Sends, in this order") {
            continue;
        }
        let docs = numbered(&lines[i + 1..], "/// ");
        let body_start = lines[i..]
            .iter()
            .position(|l| l.trim_start().starts_with("pub async fn "))
            .map_or(lines.len(), |p| i + p);
        let steps = lines[body_start..]
            .iter()
            .position(|l| l.trim_start().starts_with("// 1. "))
            .filter(|p| {
                // The steps belong to this function when no other starts before them.
                !lines[body_start + 1..body_start + p]
                    .iter()
                    .any(|l| l.trim_start().starts_with("pub async fn "))
            })
            .map(|p| numbered(&lines[body_start + p..], "// "))
            .unwrap_or_default();
        out.push((docs, steps));
    }
    out
}

#[test]
fn every_examples_write_requests_agree_in_the_plan_the_text_the_report_and_the_code() {
    let templates = Templates::load(None).expect("embedded templates compile");
    let dir = std::env::temp_dir().join(format!("cosmap-write-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut writes = 0;
    let mut several = 0;
    for path in example_models() {
        let file = path.to_str().expect("a UTF-8 path");
        let domain = cosmap_domain::load_file(&path).expect("a valid example");
        let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
        let plan: Vec<(String, Vec<String>)> = logical
            .operations
            .iter()
            .filter(|op| op.kind == OperationKind::Write)
            .map(|op| (op.pattern.clone(), op.requests.iter().map(line).collect()))
            .collect();
        // Claims first, releases last.
        for op in logical.operations.iter().filter(|op| op.kind == OperationKind::Write) {
            let claims_end = op
                .requests
                .iter()
                .rposition(|r| matches!(r.purpose, Purpose::Claim { .. }));
            let writes_start = op
                .requests
                .iter()
                .position(|r| matches!(r.purpose, Purpose::Write { .. }));
            if let (Some(c), Some(w)) = (claims_end, writes_start) {
                assert!(c < w, "{file}: `{}` writes before it claims", op.pattern);
            }
        }
        let text = text_sequences(&cosmap(&["model", file]), &logical.operations);
        let report_file = dir.join("report.html");
        cosmap(&["report", file, "--out", report_file.to_str().expect("UTF-8")]);
        let report = report_sequences(&std::fs::read_to_string(&report_file).expect("the report"));
        let code = render_data_access(&logical, &TypeMapping::default(), &templates).expect("renders");
        let generated = generated_sequences(&code);
        let mut sent: Vec<Vec<String>> = Vec::new();
        for (pattern, requests) in &plan {
            let from_text = text.iter().find(|(p, _)| p == pattern).map(|(_, r)| r);
            assert_eq!(from_text, Some(requests), "{file}: `{pattern}` in `cosmap model`");
            let from_report = report.iter().find(|(p, _)| p == pattern).map(|(_, r)| r);
            assert_eq!(from_report, Some(requests), "{file}: `{pattern}` in the report");
            let op = logical
                .operations
                .iter()
                .find(|o| o.pattern == *pattern)
                .expect("the operation");
            let by_app: Vec<String> = op
                .requests
                .iter()
                .filter(|r| r.partition_key().is_some_and(|k| k.is_given()))
                .map(line)
                .collect();
            assert!(
                !code.contains(&format!("the access pattern `{pattern}`:")),
                "{file}: the write `{pattern}` is not generated"
            );
            sent.push(by_app);
            writes += 1;
        }
        let mut docs: Vec<Vec<String>> = Vec::new();
        for (listed, steps) in generated {
            if !steps.is_empty() {
                assert_eq!(steps, listed, "{file}: a function's steps and its docs");
            }
            if listed
                .iter()
                .filter(|l| l.contains(" in `") && !l.contains("Claim"))
                .count()
                > 1
            {
                several += 1;
            }
            docs.push(listed);
        }
        sent.sort();
        docs.sort();
        assert_eq!(docs, sent, "{file}: what the generated functions send");
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(writes >= 20, "the examples' write patterns were found: {writes}");
    assert!(several >= 2, "writes of several documents were checked: {several}");
}

/// The optimised RU of one execution of `place an order` when an order holds `avg`
/// tickets on average.
fn place_an_order_ru(avg: f64) -> f64 {
    let path = repo().join("examples/ticketing/model.json");
    let mut spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the model")).expect("JSON");
    for rel in spec["relationships"].as_array_mut().expect("relationships") {
        if rel["to"] == "Ticket" {
            rel["avg"] = serde_json::json!(avg);
        }
    }
    let bytes = serde_json::to_vec(&spec).expect("JSON");
    let model = cosmap_domain::from_slice(&bytes, Some(&path)).expect("a valid model");
    let report = cosmap_mapper::cost::cost(&model, &cosmap_mapper::Options::default(), Default::default());
    let place = report
        .patterns
        .iter()
        .find(|p| p.name == "place an order")
        .expect("the pattern");
    place.optimised.ru
}

#[test]
fn a_members_writes_and_claims_are_planned_and_priced_once_for_each() {
    let domain = cosmap_domain::load_file(&repo().join("examples/ticketing/model.json")).expect("the model");
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    let place = logical
        .operations
        .iter()
        .find(|o| o.pattern == "place an order")
        .expect("the pattern");
    let each: Vec<Option<f64>> = place
        .requests
        .iter()
        .map(|r| r.purpose.each().map(|e| e.typical))
        .collect();
    // The claim of each ticket's code, the order once, each ticket.
    assert_eq!(each, [Some(2.5), None, Some(2.5)]);
    // Priced so: each ticket more adds the same (a ticket's create and its claim).
    let (one, two_and_a_half, four) = (place_an_order_ru(1.0), place_an_order_ru(2.5), place_an_order_ru(4.0));
    assert!(two_and_a_half > one, "{one} {two_and_a_half}");
    // Each figure is rounded to the hundredth: two differences may be 0.02 apart.
    assert!(
        ((four - two_and_a_half) - (two_and_a_half - one)).abs() <= 0.021,
        "{one} {two_and_a_half} {four}"
    );
}
