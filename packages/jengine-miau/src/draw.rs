//! The board on screen: every live piece becomes an entity the package owns (a glyph for an
//! object, a coloured tile with its word for a word), sentence bars glow under each sentence,
//! and a win bursts from the cells where it happened.
//!
//! Pieces keep their entity from turn to turn (a piece's id is stable for the level), so a turn
//! only moves transforms: each piece slides from where it was drawn to its new cell in `step`
//! seconds, undo and restart included, and only pieces whose look changed are rewritten.

use std::collections::HashMap;

use jengine::{Align, BulkEntity, Color, Entity, SpawnedFor, Sprite, Text, Transform2D, World};

use crate::session::Change;
use crate::{BoardBag, MiauBag, MiauGame, PieceBag};

/// Tile colours by word kind: nouns, `IS`/`AND`, properties.
pub const NOUN: [f32; 4] = [1.0, 0.44, 0.68, 1.0];
/// `IS` and `AND`.
pub const OPERATOR: [f32; 4] = [0.94, 0.94, 0.97, 1.0];
/// Properties (`YOU`, `WIN`, a proof's own behaviours).
pub const PROPERTY: [f32; 4] = [0.27, 0.85, 1.0, 1.0];
/// The ink words are written in on their tiles.
pub const INK: [f32; 4] = [0.06, 0.06, 0.11, 1.0];
/// The board under the pieces.
pub const BOARD: [f32; 4] = [0.09, 0.1, 0.17, 1.0];
/// How much a word standing in no sentence is dimmed.
const IDLE: f32 = 0.45;
/// Seconds a win burst lasts.
const BURST: f32 = 1.2;
/// Sparks in a burst, per winning cell.
const SPARKS: usize = 10;
/// Pieces of one cell drawn fanned out; any more hide behind them, and a badge counts them all.
pub const STACK_SHOWN: usize = 3;

/// What a piece looks like, to rewrite its components only when it changes.
#[derive(Clone, Debug, PartialEq)]
struct Look {
    text: String,
    word: bool,
    kind: Option<String>,
    active: bool,
    flipped: bool,
    glyph: Option<String>,
    tile: f32,
    /// Height above the board in a stack (front pieces higher), `None` alone on its cell.
    lift: Option<u8>,
    /// Behind the fanned pieces of a deep stack: drawn as nothing.
    hidden: bool,
}

/// A piece's place in the stack on its cell: `front` counts from the front (0 is drawn on
/// top), `of` is how many pieces share the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stacked {
    /// From the front, 0 first.
    pub front: usize,
    /// Pieces on the cell.
    pub of: usize,
}

/// Every piece's place in its cell's stack. In front: words standing in a sentence, so the
/// tile a rule reads is the one seen; then idle words; objects at the back. Ties by id.
pub fn stacks(board: &BoardBag) -> HashMap<u32, Stacked> {
    let mut cells: HashMap<(u16, u16), Vec<&PieceBag>> = HashMap::new();
    for p in &board.pieces {
        cells.entry((p.x, p.y)).or_default().push(p);
    }
    let mut out = HashMap::with_capacity(board.pieces.len());
    for (_, mut list) in cells {
        list.sort_by_key(|p| (!(p.word && p.active), !p.word, p.id));
        let of = list.len();
        for (front, p) in list.into_iter().enumerate() {
            out.insert(p.id, Stacked { front, of });
        }
    }
    out
}

/// How much smaller each fanned piece is drawn, and its offset from the cell's middle (in
/// tiles, y up): the front piece low and right, the back one high and left.
pub fn fan(place: Stacked) -> (f32, [f32; 2]) {
    if place.of < 2 {
        return (1.0, [0.0, 0.0]);
    }
    let shown = place.of.min(STACK_SHOWN);
    let scale = if shown == 2 { 0.64 } else { 0.56 };
    let spread = 1.0 - scale;
    // 1 at the front, 0 at the back; a hidden piece sits behind the back one.
    let depth = place.front.min(shown - 1) as f32;
    let t = 1.0 - depth / (shown - 1) as f32;
    let d = (t - 0.5) * spread;
    (scale, [d, -d])
}

