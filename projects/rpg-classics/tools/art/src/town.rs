//! The town's still pictures (`town.png`, 1024x864): five 512x288 scenes in a two-column
//! grid, row by row, in [`NAMES`] order; the sixth cell is clear.
//!
//! Each is a room in one-point perspective ([`crate::scene`]) furnished with boxes and props
//! and lit by a few warm lights over a dim ambient, so it reads at a glance and sets the mood:
//! the inn's evening windows, the shop's lamp over the counter, the temple's candles under
//! stained glass, the tavern's fire, and the stairs going down into the dark.

use crate::LOOK;
use crate::noise::{fbm, hash};
use crate::paint::{
    Image, Rgba, coverage, ellipse, light, mix_rgba, outline, over, polygon, radius, rgb, segment,
    shade, smoothstep, with_alpha,
};
use crate::scene::{
    Cuboid, Face, INK, Light, Room, Surface, barrel_end, candle, flame, grain, halo, lit, seams,
};
use crawler_art::sheet::{blit, stone};
use crawler_art::{Look, Masonry};

/// The pictures in sheet order.
pub const NAMES: [&str; 5] = ["inn", "shop", "temple", "tavern", "stairs"];

/// Stonework in the pictures: the sheet's granite, its crystals softer at this distance.
const STONEWORK: Look = Look {
    masonry: Masonry {
        speckle: 0.45,
        ..LOOK.masonry
    },
    ..LOOK
};

/// A picture's width and height in pixels.
pub const SIZE: [u32; 2] = [512, 288];

/// How far the eye stands from the back wall, in back-wall pixels: it turns a depth `z` into
/// a distance, so boards and tiles running away from the viewer stay square.
const FOCAL: f64 = 400.0;

/// Picture `i`'s rectangle `[x, y, w, h]` in the sheet: column `i % 2`, row `i / 2`.
pub fn region(i: usize) -> [u32; 4] {
    let [w, h] = SIZE;
    [(i as u32 % 2) * w, (i as u32 / 2) * h, w, h]
}

/// The five pictures in place, the sixth cell left clear.
pub fn sheet() -> Image {
    let mut img = Image::new(2 * SIZE[0], 3 * SIZE[1]);
    let painters: [fn() -> Image; 5] = [inn, shop, temple, tavern, stairs];
    for (i, paint) in painters.iter().enumerate() {
        let [x, y, _, _] = region(i);
        blit(&mut img, &paint(), x, y);
    }
    img
}

fn picture(paint: impl Fn(f64, f64) -> Rgba) -> Image {
    let [w, h] = SIZE;
    let mut img = Image::new(w, h);
    img.layer(paint);
    img
}

/// How far from the back wall a depth is, in back-wall pixels.
fn distance(z: f64) -> f64 {
    FOCAL * (1.0 - z)
}

/// Boards running along `along`, `width` apart, with grain across them and dark seams.
fn boards(along: f64, across: f64, width: f64, base: Rgba, seed: u64) -> Rgba {
    let k = (across / width).floor();
    let tone = 0.85 + hash(k as i64, 0, seed) * 0.3;
    let c = grain(
        shade(base, tone),
        fbm(along * 0.25, across * 3.0, 8.0, seed + k as u64),
        0.35,
    );
    shade(c, seams(across, width, 1.0))
}

/// Lime plaster: a warm off-white, mottled.
fn plaster(x: f64, y: f64, base: Rgba, seed: u64) -> Rgba {
    grain(
        base,
        fbm(x, y, 18.0, seed) + fbm(x, y, 4.0, seed + 1) * 0.4,
        0.25,
    )
}

/// A dark beam `width` across centred on `at` along one coordinate.
fn beam(c: Rgba, along: f64, at: f64, width: f64, wood: Rgba, seed: u64) -> Rgba {
    let d = (along - at).abs() - width / 2.0;
    let b = grain(wood, fbm(along * 3.0, at, 6.0, seed), 0.3);
    let c = mix_rgba(c, b, coverage(d));
    mix_rgba(c, INK, outline(d, 1.0) * 0.6)
}

