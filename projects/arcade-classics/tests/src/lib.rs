//! What every suite of Umber Warren (`projects/arcade-classics`) shares: where the project is,
//! the package it links, its tables read from `data/`, and the crawl's state as the game's
//! scripts read it.
//!
//! The suites are in `tests/`: `warren.rs` plays the game, `editor.rs` opens its scenes in the
//! editor. Goldens are in `golden/`, input files in `inputs/`.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

use jengine::Package;
use jengine_crawler::CrawlerPackage;
use jengine_testkit::{Game, Options};

/// The packages `project.jengine` lists, as linked into the tests.
pub const PACKAGES: &[&dyn Package] = &[&CrawlerPackage];

/// The project folder, `projects/arcade-classics`.
pub fn project() -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    tests.parent().unwrap_or(tests).to_path_buf()
}

/// Runs the game headless with `options`; its goldens are `tests/golden/`.
pub fn open(options: Options) -> Game {
    Game::open(project(), PACKAGES, options)
}

/// The text of the data table `name` (`data/<name>.json`); panics naming the file when it
/// cannot be read.
pub fn data(name: &str) -> String {
    let path = project().join("data").join(format!("{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The crawl's state bag, as `warren.lua` reads it.
pub fn crawl_state(game: &Game) -> serde_json::Value {
    game.bag("crawl", "CrawlState")
}
