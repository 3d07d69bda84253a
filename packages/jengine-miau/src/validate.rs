//! The one validator: plain data (from any source) in, a checked [`Pack`] or every problem out.
//!
//! It walks the whole value once and records each problem with its path
//! (`levels[2].objects[7].x`) instead of stopping at the first, so an editor can show them all.
//! Nothing is built unless there are no problems, so a bad pack never half-loads. Loose words
//! with no meaning in their proof are reported as nonblocking [`Note`]s.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;

use serde_json::{Map, Value};

use crate::board::{MAX_SIDE, Proof};
use crate::pack::{
    Behaviour, Facing, Glyph, Level, Manifest, Pack, Placement, PlacementKind, RuleText,
};
use crate::rules::{self, TokenKind, is_reserved, is_token};

/// At most this many levels in a pack.
pub const MAX_LEVELS: usize = 64;
/// At most this many entities (words and objects) in one level.
pub const MAX_ENTITIES: usize = 4096;
/// At most this many bytes of pack source text.
pub const MAX_SOURCE_BYTES: usize = 512 * 1024;
/// Longest glyph in a `{ glyph, faces }` palette entry, in characters.
pub const MAX_GLYPH_CHARS: usize = 16;

/// Host features this build supports.
pub fn host_features() -> &'static [&'static str] {
    if cfg!(feature = "automata") {
        &["automata"]
    } else {
        &[]
    }
}

/// One thing wrong with a pack, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where, such as `levels[2].objects[7].x`.
    pub path: String,
    /// What is wrong, for the author.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A nonblocking remark about a word with no meaning in its proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The word text.
    pub word: String,
    /// The level's id.
    pub level_id: String,
    /// The level's display title.
    pub level_title: String,
    /// The sentence the word already stands in, if any.
    pub sentence: Option<String>,
    /// What a player would want to know.
    pub message: String,
    /// What an author would want to know.
    pub detail: String,
    /// Where in the pack the note points when it is not a word tile, such as
    /// `palette.SKULL` for a glyph no bundled font draws.
    pub path: Option<String>,
}

impl Note {
    /// The note as a JSON record: `word`, `levelId`, `levelTitle`, `sentence` (only when the
    /// word stands in one), `message` and `detail`.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("word".into(), Value::from(self.word.clone()));
        out.insert("levelId".into(), Value::from(self.level_id.clone()));
        out.insert("levelTitle".into(), Value::from(self.level_title.clone()));
        if let Some(s) = &self.sentence {
            out.insert("sentence".into(), Value::from(s.clone()));
        }
        out.insert("message".into(), Value::from(self.message.clone()));
        out.insert("detail".into(), Value::from(self.detail.clone()));
        if let Some(p) = &self.path {
            out.insert("path".into(), Value::from(p.clone()));
        }
        Value::Object(out)
    }
}

impl Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = match (&self.path, self.level_id.is_empty()) {
            (Some(p), true) => p.as_str(),
            _ => self.level_id.as_str(),
        };
        write!(f, "{place}: {} {}", self.message, self.detail)
    }
}

/// Notes that say the same thing (same word, sentence, message and detail) as one, with how
/// many times each was said, in the order each first appears. Eleven stacked copies of one
/// loose word are one note said eleven times.
pub fn merged(notes: &[Note]) -> Vec<(&Note, usize)> {
    // One pass with an index by what a note says: a level of thousands of loose words is
    // merged in linear time, every time a bag is made.
    type Said<'a> = (&'a str, Option<&'a str>, &'a str, &'a str);
    let mut at: std::collections::HashMap<Said<'_>, usize> = std::collections::HashMap::new();
    let mut out: Vec<(&Note, usize)> = Vec::new();
    for n in notes {
        let key = (
            n.word.as_str(),
            n.sentence.as_deref(),
            n.message.as_str(),
            n.detail.as_str(),
        );
        match at.get(&key) {
            Some(&i) => out[i].1 += 1,
            None => {
                at.insert(key, out.len());
                out.push((n, 1));
            }
        }
    }
    out
}

/// Why a pack could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// The source text is over [`MAX_SOURCE_BYTES`].
    #[error("the pack source is {bytes} bytes, over the limit of {limit}")]
    TooLarge {
        /// Size of the source.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The text is not well-formed JSON, JavaScript or Lua.
    #[error("{0}")]
    Syntax(String),
    /// The pack's script failed, ran too long or used too much memory.
    #[error("{0}")]
    Script(String),
    /// The script asked for a module other than `@miau/engine`.
    #[error("unsupported import '{0}': only '@miau/engine' can be required")]
    UnsupportedImport(String),
    /// The pack requires a feature or engine generation this host lacks.
    #[error("This pack needs a newer Miau (it requires {}).", .0.join(", "))]
    NeedsNewerMiau(Vec<String>),
    /// The data breaks the pack contract.
    #[error("{}", .0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<Problem>),
    /// A file could not be read or written.
    #[error("{0}")]
    Io(String),
}

/// A pack that passed validation, with its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The pack.
    pub pack: Pack,
    /// Nonblocking remarks about loose words.
    pub notes: Vec<Note>,
}

