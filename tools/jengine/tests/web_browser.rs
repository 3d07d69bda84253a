//! The browser build in headless Chromium: `jengine web-build` makes the counter fixture's
//! folder, a static server on 127.0.0.1 serves it, and a real key press and clicks reach the
//! game. The page's bag trace, frame by frame, and its last frame must be those of a native
//! headless run of the same seed fed the page's own recording. A deliberate panic in the module
//! must be caught by the page, said, and followed by a fresh instance that plays on.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

mod common;

use std::process::Command;
use std::time::Duration;

use base64::Engine;
use jengine_testkit::browser::Browser;
use jengine_testkit::web::{serve, wasm_missing};
use jengine_tool::input::InputScript;
use jengine_tool::render::Renderer;
use jengine_tool::runtime::{Options, Runtime};

const SECOND: Duration = Duration::from_secs(1);
const SEED: u64 = 7;

/// The count in the box's bag on the page's latest traced frame.
const COUNT: &str = "(jengine.trace.length ? JSON.parse(jengine.trace[jengine.trace.length - 1]).bags.box.counter.count : null)";

#[test]
fn the_counter_plays_in_the_browser_as_it_does_headless() {
    if let Err(why) = jengine_testkit::browser::available() {
        jengine_testkit::browser::skip_or_fail(&format!("the web build's browser test: {why}"));
        return;
    }
    if let Some(missing) = wasm_missing() {
        jengine_testkit::browser::skip_or_fail(&format!(
            "the web build's browser test needs {missing}"
        ));
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let fixture = common::fixture();
    common::web_build(&fixture, out.path());
    for file in ["index.html", "jengine.js", "game.wasm", "game.bundle"] {
        assert!(out.path().join(file).is_file(), "{file} is in the folder");
    }
    let again = common::web_build(&fixture, out.path());
    assert!(
        again.contains("up to date"),
        "a second build changes nothing: {again}"
    );

    let address = serve(out.path().to_path_buf());
    let browser = Browser::start().unwrap();
    browser
        .goto(&format!("{address}/index.html?trace&seed={SEED}"))
        .unwrap();
    browser
        .wait_until(
            "window.jengine && jengine.state === 'running' && jengine.frame() >= 3",
            60 * SECOND,
        )
        .unwrap_or_else(|e| {
            let state = browser.execute(
                "return [window.jengine && jengine.state, window.jengine && jengine.lastError]",
                vec![],
            );
            panic!("{e}: {state:?}")
        });
    assert_eq!(
        browser.execute(&format!("return {COUNT}"), vec![]).unwrap(),
        3,
        "start added 1 and 2"
    );
    // A figure for docs/web.md, not a limit.
    let first = browser
        .execute("return jengine.firstFrameMs", vec![])
        .unwrap();
    eprintln!("first frame {first} ms after navigation");

    // A real key press: R resets the count.
    browser.send_keys_to_active("r").unwrap();
    browser
        .wait_until(&format!("{COUNT} === 0"), 20 * SECOND)
        .unwrap();
    // A real click at the canvas's middle (world x about 0: it adds -1 or 0), then a pointer
    // press at 76% of its width (world x 4.16 of the 16 wide camera: it adds 4).
    browser.find("#game").unwrap().click().unwrap();
    browser
        .wait_until(
            "JSON.parse(jengine.recording()).some(e => e.type === 'pointer' && e.phase === 'release')",
            20 * SECOND,
        )
        .unwrap();
    let clicked = browser
        .execute(&format!("return {COUNT}"), vec![])
        .unwrap()
        .as_i64()
        .unwrap();
    assert!([-1, 0].contains(&clicked), "the click added {clicked}");
    browser
        .execute(
            "const c = document.getElementById('game'); const r = c.getBoundingClientRect(); \
             for (const kind of ['pointerdown', 'pointerup']) { \
               c.dispatchEvent(new PointerEvent(kind, { clientX: r.left + r.width * 0.76, \
                 clientY: r.top + r.height / 2, isPrimary: true, button: 0, pointerId: 1, bubbles: true })); \
             }",
            vec![],
        )
        .unwrap();
    browser
        .wait_until(&format!("{COUNT} === {}", clicked + 4), 20 * SECOND)
        .unwrap();

    let paused = browser.execute("return jengine.pause()", vec![]).unwrap();
    let frames = paused["frame"].as_u64().unwrap();
    let (width, height) = (
        paused["width"].as_u64().unwrap() as u32,
        paused["height"].as_u64().unwrap() as u32,
    );
    let trace = browser.execute("return jengine.trace", vec![]).unwrap();
    let trace: Vec<String> = serde_json::from_value(trace).unwrap();
    let recording = browser
        .execute("return jengine.recording()", vec![])
        .unwrap();
    let rgba = browser
        .execute("return jengine.frameRGBA()", vec![])
        .unwrap();
    let rgba = base64::engine::general_purpose::STANDARD
        .decode(rgba.as_str().unwrap())
        .unwrap();
    assert_eq!(trace.len() as u64, frames, "one trace line a frame");

    // The same seed and the page's own recording, headless.
    let mut input = InputScript::parse(recording.as_str().unwrap()).unwrap();
    let mut runtime = Runtime::new(
        &fixture,
        &[&jengine_counter::CounterPackage],
        Options {
            seed: SEED,
            ..Options::default()
        },
    )
    .unwrap();
    let mut native = Vec::new();
    runtime.run(frames, &mut input, |r| {
        native.push(jengine_tool::trace::line(r))
    });
    assert_eq!(native.len(), trace.len());
    for (frame, (page, native)) in trace.iter().zip(&native).enumerate() {
        assert_eq!(page, native, "frame {} differs", frame + 1);
    }
    let mut renderer = Renderer::new(&fixture.join("assets"));
    renderer.preload(&runtime.world);
    let frame = renderer.render(&runtime.world, width, height);
    let differing = frame
        .rgba
        .chunks(4)
        .zip(rgba.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing,
        0,
        "{differing} of {} pixels differ between the page's last frame and the native one",
        width * height
    );

    // A panic inside the module traps it: the page says so and plays on in a fresh instance.
    browser
        .execute("jengine.resume(); jengine.crash()", vec![])
        .unwrap();
    browser
        .wait_until(
            "jengine.restarts === 1 && jengine.state === 'running' && jengine.frame() >= 2 \
             && document.getElementById('message').textContent.includes('jengine_crash was called')",
            30 * SECOND,
        )
        .unwrap();
    assert_eq!(
        browser.execute(&format!("return {COUNT}"), vec![]).unwrap(),
        3,
        "the fresh instance started the game again"
    );

    // Q quits (`Scene.quit()`): the page shows its end screen, and Play again starts afresh.
    browser.send_keys_to_active("q").unwrap();
    browser
        .wait_until(
            "jengine.state === 'ended' && document.getElementById('end').classList.contains('on')",
            20 * SECOND,
        )
        .unwrap();
    let ended_at = browser.execute("return jengine.frame()", vec![]).unwrap();
    browser.click("#again", 10 * SECOND).unwrap();
    browser
        .wait_until(
            &format!(
                "jengine.state === 'running' && jengine.frame() >= 2 && jengine.frame() < {ended_at}                  && !document.getElementById('end').classList.contains('on')"
            ),
            30 * SECOND,
        )
        .unwrap();
}

/// `jengine run --web` builds the folder, serves it on the loopback address and prints where;
/// with no desktop it says so instead of opening a browser.
#[test]
fn run_web_serves_the_build_and_prints_its_address() {
    if let Some(missing) = wasm_missing() {
        jengine_testkit::browser::skip_or_fail(&format!("jengine run --web needs {missing}"));
        return;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_jengine"))
        .args(["run", "--web", "--dev", "--seed", "5"])
        .arg(common::fixture())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let serving = lines
        .find_map(|l| l.ok().filter(|l| l.starts_with("serving ")))
        .expect("run --web says where it serves");
    let url = serving.rsplit(' ').next().unwrap().to_string();
    assert!(url.ends_with("/index.html?seed=5"), "{serving}");
    let addr = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let get = |path: &str| {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        out
    };
    let page = String::from_utf8_lossy(&get("/index.html?seed=5")).into_owned();
    assert!(
        page.starts_with("HTTP/1.1 200") && page.contains("jengine.js"),
        "{page}"
    );
    let wasm = get("/game.wasm");
    assert!(
        wasm.windows(4).any(|w| w == b"\0asm"),
        "the module is served"
    );
    child.kill().unwrap();
    let _ = child.wait();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("no desktop here"), "{err}");
}
