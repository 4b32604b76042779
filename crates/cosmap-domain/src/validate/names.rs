//! Names: each must be usable as a Rust identifier and a JSON property, and unique.

use std::collections::hash_map::Entry;

use crate::name_lookup::{name_map, NameMap};

use super::{Checker, ElementId};
use crate::diagnostic::{Diagnostic, JsonPath};
use crate::model::Attribute;
use crate::naming::{
    field_ident, is_hidden_char, is_lower_camel, is_upper_camel, lower_camel, method_ident, snake_case,
    unnormalised_ident_char, upper_camel, MAX_TYPE_NAME_CHARS, NON_RAW_KEYWORDS, RESERVED_PROPERTIES,
};

impl Checker<'_> {
    /// The model's name and description, and the names of entities and value objects
    /// (each declared once): fills the index's `elements`.
    pub(super) fn check_element_names(&mut self) {
        let spec = self.spec;
        if spec.name.trim().is_empty() {
            self.report(
                Diagnostic::new(JsonPath::root().key("name"), "the model's `name` is empty")
                    .help("give the model a name, for example `\"name\": \"Ecommerce\"`"),
            );
        } else if spec.name.chars().any(is_hidden_char) || spec.name.chars().count() > 200 {
            self.report(
                Diagnostic::new(
                    JsonPath::root().key("name"),
                    "the model's `name` has control, text-direction or other invisible characters, or is over 200 characters",
                )
                .help("it appears in generated file headers and comments: use one short line of visible text, for example `\"Ecommerce\"`"),
            );
        }
        if let Some(description) = &spec.description {
            self.check_visible_text(
                description,
                || JsonPath::root().key("description"),
                "the model's `description`",
            );
        }
        // Where each name was first declared is the index's `elements` (sized for them
        // by `Index::sized_for`; a path is built only for a problem). Names in ASCII
        // lower case: a second name with the same lower case differs only by case.
        let mut folded: NameMap<String, (&str, ElementId)> = name_map(spec.entities.len() + spec.value_objects.len());
        let elements = spec
            .entities
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), ElementId::Entity(i)))
            .chain(
                spec.value_objects
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (v.name.as_str(), ElementId::ValueObject(i))),
            );
        for (name, id) in elements {
            // Built only for a problem: a valid model needs no path.
            let path = || Self::element_path(id);
            let what = if matches!(id, ElementId::Entity(_)) {
                "entity"
            } else {
                "value object"
            };
            self.check_type_name(name, || path().key("name"), what);
            if let Some(&first) = self.index.elements.get(name) {
                let msg = format!("`{name}` is declared twice (first at {})", Self::element_path(first));
                self.report(Diagnostic::new(path().key("name"), msg).help("rename one of them or remove the copy"));
            } else {
                match folded.entry(name.to_ascii_lowercase()) {
                    Entry::Occupied(seen) => {
                        let &(other, first) = seen.get();
                        let first = Self::element_path(first).key("name");
                        let msg = format!("`{name}` and `{other}` (at {first}) differ only by case");
                        self.report(Diagnostic::new(path().key("name"), msg).help(format!(
                            "rename one: both would give the snake_case name `{}` (Rust modules, Bicep symbols) and the same file names on case-insensitive file systems (Windows, macOS)",
                            snake_case(name)
                        )));
                    }
                    Entry::Vacant(slot) => {
                        slot.insert((name, id));
                    }
                }
                self.index.elements.insert(name, id);
            }
        }
    }

    /// The other names (identities, attributes, aggregates, properties, access
    /// patterns) and descriptions: reads only the model, not the index.
    pub(super) fn check_other_names(&mut self) {
        let spec = self.spec;
        for (i, entity) in spec.entities.iter().enumerate() {
            // Built only for a problem: a valid model needs no path.
            let path = || Self::entity_path(i);
            self.check_property_name(&entity.identity, || path().key("identity"), "identity");
            if entity.identity == "id" {
                self.report(
                    Diagnostic::new(path().key("identity"), "the identity must not be called `id`")
                        .help(format!(
                            "name it after the entity, for example `{}Id`: cosmap stores it in `id` and partitions and refers by this name",
                            lower_camel(&entity.name)
                        )),
                );
            }
            if let Some(description) = &entity.description {
                self.check_visible_text(description, || path().key("description"), "the entity's `description`");
            }
            self.check_attributes(&entity.attributes, &path, Some(&entity.identity));
        }
        for (i, vo) in spec.value_objects.iter().enumerate() {
            let path = || Self::value_object_path(i);
            if vo.identity.is_some() {
                self.report(
                    Diagnostic::new(path().key("identity"), format!("value object `{}` has an identity", vo.name)).help(
                        format!(
                            "value objects have no identity: remove `identity`, or move `{}` to `entities` if its instances need one",
                            vo.name
                        ),
                    ),
                );
            }
            if let Some(description) = &vo.description {
                self.check_visible_text(
                    description,
                    || path().key("description"),
                    "the value object's `description`",
                );
            }
            self.check_attributes(&vo.attributes, &path, None);
        }
        let mut aggregates: NameMap<&str, usize> = name_map(spec.aggregates.len());
        for (i, aggregate) in spec.aggregates.iter().enumerate() {
            let path = || JsonPath::root().key("aggregates").index(i);
            if let Some(name) = &aggregate.name {
                self.check_type_name(name, || path().key("name"), "aggregate");
            }
            let name = aggregate.display_name();
            if let Some(first) = aggregates.insert(name, i) {
                let msg = format!("aggregate `{name}` is declared twice (first at $.aggregates[{first}])");
                self.report(Diagnostic::new(path(), msg).help("merge the two aggregates or rename one"));
            }
        }
        for (i, rel) in spec.relationships.iter().enumerate() {
            if let Some(property) = &rel.property {
                let path = || JsonPath::root().key("relationships").index(i).key("property");
                self.check_property_name(property, path, "property");
            }
        }
        self.check_pattern_names();
    }

    /// Access pattern names: visible text, no backtick, each once, and each its own
    /// generated method ([`method_ident`], the rule code generation names methods by).
    fn check_pattern_names(&mut self) {
        let spec = self.spec;
        let mut patterns: NameMap<&str, usize> = name_map(spec.access_patterns.len());
        let mut methods: NameMap<String, usize> = name_map(spec.access_patterns.len());
        for (i, pattern) in spec.access_patterns.iter().enumerate() {
            let path = || JsonPath::root().key("accessPatterns").index(i).key("name");
            if pattern.name.trim().is_empty() {
                self.report(
                    Diagnostic::new(path(), "the access pattern's name is empty")
                        .help("name it after what it does, for example `orders of an account`"),
                );
            } else if pattern.name.chars().any(is_hidden_char) {
                self.check_visible_text(&pattern.name, path, "the access pattern's name");
            } else if pattern.name.contains('`') {
                self.report(
                    Diagnostic::new(path(), format!("the access pattern's name `{}` holds a backtick", pattern.name))
                        .help("remove it: the name is quoted as code in the generated docs and diagram (model.mmd), where a backtick ends the quote or starts a Markdown label"),
                );
            } else if let Some(first) = patterns.insert(pattern.name.as_str(), i) {
                let msg = format!(
                    "access pattern `{}` is declared twice (first at $.accessPatterns[{first}])",
                    pattern.name
                );
                self.report(Diagnostic::new(path(), msg).help("give each access pattern its own name"));
            } else if let Some(c) = unnormalised_ident_char(&pattern.name) {
                self.report(
                    Diagnostic::new(
                        path(),
                        format!(
                            "the access pattern's name `{}` holds U+{:04X}, which Rust may read as another character in the generated method name",
                            pattern.name, c as u32
                        ),
                    )
                    .help("write each letter as one precomposed character (`ñ`, not `n` and a combining tilde)"),
                );
            } else {
                let ident = method_ident(&pattern.name);
                match methods.entry(ident) {
                    Entry::Occupied(seen) => {
                        let first = *seen.get();
                        let msg = format!(
                            "access patterns `{}` and `{}` (at {}) both become the generated method `{}()`",
                            pattern.name,
                            spec.access_patterns[first].name,
                            JsonPath::root().key("accessPatterns").index(first).key("name"),
                            seen.key()
                        );
                        self.report(Diagnostic::new(path(), msg).help(
                            "rename one so that they differ in more than case, spaces or punctuation: otherwise one method would silently get a trailing `_`, and callers of the other could run this query",
                        ));
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(i);
                    }
                }
            }
        }
    }

    /// Checks the attributes of the element at `path` (built only for a problem).
    fn check_attributes(&mut self, attributes: &[Attribute], path: &dyn Fn() -> JsonPath, identity: Option<&str>) {
        // Each name's last declaration so far: the one a second is reported against.
        let mut seen: NameMap<&str, usize> = NameMap::default();
        for (j, attribute) in attributes.iter().enumerate() {
            // Paths are built only for a problem: a valid model needs none.
            let at = || path().key("attributes").index(j).key("name");
            self.check_property_name(&attribute.name, at, "attribute");
            self.check_default(attribute, || path().key("attributes").index(j));
            if let Some(description) = &attribute.description {
                let place = || path().key("attributes").index(j).key("description");
                self.check_visible_text(description, place, "the attribute's `description`");
            }
            if Some(attribute.name.as_str()) == identity {
                let msg = format!("`{}` is the identity and also an attribute", attribute.name);
                self.report(
                    Diagnostic::new(at(), msg).help("remove it from `attributes`: the identity is always stored"),
                );
            } else if let Some(first) = seen.insert(attribute.name.as_str(), j) {
                let msg = format!(
                    "attribute `{}` is declared twice (first at {})",
                    attribute.name,
                    path().key("attributes").index(first)
                );
                self.report(Diagnostic::new(at(), msg).help("remove or rename one of them"));
            } else if let Some((other, place)) = ident_clash(attributes, j, identity) {
                let other_path = match place {
                    Some(k) => path().key("attributes").index(k).key("name"),
                    None => path().key("identity"),
                };
                let msg = format!(
                    "`{}` and `{other}` (at {other_path}) both become the Rust field `{}`",
                    attribute.name,
                    field_ident(other)
                );
                self.report(Diagnostic::new(at(), msg).help(
                    "rename one so that they differ in more than the case of their letters: one field would otherwise get a trailing `_`",
                ));
            }
        }
    }

    /// Reports free text (`what`) that holds control, text-direction or other
    /// invisible characters: it is printed and copied into generated files, where such
    /// a character can drive a terminal or make code read differently from what it is.
    pub(super) fn check_visible_text(&mut self, text: &str, path: impl FnOnce() -> JsonPath, what: &str) {
        if let Some(c) = text.chars().find(|&c| is_hidden_char(c)) {
            self.report(
                Diagnostic::new(
                    path(),
                    format!("{what} holds the invisible or control character U+{:04X}", c as u32),
                )
                .help("remove it: write plain visible text (control and text-direction characters are refused)"),
            );
        }
    }

    /// Checks the name of an entity, value object or aggregate (`what`).
    fn check_type_name(&mut self, name: &str, path: impl FnOnce() -> JsonPath, what: &str) {
        if name.is_empty() {
            self.report(
                Diagnostic::new(path(), format!("the {what}'s name is empty"))
                    .help("give it an UpperCamelCase name, for example `OrderItem`"),
            );
        } else if name.chars().count() > MAX_TYPE_NAME_CHARS {
            let shown: String = name.chars().take(40).collect();
            self.report(
                Diagnostic::new(
                    path(),
                    format!(
                        "the {what}'s name `{shown}…` is {} characters long; cosmap allows at most {MAX_TYPE_NAME_CHARS}",
                        name.chars().count()
                    ),
                )
                .help("shorten it: it becomes a Cosmos DB container id (at most 255 characters) and a file name (at most 255 bytes)"),
            );
        } else if NON_RAW_KEYWORDS.contains(&name) {
            self.report(
                Diagnostic::new(path(), format!("`{name}` is a Rust keyword and cannot name a type"))
                    .help("choose another name"),
            );
        } else if let Some(problem) = not_in_case(path, name, &TYPE_NAMES) {
            self.report(problem);
        }
    }

    fn check_property_name(&mut self, name: &str, path: impl FnOnce() -> JsonPath, what: &str) {
        if name.is_empty() {
            self.report(
                Diagnostic::new(path(), format!("the {what} name is empty"))
                    .help("give it a lowerCamelCase name, for example `createdAt`"),
            );
        } else if NON_RAW_KEYWORDS.contains(&name) {
            self.report(
                Diagnostic::new(
                    path(),
                    format!("`{name}` is a Rust keyword that cannot be a field name"),
                )
                .help("choose another name"),
            );
        } else if RESERVED_PROPERTIES.contains(&name) && !(what == "identity" && name == "id") {
            self.report(
                Diagnostic::new(path(), format!("`{name}` is a property every document already has"))
                    .help("`id`, `type` and `ttl` are set by cosmap and Cosmos DB: choose another name, for example a prefixed one"),
            );
        } else if let Some(problem) = not_in_case(path, name, &PROPERTY_NAMES) {
            self.report(problem);
        }
    }
}

