//! The live floor: a level's cells as they are now, the monsters on it, its fixed fights and
//! what the party has seen of it.
//!
//! A [`Dungeon`] starts as a copy of its [`Level`] and changes as the crawl plays; anything
//! off its drawing reads as rock, so lookups never need bounds checks of their own.

use super::cells::{Cell, EncounterSpot, Loot, MonsterKind, cell_in};
use super::fields::{Decor, Item};
use super::tables::Level;
use serde::{Deserialize, Serialize};

/// Every symbol the automap draws with and what it means, in the order a legend lists them.
pub const LEGEND: [(char, &str); 19] = [
    ('.', "floor"),
    ('#', "rock"),
    ('+', "door"),
    ('=', "locked door"),
    ('/', "open door"),
    ('A', "archway"),
    ('L', "lever"),
    ('B', "button"),
    ('C', "chest"),
    ('c', "empty chest"),
    ('$', "something lying here"),
    ('E', "a fight waits"),
    ('^', "sprung trap"),
    ('O', "pit"),
    ('>', "stairs down"),
    ('<', "stairs up"),
    ('T', "teleporter"),
    ('%', "spinner"),
    ('_', "pressure plate"),
];

/// The legend of an automap: each symbol `rows` holds, with its meaning, in [`LEGEND`] order.
pub fn legend(rows: &[String]) -> Vec<(char, &'static str)> {
    LEGEND
        .iter()
        .copied()
        .filter(|(symbol, _)| rows.iter().any(|row| row.contains(*symbol)))
        .collect()
}

/// A monster on a floor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Index into the monsters table.
    pub kind: usize,
    /// Cell.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Health left.
    pub hp: u32,
    /// Once awake, it hunts the party for good.
    pub awake: bool,
    /// The art the picture names for it.
    pub art: String,
}

/// A fixed fight on a floor, and whether it has been won.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Encounter {
    /// What the level row said.
    pub spot: EncounterSpot,
    /// Won fights are gone for good.
    pub won: bool,
}

/// One floor as it is now: its cells, what lives on it, its fixed fights and what has been seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Dungeon {
    /// Cells across.
    pub width: i32,
    /// Rows down.
    pub height: i32,
    /// The cells, row by row.
    pub cells: Vec<Cell>,
    /// The monsters still alive.
    pub monsters: Vec<Monster>,
    /// The fixed fights.
    pub encounters: Vec<Encounter>,
    /// Which cells the party has seen, for the automap.
    pub seen: Vec<bool>,
    /// The items still lying on the floor, in the row's order.
    pub items: Vec<Item>,
    /// The decorations on its wall faces.
    pub decor: Vec<Decor>,
    /// Its wall set, a name in the sheet's `sets` (`None`: the sheet's own faces).
    pub walls: Option<String>,
    /// For each of the level's events, whether it is done for good (a `once` event answered).
    pub events_done: Vec<bool>,
}

impl Dungeon {
    /// The floor as it is before anyone arrives. `kinds` is the monsters table the level was
    /// checked against; a monster whose kind it lacks is left out.
    pub fn new(level: &Level, kinds: &[MonsterKind]) -> Dungeon {
        let monsters = level
            .monsters
            .iter()
            .filter_map(|m| {
                let kind = kinds.get(m.kind)?;
                Some(Monster {
                    kind: m.kind,
                    x: m.x,
                    y: m.y,
                    hp: kind.hp,
                    awake: false,
                    art: kind.art.clone().unwrap_or_else(|| kind.name.clone()),
                })
            })
            .collect();
        Dungeon {
            width: level.width,
            height: level.height,
            cells: level.cells.clone(),
            monsters,
            encounters: level
                .encounters
                .iter()
                .map(|spot| Encounter {
                    spot: spot.clone(),
                    won: false,
                })
                .collect(),
            seen: vec![false; level.cells.len()],
            items: level.items.clone(),
            decor: level.decor.clone(),
            walls: level.walls.clone(),
            events_done: vec![false; level.events.len()],
        }
    }

    /// A bare floor from a drawing with no monsters or fights, for tests, examples and benches.
    /// Symbols outside the legend, and ragged rows, read as rock.
    pub fn from_rows(rows: &[&str]) -> Dungeon {
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
        let height = rows.len() as i32;
        let mut cells = Vec::with_capacity((width * height) as usize);
        for row in rows {
            let mut n = 0;
            for symbol in row.chars() {
                n += 1;
                cells.push(match symbol {
                    'M' => Cell::Floor,
                    'C' => Cell::Chest {
                        loot: Loot {
                            kind: "gold".into(),
                            value: "1".into(),
                        },
                        opened: false,
                    },
                    '^' => Cell::Trap {
                        name: "trap".into(),
                        sprung: false,
                        damage: 0,
                    },
                    other => Cell::plain(other).unwrap_or(Cell::Wall),
                });
            }
            cells.extend(std::iter::repeat_n(Cell::Wall, width as usize - n));
        }
        Dungeon {
            width,
            height,
            seen: vec![false; cells.len()],
            cells,
            monsters: Vec::new(),
            encounters: Vec::new(),
            items: Vec::new(),
            decor: Vec::new(),
            walls: None,
            events_done: Vec::new(),
        }
    }

