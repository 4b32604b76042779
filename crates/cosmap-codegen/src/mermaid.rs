//! `model.mmd`: a Mermaid flowchart of the logical model — containers with their
//! partition keys, document types, embedded objects (with their bounds), the
//! documents an aggregate keeps beside its root in the same partition,
//! references, copies, and the access patterns with the document types each
//! reads or writes.
//!
//! Every label is quoted (`["…"]`, `|"…"|`) with `"` written as `#quot;` and the
//! characters that could start a directive, HTML or Markdown as entity codes, so no
//! name, bound (`items[] ≤ 100`) or description can break Mermaid's parser or run.

use cosmap_domain::NameMap;
use cosmap_mapper::{Decision, DocumentType, Embedded, EmbeddedKind, LogicalModel, Reference, Role, Rule};
use serde::Serialize;

/// What `model.mmd` is written from (and an override `model.mmd.hbs` renders from);
/// every label in it is quoted for Mermaid already (`quote`).
#[derive(Debug, Serialize)]
pub struct MermaidView {
    /// The model's name.
    pub model: String,
    /// The containers, one subgraph each.
    pub containers: Vec<Subgraph>,
    /// The access patterns, one node each (empty when the model declares none).
    pub patterns: Vec<DiagramBox>,
    /// Every arrow of the diagram.
    pub edges: Vec<Edge>,
}

/// A container.
#[derive(Debug, Serialize)]
pub struct Subgraph {
    /// Its node id (`c0`, `c1`, …).
    pub id: String,
    /// The container's name and partition key paths.
    pub label: String,
    /// Its document types and embedded objects.
    pub nodes: Vec<DiagramBox>,
}

/// One box of the diagram: a document type (`document: true`), an embedded object, or an access pattern.
#[derive(Debug, Serialize)]
pub struct DiagramBox {
    /// Its node id.
    pub id: String,
    /// What the box says.
    pub label: String,
    /// Whether it is a document type (drawn square) rather than an embedded object
    /// or a pattern (drawn round).
    pub document: bool,
    /// The element's `description` from the model, one line (a `%%` comment after it).
    pub description: Option<String>,
}

/// An arrow: `kind` is `embeds`, `contains` (a separate document type of the same
/// aggregate, in the same partition), `references`, `copy` or `pattern` (an access
/// pattern to a document type its requests read or write).
#[derive(Debug, Serialize)]
pub struct Edge {
    /// The node id it starts at.
    pub from: String,
    /// The node id it ends at.
    pub to: String,
    /// What the arrow says.
    pub label: String,
    /// What it draws (above).
    pub kind: &'static str,
}

/// The view for `model`.
pub fn view(model: &LogicalModel) -> MermaidView {
    let places = Places::new(model);
    let mut edges = Vec::new();
    let mut containers = Vec::new();
    let mut pending: Vec<(String, String, &Reference)> = Vec::new();
    for (ci, c) in model.containers.iter().enumerate() {
        let mut nodes = Vec::new();
        // The partition key, as the edges to a document type's holder name it.
        let key = c.partition_key_properties().join(", /");
        for (di, d) in c.document_types.iter().enumerate() {
            let id = document_id(ci, di);
            let role = d.role.as_str();
            nodes.push(DiagramBox {
                id: id.clone(),
                label: quote(format!("{} · {role}", d.name)),
                document: true,
                description: d.description.as_deref().map(comment),
            });
            if let Some(of) = &d.copy_of {
                if let Some(source) = places.locate(&of.container, &of.document_type) {
                    edges.push(Edge {
                        from: source,
                        to: id.clone(),
                        label: quote(format!("copy by {}, change feed", of.partition_key_from)),
                        kind: "copy",
                    });
                }
            }
            if let Some((parent, label)) = holder(model, &places, ci, d, &key) {
                edges.push(Edge {
                    from: parent,
                    to: id.clone(),
                    label: quote(label),
                    kind: "contains",
                });
            }
            embedded(&id, &d.name, &d.embedded, &mut nodes, &mut edges, &mut pending);
            pending.extend(d.references.iter().map(|r| (id.clone(), d.name.clone(), r)));
        }
        containers.push(Subgraph {
            id: format!("c{ci}"),
            label: quote(format!("{} · {}", c.name, c.partition_key.paths.join(", "))),
            nodes,
        });
    }
    reference_edges(&places, pending, &mut edges);
    let patterns = patterns(model, &places, &mut edges);
    MermaidView {
        model: quote(model.model.clone()),
        containers,
        patterns,
        edges,
    }
}

