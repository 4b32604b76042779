//! Where the optimised design costs more than the naive port (one container per
//! entity and value object, by `/id`), and which rule makes it so: a trade the search
//! weighed (an optimisation that costs this pattern more to save more elsewhere), or
//! MR1–MR6's structure itself (a member read by its own id, a container shared by an
//! aggregate's documents fanning out wider, documents grown by embedding).

use cosmap_domain::DomainModel;
use serde::Serialize;

use super::design::ContainerFigures;
use super::estimate::PatternCost;
use super::optimisations::OptimisationEffect;
use crate::decision::Rule;
use crate::logical_model::{Container, LogicalModel, Role};
use crate::operations::{naive_operations, Operation, OperationKind, Purpose};
use crate::statistics::{about, human_count, human_ru_per_second};

/// One access pattern that costs more in the optimised design than in the naive port.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DearerThanNaive {
    /// The access pattern.
    pub pattern: String,
    /// RU/s it costs beyond the naive port's.
    pub extra_ru_per_second: f64,
    /// The rule that makes it dearer: an MR rule (the structure) or an optimisation
    /// (a trade the search weighed against what it saves elsewhere).
    pub rule: Rule,
    /// Why, in one sentence.
    pub why: String,
}

/// Whether `optimised` costs more than `naive` by more than 5% and 1 RU/s (both
/// bounded): the margin under which the designs are the same price.
pub fn dearer(optimised: f64, naive: f64) -> bool {
    optimised.is_finite() && naive.is_finite() && optimised > naive * 1.05 && optimised - naive >= 1.0
}

/// The figures the explanation reads: the designs' containers as the cost table
/// figures them, and the optimised design's map.
pub(crate) struct Designs<'a> {
    pub(crate) optimised: &'a LogicalModel,
    pub(crate) naive_containers: &'a [ContainerFigures],
    pub(crate) optimised_containers: &'a [ContainerFigures],
    pub(crate) effects: &'a [OptimisationEffect],
}

/// Every pattern of `patterns` dearer in the optimised design than in the naive port,
/// with the rule that makes it so.
pub(crate) fn explain(model: &DomainModel, patterns: &[PatternCost], designs: &Designs<'_>) -> Vec<DearerThanNaive> {
    let dearer_ones: Vec<&PatternCost> = patterns
        .iter()
        .filter(|p| dearer(p.optimised.ru_per_second, p.naive.ru_per_second))
        .collect();
    if dearer_ones.is_empty() {
        return Vec::new();
    }
    let naive = naive_operations(model);
    dearer_ones
        .into_iter()
        .map(|p| {
            let (rule, why) = if dearer(p.rules.ru_per_second, p.naive.ru_per_second) {
                structure(model, p, designs, &naive)
            } else {
                trade(p, designs)
            };
            DearerThanNaive {
                pattern: p.name.clone(),
                extra_ru_per_second: crate::cost::units::round(p.optimised.ru_per_second - p.naive.ru_per_second),
                rule,
                why,
            }
        })
        .collect()
}

/// MR1–MR6 alone cost no more than the naive port here: an optimisation made this
/// pattern dearer (it serves it, keeps it current, or grew the document it reads),
/// weighed against what it saves on the whole workload.
fn trade(p: &PatternCost, designs: &Designs<'_>) -> (Rule, String) {
    let document = designs
        .optimised
        .operations
        .iter()
        .find(|o| o.pattern == p.name)
        .and_then(|o| o.requests.first())
        .and_then(|r| r.document_types.first());
    let grew = |e: &OptimisationEffect| {
        document.is_some_and(|d| e.subject.contains(&format!("`{d}.")) || e.subject.starts_with(&format!("`{d}`")))
    };
    let serves = designs.effects.iter().find(|e| e.patterns.contains(&p.name));
    match serves.or_else(|| designs.effects.iter().find(|e| grew(e))) {
        Some(e) => (
            e.rule,
            format!(
                "a trade the search weighed: `{}` ({}) makes it dearer here; on the patterns it serves it saves {} and adds {}, and the design with it was weighed cheaper as a whole",
                e.rule.as_str(),
                e.subject,
                about(human_ru_per_second(e.saves_ru_per_second)),
                about(human_ru_per_second(e.adds_ru_per_second))
            ),
        ),
        // None serves it or grew its document: the containers it reads changed size.
        None => {
            let copies = designs
                .optimised
                .containers
                .iter()
                .flat_map(|c| &c.document_types)
                .any(|d| d.copy_of.is_some());
            let (rule, by) = match designs.effects.first() {
                _ if copies => (Rule::Copy, "the copies and feeds other reads keep there".to_string()),
                Some(e) => (e.rule, format!("`{}` ({})", e.rule.as_str(), e.subject)),
                None => (Rule::Mr1, "MR1–MR6's layout".to_string()),
            };
            (
                rule,
                format!(
                    "the containers it reads changed with {by}, so its requests touch more or larger partitions; the design was weighed cheaper as a whole"
                ),
            )
        }
    }
}

