//! Golden images of the sea: its sprites drawn by the host's software renderer and compared
//! with PNGs under `tests/golden/`, a small difference per channel allowed. On a mismatch the
//! frame and a diff are written under the test's target folder; `JENGINE_BLESS=1` rewrites the
//! goldens. The scale texture is drawn here, so the pictures do not wait on the game's art.

use std::path::{Path, PathBuf};

use jengine::{Camera2D, Color, Name, Time, World};
use jengine_kotoba::Waves;
use jengine_kotoba::draw::sea::{sea_mut, system};
use jengine_kotoba::sea::{self, Wave};
use jengine_testkit::{Frame, Renderer};

/// One seigaiha scale, 128x80 texels: the upper part of a disc of five rings, light bands
/// parted by thin darker lines and a darker rim, clear outside. The sea's tint colours it.
fn scale_texel(x: u32, y: u32) -> [u8; 4] {
    const RADIUS: f32 = 64.0;
    const RINGS: f32 = 5.0;
    let d = (x as f32 + 0.5 - 64.0).hypot(y as f32 + 0.5 - 64.0);
    let alpha = (RADIUS - d + 0.5).clamp(0.0, 1.0);
    if alpha == 0.0 {
        return [0, 0, 0, 0];
    }
    let band = d / RADIUS * RINGS;
    let within = band.fract();
    let value = if d > RADIUS - 3.0 {
        0.5
    } else if band >= 1.0 && within < 0.15 {
        0.62
    } else {
        // Each band a little lighter toward its outer line, like a wave's face.
        0.84 + 0.16 * within
    };
    let v = (value * 255.0).round() as u8;
    [v, v, v, (alpha * 255.0).round() as u8]
}

fn assets() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sea-assets");
    let textures = dir.join("textures/kotoba");
    std::fs::create_dir_all(&textures).unwrap();
    let rgba: Vec<u8> = (0..80)
        .flat_map(|y| (0..128).map(move |x| (x, y)))
        .flat_map(|(x, y)| scale_texel(x, y))
        .collect();
    // Tests run at once and share the folder: each writes its own file and renames it into
    // place, so none reads a texture another is halfway through writing.
    let own = textures.join(format!("scale.{:?}.tmp", std::thread::current().id()));
    Frame {
        width: 128,
        height: 80,
        rgba,
    }
    .save_png(&own)
    .unwrap();
    std::fs::rename(&own, textures.join("scale.png")).unwrap();
    dir
}

/// Compares `frame` with `tests/golden/<name>.png` (or rewrites it when blessing).
fn check_golden(name: &str, frame: &Frame) {
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sea-golden");
    if let Err(e) = jengine_testkit::golden::check(&goldens, &out, name, frame) {
        panic!("{e}");
    }
}

/// A 16x9 world (drawn at 640x360) with a default sea, its session seed fixed.
fn world() -> (World, jengine::Entity) {
    let mut world = World::new();
    world.resources.insert(Time {
        seed: 7,
        ..Time::default()
    });
    world.spawn((Camera2D {
        center: [0.0, 0.0],
        size: [16.0, 9.0],
        clear: Color::parse_hex("#05081c").unwrap(),
    },));
    let sea = world.spawn((Name("sea".into()), Waves::default()));
    (world, sea)
}

/// Runs the sea `frames` frames at 60 Hz.
fn run(world: &mut World, frames: u32) {
    for _ in 0..frames {
        let time = world.resources.get_mut::<Time>().unwrap();
        time.frame += 1;
        time.elapsed += time.dt;
        let dt = time.dt;
        system(world, dt);
    }
}

fn render(world: &World) -> Frame {
    let mut renderer = Renderer::new(&assets());
    let frame = renderer.render(world, 640, 360);
    assert_eq!(renderer.take_warnings(), Vec::<String>::new());
    frame
}

#[test]
fn the_sea_at_rest() {
    let (mut world, _) = world();
    run(&mut world, 150);
    check_golden("sea_at_rest", &render(&world));
}

#[test]
fn the_sea_with_rings_and_a_surge() {
    let (mut world, sea) = world();
    run(&mut world, 30);
    {
        let mut s = sea_mut(&mut world, sea).unwrap();
        let palette = Waves::default().palette();
        sea::apply(
            &mut s,
            Wave::Ring {
                at: [-3.2, 0.8],
                strength: 2.0,
                color: palette.gold,
                count: 3,
            },
        )
        .unwrap();
        sea::apply(
            &mut s,
            Wave::Ring {
                at: [4.1, -1.5],
                strength: 1.6,
                color: palette.coral,
                count: 1,
            },
        )
        .unwrap();
        sea::surge(&mut s, 1.2, Some(palette.gold)).unwrap();
    }
    run(&mut world, 42);
    check_golden("sea_with_rings_and_a_surge", &render(&world));
}

#[test]
fn the_same_seed_draws_the_same_sea() {
    let (mut a, _) = world();
    let (mut b, _) = world();
    run(&mut a, 40);
    run(&mut b, 40);
    assert_eq!(render(&a).rgba, render(&b).rgba);
}
