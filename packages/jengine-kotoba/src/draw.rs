//! A table on screen: the board, the hands, the lights, drawn as ordinary sprites and texts.
//!
//! Each frame the table's state is laid out ([`Layout`]) and turned into a list of sprites and
//! texts, which are written into a pool of entities the table owns, reused frame after frame so
//! a steady board spawns nothing. The same layout answers where a pointer touched.

use jengine::{
    Align, BulkEntity, Color, Entity, SpawnedFor, Sprite, Text, Time, Transform2D, World,
};

use crate::Table;
use crate::board::{Cell, Pos};
use crate::dict::Dict;
use crate::sea::WaveContext;
use crate::session::{Mode, Session, SessionError};

pub mod feedback;
pub mod sea;

use feedback::Feedback;

/// How far a pointer must move between press and release to count as a drag, as a share of a
/// hand tile.
const DRAG: f32 = 0.35;

/// Where everything at a table is, for the board it has now.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// A cell's size.
    pub cell: f32,
    /// Columns and rows.
    pub size: (usize, usize),
    /// The centre of cell (0, 0).
    pub origin: [f32; 2],
    /// The centres of the player's hand tiles.
    pub hand: Vec<[f32; 2]>,
    /// A hand tile's size.
    pub hand_tile: f32,
    /// The centres of the rival's hand tiles.
    pub rival: Vec<[f32; 2]>,
    /// A rival tile's size.
    pub rival_tile: f32,
    /// The centres of both hands, the player's first.
    pub hand_centres: [[f32; 2]; 2],
}

/// What a point on screen is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// A tile in the player's hand (slot from 0).
    Hand(usize),
    /// A board cell.
    Cell(Pos),
    /// Nothing of the table's.
    Nothing,
}

/// What a pointer did, as the commands pass it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// Went down.
    Press,
    /// Moved while down.
    Drag,
    /// Came up.
    Release,
}

fn row(centre: [f32; 2], n: usize, size: f32) -> Vec<[f32; 2]> {
    let step = size * 1.08;
    (0..n)
        .map(|i| {
            [
                centre[0] + (i as f32 - (n as f32 - 1.0) / 2.0) * step,
                centre[1],
            ]
        })
        .collect()
}

impl Layout {
    /// The layout of `table` for what `session` has in play.
    pub fn of(table: &Table, session: &Session) -> Layout {
        let (w, h) = session
            .board()
            .map_or((1, 1), |b| (b.width().max(1), b.height().max(1)));
        let cell = table
            .cell
            .min(table.board_max[0] / w as f32)
            .min(table.board_max[1] / h as f32)
            .max(0.01);
        let origin = [
            table.board_centre[0] - (w as f32 - 1.0) / 2.0 * cell,
            table.board_centre[1] + (h as f32 - 1.0) / 2.0 * cell,
        ];
        let rival =
            if matches!(session.mode, Mode::Battle(_) | Mode::Online(_)) && table.show_rival_hand {
                row(
                    table.rival_hand_centre,
                    session.rival_hand().len(),
                    table.rival_tile,
                )
            } else {
                Vec::new()
            };
        Layout {
            cell,
            size: (w, h),
            origin,
            hand: row(table.hand_centre, session.hand().len(), table.hand_tile),
            hand_tile: table.hand_tile,
            rival,
            rival_tile: table.rival_tile,
            hand_centres: [table.hand_centre, table.rival_hand_centre],
        }
    }

    /// The centre of cell `pos`.
    pub fn cell_centre(&self, pos: Pos) -> [f32; 2] {
        [
            self.origin[0] + pos.x as f32 * self.cell,
            self.origin[1] - pos.y as f32 * self.cell,
        ]
    }

    /// What is under the world point `p`.
    pub fn hit(&self, p: [f32; 2]) -> Hit {
        let half = self.hand_tile / 2.0;
        if let Some(slot) = self
            .hand
            .iter()
            .position(|c| (p[0] - c[0]).abs() <= half && (p[1] - c[1]).abs() <= half)
        {
            return Hit::Hand(slot);
        }
        let fx = (p[0] - self.origin[0]) / self.cell + 0.5;
        let fy = (self.origin[1] - p[1]) / self.cell + 0.5;
        if fx >= 0.0 && fy >= 0.0 && (fx as usize) < self.size.0 && (fy as usize) < self.size.1 {
            return Hit::Cell(Pos::new(fx as usize, fy as usize));
        }
        Hit::Nothing
    }

