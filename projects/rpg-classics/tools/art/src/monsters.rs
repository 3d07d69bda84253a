//! The monsters (`monsters.png`, eight 256x256 regions left to right, in [`NAMES`] order).
//! The giant rat and the ghoul are the ones every crawler game meets
//! ([`crawler_art::creatures`]); the rest are Seven Stairs' own, painted from the same parts:
//! each a silhouette laid part by part, back to front, outlined in thin ink, standing on the
//! region's bottom edge on its shadow (the bat hovers over its), clear around.

use crate::LOOK;
use crate::paint::{
    Image, Rgba, coverage, ellipse, light, mix, mix_rgba, outline, polygon, radius, rgb,
    rounded_box, segment, shade, smoothstep, with_alpha,
};
use crawler_art::creatures::{eye, ghoul, ground_shadow, part, rat, strip};
use crawler_art::sheet::{REGION, clear};
use jengine_paint::noise::{fbm, hash, value};

/// The named creatures in `monsters.png` order; region `i` is `[i * 256, 0, 256, 256]`.
pub const NAMES: [&str; 8] = [
    "m_rat",
    "m_kobold",
    "m_bat",
    "m_slime",
    "m_skeleton",
    "m_ghoul",
    "m_orc",
    "m_lich",
];

const BONE: Rgba = rgb(222, 214, 190);
const LEATHER: Rgba = rgb(104, 74, 50);
const HAFT: Rgba = rgb(110, 76, 44);
const STEEL: Rgba = rgb(176, 186, 198);

/// The eight creatures side by side.
pub fn sheet() -> Image {
    strip(&[
        rat(&LOOK),
        kobold(),
        bat(),
        slime(),
        skeleton(),
        ghoul(&LOOK),
        orc(),
        lich(),
    ])
}

/// A 256x256 creature painted by `paint`, which gets each pixel centre and returns its colour.
fn creature(paint: impl Fn(f64, f64) -> Rgba) -> Image {
    let mut img = Image::new(REGION, REGION);
    img.layer(paint);
    img
}

/// Lays a part (see [`part`]) in Seven Stairs' look.
fn lay(c: Rgba, d: f64, base: Rgba, x: f64, y: f64, seed: u64) -> Rgba {
    part(&LOOK, c, d, base, x, y, seed)
}

/// The creature's shadow on the floor, on a clear ground.
fn shadow(x: f64, y: f64, half_width: f64) -> Rgba {
    ground_shadow(&LOOK, clear(&LOOK), x, y, half_width)
}

/// A blade from `hilt` to `tip`, `half` texels to each side at the hilt, narrowing to the
/// point: a steel body with a bright edge along the side facing the light.
fn blade(c: Rgba, x: f64, y: f64, hilt: [f64; 2], tip: [f64; 2], half: f64) -> Rgba {
    let (dx, dy) = (tip[0] - hilt[0], tip[1] - hilt[1]);
    let len = (dx * dx + dy * dy).sqrt();
    let (nx, ny) = (-dy / len * half, dx / len * half);
    let shoulder = [hilt[0] + dx * 0.85, hilt[1] + dy * 0.85];
    let outline_pts = [
        [hilt[0] + nx, hilt[1] + ny],
        [shoulder[0] + nx, shoulder[1] + ny],
        tip,
        [shoulder[0] - nx, shoulder[1] - ny],
        [hilt[0] - nx, hilt[1] - ny],
    ];
    let d = polygon(x, y, &outline_pts);
    let c = lay(c, d, STEEL, x, y, 301);
    // The fuller down the middle.
    let fuller = segment(x, y, hilt, shoulder) - half * 0.25;
    mix_rgba(c, shade(STEEL, 0.7), coverage(fuller.max(d + 1.0)) * 0.8)
}

