//! Golden images for the renderer, its determinism, and what it does with bad input.
//!
//! Each golden test builds a world in code, renders it and compares with a PNG under
//! `tests/golden/`, allowing a small difference per channel. On a mismatch the frame and a diff
//! image are written under the test's target folder. `JENGINE_BLESS=1` rewrites the goldens.

use std::path::{Path, PathBuf};

use jengine::{
    Align, Camera2D, Color, Mesh2D, Name, Overflow, Sprite, SpriteLibrary, Text, Transform2D,
    Vertex, World,
};
use jengine_tool::render::{Frame, Renderer, screen_to_world};

// ---------------------------------------------------------------------------------------------
// Fixture textures, written into a temporary assets folder.

fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) {
    let frame = Frame {
        width,
        height,
        rgba: rgba.to_vec(),
    };
    frame.save_png(path).unwrap();
}

fn image(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .flat_map(|(x, y)| pixel(x, y))
        .collect()
}

/// Bricks 16x8 texels with 1-texel mortar, every other row offset by half a brick.
fn bricks(x: u32, y: u32) -> [u8; 4] {
    let row = y / 8;
    let shifted = (x + if row % 2 == 1 { 8 } else { 0 }) % 64;
    if y % 8 == 7 || shifted % 16 == 15 {
        return [200, 196, 186, 255];
    }
    let brick = row * 4 + shifted / 16;
    let shade = (brick * 37 % 5) as u8 * 10;
    [150 + shade, 58 + shade / 2, 40, 255]
}

/// A 24x24 panel: an 8-texel frame with a round yellow dot in each corner cell (a stretched
/// corner would turn it into an oval), a darker outer line, and a light middle.
fn panel(x: u32, y: u32) -> [u8; 4] {
    let border = |v: u32| !(8..16).contains(&v);
    let outer = x == 0 || y == 0 || x == 23 || y == 23;
    if border(x) && border(y) {
        let d = ((x % 8) as f32 - 3.5).hypot((y % 8) as f32 - 3.5);
        if d < 2.6 {
            [255, 210, 60, 255]
        } else if outer {
            [20, 30, 60, 255]
        } else {
            [40, 60, 120, 255]
        }
    } else if outer {
        [20, 30, 60, 255]
    } else if border(x) || border(y) {
        [70, 100, 170, 255]
    } else {
        [220, 228, 240, 255]
    }
}

/// A 32x16 sheet of two frames: an up arrow on yellow, and a white cross on blue.
fn sheet(x: u32, y: u32) -> [u8; 4] {
    if x < 16 {
        let (dx, dy) = ((x as i32 - 8).abs(), y as i32);
        if ((2..=8).contains(&dy) && dx <= dy - 2) || ((9..=13).contains(&dy) && dx <= 2) {
            [30, 30, 30, 255]
        } else {
            [250, 210, 40, 255]
        }
    } else if (x as i32 - 24).abs() <= 1 || (y as i32 - 8).abs() <= 1 {
        [255, 255, 255, 255]
    } else {
        [40, 90, 220, 255]
    }
}

/// A soft white disc with transparent corners.
fn disc(x: u32, y: u32) -> [u8; 4] {
    let d = ((x as f32 - 15.5).powi(2) + (y as f32 - 15.5).powi(2)).sqrt();
    [255, 255, 255, ((16.0 - d) * 96.0).clamp(0.0, 255.0) as u8]
}

fn assets() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let textures = dir.path().join("textures");
    std::fs::create_dir_all(&textures).unwrap();
    std::fs::create_dir_all(dir.path().join("fonts")).unwrap();
    write_png(&textures.join("bricks.png"), 64, 64, &image(64, 64, bricks));
    write_png(&textures.join("panel.png"), 24, 24, &image(24, 24, panel));
    write_png(&textures.join("sheet.png"), 32, 16, &image(32, 16, sheet));
    write_png(&textures.join("disc.png"), 32, 32, &image(32, 32, disc));
    std::fs::write(
        textures.join("corrupt.png"),
        b"\x89PNG\r\n\x1a\nthis is not a png",
    )
    .unwrap();
    dir
}

