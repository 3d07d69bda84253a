//! What the room server links, read from `cargo tree` with the features a build of the server
//! alone resolves: the game's rules from `jengine-kotoba`, and nothing of the engine (no seam,
//! no Lua, no ECS).

use std::path::Path;
use std::process::Command;

/// Every crate in `package`'s normal dependency tree (package names, as in `Cargo.toml`), each
/// with the features a build of `package` alone gives it.
fn tree(package: &str) -> Vec<(String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "-p", package, "-e", "normal", "--offline"])
        .args(["--prefix", "none", "--format", "[{f}] {p}"])
        .current_dir(&root)
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let (features, package) = line.strip_prefix('[')?.split_once("] ")?;
            let name = package.split_whitespace().next()?.to_string();
            let features = features
                .split(',')
                .filter(|f| !f.is_empty())
                .map(str::to_string)
                .collect();
            Some((name, features))
        })
        .collect()
}

#[test]
fn the_room_server_links_the_rules_and_no_engine() {
    let tree = tree("kotodama-server");
    let names: Vec<&str> = tree.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"jengine-kotoba"), "{names:?}");
    let engine = engine_in(&tree);
    assert!(engine.is_empty(), "the room server links {engine:?}");
    let kotoba = &tree.iter().find(|(n, _)| n == "jengine-kotoba").unwrap().1;
    assert!(
        !kotoba.iter().any(|f| f == "engine"),
        "jengine-kotoba is built with {kotoba:?}"
    );
}

#[test]
fn the_package_with_its_default_features_links_the_engine() {
    // What a project's build links, and the proof that the check above can see the engine.
    let tree = tree("jengine-kotoba");
    let engine = engine_in(&tree);
    for name in ["jengine", "jengine-online", "mlua", "hecs"] {
        assert!(engine.contains(&name), "{name} is not in {engine:?}");
    }
}

/// The crates of the engine in a tree: the seam, the package that holds connections for
/// scripts, Lua and the ECS.
fn engine_in(tree: &[(String, Vec<String>)]) -> Vec<&str> {
    tree.iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| ["jengine", "jengine-online", "mlua", "mlua-sys", "hecs"].contains(n))
        .collect()
}
