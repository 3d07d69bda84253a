//! What hangs on walls and lies on floors (`decor.png`): wall decorations drawn over a wall
//! face (banner, torch, crack, alcove, skull, grate), clear wherever the wall should show, and
//! items lying on the floor (coins, key, potion, scroll), standing on the region's bottom edge
//! and clear round them. The sheet's own `item` and `decor` faces, for a level that names no
//! art, are here too.

use crate::look::Look;
use crate::sheet::{REGION, blit, clear};
use jengine_paint::noise::{fbm, hash};
use jengine_paint::paint::{
    Image, Rgba, RoundedBox, coverage, ellipse, light, mix_rgba, outline, polygon, radius, rgb,
    segment, shade, smoothstep, with_alpha,
};

/// The art names in `decor.png`, five to a row: the decor both games may hang, then the items.
pub const NAMES: [&str; 10] = [
    "banner", "torch", "crack", "alcove", "skull", "grate", "i_coins", "i_key", "i_potion",
    "i_scroll",
];

/// Region `i`'s rectangle `[x, y, w, h]` in `decor.png`.
pub fn region(i: usize) -> [u32; 4] {
    [
        (i as u32 % 5) * REGION,
        (i as u32 / 5) * REGION,
        REGION,
        REGION,
    ]
}

/// `decor.png` in `look`: 1280x512.
pub fn sheet(look: &Look) -> Image {
    let mut out = Image::new(5 * REGION, 2 * REGION);
    let painters: [fn(&Look) -> Image; 10] = [
        banner, torch, crack, alcove, skull, grate, coins, key, potion, scroll,
    ];
    for (i, paint) in painters.iter().enumerate() {
        let [x, y, _, _] = region(i);
        blit(&mut out, &paint(look), x, y);
    }
    out
}

/// A soft shadow under a shape, for things standing out of a wall.
fn cast(c: Rgba, look: &Look, d: f64) -> Rgba {
    mix_rgba(c, with_alpha(look.palette.mortar, 0.55), coverage(d / 6.0))
}

/// A banner hung from an iron rod: red cloth with a pale border and a gold device, its foot
/// cut in a swallowtail.
fn banner(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    let cloth = [
        [80.0, 44.0],
        [176.0, 44.0],
        [176.0, 214.0],
        [128.0, 186.0],
        [80.0, 214.0],
    ];
    img.layer(|x, y| {
        let mut c = clear(look);
        let d = polygon(x, y, &cloth);
        c = cast(c, look, polygon(x - 6.0, y - 8.0, &cloth));
        // Folds: darker and lighter stripes down the cloth.
        let fold = fbm(x * 3.0, y * 0.2, 30.0, 131) * 0.5 + ((x - 80.0) / 24.0).fract() * 0.12;
        let mut cl = shade(p.shield, 0.95 + fold);
        let border = -d - 9.0;
        cl = mix_rgba(cl, shade(p.fitting, 0.95), coverage(border) * 0.9);
        // The device: a gold sun-disc with a ring.
        let sun = radius(x, y, [128.0, 110.0]);
        cl = mix_rgba(cl, p.gold, coverage(sun - 20.0));
        cl = mix_rgba(cl, shade(p.gold, 0.7), outline(sun - 28.0, 3.0));
        c = mix_rgba(c, cl, coverage(d));
        c = mix_rgba(c, p.ink, outline(d, 2.0 * look.line));
        let rod = segment(x, y, [66.0, 42.0], [190.0, 42.0]) - 4.0;
        c = mix_rgba(c, light(p.iron, 0.25), coverage(rod));
        for end in [66.0, 190.0] {
            c = mix_rgba(
                c,
                light(p.iron, 0.3),
                coverage(radius(x, y, [end, 42.0]) - 7.0),
            );
        }
        c
    });
    img
}

