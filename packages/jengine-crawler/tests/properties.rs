//! Property tests: the picture on random floors, and the loaders on random input.

use jengine_crawler::map::{Dungeon, Facing, Tables};
use jengine_crawler::view::{self, Frame};
use jengine_crawler::{Crawl, Face};
use proptest::prelude::*;
use serde_json::{Value, json};

fn facing() -> impl Strategy<Value = Facing> {
    prop_oneof![
        Just(Facing::North),
        Just(Facing::East),
        Just(Facing::South),
        Just(Facing::West)
    ]
}

/// A random floor of open cells, rock and the things that stand in cells, with the party on
/// an open cell somewhere in it.
fn floor() -> impl Strategy<Value = (Vec<String>, i32, i32)> {
    (3usize..14, 3usize..14).prop_flat_map(|(w, h)| {
        let cell = prop_oneof![
            6 => Just('.'),
            4 => Just('#'),
            1 => Just('+'),
            1 => Just('A'),
            1 => Just('C'),
            1 => Just('O'),
            1 => Just('>'),
            1 => Just('L'),
        ];
        (
            prop::collection::vec(prop::collection::vec(cell, w), h),
            0..w as i32,
            0..h as i32,
        )
            .prop_map(|(grid, x, y)| {
                let mut rows: Vec<String> =
                    grid.into_iter().map(|r| r.into_iter().collect()).collect();
                let mut row: Vec<char> = rows[y as usize].chars().collect();
                row[x as usize] = '.';
                rows[y as usize] = row.into_iter().collect();
                (rows, x, y)
            })
    })
}

fn frame() -> impl Strategy<Value = Frame> {
    (
        10.0f32..800.0,
        10.0f32..800.0,
        0.2f32..0.95,
        0.0f32..1.0,
        1u32..7,
    )
        .prop_map(|(cell_w, cell_h, falloff, gloom, depth)| Frame {
            cell_w,
            cell_h,
            falloff,
            gloom,
            depth,
        })
}

