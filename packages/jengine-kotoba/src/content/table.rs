//! A data table read row by row: a JSON array of row objects, each field checked, and every
//! problem kept with its row and field, so a bad table is reported whole and nothing
//! half-loads.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};
use thiserror::Error;

use crate::board::Board;

/// One thing wrong in a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The row, from 1; 0 for the table as a whole.
    pub row: usize,
    /// The field, empty for the table or row as a whole.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// A table that did not load, with every problem found in it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct TableError {
    /// The table's name, such as `data/kotoba_stages`.
    pub table: String,
    /// Every problem, in row order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", self.table)?;
            if p.row > 0 {
                write!(f, ", row {}", p.row)?;
            }
            if !p.field.is_empty() {
                write!(f, ", field {}", p.field)?;
            }
            write!(f, ": {}", p.message)?;
        }
        Ok(())
    }
}

/// The JSON of a table's text, or the one problem that it is not JSON.
pub(super) fn parse_json(table: &str, text: &str) -> Result<Value, TableError> {
    serde_json::from_str(text).map_err(|e| TableError {
        table: table.to_string(),
        problems: vec![Problem {
            row: 0,
            field: String::new(),
            message: format!("not JSON: {e}"),
        }],
    })
}

/// Reads every row of `value` with `read`, refusing a field not in `fields`; the rows, or every
/// problem found.
pub(super) fn read_table<T>(
    table: &str,
    value: &Value,
    fields: &[&str],
    read: impl Fn(&Row) -> Result<T, Problem>,
) -> Result<Vec<T>, TableError> {
    let fail = |problems| TableError {
        table: table.to_string(),
        problems,
    };
    let Some(rows) = value.as_array() else {
        return Err(fail(vec![Problem {
            row: 0,
            field: String::new(),
            message: "a table is a JSON array of rows".into(),
        }]));
    };
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, v) in rows.iter().enumerate() {
        let number = i + 1;
        let Some(map) = v.as_object() else {
            problems.push(Problem {
                row: number,
                field: String::new(),
                message: "a row is a JSON object".into(),
            });
            continue;
        };
        let row = Row { number, map };
        if let Some(unknown) = map.keys().find(|k| !fields.contains(&k.as_str())) {
            problems.push(row.wrong(
                unknown,
                format!("unknown field; the fields are {}", fields.join(", ")),
            ));
            continue;
        }
        match read(&row) {
            Ok(t) => out.push(t),
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(fail(problems))
    }
}

/// Refuses a row whose id an earlier row already has.
pub(super) fn unique_ids<T>(
    table: &str,
    rows: &[T],
    id: impl Fn(&T) -> &String,
) -> Result<(), TableError> {
    let mut seen = HashSet::new();
    let problems: Vec<Problem> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !seen.insert(id(r).clone()))
        .map(|(i, r)| Problem {
            row: i + 1,
            field: "id".into(),
            message: format!("{:?} is used by an earlier row", id(r)),
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(TableError {
            table: table.to_string(),
            problems,
        })
    }
}

/// One row being read, so every problem knows its row.
pub(super) struct Row<'a> {
    number: usize,
    map: &'a Map<String, Value>,
}

