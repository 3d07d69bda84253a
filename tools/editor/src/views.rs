//! What the page reads: the scene tree, one entity's components (the file's value, the full
//! value with defaults, the live one), the packages panel, docs pages and textures.

use std::collections::{HashMap, HashSet};

use jengine::Entity;
use jengine::host::check_asset_name;
use serde_json::json;

use super::doc::Json;
use super::http::{Request, Response};
use super::session::{LIVE_LISTED, Session, ok};

impl Session {
    pub(super) fn keys_of(&self, e: Entity) -> Vec<&str> {
        self.runtime
            .registry
            .components()
            .filter(|b| b.read(&self.runtime.world, e).is_some())
            .map(|b| b.key())
            .collect()
    }

    pub(super) fn tree(&self) -> Response {
        let same = self.runtime.scene() == self.doc_scene;
        let scene_entities = self.runtime.scene_entities();
        let entities: Vec<serde_json::Value> = self
            .doc
            .entities()
            .enumerate()
            .map(|(i, e)| {
                let name = match e.get("name") {
                    Some(Json::String(s)) => Some(s.clone()),
                    _ => None,
                };
                let keys: Vec<&str> = match e {
                    Json::Object(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
                    _ => Vec::new(),
                };
                let live = same
                    && scene_entities
                        .get(i)
                        .is_some_and(|e| self.runtime.world.entities.contains(*e));
                json!({ "index": i, "name": name, "keys": keys, "live": live })
            })
            .collect();
        let from_file: HashSet<Entity> = if same {
            scene_entities.iter().copied().collect()
        } else {
            HashSet::new()
        };
        let mut spawned = Vec::new();
        let mut total = 0;
        for r in self.runtime.world.entities.iter() {
            let e = r.entity();
            if from_file.contains(&e) {
                continue;
            }
            total += 1;
            if spawned.len() < LIVE_LISTED {
                let name = r.get::<&jengine::Name>().map(|n| n.0.clone());
                spawned.push(json!({ "id": e.id(), "name": name, "keys": self.keys_of(e) }));
            }
        }
        let components: Vec<serde_json::Value> = self
            .runtime
            .registry
            .components()
            .map(|b| json!({ "key": b.key(), "package": b.package() }))
            .collect();
        ok(json!({
            "scene": self.doc_scene,
            "running": self.runtime.scene(),
            "scenes": self.runtime.project.scene_names(),
            "entities": entities,
            "spawned": spawned,
            "spawned_total": total,
            "components": components,
        }))
    }

    /// A component's value with every field its type has: the file's value read back
    /// through the component (defaults filled in), or `None` when it does not load.
    pub(super) fn full_value(&self, key: &str, value: &Json) -> Option<serde_json::Value> {
        let binding = self.runtime.registry.binding(key)?;
        let raw = serde_json::value::RawValue::from_string(value.compact()).ok()?;
        let mut builder = jengine::hecs::EntityBuilder::new();
        binding.spawn(&mut builder, &raw).ok()?;
        let mut scratch = jengine::World::new();
        let e = scratch.spawn_built(&mut builder);
        binding.read(&scratch, e)
    }

    /// The fields of component `key` (whose full value is `full`) that hold a colour, each as
    /// its path of field names. Known from the component's own type, not from the value's
    /// shape: a field is a colour when the component takes `"#102030"` there and reads it back
    /// as that colour's four channels (so `[1, 1, 1, 1]` in a `tint` is one, and a size of four
    /// numbers is not).
    pub(super) fn colour_fields(&self, key: &str, full: &serde_json::Value) -> Vec<Vec<String>> {
        let Some(binding) = self.runtime.registry.binding(key) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        let mut path = Vec::new();
        colour_walk(binding, full, full, &mut path, &mut found);
        found
    }

    pub(super) fn entity(&self, request: &Request) -> Result<Response, Response> {
        if let Some(id) = request.param("live") {
            let id: u32 = id
                .parse()
                .map_err(|_| Response::error(400, "live: an entity id"))?;
            let e = self
                .live(id)
                .ok_or_else(|| Response::error(404, format!("no live entity {id}")))?;
            let components: Vec<serde_json::Value> = self
                .runtime
                .registry
                .components()
                .filter_map(|b| {
                    let value = b.read(&self.runtime.world, e)?;
                    Some(json!({ "key": b.key(), "package": b.package(), "type": b.type_name(), "live": value }))
                })
                .collect();
            let name = self
                .runtime
                .world
                .entities
                .get::<&jengine::Name>(e)
                .ok()
                .map(|n| n.0.clone());
            return Ok(ok(
                json!({ "live": id, "name": name, "components": components }),
            ));
        }
        let index: usize = request
            .param("index")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| Response::error(400, "index: an entity's place in the scene"))?;
        let value = self
            .doc
            .entity(index)
            .ok_or_else(|| Response::error(404, format!("the scene has no entity {index}")))?;
        let Json::Object(fields) = value else {
            return Ok(ok(json!({
                "index": index,
                "components": [],
                "error": format!("entity {index} is {}, not an object of components", value.kind()),
            })));
        };
        let live = if self.runtime.scene() == self.doc_scene {
            self.runtime
                .scene_entities()
                .get(index)
                .copied()
                .filter(|e| self.runtime.world.entities.contains(*e))
        } else {
            None
        };
        let mut components = Vec::new();
        for (key, v) in fields {
            let binding = self.runtime.registry.binding(key);
            let full = self.full_value(key, v);
            let colours = full
                .as_ref()
                .map(|f| self.colour_fields(key, f))
                .unwrap_or_default();
            components.push(json!({
                "key": key,
                "package": binding.map(|b| b.package()),
                "type": binding.map(|b| b.type_name()),
                "value": v,
                "full": full,
                "colours": colours,
                "live": live.and_then(|e| binding.and_then(|b| b.read(&self.runtime.world, e))),
            }));
        }
        let name = match value.get("name") {
            Some(Json::String(s)) => Some(s.clone()),
            _ => None,
        };
        Ok(ok(json!({
            "index": index,
            "name": name,
            "components": components,
            "error": null,
        })))
    }

