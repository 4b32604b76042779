//! Every artefact of a logical model, as (relative path, contents) pairs in path order.

use std::path::{Path, PathBuf};

use cosmap_mapper::{Container, ContainerDefinition, DocumentType, LogicalModel};
use serde::Serialize;

use crate::error::CodegenError;
use crate::options::TypeMapping;
use crate::templates::Templates;

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artefact {
    /// Path relative to the output directory.
    pub path: PathBuf,
    /// The file's contents.
    pub contents: String,
}

/// Name of the generated Rust file.
pub const RUST_FILE: &str = "cosmap.rs";

/// Name of the generated data access file ([`TypeMapping::data_access`]).
pub const DATA_ACCESS_FILE: &str = "cosmap_data.rs";

/// Renders every artefact: `cosmap.rs`, `containers.json`, `containers.bicep`,
/// `model.mmd` and `schemas/<container>/<documentType>.schema.json`; with
/// [`TypeMapping::data_access`], `cosmap_data.rs` too. All held at once, in path
/// order: [`generate_each`] hands each on as it is rendered instead.
pub fn generate(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
) -> Result<Vec<Artefact>, CodegenError> {
    let mut artefacts = Vec::new();
    generate_each(model, mapping, templates, |a| {
        artefacts.push(a);
        Ok(())
    })?;
    Ok(sorted_by_path(artefacts, |a| &a.path))
}

/// Renders every artefact of [`generate`] and hands each to `each` as soon as it is
/// rendered, not in path order (the data access first, then `cosmap.rs`, then the
/// others): [`generate_to`] with each artefact's text collected whole.
pub fn generate_each(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
    each: impl FnMut(Artefact) -> Result<(), CodegenError>,
) -> Result<(), CodegenError> {
    generate_to(model, mapping, templates, &mut Each(each))
}

/// The text of one artefact, written a piece at a time ([`Sink::put_pieces`]).
pub trait Pieces {
    /// Appends `text` to the artefact.
    fn push(&mut self, text: &str) -> Result<(), CodegenError>;
    /// Forgets what was appended: the artefact is written again from its start.
    fn restart(&mut self) -> Result<(), CodegenError>;
}

impl Pieces for String {
    fn push(&mut self, text: &str) -> Result<(), CodegenError> {
        self.push_str(text);
        Ok(())
    }

    fn restart(&mut self) -> Result<(), CodegenError> {
        self.clear();
        Ok(())
    }
}

/// Where [`generate_to`] hands each artefact as it is rendered.
pub trait Sink {
    /// Takes a whole artefact.
    fn put(&mut self, artefact: Artefact) -> Result<(), CodegenError>;

    /// Takes the artefact at `path`, whose text `write` writes a piece at a time (the
    /// large ones: the data access, `cosmap.rs`). An error of `write` is returned as
    /// it is, and nothing of the artefact kept. By default the pieces are collected
    /// and the artefact [`put`](Self::put) whole.
    fn put_pieces(
        &mut self,
        path: &Path,
        write: &mut dyn FnMut(&mut dyn Pieces) -> Result<(), CodegenError>,
    ) -> Result<(), CodegenError> {
        let mut text = String::new();
        write(&mut text)?;
        self.put(Artefact {
            path: path.to_path_buf(),
            contents: text,
        })
    }
}

/// A closure taking whole artefacts as a [`Sink`] ([`generate_each`]).
struct Each<F>(F);

impl<F: FnMut(Artefact) -> Result<(), CodegenError>> Sink for Each<F> {
    fn put(&mut self, artefact: Artefact) -> Result<(), CodegenError> {
        (self.0)(artefact)
    }
}

/// Renders every artefact of [`generate`] and hands each to `sink` as soon as it is
/// rendered, not in path order (the data access first, then `cosmap.rs`, then the
/// others), the data access and `cosmap.rs` a piece at a time as they are printed,
/// so that a sink writing them ([`OutputDir`](crate::OutputDir)) holds none of them
/// whole: the artefacts of 20,000 aggregates are 1.1 GB. The errors are
/// [`generate`]'s, whichever comes first in this order: the Rust file's, the
/// others' (the first), the data access's, then the paths' (`check_paths`), after
/// every artefact was handed on; an error of `sink` ends the run at once.
pub fn generate_to(
    model: &LogicalModel,
    mapping: &TypeMapping,
    templates: &Templates,
    sink: &mut dyn Sink,
) -> Result<(), CodegenError> {
    let mut paths = Vec::new();
    // The data access first, while no other artefact is held: its render needs the
    // most memory. Without feature `data-access`, a typed error naming it; reported
    // after the others' errors.
    let mut data_error = None;
    if mapping.data_access {
        let written = put_pieces(sink, DATA_ACCESS_FILE, |out| {
            crate::rust::write_data_access(model, mapping, templates, out)
        })?;
        match written {
            Ok(()) => paths.push(PathBuf::from(DATA_ACCESS_FILE)),
            Err(e) => data_error = Some(e),
        }
    }
    put_pieces(sink, RUST_FILE, |out| {
        crate::rust::write_rust(model, mapping, templates, out)
    })??;
    paths.push(PathBuf::from(RUST_FILE));
    others(model, templates, &mut |a: Artefact| {
        paths.push(a.path.clone());
        sink.put(a)
    })?;
    if let Some(e) = data_error {
        return Err(e);
    }
    check_paths(&sorted_by_path(paths, |p| p))
}

