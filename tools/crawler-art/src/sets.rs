//! Wall sets (`walls.png`): a floor's own wall, floor and ceiling, so each floor of a dungeon
//! looks like somewhere else. A set is a [`Feature`] painted over a game's [`Look`]: the
//! feature brings its own stone, mortar and masonry and then lays its mark over the three
//! faces (roots through the joints, a flood line, glowing cracks, skulls in the wall...).
//! One 256-texel row per set: wall, floor, ceiling, left to right.

use crate::look::{Look, Masonry, Palette};
use crate::sheet::{REGION, blit, ceiling, floor, wall};
use jengine_paint::noise::{fbm, hash, value};
use jengine_paint::paint::{
    Image, Rgba, coverage, ellipse, light, mix_rgba, outline, radius, rgb, segment, shade,
    smoothstep,
};

/// The faces a set paints, in the order of its row (the crawl package's face names).
pub const FACES: [&str; 3] = ["wall", "floor", "ceiling"];

/// What makes a set itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Umber earth and stone, dark roots crawling out of the joints and down the faces.
    Roots,
    /// Knapped black flint nodules in courses of pale chalk mortar, glinting.
    Flint,
    /// Green-grey stone under a flood line, slimed below it, puddles on the floor.
    Drowned,
    /// Black basalt split by cracks glowing with fire.
    Ember,
    /// A cellar's rough brown rubble, cobwebbed in the corners.
    Cellar,
    /// Small red bricks in pale mortar.
    Brick,
    /// Grey stone grown over with moss, thickest low down.
    Moss,
    /// An ossuary: pale stone walled with rows of skulls.
    Bone,
    /// Pale blue stone rimed with frost, icicles hanging from the top of the wall.
    Frost,
    /// Great slabs of dark veined marble.
    Crypt,
}

/// A named set: what a level row's `walls` names and how it is painted.
#[derive(Clone, Copy, Debug)]
pub struct WallSet {
    /// The name levels give in `walls`.
    pub name: &'static str,
    /// What it looks like.
    pub feature: Feature,
}

impl Feature {
    /// The game's look with this feature's stone, mortar and masonry.
    pub fn look(self, base: &Look) -> Look {
        let m = base.masonry;
        let (stone, mortar, flag, vault, masonry) = match self {
            Feature::Roots => (
                rgb(128, 96, 66),
                rgb(44, 30, 18),
                rgb(96, 74, 52),
                rgb(74, 54, 38),
                Masonry {
                    block: [64.0, 64.0],
                    jitter: 5.0,
                    rough: 5.0,
                    corner: 9.0,
                    ..m
                },
            ),
            Feature::Flint => (
                rgb(58, 62, 74),
                rgb(206, 200, 182),
                rgb(120, 116, 106),
                rgb(92, 90, 86),
                Masonry {
                    block: [32.0, 32.0],
                    joint: 3.0,
                    jitter: 6.0,
                    rough: 3.0,
                    corner: 11.0,
                    bevel: 0.45,
                    ..m
                },
            ),
            Feature::Drowned => (
                rgb(92, 118, 104),
                rgb(24, 36, 30),
                rgb(70, 90, 82),
                rgb(56, 74, 68),
                Masonry {
                    block: [128.0, 64.0],
                    ..m
                },
            ),
            Feature::Ember => (
                rgb(58, 44, 42),
                rgb(16, 8, 6),
                rgb(50, 38, 34),
                rgb(38, 28, 26),
                Masonry {
                    block: [128.0, 128.0],
                    jitter: 6.0,
                    rough: 6.0,
                    corner: 3.0,
                    ..m
                },
            ),
            Feature::Cellar => (
                rgb(124, 104, 82),
                rgb(34, 28, 22),
                rgb(98, 84, 68),
                rgb(78, 66, 54),
                Masonry {
                    block: [64.0, 64.0],
                    jitter: 8.0,
                    rough: 6.0,
                    corner: 10.0,
                    ..m
                },
            ),
            Feature::Brick => (
                rgb(152, 70, 50),
                rgb(170, 160, 146),
                rgb(112, 72, 58),
                rgb(100, 56, 44),
                Masonry {
                    block: [64.0, 32.0],
                    vault_block: [32.0, 16.0],
                    joint: 2.5,
                    jitter: 1.0,
                    rough: 1.0,
                    corner: 2.0,
                    ..m
                },
            ),
            Feature::Moss => (
                rgb(112, 118, 112),
                rgb(24, 28, 24),
                rgb(92, 98, 90),
                rgb(70, 76, 70),
                m,
            ),
            Feature::Bone => (
                rgb(176, 164, 138),
                rgb(60, 52, 40),
                rgb(128, 118, 100),
                rgb(100, 92, 78),
                Masonry {
                    block: [256.0, 64.0],
                    ..m
                },
            ),
            Feature::Frost => (
                rgb(150, 176, 200),
                rgb(40, 56, 76),
                rgb(128, 150, 172),
                rgb(104, 124, 148),
                m,
            ),
            Feature::Crypt => (
                rgb(84, 72, 96),
                rgb(20, 16, 24),
                rgb(70, 60, 80),
                rgb(50, 42, 58),
                Masonry {
                    block: [256.0, 128.0],
                    vault_block: [128.0, 64.0],
                    joint: 2.0,
                    corner: 2.0,
                    bevel: 0.35,
                    ..m
                },
            ),
        };
        Look {
            palette: Palette {
                stone,
                mortar,
                flag,
                vault,
                ..base.palette
            },
            masonry,
            ..*base
        }
    }

