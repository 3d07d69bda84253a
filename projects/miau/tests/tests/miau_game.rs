//! Miau (`projects/miau`) played through its scenes headless: each shipped teaching proof, a
//! Clockwork level and a Crossword level from the title to the win, by the input files in
//! `tests/inputs/` (made from the solver's routes, and checked to be them); goldens of the
//! title, INDEX and a level mid-play are taken on the way.

use std::path::{Path, PathBuf};

use jengine_miau::Action;
use jengine_testkit::{Event, Game, InputScript, Options, Phase, inputs, key_presses_json};
use miau_tests::{
    bag, catalog_ids, key_of, outcome_serial, paste, project, read_back, route, to_workshop,
};

/// The packs as INDEX lists them: core first, then the shipped files by name.
const PACKS: [&str; 5] = [
    "core",
    "clockwork",
    "garden-basics",
    "word-lab",
    "crossword",
];

/// The proofs played to the win: (pack, level index). Crossword's is Pass it on, from a pack
/// in a subfolder of `mods/`.
const PROOFS: [(&str, usize); 11] = [
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
    ("crossword", 4),
];

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
    key_presses_json(&keys)
}

fn input_path(pack_id: &str, level: usize) -> PathBuf {
    project().join(format!("tests/inputs/{pack_id}_{}.json", level + 1))
}

/// Miau running headless; a frame that differs from its golden is written under the target
/// folder's scratch space.
fn runtime(options: Options) -> Game {
    miau_tests::open(
        options,
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden"),
    )
}

