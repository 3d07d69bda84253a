//! Saltmarch's art, painted by code: the crawler sheet (the crawler art's shapes in this game's
//! salt-stained sandstone), the battle sheet the tactical fight draws (floor, wall, doors, the
//! party's and the monsters' counters, one picture for each monster the game sends), the six
//! portraits a new character may take, and the panel.
//!
//! Every pixel is a function of its centre built from signed distances and the paint crate's
//! seeded integer-hash noise, encoded with fixed settings, so any machine writes the bytes
//! committed under `projects/saltmarch/assets/textures/`.

pub use jengine_paint::{encode, noise, paint};

use std::path::{Path, PathBuf};

use crawler_art::{Hud, Look, Masonry, Palette, hud, sheet};
use paint::{Image, Rgba, coverage, mix_rgba, rgb, shade, with_alpha};

pub use jengine_paint::generator::{self, ArtError, Written};

/// Saltmarch's look: warm sandstone bleached by salt, dark joints, bronze fittings.
pub const LOOK: Look = Look {
    palette: Palette {
        mortar: rgb(34, 28, 22),
        stone: rgb(164, 146, 112),
        flag: rgb(128, 114, 90),
        vault: rgb(96, 86, 70),
        wood: rgb(112, 80, 52),
        wood_dark: rgb(48, 34, 24),
        iron: rgb(96, 84, 64),
        fitting: rgb(190, 150, 90),
        gold: rgb(240, 206, 100),
        void: rgb(6, 6, 6),
        shaft: rgb(60, 54, 44),
        knob: [rgb(160, 60, 30), rgb(90, 30, 14)],
        blood: rgb(120, 20, 14),
        shield: rgb(60, 90, 130),
        glow: rgb(120, 220, 200),
        ink: rgb(20, 16, 12),
    },
    masonry: Masonry {
        block: [96.0, 48.0],
        vault_block: [64.0, 32.0],
        joint: 1.5,
        jitter: 1.5,
        rough: 1.2,
        corner: 3.0,
        bevel: 0.25,
        speckle: 1.0,
    },
    line: 0.6,
    hud: Hud {
        panel_size: 256,
        panel: rgb(28, 34, 40),
        inlay: rgb(200, 176, 120),
        inlay_width: 1.5,
        frame_depth: 8.0,
        lip: rgb(180, 160, 120),
        button: rgb(60, 70, 80),
        paper: [rgb(214, 204, 176), rgb(90, 80, 60)],
        white_size: 4,
    },
};

/// The battle sheet's squares, left to right, 32 pixels each: the tiles the fight draws and the
/// monsters' pictures by the `art` names of the monsters table.
pub const BATTLE: [&str; 17] = [
    "floor",
    "wall",
    "door_open",
    "door_shut",
    "member",
    "monster",
    "fallen",
    "marker",
    "kobold",
    "rat",
    "goblin",
    "orc",
    "hobgoblin",
    "gnoll",
    "skeleton",
    "zombie",
    "ogre",
];

/// The side of one battle square, in pixels.
pub const SQUARE: u32 = 32;

/// The side of one portrait, in pixels; six side by side.
pub const PORTRAIT: u32 = 128;

/// How many portraits a character may choose from.
pub const PORTRAITS: u32 = 6;

/// Every texture as `(file name, image)`.
pub fn textures() -> Vec<(&'static str, Image)> {
    vec![
        ("crawler.png", sheet::crawler(&LOOK)),
        ("battle.png", battle()),
        ("portraits.png", portraits()),
        ("panel.png", hud::panel(&LOOK)),
        ("white.png", hud::white(&LOOK)),
    ]
}

/// Every texture as `(file name, PNG bytes)`, in order.
pub fn encoded() -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    generator::encode_all(textures())
}

/// Writes every texture into `dir` (made if missing); everything is encoded first, so a
/// failure leaves `dir` as it was.
pub fn write_textures(dir: &Path) -> Result<Vec<Written>, ArtError> {
    generator::write_files(dir, encoded()?)
}

/// The folder the committed textures live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}

/// The battle sheet and the portraits, one above the other, to look at together.
pub fn preview() -> Image {
    let b = battle();
    let p = portraits();
    let mut out = Image::new(b.width.max(p.width), b.height * 4 + p.height);
    out.layer(|x, y| {
        let (xi, yi) = (x as i64, y as i64);
        let bh = (b.height * 4) as i64;
        if yi < bh {
            // The battle sheet at four times its size, the way a fight shows it.
            b.get(xi / 4 % (b.width as i64 * 4), yi / 4)
        } else {
            p.get(xi, yi - bh)
        }
    });
    out
}

