//! Why code generation failed.

use std::path::PathBuf;

/// A code generation failure.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    /// A file or directory could not be read or written.
    #[error("cannot access `{}`: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A template failed to compile or render.
    #[error("template `{template}`: {message}")]
    Template {
        /// The template (embedded name or override path).
        template: String,
        /// What went wrong.
        message: String,
    },
    /// A template rendered Rust that does not parse.
    #[error("template `{template}` produced invalid Rust at generated line {line}, column {column}: {message}\n  {line} | {code}\n  = help: fix the template; the generated line is shown above")]
    InvalidRust {
        /// The template.
        template: String,
        /// 1-based line in the generated text.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
        /// The generated line.
        code: String,
    },
    /// A file in the template directory is not one of cosmap's templates.
    #[error("`{}` is not one of cosmap's templates (they are: {known})", path.display())]
    UnknownTemplate {
        /// The file.
        path: PathBuf,
        /// The known template names.
        known: String,
    },
    /// The logical model cannot be expressed as Rust types.
    #[error("cannot generate Rust types: {0}")]
    Model(String),
    /// Asked for something only a cargo feature of cosmap-codegen provides (template
    /// overrides, the data access), with the feature off.
    #[error("{what}: this needs cosmap-codegen's cargo feature `{feature}`, which is off; turn it on where cosmap-codegen is a dependency (`cosmap-codegen = {{ version = \"…\", features = [\"{feature}\"] }}`)")]
    FeatureOff {
        /// What was asked for.
        what: &'static str,
        /// The feature that provides it.
        feature: &'static str,
    },
    /// The generated files' names cannot all be written side by side.
    #[error("cannot write the generated files: {0}")]
    FileNames(String),
}