// ---------------------------------------------------------------------------------------------
// Comparing with the goldens.

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `frame` with `tests/golden/<name>.png` (or rewrites it when blessing).
fn check_golden(name: &str, frame: &Frame) {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    if let Err(e) = jengine_testkit::golden::check(&golden_dir(), &out, name, frame) {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Scene building.

fn camera(world: &mut World, clear: &str) {
    world.spawn((Camera2D {
        clear: Color::parse_hex(clear).unwrap(),
        ..Camera2D::default()
    },));
}

fn at(x: f32, y: f32) -> Transform2D {
    Transform2D::at(x, y)
}

fn sprite(texture: &str, size: [f32; 2]) -> Sprite {
    Sprite {
        texture: texture.into(),
        size,
        ..Sprite::default()
    }
}

fn label(world: &mut World, x: f32, y: f32, s: &str, size: f32, align: Align) {
    world.spawn((
        at(x, y),
        Text {
            text: s.into(),
            size,
            align,
            ..Text::default()
        },
    ));
}

fn render(assets: &Path, world: &World, width: u32, height: u32) -> (Frame, Vec<String>) {
    let mut renderer = Renderer::new(assets);
    renderer.preload(world);
    let frame = renderer.render(world, width, height);
    (frame, renderer.take_warnings())
}

/// Colour emoji from the bundled font: a pack's palette in a row, the cat at four sizes and
/// flipped, a turned bee, a faded flower, and Japanese with emoji on one line.
fn emoji_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#2a3040");
    label(
        &mut world,
        0.0,
        3.6,
        "🐈🚩🪨🧱💧🌸🐝🔑🚪⭐🌳",
        0.8,
        Align::Center,
    );
    for (x, size) in [(-7.4, 0.4), (-6.4, 0.8), (-4.6, 1.6), (-1.4, 3.2)] {
        label(&mut world, x, 0.6, "🐈", size, Align::Center);
    }
    world.spawn((
        Transform2D {
            scale: [-1.0, 1.0],
            ..at(1.6, 0.6)
        },
        Text {
            text: "🐈".into(),
            size: 3.2,
            ..Text::default()
        },
    ));
    world.spawn((
        Transform2D {
            rot: 0.4,
            ..at(4.4, 1.0)
        },
        Text {
            text: "🐝".into(),
            size: 1.6,
            ..Text::default()
        },
    ));
    world.spawn((
        at(6.6, 1.0),
        Text {
            text: "🌸".into(),
            size: 1.6,
            color: Color([1.0, 1.0, 1.0, 0.4]),
            ..Text::default()
        },
    ));
    label(
        &mut world,
        0.0,
        -2.4,
        "ねこ🐈が旗🚩へ Cat ❤️ ⭐ Key🔑",
        0.9,
        Align::Center,
    );
    label(&mut world, 0.0, -3.7, "☀️ ☀︎ 🐈‍⬛ ✨ ♥", 0.6, Align::Center);
    world
}

fn sprites_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#20242c");
    // Plain rectangles: empty texture draws the tint.
    world.spawn((at(-6.0, 2.5), sprite("", [2.5, 2.5])));
    world.spawn((
        at(-5.0, 1.5),
        Sprite {
            tint: Color([0.2, 0.8, 1.0, 0.5]),
            ..sprite("", [2.5, 2.5])
        },
    ));
    // The sheet's two frames by region; the arrow turned a quarter counter-clockwise
    // (pointing left), and mirrored.
    let arrow = Sprite {
        region: Some([0.0, 0.0, 16.0, 16.0]),
        ..sprite("sheet.png", [2.0, 2.0])
    };
    world.spawn((at(-1.5, 2.5), arrow.clone()));
    world.spawn((
        Transform2D {
            rot: std::f32::consts::FRAC_PI_2,
            ..at(1.0, 2.5)
        },
        arrow.clone(),
    ));
    world.spawn((
        Transform2D {
            rot: 0.5,
            scale: [1.0, -1.0],
            ..at(3.5, 2.5)
        },
        arrow,
    ));
    world.spawn((
        at(6.0, 2.5),
        Sprite {
            region: Some([16.0, 0.0, 16.0, 16.0]),
            ..sprite("sheet.png", [2.0, 2.0])
        },
    ));
    // Tinted, fading discs overlapping; z puts the last-spawned one underneath.
    let colours = [
        [1.0, 0.3, 0.3, 1.0],
        [0.3, 1.0, 0.3, 0.75],
        [0.3, 0.5, 1.0, 0.5],
    ];
    for (i, c) in colours.iter().enumerate() {
        world.spawn((
            Transform2D {
                z: if i == 2 { -1.0 } else { 0.0 },
                ..at(-5.0 + i as f32 * 1.2, -2.0)
            },
            Sprite {
                tint: Color(*c),
                ..sprite("disc.png", [2.5, 2.5])
            },
        ));
    }
    // A whole texture stretched, and a rotated, half-transparent one.
    world.spawn((at(1.5, -2.0), sprite("bricks.png", [3.0, 2.0])));
    world.spawn((
        Transform2D {
            rot: -0.3,
            z: 1.0,
            ..at(4.5, -2.5)
        },
        Sprite {
            tint: Color([1.0, 1.0, 1.0, 0.6]),
            ..sprite("sheet.png", [3.0, 1.5])
        },
    ));
    world
}

fn nine_slice_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#101418");
    let sliced = |size: [f32; 2]| Sprite {
        nine_slice: Some([8.0, 8.0, 8.0, 8.0]),
        ..sprite("panel.png", size)
    };
    // Sliced: round corner dots on a wide and a tall panel; edges stretch along their length.
    world.spawn((at(-3.0, 2.3), sliced([9.0, 3.0])));
    world.spawn((at(5.0, 0.0), sliced([3.0, 8.0])));
    // Unsliced, for comparison: everything stretches and the dots turn into ovals.
    world.spawn((at(-3.0, -2.3), sprite("panel.png", [9.0, 3.0])));
    world
}

