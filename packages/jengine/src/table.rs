//! Data tables: `data/<name>.json` in a project, each a JSON array of row objects.
//!
//! A table is kept as raw rows so scripts can read any table, while a package that declared
//! a row type gets every row deserialized and validated, and every bad row reported at once
//! with its table, row number and field. Each row is read on its own ([`Members`]), so a row
//! that is not an object or repeats a key is one error, not a table that fails to load.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::assets::Assets;

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
    /// 0-based indexes of rows already reported as malformed, per table: [`Tables::rows`]
    /// skips them rather than report them twice.
    malformed: BTreeMap<String, BTreeSet<usize>>,
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

/// The row's `id` or `name` to show in its errors; a label the name rule refuses (too long,
/// a control character) is not shown.
fn row_label(row: &serde_json::Value) -> Option<String> {
    ["id", "name"].iter().find_map(|k| match row.get(k)? {
        serde_json::Value::String(s) => crate::scene::check_name(s).is_ok().then(|| s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

impl Tables {
    /// Loads every `*.json` under `<project>/data` on disk, as [`Tables::load`] does.
    pub fn load_dir(project: &Path) -> (Tables, Vec<TableError>) {
        Tables::load(&crate::assets::DiskAssets::new(project))
    }

    /// Loads every `data/*.json` of a project's `assets`, returning the tables that parsed and
    /// an error for each that did not. A project with no `data/` folder has no tables.
    pub fn load(assets: &dyn Assets) -> (Tables, Vec<TableError>) {
        let mut tables = Tables::default();
        let mut errors = Vec::new();
        let Ok(entries) = assets.list("data") else {
            return (tables, errors);
        };
        for entry in entries {
            let Some(stem) = entry.name.strip_suffix(".json").filter(|s| !s.is_empty()) else {
                continue;
            };
            let file = format!("data/{stem}.json");
            match assets.read_text(&file) {
                Ok(text) => {
                    if let Err(e) = tables.insert_json(stem, &text) {
                        errors.push(e);
                    }
                }
                Err(e) => errors.push(file_error(&file, format!("cannot read: {}", e.problem))),
            }
        }
        (tables, errors)
    }

    /// Parses `text` as the table `name`. A file that is not a JSON array is refused and
    /// nothing is stored. An array is stored even when some rows are malformed (not an
    /// object, a key twice): those rows are the error, each with its number, and
    /// [`Tables::rows`] skips them, so one bad row neither hides the others' problems nor
    /// makes the table look missing.
    pub fn insert_json(&mut self, name: &str, text: &str) -> Result<(), TableError> {
        let name = table_name(name);
        let file = format!("data/{name}.json");
        if let Some(message) = trailing_bytes(text) {
            return Err(file_error(&file, message));
        }
        let items: Vec<Members<'_, serde_json::Value>> = match serde_json::from_str(text) {
            Ok(items) => items,
            Err(e) => {
                // Tell a file that is JSON but not an array from one that is not JSON at all.
                let array = text.trim_start().starts_with('[');
                let message = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
                    Ok(_) if !array => "a table is a JSON array of row objects".to_string(),
                    _ => format!("not valid JSON: {e}"),
                };
                return Err(file_error(&file, message));
            }
        };
        let mut rows = Vec::with_capacity(items.len());
        let mut bad = Vec::new();
        let mut malformed = BTreeSet::new();
        for (i, item) in items.into_iter().enumerate() {
            let (mut row, problem) = match item {
                Members::Object { fields, repeated } => {
                    let map: serde_json::Map<String, serde_json::Value> = fields
                        .into_iter()
                        .map(|(k, v)| (k.into_owned(), v))
                        .collect();
                    let row = serde_json::Value::Object(map);
                    let problem = if repeated.is_empty() {
                        long_string(&row)
                    } else {
                        let keys: Vec<String> = repeated.iter().map(|k| quoted(k)).collect();
                        Some(format!("key {} appears twice in one row", keys.join(", ")))
                    };
                    (row, problem)
                }
                Members::Other(kind) => (
                    serde_json::Value::Null,
                    Some(format!("a row must be an object, got {kind}")),
                ),
            };
            if let Some(message) = problem {
                malformed.insert(i);
                bad.push(RowError {
                    file: file.clone(),
                    row: i + 1,
                    label: row_label(&row),
                    message,
                });
                // A string past the cap is kept from every reader: the row stays in its
                // place as nothing.
                if long_string(&row).is_some() {
                    row = serde_json::Value::Null;
                }
            }
            rows.push(row);
        }
        self.tables
            .insert(name.to_string(), RawTable { file, rows });
        if malformed.is_empty() {
            self.malformed.remove(name);
            Ok(())
        } else {
            self.malformed.insert(name.to_string(), malformed);
            Err(TableError {
                table: name.to_string(),
                rows: bad,
            })
        }
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
                format!(
                    "table not found in the project's data folder; for a table with no rows, \
                     add the file data/{name}.json containing []"
                ),
            ));
        };
        let malformed = self.malformed.get(name);
        let mut good = Vec::with_capacity(raw.rows.len());
        let mut errors = Vec::new();
        for (i, row) in raw.rows.iter().enumerate() {
            if malformed.is_some_and(|m| m.contains(&i)) {
                continue;
            }
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

/// One JSON value read as an object's members in file order, each key once, or the kind of
/// value it is instead. Duplicate keys and non-objects are answers, not parse errors, so a
/// list of these reads every item even when some are wrong. Keys are borrowed from the text
/// when they hold no escapes, and a well-formed object allocates only its member list.
pub(crate) enum Members<'a, V> {
    /// An object: its members (the first of any repeated key) and the keys seen again.
    Object {
        fields: Vec<(Cow<'a, str>, V)>,
        repeated: Vec<Cow<'a, str>>,
    },
    /// Not an object: what it is, as [`json_kind`] says.
    Other(&'static str),
}

impl<'a, V> Members<'a, V> {
    /// The value of `key`, if the item is an object that has it.
    pub fn get(&self, key: &str) -> Option<&V> {
        match self {
            Members::Object { fields, .. } => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            Members::Other(_) => None,
        }
    }
}

/// An object's key, borrowed from the text when it holds no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

impl<'de: 'a, 'a, V: Deserialize<'de>> Deserialize<'de> for Members<'a, V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor<'a, V>(PhantomData<(&'a (), V)>);
        impl<'de: 'a, 'a, V: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<'a, V> {
            type Value = Members<'a, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut fields: Vec<(Cow<'a, str>, V)> =
                    Vec::with_capacity(map.size_hint().unwrap_or(4));
                let mut repeated: Vec<Cow<'a, str>> = Vec::new();
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    if fields.iter().any(|(k, _)| *k == key) {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        if !repeated.contains(&key) {
                            repeated.push(key);
                        }
                    } else {
                        let value: V = map.next_value()?;
                        fields.push((key, value));
                    }
                }
                Ok(Members::Object { fields, repeated })
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(
                self,
                mut seq: S,
            ) -> Result<Self::Value, S::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Members::Other("an array"))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Members::Other("null"))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Members::Other("a boolean"))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Members::Other("a number"))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Members::Other("a number"))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Members::Other("a number"))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Members::Other("a string"))
            }
        }
        d.deserialize_any(Visitor(PhantomData))
    }
}

