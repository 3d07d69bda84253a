//! Scenes: `assets/scenes/<name>.scene`, JSON lists of entities and their components.
//!
//! A scene is parsed and checked whole before anything is spawned, so a bad scene changes
//! nothing. Version 2 resolves package keys through the registry and fails on a key no
//! listed package registers; version 1 predates package components and keeps such keys as
//! inert [`CustomData`], saying so once per key.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::components::{CustomData, Script};
use crate::convert::without_fragment_position;
use crate::registry::{CORE, Registry};
use crate::world::{Entity, World};

/// A problem in a scene, with the entity and key where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SceneError {
    /// The scene file as the project names it (`assets/scenes/main.scene`).
    pub file: String,
    /// 0-based entity index and its name, when the problem is inside an entity.
    pub entity: Option<(usize, Option<String>)>,
    /// The key, when the problem is in one component.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        match &self.entity {
            Some((i, Some(name))) => write!(f, ": entity {i} ({name:?})")?,
            Some((i, None)) => write!(f, ": entity {i}")?,
            None => {}
        }
        if let Some(key) = &self.key {
            write!(f, ", key {key:?}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SceneError {}

#[derive(Deserialize)]
struct RawScene<'a> {
    version: Option<&'a RawValue>,
    #[serde(borrow, default)]
    entities: Vec<Fields<'a>>,
}

/// One entity's keys and raw values, in file order, keys borrowed from the text when they
/// hold no escapes: the hot path of a large scene allocates nothing per key.
struct Fields<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Fields<'a> {
    fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Key<'a>(Cow<'a, str>);
        impl<'de> Deserialize<'de> for Key<'de> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = Key<'de>;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a component key")
                    }
                    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                        Ok(Key(Cow::Borrowed(v)))
                    }
                    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                        Ok(Key(Cow::Owned(v.to_string())))
                    }
                }
                d.deserialize_str(V)
            }
        }
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Fields<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an entity: an object of components")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Fields<'a>, M::Error> {
                let mut fields: Vec<(Cow<'a, str>, &'a RawValue)> =
                    Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    let value: &'de RawValue = map.next_value()?;
                    if fields.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!(
                            "key {key:?} appears twice in one entity"
                        )));
                    }
                    fields.push((key, value));
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// What a scene uses, read without checking a single component: every key and every script.
/// For tools that must look at scenes they cannot (or need not) load: `check` after a scene
/// failed, `docs` in a build that does not link every package the project lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Every key any entity uses, core and package.
    pub keys: BTreeSet<String>,
    /// Every `script` named, in file order, each once.
    pub scripts: Vec<String>,
}

impl Outline {
    /// The outline of a scene's text, or `None` if it is not a scene's JSON at all.
    pub fn read(text: &str) -> Option<Outline> {
        let raw: RawScene = serde_json::from_str(text).ok()?;
        let mut outline = Outline::default();
        for fields in &raw.entities {
            for (key, value) in &fields.0 {
                if !outline.keys.contains(key.as_ref()) {
                    outline.keys.insert(key.to_string());
                }
                if key == "script"
                    && let Ok(path) = serde_json::from_str::<String>(value.get())
                    && !outline.scripts.contains(&path)
                {
                    outline.scripts.push(path);
                }
            }
        }
        Some(outline)
    }
}

/// A checked scene, ready to spawn.
pub struct Scene {
    /// The file it came from.
    pub file: String,
    /// 1 or 2.
    pub version: u32,
    /// One builder per entity, in file order.
    builders: Vec<hecs::EntityBuilder>,
    /// Scripts named by entities, in file order (for checking).
    pub scripts: Vec<String>,
    /// Things said about the scene that are not errors (v1 custom data).
    pub notices: Vec<String>,
}