fn text_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#1c1e26");
    // Markers at each text's position, so alignment can be seen.
    for (x, y) in [
        (-7.5, 3.6),
        (0.0, 2.2),
        (7.5, 0.8),
        (-4.0, -2.6),
        (4.0, -2.2),
    ] {
        world.spawn((
            Transform2D {
                z: -1.0,
                ..at(x, y)
            },
            Sprite {
                tint: Color([1.0, 0.3, 0.3, 1.0]),
                ..sprite("", [0.12, 0.12])
            },
        ));
    }
    label(
        &mut world,
        -7.5,
        3.6,
        "Left: Hello, world!",
        0.6,
        Align::Left,
    );
    label(
        &mut world,
        0.0,
        2.2,
        "中央 ことば Centre",
        0.8,
        Align::Center,
    );
    label(
        &mut world,
        7.5,
        0.8,
        "右寄せ Right\n二行目 line two",
        0.5,
        Align::Right,
    );
    world.spawn((
        Transform2D {
            rot: 0.35,
            ..at(-4.0, -2.6)
        },
        Text {
            text: "回転した文字 Rotated".into(),
            size: 0.6,
            color: Color::parse_hex("#ffd866").unwrap(),
            ..Text::default()
        },
    ));
    world.spawn((
        at(4.0, -2.2),
        Text {
            text: "日本語の文章は空白がなくても折り返します。Wrapped English text too.".into(),
            size: 0.45,
            color: Color::parse_hex("#9cdcfe").unwrap(),
            align: Align::Left,
            wrap: Some(3.5),
            ..Text::default()
        },
    ));
    world
}

/// Forty numbered lines of a workshop's error list, some long enough to wrap.
fn forty_errors() -> String {
    (1..=40)
        .map(|i| match i % 5 {
            0 => format!("{i}. tile {i} names a sprite that is not in the pack"),
            2 => format!("{i}. 行{i}: 言葉が長すぎます"),
            _ => format!("{i}. row {i}: unknown key"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A dark panel behind a text box of `size` centred at (x, y), so the box's edges show.
fn box_panel(world: &mut World, x: f32, y: f32, size: [f32; 2]) {
    world.spawn((
        Transform2D {
            z: -1.0,
            ..at(x, y)
        },
        Sprite {
            tint: Color::parse_hex("#2c3344").unwrap(),
            ..sprite("", size)
        },
    ));
}

/// A left-aligned text box filling a panel of `size`, with a little margin at the sides.
fn text_box(size: [f32; 2], text: &str, line: f32, overflow: Overflow) -> Text {
    Text {
        text: text.into(),
        size: line,
        color: Color::parse_hex("#e8ecf4").unwrap(),
        align: Align::Left,
        wrap: Some(size[0] - 0.2),
        height: Some(size[1]),
        overflow,
        ..Text::default()
    }
}

/// Forty lines in four boxes of ten rows: clipped, "… and N more", cut with "…", and scrolled
/// to line 18. Each box sits on a panel of its own size, with its mode above it.
fn text_boxes_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#14161c");
    let errors = forty_errors();
    let size = [3.7, 4.0];
    for (i, (overflow, name)) in [
        (Overflow::Clip, "clip"),
        (Overflow::More, "more"),
        (Overflow::Ellipsis, "ellipsis"),
        (Overflow::Scroll, "scroll 17"),
    ]
    .into_iter()
    .enumerate()
    {
        let x = -6.0 + 4.0 * i as f32;
        let y = -0.3;
        box_panel(&mut world, x, y, size);
        let mut text = text_box(size, &errors, 0.4, overflow);
        text.scroll = 17.0;
        world.spawn((at(x - size[0] / 2.0 + 0.1, y), text));
        label(&mut world, x, y + 2.5, name, 0.5, Align::Center);
    }
    label(
        &mut world,
        0.0,
        3.8,
        "forty errors, some wrapped; ten rows a box",
        0.4,
        Align::Center,
    );
    world
}

/// A 300-character share link with no spaces: wrapped between characters inside a wide box,
/// shown in full; in a box of one row cut with "…"; and a scroll box scrolled past its end,
/// which shows its last lines.
fn long_link_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#14161c");
    let body: String = (0..286u32)
        .map(|i| {
            let c = b"AbCdEfGh0123456789-_xYzQwRtUvKm"[(i * 7 % 31) as usize];
            c as char
        })
        .collect();
    let link = format!("miau://pack?d={body}");
    assert_eq!(link.chars().count(), 300);
    let wide = [9.4, 4.4];
    box_panel(&mut world, -2.6, 1.3, wide);
    world.spawn((
        at(-2.6 - wide[0] / 2.0 + 0.1, 1.3),
        text_box(wide, &format!("share: {link}"), 0.4, Overflow::More),
    ));
    let one = [9.4, 0.5];
    box_panel(&mut world, -2.6, -1.6, one);
    world.spawn((
        at(-2.6 - one[0] / 2.0 + 0.1, -1.6),
        text_box(one, &link, 0.4, Overflow::Ellipsis),
    ));
    let small = [4.6, 2.0];
    box_panel(&mut world, 5.2, 1.3, small);
    let mut end = text_box(small, &link, 0.4, Overflow::Scroll);
    end.scroll = 1e9;
    world.spawn((at(5.2 - small[0] / 2.0 + 0.1, 1.3), end));
    // Japanese and emoji in a centred box of two rows: one of text, one of "more".
    let cjk = [9.4, 1.1];
    box_panel(&mut world, -2.6, -3.3, cjk);
    world.spawn((
        at(-2.6, -3.3),
        Text {
            align: Align::Center,
            ..text_box(
                cjk,
                "🐈が箱の中に入ります。🌸🐝🔑🚪⭐🌳の行も同じです。日本語の文章は空白がなくても折り返します。まだ続きます。",
                0.5,
                Overflow::More,
            )
        },
    ));
    world
}

/// A corridor seen from inside: walls, floor and ceiling as trapezoids with `q = 1 / depth`.
fn corridor_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#000000");
    let (near, far) = (1.0f32, 5.0f32);
    let (hw, hh) = (8.0f32, 4.5f32);
    let corner = |sx: f32, sy: f32, z: f32, uv: [f32; 2]| Vertex {
        pos: [sx * hw / z, sy * hh / z],
        uv,
        q: 1.0 / z,
        shade: (1.6 / z).min(1.0),
    };
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    // Each wall runs from the near plane to the far one: u counts bricks along the depth.
    let depth_tiles = (far - near) / 2.0;
    let walls: [[(f32, f32); 2]; 4] = [
        [(-1.0, 1.0), (-1.0, -1.0)], // left
        [(1.0, -1.0), (1.0, 1.0)],   // right
        [(-1.0, -1.0), (1.0, -1.0)], // floor
        [(1.0, 1.0), (-1.0, 1.0)],   // ceiling
    ];
    for [(ax, ay), (bx, by)] in walls {
        let base = vertices.len() as u32;
        vertices.push(corner(ax, ay, near, [0.0, 0.0]));
        vertices.push(corner(ax, ay, far, [depth_tiles * 2.0, 0.0]));
        vertices.push(corner(bx, by, far, [depth_tiles * 2.0, 2.0]));
        vertices.push(corner(bx, by, near, [0.0, 2.0]));
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    world.spawn((
        Name("corridor".into()),
        Mesh2D {
            texture: "bricks.png".into(),
            tint: Color::WHITE,
            vertices,
            indices,
        },
    ));
    // The end wall, flat at the far plane.
    let end = |sx: f32, sy: f32, uv: [f32; 2]| corner(sx, sy, far, uv);
    world.spawn((Mesh2D {
        texture: "bricks.png".into(),
        tint: Color([0.8, 0.8, 1.0, 1.0]),
        vertices: vec![
            end(-1.0, 1.0, [0.0, 0.0]),
            end(1.0, 1.0, [2.0, 0.0]),
            end(1.0, -1.0, [2.0, 2.0]),
            end(-1.0, -1.0, [0.0, 2.0]),
        ],
        indices: vec![0, 1, 2, 0, 2, 3],
    },));
    world
}

fn missing_world() -> World {
    let mut world = World::new();
    camera(&mut world, "#303030");
    world.spawn((SpriteLibrary {
        textures: vec!["bricks.png".into(), "not-there.png".into()],
    },));
    world.spawn((at(-4.5, 1.0), sprite("not-there.png", [4.0, 4.0])));
    world.spawn((at(0.0, 1.0), sprite("corrupt.png", [3.0, 3.0])));
    world.spawn((at(4.5, 1.0), sprite("bricks.png", [3.0, 3.0])));
    let v = |x: f32, y: f32, u: f32, w: f32| Vertex {
        pos: [x, y],
        uv: [u, w],
        ..Vertex::default()
    };
    world.spawn((
        at(0.0, -3.0),
        Mesh2D {
            texture: "also-missing.png".into(),
            tint: Color::WHITE,
            vertices: vec![
                v(-6.0, 1.0, 0.0, 0.0),
                v(6.0, 1.0, 6.0, 0.0),
                v(6.0, -1.0, 6.0, 1.0),
            ],
            indices: vec![0, 1, 2],
        },
    ));
    world
}

// ---------------------------------------------------------------------------------------------
// Golden tests.

#[test]
fn sprites_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &sprites_world(), 480, 270);
    assert!(warnings.is_empty(), "{warnings:?}");
    check_golden("sprites", &frame);
}

