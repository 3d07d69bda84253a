//! The rivals' portraits: one round medallion per rival in `data/kotoba_rivals.json`, each a
//! stylised yōkai or animal face painted from ellipses, polygons and capsules over a ground
//! of its own colour, inside a gold rim.
//!
//! Every portrait shares one light (from the upper left), one ink outline and one rim, so
//! nine different faces read as a set. Rotated shapes use fixed cosine/sine literals, never
//! `sin`/`cos`, to stay byte-identical on every machine.

use crate::noise::hash;
use crate::paint::{
    Image, Rgba, coverage, ellipse, light, mix_rgba, outline, polygon, radius, rgb, segment, shade,
    smoothstep, with_alpha,
};

/// One rival's portrait: the rival's id and name as the rivals table has them, and the
/// painter.
pub struct Portrait {
    /// The rival's id in the rivals table.
    pub id: &'static str,
    /// The rival's name as the table spells it.
    pub name: &'static str,
    /// The texture's file name, `portrait_<id>.png`.
    pub file: &'static str,
    /// Paints the portrait.
    pub paint: fn() -> Image,
}

/// Every portrait, in the rivals table's order.
pub const PORTRAITS: [Portrait; 9] = [
    Portrait {
        id: "r01",
        name: "こだま",
        file: "portrait_r01.png",
        paint: kodama,
    },
    Portrait {
        id: "r02",
        name: "たぬき",
        file: "portrait_r02.png",
        paint: tanuki,
    },
    Portrait {
        id: "r03",
        name: "かっぱ",
        file: "portrait_r03.png",
        paint: kappa,
    },
    Portrait {
        id: "r04",
        name: "きつね",
        file: "portrait_r04.png",
        paint: kitsune,
    },
    Portrait {
        id: "r05",
        name: "からす",
        file: "portrait_r05.png",
        paint: karasu,
    },
    Portrait {
        id: "r06",
        name: "てんぐ",
        file: "portrait_r06.png",
        paint: tengu,
    },
    Portrait {
        id: "r07",
        name: "ゆきおんな",
        file: "portrait_r07.png",
        paint: yukionna,
    },
    Portrait {
        id: "r08",
        name: "りゅう",
        file: "portrait_r08.png",
        paint: ryuu,
    },
    Portrait {
        id: "r09",
        name: "かみさま",
        file: "portrait_r09.png",
        paint: kamisama,
    },
];

/// The medallion: 128x128, centred, this radius; everything is clipped to it.
const SIZE: u32 = 128;
const C: [f64; 2] = [64.0, 64.0];
const R: f64 = 60.0;
const INK: Rgba = rgb(30, 24, 30);
const GOLD: Rgba = rgb(201, 158, 72);
const GOLD_LIGHT: Rgba = rgb(247, 221, 148);

/// Sixteen unit directions a sixteenth of a turn apart, starting straight up (y down).
const DIRS16: [[f64; 2]; 16] = {
    const A: f64 = 0.382_683_432_365_089_8; // sin 22.5°
    const B: f64 = std::f64::consts::FRAC_1_SQRT_2; // sin 45°
    const D: f64 = 0.923_879_532_511_286_7; // sin 67.5°
    [
        [0.0, -1.0],
        [A, -D],
        [B, -B],
        [D, -A],
        [1.0, 0.0],
        [D, A],
        [B, B],
        [A, D],
        [0.0, 1.0],
        [-A, D],
        [-B, B],
        [-D, A],
        [-1.0, 0.0],
        [-D, -A],
        [-B, -B],
        [-A, -D],
    ]
};

/// A portrait being painted: each layer is a shape (a signed distance) and its colour,
/// clipped to the medallion.
struct Canvas {
    img: Image,
}

/// Lit from the upper left: `c` a little lighter towards the light across a shape about
/// `centre` of size `size`, darker away from it.
fn lit(c: Rgba, centre: [f64; 2], size: f64, x: f64, y: f64) -> Rgba {
    let k = (-((x - centre[0]) * 0.6 + (y - centre[1]) * 0.8) / size).clamp(-1.0, 1.0);
    light(c, 0.16 * k)
}