/// A warm evening common room: sun through two windows in the left wall laying bright
/// patches across the plank floor, a long table with benches, a lantern over it.
fn inn() -> Image {
    let room = Room {
        back: [140.0, 56.0, 372.0, 196.0],
        vp: [256.0, 132.0],
    };
    let wood = rgb(112, 72, 44);
    let dark_wood = rgb(62, 38, 24);
    let wall = rgb(206, 176, 132);
    let sun = rgb(255, 190, 110);
    let windows = [[0.56, 0.68], [0.78, 0.9]];
    // Where each window's light falls on the floor (its shape slid out from the wall), and
    // the shaft of dusty air between the two.
    let patches: Vec<[[f64; 2]; 4]> = windows
        .iter()
        .map(|[z0, z1]| {
            let foot = |z: f64, reach: f64| room.at(z, [room.back[0] + reach, room.floor()]);
            [
                foot(*z1, 60.0),
                foot(*z1, 140.0),
                foot(*z0, 140.0),
                foot(*z0, 60.0),
            ]
        })
        .collect();
    let shafts: Vec<Vec<[f64; 2]>> = windows
        .iter()
        .zip(&patches)
        .map(|([z0, z1], patch)| {
            let mut points = patch.to_vec();
            for z in [*z0, *z1] {
                for v in [80.0, 156.0] {
                    points.push(room.at(z, [room.back[0], v]));
                }
            }
            hull(points)
        })
        .collect();
    let lamp = [256.0, 96.0];
    let lights = [
        Light {
            at: lamp,
            reach: 150.0,
            colour: rgb(255, 200, 120),
            strength: 0.9,
        },
        Light {
            at: [60.0, 150.0],
            reach: 260.0,
            colour: sun,
            strength: 0.7,
        },
    ];
    let table = Cuboid {
        u: [196.0, 316.0],
        h: [32.0, 36.0],
        z: [0.6, 0.84],
    };
    let legs = [
        Cuboid {
            u: [200.0, 206.0],
            h: [0.0, 32.0],
            z: [0.6, 0.62],
        },
        Cuboid {
            u: [306.0, 312.0],
            h: [0.0, 32.0],
            z: [0.6, 0.62],
        },
        Cuboid {
            u: [200.0, 206.0],
            h: [0.0, 32.0],
            z: [0.82, 0.84],
        },
        Cuboid {
            u: [306.0, 312.0],
            h: [0.0, 32.0],
            z: [0.82, 0.84],
        },
    ];
    let benches = [
        Cuboid {
            u: [168.0, 186.0],
            h: [0.0, 18.0],
            z: [0.62, 0.82],
        },
        Cuboid {
            u: [326.0, 344.0],
            h: [0.0, 18.0],
            z: [0.62, 0.82],
        },
    ];
    picture(|x, y| {
        let surface = room.surface(x, y);
        let mut c = match surface {
            Surface::Floor { u, z } => {
                let mut f = boards(distance(z), u, 22.0, wood, 701);
                let joint = seams(distance(z) + (u / 22.0).floor() * 37.0, 90.0, 0.5);
                f = shade(f, joint);
                for p in &patches {
                    let d = polygon(x, y, p);
                    f = mix_rgba(
                        f,
                        light(mix_rgba(f, sun, 0.6), 0.35),
                        smoothstep(4.0, -8.0, d) * 0.9,
                    );
                }
                f
            }
            Surface::Ceiling { u, z } => {
                let c = boards(distance(z), u, 26.0, dark_wood, 703);
                let w = distance(z);
                beam(
                    c,
                    w,
                    (w / 60.0).round() * 60.0,
                    12.0,
                    shade(dark_wood, 0.8),
                    705,
                )
            }
            Surface::Back { u, v } => {
                let mut c = plaster(u, v, wall, 707);
                c = beam(c, v, 76.0, 8.0, dark_wood, 709);
                for post in [140.0, 200.0, 312.0, 372.0] {
                    c = beam(c, u, post, 8.0, dark_wood, 711);
                }
                // A doorway into the kitchen, dark, a warm glow deep inside.
                let door = polygon(
                    u,
                    v,
                    &[
                        [322.0, 196.0],
                        [322.0, 110.0],
                        [362.0, 110.0],
                        [362.0, 196.0],
                    ],
                );
                let inside = halo(
                    rgb(20, 12, 8),
                    u,
                    v,
                    [350.0, 170.0],
                    40.0,
                    rgb(200, 110, 50),
                    0.6,
                );
                c = mix_rgba(c, inside, coverage(door));
                c = mix_rgba(c, dark_wood, outline(door, 3.0));
                // A shelf of plates.
                let shelf = ((v - 104.0).abs() - 2.5).max((u - 258.0).abs() - 46.0);
                c = mix_rgba(c, wood, coverage(shelf));
                for k in 0..5 {
                    let plate = ellipse(u, v, [222.0 + k as f64 * 18.0, 94.0], [7.5, 8.5]);
                    c = mix_rgba(c, rgb(200, 200, 190), coverage(plate));
                    c = mix_rgba(c, rgb(60, 90, 140), outline(plate + 2.0, 1.0) * 0.8);
                }
                c
            }
            Surface::Left { v, z } | Surface::Right { v, z } => {
                let w = distance(z);
                let mut c = plaster(w, v, wall, 713);
                c = beam(c, v, 76.0, 8.0, dark_wood, 715);
                c = beam(
                    c,
                    w,
                    (w / 100.0).round() * 100.0 + 20.0,
                    8.0,
                    dark_wood,
                    717,
                );
                c
            }
        };
        // Evening light and lamp light; the windows glow by their own.
        c = lit(c, x, y, 0.45, &lights);
        if let Surface::Left { v, z } = surface {
            let w = distance(z);
            for [z0, z1] in windows {
                let (near, far) = (distance(z0), distance(z1));
                let pane = ((v - 118.0).abs() - 38.0).max(far - w).max(w - near);
                // Two mullions and a transom, in wall pixels.
                let third = (near - far) / 3.0;
                let mullion = ((w - far) / third - ((w - far) / third).round()).abs() * third;
                let bars = mullion.min((v - 104.0).abs());
                let glass = mix_rgba(
                    rgb(255, 232, 170),
                    rgb(255, 160, 80),
                    smoothstep(80.0, 156.0, v),
                );
                // Wall pixels shrink towards the back: scale distances to picture pixels.
                let px = 1.0 / z;
                c = mix_rgba(c, glass, coverage(pane * px));
                c = mix_rgba(
                    c,
                    dark_wood,
                    coverage((bars - 1.5) * px) * coverage(pane * px),
                );
                c = mix_rgba(c, dark_wood, outline(pane * px, 5.0));
            }
        }
        let grained = |base: Rgba| {
            lit(
                grain(base, fbm(x * 0.3, y * 2.0, 6.0, 719), 0.3),
                x,
                y,
                0.5,
                &lights,
            )
        };
        for bench in &benches {
            c = bench.lay(&room, c, x, y, |_| grained(wood));
        }
        for leg in &legs {
            c = leg.lay(&room, c, x, y, |_| grained(dark_wood));
        }
        c = table.lay(&room, c, x, y, |face| {
            grained(if face == Face::Top {
                light(wood, 0.1)
            } else {
                wood
            })
        });
        // Dust in the evening light.
        for shaft in &shafts {
            let d = polygon(x, y, shaft);
            c = over(
                c,
                with_alpha(rgb(255, 214, 150), smoothstep(10.0, -24.0, d) * 0.24),
            );
        }
        // On the table: mugs, a bowl, a candle, all lamp-lit.
        let top = room.floor() - 36.0;
        for (u, z) in [(216.0, 0.66), (292.0, 0.7), (240.0, 0.8)] {
            let [mx, my] = room.at(z, [u, top]);
            let s = 1.0 / z;
            let mug = polygon(
                x,
                y,
                &[
                    [mx - 4.0 * s, my],
                    [mx - 4.0 * s, my - 9.0 * s],
                    [mx + 4.0 * s, my - 9.0 * s],
                    [mx + 4.0 * s, my],
                ],
            );
            c = mix_rgba(c, lit(rgb(150, 110, 70), x, y, 0.6, &lights), coverage(mug));
            c = mix_rgba(c, INK, outline(mug, 0.8));
            c = mix_rgba(
                c,
                rgb(240, 230, 200),
                coverage(ellipse(x, y, [mx, my - 9.0 * s], [4.0 * s, 1.4 * s])),
            );
        }
        let bowl = ellipse(x, y, room.at(0.74, [262.0, top - 2.0]), [14.0, 5.0])
            .max(y - room.at(0.74, [262.0, top])[1]);
        c = mix_rgba(
            c,
            lit(rgb(160, 120, 80), x, y, 0.6, &lights),
            coverage(bowl),
        );
        c = candle(c, x, y, room.at(0.72, [256.0, top]), 12.0, 4.0);
        // The lantern hanging from a beam.
        c = mix_rgba(
            c,
            INK,
            coverage(segment(x, y, [lamp[0], 0.0], [lamp[0], lamp[1] - 12.0]) - 0.8),
        );
        c = halo(c, x, y, lamp, 60.0, rgb(255, 200, 120), 0.45);
        let frame = polygon(
            x,
            y,
            &[
                [lamp[0] - 8.0, lamp[1] - 10.0],
                [lamp[0] + 8.0, lamp[1] - 10.0],
                [lamp[0] + 6.0, lamp[1] + 10.0],
                [lamp[0] - 6.0, lamp[1] + 10.0],
            ],
        );
        c = mix_rgba(c, rgb(255, 224, 150), coverage(frame));
        c = mix_rgba(c, rgb(40, 34, 30), outline(frame, 2.0));
        c = flame(c, x, y, [lamp[0], lamp[1] + 6.0], 11.0, 3.5);
        vignette(c, x, y)
    })
}

