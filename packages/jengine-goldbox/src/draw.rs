//! The battlefield from above, as sprites: the terrain from a sheet of tiles, every unit with a
//! bar of hit points, the active unit's reach and targets, the cursor, the ground a spell
//! would cover, and damage floating up from whoever took it. Everything is worked out from the
//! fight into a list of [`Piece`]s first (plain data, tested without a world), then written
//! into a pool of entities the run owns.

use std::collections::BTreeMap;

use jengine::{BulkEntity, Color, Entity, SpawnedFor, Sprite, Text, Transform2D, World};
use serde::{Deserialize, Serialize};

use crate::fight::{Event, Fight, Pos, Side, Status, Terrain};

/// The tiles of the shipped sheet, left to right, 32 pixels each.
pub const TILES: [&str; 8] = [
    "floor",
    "wall",
    "door_open",
    "door_shut",
    "member",
    "monster",
    "fallen",
    "marker",
];

/// Where each tile is: a texture under `assets/textures/` and a region of it per name
/// (`floor`, `wall`, `door_open`, `door_shut`, `member`, `monster`, `fallen`, `marker`, and
/// any unit's `art` name). A name with no region is drawn as a plain square of its colour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sheet {
    /// The texture.
    pub texture: String,
    /// Regions by name, `[x, y, w, h]` in pixels.
    pub regions: BTreeMap<String, [f32; 4]>,
}

impl Default for Sheet {
    fn default() -> Sheet {
        Sheet {
            texture: "goldbox/sheet.png".into(),
            regions: TILES
                .iter()
                .enumerate()
                .map(|(i, n)| (n.to_string(), [i as f32 * 32.0, 0.0, 32.0, 32.0]))
                .collect(),
        }
    }
}

/// How the battlefield is laid out in the world.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct View {
    /// Whether the package draws the fight (false: a game draws its own from the bag).
    pub draw: bool,
    /// The world point at the middle of the field.
    pub origin: [f32; 2],
    /// World units a square.
    pub cell: f32,
    /// Depth of the terrain; everything else is drawn a little above it.
    pub z: f32,
    /// The tiles.
    pub sheet: Sheet,
}

impl Default for View {
    fn default() -> View {
        View {
            draw: true,
            origin: [0.0, 0.0],
            cell: 0.5,
            z: 0.0,
            sheet: Sheet::default(),
        }
    }
}

impl View {
    /// What a scene may not hold: a square of no size, a place that is not a number.
    pub fn check(&self) -> Result<(), String> {
        if !(self.cell.is_finite() && self.cell > 0.0) {
            return Err(format!("view.cell: {} is not a size above 0", self.cell));
        }
        if self.origin.iter().chain([&self.z]).any(|v| !v.is_finite()) {
            return Err(format!("view.origin: {:?} is not a point", self.origin));
        }
        for (name, r) in &self.sheet.regions {
            if r.iter().any(|v| !v.is_finite() || *v < 0.0) || r[2] <= 0.0 || r[3] <= 0.0 {
                return Err(format!(
                    "view.sheet.regions.{name}: {r:?} is not a region of the texture"
                ));
            }
        }
        Ok(())
    }

    /// The world point at the middle of square `p` on a field of `w` by `h`.
    pub fn world(&self, p: Pos, w: i32, h: i32) -> [f32; 2] {
        [
            self.origin[0] + (p.x as f32 - (w - 1) as f32 / 2.0) * self.cell,
            self.origin[1] - (p.y as f32 - (h - 1) as f32 / 2.0) * self.cell,
        ]
    }
}

/// A number floating up from a unit: damage (`-5`) or healing (`+3`).
#[derive(Debug, Clone, PartialEq)]
pub struct Floater {
    /// The square it rises from.
    pub at: Pos,
    /// What it says.
    pub text: String,
    /// Healing rather than hurt.
    pub heal: bool,
    /// Frames since it appeared.
    pub age: u32,
}

/// Frames a floating number lasts.
pub const FLOAT_FRAMES: u32 = 45;

impl Floater {
    /// The floaters this frame's events raise.
    pub fn from_events(f: &Fight, events: &[Event]) -> Vec<Floater> {
        let at = |u: crate::fight::UnitId| f.unit(u).map(|u| u.pos);
        events
            .iter()
            .filter_map(|e| match e {
                Event::Hit { target, damage, .. } => Some((at(*target)?, -damage)),
                Event::SpellDamage { unit, damage, .. } => Some((at(*unit)?, -damage)),
                Event::Healed { unit, amount, .. } => Some((at(*unit)?, *amount)),
                _ => None,
            })
            .map(|(at, n)| Floater {
                at,
                text: if n > 0 {
                    format!("+{n}")
                } else {
                    n.to_string()
                },
                heal: n > 0,
                age: 0,
            })
            .collect()
    }
}

