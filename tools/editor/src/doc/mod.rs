//! A scene file as the editor holds it: JSON that keeps its key order, and entities that keep
//! their own text until they are edited, so a save changes only the lines that were edited.
//!
//! The jobs, one module each: `json` is the order-keeping value, `parse` reads a file and its
//! style, `edit` changes entities, `write` gives the text back, and `patch` holds what turns
//! one state of it into another, as the undo history keeps it.

mod edit;
mod json;
mod parse;
mod patch;
mod write;

pub use json::{Json, Step};
pub(crate) use patch::Patch;

/// One entity: its value and, until it is edited, the text and spaces the file gave it.
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

/// The file's text around its entities, so a save gives back every byte it did not edit:
/// everything up to the list's `[`, from its `]` on, and the space before the `]`.
#[derive(Debug, Clone, PartialEq)]
struct Frame {
    head: String,
    foot: String,
    closing: String,
}

impl SceneDoc {
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
}

/// A small scene in the games' layout: one-line entities, and one over several lines.
#[cfg(test)]
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
