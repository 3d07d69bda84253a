//! Umber Warren in the browser: the web build plays the committed route out
//! (`inputs/warren_escape.json`) in headless Chromium and reaches the way out with the same bag
//! trace, frame by frame, and the same last frame as a native headless run.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

use arcade_classics_tests::{PACKAGES, project};
use jengine_testkit::web::{Start, replay_game_in_browser};

#[test]
fn the_route_out_plays_in_the_browser_as_it_does_headless() {
    let build =
        |p: &std::path::Path| jengine_tool::web_build::web_build(p, None, true).map(|b| b.out);
    let input = project().join("tests/inputs/warren_escape.json");
    let Some(page) = replay_game_in_browser(
        "Umber Warren",
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
    assert!(
        last.contains(r#""escaped":true"#),
        "the party got out: {last}"
    );
}
