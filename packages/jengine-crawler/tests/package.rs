//! The package on the engine, driven the way a game drives it: a small project made in a temp
//! folder (a two-floor dungeon in its data tables), a scene with one `crawl_game`, and a Lua
//! script that makes one planned call per frame. What the test reads is what a script reads:
//! the bags, the log, the save.

mod common;

use std::path::Path;

use jengine::{BulkEntity, LogLevel, Mesh2D};
use jengine_crawler::CrawlerPackage;
use jengine_testkit::{Options, Runtime};

/// Floor 1: start on `<` facing east, a door, a fixed fight on (5, 1), stairs down; below, a
/// chest and a trap. Floor 2: a rat right in front of the stairs up.
fn levels() -> serde_json::Value {
    serde_json::json!([
        {
            "name": "Cellar",
            "map": ["########",
                    "#<..+.>#",
                    "#.######",
                    "#C.^...#",
                    "########"],
            "chests": ["gold:5"],
            "traps": ["dart"],
            "encounters": [{ "at": [5, 1], "group": "kobolds", "text": "Kobolds!",
                             "art": "m_chief" }]
        },
        {
            "name": "Deep",
            "map": ["######",
                    "#<M.>#",
                    "######"],
            "monsters": ["rat"]
        }
    ])
}

fn project(dir: &Path, levels: &serde_json::Value, game: serde_json::Value, plan: &str) {
    let camera = serde_json::json!({ "center": [0, 0], "size": [16, 9] });
    common::write_project(dir, levels, camera, game, plan);
}

fn start(dir: &Path, game: serde_json::Value, plan: &str) -> Runtime {
    start_with(dir, &levels(), game, plan).unwrap_or_else(|p| panic!("{p:#?}"))
}

fn start_with(
    dir: &Path,
    levels: &serde_json::Value,
    game: serde_json::Value,
    plan: &str,
) -> Result<Runtime, Vec<String>> {
    project(dir, levels, game, plan);
    Runtime::new(dir, &[&CrawlerPackage], Options::default())
}

fn bag(rt: &Runtime, key: &str) -> serde_json::Value {
    rt.bags()["crawl"][key].clone()
}

fn state(rt: &Runtime) -> serde_json::Value {
    bag(rt, "CrawlState")
}

fn events(rt: &Runtime) -> Vec<String> {
    bag(rt, "CrawlEvents")["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap().to_string())
        .collect()
}

fn logged(rt: &mut Runtime, level: LogLevel) -> Vec<String> {
    rt.take_log()
        .into_iter()
        .filter(|l| l.level >= level)
        .map(|l| l.message)
        .collect()
}

/// The plan as Lua: each entry one frame's body, with `e` the crawl entity.
fn plan(steps: &[&str]) -> String {
    let mut s = String::from("return {\n");
    for step in steps {
        s.push_str(&format!("  function(e) {step} end,\n"));
    }
    s.push_str("}\n");
    s
}

/// A cell of the automap.
fn map_cell(rt: &Runtime, x: usize, y: usize) -> char {
    let rows = bag(rt, "CrawlMap")["rows"].clone();
    rows[y].as_str().unwrap().chars().nth(x).unwrap()
}

fn meshes(rt: &Runtime) -> usize {
    rt.world
        .entities
        .query::<(&Mesh2D, &BulkEntity)>()
        .iter()
        .count()
}

#[test]
fn every_command_runs_with_good_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let calls = [
        "Crawler.new_game(e, 3)",
        "Crawler.new_game(e)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.turn(e, -1)",
        "Crawler.turn(e, 1)",
        "Crawler.use(e)",
        "Crawler.attack(e)",
        "Crawler.wait(e)",
        "Crawler.rest(e)",
        "Crawler.reveal(e, 2)",
        "Crawler.resolve(e, true)",
        "crawler_wait(e)",
        "crawl_wait(e)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&calls));
    let mut seen = Vec::new();
    for _ in 0..calls.len() {
        rt.step(&[]);
        seen.push(events(&rt));
    }
    assert!(logged(&mut rt, LogLevel::Warn).is_empty());
    assert_eq!(seen[7], ["wait"]);
    assert_eq!(seen[8], ["rested"]);
    assert_eq!(seen[9], ["revealed"]);
    // Nothing to settle: resolve says nothing.
    assert!(seen[10].is_empty());
    assert_eq!(seen[11], ["wait"]);
    // The short flat names work too.
    assert_eq!(seen[12], ["wait"]);
    // A step, two turns, a swing at nothing, three waits and a rest of four ticks.
    assert_eq!(state(&rt)["tick"], 1 + 2 + 1 + 1 + 4 + 1 + 1);
}

#[test]
fn every_command_refuses_bad_arguments_at_the_call_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = [
        (
            "Crawler.new_game(e, 'x')",
            "Crawler.new_game: argument 2 (seed)",
        ),
        ("Crawler.walk(e, 'x', 1)", "Crawler.walk: argument 2 (dx)"),
        ("Crawler.walk(e, 0, 0.5)", "Crawler.walk: argument 3 (dy)"),
        ("Crawler.turn(e)", "Crawler.turn: argument 2 (steps)"),
        ("Crawler.use('e')", "Crawler.use: argument 1 (e)"),
        ("Crawler.attack(nil)", "Crawler.attack: argument 1 (e)"),
        ("Crawler.wait({})", "Crawler.wait: argument 1 (e)"),
        ("Crawler.rest(1.5)", "Crawler.rest: argument 1 (e)"),
        ("Crawler.resolve(e, 1)", "Crawler.resolve: argument 2 (won)"),
        (
            "Crawler.reveal(e, 'all')",
            "Crawler.reveal: argument 2 (radius)",
        ),
        (
            "Crawler.load(e, true)",
            "Crawler.load: the arguments must be such that save is a table or its JSON text, \
             got save = true",
        ),
    ];
    let body: Vec<String> = bad
        .iter()
        .map(|(call, _)| {
            format!("local ok, err = pcall(function() {call} end) Log.warn(tostring(err))")
        })
        .collect();
    let steps: Vec<&str> = body.iter().map(String::as_str).collect();
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    for _ in 0..bad.len() {
        rt.step(&[]);
    }
    let said = logged(&mut rt, LogLevel::Warn);
    // Every one is refused at the call, the save's kind too (a table or its JSON text).
    assert_eq!(said.len(), bad.len(), "{said:#?}");
    for ((call, expected), message) in bad.iter().zip(&said) {
        assert!(
            message.contains("assets/scripts/plan.lua:") && message.contains(expected),
            "{call}: {message}"
        );
    }
    // Refused at the call: the crawl never moved.
    assert_eq!(state(&rt)["tick"], 0);
    assert_eq!(state(&rt)["x"], 1);
}