/// One piece's entity and its slide.
struct Slot {
    entity: Entity,
    from: [f32; 2],
    to: [f32; 2],
    look: Look,
}

/// The picture of one `miau_game`: its pieces, bars and burst, and the slide in progress.
pub struct Run {
    revision: Option<u64>,
    /// A board change not drawn yet.
    changed: bool,
    /// The level's changes counter last drawn, and what the last change was.
    change: Option<(u64, Change)>,
    won: bool,
    slots: HashMap<u32, Slot>,
    board: Option<Entity>,
    bars: Vec<Entity>,
    /// The count badges of deep stacks.
    badges: Vec<Entity>,
    sparks: Vec<(Entity, [f32; 2], [f32; 2])>,
    /// Seconds since the last change (the slide's clock).
    clock: f32,
    /// Seconds since the win, while bursting.
    burst: Option<f32>,
    /// Cell size and board middle last laid out.
    tile: f32,
    origin: [f32; 2],
    size: (u16, u16),
}

impl Run {
    /// A picture not drawn yet.
    pub fn new(game: &MiauGame) -> Run {
        Run {
            revision: None,
            changed: true,
            change: None,
            won: false,
            slots: HashMap::new(),
            board: None,
            bars: Vec::new(),
            badges: Vec::new(),
            sparks: Vec::new(),
            clock: f32::MAX,
            burst: None,
            tile: game.tile,
            origin: game.origin,
            size: (0, 0),
        }
    }

    /// The session revision last published, `None` before the first.
    pub fn revision(&self) -> Option<u64> {
        self.revision
    }

    /// Takes note of freshly published bags: `change` is the level's change counter and what
    /// it was, `won` whether the level is won now.
    pub fn observe(&mut self, revision: u64, change: Option<(u64, Change)>, won: bool) {
        self.revision = Some(revision);
        if change.map(|c| c.0) != self.change.map(|c| c.0) {
            self.changed = true;
            let moved = matches!(change, Some((_, Change::Move(_))));
            if won && !self.won && moved {
                self.burst = Some(0.0);
            }
            if !won {
                self.burst = None;
            }
            self.change = change;
        }
        self.won = won;
    }
}

fn mix(c: [f32; 4], k: f32) -> Color {
    Color([c[0] * k, c[1] * k, c[2] * k, c[3]])
}

fn colour_of(kind: Option<&str>) -> [f32; 4] {
    match kind {
        Some("noun") => NOUN,
        Some("operator") => OPERATOR,
        _ => PROPERTY,
    }
}

/// Where cell `(x, y)` is in the world, for a board of `size` cells of `tile` about `origin`.
pub fn cell_pos(origin: [f32; 2], tile: f32, size: (u16, u16), x: f32, y: f32) -> [f32; 2] {
    let (w, h) = (f32::from(size.0), f32::from(size.1));
    [
        origin[0] + (x - (w - 1.0) / 2.0) * tile,
        origin[1] - (y - (h - 1.0) / 2.0) * tile,
    ]
}

/// The cell size that fits `size` cells into `game.area`, at most `game.tile`.
pub fn fit_tile(game: &MiauGame, size: (u16, u16)) -> f32 {
    let w = f32::from(size.0.max(1));
    let h = f32::from(size.1.max(1));
    game.tile.min(game.area[0] / w).min(game.area[1] / h)
}

fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t)
}

/// The components of a piece drawn with `look`.
fn piece_text(look: &Look, z: f32, game: &MiauGame) -> (Text, Option<Sprite>, f32) {
    let (text, sprite, alone) = piece_parts(look, z, game);
    if look.hidden {
        return (Text::default(), None, alone);
    }
    // Fanned pieces rise above the board in order, front highest, objects included.
    let z = match look.lift {
        Some(l) => z + 0.2 + 0.04 * f32::from(l),
        None => alone,
    };
    (text, sprite, z)
}

