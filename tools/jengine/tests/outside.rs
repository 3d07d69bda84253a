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
        stderr.contains(&format!(
            "building the viewport of greeter-demo (greeter, debug) against the host in {} into ",
            common::workspace().display()
        )),
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

/// A project with no art of its own that lists jengine-kotoba, as a new user would start one:
/// only a project file, a scene and a script, in a folder outside the workspace.
fn kotoba_project(dir: &Path, root: &Path) {
    let package = |name: &str| {
        let path = root.join("packages").join(name);
        format!(
            r#"{{ "name": "{name}", "source": {{ "type": "path", "path": {:?} }} }}"#,
            path.to_str().unwrap()
        )
    };
    let project = format!(
        r#"{{
  "name": "bare-board",
  "version": "0.1.0",
  "start_scene": "main",
  "window": {{ "width": 640, "height": 360, "title": "A bare board" }},
  "packages": [{}, {}, {}]
}}
"#,
        package("jengine-net"),
        package("jengine-online"),
        package("jengine-kotoba")
    );
    common::write(dir, "project.jengine", &project);
    common::write(
        dir,
        "assets/scenes/main.scene",
        r##"{
  "version": 2,
  "entities": [
    { "name": "camera", "camera": { "center": [0, 0], "size": [16, 9], "clear": "#1a2030" } },
    { "name": "table", "kotoba_table": {}, "script": "table.lua" }
  ]
}
"##,
    );
    common::write(
        dir,
        "assets/scripts/table.lua",
        "function start(e)\n  Kotoba.puzzle(e, \"builtin\")\nend\n",
    );
}

/// How many pixels are the renderer's missing-texture magenta.
fn magenta(frame: &jengine_tool::render::Frame) -> usize {
    frame
        .rgba
        .chunks_exact(4)
        .filter(|p| p[0] > 240 && p[1] < 16 && p[2] > 240)
        .count()
}

/// How many pixels differ between two frames of one size.
fn changed(a: &jengine_tool::render::Frame, b: &jengine_tool::render::Frame) -> usize {
    a.rgba
        .chunks_exact(4)
        .zip(b.rgba.chunks_exact(4))
        .filter(|(x, y)| x != y)
        .count()
}

#[test]
fn a_listed_package_draws_with_its_own_art_and_a_projects_file_overrides_it() {
    let root = common::workspace();
    let mut hash: u32 = 0x811c_9dc5;
    for byte in root.to_string_lossy().bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    let home = std::env::temp_dir().join(format!("jengine-outside-kotoba-{hash:08x}"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let home = std::fs::canonicalize(&home).unwrap();
    let home = home.as_path();
    assert!(jengine::host::workspace_root(home).is_none());
    kotoba_project(&home.join("board"), &root);
    assert!(!home.join("board/assets/textures").exists());

    let check = jengine(home, &["check", "--dev", "board"]);
    assert_eq!(
        text(&check.stdout),
        "board: ok (1 scene, 1 script, 0 tables)\n"
    );

    let shot = |out: &str| {
        let run = jengine(
            home,
            &[
                "shot", "--dev", "board", "--frames", "3", "--size", "640x360", "--out", out,
            ],
        );
        let stderr = text(&run.stderr);
        assert!(!stderr.contains("checker"), "{stderr}");
        jengine_testkit::golden::read_png(&home.join(out)).unwrap()
    };
    let bare = shot("bare.png");
    assert_eq!(magenta(&bare), 0, "the board is drawn as missing textures");
    // The board, its frame and the hand cover a good part of the picture, in more than the
    // clear colour.
    let clear = [0x1a, 0x20, 0x30, 0xff];
    let drawn = bare.rgba.chunks_exact(4).filter(|p| *p != clear).count();
    assert!(drawn > 640 * 360 / 5, "only {drawn} pixels drawn");
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    jengine_testkit::golden::check(&goldens, &out, "kotoba_default_art", &bare)
        .unwrap_or_else(|e| panic!("{e}"));

    // The project's own tile, by the same name, wins over the package's.
    let own = jengine_tool::render::Frame {
        width: 64,
        height: 64,
        rgba: [40, 200, 90, 255].repeat(64 * 64),
    };
    let textures = home.join("board/assets/textures/kotoba");
    std::fs::create_dir_all(&textures).unwrap();
    own.save_png(&textures.join("tile.png")).unwrap();
    let check = jengine(home, &["check", "--dev", "board"]);
    assert!(
        text(&check.stdout).contains("ok"),
        "{}",
        text(&check.stdout)
    );
    let mine = shot("mine.png");
    assert_eq!(magenta(&mine), 0);
    let green = |f: &jengine_tool::render::Frame| {
        f.rgba
            .chunks_exact(4)
            .filter(|p| p[1] > 150 && p[0] < 90 && p[2] < 130)
            .count()
    };
    assert!(
        green(&mine) > 2000 && green(&bare) < 100,
        "own tiles: {} green pixels, defaults: {}",
        green(&mine),
        green(&bare)
    );
    assert!(changed(&bare, &mine) > 2000);
}