#[test]
fn out_of_range_arguments_are_refused_at_the_call_with_file_and_line_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // Each refused call is caught and its message logged; had any been queued, its event
    // would show on the frame after.
    let bad = [
        (
            "Crawler.walk(e, 5, 0)",
            "Crawler.walk: argument 2 (dx) must be -1 to 1, got number 5",
        ),
        (
            "Crawler.walk(e, 1, 1)",
            "Crawler.walk: the arguments must be such that (dx, dy) is one step",
        ),
        ("Crawler.walk(e, 0, 0)", "got dx = 0, dy = 0"),
        (
            "Crawler.walk(e, math.mininteger, math.mininteger)",
            "Crawler.walk: argument 2 (dx) must be -1 to 1",
        ),
        (
            "Crawler.reveal(e, -1)",
            "Crawler.reveal: argument 2 (radius) must be 0 to 2147483647, got number -1",
        ),
        (
            "Crawler.reveal(e, 2147483648)",
            "Crawler.reveal: argument 2 (radius) must be 0 to 2147483647, got number 2147483648",
        ),
        (
            "Crawler.reveal(e, math.maxinteger)",
            "Crawler.reveal: argument 2 (radius)",
        ),
        (
            "Crawler.new_game(e, -5)",
            "Crawler.new_game: argument 2 (seed) must be 0 or more, got number -5",
        ),
        (
            "Crawler.new_game(e, 2^63)",
            "Crawler.new_game: argument 2 (seed) must be a whole number",
        ),
        (
            "crawl_walk(e, 0, 2)",
            "Crawler.walk: argument 3 (dy) must be -1 to 1",
        ),
        (
            "Crawler.swap(e, 0, 1)",
            "Crawler.swap: argument 2 (a) must be 1 to 4, got number 0",
        ),
        (
            "Crawler.swap(e, 1, 5)",
            "Crawler.swap: argument 3 (b) must be 1 to 4, got number 5",
        ),
        (
            "Crawler.swap(e, 1, math.maxinteger)",
            "Crawler.swap: argument 3 (b) must be 1 to 4",
        ),
    ];
    let body: Vec<String> = bad
        .iter()
        .map(|(call, _)| {
            format!(
                "local ok, err = pcall(function() {call} end) \
                 Log.warn((ok and 'queued: ' or '') .. tostring(err))"
            )
        })
        .collect();
    let mut steps: Vec<&str> = vec!["Crawler.walk(e, 0, 1)"];
    steps.extend(body.iter().map(String::as_str));
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    let before = state(&rt);
    let map_before = bag(&rt, "CrawlMap");
    assert_eq!(before["tick"], 1);
    for _ in 0..=bad.len() {
        rt.step(&[]);
        assert!(events(&rt).is_empty(), "{:?}", events(&rt));
    }
    let said = logged(&mut rt, LogLevel::Warn);
    assert_eq!(said.len(), bad.len(), "{said:#?}");
    for ((call, expected), message) in bad.iter().zip(&said) {
        assert!(
            message.contains("assets/scripts/plan.lua:") && message.contains(expected),
            "{call}: {message}"
        );
    }
    // Nothing was queued: not a tick, not a step, not a cell revealed, not a new game.
    assert_eq!(state(&rt), before);
    assert_eq!(bag(&rt, "CrawlMap"), map_before);
}

