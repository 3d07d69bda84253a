//! The editor in real headless Chromium: `jengine edit` on a copy of the fixture project whose
//! package lives outside the workspace. Select an entity, change a field and see the frame
//! change, save and find the edit on disk, make a bad edit and see its error beside the field,
//! break a script and see its error in the log, touch the package's source and see the
//! Rebuild banner, rebuild into a compiler error (the session goes on), then rebuild for real
//! and find the session back on the new build with the scene as it was. Screenshots of the
//! page go to `target/editor-shots/`.
//!
//! Without Chromium and ChromeDriver the test says it was skipped; with
//! `JENGINE_REQUIRE_CHROMIUM=1` (set by `.ci/run`) that is a failure instead.

mod common;

use std::io::BufRead;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use jengine_testkit::browser::{Browser, TAB};
use serde_json::Value;

/// The editor's process group: the tool and the viewport binary it runs.
struct Kill(Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        for signal in ["-TERM", "-KILL"] {
            let _ = Command::new("kill")
                .args([signal, "--", &group])
                .stderr(Stdio::null())
                .status();
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(2) {
                if let Ok(Some(_)) = self.0.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.0.wait();
    }
}

const SECOND: Duration = Duration::from_secs(1);
/// How long a condition may take to come true before the test gives up. Every wait returns as
/// soon as its condition holds, so this only bounds a test that would otherwise hang: it is
/// generous because a machine busy with other work can be slow, never wrong.
const PATIENCE: Duration = Duration::from_secs(120);

/// A folder outside any workspace, one per checkout and emptied first (so each run builds
/// over the same viewport binary rather than leaving a new one in the target folder).
fn home(root: &Path) -> PathBuf {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in root.to_string_lossy().bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    let home = std::env::temp_dir().join(format!("jengine-editor-{hash:08x}"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::canonicalize(&home).unwrap()
}

/// The fixture project and its package, the package written as one outside the workspace
/// writes it.
fn set_up(root: &Path, home: &Path) -> PathBuf {
    let package = home.join("counter");
    common::write(
        &package,
        "Cargo.toml",
        &format!(
            "[package]\nname = \"edited-counter\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[package.metadata.jengine]\nentry = \"CounterPackage\"\nnamespace = \"Counter\"\ndepends = []\n\n[dependencies]\njengine = {{ path = \"{}\" }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\n",
            root.join("packages/jengine").display()
        ),
    );
    let source =
        std::fs::read_to_string(root.join("tools/fixtures/counter-package/src/lib.rs")).unwrap();
    // Its own name: the workspace's fixture package is in the same build graph.
    common::write(
        &package,
        "src/lib.rs",
        &source.replace("\"jengine-counter\"", "\"edited-counter\""),
    );
    let project = home.join("project");
    let copy = common::copy_fixture();
    copy_tree(copy.path(), &project);
    let file = project.join("project.jengine");
    let text = std::fs::read_to_string(&file).unwrap();
    let listed = root.join("tools/fixtures/counter-package");
    let text = text
        .replace(listed.to_str().unwrap(), "../counter")
        .replace("\"jengine-counter\"", "\"edited-counter\"");
    std::fs::write(&file, text).unwrap();
    project
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn shot(browser: &Browser, root: &Path, name: &str) {
    let dir = root.join("target/editor-shots");
    std::fs::create_dir_all(&dir).unwrap();
    browser.screenshot_png(&dir.join(name)).unwrap();
}

/// The colour of frame pixel (x, y) as the page's canvas shows it.
fn pixel_js(x: u32, y: u32) -> String {
    format!(
        "(() => {{ const c = document.getElementById('viewport'); if (c.width !== 640) return null; const d = c.getContext('2d').getImageData({x}, {y}, 1, 1).data; return [d[0], d[1], d[2]]; }})()"
    )
}

fn near(js: &str, rgb: [u8; 3]) -> String {
    format!(
        "(() => {{ const p = {js}; return p !== null && Math.abs(p[0] - {}) <= 3 && Math.abs(p[1] - {}) <= 3 && Math.abs(p[2] - {}) <= 3; }})()",
        rgb[0], rgb[1], rgb[2]
    )
}

fn session_id(browser: &Browser) -> String {
    browser
        .execute("return S.session;", vec![])
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn wait_file(path: &Path, what: &str, test: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if test(&text) {
            return text;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "waited for {what} in {}:\n{text}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits (long: a rebuild compiles) until `expr` holds; if it never does, says what the page
/// showed: the banner, the session, and the log's last lines, with a screenshot.
fn wait_long(browser: &Browser, root: &Path, expr: &str, limit: Duration) {
    if let Err(e) = browser.wait_until(expr, limit) {
        let seen = browser
            .execute(
                "return { session: S.session, banner: document.getElementById('banner').className, \
                 text: document.getElementById('banner-text').textContent, \
                 offline: document.getElementById('offline').className, \
                 log: [...document.querySelectorAll('.log-line')].slice(-40).map(l => l.textContent) };",
                vec![],
            )
            .unwrap_or_default();
        shot(browser, root, "editor-timed-out.png");
        panic!("{e}\nthe page showed: {seen:#}");
    }
}

/// Waits until the page's "unsaved" mark is shown (or gone).
/// Presses Rebuild and waits (long) until `expr` holds.
fn rebuild_until(browser: &Browser, root: &Path, expr: &str, limit: Duration) {
    browser.click("#rebuild", PATIENCE).unwrap();
    wait_long(browser, root, expr, limit);
}

fn wait_unsaved(browser: &Browser, shown: bool) {
    let not = if shown { "" } else { "!" };
    browser
        .wait_until(
            &format!("{not}document.getElementById('dirty').classList.contains('on')"),
            PATIENCE,
        )
        .unwrap();
}

/// Pointer events on the view at frame pixels of the 640x360 fixture: (kind, x, y, alt).
fn pointer(browser: &Browser, events: &[(&str, u32, u32, bool)]) {
    let list = serde_json::to_value(events).unwrap();
    browser
        .execute(
            "const c = document.getElementById('viewport'); const r = c.getBoundingClientRect(); \
             for (const [kind, x, y, alt] of arguments[0]) { \
               c.dispatchEvent(new PointerEvent(kind, { clientX: r.left + r.width * x / 640, \
                 clientY: r.top + r.height * y / 360, altKey: alt, bubbles: true })); \
             }",
            vec![list],
        )
        .unwrap();
}

/// Sets the text field `field` of component `key` in the inspector and leaves it (a change).
/// The inspector draws itself again when the scene changes, so a field found just before that
/// is looked up again.
fn type_field(browser: &Browser, key: &str, field: &str, text: &str) {
    let css =
        format!(".component[data-key=\"{key}\"] [data-field=\"{field}\"] input[type=\"text\"]");
    let start = std::time::Instant::now();
    loop {
        let typed = browser.wait_for(&css, PATIENCE).and_then(|input| {
            input.clear()?;
            input.send_keys(&format!("{text}{TAB}"))
        });
        match typed {
            Ok(()) => return,
            // Found just before the inspector drew itself again: find the new one.
            Err(e) if e.contains("stale element") || e.contains("not interactable") => {
                assert!(
                    start.elapsed() < PATIENCE,
                    "the field kept changing under the test: {e}"
                );
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// Starts `jengine edit` with `args` from `dir` (its own process group, silent, no browser of
/// its own): the process and the page's address once it prints it.
fn edit(dir: &Path, args: &[&str]) -> (Kill, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jengine"))
        .arg("edit")
        .args(args)
        .args(["--no-open", "--mute"])
        .current_dir(dir)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let editor = Kill(child);
    // Read on a thread: a first build may take minutes, and the wait has a limit.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let url = loop {
        let line = rx
            .recv_timeout(900 * SECOND)
            .expect("jengine edit prints its address");
        if let Some(url) = line.strip_prefix("jengine edit: ") {
            break url.to_string();
        }
    };
    (editor, url)
}

#[test]
fn a_developer_edits_saves_and_rebuilds_in_the_browser() {
    if let Err(why) = jengine_testkit::browser::available() {
        jengine_testkit::browser::skip_or_fail(&format!("the editor's browser test: {why}"));
        return;
    }
    let root = common::workspace();
    let home = home(&root);
    let project = set_up(&root, &home);

    // `jengine edit` builds the project's viewport, then serves the page.
    let (editor, url) = edit(&home, &["project", "--dev"]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");

    let browser = Browser::start().unwrap();
    browser.goto(&url).unwrap();
    browser
        .wait_for("#tree li.entity[data-name=\"box\"]", PATIENCE)
        .unwrap();
    browser
        .wait_until(&format!("{} !== null", pixel_js(320, 140)), PATIENCE)
        .unwrap();
    // The box is orange in the running game.
    browser
        .wait_until(&near(&pixel_js(320, 140), [0xe0, 0xa0, 0x30]), PATIENCE)
        .unwrap();
    shot(&browser, &root, "editor-start.png");

    // The view takes the keyboard when clicked: R reaches the script, which resets the count.
    let count = |browser: &Browser| {
        browser
            .execute_async(
                "const done = arguments[arguments.length - 1]; \
                 api('/api/entity?index=1').then(r => done(r.data.components[3].live.count));",
                vec![],
            )
            .unwrap()
            .as_i64()
            .unwrap()
    };
    assert!(count(&browser) > 0, "the script counted on start");

    // The scene opened paused in edit mode, its first frame run: the script wrote the label.
    browser
        .wait_until(
            "document.getElementById('mode').textContent === 'edit mode'",
            PATIENCE,
        )
        .unwrap();
    let label_text = |browser: &Browser| {
        browser
            .execute_async(
                "const done = arguments[arguments.length - 1];                  api('/api/entity?index=2').then(r => done(r.data.components.find(c => c.key === 'text').live));",
                vec![],
            )
            .unwrap()
    };
    let written = label_text(&browser)["text"].clone();
    assert!(written.as_str().unwrap().starts_with("count "), "{written}");
    // Its colour (a colour by its type: a picker with alpha beside the value) changed in the
    // inspector: only the colour changes, the text the script wrote stays.
    browser
        .click("#tree li.entity[data-name=\"label\"]", PATIENCE)
        .unwrap();
    browser
        .wait_for(
            ".component[data-key=\"text\"] [data-field=\"color\"] input[type=\"color\"]",
            PATIENCE,
        )
        .unwrap();
    browser
        .wait_for(
            ".component[data-key=\"text\"] [data-field=\"color\"] input[type=\"range\"]",
            PATIENCE,
        )
        .unwrap();
    type_field(&browser, "text", "color", "[1, 0, 0, 1]");
    let start = Instant::now();
    loop {
        let live = label_text(&browser);
        let colour: Vec<f64> = live["color"]
            .as_array()
            .map(|c| c.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        if colour == [1.0, 0.0, 0.0, 1.0] {
            assert_eq!(live["text"], written, "the text the script wrote stays");
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the colour never changed: {live}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // No field's name is cut in the inspector.
    let cut = browser
        .execute(
            "return [...document.querySelectorAll('.fields label')].filter(l => l.scrollWidth > l.clientWidth + 1).map(l => l.textContent);",
            vec![],
        )
        .unwrap();
    assert_eq!(cut, serde_json::json!([]), "labels cut");
    shot(&browser, &root, "editor-edit-mode.png");
    browser.execute("api('/api/undo', {});", vec![]).unwrap();
    wait_unsaved(&browser, false);
    // Play starts the scene from the file.
    browser.click("#play", PATIENCE).unwrap();
    browser
        .wait_until(
            "document.getElementById('mode').textContent === 'playing'",
            PATIENCE,
        )
        .unwrap();

    let view = browser.find("#viewport").unwrap();
    view.click().unwrap();
    view.send_keys("r").unwrap();
    let start = Instant::now();
    while count(&browser) != 0 {
        assert!(start.elapsed() < PATIENCE, "R never reached the game");
        std::thread::sleep(Duration::from_millis(100));
    }

    // A request that fails while the page reads a change (the session busy, or restarting on
    // a new build) is tried again: the page never stops following the session.
    browser
        .execute(
            "window.__fetch = window.fetch; \
             window.fetch = (p, i) => String(p).startsWith('/api/scene') \
               ? Promise.reject(new TypeError('offline for a moment')) : window.__fetch(p, i); \
             api('/api/edit', { op: 'rename', entity: 2, name: 'caption' });",
            vec![],
        )
        .unwrap();
    wait_unsaved(&browser, true);
    std::thread::sleep(Duration::from_millis(800));
    browser
        .execute("window.fetch = window.__fetch;", vec![])
        .unwrap();
    browser
        .wait_for("#tree li.entity[data-name=\"caption\"]", PATIENCE)
        .unwrap();
    browser.execute("api('/api/undo', {});", vec![]).unwrap();
    browser
        .wait_for("#tree li.entity[data-name=\"label\"]", PATIENCE)
        .unwrap();
    wait_unsaved(&browser, false);

    // An entity selected in the tree shows in the inspector.
    browser
        .click("#tree li.entity[data-name=\"label\"]", PATIENCE)
        .unwrap();
    browser
        .wait_for(".component[data-key=\"text\"]", PATIENCE)
        .unwrap();
    // Alt+click on the box in the view selects it: the inspector shows its components, the
    // tree marks it, the viewport outlines it.
    pointer(&browser, &[("pointerdown", 320, 140, true)]);
    browser
        .wait_for("#tree li.entity.selected[data-name=\"box\"]", PATIENCE)
        .unwrap();
    // Dragged on from there, one unit right, and let go: the box moves; Undo puts it back.
    pointer(
        &browser,
        &[
            ("pointermove", 340, 140, false),
            ("pointermove", 360, 140, false),
            ("pointerup", 360, 140, false),
        ],
    );
    browser
        .wait_until(&near(&pixel_js(390, 140), [0xe0, 0xa0, 0x30]), PATIENCE)
        .unwrap();
    browser
        .wait_until("!document.getElementById('undo').disabled", PATIENCE)
        .unwrap();
    browser.click("#undo", PATIENCE).unwrap();
    browser
        .wait_until(&near(&pixel_js(290, 140), [0xe0, 0xa0, 0x30]), PATIENCE)
        .unwrap();
    browser
        .wait_for(".component[data-key=\"counter\"]", PATIENCE)
        .unwrap();
    // A package's component names its package (read in one go: the inspector may be drawing
    // itself again after the undo).
    browser
        .wait_until(
            "document.querySelector('.component[data-key=\"counter\"] .owner')?.textContent === 'edited-counter'",
            PATIENCE,
        )
        .unwrap();
    browser
        .wait_until(
            "getComputedStyle(document.getElementById('outline')).display === 'block'",
            PATIENCE,
        )
        .unwrap();

    // Change the tint: the frame shows it at once.
    type_field(&browser, "sprite", "tint", "#2080ff");
    browser
        .wait_until(&near(&pixel_js(320, 140), [0x20, 0x80, 0xff]), PATIENCE)
        .unwrap();
    wait_unsaved(&browser, true);
    shot(&browser, &root, "editor-edited.png");

    // Save: the file on disk holds the edit, the other lines as they were.
    let scene = project.join("assets/scenes/main.scene");
    let before = std::fs::read_to_string(&scene).unwrap();
    browser.click("#save", PATIENCE).unwrap();
    let saved = wait_file(&scene, "the saved tint", |t| t.contains("#2080ff"));
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(saved.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(before.lines().count(), saved.lines().count());
    wait_unsaved(&browser, false);

    // A bad edit: its error beside the field, and nothing changes.
    type_field(&browser, "sprite", "texture", "../x.png");
    browser
        .wait_until(
            "(document.querySelector('[data-error-for=\"texture\"]')?.textContent ?? '').includes('\"../x.png\" leaves its folder')",
            PATIENCE,
        )
        .unwrap();
    wait_unsaved(&browser, false);
    assert_eq!(std::fs::read_to_string(&scene).unwrap(), saved);
    shot(&browser, &root, "editor-bad-edit.png");

    // A script broken on disk: hot reload, and its error in the log with file and line.
    let script = project.join("assets/scripts/counter.lua");
    let good = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{good}\nfunction broken(\n")).unwrap();
    browser
        .wait_until(
            "[...document.querySelectorAll('.log-line.level-error')].some(l => l.textContent.includes('counter.lua:'))",
            PATIENCE,
        )
        .unwrap();
    std::fs::write(&script, &good).unwrap();

    // The package's source touched: the banner says so.
    let lib = home.join("counter/src/lib.rs");
    let source = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("{source}\nfn broken( {{\n")).unwrap();
    browser
        .wait_until(
            "document.getElementById('banner').classList.contains('on') && document.getElementById('banner-text').textContent.includes('lib.rs changed')",
            PATIENCE,
        )
        .unwrap();
    shot(&browser, &root, "editor-banner.png");

    // Rebuild into a compiler error: the error shows, the session goes on.
    let first = session_id(&browser);
    rebuild_until(
        &browser,
        &root,
        "document.getElementById('banner').classList.contains('failed')",
        300 * SECOND,
    );
    let failure = browser.find("#banner-text").unwrap().text().unwrap();
    assert!(failure.contains("error"), "{failure}");
    assert_eq!(session_id(&browser), first);
    let frame_then: Value = browser.execute("return S.session;", vec![]).unwrap();
    assert!(!frame_then.is_null());
    shot(&browser, &root, "editor-build-failed.png");

    // Fixed: Rebuild again, and the session comes back on the new build, the scene as it was.
    std::fs::write(&lib, format!("{source}\n// touched\n")).unwrap();
    assert_eq!(
        browser.find("#rebuild").unwrap().text().unwrap(),
        "Rebuild again"
    );
    // An edit not saved yet goes along to the new build.
    type_field(&browser, "sprite", "tint", "#30c050");
    browser
        .wait_until(&near(&pixel_js(320, 140), [0x30, 0xc0, 0x50]), PATIENCE)
        .unwrap();
    // A build that compiles but cannot start the project (a table it refuses): said, and
    // the session goes on, edits and all.
    let table = project.join("data/counter_goals.json");
    let goals = std::fs::read_to_string(&table).unwrap();
    std::fs::write(&table, "[{ \"id\": 3 }]").unwrap();
    browser
        .wait_until(
            "[...document.querySelectorAll('.log-line')].some(l => l.textContent.includes('the game keeps the ones it had'))",
            PATIENCE,
        )
        .unwrap();
    rebuild_until(
        &browser,
        &root,
        "document.getElementById('banner').classList.contains('failed') && document.getElementById('banner-text').textContent.includes('cannot start the project')",
        600 * SECOND,
    );
    let failure = browser.find("#banner-text").unwrap().text().unwrap();
    assert!(failure.contains("counter_goals"), "{failure}");
    assert_eq!(session_id(&browser), first);
    wait_unsaved(&browser, true);
    shot(&browser, &root, "editor-cannot-start.png");
    std::fs::write(&table, goals).unwrap();
    rebuild_until(
        &browser,
        &root,
        &format!(
            "S.session !== null && S.session !== {first:?} && !document.getElementById('banner').classList.contains('on')"
        ),
        600 * SECOND,
    );
    browser
        .wait_for("#tree li.entity[data-name=\"box\"]", PATIENCE)
        .unwrap();
    browser
        .wait_until(&near(&pixel_js(320, 140), [0x30, 0xc0, 0x50]), PATIENCE)
        .unwrap();
    wait_unsaved(&browser, true);
    assert!(
        std::fs::read_to_string(&scene).unwrap().contains("#2080ff"),
        "the unsaved edit stays unsaved"
    );
    browser
        .wait_until(
            "[...document.querySelectorAll('.log-line')].some(l => l.textContent.includes('carried over the rebuild'))",
            PATIENCE,
        )
        .unwrap();
    // The log went on over the rebuild: the two failed rebuilds are still in it, each once.
    let failed = browser
        .execute(
            "return [...document.querySelectorAll('.log-line')].filter(l => l.textContent.includes('the rebuild failed; this session goes on')).length;",
            vec![],
        )
        .unwrap();
    assert_eq!(failed, 2, "each failed rebuild said once, and kept");
    let scene_shown = browser
        .execute(
            "return document.getElementById('scene-select').value;",
            vec![],
        )
        .unwrap();
    assert_eq!(scene_shown, "main");
    shot(&browser, &root, "editor-rebuilt.png");
    // The undo history came along too: Undo takes the tint back to the one before.
    browser
        .wait_until("!document.getElementById('undo').disabled", PATIENCE)
        .unwrap();
    browser.click("#undo", PATIENCE).unwrap();
    browser
        .wait_until(&near(&pixel_js(320, 140), [0x20, 0x80, 0xff]), PATIENCE)
        .unwrap();
    browser.click("#redo", PATIENCE).unwrap();
    browser
        .wait_until(&near(&pixel_js(320, 140), [0x30, 0xc0, 0x50]), PATIENCE)
        .unwrap();

    // Saved, then another scene opened: a rebuild comes back in that scene.
    browser.click("#save", PATIENCE).unwrap();
    wait_file(&scene, "the saved tint", |t| t.contains("#30c050"));
    wait_unsaved(&browser, false);
    browser
        .click("#scene-select option[value=\"legacy\"]", PATIENCE)
        .unwrap();
    browser
        .wait_for("#tree li.entity[data-name=\"label\"]", PATIENCE)
        .unwrap();
    browser
        .wait_until("S.docScene === 'legacy'", PATIENCE)
        .unwrap();
    let second = session_id(&browser);
    std::fs::write(&lib, format!("{source}\n// touched again\n")).unwrap();
    browser
        .wait_until(
            "document.getElementById('banner').classList.contains('on')",
            PATIENCE,
        )
        .unwrap();
    rebuild_until(
        &browser,
        &root,
        &format!("S.session !== null && S.session !== {second:?} && S.docScene === 'legacy'"),
        600 * SECOND,
    );
    assert_eq!(
        browser
            .execute(
                "return document.getElementById('scene-select').value;",
                vec![]
            )
            .unwrap(),
        "legacy"
    );
    drop(browser);
    drop(editor);
}
