//! The map's vocabulary: the cells a floor is drawn with, the ways to face, loot, and the
//! rows of the monster and party tables.
//!
//! These are plain values with no checks of their own beyond parsing; the tables module is
//! where they are checked against each other.

use super::Problem;
use serde::{Deserialize, Serialize};

/// One cell of a floor, as it is now (doors remember being opened, chests being emptied).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// `.` (and `M`, where a monster starts): open floor.
    Floor,
    /// `#`: solid rock.
    Wall,
    /// `+`: a shut door; using it opens it.
    Door,
    /// `=`: a locked door. A plain one opens with a key (spent); one the row gives a `key`
    /// opens only with that named key; one a lever, plate or button names (a gate) opens only
    /// by those. A named door a mechanism shuts becomes this again.
    Locked,
    /// A door that has been opened: passable, drawn with its arch.
    Open,
    /// `A`: an archway, a doorway with no door.
    Arch,
    /// `L`: a lever set in a wall; pulling it (once) opens and shuts the doors its row entry
    /// names.
    Lever {
        /// Whether it has been pulled (it only goes one way).
        pulled: bool,
    },
    /// `C`: a chest standing in an open cell.
    Chest {
        /// What is inside.
        loot: Loot,
        /// Whether it has been emptied.
        opened: bool,
    },
    /// `O`: a pit in the floor; stepping in drops the party a floor.
    Pit,
    /// `>`: stairs down.
    Down,
    /// `<`: stairs up (out of the dungeon on the top floor).
    Up,
    /// `^`: a trap, floor until the party steps on it, then it goes off once.
    Trap {
        /// Its name, from the level's `traps` list.
        name: String,
        /// Whether it has gone off.
        sprung: bool,
        /// The most it hurts each standing member of the front rank for (0: it hurts nobody,
        /// the game decides what it does).
        damage: u32,
    },
    /// `S`: a secret door, solid rock to the party until found (by `use` facing it or a
    /// search); found, it becomes a shut [`Cell::Door`].
    Secret,
    /// `T`: a teleporter; stepping on it moves the party to its row entry's destination.
    Teleporter,
    /// `%`: a spinner; stepping on it turns the party (by its row entry, or at random).
    Spinner,
    /// `D`: a dark cell: open floor the picture shows nothing in or beyond.
    Dark,
    /// `_`: a pressure plate; each time the party steps on it, its row entry opens and shuts
    /// named doors.
    Plate {
        /// Flips with each press (for the picture: up or down).
        pressed: bool,
    },
    /// `B`: a button set in a wall; each `use` applies its row entry.
    Button {
        /// Flips with each press (for the picture: in or out).
        pressed: bool,
    },
}

impl Cell {
    /// Solid cells stop sight and the picture: rock, shut and locked doors, levers.
    pub fn is_solid(&self) -> bool {
        matches!(
            self,
            Cell::Wall
                | Cell::Door
                | Cell::Locked
                | Cell::Lever { .. }
                | Cell::Secret
                | Cell::Button { .. }
        )
    }

    /// Whether the party (or a monster) can stand here.
    pub fn is_walkable(&self) -> bool {
        !self.is_solid()
    }

    /// The cell a legend symbol stands for, when the symbol needs nothing from the level row
    /// (everything but `C`, `^` and `M`).
    pub fn plain(symbol: char) -> Option<Cell> {
        Some(match symbol {
            '.' => Cell::Floor,
            '#' => Cell::Wall,
            '+' => Cell::Door,
            '=' => Cell::Locked,
            'A' => Cell::Arch,
            'L' => Cell::Lever { pulled: false },
            '>' => Cell::Down,
            '<' => Cell::Up,
            'O' => Cell::Pit,
            'S' => Cell::Secret,
            'T' => Cell::Teleporter,
            '%' => Cell::Spinner,
            'D' => Cell::Dark,
            '_' => Cell::Plate { pressed: false },
            'B' => Cell::Button { pressed: false },
            _ => return None,
        })
    }

    /// The legend symbol the cell was drawn with (an opened door reads as an archway).
    pub fn symbol(&self) -> char {
        match self {
            Cell::Floor => '.',
            Cell::Wall => '#',
            Cell::Door => '+',
            Cell::Locked => '=',
            Cell::Open | Cell::Arch => 'A',
            Cell::Lever { .. } => 'L',
            Cell::Chest { .. } => 'C',
            Cell::Pit => 'O',
            Cell::Down => '>',
            Cell::Up => '<',
            Cell::Trap { .. } => '^',
            Cell::Secret => 'S',
            Cell::Teleporter => 'T',
            Cell::Spinner => '%',
            Cell::Dark => 'D',
            Cell::Plate { .. } => '_',
            Cell::Button { .. } => 'B',
        }
    }
}

