//! Trees (`treeAncestors`): the new parent read for an element written, and the
//! ancestors lists of its descendants kept current.

use super::*;

impl Run<'_> {
    /// The point read of the new parent of the tree element just written
    /// (`treeAncestors`): through the parent reference it holds (nothing to read at a
    /// root), and its ancestors list must be the parent's list and the parent, root
    /// first, as the application builds it.
    pub(super) async fn parent_read(&self, r: &Request, written: &[Written]) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Purpose::ReadParentAncestors { document, reference } = &r.purpose else {
            return fail(outcome, "not a parent read".into());
        };
        let Some(child) = written
            .iter()
            .rev()
            .find(|w| w.accepted && w.sample.document_type == *document)
            .map(|w| &w.sample)
        else {
            return fail(
                outcome,
                format!("the operation wrote no `{document}` whose parent to read"),
            );
        };
        let lists: Vec<String> = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(document))
            .map(|d| {
                d.references
                    .iter()
                    .filter(|x| x.ancestry.as_ref().is_some_and(|a| a.parent == *reference))
                    .map(|x| x.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let ids = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|l| l.iter().map(id_of).collect())
                .unwrap_or_default()
        };
        let Some(link) = child.body.get(reference) else {
            // A root: no parent, and an empty list.
            outcome.expected = Vec::new();
            return match lists.iter().find(|l| !ids(child.body.get(l.as_str())).is_empty()) {
                Some(l) => fail(outcome, format!("the root `{}` lists ancestors in `{l}`", child.id)),
                None => super::super::reads::judge(outcome, &[], |_| true),
            };
        };
        let (Some(pk), Some(id)) = (
            link.get("partitionKey").and_then(Key::from_json),
            link.get("id").and_then(Value::as_str),
        ) else {
            return fail(
                outcome,
                format!("`{}` holds no id and partition key in `{reference}`", child.id),
            );
        };
        outcome.partition_key = Some(pk.to_string());
        outcome.id = Some(id.to_string());
        outcome.expected = vec![id.to_string()];
        let parent = match self.point_read(&r.container, &pk, id).await {
            Ok(parent) => parent,
            Err(cause) => return error(outcome, cause),
        };
        if let Some(parent) = &parent {
            for l in &lists {
                let mut want = ids(parent.get(l.as_str()));
                want.push(id.to_string());
                let got = ids(child.body.get(l.as_str()));
                if got != want {
                    let why = format!(
                        "`{}` lists {got:?} in `{l}`, but its parent's list and the parent make {want:?}",
                        child.id
                    );
                    return fail(outcome, why);
                }
            }
        }
        super::super::reads::judge(outcome, &parent.into_iter().collect::<Vec<_>>(), |_| true)
    }

    /// The sync of an ancestors list after a tree element was replaced (renamed or
    /// moved): `query` must find every live document whose list holds it; each found
    /// is rewritten (`rewrite`) with the element's new ancestors and values in place of
    /// the entries down to it, and a point read of each must then show them.
    pub(super) async fn refresh_descendants(
        &self,
        query: &Request,
        rewrite: Option<&Request>,
        written: &[Written],
        state: &mut WriteState,
    ) -> Vec<RequestOutcome> {
        let mut outcome = self.outcome(query);
        let Purpose::SyncAncestors { document, property, .. } = &query.purpose else {
            return vec![fail(outcome, "not an ancestors list's sync".into())];
        };
        let (changed, c, copied) = match self.sync_of(query, written, document, document, property) {
            Ok(found) => found,
            Err(reason) => return vec![fail(outcome, reason)],
        };
        let position = |body: &Value| {
            body.get(property).and_then(Value::as_array).and_then(|l| {
                l.iter()
                    .position(|e| e.get("id").and_then(Value::as_str) == Some(changed.id.as_str()))
            })
        };
        outcome.expected = state
            .live
            .iter()
            .filter(|s| s.container == c.name && s.document_type == *document && position(&s.body).is_some())
            .map(|s| s.id.clone())
            .collect();
        outcome.parameters = super::super::all_bound_to(query, &changed.id);
        let sql = query.sql().unwrap_or_default().to_string();
        let found = match self.query(&c.name, &sql, &outcome.parameters, None).await {
            Ok(found) => found,
            Err(cause) => return vec![error(outcome, cause)],
        };
        let judged = super::super::reads::judge(outcome, &found, |_| true);
        let mut checks = vec![self.probed(judged, query, &changed.id, false).await];
        let Some(rewrite) = rewrite else {
            return checks;
        };
        // The changed element's own list, then its entry with its new values, then
        // the entries below it as they were.
        let above: Vec<Value> = changed
            .body
            .get(property)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let edit = |holder: &Value| {
            let mut body = holder.clone();
            let Some(at) = position(&body) else { return body };
            if let Some(Value::Array(list)) = body.get_mut(property) {
                let mut entry = list[at].clone();
                if let Value::Object(e) = &mut entry {
                    for a in &copied {
                        match changed.body.get(a) {
                            Some(v) => e.insert(a.clone(), v.clone()),
                            None => e.remove(a),
                        };
                    }
                }
                let below: Vec<Value> = list[at + 1..].to_vec();
                *list = above.iter().cloned().chain([entry]).chain(below).collect();
            }
            body
        };
        let shows = |read: &Value, body: &Value| read.get(property) == body.get(property);
        let stale = format!(
            "does not show `{}`'s new values and ancestors in `{property}`",
            changed.id
        );
        checks.push(
            self.rewrite_found(rewrite, c, &found, state, &edit, &shows, &stale)
                .await,
        );
        checks
    }
}
