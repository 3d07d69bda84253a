//! The HUD's pieces every crawler game needs: a panel and the view window's frame (both
//! nine-sliced), a button, a paper sheet for the automap and a plain white texel block. Each is
//! one rounded box lit from the upper left with a line inlaid in it, so one painter serves
//! every look; the middles of the sliced pieces are flat so stretching them shows no seams.

use crate::look::Look;
use crate::sheet::{clear, granite};
use jengine_paint::noise::{fbm, hash};
use jengine_paint::paint::{
    Image, RoundedBox, coverage, light, mix_rgba, outline, shade, smoothstep, with_alpha,
};

/// The nine-slice border of the panel and the parchment, in texels on every side.
pub const SLICE: f64 = 24.0;

/// A panel `hud.panel_size` square, nine-slice [`SLICE`] on every side: the look's face with a
/// grained, bevelled rim and a line inlaid 10 texels in. Large enough that a panel over
/// most of the screen is drawn near 1:1 rather than from blown-up texels.
pub fn panel(look: &Look) -> Image {
    let hud = &look.hud;
    let size = hud.panel_size as f64;
    let mut img = Image::new(hud.panel_size, hud.panel_size);
    let outer = RoundedBox::new([1.0, 1.0, size - 1.0, size - 1.0], 8.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let n = outer.normal(x, y);
        // The middle is one flat colour so slicing it never shows seams.
        let middle = SLICE..size - SLICE;
        let flat = middle.contains(&x) && middle.contains(&y);
        let grain = if flat {
            0.0
        } else {
            fbm(x, y, 8.0, 201) * 0.25
        };
        let mut c = shade(hud.panel, 1.0 + grain);
        c = light(
            c,
            smoothstep(-8.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.35,
        );
        let inlay = RoundedBox::new([10.0, 10.0, size - 10.0, size - 10.0], 4.0).distance(x, y);
        c = mix_rgba(c, hud.inlay, outline(inlay, hud.inlay_width));
        c = mix_rgba(
            c,
            shade(look.palette.mortar, 0.6),
            outline(d, 2.5 * look.line),
        );
        with_alpha(c, coverage(d))
    });
    img
}

/// The frame around the crawl view, 256x256, nine-slice `[16, 16, 16, 16]`: a border of
/// dressed stone `hud.frame_depth` texels deep with a lip around the window, clear inside.
/// The window is `[depth, depth, 256 - 2 depth, 256 - 2 depth]` in texels (the inner corners
/// rounded by 2).
pub fn frame(look: &Look) -> Image {
    let p = &look.palette;
    let depth = look.hud.frame_depth;
    let w = look.line;
    let mut img = Image::new(256, 256);
    let outer = RoundedBox::new([0.0, 0.0, 256.0, 256.0], 4.0);
    let inner = RoundedBox::new([depth, depth, 256.0 - depth, 256.0 - depth], 2.0);
    img.layer(|x, y| {
        let di = inner.distance(x, y);
        if di < -1.0 {
            return clear(look);
        }
        let d = outer.distance(x, y);
        // Blocks along the border: a seam every 16 texels across the band.
        let along = if (depth..256.0 - depth).contains(&x) {
            x
        } else {
            y
        };
        let seam = ((along / 16.0 - (along / 16.0).floor()) - 0.5).abs() * 16.0 - 7.0;
        let tone = 0.95 + hash((along / 16.0) as i64, (x < y) as i64, 211) * 0.2;
        let mut c = shade(p.stone, tone + fbm(x, y, 6.0, 213) * 0.3);
        c = granite(look, c, x, y, 213);
        let n = outer.normal(x, y);
        c = light(
            c,
            smoothstep(-4.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.3,
        );
        c = mix_rgba(
            c,
            p.mortar,
            coverage(-seam) * smoothstep(2.0, 6.0, -d) * 0.9,
        );
        // A lip around the window and a shadow it throws inward.
        c = mix_rgba(c, look.hud.lip, outline(di - 2.0 * w, 2.0 * w));
        c = mix_rgba(c, shade(p.mortar, 0.5), outline(di, 2.0 * w));
        c = mix_rgba(c, shade(p.mortar, 0.5), outline(d, 2.0 * w));
        with_alpha(c, coverage(d) * coverage(-di))
    });
    img
}

/// A button face, 64x64, nine-slice `[16, 16, 16, 16]`: the look's button colour lit from
/// above with an edge in the panel's inlay colour. The game tints it lighter on hover and
/// darker while pressed.
pub fn button(look: &Look) -> Image {
    let w = look.line;
    let mut img = Image::new(64, 64);
    let outer = RoundedBox::new([1.0, 1.0, 63.0, 63.0], 8.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let n = outer.normal(x, y);
        let mut c = shade(look.hud.button, 1.0 + smoothstep(60.0, 4.0, y) * 0.2);
        c = light(
            c,
            smoothstep(-6.0, 0.0, d) * -(n[0] * 0.6 + n[1] * 0.8) * 0.4,
        );
        c = mix_rgba(c, look.hud.inlay, outline(d + 3.0 * w, 2.0 * w));
        c = mix_rgba(c, shade(look.palette.mortar, 0.5), outline(d, 2.0 * w));
        with_alpha(c, coverage(d))
    });
    img
}

