//! The crawler sheet (`crawler.png`): a 256x256 region per face, four to a row, in the order
//! the crawl package reads them. Every region is painted on its own canvas from a few painters
//! (coursed stone, planks, iron) in one game's [`Look`], then copied into place.
//! Faces that fill a wall (wall, doors, lever) are opaque; things that stand in a cell or lie in
//! its floor are clear outside their shape, so the floor and walls behind show through.

use crate::look::Look;
use jengine_paint::noise::{fbm, hash, value};
use jengine_paint::paint::{
    Image, Rgba, RoundedBox, coverage, ellipse, light, mix, mix_rgba, outline, polygon, radius,
    rgb, segment, shade, smoothstep, with_alpha,
};

/// The side of one region in texels.
pub const REGION: u32 = 256;

/// The regions' names in sheet order (row by row, top row first): the crawler package's own
/// list, so the art and the package's defaults cannot disagree.
pub use jengine_crawler::draw::FACES as NAMES;

/// Region `i`'s rectangle `[x, y, w, h]` in the sheet.
pub fn region(i: usize) -> [u32; 4] {
    [
        (i as u32 % 4) * REGION,
        (i as u32 / 4) * REGION,
        REGION,
        REGION,
    ]
}

/// How many regions the sheet holds: one per face of [`NAMES`], four to a row.
pub const COUNT: usize = NAMES.len();

/// The whole sheet in `look`: 1024 wide, a 256-texel row per four faces.
pub fn crawler(look: &Look) -> Image {
    let rows = COUNT.div_ceil(4) as u32;
    let mut sheet = Image::new(4 * REGION, rows * REGION);
    let painters: [fn(&Look) -> Image; COUNT] = [
        wall,
        floor,
        ceiling,
        door,
        locked,
        |l| lever(l, false),
        |l| lever(l, true),
        arch,
        |l| chest(l, false),
        |l| chest(l, true),
        pit,
        stairs_down,
        stairs_up,
        trap,
        crate::creatures::hooded,
        encounter,
        open_door,
        crate::marks::teleporter,
        crate::marks::spinner,
        crate::marks::plate,
        |l| button(l, false),
        |l| button(l, true),
        crate::decor::bundle,
        crate::decor::ring,
    ];
    for (i, paint) in painters.iter().enumerate() {
        blit(&mut sheet, &paint(look), region(i)[0], region(i)[1]);
    }
    sheet
}

/// A clear texel in the look's void colour (so a clear edge fades towards it, not white).
pub fn clear(look: &Look) -> Rgba {
    with_alpha(look.palette.void, 0.0)
}

/// Copies `src` into `dst` with its top-left at `(x0, y0)`.
pub fn blit(dst: &mut Image, src: &Image, x0: u32, y0: u32) {
    for y in 0..src.height {
        for x in 0..src.width {
            let (dx, dy) = (x0 + x, y0 + y);
            if dx < dst.width && dy < dst.height {
                dst.pixels[(dy * dst.width + dx) as usize] =
                    src.pixels[(y * src.width + x) as usize];
            }
        }
    }
}

/// Coursed stone: `block`-sized blocks in running bond, each its own tone, bevelled so the
/// light (up and to the left) catches their top edges, with grain from noise and, in a
/// granite look, crystals.
pub fn stone(look: &Look, x: f64, y: f64, block: [f64; 2], base: Rgba, seed: u64) -> Rgba {
    let m = &look.masonry;
    let [bw, bh] = block;
    let row = (y / bh).floor();
    let offset = if (row as i64) % 2 == 0 { 0.0 } else { bw / 2.0 };
    let col = ((x + offset) / bw).floor();
    let (lx, ly) = (x + offset - col * bw, y - row * bh);
    let (ci, ri) = (col as i64, row as i64);
    // Jitter each block's corners a little so the courses are not ruled.
    let j = |k: i64| (hash(ci, ri * 7 + k, seed) - 0.5) * m.jitter;
    let block = RoundedBox::new(
        [
            m.joint + j(1),
            m.joint + j(2),
            bw - m.joint + j(3),
            bh - m.joint + j(4),
        ],
        m.corner,
    );
    let d = block.distance(lx, ly) + fbm(x, y, 9.0, seed + 11) * m.rough;
    let tone = 0.78 + hash(ci, ri, seed) * 0.34;
    let grain = fbm(x, y, 22.0, seed + 3) * 0.35 + fbm(x, y, 4.0, seed + 5) * 0.22;
    let mut c = shade(base, tone + grain);
    // Bevel: light on the upper-left rim, shadow on the lower-right.
    let n = block.normal(lx, ly);
    let rim = smoothstep(-7.0, 0.0, d);
    let facing = -(n[0] * 0.6 + n[1] * 0.8);
    c = light(c, rim * facing * m.bevel);
    // Pits and chips.
    if hash((x / 3.0) as i64, (y / 3.0) as i64, seed + 9) > 0.985 {
        c = shade(c, 0.7);
    }
    c = granite(look, c, x, y, seed);
    let mortar = shade(look.palette.mortar, 1.0 + fbm(x, y, 6.0, seed + 13) * 0.5);
    mix_rgba(mortar, c, coverage(d))
}

