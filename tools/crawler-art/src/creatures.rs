//! Creatures and the parts they are painted from. Each creature is a bold silhouette
//! (ellipses, polygons, capsules) laid part by part over a clear 256x256 region with
//! [`part`]: filled, lit from the upper left, outlined in the look's ink at the look's line
//! width. It stands on the region's bottom edge on a [`ground_shadow`], clear around, so the
//! corridor shows through. The creatures both crawler games meet live here; each game paints
//! its own others from the same parts.

use crate::look::Look;
use crate::sheet::{REGION, blit, clear};
use jengine_paint::noise::fbm;
use jengine_paint::paint::{
    Image, Rgba, coverage, ellipse, light, mix_rgba, outline, polygon, radius, rgb, segment, shade,
    smoothstep, with_alpha,
};

/// Creatures side by side, each in its own 256x256 region, left to right.
pub fn strip(creatures: &[Image]) -> Image {
    let mut img = Image::new(creatures.len() as u32 * REGION, REGION);
    for (i, creature) in creatures.iter().enumerate() {
        blit(&mut img, creature, i as u32 * REGION, 0);
    }
    img
}

/// Lays one body part over `c`: `d` its signed distance, `base` its colour, shaded towards
/// its rim and mottled by noise seeded with `seed`, with an ink outline.
pub fn part(look: &Look, c: Rgba, d: f64, base: Rgba, x: f64, y: f64, seed: u64) -> Rgba {
    let tex = fbm(x, y, 10.0, seed) * 0.35;
    let rim = smoothstep(-10.0, 0.0, d);
    let fill = shade(base, 1.0 + tex - rim * 0.25);
    let c = mix_rgba(c, fill, coverage(d));
    mix_rgba(c, look.palette.ink, outline(d, 3.0 * look.line))
}

/// A glowing eye of radius `r` at `at`: a halo, the iris in `colour` and a hot white centre.
pub fn eye(c: Rgba, x: f64, y: f64, at: [f64; 2], r: f64, colour: Rgba) -> Rgba {
    let d = radius(x, y, at);
    let c = mix_rgba(c, with_alpha(colour, 0.45), smoothstep(r * 3.0, r, d));
    let c = mix_rgba(c, light(colour, 0.2), coverage(d - r));
    mix_rgba(c, rgb(255, 255, 230), coverage(d - r * 0.4))
}

/// The soft shadow a creature `half_width` wide throws on the floor under it.
pub fn ground_shadow(look: &Look, c: Rgba, x: f64, y: f64, half_width: f64) -> Rgba {
    let d = ellipse(x, y, [128.0, 246.0], [half_width, 10.0]);
    mix_rgba(c, with_alpha(look.palette.void, 0.55), coverage(d / 6.0))
}

/// A giant rat, low and long, facing the party.
pub fn rat(look: &Look) -> Image {
    let fur = rgb(112, 86, 70);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(look, clear(look), x, y, 110.0);
        let tail = segment(x, y, [190.0, 226.0], [246.0, 170.0]) - 5.0;
        c = part(look, c, tail, rgb(196, 140, 130), x, y, 101);
        let body = ellipse(x, y, [140.0, 190.0], [92.0, 52.0]);
        c = part(look, c, body, fur, x, y, 103);
        for ex in [84.0, 176.0] {
            let ear = ellipse(x, y, [ex, 112.0], [24.0, 28.0]);
            c = part(look, c, ear, rgb(170, 120, 110), x, y, 105);
        }
        let head = ellipse(x, y, [128.0, 160.0], [56.0, 46.0]);
        c = part(look, c, head, light(fur, 0.08), x, y, 107);
        let snout = ellipse(x, y, [128.0, 192.0], [26.0, 22.0]);
        c = part(look, c, snout, light(fur, 0.15), x, y, 109);
        c = mix_rgba(
            c,
            rgb(60, 20, 20),
            coverage(ellipse(x, y, [128.0, 184.0], [8.0, 6.0])),
        );
        for wx in [-1.0, 1.0] {
            for k in [0.0, 10.0] {
                let w = segment(
                    x,
                    y,
                    [128.0 + wx * 20.0, 196.0 + k / 2.0],
                    [128.0 + wx * 60.0, 188.0 + k],
                ) - 0.8;
                c = mix_rgba(c, rgb(230, 220, 200), coverage(w) * 0.8);
            }
        }
        for fx in [92.0, 164.0] {
            let paw = ellipse(x, y, [fx, 236.0], [18.0, 10.0]);
            c = part(look, c, paw, rgb(196, 140, 130), x, y, 111);
        }
        let teeth = polygon(x, y, &[[122.0, 204.0], [134.0, 204.0], [128.0, 216.0]]);
        c = mix_rgba(c, rgb(250, 240, 210), coverage(teeth));
        c = eye(c, x, y, [106.0, 150.0], 7.0, rgb(230, 40, 30));
        eye(c, x, y, [150.0, 150.0], 7.0, rgb(230, 40, 30))
    });
    img
}