#[test]
fn the_ends_of_each_declared_range_are_taken() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.reveal(e, 2147483647)",
        "Crawler.new_game(e, math.maxinteger)",
        "Crawler.new_game(e, 0)",
        "Crawler.walk(e, -1, 0)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    let mut seen = Vec::new();
    let mut far_corner = ' ';
    for i in 0..steps.len() {
        rt.step(&[]);
        seen.push(events(&rt));
        if i == 0 {
            far_corner = map_cell(&rt, 6, 3);
        }
    }
    assert!(logged(&mut rt, LogLevel::Warn).is_empty());
    assert_eq!(seen[0], ["revealed"]);
    // The whole floor is in reach of the widest radius.
    assert_ne!(far_corner, ' ');
    // A strafe left into rock is a step refused, not an argument refused.
    assert_eq!(seen[3], ["bumped"]);
}

#[test]
fn walking_and_turning_change_crawl_state() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "",
        "Crawler.walk(e, 0, 1)",
        "Crawler.turn(e, 1)",
        "Crawler.turn(e, -1)",
        "Crawler.walk(e, 0, 1)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    let s = state(&rt);
    assert_eq!((s["x"].as_i64(), s["y"].as_i64()), (Some(1), Some(1)));
    assert_eq!(s["facing"], "east");
    assert_eq!(s["on_stairs_up"], true);
    assert_eq!(s["level_name"], "Cellar");
    assert_eq!(s["levels"], 2);
    assert_eq!(s["health"], 12);
    assert_eq!(s["use_does"], "exit");
    assert_eq!(s["can_walk"], true);
    rt.step(&[]);
    let s = state(&rt);
    assert_eq!(s["x"], 2);
    assert_eq!(s["on_stairs_up"], false);
    assert!(s["use_does"].is_null());
    rt.step(&[]);
    assert_eq!(state(&rt)["facing"], "south");
    assert_eq!(state(&rt)["ahead"], "#");
    assert_eq!(state(&rt)["can_walk"], false);
    rt.step(&[]);
    assert_eq!(state(&rt)["facing"], "east");
    rt.step(&[]);
    let s = state(&rt);
    assert_eq!(s["x"], 3);
    assert_eq!(s["ahead"], "+");
    assert_eq!(s["use_does"], "open");
    assert_eq!(s["tick"], 4);
}

#[test]
fn crawl_state_says_how_many_steps_off_the_nearest_awake_monster_is() {
    let dir = tempfile::tempdir().unwrap();
    let levels = serde_json::json!([{
        "name": "Den",
        "map": ["#######",
                "#<.M.>#",
                "#######"],
        "monsters": ["rat"]
    }]);
    let steps = ["", "Crawler.wait(e)", "Crawler.wait(e)"];
    let mut rt = start_with(dir.path(), &levels, serde_json::json!({}), &plan(&steps))
        .unwrap_or_else(|p| panic!("{p:#?}"));
    rt.step(&[]);
    assert!(state(&rt)["nearest_awake"].is_null(), "asleep until a tick");
    rt.step(&[]);
    assert_eq!(state(&rt)["nearest_awake"], 2, "it wakes where it stands");
    rt.step(&[]);
    assert_eq!(state(&rt)["nearest_awake"], 1, "and comes to the party");
}

#[test]
fn a_fixed_encounter_waits_on_its_cell_until_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.walk(e, 0, 1) Crawler.walk(e, 0, 1) Crawler.use(e)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.resolve(e, false)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.resolve(e, true)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.use(e)",
        "Crawler.attack(e)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    assert_eq!(events(&rt), ["door"]);
    rt.step(&[]);
    // The fight stands in the doorway's view, on the map as E; the opened door is `/`.
    assert_eq!(map_cell(&rt, 4, 1), '/');
    assert_eq!(map_cell(&rt, 5, 1), 'E');
    let quads = bag(&rt, "CrawlView")["quads"].clone();
    assert!(
        quads
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q["look"] == "encounter" && q["art"] == "m_chief")
    );
    rt.step(&[]);
    assert_eq!(events(&rt), ["encounter"]);
    let s = state(&rt);
    assert_eq!(s["encounter"]["group"], "kobolds");
    assert_eq!(s["encounter"]["text"], "Kobolds!");
    assert_eq!(s["x"], 5);
    assert_eq!(s["can_walk"], false);
    // Nothing moves while it waits.
    rt.step(&[]);
    assert_eq!(state(&rt)["x"], 5);
    assert!(events(&rt).is_empty());
    rt.step(&[]);
    assert_eq!(events(&rt), ["resolved"]);
    assert_eq!(state(&rt)["x"], 4, "fled: back where it stepped from");
    assert!(state(&rt)["encounter"].is_null());
    rt.step(&[]);
    assert_eq!(events(&rt), ["encounter"]);
    rt.step(&[]);
    assert_eq!(state(&rt)["x"], 5, "won: it stays");
    assert_eq!(map_cell(&rt, 5, 1), '.');
    rt.step(&[]);
    assert_eq!(state(&rt)["on_stairs"], true);
    assert_eq!(state(&rt)["use_does"], "down");
    rt.step(&[]);
    assert_eq!(events(&rt), ["level"]);
    let s = state(&rt);
    assert_eq!(
        (s["level"].as_u64(), s["level_name"].as_str()),
        (Some(1), Some("Deep"))
    );
    assert_eq!(s["ahead"], "M");
    assert_eq!(s["can_attack"], true);
    assert_eq!(bag(&rt, "CrawlMap")["level"], 1);
    rt.step(&[]);
    let said = events(&rt);
    assert!(said[0] == "hit", "{said:?}");
}

