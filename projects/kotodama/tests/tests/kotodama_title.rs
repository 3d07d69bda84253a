//! Kotodama's title, word book and settings, run headless through their scripts: how each
//! looks (golden images), and playthroughs fed from the input files under
//! `projects/kotodama/tests/inputs/`, which press the menus as a mouse and a keyboard would.

mod common;
use common::*;

use std::path::Path;

use jengine_kotoba::Dict;
use jengine_tool::input::{Event, InputScript, Phase};
use jengine_tool::{Options, Runtime};
use serde_json::{Value, json};

/// A run of the project from `scene` (the start scene when `None`), with a save folder that
/// holds `save` (an empty save when `None`). The folder lives as long as the run needs it.
fn start(scene: Option<&str>, save: Option<Value>) -> (Runtime, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    if let Some(save) = save {
        std::fs::write(dir.path().join("save.json"), save.to_string()).unwrap();
    }
    let options = Options {
        seed: 1,
        scene: scene.map(str::to_string),
        save_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let rt = Runtime::new(&project(), &jengine_kotoba::packages(), options)
        .unwrap_or_else(|p| panic!("{p:#?}"));
    (rt, dir)
}

fn input(name: &str) -> InputScript {
    let path = project().join("tests/inputs").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    InputScript::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs until frame `to` (counting from 1), feeding `script`'s events on their frames.
fn run_to(rt: &mut Runtime, script: &mut InputScript, to: u64) {
    let frames = to.saturating_sub(rt.frame());
    rt.run(frames, script, |_| {});
}

fn steps(rt: &mut Runtime, n: usize) {
    for _ in 0..n {
        rt.step(&[]);
    }
}

fn key(rt: &mut Runtime, name: &str) {
    rt.step(&[Event::Key {
        key: name.into(),
        down: true,
    }]);
    rt.step(&[Event::Key {
        key: name.into(),
        down: false,
    }]);
}

/// A press and a release on the middle of the entity `name`.
fn tap(rt: &mut Runtime, name: &str) {
    let at = centre(rt, name);
    let (x, y) = (at[0] as f64, at[1] as f64);
    rt.step(&[Event::Pointer {
        phase: Phase::Press,
        x,
        y,
    }]);
    rt.step(&[Event::Pointer {
        phase: Phase::Release,
        x,
        y,
    }]);
}

fn text_colour(rt: &Runtime, name: &str) -> [f32; 4] {
    let e = rt
        .find(name)
        .unwrap_or_else(|| panic!("no entity {name:?}"));
    let t = rt.world.entities.get::<&jengine::Text>(e).unwrap();
    t.color.0
}

/// The gold the focused menu label turns.
const GOLD: [f32; 4] = [0.941, 0.788, 0.416, 1.0];

fn is_gold(rt: &Runtime, name: &str) -> bool {
    text_colour(rt, name)
        .iter()
        .zip(GOLD)
        .all(|(a, b)| (a - b).abs() < 1e-3)
}

/// The word book rows on screen: (reading, written, meaning, count) for each filled row.
fn rows(rt: &Runtime) -> Vec<[String; 4]> {
    (1..=10)
        .map(|i| {
            ["reading", "written", "meaning", "count"].map(|f| text(rt, &format!("row{i}_{f}")))
        })
        .filter(|row| !row[0].is_empty())
        .collect()
}

/// A few words as the puzzle and battle scenes save them: twelve, so the book has two pages.
fn a_few_words() -> Value {
    let words = [
        ("さかな", "魚", "fish", 3),
        ("ことば", "言葉", "word; language", 1),
        ("すいか", "西瓜", "watermelon", 2),
        ("かえる", "蛙/帰る/変える", "frog; to go home; to change", 1),
        ("いす", "椅子", "chair", 5),
        (
            "さす",
            "刺す/指す/差す",
            "to stab; to point; to hold up (an umbrella)",
            1,
        ),
        ("てんとうむし", "天道虫", "ladybird", 1),
        ("らいおん", "ライオン", "lion", 1),
        ("うみ", "海", "sea", 4),
        ("あい", "愛", "love", 1),
        ("ねこ", "猫", "cat", 12),
        ("やま", "山", "mountain", 1),
    ];
    let mut book = serde_json::Map::new();
    for (reading, written, meaning, count) in words {
        book.insert(
            reading.into(),
            json!({ "written": written, "meaning": meaning, "count": count }),
        );
    }
    json!({ "wordbook": book })
}

fn render(rt: &Runtime, width: u32, height: u32) -> jengine_tool::render::Frame {
    let mut renderer = jengine_tool::render::Renderer::new(&project().join("assets"));
    renderer.preload(&rt.world);
    let frame = renderer.render(&rt.world, width, height);
    let problems = renderer.take_warnings();
    assert!(problems.is_empty(), "{problems:#?}");
    frame
}

fn check_golden(rt: &Runtime, name: &str, size: (u32, u32)) {
    let frame = render(rt, size.0, size.1);
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    if let Err(e) = jengine_tool::golden::check(&goldens, &out, name, &frame) {
        panic!("{e}");
    }
}

#[test]
fn the_title_word_book_and_settings_look_as_they_should() {
    // The title with the demo a few words in: the countdown takes three seconds, so at seven
    // the bots have played and their rings are still on the sea.
    let (mut rt, _save) = start(None, None);
    steps(&mut rt, 420);
    assert!(warnings(&mut rt).is_empty());
    check_golden(&rt, "title_demo", (1280, 720));
    check_golden(&rt, "title_demo_half_size", (640, 360));

    let (mut rt, _save) = start(Some("wordbook"), Some(a_few_words()));
    steps(&mut rt, 10);
    assert!(warnings(&mut rt).is_empty());
    check_golden(&rt, "wordbook_a_few_words", (1280, 720));

    let (mut rt, _save) = start(Some("settings"), None);
    steps(&mut rt, 10);
    assert!(warnings(&mut rt).is_empty());
    check_golden(&rt, "settings_keys_and_pointer", (1280, 720));
}

#[test]
fn kotodama_starts_on_the_title_with_the_demo_playing() {
    let (mut rt, _save) = start(None, None);
    assert_eq!(rt.scene(), "title");
    steps(&mut rt, 2);
    let bag = rt.bags()["table"]["kotoba"].clone();
    assert_eq!(bag["mode"], "battle", "{bag:#}");
    assert_eq!(bag["demo"], true, "{bag:#}");
    // Ten seconds on, the bots have made words: the demo plays, it does not just sit there.
    steps(&mut rt, 600);
    let bag = rt.bags()["table"]["kotoba"].clone();
    assert_eq!(bag["demo"], true, "{bag:#}");
    let played = bag["made"].as_array().is_some_and(|m| !m.is_empty())
        || bag["fighters"][0]["words"].as_u64().unwrap_or(0) > 0;
    assert!(played, "{bag:#}");
    // The first item has the focus from the start.
    assert!(is_gold(&rt, "puzzle_label"));
    assert!(warnings(&mut rt).is_empty());
}

#[test]
fn the_pointer_opens_the_word_book_and_escape_comes_back() {
    let (mut rt, _save) = start(None, Some(a_few_words()));
    let mut script = input("title_wordbook.json");

    // Resting on "Word book" lights it.
    run_to(&mut rt, &mut script, 22);
    assert!(is_gold(&rt, "wordbook_label"));
    assert!(!is_gold(&rt, "puzzle_label"));
    assert_eq!(rt.scene(), "title");

    // Pressed and let go over it: the word book, with the saved words in kana order.
    run_to(&mut rt, &mut script, 26);
    assert_eq!(rt.scene(), "wordbook");
    run_to(&mut rt, &mut script, 40);
    let words = Dict::japanese().len();
    assert_eq!(text(&rt, "found"), format!("found 12 of {words} words"));
    let shown = rows(&rt);
    assert_eq!(shown.len(), 10);
    let readings: Vec<&str> = shown.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        readings,
        [
            "あい",
            "いす",
            "うみ",
            "かえる",
            "ことば",
            "さかな",
            "さす",
            "すいか",
            "てんとうむし",
            "ねこ"
        ]
    );
    assert_eq!(shown[5], ["さかな", "魚", "fish", "×3"].map(String::from));
    assert_eq!(text(&rt, "page"), "1 / 2");
    assert_eq!(text(&rt, "empty"), "");

    // Escape: back to the title.
    run_to(&mut rt, &mut script, 62);
    assert_eq!(rt.scene(), "title");
    assert!(warnings(&mut rt).is_empty());
}

#[test]
fn down_and_enter_choose_settings_and_escape_comes_back() {
    let (mut rt, _save) = start(None, None);
    let mut script = input("title_settings.json");
    run_to(&mut rt, &mut script, 30);
    // Five steps down from "Puzzle": the focus is on "Settings", in gold.
    assert!(is_gold(&rt, "settings_label"));
    assert!(!is_gold(&rt, "puzzle_label"));
    run_to(&mut rt, &mut script, 33);
    assert_eq!(rt.scene(), "settings");
    run_to(&mut rt, &mut script, 40);
    assert_eq!(text(&rt, "key3"), "Space, Enter");
    assert_eq!(text(&rt, "key3_does"), "place the chosen tile");
    assert_eq!(text(&rt, "touch4"), "drag a tile to a cell");
    assert_eq!(text(&rt, "music_vol_label"), "music  ◀ 100% ▶");
    assert_eq!(text(&rt, "sounds_vol_label"), "sounds  ◀ 100% ▶");
    run_to(&mut rt, &mut script, 61);
    assert_eq!(rt.scene(), "title");
    assert!(warnings(&mut rt).is_empty());
}

/// Online leads to the lobby; with no server at the address in the settings, the lobby says
/// so in words, and Escape goes back to the title.
#[test]
fn online_opens_the_lobby_and_an_unreachable_server_is_said() {
    // A port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let save = serde_json::json!({ "server": format!("ws://127.0.0.1:{port}/") });
    let (mut rt, _save) = start(None, Some(save));
    let mut script = input("title_online.json");
    run_to(&mut rt, &mut script, 20);
    assert_eq!(rt.scene(), "online");
    let start = std::time::Instant::now();
    while !text(&rt, "lobby_status").contains("cannot be reached") {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "{}",
            text(&rt, "lobby_status")
        );
        steps(&mut rt, 1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(text(&rt, "lobby_server").contains(&port.to_string()));
    for down in [true, false] {
        rt.step(&[Event::Key {
            key: "escape".into(),
            down,
        }]);
    }
    steps(&mut rt, 2);
    assert_eq!(rt.scene(), "title");
    assert!(warnings(&mut rt).is_empty());
}

/// Each menu item, chosen by a tap, asks for its own scene. A scene that is not in the project
/// yet is refused by the runtime with a warning naming it, and the title stays.
#[test]
fn every_menu_item_leads_where_it_says() {
    for (button, scene) in [
        ("puzzle", "stages"),
        ("battle", "rivals"),
        ("howto", "howto"),
        ("wordbook", "wordbook"),
        ("settings", "settings"),
    ] {
        let (mut rt, _save) = start(None, None);
        steps(&mut rt, 2);
        tap(&mut rt, button);
        let warned = warnings(&mut rt);
        let refused = format!("Scene.load({scene:?}) failed");
        if rt.scene() == "title" {
            assert!(
                warned.len() == 1 && warned[0].starts_with(&refused),
                "{button}: {warned:#?}"
            );
        } else {
            assert_eq!(rt.scene(), scene, "{button}");
        }
    }
}

#[test]
fn quit_ends_the_run() {
    let (mut rt, _save) = start(None, None);
    let mut script = input("title_quit.json");
    rt.run(600, &mut script, |_| {});
    assert!(rt.quit_requested());
    // The release on "Quit" came on frame 21; nothing ran after it.
    assert_eq!(rt.frame(), 21);
    assert_eq!(rt.scene(), "title");
}

#[test]
fn the_word_book_turns_pages_by_key_and_by_pointer() {
    // 23 real words from the dictionary, saved in reverse order: the book sorts them.
    let entries = Dict::japanese().entries();
    let mut chosen: Vec<_> = entries.iter().step_by(97).take(23).collect();
    chosen.reverse();
    let mut book = serde_json::Map::new();
    for e in &chosen {
        book.insert(
            e.reading_text(),
            json!({ "written": e.written, "meaning": e.meaning, "count": 1 }),
        );
    }
    let mut sorted: Vec<String> = chosen.iter().map(|e| e.reading_text()).collect();
    sorted.sort();
    let (mut rt, _save) = start(Some("wordbook"), Some(json!({ "wordbook": book })));
    steps(&mut rt, 2);
    let page = |rt: &Runtime| {
        rows(rt)
            .into_iter()
            .map(|r| r[0].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(page(&rt), sorted[..10]);
    assert_eq!(text(&rt, "page"), "1 / 3");
    assert_eq!(
        text(&rt, "found"),
        format!("found 23 of {} words", entries.len())
    );

    key(&mut rt, "right");
    assert_eq!(page(&rt), sorted[10..20]);
    key(&mut rt, "pagedown");
    assert_eq!(page(&rt), sorted[20..]);
    assert_eq!(text(&rt, "page"), "3 / 3");
    // The end of the book: a further turn stays, and Enter turns back (the focus moved to ◀).
    key(&mut rt, "right");
    assert_eq!(text(&rt, "page"), "3 / 3");
    key(&mut rt, "enter");
    assert_eq!(text(&rt, "page"), "2 / 3");

    // The pointer: ◀ and ▶ under a tap.
    tap(&mut rt, "prev");
    assert_eq!(text(&rt, "page"), "1 / 3");
    tap(&mut rt, "prev");
    assert_eq!(text(&rt, "page"), "1 / 3");
    tap(&mut rt, "next");
    assert_eq!(text(&rt, "page"), "2 / 3");

    // Back, by its button.
    tap(&mut rt, "back");
    assert_eq!(rt.scene(), "title");
    assert!(warnings(&mut rt).is_empty());
}

#[test]
fn an_empty_word_book_says_how_it_fills() {
    let (mut rt, _save) = start(Some("wordbook"), None);
    steps(&mut rt, 2);
    assert!(rows(&rt).is_empty());
    assert!(text(&rt, "empty").starts_with("Your word book is empty."));
    assert_eq!(
        text(&rt, "found"),
        format!("found 0 of {} words", Dict::japanese().len())
    );
    // One page: no page numbers and no page buttons to press.
    assert_eq!(text(&rt, "page"), "");
    assert_eq!(text(&rt, "prev_label"), "");
    key(&mut rt, "right");
    assert_eq!(text(&rt, "page"), "");
    key(&mut rt, "escape");
    assert_eq!(rt.scene(), "title");
    assert!(warnings(&mut rt).is_empty());
}

/// The save is a file a player can edit: a word book that is not one, or entries of the wrong
/// shape, show what they can and never stop the script.
#[test]
fn a_word_book_save_of_the_wrong_shape_shows_what_it_can() {
    for junk in [
        json!("not a book"),
        json!(42),
        json!([1, 2, 3]),
        json!([{ "written": "魚" }]),
        json!({}),
    ] {
        let (mut rt, _save) = start(Some("wordbook"), Some(json!({ "wordbook": junk })));
        steps(&mut rt, 2);
        assert!(rows(&rt).is_empty(), "{junk}");
        assert!(text(&rt, "empty").starts_with("Your word book is empty."));
        assert!(warnings(&mut rt).is_empty(), "{junk}");
    }

    let long = "ながい".repeat(40);
    let save = json!({ "wordbook": {
        "さかな": "fish",
        "": { "written": "無", "meaning": "nothing", "count": 1 },
        "いぬ": { "written": 42, "meaning": { "en": "dog" }, "count": "many" },
        "ねこ": { "meaning": "x".repeat(500), "count": -3 },
        "とり": { "written": "鳥", "meaning": "bird", "count": 1e300 },
        long.clone(): { "written": "長".repeat(100), "meaning": "long", "count": 2.5 },
    }});
    let (mut rt, _save) = start(Some("wordbook"), Some(save));
    steps(&mut rt, 2);
    assert!(warnings(&mut rt).is_empty());
    let shown = rows(&rt);
    let cut = |s: &str, n: usize| s.chars().take(n - 1).collect::<String>() + "…";
    assert_eq!(
        shown,
        [
            ["いぬ", "42", "", "×1"].map(String::from),
            ["とり", "鳥", "bird", "×999999"].map(String::from),
            [
                cut(&long, 10),
                cut(&"長".repeat(100), 9),
                "long".into(),
                "×2".into()
            ],
            [
                "ねこ".into(),
                "ねこ".into(),
                cut(&"x".repeat(500), 46),
                "×1".into()
            ],
        ]
    );
    assert_eq!(
        text(&rt, "found"),
        format!("found 4 of {} words", Dict::japanese().len())
    );
}

/// The README's main command, headless: it runs Kotodama from its title and writes the frame,
/// the demo battle under way beside the menu.
#[test]
fn the_readme_command_headless_writes_the_title_with_the_demo() {
    let out = tempfile::tempdir().unwrap();
    let shot = out.path().join("title.png");
    let trace = out.path().join("trace.jsonl");
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../projects/kotodama");
    let code = jengine_tool::cli::viewport_run(
        [
            "jengine".into(),
            "run".into(),
            project.into_os_string(),
            "--headless".into(),
            "--frames".into(),
            "420".into(),
            "--shot".into(),
            shot.clone().into_os_string(),
            "--trace".into(),
            trace.clone().into_os_string(),
        ],
        &jengine_kotoba::packages(),
    );
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    let frame = jengine_tool::golden::read_png(&shot).expect("a PNG of the title");
    assert_eq!((frame.width, frame.height), (1280, 720));
    // The last frame is the title, with the demo battle past its countdown and words made.
    let text = std::fs::read_to_string(&trace).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["frame"], 420);
    assert_eq!(last["scene"], "title");
    let table = last["bags"]
        .as_object()
        .unwrap()
        .values()
        .find_map(|b| b.get("kotoba"))
        .expect("the title's table");
    assert_eq!(table["demo"], true);
    assert_eq!(table["phase"], "fight");
    assert!(!table["made"].as_array().unwrap().is_empty(), "{table:#}");
}

/// The volumes: a focused volume steps with ◀ ▶, is saved, and comes back on the next visit.
#[test]
fn the_music_and_sound_volumes_step_and_are_saved() {
    let (mut rt, save) = start(Some("settings"), None);
    steps(&mut rt, 2);
    // Back is first; down reaches the music volume, right on it steps it.
    key(&mut rt, "down");
    key(&mut rt, "left");
    key(&mut rt, "left");
    key(&mut rt, "down");
    key(&mut rt, "left");
    steps(&mut rt, 2);
    assert_eq!(text(&rt, "music_vol_label"), "music  ◀ 80% ▶");
    assert_eq!(text(&rt, "sounds_vol_label"), "sounds  ◀ 90% ▶");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(save.path().join("save.json")).unwrap())
            .unwrap();
    assert_eq!(saved["settings"], json!({"music": 0.8, "sound": 0.9}));
    assert!(warnings(&mut rt).is_empty());
}

/// The server's address is typed (or pasted) in the settings and kept; a line that is not a
/// ws:// address is not.
#[test]
fn the_online_server_is_set_in_the_settings() {
    let (mut rt, _save) = start(Some("settings"), None);
    steps(&mut rt, 3);
    let press = |rt: &mut Runtime, key: &str| {
        for down in [true, false] {
            rt.step(&[Event::Key {
                key: key.into(),
                down,
            }]);
        }
        steps(rt, 2);
    };
    for _ in 0..3 {
        press(&mut rt, "down");
    }
    press(&mut rt, "enter");
    for _ in 0..20 {
        press(&mut rt, "backspace");
    }
    rt.step(&[Event::Text {
        text: "ws://rooms.example:7777/".into(),
    }]);
    press(&mut rt, "enter");
    assert_eq!(rt.saved("server"), Some(json!("ws://rooms.example:7777/")));
    assert!(text(&rt, "server_label").contains("rooms.example"));
    press(&mut rt, "enter");
    rt.step(&[Event::Text {
        text: " not an address".into(),
    }]);
    for _ in 0..40 {
        press(&mut rt, "backspace");
    }
    rt.step(&[Event::Text {
        text: "http://x/".into(),
    }]);
    press(&mut rt, "enter");
    assert_eq!(rt.saved("server"), Some(json!("ws://rooms.example:7777/")));
    assert!(warnings(&mut rt).is_empty());
}
