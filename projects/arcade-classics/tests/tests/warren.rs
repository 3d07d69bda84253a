//! Umber Warren (`projects/arcade-classics`) on the crawl: five floors that pass every check,
//! each in its own wall set; the simple player's route out on the game's seed, written as key
//! presses in `tests/inputs/warren_escape.json`, plays the real game from the title to the
//! escape screen and tells every trick of the warren on the way. Goldens of the corridor, a
//! door and arch, a monster, the pillared hall, the dark, the chief, the automap and the end
//! are taken along the way; the HUD follows the stairs and the mini-map follows the party.

use std::path::PathBuf;

use arcade_classics_tests::bot::{Act, Bot, End};
use arcade_classics_tests::{crawl, crawl_state as state, open, project, tables};
use jengine_crawler::Crawl;
use jengine_testkit::{Game, InputScript, Options};

/// The seed `warren.scene` gives its `crawl_game`.
const SEED: u64 = 7;

/// The simple player's way out on the game's own seed: every key it pressed, and the crawl it
/// left. It plays by what the game shows (see `arcade_classics_tests::bot`).
fn route() -> (Vec<Act>, Crawl) {
    let start = crawl(SEED);
    let run = Bot::new(&start).careful(0.8).run(start, 20_000);
    assert_eq!(
        run.end,
        End::Escaped,
        "the player did not get out after {} acts",
        run.acts.len()
    );
    (run.acts, run.crawl)
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
fn the_warren_has_five_floors_of_twenty_by_twenty_or_more_each_in_its_own_wall_set() {
    let tables = tables();
    let levels = tables.levels();
    assert_eq!(levels.len(), 5);
    let mut sets = Vec::new();
    for level in levels {
        assert!(
            level.width >= 20 && level.height >= 20,
            "{}: {}x{}",
            level.name,
            level.width,
            level.height
        );
        sets.push(level.walls.clone());
    }
    assert_eq!(
        sets,
        [
            None,
            Some("roots".into()),
            Some("flint".into()),
            Some("drowned".into()),
            Some("ember".into())
        ]
    );
    // No floor is a copy of another: of the cells open on either of two floors, well under
    // two thirds are open on both (two mazes of this density drawn at random share about 40%).
    for (i, a) in levels.iter().enumerate() {
        for b in &levels[i + 1..] {
            let pairs = a.cells.iter().zip(&b.cells);
            let both = pairs
                .clone()
                .filter(|(x, y)| x.is_walkable() && y.is_walkable())
                .count();
            let either = pairs
                .filter(|(x, y)| x.is_walkable() || y.is_walkable())
                .count();
            assert!(
                both * 10 < either * 6,
                "{} and {}: {both} of {either} open cells alike",
                a.name,
                b.name
            );
        }
    }
}

#[test]
fn a_simple_player_gets_out_of_the_warren() {
    let (acts, crawl) = route();
    let s = crawl.state();
    assert!(s.escaped);
    assert_eq!(s.level, 4);
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

/// What the log says when the party meets each of the warren's tricks, as `warren.lua` words
/// it: the route out meets every one of them.
const TOLD: &[(&str, &str)] = &[
    ("a secret door found", "A hidden door!"),
    ("a teleporter", "The air twists"),
    ("a spinner", "The floor turns under your feet!"),
    ("a pressure plate", "Click. A plate sinks"),
    ("a button", "You press the button."),
    ("a gate moved", "grinds open."),
    ("a gate shut", "slams shut!"),
    ("a trap that hurts", " hurts "),
    ("the dark", "Your torches gutter"),
    ("an item on the floor", "You pick up"),
    ("a named key", "key lies in the chest."),
];

#[test]
fn the_escape_input_plays_from_the_title_to_the_way_out() {
    let text_in = std::fs::read_to_string(input_path()).unwrap();
    let mut input = InputScript::parse(&text_in).unwrap();
    let mut game = open(Options {
        seed: 1,
        ..Options::default()
    });
    assert_eq!(game.scene(), "title");
    let (acts, crawl) = route();
    let last = FIRST_ACT + acts.len() as u64 * EVERY + 30;
    let mut shots: Vec<&str> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for _ in 0..last {
        // An event written for frame N goes in with the step after frame N, as it was pressed.
        let frame = game.rt.frame();
        let events = input.due(frame);
        game.step(&events);
        if game.scene() != "warren" {
            continue;
        }
        let line = game.text("log3");
        if said.last() != Some(&line) {
            said.push(line);
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
        // The flint floor's pillared hall, looking up it between the pillars.
        take(
            "warren_pillars",
            calm && s["level"] == 2 && s["y"] == 11 && s["x"] == 12 && s["facing"] == "north",
            &game,
        );
        // The drowned floor's dark core, from the silver door: the torchlight ends at it.
        take(
            "warren_dark",
            calm && s["level"] == 3 && s["x"] == 10 && s["y"] == 3 && s["facing"] == "south",
            &game,
        );
        // The warren's chief, come out of its hall to meet the party in the nave.
        take(
            "warren_chief",
            frame % EVERY == 3
                && s["level"] == 4
                && s["can_attack"] == true
                && s["y"] == 15
                && s["x"] == 10,
            &game,
        );
    }
    let s = state(&game);
    assert_eq!(s["escaped"], true, "{s}");
    assert_eq!(game.text("end_title"), "Out of the Warren!");
    assert_eq!(s["gold"], crawl.state().gold, "{s}");
    for (what, words) in TOLD {
        assert!(
            said.iter().any(|l| l.contains(words)),
            "{what} was never told ({words:?}): {said:#?}"
        );
    }
    for name in [
        "warren_monster",
        "warren_pillars",
        "warren_dark",
        "warren_chief",
    ] {
        assert!(shots.contains(&name), "{name}: {shots:?}");
    }
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
    // The legend names what this floor's map shows so far, on the small map's parchment.
    let legend: Vec<String> = (0..4).map(|i| game.text(&format!("lg_tx_{i}"))).collect();
    assert_eq!(legend, ["floor", "rock", "open door", "stairs up"]);
    game.golden("warren_automap");
    // Rolled up, the legend goes.
    game.key("m");
    assert!(game.centre("lg_tx_0")[1] > 50.0, "the legend stays out");
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
            // Two floors down is proof enough; the whole way is the escape test's.
            if floors == 2 {
                break;
            }
        }
        let [x, y] = game.centre("am_you");
        assert!(
            x > left && x < left + 16.0 * cell && y < top && y > top - 14.0 * cell,
            "the party's arrow at ({x}, {y}) is off the mini-map: {s}"
        );
    }
    assert_eq!(floors, 2, "the route went down {floors} floors");
    game.no_warnings();
}

#[test]
fn a_search_with_no_crack_near_says_so_and_costs_nothing() {
    let mut game = in_the_warren();
    game.key("x");
    assert_eq!(game.text("log3"), "You search the walls and find nothing.");
    assert_eq!(
        state(&game)["tick"],
        0,
        "a search that finds nothing spends no time"
    );
}

/// The save file as the game's store writes it (indented JSON, keys in order).
fn write_save(path: &std::path::Path, save: &serde_json::Value) -> Vec<u8> {
    let bytes = serde_json::to_vec_pretty(save).unwrap();
    std::fs::write(path, &bytes).unwrap();
    bytes
}

#[test]
fn a_refused_save_is_said_kept_byte_for_byte_and_a_new_crawl_offered() {
    let dir = tempfile::tempdir().unwrap();
    let options = || Options {
        seed: 1,
        save_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    // A crawl a few steps in, saved by the game itself.
    let mut game = open(options());
    game.key("enter");
    assert_eq!(game.scene(), "warren");
    game.keys(&["up", "up", "right"]);
    game.rt.finish();
    drop(game);
    let file = dir.path().join("save.json");
    let mut save: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    // Tampered: the whole party at 0 hp, but not dead.
    let hp = save["warren"]["hp"].as_array().unwrap().len();
    save["warren"]["hp"] = serde_json::json!(vec![0; hp]);
    let planted = write_save(&file, &save);

    let mut game = open(options());
    // Continue is focused when there is a save.
    game.key("enter");
    assert_eq!(game.scene(), "warren");
    game.settle(5);
    let said: Vec<String> = (1..=3).map(|i| game.text(&format!("log{i}"))).collect();
    assert_eq!(
        said[0], "Your saved crawl could not be loaded, and is kept as it was.",
        "{said:#?}"
    );
    assert_eq!(
        said[1],
        "Why: the save could not come from play: every member has 0 hp, but the party is not dead"
    );
    assert!(said[2].starts_with("Enter starts a new crawl"), "{said:#?}");
    assert!(
        !said.iter().any(|l| l.contains("take up the trail")),
        "{said:#?}"
    );
    assert_eq!(state(&game)["save_in_play"], "new");
    // Nothing written over it: the file is byte for byte what was planted.
    assert_eq!(
        std::fs::read(&file).unwrap(),
        planted,
        "the save file changed"
    );
    // While the refusal stands, the crawl does not move.
    game.keys(&["up"]);
    assert_eq!(state(&game)["tick"], 0);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        planted,
        "the save file changed"
    );
    // A new crawl: the refused save is set aside whole, and the new one saves from its first
    // step.
    game.key("enter");
    let warnings = game.warnings();
    assert!(
        warnings.iter().all(|w| w.starts_with("Crawler.load: ")),
        "{warnings:#?}"
    );
    assert_eq!(
        game.rt.saved("warren_refused"),
        Some(save["warren"].clone())
    );
    assert!(game.text("log3").contains("set aside as warren_refused"));
    game.key("up");
    assert_eq!(state(&game)["tick"], 1);
    assert_eq!(game.rt.saved("warren").unwrap()["tick"], 1);
    assert_eq!(
        game.rt.saved("warren_refused"),
        Some(save["warren"].clone())
    );
}

/// A copy of the project (without its tests) in `to`, the package path made absolute.
fn copy_project(to: &std::path::Path) {
    fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if path.is_dir() {
                if entry.file_name() != "tests" {
                    copy_dir(&path, &to.join(entry.file_name()));
                }
            } else {
                std::fs::copy(&path, to.join(entry.file_name())).unwrap();
            }
        }
    }
    copy_dir(&project(), to);
    let packages = std::fs::canonicalize(project().join("../../packages")).unwrap();
    let manifest = std::fs::read_to_string(to.join("project.jengine")).unwrap();
    let manifest = manifest.replace("../../packages", packages.to_str().unwrap());
    std::fs::write(to.join("project.jengine"), manifest).unwrap();
}

