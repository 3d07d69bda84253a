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

/// From the title to level `level` (from 0) of pack `pack_id`, through INDEX by keys.
fn to_level(rt: &mut Game, pack_id: &str, level: usize) {
    rt.settle(3);
    rt.key("enter");
    rt.settle(3);
    assert_eq!(rt.scene(), "index");
    let catalog = bag(rt)["catalog"].as_array().cloned().unwrap_or_default();
    let at = catalog
        .iter()
        .position(|p| p["id"] == pack_id)
        .unwrap_or_else(|| panic!("no pack {pack_id} in INDEX"));
    for _ in 0..at {
        rt.key("down");
    }
    rt.key("right");
    for _ in 0..level {
        rt.key("down");
    }
    rt.key("enter");
    rt.settle(4);
    assert_eq!(rt.scene(), "play");
    let b = bag(rt);
    assert_eq!(b["playing"]["pack"], pack_id, "{b}");
    assert_eq!(b["playing"]["number"], level + 1, "{b}");
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
    to_level(&mut rt, "word-lab", count - 1);
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
    to_level(&mut rt, "word-lab", 2);
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
