//! Marks that lie in the floor and take the floor's exact shape: a teleporter's glyph, a
//! spinner's faint swirl and a pressure plate. Each is clear outside its mark, so the floor
//! shows round it; the top edge of a region is the far edge of its cell.

use crate::look::Look;
use crate::sheet::{REGION, clear};
use jengine_paint::noise::{fbm, hash};
use jengine_paint::paint::{
    Image, RoundedBox, coverage, light, mix_rgba, outline, polygon, radius, shade, smoothstep,
    with_alpha,
};

/// A teleporter: a ring of pale fire round a five-pointed glyph, glowing out over the floor.
pub fn teleporter(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    // A star's points, written out so no trigonometry is needed.
    let star = [
        [128.0, 52.0],
        [150.0, 110.0],
        [204.0, 112.0],
        [162.0, 146.0],
        [176.0, 204.0],
        [128.0, 170.0],
        [80.0, 204.0],
        [94.0, 146.0],
        [52.0, 112.0],
        [106.0, 110.0],
    ];
    img.layer(|x, y| {
        let mut c = clear(look);
        let r = radius(x, y, [128.0, 128.0]);
        let glow = with_alpha(light(p.glow, 0.4), 0.45);
        c = mix_rgba(c, glow, smoothstep(120.0, 60.0, r) * 0.7);
        let ring = (r - 96.0).abs() - 6.0;
        let flicker = 0.8 + fbm(x, y, 10.0, 111) * 0.6;
        c = mix_rgba(
            c,
            with_alpha(light(p.glow, 0.7), 1.0),
            coverage(ring) * flicker.min(1.0),
        );
        let glyph = outline(polygon(x, y, &star), 5.0 * look.line.max(0.6));
        c = mix_rgba(c, with_alpha(light(p.glow, 0.85), 1.0), glyph);
        // Sparks over the ring.
        if hash((x / 5.0) as i64, (y / 5.0) as i64, 113) > 0.985 && r < 120.0 {
            c = with_alpha(light(p.glow, 0.95), 1.0);
        }
        c
    });
    img
}

/// A spinner: a faint swirl scratched in the floor, hardly there, as the classics hid them.
pub fn spinner(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    img.layer(|x, y| {
        let (dx, dy) = (x - 128.0, y - 128.0);
        let r = (dx * dx + dy * dy).sqrt();
        // A spiral as a distance: how far the radius is from the arm nearest at this angle,
        // the angle taken from a rational stand-in (the octant and slope) so no `atan` is used.
        let (ax, ay) = (dx.abs(), dy.abs());
        let slope = if ax > ay {
            ay / ax.max(1e-9)
        } else {
            2.0 - ax / ay.max(1e-9)
        };
        let quadrant = match (dx >= 0.0, dy >= 0.0) {
            (true, true) => slope,
            (false, true) => 4.0 - slope,
            (false, false) => 4.0 + slope,
            (true, false) => 8.0 - slope,
        };
        let turn = quadrant / 8.0;
        let arm = 40.0;
        let along = r / arm - turn;
        let d = ((along - along.floor()) - 0.5).abs() * arm - 3.0;
        let fade = smoothstep(112.0, 80.0, r) * smoothstep(6.0, 20.0, r);
        let scratch = shade(p.mortar, 1.1);
        with_alpha(scratch, coverage(d) * fade * 0.55)
    });
    img
}

/// A pressure plate: a square slab set in the floor with a dark gap round it, its face worn
/// and crossed by two grooves.
pub fn plate(look: &Look) -> Image {
    let p = &look.palette;
    let mut img = Image::new(REGION, REGION);
    let slab = RoundedBox::new([48.0, 48.0, 208.0, 208.0], 6.0);
    img.layer(|x, y| {
        let mut c = clear(look);
        let d = slab.distance(x, y);
        c = mix_rgba(c, with_alpha(p.void, 0.9), coverage(d - 6.0));
        let face = shade(light(p.flag, 0.08), 0.95 + fbm(x, y, 9.0, 121) * 0.35);
        let n = slab.normal(x, y);
        let face = light(
            face,
            smoothstep(-8.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.25,
        );
        c = mix_rgba(c, face, coverage(d));
        let groove = ((x - 128.0).abs().min((y - 128.0).abs()) - 2.0).max(d + 14.0);
        c = mix_rgba(c, shade(p.mortar, 0.9), coverage(groove) * 0.8);
        c = mix_rgba(c, shade(p.mortar, 0.7), outline(d, 2.0 * look.line));
        c
    });
    img
}
