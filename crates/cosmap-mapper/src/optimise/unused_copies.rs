//! The last step of the search: a copy or feed no read is sent to any more is dropped.
//! Each is made for a read, weighed when it was made; a later optimisation (a subset
//! embedded in the parent, say) can serve that read for less, and then the copy only
//! costs its sync writes and grows its container.

use std::collections::BTreeSet;
use std::sync::Arc;

use cosmap_domain::{AccessKind, DomainModel};

use super::Priced;
use crate::decision::{Rule, Trace};
use crate::logical_model::Container;
use crate::statistics::{about, human_ru_per_second};

/// Drops from `containers` every copy (and feed) that no read pattern's request reads,
/// with the decision that made it rewritten to say why; gives the design priced
/// again when it dropped one, else `priced` as given.
pub(crate) fn drop_unused(
    model: &DomainModel,
    containers: &mut Arc<Vec<Container>>,
    trace: &mut Trace,
    price: &dyn Fn(&[Container]) -> Priced,
    priced: Option<Priced>,
) -> Option<Priced> {
    let current = priced.unwrap_or_else(|| price(containers));
    let read = |pattern: &str| {
        model
            .access_pattern(pattern)
            .is_some_and(|p| p.kind == AccessKind::Read)
    };
    let used: BTreeSet<(&str, &str)> = current
        .operations
        .iter()
        .filter(|op| read(&op.pattern))
        .flat_map(|op| &op.requests)
        .flat_map(|r| r.document_types.iter().map(|d| (r.container.as_str(), d.as_str())))
        .collect();
    // What the model pins `keep` stays, read or not.
    let (copies, feeds) = (
        super::pins::Pins::of(model, Rule::Copy),
        super::pins::Pins::of(model, Rule::Feed),
    );
    let pinned = |serves: &str| {
        [&copies, &feeds]
            .iter()
            .any(|p| p.choice(serves) == Some(cosmap_domain::PinChoice::Keep))
    };
    let unused: Vec<(String, String, String)> = containers
        .iter()
        .flat_map(|c| c.document_types.iter().map(move |d| (c, d)))
        .filter_map(|(c, d)| {
            let of = d.copy_of.as_ref()?;
            let unused = !used.contains(&(c.name.as_str(), d.name.as_str())) && !pinned(&of.serves);
            unused.then(|| (c.name.clone(), d.name.clone(), of.serves.clone()))
        })
        .collect();
    if unused.is_empty() {
        return Some(current);
    }
    let mut design: Vec<Container> = containers.as_ref().clone();
    for (container, document, _) in &unused {
        if let Some(c) = design.iter_mut().find(|c| c.name == *container) {
            c.document_types.make_mut().retain(|d| d.name != *document);
            let copies_left = c.document_types.iter().any(|d| d.copy_of.is_some());
            if !copies_left {
                c.rules.retain(|r| !matches!(r, Rule::Copy | Rule::Feed));
            }
        }
    }
    // A container that held only feeds or copies is gone with them.
    design.retain(|c| !c.document_types.is_empty());
    let after = price(&design);
    let served: BTreeSet<&str> = unused.iter().map(|(_, _, serves)| serves.as_str()).collect();
    let saved = current.total() - after.total();
    trace.retain_mut(|d| {
        if matches!(d.rule, Rule::Copy | Rule::Feed) && served.contains(d.subject.as_str()) && !d.outcome.starts_with("no ") {
            d.reason = format!(
                "made for `{}`, but a later optimisation now serves that read, so it would only cost its sync writes: dropped, the workload costs {} less",
                d.subject,
                about(human_ru_per_second(saved))
            );
            d.outcome = if d.rule == Rule::Copy { "no copy" } else { "no feed" }.to_string();
            // No read is sent to it any more: it saves nothing at any rate.
            super::break_even(d, 0.0, saved, false);
        }
        true
    });
    *containers = Arc::new(design);
    Some(after)
}
