//! The pack data model: a manifest, its levels ("proofs") and display metadata.
//!
//! Every source (CommonJS, Lua, JSON, a share link, the library folder) ends up as this one
//! plain structure, always produced by [`crate::validate`]; nothing else constructs a pack from
//! untrusted input. `to_json` writes the exact shape the validator reads back.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// Which way an object looks. Horizontal moves turn it; automata walk along it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Facing {
    /// Looking left (toward x = 0).
    Left,
    /// Looking right (the default).
    #[default]
    Right,
}

impl Facing {
    /// The spelling used in pack sources.
    pub fn as_str(self) -> &'static str {
        match self {
            Facing::Left => "left",
            Facing::Right => "right",
        }
    }

    /// The other way.
    pub fn turned(self) -> Facing {
        match self {
            Facing::Left => Facing::Right,
            Facing::Right => Facing::Left,
        }
    }
}

/// How a noun is drawn: a string that never flips, or a glyph that faces a known way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Glyph {
    /// A display string, drawn as is.
    Plain(String),
    /// A glyph drawn looking `faces`; a renderer mirrors it for objects looking the other way.
    Directional {
        /// The display string, 1 to 16 characters.
        glyph: String,
        /// The way the glyph looks as drawn.
        faces: Facing,
    },
}

/// A behaviour a proof can attach to one of its own custom property words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Behaviour {
    /// Step one cell along the facing each turn, pushing what is met; when blocked, turn back
    /// instead of moving.
    Walk,
    /// Drop one cell down each turn when possible, pushing what is below.
    Fall,
}

impl Behaviour {
    /// Every behaviour, in documentation order.
    pub const ALL: [Behaviour; 2] = [Behaviour::Walk, Behaviour::Fall];

    /// The spelling used in pack sources.
    pub fn as_str(self) -> &'static str {
        match self {
            Behaviour::Walk => "walk",
            Behaviour::Fall => "fall",
        }
    }

    /// Parses the source spelling.
    pub fn parse(text: &str) -> Option<Behaviour> {
        Behaviour::ALL.into_iter().find(|b| b.as_str() == text)
    }
}

/// Who a pack is and what host it needs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Manifest {
    /// Stable identity: lowercase letters, digits, `.`, `_`, `-`, starting with a letter.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Semantic version, `MAJOR.MINOR.PATCH`.
    pub version: String,
    /// Engine generation the pack was written for; only `1` exists.
    pub engine: Option<u32>,
    /// Host features the pack requires (for example `automata`).
    pub features: Vec<String>,
    /// Set on a pack installed as a copy beside another with the same id.
    pub fork_of: Option<String>,
}

/// Whether a placed record is rule text or a thing in the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlacementKind {
    /// A word tile, read as rule text and always pushable.
    Word,
    /// An object whose behaviour comes from the rules about its noun.
    Object,
}

/// One record in a level's `objects` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Word or object.
    pub kind: PlacementKind,
    /// The uppercase word text or object noun.
    pub text: String,
    /// Column, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
    /// Optional author label.
    pub id: Option<String>,
    /// Optional starting facing for objects.
    pub facing: Option<Facing>,
}

impl Placement {
    /// A word tile at `(x, y)`.
    pub fn word(text: &str, x: u32, y: u32) -> Placement {
        Placement {
            kind: PlacementKind::Word,
            text: text.to_uppercase(),
            x,
            y,
            id: None,
            facing: None,
        }
    }

    /// An object of `noun` at `(x, y)`.
    pub fn object(noun: &str, x: u32, y: u32) -> Placement {
        Placement {
            kind: PlacementKind::Object,
            text: noun.to_uppercase(),
            x,
            y,
            id: None,
            facing: None,
        }
    }

    /// The same placement with a starting facing.
    pub fn facing(mut self, facing: Facing) -> Placement {
        self.facing = Some(facing);
        self
    }
}

/// A rule written as text, such as `ROCK IS WIN`, used by `mustForm` and `--forbid`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleText {
    /// The noun the rule is about.
    pub subject: String,
    /// The property or noun after `IS`.
    pub predicate: String,
}

impl RuleText {
    /// Parses `NOUN IS WORD` (any case, any spacing); `None` when it is not that shape.
    pub fn parse(text: &str) -> Option<RuleText> {
        let parts: Vec<String> = text.split_whitespace().map(str::to_uppercase).collect();
        match parts.as_slice() {
            [subject, is, predicate]
                if is == "IS"
                    && crate::rules::is_token(subject)
                    && crate::rules::is_token(predicate) =>
            {
                Some(RuleText {
                    subject: subject.clone(),
                    predicate: predicate.clone(),
                })
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for RuleText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} IS {}", self.subject, self.predicate)
    }
}

/// One level of a pack: a board and the author's solver claims about it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Level {
    /// Stable lowercase identity within the pack.
    pub id: String,
    /// Display title.
    pub title: Option<String>,
    /// A nudge shown on request.
    pub hint: Option<String>,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Words and objects, in source order.
    pub objects: Vec<Placement>,
    /// Custom property words declared by this proof, with what they do.
    pub automata: BTreeMap<String, Behaviour>,
    /// Attempted-action cap for the author solver.
    pub solver_budget: Option<u64>,
    /// A route that never pushes a word is intended.
    pub allow_bypass: bool,
    /// A route with no word motion at all is intended.
    pub allow_hands_off: bool,
    /// Rules every win must form.
    pub must_form: Vec<RuleText>,
}