/// The outfitter's: a counter across the front, shelves of helms and potions behind, shields
/// and swords on the side walls, a lamp over it all.
fn shop() -> Image {
    let room = Room {
        back: [124.0, 44.0, 388.0, 200.0],
        vp: [256.0, 126.0],
    };
    let wood = rgb(120, 80, 48);
    let dark_wood = rgb(66, 42, 26);
    let lamp = [256.0, 26.0];
    let lights = [Light {
        at: [256.0, 96.0],
        reach: 260.0,
        colour: rgb(255, 204, 130),
        strength: 1.0,
    }];
    let counter = Cuboid {
        u: [40.0, 472.0],
        h: [0.0, 46.0],
        z: [0.56, 0.64],
    };
    picture(|x, y| {
        let surface = room.surface(x, y);
        let mut c = match surface {
            Surface::Floor { u, z } => boards(distance(z), u, 20.0, shade(wood, 0.8), 721),
            Surface::Ceiling { u, z } => {
                let w = distance(z);
                beam(
                    boards(w, u, 26.0, dark_wood, 723),
                    w,
                    (w / 50.0).round() * 50.0,
                    10.0,
                    shade(dark_wood, 0.7),
                    725,
                )
            }
            Surface::Back { u, v } => {
                let mut c = boards(v, u, 24.0, wood, 727);
                // Three shelves, each with its wares.
                for (k, sv) in [84.0, 126.0, 168.0].iter().enumerate() {
                    let shelf = ((v - sv).abs() - 3.0).max((u - 256.0).abs() - 120.0);
                    let under = ((v - sv - 8.0).abs() - 5.0).max((u - 256.0).abs() - 120.0);
                    c = mix_rgba(c, shade(c, 0.6), coverage(under) * 0.6);
                    for i in 0..7 {
                        let cx = 152.0 + i as f64 * 34.0 + if k == 1 { 12.0 } else { 0.0 };
                        c = ware(c, u, v, k, i, [cx, sv - 3.0]);
                    }
                    c = mix_rgba(c, light(wood, 0.15), coverage(shelf));
                    c = mix_rgba(c, INK, outline(shelf, 0.8) * 0.7);
                }
                c
            }
            Surface::Left { v, z } | Surface::Right { v, z } => {
                let w = distance(z);
                boards(v, w, 24.0, shade(wood, 0.9), 729)
            }
        };
        c = lit(c, x, y, 0.4, &lights);
        // Shields on the left wall and swords on the right, drawn facing us at their depth.
        for (k, z) in [0.72, 0.88].iter().enumerate() {
            let [sx, sy] = room.at(*z, [room.back[0], 110.0]);
            let s = 1.0 / z;
            let rim = radius(x, y, [sx + 10.0 * s, sy]) - 20.0 * s;
            let face = if k == 0 {
                rgb(150, 40, 36)
            } else {
                rgb(40, 80, 150)
            };
            let face = mix_rgba(
                face,
                rgb(230, 200, 90),
                coverage((x - sx - 10.0 * s).abs() - 3.0 * s) * 0.9,
            );
            c = mix_rgba(c, lit(face, x, y, 0.5, &lights), coverage(rim));
            c = mix_rgba(
                c,
                lit(rgb(170, 176, 186), x, y, 0.5, &lights),
                outline(rim + 2.0 * s, 3.0 * s),
            );
            c = mix_rgba(c, INK, outline(rim, 1.0));
            let [wx, wy] = room.at(*z, [room.back[2], 120.0]);
            for j in [-1.0, 1.0] {
                let tip = [wx - 12.0 * s + j * 7.0 * s, wy - 50.0 * s];
                let hilt = [wx - 12.0 * s + j * 7.0 * s, wy + 20.0 * s];
                let blade = segment(x, y, tip, hilt) - 2.6 * s;
                c = mix_rgba(
                    c,
                    lit(rgb(190, 198, 210), x, y, 0.55, &lights),
                    coverage(blade),
                );
                c = mix_rgba(c, INK, outline(blade, 0.8));
                let guard = segment(
                    x,
                    y,
                    [hilt[0] - 7.0 * s, hilt[1]],
                    [hilt[0] + 7.0 * s, hilt[1]],
                ) - 1.8 * s;
                c = mix_rgba(c, rgb(200, 160, 70), coverage(guard));
                let grip = segment(x, y, hilt, [hilt[0], hilt[1] + 12.0 * s]) - 1.8 * s;
                c = mix_rgba(c, dark_wood, coverage(grip));
            }
        }
        // The counter, its top scuffed and lit, a panelled front.
        c = counter.lay(&room, c, x, y, |face| match face {
            Face::Top => lit(light(wood, 0.12), x, y, 0.5, &lights),
            _ => {
                // Planks behind raised panels with dark frames.
                let planks = boards(y, x, 30.0, wood, 731);
                let cell = ((x / 90.0 - (x / 90.0).floor()) - 0.5).abs() * 90.0 - 34.0;
                let panel = cell.max((y - 216.0).abs() - 26.0);
                let c = mix_rgba(planks, light(wood, 0.06), coverage(panel));
                let c = mix_rgba(c, shade(wood, 0.55), outline(panel, 2.0));
                lit(c, x, y, 0.42, &lights)
            }
        });
        // On the counter: a balance, a stack of coins, a ledger, a candle.
        let top = room.floor() - 46.0;
        let [bx, by] = room.at(0.6, [212.0, top]);
        let post = segment(x, y, [bx, by], [bx, by - 34.0]) - 1.6;
        let arm = segment(x, y, [bx - 22.0, by - 32.0], [bx + 22.0, by - 32.0]) - 1.4;
        c = mix_rgba(c, rgb(210, 170, 80), coverage(post.min(arm)));
        for side in [-1.0, 1.0] {
            let pan = ellipse(x, y, [bx + side * 22.0, by - 14.0], [10.0, 3.0]);
            let cords = segment(
                x,
                y,
                [bx + side * 22.0, by - 32.0],
                [bx + side * 16.0, by - 14.0],
            )
            .min(segment(
                x,
                y,
                [bx + side * 22.0, by - 32.0],
                [bx + side * 28.0, by - 14.0],
            )) - 0.5;
            c = mix_rgba(c, rgb(120, 100, 60), coverage(cords));
            c = mix_rgba(c, rgb(220, 180, 90), coverage(pan));
        }
        let [cx, cy] = room.at(0.6, [262.0, top]);
        for k in 0..5 {
            let coin = ellipse(
                x,
                y,
                [cx + (k % 2) as f64, cy - 2.0 - k as f64 * 2.6],
                [7.0, 2.4],
            );
            c = mix_rgba(c, rgb(240, 200, 90), coverage(coin));
            c = mix_rgba(c, rgb(140, 100, 30), outline(coin, 0.8));
        }
        let [lx, ly] = room.at(0.6, [308.0, top]);
        let book = polygon(
            x,
            y,
            &[
                [lx - 20.0, ly],
                [lx + 14.0, ly],
                [lx + 20.0, ly - 8.0],
                [lx - 14.0, ly - 8.0],
            ],
        );
        c = mix_rgba(c, lit(rgb(120, 30, 30), x, y, 0.5, &lights), coverage(book));
        c = mix_rgba(
            c,
            rgb(230, 220, 190),
            coverage(polygon(
                x,
                y,
                &[
                    [lx - 17.0, ly - 2.0],
                    [lx + 13.0, ly - 2.0],
                    [lx + 17.0, ly - 7.0],
                    [lx - 13.0, ly - 7.0],
                ],
            )),
        );
        c = mix_rgba(c, INK, outline(book, 0.8));
        c = candle(c, x, y, room.at(0.6, [352.0, top]), 14.0, 5.0);
        // The lamp: chains, an iron frame, a flame.
        for side in [-1.0, 1.0] {
            let chain = segment(
                x,
                y,
                [lamp[0] + side * 10.0, 0.0],
                [lamp[0], lamp[1] - 14.0],
            ) - 0.7;
            c = mix_rgba(c, INK, coverage(chain));
        }
        c = halo(c, x, y, lamp, 70.0, rgb(255, 200, 120), 0.5);
        let glass = ellipse(x, y, lamp, [9.0, 12.0]);
        c = mix_rgba(c, rgb(255, 228, 160), coverage(glass));
        c = mix_rgba(c, rgb(44, 36, 30), outline(glass, 2.0));
        c = flame(c, x, y, [lamp[0], lamp[1] + 6.0], 12.0, 3.5);
        vignette(c, x, y)
    })
}

