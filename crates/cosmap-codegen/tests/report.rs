//! The HTML report's structure, escaping and determinism (the browser test in
//! `tests/report_browser.rs` opens it for real).

use std::path::PathBuf;

use cosmap_codegen::render_report;
use cosmap_domain::DomainModel;
use cosmap_mapper::cost::{estimate, Consistency};
use cosmap_mapper::{map, Options};

fn load(example: &str) -> DomainModel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../examples/{example}/model.json"));
    cosmap_domain::load_file(&path).expect("valid example")
}

fn report(model: &DomainModel) -> String {
    let rules = map(model, &Options::default().optimise(false));
    let optimised = map(model, &Options::default());
    render_report(&optimised, &estimate(model, &rules, &optimised, Consistency::Session))
}

#[test]
fn the_report_has_every_section_and_one_bar_per_design_and_pattern() {
    let model = load("ecommerce");
    let html = report(&model);
    for id in [
        "overview",
        "diagram",
        "costs",
        "cost-chart",
        "totals-chart",
        "patterns",
        "decisions",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "no #{id}");
    }
    let patterns = model.spec().access_patterns.len();
    let bars = html.matches("<rect class=\"bar ").count();
    assert_eq!(
        bars,
        3 * patterns + 3,
        "three bars per pattern and three for the workload"
    );
    assert_eq!(html.matches("<g class=\"container\">").count(), 6);
    let queries = map(&model, &Options::default())
        .operations
        .iter()
        .flat_map(|o| &o.requests)
        .filter(|r| r.sql().is_some())
        .count();
    assert!(queries > 0);
    assert_eq!(html.matches("<pre class=\"sql\">").count(), queries, "one per query");
    assert!(html.contains("deliveryAddresses[] ≤ 10"), "bounds in the diagram");
    assert!(html.contains("class=\"link copy\""), "the copy is drawn");
    assert_eq!(html.matches("<tr data-rule=\"MR6\" class=\"overridden\">").count(), 4);
}

#[test]
fn the_report_opens_offline() {
    let html = report(&load("iot-fleet"));
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    let outside: Vec<&str> = html
        .split(['"', '\''])
        .filter(|s| (s.starts_with("http:") || s.starts_with("https:")) && *s != "http://www.w3.org/2000/svg")
        .collect();
    assert!(outside.is_empty(), "{outside:?}");
    assert!(!html.contains("<link") && !html.contains("src="), "nothing is loaded");
}

#[test]
fn the_same_model_gives_the_same_bytes_whatever_the_order() {
    let model = load("ecommerce");
    let expected = report(&model);
    let mut spec = model.spec().clone();
    spec.entities.reverse();
    spec.value_objects.reverse();
    spec.aggregates.reverse();
    spec.relationships.reverse();
    spec.access_patterns.reverse();
    let shuffled = DomainModel::new(spec).expect("still valid");
    assert!(report(&shuffled) == expected, "the report depends on declaration order");
}

#[test]
fn text_from_the_model_is_escaped() {
    let model = load("publishing");
    let rules = map(&model, &Options::default().optimise(false));
    let mut optimised = map(&model, &Options::default());
    let mut cost = estimate(&model, &rules, &optimised, Consistency::Session);
    let evil = "<script>alert('x')</script>";
    optimised.model = evil.to_string();
    optimised.containers[0].name = evil.to_string();
    optimised.decisions[0].reason = evil.to_string();
    optimised.operations[0].pattern = evil.to_string();
    cost.patterns[0].name = evil.to_string();
    cost.warnings.push(evil.to_string());
    let html = render_report(&optimised, &cost);
    assert_eq!(html.matches("<script>").count(), 1, "only the filter's script");
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
}

#[test]
fn a_write_that_is_not_atomic_says_so_beside_its_requests() {
    let html = report(&load("library"));
    let patterns = html.find("id=\"patterns\"").expect("the patterns section");
    let join = patterns + html[patterns..].find("join the library").expect("the pattern");
    let warning = html[join..]
        .find("not atomic: it writes 2 logical partitions")
        .expect("the warning");
    let next = html[join..].find("<div class=\"pattern\">").unwrap_or(usize::MAX);
    assert!(warning < next, "the warning belongs to `join the library`");
    // ecommerce's writes are each one transaction.
    assert!(!report(&load("ecommerce")).contains("not atomic"));
}
