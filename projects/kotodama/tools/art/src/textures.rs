//! Every Kotodama texture, each a function that paints one image from layered shapes.
//! One palette and one light (from the upper left) make them one set: ivory washi tiles,
//! a black-indigo lacquer tray with a gold line, indigo panels, slate walls, and the white
//! pieces (scale, ring, glow, white) that the game tints.
//!
//! Nine-slice textures keep everything that varies inside their borders, so the middle the
//! renderer stretches is flat (or a plain gradient) and stretches without smearing.

use crate::icons;
use crate::noise::{fbm, fibres, hash};
use crate::paint::{
    Image, Rgba, RoundedBox, coverage, facing_light, light, mix, mix_rgba, outline, radius, rgb,
    shade, smoothstep, with_alpha,
};
use crate::portraits::PORTRAITS;

/// One texture: its file name under `assets/textures/`, the image, and its nine-slice
/// borders `[left, top, right, bottom]` in texels when it is meant to be sliced.
#[derive(Clone, Debug)]
pub struct Texture {
    /// The file name under `assets/textures/`.
    pub name: &'static str,
    /// The painted image.
    pub image: Image,
    /// Nine-slice borders `[left, top, right, bottom]` in texels, for a sliced texture.
    pub nine_slice: Option<[u32; 4]>,
}

/// Kinari washi: the tiles' face.
const IVORY: Rgba = rgb(246, 240, 224);
/// The tile's thickness, seen below its face.
const TILE_SIDE: Rgba = rgb(212, 193, 156);
/// The fine line round a tile.
const TILE_EDGE: Rgba = rgb(118, 94, 66);
/// Black urushi with a little indigo: the tray's rim.
const LACQUER: Rgba = rgb(28, 25, 38);
/// The tray's floor, between the cells: deep indigo lacquer.
const TRAY: Rgba = rgb(41, 46, 78);
/// An empty cell's recess, a step darker than the floor.
const RECESS: Rgba = rgb(24, 27, 48);
const GOLD: Rgba = rgb(201, 158, 72);
const GOLD_LIGHT: Rgba = rgb(247, 221, 148);
/// Slate for walls.
const STONE: Rgba = rgb(92, 95, 110);
/// The UI panels' ai-iro (indigo).
const PANEL: Rgba = rgb(27, 38, 78);
/// Shadows are a deep blue-black, never grey.
const SHADOW: Rgba = rgb(8, 10, 26);

/// All the textures, in the order the README lists them, then the rivals' portraits.
pub fn all() -> Vec<Texture> {
    let mut textures = vec![
        Texture {
            name: "tile.png",
            image: tile(),
            nine_slice: Some([16; 4]),
        },
        Texture {
            name: "cell.png",
            image: cell(),
            nine_slice: Some([16; 4]),
        },
        Texture {
            name: "wall.png",
            image: wall(),
            nine_slice: Some([16; 4]),
        },
        Texture {
            name: "frame.png",
            image: frame(),
            nine_slice: Some([24; 4]),
        },
        Texture {
            name: "panel.png",
            image: panel(),
            nine_slice: Some([16; 4]),
        },
        Texture {
            name: "card.png",
            image: card(),
            nine_slice: Some([40; 4]),
        },
        Texture {
            name: "white.png",
            image: white(),
            nine_slice: None,
        },
        Texture {
            name: "glow.png",
            image: glow(),
            nine_slice: None,
        },
        Texture {
            name: "ring.png",
            image: ring(),
            nine_slice: None,
        },
        Texture {
            name: "scale.png",
            image: scale(),
            nine_slice: None,
        },
        Texture {
            name: "star.png",
            image: icons::star(),
            nine_slice: None,
        },
        Texture {
            name: "lock.png",
            image: icons::lock(),
            nine_slice: None,
        },
        Texture {
            name: "seal.png",
            image: icons::seal(),
            nine_slice: None,
        },
        Texture {
            name: "focus.png",
            image: icons::focus(),
            nine_slice: Some([16; 4]),
        },
        Texture {
            name: "focus_large.png",
            image: icons::focus_large(),
            nine_slice: Some([32; 4]),
        },
    ];
    for p in &PORTRAITS {
        textures.push(Texture {
            name: p.file,
            image: (p.paint)(),
            nine_slice: None,
        });
    }
    textures
}

