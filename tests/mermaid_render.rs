//! Every example's Mermaid diagram (`cosmap model --format mermaid`, the same text
//! `generate` writes to `model.mmd`) and the committed e-commerce `model.mmd`
//! render in the real Mermaid (npm `mermaid`, pinned) in headless Chromium:
//! no parse error, no console error, and every subgraph, node and labelled edge
//! of the text is drawn. The SVG and a screenshot of each are left under
//! `target/mermaid-render/`.

mod support_browser;

use std::path::PathBuf;
use std::process::Command;

use support_browser::{number, out_dir, repo, run};

const EXAMPLES: [&str; 4] = ["ecommerce", "iot-fleet", "publishing", "tricky-names"];

/// (subgraphs, nodes, edges) declared in a diagram's text, as cosmap writes it.
fn declared(text: &str) -> (usize, usize, usize) {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let subgraphs = lines.iter().filter(|l| l.starts_with("subgraph ")).count();
    let edges = lines
        .iter()
        .filter(|l| {
            ["-->|", "---|", "-.->|", "==>|", "--o|"]
                .iter()
                .any(|arrow| l.contains(arrow))
        })
        .count();
    let nodes = lines
        .iter()
        .filter(|l| !l.starts_with("subgraph ") && (l.ends_with("\"]") || l.ends_with("\")") || l.ends_with("\"])")))
        .count();
    (subgraphs, nodes, edges)
}

#[test]
fn every_example_diagram_renders_in_mermaid() {
    let dir = out_dir("mermaid-render");
    let mut files: Vec<PathBuf> = Vec::new();
    for example in EXAMPLES {
        let out = Command::new(env!("CARGO_BIN_EXE_cosmap"))
            .args([
                "model",
                &format!("examples/{example}/model.json"),
                "--format",
                "mermaid",
            ])
            .current_dir(repo())
            .output()
            .expect("cosmap runs");
        assert!(
            out.status.success(),
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = dir.join(format!("{example}.mmd"));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file);
    }
    files.push(repo().join("examples/ecommerce/generated/model.mmd"));
    let args: Vec<&std::path::Path> = std::iter::once(dir.as_path())
        .chain(files.iter().map(PathBuf::as_path))
        .collect();
    let results = run("mermaid.js", &args);
    assert_eq!(results.len(), files.len(), "one result per diagram: {results:?}");
    for (file, result) in files.iter().zip(&results) {
        let text = std::fs::read_to_string(file).unwrap();
        let (subgraphs, nodes, edges) = declared(&text);
        let name = file.display();
        assert!(nodes > 0 && subgraphs > 0, "{name}: nothing declared");
        assert_eq!(
            number(result, "subgraphs") as usize,
            subgraphs,
            "{name}: subgraphs drawn {result}"
        );
        assert_eq!(number(result, "nodes") as usize, nodes, "{name}: nodes drawn {result}");
        assert_eq!(number(result, "edges") as usize, edges, "{name}: edges drawn {result}");
        assert_eq!(
            number(result, "edgeLabels") as usize,
            edges,
            "{name}: edge labels drawn {result}"
        );
        assert!(
            number(result, "width") > 0.0 && number(result, "height") > 0.0,
            "{name}: empty SVG {result}"
        );
        // Nothing of the model's text is live: no element or handler, no directive.
        assert_eq!(number(result, "live"), 0.0, "{name}: live HTML in the SVG {result}");
        assert_eq!(
            result["styleInjected"], false,
            "{name}: a directive's CSS took effect {result}"
        );
    }
    // tricky-names names a pattern in HTML with a directive, and gives a description a
    // directive and a backtick: shown as text, the directive in a comment inert.
    let tricky = &results[EXAMPLES.iter().position(|e| *e == "tricky-names").unwrap()];
    let text = tricky["text"].as_str().unwrap_or_default();
    for shown in [
        "<img src=x onerror=alert(1)>",
        "<a href=\"https://example.com\">super</a>",
        "%%{init: {'theme': 'dark'}}%% #quot; &amp;",
        "ñandú por id",
    ] {
        assert!(
            text.contains(shown),
            "tricky-names: `{shown}` is not drawn as text: {text}"
        );
    }
}

/// The diagram's text carries no directive, HTML or backtick from the model: every
/// `%`, `<`, `>`, `&`, `` ` `` and `#` of a name or description is an entity code.
#[test]
fn hostile_names_and_descriptions_are_escaped_in_the_text() {
    let out = Command::new(env!("CARGO_BIN_EXE_cosmap"))
        .args(["model", "examples/tricky-names/model.json", "--format", "mermaid"])
        .current_dir(repo())
        .output()
        .expect("cosmap runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("%%{"), "a directive survived: {text}");
    assert_eq!(
        text.matches("%%").count(),
        text.lines().filter(|l| l.trim_start().starts_with("%%")).count(),
        "{text}"
    );
    // The first line quotes the model's name in backticks, as every header does.
    // The arrows (`-->`, `-.->`, `==>`) are the diagram's own.
    let body = text.split_once('\n').map_or("", |(_, body)| body);
    let body = body.replace("-.->", "").replace("-->", "").replace("==>", "");
    for raw in ['<', '>', '&', '`'] {
        assert!(!body.contains(raw), "`{raw}` survived: {text}");
    }
    assert!(text.contains("([\"#60;img src=x onerror=alert(1)#62;"), "{text}");
    assert!(text.contains("#37;#37;{init: {'theme': 'dark', 'themeCSS'"), "{text}");
}

#[test]
fn the_diagram_shows_bounds_same_partition_documents_and_patterns() {
    let text = std::fs::read_to_string(repo().join("examples/ecommerce/generated/model.mmd")).unwrap();
    assert!(text.contains("-->|\"items[] ≤ 100\"|"), "{text}");
    assert!(
        text.contains("---|\"productAvailabilities · many · same /itemId\"|"),
        "{text}"
    );
    assert!(text.contains("---|\"payments · ≤ 10 · same /orderId\"|"), "{text}");
    assert!(!text.contains("|items[]|"), "unquoted label: {text}");
    assert!(text.contains("p10([\"orders of an account · 500/s\"])"), "{text}");
    assert!(text.contains("--o|\"crossPartitionQuery\"|"), "{text}");
}