#[test]
fn nine_slice_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &nine_slice_world(), 480, 270);
    assert!(warnings.is_empty(), "{warnings:?}");
    check_golden("nine_slice", &frame);
}

#[test]
fn text_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &text_world(), 640, 360);
    assert!(warnings.is_empty(), "{warnings:?}");
    check_golden("text", &frame);
}

#[test]
fn text_boxes_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &text_boxes_world(), 640, 360);
    assert!(warnings.is_empty(), "{warnings:?}");
    check_golden("text_boxes", &frame);
}

#[test]
fn long_link_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &long_link_world(), 640, 360);
    assert!(warnings.is_empty(), "{warnings:?}");
    check_golden("long_link", &frame);
}

/// A workshop's report as a scroll box in a project run by the runtime, at the two sizes a
/// game's screens are drawn at: two wheel notches down over the box (six lines), then Page
/// Down (nine more), and the frame drawn as the window would draw it.
#[test]
fn a_box_scrolled_by_the_wheel_and_page_down_golden() {
    use jengine::host::{MemoryAssets, within};
    use jengine_tool::input::Event;
    use jengine_tool::runtime::{Options, Runtime};
    let scene = serde_json::json!({
        "version": 2,
        "entities": [
            { "camera": { "size": [16, 9], "clear": "#14161c" } },
            { "transform": { "pos": [0, -0.3], "z": -1 },
              "sprite": { "size": [8, 5], "tint": "#2c3344" } },
            { "name": "report", "transform": { "pos": [-3.9, -0.3] },
              "text": { "text": forty_errors(), "size": 0.45, "color": "#ff8080",
                        "align": "left", "wrap": 7.8, "height": 4.8, "overflow": "scroll" } },
            { "name": "where", "transform": { "pos": [0, 2.8] },
              "text": { "text": "", "size": 0.4 } }
        ]
    });
    let mut files = MemoryAssets::new();
    let project = r#"{"name": "boxes", "version": "0.1.0", "start_scene": "main", "packages": []}"#;
    files
        .insert("project.jengine", project.as_bytes().to_vec())
        .unwrap();
    files
        .insert("assets/scenes/main.scene", scene.to_string().into_bytes())
        .unwrap();
    let files: std::sync::Arc<dyn jengine::host::Assets> = std::sync::Arc::new(files);
    let mut rt = Runtime::with_assets(files.clone(), &[], Options::default()).unwrap();
    let wheel = Event::Wheel {
        x: 0.0,
        y: 0.0,
        dy: -1.0,
    };
    rt.step(&[wheel.clone(), wheel]);
    rt.step(&[Event::Key {
        key: "pagedown".into(),
        down: true,
    }]);
    let report = rt.find("report").unwrap();
    let layout = *rt
        .world
        .entities
        .get::<&jengine::TextLayout>(report)
        .unwrap();
    assert_eq!((layout.first, layout.rows, layout.focused), (15, 10, true));
    // The line above the box says where it is, as a game's script would from `text_layout`.
    let said = format!(
        "lines {}–{} of {}",
        layout.first + 1,
        layout.first + layout.shown,
        layout.lines
    );
    let heading = rt.find("where").unwrap();
    rt.world.entities.get::<&mut Text>(heading).unwrap().text = said;
    for (name, size) in [
        ("scrolled_box", (640, 360)),
        ("scrolled_box_large", (1280, 720)),
    ] {
        let mut renderer = Renderer::with_assets(within(&files, "assets"));
        let frame = renderer.render(&rt.world, size.0, size.1);
        assert!(renderer.take_warnings().is_empty());
        check_golden(name, &frame);
    }
}