/// A raised edge: how wide it is (texels, fading inwards from the outline) and how far it
/// lightens where the outline faces the light and darkens where it turns away.
#[derive(Clone, Copy)]
struct Bevel {
    width: f64,
    lit: f64,
    dark: f64,
}

impl Bevel {
    /// `c` at `(x, y)` inside `shape`, lit or shaded by this bevel.
    fn apply(self, c: Rgba, shape: &RoundedBox, x: f64, y: f64) -> Rgba {
        let w = 1.0 - smoothstep(0.0, self.width, -shape.distance(x, y));
        let f = facing_light(shape.normal(x, y));
        let amount = if f >= 0.0 { self.lit } else { self.dark };
        light(c, amount * w * f)
    }
}

/// A soft shadow of `shape` (already offset): `strength` at the outline, gone `spread` outside.
fn soft_shadow(shape: &RoundedBox, x: f64, y: f64, strength: f64, spread: f64) -> Rgba {
    let d = shape.distance(x, y);
    with_alpha(
        SHADOW,
        strength * (1.0 - smoothstep(-spread / 2.0, spread, d)),
    )
}

/// A kana tile, 64x64: an ivory washi face with a bevelled rim, its thickness showing below
/// and a soft shadow. The face's centre is (32, 29), a texel above the texture's.
pub fn tile() -> Image {
    let mut img = Image::new(64, 64);
    let body = RoundedBox::new([2.5, 1.5, 61.5, 60.0], 10.0);
    let face = RoundedBox::new([2.5, 1.5, 61.5, 56.5], 10.0);
    let paper = fibres([4.0, 3.0, 60.0, 55.0], 26, 4.0, 11.0, 7);

    img.layer(|x, y| soft_shadow(&body.shift(0.0, 2.0), x, y, 0.34, 3.5));
    img.layer(|x, y| {
        let d = body.distance(x, y);
        let c = shade(TILE_SIDE, mix(1.0, 0.84, smoothstep(56.0, 60.0, y)));
        with_alpha(c, coverage(d))
    });
    img.layer(|x, y| {
        let d = face.distance(x, y);
        // Washi: soft clouding and a few fibres, lighter and darker, barely there.
        let mut k = 1.0 + 0.045 * fbm(x, y, 10.0, 11);
        for f in &paper {
            let t = 1.0 - smoothstep(0.2, 0.9, f.distance(x, y));
            k += 0.035 * f.tone * t;
        }
        // A face that swells a little towards the light.
        k *= mix(1.012, 0.975, smoothstep(0.0, 56.0, y));
        let c = Bevel {
            width: 3.5,
            lit: 0.55,
            dark: 0.16,
        }
        .apply(shade(IVORY, k), &face, x, y);
        with_alpha(c, coverage(d))
    });
    // The face's lower edge, where it meets the thickness.
    img.layer(|x, y| {
        let d = face.distance(x, y);
        let lower = smoothstep(30.0, 50.0, y);
        with_alpha(TILE_EDGE, 0.40 * lower * outline(d, 0.9))
    });
    // A fine line round the whole tile keeps it crisp on a pale sea.
    img.layer(|x, y| {
        let d = body.distance(x, y);
        with_alpha(TILE_EDGE, 0.55 * outline(d + 0.5, 1.0))
    });
    img
}

