//! The generated data access and types allow no lint wholesale, and the data access
//! holds only the runtime helpers it uses, for every example model: what a design
//! does not use is not generated. (That each compiles under `clippy -D warnings` is
//! checked by building `examples/generated-compile`, `ecommerce-app`, `ticketing-app`
//! and `tricky-names` in CI.)

mod corpus;

use corpus::example_models;
use cosmap_codegen::{render_data_access, render_rust, Templates, TypeMapping};
use cosmap_mapper::{map, Options};

/// The names `mod rt` defines with `fn`, each with the text outside that definition.
fn runtime_functions(text: &str) -> Vec<String> {
    let start = text.find("    mod rt {").expect("the data access has a runtime module");
    let end = start + text[start..].find("\n    }\n").expect("the runtime module ends");
    text[start..end]
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("pub(super) ").unwrap_or(l);
            let l = l.strip_prefix("async ").unwrap_or(l);
            let name = l.strip_prefix("fn ")?;
            Some(name[..name.find(['<', '('])?].to_string())
        })
        .collect()
}

/// Whether `name` is called in `text` (`name(`, `name::<`) or passed (`Op::name`), as a
/// whole word, not its definition.
fn called(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = &text[..at];
        let after = &text[at + name.len()..];
        !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && !before.ends_with("fn ")
            && (after.starts_with('(') || after.starts_with("::<") || before.ends_with("::"))
    })
}

#[test]
fn every_examples_data_access_has_no_blanket_allow_and_no_unused_helper() {
    let templates = Templates::load(None).expect("embedded templates compile");
    let models = example_models();
    assert!(models.len() >= 10, "the examples were found: {models:?}");
    for path in models {
        let model = cosmap_domain::load_file(&path).expect("a valid example");
        let text = render_data_access(&map(&model, &Options::default()), &TypeMapping::default(), &templates)
            .expect("renders");
        let types =
            render_rust(&map(&model, &Options::default()), &TypeMapping::default(), &templates).expect("renders");
        for blanket in [
            "allow(clippy::all",
            "allow(clippy::pedantic",
            "allow(clippy::nursery",
            "allow(dead_code",
            "allow(unused",
        ] {
            assert!(
                !text.contains(blanket),
                "{}: `{blanket}` in the data access",
                path.display()
            );
            assert!(!types.contains(blanket), "{}: `{blanket}` in the types", path.display());
        }
        for name in runtime_functions(&text) {
            assert!(
                called(&text, &name),
                "{}: the runtime helper `{name}` is generated but never called",
                path.display()
            );
        }
    }
}
