//! Trees (`treeAncestors`): the new parent read for an element written, whose
//! ancestors list it takes.

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
}
