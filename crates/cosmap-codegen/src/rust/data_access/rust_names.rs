//! What the data access reads of the Rust view ([`RustView`]): each container's
//! module, enum and key type, and each document type's keys and fields, the names
//! `cosmap_data.rs` uses for what `cosmap.rs` defines. Taken from the view a
//! container at a time, its other parts (constructors, doc comments, shared structs,
//! references) dropped as it goes: a large model's whole Rust view is not held
//! beside the data access's view (20,000 aggregates: some 280 MB of it).

use super::super::view::{ContainerView, DocView, FieldView, RustView};

/// The names the data access reads of a [`RustView`].
pub(crate) struct RustNames<'a> {
    /// [`RustView::types_module`].
    pub types_module: String,
    /// Each container's, in the view's order.
    pub containers: Vec<ContainerNames<'a>>,
}

/// The names the data access reads of a [`ContainerView`] (its fields' meanings there).
pub(crate) struct ContainerNames<'a> {
    /// [`ContainerView::module`].
    pub module: String,
    /// [`ContainerView::name`].
    pub name: &'a str,
    /// [`ContainerView::partition_key_paths`].
    pub partition_key_paths: Vec<String>,
    /// [`ContainerView::enum_name`].
    pub enum_name: String,
    /// [`ContainerView::key_type`].
    pub key_type: String,
    /// Its document types'.
    pub documents: Vec<DocNames<'a>>,
}

/// The names and fields the data access reads of a [`DocView`] (its fields' meanings there).
pub(crate) struct DocNames<'a> {
    /// [`DocView::name`].
    pub name: &'a str,
    /// [`DocView::discriminator`].
    pub discriminator: &'a str,
    /// [`DocView::partition_key_field`].
    pub partition_key_field: Option<FieldView<'a>>,
    /// [`DocView::partition_key_constant`].
    pub partition_key_constant: Option<&'a str>,
    /// [`DocView::sub_key_fields`].
    pub sub_key_fields: Vec<FieldView<'a>>,
    /// [`DocView::key_type`].
    pub key_type: String,
    /// [`DocView::fields`].
    pub fields: Vec<FieldView<'a>>,
    /// [`DocView::pk_from_id`].
    pub pk_from_id: bool,
    /// How many parameters its constructor takes ([`DocView::params`]).
    pub params: usize,
}

impl<'a> From<RustView<'a>> for RustNames<'a> {
    fn from(view: RustView<'a>) -> Self {
        RustNames {
            types_module: view.types_module,
            containers: view.containers.into_iter().map(ContainerNames::from).collect(),
        }
    }
}

impl<'a> From<ContainerView<'a>> for ContainerNames<'a> {
    fn from(c: ContainerView<'a>) -> Self {
        ContainerNames {
            module: c.module,
            name: c.name,
            documents: c.documents.into_iter().map(DocNames::from).collect(),
            partition_key_paths: c.partition_key_paths,
            enum_name: c.enum_name,
            key_type: c.key_type,
        }
    }
}

impl<'a> From<DocView<'a>> for DocNames<'a> {
    fn from(d: DocView<'a>) -> Self {
        DocNames {
            name: d.name,
            discriminator: d.discriminator,
            partition_key_field: d.partition_key_field,
            partition_key_constant: d.partition_key_constant,
            sub_key_fields: d.sub_key_fields,
            key_type: d.key_type,
            fields: d.fields,
            pk_from_id: d.pk_from_id,
            params: d.params.len(),
        }
    }
}
