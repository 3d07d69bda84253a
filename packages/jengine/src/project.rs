//! `project.jengine`: a project's name, start scene, window and the packages it lists.
//!
//! The file is JSON. Packages are listed by name with a path source, relative to the
//! project's folder; the listing, not the crate graph, decides what gets registered.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The window a project asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Window {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Title bar text.
    pub title: String,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            width: 1280,
            height: 720,
            title: String::new(),
        }
    }
}

/// Where a listed package's crate is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Source {
    /// A crate folder, relative to the project.
    Path {
        /// The folder holding the package's `Cargo.toml`.
        path: String,
    },
}

/// One entry of the top-level `packages` array.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackageRef {
    /// The package's crate name.
    pub name: String,
    /// Where it is.
    pub source: Source,
}

/// The contents of `project.jengine`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectFile {
    /// The project's name.
    pub name: String,
    /// Its version.
    #[serde(default)]
    pub version: String,
    /// The scene to load first, by name (`title` for `assets/scenes/title.scene`).
    pub start_scene: String,
    /// The window.
    #[serde(default)]
    pub window: Window,
    /// The packages to register, dependencies included.
    #[serde(default)]
    pub packages: Vec<PackageRef>,
}

/// A project file that could not be read, with where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectError {
    /// The file.
    pub file: PathBuf,
    /// What is wrong (with line and column for JSON errors, and the field path).
    pub message: String,
}

impl fmt::Display for ProjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl std::error::Error for ProjectError {}

/// A loaded project: its folder and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The project's folder.
    pub dir: PathBuf,
    /// What `project.jengine` says.
    pub file: ProjectFile,
}

impl Project {
    /// Reads `<dir>/project.jengine`.
    pub fn load(dir: &Path) -> Result<Project, ProjectError> {
        let path = dir.join("project.jengine");
        let text = std::fs::read_to_string(&path).map_err(|e| ProjectError {
            file: path.clone(),
            message: format!("cannot read: {e}"),
        })?;
        let file = ProjectFile::parse(&text).map_err(|message| ProjectError {
            file: path.clone(),
            message,
        })?;
        Ok(Project {
            dir: dir.to_path_buf(),
            file,
        })
    }

    /// A listed package's folder, resolved against the project folder.
    pub fn package_dir(&self, package: &PackageRef) -> PathBuf {
        match &package.source {
            Source::Path { path } => self.dir.join(path),
        }
    }

    /// `<dir>/assets/scenes/<name>.scene`.
    pub fn scene_path(&self, name: &str) -> PathBuf {
        self.dir.join("assets/scenes").join(format!("{name}.scene"))
    }

    /// `<dir>/assets/scripts/<file>`.
    pub fn script_path(&self, file: &str) -> PathBuf {
        self.dir.join("assets/scripts").join(file)
    }

    /// The names of every scene under `assets/scenes`, sorted.
    pub fn scene_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.join("assets/scenes"))
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let p = e.path();
                (p.extension()? == "scene").then(|| p.file_stem()?.to_str().map(String::from))?
            })
            .collect();
        names.sort();
        names
    }
}

impl ProjectFile {
    /// Parses and checks the file's text.
    pub fn parse(text: &str) -> Result<ProjectFile, String> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let file: ProjectFile = serde_path_to_error::deserialize(de)
            .map_err(|e| crate::table::describe_path_error(&e))?;
        if file.name.trim().is_empty() {
            return Err("name: must not be empty".into());
        }
        if file.start_scene.trim().is_empty() {
            return Err("start_scene: must name a scene".into());
        }
        if file.window.width == 0 || file.window.height == 0 {
            return Err(format!(
                "window: size must be above zero, got {}x{}",
                file.window.width, file.window.height
            ));
        }
        for (i, p) in file.packages.iter().enumerate() {
            if file.packages[..i].iter().any(|q| q.name == p.name) {
                return Err(format!("packages[{i}]: {} is listed twice", p.name));
            }
        }
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_project_file_reads_its_packages() {
        let text = r#"{
            "name": "demo", "version": "0.1.0", "start_scene": "main",
            "window": {"width": 640, "height": 360, "title": "Demo"},
            "packages": [{"name": "jengine-counter", "source": {"type": "path", "path": "../counter"}}]
        }"#;
        let file = ProjectFile::parse(text).unwrap();
        assert_eq!(file.packages[0].name, "jengine-counter");
        assert_eq!(file.window.width, 640);
    }

    #[test]
    fn errors_name_the_field_and_place() {
        let text = r#"{"name": "demo", "start_scene": "main",
            "packages": [{"name": "x", "source": {"type": "git", "path": "y"}}]}"#;
        let err = ProjectFile::parse(text).unwrap_err();
        assert!(err.starts_with("packages[0].source"), "{err}");
        assert!(err.contains("unknown variant `git`"), "{err}");
        let err = ProjectFile::parse("{\"name\": \"demo\",").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        let err = ProjectFile::parse(r#"{"name": "demo", "start_scene": ""}"#).unwrap_err();
        assert!(err.contains("start_scene"), "{err}");
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic_the_project_parser(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = ProjectFile::parse(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn random_json_never_panics_the_project_parser(v in crate::testing::json_value()) {
            let _ = ProjectFile::parse(&v.to_string());
            let wrapped = serde_json::json!({"name": "p", "start_scene": "s", "packages": v, "window": v});
            let _ = ProjectFile::parse(&wrapped.to_string());
        }
    }
}
