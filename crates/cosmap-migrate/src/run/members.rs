//! The steps that write documents beside the one changed: a value's claim made or
//! found ([`Step::ClaimValues`]), a separate document embedded into its holder
//! ([`Step::EmbedSeparate`]), and the split of an embedded value out of its holder.

use super::*;

impl<'a> Feed<'a> {
    /// [`Step::ClaimValues`] for one changed document: its owner's claim, made or found.
    pub(super) async fn claim_value(&mut self, document: &Value, id: String) -> Result<bool, MigrateError> {
        let Step::ClaimValues {
            container,
            claim_property,
            claim,
            owner,
            attribute,
            owner_partition_key_property,
            ..
        } = self.step
        else {
            return Ok(false);
        };
        // An owner soft-deleted (its `ttl` set) holds no claim.
        let deleted = document.get("ttl").is_some_and(|t| !t.is_null());
        if text(document, "type").as_deref() != Some(owner.as_str()) || deleted {
            return Ok(false);
        }
        let value = match document.get(attribute) {
            None | Some(Value::Null) => return Ok(false),
            Some(Value::String(value)) => value.clone(),
            Some(other) => {
                return Err(self.data(format!(
                    "`{owner}` `{id}` holds {other} in `{attribute}`, not text: it cannot be claimed"
                )))
            }
        };
        let owner_key = self.key_of(document, owner, &id, owner_partition_key_property)?;
        let body = serde_json::json!({
            "id": claim, "type": claim, claim_property.as_str(): value,
            "ownerId": id, "ownerPartitionKey": owner_key,
        });
        let at = self.in_target(container, value.clone());
        if let Outcome::Written = self.create_new(&at, claim, &body).await? {
            return Ok(true);
        }
        // Claimed already: by this owner (a replay), or by another.
        let by = self.read(&at, claim).await?.and_then(|claim| text(&claim, "ownerId"));
        if by.as_deref() == Some(id.as_str()) {
            return Ok(false);
        }
        Err(self.data(format!(
                    "`{owner}` `{id}` holds `{attribute}` `{value}`, which `{}` holds too: the values are not unique. Make them unique, then run `cosmap migrate` again (it resumes from its lease)",
                    by.unwrap_or_else(|| "another document".into())
                )))
    }

    /// [`Step::EmbedSeparate`] for one changed document: its holder's property rebuilt
    /// from every separate document of that holder.
    pub(super) async fn embed_into_holder(&mut self, document: &Value, id: String) -> Result<bool, MigrateError> {
        let Step::EmbedSeparate {
            container,
            child,
            holder,
            property,
            many,
            partition_key_property,
            parent_property,
            keep,
            ..
        } = self.step
        else {
            return Ok(false);
        };
        if text(document, "type").as_deref() != Some(child.as_str()) {
            return Ok(false);
        }
        let key = self.key_of(document, child, &id, partition_key_property)?;
        let link = parent_property.as_deref().unwrap_or(partition_key_property);
        let holder_id = text(document, link)
            .ok_or_else(|| self.data(format!("`{child}` `{id}` has no text `{link}` naming its `{holder}`")))?;
        // Every child of the holder, in id order: the embedded value is rebuilt whole.
        let mut children = self
            .children_of(child, &key, partition_key_property, link, &holder_id)
            .await?;
        children.sort_by_key(|c| text(c, "id"));
        let Some(embedded) = kept_value(&children, keep, *many).map_err(|n| {
            self.data(format!(
                "`{holder}` `{holder_id}` has {n} `{child}` documents and the new model embeds one: keep one (delete or re-parent the others), then run `cosmap migrate` again (it resumes from its lease)"
            ))
        })?
        else {
            return Ok(false);
        };
        let at = self.in_source(container, key.clone());
        for _ in 0..=CONFLICT_RETRIES {
            let Some(current) = self.read(&at, &holder_id).await? else {
                return Err(self.data(format!(
                    "`{child}` `{id}` names `{holder}` `{holder_id}`, which partition `{key}` does not hold: give it a holder (or delete it), then run again"
                )));
            };
            if current.get(property) == Some(&embedded) {
                return Ok(false);
            }
            let mut body = strip_system(&current);
            body[property.as_str()] = embedded.clone();
            let etag = text(&current, "_etag").unwrap_or_default();
            // Changed by a writer since it was read: read again and embed into that.
            match self.replace_if_match(&at, &holder_id, &body, &etag).await? {
                Outcome::Written => return Ok(true),
                Outcome::Refused => return Err(self.data(format!("`{holder}` `{holder_id}`: a unique key refuses it"))),
                Outcome::Changed => {}
            }
        }
        Err(self.data(format!(
            "`{holder}` `{holder_id}` changed {} times while this step wrote it: run `cosmap migrate` again (it resumes from its lease)",
            CONFLICT_RETRIES + 1
        )))
    }

