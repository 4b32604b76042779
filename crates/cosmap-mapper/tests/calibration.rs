//! The cost model against published measurements: every row of the two tables
//! (`tests/data/cosmos-ru-measurements.csv`, reads of one to a few items and writes;
//! `tests/data/cosmos-ru-measurements-multi-item.csv`, reads of many items, scans, pages
//! and consistency) that its features file (`ru-measurement-features*.csv`) does not
//! exclude is priced with the public `cost::units` functions. The model must land within
//! 2× of the measured charge on at least 85% of them, within 4× on all, and within 2× on
//! every multi-item row. `scripts/fit-cost-model.py` fits the constants to the same files.

use std::path::{Path, PathBuf};

use cosmap_mapper::cost::units;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// The fields of one CSV record (double-quoted fields may hold commas and `""`).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// Records of a CSV file with a header line, as (header name -> value) lookups.
fn records(path: &Path) -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header = fields(lines.next().expect("a header"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| header.iter().cloned().zip(fields(l)).collect())
        .collect()
}

fn get<'a>(record: &'a [(String, String)], name: &str) -> &'a str {
    record.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
}

fn num(record: &[(String, String)], name: &str) -> f64 {
    let v = get(record, name).trim();
    if v.is_empty() {
        0.0
    } else {
        v.parse().unwrap_or_else(|e| panic!("{name} = {v:?}: {e}"))
    }
}

/// The model's charge for one interpreted row, through the public units functions.
fn modelled(f: &[(String, String)]) -> f64 {
    let bytes = num(f, "item_bytes");
    let paths = num(f, "indexed_paths") as usize;
    let partitions = num(f, "partitions").max(1.0);
    let factor = match num(f, "consistency_factor") {
        0.0 => 1.0,
        x => x,
    };
    let op = get(f, "operation");
    match op {
        "point_read" => units::point_read(bytes) * factor,
        "create" => units::insert(bytes, paths),
        "replace" => units::replace(bytes, paths),
        "delete" => units::delete(bytes, paths),
        "query_single" | "query_cross" => {
            let items = num(f, "items");
            let kb = num(f, "kb_returned");
            let per_item = if items > 0.0 { kb * 1000.0 / items } else { 0.0 };
            let returned = units::query_under(factor, op == "query_cross", &[(items, per_item)]).at(partitions);
            let pages = num(f, "pages").max(1.0);
            let loaded = num(f, "loaded");
            let loaded_each = if loaded > 0.0 {
                num(f, "loaded_kb") * 1000.0 / loaded
            } else {
                0.0
            };
            returned + (pages - 1.0) * units::further_page(factor) + factor * units::loaded(loaded, loaded_each)
        }
        other => panic!("unknown operation {other:?}"),
    }
}

/// One priced row: its table's prefix and row number, the factor between the model and
/// the measurement (≥ 1), the measured and the modelled charge.
struct Priced {
    row: String,
    factor: f64,
    measured: f64,
    modelled: f64,
}

/// Every row of `table` its features file (`features`) does not exclude, priced;
/// `rows`: the table's published length; `prefix`: how the report names its rows.
fn priced(table: &str, features: &str, rows: usize, prefix: &str) -> Vec<Priced> {
    let measured = records(&data(table));
    let features = records(&data(features));
    assert_eq!(measured.len(), rows, "the published {table} has {rows} rows");
    assert_eq!(features.len(), measured.len(), "one interpretation per row of {table}");
    let mut out = Vec::new();
    for (i, f) in features.iter().enumerate() {
        let row = format!("{prefix}{}", i + 1);
        assert_eq!(num(f, "row") as usize, i + 1, "features of {table} in row order");
        if !get(f, "excluded").is_empty() {
            assert!(!get(f, "note").is_empty(), "row {row} is excluded without a reason");
            continue;
        }
        let ru = num(&measured[i], "ru");
        let model = modelled(f);
        assert!(model > 0.0, "row {row}: no charge modelled");
        out.push(Priced {
            row,
            factor: (model / ru).max(ru / model),
            measured: ru,
            modelled: model,
        });
    }
    out
}

fn describe(p: &Priced) -> String {
    format!(
        "row {}: {} measured, {:.2} modelled ({:.2}x)",
        p.row, p.measured, p.modelled, p.factor
    )
}

#[test]
fn the_model_lands_within_2x_of_most_measurements_and_4x_of_all() {
    let single = priced("cosmos-ru-measurements.csv", "ru-measurement-features.csv", 146, "");
    let multi = priced(
        "cosmos-ru-measurements-multi-item.csv",
        "ru-measurement-features-multi-item.csv",
        38,
        "m",
    );
    assert!(
        single.len() >= 100,
        "only {} rows of the first table priced",
        single.len()
    );
    assert!(multi.len() >= 20, "only {} multi-item rows priced", multi.len());
    let all: Vec<&Priced> = single.iter().chain(&multi).collect();
    let within = all.iter().filter(|p| p.factor <= 2.0).count();
    let share = within as f64 / all.len() as f64;
    let beyond: Vec<String> = all.iter().filter(|p| p.factor > 2.0).map(|p| describe(p)).collect();
    assert!(share >= 0.85, "{within}/{} within 2x; beyond: {beyond:#?}", all.len());
    for p in &all {
        assert!(p.factor <= 4.0, "{}", describe(p));
    }
    for p in &multi {
        assert!(p.factor <= 2.0, "a multi-item read beyond 2x: {}", describe(p));
    }
}

#[test]
fn the_copies_are_the_shared_tables_verbatim() {
    for name in ["cosmos-ru-measurements.csv", "cosmos-ru-measurements-multi-item.csv"] {
        let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared")
            .join(name);
        if let Ok(original) = std::fs::read(&shared) {
            let copy = std::fs::read(data(name)).expect("the committed copy");
            assert!(original == copy, "tests/data/{name} differs from {}", shared.display());
        }
    }
}
