//! The report's diagram, as SVG drawn in Rust and laid out by [`super::layout`]:
//! one box per container (name and partition key), a row per document type with
//! its embedded objects indented beneath it (arrays with their bound) and, in the
//! fuller drawing, its attributes; an edge from each container to the containers
//! it refers to (plain and extended references drawn apart), to its copies and to
//! the claims of its unique values, each labelled. Deterministic: the layout
//! follows the model's order.

use std::fmt::Write as _;

use cosmap_mapper::{Embedded, LogicalModel, Property, Reference, Role};

use super::chart::truncate;
use super::html::{esc, px};
use super::layout::{layout, Graph, Laid, BOX_WIDTH};
use crate::mermaid::{embedded_name, embedded_what};

const HEADER: f64 = 38.0;
const ROW: f64 = 20.0;
const PAD: f64 = 10.0;
const INDENT: f64 = 14.0;
/// Characters of a line that fit a box (about 6.5 px a character at 12 px).
const LINE_CHARS: usize = 34;
/// Width of a character of an edge's label (10 px text), kept generous.
const LABEL_CHAR: f64 = 6.2;

/// One line inside a container box.
struct Line {
    text: String,
    depth: usize,
    class: &'static str,
}

/// The kinds of edge, each drawn its own way (the legend says which).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Reference,
    Extended,
    Copy,
    Claim,
}

impl Kind {
    fn class(self) -> &'static str {
        match self {
            Kind::Reference => "ref",
            Kind::Extended => "ext",
            Kind::Copy => "copy",
            Kind::Claim => "claim",
        }
    }
}

/// An edge between two containers, its label the names it stands for.
struct Edge {
    from: usize,
    to: usize,
    kind: Kind,
    names: Vec<String>,
}