/// MR1–MR6 alone already cost more than the naive port here: the rule whose
/// structure makes it so.
fn structure(model: &DomainModel, p: &PatternCost, designs: &Designs<'_>, naive: &[Operation]) -> (Rule, String) {
    let (Some(op), Some(naive_op)) = (
        designs.optimised.operations.iter().find(|o| o.pattern == p.name),
        naive.iter().find(|o| o.pattern == p.name),
    ) else {
        return (Rule::Mr1, "MR1–MR6's layout of the aggregate".to_string());
    };
    let (Some(first), Some(naive_first)) = (op.requests.first(), naive_op.requests.first()) else {
        return (Rule::Mr1, "MR1–MR6's layout of the aggregate".to_string());
    };
    let container = designs.optimised.containers.iter().find(|c| c.name == first.container);
    let start = model
        .access_pattern(&p.name)
        .map(|a| a.start.as_str())
        .unwrap_or_default();
    if first.kind() == OperationKind::CrossPartitionQuery && naive_first.kind() != OperationKind::CrossPartitionQuery {
        return read_without_the_key(model, start, first, container);
    }
    if let Some(extra) = extra_request(op, naive_op) {
        return extra;
    }
    wider_or_larger(designs, first, naive_first, container)
}

/// A read across every partition where the naive port reads by id: a member read by its
/// own id (it lives in its aggregate's partitions), or a container partitioned by what
/// the read does not give.
fn read_without_the_key(
    model: &DomainModel,
    start: &str,
    first: &crate::operations::Request,
    container: Option<&Container>,
) -> (Rule, String) {
    if let Some(root) = model.root_of(start).filter(|r| r.name != start) {
        let rule = if model.element(start).is_some_and(|e| e.is_entity()) {
            Rule::Mr3
        } else {
            Rule::Mr4
        };
        return (
            rule,
            format!(
                "`{start}` is a member of `{}`'s aggregate, kept in its logical partitions ({rule}): without the root's key a read of it is a query across every partition, where the naive port reads it by id; give the read `{}`'s key, or make `{start}` a root",
                root.name, root.name
            ),
        );
    }
    (
        Rule::Mr2,
        format!(
            "`{}` is partitioned by `{}` (MR2), which this read does not give: a query across every partition, where the naive port reads by id",
            first.container,
            container.map(|c| c.partition_key.paths.join(", ")).unwrap_or_default()
        ),
    )
}

/// A request `op` sends that the naive port's `naive_op` does not (the structure's
/// first: an optimisation's sync beside them is its trade), and what it is for.
fn extra_request(op: &Operation, naive_op: &Operation) -> Option<(Rule, String)> {
    let kind = |purpose: &Purpose| std::mem::discriminant(purpose);
    let extras: Vec<(&crate::operations::Request, Rule)> = op
        .requests
        .iter()
        .filter(|r| {
            !matches!(r.purpose, Purpose::Write { .. } | Purpose::Read { .. })
                && !naive_op.requests.iter().any(|n| kind(&n.purpose) == kind(&r.purpose))
        })
        .map(|r| (r, rule_of(&r.purpose)))
        .collect();
    let &(extra, rule) = extras
        .iter()
        .find(|(_, rule)| rule.is_mapping_rule())
        .or_else(|| extras.first())?;
    Some((
        rule,
        format!(
            "it sends a request the naive port (each element its own document) does not: it {} ({rule})",
            lower_first(&extra.purpose.to_string())
        ),
    ))
}

