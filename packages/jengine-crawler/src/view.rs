//! The first-person picture, as quads drawn far to near. Pure geometry, no engine.
//!
//! The one idea: everything is placed on the boundaries between cells. Plane `p` is the one
//! `p + 1/2` cells ahead of the party; the frame's `cell_w x cell_h` is plane 0, each plane back
//! is `falloff` smaller, and every corner goes on its own plane, so a wall off to the side
//! runs from a wide near plane to a narrow far one and leans toward the middle of the screen.

use crate::map::{Cell, Dungeon, Facing, Item};
use serde::{Deserialize, Serialize};

/// How the picture is laid out. Screen units are the game's; the middle of the corridor is
/// (0, 0) and y grows downward.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Width of plane 0: the wall directly ahead of the party.
    pub cell_w: f32,
    /// Height of plane 0.
    pub cell_h: f32,
    /// How much smaller each plane is than the one in front of it (between 0 and 1).
    pub falloff: f32,
    /// How much darker each plane is than the one in front of it (between 0 and 1).
    pub gloom: f32,
    /// How many cells ahead the picture reaches.
    #[serde(default = "default_depth")]
    pub depth: u32,
}

fn default_depth() -> u32 {
    4
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            cell_w: 470.0,
            cell_h: 400.0,
            falloff: 0.56,
            gloom: 0.8,
            depth: default_depth(),
        }
    }
}

impl Frame {
    /// The frame with its numbers brought into range, so the picture never holds a NaN:
    /// falloff and gloom inside (0, 1], sizes positive, depth at most 16.
    fn sane(&self) -> Frame {
        let unit = |v: f32, low: f32| {
            if v.is_finite() {
                v.clamp(low, 1.0)
            } else {
                1.0
            }
        };
        let size = |v: f32| if v.is_finite() && v > 0.0 { v } else { 1.0 };
        Frame {
            cell_w: size(self.cell_w),
            cell_h: size(self.cell_h),
            falloff: unit(self.falloff, 0.05).min(0.99),
            gloom: unit(self.gloom, 0.0),
            depth: self.depth.min(16),
        }
    }

    /// Half the width of the picture: plane -1, where the party's own cell begins.
    pub fn half_width(&self) -> f32 {
        let f = self.sane();
        f.cell_w * 0.5 / f.falloff
    }

    /// Half the height of the picture (plane -1).
    pub fn half_height(&self) -> f32 {
        let f = self.sane();
        f.cell_h * 0.5 / f.falloff
    }

    /// How much a plane is scaled against plane 0.
    fn scale(&self, plane: f32) -> f32 {
        self.falloff.powf(plane)
    }

    /// A point on `plane`, `lateral` cells to the right of the middle, on the floor (`up` -1
    /// for the ceiling, +1 for the floor).
    fn point(&self, lateral: f32, plane: f32, up: f32) -> [f32; 2] {
        let s = self.scale(plane);
        [lateral * self.cell_w * s, up * 0.5 * self.cell_h * s]
    }

    /// The light on a plane: full at the edge of the picture, `gloom` less per plane back, and
    /// across the last depth falling to nothing, so the far end of the picture fades into the
    /// dark around it instead of stopping at an edge.
    fn shade(&self, plane: f32) -> f32 {
        let fade = (self.depth as f32 - plane).clamp(0.0, 1.0);
        (self.gloom.powf(plane + 1.0) * fade).clamp(0.0, 1.0)
    }
}

/// Which kind of surface a quad is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Face {
    /// A wall (or door, or arch) facing the party across the cell.
    Front,
    /// A wall on the left of a cell, seen from the right.
    Left,
    /// A wall on the right of a cell, seen from the left.
    Right,
    /// The floor of a cell.
    Floor,
    /// The ceiling of a cell.
    Ceiling,
    /// Something in the cell: a chest, a pit, stairs, a sprung trap.
    Thing,
    /// A monster, or a fight waiting on the cell.
    Monster,
}

impl Face {
    /// The draw order within one depth: floor and ceiling, the wall ahead, side walls,
    /// things, monsters. The wall ahead stands on the depth's far plane while its side walls
    /// run from the near plane to it, so a side wall can hide a wall ahead but never the
    /// other way round: the wall ahead goes first.
    pub fn layer(self) -> u8 {
        match self {
            Face::Floor | Face::Ceiling => 0,
            Face::Front => 1,
            Face::Left | Face::Right => 2,
            Face::Thing => 3,
            Face::Monster => 4,
        }
    }
}

/// What a quad shows, for choosing its art.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Look {
    /// Bare wall.
    Wall,
    /// Floor.
    Floor,
    /// Ceiling.
    Ceiling,
    /// A shut door.
    Door,
    /// A locked door.
    Locked,
    /// A lever not yet pulled.
    Lever,
    /// A lever that has been pulled.
    LeverPulled,
    /// The frame of an archway: a doorway that never had a door.
    Arch,
    /// A door that has been opened: its frame, the door swung back against it.
    OpenDoor,
    /// A chest with something in it.
    Chest,
    /// A chest that has been emptied.
    ChestOpen,
    /// A pit in the floor.
    Pit,
    /// Stairs down: the treads of a flight going down into the floor (and the walls of its
    /// well are `wall`).
    StairsDown,
    /// Stairs up: the risers, treads and sides of a flight rising out of the floor.
    StairsUp,
    /// A trap that has gone off, in the floor.
    Trap,
    /// A monster (the quad's `art` names which).
    Monster,
    /// A fight waiting on the cell (the quad's `art` names it).
    Encounter,
    /// A teleporter's glyph in the floor.
    Teleporter,
    /// A spinner's faint mark in the floor.
    Spinner,
    /// A pressure plate in the floor.
    Plate,
    /// A button set in a wall, not pressed.
    Button,
    /// A button pressed in.
    ButtonPressed,
    /// Something lying on the floor (the quad's `art` names it when the level gives one).
    Item,
    /// A decoration over a wall face (the quad's `art` names it).
    Decor,
}

