//! The editor session: the running game, the scene being edited, the log, the frame, the
//! banner, and the answers to the page's requests.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

use jengine::host::check_asset_name;
use jengine::{Entity, LogLevel, Package};
use serde::Deserialize;
use serde_json::json;

use super::doc::{Json, SceneDoc, Step};
use super::http::{Request, Response};
use super::{EditOptions, Msg};
use crate::input::{Event, Phase};
use crate::render::{Frame, Renderer, screen_to_world};
use crate::runtime::{Options, Runtime};
use crate::viewport::Profile;

/// Log lines kept for the page.
const LOG_KEPT: usize = 5000;
/// Live entities (spawned by the game, not the file) listed in the scene tree at most.
const LIVE_LISTED: usize = 200;
/// Steps of undo kept.
const UNDO_KEPT: usize = 200;
/// The page page.
const PAGE: &str = include_str!("page.html");

/// The latest frame, shared with the server's threads.
pub struct Frames {
    slot: Mutex<FrameSlot>,
    ready: Condvar,
}

struct FrameSlot {
    version: u64,
    frame: Option<Arc<Frame>>,
    wanted: Option<Instant>,
}

impl Frames {
    fn new() -> Frames {
        Frames {
            slot: Mutex::new(FrameSlot {
                version: 0,
                frame: None,
                wanted: None,
            }),
            ready: Condvar::new(),
        }
    }

    fn wanted_recently(&self) -> bool {
        self.slot
            .lock()
            .map(|s| {
                s.wanted
                    .is_some_and(|t| t.elapsed() < Duration::from_secs(2))
            })
            .unwrap_or(false)
    }

    fn publish(&self, frame: Frame) {
        if let Ok(mut slot) = self.slot.lock() {
            slot.version += 1;
            slot.frame = Some(Arc::new(frame));
        }
        self.ready.notify_all();
    }

    /// Waits (a little) for a frame newer than `after` and encodes it.
    fn newer(&self, after: u64) -> Response {
        let Ok(mut slot) = self.slot.lock() else {
            return Response::error(500, "the frame slot is broken");
        };
        slot.wanted = Some(Instant::now());
        let deadline = Instant::now() + Duration::from_millis(500);
        while slot.version <= after || slot.frame.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            slot = match self.ready.wait_timeout(slot, left) {
                Ok((s, _)) => s,
                Err(_) => return Response::error(500, "the frame slot is broken"),
            };
        }
        let (version, frame) = (slot.version, slot.frame.clone());
        drop(slot);
        let Some(frame) = frame else {
            return Response::error(503, "no frame yet");
        };
        let mut png = Vec::with_capacity(frame.rgba.len() / 4);
        let encoded = {
            let mut encoder = png::Encoder::new(&mut png, frame.width, frame.height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_compression(png::Compression::Fastest);
            encoder
                .write_header()
                .and_then(|mut w| w.write_image_data(&frame.rgba))
        };
        if let Err(e) = encoded {
            return Response::error(500, format!("cannot encode the frame: {e}"));
        }
        Response {
            status: 200,
            content_type: "image/png",
            body: png,
            headers: vec![("X-Frame-Version", version.to_string())],
        }
    }
}

/// Answers the requests that need no game: the page itself and frames.
pub fn serve_outside(request: &Request, frames: &Frames) -> Option<Response> {
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/") | ("GET", "/index.html") => Some(Response {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: PAGE.as_bytes().to_vec(),
            headers: vec![(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'".into(),
            )],
        }),
        ("GET", "/api/frame") => {
            let after = request
                .param("after")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            Some(frames.newer(after))
        }
        _ => None,
    }
}

#[derive(Debug, Clone, serde::Serialize)]
struct LogEntry {
    seq: u64,
    level: &'static str,
    source: &'static str,
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Selected {
    Scene(usize),
    Live(u32),
}

/// The editor session (lives on the main thread).
pub struct Session {
    runtime: Runtime,
    renderer: Renderer,
    preloaded: u64,
    size: (u32, u32),
    doc: SceneDoc,
    doc_scene: String,
    saved_text: String,
    undo: Vec<SceneDoc>,
    redo: Vec<SceneDoc>,
    playing: bool,
    steps: u32,
    events: Vec<Event>,
    selected: Option<Selected>,
    selection_box: Option<[u32; 4]>,
    log: VecDeque<LogEntry>,
    log_seq: u64,
    banner: Option<String>,
    building: bool,
    build_failed: Option<String>,
    conflict: Option<String>,
    /// Why the scene shown is an empty stand-in for a file that is not a scene at all (edits
    /// and saves are refused until the file is mended on disk).
    stand_in: Option<String>,
    frame_dirty: bool,
    /// Counts changes of the scene being edited, so the page knows to read it again.
    revision: u64,
    frames: Arc<Frames>,
    stepped_at: VecDeque<Instant>,
    frame_ms: f64,
    session_id: String,
    project_dir: PathBuf,
    port: u16,
    token: String,
    profile: Profile,
    seed: u64,
    sound: bool,
    tx: Sender<Msg>,
}

fn level_of(level: LogLevel, text: &str) -> &'static str {
    match level {
        LogLevel::Info => "info",
        // A script's failure names its file and line; it is an error, not a mere warning.
        LogLevel::Warn if text.contains(".lua:") || text.contains(" does not load; ") => "error",
        LogLevel::Warn => "warning",
    }
}

fn read_scene(project: &Path, name: &str) -> Result<(SceneDoc, String), String> {
    check_asset_name(name).map_err(|e| format!("scene {e}"))?;
    let path = project.join("assets/scenes").join(format!("{name}.scene"));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("assets/scenes/{name}.scene: cannot read: {e}"))?;
    let doc = SceneDoc::parse(&text).map_err(|e| format!("assets/scenes/{name}.scene: {e}"))?;
    Ok((doc, text))
}

