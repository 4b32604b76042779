//! The model's pins (`pins`): an optimisation of one subject kept whatever it costs,
//! or never made. The weighing ([`super::weigh`]) applies them; a pin that no
//! candidate answered is recorded, so a misnamed subject never passes unseen.

use cosmap_domain::{DomainModel, Pin, PinChoice, PinnedOptimisation};

use crate::decision::{Decision, Rule, Trace};

/// The rule whose decisions a pinned optimisation's are.
pub(crate) fn rule_of(o: PinnedOptimisation) -> Rule {
    match o {
        PinnedOptimisation::Copy => Rule::Copy,
        PinnedOptimisation::Feed => Rule::Feed,
        PinnedOptimisation::ExtendedReference => Rule::ExtendedReference,
        PinnedOptimisation::ComputedValue => Rule::ComputedValue,
        PinnedOptimisation::Subset => Rule::Subset,
        PinnedOptimisation::TreeAncestors => Rule::TreeAncestors,
        PinnedOptimisation::Bucket => Rule::Bucket,
    }
}

/// The pins of one rule's optimisation.
pub(crate) struct Pins<'m> {
    pins: Vec<&'m Pin>,
}

impl<'m> Pins<'m> {
    /// `model`'s pins of `rule`.
    pub(crate) fn of(model: &'m DomainModel, rule: Rule) -> Self {
        Pins {
            pins: model
                .pins()
                .iter()
                .filter(|p| rule_of(p.optimisation) == rule)
                .collect(),
        }
    }

    /// How `subject` is pinned, if it is.
    pub(crate) fn choice(&self, subject: &str) -> Option<PinChoice> {
        self.pins.iter().find(|p| p.subject == subject).map(|p| p.pin)
    }
}

/// Marks `decision` as pinned by `choice`: what the pin costs against the design the
/// search would have chosen (`saves` and `adds` of the candidate; a keep costs what it
/// adds beyond its saving, an avoid the saving it forgoes), in its evidence and reason.
pub(crate) fn mark(decision: &mut Decision, choice: PinChoice, saves: f64, adds: f64) {
    use crate::statistics::{about, human_ru_per_second};
    let (word, costs) = match choice {
        PinChoice::Keep => ("keep", (adds - saves).max(0.0)),
        PinChoice::Avoid => ("avoid", (saves - adds).max(0.0)),
    };
    decision.reason = match choice {
        PinChoice::Keep => format!("pinned by the model (`keep`): {}", decision.reason),
        PinChoice::Avoid => {
            // The figure at which it would flip, as the weighing stated it, stays.
            let break_even = decision
                .reason
                .split_once("; break-even: ")
                .map(|(_, sentence)| format!("; break-even: {sentence}"))
                .unwrap_or_default();
            format!(
                "pinned by the model (`avoid`); made, it would save {} and add {}{break_even}",
                about(human_ru_per_second(saves)),
                about(human_ru_per_second(adds))
            )
        }
    };
    decision
        .with("pinned", word)
        .with("pinCostsRuPerSecond", crate::cost::units::round(costs));
}

/// Records every pin of `model` that no decision answered (its subject was never a
/// candidate of its optimisation), naming the subjects that were.
pub(crate) fn record_unanswered(model: &DomainModel, trace: &mut Trace) {
    for pin in model.pins() {
        let rule = rule_of(pin.optimisation);
        let answered = trace
            .decisions()
            .any(|d| d.rule == rule && d.subject == pin.subject && d.evidence.get("pinned").is_some());
        if answered {
            continue;
        }
        let mut candidates: Vec<String> = trace
            .decisions()
            .filter(|d| d.rule == rule)
            .map(|d| format!("`{}`", d.subject))
            .collect();
        candidates.sort();
        candidates.dedup();
        let weighed = if candidates.is_empty() {
            format!("no `{}` was weighed for this model", rule.as_str())
        } else {
            format!("the `{}` weighed: {}", rule.as_str(), candidates.join(", "))
        };
        trace
            .record(
                rule,
                pin.subject.clone(),
                "pin not applied",
                format!(
                    "the model pins `{}` of `{}` ({}), but it was never a candidate: {weighed}",
                    rule.as_str(),
                    pin.subject,
                    match pin.pin {
                        PinChoice::Keep => "keep",
                        PinChoice::Avoid => "avoid",
                    }
                ),
            )
            .with("pinned", "unanswered");
    }
}