/// The same requests as the naive port's, dearer: over more partitions (the aggregate's
/// container is wider, MR1), or reading documents that carry what they embed (MR4), or
/// larger documents and partitions (MR1).
fn wider_or_larger(
    designs: &Designs<'_>,
    first: &crate::operations::Request,
    naive_first: &crate::operations::Request,
    container: Option<&Container>,
) -> (Rule, String) {
    let partitions = |figures: &[ContainerFigures], name: &str| {
        figures
            .iter()
            .find(|c| c.name == name)
            .map_or(1.0, |c| c.physical_partitions)
    };
    let (wide, narrow) = (
        partitions(designs.optimised_containers, &first.container),
        partitions(designs.naive_containers, &naive_first.container),
    );
    if first.kind() == OperationKind::CrossPartitionQuery && wide > narrow {
        let types = container.map_or(0, |c| c.document_types.iter().filter(|d| d.role != Role::Copy).count());
        return (
            Rule::Mr1,
            format!(
                "`{}` keeps the {types} document types of its aggregate together (MR1), so its queries fan out over {} physical partitions where the naive port's `{}` has {}",
                first.container,
                human_count(wide),
                naive_first.container,
                human_count(narrow)
            ),
        );
    }
    let embeds = container
        .and_then(|c| embedding(c, first.document_types.first().map(String::as_str)))
        .unwrap_or(false);
    if embeds {
        return (
            Rule::Mr4,
            format!(
                "the `{}` document carries what its aggregate embeds (MR4), so each request reads or writes more than the naive port's `{}`",
                first.document_types.first().map(String::as_str).unwrap_or_default(),
                naive_first.container
            ),
        );
    }
    (
        Rule::Mr1,
        format!(
            "`{}` holds its aggregate's documents together (MR1): its documents and partitions are larger than the naive port's `{}`",
            first.container, naive_first.container
        ),
    )
}

/// Whether document type `name` of `c` embeds anything.
fn embedding(c: &Container, name: Option<&str>) -> Option<bool> {
    let d = c.document_types.iter().find(|d| Some(d.name.as_str()) == name)?;
    Some(!d.embedded.is_empty())
}

/// The sentence `cosmap cost` warns with.
pub(crate) fn warning(d: &DearerThanNaive) -> String {
    format!(
        "`{}` costs {} more here than in the naive port, because of `{}`: {}",
        d.pattern,
        about(human_ru_per_second(d.extra_ru_per_second)),
        d.rule.as_str(),
        d.why
    )
}

/// `text` with its first letter in lower case, to follow a clause.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The rule whose design sends a request for `purpose`.
fn rule_of(purpose: &Purpose) -> Rule {
    match purpose {
        Purpose::RewriteEmbedding { .. } | Purpose::ReadMatchedInApplication { .. } => Rule::Mr4,
        Purpose::Claim { .. } | Purpose::ReleaseClaim { .. } | Purpose::ReadClaim { .. } => Rule::UniqueClaim,
        Purpose::FollowReference { .. }
        | Purpose::ReadListed { .. }
        | Purpose::FindReferring { .. }
        | Purpose::ScanUnreferenced { .. } => Rule::Mr6,
        Purpose::SyncCopy { .. } => Rule::Copy,
        Purpose::SyncFeed { .. } => Rule::Feed,
        Purpose::SyncExtendedReference { .. } => Rule::ExtendedReference,
        Purpose::FollowAncestors { .. } | Purpose::ReadParentAncestors { .. } | Purpose::SyncAncestors { .. } => {
            Rule::TreeAncestors
        }
        Purpose::ReadBuckets { .. } | Purpose::AppendToBucket { .. } => Rule::Bucket,
        Purpose::UpdateCount { .. } => Rule::ComputedValue,
        Purpose::ReadSubset { .. } | Purpose::UpdateSubset { .. } => Rule::Subset,
        _ => Rule::Mr3,
    }
}