/// Validates plain pack data.
pub fn validate(value: &Value) -> Result<Checked, PackError> {
    let mut v = Validator::default();
    let Some(root) = value.as_object() else {
        return Err(PackError::Invalid(vec![Problem {
            path: "(pack)".into(),
            message: format!("the pack must be an object, got {}", kind_of(value)),
        }]));
    };
    let manifest = v.manifest(root.get("manifest"));
    if let Some(needs) = v.needs_newer.take() {
        return Err(PackError::NeedsNewerMiau(needs));
    }
    let palette = v.palette(root.get("palette"));
    let vocabulary = v.vocabulary(root.get("vocabulary"));
    let levels = v.levels(root.get("levels"));
    if !v.problems.is_empty() {
        return Err(PackError::Invalid(v.problems));
    }
    let pack = Pack {
        manifest,
        levels,
        palette,
        vocabulary,
    };
    let notes = notes(&pack, &v.proofs);
    Ok(Checked { pack, notes })
}

/// A path built only when a problem needs it: `parent.key`.
struct Key<'a>(&'a dyn Display, &'static str);

impl Display for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// A path built only when a problem needs it: `parent.key[index]`.
struct Indexed<'a>(&'a dyn Display, &'static str, usize);

impl Display for Indexed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}[{}]", self.0, self.1, self.2)
    }
}

/// The fields of one placement record, found in one pass.
#[derive(Default)]
struct PlacementFields<'a> {
    kind: Option<&'a Value>,
    text: Option<&'a Value>,
    noun: Option<&'a Value>,
    x: Option<&'a Value>,
    y: Option<&'a Value>,
    id: Option<&'a Value>,
    facing: Option<&'a Value>,
}

#[derive(Default)]
struct Validator {
    problems: Vec<Problem>,
    /// The compiled proof of every level so far, when all were sound.
    proofs: Vec<Proof>,
    needs_newer: Option<Vec<String>>,
}

/// Uppercases pack text, reusing the string when it already is.
fn upper(raw: String) -> String {
    if raw.bytes().any(|b| !b.is_ascii() || b.is_ascii_lowercase()) {
        raw.to_uppercase()
    } else {
        raw
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn is_pack_id(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-')
        })
}

fn is_feature_id(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-'))
}

fn is_semver(s: &str) -> bool {
    let core = s.split(['-', '+']).next().unwrap_or("");
    let rest = &s[core.len()..];
    let numbers: Vec<&str> = core.split('.').collect();
    let numeric = |n: &&str| {
        !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && (n.len() == 1 || !n.starts_with('0'))
    };
    let tail_ok = rest.is_empty()
        || (rest.len() > 1
            && rest[1..].split(['.', '+']).all(|p| {
                !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            }));
    numbers.len() == 3 && numbers.iter().all(numeric) && tail_ok
}