/// A small dog-faced warrior in a leather jerkin, a spear in one hand and a round shield on
/// the other arm.
fn kobold() -> Image {
    let hide = rgb(150, 100, 66);
    let belly = rgb(196, 160, 118);
    creature(|x, y| {
        let mut c = shadow(x, y, 70.0);
        // The tail, behind everything.
        let tail = segment(x, y, [140.0, 206.0], [172.0, 222.0]).min(segment(
            x,
            y,
            [172.0, 222.0],
            [196.0, 206.0],
        )) - 6.0;
        c = lay(c, tail, hide, x, y, 311);
        // The spear, upright in the right hand.
        let shaft = segment(x, y, [182.0, 244.0], [192.0, 34.0]) - 3.5;
        c = lay(c, shaft, HAFT, x, y, 313);
        let head = polygon(
            x,
            y,
            &[[186.0, 40.0], [192.0, 28.0], [199.0, 40.0], [193.0, 2.0]],
        );
        c = lay(c, head, STEEL, x, y, 315);
        let binding = ((y - 46.0).abs() - 4.0).max(shaft - 1.5);
        c = mix_rgba(c, rgb(150, 40, 30), coverage(binding));
        for side in [-1.0, 1.0] {
            let hip = [128.0 + side * 14.0, 196.0];
            let knee = [128.0 + side * 24.0, 216.0];
            let foot = [128.0 + side * 20.0, 238.0];
            let leg = (segment(x, y, hip, knee) - 9.0).min(segment(x, y, knee, foot) - 7.0);
            c = lay(c, leg, shade(hide, 0.85), x, y, 317);
            let paw = ellipse(x, y, [128.0 + side * 24.0, 240.0], [13.0, 6.0]);
            c = lay(c, paw, shade(hide, 0.8), x, y, 319);
        }
        // The jerkin over the body, belted.
        let body = polygon(
            x,
            y,
            &[
                [104.0, 128.0],
                [152.0, 128.0],
                [160.0, 204.0],
                [96.0, 204.0],
            ],
        ) - 4.0;
        c = lay(c, body, LEATHER, x, y, 321);
        for k in 0..3 {
            for s in [-1.0, 1.0] {
                let stud = radius(x, y, [128.0 + s * 14.0, 148.0 + k as f64 * 16.0]) - 2.5;
                c = mix_rgba(c, light(LOOK.palette.iron, 0.4), coverage(stud));
            }
        }
        let belt = ((y - 190.0).abs() - 5.0).max(body);
        c = mix_rgba(c, shade(LEATHER, 0.5), coverage(belt));
        c = mix_rgba(
            c,
            LOOK.palette.fitting,
            coverage(square(x, y, [128.0, 190.0], 6.0)),
        );
        // The spear arm: shoulder, elbow, fist round the shaft.
        let arm = (segment(x, y, [152.0, 138.0], [172.0, 170.0]) - 8.0)
            .min(segment(x, y, [172.0, 170.0], [186.0, 148.0]) - 7.0);
        c = lay(c, arm, hide, x, y, 323);
        let fist = ellipse(x, y, [187.0, 146.0], [10.0, 9.0]);
        c = lay(c, fist, hide, x, y, 325);
        // The shield arm, and the shield: planks in an iron rim with a boss.
        let arm = segment(x, y, [104.0, 138.0], [86.0, 172.0]) - 8.0;
        c = lay(c, arm, hide, x, y, 327);
        let shield = radius(x, y, [82.0, 170.0]) - 30.0;
        let boards = crawler_art::sheet::planks(&LOOK, x, y, [52.0, 140.0, 112.0, 200.0], 329);
        c = lay(c, shield, boards, x, y, 331);
        c = mix_rgba(c, LOOK.palette.iron, outline(shield + 3.0, 4.0));
        let boss = radius(x, y, [82.0, 170.0]) - 8.0;
        c = lay(c, boss, light(LOOK.palette.iron, 0.3), x, y, 333);
        // The head: pointed ears, a skull, a long muzzle with a black nose.
        for side in [-1.0, 1.0] {
            let ear = polygon(
                x,
                y,
                &[
                    [128.0 + side * 12.0, 86.0],
                    [128.0 + side * 36.0, 54.0],
                    [128.0 + side * 30.0, 100.0],
                ],
            );
            c = lay(c, ear, hide, x, y, 335);
            let inner = polygon(
                x,
                y,
                &[
                    [128.0 + side * 18.0, 88.0],
                    [128.0 + side * 33.0, 64.0],
                    [128.0 + side * 29.0, 96.0],
                ],
            );
            c = mix_rgba(c, rgb(200, 130, 110), coverage(inner + 1.0));
        }
        let skull = ellipse(x, y, [128.0, 100.0], [26.0, 24.0]);
        c = lay(c, skull, hide, x, y, 337);
        let muzzle = ellipse(x, y, [128.0, 120.0], [15.0, 14.0]);
        c = lay(c, muzzle, belly, x, y, 339);
        let nose = ellipse(x, y, [128.0, 112.0], [7.0, 5.0]);
        c = mix_rgba(c, LOOK.palette.ink, coverage(nose));
        let mouth = segment(x, y, [118.0, 126.0], [138.0, 126.0]) - 1.2;
        c = mix_rgba(c, LOOK.palette.ink, coverage(mouth));
        for tx in [121.0, 135.0] {
            let fang = polygon(x, y, &[[tx - 2.5, 126.0], [tx + 2.5, 126.0], [tx, 133.0]]);
            c = mix_rgba(c, BONE, coverage(fang));
        }
        c = eye(c, x, y, [116.0, 96.0], 3.5, rgb(255, 210, 60));
        eye(c, x, y, [140.0, 96.0], 3.5, rgb(255, 210, 60))
    })
}

