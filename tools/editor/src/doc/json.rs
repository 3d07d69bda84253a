//! JSON that keeps its key order: [`Json`], read with serde and written back on one line in
//! the scene files' style, and [`Step`], one step of a path into it.
//!
//! serde_json's own value sorts its keys; a scene written back must keep the author's order.

use std::fmt::Write as _;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value whose objects keep their keys in the order they were written.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json reads it.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in file order (a key written twice is kept twice, so the loader can
    /// say so).
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_none<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
                Ok(Json::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
                Ok(Json::Number(v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
                Ok(Json::Number(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
                serde_json::Number::from_f64(v)
                    .map(Json::Number)
                    .ok_or_else(|| E::custom("a number must be finite"))
            }
            fn visit_str<E>(self, v: &str) -> Result<Json, E> {
                Ok(Json::String(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Json, E> {
                Ok(Json::String(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut fields = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    fields.push((k, v));
                }
                Ok(Json::Object(fields))
            }
        }
        d.deserialize_any(V)
    }
}

impl serde::Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::String(t) => s.serialize_str(t),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

/// One step into a value: a key of an object or an index of an array.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum Step {
    /// An object's key.
    Key(String),
    /// An array's index.
    Index(usize),
}

impl Json {
    /// Parses text, keeping key order.
    pub fn parse(text: &str) -> Result<Json, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The value of `key` in an object (the first, if written twice).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` in an object: in place when present, else at the end. False when this is
    /// not an object.
    pub fn set(&mut self, key: &str, value: Json) -> bool {
        let Json::Object(fields) = self else {
            return false;
        };
        match fields.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => fields.push((key.to_string(), value)),
        }
        true
    }

    /// Removes every `key` of an object; whether one was there.
    pub fn remove(&mut self, key: &str) -> bool {
        let Json::Object(fields) = self else {
            return false;
        };
        let before = fields.len();
        fields.retain(|(k, _)| k != key);
        fields.len() != before
    }

    /// Sets the value at `path` below this one, making objects for missing keys on the way.
    pub fn set_path(&mut self, path: &[Step], value: Json) -> Result<(), String> {
        let Some((first, rest)) = path.split_first() else {
            *self = value;
            return Ok(());
        };
        match (self, first) {
            (Json::Object(fields), Step::Key(key)) => {
                let slot = match fields.iter().position(|(k, _)| k == key) {
                    Some(i) => &mut fields[i].1,
                    None => {
                        fields.push((key.clone(), Json::Object(Vec::new())));
                        &mut fields.last_mut().expect("just pushed").1
                    }
                };
                slot.set_path(rest, value)
            }
            (Json::Array(items), Step::Index(i)) => {
                let len = items.len();
                match items.get_mut(*i) {
                    Some(slot) => slot.set_path(rest, value),
                    None if *i == len && rest.is_empty() => {
                        items.push(value);
                        Ok(())
                    }
                    None => Err(format!("index {i} is past the end (length {len})")),
                }
            }
            (other, step) => Err(format!(
                "cannot step into {} with {}",
                other.kind(),
                match step {
                    Step::Key(k) => format!("key {k:?}"),
                    Step::Index(i) => format!("index {i}"),
                }
            )),
        }
    }

    /// Removes the value at `path` (a key of an object or an item of an array).
    pub fn remove_path(&mut self, path: &[Step]) -> Result<(), String> {
        let Some((last, parent)) = path.split_last() else {
            return Err("nothing to remove: the path is empty".into());
        };
        let mut node = self;
        for step in parent {
            node = match (node, step) {
                (Json::Object(fields), Step::Key(k)) => fields
                    .iter_mut()
                    .find(|(key, _)| key == k)
                    .map(|(_, v)| v)
                    .ok_or_else(|| format!("no key {k:?}"))?,
                (Json::Array(items), Step::Index(i)) => {
                    items.get_mut(*i).ok_or_else(|| format!("no index {i}"))?
                }
                (other, _) => return Err(format!("cannot step into {}", other.kind())),
            };
        }
        match (node, last) {
            (json @ Json::Object(_), Step::Key(k)) => {
                json.remove(k);
                Ok(())
            }
            (Json::Array(items), Step::Index(i)) if *i < items.len() => {
                items.remove(*i);
                Ok(())
            }
            (other, _) => Err(format!("nothing to remove in {}", other.kind())),
        }
    }

    /// What kind of value this is, in words.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// As serde_json's value (keys then sorted; for reading, not for writing back).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// On one line, in the scene files' style: `{ "pos": [0, 1], "z": 2 }`.
    pub fn compact(&self) -> String {
        let mut out = String::new();
        self.write_compact(&mut out, true);
        out
    }

    /// On one line, objects with (`{ "a": 1 }`) or without (`{"a": 1}`) spaces inside braces.
    pub fn compact_spaced(&self, spaced: bool) -> String {
        let mut out = String::new();
        self.write_compact(&mut out, spaced);
        out
    }

    fn write_compact(&self, out: &mut String, spaced: bool) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => {
                let _ = write!(out, "{n}");
            }
            Json::String(s) => out.push_str(&quote(s)),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write_compact(out, spaced);
                }
                out.push(']');
            }
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Object(fields) => {
                out.push_str(if spaced { "{ " } else { "{" });
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&quote(k));
                    out.push_str(": ");
                    v.write_compact(out, spaced);
                }
                out.push_str(if spaced { " }" } else { "}" });
            }
        }
    }
}

/// `s` as a JSON string.
pub(super) fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}
