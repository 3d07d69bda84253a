//! Property tests: loaders never panic, the engine never panics or leaves the board, undo is
//! exact, solver routes are real, and breadth-first and best-first search agree.

use jengine_miau::Game;
use jengine_miau::board::{Action, Proof};
use jengine_miau::pack::{Behaviour, Facing, Level, Placement, RuleText};
use jengine_miau::solve::{Constraint, Mode, Outcome, Search, replay, solve};
use jengine_miau::source::{SourceKind, load};
use jengine_miau::validate::{PackError, validate};
use proptest::prelude::*;
use serde_json::{Value, json};

const WORDS: [&str; 13] = [
    "CAT", "ROCK", "FLAG", "IS", "IS", "AND", "YOU", "WIN", "PUSH", "STOP", "SINK", "DEFEAT",
    "PATROL",
];
const NOUNS: [&str; 3] = ["CAT", "ROCK", "FLAG"];

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-zA-Z0-9 _.-]{0,8}".prop_map(Value::from),
        prop::sample::select(vec!["word", "object", "IS", "YOU", "1.0.0", "left", "walk"])
            .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "manifest", "levels", "id", "name", "version", "width", "height", "objects",
                    "kind", "text", "noun", "x", "y", "palette", "features", "engine", "automata",
                    "mustForm",
                ])
                .prop_map(str::to_string),
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A structurally plausible pack with random (often wrong) field values.
fn arb_pack() -> impl Strategy<Value = Value> {
    let object = (
        prop::sample::select(vec!["word", "object", "tile"]),
        prop::sample::select(WORDS.to_vec()),
        -1i64..9,
        -1i64..9,
    )
        .prop_map(|(kind, text, x, y)| {
            if kind == "object" {
                json!({ "kind": kind, "noun": text, "x": x, "y": y })
            } else {
                json!({ "kind": kind, "text": text, "x": x, "y": y })
            }
        });
    let level = (
        "[a-z][a-z-]{0,6}",
        0i64..10,
        0i64..10,
        prop::collection::vec(object, 0..12),
        any::<bool>(),
    )
        .prop_map(|(id, w, h, objects, auto)| {
            let mut l = json!({ "id": id, "width": w, "height": h, "objects": objects });
            if auto {
                l["automata"] = json!({ "PATROL": "walk" });
            }
            l
        });
    (prop::collection::vec(level, 0..4), "[a-z]{1,6}", prop::sample::select(vec!["1.0.0", "1.0", "x"]))
        .prop_map(|(levels, id, version)| {
            json!({ "manifest": { "id": id, "name": "P", "version": version }, "levels": levels })
        })
}

fn arb_level() -> impl Strategy<Value = Level> {
    (2u32..7, 2u32..6).prop_flat_map(|(w, h)| {
        let placement = (
            any::<bool>(),
            0usize..WORDS.len(),
            0..w,
            0..h,
            any::<bool>(),
        )
            .prop_map(|(is_word, i, x, y, left)| {
                if is_word {
                    Placement::word(WORDS[i], x, y)
                } else {
                    let p = Placement::object(NOUNS[i % NOUNS.len()], x, y);
                    if left { p.facing(Facing::Left) } else { p }
                }
            });
        (prop::collection::vec(placement, 1..14), any::<bool>()).prop_map(move |(objects, auto)| {
            let mut level = Level::new("random", w, h, objects);
            if auto {
                level.automata.insert("PATROL".into(), Behaviour::Walk);
            }
            level
        })
    })
}

/// A level that starts with `CAT IS YOU` on the top row and `FLAG IS WIN` on the bottom row,
/// a cat, a flag and a few random extras, so searches often find routes.
fn arb_playable_level() -> impl Strategy<Value = Level> {
    (3u32..6, 3u32..5).prop_flat_map(|(w, h)| {
        let extra =
            (any::<bool>(), 0usize..WORDS.len(), 0..w, 1..h - 1).prop_map(|(is_word, i, x, y)| {
                if is_word {
                    Placement::word(WORDS[i], x, y)
                } else {
                    Placement::object(NOUNS[i % NOUNS.len()], x, y)
                }
            });
        (
            (0..w, 1..h - 1),
            (0..w, 1..h - 1),
            prop::collection::vec(extra, 0..4),
        )
            .prop_map(move |((cx, cy), (fx, fy), extras)| {
                let mut objects = vec![
                    Placement::word("CAT", 0, 0),
                    Placement::word("IS", 1, 0),
                    Placement::word("YOU", 2, 0),
                    Placement::word("FLAG", 0, h - 1),
                    Placement::word("IS", 1, h - 1),
                    Placement::word("WIN", 2, h - 1),
                    Placement::object("CAT", cx, cy),
                    Placement::object("FLAG", fx, fy),
                ];
                objects.extend(extras);
                Level::new("playable", w, h, objects)
            })
    })
}

fn arb_actions(max: usize) -> impl Strategy<Value = Vec<Action>> {
    prop::collection::vec(prop::sample::select(Action::ALL.to_vec()), 0..max)
}