/// Hands the artefact at `path` to `sink` a piece at a time as `write` writes it,
/// ending with a line break as [`artefact`] ends every artefact: `Err` an error of
/// the sink's, `Ok(Err)` one of `write`'s (nothing of the artefact kept).
fn put_pieces(
    sink: &mut dyn Sink,
    path: &str,
    mut write: impl FnMut(&mut dyn Pieces) -> Result<(), CodegenError>,
) -> Result<Result<(), CodegenError>, CodegenError> {
    let mut rendering_failed = false;
    let put = sink.put_pieces(Path::new(path), &mut |out| {
        let mut ended = Ended {
            out,
            line_break: false,
            failed: false,
        };
        let written = write(&mut ended).and_then(|()| match ended.line_break {
            true => Ok(()),
            false => ended.push("\n"),
        });
        rendering_failed = written.is_err() && !ended.failed;
        written
    });
    match put {
        Err(e) if rendering_failed => Ok(Err(e)),
        put => put.map(Ok),
    }
}

/// The pieces of an artefact, remembering whether the text so far ends with a line
/// break and whether the sink failed.
struct Ended<'p> {
    out: &'p mut dyn Pieces,
    line_break: bool,
    failed: bool,
}

impl Pieces for Ended<'_> {
    fn push(&mut self, text: &str) -> Result<(), CodegenError> {
        if !text.is_empty() {
            self.line_break = text.ends_with('\n');
        }
        self.out.push(text).inspect_err(|_| self.failed = true)
    }

    fn restart(&mut self) -> Result<(), CodegenError> {
        self.line_break = false;
        self.out.restart().inspect_err(|_| self.failed = true)
    }
}

/// `items` in the `Path` order of their paths (by components), stable.
pub(crate) fn sorted_by_path<T>(mut items: Vec<T>, path: impl Fn(&T) -> &Path) -> Vec<T> {
    items.sort_by(|a, b| path(a).cmp(path(b)));
    items
}

/// Longest file or directory name written (`NAME_MAX` on Linux and macOS, and the
/// limit of NTFS), in bytes.
pub const MAX_FILE_NAME_BYTES: usize = 255;

/// Refuses artefact paths that would overwrite each other on a case-insensitive file
/// system (Windows, macOS) or that a file system cannot hold (a name over
/// [`MAX_FILE_NAME_BYTES`]); validation keeps models from getting here, this
/// keeps a logical model built another way from writing half its files.
fn check_paths(paths: &[PathBuf]) -> Result<(), CodegenError> {
    // Only looked up: the first clash in path order is reported whatever the hashing
    // (so a fast hasher for short names).
    let mut folded: cosmap_domain::NameMap<String, &Path> =
        cosmap_domain::NameMap::with_capacity_and_hasher(paths.len(), Default::default());
    for path_buf in paths {
        if let Some(long) = path_buf.iter().find(|n| n.len() > MAX_FILE_NAME_BYTES) {
            return Err(CodegenError::FileNames(format!(
                "the file name `{}` is {} bytes long; file systems allow at most {MAX_FILE_NAME_BYTES}: shorten the names in the model",
                long.to_string_lossy(),
                long.len()
            )));
        }
        let path = path_buf.to_string_lossy();
        // An ASCII path (almost every one) folds byte by byte, to the same text.
        let key = if path.is_ascii() {
            path.to_ascii_lowercase()
        } else {
            path.to_lowercase()
        };
        if let Some(other) = folded.insert(key, path_buf) {
            return Err(CodegenError::FileNames(format!(
                "the files `{}` and `{}` differ only by case and would overwrite each other on a case-insensitive file system: rename one of the elements",
                other.display(),
                path_buf.display()
            )));
        }
    }
    Ok(())
}