/// The SVG diagram of `model`, with `id`; with each document type's attributes
/// when `attributes`.
pub fn svg(model: &LogicalModel, id: &str, attributes: bool) -> String {
    let lines: Vec<Vec<Line>> = model.containers.iter().map(|c| box_lines(c, attributes)).collect();
    let edges = edges(model);
    let labels: Vec<String> = edges.iter().map(|e| truncate(&e.names.join(", "), 40)).collect();
    let graph = Graph {
        heights: lines.iter().map(|l| HEADER + l.len() as f64 * ROW + PAD).collect(),
        edges: edges.iter().map(|e| (e.from, e.to)).collect(),
        label_widths: labels
            .iter()
            .map(|l| l.chars().count() as f64 * LABEL_CHAR + 4.0)
            .collect(),
    };
    let laid = layout(&graph);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg id="{}" class="diagram" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" style="max-width:100%;height:auto" role="img"><title>Containers of {}</title>"#,
        esc(id),
        esc(&model.model),
        w = px(laid.width),
        h = px(laid.height)
    );
    let _ = write!(
        svg,
        r##"<defs><marker id="{id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>"##,
        id = esc(id)
    );
    for (ci, c) in model.containers.iter().enumerate() {
        container(&mut svg, ci, c, &laid, &lines[ci]);
    }
    // Edges over the boxes (they only touch their own), labels over the edges.
    for (e, edge) in edges.iter().enumerate() {
        draw_edge(
            &mut svg,
            id,
            edge,
            &laid.routes[e],
            &labels[e],
            edge.names.join(", "),
            laid.labels[e],
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The HTML legend of the edges' kinds.
pub fn legend() -> String {
    let sample = |class: &str, what: &str| {
        format!(
            r#"<li><svg class="sample" width="44" height="12" viewBox="0 0 44 12"><g class="link {class}"><path d="M2 6 H42"/></g></svg> {what}</li>"#
        )
    };
    format!(
        "<ul class=\"legend\">{}{}{}{}</ul>",
        sample("ref", "reference (id and partition key)"),
        sample("ext", "extended reference (keeps some of the target's attributes)"),
        sample("copy", "copy kept in sync from the change feed"),
        sample("claim", "uniqueness claim of an owner's value")
    )
}

fn container(svg: &mut String, ci: usize, c: &cosmap_mapper::Container, laid: &Laid, own: &[Line]) {
    let b = laid.boxes[ci];
    let _ = write!(
        svg,
        r#"<g class="container" data-index="{ci}"><rect class="box" x="{}" y="{}" width="{}" height="{}" rx="6"/><text class="name" x="{}" y="{}">{}</text><text class="key" x="{}" y="{}">partition key {}</text>"#,
        px(b.x),
        px(b.y),
        px(b.w),
        px(b.h),
        px(b.x + PAD),
        px(b.y + 17.0),
        esc(&truncate(&c.name, LINE_CHARS)),
        px(b.x + PAD),
        px(b.y + 31.0),
        esc(&truncate(&c.partition_key.paths.join(", "), LINE_CHARS - 14))
    );
    for (i, line) in own.iter().enumerate() {
        let y = b.y + HEADER + i as f64 * ROW;
        let x = b.x + PAD + line.depth as f64 * INDENT;
        if line.depth == 0 {
            let _ = write!(
                svg,
                r#"<rect class="{}" x="{}" y="{}" width="{}" height="{}" rx="3"/>"#,
                line.class,
                px(x - 4.0),
                px(y + 2.0),
                px(BOX_WIDTH - 2.0 * PAD + 8.0),
                px(ROW - 3.0)
            );
        }
        let chars = LINE_CHARS.saturating_sub(2 * line.depth);
        let shown = truncate(&line.text, chars);
        let title = if shown == line.text {
            String::new()
        } else {
            format!("<title>{}</title>", esc(&line.text))
        };
        let _ = write!(
            svg,
            r#"<text class="line {}" x="{}" y="{}">{title}{}</text>"#,
            if line.depth == 0 { "doc-name" } else { line.class },
            px(x),
            px(y + 15.0),
            esc(&shown)
        );
    }
    svg.push_str("</g>");
}

fn draw_edge(svg: &mut String, id: &str, edge: &Edge, route: &[(f64, f64)], label: &str, full: String, at: (f64, f64)) {
    let mut d = String::new();
    for (i, (x, y)) in route.iter().enumerate() {
        let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { " L" }, px(*x), px(*y));
    }
    let _ = write!(
        svg,
        r#"<g class="link {class}" data-from="{}" data-to="{}"><path d="{d}" marker-end="url(#{}-arrow)"><title>{}</title></path><text class="link-label" x="{}" y="{}">{}</text></g>"#,
        edge.from,
        edge.to,
        esc(id),
        esc(&full),
        px(at.0),
        px(at.1),
        esc(label),
        class = edge.kind.class()
    );
}

/// A container's lines: each document type (name and role), the objects embedded
/// in it and, when `attributes`, its attributes.
fn box_lines(c: &cosmap_mapper::Container, attributes: bool) -> Vec<Line> {
    let mut own = Vec::new();
    for d in &c.document_types {
        own.push(Line {
            text: format!("{} · {}", d.name, d.role.as_str()),
            depth: 0,
            class: if d.role == Role::Copy { "doc copy" } else { "doc" },
        });
        if attributes {
            properties(&d.attributes, 1, &mut own);
        }
        embedded(&d.embedded, 1, attributes, &mut own);
    }
    own
}

fn properties(list: &[Property], depth: usize, own: &mut Vec<Line>) {
    for p in list {
        let many = if p.many { "[]" } else { "" };
        let optional = if p.optional { "?" } else { "" };
        own.push(Line {
            text: format!("{}{optional}: {}{many}", p.name, p.ty.as_str()),
            depth,
            class: "attribute",
        });
    }
}

fn embedded(list: &[Embedded], depth: usize, attributes: bool, own: &mut Vec<Line>) {
    for e in list {
        own.push(Line {
            text: format!("↳ {}: {}", embedded_name(e), embedded_what(e)),
            depth,
            class: "embedded",
        });
        if attributes {
            properties(&e.attributes, depth + 1, own);
        }
        embedded(&e.embedded, depth + 1, attributes, own);
    }
}

/// The edges between containers: references (of document types and of the objects
/// embedded in them), copies and claims, one edge per pair of containers and kind,
/// labelled with every name it stands for.
fn edges(model: &LogicalModel) -> Vec<Edge> {
    let index = |name: &str| model.containers.iter().position(|c| c.name == name);
    let mut out: Vec<Edge> = Vec::new();
    let mut add = |from: Option<usize>, to: Option<usize>, kind: Kind, name: String| {
        let (Some(from), Some(to)) = (from, to) else { return };
        match out.iter_mut().find(|e| e.from == from && e.to == to && e.kind == kind) {
            Some(e) if !e.names.contains(&name) => e.names.push(name),
            Some(_) => {}
            None => out.push(Edge {
                from,
                to,
                kind,
                names: vec![name],
            }),
        }
    };
    for (ci, c) in model.containers.iter().enumerate() {
        for d in &c.document_types {
            let mut refs: Vec<&Reference> = d.references.iter().collect();
            collect_refs(&d.embedded, &mut refs);
            for r in refs {
                let kind = if r.extended.is_some() {
                    Kind::Extended
                } else {
                    Kind::Reference
                };
                let many = if r.many { "[]" } else { "" };
                // Which document type holds it, where the container holds more than one.
                let name = if c.document_types.len() > 1 {
                    format!("{}.{}{many}", d.name, r.name)
                } else {
                    format!("{}{many}", r.name)
                };
                add(Some(ci), index(&r.target_container), kind, name);
            }
            let copy = d
                .copy_of
                .as_ref()
                .map(|of| (&of.container, Kind::Copy, format!("copy by {}", of.partition_key_from)));
            let claim = d
                .claim_of
                .as_ref()
                .map(|of| (&of.container, Kind::Claim, format!("unique {}", of.attribute)));
            for (source, kind, label) in copy.into_iter().chain(claim) {
                add(index(source), Some(ci), kind, label);
            }
        }
    }
    out
}

fn collect_refs<'m>(list: &'m [Embedded], refs: &mut Vec<&'m Reference>) {
    for e in list {
        refs.extend(&e.references);
        collect_refs(&e.embedded, refs);
    }
}
