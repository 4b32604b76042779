//! `containers.bicep`: the container definitions as Azure Resource Manager
//! resources, and the `bicep` template helper that prints a value as a Bicep literal.

use cosmap_mapper::LogicalModel;
use handlebars::{Context, Handlebars, Helper, HelperResult, Output, RenderContext, RenderErrorReason};
use serde::Serialize;
use serde_json::Value;

/// What `containers.bicep.hbs` renders.
#[derive(Debug, Serialize)]
pub struct BicepView {
    pub model: String,
    pub containers: Vec<BicepContainer>,
}

/// One container resource.
#[derive(Debug, Serialize)]
pub struct BicepContainer {
    /// Bicep symbolic name, for example `container_account`.
    pub symbol: String,
    pub id: String,
    /// The `resource` object in the REST API's shape.
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

/// `{{bicep value indent}}`: `value` as a Bicep literal, nested lines indented by `indent` spaces.
pub fn helper(h: &Helper, _: &Handlebars, _: &Context, _: &mut RenderContext, out: &mut dyn Output) -> HelperResult {
    let value = h
        .param(0)
        .ok_or(RenderErrorReason::ParamNotFoundForIndex("bicep", 0))?
        .value();
    let indent = h.param(1).and_then(|p| p.value().as_u64()).unwrap_or(0) as usize;
    out.write(&literal(value, indent))?;
    Ok(())
}

fn literal(value: &Value, indent: usize) -> String {
    let pad = " ".repeat(indent + 2);
    let end = " ".repeat(indent);
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s),
        Value::Array(items) if items.is_empty() => "[]".to_string(),
        Value::Array(items) => {
            let lines: Vec<String> = items
                .iter()
                .map(|v| format!("{pad}{}", literal(v, indent + 2)))
                .collect();
            format!("[\n{}\n{end}]", lines.join("\n"))
        }
        Value::Object(map) if map.is_empty() => "{}".to_string(),
        Value::Object(map) => {
            let lines: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{pad}{}: {}", key(k), literal(v, indent + 2)))
                .collect();
            format!("{{\n{}\n{end}}}", lines.join("\n"))
        }
    }
}

fn key(k: &str) -> String {
    let mut chars = k.chars();
    let ident = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        k.to_string()
    } else {
        string(k)
    }
}

fn string(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('\'', "\\'")
        .replace("${", "\\${")
        .replace('\n', "\\n");
    format!("'{escaped}'")
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

    #[test]
    fn prints_bicep_literals() {
        let v = serde_json::json!({"id": "A", "paths": ["/a"], "excludedPaths": [{"path": "/\"_etag\"/?"}], "n": 2, "it's": "${x}"});
        assert_eq!(
            literal(&v, 0),
            "{\n  id: 'A'\n  paths: [\n    '/a'\n  ]\n  excludedPaths: [\n    {\n      path: '/\"_etag\"/?'\n    }\n  ]\n  n: 2\n  'it\\'s': '\\${x}'\n}"
        );
    }
}