/// Plays one proof's input file from the title and returns the game at the end. The file is
/// checked to be the solver's route first (`JENGINE_BLESS=1` rewrites it).
fn play_proof(pack_id: &str, level: usize, shots: bool) -> Game {
    let actions = route(pack_id, level);
    let json = input_json(pack_id, level, &actions);
    let path = input_path(pack_id, level);
    inputs::assert_kept(&path, &json);
    let mut input = InputScript::parse(&json).unwrap();
    let mut rt = runtime(Options::default());
    let last: u64 = 10 + 12 + 12 + EVERY * (actions.len() as u64 + 8 + level as u64) + 40;
    let mut won_at = None;
    for _ in 0..last {
        let frame = rt.rt.frame();
        let events: Vec<Event> = input.due(frame);
        rt.step(&events);
        if shots && rt.scene() == "index" && frame == 20 {
            rt.golden("miau_index");
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
    assert_eq!(rt.text("won_title"), "Solved!");
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
    rt.settle(50);
    rt.golden("miau_title");
    play_proof("core", 0, true);
}

/// A Clockwork level mid-play (emoji, a flipped cat, sentence bars across and down, the rules
/// beside the board), then its win bursting.
#[test]
fn a_level_mid_play_and_its_win_look_right() {
    let actions = route("clockwork", 0);
    let mut rt = runtime(Options::default());
    rt.settle(3);
    rt.key("enter");
    rt.key("down");
    rt.key("right");
    rt.key("enter");
    rt.settle(3);
    let (last, before) = actions.split_last().expect("a route");
    for &a in &before[..2.min(before.len())] {
        rt.key(key_of(a));
    }
    rt.settle(20);
    rt.golden("miau_play");
    for &a in &before[2.min(before.len())..] {
        rt.key(key_of(a));
    }
    rt.key(key_of(*last));
    assert_eq!(bag(&rt)["won"], true);
    rt.settle(8);
    rt.golden("miau_won");
}

/// Crossword's Pass it on one move before the win: the flag's WIN read twice, across in
/// `FLAG IS WIN` and down in `ROCK IS WIN`, with a bar under the one and beside the other.
#[test]
fn a_shared_word_reads_across_and_down_in_play() {
    let level = 4;
    let actions = route("crossword", level);
    let mut rt = runtime(Options::default());
    miau_tests::to_level(&mut rt, "crossword", level);
    assert_eq!(bag(&rt)["playing"]["level"], "pass-it-on");
    let (last, before) = actions.split_last().expect("a route");
    for &a in before {
        rt.key(key_of(a));
    }
    let b = bag(&rt);
    let rules: Vec<&str> = b["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r.as_str())
        .collect();
    assert!(
        rules.contains(&"FLAG IS WIN") && rules.contains(&"ROCK IS WIN"),
        "{rules:?}"
    );
    let spans: Vec<(&str, &str)> = b["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["axis"].as_str().unwrap(), s["text"].as_str().unwrap()))
        .collect();
    assert!(spans.contains(&("h", "FLAG IS WIN")), "{spans:?}");
    assert!(spans.contains(&("v", "ROCK IS WIN")), "{spans:?}");
    rt.settle(20);
    rt.golden("miau_crossword");
    rt.key(key_of(*last));
    assert_eq!(bag(&rt)["won"], true);
}

const HELLO: &str = r#"// A small pack, as a player would paste it.
module.exports = {
  manifest: { id: 'hello-miau', name: 'Hello Miau', version: '1.0.0' },
  palette: { MIAU: { glyph: '🐈', faces: 'left' }, FLAG: '🚩', SHUT: '🚪' },
  levels: [{
    id: 'intro', title: 'Hello', width: 6, height: 4,
    objects: [
      { kind: 'word', text: 'MIAU', x: 0, y: 0 }, { kind: 'word', text: 'IS', x: 1, y: 0 },
      { kind: 'word', text: 'YOU', x: 2, y: 0 }, { kind: 'word', text: 'FLAG', x: 0, y: 3 },
      { kind: 'word', text: 'IS', x: 1, y: 3 }, { kind: 'word', text: 'WIN', x: 2, y: 3 },
      { kind: 'word', text: 'SHUT', x: 5, y: 0 },
      { kind: 'object', noun: 'MIAU', x: 1, y: 1 }, { kind: 'object', noun: 'FLAG', x: 4, y: 1 },
    ],
  }],
};
"#;

const BROKEN: &str = r#"{ "manifest": { "id": "Bad Id", "name": "", "version": "one" },
  "levels": [{ "id": "a", "width": 3, "height": 3, "objects": [
    { "kind": "word", "text": "CAT", "x": 9, "y": 0 }, { "kind": "thing", "x": 0, "y": 0 } ] }] }"#;

fn with_data(dir: &Path) -> Options {
    Options {
        save_dir: Some(dir.to_path_buf()),
        ..Options::default()
    }
}

#[test]
fn a_bad_pack_pasted_in_the_workshop_shows_every_error_with_its_path() {
    let mut rt = runtime(Options::default());
    to_workshop(&mut rt);
    paste(&mut rt, BROKEN);
    assert_eq!(
        rt.scene(),
        "workshop",
        "a bad pack does not leave the Workshop"
    );
    let report = rt.text("report");
    for path in [
        "manifest.id",
        "manifest.name",
        "manifest.version",
        "levels[0].objects[0].x",
        "levels[0].objects[1].kind",
    ] {
        assert!(
            report.contains(path),
            "{path} missing from the report:\n{report}"
        );
    }
    assert!(rt.text("message").contains("problems; nothing was changed"));
    assert_eq!(catalog_ids(&rt).len(), 5);
    rt.golden("miau_workshop_errors");
}

/// A pasted script that never ends by itself: the game keeps drawing frames while it runs, and
/// the Workshop says it ran too long.
#[test]
fn a_runaway_pasted_pack_does_not_stop_the_game() {
    let mut rt = runtime(Options::default());
    to_workshop(&mut rt);
    let frames = rt.rt.frame();
    let running = paste(
        &mut rt,
        "// a pack that never returns\nmodule.exports = {};\nfor (;;) {}\n",
    );
    assert!(
        running >= 2,
        "frames went on while the script ran: {running}"
    );
    assert!(rt.rt.frame() > frames + running as u64);
    assert_eq!(rt.scene(), "workshop");
    assert!(
        rt.text("message").contains("ran longer"),
        "{}",
        rt.text("message")
    );
    assert_eq!(bag(&rt)["importing"], false);
    assert_eq!(catalog_ids(&rt).len(), 5);
}

#[test]
fn a_pack_is_imported_kept_played_exported_shared_and_removed() {
    let data = tempfile::tempdir().unwrap();
    let mut rt = runtime(with_data(data.path()));
    to_workshop(&mut rt);
    paste(&mut rt, HELLO);
    assert_eq!(rt.scene(), "gift", "a good pack is previewed");
    rt.settle(2);
    assert_eq!(rt.text("name"), "Hello Miau");
    assert!(rt.text("glyphs").contains('🐈'));
    assert!(rt.text("notes").contains("SHUT"), "{}", rt.text("notes"));
    assert_eq!(catalog_ids(&rt).len(), 5, "the preview installed nothing");
    rt.golden("miau_gift");
    rt.key("enter");
    rt.settle(3);
    assert_eq!(rt.scene(), "play");
    assert_eq!(bag(&rt)["playing"]["pack"], "hello-miau");
    // Kept as data in the player's folder, and there after a restart.
    assert!(data.path().join("miau/packs/hello-miau.json").is_file());
    let mut again = runtime(with_data(data.path()));
    again.settle(2);
    assert!(catalog_ids(&again).contains(&"hello-miau".to_string()));
    drop(again);
    // Win it: right three times walks the cat onto the flag.
    for _ in 0..3 {
        rt.key("right");
    }
    assert_eq!(bag(&rt)["won"], true);
    // Back to the Workshop by way of INDEX.
    rt.key("escape");
    rt.key("w");
    assert_eq!(rt.scene(), "workshop");
    rt.key("tab");
    // The list is the catalog's order: down from the first pack to the one just kept.
    let at = catalog_ids(&rt)
        .iter()
        .position(|id| id == "hello-miau")
        .expect("kept");
    for _ in 0..at {
        rt.key("down");
    }
    rt.key("e");
    let exported = data.path().join("miau/exports/hello-miau.cjs");
    assert!(exported.is_file(), "{}", rt.text("message"));
    rt.key("s");
    let link = rt.clipboard().expect("the link was copied").to_string();
    assert!(link.starts_with("miau://play#pack=1."), "{link}");
    rt.key("x");
    assert!(rt.text("message").contains("Press X again"));
    rt.key("x");
    assert!(!catalog_ids(&rt).contains(&"hello-miau".to_string()));
    assert!(!data.path().join("miau/packs/hello-miau.json").exists());
    // The export is a pack file the Workshop reads back by its path.
    rt.key("tab");
    for c in exported.display().to_string().chars() {
        rt.step(&[Event::Text {
            text: c.to_string(),
        }]);
    }
    let before = outcome_serial(&rt);
    rt.key("enter");
    read_back(&mut rt, before);
    assert_eq!(rt.scene(), "gift");
    rt.key("escape");
    rt.settle(2);
    assert_eq!(rt.scene(), "workshop");
    assert!(
        !catalog_ids(&rt).contains(&"hello-miau".to_string()),
        "left, not kept"
    );
}

fn hello_link() -> String {
    let checked =
        jengine_miau::source::load(HELLO, jengine_miau::source::SourceKind::CommonJs, "h.cjs")
            .expect("loads");
    jengine_miau::share::pack_link(&checked.pack, jengine_miau::share::DEFAULT_LINK_BASE)
        .expect("link")
}

#[test]
fn a_gift_link_at_launch_is_previewed_and_kept() {
    let mut rt = at_the_gift();
    rt.settle(2);
    assert!(
        rt.text("meta").contains("from a share link"),
        "{}",
        rt.text("meta")
    );
    rt.key("enter");
    rt.settle(3);
    assert_eq!(rt.scene(), "play");
    assert_eq!(bag(&rt)["playing"]["pack"], "hello-miau");
    // Back on the title, the gift does not open again.
    rt.key("escape");
    rt.key("escape");
    rt.settle(4);
    assert_eq!(rt.scene(), "title");
}

/// Miau started with the hello pack's share link as a gift: on the Gift screen.
fn at_the_gift() -> Game {
    let options = Options {
        args: vec!["--gift".into(), hello_link()],
        ..Options::default()
    };
    let mut rt = runtime(options);
    rt.settle(6);
    assert_eq!(rt.scene(), "gift");
    rt
}

#[test]
fn a_gift_left_changes_nothing() {
    let mut rt = at_the_gift();
    rt.key("escape");
    rt.settle(3);
    assert_eq!(rt.scene(), "title");
    assert_eq!(catalog_ids(&rt).len(), 5);
    assert!(bag(&rt)["pending"].is_null());
}

#[test]
fn a_gift_pasted_on_the_title_opens_and_a_bad_one_is_said() {
    let mut rt = runtime(Options::default());
    rt.settle(3);
    paste(&mut rt, "miau://play#pack=1.not-a-pack");
    assert_eq!(rt.scene(), "title");
    assert!(
        rt.text("status").contains("share link"),
        "{}",
        rt.text("status")
    );
    paste(&mut rt, &hello_link());
    rt.settle(2);
    assert_eq!(rt.scene(), "gift");
}

#[test]
fn progress_is_kept_between_runs() {
    let data = tempfile::tempdir().unwrap();
    let mut rt = runtime(with_data(data.path()));
    rt.settle(3);
    rt.key("enter"); // Play
    rt.key("right");
    rt.key("enter"); // First steps
    for _ in 0..4 {
        rt.key("right");
    }
    assert_eq!(bag(&rt)["won"], true);
    drop(rt);
    let mut rt = runtime(with_data(data.path()));
    rt.settle(3);
    assert_eq!(bag(&rt)["catalog"][0]["levels"][0]["solved"], true);
    rt.key("enter");
    rt.settle(2);
    assert!(rt.text("pack_1").contains("1/3"), "{}", rt.text("pack_1"));
}

#[test]
fn undo_and_restart_through_the_keys() {
    let mut rt = runtime(Options::default());
    rt.settle(3);
    rt.key("enter");
    rt.key("right");
    rt.key("enter");
    rt.key("right");
    rt.key("d");
    assert_eq!(bag(&rt)["moves"], 2);
    rt.key("z");
    assert_eq!(bag(&rt)["moves"], 1);
    rt.key("r");
    assert_eq!(bag(&rt)["moves"], 0);
    // A swipe to the right moves too.
    let at = |x: f64, phase| Event::Pointer { phase, x, y: 0.0 };
    rt.step(&[at(-2.0, Phase::Press)]);
    rt.step(&[at(0.0, Phase::Release)]);
    rt.settle(2);
    assert_eq!(bag(&rt)["moves"], 1);
}

/// Where the entity named `name` is, and its sprite's tint.
fn placed(rt: &Game, name: &str) -> ([f32; 2], [f32; 4]) {
    let tint = rt
        .world
        .entities
        .get::<&jengine::Sprite>(rt.entity(name))
        .map(|s| s.tint.0)
        .unwrap_or_default();
    (rt.centre(name), tint)
}

fn pointer(rt: &mut Game, phase: Phase, at: [f32; 2]) {
    rt.step(&[Event::Pointer {
        phase,
        x: at[0] as f64,
        y: at[1] as f64,
    }]);
}

/// A click on the button named `name` as a mouse makes it: the pointer comes over the button
/// (a frame, which lights it), then presses and releases on it and the game settles.
fn click(rt: &mut Game, name: &str) {
    let at = rt.centre(name);
    pointer(rt, Phase::Hover, at);
    rt.click(name);
}

/// From the title to the first level of the core pack.
fn to_first_steps(rt: &mut Game) {
    rt.settle(3);
    rt.key("enter");
    rt.key("right");
    rt.key("enter");
    assert_eq!(rt.scene(), "play");
    assert_eq!(bag(rt)["playing"]["level"], "first-steps");
}

/// Refusals answer at once: a blocked move, an undo with nothing to undo and a move after the
/// win each put a line under the board the frame after the key, and change nothing.
#[test]
fn refused_moves_and_undos_say_why_at_once() {
    let mut rt = runtime(Options::default());
    to_first_steps(&mut rt);
    rt.step(&[Event::Key {
        key: "z".into(),
        down: true,
    }]);
    rt.step(&[]);
    assert_eq!(bag(&rt)["refused"]["reason"], "nothing to undo");
    assert_eq!(rt.text("refusal"), "Nothing to undo.");
    rt.key("left"); // to the left edge
    rt.key("left"); // and into it
    assert_eq!(bag(&rt)["refused"]["reason"], "blocked");
    assert!(
        rt.text("refusal").starts_with("Blocked"),
        "{}",
        rt.text("refusal")
    );
    assert_eq!(bag(&rt)["moves"], 1, "a blocked move is not counted");
    assert_eq!(
        rt.text("hint"),
        "",
        "the refusal stands where the hint does"
    );
    // It fades after a moment, and the hint line comes back.
    rt.settle(150);
    assert_eq!(rt.text("refusal"), "");
    assert_eq!(rt.text("hint"), "H shows a hint.");
    for _ in 0..5 {
        rt.key("right");
    }
    assert_eq!(bag(&rt)["won"], true);
    rt.key("right");
    assert_eq!(bag(&rt)["refused"]["reason"], "already won");
    assert!(rt.text("refusal").contains("Already solved"));
}

/// Undo, restart, hint and INDEX are buttons as well as keys; a press lights and sinks a
/// button, and a press dragged off it does nothing.
#[test]
fn play_is_played_by_mouse_too() {
    let mut rt = runtime(Options::default());
    to_first_steps(&mut rt);
    rt.key("right");
    rt.key("right");
    assert_eq!(bag(&rt)["moves"], 2);
    click(&mut rt, "btn_undo");
    assert_eq!(bag(&rt)["moves"], 1);
    click(&mut rt, "btn_restart");
    assert_eq!(bag(&rt)["moves"], 0);
    click(&mut rt, "btn_undo");
    click(&mut rt, "btn_undo");
    click(&mut rt, "btn_undo");
    assert_eq!(bag(&rt)["refused"]["reason"], "nothing to undo");
    assert_eq!(rt.text("refusal"), "Nothing to undo.");
    rt.settle(150);
    click(&mut rt, "btn_hint");
    assert!(
        rt.text("hint").contains("Walk to the flag"),
        "{}",
        rt.text("hint")
    );
    assert_eq!(rt.text("btn_hint_label"), "H  Hide hint");
    // Held down, the button sinks and darkens; let go elsewhere, it comes back and does nothing.
    pointer(&mut rt, Phase::Hover, [0.0, 0.0]);
    let (home, idle) = placed(&rt, "btn_hint");
    pointer(&mut rt, Phase::Hover, home);
    assert_ne!(placed(&rt, "btn_hint").1, idle, "hover lights it");
    pointer(&mut rt, Phase::Press, home);
    let (sunk, tint) = placed(&rt, "btn_hint");
    assert!(sunk[1] < home[1], "a press sinks it");
    assert!(tint[0] < idle[0], "a press darkens it");
    pointer(&mut rt, Phase::Drag, [0.0, 0.0]);
    assert_eq!(
        placed(&rt, "btn_hint"),
        (home, idle),
        "dragged off, it rises"
    );
    pointer(&mut rt, Phase::Release, [0.0, 0.0]);
    assert_eq!(rt.text("btn_hint_label"), "H  Hide hint", "no click");
    click(&mut rt, "btn_back");
    assert_eq!(rt.scene(), "index");
    // INDEX's buttons light on hover too.
    let (at, idle) = placed(&rt, "btn_workshop");
    pointer(&mut rt, Phase::Hover, at);
    assert_ne!(placed(&rt, "btn_workshop").1, idle);
    click(&mut rt, "btn_workshop");
    assert_eq!(rt.scene(), "workshop");
}

/// The Gift's choices are buttons: keep, and keep both when the id is taken.
#[test]
fn a_gift_is_kept_by_mouse() {
    let mut rt = at_the_gift();
    click(&mut rt, "btn_keep");
    rt.settle(2);
    assert_eq!(rt.scene(), "play");
    assert_eq!(bag(&rt)["playing"]["pack"], "hello-miau");
    rt.key("escape");
    rt.key("escape");
    rt.settle(2);
    paste(&mut rt, &hello_link());
    rt.settle(2);
    assert_eq!(rt.scene(), "gift");
    assert_eq!(rt.text("btn_both_label"), "B  Keep both");
    click(&mut rt, "btn_both");
    rt.settle(2);
    assert_eq!(rt.scene(), "play");
    assert_eq!(bag(&rt)["playing"]["pack"], "hello-miau-fork");
}

#[test]
fn a_gift_is_left_by_mouse() {
    let mut rt = at_the_gift();
    click(&mut rt, "btn_leave");
    rt.settle(2);
    assert_eq!(rt.scene(), "title");
    assert_eq!(catalog_ids(&rt).len(), 5);
}

/// The Workshop's Share, Export, Remove and back are buttons as well as keys.
#[test]
fn the_workshop_is_worked_by_mouse() {
    let data = tempfile::tempdir().unwrap();
    let mut rt = runtime(with_data(data.path()));
    to_workshop(&mut rt);
    rt.key("tab"); // the first pack: core
    click(&mut rt, "btn_share");
    let link = rt.clipboard().expect("the link was copied").to_string();
    assert!(link.starts_with("miau://play#pack=1."), "{link}");
    click(&mut rt, "btn_export");
    assert!(
        data.path().join("miau/exports/core.cjs").is_file(),
        "{}",
        rt.text("message")
    );
    click(&mut rt, "btn_remove");
    assert!(rt.text("message").contains("Press X again"));
    click(&mut rt, "btn_remove");
    assert!(
        rt.text("message").contains("ships with the game"),
        "{}",
        rt.text("message")
    );
    click(&mut rt, "btn_back");
    assert_eq!(rt.scene(), "title");
}

/// A move is heard as a step, a move on a won level as the refusal, and the winning move as
/// the win: the first proof played by keys from the title.
#[test]
fn a_move_steps_a_refused_move_says_uh_uh_and_a_win_is_heard() {
    let actions = route("core", 0);
    let mut rt = runtime(Options::default());
    rt.settle(3);
    rt.key("enter"); // Title: Play
    rt.key("right"); // INDEX: the core pack's levels
    rt.key("enter"); // its first level
    rt.settle(3);
    assert_eq!(rt.scene(), "play");
    let (last, before) = actions.split_last().expect("a route");
    let mut stepped = false;
    for &a in before {
        let from = rt.heard_count();
        rt.key(key_of(a));
        let heard = rt.heard_since(from);
        assert!(
            heard.iter().any(|n| n == "step.wav" || n == "push.wav"),
            "{a:?} was heard as {heard:?}"
        );
        if bag(&rt)["last"] == "move" {
            stepped |= heard.iter().any(|n| n == "step.wav");
        }
    }
    assert!(stepped, "a move that pushed nothing was heard as a step");
    let from = rt.heard_count();
    rt.key(key_of(*last));
    assert_eq!(bag(&rt)["won"], true);
    assert!(rt.heard_since(from).contains(&"win.wav".to_string()));
    let from = rt.heard_count();
    rt.key(key_of(*last));
    assert_eq!(bag(&rt)["refused"]["reason"], "already won");
    assert_eq!(rt.heard_since(from), ["refuse.wav"]);
}