/// The ray rule, written out as its definition: the party's cell, and any open cell entered
/// from the cell behind it or from the cell beside it nearer the middle.
fn ray_reaches(d: &Dungeon, x: i32, y: i32, f: Facing, depth: i32, side: i32) -> bool {
    let (cx, cy) = view::map_cell(x, y, f, depth, side);
    if depth < 0 || d.cell(cx, cy).is_solid() {
        return false;
    }
    if depth == 0 && side == 0 {
        return true;
    }
    let inward = match side.signum() {
        1 => ray_reaches(d, x, y, f, depth, side - 1),
        -1 => ray_reaches(d, x, y, f, depth, side + 1),
        _ => false,
    };
    inward || ray_reaches(d, x, y, f, depth - 1, side)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn the_picture_is_backdrop_then_far_to_near_finite_and_only_what_a_ray_reaches(
        (rows, x, y) in floor(),
        facing in facing(),
        frame in frame(),
    ) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let d = Dungeon::from_rows(&refs);
        let quads = view::build(&d, x, y, facing, &frame);
        prop_assert!(!quads.is_empty(), "the party's own cell is always drawn");
        // The backdrop (floors and ceilings) first, then the rest, each far to near.
        let backdrop = quads.iter().take_while(|q| q.layer == 0).count();
        prop_assert!(quads[backdrop..].iter().all(|q| q.layer != 0));
        for part in [&quads[..backdrop], &quads[backdrop..]] {
            for pair in part.windows(2) {
                let (a, b) = (&pair[0], &pair[1]);
                prop_assert!(a.depth > b.depth || (a.depth == b.depth && a.layer <= b.layer));
            }
        }
        for q in &quads {
            let numbers = q.corners.iter().flatten().chain(&q.q).chain(&q.shade);
            prop_assert!(numbers.clone().all(|v| v.is_finite()), "{q:?}");
            prop_assert!([q.x, q.y, q.w, q.h].iter().all(|v| v.is_finite()));
            prop_assert!(view::winding(&q.corners) > 0.0, "inverted: {q:?}");
            prop_assert!(q.depth <= frame.depth as i32);
            prop_assert_eq!(view::map_cell(x, y, facing, q.depth, q.side), (q.cell[0], q.cell[1]));
            prop_assert!(ray_reaches(&d, x, y, facing, q.depth, q.side), "{q:?}");
            prop_assert_eq!(q.layer, q.face.layer());
        }
        // ...and every cell the picture shows has its floor drawn.
        for seen in view::in_view(&d, x, y, facing, &frame) {
            prop_assert!(ray_reaches(&d, x, y, facing, seen.depth, seen.side));
            prop_assert!(quads.iter().any(|q| q.face == Face::Floor && q.cell == [seen.x, seen.y]));
        }
        // A solid cell is never drawn as a cell of its own.
        prop_assert!(quads.iter().all(|q| !d.cell(q.cell[0], q.cell[1]).is_solid()));
        prop_assert!(quads.iter().any(|q| q.face == Face::Floor && q.depth == 0 && q.side == 0));
    }

    #[test]
    fn random_ascii_never_panics_the_level_loader(
        rows in prop::collection::vec("[.#+=ALC>O<M^x STD%_B]{0,9}", 0..7),
        start in prop::option::of((-2i32..10, -2i32..8)),
        rate in -0.5f64..1.5,
        groups in prop::collection::vec("[a-z]{1,4}", 0..2),
        chests in prop::collection::vec("(gold|key|heal|item|)[:]?[0-9a-z]{0,3}", 0..3),
        monsters in prop::collection::vec("(rat|bat|orc)", 0..3),
        traps in prop::collection::vec("[a-z]{1,4}", 0..2),
        at in prop::collection::vec((-2i32..10, -2i32..8, any::<bool>()), 0..2),
        levels in 1usize..3,
        furniture in furniture(),
        actions in prop::collection::vec(0u8..10, 0..30),
    ) {
        let mut row = json!({
            "name": "Random", "map": rows, "encounter_rate": rate, "groups": groups,
            "chests": chests, "monsters": monsters, "traps": traps,
            "encounters": at.iter().map(|(x, y, goal)| json!({ "at": [x, y], "group": "g", "goal": goal })).collect::<Vec<_>>(),
        });
        if let Some((x, y)) = start {
            row["start"] = json!([x, y]);
        }
        for (key, value) in furniture {
            row[key] = value;
        }
        let table = Value::from(vec![row; levels]).to_string();
        let monsters = r#"[{ "name": "rat", "hp": 2 }, { "name": "bat", "hp": 1 }]"#;
        let crawlers = r#"[{ "name": "A" }, { "name": "B" }]"#;
        match Tables::from_json(&table, monsters, crawlers) {
            Ok(tables) => {
                // Whatever loads is playable: a game starts on an open cell, and plays.
                let mut crawl = Crawl::new(tables, 1);
                let s = crawl.state();
                prop_assert!(crawl.floor().cell(s.x, s.y).is_walkable());
                play(&mut crawl, &actions);
                let s = crawl.state();
                prop_assert!(crawl.floor().cell(s.x, s.y).is_walkable());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn random_text_never_panics_the_loaders(text in ".{0,200}") {
        let _ = Tables::from_json(&text, "[]", "[]");
        let _ = Tables::from_json("[]", &text, &text);
        let mut crawl = small_game();
        let before = crawl.save();
        prop_assert!(crawl.load(&text).is_err());
        prop_assert_eq!(crawl.save(), before);
    }

    #[test]
    fn a_mangled_save_loads_whole_or_not_at_all(
        actions in prop::collection::vec(0u8..10, 0..40),
        path in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        replacement in prop_oneof![
            Just(json!(null)), Just(json!(-1)), Just(json!(1000)), Just(json!(0)),
            Just(json!("x")), Just(json!([])), Just(json!([[1, 1]])), Just(json!([[99, -4]])),
        ],
    ) {
        let mut crawl = small_game();
        play(&mut crawl, &actions);
        let mut save = serde_json::to_value(crawl.save()).unwrap();
        // Walk down a random path into the save and replace what is there.
        let mut pointer = String::new();
        for index in &path {
            let here = save.pointer(&pointer).unwrap();
            let step = match here {
                Value::Object(map) if !map.is_empty() => {
                    map.keys().nth(index.index(map.len())).cloned().unwrap()
                }
                Value::Array(items) if !items.is_empty() => index.index(items.len()).to_string(),
                _ => break,
            };
            pointer = format!("{pointer}/{step}");
        }
        *save.pointer_mut(&pointer).unwrap() = replacement;
        let before = crawl.save();
        match crawl.load(&save.to_string()) {
            Ok(()) => {
                let s = crawl.state();
                prop_assert!(crawl.floor().cell(s.x, s.y).is_walkable());
            }
            Err(_) => prop_assert_eq!(crawl.save(), before),
        }
    }

    #[test]
    fn any_game_saved_anywhere_carries_on_identically(
        actions in prop::collection::vec(0u8..10, 0..60),
        after in prop::collection::vec(0u8..10, 0..20),
    ) {
        let mut crawl = small_game();
        play(&mut crawl, &actions);
        let mut copy = small_game();
        copy.load(&crawl.save_json()).unwrap();
        prop_assert!(copy.same_as(&crawl));
        play(&mut crawl, &after);
        play(&mut copy, &after);
        prop_assert!(copy.same_as(&crawl));
        if !after.is_empty() {
            prop_assert_eq!(copy.events(), crawl.events());
        }
    }
}

/// Random furniture for a random level row: names drawn from a few, cells from around the
/// drawing, so some fit and most do not.
fn furniture() -> impl Strategy<Value = Vec<(&'static str, Value)>> {
    let at = || (-1i32..9, -1i32..7).prop_map(|(x, y)| json!([x, y]));
    let name = || prop_oneof![Just("a"), Just("b"), Just(""), Just("z")];
    let names = move || prop::collection::vec(name(), 0..2);
    let doors = prop::collection::vec(
        (
            at(),
            name(),
            prop::option::of(prop_oneof![Just("k"), Just("")]),
        ),
        0..3,
    )
    .prop_map(|list| {
        json!(
            list.into_iter()
                .map(|(at, name, key)| match key {
                    Some(key) => json!({ "at": at, "name": name, "key": key }),
                    None => json!({ "at": at, "name": name }),
                })
                .collect::<Vec<_>>()
        )
    });
    let mechanisms = move || {
        prop::collection::vec((at(), names(), names()), 0..2).prop_map(|list| {
            json!(
                list.into_iter()
                    .map(|(at, opens, shuts)| json!({ "at": at, "opens": opens, "shuts": shuts }))
                    .collect::<Vec<_>>()
            )
        })
    };
    let teleports = prop::collection::vec(
        (
            at(),
            at(),
            prop::option::of(0usize..3),
            prop::option::of(facing()),
        ),
        0..2,
    )
    .prop_map(|list| {
        json!(
            list.into_iter()
                .map(|(at, to, floor, facing)| {
                    let mut t = json!({ "at": at, "to": to });
                    if let Some(f) = floor {
                        t["floor"] = json!(f);
                    }
                    if let Some(f) = facing {
                        t["facing"] = json!(f);
                    }
                    t
                })
                .collect::<Vec<_>>()
        )
    });
    let spinners = prop::collection::vec((at(), prop::option::of(0u32..5)), 0..2).prop_map(|l| {
        json!(
            l.into_iter()
                .map(|(at, turn)| match turn {
                    Some(t) => json!({ "at": at, "turn": t }),
                    None => json!({ "at": at }),
                })
                .collect::<Vec<_>>()
        )
    });
    let items =
        prop::collection::vec((at(), "(gold:1|key:1|key:k|heal:2|x)"), 0..3).prop_map(|l| {
            json!(
                l.into_iter()
                    .map(|(at, loot)| json!({ "at": at, "loot": loot }))
                    .collect::<Vec<_>>()
            )
        });
    let decor = prop::collection::vec((at(), facing(), "(banner|)"), 0..2).prop_map(|l| {
        json!(
            l.into_iter()
                .map(|(at, side, art)| json!({ "at": at, "side": side, "art": art }))
                .collect::<Vec<_>>()
        )
    });
    let traps = prop::collection::vec((name(), 0u32..4), 0..2).prop_map(|l| {
        json!(
            l.into_iter()
                .map(|(name, damage)| json!({ "name": name, "damage": damage }))
                .collect::<Vec<_>>()
        )
    });
    (
        (doors, mechanisms(), mechanisms(), mechanisms()),
        (teleports, spinners, items, decor),
        (
            traps,
            prop::option::of(prop_oneof![Just("roots"), Just("")]),
        ),
        prop::collection::vec(any::<bool>(), 10),
    )
        .prop_map(
            |((doors, levers, plates, buttons), (tp, sp, items, decor), (traps, walls), keep)| {
                let all = [
                    ("doors", doors),
                    ("levers", levers),
                    ("plates", plates),
                    ("buttons", buttons),
                    ("teleports", tp),
                    ("spinners", sp),
                    ("items", items),
                    ("decor", decor),
                    ("traps", traps),
                    ("walls", walls.map(Value::from).unwrap_or(Value::Null)),
                ];
                // Each field left out now and then, so rows without some of them are tried too.
                all.into_iter()
                    .zip(keep)
                    .filter(|((_, v), keep)| *keep && !v.is_null())
                    .map(|(field, _)| field)
                    .collect()
            },
        )
}

/// Three floors with a bit of everything: a secret door, a spinner with no entry, a plate on
/// a named door, a trap that hurts, items and a named key; a pit onto the last floor, which
/// has a button, a teleporter back to the top and a dark cell before the way out.
fn small_game() -> Crawl {
    let levels = json!([
        { "name": "One", "map": ["#######", "#<.+.C#", "#%#^S.#", "#.M_.>#", "#######"],
          "chests": ["key:1"], "traps": [{ "name": "dart", "damage": 2 }], "monsters": ["rat"],
          "encounter_rate": 0.2, "groups": ["rats"], "encounter_grace": 1,
          "doors": [{ "at": [3, 1], "name": "front" }],
          "plates": [{ "at": [3, 3], "opens": ["front"] }],
          "items": [{ "at": [1, 3], "loot": "gold:1" }, { "at": [4, 1], "loot": "key:amber" }] },
        { "name": "Two", "map": ["#######", "#<.=.O#", "#..M..#", "#>....#", "#######"],
          "monsters": ["rat"], "encounters": [{ "at": [4, 2], "group": "boss" }] },
        { "name": "Three", "map": ["#########", "#<._S.T.#", "#.B.%.D>#", "#########"],
          "doors": [{ "at": [4, 1], "name": "hidden" }],
          "plates": [{ "at": [3, 1], "shuts": ["hidden"] }],
          "buttons": [{ "at": [2, 2], "opens": ["hidden"] }],
          "teleports": [{ "at": [6, 1], "to": [1, 3], "floor": 0, "facing": "north" }],
          "items": [{ "at": [5, 2], "loot": "gold:2" }],
          "decor": [{ "at": [0, 1], "side": "east", "art": "banner" }], "walls": "roots" }
    ]);
    let monsters = r#"[{ "name": "rat", "hp": 3, "attack": 1, "sight": 4 }]"#;
    let crawlers = r#"[{ "name": "A", "hp": 30 }, { "name": "B", "hp": 30, "reach": 2 }]"#;
    Crawl::new(
        Tables::from_json(&levels.to_string(), monsters, crawlers).unwrap(),
        5,
    )
}

fn play(crawl: &mut Crawl, actions: &[u8]) {
    for a in actions {
        if crawl.state().encounter.is_some() {
            crawl.resolve(a % 2 == 0);
            continue;
        }
        match a {
            0 => crawl.walk(0, 1),
            1 => crawl.walk(1, 0),
            2 => crawl.turn(1),
            3 => crawl.use_ahead(),
            4 => crawl.attack(),
            5 => crawl.wait(),
            6 => crawl.rest(),
            7 => crawl.search(),
            8 => crawl.swap(1, 2),
            _ => crawl.turn(-1),
        };
    }
}
