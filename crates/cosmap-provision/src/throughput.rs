//! Throughput for the containers provisioning creates.
//!
//! Manual (`--throughput N`, at least 400 RU/s, in steps of 100), autoscale
//! (`--autoscale MAX`, at least 1,000 RU/s, in steps of 1,000), or none: the
//! container gets no throughput of its own, which is what a serverless account
//! wants, and what a database that shares its throughput among its containers
//! wants. Existing containers keep theirs: provisioning never changes throughput.

use azure_data_cosmos::models::ThroughputProperties;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Throughput given to each container created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "camelCase")]
pub enum Throughput {
    /// No dedicated throughput (serverless account, or shared database throughput).
    #[default]
    None,
    /// Manual throughput in RU/s.
    #[serde(rename_all = "camelCase")]
    Manual {
        /// The RU/s provisioned.
        ru_per_second: u32,
    },
    /// Autoscale up to this many RU/s (and down to a tenth of it).
    #[serde(rename_all = "camelCase")]
    Autoscale {
        /// The most RU/s it scales up to.
        max_ru_per_second: u32,
    },
}

/// A throughput Cosmos DB would refuse.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ThroughputError {
    /// Manual throughput below 400 or not a multiple of 100.
    #[error("--throughput {0}: manual throughput is at least 400 RU/s, in steps of 100")]
    Manual(u32),
    /// Autoscale maximum below 1,000 or not a multiple of 1,000.
    #[error("--autoscale {0}: the autoscale maximum is at least 1000 RU/s, in steps of 1000")]
    Autoscale(u32),
}

impl Throughput {
    /// Manual throughput, checked.
    pub fn manual(ru_per_second: u32) -> Result<Self, ThroughputError> {
        if ru_per_second >= 400 && ru_per_second.is_multiple_of(100) {
            Ok(Throughput::Manual { ru_per_second })
        } else {
            Err(ThroughputError::Manual(ru_per_second))
        }
    }

    /// Autoscale with this maximum, checked.
    pub fn autoscale(max_ru_per_second: u32) -> Result<Self, ThroughputError> {
        if max_ru_per_second >= 1000 && max_ru_per_second.is_multiple_of(1000) {
            Ok(Throughput::Autoscale { max_ru_per_second })
        } else {
            Err(ThroughputError::Autoscale(max_ru_per_second))
        }
    }

    pub(crate) fn to_sdk(self) -> Option<ThroughputProperties> {
        match self {
            Throughput::None => None,
            Throughput::Manual { ru_per_second } => Some(ThroughputProperties::manual(u64::from(ru_per_second))),
            Throughput::Autoscale { max_ru_per_second } => {
                Some(ThroughputProperties::autoscale(u64::from(max_ru_per_second), None))
            }
        }
    }
}

impl std::fmt::Display for Throughput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Throughput::None => f.write_str("none of their own"),
            Throughput::Manual { ru_per_second } => write!(f, "{ru_per_second} RU/s (manual)"),
            Throughput::Autoscale { max_ru_per_second } => write!(f, "autoscale up to {max_ru_per_second} RU/s"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert_eq!(Throughput::manual(400), Ok(Throughput::Manual { ru_per_second: 400 }));
        assert_eq!(Throughput::manual(350), Err(ThroughputError::Manual(350)));
        assert_eq!(Throughput::manual(450), Err(ThroughputError::Manual(450)));
        assert_eq!(
            Throughput::autoscale(4000),
            Ok(Throughput::Autoscale {
                max_ru_per_second: 4000
            })
        );
        assert_eq!(Throughput::autoscale(500), Err(ThroughputError::Autoscale(500)));
        assert_eq!(Throughput::autoscale(1500), Err(ThroughputError::Autoscale(1500)));
    }

    #[test]
    fn json_shape() {
        let json = |t: Throughput| serde_json::to_string(&t).unwrap_or_default();
        assert_eq!(json(Throughput::None), r#"{"mode":"none"}"#);
        assert_eq!(
            json(Throughput::Manual { ru_per_second: 400 }),
            r#"{"mode":"manual","ruPerSecond":400}"#
        );
        assert_eq!(
            json(Throughput::Autoscale {
                max_ru_per_second: 4000
            }),
            r#"{"mode":"autoscale","maxRuPerSecond":4000}"#
        );
    }
}
