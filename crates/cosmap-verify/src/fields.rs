//! What each result of a read must hold besides its identity: the values the
//! pattern asks for, worked out from the samples and the domain model — never from
//! the SQL, nor from where the design chose to keep them.
//!
//! - `project`: each attribute named, as the result's sample holds it; and for a
//!   short form, the `id`, the `type` and every partition key level (what a short
//!   form needs to be read back, written or told apart);
//! - `returns` paths (`author.username`): the attribute of the root the result's
//!   reference names, as that root's own sample holds it; the answer must hold it
//!   beside the reference, or the operation must follow the reference (a point read,
//!   judged on its own);
//! - `counts`: the number of the counted element's samples that belong to the
//!   result; the answer must hold it (a kept count, or the list of them), or the
//!   operation must count them (a count request, judged on its own).
//!
//! The first field that differs is named, with the value expected and the value
//! returned.

use cosmap_domain::{AccessPattern, Cardinality, DomainModel};
use cosmap_mapper::{DocumentType, LogicalModel, Role};
use serde_json::Value;

use crate::samples::{belongs, Sample};

/// What the operation gives beside the main answer: the references it follows with a
/// point read, and the elements it counts with a request of their own.
#[derive(Debug, Default)]
pub(crate) struct Beside {
    /// Reference properties of the start the operation reads the targets of.
    pub followed: Vec<String>,
    /// Elements the operation counts with a count request.
    pub counted: Vec<String>,
}

/// The oracle's inputs for one read pattern.
pub(crate) struct Fields<'a> {
    pub pattern: &'a AccessPattern,
    pub domain: &'a DomainModel,
    pub logical: &'a LogicalModel,
    pub samples: &'a [Sample],
    pub beside: &'a Beside,
}

impl Fields<'_> {
    /// The first asked-for field of `doc` (returned for `sample`) that is not what
    /// the samples say, as a reason naming the field; `short` when the request
    /// selects a short form.
    pub fn first_difference(&self, sample: &Sample, doc: &Value, short: bool) -> Option<String> {
        let d = self.document_type(sample)?;
        let differs = |field: &str, expected: Option<&Value>, got: Option<&Value>| {
            (expected != got).then(|| {
                format!(
                    "`{}` holds {} for `{field}`, expected {}",
                    sample.id,
                    shown(got),
                    shown(expected)
                )
            })
        };
        if short {
            let mut fixed = vec!["id".to_string(), "type".to_string()];
            if let Some(c) = self.logical.container(&sample.container) {
                fixed.extend(c.partition_key_properties().iter().map(|l| l.to_string()));
            }
            for name in &fixed {
                if let Some(reason) = differs(name, sample.body.get(name), doc.get(name)) {
                    return Some(reason);
                }
            }
        }
        if d.source == self.pattern.start {
            for name in &self.pattern.project {
                let stored = if d.id.attribute() == Some(name.as_str()) {
                    "id"
                } else {
                    name
                };
                if let Some(reason) = differs(name, sample.body.get(stored), doc.get(stored)) {
                    return Some(reason);
                }
            }
            if let Some(reason) = self.returned_paths(sample, doc) {
                return Some(reason);
            }
            return self.counts(d, sample, doc);
        }
        None
    }

    /// `returns` paths through a reference of the start (`author.username`).
    fn returned_paths(&self, sample: &Sample, doc: &Value) -> Option<String> {
        for path in &self.pattern.returns {
            let Some((first, rest)) = path.split_once('.') else {
                continue;
            };
            let Some(relationship) = self.domain.relationship_by_property(&self.pattern.start, first) else {
                continue;
            };
            let target = &relationship.to;
            let has_attribute = self
                .domain
                .element(target)
                .is_some_and(|e| e.attributes().iter().any(|a| a.name == rest));
            if relationship.cardinality != Cardinality::One || !has_attribute {
                continue;
            }
            let Some(target_id) = sample.body.get(first).and_then(|r| r.get("id")).and_then(Value::as_str) else {
                continue;
            };
            let Some(expected) = self.root_sample(target, target_id).and_then(|t| t.body.get(rest)) else {
                continue;
            };
            match doc.get(first).and_then(|r| r.get(rest)) {
                Some(got) if got == expected => {}
                Some(got) => {
                    return Some(format!(
                        "`{}` holds {} for `{path}`, expected {} (the `{target}` `{target_id}`)",
                        sample.id,
                        got,
                        expected
                    ))
                }
                None if self.beside.followed.iter().any(|f| f == first) => {}
                None => {
                    return Some(format!(
                        "`{}` holds nothing for `{path}`, expected {expected} (the `{target}` `{target_id}`), and the read follows no `{first}`",
                        sample.id
                    ))
                }
            }
        }
        None
    }

    /// `counts`: the number of each counted element's samples that belong to the result.
    fn counts(&self, d: &DocumentType, sample: &Sample, doc: &Value) -> Option<String> {
        for element in &self.pattern.counts {
            if self.beside.counted.contains(element) {
                continue;
            }
            // A subset (the newest few) is not all of them: its length is no count.
            let list = d
                .embedded
                .iter()
                .filter(|e| e.source == *element && e.subset.is_none())
                .map(|e| &e.name)
                .chain(d.references.iter().filter(|r| r.target == *element).map(|r| &r.name))
                .next();
            let kept = d.computed.iter().find(|v| v.counts == *element);
            let expected = match (kept, list) {
                (Some(v), _) => self.counted(v, d, sample),
                (None, Some(list)) => sample.body.get(list).and_then(Value::as_array).map_or(0, Vec::len),
                (None, None) => {
                    return Some(format!(
                        "`{}` holds no count of `{element}` and the read counts none",
                        sample.id
                    ))
                }
            };
            let got = match (kept, list) {
                (Some(v), _) if doc.get(&v.name).is_some() => doc.get(&v.name).and_then(Value::as_u64),
                (_, Some(list)) => doc.get(list).and_then(Value::as_array).map(|l| l.len() as u64),
                (Some(v), None) => {
                    return Some(format!(
                        "`{}` holds nothing for `{}` (the count of `{element}`), expected {expected}",
                        sample.id, v.name
                    ))
                }
                (None, None) => None,
            };
            if got != Some(expected as u64) {
                let field = kept.map_or_else(|| list.cloned().unwrap_or_default(), |v| v.name.clone());
                let got = got.map_or_else(|| "nothing".to_string(), |n| n.to_string());
                return Some(format!(
                    "`{}` holds {got} for `{field}` (the count of `{element}`), expected {expected}",
                    sample.id
                ));
            }
        }
        None
    }

    /// How many samples of the counted document type belong to `sample`.
    fn counted(&self, v: &cosmap_mapper::ComputedValue, d: &DocumentType, sample: &Sample) -> usize {
        let Some(counted) = self
            .logical
            .container(&v.container)
            .and_then(|c| c.document_type(&v.document_type))
        else {
            return 0;
        };
        self.samples
            .iter()
            .filter(|s| belongs(counted, &v.container, &d.source, sample, s))
            .count()
    }

    /// The sample of root `element` with `id`, in its own document (not a copy).
    fn root_sample(&self, element: &str, id: &str) -> Option<&Sample> {
        self.samples.iter().find(|s| {
            s.id == id
                && self
                    .document_type(s)
                    .is_some_and(|d| d.source == element && d.role != Role::Copy)
        })
    }

    fn document_type(&self, sample: &Sample) -> Option<&DocumentType> {
        self.logical
            .container(&sample.container)
            .and_then(|c| c.document_type(&sample.document_type))
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "nothing".to_string(), Value::to_string)
}
