//! The triangle rasteriser behind sprites and meshes: textured, tinted, optionally shaded and
//! perspective-correct, blended premultiplied into the canvas.
//!
//! Scanline spans: a pixel is drawn when its centre is inside the triangle, with edges sampled
//! from their endpoints in one canonical order, so two triangles sharing an edge compute the same
//! crossing and cover every pixel along it exactly once (no cracks, no double-blended seams).
//! Attributes are planes in screen space; with perspective on, `uv*q`, `shade*q` and `q` are the
//! planes and each pixel divides by `q`.

use super::texture::Texture;

/// The frame being drawn: premultiplied RGBA8 rows.
pub(crate) struct Canvas<'a> {
    pub px: &'a mut [u8],
    pub width: usize,
    pub height: usize,
}

/// A triangle corner on screen. `u`, `v` are in texel units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ScreenVertex {
    pub x: f32,
    pub y: f32,
    pub u: f32,
    pub v: f32,
    pub q: f32,
    pub shade: f32,
}

/// How texel coordinates outside the sampled area are brought back in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Wrap {
    /// Clamp to the inclusive texel rectangle (a sprite's region or a nine-slice cell).
    Clamp { x0: i32, y0: i32, x1: i32, y1: i32 },
    /// Tile the whole texture (meshes).
    Repeat,
}

/// What a triangle is filled with.
pub(crate) struct Brush<'a> {
    pub texture: &'a Texture,
    pub wrap: Wrap,
    /// Premultiplied tint, 0..=255 per channel.
    pub tint: [u32; 4],
    /// Divide by the interpolated `q` per pixel.
    pub perspective: bool,
    /// Multiply the interpolated vertex shade in.
    pub shaded: bool,
}

