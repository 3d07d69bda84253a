//! The host's own components and commands, registered like any package's.
//!
//! Every core scene key (`name`, `transform`, `sprite`, ...) and the commands `Entity.set`,
//! `Text.set`, `Scene.load`, `Audio.*` and `Clipboard.copy` come from here, through the same
//! [`Registry`] calls a package makes, so scenes, scripts and docs read one table. The commands
//! go through the same queue as package commands, so a script's calls apply in the order it
//! made them, whoever owns them.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::asset::check_asset_name;
use crate::audio::{self, AudioQueue, AudioRequest, MusicOptions, SoundOptions, VolumeKind};
use crate::components::{
    BulkEntity, Camera2D, Mesh2D, Name, Script, Sprite, SpriteLibrary, Text, TextLayout,
    Transform2D,
};
use crate::convert::parse_json;
use crate::registry::{Package, Registry};
use crate::value::{asset, entity, number, string, table};
use crate::world::{Entity, MAX_TEXT_INPUT, World};

/// A scene change asked for by `Scene.load`; the runtime performs it after the frame's systems.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SceneRequest(pub Option<String>);

/// The game asked to end (`Scene.quit`): the runtime finishes the frame, then the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QuitRequest;

/// Text a script put on the clipboard this frame (`Clipboard.copy`; the last call wins). The
/// runtime takes it after the command queue and hands it to the system clipboard, or keeps it
/// in memory where there is none.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClipboardCopy(pub String);

type SetFn = fn(&mut World, Entity, &serde_json::Value) -> Result<(), String>;

/// The core components scripts may change with `Entity.set`: one list for the bindings and
/// the command alike.
const SETTABLE: &[(&str, SetFn)] = &[
    ("transform", overlay::<Transform2D>),
    ("sprite", overlay::<Sprite>),
    ("text", overlay::<Text>),
    ("mesh", overlay::<Mesh2D>),
    ("camera", overlay::<Camera2D>),
];

fn setter(key: &str) -> Option<SetFn> {
    SETTABLE.iter().find(|(k, _)| *k == key).map(|(_, f)| *f)
}

/// Binds a core key whose scene value is the component itself, checked by `check`.
fn core<T>(reg: &mut Registry, key: &str, check: fn(&T) -> Result<(), String>)
where
    T: hecs::Component + Serialize + DeserializeOwned,
{
    let spawn = Box::new(
        move |builder: &mut hecs::EntityBuilder, raw: &serde_json::value::RawValue| {
            let value: T = parse_json(raw.get())?;
            check(&value)?;
            builder.add(value);
            Ok(())
        },
    );
    reg.bind::<T>(key, spawn, setter(key).is_some());
}

fn anything<T>(_: &T) -> Result<(), String> {
    Ok(())
}

impl Registry {
    /// A registry holding only the host's own components and commands.
    pub fn new() -> Registry {
        let mut reg = Registry::empty();
        register(&mut reg);
        reg
    }

    /// A registry with the core and each package registered, in order.
    pub fn with(packages: &[&dyn Package]) -> Registry {
        let mut reg = Registry::new();
        for p in packages {
            reg.add(*p);
        }
        reg
    }
}

impl Default for Registry {
    fn default() -> Self {
        Registry::new()
    }
}

