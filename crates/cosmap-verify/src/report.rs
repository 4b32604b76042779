//! The verification report: per access pattern, each request it sent, what came
//! back and what was expected; as a table (text) or as JSON (`docs/verify.md`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cosmap_mapper::operations::{OperationKind, WriteKind};
use serde::Serialize;
use serde_json::Value;

/// Version of the JSON report; bumped on incompatible changes.
pub const REPORT_FORMAT_VERSION: u32 = 1;

/// What a verification found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Version of this JSON contract.
    pub format_version: u32,
    /// The model's name.
    pub model: String,
    /// Where it ran.
    pub engine: EngineInfo,
    /// The sample documents written.
    pub samples: SampleSummary,
    /// Every access pattern, by name.
    pub patterns: Vec<PatternOutcome>,
    /// Counts.
    pub summary: Summary,
}

/// Where a verification ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineInfo {
    /// `inMemory` (the SDK's engine, inside the process) or `endpoint`.
    pub kind: EngineKind,
    /// The account endpoint (for `endpoint`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// The database verify created and wrote into (left in place on an endpoint).
    pub database: String,
}

/// The kind of engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EngineKind {
    /// The SDK's in-memory Cosmos DB engine.
    InMemory,
    /// A Cosmos DB account or emulator.
    Endpoint,
}

/// How many sample documents went where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampleSummary {
    /// All of them.
    pub documents: usize,
    /// Per container.
    pub containers: BTreeMap<String, usize>,
    /// They were stored by someone else (a rehearsed migration, [`crate::verify_stored`]),
    /// not written by verify.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stored: bool,
}

/// Pattern counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Access patterns checked.
    pub patterns: usize,
    /// Those whose every request passed.
    pub passed: usize,
    /// The others.
    pub failed: usize,
}

/// One access pattern.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatternOutcome {
    /// The access pattern's name.
    pub pattern: String,
    /// How it runs (its operation's kind), when the logical model has an operation for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<OperationKind>,
    /// Whether every request passed.
    pub passed: bool,
    /// Why nothing could be run, when so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Each request sent, the main one first.
    pub requests: Vec<RequestOutcome>,
}

/// The result of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// The answer is what the samples say it should be.
    Pass,
    /// The server answered, but not with what was expected (or it could not be checked).
    Fail,
    /// The server (or the SDK) refused or failed the request.
    Error,
}

/// One request: what was sent, what came back, what was expected.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestOutcome {
    /// How it runs.
    pub kind: OperationKind,
    /// For writes: create, replace or delete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<WriteKind>,
    /// The container.
    pub container: String,
    /// The document types it reads or writes.
    pub document_types: Vec<String>,
    /// Whether it reads or writes an optimisation copy.
    pub copy: bool,
    /// Not a request of the operation: a check verify adds after a write — a point read
    /// of a copy the operation does not write itself, or a second claim of a unique value
    /// another document holds, which must be refused.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub added: bool,
    /// For an added check, the question it answers: `copy in sync?`, `duplicate
    /// refused?`, `count kept?`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// The SQL sent, for queries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    /// The parameter values sent (`@accountId` → `"account-1"`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, Value>,
    /// The partition key value sent (none for a cross-partition query).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_key: Option<String>,
    /// The item id sent (point reads and writes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The ids returned, in the order received (for a write: what the point read
    /// after it found); none when the request failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned: Option<Vec<String>>,
    /// The ids expected (in order when `ordered`).
    pub expected: Vec<String>,
    /// Whether the order was checked.
    pub ordered: bool,
    /// Pass, fail or error.
    pub verdict: Verdict,
    /// Why it failed, or the server's answer when it errored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Report {
    /// Whether every access pattern passed.
    pub fn passed(&self) -> bool {
        self.summary.failed == 0
    }

    /// The pattern called `name`.
    pub fn pattern(&self, name: &str) -> Option<&PatternOutcome> {
        self.patterns.iter().find(|p| p.pattern == name)
    }

    /// The report as JSON (`docs/verify.md`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The report as a table, then the details of every request that did not pass.
    pub fn to_text(&self) -> String {
        let mut out = self.heading();
        out += &table(&self.rows());
        let _ = writeln!(
            out,
            "\n{} access pattern{}: {} passed, {} failed.",
            self.summary.patterns,
            if self.summary.patterns == 1 { "" } else { "s" },
            self.summary.passed,
            self.summary.failed
        );
        let errored = self
            .patterns
            .iter()
            .flat_map(|p| &p.requests)
            .any(|r| r.verdict == Verdict::Error);
        if errored && self.engine.kind == EngineKind::InMemory {
            out += "\nNote: the in-memory engine is not Cosmos DB and cannot run every query Cosmos DB runs\n\
                    (it refuses subqueries such as EXISTS). An ERROR from it may be the engine's limit rather\n\
                    than the design's: check those patterns with --endpoint on the emulator or an account.\n";
        }
        for p in self.patterns.iter().filter(|p| !p.passed) {
            let _ = writeln!(out, "\n{}", p.pattern);
            if let Some(reason) = &p.reason {
                let _ = writeln!(out, "  {reason}");
            }
            for (i, r) in p
                .requests
                .iter()
                .enumerate()
                .filter(|(_, r)| r.verdict != Verdict::Pass)
            {
                r.details(&mut out, i > 0);
            }
        }
        out
    }

    /// The lines above the table: where it ran and the samples.
    fn heading(&self) -> String {
        let mut out = String::new();
        let _ = match self.engine.kind {
            EngineKind::InMemory => writeln!(
                out,
                "Verifying `{}` on the in-memory Cosmos DB engine (database `{}`; nothing leaves this process)",
                self.model, self.engine.database
            ),
            EngineKind::Endpoint => writeln!(
                out,
                "Verifying `{}` at {} in the new database `{}` (left in place: drop it when done)",
                self.model,
                self.engine.endpoint.as_deref().unwrap_or(""),
                self.engine.database
            ),
        };
        let per_container: Vec<String> = self
            .samples
            .containers
            .iter()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "{} {} sample documents ({}).\n",
            if self.samples.stored {
                "Judged the stored documents as"
            } else {
                "Wrote"
            },
            self.samples.documents,
            per_container.join(", ")
        );
        out
    }

    /// The table's rows: a row per request (a failing row for a pattern without any).
    fn rows(&self) -> Vec<[String; 6]> {
        let mut rows: Vec<[String; 6]> = Vec::new();
        for p in &self.patterns {
            if p.requests.is_empty() {
                rows.push([
                    p.pattern.clone(),
                    p.operation.map_or("-", OperationKind::as_str).to_string(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "FAIL".into(),
                ]);
            }
            for (i, r) in p.requests.iter().enumerate() {
                let name = if i == 0 { p.pattern.clone() } else { String::new() };
                rows.push([
                    name,
                    r.label(i > 0),
                    r.container.clone(),
                    r.returned.as_ref().map_or("-".to_string(), |ids| ids.len().to_string()),
                    r.expected.len().to_string(),
                    match r.verdict {
                        Verdict::Pass => "pass",
                        Verdict::Fail => "FAIL",
                        Verdict::Error => "ERROR",
                    }
                    .to_string(),
                ]);
            }
        }
        rows
    }
}

