//! Miau frames as the host runs them, on the largest level the contract allows (64x64 cells,
//! 4,096 entities, a third of them cats that are YOU), through the game's own play scene and
//! script: a key press becomes `Miau.move`, the move is applied, the package's systems remake
//! the bags and start every moved piece's slide, and the script reads the `Miau` bag as it does
//! each frame. Also: the same frame rendered at 1280x720, and the cost of a script reading the
//! whole `MiauBoard` bag (4,096 pieces) every frame.

use std::path::Path;

use criterion::{Criterion, criterion_main};
use jengine_miau::MiauPackage;
use jengine_testkit::{Event, Options, Renderer, Runtime};
use miau_tests::project;

/// One level of 64x64 cells, every cell an entity: three sentences and a field of cats,
/// rocks and flags.
fn big_pack() -> serde_json::Value {
    let mut objects = Vec::with_capacity(4096);
    for (i, w) in [
        "CAT", "IS", "YOU", "FLAG", "IS", "WIN", "ROCK", "IS", "PUSH",
    ]
    .iter()
    .enumerate()
    {
        objects.push(serde_json::json!({ "kind": "word", "text": w, "x": i % 3, "y": i / 3 }));
    }
    for i in objects.len()..4096 {
        let noun = if i % 7 == 0 {
            "FLAG"
        } else if i % 3 == 0 {
            "CAT"
        } else {
            "ROCK"
        };
        objects
            .push(serde_json::json!({ "kind": "object", "noun": noun, "x": i % 64, "y": i / 64 }));
    }
    serde_json::json!({
        "manifest": { "id": "big-pack", "name": "Big Pack", "version": "1.0.0" },
        "palette": { "CAT": { "glyph": "🐈", "faces": "left" }, "FLAG": "🚩", "ROCK": "🪨" },
        "levels": [{ "id": "field", "width": 64, "height": 64, "objects": objects }],
    })
}

/// A copy of the game whose play scene starts on the big level, with the big pack installed
/// in its data folder; `extra` is one more script line run every frame.
fn game(dir: &Path, extra: &str) -> Runtime {
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to).unwrap();
        for f in std::fs::read_dir(from).unwrap() {
            let f = f.unwrap();
            if f.path().is_file() {
                std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
            }
        }
    };
    let root = dir.join("miau");
    for sub in [
        "assets/scenes",
        "assets/scripts",
        "assets/scripts/ui",
        "assets/textures",
    ] {
        copy(&project().join(sub), &root.join(sub));
    }
    // The game's own package entries, their paths made absolute for the copy's folder.
    let listed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project().join("project.jengine")).unwrap())
            .unwrap();
    let mut packages = listed["packages"].clone();
    for entry in packages.as_array_mut().unwrap() {
        let path = project().join(entry["source"]["path"].as_str().unwrap());
        entry["source"]["path"] = path.display().to_string().into();
    }
    let manifest = serde_json::json!({
        "name": "miau-bench", "version": "0.1.0", "start_scene": "play",
        "window": { "width": 1280, "height": 720, "title": "bench" },
        "packages": packages
    });
    std::fs::write(root.join("project.jengine"), manifest.to_string()).unwrap();
    let play = std::fs::read_to_string(root.join("assets/scenes/play.scene")).unwrap();
    let play = play.replace(
        "\"draw\": true",
        "\"pack\": \"big-pack\", \"level\": \"field\", \"draw\": true",
    );
    std::fs::write(root.join("assets/scenes/play.scene"), play).unwrap();
    let script = root.join("assets/scripts/play.lua");
    let mut lua = std::fs::read_to_string(&script).unwrap();
    lua = lua.replace(
        "function update(e, dt)\n",
        &format!("function update(e, dt)\n  {extra}\n"),
    );
    std::fs::write(&script, lua).unwrap();
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("miau/packs")).unwrap();
    std::fs::write(
        data.join("miau/packs/big-pack.json"),
        big_pack().to_string(),
    )
    .unwrap();
    let options = Options {
        save_dir: Some(data),
        ..Options::default()
    };
    let mut rt = Runtime::new(&root, &[&MiauPackage], options).unwrap_or_else(|p| panic!("{p:?}"));
    for _ in 0..5 {
        rt.step(&[]);
    }
    rt
}

fn press(rt: &mut Runtime, right: &mut bool) {
    let key = if *right { "right" } else { "left" };
    *right = !*right;
    rt.step(&[Event::Key {
        key: key.into(),
        down: true,
    }]);
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = game(&dir.path().join("a"), "");
    let pieces = rt
        .bags()
        .as_object()
        .unwrap()
        .values()
        .find_map(|v| v.get("MiauBoard"))
        .unwrap()["pieces"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(pieces, 4096, "the big level is on the board");
    let mut right = true;
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    group.bench_function("move applied and published (4,096 entities)", |b| {
        b.iter(|| press(&mut rt, &mut right))
    });
    let mut renderer = Renderer::new(&rt.project.dir.join("assets"));
    renderer.preload(&rt.world);
    group.bench_function("play frame rendered 1280x720 (4,096 entities)", |b| {
        b.iter(|| {
            press(&mut rt, &mut right);
            renderer.render(&rt.world, 1280, 720)
        })
    });
    group.bench_function("quiet frame (4,096 entities)", |b| b.iter(|| rt.step(&[])));
    let mut reader = game(
        &dir.path().join("b"),
        "local board = Entity.get(e, \"MiauBoard\"); assert(#board.pieces == 4096)",
    );
    group.bench_function("quiet frame, the script reading MiauBoard", |b| {
        b.iter(|| reader.step(&[]))
    });
    group.finish();
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