fn piece_parts(look: &Look, z: f32, game: &MiauGame) -> (Text, Option<Sprite>, f32) {
    let tile = look.tile;
    if look.word {
        let base = colour_of(look.kind.as_deref());
        let k = if look.active { 1.0 } else { IDLE };
        let chars = look.text.chars().count().max(1) as f32;
        // Long words get smaller letters, so every word stays inside its tile.
        let size = (tile * 0.36).min(tile * 1.55 / chars);
        let text = Text {
            text: look.text.clone(),
            size,
            color: Color(INK),
            align: Align::Center,
            ..Text::default()
        };
        let sprite = Sprite {
            texture: game.tile_texture.clone(),
            size: [tile * 0.92, tile * 0.92],
            tint: mix(base, k),
            ..Sprite::default()
        };
        (text, Some(sprite), z + 0.2)
    } else if let Some(glyph) = &look.glyph {
        let text = Text {
            text: glyph.clone(),
            size: tile * 0.78,
            color: Color::WHITE,
            align: Align::Center,
            ..Text::default()
        };
        (text, None, z + 0.3)
    } else {
        // A noun with no palette entry: its name on a small card.
        let chars = look.text.chars().count().max(1) as f32;
        let text = Text {
            text: look.text.to_lowercase(),
            size: (tile * 0.3).min(tile * 1.4 / chars),
            color: Color(OPERATOR),
            align: Align::Center,
            ..Text::default()
        };
        let sprite = Sprite {
            texture: game.tile_texture.clone(),
            size: [tile * 0.7, tile * 0.7],
            tint: mix(NOUN, 0.35),
            ..Sprite::default()
        };
        (text, Some(sprite), z + 0.3)
    }
}

fn look_of(piece: &PieceBag, tile: f32, place: Stacked) -> Look {
    let (scale, _) = fan(place);
    let stacked = place.of > 1;
    Look {
        text: piece.text.clone(),
        word: piece.word,
        kind: piece.kind.clone(),
        active: piece.active,
        flipped: piece.flipped,
        glyph: piece.glyph.clone(),
        tile: tile * scale,
        lift: stacked.then(|| (STACK_SHOWN.saturating_sub(place.front)) as u8),
        hidden: place.front >= STACK_SHOWN,
    }
}

fn set_piece(world: &mut World, e: Entity, look: &Look, pos: [f32; 2], game: &MiauGame) {
    let (text, sprite, z) = piece_text(look, game.z, game);
    let transform = Transform2D {
        pos,
        scale: [if look.flipped { -1.0 } else { 1.0 }, 1.0],
        z,
        ..Transform2D::default()
    };
    let _ = world.entities.insert(e, (transform, text));
    match sprite {
        Some(s) => {
            let _ = world.entities.insert_one(e, s);
        }
        None => {
            let _ = world.entities.remove_one::<Sprite>(e);
        }
    }
}

fn despawn_all(world: &mut World, list: &mut Vec<Entity>) {
    for e in list.drain(..) {
        let _ = world.entities.despawn(e);
    }
}