/// One piece of the picture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quad {
    /// Which surface.
    pub face: Face,
    /// What it shows.
    pub look: Look,
    /// The art of a monster or fight.
    pub art: Option<String>,
    /// Cells ahead of the party of the cell that owns the quad (0: the party's own).
    pub depth: i32,
    /// Cells to the right of the party of that cell (negative: left).
    pub side: i32,
    /// That cell on the map, as [x, y].
    pub cell: [i32; 2],
    /// Order within the depth (see [`Face::layer`]).
    pub layer: u8,
    /// Corners, clockwise on screen, in the order of the art's top-left, top-right,
    /// bottom-right and bottom-left.
    pub corners: [[f32; 2]; 4],
    /// Perspective weight per corner: 1 on the nearer plane, `falloff` on the farther.
    pub q: [f32; 4],
    /// Light per corner, from 1 at the edge of the picture down by `gloom` per plane, and
    /// fading to nothing across the last depth.
    pub shade: [f32; 4],
    /// The outline, on screen, the quad is seen through, when it is not the whole picture:
    /// the parts of a stairwell below the floor show only through the hole in the floor.
    /// Corners wound like [`Quad::corners`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clip: Option<[[f32; 2]; 4]>,
    /// Left of the box around the corners.
    pub x: f32,
    /// Top of that box.
    pub y: f32,
    /// Its width.
    pub w: f32,
    /// Its height.
    pub h: f32,
}

/// An open cell the picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sighted {
    /// Cells ahead.
    pub depth: i32,
    /// Cells to the right.
    pub side: i32,
    /// Map cell.
    pub x: i32,
    /// Map row.
    pub y: i32,
}

/// Where (depth, side) lands on the map for a party at (x, y) facing `facing`.
pub fn map_cell(x: i32, y: i32, facing: Facing, depth: i32, side: i32) -> (i32, i32) {
    let (ax, ay) = facing.ahead();
    let (rx, ry) = facing.right();
    // Saturating, so a position far off any floor is simply rock rather than an overflow.
    let along = |base: i32, a: i32, r: i32| {
        base.saturating_add(a.saturating_mul(depth))
            .saturating_add(r.saturating_mul(side))
    };
    (along(x, ax, rx), along(y, ay, ry))
}

/// The open cells in the picture, nearest first: those a ray reaches going forward and
/// outward through open cells (never back toward the middle), and that fall inside the picture.
pub fn in_view(dungeon: &Dungeon, x: i32, y: i32, facing: Facing, frame: &Frame) -> Vec<Sighted> {
    let frame = frame.sane();
    let mut out = Vec::new();
    trace(dungeon, x, y, facing, &frame, |s| out.push(s));
    out
}

fn trace(
    dungeon: &Dungeon,
    x: i32,
    y: i32,
    facing: Facing,
    frame: &Frame,
    mut visit: impl FnMut(Sighted),
) {
    let depth = frame.depth as i32;
    // A cell is inside the picture while its inner edge on its far plane is: that edge is
    // the innermost point of its floor and of its wall ahead.
    let half = 0.5 / frame.falloff;
    let on_screen = |d: i32, s: i32| (s.abs() as f32 - 0.5) * frame.scale(d as f32) < half;
    let mut lateral = 0;
    while lateral < 64 && on_screen(depth, lateral + 1) {
        lateral += 1;
    }
    let row = (2 * lateral + 1) as usize;
    let mut reached = vec![false; row * (depth as usize + 1)];
    let at = |d: i32, s: i32| d as usize * row + (s + lateral) as usize;
    let open = |d: i32, s: i32| {
        let (cx, cy) = map_cell(x, y, facing, d, s);
        // A dark cell shows nothing in it or beyond it.
        !dungeon.cell(cx, cy).is_solid() && *dungeon.cell(cx, cy) != Cell::Dark
    };
    for d in 0..=depth {
        // The middle first, then outward to each side: each cell is reached from the one
        // behind it or the one nearer the middle beside it.
        for s in (0..=lateral).chain((1..=lateral).map(|s| -s)) {
            let from_behind = d > 0 && reached[at(d - 1, s)];
            let from_inside = match s {
                0 => d == 0,
                s if s > 0 => reached[at(d, s - 1)],
                s => reached[at(d, s + 1)],
            };
            if (from_behind || from_inside) && open(d, s) {
                reached[at(d, s)] = true;
                if on_screen(d, s) {
                    let (cx, cy) = map_cell(x, y, facing, d, s);
                    visit(Sighted {
                        depth: d,
                        side: s,
                        x: cx,
                        y: cy,
                    });
                }
            }
        }
    }
}

/// How many columns of the picture [`sight`] looks along.
pub const SIGHT_COLUMNS: usize = 128;

/// The cells some pixel of the picture shows a face of, as [x, y], each once: the open cells
/// whose floor or ceiling shows and the solid cells whose walls do.
///
/// Walls are as tall as the corridor and the eye is half-way up it, so whatever a column of
/// the picture shows, it shows on the horizon: a wall across the column hides everything
/// behind it from floor to ceiling, and every cell the horizon passes before it shows its
/// floor somewhere below. So one ray per column along the horizon, walked through the grid
/// the way the picture is built (depth as `falloff^-plane`, in which rays are straight),
/// finds every cell with a pixel in that column. A wall ahead of the last depth lies where
/// the picture has faded to nothing and is not seen.
pub fn sight(dungeon: &Dungeon, x: i32, y: i32, facing: Facing, frame: &Frame) -> Vec<[i32; 2]> {
    let frame = frame.sane();
    let f = f64::from(frame.falloff);
    let half = f64::from(frame.half_width()) / f64::from(frame.cell_w);
    let cell = |d: i32, s: i32| {
        let (cx, cy) = map_cell(x, y, facing, d, s);
        [cx, cy]
    };
    let mut seen = Vec::new();
    if *dungeon.cell(x, y) == Cell::Dark {
        return seen;
    }
    // Neighbouring rays cross mostly the same cells: each is kept once, as it is first met
    // (a mark per cell of the drawing; a cell off it is looked for in the list).
    let mut marked = vec![false; (dungeon.width.max(0) * dungeon.height.max(0)) as usize];
    let mut keep = |seen: &mut Vec<[i32; 2]>, [cx, cy]: [i32; 2]| {
        if dungeon.contains(cx, cy) {
            let i = (cy * dungeon.width + cx) as usize;
            if !marked[i] {
                marked[i] = true;
                seen.push([cx, cy]);
            }
        } else if !seen.contains(&[cx, cy]) {
            seen.push([cx, cy]);
        }
    };
    keep(&mut seen, cell(0, 0));
    // Where each depth's far plane is along a ray, worked out once.
    let planes: Vec<f64> = (0..=frame.depth as i32).map(|d| f.powi(-d)).collect();
    for column in 0..SIGHT_COLUMNS {
        // The ray through the middle of the column: `a` cells across per unit of depth.
        let a = ((column as f64 + 0.5) / SIGHT_COLUMNS as f64 * 2.0 - 1.0) * half;
        let (mut depth, mut side) = (0i32, 0i32);
        loop {
            let to_far = planes[depth as usize];
            let to_side = match a {
                a if a > 0.0 => (f64::from(side) + 0.5) / a,
                a if a < 0.0 => (f64::from(side) - 0.5) / a,
                _ => f64::INFINITY,
            };
            let next = if to_side < to_far {
                (depth, side + if a > 0.0 { 1 } else { -1 })
            } else if depth < frame.depth as i32 {
                (depth + 1, side)
            } else {
                break;
            };
            let [cx, cy] = cell(next.0, next.1);
            let here = dungeon.cell(cx, cy);
            // A dark cell shows nothing, nor anything beyond it.
            if *here == Cell::Dark {
                break;
            }
            keep(&mut seen, [cx, cy]);
            if here.is_solid() {
                break;
            }
            (depth, side) = next;
        }
    }
    seen.sort_unstable();
    seen
}

