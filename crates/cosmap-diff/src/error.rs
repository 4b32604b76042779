//! What stops a diff.

/// Why two logical models cannot be compared.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DiffError {
    /// The two models were written to different versions of the logical model's
    /// contract (docs/logical-model.md), so their fields do not mean the same.
    #[error(
        "the logical models have different format versions ({old} and {new}); map both with the same cosmap version"
    )]
    FormatVersion {
        /// The old model's `formatVersion`.
        old: u32,
        /// The new model's `formatVersion`.
        new: u32,
    },
}
