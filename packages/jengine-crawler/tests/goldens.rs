//! A golden image of each cell kind in the picture, drawn through Umber Warren's committed
//! textures: for every case a tiny floor with that thing one or two cells ahead of the party,
//! run on the engine headless for a frame or two and rendered at 480x400, then compared with
//! `tests/golden/<case>.png` (`JENGINE_BLESS=1` rewrites them after a change was looked at).
//!
//! Every case stands in the same corridor running north, the party at (3, 4) facing north:
//! the floor thing goes in (3, 3), one cell ahead; the wall thing in (3, 2), two cells ahead,
//! with a short stretch of floor (3, 1) behind it; stairs down wait behind the party.

mod common;

use std::path::{Path, PathBuf};

use jengine_crawler::CrawlerPackage;
use jengine_testkit::{Game, Options, Runtime};

/// The picture's size: Umber Warren's view, about 7 by 6 world units, fills it.
const SIZE: (u32, u32) = (480, 400);

/// The textures Umber Warren's sheet names.
const TEXTURES: [&str; 4] = ["crawler.png", "monsters.png", "walls.png", "decor.png"];

fn warren() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects/arcade-classics")
}

/// Umber Warren's `crawl_game` component as its scene has it: its frame, view origin and
/// sheet (art, wall sets, sizes) are what every case is drawn with.
fn warren_game() -> serde_json::Value {
    let text = std::fs::read_to_string(warren().join("assets/scenes/warren.scene")).unwrap();
    let scene: serde_json::Value = serde_json::from_str(&text).unwrap();
    scene["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|e| e.get("crawl_game"))
        .expect("warren.scene has a crawl_game")
        .clone()
}

/// One picture: the corridor with `wall` in (3, 2) and `floor` in (3, 3), extra row fields,
/// and the calls it makes (one a frame) before the picture is taken.
struct Case {
    name: &'static str,
    wall: char,
    floor: char,
    row: serde_json::Value,
    calls: &'static [&'static str],
    /// A case whose picture this one must match pixel for pixel, in place of a golden.
    like: Option<&'static str>,
}

impl Case {
    fn new(name: &'static str) -> Case {
        Case {
            name,
            wall: '.',
            floor: '.',
            row: serde_json::json!({}),
            calls: &[],
            like: None,
        }
    }
    fn wall(mut self, c: char) -> Case {
        self.wall = c;
        self
    }
    fn floor(mut self, c: char) -> Case {
        self.floor = c;
        self
    }
    fn row(mut self, row: serde_json::Value) -> Case {
        self.row = row;
        self
    }
    /// Plays `calls` (one a frame) before the picture is taken.
    fn calls(mut self, calls: &'static [&'static str]) -> Case {
        self.calls = calls;
        self
    }

    /// Checks this picture against `other`'s rather than a golden of its own.
    fn like(mut self, other: &'static str) -> Case {
        self.like = Some(other);
        self
    }

    fn level(&self) -> serde_json::Value {
        let map = [
            "#######".to_string(),
            "###.###".to_string(),
            format!("###{}###", self.wall),
            format!("###{}###", self.floor),
            "###.###".to_string(),
            "###.###".to_string(),
            "###>###".to_string(),
            "#######".to_string(),
        ];
        let mut row = serde_json::json!({
            "name": self.name, "map": map, "start": [3, 4], "facing": "north",
            "monsters": ["rat"]
        });
        for (k, v) in self.row.as_object().unwrap() {
            row[k] = v.clone();
        }
        serde_json::json!([row])
    }
}

/// Writes the project for `case` into `dir` (the textures are there already) and runs it.
fn run(dir: &Path, case: &Case) -> Runtime {
    let mut game = warren_game();
    game["tables"] = serde_json::json!({});
    let camera = serde_json::json!({
        "center": [-3.7, 0.85], "size": [7.14, 5.95], "clear": "#140c07"
    });
    let mut plan = String::from("return {\n");
    for call in case.calls {
        plan.push_str(&format!("  function(e) {call} end,\n"));
    }
    plan.push_str("}\n");
    common::write_project(dir, &case.level(), camera, game, &plan);
    Runtime::new(dir, &[&CrawlerPackage], Options::default())
        .unwrap_or_else(|p| panic!("{}: {p:#?}", case.name))
}

/// A step up to the wall thing, a `use` of it, and a step back to where the picture is
/// taken from.
const USE_AND_BACK: &[&str] = &[
    "Crawler.walk(e, 0, 1)",
    "Crawler.use(e)",
    "Crawler.walk(e, 0, -1)",
];

