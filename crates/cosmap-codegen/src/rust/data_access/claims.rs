//! The claim functions' views (which document types' unique values claims keep),
//! and the documents whose deletes set `ttl` (a change feed reads them).

use super::*;

/// The claim function of each document type with claimed unique values.
pub(super) fn claim_sets(model: &LogicalModel, rust: &RustNames, handles: &[HandleView]) -> Vec<ClaimSetView> {
    let mut out: Vec<ClaimSetView> = Vec::new();
    for claims_container in model.containers.iter().filter(|k| k.kind == ContainerKind::Claims) {
        let Some(field) = handles
            .iter()
            .find(|h| h.name == claims_container.name)
            .map(|h| h.field.clone())
        else {
            continue;
        };
        for d in &claims_container.document_types {
            let Some(of) = &d.claim_of else { continue };
            let Some(cv) = rust.containers.iter().find(|c| c.name == of.container) else {
                continue;
            };
            let claim = ClaimView {
                attribute: of.attribute.clone(),
                document: format!("super::{field}::{}", d.name),
                field: field.clone(),
            };
            match out
                .iter_mut()
                .find(|s| s.owner == of.document_type && s.owner_path.starts_with(&format!("super::{}::", cv.module)))
            {
                Some(set) => set.claims.push(claim),
                None => {
                    // A module escaped with a trailing `_` (`crate_`) would give `__`, which
                    // rustc's `non_snake_case` refuses; the owner's name keeps it unique.
                    out.push(ClaimSetView {
                        function: format!(
                            "claim_{}_{}",
                            cv.module.trim_start_matches("r#").trim_end_matches('_'),
                            snake_case(&of.document_type)
                        ),
                        owner: of.document_type.clone(),
                        owner_path: format!("super::{}::{}", cv.module, of.document_type),
                        owner_key_paths: cv.partition_key_paths.clone(),
                        claims: vec![claim],
                    })
                }
            }
        }
    }
    out
}

/// The claim function of `owner` in container module `module`.
pub(super) fn claim_set_of(sets: &[ClaimSetView], module: &str, owner: &str) -> Option<String> {
    let path = format!("super::{module}::{owner}");
    sets.iter().find(|s| s.owner_path == path).map(|s| s.function.clone())
}

/// The (container, `type`) pairs whose change feed a sync reads: their deletes set `ttl`.
pub(super) fn change_feed_sources(model: &LogicalModel) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for c in &model.containers {
        if c.default_ttl.is_none() {
            continue;
        }
        for d in &c.document_types {
            out.insert((c.name.clone(), d.discriminator.clone()));
        }
    }
    out
}