#[test]
fn crawl_events_hold_only_this_frames_events() {
    let dir = tempfile::tempdir().unwrap();
    let steps = ["Crawler.wait(e) Crawler.rest(e)", ""];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    assert_eq!(events(&rt), ["wait", "rested"]);
    rt.step(&[]);
    assert!(events(&rt).is_empty());
}

#[test]
fn a_refused_step_and_a_use_with_nothing_to_use_are_announced_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.walk(e, 0, -1)",
        "Crawler.walk(e, 0, 1) Crawler.use(e)",
        "Crawler.walk(e, 0, 1) Crawler.walk(e, 0, 1)",
        "Crawler.walk(e, 1, 0)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    let what = |rt: &Runtime| bag(rt, "CrawlEvents")["events"].clone();
    // Rock behind the stairs up.
    rt.step(&[]);
    assert_eq!(events(&rt), ["bumped"]);
    assert_eq!(what(&rt)[0]["what"], "wall");
    // A step, then Use with open floor ahead and underfoot.
    rt.step(&[]);
    assert_eq!(events(&rt), ["nothing"]);
    // A step, then the shut door is walked into.
    rt.step(&[]);
    assert_eq!(events(&rt), ["bumped"]);
    assert_eq!(what(&rt)[0]["what"], "door");
    // Sideways into rock, the same frame it is asked.
    rt.step(&[]);
    assert_eq!(events(&rt), ["bumped"]);
    assert_eq!(what(&rt)[0]["what"], "wall");
    // Only the two good steps took time.
    let s = state(&rt);
    assert_eq!((s["x"].as_i64(), s["tick"].as_i64()), (Some(3), Some(2)));
}

#[test]
fn the_map_blanks_what_is_unseen_shows_an_unsprung_trap_as_floor_and_has_a_legend() {
    let dir = tempfile::tempdir().unwrap();
    let steps = ["", "Crawler.reveal(e, 0)"];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    assert_eq!(
        map_cell(&rt, 6, 3),
        ' ',
        "five cells ahead is past the picture"
    );
    rt.step(&[]);
    let rows = bag(&rt, "CrawlMap")["rows"].clone();
    assert_eq!(rows[3], "#C.....#", "the trap is floor until it goes off");
    assert_eq!(rows[1], "#<..+E>#");
    let legend: Vec<(String, String)> = bag(&rt, "CrawlMap")["legend"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["symbol"].as_str().unwrap().into(),
                l["meaning"].as_str().unwrap().into(),
            )
        })
        .collect();
    let symbols: Vec<&str> = legend.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        symbols,
        [".", "#", "+", "C", "E", ">", "<"],
        "what this map holds"
    );
    assert!(legend.contains(&("E".into(), "a fight waits".into())));
}

#[test]
fn the_draw_pool_holds_one_mesh_per_quad() {
    let dir = tempfile::tempdir().unwrap();
    let steps = ["", "Crawler.turn(e, 1)", "Crawler.turn(e, 1)"];
    let game = serde_json::json!({ "z_base": 100.0, "view_origin": [-2.0, 0.5] });
    let mut rt = start(dir.path(), game, &plan(&steps));
    for _ in 0..steps.len() {
        rt.step(&[]);
        let quads = bag(&rt, "CrawlView")["quads"].as_array().unwrap().len();
        assert!(quads > 0);
        assert_eq!(meshes(&rt), quads);
    }
    // Each mesh: four corners and two triangles, at z_base + its index, from the sheet.
    let mut z: Vec<f32> = Vec::new();
    for (t, mesh, _) in rt
        .world
        .entities
        .query::<(&jengine::Transform2D, &Mesh2D, &BulkEntity)>()
        .iter()
    {
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.indices, [0, 1, 2, 0, 2, 3]);
        assert_eq!(mesh.texture, "crawler/crawler.png");
        assert_eq!(t.pos, [-2.0, 0.5]);
        z.push(t.z);
    }
    z.sort_by(f32::total_cmp);
    let expected: Vec<f32> = (0..z.len()).map(|i| 100.0 + i as f32).collect();
    assert_eq!(z, expected);
}