/// What the player is pointing at, set by `GoldBox.point`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pointing {
    /// The cursor's square.
    pub cursor: Option<Pos>,
    /// The squares the spell being aimed would cover.
    pub preview: Vec<Pos>,
    /// Why the spell being aimed cannot be cast at the cursor (`GoldBox.aim`), or `None`.
    pub refused: Option<String>,
}

/// One thing to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Middle, in the world.
    pub pos: [f32; 2],
    /// Size, in world units.
    pub size: [f32; 2],
    /// Depth.
    pub z: f32,
    /// A tile of the sheet, or `None` for a plain rectangle.
    pub tile: Option<String>,
    /// Tint (or the colour of a plain rectangle).
    pub tint: [f32; 4],
    /// Words, for a floating number (drawn as text, `size[1]` high).
    pub text: Option<String>,
}

fn terrain_tile(t: Terrain) -> &'static str {
    match t {
        Terrain::Wall => "wall",
        Terrain::Floor => "floor",
        Terrain::DoorOpen => "door_open",
        Terrain::DoorShut => "door_shut",
    }
}

/// Everything to draw for a fight, bottom to top.
pub fn pieces(f: &Fight, view: &View, pointing: &Pointing, floaters: &[Floater]) -> Vec<Piece> {
    let field = f.field();
    let (w, h) = (field.width(), field.height());
    let c = view.cell;
    let at = |p: Pos| view.world(p, w, h);
    let mut out = Vec::new();
    let square = |p: Pos, z: f32, tile: &str, tint: [f32; 4], scale: f32| Piece {
        pos: at(p),
        size: [c * scale, c * scale],
        z: view.z + z,
        tile: Some(tile.to_string()),
        tint,
        text: None,
    };
    for y in 0..h {
        for x in 0..w {
            let p = Pos::new(x, y);
            out.push(square(
                p,
                0.0,
                terrain_tile(field.terrain(p)),
                [1.0; 4],
                1.0,
            ));
        }
    }
    if let Some(legal) = f.legal() {
        for s in &legal.moves {
            let tint = if s.risk > 0 {
                [0.95, 0.75, 0.2, 0.35]
            } else {
                [0.3, 0.9, 0.4, 0.3]
            };
            out.push(square(Pos::new(s.x, s.y), 1.0, "marker", tint, 0.9));
        }
        for t in legal.attacks.iter().chain(&legal.shots) {
            if let Some(u) = f.unit(*t) {
                out.push(square(u.pos, 1.0, "marker", [1.0, 0.2, 0.15, 0.6], 1.0));
            }
        }
    }
    for p in &pointing.preview {
        out.push(square(*p, 2.0, "marker", [1.0, 0.55, 0.1, 0.55], 1.0));
    }
    let active = f.active().map(|u| u.id);
    for u in f.units() {
        match u.status {
            Status::Fled => continue,
            Status::Dead => {
                out.push(square(u.pos, 3.0, "fallen", [0.6, 0.2, 0.2, 0.8], 0.8));
                continue;
            }
            _ => {}
        }
        let base = match u.side {
            Side::Party => [0.45, 0.65, 1.0, 1.0],
            Side::Monsters => [1.0, 0.45, 0.35, 1.0],
        };
        let tint = match u.status {
            Status::Asleep => [base[0] * 0.5, base[1] * 0.5, base[2], 1.0],
            Status::Held => [base[0] * 0.8, base[1] * 0.4, base[2], 1.0],
            Status::Unconscious | Status::Dying => [0.45, 0.45, 0.45, 1.0],
            _ => base,
        };
        let tile = if view.sheet.regions.contains_key(&u.art) {
            u.art.as_str()
        } else if u.side == Side::Party {
            "member"
        } else {
            "monster"
        };
        out.push(square(u.pos, 4.0, tile, tint, 0.85));
        if Some(u.id) == active {
            out.push(square(u.pos, 5.0, "marker", [1.0, 1.0, 1.0, 0.5], 1.0));
        }
        // The hit point bar along the top of the square.
        let [x, y] = at(u.pos);
        let share = (u.hp.max(0) as f32 / u.max_hp.max(1) as f32).min(1.0);
        let bar_y = y + c * 0.42;
        out.push(Piece {
            pos: [x, bar_y],
            size: [c * 0.8, c * 0.1],
            z: view.z + 6.0,
            tile: None,
            tint: [0.1, 0.05, 0.05, 0.9],
            text: None,
        });
        if share > 0.0 {
            let bar = if share > 0.5 {
                [0.3, 0.85, 0.3, 1.0]
            } else {
                [0.9, 0.3, 0.2, 1.0]
            };
            out.push(Piece {
                pos: [x - c * 0.4 * (1.0 - share), bar_y],
                size: [c * 0.8 * share, c * 0.1],
                z: view.z + 6.5,
                tile: None,
                tint: bar,
                text: None,
            });
        }
    }
    if let Some(p) = pointing.cursor {
        let tint = if pointing.refused.is_some() {
            [0.6, 0.6, 0.6, 0.7]
        } else {
            [1.0, 0.95, 0.2, 0.8]
        };
        out.push(square(p, 7.0, "marker", tint, 1.05));
    }
    // Floating numbers rise half a square and fade over their life; two on one square stack.
    let mut seen: Vec<(Pos, u32)> = Vec::new();
    for fl in floaters {
        let n = seen.iter().filter(|(p, _)| *p == fl.at).count() as f32;
        seen.push((fl.at, fl.age));
        let t = fl.age as f32 / FLOAT_FRAMES as f32;
        let [x, y] = at(fl.at);
        let tint = if fl.heal {
            [0.5, 1.0, 0.5, 1.0 - t]
        } else {
            [1.0, 0.9, 0.3, 1.0 - t]
        };
        out.push(Piece {
            pos: [x, y + c * (0.2 + 0.5 * t + 0.35 * n)],
            size: [c, c * 0.6],
            z: view.z + 8.0,
            tile: None,
            tint,
            text: Some(fl.text.clone()),
        });
    }
    out
}

