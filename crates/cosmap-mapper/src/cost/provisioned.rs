//! The throughput a container's physical partitions follow: provisioned as the
//! model's `thresholds.throughput` says, or the container's own peak load (its
//! cross-partition queries' fan-out included) times a headroom.

use super::constants::DEFAULT_THROUGHPUT_HEADROOM;
use super::units;
use crate::statistics::human_count;

/// The throughput a container's partitions follow: provisioned as
/// `thresholds.throughput` says, or its own peak load times a headroom.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provisioned {
    /// Request units per second provisioned (or the autoscale maximum).
    pub ru_per_second: f64,
    /// Where the figure came from.
    pub source: ThroughputSource,
    /// Whether it is an autoscale maximum.
    pub autoscale: bool,
    /// The factor over the container's own load (for [`ThroughputSource::OwnLoad`]; 1 otherwise).
    pub headroom: f64,
}

/// Where a container's provisioned throughput came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ThroughputSource {
    /// The container's own peak load in the design, times the headroom (no
    /// `thresholds.throughput` figure given).
    #[default]
    OwnLoad,
    /// `thresholds.throughput.container`: RU/s on each container.
    Container,
    /// `thresholds.throughput.database`: RU/s shared by the database's containers.
    Database,
}

impl Provisioned {
    /// A container's physical partitions and the throughput they follow, under
    /// `setting` (`thresholds.throughput`), for `storage` bytes (after growth) and a
    /// load of `fixed + per_partition × partitions` RU/s.
    pub(crate) fn partitions(
        setting: &cosmap_domain::Throughput,
        storage: f64,
        fixed: f64,
        per_partition: f64,
    ) -> (f64, Provisioned) {
        let autoscale = setting.autoscale.unwrap_or(false);
        let given = match (setting.container, setting.database) {
            (Some(ru), _) => Some((ru, ThroughputSource::Container)),
            (None, Some(ru)) => Some((ru, ThroughputSource::Database)),
            (None, None) => None,
        };
        if let Some((ru, source)) = given {
            let provisioned = Provisioned {
                ru_per_second: ru,
                source,
                autoscale,
                headroom: 1.0,
            };
            return (units::physical_partitions(storage, ru), provisioned);
        }
        let headroom = setting.headroom.unwrap_or(DEFAULT_THROUGHPUT_HEADROOM);
        let partitions = units::partitions_for_own_load(storage, fixed, per_partition, headroom);
        let provisioned = Provisioned {
            ru_per_second: headroom * (fixed + per_partition * partitions),
            source: ThroughputSource::OwnLoad,
            autoscale,
            headroom,
        };
        (partitions, provisioned)
    }

    /// This throughput in words, for reasons and reports.
    pub fn describe(&self) -> String {
        let ru = human_count(self.ru_per_second.round());
        let kind = if self.autoscale { "autoscale maximum" } else { "manual" };
        match self.source {
            ThroughputSource::Container => {
                format!("{ru} RU/s provisioned on each container ({kind}, thresholds.throughput)")
            }
            ThroughputSource::Database => {
                format!("{ru} RU/s provisioned on the database, shared ({kind}, thresholds.throughput)")
            }
            ThroughputSource::OwnLoad => format!(
                "its own peak load, {ru} RU/s with headroom {} (no thresholds.throughput given)",
                self.headroom
            ),
        }
    }
}
