//! MR4 — a value object is embedded in its parent's document (an object for one,
//! an array for a bounded few) unless it grows without a useful bound, is updated
//! often relative to its parent, or would push the parent towards the 2 MB limit;
//! then it becomes a separate document type in the same container.

use cosmap_domain::embedding::Bound;
use cosmap_domain::{Cardinality, Relationship};

use crate::decision::{Rule, Trace};
use crate::options::Thresholds;
use crate::statistics::{human_bytes, human_rate, Statistics};

/// Where a value object goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Inside the parent document.
    Embed,
    /// Its own document type in the same container.
    Separate,
}

/// Decides how `rel.to` (a value object) is stored in `rel.from`'s document.
///
/// `parent_bytes` is the parent's estimated size so far and `child_bytes` the
/// value object's declared size, when the model gives them.
pub(crate) fn decide(
    t: &Thresholds,
    stats: &Statistics,
    rel: &Relationship,
    parent_bytes: Option<f64>,
    child_bytes: Option<f64>,
    site: &str,
    trace: &mut Trace,
) -> Placement {
    let mut against: Vec<String> = Vec::new();
    against.extend(bound_against(t, rel));
    // Sizes use the declared bound even where it is no useful one (`squillions` with `max`).
    let bound = match rel.cardinality {
        Cardinality::One => Some(1),
        _ => rel.max,
    };
    let child_rate = rel.updates_per_second;
    let parent_rate = stats.writes_per_second(&rel.from);
    if let Some(rate) = child_rate {
        if rate >= t.min_updates_per_second && rate > t.update_ratio * parent_rate {
            against.push(format!(
                "it is updated often relative to its parent ({} against `{}`'s {} writes, more than {}×)",
                human_rate(rate),
                rel.from,
                human_rate(parent_rate),
                t.update_ratio
            ));
        }
    }
    let embedded_bytes = child_bytes.zip(bound).map(|(size, n)| size * n as f64);
    let estimate = embedded_bytes.map(|b| b + parent_bytes.unwrap_or(0.0));
    if let Some(total) = estimate {
        if total > t.max_embedded_document_bytes {
            against.push(format!(
                "embedding would make `{}` about {}, over {} (well under the 2 MB item limit)",
                rel.from,
                human_bytes(total),
                human_bytes(t.max_embedded_document_bytes)
            ));
        }
    }
    let placement = if against.is_empty() {
        Placement::Embed
    } else {
        Placement::Separate
    };
    let decision = match placement {
        Placement::Embed => {
            let (what, why) = embedded(rel, bound, estimate, parent_rate);
            trace.record(Rule::Mr4, site, what, why)
        }
        Placement::Separate => trace.record(
            Rule::Mr4,
            site,
            format!("`{}` becomes a separate document type", rel.to),
            format!("not embedded: {}", against.join("; ")),
        ),
    };
    decision
        .with("cardinality", rel.cardinality.as_str())
        .with("parentWritesPerSecond", parent_rate);
    if let Some(max) = rel.max {
        decision.with("max", max);
    }
    if let Some(growth) = rel.growth {
        decision.with("growth", serde_json::to_value(growth).unwrap_or_default());
    }
    if let Some(rate) = child_rate {
        decision.with("updatesPerSecond", rate);
    }
    if let Some(total) = estimate {
        decision.with("estimatedParentBytes", total);
    }
    placement
}

/// Why the bound of `rel` is against embedding, if it is: the part no threshold
/// moves (shared with validation), then the bound against `fewMaxItems`.
fn bound_against(t: &Thresholds, rel: &Relationship) -> Option<String> {
    match cosmap_domain::embedding::bound(rel) {
        Bound::Unbounded(why) => Some(why.to_string()),
        Bound::AtMost(max) if max > t.few_max_items => Some(format!(
            "its bound of {max} is more than a few (fewMaxItems {})",
            t.few_max_items
        )),
        Bound::AtMost(_) => None,
    }
}

/// What embedding `rel.to` in `rel.from` makes and why it may: its shape, its bound,
/// its updates against the parent's `parent_rate` writes and the parent's `estimate`d size.
fn embedded(rel: &Relationship, bound: Option<u64>, estimate: Option<f64>, parent_rate: f64) -> (String, String) {
    let child_rate = rel.updates_per_second;
    let shape = if rel.is_many() {
        format!("an array `{}`", rel.property_name())
    } else {
        format!("an object `{}`", rel.property_name())
    };
    let size = match estimate {
        Some(total) => format!(
            "the parent stays about {}, well under the 2 MB item limit",
            human_bytes(total)
        ),
        None => "size not checked (the model gives no avgSizeBytes)".to_string(),
    };
    let bounded = match bound {
        Some(1) => "one per parent".to_string(),
        Some(n) => format!("bounded ({n} at most)"),
        None => String::new(),
    };
    let updates = match child_rate {
        Some(rate) => format!(
            "updated {} against `{}`'s {} writes",
            human_rate(rate),
            rel.from,
            human_rate(parent_rate)
        ),
        None => "no update rate given".to_string(),
    };
    (
        format!("`{}` embedded in `{}` as {shape}", rel.to, rel.from),
        format!("{bounded}; {updates}; {size}"),
    )
}
