//! Driving the game from the page: play, pause, step, restart, switching scene, input events,
//! selection and picking in the view, and rebuilding the viewport (then starting again in the new
//! binary, on the same address, with the open scene and any unsaved text).

use std::path::Path;

use serde::Deserialize;
use serde_json::json;

use super::Msg;
use super::http::Response;
use super::session::{Selected, Session, ok, read_scene};
use crate::input::{Event, Phase};
use crate::render::screen_to_world;
use crate::viewport::Profile;

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
            "play" => self.playing = true,
            "pause" => self.playing = false,
            "step" => {
                self.playing = false;
                self.steps += 1;
            }
            "restart" => {
                self.playing = true;
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

    pub(super) fn input(&mut self, inputs: Inputs) -> Result<Response, Response> {
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

    pub(super) fn select(&mut self, select: Select) -> Response {
        self.selected = match (select.index, select.live) {
            (Some(i), _) => Some(Selected::Scene(i)),
            (None, Some(id)) => Some(Selected::Live(id)),
            (None, None) => None,
        };
        let selection = match self.selected {
            Some(Selected::Scene(i)) => json!({ "index": i }),
            Some(Selected::Live(id)) => json!({ "live": id }),
            None => serde_json::Value::Null,
        };
        ok(json!({ "ok": true, "selection": selection, "selection_box": self.selection_box() }))
    }

    /// Selects the scene's entity drawn on top at frame pixel (x, y), if any.
    pub(super) fn pick(&mut self, pick: Pick) -> Response {
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

    pub(super) fn rebuild(&mut self) -> Result<Response, Response> {
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
    pub(super) fn restart_on(&mut self, binary: &Path) {
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
        // `finish` stopped the scripts; this session goes on, so its scene starts again.
        // A failure is in the log already.
        let _ = self.restart_scene();
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
        self.frame_dirty = true;
        if let Err(e) = &loaded {
            self.say("error", e.clone());
        }
        loaded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::EditOptions;

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

    #[test]
    fn a_new_build_that_cannot_start_leaves_the_session_playing() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let dir = tempfile::tempdir().unwrap();
        copy(&fixtures.join("counter-project"), dir.path());
        let file = dir.path().join("project.jengine");
        let package = fixtures.join("counter-package");
        let text = std::fs::read_to_string(&file)
            .unwrap()
            .replace("../counter-package", package.to_str().unwrap());
        std::fs::write(&file, text).unwrap();
        let options = EditOptions::new(dir.path().to_path_buf());
        let (tx, _rx) = std::sync::mpsc::channel();
        let packages: [&dyn jengine::Package; 1] = [&jengine_counter::CounterPackage];
        let mut session = Session::start(&options, &packages, 1, "token", tx).unwrap();
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
