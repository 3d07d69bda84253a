//! The party's portraits (`portraits.png`, 512x256): eight 128x128 head-and-shoulders
//! pictures in a 4x2 grid, in [`NAMES`] order, each on a dark framed ground.
//!
//! One painter draws every portrait from a [`Sitter`]: the face (skin, eyes, brows, hair,
//! beard, the width of the jaw) and the class's gear (a fighter's helm and mail, a priest's
//! hood and holy symbol, a mage's pointed hat and glowing staff, a thief's hood and mask).
//! Layers go back to front (ground, hood or coif behind the head, shoulders, head, face, hair,
//! gear), all lit from the upper left, and the frame goes on last so nothing crosses it.

use crate::LOOK;
use crate::paint::{
    Image, Rgba, RoundedBox, coverage, ellipse, light, mix_rgba, outline, polygon, radius, rgb,
    segment, shade, smoothstep, with_alpha,
};
use crawler_art::creatures::eye;
use crawler_art::sheet::blit;
use jengine_paint::noise::fbm;

/// The portraits in sheet order: row 0 then row 1, left to right.
pub const NAMES: [&str; 8] = [
    "fighter_a",
    "priest_a",
    "mage_a",
    "thief_a",
    "fighter_b",
    "priest_b",
    "mage_b",
    "thief_b",
];

/// The side of one portrait in texels.
pub const SIDE: u32 = 128;

/// Portrait `i`'s rectangle `[x, y, w, h]` in the sheet: column `i % 4`, row `i / 4`.
pub fn region(i: usize) -> [u32; 4] {
    [(i as u32 % 4) * SIDE, (i as u32 / 4) * SIDE, SIDE, SIDE]
}

/// Every portrait in its place.
pub fn sheet() -> Image {
    let mut img = Image::new(4 * SIDE, 2 * SIDE);
    for (i, sitter) in SITTERS.iter().enumerate() {
        let [x, y, _, _] = region(i);
        blit(&mut img, &portrait(sitter), x, y);
    }
    img
}

/// A party member's class, which decides the gear drawn over the face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Class {
    /// A steel helm with a nasal (and cheek guards when `cheeks`), a mail coif and shoulders.
    Fighter {
        /// Whether the helm has cheek guards.
        cheeks: bool,
    },
    /// A hood and a holy symbol on a chain.
    Priest {
        /// The symbol's metal.
        symbol: Rgba,
    },
    /// A pointed hat and a staff whose stone glows.
    Mage {
        /// The stone's light.
        glow: Rgba,
    },
    /// A dark hood and a mask: over the mouth and nose, or (`eyes`) a band across the eyes.
    Thief {
        /// Whether the mask covers the eyes rather than the mouth.
        eyes: bool,
    },
}

/// How the hair falls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hair {
    /// Cropped close over the crown.
    Short,
    /// Down past the shoulders behind the head, a fringe in front.
    Long,
    /// Pulled back: the crown covered, a knot or braid shown at the side.
    Braid,
}

/// One party member's looks.
#[derive(Clone, Copy, Debug)]
pub struct Sitter {
    /// The portrait's name in the sheet.
    pub name: &'static str,
    /// The face's colour.
    pub skin: Rgba,
    /// The hair's and brows' colour.
    pub hair: Rgba,
    /// How the hair falls.
    pub style: Hair,
    /// A beard's length in texels below the mouth (0 for none).
    pub beard: f64,
    /// The irises' colour.
    pub eyes: Rgba,
    /// Half the face's width in texels (about 17 narrow to 21 broad).
    pub jaw: f64,
    /// The main cloth: tabard, robe, hood or jerkin.
    pub cloth: Rgba,
    /// The ground behind the sitter.
    pub ground: Rgba,
    /// What they carry and wear.
    pub class: Class,
}

const STEEL: Rgba = rgb(168, 178, 192);
const GOLD: Rgba = rgb(226, 184, 80);
const SILVER: Rgba = rgb(214, 222, 232);
const WOOD: Rgba = rgb(104, 72, 46);