/// What a chest (or an item on the floor) holds: `kind:value`. `gold`, `key` and `heal` are
/// the crawl's own; any other kind is announced for the game to hand out. `key:N` is N plain
/// keys, `key:NAME` (not a number) the named key NAME.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loot {
    /// The part before the colon.
    pub kind: String,
    /// The part after it.
    pub value: String,
}

impl Loot {
    /// Parses `kind:value`; `gold` and `heal` need a whole number, `key` a whole number or a
    /// key's name.
    pub fn parse(text: &str) -> Result<Loot, Problem> {
        let bad = || Problem::BadLoot(text.to_string());
        let (kind, value) = text.split_once(':').ok_or_else(bad)?;
        let (kind, value) = (kind.trim(), value.trim());
        if kind.is_empty() || value.is_empty() {
            return Err(bad());
        }
        if matches!(kind, "gold" | "heal") && value.parse::<u32>().is_err() {
            return Err(bad());
        }
        Ok(Loot {
            kind: kind.to_string(),
            value: value.to_string(),
        })
    }

    /// The number for `gold`, `key` and `heal` (0 for anything else, and for a named key).
    pub fn amount(&self) -> u32 {
        self.value.parse().unwrap_or(0)
    }

    /// The named key this is (`key:bronze`), if it is one.
    pub fn named_key(&self) -> Option<&str> {
        (self.kind == "key" && self.value.parse::<u32>().is_err()).then_some(self.value.as_str())
    }

    /// How many plain keys this is (`key:N`).
    pub fn plain_keys(&self) -> u32 {
        if self.kind == "key" { self.amount() } else { 0 }
    }

    /// `kind:value` again.
    pub fn text(&self) -> String {
        format!("{}:{}", self.kind, self.value)
    }
}

/// The four ways the party can face. North is up the drawing (row numbers falling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    /// Up the drawing.
    North,
    /// Right.
    East,
    /// Down the drawing.
    South,
    /// Left.
    West,
}

impl Facing {
    /// All four, clockwise from north.
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    /// One cell forward, as (dx, dy).
    pub fn ahead(self) -> (i32, i32) {
        match self {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        }
    }

    /// One cell to the right, as (dx, dy).
    pub fn right(self) -> (i32, i32) {
        self.turned(1).ahead()
    }

    /// Turned right by `steps` quarters (negative turns left).
    pub fn turned(self, steps: i32) -> Facing {
        let index = Facing::ALL.iter().position(|f| *f == self).unwrap_or(0) as i32;
        Facing::ALL[(index + steps).rem_euclid(4) as usize]
    }
}

/// A fight waiting on a cell, from the level row's `encounters`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncounterSpot {
    /// Where it waits, as `[x, y]` (cell, row).
    pub at: [i32; 2],
    /// The group the game fights, by the game's own name.
    pub group: String,
    /// What the game shows when it starts.
    #[serde(default)]
    pub text: String,
    /// The art that stands in the picture until it is won.
    #[serde(default)]
    pub art: Option<String>,
    /// Winning it is the way out of the last floor.
    #[serde(default)]
    pub goal: bool,
    /// How many cells away it is spotted standing in the party's sight (left out: the level's
    /// `sight`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<u32>,
}

/// A monster kind, one row of the monsters table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterKind {
    /// The name levels use for it.
    pub name: String,
    /// Its health.
    pub hp: u32,
    /// The most it bites for.
    #[serde(default = "one")]
    pub attack: u32,
    /// How many cells away it notices the party (when it can also see it).
    #[serde(default = "default_sight")]
    pub sight: u32,
    /// The art the picture names for it (its name if not given).
    #[serde(default)]
    pub art: Option<String>,
}

/// A party member, one row of the crawlers table; the row's place is their slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crawler {
    /// Their name.
    pub name: String,
    /// Their health.
    #[serde(default = "default_hp")]
    pub hp: u32,
    /// The most they hit for.
    #[serde(default = "default_attack")]
    pub attack: u32,
    /// The furthest slot they can fight from (the front two always can).
    #[serde(default = "one")]
    pub reach: u32,
}

fn one() -> u32 {
    1
}
fn default_sight() -> u32 {
    5
}
fn default_hp() -> u32 {
    10
}
fn default_attack() -> u32 {
    2
}

static ROCK: Cell = Cell::Wall;

pub(crate) fn cell_in(cells: &[Cell], width: i32, height: i32, x: i32, y: i32) -> &Cell {
    if x < 0 || y < 0 || x >= width || y >= height {
        &ROCK
    } else {
        // A hand-built floor whose cells fall short of its size reads as rock there.
        cells.get((y * width + x) as usize).unwrap_or(&ROCK)
    }
}
