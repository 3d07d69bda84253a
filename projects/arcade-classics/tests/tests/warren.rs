//! Umber Warren (`projects/arcade-classics`) on the crawl: its tables pass every check, a
//! route found on the plain crawl reaches the way out, and that route, written as key presses
//! in `tests/inputs/warren_escape.json`, plays the real game from the title to the escape
//! screen. Goldens of the corridor, a door and arch, a monster, the pillared hall and the
//! automap are taken along the way.

use std::collections::VecDeque;
use std::path::PathBuf;

use arcade_classics_tests::{crawl_state as state, data, open, project};
use jengine_crawler::{Cell, Crawl, Facing, Tables};
use jengine_testkit::{Game, InputScript, Options};

fn tables() -> Tables {
    Tables::from_json(
        &data("warren_levels"),
        &data("warren_monsters"),
        &data("warren_crawlers"),
    )
    .unwrap_or_else(|e| panic!("the warren's tables: {e}"))
}

/// The seed `warren.scene` gives its `crawl_game`.
const SEED: u64 = 7;

/// One thing the player does, and the key that does it in `warren.lua`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Forward,
    TurnLeft,
    TurnRight,
    Use,
    Attack,
    Rest,
}

impl Act {
    fn key(self) -> &'static str {
        match self {
            Act::Forward => "up",
            Act::TurnLeft => "left",
            Act::TurnRight => "right",
            Act::Use => "space",
            Act::Attack => "f",
            Act::Rest => "r",
        }
    }

    fn apply(self, crawl: &mut Crawl) {
        match self {
            Act::Forward => crawl.walk(0, 1),
            Act::TurnLeft => crawl.turn(-1),
            Act::TurnRight => crawl.turn(1),
            Act::Use => crawl.use_ahead(),
            Act::Attack => crawl.attack(),
            Act::Rest => crawl.rest(),
        };
    }
}

/// Where the player means to stand next, which way to face there, and that they use what is
/// in front (or underfoot) on arrival.
struct Goal {
    at: (i32, i32),
    face: Option<Facing>,
}

/// The plan, floor by floor: the key, the gold, the locked door, the stairs; the lever, the
/// stairs; the gold, the way out.
fn plan(level: usize) -> Vec<Goal> {
    let goal = |x, y, face| Goal { at: (x, y), face };
    match level {
        0 => vec![
            goal(12, 1, Some(Facing::East)),
            goal(1, 8, Some(Facing::North)),
            goal(13, 5, Some(Facing::South)),
            goal(13, 9, None),
        ],
        1 => vec![goal(12, 1, Some(Facing::East)), goal(12, 9, None)],
        _ => vec![goal(13, 2, Some(Facing::North)), goal(13, 11, None)],
    }
}

/// The quarter turn that brings `from` round toward `to`.
fn turn_toward(from: Facing, to: Facing) -> Act {
    let index = |f: Facing| Facing::ALL.iter().position(|g| *g == f).unwrap_or(0);
    if (index(to) + 4 - index(from)) % 4 == 3 {
        Act::TurnLeft
    } else {
        Act::TurnRight
    }
}

fn facing_of(dx: i32, dy: i32) -> Facing {
    *Facing::ALL
        .iter()
        .find(|f| f.ahead() == (dx, dy))
        .unwrap_or(&Facing::North)
}

