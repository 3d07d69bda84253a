//! Miau (`projects/miau`) played through its scenes headless: each shipped teaching proof and
//! a Clockwork level from the title to the win, by the input files in `tests/inputs/` (made
//! from the solver's routes, and checked to be them); goldens of the title, INDEX and a level
//! mid-play are taken on the way.

use std::path::{Path, PathBuf};

use jengine_miau::worlds::{self, CheckOptions};
use jengine_miau::{Action, MiauPackage};
use jengine_tool::input::{Event, InputScript};
use jengine_tool::{Options, Runtime};

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects/miau")
}

/// The packs as INDEX lists them: core first, then the shipped files by name.
const PACKS: [&str; 4] = ["core", "clockwork", "garden-basics", "word-lab"];

/// The proofs played to the win: (pack, level index).
const PROOFS: [(&str, usize); 10] = [
    ("core", 0),
    ("core", 1),
    ("core", 2),
    ("garden-basics", 0),
    ("garden-basics", 1),
    ("garden-basics", 2),
    ("word-lab", 0),
    ("word-lab", 1),
    ("word-lab", 2),
    ("clockwork", 0),
];

fn pack(id: &str) -> jengine_miau::Pack {
    if id == "core" {
        return worlds::core().expect("core").pack;
    }
    let file = worlds::pack_files(&project().join("mods"))
        .expect("mods")
        .into_iter()
        .find(|f| f.file_stem().and_then(|s| s.to_str()) == Some(id))
        .expect("the pack's file");
    jengine_miau::source::load_file(&file).expect("loads").pack
}

fn route(pack_id: &str, level: usize) -> Vec<Action> {
    let pack = pack(pack_id);
    let report = worlds::solve_level(&pack.levels[level], &CheckOptions::default()).expect("proof");
    match report.outcome {
        jengine_miau::solve::Outcome::Solved(actions) => actions,
        other => panic!("{pack_id} level {level}: {other:?}"),
    }
}

fn key_of(a: Action) -> &'static str {
    match a {
        Action::Up => "up",
        Action::Down => "down",
        Action::Left => "left",
        Action::Right => "right",
        Action::Wait => "space",
    }
}

/// Frames between key presses: a command's result reaches the scripts a frame later, and a
/// slide takes a few more; four keeps every press on a settled board.
const EVERY: u64 = 4;

/// The key presses that go from the title through INDEX to the level and play `route`.
fn input_json(pack_id: &str, level: usize, route: &[Action]) -> String {
    let mut keys: Vec<(u64, &str)> = Vec::new();
    let mut frame = 10;
    let mut press = |frame: &mut u64, key: &'static str, settle: u64| {
        keys.push((*frame, key));
        *frame += settle;
    };
    press(&mut frame, "enter", 12); // Title: Play
    let at = PACKS.iter().position(|p| *p == pack_id).expect("listed");
    for _ in 0..at {
        press(&mut frame, "down", EVERY);
    }
    press(&mut frame, "right", EVERY);
    for _ in 0..level {
        press(&mut frame, "down", EVERY);
    }
    press(&mut frame, "enter", 12); // INDEX: play the level
    for &a in route {
        press(&mut frame, key_of(a), EVERY);
    }
    let mut lines = Vec::new();
    for (f, key) in keys {
        lines.push(format!(
            r#"  {{ "frame": {f}, "type": "key", "key": "{key}", "down": true }}"#
        ));
        lines.push(format!(
            r#"  {{ "frame": {}, "type": "key", "key": "{key}", "down": false }}"#,
            f + 1
        ));
    }
    format!("[\n{}\n]\n", lines.join(",\n"))
}

fn input_path(pack_id: &str, level: usize) -> PathBuf {
    project().join(format!("tests/inputs/{pack_id}_{}.json", level + 1))
}

pub fn runtime(options: Options) -> Runtime {
    Runtime::new(&project(), &[&MiauPackage], options).unwrap_or_else(|p| panic!("{p:#?}"))
}

fn bag(rt: &Runtime) -> serde_json::Value {
    // Null until the scene's first frame has run the package's systems.
    let bags = rt.bags();
    bags.as_object()
        .and_then(|o| o.values().find_map(|v| v.get("Miau")))
        .cloned()
        .unwrap_or_default()
}

fn text(rt: &Runtime, name: &str) -> String {
    let e = rt.find(name).unwrap_or_else(|| panic!("no entity {name}"));
    rt.world
        .entities
        .get::<&jengine::Text>(e)
        .unwrap()
        .text
        .clone()
}

fn golden(rt: &Runtime, name: &str) {
    let mut renderer = jengine_tool::render::Renderer::new(&project().join("assets"));
    renderer.preload(&rt.world);
    let frame = renderer.render(&rt.world, 1280, 720);
    let warnings = renderer.take_warnings();
    assert!(warnings.is_empty(), "{warnings:?}");
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    if let Err(e) = jengine_tool::golden::check(&goldens, &out, name, &frame) {
        panic!("{e}");
    }
}

/// Plays one proof's input file from the title and returns the runtime at the end.
fn play_proof(pack_id: &str, level: usize, shots: bool) -> Runtime {
    let actions = route(pack_id, level);
    let json = input_json(pack_id, level, &actions);
    let path = input_path(pack_id, level);
    if std::env::var_os("MIAU_WRITE_INPUT").is_some() {
        std::fs::write(&path, &json).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == json,
        "{} is not the solver's route; run with MIAU_WRITE_INPUT=1",
        path.display()
    );
    let mut input = InputScript::parse(&kept).unwrap();
    let mut rt = runtime(Options::default());
    let last: u64 = 10 + 12 + 12 + EVERY * (actions.len() as u64 + 8 + level as u64) + 40;
    let mut won_at = None;
    for _ in 0..last {
        let frame = rt.frame();
        let events: Vec<Event> = input.due(frame);
        rt.step(&events);
        if shots && rt.scene() == "index" && frame == 20 {
            golden(&rt, "miau_index");
        }
        if rt.scene() == "play" && won_at.is_none() && bag(&rt)["won"] == true {
            won_at = Some(frame);
        }
    }
    assert_eq!(rt.scene(), "play");
    let b = bag(&rt);
    assert_eq!(b["won"], true, "{pack_id} level {level}: {b}");
    assert_eq!(b["playing"]["pack"], pack_id);
    assert_eq!(b["playing"]["number"], level + 1);
    assert_eq!(text(&rt, "won_title"), "Solved!");
    let solved = b["catalog"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pack_id)
        .unwrap()["levels"][level]["solved"]
        .clone();
    assert_eq!(solved, true, "INDEX marks it solved");
    rt
}

#[test]
fn every_teaching_proof_is_won_through_the_game() {
    for (pack_id, level) in PROOFS {
        play_proof(pack_id, level, false);
    }
}

#[test]
fn the_title_and_index_look_right() {
    let mut rt = runtime(Options::default());
    for _ in 0..50 {
        rt.step(&[]);
    }
    golden(&rt, "miau_title");
    play_proof("core", 0, true);
}
