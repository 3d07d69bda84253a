//! What every suite of Miau (`projects/miau`) shares: where the project is, the package it
//! links, its packs (the core pack built into `jengine-miau`, the rest in `mods/`), the
//! solver's route through a level, and the `Miau` bag the game's scripts read.
//!
//! The suites are in `tests/`: `miau_game.rs` plays the game, `worlds.rs` checks the shipped
//! packs and their gate, `editor.rs` opens the scenes in the editor. Goldens are in `golden/`,
//! input files in `inputs/`, whole-game benches in `benches/`.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

use jengine::Package;
use jengine_miau::solve::Outcome;
use jengine_miau::worlds::{self, CheckOptions};
use jengine_miau::{Action, MiauPackage, Pack};
use jengine_testkit::{Event, Game, Options};

/// The packages `project.jengine` lists, as linked into the tests.
pub const PACKAGES: &[&dyn Package] = &[&MiauPackage];

/// The project folder, `projects/miau`.
pub fn project() -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    tests.parent().unwrap_or(tests).to_path_buf()
}

/// The folder of packs the game ships besides the core pack, `projects/miau/mods`.
pub fn mods() -> PathBuf {
    project().join("mods")
}

/// Runs the game headless with `options`. Its goldens are `tests/golden/`; a frame that
/// differs is written to `out` with its diff.
pub fn open(options: Options, out: impl AsRef<Path>) -> Game {
    let goldens = project().join("tests/golden");
    Game::open(project(), PACKAGES, options).goldens(goldens, out)
}

/// The pack `id` as the game lists it: `core` is the package's built-in pack, any other the
/// file in `mods/` named after it. Panics naming the pack when it does not load.
pub fn pack(id: &str) -> Pack {
    if id == "core" {
        return worlds::core().expect("the core pack loads").pack;
    }
    let file = worlds::pack_files(&mods())
        .expect("the mods folder is read")
        .into_iter()
        .find(|f| f.file_stem().and_then(|s| s.to_str()) == Some(id))
        .unwrap_or_else(|| panic!("no pack file {id} in mods/"));
    jengine_miau::source::load_file(&file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .pack
}

/// The solver's winning route through level `level` (from 0) of the pack `pack_id`.
pub fn route(pack_id: &str, level: usize) -> Vec<Action> {
    let pack = pack(pack_id);
    let report = worlds::solve_level(&pack.levels[level], &CheckOptions::default())
        .unwrap_or_else(|e| panic!("{pack_id} level {level}: {e}"));
    match report.outcome {
        Outcome::Solved(actions) => actions,
        other => panic!("{pack_id} level {level}: {other:?}"),
    }
}

/// The `Miau` bag the screens' scripts read: JSON null until the scene's first frame has run
/// the package's systems.
pub fn bag(game: &Game) -> serde_json::Value {
    game.any_bag("Miau")
}

/// The key that plays `action` (Space waits).
pub fn key_of(action: Action) -> &'static str {
    match action {
        Action::Up => "up",
        Action::Down => "down",
        Action::Left => "left",
        Action::Right => "right",
        Action::Wait => "space",
    }
}

/// The serial of the last pack outcome the `Miau` bag shows, 0 before any.
pub fn outcome_serial(rt: &Game) -> u64 {
    bag(rt)["outcome"]["serial"].as_u64().unwrap_or(0)
}

/// Pastes pack text and steps frames until its outcome is in the bag (a script runs on its
/// own thread, and ends by its time cap at the latest), then lets the screens take it.
/// Returns how many of the frames stepped meanwhile showed the import still running.
pub fn paste(rt: &mut Game, text: &str) -> usize {
    let before = outcome_serial(rt);
    rt.step(&[Event::Text { text: text.into() }]);
    read_back(rt, before)
}

/// Steps frames until a pack outcome newer than `before` is in the bag, then four more for the
/// screens to take it; returns how many of the frames showed the import still running.
pub fn read_back(rt: &mut Game, before: u64) -> usize {
    let mut running = 0;
    while outcome_serial(rt) == before {
        if bag(rt)["importing"] == true {
            running += 1;
        }
        rt.step(&[]);
    }
    rt.settle(4);
    running
}

/// The ids of the packs INDEX lists, in its order.
pub fn catalog_ids(rt: &Game) -> Vec<String> {
    bag(rt)["catalog"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect()
}

/// From the title to the Workshop (the middle button).
pub fn to_workshop(rt: &mut Game) {
    rt.settle(3);
    rt.key("right");
    rt.key("enter");
    rt.settle(3);
    assert_eq!(rt.scene(), "workshop");
}

/// From the title to level `level` (from 0) of pack `pack_id`, through INDEX by keys.
pub fn to_level(rt: &mut Game, pack_id: &str, level: usize) {
    rt.settle(3);
    rt.key("enter");
    rt.settle(3);
    assert_eq!(rt.scene(), "index");
    let catalog = bag(rt)["catalog"].as_array().cloned().unwrap_or_default();
    let at = catalog
        .iter()
        .position(|p| p["id"] == pack_id)
        .unwrap_or_else(|| panic!("no pack {pack_id} in INDEX"));
    for _ in 0..at {
        rt.key("down");
    }
    rt.key("right");
    for _ in 0..level {
        rt.key("down");
    }
    rt.key("enter");
    rt.settle(4);
    assert_eq!(rt.scene(), "play");
    let b = bag(rt);
    assert_eq!(b["playing"]["pack"], pack_id, "{b}");
    assert_eq!(b["playing"]["number"], level + 1, "{b}");
}
