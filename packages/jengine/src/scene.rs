//! Scenes: `assets/scenes/<name>.scene`, JSON lists of entities and their components.
//!
//! A scene is parsed and checked whole before anything is spawned, so a bad scene changes
//! nothing. Each entity is read on its own (an object's members, borrowed from the text), so
//! an entity that is not an object or repeats a key is reported beside every other problem.
//! Version 2 resolves package keys through the registry and fails on a key no listed package
//! registers; version 1 predates package components and keeps such keys as inert
//! [`CustomData`], saying so once per key. Every file name is checked by [`check_asset_name`].
//! The top level is strict: one JSON document holding exactly `version` and `entities`.
//! Entity names follow [`check_name`], every other string is held to [`MAX_STRING`], and a
//! camera must have a size to show.

use std::collections::BTreeSet;
use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::components::{Camera2D, CustomData, Script};
use crate::convert::without_fragment_position;
use crate::registry::{CORE, Registry};
use crate::table::{MAX_STRING, Members, did_you_mean, long_string, quoted, too_long};
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
            write!(f, ", key {}", quoted(key))?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SceneError {}

/// Component-table problems from any number of scenes, each distinct problem once: a broken
/// table several scenes (or entities) use is one problem, said at its first place with every
/// other place it is met listed after it, in the order met.
pub fn each_problem_once(errors: &[SceneError]) -> Vec<String> {
    let mut said: Vec<(&SceneError, Vec<String>)> = Vec::new();
    for e in errors {
        match said
            .iter_mut()
            .find(|(first, _)| first.key == e.key && first.message == e.message)
        {
            Some((_, also)) => {
                let mut place = e.file.clone();
                match &e.entity {
                    Some((i, Some(name))) => place.push_str(&format!(" entity {i} ({name:?})")),
                    Some((i, None)) => place.push_str(&format!(" entity {i}")),
                    None => {}
                }
                also.push(place);
            }
            None => said.push((e, Vec::new())),
        }
    }
    said.into_iter()
        .map(|(first, also)| match also.as_slice() {
            [] => first.to_string(),
            places => format!("{first} (also in {})", places.join(", ")),
        })
        .collect()
}

/// The most characters an entity name may have.
pub const MAX_NAME: usize = 200;

/// Why [`check_name`] refuses a name. Positions are 0-based character indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameError {
    /// More characters than the cap allows.
    TooLong {
        /// How many characters the name has.
        chars: usize,
        /// The cap ([`MAX_NAME`] for entity names).
        max: usize,
    },
    /// A control character: C0 (NUL, newline, the escape that starts a terminal
    /// sequence), DEL or C1.
    Control {
        /// Where it is.
        at: usize,
        /// Which.
        ch: char,
    },
    /// A bidirectional control, which shows the text around it in another order than
    /// the one it is stored in.
    Bidi {
        /// Where it is.
        at: usize,
        /// Which.
        ch: char,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NameError::TooLong { chars, max } => {
                write!(f, "{chars} characters is too long: the most is {max}")
            }
            NameError::Control { at, ch } => write!(
                f,
                "character {at} is the control character U+{:04X}: only printable text on one line is allowed",
                u32::from(ch)
            ),
            NameError::Bidi { at, ch } => write!(
                f,
                "character {at} is the bidirectional control U+{:04X}, which reorders how the text around it reads",
                u32::from(ch)
            ),
        }
    }
}

impl std::error::Error for NameError {}

/// The rule for an entity's `name`, which the scene loader applies and every tool that
/// writes names should too: at most [`MAX_NAME`] characters, no control characters (C0,
/// DEL, C1) and no bidirectional controls (U+202A to U+202E, U+2066 to U+2069, U+200E,
/// U+200F, U+061C). A name is shown in logs, terminals and the editor, where such
/// characters would break lines, colour the output or show one name as another.
pub fn check_name(name: &str) -> Result<(), NameError> {
    check_line(name, MAX_NAME)
}