/// The picture from (x, y) facing `facing`: every quad, far to near, and within a depth in
/// layer order, so drawing them in turn paints each nearer thing over what it hides.
pub fn build(dungeon: &Dungeon, x: i32, y: i32, facing: Facing, frame: &Frame) -> Vec<Quad> {
    let frame = frame.sane();
    let mut quads = Vec::with_capacity(256);
    trace(dungeon, x, y, facing, &frame, |seen| {
        emit(dungeon, x, y, facing, &frame, seen, &mut quads);
    });
    // Floors and ceilings first, all of them: nothing standing between floor and ceiling is
    // ever behind a floor or a ceiling, so they are the backdrop, and a monster taller than
    // its corridor (as the classics drew them) shows over the ceiling of the cells before it.
    quads.sort_by_key(|q| (q.layer != 0, -q.depth, q.layer, -q.side.abs(), q.side));
    quads
}

/// The quads one open cell owns.
fn emit(
    dungeon: &Dungeon,
    x: i32,
    y: i32,
    facing: Facing,
    frame: &Frame,
    seen: Sighted,
    quads: &mut Vec<Quad>,
) {
    let Sighted {
        depth: d, side: s, ..
    } = seen;
    let first = quads.len();
    let cell_at = |dd: i32, ss: i32| {
        let (cx, cy) = map_cell(x, y, facing, dd, ss);
        dungeon.cell(cx, cy)
    };
    let (near, far) = (d as f32 - 1.0, d as f32);
    let (left, right) = (s as f32 - 0.5, s as f32 + 0.5);
    let mut put =
        |face: Face, look: Look, art: Option<String>, corners: [[f32; 2]; 4], planes: [f32; 4]| {
            quads.push(quad(frame, seen, face, look, art, corners, planes));
        };
    let p = |lateral: f32, plane: f32, up: f32| frame.point(lateral, plane, up);

    let floor = [
        p(left, far, 1.0),
        p(right, far, 1.0),
        p(right, near, 1.0),
        p(left, near, 1.0),
    ];
    let floor_planes = [far, far, near, near];
    put(Face::Floor, Look::Floor, None, floor, floor_planes);
    put(
        Face::Ceiling,
        Look::Ceiling,
        None,
        [
            p(left, near, -1.0),
            p(right, near, -1.0),
            p(right, far, -1.0),
            p(left, far, -1.0),
        ],
        [near, near, far, far],
    );

    // A decoration hangs on the face of a solid cell looking toward `toward`: drawn over that
    // face, in its exact shape, right after it.
    let decor = |dd: i32, ss: i32, toward: Facing| {
        let (cx, cy) = map_cell(x, y, facing, dd, ss);
        dungeon
            .decor
            .iter()
            .find(|k| k.at == [cx, cy] && k.side == toward)
            .map(|k| k.art.clone())
    };
    let mut wall = |face: Face, look: Look, corners, planes, on: (i32, i32, Facing)| {
        put(face, look, None, corners, planes);
        if let Some(art) = decor(on.0, on.1, on.2) {
            put(face, Look::Decor, Some(art), corners, planes);
        }
    };

    // Darkness hides what is behind it like rock, but shows nothing: its faces are drawn
    // without light.
    let blocks = |c: &Cell| c.is_solid() || *c == Cell::Dark;

    // Only the side of a wall that faces the party is ever seen.
    if s <= 0 && blocks(cell_at(d, s - 1)) {
        wall(
            Face::Left,
            Look::Wall,
            [
                p(left, near, -1.0),
                p(left, far, -1.0),
                p(left, far, 1.0),
                p(left, near, 1.0),
            ],
            [near, far, far, near],
            (d, s - 1, facing.turned(1)),
        );
    }
    if s >= 0 && blocks(cell_at(d, s + 1)) {
        wall(
            Face::Right,
            Look::Wall,
            [
                p(right, far, -1.0),
                p(right, near, -1.0),
                p(right, near, 1.0),
                p(right, far, 1.0),
            ],
            [far, near, near, far],
            (d, s + 1, facing.turned(3)),
        );
    }

    let ahead = match cell_at(d + 1, s) {
        Cell::Wall => Some(Look::Wall),
        Cell::Door => Some(Look::Door),
        Cell::Locked => Some(Look::Locked),
        Cell::Lever { pulled: false } => Some(Look::Lever),
        Cell::Lever { pulled: true } => Some(Look::LeverPulled),
        // Rock until it is found.
        Cell::Secret => Some(Look::Wall),
        Cell::Button { pressed: false } => Some(Look::Button),
        Cell::Button { pressed: true } => Some(Look::ButtonPressed),
        // The frame stands where the door stood and is drawn over whatever is in the doorway.
        Cell::Arch => Some(Look::Arch),
        Cell::Open => Some(Look::OpenDoor),
        Cell::Dark => Some(Look::Wall),
        _ => None,
    };
    if let Some(look) = ahead {
        let corners = [
            p(left, far, -1.0),
            p(right, far, -1.0),
            p(right, far, 1.0),
            p(left, far, 1.0),
        ];
        wall(
            Face::Front,
            look,
            corners,
            [far; 4],
            (d + 1, s, facing.turned(2)),
        );
    }

    let here = cell_at(d, s);
    let on_floor = match here {
        Cell::Pit => Some(Look::Pit),
        Cell::Trap { sprung: true, .. } => Some(Look::Trap),
        Cell::Teleporter => Some(Look::Teleporter),
        Cell::Spinner => Some(Look::Spinner),
        Cell::Plate { .. } => Some(Look::Plate),
        _ => None,
    };
    if let Some(look) = on_floor {
        put(Face::Thing, look, None, floor, floor_planes);
    }
    match here {
        Cell::Down => stairs_down(frame, seen, floor, quads),
        // The party standing on stairs up sees past them, not a flight filling the view.
        Cell::Up if d > 0 => stairs_up(frame, seen, quads),
        _ => {}
    }

    // Standing things are drawn as the classics drew their sprites: from the near edge of
    // their cell, so the one in the cell ahead looms, a monster taller than the corridor.
    let (anchor, tall) = if d == 0 {
        (-0.5, STANDING_OWN)
    } else if matches!(here, Cell::Arch | Cell::Open) {
        // In a doorway, no taller than the doorway: its frame is drawn over it.
        (near, STANDING_DOORWAY)
    } else {
        (near, STANDING)
    };
    let scale = frame.scale(anchor);
    let centre = s as f32 * frame.cell_w * scale;
    let ground = 0.5 * frame.cell_h * scale;
    let standing = |w: f32, h: f32| {
        [
            [centre - w / 2.0, ground - h],
            [centre + w / 2.0, ground - h],
            [centre + w / 2.0, ground],
            [centre - w / 2.0, ground],
        ]
    };
    // Lit as the middle of the cell they stand in.
    let mid = d as f32 - 0.5;
    let mut put = |face: Face, look: Look, art: Option<String>, corners: [[f32; 2]; 4]| {
        quads.push(quad(frame, seen, face, look, art, corners, [mid; 4]));
    };
    if let Cell::Chest { opened, .. } = here {
        // As wide as it is tall.
        let size = CHEST * frame.cell_h * scale;
        let look = if *opened {
            Look::ChestOpen
        } else {
            Look::Chest
        };
        put(Face::Thing, look, None, standing(size, size));
    }

    let (cx, cy) = (seen.x, seen.y);
    // What lies on the floor, small, half-way through the cell: up to three side by side.
    let lying: Vec<&Item> = dungeon
        .items
        .iter()
        .filter(|i| i.at == [cx, cy])
        .take(3)
        .collect();
    let scale_mid = frame.scale(mid);
    let size = ITEM * frame.cell_h * scale_mid;
    let ground_mid = 0.5 * frame.cell_h * scale_mid;
    for (k, item) in lying.iter().enumerate() {
        let spread = (k as f32 - (lying.len() as f32 - 1.0) / 2.0) * 0.4;
        let centre = (s as f32 + spread) * frame.cell_w * scale_mid;
        let corners = [
            [centre - size / 2.0, ground_mid - size],
            [centre + size / 2.0, ground_mid - size],
            [centre + size / 2.0, ground_mid],
            [centre - size / 2.0, ground_mid],
        ];
        put(Face::Thing, Look::Item, item.art.clone(), corners);
    }

    let body = standing(
        tall[0] * frame.cell_w * scale,
        tall[1] * frame.cell_h * scale,
    );
    if let Some(i) = dungeon.monster_at(cx, cy) {
        let art = Some(dungeon.monsters[i].art.clone());
        put(Face::Monster, Look::Monster, art, body);
    }
    if let Some(i) = dungeon.encounter_at(cx, cy) {
        let spot = &dungeon.encounters[i].spot;
        let art = Some(spot.art.clone().unwrap_or_else(|| spot.group.clone()));
        put(Face::Monster, Look::Encounter, art, body);
    }

    for q in &mut quads[first..] {
        let faced = match q.face {
            Face::Front => cell_at(d + 1, s),
            Face::Left => cell_at(d, s - 1),
            Face::Right => cell_at(d, s + 1),
            _ => continue,
        };
        if *faced == Cell::Dark {
            q.shade = [0.0; 4];
        }
    }
}