/// Granite's crystals over a stone colour: dark and light specks a texel or two across and a
/// fine salt of single texels. A look without speckle leaves the colour as it is.
pub(crate) fn granite(look: &Look, c: Rgba, x: f64, y: f64, seed: u64) -> Rgba {
    let amount = look.masonry.speckle;
    if amount <= 0.0 {
        return c;
    }
    let salt = hash(x as i64, y as i64, seed + 15) - 0.5;
    let dark = smoothstep(0.74, 0.84, value(x, y, 2.3, seed + 17));
    let pale = smoothstep(0.78, 0.88, value(x, y, 1.9, seed + 19));
    let c = light(c, salt * amount * 0.12 + pale * amount * 0.22);
    shade(c, 1.0 - dark * amount * 0.3)
}

pub(crate) fn wall(look: &Look) -> Image {
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| stone(look, x, y, look.masonry.block, look.palette.stone, 1));
    img
}

pub(crate) fn floor(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    // Big irregular flagstones: a 2x2 grid of slabs with one split, worn smooth in the middle.
    img.layer(|x, y| {
        let split = if x < 128.0 { 96.0 } else { 150.0 };
        let slabs = [
            RoundedBox::new([3.0, 3.0, 125.0, split - 3.0], 8.0),
            RoundedBox::new([3.0, split + 3.0, 125.0, 253.0], 8.0),
            RoundedBox::new([131.0, 3.0, 253.0, split - 3.0], 8.0),
            RoundedBox::new([131.0, split + 3.0, 253.0, 253.0], 8.0),
        ];
        let (k, d) = slabs
            .iter()
            .enumerate()
            .map(|(k, s)| (k, s.distance(x, y) + fbm(x, y, 12.0, 21) * 4.0))
            .fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
        let tone = 0.85 + hash(k as i64, 0, 23) * 0.25;
        let grain = fbm(x, y, 30.0, 25) * 0.3 + fbm(x, y, 5.0, 27) * 0.18;
        let mut c = shade(p.flag, tone + grain);
        let n = slabs[k].normal(x, y);
        c = light(
            c,
            smoothstep(-8.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.2,
        );
        c = granite(look, c, x, y, 25);
        mix_rgba(shade(p.mortar, 0.9), c, coverage(d))
    });
    img
}

pub(crate) fn ceiling(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    // Narrow courses of a barrel vault crossed by one heavy rib, darker than the walls.
    img.layer(|x, y| {
        let mut c = stone(look, x, y, look.masonry.vault_block, p.vault, 31);
        let rib = (y - 128.0).abs() - 18.0;
        let across = 1.0 - smoothstep(-18.0, 0.0, rib) * ((y - 128.0) / 18.0).abs();
        let rib_c = shade(
            light(p.vault, 0.12),
            0.9 + across * 0.25 + fbm(x, y, 8.0, 33) * 0.3,
        );
        // The rib is built of short voussoirs: a seam every 32 texels along it.
        let seam = ((x / 32.0 - (x / 32.0).floor()) - 0.5).abs() * 32.0 - 15.0;
        let rib_c = mix_rgba(rib_c, shade(p.mortar, 0.9), coverage(-seam) * 0.9);
        c = mix_rgba(c, rib_c, coverage(rib));
        c = mix_rgba(c, shade(p.mortar, 0.8), outline(rib, 2.0 * look.line) * 0.9);
        c
    });
    img
}

/// Wooden planks filling `rect`, running up and down, with their grain and dark seams.
pub fn planks(look: &Look, x: f64, y: f64, rect: [f64; 4], seed: u64) -> Rgba {
    let width = (rect[2] - rect[0]) / 5.0;
    let k = ((x - rect[0]) / width).floor();
    let lx = x - rect[0] - k * width;
    let tone = 0.85 + hash(k as i64, 0, seed) * 0.25;
    let grain = fbm(x * 4.0, y * 0.3, 10.0, seed + k as u64) * 0.5;
    let c = shade(look.palette.wood, tone + grain);
    // A dark seam where two planks meet.
    let seam = (lx.min(width - lx)) - 1.2;
    mix_rgba(look.palette.wood_dark, c, smoothstep(-1.0, 1.5, seam))
}

/// A stone doorway with something in it: the wall around, a dressed frame, and `inside`
/// painting the opening (`None` for a clear opening).
fn doorway(look: &Look, inside: Option<&dyn Fn(f64, f64) -> Rgba>) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    let opening = |x: f64, y: f64| {
        // A round-headed opening: a box with a half-disc on top.
        let body = RoundedBox::new([58.0, 92.0, 198.0, 300.0], 0.0).distance(x, y);
        let head = radius(x, y, [128.0, 92.0]) - 70.0;
        body.min(if y < 92.0 { head } else { f64::INFINITY })
    };
    img.layer(|x, y| {
        let d = opening(x, y);
        let wall = stone(look, x, y, look.masonry.block, p.stone, 1);
        // Dressed voussoirs and jambs around the opening, lighter than the wall.
        let frame = d - 16.0;
        let mut c = wall;
        if frame < 1.0 {
            let ang_seam = {
                let (dx, dy) = (x - 128.0, y - 92.0);
                let r = (dx * dx + dy * dy).sqrt().max(1.0);
                // Seams every ~24 texels along the frame's course.
                let along = if y < 92.0 { (dx / r + 1.0) * 90.0 } else { y };
                let s = along / 24.0;
                ((s - s.floor()) - 0.5).abs() * 24.0 - 11.0
            };
            let tone = 1.08 + fbm(x, y, 10.0, 41) * 0.3;
            let mut f = shade(light(p.stone, 0.08), tone);
            f = light(f, smoothstep(-4.0, 16.0, -d) * -0.25);
            f = granite(look, f, x, y, 41);
            f = mix_rgba(f, p.mortar, coverage(-ang_seam) * 0.8);
            c = mix_rgba(c, f, coverage(frame));
            c = mix_rgba(c, p.mortar, outline(frame, 2.0 * look.line));
        }
        if d < 1.0 {
            let fill = match inside {
                Some(paint) => paint(x, y),
                None => clear(look),
            };
            // Blend towards the fill, alpha included, so a clear opening is clear.
            c = mix_rgba(c, fill, coverage(d));
        }
        c
    });
    img
}

