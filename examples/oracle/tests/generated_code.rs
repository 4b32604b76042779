//! Every example's generated data access under `cosmap verify`'s judge: for each
//! example, `verify_generated` runs every read with the main answer taken from the
//! generated method (every binding verify draws from its samples, and its probes),
//! judged by the same expectations as the plan's requests. Every generated read method
//! must be called and pass; every other access pattern (the writes, what is not
//! generated) is counted and listed with why, as `cosmap-verify`'s drawn-model test
//! counts the engine's limits.

use std::cell::RefCell;
use std::collections::BTreeSet;

use cosmap_verify::generated::{Answering, Binding};
use cosmap_verify::{verify_generated, Answerer, Report};
use oracle::{Example, EXAMPLES};

/// An example's dispatch that records which patterns it was asked for.
struct Recording<'e> {
    example: &'e Example,
    asked: RefCell<BTreeSet<String>>,
}

impl Answerer for Recording<'_> {
    fn answers(&self, pattern: &str) -> bool {
        self.example.answers(pattern)
    }

    fn answer<'a>(
        &'a self,
        database: &'a azure_data_cosmos::clients::DatabaseClient,
        pattern: &'a str,
        binding: &'a Binding,
    ) -> Answering<'a> {
        self.asked.borrow_mut().insert(pattern.to_string());
        self.example.answer(database, pattern, binding)
    }
}

/// A dispatch that answers every read it knows with nothing.
struct Empty<'e>(&'e Example);

impl Answerer for Empty<'_> {
    fn answers(&self, pattern: &str) -> bool {
        self.0.answers(pattern)
    }

    fn answer<'a>(
        &'a self,
        _: &'a azure_data_cosmos::clients::DatabaseClient,
        _: &'a str,
        _: &'a Binding,
    ) -> Answering<'a> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

fn model(example: &Example) -> (cosmap_domain::DomainModel, cosmap_mapper::LogicalModel) {
    let domain = cosmap_domain::load_file(std::path::Path::new(example.model))
        .unwrap_or_else(|e| panic!("{}: {e}", example.name));
    let logical = cosmap_mapper::map(&domain, &cosmap_mapper::Options::default());
    (domain, logical)
}

/// Each failed pattern of `report`, with the first failed request's reason.
fn failures(example: &Example, report: &Report) -> Vec<String> {
    report
        .patterns
        .iter()
        .filter(|p| !p.passed)
        .map(|p| {
            let reason = p
                .requests
                .iter()
                .find_map(|r| r.reason.clone())
                .or_else(|| p.reason.clone())
                .unwrap_or_default();
            format!("{}: `{}`: {reason}", example.name, p.pattern)
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn every_generated_read_method_returns_what_verify_expects() {
    let (mut proven, mut not_judged, mut problems) = (0, Vec::new(), Vec::new());
    for example in EXAMPLES {
        let (domain, logical) = model(example);
        let recording = Recording {
            example,
            asked: RefCell::new(BTreeSet::new()),
        };
        let report = verify_generated(&domain, &logical, &recording)
            .await
            .unwrap_or_else(|e| panic!("{}: verify runs: {e}", example.name));
        problems.extend(failures(example, &report));
        let asked = recording.asked.into_inner();
        for pattern in example.answers {
            if asked.contains(*pattern) {
                proven += 1;
            } else {
                problems.push(format!(
                    "{}: `{pattern}`: its generated method was never called",
                    example.name
                ));
            }
        }
        for p in domain.access_patterns() {
            let named = format!("`{}`", p.name);
            let called = example.answers.contains(&p.name.as_str());
            let listed = example
                .not_judged
                .iter()
                .find(|(name, _)| *name == p.name)
                .map(|(_, why)| *why);
            match (called, listed, example.skipped.iter().find(|s| s.contains(&named))) {
                (true, None, None) => {}
                (false, Some(why), None) => not_judged.push(format!("{}: {named}: {why}", example.name)),
                (false, None, Some(why)) => not_judged.push(format!("{}: not generated: {why}", example.name)),
                _ => problems.push(format!("{}: {named} is not accounted for once", example.name)),
            }
        }
    }
    println!(
        "{proven} generated read methods proven; not called ({}):",
        not_judged.len()
    );
    for line in &not_judged {
        println!("  {line}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(proven >= 60, "only {proven} generated read methods were called");
}

/// The judge looks at what the generated methods return: a dispatch that answers
/// nothing fails every read it answers, and nothing else.
#[tokio::test(flavor = "current_thread")]
async fn generated_methods_that_return_nothing_fail() {
    for example in EXAMPLES {
        let (domain, logical) = model(example);
        let report = verify_generated(&domain, &logical, &Empty(example))
            .await
            .unwrap_or_else(|e| panic!("{}: verify runs: {e}", example.name));
        let failed: BTreeSet<&str> = report
            .patterns
            .iter()
            .filter(|p| !p.passed)
            .map(|p| p.pattern.as_str())
            .collect();
        let answered: BTreeSet<&str> = example.answers.iter().copied().collect();
        assert_eq!(failed, answered, "{}", example.name);
    }
}