/// A torch in an iron bracket, burning: a wooden haft, a bright flame, light spilled round it.
fn torch(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        let r = radius(x, y, [128.0, 78.0]);
        c = mix_rgba(
            c,
            with_alpha(light(p.glow, 0.3), 0.5),
            smoothstep(110.0, 20.0, r),
        );
        let haft = segment(x, y, [128.0, 104.0], [128.0, 196.0]) - 9.0;
        c = cast(
            c,
            look,
            segment(x - 6.0, y - 8.0, [128.0, 104.0], [128.0, 196.0]) - 9.0,
        );
        let wood = shade(p.wood, 0.9 + fbm(x, y * 0.3, 8.0, 141) * 0.4);
        c = mix_rgba(c, wood, coverage(haft));
        c = mix_rgba(c, p.ink, outline(haft, 2.0 * look.line));
        let bracket = RoundedBox::new([108.0, 150.0, 148.0, 162.0], 3.0).distance(x, y);
        c = mix_rgba(c, light(p.iron, 0.2), coverage(bracket));
        let plate = RoundedBox::new([116.0, 160.0, 140.0, 210.0], 3.0).distance(x, y);
        c = mix_rgba(c, p.iron, coverage(plate));
        // The flame: a teardrop of orange to yellow to white.
        let flame = ellipse(x, y, [128.0, 80.0], [20.0, 34.0]).max(-(y - 40.0));
        let heat = smoothstep(34.0, 0.0, radius(x, y, [128.0, 90.0]));
        let fc = mix_rgba(light(p.glow, 0.1), rgb(255, 246, 200), heat);
        let lick = fbm(x, y, 7.0, 143) * 10.0;
        c = mix_rgba(c, with_alpha(fc, 1.0), coverage(flame + lick));
        c
    });
    img
}

/// A crack running down the wall, the hint of something hollow behind it.
fn crack(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    let path = [
        [120.0, 20.0],
        [134.0, 62.0],
        [118.0, 98.0],
        [140.0, 140.0],
        [126.0, 180.0],
        [146.0, 236.0],
    ];
    let branch = [[118.0, 98.0], [88.0, 120.0], [74.0, 150.0]];
    img.layer(|x, y| {
        let mut d = f64::INFINITY;
        for w in path.windows(2) {
            d = d.min(segment(x, y, w[0], w[1]));
        }
        let mut b = f64::INFINITY;
        for w in branch.windows(2) {
            b = b.min(segment(x, y, w[0], w[1]));
        }
        let width = 3.0 - (y / 256.0) * 1.5 + fbm(x, y, 6.0, 151) * 2.0;
        let dark = coverage(d - width).max(coverage(b - width * 0.6));
        // The lit lip beside the crack, a texel down-right.
        let lip = coverage(d - width - 2.0) * (1.0 - dark);
        let c = with_alpha(shade(p.void, 1.0), dark * 0.95);
        mix_rgba(c, with_alpha(light(p.stone, 0.35), 1.0), lip * 0.5)
    });
    img
}

/// An alcove: a round-headed niche cut into the wall, dark inside, a candle stub on its sill.
fn alcove(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        let body = RoundedBox::new([84.0, 100.0, 172.0, 200.0], 0.0).distance(x, y);
        let head = radius(x, y, [128.0, 100.0]) - 44.0;
        let d = body.min(if y < 100.0 { head } else { f64::INFINITY });
        // A dressed rim, lighter than the wall.
        let rim = d - 10.0;
        let stone = shade(light(p.stone, 0.12), 1.0 + fbm(x, y, 9.0, 161) * 0.3);
        c = mix_rgba(c, stone, coverage(rim));
        c = mix_rgba(c, p.mortar, outline(rim, 2.0 * look.line));
        // Inside: shadow deepening toward the back and the top.
        let deep = smoothstep(200.0, 70.0, y) * 0.5 + smoothstep(0.0, -30.0, d) * 0.3;
        let inside = shade(p.shaft, 1.0 - deep);
        c = mix_rgba(c, inside, coverage(d));
        // The sill, and a candle on it.
        let sill = RoundedBox::new([78.0, 198.0, 178.0, 210.0], 2.0).distance(x, y);
        c = mix_rgba(c, light(stone, 0.1), coverage(sill));
        let candle = RoundedBox::new([120.0, 170.0, 136.0, 198.0], 2.0).distance(x, y);
        c = mix_rgba(c, rgb(226, 214, 180), coverage(candle));
        let flame = ellipse(x, y, [128.0, 160.0], [4.0, 8.0]);
        c = mix_rgba(c, with_alpha(light(p.glow, 0.5), 1.0), coverage(flame));
        c = mix_rgba(
            c,
            with_alpha(p.glow, 0.35),
            smoothstep(40.0, 8.0, radius(x, y, [128.0, 160.0])) * coverage(d),
        );
        c
    });
    img
}

/// Bone white, for skulls and bones.
const BONE: Rgba = rgb(214, 204, 178);