    /// The first cell equal to `cell`, in reading order.
    pub fn find(&self, cell: &Cell) -> Option<(i32, i32)> {
        let i = self.cells.iter().position(|c| c == cell)?;
        Some((i as i32 % self.width, i as i32 / self.width))
    }

    /// Whether (x, y) is on the floor's drawing.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    /// The cell at (x, y); anything off the drawing is rock.
    pub fn cell(&self, x: i32, y: i32) -> &Cell {
        cell_in(&self.cells, self.width, self.height, x, y)
    }

    /// The cell at (x, y) to change, if it is on the drawing.
    pub fn cell_mut(&mut self, x: i32, y: i32) -> Option<&mut Cell> {
        if self.contains(x, y) {
            self.cells.get_mut((y * self.width + x) as usize)
        } else {
            None
        }
    }

    /// The monster standing at (x, y), if any.
    pub fn monster_at(&self, x: i32, y: i32) -> Option<usize> {
        self.monsters.iter().position(|m| m.x == x && m.y == y)
    }

    /// How many steps (across plus along, walls not counted) the nearest awake monster is from
    /// `at`, or `None` when no monster on the floor is awake.
    pub fn nearest_awake(&self, at: (i32, i32)) -> Option<u32> {
        self.monsters
            .iter()
            .filter(|m| m.awake)
            .map(|m| (m.x - at.0).unsigned_abs() + (m.y - at.1).unsigned_abs())
            .min()
    }

    /// The first item lying at (x, y), if any.
    pub fn item_at(&self, x: i32, y: i32) -> Option<usize> {
        self.items.iter().position(|i| i.at == [x, y])
    }

    /// The fixed fight not yet won waiting at (x, y), if any.
    pub fn encounter_at(&self, x: i32, y: i32) -> Option<usize> {
        self.encounters
            .iter()
            .position(|e| !e.won && e.spot.at == [x, y])
    }

    /// Marks (x, y) seen; off the drawing is ignored.
    pub fn see(&mut self, x: i32, y: i32) {
        if self.contains(x, y)
            && let Some(seen) = self.seen.get_mut((y * self.width + x) as usize)
        {
            *seen = true;
        }
    }

    /// Whether (x, y) has been seen.
    pub fn is_seen(&self, x: i32, y: i32) -> bool {
        self.contains(x, y) && self.seen.get((y * self.width + x) as usize) == Some(&true)
    }

    /// Gameplay sight: a straight line between the two cells' middles crosses nothing solid.
    /// Stricter than the picture's rule, which shows anything a ray through open cells reaches.
    pub fn line_of_sight(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let steps = dx.abs().max(dy.abs());
        // Sampling four times per cell crossed touches every cell the segment passes through
        // closely enough for a grid of whole cells, and needs no special case for diagonals.
        let samples = steps * 4;
        for i in 1..samples {
            let t = i as f64 / samples as f64;
            let x = (from.0 as f64 + dx as f64 * t + 0.5).floor() as i32;
            let y = (from.1 as f64 + dy as f64 * t + 0.5).floor() as i32;
            if (x, y) != from && (x, y) != to && self.cell(x, y).is_solid() {
                return false;
            }
        }
        true
    }

    /// The automap: the floor as drawn, with what has not been seen blank, a fight not yet won
    /// as `E`, a trap that has not gone off as floor, an opened door `/`, an emptied chest `c`,
    /// something lying `$`, an unfound secret door as rock and a dark cell blank, seen or not
    /// (see [`LEGEND`] for every symbol).
    pub fn automap(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| {
                        let cell = self.cell(x, y);
                        if !self.is_seen(x, y) || *cell == Cell::Dark {
                            ' '
                        } else if self.encounter_at(x, y).is_some() {
                            'E'
                        } else if self.item_at(x, y).is_some() {
                            '$'
                        } else {
                            match cell {
                                Cell::Trap { sprung: false, .. } => '.',
                                Cell::Open => '/',
                                Cell::Chest { opened: true, .. } => 'c',
                                // Rock until found; found, it is a door like any other.
                                Cell::Secret => '#',
                                cell => cell.symbol(),
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// What has been seen, as a string per floor: a row of `1` (seen) and `0` per line of the
    /// drawing, rows separated by `/`.
    pub fn seen_string(&self) -> String {
        let rows: Vec<String> = self
            .seen
            .chunks(self.width.max(1) as usize)
            .map(|row| row.iter().map(|s| if *s { '1' } else { '0' }).collect())
            .collect();
        rows.join("/")
    }

    /// Reads back what `seen_string` wrote; `None` if it is not the shape of this floor.
    pub fn parse_seen(&self, text: &str) -> Option<Vec<bool>> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.height as usize {
            return None;
        }
        let mut seen = Vec::with_capacity(self.seen.len());
        for row in rows {
            if row.len() != self.width as usize {
                return None;
            }
            for c in row.chars() {
                seen.push(match c {
                    '1' => true,
                    '0' => false,
                    _ => return None,
                });
            }
        }
        Some(seen)
    }
}