#[test]
fn emoji_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &emoji_world(), 640, 360);
    check_golden("emoji", &frame);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn corridor_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &corridor_world(), 480, 270);
    assert!(warnings.is_empty(), "{warnings:?}");
    check_golden("corridor", &frame);
}

#[test]
fn missing_texture_golden() {
    let dir = assets();
    let (frame, warnings) = render(dir.path(), &missing_world(), 480, 270);
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    for name in [
        "\"not-there.png\"",
        "\"corrupt.png\"",
        "\"also-missing.png\"",
    ] {
        assert!(
            warnings.iter().any(|w| w.contains(name)),
            "{name}: {warnings:?}"
        );
    }
    check_golden("missing_texture", &frame);
}

// ---------------------------------------------------------------------------------------------
// Determinism and conventions.

#[test]
fn the_same_world_renders_identical_bytes() {
    let dir = assets();
    for world in [sprites_world(), text_world(), corridor_world()] {
        let mut renderer = Renderer::new(dir.path());
        let first = renderer.render(&world, 320, 200);
        let again = renderer.render(&world, 320, 200);
        let fresh = Renderer::new(dir.path()).render(&world, 320, 200);
        assert!(first.rgba == again.rgba && first.rgba == fresh.rgba);
    }
}

#[test]
fn draw_order_is_z_then_spawn_order() {
    let dir = assets();
    let mut world = World::new();
    camera(&mut world, "#000000");
    let red = Sprite {
        tint: Color([1.0, 0.0, 0.0, 1.0]),
        ..sprite("", [4.0, 4.0])
    };
    let blue = Sprite {
        tint: Color([0.0, 0.0, 1.0, 1.0]),
        ..sprite("", [4.0, 4.0])
    };
    world.spawn((
        Transform2D {
            z: 1.0,
            ..at(-4.0, 0.0)
        },
        red.clone(),
    ));
    world.spawn((
        Transform2D {
            z: 0.0,
            ..at(-4.0, 0.0)
        },
        blue.clone(),
    ));
    world.spawn((at(4.0, 0.0), blue));
    world.spawn((at(4.0, 0.0), red));
    let (frame, _) = render(dir.path(), &world, 160, 90);
    // Left: higher z wins though spawned first. Right: same z, the later spawn is on top.
    assert_eq!(frame.pixel(40, 45), Some([255, 0, 0, 255]));
    assert_eq!(frame.pixel(120, 45), Some([255, 0, 0, 255]));
}

#[test]
fn a_wider_screen_shows_more_world_at_the_same_scale() {
    let dir = assets();
    let mut world = World::new();
    camera(&mut world, "#000000");
    world.spawn((at(7.5, 0.0), sprite("", [1.0, 1.0])));
    let (wide, _) = render(dir.path(), &world, 400, 100);
    let (normal, _) = render(dir.path(), &world, 160, 90);
    // 16x9 fits 160x90 at 10 px per unit; a 400x100 frame is limited by height (11.1 px).
    assert_eq!(normal.pixel(155, 45), Some([255; 4]));
    let x = (200.0 + 7.5 * 100.0 / 9.0) as u32;
    assert_eq!(wide.pixel(x, 50), Some([255; 4]));
    let p = screen_to_world(&world, 400, 100, 0.0, 0.0);
    assert!(
        (p[0] + 18.0).abs() < 1e-4 && (p[1] - 4.5).abs() < 1e-4,
        "{p:?}"
    );
}

