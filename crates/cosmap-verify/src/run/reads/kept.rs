//! Reads of what is kept for them: subsets (`subset`) and counts (`computedValue`),
//! and the counts a read asks for.

use super::*;

impl Run<'_> {
    /// A read a subset serves (`subset`): what the pattern should return is worked out
    /// on the children's own documents (the newest N of the parent the filter names,
    /// in order); the point read of the parent must hold exactly those, in that order.
    pub(super) async fn subset_read(&self, r: &Request, pattern: &AccessPattern) -> RequestOutcome {
        let mut outcome = self.outcome(r);
        let Purpose::ReadSubset { property, .. } = &r.purpose else {
            return fail(outcome, "not a subset read".into());
        };
        let subset = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(r.document_types.first()?))
            .and_then(|d| d.embedded.iter().find(|e| e.name == *property));
        let Some((e, of)) = subset.and_then(|e| Some((e, e.subset.as_ref()?))) else {
            return fail(outcome, format!("`{}` keeps no subset `{property}`", r.container));
        };
        let Some(children) = self.logical.container(&of.container) else {
            return fail(outcome, format!("there is no container `{}`", of.container));
        };
        let spec = match ReadSpec::new(pattern, children, &of.document_type) {
            Ok(spec) => spec,
            Err(reason) => return fail(outcome, reason),
        };
        // The parent with the most children: the subset must leave some out.
        let Some(binding) = spec
            .bindings(&self.samples)
            .into_iter()
            .max_by_key(|b| spec.expected(&self.samples, b).len())
        else {
            return fail(
                outcome,
                format!("no sample `{}` offers a value for the filter", of.document_type),
            );
        };
        let mut expected = spec.expected(&self.samples, &binding);
        if let Some(n) = spec.limit() {
            expected.truncate(n);
        }
        outcome.expected = expected.iter().map(|s| s.id.clone()).collect();
        outcome.ordered = true;
        let id = match bind(r.id(), &binding, "id") {
            Ok(id) => id,
            Err(reason) => return fail(outcome, reason),
        };
        let key = Key::one(id.clone());
        outcome.partition_key = Some(key.to_string());
        outcome.id = Some(id.clone());
        let identity = e.attributes.first().map_or("id", |a| a.name.as_str());
        // The generated method returns the subset's items; the plan reads the parent.
        let kept = match self.generated_answer(&pattern.name, &binding).await {
            Some(answer) => answer,
            None => match self.point_read(&r.container, &key, &id).await {
                Ok(Some(parent)) => Ok(parent
                    .get(property)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()),
                Ok(None) => return fail(outcome, format!("the parent `{id}` is not there")),
                Err(cause) => Err(cause),
            },
        };
        match kept {
            Ok(kept) => {
                let items: Vec<Value> = kept
                    .iter()
                    .map(|item| serde_json::json!({ "id": item.get(identity).cloned().unwrap_or(Value::Null) }))
                    .collect();
                let wanted = outcome.expected.clone();
                judge(outcome, &items, move |docs| {
                    docs.iter().map(|d| id_of(d)).collect::<Vec<_>>() == wanted
                })
            }
            Err(cause) => error(outcome, cause),
        }
    }

    /// For each element the pattern `counts` that the document read keeps a count of
    /// (computedValue): a point read of the first result, whose count must equal the
    /// number of its children among the samples (`+ count kept?`).
    pub(super) async fn kept_counts(
        &self,
        first: &Request,
        pattern: &AccessPattern,
        main: &MainRead<'_>,
    ) -> Vec<RequestOutcome> {
        let Some(d) = self
            .logical
            .container(&first.container)
            .and_then(|c| c.document_type(first.document_types.first()?))
        else {
            return Vec::new();
        };
        let mut checks = Vec::new();
        for v in d.computed.iter().filter(|v| pattern.counts.contains(&v.counts)) {
            let outcome = RequestOutcome::pending(
                OperationKind::PointRead,
                None,
                &first.container,
                vec![d.name.clone()],
                false,
            )
            .added("count kept?");
            let Some(result) = main
                .expected
                .iter()
                .find(|s| s.container == first.container && s.document_type == d.name)
            else {
                checks.push(fail(outcome, format!("the main read should return no `{}`", d.name)));
                continue;
            };
            let counted = self
                .logical
                .container(&v.container)
                .and_then(|c| c.document_type(&v.document_type));
            let Some(counted) = counted else {
                checks.push(fail(
                    outcome,
                    format!("there is no `{}` in `{}`", v.document_type, v.container),
                ));
                continue;
            };
            let expected = self
                .samples
                .iter()
                .filter(|s| crate::samples::belongs(counted, &v.container, &d.source, result, s))
                .count();
            let shown = |read: &Value| vec![read.get(&v.name).map_or_else(|| "nothing".into(), Value::to_string)];
            let why = |kept: &[String]| {
                let kept = kept.join("");
                format!(
                    "`{}.{}` holds {kept}, but {expected} `{}`s belong to it",
                    result.id, v.name, v.counts
                )
            };
            let expected = vec![expected.to_string()];
            checks.push(
                self.held_by(outcome, &first.container, result, expected, shown, why)
                    .await,
            );
        }
        checks
    }

    /// An added check of what the document `result` (in `container`) keeps: a point
    /// read of it, whose `shown` must be `expected`; `why` says what else it held means.
    pub(super) async fn held_by(
        &self,
        mut outcome: RequestOutcome,
        container: &str,
        result: &Sample,
        expected: Vec<String>,
        shown: impl Fn(&Value) -> Vec<String>,
        why: impl Fn(&[String]) -> String,
    ) -> RequestOutcome {
        outcome.partition_key = Some(result.partition_key.to_string());
        outcome.id = Some(result.id.clone());
        outcome.expected = expected;
        match self.point_read(container, &result.partition_key, &result.id).await {
            Ok(Some(read)) => {
                let held = shown(&read);
                outcome.returned = Some(held.clone());
                let problem = (held != outcome.expected).then(|| why(&held));
                verdict(outcome, problem)
            }
            Ok(None) => fail(outcome, format!("`{}` is not there", result.id)),
            Err(cause) => error(outcome, cause),
        }
    }

    /// A count per result (`counts`): for the first result the main read should
    /// return, the number of `element` samples that belong to it or refer to it,
    /// worked out from the logical model (its parent link, its reference, or else its
    /// partition), never from the SQL.
    pub(super) async fn count_read(
        &self,
        r: &Request,
        element: &str,
        per: &str,
        main: &MainRead<'_>,
        mut outcome: RequestOutcome,
    ) -> RequestOutcome {
        let source_of = |s: &Sample| {
            self.logical
                .container(&s.container)
                .and_then(|c| c.document_type(&s.document_type))
                .map(|d| d.source.as_str())
        };
        let Some(result) = main.expected.iter().find(|s| source_of(s) == Some(per)) else {
            return fail(
                outcome,
                format!("the main read should return no `{per}` to count `{element}`s for"),
            );
        };
        let Some(counted) = self
            .logical
            .container(&r.container)
            .and_then(|c| c.document_type(r.document_types.first().map_or("", String::as_str)))
        else {
            return fail(outcome, format!("`{}` holds no `{element}` documents", r.container));
        };
        let belongs = |s: &&Sample| crate::samples::belongs(counted, &r.container, per, result, s);
        let expected = self.samples.iter().filter(belongs).count();
        outcome.expected = vec![expected.to_string()];
        let partition = match r.partition_key().map(|source| (source, key_in(source, &result.body))) {
            Some((_, Ok(Some(pk)))) => Some(pk),
            Some((source, Ok(None))) => {
                return fail(
                    outcome,
                    format!("`{}` holds no `{source}` to scope the count", result.id),
                )
            }
            Some((_, Err(why))) => return fail(outcome, format!("a count's partition comes from each result: {why}")),
            None => None,
        };
        outcome.partition_key = partition.as_ref().map(Key::to_string);
        let Some(sql) = r.sql() else {
            return fail(outcome, "a count is a query".into());
        };
        // Every parameter of a count names the result's identity (or its parent link).
        outcome.parameters = crate::run::all_bound_to(r, &result.id);
        let checked = match self
            .query(&r.container, sql, &outcome.parameters, partition.as_ref())
            .await
        {
            Ok(returned) => {
                // `SELECT VALUE 1` (across partitions): the application counts the answers.
                let values: Vec<String> = if r.counts_matches() {
                    vec![returned.len().to_string()]
                } else {
                    returned.iter().map(Value::to_string).collect()
                };
                outcome.returned = Some(values.clone());
                let counted = values.join(", ");
                let problem = (values != outcome.expected).then(|| {
                    format!(
                        "counted {counted} `{element}`s for `{}`, expected {expected}",
                        result.id
                    )
                });
                verdict(outcome, problem)
            }
            Err(cause) => error(outcome, cause),
        };
        self.probed(checked, r, &result.id, partition.is_some()).await
    }
}