/// Ware `i` on shelf `k` of the shop, standing at `base`: helms on the top shelf, potions on
/// the middle one, boots and bags on the bottom.
fn ware(c: Rgba, u: f64, v: f64, k: usize, i: usize, base: [f64; 2]) -> Rgba {
    let [bx, by] = base;
    match k {
        0 => {
            if i % 2 == 1 {
                // A folded cloak.
                let cloak = polygon(
                    u,
                    v,
                    &[
                        [bx - 12.0, by],
                        [bx - 10.0, by - 14.0],
                        [bx + 10.0, by - 14.0],
                        [bx + 12.0, by],
                    ],
                );
                let colour = [rgb(60, 90, 60), rgb(120, 50, 40), rgb(70, 70, 110)][i % 3];
                return mix_rgba(
                    mix_rgba(c, colour, coverage(cloak)),
                    INK,
                    outline(cloak, 0.8),
                );
            }
            let dome = ellipse(u, v, [bx, by - 6.0], [12.0, 14.0]).max(v - by + 2.0);
            let steel = light(
                rgb(150, 160, 174),
                smoothstep(10.0, 0.0, radius(u, v, [bx - 4.0, by - 14.0])) * 0.5,
            );
            let c = mix_rgba(c, steel, coverage(dome));
            let c = mix_rgba(c, INK, outline(dome, 0.8));
            let nasal = segment(u, v, [bx, by - 8.0], [bx, by]) - 1.5;
            mix_rgba(c, shade(steel, 0.8), coverage(nasal))
        }
        1 => {
            let colours = [
                rgb(200, 40, 40),
                rgb(50, 90, 210),
                rgb(60, 170, 80),
                rgb(220, 160, 40),
            ];
            let colour = colours[(i * 3 + 1) % 4];
            let body = radius(u, v, [bx, by - 9.0]) - 8.0;
            let neck = ((u - bx).abs() - 2.5).max((v - by + 21.0).abs() - 5.0);
            let flask = body.min(neck);
            let liquid = body.max(by - 11.0 - v);
            let c = mix_rgba(c, with_alpha(rgb(200, 220, 230), 0.35), coverage(flask));
            let c = mix_rgba(c, colour, coverage(liquid));
            let c = mix_rgba(
                c,
                rgb(255, 255, 255),
                coverage(radius(u, v, [bx - 3.0, by - 12.0]) - 1.6),
            );
            let c = mix_rgba(c, INK, outline(flask, 0.8));
            mix_rgba(
                c,
                rgb(140, 100, 60),
                coverage(((u - bx).abs() - 3.0).max((v - by + 27.0).abs() - 2.0)),
            )
        }
        _ => {
            if i.is_multiple_of(3) {
                // A coil of rope.
                let rope = outline(ellipse(u, v, [bx, by - 8.0], [11.0, 8.0]), 4.0);
                let rope = rope.max(outline(ellipse(u, v, [bx, by - 8.0], [5.0, 3.5]), 3.0));
                return mix_rgba(c, rgb(190, 160, 100), rope);
            }
            // A pair of boots.
            let mut c = c;
            for side in [-5.0, 5.0] {
                let boot = polygon(
                    u,
                    v,
                    &[
                        [bx + side - 4.0, by],
                        [bx + side - 4.0, by - 18.0],
                        [bx + side + 3.0, by - 18.0],
                        [bx + side + 3.0, by - 6.0],
                        [bx + side + 9.0, by - 4.0],
                        [bx + side + 9.0, by],
                    ],
                );
                c = mix_rgba(c, rgb(90, 56, 34), coverage(boot));
                c = mix_rgba(c, INK, outline(boot, 0.8));
            }
            c
        }
    }
}

