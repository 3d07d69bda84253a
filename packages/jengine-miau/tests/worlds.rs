//! The built-in core pack and the gate on packs the test writes itself: every core proof
//! replays a concrete winning route, the core pack's file is the one compiled in, and a bad
//! pack fails the gate without crashing; `allowBypass` and `allowHandsOff` skip their searches.
//! The shipped game's own packs are tested with the game (`projects/miau/tests`).

use std::path::Path;

use jengine_miau::Game;
use jengine_miau::board::{Action, Proof};
use jengine_miau::pack::{Level, Placement, RuleText};
use jengine_miau::solve::Mode;
use jengine_miau::source::load_file;
use jengine_miau::worlds::{self, CheckOptions, Step};

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

/// A walk to a flag under rules already formed: every route is a BYPASS and a HANDS-OFF.
fn stroll() -> Level {
    Level::new(
        "stroll",
        6,
        4,
        vec![
            Placement::word("CAT", 0, 0),
            Placement::word("IS", 1, 0),
            Placement::word("YOU", 2, 0),
            Placement::word("FLAG", 0, 3),
            Placement::word("IS", 1, 3),
            Placement::word("WIN", 2, 3),
            Placement::object("CAT", 1, 1),
            Placement::object("FLAG", 4, 2),
        ],
    )
}

/// Two pushes form FLAG IS WIN and win; a win that never pushes a word does not exist, and
/// proving that means walking a wide field of rocks.
fn rock_field() -> Level {
    let mut objects = vec![
        Placement::word("CAT", 0, 0),
        Placement::word("IS", 1, 0),
        Placement::word("YOU", 2, 0),
        Placement::word("ROCK", 0, 11),
        Placement::word("IS", 1, 11),
        Placement::word("PUSH", 2, 11),
        Placement::word("FLAG", 5, 2),
        Placement::word("IS", 6, 2),
        Placement::word("WIN", 7, 3),
        Placement::object("CAT", 7, 4),
        Placement::object("FLAG", 8, 3),
    ];
    for (x, y) in [
        (3, 5),
        (5, 7),
        (9, 6),
        (11, 8),
        (13, 5),
        (4, 9),
        (8, 9),
        (12, 3),
    ] {
        objects.push(Placement::object("ROCK", x, y));
    }
    Level::new("rock-field", 16, 12, objects)
}

#[test]
fn a_bypass_fails_the_gate_unless_the_proof_allows_it_and_then_it_is_not_searched() {
    let mut level = stroll();
    let check = worlds::check_level(&level, &CheckOptions::default()).expect("valid proof");
    assert_eq!(check.failures, vec!["BYPASS".to_string()]);
    assert_eq!(check.warnings, vec!["HANDS-OFF".to_string()]);
    assert!(check.bypass.as_ref().and_then(|r| r.route()).is_some());

    level.allow_bypass = true;
    level.allow_hands_off = true;
    let check = worlds::check_level(&level, &CheckOptions::default()).expect("valid proof");
    assert!(check.passed(), "{:?}", check.failures);
    assert!(check.warnings.is_empty(), "{:?}", check.warnings);
    assert_eq!(check.bypass, None);
    assert_eq!(check.hands_off, None);
}

#[test]
fn an_allowed_bypass_is_not_searched_so_its_cap_cannot_fail_the_gate() {
    // The main search fits in 3,000 attempts; the BYPASS search would not.
    let options = CheckOptions {
        max_attempts: Some(3_000),
        ..CheckOptions::default()
    };
    let mut level = rock_field();
    let check = worlds::check_level(&level, &options).expect("valid proof");
    assert!(check.solve.route().is_some());
    assert_eq!(check.failures, vec!["LIMIT(BYPASS)".to_string()]);
    assert_eq!(check.warnings, vec!["LIMIT(HANDS-OFF)".to_string()]);

    level.allow_bypass = true;
    let check = worlds::check_level(&level, &options).expect("valid proof");
    assert!(check.passed(), "{:?}", check.failures);
    assert_eq!(check.bypass, None);
    assert_eq!(check.warnings, vec!["LIMIT(HANDS-OFF)".to_string()]);

    level.allow_hands_off = true;
    let check = worlds::check_level(&level, &options).expect("valid proof");
    assert!(check.passed() && check.warnings.is_empty(), "{check:?}");
}

#[test]
fn every_search_is_handed_over_as_it_ends_in_order() {
    let mut level = stroll();
    level.must_form = vec![RuleText::parse("FLAG IS WIN").expect("rule")];
    level.allow_hands_off = true;
    let mut steps = Vec::new();
    let check = worlds::check_level_steps(&level, &CheckOptions::default(), |step| {
        steps.push(match step {
            Step::Main(r) => format!("main {}", r.route().is_some()),
            Step::MustForm(rule, r) => format!("mustForm {rule} {:?}", r.outcome),
            Step::Bypass(r) => format!("bypass {}", r.is_some()),
            Step::HandsOff(r) => format!("hands-off {}", r.is_some()),
        })
    })
    .expect("valid proof");
    assert_eq!(
        steps,
        vec![
            "main true".to_string(),
            "mustForm FLAG IS WIN Unsolvable".to_string(),
            "bypass true".to_string(),
            "hands-off false".to_string(),
        ]
    );
    assert_eq!(check.failures, vec!["BYPASS".to_string()]);
}

#[test]
fn every_search_mode_gives_the_gate_the_same_verdicts_on_the_core_pack() {
    let pack = worlds::core().expect("core loads").pack;
    for mode in [Mode::Bfs, Mode::Best, Mode::Auto] {
        let options = CheckOptions {
            mode,
            ..CheckOptions::default()
        };
        let check = worlds::check_pack("core", &pack, &options);
        assert!(check.passed(), "{mode:?}: {check:?}");
        for proof in &check.proofs {
            let route = proof.solve.route().expect("solved");
            let level = pack.level(&proof.level_id).expect("level");
            let proof_ = Proof::new(level).expect("valid proof");
            assert!(jengine_miau::solve::replay(&proof_, route).1, "{mode:?}");
        }
    }
}