#[test]
fn a_named_font_is_loaded_from_the_assets_folder() {
    let dir = assets();
    let bundled =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../render/fonts/Mplus1-Regular.subset.otf");
    std::fs::copy(bundled, dir.path().join("fonts/named.otf")).unwrap();
    let mut world = World::new();
    camera(&mut world, "#000000");
    label(&mut world, 0.0, 0.0, "ことば Words", 1.0, Align::Center);
    let (default, _) = render(dir.path(), &world, 320, 180);
    for t in world.entities.query_mut::<&mut Text>() {
        t.font = "named.otf".into();
    }
    let (named, warnings) = render(dir.path(), &world, 320, 180);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(named.rgba, default.rgba);
    assert!(named.rgba.chunks(4).any(|p| p[0] > 200));
}

#[test]
fn a_truetype_font_draws_its_quadratic_outlines_upright_and_rotated() {
    // Shapes.ttf (tools/render/fonts/test_font.py): "A" is a square ring, "B" a triangle; advance 900,
    // ascender 800, descender -200, so a line of size 1 is 1000 font units.
    let dir = assets();
    let font = Path::new(env!("CARGO_MANIFEST_DIR")).join("../render/fonts/test/Shapes.ttf");
    std::fs::copy(font, dir.path().join("fonts/Shapes.ttf")).unwrap();
    let world = |rot: f32, text: &str| {
        let mut world = World::new();
        world.spawn((Camera2D {
            size: [4.0, 2.25],
            ..Camera2D::default()
        },));
        world.spawn((
            Transform2D {
                rot,
                ..Transform2D::default()
            },
            Text {
                text: text.into(),
                font: "Shapes.ttf".into(),
                ..Text::default()
            },
        ));
        world
    };
    let white = Some([255; 4]);
    let black = Some([0, 0, 0, 255]);
    // 80 px per unit. "AB" is 1.8 wide, centred; its baseline sits 0.3 below the position.
    let (upright, warnings) = render(dir.path(), &world(0.0, "AB"), 320, 180);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(upright.pixel(104, 66), white, "the ring of A");
    assert_eq!(upright.pixel(124, 82), black, "the hole of A");
    assert_eq!(upright.pixel(196, 98), white, "inside B");
    // Turned half a circle about the position: everything lands mirrored through the centre.
    let (turned, _) = render(dir.path(), &world(std::f32::consts::PI, "AB"), 320, 180);
    assert_eq!(turned.pixel(216, 114), white, "the ring of A");
    assert_eq!(turned.pixel(196, 98), black, "the hole of A");
    assert_eq!(turned.pixel(124, 82), white, "inside B");
    // "C" is not in the font: it comes from the bundled font, unsaid.
    let (fallback, warnings) = render(dir.path(), &world(0.0, "CC"), 320, 180);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(fallback.rgba.chunks(4).filter(|p| p[0] > 200).count() > 100);
    // A character no font has: its notdef box is drawn and named once.
    let (boxes, warnings) = render(dir.path(), &world(0.0, "\u{E000}\u{E000}"), 320, 180);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .contains("font \"Shapes.ttf\" nor any bundled font has a glyph for '\\u{e000}'"),
        "{warnings:?}"
    );
    assert!(boxes.rgba.chunks(4).filter(|p| p[0] > 200).count() > 100);
}

// ---------------------------------------------------------------------------------------------
// Bad input: a clear warning, and the rest of the frame still draws.

/// A world whose only sound content is a white square at the centre, plus `bad`.
fn with_witness(bad: impl FnOnce(&mut World)) -> World {
    let mut world = World::new();
    camera(&mut world, "#000000");
    bad(&mut world);
    world.spawn((
        Transform2D {
            z: 5.0,
            ..at(0.0, 0.0)
        },
        sprite("", [2.0, 2.0]),
    ));
    world
}

fn assert_warns_and_draws(world: World, expected: &[&str]) {
    let dir = assets();
    let mut renderer = Renderer::new(dir.path());
    let frame = renderer.render(&world, 160, 90);
    let warnings = renderer.take_warnings();
    for e in expected {
        assert!(
            warnings.iter().any(|w| w.contains(e)),
            "no warning containing {e:?} in {warnings:?}"
        );
    }
    assert_eq!(
        frame.pixel(80, 45),
        Some([255; 4]),
        "the sound sprite is drawn"
    );
    renderer.render(&world, 160, 90);
    assert!(
        renderer.take_warnings().is_empty(),
        "each problem is said once"
    );
}

#[test]
fn a_corrupt_png_warns_and_draws_a_checker() {
    let world = with_witness(|w| {
        w.spawn((at(-5.0, 0.0), sprite("corrupt.png", [4.0, 4.0])));
    });
    assert_warns_and_draws(world, &["\"corrupt.png\" is not a usable PNG"]);
    let dir = assets();
    let world = with_witness(|w| {
        w.spawn((at(-5.0, 0.0), sprite("corrupt.png", [4.0, 4.0])));
    });
    let (frame, _) = render(dir.path(), &world, 160, 90);
    let magenta = frame
        .rgba
        .chunks(4)
        .filter(|p| p == &[255, 0, 255, 255])
        .count();
    assert!(magenta > 500, "{magenta} magenta pixels");
}