/// A ghoul: gaunt, grey-green, arms out with long claws.
pub fn ghoul(look: &Look) -> Image {
    let skin = rgb(120, 134, 104);
    let rag = rgb(72, 60, 52);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(look, clear(look), x, y, 70.0);
        for side in [-1.0, 1.0] {
            let leg = segment(
                x,
                y,
                [128.0 + side * 18.0, 170.0],
                [128.0 + side * 30.0, 240.0],
            ) - 9.0;
            c = part(look, c, leg, shade(skin, 0.85), x, y, 131);
        }
        let body = polygon(
            x,
            y,
            &[[96.0, 84.0], [160.0, 84.0], [170.0, 200.0], [86.0, 200.0]],
        ) - 4.0;
        c = part(look, c, body, rag, x, y, 133);
        // Ribs through the torn rags.
        for k in 0..3 {
            let rib = ((y - (110.0 + k as f64 * 16.0)).abs() - 2.5).max((x - 128.0).abs() - 24.0);
            c = mix_rgba(c, shade(skin, 0.9), coverage(rib));
        }
        for side in [-1.0, 1.0] {
            let shoulder = [128.0 + side * 34.0, 96.0];
            let elbow = [128.0 + side * 78.0, 128.0];
            let hand = [128.0 + side * 96.0, 92.0];
            let arm = (segment(x, y, shoulder, elbow) - 9.0).min(segment(x, y, elbow, hand) - 7.0);
            c = part(look, c, arm, skin, x, y, 135);
            for k in [-1.0, 0.0, 1.0] {
                let claw = segment(
                    x,
                    y,
                    hand,
                    [
                        hand[0] + side * 10.0 + k * 10.0,
                        hand[1] - 26.0 + k.abs() * 4.0,
                    ],
                ) - 2.5;
                c = part(look, c, claw, rgb(226, 214, 180), x, y, 137);
            }
        }
        let head = ellipse(x, y, [128.0, 64.0], [30.0, 36.0]);
        c = part(look, c, head, skin, x, y, 139);
        let mouth = ellipse(x, y, [128.0, 84.0], [13.0, 8.0]);
        c = mix_rgba(c, look.palette.void, coverage(mouth));
        for tx in [120.0, 128.0, 136.0] {
            let t = polygon(x, y, &[[tx - 3.0, 78.0], [tx + 3.0, 78.0], [tx, 86.0]]);
            c = mix_rgba(c, rgb(240, 230, 200), coverage(t));
        }
        for ex in [115.0, 141.0] {
            c = mix_rgba(
                c,
                look.palette.void,
                coverage(ellipse(x, y, [ex, 60.0], [9.0, 7.0])),
            );
        }
        c = eye(c, x, y, [115.0, 60.0], 4.0, rgb(190, 255, 120));
        eye(c, x, y, [141.0, 60.0], 4.0, rgb(190, 255, 120))
    });
    img
}

/// The sheet's stand-in for any creature without its own art: a hooded shape with burning eyes.
pub fn hooded(look: &Look) -> Image {
    let cloak = rgb(70, 46, 40);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(look, clear(look), x, y, 80.0);
        let robe = polygon(
            x,
            y,
            &[
                [128.0, 30.0],
                [176.0, 80.0],
                [212.0, 246.0],
                [44.0, 246.0],
                [80.0, 80.0],
            ],
        ) - 6.0;
        c = part(look, c, robe, cloak, x, y, 161);
        let fold = ((x - 128.0).abs() - 2.0).max(-(y - 130.0)).max(robe);
        c = mix_rgba(c, shade(cloak, 0.5), coverage(fold));
        for side in [-1.0, 1.0] {
            let sleeve = segment(
                x,
                y,
                [128.0 + side * 46.0, 100.0],
                [128.0 + side * 78.0, 170.0],
            ) - 17.0;
            c = part(look, c, sleeve, light(cloak, 0.05), x, y, 163);
            for k in [-1.0, 0.0, 1.0] {
                let claw = segment(
                    x,
                    y,
                    [128.0 + side * 80.0, 184.0],
                    [128.0 + side * (84.0 + k * 8.0), 210.0],
                ) - 2.5;
                c = part(look, c, claw, rgb(220, 200, 170), x, y, 165);
            }
        }
        let hood = ellipse(x, y, [128.0, 80.0], [30.0, 34.0]);
        c = mix_rgba(c, look.palette.void, coverage(hood));
        c = eye(c, x, y, [116.0, 80.0], 5.0, rgb(255, 120, 30));
        eye(c, x, y, [140.0, 80.0], 5.0, rgb(255, 120, 30))
    });
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::look::plain::LOOK;

    #[test]
    fn a_strip_puts_each_creature_in_its_region_clear_around_it() {
        let img = strip(&[rat(&LOOK), ghoul(&LOOK), hooded(&LOOK)]);
        assert_eq!((img.width, img.height), (768, 256));
        for i in 0..3 {
            let x0 = i * 256;
            assert_eq!(img.get(x0 + 2, 2)[3], 0.0, "creature {i} top-left");
            assert_eq!(img.get(x0 + 128, 170)[3], 1.0, "creature {i} body");
        }
    }
}
