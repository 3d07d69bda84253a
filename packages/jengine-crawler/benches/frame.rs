//! A crawler frame as the host runs it: after a turn, the package's systems (the view rebuilt,
//! the bags remade, the mesh pool written), and the whole frame rendered at 1280x720 through a
//! generated sheet.

use std::path::Path;

use criterion::{Criterion, criterion_main};
use jengine::{Args, Registry, Tables, Time, Value, World};
use jengine_crawler::CrawlerPackage;
use jengine_testkit::Renderer;

/// A room with pillars, a corridor with doors and a chest, a monster: a busy picture.
fn levels() -> String {
    serde_json::json!([{
        "name": "Bench Hall",
        "map": ["###########",
                "#<........#",
                "#..#...#..#",
                "#.........#",
                "#..#.C.#..#",
                "#....M....#",
                "####+#=####",
                "#L..A...>.#",
                "###########"],
        "start": [5, 3], "facing": "north",
        "monsters": ["rat"], "chests": ["key:1"], "levers": [{"at": [1, 7]}]
    }])
    .to_string()
}
const MONSTERS: &str = r#"[{"name": "rat", "hp": 3, "art": "m_rat"}]"#;

fn world() -> (Registry, World) {
    let registry = Registry::with(&[&CrawlerPackage]);
    let mut world = World::new();
    let mut tables = Tables::default();
    tables.insert_json("crawl_levels", &levels()).unwrap();
    tables.insert_json("crawl_monsters", MONSTERS).unwrap();
    tables.insert_json("crawl_crawlers", "[]").unwrap();
    world.resources.insert(tables);
    let text = serde_json::json!({"version": 2, "entities": [
        {"name": "camera", "camera": {"center": [0, 0], "size": [16, 9]}},
        {"name": "crawl", "crawl_game": {"view_origin": [0, 0], "publish_view": false}}
    ]})
    .to_string();
    jengine::host::Scene::parse("bench.scene", &text, &registry)
        .unwrap()
        .spawn(&mut world);
    step(&registry, &mut world);
    (registry, world)
}

fn step(registry: &Registry, world: &mut World) {
    let mut time = world.resources.get::<Time>().copied().unwrap_or_default();
    time.frame += 1;
    world.resources.insert(time);
    for system in registry.systems() {
        system.run(world, 1.0 / 60.0);
    }
}

/// A 1024x1024 sheet of sixteen shaded, striped regions and a 1024x256 monster strip.
fn sheet(dir: &Path) {
    let textures = dir.join("textures/crawler");
    std::fs::create_dir_all(&textures).unwrap();
    let paint = |w: u32, h: u32, path: &Path| {
        let mut p = tiny_skia::Pixmap::new(w, h).unwrap();
        for (i, px) in p.pixels_mut().iter_mut().enumerate() {
            let (x, y) = (i as u32 % w, i as u32 / w);
            let region = (y / 256) * 4 + x / 256;
            let stripe = if (x / 16 + y / 16) % 2 == 0 { 40 } else { 0 };
            let r = (60 + region * 12 + stripe) as u8;
            let g = (90 + (region * 37) % 120) as u8;
            let b = (120 + (region * 53) % 100) as u8;
            *px = tiny_skia::ColorU8::from_rgba(r, g, b, 255).premultiply();
        }
        p.save_png(path).unwrap();
    };
    paint(1024, 1536, &textures.join("crawler.png"));
    paint(1024, 256, &textures.join("monsters.png"));
}

fn frame(c: &mut Criterion) {
    let (registry, mut world) = world();
    let crawl = world.find("crawl").unwrap();
    let turn = registry.find_command("Crawler.turn").unwrap();
    let bits = Value::Int(crawl.to_bits().get() as i64);
    c.bench_function("crawler/frame_after_a_turn_systems", |b| {
        b.iter(|| {
            turn.apply(&mut world, Args::new(vec![bits.clone(), Value::Int(1)]))
                .unwrap();
            step(&registry, &mut world);
        })
    });
    // Facing into the room, the busiest picture.
    while world
        .entities
        .get::<&jengine_crawler::StateBag>(crawl)
        .unwrap()
        .facing
        != "north"
    {
        turn.apply(&mut world, Args::new(vec![bits.clone(), Value::Int(1)]))
            .unwrap();
        step(&registry, &mut world);
    }
    let dir = tempfile::tempdir().unwrap();
    sheet(dir.path());
    let mut renderer = Renderer::new(dir.path());
    renderer.preload(&world);
    // The sheet is found and every mesh is drawable: a warning would mean a checker is drawn.
    renderer.render(&world, 1280, 720);
    let warnings = renderer.take_warnings();
    assert!(warnings.is_empty(), "{warnings:#?}");
    c.bench_function("crawler/frame_rendered_1280x720", |b| {
        b.iter(|| renderer.render(&world, 1280, 720))
    });
    // The same frame with nothing but the camera: what any frame costs before the picture.
    let meshes: Vec<jengine::Entity> = world
        .entities
        .query::<(jengine::Entity, &jengine::Mesh2D)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    for e in meshes {
        world.entities.despawn(e).unwrap();
    }
    c.bench_function("crawler/empty_frame_rendered_1280x720", |b| {
        b.iter(|| renderer.render(&world, 1280, 720))
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    frame(&mut c);
}

criterion_main!(benches);