/// [`check_name`]'s rule with another cap: for the project file's names and title.
pub(crate) fn check_line(text: &str, max: usize) -> Result<(), NameError> {
    if let Some(chars) = too_long(text, max) {
        return Err(NameError::TooLong { chars, max });
    }
    for (at, ch) in text.chars().enumerate() {
        if ch.is_control() {
            return Err(NameError::Control { at, ch });
        }
        if is_bidi_control(ch) {
            return Err(NameError::Bidi { at, ch });
        }
    }
    Ok(())
}

/// The characters that reorder text: embeddings, overrides, isolates and the marks.
pub(crate) fn is_bidi_control(ch: char) -> bool {
    matches!(
        ch,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
    )
}

/// The keys a scene file holds at the top.
const SCENE_KEYS: &[&str] = &["version", "entities"];

#[derive(Deserialize)]
struct RawScene<'a> {
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
    /// A sound under `assets/audio/` (named by package components, never by a core key).
    Sound,
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

/// An entity's `name`, when it is an object with a string name that [`check_name`] keeps:
/// a refused name is reported once, under its own key, and never echoed in another message.
fn entity_name(item: &Members<'_, &RawValue>) -> Option<String> {
    item.get("name")
        .and_then(|v| serde_json::from_str::<String>(v.get()).ok())
        .filter(|name| check_name(name).is_ok())
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
    /// Things that load but will not work as written: a package's component in a version 1
    /// scene, kept as inert data, so the package never sees it.
    pub warnings: Vec<String>,
}

