//! The report's sections, each a `<section>` of HTML.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use cosmap_mapper::cost::CostReport;
use cosmap_mapper::operations::Operation;
use cosmap_mapper::LogicalModel;

use super::chart::{bars, Group};
use super::html::{esc, figure, inline, num, ru};
use super::scope::{Scope, COST_JSON, HEAVIEST, MODEL_JSON, PER_RULE};

/// Title, counts, the containers table, the workload's RU/s and the warnings.
pub fn overview(model: &LogicalModel, cost: &CostReport, scope: &Scope) -> String {
    let documents: usize = model.containers.iter().map(|c| c.document_types.len()).sum();
    let mut out = format!(
        "<header><h1>{}</h1><p class=\"muted\">cosmap design report · {} containers · {} document types · {} access patterns · {} decisions · {} consistency</p></header>\n",
        esc(&model.model),
        model.containers.len(),
        documents,
        model.operations.len(),
        model.decisions.len(),
        esc(&format!("{:?}", cost.consistency).to_lowercase())
    );
    out.push_str(&scope.note(model));
    out.push_str(&containers(model, scope));
    out.push_str("<h3>Workload (RU/s)</h3>\n<table class=\"totals\"><thead><tr><th>design</th><th class=\"num\">RU/s</th></tr></thead><tbody>\n");
    for (design, total) in [
        ("naive (one container per entity, /id)", cost.totals.naive),
        ("rules (MR1–MR6)", cost.totals.rules),
        (
            "optimised (MR1–MR6, copies, embedded reference data)",
            cost.totals.optimised,
        ),
    ] {
        let _ = writeln!(out, "<tr><td>{design}</td><td class=\"num\">{}</td></tr>", ru(total));
    }
    out.push_str("</tbody></table>\n<div class=\"figure\">");
    out.push_str(&bars(
        "totals-chart",
        &[Group {
            label: "whole workload",
            values: [cost.totals.naive, cost.totals.rules, cost.totals.optimised],
        }],
    ));
    out.push_str("</div>\n");
    out.push_str(&warnings(cost, scope));
    out.push_str("</section>\n");
    out
}

/// The overview's table of the containers the page details.
fn containers(model: &LogicalModel, scope: &Scope) -> String {
    let mut out = String::from("<section id=\"overview\"><h2>Overview</h2>\n<table class=\"containers\"><thead><tr><th>container</th><th>partition key</th><th>document types</th><th>rules</th></tr></thead><tbody>\n");
    let mut shown = 0;
    for c in model.containers.iter().filter(|c| scope.container(&c.name)) {
        shown += 1;
        let types: Vec<String> = c
            .document_types
            .iter()
            .map(|d| format!("{} <span class=\"tag\">{}</span>", esc(&d.name), role(d.role)))
            .collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            esc(&c.name),
            esc(&c.partition_key.paths.join(", ")),
            types.join(", "),
            esc(&c.rules.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(" "))
        );
    }
    out.push_str("</tbody></table>\n");
    let all = model.containers.len();
    out.push_str(&Scope::left_out(shown, all, "containers", MODEL_JSON));
    out
}

/// The cost estimate's warnings (the first [`HEAVIEST`] of a summarised page).
fn warnings(cost: &CostReport, scope: &Scope) -> String {
    let mut out = String::from("<h3>Warnings</h3>\n");
    if cost.warnings.is_empty() {
        out.push_str("<p class=\"muted\">none</p>\n");
        return out;
    }
    out.push_str("<ul class=\"warnings\">\n");
    let shown = scope.cap(cost.warnings.len(), HEAVIEST);
    for w in &cost.warnings[..shown] {
        let _ = writeln!(out, "<li class=\"warning\">{}</li>", inline(w));
    }
    out.push_str("</ul>\n");
    out.push_str(&Scope::left_out(
        shown,
        cost.warnings.len(),
        "warnings",
        "cosmap cost MODEL",
    ));
    out
}

