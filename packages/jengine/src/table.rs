//! Data tables: `data/<name>.json` in a project, each a JSON array of row objects.
//!
//! A table is kept as raw rows so scripts can read any table, while a package that declared
//! a row type gets every row deserialized and validated, and every bad row reported at once
//! with its table, row number and field.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;

/// A row type a package reads from a table.
pub trait Row: DeserializeOwned + 'static {
    /// Checks what serde cannot: ranges, orderings, references. `Err` names the field.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// One bad row (or a problem with the whole file, with `row` 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The file, as `data/<name>.json`.
    pub file: String,
    /// 1-based row number; 0 when the file itself is bad.
    pub row: usize,
    /// The row's `id` or `name`, when it has one.
    pub label: Option<String>,
    /// What is wrong, naming the field.
    pub message: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.row, &self.label) {
            (0, _) => write!(f, "{}: {}", self.file, self.message),
            (row, Some(label)) => {
                write!(f, "{}: row {row} ({label:?}): {}", self.file, self.message)
            }
            (row, None) => write!(f, "{}: row {row}: {}", self.file, self.message),
        }
    }
}

/// Every problem found in one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    /// The table's name.
    pub table: String,
    /// Each bad row, in order.
    pub rows: Vec<RowError>,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.rows.iter().map(|r| r.to_string()).collect();
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for TableError {}

/// A loaded table: its rows as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct RawTable {
    /// `data/<name>.json`.
    pub file: String,
    /// The rows, in file order.
    pub rows: Vec<serde_json::Value>,
}

/// Every table of a project, by name. Stored as a world resource.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tables {
    tables: BTreeMap<String, RawTable>,
}

/// `kotoba_stages` from `kotoba_stages`, `data/kotoba_stages` or `data/kotoba_stages.json`.
pub fn table_name(name: &str) -> &str {
    let name = name.strip_prefix("data/").unwrap_or(name);
    name.strip_suffix(".json").unwrap_or(name)
}

fn file_error(file: &str, message: String) -> TableError {
    TableError {
        table: table_name(file).to_string(),
        rows: vec![RowError {
            file: file.to_string(),
            row: 0,
            label: None,
            message,
        }],
    }
}

fn row_label(row: &serde_json::Value) -> Option<String> {
    ["id", "name"].iter().find_map(|k| match row.get(k)? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

impl Tables {
    /// Loads every `*.json` under `<project>/data`, returning the tables that parsed and an
    /// error for each that did not. A project with no `data/` folder has no tables.
    pub fn load_dir(project: &Path) -> (Tables, Vec<TableError>) {
        let mut tables = Tables::default();
        let mut errors = Vec::new();
        let Ok(dir) = std::fs::read_dir(project.join("data")) else {
            return (tables, errors);
        };
        let mut files: Vec<_> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let file = format!("data/{stem}.json");
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    if let Err(e) = tables.insert_json(stem, &text) {
                        errors.push(e);
                    }
                }
                Err(e) => errors.push(file_error(&file, format!("cannot read: {e}"))),
            }
        }
        (tables, errors)
    }

    /// Parses `text` as the table `name` and stores it; on error nothing is stored.
    pub fn insert_json(&mut self, name: &str, text: &str) -> Result<(), TableError> {
        let name = table_name(name);
        let file = format!("data/{name}.json");
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| file_error(&file, format!("not valid JSON: {e}")))?;
        let serde_json::Value::Array(rows) = value else {
            return Err(file_error(
                &file,
                "a table is a JSON array of row objects".into(),
            ));
        };
        let bad: Vec<RowError> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.is_object())
            .map(|(i, r)| RowError {
                file: file.clone(),
                row: i + 1,
                label: None,
                message: format!("a row must be an object, got {}", json_kind(r)),
            })
            .collect();
        if !bad.is_empty() {
            return Err(TableError {
                table: name.to_string(),
                rows: bad,
            });
        }
        self.tables
            .insert(name.to_string(), RawTable { file, rows });
        Ok(())
    }

    /// The raw table, if loaded.
    pub fn raw(&self, name: &str) -> Option<&RawTable> {
        self.tables.get(table_name(name))
    }

    /// The names of every loaded table.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tables.keys().map(String::as_str)
    }

    /// Every row of `name` as a `T`, validated; or every row that failed.
    pub fn rows<T: Row>(&self, name: &str) -> Result<Vec<T>, TableError> {
        let name = table_name(name);
        let Some(raw) = self.tables.get(name) else {
            return Err(file_error(
                &format!("data/{name}.json"),
                "table not found in the project's data folder".into(),
            ));
        };
        let mut good = Vec::with_capacity(raw.rows.len());
        let mut errors = Vec::new();
        for (i, row) in raw.rows.iter().enumerate() {
            let err = |message: String| RowError {
                file: raw.file.clone(),
                row: i + 1,
                label: row_label(row),
                message,
            };
            match serde_path_to_error::deserialize::<_, T>(row) {
                Ok(value) => match value.validate() {
                    Ok(()) => good.push(value),
                    Err(m) => errors.push(err(m)),
                },
                Err(e) => errors.push(err(describe_path_error(&e))),
            }
        }
        if errors.is_empty() {
            Ok(good)
        } else {
            Err(TableError {
                table: name.to_string(),
                rows: errors,
            })
        }
    }
}