/// A granite nave: columns either side, an altar dressed in white and gold with candles, and
/// a tall window of stained glass throwing its colours on the floor.
fn temple() -> Image {
    let room = Room {
        back: [148.0, 26.0, 364.0, 206.0],
        vp: [256.0, 140.0],
    };
    let glass_at = |u: f64, v: f64| {
        // A lancet: a box with a pointed head (two circles' intersection).
        let body = ((u - 256.0).abs() - 30.0).max((v - 124.0).abs() - 48.0);
        let head = (radius(u, v, [226.0, 76.0]) - 60.0)
            .max(radius(u, v, [286.0, 76.0]) - 60.0)
            .max(v - 76.0);
        body.min(head)
    };
    let lights = [
        Light {
            at: [256.0, 160.0],
            reach: 190.0,
            colour: rgb(255, 196, 120),
            strength: 1.1,
        },
        Light {
            at: [256.0, 90.0],
            reach: 150.0,
            colour: rgb(150, 170, 255),
            strength: 0.6,
        },
    ];
    let altar = Cuboid {
        u: [206.0, 306.0],
        h: [0.0, 40.0],
        z: [0.78, 0.88],
    };
    let pane = |u: f64, v: f64| -> Rgba {
        let colours = [
            rgb(40, 70, 200),
            rgb(190, 30, 40),
            rgb(230, 180, 40),
            rgb(40, 150, 80),
            rgb(90, 50, 160),
        ];
        let (i, j) = ((u / 10.0).floor() as i64, (v / 12.0).floor() as i64);
        let sun = radius(u, v, [256.0, 86.0]);
        if sun < 16.0 {
            return rgb(255, 226, 120);
        }
        colours[(hash(i, j, 731) * 4.99) as usize]
    };
    picture(|x, y| {
        let surface = room.surface(x, y);
        let mut c = match surface {
            Surface::Floor { u, z } => {
                let w = distance(z);
                let (i, j) = ((u / 32.0).floor() as i64, (w / 32.0).floor() as i64);
                let dark = (i + j) % 2 == 0;
                let tile = if dark {
                    rgb(60, 66, 80)
                } else {
                    rgb(150, 156, 168)
                };
                let tile = grain(tile, fbm(u, w, 10.0, 733), 0.2);
                let t = shade(tile, seams(u, 32.0, 1.0) * seams(w, 32.0, 0.6));
                // The window's colours laid on the floor before the altar.
                let spill = smoothstep(
                    80.0,
                    10.0,
                    ((u - 256.0) * 1.4).abs() + (w - 60.0).abs() * 0.8,
                );
                mix_rgba(t, pane(u, 60.0 + w * 0.6), spill * 0.3)
            }
            Surface::Ceiling { u, z } => shade(
                stone(
                    &STONEWORK,
                    u,
                    distance(z),
                    [64.0, 32.0],
                    LOOK.palette.vault,
                    735,
                ),
                0.6,
            ),
            Surface::Back { u, v } => {
                let mut c = stone(&STONEWORK, u, v, [48.0, 24.0], LOOK.palette.stone, 737);
                let g = glass_at(u, v);
                if g < 2.0 {
                    let lead = outline(((u / 10.0) - (u / 10.0).round()).abs() * 10.0, 1.4)
                        .max(outline(((v / 12.0) - (v / 12.0).round()).abs() * 12.0, 1.4))
                        .max(outline(radius(u, v, [256.0, 86.0]) - 16.0, 1.6));
                    let bright = light(pane(u, v), 0.15 + fbm(u, v, 6.0, 739) * 0.3);
                    let glass = mix_rgba(bright, rgb(20, 20, 28), lead * 0.9);
                    c = mix_rgba(c, glass, coverage(g));
                    c = mix_rgba(c, shade(LOOK.palette.stone, 1.2), outline(g, 4.0));
                }
                c
            }
            Surface::Left { v, z } | Surface::Right { v, z } => {
                let w = distance(z);
                stone(&STONEWORK, w, v, [48.0, 24.0], LOOK.palette.stone, 741)
            }
        };
        let window = matches!(surface, Surface::Back { u, v } if glass_at(u, v) < 0.0);
        if !window {
            c = lit(c, x, y, 0.5, &lights);
        } else {
            c = halo(c, x, y, [256.0, 110.0], 90.0, rgb(255, 255, 255), 0.1);
        }
        // Columns, far to near, each a lit cylinder with a base and a capital.
        for z in [0.92, 0.74, 0.58] {
            for u in [164.0, 348.0] {
                let s = 1.0 / z;
                let [cx, top] = room.at(z, [u, room.back[1]]);
                let bottom = room.at(z, [u, room.floor()])[1];
                let r = 11.0 * s;
                let shaft = (x - cx).abs() - r;
                let shaft = shaft.max(top - y).max(y - bottom);
                let across = ((x - cx) / r).clamp(-1.0, 1.0);
                let round = 1.0 - (across + 0.4) * (across + 0.4) * 0.45;
                let col = shade(lit(rgb(150, 160, 178), x, y, 0.55, &lights), round);
                let col = shade(col, seams(y, 40.0 * s, 0.5));
                c = mix_rgba(c, col, coverage(shaft));
                c = mix_rgba(c, INK, outline(shaft, 1.0) * 0.6);
                for at in [bottom - 5.0 * s, top + 8.0 * s] {
                    let block = ((x - cx).abs() - r * 1.35).max((y - at).abs() - 5.0 * s);
                    c = mix_rgba(c, shade(col, 1.1), coverage(block));
                    c = mix_rgba(c, INK, outline(block, 1.0) * 0.6);
                }
            }
        }
        // The altar: stone, a white cloth over the top with a gold band down the front.
        c = altar.lay(&room, c, x, y, |face| {
            let stone_c = lit(rgb(130, 138, 154), x, y, 0.5, &lights);
            match face {
                Face::Top => lit(rgb(236, 232, 220), x, y, 0.6, &lights),
                _ => stone_c,
            }
        });
        let [ax0, ay0] = room.at(0.78, [206.0, room.floor() - 40.0]);
        let [ax1, _] = room.at(0.78, [306.0, room.floor() - 40.0]);
        let cloth = ((x - (ax0 + ax1) / 2.0).abs() - (ax1 - ax0) / 2.0 - 2.0)
            .max(ay0 - y)
            .max(y - ay0 - 24.0);
        c = mix_rgba(
            c,
            lit(rgb(236, 232, 220), x, y, 0.6, &lights),
            coverage(cloth),
        );
        let band = ((x - 256.0).abs() - 10.0).max(cloth);
        c = mix_rgba(c, rgb(220, 176, 70), coverage(band));
        c = mix_rgba(
            c,
            rgb(220, 176, 70),
            outline(y - ay0 - 22.0, 2.0) * coverage(cloth),
        );
        c = mix_rgba(c, INK, outline(cloth, 0.8) * 0.6);
        // Candles on the altar and on two tall stands.
        let top = room.floor() - 40.0;
        for (k, u) in [218.0, 236.0, 276.0, 294.0].iter().enumerate() {
            c = candle(
                c,
                x,
                y,
                room.at(0.83, [*u, top]),
                10.0 + (k % 2) as f64 * 6.0,
                3.5,
            );
        }
        let cross = ((x - 256.0).abs() - 2.0)
            .max((y - room.at(0.83, [256.0, top - 16.0])[1]).abs() - 16.0)
            .min(
                ((y - room.at(0.83, [256.0, top - 22.0])[1]).abs() - 2.0)
                    .max((x - 256.0).abs() - 9.0),
            );
        c = mix_rgba(c, rgb(236, 196, 90), coverage(cross));
        for u in [182.0, 330.0] {
            let [sx, sy] = room.at(0.66, [u, room.floor()]);
            let stand = segment(x, y, [sx, sy], [sx, sy - 70.0]) - 2.5;
            c = mix_rgba(c, rgb(170, 140, 70), coverage(stand));
            let foot = ellipse(x, y, [sx, sy], [12.0, 3.0]);
            c = mix_rgba(c, rgb(150, 120, 60), coverage(foot));
            let dish = ellipse(x, y, [sx, sy - 70.0], [12.0, 3.0]);
            c = mix_rgba(c, rgb(190, 160, 80), coverage(dish));
            c = candle(c, x, y, [sx, sy - 71.0], 18.0, 6.0);
        }
        vignette(c, x, y)
    })
}

