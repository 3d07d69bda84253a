//! The page's sound, saves and clipboard in headless Chromium, on a copy of the counter fixture
//! with a probe: an entity whose counter shows what its script found at start (the saved count,
//! plus 1000 when the save could not be read) and which starts a looping tone.
//!
//! Sound cannot be heard here, so what is checked is that a real gesture starts the page's
//! audio, that the page takes the mixed samples, and that the music clock follows what the page
//! reports played. Saves go to `localStorage` and come back after a reload; a damaged save is
//! set aside under another key and the game is told; forged keys and a flood of keys are left
//! as they are. A copy reaches `navigator.clipboard.writeText`, and after the browser refuses
//! one, copies stay in memory.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

mod common;

use std::path::Path;
use std::time::Duration;

use jengine_testkit::browser::Browser;
use jengine_testkit::web::{serve, wasm_missing};
use serde_json::Value;

const SECOND: Duration = Duration::from_secs(1);
/// The fixture's keys in `localStorage`.
const PREFIX: &str = "jengine/counter-fixture/";
/// Frames the mixer may hold in front of what the page played: 80 ms ahead and four steps.
const MOST_QUEUED: u64 = 3840 + 4 * 800;

const PROBE_LUA: &str = r#"
function start(e)
  Counter.add(e, Save.get("count_at_3") or 0)
  if Save.problem() ~= nil then Counter.add(e, 1000) end
  Audio.music("tone.wav")
end

function key(e, name, down)
  if down and name == "s" then Save.set("s", (Save.get("s") or 0) + 1) end
end
"#;

/// The probe's count on the page's latest traced frame.
const PROBE: &str = "(jengine.trace.length ? JSON.parse(jengine.trace[jengine.trace.length - 1]).bags.probe.counter.count : null)";

/// A second of a quiet 440 Hz tone, mono, 16-bit, at the mixer's rate.
fn tone(path: &Path) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 48_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for i in 0..48_000 {
        let s = (i as f64 * 440.0 / 48_000.0 * std::f64::consts::TAU).sin() * 3000.0;
        w.write_sample(s as i16).unwrap();
    }
    w.finalize().unwrap();
}

/// The counter fixture with the probe and its tone.
fn project() -> tempfile::TempDir {
    let dir = common::copy_fixture();
    common::write(dir.path(), "assets/scripts/probe.lua", PROBE_LUA);
    std::fs::create_dir_all(dir.path().join("assets/audio")).unwrap();
    tone(&dir.path().join("assets/audio/tone.wav"));
    let scene = dir.path().join("assets/scenes/main.scene");
    let text = std::fs::read_to_string(&scene).unwrap().replacen(
        "\"entities\": [",
        "\"entities\": [\n    { \"name\": \"probe\", \"counter\": { \"count\": 0, \"step\": 0 }, \"script\": \"probe.lua\" },",
        1,
    );
    std::fs::write(scene, text).unwrap();
    dir
}

fn started(browser: &Browser, url: &str) {
    browser.goto(url).unwrap();
    browser
        .wait_until(
            "window.jengine && jengine.state === 'running' && jengine.frame() >= 4 && jengine.trace.length >= 4",
            60 * SECOND,
        )
        .unwrap_or_else(|e| {
            let state = browser.execute(
                "return [window.jengine && jengine.state, window.jengine && jengine.lastError]",
                vec![],
            );
            panic!("{e}: {state:?}")
        });
}

fn get(browser: &Browser, expr: &str) -> Value {
    browser.execute(&format!("return {expr}"), vec![]).unwrap()
}

fn stored(browser: &Browser, slot: &str) -> Value {
    get(
        browser,
        &format!("localStorage.getItem({:?})", format!("{PREFIX}{slot}")),
    )
}