/// An edge for each reference `pending` holds (the node it starts at, the path of
/// its holder, the reference) whose target the diagram draws, labelled with its name
/// and its bound when not `one`.
fn reference_edges(places: &Places<'_>, pending: Vec<(String, String, &Reference)>, edges: &mut Vec<Edge>) {
    for (from, path, r) in pending {
        if let Some(to) = places.locate(&r.target_container, &r.target) {
            let name = if r.many {
                format!("{}[]", r.name)
            } else {
                r.name.clone()
            };
            let label = match places
                .references
                .get(format!("{path}.{}", r.name).as_str())
                .and_then(|d| bound(d))
            {
                Some(card) if card != "one" => format!("{name} · {card}"),
                _ => name,
            };
            edges.push(Edge {
                from,
                to,
                label: quote(label),
                kind: "references",
            });
        }
    }
}

/// A node per access pattern, and an edge from it to each document type its
/// requests touch, labelled with how (`pointRead`, `crossPartitionQuery`, `write`).
fn patterns(model: &LogicalModel, places: &Places<'_>, edges: &mut Vec<Edge>) -> Vec<DiagramBox> {
    let mut nodes = Vec::new();
    for (pi, op) in model.operations.iter().enumerate() {
        let id = format!("p{pi}");
        nodes.push(DiagramBox {
            id: id.clone(),
            label: quote(format!("{} · {}/s", op.pattern, op.per_second)),
            document: false,
            description: None,
        });
        // The document types (container and index) and ways already joined to it.
        let mut seen: Vec<(usize, usize, &str)> = Vec::new();
        for r in &op.requests {
            let Some(&ci) = places.containers.get(r.container.as_str()) else {
                continue;
            };
            for name in &r.document_types {
                let Some(&(di, _)) = places.documents[ci].get(name.as_str()) else {
                    continue;
                };
                let how = r.kind().as_str();
                if seen.contains(&(ci, di, how)) {
                    continue;
                }
                seen.push((ci, di, how));
                edges.push(Edge {
                    from: id.clone(),
                    to: document_id(ci, di),
                    label: quote(how.to_string()),
                    kind: "pattern",
                });
            }
        }
    }
    nodes
}

fn embedded<'m>(
    parent: &str,
    path: &str,
    list: &'m [Embedded],
    nodes: &mut Vec<DiagramBox>,
    edges: &mut Vec<Edge>,
    pending: &mut Vec<(String, String, &'m Reference)>,
) {
    for (k, e) in list.iter().enumerate() {
        let id = format!("{parent}e{k}");
        nodes.push(DiagramBox {
            id: id.clone(),
            label: quote(embedded_what(e)),
            document: false,
            description: e.description.as_deref().map(comment),
        });
        edges.push(Edge {
            from: parent.to_string(),
            to: id.clone(),
            label: quote(embedded_name(e)),
            kind: "embeds",
        });
        let inner = format!("{path}.{}", e.name);
        embedded(&id, &inner, &e.embedded, nodes, edges, pending);
        pending.extend(e.references.iter().map(|r| (id.clone(), inner.clone(), r)));
    }
}

/// What embedded object `e` holds, as both diagrams name it: its value object
/// (`Address`), a snapshot of reference data (`Country snapshot`) or the newest of a
/// subset (`newest Review subset`).
pub(crate) fn embedded_what(e: &Embedded) -> String {
    match e.kind {
        EmbeddedKind::ValueObject => e.source.clone(),
        EmbeddedKind::ReferenceData => format!("{} snapshot", e.source),
        EmbeddedKind::Subset => format!("newest {} subset", e.source),
    }
}

