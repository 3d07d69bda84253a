//! Package metadata from `[package.metadata.jengine]` and the dependency-coverage rule.
//!
//! A package names the packages it needs in `depends`; a project must list all of them,
//! transitively, because listing is what registers a package. Compiling one in is not enough.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::project::{FileError, PackageRef, Project, Source};

/// What a package's `Cargo.toml` says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageMeta {
    /// Crate name (`jengine-kotoba`).
    pub name: String,
    /// Crate version.
    pub version: String,
    /// The crate's one-line description.
    pub description: String,
    /// The type implementing `Package` (`KotobaPackage`).
    pub entry: String,
    /// The Lua namespace its commands live in, if it has commands.
    pub namespace: Option<String>,
    /// The packages it needs listed beside it.
    pub depends: Vec<String>,
    /// The crates under it that compile C, each with what it is (`rquickjs-sys`: `QuickJS, …`):
    /// a first build says so before it starts, since they take longest.
    pub c: Vec<(String, String)>,
    /// The crate folder.
    pub dir: PathBuf,
}

impl PackageMeta {
    /// The crate's Rust name (`jengine_kotoba`).
    pub fn crate_ident(&self) -> String {
        self.name.replace('-', "_")
    }

    /// The Rust path of the entry point: the entry as written when it names its crate
    /// (`jengine_online::NetPackage`), else inside this crate (`jengine_kotoba::KotobaPackage`).
    pub fn entry_path(&self) -> String {
        if self.entry.contains("::") {
            self.entry.clone()
        } else {
            format!("{}::{}", self.crate_ident(), self.entry)
        }
    }
}

#[derive(Deserialize)]
struct Manifest {
    package: ManifestPackage,
}

#[derive(Deserialize)]
struct ManifestPackage {
    name: String,
    #[serde(default)]
    version: Option<toml::Value>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    metadata: Option<ManifestMetadata>,
}