impl Scene {
    /// Parses `text` as the scene `file`, checking every entity against the registry.
    /// Returns every problem found, not just the first.
    pub fn parse(file: &str, text: &str, registry: &Registry) -> Result<Scene, Vec<SceneError>> {
        let top = |message: String| {
            vec![SceneError {
                file: file.to_string(),
                entity: None,
                key: None,
                message,
            }]
        };
        let raw: RawScene =
            serde_json::from_str(text).map_err(|e| top(format!("not a valid scene: {e}")))?;
        let version = match raw.version.map(|v| v.get().trim()) {
            Some("1") => 1,
            Some("2") => 2,
            Some(other) => {
                return Err(top(format!(
                    "unknown scene version {other} (this host reads versions 1 and 2)"
                )));
            }
            None => return Err(top("missing \"version\" (1 or 2)".into())),
        };
        let mut scene = Scene {
            file: file.to_string(),
            version,
            builders: Vec::with_capacity(raw.entities.len()),
            scripts: Vec::new(),
            notices: Vec::new(),
        };
        let mut errors = Vec::new();
        let mut noticed = BTreeSet::new();
        for (index, fields) in raw.entities.iter().enumerate() {
            let name = fields
                .get("name")
                .and_then(|v| serde_json::from_str::<String>(v.get()).ok());
            let mut builder = hecs::EntityBuilder::new();
            let mut custom = serde_json::Map::new();
            for (key, value) in &fields.0 {
                let fail = |message: String| SceneError {
                    file: file.to_string(),
                    entity: Some((index, name.clone())),
                    key: Some(key.to_string()),
                    message,
                };
                let binding = registry.binding(key);
                let result = match binding {
                    // Core keys in any version; package keys only in version 2.
                    Some(b) if b.package() == CORE || version == 2 => b
                        .spawn(&mut builder, value)
                        .map_err(without_fragment_position),
                    _ if version == 1 => {
                        if noticed.insert(key.to_string()) {
                            let owner = binding
                                .map(|b| format!(" (a component of {})", b.package()))
                                .unwrap_or_default();
                            scene.notices.push(format!(
                                "{file}: key {key:?}{owner} is kept as inert custom data: a version 1 scene has no package components; make it \"version\": 2 to use it"
                            ));
                        }
                        match serde_json::from_str(value.get()) {
                            Ok(v) => {
                                custom.insert(key.to_string(), v);
                                Ok(())
                            }
                            Err(e) => Err(e.to_string()),
                        }
                    }
                    _ => {
                        let listed = if registry.packages().is_empty() {
                            "none".to_string()
                        } else {
                            registry.packages().join(", ")
                        };
                        Err(format!(
                            "no listed package registers this key (listed packages: {listed})"
                        ))
                    }
                };
                if let Err(message) = result {
                    errors.push(fail(message));
                }
            }
            if !custom.is_empty() {
                builder.add(CustomData(custom));
            }
            if let Some(script) = builder.get::<&Script>() {
                scene.scripts.push(script.0.clone());
            }
            scene.builders.push(builder);
        }
        if errors.is_empty() {
            Ok(scene)
        } else {
            Err(errors)
        }
    }

    /// How many entities the scene spawns.
    pub fn len(&self) -> usize {
        self.builders.len()
    }

    /// Whether the scene is empty.
    pub fn is_empty(&self) -> bool {
        self.builders.is_empty()
    }

    /// Spawns every entity, in file order.
    pub fn spawn(mut self, world: &mut World) -> Vec<Entity> {
        self.builders
            .iter_mut()
            .map(|b| world.spawn_built(b))
            .collect()
    }
}

