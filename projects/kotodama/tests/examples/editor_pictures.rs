//! The pictures in docs/editor.md: Kotodama's title in the editor's page (headless Chromium),
//! playing its demo battle with the logo selected, then the Packages tab. Written into
//! `docs/images/`; run by hand after the page changes:
//! `cargo run --release -p kotodama-tests --example editor_pictures`.
//!
//! Every wait is for something the page or the session says (the mode, the outline, the
//! game's frame count), not a set time.

use std::path::Path;
use std::time::Duration;

use jengine::Package;
use jengine_editor::{Background, EditOptions};

fn packages() -> Vec<&'static dyn Package> {
    kotodama_tests::packages().to_vec()
}

/// Frames of the demo battle played before the first picture: a few words on the board.
const DEMO_FRAMES: u64 = 420;

fn main() {
    if let Err(why) = jengine_testkit::browser::available() {
        eprintln!("the editor's pictures need Chromium: {why}");
        std::process::exit(1);
    }
    let images = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../docs/images");
    std::fs::create_dir_all(&images).expect("docs/images can be made");
    let editor = Background::start(EditOptions::new(kotodama_tests::project()), packages)
        .unwrap_or_else(|p| panic!("{p:#?}"));
    let url = format!("http://127.0.0.1:{}/?token={}", editor.port, editor.token);
    let browser = jengine_testkit::browser::Browser::start().expect("Chromium starts");
    browser.goto(&url).expect("the page opens");
    let patience = Duration::from_secs(120);
    browser
        .wait_until(
            "document.getElementById('mode').textContent === 'edit mode'",
            patience,
        )
        .expect("the page opens in edit mode");
    // Started in this process, the session has no viewport build of its own to be fresh
    // against; the banner saying so is not what the picture shows.
    if browser
        .wait_until(
            "document.getElementById('banner').classList.contains('on')",
            Duration::from_secs(30),
        )
        .is_ok()
    {
        browser
            .click("#banner-dismiss", patience)
            .expect("the banner closes");
    }
    browser.click("#play", patience).expect("Play");
    // The session's frame count, asked of the session itself.
    let frame = || {
        editor.get("/api/state?since=999999999").1["frame"]
            .as_u64()
            .unwrap_or(0)
    };
    while frame() < DEMO_FRAMES {
        std::thread::sleep(Duration::from_millis(100));
    }
    // Play again pauses: the picture holds still while it is taken.
    browser.click("#play", patience).expect("Pause");
    browser
        .click("#tree li.entity[data-name=\"logo\"]", patience)
        .expect("the logo is in the tree");
    browser
        .wait_until(
            "getComputedStyle(document.getElementById('outline')).display === 'block'",
            patience,
        )
        .expect("the logo is outlined");
    let shot = images.join("editor.png");
    browser.screenshot_png(&shot).expect("a screenshot");
    println!("wrote {}", shot.display());
    browser
        .click("#tab-packages", patience)
        .expect("the Packages tab");
    browser
        .wait_for(".package[data-package=\"jengine-kotoba\"]", patience)
        .expect("jengine-kotoba is listed");
    // Kotoba's own entry at the top, its typed commands in view.
    browser
        .execute(
            "document.querySelector('.package[data-package=\"jengine-kotoba\"]').scrollIntoView();",
            vec![],
        )
        .expect("the panel scrolls");
    let shot = images.join("editor-packages.png");
    browser.screenshot_png(&shot).expect("a screenshot");
    println!("wrote {}", shot.display());
}