    /// This feature's mark over face `face` (0 wall, 1 floor, 2 ceiling) at texel (x, y).
    fn mark(self, look: &Look, face: usize, x: f64, y: f64, c: Rgba) -> Rgba {
        let p = &look.palette;
        match self {
            Feature::Roots => {
                let d = roots(x, y, face as u64);
                let root = shade(rgb(62, 40, 22), 0.9 + fbm(x, y, 6.0, 301) * 0.5);
                let c = mix_rgba(c, shade(p.mortar, 0.8), coverage(d - 2.0) * 0.6);
                mix_rgba(c, light(root, smoothstep(3.0, -3.0, d) * 0.15), coverage(d))
            }
            Feature::Flint => {
                // Glints on the nodules.
                if hash((x / 3.0) as i64, (y / 3.0) as i64, 311 + face as u64) > 0.975 {
                    light(c, 0.45)
                } else {
                    c
                }
            }
            Feature::Drowned => {
                let wet = rgb(40, 70, 56);
                match face {
                    0 => {
                        let line = 150.0 + fbm(x, y, 20.0, 321) * 10.0;
                        let below = smoothstep(line - 2.0, line + 2.0, y);
                        let c =
                            mix_rgba(c, shade(wet, 0.9 + fbm(x, y, 8.0, 323) * 0.4), below * 0.6);
                        let tide = outline(y - line, 2.0);
                        let c = mix_rgba(c, light(wet, 0.35), tide * 0.7);
                        // Drips running down from the joints above the line.
                        let col = (x / 21.0).floor();
                        let run = (x - col * 21.0 - 10.0).abs() - 1.2;
                        let long = hash(col as i64, 0, 325) * 120.0;
                        let drip = coverage(run) * smoothstep(long, long + 30.0, y) * (1.0 - below);
                        mix_rgba(c, shade(wet, 0.8), drip * 0.5)
                    }
                    1 => {
                        let pool = value(x, y, 60.0, 327) - 0.58;
                        let water = light(rgb(46, 70, 76), smoothstep(0.0, 0.2, pool) * 0.25);
                        mix_rgba(c, water, smoothstep(-0.02, 0.02, pool) * 0.85)
                    }
                    _ => mix_rgba(
                        c,
                        shade(wet, 0.7),
                        smoothstep(0.6, 0.8, value(x, y, 40.0, 329)) * 0.6,
                    ),
                }
            }
            Feature::Ember => {
                let v = value(x, y, 48.0, 331 + face as u64) - 0.5;
                let vein = v.abs() - 0.018 - fbm(x, y, 8.0, 333) * 0.02;
                let heat = smoothstep(0.03, -0.01, vein);
                let glow = mix_rgba(
                    rgb(200, 60, 16),
                    rgb(255, 200, 90),
                    smoothstep(0.0, -0.015, vein),
                );
                let c = mix_rgba(
                    c,
                    shade(rgb(120, 30, 10), 0.8),
                    smoothstep(0.08, 0.0, vein) * 0.4,
                );
                mix_rgba(c, glow, heat)
            }
            Feature::Cellar => {
                if face != 0 {
                    return c;
                }
                // A web in the top left corner: threads out from the corner and sagging
                // rings across them.
                let (dx, dy) = (x, y);
                let r = (dx * dx + dy * dy).sqrt();
                let mut web = f64::INFINITY;
                for end in [[110.0, 6.0], [96.0, 60.0], [60.0, 96.0], [6.0, 110.0]] {
                    web = web.min(segment(x, y, [0.0, 0.0], end));
                }
                for ring in [34.0, 62.0, 90.0] {
                    web = web.min((r - ring - (dx - dy).abs() * 0.08).abs());
                }
                let web = if r < 112.0 { web } else { f64::INFINITY };
                mix_rgba(c, rgb(200, 196, 186), coverage(web - 0.6) * 0.55)
            }
            Feature::Brick => {
                // Soot darkening the upper courses.
                shade(
                    c,
                    1.0 - smoothstep(100.0, 0.0, y) * 0.15 * (face == 0) as u8 as f64,
                )
            }
            Feature::Moss => {
                let low = match face {
                    0 => smoothstep(60.0, 250.0, y),
                    1 => 0.7,
                    _ => 0.2,
                };
                let n = value(x, y, 34.0, 341 + face as u64) + fbm(x, y, 8.0, 343) * 0.3;
                let moss = smoothstep(0.62 - low * 0.25, 0.7 - low * 0.25, n);
                let green = shade(rgb(70, 112, 44), 0.8 + fbm(x, y, 4.0, 345) * 0.6);
                mix_rgba(c, green, moss * 0.9)
            }
            Feature::Bone => match face {
                0 => skulls(look, x, y, c),
                1 => {
                    let bit = hash((x / 24.0) as i64, (y / 24.0) as i64, 351);
                    if bit > 0.8 {
                        let (cx, cy) = (
                            (x / 24.0).floor() * 24.0 + 12.0,
                            (y / 24.0).floor() * 24.0 + 12.0,
                        );
                        let tilt = hash(cx as i64, cy as i64, 353) * 16.0 - 8.0;
                        let bone = segment(
                            x,
                            y,
                            [cx - 9.0, cy - tilt * 0.5],
                            [cx + 9.0, cy + tilt * 0.5],
                        ) - 2.5;
                        mix_rgba(c, shade(rgb(214, 204, 178), 0.9), coverage(bone))
                    } else {
                        c
                    }
                }
                _ => c,
            },
            Feature::Frost => {
                let rime = smoothstep(
                    0.55,
                    0.75,
                    value(x, y, 12.0, 361 + face as u64) + fbm(x, y, 4.0, 363) * 0.3,
                );
                let c = mix_rgba(c, rgb(236, 244, 252), rime * 0.55);
                if face != 0 {
                    return c;
                }
                // Icicles from the top edge.
                let col = (x / 16.0).floor();
                let len = 14.0 + hash(col as i64, 0, 365) * 46.0;
                let mid = col * 16.0 + 8.0;
                let icicle = (x - mid).abs() - 5.0 * (1.0 - y / len).max(0.0);
                let ice = light(rgb(190, 220, 240), smoothstep(4.0, -4.0, x - mid) * 0.3);
                mix_rgba(c, ice, coverage(icicle.max(y - len)) * 0.9)
            }
            Feature::Crypt => {
                let v = value(x, y, 70.0, 371 + face as u64) + fbm(x, y, 12.0, 373) * 0.25;
                let vein = (v - 0.5).abs() - 0.01;
                mix_rgba(c, rgb(196, 186, 206), smoothstep(0.012, -0.004, vein) * 0.5)
            }
        }
    }
}

