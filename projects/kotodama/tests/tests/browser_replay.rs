//! Kotodama in the browser: the web build plays the committed battle against the first rival
//! (`inputs/flow_battle_win.json`, from the rivals' cards, seed 3) in headless Chromium, wins
//! it and comes back to the cards with the same bag trace, frame by frame, and the same last
//! frame as a native headless run. The battle's bot, timers, combos and animations all run on
//! floats, so this is where the two platforms' arithmetic would part.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

use jengine_testkit::browser::skip_or_fail;
use jengine_testkit::web::{Start, assert_replays_as_native, cannot_test};
use kotodama_tests::{input_file, packages, project};

#[test]
fn the_first_rival_is_beaten_in_the_browser_as_headless() {
    if let Some(why) = cannot_test() {
        skip_or_fail(&format!("Kotodama's browser replay: {why}"));
        return;
    }
    let build = jengine_tool::web_build::web_build(&project(), None, true)
        .unwrap_or_else(|e| panic!("web-build: {}", e.join("\n")));
    let start = Start::scene("rivals", 3);
    let input = input_file("flow_battle_win.json");
    let page = assert_replays_as_native(&build.out, &project(), &packages(), &start, &input, 40);
    let last = page.trace.last().expect("the page ran frames");
    assert!(
        last.contains(r#""scene":"rivals""#),
        "back at the cards: {last}"
    );
    let won = page.trace.iter().any(|line| line.contains(r#""winner":1"#));
    assert!(won, "the player won the battle");
}
