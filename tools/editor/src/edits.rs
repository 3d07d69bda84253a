//! Edits: each checked for what the page may send (entity indices that exist, names by the
//! loader's rule, numbers in range), applied to a copy of the scene, checked by the scene
//! loader, and only then kept (with its undo step) and shown in the running game; save, undo,
//! redo and revert.

use serde::Deserialize;
use serde_json::json;

use super::doc::{Json, SceneDoc, Step};
use super::http::Response;
use super::session::{Selected, Session, ok, read_scene};
use jengine_render::screen_to_world;

/// A drag of an entity in the view, from where the pointer went down to where it is now
/// (frame pixels); `done` when the pointer comes up.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Drag {
    entity: usize,
    from: [f32; 2],
    to: [f32; 2],
    #[serde(default)]
    done: bool,
}

/// A drag under way: the scene before it (one undo step for the whole drag) and where the
/// entity stood.
#[derive(Debug, Clone)]
pub(super) struct Dragging {
    entity: usize,
    before: SceneDoc,
    base: [f64; 2],
}

/// How far outside the frame a pointer's point may be, in frame pixels.
pub(super) const MAX_PIXEL: f32 = 1e6;

/// A position as a scene file is pleased to hold it: to the thousandth.
fn tidy(v: f64) -> Json {
    let v = (v * 1000.0).round() / 1000.0;
    if v.fract() == 0.0 && v.abs() < 1e15 {
        Json::Number((v as i64).into())
    } else {
        serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number)
    }
}

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

/// The longest entity name, in characters: the scene loader's cap.
pub const NAME_CHARS: usize = jengine::host::MAX_NAME;

/// Whether `name` may name an entity: not blank (a name nobody could pick out in the tree), and
/// within the scene loader's rule ([`jengine::host::check_name`]: at most [`NAME_CHARS`]
/// characters, no control or bidirectional characters), so the editor refuses exactly what the
/// runtime and `check` refuse.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a name cannot be empty".into());
    }
    jengine::host::check_name(name).map_err(|e| format!("the name is refused: {e}"))
}

/// How far from the origin a position, size or angle in `transform` or `camera` may be: past
/// this a 32-bit float has no unit left between neighbours, and a view of it is meaningless.
pub(super) const MAX_COORDINATE: f64 = 1e9;
/// The largest number any value may hold: past 2^53 the page (and any JSON reader using
/// doubles) no longer holds every integer exactly.
pub(super) const MAX_NUMBER: f64 = 9_007_199_254_740_992.0;

/// Checks every number in `value`, the value (at `path`) of component `key`: within
/// [`MAX_COORDINATE`] in `transform` and `camera`, within [`MAX_NUMBER`] anywhere.
pub(super) fn check_numbers(key: &str, path: &[Step], value: &Json) -> Result<(), String> {
    let mut at = key.to_string();
    for step in path {
        match step {
            Step::Key(k) => at.push_str(&format!(".{k}")),
            Step::Index(i) => at.push_str(&format!("[{i}]")),
        }
    }
    let bound = if ["transform", "camera"].contains(&key) {
        MAX_COORDINATE
    } else {
        MAX_NUMBER
    };
    walk_numbers(value, &mut at, bound)
}

fn walk_numbers(value: &Json, at: &mut String, bound: f64) -> Result<(), String> {
    match value {
        Json::Number(n) => {
            let v = n.as_f64().unwrap_or(f64::INFINITY);
            if !v.is_finite() || v.abs() > bound {
                return Err(format!(
                    "{at} is {n}: numbers here stay within \u{b1}{bound:e}"
                ));
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                walk_numbers(item, at, bound)?;
                at.truncate(len);
            }
        }
        Json::Object(fields) => {
            for (k, v) in fields {
                let len = at.len();
                at.push_str(&format!(".{k}"));
                walk_numbers(v, at, bound)?;
                at.truncate(len);
            }
        }
        Json::Null | Json::Bool(_) | Json::String(_) => {}
    }
    Ok(())
}