    /// Where the sea's waves start from, for this table (the colours come from the sea).
    pub fn wave_context(&self, session: &Session) -> WaveContext {
        let tried = session.tried.map(|p| self.cell_centre(p));
        WaveContext {
            origin: self.origin,
            cell: self.cell,
            board_centre: table_centre(self),
            hands: self.hand_centres,
            you: (!session.demo).then_some(session.you()),
            tried: [tried, None],
            ..WaveContext::default()
        }
    }

    /// The boxes `[x0, y0, x1, y1]` the table covers (board and hand), where the sea is land.
    pub fn land(&self) -> [[f32; 4]; 2] {
        let c = table_centre(self);
        let (w, h) = (
            self.size.0 as f32 * self.cell,
            self.size.1 as f32 * self.cell,
        );
        let hand_w = self.hand.len() as f32 * self.hand_tile * 1.08 + self.hand_tile * 0.4;
        let hc = self.hand_centres[0];
        [
            [
                c[0] - w / 2.0,
                c[1] - h / 2.0,
                c[0] + w / 2.0,
                c[1] + h / 2.0,
            ],
            [
                hc[0] - hand_w / 2.0,
                hc[1] - self.hand_tile * 0.7,
                hc[0] + hand_w / 2.0,
                hc[1] + self.hand_tile * 0.7,
            ],
        ]
    }
}

/// A pointer at a world point, applied to a table: a hand tile is chosen (a tap on the chosen
/// one turns it), a cell takes the chosen tile, and a tile carried from the hand goes down where
/// it is let go.
pub fn touch(
    session: &mut Session,
    table: &Table,
    touch: Touch,
    at: [f32; 2],
    dict: &Dict,
) -> Result<(), SessionError> {
    let layout = Layout::of(table, session);
    let hit = layout.hit(at);
    match touch {
        Touch::Press => {
            session.carry = None;
            match hit {
                Hit::Hand(slot) => {
                    let was_chosen = session.selected == Some(slot);
                    session.select(slot)?;
                    session.carry = Some(crate::session::Carry {
                        slot,
                        from: at,
                        at,
                        moved: false,
                        was_chosen,
                    });
                    Ok(())
                }
                Hit::Cell(pos) if session.selected.is_some() => session.place(pos, dict),
                _ => Ok(()),
            }
        }
        Touch::Drag => {
            if let Some(c) = session.carry.as_mut() {
                c.at = at;
                let d = ((at[0] - c.from[0]).powi(2) + (at[1] - c.from[1]).powi(2)).sqrt();
                c.moved |= d > layout.hand_tile * DRAG;
            }
            Ok(())
        }
        Touch::Release => {
            let Some(c) = session.carry.take() else {
                return Ok(());
            };
            match hit {
                Hit::Cell(pos) if c.moved => {
                    session.select(c.slot)?;
                    session.place(pos, dict)
                }
                Hit::Hand(slot) if slot == c.slot && !c.moved && c.was_chosen => session.turn(dict),
                _ => Ok(()),
            }
        }
    }
}

/// The entities a table draws with, reused every frame.
#[derive(Debug, Default)]
pub struct Drawn {
    sprites: Vec<Entity>,
    texts: Vec<Entity>,
    /// The marks the board shows for a moment after each move, and who placed each tile.
    pub feedback: Feedback,
}

/// One frame's picture of a table before it is written into the pool.
#[derive(Default)]
struct Picture {
    sprites: Vec<(Transform2D, Sprite)>,
    texts: Vec<(Transform2D, Text)>,
}

impl Picture {
    fn sprite(&mut self, at: [f32; 2], size: [f32; 2], z: f32, sprite: Sprite) {
        self.sprites.push((
            Transform2D {
                pos: at,
                z,
                ..Transform2D::default()
            },
            Sprite { size, ..sprite },
        ));
    }

    fn tinted(
        &mut self,
        texture: &str,
        border: Option<[f32; 4]>,
        at: [f32; 2],
        size: [f32; 2],
        z: f32,
        tint: Color,
    ) {
        self.sprite(
            at,
            size,
            z,
            Sprite {
                texture: texture.to_string(),
                tint,
                nine_slice: border,
                ..Sprite::default()
            },
        );
    }

    fn kana(&mut self, table: &Table, ch: char, at: [f32; 2], tile: f32, z: f32, rot: f32) {
        let offset = [table.glyph_centre[0] * tile, table.glyph_centre[1] * tile];
        let (s, c) = rot.sin_cos();
        let size = table.kana_size * tile;
        self.texts.push((
            Transform2D {
                // The glyph offset turns with the tile.
                pos: [
                    at[0] + offset[0] * c - offset[1] * s,
                    at[1] + offset[0] * s + offset[1] * c,
                ],
                rot,
                z,
                ..Transform2D::default()
            },
            Text {
                text: ch.to_string(),
                font: table.font.clone(),
                size,
                color: table.ink,
                align: Align::Center,
                wrap: None,
                ..Text::default()
            },
        ));
    }

