//! An aggregate's repository view: its members, how `load` finds them, the counts
//! and subsets a save recomputes in its batch, and the claims it takes.

use super::*;

/// The repository of aggregate `root` (in container `c`): its members, its load, the
/// values a save recomputes or leaves to the workers, its claims; or why there is none.
pub(super) fn aggregate(
    c: &cosmap_mapper::Container,
    cv: &ContainerView,
    root: &DocumentType,
    handle: &HandleView,
    sources: &BTreeSet<(String, String)>,
    claim_sets: &[ClaimSetView],
) -> Result<AggregateView, String> {
    let rv = doc_view(cv, &root.name)?;
    let own = |d: &&DocumentType| !matches!(d.role, Role::Root | Role::Copy | Role::Claim);
    let members: Vec<&DocumentType> = c.document_types.iter().filter(own).collect();
    if !members.is_empty() && c.aggregates.len() > 1 {
        return Err(format!(
            "container `{}` holds more than one aggregate and members of them, which the repository cannot tell apart yet",
            c.name
        ));
    }
    let identity = match &root.id {
        IdSource::Identity { attribute } => attribute.clone(),
        IdSource::Assigned => String::new(),
    };
    let levels = c.partition_key_properties();
    let whole = levels.iter().any(|l| *l == identity);
    if !members.is_empty() && !whole {
        return Err(format!(
            "its partition key ({}) holds other aggregates too, and its members do not say which root they belong to",
            levels.join(", ")
        ));
    }
    let batch_kept = |d: &DocumentType| {
        d.computed.iter().any(|v| v.kept == cosmap_mapper::Keeping::Batch)
            || d.embedded.iter().any(|e| {
                e.subset
                    .as_ref()
                    .is_some_and(|s| s.kept == cosmap_mapper::Keeping::Batch)
            })
    };
    if members.iter().any(|d| batch_kept(d)) {
        return Err(
            "a member keeps counts or subsets of its own children in the batch, which a save of the whole aggregate does not recompute; write it with the access patterns' requests"
                .into(),
        );
    }
    let (load_params, load_key) = if rv.pk_from_id {
        ("id: &str".to_string(), "::std::string::String::from(id)".to_string())
    } else if let Some(constant) = &rv.partition_key_constant {
        (
            "id: &str".to_string(),
            format!("::std::string::String::from({constant:?})"),
        )
    } else {
        (
            format!("partition_key: {}, id: &str", rv.key_type),
            "partition_key".to_string(),
        )
    };
    let mut idents: BTreeSet<String> = ["root".to_string(), "loaded".to_string()].into();
    let members: Vec<MemberView> = members
        .iter()
        .map(|d| {
            let base = d
                .containment
                .as_ref()
                .map(|k| names::field(&k.property))
                .unwrap_or_else(|| names::field(&cosmap_domain::naming::plural(&lower_camel(&d.name))));
            let mut ident = base;
            while !idents.insert(ident.clone()) {
                ident.push('_');
            }
            MemberView {
                ident,
                document: format!("super::{}::{}", cv.module, d.name),
                discriminator: d.discriminator.clone(),
                claim_set: claim_set_of(claim_sets, &cv.module, &d.name),
            }
        })
        .collect();
    let load_sql = (!members.is_empty()).then(|| {
        let mut types: Vec<String> = std::iter::once(&root.discriminator)
            .chain(members.iter().map(|m| &m.discriminator))
            .map(|t| format!("'{t}'"))
            .collect();
        types.sort();
        // The key in the SQL too: a server that ignores the request's partition (the
        // local one) still stays in the aggregate's.
        let keys: Vec<String> = levels
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{} = @key{i}", cosmap_mapper::operations::sql_property("c", l)))
            .collect();
        format!(
            "{:?}",
            format!(
                "SELECT * FROM c WHERE {} AND c.type IN ({})",
                keys.join(" AND "),
                types.join(", ")
            )
        )
    });
    let key_bindings: Vec<String> = if levels.len() <= 1 {
        vec!["rt::bind(query, \"@key0\", &partition_key)?".to_string()]
    } else {
        (0..levels.len())
            .map(|i| format!("rt::bind(query, \"@key{i}\", &partition_key.{i})?"))
            .collect()
    };
    let derived = derived_values(root, &members)?;
    let kept_by_workers: Vec<String> = root
        .computed
        .iter()
        .filter(|v| v.kept != cosmap_mapper::Keeping::Batch)
        .map(|v| v.name.clone())
        .chain(
            root.embedded
                .iter()
                .filter(|e| {
                    e.subset
                        .as_ref()
                        .is_some_and(|s| s.kept != cosmap_mapper::Keeping::Batch)
                })
                .map(|e| e.name.clone()),
        )
        .collect();
    let claim_set = claim_set_of(claim_sets, &cv.module, &root.name);
    let member_claims = members.iter().any(|m| m.claim_set.is_some());
    let claims = claim_set.is_some() || member_claims;
    Ok(AggregateView {
        root: root.name.clone(),
        module: cv.module.clone(),
        container: c.name.clone(),
        handle: handle.handle.clone(),
        field: handle.field.clone(),
        aggregate: String::new(),
        repository: String::new(),
        constructor: String::new(),
        enum_name: cv.enum_name.clone(),
        key_type: rv.key_type.clone(),
        members,
        load_params,
        load_key,
        load_sql,
        key_bindings,
        soft_delete: sources.contains(&(c.name.clone(), root.discriminator.clone())),
        claim_set,
        claims,
        member_claims,
        derived,
        kept_by_workers,
    })
}

/// The counts and subsets `root` keeps in the batch, each of its `members` by their
/// `type`: a value kept of anything else (another aggregate sharing the partition) is
/// an error, as a save of this aggregate cannot recompute it.
fn derived_values(root: &DocumentType, members: &[MemberView]) -> Result<Vec<DerivedView>, String> {
    let member = |document_type: &str, property: &str| {
        members
            .iter()
            .find(|m| m.document.rsplit("::").next() == Some(document_type))
            .map(|m| m.ident.clone())
            .ok_or_else(|| {
                format!("it keeps `{property}` of `{document_type}`, not a member of it, in the batch of their writes; write it with the access patterns' requests")
            })
    };
    let mut out = Vec::new();
    for v in root.computed.iter().filter(|v| v.kept == cosmap_mapper::Keeping::Batch) {
        out.push(DerivedView {
            property: v.name.clone(),
            member: member(&v.document_type, &v.name)?,
            subset: None,
        });
    }
    for e in &root.embedded {
        let Some(of) = e.subset.as_ref().filter(|s| s.kept == cosmap_mapper::Keeping::Batch) else {
            continue;
        };
        let (identity, kept) = subset_items(e);
        let sort = of
            .sort
            .iter()
            .map(|k| SortKeyView {
                name: k.trim_start_matches('-').to_string(),
                descending: k.starts_with('-'),
            })
            .collect();
        out.push(DerivedView {
            property: e.name.clone(),
            member: member(&of.document_type, &e.name)?,
            subset: Some(SubsetItemsView {
                identity,
                kept,
                sort,
                newest: of.newest,
            }),
        });
    }
    Ok(out)
}