/// Lays out a changed board: pieces appear, vanish, change look and start sliding; bars and
/// the board under them are made again.
fn relayout(world: &mut World, run: &mut Run, game: &MiauGame, board: &BoardBag, bag: &MiauBag) {
    let size = (board.width, board.height);
    let tile = fit_tile(game, size);
    let origin = game.origin;
    let jump = size != run.size || tile != run.tile || origin != run.origin;
    // A level starting (or a new layout) puts pieces in place; anything else slides them.
    let slide = !jump && !matches!(run.change, Some((_, Change::Start)) | None);
    run.size = size;
    run.tile = tile;
    run.origin = origin;
    let now = |run: &Run, slot: &Slot| -> [f32; 2] {
        let t = ease(run.clock / game.step.max(1e-3));
        [
            slot.from[0] + (slot.to[0] - slot.from[0]) * t,
            slot.from[1] + (slot.to[1] - slot.from[1]) * t,
        ]
    };
    let mut keep: HashMap<u32, Slot> = HashMap::with_capacity(board.pieces.len());
    let places = stacks(board);
    let alone = Stacked { front: 0, of: 1 };
    for piece in &board.pieces {
        let place = places.get(&piece.id).copied().unwrap_or(alone);
        let (_, offset) = fan(place);
        let mid = cell_pos(origin, tile, size, f32::from(piece.x), f32::from(piece.y));
        let to = [mid[0] + offset[0] * tile, mid[1] + offset[1] * tile];
        let look = look_of(piece, tile, place);
        match run.slots.remove(&piece.id) {
            Some(mut slot) => {
                slot.from = if slide { now(run, &slot) } else { to };
                slot.to = to;
                if slot.look != look {
                    set_piece(world, slot.entity, &look, slot.from, game);
                    slot.look = look;
                }
                keep.insert(piece.id, slot);
            }
            None => {
                let entity = world.spawn((BulkEntity,));
                set_piece(world, entity, &look, to, game);
                keep.insert(
                    piece.id,
                    Slot {
                        entity,
                        from: to,
                        to,
                        look,
                    },
                );
            }
        }
    }
    for (_, slot) in run.slots.drain() {
        let _ = world.entities.despawn(slot.entity);
    }
    run.slots = keep;
    run.clock = if slide { 0.0 } else { f32::MAX };

    // A badge on each cell of three or more pieces, saying how many there are.
    despawn_all(world, &mut run.badges);
    let mut counted: Vec<((u16, u16), usize)> = Vec::new();
    for piece in &board.pieces {
        let of = places.get(&piece.id).map_or(1, |p| p.of);
        if of >= STACK_SHOWN && !counted.iter().any(|(c, _)| *c == (piece.x, piece.y)) {
            counted.push(((piece.x, piece.y), of));
        }
    }
    for ((x, y), of) in counted {
        let mid = cell_pos(origin, tile, size, f32::from(x), f32::from(y));
        let at = Transform2D {
            pos: [mid[0] + tile * 0.34, mid[1] + tile * 0.34],
            z: game.z + 0.45,
            ..Transform2D::default()
        };
        let disc = Sprite {
            texture: game.tile_texture.clone(),
            size: [tile * 0.34, tile * 0.34],
            tint: Color([0.98, 0.86, 0.35, 1.0]),
            ..Sprite::default()
        };
        let count = Text {
            text: format!("{of}"),
            size: tile * if of >= 10 { 0.2 } else { 0.24 },
            color: Color(INK),
            align: Align::Center,
            ..Text::default()
        };
        run.badges.push(world.spawn((BulkEntity, at, disc, count)));
    }

    // The board itself.
    let area = [f32::from(size.0) * tile, f32::from(size.1) * tile];
    let board_sprite = Sprite {
        size: [area[0] + tile * 0.2, area[1] + tile * 0.2],
        tint: Color(BOARD),
        ..Sprite::default()
    };
    let at = Transform2D {
        pos: origin,
        z: game.z,
        ..Transform2D::default()
    };
    match run.board {
        Some(e) if world.entities.contains(e) => {
            let _ = world.entities.insert(e, (at, board_sprite));
        }
        _ => run.board = Some(world.spawn((BulkEntity, at, board_sprite))),
    }
    // No level: no board under nothing.
    if board.pieces.is_empty()
        && bag.playing.is_none()
        && let Some(e) = run.board.take()
    {
        let _ = world.entities.despawn(e);
    }

    // Sentence bars: a glowing strip under each sentence across, beside each one down.
    despawn_all(world, &mut run.bars);
    for s in &bag.sentences {
        let n = s.length as f32;
        let first = cell_pos(origin, tile, size, f32::from(s.x), f32::from(s.y));
        let (pos, bar) = if s.axis == "h" {
            (
                [first[0] + (n - 1.0) * tile / 2.0, first[1] - tile * 0.5],
                [n * tile - tile * 0.12, tile * 0.1],
            )
        } else {
            (
                [first[0] - tile * 0.5, first[1] - (n - 1.0) * tile / 2.0],
                [tile * 0.1, n * tile - tile * 0.12],
            )
        };
        let sprite = Sprite {
            texture: game.bar_texture.clone(),
            size: bar,
            tint: Color([1.0, 0.86, 0.35, 0.9]),
            ..Sprite::default()
        };
        let t = Transform2D {
            pos,
            z: game.z + 0.1,
            ..Transform2D::default()
        };
        let e = world.spawn((BulkEntity, t, sprite));
        run.bars.push(e);
    }
}

