//! Word tiles: kana go on a board one at a time, and a tile only stays where it reads in a
//! word, left to right or top to bottom.
//!
//! This crate is the pure core of the `jengine-kotoba` package: the rules, the dictionary, the
//! two modes and the bot, on plain data and with no engine in sight. Its priorities, in order:
//! the rule is exact (a word is found wherever it lies in a run, and counted once); everything
//! replays (all randomness comes from seeded streams kept in the state, and time only moves when
//! told); bad input is refused with where it went wrong, never a panic; and the bot is fast
//! enough to run every frame.
//!
//! - [`kana`]: the tiles, their forms, and their bag weights and values ([`TileStats`]).
//! - [`dict`]: the compiled-in Japanese dictionary ([`Dict::japanese`]).
//! - [`board`]: the grid and the rule, [`Board::words_at`].
//! - [`play`]: hands, stocks, placing with auto-form, and the [`Event`]s both modes report.
//! - [`puzzle`]: one player against the clock on a [`Stage`]; [`autoplay`] lets the bot play it.
//! - [`battle`]: two [`Fighter`]s on one board in real time; [`Battle::apply`] takes a [`Move`].
//! - [`bot`]: every legal move for a hand, and one picked by [`Skill`].
//! - [`content`]: stage and [`Rival`] tables, checked row by row, and the shipped ones.
//!
//! ```
//! use jengine_kotoba::{Board, Dict, Kana, Pos, TileStats, play};
//!
//! let dict = Dict::japanese();
//! let stats = TileStats::from_dict(dict);
//! let mut board = Board::from_rows(&["さか.つ"]).unwrap();
//! let na = Kana::from_char('な').unwrap();
//! let placed = play::place(&mut board, dict, &stats, Pos::new(2, 0), na).unwrap();
//! // The な reads さかな across; なつ reads too, though さかなつ is no word.
//! let words: Vec<String> = placed.words.iter().map(|w| dict.entry(w.entry).unwrap().reading_text()).collect();
//! assert_eq!(words, ["さかな", "なつ"]);
//! assert!(placed.points > 0);
//! ```

#![warn(missing_docs)]

pub mod battle;
pub mod board;
pub mod bot;
pub mod content;
pub mod dict;
pub mod kana;
pub mod play;
pub mod puzzle;
pub mod waves;

pub use battle::{Battle, COMBO_WINDOW, Fighter, FighterSpec, Move, Phase, Setup};
pub use board::{Board, Cell, Dir, Pos, Word};
pub use bot::{Bot, LegalMove, Skill, legal_moves};
pub use content::{Rival, TableError};
pub use dict::{Dict, Entry};
pub use kana::{Kana, TileStats};
pub use play::{Event, Hand, Placed, Refusal, Stock};
pub use puzzle::{Puzzle, Stage, autoplay};