/// A skull on an iron spike driven into the wall.
fn skull(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        let spike = segment(x, y, [128.0, 150.0], [128.0, 214.0]) - 4.0;
        c = mix_rgba(c, light(p.iron, 0.2), coverage(spike));
        let head = ellipse(x, y, [128.0, 112.0], [44.0, 48.0]);
        let jaw = RoundedBox::new([104.0, 132.0, 152.0, 172.0], 10.0).distance(x, y);
        let d = head.min(jaw);
        c = cast(
            c,
            look,
            ellipse(x - 6.0, y - 8.0, [128.0, 112.0], [44.0, 48.0]),
        );
        let bone = light(
            shade(BONE, 0.9 + fbm(x, y, 10.0, 171) * 0.3),
            smoothstep(40.0, 0.0, radius(x, y, [112.0, 90.0])) * 0.2,
        );
        c = mix_rgba(c, bone, coverage(d));
        c = mix_rgba(c, p.ink, outline(d, 2.0 * look.line));
        for eye in [[110.0, 114.0], [146.0, 114.0]] {
            c = mix_rgba(c, p.void, coverage(ellipse(x, y, eye, [12.0, 11.0])));
        }
        let nose = polygon(x, y, &[[128.0, 126.0], [134.0, 140.0], [122.0, 140.0]]);
        c = mix_rgba(c, p.void, coverage(nose));
        for k in 0..5 {
            let tx = 110.0 + k as f64 * 9.0;
            let tooth = (x - tx).abs() - 1.0;
            c = mix_rgba(
                c,
                shade(p.ink, 1.5),
                coverage(tooth.max((y - 158.0).abs() - 8.0)) * 0.8,
            );
        }
        c
    });
    img
}

/// An iron grate set in the wall: bars over a dark drain, a little water run from it.
fn grate(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    let frame = RoundedBox::new([72.0, 132.0, 184.0, 212.0], 4.0);
    img.layer(|x, y| {
        let mut c = clear(look);
        let d = frame.distance(x, y);
        c = mix_rgba(c, p.void, coverage(d));
        let bar = (((x - 72.0) / 16.0).fract() - 0.5).abs() * 16.0 - 3.0;
        let metal = light(p.iron, 0.15 + fbm(x, y, 5.0, 181) * 0.3);
        c = mix_rgba(c, metal, coverage(bar.max(d)));
        c = mix_rgba(c, metal, outline(d, 6.0));
        c = mix_rgba(c, p.ink, outline(d + 3.0, 1.5 * look.line));
        // A dark wet streak below.
        let streak = (x - 128.0).abs() - 18.0 + (y - 212.0) * 0.1;
        let wet = coverage(streak) * smoothstep(212.0, 216.0, y) * smoothstep(256.0, 220.0, y);
        c = mix_rgba(c, with_alpha(shade(p.mortar, 1.2), 0.6), wet);
        c
    });
    img
}

/// Standing on the region's bottom edge: a ground shadow under `d`.
fn grounded(c: Rgba, look: &Look, x: f64, y: f64, width: f64) -> Rgba {
    let sh = ellipse(x, y, [128.0, 244.0], [width, 10.0]);
    mix_rgba(c, with_alpha(look.palette.void, 0.5), coverage(sh / 5.0))
}

/// A heap of gold coins.
fn coins(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = grounded(clear(look), look, x, y, 90.0);
        let heap = ellipse(x, y, [128.0, 226.0], [84.0, 46.0]).max(y - 240.0);
        let coin = hash((x / 14.0) as i64, (y / 8.0) as i64, 191);
        let g = light(
            p.gold,
            (coin - 0.5) * 0.5 + smoothstep(60.0, 0.0, radius(x, y, [110.0, 196.0])) * 0.3,
        );
        c = mix_rgba(c, g, coverage(heap));
        c = mix_rgba(c, shade(p.gold, 0.45), outline(heap, 2.0 * look.line));
        // A few coins on edge, rimmed.
        for (cx, cy) in [(96.0, 214.0), (150.0, 204.0), (124.0, 228.0)] {
            let e = ellipse(x, y, [cx, cy], [12.0, 8.0]);
            c = mix_rgba(c, light(p.gold, 0.25), coverage(e));
            c = mix_rgba(c, shade(p.gold, 0.55), outline(e, 1.5));
        }
        c
    });
    img
}

/// A big iron key lying on the floor.
fn key(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = grounded(clear(look), look, x, y, 80.0);
        let bow = (radius(x, y, [76.0, 214.0]) - 20.0).abs() - 7.0;
        let shank = segment(x, y, [96.0, 214.0], [196.0, 214.0]) - 6.0;
        let bit = RoundedBox::new([170.0, 214.0, 196.0, 236.0], 2.0).distance(x, y);
        let notch = RoundedBox::new([180.0, 222.0, 186.0, 240.0], 0.0).distance(x, y);
        let d = bow.min(shank).min(bit.max(-notch));
        let metal = light(
            p.fitting,
            smoothstep(12.0, -12.0, y - 208.0) * 0.25 + fbm(x, y, 6.0, 201) * 0.2,
        );
        c = mix_rgba(c, metal, coverage(d));
        c = mix_rgba(c, p.ink, outline(d, 2.0 * look.line));
        c
    });
    img
}

