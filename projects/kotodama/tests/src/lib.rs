//! What every Kotodama suite shares: where the project is, the packages it links, a headless
//! run of it, and what a test reads off the table: its `kotoba` bag and, as the player sees the
//! screen, its session and layout.
//!
//! The suites are in `tests/`: `kotodama.rs` plays the puzzle and the battle by pointer,
//! `kotodama_title.rs` the title and its menus, `kotodama_howto.rs` the lesson,
//! `kotodama_feedback.rs` what the board shows after each move,
//! `kotodama_flow.rs` the way through the menus into a game and back, `shipped.rs` the stages
//! and rivals, `editor.rs` the scenes in the editor. Goldens are in `golden/`, input files in
//! `inputs/`.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

use jengine::Package;
use jengine_kotoba::bot::{best, legal_moves};
use jengine_kotoba::draw::Layout;
use jengine_kotoba::{Content, Dict, Session, Table};
use jengine_testkit::{Game, Options};

/// The packages `project.jengine` lists, in its order, as linked into the tests.
pub fn packages() -> [&'static dyn Package; 3] {
    jengine_kotoba::packages()
}

/// Kotodama's project folder, `projects/kotodama`.
pub fn project() -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    tests.parent().unwrap_or(tests).to_path_buf()
}

/// The input file `name` under `tests/inputs/`.
pub fn input_file(name: &str) -> PathBuf {
    project().join("tests/inputs").join(name)
}

/// Runs Kotodama headless with `options`; its goldens are `tests/golden/`. A click, key or
/// text steps only its own frames (no settling after it): each suite steps the frames its
/// goldens and assertions were written for.
pub fn open(options: Options) -> Game {
    open_at(project(), options)
}

/// Runs a copy of Kotodama at `dir` (a test's own changed copy) as [`open`] does.
pub fn open_at(dir: impl AsRef<Path>, options: Options) -> Game {
    Game::open(dir, &packages(), options).settling(0)
}

/// The `kotoba` bag of the entity named `table`.
pub fn kotoba(game: &Game) -> serde_json::Value {
    game.bag("table", "kotoba")
}

/// The table's session and layout, as the player sees the screen.
pub fn look(game: &Game) -> (Session, Layout) {
    let e = game.entity("table");
    let session = (*game.world.entities.get::<&Session>(e).unwrap()).clone();
    let table = (*game.world.entities.get::<&Table>(e).unwrap()).clone();
    let layout = Layout::of(&table, &session);
    (session, layout)
}

/// A press and a release at world point `at`, one frame each.
pub fn tap(game: &mut Game, at: [f32; 2]) {
    game.click_at(at[0] as f64, at[1] as f64);
}

/// One good move by pointer: tap the best tile, then its cell. False when none fits.
pub fn play_best(game: &mut Game) -> bool {
    let (session, layout) = look(game);
    let Some(board) = session.board() else {
        return false;
    };
    let stats = &game.world.resources.get::<Content>().unwrap().stats;
    let Some(m) = best(&legal_moves(board, Dict::japanese(), stats, session.hand())) else {
        return false;
    };
    if session.selected != Some(m.slot) {
        tap(game, layout.hand[m.slot]);
    }
    tap(game, layout.cell_centre(m.pos));
    true
}
