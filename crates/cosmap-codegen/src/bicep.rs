//! `containers.bicep`: the container definitions as Azure Resource Manager
//! resources. [`text`] writes it from its view, the one writer of the built-in
//! file (an override `containers.bicep.hbs` renders from the same view);
//! [`literal`] prints a value as a Bicep literal (for it, and for an override's
//! `bicep` helper).

use cosmap_mapper::LogicalModel;
use serde::Serialize;

use crate::spaces::push_spaces;
use serde_json::Value;

/// What `containers.bicep` is written from (and an override `containers.bicep.hbs`
/// renders from).
#[derive(Debug, Serialize)]
pub struct BicepView {
    /// The model's name.
    pub model: String,
    /// One resource per container, in the order of the container definitions.
    pub containers: Vec<BicepContainer>,
}

/// One container resource.
#[derive(Debug, Serialize)]
pub struct BicepContainer {
    /// Bicep symbolic name, for example `container_account`.
    pub symbol: String,
    /// The container's id.
    pub id: String,
    /// The `resource` object in the REST API's shape, its keys in declaration order.
    pub resource: Value,
}

/// The view for `model`.
pub fn view(model: &LogicalModel) -> BicepView {
    // Bicep symbols are case-insensitive and snake_case folds case: two container ids
    // may meet on one symbol, so a taken symbol gets the next free numeric suffix.
    let mut taken = std::collections::BTreeSet::new();
    BicepView {
        model: model.model.clone(),
        containers: model
            .container_definitions()
            .into_iter()
            .map(|d| {
                let base = format!("container_{}", cosmap_domain::naming::snake_case(&d.id));
                let mut symbol = base.clone();
                let mut n = 2;
                while !taken.insert(symbol.to_ascii_lowercase()) {
                    symbol = format!("{base}_{n}");
                    n += 1;
                }
                BicepContainer {
                    symbol,
                    id: d.id.clone(),
                    resource: serde_json::to_value(&d).unwrap_or(Value::Null),
                }
            })
            .collect(),
    }
}

/// The text of `containers.bicep` for `view`: the parameters, the database, and a
/// resource per container.
pub fn text(view: &BicepView) -> String {
    let mut out = crate::generated_line("//", &view.model);
    out.push_str(PREAMBLE);
    for c in &view.containers {
        out.push_str("\nresource ");
        out.push_str(&c.symbol);
        out.push_str(" 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-11-15' = {\n  parent: database\n  name: '");
        out.push_str(&c.id);
        out.push_str("'\n  properties: {\n    resource: ");
        write_literal(&mut out, &c.resource, 4);
        out.push_str("\n  }\n}\n");
    }
    out
}

/// What `containers.bicep` says after its first line, up to the containers.
const PREAMBLE: &str = r#"// Creates the database (if missing) and its containers in an existing Azure Cosmos DB
// for NoSQL account:
//   az deployment group create --resource-group <group> --template-file containers.bicep \
//     --parameters accountName=<account> databaseName=<database>

@description('Name of the existing Azure Cosmos DB for NoSQL account.')
param accountName string

@description('Name of the SQL database that holds the containers.')
param databaseName string

resource account 'Microsoft.DocumentDB/databaseAccounts@2024-11-15' existing = {
  name: accountName
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@2024-11-15' = {
  parent: account
  name: databaseName
  properties: {
    resource: {
      id: databaseName
    }
  }
}
"#;

/// `value` as a Bicep literal, nested lines indented by `indent` spaces.
#[cfg(any(test, feature = "templates"))]
pub(crate) fn literal(value: &Value, indent: usize) -> String {
    let mut out = String::new();
    write_literal(&mut out, value, indent);
    out
}

/// [`literal`], written at the end of `out`: one buffer for the whole value, instead
/// of a string per line at every level joined into its parent's.
fn write_literal(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            use std::fmt::Write as _;
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                push_spaces(out, indent + 2);
                write_literal(out, v, indent + 2);
            }
            out.push('\n');
            push_spaces(out, indent);
            out.push(']');
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                push_spaces(out, indent + 2);
                write_key(out, k);
                out.push_str(": ");
                write_literal(out, v, indent + 2);
            }
            out.push('\n');
            push_spaces(out, indent);
            out.push('}');
        }
    }
}

/// An object key: as it is when it is an identifier, else quoted.
fn write_key(out: &mut String, k: &str) {
    let mut chars = k.chars();
    let ident = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        out.push_str(k);
    } else {
        write_string(out, k);
    }
}

/// A single-quoted Bicep string: `\\`, `\'`, `\${` and `\n` escaped, the runs
/// between escapes copied whole.
fn write_string(out: &mut String, s: &str) {
    out.push('\'');
    let mut start = 0;
    for (i, byte) in s.bytes().enumerate() {
        let escape = match byte {
            b'\\' => "\\\\",
            b'\'' => "\\'",
            b'$' if s.as_bytes().get(i + 1) == Some(&b'{') => "\\$",
            b'\n' => "\\n",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        out.push_str(escape);
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('\'');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root entity `DICTIONARY` beside the shared `Dictionary` container: two
    /// container ids (Cosmos DB ids are case-sensitive) that meet on one snake_case
    /// symbol; Bicep symbols must differ (BCP028), so the second is numbered.
    #[test]
    fn container_symbols_are_unique_after_conversion() {
        let model = br#"{
          "name": "Shop",
          "entities": [
            {"name": "DICTIONARY", "identity": "dictionaryId", "attributes": []},
            {"name": "Entry", "identity": "entryId", "attributes": []},
            {"name": "Country", "identity": "countryId", "attributes": [], "referenceData": "rarely"}
          ],
          "aggregates": [{"root": "DICTIONARY", "members": ["Entry"]}, {"root": "Country"}],
          "relationships": [{"from": "DICTIONARY", "to": "Entry", "cardinality": "many"}]
        }"#;
        let model = cosmap_domain::from_slice(model, None).expect("valid");
        let view = view(&cosmap_mapper::map(&model, &cosmap_mapper::Options::default()));
        let pairs: Vec<(&str, &str)> = view
            .containers
            .iter()
            .map(|c| (c.id.as_str(), c.symbol.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("DICTIONARY", "container_dictionary"),
                ("Dictionary", "container_dictionary_2")
            ]
        );
    }

    /// The one-pass escaping is the chain of replacements it took the place of.
    #[test]
    fn strings_escape_as_the_replacements_did() {
        let replaced = |s: &str| {
            let escaped = s
                .replace('\\', "\\\\")
                .replace('\'', "\\'")
                .replace("${", "\\${")
                .replace('\n', "\\n");
            format!("'{escaped}'")
        };
        for s in [
            "",
            "plain",
            "it's",
            "${x}",
            "$${x}",
            "$",
            "x$",
            "{$}",
            "a\\b",
            "\\${",
            "'\n'",
            "é ${ü}\n\\'",
        ] {
            let mut out = String::new();
            write_string(&mut out, s);
            assert_eq!(out, replaced(s), "{s:?}");
        }
    }

    #[test]
    fn prints_bicep_literals() {
        let v = serde_json::json!({"id": "A", "paths": ["/a"], "excludedPaths": [{"path": "/\"_etag\"/?"}], "n": 2, "it's": "${x}"});
        assert_eq!(
            literal(&v, 0),
            "{\n  id: 'A'\n  paths: [\n    '/a'\n  ]\n  excludedPaths: [\n    {\n      path: '/\"_etag\"/?'\n    }\n  ]\n  n: 2\n  'it\\'s': '\\${x}'\n}"
        );
    }
}
