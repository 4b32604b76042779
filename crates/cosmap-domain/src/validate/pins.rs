//! Pins (`pins`): each names an optimisation and a subject the model has, once, and
//! never both kept and avoided.

use super::Checker;
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::{AccessKind, PinnedOptimisation, SubjectKind};
use crate::naming::closest;

impl Checker<'_> {
    /// Every pin's subject exists for its optimisation (an access pattern, an
    /// element's relationship property, an element), and no subject is pinned twice
    /// for one optimisation. Needs every element placed.
    pub(super) fn check_pins(&mut self) {
        let spec = self.spec;
        for (i, pin) in spec.pins.iter().enumerate() {
            let path = JsonPath::root().key("pins").index(i);
            let o = pin.optimisation;
            if let Some(j) = spec.pins[..i]
                .iter()
                .position(|p| p.optimisation == o && p.subject == pin.subject)
            {
                self.report(
                    Diagnostic::new(
                        path.key("subject"),
                        format!(
                            "`{}` of `{}` is pinned twice (also at pins[{j}])",
                            o.as_str(),
                            pin.subject
                        ),
                    )
                    .help("keep one pin per optimisation and subject: `keep` or `avoid`"),
                );
                continue;
            }
            if let Some(problem) = self.pin_subject_problem(o, &pin.subject) {
                self.report(problem.into_diagnostic(path.key("subject"), o, &pin.subject));
            }
        }
    }

    /// Why `subject` names nothing `o` can be made for, if it does not.
    fn pin_subject_problem(&self, o: PinnedOptimisation, subject: &str) -> Option<SubjectProblem> {
        let spec = self.spec;
        match o.subject_kind() {
            SubjectKind::AccessPattern => {
                let reads = spec.access_patterns.iter().filter(|p| p.kind == AccessKind::Read);
                if reads.clone().any(|p| p.name == subject) {
                    return None;
                }
                let near = closest(subject, reads.map(|p| p.name.as_str())).map(str::to_string);
                Some(SubjectProblem::NoRead { near })
            }
            SubjectKind::Element => {
                if self.is_entity(subject) {
                    return None;
                }
                let near = closest(subject, spec.entities.iter().map(|e| e.name.as_str())).map(str::to_string);
                Some(SubjectProblem::NoElement { near })
            }
            SubjectKind::Property => {
                let Some((element, rest)) = subject.split_once('.') else {
                    return Some(SubjectProblem::NotAPath);
                };
                if !self.index.elements.contains_key(element) {
                    let names = spec.entities.iter().map(|e| e.name.as_str());
                    let near = closest(element, names.chain(spec.value_objects.iter().map(|v| v.name.as_str())));
                    return Some(SubjectProblem::NoElement {
                        near: near.map(str::to_string),
                    });
                }
                // A count is a name the mapper gives; a reference's path ends in a
                // relationship's property.
                if o == PinnedOptimisation::ComputedValue || rest.is_empty() {
                    return (rest.is_empty()).then_some(SubjectProblem::NotAPath);
                }
                let last = rest.rsplit('.').next().unwrap_or(rest);
                let known = spec.relationships.iter().any(|r| r.property_name() == last);
                (!known).then_some(SubjectProblem::NoReference {
                    property: last.to_string(),
                })
            }
        }
    }
}

/// What is wrong with a pin's subject.
enum SubjectProblem {
    NoRead { near: Option<String> },
    NoElement { near: Option<String> },
    NotAPath,
    NoReference { property: String },
}

impl SubjectProblem {
    fn into_diagnostic(self, path: JsonPath, o: PinnedOptimisation, subject: &str) -> Diagnostic {
        let did_you_mean = |near: Option<String>| near.map(|n| format!("did you mean `{n}`? ")).unwrap_or_default();
        let (message, help) = match self {
            SubjectProblem::NoRead { near } => (
                format!("no read access pattern is named `{subject}`"),
                format!(
                    "{}a pin of `{}` names the read it serves, as `cosmap model` names the decision",
                    did_you_mean(near),
                    o.as_str()
                ),
            ),
            SubjectProblem::NoElement { near } => (
                format!("`{subject}` names no entity of the model"),
                format!(
                    "{}a pin of `{}` names {}",
                    did_you_mean(near),
                    o.as_str(),
                    if o.subject_kind() == SubjectKind::Element {
                        "the entity whose children it keeps"
                    } else {
                        "`Element.property`, as `cosmap model` names the decision"
                    }
                ),
            ),
            SubjectProblem::NotAPath => (
                format!("`{subject}` is not `Element.property`"),
                format!(
                    "a pin of `{}` names `Element.property`, as `cosmap model` names the decision",
                    o.as_str()
                ),
            ),
            SubjectProblem::NoReference { property } => (
                format!("`{property}` is no relationship's property, so `{subject}` names no reference"),
                format!(
                    "a pin of `{}` names a reference as `Holder.property`, as `cosmap model` names the decision",
                    o.as_str()
                ),
            ),
        };
        Diagnostic::new(path, message).help(help)
    }
}