/// The eight party members, in [`NAMES`] order.
pub const SITTERS: [Sitter; 8] = [
    Sitter {
        name: "fighter_a",
        skin: rgb(226, 176, 140),
        hair: rgb(150, 84, 40),
        style: Hair::Short,
        beard: 12.0,
        eyes: rgb(70, 110, 160),
        jaw: 21.0,
        cloth: rgb(150, 36, 34),
        ground: rgb(40, 34, 44),
        class: Class::Fighter { cheeks: false },
    },
    Sitter {
        name: "priest_a",
        skin: rgb(232, 190, 160),
        hair: rgb(196, 196, 200),
        style: Hair::Short,
        beard: 7.0,
        eyes: rgb(90, 120, 90),
        jaw: 19.0,
        cloth: rgb(222, 218, 204),
        ground: rgb(34, 40, 52),
        class: Class::Priest { symbol: GOLD },
    },
    Sitter {
        name: "mage_a",
        skin: rgb(218, 170, 136),
        hair: rgb(232, 232, 236),
        style: Hair::Long,
        beard: 34.0,
        eyes: rgb(80, 90, 150),
        jaw: 18.0,
        cloth: rgb(46, 64, 132),
        ground: rgb(28, 30, 50),
        class: Class::Mage {
            glow: rgb(120, 200, 255),
        },
    },
    Sitter {
        name: "thief_a",
        skin: rgb(196, 146, 104),
        hair: rgb(40, 34, 30),
        style: Hair::Short,
        beard: 0.0,
        eyes: rgb(120, 90, 50),
        jaw: 18.0,
        cloth: rgb(58, 66, 60),
        ground: rgb(30, 36, 34),
        class: Class::Thief { eyes: false },
    },
    Sitter {
        name: "fighter_b",
        skin: rgb(140, 92, 62),
        hair: rgb(30, 24, 22),
        style: Hair::Braid,
        beard: 0.0,
        eyes: rgb(70, 46, 30),
        jaw: 18.0,
        cloth: rgb(40, 80, 140),
        ground: rgb(36, 38, 48),
        class: Class::Fighter { cheeks: true },
    },
    Sitter {
        name: "priest_b",
        skin: rgb(110, 72, 50),
        hair: rgb(24, 20, 20),
        style: Hair::Short,
        beard: 0.0,
        eyes: rgb(60, 40, 28),
        jaw: 17.5,
        cloth: rgb(60, 90, 150),
        ground: rgb(30, 38, 50),
        class: Class::Priest { symbol: SILVER },
    },
    Sitter {
        name: "mage_b",
        skin: rgb(240, 200, 176),
        hair: rgb(190, 70, 36),
        style: Hair::Long,
        beard: 0.0,
        eyes: rgb(60, 140, 90),
        jaw: 17.0,
        cloth: rgb(110, 46, 110),
        ground: rgb(40, 28, 44),
        class: Class::Mage {
            glow: rgb(255, 150, 230),
        },
    },
    Sitter {
        name: "thief_b",
        skin: rgb(222, 186, 150),
        hair: rgb(200, 170, 100),
        style: Hair::Braid,
        beard: 0.0,
        eyes: rgb(100, 130, 80),
        jaw: 17.0,
        cloth: rgb(92, 60, 44),
        ground: rgb(38, 32, 30),
        class: Class::Thief { eyes: true },
    },
];

/// The centre of every head.
const HEAD: [f64; 2] = [64.0, 60.0];