/// An ellipse turned by the angle whose cosine and sine are `cs`.
fn ellipse_turned(x: f64, y: f64, c: [f64; 2], r: [f64; 2], cs: [f64; 2]) -> f64 {
    let (dx, dy) = (x - c[0], y - c[1]);
    let u = dx * cs[0] + dy * cs[1];
    let v = -dx * cs[1] + dy * cs[0];
    ellipse(u, v, [0.0, 0.0], r)
}

/// A thin arc: the part of the circle about `c` of radius `r` on one side of its centre
/// line (`upper` the half above, else the half below), `w` wide.
fn arc(x: f64, y: f64, c: [f64; 2], r: f64, upper: bool, w: f64) -> f64 {
    let ring = (radius(x, y, c) - r).abs() - w / 2.0;
    let half = if upper { y - c[1] } else { c[1] - y };
    ring.max(half)
}

/// The union of circles `(centre, radius)`.
fn circles(x: f64, y: f64, list: &[([f64; 2], f64)]) -> f64 {
    list.iter()
        .map(|(c, r)| radius(x, y, *c) - r)
        .fold(f64::INFINITY, f64::min)
}

/// Cosine and sine of 20°, 30°, used to turn leaves, brows and marks.
const TURN20: [f64; 2] = [0.939_692_620_785_908_4, 0.342_020_143_325_668_7];
const TURN30: [f64; 2] = [0.866_025_403_784_438_6, 0.5];

impl Canvas {
    /// The ground: `bg` lighter towards the upper left, darker at the rim.
    fn new(bg: Rgba) -> Canvas {
        let mut img = Image::new(SIZE, SIZE);
        img.layer(|x, y| {
            let t = radius(x, y, [46.0, 40.0]) / 92.0;
            let c = mix_rgba(light(bg, 0.2), shade(bg, 0.62), smoothstep(0.0, 1.0, t));
            with_alpha(c, coverage(radius(x, y, C) - R))
        });
        Canvas { img }
    }

    /// A shape filled with a colour that may vary, and an ink outline `edge` strong.
    fn fill(
        &mut self,
        shape: impl Fn(f64, f64) -> f64,
        colour: impl Fn(f64, f64) -> Rgba,
        edge: f64,
    ) {
        self.img.layer(|x, y| {
            let d = shape(x, y);
            let clip = coverage(radius(x, y, C) - R);
            let c = colour(x, y);
            let c = mix_rgba(c, with_alpha(INK, c[3]), edge * outline(d + 0.6, 1.3));
            with_alpha(c, c[3] * coverage(d) * clip)
        });
    }

    /// A shape in one colour, lit across `centre` and `size`, outlined.
    fn solid(&mut self, shape: impl Fn(f64, f64) -> f64, c: Rgba, centre: [f64; 2], size: f64) {
        self.fill(shape, |x, y| lit(c, centre, size, x, y), 0.55);
    }

    /// A shape in one flat colour, no outline.
    fn flat(&mut self, shape: impl Fn(f64, f64) -> f64, c: Rgba) {
        self.fill(shape, |_, _| c, 0.0);
    }

    /// Bright dots scattered over the ground (snow, stars, bubbles), `count` of them.
    fn specks(&mut self, count: i64, seed: u64, c: Rgba) {
        let dots: Vec<([f64; 2], f64)> = (0..count)
            .map(|i| {
                let x = 10.0 + 108.0 * hash(i, 0, seed);
                let y = 10.0 + 108.0 * hash(i, 1, seed);
                ([x, y], 0.9 + 1.4 * hash(i, 2, seed))
            })
            .collect();
        self.flat(move |x, y| circles(x, y, &dots), c);
    }

    /// The gold rim and a soft shade inside it; returns the finished image.
    fn finish(mut self) -> Image {
        self.img.layer(|x, y| {
            let r = radius(x, y, C);
            let inside = R - r;
            let shadow = 0.35 * (1.0 - smoothstep(2.0, 9.0, inside));
            with_alpha(rgb(8, 10, 26), shadow * coverage(r - R))
        });
        self.img.layer(|x, y| {
            let r = radius(x, y, C);
            // Lighter where the rim faces the light (its upper left).
            let f = -((x - C[0]) * 0.6 + (y - C[1]) * 0.8) / r.max(1.0);
            let c = mix_rgba(GOLD, GOLD_LIGHT, 0.5 + 0.5 * f);
            let band = outline(r - (R - 2.2), 3.2);
            let edge = outline(r - (R - 0.4), 0.9);
            let c = mix_rgba(c, rgb(60, 40, 20), edge / (band + edge).max(1e-9));
            with_alpha(c, (band + edge).min(1.0) * coverage(r - R))
        });
        self.img
    }
}

