//! Gold Box adventures: AD&D-style characters, spells and monsters, and tactical fights.

#![warn(missing_docs)]

pub mod fight;
pub mod rules;
