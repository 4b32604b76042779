//! Generates, for every example model with access patterns (`../*/model.json`,
//! `../patterns/*/model.json`), its document types and data access into a directory of
//! its own under `OUT_DIR`, and a dispatch (`calls.rs`) from pattern name to the
//! generated read method, written from `cosmap_codegen::data_api`'s listing; then
//! `examples.rs`, the modules and the table of examples `src/lib.rs` includes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cosmap_codegen::{data_api, Answer, DataApi, PatternMethod, Templates, TypeMapping};

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut modules = String::new();
    let mut table =
        String::from("/// Every example with access patterns, by name.\npub const EXAMPLES: &[Example] = &[\n");
    let (mapping, templates) = (TypeMapping::default(), Templates::load(None)?);
    for (name, model) in examples()? {
        println!("cargo:rerun-if-changed={}", model.display());
        let domain = cosmap_domain::load_file(&model)?;
        if domain.access_patterns().is_empty() {
            continue;
        }
        let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
        let dir = out.join(&name);
        std::fs::create_dir_all(&dir)?;
        let api = data_api(&logical, &mapping)?;
        write(
            &dir.join("cosmap.rs"),
            &cosmap_codegen::render_rust(&logical, &mapping, &templates)?,
        )?;
        write(
            &dir.join("cosmap_data.rs"),
            &cosmap_codegen::render_data_access(&logical, &mapping, &templates)?,
        )?;
        write(
            &dir.join("calls.rs"),
            &format!(
                "{}\n{}\n{}\n{}",
                calls(&api),
                loads(&api),
                writes(&api),
                repository_writes(&api)
            ),
        )?;
        let module = name.replace(['-', '/'], "_");
        writeln!(
            modules,
            "/// The `{name}` example's generated code.\npub mod {module} {{\n    \
             include!(concat!(env!(\"OUT_DIR\"), \"/{name}/cosmap.rs\"));\n    \
             include!(concat!(env!(\"OUT_DIR\"), \"/{name}/cosmap_data.rs\"));\n    \
             /// Its read methods called by pattern name.\n    pub mod calls {{\n        \
             include!(concat!(env!(\"OUT_DIR\"), \"/{name}/calls.rs\"));\n    }}\n}}"
        )?;
        writeln!(
            table,
            "    Example {{ name: {name:?}, model: {:?}, answers: {module}::calls::ANSWERS, \
             not_judged: {module}::calls::NOT_JUDGED, skipped: {module}::calls::SKIPPED, call: {module}::calls::call, \
             repositories: {module}::calls::REPOSITORIES, load: {module}::calls::load, \
             writes: {module}::calls::WRITES, write: {module}::calls::write, \
             write_aggregate: {module}::calls::write_aggregate, append: {module}::calls::append, settle: {module}::calls::settle, \
             save: {module}::calls::save, delete: {module}::calls::delete, save_new: {module}::calls::save_new }},",
            model.canonicalize()?.display().to_string()
        )?;
    }
    table.push_str("];\n");
    write(&out.join("examples.rs"), &format!("{modules}\n{table}"))
}

/// Every example model, by its directory's name under `examples/` (`patterns/bucket`), in name order.
fn examples() -> Result<Vec<(String, PathBuf)>, Error> {
    let root = Path::new("..");
    let mut found = Vec::new();
    for (prefix, dir) in [("", root.to_path_buf()), ("patterns/", root.join("patterns"))] {
        println!("cargo:rerun-if-changed={}", dir.display());
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let model = path.join("model.json");
            if model.is_file() {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .ok_or("a directory name that is not text")?;
                found.push((format!("{prefix}{name}"), model));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Writes `text` to `path` when it differs (a rebuild then leaves the file alone).
fn write(path: &Path, text: &str) -> Result<(), Error> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text)?;
    }
    Ok(())
}