/// A giant bat hovering low, wings spread to the region's edges, over its shadow.
fn bat() -> Image {
    let membrane = rgb(84, 62, 70);
    let fur = rgb(96, 72, 62);
    creature(|x, y| {
        let mut c = shadow(x, y, 80.0);
        for side in [-1.0, 1.0] {
            let at = |px: f64, py: f64| [128.0 + side * px, py];
            let wrist = at(70.0, 70.0);
            let tips = [
                at(124.0, 96.0),
                at(104.0, 150.0),
                at(74.0, 166.0),
                at(38.0, 170.0),
            ];
            let wing = polygon(
                x,
                y,
                &[
                    at(14.0, 118.0),
                    at(40.0, 88.0),
                    wrist,
                    tips[0],
                    at(112.0, 128.0),
                    tips[1],
                    at(88.0, 146.0),
                    tips[2],
                    at(56.0, 150.0),
                    tips[3],
                    at(16.0, 160.0),
                ],
            );
            let veins = fbm(x, y, 14.0, 341) * 0.3;
            c = lay(c, wing, shade(membrane, 1.0 + veins), x, y, 343);
            // The arm and finger bones through the membrane.
            let mut bones = segment(x, y, at(20.0, 112.0), wrist) - 3.5;
            for tip in tips {
                bones = bones.min(segment(x, y, wrist, tip) - 1.8);
            }
            c = mix_rgba(c, light(membrane, 0.3), coverage(bones.max(wing + 1.0)));
            let thumb = polygon(x, y, &[at(66.0, 72.0), at(72.0, 58.0), at(76.0, 72.0)]);
            c = lay(c, thumb, BONE, x, y, 345);
        }
        let body = ellipse(x, y, [128.0, 140.0], [24.0, 36.0]);
        c = lay(c, body, fur, x, y, 347);
        for side in [-1.0, 1.0] {
            let leg = segment(
                x,
                y,
                [128.0 + side * 10.0, 168.0],
                [128.0 + side * 14.0, 190.0],
            ) - 3.0;
            c = lay(c, leg, shade(fur, 0.8), x, y, 349);
            for k in [-1.0, 0.0, 1.0] {
                let claw = segment(
                    x,
                    y,
                    [128.0 + side * 14.0, 190.0],
                    [128.0 + side * 14.0 + k * 4.0, 198.0],
                ) - 1.2;
                c = mix_rgba(c, BONE, coverage(claw));
            }
            let ear = polygon(
                x,
                y,
                &[
                    [128.0 + side * 6.0, 92.0],
                    [128.0 + side * 30.0, 58.0],
                    [128.0 + side * 24.0, 100.0],
                ],
            );
            c = lay(c, ear, membrane, x, y, 351);
        }
        let head = ellipse(x, y, [128.0, 106.0], [22.0, 20.0]);
        c = lay(c, head, light(fur, 0.05), x, y, 353);
        let snout = ellipse(x, y, [128.0, 116.0], [10.0, 8.0]);
        c = lay(c, snout, rgb(130, 90, 86), x, y, 355);
        let leaf = polygon(x, y, &[[124.0, 112.0], [132.0, 112.0], [128.0, 102.0]]);
        c = mix_rgba(c, rgb(70, 40, 44), coverage(leaf));
        for tx in [123.0, 133.0] {
            let fang = polygon(x, y, &[[tx - 2.0, 120.0], [tx + 2.0, 120.0], [tx, 128.0]]);
            c = mix_rgba(c, BONE, coverage(fang));
        }
        c = eye(c, x, y, [118.0, 102.0], 3.5, rgb(240, 50, 40));
        eye(c, x, y, [138.0, 102.0], 3.5, rgb(240, 50, 40))
    })
}

