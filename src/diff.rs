//! `cosmap diff`: maps two model files, compares them (cosmap-diff) and prints the
//! changes as text or JSON; the exit code says which class the worst change is in.
//! With `--endpoint`, the old side is what is provisioned on the account, read by
//! cosmap-provision: containers only.

use std::fmt::{self, Write as _};

use cosmap_codegen::{ApiItem, DataApi};
use cosmap_diff::{Change, ChangeKind, Class, DeployedContainer, ModelDiff, Volumes};
use cosmap_mapper::{human_count, Options};
use cosmap_provision::{read_deployed, Connection, ProvisionError, Settings, Target};

use crate::cli::{DiffArgs, DiffFormat};
use crate::provision::Failure;

/// Exit code when nothing changed.
pub const EXIT_NO_CHANGES: u8 = 0;

/// The exit code of a diff whose worst change is in `class` (docs/diff.md): clear of
/// the codes every command uses (1 failure, 2 invalid model or usage, 3 drift).
pub fn exit_code(class: Class) -> u8 {
    match class {
        Class::InPlace => 10,
        Class::Additive => 11,
        Class::DataMigration => 12,
        Class::BreakingForReaders => 13,
    }
}

/// A command line `diff` cannot run: exit code 2, like other usage errors.
#[derive(Debug)]
pub struct Usage(String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Runs `cosmap diff`; returns the exit code.
pub fn run(args: DiffArgs) -> anyhow::Result<u8> {
    if let Some(endpoint) = args.endpoint.clone() {
        if let Some(second) = &args.new {
            return Err(Usage(format!(
                "`cosmap diff` compares two model files, or one model file with what is provisioned at --endpoint, not both: {} and {} were given with --endpoint {endpoint}\n  hint: cosmap diff NEW --endpoint URL (the model file to deploy), or cosmap diff OLD NEW (without --endpoint)",
                args.old.display(),
                second.display(),
                endpoint = cosmap_provision::shown_endpoint(&endpoint),
            ))
            .into());
        }
        return against_endpoint(&endpoint, args);
    }
    let Some(new_path) = &args.new else {
        return Err(Usage(
            "`cosmap diff` needs two model files: cosmap diff OLD NEW, or one and --endpoint: cosmap diff NEW --endpoint URL\n  hint: keep the model as deployed (for example `git show main:model.json > old.json`) and compare it with the edited one, or compare the edited one with what is provisioned on the account".to_string(),
        )
        .into());
    };
    let options: Options = args.mapping.options().optimise(!args.no_optimise);
    let old = crate::load(&args.old)?;
    let new = crate::load(new_path)?;
    let (old_logical, new_logical) = (cosmap_mapper::map(&old, &options), cosmap_mapper::map(&new, &options));
    let volumes = Volumes::of(&old, &old_logical);
    let diff = cosmap_diff::diff(&old_logical, &new_logical, &volumes)?;
    // Names and requests do not depend on how types are spelled: the default mapping.
    let mapping = cosmap_codegen::TypeMapping::default();
    let api = ApiChanges::between(
        &cosmap_codegen::data_api(&old_logical, &mapping)?,
        &cosmap_codegen::data_api(&new_logical, &mapping)?,
    );
    // An item removed or sending something else breaks the application's code.
    let worst = diff.worst.max(api.breaking().then_some(Class::BreakingForReaders));
    let out = match args.format {
        DiffFormat::Text => render_worst(&diff, worst) + &api.render(),
        DiffFormat::Json => {
            let mut value = serde_json::to_value(&diff)?;
            value["generatedApi"] = api.to_json();
            if worst != diff.worst {
                value["worst"] = serde_json::to_value(worst)?;
            }
            serde_json::to_string_pretty(&value)? + "\n"
        }
    };
    crate::print(&out)?;
    Ok(worst.map_or(EXIT_NO_CHANGES, exit_code))
}

/// How the generated data access's public API changes between two designs
/// (`cosmap_codegen::data_api`, its [`DataApi::items`]): items added, removed, or sending something
/// else under the same name, and unique values whose enforcement changes hands.
#[derive(Debug, Default)]
pub struct ApiChanges {
    /// Items only the new design generates.
    pub added: Vec<ApiItem>,
    /// Items only the old design generates: code that calls them stops compiling.
    pub removed: Vec<ApiItem>,
    /// Items of the same kind and name that send something else: callers compile
    /// and run the new requests.
    pub changed: Vec<ApiChange>,
    /// Unique values enforced otherwise (or no longer) by the new design.
    pub enforcement: Vec<EnforcementChange>,
}

/// An item of the same kind and name, sending something else.
#[derive(Debug)]
pub struct ApiChange {
    /// The old item, and what the new one sends.
    pub old: ApiItem,
    pub sends: String,
}

/// A unique value whose enforcement changes hands: `None` where a design has no such value.
#[derive(Debug)]
pub struct EnforcementChange {
    pub value: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

impl ApiChanges {
    /// The changes from `old` to `new`.
    pub fn between(old: &DataApi, new: &DataApi) -> Self {
        let (old_items, new_items) = (old.items(), new.items());
        let key = |i: &ApiItem| (i.kind, i.name.clone());
        let find = |items: &[ApiItem], i: &ApiItem| items.iter().find(|j| key(j) == key(i)).cloned();
        let mut out = ApiChanges::default();
        for item in &old_items {
            match find(&new_items, item) {
                None => out.removed.push(item.clone()),
                Some(now) if now.sends != item.sends => out.changed.push(ApiChange {
                    old: item.clone(),
                    sends: now.sends,
                }),
                Some(_) => {}
            }
        }
        out.added = new_items
            .iter()
            .filter(|i| find(&old_items, i).is_none())
            .cloned()
            .collect();
        let by = |api: &DataApi, value: &str| api.unique.iter().find(|e| e.value == value).map(|e| e.by.clone());
        let mut values: Vec<&str> = old.unique.iter().chain(&new.unique).map(|e| e.value.as_str()).collect();
        values.sort_unstable();
        values.dedup();
        for value in values {
            let (was, now) = (by(old, value), by(new, value));
            if was != now {
                out.enforcement.push(EnforcementChange {
                    value: value.to_string(),
                    old: was,
                    new: now,
                });
            }
        }
        out
    }

    /// The JSON form (`generatedApi` of `cosmap diff --format json`, docs/diff.md).
    pub fn to_json(&self) -> serde_json::Value {
        let changed: Vec<serde_json::Value> = self
            .changed
            .iter()
            .map(|c| serde_json::json!({"item": c.old, "was": c.old.sends, "now": c.sends}))
            .collect();
        let enforcement: Vec<serde_json::Value> = self
            .enforcement
            .iter()
            .map(|e| serde_json::json!({"value": e.value, "was": e.old, "now": e.new}))
            .collect();
        serde_json::json!({
            "breaking": self.breaking(),
            "added": self.added,
            "removed": self.removed,
            "changed": changed,
            "enforcement": enforcement,
        })
    }

    /// Whether application code that used the old API breaks: an item removed, or sending something else.
    pub fn breaking(&self) -> bool {
        !self.removed.is_empty() || !self.changed.is_empty()
    }

    /// The section `cosmap diff` prints after the model's changes (empty when none).
    pub fn render(&self) -> String {
        let n = self.added.len() + self.removed.len() + self.changed.len() + self.enforcement.len();
        if n == 0 {
            return String::new();
        }
        let mut out = format!("\nGENERATED DATA ACCESS ({n})\n");
        if self.breaking() {
            let text = "The application's code breaks where it calls what is removed or changed below: breaking for readers (exit code 13) whatever the model's changes are.";
            wrap(&mut out, text, "  ", "  ");
        }
        let named = |i: &ApiItem| format!("{} `{}` (of `{}`)", i.kind, i.name, i.of);
        for i in &self.removed {
            let text = format!("removed: {}: breaking, code that calls it no longer compiles", named(i));
            wrap(&mut out, &text, "  ", "      ");
        }
        for c in &self.changed {
            let text = format!(
                "changed: {}: breaking, it sends something else under the same name (its callers compile and run the new requests): was {}; now {}",
                named(&c.old),
                c.old.sends,
                c.sends
            );
            wrap(&mut out, &text, "  ", "      ");
        }
        for i in &self.added {
            wrap(&mut out, &format!("added: {}", named(i)), "  ", "      ");
        }
        let none = "nothing (no such unique value)".to_string();
        for e in &self.enforcement {
            let text = format!(
                "unique `{}` changes hands: enforced by {}; now by {}",
                e.value,
                e.old.as_ref().unwrap_or(&none),
                e.new.as_ref().unwrap_or(&none)
            );
            wrap(&mut out, &text, "  ", "      ");
        }
        out
    }
}

/// `cosmap diff NEW --endpoint URL`: NEW (the one model file) against the containers
/// of the database on the account (cosmap-provision reads them; reads only).
fn against_endpoint(endpoint: &str, args: DiffArgs) -> anyhow::Result<u8> {
    let options: Options = args.mapping.options().optimise(!args.no_optimise);
    let new = crate::load(&args.old)?;
    let new_logical = cosmap_mapper::map(&new, &options);
    let database = args.database.clone().unwrap_or_else(|| new.name().to_string());
    // The endpoint comes from --endpoint only: the hints do not point to COSMOS_ENDPOINT.
    let target =
        Target::new(endpoint, args.key, &database).map_err(|e| Failure::for_endpoint_flag(ProvisionError::from(e)))?;
    let settings = Settings::default().trace(crate::provision::trace(args.verbose));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let read = runtime.block_on(async {
        let connection = Connection::open(&target, settings).await?;
        read_deployed(&connection).await
    });
    let read = read.map_err(Failure::for_endpoint_flag)?;
    let old = format!("{database} at {}", target.endpoint());
    let missing = read.is_none();
    let deployed: Vec<DeployedContainer> = read
        .unwrap_or_default()
        .into_iter()
        .map(|c| DeployedContainer {
            definition: c.definition,
            other_indexes: c.other_indexes,
        })
        .collect();
    let diff = cosmap_diff::diff_deployed(&old, &deployed, &new_logical);
    let out = match args.format {
        DiffFormat::Text => {
            let mut out = render(&diff);
            out.push('\n');
            if missing {
                let note = format!(
                    "The database `{database}` does not exist at {}: every container is new.",
                    target.endpoint()
                );
                wrap(&mut out, &note, "", "");
            }
            wrap(&mut out, CONTAINERS_ONLY, "", "");
            out
        }
        DiffFormat::Json => serde_json::to_string_pretty(&diff)? + "\n",
    };
    crate::print(&out)?;
    Ok(diff.worst.map_or(EXIT_NO_CHANGES, exit_code))
}

/// What a diff against an account leaves out, said under its text.
const CONTAINERS_ONLY: &str = "Compared containers only: an account holds no model, so document types and properties were not compared; compare two model files (`cosmap diff OLD NEW`) for document shapes.";

/// Text width the output keeps to.
const WIDTH: usize = 80;

/// The changes grouped by class, worst first, each with its explanation and estimate.
pub fn render(diff: &ModelDiff) -> String {
    render_worst(diff, diff.worst)
}

/// [`render`], saying the worst class is `worst` (the generated API's changes may make
/// it worse than the model's).
fn render_worst(diff: &ModelDiff, worst: Option<Class>) -> String {
    let mut out = String::new();
    let Some(worst) = worst else {
        let _ = writeln!(out, "{} → {}: no changes.", diff.old, diff.new);
        return out;
    };
    let n = diff.changes.len();
    let heading = format!(
        "{} → {}: {n} change{}; the worst is {worst} (exit code {}).",
        diff.old,
        diff.new,
        if n == 1 { "" } else { "s" },
        exit_code(worst)
    );
    wrap(&mut out, &heading, "", "");
    for class in Class::ALL.iter().rev() {
        let changes: Vec<&Change> = diff.changes.iter().filter(|c| c.class == *class).collect();
        if changes.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{} ({})", class.as_str().to_uppercase(), changes.len());
        for c in changes {
            // A container read from an account is named by the server: shown escaped.
            let subject = cosmap_domain::naming::escape_hidden(&c.subject.to_string());
            wrap(&mut out, &format!("{subject}: {}", describe(&c.kind)), "  ", "      ");
            wrap(&mut out, &c.explanation, "      ", "      ");
            if let Some(e) = c.estimate {
                let _ = writeln!(
                    out,
                    "      estimate: {} documents, {} RU",
                    human_count(e.documents),
                    human_count(e.ru)
                );
            }
        }
    }
    if let Some(total) = diff.total_estimate() {
        let total = format!(
            "Migrations in all: about {} documents, {} RU (from the old model's volumes and the cost model's charges).",
            human_count(total.documents),
            human_count(total.ru)
        );
        out.push('\n');
        wrap(&mut out, &total, "", "");
    }
    out
}

/// Appends `text` wrapped at [`WIDTH`] characters: its first line after `first`, the
/// others after `indent`. A word longer than a line stays whole.
fn wrap(out: &mut String, text: &str, first: &str, indent: &str) {
    let mut line = String::from(first);
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = String::from(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    if !empty {
        out.push_str(&line);
        out.push('\n');
    }
}

/// What changed, in a few words.
fn describe(kind: &ChangeKind) -> String {
    let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    let keys = |v: &[Vec<String>]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|k| format!("({})", k.join(", ")))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let ttl = |t: &Option<i64>| match t {
        None => "off".to_string(),
        Some(-1) => "on, no default".to_string(),
        Some(s) => format!("{s} s"),
    };
    let flags = |optional: bool, many: bool| match (optional, many) {
        (_, true) => "list",
        (true, false) => "optional",
        (false, false) => "required",
    };
    match kind {
        ChangeKind::ContainerAdded => "container added".to_string(),
        ChangeKind::ContainerRemoved => "container removed".to_string(),
        ChangeKind::PartitionKeyChanged {
            old,
            new,
            definition: None,
        } => format!("partition key {} → {}", list(old), list(new)),
        ChangeKind::PartitionKeyChanged {
            old,
            new,
            definition: Some(d),
        } => format!(
            "partition key {} ({}, version {}) → {} ({}, version {})",
            list(old),
            d.old_kind,
            d.old_version,
            list(new),
            d.new_kind,
            d.new_version
        ),
        ChangeKind::UniqueKeysChanged { old, new } => format!("unique keys {} → {}", keys(old), keys(new)),
        ChangeKind::IndexingChanged {
            included_added,
            included_removed,
            other,
        } => {
            let mut parts = Vec::new();
            if !included_added.is_empty() {
                parts.push(format!("+{}", included_added.join(" +")));
            }
            if !included_removed.is_empty() {
                parts.push(format!("-{}", included_removed.join(" -")));
            }
            if *other {
                parts.push("other settings".to_string());
            }
            format!("indexing policy changed ({})", parts.join(", "))
        }
        ChangeKind::TtlChanged { old, new } => format!("default TTL {} → {}", ttl(old), ttl(new)),
        ChangeKind::DocumentTypeAdded { role } => format!("document type added ({})", role.as_str()),
        ChangeKind::DocumentTypeRemoved { role } => format!("document type removed ({})", role.as_str()),
        ChangeKind::DocumentTypeMoved { from, to } => format!("document type moved from `{from}` to `{to}`"),
        ChangeKind::PropertyAdded {
            ty,
            optional,
            many,
            default,
            ..
        } => match default {
            Some(value) if !*optional && !*many => {
                format!("property added ({}, required, default {value})", ty.as_str())
            }
            _ => format!("property added ({}, {})", ty.as_str(), flags(*optional, *many)),
        },
        ChangeKind::PropertyRemoved => "property removed".to_string(),
        ChangeKind::BecamePartitionKey { key, .. } => format!("became the partition key ({})", key.join(", ")),
        ChangeKind::NoLongerPartitionKey { key } => format!("no longer the partition key (was {})", key.join(", ")),
        ChangeKind::PropertyRetyped { old, new } => format!("type {} → {}", old.as_str(), new.as_str()),
        ChangeKind::CardinalityChanged { new_many, .. } => {
            if *new_many {
                "single value → list".to_string()
            } else {
                "list → single value".to_string()
            }
        }
        ChangeKind::BecameRequired { default: None, .. } => "optional → required".to_string(),
        ChangeKind::BecameRequired {
            default: Some(value), ..
        } => {
            format!("optional → required, default {value}")
        }
        ChangeKind::DefaultChanged { old, new, .. } => format!(
            "default {} → {}",
            old.as_ref().map_or("none".to_string(), ToString::to_string),
            new.as_ref().map_or("none".to_string(), ToString::to_string)
        ),
        ChangeKind::BecameOptional => "required → optional".to_string(),
        ChangeKind::EmbeddedAdded { source, many } => {
            format!("embedded `{source}` added ({})", if *many { "array" } else { "object" })
        }
        ChangeKind::EmbeddedRemoved { source } => format!("embedded `{source}` removed"),
        ChangeKind::EmbeddedToSeparate { value_object, from, .. } => {
            format!("value object `{value_object}` embedded in `{from}` → separate documents")
        }
        ChangeKind::SeparateToEmbedded {
            value_object,
            document_type,
            ..
        } => format!("value object `{value_object}` separate (`{document_type}`) → embedded"),
        ChangeKind::ReferenceAdded { target, optional, many } => {
            format!("reference to `{target}` added ({})", flags(*optional, *many))
        }
        ChangeKind::ReferenceRemoved { target } => format!("reference to `{target}` removed"),
        ChangeKind::ReferenceChanged { what, .. } => format!("reference changed: {what}"),
        ChangeKind::DerivedAdded { derived, .. } => format!("{} added", derived.as_str()),
        ChangeKind::DerivedRemoved { derived } => format!("{} removed", derived.as_str()),
    }
}
