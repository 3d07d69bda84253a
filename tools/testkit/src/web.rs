//! What a test of a web build needs besides the browser: whether this machine can build the
//! module at all ([`wasm_missing`]), and a static server for the build's folder ([`serve`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::browser::Browser;

/// What is missing for a wasm build here, if anything.
pub fn wasm_missing() -> Option<String> {
    let cc = Command::new("clang-19").arg("--version").output();
    if !cc.is_ok_and(|o| o.status.success()) {
        return Some("clang-19".into());
    }
    if !Path::new("/usr/lib/wasm32-wasi/libc.a").is_file() {
        return Some("wasi-libc".into());
    }
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let target = sysroot.map(|s| s.join("lib/rustlib/wasm32-unknown-unknown/lib"));
    if !target.is_some_and(|t| t.is_dir()) {
        return Some("the wasm32-unknown-unknown target".into());
    }
    None
}

/// Serves the files of `dir` on 127.0.0.1 with the server `jengine run --web` uses
/// ([`jengine_web::serve`]); the address, without a trailing `/`. It serves until the test
/// process ends.
pub fn serve(dir: PathBuf) -> String {
    let served = jengine_web::serve::serve(&dir, 0)
        .unwrap_or_else(|e| panic!("serving {}: {e}", dir.display()));
    format!("http://{}", served.addr)
}

/// How a run starts, in the page and natively alike: the seed, and the scene to start in
/// (`jengine run --scene`) when it is not the project's start scene.
#[derive(Debug, Clone, Default)]
pub struct Start {
    /// Seed for every random stream.
    pub seed: u64,
    /// The scene to start in.
    pub scene: Option<String>,
}

impl Start {
    /// The project's start scene with `seed`.
    pub fn seed(seed: u64) -> Start {
        Start { seed, scene: None }
    }

    /// `scene` with `seed`.
    pub fn scene(scene: &str, seed: u64) -> Start {
        Start {
            seed,
            scene: Some(scene.to_string()),
        }
    }

    /// The page address's query for it (after `?trace&paused`).
    fn query(&self) -> String {
        let mut q = format!("&seed={}", self.seed);
        if let Some(scene) = &self.scene {
            q.push_str(&format!("&scene={scene}"));
        }
        q
    }

    /// The native run's options for it.
    fn options(&self) -> jengine_runtime::Options {
        jengine_runtime::Options {
            seed: self.seed,
            scene: self.scene.clone(),
            ..jengine_runtime::Options::default()
        }
    }
}

/// What a page made of an input file: the bag trace of every frame it ran, and its last frame.
#[derive(Debug, Clone)]
pub struct PageReplay {
    /// One trace line per frame, as `jengine run --trace` writes them.
    pub trace: Vec<String>,
    /// The size of the canvas the last frame was drawn at.
    pub width: u32,
    /// The canvas's height.
    pub height: u32,
    /// The last frame's RGBA bytes.
    pub rgba: Vec<u8>,
}

/// How many frames one WebDriver call asks a page to run: small enough that a slow debug
/// module answers well inside the driver's time limit.
const FRAMES_PER_CALL: u64 = 120;

/// Opens the web build served at `address` paused, started as `start` says, plays the input file `input`
/// (its text) through the page's own replay, `frames` frames in all (fewer if the game quits),
/// and reads back the trace and the last frame. Frames are stepped by calls, never by the
/// page's clock, so a busy machine changes nothing but the time it takes.
pub fn replay_in_page(
    browser: &Browser,
    address: &str,
    start: &Start,
    input: &str,
    frames: u64,
) -> Result<PageReplay, String> {
    browser.goto(&format!(
        "{address}/index.html?trace&paused{}",
        start.query()
    ))?;
    browser
        .wait_until(
            "window.jengine && (jengine.state === 'running' || jengine.state === 'failed')",
            PATIENCE,
        )
        .map_err(|e| format!("the page did not start: {e}"))?;
    let state = browser.execute("return [jengine.state, jengine.lastError]", vec![])?;
    if state[0] != "running" {
        return Err(format!("the page failed to start: {}", state[1]));
    }
    browser.execute("return jengine.replay(arguments[0])", vec![input.into()])?;
    let mut trace = Vec::new();
    while (trace.len() as u64) < frames {
        let n = FRAMES_PER_CALL.min(frames - trace.len() as u64);
        let answer = browser.execute(
            "const r = jengine.advance(arguments[0]); \
             return { r, trace: jengine.trace.splice(0) };",
            vec![n.into()],
        )?;
        let lines: Vec<String> = serde_json::from_value(answer["trace"].clone())
            .map_err(|e| format!("the page's trace: {e}"))?;
        let ran = lines.len();
        trace.extend(lines);
        match answer["r"]["state"].as_str() {
            Some("running") if ran > 0 => {}
            Some("ended") => break,
            _ => {
                return Err(format!(
                    "the page stopped at frame {}: {}",
                    trace.len(),
                    answer["r"]
                ));
            }
        }
    }
    let paused = browser.execute("return jengine.pause()", vec![])?;
    let side = |key: &str| {
        paused[key]
            .as_u64()
            .map(|v| v as u32)
            .ok_or_else(|| format!("jengine.pause() gave no {key}: {paused}"))
    };
    let (width, height) = (side("width")?, side("height")?);
    let rgba = browser.execute("return jengine.frameRGBA()", vec![])?;
    let rgba = crate::browser::base64_decode(rgba.as_str().unwrap_or_default())?;
    Ok(PageReplay {
        trace,
        width,
        height,
        rgba,
    })
}

