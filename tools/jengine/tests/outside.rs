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
    let files: Vec<(String, String)> = doc_files(&doc)
        .into_iter()
        .filter(|(p, _)| p.starts_with("greeter"))
        .collect();
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

/// The page's project that lists jengine-kotoba and has no art of its own (a project file, a
/// scene and a script), written into `home` as a new user would, outside the workspace.
fn kotoba_project(home: &Path, root: &Path) {
    let doc = std::fs::read_to_string(root.join("docs/writing-a-package.md")).unwrap();
    let files: Vec<(String, String)> = doc_files(&doc)
        .into_iter()
        .filter(|(p, _)| p.starts_with("board/"))
        .collect();
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "board/project.jengine",
            "board/assets/scenes/main.scene",
            "board/assets/scripts/table.lua",
        ]
    );
    for (path, body) in &files {
        common::write(home, path, &body.replace(CHECKOUT, root.to_str().unwrap()));
    }
}

/// The tool run from `dir` when it is expected to fail: its exit code and what it printed on
/// stderr.
fn jengine_failing(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jengine"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (out.status.code(), text(&out.stderr))
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
    kotoba_project(home, &root);
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

    // The page's docs command writes the listed packages' pages into the project, outside
    // ones included, with typed commands and the entries as this project lists them.
    let docs = jengine(home, &["docs", "--dev", "board"]);
    assert!(
        text(&docs.stdout).contains("board/docs/packages/jengine-kotoba.md"),
        "{}",
        text(&docs.stdout)
    );
    let page = std::fs::read_to_string(home.join("board/docs/packages/jengine-kotoba.md")).unwrap();
    for want in [
        "| `Kotoba.puzzle(e: entity, stage: string)` |",
        "| Listed by | this project (bare-board) |",
        "\"path\": \"",
        "- `assets/scenes/main.scene`",
    ] {
        assert!(page.contains(want), "{want:?} is not on the page:\n{page}");
    }
    assert!(!page.contains("../../packages/jengine-kotoba"), "{page}");
    for name in ["jengine-net", "jengine-online"] {
        assert!(
            home.join(format!("board/docs/packages/{name}.md"))
                .is_file()
        );
    }

    // The usual mistakes fail the check with their place and a way out, exit code 1.
    std::fs::write(
        home.join("board/assets/scripts/table.lua"),
        "function start(e)\n  Kotoba.puzle(e, \"builtin\")\n  Kotoba.puzzle(e, 3)\n  Kotoba.puzzle(e, \"s99\")\nend\n",
    )
    .unwrap();
    let (code, stderr) = jengine_failing(home, &["check", "--dev", "board"]);
    assert_eq!(code, Some(1), "{stderr}");
    for want in [
        "error: assets/scripts/table.lua:2: Kotoba.puzle is not a command or function; did you mean Kotoba.puzzle?",
        "error: assets/scripts/table.lua:3: Kotoba.puzzle(e: entity, stage: string): argument 2 (stage) must be string, got 3",
        "error: assets/scripts/table.lua:4: Kotoba.puzzle(e: entity, stage: string): argument 2 (stage) names \"s99\", but there is no table data/kotoba_stages.json (it also takes \"builtin\")",
        "board: 3 problem(s)",
    ] {
        assert!(stderr.contains(want), "{want:?} not in:\n{stderr}");
    }
    // With the stages table, the unknown id gets the closest one there is.
    common::write(
        home,
        "board/data/kotoba_stages.json",
        &std::fs::read_to_string(root.join("projects/kotodama/data/kotoba_stages.json")).unwrap(),
    );
    let (_, stderr) = jengine_failing(home, &["check", "--dev", "board"]);
    assert!(
        stderr.contains("names \"s99\", but data/kotoba_stages.json has no row with that id (it also takes \"builtin\"); did you mean \"s09\"?"),
        "{stderr}"
    );

    // A v1 scene keeps the table inert: a warning that passes, and fails under --strict.
    std::fs::write(
        home.join("board/assets/scripts/table.lua"),
        "function start(e)\n  Kotoba.puzzle(e, \"s01\")\nend\n",
    )
    .unwrap();
    let scene = home.join("board/assets/scenes/main.scene");
    let v2 = std::fs::read_to_string(&scene).unwrap();
    std::fs::write(&scene, v2.replace("\"version\": 2", "\"version\": 1")).unwrap();
    let check = jengine(home, &["check", "--dev", "board"]);
    assert_eq!(
        text(&check.stdout),
        "board: ok (1 scene, 1 script, 1 table; 1 warning)\n"
    );
    assert!(
        text(&check.stderr).contains("warning: assets/scenes/main.scene: key \"kotoba_table\" (a component of jengine-kotoba) is kept as inert custom data"),
        "{}",
        text(&check.stderr)
    );
    let (code, stderr) = jengine_failing(home, &["check", "--dev", "--strict", "board"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("board: 0 problem(s) and 1 warning (--strict)"),
        "{stderr}"
    );
}
