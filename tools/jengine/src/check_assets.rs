//! The files packages' components name, for `jengine check`: every field a package declares as
//! naming a texture, font or sound ([`jengine::Registry::component_assets`]), read from each
//! scene with the component's defaults filled in, and looked up as drawing would look it up:
//! in the project first, then in the default files the listed packages ship.

use std::collections::BTreeMap;
use std::sync::Arc;

use jengine::Registry;
use jengine::host::{
    AssetKind, AssetProblem, Assets, Project, SceneError, check_asset_name, check_name,
    kind_folder, with_defaults, within,
};
use serde_json::value::RawValue;

/// The project's files with the listed packages' defaults under them, named from the
/// project's top: what the runtime reads through.
pub fn project_assets(project: &Project, registry: &Registry) -> Arc<dyn Assets> {
    with_defaults(project.assets.clone(), registry.default_assets())
}

/// Reads the file `name` of `kind` from `assets` (a project's files, named from its top) and
/// decodes it as the renderer or mixer would; `Err` says why it cannot be used.
pub fn decode(assets: &Arc<dyn Assets>, kind: AssetKind, name: &str) -> Result<(), String> {
    let folder = within(assets, "assets");
    match kind {
        AssetKind::Texture => crate::render::check_texture_in(folder, name),
        AssetKind::Font => crate::render::check_font_in(folder, name),
        AssetKind::Sound => crate::audio::check_file_in(folder, name),
    }
}

/// Every file a package component in the scenes `scenes` names that cannot be used: one
/// problem per file per scene, at its first use, naming the scene, entity, key and field, the
/// file wanted and where the project would put it.
pub fn component_asset_problems(
    project: &Project,
    registry: &Registry,
    scenes: &[String],
) -> Vec<String> {
    let assets = project_assets(project, registry);
    let mut found: BTreeMap<(AssetKind, String), Result<(), String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for scene in scenes {
        let file = format!("assets/scenes/{scene}.scene");
        let Ok(text) = project.assets.read_text(&file) else {
            // The scene check says why it cannot be read.
            continue;
        };
        let uses = uses_in(&text, registry);
        let mut said: Vec<(AssetKind, &str)> = Vec::new();
        for (i, used) in uses.iter().enumerate() {
            if check_asset_name(&used.name).is_err() {
                // The component's own check (or the scene's) refuses the name.
                continue;
            }
            if said.contains(&(used.kind, used.name.as_str())) {
                continue;
            }
            let result = found
                .entry((used.kind, used.name.clone()))
                .or_insert_with(|| lookup(project, &assets, registry, used.kind, &used.name));
            let Err(problem) = result else {
                continue;
            };
            said.push((used.kind, used.name.as_str()));
            let more = uses[i + 1..]
                .iter()
                .filter(|u| u.kind == used.kind && u.name == used.name)
                .count();
            let tail = match more {
                0 => String::new(),
                1 => " (and 1 more use in this scene)".to_string(),
                n => format!(" (and {n} more uses in this scene)"),
            };
            let error = SceneError {
                file: file.clone(),
                entity: Some((used.entity, used.entity_name.clone())),
                key: Some(used.key.clone()),
                message: format!("{}: {problem}{tail}", describe(used)),
            };
            problems.push(error.to_string());
        }
    }
    problems
}

/// One file a package component names in a scene.
struct Use {
    entity: usize,
    entity_name: Option<String>,
    key: String,
    field: String,
    kind: AssetKind,
    name: String,
}

fn kind_word(kind: AssetKind) -> &'static str {
    match kind {
        AssetKind::Texture => "texture",
        AssetKind::Font => "font",
        AssetKind::Sound => "sound",
    }
}

fn describe(used: &Use) -> String {
    let what = kind_word(used.kind);
    if used.field == "(code)" {
        format!("the package draws the {what} {:?} itself", used.name)
    } else {
        format!("field {:?} names the {what} {:?}", used.field, used.name)
    }
}

/// Whether `name` can be used, and if not, why, in words that say where it was looked for.
fn lookup(
    project: &Project,
    assets: &Arc<dyn Assets>,
    registry: &Registry,
    kind: AssetKind,
    name: &str,
) -> Result<(), String> {
    let path = format!("assets/{}/{name}", kind_folder(kind));
    if missing(&**assets, &path) {
        let listed = registry.packages().join(", ");
        let listed = if listed.is_empty() {
            "none listed".to_string()
        } else {
            listed
        };
        return Err(format!(
            "the project has no file {path} and no listed package ships one (listed: \
             {listed}); add it there"
        ));
    }
    decode(assets, kind, name).map_err(|problem| match registry.default_asset(&path[7..]) {
        Some((package, _)) if missing(&*project.assets, &path) => {
            format!("{problem} (the default shipped by {package})")
        }
        _ => problem,
    })
}

/// Whether `assets` has no file at `path`.
fn missing(assets: &dyn Assets, path: &str) -> bool {
    assets
        .read_at_most(path, 0)
        .is_err_and(|e| e.problem == AssetProblem::Missing)
}

/// Every file package components name in a version 2 scene's text, entity by entity.
/// Entities that are not objects, and keys with no declared asset fields, name nothing.
fn uses_in(text: &str, registry: &Registry) -> Vec<Use> {
    #[derive(serde::Deserialize)]
    struct RawScene<'a> {
        #[serde(default)]
        version: Option<serde_json::Value>,
        #[serde(borrow, default)]
        entities: Vec<&'a RawValue>,
    }
    let Ok(scene) = serde_json::from_str::<RawScene>(text) else {
        return Vec::new();
    };
    // Package keys in a version 1 scene are kept inert: they draw nothing, so they want nothing.
    if scene.version != Some(serde_json::json!(2)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, raw) in scene.entities.iter().enumerate() {
        let Ok(fields) = serde_json::from_str::<BTreeMap<String, &RawValue>>(raw.get()) else {
            continue;
        };
        let entity_name = fields
            .get("name")
            .and_then(|n| serde_json::from_str::<String>(n.get()).ok())
            .filter(|n| check_name(n).is_ok());
        // An entity's keys are taken sorted, so the order never depends on how it was written.
        for (key, value) in &fields {
            let Some(binding) = registry.binding(key) else {
                continue;
            };
            if binding.asset_fields().is_empty() {
                continue;
            }
            for (kind, field, name) in binding.asset_uses(value) {
                out.push(Use {
                    entity: index,
                    entity_name: entity_name.clone(),
                    key: key.clone(),
                    field,
                    kind,
                    name,
                });
            }
        }
    }
    out
}