/// Premultiplies a straight 0..=1 colour into 0..=255 channels (non-finite channels are 0).
pub(crate) fn premultiplied(color: [f32; 4]) -> [u32; 4] {
    let unit = |c: f32| {
        if c.is_finite() {
            c.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let a = unit(color[3]);
    let ch = |c: f32| (unit(c) * a * 255.0).round() as u32;
    [
        ch(color[0]),
        ch(color[1]),
        ch(color[2]),
        (a * 255.0).round() as u32,
    ]
}

/// `a * b / 255`, rounded, for `a`, `b` in 0..=255.
#[inline(always)]
fn mul255(a: u32, b: u32) -> u32 {
    let t = a * b + 128;
    (t + (t >> 8)) >> 8
}

/// Source-over of a premultiplied colour onto a premultiplied pixel.
#[inline(always)]
fn blend(dst: &mut [u8], src: [u32; 4]) {
    let a = src[3];
    if a >= 255 {
        dst[0] = src[0] as u8;
        dst[1] = src[1] as u8;
        dst[2] = src[2] as u8;
        dst[3] = 255;
    } else if a != 0 {
        let keep = 255 - a;
        for i in 0..4 {
            dst[i] = (src[i] + mul255(dst[i] as u32, keep)).min(255) as u8;
        }
    }
}

/// Fills one triangle. Vertices must be finite (callers check and warn); degenerate triangles
/// and anything off the canvas draw nothing.
pub(crate) fn fill_triangle(canvas: &mut Canvas, tri: [ScreenVertex; 3], brush: &Brush) {
    let mut v = tri;
    v.sort_by(|p, q| p.y.total_cmp(&q.y).then(p.x.total_cmp(&q.x)));
    let [a, b, c] = v;
    let det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
    if !det.is_finite() || det.abs() < 1e-9 {
        return;
    }
    let attrs = |p: &ScreenVertex| {
        if brush.perspective {
            [p.u * p.q, p.v * p.q, p.q, p.shade * p.q]
        } else {
            [p.u, p.v, 1.0, p.shade]
        }
    };
    let (aa, ab, ac) = (attrs(&a), attrs(&b), attrs(&c));
    let mut dx = [0.0f32; 4];
    let mut dy = [0.0f32; 4];
    for i in 0..4 {
        let (d1, d2) = (ab[i] - aa[i], ac[i] - aa[i]);
        dx[i] = (d1 * (c.y - a.y) - d2 * (b.y - a.y)) / det;
        dy[i] = (d2 * (b.x - a.x) - d1 * (c.x - a.x)) / det;
    }

    let height = canvas.height as f32;
    let width = canvas.width as f32;
    let y_start = (a.y - 0.5).ceil().clamp(0.0, height) as usize;
    let y_end = (c.y - 0.5).ceil().clamp(0.0, height) as usize;
    let solid = brush.texture.texels.len() == 1 && !brush.shaded;
    for y in y_start..y_end {
        let yc = y as f32 + 0.5;
        let long = edge_x(&a, &c, yc);
        let short = if yc < b.y {
            edge_x(&a, &b, yc)
        } else {
            edge_x(&b, &c, yc)
        };
        let (left, right) = if long < short {
            (long, short)
        } else {
            (short, long)
        };
        let x0 = (left - 0.5).ceil().clamp(0.0, width) as usize;
        let x1 = (right - 0.5).ceil().clamp(0.0, width) as usize;
        if x0 >= x1 {
            continue;
        }
        let row = y * canvas.width;
        let pixels = &mut canvas.px[(row + x0) * 4..(row + x1) * 4];
        if solid {
            let t = brush.texture.texels[0];
            let src = [0, 1, 2, 3].map(|i| mul255(t[i] as u32, brush.tint[i]));
            pixels.chunks_exact_mut(4).for_each(|p| blend(p, src));
            continue;
        }
        let (fx, fy) = (x0 as f32 + 0.5 - a.x, yc - a.y);
        let start = [0, 1, 2, 3].map(|i| aa[i] + dx[i] * fx + dy[i] * fy);
        match (brush.perspective, brush.shaded) {
            (false, false) => span::<false, false>(pixels, start, dx, brush),
            (false, true) => span::<false, true>(pixels, start, dx, brush),
            (true, false) => span::<true, false>(pixels, start, dx, brush),
            (true, true) => span::<true, true>(pixels, start, dx, brush),
        }
    }
}

/// Where the edge from `p` to `q` (sorted, `p.y < q.y`) crosses the row centre `yc`.
#[inline(always)]
fn edge_x(p: &ScreenVertex, q: &ScreenVertex, yc: f32) -> f32 {
    p.x + (yc - p.y) * (q.x - p.x) / (q.y - p.y)
}

/// Floor for texel lookups (`as` truncates toward zero).
#[inline(always)]
fn floor_i32(x: f32) -> i32 {
    let i = x as i32;
    if (i as f32) > x { i - 1 } else { i }
}

#[inline(always)]
fn span<const PERSPECTIVE: bool, const SHADED: bool>(
    pixels: &mut [u8],
    start: [f32; 4],
    d: [f32; 4],
    brush: &Brush,
) {
    let texture = brush.texture;
    let (w, h) = (texture.width as i32, texture.height as i32);
    let tint = brush.tint;
    let [mut uq, mut vq, mut q, mut sq] = start;
    for p in pixels.chunks_exact_mut(4) {
        let (u, v, s) = if PERSPECTIVE {
            let inv = 1.0 / q;
            (uq * inv, vq * inv, sq * inv)
        } else {
            (uq, vq, sq)
        };
        let (tx, ty) = match brush.wrap {
            // Truncation equals floor here: the clamp's lower bound is never negative.
            Wrap::Clamp { x0, y0, x1, y1 } => ((u as i32).clamp(x0, x1), (v as i32).clamp(y0, y1)),
            Wrap::Repeat => (floor_i32(u).rem_euclid(w), floor_i32(v).rem_euclid(h)),
        };
        let t = texture.texels[(ty * w + tx) as usize];
        let mut src = [
            mul255(t[0] as u32, tint[0]),
            mul255(t[1] as u32, tint[1]),
            mul255(t[2] as u32, tint[2]),
            mul255(t[3] as u32, tint[3]),
        ];
        if SHADED {
            // Shade may brighten up to 4x; premultiplied colour never exceeds its alpha.
            let f = (s.clamp(0.0, 4.0) * 256.0) as u32;
            let alpha = src[3];
            for c in &mut src[..3] {
                *c = ((*c * f) >> 8).min(alpha);
            }
        }
        blend(p, src);
        uq += d[0];
        vq += d[1];
        q += d[2];
        sq += d[3];
    }
}

/// Blends a coverage mask (one byte per pixel, `mask_width` wide) in a premultiplied colour,
/// its top-left corner at canvas pixel (`left`, `top`). Parts off the canvas are skipped.
pub(crate) fn fill_mask(
    canvas: &mut Canvas,
    mask: &[u8],
    mask_width: usize,
    left: i64,
    top: i64,
    color: [u32; 4],
) {
    if mask_width == 0 {
        return;
    }
    for (my, mask_row) in mask.chunks_exact(mask_width).enumerate() {
        let y = top + my as i64;
        if y < 0 || y >= canvas.height as i64 {
            continue;
        }
        let mx0 = (-left).clamp(0, mask_width as i64) as usize;
        let mx1 = (canvas.width as i64 - left).clamp(0, mask_width as i64) as usize;
        if mx0 >= mx1 {
            continue;
        }
        let x0 = (left + mx0 as i64) as usize;
        let row = y as usize * canvas.width;
        let pixels = &mut canvas.px[(row + x0) * 4..(row + x0 + mx1 - mx0) * 4];
        for (p, &coverage) in pixels.chunks_exact_mut(4).zip(&mask_row[mx0..mx1]) {
            if coverage != 0 {
                let c = coverage as u32;
                blend(p, color.map(|ch| mul255(ch, c)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: f32, y: f32, u: f32, v: f32, q: f32) -> ScreenVertex {
        ScreenVertex {
            x,
            y,
            u,
            v,
            q,
            shade: 1.0,
        }
    }

    fn plain(tint: [u32; 4]) -> (Texture, [u32; 4]) {
        (Texture::white(), tint)
    }

    fn draw(canvas: &mut Canvas, tris: &[[ScreenVertex; 3]], texture: &Texture, tint: [u32; 4]) {
        let brush = Brush {
            texture,
            wrap: Wrap::Repeat,
            tint,
            perspective: true,
            shaded: false,
        };
        for t in tris {
            fill_triangle(canvas, *t, &brush);
        }
    }

    #[test]
    fn triangles_sharing_an_edge_cover_each_pixel_once() {
        let mut px = vec![0u8; 32 * 32 * 4];
        let mut canvas = Canvas {
            px: &mut px,
            width: 32,
            height: 32,
        };
        // A quad split along a slanted diagonal, drawn half-transparent: a pixel drawn twice
        // would come out darker, a crack would stay empty.
        let (p0, p1, p2, p3) = (
            vertex(3.3, 2.7, 0.0, 0.0, 1.0),
            vertex(29.1, 4.2, 0.0, 0.0, 1.0),
            vertex(27.6, 30.2, 0.0, 0.0, 1.0),
            vertex(1.2, 26.9, 0.0, 0.0, 1.0),
        );
        let (texture, tint) = plain([100, 100, 100, 100]);
        draw(&mut canvas, &[[p0, p1, p2], [p0, p2, p3]], &texture, tint);
        let values: std::collections::BTreeSet<u8> = px.chunks(4).map(|p| p[3]).collect();
        assert_eq!(values, [0, 100].into_iter().collect());
    }

    #[test]
    fn perspective_divides_by_q() {
        let mut texture = Texture::white();
        texture.width = 2;
        texture.texels = vec![[255, 0, 0, 255], [0, 0, 255, 255]];
        let mut px = vec![0u8; 100 * 4];
        let mut canvas = Canvas {
            px: &mut px,
            width: 100,
            height: 1,
        };
        // Near edge (left) at q = 1, far edge at q = 1/3: the near half of the texture is
        // drawn larger, so its halfway point u = 1 lands three quarters of the way across.
        let a = vertex(0.0, -1.0, 0.0, 0.0, 1.0);
        let b = vertex(100.0, -1.0, 2.0, 0.0, 1.0 / 3.0);
        let c = vertex(100.0, 3.0, 2.0, 0.0, 1.0 / 3.0);
        let d = vertex(0.0, 3.0, 0.0, 0.0, 1.0);
        draw(&mut canvas, &[[a, b, c], [a, c, d]], &texture, [255; 4]);
        let first_blue = px.chunks(4).position(|p| p[2] == 255).unwrap();
        assert!((74..=76).contains(&first_blue), "{first_blue}");
    }

    #[test]
    fn masks_clip_at_the_canvas_edges() {
        let mut px = vec![0u8; 4 * 4 * 4];
        let mut canvas = Canvas {
            px: &mut px,
            width: 4,
            height: 4,
        };
        fill_mask(&mut canvas, &[255; 9], 3, -1, 2, [255, 0, 0, 255]);
        fill_mask(&mut canvas, &[255; 9], 3, 10, 10, [255, 0, 0, 255]);
        let red: Vec<usize> = px
            .chunks(4)
            .enumerate()
            .filter(|(_, p)| p[0] == 255)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(red, vec![8, 9, 12, 13]);
    }

    #[test]
    fn premultiplying_ignores_nan_and_clamps() {
        assert_eq!(premultiplied([1.0, 0.5, f32::NAN, 0.5]), [128, 64, 0, 128]);
        assert_eq!(premultiplied([2.0, -1.0, 0.0, 1.0]), [255, 0, 0, 255]);
    }
}