#[derive(Deserialize)]
struct ManifestMetadata {
    jengine: Option<JengineMeta>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JengineMeta {
    entry: String,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    depends: Vec<String>,
    #[serde(default)]
    c: std::collections::BTreeMap<String, String>,
}

impl PackageMeta {
    /// Reads `<dir>/Cargo.toml`.
    pub fn read(dir: &Path) -> Result<PackageMeta, FileError> {
        let file = dir.join("Cargo.toml");
        let err = |message: String| FileError {
            file: file.clone(),
            message,
        };
        if !dir.is_dir() {
            return Err(FileError {
                file: dir.to_path_buf(),
                message: "package folder does not exist".into(),
            });
        }
        let text = std::fs::read_to_string(&file).map_err(|e| err(format!("cannot read: {e}")))?;
        let manifest: Manifest = toml::from_str(&text).map_err(|e| err(e.to_string()))?;
        let p = manifest.package;
        let jengine = p.metadata.and_then(|m| m.jengine).ok_or_else(|| {
            err("no [package.metadata.jengine] table: this crate is not a jengine package".into())
        })?;
        let version = match p.version {
            Some(toml::Value::String(v)) => v,
            _ => workspace_version(dir).unwrap_or_else(|| "0.0.0".into()),
        };
        Ok(PackageMeta {
            name: p.name,
            version,
            description: p.description.unwrap_or_default(),
            entry: jengine.entry,
            namespace: jengine.namespace,
            depends: jengine.depends,
            c: jengine.c.into_iter().collect(),
            dir: dir.to_path_buf(),
        })
    }
}

/// The `[workspace.package] version` of the workspace above `dir`, for `version.workspace = true`.
fn workspace_version(dir: &Path) -> Option<String> {
    let root = workspace_root(dir)?;
    let text = std::fs::read_to_string(root.join("Cargo.toml")).ok()?;
    let v: toml::Value = toml::from_str(&text).ok()?;
    Some(
        v.get("workspace")?
            .get("package")?
            .get("version")?
            .as_str()?
            .to_string(),
    )
}

/// The nearest folder at or above `start` whose `Cargo.toml` has a `[workspace]` table.
pub fn workspace_root(start: &Path) -> Option<PathBuf> {
    let start = std::fs::canonicalize(start).ok()?;
    start.ancestors().find_map(|dir| {
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        let v: toml::Value = toml::from_str(&text).ok()?;
        v.get("workspace").map(|_| dir.to_path_buf())
    })
}

/// Reads every listed package's metadata and checks that the listing covers every
/// dependency, transitively. Returns the metadata in listing order, or every problem.
pub fn listed_packages(project: &Project) -> Result<Vec<PackageMeta>, Vec<String>> {
    let mut metas = Vec::new();
    let mut problems = Vec::new();
    let file = project.dir.join("project.jengine");
    for p in &project.file.packages {
        match PackageMeta::read(&project.package_dir(p)) {
            Ok(meta) if meta.name != p.name => problems.push(format!(
                "{}: package {:?} points at {}, which is the crate {:?}",
                file.display(),
                p.name,
                project.package_dir(p).display(),
                meta.name
            )),
            Ok(meta) => metas.push(meta),
            Err(e) => problems.push(format!("{}: package {:?}: {e}", file.display(), p.name)),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    problems.extend(coverage_problems(project, &metas));
    if problems.is_empty() {
        Ok(metas)
    } else {
        Err(problems)
    }
}

/// The dependency-coverage rule: one message per listed package with unlisted dependencies,
/// naming each one and the entry to add.
pub fn coverage_problems(project: &Project, metas: &[PackageMeta]) -> Vec<String> {
    let listed: BTreeSet<&str> = project
        .file
        .packages
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    let mut problems = Vec::new();
    for meta in metas {
        let missing = transitive_missing(meta, &listed);
        if missing.is_empty() {
            continue;
        }
        let entries: Vec<String> = missing
            .iter()
            .map(|(name, dir)| {
                let entry = PackageRef {
                    name: name.clone(),
                    source: Source::Path {
                        path: relative_to(&project.dir, dir),
                    },
                };
                serde_json::to_string(&entry).unwrap_or_else(|_| name.clone())
            })
            .collect();
        let names: Vec<&str> = missing.iter().map(|(n, _)| n.as_str()).collect();
        problems.push(format!(
            "{}: lists {}, which depends on {} (not listed): add {} to \"packages\"",
            project.dir.join("project.jengine").display(),
            meta.name,
            names.join(" and "),
            entries.join(" and ")
        ));
    }
    problems
}

/// Dependencies of `meta` (and theirs) not in `listed`, each with where it was looked for.
fn transitive_missing(meta: &PackageMeta, listed: &BTreeSet<&str>) -> Vec<(String, PathBuf)> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<(String, PathBuf)> = meta
        .depends
        .iter()
        .map(|d| (d.clone(), sibling(&meta.dir, d)))
        .collect();
    let mut missing = Vec::new();
    while let Some((name, dir)) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if !listed.contains(name.as_str()) {
            missing.push((name.clone(), dir.clone()));
        }
        if let Ok(dep) = PackageMeta::read(&dir) {
            stack.extend(
                dep.depends
                    .iter()
                    .map(|d| (d.clone(), sibling(&dep.dir, d))),
            );
        }
    }
    missing.sort();
    missing
}

/// Where a dependency named `name` of the package at `dir` lives: beside it.
fn sibling(dir: &Path, name: &str) -> PathBuf {
    dir.parent()
        .map(|p| p.join(name))
        .unwrap_or_else(|| PathBuf::from(name))
}

/// `target` relative to `base` when both resolve, for messages a user can paste.
fn relative_to(base: &Path, target: &Path) -> String {
    let (Ok(base), Ok(target)) = (std::fs::canonicalize(base), std::fs::canonicalize(target))
    else {
        return target.display().to_string();
    };
    let common = base
        .components()
        .zip(target.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = base.components().count() - common;
    let mut parts: Vec<String> = vec!["..".to_string(); ups];
    parts.extend(
        target
            .components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(root: &Path, name: &str, depends: &[&str]) {
        let dir = root.join("packages").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let deps: Vec<String> = depends.iter().map(|d| format!("{d:?}")).collect();
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = {name:?}\nversion = \"0.2.0\"\n\n[package.metadata.jengine]\nentry = \"P\"\nnamespace = \"N\"\ndepends = [{}]\n",
                deps.join(", ")
            ),
        )
        .unwrap();
    }

    fn project(root: &Path, listed: &[&str]) -> Project {
        let dir = root.join("projects/game");
        std::fs::create_dir_all(&dir).unwrap();
        let packages: Vec<String> = listed
            .iter()
            .map(|n| format!(r#"{{"name": {n:?}, "source": {{"type": "path", "path": "../../packages/{n}"}}}}"#))
            .collect();
        std::fs::write(
            dir.join("project.jengine"),
            format!(
                r#"{{"name": "game", "start_scene": "main", "packages": [{}]}}"#,
                packages.join(",")
            ),
        )
        .unwrap();
        Project::load(&dir).unwrap()
    }

    /// The crates a package builds from C are read from `c`; a `c` of the wrong shape is a
    /// refusal naming the file, never a panic or a quiet empty list.
    #[test]
    fn the_c_a_package_builds_is_read_and_a_bad_c_is_refused() {
        let root = tempfile::tempdir().unwrap();
        package(root.path(), "quick", &[]);
        let dir = root.path().join("packages/quick");
        let file = dir.join("Cargo.toml");
        let base = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            format!("{base}c = {{ \"rquickjs-sys\" = \"QuickJS\" }}\n"),
        )
        .unwrap();
        let meta = PackageMeta::read(&dir).unwrap();
        assert_eq!(
            meta.c,
            [("rquickjs-sys".to_string(), "QuickJS".to_string())]
        );
        for bad in [
            "c = 5",
            "c = [\"rquickjs-sys\"]",
            "c = { \"rquickjs-sys\" = 3 }",
        ] {
            std::fs::write(&file, format!("{base}{bad}\n")).unwrap();
            let e = PackageMeta::read(&dir).unwrap_err();
            assert_eq!(e.file, file, "{bad}");
            assert!(!e.message.is_empty(), "{bad}");
        }
    }

    #[test]
    fn a_project_listing_only_the_outer_package_is_told_what_to_add() {
        let root = tempfile::tempdir().unwrap();
        package(root.path(), "jengine-kotoba", &["jengine-online"]);
        package(root.path(), "jengine-online", &["jengine-net"]);
        package(root.path(), "jengine-net", &[]);
        let p = project(root.path(), &["jengine-kotoba"]);
        let problems = listed_packages(&p).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        let msg = &problems[0];
        assert!(
            msg.contains("lists jengine-kotoba, which depends on jengine-net and jengine-online"),
            "{msg}"
        );
        assert!(msg.contains(r#"{"name":"jengine-online","source":{"type":"path","path":"../../packages/jengine-online"}}"#), "{msg}");

        let p = project(
            root.path(),
            &["jengine-kotoba", "jengine-online", "jengine-net"],
        );
        let metas = listed_packages(&p).unwrap();
        assert_eq!(metas[0].version, "0.2.0");
        assert_eq!(metas[0].crate_ident(), "jengine_kotoba");
    }

    #[test]
    fn a_package_path_that_does_not_exist_is_named() {
        let root = tempfile::tempdir().unwrap();
        let p = project(root.path(), &["jengine-ghost"]);
        let problems = listed_packages(&p).unwrap_err();
        assert!(
            problems[0].contains("package \"jengine-ghost\""),
            "{problems:?}"
        );
        assert!(
            problems[0].contains("package folder does not exist"),
            "{problems:?}"
        );
    }
}