/// Every artefact but the Rust file and the data access, each handed to `give` as it
/// is rendered; the first error returned.
fn others(
    model: &LogicalModel,
    templates: &Templates,
    give: &mut dyn FnMut(Artefact) -> Result<(), CodegenError>,
) -> Result<(), CodegenError> {
    let text = templates.render_or_emit(CONTAINERS_JSON, &containers_view(model), containers_text)?;
    give(artefact("containers.json", text))?;
    let text = templates.render_or_emit(BICEP, &crate::bicep::view(model), |v| Ok(crate::bicep::text(v)))?;
    give(artefact("containers.bicep", text))?;
    give(artefact("model.mmd", mermaid(model, templates)?))?;
    let overridden = templates.is_overridden(SCHEMA);
    for (c, d) in schemas_in_path_order(model) {
        let text = if overridden {
            templates.render(SCHEMA, &SchemaView::of(c, d))?
        } else {
            schema_text(c, d)
        };
        give(artefact(schema_path(c, d), text))?;
    }
    Ok(())
}

/// Every document type of `model` with its container, in the order of their schemas'
/// paths (almost always: names the paths' components split otherwise): so that
/// [`sorted_by_path`] finds the schemas sorted already, one run, instead of
/// comparing paths some 70,000 times on a large model.
fn schemas_in_path_order(model: &LogicalModel) -> Vec<(&Container, &DocumentType)> {
    let mut containers: Vec<&Container> = model.containers.iter().collect();
    containers.sort_by(|a, b| a.name.cmp(&b.name));
    let mut schemas = Vec::with_capacity(containers.iter().map(|c| c.document_types.len()).sum());
    for c in containers {
        let start = schemas.len();
        schemas.extend(c.document_types.iter().map(|d| (c, d)));
        // `X.schema.json` before `X2.schema.json`, as the file names sort.
        schemas[start..].sort_by(|(_, a), (_, b)| {
            a.name
                .bytes()
                .chain(SCHEMA_SUFFIX.bytes())
                .cmp(b.name.bytes().chain(SCHEMA_SUFFIX.bytes()))
        });
    }
    schemas
}

/// What a schema's file name adds to its document type's name.
const SCHEMA_SUFFIX: &str = ".schema.json";

/// Where the JSON Schema of document type `d` of container `c` is written.
fn schema_path(c: &Container, d: &DocumentType) -> String {
    ["schemas/", &c.name, "/", &d.name, SCHEMA_SUFFIX].concat()
}

/// The Mermaid diagram alone (`cosmap model --format mermaid`).
pub fn mermaid(model: &LogicalModel, templates: &Templates) -> Result<String, CodegenError> {
    templates.render_or_emit(MERMAID, &crate::mermaid::view(model), |v| Ok(crate::mermaid::text(v)))
}

/// The overrides of the small text artefacts (`templates::OVERRIDES`).
const CONTAINERS_JSON: &str = "containers.json.hbs";
const BICEP: &str = "containers.bicep.hbs";
const SCHEMA: &str = "document.schema.json.hbs";
const MERMAID: &str = "model.mmd.hbs";

/// What an override `containers.json.hbs` renders from (`containers.json`'s view).
#[derive(Serialize)]
struct ContainersView {
    /// Every container's definition, as Cosmos DB takes it.
    containers: Vec<ContainerDefinition>,
}

fn containers_view(model: &LogicalModel) -> ContainersView {
    ContainersView {
        containers: model.container_definitions(),
    }
}

/// The text of `containers.json`: the definitions as pretty JSON (what an
/// override's `{{json containers}}` writes), and a line break.
fn containers_text(view: &ContainersView) -> Result<String, CodegenError> {
    let mut text = serde_json::to_string_pretty(&view.containers).map_err(|e| CodegenError::Template {
        template: "containers.json".to_string(),
        message: e.to_string(),
    })?;
    text.push('\n');
    Ok(text)
}

/// What an override `document.schema.json.hbs` renders from (a schema file's view).
#[derive(Serialize)]
struct SchemaView {
    /// The document type's JSON Schema.
    schema: serde_json::Value,
}

impl SchemaView {
    /// The view of document type `d` of container `c`.
    fn of(c: &cosmap_mapper::Container, d: &cosmap_mapper::DocumentType) -> Self {
        SchemaView {
            schema: crate::schema::document(c, d),
        }
    }
}

/// The text of the JSON Schema of document type `d` of container `c`: pretty JSON (as
/// `serde_json` prints it) and a line break, held at its size (a large model has
/// thousands).
fn schema_text(c: &Container, d: &DocumentType) -> String {
    // A `serde_json::Value` always prints: its map keys are strings.
    let mut text = serde_json::to_string_pretty(&crate::schema::document(c, d)).unwrap_or_default();
    text.push('\n');
    text.shrink_to_fit();
    text
}