/// How long a page may take to fetch, compile and start a module on a busy machine.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// Plays `input_file` in `project` natively (headless, started as `start` says, the options
/// the web host uses) for as many frames as `page` ran, and checks the page against it: the same trace
/// line on every frame, and the same last frame pixel for pixel. A difference names the first
/// frame, or the count of differing pixels.
pub fn assert_page_matches_native(
    project: &Path,
    linked: &[&dyn jengine::Package],
    start: &Start,
    input: &str,
    page: &PageReplay,
) {
    let mut script = jengine_runtime::input::InputScript::parse(input)
        .unwrap_or_else(|e| panic!("the input file: {e}"));
    let options = start.options();
    let mut runtime = jengine_runtime::Runtime::new(project, linked, options)
        .unwrap_or_else(|e| panic!("{}: {e:?}", project.display()));
    let mut native = Vec::new();
    runtime.run(page.trace.len() as u64, &mut script, |r| {
        native.push(jengine_runtime::trace::line(r))
    });
    assert_eq!(
        native.len(),
        page.trace.len(),
        "the native run ran {} frames, the page {}",
        native.len(),
        page.trace.len()
    );
    if let Some(i) = (0..native.len()).find(|&i| native[i] != page.trace[i]) {
        panic!(
            "frame {} differs between the page and the native run:\npage:   {}\nnative: {}",
            i + 1,
            page.trace[i],
            native[i]
        );
    }
    let mut renderer = jengine_render::Renderer::new(&project.join("assets"));
    renderer.preload(&runtime.world);
    let frame = renderer.render(&runtime.world, page.width, page.height);
    let differing = frame
        .rgba
        .chunks(4)
        .zip(page.rgba.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        page.rgba.len(),
        frame.rgba.len(),
        "the page's frame has the wrong size"
    );
    assert_eq!(
        differing,
        0,
        "{differing} of {} pixels differ between the page's last frame and the native one",
        page.width * page.height
    );
}

/// Why this machine cannot run a web build in a browser (no Chromium, no chromedriver, or no
/// wasm tools), if it cannot.
pub fn cannot_test() -> Option<String> {
    if let Some(missing) = wasm_missing() {
        let why = format!("a web build needs {missing}");
        // Where the wasm tools are required, their absence fails whatever else is missing.
        assert!(
            std::env::var("JENGINE_REQUIRE_WASM").as_deref() != Ok("1"),
            "{why} (JENGINE_REQUIRE_WASM=1, so this cannot be skipped)"
        );
        return Some(why);
    }
    crate::browser::available().err()
}

/// Plays the input file at `input_file` for `tail` frames past its last event in the web build
/// in `folder` (served on 127.0.0.1 and opened in headless Chromium), checks the page against
/// a native headless run of `project` ([`assert_page_matches_native`]) and returns what the
/// page made of it, for the game's own checks on the end it reached.
pub fn assert_replays_as_native(
    folder: &Path,
    project: &Path,
    linked: &[&dyn jengine::Package],
    start: &Start,
    input_file: &Path,
    tail: u64,
) -> PageReplay {
    let input = std::fs::read_to_string(input_file)
        .unwrap_or_else(|e| panic!("{}: {e}", input_file.display()));
    let script = jengine_runtime::input::InputScript::parse(&input)
        .unwrap_or_else(|e| panic!("{}: {e}", input_file.display()));
    let frames = script.last_frame().unwrap_or(0) + tail;
    let address = serve(folder.to_path_buf());
    let browser = Browser::start().unwrap_or_else(|e| panic!("headless Chromium: {e}"));
    let page = replay_in_page(&browser, &address, start, &input, frames)
        .unwrap_or_else(|e| panic!("{} in the page: {e}", input_file.display()));
    assert_page_matches_native(project, linked, start, &input, &page);
    page
}

/// A game's browser replay test whole: says plainly that it skipped where this machine cannot
/// run a web build in Chromium ([`cannot_test`], a failure under `JENGINE_REQUIRE_CHROMIUM=1`),
/// else builds the game with `build` (the game's test crate hands in the command line's own
/// builder, which this crate does not link), checks the page against native
/// ([`assert_replays_as_native`]) and gives what the page made of it.
pub fn replay_game_in_browser(
    game: &str,
    build: impl FnOnce(&Path) -> Result<PathBuf, Vec<String>>,
    project: &Path,
    linked: &[&dyn jengine::Package],
    start: &Start,
    input_file: &Path,
    tail: u64,
) -> Option<PageReplay> {
    if let Some(why) = cannot_test() {
        crate::browser::skip_or_fail(&format!("{game}'s browser replay: {why}"));
        return None;
    }
    let folder = build(project).unwrap_or_else(|e| panic!("web-build: {}", e.join("\n")));
    let page = assert_replays_as_native(&folder, project, linked, start, input_file, tail);
    assert!(!page.trace.is_empty(), "the page ran no frame");
    Some(page)
}
