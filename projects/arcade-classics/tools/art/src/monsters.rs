//! The creatures (`monsters.png`, four 256x256 regions: m_rat, m_beetle, m_ghoul, m_chief) and
//! the sheet's generic monster. Each is a bold silhouette (ellipses, polygons, capsules) with a
//! dark outline, lit from the upper left by the torch, standing on the region's bottom edge,
//! with a clear background so the corridor shows around it.

use crate::noise::fbm;
use crate::paint::{
    Image, Rgba, coverage, ellipse, light, mix_rgba, outline, polygon, radius, rgb, segment, shade,
    smoothstep, with_alpha,
};
use crate::sheet::{BRASS, IRON, REGION, VOID, blit};

/// The named creatures in `monsters.png` order.
pub const NAMES: [&str; 4] = ["m_rat", "m_beetle", "m_ghoul", "m_chief"];

const INK: Rgba = rgb(20, 10, 6);

/// The four named creatures side by side.
pub fn sheet() -> Image {
    let mut img = Image::new(4 * REGION, REGION);
    for (i, paint) in [rat, beetle, ghoul, chief].iter().enumerate() {
        blit(&mut img, &paint(), i as u32 * REGION, 0);
    }
    img
}

/// Lays one body part: `d` its signed distance, `base` its colour; torch-lit from above-left
/// by how far the point is from the part's top-left, with an ink outline.
fn part(c: Rgba, d: f64, base: Rgba, x: f64, y: f64, seed: u64) -> Rgba {
    let tex = fbm(x, y, 10.0, seed) * 0.35;
    let rim = smoothstep(-10.0, 0.0, d);
    let fill = shade(base, 1.0 + tex - rim * 0.25);
    let c = mix_rgba(c, fill, coverage(d));
    mix_rgba(c, INK, outline(d, 3.0))
}

fn eye(c: Rgba, x: f64, y: f64, at: [f64; 2], r: f64, colour: Rgba) -> Rgba {
    let d = radius(x, y, at);
    let c = mix_rgba(c, with_alpha(colour, 0.45), smoothstep(r * 3.0, r, d));
    let c = mix_rgba(c, light(colour, 0.2), coverage(d - r));
    mix_rgba(c, rgb(255, 255, 230), coverage(d - r * 0.4))
}

fn ground_shadow(c: Rgba, x: f64, y: f64, half_width: f64) -> Rgba {
    let d = ellipse(x, y, [128.0, 246.0], [half_width, 10.0]);
    mix_rgba(c, with_alpha(VOID, 0.55), coverage(d / 6.0))
}

fn clear() -> Rgba {
    [VOID[0], VOID[1], VOID[2], 0.0]
}

/// A giant rat, low and long, facing the party.
fn rat() -> Image {
    let fur = rgb(112, 86, 70);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(clear(), x, y, 110.0);
        let tail = segment(x, y, [190.0, 226.0], [246.0, 170.0]) - 5.0;
        c = part(c, tail, rgb(196, 140, 130), x, y, 101);
        let body = ellipse(x, y, [140.0, 190.0], [92.0, 52.0]);
        c = part(c, body, fur, x, y, 103);
        for ex in [84.0, 176.0] {
            let ear = ellipse(x, y, [ex, 112.0], [24.0, 28.0]);
            c = part(c, ear, rgb(170, 120, 110), x, y, 105);
        }
        let head = ellipse(x, y, [128.0, 160.0], [56.0, 46.0]);
        c = part(c, head, light(fur, 0.08), x, y, 107);
        let snout = ellipse(x, y, [128.0, 192.0], [26.0, 22.0]);
        c = part(c, snout, light(fur, 0.15), x, y, 109);
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
            c = part(c, paw, rgb(196, 140, 130), x, y, 111);
        }
        let teeth = polygon(x, y, &[[122.0, 204.0], [134.0, 204.0], [128.0, 216.0]]);
        c = mix_rgba(c, rgb(250, 240, 210), coverage(teeth));
        c = eye(c, x, y, [106.0, 150.0], 7.0, rgb(230, 40, 30));
        eye(c, x, y, [150.0, 150.0], 7.0, rgb(230, 40, 30))
    });
    img
}

