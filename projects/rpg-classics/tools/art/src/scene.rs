//! What the town's pictures are built from: a room in one-point perspective, boxes standing in
//! it, lights that fall off smoothly, and small props (flames, candles, barrels).
//!
//! Everything in a room is placed in back-wall coordinates at a depth `z`: 1 on the back wall,
//! 0.5 twice as near (so twice as large). [`Room::at`] takes such a point to the picture, and
//! [`Room::surface`] takes a pixel back to the wall, floor or ceiling it shows, so floors,
//! beams and windows line up with the boxes drawn over them.

use crate::paint::{
    Rgba, coverage, ellipse, light, mix_rgba, outline, over, polygon, radius, rgb, segment, shade,
    smoothstep, with_alpha,
};

/// A room seen from its open front: the back wall's rectangle in the picture and the point
/// every line running away from the viewer meets at.
#[derive(Clone, Copy, Debug)]
pub struct Room {
    /// The back wall, `[left, top, right, bottom]` in pixels.
    pub back: [f64; 4],
    /// The vanishing point, inside the back wall (the eye's height and direction).
    pub vp: [f64; 2],
}

/// What a pixel of the room shows, in that surface's own coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Surface {
    /// The back wall at `(u, v)`, in pixels.
    Back {
        /// Across, in back-wall pixels.
        u: f64,
        /// Up, in back-wall pixels.
        v: f64,
    },
    /// The floor at across-position `u` (back-wall pixels) and depth `z`.
    Floor {
        /// Across, in back-wall pixels.
        u: f64,
        /// Depth.
        z: f64,
    },
    /// The ceiling, the same way.
    Ceiling {
        /// Across, in back-wall pixels.
        u: f64,
        /// Depth.
        z: f64,
    },
    /// The left wall at height `v` (back-wall pixels) and depth `z`.
    Left {
        /// Height, in back-wall pixels.
        v: f64,
        /// Depth.
        z: f64,
    },
    /// The right wall, the same way.
    Right {
        /// Height, in back-wall pixels.
        v: f64,
        /// Depth.
        z: f64,
    },
}

impl Room {
    /// The picture position of the back-wall point `p` brought forward to depth `z`.
    pub fn at(&self, z: f64, p: [f64; 2]) -> [f64; 2] {
        [
            self.vp[0] + (p[0] - self.vp[0]) / z,
            self.vp[1] + (p[1] - self.vp[1]) / z,
        ]
    }

    /// The floor's height on the back wall: a thing `h` tall standing anywhere reaches
    /// `floor() - h` in back-wall coordinates.
    pub fn floor(&self) -> f64 {
        self.back[3]
    }

    /// The surface the pixel centre `(x, y)` shows.
    pub fn surface(&self, x: f64, y: f64) -> Surface {
        let [l, t, r, b] = self.back;
        let (dx, dy) = (x - self.vp[0], y - self.vp[1]);
        let sx = if dx < 0.0 {
            -dx / (self.vp[0] - l)
        } else {
            dx / (r - self.vp[0])
        };
        let sy = if dy < 0.0 {
            -dy / (self.vp[1] - t)
        } else {
            dy / (b - self.vp[1])
        };
        let s = sx.max(sy);
        if s <= 1.0 {
            return Surface::Back { u: x, v: y };
        }
        let z = 1.0 / s;
        let (u, v) = (self.vp[0] + dx * z, self.vp[1] + dy * z);
        if sx >= sy {
            if dx < 0.0 {
                Surface::Left { v, z }
            } else {
                Surface::Right { v, z }
            }
        } else if dy > 0.0 {
            Surface::Floor { u, z }
        } else {
            Surface::Ceiling { u, z }
        }
    }
}

/// A box standing in a room: across `u`, up `h` from the floor, and from depth `z[0]` (near)
/// to `z[1]` (far), all in back-wall pixels.
#[derive(Clone, Copy, Debug)]
pub struct Cuboid {
    /// Left and right, in back-wall pixels.
    pub u: [f64; 2],
    /// Bottom and top above the floor, in back-wall pixels.
    pub h: [f64; 2],
    /// Near and far depth.
    pub z: [f64; 2],
}

