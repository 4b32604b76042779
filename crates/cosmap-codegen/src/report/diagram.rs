//! The report's diagram, as SVG laid out in Rust: one box per container (name and
//! partition key), a row per document type with its embedded objects indented
//! beneath it (arrays with their bound), dashed curves for references and thick
//! curves for copies. Deterministic: the layout follows the model's order.

use std::fmt::Write as _;

use cosmap_mapper::{Embedded, EmbeddedKind, LogicalModel, Reference, Role};

use super::html::{esc, px};

const BOX: f64 = 330.0;
const GUTTER: f64 = 140.0;
const HEADER: f64 = 34.0;
const ROW: f64 = 20.0;
const PAD: f64 = 10.0;
const COLUMNS: usize = 3;
const ROW_GAP: f64 = 50.0;
const INDENT: f64 = 16.0;

/// One line inside a container box.
struct Line {
    text: String,
    depth: usize,
    class: &'static str,
}

/// A curve between two lines: (container, line) to (container, line).
struct Link {
    from: (usize, usize),
    to: (usize, usize),
    label: String,
    class: &'static str,
}

/// A laid-out container.
struct Placed {
    x: f64,
    y: f64,
    height: f64,
    column: usize,
}

/// The SVG diagram of `model`, with `id="diagram"`.
pub fn svg(model: &LogicalModel) -> String {
    let mut lines: Vec<Vec<Line>> = Vec::new();
    let mut holders: Vec<(usize, usize, &Reference)> = Vec::new();
    let mut doc_line: Vec<Vec<usize>> = Vec::new();
    for (ci, c) in model.containers.iter().enumerate() {
        let mut own = Vec::new();
        let mut docs = Vec::new();
        for d in &c.document_types {
            docs.push(own.len());
            let role = d.role.as_str();
            let class = match d.role {
                Role::Copy => "doc copy",
                _ => "doc",
            };
            own.push(Line {
                text: format!("{} · {role}", d.name),
                depth: 0,
                class,
            });
            let line = own.len() - 1;
            holders.extend(d.references.iter().map(|r| (ci, line, r)));
            embedded(ci, &d.embedded, 1, &mut own, &mut holders);
        }
        lines.push(own);
        doc_line.push(docs);
    }
    let locate = |container: &str, document: &str| -> Option<(usize, usize)> {
        let ci = model.containers.iter().position(|c| c.name == container)?;
        let di = model.containers[ci]
            .document_types
            .iter()
            .position(|d| d.name == document && d.role != Role::Copy)?;
        Some((ci, *doc_line.get(ci)?.get(di)?))
    };
    let mut links = Vec::new();
    for (ci, line, r) in &holders {
        if let Some(to) = locate(&r.target_container, &r.target) {
            links.push(Link {
                from: (*ci, *line),
                to,
                label: if r.many {
                    format!("{}[]", r.name)
                } else {
                    r.name.clone()
                },
                class: "ref",
            });
        }
    }
    for (ci, c) in model.containers.iter().enumerate() {
        for (di, d) in c.document_types.iter().enumerate() {
            if let (Some(of), Some(line)) = (&d.copy_of, doc_line[ci].get(di)) {
                if let Some(from) = locate(&of.container, &of.document_type) {
                    links.push(Link {
                        from,
                        to: (ci, *line),
                        label: format!("copy by {}", of.partition_key_from),
                        class: "copy",
                    });
                }
            }
        }
    }
    let placed = layout(&lines);
    let width = placed.iter().map(|p| p.x + BOX).fold(BOX, f64::max) + GUTTER / 2.0;
    let height = placed.iter().map(|p| p.y + p.height).fold(HEADER, f64::max) + PAD;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg id="diagram" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img"><title>Containers of {}</title>"#,
        esc(&model.model),
        w = px(width),
        h = px(height)
    );
    svg.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>"##);
    for ((c, p), own) in model.containers.iter().zip(&placed).zip(&lines) {
        let _ = write!(
            svg,
            r#"<g class="container"><rect class="box" x="{}" y="{}" width="{}" height="{}" rx="6"/><text class="name" x="{}" y="{}">{}</text><text class="key" x="{}" y="{}">partition key {}</text>"#,
            px(p.x),
            px(p.y),
            px(BOX),
            px(p.height),
            px(p.x + PAD),
            px(p.y + 16.0),
            esc(&c.name),
            px(p.x + PAD),
            px(p.y + 29.0),
            esc(&c.partition_key.paths.join(", "))
        );
        for (i, line) in own.iter().enumerate() {
            let y = p.y + HEADER + i as f64 * ROW;
            let x = p.x + PAD + line.depth as f64 * INDENT;
            if line.depth == 0 {
                let _ = write!(
                    svg,
                    r#"<rect class="{}" x="{}" y="{}" width="{}" height="{}" rx="3"/>"#,
                    line.class,
                    px(x - 4.0),
                    px(y + 2.0),
                    px(BOX - 2.0 * PAD + 8.0),
                    px(ROW - 3.0)
                );
            }
            let _ = write!(
                svg,
                r#"<text class="line {}" x="{}" y="{}">{}</text>"#,
                if line.depth == 0 { "doc-name" } else { "embedded" },
                px(x),
                px(y + 15.0),
                esc(&line.text)
            );
        }
        svg.push_str("</g>");
    }
    for link in &links {
        svg.push_str(&curve(link, &placed));
    }
    svg.push_str("</svg>");
    svg
}

