//! The human-readable form of a logical model: an overview (`overview.rs`), one
//! block per container, then the decisions (those a later rule overrode marked
//! so), wrapped to fit an 80-column terminal.

use std::fmt::Write;

use cosmap_mapper::cost::{ContainerFigures, DearerThanNaive};
use cosmap_mapper::operations::{Operation, OperationKind};
use cosmap_mapper::{
    ChangeKind, Container, ContainerKind, DocumentType, Embedded, EmbeddedKind, IdSource, LogicalModel, Property,
    Reference, SyncOperation, SyncPlan, SyncTrigger,
};

const WIDTH: usize = 80;

/// Renders `model` as text; `figures`: its containers' figures (the physical
/// partitions each will have, and where they come from); `dearer`: the patterns that
/// cost more than in the naive port, with the rule that makes each so.
pub fn render(model: &LogicalModel, figures: &[ContainerFigures], dearer: &[DearerThanNaive]) -> String {
    let mut out = String::new();
    let documents: usize = model.containers.iter().map(|c| c.document_types.len()).sum();
    let _ = writeln!(
        out,
        "{}: {} containers, {} document types, {} decisions",
        model.model,
        model.containers.len(),
        documents,
        model.decisions.len()
    );
    // Figured once for the overview's count and the decisions' marks.
    let overridden = cosmap_mapper::overridden_by(model);
    crate::overview::render(&mut out, model, &overridden);
    let figures: std::collections::HashMap<&str, &ContainerFigures> =
        figures.iter().map(|f| (f.name.as_str(), f)).collect();
    for container in &model.containers {
        out.push('\n');
        render_container(&mut out, container, figures.get(container.name.as_str()).copied());
    }
    if !model.operations.is_empty() {
        out.push_str("\nAccess patterns\n");
        for op in &model.operations {
            render_operation(&mut out, op);
        }
    }
    out.push_str("\nDecisions\n");
    for (d, by) in model.decisions.iter().zip(&overridden) {
        let mut head = format!("{}: {}", d.subject, d.outcome);
        if let Some(later) = by.and_then(|i| model.decisions.get(i)) {
            head.push_str(&format!(" [overridden by {}]", later.rule.as_str()));
        }
        wrap_into(&mut out, &format!("{:<4} ", d.rule.as_str()), &head, 4);
        wrap_into(&mut out, "    ", &d.reason, 4);
    }
    if !dearer.is_empty() {
        out.push_str("\nDearer than the naive port (one container per entity, by `/id`)\n");
        for d in dearer {
            let head = format!(
                "{}: about {} more, because of `{}`",
                d.pattern,
                cosmap_mapper::human_ru_per_second(d.extra_ru_per_second),
                d.rule.as_str()
            );
            wrap_into(&mut out, "  ", &head, 4);
            wrap_into(&mut out, "    ", &d.why, 4);
        }
    }
    out
}

fn render_operation(out: &mut String, op: &Operation) {
    let head = format!("{} ({}/s): {}", op.pattern, op.per_second, op.kind.as_str());
    wrap_into(out, "  ", &head, 6);
    for r in &op.requests {
        let what = match (r.kind(), r.write()) {
            (OperationKind::Write, Some(w)) => format!("{} ", w.as_str()),
            (kind, _) if kind == op.kind => String::new(),
            (kind, _) => format!("{} ", kind.as_str()),
        };
        let key = r
            .partition_key()
            .map(|k| format!(", partition key {k}"))
            .unwrap_or_default();
        let id = r.id().map(|i| format!(", id {i}")).unwrap_or_default();
        let line = format!(
            "{what}{} in `{}`{key}{id}: {}",
            r.document_types.join(", "),
            r.container,
            r.purpose
        );
        wrap_into(out, "    ", &line, 6);
        if let Some(sql) = r.sql() {
            wrap_into(out, "      ", sql, 8);
        }
    }
    if let Some(advice) = op.not_atomic_advice() {
        wrap_into(out, "    ", &advice, 6);
    }
}