impl Validator {
    fn bad(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            path: path.into(),
            message: message.into(),
        });
    }

    fn object<'a>(
        &mut self,
        v: Option<&'a Value>,
        path: &dyn Display,
        required: bool,
    ) -> Option<&'a Map<String, Value>> {
        match v {
            None | Some(Value::Null) if !required => None,
            None => {
                self.bad(path.to_string(), "is required");
                None
            }
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                self.bad(
                    path.to_string(),
                    format!("must be an object, got {}", kind_of(other)),
                );
                None
            }
        }
    }

    fn string(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        path: &dyn Display,
        required: bool,
    ) -> Option<String> {
        self.string_in(obj.get(key), key, path, required)
    }

    /// [`Validator::string`] for a value already looked up.
    fn string_in(
        &mut self,
        value: Option<&Value>,
        key: &str,
        path: &dyn Display,
        required: bool,
    ) -> Option<String> {
        let p = || format!("{path}.{key}");
        match value {
            None | Some(Value::Null) if !required => None,
            None | Some(Value::Null) => {
                self.bad(p(), "is required");
                None
            }
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                self.bad(p(), format!("must be a string, got {}", kind_of(other)));
                None
            }
        }
    }

    fn whole(&mut self, v: Option<&Value>, path: &dyn Display) -> Option<u64> {
        let n = match v {
            None | Some(Value::Null) => {
                self.bad(path.to_string(), "is required");
                return None;
            }
            Some(Value::Number(n)) => n,
            Some(other) => {
                self.bad(
                    path.to_string(),
                    format!("must be a whole number, got {}", kind_of(other)),
                );
                return None;
            }
        };
        if let Some(u) = n.as_u64() {
            return Some(u);
        }
        match n.as_f64() {
            Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => Some(f as u64),
            _ => {
                self.bad(
                    path.to_string(),
                    format!("must be a whole number of zero or more, got {n}"),
                );
                None
            }
        }
    }

    fn flag(&mut self, obj: &Map<String, Value>, key: &str, path: &str) -> bool {
        match obj.get(key) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.bad(
                    format!("{path}.{key}"),
                    format!("must be true or false, got {}", kind_of(other)),
                );
                false
            }
        }
    }

    fn manifest(&mut self, v: Option<&Value>) -> Manifest {
        let mut m = Manifest::default();
        let Some(obj) = self.object(v, &"manifest", true) else {
            return m;
        };
        if let Some(id) = self.string(obj, "id", &"manifest", true) {
            if !is_pack_id(&id) {
                self.bad("manifest.id", format!("'{id}' must start with a lowercase letter and use only a-z, 0-9, '.', '_' and '-'"));
            }
            m.id = id;
        }
        if let Some(name) = self.string(obj, "name", &"manifest", true) {
            if name.trim().is_empty() {
                self.bad("manifest.name", "must not be empty");
            }
            m.name = name;
        }
        if let Some(version) = self.string(obj, "version", &"manifest", true) {
            if !is_semver(&version) {
                self.bad(
                    "manifest.version",
                    format!("'{version}' is not a semantic version such as 1.0.0"),
                );
            }
            m.version = version;
        }
        let mut needs = Vec::new();
        match obj.get("engine") {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if n.as_u64() == Some(1) || n.as_f64() == Some(1.0) => {
                m.engine = Some(1)
            }
            Some(Value::Number(n)) if n.as_f64().is_some_and(|f| f > 1.0 && f.fract() == 0.0) => {
                needs.push(format!("engine {n}"));
            }
            Some(other) => self.bad("manifest.engine", format!("must be 1, got {other}")),
        }
        match obj.get("features") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let path = format!("manifest.features[{i}]");
                    match item.as_str() {
                        Some(f) if !is_feature_id(f) => {
                            self.bad(path, format!("'{f}' must be a lowercase feature id"))
                        }
                        Some(f) if m.features.iter().any(|g| g == f) => {
                            self.bad(path, format!("'{f}' is listed twice"))
                        }
                        Some(f) => {
                            if !host_features().contains(&f) {
                                needs.push(f.to_string());
                            }
                            m.features.push(f.to_string());
                        }
                        None => self.bad(path, format!("must be a string, got {}", kind_of(item))),
                    }
                }
            }
            Some(other) => self.bad(
                "manifest.features",
                format!("must be an array, got {}", kind_of(other)),
            ),
        }
        if !needs.is_empty() {
            self.needs_newer = Some(needs);
        }
        if let Some(fork) = self.string(obj, "forkOf", &"manifest", false) {
            if !is_pack_id(&fork) {
                self.bad("manifest.forkOf", format!("'{fork}' is not a pack id"));
            }
            m.fork_of = Some(fork);
        }
        m
    }

    /// [`Validator::noun_token`] for text already owned (no copy when it is uppercase).
    fn noun_token_owned(&mut self, raw: String, path: &dyn Display, what: &str) -> Option<String> {
        let t = upper(raw);
        if is_token(&t) && !is_reserved(&t) {
            Some(t)
        } else {
            self.noun_token(&t, path, what)
        }
    }

    /// A token used as a noun somewhere outside rule text.
    fn noun_token(&mut self, raw: &str, path: &dyn Display, what: &str) -> Option<String> {
        let t = upper(raw.to_string());
        if !is_token(&t) {
            self.bad(
                path.to_string(),
                format!("'{raw}' is not a token: use A-Z, 0-9, '_' and '-'"),
            );
            None
        } else if is_reserved(&t) {
            self.bad(
                path.to_string(),
                format!("'{t}' is a reserved rule word and cannot be {what}"),
            );
            None
        } else {
            Some(t)
        }
    }

    fn palette(&mut self, v: Option<&Value>) -> BTreeMap<String, Glyph> {
        let mut out = BTreeMap::new();
        let Some(obj) = self.object(v, &"palette", false) else {
            return out;
        };
        for (key, entry) in obj {
            let path = format!("palette.{key}");
            let Some(noun) = self.noun_token(key, &path, "a palette key") else {
                continue;
            };
            let glyph = match entry {
                Value::String(s) if s.is_empty() => {
                    self.bad(&path, "must not be empty");
                    continue;
                }
                Value::String(s) => Glyph::Plain(s.clone()),
                Value::Object(o) => {
                    let glyph = self.string(o, "glyph", &path, true);
                    let faces = match o.get("faces") {
                        Some(Value::String(f)) if f == "left" => Some(Facing::Left),
                        Some(Value::String(f)) if f == "right" => Some(Facing::Right),
                        Some(other) => {
                            self.bad(
                                format!("{path}.faces"),
                                format!("must be 'left' or 'right', got {other}"),
                            );
                            None
                        }
                        None => {
                            self.bad(format!("{path}.faces"), "is required");
                            None
                        }
                    };
                    if let Some(g) = &glyph {
                        let n = g.chars().count();
                        if n == 0 || n > MAX_GLYPH_CHARS {
                            self.bad(
                                format!("{path}.glyph"),
                                format!("must be 1 to {MAX_GLYPH_CHARS} characters, got {n}"),
                            );
                            continue;
                        }
                    }
                    match (glyph, faces) {
                        (Some(glyph), Some(faces)) => Glyph::Directional { glyph, faces },
                        _ => continue,
                    }
                }
                other => {
                    self.bad(
                        &path,
                        format!(
                            "must be a string or {{ glyph, faces }}, got {}",
                            kind_of(other)
                        ),
                    );
                    continue;
                }
            };
            out.insert(noun, glyph);
        }
        out
    }

    fn vocabulary(&mut self, v: Option<&Value>) -> Vec<String> {
        let mut out = Vec::new();
        match v {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let path = format!("vocabulary[{i}]");
                    match item.as_str() {
                        Some(s) => {
                            if let Some(t) = self.noun_token(s, &path, "a vocabulary entry") {
                                out.push(t);
                            }
                        }
                        None => self.bad(path, format!("must be a string, got {}", kind_of(item))),
                    }
                }
            }
            Some(other) => self.bad(
                "vocabulary",
                format!("must be an array, got {}", kind_of(other)),
            ),
        }
        out
    }

    fn levels(&mut self, v: Option<&Value>) -> Vec<Level> {
        let items = match v {
            None | Some(Value::Null) => {
                self.bad("levels", "is required: a pack needs at least one level");
                return Vec::new();
            }
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.bad(
                    "levels",
                    format!("must be an array, got {}", kind_of(other)),
                );
                return Vec::new();
            }
        };
        if items.is_empty() {
            self.bad("levels", "needs at least one level");
        }
        if items.len() > MAX_LEVELS {
            self.bad(
                "levels",
                format!("has {} levels, over the limit of {MAX_LEVELS}", items.len()),
            );
        }
        let mut out = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (i, item) in items.iter().enumerate().take(MAX_LEVELS) {
            let path = format!("levels[{i}]");
            if let Some(id) = item.get("id").and_then(Value::as_str) {
                if let Some(first) = seen.get(id) {
                    self.bad(
                        format!("{path}.id"),
                        format!("'{id}' is already the id of levels[{first}]"),
                    );
                } else {
                    seen.insert(id.to_string(), i);
                }
            }
            if let Some(level) = self.level(item, &path) {
                out.push(level);
            }
        }
        out
    }

    fn level(&mut self, v: &Value, path: &str) -> Option<Level> {
        let obj = self.object(Some(v), &path, true)?;
        let before = self.problems.len();
        let mut level = Level::default();
        if let Some(id) = self.string(obj, "id", &path, true) {
            if !is_pack_id(&id) {
                self.bad(
                    format!("{path}.id"),
                    format!("'{id}' must be lowercase: a-z first, then a-z, 0-9, '.', '_' or '-'"),
                );
            }
            level.id = id;
        }
        level.title = self.string(obj, "title", &path, false);
        level.hint = self.string(obj, "hint", &path, false);
        let side = |key: &str, me: &mut Validator| {
            let p = format!("{path}.{key}");
            let n = me.whole(obj.get(key), &p)?;
            if n == 0 || n > MAX_SIDE as u64 {
                me.bad(p, format!("must be 1 to {MAX_SIDE}, got {n}"));
                return None;
            }
            Some(n as u32)
        };
        let width = side("width", self);
        let height = side("height", self);
        level.width = width.unwrap_or(0);
        level.height = height.unwrap_or(0);

        // Automata first: their words may not be object nouns here.
        if let Some(auto) = self.object(obj.get("automata"), &format!("{path}.automata"), false) {
            if auto.len() > rules::MAX_CUSTOM_PROPERTIES {
                self.bad(
                    format!("{path}.automata"),
                    format!(
                        "declares {} properties, over the limit of {}",
                        auto.len(),
                        rules::MAX_CUSTOM_PROPERTIES
                    ),
                );
            }
            for (key, b) in auto {
                let p = format!("{path}.automata.{key}");
                let Some(tok) = self.noun_token(key, &p, "an automata property") else {
                    continue;
                };
                match b.as_str().and_then(Behaviour::parse) {
                    Some(b) => {
                        level.automata.insert(tok, b);
                    }
                    None => {
                        let names: Vec<&str> = Behaviour::ALL.iter().map(|b| b.as_str()).collect();
                        self.bad(p, format!("must be one of {}, got {b}", names.join(", ")));
                    }
                }
            }
        }

        match obj.get("objects") {
            None | Some(Value::Null) => self.bad(format!("{path}.objects"), "is required"),
            Some(Value::Array(items)) => {
                level.objects.reserve(items.len().min(MAX_ENTITIES));
                if items.len() > MAX_ENTITIES {
                    self.bad(
                        format!("{path}.objects"),
                        format!(
                            "has {} entities, over the limit of {MAX_ENTITIES}",
                            items.len()
                        ),
                    );
                }
                let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
                for (j, item) in items.iter().enumerate().take(MAX_ENTITIES) {
                    let p = Indexed(&path, "objects", j);
                    // An id names one object of its level.
                    if let Some(id) = item.get("id").and_then(Value::as_str) {
                        if let Some(first) = ids.get(id) {
                            self.bad(
                                format!("{p}.id"),
                                format!("'{id}' is already the id of objects[{first}]"),
                            );
                        } else {
                            ids.insert(id, j);
                        }
                    }
                    if let Some(placement) =
                        self.placement(item, &p, width, height, &level.automata)
                    {
                        level.objects.push(placement);
                    }
                }
            }
            Some(other) => self.bad(
                format!("{path}.objects"),
                format!("must be an array, got {}", kind_of(other)),
            ),
        }

        match obj.get("solverBudget") {
            None | Some(Value::Null) => {}
            some => {
                let p = format!("{path}.solverBudget");
                match self.whole(some, &p) {
                    Some(0) => self.bad(p, "must be a positive whole number"),
                    Some(n) => level.solver_budget = Some(n),
                    None => {}
                }
            }
        }
        level.allow_bypass = self.flag(obj, "allowBypass", path);
        level.allow_hands_off = self.flag(obj, "allowHandsOff", path);
        match obj.get("mustForm") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (j, item) in items.iter().enumerate() {
                    let p = format!("{path}.mustForm[{j}]");
                    match item.as_str().and_then(RuleText::parse) {
                        Some(rule) => level.must_form.push(rule),
                        None => self.bad(
                            p,
                            format!("must be a rule such as 'ROCK IS WIN', got {item}"),
                        ),
                    }
                }
            }
            Some(other) => self.bad(
                format!("{path}.mustForm"),
                format!("must be an array, got {}", kind_of(other)),
            ),
        }

        if self.problems.len() == before {
            match Proof::new(&level) {
                Ok(proof) => self.proofs.push(proof),
                Err(e) => self.bad(format!("{path}.objects"), e.to_string()),
            }
        }
        (self.problems.len() == before).then_some(level)
    }

    fn placement(
        &mut self,
        v: &Value,
        path: &dyn Display,
        width: Option<u32>,
        height: Option<u32>,
        automata: &BTreeMap<String, Behaviour>,
    ) -> Option<Placement> {
        let obj = self.object(Some(v), path, true)?;
        let before = self.problems.len();
        // One pass over the record's keys: it is the hottest loop of a large pack.
        let mut f = PlacementFields::default();
        for (k, v) in obj {
            match k.as_str() {
                "kind" => f.kind = Some(v),
                "text" => f.text = Some(v),
                "noun" => f.noun = Some(v),
                "x" => f.x = Some(v),
                "y" => f.y = Some(v),
                "id" => f.id = Some(v),
                "facing" => f.facing = Some(v),
                _ => {}
            }
        }
        let kind = match f.kind.and_then(Value::as_str) {
            Some("word") => Some(PlacementKind::Word),
            Some("object") => Some(PlacementKind::Object),
            Some(other) => {
                self.bad(
                    format!("{path}.kind"),
                    format!("'{other}' is not a kind: use 'word' or 'object'"),
                );
                None
            }
            None => {
                self.bad(format!("{path}.kind"), "is required: 'word' or 'object'");
                None
            }
        };
        let text = match kind {
            Some(PlacementKind::Word) => self.string_in(f.text, "text", path, true).and_then(|raw| {
                let t = upper(raw);
                if is_token(&t) {
                    Some(t)
                } else {
                    let raw = t;
                    self.bad(format!("{path}.text"), format!("'{raw}' is not a rule token: use A-Z, 0-9, '_' and '-'"));
                    None
                }
            }),
            Some(PlacementKind::Object) => self.string_in(f.noun, "noun", path, true).and_then(|raw| {
                let t = self.noun_token_owned(raw, &Key(path, "noun"), "an object noun")?;
                if automata.contains_key(&t) {
                    self.bad(format!("{path}.noun"), format!("'{t}' is an automata property in this proof and cannot be an object noun"));
                    return None;
                }
                Some(t)
            }),
            None => None,
        };
        let coord =
            |key: &'static str, value: Option<&Value>, limit: Option<u32>, me: &mut Validator| {
                let p = Key(path, key);
                let n = me.whole(value, &p)?;
                match limit {
                    Some(l) if n >= l as u64 => {
                        me.bad(
                            p.to_string(),
                            format!("{n} is outside the board (0 to {})", l - 1),
                        );
                        None
                    }
                    _ => Some(n as u32),
                }
            };
        let x = coord("x", f.x, width, self);
        let y = coord("y", f.y, height, self);
        let id = self.string_in(f.id, "id", path, false);
        let facing = match f.facing {
            None | Some(Value::Null) => None,
            Some(Value::String(f)) if f == "left" => Some(Facing::Left),
            Some(Value::String(f)) if f == "right" => Some(Facing::Right),
            Some(other) => {
                self.bad(
                    format!("{path}.facing"),
                    format!("must be 'left' or 'right', got {other}"),
                );
                None
            }
        };
        if self.problems.len() != before {
            return None;
        }
        Some(Placement {
            kind: kind?,
            text: text?,
            x: x?,
            y: y?,
            id,
            facing,
        })
    }
}

