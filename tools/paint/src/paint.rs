//! A float RGBA canvas and the shapes the textures are built from.
//! Every shape is a signed distance (negative inside, in texels), so anti-aliasing is one
//! clamp of the distance at each pixel centre. Only `+ - * /`, `sqrt` and rounding are used:
//! IEEE makes those exact on every machine, which is what keeps the PNGs byte-identical.

/// A colour with straight (not premultiplied) alpha, each channel 0..1.
pub type Rgba = [f64; 4];

/// An image being painted: straight RGBA in 0..1, top row first.
#[derive(Clone, Debug)]
pub struct Image {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// `width × height` pixels, row by row.
    pub pixels: Vec<Rgba>,
}

impl Image {
    /// A fully transparent image.
    pub fn new(width: u32, height: u32) -> Image {
        Image {
            width,
            height,
            pixels: vec![[0.0; 4]; width as usize * height as usize],
        }
    }

    /// Lays a layer over the image: `paint` gets each pixel's centre and returns the layer's
    /// colour there (its alpha is the layer's coverage), composited source-over.
    pub fn layer(&mut self, paint: impl Fn(f64, f64) -> Rgba) {
        for y in 0..self.height {
            for x in 0..self.width {
                let src = paint(x as f64 + 0.5, y as f64 + 0.5);
                let i = (y * self.width + x) as usize;
                self.pixels[i] = over(self.pixels[i], src);
            }
        }
    }

    /// Changes each pixel in place, given its centre.
    pub fn adjust(&mut self, change: impl Fn(f64, f64, Rgba) -> Rgba) {
        for y in 0..self.height {
            for x in 0..self.width {
                let i = (y * self.width + x) as usize;
                self.pixels[i] = change(x as f64 + 0.5, y as f64 + 0.5, self.pixels[i]);
            }
        }
    }

    /// The pixel at `(x, y)`; transparent outside the image.
    pub fn get(&self, x: i64, y: i64) -> Rgba {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return [0.0; 4];
        }
        self.pixels[(y as u32 * self.width + x as u32) as usize]
    }

    /// Straight RGBA8, each channel rounded to the nearest step.
    pub fn to_rgba8(&self) -> Vec<u8> {
        self.pixels.iter().flat_map(|p| p.map(to_u8)).collect()
    }
}

/// Source-over in straight alpha. Where both are clear the source's colour is kept, so a
/// white glow stays white (and grey in the PNG) out to its invisible rim.
pub fn over(dst: Rgba, src: Rgba) -> Rgba {
    let sa = clamp01(src[3]);
    if sa <= 0.0 {
        return if dst[3] > 0.0 {
            dst
        } else {
            [src[0], src[1], src[2], 0.0]
        };
    }
    let da = dst[3] * (1.0 - sa);
    let a = sa + da;
    let mut out = [0.0, 0.0, 0.0, a];
    for c in 0..3 {
        out[c] = (src[c] * sa + dst[c] * da) / a;
    }
    out
}

/// A channel in 0..1 as a byte.
pub fn to_u8(v: f64) -> u8 {
    (clamp01(v) * 255.0).round() as u8
}

/// `v` held to 0..1.
pub fn clamp01(v: f64) -> f64 {
    v.clamp(0.0, 1.0)
}

/// Linear blend of two values.
pub fn mix(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// Linear blend of two colours (alpha included).
pub fn mix_rgba(a: Rgba, b: Rgba, t: f64) -> Rgba {
    [
        mix(a[0], b[0], t),
        mix(a[1], b[1], t),
        mix(a[2], b[2], t),
        mix(a[3], b[3], t),
    ]
}

/// Hermite step from 0 at `e0` to 1 at `e1`.
pub fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = clamp01((x - e0) / (e1 - e0));
    t * t * (3.0 - 2.0 * t)
}

/// How much of a pixel a shape covers, from its signed distance at the pixel centre.
pub fn coverage(distance: f64) -> f64 {
    clamp01(0.5 - distance)
}

/// Coverage of a line of `width` texels running along a shape's outline.
pub fn outline(distance: f64, width: f64) -> f64 {
    coverage(distance.abs() - width / 2.0)
}

/// A colour from 0..255 sRGB bytes, opaque.
pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
    [r as f64 / 255.0, g as f64 / 255.0, b as f64 / 255.0, 1.0]
}

/// The colour with its alpha replaced.
pub fn with_alpha(c: Rgba, a: f64) -> Rgba {
    [c[0], c[1], c[2], a]
}

/// Every channel but alpha scaled by `k` (above 1 lightens towards white's direction).
pub fn shade(c: Rgba, k: f64) -> Rgba {
    [c[0] * k, c[1] * k, c[2] * k, c[3]]
}

/// Moves a colour towards white (`t > 0`) or black (`t < 0`).
pub fn light(c: Rgba, t: f64) -> Rgba {
    if t >= 0.0 {
        [
            mix(c[0], 1.0, t),
            mix(c[1], 1.0, t),
            mix(c[2], 1.0, t),
            c[3],
        ]
    } else {
        shade(c, 1.0 + t)
    }
}

