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
    sensitivity: bool,
    options: &cosmap_mapper::Options,
) -> anyhow::Result<()> {
    let mut report = cost(model, options, consistency);
    if sensitivity {
        report.sensitivity = Some(cosmap_mapper::cost::sensitivity::sensitivity(model, options));
    }
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
    optimisations(&mut out, r);
    let _ = writeln!(
        out,
        "\nPhysical partitions (optimised design; every price above uses them)"
    );
    for c in &r.containers.optimised {
        wrap(&mut out, &format!("{}: {}", c.name, c.partitions_reason()));
    }
    if let Some(found) = &r.sensitivity {
        sensitivity(&mut out, found);
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

/// What the optimisations did: the search as it went when the report has it (from
/// MR1–MR6 alone, each step that changed the workload with the workload it left, and
/// under it what it kept, each by its own figures against MR1–MR6 alone, in the order
/// kept), else each optimisation's figures.
fn optimisations(out: &mut String, r: &CostReport) {
    if r.optimisations.is_empty() && r.search.is_empty() {
        return;
    }
    let mut shown = vec![false; r.optimisations.len()];
    if r.search.is_empty() {
        let _ = writeln!(out, "\nOptimisations (RU/s against MR1–MR6 alone)");
    } else {
        let _ = writeln!(
            out,
            "\nThe search (the workload after each step, each weighed on the design the steps\nbefore it left; under it, what it kept, by its own RU/s against MR1–MR6 alone)"
        );
        let _ = writeln!(out, "  {:<46}{:>14}", "MR1–MR6 alone", thousands(r.totals.rules));
        // Each optimisation under the step that kept it: the last step of its rule that
        // changed the workload (round two of the copies, say), else the first of its rule.
        let mut before = r.totals.rules;
        let changed: Vec<bool> = r
            .search
            .iter()
            .map(|step| {
                let after = step.workload_ru_per_second;
                let same = (after - before).abs() < 0.5 || (before.is_infinite() && after.is_infinite());
                before = after;
                !same
            })
            .collect();
        let home: Vec<Option<usize>> = r
            .optimisations
            .iter()
            .map(|o| {
                let of_rule = |i: &usize| r.search[*i].rules.contains(&o.rule);
                (0..r.search.len())
                    .rev()
                    .find(|i| changed[*i] && of_rule(i))
                    .or_else(|| (0..r.search.len()).find(of_rule))
            })
            .collect();
        for (i, step) in r.search.iter().enumerate() {
            let kept: Vec<usize> = (0..r.optimisations.len()).filter(|&k| home[k] == Some(i)).collect();
            if !changed[i] && kept.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "  {:<46}{:>14}",
                format!("then {}", step.step),
                thousands(step.workload_ru_per_second)
            );
            for k in kept {
                effect(out, &r.optimisations[k], "    ");
                shown[k] = true;
            }
        }
    }
    for (o, _) in r.optimisations.iter().zip(&shown).filter(|(_, shown)| !**shown) {
        effect(out, o, "  ");
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

/// One optimisation's own figures and the patterns it changes.
fn effect(out: &mut String, o: &cosmap_mapper::cost::OptimisationEffect, indent: &str) {
    let head = format!(
        "{} {}: saves {}, adds {}",
        o.rule.as_str(),
        o.subject,
        thousands(o.saves_ru_per_second),
        thousands(o.adds_ru_per_second)
    );
    crate::text::wrap_into(out, indent, &head, indent.len() + 2);
    crate::text::wrap_into(
        out,
        &format!("{indent}  "),
        &format!("through {}", o.patterns.join("; ")),
        indent.len() + 4,
    );
}

/// The figures that flip a decision at half or twice their value, and what flips.
fn sensitivity(out: &mut String, found: &[cosmap_mapper::cost::sensitivity::Sensitivity]) {
    let _ = writeln!(
        out,
        "\nSensitivity (each rate and count halved and doubled, one at a time; what flips)"
    );
    if found.is_empty() {
        let _ = writeln!(out, "  no decision flips at half or twice any figure");
        return;
    }
    for s in found {
        let _ = writeln!(out, "  {}:", s.figure);
        for f in &s.changes {
            let side = |o: &Option<String>| o.clone().unwrap_or_else(|| "(not decided)".to_string());
            crate::text::wrap_into(
                out,
                "    - ",
                &format!(
                    "{} {}: {} → {}",
                    f.rule.as_str(),
                    f.subject,
                    side(&f.before),
                    side(&f.after)
                ),
                6,
            );
        }
    }
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
