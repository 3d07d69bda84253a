//! One battle frame as the host runs it: a 12x12 board, both hands shown, the sea behind it
//! covering a 1280x720 screen. The package's systems plus publishing the bag to Lua, and the
//! whole frame rendered.

use std::path::Path;

use criterion::{Criterion, criterion_main};
use jengine::host::{Limits, ScriptHost};
use jengine::{Args, Registry, Tables, Time, Value, World};
use jengine_kotoba::KotobaPackage;
use jengine_testkit::Renderer;

fn battle_world() -> (Registry, World, ScriptHost) {
    let registry = Registry::with(&[&KotobaPackage]);
    let mut world = World::new();
    let row = |i: usize| {
        if i == 5 {
            "....ことば.....".to_string()
        } else {
            ".".repeat(12)
        }
    };
    let board: Vec<String> = (0..12).map(row).collect();
    let rivals = serde_json::json!([{
        "id": "bench", "name": "ベンチ", "title": "Plays every frame", "life": 9999,
        "sight": 1.0, "think": 0.5, "hand": 8, "board": board
    }]);
    let mut tables = Tables::default();
    tables
        .insert_json("kotoba_rivals", &rivals.to_string())
        .unwrap();
    world.resources.insert(tables);
    let spawn = |world: &mut World, json: serde_json::Value| {
        let text = serde_json::json!({"version": 2, "entities": [json]}).to_string();
        let scene = jengine::host::Scene::parse("bench.scene", &text, &registry).unwrap();
        scene.spawn(world)[0]
    };
    spawn(
        &mut world,
        serde_json::json!({"name": "camera", "camera": {"center": [0, 0], "size": [16, 9]}}),
    );
    spawn(
        &mut world,
        serde_json::json!({"name": "sea", "kotoba_waves": {"area": [22, 13]}}),
    );
    let table = spawn(
        &mut world,
        serde_json::json!({"name": "table", "kotoba_table": {"board_max": [7, 6], "cell": 0.5}}),
    );
    let bits = Value::Int(table.to_bits().get() as i64);
    registry
        .find_command("Kotoba.battle")
        .unwrap()
        .apply(
            &mut world,
            Args::new(vec![bits, Value::Str("bench".into())]),
        )
        .unwrap();
    let host = ScriptHost::new(&registry, Path::new("."), Limits::default(), 1).unwrap();
    // Past the countdown and into a busy fight.
    for _ in 0..(60 * 8) {
        step(&registry, &mut world);
    }
    (registry, world, host)
}

fn step(registry: &Registry, world: &mut World) {
    let mut time = world.resources.get::<Time>().copied().unwrap_or_default();
    time.frame += 1;
    time.elapsed += 1.0 / 60.0;
    world.resources.insert(time);
    for system in registry.systems() {
        system.run(world, 1.0 / 60.0);
    }
}

fn frame(c: &mut Criterion) {
    let (registry, mut world, mut host) = battle_world();
    c.bench_function("kotoba/battle_frame_systems_and_bag", |b| {
        b.iter(|| {
            step(&registry, &mut world);
            host.publish_bags(&registry, &world).unwrap();
        })
    });
    let assets = kotodama_tests::project().join("assets");
    let mut renderer = Renderer::new(&assets);
    renderer.preload(&world);
    c.bench_function("kotoba/battle_frame_rendered_1280x720", |b| {
        b.iter(|| renderer.render(&world, 1280, 720))
    });
}

/// The sea alone: 858 scales over a 1280x720 screen, rings spreading, stepped and written into
/// its sprites.
fn sea(c: &mut Criterion) {
    let registry = Registry::with(&[&KotobaPackage]);
    let mut world = World::new();
    let text = serde_json::json!({"version": 2, "entities": [
        {"name": "sea", "kotoba_waves": {"area": [22, 13]}}
    ]})
    .to_string();
    let sea = jengine::host::Scene::parse("bench.scene", &text, &registry)
        .unwrap()
        .spawn(&mut world)[0];
    jengine_kotoba::draw::sea::system(&mut world, 1.0 / 60.0);
    let mut n = 0u32;
    c.bench_function("kotoba/sea_step_858_scales", |b| {
        b.iter(|| {
            n += 1;
            if n.is_multiple_of(30) {
                let mut s = jengine_kotoba::draw::sea::sea_mut(&mut world, sea).unwrap();
                let at = [(n % 7) as f32 - 3.0, (n % 5) as f32 - 2.0];
                jengine_kotoba::sea::ripple(&mut s, at, 1.0, None).unwrap();
            }
            jengine_kotoba::draw::sea::system(&mut world, 1.0 / 60.0);
        })
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    frame(&mut c);
    sea(&mut c);
}

criterion_main!(benches);