/// The diagram of the containers, its legend, and a toggle that shows each
/// document type's attributes (a second drawing, laid out for them).
pub fn diagram(model: &LogicalModel) -> String {
    format!(
        "<section id=\"diagram-section\"><h2>Diagram</h2>\n<p class=\"muted\">Each box is a container with its partition key; each shaded row a document type, with the objects embedded in it beneath (arrays with their bound). Arrows run from a container to the containers it refers to, keeps copies in or claims values in.</p>\n{}\n<input type=\"checkbox\" id=\"show-attributes\"><label for=\"show-attributes\"> show attributes</label>\n<div class=\"figure diagram-compact\">{}</div>\n<div class=\"figure diagram-full\">{}</div>\n</section>\n",
        super::diagram::legend(),
        super::diagram::svg(model, "diagram", false),
        super::diagram::svg(model, "diagram-attributes", true)
    )
}

/// One bar chart of every access pattern the page details under the three designs.
pub fn costs(cost: &CostReport, scope: &Scope) -> String {
    let detailed: Vec<_> = cost.patterns.iter().filter(|p| scope.pattern(&p.name)).collect();
    let labels: Vec<String> = detailed
        .iter()
        .map(|p| format!("{} ({}/s)", p.name, num(p.per_second)))
        .collect();
    let groups: Vec<Group> = detailed
        .iter()
        .zip(&labels)
        .map(|(p, label)| Group {
            label,
            values: [p.naive.ru_per_second, p.rules.ru_per_second, p.optimised.ru_per_second],
        })
        .collect();
    let mut out = String::from("<section id=\"costs\"><h2>Cost per access pattern</h2>\n<p class=\"muted\">RU/s of each access pattern at its rate, under the naive port, the rules MR1–MR6 and the optimised design; every bar on one scale (the largest figure of all).</p>\n");
    if groups.is_empty() {
        out.push_str("<p class=\"muted\">The model declares no access pattern.</p>\n");
    } else {
        let _ = writeln!(out, "<div class=\"figure\">{}</div>", bars("cost-chart", &groups));
        let all = cost.patterns.len();
        out.push_str(&Scope::left_out(groups.len(), all, "access patterns", COST_JSON));
    }
    if !cost.assumptions.is_empty() {
        out.push_str("<details><summary>Assumptions</summary><ul>\n");
        for a in &cost.assumptions {
            let _ = writeln!(out, "<li>{}</li>", inline(a));
        }
        out.push_str("</ul></details>\n");
    }
    out.push_str("</section>\n");
    out
}

/// Each access pattern's requests and SQL (on a summarised page, those it details,
/// each folded in a `<details>`).
pub fn patterns(model: &LogicalModel, scope: &Scope) -> String {
    let mut out = String::from("<section id=\"patterns\"><h2>Access patterns</h2>\n");
    if model.operations.is_empty() {
        out.push_str("<p class=\"muted\">The model declares no access pattern.</p>\n");
    }
    let mut shown = 0;
    for op in model.operations.iter().filter(|op| scope.pattern(&op.pattern)) {
        shown += 1;
        if scope.whole() {
            out.push_str(&pattern(op));
        } else {
            let _ = writeln!(
                out,
                "<details class=\"folded\"><summary>{}</summary>{}</details>",
                esc(&op.pattern),
                pattern(op)
            );
        }
    }
    out.push_str(&Scope::left_out(
        shown,
        model.operations.len(),
        "access patterns",
        MODEL_JSON,
    ));
    out.push_str("</section>\n");
    out
}

