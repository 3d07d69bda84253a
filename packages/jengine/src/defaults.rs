//! Files a package ships for the projects that list it, and the asset fields its components
//! read.
//!
//! A package registers default files by their name inside a project's `assets/` folder
//! ([`Registry::asset`](crate::Registry::asset)): `textures/kotoba/tile.png` is what a project
//! would otherwise have to supply as `assets/textures/kotoba/tile.png`. The host reads a name
//! from the project first and falls back to the defaults ([`with_defaults`]), so a project's own
//! file always wins. A component says which of its fields name files
//! ([`Registry::component_assets`](crate::Registry::component_assets)), and names its code uses
//! without a field, so `jengine check` can say which file a scene wants before anything draws.

use std::path::Path;
use std::sync::Arc;

use crate::assets::{AssetEntry, AssetError, AssetProblem, Assets, MemoryAssets};
use crate::scene::AssetKind;

/// Where a component's file name comes from: a field of its value, or the package's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetSource {
    /// A field of the component, as a path of keys: `tile`, `sheet.texture`; `*` stands for
    /// every entry of a map or list (`sheet.art.*.texture`). The field may hold a name, or a
    /// list of names; an empty name names nothing.
    Field(&'static str),
    /// A file the package's code draws or plays whenever the component is in a scene, named
    /// from its kind's folder (`crawler/monsters.png`).
    Code(&'static str),
}

/// One file a component names: of what kind, and where the name comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssetField {
    /// Texture, font or sound.
    pub kind: AssetKind,
    /// The field holding the name, or the name the code uses.
    pub source: AssetSource,
}

impl AssetField {
    /// A field naming a texture under `assets/textures/`.
    pub const fn texture(field: &'static str) -> AssetField {
        AssetField {
            kind: AssetKind::Texture,
            source: AssetSource::Field(field),
        }
    }

    /// A field naming a font under `assets/fonts/` (empty: the host's bundled font).
    pub const fn font(field: &'static str) -> AssetField {
        AssetField {
            kind: AssetKind::Font,
            source: AssetSource::Field(field),
        }
    }

    /// A field naming a sound under `assets/audio/`.
    pub const fn sound(field: &'static str) -> AssetField {
        AssetField {
            kind: AssetKind::Sound,
            source: AssetSource::Field(field),
        }
    }

    /// A file of `kind` the package's code names itself whenever the component is in a
    /// scene, from the kind's folder.
    pub const fn from_code(kind: AssetKind, name: &'static str) -> AssetField {
        AssetField {
            kind,
            source: AssetSource::Code(name),
        }
    }

    /// The names this declaration finds in a component's value (defaults filled in), each with
    /// the field it came from (`sheet.art.m_rat.texture`), or `(code)` for a name from code.
    pub fn names_in(&self, value: &serde_json::Value) -> Vec<(String, String)> {
        match self.source {
            AssetSource::Code(name) => vec![("(code)".to_string(), name.to_string())],
            AssetSource::Field(path) => {
                let mut out = Vec::new();
                let parts: Vec<&str> = path.split('.').collect();
                walk(value, &parts, String::new(), &mut out);
                out
            }
        }
    }
}

/// Follows `parts` down `value`, collecting every non-empty string (or string in a list) at
/// the end with the path that reached it.
fn walk(value: &serde_json::Value, parts: &[&str], at: String, out: &mut Vec<(String, String)>) {
    let join = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    let Some((first, rest)) = parts.split_first() else {
        match value {
            serde_json::Value::String(name) if !name.is_empty() => {
                out.push((at, name.clone()));
            }
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let serde_json::Value::String(name) = item
                        && !name.is_empty()
                    {
                        out.push((format!("{at}[{i}]"), name.clone()));
                    }
                }
            }
            _ => {}
        }
        return;
    };
    match (value, *first) {
        (serde_json::Value::Object(map), "*") => {
            for (key, inner) in map {
                walk(inner, rest, join(key), out);
            }
        }
        (serde_json::Value::Array(items), "*") => {
            for (i, inner) in items.iter().enumerate() {
                walk(inner, rest, format!("{at}[{i}]"), out);
            }
        }
        (serde_json::Value::Object(map), key) => {
            if let Some(inner) = map.get(key) {
                walk(inner, rest, join(key), out);
            }
        }
        _ => {}
    }
}

/// The folder under a project's `assets/` that files of `kind` are named from.
pub fn kind_folder(kind: AssetKind) -> &'static str {
    match kind {
        AssetKind::Texture => "textures",
        AssetKind::Font => "fonts",
        AssetKind::Sound => "audio",
    }
}

/// The default files of every listed package, as a resource in the world: named from a
/// project's top (`assets/textures/kotoba/tile.png`). The runtime puts it in; a renderer reads a
/// texture or font from it when the project has no file of that name.
#[derive(Clone)]
pub struct DefaultAssets(pub Arc<dyn Assets>);

impl std::fmt::Debug for DefaultAssets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DefaultAssets({})", self.0.root().display())
    }
}

