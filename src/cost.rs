//! `cosmap cost`: the cost table of the three designs, warnings and assumptions.

use std::fmt::Write as _;

use cosmap_domain::DomainModel;
use cosmap_mapper::cost::{cost, Consistency, CostReport, DesignCost};

use crate::cli::CostFormat;

/// Prints the cost report of `model`.
pub fn run(
    model: &DomainModel,
    format: CostFormat,
    consistency: Consistency,
    options: &cosmap_mapper::Options,
) -> anyhow::Result<()> {
    let report = cost(model, options, consistency);
    let out = match format {
        CostFormat::Text => render(&report),
        CostFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
    };
    crate::print(&out)
}

fn render(r: &CostReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: request units per access pattern ({} consistency)\n",
        r.model,
        r.consistency.as_str()
    );
    let _ = writeln!(
        out,
        "{:<13}{:<22}{:>12}{:>14}",
        "  design", "operation", "RU / run", "RU/s"
    );
    for p in &r.patterns {
        let _ = writeln!(out, "{} ({}/s)", p.name, p.per_second);
        for (label, d) in [("naive", &p.naive), ("rules", &p.rules), ("optimised", &p.optimised)] {
            line(&mut out, label, d);
        }
    }
    let _ = writeln!(out, "\nWorkload total (RU/s)");
    for (label, total) in [
        ("naive", r.totals.naive),
        ("rules", r.totals.rules),
        ("optimised", r.totals.optimised),
    ] {
        let _ = writeln!(out, "  {label:<11}{:>14}", thousands(total));
    }
    if !r.optimisations.is_empty() {
        let _ = writeln!(out, "\nOptimisations (RU/s against MR1–MR6 alone)");
        for o in &r.optimisations {
            let head = format!(
                "{} {}: saves {}, adds {}",
                o.rule.as_str(),
                o.subject,
                thousands(o.saves_ru_per_second),
                thousands(o.adds_ru_per_second)
            );
            crate::text::wrap_into(&mut out, "  ", &head, 4);
            wrap(&mut out, &format!("through {}", o.patterns.join("; ")));
        }
        if r.other_effects_ru_per_second.abs() >= 0.5 {
            let (label, figure) = if r.other_effects_ru_per_second >= 0.0 {
                ("save", r.other_effects_ru_per_second)
            } else {
                ("add", -r.other_effects_ru_per_second)
            };
            let _ = writeln!(
                out,
                "  other patterns {label} {} (their containers grew or shrank)",
                thousands(figure)
            );
        }
    }
    let _ = writeln!(
        out,
        "\nPhysical partitions (optimised design; every price above uses them)"
    );
    for c in &r.containers.optimised {
        wrap(&mut out, &format!("{}: {}", c.name, c.partitions_reason()));
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out, "\nWarnings");
        for w in &r.warnings {
            wrap(&mut out, w);
        }
    }
    let _ = writeln!(out, "\nAssumptions (the documentation gives no figure)");
    for a in &r.assumptions {
        wrap(&mut out, a);
    }
    out
}

fn line(out: &mut String, label: &str, d: &DesignCost) {
    let requests = if d.requests > 1 {
        format!(" ×{}", d.requests)
    } else {
        String::new()
    };
    let op = format!("{}{requests}", d.operation.as_str());
    let _ = writeln!(
        out,
        "  {label:<11}{op:<22}{:>12.2}{:>14}",
        d.ru,
        thousands(d.ru_per_second)
    );
}

fn wrap(out: &mut String, text: &str) {
    let mut line = String::from("  -");
    for word in text.split_whitespace() {
        if line.len() + word.len() + 1 > 80 {
            let _ = writeln!(out, "{line}");
            line = String::from("   ");
        }
        line.push(' ');
        line.push_str(word);
    }
    let _ = writeln!(out, "{line}");
}

/// `1234567.8` → `1,234,568`, and `unbounded` when no design carries it.
fn thousands(x: f64) -> String {
    cosmap_mapper::human_count(x)
}
