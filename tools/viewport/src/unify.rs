//! The features the workspace's own build gives each crate, so the viewport asks for the same.
//!
//! Cargo names a compiled crate by its features among other things, and unifies a crate's
//! features over everything one build selects: `cargo build` in the workspace builds every
//! member, so a crate that some member needs with more features (a `syn` with `fold`, a
//! `smallvec` with `const_generics`) is compiled with them. The viewport crate is its own
//! workspace and alone would ask for fewer, so each such crate and everything above it (the
//! seam, the host, the package) would be compiled again under another name. The generated
//! manifest therefore lists every crate the viewport links, as the workspace resolves it, with
//! the workspace's features; crates built for the host (build scripts, proc-macros and their
//! dependencies) go under `[build-dependencies]`, which set their features and, with no build
//! script in the crate, compile nothing. It does so only when the target folder holds those
//! crates so compiled (`built_with`).
//!
//! The resolution is cargo's own: `cargo tree` over the workspace with normal and build edges
//! (a plain `cargo build` leaves out dev-dependencies' features), read back here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The file in a generated crate's folder holding the workspace's resolution as read at its
/// last build.
pub(crate) const TREE_FILE: &str = "workspace-features.txt";

/// Where a crate comes from, as `cargo tree` writes it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Source {
    /// The default registry (written without a source).
    Registry,
    /// A folder on disk.
    Path(PathBuf),
    /// Anything else (git, another registry): not pinned.
    Other(String),
}

/// One crate as the workspace's build compiles it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unit {
    pub name: String,
    pub version: String,
    pub source: Source,
    /// Built for the host: a build script's dependency, a proc-macro or one of its dependencies.
    pub host: bool,
    /// The features it is compiled with, sorted (`default` among them when it is on).
    pub features: Vec<String>,
}

/// The workspace's resolved graph: each crate once for the target and once for the host at
/// most, and what each depends on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unified {
    units: Vec<Unit>,
    deps: Vec<Vec<usize>>,
}

impl Unified {
    /// Reads `cargo tree --edges normal,build --format '{p}|{f}' --charset ascii` output.
    /// Lines it does not understand are skipped; an empty text gives an empty graph.
    pub(crate) fn parse(tree: &str) -> Unified {
        let mut out = Unified::default();
        let mut index: HashMap<(String, String, Source, bool), usize> = HashMap::new();
        // Per depth: the crate there, whether it is a host crate, and whether the children that
        // follow are its build-dependencies.
        let mut stack: Vec<(usize, bool, bool)> = Vec::new();
        for line in tree.lines() {
            let start = line
                .find(|c: char| !matches!(c, ' ' | '|' | '`' | '-'))
                .unwrap_or(line.len());
            let (depth, content) = (start / 4, line[start..].trim_end());
            if content.is_empty() {
                stack.clear();
                continue;
            }
            if content.starts_with('[') {
                if let Some(entry) = stack.get_mut(depth) {
                    entry.2 = content == "[build-dependencies]";
                }
                continue;
            }
            let Some((package, features)) = content.trim_end_matches(" (*)").rsplit_once('|')
            else {
                continue;
            };
            let Some((name, version, source, proc_macro)) = package_spec(package) else {
                continue;
            };
            if depth > stack.len() {
                continue;
            }
            stack.truncate(depth);
            let parent = stack.last().copied();
            let host = proc_macro || parent.is_some_and(|(_, host, build)| host || build);
            let key = (name.clone(), version.clone(), source.clone(), host);
            let id = *index.entry(key).or_insert_with(|| {
                out.units.push(Unit {
                    name,
                    version,
                    source,
                    host,
                    features: Vec::new(),
                });
                out.deps.push(Vec::new());
                out.units.len() - 1
            });
            let unit = &mut out.units[id];
            for feature in features.split(',').map(str::trim).filter(|f| !f.is_empty()) {
                if !unit.features.iter().any(|f| f == feature) {
                    unit.features.push(feature.to_string());
                }
            }
            unit.features.sort();
            if let Some((parent, ..)) = parent
                && !out.deps[parent].contains(&id)
            {
                out.deps[parent].push(id);
            }
            stack.push((id, host, false));
        }
        out
    }