    fn tile(&mut self, table: &Table, ch: Option<char>, at: [f32; 2], size: f32, z: f32, rot: f32) {
        self.sprites.push((
            Transform2D {
                pos: at,
                rot,
                z,
                ..Transform2D::default()
            },
            Sprite {
                texture: table.tile.clone(),
                size: [size * 0.94, size * 0.94],
                nine_slice: Some(table.tile_border),
                ..Sprite::default()
            },
        ));
        if let Some(ch) = ch {
            self.kana(table, ch, at, size, z + 0.01, rot);
        }
    }
}

/// Each hand tile floats on a beat of its own: a bob and a rock, from the slot and the time.
fn float(slot: usize, t: f32) -> ([f32; 2], f32) {
    let phase = slot as f32 * 1.7;
    let beat = 1.6 + (slot % 3) as f32 * 0.23;
    let bob = (t * std::f32::consts::TAU / beat + phase).sin();
    let rock = (t * std::f32::consts::TAU / (beat * 1.7) + phase * 0.6).sin();
    ([0.0, bob * 0.025], rock * 0.035)
}

fn draw_table(table: &Table, session: &Session, feedback: &Feedback, t: f32) -> Picture {
    let mut pic = Picture::default();
    let Some(board) = session.board() else {
        return pic;
    };
    let layout = Layout::of(table, session);
    let z = table.z;
    let (w, h) = layout.size;
    let cell = layout.cell;
    let white = Color::WHITE;
    let hidden = session.paused;
    let battle = matches!(session.mode, Mode::Battle(_) | Mode::Online(_));
    let you = session.you();
    // The frame, a little larger than the board.
    let pad = cell * 0.35;
    pic.tinted(
        &table.frame,
        Some(table.frame_border),
        table_centre(&layout),
        [w as f32 * cell + 2.0 * pad, h as f32 * cell + 2.0 * pad],
        z,
        white,
    );
    for pos in board.positions() {
        let at = layout.cell_centre(pos);
        match board.cell(pos) {
            Cell::Wall => pic.tinted(
                &table.wall_tex,
                Some(table.cell_border),
                at,
                [cell * 0.96, cell * 0.96],
                z + 0.1,
                white,
            ),
            Cell::Empty => pic.tinted(
                &table.cell_tex,
                Some(table.cell_border),
                at,
                [cell * 0.96, cell * 0.96],
                z + 0.1,
                white,
            ),
            Cell::Kana(k) => {
                pic.tinted(
                    &table.cell_tex,
                    Some(table.cell_border),
                    at,
                    [cell * 0.96, cell * 0.96],
                    z + 0.1,
                    white,
                );
                // In a battle each placed tile keeps a thin edge in its player's colour.
                if let (true, Some(who)) = (battle, feedback.owner(pos)) {
                    pic.tinted(
                        &table.tile,
                        Some(table.tile_border),
                        at,
                        [cell * 1.04, cell * 1.04],
                        z + 0.17,
                        table.players[usize::from(who != you)],
                    );
                }
                pic.tile(
                    table,
                    (!hidden).then(|| k.to_char()),
                    at,
                    cell,
                    z + 0.2,
                    0.0,
                );
            }
        }
    }
    let pulse = 0.75 + 0.25 * (t * std::f32::consts::TAU / 1.2).sin();
    if let Some(pos) = session.hint {
        // The hint glows, pulsing, in the chosen tile's colour: this tile, there.
        let mut light = table.chosen;
        light.0[3] *= pulse;
        pic.tinted(
            &glow(table),
            None,
            layout.cell_centre(pos),
            [cell * 1.6, cell * 1.6],
            z + 0.15,
            light,
        );
    }
    if let Some(pos) = session.cursor {
        // The cursor is a steady square drawn round the cell, over any tile there.
        let at = layout.cell_centre(pos);
        let (side, bar) = (cell * 1.02, (cell * 0.08).max(0.02));
        let off = (side - bar) / 2.0;
        for (dx, dy, size) in [
            (0.0, off, [side, bar]),
            (0.0, -off, [side, bar]),
            (-off, 0.0, [bar, side - 2.0 * bar]),
            (off, 0.0, [bar, side - 2.0 * bar]),
        ] {
            pic.tinted(
                &table.white,
                None,
                [at[0] + dx, at[1] + dy],
                size,
                z + 0.3,
                table.light,
            );
        }
    }
    // The player's hand on its panel.
    let hand = session.hand();
    if !layout.hand.is_empty() {
        let span = layout.hand.len() as f32 * layout.hand_tile * 1.08 + layout.hand_tile * 0.4;
        pic.tinted(
            &table.panel,
            Some(table.panel_border),
            table.hand_centre,
            [span, layout.hand_tile * 1.4],
            z,
            white,
        );
    }
    for (slot, (&at, kana)) in layout.hand.iter().zip(hand).enumerate() {
        let carried = session.carry.filter(|c| c.slot == slot && c.moved);
        let (lift, rot) = float(slot, t);
        let shake = feedback.hand_shake(slot) * layout.hand_tile;
        let mut at = [at[0] + lift[0] + shake, at[1] + lift[1]];
        let mut tz = z + 0.4;
        if let Some(c) = carried {
            at = c.at;
            tz = z + 0.8;
        }
        if session.selected == Some(slot) {
            let mut glow_tint = table.chosen;
            glow_tint.0[3] *= pulse;
            pic.tinted(
                &glow(table),
                None,
                at,
                [layout.hand_tile * 1.7, layout.hand_tile * 1.7],
                tz - 0.05,
                glow_tint,
            );
            at[1] += layout.hand_tile * 0.12;
        }
        // A tile dealt for a move the room has not answered is the mirror's guess: face down.
        let guess = session.guessed(slot);
        pic.tile(
            table,
            (!hidden && !guess).then(|| kana.to_char()),
            at,
            layout.hand_tile,
            tz,
            rot,
        );
    }
    // The rival's hand, small, when the table shows it.
    for (slot, (&at, kana)) in layout.rival.iter().zip(session.rival_hand()).enumerate() {
        let (lift, rot) = float(slot + 7, t);
        pic.tile(
            table,
            (!hidden).then(|| kana.to_char()),
            [at[0] + lift[0], at[1] + lift[1]],
            layout.rival_tile,
            z + 0.4,
            rot,
        );
    }
    if !hidden {
        feedback::draw(&mut pic, table, &layout, feedback, you);
    }
    pic
}