/// A potion: a round flask of red liquid with a cork, light in its glass.
fn potion(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = grounded(clear(look), look, x, y, 50.0);
        let bulb = radius(x, y, [128.0, 200.0]) - 42.0;
        let neck = RoundedBox::new([116.0, 128.0, 140.0, 170.0], 3.0).distance(x, y);
        let glass = bulb.min(neck);
        let liquid = bulb.max(-(y - 186.0));
        c = mix_rgba(c, with_alpha(rgb(200, 220, 230), 0.35), coverage(glass));
        c = mix_rgba(
            c,
            shade(p.shield, 1.1 + smoothstep(242.0, 186.0, y) * 0.3),
            coverage(liquid),
        );
        let cork = RoundedBox::new([118.0, 116.0, 138.0, 132.0], 3.0).distance(x, y);
        c = mix_rgba(c, p.wood, coverage(cork));
        c = mix_rgba(c, p.ink, outline(glass, 2.0 * look.line));
        let glint = ellipse(x, y, [110.0, 184.0], [6.0, 12.0]);
        c = mix_rgba(c, rgb(255, 255, 240), coverage(glint) * 0.8);
        c
    });
    img
}

/// A rolled scroll tied with a red cord.
fn scroll(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    let paper = look.hud.paper[0];
    img.layer(|x, y| {
        let mut c = grounded(clear(look), look, x, y, 90.0);
        let roll = RoundedBox::new([48.0, 196.0, 208.0, 240.0], 22.0).distance(x, y);
        let tone = 0.85 + smoothstep(240.0, 200.0, y) * 0.2 + fbm(x, y, 9.0, 211) * 0.15;
        c = mix_rgba(c, shade(paper, tone), coverage(roll));
        c = mix_rgba(c, p.ink, outline(roll, 2.0 * look.line));
        // The rolled ends, and the cord.
        for end in [60.0, 196.0] {
            let e = ellipse(x, y, [end, 218.0], [10.0, 20.0]);
            c = mix_rgba(c, shade(paper, 0.7), coverage(e));
            c = mix_rgba(c, p.ink, outline(e, 1.5 * look.line));
        }
        let cord = (x - 128.0).abs() - 5.0;
        c = mix_rgba(c, p.shield, coverage(cord.max(roll)));
        c
    });
    img
}

/// The sheet's `item` face, for something lying whose level names no art: a tied sack.
pub fn bundle(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = grounded(clear(look), look, x, y, 70.0);
        let body = ellipse(x, y, [128.0, 204.0], [62.0, 42.0]);
        let neck = polygon(
            x,
            y,
            &[
                [112.0, 150.0],
                [144.0, 150.0],
                [136.0, 170.0],
                [120.0, 170.0],
            ],
        );
        let d = body.min(neck);
        let cloth = shade(
            rgb(150, 120, 80),
            0.9 + fbm(x, y, 8.0, 221) * 0.3 + smoothstep(240.0, 170.0, y) * 0.2,
        );
        c = mix_rgba(c, cloth, coverage(d));
        c = mix_rgba(c, p.ink, outline(d, 2.0 * look.line));
        let tie = RoundedBox::new([114.0, 164.0, 142.0, 172.0], 2.0).distance(x, y);
        c = mix_rgba(c, p.wood_dark, coverage(tie));
        c
    });
    img
}

/// The sheet's `decor` face, for a decoration with no art of its own: an iron ring in a plate.
pub fn ring(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = clear(look);
        let plate = RoundedBox::new([112.0, 88.0, 144.0, 120.0], 4.0).distance(x, y);
        c = mix_rgba(c, p.iron, coverage(plate));
        let ring = (radius(x, y, [128.0, 140.0]) - 26.0).abs() - 5.0;
        c = cast(
            c,
            look,
            (radius(x - 5.0, y - 7.0, [128.0, 140.0]) - 26.0).abs() - 5.0,
        );
        c = mix_rgba(c, light(p.iron, 0.3), coverage(ring));
        c = mix_rgba(c, p.ink, outline(ring, 1.5 * look.line));
        c
    });
    img
}
