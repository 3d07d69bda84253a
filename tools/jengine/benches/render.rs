//! Renderer benchmark: one 1280x720 frame of 1,000 tinted 64 px sprites, 300 glyphs and 64
//! perspective quads (goal: 8 ms or less on one core). The quads tile the whole frame once,
//! shaded; the sprites land everywhere, about four deep. A second frame draws 4,096 emoji text
//! entities at 24 px, a 64 by 64 board of a pack's palette as Miau may draw it.

use criterion::{Criterion, criterion_main};
use jengine::{Camera2D, Color, Mesh2D, Sprite, Text, Transform2D, Vertex, World};
use jengine_tool::render::Renderer;

/// Writes a 64x64 RGBA PNG with a soft-edged disc, so blending is exercised.
fn write_texture(path: &std::path::Path) {
    let mut rgba = Vec::with_capacity(64 * 64 * 4);
    for y in 0..64i32 {
        for x in 0..64i32 {
            let d = (((x - 32).pow(2) + (y - 32).pow(2)) as f32).sqrt();
            let a = ((32.0 - d) * 64.0).clamp(0.0, 255.0) as u8;
            rgba.extend_from_slice(&[(x * 4) as u8, (y * 4) as u8, 200, a]);
        }
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut encoder = png::Encoder::new(file, 64, 64);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&rgba).unwrap();
}

fn scene() -> World {
    let mut world = World::new();
    world.spawn((Camera2D::default(),));
    // 64 trapezoids, 8 by 8 across the screen, each narrowing to the right with q falling.
    for i in 0..64 {
        let (cx, cy) = ((i % 8) as f32 * 2.0 - 7.0, (i / 8) as f32 * 1.125 - 3.94);
        let v = |x: f32, y: f32, u: f32, w: f32, q: f32| Vertex {
            pos: [cx + x, cy + y],
            uv: [u, w],
            q,
            shade: 0.5 + 0.5 * q,
        };
        world.spawn((Mesh2D {
            texture: "ball.png".into(),
            tint: Color::WHITE,
            vertices: vec![
                v(-1.0, 0.56, 0.0, 0.0, 1.0),
                v(1.0, 0.3, 4.0, 0.0, 0.5),
                v(1.0, -0.3, 4.0, 1.0, 0.5),
                v(-1.0, -0.56, 0.0, 1.0, 1.0),
            ],
            indices: vec![0, 1, 2, 0, 2, 3],
        },));
    }
    for i in 0..1000 {
        let (x, y) = (
            (i * 37 % 150) as f32 / 10.0 - 7.5,
            (i * 53 % 80) as f32 / 10.0 - 4.0,
        );
        world.spawn((
            Transform2D {
                pos: [x, y],
                z: 1.0,
                ..Transform2D::default()
            },
            Sprite {
                texture: "ball.png".into(),
                size: [0.8, 0.8],
                tint: Color([1.0, (i % 7) as f32 / 7.0, 0.5, 0.9]),
                ..Sprite::default()
            },
        ));
    }
    for i in 0..10 {
        world.spawn((
            Transform2D {
                pos: [0.0, i as f32 * 0.8 - 3.6],
                z: 2.0,
                ..Transform2D::default()
            },
            Text {
                text: "Score 12345 ことばのもり 言葉の森 tiles!!! ok".into(), // 30 glyphs
                size: 0.5,
                ..Text::default()
            },
        ));
    }
    world
}

/// 4,096 one-emoji texts in a 64 x 64 grid over the frame (overlapping rows), 24 px a line,
/// every eleventh one facing the other way.
fn emoji_board() -> World {
    let palette = [
        "🐈", "🚩", "🪨", "🧱", "💧", "🌸", "🐝", "🔑", "🚪", "⭐", "🌳",
    ];
    let mut world = World::new();
    world.spawn((Camera2D::default(),));
    for i in 0..4096 {
        let (col, row) = ((i % 64) as f32, (i / 64) as f32);
        world.spawn((
            Transform2D {
                pos: [col * 0.25 - 7.875, row * 0.14 - 4.41],
                scale: [if i % 11 == 0 { -1.0 } else { 1.0 }, 1.0],
                ..Transform2D::default()
            },
            Text {
                text: palette[i % palette.len()].into(),
                size: 0.3, // 80 px per unit
                ..Text::default()
            },
        ));
    }
    world
}

fn bench(c: &mut Criterion) {
    let assets = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(assets.path().join("textures")).unwrap();
    write_texture(&assets.path().join("textures/ball.png"));
    let world = scene();
    let mut renderer = Renderer::new(assets.path());
    renderer.render(&world, 1280, 720);
    assert!(renderer.take_warnings().is_empty());
    c.bench_function("render 1280x720: 1000 sprites, 300 glyphs, 64 quads", |b| {
        b.iter(|| renderer.render(&world, 1280, 720))
    });
    let frame = renderer.render(&world, 1280, 720);
    c.bench_function(
        "encode a 1280x720 frame as PNG, fastest (the editor's view)",
        |b| b.iter(|| frame.png_fast().unwrap().len()),
    );
    let board = emoji_board();
    renderer.render(&board, 1280, 720);
    assert!(renderer.take_warnings().is_empty());
    c.bench_function("render 1280x720: 4096 emoji texts at 24 px", |b| {
        b.iter(|| renderer.render(&board, 1280, 720))
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
