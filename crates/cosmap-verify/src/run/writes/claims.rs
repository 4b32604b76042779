//! Unique values claimed (`uniqueClaim`): the claim each write makes or releases, and
//! the duplicates it must refuse.

use super::*;

impl Run<'_> {
    /// The claim a claim request writes: on the owner this operation creates next
    /// (the claim comes first), or on the owner it deleted (the claim comes after).
    pub(super) fn claimed(
        &self,
        d: &DocumentType,
        kind: WriteKind,
        state: &WriteState,
        written: &[Written],
    ) -> Result<Sample, String> {
        let of = d
            .claim_of
            .as_ref()
            .ok_or_else(|| format!("the claim `{}` does not say what it claims", d.name))?;
        let owner = match kind {
            WriteKind::Create => {
                let serial = state
                    .created
                    .get(&(of.container.clone(), of.document_type.clone()))
                    .copied()
                    .unwrap_or(0);
                self.generator
                    .new_sample(&of.container, &of.document_type, serial)
                    .map_err(|e| e.to_string())?
            }
            WriteKind::Delete | WriteKind::Replace => written
                .iter()
                .rev()
                .map(|w| &w.sample)
                .find(|s| s.container == of.container && s.document_type == of.document_type)
                .cloned()
                .ok_or_else(|| format!("no `{}` written before its claim", of.document_type))?,
        };
        let claim_container = self
            .logical
            .containers
            .iter()
            .find(|c| {
                c.document_types
                    .iter()
                    .any(|x| x.name == d.name && x.role == Role::Claim)
            })
            .map(|c| c.name.clone())
            .unwrap_or_default();
        self.generator
            .claim_of(&claim_container, &d.name, &owner)
            .map_err(|e| e.to_string())
    }

    /// After a claim request: a new owner holding the value another live owner holds
    /// is claimed through the same request (its id and partition key bound as the
    /// operation binds them), and the server must refuse it (409), or the design does
    /// not enforce uniqueness.
    pub(crate) async fn duplicates_refused(&self, op: &Operation, state: &WriteState) -> Vec<RequestOutcome> {
        let mut checks = Vec::new();
        for r in op
            .requests
            .iter()
            .filter(|r| matches!(r.purpose, Purpose::Claim { .. }))
        {
            let Some((c, d)) = self.logical.container(&r.container).and_then(|c| {
                let d = c.document_type(r.document_types.first()?)?;
                (d.role == Role::Claim).then_some((c, d))
            }) else {
                continue;
            };
            let Some(of) = &d.claim_of else { continue };
            let created = Some(WriteKind::Create);
            let mut outcome =
                RequestOutcome::pending(OperationKind::Write, created, &c.name, vec![d.name.clone()], false)
                    .added("duplicate refused?");
            match self.duplicate_claim(r, c, d, of, state) {
                Err(reason) => checks.push(fail(outcome, reason)),
                Ok((pk, id, body)) => {
                    let value = pk.clone();
                    outcome.partition_key = Some(pk.to_string());
                    outcome.id = Some(id.clone());
                    let Ok(client) = self.client(&c.name) else {
                        checks.push(fail(outcome, format!("there is no container `{}`", c.name)));
                        continue;
                    };
                    let operation = format!("claim `{value}` again in `{}`", c.name);
                    let sent = self
                        .connection
                        .request(&operation, &[409], || client.create_item(pk.sdk(), &id, &body, None))
                        .await;
                    outcome.returned = Some(Vec::new());
                    checks.push(match sent {
                        Ok(None) => {
                            outcome.verdict = Verdict::Pass;
                            outcome
                        }
                        Ok(Some(_)) => fail(
                            outcome,
                            format!(
                                "a second `{}` with the `{}` `{value}` was claimed: the value is not unique",
                                of.document_type, of.attribute
                            ),
                        ),
                        Err(e) => error(outcome, e.to_string()),
                    });
                }
            }
        }
        checks
    }

    /// The claim request `r` would send for a new `of.document_type` that holds the
    /// value of a live one: (partition key, which is the value; id; body).
    pub(super) fn duplicate_claim(
        &self,
        r: &Request,
        c: &Container,
        d: &DocumentType,
        of: &cosmap_mapper::ClaimOf,
        state: &WriteState,
    ) -> Result<(Key, String, Value), String> {
        let holder = state
            .live
            .iter()
            .find(|s| s.container == of.container && s.document_type == of.document_type)
            .ok_or_else(|| format!("no `{}` holds a value to claim again", of.document_type))?;
        let value = holder
            .body
            .get(&of.attribute)
            .cloned()
            .ok_or_else(|| format!("the `{}` `{}` has no `{}`", of.document_type, holder.id, of.attribute))?;
        let serial = state
            .created
            .get(&(of.container.clone(), of.document_type.clone()))
            .copied()
            .unwrap_or(0);
        // An owner no sample is yet (the next one a create would make; never written).
        let mut owner = self
            .generator
            .new_sample(&of.container, &of.document_type, serial)
            .map_err(|e| e.to_string())?;
        if let Value::Object(body) = &mut owner.body {
            body.insert(of.attribute.clone(), value);
        }
        let claim = self
            .generator
            .claim_of(&c.name, &d.name, &owner)
            .map_err(|e| e.to_string())?;
        // The id as the request binds it: a constant, or a property of the owner.
        let id = match r.id() {
            Some(ValueSource::Constant(id)) => id.clone(),
            Some(ValueSource::Parameter(name)) => match owner.body.get(name) {
                Some(Value::String(v)) if name != "id" => v.clone(),
                _ => owner.id.clone(),
            },
            _ => return Err("the claim request has no id".into()),
        };
        let mut body = claim.body;
        if let Value::Object(map) = &mut body {
            map.insert("id".into(), Value::String(id.clone()));
        }
        Ok((claim.partition_key, id, body))
    }
}