/// The set of default files packages registered, named from a project's top.
pub(crate) fn memory_of<'a>(files: impl Iterator<Item = (&'a str, &'static [u8])>) -> MemoryAssets {
    let mut set = MemoryAssets::named("(package defaults)");
    for (name, bytes) in files {
        // Names were checked when registered, and two never share a name.
        let _ = set.insert(&format!("assets/{name}"), bytes);
    }
    set
}

/// `project` with `defaults` under it: a name is read from the project, and from the defaults
/// only when the project has no file of that name; a folder lists what both hold. Errors other
/// than a missing file (a refused name, a file too large, a link leaving the folder) are the
/// project's and are never papered over by a default.
pub fn with_defaults(project: Arc<dyn Assets>, defaults: Arc<dyn Assets>) -> Arc<dyn Assets> {
    Arc::new(Layered { project, defaults })
}

struct Layered {
    project: Arc<dyn Assets>,
    defaults: Arc<dyn Assets>,
}

impl Assets for Layered {
    fn root(&self) -> &Path {
        self.project.root()
    }

    fn read_at_most(&self, name: &str, most: u64) -> Result<Vec<u8>, AssetError> {
        match self.project.read_at_most(name, most) {
            Err(e) if e.problem == AssetProblem::Missing => {
                self.defaults
                    .read_at_most(name, most)
                    .map_err(|d| match d.problem {
                        // Neither has it: say where the project's file would be.
                        AssetProblem::Missing => e,
                        _ => d,
                    })
            }
            other => other,
        }
    }

    fn list(&self, folder: &str) -> Result<Vec<AssetEntry>, AssetError> {
        let own = self.project.list(folder);
        let more = self.defaults.list(folder);
        match (own, more) {
            (Ok(mut own), Ok(more)) => {
                for entry in more {
                    if !own.iter().any(|e| e.name == entry.name) {
                        own.push(entry);
                    }
                }
                own.sort();
                Ok(own)
            }
            (Err(e), Ok(more)) if e.problem == AssetProblem::Missing => Ok(more),
            (own, _) => own,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(files: &[(&str, &[u8])]) -> Arc<dyn Assets> {
        let mut m = MemoryAssets::named("game");
        for (name, bytes) in files {
            m.insert(name, bytes.to_vec()).unwrap();
        }
        Arc::new(m)
    }

    #[test]
    fn the_project_wins_and_the_defaults_fill_in() {
        let project = set(&[("assets/textures/a.png", b"mine")]);
        let defaults = set(&[
            ("assets/textures/a.png", b"theirs"),
            ("assets/textures/k/b.png", b"default"),
        ]);
        let both = with_defaults(project, defaults);
        assert_eq!(both.read("assets/textures/a.png").unwrap(), b"mine");
        assert_eq!(both.read("assets/textures/k/b.png").unwrap(), b"default");
        let err = both.read("assets/textures/c.png").unwrap_err();
        assert_eq!(err.to_string(), "game/assets/textures/c.png: no such file");
        let names: Vec<String> = both
            .list("assets/textures")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["a.png", "k"]);
        assert_eq!(both.list("assets/textures/k").unwrap().len(), 1);
        assert!(matches!(
            both.read("../x.png").unwrap_err().problem,
            AssetProblem::Name(_)
        ));
    }

    #[test]
    fn a_too_large_project_file_is_not_replaced_by_a_default() {
        let both = with_defaults(
            set(&[("assets/t.png", b"0123456789")]),
            set(&[("assets/t.png", b"0")]),
        );
        assert!(matches!(
            both.read_at_most("assets/t.png", 4).unwrap_err().problem,
            AssetProblem::TooLarge { size: 10, most: 4 }
        ));
    }

    #[test]
    fn fields_are_followed_through_maps_and_lists() {
        let value = serde_json::json!({
            "tile": "k/tile.png",
            "empty": "",
            "sheet": {"texture": "s.png", "art": {"rat": {"texture": "m.png"}, "bat": {"texture": ""}}},
            "list": ["a.png", "", 3, "b.png"],
        });
        let names = |f: AssetField| f.names_in(&value);
        assert_eq!(
            names(AssetField::texture("tile")),
            [("tile".to_string(), "k/tile.png".to_string())]
        );
        assert!(names(AssetField::texture("empty")).is_empty());
        assert!(names(AssetField::texture("nowhere.at.all")).is_empty());
        assert_eq!(
            names(AssetField::texture("sheet.art.*.texture")),
            [("sheet.art.rat.texture".to_string(), "m.png".to_string())]
        );
        assert_eq!(
            names(AssetField::texture("list")),
            [
                ("list[0]".to_string(), "a.png".to_string()),
                ("list[3]".to_string(), "b.png".to_string())
            ]
        );
        assert_eq!(
            names(AssetField::from_code(AssetKind::Texture, "c.png")),
            [("(code)".to_string(), "c.png".to_string())]
        );
    }
}