/// Starts a win burst: sparks fly out of every cell where a `YOU` stands on the board's
/// winning objects (any live object, as the board knows only who won, not where: the sparks
/// leave the objects that are `YOU`).
fn start_burst(world: &mut World, run: &mut Run, game: &MiauGame, bag: &MiauBag, board: &BoardBag) {
    for (e, _, _) in run.sparks.drain(..) {
        let _ = world.entities.despawn(e);
    }
    let yous: Vec<&str> = bag
        .rules
        .iter()
        .filter_map(|r| r.strip_suffix(" IS YOU"))
        .collect();
    let cells: Vec<[f32; 2]> = board
        .pieces
        .iter()
        .filter(|p| !p.word && yous.contains(&p.text.as_str()))
        .map(|p| {
            cell_pos(
                run.origin,
                run.tile,
                run.size,
                f32::from(p.x),
                f32::from(p.y),
            )
        })
        .take(8)
        .collect();
    for at in cells {
        for i in 0..SPARKS {
            let angle = i as f32 / SPARKS as f32 * std::f32::consts::TAU;
            let dir = [angle.cos(), angle.sin()];
            let sprite = Sprite {
                texture: game.spark_texture.clone(),
                size: [run.tile * 0.5, run.tile * 0.5],
                tint: Color([1.0, 0.86, 0.35, 1.0]),
                ..Sprite::default()
            };
            let t = Transform2D {
                pos: at,
                z: game.z + 0.5,
                ..Transform2D::default()
            };
            let e = world.spawn((BulkEntity, t, sprite));
            run.sparks.push((e, at, dir));
        }
    }
}

fn animate(world: &mut World, run: &mut Run, dt: f32, game: &MiauGame) {
    if run.clock < game.step {
        run.clock += dt;
        let t = ease(run.clock / game.step.max(1e-3));
        for slot in run.slots.values() {
            if slot.from == slot.to {
                continue;
            }
            let pos = [
                slot.from[0] + (slot.to[0] - slot.from[0]) * t,
                slot.from[1] + (slot.to[1] - slot.from[1]) * t,
            ];
            if let Ok(mut tr) = world.entities.get::<&mut Transform2D>(slot.entity) {
                tr.pos = pos;
            }
        }
    }
    if let Some(b) = run.burst.as_mut() {
        *b += dt;
        let b = *b;
        let t = (b / BURST).min(1.0);
        for (e, at, dir) in &run.sparks {
            let reach = run.tile * (0.3 + 1.6 * ease(t));
            if let Ok((tr, sprite)) = world
                .entities
                .query_one_mut::<(&mut Transform2D, &mut Sprite)>(*e)
            {
                tr.pos = [at[0] + dir[0] * reach, at[1] + dir[1] * reach];
                tr.rot = b * 3.0;
                sprite.tint.0[3] = 1.0 - t;
            }
        }
        if t >= 1.0 {
            run.burst = None;
            for (e, _, _) in run.sparks.drain(..) {
                let _ = world.entities.despawn(e);
            }
        }
    }
}