/// The dispatch of one example: the patterns it answers, those it does not judge
/// (with why), what is not generated, and `call`.
fn calls(api: &DataApi) -> String {
    let mut answers = String::new();
    let mut not_judged = String::new();
    let mut arms = String::new();
    for m in &api.methods {
        match why_not_judged(m) {
            Some(reason) => writeln!(not_judged, "    ({:?}, {reason:?}),", m.pattern),
            None => {
                arms.push_str(&arm(m));
                writeln!(answers, "    {:?},", m.pattern)
            }
        }
        .expect("writing to a String");
    }
    let skipped: String = api.skipped.iter().map(|s| format!("    {s:?},\n")).collect();
    format!(
        "/// The read patterns [`call`] answers with the list of their results.\n\
         pub const ANSWERS: &[&str] = &[\n{answers}];\n\
         /// The generated pattern methods not called, each with why.\n\
         pub const NOT_JUDGED: &[(&str, &str)] = &[\n{not_judged}];\n\
         /// What the data access does not generate, each with why.\n\
         pub const SKIPPED: &[&str] = &[\n{skipped}];\n\n\
         /// Calls the generated read method of `pattern` with `binding` on `database`:\n\
         /// its results, each as JSON.\n\
         pub fn call<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    \
         pattern: &'a str,\n    binding: &'a ::cosmap_verify::generated::Binding,\n\
         ) -> ::cosmap_verify::generated::Answering<'a> {{\n    \
         ::std::boxed::Box::pin(async move {{\n        \
         let db = super::{module}::Database::open(database).await.map_err(|e| format!(\"{{e:?}}\"))?;\n        \
         match pattern {{\n{arms}            \
         _ => Err(format!(\"no generated read is called for `{{pattern}}`\")),\n        }}\n    }})\n}}\n",
        module = api.module
    )
}

/// Why a method of this shape is not called by the read dispatch (`None`: it is).
fn why_not_judged(m: &PatternMethod) -> Option<&'static str> {
    match &m.answer {
        Answer::List
        | Answer::Optional
        | Answer::Items { .. }
        | Answer::Scanned { .. }
        | Answer::Subset
        | Answer::Buckets => None,
        Answer::Write { .. } if m.params.is_empty() => Some("a write: called by `write`"),
        Answer::Write { .. } => Some("a write that takes parameters besides its document: not called"),
        Answer::AggregateWrite { .. } => {
            Some("a write of an aggregate's root and members: called by `write_aggregate`")
        }
        Answer::Append { .. } => Some("an append to a bucket: called by `append`"),
    }
}

/// The writes of one example: `WRITES` (the patterns whose one document `write`
/// writes), `write` (a pattern's generated write called with the document verify
/// gives, as the method's type) and `settle` (every generated worker run until none
/// applies a change).
fn writes(api: &DataApi) -> String {
    let (mut names, mut arms) = (String::new(), String::new());
    for m in api.methods.iter().filter(|m| m.params.is_empty()) {
        let Answer::Write { document, delete } = &m.answer else {
            continue;
        };
        let _ = writeln!(names, "    {:?},", m.pattern);
        let (binding, argument) = if *delete { ("d", "&d") } else { ("mut d", "&mut d") };
        let _ = writeln!(
            arms,
            "            {:?} => {{\n                let {binding}: {document} = crate::document(document)?;\n                \
             db.{}({argument}).await.map_err(|e| format!(\"{{e:?}}\"))\n            }}",
            m.pattern, m.method
        );
    }
    let runs: String = api
        .workers
        .iter()
        .map(|w| {
            format!(
                "            applied += db.{}().run_once().await.map_err(|e| format!(\"{}: {{e:?}}\"))?;\n",
                w.constructor, w.name
            )
        })
        .collect();
    let settle = settle(api, &runs);
    let body = dispatch(api, &arms, "document");
    let (aggregates, aggregate_arms) = aggregate_writes(api);
    let aggregate_body = dispatch(api, &aggregate_arms, "documents");
    let (appends, append_arms) = appends(api);
    let append_body = dispatch(api, &append_arms, "key, item");
    format!(
        "/// The write patterns [`write`], [`write_aggregate`] and [`append`] call the generated write of.\n\
         pub const WRITES: &[&str] = &[\n{names}{aggregates}{appends}];\n\n\
         /// Calls the generated append of `pattern` on `database` with `item` for the parent whose key is `key`.\n\
         pub fn append<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    \
         pattern: &'a str,\n    key: &'a str,\n    item: &'a ::serde_json::Value,\n) -> ::cosmap_verify::generated::Writing<'a> {{\n{append_body}}}\n\n\
         /// Calls the generated write of `pattern` with `document` on `database`.\n\
         pub fn write<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    \
         pattern: &'a str,\n    document: &'a ::serde_json::Value,\n) -> ::cosmap_verify::generated::Writing<'a> {{\n{body}}}\n\n\
         /// Calls the generated write of an aggregate of `pattern` on `database` with `documents`:\n\
         /// one list per argument, in the method's order.\n\
         pub fn write_aggregate<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    \
         pattern: &'a str,\n    documents: &'a [::std::vec::Vec<::serde_json::Value>],\n) -> ::cosmap_verify::generated::Writing<'a> {{\n{aggregate_body}}}\n\n{settle}"
    )
}