#[test]
fn a_file_that_is_not_a_font_warns_and_falls_back() {
    let world = with_witness(|w| {
        w.spawn((
            at(0.0, 3.0),
            Text {
                text: "still drawn".into(),
                font: "fake.ttf".into(),
                ..Text::default()
            },
        ));
    });
    let dir = assets();
    std::fs::write(
        dir.path().join("fonts/fake.ttf"),
        b"OTTO but not really a font",
    )
    .unwrap();
    let mut renderer = Renderer::new(dir.path());
    let frame = renderer.render(&world, 160, 90);
    let warnings = renderer.take_warnings();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"fake.ttf\" is not a usable TTF/OTF font")),
        "{warnings:?}"
    );
    // The text is drawn with the bundled font instead: white pixels in the top band.
    assert!(frame.rgba[..160 * 20 * 4].chunks(4).any(|p| p[0] > 200));
    assert_eq!(frame.pixel(80, 45), Some([255; 4]));
    // A font that does not exist at all is named too.
    let missing = with_witness(|w| {
        w.spawn((Text {
            text: "x".into(),
            font: "nowhere.otf".into(),
            ..Text::default()
        },));
    });
    assert_warns_and_draws(missing, &["\"nowhere.otf\" cannot be read"]);
}

#[test]
fn a_glyph_the_font_lacks_draws_notdef_and_warns_once() {
    let world = with_witness(|w| {
        w.spawn((
            at(0.0, 3.0),
            Text {
                text: "\u{1F47E}\u{1F47E} ok".into(),
                ..Text::default()
            },
        ));
    });
    assert_warns_and_draws(world, &["U+1F47E"]);
    let dir = assets();
    let mut renderer = Renderer::new(dir.path());
    let world = with_witness(|w| {
        w.spawn((
            at(0.0, 3.0),
            Text {
                text: "\u{1F47E}\u{1F47E}".into(),
                ..Text::default()
            },
        ));
    });
    let frame = renderer.render(&world, 160, 90);
    assert_eq!(renderer.take_warnings().len(), 1);
    // The notdef box is drawn, not nothing.
    assert!(frame.rgba[..160 * 20 * 4].chunks(4).any(|p| p[0] > 60));
}

#[test]
fn zero_and_negative_sizes_warn() {
    let world = with_witness(|w| {
        w.spawn((Name("flat".into()), sprite("", [0.0, 1.0])));
        w.spawn((Name("inside-out".into()), sprite("", [-1.0, 1.0])));
        w.spawn((
            Name("tiny text".into()),
            Text {
                text: "x".into(),
                size: 0.0,
                ..Text::default()
            },
        ));
        w.spawn((
            Name("bad slices".into()),
            Sprite {
                nine_slice: Some([20.0, 0.0, 20.0, 0.0]),
                ..sprite("panel.png", [1.0, 1.0])
            },
        ));
    });
    assert_warns_and_draws(
        world,
        &[
            "entity \"flat\": sprite size [0.0, 1.0] must be positive",
            "entity \"inside-out\": sprite size [-1.0, 1.0]",
            "entity \"tiny text\": text size 0 must be positive",
            "entity \"bad slices\": nine_slice",
        ],
    );
    let camera_world = {
        let mut w = World::new();
        w.spawn((Camera2D {
            size: [0.0, -3.0],
            ..Camera2D::default()
        },));
        w.spawn((sprite("", [2.0, 2.0]),));
        w
    };
    assert_warns_and_draws(camera_world, &["camera center [0.0, 0.0] size [0.0, -3.0]"]);
    let mut renderer = Renderer::new(Path::new("/nonexistent"));
    let frame = renderer.render(&World::new(), 0, 10);
    assert_eq!((frame.width, frame.height, frame.rgba.len()), (0, 0, 0));
    assert!(renderer.take_warnings()[0].contains("0x10 frame"));
    let frame = renderer.render(&World::new(), 100_000, 100_000);
    assert_eq!(frame.rgba.len(), 0);
    assert!(renderer.take_warnings()[0].contains("100000x100000 frame"));
}

#[test]
fn nan_and_infinite_transforms_warn_and_skip_only_that_entity() {
    let world = with_witness(|w| {
        w.spawn((
            Name("lost".into()),
            Transform2D {
                pos: [f32::NAN, 0.0],
                ..Transform2D::default()
            },
            sprite("", [50.0, 50.0]),
        ));
        w.spawn((
            Name("far".into()),
            Transform2D {
                rot: f32::INFINITY,
                ..Transform2D::default()
            },
            Text {
                text: "x".into(),
                ..Text::default()
            },
        ));
    });
    assert_warns_and_draws(
        world,
        &[
            "entity \"lost\": transform has a non-finite value (pos [NaN, 0.0]",
            "entity \"far\": transform has a non-finite value",
        ],
    );
}

