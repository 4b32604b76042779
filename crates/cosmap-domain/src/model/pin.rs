use serde::{Deserialize, Serialize};

/// A choice the model pins, so the mapper's search never flips it: an optimisation of
/// one subject kept whatever it costs, or never made. Priced like any other choice;
/// `cosmap model` shows it as pinned with what it costs against the unpinned design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pin {
    /// The optimisation pinned.
    pub optimisation: PinnedOptimisation,
    /// What it is made for, as `cosmap model` names the decision: an access pattern
    /// (`copy`, `feed`, `subset`), a reference as `Holder.property` (`extendedReference`,
    /// `treeAncestors`), a count as
    /// `Parent.count` (`computedValue`), or an element (`bucket`).
    pub subject: String,
    /// Keep it or avoid it.
    pub pin: PinChoice,
}

impl Pin {
    /// Keeps `optimisation` for `subject` whatever it costs.
    pub fn keep(optimisation: PinnedOptimisation, subject: impl Into<String>) -> Self {
        Pin {
            optimisation,
            subject: subject.into(),
            pin: PinChoice::Keep,
        }
    }

    /// Never makes `optimisation` for `subject`.
    pub fn avoid(optimisation: PinnedOptimisation, subject: impl Into<String>) -> Self {
        Pin {
            optimisation,
            subject: subject.into(),
            pin: PinChoice::Avoid,
        }
    }
}

/// Whether a pinned optimisation is kept or avoided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PinChoice {
    /// Made wherever the optimisation can be made, even when it costs more.
    Keep,
    /// Never made, even when it would save.
    Avoid,
}

/// The optimisations a model can pin (the names `cosmap model` gives their decisions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PinnedOptimisation {
    /// A copy for a read (subject: the access pattern).
    Copy,
    /// A feed of the newest items (subject: the access pattern).
    Feed,
    /// Attributes stored beside a reference (subject: `Holder.reference`).
    ExtendedReference,
    /// A count kept on the parent (subject: `Parent.count`).
    ComputedValue,
    /// The newest children embedded in the parent (subject: the access pattern).
    Subset,
    /// Every ancestor stored up a tree's parent link (subject: `Element.parent`).
    TreeAncestors,
    /// Children kept in bucket documents by time window (subject: the element).
    Bucket,
}

impl PinnedOptimisation {
    /// Every pinnable optimisation, in the order the mapper weighs them.
    pub const ALL: [PinnedOptimisation; 7] = [
        PinnedOptimisation::Copy,
        PinnedOptimisation::Feed,
        PinnedOptimisation::ExtendedReference,
        PinnedOptimisation::ComputedValue,
        PinnedOptimisation::Subset,
        PinnedOptimisation::TreeAncestors,
        PinnedOptimisation::Bucket,
    ];

    /// The name in the model file and in `cosmap model`'s decisions.
    pub fn as_str(self) -> &'static str {
        match self {
            PinnedOptimisation::Copy => "copy",
            PinnedOptimisation::Feed => "feed",
            PinnedOptimisation::ExtendedReference => "extendedReference",
            PinnedOptimisation::ComputedValue => "computedValue",
            PinnedOptimisation::Subset => "subset",
            PinnedOptimisation::TreeAncestors => "treeAncestors",
            PinnedOptimisation::Bucket => "bucket",
        }
    }

    /// What its subject names.
    pub fn subject_kind(self) -> SubjectKind {
        match self {
            PinnedOptimisation::Copy | PinnedOptimisation::Feed | PinnedOptimisation::Subset => {
                SubjectKind::AccessPattern
            }
            PinnedOptimisation::ExtendedReference
            | PinnedOptimisation::TreeAncestors
            | PinnedOptimisation::ComputedValue => SubjectKind::Property,
            PinnedOptimisation::Bucket => SubjectKind::Element,
        }
    }
}

/// What a pin's subject names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubjectKind {
    /// A read access pattern, by name.
    AccessPattern,
    /// `Element.property` (a path for reference data inside value objects).
    Property,
    /// An entity, by name.
    Element,
}
