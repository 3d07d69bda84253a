//! The built-in core pack and the gate on packs the test writes itself: every core proof
//! replays a concrete winning route, the core pack's file is the one compiled in, and a bad
//! pack fails the gate without crashing. The shipped game's own packs are tested with the game
//! (`projects/miau/tests`).

use std::path::Path;

use jengine_miau::Game;
use jengine_miau::board::{Action, Proof};
use jengine_miau::source::load_file;
use jengine_miau::worlds;

fn assert_wins(level: &str, route: &str) {
    let pack = worlds::core().expect("core loads").pack;
    let level = pack
        .level(level)
        .unwrap_or_else(|| panic!("core has {level}"));
    let mut game = Game::new(Proof::new(level).expect("valid proof"));
    let actions = Action::parse_sequence(route).expect("route letters");
    for (i, &a) in actions.iter().enumerate() {
        let turn = game.play(a);
        assert!(!turn.blocked, "{}: move {} was blocked", level.id, i + 1);
        if i + 1 < actions.len() {
            assert!(!turn.won, "{}: won early, at move {}", level.id, i + 1);
        } else {
            assert!(turn.won, "{}: the route does not win", level.id);
        }
    }
}

#[test]
fn core_routes_win() {
    assert_wins("first-steps", "RRRR");
    assert_wins("missing-word", "UULLLDDDRRRR");
    assert_wins("open-the-gate", "DDURRRRRR");
}

#[test]
fn the_core_pack_file_is_the_built_in_one() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("packs")
        .join(worlds::CORE_FILE);
    let file = load_file(&path).expect("loads").pack;
    assert_eq!(file, worlds::core().expect("core loads").pack);
    assert_eq!(file.levels.len(), 3);
}

#[test]
fn a_pack_with_an_empty_level_fails_the_gate_without_crashing() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("bare.json"),
        r#"{ "manifest": { "id": "bare", "name": "Bare", "version": "1.0.0" },
             "levels": [{ "id": "nothing", "width": 4, "height": 3, "objects": [] }] }"#,
    )
    .expect("writes");
    let mut seen = Vec::new();
    let results = worlds::check_worlds_with(dir.path(), &worlds::CheckOptions::default(), |p| {
        seen.push(p.source.clone())
    });
    let sources: Vec<String> = results.iter().map(|r| r.source.clone()).collect();
    assert_eq!(
        seen, sources,
        "every pack is handed over as it is checked, in order"
    );
    let bare = results
        .iter()
        .find(|r| r.pack_id.as_deref() == Some("bare"))
        .expect("the bare pack is checked");
    assert!(!bare.passed());
    assert_eq!(bare.proofs.len(), 1);
    assert_eq!(bare.proofs[0].failures, vec!["UNSOLVABLE".to_string()]);
}
