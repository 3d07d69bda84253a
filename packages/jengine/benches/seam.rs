//! The seam's hot paths: Lua → command calls, loading a large v2 scene, publishing a bag.

use criterion::{Criterion, Throughput, criterion_main};
use jengine::host::{Limits, Scene, ScriptHost};
use jengine::value::entity;
use jengine::{Package, Registry, Script, World};
use serde::{Deserialize, Serialize};

struct BenchPackage;

#[derive(Serialize, Deserialize, Default)]
struct Tile {
    kana: String,
    x: i32,
    y: i32,
}

/// A bag of about fifty fields: twenty named scalars and a row of thirty numbers.
#[derive(Serialize, Deserialize, Default, Clone)]
struct Big {
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    b0: i64,
    b1: i64,
    b2: i64,
    b3: i64,
    b4: i64,
    b5: i64,
    b6: i64,
    b7: i64,
    name: String,
    over: bool,
    row: Vec<i32>,
}

impl Package for BenchPackage {
    fn name(&self) -> &'static str {
        "bench"
    }
    fn register(&self, reg: &mut Registry) {
        reg.component::<Tile>("tile");
        reg.command("Bench", "noop", (entity("e"),), |_, _| Ok(()));
        reg.bag::<Big>("big");
    }
}

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
    let big = Big {
        name: "rival".into(),
        row: (0..30).collect(),
        ..Big::default()
    };
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
