//! Where provisioning goes: endpoint, key and database, with the loopback rules.
//!
//! - `https://` anywhere; plain `http://` only for a loopback host.
//! - Without a key, a loopback endpoint gets the emulator's well-known key; any other
//!   endpoint is refused. The well-known key is refused for non-loopback endpoints.
//! - Loopback hosts are exactly those the SDK treats as the emulator: `localhost`,
//!   `127.0.0.1` and `[::1]`; only for them does the client relax its settings for
//!   local servers (see [`crate::client`]).

use azure_core::http::Url;
use serde::Serialize;
use thiserror::Error;

use crate::key::AccountKey;

/// The official emulator's endpoint: the default target.
pub const EMULATOR_ENDPOINT: &str = "https://localhost:8081/";

/// Hosts treated as loopback (the SDK's own emulator list, as `Url` normalises them).
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Where the key came from (reported by `--verbose`, never the key itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum KeySource {
    /// Given by the caller (`--key` or `COSMOS_KEY`).
    Given,
    /// The emulator's well-known key, for a loopback endpoint without a key.
    EmulatorWellKnown,
}

/// A checked provisioning target.
#[derive(Debug)]
pub struct Target {
    endpoint: Url,
    key: AccountKey,
    key_source: KeySource,
    database: String,
}

/// Why a target was refused (a usage error: nothing was contacted).
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TargetError {
    /// The endpoint does not parse as a URL.
    #[error("the endpoint `{endpoint}` is not a URL ({reason}); expected for example https://ACCOUNT.documents.azure.com:443/")]
    InvalidEndpoint {
        /// The account endpoint.
        endpoint: String,
        /// Why it is refused.
        reason: String,
    },
    /// A connection string was given where the endpoint goes (it holds the key: not echoed).
    #[error("the endpoint looks like a connection string (it contains `AccountKey=`); pass the endpoint with --endpoint and the key with COSMOS_KEY")]
    ConnectionString,
    /// Neither `https` nor `http`.
    #[error("the endpoint `{endpoint}` must start with https:// (or http:// for a loopback host)")]
    UnsupportedScheme {
        /// The account endpoint.
        endpoint: String,
    },
    /// User name or password inside the URL.
    #[error("the endpoint must not carry credentials; pass the key with COSMOS_KEY or --key")]
    CredentialsInEndpoint,
    /// A path, query or fragment after the host (not shown: it may hold a key).
    #[error("the endpoint `{endpoint}` must be the account's root URL, without a path, query or fragment")]
    NotAnAccountRoot {
        /// The account endpoint.
        endpoint: String,
    },
    /// `http://` to a host that is not loopback.
    #[error(
        "plain http:// is only allowed for loopback hosts (localhost, 127.0.0.1, [::1]); use https:// for `{endpoint}`"
    )]
    PlainHttpNotLoopback {
        /// The account endpoint.
        endpoint: String,
    },
    /// No key for an endpoint that is not loopback.
    #[error("no key for `{endpoint}`: set COSMOS_KEY (or pass --key); the emulator's well-known key is only used for loopback endpoints")]
    MissingKey {
        /// The account endpoint.
        endpoint: String,
    },
    /// The emulator's well-known key for an endpoint that is not loopback.
    #[error("the emulator's well-known key is only used for loopback endpoints, not for `{endpoint}`; set COSMOS_KEY to the account's key")]
    EmulatorKeyNotLoopback {
        /// The account endpoint.
        endpoint: String,
    },
    /// The key is not base64 (the key itself is never shown).
    #[error("the key is not a Cosmos DB account key (expected base64, as shown in the portal under Keys)")]
    MalformedKey,
    /// A database id Cosmos DB would refuse.
    #[error("the database name `{name}` is not valid: {reason}")]
    InvalidDatabase {
        /// The database name given.
        name: String,
        /// Why it is refused.
        reason: &'static str,
    },
}