/// こだま: a pale tree spirit with three dark hollows for eyes and mouth, among leaves.
pub fn kodama() -> Image {
    let mut cv = Canvas::new(rgb(46, 96, 70));
    let leaves = [
        ([22.0, 44.0], TURN30),
        ([104.0, 36.0], [TURN30[0], -TURN30[1]]),
        ([100.0, 98.0], TURN20),
        ([24.0, 96.0], [TURN20[0], -TURN20[1]]),
        ([38.0, 20.0], [1.0, 0.0]),
    ];
    for (c, cs) in leaves {
        cv.fill(
            move |x, y| ellipse_turned(x, y, c, [10.0, 4.5], cs),
            |x, y| lit(rgb(120, 176, 96), c, 10.0, x, y),
            0.3,
        );
    }
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 122.0], [28.0, 22.0]),
        rgb(214, 222, 200),
        [64.0, 110.0],
        30.0,
    );
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 60.0], [33.0, 38.0]),
        rgb(234, 238, 222),
        [64.0, 60.0],
        38.0,
    );
    let hollow = rgb(36, 42, 38);
    cv.flat(|x, y| ellipse(x, y, [51.0, 56.0], [5.5, 8.5]), hollow);
    cv.flat(|x, y| ellipse(x, y, [77.0, 56.0], [5.5, 8.5]), hollow);
    cv.flat(|x, y| ellipse(x, y, [64.0, 81.0], [6.0, 8.5]), hollow);
    cv.finish()
}

/// たぬき: a raccoon dog under the moon, a leaf on its head.
pub fn tanuki() -> Image {
    let mut cv = Canvas::new(rgb(72, 60, 112));
    cv.flat(|x, y| radius(x, y, [98.0, 30.0]) - 11.0, rgb(246, 232, 172));
    let fur = rgb(168, 122, 80);
    let dark = rgb(70, 48, 36);
    for ex in [38.0, 90.0] {
        cv.solid(
            move |x, y| radius(x, y, [ex, 40.0]) - 13.0,
            rgb(110, 76, 50),
            [ex, 40.0],
            13.0,
        );
        cv.flat(move |x, y| radius(x, y, [ex, 42.0]) - 6.5, dark);
    }
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 74.0], [42.0, 35.0]),
        fur,
        [64.0, 74.0],
        42.0,
    );
    cv.flat(
        |x, y| ellipse(x, y, [64.0, 50.0], [5.0, 10.0]),
        shade(fur, 0.72),
    );
    for (ex, cs) in [(46.0, [TURN20[0], -TURN20[1]]), (82.0, TURN20)] {
        cv.flat(
            move |x, y| ellipse_turned(x, y, [ex, 72.0], [15.0, 10.5], cs),
            dark,
        );
        cv.flat(move |x, y| radius(x, y, [ex, 71.0]) - 4.2, rgb(20, 16, 14));
        cv.flat(
            move |x, y| radius(x, y, [ex + 1.5, 69.5]) - 1.5,
            rgb(255, 255, 255),
        );
    }
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 92.0], [19.0, 13.0]),
        rgb(242, 228, 202),
        [64.0, 92.0],
        19.0,
    );
    cv.flat(|x, y| segment(x, y, [64.0, 88.0], [64.0, 96.0]) - 0.8, dark);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 86.0], [7.0, 5.0]),
        rgb(34, 26, 24),
        [64.0, 86.0],
        7.0,
    );
    cv.fill(
        |x, y| ellipse_turned(x, y, [66.0, 33.0], [13.0, 5.5], TURN20),
        |x, y| lit(rgb(112, 172, 82), [66.0, 33.0], 13.0, x, y),
        0.55,
    );
    cv.flat(
        |x, y| segment(x, y, [55.0, 29.0], [76.0, 37.0]) - 0.5,
        rgb(70, 120, 56),
    );
    cv.finish()
}