    /// The `child` documents in partition `key` whose `link` names `holder_id`.
    async fn children_of(
        &self,
        child: &str,
        key: &str,
        partition_key_property: &str,
        link: &str,
        holder_id: &str,
    ) -> Result<Vec<Value>, MigrateError> {
        let sql = format!(
            "SELECT * FROM c WHERE {} = @key AND c.type = @child AND {} = @holder",
            sql_property("c", partition_key_property),
            sql_property("c", link)
        );
        let query = Query::from(sql)
            .with_parameter("@key", key)
            .and_then(|q| q.with_parameter("@child", child))
            .and_then(|q| q.with_parameter("@holder", holder_id))
            .map_err(|e| self.data(e.to_string()))?;
        let operation = format!("query the `{child}`s of `{holder_id}`");
        let scope = FeedScope::partition(PartitionKey::from(key.to_string()));
        let children = self
            .connection
            .query_all(&operation, &self.source, &query, &scope)
            .await?;
        Ok(children)
    }

    /// Writes the holder `document`'s embedded values (`id` in `at`) as documents of
    /// their own, and answers the holder without them (`None` when it holds none).
    pub(super) async fn split_out(
        &mut self,
        at: &Place<'_>,
        id: &str,
        document: &Value,
    ) -> Result<Option<Value>, MigrateError> {
        let Step::SplitEmbedded {
            holder,
            property,
            many,
            discriminator,
            partition_key_property,
            parent_property,
            ..
        } = self.step
        else {
            return Ok(None);
        };
        let Some(held) = document.get(property) else {
            return Ok(None);
        };
        let values: Vec<&Value> = match (held, *many) {
            (Value::Array(items), true) => items.iter().collect(),
            (Value::Null, _) => Vec::new(),
            (value, false) => vec![value],
            (other, true) => return Err(self.data(format!("`{holder}` `{id}`: `{property}` is {other}, not an array"))),
        };
        for (i, value) in values.into_iter().enumerate() {
            let Value::Object(fields) = value else {
                return Err(self.data(format!("`{holder}` `{id}`: `{property}` holds {value}, not an object")));
            };
            let new_id = if *many {
                format!("{id}-{property}-{i}")
            } else {
                format!("{id}-{property}")
            };
            let mut body = Map::new();
            body.insert("id".into(), Value::String(new_id.clone()));
            body.insert("type".into(), Value::String(discriminator.clone()));
            body.insert(partition_key_property.clone(), Value::String(at.key.to_string()));
            if let Some(parent) = parent_property {
                body.insert(parent.clone(), Value::String(id.to_string()));
            }
            for (k, v) in fields {
                body.entry(k.clone()).or_insert_with(|| v.clone());
            }
            self.write_new(at, &new_id, &Value::Object(body), timestamp(document))
                .await?;
        }
        let mut rewritten = strip_system(document);
        if let Value::Object(map) = &mut rewritten {
            map.remove(property);
        }
        Ok(Some(rewritten))
    }
}

/// The value embedded in the holder: the properties `keep` names of each of its
/// `children` (in order), as a list when `many`, else the one child's (`None` for
/// none); `Err` with their number when there are more than one.
fn kept_value(children: &[Value], keep: &[String], many: bool) -> Result<Option<Value>, usize> {
    let values: Vec<Value> = children
        .iter()
        .map(|c| {
            Value::Object(
                keep.iter()
                    .filter_map(|k| c.get(k).map(|v| (k.clone(), v.clone())))
                    .collect(),
            )
        })
        .collect();
    match (many, values.as_slice()) {
        (true, _) => Ok(Some(Value::Array(values.clone()))),
        (false, [one]) => Ok(Some(one.clone())),
        (false, []) => Ok(None),
        (false, more) => Err(more.len()),
    }
}
