//! Kotodama's title, word book and settings, run headless through their scripts: how each
//! looks (golden images), and playthroughs fed from the input files under
//! `projects/kotodama/tests/inputs/`, which press the menus as a mouse and a keyboard would.

use jengine_kotoba::Dict;
use jengine_testkit::{Game, InputScript, Options};
use kotodama_tests::{input_file, kotoba, open, project};
use serde_json::{Value, json};

/// A run of the project from `scene` (the start scene when `None`), with a save folder that
/// holds `save` (an empty save when `None`). The folder lives as long as the run needs it.
fn start(scene: Option<&str>, save: Option<Value>) -> (Game, tempfile::TempDir) {
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
    (open(options), dir)
}

fn input(name: &str) -> InputScript {
    let path = input_file(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    InputScript::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs until frame `to` (counting from 1), feeding `script`'s events on their frames.
fn run_to(game: &mut Game, script: &mut InputScript, to: u64) {
    let frames = to.saturating_sub(game.rt.frame());
    game.run(frames, script, |_| {});
}

fn text_colour(game: &Game, name: &str) -> [f32; 4] {
    let e = game.entity(name);
    let t = game.world.entities.get::<&jengine::Text>(e).unwrap();
    t.color.0
}

/// The gold the focused menu label turns.
const GOLD: [f32; 4] = [0.941, 0.788, 0.416, 1.0];

fn is_gold(game: &Game, name: &str) -> bool {
    text_colour(game, name)
        .iter()
        .zip(GOLD)
        .all(|(a, b)| (a - b).abs() < 1e-3)
}

/// The word book rows on screen: (reading, written, meaning, count) for each filled row.
fn rows(game: &Game) -> Vec<[String; 4]> {
    (1..=10)
        .map(|i| {
            ["reading", "written", "meaning", "count"].map(|f| game.text(&format!("row{i}_{f}")))
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

#[test]
fn the_title_word_book_and_settings_look_as_they_should() {
    // The title with the demo a few words in: the countdown takes three seconds, so at seven
    // the bots have played and their rings are still on the sea.
    let (mut game, _save) = start(None, None);
    game.settle(420);
    assert!(game.warnings().is_empty());
    game.golden("title_demo");
    game.sized((640, 360)).golden("title_demo_half_size");

    let (mut game, _save) = start(Some("wordbook"), Some(a_few_words()));
    game.settle(10);
    assert!(game.warnings().is_empty());
    game.golden("wordbook_a_few_words");

    let (mut game, _save) = start(Some("settings"), None);
    game.settle(10);
    assert!(game.warnings().is_empty());
    game.golden("settings_keys_and_pointer");
}

#[test]
fn kotodama_starts_on_the_title_with_the_demo_playing() {
    let (mut game, _save) = start(None, None);
    assert_eq!(game.scene(), "title");
    game.settle(2);
    let bag = kotoba(&game);
    assert_eq!(bag["mode"], "battle", "{bag:#}");
    assert_eq!(bag["demo"], true, "{bag:#}");
    // Ten seconds on, the bots have made words: the demo plays, it does not just sit there.
    game.settle(600);
    let bag = kotoba(&game);
    assert_eq!(bag["demo"], true, "{bag:#}");
    let played = bag["made"].as_array().is_some_and(|m| !m.is_empty())
        || bag["fighters"][0]["words"].as_u64().unwrap_or(0) > 0;
    assert!(played, "{bag:#}");
    // The first item has the focus from the start.
    assert!(is_gold(&game, "puzzle_label"));
    assert!(game.warnings().is_empty());
}

#[test]
fn the_pointer_opens_the_word_book_and_escape_comes_back() {
    let (mut game, _save) = start(None, Some(a_few_words()));
    let mut script = input("title_wordbook.json");

    // Resting on "Word book" lights it.
    run_to(&mut game, &mut script, 22);
    assert!(is_gold(&game, "wordbook_label"));
    assert!(!is_gold(&game, "puzzle_label"));
    assert_eq!(game.scene(), "title");

    // Pressed and let go over it: the word book, with the saved words in kana order.
    run_to(&mut game, &mut script, 26);
    assert_eq!(game.scene(), "wordbook");
    run_to(&mut game, &mut script, 40);
    let words = Dict::japanese().len();
    assert_eq!(game.text("found"), format!("found 12 of {words} words"));
    let shown = rows(&game);
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
    assert_eq!(game.text("page"), "1 / 2");
    assert_eq!(game.text("empty"), "");

    // Escape: back to the title.
    run_to(&mut game, &mut script, 62);
    assert_eq!(game.scene(), "title");
    assert!(game.warnings().is_empty());
}

#[test]
fn down_and_enter_choose_settings_and_escape_comes_back() {
    let (mut game, _save) = start(None, None);
    let mut script = input("title_settings.json");
    run_to(&mut game, &mut script, 30);
    // Five steps down from "Puzzle": the focus is on "Settings", in gold.
    assert!(is_gold(&game, "settings_label"));
    assert!(!is_gold(&game, "puzzle_label"));
    run_to(&mut game, &mut script, 33);
    assert_eq!(game.scene(), "settings");
    run_to(&mut game, &mut script, 40);
    assert_eq!(game.text("key3"), "Space, Enter");
    assert_eq!(game.text("key3_does"), "place the chosen tile");
    assert_eq!(game.text("touch4"), "drag a tile to a cell");
    assert_eq!(game.text("music_vol_label"), "music  ◀ 100% ▶");
    assert_eq!(game.text("sounds_vol_label"), "sounds  ◀ 100% ▶");
    run_to(&mut game, &mut script, 61);
    assert_eq!(game.scene(), "title");
    assert!(game.warnings().is_empty());
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
    let (mut game, _save) = start(None, Some(save));
    let mut script = input("title_online.json");
    run_to(&mut game, &mut script, 20);
    assert_eq!(game.scene(), "online");
    let start = std::time::Instant::now();
    while !game.text("lobby_status").contains("cannot be reached") {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "{}",
            game.text("lobby_status")
        );
        game.settle(1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(game.text("lobby_server").contains(&port.to_string()));
    game.key("escape");
    game.settle(2);
    assert_eq!(game.scene(), "title");
    assert!(game.warnings().is_empty());
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
        let (mut game, _save) = start(None, None);
        game.settle(2);
        game.click(button);
        let warned = game.warnings();
        let refused = format!("Scene.load({scene:?}) failed");
        if game.scene() == "title" {
            assert!(
                warned.len() == 1 && warned[0].starts_with(&refused),
                "{button}: {warned:#?}"
            );
        } else {
            assert_eq!(game.scene(), scene, "{button}");
        }
    }
}

#[test]
fn quit_ends_the_run() {
    let (mut game, _save) = start(None, None);
    let mut script = input("title_quit.json");
    game.run(600, &mut script, |_| {});
    assert!(game.quit_requested());
    // The release on "Quit" came on frame 21; nothing ran after it.
    assert_eq!(game.rt.frame(), 21);
    assert_eq!(game.scene(), "title");
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
    let (mut game, _save) = start(Some("wordbook"), Some(json!({ "wordbook": book })));
    game.settle(2);
    let page = |game: &Game| {
        rows(game)
            .into_iter()
            .map(|r| r[0].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(page(&game), sorted[..10]);
    assert_eq!(game.text("page"), "1 / 3");
    assert_eq!(
        game.text("found"),
        format!("found 23 of {} words", entries.len())
    );

    game.key("right");
    assert_eq!(page(&game), sorted[10..20]);
    game.key("pagedown");
    assert_eq!(page(&game), sorted[20..]);
    assert_eq!(game.text("page"), "3 / 3");
    // The end of the book: a further turn stays, and Enter turns back (the focus moved to ◀).
    game.key("right");
    assert_eq!(game.text("page"), "3 / 3");
    game.key("enter");
    assert_eq!(game.text("page"), "2 / 3");

    // The pointer: ◀ and ▶ under a tap.
    game.click("prev");
    assert_eq!(game.text("page"), "1 / 3");
    game.click("prev");
    assert_eq!(game.text("page"), "1 / 3");
    game.click("next");
    assert_eq!(game.text("page"), "2 / 3");

    // Back, by its button.
    game.click("back");
    assert_eq!(game.scene(), "title");
    assert!(game.warnings().is_empty());
}

#[test]
fn an_empty_word_book_says_how_it_fills() {
    let (mut game, _save) = start(Some("wordbook"), None);
    game.settle(2);
    assert!(rows(&game).is_empty());
    assert!(game.text("empty").starts_with("Your word book is empty."));
    assert_eq!(
        game.text("found"),
        format!("found 0 of {} words", Dict::japanese().len())
    );
    // One page: no page numbers and no page buttons to press.
    assert_eq!(game.text("page"), "");
    assert_eq!(game.text("prev_label"), "");
    game.key("right");
    assert_eq!(game.text("page"), "");
    game.key("escape");
    assert_eq!(game.scene(), "title");
    assert!(game.warnings().is_empty());
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
        let (mut game, _save) = start(Some("wordbook"), Some(json!({ "wordbook": junk })));
        game.settle(2);
        assert!(rows(&game).is_empty(), "{junk}");
        assert!(game.text("empty").starts_with("Your word book is empty."));
        assert!(game.warnings().is_empty(), "{junk}");
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
    let (mut game, _save) = start(Some("wordbook"), Some(save));
    game.settle(2);
    assert!(game.warnings().is_empty());
    let shown = rows(&game);
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
        game.text("found"),
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
    let project = project();
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
    let frame = jengine_testkit::golden::read_png(&shot).expect("a PNG of the title");
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
    let (mut game, save) = start(Some("settings"), None);
    game.settle(2);
    // Back is first; down reaches the music volume, right on it steps it.
    game.key("down");
    game.key("left");
    game.key("left");
    game.key("down");
    game.key("left");
    game.settle(2);
    assert_eq!(game.text("music_vol_label"), "music  ◀ 80% ▶");
    assert_eq!(game.text("sounds_vol_label"), "sounds  ◀ 90% ▶");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(save.path().join("save.json")).unwrap())
            .unwrap();
    assert_eq!(saved["settings"], json!({"music": 0.8, "sound": 0.9}));
    assert!(game.warnings().is_empty());
}

/// The server's address is typed (or pasted) in the settings and kept; a line that is not a
/// ws:// address is not.
#[test]
fn the_online_server_is_set_in_the_settings() {
    let (mut game, _save) = start(Some("settings"), None);
    game.settle(3);
    let press = |game: &mut Game, key: &str| {
        game.key(key);
        game.settle(2);
    };
    for _ in 0..3 {
        press(&mut game, "down");
    }
    press(&mut game, "enter");
    for _ in 0..20 {
        press(&mut game, "backspace");
    }
    game.type_text("ws://rooms.example:7777/");
    press(&mut game, "enter");
    assert_eq!(
        game.saved("server"),
        Some(json!("ws://rooms.example:7777/"))
    );
    assert!(game.text("server_label").contains("rooms.example"));
    press(&mut game, "enter");
    game.type_text(" not an address");
    for _ in 0..40 {
        press(&mut game, "backspace");
    }
    game.type_text("http://x/");
    press(&mut game, "enter");
    assert_eq!(
        game.saved("server"),
        Some(json!("ws://rooms.example:7777/"))
    );
    assert!(game.warnings().is_empty());
}
