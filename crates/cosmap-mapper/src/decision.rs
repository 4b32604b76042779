//! The decision trace: every choice the mapper makes, the rule behind it and the
//! evidence that tipped it, so `cosmap model` can explain the logical model.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

/// The rule or optimisation that made a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Rule {
    /// One container per aggregate.
    #[serde(rename = "MR1")]
    Mr1,
    /// Partition key = identity of the aggregate root.
    #[serde(rename = "MR2")]
    Mr2,
    /// Non-root entities become document types in the root's container.
    #[serde(rename = "MR3")]
    Mr3,
    /// Value objects are embedded unless unbounded, hot or too big.
    #[serde(rename = "MR4")]
    Mr4,
    /// Small orphan aggregates share a dictionary container.
    #[serde(rename = "MR5")]
    Mr5,
    /// References to other aggregates' roots store id and partition key value.
    #[serde(rename = "MR6")]
    Mr6,
    /// Optimisation: partition an aggregate by what its heaviest reads filter on
    /// (an attribute or a reference of its root) instead of its identity.
    #[serde(rename = "partitionKey")]
    PartitionKey,
    /// Optimisation: a frequent read of the newest N across all aggregates reads a
    /// feed of their short forms, kept from the change feed, instead of fanning out.
    #[serde(rename = "feed")]
    Feed,
    /// Optimisation: copy documents into the container a hot query filters by.
    #[serde(rename = "copy")]
    Copy,
    /// Optimisation, source side of a copy: TTL on, so deletions reach the change feed.
    #[serde(rename = "copySource")]
    CopySource,
    /// Optimisation: embed never-changing reference data instead of referencing it.
    #[serde(rename = "embedReferenceData")]
    EmbedReferenceData,
    /// Optimisation: store the attributes reads take through a reference beside it,
    /// kept current from the referenced container's change feed.
    #[serde(rename = "extendedReference")]
    ExtendedReference,
    /// Optimisation: keep a count of children on the parent instead of counting them
    /// on every read.
    #[serde(rename = "computedValue")]
    ComputedValue,
    /// Optimisation: keep the newest N children embedded in their parent, each still
    /// its own document, so reading them is a point read.
    #[serde(rename = "subset")]
    Subset,
    /// Optimisation: store a parent's children written in one time window together,
    /// one bucket document per window, instead of one document each.
    #[serde(rename = "bucket")]
    Bucket,
    /// Optimisation: store every ancestor up a tree's parent link on each element
    /// (root first), so the path to the root needs no point read per level.
    #[serde(rename = "treeAncestors")]
    TreeAncestors,
    /// Which side of a one-to-many or many-to-many reference keeps the list: the one
    /// read from when its bound fits an item, else the other, with the reason.
    #[serde(rename = "referenceList")]
    ReferenceList,
    /// Physical: which `unique` attributes become Cosmos DB unique keys.
    #[serde(rename = "uniqueKey")]
    UniqueKey,
    /// Physical: uniqueness no unique key can enforce, by claim documents.
    #[serde(rename = "uniqueClaim")]
    UniqueClaim,
    /// Physical: which paths each container indexes, from the access patterns.
    #[serde(rename = "indexing")]
    Indexing,
}

impl Rule {
    /// Whether it is one of MR1–MR6 or the physical rules that finish them (unique
    /// keys and claims, reference lists): the structure, not an optimisation weighed
    /// against the workload.
    pub fn is_mapping_rule(self) -> bool {
        matches!(
            self,
            Rule::Mr1
                | Rule::Mr2
                | Rule::Mr3
                | Rule::Mr4
                | Rule::Mr5
                | Rule::Mr6
                | Rule::ReferenceList
                | Rule::UniqueKey
                | Rule::UniqueClaim
        )
    }

    /// The rule's name as printed (and in JSON): `MR1` … `MR6`, `copy`, `embedReferenceData`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Mr1 => "MR1",
            Rule::Mr2 => "MR2",
            Rule::Mr3 => "MR3",
            Rule::Mr4 => "MR4",
            Rule::Mr5 => "MR5",
            Rule::Mr6 => "MR6",
            Rule::PartitionKey => "partitionKey",
            Rule::Feed => "feed",
            Rule::Copy => "copy",
            Rule::CopySource => "copySource",
            Rule::EmbedReferenceData => "embedReferenceData",
            Rule::ExtendedReference => "extendedReference",
            Rule::ComputedValue => "computedValue",
            Rule::Subset => "subset",
            Rule::TreeAncestors => "treeAncestors",
            Rule::Bucket => "bucket",
            Rule::ReferenceList => "referenceList",
            Rule::UniqueKey => "uniqueKey",
            Rule::UniqueClaim => "uniqueClaim",
            Rule::Indexing => "indexing",
        }
    }
}