/// The body of a write dispatch with match arms `arms` (none: every call fails), whose
/// argument besides `database` and `pattern` is `argument`.
fn dispatch(api: &DataApi, arms: &str, argument: &str) -> String {
    let nothing = "Err(format!(\"no generated write is called for `{pattern}`\"))";
    if arms.is_empty() {
        return format!(
            "    let _ = (database, {argument});\n    ::std::boxed::Box::pin(async move {{ {nothing} }})\n"
        );
    }
    format!(
        "    ::std::boxed::Box::pin(async move {{\n        \
         let db = super::{module}::Database::open(database).await.map_err(|e| format!(\"{{e:?}}\"))?;\n        \
         match pattern {{\n{arms}            _ => {nothing},\n        }}\n    }})\n",
        module = api.module
    )
}

/// The appends of one example: their names (for `WRITES`) and the match arms of
/// `append`, each calling the generated append with the parent's key and the item.
fn appends(api: &DataApi) -> (String, String) {
    let (mut names, mut arms) = (String::new(), String::new());
    for m in &api.methods {
        let Answer::Append { item } = &m.answer else {
            continue;
        };
        let _ = writeln!(names, "    {:?},", m.pattern);
        let _ = writeln!(
            arms,
            "            {:?} => {{\n                let item: {item} = crate::document(item)?;\n                \
             db.{}(key, &item).await.map_err(|e| format!(\"{{e:?}}\"))\n            }}",
            m.pattern, m.method
        );
    }
    (names, arms)
}

/// The aggregate writes of one example: their names (for `WRITES`) and the match arms
/// of `write_aggregate`, each taking one list of documents per argument (one document
/// where the argument is one).
fn aggregate_writes(api: &DataApi) -> (String, String) {
    let (mut names, mut arms) = (String::new(), String::new());
    for m in &api.methods {
        let Answer::AggregateWrite { params } = &m.answer else {
            continue;
        };
        let _ = writeln!(names, "    {:?},", m.pattern);
        let lists: Vec<String> = (0..params.len()).map(|i| format!("d{i}")).collect();
        let _ = writeln!(
            arms,
            "            {:?} => {{\n                let [{}] = documents else {{\n                    \
             return Err(format!(\"{} lists of documents expected, not {{}}\", documents.len()));\n                }};",
            m.pattern,
            lists.join(", "),
            params.len()
        );
        let mut args = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let (ty, take) = if p.several {
                (format!("::std::vec::Vec<{}>", p.document), "documents")
            } else {
                (p.document.clone(), "one")
            };
            let binding = if p.mutable { "mut " } else { "" };
            let _ = writeln!(arms, "                let {binding}a{i}: {ty} = crate::{take}(d{i})?;");
            args.push(format!("&{binding}a{i}"));
        }
        let _ = writeln!(
            arms,
            "                db.{}({}).await.map_err(|e| format!(\"{{e:?}}\"))\n            }}",
            m.method,
            args.join(", ")
        );
    }
    (names, arms)
}

/// One match arm: the arguments taken from the binding, the call, its results as JSON.
fn arm(m: &PatternMethod) -> String {
    let mut out = format!("            {:?} => {{\n", m.pattern);
    let mut args = Vec::new();
    for (i, p) in m.params.iter().enumerate() {
        let (owned, borrowed) = owned_type(&p.ty);
        let _ = writeln!(
            out,
            "                let a{i}: {owned} = crate::arg(binding, {:?})?;",
            p.parameter
        );
        if p.ty == "&[&str]" {
            let _ = writeln!(
                out,
                "                let a{i}: ::std::vec::Vec<&str> = a{i}.iter().map(::std::string::String::as_str).collect();"
            );
        }
        args.push(if borrowed { format!("&a{i}") } else { format!("a{i}") });
    }
    let call = format!("db.{}({}).await", m.method, args.join(", "));
    let result = match &m.answer {
        Answer::Optional => format!("crate::optional({call})"),
        Answer::Items { main } => format!(
            "crate::list({call}.map(|items| items.into_iter().map(|item| item.{main}).collect::<::std::vec::Vec<_>>()))"
        ),
        Answer::Scanned { main, .. } => format!(
            "crate::list({call}.map(|answer| answer.items.into_iter().map(|item| item.{main}).collect::<::std::vec::Vec<_>>()))"
        ),
        _ => format!("crate::list({call})"),
    };
    let _ = writeln!(out, "                {result}\n            }}");
    out
}