fn cases() -> Vec<Case> {
    vec![
        // A secret door not yet found: the end wall two cells ahead is plain rock, the same
        // as `crawl_wall` would show.
        Case::new("crawl_secret_unfound").wall('S'),
        // A plain end wall: not a pixel differs from the unfound secret door.
        Case::new("crawl_wall")
            .wall('#')
            .like("crawl_secret_unfound"),
        // The same wall once `use` found it: a shut wooden door, arched, stands in the end wall.
        Case::new("crawl_secret_found")
            .wall('S')
            .calls(USE_AND_BACK),
        // A door opened: its arched frame with the leaf swung back against the left jamb, the
        // corridor beyond seen through it.
        Case::new("crawl_open_door").wall('+').calls(USE_AND_BACK),
        // An archway: the same arched doorway with no leaf at all, unlike the opened door.
        Case::new("crawl_arch").wall('A'),
        // Stairs down one cell ahead: a hole in the floor with steps going down into it.
        Case::new("crawl_stairs_down").floor('>'),
        // Stairs up one cell ahead: a flight of steps rising out of the floor, filling the cell.
        Case::new("crawl_stairs_up").floor('<'),
        // A teleporter one cell ahead: a pale star in a ring on the floor.
        Case::new("crawl_teleporter")
            .floor('T')
            .row(serde_json::json!({ "teleports": [{ "at": [3, 3], "to": [3, 5] }] })),
        // A spinner one cell ahead: a faint spiral scratched in the floor.
        Case::new("crawl_spinner")
            .floor('%')
            .row(serde_json::json!({ "spinners": [{ "at": [3, 3], "turn": 2 }] })),
        // A pressure plate one cell ahead: a square outlined in the floor.
        Case::new("crawl_plate")
            .floor('_')
            .row(serde_json::json!({ "plates": [{ "at": [3, 3], "opens": [] }] })),
        // A button in the end wall, out: a square boss with a ring on it.
        Case::new("crawl_button")
            .wall('B')
            .row(serde_json::json!({ "buttons": [{ "at": [3, 2], "opens": [] }] })),
        // The same button pressed: sunk in, an empty dark square.
        Case::new("crawl_button_pressed")
            .wall('B')
            .row(serde_json::json!({ "buttons": [{ "at": [3, 2], "opens": [] }] }))
            .calls(USE_AND_BACK),
        // Coins lying on the floor one cell ahead: a small heap of gold (their item art).
        Case::new("crawl_item").row(serde_json::json!({
            "items": [{ "at": [3, 3], "loot": "gold:5", "art": "i_coins" }]
        })),
        // A red banner on the end wall's face toward the party, and a thin dark crack on the
        // left wall one cell ahead.
        Case::new("crawl_decor").wall('#').row(serde_json::json!({
            "decor": [{ "at": [3, 2], "side": "south", "art": "banner" },
                      { "at": [2, 3], "side": "east", "art": "crack" }]
        })),
        // A dark cell one cell ahead: nothing in it or beyond it is drawn, only gloom.
        Case::new("crawl_dark").floor('D'),
        // A rat in the cell ahead (its art), filling most of the picture.
        Case::new("crawl_monster").floor('M'),
        // The whole corridor in the `roots` wall set: roots hang over the walls and ceiling and
        // cross the floor.
        Case::new("crawl_roots").row(serde_json::json!({ "walls": "roots" })),
    ]
}

#[test]
fn each_cell_kind_is_drawn_as_its_golden_shows() {
    let dir = tempfile::tempdir().unwrap();
    for t in TEXTURES {
        let to = dir.path().join("assets/textures").join(t);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(warren().join("assets/textures").join(t), to).unwrap();
    }
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out = std::env::temp_dir().join("jengine-golden/crawler");
    let cases = cases();
    let mut frames = std::collections::HashMap::new();
    for case in &cases {
        let rt = run(dir.path(), case);
        let mut game = Game::around(rt, dir.path())
            .goldens(&goldens, &out)
            .sized(SIZE);
        // The first frame draws the start; each call takes a frame and the next draws it.
        game.settle(2 + case.calls.len() * 2);
        let problems: Vec<String> = game
            .take_log()
            .into_iter()
            .filter(|l| l.level >= jengine::LogLevel::Warn)
            .map(|l| l.message)
            .collect();
        assert!(problems.is_empty(), "{}: {problems:#?}", case.name);
        let state = game.bags()["crawl"]["CrawlState"].clone();
        assert_eq!(
            (state["x"].clone(), state["y"].clone()),
            (3.into(), 4.into()),
            "{}: the party stands where the picture is taken from",
            case.name
        );
        if cases.iter().any(|c| c.like == Some(case.name)) {
            frames.insert(case.name, game.frame(SIZE).rgba);
        }
        match case.like {
            Some(other) => assert!(
                frames[other] == game.frame(SIZE).rgba,
                "{} is not drawn exactly as {other}",
                case.name
            ),
            None => game.golden(case.name),
        }
    }
}
