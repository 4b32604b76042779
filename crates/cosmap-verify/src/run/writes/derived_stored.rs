//! What the generated code keeps after a write (`verify_generated`): each count,
//! subset, extended reference and ancestors list the plan's requests would leave on
//! the live samples, computed without sending those requests, and compared with what
//! is stored once the generated write and its workers have run. The plan's own run
//! (`derived.rs`) sends its queries and rewrites; here nothing is written, only read.

use super::derived::child_and_parent;
use super::*;
use crate::samples::{belongs, subset_items};

impl<'a> Run<'a> {
    /// Request `r` of a write (a count, subset, extended reference or ancestors list
    /// it keeps, or the new parent it reads) judged on what is stored after the
    /// generated write of the documents `written` and its workers: every document the
    /// plan's requests would have rewritten holds what they would have written, and
    /// the live samples take it. `None` when `r` keeps nothing of these.
    pub(in crate::run) async fn kept(
        &self,
        r: &Request,
        written: &[Written],
        state: &mut WriteState,
    ) -> Option<RequestOutcome> {
        let wanted = match &r.purpose {
            Purpose::UpdateCount { document, property, .. } | Purpose::UpdateSubset { document, property, .. } => {
                self.parent_kept(document, property, written, state)
            }
            Purpose::SyncExtendedReference {
                document,
                reference,
                target,
            } => self.holders_kept(r, (document, reference, target), written, state),
            Purpose::SyncAncestors { document, property, .. } => {
                self.descendants_kept(r, document, property, written, state)
            }
            Purpose::ReadParentAncestors { .. } => return Some(self.parent_read(r, written).await),
            _ => return None,
        };
        let outcome = RequestOutcome {
            check: Some(format!("{}: kept by the generated code?", r.purpose)),
            ..self.outcome(r)
        };
        Some(match wanted {
            Ok(documents) => self.holding(outcome, documents, state).await,
            Err(reason) => fail(outcome, reason),
        })
    }

    /// `outcome` judged on a point read of each of `documents` (live samples with the
    /// body the plan's requests would leave): each must hold that body; the live
    /// samples take it.
    async fn holding(
        &self,
        mut outcome: RequestOutcome,
        documents: Vec<Sample>,
        state: &mut WriteState,
    ) -> RequestOutcome {
        outcome.expected = documents.iter().map(|d| d.id.clone()).collect();
        if let [one] = documents.as_slice() {
            outcome.partition_key = Some(one.partition_key.to_string());
            outcome.id = Some(one.id.clone());
        }
        let (mut shown, mut problems) = (Vec::new(), Vec::new());
        for document in documents {
            match self
                .point_read(&document.container, &document.partition_key, &document.id)
                .await
            {
                Ok(Some(read)) => match differences(&document.body, &read) {
                    None => shown.push(document.id.clone()),
                    Some(fields) => problems.push(format!(
                        "`{}` holds other values for {fields} than the plan's requests would leave",
                        document.id
                    )),
                },
                Ok(None) => problems.push(format!("`{}` is gone", document.id)),
                Err(cause) => return error(outcome, cause),
            }
            if let Some(live) = state.live.iter_mut().find(|s| same_item(s, &document)) {
                live.body = document.body;
            }
        }
        outcome.returned = Some(shown);
        verdict(outcome, (!problems.is_empty()).then(|| problems.join("; ")))
    }

