//! Paints the default battlefield sheet, `assets/textures/goldbox/sheet.png`: eight 32x32
//! tiles in a row, drawn from a few shapes so the file can be made again exactly.
//!
//! `cargo run -p jengine-goldbox --example sheet` rewrites it.

use std::path::Path;

/// Tile edge in pixels.
const T: usize = 32;
/// The tiles, left to right (the names `draw::Sheet` gives their regions).
const TILES: [&str; 8] = [
    "floor",
    "wall",
    "door_open",
    "door_shut",
    "member",
    "monster",
    "fallen",
    "marker",
];

type Rgba = [u8; 4];

struct Canvas {
    w: usize,
    px: Vec<u8>,
}

impl Canvas {
    fn set(&mut self, x: usize, y: usize, c: Rgba) {
        let i = (y * self.w + x) * 4;
        self.px[i..i + 4].copy_from_slice(&c);
    }
}

/// A small hash, so the stone's speckle is the same every time.
fn speckle(x: usize, y: usize, salt: usize) -> u8 {
    let mut h = (x * 374_761_393 + y * 668_265_263 + salt * 2_147_483_647) as u64;
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    ((h >> 16) & 0x1f) as u8
}

fn shade(c: Rgba, d: i16) -> Rgba {
    let f = |v: u8| (v as i16 + d).clamp(0, 255) as u8;
    [f(c[0]), f(c[1]), f(c[2]), c[3]]
}

/// The colour of pixel (x, y) of tile `name` (0..T each way).
fn pixel(name: &str, x: usize, y: usize) -> Rgba {
    let (fx, fy) = (
        x as f32 + 0.5 - T as f32 / 2.0,
        y as f32 + 0.5 - T as f32 / 2.0,
    );
    let r = (fx * fx + fy * fy).sqrt();
    let border = x == 0 || y == 0 || x == T - 1 || y == T - 1;
    match name {
        "floor" => {
            let flag = [96, 88, 74, 255];
            let joint = x.is_multiple_of(16) || y.is_multiple_of(16);
            if joint {
                [58, 52, 44, 255]
            } else {
                shade(flag, speckle(x, y, 1) as i16 - 12)
            }
        }
        "wall" => {
            // Bricks, every other row offset by half a brick.
            let row = y / 8;
            let off = if row.is_multiple_of(2) { 0 } else { 8 };
            let mortar = y.is_multiple_of(8) || (x + off).is_multiple_of(16);
            if mortar {
                [40, 36, 40, 255]
            } else {
                shade([120, 104, 110, 255], speckle(x, y, 2) as i16 - 16)
            }
        }
        "door_open" => {
            let floor = pixel("floor", x, y);
            if x < 5 {
                shade([130, 84, 40, 255], -(speckle(x, y, 3) as i16) / 2)
            } else {
                floor
            }
        }
        "door_shut" => {
            let plank = x.is_multiple_of(8);
            let band = (6..9).contains(&y) || (23..26).contains(&y);
            if border {
                [48, 30, 16, 255]
            } else if band {
                [70, 70, 78, 255]
            } else if plank {
                [86, 54, 26, 255]
            } else {
                shade([138, 90, 44, 255], speckle(x, y, 4) as i16 / 2 - 8)
            }
        }
        "member" => {
            // A round shield with a boss: tinted per side when drawn.
            if r < 3.0 {
                [255, 255, 255, 255]
            } else if r < 12.0 {
                [210, 210, 210, 255]
            } else if r < 14.0 {
                [120, 120, 120, 255]
            } else {
                [0, 0, 0, 0]
            }
        }
        "monster" => {
            // A horned head: a disc with two horns and two eyes.
            let horn = fy < -4.0 && (fx.abs() - 9.0 - (fy + 4.0) * 0.4).abs() < 2.0 && fy > -14.0;
            let eye = ((fx.abs() - 4.5).powi(2) + (fy + 1.0).powi(2)).sqrt() < 2.0;
            if eye {
                [30, 20, 20, 255]
            } else if r < 11.0 || horn {
                shade([220, 220, 220, 255], -((r * 3.0) as i16))
            } else {
                [0, 0, 0, 0]
            }
        }
        "fallen" => {
            // A cross where a unit fell.
            let on = (fx - fy).abs() < 2.5 || (fx + fy).abs() < 2.5;
            if on && r < 12.0 {
                [200, 200, 200, 220]
            } else {
                [0, 0, 0, 0]
            }
        }
        _ => {
            // The marker: white with a brighter rim, tinted for reach, aim and the cursor.
            if border || x == 1 || y == 1 || x == T - 2 || y == T - 2 {
                [255, 255, 255, 255]
            } else {
                [255, 255, 255, 150]
            }
        }
    }
}

/// The sheet's width, height and RGBA pixels.
pub fn paint() -> (usize, usize, Vec<u8>) {
    let w = T * TILES.len();
    let mut canvas = Canvas {
        w,
        px: vec![0; w * T * 4],
    };
    for (i, name) in TILES.iter().enumerate() {
        for y in 0..T {
            for x in 0..T {
                canvas.set(i * T + x, y, pixel(name, x, y));
            }
        }
    }
    (w, T, canvas.px)
}

fn main() {
    let (w, h, px) = paint();
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/textures/goldbox/sheet.png");
    let file = std::fs::File::create(&out).expect("the sheet's file");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("a PNG header");
    writer.write_image_data(&px).expect("the sheet's pixels");
    println!("wrote {}", out.display());
}