/// One portrait, 128x128.
pub fn portrait(s: &Sitter) -> Image {
    let mut img = Image::new(SIDE, SIDE);
    let outer = RoundedBox::new([0.5, 0.5, 127.5, 127.5], 6.0);
    let window = outer.grow(-4.0);
    img.layer(|x, y| {
        let mut c = ground(s, x, y);
        c = behind_head(s, c, x, y);
        c = shoulders(s, c, x, y);
        c = head(s, c, x, y);
        c = hair(s, c, x, y);
        c = gear(s, c, x, y);
        // The frame: dark slate, a thin pale line, a dark edge; the picture sinks behind it.
        let wd = window.distance(x, y);
        let inner_shadow = smoothstep(6.0, 0.0, -wd);
        c = shade(c, 1.0 - inner_shadow * 0.35);
        let frame = shade(LOOK.hud.panel, 1.0 + fbm(x, y, 6.0, 501) * 0.2);
        c = mix_rgba(c, frame, coverage(-wd));
        let od = outer.distance(x, y);
        c = mix_rgba(c, LOOK.hud.inlay, outline(od + 2.0, 1.0) * 0.9);
        c = mix_rgba(c, LOOK.palette.mortar, outline(wd, 1.0));
        with_alpha(c, coverage(od))
    });
    img
}

/// The ground: the sitter's colour, lighter in a halo behind the head, darker low down.
fn ground(s: &Sitter, x: f64, y: f64) -> Rgba {
    let halo = smoothstep(70.0, 10.0, radius(x, y, [56.0, 52.0]));
    let mut c = shade(s.ground, 0.8 + halo * 0.5 + fbm(x, y, 20.0, 503) * 0.2);
    if let Class::Mage { glow } = s.class {
        // The staff's stone lights the ground around it.
        let lit = smoothstep(44.0, 0.0, radius(x, y, [108.0, 30.0]));
        c = mix_rgba(c, glow, lit * 0.35);
    }
    c
}

/// Lays a cloth or skin part: filled with `base`, darker towards its rim and on the side away
/// from the light, with a thin ink outline.
fn lay(c: Rgba, d: f64, base: Rgba, x: f64, y: f64) -> Rgba {
    let side = smoothstep(-30.0, 40.0, x - 64.0 + (y - 64.0) * 0.5);
    let rim = smoothstep(-6.0, 0.0, d);
    let fill = shade(base, 1.08 - side * 0.22 - rim * 0.18);
    let c = mix_rgba(c, fill, coverage(d));
    mix_rgba(c, LOOK.palette.ink, outline(d, 1.0) * 0.85)
}

/// Chain mail: small rings in staggered rows over iron.
fn mail(x: f64, y: f64) -> Rgba {
    let row = (y / 3.0).floor();
    let shift = if (row as i64) % 2 == 0 { 0.0 } else { 2.0 };
    let lx = (x + shift) - ((x + shift) / 4.0).floor() * 4.0;
    let ly = y - row * 3.0;
    let ring = outline(radius(lx, ly, [2.0, 1.5]) - 1.4, 0.8);
    mix_rgba(STEEL, shade(STEEL, 0.45), ring)
}

/// The head's outline: an egg, narrower at the chin.
fn skull(s: &Sitter, x: f64, y: f64) -> f64 {
    let taper = smoothstep(58.0, 86.0, y) * 4.0;
    ellipse(x, y, HEAD, [s.jaw - taper, 24.0])
}