/// Which face of a box a polygon is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// Facing the viewer.
    Front,
    /// Facing up (seen when the box is below the eye).
    Top,
    /// Facing the middle of the room from the left or right.
    Side,
}

impl Cuboid {
    /// The faces the viewer sees, back to front, each as its four picture corners.
    pub fn faces(&self, room: &Room) -> Vec<(Face, [[f64; 2]; 4])> {
        let [u0, u1] = self.u;
        let [z0, z1] = self.z;
        let (v0, v1) = (room.floor() - self.h[0], room.floor() - self.h[1]);
        let p = |z: f64, u: f64, v: f64| room.at(z, [u, v]);
        let mut faces = Vec::new();
        if v1 > room.vp[1] {
            faces.push((
                Face::Top,
                [p(z1, u0, v1), p(z1, u1, v1), p(z0, u1, v1), p(z0, u0, v1)],
            ));
        }
        if u0 > room.vp[0] {
            faces.push((
                Face::Side,
                [p(z1, u0, v1), p(z0, u0, v1), p(z0, u0, v0), p(z1, u0, v0)],
            ));
        }
        if u1 < room.vp[0] {
            faces.push((
                Face::Side,
                [p(z1, u1, v1), p(z0, u1, v1), p(z0, u1, v0), p(z1, u1, v0)],
            ));
        }
        faces.push((
            Face::Front,
            [p(z0, u0, v1), p(z0, u1, v1), p(z0, u1, v0), p(z0, u0, v0)],
        ));
        faces
    }

    /// Lays the box over `c`: each face in `colour(face)`, lit tops, shaded sides, thin dark
    /// edges.
    pub fn lay(&self, room: &Room, c: Rgba, x: f64, y: f64, colour: impl Fn(Face) -> Rgba) -> Rgba {
        let mut c = c;
        for (face, quad) in self.faces(room) {
            let d = polygon(x, y, &quad);
            let tone = match face {
                Face::Top => 1.15,
                Face::Front => 1.0,
                Face::Side => 0.7,
            };
            c = mix_rgba(c, shade(colour(face), tone), coverage(d));
            c = mix_rgba(c, INK, outline(d, 0.8) * 0.7);
        }
        c
    }
}

/// The thin dark line around things.
pub const INK: Rgba = rgb(14, 10, 10);

/// A light in a picture: where it is, how far it reaches, its colour and strength.
#[derive(Clone, Copy, Debug)]
pub struct Light {
    /// Its centre in pixels.
    pub at: [f64; 2],
    /// How far its light goes, in pixels.
    pub reach: f64,
    /// Its colour.
    pub colour: Rgba,
    /// How much it adds at its centre (1 doubles a surface's colour there).
    pub strength: f64,
}

/// `base` under `ambient` light plus every light's share (falling off with the square of a
/// smoothstep, so pools of light have soft edges and dark corners stay dark).
pub fn lit(base: Rgba, x: f64, y: f64, ambient: f64, lights: &[Light]) -> Rgba {
    let mut k = [ambient; 3];
    for l in lights {
        let f = smoothstep(l.reach, 0.0, radius(x, y, l.at));
        for (i, ki) in k.iter_mut().enumerate() {
            *ki += l.colour[i] * l.strength * f * f;
        }
    }
    [base[0] * k[0], base[1] * k[1], base[2] * k[2], base[3]]
}

/// A soft halo of `colour` around `at`, `reach` pixels across, at most `alpha` strong.
pub fn halo(c: Rgba, x: f64, y: f64, at: [f64; 2], reach: f64, colour: Rgba, alpha: f64) -> Rgba {
    let f = smoothstep(reach, 0.0, radius(x, y, at));
    over(c, with_alpha(colour, alpha * f * f))
}