/// An earlier name of the element (the identity, or the `k`th attribute: `Some(k)`)
/// that differs from the `j`th attribute's but gives the same Rust field
/// ([`field_ident`]). Such names are equal ignoring ASCII case (lowerCamelCase names
/// hold no `_`): only those are compared by identifier.
fn ident_clash<'m>(
    attributes: &'m [Attribute],
    j: usize,
    identity: Option<&'m str>,
) -> Option<(&'m str, Option<usize>)> {
    let name = attributes[j].name.as_str();
    let clashes =
        |other: &str| other != name && other.eq_ignore_ascii_case(name) && field_ident(other) == field_ident(name);
    if let Some(identity) = identity.filter(|i| clashes(i)) {
        return Some((identity, None));
    }
    attributes[..j]
        .iter()
        .position(|a| clashes(&a.name))
        .map(|k| (attributes[k].name.as_str(), Some(k)))
}

/// `order_item` / `order-item` / `order item` → `orderItem` (best effort, for hints).
fn to_camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper_next = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' {
            upper_next = !out.is_empty();
        } else if c.is_ascii_alphanumeric() {
            out.push(if upper_next { c.to_ascii_uppercase() } else { c });
            upper_next = false;
        }
    }
    out
}

/// The case the names of one kind are in: its name, its test, the conversion a hint
/// suggests, what cosmap derives from such names, and an example.
struct Case {
    name: &'static str,
    is: fn(&str) -> bool,
    to: fn(&str) -> String,
    needs: &'static str,
    example: &'static str,
}

