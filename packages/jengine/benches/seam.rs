//! The seam's hot paths: Lua → command calls, loading a large v2 scene, publishing a bag.

use criterion::{Criterion, Throughput, criterion_main};
use jengine::host::{Limits, Scene, ScriptHost};
use jengine::{Registry, Script, World};

mod common;
use common::{BenchPackage, Big};

fn command_calls(c: &mut Criterion) {
    const CALLS: u64 = 10_000;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("calls.lua"),
        format!("function update(e, dt)\n  for i = 1, {CALLS} do Bench.noop(e) end\nend\n"),
    )
    .unwrap();
    let registry = Registry::with(&[&BenchPackage]);
    let mut host = ScriptHost::new(&registry, dir.path(), Limits::default(), 1).unwrap();
    let mut world = World::new();
    let e = world.entities.spawn((Script("calls.lua".into()),));
    assert!(host.attach(&mut world, &[e]).is_empty());
    host.start(&mut world);
    let mut group = c.benchmark_group("lua");
    group.throughput(Throughput::Elements(CALLS));
    group.bench_function("command_calls_10k", |b| {
        b.iter(|| {
            host.update(&mut world, 1.0 / 60.0);
            assert_eq!(host.take_queue().len(), CALLS as usize);
        })
    });
    group.finish();
    assert!(world.log().lines().is_empty(), "{:?}", world.log().lines());
}

fn scene_load(c: &mut Criterion) {
    let registry = Registry::with(&[&BenchPackage]);
    let entities: Vec<serde_json::Value> = (0..2000)
        .map(|i| {
            serde_json::json!({
                "name": format!("tile{i}"),
                "transform": {"pos": [i % 50, i / 50], "z": 1},
                "sprite": {"texture": "tile.png", "size": [1, 1], "tint": "#ffeeddff"},
                "tile": {"kana": "か", "x": i % 50, "y": i / 50}
            })
        })
        .collect();
    let text = serde_json::json!({"version": 2, "entities": entities}).to_string();
    c.bench_function("scene/load_2000_entities_v2", |b| {
        b.iter(|| {
            let scene = Scene::parse("bench.scene", &text, &registry).unwrap();
            let mut world = World::new();
            assert_eq!(scene.spawn(&mut world).len(), 2000);
        })
    });
}

fn bag_publish(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("read.lua"),
        "total = 0\nfunction update(e, dt)\n  local b = Entity.get(e, 'big')\n  total = b.a0 + b.a9 + b.b7 + #b.row + b.row[30] + (b.over and 1 or 0) + #b.name\nend\n",
    )
    .unwrap();
    let registry = std::rc::Rc::new(Registry::with(&[&BenchPackage]));
    let mut host = ScriptHost::new(&registry, dir.path(), Limits::default(), 1).unwrap();
    // What lets `Entity.get` find a package's bag, as the runtime sets it.
    host.set_registry(registry.clone());
    let mut world = World::new();
    let big = Big::filled();
    let e = world.entities.spawn((big, Script("read.lua".into())));
    assert!(host.attach(&mut world, &[e]).is_empty());
    host.start(&mut world);
    c.bench_function("bag/publish_50_fields_and_read_in_lua", |b| {
        b.iter(|| {
            host.publish_bags(&registry, &world).unwrap();
            host.update(&mut world, 1.0 / 60.0);
        })
    });
    assert!(world.log().lines().is_empty(), "{:?}", world.log().lines());
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    command_calls(&mut c);
    scene_load(&mut c);
    bag_publish(&mut c);
}

criterion_main!(benches);
