//! [`Builder`]: build-time code generation from a `build.rs`, the way
//! `prost-build` does it — generated Rust goes to `OUT_DIR`.

use std::fmt;
use std::path::{Path, PathBuf};

use cosmap_domain::{DomainModel, ModelError};

use crate::artefacts::{Artefact, DATA_ACCESS_FILE, RUST_FILE};
use crate::error::CodegenError;
use crate::options::{TypeMapping, TypeMappingError};
use crate::templates::Templates;

/// Generates Rust document types for a model from a build script.
///
/// ```no_run
/// // build.rs
/// fn main() -> Result<(), cosmap_codegen::BuildError> {
///     cosmap_codegen::Builder::new().model("model.json").compile()
/// }
/// // in the crate: include!(concat!(env!("OUT_DIR"), "/cosmap.rs"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Builder {
    model: Option<PathBuf>,
    templates: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    file_name: Option<String>,
    mapping: TypeMapping,
    options: cosmap_mapper::Options,
    /// The first mapping [`Builder::map_type`] refused, reported by `compile`.
    mapping_error: Option<TypeMappingError>,
}

/// Why build-time generation failed; its `Debug` is its `Display`, so a build
/// script returning it prints `model.json:LINE:COL: message (hint)` lines.
pub struct BuildError(BuildErrorKind);

enum BuildErrorKind {
    Setup(String),
    Model(ModelError),
    Codegen(CodegenError),
}

impl Builder {
    /// A builder with the default type mapping.
    pub fn new() -> Self {
        Builder::default()
    }

    /// The model file (relative paths are relative to the package, where cargo runs build scripts).
    pub fn model(mut self, path: impl AsRef<Path>) -> Self {
        self.model = Some(path.as_ref().to_path_buf());
        self
    }

