//! Bringing an edit of the scene into the running game without losing what the game did: the
//! fields an edit changed are written into the live components, every other field keeps what
//! scripts and packages set there. Only a change of the scene's shape loads it again.

use serde_json::Value;

use super::doc::{Json, SceneDoc};
use super::edits::STRUCTURAL;
use super::session::Session;

/// One component whose value differs between two versions of the scene.
struct Changed {
    index: usize,
    key: String,
    /// Its value before, `None` when the entity did not have it.
    before: Option<Json>,
}

/// What changed between `before` and `after`: the components whose values differ, or `None`
/// when the scene's shape changed (an entity added, removed or moved, a component removed,
/// a name, script or bulk mark changed), which only loading the scene again brings in.
fn changed_components(before: &SceneDoc, after: &SceneDoc) -> Option<Vec<Changed>> {
    if before.len() != after.len() {
        return None;
    }
    let mut changed = Vec::new();
    for (index, (old, new)) in before.entities().zip(after.entities()).enumerate() {
        if old == new {
            continue;
        }
        let (Json::Object(old_fields), Json::Object(new_fields)) = (old, new) else {
            return None;
        };
        // A component gone from the entity cannot be taken off the live one field by field.
        if old_fields
            .iter()
            .any(|(k, _)| !new_fields.iter().any(|(n, _)| n == k))
        {
            return None;
        }
        for (key, value) in new_fields {
            let was = old_fields.iter().find(|(k, _)| k == key).map(|(_, v)| v);
            if was == Some(value) {
                continue;
            }
            if STRUCTURAL.contains(&key.as_str()) {
                return None;
            }
            changed.push(Changed {
                index,
                key: key.clone(),
                before: was.cloned(),
            });
        }
    }
    Some(changed)
}

/// Writes into `live` the parts where `after` differs from `before`: objects field by field
/// (down through nested objects), anything else whole. What `before` and `after` agree on
/// keeps the live value.
pub(super) fn patch(live: &mut Value, before: &Value, after: &Value) {
    if before == after {
        return;
    }
    match (live, before, after) {
        (Value::Object(live), Value::Object(before), Value::Object(after)) => {
            for (k, new) in after {
                match (live.get_mut(k), before.get(k)) {
                    (Some(l), Some(old)) => patch(l, old, new),
                    _ => {
                        live.insert(k.clone(), new.clone());
                    }
                }
            }
            for k in before.keys() {
                if !after.contains_key(k) {
                    live.remove(k);
                }
            }
        }
        (live, _, after) => *live = after.clone(),
    }
}

impl Session {
    /// Puts the edited scene into the game, where `before` is the scene as the game last had
    /// it from the editor: each component whose value changed gets only its changed fields
    /// (the rest keep what the game set), when that is all that changed and the game shows
    /// this scene; otherwise (or with no `before`) the scene loads again from the edit.
    pub(super) fn show_doc(&mut self, before: Option<&SceneDoc>) {
        self.frame_dirty = true;
        self.revision += 1;
        if self.runtime.scene() != self.doc_scene {
            return;
        }
        if let Some(changes) = before.and_then(|b| changed_components(b, &self.doc)) {
            let mut all = true;
            for change in changes {
                all &= self.change_in_place(&change);
            }
            if all {
                return;
            }
        }
        self.load_doc();
    }

    /// Loads the running scene again from the editor's copy.
    pub(super) fn load_doc(&mut self) {
        let text = self.doc.text();
        let scene = self.doc_scene.clone();
        if let Err(e) = self.runtime.load_scene_text(&scene, &text) {
            self.say("error", e);
        }
        self.collect_log();
        self.settle();
    }

    /// After the scene loads again in edit mode: its first frame runs (scripts' `start` and
    /// first `update`, the packages' systems), so what they set up shows and can be kept by
    /// the edits that follow; then it holds still.
    pub(super) fn settle(&mut self) {
        if self.editing {
            self.steps = 1;
        }
    }

