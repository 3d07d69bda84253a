//! The host's crate graph, read from `cargo metadata`: the runtime, renderer and mixer link no
//! desktop, and dependencies only point down (no tool on a game, no package on the tool).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Every workspace crate's normal dependencies, transitively, by crate name.
struct Graph {
    deps: BTreeMap<String, BTreeSet<String>>,
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
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let name = names[node["id"].as_str().unwrap()].clone();
        let normal = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k["kind"].is_null())
            })
            .map(|d| names[d["pkg"].as_str().unwrap()].clone())
            .collect();
        direct.insert(name, normal);
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
    Graph { deps, dirs }
}

#[test]
fn the_runtime_renderer_and_mixer_link_no_desktop() {
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
    for host in ["jengine-runtime", "jengine-render", "jengine-audio"] {
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
