//! The editor session: the running game, the scene being edited, the log and the frame; the
//! clock that steps the game, and the dispatch of the page's requests to the parts that answer
//! them (`views`, `edits`, `control`, `reload`).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use jengine::host::check_asset_name;
use jengine::{Entity, LogLevel, Package};
use serde::Deserialize;
use serde_json::json;

use super::doc::SceneDoc;
use super::frames::Frames;
use super::history::{History, UNDO_KEPT};
use super::http::{Request, Response};
use super::{EditOptions, Msg};
use jengine_render::Renderer;
use jengine_runtime::input::Event;
use jengine_runtime::{Options, Runtime};
use jengine_viewport::Profile;

/// Log lines kept for the page.
pub(super) const LOG_KEPT: usize = 5000;
/// Live entities (spawned by the game, not the file) listed in the scene tree at most.
pub(super) const LIVE_LISTED: usize = 200;
#[derive(Debug, Clone, serde::Serialize)]
pub(super) struct LogEntry {
    pub(super) seq: u64,
    pub(super) level: &'static str,
    pub(super) source: &'static str,
    pub(super) text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Selected {
    Scene(usize),
    Live(u32),
}

/// The editor session (lives on the main thread).
pub struct Session {
    pub(super) runtime: Runtime,
    pub(super) renderer: Renderer,
    pub(super) preloaded: u64,
    pub(super) size: (u32, u32),
    pub(super) doc: SceneDoc,
    pub(super) doc_scene: String,
    pub(super) saved_text: String,
    pub(super) history: History,
    pub(super) playing: bool,
    /// Edit mode: the scene as loaded from the editor's copy, not yet run (Play starts it
    /// from the edited copy; Stop comes back here).
    pub(super) editing: bool,
    pub(super) steps: u32,
    pub(super) events: Vec<Event>,
    pub(super) selected: Option<Selected>,
    pub(super) log: VecDeque<LogEntry>,
    pub(super) log_seq: u64,
    pub(super) banner: Option<String>,
    pub(super) building: bool,
    pub(super) build_failed: Option<String>,
    pub(super) conflict: Option<String>,
    /// Why the scene shown is an empty stand-in for a file that is not a scene at all (edits
    /// and saves are refused until the file is mended on disk).
    pub(super) stand_in: Option<String>,
    /// A drag of an entity in the view, while the pointer is down.
    pub(super) dragging: Option<super::edits::Dragging>,
    pub(super) frame_dirty: bool,
    /// Counts changes of the scene being edited, so the page knows to read it again.
    pub(super) revision: u64,
    pub(super) frames: Arc<Frames>,
    pub(super) stepped_at: VecDeque<Instant>,
    pub(super) frame_ms: f64,
    /// How long the last frame took to draw, in milliseconds.
    pub(super) render_ms: f64,
    pub(super) session_id: String,
    pub(super) project_dir: PathBuf,
    pub(super) port: u16,
    pub(super) token: String,
    pub(super) profile: Profile,
    pub(super) seed: u64,
    pub(super) sound: bool,
    pub(super) tx: Sender<Msg>,
}

pub(super) fn level_of(level: LogLevel) -> &'static str {
    match level {
        LogLevel::Info => "info",
        LogLevel::Warn => "warning",
        LogLevel::Error => "error",
    }
}

/// Reads the undo and redo steps a session handed over a rebuild (`{"scene", "undo", "redo"}`,
/// each step a scene's whole text). All of it or nothing: a step that does not parse, more
/// steps than are kept, or another scene's history is refused with why.
fn read_history(path: &Path, scene: &str) -> Result<(Vec<SceneDoc>, Vec<SceneDoc>), String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct History {
        scene: String,
        undo: Vec<String>,
        redo: Vec<String>,
        /// The log lines, read on their own by [`read_handed_log`].
        #[serde(default, rename = "log")]
        _log: serde_json::Value,
    }
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let history: History = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if history.scene != scene {
        return Err(format!(
            "it is scene {}'s, and scene {scene} is open",
            history.scene
        ));
    }
    if history.undo.len() > UNDO_KEPT || history.redo.len() > UNDO_KEPT {
        return Err(format!("more than {UNDO_KEPT} steps"));
    }
    let parse = |steps: Vec<String>, what: &str| {
        steps
            .iter()
            .enumerate()
            .map(|(i, t)| SceneDoc::parse(t).map_err(|e| format!("{what} step {}: {e}", i + 1)))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok((parse(history.undo, "undo")?, parse(history.redo, "redo")?))
}