/// かっぱ: a river imp with a dish of water on its head, a yellow beak and round eyes.
pub fn kappa() -> Image {
    let mut cv = Canvas::new(rgb(38, 98, 144));
    for (c, r) in [
        ([24.0, 98.0], 8.0),
        ([104.0, 100.0], 6.0),
        ([100.0, 26.0], 5.0),
    ] {
        cv.flat(
            move |x, y| (radius(x, y, c) - r).abs() - 0.8,
            with_alpha(rgb(170, 214, 240), 0.6),
        );
    }
    let hair = rgb(34, 84, 58);
    // Hair: a cap with a scalloped fringe round the face.
    let fringe: Vec<([f64; 2], f64)> = (0..9)
        .map(|i| {
            let t = i as f64 / 8.0;
            let x = 26.0 + 76.0 * t;
            let y = 58.0 - 14.0 * (1.0 - (2.0 * t - 1.0) * (2.0 * t - 1.0));
            ([x, y], 8.0)
        })
        .collect();
    cv.solid(
        move |x, y| ellipse(x, y, [64.0, 48.0], [40.0, 24.0]).min(circles(x, y, &fringe)),
        hair,
        [64.0, 48.0],
        40.0,
    );
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 80.0], [33.0, 30.0]),
        rgb(124, 184, 98),
        [64.0, 80.0],
        33.0,
    );
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 36.0], [25.0, 10.5]),
        rgb(236, 234, 214),
        [64.0, 36.0],
        25.0,
    );
    cv.flat(
        |x, y| (ellipse(x, y, [64.0, 37.0], [18.0, 6.5])).abs() - 0.7,
        rgb(190, 200, 190),
    );
    for ex in [50.0, 78.0] {
        cv.solid(
            move |x, y| radius(x, y, [ex, 72.0]) - 9.0,
            rgb(250, 250, 244),
            [ex, 72.0],
            9.0,
        );
        cv.flat(
            move |x, y| radius(x, y, [ex + 2.0, 73.0]) - 5.0,
            rgb(20, 22, 24),
        );
        cv.flat(
            move |x, y| radius(x, y, [ex + 3.5, 71.0]) - 1.6,
            rgb(255, 255, 255),
        );
    }
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 94.0], [15.0, 8.0]),
        rgb(242, 198, 72),
        [64.0, 94.0],
        15.0,
    );
    cv.flat(
        |x, y| segment(x, y, [51.0, 94.5], [77.0, 94.5]) - 0.6,
        rgb(130, 90, 30),
    );
    cv.finish()
}

/// きつね: a white fox mask with coral marks and narrow, smiling eyes.
pub fn kitsune() -> Image {
    let mut cv = Canvas::new(rgb(30, 74, 84));
    let white = rgb(246, 242, 234);
    let coral = rgb(232, 104, 76);
    for s in [-1.0, 1.0] {
        let p = |x: f64, y: f64| [64.0 + s * (x - 64.0), y];
        let ear = [p(28.0, 60.0), p(34.0, 14.0), p(58.0, 40.0)];
        let inner = [p(34.0, 52.0), p(37.0, 24.0), p(52.0, 41.0)];
        cv.solid(
            move |x, y| polygon(x, y, &ear) - 2.0,
            white,
            [40.0, 36.0],
            24.0,
        );
        cv.flat(move |x, y| polygon(x, y, &inner) - 1.0, coral);
    }
    let face = [
        [64.0, 32.0],
        [96.0, 52.0],
        [90.0, 82.0],
        [70.0, 108.0],
        [58.0, 108.0],
        [38.0, 82.0],
        [32.0, 52.0],
    ];
    cv.solid(
        move |x, y| polygon(x, y, &face) - 6.0,
        white,
        [64.0, 70.0],
        40.0,
    );
    for s in [-1.0, 1.0] {
        let cs = [TURN30[0], -s * TURN30[1]];
        let c = |x: f64, y: f64| [64.0 + s * (x - 64.0), y];
        let (brow, cheek) = (c(46.0, 57.0), c(40.0, 84.0));
        cv.flat(
            move |x, y| ellipse_turned(x, y, brow, [10.0, 2.8], cs),
            coral,
        );
        cv.flat(
            move |x, y| ellipse_turned(x, y, cheek, [8.0, 2.2], [cs[0], -cs[1]]),
            coral,
        );
        let (a, b) = (c(42.0, 66.0), c(56.0, 71.0));
        cv.flat(move |x, y| segment(x, y, a, b) - 1.4, INK);
    }
    cv.flat(|x, y| ellipse(x, y, [64.0, 45.0], [3.5, 8.5]), coral);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 104.0], [6.5, 4.5]),
        rgb(34, 28, 30),
        [64.0, 104.0],
        6.0,
    );
    cv.finish()
}