    /// Whether nothing was read (cargo could not say).
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The crates a build of the crates in the folders `roots` compiles, as the workspace
    /// compiles them: the roots (as target crates) and everything below them, in the order
    /// read.
    pub(crate) fn below(&self, roots: &[PathBuf]) -> Vec<&Unit> {
        let roots: Vec<PathBuf> = roots.iter().map(|r| canonical(r)).collect();
        let mut seen = vec![false; self.units.len()];
        let mut todo: Vec<usize> = (0..self.units.len())
            .filter(|&i| {
                let unit = &self.units[i];
                !unit.host
                    && matches!(&unit.source, Source::Path(p) if roots.contains(&canonical(p)))
            })
            .collect();
        while let Some(i) = todo.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            todo.extend(self.deps[i].iter().copied().filter(|&d| !seen[d]));
        }
        self.units
            .iter()
            .zip(seen)
            .filter_map(|(unit, seen)| seen.then_some(unit))
            .collect()
    }
}

/// Whether the target folder's `profile` folder holds, for every crate of `units` from the
/// registry, a library compiled with exactly its features (cargo's record of each compiled
/// library, `.fingerprint/<crate>-<hash>/lib-<name>.json`, names them). Only then is asking
/// for the workspace's features a gain: after a build of the tool alone (`cargo build -p
/// jengine-tool`), whose crates cargo resolved for it alone, the viewport does better to resolve
/// alone too and reuse those.
pub(crate) fn built_with(units: &[&Unit], profile_dir: &Path) -> bool {
    let mut built: HashMap<String, Vec<String>> = HashMap::new();
    for entry in std::fs::read_dir(profile_dir.join(".fingerprint"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let dir = entry.file_name().to_string_lossy().into_owned();
        let Some((name, _hash)) = dir.rsplit_once('-') else {
            continue;
        };
        for file in std::fs::read_dir(entry.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let file_name = file.file_name().to_string_lossy().into_owned();
            if !(file_name.starts_with("lib-") && file_name.ends_with(".json")) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(file.path()) else {
                continue;
            };
            let Ok(record) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            if let Some(features) = record.get("features").and_then(|f| f.as_str()) {
                built
                    .entry(name.to_string())
                    .or_default()
                    .push(features.to_string());
            }
        }
    }
    units
        .iter()
        .filter(|unit| unit.source == Source::Registry)
        .all(|unit| {
            let list: Vec<String> = unit.features.iter().map(|f| format!("{f:?}")).collect();
            let features = format!("[{}]", list.join(", "));
            built
                .get(&unit.name)
                .is_some_and(|seen| seen.contains(&features))
        })
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `name vVERSION[ (SOURCE)][ (proc-macro)]` as `(name, version, source, proc_macro)`.
fn package_spec(text: &str) -> Option<(String, String, Source, bool)> {
    let (name, rest) = text.split_once(' ')?;
    let (version, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let version = version.strip_prefix('v')?;
    let mut rest = rest.trim();
    let proc_macro = match rest.strip_suffix("(proc-macro)") {
        Some(before) => {
            rest = before.trim_end();
            true
        }
        None => false,
    };
    let source = match rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        None if rest.is_empty() => Source::Registry,
        None => return None,
        Some(inner) if Path::new(inner).is_absolute() => Source::Path(PathBuf::from(inner)),
        Some(inner) => Source::Other(inner.to_string()),
    };
    Some((name.to_string(), version.to_string(), source, proc_macro))
}

/// What cargo resolves for the workspace at `root`'s own build (`cargo build` with no package
/// named: the members it builds by default, default features, the host platform), as the text
/// [`Unified::parse`] reads; cargo's error when it cannot say. Reads the lock, never writes it.
pub(crate) fn workspace_tree(root: &Path) -> Result<String, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(&cargo)
        .current_dir(root)
        .args(["tree", "--locked", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .args([
            "--edges",
            "normal,build",
            "--format",
            "{p}|{f}",
            "--charset",
            "ascii",
        ])
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(said.trim().lines().last().unwrap_or("failed").to_string());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace of two members as `cargo tree` prints it: `tool` needs `serde` and a
    /// build script's `cc`; `other` turns on more of both.
    const TREE: &str = "\
other v0.1.0 (/ws/packages/other)|
|-- serde v1.0.228|default,derive,std
|   `-- serde_derive v1.0.228 (proc-macro)|default
|       `-- syn v2.0.117|clone-impls,default,full
`-- cc v1.2.0|parallel
[build-dependencies]
`-- cc v1.2.0|parallel

tool v0.1.0 (/ws/tools/tool)|
|-- serde v1.0.228|default,derive,std (*)
|-- rand_core v0.6.4|std
`-- sys v0.1.0|
    [build-dependencies]
    `-- cc v1.2.0|parallel (*)

unused v0.1.0 (/ws/packages/unused)|
`-- rand_core v0.9.3|
";

    #[test]
    fn the_tree_is_read_with_host_crates_apart() {
        let unified = Unified::parse(TREE);
        let find = |name: &str, host: bool| {
            unified
                .units
                .iter()
                .find(|u| u.name == name && u.host == host)
                .unwrap_or_else(|| panic!("{name} host={host} in {unified:#?}"))
        };
        assert_eq!(find("serde", false).features, ["default", "derive", "std"]);
        assert_eq!(find("serde", false).source, Source::Registry);
        assert_eq!(find("serde_derive", true).features, ["default"]);
        assert_eq!(
            find("syn", true).features,
            ["clone-impls", "default", "full"],
            "below a proc-macro is the host"
        );
        assert!(
            unified
                .units
                .iter()
                .all(|u| u.name != "syn" || u.host && u.version == "2.0.117")
        );
        // `cc` both as a normal dependency and as a build-dependency.
        assert_eq!(find("cc", false).features, ["parallel"]);
        assert_eq!(find("cc", true).features, ["parallel"]);
        assert_eq!(
            find("tool", false).source,
            Source::Path(PathBuf::from("/ws/tools/tool"))
        );

        let below: Vec<(&str, &str, bool)> = unified
            .below(&[PathBuf::from("/ws/tools/tool")])
            .iter()
            .map(|u| (u.name.as_str(), u.version.as_str(), u.host))
            .collect();
        assert_eq!(
            below,
            [
                ("serde", "1.0.228", false),
                ("serde_derive", "1.0.228", true),
                ("syn", "2.0.117", true),
                ("cc", "1.2.0", true),
                ("tool", "0.1.0", false),
                ("rand_core", "0.6.4", false),
                ("sys", "0.1.0", false),
            ],
            "what the tool reaches, through the deduplicated `(*)` lines, and not the others' crates"
        );
        assert!(Unified::parse("").is_empty());
    }

    #[test]
    fn the_workspace_features_count_as_built_when_each_registry_crate_has_them() {
        let dir = tempfile::tempdir().unwrap();
        let record = |unit: &str, lib: &str, features: &str| {
            let folder = dir.path().join(".fingerprint").join(unit);
            std::fs::create_dir_all(&folder).unwrap();
            let json = serde_json::json!({ "rustc": 1, "features": features });
            std::fs::write(folder.join(format!("lib-{lib}.json")), json.to_string()).unwrap();
        };
        let unified = Unified::parse(TREE);
        let below = unified.below(&[PathBuf::from("/ws/tools/tool")]);
        // A build of the tool alone: `serde` without the features another member turns on.
        record("serde-0123456789abcdef", "serde", r#"["default", "std"]"#);
        record(
            "serde_derive-0123456789abcdef",
            "serde_derive",
            r#"["default"]"#,
        );
        record(
            "syn-0123456789abcdef",
            "syn",
            r#"["clone-impls", "default", "full"]"#,
        );
        record("cc-0123456789abcdef", "cc", r#"["parallel"]"#);
        record("rand_core-0123456789abcdef", "rand_core", r#"["std"]"#);
        record("sys-0123456789abcdef", "sys", "[]");
        assert!(!built_with(&below, dir.path()));
        // The workspace's build adds the crate as it compiles it.
        record(
            "serde-fedcba9876543210",
            "serde",
            r#"["default", "derive", "std"]"#,
        );
        assert!(built_with(&below, dir.path()));
        assert!(!built_with(&below, &dir.path().join("nowhere")));
    }

    #[test]
    fn package_specs_name_their_source() {
        assert_eq!(
            package_spec("luajit-src v210.7.4+c6ffc14"),
            Some((
                "luajit-src".into(),
                "210.7.4+c6ffc14".into(),
                Source::Registry,
                false
            ))
        );
        assert_eq!(
            package_spec("thiserror-impl v2.0.17 (proc-macro)"),
            Some((
                "thiserror-impl".into(),
                "2.0.17".into(),
                Source::Registry,
                true
            ))
        );
        assert_eq!(
            package_spec("m v0.1.0 (/a b/m) (proc-macro)").map(|s| s.2),
            Some(Source::Path(PathBuf::from("/a b/m")))
        );
        assert!(matches!(
            package_spec("g v1.0.0 (https://example.org/g.git#0123abc)").map(|s| s.2),
            Some(Source::Other(_))
        ));
        assert_eq!(package_spec("nonsense"), None);
    }
}