impl Target {
    /// Checks an endpoint, an optional key and a database name against the rules above.
    pub fn new(endpoint: &str, key: Option<AccountKey>, database: &str) -> Result<Target, TargetError> {
        let endpoint = parse_endpoint(endpoint)?;
        let shown = endpoint.as_str().to_string();
        let loopback = is_loopback(&endpoint);
        if endpoint.scheme() == "http" && !loopback {
            return Err(TargetError::PlainHttpNotLoopback { endpoint: shown });
        }
        let (key, key_source) = match key {
            Some(key) if !loopback && key.is_emulator_key() => {
                return Err(TargetError::EmulatorKeyNotLoopback { endpoint: shown })
            }
            Some(key) if !key.is_well_formed() => return Err(TargetError::MalformedKey),
            Some(key) => (key, KeySource::Given),
            None if loopback => (AccountKey::emulator(), KeySource::EmulatorWellKnown),
            None => return Err(TargetError::MissingKey { endpoint: shown }),
        };
        check_database(database)?;
        Ok(Target {
            endpoint,
            key,
            key_source,
            database: database.to_string(),
        })
    }

    /// The endpoint, normalised (`https://host:port/`).
    pub fn endpoint(&self) -> &str {
        self.endpoint.as_str()
    }

    /// The database to provision into.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// Whether the endpoint is a loopback host (local settings apply).
    pub fn is_loopback(&self) -> bool {
        is_loopback(&self.endpoint)
    }

    /// Where the key came from.
    pub fn key_source(&self) -> KeySource {
        self.key_source
    }

    pub(crate) fn url(&self) -> &Url {
        &self.endpoint
    }

    pub(crate) fn key(&self) -> &AccountKey {
        &self.key
    }
}