/// An artefact at `path` (taken as it is when a `String`), its contents ending
/// with a line break.
fn artefact(path: impl Into<PathBuf>, contents: String) -> Artefact {
    let contents = if contents.ends_with('\n') {
        contents
    } else {
        contents + "\n"
    };
    Artefact {
        path: path.into(),
        contents,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Artefacts sort in `Path` order, stable for equal paths.
    #[test]
    fn artefacts_sort_in_path_order() {
        let paths = [
            "schemas/a-b/X.schema.json",
            "schemas/a/b.schema.json",
            "schemas/a/X.schema.json",
            "containers.json",
            "schemas/a.b/c.schema.json",
            "cosmap_data.rs",
            "cosmap.rs",
            "schemas/a/X.schema.json",
            "model.mmd",
            "schemas/A/x.schema.json",
        ];
        let files: Vec<Artefact> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| artefact(p, i.to_string()))
            .collect();
        let sorted: Vec<(String, String)> = sorted_by_path(files, |a| &a.path)
            .into_iter()
            .map(|a| (a.path.display().to_string(), a.contents))
            .collect();
        // By components (`a` before `a-b`), equal paths in the order given.
        let expected = [
            ("containers.json", "3"),
            ("cosmap.rs", "6"),
            ("cosmap_data.rs", "5"),
            ("model.mmd", "8"),
            ("schemas/A/x.schema.json", "9"),
            ("schemas/a/X.schema.json", "2"),
            ("schemas/a/X.schema.json", "7"),
            ("schemas/a/b.schema.json", "1"),
            ("schemas/a-b/X.schema.json", "0"),
            ("schemas/a.b/c.schema.json", "4"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(p, i)| (p.to_string(), format!("{i}\n")))
            .collect();
        assert_eq!(sorted, expected);
    }

    /// `generate` gives the Rust file as `rust::render` makes it, and the view's
    /// error as its own.
    #[test]
    fn generate_gives_the_rust_file_and_its_error_as_render_does() {
        let templates = Templates::load(None).expect("built-in templates");
        let model = crate::test_models::meter("integer", serde_json::json!(3));
        let mapping = TypeMapping::default();
        let artefacts = generate(&model, &mapping, &templates).expect("generated");
        let rust = artefacts
            .iter()
            .find(|a| a.path == Path::new(RUST_FILE))
            .expect("cosmap.rs");
        let alone = crate::rust::render(&model, &mapping, &templates).expect("rendered");
        assert_eq!(rust.contents, artefact(RUST_FILE, alone).contents);
        let refused = crate::test_models::meter("dateTime", serde_json::json!("2024-01-01T00:00:00Z"));
        let mapping = TypeMapping {
            date_time: "crate::MyTime".to_string(),
            ..TypeMapping::default()
        };
        let err = generate(&refused, &mapping, &templates).expect_err("refused");
        assert!(
            matches!(&err, CodegenError::Model(m) if m.contains("`Meter.at` has a model `default`")),
            "{err}"
        );
    }

    /// What `generate_each` hands on, one at a time, is what `generate` returns: the
    /// data access first, then `cosmap.rs`, the others in path order.
    #[test]
    fn each_artefact_is_handed_on_once_as_generate_returns_it() {
        let templates = Templates::load(None).expect("built-in templates");
        let model = crate::test_models::meter("integer", serde_json::json!(3));
        let mapping = TypeMapping {
            data_access: true,
            ..TypeMapping::default()
        };
        let mut handed = Vec::new();
        generate_each(&model, &mapping, &templates, |a| {
            handed.push(a);
            Ok(())
        })
        .expect("generated");
        let first: Vec<&Path> = handed.iter().take(3).map(|a| a.path.as_path()).collect();
        assert_eq!(first, [DATA_ACCESS_FILE, RUST_FILE, "containers.json"].map(Path::new));
        let all = generate(&model, &mapping, &templates).expect("generated");
        assert_eq!(sorted_by_path(handed, |a| &a.path), all);
        let stopped = generate_each(&model, &mapping, &templates, |a| {
            Err(CodegenError::FileNames(a.path.display().to_string()))
        });
        assert!(matches!(stopped, Err(CodegenError::FileNames(p)) if p == DATA_ACCESS_FILE));
    }

    #[test]
    fn paths_that_meet_on_a_case_insensitive_file_system_are_refused() {
        let files = [
            PathBuf::from("schemas/Order/OrderID.schema.json"),
            PathBuf::from("schemas/Order/OrderId.schema.json"),
        ];
        let err = check_paths(&files).unwrap_err().to_string();
        assert!(err.contains("differ only by case"), "{err}");
        assert!(check_paths(&files[..1]).is_ok());
    }

    #[test]
    fn a_file_name_over_name_max_is_refused() {
        let long = format!("schemas/Order/{}.schema.json", "X".repeat(250));
        let err = check_paths(&[PathBuf::from(long)]).unwrap_err().to_string();
        assert!(err.contains("262 bytes long"), "{err}");
    }
}