/// A green ooze heaped on the floor: a glossy, lumpy mound with bubbles and a swallowed
/// skull dimly inside.
fn slime() -> Image {
    let ooze = rgb(96, 176, 72);
    creature(|x, y| {
        let mut c = shadow(x, y, 112.0);
        // The mound: lobes melted together (a smooth minimum), wobbling with noise.
        let lobes = [
            ellipse(x, y, [128.0, 206.0], [106.0, 40.0]),
            ellipse(x, y, [120.0, 160.0], [64.0, 62.0]),
            ellipse(x, y, [170.0, 186.0], [44.0, 40.0]),
            ellipse(x, y, [78.0, 190.0], [40.0, 34.0]),
        ];
        let d = lobes[1..]
            .iter()
            .fold(lobes[0], |a, &b| smooth_min(a, b, 18.0))
            + fbm(x, y, 16.0, 361) * 8.0;
        let d = d.max(y - 244.0);
        let depth = smoothstep(0.0, -40.0, d);
        let mut body = mix_rgba(
            light(ooze, 0.1),
            shade(ooze, 0.55),
            smoothstep(110.0, 244.0, y),
        );
        body = shade(body, 1.0 - depth * 0.15);
        // The skull inside, seen through the ooze.
        let skull =
            ellipse(x, y, [140.0, 190.0], [20.0, 18.0]).min(square(x, y, [140.0, 206.0], 9.0));
        let sockets = ellipse(x, y, [133.0, 190.0], [5.0, 6.0]).min(ellipse(
            x,
            y,
            [148.0, 190.0],
            [5.0, 6.0],
        ));
        let bone = mix_rgba(body, rgb(210, 220, 170), 0.45);
        body = mix_rgba(body, bone, coverage(skull));
        body = mix_rgba(body, shade(ooze, 0.4), coverage(sockets.max(skull)));
        // Bubbles rising through it.
        for k in 0..9 {
            let at = [
                mix(60.0, 196.0, hash(k, 0, 363)),
                mix(120.0, 226.0, hash(k, 1, 363)),
            ];
            let r = 3.0 + hash(k, 2, 363) * 6.0;
            let b = radius(x, y, at) - r;
            body = mix_rgba(body, light(ooze, 0.35), outline(b, 1.2) * 0.8);
            body = mix_rgba(
                body,
                rgb(240, 255, 220),
                coverage(radius(x, y, [at[0] - r * 0.4, at[1] - r * 0.4]) - r * 0.25),
            );
        }
        // A wet gloss on the upper left of each lobe.
        let gloss = smoothstep(0.62, 0.8, value(x, y, 9.0, 365))
            * smoothstep(-4.0, -24.0, d)
            * smoothstep(200.0, 120.0, y);
        body = light(body, gloss * 0.5);
        let shine = ellipse(x, y, [96.0, 124.0], [18.0, 8.0]);
        body = mix_rgba(body, with_alpha(rgb(240, 255, 230), 0.8), coverage(shine));
        c = mix_rgba(c, body, coverage(d));
        c = mix_rgba(c, shade(ooze, 0.3), outline(d, 3.0 * LOOK.line));
        // Drips at the foot.
        for (k, dx) in [70.0, 110.0, 168.0, 196.0].iter().enumerate() {
            let drip = ellipse(x, y, [*dx, 244.0], [8.0 + k as f64 * 2.0, 3.0]);
            c = mix_rgba(c, shade(ooze, 0.6), coverage(drip));
        }
        c
    })
}

/// The smooth minimum of two distances, blending within `k` texels (so lobes melt together).
fn smooth_min(a: f64, b: f64, k: f64) -> f64 {
    let h = (0.5 + 0.5 * (b - a) / k).clamp(0.0, 1.0);
    mix(b, a, h) - k * h * (1.0 - h)
}