fn door_leaf(look: &Look, x: f64, y: f64, bands: bool) -> Rgba {
    let iron = look.palette.iron;
    let mut c = planks(look, x, y, [58.0, 0.0, 198.0, 256.0], 51);
    // Shadow inside the frame.
    let head = radius(x, y, [128.0, 92.0]) - 70.0;
    let edge = (x - 58.0)
        .min(198.0 - x)
        .min(if y < 92.0 { -head } else { 99.0 });
    c = shade(c, 0.55 + 0.45 * smoothstep(0.0, 14.0, edge));
    let cross = [150.0, 210.0];
    let band_w = if bands { 12.0 } else { 7.0 };
    for (k, by) in [70.0, cross[0], cross[1]].iter().enumerate() {
        if !bands && k == 0 {
            continue;
        }
        let d = (y - by).abs() - band_w / 2.0;
        let metal = shade(
            iron,
            1.0 + fbm(x, y, 6.0, 53) * 0.5 + smoothstep(band_w, -band_w, y - by) * 0.25,
        );
        c = mix_rgba(c, metal, coverage(d));
        // Rivets.
        for rx in [72.0, 100.0, 128.0, 156.0, 184.0] {
            let r = radius(x, y, [rx, *by]) - if bands { 3.5 } else { 2.5 };
            c = mix_rgba(c, light(iron, 0.35), coverage(r));
        }
    }
    c
}