/// What hangs behind the head: a fighter's mail coif, a hood's inside, long hair.
fn behind_head(s: &Sitter, c: Rgba, x: f64, y: f64) -> Rgba {
    match s.class {
        Class::Fighter { .. } => {
            let coif = RoundedBox::new([64.0 - s.jaw - 7.0, 40.0, 64.0 + s.jaw + 7.0, 104.0], 16.0)
                .distance(x, y);
            lay(c, coif, mail(x, y), x, y)
        }
        Class::Priest { .. } | Class::Thief { .. } => {
            let hood = ellipse(x, y, [64.0, 60.0], [s.jaw + 13.0, 38.0]);
            let drape = polygon(
                x,
                y,
                &[
                    [64.0 - s.jaw - 12.0, 60.0],
                    [64.0 + s.jaw + 12.0, 60.0],
                    [64.0 + s.jaw + 26.0, 112.0],
                    [64.0 - s.jaw - 26.0, 112.0],
                ],
            );
            lay(c, hood.min(drape), shade(s.cloth, 0.8), x, y)
        }
        Class::Mage { glow } => {
            // The staff stands behind the shoulder, its stone alight.
            let mut c = lay(
                c,
                segment(x, y, [108.0, 130.0], [108.0, 40.0]) - 3.0,
                WOOD,
                x,
                y,
            );
            let prongs = (segment(x, y, [108.0, 42.0], [101.0, 26.0]) - 1.6)
                .min(segment(x, y, [108.0, 42.0], [115.0, 26.0]) - 1.6);
            c = lay(c, prongs, WOOD, x, y);
            c = eye(c, x, y, [108.0, 30.0], 6.0, glow);
            if s.style == Hair::Long {
                let back =
                    RoundedBox::new([64.0 - s.jaw - 6.0, 44.0, 64.0 + s.jaw + 6.0, 108.0], 12.0)
                        .distance(x, y);
                c = lay(c, back, s.hair, x, y);
            }
            c
        }
    }
}

/// The shoulders and chest, in the class's clothes.
fn shoulders(s: &Sitter, c: Rgba, x: f64, y: f64) -> Rgba {
    // A fighter's coif hides the neck.
    let neck = RoundedBox::new([55.0, 70.0, 73.0, 102.0], 4.0).distance(x, y);
    let mut c = match s.class {
        Class::Fighter { .. } => c,
        _ => lay(c, neck, shade(s.skin, 0.82), x, y),
    };
    let body = ellipse(x, y, [64.0, 136.0], [54.0, 38.0]);
    match s.class {
        Class::Fighter { .. } => {
            c = lay(c, body, mail(x, y), x, y);
            // A tabard over the mail, and steel shoulder plates.
            let tabard = polygon(
                x,
                y,
                &[[46.0, 108.0], [82.0, 108.0], [80.0, 130.0], [48.0, 130.0]],
            );
            c = lay(c, tabard.max(body), s.cloth, x, y);
            let badge = polygon(
                x,
                y,
                &[
                    [58.0, 112.0],
                    [70.0, 112.0],
                    [70.0, 120.0],
                    [64.0, 126.0],
                    [58.0, 120.0],
                ],
            );
            c = mix_rgba(c, GOLD, coverage(badge));
            for side in [-1.0, 1.0] {
                let plate = ellipse(x, y, [64.0 + side * 40.0, 108.0], [20.0, 12.0]);
                let shine = smoothstep(12.0, 0.0, radius(x, y, [58.0 + side * 40.0, 103.0]));
                c = lay(c, plate, light(STEEL, shine * 0.4), x, y);
                c = mix_rgba(c, shade(STEEL, 0.6), outline(plate + 3.5, 0.8));
            }
        }
        Class::Priest { symbol } => {
            c = lay(c, body, s.cloth, x, y);
            // A stole down the front, a chain and the symbol: a sun disc with a cross.
            for side in [-1.0, 1.0] {
                let stole = segment(
                    x,
                    y,
                    [64.0 + side * 12.0, 100.0],
                    [64.0 + side * 16.0, 130.0],
                ) - 4.0;
                c = mix_rgba(c, shade(GOLD, 0.8), coverage(stole.max(body)));
            }
            let chain =
                outline(ellipse(x, y, [64.0, 98.0], [13.0, 16.0]), 1.0) * coverage(94.0 - y);
            c = mix_rgba(c, symbol, chain * 0.9);
            let disc = radius(x, y, [64.0, 118.0]) - 8.0;
            let shine = smoothstep(8.0, 0.0, radius(x, y, [61.0, 115.0]));
            c = lay(c, disc, light(symbol, shine * 0.4), x, y);
            let cross = ((x - 64.0).abs() - 1.4)
                .max((y - 118.0).abs() - 5.5)
                .min(((y - 116.0).abs() - 1.4).max((x - 64.0).abs() - 4.5));
            c = mix_rgba(c, shade(symbol, 0.5), coverage(cross));
        }
        Class::Mage { .. } => {
            c = lay(c, body, s.cloth, x, y);
            // A high collar in a deeper shade, stars stitched on the robe.
            let collar = polygon(
                x,
                y,
                &[
                    [44.0, 100.0],
                    [64.0, 122.0],
                    [84.0, 100.0],
                    [80.0, 96.0],
                    [64.0, 110.0],
                    [48.0, 96.0],
                ],
            );
            c = lay(c, collar, shade(s.cloth, 0.7), x, y);
            for at in [[30.0, 118.0], [96.0, 114.0], [78.0, 124.0], [42.0, 126.0]] {
                let star = star(x, y, at, 3.5);
                c = mix_rgba(c, GOLD, coverage(star.max(body)));
            }
        }
        Class::Thief { .. } => {
            c = lay(c, body, s.cloth, x, y);
            // A leather strap across the chest with a dagger's hilt over the shoulder.
            let strap = segment(x, y, [30.0, 104.0], [90.0, 132.0]) - 4.0;
            c = lay(c, strap.max(body), shade(WOOD, 0.7), x, y);
            let buckle = RoundedBox::new([52.0, 112.0, 60.0, 120.0], 1.5).distance(x, y);
            c = mix_rgba(c, STEEL, outline(buckle, 1.6));
            let grip = segment(x, y, [96.0, 96.0], [104.0, 80.0]) - 2.5;
            c = lay(c, grip, shade(WOOD, 0.6), x, y);
            let guard = segment(x, y, [90.0, 96.0], [102.0, 102.0]) - 2.0;
            c = lay(c, guard, STEEL, x, y);
            c = lay(c, radius(x, y, [104.5, 78.0]) - 3.0, STEEL, x, y);
        }
    }
    c
}

