//! Generating the viewport crate: its name, its links to the workspace's folders, and the
//! `Cargo.toml` and `main.rs` that list exactly a project's packages.
//!
//! The crate reaches the host through links that put it at the same relative path as in the
//! workspace, and copies the workspace's tables, so cargo reuses what a workspace build compiled.

use std::path::{Path, PathBuf};

use jengine::host::PackageMeta;

use crate::ViewportError;
use crate::unify::{Source, Unified, Unit};

/// The workspace folders a viewport crate links to.
const LINKED: [&str; 2] = ["packages", "tools"];

/// Links `<crate_dir>/packages` and `<crate_dir>/tools` to the workspace's own folders. Cargo
/// names a path crate by its path relative to the workspace root, so reached through these
/// links the host crates get the same names as in a workspace build and are reused as built.
/// False when the links cannot be made; the crate then uses plain paths and compiles the host.
pub(crate) fn link_host(crate_dir: &Path, root: &Path) -> bool {
    #[cfg(unix)]
    {
        LINKED.iter().all(|name| {
            let (link, target) = (crate_dir.join(name), root.join(name));
            if std::fs::read_link(&link).is_ok_and(|t| t == target) {
                return true;
            }
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&target, &link).is_ok()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = (crate_dir, root);
        false
    }
}

/// A crate-name-safe form of a project name.
fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "project".into() } else { s }
}

/// `<slug>-<8 hex digits>`: the project name plus a hash of where the project and the host
/// are, so two projects (or two checkouts sharing one target folder) never share a binary.
/// FNV-1a, because the name must not change between toolchains.
pub(crate) fn crate_id(name: &str, home: &Path, root: &Path) -> String {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let key = format!(
        "{}\n{}",
        canonical(home).display(),
        canonical(root).display()
    );
    let mut hash: u32 = 0x811c_9dc5;
    for byte in key.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{}-{hash:08x}", slug(name))
}

