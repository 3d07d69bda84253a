//! `jengine-miau`: the pure core of Miau, a puzzle where the rules are word tiles on the board.
//!
//! Pushing `CAT`, `IS` and `YOU` into a line makes every cat move with the player; break the
//! line and they stop. This crate is everything below the game's presentation:
//!
//! 1. [`rules`] reads sentences and rules from word tiles, [`board`] plays turns on a proof
//!    (a compiled level) and [`game`] adds undo and restart; [`automata`] moves objects that
//!    have a proof's own behaviour words.
//! 2. [`pack`] is the level-pack data model, [`validate`] the one validator every source goes
//!    through, and [`source`] turns CommonJS, Lua and JSON text into checked packs.
//! 3. [`library`] keeps installed packs on disk and [`share`] encodes them into links.
//! 4. [`solve`] is the author solver and [`worlds`] the shipped packs and their gate.
//!
//! It imports nothing from the `jengine` seam: everything here is plain data, tested directly.
//!
//! ```
//! use jengine_miau::{Action, Game, Level, Placement, Proof};
//!
//! let level = Level::new("intro", 5, 3, vec![
//!     Placement::word("CAT", 0, 0), Placement::word("IS", 1, 0), Placement::word("YOU", 2, 0),
//!     Placement::word("FLAG", 0, 2), Placement::word("IS", 1, 2), Placement::word("WIN", 2, 2),
//!     Placement::object("CAT", 3, 1), Placement::object("FLAG", 4, 1),
//! ]);
//! let mut game = Game::new(Proof::new(&level).unwrap());
//! assert!(game.play(Action::Right).won);
//! ```
#![warn(missing_docs)]

pub mod automata;
pub mod board;
pub mod game;
pub mod library;
pub mod pack;
pub mod rules;
pub mod share;
pub mod solve;
pub mod source;
pub mod validate;
pub mod worlds;

pub use board::{Action, Board, Entity, Proof, ProofError, Turn};
pub use game::Game;
pub use pack::{
    Behaviour, Facing, Glyph, Level, Manifest, Pack, Placement, PlacementKind, RuleText,
};
pub use rules::{Axis, Rule, Rules, Sentence};
