//! The creatures (`monsters.png`, four 256x256 regions: m_rat, m_beetle, m_ghoul, m_chief).
//! The rat and the ghoul are the ones every crawler game meets ([`crawler_art::creatures`]);
//! the fire beetle and the warren chief are Umber Warren's own, painted from the same parts.

use crate::{BRASS, IRON, LOOK, VOID};
use crawler_art::creatures::{eye, ghoul, ground_shadow, part, rat, strip};
use crawler_art::sheet::{REGION, clear};
use jengine_paint::paint::{
    Image, coverage, ellipse, light, mix_rgba, polygon, radius, rgb, segment, shade, smoothstep,
};

/// The named creatures in `monsters.png` order.
pub const NAMES: [&str; 4] = ["m_rat", "m_beetle", "m_ghoul", "m_chief"];

/// The four named creatures side by side.
pub fn sheet() -> Image {
    strip(&[rat(&LOOK), beetle(), ghoul(&LOOK), chief()])
}

/// A fire beetle: a glossy domed shell, mandibles and six legs.
fn beetle() -> Image {
    let shell = rgb(46, 70, 58);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(&LOOK, clear(&LOOK), x, y, 118.0);
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
            c = part(&LOOK, c, leg, rgb(40, 30, 24), x, y, 121);
        }
        let body = ellipse(x, y, [128.0, 168.0], [92.0, 72.0]);
        let gloss = smoothstep(40.0, 0.0, radius(x, y, [96.0, 128.0]));
        c = part(&LOOK, c, body, light(shell, gloss * 0.5), x, y, 123);
        let seam = (x - 128.0).abs() - 1.5;
        c = mix_rgba(
            c,
            LOOK.palette.ink,
            coverage(seam) * coverage(body) * if y > 118.0 { 1.0 } else { 0.0 },
        );
        let head = ellipse(x, y, [128.0, 112.0], [46.0, 30.0]);
        c = part(&LOOK, c, head, rgb(58, 40, 30), x, y, 125);
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
            c = part(&LOOK, c, jaw, rgb(150, 110, 70), x, y, 127);
        }
        // The glands that glow like embers.
        c = eye(c, x, y, [100.0, 110.0], 8.0, rgb(255, 150, 30));
        eye(c, x, y, [156.0, 110.0], 8.0, rgb(255, 150, 30))
    });
    img
}

/// The warren chief: a broad goblin-king in a horned helm with an axe.
fn chief() -> Image {
    let skin = rgb(150, 120, 60);
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let mut c = ground_shadow(&LOOK, clear(&LOOK), x, y, 96.0);
        // The axe behind the right shoulder.
        let haft = segment(x, y, [196.0, 244.0], [214.0, 30.0]) - 6.0;
        c = part(&LOOK, c, haft, rgb(96, 60, 30), x, y, 141);
        let blade = polygon(
            x,
            y,
            &[[212.0, 34.0], [252.0, 20.0], [252.0, 110.0], [214.0, 88.0]],
        );
        c = part(&LOOK, c, blade, light(IRON, 0.35), x, y, 143);
        for side in [-1.0, 1.0] {
            let leg = segment(
                x,
                y,
                [128.0 + side * 28.0, 190.0],
                [128.0 + side * 38.0, 238.0],
            ) - 15.0;
            c = part(&LOOK, c, leg, shade(skin, 0.8), x, y, 145);
        }
        let body = ellipse(x, y, [128.0, 156.0], [72.0, 62.0]);
        c = part(&LOOK, c, body, rgb(120, 40, 30), x, y, 147);
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
            c = part(&LOOK, c, arm, skin, x, y, 149);
            let pad = ellipse(x, y, [128.0 + side * 60.0, 118.0], [28.0, 18.0]);
            c = part(&LOOK, c, pad, IRON, x, y, 151);
        }
        let head = ellipse(x, y, [128.0, 84.0], [40.0, 34.0]);
        c = part(&LOOK, c, head, skin, x, y, 153);
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
            c = part(&LOOK, c, ear, skin, x, y, 155);
            let horn = polygon(
                x,
                y,
                &[
                    [128.0 + side * 22.0, 52.0],
                    [128.0 + side * 52.0, 14.0],
                    [128.0 + side * 40.0, 56.0],
                ],
            );
            c = part(&LOOK, c, horn, rgb(230, 214, 170), x, y, 157);
        }
        let helm = ellipse(x, y, [128.0, 66.0], [40.0, 24.0]).max(y - 68.0);
        c = part(&LOOK, c, helm, light(IRON, 0.15), x, y, 159);
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
