//! Horizontal bar charts in SVG: the three designs (naive, rules, optimised) side by side.

use std::fmt::Write as _;

use super::html::{esc, px, ru};

/// One group of bars: a label and the three designs' values (RU/s).
pub struct Group<'a> {
    /// The group's title (an access pattern, or the workload).
    pub label: &'a str,
    /// Naive, rules, optimised.
    pub values: [f64; 3],
}

const DESIGNS: [&str; 3] = ["naive", "rules", "optimised"];
const WIDTH: f64 = 760.0;
const LABEL: f64 = 90.0;
const BAR_AREA: f64 = 560.0;
const BAR: f64 = 16.0;
const TITLE: f64 = 22.0;
const GAP: f64 = 14.0;

/// An SVG chart with `id`, one group per entry; each group's bars are scaled to
/// its own largest value (the figures are printed beside each bar).
pub fn bars(id: &str, groups: &[Group]) -> String {
    let group_height = TITLE + 3.0 * (BAR + 4.0) + GAP;
    let height = (groups.len() as f64 * group_height).max(1.0);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart" id="{}" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img">"#,
        esc(id),
        px(WIDTH),
        px(height),
        px(WIDTH),
        px(height)
    );
    for (g, group) in groups.iter().enumerate() {
        let top = g as f64 * group_height;
        let max = group
            .values
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0_f64, f64::max);
        let _ = write!(
            svg,
            r#"<g class="group"><text class="title" x="0" y="{}">{}</text>"#,
            px(top + 15.0),
            esc(group.label)
        );
        for (d, (design, value)) in DESIGNS.iter().zip(group.values).enumerate() {
            let y = top + TITLE + d as f64 * (BAR + 4.0);
            let share = if max > 0.0 && value.is_finite() {
                value / max
            } else {
                0.0
            };
            let width = (share * BAR_AREA).max(2.0);
            let _ = write!(
                svg,
                r#"<text class="design" x="{}" y="{}" text-anchor="end">{design}</text><rect class="bar {design}" x="{}" y="{}" width="{}" height="{}"><title>{}: {} RU/s</title></rect><text class="value" x="{}" y="{}">{} RU/s</text>"#,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bar_per_design_scaled_to_the_largest() {
        let svg = bars(
            "c",
            &[Group {
                label: "a <b>",
                values: [100.0, 50.0, 0.0],
            }],
        );
        assert_eq!(svg.matches("<rect class=\"bar").count(), 3);
        assert!(svg.contains("width=\"560.0\""), "{svg}");
        assert!(svg.contains("width=\"280.0\""), "{svg}");
        assert!(svg.contains("width=\"2.0\""), "a zero still shows: {svg}");
        assert!(svg.contains("a &lt;b&gt;") && !svg.contains("a <b>"));
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
}