    /// Changes one component of a live scene entity to the edited value, field by field.
    /// `false` when it cannot be done in place (the entity is gone).
    fn change_in_place(&mut self, change: &Changed) -> bool {
        let Some(value) = self
            .doc
            .entity(change.index)
            .and_then(|e| e.get(&change.key))
            .cloned()
        else {
            return false;
        };
        let merged = self.merged(change, &value);
        let whole = value.compact();
        let tries = merged.into_iter().chain(std::iter::once(whole));
        let mut last_error = None;
        for text in tries {
            let Ok(raw) = serde_json::value::RawValue::from_string(text) else {
                continue;
            };
            match self.runtime.set_component(change.index, &change.key, &raw) {
                Ok(true) => return true,
                Ok(false) => return false,
                Err(e) => last_error = Some(e),
            }
        }
        if let Some(e) = last_error {
            self.say("warning", format!("changing {} in place: {e}", change.key));
        }
        false
    }

    /// The live component with the edit's changed fields written in, as text; `None` when
    /// there is no live value to keep (the component is new to the entity) or a value does
    /// not read back.
    fn merged(&self, change: &Changed, value: &Json) -> Option<String> {
        let before = self.full_value(&change.key, change.before.as_ref()?)?;
        let after = self.full_value(&change.key, value)?;
        let e = *self.runtime.scene_entities().get(change.index)?;
        let binding = self.runtime.registry.binding(&change.key)?;
        let mut live = binding.read(&self.runtime.world, e)?;
        patch(&mut live, &before, &after);
        Some(live.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_patch_writes_only_what_the_edit_changed() {
        let mut live = json!({ "text": "count 7", "color": [1, 1, 1, 1], "size": 0.8 });
        let before = json!({ "text": "", "color": [1, 1, 1, 1], "size": 0.8 });
        let after = json!({ "text": "", "color": [1, 0, 0, 1], "size": 0.8 });
        patch(&mut live, &before, &after);
        assert_eq!(
            live,
            json!({ "text": "count 7", "color": [1, 0, 0, 1], "size": 0.8 })
        );
    }

    #[test]
    fn a_patch_goes_down_into_nested_settings() {
        let mut live = json!({ "look": { "glow": 1, "flashes": 3 }, "on": true });
        let before = json!({ "look": { "glow": 1, "flashes": 0 }, "on": true });
        let after = json!({ "look": { "glow": 2, "flashes": 0 }, "on": true });
        patch(&mut live, &before, &after);
        assert_eq!(
            live,
            json!({ "look": { "glow": 2, "flashes": 3 }, "on": true })
        );
    }

    #[test]
    fn a_list_or_a_new_field_is_written_whole() {
        let mut live = json!({ "pos": [5, 5], "tint": null });
        let before = json!({ "pos": [0, 1], "tint": null });
        let after = json!({ "pos": [2, 1], "tint": null, "z": 3 });
        patch(&mut live, &before, &after);
        assert_eq!(live, json!({ "pos": [2, 1], "tint": null, "z": 3 }));
    }

    fn doc(text: &str) -> SceneDoc {
        SceneDoc::parse(text).unwrap()
    }

    #[test]
    fn a_change_of_shape_loads_the_scene_again() {
        let a = doc(r#"{"version":2,"entities":[{"name":"a","text":{"text":""}}]}"#);
        let value = doc(r#"{"version":2,"entities":[{"name":"a","text":{"text":"x"}}]}"#);
        let renamed = doc(r#"{"version":2,"entities":[{"name":"b","text":{"text":""}}]}"#);
        let removed = doc(r#"{"version":2,"entities":[{"name":"a"}]}"#);
        let added = doc(r#"{"version":2,"entities":[{"name":"a","text":{"text":""}},{}]}"#);
        let changed = changed_components(&a, &value).unwrap();
        assert_eq!(changed.len(), 1);
        assert_eq!((changed[0].index, changed[0].key.as_str()), (0, "text"));
        assert!(changed_components(&a, &renamed).is_none());
        assert!(changed_components(&a, &removed).is_none());
        assert!(changed_components(&a, &added).is_none());
        assert!(changed_components(&a, &a).unwrap().is_empty());
    }
}
