//! The shipped worlds: every proof replays a concrete winning route, and the gate passes.

use std::path::PathBuf;

use jengine_miau::board::{Action, Proof};
use jengine_miau::source::load_file;
use jengine_miau::worlds;
use jengine_miau::{Game, Pack};

fn mods() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../projects/miau/mods")
}

fn pack(file: &str) -> Pack {
    if file == "core" {
        return worlds::core().expect("core loads").pack;
    }
    load_file(&mods().join(file)).expect("pack loads").pack
}

fn assert_wins(file: &str, level: &str, route: &str) {
    let pack = pack(file);
    let level = pack
        .level(level)
        .unwrap_or_else(|| panic!("{file} has {level}"));
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
    assert_wins("core", "first-steps", "RRRR");
    assert_wins("core", "missing-word", "UULLLDDDRRRR");
    assert_wins("core", "open-the-gate", "DDURRRRRR");
}

#[test]
fn basic_proofs_routes_win() {
    assert_wins("garden-basics.cjs", "garden-push", "RRURDRRR");
    assert_wins("garden-basics.cjs", "garden-pond", "RRRRRRRR");
    assert_wins("garden-basics.cjs", "garden-thorns", "DDRRRDRRU");
}

#[test]
fn word_lab_routes_win() {
    assert_wins("word-lab.cjs", "shared-control", "RRDDRDLDRR");
    assert_wins("word-lab.cjs", "change-what-you-are", "DRRDRR");
    assert_wins("word-lab.cjs", "rules-are-cargo", "RRRULLLDLURUURRR");
}

#[cfg(feature = "automata")]
#[test]
fn clockwork_routes_win() {
    assert_wins("clockwork.cjs", "busy-bee", "ULUUU");
    assert_wins("clockwork.cjs", "carrier", "RUUDDRR");
    assert_wins("clockwork.cjs", "rockslide", "RRRRDDDRR");
}

#[test]
fn basic_proofs_display_name_and_stable_ids() {
    let p = pack("garden-basics.cjs");
    assert_eq!(
        (p.manifest.id.as_str(), p.manifest.name.as_str()),
        ("garden-basics", "Basic Proofs")
    );
    let ids: Vec<&str> = p.levels.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["garden-push", "garden-pond", "garden-thorns"]);
}

#[test]
fn the_core_pack_file_is_the_built_in_one() {
    let file = load_file(&mods().join(worlds::CORE_FILE))
        .expect("loads")
        .pack;
    assert_eq!(file, pack("core"));
    assert_eq!(file.levels.len(), 3);
}

#[cfg(feature = "automata")]
#[test]
fn the_worlds_gate_passes() {
    let results = worlds::check_worlds(&mods(), &worlds::CheckOptions::default());
    assert_eq!(results.len(), 4, "core plus three pack files");
    for r in &results {
        assert!(
            r.passed(),
            "{} failed: {:?} {:#?}",
            r.source,
            r.error,
            r.proofs
                .iter()
                .map(|p| (&p.level_id, &p.failures))
                .collect::<Vec<_>>()
        );
    }
    let total: usize = results.iter().map(|r| r.proofs.len()).sum();
    assert_eq!(total, 12);
}

#[cfg(not(feature = "automata"))]
#[test]
fn without_automata_the_clockwork_pack_needs_a_newer_miau() {
    let err = load_file(&mods().join("clockwork.cjs")).expect_err("refused");
    assert!(
        err.to_string().starts_with("This pack needs a newer Miau"),
        "{err}"
    );
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
