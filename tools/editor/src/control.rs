//! Driving the game from the page: play, pause, step, restart, switching scene, input events,
//! selection and picking in the view, and rebuilding the viewport (then starting again in the new
//! binary, on the same address, with the open scene and any unsaved text).

use std::path::Path;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use super::Msg;
use super::http::Response;
use super::session::{Selected, Session, ok, read_scene};
use jengine_render::screen_to_world;
use jengine_runtime::input::{Event, Phase};
use jengine_viewport::Profile;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Control {
    action: String,
    #[serde(default)]
    scene: Option<String>,
    #[serde(default)]
    force: bool,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub(super) enum PageEvent {
    Pointer { phase: Phase, x: f32, y: f32 },
    Key { key: String, down: bool },
    Text { text: String },
    Wheel { x: f32, y: f32, dy: f64 },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Inputs {
    events: Vec<PageEvent>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Pick {
    x: f32,
    y: f32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Select {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    live: Option<u32>,
}

impl Session {
    pub(super) fn control(&mut self, control: Control) -> Result<Response, Response> {
        match control.action.as_str() {
            "play" => {
                if self.editing {
                    // Play starts the scene from the edited copy, as a player would see it.
                    self.editing = false;
                    self.steps = 0;
                    self.restart_scene().map_err(|e| Response::error(422, e))?;
                }
                self.playing = true;
            }
            "pause" => self.playing = false,
            "step" => {
                if self.editing {
                    self.editing = false;
                    self.steps = 0;
                    self.restart_scene().map_err(|e| Response::error(422, e))?;
                }
                self.playing = false;
                self.steps += 1;
            }
            "stop" => {
                // Back to edit mode: the scene as the edited copy has it, paused.
                self.editing = true;
                self.playing = false;
                self.steps = 0;
                self.events.clear();
                self.restart_scene().map_err(|e| Response::error(422, e))?;
            }
            "restart" => {
                // In edit mode the scene loads again and stays paused.
                self.playing = !self.editing;
                self.restart_scene().map_err(|e| Response::error(422, e))?;
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
                self.settle();
                self.doc = doc;
                self.saved_text = text;
                self.stand_in = None;
                self.doc_scene = scene;
                self.revision += 1;
                self.history.clear();
                self.dragging = None;
                self.selected = None;
                self.conflict = None;
                self.frame_dirty = true;
            }
            other => {
                return Err(Response::error(
                    400,
                    format!("{other:?}: the actions are play, pause, step, stop, restart and load"),
                ));
            }
        }
        Ok(ok(
            json!({ "ok": true, "playing": self.playing, "mode": if self.editing { "edit" } else { "play" } }),
        ))
    }

    pub(super) fn input(&mut self, inputs: Inputs) -> Result<Response, Response> {
        let (w, h) = self.size;
        let mut events = Vec::with_capacity(inputs.events.len());
        for event in inputs.events {
            events.push(match event {
                PageEvent::Pointer { phase, x, y } => {
                    if !(x.is_finite() && y.is_finite()) {
                        return Err(Response::error(400, "a pointer's x and y are numbers"));
                    }
                    let most = super::edits::MAX_PIXEL;
                    if x.abs() > most || y.abs() > most {
                        return Err(Response::error(
                            400,
                            format!("a pointer's x and y are frame pixels, within \u{b1}{most}"),
                        ));
                    }
                    let [wx, wy] = screen_to_world(&self.runtime.world, w, h, x, y);
                    Event::Pointer {
                        phase,
                        x: wx as f64,
                        y: wy as f64,
                    }
                }
                PageEvent::Wheel { x, y, dy } => {
                    let most = super::edits::MAX_PIXEL;
                    if !(x.is_finite() && y.is_finite() && x.abs() <= most && y.abs() <= most) {
                        return Err(Response::error(
                            400,
                            format!("a wheel's x and y are frame pixels, within \u{b1}{most}"),
                        ));
                    }
                    if !(dy.is_finite() && dy.abs() <= 1000.0) {
                        return Err(Response::error(
                            400,
                            "a wheel's dy is notches, a number within \u{b1}1000",
                        ));
                    }
                    let [wx, wy] = screen_to_world(&self.runtime.world, w, h, x, y);
                    Event::Wheel {
                        x: wx as f64,
                        y: wy as f64,
                        dy,
                    }
                }
                PageEvent::Key { key, down } => {
                    if key.is_empty() || key.len() > 32 {
                        return Err(Response::error(400, "a key's name is 1 to 32 bytes"));
                    }
                    Event::Key { key, down }
                }
                PageEvent::Text { text } => {
                    jengine_runtime::input::check_text(&text)
                        .map_err(|e| Response::error(400, e))?;
                    Event::Text { text }
                }
            });
        }
        // In edit mode the game is not running: what the pointer and keys do there is for the
        // editor, not the game.
        if self.editing {
            return Ok(ok(json!({ "ok": true, "ignored": "edit mode" })));
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

    /// Selects an entity of the scene file (`index`), one the game spawned (`live`), or none;
    /// one that does not exist is refused and the selection kept.
    pub(super) fn select(&mut self, select: Select) -> Result<Response, Response> {
        let selected = match (select.index, select.live) {
            (Some(i), _) if i >= self.doc.len() => {
                return Err(Response::error(
                    400,
                    format!(
                        "there is no entity {i} to select (the scene has {})",
                        self.doc.len()
                    ),
                ));
            }
            (Some(i), _) => Some(Selected::Scene(i)),
            (None, Some(id)) if self.live(id).is_none() => {
                return Err(Response::error(
                    400,
                    format!("there is no live entity {id} to select"),
                ));
            }
            (None, Some(id)) => Some(Selected::Live(id)),
            (None, None) => None,
        };
        self.selected = selected;
        let selection = match self.selected {
            Some(Selected::Scene(i)) => json!({ "index": i }),
            Some(Selected::Live(id)) => json!({ "live": id }),
            None => serde_json::Value::Null,
        };
        Ok(ok(
            json!({ "ok": true, "selection": selection, "selection_box": self.selection_box() }),
        ))
    }

    /// Selects the entity drawn on top at frame pixel (x, y): the scene's entity that owns
    /// what is there (a package's tile is its table's, through [`jengine::SpawnedFor`]), or, for
    /// something the game spawned on its own, that live entity. Nothing there clears the
    /// selection.
    pub(super) fn pick(&mut self, pick: Pick) -> Response {
        let (w, h) = self.size;
        let inside = pick.x.is_finite()
            && pick.y.is_finite()
            && (0.0..w as f32).contains(&pick.x)
            && (0.0..h as f32).contains(&pick.y);
        let drawn = if inside {
            let candidates: Vec<jengine::Entity> = self
                .runtime
                .world
                .entities
                .iter()
                .map(|r| r.entity())
                .collect();
            self.renderer.pick(
                &self.runtime.world,
                &candidates,
                w,
                h,
                pick.x as u32,
                pick.y as u32,
            )
        } else {
            None
        };
        let select = match drawn.map(|e| self.owner_of(e)) {
            Some(owner) => {
                let in_file = (self.runtime.scene() == self.doc_scene)
                    .then(|| {
                        self.runtime
                            .scene_entities()
                            .iter()
                            .position(|c| *c == owner)
                    })
                    .flatten();
                match in_file {
                    Some(index) => Select {
                        index: Some(index),
                        live: None,
                    },
                    None => Select {
                        index: None,
                        live: Some(owner.id()),
                    },
                }
            }
            None => Select {
                index: None,
                live: None,
            },
        };
        // What was found is there, so the selection cannot be refused.
        self.select(select).unwrap_or_else(|refusal| refusal)
    }

    pub(super) fn rebuild(&mut self) -> Result<Response, Response> {
        if self.building {
            return Err(Response::error(409, "a rebuild is already running"));
        }
        self.building = true;
        self.build_failed = None;
        self.say("info", "rebuilding the viewport");
        let (project, profile, tx) = (self.project_dir.clone(), self.profile, self.tx.clone());
        let mut probe_args = self.session_args();
        probe_args.push("--probe".into());
        std::thread::Builder::new()
            .name("editor-build".into())
            .spawn(move || {
                let lines = tx.clone();
                let mut each = |line: &str| {
                    let _ = lines.send(Msg::BuildLine(line.to_string()));
                };
                let done = jengine_viewport::build_reporting(&project, profile, &mut each)
                    .map(|v| v.binary)
                    .map_err(|problems| problems.join("\n"))
                    .and_then(|binary| {
                        // A build that compiles may still not start the project (a listed
                        // package it does not link, tables it refuses): ask it first, while
                        // this session still runs.
                        each("checking that the new build starts the project");
                        probe(&binary, &probe_args, PROBE_TIME)
                            .map(|()| binary)
                            .map_err(|why| {
                                format!(
                                    "the new build compiled but cannot start the project:\n{why}"
                                )
                            })
                    });
                let _ = tx.send(Msg::BuildDone(done));
            })
            .map_err(|e| Response::error(500, format!("cannot start the build: {e}")))?;
        Ok(ok(json!({ "ok": true })))
    }

    /// Starts this session again in the new build, on the same port with the same token,
    /// in the scene that was open; edits not yet saved go along. If the new binary cannot
    /// start, this session goes on.
    pub(super) fn restart_on(&mut self, binary: &Path) {
        self.say(
            "info",
            "the rebuild succeeded; starting the session on the new build",
        );
        let (args, handed) = self.handover();
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
        for path in handed {
            let _ = std::fs::remove_file(path);
        }
        self.building = false;
        // `finish` stopped the scripts; this session goes on, so its scene starts again.
        // A failure is in the log already.
        let _ = self.restart_scene();
    }

    /// The command line that starts the next session where this one is: same port, token,
    /// scene, seed and profile, with the unsaved text and the undo history written to files
    /// for it (returned, to remove should it not start).
    pub(super) fn handover(&mut self) -> (Vec<std::ffi::OsString>, Vec<std::path::PathBuf>) {
        // A drag under way becomes its undo step, so the history matches the scene handed over.
        self.end_drag();
        let mut args = self.session_args();
        args.extend([
            "--port".into(),
            self.port.to_string().into(),
            "--token".into(),
            self.token.clone().into(),
        ]);
        let mut handed = Vec::new();
        if self.dirty() {
            let path = self.handover_path("scene");
            match std::fs::write(&path, self.doc.text()) {
                Ok(()) => {
                    args.push("--unsaved".into());
                    args.push(path.clone().into_os_string());
                    handed.push(path);
                }
                Err(e) => self.say(
                    "warning",
                    format!("cannot keep the unsaved edits over the restart: {e}"),
                ),
            }
        }
        // The undo history and the log go on in the next session.
        if self.history.can_undo() || self.history.can_redo() || !self.log.is_empty() {
            let path = self.handover_path("history");
            let (undo, redo) = self.history.texts(&self.doc);
            let log: Vec<serde_json::Value> = self
                .log
                .iter()
                .map(|l| json!({ "level": l.level, "source": l.source, "text": l.text }))
                .collect();
            let history =
                json!({ "scene": self.doc_scene, "undo": undo, "redo": redo, "log": log });
            match std::fs::write(&path, history.to_string()) {
                Ok(()) => {
                    args.push("--history".into());
                    args.push(path.clone().into_os_string());
                    handed.push(path);
                }
                Err(e) => self.say(
                    "warning",
                    format!("cannot keep the undo history over the restart: {e}"),
                ),
            }
        }
        (args, handed)
    }

    /// The command line that starts this session's project as it is now (scene, seed, profile,
    /// sound), without the port and token.
    fn session_args(&self) -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = vec![
            "edit".into(),
            self.project_dir.clone().into_os_string(),
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
        // A session that was playing goes on playing on the new build; one in edit mode
        // opens in edit mode again.
        if !self.editing {
            args.push("--play".into());
        }
        args
    }

    /// Where a file handed to the next session goes: private to this session and process.
    fn handover_path(&self, what: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!(
            "jengine-edit-{}-{}.{what}",
            self.session_id,
            std::process::id()
        ))
    }

    /// Loads the running scene again: from the editor's copy when it is the one being edited.
    pub(super) fn restart_scene(&mut self) -> Result<(), String> {
        if self.runtime.scene() == self.doc_scene {
            self.show_doc(None);
            return Ok(());
        }
        let scene = self.runtime.scene().to_string();
        let loaded = self.runtime.load_scene(&scene);
        self.collect_log();
        self.settle();
        self.frame_dirty = true;
        if let Err(e) = &loaded {
            self.say("error", e.clone());
        }
        loaded
    }
}

/// How long a new build may take to start the project before the rebuild gives up on it.
const PROBE_TIME: Duration = Duration::from_secs(120);

/// Runs `binary` with `args` (an `edit --probe` command line) and waits up to `limit`: `Ok`
/// when it exits successfully, else what it printed (its `error:` lines first) or that it
/// did not finish in time (it is killed then).
pub(super) fn probe(
    binary: &Path,
    args: &[std::ffi::OsString],
    limit: Duration,
) -> Result<(), String> {
    use std::io::Read;
    let mut child = std::process::Command::new(binary)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    // Read what it says on a thread, so a chatty child never blocks on a full pipe.
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let (said_tx, said_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut text = Vec::new();
        // At most 1 MB of it is kept.
        let _ = (&mut stderr).take(1 << 20).read_to_end(&mut text);
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        let _ = said_tx.send(String::from_utf8_lossy(&text).into_owned());
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    // A process it started may still hold the pipe open: wait for the words a little only.
    let said = said_rx
        .recv_timeout(Duration::from_secs(5))
        .unwrap_or_default();
    match status {
        Some(status) if status.success() => Ok(()),
        Some(status) => {
            let mut lines: Vec<&str> = said.lines().filter(|l| l.starts_with("error")).collect();
            if lines.is_empty() {
                lines = said.lines().rev().take(20).collect();
                lines.reverse();
            }
            if lines.is_empty() {
                Err(format!("{} exited with {status}", binary.display()))
            } else {
                Err(lines.join("\n"))
            }
        }
        None => Err(format!(
            "{} did not finish starting the project within {} s",
            binary.display(),
            limit.as_secs()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EditOptions, SceneDoc};

    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    /// The counter fixture project copied into a folder of its own.
    fn fixture() -> tempfile::TempDir {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let dir = tempfile::tempdir().unwrap();
        copy(&fixtures.join("counter-project"), dir.path());
        let file = dir.path().join("project.jengine");
        let package = fixtures.join("counter-package");
        let text = std::fs::read_to_string(&file)
            .unwrap()
            .replace("../counter-package", package.to_str().unwrap());
        std::fs::write(&file, text).unwrap();
        dir
    }

    const PACKAGES: [&dyn jengine::Package; 1] = [&jengine_counter::CounterPackage];

    fn session_on(options: &EditOptions) -> Session {
        let (tx, _rx) = std::sync::mpsc::channel();
        Session::start(options, &PACKAGES, 1, "token", tx).unwrap()
    }

    fn tint_edit(tint: &str) -> super::super::edits::Edit {
        serde_json::from_value(json!({
            "op": "set", "entity": 1, "key": "sprite", "path": ["tint"], "value": tint
        }))
        .unwrap()
    }

    fn tint(session: &Session) -> String {
        session
            .doc
            .entity(1)
            .unwrap()
            .get("sprite")
            .unwrap()
            .get("tint")
            .unwrap()
            .compact()
    }

    /// The value after `flag` in a command line.
    fn arg_after(args: &[std::ffi::OsString], flag: &str) -> Option<std::path::PathBuf> {
        let at = args.iter().position(|a| a == flag)?;
        args.get(at + 1).map(std::path::PathBuf::from)
    }

    #[test]
    fn colour_fields_are_known_from_the_component_not_the_values_shape() {
        let dir = fixture();
        let session = session_on(&EditOptions::new(dir.path()));
        let fields = |key: &str, value: &str| {
            let value = crate::doc::Json::parse(value).unwrap();
            let full = session.full_value(key, &value).unwrap();
            session.colour_fields(key, &full)
        };
        // A tint written as four numbers is a colour; a size of two, a string texture, the
        // counter's numbers and its optional string are not.
        assert_eq!(
            fields("sprite", r#"{"size": [2, 2], "tint": [1, 1, 1, 1]}"#),
            [vec!["tint".to_string()]]
        );
        assert_eq!(
            fields("text", r##"{"text": "#102030", "color": "#ffffff"}"##),
            [vec!["color".to_string()]]
        );
        assert_eq!(
            fields("camera", r##"{"clear": "#203040"}"##),
            [vec!["clear".to_string()]]
        );
        assert!(fields("counter", r#"{"count": 1}"#).is_empty());
        assert!(fields("transform", r#"{"pos": [0, 1], "z": 2}"#).is_empty());
    }

    #[test]
    fn the_inspector_shows_a_texts_box_fields_and_the_page_wheel_is_checked() {
        let dir = fixture();
        let mut session = session_on(&EditOptions::new(dir.path()));
        let label = crate::doc::Json::parse(r#"{"text": "hi", "height": 2}"#).unwrap();
        let full = session.full_value("text", &label).unwrap();
        assert_eq!(full["height"], 2.0);
        assert_eq!(full["overflow"], "more");
        assert_eq!(full["scroll"], 0.0);
        let events = |dy: serde_json::Value| -> Inputs {
            serde_json::from_value(
                json!({"events": [{"type": "wheel", "x": 10, "y": 20, "dy": dy}]}),
            )
            .unwrap()
        };
        // Input reaches a game that plays (in edit mode the editor keeps it).
        session.editing = false;
        assert!(session.input(events(json!(-1.5))).is_ok());
        let refused = session.input(events(json!(1e9))).unwrap_err();
        assert_eq!(refused.status, 400);
        assert!(
            String::from_utf8_lossy(&refused.body).contains("dy"),
            "{}",
            String::from_utf8_lossy(&refused.body)
        );
        let wheel = session
            .events
            .iter()
            .find(|e| matches!(e, Event::Wheel { .. }));
        assert!(
            matches!(wheel, Some(Event::Wheel { dy, .. }) if *dy == -1.5),
            "{wheel:?}"
        );
    }

    #[test]
    fn the_undo_history_and_unsaved_text_come_over_a_restart() {
        let dir = fixture();
        let mut session = session_on(&EditOptions::new(dir.path()));
        for colour in ["#ff0000", "#00ff00", "#0000ff"] {
            session.edit(tint_edit(colour)).unwrap();
        }
        session.undo_redo(true);
        assert_eq!(tint(&session), "\"#00ff00\"");
        let (args, handed) = session.handover();
        assert_eq!(handed.len(), 2);
        let mut options = EditOptions::new(dir.path());
        options.unsaved = arg_after(&args, "--unsaved");
        options.history = arg_after(&args, "--history");
        assert!(options.unsaved.is_some() && options.history.is_some());
        let mut next = session_on(&options);
        // The handed files are read once and gone.
        assert!(handed.iter().all(|p| !p.exists()));
        assert_eq!(tint(&next), "\"#00ff00\"");
        assert!(next.dirty());
        next.undo_redo(false);
        assert_eq!(tint(&next), "\"#0000ff\"");
        for _ in 0..3 {
            next.undo_redo(true);
        }
        assert_eq!(tint(&next), "\"#e0a030\"");
        assert!(!next.dirty());
        assert_eq!(next.undo_redo(true).status, 409);
    }

    /// The mode goes over a rebuild too: a session in edit mode opens the next in edit mode,
    /// one that was playing opens the next playing.
    #[test]
    fn the_mode_comes_over_a_restart() {
        let dir = fixture();
        let mut session = session_on(&EditOptions::new(dir.path()));
        assert!(session.editing && !session.playing);
        let (args, _) = session.handover();
        assert!(!args.iter().any(|a| a == "--play"), "{args:?}");
        let play: Control = serde_json::from_value(json!({ "action": "play" })).unwrap();
        session.control(play).unwrap();
        let (args, _) = session.handover();
        assert!(args.iter().any(|a| a == "--play"), "{args:?}");
        let mut options = EditOptions::new(dir.path());
        options.play = true;
        let next = session_on(&options);
        assert!(!next.editing && next.playing);
    }

    #[test]
    fn a_handed_over_history_that_does_not_fit_is_refused_whole() {
        let dir = fixture();
        let write = |text: String| {
            let path = dir.path().join("history.json");
            std::fs::write(&path, text).unwrap();
            path
        };
        let good = SceneDoc::parse(
            &std::fs::read_to_string(dir.path().join("assets/scenes/main.scene")).unwrap(),
        )
        .unwrap()
        .text();
        let bad = [
            // Another scene's.
            json!({ "scene": "legacy", "undo": [good], "redo": [] }).to_string(),
            // A step that is not a scene.
            json!({ "scene": "main", "undo": [good, "{ not json"], "redo": [] }).to_string(),
            // More steps than are kept.
            json!({ "scene": "main", "undo": vec![good.clone(); 201], "redo": [] }).to_string(),
            // Not the shape at all, or tampered with.
            "[1, 2, 3]".to_string(),
            json!({ "scene": "main", "undo": [], "redo": [], "extra": 1 }).to_string(),
            "\u{0}".repeat(10),
        ];
        for text in bad {
            let mut options = EditOptions::new(dir.path());
            options.history = Some(write(text.clone()));
            let mut session = session_on(&options);
            assert!(
                session.log.iter().any(|l| l.level == "warning"
                    && l.text.contains("undo history could not be carried over")),
                "{text:.80}"
            );
            assert_eq!(session.undo_redo(true).status, 409, "{text:.80}");
        }
    }

    /// A stand-in for a new build: a shell script doing `body`.
    fn fake_binary(dir: &Path, body: &str) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(format!("fake-{}", body.len()));
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn the_probe_says_whether_a_new_build_starts_and_why_not() {
        let dir = tempfile::tempdir().unwrap();
        let args = ["edit".into(), "p".into(), "--probe".into()];
        let second = Duration::from_secs(10);
        // Starts: the arguments reach it.
        let starts = fake_binary(dir.path(), r#"[ "$3" = "--probe" ] || exit 3"#);
        assert_eq!(probe(&starts, &args, second), Ok(()));
        // Cannot start the project: its error lines, not its chatter.
        let refuses = fake_binary(
            dir.path(),
            "echo 'info: reading' >&2; echo 'error: package x is not linked' >&2; exit 1",
        );
        assert_eq!(
            probe(&refuses, &args, second),
            Err("error: package x is not linked".to_string())
        );
        // Fails without a word: its exit status.
        let silent = fake_binary(dir.path(), "exit 7");
        assert!(
            probe(&silent, &args, second)
                .unwrap_err()
                .contains("exit status: 7")
        );
        // Says a great deal: read to the end without blocking, and kept short.
        let chatty = fake_binary(
            dir.path(),
            "i=0; while [ $i -lt 20000 ]; do echo 'error: again and again and again' >&2; i=$((i+1)); done; exit 1",
        );
        let said = probe(&chatty, &args, Duration::from_secs(60)).unwrap_err();
        assert!(said.len() <= 1 << 20 && said.starts_with("error: again"));
        // Hangs: killed when the time is up.
        let hangs = fake_binary(dir.path(), "exec sleep 600");
        let start = Instant::now();
        let why = probe(&hangs, &args, Duration::from_millis(300)).unwrap_err();
        assert!(why.contains("did not finish starting"), "{why}");
        assert!(start.elapsed() < Duration::from_secs(60));
        // Not there at all.
        let why = probe(Path::new("/nonexistent/viewport"), &args, second).unwrap_err();
        assert!(why.starts_with("cannot start"), "{why}");
    }

    #[test]
    fn a_new_build_that_cannot_start_leaves_the_session_playing() {
        let dir = fixture();
        let options = EditOptions::new(dir.path().to_path_buf());
        let mut session = session_on(&options);
        session.tick();
        let starts = |s: &Session| {
            s.log
                .iter()
                .filter(|l| l.text.contains("first goal"))
                .count()
        };
        assert_eq!(starts(&session), 1);
        // A path that cannot exist: the exec fails and returns.
        session.restart_on(Path::new("/nonexistent/jengine-viewport-that-is-not-there"));
        assert!(
            session
                .log
                .iter()
                .any(|l| l.level == "error" && l.text.contains("this session goes on"))
        );
        // The scripts stopped for the restart run again.
        session.tick();
        assert_eq!(starts(&session), 2);
        assert!(!session.building);
    }
}