/// The most characters a string or key in a scene, table or project file may hold (names and
/// titles have their own, smaller caps).
pub const MAX_STRING: usize = 65_536;

/// Where the first JSON value in `text` ends and something other than whitespace follows,
/// as a message with the byte offset: bytes a reader would otherwise drop unseen. `None`
/// when the text is one value (or not JSON at all, which its own parse reports).
pub(crate) fn trailing_bytes(text: &str) -> Option<String> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
    values.next()?.ok()?;
    let end = values.byte_offset();
    let rest = text.as_bytes().get(end..)?;
    let at = rest
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    Some(format!(
        "trailing bytes after the JSON: byte {} is 0x{:02x}; only whitespace may follow the document",
        end + at,
        rest[at]
    ))
}

/// How many characters `text` has, when that is more than `max`.
pub(crate) fn too_long(text: &str, max: usize) -> Option<usize> {
    // A string of at most `max` bytes has at most `max` characters: no count needed.
    if text.len() <= max {
        return None;
    }
    let chars = text.chars().count();
    (chars > max).then_some(chars)
}

/// The first string or key inside a JSON value longer than [`MAX_STRING`] characters, as
/// `path: what` (`notes[1]: a string is at most …`), or `None`. Read straight from any serde
/// deserializer (a scene's raw text, a table's parsed row) without building the value.
pub(crate) fn long_string<'de, D: serde::Deserializer<'de>>(d: D) -> Option<String> {
    let LongString(found) = LongString::deserialize(d).ok()?;
    let (path, message) = found?;
    let path = path.strip_prefix('.').unwrap_or(&path);
    Some(if path.is_empty() {
        message
    } else {
        format!("{path}: {message}")
    })
}