/// Log lines handed over a rebuild beside the undo history, so the log goes on in the new
/// session: each `{"level", "source", "text"}`; a line whose level or source is not one the
/// editor uses comes back as an info line from the editor. Lines that cannot be read are
/// left out (the history says what is wrong with the file).
fn read_handed_log(path: &Path) -> Vec<(&'static str, &'static str, String)> {
    #[derive(serde::Deserialize)]
    struct Handed {
        #[serde(default)]
        log: Vec<Line>,
    }
    #[derive(serde::Deserialize)]
    struct Line {
        level: String,
        source: String,
        text: String,
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(handed) = serde_json::from_str::<Handed>(&text) else {
        return Vec::new();
    };
    let kept = handed.log.len().saturating_sub(LOG_KEPT);
    handed
        .log
        .into_iter()
        .skip(kept)
        .map(|l| {
            let level = match l.level.as_str() {
                "warning" => "warning",
                "error" => "error",
                _ => "info",
            };
            let source = match l.source.as_str() {
                "game" => "game",
                "build" => "build",
                _ => "editor",
            };
            (level, source, l.text)
        })
        .collect()
}

pub(super) fn read_scene(project: &Path, name: &str) -> Result<(SceneDoc, String), String> {
    check_asset_name(name).map_err(|e| format!("scene {e}"))?;
    let path = project.join("assets/scenes").join(format!("{name}.scene"));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("assets/scenes/{name}.scene: cannot read: {e}"))?;
    let doc = SceneDoc::parse(&text).map_err(|e| format!("assets/scenes/{name}.scene: {e}"))?;
    Ok((doc, text))
}

pub(super) fn body<'a, T: Deserialize<'a>>(request: &'a Request) -> Result<T, Response> {
    serde_json::from_slice(&request.body)
        .map_err(|e| Response::error(400, format!("the request's JSON: {e}")))
}