fn glow(table: &Table) -> String {
    if table.glow.is_empty() {
        table.white.clone()
    } else {
        table.glow.clone()
    }
}

fn table_centre(layout: &Layout) -> [f32; 2] {
    let (w, h) = layout.size;
    [
        layout.origin[0] + (w as f32 - 1.0) / 2.0 * layout.cell,
        layout.origin[1] - (h as f32 - 1.0) / 2.0 * layout.cell,
    ]
}

/// Draws every table: its picture written into its pool of entities.
pub fn system(world: &mut World, _dt: f64) {
    let t = world
        .resources
        .get::<Time>()
        .map_or(0.0, |time| time.elapsed as f32);
    let mut pictures = Vec::new();
    for (e, table, session, drawn) in world
        .entities
        .query::<(Entity, &Table, &Session, &Drawn)>()
        .iter()
    {
        pictures.push((e, draw_table(table, session, &drawn.feedback, t)));
    }
    for (e, picture) in pictures {
        let Ok(mut drawn) = world.entities.remove_one::<Drawn>(e) else {
            continue;
        };
        write_pool(world, e, &mut drawn.sprites, picture.sprites);
        write_pool(world, e, &mut drawn.texts, picture.texts);
        let _ = world.entities.insert_one(e, drawn);
    }
}

/// Writes `items` into the pool's entities (spawning more when there are not enough, and
/// despawning the rest), each linked to `owner`, the table entity they draw.
fn write_pool<C: jengine::hecs::Component>(
    world: &mut World,
    owner: Entity,
    pool: &mut Vec<Entity>,
    items: Vec<(Transform2D, C)>,
) {
    let n = items.len();
    for (i, (transform, item)) in items.into_iter().enumerate() {
        match pool.get(i) {
            Some(&e) if world.entities.contains(e) => {
                let _ = world.entities.insert(e, (transform, item));
            }
            _ => {
                let e = world.spawn((BulkEntity, SpawnedFor(owner), transform, item));
                if i < pool.len() {
                    pool[i] = e;
                } else {
                    pool.push(e);
                }
            }
        }
    }
    for e in pool.drain(n.min(pool.len())..) {
        let _ = world.entities.despawn(e);
    }
}
