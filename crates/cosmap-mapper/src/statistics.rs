//! Figures the rules weigh, derived from the model's volumes and access patterns:
//! write rates per element and access rates per aggregate (sizes come from the
//! cost model's one estimate, `cost::facts`).

use std::collections::BTreeMap;

use cosmap_domain::{AccessKind, DomainModel};

/// Rates and sizes by element and aggregate name.
#[derive(Debug, Default)]
pub(crate) struct Statistics {
    writes_per_second: BTreeMap<String, f64>,
    operations_per_second: BTreeMap<String, f64>,
}

impl Statistics {
    pub fn new(model: &DomainModel) -> Self {
        let mut stats = Statistics::default();
        // Summed in name order, so the figures do not depend on declaration order.
        let mut patterns: Vec<_> = model.access_patterns().iter().collect();
        patterns.sort_by(|a, b| a.name.cmp(&b.name));
        for pattern in patterns {
            let mut touched: Vec<&str> = std::iter::once(pattern.start.as_str())
                .chain(pattern.returns.iter().map(String::as_str))
                .collect();
            touched.sort_unstable();
            touched.dedup();
            if pattern.kind == AccessKind::Write {
                for name in &touched {
                    *stats.writes_per_second.entry(name.to_string()).or_default() += pattern.per_second;
                }
            }
            let mut aggregates: Vec<&str> = touched
                .iter()
                .filter_map(|n| model.aggregate_of(n).map(|a| a.root.as_str()))
                .collect();
            aggregates.sort_unstable();
            aggregates.dedup();
            for root in aggregates {
                *stats.operations_per_second.entry(root.to_string()).or_default() += pattern.per_second;
            }
        }
        stats
    }

    /// Writes per second that touch `element` (write patterns starting at or returning it).
    pub fn writes_per_second(&self, element: &str) -> f64 {
        self.writes_per_second.get(element).copied().unwrap_or(0.0)
    }

    /// Reads and writes per second touching the aggregate rooted at `root`.
    pub fn operations_per_second(&self, root: &str) -> f64 {
        self.operations_per_second.get(root).copied().unwrap_or(0.0)
    }
}

/// `1536` → `1.5 KiB`, for reasons and output.
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else if value >= 100.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A rate without noise digits: `500/s`, `0.5/s`.
pub fn human_rate(per_second: f64) -> String {
    let text = format!("{per_second:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}/s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_figures() {
        assert_eq!(human_bytes(512.0), "512 B");
        assert_eq!(human_bytes(1536.0), "1.5 KiB");
        assert_eq!(human_bytes(50.0 * 1024.0 * 1024.0 * 1024.0), "50.0 GiB");
        assert_eq!(human_rate(500.0), "500/s");
        assert_eq!(human_rate(0.25), "0.25/s");
    }
}