/// A low, crowded taproom: a fire roaring in a stone hearth, a rack of barrels, tables with
/// mugs and a candle in the foreground.
fn tavern() -> Image {
    let room = Room {
        back: [128.0, 52.0, 384.0, 192.0],
        vp: [256.0, 128.0],
    };
    let wood = rgb(110, 66, 38);
    let dark_wood = rgb(58, 34, 22);
    let fire = [196.0, 176.0];
    let lights = [
        Light {
            at: [196.0, 170.0],
            reach: 280.0,
            colour: rgb(255, 150, 70),
            strength: 1.3,
        },
        Light {
            at: [400.0, 220.0],
            reach: 140.0,
            colour: rgb(255, 190, 110),
            strength: 0.5,
        },
    ];
    let tables = [
        Cuboid {
            u: [40.0, 160.0],
            h: [30.0, 34.0],
            z: [0.5, 0.62],
        },
        Cuboid {
            u: [300.0, 400.0],
            h: [30.0, 34.0],
            z: [0.56, 0.66],
        },
    ];
    picture(|x, y| {
        let surface = room.surface(x, y);
        let mut c = match surface {
            Surface::Floor { u, z } => {
                let w = distance(z);
                let (i, j) = (
                    (u / 40.0).floor() as i64,
                    ((w + (u / 40.0).floor() * 17.0) / 30.0).floor() as i64,
                );
                let flag = grain(
                    shade(rgb(96, 76, 62), 0.85 + hash(i, j, 751) * 0.3),
                    fbm(u, w, 9.0, 753),
                    0.25,
                );
                shade(
                    flag,
                    seams(u, 40.0, 0.8) * seams(w + (u / 40.0).floor() * 17.0, 30.0, 0.5),
                )
            }
            Surface::Ceiling { u, z } => {
                let w = distance(z);
                beam(
                    boards(w, u, 24.0, dark_wood, 755),
                    w,
                    (w / 45.0).round() * 45.0,
                    12.0,
                    shade(dark_wood, 0.6),
                    757,
                )
            }
            Surface::Back { u, v } => {
                let mut c = if v > 140.0 {
                    boards(v, u, 18.0, wood, 759)
                } else {
                    plaster(u, v, rgb(170, 130, 96), 761)
                };
                c = beam(c, v, 140.0, 5.0, dark_wood, 763);
                // The hearth: a stone surround, a black mouth, the fire, a mantel.
                let surround = ((u - 196.0).abs() - 52.0).max(v - 192.0).max(96.0 - v);
                let mouth = ((u - 196.0).abs() - 32.0)
                    .max(v - 192.0)
                    .max(140.0 - v)
                    .min(radius(u, v, [196.0, 146.0]) - 32.0);
                if surround < 1.0 {
                    let s = stone(&STONEWORK, u, v, [24.0, 14.0], rgb(150, 126, 110), 765);
                    c = mix_rgba(c, s, coverage(surround));
                    c = mix_rgba(c, rgb(16, 10, 8), coverage(mouth.max(v - 192.0)));
                    let mantel = ((v - 100.0).abs() - 5.0).max((u - 196.0).abs() - 60.0);
                    c = mix_rgba(c, dark_wood, coverage(mantel));
                    c = mix_rgba(c, INK, outline(mantel, 0.8));
                }
                // Barrels on a rack: three below, two above.
                for (bx, by) in [
                    (292.0, 172.0),
                    (330.0, 172.0),
                    (368.0, 172.0),
                    (311.0, 136.0),
                    (349.0, 136.0),
                ] {
                    c = barrel_end(c, u, v, [bx, by], 18.5, rgb(140, 92, 52));
                }
                c
            }
            Surface::Left { v, z } | Surface::Right { v, z } => {
                let w = distance(z);
                let c = if v > 140.0 {
                    boards(v, w, 18.0, wood, 767)
                } else {
                    plaster(w, v, rgb(170, 130, 96), 769)
                };
                beam(c, v, 140.0, 5.0, dark_wood, 771)
            }
        };
        c = lit(c, x, y, 0.32, &lights);
        // The fire: logs and a crowd of flames, its glow.
        if matches!(surface, Surface::Back { .. }) {
            let logs = segment(x, y, [172.0, 188.0], [222.0, 184.0]).min(segment(
                x,
                y,
                [176.0, 182.0],
                [214.0, 190.0],
            )) - 4.5;
            c = mix_rgba(c, rgb(60, 34, 20), coverage(logs));
            c = mix_rgba(c, rgb(255, 110, 30), outline(logs, 1.2) * 0.8);
            // Tall tongues at the back and middle, short ones in front, none in step.
            for k in 0..10i64 {
                let middle = 1.0 - ((k as f64 - 4.5) / 5.0).abs();
                let fx = 170.0 + k as f64 * 5.6 + (hash(k, 2, 773) - 0.5) * 6.0;
                let h = 12.0 + middle * 22.0 + hash(k, 0, 773) * 12.0;
                let front = if k % 3 == 1 { 4.0 } else { 0.0 };
                c = flame(
                    c,
                    x,
                    y,
                    [fx, 184.0 + front],
                    h - front * 2.0,
                    4.5 + hash(k, 1, 773) * 3.5,
                );
            }
            for k in 0..14i64 {
                let at = [
                    172.0 + hash(k, 3, 775) * 48.0,
                    187.0 + hash(k, 4, 775) * 5.0,
                ];
                c = mix_rgba(c, rgb(255, 200, 90), coverage(radius(x, y, at) - 1.0));
            }
        }
        c = halo(c, x, y, fire, 120.0, rgb(255, 140, 50), 0.35);
        // Tankards on the mantel.
        for k in 0..3 {
            let mx = 168.0 + k as f64 * 24.0;
            let mug = polygon(
                x,
                y,
                &[
                    [mx - 5.0, 94.0],
                    [mx - 5.0, 82.0],
                    [mx + 5.0, 82.0],
                    [mx + 5.0, 94.0],
                ],
            );
            let handle = outline(ellipse(x, y, [mx + 6.0, 88.0], [3.0, 3.5]), 1.5);
            let pewter = lit(rgb(96, 94, 96), x, y, 0.5, &lights);
            c = mix_rgba(c, pewter, handle);
            c = mix_rgba(c, pewter, coverage(mug));
            c = mix_rgba(c, INK, outline(mug, 0.8));
        }
        // Tables, legs first, then their tops, then what stands on them.
        for table in tables.iter().rev() {
            for (u, z) in [
                (table.u[0] + 6.0, table.z[0]),
                (table.u[1] - 6.0, table.z[0]),
            ] {
                let leg = Cuboid {
                    u: [u - 3.0, u + 3.0],
                    h: [0.0, 30.0],
                    z: [z, z + 0.02],
                };
                c = leg.lay(&room, c, x, y, |_| lit(dark_wood, x, y, 0.5, &lights));
            }
            c = table.lay(&room, c, x, y, |face| {
                let w = if face == Face::Top {
                    light(wood, 0.1)
                } else {
                    wood
                };
                lit(
                    grain(w, fbm(x * 0.3, y * 2.0, 6.0, 777), 0.3),
                    x,
                    y,
                    0.45,
                    &lights,
                )
            });
        }
        for (k, (u, z)) in [(70.0, 0.56), (104.0, 0.53), (330.0, 0.6), (372.0, 0.62)]
            .iter()
            .enumerate()
        {
            let [mx, my] = room.at(*z, [*u, room.floor() - 34.0]);
            let s = 1.0 / z;
            let mug = polygon(
                x,
                y,
                &[
                    [mx - 4.5 * s, my],
                    [mx - 4.5 * s, my - 10.0 * s],
                    [mx + 4.5 * s, my - 10.0 * s],
                    [mx + 4.5 * s, my],
                ],
            );
            let handle = outline(
                ellipse(x, y, [mx + 5.5 * s, my - 5.0 * s], [3.0 * s, 3.0 * s]),
                1.6,
            );
            let pewter = lit(rgb(150, 150, 156), x, y, 0.55, &lights);
            c = mix_rgba(c, pewter, handle);
            c = mix_rgba(c, pewter, coverage(mug));
            c = mix_rgba(c, INK, outline(mug, 0.8));
            if k % 2 == 0 {
                c = mix_rgba(
                    c,
                    rgb(250, 244, 230),
                    coverage(ellipse(x, y, [mx, my - 10.0 * s], [4.5 * s, 1.6 * s])),
                );
            }
        }
        c = candle(
            c,
            x,
            y,
            room.at(0.6, [394.0, room.floor() - 34.0]),
            12.0,
            4.5,
        );
        vignette(c, x, y)
    })
}

