//! Figures the rules weigh, derived from the model's volumes and access patterns:
//! write rates per element and access rates per aggregate (sizes come from the
//! cost model's one estimate, `cost::facts`).

use std::collections::BTreeMap;

use cosmap_domain::{AccessKind, DomainModel, WriteOperation};

/// Rates and sizes by element and aggregate name.
#[derive(Debug, Default)]
pub(crate) struct Statistics {
    writes_per_second: BTreeMap<String, f64>,
    operations_per_second: BTreeMap<String, f64>,
    /// Creates and deletes per second of each element (write patterns that start at
    /// or return it, by their `write`): how its count grows.
    creates_per_second: BTreeMap<String, f64>,
    deletes_per_second: BTreeMap<String, f64>,
}

impl Statistics {
    pub fn new(model: &DomainModel) -> Self {
        let mut stats = Statistics::default();
        // Summed in name order, so the figures do not depend on declaration order.
        let mut patterns: Vec<_> = model.access_patterns().iter().collect();
        patterns.sort_by(|a, b| a.name.cmp(&b.name));
        for pattern in patterns {
            let mut touched: Vec<&str> = std::iter::once(pattern.start.as_str())
                .chain(model.returned_elements(pattern))
                .collect();
            touched.sort_unstable();
            touched.dedup();
            if pattern.kind == AccessKind::Write {
                for name in &touched {
                    *stats.writes_per_second.entry(name.to_string()).or_default() += pattern.per_second;
                }
                let growth = match pattern.write {
                    Some(WriteOperation::Create) => Some(&mut stats.creates_per_second),
                    Some(WriteOperation::Delete) => Some(&mut stats.deletes_per_second),
                    _ => None,
                };
                if let Some(rates) = growth {
                    let mut named: Vec<&str> = std::iter::once(pattern.start.as_str())
                        .chain(pattern.returns.iter().map(String::as_str))
                        .collect();
                    named.sort_unstable();
                    named.dedup();
                    for name in named {
                        *rates.entry(name.to_string()).or_default() += pattern.per_second;
                    }
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

    /// Creates per second of `element` (write patterns with `write: create` that start at or return it).
    pub fn creates_per_second(&self, element: &str) -> f64 {
        self.creates_per_second.get(element).copied().unwrap_or(0.0)
    }

    /// Deletes per second of `element`.
    pub fn deletes_per_second(&self, element: &str) -> f64 {
        self.deletes_per_second.get(element).copied().unwrap_or(0.0)
    }

    /// Reads and writes per second touching the aggregate rooted at `root`.
    pub fn operations_per_second(&self, root: &str) -> f64 {
        self.operations_per_second.get(root).copied().unwrap_or(0.0)
    }
}

/// `1500` → `1.5 kB`, for reasons and output: decimal units, as Cosmos DB's
/// service quotas state sizes (a physical partition holds 50 GB).
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
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

/// A factor as a person reads it: `0.25×`, `3.2×`, `1,500×`.
pub(crate) fn human_factor(f: f64) -> String {
    if !f.is_finite() {
        return "any multiple of".to_string();
    }
    if f >= 100.0 {
        format!("{}×", human_count(f))
    } else if f >= 10.0 {
        format!("{f:.0}×")
    } else if f >= 0.1 {
        format!("{}×", trim(format!("{f:.2}")))
    } else {
        format!("{}×", trim(format!("{f:.4}")))
    }
}

/// `1.50` → `1.5`, `2.00` → `2`.
fn trim(text: String) -> String {
    if !text.contains('.') {
        return text;
    }
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Request units per second as a person reads them: `14,935 RU/s`, `4.2 RU/s`,
/// `under 0.1 RU/s`, and `unbounded RU/s` where no number of partitions carries the
/// workload.
pub fn human_ru_per_second(ru: f64) -> String {
    if !ru.is_finite() {
        return "unbounded RU/s".to_string();
    }
    if ru > 0.0 && ru < 0.05 {
        return "under 0.1 RU/s".to_string();
    }
    if ru.abs() < 10.0 {
        return format!("{ru:.1} RU/s");
    }
    format!("{} RU/s", human_count(ru))
}

/// A whole number with thousands separators: `80,894,000`.
pub fn human_count(n: f64) -> String {
    if !n.is_finite() {
        return "unbounded".to_string();
    }
    let digits = format!("{:.0}", n.abs());
    let mut grouped = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if n < 0.0 && digits != "0" { "-" } else { "" };
    format!("{sign}{grouped}")
}

/// A share as a person reads it: `5.0%`, or `1 in 250,000` when under a tenth of a percent.
pub fn human_share(share: f64) -> String {
    if share >= 0.001 || share <= 0.0 {
        format!("{:.1}%", share * 100.0)
    } else {
        format!("1 in {}", human_count(1.0 / share))
    }
}

/// A rate without noise digits: `500/s`, `0.5/s`.
pub fn human_rate(per_second: f64) -> String {
    let text = format!("{per_second:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}/s")
}

/// "about 5 RU/s", but "under 0.1 RU/s" and "unbounded" as they are.
pub(crate) fn about(figure: String) -> String {
    if figure.starts_with("under") || figure.starts_with("unbounded") {
        figure
    } else {
        format!("about {figure}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_figures() {
        assert_eq!(human_ru_per_second(14_935.2), "14,935 RU/s");
        assert_eq!(human_ru_per_second(1_234_567.0), "1,234,567 RU/s");
        assert_eq!(human_ru_per_second(999.6), "1,000 RU/s");
        assert_eq!(human_ru_per_second(4.24), "4.2 RU/s");
        assert_eq!(human_ru_per_second(f64::INFINITY), "unbounded RU/s");
        assert_eq!(human_ru_per_second(0.001), "under 0.1 RU/s");
        assert_eq!(human_count(80_894_000.0), "80,894,000");
        assert_eq!(human_count(-1234.0), "-1,234");
        assert_eq!(human_share(0.05), "5.0%");
        assert_eq!(human_share(0.000_001), "1 in 1,000,000");
        assert_eq!(human_bytes(512.0), "512 B");
        assert_eq!(human_bytes(1500.0), "1.5 kB");
        assert_eq!(human_bytes(50e9), "50.0 GB");
        assert_eq!(human_rate(500.0), "500/s");
        assert_eq!(human_rate(0.25), "0.25/s");
    }
}
