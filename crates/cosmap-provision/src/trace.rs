//! `--verbose` traces: one line per request the crate sends, with its outcome.
//!
//! Lines are built from operation names, resource ids, statuses and timings only:
//! never from the key, request headers or SDK diagnostics.

use std::fmt;
use std::sync::Arc;

/// Receives each trace line.
type Sink = Arc<dyn Fn(&str) + Send + Sync>;

/// Where trace lines go (off by default).
#[derive(Clone, Default)]
pub struct Trace(Option<Sink>);

impl Trace {
    /// Sends every trace line to `sink`.
    pub fn to(sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        Trace(Some(Arc::new(sink)))
    }

    /// No tracing.
    pub fn off() -> Self {
        Trace(None)
    }

    /// Whether lines are wanted (so callers can skip formatting).
    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    pub(crate) fn line(&self, args: fmt::Arguments<'_>) {
        if let Some(sink) = &self.0 {
            sink(&args.to_string());
        }
    }
}

impl fmt::Debug for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_on() { "Trace(on)" } else { "Trace(off)" })
    }
}