fn register(reg: &mut Registry) {
    core::<Name>(reg, "name", anything);
    core::<Transform2D>(reg, "transform", finite_transform);
    core::<Sprite>(reg, "sprite", |s| optional_name("texture", &s.texture));
    core::<Text>(reg, "text", text_box);
    core::<Mesh2D>(reg, "mesh", |m| optional_name("texture", &m.texture));
    core::<Camera2D>(reg, "camera", anything);
    core::<SpriteLibrary>(reg, "sprite_library", library_names);
    core::<Script>(reg, "script", |script| {
        check_asset_name(&script.0).map_err(|e| e.to_string())?;
        if script.0.ends_with(".lua") {
            Ok(())
        } else {
            Err(format!(
                "a script is a .lua file under assets/scripts, got {:?}",
                script.0
            ))
        }
    });
    // The host's facts about each text box's last layout, read-only to scripts.
    reg.bag::<TextLayout>("text_layout");
    reg.bind::<BulkEntity>(
        "bulk",
        Box::new(|builder, raw| {
            if parse_json::<bool>(raw.get())? {
                builder.add(BulkEntity);
            }
            Ok(())
        }),
        false,
    );

    reg.command(
        "Entity",
        "set",
        (entity("e"), string("key"), table("fields")),
        |world, (e, key, fields)| {
            if !world.entities.contains(e) {
                return Err(format!("entity {} does not exist", e.to_bits()));
            }
            match setter(&key) {
                Some(set) => set(world, e, &fields).map_err(|err| format!("{key}: {err}")),
                None => {
                    let keys: Vec<&str> = SETTABLE.iter().map(|(k, _)| *k).collect();
                    Err(format!(
                        "{key:?} is not a core component Entity.set can change ({})",
                        keys.join(", ")
                    ))
                }
            }
        },
    );
    reg.command(
        "Text",
        "set",
        (entity("e"), string("text")),
        |world, (e, s)| {
            let described = no_component(world, e, "text");
            let mut text = world.entities.get::<&mut Text>(e).map_err(|_| described)?;
            text.text = s;
            Ok(())
        },
    );
    reg.command(
        "Audio",
        "music",
        (asset("name"), table("options").optional()),
        |world, (name, options)| {
            let options = audio::options::<MusicOptions>(options)?.checked()?;
            queue_audio(world, AudioRequest::Music { name, options });
            Ok(())
        },
    );
    reg.command("Audio", "pause_music", (), |world, ()| {
        queue_audio(world, AudioRequest::PauseMusic);
        Ok(())
    });
    reg.command("Audio", "resume_music", (), |world, ()| {
        queue_audio(world, AudioRequest::ResumeMusic);
        Ok(())
    });
    reg.command(
        "Audio",
        "stop_music",
        (table("options").optional(),),
        |world, (options,)| {
            #[derive(Default, serde::Deserialize)]
            #[serde(default, deny_unknown_fields)]
            struct Stop {
                fade: f32,
            }
            let stop = audio::options::<Stop>(options)?;
            if !(stop.fade.is_finite() && (0.0..=10.0).contains(&stop.fade)) {
                return Err(format!("fade must be between 0 and 10, got {}", stop.fade));
            }
            queue_audio(world, AudioRequest::StopMusic { fade: stop.fade });
            Ok(())
        },
    );
    reg.command(
        "Audio",
        "play",
        (asset("name"), table("options").optional()),
        |world, (name, options)| {
            let options = audio::options::<SoundOptions>(options)?.checked()?;
            queue_audio(world, AudioRequest::Play { name, options });
            Ok(())
        },
    );
    reg.command(
        "Audio",
        "volume",
        (string("kind"), number("value")),
        |world, (kind, value)| {
            let kind = VolumeKind::parse(&kind)?;
            if !(0.0..=1.0).contains(&value) {
                return Err(format!("a volume is between 0 and 1, got {value}"));
            }
            queue_audio(
                world,
                AudioRequest::Volume {
                    kind,
                    value: value as f32,
                },
            );
            Ok(())
        },
    );
    reg.command("Scene", "quit", (), |world, ()| {
        world.resources.insert(QuitRequest);
        Ok(())
    });
    reg.command("Scene", "load", (asset("name"),), |world, (name,)| {
        world.resources.insert(SceneRequest(Some(name)));
        Ok(())
    });
    // As long as a paste may be, so whatever the player can paste a game can copy.
    reg.command(
        "Clipboard",
        "copy",
        (string("text").up_to(MAX_TEXT_INPUT),),
        |world, (text,)| {
            world.resources.insert(ClipboardCopy(text));
            Ok(())
        },
    );
}

fn queue_audio(world: &mut World, request: AudioRequest) {
    world
        .resources
        .get_or_default::<AudioQueue>()
        .0
        .push(request);
}

fn no_component(world: &World, e: Entity, key: &str) -> String {
    if world.entities.contains(e) {
        format!("entity {} has no {key} component", world.describe(e))
    } else {
        format!("entity {} does not exist", e.to_bits())
    }
}

/// A file name field where empty means "none".
fn optional_name(field: &str, name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Ok(());
    }
    check_asset_name(name).map_err(|e| format!("{field}: {e}"))
}

/// Every `sprite_library` entry must name a file inside `assets/textures/`.
fn library_names(library: &SpriteLibrary) -> Result<(), String> {
    let problems: Vec<String> = library
        .textures
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            check_asset_name(name)
                .err()
                .map(|e| format!("textures[{i}]: {e}"))
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// A text's font name, and its box: a height of zero or more and a finite scroll.
fn text_box(t: &Text) -> Result<(), String> {
    optional_name("font", &t.font)?;
    if let Some(h) = t.height
        && !(h.is_finite() && h >= 0.0)
    {
        return Err(format!(
            "height: a text box's height is zero or more world units, got {h}"
        ));
    }
    if !t.scroll.is_finite() {
        return Err(format!("scroll: a number of lines, got {}", t.scroll));
    }
    Ok(())
}

fn finite_transform(t: &Transform2D) -> Result<(), String> {
    let all = t.pos.iter().chain(t.scale.iter()).chain([&t.rot, &t.z]);
    if all.into_iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err("every number must be finite".into())
    }
}