/// からす: a crow with a black sheen, golden eyes and a heavy beak, at dusk.
pub fn karasu() -> Image {
    let mut cv = Canvas::new(rgb(100, 70, 122));
    cv.flat(
        |x, y| radius(x, y, [102.0, 38.0]) - 12.0,
        with_alpha(rgb(244, 176, 112), 0.6),
    );
    let black = rgb(36, 36, 50);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 116.0], [42.0, 20.0]),
        black,
        [64.0, 110.0],
        40.0,
    );
    let crest = [
        [[54.0, 30.0], [60.0, 8.0], [68.0, 30.0]],
        [[44.0, 36.0], [40.0, 16.0], [58.0, 30.0]],
        [[70.0, 30.0], [84.0, 12.0], [82.0, 36.0]],
    ];
    for tri in crest {
        cv.solid(
            move |x, y| polygon(x, y, &tri) - 1.0,
            black,
            [60.0, 20.0],
            20.0,
        );
    }
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 62.0], [36.0, 38.0]),
        black,
        [64.0, 62.0],
        36.0,
    );
    cv.flat(
        |x, y| ellipse_turned(x, y, [50.0, 40.0], [14.0, 6.0], [TURN30[0], -TURN30[1]]),
        with_alpha(rgb(110, 122, 170), 0.4),
    );
    for ex in [46.0, 82.0] {
        cv.solid(
            move |x, y| radius(x, y, [ex, 62.0]) - 7.0,
            rgb(244, 198, 88),
            [ex, 62.0],
            7.0,
        );
        cv.flat(move |x, y| radius(x, y, [ex, 62.5]) - 3.6, rgb(16, 14, 18));
        cv.flat(
            move |x, y| radius(x, y, [ex - 1.5, 60.5]) - 1.3,
            rgb(255, 255, 255),
        );
    }
    let beak = [[64.0, 68.0], [83.0, 78.0], [64.0, 114.0], [45.0, 78.0]];
    cv.solid(
        move |x, y| polygon(x, y, &beak) - 2.0,
        rgb(78, 80, 98),
        [64.0, 84.0],
        22.0,
    );
    cv.flat(
        |x, y| segment(x, y, [52.0, 84.0], [76.0, 84.0]) - 0.7,
        rgb(20, 20, 28),
    );
    cv.finish()
}

/// てんぐ: a red mountain goblin with a long nose, white brows and beard, a small black cap.
pub fn tengu() -> Image {
    let mut cv = Canvas::new(rgb(54, 86, 114));
    let white = rgb(236, 232, 222);
    let mane: Vec<([f64; 2], f64)> = (0..16)
        .map(|k| {
            let d = DIRS16[k];
            ([64.0 + d[0] * 36.0, 72.0 + d[1] * 36.0], 11.0)
        })
        .collect();
    cv.solid(move |x, y| circles(x, y, &mane), white, [64.0, 72.0], 46.0);
    let red = rgb(204, 74, 60);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 70.0], [32.0, 36.0]),
        red,
        [64.0, 70.0],
        36.0,
    );
    let cap = [
        [52.0, 28.0],
        [76.0, 28.0],
        [81.0, 37.0],
        [76.0, 46.0],
        [52.0, 46.0],
        [47.0, 37.0],
    ];
    cv.solid(
        move |x, y| polygon(x, y, &cap) - 1.5,
        rgb(28, 26, 32),
        [64.0, 37.0],
        16.0,
    );
    for s in [-1.0, 1.0] {
        let c = |x: f64, y: f64| [64.0 + s * (x - 64.0), y];
        let cs = [TURN20[0], s * TURN20[1]];
        let (brow, eye, pupil) = (c(48.0, 58.0), c(49.0, 66.0), c(50.5, 66.0));
        cv.solid(
            move |x, y| ellipse_turned(x, y, brow, [12.0, 4.5], cs),
            white,
            brow,
            12.0,
        );
        cv.flat(
            move |x, y| ellipse(x, y, eye, [6.0, 4.0]),
            rgb(250, 246, 232),
        );
        cv.flat(move |x, y| radius(x, y, pupil) - 2.6, rgb(20, 16, 16));
    }
    cv.solid(
        |x, y| {
            ellipse(x, y, [64.0, 110.0], [22.0, 12.0]).min(circles(
                x,
                y,
                &[([52.0, 104.0], 8.0), ([76.0, 104.0], 8.0)],
            ))
        },
        white,
        [64.0, 108.0],
        22.0,
    );
    let nose = rgb(222, 92, 72);
    cv.solid(
        |x, y| {
            (segment(x, y, [64.0, 66.0], [72.0, 98.0]) - 6.5).min(radius(x, y, [72.5, 99.0]) - 8.0)
        },
        nose,
        [68.0, 82.0],
        24.0,
    );
    cv.finish()
}

