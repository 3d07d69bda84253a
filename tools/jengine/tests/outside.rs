//! docs/writing-a-package.md, done as a new user would: its package and project written into a
//! temporary folder outside the workspace, then built, checked and run with the `jengine` tool
//! from that folder. The files come out of the page's `file=` code blocks, so the page is what
//! is tested.

mod common;

use std::path::Path;
use std::process::{Command, Output};

const CHECKOUT: &str = "/path/to/jengine";

/// Every code block whose info string names a `file=`, as (path, text).
fn doc_files(doc: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in doc.lines() {
        match open.as_mut() {
            Some(_) if line.trim_end() == "```" => files.extend(open.take()),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {
                if let Some(info) = line.strip_prefix("```")
                    && let Some(path) = info
                        .split_whitespace()
                        .find_map(|w| w.strip_prefix("file="))
                {
                    open = Some((path.to_string(), String::new()));
                }
            }
        }
    }
    assert!(open.is_none(), "a file= block is never closed");
    files
}

/// The `jengine` tool this test was built with, run from `dir`.
fn jengine(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_jengine"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "jengine {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The binary `viewport-build` printed.
fn built_binary(stdout: &str) -> &str {
    stdout
        .trim()
        .rsplit_once(": ")
        .map(|(_, path)| path)
        .unwrap_or_else(|| panic!("no binary in {stdout:?}"))
}

#[test]
fn the_documented_package_builds_checks_and_runs_outside_the_workspace() {
    let root = common::workspace();
    let doc = std::fs::read_to_string(root.join("docs/writing-a-package.md")).unwrap();
    let files = doc_files(&doc);
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "greeter/Cargo.toml",
            "greeter/src/lib.rs",
            "greeter-project/project.jengine",
            "greeter-project/assets/scenes/main.scene",
            "greeter-project/assets/scripts/door.lua",
        ]
    );

    // One folder per checkout, emptied first: each run then builds over the same viewport
    // binaries instead of leaving new ones in the shared target folder.
    let mut hash: u32 = 0x811c_9dc5;
    for byte in root.to_string_lossy().bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    let home = std::env::temp_dir().join(format!("jengine-outside-{hash:08x}"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let home = std::fs::canonicalize(&home).unwrap();
    let home = home.as_path();
    assert!(
        !home.starts_with(&root) && jengine::host::workspace_root(home).is_none(),
        "{} must be outside any workspace",
        home.display()
    );
    for (path, body) in &files {
        common::write(home, path, &body.replace(CHECKOUT, root.to_str().unwrap()));
    }

    // viewport-build, then check, as the page's first command does, from the user's folder.
    let built = jengine(home, &["viewport-build", "--dev", "greeter-project"]);
    let stdout = text(&built.stdout);
    assert!(stdout.starts_with("viewport built: "), "{stdout}");
    let binary = built_binary(&stdout).to_string();
    let stderr = text(&built.stderr);
    assert!(
        stderr.contains("building the viewport of greeter-demo (greeter, debug) into "),
        "{stderr}"
    );
    let check = jengine(home, &["check", "--dev", "greeter-project"]);
    assert_eq!(
        text(&check.stdout),
        "greeter-project: ok (1 scene, 1 script, 0 tables)\n"
    );
    assert!(
        !text(&check.stderr).contains("building the viewport"),
        "check rebuilt a fresh viewport: {}",
        text(&check.stderr)
    );

    // A headless run through the viewport binary: the command's effect is in the log and trace.
    let run = Command::new(&binary)
        .args([
            "run",
            "greeter-project",
            "--headless",
            "--frames",
            "10",
            "--trace",
            "trace.jsonl",
        ])
        .current_dir(home)
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("info: assets/scripts/door.lua:11: hello, world (2 times)"),
        "{stderr}"
    );
    assert!(
        stdout.contains("ran 10 frames of greeter-demo (scene main)"),
        "{stdout}"
    );
    let trace = std::fs::read_to_string(home.join("trace.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(trace.lines().last().unwrap()).unwrap();
    assert_eq!(
        last["bags"]["door"]["greeting"],
        serde_json::json!({ "name": "world", "times": 2, "said": "hello, world" })
    );

    // The tool runs the same thing.
    let run = jengine(
        home,
        &[
            "run",
            "--dev",
            "greeter-project",
            "--headless",
            "--frames",
            "10",
        ],
    );
    assert!(
        text(&run.stderr).contains("hello, world (2 times)"),
        "{}",
        text(&run.stderr)
    );

    // Fresh until a source changes; the rebuild names the change.
    let again = jengine(home, &["viewport-build", "--dev", "greeter-project"]);
    assert!(
        text(&again.stdout).starts_with("viewport up to date: "),
        "{}",
        text(&again.stdout)
    );
    let lib = home.join("greeter/src/lib.rs");
    let mut source = std::fs::read_to_string(&lib).unwrap();
    source.push_str("\n// edited\n");
    std::fs::write(&lib, source).unwrap();
    let changed = jengine(home, &["viewport-build", "--dev", "greeter-project"]);
    assert!(
        text(&changed.stdout).starts_with("viewport built: "),
        "{}",
        text(&changed.stdout)
    );
    assert!(
        text(&changed.stderr).contains(": greeter/src/lib.rs changed"),
        "{}",
        text(&changed.stderr)
    );

    // A second project of the same name elsewhere gets its own binary and leaves the first fresh.
    let other = home.join("other/greeter-project");
    for (path, body) in &files {
        if let Some(rel) = path.strip_prefix("greeter-project/") {
            common::write(&other, rel, &body.replace("../greeter", "../../greeter"));
        }
    }
    let second = jengine(home, &["viewport-build", "--dev", "other/greeter-project"]);
    assert_ne!(built_binary(&text(&second.stdout)), binary);
    let first = jengine(home, &["viewport-build", "--dev", "greeter-project"]);
    assert!(
        text(&first.stdout).starts_with("viewport up to date: "),
        "{}",
        text(&first.stdout)
    );
}
