//! A project runs the same from bytes in memory as from its folder on disk: the runtime, the
//! renderer and the mixer read every file through [`Assets`], and never open a path.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jengine::host::{AssetProblem, Assets, DiskAssets, MemoryAssets, within};
use jengine_counter::CounterPackage;
use jengine_render::Renderer;
use jengine_runtime::input::InputScript;
use jengine_runtime::{Options, Runtime, trace};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project")
}

/// The names of every file under `from`, relative to it, sorted.
fn files(from: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![from.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(from).unwrap().to_string_lossy();
                names.push(name.replace('\\', "/"));
            }
        }
    }
    names.sort();
    names
}

/// The counter fixture in a folder of its own, its box textured and its label in a font of the
/// project's, so drawing reads files too; and the same files as a set in memory.
fn the_project_twice() -> (tempfile::TempDir, Arc<dyn Assets>, Arc<dyn Assets>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for name in files(&fixture()) {
        std::fs::create_dir_all(root.join(&name).parent().unwrap()).unwrap();
        std::fs::copy(fixture().join(&name), root.join(&name)).unwrap();
    }
    let render = Path::new(env!("CARGO_MANIFEST_DIR")).join("../render");
    std::fs::create_dir_all(root.join("assets/textures")).unwrap();
    std::fs::create_dir_all(root.join("assets/fonts")).unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::copy(
        workspace.join("projects/miau/assets/textures/tile.png"),
        root.join("assets/textures/box.png"),
    )
    .unwrap();
    std::fs::copy(
        render.join("fonts/Mplus1-Regular.subset.otf"),
        root.join("assets/fonts/label.otf"),
    )
    .unwrap();
    let scene = root.join("assets/scenes/main.scene");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&scene).unwrap()).unwrap();
    v["entities"][1]["sprite"]["texture"] = "box.png".into();
    v["entities"][2]["text"]["font"] = "label.otf".into();
    std::fs::write(&scene, v.to_string()).unwrap();

    let mut memory = MemoryAssets::new();
    for name in files(root) {
        memory
            .insert(&name, std::fs::read(root.join(&name)).unwrap())
            .unwrap();
    }
    let disk = Arc::new(DiskAssets::new(root));
    (dir, disk, Arc::new(memory))
}

/// Pointer presses that push the count past 100 (so `Scene.load("legacy")` reads a second
/// scene and script), keys, a paste and typed text.
const INPUT: &str = r#"[
  { "frame": 2, "type": "pointer", "phase": "press", "x": 40, "y": 0 },
  { "frame": 4, "type": "key", "key": "c", "down": true },
  { "frame": 5, "type": "text", "text": "hi" },
  { "frame": 8, "type": "key", "key": "r", "down": true },
  { "frame": 12, "type": "pointer", "phase": "press", "x": 70, "y": 0 },
  { "frame": 20, "type": "pointer", "phase": "press", "x": 90, "y": 0 }
]"#;

/// Each frame's trace line, log lines and picture.
fn run(assets: Arc<dyn Assets>) -> (Vec<String>, Vec<String>, Vec<Vec<u8>>) {
    let mut rt = Runtime::with_assets(assets.clone(), &[&CounterPackage], Options::default())
        .unwrap_or_else(|e| panic!("{e:#?}"));
    let mut renderer = Renderer::with_assets(within(&assets, "assets"));
    let mut input = InputScript::parse(INPUT).unwrap();
    let (mut lines, mut log, mut frames) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..40 {
        let events = input.due(rt.frame() + 1);
        rt.step(&events);
        lines.push(trace::line(&rt));
        log.extend(rt.take_log().into_iter().map(|l| l.message));
        if rt.frame().is_multiple_of(4) {
            renderer.preload(&rt.world);
            frames.push(renderer.render(&rt.world, 160, 90).rgba);
        }
    }
    let warnings = renderer.take_warnings();
    assert!(
        warnings.is_empty(),
        "the texture and font were read: {warnings:#?}"
    );
    assert_eq!(rt.scene(), "legacy", "the run reaches its second scene");
    (lines, log, frames)
}

