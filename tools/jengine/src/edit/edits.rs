//! Edits: each applied to a copy of the scene, checked by the scene loader, and only then
//! kept (with its undo step) and shown in the running game; save, undo, redo and revert.

use serde::Deserialize;
use serde_json::json;

use super::doc::{Json, Step};
use super::http::Response;
use super::session::{Selected, Session, UNDO_KEPT, ok, read_scene};

/// An edit the page asks for.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum Edit {
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
pub(super) const STRUCTURAL: [&str; 3] = ["name", "script", "bulk"];

impl Session {
    /// Applies an edit to a copy of the scene, checks the copy as the runtime loads scenes,
    /// and only then keeps it and shows it in the game.
    pub(super) fn edit(&mut self, edit: Edit) -> Result<Response, Response> {
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
    pub(super) fn show_doc(&mut self, in_place: Option<(usize, String)>) {
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

    pub(super) fn undo_redo(&mut self, undo: bool) -> Response {
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

    pub(super) fn save(&mut self) -> Result<Response, Response> {
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

    pub(super) fn revert(&mut self) -> Result<Response, Response> {
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
}
