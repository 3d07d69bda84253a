//! The host's crate graph, read from `cargo metadata`: the runtime, renderer, mixer and web
//! host link no desktop, dependencies only point down (no tool on a game, no package on the
//! tool), and no crate compiles in a file from outside its own folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Every workspace crate's normal dependencies, transitively, by crate name.
struct Graph {
    deps: BTreeMap<String, BTreeSet<String>>,
    /// Each crate's direct dev-dependencies.
    dev: BTreeMap<String, BTreeSet<String>>,
    dirs: BTreeMap<String, String>,
}

fn graph() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // This machine's platform only, so the graph needs no other platform's crates.
    let rustc = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(&root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let root = std::fs::canonicalize(root).unwrap();
    let mut names = BTreeMap::new();
    let mut dirs = BTreeMap::new();
    for p in meta["packages"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap().to_string();
        names.insert(p["id"].as_str().unwrap().to_string(), name.clone());
        let manifest = Path::new(p["manifest_path"].as_str().unwrap());
        if let Ok(rel) = manifest.parent().unwrap().strip_prefix(&root) {
            dirs.insert(name, rel.to_string_lossy().into_owned());
        }
    }
    let mut direct: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut dev = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let name = names[node["id"].as_str().unwrap()].clone();
        let of_kind = |kind: Option<&str>| -> Vec<String> {
            node["deps"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| {
                    d["dep_kinds"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|k| k["kind"].as_str() == kind)
                })
                .map(|d| names[d["pkg"].as_str().unwrap()].clone())
                .collect()
        };
        dev.insert(name.clone(), of_kind(Some("dev")).into_iter().collect());
        direct.insert(name, of_kind(None));
    }
    let mut deps = BTreeMap::new();
    for name in direct.keys() {
        let mut seen = BTreeSet::new();
        let mut todo = vec![name.clone()];
        while let Some(n) = todo.pop() {
            for d in direct.get(&n).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        deps.insert(name.clone(), seen);
    }
    Graph { deps, dev, dirs }
}

#[test]
fn the_runtime_renderer_mixer_and_web_host_link_no_desktop() {
    let g = graph();
    let desktop = [
        "winit",
        "softbuffer",
        "arboard",
        "libloading",
        "tokio",
        "tungstenite",
        "jengine-tool",
    ];
    for host in [
        "jengine-runtime",
        "jengine-render",
        "jengine-audio",
        "jengine-web",
    ] {
        let linked: Vec<&String> = g.deps[host]
            .iter()
            .filter(|d| desktop.contains(&d.as_str()))
            .collect();
        assert!(linked.is_empty(), "{host} links {linked:?}");
    }
}

#[test]
fn dependencies_point_down() {
    let g = graph();
    for (name, dir) in &g.dirs {
        let on = |prefix: &str| -> Vec<&String> {
            g.deps[name]
                .iter()
                .filter(|d| g.dirs.get(*d).is_some_and(|dd| dd.starts_with(prefix)))
                .collect()
        };
        if dir.starts_with("packages/") {
            assert!(
                on("tools/").is_empty(),
                "{name} depends on {:?}",
                on("tools/")
            );
            assert!(
                on("projects/").is_empty(),
                "{name} depends on {:?}",
                on("projects/")
            );
        }
        if dir.starts_with("tools/") {
            assert!(
                on("projects/").is_empty(),
                "{name} depends on {:?}",
                on("projects/")
            );
        }
    }
}

/// The `.rs` files of the crate in `dir`, less any crate nested inside it and build output.
fn sources(dir: &Path, nested: &BTreeSet<std::path::PathBuf>, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") || nested.contains(&path) {
                continue;
            }
            sources(&path, nested, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `path` with its `.` and `..` parts folded away, without touching the disk.
fn folded(path: &Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
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

/// The argument of each `name!(...)` in `text`, parentheses balanced.
fn macro_arguments<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("{name}!(");
    let mut found = Vec::new();
    for (at, _) in text.match_indices(&open) {
        let start = at + open.len();
        let mut depth = 1;
        for (i, c) in text[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                found.push(text[start..start + i].trim());
                break;
            }
        }
    }
    found
}

#[test]
fn no_crate_compiles_in_a_file_from_outside_itself() {
    let g = graph();
    let root = std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .expect("the workspace root");
    let dirs: BTreeSet<std::path::PathBuf> = g.dirs.values().map(|d| root.join(d)).collect();
    let mut reaching = Vec::new();
    for (name, dir) in &g.dirs {
        let dir = root.join(dir);
        let nested: BTreeSet<_> = dirs
            .iter()
            .filter(|d| **d != dir && d.starts_with(&dir))
            .cloned()
            .collect();
        let mut files = Vec::new();
        sources(&dir, &nested, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for mac in ["include_str", "include_bytes"] {
                for arg in macro_arguments(&text, mac) {
                    let inside = match arg.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
                        Some(rel) => folded(&file.parent().unwrap().join(rel)).starts_with(&dir),
                        // A built path (`concat!`, `env!`) may not climb out either.
                        None => !arg.contains(".."),
                    };
                    if !inside {
                        reaching.push(format!(
                            "{name}: {} has {mac}!({arg})",
                            file.strip_prefix(&root).unwrap_or(&file).display()
                        ));
                    }
                }
            }
        }
    }
    assert!(reaching.is_empty(), "{reaching:#?}");
}

#[test]
fn a_package_is_tested_with_the_test_kit_and_nothing_else_of_the_host() {
    let g = graph();
    let allowed = ["tools/testkit", "tools/fixtures/"];
    for (name, dir) in &g.dirs {
        if !dir.starts_with("packages/") {
            continue;
        }
        let host: Vec<&String> = g.dev[name]
            .iter()
            .filter(|d| {
                g.dirs.get(*d).is_some_and(|dd| {
                    (dd.starts_with("tools/") && !allowed.iter().any(|a| dd.starts_with(a)))
                        || dd.starts_with("projects/")
                })
            })
            .collect();
        assert!(host.is_empty(), "{name} is tested with {host:?}");
        // Nor through the kit: testing a package builds no window, editor or server.
        let mut reached = BTreeSet::new();
        for d in &g.dev[name] {
            reached.extend(g.deps.get(d).into_iter().flatten().cloned());
        }
        for desktop in [
            "winit",
            "softbuffer",
            "arboard",
            "jengine-editor",
            "jengine-tool",
        ] {
            assert!(
                !reached.contains(desktop),
                "testing {name} builds {desktop}"
            );
        }
    }
}
