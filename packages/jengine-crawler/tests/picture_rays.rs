//! The picture checked pixel by pixel against a ray cast through the grid: whatever is drawn
//! last over a pixel must be the face a ray through that pixel meets first.
//!
//! The picture is a true perspective once depth is measured as `falloff^-plane`: a pixel's ray
//! is then a straight line from the eye, so walking it cell by cell finds the visible face.

use jengine_crawler::map::{Cell, Dungeon, Facing};
use jengine_crawler::view::{self, Face, Frame, Look, Quad};
use proptest::prelude::*;

fn facing() -> impl Strategy<Value = Facing> {
    prop_oneof![
        Just(Facing::North),
        Just(Facing::East),
        Just(Facing::South),
        Just(Facing::West)
    ]
}

/// A random floor of open cells, rock, pillars, doors, arches, chests, pits, stairs, secret
/// doors, buttons, teleporters, spinners, plates and dark cells, the party on an open cell.
fn floor() -> impl Strategy<Value = (Vec<String>, i32, i32)> {
    (3usize..12, 3usize..12).prop_flat_map(|(w, h)| {
        let cell = prop_oneof![
            7 => Just('.'),
            4 => Just('#'),
            1 => Just('+'),
            1 => Just('A'),
            1 => Just('L'),
            1 => Just('C'),
            1 => Just('O'),
            1 => Just('>'),
            1 => Just('<'),
            1 => Just('S'),
            1 => Just('B'),
            1 => Just('T'),
            1 => Just('%'),
            1 => Just('_'),
            1 => Just('D'),
        ];
        (
            prop::collection::vec(prop::collection::vec(cell, w), h),
            0..w as i32,
            0..h as i32,
        )
            .prop_map(|(grid, x, y)| {
                let mut rows: Vec<Vec<char>> = grid;
                rows[y as usize][x as usize] = '.';
                (
                    rows.into_iter().map(|r| r.into_iter().collect()).collect(),
                    x,
                    y,
                )
            })
    })
}

fn frame() -> impl Strategy<Value = Frame> {
    (40.0f32..800.0, 40.0f32..800.0, 0.2f32..0.9, 1u32..7).prop_map(
        |(cell_w, cell_h, falloff, depth)| Frame {
            cell_w,
            cell_h,
            falloff,
            gloom: 0.8,
            depth,
        },
    )
}

/// What a ray meets first: a face of the cell `depth` ahead and `side` across, or nothing
/// inside the picture's depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Hit {
    face: Face,
    depth: i32,
    side: i32,
}

/// Walks the ray through screen point (sx, sy) from the near edge of the party's cell. In
/// coordinates (lateral, height, t) with t = falloff^-plane the ray is (a t, b t, t).
fn cast(d: &Dungeon, at: (i32, i32, Facing), frame: &Frame, sx: f32, sy: f32) -> Option<Hit> {
    let (x, y, facing) = at;
    let f = f64::from(frame.falloff);
    let a = f64::from(sx) / f64::from(frame.cell_w);
    let b = 2.0 * f64::from(sy) / f64::from(frame.cell_h);
    // Darkness stops a ray as rock does (the picture draws its faces unlit).
    let solid = |depth: i32, side: i32| {
        let (cx, cy) = view::map_cell(x, y, facing, depth, side);
        d.cell(cx, cy).is_solid() || *d.cell(cx, cy) == Cell::Dark
    };
    // Standing in the dark, nothing shows.
    let (cx, cy) = view::map_cell(x, y, facing, 0, 0);
    if *d.cell(cx, cy) == Cell::Dark {
        return None;
    }
    let (mut depth, mut side) = (0, 0);
    loop {
        let to_far = f.powi(-depth);
        let to_roof = if b != 0.0 {
            1.0 / b.abs()
        } else {
            f64::INFINITY
        };
        let to_side = match a {
            a if a > 0.0 => (side as f64 + 0.5) / a,
            a if a < 0.0 => (side as f64 - 0.5) / a,
            _ => f64::INFINITY,
        };
        let here = Hit {
            face: Face::Floor,
            depth,
            side,
        };
        if to_roof <= to_far && to_roof <= to_side {
            let face = if b > 0.0 { Face::Floor } else { Face::Ceiling };
            return Some(Hit { face, ..here });
        }
        if to_side < to_far {
            let next = side + if a > 0.0 { 1 } else { -1 };
            if solid(depth, next) {
                let face = if a > 0.0 { Face::Right } else { Face::Left };
                return Some(Hit { face, ..here });
            }
            side = next;
        } else {
            if solid(depth + 1, side) {
                return Some(Hit {
                    face: Face::Front,
                    ..here
                });
            }
            if depth == frame.depth as i32 {
                return None;
            }
            depth += 1;
        }
    }
}