/// Notes for every word tile that means nothing in its proof.
fn notes(pack: &Pack, proofs: &[Proof]) -> Vec<Note> {
    let mut out = Vec::new();
    for (level, proof) in pack.levels.iter().zip(proofs) {
        let words: Vec<usize> = (0..level.objects.len())
            .filter(|&i| level.objects[i].kind == PlacementKind::Word)
            .collect();
        let loose_candidates = words.iter().any(|&i| {
            let t = proof.token(&level.objects[i].text);
            t.map(|t| proof.lexicon.kind(t)) == Some(TokenKind::Noun)
        });
        if !loose_candidates {
            continue;
        }
        let nouns: BTreeSet<&str> = level
            .objects
            .iter()
            .filter(|p| p.kind == PlacementKind::Object)
            .map(|p| p.text.as_str())
            .collect();
        let board = proof.initial();
        // Nouns this proof's rules set acting (`BOT IS PATROL`, with PATROL one of its automata
        // properties) mean something here even when no object is one yet.
        let automata_subjects: BTreeSet<rules::Tok> = board
            .rules()
            .rules
            .iter()
            .filter(|r| level.automata.contains_key(proof.lexicon.text(r.predicate)))
            .map(|r| r.subject)
            .collect();
        for &i in &words {
            let p = &level.objects[i];
            let token = proof.token(&p.text);
            let kind = token.map(|t| proof.lexicon.kind(t));
            if kind != Some(TokenKind::Noun)
                || nouns.contains(p.text.as_str())
                || token.is_some_and(|t| automata_subjects.contains(&t))
            {
                continue;
            }
            let subject = board.rules().rules.iter().any(|r| r.words[0] == i as u32);
            let sentence = board
                .rules()
                .sentences
                .iter()
                .find(|s| s.words.contains(&(i as u32)))
                .map(|s| board.sentence_text(proof, s));
            let elsewhere: Vec<&str> = pack
                .levels
                .iter()
                .filter(|l| l.id != level.id && l.automata.contains_key(&p.text))
                .map(|l| l.id.as_str())
                .collect();
            let word = &p.text;
            let message = format!(
                "{word} has no meaning in \"{}\": nothing here is a {word}.",
                level.display_title()
            );
            let mut detail = match &sentence {
                Some(s) if subject => format!(
                    "'{s}' is formed with {word} as its subject; no object here is a {word}, so the rule changes nothing unless something becomes a {word}."
                ),
                Some(s) => format!(
                    "'{s}' is formed; {word} reads as a noun there, so a rule 'X IS {word}' turns every X into a {word}."
                ),
                None => format!(
                    "{word} is neither a property nor the noun of an object in this proof; placed after IS it would turn objects into {word}s."
                ),
            };
            if !elsewhere.is_empty() {
                detail.push_str(&format!(
                    " It is an automata property only in {}, which has no effect here.",
                    elsewhere.join(", ")
                ));
            }
            out.push(Note {
                word: word.clone(),
                level_id: level.id.clone(),
                level_title: level.display_title().to_string(),
                sentence,
                message,
                detail,
                path: None,
            });
        }
    }
    glyph_notes(pack, &mut out);
    out
}

