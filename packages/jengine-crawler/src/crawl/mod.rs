//! The crawl: a party on a floor, moving one tick at a time, and what happens when it does.
//!
//! The dungeon waits for the party. Each action that spends time ends with the dungeon's
//! turn, in which every monster that has noticed the party moves or bites; all chance comes
//! from one seeded stream kept in the state, so a save replays exactly.

mod event;
mod furniture;
mod game;
mod monsters;
mod query;
mod reachable;
mod save;
mod sighting;
mod story;

pub use event::Event;
pub use furniture::DoorState;
pub use game::{
    Crawl, CrawlState, EventNow, Fight, Member, REST_TICKS, Sighting, Spotted, Wanderer,
};
pub use query::{Area, CellInfo};
pub use reachable::InPlay;
pub use save::{FloorSave, MonsterSave, MovedFight, Save, SaveError};
pub use sighting::{ANSWERS, facing_named};

#[cfg(test)]
mod tests;