/// A flame `h` tall and `w` wide standing on `base`: a teardrop, orange outside, pale at the
/// core.
pub fn flame(c: Rgba, x: f64, y: f64, base: [f64; 2], h: f64, w: f64) -> Rgba {
    let body = ellipse(x, y, [base[0], base[1] - h * 0.3], [w, h * 0.3]);
    let tip = polygon(
        x,
        y,
        &[
            [base[0] - w * 0.96, base[1] - h * 0.36],
            [base[0], base[1] - h],
            [base[0] + w * 0.96, base[1] - h * 0.36],
        ],
    );
    let d = body.min(tip);
    let core = ellipse(x, y, [base[0], base[1] - h * 0.3], [w * 0.5, h * 0.35]);
    let c = mix_rgba(c, rgb(255, 140, 40), coverage(d));
    let c = mix_rgba(c, rgb(255, 214, 110), coverage(d + w * 0.3));
    mix_rgba(c, rgb(255, 252, 226), coverage(core))
}

/// A candle `h` tall and `w` wide standing on `base`, its flame and a warm halo.
pub fn candle(c: Rgba, x: f64, y: f64, base: [f64; 2], h: f64, w: f64) -> Rgba {
    let [bx, by] = base;
    let mut c = halo(
        c,
        x,
        y,
        [bx, by - h - w * 1.5],
        w * 9.0,
        rgb(255, 190, 90),
        0.35,
    );
    let wax = polygon(
        x,
        y,
        &[
            [bx - w / 2.0, by],
            [bx - w / 2.0, by - h],
            [bx + w / 2.0, by - h],
            [bx + w / 2.0, by],
        ],
    );
    let side = smoothstep(bx - w / 2.0, bx + w / 2.0, x);
    c = mix_rgba(
        c,
        shade(rgb(238, 226, 196), 1.0 - side * 0.3),
        coverage(wax),
    );
    c = mix_rgba(
        c,
        INK,
        coverage(segment(x, y, [bx, by - h], [bx, by - h - w * 0.4]) - 0.4),
    );
    flame(c, x, y, [bx, by - h - w * 0.3], w * 2.4, w * 0.55)
}

/// A barrel lying on its side, its round end towards the viewer: staves, two iron hoops, a
/// bung, lit from the upper left.
pub fn barrel_end(c: Rgba, x: f64, y: f64, centre: [f64; 2], r: f64, wood: Rgba) -> Rgba {
    let d = radius(x, y, centre) - r;
    if d > 1.0 {
        return c;
    }
    let stave = ((x - centre[0]) / (r / 3.5)).floor();
    let lx = (x - centre[0]) / (r / 3.5) - stave;
    let tone = 0.9 + crate::noise::hash(stave as i64, centre[0] as i64, 601) * 0.2;
    let lit = 1.0 - ((x - centre[0]) * 0.6 + (y - centre[1]) * 0.8) / r * 0.25;
    let mut fill = shade(wood, tone * lit);
    fill = mix_rgba(
        fill,
        shade(wood, 0.5),
        coverage((lx.min(1.0 - lx)) * r / 3.5 - 0.6),
    );
    let mut c = mix_rgba(c, fill, coverage(d));
    c = mix_rgba(c, rgb(70, 72, 80), outline(d + r * 0.12, r * 0.12));
    c = mix_rgba(c, INK, outline(d, 1.0));
    let bung = radius(x, y, [centre[0], centre[1] + r * 0.45]) - r * 0.1;
    mix_rgba(c, shade(wood, 0.4), coverage(bung))
}

/// Seams between boards `width` apart along `along`, as a darkening factor (1 between).
pub fn seams(along: f64, width: f64, sharp: f64) -> f64 {
    let k = along / width - (along / width).floor();
    let edge = k.min(1.0 - k) * width;
    1.0 - coverage(edge * sharp - 0.5) * 0.55
}

/// A colour lightened or darkened by noise for grain: `amount` of `n` (about -0.5..0.5).
pub fn grain(c: Rgba, n: f64, amount: f64) -> Rgba {
    light(c, n * amount)
}
