//! Bar charts in SVG, every bar of a chart on one scale: the three designs (naive,
//! rules, optimised) side by side per group, and stacked bars of where a workload's
//! RU/s go.

use std::fmt::Write as _;

use super::html::{esc, px, ru};

/// One group of bars: a label and the three designs' values (RU/s).
pub struct Group<'a> {
    /// The group's title (an access pattern, or the workload).
    pub label: &'a str,
    /// Naive, rules, optimised.
    pub values: [f64; 3],
}

/// One stacked bar: a label and its parts (name, RU/s), drawn in order.
pub struct Stack {
    /// What the bar shows (`optimised, by pattern`).
    pub label: String,
    /// Each part's name and RU/s.
    pub parts: Vec<(String, f64)>,
}

const DESIGNS: [&str; 3] = ["naive", "rules", "optimised"];
const WIDTH: f64 = 1000.0;
const LABEL: f64 = 90.0;
const BAR_AREA: f64 = 780.0;
const BAR: f64 = 16.0;
const TITLE: f64 = 22.0;
const GAP: f64 = 14.0;
/// Colours of a stacked bar's parts, by the part's first appearance.
const PALETTE: [&str; 12] = [
    "#2f6fd0", "#e08a2c", "#3a9d5d", "#c0504d", "#8064a2", "#4bacc6", "#9b8a3c", "#d46fa8", "#5b6270", "#7fb13d",
    "#b5651d", "#1f9e9e",
];

/// The largest finite value of `values`, or 0.
fn largest(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().filter(|v| v.is_finite()).fold(0.0_f64, f64::max)
}

/// `value`'s bar length on a scale whose largest value is `max` (at least 2 px, so a
/// zero still shows).
fn length(value: f64, max: f64) -> f64 {
    let share = if max > 0.0 && value.is_finite() && value > 0.0 {
        value / max
    } else {
        0.0
    };
    (share * BAR_AREA).max(2.0)
}

fn open(svg: &mut String, id: &str, height: f64) {
    let _ = write!(
        svg,
        r#"<svg class="chart" id="{}" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">"#,
        esc(id),
        w = px(WIDTH),
        h = px(height)
    );
}

/// An SVG chart with `id`, one group per entry, every bar on one scale (the largest
/// value of all the groups), each bar's figure printed beside it.
pub fn bars(id: &str, groups: &[Group]) -> String {
    let group_height = TITLE + 3.0 * (BAR + 4.0) + GAP;
    let height = (groups.len() as f64 * group_height).max(1.0);
    let max = largest(groups.iter().flat_map(|g| g.values));
    let mut svg = String::new();
    open(&mut svg, id, height);
    for (g, group) in groups.iter().enumerate() {
        let top = g as f64 * group_height;
        let _ = write!(
            svg,
            r#"<g class="group"><text class="title" x="0" y="{}">{}</text>"#,
            px(top + 15.0),
            esc(group.label)
        );
        for (d, (design, value)) in DESIGNS.iter().zip(group.values).enumerate() {
            let y = top + TITLE + d as f64 * (BAR + 4.0);
            let width = length(value, max);
            let _ = write!(
                svg,
                r#"<text class="design" x="{}" y="{}" text-anchor="end">{design}</text><rect class="bar {design}" x="{}" y="{}" width="{}" height="{}"><title>{}: {}</title></rect><text class="value" x="{}" y="{}">{}</text>"#,
                px(LABEL - 6.0),
                px(y + 12.0),
                px(LABEL),
                px(y),
                px(width),
                px(BAR),
                esc(group.label),
                ru(value),
                px(LABEL + width + 6.0),
                px(y + 12.0),
                ru(value)
            );
        }
        svg.push_str("</g>");
    }
    svg.push_str("</svg>");
    svg
}

/// Parts of a stacked bar shown apart; the rest are summed as one.
const PARTS: usize = 9;
/// Legend entries on one line under a stacked bar.
const LEGEND_COLUMNS: usize = 3;