#[test]
fn broken_meshes_skip_only_their_bad_triangles() {
    let v = |x: f32, y: f32| Vertex {
        pos: [x, y],
        ..Vertex::default()
    };
    let world = with_witness(|w| {
        w.spawn((
            Name("mesh".into()),
            Mesh2D {
                vertices: vec![
                    v(-8.0, 4.5),
                    v(-4.0, 4.5),
                    v(-8.0, 0.0),
                    Vertex {
                        q: f32::NAN,
                        ..v(0.0, 0.0)
                    },
                ],
                indices: vec![0, 1, 2, 0, 1, 9, 0, 1, 3, 0],
                ..Mesh2D::default()
            },
        ));
    });
    assert_warns_and_draws(
        world,
        &[
            "entity \"mesh\": mesh has 10 indices, not a multiple of 3",
            "entity \"mesh\": mesh triangle [0, 1, 9] has an index past its 4 vertices; 2 bad",
        ],
    );
    // The good triangle in the top-left corner is drawn.
    let dir = assets();
    let world = with_witness(|w| {
        w.spawn((Mesh2D {
            vertices: vec![v(-8.0, 4.5), v(-4.0, 4.5), v(-8.0, 0.0)],
            indices: vec![0, 1, 2, 0, 1, 7],
            ..Mesh2D::default()
        },));
    });
    assert_eq!(
        render(dir.path(), &world, 160, 90).0.pixel(2, 2),
        Some([255; 4])
    );
}

// ---------------------------------------------------------------------------------------------
// Any world content at all: no panic, a frame of the asked size.

mod any_world {
    use super::*;
    use proptest::prelude::*;

    /// Mostly ordinary numbers, sometimes the awkward ones.
    fn number() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => -20.0f32..20.0,
            1 => Just(0.0f32),
            1 => prop::sample::select(vec![
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1e30,
                -1e30,
                1e-30,
                f32::MAX,
            ]),
        ]
    }

    fn pair() -> impl Strategy<Value = [f32; 2]> {
        [number(), number()]
    }

    fn color() -> impl Strategy<Value = Color> {
        [number(), number(), number(), number()].prop_map(Color)
    }

    fn texture() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "",
            "bricks.png",
            "panel.png",
            "corrupt.png",
            "none.png",
        ])
        .prop_map(String::from)
    }

    fn transform() -> impl Strategy<Value = Transform2D> {
        (pair(), number(), pair(), number()).prop_map(|(pos, rot, scale, z)| Transform2D {
            pos,
            rot,
            scale,
            z,
        })
    }

    fn sprite() -> impl Strategy<Value = Sprite> {
        (
            texture(),
            prop::option::of([number(), number(), number(), number()]),
            pair(),
            color(),
            prop::option::of([number(), number(), number(), number()]),
        )
            .prop_map(|(texture, region, size, tint, nine_slice)| Sprite {
                texture,
                region,
                size,
                tint,
                nine_slice,
            })
    }

    fn text() -> impl Strategy<Value = Text> {
        (
            "[a-zA-Z ことば言葉\n\t\u{1F600}🐈🚩▶\u{FE0F}\u{200D}]{0,24}",
            prop::sample::select(vec!["", "fake.ttf", "missing.otf"]),
            number(),
            color(),
            prop::sample::select(vec![Align::Left, Align::Center, Align::Right]),
            prop::option::of(number()),
            prop::option::of(number()),
            prop::sample::select(vec![
                Overflow::Clip,
                Overflow::More,
                Overflow::Scroll,
                Overflow::Ellipsis,
            ]),
            number(),
        )
            .prop_map(
                |(text, font, size, color, align, wrap, height, overflow, scroll)| Text {
                    text,
                    font: font.into(),
                    size,
                    color,
                    align,
                    wrap,
                    height,
                    overflow,
                    scroll,
                },
            )
    }

    fn mesh() -> impl Strategy<Value = Mesh2D> {
        (
            texture(),
            color(),
            prop::collection::vec(
                (pair(), pair(), number(), number()).prop_map(|(pos, uv, q, shade)| Vertex {
                    pos,
                    uv,
                    q,
                    shade,
                }),
                0..6,
            ),
            prop::collection::vec(0u32..8, 0..10),
        )
            .prop_map(|(texture, tint, vertices, indices)| Mesh2D {
                texture,
                tint,
                vertices,
                indices,
            })
    }

    fn entity() -> impl Strategy<Value = (Transform2D, Option<Sprite>, Option<Text>, Option<Mesh2D>)>
    {
        (
            transform(),
            prop::option::of(sprite()),
            prop::option::of(text()),
            prop::option::of(mesh()),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        #[test]
        fn any_world_renders_without_panicking(
            camera in (pair(), pair(), color()),
            entities in prop::collection::vec(entity(), 0..6),
            (width, height) in (0u32..48, 0u32..48),
        ) {
            let dir = assets();
            std::fs::write(dir.path().join("fonts/fake.ttf"), b"not a font").unwrap();
            let mut world = World::new();
            world.spawn((Camera2D { center: camera.0, size: camera.1, clear: camera.2 },));
            for (t, s, x, m) in entities {
                let e = world.spawn((t,));
                if let Some(s) = s {
                    world.entities.insert_one(e, s).unwrap();
                }
                if let Some(x) = x {
                    world.entities.insert_one(e, x).unwrap();
                }
                if let Some(m) = m {
                    world.entities.insert_one(e, m).unwrap();
                }
            }
            let mut renderer = Renderer::new(dir.path());
            renderer.preload(&world);
            let frame = renderer.render(&world, width, height);
            prop_assert_eq!(frame.rgba.len(), (frame.width * frame.height * 4) as usize);
            if width > 0 && height > 0 {
                prop_assert_eq!((frame.width, frame.height), (width, height));
                let again = renderer.render(&world, width, height);
                prop_assert_eq!(frame.rgba, again.rgba);
            }
        }
    }
}