/// `field.sub[2]: what` from a serde path error, or just `what` at the top.
pub fn describe_path_error<E: fmt::Display>(e: &serde_path_to_error::Error<E>) -> String {
    let path = e.path().to_string();
    if path == "." || path.is_empty() {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    }
}

/// A JSON value's kind, as messages name it.
pub fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Stage {
        #[allow(dead_code)]
        id: String,
        time: f64,
    }
    impl Row for Stage {
        fn validate(&self) -> Result<(), String> {
            if self.time <= 0.0 {
                return Err(format!("time: must be above 0, got {}", self.time));
            }
            Ok(())
        }
    }

    #[test]
    fn every_bad_row_is_reported_with_row_label_and_field() {
        let mut tables = Tables::default();
        let text = r#"[{"id": "a", "time": 60}, {"id": "b", "time": "long"}, {"id": "c", "time": -1}, {"time": 5}]"#;
        tables.insert_json("data/stages", text).unwrap();
        let err = tables.rows::<Stage>("stages").unwrap_err();
        let lines: Vec<String> = err.rows.iter().map(|r| r.to_string()).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].starts_with("data/stages.json: row 2 (\"b\"): time: invalid type"),
            "{}",
            lines[0]
        );
        assert_eq!(
            lines[1],
            "data/stages.json: row 3 (\"c\"): time: must be above 0, got -1"
        );
        assert!(
            lines[2].contains("row 4: missing field `id`"),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn a_file_that_is_not_an_array_of_objects_is_refused_and_not_stored() {
        let mut tables = Tables::default();
        let err = tables.insert_json("stages", r#"{"id": 1}"#).unwrap_err();
        assert!(err.to_string().contains("JSON array"));
        let err = tables
            .insert_json("stages", r#"[{"id": 1}, 7]"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "data/stages.json: row 2: a row must be an object, got a number"
        );
        let err = tables.insert_json("stages", "[{").unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
        assert!(tables.raw("stages").is_none());
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic_the_loader(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut tables = Tables::default();
            let text = String::from_utf8_lossy(&bytes);
            if tables.insert_json("t", &text).is_ok() {
                let _ = tables.rows::<Stage>("t");
            }
        }

        #[test]
        fn random_rows_never_panic_row_checking(rows in proptest::collection::vec(crate::testing::json_value(), 0..6)) {
            let mut tables = Tables::default();
            let text = serde_json::to_string(&rows).unwrap();
            if tables.insert_json("t", &text).is_ok() {
                match tables.rows::<Stage>("t") {
                    Ok(good) => prop_assert_eq!(good.len(), rows.len()),
                    Err(e) => prop_assert!(!e.rows.is_empty()),
                }
            }
        }
    }
}