fn door(look: &Look) -> Image {
    let fitting = look.palette.fitting;
    let leaf = |x: f64, y: f64| {
        let mut c = door_leaf(look, x, y, false);
        // A ring pull.
        let ring = outline(radius(x, y, [176.0, 168.0]) - 10.0, 4.0);
        c = mix_rgba(c, shade(fitting, 0.8), ring);
        c = mix_rgba(c, fitting, coverage(radius(x, y, [176.0, 157.0]) - 4.0));
        c
    };
    doorway(look, Some(&leaf))
}

fn locked(look: &Look) -> Image {
    let p = &look.palette;
    let leaf = |x: f64, y: f64| {
        let mut c = door_leaf(look, x, y, true);
        // A lock plate with a keyhole.
        let plate = RoundedBox::new([150.0, 160.0, 190.0, 204.0], 5.0);
        let pd = plate.distance(x, y);
        let metal = shade(p.iron, 1.15 + fbm(x, y, 5.0, 57) * 0.4);
        c = mix_rgba(c, metal, coverage(pd));
        c = mix_rgba(
            c,
            light(p.iron, 0.3),
            outline(pd + 1.0, 1.5 * look.line) * 0.7,
        );
        let hole = (radius(x, y, [170.0, 176.0]) - 5.0).min(polygon(
            x,
            y,
            &[
                [166.0, 178.0],
                [174.0, 178.0],
                [177.0, 194.0],
                [163.0, 194.0],
            ],
        ));
        c = mix_rgba(c, p.void, coverage(hole));
        c
    };
    doorway(look, Some(&leaf))
}

fn lever(look: &Look, pulled: bool) -> Image {
    let p = &look.palette;
    let mut img = wall(look);
    let plate = RoundedBox::new([98.0, 80.0, 158.0, 176.0], 8.0);
    let pivot = [128.0, 128.0];
    let tip = if pulled {
        [150.0, 200.0]
    } else {
        [150.0, 52.0]
    };
    img.layer(|x, y| {
        let pd = plate.distance(x, y);
        let mut c = [0.0; 4];
        // Soft shadow of the plate on the wall.
        let sh = plate.shift(5.0, 7.0).distance(x, y);
        c = mix_rgba(c, with_alpha(p.mortar, 0.6), coverage(sh / 6.0));
        let metal = shade(p.iron, 1.2 + fbm(x, y, 6.0, 61) * 0.4);
        let lit = light(
            metal,
            smoothstep(0.0, -10.0, pd) * -(plate.normal(x, y)[1]) * 0.3,
        );
        c = mix_rgba(c, lit, coverage(pd));
        c = mix_rgba(c, shade(p.mortar, 0.7), outline(pd, 2.0 * look.line));
        // The slot the handle swings in.
        let slot = RoundedBox::new([123.0, 92.0, 133.0, 164.0], 5.0).distance(x, y);
        c = mix_rgba(c, p.void, coverage(slot));
        // The handle and its knob.
        let h = segment(x, y, pivot, tip) - 6.0;
        let hs = segment(
            x,
            y,
            [pivot[0] + 4.0, pivot[1] + 5.0],
            [tip[0] + 4.0, tip[1] + 5.0],
        ) - 6.0;
        c = mix_rgba(c, with_alpha(p.void, 0.5), coverage(hs / 2.0));
        c = mix_rgba(c, light(p.iron, 0.25), coverage(h));
        let knob = radius(x, y, tip) - 13.0;
        let kd = radius(x, y, [tip[0] - 4.0, tip[1] - 4.0]);
        let kc = light(shade(p.knob[0], 1.0), smoothstep(12.0, 0.0, kd) * 0.35);
        c = mix_rgba(c, kc, coverage(knob));
        c = mix_rgba(c, shade(p.knob[1], 0.8), outline(knob, 2.0 * look.line));
        c = mix_rgba(c, light(p.iron, 0.4), coverage(radius(x, y, pivot) - 7.0));
        c
    });
    img
}

fn arch(look: &Look) -> Image {
    doorway(look, None)
}