#[test]
fn sound_saves_and_the_clipboard_work_in_the_page() {
    if let Err(why) = jengine_testkit::browser::available() {
        jengine_testkit::browser::skip_or_fail(&format!(
            "the page's sound, saves and clipboard: {why}"
        ));
        return;
    }
    if let Some(missing) = wasm_missing() {
        jengine_testkit::browser::skip_or_fail(&format!(
            "the page's sound, saves and clipboard need {missing}"
        ));
        return;
    }
    let project = project();
    let out = tempfile::tempdir().unwrap();
    common::web_build(project.path(), out.path());
    for part in ["audio.js", "storage.js", "clipboard.js"] {
        assert!(out.path().join(part).is_file(), "{part} is in the folder");
    }
    let address = serve(out.path().to_path_buf());
    let browser = Browser::start().unwrap();
    // `?sound`: a traced page is otherwise silent, to match a headless run.
    let url = format!("{address}/index.html?trace&sound&seed=7");
    started(&browser, &url);

    // Before any gesture: nothing plays, and the clock runs as headless.
    assert_eq!(
        get(&browser, "jengine.audio.state"),
        "waiting for a gesture"
    );
    let clock = get(&browser, "jengine.audio.clock()");
    assert_eq!(clock["running"], false);
    assert_eq!(clock["mixed"], clock["played"], "{clock}");
    assert_eq!(get(&browser, PROBE), 0, "no save yet");

    // The save of frame 3 reached localStorage.
    browser
        .wait_until(
            &format!(
                "(localStorage.getItem({PREFIX:?} + 'save.json') || '').includes('count_at_3')"
            ),
            20 * SECOND,
        )
        .unwrap();
    let save: Value =
        serde_json::from_str(stored(&browser, "save.json").as_str().unwrap()).unwrap();
    assert_eq!(save["count_at_3"], 3);

    // A real click is the gesture: the page's audio starts, takes samples and plays them, and
    // the music clock follows what it played.
    browser.find("#game").unwrap().click().unwrap();
    browser
        .wait_until(
            "jengine.audio.state === 'running' && jengine.audio.taken > 9600 && jengine.audio.played > 4800",
            30 * SECOND,
        )
        .unwrap_or_else(|e| panic!("{e}: {:?}", get(&browser, "[jengine.audio.state, jengine.audio.taken, jengine.audio.played]")));
    let first = get(&browser, "jengine.audio.clock()");
    browser
        .wait_until(
            &format!(
                "jengine.audio.clock().played > {} + 9600",
                first["played"].as_u64().unwrap()
            ),
            30 * SECOND,
        )
        .unwrap();
    let clock = get(&browser, "jengine.audio.clock()");
    assert_eq!(clock["running"], true);
    assert_eq!(clock["playing"], true);
    let (mixed, played) = (
        clock["mixed"].as_u64().unwrap(),
        clock["played"].as_u64().unwrap(),
    );
    assert!(mixed >= played && mixed - played <= MOST_QUEUED, "{clock}");
    // The tone loops every second from the stream's first frame: the clock is what was played.
    let position = clock["position"].as_f64().unwrap();
    let at = clock["clockPlayed"].as_u64().unwrap();
    assert!(at <= played && played - at <= MOST_QUEUED, "{clock}");
    let expected = (at % 48_000) as f64 / 48_000.0;
    assert!((position - expected).abs() < 1e-9, "{clock}");

    // A copy reaches the browser's clipboard.
    browser
        .execute(
            "window.copied = []; const real = navigator.clipboard.writeText.bind(navigator.clipboard); \
             navigator.clipboard.writeText = (t) => { copied.push(t); return real(t); };",
            vec![],
        )
        .unwrap();
    browser.send_keys_to_active("c").unwrap();
    browser
        .wait_until(
            "copied.length === 1 && (jengine.clipboard.written === 1 || jengine.clipboard.refused !== null)",
            20 * SECOND,
        )
        .unwrap();
    let copied = get(&browser, "copied[0]");
    assert!(copied.as_str().unwrap().starts_with("count "), "{copied}");
    // Once the browser refuses, copies stay in memory and the browser is not asked again.
    browser
        .execute(
            "navigator.clipboard.writeText = (t) => { copied.push(t); \
               return Promise.reject(new DOMException('refused on purpose', 'NotAllowedError')); };",
            vec![],
        )
        .unwrap();
    if get(&browser, "jengine.clipboard.refused").is_null() {
        browser.send_keys_to_active("c").unwrap();
        browser
            .wait_until(
                "copied.length === 2 && jengine.clipboard.refused !== null",
                20 * SECOND,
            )
            .unwrap();
    }
    let asked = get(&browser, "copied.length").as_u64().unwrap();
    let frame = get(&browser, "jengine.frame()").as_u64().unwrap();
    browser.send_keys_to_active("c").unwrap();
    browser
        .wait_until(&format!("jengine.frame() > {frame} + 10"), 20 * SECOND)
        .unwrap();
    assert_eq!(get(&browser, "copied.length").as_u64().unwrap(), asked);
    assert_eq!(get(&browser, "jengine.state"), "running");

    // A write the browser refuses (its quota) is said, and the game plays on.
    browser
        .execute(
            "window.realSetItem = Storage.prototype.setItem; \
             Storage.prototype.setItem = function () { throw new DOMException('full on purpose', 'QuotaExceededError'); };",
            vec![],
        )
        .unwrap();
    browser.send_keys_to_active("s").unwrap();
    browser
        .wait_until(
            "(jengine.storage.refused || '').includes('full on purpose')",
            20 * SECOND,
        )
        .unwrap();
    let frame = get(&browser, "jengine.frame()").as_u64().unwrap();
    browser
        .wait_until(
            &format!("jengine.state === 'running' && jengine.frame() > {frame} + 10"),
            20 * SECOND,
        )
        .unwrap();
    browser
        .execute("Storage.prototype.setItem = window.realSetItem;", vec![])
        .unwrap();

    // A reload finds the save.
    started(&browser, &url);
    assert_eq!(get(&browser, PROBE), 3, "the probe read the saved count");
    assert_eq!(
        get(&browser, "jengine.storage.loaded.includes('save.json')"),
        true
    );

    // A damaged save, a forged name, a large value and a flood of keys.
    browser
        .execute(
            &format!(
                "const p = {PREFIX:?}; localStorage.setItem(p + 'save.json', '{{broken'); \
                 localStorage.setItem(p + '../x', 'forged'); localStorage.setItem(p + 'big.txt', 'x'.repeat(1 << 20)); \
                 for (let i = 0; i < 3000; i++) localStorage.setItem(p + 'junk' + i, String(i));"
            ),
            vec![],
        )
        .unwrap();
    started(&browser, &url);
    assert_eq!(
        get(&browser, PROBE),
        1000,
        "the game was told its save could not be read"
    );
    assert_eq!(
        stored(&browser, "save.json.bad"),
        "{broken",
        "the damaged save is kept"
    );
    browser
        .wait_until(
            &format!(
                "(localStorage.getItem({PREFIX:?} + 'save.json') || '').includes('count_at_3')"
            ),
            20 * SECOND,
        )
        .unwrap();
    assert_eq!(
        stored(&browser, "../x"),
        "forged",
        "a forged key is left as it is"
    );
    assert_eq!(stored(&browser, "junk2999"), "2999");
    assert_eq!(
        get(&browser, "jengine.storage.held.includes('../x')"),
        true,
        "{}",
        get(&browser, "jengine.storage.problems")
    );
    let problems = get(&browser, "jengine.storage.problems").to_string();
    assert!(
        problems.contains("../x") && problems.contains("keys past"),
        "{problems}"
    );
    assert_eq!(get(&browser, "jengine.storage.loaded.length"), 1024);
    assert_eq!(get(&browser, "jengine.state"), "running");
}
