//! A look at the art as the game shows it: a contact sheet of every texture with a tinted
//! seigaiha patch, and a mock 1280x720 screen (sea, board, hand, panels). Sprites are laid
//! the way the host's renderer lays them, nearest-texel and nine-sliced at one scale (the
//! largest at which the whole texture fits), so what looks right here looks right in game.

use crate::noise::hash;
use crate::paint::{Image, Rgba, mix, mix_rgba, over, rgb};
use crate::textures::{Texture, all};

/// A texture as the game gets it: the 8-bit pixels the PNG holds.
fn quantized(t: &Texture) -> Image {
    let bytes = t.image.to_rgba8();
    let mut img = Image::new(t.image.width, t.image.height);
    for (p, b) in img.pixels.iter_mut().zip(bytes.chunks_exact(4)) {
        *p = [b[0], b[1], b[2], b[3]].map(|v| v as f64 / 255.0);
    }
    img
}

/// Draws `tex` over the rectangle `[x, y, w, h]` (screen pixels, y down), tinted, sliced by
/// `nine` `[left, top, right, bottom]` when given, as the host's sprite renderer does.
pub fn sprite(dst: &mut Image, tex: &Image, rect: [f64; 4], tint: Rgba, nine: Option<[u32; 4]>) {
    let [x, y, w, h] = rect;
    let (tw, th) = (tex.width as f64, tex.height as f64);
    let [l, t, r, b] = nine.unwrap_or([0; 4]).map(|v| v as f64);
    let s = (w / tw).min(h / th);
    let xs = [x, x + l * s, x + w - r * s, x + w];
    let us = [0.0, l, tw - r, tw];
    let ys = [y, y + t * s, y + h - b * s, y + h];
    let vs = [0.0, t, th - b, th];
    let map = |p: f64, edges: &[f64; 4], texels: &[f64; 4]| -> i64 {
        let i = (0..3).find(|&i| p < edges[i + 1]).unwrap_or(2);
        let span = edges[i + 1] - edges[i];
        let u = texels[i] + (p - edges[i]) / span * (texels[i + 1] - texels[i]);
        let lo = texels[i].floor() as i64;
        let hi = ((texels[i + 1].ceil() as i64) - 1).max(lo);
        (u.floor() as i64).clamp(lo, hi)
    };
    let x0 = x.round().max(0.0) as i64;
    let x1 = (x + w).round().min(dst.width as f64) as i64;
    let y0 = y.round().max(0.0) as i64;
    let y1 = (y + h).round().min(dst.height as f64) as i64;
    for py in y0..y1 {
        let v = map(py as f64 + 0.5, &ys, &vs);
        for px in x0..x1 {
            let u = map(px as f64 + 0.5, &xs, &us);
            let c = tex.get(u, v);
            let c = [
                c[0] * tint[0],
                c[1] * tint[1],
                c[2] * tint[2],
                c[3] * tint[3],
            ];
            let i = (py as u32 * dst.width + px as u32) as usize;
            dst.pixels[i] = over(dst.pixels[i], c);
        }
    }
}

/// The textures by name, as the game loads them.
struct Set {
    textures: Vec<(Texture, Image)>,
}

impl Set {
    fn new() -> Set {
        Set {
            textures: all()
                .into_iter()
                .map(|t| {
                    let q = quantized(&t);
                    (t, q)
                })
                .collect(),
        }
    }

    fn get(&self, name: &str) -> (&Image, Option<[u32; 4]>) {
        let (t, img) = self
            .textures
            .iter()
            .find(|(t, _)| t.name == name)
            .unwrap_or_else(|| panic!("the preview names {name}, which textures::all lacks"));
        (img, t.nine_slice)
    }

    fn draw(&self, dst: &mut Image, name: &str, rect: [f64; 4], tint: Rgba) {
        let (img, nine) = self.get(name);
        sprite(dst, img, rect, tint, nine);
    }
}

const DEEP: Rgba = rgb(18, 36, 88);
const PALE: Rgba = rgb(156, 200, 232);
const WHITE: Rgba = [1.0; 4];

