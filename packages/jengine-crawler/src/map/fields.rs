//! The level row's optional fields for the dungeon's furniture: named doors and the levers,
//! plates and buttons that move them, teleporters, spinners, items lying on the floor, wall
//! decorations and trap damage.
//!
//! Like `cells`, these are plain values as the row writes them; `checks` ties each to its cell
//! and refuses the ones that do not fit the drawing.

use super::cells::{Facing, Loot};
use serde::{Deserialize, Serialize};

/// A door the row names (`doors`): on a `+`, `=` or `S`. Levers, plates and buttons open and
/// shut doors by these names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedDoor {
    /// Its cell, `[x, y]`.
    pub at: [i32; 2],
    /// Its name, unique on its floor.
    pub name: String,
    /// On a `=` only: the named key that opens it (kept, not spent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// What a lever, plate or button does (`levers`, `plates`, `buttons`): the named doors it
/// opens and the named doors it shuts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mechanism {
    /// Its cell, `[x, y]`.
    pub at: [i32; 2],
    /// Doors it opens.
    #[serde(default)]
    pub opens: Vec<String>,
    /// Doors it shuts (locked: a gate again).
    #[serde(default)]
    pub shuts: Vec<String>,
}

/// Where a teleporter sends the party (`teleports`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Teleport {
    /// The `T`, `[x, y]`.
    pub at: [i32; 2],
    /// The cell it sends the party to.
    pub to: [i32; 2],
    /// The floor, counting from 0 (left out: the same floor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<usize>,
    /// The way the party faces on arrival (left out: as it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
}

/// How a spinner turns the party (`spinners`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spinner {
    /// The `%`, `[x, y]`.
    pub at: [i32; 2],
    /// Quarter turns right, 1 to 3 (left out: 1 to 3 at random, from the crawl's stream).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

/// An item as the row writes it (`items`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ItemRow {
    pub(crate) at: [i32; 2],
    pub(crate) loot: String,
    #[serde(default)]
    pub(crate) art: Option<String>,
}

/// An item lying on open floor, taken with `use` while standing on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// Its cell, `[x, y]`.
    pub at: [i32; 2],
    /// What it is, as a chest's loot.
    pub loot: Loot,
    /// The art the picture names for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
    /// Its place in the level row's `items` list (what a save names it by).
    pub index: usize,
}

/// A decoration on a wall face (`decor`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decor {
    /// The solid cell it hangs on, `[x, y]`.
    pub at: [i32; 2],
    /// The face it is on: the one looking toward this side.
    pub side: Facing,
    /// The art drawn over that face.
    pub art: String,
}

/// A `traps` entry: a name alone (the game decides what it does), or
/// `{"name": .., "damage": N}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TrapRow {
    pub(crate) name: String,
    pub(crate) damage: u32,
}

impl<'de> Deserialize<'de> for TrapRow {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<TrapRow, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Hurts {
            name: String,
            #[serde(default)]
            damage: u32,
        }
        let value = serde_json::Value::deserialize(de)?;
        match value {
            serde_json::Value::String(name) => Ok(TrapRow { name, damage: 0 }),
            serde_json::Value::Object(_) => {
                let h: Hurts = serde_json::from_value(value).map_err(|e| {
                    serde::de::Error::custom(format!("a trap {{\"name\", \"damage\"}}: {e}"))
                })?;
                Ok(TrapRow {
                    name: h.name,
                    damage: h.damage,
                })
            }
            other => Err(serde::de::Error::custom(format!(
                "a trap is a name or {{\"name\": .., \"damage\": N}}, not {other}"
            ))),
        }
    }
}