fn pattern(op: &Operation) -> String {
    let mut out = format!(
        "<div class=\"pattern\"><h3>{} <span class=\"tag\">{}</span> <span class=\"muted\">{}/s</span></h3>\n<ol>\n",
        esc(&op.pattern),
        op.kind.as_str(),
        num(op.per_second)
    );
    for r in &op.requests {
        let mut what = format!("<b>{}</b>", r.kind().as_str());
        if let Some(w) = r.write() {
            let _ = write!(what, " ({})", w.as_str());
        }
        let _ = write!(
            what,
            " of {} in <code>{}</code>",
            esc(&r.document_types.join(", ")),
            esc(&r.container)
        );
        if let Some(key) = r.partition_key() {
            let _ = write!(what, ", partition key <code>{}</code>", esc(&key.to_string()));
        }
        if let Some(id) = r.id() {
            let _ = write!(what, ", id <code>{}</code>", esc(&id.to_string()));
        }
        let _ = write!(out, "<li>{what}: {}", inline(&r.purpose.to_string()));
        if let Some(sql) = r.sql() {
            let _ = write!(out, "<pre class=\"sql\">{}</pre>", esc(sql));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>");
    if let Some(advice) = op.not_atomic_advice() {
        let _ = write!(out, "<p class=\"warning\">{}</p>", inline(&advice));
    }
    out.push_str("</div>\n");
    out
}

/// Every decision with its evidence (the first [`PER_RULE`] of each rule on a
/// summarised page), a button per rule to filter them, and the decisions a later
/// rule overrode marked so.
pub fn decisions(model: &LogicalModel, scope: &Scope) -> String {
    let overridden = cosmap_mapper::overridden_by(model);
    let rules: BTreeSet<&str> = model.decisions.iter().map(|d| d.rule.as_str()).collect();
    let mut out = String::from("<section id=\"decisions-section\"><h2>Decisions</h2>\n<div class=\"filter\">");
    out.push_str("<button type=\"button\" data-rule=\"*\">all</button>");
    for rule in &rules {
        let _ = write!(out, "<button type=\"button\" data-rule=\"{0}\">{0}</button>", esc(rule));
    }
    out.push_str("</div>\n");
    if !scope.whole() {
        out.push_str(&Scope::rule_counts(model));
    }
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    let listed: Vec<_> = model
        .decisions
        .iter()
        .zip(&overridden)
        .filter(|(d, _)| {
            let n = per_rule.entry(d.rule.as_str()).or_default();
            *n += 1;
            *n <= scope.cap(usize::MAX, PER_RULE)
        })
        .collect();
    let _ = write!(
        out,
        "<p class=\"muted\"><span id=\"decision-count\">{}</span> decisions shown</p>\n<table id=\"decisions\"><thead><tr><th>rule</th><th>subject</th><th>outcome</th><th>reason</th><th>evidence</th></tr></thead><tbody>\n",
        listed.len()
    );
    for (d, by) in listed.iter().copied() {
        out.push_str(&decision(model, d, *by));
    }
    out.push_str("</tbody></table>\n");
    out.push_str(&Scope::left_out(
        listed.len(),
        model.decisions.len(),
        "decisions",
        MODEL_JSON,
    ));
    out.push_str("</section>\n");
    out
}

/// One row of the decisions table: `d`, overridden by decision `by` if any.
fn decision(model: &LogicalModel, d: &cosmap_mapper::Decision, by: Option<usize>) -> String {
    let evidence: Vec<String> = d
        .evidence
        .iter()
        .map(|(k, v)| format!("{}&nbsp;=&nbsp;{}", esc(k), figure(k, v)))
        .collect();
    let (class, note) = match by.and_then(|i| model.decisions.get(i)) {
        Some(later) => (
            " class=\"overridden\"",
            format!(
                " <span class=\"tag\">overridden by {}: {}</span>",
                esc(later.rule.as_str()),
                inline(&later.outcome)
            ),
        ),
        None => ("", String::new()),
    };
    format!(
        "<tr data-rule=\"{}\"{class}><td>{}</td><td>{}</td><td class=\"outcome\">{}</td><td>{}{note}</td><td>{}</td></tr>\n",
        esc(d.rule.as_str()),
        esc(d.rule.as_str()),
        esc(&d.subject),
        inline(&d.outcome),
        inline(&d.reason),
        evidence.join("<br>")
    )
}

fn role(role: cosmap_mapper::Role) -> &'static str {
    role.as_str()
}
