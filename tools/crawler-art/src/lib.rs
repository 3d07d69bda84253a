//! The crawler games' shared art: the sheet of faces the crawl package builds its view from,
//! the floors' wall sets ([`sets`]), the decor and items ([`decor`]), the parts creatures are
//! painted with, and the HUD's panel, view frame, button and automap paper, all painted in a
//! game's own [`Look`].
//!
//! Umber Warren and Seven Stairs walk the same kind of dungeon, so their sheets have the same
//! faces in the same places, drawn from the same shapes; what differs is the look: the stone's
//! colour and grain, how the blocks are laid, how heavy the lines are, what the fittings are
//! made of. Each game's art tool holds its `Look` and its own creatures and pictures, and
//! calls in here for the rest. In order of priority:
//!
//! 1. Byte for byte the same on every machine: everything is [`jengine_paint`]'s exact
//!    arithmetic, and a look only swaps values, so a game's committed PNGs stay as they are.
//! 2. One painter per piece: a face or a HUD piece is drawn once, for every look.
//! 3. Readable at a glance in a dark corridor: bold silhouettes, light from the upper left.
//!
//! ```no_run
//! use crawler_art::{Look, sheet};
//!
//! /// `look`: a game's palette, masonry, line weight and HUD sizes (its art tool's `LOOK`).
//! fn paint(look: &Look) {
//!     let crawler = sheet::crawler(look); // 1024x1536, in `jengine_crawler::draw::FACES` order
//!     let monster = crawler_art::creatures::hooded(look); // the stand-in creature, 256x256
//!     assert_eq!((crawler.width, monster.width), (1024, 256));
//! }
//! ```

#![warn(missing_docs)]

pub mod creatures;
pub mod decor;
pub mod hud;
mod look;
pub mod marks;
pub mod preview;
pub mod sets;
pub mod sheet;

pub use look::{Hud, Look, Masonry, Palette};