#[test]
fn a_broken_crawl_table_three_scenes_use_is_one_problem_in_the_check() {
    let dir = tempfile::tempdir().unwrap();
    copy_project(dir.path());
    // A third scene with a crawl on the same tables.
    std::fs::copy(
        dir.path().join("assets/scenes/warren.scene"),
        dir.path().join("assets/scenes/again.scene"),
    )
    .unwrap();
    // The first floor names a monster the monsters table lacks.
    let levels = dir.path().join("data/warren_levels.json");
    let mut rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&levels).unwrap()).unwrap();
    rows[0]["monsters"] = serde_json::json!(["wyrm"]);
    std::fs::write(&levels, rows.to_string()).unwrap();
    let report = jengine_tool::check::check(dir.path(), arcade_classics_tests::PACKAGES);
    let crawl: Vec<&String> = report
        .problems
        .iter()
        .filter(|p| p.contains("crawl_game tables"))
        .collect();
    assert_eq!(crawl.len(), 1, "{:#?}", report.problems);
    assert!(crawl[0].contains("wyrm"), "{}", crawl[0]);
    for scene in ["again.scene", "title.scene", "warren.scene"] {
        assert!(crawl[0].contains(scene), "{scene} is named: {}", crawl[0]);
    }
    assert!(crawl[0].contains("(also in assets/scenes/"), "{}", crawl[0]);
}