/// The way down: a granite wall at night, a round-headed archway between two torches, and
/// stairs sinking away through it into the dark.
fn stairs() -> Image {
    let ground = 236.0;
    let room = Room {
        back: [0.0, 0.0, 512.0, ground],
        vp: [256.0, 150.0],
    };
    // The archway's opening, and where the lines of the stairwell meet, deep below.
    let spring = 124.0;
    let half = 72.0;
    let opening = |x: f64, y: f64| {
        let body = ((x - 256.0).abs() - half).max(spring - y).max(y - ground);
        body.min((radius(x, y, [256.0, spring]) - half).max(y - spring))
    };
    let deep = [256.0, 182.0];
    let torches = [[150.0, 128.0], [362.0, 128.0]];
    let lights: Vec<Light> = torches
        .iter()
        .map(|&at| Light {
            at,
            reach: 190.0,
            colour: rgb(255, 160, 80),
            strength: 1.4,
        })
        .collect();
    picture(|x, y| {
        let mut c = match room.surface(x, y) {
            Surface::Floor { u, z } => {
                let w = distance(z);
                let (i, j) = ((u / 48.0).floor() as i64, (w / 36.0).floor() as i64);
                let flag = shade(LOOK.palette.flag, 0.85 + hash(i, j, 781) * 0.25);
                let flag = grain(flag, fbm(u, w, 12.0, 783), 0.3);
                shade(flag, seams(u, 48.0, 0.8) * seams(w, 36.0, 0.5))
            }
            _ => stone(&STONEWORK, x, y, [64.0, 32.0], LOOK.palette.stone, 785),
        };
        let d = opening(x, y);
        // The dressed ring of voussoirs and jambs around the opening.
        let ring = (d - 20.0).max(y - ground);
        if ring < 1.0 {
            let (dx, dy) = (x - 256.0, y - spring);
            let along = if y < spring {
                (dx / (dx * dx + dy * dy).sqrt().max(1.0) + 1.0) * 110.0
            } else {
                y
            };
            let seam = ((along / 20.0 - (along / 20.0).floor()) - 0.5).abs() * 20.0 - 9.2;
            let mut f = shade(
                light(LOOK.palette.stone, 0.12),
                1.0 + fbm(x, y, 10.0, 787) * 0.25,
            );
            f = mix_rgba(f, LOOK.palette.mortar, coverage(-seam) * 0.9);
            let key = polygon(
                x,
                y,
                &[[244.0, 30.0], [268.0, 30.0], [264.0, 56.0], [248.0, 56.0]],
            );
            f = mix_rgba(f, light(LOOK.palette.stone, 0.2), coverage(key));
            f = mix_rgba(f, LOOK.palette.mortar, outline(key, 1.0));
            c = mix_rgba(c, f, coverage(ring));
            c = mix_rgba(c, LOOK.palette.mortar, outline(ring, 1.2));
        }
        if d < 1.0 {
            c = mix_rgba(c, stairwell(x, y, &opening, deep), coverage(d));
        }
        // The worn threshold slab the way down starts from.
        let sill = ((x - 256.0).abs() - half - 26.0).max((y - ground - 4.0).abs() - 4.0);
        let slab = shade(
            light(LOOK.palette.flag, 0.15),
            1.0 + fbm(x, y, 8.0, 789) * 0.3,
        );
        c = mix_rgba(c, slab, coverage(sill));
        c = mix_rgba(c, LOOK.palette.mortar, outline(sill, 1.2));
        c = lit(c, x, y, 0.42, &lights);
        // The torches: iron brackets, wooden hafts, flames and their glow.
        for t in torches {
            let bracket = segment(x, y, [t[0], t[1] + 26.0], [t[0], t[1] + 40.0]) - 3.0;
            c = mix_rgba(c, LOOK.palette.iron, coverage(bracket));
            let haft = segment(x, y, [t[0], t[1] + 34.0], [t[0], t[1]]) - 3.2;
            c = mix_rgba(c, rgb(90, 60, 36), coverage(haft));
            c = mix_rgba(c, INK, outline(haft, 0.8));
            let cup = polygon(
                x,
                y,
                &[
                    [t[0] - 7.0, t[1] - 2.0],
                    [t[0] + 7.0, t[1] - 2.0],
                    [t[0] + 4.0, t[1] + 8.0],
                    [t[0] - 4.0, t[1] + 8.0],
                ],
            );
            c = mix_rgba(c, light(LOOK.palette.iron, 0.2), coverage(cup));
            c = halo(c, x, y, [t[0], t[1] - 12.0], 70.0, rgb(255, 150, 60), 0.4);
            c = flame(c, x, y, [t[0], t[1]], 28.0, 7.0);
        }
        vignette(c, x, y)
    })
}

