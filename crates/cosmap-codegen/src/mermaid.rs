//! `model.mmd`: a Mermaid flowchart of the logical model — containers with their
//! partition keys, document types, embedded objects, references and copies.

use cosmap_mapper::{Embedded, EmbeddedKind, LogicalModel, Reference, Role};
use serde::Serialize;

/// What `model.mmd.hbs` renders.
#[derive(Debug, Serialize)]
pub struct MermaidView {
    pub model: String,
    pub containers: Vec<Subgraph>,
    pub edges: Vec<Edge>,
}

/// A container.
#[derive(Debug, Serialize)]
pub struct Subgraph {
    pub id: String,
    pub label: String,
    pub nodes: Vec<Node>,
}

/// A document type (`document: true`) or an embedded object.
#[derive(Debug, Serialize)]
pub struct Node {
    pub id: String,
    pub label: String,
    pub document: bool,
}

/// An arrow: `kind` is `embeds`, `references` or `copy`.
#[derive(Debug, Serialize)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub label: String,
    pub kind: &'static str,
}

/// The view for `model`.
pub fn view(model: &LogicalModel) -> MermaidView {
    let mut edges = Vec::new();
    let mut containers = Vec::new();
    let mut pending: Vec<(String, &Reference)> = Vec::new();
    for (ci, c) in model.containers.iter().enumerate() {
        let mut nodes = Vec::new();
        for (di, d) in c.document_types.iter().enumerate() {
            let id = format!("c{ci}d{di}");
            let role = match d.role {
                Role::Root => "root",
                Role::Entity => "entity",
                Role::ValueObject => "value object",
                Role::Copy => "copy",
            };
            nodes.push(Node {
                id: id.clone(),
                label: format!("{} · {role}", d.name),
                document: true,
            });
            if let Some(of) = &d.copy_of {
                if let Some(source) = locate(model, &of.container, &of.document_type) {
                    edges.push(Edge {
                        from: source,
                        to: id.clone(),
                        label: "copy, change feed".into(),
                        kind: "copy",
                    });
                }
            }
            embedded(&id, &d.embedded, &mut nodes, &mut edges, &mut pending);
            pending.extend(d.references.iter().map(|r| (id.clone(), r)));
        }
        containers.push(Subgraph {
            id: format!("c{ci}"),
            label: format!("{} · {}", c.name, c.partition_key.paths.join(", ")),
            nodes,
        });
    }
    for (from, r) in pending {
        if let Some(to) = locate(model, &r.target_container, &r.target) {
            let label = if r.many {
                format!("{}[]", r.name)
            } else {
                r.name.clone()
            };
            edges.push(Edge {
                from,
                to,
                label,
                kind: "references",
            });
        }
    }
    MermaidView {
        model: model.model.clone(),
        containers,
        edges,
    }
}

fn embedded<'m>(
    parent: &str,
    list: &'m [Embedded],
    nodes: &mut Vec<Node>,
    edges: &mut Vec<Edge>,
    pending: &mut Vec<(String, &'m Reference)>,
) {
    for (k, e) in list.iter().enumerate() {
        let id = format!("{parent}e{k}");
        let what = match e.kind {
            EmbeddedKind::ValueObject => e.source.clone(),
            EmbeddedKind::ReferenceData => format!("{} snapshot", e.source),
        };
        nodes.push(Node {
            id: id.clone(),
            label: what,
            document: false,
        });
        edges.push(Edge {
            from: parent.to_string(),
            to: id.clone(),
            label: if e.many {
                format!("{}[]", e.name)
            } else {
                e.name.clone()
            },
            kind: "embeds",
        });
        embedded(&id, &e.embedded, nodes, edges, pending);
        pending.extend(e.references.iter().map(|r| (id.clone(), r)));
    }
}

/// The node id of the (non-copy) document type `document` in container `container`.
fn locate(model: &LogicalModel, container: &str, document: &str) -> Option<String> {
    let ci = model.containers.iter().position(|c| c.name == container)?;
    let di = model.containers[ci]
        .document_types
        .iter()
        .position(|d| d.name == document && d.role != Role::Copy)?;
    Some(format!("c{ci}d{di}"))
}
