//! Small white icons the menus tint: a bevelled star (gold when earned, dim when not), a
//! padlock for a stage not yet open, a round seal stamped on a beaten rival, and a soft
//! rounded outline that marks the focused button. Grey shading only, so a tint colours them.

use crate::noise::fbm;
use crate::paint::{
    Image, RoundedBox, coverage, facing_light, mix, outline, polygon, radius, segment, smoothstep,
};

/// A grey of value `v` with alpha `a`.
fn grey(v: f64, a: f64) -> [f64; 4] {
    [v, v, v, a]
}

/// The five tips and five notches of a star, as unit directions from its centre (y down),
/// starting at the top tip and alternating tip, notch. Fixed literals: no `sin`/`cos`.
const STAR_DIRS: [[f64; 2]; 10] = [
    [0.0, -1.0],
    [0.587_785_252_292_473_1, -0.809_016_994_374_947_5],
    [0.951_056_516_295_153_5, -0.309_016_994_374_947_4],
    [0.951_056_516_295_153_5, 0.309_016_994_374_947_4],
    [0.587_785_252_292_473_1, 0.809_016_994_374_947_5],
    [0.0, 1.0],
    [-0.587_785_252_292_473_1, 0.809_016_994_374_947_5],
    [-0.951_056_516_295_153_5, 0.309_016_994_374_947_4],
    [-0.951_056_516_295_153_5, -0.309_016_994_374_947_4],
    [-0.587_785_252_292_473_1, -0.809_016_994_374_947_5],
];

/// The outline of a five-pointed star about `c`, tips at `outer`, notches at `inner`.
pub fn star_points(c: [f64; 2], outer: f64, inner: f64) -> Vec<[f64; 2]> {
    STAR_DIRS
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let r = if i % 2 == 0 { outer } else { inner };
            [c[0] + d[0] * r, c[1] + d[1] * r]
        })
        .collect()
}

/// A star, 64x64: five bevelled arms, each split along its ridge into a lit and a shaded
/// facet, with a thin darker rim so it reads on any ground.
pub fn star() -> Image {
    let mut img = Image::new(64, 64);
    let c = [32.0, 34.0];
    let points = star_points(c, 28.0, 12.0);
    img.layer(|x, y| {
        let d = polygon(x, y, &points) - 1.2;
        let (px, py) = (x - c[0], y - c[1]);
        // The arm this pixel lies in: the tip direction it leans towards most.
        let arm = (0..5)
            .map(|k| STAR_DIRS[2 * k])
            .max_by(|a, b| (a[0] * px + a[1] * py).total_cmp(&(b[0] * px + b[1] * py)))
            .unwrap_or([0.0, -1.0]);
        // Which side of the ridge: the facet's outward normal is the ridge turned a quarter.
        let side = arm[0] * py - arm[1] * px;
        let n = if side >= 0.0 {
            [-arm[1], arm[0]]
        } else {
            [arm[1], -arm[0]]
        };
        let lit = facing_light(n);
        let mut v = 0.86 + 0.13 * lit;
        // The ridge itself catches a thin line of light.
        v = mix(v, 1.0, 0.6 * coverage(side.abs() - 0.6));
        v *= mix(1.0, 0.9, smoothstep(6.0, 62.0, y));
        v = mix(v, 0.55, outline(d + 0.9, 1.3));
        grey(v, coverage(d))
    });
    img
}

/// A padlock, 64x64: a shackle over a rounded body with a keyhole.
pub fn lock() -> Image {
    let mut img = Image::new(64, 64);
    let body = RoundedBox::new([12.5, 30.0, 51.5, 59.5], 7.0);
    let (ring_c, ring_r) = ([32.0, 25.0], 12.5);
    img.layer(|x, y| {
        let arc = if y <= ring_c[1] {
            (radius(x, y, ring_c) - ring_r).abs()
        } else {
            f64::INFINITY
        };
        let legs = segment(x, y, [19.5, 25.0], [19.5, 34.0]).min(segment(
            x,
            y,
            [44.5, 25.0],
            [44.5, 34.0],
        ));
        let d = arc.min(legs) - 3.6;
        let v = mix(0.9, 0.7, smoothstep(10.0, 34.0, y));
        let v = mix(v, 0.5, outline(d + 0.7, 1.2));
        grey(v, coverage(d))
    });
    img.layer(|x, y| {
        let d = body.distance(x, y);
        let n = body.normal(x, y);
        let rim = 1.0 - smoothstep(0.0, 3.0, -d);
        let v = mix(1.0, 0.8, smoothstep(30.0, 60.0, y)) + 0.12 * rim * facing_light(n);
        let v = mix(v, 0.5, outline(d + 0.7, 1.2));
        grey(v.min(1.0), coverage(d))
    });
    img.layer(|x, y| {
        let hole = radius(x, y, [32.0, 41.0]) - 4.5;
        let slot = polygon(
            x,
            y,
            &[[29.5, 42.0], [34.5, 42.0], [35.5, 52.0], [28.5, 52.0]],
        );
        grey(0.28, coverage(hole.min(slot)))
    });
    img
}

