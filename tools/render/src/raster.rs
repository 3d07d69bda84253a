//! The rasteriser behind sprites and meshes: convex polygons, textured, tinted, optionally
//! shaded and perspective-correct, blended premultiplied into the canvas. A pixel is drawn when
//! its centre is inside; every edge is evaluated from its endpoints in one canonical order, so
//! shapes sharing an edge cover each pixel along it exactly once (no cracks, no double seams).
//! Attributes are screen-space planes; with perspective, `uv*q`, `shade*q` and `q` are.

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

/// Every channel of a packed pixel times `f / 255` (`f` in 0..=255), rounded exactly like
/// [`mul255`]: two channels per multiply, in 16-bit lanes that cannot overflow.
#[inline(always)]
fn scale_packed(p: u32, f: u32) -> u32 {
    let rb = (p & 0x00FF_00FF) * f + 0x0080_0080;
    let ga = ((p >> 8) & 0x00FF_00FF) * f + 0x0080_0080;
    let rb = ((rb + ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF;
    let ga = (ga + ((ga >> 8) & 0x00FF_00FF)) & 0xFF00_FF00;
    rb | ga
}

/// Packs a premultiplied colour into the canvas byte order.
pub(crate) fn pack(c: [u32; 4]) -> u32 {
    u32::from_le_bytes(c.map(|v| v.min(255) as u8))
}

/// Each channel of a packed texel times its own tint channel.
#[inline(always)]
pub(crate) fn tint_packed(t: u32, tint: [u32; 4]) -> u32 {
    mul255(t & 0xFF, tint[0])
        | mul255((t >> 8) & 0xFF, tint[1]) << 8
        | mul255((t >> 16) & 0xFF, tint[2]) << 16
        | mul255(t >> 24, tint[3]) << 24
}

/// Source-over of a packed premultiplied colour onto a canvas pixel. Premultiplied channels
/// never exceed alpha, so `src + dst * (255 - alpha)` stays within each byte.
#[inline(always)]
fn blend(dst: &mut [u8; 4], src: u32) {
    let a = src >> 24;
    if a == 255 {
        *dst = src.to_le_bytes();
    } else if a != 0 {
        let d = u32::from_le_bytes(*dst);
        *dst = (src + scale_packed(d, 255 - a)).to_le_bytes();
    }
}

/// Fills one triangle. Vertices must be finite (callers check and warn); degenerate triangles
/// and anything off the canvas draw nothing.
pub(crate) fn fill_triangle(canvas: &mut Canvas, tri: [ScreenVertex; 3], brush: &Brush) {
    fill_convex(canvas, &tri, brush);
}

/// Fills a parallelogram given corner by corner (a sprite or a nine-slice cell): one span per
/// row instead of two triangles' worth.
pub(crate) fn fill_quad(canvas: &mut Canvas, quad: [ScreenVertex; 4], brush: &Brush) {
    fill_convex(canvas, &quad, brush);
}

/// An edge with its endpoints in canonical order (lower y first, then lower x), so every
/// polygon sharing it computes the same crossings.
struct Edge {
    top: f32,
    bottom: f32,
    x: f32,
    slope: f32,
}

impl Edge {
    fn new(p: &ScreenVertex, q: &ScreenVertex) -> Option<Edge> {
        let (p, q) = if (p.y, p.x) <= (q.y, q.x) {
            (p, q)
        } else {
            (q, p)
        };
        (p.y != q.y).then(|| Edge {
            top: p.y,
            bottom: q.y,
            x: p.x,
            slope: (q.x - p.x) / (q.y - p.y),
        })
    }
}

/// Smallest integer not below `x`, for `x` already clamped to a small range.
#[inline(always)]
fn ceil_i32(x: f32) -> i32 {
    let i = x as i32;
    if (i as f32) < x { i + 1 } else { i }
}

/// Fills a convex polygon of three or four corners whose attributes are one plane (any
/// triangle; a parallelogram with affine texture coordinates).
fn fill_convex(canvas: &mut Canvas, v: &[ScreenVertex], brush: &Brush) {
    let [a, b, c] = [&v[0], &v[1], &v[2]];
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
    let (aa, ab, ac) = (attrs(a), attrs(b), attrs(c));
    let mut dx = [0.0f32; 4];
    let mut dy = [0.0f32; 4];
    for i in 0..4 {
        let (d1, d2) = (ab[i] - aa[i], ac[i] - aa[i]);
        dx[i] = (d1 * (c.y - a.y) - d2 * (b.y - a.y)) / det;
        dy[i] = (d2 * (b.x - a.x) - d1 * (c.x - a.x)) / det;
    }
    let mut edges = [const { None }; 4];
    for (i, e) in edges.iter_mut().enumerate().take(v.len()) {
        *e = Edge::new(&v[i], &v[(i + 1) % v.len()]);
    }
    let (mut y_min, mut y_max) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in v {
        y_min = y_min.min(p.y);
        y_max = y_max.max(p.y);
    }

    let height = canvas.height as f32;
    let width = canvas.width as f32;
    let y_start = ceil_i32((y_min - 0.5).clamp(0.0, height)) as usize;
    let y_end = ceil_i32((y_max - 0.5).clamp(0.0, height)) as usize;
    let solid = brush.texture.texels.len() == 1 && !brush.shaded;
    let tinted = brush.tint != [255; 4];
    let clamp = matches!(brush.wrap, Wrap::Clamp { .. });
    for y in y_start..y_end {
        let yc = y as f32 + 0.5;
        let (mut left, mut right) = (f32::INFINITY, f32::NEG_INFINITY);
        for e in edges.iter().flatten() {
            if e.top <= yc && yc < e.bottom {
                let x = e.x + (yc - e.top) * e.slope;
                left = left.min(x);
                right = right.max(x);
            }
        }
        if left >= right {
            continue;
        }
        let x0 = ceil_i32((left - 0.5).clamp(0.0, width)) as usize;
        let x1 = ceil_i32((right - 0.5).clamp(0.0, width)) as usize;
        if x0 >= x1 {
            continue;
        }
        let row = y * canvas.width;
        let (pixels, _) = canvas.px[(row + x0) * 4..(row + x1) * 4].as_chunks_mut::<4>();
        if solid {
            let src = tint_packed(brush.texture.texels[0], brush.tint);
            pixels.iter_mut().for_each(|p| blend(p, src));
            continue;
        }
        let (fx, fy) = (x0 as f32 + 0.5 - a.x, yc - a.y);
        let start = [
            aa[0] + dx[0] * fx + dy[0] * fy,
            aa[1] + dx[1] * fx + dy[1] * fy,
            aa[2] + dx[2] * fx + dy[2] * fy,
            aa[3] + dx[3] * fx + dy[3] * fy,
        ];
        match (brush.perspective, brush.shaded) {
            (false, false) => span_kind::<false, false>(pixels, start, dx, brush, clamp, tinted),
            (false, true) => span_kind::<false, true>(pixels, start, dx, brush, clamp, tinted),
            (true, false) => span_kind::<true, false>(pixels, start, dx, brush, clamp, tinted),
            (true, true) => span_kind::<true, true>(pixels, start, dx, brush, clamp, tinted),
        }
    }
}

/// Picks the span loop specialised for this brush, so the per-pixel loop has no mode tests.
#[inline(always)]
fn span_kind<const PERSPECTIVE: bool, const SHADED: bool>(
    pixels: &mut [[u8; 4]],
    start: [f32; 4],
    d: [f32; 4],
    brush: &Brush,
    clamp: bool,
    tinted: bool,
) {
    if clamp
        && !PERSPECTIVE
        && !SHADED
        && let Some(fixed) = Fixed::new(start, d, pixels.len())
    {
        return match tinted {
            true => affine_span::<true>(pixels, fixed, brush),
            false => affine_span::<false>(pixels, fixed, brush),
        };
    }
    match (clamp, tinted) {
        (true, true) => span::<PERSPECTIVE, SHADED, true, true>(pixels, start, d, brush),
        (true, false) => span::<PERSPECTIVE, SHADED, true, false>(pixels, start, d, brush),
        (false, true) => span::<PERSPECTIVE, SHADED, false, true>(pixels, start, d, brush),
        (false, false) => span::<PERSPECTIVE, SHADED, false, false>(pixels, start, d, brush),
    }
}

/// The general loop: texels gathered (with perspective, tint and shade as the brush asks) into
/// a small buffer, then blended in one pass.
fn span<const PERSPECTIVE: bool, const SHADED: bool, const CLAMP: bool, const TINTED: bool>(
    pixels: &mut [[u8; 4]],
    start: [f32; 4],
    d: [f32; 4],
    brush: &Brush,
) {
    let texture = brush.texture;
    let texels = &texture.texels[..];
    let (w, h) = (texture.width as i32, texture.height as i32);
    let (cx0, cy0, cx1, cy1) = match brush.wrap {
        Wrap::Clamp { x0, y0, x1, y1 } => (x0, y0, x1, y1),
        Wrap::Repeat => (0, 0, w - 1, h - 1),
    };
    let pow2 = w & (w - 1) == 0 && h & (h - 1) == 0;
    let tint = brush.tint;
    let [mut uq, mut vq, mut q, mut sq] = start;
    let mut buf = [0u32; CHUNK];
    for chunk in pixels.chunks_mut(CHUNK) {
        let src = &mut buf[..chunk.len()];
        for out in src.iter_mut() {
            let (u, v, s) = if PERSPECTIVE {
                let inv = 1.0 / q;
                (uq * inv, vq * inv, sq * inv)
            } else {
                (uq, vq, sq)
            };
            uq += d[0];
            vq += d[1];
            q += d[2];
            sq += d[3];
            let (tx, ty) = if CLAMP {
                // Truncation equals floor here: the clamp's lower bound is never negative.
                ((u as i32).clamp(cx0, cx1), (v as i32).clamp(cy0, cy1))
            } else {
                // 16.16 then an arithmetic shift: a floor without a compare.
                let (fu, fv) = ((u * 65536.0) as i64 >> 16, (v * 65536.0) as i64 >> 16);
                if pow2 {
                    ((fu & (w as i64 - 1)) as i32, (fv & (h as i64 - 1)) as i32)
                } else {
                    (
                        fu.rem_euclid(w as i64) as i32,
                        fv.rem_euclid(h as i64) as i32,
                    )
                }
            };
            let t = texels[(ty * w + tx) as usize];
            let mut c = if TINTED { tint_packed(t, tint) } else { t };
            if SHADED {
                // Shade may brighten up to 4x; premultiplied colour never exceeds its alpha.
                let f = (s.clamp(0.0, 4.0) * 256.0) as u32;
                let a = c >> 24;
                if f <= 256 {
                    // Darkening: red and blue in one multiply, and nothing can pass alpha.
                    let rb = (((c & 0x00FF_00FF) * f) >> 8) & 0x00FF_00FF;
                    let g = ((((c >> 8) & 0xFF) * f) >> 8) << 8;
                    c = rb | g | (a << 24);
                } else {
                    let ch = |shift: u32| ((((c >> shift) & 0xFF) * f) >> 8).min(a) << shift;
                    c = ch(0) | ch(8) | ch(16) | (a << 24);
                }
            }
            *out = c;
        }
        blend_span(chunk, src);
    }
}

/// Pixels are shaded into a buffer this long, then blended in one branch-free pass.
const CHUNK: usize = 64;

/// Source-over of each colour onto its pixel, written without branches so it vectorises.
/// Exact for every alpha: alpha 255 keeps none of the pixel, alpha 0 all of it.
#[inline(always)]
fn blend_span(pixels: &mut [[u8; 4]], src: &[u32]) {
    for (p, &s) in pixels.iter_mut().zip(src) {
        let d = u32::from_le_bytes(*p);
        *p = (s + scale_packed(d, 255 - (s >> 24))).to_le_bytes();
    }
}

/// Texel coordinates of an affine span in 16.16 fixed point, when they fit.
struct Fixed {
    u: i64,
    v: i64,
    du: i64,
    dv: i64,
}

impl Fixed {
    const ONE: f32 = 65536.0;
    /// Coordinates beyond this many texels (anywhere along the span) stay in floating point.
    const LIMIT: f32 = 16_000.0;

    fn new(start: [f32; 4], d: [f32; 4], len: usize) -> Option<Fixed> {
        let end = [start[0] + d[0] * len as f32, start[1] + d[1] * len as f32];
        let fits = [start[0], start[1], end[0], end[1]]
            .iter()
            .all(|v| v.abs() < Self::LIMIT);
        // Steps within a rounding error of "one texel per pixel, along the row" are taken as
        // exactly that (over a whole span the difference stays far below a texel), so the
        // common unrotated, unscaled sprite takes the row-copy path.
        let snap = |step: f32, to: i64| {
            let fixed = (step * Self::ONE) as i64;
            if (fixed - to).abs() <= 2 { to } else { fixed }
        };
        fits.then(|| Fixed {
            u: (start[0] * Self::ONE) as i64,
            v: (start[1] * Self::ONE) as i64,
            du: snap(d[0], 1 << 16),
            dv: snap(d[1], 0),
        })
    }
}

/// The sprite loop: affine, clamped, unshaded, stepping texel coordinates in fixed point.
fn affine_span<const TINTED: bool>(pixels: &mut [[u8; 4]], f: Fixed, brush: &Brush) {
    let texture = brush.texture;
    let texels = &texture.texels[..];
    let w = texture.width as i64;
    let Wrap::Clamp { x0, y0, x1, y1 } = brush.wrap else {
        return;
    };
    let (x0, y0, x1, y1) = (x0 as i64, y0 as i64, x1 as i64, y1 as i64);
    let (mut u, mut v) = (f.u, f.v);
    let mut buf = [0u32; CHUNK];
    if f.dv == 0 {
        // One texture row for the whole span (an unrotated sprite).
        let ty = (v >> 16).clamp(y0, y1);
        let row = &texels[(ty * w) as usize..((ty + 1) * w) as usize];
        let first = u >> 16;
        let last = (u + f.du * (pixels.len() as i64 - 1)) >> 16;
        if !TINTED && f.du == 1 << 16 && first >= x0 && last <= x1 {
            // Texel for pixel: blend straight from the texture.
            return blend_span(pixels, &row[first as usize..=last as usize]);
        }
        for chunk in pixels.chunks_mut(CHUNK) {
            let src = &mut buf[..chunk.len()];
            for s in src.iter_mut() {
                let t = row[(u >> 16).clamp(x0, x1) as usize];
                u += f.du;
                *s = if TINTED {
                    tint_packed(t, brush.tint)
                } else {
                    t
                };
            }
            blend_span(chunk, src);
        }
        return;
    }
    for chunk in pixels.chunks_mut(CHUNK) {
        let src = &mut buf[..chunk.len()];
        for s in src.iter_mut() {
            let tx = (u >> 16).clamp(x0, x1);
            let ty = (v >> 16).clamp(y0, y1);
            u += f.du;
            v += f.dv;
            let t = texels[(ty * w + tx) as usize];
            *s = if TINTED {
                tint_packed(t, brush.tint)
            } else {
                t
            };
        }
        blend_span(chunk, src);
    }
}

/// Blends a coverage mask (one byte per pixel, `mask_width` wide) in a packed premultiplied
/// colour, its top-left corner at canvas pixel (`left`, `top`). Parts off the canvas are skipped.
pub(crate) fn fill_mask(
    canvas: &mut Canvas,
    mask: &[u8],
    mask_width: usize,
    left: i64,
    top: i64,
    color: u32,
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
        let (pixels, _) =
            canvas.px[(row + x0) * 4..(row + x0 + mx1 - mx0) * 4].as_chunks_mut::<4>();
        for (p, &coverage) in pixels.iter_mut().zip(&mask_row[mx0..mx1]) {
            if coverage == 255 {
                blend(p, color);
            } else if coverage != 0 {
                blend(p, scale_packed(color, coverage as u32));
            }
        }
    }
}

/// Blends a premultiplied RGBA8 image (a colour glyph) with its top-left pixel at (`left`,
/// `top`), every channel faded by `alpha / 255`, mirrored left to right and top to bottom as
/// `mirror` says. Parts off the canvas are skipped.
pub(crate) fn fill_image(
    canvas: &mut Canvas,
    rgba: &[u8],
    image_width: usize,
    [left, top]: [i64; 2],
    alpha: u32,
    mirror: [bool; 2],
) {
    if image_width == 0 || alpha == 0 {
        return;
    }
    let alpha = alpha.min(255);
    let (texels, _) = rgba.as_chunks::<4>();
    let rows = texels.len() / image_width;
    let ix0 = (-left).clamp(0, image_width as i64) as usize;
    let ix1 = (canvas.width as i64 - left).clamp(0, image_width as i64) as usize;
    if ix0 >= ix1 {
        return;
    }
    let x0 = (left + ix0 as i64) as usize;
    for iy in 0..rows {
        let y = top + iy as i64;
        if y < 0 || y >= canvas.height as i64 {
            continue;
        }
        let source_row = if mirror[1] { rows - 1 - iy } else { iy };
        let row = &texels[source_row * image_width..(source_row + 1) * image_width];
        let at = y as usize * canvas.width + x0;
        let (pixels, _) = canvas.px[at * 4..(at + ix1 - ix0) * 4].as_chunks_mut::<4>();
        let put = |p: &mut [u8; 4], t: &[u8; 4]| {
            let src = u32::from_le_bytes(*t);
            blend(
                p,
                if alpha == 255 {
                    src
                } else {
                    scale_packed(src, alpha)
                },
            );
        };
        if mirror[0] {
            let source = &row[image_width - ix1..image_width - ix0];
            pixels
                .iter_mut()
                .zip(source.iter().rev())
                .for_each(|(p, t)| put(p, t));
        } else {
            pixels
                .iter_mut()
                .zip(&row[ix0..ix1])
                .for_each(|(p, t)| put(p, t));
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
    fn quads_sharing_edges_cover_each_pixel_once() {
        let mut px = vec![0u8; 40 * 40 * 4];
        let mut canvas = Canvas {
            px: &mut px,
            width: 40,
            height: 40,
        };
        // A 3x3 grid of cells (a nine-slice) through a rotation, half-transparent.
        let (sin, cos) = 0.4f32.sin_cos();
        let at = |i: usize, j: usize| {
            let (x, y) = ([-14.0, -5.5, 6.25, 14.0][i], [-13.0, -2.0, 7.5, 13.0][j]);
            vertex(
                20.0 + x * cos - y * sin,
                20.0 + x * sin + y * cos,
                0.0,
                0.0,
                1.0,
            )
        };
        let texture = Texture::white();
        let brush = Brush {
            texture: &texture,
            wrap: Wrap::Clamp {
                x0: 0,
                y0: 0,
                x1: 0,
                y1: 0,
            },
            tint: [100, 100, 100, 100],
            perspective: false,
            shaded: false,
        };
        for j in 0..3 {
            for i in 0..3 {
                let quad = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
                fill_quad(&mut canvas, quad, &brush);
            }
        }
        let values: std::collections::BTreeSet<u8> = px.chunks(4).map(|p| p[3]).collect();
        assert_eq!(values, [0, 100].into_iter().collect());
    }

    #[test]
    fn perspective_divides_by_q() {
        let mut texture = Texture::white();
        texture.width = 2;
        texture.texels = vec![pack([255, 0, 0, 255]), pack([0, 0, 255, 255])];
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
        fill_mask(&mut canvas, &[255; 9], 3, -1, 2, pack([255, 0, 0, 255]));
        fill_mask(&mut canvas, &[255; 9], 3, 10, 10, pack([255, 0, 0, 255]));
        let red: Vec<usize> = px
            .chunks(4)
            .enumerate()
            .filter(|(_, p)| p[0] == 255)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(red, vec![8, 9, 12, 13]);
    }

    #[test]
    fn images_clip_at_the_canvas_edges_fade_by_alpha_and_mirror() {
        let mut px = vec![0u8; 4 * 4 * 4];
        let mut canvas = Canvas {
            px: &mut px,
            width: 4,
            height: 4,
        };
        let image: Vec<u8> = [[200, 0, 0, 200]; 9].concat();
        fill_image(&mut canvas, &image, 3, [-1, 2], 255, [false; 2]);
        fill_image(&mut canvas, &image, 3, [3, -2], 128, [false; 2]);
        fill_image(&mut canvas, &image, 3, [10, 10], 255, [false; 2]);
        let drawn: Vec<(usize, u8)> = px
            .chunks(4)
            .enumerate()
            .filter(|(_, p)| p[3] != 0)
            .map(|(i, p)| (i, p[0]))
            .collect();
        assert_eq!(
            drawn,
            vec![(3, 100), (8, 200), (9, 200), (12, 200), (13, 200)]
        );
        // A 2x2 image of four reds, mirrored each way.
        let image: Vec<u8> = [
            [10, 0, 0, 255],
            [20, 0, 0, 255],
            [30, 0, 0, 255],
            [40, 0, 0, 255],
        ]
        .concat();
        for (mirror, want) in [
            ([false, false], [10, 20, 30, 40]),
            ([true, false], [20, 10, 40, 30]),
            ([false, true], [30, 40, 10, 20]),
            ([true, true], [40, 30, 20, 10]),
        ] {
            let mut px = vec![0u8; 2 * 2 * 4];
            let mut canvas = Canvas {
                px: &mut px,
                width: 2,
                height: 2,
            };
            fill_image(&mut canvas, &image, 2, [0, 0], 255, mirror);
            let reds: Vec<u8> = px.chunks(4).map(|p| p[0]).collect();
            assert_eq!(reds, want, "{mirror:?}");
        }
    }

    #[test]
    fn packed_scaling_matches_per_channel_rounding() {
        for f in [0, 1, 77, 128, 254, 255] {
            for c in [0u32, 1, 100, 128, 200, 255] {
                let p = pack([c, 255 - c, c / 2, 255]);
                let want = pack([mul255(c, f), mul255(255 - c, f), mul255(c / 2, f), f]);
                assert_eq!(scale_packed(p, f), want, "c {c} f {f}");
            }
        }
    }

    #[test]
    fn premultiplying_ignores_nan_and_clamps() {
        assert_eq!(premultiplied([1.0, 0.5, f32::NAN, 0.5]), [128, 64, 0, 128]);
        assert_eq!(premultiplied([2.0, -1.0, 0.0, 1.0]), [255, 0, 0, 255]);
    }
}