    pub(super) fn registry(&self) -> Response {
        let registry = &self.runtime.registry;
        let metas: HashMap<String, jengine::host::PackageMeta> =
            jengine::host::listed_packages(&self.runtime.project)
                .unwrap_or_default()
                .into_iter()
                .map(|m| (m.name.clone(), m))
                .collect();
        let _root = jengine_viewport::workspace(&self.project_dir);
        let mut names: Vec<String> = vec![jengine::host::CORE.to_string()];
        names.extend(registry.packages().iter().cloned());
        let packages: Vec<serde_json::Value> = names
            .iter()
            .map(|name| {
                let meta = metas.get(name);
                let components: Vec<serde_json::Value> = registry
                    .components()
                    .filter(|c| c.package() == name)
                    .map(|c| json!({ "key": c.key(), "type": c.type_name(), "settable": c.settable() }))
                    .collect();
                let commands: Vec<serde_json::Value> = registry
                    .commands()
                    .iter()
                    .filter(|c| c.package() == name)
                    .map(|c| json!({ "name": c.qualified(), "signature": c.typed_signature() }))
                    .collect();
                let bags: Vec<&str> = registry
                    .bags()
                    .iter()
                    .filter(|b| b.package() == name)
                    .map(|b| b.key())
                    .collect();
                let tables: Vec<&str> = registry
                    .tables()
                    .iter()
                    .filter(|t| t.package() == name)
                    .map(|t| t.name())
                    .collect();
                let docs = self.docs_page(name).is_some();
                json!({
                    "name": name,
                    "version": meta.map(|m| m.version.as_str()),
                    "description": meta.map(|m| m.description.as_str()),
                    "components": components,
                    "commands": commands,
                    "bags": bags,
                    "tables": tables,
                    "docs": docs.then(|| format!("/docs/{name}")),
                })
            })
            .collect();
        ok(json!({ "packages": packages }))
    }

    /// A listed package's docs page: the project's own (`jengine docs PROJECT`) first, then
    /// the workspace's (`jengine docs`).
    fn docs_page(&self, name: &str) -> Option<std::path::PathBuf> {
        let file = format!("{name}.md");
        let root = jengine_viewport::workspace(&self.project_dir);
        [
            self.project_dir.join("docs/packages"),
            root.join("docs/packages"),
        ]
        .into_iter()
        .map(|dir| dir.join(&file))
        .find(|path| path.is_file())
    }