    /// A directory of template overrides (files named like cosmap's templates).
    /// Needs feature `templates`: without it, `compile` fails with
    /// [`CodegenError::FeatureOff`].
    pub fn templates(mut self, dir: impl AsRef<Path>) -> Self {
        self.templates = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Where to write `cosmap.rs`; defaults to cargo's `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Name of the generated file in the output directory (default `cosmap.rs`), for
    /// crates that generate from more than one model.
    pub fn file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// Rust type for `dateTime` attributes, e.g. `::chrono::DateTime<::chrono::Utc>`.
    pub fn date_time_type(mut self, ty: impl Into<String>) -> Self {
        self.mapping.date_time = ty.into();
        self
    }

    /// Rust type for `date` attributes, e.g. `::chrono::NaiveDate`.
    pub fn date_type(mut self, ty: impl Into<String>) -> Self {
        self.mapping.date = ty.into();
        self
    }

    /// Rust type for `decimal` attributes, e.g. `::rust_decimal::Decimal`.
    pub fn decimal_type(mut self, ty: impl Into<String>) -> Self {
        self.mapping.decimal = ty.into();
        self
    }

    /// Rust type for `uuid` attributes, e.g. `::uuid::Uuid`.
    pub fn uuid_type(mut self, ty: impl Into<String>) -> Self {
        self.mapping.uuid = ty.into();
        self
    }

    /// Maps attribute type `kind` (`dateTime`, `date`, `decimal`, `uuid`) to the type
    /// of crate `krate`, as `cosmap generate --type KIND=CRATE` does: `dateTime` to
    /// `chrono` or `time`, `date` to `chrono` or `time`, `uuid` to `uuid`, `decimal`
    /// to `rust_decimal` (`string` for the default). The generated code writes each
    /// in one canonical text form (date-times `YYYY-MM-DDThh:mm:ss.fffffffZ`), so
    /// strings sort as the values do; the crate must depend on the mapped crate.
    /// An unknown mapping fails [`compile`](Self::compile).
    pub fn map_type(mut self, kind: &str, krate: &str) -> Self {
        if let Err(e) = self.mapping.map(kind, krate) {
            self.mapping_error.get_or_insert(e);
        }
        self
    }

    /// Puts `attribute` (a line of Rust, e.g. `#[derive(Hash, Eq)]`) on the generated
    /// structs `matcher` selects: `.` every struct, `Name` the document types and shared
    /// structs (value objects, snapshots) of that Rust name, `Container.DocumentType`
    /// one document type. Like prost-build's `type_attribute`.
    pub fn type_attribute(mut self, matcher: impl Into<String>, attribute: impl Into<String>) -> Self {
        self.mapping.type_attributes.push((matcher.into(), attribute.into()));
        self
    }

    /// Puts `attribute` on the generated fields `matcher` selects: `.` every field,
    /// `Type.jsonName` a field of a struct or document type, `Container.DocumentType.jsonName`
    /// a field of one document type. Like prost-build's `field_attribute`.
    pub fn field_attribute(mut self, matcher: impl Into<String>, attribute: impl Into<String>) -> Self {
        self.mapping.field_attributes.push((matcher.into(), attribute.into()));
        self
    }

    /// Uses the crate's own type `rust_path` (e.g. `crate::money::Money`) wherever the
    /// generated shared struct `name` (a value object or snapshot, e.g. `Money`) would
    /// be used, and does not generate that struct. The type must serialise as the
    /// struct would. Like prost-build's `extern_path`.
    pub fn extern_path(mut self, name: impl Into<String>, rust_path: impl Into<String>) -> Self {
        self.mapping.extern_paths.push((name.into(), rust_path.into()));
        self
    }

    /// Also derive `schemars::JsonSchema` on the generated types.
    pub fn json_schema(mut self, on: bool) -> Self {
        self.mapping.json_schema = on;
        self
    }

    /// Also generate `cosmap_data.rs` beside `cosmap.rs` (`NAME_data.rs` beside a
    /// [`file_name`](Self::file_name) `NAME.rs`): data access on
    /// `azure_data_cosmos` (container handles, aggregate repositories, a method per
    /// access pattern, change-feed workers for copies). Include both files in one
    /// module; the crate then depends on `azure_data_cosmos`, `futures` and `serde_json`.
    /// Needs feature `data-access`: without it, `compile` fails with
    /// [`CodegenError::FeatureOff`].
    pub fn data_access(mut self, on: bool) -> Self {
        self.mapping.data_access = on;
        self
    }

    /// Generates `cosmap.rs` into the output directory, writing it only when its
    /// content changed, and tells cargo to rerun when the model or templates change.
    pub fn compile(self) -> Result<(), BuildError> {
        let model_path = self.model_path()?;
        let model = cosmap_domain::load_file(model_path).map_err(|e| BuildError(BuildErrorKind::Model(e)))?;
        println!("cargo:rerun-if-changed={}", model_path.display());
        self.write(&model)
    }

    /// Generates `cosmap.rs` from a model built in Rust (with
    /// [`cosmap_domain::ModelBuilder`]) instead of a file, like prost-build's
    /// `compile_fds`: written only when its content changed; cargo is told to rerun
    /// when the templates change (the build script itself reruns when it changes).
    pub fn compile_model(self, model: &DomainModel) -> Result<(), BuildError> {
        self.write(model)
    }

    /// The Rust [`compile_model`](Self::compile_model) would write, without writing it.
    pub fn render_model(&self, model: &DomainModel) -> Result<String, BuildError> {
        let logical = cosmap_mapper::map(model, &self.options);
        let codegen = |e| BuildError(BuildErrorKind::Codegen(e));
        let templates = Templates::load(self.templates.as_deref()).map_err(codegen)?;
        crate::rust::render(&logical, &self.mapping, &templates).map_err(codegen)
    }

    /// The `cosmap_data.rs` that [`compile_model`](Self::compile_model) would write
    /// with [`data_access`](Self::data_access) on, without writing it.
    pub fn render_data_access(&self, model: &DomainModel) -> Result<String, BuildError> {
        let logical = cosmap_mapper::map(model, &self.options);
        let codegen = |e| BuildError(BuildErrorKind::Codegen(e));
        let templates = Templates::load(self.templates.as_deref()).map_err(codegen)?;
        crate::rust::render_data_access(&logical, &self.mapping, &templates).map_err(codegen)
    }

    /// The mapper's options (thresholds, index-all, …); `Options::default()` otherwise.
    pub fn mapper_options(mut self, options: cosmap_mapper::Options) -> Self {
        self.options = options;
        self
    }

    fn write(&self, model: &DomainModel) -> Result<(), BuildError> {
        let out_dir = match self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
        {
            Some(dir) => dir,
            None => {
                return Err(BuildError(BuildErrorKind::Setup(
                    "OUT_DIR is not set: run from a build script, or call `.out_dir(…)`".into(),
                )))
            }
        };
        if let Some(dir) = &self.templates {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        let mut artefacts = vec![Artefact {
            path: PathBuf::from(self.file_name.as_deref().unwrap_or(RUST_FILE)),
            contents: self.render_model(model)?,
        }];
        if self.mapping.data_access {
            // Beside `cosmap.rs`: `cosmap_data.rs`; beside `model.rs`: `model_data.rs`.
            let data_file = match self.file_name.as_deref() {
                Some(name) => format!("{}_data.rs", name.strip_suffix(".rs").unwrap_or(name)),
                None => DATA_ACCESS_FILE.to_string(),
            };
            artefacts.push(Artefact {
                path: PathBuf::from(data_file),
                contents: self.render_data_access(model)?,
            });
        }
        crate::write::write_all(&out_dir, &artefacts).map_err(|e| BuildError(BuildErrorKind::Codegen(e)))?;
        Ok(())
    }

    /// The Rust that [`compile`](Self::compile) would write, without writing it or
    /// printing cargo directives: for tests of generated code, and for measuring
    /// the build step (`cargo bench -p cosmap-codegen --bench build_step`).
    pub fn render(&self) -> Result<String, BuildError> {
        let model = cosmap_domain::load_file(self.model_path()?).map_err(|e| BuildError(BuildErrorKind::Model(e)))?;
        self.render_model(&model)
    }

    fn model_path(&self) -> Result<&Path, BuildError> {
        self.model.as_deref().ok_or_else(|| {
            BuildError(BuildErrorKind::Setup(
                "no model file: call `.model(\"model.json\")`".into(),
            ))
        })
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            BuildErrorKind::Setup(message) => write!(f, "cosmap: {message}"),
            BuildErrorKind::Codegen(e) => write!(f, "cosmap: {e}"),
            BuildErrorKind::Model(ModelError::Io { path, source }) => {
                write!(f, "{}: cannot read the model: {source}", path.display())
            }
            BuildErrorKind::Model(ModelError::Invalid { origin, diagnostics }) => {
                let file = origin
                    .as_ref()
                    .map_or_else(|| "<model>".to_string(), |p| p.display().to_string());
                for (i, d) in diagnostics.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    let (line, col) = d.position.unwrap_or((1, 1));
                    write!(f, "{file}:{line}:{col}: {}", d.message)?;
                    if let Some(help) = &d.help {
                        write!(f, " ({help})")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for BuildError {}