impl Row<'_> {
    pub(super) fn wrong(&self, field: &str, message: String) -> Problem {
        Problem {
            row: self.number,
            field: field.to_string(),
            message,
        }
    }

    pub(super) fn get(&self, field: &str) -> Option<&Value> {
        self.map.get(field)
    }

    pub(super) fn need(&self, field: &str) -> Result<&Value, Problem> {
        self.get(field)
            .ok_or_else(|| self.wrong(field, "missing".into()))
    }

    pub(super) fn string(&self, field: &str) -> Result<String, Problem> {
        let s = self
            .need(field)?
            .as_str()
            .ok_or_else(|| self.wrong(field, "must be a string".into()))?;
        if s.trim().is_empty() {
            return Err(self.wrong(field, "must not be empty".into()));
        }
        Ok(s.to_string())
    }

    pub(super) fn optional_string(&self, field: &str) -> Result<String, Problem> {
        match self.get(field) {
            None => Ok(String::new()),
            Some(v) => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| self.wrong(field, "must be a string".into())),
        }
    }

    pub(super) fn number(&self, field: &str) -> Result<f64, Problem> {
        self.need(field)?
            .as_f64()
            .ok_or_else(|| self.wrong(field, "must be a number".into()))
    }

    pub(super) fn seconds(&self, field: &str) -> Result<f32, Problem> {
        let t = self.number(field)?;
        if !(t > 0.0 && t <= 3600.0) {
            return Err(self.wrong(
                field,
                format!("{t} is not above 0 and at most 3600 seconds"),
            ));
        }
        Ok(t as f32)
    }

    pub(super) fn count(
        &self,
        field: &str,
        range: std::ops::RangeInclusive<usize>,
    ) -> Result<usize, Problem> {
        let v = self.need(field)?;
        let n = v
            .as_u64()
            .ok_or_else(|| self.wrong(field, format!("{v} is not a whole number")))?;
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !range.contains(&n) {
            return Err(self.wrong(
                field,
                format!("{n} is not from {} to {}", range.start(), range.end()),
            ));
        }
        Ok(n)
    }

    pub(super) fn optional_count(
        &self,
        field: &str,
        default: usize,
        range: std::ops::RangeInclusive<usize>,
    ) -> Result<usize, Problem> {
        match self.get(field) {
            None => Ok(default),
            Some(_) => self.count(field, range),
        }
    }

    pub(super) fn board(&self, field: &str) -> Result<Board, Problem> {
        let rows = self
            .need(field)?
            .as_array()
            .ok_or_else(|| self.wrong(field, "must be an array of rows of text".into()))?;
        let mut text = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let s = r.as_str().ok_or_else(|| {
                self.wrong(field, format!("row {} of the board is not text", i + 1))
            })?;
            text.push(s);
        }
        let board = Board::from_rows(&text).map_err(|e| self.wrong(field, e.to_string()))?;
        if board.open_cells().next().is_none() {
            return Err(self.wrong(
                field,
                "no free cell touches a kana, so nothing can be placed".into(),
            ));
        }
        Ok(board)
    }

    pub(super) fn stars(&self, field: &str) -> Result<[u32; 3], Problem> {
        let v = self.need(field)?;
        let list: Option<Vec<u32>> = v.as_array().and_then(|a| {
            a.iter()
                .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
                .collect()
        });
        let Some(list) = list else {
            return Err(self.wrong(field, "must be three whole numbers".into()));
        };
        let Ok(stars) = <[u32; 3]>::try_from(list.as_slice()) else {
            return Err(self.wrong(field, format!("has {} scores, not 3", list.len())));
        };
        if !(stars[0] < stars[1] && stars[1] < stars[2]) {
            return Err(self.wrong(
                field,
                format!("{stars:?} must rise: one star, then two, then three"),
            ));
        }
        Ok(stars)
    }
}

#[cfg(test)]
mod tests {
    use crate::content::tests::{good_stage, stage_problem};
    use crate::content::{STAGES_TABLE, stages_from_str, stages_from_value};
    use serde_json::json;

    #[test]
    fn other_bad_stage_fields_are_named() {
        for (field, value) in [
            ("hand", json!(0)),
            ("time", json!(-5)),
            ("name", json!(3)),
            ("tiles", json!(1.5)),
            ("colour", json!("red")),
        ] {
            let p = stage_problem(|r| {
                r.insert(field.into(), value.clone());
            });
            assert_eq!(p.field, field);
        }
        let p = stage_problem(|r| {
            r.remove("id");
        });
        assert_eq!((p.field.as_str(), p.message.as_str()), ("id", "missing"));
    }

    #[test]
    fn every_bad_row_is_reported() {
        let mut a = good_stage();
        a["hand"] = json!(99);
        let mut b = good_stage();
        b["stars"] = json!([3, 2, 1]);
        let err = stages_from_value(STAGES_TABLE, &json!([a, good_stage(), b])).unwrap_err();
        let rows: Vec<(usize, &str)> = err
            .problems
            .iter()
            .map(|p| (p.row, p.field.as_str()))
            .collect();
        assert_eq!(rows, [(1, "hand"), (3, "stars")]);
        let text = err.to_string();
        assert!(
            text.contains("data/kotoba_stages, row 3, field stars"),
            "{text}"
        );
    }

    #[test]
    fn duplicate_ids_and_non_tables_are_refused() {
        let err =
            stages_from_value(STAGES_TABLE, &json!([good_stage(), good_stage()])).unwrap_err();
        assert_eq!(
            (err.problems[0].row, err.problems[0].field.as_str()),
            (2, "id")
        );
        assert!(stages_from_str(STAGES_TABLE, "{").is_err());
        assert!(stages_from_value(STAGES_TABLE, &json!({"id": 1})).is_err());
    }
}