/// How far inside a quad a point is (negative: outside), in screen units.
fn inside(q: &Quad, px: f32, py: f32) -> f32 {
    (0..4)
        .map(|i| {
            let [ax, ay] = q.corners[i];
            let [bx, by] = q.corners[(i + 1) % 4];
            let (ex, ey) = (bx - ax, by - ay);
            (ex * (py - ay) - ey * (px - ax)) / (ex * ex + ey * ey).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}

/// Quads that hide what is behind them over their whole area: surfaces, not the arch's frame
/// (see-through inside it) nor things and monsters standing in a cell, which no ray in the
/// grid meets.
fn opaque(q: &Quad) -> bool {
    match q.face {
        Face::Front => !matches!(q.look, Look::Arch | Look::OpenDoor),
        Face::Floor | Face::Ceiling | Face::Left | Face::Right => true,
        Face::Thing | Face::Monster => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_last_quad_drawn_over_a_pixel_is_the_face_its_ray_meets_first(
        (rows, x, y) in floor(),
        facing in facing(),
        frame in frame(),
        pixels in prop::collection::vec((-0.999f32..0.999, -0.999f32..0.999), 150),
    ) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let d = Dungeon::from_rows(&refs);
        let quads: Vec<Quad> = view::build(&d, x, y, facing, &frame)
            .into_iter()
            .filter(opaque)
            .collect();
        let edge = 1e-3 * frame.cell_w.max(frame.cell_h);
        let mut compared = 0;
        for (u, v) in pixels {
            let (px, py) = (u * frame.half_width(), v * frame.half_height());
            // A pixel on the edge of any quad is a tie between two faces: skip it.
            if quads.iter().any(|q| inside(q, px, py).abs() < edge) {
                continue;
            }
            let drawn = quads.iter().rev().find(|q| inside(q, px, py) > 0.0);
            let hit = cast(&d, (x, y, facing), &frame, px, py);
            let drawn_hit = drawn.map(|q| Hit { face: q.face, depth: q.depth, side: q.side });
            prop_assert_eq!(drawn_hit, hit, "pixel ({}, {}), drawn {:?}", px, py, drawn);
            compared += 1;
        }
        prop_assert!(compared > 0, "every pixel fell on an edge");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn sight_holds_every_cell_a_pixel_shows_and_nothing_the_picture_does_not_draw(
        (rows, x, y) in floor(),
        facing in facing(),
        frame in frame(),
    ) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let d = Dungeon::from_rows(&refs);
        let seen = view::sight(&d, x, y, facing, &frame);
        let cell = |depth: i32, side: i32| {
            let (cx, cy) = view::map_cell(x, y, facing, depth, side);
            [cx, cy]
        };
        // Every face a ray through one of sight's columns meets belongs to a cell it holds
        // (but the wall ahead of the last depth, where the picture has faded to nothing).
        let columns = view::SIGHT_COLUMNS;
        for k in 0..columns {
            let u = (k as f32 + 0.5) / columns as f32 * 2.0 - 1.0;
            for r in 0..24 {
                let v = (r as f32 + 0.5) / 24.0 * 2.0 - 1.0;
                let (px, py) = (u * frame.half_width(), v * frame.half_height());
                let Some(hit) = cast(&d, (x, y, facing), &frame, px, py) else { continue };
                let faced = match hit.face {
                    Face::Front if hit.depth == frame.depth as i32 => continue,
                    Face::Front => cell(hit.depth + 1, hit.side),
                    Face::Left => cell(hit.depth, hit.side - 1),
                    Face::Right => cell(hit.depth, hit.side + 1),
                    _ => cell(hit.depth, hit.side),
                };
                // Darkness is never seen.
                if *d.cell(faced[0], faced[1]) == Cell::Dark {
                    continue;
                }
                prop_assert!(seen.contains(&faced), "pixel ({}, {}) shows {:?} = {:?}", px, py, hit, faced);
            }
        }
        // ...and every cell it holds is one whose floor, or whose wall, the picture draws.
        let quads = view::build(&d, x, y, facing, &frame);
        for c in &seen {
            let drawn = quads.iter().any(|q| {
                let faced = match q.face {
                    Face::Front => cell(q.depth + 1, q.side),
                    Face::Left => cell(q.depth, q.side - 1),
                    Face::Right => cell(q.depth, q.side + 1),
                    _ => q.cell,
                };
                q.cell == *c || faced == *c
            });
            prop_assert!(drawn, "{:?} is held but not drawn", c);
        }
    }
}

#[test]
fn a_far_wall_is_not_drawn_over_the_side_of_a_nearer_pillar() {
    // The pillar stands one cell ahead and to the right; two cells to the right, rock closes
    // off the row behind it. Its wall ahead, on the far plane of depth 1, peeks out beside
    // the pillar's side, which must be drawn over it.
    let d = Dungeon::from_rows(&["#######", "#######", "#..#.##", "#.....#", "#######"]);
    let frame = Frame {
        cell_w: 100.0,
        cell_h: 80.0,
        falloff: 0.25,
        gloom: 0.8,
        depth: 3,
    };
    let quads = view::build(&d, 2, 3, Facing::North, &frame);
    let side = quads
        .iter()
        .position(|q| q.face == Face::Right && q.depth == 1 && q.side == 0)
        .expect("the pillar's side");
    let wall = quads
        .iter()
        .position(|q| q.face == Face::Front && q.depth == 1 && q.side == 2)
        .expect("the wall beyond");
    assert!(
        wall < side,
        "the wall ahead comes before the nearer side wall"
    );
    assert_eq!(d.cell(3, 2), &Cell::Wall);
}
