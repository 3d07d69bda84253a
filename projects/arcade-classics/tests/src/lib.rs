//! What every suite of Umber Warren (`projects/arcade-classics`) shares: where the project is,
//! the package it links, its tables read from `data/`, and the crawl's state as the game's
//! scripts read it.
//!
//! The suites are in `tests/`: `warren.rs` plays the game, `editor.rs` opens its scenes in the
//! editor. Goldens are in `golden/`, input files in `inputs/`.

#![warn(missing_docs)]

pub mod bot;

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

/// The picture's frame `warren.scene` gives its crawl: it decides what the automap sees, so a
/// crawl played outside the game sees what the game's does.
pub fn frame() -> jengine_crawler::Frame {
    let path = project().join("assets/scenes/warren.scene");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let scene: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let crawl = scene["entities"]
        .as_array()
        .and_then(|es| es.iter().find_map(|e| e.get("crawl_game")))
        .unwrap_or_else(|| panic!("{}: no crawl_game", path.display()));
    serde_json::from_value(crawl["frame"].clone())
        .unwrap_or_else(|e| panic!("{}: frame: {e}", path.display()))
}

/// The warren's three tables, loaded by the crawl; panics with the crawl's message.
pub fn tables() -> jengine_crawler::Tables {
    jengine_crawler::Tables::from_json(
        &data("warren_levels"),
        &data("warren_monsters"),
        &data("warren_crawlers"),
    )
    .unwrap_or_else(|e| panic!("the warren's tables: {e}"))
}

/// A crawl of the warren on `seed`, laid out with the game's frame.
pub fn crawl(seed: u64) -> jengine_crawler::Crawl {
    let mut crawl = jengine_crawler::Crawl::new(tables(), seed);
    crawl.set_frame(frame());
    // Again with the frame set, as the game does: what the party sees on arrival depends on it.
    crawl.new_game(None);
    crawl
}

/// The crawl's state bag, as `warren.lua` reads it.
pub fn crawl_state(game: &Game) -> serde_json::Value {
    game.bag("crawl", "CrawlState")
}
