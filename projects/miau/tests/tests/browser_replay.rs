//! Miau in the browser: the web build plays the core pack's first proof
//! (`inputs/core_1.json`) in headless Chromium from the title to the solved level, with the
//! same bag trace, frame by frame, and the same last frame as a native headless run.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` (or `JENGINE_REQUIRE_WASM=1` for the wasm tools) that is a
//! failure.

use jengine_testkit::web::{Start, replay_game_in_browser};
use miau_tests::{PACKAGES, project};

#[test]
fn the_first_proof_is_solved_in_the_browser_as_headless() {
    let build =
        |p: &std::path::Path| jengine_tool::web_build::web_build(p, None, true).map(|b| b.out);
    let input = project().join("tests/inputs/core_1.json");
    let Some(page) = replay_game_in_browser(
        "Miau",
        build,
        &project(),
        PACKAGES,
        &Start::seed(1),
        &input,
        60,
    ) else {
        return;
    };
    let last = page.trace.last().expect("the page ran frames");
    assert!(last.contains(r#""scene":"play""#), "{last}");
    assert!(
        last.contains(r#""won":true"#),
        "the level is solved: {last}"
    );
}
