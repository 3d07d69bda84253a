//! Miau as an author meets it: a bad link at launch is said on the screen, stacked words are
//! all seen, the last level says how much of its pack is solved, and notes arrive complete
//! (merged with a count, a palette glyph no font draws among them).

use std::path::Path;

use jengine_testkit::{Game, Options};
use miau_tests::{bag, key_of};

fn runtime(options: Options) -> Game {
    miau_tests::open(
        options,
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden"),
    )
}

fn launched_with_gift(link: &str) -> Game {
    let mut rt = runtime(Options {
        args: vec!["--gift".into(), link.into()],
        ..Options::default()
    });
    rt.settle(8);
    rt
}

#[test]
fn a_bad_gift_link_at_launch_says_why_on_the_title() {
    let mut rt = launched_with_gift("BADLINK");
    assert_eq!(rt.scene(), "title");
    let status = rt.text("status");
    assert!(!status.is_empty(), "the title says nothing of the link");
    assert!(status.to_lowercase().contains("link"), "{status}");
    // The demo playing behind the title does not wipe it out.
    rt.settle(120);
    assert_eq!(rt.text("status"), status);
}

#[test]
fn the_last_level_says_how_much_of_its_pack_is_solved() {
    let mut rt = runtime(Options::default());
    let count = miau_tests::pack("word-lab").levels.len();
    miau_tests::to_level(&mut rt, "word-lab", count - 1);
    for a in miau_tests::route("word-lab", count - 1) {
        rt.key(key_of(a));
    }
    rt.settle(4);
    assert_eq!(bag(&rt)["won"], true);
    let help = rt.text("won_help");
    assert!(
        help.contains(&format!("1 of {count} levels of the pack solved")),
        "{help}"
    );
    assert!(!help.contains("done"), "{help}");
}

/// Word Lab's "Rules are cargo": FLAG IS STOP reads through a cell where STOP and DEFEAT are
/// stacked. Both tiles are drawn, apart, with the one the rule reads in front.
#[test]
fn stacked_words_are_all_drawn_and_the_read_one_is_in_front() {
    let mut rt = runtime(Options::default());
    miau_tests::to_level(&mut rt, "word-lab", 2);
    rt.settle(10);
    let b = bag(&rt);
    let rules: Vec<&str> = b["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r.as_str())
        .collect();
    assert!(rules.contains(&"FLAG IS STOP"), "{rules:?}");
    rt.golden("miau_stack");
}

/// A pack with twenty problems, each on a different object of its one level, one problem
/// with a long path.
fn twenty_problems() -> String {
    let objects: Vec<String> = (0..20)
        .map(|i| {
            format!(
                r#"{{ "kind": "word", "text": "CAT", "x": {}, "y": 0 }}"#,
                40 + i
            )
        })
        .collect();
    format!(
        r#"{{ "manifest": {{ "id": "twenty", "name": "Twenty", "version": "1.0.0" }},
  "levels": [{{ "id": "a-level-with-a-rather-long-identifier-to-wrap", "width": 3, "height": 3, "objects": [{}] }}] }}"#,
        objects.join(", ")
    )
}

/// A text box's layout as the host last found it.
fn layout(rt: &Game, name: &str) -> serde_json::Value {
    rt.bag(name, "text_layout")
}

#[test]
fn twenty_problems_stay_inside_the_workshop_report_and_scroll() {
    for (size, golden) in [
        ((1280, 720), "miau_workshop_20"),
        ((640, 360), "miau_workshop_20_small"),
    ] {
        let mut rt = runtime(Options::default()).sized(size);
        miau_tests::to_workshop(&mut rt);
        miau_tests::paste(&mut rt, &twenty_problems());
        assert_eq!(rt.scene(), "workshop");
        let report = rt.text("report");
        assert_eq!(report.lines().count(), 20, "{report}");
        for i in 0..20 {
            assert!(
                report.contains(&format!("levels[0].objects[{i}].x")),
                "{i}: {report}"
            );
        }
        let l = layout(&rt, "report");
        assert!(l["hidden"].as_u64().unwrap() > 0, "{l}");
        assert_eq!(l["first"], 0);
        assert!(
            rt.text("report_where").starts_with("Lines 1-"),
            "{}",
            rt.text("report_where")
        );
        rt.golden(golden);
        // Page Down from the keyboard moves the box on by a page, End to its last line.
        rt.key("pagedown");
        rt.settle(2);
        let first = layout(&rt, "report")["first"].as_u64().unwrap();
        assert!(first > 0, "{}", layout(&rt, "report"));
        rt.key("end");
        rt.settle(2);
        let l = layout(&rt, "report");
        assert_eq!(l["first"], l["max_scroll"], "{l}");
        rt.key("home");
        rt.settle(2);
        assert_eq!(layout(&rt, "report")["first"], 0);
    }
}

