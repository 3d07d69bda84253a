//! Umber Warren in the browser: the web build plays the committed route out
//! (`inputs/warren_escape.json`) in headless Chromium and reaches the way out with the same bag
//! trace, frame by frame, and the same last frame as a native headless run.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

use arcade_classics_tests::{PACKAGES, project};
use jengine_testkit::browser::skip_or_fail;
use jengine_testkit::web::{Start, assert_replays_as_native, cannot_test};

#[test]
fn the_route_out_plays_in_the_browser_as_it_does_headless() {
    if let Some(why) = cannot_test() {
        skip_or_fail(&format!("Umber Warren's browser replay: {why}"));
        return;
    }
    let build = jengine_tool::web_build::web_build(&project(), None, true)
        .unwrap_or_else(|e| panic!("web-build: {}", e.join("\n")));
    let input = project().join("tests/inputs/warren_escape.json");
    let page = assert_replays_as_native(
        &build.out,
        &project(),
        PACKAGES,
        &Start::seed(1),
        &input,
        60,
    );
    let last = page.trace.last().expect("the page ran frames");
    assert!(
        last.contains(r#""escaped":true"#),
        "the party got out: {last}"
    );
}