/// `c`'s block; `figured`: its figures, whose physical partitions it states.
fn render_container(out: &mut String, c: &Container, figured: Option<&ContainerFigures>) {
    let key = c.partition_key.paths.join(", ");
    let rules: Vec<&str> = c.rules.iter().map(|r| r.as_str()).collect();
    let mut head = format!("{} · partition key {key} · {}", c.name, rules.join(" "));
    if c.kind == ContainerKind::Dictionary {
        head.push_str(&format!(" · shared by {}", c.aggregates.join(", ")));
    }
    match c.default_ttl {
        Some(-1) => head.push_str(" · TTL on, no default expiry"),
        Some(ttl) => head.push_str(&format!(" · default TTL {ttl}s")),
        None => {}
    }
    wrap_into(out, "", &head, 2);
    if let Some(f) = figured {
        wrap_into(out, "  ", &f.partitions_reason(), 4);
    }
    for d in &c.document_types {
        render_document(out, d);
    }
}

fn render_document(out: &mut String, d: &DocumentType) {
    let role = d.role.as_str();
    let id = match &d.id {
        IdSource::Identity { attribute } => format!("id = {attribute}"),
        IdSource::Assigned => "id assigned".to_string(),
    };
    let head = format!("{} ({role}): type \"{}\", {id}", d.name, d.discriminator);
    wrap_into(out, "  ", &head, 6);
    if let Some(copy) = &d.copy_of {
        wrap_into(
            out,
            "    ",
            &format!(
                "{} of {} in `{}`, {} = {}; sync: {}",
                match copy.newest {
                    Some(n) => format!("feed of the newest {n} (for `{}`)", copy.serves),
                    None => "copy".to_string(),
                },
                copy.document_type,
                copy.container,
                d.partition_key_property,
                copy.partition_key_from,
                sync_text(&copy.sync)
            ),
            6,
        );
    }
    if let Some(b) = &d.bucket {
        wrap_into(
            out,
            "    ",
            &format!(
                "bucket of the `{}`s of one parent in one {} of `{}` (window = its first {} characters), about {} each",
                b.element,
                b.window.as_str(),
                b.time,
                b.window.prefix_len(),
                b.typical_items.round()
            ),
            6,
        );
    }
    if let Some(parent) = &d.parent {
        let _ = writeln!(out, "    parent: {} via {}", parent.entity, parent.property);
    }
    if !d.attributes.is_empty() {
        wrap_into(out, "    ", &format!("attributes: {}", attributes(&d.attributes)), 6);
    }
    for e in &d.embedded {
        render_embedded(out, e, 4);
    }
    for r in &d.references {
        render_reference(out, r, 4);
    }
    for v in &d.computed {
        let how = match &v.kept {
            cosmap_mapper::Keeping::Batch => "kept in the same transactional batch".to_string(),
            cosmap_mapper::Keeping::ChangeFeed { sync } => format!("kept from the {}", sync_text(sync)),
        };
        let line = format!("{}: number of `{}` ({how})", v.name, v.counts);
        wrap_into(out, "    ", &line, 6);
    }
}

/// A sync plan as one sentence: `change feed of `Order` (`order`): upsert `Order` into
/// `Account` with id = id, accountId = account.id; on expiry, delete it`.
fn sync_text(plan: &SyncPlan) -> String {
    let SyncTrigger::ChangeFeed {
        container,
        discriminator,
        ..
    } = &plan.trigger;
    let mut previous: Option<(&str, &str)> = None;
    let actions: Vec<String> = plan
        .actions
        .iter()
        .map(|a| {
            let same = previous.replace((&a.container, &a.document_type)) == Some((&a.container, &a.document_type));
            let keys: Vec<String> = a.keys.iter().map(|k| format!("{} = {}", k.property, k.from)).collect();
            let when = match a.on {
                ChangeKind::Upserted => "on each change",
                ChangeKind::Expiring => "when its `ttl` is set",
            };
            let what = match a.operation {
                SyncOperation::Upsert => "upsert",
                SyncOperation::Delete => "delete",
                SyncOperation::Trim => "trim",
                SyncOperation::Refresh => "rewrite the copied attributes of every",
                SyncOperation::Reancestor => "rewrite the ancestors of every",
                SyncOperation::Recount => "recount and rewrite",
                SyncOperation::Resubset => "query the newest and rewrite",
            };
            if a.operation == SyncOperation::Trim {
                return "then trim its partition to the newest it keeps".to_string();
            }
            if same {
                format!("{when}, {what} it")
            } else {
                format!(
                    "{when}, {what} `{}` in `{}` ({})",
                    a.document_type,
                    a.container,
                    keys.join(", ")
                )
            }
        })
        .collect();
    format!(
        "change feed of `{container}` (`{discriminator}` documents): {}",
        actions.join("; ")
    )
}

