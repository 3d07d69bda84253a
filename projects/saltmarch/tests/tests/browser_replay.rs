//! Saltmarch in the browser: the web build plays the committed playthrough
//! (`inputs/saltmarch_playthrough.json`: party creation, the warren, the town, the abbey and
//! the Bog King) in headless Chromium to the ending, with the same bag trace, frame by frame,
//! and the same last frame as a native headless run. Every fight's dice and the monsters' play
//! run in the page, so this is where the two platforms would part.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1`, or `JENGINE_REQUIRE_WASM=1` when it is the wasm tools that are
//! missing, that is a failure.

use jengine_testkit::web::{Start, replay_game_in_browser};
use saltmarch_tests::{PACKAGES, project};

#[test]
fn the_playthrough_reaches_the_ending_in_the_browser_as_headless() {
    let build =
        |p: &std::path::Path| jengine_tool::web_build::web_build(p, None, true).map(|b| b.out);
    let input = project().join("tests/inputs/saltmarch_playthrough.json");
    let Some(page) = replay_game_in_browser(
        "Saltmarch",
        build,
        &project(),
        PACKAGES,
        &Start::seed(1),
        &input,
        60,
    ) else {
        return;
    };
    // The page ran the same frames as the native run, which the playthrough test holds to the
    // ending; here the fights are seen won in the page's own bags.
    let won = page
        .trace
        .iter()
        .filter(|line| line.contains(r#""ending":"won""#))
        .count();
    assert!(won > 0, "no fight was won in the page");
    // And the page ends where the playthrough does: the Bog King's fight won in the crypt.
    let last = page.trace.last().expect("the page ran frames");
    assert!(
        last.contains(r#""level_name":"Abbey Crypt""#) && last.contains(r#""ending":"won""#),
        "the page did not end with the Bog King beaten: {last:.600}"
    );
}