/// The owned type a parameter of type `ty` is read into, and whether the call borrows it.
fn owned_type(ty: &str) -> (String, bool) {
    match ty.strip_prefix('&') {
        Some("str") => ("::std::string::String".into(), true),
        Some("[&str]") => ("::std::vec::Vec<::std::string::String>".into(), true),
        Some(inner) => match inner.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            Some(element) => (format!("::std::vec::Vec<{element}>"), true),
            None => (inner.to_string(), true),
        },
        None => (ty.to_string(), false),
    }
}

/// The repositories of one example: `REPOSITORIES` (root, container, by id, the
/// members' `type`s) and `load`, which loads an aggregate by its root's id (and its
/// partition key's values, where `load` takes them) and gives the ids it holds, the
/// root's under `""` and each member kind's under its `type`.
fn loads(api: &DataApi) -> String {
    let mut table = String::new();
    let mut arms = String::new();
    for r in &api.repositories {
        let types: Vec<String> = r.members.iter().map(|(_, t)| format!("{t:?}")).collect();
        let _ = writeln!(
            table,
            "    ({:?}, {:?}, {}, &[{}]),",
            r.root,
            r.container,
            r.by_id,
            types.join(", ")
        );
        let members: String = r
            .members
            .iter()
            .map(|(field, t)| format!(" ({t:?}.to_string(), crate::ids(&a.{field})?),"))
            .collect();
        let _ = writeln!(
            arms,
            "            {:?} => match db.{}().load({key}id).await.map_err(|e| format!(\"{{e:?}}\"))? {{\n                \
             None => Ok(None),\n                \
             Some(a) => Ok(Some(vec![(::std::string::String::new(), crate::ids(::std::slice::from_ref(&a.root))?),{members}])),\n            }},",
            r.root,
            r.constructor,
            key = if r.by_id { "" } else { "crate::FromKey::from_key(key)?, " }
        );
    }
    format!(
        "/// Each repository: its root, container, whether `load` takes the id alone, its members' `type`s.\n\
         pub const REPOSITORIES: &[(&str, &str, bool, &[&str])] = &[\n{table}];\n\n\
         /// Loads the aggregate of root `root` whose id is `id` (in partition `key`) through its generated repository.\n\
         pub fn load<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    \
         root: &'a str,\n    key: &'a [::std::string::String],\n    id: &'a str,\n) -> crate::Loading<'a> {{\n    \
         ::std::boxed::Box::pin(async move {{\n        \
         let db = super::{module}::Database::open(database).await.map_err(|e| format!(\"{{e:?}}\"))?;\n        \
         let _ = key;\n        \
         match root {{\n{arms}            \
         _ => Err(format!(\"no repository loads `{{root}}`\")),\n        }}\n    }})\n}}\n",
        module = api.module
    )
}

/// `settle`: every generated worker run (`runs`, one line each) until a round applies
/// nothing — a worker's writes can feed another's, so at most one round more than
/// there are workers.
fn settle(api: &DataApi, runs: &str) -> String {
    let doc = "/// Runs every generated worker until a round applies nothing.\n";
    let signature = "pub fn settle(database: &::azure_data_cosmos::clients::DatabaseClient) -> ::cosmap_verify::generated::Writing<'_> {\n";
    if api.workers.is_empty() {
        return format!("{doc}{signature}    let _ = database;\n    ::std::boxed::Box::pin(async {{ Ok(()) }})\n}}\n");
    }
    let rounds = api.workers.len() + 1;
    format!(
        "{doc}{signature}    ::std::boxed::Box::pin(async move {{\n        \
         let db = super::{module}::Database::open(database).await.map_err(|e| format!(\"{{e:?}}\"))?;\n        \
         for _ in 0..{rounds} {{\n            let mut applied = 0;\n{runs}            \
         if applied == 0 {{\n                return Ok(());\n            }}\n        }}\n        \
         Err(\"the workers still apply changes after {rounds} rounds\".to_string())\n    }})\n}}\n",
        module = api.module
    )
}