/// A skeleton warrior: bare bones, a sword raised in its right hand, a dark cold light in its
/// sockets.
fn skeleton() -> Image {
    creature(|x, y| {
        let mut c = shadow(x, y, 60.0);
        // Legs: thigh, shin, foot, with knobbed joints.
        for side in [-1.0, 1.0] {
            let hip = [128.0 + side * 14.0, 164.0];
            let knee = [128.0 + side * 20.0, 204.0];
            let ankle = [128.0 + side * 22.0, 238.0];
            let leg = (segment(x, y, hip, knee) - 4.5).min(segment(x, y, knee, ankle) - 4.0);
            c = lay(c, leg, BONE, x, y, 371);
            let joint = radius(x, y, knee) - 6.5;
            c = lay(c, joint, BONE, x, y, 373);
            let foot = ellipse(x, y, [ankle[0] + side * 6.0, 240.0], [12.0, 4.5]);
            c = lay(c, foot, BONE, x, y, 375);
        }
        // Pelvis.
        let pelvis = ellipse(x, y, [128.0, 160.0], [24.0, 12.0]);
        c = lay(c, pelvis, BONE, x, y, 377);
        c = mix_rgba(
            c,
            LOOK.palette.void,
            coverage(ellipse(x, y, [128.0, 162.0], [8.0, 6.0])),
        );
        // Spine and ribs.
        let spine = segment(x, y, [128.0, 76.0], [128.0, 156.0]) - 3.5;
        c = lay(c, spine, BONE, x, y, 379);
        for k in 0..5 {
            let ky = 98.0 + k as f64 * 11.0;
            let half = 30.0 - k as f64 * 3.0;
            let rib = ellipse(x, y, [128.0, ky], [half, 10.0]);
            // Only the lower half of each ring: ribs curve down from the spine.
            let lower = coverage(ky - y);
            c = mix_rgba(c, LOOK.palette.ink, outline(rib, 6.0) * lower);
            c = mix_rgba(c, shade(BONE, 0.95), outline(rib, 4.0) * lower);
        }
        // The sword arm raised, the other hanging, hands of knuckles.
        let shoulders = segment(x, y, [98.0, 84.0], [158.0, 84.0]) - 4.0;
        c = lay(c, shoulders, BONE, x, y, 381);
        let left = (segment(x, y, [98.0, 86.0], [88.0, 128.0]) - 4.0)
            .min(segment(x, y, [88.0, 128.0], [92.0, 166.0]) - 3.5);
        c = lay(c, left, BONE, x, y, 383);
        let hand = ellipse(x, y, [92.0, 172.0], [6.0, 8.0]);
        c = lay(c, hand, BONE, x, y, 385);
        let right = (segment(x, y, [158.0, 86.0], [184.0, 110.0]) - 4.0)
            .min(segment(x, y, [184.0, 110.0], [196.0, 82.0]) - 3.5);
        c = lay(c, right, BONE, x, y, 387);
        // The sword: notched steel, a crossguard and a wrapped grip.
        c = blade(c, x, y, [200.0, 70.0], [236.0, 6.0], 6.0);
        let guard = segment(x, y, [188.0, 64.0], [212.0, 78.0]) - 3.5;
        c = lay(c, guard, LOOK.palette.iron, x, y, 389);
        let grip = segment(x, y, [200.0, 70.0], [190.0, 90.0]) - 3.0;
        c = lay(c, grip, LEATHER, x, y, 391);
        let fist = ellipse(x, y, [196.0, 80.0], [8.0, 7.0]);
        c = lay(c, fist, BONE, x, y, 393);
        let pommel = radius(x, y, [188.0, 94.0]) - 4.0;
        c = lay(c, pommel, LOOK.palette.iron, x, y, 395);
        // The skull: a rounded cranium, sockets, a nasal hole and a separate jaw of teeth.
        let jaw = square(x, y, [128.0, 74.0], 13.0);
        c = lay(c, jaw, shade(BONE, 0.92), x, y, 397);
        let cranium = ellipse(x, y, [128.0, 52.0], [22.0, 24.0]);
        c = lay(c, cranium, BONE, x, y, 399);
        for sx in [119.0, 137.0] {
            let socket = ellipse(x, y, [sx, 54.0], [7.0, 6.5]);
            c = mix_rgba(c, LOOK.palette.void, coverage(socket));
        }
        let nasal = polygon(x, y, &[[125.0, 68.0], [131.0, 68.0], [128.0, 60.0]]);
        c = mix_rgba(c, LOOK.palette.void, coverage(nasal));
        for k in 0..5 {
            let tx = 119.0 + k as f64 * 4.5;
            let gap = segment(x, y, [tx, 74.0], [tx, 82.0]) - 0.6;
            c = mix_rgba(c, LOOK.palette.ink, coverage(gap) * 0.8);
        }
        c = eye(c, x, y, [119.0, 55.0], 2.5, rgb(120, 200, 255));
        eye(c, x, y, [137.0, 55.0], 2.5, rgb(120, 200, 255))
    })
}