/// A monster's (or a waiting fight's) width and height, against its anchor plane's cell: a
/// third taller than the corridor, so the one in the cell ahead fills most of the picture.
const STANDING: [f32; 2] = [0.95, 1.3];
/// In a doorway: just under its lintel.
const STANDING_DOORWAY: [f32; 2] = [0.72, 0.98];
/// On the party's own cell (a fight being settled), in the middle of it.
const STANDING_OWN: [f32; 2] = [0.6, 0.8];
/// A chest's side, against its anchor plane's cell height.
const CHEST: f32 = 0.55;
/// The side of something lying on the floor, against the cell's height half-way through it.
const ITEM: f32 = 0.4;
/// Steps in a flight of stairs.
const STEPS: usize = 4;
/// How deep a stairwell goes below the floor, in cell heights.
const WELL: f32 = 0.7;

/// Stairs down: a well in the floor, its far wall and outer side wall, and the treads going
/// down away from the party, each darker than the one before, all seen only through the hole
/// (`clip`), since the floor before the hole hides the rest.
fn stairs_down(frame: &Frame, seen: Sighted, hole: [[f32; 2]; 4], quads: &mut Vec<Quad>) {
    let (d, s) = (seen.depth, seen.side);
    let (near, far) = (d as f32 - 1.0, d as f32);
    let (left, right) = (s as f32 - 0.5, s as f32 + 0.5);
    let p = |lateral: f32, plane: f32, up: f32| frame.point(lateral, plane, up);
    // `up` below the floor: 1 on the floor, 1 + 2h at h cell heights below it.
    let bottom = 1.0 + 2.0 * WELL;
    let mut put = |look: Look, corners: [[f32; 2]; 4], planes: [f32; 4], dim: [f32; 4]| {
        let mut q = quad(frame, seen, Face::Thing, look, None, corners, planes);
        for (shade, dim) in q.shade.iter_mut().zip(dim) {
            *shade *= dim;
        }
        q.clip = Some(hole);
        quads.push(q);
    };
    // The bottom of the well, in the dark.
    let deep = 0.25;
    put(
        Look::Wall,
        [
            p(left, far, 1.0),
            p(right, far, 1.0),
            p(right, far, bottom),
            p(left, far, bottom),
        ],
        [far; 4],
        [1.0, 1.0, deep, deep],
    );
    if s >= 0 {
        put(
            Look::Wall,
            [
                p(right, far, 1.0),
                p(right, near, 1.0),
                p(right, near, bottom),
                p(right, far, bottom),
            ],
            [far, near, near, far],
            [1.0, 1.0, deep, deep],
        );
    }
    if s <= 0 {
        put(
            Look::Wall,
            [
                p(left, near, 1.0),
                p(left, far, 1.0),
                p(left, far, bottom),
                p(left, near, bottom),
            ],
            [near, far, far, near],
            [1.0, 1.0, deep, deep],
        );
    }
    let n = STEPS as f32;
    for i in (0..STEPS).rev() {
        let i = i as f32;
        let (pn, pf) = (near + i / n, near + (i + 1.0) / n);
        let below = (i + 1.0) / n;
        let up = 1.0 + 2.0 * WELL * below;
        let dim = 1.0 - 0.75 * below;
        put(
            Look::StairsDown,
            [
                p(left, pf, up),
                p(right, pf, up),
                p(right, pn, up),
                p(left, pn, up),
            ],
            [pf, pf, pn, pn],
            [dim; 4],
        );
    }
}