/// Signed distance to a box centred on `centre` with half-sizes `half` and corners of `radius`.
pub fn rounded_box(x: f64, y: f64, centre: [f64; 2], half: [f64; 2], radius: f64) -> f64 {
    let qx = (x - centre[0]).abs() - (half[0] - radius);
    let qy = (y - centre[1]).abs() - (half[1] - radius);
    let ox = qx.max(0.0);
    let oy = qy.max(0.0);
    (ox * ox + oy * oy).sqrt() + qx.max(qy).min(0.0) - radius
}

/// Distance from the centre of a circle.
pub fn radius(x: f64, y: f64, centre: [f64; 2]) -> f64 {
    let dx = x - centre[0];
    let dy = y - centre[1];
    (dx * dx + dy * dy).sqrt()
}

/// A box given by its edges `[left, top, right, bottom]` and corner radius.
#[derive(Clone, Copy, Debug)]
pub struct RoundedBox {
    /// `[left, top, right, bottom]`.
    pub edges: [f64; 4],
    /// The corners' radius.
    pub radius: f64,
}

impl RoundedBox {
    /// The box with these edges and corner radius.
    pub fn new(edges: [f64; 4], radius: f64) -> RoundedBox {
        RoundedBox { edges, radius }
    }

    /// The same box grown by `by` texels on every side (shrunk when negative).
    pub fn grow(self, by: f64) -> RoundedBox {
        let [l, t, r, b] = self.edges;
        RoundedBox {
            edges: [l - by, t - by, r + by, b + by],
            radius: (self.radius + by).max(0.0),
        }
    }

    /// The same box moved by `(dx, dy)`.
    pub fn shift(self, dx: f64, dy: f64) -> RoundedBox {
        let [l, t, r, b] = self.edges;
        RoundedBox {
            edges: [l + dx, t + dy, r + dx, b + dy],
            radius: self.radius,
        }
    }

    /// Signed distance from the box's outline (negative inside).
    pub fn distance(&self, x: f64, y: f64) -> f64 {
        let [l, t, r, b] = self.edges;
        rounded_box(
            x,
            y,
            [(l + r) / 2.0, (t + b) / 2.0],
            [(r - l) / 2.0, (b - t) / 2.0],
            self.radius,
        )
    }

    /// The outward direction of the outline nearest `(x, y)`, as a unit vector (y down).
    pub fn normal(&self, x: f64, y: f64) -> [f64; 2] {
        let e = 0.25;
        let gx = self.distance(x + e, y) - self.distance(x - e, y);
        let gy = self.distance(x, y + e) - self.distance(x, y - e);
        let len = (gx * gx + gy * gy).sqrt();
        if len == 0.0 {
            [0.0, 0.0]
        } else {
            [gx / len, gy / len]
        }
    }
}

/// The light falls from the upper left, as on every texture painted with this kit: how much an outline
/// whose outward normal is `n` faces it (1 facing, -1 turned away).
pub fn facing_light(n: [f64; 2]) -> f64 {
    // (-0.6, -0.8): up and a little left, a unit vector.
    -(n[0] * 0.6 + n[1] * 0.8)
}

/// Approximate signed distance to an axis-aligned ellipse with radii `r` about `centre`: the
/// implicit function over its gradient, exact on the outline (where anti-aliasing needs it).
pub fn ellipse(x: f64, y: f64, centre: [f64; 2], r: [f64; 2]) -> f64 {
    let (dx, dy) = (x - centre[0], y - centre[1]);
    let (ax, ay) = (dx / r[0], dy / r[1]);
    let f = ax * ax + ay * ay - 1.0;
    let (gx, gy) = (2.0 * dx / (r[0] * r[0]), 2.0 * dy / (r[1] * r[1]));
    let g = (gx * gx + gy * gy).sqrt();
    if g < 1e-9 {
        return -r[0].min(r[1]);
    }
    (f / g).max(-r[0].min(r[1]))
}

/// Distance from the segment `a`–`b` (a capsule of radius `w` is this minus `w`).
pub fn segment(x: f64, y: f64, a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let (px, py) = (x - a[0], y - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
    };
    let (ex, ey) = (px - dx * t, py - dy * t);
    (ex * ex + ey * ey).sqrt()
}

/// Signed distance to a closed polygon (any simple outline, either winding): the distance to
/// its nearest edge, negative inside by the even-odd crossing rule.
pub fn polygon(x: f64, y: f64, points: &[[f64; 2]]) -> f64 {
    let n = points.len();
    if n == 0 {
        return f64::INFINITY;
    }
    let mut best = f64::INFINITY;
    let mut inside = false;
    for i in 0..n {
        let a = points[i];
        let b = points[(i + 1) % n];
        best = best.min(segment(x, y, a, b));
        if (a[1] > y) != (b[1] > y) {
            let cross = a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if x < cross {
                inside = !inside;
            }
        }
    }
    if inside { -best } else { best }
}