fn problems_have_paths(result: &Result<jengine_miau::validate::Checked, PackError>) -> bool {
    match result {
        Err(PackError::Invalid(p)) => {
            !p.is_empty()
                && p.iter()
                    .all(|p| !p.path.is_empty() && !p.message.is_empty())
        }
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn random_data_never_panics_the_validator(v in arb_json()) {
        prop_assert!(problems_have_paths(&validate(&v)));
    }

    #[test]
    fn random_packs_never_panic_the_loader(v in arb_pack()) {
        let result = load(&v.to_string(), SourceKind::Json, "p.json");
        prop_assert!(problems_have_paths(&result));
        if let Ok(checked) = result {
            // What loads can always become a game.
            for level in &checked.pack.levels {
                prop_assert!(Proof::new(level).is_ok());
            }
        }
    }

    #[test]
    fn random_levels_and_moves_never_panic_the_engine(level in arb_level(), actions in arb_actions(24)) {
        if let Ok(proof) = Proof::new(&level) {
            let mut game = Game::new(proof);
            for a in actions {
                game.play(a);
                for e in game.board().entities().iter().filter(|e| e.alive) {
                    prop_assert!((e.x as u32) < level.width && (e.y as u32) < level.height);
                }
            }
        }
    }

    #[test]
    fn undo_restores_exactly(level in arb_level(), actions in arb_actions(16)) {
        if let Ok(proof) = Proof::new(&level) {
            let mut game = Game::new(proof);
            let mut seen = vec![game.board().clone()];
            for a in actions {
                if !game.play(a).blocked {
                    seen.push(game.board().clone());
                }
            }
            while let Some(expected) = seen.pop() {
                prop_assert_eq!(game.board(), &expected);
                game.undo();
            }
            prop_assert!(!game.undo());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_solver_route_replays_to_a_win(level in arb_playable_level()) {
        if let Ok(proof) = Proof::new(&level) {
            let report = solve(&proof, &Search { max_attempts: 20_000, ..Search::default() });
            if let Outcome::Solved(route) = &report.outcome {
                prop_assert!(replay(&proof, route).1);
            }
        }
    }

    #[test]
    fn a_forbidden_rule_never_appears_along_a_route(level in arb_playable_level(), s in 0usize..3, p in 0usize..7, m in 0usize..3) {
        let predicates = ["YOU", "WIN", "PUSH", "STOP", "CAT", "ROCK", "FLAG"];
        let rule = RuleText { subject: NOUNS[s].into(), predicate: predicates[p].into() };
        let mode = [Mode::Bfs, Mode::Best, Mode::Auto][m];
        if let Ok(proof) = Proof::new(&level) {
            let search = Search { max_attempts: 20_000, forbid: vec![rule.clone()], mode, ..Search::default() };
            if let Outcome::Solved(route) = solve(&proof, &search).outcome {
                let (subject, predicate) = (proof.token(&rule.subject), proof.token(&rule.predicate));
                let uses = |r: &jengine_miau::Rules| match (subject, predicate) {
                    (Some(s), Some(p)) => r.has(s, p),
                    _ => false,
                };
                let mut board = proof.initial().clone();
                prop_assert!(!uses(board.rules()));
                let mut seen = false;
                for a in route {
                    board.play_watching(&proof, a, |r| seen |= uses(r));
                }
                prop_assert!(!seen);
                prop_assert!(board.is_won());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_best_first_route_replays_to_a_win(level in arb_playable_level()) {
        if let Ok(proof) = Proof::new(&level) {
            let search = Search { max_attempts: 20_000, mode: Mode::Best, ..Search::default() };
            if let Outcome::Solved(route) = &solve(&proof, &search).outcome {
                prop_assert!(replay(&proof, route).1);
            }
        }
    }

    #[test]
    fn breadth_first_and_best_first_agree_whenever_both_finish(level in arb_level(), c in 0usize..3) {
        let constraint = [Constraint::Free, Constraint::Bypass, Constraint::HandsOff][c];
        if let Ok(proof) = Proof::new(&level) {
            let run = |mode| solve(&proof, &Search { max_attempts: 20_000, mode, constraint, ..Search::default() });
            let (bfs, best) = (run(Mode::Bfs), run(Mode::Best));
            if bfs.outcome != Outcome::Limit && best.outcome != Outcome::Limit {
                prop_assert_eq!(bfs.route().is_some(), best.route().is_some());
                if let (Some(short), Some(any)) = (bfs.route(), best.route()) {
                    prop_assert!(short.len() <= any.len());
                    prop_assert!(replay(&proof, any).1);
                }
            }
        }
    }

    #[test]
    fn the_playable_levels_agree_too(level in arb_playable_level()) {
        if let Ok(proof) = Proof::new(&level) {
            let run = |mode| solve(&proof, &Search { max_attempts: 20_000, mode, ..Search::default() });
            let (bfs, best) = (run(Mode::Bfs), run(Mode::Best));
            if bfs.outcome != Outcome::Limit && best.outcome != Outcome::Limit {
                prop_assert_eq!(bfs.route().is_some(), best.route().is_some());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn random_script_text_never_panics_the_sandboxes(text in "[ -~\n]{0,80}") {
        // Arbitrary text is almost never a pack; any answer must be a typed error or a pack.
        for kind in [SourceKind::CommonJs, SourceKind::Lua] {
            let result = load(&text, kind, "random");
            prop_assert!(problems_have_paths(&result));
        }
    }
}