/// A fire beetle: a glossy domed shell, mandibles and six legs.
fn beetle() -> Image {
    let shell = rgb(46, 70, 58);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(clear(), x, y, 118.0);
        for (k, side) in [
            (0.0, -1.0),
            (1.0, -1.0),
            (2.0, -1.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (2.0, 1.0),
        ] {
            let hip = [128.0 + side * 60.0, 150.0 + k * 24.0];
            let knee = [128.0 + side * (104.0 + k * 6.0), 130.0 + k * 26.0];
            let foot = [128.0 + side * (116.0 + k * 4.0), 236.0];
            let leg = (segment(x, y, hip, knee) - 6.0).min(segment(x, y, knee, foot) - 4.5);
            c = part(c, leg, rgb(40, 30, 24), x, y, 121);
        }
        let body = ellipse(x, y, [128.0, 168.0], [92.0, 72.0]);
        let gloss = smoothstep(40.0, 0.0, radius(x, y, [96.0, 128.0]));
        c = part(c, body, light(shell, gloss * 0.5), x, y, 123);
        let seam = (x - 128.0).abs() - 1.5;
        c = mix_rgba(
            c,
            INK,
            coverage(seam) * coverage(body) * if y > 118.0 { 1.0 } else { 0.0 },
        );
        let head = ellipse(x, y, [128.0, 112.0], [46.0, 30.0]);
        c = part(c, head, rgb(58, 40, 30), x, y, 125);
        for side in [-1.0, 1.0] {
            let jaw = polygon(
                x,
                y,
                &[
                    [128.0 + side * 14.0, 116.0],
                    [128.0 + side * 40.0, 104.0],
                    [128.0 + side * 18.0, 70.0],
                    [128.0 + side * 6.0, 96.0],
                ],
            );
            c = part(c, jaw, rgb(150, 110, 70), x, y, 127);
        }
        // The glands that glow like embers.
        c = eye(c, x, y, [100.0, 110.0], 8.0, rgb(255, 150, 30));
        eye(c, x, y, [156.0, 110.0], 8.0, rgb(255, 150, 30))
    });
    img
}

/// A ghoul: gaunt, grey-green, arms out with long claws.
fn ghoul() -> Image {
    let skin = rgb(120, 134, 104);
    let rag = rgb(72, 60, 52);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(clear(), x, y, 70.0);
        for side in [-1.0, 1.0] {
            let leg = segment(
                x,
                y,
                [128.0 + side * 18.0, 170.0],
                [128.0 + side * 30.0, 240.0],
            ) - 9.0;
            c = part(c, leg, shade(skin, 0.85), x, y, 131);
        }
        let body = polygon(
            x,
            y,
            &[[96.0, 84.0], [160.0, 84.0], [170.0, 200.0], [86.0, 200.0]],
        ) - 4.0;
        c = part(c, body, rag, x, y, 133);
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
            c = part(c, arm, skin, x, y, 135);
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
                c = part(c, claw, rgb(226, 214, 180), x, y, 137);
            }
        }
        let head = ellipse(x, y, [128.0, 64.0], [30.0, 36.0]);
        c = part(c, head, skin, x, y, 139);
        let mouth = ellipse(x, y, [128.0, 84.0], [13.0, 8.0]);
        c = mix_rgba(c, VOID, coverage(mouth));
        for tx in [120.0, 128.0, 136.0] {
            let t = polygon(x, y, &[[tx - 3.0, 78.0], [tx + 3.0, 78.0], [tx, 86.0]]);
            c = mix_rgba(c, rgb(240, 230, 200), coverage(t));
        }
        for ex in [115.0, 141.0] {
            c = mix_rgba(c, VOID, coverage(ellipse(x, y, [ex, 60.0], [9.0, 7.0])));
        }
        c = eye(c, x, y, [115.0, 60.0], 4.0, rgb(190, 255, 120));
        eye(c, x, y, [141.0, 60.0], 4.0, rgb(190, 255, 120))
    });
    img
}

