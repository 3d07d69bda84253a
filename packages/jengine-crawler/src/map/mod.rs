//! Levels drawn as ASCII in a data table, the monster and party tables beside them, and the
//! live floor ([`Dungeon`]) the crawl walks on.
//!
//! Everything is checked once, when the tables load: a level that would strand the party, a
//! name nobody defined or a lock nobody can open is refused with the level, row and cell at
//! fault, so nothing breaks fifty steps into a game.

mod cells;
mod checks;
mod fields;
mod floor;
mod story;
mod tables;

pub use cells::{Cell, Crawler, EncounterSpot, Facing, Loot, MonsterKind};
pub use fields::{Decor, Item, Mechanism, NamedDoor, Spinner, Teleport};
pub use floor::{Dungeon, Encounter, LEGEND, Monster, legend};
pub use story::{
    Choice, EventSpot, Link, MAX_CHOICES, MAX_SIGHT, Target, arrival_problem, level_named,
};
pub use tables::{Level, MapError, MonsterStart, Place, Problem, Tables};

#[cfg(test)]
mod tests;
