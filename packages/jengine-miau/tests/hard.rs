//! The hard level set (`hard/hard.json`): levels breadth-first search cannot finish within the
//! default cap of 2,000,000 attempts. Each has a known winning route that replays through the
//! engine, and the informed search finds winning routes of its own. The full before-and-after
//! figures are in the package README (regenerated in release, see `hard/README.md`).

use std::path::Path;

use jengine_miau::Game;
use jengine_miau::board::{Action, Proof};
use jengine_miau::pack::Pack;
use jengine_miau::solve::{DEFAULT_MAX_ATTEMPTS, Method, Mode, Search, replay, solve};
use jengine_miau::source::load_file;

/// One known winning route per hard level.
const ROUTES: [(&str, &str); 11] = [
    ("rock-field", "RRRRRRRRRRRRDRRDDDDD"),
    (
        "fetch-the-win",
        "RRRRRRRRRRRRDDDDLLLLLLLLLDLUUUUUURRRRRRRRRDDDDDD",
    ),
    ("rock-into-flag", "RRRDDDLDRRRRRRURDRURDLLLDRRRURUU"),
    ("be-the-goal", "RRRRRRRRRURRURRDLLLLLLLLLLDLUUUUUU"),
    (
        "swap-the-subject",
        "RRRRRRRDDDDLRRDLLDLUUDLLURDRUUURRRRRRRDDDD",
    ),
    (
        "spare-parts",
        "RRRRRRRRRRRRDDDDRDLLLDLLLLLLLLLLUULURRRRRRRURRDDUULDDLDRD",
    ),
    (
        "long-way-round",
        "RRRRRRRRRRRRRRRRRDDDDDDDDDDLLLLLLLLLLLLLLLRRRRRRRRRRRRRRRR",
    ),
    ("two-cats", "RRRRRRRRRRRRRRDDDLLLLLRRRRRRD"),
    ("crates", "RRRRRRRRRRDDDDDDRDLUUUUU"),
    (
        "deep-field",
        "DDDDDDDDDDRRRRRRRRRRRRRRRRRRRDRUUUUUUUUULLLLLLDDDD",
    ),
    ("wide-vault", "RRRRRRRRRDDDDDDDRRRRRRRUUUUU"),
];

fn hard() -> Pack {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("hard")
        .join("hard.json");
    load_file(&path).expect("the hard pack loads").pack
}

fn proof(pack: &Pack, id: &str) -> Proof {
    Proof::new(pack.level(id).unwrap_or_else(|| panic!("hard has {id}"))).expect("valid proof")
}

#[test]
fn every_hard_level_has_a_long_route_that_wins_through_the_engine() {
    let pack = hard();
    let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.as_str()).collect();
    let routed: Vec<&str> = ROUTES.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, routed, "one route per level, in pack order");
    for (id, route) in ROUTES {
        let actions = Action::parse_sequence(route).expect("route letters");
        assert!(actions.len() >= 18, "{id}: {} moves", actions.len());
        let mut game = Game::new(proof(&pack, id));
        for (i, &a) in actions.iter().enumerate() {
            let turn = game.play(a);
            assert!(!turn.blocked, "{id}: move {} was blocked", i + 1);
            assert_eq!(turn.won, i + 1 == actions.len(), "{id}: move {}", i + 1);
        }
    }
}

#[test]
fn best_first_wins_hard_levels_in_few_attempts() {
    // The cheap ones for the informed search (a few hundred attempts each, well inside the
    // default cap), so this stays quick in a debug build.
    let pack = hard();
    for id in [
        "rock-field",
        "fetch-the-win",
        "be-the-goal",
        "long-way-round",
        "crates",
        "deep-field",
    ] {
        let proof = proof(&pack, id);
        let report = solve(
            &proof,
            &Search {
                mode: Mode::Best,
                ..Search::default()
            },
        );
        assert_eq!(report.method, Method::Best);
        assert!(!report.shortest);
        let route = report
            .route()
            .unwrap_or_else(|| panic!("{id}: {:?}", report.outcome));
        assert!(replay(&proof, route).1, "{id}");
    }
}

#[test]
fn the_default_search_switches_order_and_wins_a_hard_level() {
    // A tenth of the default cap keeps this quick in a debug build: breadth-first spends its
    // half, then best-first goes on from the states it kept. (With the default cap the default
    // search wins every hard level; the README has the figures.)
    let pack = hard();
    let proof = proof(&pack, "crates");
    let cap = DEFAULT_MAX_ATTEMPTS / 10;
    let report = solve(
        &proof,
        &Search {
            max_attempts: cap,
            ..Search::default()
        },
    );
    assert_eq!(report.method, Method::BfsThenBest);
    assert!(!report.shortest);
    assert!(report.attempts <= cap);
    assert!(replay(&proof, report.route().expect("solved")).1);
}
