//! What the parser fuzz targets share: a registry filled by every shipped package, and the
//! shipped projects' own tables and scenes.
//!
//! A fuzzed scene is parsed against the same registry a game links and then checked against
//! real tables; a fuzzed table replaces one real table of a real project, so the packages' row
//! validators and the scenes that name the table both read it. Everything is built once per
//! process (libFuzzer calls the target on one thread).

use std::path::{Path, PathBuf};

use jengine::host::Scene;
use jengine::{Registry, Tables};

/// One shipped project as `jengine check` sees it.
pub struct Project {
    /// The folder's name (`rpg-classics`).
    pub name: String,
    /// Its `data/*.json` tables.
    pub tables: Tables,
    /// The stems of its table files (`stairs_levels`).
    pub table_names: Vec<String>,
    /// Its scenes that parse.
    pub scenes: Vec<Scene>,
}

/// The registry and projects every target reads.
pub struct Setting {
    /// The core and every package under `packages/`.
    pub registry: Registry,
    /// Every project under `projects/`.
    pub projects: Vec<Project>,
}

thread_local! {
    static SETTING: Setting = Setting::load();
}

/// Runs `f` with the process's [`Setting`], building it on first use.
pub fn with_setting<R>(f: impl FnOnce(&Setting) -> R) -> R {
    SETTING.with(f)
}

/// The repository's root (the folder above this crate).
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the fuzz crate lives in the repository")
        .to_path_buf()
}

/// The registry a game linking every shipped package would have.
pub fn registry() -> Registry {
    let registry = Registry::with(&[
        &jengine_net::NetPackage,
        &jengine_online::OnlinePackage,
        &jengine_kotoba::KotobaPackage,
        &jengine_crawler::CrawlerPackage,
        &jengine_miau::MiauPackage,
    ]);
    assert!(
        registry.problems().is_empty(),
        "the shipped packages do not register together: {:?}",
        registry.problems()
    );
    registry
}

impl Setting {
    fn load() -> Setting {
        let registry = registry();
        let mut projects = Vec::new();
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(repository().join("projects"))
            .expect("projects/ is readable")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("project.jengine").is_file())
            .collect();
        dirs.sort();
        for dir in dirs {
            let (tables, _) = Tables::load_dir(&dir);
            let table_names = tables.names().map(str::to_string).collect();
            let mut scenes = Vec::new();
            if let Ok(entries) = std::fs::read_dir(dir.join("assets/scenes")) {
                let mut files: Vec<PathBuf> =
                    entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
                files.sort();
                for file in files {
                    let Ok(text) = std::fs::read_to_string(&file) else {
                        continue;
                    };
                    let name = file.display().to_string();
                    if let Ok(scene) = Scene::parse(&name, &text, &registry) {
                        scenes.push(scene);
                    }
                }
            }
            projects.push(Project {
                name: dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                tables,
                table_names,
                scenes,
            });
        }
        assert!(!projects.is_empty(), "no project found under projects/");
        Setting { registry, projects }
    }

    /// The project that has a table called `name`, or the first project.
    pub fn project_with_table(&self, name: &str) -> &Project {
        self.projects
            .iter()
            .find(|p| p.table_names.iter().any(|t| t == name))
            .unwrap_or(&self.projects[0])
    }
}
