//! `overridden_by`: the decisions a later rule overrode, on the bundled examples.

use cosmap_mapper::{map, overridden_by, Options, Rule};

mod common;

fn logical(example: &str, options: &Options) -> cosmap_mapper::LogicalModel {
    map(&common::example(example), options)
}

/// (rule, subject, overriding rule) of every overridden decision.
fn overridden(model: &cosmap_mapper::LogicalModel) -> Vec<(Rule, String, Rule)> {
    model
        .decisions
        .iter()
        .zip(overridden_by(model))
        .filter_map(|(d, by)| by.map(|i| (d.rule, d.subject.clone(), model.decisions[i].rule)))
        .collect()
}

#[test]
fn dictionaries_and_embedded_reference_data_override_earlier_decisions() {
    let model = logical("ecommerce", &Options::default());
    let found = overridden(&model);
    for name in ["Country", "DeliveryMethod", "Warehouse"] {
        assert!(
            found.contains(&(Rule::Mr1, name.to_string(), Rule::Mr5)),
            "{name}: {found:?}"
        );
        assert!(
            found.contains(&(Rule::Mr2, name.to_string(), Rule::Mr5)),
            "{name}: {found:?}"
        );
    }
    assert!(found.contains(&(Rule::Mr6, "Warehouse.country".to_string(), Rule::EmbedReferenceData)));
    // And PresentedProduct's key by product gives way to a hierarchical key by country.
    assert!(found.contains(&(Rule::Mr2, "PresentedProduct".to_string(), Rule::PartitionKey)));
    assert_eq!(found.len(), 11, "{found:?}");
    assert!(!found.iter().any(|(_, subject, _)| subject == "Account"), "{found:?}");
}

#[test]
fn without_optimisations_references_stand_and_kept_containers_are_not_overridden() {
    let model = logical("ecommerce", &Options::default().optimise(false));
    assert!(!overridden(&model).iter().any(|(rule, _, _)| *rule == Rule::Mr6));
    // publishing: a large and a hot orphan aggregate keep their own containers (MR5 decides
    // about them too, but leaves MR1 standing).
    let publishing = logical("publishing", &Options::default());
    for (d, by) in publishing.decisions.iter().zip(overridden_by(&publishing)) {
        if d.rule == Rule::Mr1 && by.is_some() {
            assert!(
                publishing.container(&d.subject).is_none(),
                "{} has its container",
                d.subject
            );
        }
        if d.rule == Rule::Mr1 && by.is_none() {
            assert!(
                publishing.container(&d.subject).is_some(),
                "{} lost its container",
                d.subject
            );
        }
    }
}
