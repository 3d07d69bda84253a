//! A scene file as the editor holds it: JSON that keeps its key order, and entities that keep
//! their own text until they are edited, so a save changes only the lines that were edited.
//! `patch` holds what turns one state of it into another, as the undo history keeps it.

mod patch;

pub(crate) use patch::Patch;

use std::fmt::Write as _;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

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

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// An entity line longer than this is written with one component per line.
const LINE: usize = 120;

#[derive(Debug, Clone, PartialEq)]
struct EntityDoc {
    value: Json,
    /// The entity's text as the file had it; `None` once edited.
    raw: Option<String>,
    /// Whether the file wrote it over several lines (`None` for a new entity: by length).
    multiline: Option<bool>,
    /// The space between the comma (or `[`) before it and its text, as the file had it.
    gap: Option<String>,
    /// The space between its text and the comma after it, as the file had it.
    trail: Option<String>,
}

/// A scene file being edited.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneDoc {
    /// Top-level members in file order; `entities` stands where the list goes.
    top: Vec<(String, Json)>,
    entities: Vec<EntityDoc>,
    /// The file's text when it was read, given back as it was while nothing changed.
    original: Option<String>,
    top_indent: String,
    entity_indent: String,
    /// When the file's entities are written out in full (every array item on its own line,
    /// as a JSON pretty-printer writes them), the indent of one level.
    pretty: Option<String>,
    /// Whether one-line objects have spaces inside their braces (`{ "a": 1 }`).
    spaced: bool,
    /// The file's text around the entities (`None` for a scene made here).
    frame: Option<Frame>,
}

/// How the list of entities sits in a scene file, for reading the raw texts.
#[derive(serde::Deserialize)]
struct RawEntities<'a> {
    #[serde(borrow)]
    entities: Option<&'a RawValue>,
}