pub(super) fn ok(value: serde_json::Value) -> Response {
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
                jengine_runtime::Sound::Device
            } else {
                jengine_runtime::Sound::Silent
            },
            platform: options.platform,
            // A scene that does not load opens anyway, to be mended here.
            broken_scene_ok: true,
            ..Options::default()
        };
        let mut runtime = Runtime::new(&options.project, packages, runtime_options)?;
        let scene = runtime.scene().to_string();
        // What the log says first: (level, text).
        let mut notes: Vec<(&'static str, String)> = Vec::new();
        let mut stand_in = None;
        let (mut doc, saved_text) = match read_scene(&runtime.project.dir, &scene) {
            Ok(read) => read,
            Err(e) => {
                // Not even JSON: an empty scene stands in until the file is mended on disk
                // (the editor reads it again when it changes); nothing may overwrite it.
                let why = format!("{e}; mend the file on disk and the editor reads it again");
                notes.push(("error", why.clone()));
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
            // They are kept even when the new build does not load them (a component its
            // packages no longer have, say): the game shows the file's scene, the editor the
            // edits, to mend and save.
            let read = std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|text| SceneDoc::parse(&text).map(|kept| (text, kept)));
            match read {
                Ok((text, kept)) => {
                    doc = kept;
                    match runtime.load_scene_text(&scene, &text) {
                        Ok(()) => notes.push((
                            "info",
                            "your unsaved edits were carried over the rebuild".into(),
                        )),
                        Err(e) => notes.push((
                            "error",
                            format!(
                                "your unsaved edits were carried over the rebuild, but the new build does not load them; the game shows the saved scene:\n{e}"
                            ),
                        )),
                    }
                }
                Err(e) => {
                    notes.push(("error", format!("the unsaved edits could not be read: {e}")))
                }
            }
            let _ = std::fs::remove_file(path);
        }
        let mut handed_log = Vec::new();
        let history = match &options.history {
            Some(path) => {
                handed_log = read_handed_log(path);
                let read = read_history(path, &scene);
                let _ = std::fs::remove_file(path);
                match read {
                    Ok((undo, redo)) => History::from_states(&doc, undo, redo),
                    Err(e) => {
                        notes.push((
                            "warning",
                            format!("the undo history could not be carried over the rebuild: {e}"),
                        ));
                        History::default()
                    }
                }
            }
            None => History::default(),
        };
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
            history,
            // The scene opens paused in edit mode, unless it was playing before a rebuild.
            playing: options.play,
            editing: !options.play,
            // Its first frame runs, so what scripts set up at start shows.
            steps: 1,
            events: Vec::new(),
            selected: None,
            log: VecDeque::new(),
            log_seq: 0,
            banner: None,
            building: false,
            build_failed: None,
            conflict: None,
            stand_in,
            dragging: None,
            frame_dirty: true,
            revision: 0,
            frames: Arc::new(Frames::new()),
            stepped_at: VecDeque::new(),
            frame_ms: 0.0,
            render_ms: 0.0,
            session_id: super::fresh_token()[..12].to_string(),
            project_dir,
            port,
            token: token.to_string(),
            profile: options.profile,
            seed: options.seed,
            sound: options.sound,
            tx,
        };
        for (level, source, text) in handed_log {
            session.push_log(level, source, text);
        }
        session.collect_log();
        for (level, note) in notes {
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

    pub(super) fn say(&mut self, level: &'static str, text: impl Into<String>) {
        self.push_log(level, "editor", text.into());
    }

    pub(super) fn push_log(&mut self, level: &'static str, source: &'static str, text: String) {
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

    pub(super) fn collect_log(&mut self) {
        for line in self.runtime.take_log() {
            let level = level_of(line.level);
            self.push_log(level, "game", line.message);
        }
    }

    pub(super) fn dirty(&self) -> bool {
        self.doc.text() != self.saved_text
    }

    /// One tick of the clock: a frame of the game when playing (or asked to step), and a
    /// rendered frame when the page is watching and something changed.
    pub fn tick(&mut self) {
        self.tick_paced(true);
    }

    /// [`Session::tick`], drawing a frame only when `may_draw`: the clock says no while the
    /// game is more than a step behind, so the game's own frames catch up before another
    /// drawing (the dearest work on this thread) and the game keeps its pace.
    pub fn tick_paced(&mut self, may_draw: bool) {
        if self.playing || self.steps > 0 {
            self.steps = self.steps.saturating_sub(1);
            let started = Instant::now();
            let events = std::mem::take(&mut self.events);
            // In edit mode the scene stays, whatever its first frame asks for.
            self.runtime.hold_scene_changes(self.editing);
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
        if may_draw && self.frame_dirty && self.frames.wants_next() {
            self.render();
        }
    }

    pub(super) fn render(&mut self) {
        let started = Instant::now();
        self.frame_dirty = false;
        if self.preloaded != self.runtime.scene_generation() {
            self.renderer.preload(&self.runtime.world);
            self.preloaded = self.runtime.scene_generation();
        }
        let frame = self
            .renderer
            .render(&self.runtime.world, self.size.0, self.size.1);
        for w in self.renderer.take_warnings() {
            self.push_log("warning", "game", w);
        }
        self.frames.publish(frame);
        self.render_ms = started.elapsed().as_secs_f64() * 1000.0;
    }

    pub(super) fn selected_entity(&self) -> Option<Entity> {
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

    pub(super) fn live(&self, id: u32) -> Option<Entity> {
        self.runtime
            .world
            .entities
            .iter()
            .map(|r| r.entity())
            .find(|e| e.id() == id)
    }

    /// When the game moves to another scene itself, the editor opens it (unless edits to
    /// the open one are unsaved).
    pub(super) fn follow_scene(&mut self) {
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
                self.history.clear();
                self.dragging = None;
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

    pub(super) fn answer(&mut self, request: &Request) -> Response {
        let changes_scene = matches!(
            request.path.as_str(),
            "/api/edit" | "/api/undo" | "/api/redo" | "/api/save" | "/api/drag"
        );
        if request.method == "POST"
            && changes_scene
            && let Some(why) = &self.stand_in
        {
            return Response::error(409, why);
        }
        if request.method == "POST" && request.path != "/api/drag" {
            self.end_drag();
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
            ("POST", "/api/select") => body(request).and_then(|s| self.select(s)),
            ("POST", "/api/pick") => body(request).map(|p| self.pick(p)),
            ("POST", "/api/drag") => body(request).and_then(|d| self.drag(d)),
            ("POST", "/api/rebuild") => self.rebuild(),
            (_, path) if path.starts_with("/api/") => Err(Response::error(
                405,
                format!("{} {path} is not something the editor does", request.method),
            )),
            (_, path) => Err(Response::error(404, format!("nothing at {path}"))),
        };
        answer.unwrap_or_else(|refusal| refusal)
    }

    /// Where the selected entity shows in the frame. Worked out when asked (the page asks a
    /// few times a second), not with every frame: it draws the entity once more on its own.
    pub(super) fn selection_box(&mut self) -> Option<[u32; 4]> {
        let e = self.selected_entity()?;
        // With what packages drew for it (a table's board).
        let owned: std::collections::HashSet<Entity> = self
            .runtime
            .world
            .entities
            .iter()
            .map(|r| r.entity())
            .filter(|&x| x == e || self.owner_of(x) == e)
            .collect();
        self.renderer.bounds_of(
            &self.runtime.world,
            &|x| owned.contains(&x),
            self.size.0,
            self.size.1,
        )
    }

    /// The entity `e` was spawned for, following [`jengine::SpawnedFor`] links (a tile to its
    /// table), or `e` itself when it has none. Links to entities that are gone, or that go
    /// round, stop at the last one still there.
    pub(super) fn owner_of(&self, e: Entity) -> Entity {
        let mut at = e;
        for _ in 0..16 {
            match self.runtime.world.entities.get::<&jengine::SpawnedFor>(at) {
                Ok(link) if link.0 != at && self.runtime.world.entities.contains(link.0) => {
                    at = link.0;
                }
                _ => break,
            }
        }
        at
    }

    pub(super) fn state(&mut self, request: &Request) -> Response {
        let since: u64 = request
            .param("since")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let selection_box = self.selection_box();
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
            "can_undo": self.history.can_undo(),
            "can_redo": self.history.can_redo(),
            "playing": self.playing,
            "mode": if self.editing { "edit" } else { "play" },
            "frame": self.runtime.frame(),
            // Frames asked for (a step, edit mode's first frame) and not run yet.
            "steps_pending": self.steps,
            "fps": self.stepped_at.len(),
            "frame_ms": (self.frame_ms * 100.0).round() / 100.0,
            "render_ms": (self.render_ms * 100.0).round() / 100.0,
            "encode_ms": (self.frames.encode_ms() * 100.0).round() / 100.0,
            "size": [self.size.0, self.size.1],
            "selection": selection,
            "selection_box": selection_box,
            "banner": if self.building { None } else { self.banner.clone() },
            "building": self.building,
            "build_failed": self.build_failed,
            "conflict": self.conflict.clone().or_else(|| self.stand_in.clone()),
            "log": log,
            "log_seq": self.log_seq,
        }))
    }
}
