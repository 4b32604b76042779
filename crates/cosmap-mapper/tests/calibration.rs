//! The cost model against published measurements: every row of
//! `tests/data/cosmos-ru-measurements.csv` that `tests/data/ru-measurement-features.csv`
//! does not exclude is priced with the public `cost::units` functions, and the model
//! must land within 2× of the measured charge on at least 80% of them and within 4× on
//! all. `scripts/fit-cost-model.py` fits the constants to the same files.

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
            units::query_under(factor, op == "query_cross", &[(items, per_item)]).at(partitions)
        }
        other => panic!("unknown operation {other:?}"),
    }
}

#[test]
fn the_model_lands_within_2x_of_most_measurements_and_4x_of_all() {
    let measured = records(&data("cosmos-ru-measurements.csv"));
    let features = records(&data("ru-measurement-features.csv"));
    assert_eq!(measured.len(), 146, "the published table has 146 rows");
    assert_eq!(features.len(), measured.len(), "one interpretation per row");
    let mut factors = Vec::new();
    for (i, f) in features.iter().enumerate() {
        assert_eq!(num(f, "row") as usize, i + 1, "features in row order");
        if !get(f, "excluded").is_empty() {
            assert!(!get(f, "note").is_empty(), "row {} is excluded without a reason", i + 1);
            continue;
        }
        let ru = num(&measured[i], "ru");
        let model = modelled(f);
        assert!(model > 0.0, "row {}: no charge modelled", i + 1);
        factors.push((i + 1, (model / ru).max(ru / model), ru, model));
    }
    let within = factors.iter().filter(|(_, x, _, _)| *x <= 2.0).count();
    let share = within as f64 / factors.len() as f64;
    let report: Vec<String> = factors
        .iter()
        .filter(|(_, x, _, _)| *x > 2.0)
        .map(|(row, x, ru, model)| format!("row {row}: {ru} measured, {model:.2} modelled ({x:.2}x)"))
        .collect();
    assert!(factors.len() >= 100, "only {} rows fitted", factors.len());
    assert!(
        share >= 0.8,
        "{within}/{} within 2x; beyond: {report:#?}",
        factors.len()
    );
    for (row, x, ru, model) in &factors {
        assert!(*x <= 4.0, "row {row}: {ru} measured, {model:.2} modelled ({x:.2}x)");
    }
}

#[test]
fn the_copy_is_the_shared_table_verbatim() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/cosmos-ru-measurements.csv");
    if let Ok(original) = std::fs::read(&shared) {
        let copy = std::fs::read(data("cosmos-ru-measurements.csv")).expect("the committed copy");
        assert!(
            original == copy,
            "tests/data/cosmos-ru-measurements.csv differs from {}",
            shared.display()
        );
    }
}
