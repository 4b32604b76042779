//! The account key: a secret that never shows up in `Debug`, `Display`, errors or traces.

use std::fmt;

use azure_core::credentials::Secret;

/// The well-known key of the Azure Cosmos DB emulator (published by Microsoft; it
/// only opens emulators, which listen on the developer's own machine).
pub(crate) const EMULATOR_KEY: &str =
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

/// A Cosmos DB account key (primary or secondary, base64).
///
/// It has no `Display`, its `Debug` prints `AccountKey(<redacted>)`, and no error of
/// this crate carries it: the only way out is the SDK credential built from it.
/// Building one never fails, so that a command-line parser can take it without ever
/// echoing a bad value; [`crate::Target::new`] checks its shape.
#[derive(Clone)]
pub struct AccountKey(String);

impl AccountKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> Self {
        AccountKey(key.into())
    }

    /// The emulator's well-known key.
    pub(crate) fn emulator() -> Self {
        AccountKey(EMULATOR_KEY.to_string())
    }

    /// Whether this is the emulator's well-known key.
    pub fn is_emulator_key(&self) -> bool {
        self.0 == EMULATOR_KEY
    }

    /// Whether the key looks like a Cosmos DB key: non-empty base64.
    pub(crate) fn is_well_formed(&self) -> bool {
        let key = self.0.as_bytes();
        let body = key.iter().position(|&b| b == b'=').map_or(key, |end| &key[..end]);
        let padding = key.len() - body.len();
        !key.is_empty()
            && key.len().is_multiple_of(4)
            && padding <= 2
            && key[body.len()..].iter().all(|&b| b == b'=')
            && body
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    }

    /// The SDK credential (the SDK's `Secret` does not print its value either).
    pub(crate) fn to_secret(&self) -> Secret {
        Secret::new(self.0.clone())
    }
}

impl fmt::Debug for AccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccountKey(<redacted>)")
    }
}

impl From<String> for AccountKey {
    fn from(key: String) -> Self {
        AccountKey(key)
    }
}

impl From<&str> for AccountKey {
    fn from(key: &str) -> Self {
        AccountKey(key.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAKE: &str = "Q09TTUFQLUZBS0UtS0VZLU5PVC1BLVNFQ1JFVA==";

    #[test]
    fn debug_never_shows_the_key() {
        let key = AccountKey::new(FAKE);
        assert_eq!(format!("{key:?}"), "AccountKey(<redacted>)");
        assert!(!format!("{key:#?}").contains("Q09T"));
    }

    #[test]
    fn shape_check() {
        assert!(AccountKey::new(FAKE).is_well_formed());
        assert!(AccountKey::emulator().is_well_formed());
        assert!(AccountKey::emulator().is_emulator_key());
        for bad in ["", "abc", "not base64!", "ab=c", "a===", "QQ==QQ=="] {
            assert!(!AccountKey::new(bad).is_well_formed(), "{bad}");
        }
    }
}
