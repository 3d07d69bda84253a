//! Hot reload: a thread looks at the project's files (and whether the viewport build is stale)
//! twice a second, and the session reads again whatever changed: the scene, scripts, tables,
//! textures, fonts and sounds, without restarting anything.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, SystemTime};

use super::doc::SceneDoc;
use super::session::Session;
use super::{EditOptions, Msg};
use jengine_render::Renderer;

impl Session {
    /// Files changed on disk: the scene, scripts, tables, textures and fonts the game uses
    /// are read again without restarting the editor.
    pub(super) fn changed(&mut self, paths: Vec<PathBuf>) {
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
            self.say("info", "project.jengine changed; a change of packages or window size takes effect on Rebuild");
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
                        self.end_drag();
                        let before = std::mem::replace(&mut self.doc, doc);
                        if self.stand_in.take().is_some() {
                            self.history.clear();
                        } else {
                            self.record(&before);
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
            self.settle();
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
                    let reason = match jengine_viewport::stale(&project, profile) {
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