    /// The parent of the child written last, with `property` of `document` as the
    /// plan's requests leave it: the number of its live children (`computedValue`),
    /// or its newest live children (`subset`).
    fn parent_kept(
        &self,
        document: &str,
        property: &str,
        written: &[Written],
        state: &WriteState,
    ) -> Result<Vec<Sample>, String> {
        let logical = self.logical;
        let keeps = |d: &'a DocumentType| {
            if let Some(v) = d.computed.iter().find(|v| v.name == property) {
                return Some((Kept::Count, v.container.as_str(), v.document_type.as_str()));
            }
            let e = d.embedded.iter().find(|e| e.name == property)?;
            let of = e.subset.as_ref()?;
            Some((Kept::Subset(e), of.container.as_str(), of.document_type.as_str()))
        };
        let found = logical.containers.iter().find_map(|c| {
            let d = c.document_types.iter().filter(|d| d.name == document);
            d.into_iter().find_map(|d| Some((c, d, keeps(d)?)))
        });
        let (pc, pd, (kept, container, child)) = found.ok_or_else(|| format!("`{document}` keeps no `{property}`"))?;
        let counted = self.counted(container, child)?;
        let (_, mut parent) = child_and_parent(written, state, pc, pd, counted, container)?;
        let value = match kept {
            Kept::Count => {
                let live = state.live.iter();
                Value::from(
                    live.filter(|s| belongs(counted, container, &pd.source, &parent, s))
                        .count(),
                )
            }
            Kept::Subset(e) => Value::Array(subset_items(logical, e, &pd.source, &parent, &state.live)),
        };
        if let Value::Object(map) = &mut parent.body {
            map.insert(property.to_string(), value);
        }
        Ok(vec![parent])
    }

    /// Every live `document` whose extended reference `reference` refers to the
    /// `target` written, with the target's new values in each element that refers to it.
    fn holders_kept(
        &self,
        r: &Request,
        (document, reference, target): (&str, &str, &str),
        written: &[Written],
        state: &WriteState,
    ) -> Result<Vec<Sample>, String> {
        let (changed, c, copied) = self.sync_of(r, written, target, document, reference)?;
        let holders = state.live.iter().filter(|s| {
            s.container == c.name
                && s.document_type == document
                && s.body
                    .get(reference)
                    .is_some_and(|r| !referring(r, &changed.id).is_empty())
        });
        let refreshed = |holder: &Sample| {
            let mut holder = holder.clone();
            let elements: Vec<&mut Value> = match holder.body.get_mut(reference) {
                Some(Value::Array(list)) => list.iter_mut().collect(),
                Some(single) => vec![single],
                None => Vec::new(),
            };
            for element in elements.into_iter().filter(|e| id_of(e) == changed.id) {
                copy_values(element, &changed.body, &copied);
            }
            holder
        };
        Ok(holders.map(refreshed).collect())
    }

    /// Every live `document` whose ancestors list `property` holds the element
    /// written, the list rewritten from the element's own list, the element with its
    /// new values and the entries below it.
    fn descendants_kept(
        &self,
        r: &Request,
        document: &str,
        property: &str,
        written: &[Written],
        state: &WriteState,
    ) -> Result<Vec<Sample>, String> {
        let (changed, c, copied) = self.sync_of(r, written, document, document, property)?;
        let above = changed.body.get(property).and_then(Value::as_array);
        let above = above.map_or(&[][..], Vec::as_slice);
        let rewritten = |holder: &Sample| {
            let list = holder.body.get(property).and_then(Value::as_array)?;
            let at = list.iter().position(|e| id_of(e) == changed.id)?;
            let mut entry = list[at].clone();
            copy_values(&mut entry, &changed.body, &copied);
            let list: Vec<Value> = above
                .iter()
                .cloned()
                .chain([entry])
                .chain(list[at + 1..].to_vec())
                .collect();
            let mut holder = holder.clone();
            if let Value::Object(map) = &mut holder.body {
                map.insert(property.to_string(), Value::Array(list));
            }
            Some(holder)
        };
        let live = state.live.iter();
        Ok(live
            .filter(|s| s.container == c.name && s.document_type == document)
            .filter_map(rewritten)
            .collect())
    }
}

/// `element` (an object) with the values of `attributes` that `source` holds (and
/// without those it does not hold), as a sync copies them.
fn copy_values(element: &mut Value, source: &Value, attributes: &[String]) {
    let Value::Object(e) = element else { return };
    for a in attributes {
        match source.get(a) {
            Some(v) => e.insert(a.clone(), v.clone()),
            None => e.remove(a),
        };
    }
}

/// What a parent keeps of its children: a count, or a subset.
enum Kept<'m> {
    Count,
    Subset(&'m cosmap_mapper::Embedded),
}