/// One decision: which rule, about what, what it decided and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// The rule that decided.
    pub rule: Rule,
    /// What it decided about (an aggregate, element, or `Document.property`).
    pub subject: String,
    /// What it decided.
    pub outcome: String,
    /// Why, in one sentence.
    pub reason: String,
    /// The figures that tipped it (cardinality, bound, rates, sizes), by name.
    pub evidence: Evidence,
}

/// The figures that tipped a decision, by name, in name order; read like a map
/// (`evidence["bound"]`, `evidence.get("bound")`, `evidence.iter()`) and written as a
/// JSON object. Kept as a sorted list: a decision holds a handful, a map's node takes
/// about 600 bytes whatever it holds, and a large model keeps tens of thousands. Its
/// names are the mapper's own words (`&'static str`: no copy of each per decision).
#[derive(Clone, Default, PartialEq)]
pub struct Evidence(Vec<(&'static str, Value)>);

impl Evidence {
    /// The figure called `name`, if recorded.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.place(name).ok().map(|i| &self.0[i].1)
    }

    /// Whether a figure called `name` is recorded.
    pub fn contains_key(&self, name: &str) -> bool {
        self.place(name).is_ok()
    }

    /// Each figure with its name, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(name, value)| (*name, value))
    }

    /// How many figures are recorded.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Records `value` as the figure called `name`, replacing one recorded before.
    fn insert(&mut self, name: &'static str, value: Value) {
        match self.place(name) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (name, value)),
        }
    }

    /// Where `name` is, or would go.
    fn place(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(n, _)| (*n).cmp(name))
    }
}

impl std::ops::Index<&str> for Evidence {
    type Output = Value;

    /// The figure called `name`; panics when none is recorded, as a map does.
    fn index(&self, name: &str) -> &Value {
        self.get(name)
            .unwrap_or_else(|| panic!("no evidence called `{name}` was recorded"))
    }
}

impl<'a> IntoIterator for &'a Evidence {
    type Item = (&'a str, &'a Value);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (&'static str, Value)>,
        fn(&'a (&'static str, Value)) -> (&'a str, &'a Value),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(name, value)| (*name, value))
    }
}

impl std::fmt::Debug for Evidence {
    /// As a map prints: `{"bound": 5, …}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Evidence {
    /// A JSON object, its keys in name order.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// Collects decisions while mapping. Each decision is shared between the copies of
/// the trace (the search keeps the trace it started from, to run again from there):
/// a copy is a list of pointers, and a decision is copied only when one of them
/// changes it.
#[derive(Debug, Default, Clone)]
pub(crate) struct Trace {
    decisions: Vec<Arc<Decision>>,
}

impl Trace {
    /// Records a decision; add evidence to the returned value.
    pub fn record(
        &mut self,
        rule: Rule,
        subject: impl Into<String>,
        outcome: impl Into<String>,
        reason: impl Into<String>,
    ) -> &mut Decision {
        // The decision before is written: it keeps no spare room while the map goes on.
        if let Some(before) = self.decisions.last_mut().and_then(Arc::get_mut) {
            before.compact();
        }
        self.decisions.push(Arc::new(Decision {
            rule,
            subject: subject.into(),
            outcome: outcome.into(),
            reason: reason.into(),
            evidence: Evidence::default(),
        }));
        self.last_mut().expect("just pushed")
    }

    /// The decision recorded last (copied first when another trace shares it).
    pub fn last_mut(&mut self) -> Option<&mut Decision> {
        self.decisions.last_mut().map(Arc::make_mut)
    }

    /// The decisions recorded so far, in order.
    pub fn decisions(&self) -> impl Iterator<Item = &Decision> {
        self.decisions.iter().map(|d| &**d)
    }