fn render_embedded(out: &mut String, e: &Embedded, indent: usize) {
    let shape = match (e.many, e.max) {
        (true, Some(max)) => format!("[{}] ≤ {max}", e.source),
        (true, None) => format!("[{}]", e.source),
        (false, _) => e.source.clone(),
    };
    let kind = match e.kind {
        EmbeddedKind::ValueObject => "embedded",
        EmbeddedKind::ReferenceData => "embedded reference data",
        EmbeddedKind::Subset => "the newest, each also its own document",
    };
    let line = format!("{}: {shape} ({kind}; {})", e.name, attributes(&e.attributes));
    wrap_into(out, &" ".repeat(indent), &line, indent + 2);
    if let Some(of) = &e.subset {
        let how = match &of.kept {
            cosmap_mapper::Keeping::Batch => "kept in the same transactional batch as each one written".to_string(),
            cosmap_mapper::Keeping::ChangeFeed { sync } => format!("kept from the {}", sync_text(sync)),
        };
        let line = format!("by {}, for `{}`; {how}", of.sort.join(", "), of.serves);
        wrap_into(out, &" ".repeat(indent + 2), &line, indent + 4);
    }
    for inner in &e.embedded {
        render_embedded(out, inner, indent + 2);
    }
    for r in &e.references {
        render_reference(out, r, indent + 2);
    }
}

fn render_reference(out: &mut String, r: &Reference, indent: usize) {
    let many = if r.many { "[…] " } else { "" };
    let optional = if r.optional { ", optional" } else { "" };
    let line = match (&r.extended, &r.ancestry) {
        (Some(extended), Some(ancestry)) => format!(
            "{}: [{}] ≤ {} (every ancestor up `{}`, root first: id + partition key{}, in `{}`)",
            r.name,
            r.target,
            ancestry.max,
            ancestry.parent,
            if extended.attributes.is_empty() {
                String::new()
            } else {
                format!(" + {}", attributes(&extended.attributes))
            },
            r.target_container
        ),
        (None, _) => format!(
            "{}: {many}→ {} (reference: id + partition key{optional}, in `{}`)",
            r.name, r.target, r.target_container
        ),
        (Some(extended), None) => format!(
            "{}: {many}→ {} (extended reference: id + partition key + {}, in `{}`)",
            r.name,
            r.target,
            attributes(&extended.attributes),
            r.target_container
        ),
    };
    wrap_into(out, &" ".repeat(indent), &line, indent + 2);
    if let Some(plan) = r.extended.as_ref().and_then(|e| e.sync.as_ref()) {
        wrap_into(
            out,
            &" ".repeat(indent + 2),
            &format!("sync: {}", sync_text(plan)),
            indent + 4,
        );
    }
}

fn attributes(list: &[Property]) -> String {
    list.iter()
        .map(|p| {
            let mut s = p.name.clone();
            if p.many {
                s.push_str("[]");
            }
            if p.optional {
                s.push('?');
            }
            if let Some(value) = &p.default {
                s.push_str(&format!(" = {value}"));
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Appends `prefix` and then `text` word-wrapped at [`WIDTH`], continuation
/// lines indented by `rest` spaces.
pub(crate) fn wrap_into(out: &mut String, prefix: &str, text: &str, rest: usize) {
    let mut line = prefix.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(rest);
            empty = true;
        }
        if !empty && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_eighty_columns() {
        let mut out = String::new();
        let text = "word ".repeat(40);
        wrap_into(&mut out, "  ", &text, 4);
        assert!(out.lines().all(|l| l.chars().count() <= WIDTH));
        assert!(out.lines().skip(1).all(|l| l.starts_with("    w")));
    }
}