/// Paper for the automap, 256x256, nine-slice [`SLICE`] on every side: the look's paper,
/// foxed at the edges, a darker ruled border.
pub fn parchment(look: &Look) -> Image {
    let [paper, rule_colour] = look.hud.paper;
    let mut img = Image::new(256, 256);
    let outer = RoundedBox::new([2.0, 2.0, 254.0, 254.0], 10.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y) + fbm(x, y, 10.0, 221) * 4.0;
        let edge = smoothstep(-24.0, 0.0, d);
        let mut c = shade(paper, 1.0 - edge * 0.35);
        if !(24.0..232.0).contains(&x) || !(24.0..232.0).contains(&y) {
            c = shade(c, 1.0 + fbm(x, y, 14.0, 223) * 0.15);
        }
        let rule = RoundedBox::new([14.0, 14.0, 242.0, 242.0], 4.0).distance(x, y);
        c = mix_rgba(c, rule_colour, outline(rule, 1.5 * look.line) * 0.8);
        with_alpha(c, coverage(d))
    });
    img
}

/// Plain white, `hud.white_size` square: a tint gives any colour (bars, shades, the
/// automap's cells).
pub fn white(look: &Look) -> Image {
    let mut img = Image::new(look.hud.white_size, look.hud.white_size);
    img.layer(|_, _| [1.0, 1.0, 1.0, 1.0]);
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::look::plain::LOOK;

    #[test]
    fn the_frames_window_starts_at_its_depth_and_is_clear() {
        let f = frame(&LOOK);
        let depth = LOOK.hud.frame_depth as i64;
        assert_eq!(f.get(128, 128)[3], 0.0);
        assert_eq!(f.get(depth - 1, 128)[3], 1.0);
        assert_eq!(f.get(depth, 128)[3], 0.0);
        assert_eq!(f.get(255 - depth, 128)[3], 0.0);
        assert_eq!(f.get(256 - depth, 128)[3], 1.0);
        assert_eq!(f.get(128, depth - 1)[3], 1.0);
        assert_eq!(f.get(128, depth)[3], 0.0);
    }

    #[test]
    fn the_panel_is_its_looks_size_and_flat_inside_its_slice() {
        let p = panel(&LOOK);
        let size = LOOK.hud.panel_size as i64;
        assert_eq!((p.width, p.height), (128, 128));
        let middle = p.get(size / 2, size / 2);
        for (x, y) in [
            (SLICE as i64, SLICE as i64),
            (size - 25, size - 25),
            (size / 2, 30),
        ] {
            assert_eq!(p.get(x, y), middle, "({x}, {y})");
        }
        assert_eq!(p.get(0, 0)[3], 0.0, "the corner is rounded off");
    }

    #[test]
    fn white_is_white_at_the_looks_size() {
        let w = white(&LOOK);
        assert_eq!((w.width, w.height), (2, 2));
        assert!(w.pixels.iter().all(|p| *p == [1.0; 4]));
    }
}