const HELLO: &str = r#"module.exports = {
  manifest: { id: 'hello-miau', name: 'Hello Miau', version: '1.0.0' },
  palette: { MIAU: { glyph: '🐈', faces: 'left' }, FLAG: '🚩' },
  levels: [{
    id: 'intro', title: 'Hello', width: 6, height: 4,
    objects: [
      { kind: 'word', text: 'MIAU', x: 0, y: 0 }, { kind: 'word', text: 'IS', x: 1, y: 0 },
      { kind: 'word', text: 'YOU', x: 2, y: 0 }, { kind: 'word', text: 'FLAG', x: 0, y: 3 },
      { kind: 'word', text: 'IS', x: 1, y: 3 }, { kind: 'word', text: 'WIN', x: 2, y: 3 },
      { kind: 'object', noun: 'MIAU', x: 1, y: 1 }, { kind: 'object', noun: 'FLAG', x: 4, y: 1 },
    ],
  }],
};
"#;

#[test]
fn a_share_link_is_shown_whole_in_the_panel_and_copied_by_its_button() {
    let mut rt = runtime(Options::default());
    miau_tests::to_workshop(&mut rt);
    miau_tests::paste(&mut rt, HELLO);
    assert_eq!(rt.scene(), "gift");
    rt.key("enter");
    rt.settle(3);
    assert_eq!(rt.scene(), "play");
    rt.key("escape");
    rt.settle(3);
    rt.key("w");
    rt.settle(3);
    assert_eq!(rt.scene(), "workshop");
    let at = miau_tests::catalog_ids(&rt)
        .iter()
        .position(|id| id == "hello-miau")
        .expect("installed");
    rt.key("tab");
    for _ in 0..at {
        rt.key("down");
    }
    let before = miau_tests::outcome_serial(&rt);
    rt.key("s");
    miau_tests::read_back(&mut rt, before);
    let link = bag(&rt)["outcome"]["link"]
        .as_str()
        .expect("a link")
        .to_string();
    assert_eq!(rt.text("report"), link);
    assert_eq!(rt.text("btn_copy_label"), "C  Copy link");
    // The whole link is in the box: it wraps between characters, nothing is hidden.
    let l = layout(&rt, "report");
    assert_eq!(l["hidden"], 0, "{l}");
    assert!(l["lines"].as_u64().unwrap() > 1, "{l}");
    rt.golden("miau_workshop_link");
    rt.click("btn_copy");
    assert!(
        rt.text("message").contains("copied"),
        "{}",
        rt.text("message")
    );
}

/// A pack whose one level has 30 notes: 29 loose words, eleven stacked copies of ROCK (one
/// note said eleven times) and a palette glyph no bundled font draws.
fn thirty_notes() -> String {
    let mut objects = vec![
        r#"{ "kind": "word", "text": "CAT", "x": 0, "y": 0 }"#.to_string(),
        r#"{ "kind": "word", "text": "IS", "x": 1, "y": 0 }"#.to_string(),
        r#"{ "kind": "word", "text": "YOU", "x": 2, "y": 0 }"#.to_string(),
        r#"{ "kind": "object", "noun": "CAT", "x": 0, "y": 2 }"#.to_string(),
        r#"{ "kind": "object", "noun": "SKULL", "x": 1, "y": 2 }"#.to_string(),
    ];
    for _ in 0..11 {
        objects.push(r#"{ "kind": "word", "text": "ROCK", "x": 11, "y": 7 }"#.to_string());
    }
    for i in 0..28 {
        objects.push(format!(
            r#"{{ "kind": "word", "text": "THING{i}", "x": {}, "y": {} }}"#,
            (i % 6) * 2,
            3 + (i / 6)
        ));
    }
    format!(
        r#"{{ "manifest": {{ "id": "thirty", "name": "Thirty notes", "version": "1.0.0" }},
  "palette": {{ "CAT": "🐈", "SKULL": "💀" }},
  "levels": [{{ "id": "noisy", "title": "Noisy", "width": 12, "height": 8, "objects": [{}] }}] }}"#,
        objects.join(", ")
    )
}