/// A five-pointed star of outer radius `r` about `at` (points from fixed unit vectors).
fn star(x: f64, y: f64, at: [f64; 2], r: f64) -> f64 {
    // cos/sin of 90 + 72k degrees (outer) and 126 + 72k (inner), written out.
    const OUTER: [[f64; 2]; 5] = [
        [0.0, -1.0],
        [0.951_056_5, -0.309_017],
        [0.587_785_3, 0.809_017],
        [-0.587_785_3, 0.809_017],
        [-0.951_056_5, -0.309_017],
    ];
    let inner = r * 0.42;
    let mut pts = Vec::with_capacity(10);
    for k in 0..5 {
        let o = OUTER[k];
        let n = OUTER[(k + 1) % 5];
        pts.push([at[0] + o[0] * r, at[1] + o[1] * r]);
        let (mx, my) = (o[0] + n[0], o[1] + n[1]);
        let len = (mx * mx + my * my).sqrt();
        pts.push([at[0] + mx / len * inner, at[1] + my / len * inner]);
    }
    polygon(x, y, &pts)
}

/// The head and face: ears, skin lit from the left, eyes, brows, nose, mouth, beard.
fn head(s: &Sitter, c: Rgba, x: f64, y: f64) -> Rgba {
    let mut c = c;
    // Ears, unless a coif or hood covers them.
    if matches!(s.class, Class::Mage { .. }) {
        for side in [-1.0, 1.0] {
            let ear = ellipse(x, y, [64.0 + side * (s.jaw + 0.5), 63.0], [4.0, 7.0]);
            c = lay(c, ear, shade(s.skin, 0.92), x, y);
        }
    }
    let d = skull(s, x, y);
    c = lay(c, d, s.skin, x, y);
    if d > 1.0 {
        return c;
    }
    // Warm cheeks, a shadowed eye socket line.
    for side in [-1.0, 1.0] {
        let cheek = radius(x, y, [64.0 + side * 10.0, 70.0]);
        c = mix_rgba(c, rgb(214, 110, 100), smoothstep(7.0, 0.0, cheek) * 0.18);
    }
    let brow = mix_rgba(s.hair, shade(s.skin, 0.5), 0.3);
    for side in [-1.0, 1.0] {
        let at = [64.0 + side * 8.0, 60.0];
        let socket = ellipse(x, y, [at[0], 59.0], [6.0, 4.0]);
        c = mix_rgba(c, shade(s.skin, 0.8), smoothstep(2.0, -2.0, socket) * 0.5);
        let white = ellipse(x, y, at, [3.8, 2.3]);
        c = mix_rgba(c, rgb(240, 236, 228), coverage(white));
        let iris = radius(x, y, [at[0] + 0.4, at[1]]) - 1.9;
        c = mix_rgba(c, s.eyes, coverage(iris.max(white)));
        let pupil = radius(x, y, [at[0] + 0.4, at[1]]) - 0.9;
        c = mix_rgba(c, LOOK.palette.ink, coverage(pupil));
        let glint = radius(x, y, [at[0] - 0.5, at[1] - 0.8]) - 0.5;
        c = mix_rgba(c, rgb(255, 255, 255), coverage(glint));
        // The upper lid: a dark line along the top of the eye.
        let lid = outline(white, 0.9) * coverage(at[1] - y + 0.3);
        c = mix_rgba(c, shade(s.skin, 0.35), lid);
        let arch = segment(x, y, [64.0 + side * 4.0, 54.5], [64.0 + side * 12.0, 53.0]) - 1.1;
        c = mix_rgba(c, brow, coverage(arch));
    }
    // The nose: a shade down its right side and under its tip.
    let ridge = segment(x, y, [65.5, 61.0], [67.0, 69.0]) - 0.8;
    c = mix_rgba(c, shade(s.skin, 0.72), coverage(ridge) * 0.8);
    let tip = ellipse(x, y, [64.0, 70.5], [3.8, 1.3]);
    c = mix_rgba(c, shade(s.skin, 0.7), coverage(tip) * 0.8);
    // The mouth.
    let lips = mix_rgba(s.skin, rgb(150, 60, 60), 0.45);
    let mouth = segment(x, y, [59.5, 77.0], [68.5, 77.0]) - 1.0;
    c = mix_rgba(c, shade(lips, 0.8), coverage(mouth));
    let lower = ellipse(x, y, [64.0, 79.0], [3.5, 1.2]);
    c = mix_rgba(c, lips, coverage(lower) * 0.6);
    if s.beard > 0.0 {
        // Round the jaw and down from the mouth, leaving the lips bare.
        let beard = polygon(
            x,
            y,
            &[
                [64.0 - s.jaw, 62.0],
                [64.0 - s.jaw + 5.0, 74.0],
                [64.0 - s.beard * 0.3 - 8.0, 80.0 + s.beard],
                [64.0, 84.0 + s.beard],
                [64.0 + s.beard * 0.3 + 8.0, 80.0 + s.beard],
                [64.0 + s.jaw - 5.0, 74.0],
                [64.0 + s.jaw, 62.0],
                [64.0 + s.jaw - 2.0, 70.0],
                [70.0, 73.0],
                [58.0, 73.0],
                [64.0 - s.jaw + 2.0, 70.0],
            ],
        );
        let strands = 1.0 + fbm(x * 3.0, y * 0.5, 6.0, 505) * 0.5;
        let b = shade(s.hair, strands);
        c = lay(c, beard, b, x, y);
        // The lower lip shows through.
        c = mix_rgba(c, lips, coverage(lower) * 0.7);
    }
    c
}

