//! The requests after a read's main one: through references, to what refers back,
//! to what the results' lists name.

use super::*;

impl Run<'_> {
    /// A request after the main one: a point read through a reference the documents
    /// read hold, or a query for returned elements stored elsewhere.
    pub(super) async fn secondary_read(
        &self,
        r: &Request,
        pattern: &AccessPattern,
        main: Option<&MainRead<'_>>,
    ) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Some(main) = main else {
            return fail(outcome, "not run: the main request could not be run".into());
        };
        if let Purpose::Count { element, per } = &r.purpose {
            return self.count_read(r, element, per, main, outcome).await;
        }
        if let Purpose::FollowAncestors { reference, .. } = &r.purpose {
            return self.ancestors_read(r, reference, main, outcome).await;
        }
        let Some(container) = self.logical.container(&r.container) else {
            return fail(outcome, format!("there is no container `{}`", r.container));
        };
        let types = self.returned_types(container, r, pattern);
        if types.is_empty() {
            return fail(
                outcome,
                format!("`{}` holds none of the elements the pattern returns", r.container),
            );
        }
        let after = After { r, main, types };
        let through_reference = matches!(r.partition_key(), Some(ValueSource::Property(_)));
        let answer = if r.kind() == OperationKind::PointRead && through_reference {
            self.follow_read(&after, &pattern.start, &mut outcome).await
        } else if let (Some(sql), true) = (r.sql(), r.kind() != OperationKind::PointRead) {
            self.elsewhere_read(&after, sql, &mut outcome).await
        } else {
            Err("cannot tell how to run this request".into())
        };
        match answer {
            Ok(Ok(returned)) => judge(outcome, &returned, |_| true),
            Ok(Err(cause)) => error(outcome, cause),
            Err(reason) => fail(outcome, reason),
        }
    }

    /// A point read through the reference the first result of the main read holds
    /// (`types` of `r.container` expected): the answer (or why the server refused),
    /// or why it could not be sent.
    pub(super) async fn follow_read(&self, after: &After<'_, '_>, start: &str, outcome: &mut RequestOutcome) -> Sent {
        let (r, main, types) = (after.r, after.main, &after.types);
        let (Some(ValueSource::Property(pk_path)), Some(ValueSource::Property(id_path))) = (r.partition_key(), r.id())
        else {
            return Err(
                "a point read through a reference needs its id and partition key from the document read".into(),
            );
        };
        // The reference is on the start element: the document, or an object in it.
        let held = |s: &Sample, body: &Value| {
            let d = self.logical.container(&s.container)?.document_type(&s.document_type)?;
            let mut holders = vec![body];
            holders.extend(start_instances(d, start, body));
            holders.into_iter().find_map(|holder| {
                let pk = Key::from_json(lookup(holder, pk_path)?)?;
                let id = lookup(holder, id_path)?.as_str()?;
                Some((pk, id.to_string()))
            })
        };
        // The application follows the reference the answer holds: the first result
        // the answer returned (any, when the server refused it) that should hold one.
        let first = main.expected.iter().find_map(|s| {
            let body = match &main.answer {
                None => &s.body,
                Some(answer) => answer
                    .iter()
                    .find(|doc| doc.get("id").and_then(Value::as_str) == Some(s.id.as_str()))?,
            };
            Some((held(s, &s.body)?, body, *s))
        });
        let Some(((pk, id), body, sample)) = first else {
            return Err(format!(
                "no document the main request returned holds `{pk_path}` and `{id_path}` as it should"
            ));
        };
        let Some((sent_pk, sent_id)) = held(sample, body) else {
            return Err(format!(
                "`{}` as returned holds no `{pk_path}` and `{id_path}` to follow",
                sample.id
            ));
        };
        outcome.partition_key = Some(sent_pk.to_string());
        outcome.id = Some(sent_id.clone());
        outcome.expected = self
            .samples
            .iter()
            .filter(|s| s.container == r.container && types.contains(&s.document_type.as_str()))
            .filter(|s| s.id == id && s.partition_key == pk)
            .map(|s| s.id.clone())
            .collect();
        Ok(self
            .point_read(&r.container, &sent_pk, &sent_id)
            .await
            .map(|doc| doc.into_iter().collect()))
    }

    /// A query for returned elements stored elsewhere (`types` of `r.container`
    /// expected): those that refer back to a result of the main read, those its lists
    /// name, or those its binding finds. The answer (or why the server refused), or
    /// why it could not be sent.
    pub(super) async fn elsewhere_read(&self, after: &After<'_, '_>, sql: &str, outcome: &mut RequestOutcome) -> Sent {
        let (r, main, types) = (after.r, after.main, &after.types);
        let (referred, listed) = referred_and_listed(r, main)?;
        let partition = match (r.kind() == OperationKind::SinglePartitionQuery, referred) {
            (false, _) => None,
            // Partitioned by the reference: the referred document's id.
            (true, Some(m)) => Some(Key::one(m.id.clone())),
            (true, None) => Some(bind_key(r.partition_key(), &main.binding)?),
        };
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let referring = |s: &&Sample| match (&r.purpose, referred) {
            (Purpose::FindReferring { reference, .. }, Some(m)) => {
                let ids: Vec<&str> = match s.body.get(reference) {
                    Some(Value::Array(list)) => list.iter().filter_map(|x| x.get("id")?.as_str()).collect(),
                    Some(one) => one.get("id").and_then(Value::as_str).into_iter().collect(),
                    None => Vec::new(),
                };
                ids.contains(&m.id.as_str())
            }
            _ => listed.as_ref().is_none_or(|ids| ids.contains(&s.id)),
        };
        outcome.expected = self
            .samples
            .iter()
            .filter(|s| s.container == r.container && types.contains(&s.document_type.as_str()))
            .filter(|s| partition.as_ref().is_none_or(|p| s.partition_key.starts_with(p)))
            .filter(referring)
            .map(|s| s.id.clone())
            .collect();
        outcome.parameters = match (referred, &listed) {
            (Some(m), _) => crate::run::all_bound_to(r, &m.id),
            (None, Some(ids)) => crate::run::list_bound_to(r, ids),
            (None, None) => self.parameters(r, &main.binding)?,
        };
        Ok(self
            .query(&r.container, sql, &outcome.parameters, partition.as_ref())
            .await)
    }
}