/// The first step of a shortest way from `from` to `to`, going through doors (they are
/// opened on the way) and around pits.
fn first_step(crawl: &Crawl, from: (i32, i32), to: (i32, i32)) -> Option<(i32, i32)> {
    let floor = crawl.floor();
    let passable = |x: i32, y: i32| {
        let cell = floor.cell(x, y);
        *cell != Cell::Pit && (cell.is_walkable() || matches!(cell, Cell::Door | Cell::Locked))
    };
    let mut came: std::collections::HashMap<(i32, i32), (i32, i32)> = Default::default();
    let mut queue = VecDeque::from([from]);
    came.insert(from, from);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut step = at;
            while came[&step] != from {
                step = came[&step];
            }
            return Some(step);
        }
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let next = (at.0 + dx, at.1 + dy);
            if floor.contains(next.0, next.1)
                && passable(next.0, next.1)
                && !came.contains_key(&next)
            {
                came.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// Plays the crawl with a simple player: fight whatever stands beside the party, rest when
/// hurt, otherwise walk the plan. Returns what it did.
fn route() -> (Vec<Act>, Crawl) {
    let mut crawl = Crawl::new(tables(), SEED);
    let mut acts = Vec::new();
    let mut goal = 0;
    let mut level = 0;
    for _ in 0..4000 {
        let s = crawl.state();
        if s.escaped {
            return (acts, crawl);
        }
        assert!(!s.dead, "the party died after {} acts", acts.len());
        if s.level != level {
            level = s.level;
            goal = 0;
        }
        let floor = crawl.floor();
        let beside = Facing::ALL.into_iter().find(|f| {
            let (dx, dy) = f.ahead();
            floor.monster_at(s.x + dx, s.y + dy).is_some()
        });
        let health: u32 = s.party.iter().map(|m| m.hp).sum();
        let whole: u32 = s.party.iter().map(|m| m.max_hp).sum();
        let act = if let Some(f) = beside {
            if f == s.facing {
                Act::Attack
            } else {
                turn_toward(s.facing, f)
            }
        } else if health * 2 < whole {
            Act::Rest
        } else {
            let goals = plan(level);
            let g = &goals[goal.min(goals.len() - 1)];
            if (s.x, s.y) == g.at {
                match g.face {
                    Some(f) if f != s.facing => turn_toward(s.facing, f),
                    _ => {
                        goal += 1;
                        Act::Use
                    }
                }
            } else {
                let next = first_step(&crawl, (s.x, s.y), g.at).unwrap_or_else(|| {
                    panic!(
                        "no way from {:?} to {:?} on floor {level}",
                        (s.x, s.y),
                        g.at
                    )
                });
                let want = facing_of(next.0 - s.x, next.1 - s.y);
                if want != s.facing {
                    turn_toward(s.facing, want)
                } else if matches!(
                    crawl.floor().cell(next.0, next.1),
                    Cell::Door | Cell::Locked
                ) {
                    Act::Use
                } else {
                    Act::Forward
                }
            }
        };
        act.apply(&mut crawl);
        acts.push(act);
    }
    panic!("no way out after {} acts", acts.len());
}

/// Frames: the title's Enter at 10, the warren's first act at 40, then one every 4 frames
/// (the crawl's state reaches the script a frame after a command).
const FIRST_ACT: u64 = 40;
const EVERY: u64 = 4;

fn input_json(acts: &[Act]) -> String {
    let mut keys = vec![(10, "enter")];
    for (i, act) in acts.iter().enumerate() {
        keys.push((FIRST_ACT + i as u64 * EVERY, act.key()));
    }
    jengine_testkit::key_presses_json(&keys)
}

fn input_path() -> PathBuf {
    project().join("tests/inputs/warren_escape.json")
}

#[test]
fn the_warren_tables_load_with_three_floors() {
    let game = Crawl::new(tables(), SEED);
    assert_eq!(game.state().levels, 3);
}

#[test]
fn a_simple_player_gets_out_of_the_warren() {
    let (acts, crawl) = route();
    let s = crawl.state();
    assert!(s.escaped);
    assert_eq!(s.level, 2);
    assert!(acts.contains(&Act::Attack), "the route fights something");
}

/// The committed input file is the route, so a change to the tables shows here first;
/// `JENGINE_BLESS=1` rewrites it.
#[test]
fn the_escape_input_file_is_the_route() {
    let (acts, _) = route();
    jengine_testkit::inputs::assert_kept(&input_path(), &input_json(&acts));
}

/// How strongly the view's flash (a hit, a trap) shows now.
fn flash(game: &Game) -> f32 {
    let e = game.entity("flash");
    game.world
        .entities
        .get::<&jengine::Sprite>(e)
        .unwrap()
        .tint
        .0[3]
}

#[test]
fn the_escape_input_plays_from_the_title_to_the_way_out() {
    let text_in = std::fs::read_to_string(input_path()).unwrap();
    let mut input = InputScript::parse(&text_in).unwrap();
    let mut game = open(Options {
        seed: 1,
        ..Options::default()
    });
    assert_eq!(game.scene(), "title");
    let (acts, _) = route();
    let last = FIRST_ACT + acts.len() as u64 * EVERY + 30;
    let mut shots: Vec<&str> = Vec::new();
    for _ in 0..last {
        // An event written for frame N goes in with the step after frame N, as it was pressed.
        let frame = game.rt.frame();
        let events = input.due(frame);
        game.step(&events);
        if game.scene() != "warren" {
            continue;
        }
        let s = state(&game);
        let mut take = |name: &'static str, when: bool, game: &Game| {
            if when && !shots.contains(&name) {
                shots.push(name);
                game.golden(name);
            }
        };
        // The first corridor, a door at its end, the frame over it.
        take("warren_corridor", frame == FIRST_ACT - 5, &game);
        let calm = frame % EVERY == 3 && flash(&game) == 0.0;
        // The first creature standing in front of the party, with no hit flashing.
        take("warren_monster", calm && s["can_attack"] == true, &game);
        // The bottom floor's pillared hall, looking along it.
        take(
            "warren_pillars",
            calm && s["level"] == 2 && s["y"] == 5 && s["x"] == 11 && s["facing"] == "south",
            &game,
        );
    }
    let s = state(&game);
    assert_eq!(s["escaped"], true, "{s}");
    assert_eq!(game.text("end_title"), "Out of the Warren!");
    assert!(s["gold"].as_u64().unwrap() >= 85, "{s}");
    assert!(shots.contains(&"warren_monster"), "{shots:?}");
    assert!(shots.contains(&"warren_pillars"), "{shots:?}");
    game.golden("warren_escaped");
}