impl Scene {
    /// Parses `text` as the scene `file`, checking every entity against the registry.
    /// Returns every problem found, not just the first.
    pub fn parse(file: &str, text: &str, registry: &Registry) -> Result<Scene, Vec<SceneError>> {
        let (version, entities) = read_top(file, text)?;
        let mut scene = Scene {
            file: file.to_string(),
            version,
            builders: Vec::with_capacity(entities.len()),
            scripts: Vec::new(),
            notices: Vec::new(),
            warnings: Vec::new(),
        };
        let mut errors = Vec::new();
        let mut noticed = BTreeSet::new();
        for (index, item) in entities.iter().enumerate() {
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
                if let Some(chars) = too_long(key, MAX_STRING) {
                    errors.push(SceneError {
                        file: file.to_string(),
                        entity: Some((index, name.clone())),
                        key: None,
                        message: format!(
                            "a key is at most {MAX_STRING} characters, this one has {chars}"
                        ),
                    });
                    continue;
                }
                let fail = |message: String| SceneError {
                    file: file.to_string(),
                    entity: Some((index, name.clone())),
                    key: Some(key.to_string()),
                    message,
                };
                // Names and strings are held to their caps before anything is built.
                let capped = if key == "name" {
                    serde_json::from_str::<String>(value.get())
                        .ok()
                        .and_then(|name| check_name(&name).err())
                        .map(|e| e.to_string())
                } else {
                    long_string(&mut serde_json::Deserializer::from_str(value.get()))
                };
                if let Some(message) = capped {
                    errors.push(fail(message));
                    continue;
                }
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
                            let said = format!(
                                "{file}: key {}{about} is kept as inert custom data: a version 1 scene has no package components; make it \"version\": 2 to use it{hint}",
                                quoted(key)
                            );
                            // A package's key does nothing here, which is never what was
                            // meant; any other key is the custom data v1 allows.
                            match binding {
                                Some(_) => scene.warnings.push(said),
                                None => scene.notices.push(said),
                            }
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
            if let Some(camera) = builder.get::<&Camera2D>()
                && let Err(message) = check_camera(camera)
            {
                errors.push(SceneError {
                    file: file.to_string(),
                    entity: Some((index, name.clone())),
                    key: Some("camera".into()),
                    message,
                });
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

/// A scene's top level, checked: one JSON document, an object with exactly the keys
/// [`SCENE_KEYS`] (each once), a known version and an array of entities. Every problem at
/// this level is reported together, since no entity can be read past one.
fn read_top<'a>(
    file: &str,
    text: &'a str,
) -> Result<(u32, Vec<Members<'a, &'a RawValue>>), Vec<SceneError>> {
    let top = |message: String| SceneError {
        file: file.to_string(),
        entity: None,
        key: None,
        message,
    };
    if let Some(message) = crate::table::trailing_bytes(text) {
        return Err(vec![top(message)]);
    }
    let members: Members<&RawValue> =
        serde_json::from_str(text).map_err(|e| vec![top(format!("not a valid scene: {e}"))])?;
    let (fields, repeated) = match &members {
        Members::Object { fields, repeated } => (fields, repeated),
        Members::Other(kind) => {
            return Err(vec![top(format!(
                "a scene is a JSON object with the keys {}; got {kind}",
                SCENE_KEYS.join(", ")
            ))]);
        }
    };
    let mut errors = Vec::new();
    for key in repeated {
        errors.push(top(format!(
            "top-level key {} appears twice; a key may appear once",
            quoted(key)
        )));
    }
    for (key, _) in fields {
        if !SCENE_KEYS.contains(&key.as_ref()) {
            errors.push(top(format!(
                "unknown top-level key {}{} (a scene has the keys: {})",
                quoted(key),
                did_you_mean(key, SCENE_KEYS.iter().copied()),
                SCENE_KEYS.join(", ")
            )));
        }
    }
    let version = match members.get("version").map(|v| v.get().trim()) {
        Some("1") => Some(1),
        Some("2") => Some(2),
        Some(other) => {
            // Written as it stands, unless it is long or unprintable.
            let other = match check_line(other, 40) {
                Ok(()) => other.to_string(),
                Err(_) => format!("({} bytes of JSON)", other.len()),
            };
            errors.push(top(format!(
                "unknown scene version {other} (this host reads versions 1 and 2)"
            )));
            None
        }
        None => {
            errors.push(top("missing \"version\" (1 or 2)".into()));
            None
        }
    };
    let entities = match members.get("entities") {
        Some(raw) => match serde_json::from_str::<Vec<Members<&RawValue>>>(raw.get()) {
            Ok(entities) => Some(entities),
            Err(_) => {
                let kind = match serde_json::from_str::<Members<serde::de::IgnoredAny>>(raw.get()) {
                    Ok(Members::Object { .. }) => "an object",
                    Ok(Members::Other(kind)) => kind,
                    Err(_) => "not an array",
                };
                errors.push(top(format!(
                    "entities: a scene's entities are a JSON array, got {kind}"
                )));
                None
            }
        },
        None => {
            errors.push(top(
                "missing top-level key \"entities\" (a scene with nothing in it says \"entities\": [])"
                    .into(),
            ));
            None
        }
    };
    match (version, entities) {
        (Some(version), Some(entities)) if errors.is_empty() => Ok((version, entities)),
        _ => Err(errors),
    }
}

/// A camera must show something: a size above zero both ways. (JSON has no infinity or
/// NaN, and a number past `f32`'s range is refused as the component is read.)
fn check_camera(camera: &Camera2D) -> Result<(), String> {
    let [w, h] = camera.size;
    if w > 0.0 && h > 0.0 {
        Ok(())
    } else {
        Err(format!(
            "size must be above zero in both directions, got {:?}",
            camera.size
        ))
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
pub(crate) mod tests {
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
        // A package's key is a warning: it will do nothing, which is never what was meant.
        assert!(scene.notices.is_empty(), "{:?}", scene.notices);
        assert_eq!(scene.warnings.len(), 1);
        assert!(
            scene.warnings[0].contains(
                "key \"counter\" (a component of jengine-counter) is kept as inert custom data"
            ),
            "{}",
            scene.warnings[0]
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

    /// The messages of every error `text` gets as a scene.
    fn refused(text: &str) -> Vec<String> {
        Scene::parse("s.scene", text, &reg())
            .unwrap_err()
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn a_misspelt_entities_key_is_an_error_naming_the_key_it_meant() {
        let all = refused(r#"{"version": 2, "entites": [{"name": "a"}]}"#);
        assert_eq!(
            all,
            [
                "s.scene: unknown top-level key \"entites\"; did you mean \"entities\"? (a scene has the keys: version, entities)",
                "s.scene: missing top-level key \"entities\" (a scene with nothing in it says \"entities\": [])",
            ]
        );
    }

    #[test]
    fn unknown_top_level_keys_are_errors() {
        let all = refused(r#"{"version": 2, "entities": [], "colour": 1, "verison": 2}"#);
        assert_eq!(
            all,
            [
                "s.scene: unknown top-level key \"colour\" (a scene has the keys: version, entities)",
                "s.scene: unknown top-level key \"verison\"; did you mean \"version\"? (a scene has the keys: version, entities)",
            ]
        );
        let all = refused(r#"{"version": 2, "entities": [], "entities": []}"#);
        assert_eq!(
            all,
            ["s.scene: top-level key \"entities\" appears twice; a key may appear once"]
        );
        let all = refused(r#"[{"version": 2}]"#);
        assert_eq!(
            all,
            ["s.scene: a scene is a JSON object with the keys version, entities; got an array"]
        );
        let all = refused(r#"{"version": 2, "entities": {"name": "a"}}"#);
        assert_eq!(
            all,
            ["s.scene: entities: a scene's entities are a JSON array, got an object"]
        );
    }

    #[test]
    fn trailing_bytes_after_the_scene_are_an_error_with_their_offset() {
        let text = "{\"version\": 2, \"entities\": []}\n\0";
        let all = refused(text);
        assert_eq!(
            all,
            [
                "s.scene: trailing bytes after the JSON: byte 31 is 0x00; only whitespace may follow the document"
            ]
        );
        let all = refused("{\"version\": 2, \"entities\": []} {}");
        assert_eq!(
            all,
            [
                "s.scene: trailing bytes after the JSON: byte 31 is 0x7b; only whitespace may follow the document"
            ]
        );
        // Whitespace after the document is fine.
        assert!(
            Scene::parse(
                "s.scene",
                "{\"version\": 2, \"entities\": []}\r\n\t ",
                &reg()
            )
            .is_ok()
        );
    }

    #[test]
    fn a_ten_megabyte_name_is_refused_with_the_cap_and_not_repeated() {
        let long = "n".repeat(10 << 20);
        let text = format!(
            r#"{{"version": 2, "entities": [{{"name": "{long}", "transform": {{"pos": [0, "x"]}}}}]}}"#
        );
        let all = refused(&text);
        assert_eq!(
            all,
            [
                "s.scene: entity 0, key \"name\": 10485760 characters is too long: the most is 200",
                "s.scene: entity 0, key \"transform\": pos[1]: invalid type: string \"x\", expected f32",
            ]
        );
        let outline = Outline::read(&text).unwrap();
        assert!(outline.keys.contains("name"));
        let at_cap = format!(
            r#"{{"version": 2, "entities": [{{"name": "{}"}}]}}"#,
            "é".repeat(MAX_NAME)
        );
        assert!(Scene::parse("s.scene", &at_cap, &reg()).is_ok());
    }

    #[test]
    fn a_ten_megabyte_string_anywhere_in_a_scene_is_refused_with_the_cap() {
        let long = "t".repeat(10 << 20);
        let text = format!(
            r#"{{"version": 1, "entities": [
                {{"text": {{"text": "{long}"}}}},
                {{"counter": {{"notes": ["a", "{long}"]}}}},
                {{"bulk": true, "{long}": 1}}
            ]}}"#
        );
        let all = refused(&text);
        assert_eq!(
            all,
            [
                "s.scene: entity 0, key \"text\": text: a string is at most 65536 characters, this one has 10485760",
                "s.scene: entity 1, key \"counter\": notes[1]: a string is at most 65536 characters, this one has 10485760",
                "s.scene: entity 2: a key is at most 65536 characters, this one has 10485760",
            ]
        );
    }

    #[test]
    fn a_camera_of_zero_or_negative_size_is_refused_at_load() {
        for (size, shown) in [
            ("[0, 0]", "[0.0, 0.0]"),
            ("[-16, 9]", "[-16.0, 9.0]"),
            ("[16, 0]", "[16.0, 0.0]"),
            ("[16, -0.0]", "[16.0, -0.0]"),
        ] {
            let text = format!(
                r#"{{"version": 2, "entities": [{{"name": "cam", "camera": {{"size": {size}}}}}]}}"#
            );
            assert_eq!(
                refused(&text),
                [format!(
                    "s.scene: entity 0 (\"cam\"), key \"camera\": size must be above zero in both directions, got {shown}"
                )]
            );
        }
        let far = r#"{"version": 2, "entities": [{"camera": {"size": [1e39, 9]}}]}"#;
        assert_eq!(
            refused(far),
            ["s.scene: entity 0, key \"camera\": size[0]: number out of range"]
        );
        let fine =
            r#"{"version": 2, "entities": [{"camera": {"size": [0.5, 0.25]}}, {"camera": {}}]}"#;
        assert!(Scene::parse("s.scene", fine, &reg()).is_ok());
    }

    #[test]
    fn an_entity_name_with_control_or_bidi_characters_is_refused() {
        for (name, message) in [
            (
                "a\0b",
                "character 1 is the control character U+0000: only printable text on one line is allowed",
            ),
            (
                "two\nlines",
                "character 3 is the control character U+000A: only printable text on one line is allowed",
            ),
            (
                "\u{1b}[31mred",
                "character 0 is the control character U+001B: only printable text on one line is allowed",
            ),
            (
                "del\u{7f}",
                "character 3 is the control character U+007F: only printable text on one line is allowed",
            ),
            (
                "c1\u{85}",
                "character 2 is the control character U+0085: only printable text on one line is allowed",
            ),
            (
                "evil\u{202e}gnp.exe",
                "character 4 is the bidirectional control U+202E, which reorders how the text around it reads",
            ),
            (
                "\u{2066}x",
                "character 0 is the bidirectional control U+2066, which reorders how the text around it reads",
            ),
            (
                "x\u{200f}",
                "character 1 is the bidirectional control U+200F, which reorders how the text around it reads",
            ),
            (
                "x\u{61c}",
                "character 1 is the bidirectional control U+061C, which reorders how the text around it reads",
            ),
        ] {
            let json = serde_json::to_string(name).unwrap();
            let text = format!(
                r#"{{"version": 2, "entities": [{{"name": {json}, "counter": {{"start": "x"}}}}]}}"#
            );
            let all = refused(&text);
            assert_eq!(all.len(), 2, "{all:?}");
            assert_eq!(
                all[0],
                format!("s.scene: entity 0, key \"name\": {message}"),
                "{name:?}"
            );
            // The bad name is never echoed back, not even escaped.
            assert!(
                all[1].starts_with("s.scene: entity 0, key \"counter\""),
                "{}",
                all[1]
            );
            let outline = Outline::read(&text).unwrap();
            assert!(outline.assets.iter().all(|a| a.entity_name.is_none()));
        }
    }

    #[test]
    fn the_name_rule_keeps_every_ordinary_name() {
        for name in [
            "",
            "player",
            "プレイヤー",
            "Zoë",
            "a b",
            "right-to-left عربي",
            "tab-less 🐈",
            "x\u{200d}y",
        ] {
            assert_eq!(check_name(name), Ok(()), "{name:?}");
        }
        assert_eq!(
            check_name(&"x".repeat(MAX_NAME + 1))
                .unwrap_err()
                .to_string(),
            "201 characters is too long: the most is 200"
        );
    }

    /// A scene using every core key, for mutation.
    const SAMPLE: &str = r##"{"version": 2, "entities": [
        {"name": "camera", "camera": {"center": [0, 0], "size": [16, 9], "clear": "#102030"}},
        {"name": "box", "transform": {"pos": [1, 2], "rot": 0.5, "scale": [1, 1], "z": 3},
         "sprite": {"texture": "box.png", "size": [1, 1], "tint": "#ff000080"}, "script": "box.lua",
         "counter": {"start": 3}},
        {"name": "label", "text": {"text": "こんにちは\n", "font": "", "size": 0.5, "align": "center"}},
        {"bulk": true, "mesh": {"texture": "", "vertices": []}, "sprite_library": {"textures": ["a.png"]}}
    ]}"##;

    /// Tokens a mutation inserts or writes over: JSON's own punctuation, the keys, and the
    /// characters and numbers the loaders refuse.
    const TOKENS: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "\\",
        "\0",
        "\n",
        "\u{1b}[31m",
        "\u{202e}",
        "\u{85}",
        "0",
        "-1",
        "1e39",
        "-0",
        "null",
        "true",
        "\"entities\"",
        "\"entites\"",
        "\"version\"",
        "\"name\"",
        "\"camera\"",
        "\"size\"",
        "[0, 0]",
        "\"\\u0000\"",
        "\"\\ud800\"",
        "é",
    ];

    /// `text` after `edits`: each at a position (a fraction of the length), inserting,
    /// replacing or deleting a token's worth of bytes. Cuts land on any byte; the result is
    /// read lossily, as a file of broken UTF-8 would be.
    pub(crate) fn mutate(text: &str, edits: &[(proptest::sample::Index, usize, u8)]) -> String {
        let mut bytes = text.as_bytes().to_vec();
        for (at, token, op) in edits {
            let i = at.index(bytes.len() + 1);
            let token = TOKENS[token % TOKENS.len()].as_bytes();
            match op % 3 {
                0 => {
                    bytes.splice(i..i, token.iter().copied());
                }
                1 => {
                    let end = (i + token.len()).min(bytes.len());
                    bytes.splice(i..end, token.iter().copied());
                }
                _ => {
                    let end = (i + 1 + token.len() % 4).min(bytes.len());
                    bytes.drain(i..end);
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[test]
    fn the_mutation_sample_is_a_good_scene() {
        let scene = Scene::parse("s.scene", SAMPLE, &reg()).unwrap();
        assert_eq!(scene.len(), 4);
    }

    proptest! {
        #[test]
        fn mutated_scenes_never_panic_the_parser_or_the_outline(
            edits in proptest::collection::vec((any::<proptest::sample::Index>(), any::<usize>(), any::<u8>()), 1..6)
        ) {
            let text = mutate(SAMPLE, &edits);
            if let Ok(scene) = Scene::parse("s.scene", &text, &reg()) {
                let mut world = World::new();
                prop_assert_eq!(scene.spawn(&mut world).len(), world.entities.len() as usize);
            }
            let _ = Outline::read(&text);
        }

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

    #[test]
    fn a_table_problem_met_in_three_scenes_is_said_once_with_its_places() {
        let at = |file: &str, i: usize, message: &str| SceneError {
            file: file.into(),
            entity: Some((i, Some("crawl".into()))),
            key: Some("crawl_game".into()),
            message: message.into(),
        };
        let errors = [
            at("assets/scenes/title.scene", 3, "level 1: no way down"),
            at("assets/scenes/warren.scene", 0, "level 1: no way down"),
            at("assets/scenes/warren.scene", 1, "a monster the table lacks"),
            at("assets/scenes/demo.scene", 2, "level 1: no way down"),
        ];
        assert_eq!(
            each_problem_once(&errors),
            [
                "assets/scenes/title.scene: entity 3 (\"crawl\"), key \"crawl_game\": level 1: no way \
                 down (also in assets/scenes/warren.scene entity 0 (\"crawl\"), \
                 assets/scenes/demo.scene entity 2 (\"crawl\"))",
                "assets/scenes/warren.scene: entity 1 (\"crawl\"), key \"crawl_game\": a monster the \
                 table lacks",
            ]
        );
    }
}
