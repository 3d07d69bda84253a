//! The host a page drives: a runtime started from a bundle, stepped one fixed frame at a time
//! with that frame's events, drawn into an RGBA frame the page copies to its canvas.
//!
//! Nothing here knows about JavaScript: the page's pointer positions arrive in frame pixels and
//! are turned into world points against the world as it stands before the step, as the desktop
//! window does, so the same code runs (and is tested) natively. The runtime's platform is the
//! page's: its sound device ([`crate::sound`]), its clipboard ([`crate::clipboard`]) and the
//! player's data in the browser's storage ([`crate::storage`]), each with a half the page
//! drives through this host.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use jengine::host::{MemoryAssets, ProjectFile, within};
use jengine::{MusicClock, Package};
use jengine_render::{Frame, Renderer, screen_to_world};
use jengine_runtime::input::{Event, InputScript, TimedEvent};
use jengine_runtime::{Options, Platform, Runtime, Sound, SystemClipboard};

use crate::bundle;
use crate::clipboard::Outbox;
use crate::sound::{SoundOutput, WebDevice, web_device};
use crate::storage::{BrowserStorage, changes_json, key_prefix};

thread_local! {
    /// The device a starting runtime opens: the runtime asks for it through a plain function.
    static DEVICE: RefCell<Option<WebDevice>> = const { RefCell::new(None) };
    /// The outbox of the host whose frame is running: the runtime opens its clipboard on the
    /// first copy, inside a frame.
    static OUTBOX: RefCell<Option<Outbox>> = const { RefCell::new(None) };
}

fn open_device() -> Result<Box<dyn jengine_audio::Device>, String> {
    DEVICE
        .with(|d| d.borrow_mut().take())
        .map(|d| Box::new(d) as Box<dyn jengine_audio::Device>)
        .ok_or_else(|| "the page's sound device was handed out already".to_string())
}

fn open_clipboard() -> Result<Box<dyn SystemClipboard>, String> {
    OUTBOX
        .with(|o| o.borrow().as_ref().map(Outbox::clipboard))
        .ok_or_else(|| "no page is running a frame".to_string())
}

/// The page's platform: its sound device and its clipboard.
fn platform() -> Platform {
    Platform {
        sound_device: open_device,
        clipboard: open_clipboard,
    }
}

/// The name of the project packed in `bundle`, from its `project.jengine`.
pub fn project_name(bundle: &[u8]) -> Result<String, String> {
    let files = bundle::unpack(bundle).map_err(|e| e.to_string())?;
    let text = files
        .get("project.jengine")
        .ok_or("the bundle has no project.jengine")?;
    let text = std::str::from_utf8(text).map_err(|e| format!("bundle project.jengine: {e}"))?;
    ProjectFile::parse(text)
        .map(|file| file.name)
        .map_err(|e| format!("bundle project.jengine: {e}"))
}

/// The `localStorage` prefix of the project packed in `bundle` ([`key_prefix`]).
pub fn storage_prefix(bundle: &[u8]) -> Result<String, String> {
    project_name(bundle).map(|name| key_prefix(&name))
}

/// The largest frame side the page may ask for; bigger is refused rather than allocated.
pub const MAX_SIDE: u32 = 8192;

/// The most game arguments a page may hand over, and their most bytes in all.
pub const MAX_ARGS: usize = 64;
/// See [`MAX_ARGS`].
pub const MAX_ARG_BYTES: usize = 16 * 1024;

/// How a page starts a game beyond its seed: the address's `?scene=` and `&arg=` values, as
/// `jengine run --scene NAME -- ARGS` would give them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Launch {
    /// The scene to start in instead of the project's start scene.
    #[serde(default)]
    pub scene: Option<String>,
    /// The game's arguments (`Game.args()`).
    #[serde(default)]
    pub args: Vec<String>,
}

