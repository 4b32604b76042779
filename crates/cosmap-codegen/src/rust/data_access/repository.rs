//! An aggregate's repository view: its members, how `load` finds them, the counts
//! and subsets a save recomputes in its batch, and the claims it takes.

use super::*;

/// The repository of aggregate `root` (in container `c`): its members, its load, the
/// values a save recomputes or leaves to the workers, its claims; or why a view of it
/// cannot be made (a document type the Rust view lacks, a value kept of a document
/// outside the aggregate).
pub(super) fn aggregate(
    c: &cosmap_mapper::Container,
    cv: &ContainerNames,
    root: &DocumentType,
    handle: &HandleView,
    sources: &BTreeSet<(String, String)>,
    claim_sets: &[ClaimSetView],
) -> Result<AggregateView, String> {
    let rv = doc_view(cv, &root.name)?;
    let own = |d: &&DocumentType| !matches!(d.role, Role::Root | Role::Copy | Role::Claim) && of_root(c, root, d);
    let documents: Vec<&DocumentType> = c.document_types.iter().filter(own).collect();
    let unnamed = unnamed(c, root, &documents);

    let members = member_views(cv, &documents, claim_sets);
    let levels = c.partition_key_properties();
    let load_sql = (!members.is_empty() && unnamed.is_none()).then(|| load_sql(root, &members, &levels));
    let derived = derived_values(root, &members)?;
    let member_derived = member_derived(&documents, &members)?;
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
        by_id: rv.pk_from_id || rv.partition_key_constant.is_some(),
        key_constant: rv.partition_key_constant.as_ref().map(|k| format!("{k:?}")),
        load_sql,
        key_properties: levels.iter().map(|l| l.to_string()).collect(),
        soft_delete: sources.contains(&(c.name.clone(), root.discriminator.clone())),
        claim_set,
        claims,
        member_claims,
        recomputes: !derived.is_empty() || !member_derived.is_empty(),
        derived,
        member_derived,
        kept_by_workers: kept_by_workers(root),
        unnamed,
    })
}

/// Whether member `d` of container `c` belongs to `root`'s aggregate: the container
/// holds no other, or its containment leads up to the root (members carry their
/// `type`, so `load` asks for the types of this aggregate's members alone).
fn of_root(c: &cosmap_mapper::Container, root: &DocumentType, d: &DocumentType) -> bool {
    if c.aggregates.len() <= 1 {
        return true;
    }
    let mut at = d;
    for _ in 0..c.document_types.len() {
        let Some(k) = &at.containment else { return false };
        if k.holder == root.source {
            return true;
        }
        let holder = c
            .document_types
            .iter()
            .find(|x| x.source == k.holder && x.role != Role::Copy);
        let Some(holder) = holder else { return false };
        at = holder;
    }
    false
}

/// Why `load` cannot find the `members` of aggregate `root` (in `c`): they carry only
/// a partition key that does not hold the root's identity, which other aggregates
/// share, and nothing that names their root. Then `load` reads the root alone, and the
/// repository's docs say so.
fn unnamed(c: &cosmap_mapper::Container, root: &DocumentType, members: &[&DocumentType]) -> Option<String> {
    let identity = match &root.id {
        IdSource::Identity { attribute } => attribute.clone(),
        IdSource::Assigned => String::new(),
    };
    let levels = c.partition_key_properties();
    let types: Vec<String> = members.iter().map(|d| format!("`{}`", d.name)).collect();
    (!members.is_empty() && !levels.iter().any(|l| *l == identity)).then(|| {
        format!(
            "Its members ({}) carry only the partition key ({}), which other aggregates share, and nothing that names their root: `load` reads the root alone (give the aggregate its members before a save); a save writes the root and the members it holds and deletes only those it loaded or saved and no longer holds; `delete` deletes the root and the members it saved.",
            types.join(", "),
            levels.join(", ")
        )
    })
}