/// ゆきおんな: the snow woman, pale, eyes closed, long black hair, snow falling.
pub fn yukionna() -> Image {
    let mut cv = Canvas::new(rgb(98, 142, 188));
    cv.specks(26, 71, with_alpha(rgb(255, 255, 255), 0.85));
    let hair = rgb(24, 24, 40);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 76.0], [38.0, 54.0]),
        hair,
        [64.0, 60.0],
        50.0,
    );
    let collar = [[28.0, 130.0], [64.0, 100.0], [100.0, 130.0]];
    let inner = [[42.0, 130.0], [64.0, 110.0], [86.0, 130.0]];
    cv.solid(
        move |x, y| polygon(x, y, &collar),
        rgb(242, 246, 252),
        [64.0, 116.0],
        30.0,
    );
    cv.flat(move |x, y| polygon(x, y, &inner), rgb(150, 184, 224));
    cv.fill(
        |x, y| ellipse(x, y, [64.0, 72.0], [23.0, 30.0]),
        |x, y| lit(rgb(238, 242, 252), [64.0, 72.0], 30.0, x, y),
        0.35,
    );
    // The fringe: two curtains of hair parted in the middle.
    for s in [-1.0, 1.0] {
        let c = |x: f64, y: f64| [64.0 + s * (x - 64.0), y];
        let curtain = [
            c(64.0, 37.0),
            c(40.0, 44.0),
            c(36.0, 104.0),
            c(43.0, 102.0),
            c(45.0, 74.0),
            c(50.0, 54.0),
            c(60.0, 42.0),
        ];
        cv.solid(
            move |x, y| polygon(x, y, &curtain) - 1.5,
            hair,
            [50.0, 50.0],
            30.0,
        );
    }
    let lid = rgb(70, 80, 110);
    for ex in [55.0, 73.0] {
        cv.flat(move |x, y| arc(x, y, [ex, 72.0], 5.5, false, 1.6), lid);
    }
    cv.flat(
        |x, y| ellipse(x, y, [64.0, 90.0], [3.6, 2.2]),
        rgb(206, 96, 118),
    );
    cv.finish()
}