/// Distance to the nearest of a few roots: random walks down from the top edge (across for
/// the floor and ceiling), each thinning as it goes.
fn roots(x: f64, y: f64, seed: u64) -> f64 {
    let mut best = f64::INFINITY;
    for r in 0..5i64 {
        let mut at = [20.0 + hash(r, 0, 381 + seed) * 216.0, -4.0];
        for k in 0..7i64 {
            let step = [
                (hash(r, k + 1, 383 + seed) - 0.5) * 60.0,
                24.0 + hash(r, k + 1, 385 + seed) * 24.0,
            ];
            let next = [at[0] + step[0], at[1] + step[1]];
            let width = 6.0 - k as f64 * 0.7;
            best = best.min(segment(x, y, at, next) - width.max(1.0));
            at = next;
        }
    }
    best
}

/// The ossuary's wall: skulls set in rows in the stone, their sockets dark.
fn skulls(look: &Look, x: f64, y: f64, c: Rgba) -> Rgba {
    let p = &look.palette;
    let row = (y / 64.0).floor();
    let offset = if (row as i64) % 2 == 0 { 0.0 } else { 32.0 };
    let col = ((x + offset) / 64.0).floor();
    let (cx, cy) = (col * 64.0 + 32.0 - offset, row * 64.0 + 32.0);
    let head = ellipse(x, y, [cx, cy - 2.0], [22.0, 20.0]);
    let bone = light(
        shade(rgb(214, 204, 178), 0.85 + fbm(x, y, 6.0, 391) * 0.3),
        smoothstep(20.0, 0.0, radius(x, y, [cx - 8.0, cy - 10.0])) * 0.2,
    );
    let mut c = mix_rgba(c, bone, coverage(head));
    c = mix_rgba(c, p.mortar, outline(head, 2.0 * look.line));
    for eye in [[cx - 9.0, cy], [cx + 9.0, cy]] {
        c = mix_rgba(c, p.void, coverage(ellipse(x, y, eye, [6.0, 5.5])));
    }
    c = mix_rgba(
        c,
        p.void,
        coverage(ellipse(x, y, [cx, cy + 9.0], [2.5, 3.5])),
    );
    c
}

/// A set's three faces: wall, floor, ceiling.
pub fn paint(set: &WallSet, base: &Look) -> [Image; 3] {
    let look = set.feature.look(base);
    let mut faces = [wall(&look), floor(&look), ceiling(&look)];
    for (i, img) in faces.iter_mut().enumerate() {
        img.adjust(|x, y, c| set.feature.mark(&look, i, x, y, c));
    }
    faces
}

/// Region `[x, y, w, h]` of face `face` of the set in row `row`.
pub fn region(row: usize, face: usize) -> [u32; 4] {
    [face as u32 * REGION, row as u32 * REGION, REGION, REGION]
}

/// `walls.png`: a row per set, 768 wide.
pub fn sheet(sets: &[WallSet], base: &Look) -> Image {
    let mut out = Image::new(3 * REGION, sets.len() as u32 * REGION);
    for (row, set) in sets.iter().enumerate() {
        for (face, img) in paint(set, base).iter().enumerate() {
            let [x, y, _, _] = region(row, face);
            blit(&mut out, img, x, y);
        }
    }
    out
}