/// An empty board cell, 64x64: the tray's floor with a soft recess, shadowed under its
/// upper-left lip and caught by the light on its lower-right. Cells laid edge to edge leave
/// 8 texels of floor between recesses.
pub fn cell() -> Image {
    let mut img = Image::new(64, 64);
    let recess = RoundedBox::new([4.0, 4.0, 60.0, 60.0], 7.0);
    img.layer(|_, _| TRAY);
    img.layer(|x, y| {
        let d = recess.distance(x, y);
        let depth = -d;
        let f = facing_light(recess.normal(x, y));
        let mut c = shade(RECESS, 1.0 + 0.03 * fbm(x, y, 12.0, 21));
        // The lip's shadow falls on the recess below and right of the lit side.
        c = light(c, -0.45 * f.max(0.0) * (1.0 - smoothstep(0.0, 7.0, depth)));
        // The far wall of the recess faces the light.
        c = light(
            c,
            0.16 * (-f).max(0.0) * (1.0 - smoothstep(0.0, 2.5, depth)),
        );
        with_alpha(c, coverage(d))
    });
    // The floor's edge round the recess catches a thin line of light on the lit side.
    img.layer(|x, y| {
        let d = recess.distance(x, y);
        let f = facing_light(recess.normal(x, y));
        with_alpha(light(TRAY, 0.3), 0.5 * f.max(0.0) * outline(d - 0.9, 1.0))
    });
    img
}

/// A wall, 64x64: a raised slate block on the tray's floor, with the same 4-texel margin as
/// a cell so walls and cells line up.
pub fn wall() -> Image {
    let mut img = Image::new(64, 64);
    let block = RoundedBox::new([4.0, 3.5, 60.0, 59.0], 6.0);
    img.layer(|_, _| TRAY);
    img.layer(|x, y| soft_shadow(&block.shift(1.0, 2.0), x, y, 0.6, 3.0));
    img.layer(|x, y| {
        let d = block.distance(x, y);
        // Slate: broad clouding, a fine grain, and a few small pits.
        let pit = hash(x as i64, y as i64, 33);
        let pit = if pit > 0.985 { -0.10 } else { 0.0 };
        let grain = 0.13 * fbm(x, y, 11.0, 31) + 0.05 * (hash(x as i64, y as i64, 32) - 0.5) + pit;
        let k = (1.0 + grain) * mix(1.06, 0.92, smoothstep(4.0, 59.0, y));
        let c = Bevel {
            width: 4.0,
            lit: 0.30,
            dark: 0.38,
        }
        .apply(shade(STONE, k), &block, x, y);
        with_alpha(c, coverage(d))
    });
    img.layer(|x, y| {
        let d = block.distance(x, y);
        with_alpha(SHADOW, 0.5 * outline(d + 0.5, 1.0))
    });
    img
}

/// The board's frame, 256x256: a black-indigo lacquer rim 12 texels wide with a gold line
/// inlaid 6.5 texels in, stepping down into the tray's floor with a soft inner shadow.
/// Everything that varies lies within 22 texels of the edge; the middle is the plain floor.
pub fn frame() -> Image {
    let mut img = Image::new(256, 256);
    let outer = RoundedBox::new([0.5, 0.5, 255.5, 255.5], 14.0);
    let floor = outer.grow(-12.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let depth = -d;
        // A band of gloss along the middle of the rim, as polished urushi shows.
        let gloss = smoothstep(2.0, 4.0, depth) * (1.0 - smoothstep(5.0, 9.0, depth));
        let f = facing_light(outer.normal(x, y));
        let c = light(LACQUER, 0.05 * gloss * (0.6 + 0.4 * f));
        let c = Bevel {
            width: 2.5,
            lit: 0.22,
            dark: 0.3,
        }
        .apply(c, &outer, x, y);
        with_alpha(c, coverage(d))
    });
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let f = facing_light(outer.normal(x, y));
        let c = mix_rgba(GOLD, GOLD_LIGHT, 0.5 + 0.5 * f);
        with_alpha(c, outline(d + 6.5, 1.6))
    });
    img.layer(|x, y| {
        let d = floor.distance(x, y);
        let depth = -d;
        let f = facing_light(floor.normal(x, y));
        // The rim shades the floor below it, most on the side away from the light.
        let cast = 0.55 * (1.0 - smoothstep(0.0, 9.0, depth)) * (0.55 + 0.45 * f.max(0.0));
        let mut c = light(TRAY, -cast);
        // The rim's inner wall on the far side catches light.
        c = light(
            c,
            0.22 * (-f).max(0.0) * (1.0 - smoothstep(0.0, 1.5, depth)),
        );
        with_alpha(c, coverage(d))
    });
    img
}