fn overlay<T>(world: &mut World, e: Entity, fields: &serde_json::Value) -> Result<(), String>
where
    T: hecs::Component + Serialize + DeserializeOwned + Default,
{
    let current = match world.entities.get::<&T>(e) {
        Ok(c) => serde_json::to_value(&*c).map_err(|err| err.to_string())?,
        Err(_) => serde_json::to_value(T::default()).map_err(|err| err.to_string())?,
    };
    let mut merged = current;
    match (merged.as_object_mut(), fields) {
        (Some(base), serde_json::Value::Object(new)) => {
            for (k, v) in new {
                base.insert(k.clone(), v.clone());
            }
        }
        (_, serde_json::Value::Array(a)) if a.is_empty() => {}
        _ => return Err("fields must be a table of named fields".into()),
    }
    let value: T = serde_json::from_value(merged).map_err(|err| err.to_string())?;
    world
        .entities
        .insert_one(e, value)
        .map_err(|_| format!("entity {} does not exist", e.to_bits()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Args, Value};

    fn run(world: &mut World, name: &str, args: Vec<Value>) -> Result<(), String> {
        let reg = Registry::new();
        let cmd = reg.find_command(name).unwrap();
        cmd.apply(world, Args::new(args))
    }

    #[test]
    fn entity_set_overlays_fields_and_keeps_the_rest() {
        let mut world = World::new();
        let e = world.entities.spawn((Transform2D {
            rot: 1.5,
            ..Transform2D::default()
        },));
        let fields = serde_json::json!({"pos": [3, 4]});
        let bits = Value::Int(e.to_bits().get() as i64);
        run(
            &mut world,
            "Entity.set",
            vec![
                bits.clone(),
                Value::Str("transform".into()),
                Value::Table(fields),
            ],
        )
        .unwrap();
        let t = *world.entities.get::<&Transform2D>(e).unwrap();
        assert_eq!((t.pos, t.rot), ([3.0, 4.0], 1.5));

        let bad = serde_json::json!({"pos": "here"});
        let err = run(
            &mut world,
            "Entity.set",
            vec![bits, Value::Str("transform".into()), Value::Table(bad)],
        )
        .unwrap_err();
        assert!(err.starts_with("transform:"), "{err}");
        assert_eq!(
            world.entities.get::<&Transform2D>(e).unwrap().pos,
            [3.0, 4.0]
        );
    }

    #[test]
    fn a_text_box_is_checked_where_the_scene_says_it_and_old_texts_read_unchanged() {
        let reg = Registry::new();
        let binding = reg.binding("text").unwrap();
        let spawn = |json: &str| {
            let raw = serde_json::value::RawValue::from_string(json.into()).unwrap();
            binding.spawn(&mut hecs::EntityBuilder::new(), &raw)
        };
        assert!(spawn(r#"{"height": 3, "overflow": "scroll", "scroll": 2.5}"#).is_ok());
        assert!(spawn(r#"{"height": 0, "overflow": "ellipsis"}"#).is_ok());
        let err = spawn(r#"{"height": -1}"#).unwrap_err();
        assert_eq!(
            err,
            "height: a text box's height is zero or more world units, got -1"
        );
        let err = spawn(r#"{"overflow": "wrap"}"#).unwrap_err();
        assert!(err.contains("clip") && err.contains("scroll"), "{err}");
        // A text written before boxes: no box, and the fields a box would use at rest.
        let old: Text = parse_json(r#"{"text": "hi", "wrap": 3, "align": "left"}"#).unwrap();
        assert_eq!(
            (old.height, old.overflow, old.scroll),
            (None, crate::Overflow::More, 0.0)
        );
        // The host's facts are a bag scripts read, not a key a scene or script may set.
        let bag = reg
            .bags()
            .iter()
            .find(|b| b.key() == "text_layout")
            .unwrap();
        assert_eq!(bag.package(), crate::host::CORE);
        assert!(reg.binding("text_layout").is_none());
    }

    #[test]
    fn text_set_needs_a_text_component() {
        let mut world = World::new();
        let e = world.entities.spawn((crate::Name("label".into()),));
        let bits = Value::Int(e.to_bits().get() as i64);
        let err = run(&mut world, "text_set", vec![bits, Value::Str("hi".into())]).unwrap_err();
        assert_eq!(err, "entity \"label\" has no text component");
    }

    #[test]
    fn clipboard_copy_keeps_the_last_text() {
        let mut world = World::new();
        for text in ["first", "second"] {
            run(&mut world, "Clipboard.copy", vec![Value::Str(text.into())]).unwrap();
        }
        assert_eq!(
            world.resources.get::<ClipboardCopy>(),
            Some(&ClipboardCopy("second".into()))
        );
        let reg = Registry::new();
        let copy = reg.find_command("Clipboard.copy").unwrap();
        assert_eq!(copy.params()[0].max_bytes, MAX_TEXT_INPUT);
    }

    #[test]
    fn scene_load_records_the_request() {
        let mut world = World::new();
        run(&mut world, "Scene.load", vec![Value::Str("title".into())]).unwrap();
        assert_eq!(
            world.resources.get::<SceneRequest>(),
            Some(&SceneRequest(Some("title".into())))
        );
    }
}