/// Stairs up: a flight rising from the near edge of its cell's floor to the ceiling at its
/// far edge, far steps first. Each step shows its riser, its tread while that is below the
/// eye, and its side toward the middle of the picture when it is off to one side.
fn stairs_up(frame: &Frame, seen: Sighted, quads: &mut Vec<Quad>) {
    let (d, s) = (seen.depth, seen.side);
    let near = d as f32 - 1.0;
    let (left, right) = (s as f32 - 0.5, s as f32 + 0.5);
    let p = |lateral: f32, plane: f32, up: f32| frame.point(lateral, plane, up);
    let mut put = |corners: [[f32; 2]; 4], planes: [f32; 4]| {
        quads.push(quad(
            frame,
            seen,
            Face::Thing,
            Look::StairsUp,
            None,
            corners,
            planes,
        ));
    };
    let n = STEPS as f32;
    for i in (0..STEPS).rev() {
        let i = i as f32;
        let (pn, pf) = (near + i / n, near + (i + 1.0) / n);
        // `up` from 1 on the floor to -1 at the ceiling.
        let (base, top) = (1.0 - 2.0 * i / n, 1.0 - 2.0 * (i + 1.0) / n);
        if s > 0 {
            put(
                [
                    p(left, pn, top),
                    p(left, pf, top),
                    p(left, pf, 1.0),
                    p(left, pn, 1.0),
                ],
                [pn, pf, pf, pn],
            );
        }
        if s < 0 {
            put(
                [
                    p(right, pf, top),
                    p(right, pn, top),
                    p(right, pn, 1.0),
                    p(right, pf, 1.0),
                ],
                [pf, pn, pn, pf],
            );
        }
        if top > 0.0 {
            put(
                [
                    p(left, pf, top),
                    p(right, pf, top),
                    p(right, pn, top),
                    p(left, pn, top),
                ],
                [pf, pf, pn, pn],
            );
        }
        put(
            [
                p(left, pn, top),
                p(right, pn, top),
                p(right, pn, base),
                p(left, pn, base),
            ],
            [pn; 4],
        );
    }
}

