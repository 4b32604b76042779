//! The overview `cosmap model` prints first: each container with its partition key
//! and document types, how the access patterns run, and how many decisions a later
//! rule overrode.

use std::fmt::Write;

use cosmap_mapper::operations::OperationKind;
use cosmap_mapper::{LogicalModel, Role};

use crate::text::wrap_into;

/// Appends the overview of `model` to `out`; `overridden`: for each decision, the
/// later one that overrides it (`cosmap_mapper::overridden_by`).
pub fn render(out: &mut String, model: &LogicalModel, overridden: &[Option<usize>]) {
    out.push_str("\nOverview\n");
    let name_width = model
        .containers
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0);
    let key_width = model
        .containers
        .iter()
        .map(|c| c.partition_key.paths.join(", ").chars().count())
        .max()
        .unwrap_or(0);
    for c in &model.containers {
        let types: Vec<String> = c
            .document_types
            .iter()
            .map(|d| match d.role {
                Role::Copy | Role::ValueObject | Role::Claim | Role::Bucket => {
                    format!("{} ({})", d.name, d.role.as_str())
                }
                Role::Root | Role::Entity => d.name.clone(),
            })
            .collect();
        let prefix = format!(
            "  {:<name_width$}  {:<key_width$}  ",
            c.name,
            c.partition_key.paths.join(", ")
        );
        // Narrow terminals: past half the width, document types go on their own lines.
        let indent = prefix.chars().count();
        if indent <= 40 {
            wrap_into(out, &prefix, &types.join(", "), indent);
        } else {
            let _ = writeln!(out, "{}", prefix.trim_end());
            wrap_into(out, "      ", &types.join(", "), 6);
        }
    }
    let count = |kind: OperationKind| model.operations.iter().filter(|o| o.kind == kind).count();
    if !model.operations.is_empty() {
        let line = format!(
            "{}: {}, {}, {}, {}",
            plural(model.operations.len(), "access pattern", "access patterns"),
            plural(count(OperationKind::PointRead), "point read", "point reads"),
            plural(
                count(OperationKind::SinglePartitionQuery),
                "single-partition query",
                "single-partition queries"
            ),
            plural(
                count(OperationKind::CrossPartitionQuery),
                "cross-partition query",
                "cross-partition queries"
            ),
            plural(count(OperationKind::Write), "write", "writes")
        );
        wrap_into(out, "  ", &line, 4);
        let fanning: Vec<String> = model
            .operations
            .iter()
            .filter(|o| o.kind == OperationKind::CrossPartitionQuery)
            .map(|o| format!("`{}` ({}/s)", o.pattern, o.per_second))
            .collect();
        if !fanning.is_empty() {
            wrap_into(out, "  ", &format!("cross-partition: {}", fanning.join(", ")), 4);
        }
    }
    let overridden = overridden.iter().filter(|o| o.is_some()).count();
    if overridden > 0 {
        wrap_into(
            out,
            "  ",
            &format!(
                "{} overridden by a later rule (marked below)",
                plural(overridden, "decision", "decisions")
            ),
            4,
        );
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