#[test]
fn draw_false_draws_nothing_and_publish_view_false_publishes_no_view() {
    let dir = tempfile::tempdir().unwrap();
    let game = serde_json::json!({ "draw": false, "publish_view": false });
    let mut rt = start(dir.path(), game, &plan(&["Crawler.walk(e, 0, 1)"]));
    rt.step(&[]);
    rt.step(&[]);
    assert_eq!(meshes(&rt), 0);
    assert!(bag(&rt, "CrawlView").is_null());
    assert_eq!(state(&rt)["x"], 2);
}

#[test]
fn a_save_round_trips_through_save_set_get_and_crawler_load() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "Crawler.walk(e, 0, 1) Crawler.walk(e, 0, 1) Crawler.use(e)",
        "Save.set('crawl', Entity.get(e, 'CrawlState').save)",
        "Crawler.walk(e, 0, 1)",
        "Crawler.load(e, Save.get('crawl'))",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    rt.step(&[]);
    let saved = state(&rt);
    assert_eq!(saved["save"]["seen"].as_array().unwrap().len(), 2);
    // The random stream's words do not fit a Lua integer; they travel as strings.
    assert!(saved["save"]["rng"]["state"].is_string());
    rt.step(&[]);
    assert_eq!(state(&rt)["x"], 4);
    rt.step(&[]);
    assert!(logged(&mut rt, LogLevel::Warn).is_empty());
    let loaded = state(&rt);
    assert_eq!(loaded["x"], saved["x"]);
    assert_eq!(loaded["tick"], saved["tick"]);
    assert_eq!(loaded["save"], saved["save"]);
    // The opened door came back with it.
    assert_eq!(loaded["ahead"], "A");
    assert_eq!(map_cell(&rt, 4, 1), '/');
}

#[test]
fn a_save_from_another_dungeon_is_refused_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let steps = [
        "",
        "local s = Entity.get(e, 'CrawlState').save s.dungeon = 'feed' Crawler.load(e, s)",
        "Crawler.walk(e, 0, 1)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    for _ in 0..steps.len() {
        rt.step(&[]);
    }
    let said = logged(&mut rt, LogLevel::Warn);
    assert!(
        said.iter()
            .any(|m| m.contains("Crawler.load: the save is from another dungeon")),
        "{said:#?}"
    );
    assert_eq!(state(&rt)["x"], 2);
}

#[test]
fn every_refused_load_answers_with_an_event_and_the_game_in_play_says_which() {
    let dir = tempfile::tempdir().unwrap();
    // Each tampered save is made from the one in play; a script reads the refusal from
    // `CrawlEvents` on the next frame and `save_in_play` from `CrawlState`.
    let steps = [
        "Crawler.walk(e, 0, 1)",
        "Save.set('good', Entity.get(e, 'CrawlState').save)",
        "local s = Save.get('good') s.dungeon = 'feed' Crawler.load(e, s)",
        "local s = Save.get('good') s.hp = { 0 } Crawler.load(e, s)",
        "local s = Save.get('good') s.dead = true s.escaped = true s.hp = { 0 } Crawler.load(e, s)",
        "local s = Save.get('good') s.rng.increment = '2' Crawler.load(e, s)",
        "Crawler.load(e, 'not a save')",
        "Crawler.load(e, Save.get('good'))",
        "Crawler.new_game(e)",
    ];
    let mut rt = start(dir.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    assert_eq!(state(&rt)["save_in_play"], "new");
    let mut answers = Vec::new();
    let mut in_play = Vec::new();
    for _ in 1..steps.len() {
        rt.step(&[]);
        answers.push(bag(&rt, "CrawlEvents")["events"].clone());
        in_play.push(state(&rt)["save_in_play"].clone());
    }
    let reason = |i: usize| {
        let events = answers[i].as_array().unwrap();
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0]["event"], "load_refused", "{events:?}");
        events[0]["reason"].as_str().unwrap().to_string()
    };
    assert!(answers[0].as_array().unwrap().is_empty());
    assert!(
        reason(1).starts_with("the save is from another dungeon"),
        "{}",
        reason(1)
    );
    assert_eq!(
        reason(2),
        "the save could not come from play: every member has 0 hp, but the party is not dead"
    );
    assert_eq!(
        reason(3),
        "the save could not come from play: the party is both dead and escaped"
    );
    assert!(reason(4).contains("increment is even"), "{}", reason(4));
    assert!(
        reason(5).starts_with("the save's text is not JSON"),
        "{}",
        reason(5)
    );
    // Refused, the game goes on as it was: still the new game, one step in.
    assert_eq!(&in_play[..6], ["new"; 6]);
    assert_eq!(state(&rt)["save_in_play"], "new");
    assert!(
        answers[6].as_array().unwrap().is_empty(),
        "a good load says nothing"
    );
    assert_eq!(in_play[6], "loaded");
    assert_eq!(in_play[7], "new");
    // Each refusal is in the log as well, once.
    let said = logged(&mut rt, LogLevel::Warn);
    assert_eq!(said.len(), 5, "{said:#?}");
    assert!(
        said.iter().all(|m| m.starts_with("Crawler.load: ")),
        "{said:#?}"
    );
}