/// An opened door: the doorway's frame with its leaf swung back against the left jamb, seen
/// nearly edge-on, the rest of the opening clear.
fn open_door(look: &Look) -> Image {
    let p = &look.palette;
    let leaf = |x: f64, y: f64| {
        // The leaf narrows toward the far side of the doorway as it swings in.
        let shape = polygon(
            x,
            y,
            &[[58.0, 30.0], [96.0, 64.0], [96.0, 236.0], [58.0, 256.0]],
        );
        if shape > 1.0 {
            return clear(look);
        }
        // Its planks, foreshortened: the pattern squeezed into the narrow strip.
        let u = 58.0 + (x - 58.0) * 3.6;
        let mut c = shade(door_leaf(look, u.min(197.0), y, false), 0.72);
        c = shade(c, 1.0 - smoothstep(58.0, 96.0, x) * 0.35);
        // Its edge catches the light.
        c = light(c, smoothstep(-4.0, 0.0, shape) * 0.3);
        c = mix_rgba(c, shade(p.wood_dark, 0.6), outline(shape, 1.5 * look.line));
        // The hinges on the jamb.
        for hy in [90.0, 200.0] {
            let h = RoundedBox::new([58.0, hy - 6.0, 72.0, hy + 6.0], 2.0).distance(x, y);
            c = mix_rgba(c, light(p.iron, 0.2), coverage(h));
        }
        with_alpha(c, coverage(shape))
    };
    doorway(look, Some(&leaf))
}

/// A button in a wall: a square stone boss in an iron collar, standing out of the wall, or
/// pressed in flush and dark in its socket.
fn button(look: &Look, pressed: bool) -> Image {
    let p = &look.palette;
    let mut img = wall(look);
    let collar = RoundedBox::new([92.0, 92.0, 164.0, 164.0], 6.0);
    let boss = RoundedBox::new([104.0, 104.0, 152.0, 152.0], 8.0);
    img.adjust(|x, y, mut c| {
        let cd = collar.distance(x, y);
        let sh = collar.shift(5.0, 7.0).distance(x, y);
        c = mix_rgba(c, shade(p.mortar, 0.8), coverage(sh / 5.0) * 0.6);
        let metal = shade(p.iron, 1.15 + fbm(x, y, 6.0, 101) * 0.4);
        c = mix_rgba(c, metal, coverage(cd));
        c = mix_rgba(c, shade(p.mortar, 0.7), outline(cd, 2.0 * look.line));
        let bd = boss.distance(x, y);
        let face = shade(light(p.stone, 0.15), 1.0 + fbm(x, y, 8.0, 103) * 0.3);
        let n = boss.normal(x, y);
        let face = if pressed {
            // Sunk in: its rim in shadow on the lit side, only its far rim lit.
            light(
                shade(face, 0.7),
                smoothstep(-10.0, 0.0, bd) * (n[0] * 0.6 + n[1] * 0.8) * 0.3,
            )
        } else {
            light(
                face,
                smoothstep(-10.0, 0.0, bd) * -(n[0] * 0.6 + n[1] * 0.8) * 0.35,
            )
        };
        c = mix_rgba(c, face, coverage(bd));
        c = mix_rgba(c, shade(p.mortar, 0.6), outline(bd, 2.0 * look.line));
        if !pressed {
            // A carved mark, so it reads as something to press.
            let mark = (radius(x, y, [128.0, 128.0]) - 9.0).abs() - 2.0;
            c = mix_rgba(c, shade(p.mortar, 0.9), coverage(mark) * 0.8);
        }
        c
    });
    img
}