/// A note for each palette glyph with a character no bundled font draws (it would show as a
/// box), in every level that places the noun, or once for the pack when none does.
fn glyph_notes(pack: &Pack, out: &mut Vec<Note>) {
    for (noun, glyph) in &pack.palette {
        // The message never quotes the glyph itself: it could not be drawn there either.
        let (text, path) = match glyph {
            Glyph::Plain(s) => (s, format!("palette.{noun}")),
            Glyph::Directional { glyph, .. } => (glyph, format!("palette.{noun}.glyph")),
        };
        let missing = jengine::glyphs::undrawable(text);
        if missing.is_empty() {
            continue;
        }
        let codes: Vec<String> = missing
            .iter()
            .map(|c| format!("U+{:04X}", *c as u32))
            .collect();
        let message =
            format!("{noun}'s glyph cannot be drawn: the board shows the name {noun} instead.");
        let detail = format!(
            "{path}: no font the game ships has {}; choose another glyph (the bundled emoji cover animals, nature, food, places, objects and symbols).",
            codes.join(", ")
        );
        let mut places: Vec<&Level> = pack
            .levels
            .iter()
            .filter(|l| {
                l.objects
                    .iter()
                    .any(|p| p.kind == PlacementKind::Object && p.text == *noun)
            })
            .collect();
        let pack_wide = places.is_empty();
        if pack_wide {
            places.push(&pack.levels[0]);
        }
        for level in places {
            out.push(Note {
                word: noun.clone(),
                level_id: if pack_wide {
                    String::new()
                } else {
                    level.id.clone()
                },
                level_title: if pack_wide {
                    String::new()
                } else {
                    level.display_title().to_string()
                },
                sentence: None,
                message: message.clone(),
                detail: detail.clone(),
                path: Some(path.clone()),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(v: Value) -> Vec<String> {
        match validate(&v) {
            Err(PackError::Invalid(p)) => p.into_iter().map(|p| p.to_string()).collect(),
            other => panic!("expected problems, got {other:?}"),
        }
    }

    fn minimal() -> Value {
        json!({
            "manifest": { "id": "hello-miau", "name": "Hello Miau", "version": "1.0.0" },
            "palette": { "MIAU": "🐈", "FLAG": "🚩" },
            "levels": [{ "id": "intro", "width": 5, "height": 3, "objects": [
                { "kind": "word", "text": "MIAU", "x": 0, "y": 0 },
                { "kind": "word", "text": "IS", "x": 1, "y": 0 },
                { "kind": "word", "text": "YOU", "x": 2, "y": 0 },
                { "kind": "object", "noun": "MIAU", "x": 0, "y": 1 }
            ]}]
        })
    }

    #[test]
    fn an_object_id_names_one_object_of_its_level() {
        let mut v = minimal();
        v["levels"][0]["objects"][0]["id"] = json!("cat");
        v["levels"][0]["objects"][2]["id"] = json!("cat");
        v["levels"][0]["objects"][3]["id"] = json!("you");
        let p = problems(v.clone());
        assert_eq!(
            p,
            ["levels[0].objects[2].id: 'cat' is already the id of objects[0]"]
        );
        // The same id in another level is that level's own.
        v["levels"][0]["objects"][2]["id"] = json!("dog");
        assert!(validate(&v).is_ok());
    }

    #[test]
    fn the_smallest_pack_is_valid() {
        let checked = validate(&minimal()).expect("valid");
        assert_eq!(checked.pack.manifest.id, "hello-miau");
        assert_eq!(checked.pack.levels[0].objects.len(), 4);
        assert!(checked.notes.is_empty());
    }

    #[test]
    fn every_problem_is_reported_with_its_path() {
        let mut v = minimal();
        v["manifest"]["id"] = json!("Hello");
        v["manifest"]["version"] = json!("1.0");
        v["levels"][0]["objects"][3]["x"] = json!(9);
        v["levels"][0]["objects"][1]["kind"] = json!("ghost");
        v["palette"]["IS"] = json!("x");
        let p = problems(v);
        assert_eq!(p.len(), 5, "{p:#?}");
        assert!(p.iter().any(|s| s.starts_with("levels[0].objects[3].x:")));
        assert!(
            p.iter()
                .any(|s| s.starts_with("levels[0].objects[1].kind:"))
        );
        assert!(p.iter().any(|s| s.starts_with("manifest.id:")));
        assert!(p.iter().any(|s| s.starts_with("manifest.version:")));
        assert!(p.iter().any(|s| s.starts_with("palette.IS:")));
    }

    #[test]
    fn duplicate_level_ids_and_reserved_nouns_are_problems() {
        let mut v = minimal();
        let level = v["levels"][0].clone();
        v["levels"].as_array_mut().expect("array").push(level);
        v["levels"][1]["objects"][3]["noun"] = json!("win");
        let p = problems(v);
        assert!(p.iter().any(|s| s.starts_with("levels[1].id:")), "{p:?}");
        assert!(
            p.iter()
                .any(|s| s.starts_with("levels[1].objects[3].noun:")),
            "{p:?}"
        );
    }

    #[test]
    fn nouns_are_normalized_to_uppercase() {
        let mut v = minimal();
        v["levels"][0]["objects"][3]["noun"] = json!("miau");
        let checked = validate(&v).expect("valid");
        assert_eq!(checked.pack.levels[0].objects[3].text, "MIAU");
    }

    #[test]
    fn a_missing_feature_needs_a_newer_miau() {
        let mut v = minimal();
        v["manifest"]["features"] = json!(["teleport"]);
        let err = validate(&v).expect_err("unsupported");
        assert_eq!(err, PackError::NeedsNewerMiau(vec!["teleport".into()]));
        assert!(err.to_string().starts_with("This pack needs a newer Miau"));
    }

    #[test]
    fn engine_must_be_one() {
        let mut v = minimal();
        v["manifest"]["engine"] = json!(2);
        assert!(matches!(validate(&v), Err(PackError::NeedsNewerMiau(_))));
        v["manifest"]["engine"] = json!("one");
        assert!(problems(v)[0].starts_with("manifest.engine:"));
    }

    #[test]
    fn an_automata_property_cannot_be_an_object_noun() {
        let mut v = minimal();
        v["levels"][0]["automata"] = json!({ "MIAU": "walk" });
        let p = problems(v);
        assert!(p[0].starts_with("levels[0].objects[3].noun:"), "{p:?}");
    }

    #[test]
    fn palette_object_entries_are_checked() {
        let mut v = minimal();
        v["palette"]["CAT"] = json!({ "glyph": "", "faces": "up" });
        let p = problems(v);
        assert!(
            p.iter().any(|s| s.starts_with("palette.CAT.faces:")),
            "{p:?}"
        );
        assert!(
            p.iter().any(|s| s.starts_with("palette.CAT.glyph:")),
            "{p:?}"
        );
    }

    #[test]
    fn a_glyph_no_bundled_font_draws_is_a_note_with_its_palette_key() {
        let mut v = minimal();
        v["palette"] =
            json!({ "CAT": "🐈", "SKULL": "💀", "GHOST": { "glyph": "x💀", "faces": "left" } });
        v["levels"][0]["objects"]
            .as_array_mut()
            .expect("array")
            .push(json!({ "kind": "object", "noun": "SKULL", "x": 3, "y": 1 }));
        let checked = validate(&v).expect("a note never blocks a pack");
        let glyphs: Vec<&Note> = checked.notes.iter().filter(|n| n.path.is_some()).collect();
        assert_eq!(glyphs.len(), 2, "{glyphs:?}");
        // GHOST is in the palette but on no board: one note for the pack.
        let ghost = glyphs.iter().find(|n| n.word == "GHOST").expect("GHOST");
        assert_eq!(ghost.path.as_deref(), Some("palette.GHOST.glyph"));
        assert_eq!(ghost.level_id, "");
        assert!(
            ghost.to_string().starts_with("palette.GHOST.glyph: "),
            "{ghost}"
        );
        // SKULL stands on the first level: the note is that level's.
        let skull = glyphs.iter().find(|n| n.word == "SKULL").expect("SKULL");
        assert_eq!(skull.level_id, checked.pack.levels[0].id);
        assert!(skull.detail.contains("U+1F480"), "{}", skull.detail);
        assert_eq!(skull.to_json()["path"], json!("palette.SKULL"));
        assert!(!checked.notes.iter().any(|n| n.word == "CAT"));
    }

    #[test]
    fn identical_notes_merge_with_their_count() {
        let mut v = minimal();
        let objects = v["levels"][0]["objects"].as_array_mut().expect("array");
        for _ in 0..11 {
            objects.push(json!({ "kind": "word", "text": "ROCK", "x": 4, "y": 2 }));
        }
        objects.push(json!({ "kind": "word", "text": "SHUT", "x": 4, "y": 1 }));
        let checked = validate(&v).expect("valid");
        assert_eq!(
            checked.notes.iter().filter(|n| n.word == "ROCK").count(),
            11
        );
        let merged = merged(&checked.notes);
        let counts: Vec<(&str, usize)> =
            merged.iter().map(|(n, c)| (n.word.as_str(), *c)).collect();
        assert_eq!(counts, vec![("ROCK", 11), ("SHUT", 1)]);
    }

    #[test]
    fn a_loose_word_gets_a_note_with_its_sentence() {
        let mut v = minimal();
        let objects = v["levels"][0]["objects"].as_array_mut().expect("array");
        objects.push(json!({ "kind": "word", "text": "SHUT", "x": 4, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "DOOR", "x": 0, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "IS", "x": 1, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "SHUT", "x": 2, "y": 2 }));
        v["levels"][0]["title"] = json!("Intro");
        let checked = validate(&v).expect("valid");
        let shut: Vec<&Note> = checked.notes.iter().filter(|n| n.word == "SHUT").collect();
        assert_eq!(shut.len(), 2);
        assert_eq!(shut[0].sentence, None);
        assert_eq!(shut[1].sentence.as_deref(), Some("DOOR IS SHUT"));
        assert_eq!(shut[1].level_title, "Intro");
        assert!(checked.notes.iter().any(|n| n.word == "DOOR"));
    }

    #[test]
    fn a_loose_subject_says_its_rule_changes_nothing() {
        let mut v = minimal();
        let objects = v["levels"][0]["objects"].as_array_mut().expect("array");
        objects.push(json!({ "kind": "word", "text": "BEE", "x": 0, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "IS", "x": 1, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "WIN", "x": 2, "y": 2 }));
        let checked = validate(&v).expect("valid");
        let bee = checked
            .notes
            .iter()
            .find(|n| n.word == "BEE")
            .expect("a note");
        assert_eq!(bee.sentence.as_deref(), Some("BEE IS WIN"));
        assert!(bee.detail.contains("BEE as its subject"), "{}", bee.detail);
        assert!(!bee.detail.contains("reads as a noun"), "{}", bee.detail);
        let record = bee.to_json();
        assert_eq!(record["word"], "BEE");
        assert_eq!(record["sentence"], "BEE IS WIN");
        assert_eq!(record["levelId"], v["levels"][0]["id"]);
        assert!(
            record["message"]
                .as_str()
                .is_some_and(|m| m.contains("BEE"))
        );
    }

    #[cfg(feature = "automata")]
    #[test]
    fn a_noun_set_acting_by_this_proofs_automata_gets_no_note() {
        let mut v = minimal();
        v["levels"][0]["automata"] = json!({ "PATROL": "walk" });
        let objects = v["levels"][0]["objects"].as_array_mut().expect("array");
        objects.push(json!({ "kind": "word", "text": "BOT", "x": 0, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "IS", "x": 1, "y": 2 }));
        objects.push(json!({ "kind": "word", "text": "PATROL", "x": 2, "y": 2 }));
        let checked = validate(&v).expect("valid");
        assert!(
            checked.notes.iter().all(|n| n.word != "BOT"),
            "{:?}",
            checked.notes
        );
    }

    #[test]
    fn semver_shapes() {
        assert!(is_semver("1.0.0") && is_semver("0.12.3-beta.1") && is_semver("2.0.0+build.5"));
        assert!(
            !is_semver("1.0")
                && !is_semver("01.0.0")
                && !is_semver("1.0.0-")
                && !is_semver("a.b.c")
        );
    }
}
