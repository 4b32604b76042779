//! "Where the cost goes": the optimised workload's RU/s by access pattern and each
//! design's by container, stacked on one scale, and each container's figures
//! (RU/s in the three designs; items, storage and partitions of the optimised one).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cosmap_mapper::cost::{ContainerFigures, CostReport};

use super::chart::{stacked, Stack};
use super::html::{bytes, esc, num, ru};
use super::scope::{Scope, COST_JSON};

/// The section, from the cost estimate alone (the figures the warnings come from).
pub fn section(cost: &CostReport, scope: &Scope) -> String {
    let mut out = String::from("<section id=\"spending\"><h2>Where the cost goes</h2>\n<p class=\"muted\">The optimised workload's RU/s split by access pattern, and each design's split by container, all on one scale: a longer bar costs more. Past the eight heaviest parts of a bar, the rest are summed; hover a part for its share.</p>\n");
    // The chart puts the heaviest first, ties by name: the same model draws the same bars.
    let by_pattern: Vec<(String, f64)> = cost
        .patterns
        .iter()
        .map(|p| (p.name.clone(), p.optimised.ru_per_second))
        .collect();
    let by_container = |figures: &[ContainerFigures]| -> Vec<(String, f64)> {
        figures.iter().map(|c| (c.name.clone(), c.ru_per_second)).collect()
    };
    let stacks = [
        Stack {
            label: "optimised, by pattern".to_string(),
            parts: by_pattern,
        },
        Stack {
            label: "optimised, by container".to_string(),
            parts: by_container(&cost.containers.optimised),
        },
        Stack {
            label: "rules, by container".to_string(),
            parts: by_container(&cost.containers.rules),
        },
        Stack {
            label: "naive, by container".to_string(),
            parts: by_container(&cost.containers.naive),
        },
    ];
    let _ = writeln!(
        out,
        "<div class=\"figure\">{}</div>",
        stacked("spending-chart", &stacks)
    );
    out.push_str(&containers(cost, scope));
    out.push_str("</section>\n");
    out
}

/// Each container of any design the page details (the optimised design's first, then
/// by name): its RU/s in the three designs side by side, then the optimised design's
/// items, storage today and after `growthYears`, and partitions.
fn containers(cost: &CostReport, scope: &Scope) -> String {
    let mut rows: BTreeMap<&str, [Option<&ContainerFigures>; 3]> = BTreeMap::new();
    for (d, figures) in [
        &cost.containers.naive,
        &cost.containers.rules,
        &cost.containers.optimised,
    ]
    .into_iter()
    .enumerate()
    {
        for c in figures.iter().filter(|c| scope.container(&c.name)) {
            rows.entry(c.name.as_str()).or_default()[d] = Some(c);
        }
    }
    let mut out = String::from("<table id=\"container-figures\"><thead><tr><th>container</th><th class=\"num\">naive</th><th class=\"num\">rules</th><th class=\"num\">optimised</th><th class=\"num\">items</th><th class=\"num\">storage</th><th class=\"num\">storage after growth</th><th class=\"num\">logical partitions</th><th class=\"num\">physical partitions</th></tr></thead><tbody>\n");
    let none = "<td class=\"num muted\">—</td>";
    // The optimised design's containers first, then the other designs' own.
    let mut rows: Vec<(&str, [Option<&ContainerFigures>; 3])> = rows.into_iter().collect();
    rows.sort_by_key(|(name, designs)| (designs[2].is_none(), designs[1].is_none(), *name));
    for (name, designs) in &rows {
        let _ = write!(out, "<tr><td>{}</td>", esc(name));
        for c in designs {
            match c {
                Some(c) => {
                    let _ = write!(out, "<td class=\"num\">{}</td>", ru(c.ru_per_second));
                }
                None => out.push_str(none),
            }
        }
        match designs[2] {
            Some(c) => {
                let _ = write!(
                    out,
                    "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\" title=\"after {} years\">{}</td><td class=\"num\">{}</td><td class=\"num\" title=\"{}\">{}</td>",
                    num(c.items),
                    bytes(c.storage_bytes),
                    num(c.growth_years),
                    bytes(c.grown_storage_bytes),
                    num(c.logical_partitions),
                    esc(&c.partitions_reason()),
                    num(c.physical_partitions)
                );
            }
            None => out.push_str(&none.repeat(5)),
        }
        out.push_str("</tr>\n");
    }
    let shown = rows.iter().filter(|(_, designs)| designs[2].is_some()).count();
    out.push_str("</tbody></table>\n");
    let all = cost.containers.optimised.len();
    out.push_str(&Scope::left_out(shown, all, "containers", COST_JSON));
    out.push_str("<p class=\"muted\">RU/s of each container in each design (— where the design has no such container); items, storage and logical partitions of the optimised design today, its storage after <code>growthYears</code>, and the physical partitions that storage and the provisioned throughput give it (hover for where they come from), as every price and decision uses them.</p>\n");
    out
}