    pub(super) fn docs(&self, name: &str) -> Result<Response, Response> {
        // Only a listed package's page: the name picks a page, it never makes a path.
        if !self.runtime.registry.packages().iter().any(|p| p == name) {
            return Err(Response::error(
                404,
                format!("{name:?} is not a package this project lists"),
            ));
        }
        let text = self
            .docs_page(name)
            .and_then(|path| std::fs::read_to_string(path).ok())
            .ok_or_else(|| {
                Response::error(
                    404,
                    format!(
                        "no docs page for {name} in {} or the workspace's docs/packages; `jengine docs {}` writes a page for every package the project lists",
                        self.project_dir.join("docs/packages").display(),
                        self.project_dir.display()
                    ),
                )
            })?;
        Ok(Response {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: super::markdown::page(name, &text).into_bytes(),
            headers: Vec::new(),
        })
    }

    pub(super) fn texture(&self, request: &Request) -> Result<Response, Response> {
        let name = request
            .param("name")
            .ok_or_else(|| Response::error(400, "name: a texture's name"))?;
        check_asset_name(name).map_err(|e| Response::error(400, format!("texture {e}")))?;
        if !name.to_ascii_lowercase().ends_with(".png") {
            return Err(Response::error(
                400,
                format!("texture {name:?}: only PNG textures are shown"),
            ));
        }
        let path = self.project_dir.join("assets/textures").join(name);
        let bytes = std::fs::read(&path)
            .map_err(|e| Response::error(404, format!("assets/textures/{name}: {e}")))?;
        Ok(Response {
            status: 200,
            content_type: "image/png",
            body: bytes,
            headers: Vec::new(),
        })
    }
}

/// The colour a probe writes: `#102030`, read back as these channels.
const PROBE: (&str, [f64; 4]) = ("#102030", [16.0 / 255.0, 32.0 / 255.0, 48.0 / 255.0, 1.0]);

/// Looks through the fields of `here` (at `path` in the component's `full` value) for the ones
/// that take [`PROBE`] and read it back as its channels; nested objects are looked through too.
fn colour_walk(
    binding: &jengine::host::ComponentBinding,
    full: &serde_json::Value,
    here: &serde_json::Value,
    path: &mut Vec<String>,
    found: &mut Vec<Vec<String>>,
) {
    let serde_json::Value::Object(fields) = here else {
        return;
    };
    for (name, value) in fields {
        path.push(name.clone());
        let shaped = match value {
            serde_json::Value::Array(items) => {
                (3..=4).contains(&items.len()) && items.iter().all(|i| i.is_number())
            }
            serde_json::Value::String(_) | serde_json::Value::Null => true,
            _ => false,
        };
        if value.is_object() {
            colour_walk(binding, full, value, path, found);
        } else if shaped && takes_colour(binding, full, path) {
            found.push(path.clone());
        }
        path.pop();
    }
}

/// Whether the component takes [`PROBE`] at `path` of its `full` value and reads it back as
/// that colour.
fn takes_colour(
    binding: &jengine::host::ComponentBinding,
    full: &serde_json::Value,
    path: &[String],
) -> bool {
    let mut probe = full.clone();
    let mut at = &mut probe;
    for step in path {
        match at.get_mut(step) {
            Some(next) => at = next,
            None => return false,
        }
    }
    *at = serde_json::Value::String(PROBE.0.into());
    let Ok(raw) = serde_json::value::RawValue::from_string(probe.to_string()) else {
        return false;
    };
    let mut builder = jengine::hecs::EntityBuilder::new();
    if binding.spawn(&mut builder, &raw).is_err() {
        return false;
    }
    let mut scratch = jengine::World::new();
    let e = scratch.spawn_built(&mut builder);
    let Some(back) = binding.read(&scratch, e) else {
        return false;
    };
    let mut at = &back;
    for step in path {
        match at.get(step) {
            Some(next) => at = next,
            None => return false,
        }
    }
    match at.as_array() {
        Some(items) if items.len() == 4 => items
            .iter()
            .zip(PROBE.1)
            .all(|(v, want)| v.as_f64().is_some_and(|v| (v - want).abs() < 1e-4)),
        _ => false,
    }
}