/// Where `part` (a slice of `whole`) starts in it.
fn offset(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// The file's text around its entities, so a save gives back every byte it did not edit:
/// everything up to the list's `[`, from its `]` on, and the space before the `]`.
#[derive(Debug, Clone, PartialEq)]
struct Frame {
    head: String,
    foot: String,
    closing: String,
}

impl SceneDoc {
    /// Reads a scene file's text. Only its shape is checked here (an object whose `entities`
    /// is a list); what the entities hold is the loader's business.
    pub fn parse(text: &str) -> Result<SceneDoc, String> {
        let json = Json::parse(text).map_err(|e| format!("not a valid scene: {e}"))?;
        let Json::Object(fields) = json else {
            return Err(format!("not a valid scene: the file is {}", json.kind()));
        };
        let mut top = Vec::new();
        let mut entities = Vec::new();
        let mut frame = None;
        for (key, value) in fields {
            if key == "entities" && entities.is_empty() {
                let Json::Array(items) = value else {
                    return Err(format!(
                        "not a valid scene: \"entities\" is {}, not a list",
                        value.kind()
                    ));
                };
                let raw: RawEntities =
                    serde_json::from_str(text).map_err(|e| format!("not a valid scene: {e}"))?;
                let list = raw.entities.map(RawValue::get).unwrap_or("[]");
                let raws: Vec<&RawValue> =
                    serde_json::from_str(list).map_err(|e| format!("not a valid scene: {e}"))?;
                // The list's own text, entity by entity: the space after each comma (or
                // the `[`), and before the next comma.
                let start = offset(text, list);
                let mut cursor = 1;
                let mut gaps = Vec::with_capacity(raws.len());
                let mut trails = Vec::with_capacity(raws.len());
                for r in &raws {
                    let at = offset(list, r.get());
                    let between = list.get(cursor..at).unwrap_or("");
                    match between.split_once(',') {
                        Some((trail, gap)) => {
                            trails.push(trail.to_string());
                            gaps.push(gap.to_string());
                        }
                        None => gaps.push(between.to_string()),
                    }
                    cursor = at + r.get().len();
                }
                frame = Some(Frame {
                    head: text[..start + 1].to_string(),
                    foot: text[start + list.len() - 1..].to_string(),
                    closing: list.get(cursor..list.len() - 1).unwrap_or("").to_string(),
                });
                entities = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, value)| {
                        let raw = raws.get(i).map(|r| r.get().to_string());
                        EntityDoc {
                            value,
                            multiline: raw.as_ref().map(|r| r.contains('\n')),
                            raw,
                            gap: gaps.get(i).cloned(),
                            trail: trails.get(i).cloned(),
                        }
                    })
                    .collect();
                top.push((key, Json::Null));
            } else {
                top.push((key, value));
            }
        }
        if !top.iter().any(|(k, _)| k == "entities") {
            top.push(("entities".into(), Json::Null));
        }
        let (top_indent, entity_indent) = indents(text);
        let pretty = entities
            .iter()
            // Only where one component a line would not give the entity's text back.
            .find(|e| {
                e.multiline == Some(true)
                    && e.raw.as_deref()
                        != Some(entity_text(&e.value, &entity_indent, Some(true), true).as_str())
            })
            .and_then(|e| {
                ["  ", " ", "    ", "\t"]
                    .into_iter()
                    .find(|unit| {
                        e.raw.as_deref()
                            == Some(pretty_text(&e.value, unit, &entity_indent).as_str())
                    })
                    .map(String::from)
            });
        let spaced = entities
            .iter()
            .find_map(|e| e.raw.as_deref().filter(|r| !r.contains('\n')))
            .is_none_or(|r| r.starts_with("{ ") || r == "{}");
        Ok(SceneDoc {
            top,
            entities,
            original: Some(text.to_string()),
            top_indent,
            entity_indent,
            pretty,
            spaced,
            frame,
        })
    }

    /// An empty version 2 scene.
    pub fn empty() -> SceneDoc {
        SceneDoc {
            top: vec![
                ("version".into(), Json::Number(2.into())),
                ("entities".into(), Json::Null),
            ],
            entities: Vec::new(),
            original: None,
            top_indent: "  ".into(),
            entity_indent: "    ".into(),
            pretty: None,
            spaced: true,
            frame: None,
        }
    }

    /// The entities, in file order.
    pub fn entities(&self) -> impl ExactSizeIterator<Item = &Json> {
        self.entities.iter().map(|e| &e.value)
    }

    /// Entity `i`.
    pub fn entity(&self, i: usize) -> Option<&Json> {
        self.entities.get(i).map(|e| &e.value)
    }

    /// How many entities.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The scene's `version` as written.
    pub fn version(&self) -> Option<&Json> {
        self.top
            .iter()
            .find(|(k, _)| k == "version")
            .map(|(_, v)| v)
    }

    fn edited(&mut self, i: usize) -> Result<&mut Json, String> {
        let count = self.entities.len();
        self.original = None;
        let entity = self
            .entities
            .get_mut(i)
            .ok_or_else(|| format!("there is no entity {i} (the scene has {count})"))?;
        entity.raw = None;
        Ok(&mut entity.value)
    }

    /// Sets `key` (at `path` inside it) of entity `i`.
    pub fn set(&mut self, i: usize, key: &str, path: &[Step], value: Json) -> Result<(), String> {
        let entity = self.edited(i)?;
        if !matches!(entity, Json::Object(_)) {
            return Err(format!("entity {i} is {}, not an object", entity.kind()));
        }
        if path.is_empty() {
            entity.set(key, value);
            return Ok(());
        }
        let mut component = entity.get(key).cloned().unwrap_or(Json::Object(Vec::new()));
        component.set_path(path, value)?;
        entity.set(key, component);
        Ok(())
    }

    /// Removes `key` (or only `path` inside it) from entity `i`.
    pub fn remove(&mut self, i: usize, key: &str, path: &[Step]) -> Result<(), String> {
        let entity = self.edited(i)?;
        if path.is_empty() {
            if entity.remove(key) {
                return Ok(());
            }
            return Err(format!("entity {i} has no {key:?}"));
        }
        let mut component = entity
            .get(key)
            .cloned()
            .ok_or_else(|| format!("entity {i} has no {key:?}"))?;
        component.remove_path(path)?;
        entity.set(key, component);
        Ok(())
    }

    /// Puts `value` in as entity `at` (the end when past it); where it went.
    pub fn insert(&mut self, at: usize, value: Json) -> usize {
        let at = at.min(self.entities.len());
        self.original = None;
        self.entities.insert(
            at,
            EntityDoc {
                value,
                raw: None,
                multiline: None,
                gap: None,
                trail: None,
            },
        );
        at
    }

    /// Removes entity `i`.
    pub fn delete(&mut self, i: usize) -> Result<Json, String> {
        if i >= self.entities.len() {
            return Err(format!(
                "there is no entity {i} (the scene has {})",
                self.entities.len()
            ));
        }
        self.original = None;
        Ok(self.entities.remove(i).value)
    }

    /// Copies entity `i` in after itself under a name no other entity has; where it went.
    pub fn duplicate(&mut self, i: usize) -> Result<usize, String> {
        let mut copy = self
            .entity(i)
            .cloned()
            .ok_or_else(|| format!("there is no entity {i}"))?;
        if let Some(Json::String(name)) = copy.get("name") {
            let name = self.free_name(name);
            copy.set("name", Json::String(name));
        }
        // Laid out as the one it copies.
        let multiline = self.entities[i].multiline;
        let at = self.insert(i + 1, copy);
        self.entities[at].multiline = multiline;
        Ok(at)
    }

    /// `base`, or `base 2`, `base 3`... whichever no entity is named yet.
    pub fn free_name(&self, base: &str) -> String {
        let taken = |n: &str| {
            self.entities()
                .any(|e| matches!(e.get("name"), Some(Json::String(s)) if s == n))
        };
        // A name ending in a number counts on from it.
        let stem = match base.rsplit_once(' ') {
            Some((stem, n)) if n.parse::<u32>().is_ok() => stem,
            _ => base,
        };
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|n| format!("{stem} {n}"))
            .find(|n| !taken(n))
            .expect("some number is free")
    }

    /// The file's text: as read while nothing changed; else written in the file's own layout,
    /// untouched entities keeping their text.
    pub fn text(&self) -> String {
        if let Some(original) = &self.original {
            return original.clone();
        }
        let (ti, ei) = (&self.top_indent, &self.entity_indent);
        if let Some(frame) = &self.frame {
            let mut out = frame.head.clone();
            let last = self.entities.len().saturating_sub(1);
            for (i, e) in self.entities.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match &e.gap {
                    Some(gap) => out.push_str(gap),
                    None => {
                        out.push('\n');
                        out.push_str(ei);
                    }
                }
                out.push_str(&self.entity_text(e));
                if i < last {
                    out.push_str(e.trail.as_deref().unwrap_or(""));
                }
            }
            let closing = if self.entities.is_empty() {
                ""
            } else if frame.closing.is_empty() {
                // The file's list was empty: close it on a line of its own.
                &format!("\n{ti}")
            } else {
                &frame.closing
            };
            out.push_str(closing);
            out.push_str(&frame.foot);
            return out;
        }
        let mut out = String::from("{\n");
        for (n, (key, value)) in self.top.iter().enumerate() {
            out.push_str(ti);
            out.push_str(&quote(key));
            out.push_str(": ");
            if key == "entities" {
                if self.entities.is_empty() {
                    out.push_str("[]");
                } else {
                    out.push_str("[\n");
                    for (i, e) in self.entities.iter().enumerate() {
                        out.push_str(ei);
                        out.push_str(&self.entity_text(e));
                        if i + 1 < self.entities.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    out.push_str(ti);
                    out.push(']');
                }
            } else {
                out.push_str(&value.compact_spaced(self.spaced));
            }
            if n + 1 < self.top.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("}\n");
        out
    }
}