#[test]
fn thirty_notes_are_merged_whole_and_held_by_the_gift_and_play_screens() {
    for (size, tag) in [((1280, 720), ""), ((640, 360), "_small")] {
        let mut rt = runtime(Options::default()).sized(size);
        miau_tests::to_workshop(&mut rt);
        miau_tests::paste(&mut rt, &thirty_notes());
        assert_eq!(rt.scene(), "gift");
        rt.settle(2);
        let notes = bag(&rt)["pending"]["notes"].as_array().cloned().unwrap();
        // 28 loose words, ROCK once with its count, and SKULL's glyph.
        assert_eq!(notes.len(), 30, "{notes:?}");
        let rock = notes.iter().find(|n| n["word"] == "ROCK").unwrap();
        assert_eq!(rock["count"], 11);
        let skull = notes.iter().find(|n| n["word"] == "SKULL").unwrap();
        assert_eq!(skull["path"], "palette.SKULL");
        assert!(
            rt.text("notes_head").contains("(40)"),
            "{}",
            rt.text("notes_head")
        );
        let text = rt.text("notes");
        assert!(text.contains("ROCK  ×11"), "{text}");
        assert!(
            text.contains(rock["detail"].as_str().unwrap()),
            "details are shown"
        );
        assert!(layout(&rt, "notes")["hidden"].as_u64().unwrap() > 0);
        rt.golden(&format!("miau_gift_30{tag}"));

        rt.key("enter");
        rt.settle(4);
        assert_eq!(rt.scene(), "play");
        assert!(
            rt.text("notes_head").contains("1/30"),
            "{}",
            rt.text("notes_head")
        );
        let first = rt.text("notes");
        rt.key("n");
        assert!(rt.text("notes_head").contains("2/30"));
        assert_ne!(rt.text("notes"), first);
        // The ROCK note, whole: its count, its message and the detail.
        let at = notes.iter().position(|n| n["word"] == "ROCK").unwrap();
        // From the second note on, N comes round to it (after the last comes the first).
        for _ in 0..(at + notes.len() - 1) % notes.len() {
            rt.key("n");
        }
        let shown = rt.text("notes");
        assert!(shown.starts_with("ROCK  ×11: "), "{shown}");
        assert!(shown.contains(rock["detail"].as_str().unwrap()), "{shown}");
        rt.golden(&format!("miau_play_notes{tag}"));
    }
}

/// Every glyph a shipped pack uses is one the bundled fonts draw: no shipped pack has a glyph
/// note, and each palette entry is drawable character by character.
#[test]
fn every_shipped_glyph_is_drawn_by_the_bundled_fonts() {
    let mut checked = vec![jengine_miau::worlds::core().expect("core")];
    for file in jengine_miau::worlds::pack_files(&miau_tests::mods()).expect("mods") {
        checked.push(jengine_miau::source::load_file(&file).expect("a shipped pack loads"));
    }
    assert!(checked.len() >= 4);
    for c in &checked {
        let glyph_notes: Vec<_> = c.notes.iter().filter(|n| n.path.is_some()).collect();
        assert!(
            glyph_notes.is_empty(),
            "{}: {glyph_notes:?}",
            c.pack.manifest.id
        );
        for glyph in c.pack.palette.values() {
            let text = jengine_miau::glyph_text(glyph);
            assert_eq!(
                jengine::glyphs::undrawable(text),
                Vec::<char>::new(),
                "{text}"
            );
        }
    }
}

/// `jengine check` finds nothing wrong in Miau, script calls included.
#[test]
fn miau_checks_clean() {
    let report = jengine_tool::check::check(&miau_tests::project(), miau_tests::PACKAGES);
    assert!(report.ok(), "{:#?}", report.problems);
}

/// What the package draws for a level (the board, the pieces, the stack badges) is marked as
/// drawn for the `miau_game` entity, so the editor's pick on the board selects the game.
#[test]
fn everything_drawn_for_a_level_names_the_game_it_is_drawn_for() {
    let mut rt = runtime(Options::default());
    miau_tests::to_level(&mut rt, "word-lab", 2);
    rt.settle(10);
    let game: Vec<jengine::Entity> = rt
        .world
        .entities
        .query::<(jengine::Entity, &jengine_miau::MiauGame)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(game.len(), 1);
    let drawn: Vec<jengine::Entity> = rt
        .world
        .entities
        .query::<(&jengine::SpawnedFor, &jengine::BulkEntity)>()
        .iter()
        .map(|(s, _)| s.0)
        .collect();
    assert!(drawn.len() > 10, "{} drawn", drawn.len());
    assert!(drawn.iter().all(|&owner| owner == game[0]));
}
