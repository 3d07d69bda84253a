//! Seven Stairs in the browser: the web build plays the committed playthrough
//! (`inputs/stairs_playthrough.json`) in headless Chromium from the title to the ending, with
//! the same bag trace, frame by frame, and the same last frame as a native headless run.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

use jengine_testkit::web::{Start, replay_game_in_browser};
use rpg_classics_tests::{PACKAGES, project};

#[test]
fn the_playthrough_plays_in_the_browser_as_it_does_headless() {
    let build =
        |p: &std::path::Path| jengine_tool::web_build::web_build(p, None, true).map(|b| b.out);
    let input = project().join("tests/inputs/stairs_playthrough.json");
    let Some(page) = replay_game_in_browser(
        "Seven Stairs",
        build,
        &project(),
        PACKAGES,
        &Start::seed(1),
        &input,
        30,
    ) else {
        return;
    };
    let last = page.trace.last().expect("the page ran frames");
    assert!(
        last.contains(r#""scene":"ending""#),
        "the lich fell: {last}"
    );
}