/// A wooden chest standing on the floor, its front facing the party.
fn chest(look: &Look, open: bool) -> Image {
    let p = &look.palette;
    let w = look.line;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        // Shadow on the floor.
        let sh = ellipse(x, y, [128.0, 246.0], [120.0, 12.0]);
        c = mix_rgba(c, with_alpha(p.void, 0.55), coverage(sh / 6.0));
        let body = RoundedBox::new([24.0, 132.0, 232.0, 246.0], 6.0);
        let bd = body.distance(x, y);
        let mut b = planks(look, y, x, [132.0, 0.0, 246.0, 256.0], 71);
        b = light(
            b,
            smoothstep(-10.0, 0.0, bd) * -(body.normal(x, y)[1]) * 0.25,
        );
        // Iron corners and a band.
        let corners = (x - 24.0).min(232.0 - x) - 16.0;
        let band = (y - 180.0).abs() - 6.0;
        let metal = shade(p.iron, 1.2 + fbm(x, y, 5.0, 73) * 0.4);
        b = mix_rgba(b, metal, coverage(corners.min(band)).max(0.0));
        c = mix_rgba(c, b, coverage(bd));
        c = mix_rgba(c, shade(p.wood_dark, 0.6), outline(bd, 2.5 * w));
        if open {
            // The lid thrown back (a dark slab seen edge-on above) and gold heaped inside.
            let inside = RoundedBox::new([36.0, 120.0, 220.0, 144.0], 4.0).distance(x, y);
            c = mix_rgba(c, shade(p.wood_dark, 0.5), coverage(inside));
            let heap = ellipse(x, y, [128.0, 136.0], [84.0, 22.0]);
            let coin = hash((x / 7.0) as i64, (y / 5.0) as i64, 77);
            let g = light(
                p.gold,
                (coin - 0.5) * 0.5 + smoothstep(22.0, 0.0, radius(x, y, [110.0, 124.0])) * 0.4,
            );
            c = mix_rgba(c, g, coverage(heap.max(y - 140.0)));
            let lid = RoundedBox::new([24.0, 40.0, 232.0, 126.0], 10.0);
            let ld = lid.distance(x, y);
            let mut l = planks(look, y, x, [40.0, 0.0, 126.0, 256.0], 79);
            l = shade(l, 0.7);
            let lb = (x - 128.0).abs() - 8.0;
            l = mix_rgba(l, metal, coverage(lb));
            c = mix_rgba(c, l, coverage(ld));
            c = mix_rgba(c, shade(p.wood_dark, 0.6), outline(ld, 2.5 * w));
            // A glint.
            let glint = segment(x, y, [96.0, 130.0], [104.0, 130.0]).min(segment(
                x,
                y,
                [100.0, 126.0],
                [100.0, 134.0],
            )) - 1.2;
            c = mix_rgba(c, rgb(255, 250, 220), coverage(glint));
        } else {
            // A domed lid with a lock plate.
            let lid = RoundedBox::new([24.0, 84.0, 232.0, 136.0], 22.0)
                .distance(x, y)
                .max(y - 136.0);
            let mut l = planks(look, y, x, [84.0, 0.0, 136.0, 256.0], 79);
            l = light(l, smoothstep(136.0, 90.0, y) * 0.18);
            let lb = ((x - 70.0).abs() - 7.0).min((x - 186.0).abs() - 7.0);
            l = mix_rgba(l, metal, coverage(lb));
            c = mix_rgba(c, l, coverage(lid));
            c = mix_rgba(c, shade(p.wood_dark, 0.6), outline(lid, 2.5 * w));
            c = mix_rgba(
                c,
                shade(p.wood_dark, 0.6),
                outline(y - 136.0, 3.0 * w) * coverage(bd),
            );
            let plate = RoundedBox::new([114.0, 128.0, 142.0, 160.0], 4.0).distance(x, y);
            c = mix_rgba(c, p.fitting, coverage(plate));
            c = mix_rgba(
                c,
                p.void,
                coverage(ellipse(x, y, [128.0, 144.0], [3.0, 6.0])),
            );
        }
        c
    });
    img
}

/// Something lying in the floor: drawn over the floor in the floor's exact shape (top edge far).
fn pit(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let hole = RoundedBox::new([40.0, 40.0, 216.0, 216.0], 40.0);
        let d = hole.distance(x, y) + fbm(x, y, 14.0, 81) * 10.0;
        let mut c = clear(look);
        // A ring of broken stones around the rim.
        let rim = d - 16.0;
        let rock = shade(p.flag, 0.75 + fbm(x, y, 8.0, 83) * 0.5);
        c = mix_rgba(c, rock, coverage(rim) * 0.9);
        c = mix_rgba(c, shade(p.mortar, 0.8), outline(rim, 2.0 * look.line));
        // Darkness deepening inward; the far wall of the shaft catches a little light.
        let depth = smoothstep(0.0, -50.0, d);
        let wall = shade(p.shaft, 1.0 - depth + fbm(x, y, 6.0, 85) * 0.3);
        let inner = if y > 128.0 {
            mix_rgba(wall, p.void, depth)
        } else {
            mix_rgba(shade(wall, 0.6), p.void, depth)
        };
        c = mix_rgba(c, inner, coverage(d));
        c
    });
    img
}