impl fmt::Debug for Scene {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scene")
            .field("file", &self.file)
            .field("version", &self.version)
            .field("entities", &self.builders.len())
            .field("scripts", &self.scripts)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Counter, CounterPackage};
    use crate::{BulkEntity, Transform2D};
    use proptest::prelude::*;

    fn reg() -> Registry {
        Registry::with(&[&CounterPackage])
    }

    #[test]
    fn a_v2_scene_spawns_core_and_package_components() {
        let text = r##"{"version": 2, "entities": [
            {"name": "box", "transform": {"pos": [1, 2]}, "counter": {"start": 3}, "script": "box.lua"},
            {"name": "tile", "bulk": true, "sprite": {"texture": "t.png", "tint": "#ff000080"}}
        ]}"##;
        let scene = Scene::parse("assets/scenes/main.scene", text, &reg()).unwrap();
        assert_eq!(scene.scripts, vec!["box.lua"]);
        let mut world = World::new();
        let spawned = scene.spawn(&mut world);
        assert_eq!(spawned.len(), 2);
        assert_eq!(world.entities.get::<&Counter>(spawned[0]).unwrap().start, 3);
        assert_eq!(
            world.entities.get::<&Transform2D>(spawned[0]).unwrap().pos,
            [1.0, 2.0]
        );
        assert!(world.entities.get::<&BulkEntity>(spawned[1]).is_ok());
        assert_eq!(world.find("box"), Some(spawned[0]));
    }

    #[test]
    fn a_v1_scene_keeps_package_keys_as_custom_data_and_says_so_once() {
        let text = r#"{"version": 1, "entities": [
            {"name": "a", "counter": {"start": 3}},
            {"name": "b", "counter": {"start": 4}}
        ]}"#;
        let scene = Scene::parse("assets/scenes/old.scene", text, &reg()).unwrap();
        assert_eq!(scene.notices.len(), 1);
        assert!(
            scene.notices[0].contains(
                "key \"counter\" (a component of jengine-counter) is kept as inert custom data"
            ),
            "{}",
            scene.notices[0]
        );
        let mut world = World::new();
        let spawned = scene.spawn(&mut world);
        assert!(world.entities.get::<&Counter>(spawned[0]).is_err());
        let custom = world.entities.get::<&CustomData>(spawned[1]).unwrap();
        assert_eq!(custom.0["counter"]["start"], 4);
    }

    #[test]
    fn a_v2_scene_with_an_unregistered_key_names_key_file_and_listed_packages() {
        let text = r#"{"version": 2, "entities": [{"name": "board", "kotoba_table": {}}]}"#;
        let errors = Scene::parse("assets/scenes/puzzle.scene", text, &reg()).unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "assets/scenes/puzzle.scene: entity 0 (\"board\"), key \"kotoba_table\": no listed package registers this key (listed packages: jengine-counter)"
        );
    }

    #[test]
    fn every_problem_is_reported_and_nothing_spawns() {
        let text = r#"{"version": 2, "entities": [
            {"transform": {"pos": [1, "x"]}},
            {"name": "c", "counter": {"start": "many"}},
            {"script": "notes.txt"}
        ]}"#;
        let errors = Scene::parse("s.scene", text, &reg()).unwrap_err();
        let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(all.len(), 3, "{all:?}");
        assert!(
            all[0].starts_with("s.scene: entity 0, key \"transform\": pos[1]: invalid type"),
            "{}",
            all[0]
        );
        assert!(
            all[1].contains("entity 1 (\"c\"), key \"counter\""),
            "{}",
            all[1]
        );
        assert!(all[2].contains("a script is a .lua file"), "{}", all[2]);
    }

    #[test]
    fn an_outline_reads_keys_and_scripts_of_a_scene_that_does_not_load() {
        let text = r#"{"version": 9, "entities": [
            {"name": "a", "kotoba_table": {}, "script": "a.lua"},
            {"transform": "broken", "script": "a.lua"},
            {"script": "b.lua"}
        ]}"#;
        assert!(Scene::parse("s.scene", text, &reg()).is_err());
        let outline = Outline::read(text).unwrap();
        assert_eq!(outline.scripts, vec!["a.lua", "b.lua"]);
        let keys: Vec<&str> = outline.keys.iter().map(String::as_str).collect();
        assert_eq!(keys, ["kotoba_table", "name", "script", "transform"]);
        assert!(Outline::read("[1, 2]").is_none());
    }

    #[test]
    fn versions_and_malformed_json_are_refused_with_a_place() {
        let r = reg();
        let err = Scene::parse("s.scene", r#"{"version": 3, "entities": []}"#, &r).unwrap_err();
        assert!(err[0].message.contains("unknown scene version 3"));
        let err = Scene::parse("s.scene", r#"{"entities": []}"#, &r).unwrap_err();
        assert!(err[0].message.contains("missing \"version\""));
        let err = Scene::parse("s.scene", "{\"version\": 2,\n \"entities\": [", &r).unwrap_err();
        assert!(err[0].message.contains("line 2"), "{}", err[0]);
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic_the_scene_parser(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = Scene::parse("s.scene", &String::from_utf8_lossy(&bytes), &reg());
        }

        #[test]
        fn random_entities_never_panic_the_scene_parser(
            version in 0u32..4,
            entities in proptest::collection::vec(
                proptest::collection::btree_map(
                    proptest::sample::select(vec!["name", "transform", "sprite", "text", "mesh", "camera", "script", "bulk", "counter", "other"]),
                    crate::testing::json_value(), 0..4),
                0..4)
        ) {
            let text = serde_json::json!({"version": version, "entities": entities}).to_string();
            if let Ok(scene) = Scene::parse("s.scene", &text, &reg()) {
                let mut world = World::new();
                prop_assert_eq!(scene.spawn(&mut world).len(), entities.len());
            }
        }
    }
}