impl Launch {
    /// Reads the JSON a page sends (`{"scene": "..", "args": [..]}`); too many or too long
    /// arguments are refused, saying which limit.
    pub fn from_json(text: &str) -> Result<Launch, String> {
        let launch: Launch =
            serde_json::from_str(text).map_err(|e| format!("the page's launch options: {e}"))?;
        if launch.args.len() > MAX_ARGS {
            return Err(format!(
                "{} game arguments; a page may hand over at most {MAX_ARGS}",
                launch.args.len()
            ));
        }
        let bytes: usize = launch.args.iter().map(String::len).sum();
        if bytes > MAX_ARG_BYTES {
            return Err(format!(
                "the game arguments are {bytes} bytes; at most {MAX_ARG_BYTES} in all"
            ));
        }
        Ok(launch)
    }
}

/// A running project in a page.
pub struct Host {
    runtime: Runtime,
    renderer: Renderer,
    /// The size of the last frame drawn: the page's pointer pixels are in it.
    size: (u32, u32),
    scene_seen: u64,
    frame: Option<Frame>,
    recorded: Vec<TimedEvent>,
    /// An input file being played back: its events are fed on their frames, in world units.
    replay: Option<InputScript>,
    sound: SoundOutput,
    storage: BrowserStorage,
    outbox: Outbox,
    /// The frames played when the frame just run read the music clock.
    clock_played: u64,
    /// What the host itself has to say, for the next [`Host::take_log`].
    said: Vec<(&'static str, String)>,
}

impl Host {
    /// Starts the project packed in `bundle` with the packages it lists (taken from `linked`)
    /// and `seed`. Every problem found is returned together; nothing is started then.
    pub fn start(bundle: &[u8], linked: &[&dyn Package], seed: u64) -> Result<Host, Vec<String>> {
        Host::start_with(bundle, linked, seed, Launch::default(), None)
    }

    /// [`Host::start`] with what a command line's `--scene` and `-- <args>` would give, and the
    /// player's data the page loaded from the browser's storage (`None`: an empty store).
    /// Sound goes to the page's device and copies to the page's clipboard.
    pub fn start_with(
        bundle: &[u8],
        linked: &[&dyn Package],
        seed: u64,
        launch: Launch,
        storage: Option<BrowserStorage>,
    ) -> Result<Host, Vec<String>> {
        let storage = match storage {
            Some(storage) => storage,
            None => BrowserStorage::empty(&storage_prefix(bundle).map_err(|e| vec![e])?),
        };
        let files = bundle::unpack(bundle).map_err(|e| vec![e.to_string()])?;
        let assets = Arc::new(memory_assets(files)?) as Arc<dyn jengine::host::Assets>;
        let (device, sound) = web_device();
        DEVICE.with(|d| *d.borrow_mut() = Some(device));
        let options = Options {
            seed,
            scene: launch.scene,
            args: launch.args,
            storage: Some(storage.store()),
            sound: Sound::Device,
            system_clipboard: true,
            platform: platform(),
            ..Options::default()
        };
        let started = Runtime::with_assets(assets.clone(), linked, options);
        DEVICE.with(|d| d.borrow_mut().take());
        let runtime = started?;
        let (width, height) = {
            let window = &runtime.project.file.window;
            (window.width.max(1), window.height.max(1))
        };
        Ok(Host {
            runtime,
            renderer: Renderer::with_assets(within(&assets, "assets")),
            size: (width, height),
            scene_seen: u64::MAX,
            frame: None,
            recorded: Vec::new(),
            replay: None,
            sound,
            storage,
            outbox: Outbox::new(),
            clock_played: 0,
            said: Vec::new(),
        })
    }

    /// The size the project's window asks for: the page's aspect ratio.
    pub fn window_size(&self) -> (u32, u32) {
        let window = &self.runtime.project.file.window;
        (window.width.max(1), window.height.max(1))
    }

    /// Runs one fixed frame with the page's events of that frame, given as the JSON list an
    /// input file holds without frames (`[{"type":"key","key":"a","down":true}, ...]`), pointer
    /// `x`/`y` in pixels of the last frame drawn. Bad JSON is refused, and no frame runs.
    pub fn step_json(&mut self, events: &str) -> Result<(), String> {
        let events: Vec<Event> =
            serde_json::from_str(events).map_err(|e| format!("the page's events: {e}"))?;
        self.step(&events);
        Ok(())
    }

