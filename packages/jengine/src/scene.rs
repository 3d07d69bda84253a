//! Scenes: `assets/scenes/<name>.scene`, JSON lists of entities and their components.
//!
//! A scene is parsed and checked whole before anything is spawned, so a bad scene changes
//! nothing. Each entity is read on its own (an object's members, borrowed from the text), so
//! an entity that is not an object or repeats a key is reported beside every other problem.
//! Version 2 resolves package keys through the registry and fails on a key no listed package
//! registers; version 1 predates package components and keeps such keys as inert
//! [`CustomData`], saying so once per key. Every file name is checked by [`check_asset_name`].

use std::collections::BTreeSet;
use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::components::{CustomData, Script};
use crate::convert::without_fragment_position;
use crate::registry::{CORE, Registry};
use crate::table::{Members, did_you_mean};
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
    /// Each entity read on its own: one that is not an object, or repeats a key, is an
    /// error for that entity while the rest are still checked.
    #[serde(borrow, default)]
    entities: Vec<Members<'a, &'a RawValue>>,
}

/// What kind of file an [`AssetUse`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AssetKind {
    /// A PNG under `assets/textures/`.
    Texture,
    /// A TTF/OTF font under `assets/fonts/`.
    Font,
}

/// One file a scene names for drawing, with the entity and key that name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetUse {
    /// 0-based entity index.
    pub entity: usize,
    /// The entity's `name`, if it has one.
    pub entity_name: Option<String>,
    /// The scene key holding the name (`sprite`, `text`, `mesh`, `sprite_library`).
    pub key: &'static str,
    /// Texture or font.
    pub kind: AssetKind,
    /// The name as written, relative to its folder.
    pub name: String,
}

/// What a scene uses, read without checking a single component: every key, every script
/// and every texture and font. For tools that must look at scenes they cannot (or need not)
/// load: `check` after a scene failed, `docs` in a build that does not link every package
/// the project lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Every key any entity uses, core and package.
    pub keys: BTreeSet<String>,
    /// Every `script` named, in file order, each once.
    pub scripts: Vec<String>,
    /// Every non-empty texture and font name, in file order, each use listed.
    pub assets: Vec<AssetUse>,
}