/// An edit the page asks for.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Edit {
    Set {
        entity: usize,
        key: String,
        #[serde(default)]
        path: Vec<Step>,
        value: Json,
    },
    Remove {
        entity: usize,
        key: String,
        #[serde(default)]
        path: Vec<Step>,
    },
    AddEntity {
        #[serde(default)]
        at: Option<usize>,
        #[serde(default)]
        value: Option<Json>,
    },
    Duplicate {
        entity: usize,
    },
    Delete {
        entity: usize,
    },
    Rename {
        entity: usize,
        name: String,
    },
}

/// Keys whose change means the scene is loaded again rather than changed in place.
const STRUCTURAL: [&str; 3] = ["name", "script", "bulk"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Control {
    action: String,
    #[serde(default)]
    scene: Option<String>,
    #[serde(default)]
    force: bool,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum PageEvent {
    Pointer { phase: Phase, x: f32, y: f32 },
    Key { key: String, down: bool },
    Text { text: String },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Inputs {
    events: Vec<PageEvent>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pick {
    x: f32,
    y: f32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Select {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    live: Option<u32>,
}

fn body<'a, T: Deserialize<'a>>(request: &'a Request) -> Result<T, Response> {
    serde_json::from_slice(&request.body)
        .map_err(|e| Response::error(400, format!("the request's JSON: {e}")))
}

fn ok(value: serde_json::Value) -> Response {
    Response::json(200, value.to_string())
}

impl Session {
    /// Starts the game and opens its scene.
    pub fn start(
        options: &EditOptions,
        packages: &[&dyn Package],
        port: u16,
        token: &str,
        tx: Sender<Msg>,
    ) -> Result<Session, Vec<String>> {
        let runtime_options = Options {
            seed: options.seed,
            scene: options.scene.clone(),
            sound: if options.sound {
                crate::runtime::Sound::Device
            } else {
                crate::runtime::Sound::Silent
            },
            // A scene that does not load opens anyway, to be mended here.
            broken_scene_ok: true,
            ..Options::default()
        };
        let mut runtime = Runtime::new(&options.project, packages, runtime_options)?;
        let scene = runtime.scene().to_string();
        let mut notes = Vec::new();
        let mut stand_in = None;
        let (mut doc, saved_text) = match read_scene(&runtime.project.dir, &scene) {
            Ok(read) => read,
            Err(e) => {
                // Not even JSON: an empty scene stands in until the file is mended on disk
                // (the editor reads it again when it changes); nothing may overwrite it.
                let why = format!("{e}; mend the file on disk and the editor reads it again");
                notes.push(why.clone());
                stand_in = Some(why);
                let empty = SceneDoc::empty();
                let text = empty.text();
                (empty, text)
            }
        };
        let size = (
            runtime.project.file.window.width,
            runtime.project.file.window.height,
        );
        let renderer = Renderer::new(&runtime.project.dir.join("assets"));
        if let Some(path) = &options.unsaved {
            // The edits that were not saved before a rebuild come back, still unsaved.
            match std::fs::read_to_string(path) {
                Ok(text) => match SceneDoc::parse(&text) {
                    Ok(kept) => {
                        if runtime.load_scene_text(&scene, &text).is_ok() {
                            doc = kept;
                            notes.push("your unsaved edits were carried over the rebuild".into());
                        }
                    }
                    Err(e) => notes.push(format!("the unsaved edits could not be read: {e}")),
                },
                Err(e) => notes.push(format!("the unsaved edits could not be read: {e}")),
            }
            let _ = std::fs::remove_file(path);
        }
        // As the watcher names files: absolute, links resolved.
        let project_dir = std::fs::canonicalize(&runtime.project.dir)
            .unwrap_or_else(|_| runtime.project.dir.clone());
        let mut session = Session {
            runtime,
            renderer,
            preloaded: u64::MAX,
            size,
            doc,
            doc_scene: scene,
            saved_text,
            undo: Vec::new(),
            redo: Vec::new(),
            playing: true,
            steps: 0,
            events: Vec::new(),
            selected: None,
            selection_box: None,
            log: VecDeque::new(),
            log_seq: 0,
            banner: None,
            building: false,
            build_failed: None,
            conflict: None,
            stand_in,
            frame_dirty: true,
            revision: 0,
            frames: Arc::new(Frames::new()),
            stepped_at: VecDeque::new(),
            frame_ms: 0.0,
            session_id: super::fresh_token()[..12].to_string(),
            project_dir,
            port,
            token: token.to_string(),
            profile: options.profile,
            seed: options.seed,
            sound: options.sound,
            tx,
        };
        session.collect_log();
        for note in notes {
            let level = if session.stand_in.as_ref() == Some(&note) {
                "error"
            } else {
                "info"
            };
            session.say(level, note);
        }
        session.say(
            "info",
            format!(
                "editing {} (scene {})",
                session.runtime.project.file.name, session.doc_scene
            ),
        );
        Ok(session)
    }

    /// The shared frame slot.
    pub fn frames(&self) -> Arc<Frames> {
        self.frames.clone()
    }

    fn say(&mut self, level: &'static str, text: impl Into<String>) {
        self.push_log(level, "editor", text.into());
    }

    fn push_log(&mut self, level: &'static str, source: &'static str, text: String) {
        self.log_seq += 1;
        self.log.push_back(LogEntry {
            seq: self.log_seq,
            level,
            source,
            text,
        });
        while self.log.len() > LOG_KEPT {
            self.log.pop_front();
        }
    }

    fn collect_log(&mut self) {
        for line in self.runtime.take_log() {
            let level = level_of(line.level, &line.message);
            self.push_log(level, "game", line.message);
        }
    }

    fn dirty(&self) -> bool {
        self.doc.text() != self.saved_text
    }

    /// One tick of the clock: a frame of the game when playing (or asked to step), and a
    /// rendered frame when the page is watching and something changed.
    pub fn tick(&mut self) {
        if self.playing || self.steps > 0 {
            self.steps = self.steps.saturating_sub(1);
            let started = Instant::now();
            let events = std::mem::take(&mut self.events);
            self.runtime.step(&events);
            self.frame_ms = started.elapsed().as_secs_f64() * 1000.0;
            self.stepped_at.push_back(Instant::now());
            self.collect_log();
            self.follow_scene();
            self.frame_dirty = true;
            if self.runtime.quit_requested() {
                self.playing = false;
                self.say(
                    "info",
                    "the game asked to quit; paused (Restart or switch scene to go on)",
                );
                self.runtime
                    .world
                    .resources
                    .remove::<jengine::host::QuitRequest>();
            }
        }
        while self
            .stepped_at
            .front()
            .is_some_and(|t| t.elapsed() > Duration::from_secs(1))
        {
            self.stepped_at.pop_front();
        }
        if self.frame_dirty && self.frames.wanted_recently() {
            self.render();
        }
    }

    fn render(&mut self) {
        self.frame_dirty = false;
        if self.preloaded != self.runtime.scene_generation() {
            self.renderer.preload(&self.runtime.world);
            self.preloaded = self.runtime.scene_generation();
        }
        let frame = self
            .renderer
            .render(&self.runtime.world, self.size.0, self.size.1);
        self.selection_box = self.selected_entity().and_then(|e| {
            self.renderer
                .bounds(&self.runtime.world, e, self.size.0, self.size.1)
        });
        for w in self.renderer.take_warnings() {
            self.push_log("warning", "game", w);
        }
        self.frames.publish(frame);
    }

    fn selected_entity(&self) -> Option<Entity> {
        match self.selected? {
            Selected::Scene(i) if self.runtime.scene() == self.doc_scene => self
                .runtime
                .scene_entities()
                .get(i)
                .copied()
                .filter(|e| self.runtime.world.entities.contains(*e)),
            Selected::Scene(_) => None,
            Selected::Live(id) => self.live(id),
        }
    }

    fn live(&self, id: u32) -> Option<Entity> {
        self.runtime
            .world
            .entities
            .iter()
            .map(|r| r.entity())
            .find(|e| e.id() == id)
    }

    /// When the game moves to another scene itself, the editor opens it (unless edits to
    /// the open one are unsaved).
    fn follow_scene(&mut self) {
        let running = self.runtime.scene().to_string();
        if running == self.doc_scene {
            return;
        }
        if self.dirty() {
            return;
        }
        match read_scene(&self.project_dir, &running) {
            Ok((doc, text)) => {
                self.doc = doc;
                self.saved_text = text;
                self.stand_in = None;
                self.doc_scene = running;
                self.revision += 1;
                self.undo.clear();
                self.redo.clear();
                self.selected = None;
                self.conflict = None;
            }
            Err(e) => self.say("warning", e),
        }
    }

    /// Ends the session: scripts stop and the save is written.
    pub fn finish(&mut self) {
        self.runtime.finish();
        self.collect_log();
    }

    pub fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Http(request, reply) => {
                let answer = self.answer(&request);
                let _ = reply.send(answer);
            }
            Msg::Changed(paths) => self.changed(paths),
            Msg::Stale(reason) => self.banner = reason,
            Msg::BuildLine(line) => {
                let level = if line.starts_with("error") {
                    "error"
                } else if line.starts_with("warning") {
                    "warning"
                } else {
                    "info"
                };
                self.push_log(level, "build", line);
            }
            Msg::BuildDone(Ok(binary)) => self.restart_on(&binary),
            Msg::BuildDone(Err(why)) => {
                self.building = false;
                self.say(
                    "error",
                    "the rebuild failed; this session goes on with the old build",
                );
                self.build_failed = Some(why);
            }
        }
    }

    fn answer(&mut self, request: &Request) -> Response {
        let changes_scene = matches!(
            request.path.as_str(),
            "/api/edit" | "/api/undo" | "/api/redo" | "/api/save"
        );
        if request.method == "POST"
            && changes_scene
            && let Some(why) = &self.stand_in
        {
            return Response::error(409, why);
        }
        let answer = match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/api/state") => Ok(self.state(request)),
            ("GET", "/api/scene") => Ok(self.tree()),
            ("GET", "/api/entity") => self.entity(request),
            ("GET", "/api/registry") => Ok(self.registry()),
            ("GET", "/api/texture") => self.texture(request),
            ("GET", path) if path.starts_with("/docs/") => self.docs(&path["/docs/".len()..]),
            ("POST", "/api/edit") => body(request).and_then(|edit| self.edit(edit)),
            ("POST", "/api/undo") => Ok(self.undo_redo(true)),
            ("POST", "/api/redo") => Ok(self.undo_redo(false)),
            ("POST", "/api/save") => self.save(),
            ("POST", "/api/revert") => self.revert(),
            ("POST", "/api/control") => body(request).and_then(|c| self.control(c)),
            ("POST", "/api/input") => body(request).and_then(|i| self.input(i)),
            ("POST", "/api/select") => body(request).map(|s| self.select(s)),
            ("POST", "/api/pick") => body(request).map(|p| self.pick(p)),
            ("POST", "/api/rebuild") => self.rebuild(),
            (_, path) if path.starts_with("/api/") => Err(Response::error(
                405,
                format!("{} {path} is not something the editor does", request.method),
            )),
            (_, path) => Err(Response::error(404, format!("nothing at {path}"))),
        };
        answer.unwrap_or_else(|refusal| refusal)
    }

    fn state(&self, request: &Request) -> Response {
        let since: u64 = request
            .param("since")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let log: Vec<&LogEntry> = self.log.iter().filter(|l| l.seq > since).collect();
        let selection = match self.selected {
            Some(Selected::Scene(i)) => json!({ "index": i }),
            Some(Selected::Live(id)) => json!({ "live": id }),
            None => serde_json::Value::Null,
        };
        ok(json!({
            "session": self.session_id,
            "project": self.runtime.project.file.name,
            "title": self.runtime.project.file.window.title,
            "scene": self.runtime.scene(),
            "doc_scene": self.doc_scene,
            "dirty": self.dirty(),
            "revision": self.revision,
            "entities": self.runtime.world.entities.len(),
            "can_undo": !self.undo.is_empty(),
            "can_redo": !self.redo.is_empty(),
            "playing": self.playing,
            "frame": self.runtime.frame(),
            "fps": self.stepped_at.len(),
            "frame_ms": (self.frame_ms * 100.0).round() / 100.0,
            "size": [self.size.0, self.size.1],
            "selection": selection,
            "selection_box": self.selection_box,
            "banner": if self.building { None } else { self.banner.clone() },
            "building": self.building,
            "build_failed": self.build_failed,
            "conflict": self.conflict.clone().or_else(|| self.stand_in.clone()),
            "log": log,
            "log_seq": self.log_seq,
        }))
    }

    fn keys_of(&self, e: Entity) -> Vec<&str> {
        self.runtime
            .registry
            .components()
            .filter(|b| b.read(&self.runtime.world, e).is_some())
            .map(|b| b.key())
            .collect()
    }

    fn tree(&self) -> Response {
        let same = self.runtime.scene() == self.doc_scene;
        let scene_entities = self.runtime.scene_entities();
        let entities: Vec<serde_json::Value> = self
            .doc
            .entities()
            .enumerate()
            .map(|(i, e)| {
                let name = match e.get("name") {
                    Some(Json::String(s)) => Some(s.clone()),
                    _ => None,
                };
                let keys: Vec<&str> = match e {
                    Json::Object(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
                    _ => Vec::new(),
                };
                let live = same
                    && scene_entities
                        .get(i)
                        .is_some_and(|e| self.runtime.world.entities.contains(*e));
                json!({ "index": i, "name": name, "keys": keys, "live": live })
            })
            .collect();
        let from_file: HashSet<Entity> = if same {
            scene_entities.iter().copied().collect()
        } else {
            HashSet::new()
        };
        let mut spawned = Vec::new();
        let mut total = 0;
        for r in self.runtime.world.entities.iter() {
            let e = r.entity();
            if from_file.contains(&e) {
                continue;
            }
            total += 1;
            if spawned.len() < LIVE_LISTED {
                let name = r.get::<&jengine::Name>().map(|n| n.0.clone());
                spawned.push(json!({ "id": e.id(), "name": name, "keys": self.keys_of(e) }));
            }
        }
        let components: Vec<serde_json::Value> = self
            .runtime
            .registry
            .components()
            .map(|b| json!({ "key": b.key(), "package": b.package() }))
            .collect();
        ok(json!({
            "scene": self.doc_scene,
            "running": self.runtime.scene(),
            "scenes": self.runtime.project.scene_names(),
            "entities": entities,
            "spawned": spawned,
            "spawned_total": total,
            "components": components,
        }))
    }

    /// A component's value with every field its type has: the file's value read back
    /// through the component (defaults filled in), or `None` when it does not load.
    fn full_value(&self, key: &str, value: &Json) -> Option<serde_json::Value> {
        let binding = self.runtime.registry.binding(key)?;
        let raw = serde_json::value::RawValue::from_string(value.compact()).ok()?;
        let mut builder = jengine::hecs::EntityBuilder::new();
        binding.spawn(&mut builder, &raw).ok()?;
        let mut scratch = jengine::World::new();
        let e = scratch.spawn_built(&mut builder);
        binding.read(&scratch, e)
    }

    fn entity(&self, request: &Request) -> Result<Response, Response> {
        if let Some(id) = request.param("live") {
            let id: u32 = id
                .parse()
                .map_err(|_| Response::error(400, "live: an entity id"))?;
            let e = self
                .live(id)
                .ok_or_else(|| Response::error(404, format!("no live entity {id}")))?;
            let components: Vec<serde_json::Value> = self
                .runtime
                .registry
                .components()
                .filter_map(|b| {
                    let value = b.read(&self.runtime.world, e)?;
                    Some(json!({ "key": b.key(), "package": b.package(), "type": b.type_name(), "live": value }))
                })
                .collect();
            let name = self
                .runtime
                .world
                .entities
                .get::<&jengine::Name>(e)
                .ok()
                .map(|n| n.0.clone());
            return Ok(ok(
                json!({ "live": id, "name": name, "components": components }),
            ));
        }
        let index: usize = request
            .param("index")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| Response::error(400, "index: an entity's place in the scene"))?;
        let value = self
            .doc
            .entity(index)
            .ok_or_else(|| Response::error(404, format!("the scene has no entity {index}")))?;
        let Json::Object(fields) = value else {
            return Ok(ok(json!({
                "index": index,
                "components": [],
                "error": format!("entity {index} is {}, not an object of components", value.kind()),
            })));
        };
        let live = if self.runtime.scene() == self.doc_scene {
            self.runtime
                .scene_entities()
                .get(index)
                .copied()
                .filter(|e| self.runtime.world.entities.contains(*e))
        } else {
            None
        };
        let mut components = Vec::new();
        for (key, v) in fields {
            let binding = self.runtime.registry.binding(key);
            components.push(json!({
                "key": key,
                "package": binding.map(|b| b.package()),
                "type": binding.map(|b| b.type_name()),
                "value": v,
                "full": self.full_value(key, v),
                "live": live.and_then(|e| binding.and_then(|b| b.read(&self.runtime.world, e))),
            }));
        }
        let name = match value.get("name") {
            Some(Json::String(s)) => Some(s.clone()),
            _ => None,
        };
        Ok(ok(json!({
            "index": index,
            "name": name,
            "components": components,
            "error": null,
        })))
    }

    fn registry(&self) -> Response {
        let registry = &self.runtime.registry;
        let metas: HashMap<String, jengine::host::PackageMeta> =
            jengine::host::listed_packages(&self.runtime.project)
                .unwrap_or_default()
                .into_iter()
                .map(|m| (m.name.clone(), m))
                .collect();
        let root = crate::viewport::workspace(&self.project_dir);
        let mut names: Vec<String> = vec![jengine::host::CORE.to_string()];
        names.extend(registry.packages().iter().cloned());
        let packages: Vec<serde_json::Value> = names
            .iter()
            .map(|name| {
                let meta = metas.get(name);
                let components: Vec<serde_json::Value> = registry
                    .components()
                    .filter(|c| c.package() == name)
                    .map(|c| json!({ "key": c.key(), "type": c.type_name(), "settable": c.settable() }))
                    .collect();
                let commands: Vec<serde_json::Value> = registry
                    .commands()
                    .iter()
                    .filter(|c| c.package() == name)
                    .map(|c| json!({ "name": c.qualified(), "signature": c.signature() }))
                    .collect();
                let bags: Vec<&str> = registry
                    .bags()
                    .iter()
                    .filter(|b| b.package() == name)
                    .map(|b| b.key())
                    .collect();
                let tables: Vec<&str> = registry
                    .tables()
                    .iter()
                    .filter(|t| t.package() == name)
                    .map(|t| t.name())
                    .collect();
                let docs = root.join("docs/packages").join(format!("{name}.md")).is_file();
                json!({
                    "name": name,
                    "version": meta.map(|m| m.version.as_str()),
                    "description": meta.map(|m| m.description.as_str()),
                    "components": components,
                    "commands": commands,
                    "bags": bags,
                    "tables": tables,
                    "docs": docs.then(|| format!("/docs/{name}")),
                })
            })
            .collect();
        ok(json!({ "packages": packages }))
    }

    fn docs(&self, name: &str) -> Result<Response, Response> {
        // Only a listed package's page: the name picks a page, it never makes a path.
        if !self.runtime.registry.packages().iter().any(|p| p == name) {
            return Err(Response::error(
                404,
                format!("{name:?} is not a package this project lists"),
            ));
        }
        let root = crate::viewport::workspace(&self.project_dir);
        let path = root.join("docs/packages").join(format!("{name}.md"));
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Response::error(
                404,
                format!("no docs page for {name} ({e}); `jengine docs` writes them"),
            )
        })?;
        Ok(Response {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: super::markdown::page(name, &text).into_bytes(),
            headers: Vec::new(),
        })
    }

    fn texture(&self, request: &Request) -> Result<Response, Response> {
        let name = request
            .param("name")
            .ok_or_else(|| Response::error(400, "name: a texture's name"))?;
        check_asset_name(name).map_err(|e| Response::error(400, format!("texture {e}")))?;
        if !name.to_ascii_lowercase().ends_with(".png") {
            return Err(Response::error(
                400,
                format!("texture {name:?}: only PNG textures are shown"),
            ));
        }
        let path = self.project_dir.join("assets/textures").join(name);
        let bytes = std::fs::read(&path)
            .map_err(|e| Response::error(404, format!("assets/textures/{name}: {e}")))?;
        Ok(Response {
            status: 200,
            content_type: "image/png",
            body: bytes,
            headers: Vec::new(),
        })
    }

    /// Applies an edit to a copy of the scene, checks the copy as the runtime loads scenes,
    /// and only then keeps it and shows it in the game.
    fn edit(&mut self, edit: Edit) -> Result<Response, Response> {
        let mut candidate = self.doc.clone();
        let refuse = |message: String| {
            Response::json(
                422,
                json!({ "error": message, "errors": [{ "message": message }] }).to_string(),
            )
        };
        let mut focus = None;
        let mut in_place = None;
        match &edit {
            Edit::Set {
                entity,
                key,
                path,
                value,
            } => {
                candidate
                    .set(*entity, key, path, value.clone())
                    .map_err(refuse)?;
                focus = Some(*entity);
                if !STRUCTURAL.contains(&key.as_str()) {
                    in_place = Some((*entity, key.clone()));
                }
            }
            Edit::Remove { entity, key, path } => {
                candidate.remove(*entity, key, path).map_err(refuse)?;
                focus = Some(*entity);
                if !path.is_empty() && !STRUCTURAL.contains(&key.as_str()) {
                    in_place = Some((*entity, key.clone()));
                }
            }
            Edit::AddEntity { at, value } => {
                let value = match value {
                    Some(v @ Json::Object(_)) => v.clone(),
                    Some(other) => {
                        return Err(refuse(format!(
                            "an entity is an object, not {}",
                            other.kind()
                        )));
                    }
                    None => Json::Object(vec![(
                        "name".into(),
                        Json::String(candidate.free_name("entity")),
                    )]),
                };
                let at = at.unwrap_or(candidate.len());
                focus = Some(candidate.insert(at, value));
            }
            Edit::Duplicate { entity } => {
                focus = Some(candidate.duplicate(*entity).map_err(refuse)?);
            }
            Edit::Delete { entity } => {
                candidate.delete(*entity).map_err(refuse)?;
            }
            Edit::Rename { entity, name } => {
                if name.trim().is_empty() {
                    return Err(refuse("a name cannot be empty".into()));
                }
                let taken = candidate.entities().enumerate().any(|(i, e)| {
                    i != *entity && matches!(e.get("name"), Some(Json::String(s)) if s == name)
                });
                if taken {
                    return Err(refuse(format!("another entity is already named {name:?}")));
                }
                candidate
                    .set(*entity, "name", &[], Json::String(name.clone()))
                    .map_err(refuse)?;
                focus = Some(*entity);
            }
        }
        let text = candidate.text();
        if let Err(errors) = self.runtime.check_scene_text(&self.doc_scene, &text) {
            let list: Vec<serde_json::Value> = errors
                .iter()
                .map(|e| {
                    json!({
                        "entity": e.entity.as_ref().map(|(i, _)| *i),
                        "key": e.key,
                        "message": e.message,
                        "text": e.to_string(),
                    })
                })
                .collect();
            let first = errors.first().map(|e| e.to_string()).unwrap_or_default();
            return Err(Response::json(
                422,
                json!({ "error": first, "errors": list }).to_string(),
            ));
        }
        self.undo.push(std::mem::replace(&mut self.doc, candidate));
        if self.undo.len() > UNDO_KEPT {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.show_doc(in_place);
        if matches!(edit, Edit::Delete { .. }) {
            self.selected = None;
        } else if let Some(i) = focus {
            self.selected = Some(Selected::Scene(i));
        }
        Ok(ok(
            json!({ "ok": true, "dirty": self.dirty(), "focus": focus }),
        ))
    }

    /// Puts the edited scene into the game: one component changed in place when that is all
    /// that changed and the game shows this scene, else the scene loaded again from the edit.
    fn show_doc(&mut self, in_place: Option<(usize, String)>) {
        self.frame_dirty = true;
        self.revision += 1;
        if self.runtime.scene() != self.doc_scene {
            return;
        }
        if let Some((index, key)) = in_place {
            let value = self.doc.entity(index).and_then(|e| e.get(&key));
            let raw =
                value.and_then(|v| serde_json::value::RawValue::from_string(v.compact()).ok());
            if let Some(raw) = raw {
                match self.runtime.set_component(index, &key, &raw) {
                    Ok(true) => return,
                    Ok(false) => {}
                    Err(e) => self.say("warning", format!("changing {key} in place: {e}")),
                }
            }
        }
        let text = self.doc.text();
        let scene = self.doc_scene.clone();
        if let Err(e) = self.runtime.load_scene_text(&scene, &text) {
            self.say("error", e);
        }
        self.collect_log();
    }

    fn undo_redo(&mut self, undo: bool) -> Response {
        let (from, to) = if undo {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Some(doc) = from.pop() else {
            return Response::error(
                409,
                if undo {
                    "nothing to undo"
                } else {
                    "nothing to redo"
                },
            );
        };
        to.push(std::mem::replace(&mut self.doc, doc));
        if let Some(Selected::Scene(i)) = self.selected
            && i >= self.doc.len()
        {
            self.selected = None;
        }
        self.show_doc(None);
        ok(json!({ "ok": true, "dirty": self.dirty() }))
    }

    fn save(&mut self) -> Result<Response, Response> {
        let text = self.doc.text();
        let path = self
            .project_dir
            .join("assets/scenes")
            .join(format!("{}.scene", self.doc_scene));
        jengine::host::write_atomically(&path, text.as_bytes()).map_err(|e| {
            Response::error(
                500,
                format!("assets/scenes/{}.scene: cannot save: {e}", self.doc_scene),
            )
        })?;
        self.saved_text = text;
        self.conflict = None;
        self.revision += 1;
        self.say(
            "info",
            format!("saved assets/scenes/{}.scene", self.doc_scene),
        );
        Ok(ok(json!({ "ok": true, "dirty": false })))
    }

    fn revert(&mut self) -> Result<Response, Response> {
        let (doc, text) =
            read_scene(&self.project_dir, &self.doc_scene).map_err(|e| Response::error(422, e))?;
        self.undo.push(std::mem::replace(&mut self.doc, doc));
        self.saved_text = text;
        self.conflict = None;
        self.stand_in = None;
        self.show_doc(None);
        self.say(
            "info",
            format!("took assets/scenes/{}.scene from disk", self.doc_scene),
        );
        Ok(ok(json!({ "ok": true, "dirty": self.dirty() })))
    }

    fn control(&mut self, control: Control) -> Result<Response, Response> {
        match control.action.as_str() {
            "play" => self.playing = true,
            "pause" => self.playing = false,
            "step" => {
                self.playing = false;
                self.steps += 1;
            }
            "restart" => {
                self.playing = true;
                if self.runtime.scene() == self.doc_scene {
                    self.show_doc(None);
                } else {
                    let scene = self.runtime.scene().to_string();
                    if let Err(e) = self.runtime.load_scene(&scene) {
                        self.say("error", e.clone());
                        return Err(Response::error(422, e));
                    }
                    self.collect_log();
                }
                self.frame_dirty = true;
            }
            "load" => {
                let scene = control
                    .scene
                    .ok_or_else(|| Response::error(400, "load: which scene?"))?;
                if scene != self.doc_scene && self.dirty() && !control.force {
                    return Err(Response::error(
                        409,
                        format!("assets/scenes/{}.scene has unsaved edits", self.doc_scene),
                    ));
                }
                let (doc, text) =
                    read_scene(&self.project_dir, &scene).map_err(|e| Response::error(422, e))?;
                if let Err(e) = self.runtime.load_scene(&scene) {
                    self.collect_log();
                    self.say("error", e.clone());
                    return Err(Response::error(422, e));
                }
                self.collect_log();
                self.doc = doc;
                self.saved_text = text;
                self.stand_in = None;
                self.doc_scene = scene;
                self.revision += 1;
                self.undo.clear();
                self.redo.clear();
                self.selected = None;
                self.conflict = None;
                self.frame_dirty = true;
            }
            other => {
                return Err(Response::error(
                    400,
                    format!("{other:?}: the actions are play, pause, step, restart and load"),
                ));
            }
        }
        Ok(ok(json!({ "ok": true, "playing": self.playing })))
    }

    fn input(&mut self, inputs: Inputs) -> Result<Response, Response> {
        let (w, h) = self.size;
        let mut events = Vec::with_capacity(inputs.events.len());
        for event in inputs.events {
            events.push(match event {
                PageEvent::Pointer { phase, x, y } => {
                    if !(x.is_finite() && y.is_finite()) {
                        return Err(Response::error(400, "a pointer's x and y are numbers"));
                    }
                    let [wx, wy] = screen_to_world(&self.runtime.world, w, h, x, y);
                    Event::Pointer {
                        phase,
                        x: wx as f64,
                        y: wy as f64,
                    }
                }
                PageEvent::Key { key, down } => {
                    if key.is_empty() || key.len() > 32 {
                        return Err(Response::error(400, "a key's name is 1 to 32 bytes"));
                    }
                    Event::Key { key, down }
                }
                PageEvent::Text { text } => {
                    crate::input::check_text(&text).map_err(|e| Response::error(400, e))?;
                    Event::Text { text }
                }
            });
        }
        // A page that floods while paused cannot grow the queue without end.
        if self.events.len() + events.len() > 10_000 {
            return Err(Response::error(
                429,
                "too many events waiting; step or play first",
            ));
        }
        self.events.extend(events);
        Ok(ok(json!({ "ok": true })))
    }

    fn select(&mut self, select: Select) -> Response {
        self.selected = match (select.index, select.live) {
            (Some(i), _) => Some(Selected::Scene(i)),
            (None, Some(id)) => Some(Selected::Live(id)),
            (None, None) => None,
        };
        self.selection_box = self.selected_entity().and_then(|e| {
            self.renderer
                .bounds(&self.runtime.world, e, self.size.0, self.size.1)
        });
        let selection = match self.selected {
            Some(Selected::Scene(i)) => json!({ "index": i }),
            Some(Selected::Live(id)) => json!({ "live": id }),
            None => serde_json::Value::Null,
        };
        ok(json!({ "ok": true, "selection": selection, "selection_box": self.selection_box }))
    }

    /// Selects the scene's entity drawn on top at frame pixel (x, y), if any.
    fn pick(&mut self, pick: Pick) -> Response {
        let (w, h) = self.size;
        let inside = pick.x.is_finite()
            && pick.y.is_finite()
            && (0.0..w as f32).contains(&pick.x)
            && (0.0..h as f32).contains(&pick.y);
        let found = if inside && self.runtime.scene() == self.doc_scene {
            let candidates = self.runtime.scene_entities().to_vec();
            self.renderer
                .pick(
                    &self.runtime.world,
                    &candidates,
                    w,
                    h,
                    pick.x as u32,
                    pick.y as u32,
                )
                .and_then(|e| candidates.iter().position(|c| *c == e))
        } else {
            None
        };
        self.select(Select {
            index: found,
            live: None,
        })
    }

    fn rebuild(&mut self) -> Result<Response, Response> {
        if self.building {
            return Err(Response::error(409, "a rebuild is already running"));
        }
        self.building = true;
        self.build_failed = None;
        self.say("info", "rebuilding the viewport");
        let (project, profile, tx) = (self.project_dir.clone(), self.profile, self.tx.clone());
        std::thread::Builder::new()
            .name("editor-build".into())
            .spawn(move || {
                let lines = tx.clone();
                let mut each = |line: &str| {
                    let _ = lines.send(Msg::BuildLine(line.to_string()));
                };
                let done = crate::viewport::build_reporting(&project, profile, &mut each)
                    .map(|v| v.binary)
                    .map_err(|problems| problems.join("\n"));
                let _ = tx.send(Msg::BuildDone(done));
            })
            .map_err(|e| Response::error(500, format!("cannot start the build: {e}")))?;
        Ok(ok(json!({ "ok": true })))
    }

    /// Starts this session again in the new build, on the same port with the same token,
    /// in the scene that was open; edits not yet saved go along. If the new binary cannot
    /// start, this session goes on.
    fn restart_on(&mut self, binary: &Path) {
        self.say(
            "info",
            "the rebuild succeeded; starting the session on the new build",
        );
        let mut args: Vec<std::ffi::OsString> = vec![
            "edit".into(),
            self.project_dir.clone().into_os_string(),
            "--port".into(),
            self.port.to_string().into(),
            "--token".into(),
            self.token.clone().into(),
            "--scene".into(),
            self.doc_scene.clone().into(),
            "--no-open".into(),
            "--seed".into(),
            self.seed.to_string().into(),
        ];
        if self.profile == Profile::Dev {
            args.push("--dev".into());
        }
        if !self.sound {
            args.push("--mute".into());
        }
        let mut unsaved = None;
        if self.dirty() {
            let path = std::env::temp_dir().join(format!(
                "jengine-edit-{}-{}.scene",
                self.session_id,
                std::process::id()
            ));
            match std::fs::write(&path, self.doc.text()) {
                Ok(()) => {
                    args.push("--unsaved".into());
                    args.push(path.clone().into_os_string());
                    unsaved = Some(path);
                }
                Err(e) => self.say(
                    "warning",
                    format!("cannot keep the unsaved edits over the restart: {e}"),
                ),
            }
        }
        self.runtime.finish();
        self.collect_log();
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let error = std::process::Command::new(binary).args(&args).exec();
            // Only reached when the new binary could not start.
            self.say(
                "error",
                format!(
                    "cannot start {}: {error}; this session goes on",
                    binary.display()
                ),
            );
        }
        #[cfg(not(unix))]
        {
            let _ = &args;
            self.say(
                "error",
                format!(
                    "restarting on {} needs a Unix system; restart `jengine edit` by hand",
                    binary.display()
                ),
            );
        }
        if let Some(path) = unsaved {
            let _ = std::fs::remove_file(path);
        }
        self.building = false;
    }

    /// Files changed on disk: the scene, scripts, tables, textures and fonts the game uses
    /// are read again without restarting the editor.
    fn changed(&mut self, paths: Vec<PathBuf>) {
        let mut scenes = Vec::new();
        let (mut scripts, mut tables, mut art, mut project) = (false, false, false, false);
        let mut sounds = false;
        for path in &paths {
            let Ok(rel) = path.strip_prefix(&self.project_dir) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            if let Some(scene) = rel
                .strip_prefix("assets/scenes/")
                .and_then(|s| s.strip_suffix(".scene"))
            {
                scenes.push(scene.to_string());
            } else if rel.starts_with("assets/scripts/") {
                scripts = true;
            } else if rel.starts_with("data/") {
                tables = true;
            } else if rel.starts_with("assets/textures/") || rel.starts_with("assets/fonts/") {
                art = true;
            } else if rel.starts_with("assets/audio/") {
                sounds = true;
            } else if rel == "project.jengine" {
                project = true;
            }
        }
        if project {
            self.say("info", "project.jengine changed; a change of packages needs Rebuild, a change of window size a new session");
        }
        if art {
            self.renderer = Renderer::new(&self.project_dir.join("assets"));
            self.preloaded = u64::MAX;
            self.frame_dirty = true;
            self.say("info", "textures and fonts read again");
        }
        if sounds {
            self.runtime.forget_sounds();
            self.say("info", "sounds read again as they next play");
        }
        let mut reload = scripts;
        if tables {
            match self.runtime.reload_tables() {
                Ok(()) => {
                    self.say("info", "tables read again");
                    reload = true;
                }
                Err(problems) => {
                    for p in problems {
                        self.say("error", p);
                    }
                    self.say(
                        "warning",
                        "the tables have problems; the game keeps the ones it had",
                    );
                }
            }
        }
        if scripts {
            self.runtime.forget_scripts();
        }
        for scene in scenes {
            if scene == self.doc_scene {
                let disk = std::fs::read_to_string(self.runtime.project.scene_path(&scene));
                let Ok(disk) = disk else { continue };
                if disk == self.saved_text {
                    continue;
                }
                if self.dirty() {
                    self.conflict = Some(format!(
                        "assets/scenes/{scene}.scene changed on disk while you have unsaved edits; they are kept: Save writes yours, Revert takes the file's"
                    ));
                    self.say("warning", self.conflict.clone().unwrap_or_default());
                    continue;
                }
                match SceneDoc::parse(&disk) {
                    Ok(doc) => {
                        self.undo.push(std::mem::replace(&mut self.doc, doc));
                        if self.stand_in.take().is_some() {
                            self.undo.clear();
                        }
                        self.saved_text = disk;
                        self.revision += 1;
                        self.say(
                            "info",
                            format!("assets/scenes/{scene}.scene changed on disk; read again"),
                        );
                        reload = true;
                    }
                    Err(e) => self.say(
                        "error",
                        format!(
                            "assets/scenes/{scene}.scene: {e}; the editor keeps the scene it had"
                        ),
                    ),
                }
            } else if scene == self.runtime.scene() {
                reload = true;
            }
        }
        if reload {
            if self.runtime.scene() == self.doc_scene {
                let text = self.doc.text();
                let scene = self.doc_scene.clone();
                if let Err(e) = self.runtime.load_scene_text(&scene, &text) {
                    self.say("error", e);
                } else if scripts {
                    self.say("info", "scripts read again; the scene started over");
                }
            } else {
                let scene = self.runtime.scene().to_string();
                if let Err(e) = self.runtime.load_scene(&scene) {
                    self.say("error", e);
                }
            }
            self.collect_log();
            self.frame_dirty = true;
        }
    }
}

/// Every file under the project's assets and data and the project file, with when it last
/// changed and its size.
fn snapshot(project: &Path) -> HashMap<PathBuf, (SystemTime, u64)> {
    let mut out = HashMap::new();
    let mut stack = vec![project.join("assets"), project.join("data")];
    let file = project.join("project.jengine");
    if let Ok(m) = std::fs::metadata(&file) {
        out.insert(
            file,
            (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()),
        );
    }
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > 100_000 {
                return out;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && let Ok(m) = entry.metadata()
            {
                out.insert(
                    path,
                    (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()),
                );
            }
        }
    }
    out
}