/// Each member document type as the aggregate holds it: a field named for its
/// containment (or its plural), unique beside `root` and `loaded`, and its claims.
fn member_views(cv: &ContainerNames, members: &[&DocumentType], claim_sets: &[ClaimSetView]) -> Vec<MemberView> {
    let mut idents: BTreeSet<String> = ["root".to_string(), "loaded".to_string()].into();
    members
        .iter()
        .map(|d| {
            let base = d
                .containment
                .as_ref()
                .map(|k| names::field(&k.property))
                .unwrap_or_else(|| names::field(&cosmap_domain::naming::plural(&lower_camel(&d.name))));
            MemberView {
                ident: names::claim(&mut idents, base),
                document: format!("super::{}::{}", cv.module, d.name),
                discriminator: d.discriminator.clone(),
                claim_set: claim_set_of(claim_sets, &cv.module, &d.name),
            }
        })
        .collect()
}

/// The query `load` finds the aggregate's documents with (as a Rust string literal): by
/// the key's `levels` (also in the SQL, so a server that ignores the request's partition,
/// the local one, stays in the aggregate's) and the root's and members' `type`s.
fn load_sql(root: &DocumentType, members: &[MemberView], levels: &[&str]) -> String {
    let mut types: Vec<String> = std::iter::once(&root.discriminator)
        .chain(members.iter().map(|m| &m.discriminator))
        .map(|t| format!("'{t}'"))
        .collect();
    types.sort();
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
}

/// The counts and subsets of `root` its workers keep (not its batch).
fn kept_by_workers(root: &DocumentType) -> Vec<String> {
    root.computed
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
        .collect()
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
    batch_kept(root)
        .map(|(property, document_type, subset)| {
            Ok(DerivedView {
                member: member(document_type, &property)?,
                property,
                subset,
            })
        })
        .collect()
}

/// What `d` keeps of its children in their batch: each count's and subset's property,
/// the children's document type, and for a subset which of them and as what.
fn batch_kept(d: &DocumentType) -> impl Iterator<Item = (String, &str, Option<SubsetItemsView>)> {
    let counts = d.computed.iter().filter(|v| v.kept == cosmap_mapper::Keeping::Batch);
    let counts = counts.map(|v| (v.name.clone(), v.document_type.as_str(), None));
    let subsets = d.embedded.iter().filter_map(|e| {
        let of = e.subset.as_ref().filter(|s| s.kept == cosmap_mapper::Keeping::Batch)?;
        Some((e.name.clone(), of.document_type.as_str(), subset_view(e)))
    });
    counts.chain(subsets)
}

/// The counts and subsets the `documents` of the aggregate (its members, as `views`)
/// keep of their own children in the batch: each child names its holder by its parent
/// link (a separated value object's), else by the holder's identity, as the mapper's
/// writes do; a child outside the aggregate is an error, as a save cannot recompute it.
fn member_derived(documents: &[&DocumentType], views: &[MemberView]) -> Result<Vec<MemberDerivedView>, String> {
    let mut out = Vec::new();
    for (d, holder) in documents.iter().zip(views) {
        let identity = match &d.id {
            IdSource::Identity { attribute } => attribute.clone(),
            IdSource::Assigned => "id".to_string(),
        };
        for (property, document_type, subset) in batch_kept(d) {
            let found = documents.iter().zip(views).find(|(c, _)| c.name == document_type);
            let Some((child, member)) = found else {
                return Err(format!(
                    "its `{}` keeps `{property}` of `{document_type}`, not a member of it, in the batch of their writes; write it with the access patterns' requests",
                    d.name
                ));
            };
            let link = match &child.parent {
                Some(link) if link.entity == d.source => link.property.clone(),
                _ => identity.clone(),
            };
            out.push(MemberDerivedView {
                holder: holder.ident.clone(),
                property,
                member: member.ident.clone(),
                link,
                subset,
            });
        }
    }
    Ok(out)
}