/// Distance from (x, y) to a circle; negative inside.
fn circle(x: f64, y: f64, cx: f64, cy: f64, r: f64) -> f64 {
    ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r
}

/// Distance to an axis-aligned box from its edges `[x0, y0, x1, y1]`.
fn rect(x: f64, y: f64, e: [f64; 4]) -> f64 {
    let dx = (e[0] - x).max(x - e[2]);
    let dy = (e[1] - y).max(y - e[3]);
    dx.max(dy)
}

/// One shape filled with a colour, anti-aliased by its distance.
fn fill(d: f64, c: Rgba) -> Rgba {
    with_alpha(c, c[3] * coverage(d))
}

/// Lays `shapes` over `base`, in order.
fn paint_over(base: Rgba, shapes: &[(f64, Rgba)]) -> Rgba {
    shapes
        .iter()
        .fold(base, |acc, (d, c)| paint::over(acc, fill(*d, *c)))
}

/// A stone floor square: worn flags with a faint salt bloom.
fn floor(u: f64, v: f64, seed: u64) -> Rgba {
    let n = noise::fbm(u, v, 6.0, seed);
    let base = mix_rgba(rgb(88, 80, 66), rgb(120, 110, 90), n);
    let joint = (u.rem_euclid(16.0) - 0.5)
        .abs()
        .min((v.rem_euclid(16.0) - 0.5).abs());
    paint_over(base, &[(joint - 0.6, rgb(52, 46, 38))])
}