/// The case of entity, value object and aggregate names.
const TYPE_NAMES: Case = Case {
    name: "UpperCamelCase",
    is: is_upper_camel,
    to: upper_camel,
    needs: "derive Rust type names from it",
    example: "OrderItem",
};

/// The case of attribute, identity and property names.
const PROPERTY_NAMES: Case = Case {
    name: "lowerCamelCase",
    is: is_lower_camel,
    to: lower_camel,
    needs: "derive JSON properties and Rust field names from it",
    example: "createdAt",
};

/// Why `name` (at `at`) is not in `case`, with the name put in it as the hint (or the
/// case's example, when that is no plain ASCII name); none when it is in `case`.
fn not_in_case(at: impl FnOnce() -> JsonPath, name: &str, case: &Case) -> Option<Diagnostic> {
    if (case.is)(name) {
        return None;
    }
    let Case { name: form, needs, .. } = case;
    let suggestion = (case.to)(&to_camel(name));
    let plain = suggestion.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && suggestion.chars().all(|c| c.is_ascii_alphanumeric());
    let shown = if plain { suggestion.as_str() } else { case.example };
    let problem = Diagnostic::new(at(), format!("`{name}` is not {form}, which cosmap needs to {needs}"));
    Some(problem.help(format!("use {form} ASCII letters and digits, for example `{shown}`")))
}