/// Marks everything the run has spawned as drawn for the game's entity `owner` (those not
/// marked yet), so the editor's pick on the board selects the game.
fn own(world: &mut World, run: &Run, owner: Entity) {
    let drawn = run
        .slots
        .values()
        .map(|s| s.entity)
        .chain(run.board)
        .chain(run.bars.iter().copied())
        .chain(run.badges.iter().copied())
        .chain(run.sparks.iter().map(|(e, _, _)| *e));
    let unmarked: Vec<Entity> = drawn
        .filter(|&d| world.entities.contains(d) && world.entities.get::<&SpawnedFor>(d).is_err())
        .collect();
    for d in unmarked {
        let _ = world.entities.insert_one(d, SpawnedFor(owner));
    }
}

/// The frame's drawing: changed boards laid out again, slides and bursts advanced.
pub fn system(world: &mut World, dt: f64) {
    let games: Vec<Entity> = world
        .entities
        .query::<(Entity, &MiauGame, &Run)>()
        .iter()
        .map(|(e, _, _)| e)
        .collect();
    for e in games {
        let Ok(mut run) = world.entities.remove_one::<Run>(e) else {
            continue;
        };
        let game = world
            .entities
            .get::<&MiauGame>(e)
            .ok()
            .map(|g| (*g).clone());
        if let Some(game) = game.filter(|g| g.draw) {
            if run.changed {
                run.changed = false;
                // The bags are read where they are; only a changed board is laid out.
                let parts = world
                    .entities
                    .query_one_mut::<(&BoardBag, &MiauBag)>(e)
                    .ok()
                    .map(|(b, m)| (b.clone(), m.clone()));
                if let Some((board, bag)) = parts {
                    let bursting = run.burst == Some(0.0);
                    relayout(world, &mut run, &game, &board, &bag);
                    if bursting {
                        start_burst(world, &mut run, &game, &bag, &board);
                    }
                    own(world, &run, e);
                }
            }
            animate(world, &mut run, dt as f32, &game);
        }
        let _ = world.entities.insert_one(e, run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(id: u32, word: bool, active: bool, x: u16, y: u16) -> PieceBag {
        PieceBag {
            id,
            word,
            active,
            x,
            y,
            text: "ROCK".into(),
            ..PieceBag::default()
        }
    }

    #[test]
    fn a_stack_puts_the_read_word_in_front_and_objects_at_the_back() {
        let board = BoardBag {
            width: 3,
            height: 3,
            pieces: vec![
                piece(1, false, false, 1, 1),
                piece(2, true, false, 1, 1),
                piece(3, true, true, 1, 1),
                piece(4, true, false, 0, 0),
            ],
        };
        let s = stacks(&board);
        assert_eq!(s[&3], Stacked { front: 0, of: 3 });
        assert_eq!(s[&2], Stacked { front: 1, of: 3 });
        assert_eq!(s[&1], Stacked { front: 2, of: 3 });
        assert_eq!(s[&4], Stacked { front: 0, of: 1 });
    }

    #[test]
    fn fanned_pieces_stay_inside_their_cell_and_apart() {
        assert_eq!(fan(Stacked { front: 0, of: 1 }), (1.0, [0.0, 0.0]));
        for of in 2..=12 {
            let mut seen: Vec<[f32; 2]> = Vec::new();
            for front in 0..of {
                let (scale, [dx, dy]) = fan(Stacked { front, of });
                // The piece's square stays inside the cell.
                assert!(dx.abs() + scale / 2.0 <= 0.5 + 1e-6, "{of} {front}");
                assert!(dy.abs() + scale / 2.0 <= 0.5 + 1e-6, "{of} {front}");
                if front < STACK_SHOWN {
                    assert!(!seen.contains(&[dx, dy]), "{of} {front} overlaps exactly");
                    seen.push([dx, dy]);
                }
            }
            // The front piece is low and right, the back one high and left.
            let (_, front) = fan(Stacked { front: 0, of });
            assert!(front[0] > 0.0 && front[1] < 0.0);
        }
    }
}