/// An orc: broad, green-grey, pig-snouted and tusked, in studded leather and a fur mantle,
/// a great axe held across its body.
fn orc() -> Image {
    let skin = rgb(112, 134, 82);
    let fur = rgb(86, 70, 58);
    creature(|x, y| {
        let mut c = shadow(x, y, 100.0);
        for side in [-1.0, 1.0] {
            let leg = segment(
                x,
                y,
                [128.0 + side * 26.0, 184.0],
                [128.0 + side * 34.0, 228.0],
            ) - 15.0;
            c = lay(c, leg, rgb(70, 62, 56), x, y, 401);
            let boot = square(x, y, [128.0 + side * 36.0, 232.0], 14.0).max(y - 244.0);
            c = lay(c, boot, shade(LEATHER, 0.7), x, y, 403);
        }
        let body = ellipse(x, y, [128.0, 150.0], [66.0, 58.0]);
        c = lay(c, body, LEATHER, x, y, 405);
        for k in 0..3 {
            for s in [-2.0, -1.0, 0.0, 1.0, 2.0] {
                let at = [128.0 + s * 20.0, 134.0 + k as f64 * 20.0];
                let stud = radius(x, y, at) - 3.0;
                c = mix_rgba(
                    c,
                    light(LOOK.palette.iron, 0.5),
                    coverage(stud.max(body + 3.0)),
                );
            }
        }
        let belt = ((y - 190.0).abs() - 7.0).max(body);
        c = mix_rgba(c, shade(LEATHER, 0.45), coverage(belt));
        let buckle = square(x, y, [128.0, 190.0], 9.0);
        c = lay(c, buckle, LOOK.palette.iron, x, y, 407);
        // Arms forward, gripping the axe's haft.
        let arm_l = (segment(x, y, [70.0, 118.0], [66.0, 164.0]) - 14.0)
            .min(segment(x, y, [66.0, 164.0], [96.0, 184.0]) - 12.0);
        c = lay(c, arm_l, skin, x, y, 409);
        let arm_r = (segment(x, y, [186.0, 118.0], [194.0, 150.0]) - 14.0)
            .min(segment(x, y, [194.0, 150.0], [170.0, 128.0]) - 12.0);
        c = lay(c, arm_r, skin, x, y, 411);
        // The axe: a long haft from lower left to upper right, a crescent head.
        let haft = segment(x, y, [70.0, 232.0], [206.0, 42.0]) - 5.0;
        c = lay(c, haft, HAFT, x, y, 413);
        let head = (radius(x, y, [214.0, 56.0]) - 38.0)
            .max(-(radius(x, y, [256.0, 62.0]) - 30.0))
            .max(polygon(
                x,
                y,
                &[[196.0, 30.0], [256.0, 10.0], [256.0, 110.0], [196.0, 78.0]],
            ));
        c = lay(c, head, STEEL, x, y, 415);
        let edge = (radius(x, y, [214.0, 56.0]) - 36.0).max(head);
        c = mix_rgba(c, light(STEEL, 0.5), outline(edge, 2.0) * 0.8);
        for at in [[96.0, 186.0], [172.0, 128.0]] {
            let fist = ellipse(x, y, at, [13.0, 11.0]);
            c = lay(c, fist, skin, x, y, 417);
        }
        // The fur mantle over the shoulders.
        let mantle = ellipse(x, y, [128.0, 108.0], [78.0, 26.0]) + fbm(x, y, 6.0, 419) * 8.0;
        c = lay(c, mantle, fur, x, y, 421);
        // The head: heavy brow, small eyes, a pig's snout, tusks, a black topknot.
        let knot = ellipse(x, y, [128.0, 30.0], [12.0, 14.0]);
        c = lay(c, knot, rgb(30, 28, 30), x, y, 423);
        for side in [-1.0, 1.0] {
            let ear = polygon(
                x,
                y,
                &[
                    [128.0 + side * 30.0, 64.0],
                    [128.0 + side * 60.0, 50.0],
                    [128.0 + side * 32.0, 84.0],
                ],
            );
            c = lay(c, ear, skin, x, y, 425);
        }
        let head = ellipse(x, y, [128.0, 72.0], [34.0, 36.0]);
        c = lay(c, head, skin, x, y, 427);
        let brow = ellipse(x, y, [128.0, 58.0], [30.0, 8.0]);
        c = mix_rgba(c, shade(skin, 0.7), coverage(brow));
        let snout = ellipse(x, y, [128.0, 80.0], [14.0, 10.0]);
        c = lay(c, snout, light(skin, 0.1), x, y, 429);
        for nx in [123.0, 133.0] {
            let nostril = ellipse(x, y, [nx, 81.0], [3.0, 4.0]);
            c = mix_rgba(c, LOOK.palette.ink, coverage(nostril));
        }
        let mouth = ellipse(x, y, [128.0, 97.0], [18.0, 5.0]);
        c = mix_rgba(c, LOOK.palette.void, coverage(mouth));
        for tx in [114.0, 142.0] {
            let tusk = polygon(x, y, &[[tx - 4.0, 100.0], [tx + 4.0, 100.0], [tx, 82.0]]);
            c = lay(c, tusk, BONE, x, y, 431);
        }
        c = eye(c, x, y, [115.0, 65.0], 3.5, rgb(255, 90, 40));
        eye(c, x, y, [141.0, 65.0], 3.5, rgb(255, 90, 40))
    })
}

