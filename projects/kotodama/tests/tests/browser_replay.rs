//! Kotodama in the browser: the web build plays the committed battle against the first rival
//! (`inputs/flow_battle_win.json`, from the rivals' cards, seed 3) in headless Chromium, wins
//! it and comes back to the cards with the same bag trace, frame by frame, and the same last
//! frame as a native headless run. The battle's bot, timers, combos and animations all run on
//! floats, so this is where the two platforms' arithmetic would part.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` (or `JENGINE_REQUIRE_WASM=1` for the wasm tools) that is a
//! failure.

use jengine_testkit::web::{Start, replay_game_in_browser};
use kotodama_tests::{input_file, packages, project};

#[test]
fn the_first_rival_is_beaten_in_the_browser_as_headless() {
    let build =
        |p: &std::path::Path| jengine_tool::web_build::web_build(p, None, true).map(|b| b.out);
    let start = Start::scene("rivals", 3);
    let input = input_file("flow_battle_win.json");
    let Some(page) = replay_game_in_browser(
        "Kotodama",
        build,
        &project(),
        &packages(),
        &start,
        &input,
        40,
    ) else {
        return;
    };
    let last = page.trace.last().expect("the page ran frames");
    assert!(
        last.contains(r#""scene":"rivals""#),
        "back at the cards: {last}"
    );
    let won = page.trace.iter().any(|line| line.contains(r#""winner":1"#));
    assert!(won, "the player won the battle");
}