/// The hair over the head (under a helm or hood, only what shows).
fn hair(s: &Sitter, c: Rgba, x: f64, y: f64) -> Rgba {
    let strands = 1.0 + fbm(x * 2.0, y * 0.6, 5.0, 507) * 0.5;
    let colour = shade(s.hair, strands);
    let crown =
        ellipse(x, y, [64.0, 50.0], [s.jaw + 2.0, 18.0]).max(y - 53.0 + (x - 64.0).abs() * 0.15);
    match s.style {
        Hair::Short => lay(c, crown, colour, x, y),
        Hair::Long => {
            let mut c = lay(c, crown, colour, x, y);
            // Locks falling each side of the face.
            for side in [-1.0, 1.0] {
                let lock = polygon(
                    x,
                    y,
                    &[
                        [64.0 + side * (s.jaw - 6.0), 46.0],
                        [64.0 + side * (s.jaw + 4.0), 50.0],
                        [64.0 + side * (s.jaw + 6.0), 98.0],
                        [64.0 + side * (s.jaw - 2.0), 94.0],
                        [64.0 + side * (s.jaw - 3.0), 60.0],
                    ],
                );
                c = lay(c, lock, colour, x, y);
            }
            c
        }
        Hair::Braid => {
            let braid = (0..4)
                .map(|k| {
                    ellipse(
                        x,
                        y,
                        [64.0 + s.jaw + 4.0 + k as f64, 76.0 + k as f64 * 9.0],
                        [5.0, 6.0],
                    )
                })
                .fold(f64::INFINITY, f64::min);
            let c = lay(c, braid, colour, x, y);
            lay(c, crown, colour, x, y)
        }
    }
}