#[test]
fn the_automap_unrolls_over_the_view() {
    // A key is down a frame, up a frame, and given two more.
    let mut game = open(Options {
        seed: 1,
        scene: Some("warren".into()),
        ..Options::default()
    })
    .settling(2);
    game.settle(5);
    // Along the first corridor, through the door and on to the junction.
    game.keys(&["up", "up", "space"]);
    // The door just opened: its arch frames the corridor beyond.
    game.settle(30);
    game.golden("warren_arch");
    game.keys(&["up", "up", "up", "up", "m"]);
    game.settle(5);
    assert_eq!(state(&game)["x"], 7, "{}", state(&game));
    game.golden("warren_automap");
}

#[test]
fn continue_on_the_title_picks_up_on_the_same_step() {
    let mut game = open(Options {
        seed: 1,
        ..Options::default()
    });
    // Nothing saved: Continue is refused in words and the title stays.
    game.keys(&["down", "enter"]);
    assert_eq!(game.scene(), "title");
    assert_eq!(game.text("status"), "No crawl has been saved yet.");
    // A new crawl, three acts in, then back to the title.
    game.keys(&["up", "enter"]);
    assert_eq!(game.scene(), "warren");
    game.keys(&["up", "up", "right"]);
    let before = state(&game);
    assert_eq!(
        (before["x"].clone(), before["facing"].clone()),
        (3.into(), "south".into())
    );
    game.key("escape");
    assert_eq!(game.scene(), "title");
    // Continue is focused now that there is a save.
    game.key("enter");
    assert_eq!(game.scene(), "warren");
    let after = state(&game);
    for field in ["x", "y", "facing", "tick", "level"] {
        assert_eq!(after[field], before[field], "{field}");
    }
}

/// Umber Warren's crawl, seed 1, settled a few frames; a click is given three more.
fn in_the_warren() -> Game {
    let mut game = open(Options {
        seed: 1,
        scene: Some("warren".into()),
        ..Options::default()
    });
    game.settle(3);
    game
}

#[test]
fn the_pointer_buttons_walk_turn_and_refuse_in_words() {
    let mut game = in_the_warren();
    game.click("b_forward");
    assert_eq!(state(&game)["x"], 2);
    game.click("b_turn_left");
    assert_eq!(state(&game)["facing"], "north");
    // Rock ahead: the step is refused and the log says why.
    game.click("b_forward");
    assert_eq!(state(&game)["y"], 1);
    assert_eq!(game.text("log3"), "You bump into the wall.");
    assert!(flash(&game) > 0.0, "the bump flashes the view");
    // A step back into rock and Use with nothing to use answer too.
    game.click("b_back");
    assert_eq!(state(&game)["y"], 1);
    assert_eq!(game.text("log3"), "You bump into the wall.");
    game.click("b_use");
    assert_eq!(game.text("log3"), "There is nothing here to use.");
    assert_eq!(state(&game)["tick"], 2, "refusals cost nothing");
    // The title button leaves the crawl, as Esc does.
    game.click("b_title");
    assert_eq!(game.scene(), "title");
}

#[test]
fn a_step_sounds_a_footfall_and_a_bump_sounds_a_thud() {
    let mut game = in_the_warren();
    let before = game.heard_count();
    game.click("b_forward");
    assert_eq!(state(&game)["x"], 2);
    assert_eq!(game.heard_since(before), ["step.wav"]);
    game.click("b_turn_left");
    let before = game.heard_count();
    game.click("b_forward");
    assert_eq!(state(&game)["y"], 1, "rock ahead");
    assert_eq!(game.heard_since(before), ["bump.wav"]);
}

/// The level's name as the HUD writes it.
fn level_line(s: &serde_json::Value) -> String {
    format!(
        "{}  ({}/{})",
        s["level_name"].as_str().unwrap_or(""),
        s["level"].as_u64().unwrap_or(0) + 1,
        s["levels"]
    )
}

#[test]
fn the_hud_follows_the_stairs_at_once_and_the_mini_map_keeps_the_party_in_sight() {
    let (acts, _) = route();
    let mut game = in_the_warren();
    // The small map's parchment: the window of 16 x 14 cells, 0.25 a side, at (0.97, 0.27).
    let (left, top, cell) = (0.97_f32, 0.27_f32, 0.25_f32);
    let mut floors = 0;
    for act in &acts {
        let before = state(&game)["level"].clone();
        game.key(act.key());
        let s = state(&game);
        if s["escaped"] == true {
            break;
        }
        // Taking the stairs spends no tick; the HUD shows the new floor all the same.
        if s["level"] != before {
            floors += 1;
            assert_eq!(game.text("level_name"), level_line(&s), "{s}");
            assert_ne!(game.text("b_use_label"), "Down", "{s}");
        }
        let [x, y] = game.centre("am_you");
        assert!(
            x > left && x < left + 16.0 * cell && y < top && y > top - 14.0 * cell,
            "the party's arrow at ({x}, {y}) is off the mini-map: {s}"
        );
    }
    assert!(floors >= 2, "the route went down {floors} floors");
    game.no_warnings();
}