    /// Plays the input file `text` from the next frame on, as `jengine run --headless --input`
    /// does: each event is fed on its frame, pointer positions in world units, beside whatever
    /// the page sends. A file that does not parse is refused, naming the event and field, and
    /// the replay before it (if any) goes on.
    pub fn replay(&mut self, text: &str) -> Result<(), String> {
        let script = InputScript::parse(text).map_err(|e| format!("the input file: {e}"))?;
        self.replay = Some(script);
        Ok(())
    }

    /// The frame of the replayed file's last event, if a file is being played.
    pub fn replay_end(&self) -> Option<u64> {
        self.replay.as_ref().and_then(InputScript::last_frame)
    }

    /// Runs one fixed frame with `events`, pointer and wheel positions in pixels of the last
    /// frame drawn.
    pub fn step(&mut self, events: &[Event]) {
        let (w, h) = self.size;
        let frame = self.runtime.frame() + 1;
        let replayed = match &mut self.replay {
            Some(script) => script.due(frame),
            None => Vec::new(),
        };
        let live = events.iter().map(|event| match event {
            Event::Pointer { phase, x, y } => {
                let p = screen_to_world(&self.runtime.world, w, h, *x as f32, *y as f32);
                Event::Pointer {
                    phase: *phase,
                    x: p[0] as f64,
                    y: p[1] as f64,
                }
            }
            Event::Wheel { x, y, dy } => {
                let p = screen_to_world(&self.runtime.world, w, h, *x as f32, *y as f32);
                Event::Wheel {
                    x: p[0] as f64,
                    y: p[1] as f64,
                    dy: *dy,
                }
            }
            other => other.clone(),
        });
        let events: Vec<Event> = replayed.into_iter().chain(live).collect();
        OUTBOX.with(|o| *o.borrow_mut() = Some(self.outbox.clone()));
        self.runtime.step(&events);
        OUTBOX.with(|o| o.borrow_mut().take());
        self.clock_played = self.sound.counts().1;
        for warning in self.storage.take_warnings() {
            self.said.push(("warn", warning));
        }
        // What reached the scripts, a paste as its text: a headless replay of this recording
        // plays the same frames.
        self.recorded.extend(
            self.runtime
                .delivered()
                .iter()
                .cloned()
                .map(|event| TimedEvent { frame, event }),
        );
    }

    /// Draws the world into a `width` x `height` frame and keeps it; its RGBA bytes are
    /// [`Host::rgba`]. A side of 0 or over [`MAX_SIDE`] is refused.
    pub fn render(&mut self, width: u32, height: u32) -> Result<&[u8], String> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(format!(
                "a {width}x{height} frame is refused; each side must be 1 to {MAX_SIDE}"
            ));
        }
        if self.scene_seen != self.runtime.scene_generation() {
            self.renderer.preload(&self.runtime.world);
            self.scene_seen = self.runtime.scene_generation();
        }
        self.size = (width, height);
        let frame = self.renderer.render(&self.runtime.world, width, height);
        Ok(&self.frame.insert(frame).rgba)
    }

    /// The last frame drawn, if any.
    pub fn rgba(&self) -> Option<&Frame> {
        self.frame.as_ref()
    }

    /// The trace line of the frame just run: `{"frame", "scene", "bags"}`, as `jengine run
    /// --trace` writes it.
    pub fn trace_line(&self) -> String {
        jengine_runtime::trace::line(&self.runtime)
    }

    /// Every event that reached the scripts so far with its frame, as the JSON an input file
    /// holds: `jengine run --headless --input` replays it.
    pub fn recording(&self) -> String {
        serde_json::to_string(&self.recorded).unwrap_or_else(|_| "[]".into())
    }

    /// The log lines and renderer warnings since the last call, as a JSON list of
    /// `{"level", "message"}`.
    pub fn take_log(&mut self) -> String {
        let mut lines: Vec<serde_json::Value> = std::mem::take(&mut self.said)
            .into_iter()
            .map(|(level, message)| serde_json::json!({ "level": level, "message": message }))
            .collect();
        lines.extend(self.runtime.take_log().into_iter().map(|line| {
            let level = match line.level {
                jengine::LogLevel::Info => "info",
                jengine::LogLevel::Warn => "warn",
                jengine::LogLevel::Error => "error",
            };
            serde_json::json!({ "level": level, "message": line.message })
        }));
        lines.extend(
            self.renderer
                .take_warnings()
                .into_iter()
                .map(|w| serde_json::json!({ "level": "warn", "message": w })),
        );
        serde_json::Value::Array(lines).to_string()
    }

    /// Frames completed.
    pub fn frame(&self) -> u64 {
        self.runtime.frame()
    }

    /// Whether a script asked the game to end (`Scene.quit`); the page stops stepping then.
    pub fn quit_requested(&self) -> bool {
        self.runtime.quit_requested()
    }

    /// The runtime, for tests and tools.
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// The page's half of the sound device: it takes the mixed samples and says how far
    /// playback got.
    pub fn sound(&self) -> &SoundOutput {
        &self.sound
    }

    /// The music clock as scripts read it on the frame just run, and the frames played it was
    /// read at (the page may have played more since).
    pub fn music_clock(&self) -> (MusicClock, u64) {
        let clock = self
            .runtime
            .world
            .resources
            .get::<MusicClock>()
            .copied()
            .unwrap_or_default();
        (clock, self.clock_played)
    }

    /// The changes to make in `localStorage` since what the page last stored, as the JSON
    /// list `[[name, value or null], ...]` in the order to make them; `None` when there are
    /// none. The page confirms with [`Host::storage_stored`].
    pub fn storage_changes(&mut self) -> Option<String> {
        let changes = self.storage.changes();
        (!changes.is_empty()).then(|| changes_json(changes))
    }

    /// The page made the first `done` of the changes last handed out.
    pub fn storage_stored(&mut self, done: usize) {
        self.storage.stored(done);
    }

    /// The copy a script made for the browser's clipboard, if one came since the last call.
    pub fn clipboard_take(&mut self) -> Option<String> {
        self.outbox.take()
    }

    /// The browser refused to write the clipboard (`why` in its words): copies stay in memory
    /// from now on, and the log says so once.
    pub fn clipboard_refused(&mut self, why: &str) {
        if let Some(said) = self.outbox.refused(why) {
            self.said.push(("warn", said));
        }
    }
}