/// One battle square's picture at (u, v) in its own pixels.
fn square(name: &str, u: f64, v: f64) -> Rgba {
    let clear = [0.0, 0.0, 0.0, 0.0];
    let body = |r: f64| circle(u, v, 16.0, 17.0, r);
    let eyes = |c: Rgba, y: f64, gap: f64| {
        [
            (circle(u, v, 16.0 - gap, y, 1.6), c),
            (circle(u, v, 16.0 + gap, y, 1.6), c),
        ]
    };
    match name {
        "floor" => floor(u, v, 11),
        "wall" => {
            let n = noise::fbm(u, v, 5.0, 23);
            let base = mix_rgba(rgb(58, 50, 40), rgb(86, 74, 58), n);
            let row = (v / 8.0).floor();
            let off = if row as i64 % 2 == 0 { 0.0 } else { 8.0 };
            let jx = ((u + off).rem_euclid(16.0) - 0.5).abs();
            let jy = (v.rem_euclid(8.0) - 0.5).abs();
            paint_over(base, &[(jx.min(jy) - 0.7, rgb(26, 22, 18))])
        }
        "door_open" => {
            let f = floor(u, v, 12);
            paint_over(
                f,
                &[
                    (rect(u, v, [0.0, 0.0, 4.0, 32.0]), rgb(90, 62, 38)),
                    (rect(u, v, [28.0, 0.0, 32.0, 32.0]), rgb(90, 62, 38)),
                ],
            )
        }
        "door_shut" => {
            let plank = ((u / 6.4).fract() - 0.5).abs();
            let base = mix_rgba(rgb(96, 66, 40), rgb(126, 90, 56), plank);
            paint_over(
                base,
                &[
                    (rect(u, v, [2.0, 8.0, 30.0, 10.0]), rgb(60, 56, 50)),
                    (rect(u, v, [2.0, 22.0, 30.0, 24.0]), rgb(60, 56, 50)),
                    (circle(u, v, 24.0, 16.0, 1.8), rgb(200, 170, 90)),
                ],
            )
        }
        // Counters drawn pale so the fight's tint by side and status shows through.
        "member" => paint_over(
            clear,
            &[
                (circle(u, v, 16.0, 16.0, 13.0), rgb(40, 40, 44)),
                (circle(u, v, 16.0, 16.0, 11.5), rgb(236, 236, 240)),
                (rect(u, v, [14.5, 7.0, 17.5, 25.0]), rgb(120, 120, 130)),
                (rect(u, v, [10.0, 11.0, 22.0, 13.5]), rgb(120, 120, 130)),
            ],
        ),
        "monster" => paint_over(
            clear,
            &[
                (circle(u, v, 16.0, 16.0, 13.0), rgb(40, 30, 30)),
                (circle(u, v, 16.0, 16.0, 11.5), rgb(230, 226, 220)),
                (circle(u, v, 12.0, 14.0, 2.0), rgb(60, 20, 20)),
                (circle(u, v, 20.0, 14.0, 2.0), rgb(60, 20, 20)),
            ],
        ),
        "fallen" => {
            let a = ((u - v) / std::f64::consts::SQRT_2).abs() - 2.0;
            let b = ((u + v - 32.0) / std::f64::consts::SQRT_2).abs() - 2.0;
            let inside = rect(u, v, [5.0, 5.0, 27.0, 27.0]);
            paint_over(clear, &[(a.min(b).max(inside), rgb(170, 30, 24))])
        }
        "marker" => {
            let ring = circle(u, v, 16.0, 16.0, 13.0).abs() - 1.5;
            paint_over(clear, &[(ring, rgb(250, 240, 200))])
        }
        "kobold" => {
            let mut s = vec![
                (body(9.0), rgb(150, 90, 50)),
                (circle(u, v, 10.0, 8.0, 3.0), rgb(150, 90, 50)),
                (circle(u, v, 22.0, 8.0, 3.0), rgb(150, 90, 50)),
            ];
            s.extend(eyes(rgb(250, 220, 60), 15.0, 3.5));
            paint_over(clear, &s)
        }
        "rat" => {
            let tail = rect(u, v, [20.0, 22.0, 30.0, 23.5]);
            let mut s = vec![
                (tail, rgb(200, 150, 150)),
                (circle(u, v, 14.0, 20.0, 8.0), rgb(110, 100, 96)),
                (circle(u, v, 8.0, 15.0, 3.0), rgb(180, 150, 150)),
            ];
            s.push((circle(u, v, 10.5, 18.0, 1.4), rgb(220, 30, 30)));
            paint_over(clear, &s)
        }
        "goblin" => {
            let mut s = vec![
                (body(10.0), rgb(90, 140, 60)),
                (rect(u, v, [3.0, 12.0, 9.0, 14.0]), rgb(90, 140, 60)),
                (rect(u, v, [23.0, 12.0, 29.0, 14.0]), rgb(90, 140, 60)),
            ];
            s.extend(eyes(rgb(240, 60, 30), 15.0, 4.0));
            s.push((rect(u, v, [12.0, 22.0, 20.0, 23.5]), rgb(30, 30, 20)));
            paint_over(clear, &s)
        }
        "orc" => {
            let mut s = vec![(body(12.0), rgb(100, 120, 70))];
            s.extend(eyes(rgb(250, 200, 40), 14.0, 4.5));
            s.push((rect(u, v, [10.0, 21.0, 12.0, 25.0]), rgb(240, 240, 220)));
            s.push((rect(u, v, [20.0, 21.0, 22.0, 25.0]), rgb(240, 240, 220)));
            paint_over(clear, &s)
        }
        "hobgoblin" => {
            let mut s = vec![
                (body(12.0), rgb(170, 80, 40)),
                (rect(u, v, [6.0, 4.0, 26.0, 9.0]), rgb(80, 80, 90)),
            ];
            s.extend(eyes(rgb(250, 250, 200), 15.0, 4.5));
            paint_over(clear, &s)
        }
        "gnoll" => {
            let mut s = vec![
                (body(11.0), rgb(170, 140, 80)),
                (circle(u, v, 16.0, 24.0, 5.0), rgb(120, 96, 60)),
                (circle(u, v, 8.0, 6.0, 3.5), rgb(120, 96, 60)),
                (circle(u, v, 24.0, 6.0, 3.5), rgb(120, 96, 60)),
            ];
            s.extend(eyes(rgb(30, 20, 10), 14.0, 4.5));
            paint_over(clear, &s)
        }
        "skeleton" => {
            let mut s = vec![
                (circle(u, v, 16.0, 12.0, 8.5), rgb(230, 226, 210)),
                (rect(u, v, [12.0, 18.0, 20.0, 26.0]), rgb(230, 226, 210)),
            ];
            s.extend(eyes(rgb(20, 20, 20), 12.0, 3.5));
            for k in 0..3 {
                let y = 20.0 + k as f64 * 2.2;
                s.push((rect(u, v, [12.0, y, 20.0, y + 0.8]), rgb(60, 56, 50)));
            }
            paint_over(clear, &s)
        }
        "zombie" => {
            let mut s = vec![(body(11.5), rgb(110, 130, 110))];
            s.push((circle(u, v, 21.0, 21.0, 3.0), rgb(90, 40, 40)));
            s.extend(eyes(rgb(230, 230, 150), 14.0, 4.0));
            paint_over(clear, &s)
        }
        "ogre" => {
            let mut s = vec![
                (circle(u, v, 16.0, 17.0, 14.5), rgb(140, 110, 80)),
                (rect(u, v, [8.0, 2.0, 24.0, 6.0]), rgb(236, 236, 226)),
                (rect(u, v, [10.0, 0.0, 12.0, 4.0]), rgb(236, 236, 226)),
                (rect(u, v, [15.0, 0.0, 17.0, 4.0]), rgb(236, 236, 226)),
                (rect(u, v, [20.0, 0.0, 22.0, 4.0]), rgb(236, 236, 226)),
            ];
            s.extend(eyes(rgb(250, 120, 40), 14.0, 5.0));
            s.push((rect(u, v, [9.0, 22.0, 23.0, 24.0]), rgb(40, 24, 16)));
            paint_over(clear, &s)
        }
        _ => clear,
    }
}

