//! A first-person grid dungeon crawler: the picture, the levels and the crawl, as plain Rust.
//!
//! Three modules, none of which knows about an engine:
//! - [`view`] turns a floor and a place to stand into quads, far to near;
//! - [`map`] loads and checks levels drawn in ASCII, and holds the live floor ([`Dungeon`]);
//! - [`crawl`] moves the party one tick at a time and says what happened as [`Event`]s.

#![warn(missing_docs)]

pub mod crawl;
pub mod map;
pub mod view;

pub use crawl::{Crawl, Event, SaveError};
pub use map::{Cell, Dungeon, Facing, MapError, Tables};
pub use view::{Face, Frame, Quad};
