//! Trees: the ancestors of a result, read up its parent link or kept on it
//! (`treeAncestors`).

use super::*;

impl Run<'_> {
    /// The ancestors of the first result the main read should return, up a tree's
    /// parent link `reference`: one point read per level through the link the document
    /// before holds, until a root; expected, the chain the samples' links make.
    pub(super) async fn ancestors_read(
        &self,
        r: &Request,
        reference: &str,
        main: &MainRead<'_>,
        mut outcome: RequestOutcome,
    ) -> RequestOutcome {
        let Some(first) = main.expected.first() else {
            return fail(outcome, "the main read should return nothing to climb from".into());
        };
        let link = |body: &Value| tree_link(body, reference);
        let expected = self.chain(first, reference);
        outcome.expected = expected.clone();
        let mut returned = Vec::new();
        let mut at = link(&first.body);
        while let Some((pk, id)) = at.take().filter(|_| returned.len() <= expected.len()) {
            match self.point_read(&r.container, &pk, &id).await {
                Ok(Some(doc)) => {
                    at = link(&doc);
                    returned.push(doc);
                }
                Ok(None) => break,
                Err(cause) => return error(outcome, cause),
            }
        }
        judge(outcome, &returned, |_| true)
    }

    /// The ids of `sample`'s ancestors up the tree link `reference`, nearest first, by
    /// the samples' own links (bounded by their number: a cycle is no tree).
    pub(super) fn chain(&self, sample: &Sample, reference: &str) -> Vec<String> {
        let mut chain = Vec::new();
        let mut at = tree_link(&sample.body, reference);
        while let Some((pk, id)) = at.take().filter(|_| chain.len() <= self.samples.len()) {
            let next = self
                .samples
                .iter()
                .find(|s| s.container == sample.container && s.id == id && s.partition_key == pk);
            chain.push(id);
            at = next.and_then(|s| tree_link(&s.body, reference));
        }
        chain
    }

    /// A read of the ancestors (`parent*`) that does not climb: the first result must
    /// hold them in its list (`treeAncestors`), root first, as the samples' parent
    /// links make them; a read that neither climbs nor holds a list cannot pass.
    pub(super) async fn kept_ancestors(
        &self,
        op: &Operation,
        pattern: &AccessPattern,
        main: &MainRead<'_>,
    ) -> Vec<RequestOutcome> {
        let Some(first) = op.requests.first() else {
            return Vec::new();
        };
        let climbs = |reference: &str| {
            op.requests
                .iter()
                .any(|r| matches!(&r.purpose, Purpose::FollowAncestors { reference: x, .. } if x == reference))
        };
        let d = self
            .logical
            .container(&first.container)
            .and_then(|c| c.document_type(first.document_types.first()?));
        let mut checks = Vec::new();
        for reference in pattern
            .returns
            .iter()
            .filter_map(|r| r.split('.').next()?.strip_suffix('*'))
        {
            if climbs(reference) {
                continue;
            }
            let types = first.document_types.clone();
            let outcome = RequestOutcome::pending(OperationKind::PointRead, None, &first.container, types, false)
                .added("ancestors kept?");
            let list = d.and_then(|d| {
                d.references
                    .iter()
                    .find(|x| x.ancestry.as_ref().is_some_and(|a| a.parent == reference))
            });
            let (Some(list), Some(result)) = (list, main.expected.first()) else {
                checks.push(fail(
                    outcome,
                    format!("the read returns the ancestors up `{reference}`, but neither climbs them nor reads a list of them"),
                ));
                continue;
            };
            let mut expected = self.chain(result, reference);
            expected.reverse();
            let shown = |read: &Value| {
                read.get(&list.name)
                    .and_then(Value::as_array)
                    .map(|l| l.iter().map(crate::run::id_of).collect())
                    .unwrap_or_default()
            };
            let why = |held: &[String]| format!("`{}` lists {held:?}, but its ancestors are {expected:?}", result.id);
            checks.push(
                self.held_by(outcome, &first.container, result, expected.clone(), shown, why)
                    .await,
            );
        }
        checks
    }
}

/// The id and partition key of the parent a tree element's link `reference` holds.
pub(super) fn tree_link(body: &Value, reference: &str) -> Option<(Key, String)> {
    let l = body.get(reference)?;
    Some((
        Key::from_json(l.get("partitionKey")?)?,
        l.get("id")?.as_str()?.to_string(),
    ))
}