/// Watches the project's files (every half second) and the viewport build's freshness
/// (every second and a half) on a thread of its own.
pub fn watch(options: &EditOptions, tx: Sender<Msg>, stop: Arc<AtomicBool>) {
    let project = options.project.clone();
    let project = std::fs::canonicalize(&project).unwrap_or(project);
    let profile = options.profile;
    let _ = std::thread::Builder::new()
        .name("editor-watch".into())
        .spawn(move || {
            let mut before = snapshot(&project);
            let mut stale: Option<Option<String>> = None;
            let mut round = 0u64;
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(500));
                let now = snapshot(&project);
                let mut changed: Vec<PathBuf> = now
                    .iter()
                    .filter(|(p, v)| before.get(*p) != Some(v))
                    .map(|(p, _)| p.clone())
                    .collect();
                changed.extend(before.keys().filter(|p| !now.contains_key(*p)).cloned());
                before = now;
                if !changed.is_empty() && tx.send(Msg::Changed(changed)).is_err() {
                    return;
                }
                if round.is_multiple_of(3) {
                    let reason = match crate::viewport::stale(&project, profile) {
                        Ok(reason) => reason,
                        Err(problems) => Some(problems.join("; ")),
                    };
                    if stale.as_ref() != Some(&reason) {
                        stale = Some(reason.clone());
                        if tx.send(Msg::Stale(reason)).is_err() {
                            return;
                        }
                    }
                }
                round += 1;
            }
        });
}