/// りゅう: a sea dragon with ivory horns, a golden mane and long whiskers.
pub fn ryuu() -> Image {
    let mut cv = Canvas::new(rgb(24, 50, 96));
    cv.specks(10, 83, with_alpha(rgb(150, 200, 240), 0.5));
    let mane: Vec<[f64; 2]> = (0..32)
        .map(|i| {
            let d = DIRS16[i / 2];
            let r = if i % 2 == 0 { 50.0 } else { 36.0 };
            [64.0 + d[0] * r, 66.0 + d[1] * r * 0.9]
        })
        .collect();
    cv.solid(
        move |x, y| polygon(x, y, &mane) - 1.5,
        rgb(226, 160, 62),
        [64.0, 66.0],
        50.0,
    );
    let horn = rgb(238, 224, 176);
    for s in [-1.0, 1.0] {
        let c = |x: f64, y: f64| [64.0 + s * (x - 64.0), y];
        let (a, b, k, t) = (c(50.0, 44.0), c(34.0, 12.0), c(41.0, 26.0), c(28.0, 28.0));
        cv.solid(
            move |x, y| (segment(x, y, a, b) - 4.5).min(segment(x, y, k, t) - 3.0),
            horn,
            c(40.0, 26.0),
            18.0,
        );
    }
    let teal = rgb(70, 158, 134);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 62.0], [32.0, 28.0]),
        teal,
        [64.0, 62.0],
        32.0,
    );
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 88.0], [24.0, 17.0]),
        light(teal, 0.18),
        [64.0, 88.0],
        24.0,
    );
    for s in [-1.0, 1.0] {
        let c = |x: f64, y: f64| [64.0 + s * (x - 64.0), y];
        let (brow, eye, nostril) = (c(49.0, 52.0), c(50.0, 61.0), c(56.0, 89.0));
        let cs = [TURN20[0], s * TURN20[1]];
        cv.flat(
            move |x, y| ellipse_turned(x, y, brow, [12.0, 4.5], cs),
            shade(teal, 0.6),
        );
        cv.solid(
            move |x, y| ellipse(x, y, eye, [7.0, 5.0]),
            rgb(250, 214, 90),
            eye,
            7.0,
        );
        cv.flat(move |x, y| ellipse(x, y, eye, [1.5, 4.5]), rgb(16, 16, 20));
        cv.flat(
            move |x, y| ellipse(x, y, nostril, [3.5, 2.5]),
            rgb(24, 60, 52),
        );
        let (w0, w1, w2) = (c(44.0, 94.0), c(22.0, 102.0), c(8.0, 92.0));
        cv.flat(
            move |x, y| segment(x, y, w0, w1).min(segment(x, y, w1, w2)) - 1.5,
            rgb(242, 204, 112),
        );
        let tooth = [c(52.0, 100.0), c(57.0, 100.0), c(54.5, 95.0)];
        cv.flat(move |x, y| polygon(x, y, &tooth), rgb(250, 248, 236));
    }
    cv.flat(
        |x, y| segment(x, y, [48.0, 100.5], [80.0, 100.5]) - 0.7,
        rgb(24, 60, 52),
    );
    cv.finish()
}

/// かみさま: a smiling old god in an okina mask: round white brows, rosy cheeks and a
/// white beard, a halo behind and light rising all round.
pub fn kamisama() -> Image {
    let mut cv = Canvas::new(rgb(180, 136, 60));
    for k in (0..16).step_by(2) {
        let d = DIRS16[k];
        let p = [-d[1], d[0]];
        let ray = [
            [64.0 + p[0] * 2.0, 60.0 + p[1] * 2.0],
            [
                64.0 + d[0] * 90.0 + p[0] * 11.0,
                60.0 + d[1] * 90.0 + p[1] * 11.0,
            ],
            [
                64.0 + d[0] * 90.0 - p[0] * 11.0,
                60.0 + d[1] * 90.0 - p[1] * 11.0,
            ],
            [64.0 - p[0] * 2.0, 60.0 - p[1] * 2.0],
        ];
        cv.flat(
            move |x, y| polygon(x, y, &ray),
            with_alpha(rgb(252, 228, 156), 0.4),
        );
    }
    cv.flat(
        |x, y| (radius(x, y, [64.0, 60.0]) - 44.0).abs() - 1.8,
        rgb(255, 244, 206),
    );
    let ivory = rgb(248, 238, 216);
    cv.solid(
        |x, y| ellipse(x, y, [64.0, 64.0], [30.0, 35.0]),
        ivory,
        [64.0, 64.0],
        35.0,
    );
    let white = rgb(255, 253, 246);
    for ex in [49.0, 79.0] {
        cv.fill(
            move |x, y| radius(x, y, [ex, 49.0]) - 6.5,
            |_, _| white,
            0.35,
        );
        cv.flat(
            move |x, y| arc(x, y, [ex, 65.0], 6.0, true, 2.2),
            rgb(70, 50, 38),
        );
        cv.flat(
            move |x, y| radius(x, y, [ex - 4.0, 79.0]) - 7.0,
            with_alpha(rgb(240, 130, 110), 0.3),
        );
    }
    cv.flat(
        |x, y| arc(x, y, [64.0, 80.0], 8.5, false, 2.0),
        rgb(70, 50, 38),
    );
    let beard = [
        ([50.0, 100.0], 8.0),
        ([57.0, 106.0], 9.0),
        ([64.0, 110.0], 9.5),
        ([71.0, 106.0], 9.0),
        ([78.0, 100.0], 8.0),
        ([64.0, 119.0], 7.0),
    ];
    cv.solid(
        move |x, y| circles(x, y, &beard),
        white,
        [64.0, 106.0],
        16.0,
    );
    cv.finish()
}
