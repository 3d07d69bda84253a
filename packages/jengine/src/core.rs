//! The host's own commands: `Entity.set`, `Text.set` and `Scene.load`.
//!
//! They go through the same queue as package commands, so a script's calls apply in the
//! order it made them, whoever owns them.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::components::{Camera2D, Mesh2D, Sprite, Text, Transform2D};
use crate::registry::Registry;
use crate::value::{entity, string, table};
use crate::world::{Entity, World};

/// A scene change asked for by `Scene.load`; the runtime performs it after the frame's systems.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SceneRequest(pub Option<String>);

pub(crate) fn register(reg: &mut Registry) {
    reg.command(
        "Entity",
        "set",
        &[entity("e"), string("key"), table("fields")],
        |world, args| {
            let e = args.entity(0)?;
            let key = args.string(1)?;
            let fields = args.table(2)?;
            set_core(world, e, key, fields)
        },
    );
    reg.command(
        "Text",
        "set",
        &[entity("e"), string("text")],
        |world, args| {
            let e = args.entity(0)?;
            let s = args.string(1)?;
            let mut text = world
                .entities
                .get::<&mut Text>(e)
                .map_err(|_| no_component(world, e, "text"))?;
            text.text = s.to_string();
            Ok(())
        },
    );
    reg.command("Scene", "load", &[string("name")], |world, args| {
        let name = args.string(0)?;
        world.resources.insert(SceneRequest(Some(name.to_string())));
        Ok(())
    });
}

fn no_component(world: &World, e: Entity, key: &str) -> String {
    if world.entities.contains(e) {
        format!("entity {} has no {key} component", describe(world, e))
    } else {
        format!("entity {} does not exist", e.to_bits())
    }
}

/// An entity as messages name it: its name if it has one, else its handle.
pub fn describe(world: &World, e: Entity) -> String {
    match world.entities.get::<&crate::Name>(e) {
        Ok(name) => format!("{:?}", name.0),
        Err(_) => format!("#{}", e.to_bits()),
    }
}

/// Overlays `fields` on the entity's core component `key` (adding it if absent).
fn set_core(
    world: &mut World,
    e: Entity,
    key: &str,
    fields: &serde_json::Value,
) -> Result<(), String> {
    if !world.entities.contains(e) {
        return Err(format!("entity {} does not exist", e.to_bits()));
    }
    match key {
        "transform" => overlay::<Transform2D>(world, e, key, fields),
        "sprite" => overlay::<Sprite>(world, e, key, fields),
        "text" => overlay::<Text>(world, e, key, fields),
        "mesh" => overlay::<Mesh2D>(world, e, key, fields),
        "camera" => overlay::<Camera2D>(world, e, key, fields),
        other => Err(format!(
            "{other:?} is not a core component Entity.set can change (transform, sprite, text, mesh, camera)"
        )),
    }
}

fn overlay<T>(
    world: &mut World,
    e: Entity,
    key: &str,
    fields: &serde_json::Value,
) -> Result<(), String>
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
        _ => return Err(format!("fields for {key} must be a table of named fields")),
    }
    let value: T = serde_json::from_value(merged).map_err(|err| format!("{key}: {err}"))?;
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
        (cmd.handler)(world, &Args::new(args))
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
    fn text_set_needs_a_text_component() {
        let mut world = World::new();
        let e = world.entities.spawn((crate::Name("label".into()),));
        let bits = Value::Int(e.to_bits().get() as i64);
        let err = run(&mut world, "text_set", vec![bits, Value::Str("hi".into())]).unwrap_err();
        assert_eq!(err, "entity \"label\" has no text component");
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