/// `endpoint` as an error may show it: the scheme and host (with the port), never
/// what follows them (a path or query may hold a key) nor any user or password;
/// text without a scheme is not shown at all (it may be a key pasted in the wrong
/// place).
pub fn shown_endpoint(endpoint: &str) -> String {
    let endpoint = endpoint.trim();
    let Some((scheme, rest)) = endpoint.split_once("://") else {
        return "(not shown: it has no scheme such as https://)".to_string();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let tail = &rest[end..];
    let tail = if tail.is_empty() || tail == "/" { tail } else { "/…" };
    format!("{scheme}://{host}{tail}")
}

fn parse_endpoint(endpoint: &str) -> Result<Url, TargetError> {
    if endpoint.to_ascii_lowercase().contains("accountkey=") {
        return Err(TargetError::ConnectionString);
    }
    let url = Url::parse(endpoint.trim()).map_err(|e| TargetError::InvalidEndpoint {
        endpoint: shown_endpoint(endpoint),
        reason: e.to_string(),
    })?;
    if url.scheme() != "https" && url.scheme() != "http" {
        return Err(TargetError::UnsupportedScheme {
            endpoint: shown_endpoint(endpoint),
        });
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(TargetError::CredentialsInEndpoint);
    }
    if url.host_str().is_none_or(str::is_empty)
        || url.path() != "/"
        || url.query().is_some()
        || url.fragment().is_some()
    {
        return Err(TargetError::NotAnAccountRoot {
            endpoint: shown_endpoint(endpoint),
        });
    }
    Ok(url)
}

fn is_loopback(url: &Url) -> bool {
    url.host_str().is_some_and(|host| LOOPBACK_HOSTS.contains(&host))
}

/// Cosmos DB resource ids: 1–255 characters, none of `/ \ ? #`, no control or
/// invisible characters, no trailing space, not `.` or `..` (a URL would lose them).
fn check_database(name: &str) -> Result<(), TargetError> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.chars().count() > 255 {
        Some("it is longer than 255 characters")
    } else if name.contains(['/', '\\', '?', '#']) {
        Some("it contains one of / \\ ? #")
    } else if name.chars().any(cosmap_domain::naming::is_hidden_char) {
        Some("it contains a control, text-direction or other invisible character")
    } else if name.ends_with(' ') {
        Some("it ends with a space")
    } else if name == "." || name == ".." {
        Some("`.` and `..` are path steps in a URL, not names")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(TargetError::InvalidDatabase {
            name: name.escape_debug().to_string(),
            reason,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "Q09TTUFQLUZBS0UtS0VZLU5PVC1BLVNFQ1JFVA==";

    fn key() -> Option<AccountKey> {
        Some(AccountKey::new(KEY))
    }

    #[test]
    fn loopback_without_key_gets_the_emulator_key() {
        for endpoint in [
            "https://localhost:8081",
            "https://127.0.0.1:8081/",
            "http://[::1]:8081/",
            "https://LOCALHOST:8081/",
        ] {
            let target = Target::new(endpoint, None, "db").expect(endpoint);
            assert!(target.is_loopback());
            assert_eq!(target.key_source(), KeySource::EmulatorWellKnown);
            assert!(target.key().is_emulator_key());
        }
        assert_eq!(
            Target::new(EMULATOR_ENDPOINT, None, "db").map(|t| t.endpoint().to_string()),
            Ok("https://localhost:8081/".to_string())
        );
    }

    #[test]
    fn remote_endpoints_need_a_key_and_https() {
        let remote = "https://acct.documents.azure.com:443/";
        assert!(matches!(
            Target::new(remote, None, "db"),
            Err(TargetError::MissingKey { .. })
        ));
        assert!(matches!(
            Target::new(remote, Some(AccountKey::emulator()), "db"),
            Err(TargetError::EmulatorKeyNotLoopback { .. })
        ));
        assert!(matches!(
            Target::new("http://acct.documents.azure.com/", key(), "db"),
            Err(TargetError::PlainHttpNotLoopback { .. })
        ));
        assert!(matches!(
            Target::new("http://127.0.0.2:8081/", key(), "db"),
            Err(TargetError::PlainHttpNotLoopback { .. })
        ));
        let target = Target::new(remote, key(), "db").expect("valid");
        assert!(!target.is_loopback());
        assert_eq!(target.key_source(), KeySource::Given);
        assert_eq!(target.endpoint(), "https://acct.documents.azure.com/");
    }

    #[test]
    fn bad_endpoints_and_keys_are_refused_without_echoing_secrets() {
        let cases = [
            (
                "not a url",
                TargetError::InvalidEndpoint {
                    endpoint: "(not shown: it has no scheme such as https://)".into(),
                    reason: "relative URL without a base".into(),
                },
            ),
            (
                "ftp://localhost/",
                TargetError::UnsupportedScheme {
                    endpoint: "ftp://localhost/".into(),
                },
            ),
            ("https://u:p@localhost/", TargetError::CredentialsInEndpoint),
            (
                "https://localhost:8081/dbs/x",
                TargetError::NotAnAccountRoot {
                    endpoint: "https://localhost:8081/…".into(),
                },
            ),
        ];
        for (endpoint, expected) in cases {
            assert_eq!(Target::new(endpoint, None, "db").err(), Some(expected), "{endpoint}");
        }
        let connection_string = format!("AccountEndpoint=https://a.documents.azure.com:443/;AccountKey={KEY};");
        let err = Target::new(&connection_string, None, "db").expect_err("refused");
        assert_eq!(err, TargetError::ConnectionString);
        assert!(!err.to_string().contains(KEY));
        let err = Target::new(
            "https://localhost:8081/",
            Some(AccountKey::new("SECRET-not-base64!")),
            "db",
        )
        .expect_err("refused");
        assert_eq!(err, TargetError::MalformedKey);
        assert!(!err.to_string().contains("SECRET"));
    }

    #[test]
    fn a_key_in_the_endpoints_path_or_query_is_never_echoed() {
        for endpoint in [
            format!("https://localhost:8081/{KEY}"),
            format!("https://localhost:8081/?key={KEY}"),
            format!("https://localhost:8081#{KEY}"),
            format!("ftp://localhost/{KEY}"),
            format!("https://user:{KEY}@localhost:8081/"),
            format!("https://[bad/{KEY}"),
            format!("localhost:8081/{KEY}"),
            KEY.to_string(),
        ] {
            let err = Target::new(&endpoint, None, "db").expect_err(&endpoint);
            let shown = err.to_string();
            assert!(!shown.contains(&KEY[..12]), "{shown}");
        }
        assert_eq!(
            shown_endpoint("https://acct.documents.azure.com:443/"),
            "https://acct.documents.azure.com:443/"
        );
        assert_eq!(shown_endpoint(&format!("https://a:{KEY}@h/x?k={KEY}")), "https://h/…");
    }

    #[test]
    fn database_names() {
        for ok in ["Ecommerce", "shop-1", "a b"] {
            assert!(Target::new(EMULATOR_ENDPOINT, None, ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "a/b",
            "a#b",
            "a?b",
            "a\\b",
            "tab\t",
            "trailing ",
            &"x".repeat(256),
            ".",
            "..",
            "a\u{202E}b",
        ] {
            assert!(
                matches!(
                    Target::new(EMULATOR_ENDPOINT, None, bad),
                    Err(TargetError::InvalidDatabase { .. })
                ),
                "{bad:?}"
            );
        }
    }
}