/// A tread of stairs going down, seen from above: a dressed slab whose near edge (the bottom
/// of the region) is a lit nosing over a dark drop, worn hollow in the middle where feet go.
/// The picture squeezes it into each tread of the well, so it fills its region.
fn stairs_down(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let grain = fbm(x, y, 9.0, 91) * 0.3 + fbm(x * 0.3, y, 20.0, 92) * 0.2;
        let worn = smoothstep(110.0, 10.0, (x - 128.0).abs()) * smoothstep(0.0, 120.0, y) * 0.12;
        let mut c = shade(light(p.stone, 0.06 + worn), 0.92 + grain);
        c = granite(look, c, x, y, 93);
        // The far edge meets the riser of the next step up: a dark seam.
        c = mix_rgba(c, p.mortar, smoothstep(10.0, 0.0, y) * 0.8);
        // The nosing: a lit roll, then the shadowed drop below it.
        let nose = smoothstep(196.0, 214.0, y) * (1.0 - smoothstep(226.0, 232.0, y));
        c = light(c, nose * 0.35);
        let drop = smoothstep(228.0, 236.0, y);
        c = mix_rgba(c, shade(p.mortar, 0.8), drop * 0.9);
        // Chips along the nosing.
        if y > 206.0 && y < 230.0 && hash((x / 6.0) as i64, 1, 95) > 0.9 {
            c = shade(c, 0.75);
        }
        c
    });
    img
}

/// A step of a flight going up, seen face-on: the riser's dressed block, lit along its top
/// edge where the tread above it catches the light. The picture uses it for every riser,
/// tread and side of the flight, so it fills its region.
fn stairs_up(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let grain = fbm(x, y, 11.0, 97) * 0.3 + fbm(x, y * 0.3, 24.0, 98) * 0.2;
        let mut c = shade(light(p.stone, 0.1), 0.95 + grain);
        c = granite(look, c, x, y, 99);
        // Lit along the top, darkening to the foot of the riser.
        c = light(c, smoothstep(40.0, 0.0, y) * 0.3);
        c = shade(c, 1.0 - smoothstep(120.0, 256.0, y) * 0.3);
        // Two joints between the blocks of the step.
        let joint = ((x - 88.0).abs()).min((x - 200.0).abs()) - 1.5 * look.line.max(0.5);
        c = mix_rgba(c, p.mortar, coverage(joint) * 0.8);
        c = mix_rgba(c, p.mortar, smoothstep(246.0, 256.0, y) * 0.9);
        c = mix_rgba(c, shade(p.mortar, 1.2), smoothstep(6.0, 0.0, y) * 0.7);
        c
    });
    img
}

/// A sprung trap: a tipped plate with iron spikes through it.
fn trap(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        let plate = RoundedBox::new([52.0, 52.0, 204.0, 204.0], 6.0);
        let pd = plate.distance(x, y);
        c = mix_rgba(c, p.void, coverage(pd + 2.0));
        c = mix_rgba(c, shade(p.mortar, 0.8), outline(pd, 4.0 * look.line));
        // Spikes in a 4x4 grid, each a lit cone seen from above.
        for i in 0..4 {
            for j in 0..4 {
                let centre = [73.0 + i as f64 * 37.0, 73.0 + j as f64 * 37.0];
                let r = radius(x, y, centre);
                let d = r - 12.0;
                let lit = 1.0 - clamp(((x - centre[0]) + (y - centre[1])) / 24.0);
                let spike = light(p.iron, lit * 0.45 + smoothstep(4.0, 0.0, r) * 0.4);
                c = mix_rgba(c, spike, coverage(d));
                let blood = hash(i, j, 97) > 0.7;
                if blood {
                    c = mix_rgba(c, p.blood, coverage(r - 4.0));
                }
            }
        }
        c
    });
    img
}

fn clamp(v: f64) -> f64 {
    v.clamp(-1.0, 1.0)
}