impl Outline {
    /// The outline of a scene's text, or `None` if it is not a scene's JSON at all. Entities
    /// that are not objects are passed over; values of the wrong shape name nothing.
    pub fn read(text: &str) -> Option<Outline> {
        #[derive(Deserialize)]
        struct Textured {
            #[serde(default)]
            texture: serde_json::Value,
        }
        #[derive(Deserialize)]
        struct Lettered {
            #[serde(default)]
            font: serde_json::Value,
        }
        #[derive(Deserialize)]
        struct Library {
            #[serde(default)]
            textures: Vec<serde_json::Value>,
        }
        let raw: RawScene = serde_json::from_str(text).ok()?;
        let mut outline = Outline::default();
        for (index, item) in raw.entities.iter().enumerate() {
            let Members::Object { fields, .. } = item else {
                continue;
            };
            let entity_name = entity_name(item);
            let mut named = |key: &'static str, kind: AssetKind, value: &serde_json::Value| {
                if let serde_json::Value::String(name) = value
                    && !name.is_empty()
                {
                    outline.assets.push(AssetUse {
                        entity: index,
                        entity_name: entity_name.clone(),
                        key,
                        kind,
                        name: name.clone(),
                    });
                }
            };
            for (key, value) in fields {
                let text = value.get();
                match key.as_ref() {
                    "sprite" | "mesh" => {
                        if let Ok(t) = serde_json::from_str::<Textured>(text) {
                            let key = if key == "sprite" { "sprite" } else { "mesh" };
                            named(key, AssetKind::Texture, &t.texture);
                        }
                    }
                    "text" => {
                        if let Ok(t) = serde_json::from_str::<Lettered>(text) {
                            named("text", AssetKind::Font, &t.font);
                        }
                    }
                    "sprite_library" => {
                        if let Ok(l) = serde_json::from_str::<Library>(text) {
                            for t in &l.textures {
                                named("sprite_library", AssetKind::Texture, t);
                            }
                        }
                    }
                    _ => {}
                }
            }
            for (key, value) in fields {
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

/// An entity's `name`, when it is an object with a string name.
fn entity_name(item: &Members<'_, &RawValue>) -> Option<String> {
    item.get("name")
        .and_then(|v| serde_json::from_str::<String>(v.get()).ok())
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
        for (index, item) in raw.entities.iter().enumerate() {
            let (fields, repeated) = match item {
                Members::Object { fields, repeated } => (fields, repeated),
                Members::Other(kind) => {
                    errors.push(SceneError {
                        file: file.to_string(),
                        entity: Some((index, None)),
                        key: None,
                        message: format!("an entity is an object of components, got {kind}"),
                    });
                    continue;
                }
            };
            let name = entity_name(item);
            for key in repeated {
                errors.push(SceneError {
                    file: file.to_string(),
                    entity: Some((index, name.clone())),
                    key: Some(key.to_string()),
                    message: "appears twice in this entity; a key may appear once per entity"
                        .into(),
                });
            }
            let mut builder = hecs::EntityBuilder::new();
            let mut custom = serde_json::Map::new();
            for (key, value) in fields {
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
                            let about = binding
                                .map(|b| format!(" (a component of {})", b.package()))
                                .unwrap_or_default();
                            // A near miss of a core key is a typo, not legacy data.
                            let hint = match binding {
                                Some(_) => String::new(),
                                None => did_you_mean(
                                    key,
                                    registry
                                        .components()
                                        .filter(|c| c.package() == CORE)
                                        .map(|c| c.key()),
                                ),
                            };
                            scene.notices.push(format!(
                                "{file}: key {key:?}{about} is kept as inert custom data: a version 1 scene has no package components; make it \"version\": 2 to use it{hint}"
                            ));
                        }
                        match serde_json::from_str(value.get()) {
                            Ok(v) => {
                                custom.insert(key.to_string(), v);
                                Ok(())
                            }
                            Err(e) => Err(without_fragment_position(e.to_string())),
                        }
                    }
                    _ => {
                        let listed = if registry.packages().is_empty() {
                            "none".to_string()
                        } else {
                            registry.packages().join(", ")
                        };
                        Err(format!(
                            "no listed package registers this key (listed packages: {listed}){}",
                            did_you_mean(key, registry.components().map(|c| c.key()))
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

    /// Checks every entity against the project's tables, for components that name tables
    /// ([`Registry::component_tables`]): every problem, with the entity and key.
    pub fn check_tables(&self, registry: &Registry, tables: &crate::Tables) -> Vec<SceneError> {
        let mut errors = Vec::new();
        for (index, builder) in self.builders.iter().enumerate() {
            let name = builder.get::<&crate::Name>().map(|n| n.0.clone());
            for binding in registry.components() {
                for message in binding.check_tables(builder, tables) {
                    errors.push(SceneError {
                        file: self.file.clone(),
                        entity: Some((index, name.clone())),
                        key: Some(binding.key().to_string()),
                        message,
                    });
                }
            }
        }
        errors
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
    fn a_structural_error_in_one_entity_hides_no_other_problem() {
        let text = r#"{"version": 2, "entities": [
            7,
            {"name": "a", "transform": {"pos": [0, "x"]}, "name": "b", "sprite": {}, "sprite": 1},
            {"counter": {"start": "many"}},
            "box",
            {"name": "fine", "counter": {"start": 1}}
        ]}"#;
        let errors = Scene::parse("s.scene", text, &reg()).unwrap_err();
        let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            all,
            [
                "s.scene: entity 0: an entity is an object of components, got a number",
                "s.scene: entity 1 (\"a\"), key \"name\": appears twice in this entity; a key may appear once per entity",
                "s.scene: entity 1 (\"a\"), key \"sprite\": appears twice in this entity; a key may appear once per entity",
                "s.scene: entity 1 (\"a\"), key \"transform\": pos[1]: invalid type: string \"x\", expected f32",
                "s.scene: entity 2, key \"counter\": start: invalid type: string \"many\", expected i64",
                "s.scene: entity 3: an entity is an object of components, got a string",
            ]
        );
    }

    #[test]
    fn a_package_component_error_names_the_field_path() {
        let text = r#"{"version": 2, "entities": [{"counter": {"start": [1]}}, {"counter": {"strat": 1}}]}"#;
        let errors = Scene::parse("s.scene", text, &reg()).unwrap_err();
        assert_eq!(errors[0].key.as_deref(), Some("counter"));
        assert_eq!(
            errors[0].message,
            "start: invalid type: sequence, expected i64"
        );
        assert_eq!(
            errors[1].message,
            "strat: unknown field `strat`, expected `start`"
        );
    }

    #[test]
    fn hostile_asset_names_are_refused_in_every_field_that_names_a_file() {
        let hostile = [
            "../../etc/passwd",
            "/etc/passwd",
            "a/../../b",
            "C:\\x",
            "a\\..\\b",
            "x\0.png",
            "a\\b.png",
        ];
        for name in hostile {
            let json = serde_json::to_string(name).unwrap();
            let text = format!(
                r#"{{"version": 2, "entities": [
                    {{"script": {json}}},
                    {{"sprite": {{"texture": {json}}}}},
                    {{"text": {{"font": {json}}}}},
                    {{"mesh": {{"texture": {json}}}}},
                    {{"sprite_library": {{"textures": ["ok.png", {json}]}}}}
                ]}}"#
            );
            let errors = Scene::parse("s.scene", &text, &reg()).unwrap_err();
            let rule = crate::check_asset_name(name).unwrap_err().to_string();
            let got: Vec<(Option<&str>, String)> = errors
                .iter()
                .map(|e| (e.key.as_deref(), e.message.clone()))
                .collect();
            assert_eq!(
                got,
                [
                    (Some("script"), rule.clone()),
                    (Some("sprite"), format!("texture: {rule}")),
                    (Some("text"), format!("font: {rule}")),
                    (Some("mesh"), format!("texture: {rule}")),
                    (Some("sprite_library"), format!("textures[1]: {rule}")),
                ],
                "{name:?}"
            );
        }
        let empty = r#"{"version": 2, "entities": [{"script": ""}, {"sprite_library": {"textures": [""]}}]}"#;
        let errors = Scene::parse("s.scene", empty, &reg()).unwrap_err();
        assert_eq!(errors[0].message, "an empty asset name names no file");
        assert_eq!(
            errors[1].message,
            "textures[0]: an empty asset name names no file"
        );
        // Empty texture and font fields mean "none" and stay allowed.
        let fine =
            r#"{"version": 2, "entities": [{"sprite": {"texture": ""}, "text": {"font": ""}}]}"#;
        assert!(Scene::parse("s.scene", fine, &reg()).is_ok());
    }

    #[test]
    fn an_unknown_key_close_to_a_known_one_is_named() {
        let text = r#"{"version": 2, "entities": [{"countr": {}, "trasform": {}, "wobble": 1}]}"#;
        let errors = Scene::parse("s.scene", text, &reg()).unwrap_err();
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "no listed package registers this key (listed packages: jengine-counter); did you mean \"counter\"?",
                "no listed package registers this key (listed packages: jengine-counter); did you mean \"transform\"?",
                "no listed package registers this key (listed packages: jengine-counter)",
            ]
        );
        let old = r#"{"version": 1, "entities": [{"trasform": {}}]}"#;
        let scene = Scene::parse("old.scene", old, &reg()).unwrap();
        assert!(
            scene.notices[0].ends_with("; did you mean \"transform\"?"),
            "{}",
            scene.notices[0]
        );
    }

    #[test]
    fn an_outline_lists_every_texture_and_font_with_entity_and_key() {
        let text = r#"{"version": 9, "entities": [
            {"name": "a", "sprite": {"texture": "a.png", "size": "bad"}, "text": {"font": "f.ttf"}},
            5,
            {"mesh": {"texture": "m.png"}, "sprite_library": {"textures": ["x.png", 3, "", "y.png"]}},
            {"sprite": {"texture": ""}, "text": {"font": 7}}
        ]}"#;
        let outline = Outline::read(text).unwrap();
        let uses: Vec<(usize, Option<&str>, &str, AssetKind, &str)> = outline
            .assets
            .iter()
            .map(|u| {
                (
                    u.entity,
                    u.entity_name.as_deref(),
                    u.key,
                    u.kind,
                    u.name.as_str(),
                )
            })
            .collect();
        use AssetKind::{Font, Texture};
        assert_eq!(
            uses,
            [
                (0, Some("a"), "sprite", Texture, "a.png"),
                (0, Some("a"), "text", Font, "f.ttf"),
                (2, None, "mesh", Texture, "m.png"),
                (2, None, "sprite_library", Texture, "x.png"),
                (2, None, "sprite_library", Texture, "y.png"),
            ]
        );
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

        #[test]
        fn entities_of_any_shape_with_repeated_keys_never_panic_and_each_is_reported(
            entities in proptest::collection::vec(
                prop_oneof![
                    crate::testing::json_value().prop_map(|v| v.to_string()),
                    proptest::collection::vec(
                        (proptest::sample::select(vec!["name", "transform", "counter", "bulk"]),
                         crate::testing::json_value()),
                        0..4,
                    ).prop_map(|members| {
                        let inner: Vec<String> =
                            members.iter().map(|(k, v)| format!("{k:?}: {v}")).collect();
                        format!("{{{}}}", inner.join(", "))
                    }),
                ],
                0..5)
        ) {
            let text = format!("{{\"version\": 2, \"entities\": [{}]}}", entities.join(", "));
            match Scene::parse("s.scene", &text, &reg()) {
                Ok(scene) => prop_assert_eq!(scene.len(), entities.len()),
                Err(errors) => {
                    // Every problem is inside an entity: none hides the others behind a
                    // whole-file error.
                    prop_assert!(errors.iter().all(|e| e.entity.as_ref().is_some_and(|(i, _)| *i < entities.len())));
                }
            }
            let outline = Outline::read(&text);
            prop_assert!(outline.is_some());
        }
    }
}