/// Lays a seigaiha of `cols` x `rows` scales, each `size` px, from `(x, y)` (the first row's
/// disc tops), tinted deep at the top to pale at the bottom. Rows are `size / 4` apart, odd
/// rows offset by half a scale, and drawn top to bottom so each row covers the one behind.
fn seigaiha(dst: &mut Image, set: &Set, origin: [f64; 2], size: f64, cols: i64, rows: i64) {
    for j in 0..rows {
        let offset = if j % 2 == 1 { size / 2.0 } else { 0.0 };
        for i in 0..cols {
            let t = j as f64 / (rows - 1).max(1) as f64;
            let jitter = 0.08 * (hash(i, j, 5) - 0.5);
            let tint = mix_rgba(DEEP, PALE, (t + jitter).clamp(0.0, 1.0));
            let rect = [
                origin[0] + i as f64 * size - offset,
                origin[1] + j as f64 * size / 4.0,
                size,
                size * 0.625,
            ];
            set.draw(dst, "scale.png", rect, tint);
        }
    }
}

/// A checkerboard, so transparency shows.
fn checker(dst: &mut Image, rect: [f64; 4]) {
    let [x, y, w, h] = rect.map(|v| v as i64);
    for py in y.max(0)..(y + h).min(dst.height as i64) {
        for px in x.max(0)..(x + w).min(dst.width as i64) {
            let dark = ((px - x) / 8 + (py - y) / 8) % 2 == 0;
            let c = if dark {
                rgb(118, 118, 124)
            } else {
                rgb(150, 150, 156)
            };
            dst.pixels[(py as u32 * dst.width + px as u32) as usize] = c;
        }
    }
}

/// The contact sheet: every texture at 1:1 on a checker, the white ones also tinted, the
/// nine-slice ones also stretched, and a 6x4 seigaiha patch; below, the portraits and the
/// icons as the menus tint them.
pub fn contact_sheet() -> Image {
    let set = Set::new();
    let mut img = Image::new(1280, 1000);
    img.layer(|_, _| rgb(54, 54, 60));
    let mut x = 16.0;
    let first_row = set
        .textures
        .iter()
        .filter(|(t, _)| !t.name.starts_with("portrait_"));
    for (t, q) in first_row {
        let (w, h) = (q.width as f64, q.height as f64);
        if x + w > 1264.0 {
            // The icons that do not fit the first row are shown tinted below.
            continue;
        }
        checker(&mut img, [x, 16.0, w, h]);
        sprite(&mut img, q, [x, 16.0, w, h], WHITE, t.nine_slice);
        x += w + 16.0;
    }
    // Sliced at other sizes: a small tile, a wide panel, a cell row.
    let y = 300.0;
    checker(&mut img, [16.0, y, 560.0, 150.0]);
    set.draw(&mut img, "tile.png", [24.0, y + 8.0, 48.0, 48.0], WHITE);
    set.draw(&mut img, "tile.png", [80.0, y + 8.0, 56.0, 56.0], WHITE);
    set.draw(&mut img, "tile.png", [144.0, y + 8.0, 72.0, 72.0], WHITE);
    set.draw(&mut img, "panel.png", [224.0, y + 8.0, 340.0, 80.0], WHITE);
    for i in 0..6 {
        let name = if i == 3 { "wall.png" } else { "cell.png" };
        set.draw(
            &mut img,
            name,
            [24.0 + i as f64 * 52.0, y + 92.0, 52.0, 52.0],
            WHITE,
        );
    }
    set.draw(
        &mut img,
        "glow.png",
        [360.0, y + 92.0, 56.0, 56.0],
        rgb(246, 200, 90),
    );
    set.draw(
        &mut img,
        "ring.png",
        [420.0, y + 92.0, 56.0, 56.0],
        rgb(250, 130, 110),
    );
    set.draw(
        &mut img,
        "white.png",
        [480.0, y + 100.0, 40.0, 40.0],
        rgb(200, 60, 44),
    );
    // The seigaiha patch at full size.
    seigaiha(&mut img, &set, [440.0, 478.0], 128.0, 6, 4);
    // And the frame drawn as a board's would be.
    set.draw(&mut img, "frame.png", [16.0, 470.0, 232.0, 232.0], WHITE);
    // The portraits at 1:1 on the game's ground, and the icons tinted as the menus use them.
    img.adjust(|_, y, c| if y >= 720.0 { DEEP_GROUND } else { c });
    let mut x = 16.0;
    for (t, q) in set
        .textures
        .iter()
        .filter(|(t, _)| t.name.starts_with("portrait_"))
    {
        sprite(
            &mut img,
            q,
            [x, 730.0, q.width as f64, q.height as f64],
            WHITE,
            t.nine_slice,
        );
        x += q.width as f64 + 10.0;
    }
    let gold = rgb(240, 201, 106);
    let dim = [0.3, 0.34, 0.5, 0.9];
    set.draw(&mut img, "panel.png", [16.0, 872.0, 420.0, 112.0], WHITE);
    for (i, tint) in [gold, gold, dim].into_iter().enumerate() {
        set.draw(
            &mut img,
            "star.png",
            [40.0 + i as f64 * 52.0, 896.0, 48.0, 48.0],
            tint,
        );
    }
    set.draw(
        &mut img,
        "lock.png",
        [210.0, 890.0, 64.0, 64.0],
        rgb(201, 191, 174),
    );
    set.draw(
        &mut img,
        "seal.png",
        [300.0, 880.0, 96.0, 96.0],
        rgb(255, 154, 122),
    );
    set.draw(&mut img, "panel.png", [460.0, 880.0, 240.0, 90.0], WHITE);
    set.draw(&mut img, "focus.png", [452.0, 872.0, 256.0, 106.0], gold);
    for (i, name) in ["star.png", "lock.png", "seal.png", "focus.png"]
        .iter()
        .enumerate()
    {
        let (q, _) = set.get(name);
        let at = [
            740.0 + i as f64 * 110.0,
            880.0,
            q.width as f64,
            q.height as f64,
        ];
        checker(&mut img, at);
        sprite(&mut img, q, at, WHITE, None);
    }
    img
}