/// The battle sheet: [`BATTLE`]'s squares in a row.
pub fn battle() -> Image {
    let mut img = Image::new(SQUARE * BATTLE.len() as u32, SQUARE);
    img.layer(|x, y| {
        let i = (x / SQUARE as f64) as usize;
        let u = x - (i as u32 * SQUARE) as f64;
        square(BATTLE[i.min(BATTLE.len() - 1)], u, y)
    });
    img
}

/// One portrait at (u, v) in its own pixels: a head and shoulders on a coloured ground.
fn portrait(i: u32, u: f64, v: f64) -> Rgba {
    const GROUNDS: [Rgba; 6] = [
        rgb(60, 80, 110),
        rgb(110, 60, 60),
        rgb(60, 100, 70),
        rgb(100, 80, 120),
        rgb(120, 100, 50),
        rgb(50, 90, 100),
    ];
    const SKIN: [Rgba; 6] = [
        rgb(230, 190, 160),
        rgb(190, 140, 100),
        rgb(240, 210, 180),
        rgb(150, 100, 70),
        rgb(220, 170, 130),
        rgb(200, 160, 120),
    ];
    const HAIR: [Rgba; 6] = [
        rgb(60, 40, 20),
        rgb(200, 160, 60),
        rgb(30, 30, 30),
        rgb(140, 60, 30),
        rgb(200, 200, 200),
        rgb(90, 60, 40),
    ];
    let k = i as usize % 6;
    let n = noise::fbm(u, v, 24.0, 40 + i as u64);
    let ground = shade(GROUNDS[k], 0.8 + 0.4 * n);
    let head = circle(u, v, 64.0, 56.0, 26.0);
    let hair = circle(u, v, 64.0, 48.0, 29.0).max(v - 40.0 - (i % 3) as f64 * 4.0);
    let shoulders = circle(u, v, 64.0, 150.0, 56.0);
    let beard = if i.is_multiple_of(2) {
        circle(u, v, 64.0, 74.0, 14.0).max(62.0 - v)
    } else {
        f64::MAX
    };
    let eye = |x: f64| circle(u, v, x, 58.0, 3.0);
    let frame = -(rect(u, v, [3.0, 3.0, 125.0, 125.0]));
    paint_over(
        ground,
        &[
            (shoulders, shade(GROUNDS[(k + 3) % 6], 0.7)),
            (head, SKIN[k]),
            (hair, HAIR[k]),
            (beard, HAIR[k]),
            (eye(54.0), rgb(20, 20, 30)),
            (eye(74.0), rgb(20, 20, 30)),
            (
                rect(u, v, [58.0, 78.0, 70.0, 80.5]).max(-beard),
                rgb(120, 50, 50),
            ),
            (frame, rgb(200, 176, 120)),
        ],
    )
}

/// The portraits: [`PORTRAITS`] of them side by side.
pub fn portraits() -> Image {
    let mut img = Image::new(PORTRAIT * PORTRAITS, PORTRAIT);
    img.layer(|x, y| {
        let i = (x / PORTRAIT as f64) as u32;
        portrait(i, x - (i * PORTRAIT) as f64, y)
    });
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_texture_has_the_size_the_game_reads_it_at() {
        let sizes: Vec<(&str, [u32; 2])> = textures()
            .iter()
            .map(|(n, img)| (*n, [img.width, img.height]))
            .collect();
        assert_eq!(
            sizes,
            [
                ("crawler.png", [1024, 1536]),
                ("battle.png", [544, 32]),
                ("portraits.png", [768, 128]),
                ("panel.png", [256, 256]),
                ("white.png", [4, 4]),
            ]
        );
    }

    #[test]
    fn every_battle_square_paints_something() {
        let b = battle();
        for (i, name) in BATTLE.iter().enumerate() {
            let painted = (0..SQUARE as i64).any(|y| {
                (0..SQUARE as i64).any(|x| b.get(i as i64 * SQUARE as i64 + x, y)[3] > 0.5)
            });
            assert!(painted, "{name} is blank");
        }
    }
}