#[test]
fn a_broken_level_table_is_refused_at_startup_by_the_crawl_checks() {
    let dir = tempfile::tempdir().unwrap();
    let mut broken = levels();
    broken[0]["map"][1] = "#<..+..#".into();
    let problems = start_with(dir.path(), &broken, serde_json::json!({}), "return {}")
        .err()
        .expect("a floor with no way down must not load");
    assert!(
        problems.iter().any(
            |p| p.starts_with("data/crawl_levels.json: row 1 (\"Cellar\"): ")
                && p.contains("no way down")
        ),
        "{problems:#?}"
    );
}

#[test]
fn a_broken_monster_table_is_refused_at_startup() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), &levels(), serde_json::json!({}), "return {}");
    std::fs::write(
        dir.path().join("data/crawl_monsters.json"),
        r#"[{ "name": "rat" }]"#,
    )
    .unwrap();
    let problems = Runtime::new(dir.path(), &[&CrawlerPackage], Options::default())
        .err()
        .expect("a monster with no hp must not load");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("data/crawl_monsters.json: row 1 (\"rat\"): ")),
        "{problems:#?}"
    );
}

#[test]
fn a_table_the_component_names_but_the_project_lacks_stops_its_scene() {
    let dir = tempfile::tempdir().unwrap();
    let game = serde_json::json!({ "tables": { "levels": "data/nowhere" } });
    let problems = match start_with(dir.path(), &levels(), game, &plan(&["", "Crawler.wait(e)"])) {
        Ok(_) => panic!("a crawl naming a missing table loaded"),
        Err(problems) => problems,
    };
    let all = problems.join("\n");
    assert!(
        all.contains(
            "assets/scenes/crawl.scene: entity 1 (\"crawl\"), key \"crawl_game\": crawl_game.tables.levels names data/nowhere.json, which the project does not have"
        ),
        "{all}"
    );
    // The scene's table check, which `jengine check` runs, says the same before anything runs.
    let registry = jengine::Registry::with(&[&CrawlerPackage]);
    let (tables, errors) = jengine::Tables::load_dir(dir.path());
    assert!(errors.is_empty(), "{errors:#?}");
    let file = "assets/scenes/crawl.scene";
    let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
    let scene = jengine::host::Scene::parse(file, &text, &registry)
        .unwrap_or_else(|e| panic!("the scene parses before its tables are checked: {e:#?}"));
    let checked: Vec<String> = scene
        .check_tables(&registry, &tables)
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert!(
        checked
            .iter()
            .any(|p| p.contains("names data/nowhere.json")),
        "{checked:#?}"
    );
}

