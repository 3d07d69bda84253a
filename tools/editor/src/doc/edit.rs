//! Editing a scene document: setting and removing components (or values inside them), and
//! inserting, deleting and duplicating entities.
//!
//! An edited entity forgets its own text, so only it is written again when the file is saved.

use super::{EntityDoc, Json, SceneDoc, Step};

impl SceneDoc {
    /// Entity `i`, to change: the document and the entity forget the text they were read from.
    pub(super) fn edited(&mut self, i: usize) -> Result<&mut Json, String> {
        let count = self.entities.len();
        self.original = None;
        let entity = self
            .entities
            .get_mut(i)
            .ok_or_else(|| format!("there is no entity {i} (the scene has {count})"))?;
        entity.raw = None;
        Ok(&mut entity.value)
    }

    /// Sets `key` (at `path` inside it) of entity `i`.
    pub fn set(&mut self, i: usize, key: &str, path: &[Step], value: Json) -> Result<(), String> {
        let entity = self.edited(i)?;
        if !matches!(entity, Json::Object(_)) {
            return Err(format!("entity {i} is {}, not an object", entity.kind()));
        }
        if path.is_empty() {
            entity.set(key, value);
            return Ok(());
        }
        let mut component = entity.get(key).cloned().unwrap_or(Json::Object(Vec::new()));
        component.set_path(path, value)?;
        entity.set(key, component);
        Ok(())
    }

    /// Removes `key` (or only `path` inside it) from entity `i`.
    pub fn remove(&mut self, i: usize, key: &str, path: &[Step]) -> Result<(), String> {
        let entity = self.edited(i)?;
        if path.is_empty() {
            if entity.remove(key) {
                return Ok(());
            }
            return Err(format!("entity {i} has no {key:?}"));
        }
        let mut component = entity
            .get(key)
            .cloned()
            .ok_or_else(|| format!("entity {i} has no {key:?}"))?;
        component.remove_path(path)?;
        entity.set(key, component);
        Ok(())
    }

    /// Puts `value` in as entity `at` (the end when past it); where it went.
    pub fn insert(&mut self, at: usize, value: Json) -> usize {
        let at = at.min(self.entities.len());
        self.original = None;
        self.entities.insert(
            at,
            EntityDoc {
                value,
                raw: None,
                multiline: None,
                gap: None,
                trail: None,
            },
        );
        at
    }

    /// Removes entity `i`.
    pub fn delete(&mut self, i: usize) -> Result<Json, String> {
        if i >= self.entities.len() {
            return Err(format!(
                "there is no entity {i} (the scene has {})",
                self.entities.len()
            ));
        }
        self.original = None;
        Ok(self.entities.remove(i).value)
    }

    /// Copies entity `i` in after itself under a name no other entity has; where it went.
    pub fn duplicate(&mut self, i: usize) -> Result<usize, String> {
        let mut copy = self
            .entity(i)
            .cloned()
            .ok_or_else(|| format!("there is no entity {i}"))?;
        if let Some(Json::String(name)) = copy.get("name") {
            let name = self.free_name(name);
            copy.set("name", Json::String(name));
        }
        // Laid out as the one it copies.
        let multiline = self.entities[i].multiline;
        let at = self.insert(i + 1, copy);
        self.entities[at].multiline = multiline;
        Ok(at)
    }

    /// `base`, or `base 2`, `base 3`... whichever no entity is named yet.
    pub fn free_name(&self, base: &str) -> String {
        let taken = |n: &str| {
            self.entities()
                .any(|e| matches!(e.get("name"), Some(Json::String(s)) if s == n))
        };
        // A name ending in a number counts on from it.
        let stem = match base.rsplit_once(' ') {
            Some((stem, n)) if n.parse::<u32>().is_ok() => stem,
            _ => base,
        };
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|n| format!("{stem} {n}"))
            .find(|n| !taken(n))
            .expect("some number is free")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::FILE;

    #[test]
    fn a_missing_field_is_added_at_the_end_and_a_path_makes_its_objects() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        doc.set(
            0,
            "transform",
            &[Step::Key("pos".into())],
            Json::parse("[1, 2]").unwrap(),
        )
        .unwrap();
        assert_eq!(
            doc.entity(0).unwrap().compact(),
            r##"{ "name": "camera", "camera": { "center": [0, 0], "size": [16, 9], "clear": "#203040" }, "transform": { "pos": [1, 2] } }"##
        );
        doc.set(
            1,
            "sprite",
            &[Step::Key("size".into()), Step::Index(0)],
            Json::Number(5.into()),
        )
        .unwrap();
        assert_eq!(
            doc.entity(1).unwrap().get("sprite").unwrap().compact(),
            r##"{ "size": [5, 2], "tint": "#e0a030" }"##
        );
        assert!(
            doc.set(
                1,
                "sprite",
                &[Step::Key("size".into()), Step::Index(7)],
                Json::Null
            )
            .is_err()
        );
    }

    #[test]
    fn duplicates_get_free_names_and_deletes_and_removes_work() {
        let mut doc = SceneDoc::parse(FILE).unwrap();
        let at = doc.duplicate(1).unwrap();
        assert_eq!(at, 2);
        assert_eq!(
            doc.entity(2).unwrap().get("name"),
            Some(&Json::String("box 2".into()))
        );
        let again = doc.duplicate(2).unwrap();
        assert_eq!(
            doc.entity(again).unwrap().get("name"),
            Some(&Json::String("box 3".into()))
        );
        doc.delete(0).unwrap();
        assert_eq!(doc.len(), 4);
        doc.remove(0, "sprite", &[Step::Key("tint".into())])
            .unwrap();
        assert_eq!(
            doc.entity(0).unwrap().get("sprite").unwrap().compact(),
            r#"{ "size": [2, 2] }"#
        );
        doc.remove(0, "sprite", &[]).unwrap();
        assert!(doc.entity(0).unwrap().get("sprite").is_none());
        assert!(doc.remove(0, "sprite", &[]).is_err());
        assert!(doc.delete(10).is_err());
    }
}