/// The warren chief: a broad goblin-king in a horned helm with an axe.
fn chief() -> Image {
    let skin = rgb(150, 120, 60);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(clear(), x, y, 96.0);
        // The axe behind the right shoulder.
        let haft = segment(x, y, [196.0, 244.0], [214.0, 30.0]) - 6.0;
        c = part(c, haft, rgb(96, 60, 30), x, y, 141);
        let blade = polygon(
            x,
            y,
            &[[212.0, 34.0], [252.0, 20.0], [252.0, 110.0], [214.0, 88.0]],
        );
        c = part(c, blade, light(IRON, 0.35), x, y, 143);
        for side in [-1.0, 1.0] {
            let leg = segment(
                x,
                y,
                [128.0 + side * 28.0, 190.0],
                [128.0 + side * 38.0, 238.0],
            ) - 15.0;
            c = part(c, leg, shade(skin, 0.8), x, y, 145);
        }
        let body = ellipse(x, y, [128.0, 156.0], [72.0, 62.0]);
        c = part(c, body, rgb(120, 40, 30), x, y, 147);
        let belt = ((y - 182.0).abs() - 7.0).max(body);
        c = mix_rgba(c, rgb(60, 36, 20), coverage(belt));
        c = mix_rgba(
            c,
            BRASS,
            coverage(ellipse(x, y, [128.0, 182.0], [12.0, 9.0])),
        );
        for side in [-1.0, 1.0] {
            let arm = segment(
                x,
                y,
                [128.0 + side * 62.0, 124.0],
                [128.0 + side * 74.0, 190.0],
            ) - 15.0;
            c = part(c, arm, skin, x, y, 149);
            let pad = ellipse(x, y, [128.0 + side * 60.0, 118.0], [28.0, 18.0]);
            c = part(c, pad, IRON, x, y, 151);
        }
        let head = ellipse(x, y, [128.0, 84.0], [40.0, 34.0]);
        c = part(c, head, skin, x, y, 153);
        for side in [-1.0, 1.0] {
            let ear = polygon(
                x,
                y,
                &[
                    [128.0 + side * 34.0, 76.0],
                    [128.0 + side * 70.0, 70.0],
                    [128.0 + side * 36.0, 96.0],
                ],
            );
            c = part(c, ear, skin, x, y, 155);
            let horn = polygon(
                x,
                y,
                &[
                    [128.0 + side * 22.0, 52.0],
                    [128.0 + side * 52.0, 14.0],
                    [128.0 + side * 40.0, 56.0],
                ],
            );
            c = part(c, horn, rgb(230, 214, 170), x, y, 157);
        }
        let helm = ellipse(x, y, [128.0, 66.0], [40.0, 24.0]).max(y - 68.0);
        c = part(c, helm, light(IRON, 0.15), x, y, 159);
        let mouth = ellipse(x, y, [128.0, 104.0], [18.0, 6.0]);
        c = mix_rgba(c, VOID, coverage(mouth));
        for tx in [116.0, 140.0] {
            let tusk = polygon(x, y, &[[tx - 4.0, 106.0], [tx + 4.0, 106.0], [tx, 92.0]]);
            c = mix_rgba(c, rgb(245, 235, 205), coverage(tusk));
        }
        c = eye(c, x, y, [113.0, 82.0], 5.0, rgb(255, 200, 40));
        eye(c, x, y, [143.0, 82.0], 5.0, rgb(255, 200, 40))
    });
    img
}

/// The sheet's stand-in for any creature without its own art: a hooded shape with burning eyes.
pub fn hooded() -> Image {
    let cloak = rgb(70, 46, 40);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(clear(), x, y, 80.0);
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
        c = part(c, robe, cloak, x, y, 161);
        let fold = ((x - 128.0).abs() - 2.0).max(-(y - 130.0)).max(robe);
        c = mix_rgba(c, shade(cloak, 0.5), coverage(fold));
        for side in [-1.0, 1.0] {
            let sleeve = segment(
                x,
                y,
                [128.0 + side * 46.0, 100.0],
                [128.0 + side * 78.0, 170.0],
            ) - 17.0;
            c = part(c, sleeve, light(cloak, 0.05), x, y, 163);
            for k in [-1.0, 0.0, 1.0] {
                let claw = segment(
                    x,
                    y,
                    [128.0 + side * 80.0, 184.0],
                    [128.0 + side * (84.0 + k * 8.0), 210.0],
                ) - 2.5;
                c = part(c, claw, rgb(220, 200, 170), x, y, 165);
            }
        }
        let hood = ellipse(x, y, [128.0, 80.0], [30.0, 34.0]);
        c = mix_rgba(c, VOID, coverage(hood));
        c = eye(c, x, y, [116.0, 80.0], 5.0, rgb(255, 120, 30));
        eye(c, x, y, [140.0, 80.0], 5.0, rgb(255, 120, 30))
    });
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_creature_is_clear_in_its_top_corners_and_solid_at_its_middle() {
        let img = sheet();
        for i in 0..4 {
            let x0 = i * 256;
            assert_eq!(img.get(x0 + 2, 2)[3], 0.0, "{} top-left", NAMES[i as usize]);
            assert_eq!(img.get(x0 + 128, 170)[3], 1.0, "{} body", NAMES[i as usize]);
        }
    }
}
