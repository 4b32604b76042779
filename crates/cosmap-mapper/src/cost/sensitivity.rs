//! `cosmap cost --sensitivity`: how the design changes when each access pattern's rate
//! and each entity's count is halved or doubled — the decisions that flip, so a user
//! sees which figures the design hangs on before trusting it.

use std::collections::BTreeMap;

use cosmap_domain::{DomainModel, ModelSpec};
use serde::Serialize;

use crate::decision::Rule;
use crate::options::Options;

/// The factors every rate and volume is tried at.
const FACTORS: [f64; 2] = [0.5, 2.0];

/// The design with one figure changed: what it changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sensitivity {
    /// The figure changed, in words: "`orders of an account` runs 250/s (0.5×)".
    pub figure: String,
    /// The factor it was multiplied by.
    pub factor: f64,
    /// Each decision that flips: rule, subject, outcome before and after.
    pub changes: Vec<Flip>,
}

/// One decision whose outcome differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Flip {
    /// The decision's rule.
    pub rule: Rule,
    /// What it decides about.
    pub subject: String,
    /// Its outcome with today's figures (`None`: not decided then).
    pub before: Option<String>,
    /// Its outcome with the figure changed (`None`: not decided then).
    pub after: Option<String>,
}

/// The figures of `model` halved and doubled one at a time (each pattern's rate, each
/// entity's declared count), mapped with `options`: every one that flips a decision,
/// with the decisions it flips (indexing and the TTL a copy turns on follow the
/// others, and are left out).
pub fn sensitivity(model: &DomainModel, options: &Options) -> Vec<Sensitivity> {
    let base = outcomes(model, options);
    let mut out = Vec::new();
    for (figure, factor, spec) in variants(model.spec()) {
        let Ok(changed) = DomainModel::new(spec) else {
            continue; // a figure out of its range at this factor: not a design
        };
        let after = outcomes(&changed, options);
        let changes = flips(&base, &after);
        if !changes.is_empty() {
            out.push(Sensitivity {
                figure,
                factor,
                changes,
            });
        }
    }
    out
}

/// Each variant of `spec`: its words, factor and the changed spec.
fn variants(spec: &ModelSpec) -> Vec<(String, f64, ModelSpec)> {
    let mut out = Vec::new();
    for (i, p) in spec.access_patterns.iter().enumerate() {
        for factor in FACTORS {
            let mut changed = spec.clone();
            changed.access_patterns[i].per_second = p.per_second * factor;
            let rate = crate::statistics::human_rate(p.per_second * factor);
            out.push((format!("`{}` runs {rate} ({factor}×)", p.name), factor, changed));
        }
    }
    for (i, e) in spec.entities.iter().enumerate() {
        let Some(count) = e.volume.as_ref().and_then(|v| v.count) else {
            continue;
        };
        for factor in FACTORS {
            let mut changed = spec.clone();
            if let Some(v) = changed.entities[i].volume.as_mut() {
                v.count = Some((count * factor).round().max(1.0));
            }
            let shown = crate::statistics::human_count(count * factor);
            out.push((format!("`{}` counts {shown} ({factor}×)", e.name), factor, changed));
        }
    }
    out
}

/// Each decision's outcome by rule and subject (the last one recorded for each).
fn outcomes(model: &DomainModel, options: &Options) -> BTreeMap<(Rule, String), String> {
    crate::map(model, options)
        .decisions
        .into_iter()
        .filter(|d| !matches!(d.rule, Rule::Indexing | Rule::CopySource))
        .map(|d| ((d.rule, d.subject), d.outcome))
        .collect()
}

/// The decisions whose outcome differs between `before` and `after`.
fn flips(before: &BTreeMap<(Rule, String), String>, after: &BTreeMap<(Rule, String), String>) -> Vec<Flip> {
    let mut keys: Vec<&(Rule, String)> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|(rule, subject)| Flip {
            rule: *rule,
            subject: subject.clone(),
            before: before.get(&(*rule, subject.clone())).cloned(),
            after: after.get(&(*rule, subject.clone())).cloned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The e-commerce example's key for presented products (a hierarchical key by
    /// country) hangs on how many countries there are: doubling them flips it, and the
    /// flip names the decision, before and after.
    #[test]
    fn a_figure_the_design_hangs_on_is_found_with_the_decision_it_flips() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ecommerce/model.json");
        let model = cosmap_domain::load_file(&path).expect("the example");
        let found = sensitivity(&model, &Options::default());
        let countries = found
            .iter()
            .find(|s| s.figure.starts_with("`Country` counts") && s.factor == 2.0)
            .expect("doubling the countries flips something");
        let flip = countries
            .changes
            .iter()
            .find(|f| f.rule == Rule::PartitionKey && f.subject == "PresentedProduct")
            .expect("the presented products' key");
        assert_ne!(flip.before, flip.after);
        for s in &found {
            assert!(s.factor == 0.5 || s.factor == 2.0);
            assert!(s.changes.iter().all(|f| f.before != f.after), "{s:?}");
        }
    }
}