impl Level {
    /// A level with an id, a size and placements; everything else empty.
    pub fn new(id: &str, width: u32, height: u32, objects: Vec<Placement>) -> Level {
        Level {
            id: id.to_string(),
            width,
            height,
            objects,
            ..Level::default()
        }
    }

    /// The title, or the id when there is none.
    pub fn display_title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.id)
    }
}

/// A whole validated pack.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pack {
    /// Identity and requirements.
    pub manifest: Manifest,
    /// One to 64 levels.
    pub levels: Vec<Level>,
    /// How nouns are drawn.
    pub palette: BTreeMap<String, Glyph>,
    /// Noun tokens the pack uses.
    pub vocabulary: Vec<String>,
}

impl Pack {
    /// The level with this id.
    pub fn level(&self, id: &str) -> Option<&Level> {
        self.levels.iter().find(|l| l.id == id)
    }

    /// The pack as plain data in the shape every loader accepts.
    pub fn to_json(&self) -> Value {
        let m = &self.manifest;
        let mut manifest = Map::new();
        manifest.insert("id".into(), json!(m.id));
        manifest.insert("name".into(), json!(m.name));
        manifest.insert("version".into(), json!(m.version));
        if let Some(engine) = m.engine {
            manifest.insert("engine".into(), json!(engine));
        }
        if !m.features.is_empty() {
            manifest.insert("features".into(), json!(m.features));
        }
        if let Some(fork) = &m.fork_of {
            manifest.insert("forkOf".into(), json!(fork));
        }
        let mut root = Map::new();
        root.insert("manifest".into(), Value::Object(manifest));
        if !self.palette.is_empty() {
            let palette: Map<String, Value> = self
                .palette
                .iter()
                .map(|(k, g)| {
                    let v = match g {
                        Glyph::Plain(s) => json!(s),
                        Glyph::Directional { glyph, faces } => {
                            json!({ "glyph": glyph, "faces": faces.as_str() })
                        }
                    };
                    (k.clone(), v)
                })
                .collect();
            root.insert("palette".into(), Value::Object(palette));
        }
        if !self.vocabulary.is_empty() {
            root.insert("vocabulary".into(), json!(self.vocabulary));
        }
        let levels: Vec<Value> = self.levels.iter().map(level_json).collect();
        root.insert("levels".into(), Value::Array(levels));
        Value::Object(root)
    }
}

fn level_json(level: &Level) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(level.id));
    if let Some(t) = &level.title {
        out.insert("title".into(), json!(t));
    }
    if let Some(h) = &level.hint {
        out.insert("hint".into(), json!(h));
    }
    out.insert("width".into(), json!(level.width));
    out.insert("height".into(), json!(level.height));
    if !level.automata.is_empty() {
        let automata: Map<String, Value> = level
            .automata
            .iter()
            .map(|(k, b)| (k.clone(), json!(b.as_str())))
            .collect();
        out.insert("automata".into(), Value::Object(automata));
    }
    if let Some(b) = level.solver_budget {
        out.insert("solverBudget".into(), json!(b));
    }
    if level.allow_bypass {
        out.insert("allowBypass".into(), json!(true));
    }
    if level.allow_hands_off {
        out.insert("allowHandsOff".into(), json!(true));
    }
    if !level.must_form.is_empty() {
        let rules: Vec<String> = level.must_form.iter().map(|r| r.to_string()).collect();
        out.insert("mustForm".into(), json!(rules));
    }
    let objects: Vec<Value> = level
        .objects
        .iter()
        .map(|p| {
            let mut o = Map::new();
            match p.kind {
                PlacementKind::Word => {
                    o.insert("kind".into(), json!("word"));
                    o.insert("text".into(), json!(p.text));
                }
                PlacementKind::Object => {
                    o.insert("kind".into(), json!("object"));
                    o.insert("noun".into(), json!(p.text));
                }
            }
            o.insert("x".into(), json!(p.x));
            o.insert("y".into(), json!(p.y));
            if let Some(id) = &p.id {
                o.insert("id".into(), json!(id));
            }
            if let Some(f) = p.facing {
                o.insert("facing".into(), json!(f.as_str()));
            }
            Value::Object(o)
        })
        .collect();
    out.insert("objects".into(), Value::Array(objects));
    Value::Object(out)
}
