//! Gift links in the browser: Miau's web build in headless Chromium, opened as
//! `index.html#gift=<code>`. A good code is offered the way `--gift <link>` offers it natively
//! (the Gift screen, then Enter keeps it and plays it); a tampered one is refused on the title
//! with the very message the native game gives for the same link, and nothing is installed.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

use std::time::Duration;

use jengine_miau::share::{DEFAULT_LINK_BASE, pack_link};
use jengine_miau::source::{SourceKind, load};
use jengine_testkit::Options;
use jengine_testkit::browser::{Browser, available, skip_or_fail};
use jengine_testkit::web::{serve, wasm_missing};
use miau_tests::{bag, open, project};

const SECOND: Duration = Duration::from_secs(1);

/// The smallest pack, as a share link.
const HELLO: &str = "module.exports = { manifest: { id: 'hello-miau', name: 'Hello Miau', version: '1.0.0' }, \
     levels: [{ id: 'intro', width: 5, height: 3, objects: [\
     { kind: 'word', text: 'MIAU', x: 0, y: 0 }, { kind: 'word', text: 'IS', x: 1, y: 0 }, \
     { kind: 'word', text: 'YOU', x: 2, y: 0 }, { kind: 'object', noun: 'MIAU', x: 0, y: 1 }] }] };";

/// The latest traced frame's scene.
const SCENE: &str =
    "(jengine.trace.length ? JSON.parse(jengine.trace[jengine.trace.length - 1]).scene : null)";

/// The latest traced frame's Miau bag (whichever entity has it), or null.
const MIAU: &str = "(jengine.trace.length ? (Object.values(JSON.parse(jengine.trace[jengine.trace.length - 1]).bags).map(b => b.Miau).find(b => b) || null) : null)";

/// The page at `url` once it runs.
fn opened(browser: &Browser, url: &str) {
    browser.goto(url).unwrap();
    browser
        .wait_until(
            "window.jengine && jengine.state === 'running' && jengine.frame() >= 3",
            120 * SECOND,
        )
        .unwrap_or_else(|e| {
            let state = browser.execute(
                "return [window.jengine && jengine.state, window.jengine && jengine.lastError]",
                vec![],
            );
            panic!("{e}: {state:?}")
        });
}

/// The native game started with `--gift <link>` and given time to open it: its Miau bag.
fn native_with_gift(link: &str) -> serde_json::Value {
    let out = tempfile::tempdir().unwrap();
    let options = Options {
        args: vec!["--gift".into(), link.into()],
        ..Options::default()
    };
    let mut game = open(options, out.path());
    game.settle(6);
    bag(&game)
}

#[test]
fn a_gift_in_the_address_is_offered_as_at_launch_and_a_tampered_one_refused_alike() {
    if let Err(why) = available() {
        skip_or_fail(&format!("Miau's gift links in the browser: {why}"));
        return;
    }
    if let Some(missing) = wasm_missing() {
        skip_or_fail(&format!("Miau's gift links in the browser need {missing}"));
        return;
    }
    let out = tempfile::tempdir().unwrap();
    jengine_tool::web_build::web_build(&project(), Some(out.path()), true)
        .unwrap_or_else(|problems| panic!("web-build failed:\n{}", problems.join("\n")));
    assert!(
        out.path().join("gift.js").is_file(),
        "the gift part is in the folder"
    );
    let address = serve(out.path().to_path_buf());
    let browser = Browser::start().unwrap();

    let checked = load(HELLO, SourceKind::CommonJs, "hello.cjs").unwrap();
    let link = pack_link(&checked.pack, DEFAULT_LINK_BASE).unwrap();
    let code = link.split_once('#').unwrap().1;

    // A tampered code (the end of its data changed), first, while the player's data is new:
    // refused on the title with the native message for the same link, and nothing is pending.
    let (head, data) = code.split_at(code.len() - 8);
    let flipped: String = data
        .chars()
        .map(|c| if c == 'A' { 'B' } else { 'A' })
        .collect();
    let tampered = format!("{head}{flipped}");
    opened(
        &browser,
        &format!("{address}/index.html?trace#gift={tampered}"),
    );
    browser
        .wait_until(
            &format!("{MIAU} && {MIAU}.outcome && {MIAU}.outcome.op === 'link'"),
            60 * SECOND,
        )
        .unwrap();
    let refused = browser.execute(&format!("return {MIAU}"), vec![]).unwrap();
    let native = native_with_gift(&format!("{DEFAULT_LINK_BASE}#{tampered}"));
    assert_eq!(refused["outcome"]["ok"], false, "{refused}");
    assert_eq!(
        refused["outcome"]["message"], native["outcome"]["message"],
        "the page refuses with the native words"
    );
    assert!(refused["pending"].is_null(), "nothing waits: {refused}");
    assert_eq!(
        browser.execute(&format!("return {SCENE}"), vec![]).unwrap(),
        "title"
    );

    // Then a good code: the Gift screen, as natively; Enter keeps the pack and plays it.
    opened(
        &browser,
        &format!("{address}/index.html?trace&seed=2#gift={code}"),
    );
    browser
        .wait_until(&format!("{SCENE} === 'gift'"), 60 * SECOND)
        .unwrap_or_else(|e| {
            panic!(
                "{e}: {:?}",
                browser.execute(&format!("return [{SCENE}, {MIAU}]"), vec![])
            )
        });
    let offered = browser.execute(&format!("return {MIAU}"), vec![]).unwrap();
    assert_eq!(
        refused["catalog"], offered["catalog"],
        "the refused gift installed nothing and lost nothing"
    );
    let native = native_with_gift(&link);
    assert_eq!(
        offered["pending"], native["pending"],
        "the page offers what --gift offers"
    );
    assert!(
        !offered["pending"].is_null(),
        "a gift waits for the player: {offered}"
    );
    browser.send_keys_to_active("\u{E007}").unwrap();
    browser
        .wait_until(&format!("{SCENE} === 'play'"), 60 * SECOND)
        .unwrap();
    let playing = browser.execute(&format!("return {MIAU}"), vec![]).unwrap();
    assert_eq!(playing["playing"]["pack"], "hello-miau", "{playing}");
}
