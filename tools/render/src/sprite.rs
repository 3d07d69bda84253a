//! Sprites: a textured rectangle centred on the transform, cut into nine cells when sliced.
//! Nine-slice lays the texture on at one scale, the largest at which the whole region fits
//! (`min(width / region_w, height / region_h)` world units per texel), so corners are never
//! stretched while edges stretch along their length; each cell clamps its own texels.

use super::Warnings;
use super::camera::View;
use super::raster::{Brush, Canvas, ScreenVertex, Wrap, fill_quad, pack, premultiplied};
use super::texture::{Texture, Textures};
use jengine::{Sprite, Transform2D};

/// Draws one sprite. `label` names the entity in warnings.
pub(crate) fn draw_sprite(
    canvas: &mut Canvas,
    view: &View,
    transform: &Transform2D,
    sprite: &Sprite,
    textures: &mut Textures,
    warnings: &mut Warnings,
    label: &str,
) {
    let [w, h] = sprite.size;
    if !(w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0) {
        warnings.say(format!(
            "{label}: sprite size {:?} must be positive and finite; not drawn",
            sprite.size
        ));
        return;
    }
    // Scale is folded into the size (so slices see the real size); only its sign stays in the
    // transform, to keep mirroring.
    let width = w * transform.scale[0].abs();
    let height = h * transform.scale[1].abs();
    if width == 0.0 || height == 0.0 {
        return;
    }
    let mut signed = *transform;
    signed.scale = transform.scale.map(|s| if s < 0.0 { -1.0 } else { 1.0 });
    let to_screen = view.local_to_screen(&signed);

    let mut tint = premultiplied(sprite.tint.0);
    if tint[3] == 0 {
        return;
    }
    let white = Texture::white();
    let (texture, found) = if sprite.texture.is_empty() {
        (&white, false)
    } else {
        if let Some(warning) = textures.load(&sprite.texture) {
            warnings.say(warning);
        }
        // A small texture is tinted once and kept, so its pixels need no tint while drawing.
        if tint != [255; 4] && textures.tint(&sprite.texture, pack(tint)) {
            let packed = pack(tint);
            tint = [255; 4];
            match textures.tinted(&sprite.texture, packed) {
                Some(t) => (t, true),
                None => return,
            }
        } else {
            match textures.get(&sprite.texture) {
                Ok(t) => (t, true),
                Err(checker) => (checker, false),
            }
        }
    };
    let (tw, th) = (texture.width as f32, texture.height as f32);
    let mut region = [0.0, 0.0, tw, th];
    if found && let Some(r) = sprite.region {
        if r.iter().all(|v| v.is_finite()) && r[2] > 0.0 && r[3] > 0.0 {
            let x0 = r[0].clamp(0.0, tw);
            let y0 = r[1].clamp(0.0, th);
            let x1 = (r[0] + r[2]).clamp(0.0, tw);
            let y1 = (r[1] + r[3]).clamp(0.0, th);
            if [x0, y0, x1 - x0, y1 - y0] != r {
                warnings.say(format!(
                    "{label}: sprite region {r:?} reaches outside {:?} ({}x{}); clamped",
                    sprite.texture, texture.width, texture.height
                ));
            }
            if x1 > x0 && y1 > y0 {
                region = [x0, y0, x1 - x0, y1 - y0];
            }
        } else {
            warnings.say(format!(
                "{label}: sprite region {r:?} needs a positive width and height; using the whole texture"
            ));
        }
    }
    let [rx, ry, rw, rh] = region;

    let mut borders = [0.0; 4];
    if found && let Some(b) = sprite.nine_slice {
        let usable =
            b.iter().all(|v| v.is_finite() && *v >= 0.0) && b[0] + b[2] <= rw && b[1] + b[3] <= rh;
        if usable {
            borders = b;
        } else {
            warnings.say(format!(
                "{label}: nine_slice {b:?} must be non-negative and fit the {rw}x{rh} region; \
                 drawing unsliced"
            ));
        }
    }
    let [l, t, r, b] = borders;
    let s = (width / rw).min(height / rh);
    let (hw, hh) = (width / 2.0, height / 2.0);
    let xs = [-hw, -hw + l * s, hw - r * s, hw];
    let us = [rx, rx + l, rx + rw - r, rx + rw];
    let ys = [hh, hh - t * s, -hh + b * s, -hh];
    let vs = [ry, ry + t, ry + rh - b, ry + rh];

    for j in 0..3 {
        for i in 0..3 {
            if xs[i + 1] <= xs[i] || ys[j + 1] >= ys[j] {
                continue;
            }
            let corner = |ci: usize, cj: usize| {
                let p = to_screen.apply([xs[ci], ys[cj]]);
                ScreenVertex {
                    x: p[0],
                    y: p[1],
                    u: us[ci],
                    v: vs[cj],
                    q: 1.0,
                    shade: 1.0,
                }
            };
            let quad = [
                corner(i, j),
                corner(i + 1, j),
                corner(i + 1, j + 1),
                corner(i, j + 1),
            ];
            let brush = Brush {
                texture,
                wrap: Wrap::Clamp {
                    x0: us[i].floor() as i32,
                    y0: vs[j].floor() as i32,
                    x1: (us[i + 1].ceil() as i32 - 1).max(us[i].floor() as i32),
                    y1: (vs[j + 1].ceil() as i32 - 1).max(vs[j].floor() as i32),
                },
                tint,
                perspective: false,
                shaded: false,
            };
            fill_quad(canvas, quad, &brush);
        }
    }
}