/// A UI panel, 96x96: translucent indigo with a gold line 4.5 texels inside its edge, a
/// lit upper rim and a soft shadow below (the body spans x 3..93, y 2..92).
pub fn panel() -> Image {
    let mut img = Image::new(96, 96);
    let body = RoundedBox::new([3.0, 2.0, 93.0, 92.0], 10.0);
    img.layer(|x, y| soft_shadow(&body.shift(0.0, 1.5), x, y, 0.32, 3.0));
    img.layer(|x, y| {
        let d = body.distance(x, y);
        let c = mix_rgba(
            light(PANEL, 0.07),
            shade(PANEL, 0.82),
            smoothstep(2.0, 92.0, y),
        );
        let c = Bevel {
            width: 2.0,
            lit: 0.25,
            dark: 0.2,
        }
        .apply(c, &body, x, y);
        with_alpha(c, 0.93 * coverage(d))
    });
    img.layer(|x, y| {
        let d = body.distance(x, y);
        let f = facing_light(body.normal(x, y));
        let c = mix_rgba(GOLD, GOLD_LIGHT, 0.35 + 0.35 * f);
        with_alpha(c, 0.9 * outline(d + 4.5, 1.3))
    });
    img
}

/// A large panel, 256x256 (nine-slice 40): the panel's look drawn for boxes 250-600 px across
/// (side panels, cards, the pause menu), so its corners and gold line stay fine instead of
/// being the small panel's texels blown up. Translucent indigo, the gold line 10 texels in, a
/// lit upper rim and a soft shadow below (the body spans x 6..250, y 4..248).
pub fn card() -> Image {
    let mut img = Image::new(256, 256);
    let body = RoundedBox::new([6.0, 4.0, 250.0, 248.0], 24.0);
    img.layer(|x, y| soft_shadow(&body.shift(0.0, 3.0), x, y, 0.32, 6.0));
    img.layer(|x, y| {
        let d = body.distance(x, y);
        let c = mix_rgba(
            light(PANEL, 0.07),
            shade(PANEL, 0.82),
            smoothstep(4.0, 248.0, y),
        );
        let c = Bevel {
            width: 4.0,
            lit: 0.25,
            dark: 0.2,
        }
        .apply(c, &body, x, y);
        with_alpha(c, 0.93 * coverage(d))
    });
    img.layer(|x, y| {
        let d = body.distance(x, y);
        let f = facing_light(body.normal(x, y));
        let c = mix_rgba(GOLD, GOLD_LIGHT, 0.35 + 0.35 * f);
        with_alpha(c, 0.9 * outline(d + 10.0, 2.2))
    });
    img
}

/// Plain white, 8x8: a tint gives any colour.
pub fn white() -> Image {
    let mut img = Image::new(8, 8);
    img.layer(|_, _| [1.0; 4]);
    img
}

/// `(1 - t²)^n` for `t` in 0..1, zero beyond: a bell that ends exactly at `t = 1`.
fn bell(t: f64, n: u32) -> f64 {
    if t >= 1.0 {
        return 0.0;
    }
    let b = 1.0 - t * t;
    (0..n).fold(1.0, |acc, _| acc * b)
}

/// A soft radial glow, 128x128: white, its alpha a bell from the centre to nothing at the rim.
pub fn glow() -> Image {
    let mut img = Image::new(128, 128);
    img.layer(|x, y| {
        let t = radius(x, y, [64.0, 64.0]) / 63.5;
        [1.0, 1.0, 1.0, 0.55 * bell(t, 3) + 0.45 * bell(t, 8)]
    });
    img
}

