//! Seeded noise for paper, stone, wood and lacquer: an integer hash of the lattice point, so
//! the same seed gives the same texture on every machine (no random number generator state,
//! no floating-point transcendental functions).

use crate::paint::{mix, smoothstep};

/// A value in 0..1 fixed by the lattice point and the seed (a SplitMix64-style mix).
pub fn hash(x: i64, y: i64, seed: u64) -> f64 {
    let mut h = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ seed.wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Smooth value noise in 0..1 with features about `cell` texels across.
pub fn value(x: f64, y: f64, cell: f64, seed: u64) -> f64 {
    let fx = x / cell;
    let fy = y / cell;
    let ix = fx.floor();
    let iy = fy.floor();
    let tx = smoothstep(0.0, 1.0, fx - ix);
    let ty = smoothstep(0.0, 1.0, fy - iy);
    let (ix, iy) = (ix as i64, iy as i64);
    let top = mix(hash(ix, iy, seed), hash(ix + 1, iy, seed), tx);
    let bottom = mix(hash(ix, iy + 1, seed), hash(ix + 1, iy + 1, seed), tx);
    mix(top, bottom, ty)
}

/// Three octaves of value noise, centred on 0 (about -0.5..0.5), features from `cell` down.
pub fn fbm(x: f64, y: f64, cell: f64, seed: u64) -> f64 {
    let a = value(x, y, cell, seed);
    let b = value(x, y, cell / 2.0, seed.wrapping_add(1));
    let c = value(x, y, cell / 4.0, seed.wrapping_add(2));
    (a * 4.0 + b * 2.0 + c) / 7.0 - 0.5
}

/// A short straight fibre: a segment from `a` to `b`.
#[derive(Clone, Copy, Debug)]
pub struct Fibre {
    /// One end.
    pub a: [f64; 2],
    /// The other end.
    pub b: [f64; 2],
    /// Lighter (positive) or darker (negative) than the paper, -1..1.
    pub tone: f64,
}

impl Fibre {
    /// Distance from the segment.
    pub fn distance(&self, x: f64, y: f64) -> f64 {
        let (dx, dy) = (self.b[0] - self.a[0], self.b[1] - self.a[1]);
        let (px, py) = (x - self.a[0], y - self.a[1]);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 {
            0.0
        } else {
            ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
        };
        let (ex, ey) = (px - dx * t, py - dy * t);
        (ex * ex + ey * ey).sqrt()
    }
}

/// `count` fibres scattered over `[x0, y0, x1, y1]`, each `min_len..max_len` long, pointing
/// any way (directions come from the hash, normalised with `sqrt`, not from `sin`/`cos`).
pub fn fibres(area: [f64; 4], count: u32, min_len: f64, max_len: f64, seed: u64) -> Vec<Fibre> {
    let [x0, y0, x1, y1] = area;
    (0..count as i64)
        .map(|i| {
            let cx = mix(x0, x1, hash(i, 0, seed));
            let cy = mix(y0, y1, hash(i, 1, seed));
            let mut dx = hash(i, 2, seed) * 2.0 - 1.0;
            let mut dy = hash(i, 3, seed) * 2.0 - 1.0;
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            let half = mix(min_len, max_len, hash(i, 4, seed)) / 2.0;
            dx = dx / len * half;
            dy = dy / len * half;
            Fibre {
                a: [cx - dx, cy - dy],
                b: [cx + dx, cy + dy],
                tone: hash(i, 5, seed) * 2.0 - 1.0,
            }
        })
        .collect()
}