/// The class's gear over the head: helm, hood rim, hat, mask.
fn gear(s: &Sitter, c: Rgba, x: f64, y: f64) -> Rgba {
    let mut c = c;
    match s.class {
        Class::Fighter { cheeks } => {
            let w = s.jaw + 4.0;
            let dome = ellipse(x, y, [64.0, 52.0], [w, 22.0]).max(y - 52.0);
            let shine = smoothstep(14.0, 0.0, radius(x, y, [54.0, 38.0]));
            c = lay(c, dome, light(STEEL, shine * 0.45), x, y);
            let band = RoundedBox::new([64.0 - w, 47.0, 64.0 + w, 55.0], 2.0).distance(x, y);
            c = lay(c, band, shade(STEEL, 0.85), x, y);
            for k in 0..7 {
                let rivet = radius(
                    x,
                    y,
                    [64.0 - w + 4.0 + k as f64 * (2.0 * w - 8.0) / 6.0, 51.0],
                ) - 1.2;
                c = mix_rgba(c, light(STEEL, 0.5), coverage(rivet));
            }
            let nasal = RoundedBox::new([61.5, 52.0, 66.5, 70.0], 2.0).distance(x, y);
            c = lay(c, nasal, STEEL, x, y);
            if cheeks {
                for side in [-1.0, 1.0] {
                    let guard = polygon(
                        x,
                        y,
                        &[
                            [64.0 + side * w, 54.0],
                            [64.0 + side * (w - 8.0), 54.0],
                            [64.0 + side * (w - 6.0), 80.0],
                            [64.0 + side * (w - 1.0), 78.0],
                        ],
                    );
                    c = lay(c, guard, shade(STEEL, 0.9), x, y);
                }
                // A blue plume.
                let plume = ellipse(x, y, [64.0, 24.0], [5.0, 10.0]);
                c = lay(c, plume, s.cloth, x, y);
            }
        }
        Class::Priest { .. } => {
            // The hood's rim framing the face.
            let rim = ellipse(x, y, [64.0, 58.0], [s.jaw + 9.0, 32.0]);
            let opening = ellipse(x, y, [64.0, 62.0], [s.jaw + 3.0, 27.0]);
            let band = rim.max(-opening).max(y - 100.0);
            c = lay(c, band, s.cloth, x, y);
            // A gold hem along the hood's outer edge.
            c = mix_rgba(c, GOLD, outline(rim + 2.0, 1.2) * coverage(band));
        }
        Class::Mage { .. } => {
            let brim = ellipse(x, y, [64.0, 42.0], [s.jaw + 22.0, 7.0]);
            c = lay(c, brim, shade(s.cloth, 0.85), x, y);
            let cone = polygon(
                x,
                y,
                &[
                    [64.0 - s.jaw - 4.0, 42.0],
                    [58.0, 16.0],
                    [70.0, 4.0],
                    [88.0, 6.0],
                    [72.0, 14.0],
                    [64.0 + s.jaw + 4.0, 42.0],
                ],
            );
            c = lay(c, cone, s.cloth, x, y);
            let band = cone.max((y - 37.0).abs() - 3.0);
            c = mix_rgba(c, GOLD, coverage(band));
            let st = star(x, y, [60.0, 26.0], 4.0);
            c = mix_rgba(c, GOLD, coverage(st));
        }
        Class::Thief { eyes } => {
            let rim = ellipse(x, y, [64.0, 56.0], [s.jaw + 9.0, 31.0]);
            let opening = ellipse(x, y, [64.0, 64.0], [s.jaw + 2.0, 24.0]);
            let band = rim.max(-opening).max(y - 100.0);
            c = lay(c, band, s.cloth, x, y);
            // The hood's shadow over the brow.
            c = mix_rgba(
                c,
                LOOK.palette.void,
                smoothstep(56.0, 44.0, y) * coverage(opening) * 0.55,
            );
            let mask_colour = shade(s.cloth, 0.55);
            if eyes {
                let band =
                    RoundedBox::new([64.0 - s.jaw - 1.0, 55.0, 64.0 + s.jaw + 1.0, 65.0], 4.0)
                        .distance(x, y);
                let holes = ellipse(x, y, [56.0, 60.0], [4.5, 3.0]).min(ellipse(
                    x,
                    y,
                    [72.0, 60.0],
                    [4.5, 3.0],
                ));
                c = lay(c, band.max(-holes), mask_colour, x, y);
            } else {
                let mask = polygon(
                    x,
                    y,
                    &[
                        [64.0 - s.jaw - 1.0, 64.0],
                        [64.0, 66.0],
                        [64.0 + s.jaw + 1.0, 64.0],
                        [64.0 + s.jaw - 2.0, 84.0],
                        [64.0, 90.0],
                        [64.0 - s.jaw + 2.0, 84.0],
                    ],
                );
                let folds = 1.0 + fbm(x * 0.5, y * 2.0, 5.0, 509) * 0.4;
                c = lay(c, mask, shade(mask_colour, folds), x, y);
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sitters_are_in_the_names_order_and_the_grid_is_four_by_two() {
        for (sitter, name) in SITTERS.iter().zip(NAMES) {
            assert_eq!(sitter.name, name);
        }
        assert_eq!(region(0), [0, 0, 128, 128]);
        assert_eq!(region(3), [384, 0, 128, 128]);
        assert_eq!(region(4), [0, 128, 128, 128]);
        assert_eq!(region(7), [384, 128, 128, 128]);
    }

    #[test]
    fn every_portrait_is_opaque_inside_its_frame_and_the_faces_differ() {
        let img = sheet();
        assert_eq!((img.width, img.height), (512, 256));
        let mut faces = Vec::new();
        for (i, name) in NAMES.iter().enumerate() {
            let [x0, y0, _, _] = region(i);
            for (dx, dy) in [(8, 8), (64, 64), (120, 120)] {
                let p = img.get((x0 + dx) as i64, (y0 + dy) as i64);
                assert_eq!(p[3], 1.0, "{name} at ({dx}, {dy})");
            }
            faces.push(img.get((x0 + 56) as i64, (y0 + 70) as i64));
        }
        for (i, a) in faces.iter().enumerate() {
            for (j, b) in faces.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "{} and {}", NAMES[i], NAMES[j]);
            }
        }
    }
}