/// A round seal, 96x96: a stamped disc whose ink is a little uneven, with a ring pressed in
/// near its edge. The game tints it and writes the character on it.
pub fn seal() -> Image {
    let mut img = Image::new(96, 96);
    let c = [48.0, 48.0];
    img.layer(|x, y| {
        // The stamp's edge wanders a texel or so, as ink on paper does.
        let r = radius(x, y, c) + 2.2 * fbm(x, y, 9.0, 41);
        let d = r - 44.0;
        let ink = 0.93 + 0.1 * fbm(x, y, 5.0, 43);
        let v = mix(1.0, 0.72, smoothstep(10.0, 90.0, y));
        let v = mix(v, 0.55, outline(r - 38.5, 1.8));
        grey(v, (ink * coverage(d)).min(1.0))
    });
    img
}

/// The focus ring, 64x64 (nine-slice 16 on each side): a rounded outline with a soft glow
/// both sides of it and nothing in the middle, laid over whatever button has the focus.
pub fn focus() -> Image {
    ring_of(64, 1.0)
}

/// The focus ring for large cards, 128x128 (nine-slice 32): the same ring drawn at twice
/// the size, so on a card 150-250 px tall it is not the small ring's texels blown up.
pub fn focus_large() -> Image {
    ring_of(128, 2.0)
}

/// A focus ring `size` texels square, its line and glow `k` times the small ring's.
fn ring_of(size: u32, k: f64) -> Image {
    let mut img = Image::new(size, size);
    let (lo, hi) = (5.0 * k, size as f64 - 5.0 * k);
    let line = RoundedBox::new([lo, lo, hi, hi], 11.0 * k);
    img.layer(|x, y| {
        let d = line.distance(x, y);
        let glow = 1.0 - smoothstep(0.0, 5.0 * k, d.abs());
        let a = (0.95 * outline(d, 2.4 * k) + 0.4 * glow * glow).min(1.0);
        grey(1.0, a)
    });
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey_only(img: &Image) -> bool {
        img.to_rgba8()
            .chunks_exact(4)
            .all(|p| p[0] == p[1] && p[1] == p[2])
    }

    #[test]
    fn icons_are_grey_so_a_tint_colours_them_and_clear_in_their_corners() {
        for (name, img) in [
            ("star", star()),
            ("lock", lock()),
            ("seal", seal()),
            ("focus", focus()),
            ("focus_large", focus_large()),
        ] {
            assert!(grey_only(&img), "{name} is not grey");
            let (w, h) = (img.width as i64, img.height as i64);
            for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
                assert_eq!(img.get(x, y)[3], 0.0, "{name} corner ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_star_is_solid_at_its_heart_and_clear_between_its_arms() {
        let img = star();
        assert_eq!(img.get(32, 34)[3], 1.0);
        // Straight below the centre lies the notch between the two lower arms.
        assert_eq!(img.get(32, 58)[3], 0.0);
        // The top tip.
        assert!(img.get(32, 9)[3] > 0.9);
    }

    #[test]
    fn focus_rings_are_clear_inside_and_their_edges_do_not_change_along_their_length() {
        for (img, border) in [(focus(), 16), (focus_large(), 32)] {
            let bytes = img.to_rgba8();
            let (w, h) = (img.width as usize, img.height as usize);
            let px = |x: usize, y: usize| &bytes[(y * w + x) * 4..(y * w + x) * 4 + 4];
            assert_eq!(px(w / 2, h / 2)[3], 0, "the middle shows the button");
            for along in border..w - border {
                for across in 0..border {
                    assert_eq!(
                        px(along, across),
                        px(border, across),
                        "top ({along}, {across})"
                    );
                    assert_eq!(
                        px(across, along),
                        px(across, border),
                        "left ({across}, {along})"
                    );
                }
            }
        }
    }
}