/// The lich, the final guardian: a crowned skull in a dark robe trimmed with gold, a bony
/// hand on a staff whose orb burns cold, the same cold fire in its eyes.
fn lich() -> Image {
    let robe = rgb(60, 40, 84);
    let trim = rgb(214, 176, 82);
    let fire = rgb(110, 240, 200);
    creature(|x, y| {
        let mut c = shadow(x, y, 96.0);
        // A cold aura behind it all.
        let aura = radius(x, y, [128.0, 110.0]);
        c = mix_rgba(c, with_alpha(fire, 0.22), smoothstep(120.0, 30.0, aura));
        // The staff, behind the robe's edge, its orb high.
        let staff = segment(x, y, [206.0, 244.0], [206.0, 40.0]) - 4.0;
        c = lay(c, staff, rgb(70, 56, 50), x, y, 441);
        let claws = (segment(x, y, [206.0, 40.0], [194.0, 14.0]) - 2.5)
            .min(segment(x, y, [206.0, 40.0], [218.0, 14.0]) - 2.5);
        c = lay(c, claws, rgb(70, 56, 50), x, y, 443);
        // The orb burns like a great eye.
        c = eye(c, x, y, [206.0, 24.0], 11.0, fire);
        // The robe: a long flared shape with gold trim down the front and at the hem.
        let gown = polygon(
            x,
            y,
            &[[96.0, 90.0], [160.0, 90.0], [196.0, 244.0], [60.0, 244.0]],
        ) - 6.0;
        let folds = 1.0 + fbm(x * 3.0, y * 0.4, 12.0, 445) * 0.6;
        c = lay(c, gown, shade(robe, folds), x, y, 447);
        let front = ((x - 128.0).abs() - 6.0).max(gown + 2.0).max(110.0 - y);
        c = mix_rgba(c, trim, coverage(front));
        let hem = ((y - 232.0).abs() - 5.0).max(gown + 2.0);
        c = mix_rgba(c, trim, coverage(hem));
        // Sleeves: the staff hand reaching out, the other raised in a spell.
        let sleeve_r = segment(x, y, [156.0, 100.0], [194.0, 132.0]) - 15.0;
        c = lay(c, sleeve_r, shade(robe, 1.1), x, y, 449);
        let sleeve_l = segment(x, y, [100.0, 100.0], [62.0, 112.0]) - 15.0;
        c = lay(c, sleeve_l, shade(robe, 1.1), x, y, 451);
        for k in 0..4 {
            let kx = k as f64 * 5.0;
            let finger = segment(x, y, [199.0, 128.0 + kx * 0.6], [212.0, 122.0 + kx]) - 2.2;
            c = lay(c, finger, BONE, x, y, 453);
            let spell = segment(x, y, [56.0, 108.0], [36.0 + kx, 88.0 - kx * 0.8]) - 2.2;
            c = lay(c, spell, BONE, x, y, 455);
        }
        let spark = radius(x, y, [36.0, 76.0]);
        c = mix_rgba(c, with_alpha(fire, 0.6), smoothstep(22.0, 4.0, spark));
        c = mix_rgba(c, rgb(230, 255, 250), coverage(spark - 3.0));
        // A high collar behind the head.
        let collar = polygon(
            x,
            y,
            &[
                [84.0, 104.0],
                [92.0, 46.0],
                [128.0, 84.0],
                [164.0, 46.0],
                [172.0, 104.0],
            ],
        );
        c = lay(c, collar, shade(robe, 0.75), x, y, 457);
        c = mix_rgba(c, trim, outline(collar + 2.0, 2.0) * coverage(collar));
        // The skull: gaunt, hollow-cheeked, sockets alight.
        let skull = ellipse(x, y, [128.0, 70.0], [21.0, 25.0]);
        c = lay(c, skull, shade(BONE, 0.9), x, y, 459);
        for sx in [119.0, 137.0] {
            let socket = ellipse(x, y, [sx, 70.0], [7.0, 6.0]);
            c = mix_rgba(c, LOOK.palette.void, coverage(socket));
            let cheek = ellipse(x, y, [sx + (sx - 128.0) * 0.2, 84.0], [5.0, 4.0]);
            c = mix_rgba(c, shade(BONE, 0.6), coverage(cheek) * 0.7);
        }
        for k in 0..4 {
            let tx = 122.0 + k as f64 * 4.0;
            let tooth = segment(x, y, [tx, 88.0], [tx, 93.0]) - 1.3;
            c = mix_rgba(c, BONE, coverage(tooth));
        }
        // The crown: a gold band with five points and a red gem.
        let band = rounded_box(x, y, [128.0, 50.0], [23.0, 6.0], 1.5);
        let points = (0..5)
            .map(|k| {
                let px = 108.0 + k as f64 * 10.0;
                let tall = if k == 2 { 26.0 } else { 18.0 };
                polygon(
                    x,
                    y,
                    &[[px - 5.0, 46.0], [px, 46.0 - tall], [px + 5.0, 46.0]],
                )
            })
            .fold(f64::INFINITY, f64::min);
        c = lay(c, band.min(points), trim, x, y, 461);
        c = mix_rgba(
            c,
            rgb(200, 30, 40),
            coverage(ellipse(x, y, [128.0, 50.0], [4.0, 4.0])),
        );
        c = eye(c, x, y, [119.0, 70.0], 3.0, fire);
        eye(c, x, y, [137.0, 70.0], 3.0, fire)
    })
}

/// A box of half-size `half` about `centre` with corners rounded by a third of it: buckles,
/// boots, jaws.
fn square(x: f64, y: f64, centre: [f64; 2], half: f64) -> f64 {
    rounded_box(x, y, centre, [half, half], half / 3.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_creature_is_clear_at_its_top_corners_and_solid_at_its_middle() {
        let img = sheet();
        assert_eq!(img.width, 8 * 256);
        for (i, name) in NAMES.iter().enumerate() {
            let x0 = i as i64 * 256;
            assert_eq!(img.get(x0 + 2, 2)[3], 0.0, "{name} top-left");
            assert_eq!(img.get(x0 + 2, 253)[3], 0.0, "{name} bottom-left");
            assert_eq!(img.get(x0 + 128, 150)[3], 1.0, "{name} body");
        }
    }
}
