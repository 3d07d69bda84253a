//! A first-person grid dungeon crawler: the picture, the levels and the crawl, as plain Rust.
//!
//! Three modules, none of which knows about an engine:
//! - [`view`] turns a floor and a place to stand into quads, drawn far to near;
//! - [`map`] loads and checks levels drawn in ASCII, and holds the live floor ([`Dungeon`]);
//! - [`crawl`] moves the party one tick at a time and says what happened as [`Event`]s.
//!
//! What matters, in order: the picture is right (it is geometry, so it is unit-tested rather
//! than eyeballed); bad tables and saves fail at load with the place at fault, never fifty steps
//! in and never with a panic; and a game replays exactly from its seed and its saves.
//!
//! ```
//! use jengine_crawler::{Crawl, Event, Tables};
//!
//! let map = ["######", "#<.+>#", "######"];
//! let levels = serde_json::json!([{ "name": "Cellar", "map": map, "facing": "east" }]);
//! let tables = Tables::from_json(&levels.to_string(), "[]", "[]").unwrap();
//! let mut game = Crawl::new(tables, 7);
//! game.walk(0, 1);
//! assert_eq!(game.use_ahead(), &[Event::Door]);
//! assert_eq!(game.state().tick, 2);
//! assert!(!game.view().is_empty());
//! ```

#![warn(missing_docs)]

pub mod crawl;
pub mod map;
pub mod view;

pub use crawl::{Crawl, CrawlState, Event, Save, SaveError};
pub use map::{Cell, Dungeon, Facing, MapError, Tables};
pub use view::{Face, Frame, Quad};