/// The workspace's `[workspace]` (without its member lists), `[profile.*]` and `[patch.*]`
/// tables as manifest text: the same settings give the same cargo hashes, and the linked host
/// crates inherit their `workspace = true` fields from the viewport's `[workspace]`. Unlinked,
/// only the resolver is kept, as the workspace's relative paths would not resolve.
pub(crate) fn workspace_tables(root: &Path, linked: bool) -> String {
    let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) else {
        return "[workspace]\n".into();
    };
    let Ok(mut manifest) = toml::from_str::<toml::Table>(&text) else {
        return "[workspace]\n".into();
    };
    let mut workspace = match manifest.remove("workspace") {
        Some(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    if linked {
        for key in ["members", "exclude", "default-members"] {
            workspace.remove(key);
        }
    } else {
        workspace.retain(|key, _| key == "resolver");
    }
    let mut table = toml::Table::new();
    table.insert("workspace".into(), toml::Value::Table(workspace));
    for key in ["profile", "patch"] {
        if let Some(value) = manifest.remove(key) {
            table.insert(key.into(), value);
        }
    }
    toml::to_string(&table).unwrap_or_else(|_| "[workspace]\n".into())
}

/// `text` as a TOML string.
pub(crate) fn toml_str(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Whether `name` is a crate name cargo accepts: ASCII letters, digits, `-` and `_`, not
/// starting with a digit.
fn crate_name_ok(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Whether `entry` is a Rust path (`Type` or `crate_name::module::Type`), the only thing the
/// generated `main.rs` may be given.
fn entry_ok(entry: &str) -> bool {
    entry.split("::").all(|part| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Checks that each package's name and entry can be written into the generated crate: they
/// come from the packages' own `Cargo.toml` files and go into a manifest and into Rust code.
pub(crate) fn check_metas(metas: &[PackageMeta]) -> Result<(), ViewportError> {
    for meta in metas {
        let problem = if !crate_name_ok(&meta.name) {
            Some(format!(
                "package name {:?} is not a crate name (ASCII letters, digits, - and _)",
                meta.name
            ))
        } else if !entry_ok(&meta.entry) {
            Some(format!(
                "[package.metadata.jengine] entry {:?} is not a Rust path like `MyPackage` or `my_crate::MyPackage`",
                meta.entry
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            return Err(ViewportError::Package {
                file: meta.dir.join("Cargo.toml"),
                message,
            });
        }
    }
    Ok(())
}

/// How the generated manifest names a crate folder: through the links when it is under a
/// linked workspace folder (so its compiled form is shared with the workspace), else absolute.
pub(crate) fn dep_path(dir: &Path, root: &Path, linked: bool) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if linked {
        for top in LINKED {
            if let Ok(rel) = dir.strip_prefix(root.join(top)) {
                return Path::new(top).join(rel).display().to_string();
            }
        }
    }
    dir.display().to_string()
}

/// The files of a generated crate: `(Cargo.toml, main.rs)`. `id` is the crate's name after
/// `viewport-`; `linked` says whether the crate folder links to the workspace's (`link_host`);
/// `tables` is the text from `workspace_tables`; `unified` is the workspace's own resolution,
/// whose features the manifest asks for (empty: cargo's own choice for this crate alone).
pub fn generate(
    id: &str,
    root: &Path,
    metas: &[PackageMeta],
    linked: bool,
    tables: &str,
    unified: &Unified,
) -> (String, String) {
    let tool = root.join("tools/jengine");
    let pins = Pins::new(unified, root, &tool, metas, linked);
    let mut manifest = format!(
        "# Generated by `jengine viewport-build`; do not edit.\n[package]\nname = \"viewport-{id}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[[bin]]\nname = \"viewport-{id}\"\npath = \"main.rs\"\n\n[dependencies]\njengine-tool = {}\n",
        pins.inline(&tool, &dep_path(&tool, root, linked))
    );
    manifest.push_str(&packages_and_tables(root, metas, linked, tables, &pins));
    let main = format!(
        "// Generated by `jengine viewport-build`; do not edit.\n// Registers exactly the packages the project lists, in listing order.\n\nfn main() -> std::process::ExitCode {{\n    jengine_tool::cli::viewport_main(&[{}])\n}}\n",
        entries(metas)
    );
    (manifest, main)
}

/// The features a generated manifest asks for: those the workspace's own build gives the crates
/// the generated one names (the host, the listed packages), and a line for each other crate
/// they reach, so that every crate compiles as it did in the workspace and is reused.
#[derive(Debug, Default)]
pub(crate) struct Pins {
    /// The named crates' features, by canonical folder.
    named: Vec<(PathBuf, Vec<String>)>,
    /// `[dependencies]` lines for the crates reached for the target.
    target: Vec<String>,
    /// `[build-dependencies]` lines for the crates built for the host.
    host: Vec<String>,
}

impl Pins {
    /// The pins for a crate naming the host crate at `tool` and `metas`, from `unified`.
    pub(crate) fn new(
        unified: &Unified,
        root: &Path,
        tool: &Path,
        metas: &[PackageMeta],
        linked: bool,
    ) -> Pins {
        let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let named_dirs: Vec<PathBuf> = std::iter::once(tool.to_path_buf())
            .chain(metas.iter().map(|m| m.dir.clone()))
            .collect();
        let named_canonical: Vec<PathBuf> = named_dirs.iter().map(|d| canonical(d)).collect();
        let mut pins = Pins::default();
        let mut entries: Vec<(&Unit, String)> = Vec::new();
        for unit in unified.below(&named_dirs) {
            let spec = match &unit.source {
                Source::Registry => {
                    let version = unit.version.split('+').next().unwrap_or(&unit.version);
                    format!("version = {}", toml_str(&format!("={version}")))
                }
                Source::Path(dir) => {
                    if !unit.host && named_canonical.contains(&canonical(dir)) {
                        pins.named.push((canonical(dir), unit.features.clone()));
                        continue;
                    }
                    format!("path = {}", toml_str(&dep_path(dir, root, linked)))
                }
                Source::Other(_) => continue,
            };
            entries.push((unit, spec));
        }
        // A key a crate: its name, or with its version when the name is taken in its table.
        let taken = |unit: &Unit| {
            let same_name = |u: &&(&Unit, String)| u.0.host == unit.host && u.0.name == unit.name;
            entries.iter().filter(same_name).count() > 1
                || (!unit.host && metas.iter().any(|m| m.name == unit.name))
                || (!unit.host && unit.name == "jengine-tool")
        };
        for (unit, spec) in &entries {
            let key = if taken(unit) {
                let version: String = unit
                    .version
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                    .collect();
                format!(
                    "{}-v{version} = {{ package = {}, ",
                    unit.name,
                    toml_str(&unit.name)
                )
            } else {
                format!("{} = {{ ", unit.name)
            };
            let line = format!("{key}{spec}, {} }}\n", features_spec(&unit.features));
            if unit.host {
                pins.host.push(line);
            } else {
                pins.target.push(line);
            }
        }
        pins
    }

    /// The inline table naming the crate at `dir` by `path`, with the workspace's features for
    /// it when known.
    fn inline(&self, dir: &Path, path: &str) -> String {
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        match self.named.iter().find(|(d, _)| *d == dir) {
            Some((_, features)) => format!(
                "{{ path = {}, {} }}",
                toml_str(path),
                features_spec(features)
            ),
            None => format!("{{ path = {} }}", toml_str(path)),
        }
    }
}

/// `default-features = false, features = [...]`: exactly `features` (`default` among them
/// when the workspace turns it on).
fn features_spec(features: &[String]) -> String {
    let list: Vec<String> = features.iter().map(|f| toml_str(f)).collect();
    format!("default-features = false, features = [{}]", list.join(", "))
}

/// The listed packages' entry points as Rust, in listing order: `&a::A, &b::B`.
pub(crate) fn entries(metas: &[PackageMeta]) -> String {
    metas
        .iter()
        .map(|meta| format!("&{}", meta.entry_path()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rest of a generated manifest after its host dependency: one line a listed package, the
/// pinned crates (`Pins`), the workspace's tables, and the patches that send outside packages'
/// host crates through the links.
pub(crate) fn packages_and_tables(
    root: &Path,
    metas: &[PackageMeta],
    linked: bool,
    tables: &str,
    pins: &Pins,
) -> String {
    let mut manifest = String::new();
    for meta in metas {
        manifest.push_str(&format!(
            "{} = {}\n",
            meta.name,
            pins.inline(&meta.dir, &dep_path(&meta.dir, root, linked))
        ));
    }
    if !pins.target.is_empty() {
        manifest.push_str(
            "# Every crate those reach, with the features the workspace's own build gives it, so\n# each is the crate that build compiled.\n",
        );
        manifest.extend(pins.target.iter().map(String::as_str));
    }
    if !pins.host.is_empty() {
        manifest.push_str(
            "\n# The crates built for the host (build scripts' and proc-macros'), likewise. With no\n# build script here these only set features.\n[build-dependencies]\n",
        );
        manifest.extend(pins.host.iter().map(String::as_str));
    }
    manifest.push_str("\n# Copied from the workspace's Cargo.toml.\n");
    manifest.push_str(tables);
    if linked {
        let redirects = redirects(metas, root);
        if !redirects.is_empty() {
            manifest.push_str(
                "\n# Packages outside the workspace name these crates by their real folders;\n# the host reaches them through the links, and a crate may be built only once.\n",
            );
        }
        for (written, name, linked_path) in redirects {
            manifest.push_str(&format!(
                "[patch.{}]\n{name} = {{ path = {} }}\n",
                toml_str(&format!("file://{}", written.display())),
                toml_str(&linked_path)
            ));
        }
    }
    manifest
}

/// `path` with `.` and `..` taken out without looking at the disk, as cargo spells a path
/// dependency's source.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The workspace crates that listed packages from outside the linked folders depend on by
/// path, as `(the folder as they write it, crate name, the folder through the links)`. Each
/// needs a `[patch]` sending it through the links, or cargo would see two crates of one name.
fn redirects(metas: &[PackageMeta], root: &Path) -> Vec<(PathBuf, String, String)> {
    let mut out: Vec<(PathBuf, String, String)> = Vec::new();
    for meta in metas {
        let dir = std::fs::canonicalize(&meta.dir).unwrap_or_else(|_| meta.dir.clone());
        if LINKED.iter().any(|top| dir.starts_with(root.join(top))) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(meta.dir.join("Cargo.toml")) else {
            continue;
        };
        let Ok(manifest) = toml::from_str::<toml::Table>(&text) else {
            continue;
        };
        let targets = manifest.get("target").and_then(|t| t.as_table());
        let tables = std::iter::once(manifest.get("dependencies"))
            .chain(
                targets
                    .into_iter()
                    .flat_map(|t| t.values().map(|v| v.get("dependencies"))),
            )
            .flatten()
            .filter_map(|deps| deps.as_table());
        for (key, dep) in tables.flat_map(|deps| deps.iter()) {
            let Some(path) = dep.get("path").and_then(|p| p.as_str()) else {
                continue;
            };
            let name = dep.get("package").and_then(|p| p.as_str()).unwrap_or(key);
            // Cargo reads the package at `dir` (the generated manifest names it canonically)
            // and joins a relative path to that.
            let written = normalize(&dir.join(path));
            let Ok(real) = std::fs::canonicalize(&written) else {
                continue;
            };
            let linked_path = dep_path(&real, root, true);
            if Path::new(&linked_path).is_relative() && !out.iter().any(|(w, ..)| *w == written) {
                out.push((written, name.to_string(), linked_path));
            }
        }
    }
    out
}

/// Refuses, before cargo runs, a listed package from outside the workspace whose path
/// dependency on a host crate (`jengine`, any crate of a jengine checkout) leads into another
/// checkout than `root`, the one this tool builds against: cargo would see two crates of one
/// name and fail with a lockfile collision that names neither cause nor fix.
pub(crate) fn check_one_host(metas: &[PackageMeta], root: &Path) -> Result<(), ViewportError> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    for meta in metas {
        let dir = std::fs::canonicalize(&meta.dir).unwrap_or_else(|_| meta.dir.clone());
        if dir.starts_with(&root) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(meta.dir.join("Cargo.toml")) else {
            continue;
        };
        let Ok(manifest) = toml::from_str::<toml::Table>(&text) else {
            continue;
        };
        for (key, path) in path_dependencies(&manifest) {
            let Ok(real) = std::fs::canonicalize(dir.join(&path)) else {
                continue;
            };
            let Some(other) = real.ancestors().find(|a| crate::discover::holds_host(a)) else {
                continue;
            };
            if other == root {
                continue;
            }
            let rel = real.strip_prefix(other).unwrap_or(&real);
            return Err(ViewportError::Package {
                file: meta.dir.join("Cargo.toml"),
                message: format!(
                    "its dependency `{key}` points at {}, in the jengine checkout {}, but this jengine tool builds against the checkout {}; a viewport links one host. Point the path at {} (or use the tool of the other checkout: cargo install --locked --path {})",
                    real.display(),
                    other.display(),
                    root.display(),
                    root.join(rel).display(),
                    other.join("tools/jengine").display()
                ),
            });
        }
    }
    Ok(())
}

/// Every `(name, path)` dependency of a manifest given by path, target tables included.
fn path_dependencies(manifest: &toml::Table) -> Vec<(String, String)> {
    let targets = manifest.get("target").and_then(|t| t.as_table());
    std::iter::once(manifest.get("dependencies"))
        .chain(
            targets
                .into_iter()
                .flat_map(|t| t.values().map(|v| v.get("dependencies"))),
        )
        .flatten()
        .filter_map(|deps| deps.as_table())
        .flat_map(|deps| deps.iter())
        .filter_map(|(key, dep)| {
            let path = dep.get("path")?.as_str()?;
            Some((key.clone(), path.to_string()))
        })
        .collect()
}

/// Writes `text` unless the file already holds it, so an unchanged file keeps its time.
pub(crate) fn write_if_changed(path: &Path, text: &[u8]) -> Result<(), ViewportError> {
    if std::fs::read(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)
    };
    write().map_err(|source| ViewportError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder that looks like a jengine checkout (what `holds_host` asks for).
    fn fake_checkout(dir: &Path) {
        std::fs::create_dir_all(dir.join("tools/jengine")).unwrap();
        std::fs::write(dir.join("tools/jengine/Cargo.toml"), "").unwrap();
        std::fs::create_dir_all(dir.join("packages/jengine")).unwrap();
    }

    #[test]
    fn a_package_whose_host_is_another_checkout_is_refused_naming_both() {
        let tmp = tempfile::tempdir().unwrap();
        let (here, there) = (tmp.path().join("here"), tmp.path().join("there"));
        fake_checkout(&here);
        fake_checkout(&there);
        let package = tmp.path().join("beacon");
        std::fs::create_dir_all(&package).unwrap();
        let manifest = |host: &Path| {
            format!(
                "[package]\nname = \"beacon\"\n[dependencies]\njengine = {{ path = {:?} }}\n",
                host.join("packages/jengine").display().to_string()
            )
        };
        let meta = PackageMeta {
            name: "beacon".into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: "BeaconPackage".into(),
            namespace: None,
            depends: vec![],
            c: Vec::new(),
            dir: package.clone(),
        };
        std::fs::write(package.join("Cargo.toml"), manifest(&there)).unwrap();
        let err = check_one_host(std::slice::from_ref(&meta), &here)
            .expect_err("another checkout's host is refused");
        let text = err.to_string();
        let real = |p: &Path| std::fs::canonicalize(p).unwrap().display().to_string();
        assert!(
            text.starts_with(&package.join("Cargo.toml").display().to_string()),
            "{text}"
        );
        assert!(
            text.contains(&format!("checkout {}", real(&there))),
            "{text}"
        );
        assert!(
            text.contains(&format!("against the checkout {}", real(&here))),
            "{text}"
        );
        assert!(text.contains("Point the path at"), "{text}");
        // The same package pointed at this checkout's host is fine.
        std::fs::write(package.join("Cargo.toml"), manifest(&here)).unwrap();
        assert!(check_one_host(&[meta], &here).is_ok());
    }
    use crate::discover::tests::common_files;
    use crate::stale::newest;
    use crate::{Profile, build_for};

    #[test]
    fn the_generated_main_registers_listed_entries_in_order() {
        let meta = |name: &str, entry: &str| PackageMeta {
            name: name.into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: entry.into(),
            namespace: None,
            depends: vec![],
            c: Vec::new(),
            dir: PathBuf::from("/x").join(name),
        };
        let (manifest, main) = generate(
            "demo-0",
            Path::new("/ws"),
            &[
                meta("jengine-b", "BPackage"),
                meta("jengine-a", "jengine_a::inner::APackage"),
            ],
            false,
            "[workspace]\n",
            &Unified::default(),
        );
        assert!(
            manifest.contains("jengine-b = { path = \"/x/jengine-b\" }"),
            "{manifest}"
        );
        assert!(manifest.contains("[workspace]"));
        assert!(
            manifest.contains("name = \"viewport-demo-0\""),
            "{manifest}"
        );
        assert!(
            main.contains("viewport_main(&[&jengine_b::BPackage, &jengine_a::inner::APackage])"),
            "{main}"
        );
        assert_eq!(slug("Counter Fixture!"), "counter-fixture");
    }

    #[test]
    fn the_generated_manifest_carries_the_workspace_tables_and_profiles() {
        let root = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(root.path()).unwrap();
        common_files(&root);
        let tables = workspace_tables(&root, true);
        let (manifest, _) = generate("demo-0", &root, &[], true, &tables, &Unified::default());
        let parsed: toml::Table = toml::from_str(&manifest).unwrap();
        let workspace = parsed["workspace"].as_table().unwrap();
        assert!(!workspace.contains_key("members"), "{manifest}");
        assert_eq!(workspace["resolver"].as_str(), Some("3"));
        assert_eq!(
            workspace["dependencies"]["jengine"]["path"].as_str(),
            Some("packages/jengine")
        );
        assert_eq!(workspace["package"]["version"].as_str(), Some("0.1.0"));
        assert_eq!(
            parsed["profile"]["dev"]["package"]["*"]["opt-level"].as_integer(),
            Some(2),
            "{manifest}"
        );
        assert_eq!(
            parsed["dependencies"]["jengine-tool"]["path"].as_str(),
            Some("tools/jengine"),
            "linked, the host is reached through the crate's own folder"
        );

        // Unlinked: plain paths, and only the resolver (the workspace's paths would not resolve).
        let tables = workspace_tables(&root, false);
        let (manifest, _) = generate("demo-0", &root, &[], false, &tables, &Unified::default());
        let parsed: toml::Table = toml::from_str(&manifest).unwrap();
        assert_eq!(
            parsed["workspace"]
                .as_table()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["resolver"]
        );
        assert_eq!(
            parsed["dependencies"]["jengine-tool"]["path"].as_str(),
            Some(root.join("tools/jengine").to_str().unwrap())
        );
        assert!(parsed.contains_key("profile"), "{manifest}");
    }

    #[cfg(unix)]
    #[test]
    fn listed_packages_in_the_workspace_are_reached_through_the_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        common_files(&root);
        std::fs::create_dir_all(root.join("packages/jengine-a")).unwrap();
        let crate_dir = root.join("target/viewport/demo-0");
        std::fs::create_dir_all(&crate_dir).unwrap();
        assert!(link_host(&crate_dir, &root));
        assert!(
            link_host(&crate_dir, &root),
            "linking again keeps the links"
        );
        assert!(crate_dir.join("tools/jengine").is_dir());
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(
            dep_path(&root.join("packages/jengine-a"), &root, true),
            "packages/jengine-a"
        );
        let outside_dir = std::fs::canonicalize(outside.path()).unwrap();
        assert_eq!(
            dep_path(outside.path(), &root, true),
            outside_dir.display().to_string()
        );
        // A package outside names the seam by its real folder: it is sent through the links.
        let pkg = outside_dir.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(
            pkg.join("Cargo.toml"),
            format!(
                "[package]\nname = \"pkg\"\n[dependencies]\nseam = {{ package = \"jengine\", path = {:?} }}\nother = {{ path = \"../nowhere\" }}\nserde = \"1\"\n[target.'cfg(unix)'.dependencies]\na = {{ path = {:?} }}\n",
                root.join("tools/../packages/jengine").display().to_string(),
                root.join("packages/jengine-a").display().to_string(),
            ),
        )
        .unwrap();
        let meta = PackageMeta {
            name: "pkg".into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: "P".into(),
            namespace: None,
            depends: vec![],
            c: Vec::new(),
            dir: pkg.clone(),
        };
        assert_eq!(
            redirects(std::slice::from_ref(&meta), &root),
            [
                (
                    root.join("packages/jengine"),
                    "jengine".to_string(),
                    "packages/jengine".to_string()
                ),
                (
                    root.join("packages/jengine-a"),
                    "a".to_string(),
                    "packages/jengine-a".to_string()
                ),
            ]
        );
        let (manifest, _) = generate(
            "demo-0",
            &root,
            &[meta],
            true,
            "[workspace]\n",
            &Unified::default(),
        );
        let parsed: toml::Table = toml::from_str(&manifest).unwrap();
        let url = format!("file://{}", root.join("packages/jengine").display());
        assert_eq!(
            parsed["patch"][&url]["jengine"]["path"].as_str(),
            Some("packages/jengine"),
            "{manifest}"
        );

        // The freshness walk does not follow the links back into the workspace.
        std::fs::write(crate_dir.join("main.rs"), "").unwrap();
        assert_eq!(newest(&crate_dir).unwrap().1, crate_dir.join("main.rs"));
    }

    #[test]
    fn the_generated_manifest_asks_for_the_features_the_workspace_build_gives_each_crate() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        common_files(&root);
        std::fs::create_dir_all(root.join("packages/jengine-a")).unwrap();
        let meta = PackageMeta {
            name: "jengine-a".into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: "APackage".into(),
            namespace: None,
            depends: vec![],
            c: vec![("sys".into(), "C".into())],
            dir: root.join("packages/jengine-a"),
        };
        // The workspace as `cargo tree` prints it: a member the viewport does not link turns on
        // more of `serde`, `syn` and `cc` than the tool and the package alone would.
        let r = root.display();
        let tree = format!(
            "\
jengine-other v0.1.0 ({r}/packages/jengine-other)|
|-- serde v1.0.228|default,derive,rc,std
|   `-- serde_derive v1.0.228 (proc-macro)|default
|       `-- syn v2.0.117|default,full
`-- redis v1.8.1|
[build-dependencies]
`-- cc v1.2.0|parallel

jengine-tool v0.1.0 ({r}/tools/jengine)|
|-- jengine v0.1.0 ({r}/packages/jengine)|
|   |-- rand_core v0.6.4|std
|   `-- serde v1.0.228|default,derive,rc,std (*)
`-- rand_core v0.9.3|

jengine-a v0.1.0 ({r}/packages/jengine-a)|automata,default
|-- jengine v0.1.0 ({r}/packages/jengine)| (*)
`-- sys v0.1.0|
    [build-dependencies]
    |-- cc v1.2.0|parallel (*)
    `-- luajit-src v210.7.4+c6ffc14|
"
        );
        let unified = Unified::parse(&tree);
        let (manifest, _) = generate("demo-0", &root, &[meta], true, "[workspace]\n", &unified);
        let parsed: toml::Table =
            toml::from_str(&manifest).unwrap_or_else(|e| panic!("{e}\n{manifest}"));
        let deps = parsed["dependencies"].as_table().unwrap();
        let features = |dep: &toml::Value| -> Vec<String> {
            assert_eq!(dep["default-features"].as_bool(), Some(false), "{manifest}");
            dep["features"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect()
        };
        // The crates the manifest names keep their paths and get the workspace's features.
        assert_eq!(deps["jengine-tool"]["path"].as_str(), Some("tools/jengine"));
        assert!(features(&deps["jengine-tool"]).is_empty());
        assert_eq!(
            deps["jengine-a"]["path"].as_str(),
            Some("packages/jengine-a")
        );
        assert_eq!(features(&deps["jengine-a"]), ["automata", "default"]);
        // Every crate they reach, at its exact version, through the links when in the workspace.
        assert_eq!(deps["serde"]["version"].as_str(), Some("=1.0.228"));
        assert_eq!(features(&deps["serde"]), ["default", "derive", "rc", "std"]);
        assert_eq!(deps["jengine"]["path"].as_str(), Some("packages/jengine"));
        assert_eq!(deps["sys"]["version"].as_str(), Some("=0.1.0"));
        // Two versions of one crate: each under a key of its own.
        assert_eq!(
            deps["rand_core-v0-6-4"]["package"].as_str(),
            Some("rand_core")
        );
        assert_eq!(deps["rand_core-v0-6-4"]["version"].as_str(), Some("=0.6.4"));
        assert_eq!(features(&deps["rand_core-v0-6-4"]), ["std"]);
        assert_eq!(deps["rand_core-v0-9-3"]["version"].as_str(), Some("=0.9.3"));
        // Crates built for the host set their features from [build-dependencies].
        let host = parsed["build-dependencies"].as_table().unwrap();
        assert_eq!(features(&host["syn"]), ["default", "full"]);
        assert_eq!(features(&host["serde_derive"]), ["default"]);
        assert_eq!(features(&host["cc"]), ["parallel"]);
        assert_eq!(
            host["luajit-src"]["version"].as_str(),
            Some("=210.7.4"),
            "no build metadata in a requirement"
        );
        for (table, name) in [
            (deps, "syn"),
            (deps, "cc"),
            (host, "serde"),
            (deps, "redis"),
        ] {
            assert!(!table.contains_key(name), "{name}: {manifest}");
        }
        assert!(!manifest.contains("jengine-other"), "{manifest}");

        // Without the workspace's resolution the manifest is as before: paths alone.
        let (plain, _) = generate(
            "demo-0",
            &root,
            &[],
            true,
            "[workspace]\n",
            &Unified::default(),
        );
        assert!(
            plain.contains("jengine-tool = { path = \"tools/jengine\" }\n"),
            "{plain}"
        );
        assert!(!plain.contains("build-dependencies"), "{plain}");
    }

    #[test]
    fn names_and_entries_that_would_break_the_generated_crate_are_refused() {
        let meta = |name: &str, entry: &str| PackageMeta {
            name: name.into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: entry.into(),
            namespace: None,
            depends: vec![],
            c: Vec::new(),
            dir: PathBuf::from("/pkgs/evil"),
        };
        let dir = tempfile::tempdir().unwrap();
        let attacks = [
            (
                "evil = { path = \"/\" }\n[patch.x]\ny",
                "P",
                "is not a crate name",
            ),
            ("9lives", "P", "is not a crate name"),
            ("", "P", "is not a crate name"),
            (
                "ok",
                "P]); std::process::exit(0); fn f() {[&P",
                "is not a Rust path",
            ),
            ("ok", "a::::b", "is not a Rust path"),
            ("ok", "", "is not a Rust path"),
        ];
        for (name, entry, expected) in attacks {
            let err = build_for(
                "x",
                dir.path(),
                dir.path(),
                &[meta(name, entry)],
                Profile::Dev,
                true,
            )
            .unwrap_err()
            .to_string();
            assert!(err.starts_with("/pkgs/evil/Cargo.toml: "), "{err}");
            assert!(err.contains(expected), "{name:?} {entry:?}: {err}");
        }
        assert!(
            !dir.path().join("target").exists(),
            "a refused package writes nothing"
        );
        assert!(check_metas(&[meta("jengine-a_b", "jengine_a_b::inner::APackage")]).is_ok());
    }

    #[test]
    fn manifest_strings_are_toml_strings() {
        let text = toml_str("C:\\odd \"dir\"\u{301}");
        let parsed: toml::Table = toml::from_str(&format!("x = {text}")).unwrap();
        assert_eq!(parsed["x"].as_str(), Some("C:\\odd \"dir\"\u{301}"));
    }

    #[test]
    fn projects_of_one_name_in_two_places_get_two_crates() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let root = Path::new("/ws");
        let id = crate_id("My Game", &a, root);
        assert!(id.starts_with("my-game-"), "{id}");
        assert_eq!(id, crate_id("My Game", &a, root), "the id is stable");
        assert_ne!(id, crate_id("My Game", &b, root));
        assert_ne!(id, crate_id("My Game", &a, Path::new("/other-checkout")));
    }
}