#[test]
fn a_scene_with_a_bad_frame_or_sheet_does_not_load() {
    for (game, expected) in [
        (
            serde_json::json!({ "frame": { "falloff": 1.5 } }),
            "frame.falloff: 1.5",
        ),
        (
            serde_json::json!({ "frame": { "depth": 0 } }),
            "frame.depth: 0",
        ),
        (
            serde_json::json!({ "sheet": { "faces": { "window": [0, 0, 8, 8] } } }),
            "sheet.faces.window: not a face",
        ),
        (serde_json::json!({ "colour": 1 }), "colour"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let problems = start_with(dir.path(), &levels(), game.clone(), "return {}")
            .err()
            .unwrap_or_else(|| panic!("{game} must not load"));
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{game}: {problems:#?}"
        );
    }
}

#[test]
fn a_floor_whose_wall_set_the_sheet_lacks_stops_its_scene_and_one_it_has_is_drawn() {
    let mut levels = levels();
    levels[1]["walls"] = "roots".into();
    levels[0]["encounters"] = serde_json::json!([]);
    let dir = tempfile::tempdir().unwrap();
    let problems = start_with(dir.path(), &levels, serde_json::json!({}), "return {}")
        .err()
        .expect("a floor with a wall set nobody painted must not load");
    let all = problems.join("\n");
    assert!(
        all.contains("level 2 (Deep) has walls \"roots\", a set sheet.sets lacks"),
        "{all}"
    );

    let sheet = serde_json::json!({
        "sets": { "roots": { "wall": { "texture": "walls.png", "region": [0, 0, 256, 256] } } },
        "sizes": { "crawler/crawler.png": [1024, 1536], "crawler/monsters.png": [1024, 256],
                   "walls.png": [768, 256] }
    });
    let dir = tempfile::tempdir().unwrap();
    let (walk, use_) = ("Crawler.walk(e, 0, 1)", "Crawler.use(e)");
    let steps = ["", walk, walk, use_, walk, walk, walk, use_];
    let mut rt = start_with(
        dir.path(),
        &levels,
        serde_json::json!({ "sheet": sheet }),
        &plan(&steps),
    )
    .unwrap_or_else(|p| panic!("{p:#?}"));
    let textures = |rt: &Runtime| -> Vec<String> {
        let mut t: Vec<String> = rt
            .world
            .entities
            .query::<&Mesh2D>()
            .iter()
            .map(|m| m.texture.clone())
            .collect();
        t.sort();
        t.dedup();
        t
    };
    rt.step(&[]);
    assert!(
        !textures(&rt).contains(&"walls.png".to_string()),
        "the top floor has no set"
    );
    for _ in 0..steps.len() {
        rt.step(&[]);
    }
    assert_eq!(state(&rt)["level"], 1, "{:?}", events(&rt));
    assert!(
        textures(&rt).contains(&"walls.png".to_string()),
        "the set's walls below"
    );
}

mod hostile {
    use super::*;
    use jengine_crawler::{Crawl, Tables, save_from_value, save_to_value};
    use proptest::prelude::*;

    fn game() -> Crawl {
        let tables = Tables::from_json(
            &levels().to_string(),
            r#"[{ "name": "rat", "hp": 3 }]"#,
            r#"[{ "name": "Vess", "hp": 12 }]"#,
        )
        .unwrap();
        let mut crawl = Crawl::new(tables, 5);
        crawl.walk(0, 1);
        crawl
    }

    fn leaf() -> impl Strategy<Value = serde_json::Value> {
        prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(|n| serde_json::Value::String(n.to_string())),
            "[a-z0-9/]{0,12}".prop_map(serde_json::Value::from),
            Just(serde_json::json!([])),
            Just(serde_json::json!({})),
        ]
    }

    /// Every path to a value inside `v`, as keys and indexes.
    fn paths(v: &serde_json::Value, at: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(at.clone());
        match v {
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                let mut p = at.clone();
                p.push(k.clone());
                paths(x, p, out);
            }),
            serde_json::Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
                let mut p = at.clone();
                p.push(i.to_string());
                paths(x, p, out);
            }),
            _ => {}
        }
    }

    fn set(v: &mut serde_json::Value, path: &[String], to: serde_json::Value) {
        let mut at = v;
        for key in path {
            at = match at {
                serde_json::Value::Object(m) => m.get_mut(key).unwrap(),
                serde_json::Value::Array(a) => &mut a[key.parse::<usize>().unwrap()],
                _ => unreachable!(),
            };
        }
        *at = to;
    }

    proptest! {
        /// A save a script mangled anywhere either loads whole or is refused, and a refused
        /// one leaves the game as it was; nothing panics.
        #[test]
        fn a_mangled_save_table_loads_whole_or_changes_nothing(pick in any::<usize>(), to in leaf()) {
            let mut crawl = game();
            let value = save_to_value(&crawl.save());
            let mut all = Vec::new();
            paths(&value, Vec::new(), &mut all);
            let mut mangled = value.clone();
            set(&mut mangled, &all[pick % all.len()], to);
            let before = crawl.save();
            match save_from_value(mangled) {
                Ok(save) => {
                    if crawl.restore(&save).is_err() {
                        prop_assert_eq!(crawl.save(), before);
                    }
                }
                Err(_) => prop_assert_eq!(crawl.save(), before),
            }
        }

        /// Any numbers in a scene's frame and sheet are either refused with the field or
        /// drawable; the check never panics.
        #[test]
        fn any_frame_and_region_numbers_are_checked_without_panicking(
            f in proptest::collection::vec(any::<f32>(), 9),
            depth in any::<u32>(),
        ) {
            let num = |x: f32| serde_json::Number::from_f64(x as f64)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null);
            let json = serde_json::json!({
                "frame": { "cell_w": num(f[0]), "cell_h": num(f[1]), "falloff": num(f[2]),
                           "gloom": num(f[3]), "depth": depth },
                "sheet": { "faces": { "wall": [num(f[4]), num(f[5]), num(f[6]), num(f[7])] } },
                "z_base": num(f[8])
            });
            if let Ok(game) = serde_json::from_value::<jengine_crawler::CrawlGame>(json) {
                let _ = game.check();
            }
        }
    }

    #[test]
    fn the_save_table_round_trips_exactly() {
        let crawl = game();
        let save = crawl.save();
        assert_eq!(save_from_value(save_to_value(&save)).unwrap(), save);
    }
}