/// Embedded object `e`'s property with its bound: `items[] ≤ 100`, `items[]`, `address`.
pub(crate) fn embedded_name(e: &Embedded) -> String {
    match (e.many, e.max) {
        (true, Some(max)) => format!("{}[] ≤ {max}", e.name),
        (true, None) => format!("{}[]", e.name),
        (false, _) => e.name.clone(),
    }
}

/// The text of `model.mmd` for `view`: the containers as
/// subgraphs of their document types and embedded objects, the access patterns,
/// then the edges.
pub fn text(view: &MermaidView) -> String {
    let mut out = crate::generated_line("%%", &view.model);
    out.push_str(LEGEND);
    for c in &view.containers {
        line(&mut out, &["  subgraph ", &c.id, "[\"", &c.label, "\"]"]);
        for n in &c.nodes {
            if n.document {
                line(&mut out, &["    ", &n.id, "[\"", &n.label, "\"]"]);
            } else {
                line(&mut out, &["    ", &n.id, "(\"", &n.label, "\")"]);
            }
            if let Some(description) = n.description.as_deref().filter(|d| !d.is_empty()) {
                line(&mut out, &["    %% ", &n.label, ": ", description]);
            }
        }
        out.push_str("  end\n");
    }
    if !view.patterns.is_empty() {
        out.push_str("  subgraph patterns[\"access patterns\"]\n");
        for p in &view.patterns {
            line(&mut out, &["    ", &p.id, "([\"", &p.label, "\"])"]);
        }
        out.push_str("  end\n");
    }
    for e in &view.edges {
        let arrow = match e.kind {
            "embeds" => "-->",
            "contains" => "---",
            "references" => "-.->",
            "pattern" => "--o",
            "copy" => "==>",
            _ => continue,
        };
        line(&mut out, &["  ", &e.from, " ", arrow, "|\"", &e.label, "\"| ", &e.to]);
    }
    out
}

/// The diagram's legend (after its first line) and its start.
const LEGEND: &str = "%% Solid arrows embed (with the array's bound), plain lines join an aggregate's separate
%% documents to their holder in the same partition, dotted arrows are references
%% (id + partition key), thick arrows copies, lines ending in a circle join an access
%% pattern to the document types its requests read or write.
flowchart LR
";

/// `parts` one after the other, and a line break.
fn line(out: &mut String, parts: &[&str]) {
    for part in parts {
        out.push_str(part);
    }
    out.push('\n');
}

/// For a non-root entity or a separated value object: the node of the document
/// type that holds it (the root of its container, or the entity named by its
/// parent link) and the edge's label (the containment's property and bound, and
/// the partition key both share).
fn holder(
    model: &LogicalModel,
    places: &Places<'_>,
    ci: usize,
    d: &DocumentType,
    key: &str,
) -> Option<(String, String)> {
    if !matches!(d.role, Role::Entity | Role::ValueObject) {
        return None;
    }
    let container = &model.containers[ci];
    let parent = match &d.parent {
        Some(link) => &link.entity,
        None => &container.document_types.iter().find(|p| p.role == Role::Root)?.name,
    };
    let node = places.locate(&container.name, parent)?;
    let label = match &d.containment {
        Some(c) => {
            let card = match c.max {
                Some(max) => format!("≤ {max}"),
                None => c.cardinality.as_str().to_string(),
            };
            format!("{} · {card} · same /{key}", c.property)
        }
        None => format!("documents · same /{key}"),
    };
    Some((node, label))
}

/// A decision's `cardinality` (and `max`) evidence as a label: `≤ 5`, `squillions`.
fn bound(decision: &Decision) -> Option<String> {
    let card = decision.evidence.get("cardinality")?.as_str()?;
    match decision.evidence.get("max").and_then(|m| m.as_u64()) {
        Some(max) => Some(format!("≤ {max}")),
        None => Some(card.to_string()),
    }
}