/// A request after the main read, with what it needs of it.
pub(super) struct After<'a, 's> {
    r: &'a Request,
    main: &'a MainRead<'s>,
    /// The document types of `r.container` that hold elements the pattern returns.
    types: Vec<&'a str>,
}

/// A request's answer (or why the server refused it), or why it could not be sent.
pub(super) type Sent = Result<Result<Vec<Value>, String>, String>;

/// What a query after the main read looks for: the result of the main read whose
/// referrers it finds (`FindReferring`, the first), or the ids the results' lists
/// name (`ReadListed`: one query for the ids every result's list holds, each once);
/// why it cannot be run when the main read should return nothing to go on.
pub(super) fn referred_and_listed<'s>(
    r: &Request,
    main: &MainRead<'s>,
) -> Result<(Option<&'s Sample>, Option<Vec<String>>), String> {
    match &r.purpose {
        Purpose::FindReferring { from, .. } => match main.expected.first() {
            Some(m) => Ok((Some(*m), None)),
            None => Err(format!(
                "the main read should return no `{from}` to find what refers to it"
            )),
        },
        Purpose::ReadListed { reference, .. } => {
            if main.expected.is_empty() {
                return Err(format!(
                    "the main read should return nothing whose `{reference}` lists what to read"
                ));
            }
            let mut ids: Vec<String> = Vec::new();
            for id in main.expected.iter().flat_map(|m| listed_ids(&m.body, reference)) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            Ok((None, Some(ids)))
        }
        _ => Ok((None, None)),
    }
}

/// The ids list `reference` of `body` holds (each element's `id`), in its order.
pub(super) fn listed_ids(body: &Value, reference: &str) -> Vec<String> {
    match body.get(reference) {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|x| Some(x.get("id")?.as_str()?.to_string()))
            .collect(),
        _ => Vec::new(),
    }
}