/// The repository writes of one example: `save`, which loads an aggregate (by its
/// root's id, and partition key values where `load` takes them), puts `root` (JSON) in
/// the root's place, adds each of `members` (JSON, by its `type`) to its field and
/// saves it; `delete`, which loads one and deletes it; and `save_new`, which saves a
/// new aggregate of a root alone.
fn repository_writes(api: &DataApi) -> String {
    let (mut saves, mut deletes, mut news) = (String::new(), String::new(), String::new());
    for r in &api.repositories {
        let _ = writeln!(
            news,
            "            {:?} => {{\n                \
             let mut a = super::{}::{}::new(crate::document(root_document)?);\n                \
             db.{}().save(&mut a).await.map_err(|e| format!(\"{{e:?}}\"))\n            }}",
            r.root, api.module, r.aggregate, r.constructor
        );
        let key = if r.by_id {
            ""
        } else {
            "crate::FromKey::from_key(key)?, "
        };
        let load = format!(
            "let repository = db.{}();\n                \
             let loaded = repository.load({key}id).await.map_err(|e| format!(\"{{e:?}}\"))?;\n                \
             let mut a = loaded.ok_or_else(|| format!(\"no `{}` `{{id}}` to load\"))?;\n",
            r.constructor, r.root
        );
        let fields: String = r
            .members
            .iter()
            .map(|(field, t)| format!("                        {t:?} => a.{field}.push(crate::document(m)?),\n"))
            .collect();
        let add = if r.members.is_empty() {
            format!("if !members.is_empty() {{\n                    return Err(\"`{}` has no members\".to_string());\n                }}", r.root)
        } else {
            format!(
                "for m in members {{\n                    \
                 match m.get(\"type\").and_then(::serde_json::Value::as_str).unwrap_or_default() {{\n{fields}                        \
                 other => return Err(format!(\"`{}` has no member of type `{{other}}`\")),\n                    }}\n                }}",
                r.root
            )
        };
        let _ = writeln!(
            saves,
            "            {:?} => {{\n                {load}                let etag = a.root.etag.take();\n                \
             a.root = crate::document(root_document)?;\n                a.root.etag = etag;\n                \
             {add}\n                repository.save(&mut a).await.map_err(|e| format!(\"{{e:?}}\"))\n            }}",
            r.root
        );
        let _ = writeln!(
            deletes,
            "            {:?} => {{\n                {load}                let _ = &mut a;\n                \
             repository.delete(a).await.map_err(|e| format!(\"{{e:?}}\"))\n            }}",
            r.root
        );
    }
    let open = "let db = super::{module}::Database::open(database).await.map_err(|e| format!(\"{{e:?}}\"))?;\n        let _ = key;";
    let open = open
        .replace("{module}", &api.module)
        .replace("{{", "{")
        .replace("}}", "}");
    let unknown = "_ => Err(format!(\"no repository of `{root}`\")),";
    let open_new = open.replace("\n        let _ = key;", "");
    format!(
        "/// Loads the aggregate of root `root` whose id is `id` (in partition `key`), puts\n\
         /// `root_document` in its root's place, adds `members` (by `type`) and saves it.\n\
         pub fn save<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    root: &'a str,\n    \
         key: &'a [::std::string::String],\n    id: &'a str,\n    root_document: &'a ::serde_json::Value,\n    \
         members: &'a [::serde_json::Value],\n) -> ::cosmap_verify::generated::Writing<'a> {{\n    \
         ::std::boxed::Box::pin(async move {{\n        {open}\n        match root {{\n{saves}            {unknown}\n        }}\n    }})\n}}\n\n\
         /// Loads the aggregate of root `root` whose id is `id` (in partition `key`) and deletes it.\n\
         pub fn delete<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    root: &'a str,\n    \
         key: &'a [::std::string::String],\n    id: &'a str,\n) -> ::cosmap_verify::generated::Writing<'a> {{\n    \
         ::std::boxed::Box::pin(async move {{\n        {open}\n        match root {{\n{deletes}            {unknown}\n        }}\n    }})\n}}\n\n\
         /// Saves a new aggregate of root `root`: `root_document` alone.\n\
         pub fn save_new<'a>(\n    database: &'a ::azure_data_cosmos::clients::DatabaseClient,\n    root: &'a str,\n    \
         root_document: &'a ::serde_json::Value,\n) -> ::cosmap_verify::generated::Writing<'a> {{\n    \
         ::std::boxed::Box::pin(async move {{\n        {open_new}\n        match root {{\n{news}            {unknown}\n        }}\n    }})\n}}\n"
    )
}
