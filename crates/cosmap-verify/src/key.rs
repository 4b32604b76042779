//! A sample's partition key value: one string per level of its container's key
//! (one, unless the key is hierarchical), and its forms for the SDK, JSON and people.

use azure_data_cosmos::models::PartitionKeyValue;
use azure_data_cosmos::PartitionKey;
use serde_json::Value;

/// The most levels a Cosmos DB partition key has (a hierarchical key's limit).
pub const MAX_KEY_LEVELS: usize = 3;

/// A partition key value, first level first: one to [`MAX_KEY_LEVELS`] values (the
/// containers verify runs on have no more levels, and [`Key::from_json`] refuses
/// more). Fewer values than the container has levels make a prefix of a
/// hierarchical key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key(Vec<String>);

impl Key {
    /// The value of a single-path key.
    pub fn one(value: impl Into<String>) -> Self {
        Key(vec![value.into()])
    }

    /// A value of every level given, first level first.
    pub fn levels(values: Vec<String>) -> Self {
        Key(values)
    }

    /// The levels' values, first level first.
    pub fn values(&self) -> &[String] {
        &self.0
    }

    /// This key with its first level's value replaced.
    pub fn with_first(mut self, value: String) -> Self {
        if let Some(first) = self.0.first_mut() {
            *first = value;
        }
        self
    }

    /// Whether `self` is `prefix` or lies under it (a hierarchical key's prefix).
    pub fn starts_with(&self, prefix: &Key) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// As a document stores it: the string of a single-path key, an array otherwise.
    pub fn to_json(&self) -> Value {
        match self.0.as_slice() {
            [one] => Value::String(one.clone()),
            levels => Value::from(levels.to_vec()),
        }
    }

    /// The key a document holds as `value`: a string, or an array of strings (a
    /// reference to a root under a hierarchical key).
    pub fn from_json(value: &Value) -> Option<Self> {
        match value {
            Value::String(one) => Some(Key::one(one.clone())),
            Value::Array(levels) => levels
                .iter()
                .map(|l| l.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .filter(|l| (1..=MAX_KEY_LEVELS).contains(&l.len()))
                .map(Key),
            _ => None,
        }
    }

    /// The key as the SDK takes it (a prefix too, on a hierarchical container).
    pub fn sdk(&self) -> PartitionKey {
        let values: Vec<PartitionKeyValue> = self.0.iter().map(|v| PartitionKeyValue::from(v.clone())).collect();
        // One to three values, as the type holds: the SDK's own conversion accepts them.
        PartitionKey::try_from(values).unwrap_or_else(|_| PartitionKey::from(self.to_string()))
    }
}

impl std::fmt::Display for Key {
    /// `account-1`, or `[tenantId-1, ticket-1]` for a hierarchical key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.as_slice() {
            [one] => f.write_str(one),
            levels => write!(f, "[{}]", levels.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_single_key_is_a_string_and_a_hierarchical_one_an_array() {
        assert_eq!(Key::one("a").to_json(), json!("a"));
        let two = Key::levels(vec!["t".into(), "o".into()]);
        assert_eq!(two.to_json(), json!(["t", "o"]));
        assert_eq!(Key::from_json(&json!(["t", "o"])), Some(two.clone()));
        assert_eq!(Key::from_json(&json!("a")), Some(Key::one("a")));
        assert_eq!(Key::from_json(&json!([1])), None);
        assert_eq!(Key::from_json(&json!([])), None);
        assert_eq!(
            Key::from_json(&json!(["a", "b", "c", "d"])),
            None,
            "at most three levels"
        );
        assert_eq!(two.to_string(), "[t, o]");
    }

    #[test]
    fn a_prefix_covers_the_keys_under_it() {
        let two = Key::levels(vec!["t".into(), "o".into()]);
        assert!(two.starts_with(&Key::one("t")));
        assert!(two.starts_with(&two));
        assert!(!two.starts_with(&Key::one("u")));
        assert!(!Key::one("t").starts_with(&two));
    }
}
