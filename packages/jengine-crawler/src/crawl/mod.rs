//! The crawl: a party on a floor, moving one tick at a time, and what happens when it does.
//!
//! The dungeon waits for the party. Each action that spends time ends with the dungeon's
//! turn, in which every monster that has noticed the party moves or bites; all chance comes
//! from one seeded stream kept in the state, so a save replays exactly.

mod furniture;
mod game;
mod monsters;
mod reachable;
mod save;

pub use game::{Crawl, CrawlState, Event, Fight, Member, REST_TICKS};
pub use reachable::InPlay;
pub use save::{FloorSave, MonsterSave, Save, SaveError};

#[cfg(test)]
mod tests;