/// The node id of document type `di` of container `ci`: `c{ci}d{di}`.
fn document_id(ci: usize, di: usize) -> String {
    format!("c{ci}d{di}")
}

/// A label (or a `%%` comment's text) as Mermaid reads it literally: `"` becomes
/// `#quot;`; `#`, `%`, `<`, `>`, `&` and `` ` `` their decimal entity codes (`#35;`,
/// `#37;`, …), so no text of the model starts a directive (`%%{init: …}%%`, read
/// anywhere in the text), an HTML tag or entity (drawn as HTML even in Mermaid's
/// strict mode), or a Markdown label; line breaks become spaces.
fn quote(label: String) -> String {
    let mut out = String::with_capacity(label.len() + 16);
    for c in label.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '%' => out.push_str("#37;"),
            '<' => out.push_str("#60;"),
            '>' => out.push_str("#62;"),
            '&' => out.push_str("#38;"),
            '`' => out.push_str("#96;"),
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A model's `description` as the text of a `%%` comment: one line, quoted as a
/// label is ([`quote`]), so it cannot close the comment or hold a directive.
fn comment(text: &str) -> String {
    quote(crate::rust::one_line(text))
}

/// The diagram's lookups, built once: a model of a thousand aggregates has
/// thousands of references, copies and requests, each of which would otherwise scan
/// every container and decision. Only looked up, never iterated, so hash order
/// reaches no output; hashed with `NameMap`'s fast hasher for short names.
struct Places<'m> {
    /// Each container's index, by name (the first of a name, as a scan finds it).
    containers: NameMap<&'m str, usize>,
    /// Per container, by document type name: the index of the first document type of
    /// that name, and of the first that is not a copy.
    documents: Vec<NameMap<&'m str, (usize, Option<usize>)>>,
    /// The first MR6 decision about each subject (`Document.reference`): the
    /// reference's cardinality.
    references: NameMap<&'m str, &'m Decision>,
}

impl<'m> Places<'m> {
    fn new(model: &'m LogicalModel) -> Self {
        let mut containers = NameMap::with_capacity_and_hasher(model.containers.len(), Default::default());
        for (ci, c) in model.containers.iter().enumerate() {
            containers.entry(c.name.as_str()).or_insert(ci);
        }
        let documents = model
            .containers
            .iter()
            .map(|c| {
                let mut by_name: NameMap<&str, (usize, Option<usize>)> =
                    NameMap::with_capacity_and_hasher(c.document_types.len(), Default::default());
                for (di, d) in c.document_types.iter().enumerate() {
                    let entry = by_name.entry(d.name.as_str()).or_insert((di, None));
                    if entry.1.is_none() && d.role != Role::Copy {
                        entry.1 = Some(di);
                    }
                }
                by_name
            })
            .collect();
        let mut references = NameMap::default();
        for d in model.decisions.iter().filter(|d| d.rule == Rule::Mr6) {
            references.entry(d.subject.as_str()).or_insert(d);
        }
        Places {
            containers,
            documents,
            references,
        }
    }

    /// The node id of the (non-copy) document type `document` in container `container`.
    fn locate(&self, container: &str, document: &str) -> Option<String> {
        let &ci = self.containers.get(container)?;
        let di = self.documents[ci].get(document)?.1?;
        Some(document_id(ci, di))
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quotes_cannot_end_a_label() {
        assert_eq!(quote("a \"b\"\nc".to_string()), "a #quot;b#quot; c");
        assert_eq!(quote("plain · 3/s".to_string()), "plain · 3/s");
        assert_eq!(
            quote("%%{init: {}}%% <img src=x> &amp; `md` #quot;".to_string()),
            "#37;#37;{init: {}}#37;#37; #60;img src=x#62; #38;amp; #96;md#96; #35;quot;"
        );
    }
}