/// The table of `rows` under its header, columns padded (the counts right-aligned).
fn table(rows: &[[String; 6]]) -> String {
    let header = ["pattern", "operation", "container", "returned", "expected", "result"];
    let mut widths = header.map(str::len);
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 6]| {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let pad = w.saturating_sub(cell.chars().count());
            if i == 3 || i == 4 {
                text += &" ".repeat(pad);
                text += cell;
            } else {
                text += cell;
                if i < 5 {
                    text += &" ".repeat(pad);
                }
            }
            if i < 5 {
                text += "  ";
            }
        }
        text.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for row in rows {
        out += &line([&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]]);
    }
    out
}

impl RequestOutcome {
    /// A request not yet sent: nothing bound, nothing returned, failing until judged.
    pub(crate) fn pending(
        kind: OperationKind,
        write: Option<WriteKind>,
        container: &str,
        document_types: Vec<String>,
        copy: bool,
    ) -> Self {
        RequestOutcome {
            kind,
            write,
            container: container.to_string(),
            document_types,
            copy,
            added: false,
            check: None,
            sql: None,
            parameters: BTreeMap::new(),
            partition_key: None,
            id: None,
            returned: None,
            expected: Vec::new(),
            ordered: false,
            verdict: Verdict::Fail,
            reason: None,
        }
    }

    /// This request as a check verify adds to the operation's own requests, answering
    /// the question `check` (`count kept?`).
    pub(crate) fn added(self, check: &str) -> Self {
        RequestOutcome {
            added: true,
            check: Some(check.into()),
            ..self
        }
    }

    /// `singlePartitionQuery`, `create`, `replace copy`, …
    fn label(&self, secondary: bool) -> String {
        if self.added {
            return format!("+ {}", self.check.as_deref().unwrap_or("check"));
        }
        let base = match self.write {
            Some(WriteKind::Create) => "create".to_string(),
            Some(WriteKind::Replace) => "replace".to_string(),
            Some(WriteKind::Delete) => "delete".to_string(),
            None => self.kind.as_str().to_string(),
        };
        let base = if self.copy && self.write.is_some() {
            format!("{base} copy")
        } else {
            base
        };
        if secondary {
            format!("+ {base}")
        } else {
            base
        }
    }

    fn details(&self, out: &mut String, secondary: bool) {
        let verdict = match self.verdict {
            Verdict::Pass => "passed",
            Verdict::Fail => "FAILED",
            Verdict::Error => "ERROR",
        };
        let _ = writeln!(
            out,
            "  {verdict}: {} of {} in `{}`",
            self.label(secondary).trim_start_matches("+ "),
            self.document_types.join(", "),
            self.container
        );
        if let Some(sql) = &self.sql {
            let _ = writeln!(out, "    sql: {sql}");
        }
        if !self.parameters.is_empty() {
            let list: Vec<String> = self.parameters.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            let _ = writeln!(out, "    parameters: {}", list.join(", "));
        }
        if let Some(pk) = &self.partition_key {
            let _ = writeln!(out, "    partition key: {pk}");
        }
        if let Some(id) = &self.id {
            let _ = writeln!(out, "    id: {id}");
        }
        if let Some(returned) = &self.returned {
            let _ = writeln!(out, "    returned: [{}]", returned.join(", "));
        }
        let _ = writeln!(
            out,
            "    expected: [{}]{}",
            self.expected.join(", "),
            if self.ordered { " (in this order)" } else { "" }
        );
        if let Some(reason) = &self.reason {
            let _ = writeln!(
                out,
                "    {}: {reason}",
                if self.verdict == Verdict::Error { "error" } else { "why" }
            );
        }
    }
}