impl SceneDoc {
    /// An entity's text: as the file had it, or written in the file's style once edited.
    fn entity_text(&self, e: &EntityDoc) -> String {
        let ei = &self.entity_indent;
        match (&e.raw, &self.pretty) {
            (Some(raw), _) => raw.clone(),
            (None, Some(unit)) if e.multiline != Some(false) => pretty_text(&e.value, unit, ei),
            (None, _) => entity_text(&e.value, ei, e.multiline, self.spaced),
        }
    }
}

/// One entity: laid out as the file had it (on one line, or one component per line); a new
/// one on one line when it fits.
fn entity_text(value: &Json, indent: &str, multiline: Option<bool>, spaced: bool) -> String {
    let line = value.compact_spaced(spaced);
    let Json::Object(fields) = value else {
        return line;
    };
    let fits = line.chars().count() + indent.len() <= LINE;
    if !multiline.unwrap_or(!fits) || fields.is_empty() {
        return line;
    }
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (i, (k, v)) in fields.iter().enumerate() {
        out.push_str(&inner);
        out.push_str(&quote(k));
        out.push_str(": ");
        out.push_str(&v.compact_spaced(spaced));
        if i + 1 < fields.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// A value written out in full, `unit` a level, its lines after the first led by `indent`.
fn pretty_text(value: &Json, unit: &str, indent: &str) -> String {
    use serde::Serialize;
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    if value.serialize(&mut ser).is_err() {
        return value.compact();
    }
    let text = String::from_utf8(bytes).unwrap_or_default();
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                line.to_string()
            } else {
                format!("{indent}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The indentation of the file's top-level members and of its entities (two and four spaces
/// when the file does not show them).
fn indents(text: &str) -> (String, String) {
    let lead = |line: &str| -> String {
        line.chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    };
    let mut lines = text.lines();
    let top = lines
        .by_ref()
        .find(|l| l.trim_start().starts_with('"'))
        .map(lead)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "  ".into());
    let mut entity = None;
    let mut in_list = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("\"entities\"") {
            in_list = true;
            continue;
        }
        if in_list && t.starts_with('{') {
            entity = Some(lead(line));
            break;
        }
    }
    let entity = entity
        .filter(|s| s.len() > top.len())
        .unwrap_or_else(|| format!("{top}{top}"));
    (top, entity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FILE: &str = r##"{
  "version": 2,
  "entities": [
    { "name": "camera", "camera": { "center": [0, 0], "size": [16, 9], "clear": "#203040" } },
    { "name": "box", "transform": { "pos": [0, 1] }, "sprite": { "size": [2, 2], "tint": "#e0a030" } },
    {
      "name": "table",
      "z_last": 1
    }
  ]
}
"##;

    #[test]
    fn an_untouched_file_comes_back_as_it_was() {
        let doc = SceneDoc::parse(FILE).unwrap();
        assert_eq!(doc.len(), 3);
        assert_eq!(doc.text(), FILE);
    }

    #[test]
    fn an_edit_rewrites_only_its_entity_and_keeps_key_order() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        doc.set(
            1,
            "sprite",
            &[Step::Key("tint".into())],
            Json::String("#ff0000".into()),
        )
        .unwrap();
        let text = doc.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[4],
            r##"    { "name": "box", "transform": { "pos": [0, 1] }, "sprite": { "size": [2, 2], "tint": "#ff0000" } },"##
        );
        // The others are as they were, the multi-line one too.
        assert_eq!(lines[3], FILE.lines().nth(3).unwrap());
        assert_eq!(&lines[5..9], &FILE.lines().collect::<Vec<_>>()[5..9]);
        let again = SceneDoc::parse(&text).unwrap();
        assert_eq!(again.entity(1), doc.entity(1));
    }

    #[test]
    fn a_missing_field_is_added_at_the_end_and_a_path_makes_its_objects() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        doc.set(
            0,
            "transform",
            &[Step::Key("pos".into())],
            Json::parse("[1, 2]").unwrap(),
        )
        .unwrap();
        assert_eq!(
            doc.entity(0).unwrap().compact(),
            r##"{ "name": "camera", "camera": { "center": [0, 0], "size": [16, 9], "clear": "#203040" }, "transform": { "pos": [1, 2] } }"##
        );
        doc.set(
            1,
            "sprite",
            &[Step::Key("size".into()), Step::Index(0)],
            Json::Number(5.into()),
        )
        .unwrap();
        assert_eq!(
            doc.entity(1).unwrap().get("sprite").unwrap().compact(),
            r##"{ "size": [5, 2], "tint": "#e0a030" }"##
        );
        assert!(
            doc.set(
                1,
                "sprite",
                &[Step::Key("size".into()), Step::Index(7)],
                Json::Null
            )
            .is_err()
        );
    }

    #[test]
    fn a_long_entity_is_written_one_component_per_line() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let long = "x".repeat(150);
        doc.set(
            2,
            "text",
            &[Step::Key("text".into())],
            Json::String(long.clone()),
        )
        .unwrap();
        let text = doc.text();
        assert!(
            text.contains("    {\n      \"name\": \"table\",\n      \"z_last\": 1,\n"),
            "{text}"
        );
        assert!(text.contains(&format!(
            "      \"text\": {{ \"text\": \"{long}\" }}\n    }}\n"
        )));
        assert_eq!(SceneDoc::parse(&text).unwrap().entity(2), doc.entity(2));
    }

    #[test]
    fn duplicates_get_free_names_and_deletes_and_removes_work() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let at = doc.duplicate(1).unwrap();
        assert_eq!(at, 2);
        assert_eq!(
            doc.entity(2).unwrap().get("name"),
            Some(&Json::String("box 2".into()))
        );
        let again = doc.duplicate(2).unwrap();
        assert_eq!(
            doc.entity(again).unwrap().get("name"),
            Some(&Json::String("box 3".into()))
        );
        doc.delete(0).unwrap();
        assert_eq!(doc.len(), 4);
        doc.remove(0, "sprite", &[Step::Key("tint".into())])
            .unwrap();
        assert_eq!(
            doc.entity(0).unwrap().get("sprite").unwrap().compact(),
            r#"{ "size": [2, 2] }"#
        );
        doc.remove(0, "sprite", &[]).unwrap();
        assert!(doc.entity(0).unwrap().get("sprite").is_none());
        assert!(doc.remove(0, "sprite", &[]).is_err());
        assert!(doc.delete(10).is_err());
    }

    #[test]
    fn a_file_of_another_layout_keeps_its_indent() {
        let text = "{\n \"version\": 2,\n \"entities\": [\n  {\"name\": \"a\"},\n  {\"name\": \"b\"}\n ]\n}\n";
        let mut doc = SceneDoc::parse(text).unwrap();
        doc.set(1, "bulk", &[], Json::Bool(true)).unwrap();
        assert_eq!(
            doc.text(),
            "{\n \"version\": 2,\n \"entities\": [\n  {\"name\": \"a\"},\n  {\"name\": \"b\", \"bulk\": true}\n ]\n}\n"
        );
        let mut empty = SceneDoc::empty();
        assert_eq!(
            empty.text(),
            "{\n  \"version\": 2,\n  \"entities\": []\n}\n"
        );
        empty.insert(0, Json::parse(r#"{"name": "x"}"#).unwrap());
        assert_eq!(
            empty.text(),
            "{\n  \"version\": 2,\n  \"entities\": [\n    { \"name\": \"x\" }\n  ]\n}\n"
        );
    }

    #[test]
    fn shapes_that_are_not_scenes_are_refused_in_words() {
        assert!(SceneDoc::parse("[]").unwrap_err().contains("an array"));
        assert!(
            SceneDoc::parse(r#"{"entities": 3}"#)
                .unwrap_err()
                .contains("not a list")
        );
        assert!(
            SceneDoc::parse("{")
                .unwrap_err()
                .starts_with("not a valid scene")
        );
    }

    #[test]
    fn a_file_written_out_in_full_keeps_that_layout() {
        let text = "{\n \"version\": 2,\n \"entities\": [\n  {\n   \"name\": \"a\",\n   \"transform\": {\n    \"pos\": [\n     0,\n     1.0\n    ]\n   }\n  }\n ]\n}\n";
        let mut doc = SceneDoc::parse(text).unwrap();
        assert_eq!(doc.pretty.as_deref(), Some(" "));
        doc.set(
            0,
            "transform",
            &[Step::Key("pos".into()), Step::Index(0)],
            Json::Number(3.into()),
        )
        .unwrap();
        assert_eq!(doc.text(), text.replace("     0,", "     3,"));
        doc.insert(1, Json::parse(r#"{"name": "b", "bulk": true}"#).unwrap());
        assert!(
            doc.text()
                .contains("  },\n  {\n   \"name\": \"b\",\n   \"bulk\": true\n  }\n ]"),
            "{}",
            doc.text()
        );
    }

    /// Every entity of every game scene, written again as if edited: the same text, in the
    /// file's own style (one line, or written out in full), numbers to the last digit. Entities
    /// laid out by hand over several lines are only checked to read back the same.
    #[test]
    fn the_games_scenes_are_written_back_in_their_own_style() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects");
        let (mut checked, mut by_hand) = (0, 0);
        let mut differ = Vec::new();
        for project in std::fs::read_dir(&root).unwrap().flatten() {
            let Ok(scenes) = std::fs::read_dir(project.path().join("assets/scenes")) else {
                continue;
            };
            for scene in scenes.flatten() {
                let text = std::fs::read_to_string(scene.path()).unwrap();
                let doc = SceneDoc::parse(&text).unwrap();
                for i in 0..doc.len() {
                    let mut one = doc.clone();
                    let raw = one.entities[i].raw.clone().unwrap();
                    let _ = one.edited(i);
                    let written = one.text();
                    assert_eq!(SceneDoc::parse(&written).unwrap(), {
                        let mut back = SceneDoc::parse(&written).unwrap();
                        back.original = None;
                        back.original = Some(written.clone());
                        back
                    });
                    let hand = raw.contains('\n') && doc.pretty.is_none();
                    if written == text {
                        checked += 1;
                    } else if hand {
                        by_hand += 1;
                        let back = SceneDoc::parse(&written).unwrap();
                        assert_eq!(back.entity(i), doc.entity(i));
                    } else {
                        if differ.is_empty() {
                            for (a, b) in text
                                .lines()
                                .zip(written.lines())
                                .filter(|(a, b)| a != b)
                                .take(2)
                            {
                                eprintln!("- {a}\n+ {b}");
                            }
                        }
                        differ.push(format!("{} entity {i}", scene.path().display()));
                    }
                }
            }
        }
        assert!(checked >= 500, "{checked} entities checked");
        assert!(by_hand < checked / 20, "{by_hand} laid out by hand");
        assert!(differ.is_empty(), "{differ:#?}");
    }

    proptest! {
        #[test]
        fn parsing_any_text_never_panics(text in ".{0,200}") {
            let _ = SceneDoc::parse(&text);
        }

        #[test]
        fn edited_text_reads_back_to_the_same_entities(
            names in proptest::collection::vec("[a-z\"\\\\ é]{0,12}", 1..6),
            // Written as authors write them: a few decimals.
            value in (-1_000_000i64..1_000_000).prop_map(|v| v as f64 / 1000.0),
        ) {
            let mut doc = SceneDoc::empty();
            for (i, name) in names.iter().enumerate() {
                let mut e = Json::Object(Vec::new());
                e.set("name", Json::String(name.clone()));
                doc.insert(i, e);
                doc.set(i, "transform", &[Step::Key("pos".into())], Json::Array(vec![
                    Json::Number(serde_json::Number::from_f64(value).unwrap()),
                    Json::Number(1.into()),
                ])).unwrap();
            }
            let back = SceneDoc::parse(&doc.text()).unwrap();
            prop_assert_eq!(back.entities().cloned().collect::<Vec<_>>(), doc.entities().cloned().collect::<Vec<_>>());
        }
    }
}
