//! The worlds the game ships in `mods/`: every proof replays a concrete winning route, and the
//! gate passes over them with the core pack the package builds in.

use std::sync::Arc;

use jengine::host::{MemoryAssets, MemoryStorage};
use jengine_miau::Game;
use jengine_miau::board::{Action, Proof};
use jengine_miau::pack::RuleText;
use jengine_miau::session::Session;
use jengine_miau::solve::Outcome;
use jengine_miau::worlds;
use miau_tests::{mods, pack, project};

fn assert_wins(id: &str, level: &str, route: &str) {
    let pack = pack(id);
    let level = pack
        .level(level)
        .unwrap_or_else(|| panic!("{id} has {level}"));
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
fn basic_proofs_routes_win() {
    assert_wins("garden-basics", "garden-push", "RRURDRRR");
    assert_wins("garden-basics", "garden-pond", "RRRRRRRR");
    assert_wins("garden-basics", "garden-thorns", "DDRRRDRRU");
}

#[test]
fn word_lab_routes_win() {
    assert_wins("word-lab", "shared-control", "RRDDRDLDRR");
    assert_wins("word-lab", "change-what-you-are", "DRRDRR");
    assert_wins("word-lab", "rules-are-cargo", "RRRULLLDLURUURRR");
}

#[cfg(feature = "automata")]
#[test]
fn clockwork_routes_win() {
    assert_wins("clockwork", "busy-bee", "ULUUU");
    assert_wins("clockwork", "carrier", "RUUDDRR");
    assert_wins("clockwork", "rockslide", "RRRRDDDRR");
}

/// Crossword ships in a subfolder, `mods/worlds/`, and is found there like any other pack.
#[test]
fn crossword_routes_win() {
    assert!(mods().join("worlds/crossword.cjs").is_file());
    assert_wins("crossword", "crossing", "LLDDLLL");
    assert_wins("crossword", "two-birds", "DLRRR");
    assert_wins("crossword", "along-the-grain", "RUDDRRR");
    assert_wins("crossword", "slide-rule", "UUULLULLDRRDRDDDRR");
    assert_wins("crossword", "pass-it-on", "DRRDRRRRULDLLULURURDDLDL");
    assert_wins("crossword", "inside-out", "RURRRDRRURDLLLUURDLDRRULLL");
}

/// Pass it on is won only by reading the flag's WIN a second time, down from ROCK IS: with
/// `ROCK IS WIN` forbidden, the whole reachable board holds no win.
#[test]
fn pass_it_on_needs_rock_is_win() {
    let pack = pack("crossword");
    let level = pack.level("pass-it-on").expect("pass-it-on");
    let free = worlds::solve_level(level, &worlds::CheckOptions::default()).expect("compiles");
    assert!(matches!(free.outcome, Outcome::Solved(_)), "{free:?}");
    let options = worlds::CheckOptions {
        forbid: vec![RuleText::parse("ROCK IS WIN").expect("a rule")],
        ..worlds::CheckOptions::default()
    };
    let forbidden = worlds::solve_level(level, &options).expect("compiles");
    assert_eq!(forbidden.outcome, Outcome::Unsolvable);
}

/// A web build bundles the project's files and the game lists its packs from them in memory:
/// the pack in `mods/worlds/` is carried, and INDEX lists it after the top folder's packs.
#[cfg(feature = "automata")]
#[test]
fn a_web_build_carries_and_lists_the_pack_in_a_subfolder() {
    let files = jengine_web::project_files(&project()).expect("the project bundles");
    assert!(
        files.contains_key("mods/worlds/crossword.cjs"),
        "{:?}",
        files
            .keys()
            .filter(|k| k.starts_with("mods/"))
            .collect::<Vec<_>>()
    );
    let mut bundle = MemoryAssets::named("bundle");
    for (name, bytes) in files {
        bundle.insert(&name, bytes).expect("a bundled name");
    }
    let storage = Arc::new(MemoryStorage::new());
    let mut session = Session::open_shipped(storage, Some((&bundle, "mods"))).expect("opens");
    assert_eq!(session.take_startup_problems(), Vec::<String>::new());
    let ids: Vec<&str> = session
        .catalog()
        .iter()
        .map(|c| c.summary.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "core",
            "clockwork",
            "garden-basics",
            "word-lab",
            "crossword"
        ]
    );
}

#[test]
fn basic_proofs_display_name_and_stable_ids() {
    let p = pack("garden-basics");
    assert_eq!(
        (p.manifest.id.as_str(), p.manifest.name.as_str()),
        ("garden-basics", "Basic Proofs")
    );
    let ids: Vec<&str> = p.levels.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["garden-push", "garden-pond", "garden-thorns"]);
}

/// The core pack is the package's: the game ships no file of its own for it, so the one the
/// game plays is always the one built into `jengine-miau`.
#[test]
fn the_core_pack_is_the_packages_alone() {
    assert!(
        !mods().join(worlds::CORE_FILE).exists(),
        "mods/{} would be a second copy of the package's core pack",
        worlds::CORE_FILE
    );
    for file in worlds::pack_files(&mods()).expect("the mods folder is read") {
        let loaded = jengine_miau::source::load_file(&file).map(|c| c.pack.manifest.id);
        assert_ne!(loaded.ok().as_deref(), Some("core"), "{}", file.display());
    }
}

#[cfg(feature = "automata")]
#[test]
fn the_worlds_gate_passes() {
    let results = worlds::check_worlds(&mods(), &worlds::CheckOptions::default());
    assert_eq!(
        results.len(),
        5,
        "core plus four pack files, one in a subfolder"
    );
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
    assert_eq!(total, 18);
}

#[cfg(not(feature = "automata"))]
#[test]
fn without_automata_the_clockwork_pack_needs_a_newer_miau() {
    let err = jengine_miau::source::load_file(&mods().join("clockwork.cjs")).expect_err("refused");
    assert!(
        err.to_string().starts_with("This pack needs a newer Miau"),
        "{err}"
    );
}