fn quad(
    frame: &Frame,
    seen: Sighted,
    face: Face,
    look: Look,
    art: Option<String>,
    corners: [[f32; 2]; 4],
    planes: [f32; 4],
) -> Quad {
    let nearest = planes.iter().copied().fold(f32::INFINITY, f32::min);
    let q = planes.map(|p| frame.scale(p - nearest));
    let shade = planes.map(|p| frame.shade(p));
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for [cx, cy] in corners {
        x0 = x0.min(cx);
        y0 = y0.min(cy);
        x1 = x1.max(cx);
        y1 = y1.max(cy);
    }
    Quad {
        face,
        look,
        art,
        depth: seen.depth,
        side: seen.side,
        cell: [seen.x, seen.y],
        layer: face.layer(),
        corners,
        q,
        shade,
        clip: None,
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}

/// Twice the signed area of a quad's outline: positive when its corners run clockwise on
/// screen (y down), which is how every quad is wound.
pub fn winding(corners: &[[f32; 2]; 4]) -> f32 {
    (0..4)
        .map(|i| {
            let [ax, ay] = corners[i];
            let [bx, by] = corners[(i + 1) % 4];
            ax * by - bx * ay
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Encounter, EncounterSpot, Monster};

    fn frame() -> Frame {
        Frame {
            cell_w: 100.0,
            cell_h: 80.0,
            falloff: 0.5,
            gloom: 0.8,
            depth: 4,
        }
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-3
    }

    fn of(quads: &[Quad], face: Face, depth: i32, side: i32) -> Vec<&Quad> {
        quads
            .iter()
            .filter(|q| q.face == face && q.depth == depth && q.side == side)
            .collect()
    }

    // A corridor running north, the party at its foot facing up it.
    const CORRIDOR: [&str; 7] = [
        "#####", "##.##", "##.##", "##.##", "##.##", "##.##", "#####",
    ];

    #[test]
    fn plane_zero_is_the_frame_and_the_wall_ahead_meets_the_floor() {
        let d = Dungeon::from_rows(&["###", "#.#", "#.#", "###"]);
        let quads = build(&d, 1, 2, Facing::North, &frame());
        // Cell 1 is open, its wall ahead (the rock on row 0) is on plane 1.
        let wall = of(&quads, Face::Front, 1, 0);
        assert_eq!(wall.len(), 1);
        assert!(close(wall[0].w, 50.0) && close(wall[0].h, 40.0));
        let floor = of(&quads, Face::Floor, 1, 0)[0];
        // The floor of cell 1 runs from plane 0 (the frame: 100 wide) to plane 1.
        assert!(close(floor.corners[3][0], -50.0) && close(floor.corners[2][0], 50.0));
        assert!(close(floor.corners[3][1], 40.0));
        // ...and stops exactly where the wall ahead stands.
        assert_eq!(floor.corners[0], wall[0].corners[3]);
        assert_eq!(floor.corners[1], wall[0].corners[2]);

        // One step on, that wall is directly ahead: plane 0, exactly the frame's size.
        let quads = build(&d, 1, 1, Facing::North, &frame());
        let wall = of(&quads, Face::Front, 0, 0)[0];
        assert!(close(wall.x, -50.0) && close(wall.y, -40.0));
        assert!(close(wall.w, 100.0) && close(wall.h, 80.0));
        assert_eq!(wall.q, [1.0; 4]);
    }

    #[test]
    fn off_centre_walls_lean_toward_the_middle() {
        let d = Dungeon::from_rows(&[
            "#######", "#.....#", "#.....#", "#.....#", "#.....#", "#######",
        ]);
        let quads = build(&d, 3, 4, Facing::North, &frame());
        let rights: Vec<_> = quads.iter().filter(|q| q.face == Face::Right).collect();
        let lefts: Vec<_> = quads.iter().filter(|q| q.face == Face::Left).collect();
        assert!(!rights.is_empty() && !lefts.is_empty());
        for q in rights {
            // corners: far-top, near-top, near-bottom, far-bottom
            assert!(
                q.corners[0][0] < q.corners[1][0],
                "far end nearer the middle"
            );
            assert!(
                q.corners[0][1] > q.corners[1][1],
                "far top lower than near top"
            );
            assert!(
                q.corners[3][1] < q.corners[2][1],
                "far bottom higher than near bottom"
            );
            assert_eq!(q.side, 2);
        }
        for q in lefts {
            assert!(
                q.corners[1][0] > q.corners[0][0],
                "far end nearer the middle"
            );
            assert_eq!(q.side, -2);
        }
    }

    #[test]
    fn the_outermost_wall_of_a_room_sits_on_its_own_planes() {
        let d = Dungeon::from_rows(&["#######", "#.....#", "#.....#", "#.....#", "#######"]);
        let quads = build(&d, 3, 3, Facing::North, &frame());
        let wall = of(&quads, Face::Right, 1, 2)[0];
        // Boundary 2.5 cells right: 2.5 * 100 * 0.5^0 near, 2.5 * 100 * 0.5^1 far.
        assert!(close(wall.corners[1][0], 250.0));
        assert!(close(wall.corners[0][0], 125.0));
        assert_eq!(wall.q, [0.5, 1.0, 1.0, 0.5]);
    }

    #[test]
    fn a_pillar_hides_what_is_behind_it_not_what_is_beside() {
        let d = Dungeon::from_rows(&[
            "#########",
            "#.......#",
            "#.......#",
            "#.......#",
            "#...#...#",
            "#.......#",
            "#.......#",
            "#########",
        ]);
        let seen = in_view(&d, 4, 6, Facing::North, &frame());
        let has = |depth, side| seen.iter().any(|s| s.depth == depth && s.side == side);
        assert!(has(1, 0));
        assert!(!has(2, 0), "the pillar itself emits nothing");
        assert!(!has(3, 0) && !has(4, 0), "behind the pillar");
        assert!(has(3, 1) && has(3, -1), "beside what it hides");
        let quads = build(&d, 4, 6, Facing::North, &frame());
        assert_eq!(of(&quads, Face::Front, 1, 0).len(), 1, "its face is drawn");
        assert!(quads.iter().all(|q| !(q.side == 0 && q.depth > 1)));
    }

    #[test]
    fn a_wall_across_a_room_is_drawn_all_the_way_across() {
        let d = Dungeon::from_rows(&[
            "#########",
            "#.......#",
            "#.......#",
            "#.......#",
            "#########",
        ]);
        let quads = build(&d, 4, 3, Facing::North, &frame());
        let mut fronts: Vec<_> = quads
            .iter()
            .filter(|q| q.face == Face::Front && q.depth == 2)
            .collect();
        fronts.sort_by(|a, b| a.x.total_cmp(&b.x));
        let sides: Vec<i32> = fronts.iter().map(|q| q.side).collect();
        assert_eq!(sides, vec![-3, -2, -1, 0, 1, 2, 3]);
        for pair in fronts.windows(2) {
            assert!(
                close(pair[0].x + pair[0].w, pair[1].x),
                "pieces meet edge to edge"
            );
        }
    }

    #[test]
    fn a_solid_cell_beside_the_party_emits_nothing() {
        let d = Dungeon::from_rows(&CORRIDOR);
        let quads = build(&d, 2, 5, Facing::North, &frame());
        for q in &quads {
            assert!(!d.cell(q.cell[0], q.cell[1]).is_solid(), "{q:?}");
        }
        // No wall face-on beside the party: the party's cell has side walls, nothing at side 1.
        assert!(quads.iter().all(|q| q.side == 0));
        assert_eq!(of(&quads, Face::Left, 0, 0).len(), 1);
        assert_eq!(of(&quads, Face::Right, 0, 0).len(), 1);
    }

    #[test]
    fn the_party_cell_flares_past_plane_zero() {
        let d = Dungeon::from_rows(&CORRIDOR);
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let floor = of(&quads, Face::Floor, 0, 0)[0];
        // Near edge on plane -1: 100 / 0.5 wide.
        assert!(close(floor.corners[3][0], -100.0) && close(floor.corners[2][0], 100.0));
        assert!(close(floor.corners[0][0], -50.0));
        assert_eq!(floor.shade[3], 1.0);
        assert!(close(floor.shade[0], 0.8));
        assert!(close(frame().half_width(), 100.0));
    }

    #[test]
    fn floors_and_ceilings_come_first_then_layers_order_each_depth_far_to_near() {
        let mut d = Dungeon::from_rows(&["#####", "#...#", "#.C.#", "#...#", "#...#", "#####"]);
        d.monsters.push(Monster {
            kind: 0,
            x: 2,
            y: 2,
            hp: 1,
            awake: false,
            art: "rat".into(),
        });
        let quads = build(&d, 2, 4, Facing::North, &frame());
        let backdrop = quads.iter().take_while(|q| q.layer == 0).count();
        assert!(backdrop > 0);
        assert!(quads[backdrop..].iter().all(|q| q.layer != 0));
        for part in [&quads[..backdrop], &quads[backdrop..]] {
            for pair in part.windows(2) {
                let (a, b) = (&pair[0], &pair[1]);
                assert!(a.depth > b.depth || (a.depth == b.depth && a.layer <= b.layer));
            }
        }
        let at2: Vec<Face> = quads
            .iter()
            .filter(|q| q.depth == 2 && q.side == 0)
            .map(|q| q.face)
            .collect();
        assert_eq!(at2.first(), Some(&Face::Floor));
        assert_eq!(&at2[at2.len() - 2..], &[Face::Thing, Face::Monster]);
    }

    #[test]
    fn a_monster_in_the_cell_ahead_fills_most_of_the_pictures_height() {
        let mut d = Dungeon::from_rows(&CORRIDOR);
        let rat = |y| Monster {
            kind: 0,
            x: 2,
            y,
            hp: 1,
            awake: false,
            art: "rat".into(),
        };
        d.monsters.push(rat(4));
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let m = of(&quads, Face::Monster, 1, 0)[0];
        let picture = 2.0 * frame().half_height();
        assert!(m.h > 0.6 * picture, "{} of {picture}", m.h);
        assert!(m.y >= -frame().half_height(), "inside the picture");
        assert!(
            close(m.y + m.h, 40.0),
            "on the floor at the cell's near edge"
        );
        // Further off, smaller by the falloff per cell.
        d.monsters[0] = rat(2);
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let far = of(&quads, Face::Monster, 3, 0)[0];
        assert!(close(far.h, m.h * 0.25));
    }

    #[test]
    fn the_far_end_of_the_picture_fades_to_nothing() {
        let d = Dungeon::from_rows(&[
            "#####", "##.##", "##.##", "##.##", "##.##", "##.##", "##.##", "#####",
        ]);
        let quads = build(&d, 2, 6, Facing::North, &frame());
        let last = of(&quads, Face::Floor, 4, 0)[0];
        assert_eq!(last.shade[0], 0.0, "its far edge is dark");
        assert!(
            close(last.shade[3], 0.8f32.powi(4)),
            "its near edge as lit as ever"
        );
        let walls = of(&quads, Face::Left, 4, 0);
        assert_eq!(walls[0].shade[1], 0.0);
        let nearer = of(&quads, Face::Floor, 3, 0)[0];
        assert!(nearer.shade.iter().all(|s| *s > 0.0));
    }

    #[test]
    fn stairs_down_go_down_into_the_floor_seen_through_its_hole() {
        let d = Dungeon::from_rows(&["#####", "##.##", "##>##", "##.##", "##.##", "#####"]);
        let quads = build(&d, 2, 4, Facing::North, &frame());
        let floor = of(&quads, Face::Floor, 2, 0)[0];
        let well: Vec<&Quad> = of(&quads, Face::Thing, 2, 0);
        let treads: Vec<&&Quad> = well.iter().filter(|q| q.look == Look::StairsDown).collect();
        assert_eq!(treads.len(), STEPS);
        assert!(well.iter().all(|q| q.clip == Some(floor.corners)));
        // Drawn deepest first, each darker than the one above it.
        for pair in treads.windows(2) {
            assert!(pair[0].shade[0] < pair[1].shade[0], "darker going down");
        }
        let deepest = treads[0];
        assert!(
            deepest.corners[3][1] > floor.corners[0][1],
            "below the floor's far edge"
        );
        assert!(well.iter().any(|q| q.look == Look::Wall));
    }

    #[test]
    fn stairs_up_rise_from_the_floor_to_the_ceiling_and_are_not_drawn_underfoot() {
        let d = Dungeon::from_rows(&["#####", "##.##", "##<##", "##.##", "##.##", "#####"]);
        let quads = build(&d, 2, 4, Facing::North, &frame());
        let flight: Vec<&Quad> = of(&quads, Face::Thing, 2, 0);
        assert!(flight.iter().all(|q| q.look == Look::StairsUp));
        // Risers face the party, each on its own plane: the nearest starts on the floor, the
        // furthest reaches the ceiling.
        let risers: Vec<&&Quad> = flight.iter().filter(|q| q.q == [1.0; 4]).collect();
        assert_eq!(risers.len(), STEPS);
        let floor = of(&quads, Face::Floor, 2, 0)[0];
        let ceiling = of(&quads, Face::Ceiling, 2, 0)[0];
        assert!(close(risers[STEPS - 1].corners[3][1], floor.corners[3][1]));
        assert!(risers[0].corners[0][1] < 0.0 && risers[0].corners[0][1] > ceiling.corners[0][1]);
        // Standing on them, the party sees past them.
        let quads = build(&d, 2, 2, Facing::North, &frame());
        assert!(quads.iter().all(|q| q.look != Look::StairsUp));
    }

    #[test]
    fn a_chest_stands_at_its_cells_near_edge_as_wide_as_tall_and_a_pit_lies_in_the_floor() {
        let d = Dungeon::from_rows(&["#####", "#.O.#", "#.C.#", "#...#", "#####"]);
        let quads = build(&d, 2, 3, Facing::North, &frame());
        let chest = of(&quads, Face::Thing, 1, 0)[0];
        assert_eq!(chest.look, Look::Chest);
        assert!(close(chest.w, chest.h));
        assert!(close(chest.y + chest.h, 40.0), "on the floor at plane 0");
        assert!(close(chest.x + chest.w / 2.0, 0.0));
        let pit = of(&quads, Face::Thing, 2, 0)[0];
        let floor = of(&quads, Face::Floor, 2, 0)[0];
        assert_eq!(pit.look, Look::Pit);
        assert_eq!(pit.corners, floor.corners);
    }

    #[test]
    fn an_opened_door_keeps_its_frame_drawn_over_the_doorway_and_is_not_an_arch() {
        let mut d = Dungeon::from_rows(&["#####", "##.##", "##+##", "##.##", "##.##", "#####"]);
        let before = build(&d, 2, 4, Facing::North, &frame());
        let door = of(&before, Face::Front, 1, 0)[0].clone();
        assert_eq!(door.look, Look::Door);
        assert!(before.iter().all(|q| q.depth <= 1));

        *d.cell_mut(2, 2).unwrap() = Cell::Open;
        let after = build(&d, 2, 4, Facing::North, &frame());
        let open = of(&after, Face::Front, 1, 0)[0];
        assert_eq!(open.look, Look::OpenDoor, "an opened door is not an arch");
        assert_eq!(open.corners, door.corners, "on the plane the door stood on");
        let open_at = after.iter().position(|q| q.look == Look::OpenDoor).unwrap();
        let doorway = after.iter().rposition(|q| q.depth == 2).unwrap();
        assert!(open_at > doorway, "drawn after what stands in the doorway");

        *d.cell_mut(2, 2).unwrap() = Cell::Arch;
        let arch = build(&d, 2, 4, Facing::North, &frame());
        assert_eq!(of(&arch, Face::Front, 1, 0)[0].look, Look::Arch);
    }

    #[test]
    fn every_quad_is_wound_clockwise_and_weighted_by_its_planes() {
        let d = Dungeon::from_rows(&["#######", "#..C..#", "#.#.O.#", "#.....#", "#######"]);
        for facing in Facing::ALL {
            for q in build(&d, 3, 3, facing, &frame()) {
                assert!(winding(&q.corners) > 0.0, "{q:?}");
                assert!(q.q.iter().all(|w| *w == 1.0 || close(*w, 0.5)));
                assert!(q.shade.iter().all(|s| (0.0..=1.0).contains(s)));
            }
        }
    }

    #[test]
    fn a_fight_waiting_down_the_corridor_stands_in_the_picture() {
        let mut d = Dungeon::from_rows(&CORRIDOR);
        d.encounters.push(Encounter {
            spot: EncounterSpot {
                at: [2, 2],
                group: "chief".into(),
                text: String::new(),
                art: Some("m_chief".into()),
                goal: false,
                sight: None,
            },
            won: false,
        });
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let fight = of(&quads, Face::Monster, 3, 0)[0];
        assert_eq!(fight.look, Look::Encounter);
        assert_eq!(fight.art.as_deref(), Some("m_chief"));
        d.encounters[0].won = true;
        let quads = build(&d, 2, 5, Facing::North, &frame());
        assert!(of(&quads, Face::Monster, 3, 0).is_empty());
    }

    #[test]
    fn sight_marks_what_the_picture_shows_and_not_what_hides_behind_a_solid_row() {
        // A corridor with rock beside it, a gap in the rock one cell down it: through the
        // gap the picture shows the floor beyond, but not the cells further round the corner.
        let d = Dungeon::from_rows(&[
            "###############",
            "#<..+....#...C#",
            "#.#.#.##.#.#.##",
            "#.#...#..+.#M.#",
            "#.#####.##.####",
        ]);
        let frame = Frame {
            cell_w: 3.9,
            cell_h: 3.3,
            falloff: 0.56,
            gloom: 0.74,
            depth: 4,
        };
        let seen = sight(&d, 1, 1, Facing::East, &frame);
        let has = |x, y| seen.contains(&[x, y]);
        assert!(has(1, 1) && has(2, 1) && has(3, 1), "down the corridor");
        assert!(has(4, 1), "the door that ends it");
        assert!(
            has(2, 2) && has(3, 2) && has(4, 2),
            "the rock and the gap beside it"
        );
        assert!(!has(5, 1), "behind the door");
        assert!(
            !has(3, 3) && !has(4, 3),
            "round the corner behind the solid row"
        );
        // The walls of the party's own cell show at the picture's edges; behind it, nothing.
        assert!(has(1, 0) && !has(0, 1));
    }

    #[test]
    fn teleporters_spinners_and_plates_lie_in_the_floor_buttons_and_secrets_stand_in_walls() {
        let d = Dungeon::from_rows(&[
            "#####", "#.B.#", "#_S.#", "#%..#", "#T..#", "#...#", "#####",
        ]);
        let quads = build(&d, 2, 5, Facing::North, &frame());
        for (depth, side, look) in [
            (1, -1, Look::Teleporter),
            (2, -1, Look::Spinner),
            (3, -1, Look::Plate),
        ] {
            let thing = of(&quads, Face::Thing, depth, side)[0];
            assert_eq!(thing.look, look);
            assert_eq!(
                thing.corners,
                of(&quads, Face::Floor, depth, side)[0].corners
            );
        }
        // The secret door is rock to the picture; the button is seen past it, in its wall.
        assert_eq!(of(&quads, Face::Front, 2, 0)[0].look, Look::Wall);
        let mut d = d;
        *d.cell_mut(2, 2).unwrap() = Cell::Floor;
        let quads = build(&d, 2, 5, Facing::North, &frame());
        assert_eq!(of(&quads, Face::Front, 3, 0)[0].look, Look::Button);
        *d.cell_mut(2, 1).unwrap() = Cell::Button { pressed: true };
        let quads = build(&d, 2, 5, Facing::North, &frame());
        assert_eq!(of(&quads, Face::Front, 3, 0)[0].look, Look::ButtonPressed);
    }

    #[test]
    fn a_dark_cell_shows_nothing_in_it_or_beyond_and_standing_in_one_shows_nothing() {
        let d = Dungeon::from_rows(&["#####", "##.##", "##D##", "##.##", "##.##", "#####"]);
        let quads = build(&d, 2, 4, Facing::North, &frame());
        assert!(
            quads.iter().all(|q| q.depth <= 1),
            "nothing at the dark cell or past it"
        );
        let gloom = of(&quads, Face::Front, 1, 0)[0];
        assert_eq!(
            gloom.shade, [0.0; 4],
            "its face hides what is behind, unlit"
        );
        assert!(build(&d, 2, 2, Facing::North, &frame()).is_empty());
        assert!(sight(&d, 2, 2, Facing::North, &frame()).is_empty());
        assert!(!sight(&d, 2, 4, Facing::North, &frame()).contains(&[2, 2]));
    }

    #[test]
    fn items_lie_small_half_way_through_their_cell_with_their_art() {
        use crate::map::Loot;
        let mut d = Dungeon::from_rows(&CORRIDOR);
        let coins = |index| Item {
            at: [2, 3],
            loot: Loot {
                kind: "gold".into(),
                value: "5".into(),
            },
            art: Some("i_coins".into()),
            index,
        };
        d.items.push(coins(0));
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let item = of(&quads, Face::Thing, 2, 0)[0];
        assert_eq!(
            (item.look, item.art.as_deref()),
            (Look::Item, Some("i_coins"))
        );
        assert!(
            close(item.y + item.h, 40.0 * 0.5f32.powf(1.5)),
            "on the floor half-way"
        );
        assert!(item.h < 0.2 * 2.0 * frame().half_height());
        d.items.push(coins(1));
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let two = of(&quads, Face::Thing, 2, 0);
        assert_eq!(two.len(), 2);
        assert!(two[0].x + two[0].w <= two[1].x + 1e-3, "side by side");
    }

    #[test]
    fn decor_is_drawn_over_the_wall_face_that_looks_toward_its_side() {
        use crate::map::Decor;
        let mut d = Dungeon::from_rows(&CORRIDOR);
        // On the rock ending the corridor, its south face; and on the east face of the rock
        // left of the party's next cell, which the picture sees as a left wall.
        d.decor.push(Decor {
            at: [2, 0],
            side: Facing::South,
            art: "banner".into(),
        });
        d.decor.push(Decor {
            at: [1, 4],
            side: Facing::East,
            art: "torch".into(),
        });
        d.decor.push(Decor {
            at: [1, 3],
            side: Facing::West,
            art: "crack".into(),
        });
        let quads = build(&d, 2, 5, Facing::North, &frame());
        let wall = of(&quads, Face::Front, 4, 0);
        assert_eq!(wall.len(), 2);
        assert_eq!(
            (wall[1].look, wall[1].art.as_deref()),
            (Look::Decor, Some("banner"))
        );
        assert_eq!(wall[1].corners, wall[0].corners);
        let left = of(&quads, Face::Left, 1, 0);
        assert_eq!(left[1].art.as_deref(), Some("torch"));
        assert_eq!(
            of(&quads, Face::Left, 2, 0).len(),
            1,
            "the crack faces the other way"
        );
        let order = |look| {
            quads
                .iter()
                .position(|q| q.look == look && q.depth == 4)
                .unwrap()
        };
        assert!(order(Look::Wall) < order(Look::Decor));
    }

    #[test]
    fn a_broken_frame_still_gives_numbers() {
        let d = Dungeon::from_rows(&CORRIDOR);
        let bad = Frame {
            cell_w: f32::NAN,
            cell_h: -3.0,
            falloff: 7.0,
            gloom: f32::INFINITY,
            depth: 1000,
        };
        let quads = build(&d, 2, 5, Facing::North, &bad);
        assert!(!quads.is_empty());
        for q in quads {
            assert!(q.corners.iter().flatten().all(|v| v.is_finite()));
        }
    }
}