/// A chart with `id` of stacked bars on one scale, the heaviest parts first (past
/// [`PARTS`], the rest summed as "others"), each bar's parts coloured in order,
/// named inside when they have room, in their tooltip always, and in a legend with
/// their figures beneath the bar.
pub fn stacked(id: &str, stacks: &[Stack]) -> String {
    const BAR_HEIGHT: f64 = 26.0;
    const LEGEND_LINE: f64 = 16.0;
    const LABEL_WIDTH: f64 = 170.0;
    let area = WIDTH - LABEL_WIDTH - 90.0;
    let shown: Vec<Vec<(String, f64)>> = stacks.iter().map(|s| parts(&s.parts)).collect();
    let total = |parts: &[(String, f64)]| parts.iter().map(|(_, v)| *v).sum::<f64>();
    let max = largest(shown.iter().map(|p| total(p)));
    let heights: Vec<f64> = shown
        .iter()
        .map(|p| BAR_HEIGHT + 10.0 + p.len().div_ceil(LEGEND_COLUMNS) as f64 * LEGEND_LINE + 14.0)
        .collect();
    let mut svg = String::new();
    open(&mut svg, id, heights.iter().sum::<f64>().max(1.0));
    let mut y = 4.0;
    for ((s, parts), height) in stacks.iter().zip(&shown).zip(&heights) {
        let _ = write!(
            svg,
            r#"<g class="stack"><text class="design" x="{}" y="{}" text-anchor="end">{}</text>"#,
            px(LABEL_WIDTH - 8.0),
            px(y + 18.0),
            esc(&s.label)
        );
        let mut x = LABEL_WIDTH;
        let sum = total(parts);
        for (i, (name, value)) in parts.iter().enumerate() {
            let w = if max > 0.0 { value / max * area } else { 0.0 };
            let colour = PALETTE[i % PALETTE.len()];
            let figure = format!("{} ({:.1}%)", ru(*value), value / sum * 100.0);
            let _ = write!(
                svg,
                r#"<rect class="part" x="{}" y="{}" width="{}" height="{}" fill="{colour}"><title>{}: {}</title></rect>"#,
                px(x),
                px(y),
                px(w),
                px(BAR_HEIGHT),
                esc(name),
                esc(&figure)
            );
            // Named inside when the name fits (about 6.5 px a character at 11 px).
            if w > name.chars().count() as f64 * 6.5 + 8.0 {
                let _ = write!(
                    svg,
                    r#"<text class="part-label" x="{}" y="{}">{}</text>"#,
                    px(x + 4.0),
                    px(y + 17.0),
                    esc(name)
                );
            }
            let column = (WIDTH - LABEL_WIDTH) / LEGEND_COLUMNS as f64;
            let lx = LABEL_WIDTH + (i % LEGEND_COLUMNS) as f64 * column;
            let ly = y + BAR_HEIGHT + 8.0 + (i / LEGEND_COLUMNS) as f64 * LEGEND_LINE;
            let _ = write!(
                svg,
                r#"<g class="legend-entry"><rect x="{}" y="{}" width="10" height="10" fill="{colour}"/><text class="legend" x="{}" y="{}">{} · {}</text></g>"#,
                px(lx),
                px(ly),
                px(lx + 14.0),
                px(ly + 9.0),
                esc(&truncate(name, 26)),
                esc(&ru(*value))
            );
            x += w;
        }
        let _ = write!(
            svg,
            r#"<text class="value" x="{}" y="{}">{}</text></g>"#,
            px(x + 6.0),
            px(y + 18.0),
            ru(sum)
        );
        y += height;
    }
    svg.push_str("</svg>");
    svg
}

/// The positive, finite parts of a bar, heaviest first (ties by name), the ones past
/// [`PARTS`] summed as "n others".
fn parts(all: &[(String, f64)]) -> Vec<(String, f64)> {
    let mut parts: Vec<(String, f64)> = all.iter().filter(|(_, v)| v.is_finite() && *v > 0.0).cloned().collect();
    parts.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    if parts.len() > PARTS {
        let rest = parts.split_off(PARTS - 1);
        let sum = rest.iter().map(|(_, v)| v).sum();
        parts.push((format!("{} others", rest.len()), sum));
    }
    parts
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widths(svg: &str) -> Vec<f64> {
        svg.match_indices("<rect class=\"bar")
            .filter_map(|(i, _)| {
                let rest = &svg[i..];
                let w = rest.find("width=\"")? + 7;
                rest[w..].split('"').next()?.parse().ok()
            })
            .collect()
    }

    #[test]
    fn every_group_on_one_scale() {
        let svg = bars(
            "c",
            &[
                Group {
                    label: "a <b>",
                    values: [100.0, 50.0, 0.0],
                },
                Group {
                    label: "small",
                    values: [1.0, 0.5, 0.4],
                },
            ],
        );
        assert_eq!(svg.matches("<rect class=\"bar").count(), 6);
        let w = widths(&svg);
        assert_eq!(w[0], BAR_AREA, "{svg}");
        assert_eq!(w[1], BAR_AREA / 2.0, "{svg}");
        assert_eq!(w[2], 2.0, "a zero still shows: {svg}");
        // The second group's largest is a hundredth of the first's: not drawn as wide.
        assert!(w[3] < BAR_AREA / 50.0, "{svg}");
        assert!(svg.contains("a &lt;b&gt;") && !svg.contains("a <b>"));
        assert!(svg.contains("0.40 RU/s"), "{svg}");
    }

    #[test]
    fn odd_figures_do_not_break_the_svg() {
        let svg = bars(
            "c",
            &[Group {
                label: "x",
                values: [f64::NAN, f64::INFINITY, -1.0],
            }],
        );
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    }

    #[test]
    fn stacks_share_one_scale_and_sum_the_smallest_parts() {
        let mut many: Vec<(String, f64)> = (1..=12).map(|i| (format!("p{i:02}"), i as f64)).collect();
        many.push(("zero".into(), 0.0));
        let svg = stacked(
            "s",
            &[
                Stack {
                    label: "one".into(),
                    parts: vec![("A".into(), 100.0), ("B".into(), 300.0)],
                },
                Stack {
                    label: "two".into(),
                    parts: vec![("B".into(), 200.0)],
                },
                Stack {
                    label: "three".into(),
                    parts: many,
                },
            ],
        );
        let area = WIDTH - 170.0 - 90.0;
        assert!(
            svg.contains(&format!("width=\"{}\"", px(area * 0.75))),
            "B first, on the scale of 400: {svg}"
        );
        assert!(svg.contains(&format!("width=\"{}\"", px(area * 0.5))), "{svg}");
        assert!(svg.contains("400 RU/s") && svg.contains("200 RU/s"), "{svg}");
        // 12 parts: the 8 heaviest, then the 4 lightest (1+2+3+4) as one; no zero part.
        assert!(svg.contains("4 others · 10 RU/s"), "{svg}");
        assert_eq!(svg.matches("<rect class=\"part\"").count(), 2 + 1 + PARTS, "{svg}");
        assert!(!svg.contains("zero"), "{svg}");
    }
}
