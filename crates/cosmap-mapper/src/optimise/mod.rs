//! Physical optimisations, applied after MR1–MR6 and driven by access-pattern
//! statistics: copies and embedded reference data.

pub(crate) mod copy;
pub(crate) mod embed_reference_data;
