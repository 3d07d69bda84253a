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
use jengine_testkit::{Game, Options};

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