/// The deep indigo the game clears to.
const DEEP_GROUND: Rgba = rgb(11, 26, 51);

/// Pretend kana: two ink strokes, enough to judge the contrast on a tile.
fn ink(dst: &mut Image, centre: [f64; 2], size: f64, seed: i64) {
    let ink = rgb(26, 24, 30);
    let strokes: Vec<[f64; 4]> = (0..3i64)
        .map(|k| {
            let h = |n: i64| hash(seed, k * 8 + n, 9) - 0.5;
            [h(0) * 0.7, h(1) * 0.7, h(2) * 0.7, h(3) * 0.7]
        })
        .collect();
    let half = size / 2.0;
    let (x0, y0) = ((centre[0] - half) as i64, (centre[1] - half) as i64);
    for py in y0..y0 + size as i64 {
        for px in x0..x0 + size as i64 {
            let (ux, uy) = (
                ((px as f64 + 0.5) - centre[0]) / size,
                ((py as f64 + 0.5) - centre[1]) / size,
            );
            let mut a: f64 = 0.0;
            for s in &strokes {
                let (dx, dy) = (s[2] - s[0], s[3] - s[1]);
                let t =
                    (((ux - s[0]) * dx + (uy - s[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                let (ex, ey) = (ux - s[0] - dx * t, uy - s[1] - dy * t);
                let d = (ex * ex + ey * ey).sqrt() * size;
                a = a.max((0.5 - (d - size * 0.05)).clamp(0.0, 1.0));
            }
            if px >= 0 && py >= 0 && (px as u32) < dst.width && (py as u32) < dst.height {
                let i = (py as u32 * dst.width + px as u32) as usize;
                dst.pixels[i] = over(dst.pixels[i], [ink[0], ink[1], ink[2], a]);
            }
        }
    }
}

/// A mock game screen at 1280x720: the sea, a 9x9 board with walls and tiles, a hand on a
/// panel with the chosen tile glowing, score panels and a ring spreading on the sea.
pub fn mock_screen() -> Image {
    let set = Set::new();
    let mut img = Image::new(1280, 720);
    img.layer(|_, _| DEEP);
    seigaiha(&mut img, &set, [-48.0, -72.0], 96.0, 15, 34);
    // Rings on the sea: a gold word ring and a coral one.
    set.draw(
        &mut img,
        "ring.png",
        [110.0, 420.0, 220.0, 220.0],
        [0.96, 0.80, 0.36, 0.9],
    );
    set.draw(
        &mut img,
        "ring.png",
        [980.0, 180.0, 160.0, 160.0],
        [0.98, 0.52, 0.44, 0.8],
    );

    let cell = 52.0;
    let n = 9;
    let board = cell * n as f64;
    let rim = 28.0;
    let (bx, by) = (640.0 - board / 2.0, 300.0 - board / 2.0);
    set.draw(
        &mut img,
        "frame.png",
        [bx - rim, by - rim, board + 2.0 * rim, board + 2.0 * rim],
        WHITE,
    );
    let walls = [(0, 0), (8, 0), (4, 4), (0, 8), (8, 8), (2, 6), (6, 2)];
    let tiles = [(3, 4), (4, 3), (5, 4), (4, 5), (6, 4), (4, 6), (4, 7)];
    for j in 0..n {
        for i in 0..n {
            let rect = [bx + i as f64 * cell, by + j as f64 * cell, cell, cell];
            let name = if walls.contains(&(i, j)) {
                "wall.png"
            } else {
                "cell.png"
            };
            set.draw(&mut img, name, rect, WHITE);
            if (i, j) == (5, 5) {
                set.draw(
                    &mut img,
                    "glow.png",
                    [rect[0] - 14.0, rect[1] - 14.0, cell + 28.0, cell + 28.0],
                    [0.95, 0.8, 0.4, 0.7],
                );
            }
            if tiles.contains(&(i, j)) {
                set.draw(
                    &mut img,
                    "tile.png",
                    [rect[0] + 2.0, rect[1] + 2.0, cell - 4.0, cell - 4.0],
                    WHITE,
                );
                ink(
                    &mut img,
                    [rect[0] + cell / 2.0, rect[1] + cell / 2.0 - 1.0],
                    30.0,
                    (i * 9 + j) as i64,
                );
            }
        }
    }
    // The hand.
    let tile = 60.0;
    let hand_w = 7.0 * (tile + 8.0) + 24.0;
    let (hx, hy) = (640.0 - hand_w / 2.0, 720.0 - 100.0);
    set.draw(&mut img, "panel.png", [hx, hy, hand_w, 88.0], WHITE);
    for k in 0..7 {
        let x = hx + 16.0 + k as f64 * (tile + 8.0);
        let lift = mix(0.0, 4.0, hash(k, 1, 3));
        let y = hy + 12.0 - lift;
        if k == 2 {
            set.draw(
                &mut img,
                "glow.png",
                [x - 22.0, y - 22.0, tile + 44.0, tile + 44.0],
                [0.96, 0.82, 0.42, 0.85],
            );
        }
        let tint = if k == 2 { rgb(255, 243, 214) } else { WHITE };
        set.draw(&mut img, "tile.png", [x, y, tile, tile], tint);
        ink(
            &mut img,
            [x + tile / 2.0, y + tile / 2.0 - 1.0],
            34.0,
            100 + k,
        );
    }
    // Score boxes.
    set.draw(&mut img, "panel.png", [24.0, 24.0, 220.0, 96.0], WHITE);
    set.draw(&mut img, "panel.png", [1036.0, 24.0, 220.0, 96.0], WHITE);
    // Player colours on white.
    set.draw(
        &mut img,
        "white.png",
        [44.0, 90.0, 180.0, 10.0],
        rgb(226, 180, 72),
    );
    set.draw(
        &mut img,
        "white.png",
        [1056.0, 90.0, 180.0, 10.0],
        rgb(236, 112, 96),
    );
    img
}