fn embedded<'m>(
    ci: usize,
    list: &'m [Embedded],
    depth: usize,
    own: &mut Vec<Line>,
    holders: &mut Vec<(usize, usize, &'m Reference)>,
) {
    for e in list {
        let what = match e.kind {
            EmbeddedKind::ValueObject => e.source.clone(),
            EmbeddedKind::ReferenceData => format!("{} snapshot", e.source),
            EmbeddedKind::Subset => format!("newest {} subset", e.source),
        };
        let name = match (e.many, e.max) {
            (true, Some(max)) => format!("{}[] ≤ {max}", e.name),
            (true, None) => format!("{}[]", e.name),
            (false, _) => e.name.clone(),
        };
        own.push(Line {
            text: format!("↳ {name}: {what}"),
            depth,
            class: "embedded",
        });
        let line = own.len() - 1;
        holders.extend(e.references.iter().map(|r| (ci, line, r)));
        embedded(ci, &e.embedded, depth + 1, own, holders);
    }
}

/// Containers in rows of [`COLUMNS`], each row as tall as its tallest box.
fn layout(lines: &[Vec<Line>]) -> Vec<Placed> {
    let mut placed = Vec::new();
    let mut y = PAD;
    for row in lines.chunks(COLUMNS) {
        let mut tallest: f64 = 0.0;
        for (column, own) in row.iter().enumerate() {
            let height = HEADER + own.len() as f64 * ROW + PAD;
            tallest = tallest.max(height);
            placed.push(Placed {
                x: PAD + column as f64 * (BOX + GUTTER),
                y,
                height,
                column,
            });
        }
        y += tallest + ROW_GAP;
    }
    placed
}

/// A cubic curve between two lines' edges, with its label at the middle.
fn curve(link: &Link, placed: &[Placed]) -> String {
    let (Some(a), Some(b)) = (placed.get(link.from.0), placed.get(link.to.0)) else {
        return String::new();
    };
    let ay = a.y + HEADER + link.from.1 as f64 * ROW + ROW / 2.0 + 1.0;
    let by = b.y + HEADER + link.to.1 as f64 * ROW + ROW / 2.0 + 1.0;
    let (ax, bx, ac, bc) = if b.column > a.column {
        (a.x + BOX, b.x, a.x + BOX + 70.0, b.x - 70.0)
    } else if b.column < a.column {
        (a.x, b.x + BOX, a.x - 70.0, b.x + BOX + 70.0)
    } else {
        let bend = 60.0 + 6.0 * ((link.from.1 + link.to.1) % 8) as f64;
        (a.x + BOX, b.x + BOX, a.x + BOX + bend, b.x + BOX + bend)
    };
    let (mx, my) = (0.125 * ax + 0.375 * ac + 0.375 * bc + 0.125 * bx, 0.5 * ay + 0.5 * by);
    format!(
        r#"<g class="link {class}"><path d="M{} {} C{} {} {} {} {} {}" marker-end="url(#arrow)"><title>{label}</title></path><text class="link-label" x="{}" y="{}" text-anchor="middle">{label}</text></g>"#,
        px(ax),
        px(ay),
        px(ac),
        px(ay),
        px(bc),
        px(by),
        px(bx),
        px(by),
        px(mx),
        px(my - 3.0),
        class = link.class,
        label = esc(&link.label)
    )
}