#[test]
fn a_project_run_from_memory_gives_the_frames_and_trace_it_gives_from_disk() {
    let (_dir, disk, memory) = the_project_twice();
    let (disk_lines, disk_log, disk_frames) = run(disk);
    let (memory_lines, memory_log, memory_frames) = run(memory);
    assert_eq!(disk_lines.len(), 40);
    assert_eq!(memory_lines, disk_lines);
    assert_eq!(memory_log, disk_log);
    assert!(
        disk_log
            .iter()
            .any(|l| l.ends_with("first goal first at 10")),
        "the table was read: {disk_log:#?}"
    );
    assert_eq!(memory_frames.len(), disk_frames.len());
    assert!(memory_frames == disk_frames, "the pictures differ");
}

#[test]
fn a_missing_start_scene_or_project_file_names_its_path_in_memory_and_on_disk() {
    let (dir, disk, memory) = the_project_twice();
    for (assets, scene_path) in [
        (disk, dir.path().join("assets/scenes/gone.scene")),
        (memory, PathBuf::from("assets/scenes/gone.scene")),
    ] {
        let options = Options {
            scene: Some("gone".into()),
            ..Options::default()
        };
        let err = Runtime::with_assets(assets.clone(), &[&CounterPackage], options)
            .err()
            .unwrap();
        assert_eq!(
            err,
            ["assets/scenes/gone.scene: cannot read scene: no such file"]
        );
        let missing = assets.read("assets/scenes/gone.scene").unwrap_err();
        assert_eq!(
            (missing.path, missing.problem),
            (scene_path, AssetProblem::Missing)
        );
    }
    let err = Runtime::with_assets(
        Arc::new(MemoryAssets::named("web/counter")),
        &[&CounterPackage],
        Options::default(),
    )
    .err()
    .unwrap();
    assert_eq!(
        err,
        ["web/counter/project.jengine: cannot read: no such file"]
    );
}

#[test]
fn a_scene_that_climbs_out_of_its_folder_is_refused_in_memory_as_on_disk() {
    let (_dir, disk, memory) = the_project_twice();
    for assets in [disk, memory] {
        let mut rt = Runtime::with_assets(assets, &[&CounterPackage], Options::default()).unwrap();
        for name in ["../../project", "/etc/passwd"] {
            let err = rt.load_scene(name).unwrap_err();
            let rule = jengine::host::check_asset_name(name).unwrap_err();
            assert_eq!(err, format!("scene {rule}"));
        }
        assert_eq!(rt.scene(), "main");
    }
}

/// What of `std::fs` the runtime, renderer and mixer may still use, outside their tests: the
/// outputs a desktop run asks for by path, none of them a game's file.
const WRITES: &[(&str, &str)] = &[
    // `jengine run --trace <file>`.
    ("runtime/src/trace.rs", "std::io::BufWriter<std::fs::File>"),
    ("runtime/src/trace.rs", "std::fs::File::create(path)"),
    // `Frame::save_png`, for `jengine shot` and goldens.
    ("render/src/frame.rs", "std::fs::File::create(path)"),
];

/// Ways of reaching the file system that a loader would use.
const REACHES: &[&str] = &[
    "fs::",
    "File::open",
    "read_dir",
    "canonicalize",
    ".is_file()",
    ".is_dir()",
    ".exists()",
];

#[test]
fn the_runtime_renderer_and_mixer_open_no_path_outside_their_tests() {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut allowed_seen = 0;
    for krate in ["runtime", "render", "audio"] {
        let src = tools.join(krate).join("src");
        let root = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        for name in files(&src) {
            if !name.ends_with(".rs") {
                continue;
            }
            // A module the crate root compiles only for its tests is test code throughout.
            let module = name.trim_end_matches(".rs");
            if root.contains(&format!("#[cfg(test)]\nmod {module};")) {
                continue;
            }
            let file = format!("{krate}/src/{name}");
            let text = std::fs::read_to_string(src.join(&name)).unwrap();
            // A file's unit tests are its last item, by the workspace's layout.
            let code = text.split("\n#[cfg(test)]\nmod ").next().unwrap();
            for (i, line) in code.lines().enumerate() {
                let line = line.trim();
                if line.starts_with("//") || !REACHES.iter().any(|r| line.contains(r)) {
                    continue;
                }
                if WRITES.iter().any(|(f, s)| *f == file && line.contains(s)) {
                    allowed_seen += 1;
                } else {
                    found.push(format!("{file}:{}: {line}", i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "files are read through jengine::host::Assets, never by path:\n{}",
        found.join("\n")
    );
    assert_eq!(
        allowed_seen,
        WRITES.len(),
        "every named write is still there"
    );
}