/// Inside the archway: the stairwell's sides and vault run down towards `deep`, each ring of
/// it the opening's outline shrunk about that point; the treads are bands across its floor,
/// fading into the dark.
fn stairwell(x: f64, y: f64, opening: &dyn Fn(f64, f64) -> f64, deep: [f64; 2]) -> Rgba {
    let (dx, dy) = (x - deep[0], y - deep[1]);
    // How far out along this direction the opening's outline lies (bisection on its distance).
    let (mut lo, mut hi) = (0.0, 400.0);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        if opening(deep[0] + dx / len * mid, deep[1] + dy / len * mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let reach = (lo + hi) / 2.0;
    let k = ((dx * dx + dy * dy).sqrt() / reach).max(1e-6);
    // t: how far down the stairs, 0 at the threshold.
    let t = 1.0 / k - 1.0;
    let dark = 1.0 / (1.0 + t * 1.6);
    let dark = dark * dark;
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let on_outline = [deep[0] + dx / len * reach, deep[1] + dy / len * reach];
    let c = if on_outline[1] > 235.0 - 0.5 {
        // The treads: a lit nose and a step in shadow, every twelfth of the way.
        let step = t * 6.0;
        let f = step - step.floor();
        let tread = shade(
            LOOK.palette.stone,
            0.95 + fbm(x * 2.0, step * 40.0, 6.0, 791) * 0.3,
        );
        let tread = shade(tread, 1.0 - smoothstep(0.55, 0.75, f) * 0.55);
        light(tread, smoothstep(0.12, 0.0, f) * 0.25)
    } else {
        // The walls and vault: stone courses running down with the stairs.
        let around = (on_outline[0] - 256.0) * 1.2 + on_outline[1];
        shade(
            stone(
                &STONEWORK,
                around,
                t * 120.0,
                [48.0, 40.0],
                LOOK.palette.stone,
                793,
            ),
            0.8,
        )
    };
    let c = shade(c, dark);
    mix_rgba(LOOK.palette.void, c, smoothstep(0.02, 0.09, k).min(1.0))
}

/// The convex hull of `points`, in order round it (Andrew's monotone chain).
fn hull(mut points: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    points.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut lower: Vec<[f64; 2]> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<[f64; 2]> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Darkens the picture towards its corners, as if seen by candlelight.
fn vignette(c: Rgba, x: f64, y: f64) -> Rgba {
    let dx = (x - 256.0) / 256.0;
    let dy = (y - 144.0) / 144.0;
    let r = (dx * dx * 0.8 + dy * dy).sqrt();
    let c = shade(c, 1.0 - smoothstep(0.7, 1.45, r) * 0.6);
    [c[0], c[1], c[2], 1.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_are_a_two_column_grid_and_the_sixth_cell_is_clear() {
        assert_eq!(region(0), [0, 0, 512, 288]);
        assert_eq!(region(1), [512, 0, 512, 288]);
        assert_eq!(region(4), [0, 576, 512, 288]);
        let img = sheet();
        assert_eq!((img.width, img.height), (1024, 864));
        for (i, name) in NAMES.iter().enumerate() {
            let [x, y, w, h] = region(i);
            for (px, py) in [
                (x + 1, y + 1),
                (x + w / 2, y + h / 2),
                (x + w - 1, y + h - 1),
            ] {
                assert_eq!(img.get(px as i64, py as i64)[3], 1.0, "{name} is opaque");
            }
        }
        assert_eq!(img.get(768, 720)[3], 0.0);
    }
}