    /// Keeps the decisions `keep` says to keep, each changed as it leaves it (a
    /// decision a later weighing overturned, rewritten; copied first when another
    /// trace shares it).
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut Decision) -> bool) {
        self.decisions.retain_mut(|d| keep(Arc::make_mut(d)));
    }

    /// Keeps the decisions `keep` says to keep, unchanged.
    pub fn retain(&mut self, mut keep: impl FnMut(&Decision) -> bool) {
        self.decisions.retain(|d| keep(d));
    }

    /// Records `other`'s decisions after this trace's, in their order.
    pub fn append(&mut self, mut other: Trace) {
        self.decisions.append(&mut other.decisions);
    }

    /// The decisions grouped by rule, in the order made within each rule (a stable sort).
    pub fn finish(self) -> Vec<Decision> {
        let mut decisions: Vec<Decision> = self.decisions.into_iter().map(Arc::unwrap_or_clone).collect();
        decisions.sort_by_key(|d| d.rule);
        decisions.iter_mut().for_each(Decision::compact);
        decisions.shrink_to_fit();
        decisions
    }
}

impl Decision {
    /// Adds one piece of evidence.
    pub fn with(&mut self, name: &'static str, value: impl Into<Value>) -> &mut Self {
        self.evidence.insert(name, value.into());
        self
    }

    /// Lets go of the room its texts and evidence were grown with and no longer use
    /// (a formatted text reserves about twice its literal parts): a large model keeps
    /// tens of thousands of decisions.
    fn compact(&mut self) {
        self.subject.shrink_to_fit();
        self.outcome.shrink_to_fit();
        self.reason.shrink_to_fit();
        self.evidence.0.shrink_to_fit();
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finishing groups the decisions by rule, each rule's decisions in the order
    /// made, whether or not they came sorted.
    #[test]
    fn finish_is_a_stable_sort_by_rule() {
        let rules = [
            Rule::Indexing,
            Rule::Mr1,
            Rule::Copy,
            Rule::Mr1,
            Rule::UniqueKey,
            Rule::Indexing,
            Rule::PartitionKey,
            Rule::Mr6,
            Rule::Copy,
        ];
        let mut trace = Trace::default();
        for (i, rule) in rules.iter().enumerate() {
            trace.record(*rule, format!("s{i}"), "o", "r");
        }
        let mut expected: Vec<Decision> = trace.decisions().cloned().collect();
        expected.sort_by_key(|d| d.rule);
        let subjects: Vec<&str> = expected.iter().map(|d| d.subject.as_str()).collect();
        assert_eq!(subjects, ["s1", "s3", "s7", "s6", "s2", "s8", "s4", "s0", "s5"]);
        assert_eq!(trace.finish(), expected);
        assert!(Trace::default().finish().is_empty());
    }

    /// Evidence reads and writes as the map it replaced: in name order whatever the
    /// order recorded, a name recorded again replaced, the same JSON and debug text.
    #[test]
    fn evidence_is_a_map_in_name_order() {
        let mut trace = Trace::default();
        let d = trace.record(Rule::Mr4, "s", "o", "r");
        d.with("max", 5)
            .with("cardinality", "bounded")
            .with("bound", 1)
            .with("max", 7);
        let map: std::collections::BTreeMap<String, Value> = [
            ("bound".to_string(), Value::from(1)),
            ("cardinality".to_string(), Value::from("bounded")),
            ("max".to_string(), Value::from(7)),
        ]
        .into();
        let e = &d.evidence;
        let names = |pairs: Vec<(&str, &Value)>| pairs.into_iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
        let pairs: Vec<(String, Value)> = names(e.iter().collect());
        assert_eq!(pairs, names(map.iter().map(|(n, v)| (n.as_str(), v)).collect()));
        assert_eq!(e["max"], 7);
        assert_eq!(e.get("cardinality"), map.get("cardinality"));
        assert_eq!(e.get("min"), None);
        assert!(e.contains_key("bound") && !e.contains_key("min"));
        assert_eq!(
            (e.len(), e.is_empty(), Evidence::default().is_empty()),
            (3, false, true)
        );
        assert_eq!(serde_json::to_string(e).unwrap(), serde_json::to_string(&map).unwrap());
        assert_eq!(format!("{e:#?}"), format!("{map:#?}"));
        assert_eq!(format!("{e:?}"), format!("{map:?}"));
    }
}
