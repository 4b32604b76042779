//! Dumps everything the pipeline outputs for a set of model files, so a change meant
//! to make it faster can be checked byte for byte (`diff -r` of two dumps); driven by
//! `scripts/dump-outputs.sh`:
//!
//! ```text
//! dump_outputs OUT_DIR [synthetic:N | MODEL_FILE]...
//! ```
//!
//! For each input, under `OUT_DIR/<input with / as __>/`: the load error (text and
//! `Debug`) for a model that does not load; otherwise the logical model (JSON and
//! `Debug`) mapped optimised, MR-only and with `index_all`, the cost report at session
//! and strong consistency (JSON and `Debug`), every artefact of `cosmap generate`
//! (also with `--data-access`, and with `--index-all`), the MR-only Mermaid view and
//! the HTML report.

use std::fs;
use std::path::{Path, PathBuf};

use cosmap_codegen::{generate, render_report, Artefact, Templates, TypeMapping};
use cosmap_mapper::cost::{estimate, map_and_cost, Consistency};
use cosmap_mapper::Options;

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create a dump directory");
    }
    fs::write(&path, contents).expect("write a dump file");
}

fn artefacts(dir: &Path, prefix: &str, artefacts: Result<Vec<Artefact>, cosmap_codegen::CodegenError>) {
    match artefacts {
        Ok(list) => {
            let mut names = String::new();
            for a in list {
                names.push_str(&format!("{}\n", a.path.display()));
                write(dir, &format!("{prefix}/{}", a.path.display()), &a.contents);
            }
            write(dir, &format!("{prefix}.list"), names);
        }
        Err(e) => write(dir, &format!("{prefix}.error"), format!("{e}\n{e:?}\n")),
    }
}

fn dump(out: &Path, label: &str, bytes: &[u8], templates: &Templates) {
    let dir = out.join(label.replace('/', "__"));
    fs::create_dir_all(&dir).expect("create a dump directory");
    let model = match cosmap_domain::from_slice(bytes, None) {
        Ok(model) => model,
        Err(e) => {
            write(&dir, "error.txt", format!("{e}\n---\n{e:?}\n"));
            return;
        }
    };
    let optimised = cosmap_mapper::map(&model, &Options::default());
    let rules = cosmap_mapper::map(&model, &Options::default().optimise(false));
    let index_all = cosmap_mapper::map(&model, &Options::default().index_all(true));
    for (name, logical) in [("optimised", &optimised), ("rules", &rules), ("index-all", &index_all)] {
        write(
            &dir,
            &format!("logical-{name}.json"),
            serde_json::to_string_pretty(logical).expect("serialises") + "\n",
        );
        write(&dir, &format!("logical-{name}.debug"), format!("{logical:#?}\n"));
    }
    for (name, consistency) in [("session", Consistency::Session), ("strong", Consistency::Strong)] {
        // At session consistency through `map_and_cost` (the naive baseline figured
        // beside the maps), so the dump shows it agrees with `estimate` on the maps.
        let report = if consistency == Consistency::Session {
            map_and_cost(&model, &Options::default(), consistency).1
        } else {
            estimate(&model, &rules, &optimised, consistency)
        };
        write(
            &dir,
            &format!("cost-{name}.json"),
            serde_json::to_string_pretty(&report).expect("serialises") + "\n",
        );
        write(&dir, &format!("cost-{name}.debug"), format!("{report:#?}\n"));
        if consistency == Consistency::Session {
            write(&dir, "report.html", render_report(&optimised, &report));
        }
    }
    let index_all_report = estimate(
        &model,
        &cosmap_mapper::map(&model, &Options::default().index_all(true).optimise(false)),
        &index_all,
        Consistency::Session,
    );
    write(
        &dir,
        "cost-index-all.json",
        serde_json::to_string_pretty(&index_all_report).expect("serialises") + "\n",
    );
    artefacts(
        &dir,
        "generate",
        generate(&optimised, &TypeMapping::default(), templates),
    );
    let data_access = TypeMapping {
        data_access: true,
        ..TypeMapping::default()
    };
    artefacts(
        &dir,
        "generate-data-access",
        generate(&optimised, &data_access, templates),
    );
    artefacts(
        &dir,
        "generate-index-all",
        generate(&index_all, &TypeMapping::default(), templates),
    );
    match cosmap_codegen::mermaid(&rules, templates) {
        Ok(text) => write(&dir, "rules.mmd", text),
        Err(e) => write(&dir, "rules.mmd.error", format!("{e}\n")),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(
        args.next()
            .expect("usage: dump_outputs OUT_DIR [synthetic:N | FILE]..."),
    );
    let templates = Templates::load(None).expect("embedded templates");
    for input in args {
        if let Some(n) = input.strip_prefix("synthetic:") {
            let n: usize = n.parse().expect("synthetic:N takes a number");
            dump(&out, &input, cosmap_domain::synthetic::json(n).as_bytes(), &templates);
        } else {
            let bytes = fs::read(&input).expect("read a model file");
            dump(&out, &input, &bytes, &templates);
        }
    }
}