/// A soft ring, 128x128: white, a bright band at radius 50 with a faint halo inside it.
pub fn ring() -> Image {
    let mut img = Image::new(128, 128);
    img.layer(|x, y| {
        let r = radius(x, y, [64.0, 64.0]);
        let band = bell((r - 50.0).abs() / 7.0, 2);
        let halo = bell((r - 42.0).abs() / 18.0, 2);
        [1.0, 1.0, 1.0, (0.95 * band + 0.22 * halo).min(1.0)]
    });
    img
}

/// One seigaiha scale, 128x80: the upper part of a disc of concentric rings (down to 16 texels
/// below its centre), drawn light so a tint colours it. In the pattern (centres 128 apart,
/// rows 32 apart, every other row offset by 64, lower rows drawn over) a disc's lower half is
/// always under the rows in front, so only the fan and a margin for scales lifting in front of
/// it are drawn: far fewer pixels to blend, the same picture.
pub fn scale() -> Image {
    let mut img = Image::new(128, 80);
    let centre = [64.0, 64.0];
    let edge = 63.5;
    img.layer(|x, y| {
        let r = radius(x, y, centre);
        // Lit from above: the crest of each fan is the brightest.
        let mut v = mix(1.0, 0.86, smoothstep(0.0, 100.0, y));
        // The rings: four lines between the centre and the rim.
        for k in 1..=4 {
            let line = outline(r - edge * k as f64 / 5.0 + 1.0, 2.6);
            v = mix(v, v * 0.77, line);
        }
        // The rim: a dark line that parts this scale from the one behind, then a light lip.
        v = mix(v, 0.52, outline(r - (edge - 3.5), 3.0));
        v = mix(v, 1.0, outline(r - (edge - 0.75), 1.5));
        [v, v, v, coverage(r - edge)]
    });
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(name: &str) -> (u32, u32, Vec<u8>) {
        let t = all().into_iter().find(|t| t.name == name).unwrap();
        (t.image.width, t.image.height, t.image.to_rgba8())
    }

    fn px(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 4] {
        let i = ((y * img.0 + x) * 4) as usize;
        [img.2[i], img.2[i + 1], img.2[i + 2], img.2[i + 3]]
    }

    #[test]
    fn nine_slice_borders_leave_a_middle_in_every_sliced_texture() {
        for t in all() {
            if let Some([l, top, r, b]) = t.nine_slice {
                assert!(
                    l + r < t.image.width,
                    "{}: {l}+{r} vs width {}",
                    t.name,
                    t.image.width
                );
                assert!(
                    top + b < t.image.height,
                    "{}: {top}+{b} vs height {}",
                    t.name,
                    t.image.height
                );
            }
        }
    }

    #[test]
    fn frame_middle_is_one_colour_and_its_edges_do_not_change_along_their_length() {
        let img = bytes("frame.png");
        let (b, w) = (24, img.0);
        let middle = px(&img, b, b);
        for y in b..w - b {
            for x in b..w - b {
                assert_eq!(px(&img, x, y), middle, "middle texel ({x}, {y})");
            }
        }
        for along in b..w - b {
            for across in 0..b {
                assert_eq!(
                    px(&img, along, across),
                    px(&img, b, across),
                    "top edge ({along}, {across})"
                );
                assert_eq!(
                    px(&img, across, along),
                    px(&img, across, b),
                    "left edge ({across}, {along})"
                );
                let far = w - 1 - across;
                assert_eq!(
                    px(&img, along, far),
                    px(&img, b, far),
                    "bottom edge ({along}, {far})"
                );
                assert_eq!(
                    px(&img, far, along),
                    px(&img, far, b),
                    "right edge ({far}, {along})"
                );
            }
        }
    }

    #[test]
    fn panel_top_and_bottom_edges_do_not_change_along_their_length() {
        let img = bytes("panel.png");
        let (b, w, h) = (16, img.0, img.1);
        for x in b..w - b {
            for y in (0..b).chain(h - b..h) {
                assert_eq!(px(&img, x, y), px(&img, b, y), "texel ({x}, {y})");
            }
        }
    }

    #[test]
    fn card_top_and_bottom_edges_do_not_change_along_their_length() {
        let img = bytes("card.png");
        let (b, w, h) = (40, img.0, img.1);
        for x in b..w - b {
            for y in (0..b).chain(h - b..h) {
                assert_eq!(px(&img, x, y), px(&img, b, y), "texel ({x}, {y})");
            }
        }
    }

    #[test]
    fn scale_is_opaque_across_its_whole_disc_and_clear_outside_it() {
        let img = bytes("scale.png");
        assert_eq!((img.0, img.1), (128, 80), "the upper part of the disc");
        for y in 0..80u32 {
            for x in 0..128u32 {
                let (dx, dy) = (x as f64 + 0.5 - 64.0, y as f64 + 0.5 - 64.0);
                let r = (dx * dx + dy * dy).sqrt();
                let a = px(&img, x, y)[3];
                if r < 62.5 {
                    assert_eq!(a, 255, "inside the disc at ({x}, {y})");
                } else if r > 64.5 {
                    assert_eq!(a, 0, "outside the disc at ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn scale_is_drawn_light_so_a_tint_colours_it() {
        let img = bytes("scale.png");
        let opaque: Vec<[u8; 4]> = img
            .2
            .chunks_exact(4)
            .filter(|p| p[3] == 255)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect();
        let mean = opaque.iter().map(|p| p[0] as f64).sum::<f64>() / opaque.len() as f64;
        let darkest = opaque.iter().map(|p| p[0]).min().unwrap();
        assert!(
            opaque.iter().all(|p| p[0] == p[1] && p[1] == p[2]),
            "grey everywhere"
        );
        assert!(mean > 200.0, "mean grey {mean}");
        assert!(darkest >= 120, "darkest ring {darkest}");
    }

    #[test]
    fn glow_and_ring_are_white_and_fade_to_nothing_at_their_rim() {
        for name in ["glow.png", "ring.png"] {
            let img = bytes(name);
            assert!(
                img.2.chunks_exact(4).all(|p| p[..3] == [255, 255, 255]),
                "{name} white"
            );
            for i in 0..img.0 {
                for (x, y) in [(i, 0), (0, i), (i, img.1 - 1), (img.0 - 1, i)] {
                    assert_eq!(px(&img, x, y)[3], 0, "{name} border texel ({x}, {y})");
                }
            }
        }
        let glow = bytes("glow.png");
        assert_eq!(px(&glow, 64, 64)[3], 255, "glow centre");
    }

    #[test]
    fn white_is_eight_by_eight_opaque_white() {
        let img = bytes("white.png");
        assert_eq!((img.0, img.1), (8, 8));
        assert!(img.2.iter().all(|&v| v == 255));
    }

    #[test]
    fn tile_face_is_pale_and_its_corners_are_rounded_off() {
        let img = bytes("tile.png");
        let centre = px(&img, 32, 29);
        assert!(
            centre[..3].iter().all(|&v| v >= 225) && centre[3] == 255,
            "face {centre:?}"
        );
        assert_eq!(px(&img, 0, 0)[3], 0, "top-left corner");
        assert_eq!(px(&img, 63, 0)[3], 0, "top-right corner");
    }

    #[test]
    fn cells_and_walls_share_their_floor_so_they_tile_edge_to_edge() {
        let (cell, wall) = (bytes("cell.png"), bytes("wall.png"));
        for i in 0..64 {
            assert_eq!(px(&cell, i, 0), px(&wall, i, 0), "top row texel {i}");
            assert_eq!(px(&cell, 0, i), px(&wall, 0, i), "left column texel {i}");
        }
    }
}