impl Edit {
    /// Refuses, before anything changes, an edit whose entity index is not in a scene of
    /// `len` entities or whose numbers are out of range.
    fn check(&self, len: usize) -> Result<(), String> {
        let exists = |i: usize| {
            if i < len {
                Ok(())
            } else {
                Err(format!("there is no entity {i} (the scene has {len})"))
            }
        };
        match self {
            Edit::Set {
                entity,
                key,
                path,
                value,
            } => {
                exists(*entity)?;
                check_numbers(key, path, value)
            }
            Edit::Remove { entity, .. }
            | Edit::Duplicate { entity }
            | Edit::Delete { entity }
            | Edit::Rename { entity, .. } => exists(*entity),
            Edit::AddEntity { at, value } => {
                if let Some(at) = at
                    && *at > len
                {
                    return Err(format!(
                        "an entity can go in at 0 to {len} (the scene has {len}), not {at}"
                    ));
                }
                if let Some(Json::Object(fields)) = value {
                    for (key, v) in fields {
                        check_numbers(key, &[], v)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl Session {
    /// Applies an edit to a copy of the scene, checks the copy as the runtime loads scenes,
    /// and only then keeps it and shows it in the game.
    pub(super) fn edit(&mut self, edit: Edit) -> Result<Response, Response> {
        edit.check(self.doc.len())
            .map_err(|e| Response::error(400, e))?;
        let mut candidate = self.doc.clone();
        let refuse = |message: String| {
            Response::json(
                422,
                json!({ "error": message, "errors": [{ "message": message }] }).to_string(),
            )
        };
        let mut focus = None;
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
            }
            Edit::Remove { entity, key, path } => {
                candidate.remove(*entity, key, path).map_err(refuse)?;
                focus = Some(*entity);
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
                check_name(name).map_err(|e| Response::error(400, e))?;
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
        // The name the edit gave (or made, for a copy), by the loader's rule for names.
        if let Some(i) = focus
            && let Some(Json::String(name)) = candidate.entity(i).and_then(|e| e.get("name"))
        {
            check_name(name).map_err(|e| Response::error(400, format!("entity {i}: {e}")))?;
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
        let before = std::mem::replace(&mut self.doc, candidate);
        self.record(&before);
        self.show_doc(Some(&before));
        if matches!(edit, Edit::Delete { .. }) {
            self.selected = None;
        } else if let Some(i) = focus {
            self.selected = Some(Selected::Scene(i));
        }
        Ok(ok(
            json!({ "ok": true, "dirty": self.dirty(), "focus": focus }),
        ))
    }

    /// Moves an entity by a drag in the view: its `transform.pos` follows the pointer in world
    /// units, checked and shown in place as any edit; the whole drag is one undo step.
    pub(super) fn drag(&mut self, drag: Drag) -> Result<Response, Response> {
        let finite = drag.from.iter().chain(&drag.to).all(|v| v.is_finite());
        if !finite {
            return Err(Response::error(400, "a drag's points are numbers"));
        }
        if drag
            .from
            .iter()
            .chain(&drag.to)
            .any(|v| v.abs() > MAX_PIXEL)
        {
            return Err(Response::error(
                400,
                format!("a drag's points are frame pixels, within \u{b1}{MAX_PIXEL}"),
            ));
        }
        let start = match &self.dragging {
            Some(d) if d.entity == drag.entity => d.clone(),
            _ => {
                let entity = self.doc.entity(drag.entity).ok_or_else(|| {
                    Response::error(404, format!("the scene has no entity {}", drag.entity))
                })?;
                let pos = entity
                    .get("transform")
                    .and_then(|t| t.get("pos"))
                    .map(Json::to_value)
                    .and_then(|v| serde_json::from_value::<[f64; 2]>(v).ok())
                    .unwrap_or([0.0, 0.0]);
                let started = Dragging {
                    entity: drag.entity,
                    before: self.doc.clone(),
                    base: pos,
                };
                self.dragging = Some(started.clone());
                started
            }
        };
        let (w, h) = self.size;
        let world = &self.runtime.world;
        let [fx, fy] = screen_to_world(world, w, h, drag.from[0], drag.from[1]);
        let [tx, ty] = screen_to_world(world, w, h, drag.to[0], drag.to[1]);
        let pos = Json::Array(vec![
            tidy(start.base[0] + f64::from(tx - fx)),
            tidy(start.base[1] + f64::from(ty - fy)),
        ]);
        let mut candidate = start.before.clone();
        let path = [Step::Key("pos".into())];
        let checked = check_numbers("transform", &path, &pos)
            .map_err(|e| Response::error(400, e))
            .and_then(|()| {
                candidate
                    .set(drag.entity, "transform", &path, pos)
                    .map_err(|e| Response::error(422, e))
            })
            .and_then(|()| {
                self.runtime
                    .check_scene_text(&self.doc_scene, &candidate.text())
                    .map_err(|errors| {
                        let first = errors.first().map(|e| e.to_string()).unwrap_or_default();
                        Response::error(422, first)
                    })
            });
        if let Err(refusal) = checked {
            self.dragging = None;
            return Err(refusal);
        }
        let before = std::mem::replace(&mut self.doc, candidate);
        self.show_doc(Some(&before));
        self.selected = Some(Selected::Scene(drag.entity));
        if drag.done {
            self.end_drag();
        }
        Ok(ok(json!({ "ok": true, "dirty": self.dirty() })))
    }

    /// Ends a drag under way (the pointer came up, or the page did something else): what it
    /// moved becomes one undo step.
    pub(super) fn end_drag(&mut self) {
        let Some(drag) = self.dragging.take() else {
            return;
        };
        if self.doc != drag.before {
            self.record(&drag.before);
        }
    }

    /// Keeps the step from `before` to the scene as it is now in the history, and says so
    /// when the history had to drop its oldest steps to stay within its budget.
    pub(super) fn record(&mut self, before: &SceneDoc) {
        self.history.record(&self.doc, before);
        if self.history.take_trimmed() {
            self.say(
                "info",
                format!(
                    "the undo history keeps about {} MB; its oldest steps were dropped",
                    super::history::UNDO_BUDGET >> 20
                ),
            );
        }
    }

    pub(super) fn undo_redo(&mut self, undo: bool) -> Response {
        let before = self.doc.clone();
        let stepped = if undo {
            self.history.undo(&mut self.doc)
        } else {
            self.history.redo(&mut self.doc)
        };
        if !stepped {
            return Response::error(
                409,
                if undo {
                    "nothing to undo"
                } else {
                    "nothing to redo"
                },
            );
        };
        if let Some(Selected::Scene(i)) = self.selected
            && i >= self.doc.len()
        {
            self.selected = None;
        }
        self.show_doc(Some(&before));
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
        let before = std::mem::replace(&mut self.doc, doc);
        self.record(&before);
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