/// Writes the pieces into the pool's entities, one per piece, each marked as spawned for
/// `owner` (the `goldbox_fight` entity), so a tool picking what is drawn picks the fight. The
/// entities the pool already holds are kept and given their piece's place, sprite or words
/// (a sprite becoming words and back swaps the component); only a longer list spawns more,
/// and a shorter one despawns the rest. Kept entities keep their spawn order, so pieces at one
/// depth still draw in list order.
pub fn write(
    world: &mut World,
    owner: Entity,
    pool: &mut Vec<Entity>,
    view: &View,
    pieces: &[Piece],
) {
    for (i, p) in pieces.iter().enumerate() {
        let transform = Transform2D {
            pos: p.pos,
            z: p.z,
            ..Transform2D::default()
        };
        let kept = pool.get(i).copied().filter(|e| world.entities.contains(*e));
        let e = match kept {
            Some(e) => e,
            None => {
                let e = world.spawn((BulkEntity, SpawnedFor(owner), transform));
                match pool.get_mut(i) {
                    Some(slot) => *slot = e,
                    None => pool.push(e),
                }
                e
            }
        };
        // The entity was just found or spawned, so inserting cannot miss it.
        let _ = match &p.text {
            Some(words) => {
                let _ = world.entities.remove_one::<Sprite>(e);
                world.entities.insert(
                    e,
                    (
                        transform,
                        Text {
                            text: words.clone(),
                            size: p.size[1],
                            color: Color(p.tint),
                            ..Text::default()
                        },
                    ),
                )
            }
            None => {
                let _ = world.entities.remove_one::<Text>(e);
                world.entities.insert(e, (transform, sprite(view, p)))
            }
        };
    }
    for e in pool.drain(pieces.len().min(pool.len())..) {
        let _ = world.entities.despawn(e);
    }
}

/// A piece's sprite: its tile's region of the sheet, or a plain rectangle of its tint.
fn sprite(view: &View, p: &Piece) -> Sprite {
    let region = p
        .tile
        .as_ref()
        .and_then(|t| view.sheet.regions.get(t))
        .copied();
    Sprite {
        texture: if region.is_some() {
            view.sheet.texture.clone()
        } else {
            String::new()
        },
        region,
        size: p.size,
        tint: Color(p.tint),
        nine_slice: None,
    }
}

/// Despawns the pool's entities.
pub fn clear(world: &mut World, pool: &mut Vec<Entity>) {
    for e in pool.drain(..) {
        let _ = world.entities.despawn(e);
    }
}