/// A fixed fight not yet won: crossed swords over a shield, clear around.
fn encounter(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        let glow = radius(x, y, [128.0, 128.0]);
        c = mix_rgba(c, with_alpha(p.glow, 0.5), smoothstep(120.0, 40.0, glow));
        for (a, b) in [
            ([40.0, 40.0], [216.0, 216.0]),
            ([216.0, 40.0], [40.0, 216.0]),
        ] {
            let blade = segment(x, y, a, [mix(a[0], b[0], 0.72), mix(a[1], b[1], 0.72)]) - 8.0;
            let edge = light(p.iron, 0.55 + smoothstep(8.0, -8.0, blade) * 0.2);
            c = mix_rgba(c, shade(p.mortar, 0.5), coverage(blade - 2.5 * look.line));
            c = mix_rgba(c, edge, coverage(blade));
            let guard_c = [mix(a[0], b[0], 0.72), mix(a[1], b[1], 0.72)];
            let (dx, dy) = ((b[0] - a[0]) * 0.12, (b[1] - a[1]) * 0.12);
            let guard = segment(
                x,
                y,
                [guard_c[0] - dy, guard_c[1] + dx],
                [guard_c[0] + dy, guard_c[1] - dx],
            ) - 7.0;
            c = mix_rgba(c, p.fitting, coverage(guard));
            let grip = segment(x, y, guard_c, b) - 6.0;
            c = mix_rgba(c, p.wood_dark, coverage(grip));
            c = mix_rgba(c, p.fitting, coverage(radius(x, y, b) - 9.0));
        }
        let shield = polygon(
            x,
            y,
            &[
                [84.0, 84.0],
                [172.0, 84.0],
                [172.0, 140.0],
                [128.0, 190.0],
                [84.0, 140.0],
            ],
        ) - 4.0;
        let sc = shade(
            p.shield,
            1.0 + fbm(x, y, 10.0, 99) * 0.3 + smoothstep(190.0, 84.0, y) * 0.2,
        );
        c = mix_rgba(c, shade(p.mortar, 0.5), coverage(shield - 3.0 * look.line));
        c = mix_rgba(c, sc, coverage(shield));
        c = mix_rgba(c, p.fitting, outline(shield + 5.0, 4.0 * look.line));
        c
    });
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::look::plain::LOOK;

    #[test]
    fn regions_are_the_grid_in_the_packages_order() {
        assert_eq!(region(0), [0, 0, 256, 256]);
        assert_eq!(region(7), [768, 256, 256, 256]);
        assert_eq!(region(15), [768, 768, 256, 256]);
        assert_eq!(NAMES[11], "stairs_down");
        assert_eq!(NAMES[14], "monster");
    }

    #[test]
    fn wall_faces_are_opaque_and_things_are_clear_outside_their_shape() {
        let sheet = crawler(&LOOK);
        let alpha = |i: usize, x: u32, y: u32| {
            let [x0, y0, _, _] = region(i);
            sheet.get((x0 + x) as i64, (y0 + y) as i64)[3]
        };
        // Faces that fill their region: walls, doors, levers, the arch's frame, the stairs'
        // treads and risers, buttons.
        let filled = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 16, 20, 21];
        for (i, name) in NAMES.iter().enumerate() {
            let corner = alpha(i, 2, 2);
            if filled.contains(&i) {
                assert_eq!(corner, 1.0, "{name} fills its wall");
            } else {
                assert_eq!(corner, 0.0, "{name} is clear around it");
            }
        }
        assert_eq!(alpha(7, 128, 200), 0.0, "the arch's opening is clear");
        assert_eq!(alpha(3, 128, 200), 1.0, "the door fills its opening");
        assert_eq!(
            alpha(16, 150, 200),
            0.0,
            "an opened door's opening is clear"
        );
        assert_eq!(alpha(16, 70, 150), 1.0, "but for its leaf swung back");
    }

    #[test]
    fn a_look_without_speckle_leaves_the_stone_as_it_is() {
        let c = [0.3, 0.4, 0.5, 1.0];
        assert_eq!(granite(&LOOK, c, 10.5, 20.5, 1), c);
        let speckled = Look {
            masonry: crate::Masonry {
                speckle: 1.0,
                ..LOOK.masonry
            },
            ..LOOK
        };
        let changed = (0..64).any(|k| granite(&speckled, c, k as f64 + 0.5, 3.5, 1) != c);
        assert!(changed);
    }
}