/// The bundle's files as the assets a runtime reads, named in messages as under `bundle`.
fn memory_assets(files: BTreeMap<String, Vec<u8>>) -> Result<MemoryAssets, Vec<String>> {
    let mut assets = MemoryAssets::named("bundle");
    let mut problems = Vec::new();
    for (name, bytes) in files {
        if let Err(e) = assets.insert(&name, bytes) {
            problems.push(format!("bundle file {name:?}: {e}"));
        }
    }
    if problems.is_empty() {
        Ok(assets)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn counter_bundle() -> Vec<u8> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
        bundle::pack(&crate::project_files(&dir).unwrap())
    }

    #[test]
    fn the_counter_starts_from_its_bundle_steps_and_draws() {
        let mut host = Host::start(&counter_bundle(), &[&jengine_counter::CounterPackage], 7)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(host.window_size(), (640, 360));
        host.step_json("[]").unwrap();
        let line: serde_json::Value = serde_json::from_str(&host.trace_line()).unwrap();
        assert_eq!(line["frame"], 1);
        assert_eq!(line["bags"]["box"]["counter"]["count"], 3);
        let rgba = host.render(64, 36).unwrap();
        assert_eq!(rgba.len(), 64 * 36 * 4);
        assert!(host.render(0, 10).is_err());
        assert!(host.take_log().contains("first goal"));
    }

    /// The counter package under its own name, shipping one default texture: a solid
    /// teal square, `textures/counter/dot.png`.
    struct ShipsADot;

    impl Package for ShipsADot {
        fn name(&self) -> &'static str {
            "jengine-counter"
        }
        fn register(&self, reg: &mut jengine::Registry) {
            jengine_counter::CounterPackage.register(reg);
            let dot = Frame {
                width: 4,
                height: 4,
                rgba: [20, 180, 170, 255].repeat(16),
            };
            let png: &'static [u8] = Box::leak(dot.png_fast().unwrap().into_boxed_slice());
            reg.asset("textures/counter/dot.png", png);
        }
    }

    #[test]
    fn a_package_default_texture_draws_from_a_bundle_that_lacks_it_and_the_bundle_wins() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
        let mut files = crate::project_files(&dir).unwrap();
        files.insert(
            "assets/scenes/main.scene".into(),
            br##"{"version": 2, "entities": [
                {"name": "camera", "camera": {"center": [0, 0], "size": [16, 9], "clear": "#000000"}},
                {"name": "dot", "sprite": {"texture": "counter/dot.png", "size": [16, 9]}}
            ]}"##
                .to_vec(),
        );
        assert!(!files.keys().any(|name| name.contains("dot.png")));
        let mut host = Host::start(&bundle::pack(&files), &[&ShipsADot], 7)
            .unwrap_or_else(|e| panic!("{e:?}"));
        host.step(&[]);
        let rgba = host.render(32, 18).unwrap().to_vec();
        assert!(
            rgba.chunks_exact(4).all(|p| p == [20, 180, 170, 255]),
            "{:?}",
            &rgba[..8]
        );
        assert!(!host.take_log().contains("checker"));

        // A bundle with its own file by that name draws its own.
        let own = Frame {
            width: 2,
            height: 2,
            rgba: [200, 40, 60, 255].repeat(4),
        };
        files.insert(
            "assets/textures/counter/dot.png".into(),
            own.png_fast().unwrap(),
        );
        let mut host = Host::start(&bundle::pack(&files), &[&ShipsADot], 7).unwrap();
        host.step(&[]);
        let rgba = host.render(32, 18).unwrap();
        assert!(rgba.chunks_exact(4).all(|p| p == [200, 40, 60, 255]));
    }

    #[test]
    fn a_click_in_frame_pixels_reaches_the_script_as_a_world_point() {
        let mut host =
            Host::start(&counter_bundle(), &[&jengine_counter::CounterPackage], 7).unwrap();
        host.step(&[]);
        host.render(640, 360).unwrap();
        // The camera shows 16x9 world units: the right edge's middle is x = 8.
        host.step_json(r#"[{"type":"pointer","phase":"press","x":620,"y":180}]"#)
            .unwrap();
        let line: serde_json::Value = serde_json::from_str(&host.trace_line()).unwrap();
        assert_eq!(line["bags"]["box"]["counter"]["count"], 3 + 7);
        let recorded: serde_json::Value = serde_json::from_str(&host.recording()).unwrap();
        assert_eq!(recorded[0]["frame"], 2);
        assert_eq!(recorded[0]["x"], 7.5);
        assert!(host.step_json("[{").is_err());
        assert_eq!(host.frame(), 2, "bad events run no frame");
        // A wheel's turn is placed in the world the same way, and recorded there.
        host.step_json(r#"[{"type":"wheel","x":620,"y":180,"dy":-1}]"#)
            .unwrap();
        let recorded: serde_json::Value = serde_json::from_str(&host.recording()).unwrap();
        let wheel = recorded.as_array().unwrap().last().unwrap();
        assert_eq!(
            (wheel["type"].as_str(), wheel["x"].as_f64()),
            (Some("wheel"), Some(7.5))
        );
        assert_eq!(wheel["dy"], -1.0);
    }

    #[test]
    fn an_input_file_replays_on_its_frames_in_world_units_beside_live_events() {
        let mut host =
            Host::start(&counter_bundle(), &[&jengine_counter::CounterPackage], 7).unwrap();
        let file = r#"[{"frame": 3, "type": "pointer", "phase": "press", "x": 4.2, "y": 0}]"#;
        assert!(
            host.replay("[{\"frame\": 0}]").is_err(),
            "a bad file is refused"
        );
        host.replay(file).unwrap();
        assert_eq!(host.replay_end(), Some(3));
        host.step(&[]);
        host.step(&[]);
        let count = |host: &Host| {
            let line: serde_json::Value = serde_json::from_str(&host.trace_line()).unwrap();
            line["bags"]["box"]["counter"]["count"].as_i64().unwrap()
        };
        assert_eq!(count(&host), 3);
        host.step(&[]);
        assert_eq!(
            count(&host),
            3 + 4,
            "the press at world x 4.2 added 4 on frame 3"
        );
        let recorded: serde_json::Value = serde_json::from_str(&host.recording()).unwrap();
        assert_eq!(recorded[0]["frame"], 3);
    }

    #[test]
    fn launch_options_name_the_scene_and_the_args_within_their_limits() {
        let launch = Launch::from_json(r#"{"scene": "legacy", "args": ["--x", "1"]}"#).unwrap();
        assert_eq!(launch.scene.as_deref(), Some("legacy"));
        let host = Host::start_with(
            &counter_bundle(),
            &[&jengine_counter::CounterPackage],
            7,
            launch,
            None,
        )
        .unwrap();
        assert_eq!(host.runtime().scene(), "legacy");
        let many = format!("{{\"args\": {:?}}}", vec!["a"; MAX_ARGS + 1]);
        assert!(Launch::from_json(&many).unwrap_err().contains("at most 64"));
        let long = format!("{{\"args\": [\"{}\"]}}", "a".repeat(MAX_ARG_BYTES + 1));
        assert!(Launch::from_json(&long).unwrap_err().contains("bytes"));
        assert!(
            Launch::from_json(r#"{"sceen": "x"}"#).is_err(),
            "unknown fields are refused"
        );
        let missing = Launch {
            scene: Some("nowhere".into()),
            args: Vec::new(),
        };
        let err = Host::start_with(
            &counter_bundle(),
            &[&jengine_counter::CounterPackage],
            7,
            missing,
            None,
        )
        .err()
        .unwrap();
        assert!(err.join(" ").contains("nowhere"), "{err:?}");
    }

    #[test]
    fn the_page_gets_the_save_the_copy_and_the_sound_of_its_game() {
        let bundle = counter_bundle();
        let prefix = crate::storage_prefix(&bundle).unwrap();
        assert_eq!(prefix, "jengine/counter-fixture/");
        let keys = br#"[["save.json", "{\"count_at_3\": 9}"], ["../up", "x"]]"#;
        let (storage, loaded) = BrowserStorage::load(&prefix, keys);
        assert_eq!(
            (loaded.loaded.len(), loaded.held.len()),
            (1, 1),
            "{loaded:?}"
        );
        let mut host = Host::start_with(
            &bundle,
            &[&jengine_counter::CounterPackage],
            7,
            Launch::default(),
            Some(storage),
        )
        .unwrap();
        assert_eq!(host.storage_changes(), None, "nothing changed yet");
        for _ in 0..3 {
            host.step(&[]);
        }
        let changes: serde_json::Value =
            serde_json::from_str(&host.storage_changes().expect("the save changed")).unwrap();
        assert_eq!(changes[0][0], "save.json");
        let save: serde_json::Value =
            serde_json::from_str(changes[0][1].as_str().unwrap()).unwrap();
        assert_eq!(save["count_at_3"], 3);
        host.storage_stored(1);
        assert_eq!(host.storage_changes(), None);

        host.step_json(r#"[{"type":"key","key":"c","down":true}]"#)
            .unwrap();
        assert_eq!(host.clipboard_take().as_deref(), Some("count 3"));
        assert_eq!(host.clipboard_take(), None);
        host.clipboard_refused("NotAllowedError: denied");
        assert!(host.take_log().contains("NotAllowedError"));
        host.step_json(
            r#"[{"type":"key","key":"c","down":false},{"type":"key","key":"c","down":true}]"#,
        )
        .unwrap();
        assert_eq!(
            host.clipboard_take(),
            None,
            "refused: copies stay in memory"
        );
        assert_eq!(host.runtime().clipboard(), Some("count 3"));

        // Silent until the page's output runs: one step's worth a step, counted played.
        let (mixed, played) = host.sound().counts();
        assert_eq!((mixed, played), (5 * 800, 5 * 800));
        host.sound().set_running(true);
        host.step(&[]);
        let (mixed, played) = host.sound().counts();
        assert!(mixed > 6 * 800 && played == 5 * 800, "{mixed} {played}");
        let mut samples = Vec::new();
        assert_eq!(host.sound().take(&mut samples), 5 * 800);
        assert_eq!(samples.len() as u64, (mixed - played) * 2);
    }

    #[test]
    fn a_bundle_that_is_not_one_starts_nothing_and_says_why() {
        let err = Host::start(b"nope", &[&jengine_counter::CounterPackage], 1)
            .err()
            .unwrap();
        assert!(err[0].contains("bundle byte 0"), "{err:?}");
    }
}
