//! Problems found in a model, each with the place it is at and a hint to fix it.

use std::fmt;
use std::path::PathBuf;

use crate::naming::escape_hidden;

/// One step of a [`JsonPath`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathSegment {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// A place in a JSON document, printed as `$.entities[3].name`.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JsonPath(pub Vec<PathSegment>);

impl JsonPath {
    /// The document root, `$`.
    pub fn root() -> Self {
        JsonPath(Vec::new())
    }

    /// This path followed by an object member.
    pub fn key(&self, key: impl Into<String>) -> Self {
        let mut segments = self.0.clone();
        segments.push(PathSegment::Key(key.into()));
        JsonPath(segments)
    }

    /// This path followed by an array element.
    pub fn index(&self, index: usize) -> Self {
        let mut segments = self.0.clone();
        segments.push(PathSegment::Index(index));
        JsonPath(segments)
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.0 {
            match segment {
                PathSegment::Key(k) if crate::naming::is_lower_camel(k) || crate::naming::is_upper_camel(k) => {
                    write!(f, ".{k}")?
                }
                PathSegment::Key(k) => write!(f, "[{}]", serde_json::Value::String(k.clone()))?,
                PathSegment::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// One problem in a model: where, what, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// Where in the model the problem is.
    pub path: JsonPath,
    /// 1-based line and column in the file, when the model came from text.
    pub position: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A problem at `path`.
    pub fn new(path: JsonPath, message: impl Into<String>) -> Self {
        Diagnostic {
            path,
            position: None,
            message: message.into(),
            help: None,
        }
    }

    /// Adds the fix.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// Why a model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The model is invalid; every problem found is listed.
    #[error("{}", render(origin.as_ref(), diagnostics))]
    Invalid {
        /// The file the model came from, if any.
        origin: Option<PathBuf>,
        /// Every problem found, in file order.
        diagnostics: Vec<Diagnostic>,
    },
}

impl ModelError {
    /// The problems, when the model is invalid.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            ModelError::Invalid { diagnostics, .. } => diagnostics,
            ModelError::Io { .. } => &[],
        }
    }
}

/// Every problem, cargo-style. Text from the model (names, keys, values quoted in a
/// message) is echoed with control, bidi and other hidden characters escaped.
fn render(origin: Option<&PathBuf>, diagnostics: &[Diagnostic]) -> String {
    let file = escape_hidden(&origin.map_or_else(|| "<model>".to_string(), |p| p.display().to_string()));
    let mut out = String::new();
    for d in diagnostics {
        let path = escape_hidden(&d.path.to_string());
        out.push_str(&format!("error: {}\n", escape_hidden(&d.message)));
        match d.position {
            Some((line, col)) => out.push_str(&format!("  --> {file}:{line}:{col} (at {path})\n")),
            None => out.push_str(&format!("  --> {file} (at {path})\n")),
        }
        if let Some(help) = &d.help {
            out.push_str(&format!("  = help: {}\n", escape_hidden(help)));
        }
        out.push('\n');
    }
    let n = diagnostics.len();
    out.push_str(&format!(
        "error: `{file}` is not a valid model: {n} problem{}",
        if n == 1 { "" } else { "s" }
    ));
    out
}