/// What [`long_string`] finds: the path to the first string past the cap (built from the
/// inside out, only when there is one) and what is wrong with it.
struct LongString(Option<(String, String)>);

impl<'de> Deserialize<'de> for LongString {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = LongString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, v: &str) -> Result<LongString, E> {
                Ok(LongString(too_long(v, MAX_STRING).map(|chars| {
                    let message = format!(
                        "a string is at most {MAX_STRING} characters, this one has {chars}"
                    );
                    (String::new(), message)
                })))
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(
                self,
                mut seq: S,
            ) -> Result<LongString, S::Error> {
                let mut found = None;
                let mut i = 0usize;
                while let Some(LongString(inner)) = seq.next_element()? {
                    if found.is_none()
                        && let Some((path, message)) = inner
                    {
                        found = Some((format!("[{i}]{path}"), message));
                    }
                    i += 1;
                }
                Ok(LongString(found))
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<LongString, M::Error> {
                let mut found = None;
                while let Some(Key(key)) = map.next_key()? {
                    let LongString(inner) = map.next_value()?;
                    if found.is_some() {
                        continue;
                    }
                    if let Some(chars) = too_long(&key, MAX_STRING) {
                        let message = format!(
                            "a key is at most {MAX_STRING} characters, this one has {chars}"
                        );
                        found = Some((String::new(), message));
                    } else if let Some((path, message)) = inner {
                        // A key that would garble the path is shown quoted.
                        let step = if crate::scene::check_name(&key).is_ok()
                            && !key.contains(['.', '[', ']'])
                        {
                            format!(".{key}")
                        } else {
                            format!("[{key:?}]")
                        };
                        found = Some((format!("{step}{path}"), message));
                    }
                }
                Ok(LongString(found))
            }
            fn visit_bool<E>(self, _: bool) -> Result<LongString, E> {
                Ok(LongString(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<LongString, E> {
                Ok(LongString(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<LongString, E> {
                Ok(LongString(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<LongString, E> {
                Ok(LongString(None))
            }
            fn visit_unit<E>(self) -> Result<LongString, E> {
                Ok(LongString(None))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The candidate closest to `word` by edit distance, when it is close enough to be a typo:
/// at most one edit per three characters of the longer word (and at least one).
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let length = word.chars().count();
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .filter_map(|c| {
            let other = c.chars().count();
            let most = (length.max(other) / 3).max(1);
            // Words whose lengths differ by more edits than allowed are never close, and a
            // long word's distance table is never built for them.
            if length.abs_diff(other) > most {
                return None;
            }
            let d = edit_distance(word, c);
            (d <= most).then_some((d, c))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `text` in quotes for a message, escaped as Rust's `{:?}` does and with the
/// bidirectional controls escaped too; past 60 characters it is cut, with its length said.
/// A key or value from a file can be shown this way without garbling the message.
pub(crate) fn quoted(text: &str) -> String {
    const SHOWN: usize = 60;
    let (cut, more) = match text.char_indices().nth(SHOWN) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    };
    let mut out = String::new();
    for ch in format!("{cut:?}").chars() {
        if crate::scene::is_bidi_control(ch) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(ch)));
        } else {
            out.push(ch);
        }
    }
    if more {
        out.insert(out.len() - 1, '…');
        out.push_str(&format!(" ({} characters)", text.chars().count()));
    }
    out
}

/// `; did you mean "x"?` for the closest candidate, or nothing.
pub(crate) fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> String {
    closest(word, candidates)
        .map(|c| format!("; did you mean {c:?}?"))
        .unwrap_or_default()
}

/// Edit distance over characters counting insertions, deletions, substitutions and swaps of
/// two neighbours (the optimal-string-alignment distance): `titel` is one edit from `title`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: distance between a[..i] and b[..j].
    let mut d: Vec<Vec<usize>> = (0..=a.len())
        .map(|i| (0..=b.len()).map(|j| if i == 0 { j } else { i }).collect())
        .collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
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
    fn tables_in_memory_load_as_the_same_files_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let mut memory = crate::assets::MemoryAssets::new();
        for (name, text) in [
            ("data/goals.json", r#"[{"id": "a"}, {"id": "b"}]"#),
            ("data/bad.json", "[1, {\"id\": \"x\"}]"),
            ("data/notes.txt", "not a table"),
        ] {
            std::fs::create_dir_all(dir.path().join("data")).unwrap();
            std::fs::write(dir.path().join(name), text).unwrap();
            memory.insert(name, text).unwrap();
        }
        let (disk_tables, disk_errors) = Tables::load_dir(dir.path());
        let (tables, errors) = Tables::load(&memory);
        assert_eq!(tables, disk_tables);
        assert_eq!(errors, disk_errors);
        assert_eq!(tables.names().collect::<Vec<_>>(), ["bad", "goals"]);
        assert_eq!(
            errors[0].to_string(),
            "data/bad.json: row 1: a row must be an object, got a number"
        );
        let (none, errors) = Tables::load(&crate::assets::MemoryAssets::new());
        assert_eq!((none.names().count(), errors.len()), (0, 0));
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
    fn a_file_that_is_not_an_array_is_refused_and_not_stored() {
        let mut tables = Tables::default();
        let err = tables.insert_json("stages", r#"{"id": 1}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "data/stages.json: a table is a JSON array of row objects"
        );
        let err = tables.insert_json("stages", "[{").unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
        let err = tables
            .insert_json("stages", r#"[{"a": 1e400}]"#)
            .unwrap_err();
        assert!(err.to_string().contains("not valid JSON"), "{err}");
        assert!(tables.raw("stages").is_none());
    }

    #[test]
    fn a_malformed_row_is_one_error_and_the_other_rows_are_still_checked() {
        let mut tables = Tables::default();
        let text = r#"[
            {"id": "a", "time": 1},
            7,
            {"id": "c", "time": 2, "id": "d", "time": 3},
            {"id": "e", "time": "x"},
            [1, 2]
        ]"#;
        let err = tables.insert_json("stages", text).unwrap_err();
        let lines: Vec<String> = err.rows.iter().map(|r| r.to_string()).collect();
        assert_eq!(
            lines,
            [
                "data/stages.json: row 2: a row must be an object, got a number",
                "data/stages.json: row 3 (\"c\"): key \"id\", \"time\" appears twice in one row",
                "data/stages.json: row 5: a row must be an object, got an array",
            ]
        );
        // The table is there (no false "not found"), every row in its place.
        assert_eq!(tables.raw("stages").unwrap().rows.len(), 5);
        let err = tables.rows::<Stage>("stages").unwrap_err();
        let lines: Vec<String> = err.rows.iter().map(|r| r.to_string()).collect();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("data/stages.json: row 4 (\"e\"): time: invalid type"),
            "{}",
            lines[0]
        );
        // Fixing the file clears what was remembered about it.
        tables
            .insert_json("stages", r#"[{"id": "a", "time": 1}]"#)
            .unwrap();
        assert_eq!(tables.rows::<Stage>("stages").unwrap().len(), 1);
    }

    #[test]
    fn a_declared_table_without_a_file_says_how_to_add_an_empty_one() {
        let tables = Tables::default();
        let err = tables.rows::<Stage>("data/stages").unwrap_err();
        assert_eq!(
            err.to_string(),
            "data/stages.json: table not found in the project's data folder; for a table with \
             no rows, add the file data/stages.json containing []"
        );
        let mut tables = Tables::default();
        tables.insert_json("stages", "[]").unwrap();
        assert!(tables.rows::<Stage>("stages").unwrap().is_empty());
    }

    #[test]
    fn closest_finds_typos_and_not_strangers() {
        let keys = ["name", "transform", "sprite", "counter"];
        assert_eq!(closest("trasform", keys), Some("transform"));
        assert_eq!(closest("nmae", keys), Some("name"));
        assert_eq!(closest("countr", keys), Some("counter"));
        assert_eq!(closest("wobble", keys), None);
        assert_eq!(
            closest("name", keys),
            None,
            "the word itself is no suggestion"
        );
        assert_eq!(closest("", keys), None);
        assert_eq!(
            closest("titel", ["width", "height", "title"]),
            Some("title")
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("paht", "path"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(did_you_mean("sprit", keys), "; did you mean \"sprite\"?");
    }

    #[test]
    fn trailing_bytes_after_a_table_are_an_error_with_their_offset() {
        let mut tables = Tables::default();
        let err = tables
            .insert_json("stages", "[{\"id\": \"a\"}]\0")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "data/stages.json: trailing bytes after the JSON: byte 13 is 0x00; only whitespace may follow the document"
        );
        assert!(tables.raw("stages").is_none());
    }

    #[test]
    fn a_ten_megabyte_string_in_a_row_is_that_row_s_error_with_the_cap() {
        let long = "s".repeat(10 << 20);
        let text = format!(
            r#"[{{"id": "a", "time": 1}}, {{"id": "b", "notes": ["x", "{long}"]}}, {{"id": "c", "{long}": 1}}]"#
        );
        let mut tables = Tables::default();
        let err = tables.insert_json("stages", &text).unwrap_err();
        let lines: Vec<String> = err.rows.iter().map(|r| r.to_string()).collect();
        assert_eq!(
            lines,
            [
                "data/stages.json: row 2 (\"b\"): notes[1]: a string is at most 65536 characters, this one has 10485760",
                "data/stages.json: row 3 (\"c\"): a key is at most 65536 characters, this one has 10485760",
            ]
        );
        // The rows are in their places, the long ones kept as nothing.
        let rows = &tables.raw("stages").unwrap().rows;
        assert_eq!(rows.len(), 3);
        assert!(rows[1].is_null() && rows[2].is_null());
        assert_eq!(tables.rows::<Stage>("stages").unwrap().len(), 1);
    }

    #[test]
    fn a_long_word_is_compared_without_building_its_whole_distance_table() {
        let word = "x".repeat(10 << 20);
        assert_eq!(closest(&word, ["name", "transform"]), None);
        assert_eq!(did_you_mean("name", [word.as_str()]), "");
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
        fn random_rows_with_repeated_keys_never_panic_and_keep_every_row(
            rows in proptest::collection::vec(
                proptest::collection::vec(("[ab]", crate::testing::json_value()), 0..4),
                0..6)
        ) {
            // Written by hand: a JSON map cannot hold a key twice, a file can.
            let text = format!("[{}]", rows.iter().map(|members| {
                let inner: Vec<String> = members.iter()
                    .map(|(k, v)| format!("{k:?}: {v}"))
                    .collect();
                format!("{{{}}}", inner.join(", "))
            }).collect::<Vec<_>>().join(", "));
            let mut tables = Tables::default();
            let result = tables.insert_json("t", &text);
            prop_assert_eq!(tables.raw("t").unwrap().rows.len(), rows.len());
            let repeats = rows.iter().filter(|m| {
                m.iter().enumerate().any(|(i, (k, _))| m[..i].iter().any(|(j, _)| j == k))
            }).count();
            match result {
                Ok(()) => prop_assert_eq!(repeats, 0),
                Err(e) => prop_assert_eq!(e.rows.len(), repeats),
            }
            let _ = tables.rows::<Stage>("t");
        }

        #[test]
        fn random_rows_never_panic_row_checking(rows in proptest::collection::vec(crate::testing::json_value(), 0..6)) {
            let mut tables = Tables::default();
            let text = serde_json::to_string(&rows).unwrap();
            let malformed = tables.insert_json("t", &text).err().map_or(0, |e| e.rows.len());
            prop_assert_eq!(malformed, rows.iter().filter(|r| !r.is_object()).count());
            // Every row is reported once: malformed at insert, the rest by row checking.
            match tables.rows::<Stage>("t") {
                Ok(good) => prop_assert_eq!(good.len() + malformed, rows.len()),
                Err(e) => prop_assert!(e.rows.len() + malformed <= rows.len()),
            }
        }
    }
}