#[test]
fn a_save_loads_from_its_json_text_too_and_bad_text_changes_nothing() {
    let first = tempfile::tempdir().unwrap();
    let steps = ["Crawler.walk(e, 0, 1) Crawler.walk(e, 0, 1) Crawler.use(e)"];
    let mut rt = start(first.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    rt.step(&[]);
    let saved = state(&rt);
    let text = saved["save"].to_string();
    let load_text = format!("Crawler.load(e, [==[{text}]==])");
    let steps = [
        "",
        "Crawler.load(e, 'not a save at all')",
        "Crawler.load(e, 42)",
        load_text.as_str(),
    ];
    let second = tempfile::tempdir().unwrap();
    let mut rt = start(second.path(), serde_json::json!({}), &plan(&steps));
    rt.step(&[]);
    let fresh = state(&rt);
    rt.step(&[]);
    rt.step(&[]);
    let said = logged(&mut rt, LogLevel::Warn);
    assert!(
        said.iter()
            .any(|m| m.contains("Crawler.load: the save's text is not JSON")),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|m| m.contains("plan.lua:") && m.contains("its JSON text, got save = 42")),
        "{said:?}"
    );
    assert_eq!(state(&rt)["x"], fresh["x"]);
    rt.step(&[]);
    rt.step(&[]);
    assert!(logged(&mut rt, LogLevel::Warn).is_empty());
    let loaded = state(&rt);
    assert_eq!(loaded["save"], saved["save"]);
    assert_eq!(loaded["x"], saved["x"]);
}

#[test]
fn search_swap_and_the_new_events_run_through_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let levels = serde_json::json!([{
        "name": "Hidden",
        "map": ["########", "#<.SD.>#", "########"],
        "items": [{ "at": [2, 1], "loot": "key:brass", "art": "i_key" }],
        "start": [2, 1], "facing": "west"
    }]);
    let steps = [
        "Crawler.use(e)",
        "Crawler.turn(e, 2)",
        "Crawler.search(e)",
        "crawl_search(e)",
        "Crawler.swap(e, 1, 2)",
        "Crawler.swap(e, 1, 3)",
        "local ok, err = pcall(function() Crawler.swap(e, 1, 5) end) Log.warn(tostring(err))",
        "Crawler.use(e) Crawler.walk(e, 0, 1) Crawler.walk(e, 0, 1)",
    ];
    project(dir.path(), &levels, serde_json::json!({}), &plan(&steps));
    std::fs::write(
        dir.path().join("data/crawl_crawlers.json"),
        r#"[{ "name": "Vess", "hp": 12 }, { "name": "Oru", "hp": 9 }]"#,
    )
    .unwrap();
    let mut rt = Runtime::new(dir.path(), &[&CrawlerPackage], Options::default())
        .unwrap_or_else(|p| panic!("{p:#?}"));
    let what = |rt: &Runtime| bag(rt, "CrawlEvents")["events"].clone();

    rt.step(&[]);
    assert_eq!(events(&rt), ["loot"]);
    assert_eq!(what(&rt)[0]["from"], "floor");
    assert_eq!(state(&rt)["keyring"], serde_json::json!(["brass"]));
    assert!(state(&rt)["underfoot"].is_null());
    rt.step(&[]);
    assert_eq!(state(&rt)["ahead"], "#", "the secret door looks like rock");
    rt.step(&[]);
    assert_eq!(events(&rt), ["found"]);
    assert_eq!(
        (&what(&rt)[0]["x"], &what(&rt)[0]["y"]),
        (&3.into(), &1.into())
    );
    assert_eq!(state(&rt)["ahead"], "+");
    rt.step(&[]);
    assert_eq!(events(&rt), ["nothing"], "nothing more to find");
    let tick = state(&rt)["tick"].clone();
    rt.step(&[]);
    assert_eq!(events(&rt), ["swapped"]);
    let s = state(&rt);
    assert_eq!((&s["party"][0]["name"], &s["tick"]), (&"Oru".into(), &tick));
    rt.step(&[]);
    assert!(events(&rt).is_empty());
    let said = logged(&mut rt, LogLevel::Warn);
    assert!(
        said.iter()
            .any(|m| m.contains("Crawler.swap: b = 3 is not a slot of the party (1 to 2)")),
        "{said:#?}"
    );
    rt.step(&[]);
    let said = logged(&mut rt, LogLevel::Warn);
    assert!(
        said.iter()
            .any(|m| m.contains("plan.lua:") && m.contains("Crawler.swap: argument 3 (b)")),
        "a slot past four is refused at the call: {said:#?}"
    );
    rt.step(&[]);
    assert_eq!(events(&rt), ["door", "dark"]);
    assert_eq!(state(&rt)["in_dark"], true);
    // The order is in the save.
    assert_eq!(state(&rt)["save"]["order"], serde_json::json!([1, 0]));
}
