//! What the board says back, for a moment after each move: a word made lights its cells and
//! its points rise from it; in a battle the damage flies to the hurt player's side in the
//! combo's colour; a refused tile shakes where it was tried and says why. Also who placed each
//! tile, for the thin edge a battle draws in its player's colour.
//!
//! [`Feedback::observe`] reads a frame's events and [`Feedback::age`] moves the marks on; both
//! are pure and stepped by the frame's time, so a replay shows the same marks on the same frame.

use jengine::{Align, Color, Sprite, Text, Transform2D};

use super::{Layout, Picture};
use crate::Table;
use crate::board::Pos;
use crate::kana::Kana;
use crate::play::{Event, Refusal};

/// Seconds a word's cells stay lit.
pub const LIT: f32 = 0.9;
/// Seconds a word's points take to rise and fade.
pub const RISE: f32 = 1.3;
/// Seconds a damage number takes to fly to the hurt side.
pub const FLY: f32 = 0.7;
/// Seconds it stays there, fading, once arrived.
pub const LINGER: f32 = 0.5;
/// Seconds a refused tile shakes.
pub const SHAKE: f32 = 0.4;
/// Seconds a refusal's reason stays.
pub const REASON: f32 = 1.4;

/// Where a refusal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    /// On the board cell the tile was tried on.
    Cell(Pos),
    /// On a hand tile (from 0), or the whole hand when no tile was chosen.
    Hand(Option<usize>),
}

/// One thing the board is showing for a moment.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A placement's words: their cells lit and the points rising.
    Word {
        /// Who made them.
        player: usize,
        /// Every cell of every word the tile made.
        cells: Vec<Pos>,
        /// The placement's points.
        points: u32,
        /// Whether the tile read both across and down (its points are half again).
        both_ways: bool,
        /// Seconds since.
        age: f32,
    },
    /// A battle's hit: the number flies from the tile that made it to the hurt side.
    Damage {
        /// Who was hit.
        to: usize,
        /// The tile that hit.
        from: Pos,
        /// How hard.
        damage: u32,
        /// The hitting word's combo step (0 for a first word).
        combo: u32,
        /// Seconds since.
        age: f32,
    },
    /// The player's move refused.
    Refused {
        /// Where.
        on: Spot,
        /// Why.
        why: Refusal,
        /// The face tried, drawn shaking on a cell.
        kana: Option<Kana>,
        /// Seconds since.
        age: f32,
    },
}

impl Mark {
    fn age_mut(&mut self) -> &mut f32 {
        match self {
            Mark::Word { age, .. } | Mark::Damage { age, .. } | Mark::Refused { age, .. } => age,
        }
    }

    /// Whether it has nothing left to show.
    fn done(&self) -> bool {
        match self {
            Mark::Word { age, .. } => *age >= LIT.max(RISE),
            Mark::Damage { age, .. } => *age >= FLY + LINGER,
            Mark::Refused { age, .. } => *age >= SHAKE.max(REASON),
        }
    }
}

/// What the player was doing when the events came: where a refusal belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seen {
    /// The player's index in the game.
    pub you: usize,
    /// The cell last tried.
    pub tried: Option<Pos>,
    /// The chosen hand slot.
    pub chosen: Option<usize>,
    /// The chosen tile's face.
    pub face: Option<Kana>,
    /// The board's columns and rows.
    pub size: (usize, usize),
}

/// A table's passing marks and who placed each tile; kept with the table's drawing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Feedback {
    /// The marks showing, oldest first.
    pub marks: Vec<Mark>,
    /// Who placed each cell's tile, row by row (`None` for a tile dealt with the board).
    owners: Vec<Option<u8>>,
    /// The board's size the owners are kept for.
    size: (usize, usize),
    /// Each player's last placement and its combo step, for the hit that follows it.
    last: [Option<(Pos, u32)>; 2],
}

/// The most marks kept; a flood of events drops the oldest.
const MAX_MARKS: usize = 64;

impl Feedback {
    /// Reads one frame's events.
    pub fn observe(&mut self, events: &[Event], seen: Seen) {
        if self.size != seen.size {
            self.size = seen.size;
            self.owners = vec![None; seen.size.0 * seen.size.1];
        }
        for event in events {
            match event {
                Event::Started => {
                    self.marks.clear();
                    self.owners.iter_mut().for_each(|o| *o = None);
                    self.last = [None; 2];
                }
                Event::Placed {
                    player,
                    pos,
                    points,
                    combo,
                    words,
                    ..
                } => {
                    if let Some(o) = self.owner_slot(*pos) {
                        *o = u8::try_from(*player).ok();
                    }
                    if let Some(l) = self.last.get_mut(*player) {
                        *l = Some((*pos, *combo));
                    }
                    let own: u32 = words.iter().map(|w| w.points).sum();
                    let mut cells: Vec<Pos> = Vec::new();
                    for c in words.iter().flat_map(|w| w.cells.iter()) {
                        if !cells.contains(c) {
                            cells.push(*c);
                        }
                    }
                    self.push(Mark::Word {
                        player: *player,
                        cells,
                        points: *points,
                        both_ways: *points > own,
                        age: 0.0,
                    });
                }
                Event::Hit { to, damage, .. } if *damage > 0 => {
                    let by = 1 - (*to).min(1);
                    if let Some((from, combo)) = self.last[by] {
                        self.push(Mark::Damage {
                            to: *to,
                            from,
                            damage: *damage,
                            combo,
                            age: 0.0,
                        });
                    }
                }
                Event::Refused { player, why } if *player == seen.you => {
                    let on_board = matches!(
                        why,
                        Refusal::NoWord
                            | Refusal::NotNextToKana
                            | Refusal::Taken
                            | Refusal::NotACell
                    );
                    let on = match seen.tried {
                        Some(pos) if on_board && pos.x < seen.size.0 && pos.y < seen.size.1 => {
                            Spot::Cell(pos)
                        }
                        _ => Spot::Hand(seen.chosen),
                    };
                    // A refusal said again while the last one still shakes starts it over.
                    self.marks
                        .retain(|m| !matches!(m, Mark::Refused { on: o, .. } if *o == on));
                    self.push(Mark::Refused {
                        on,
                        why: *why,
                        kana: seen.face,
                        age: 0.0,
                    });
                }
                _ => {}
            }
        }
    }

    fn push(&mut self, mark: Mark) {
        if self.marks.len() == MAX_MARKS {
            self.marks.remove(0);
        }
        self.marks.push(mark);
    }

    /// Moves every mark on by `dt` seconds and drops the finished.
    pub fn age(&mut self, dt: f32) {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        for m in &mut self.marks {
            *m.age_mut() += dt;
        }
        self.marks.retain(|m| !m.done());
    }

    /// Who placed the tile on `pos`, when a player did.
    pub fn owner(&self, pos: Pos) -> Option<usize> {
        let (w, h) = self.size;
        if pos.x >= w || pos.y >= h {
            return None;
        }
        self.owners
            .get(pos.y * w + pos.x)
            .copied()
            .flatten()
            .map(usize::from)
    }

    fn owner_slot(&mut self, pos: Pos) -> Option<&mut Option<u8>> {
        let (w, h) = self.size;
        if pos.x >= w || pos.y >= h {
            return None;
        }
        self.owners.get_mut(pos.y * w + pos.x)
    }

    /// How far hand slot `slot`'s tile is shaken sideways now, as a share of its size.
    pub fn hand_shake(&self, slot: usize) -> f32 {
        self.marks
            .iter()
            .map(|m| match m {
                Mark::Refused {
                    on: Spot::Hand(s),
                    age,
                    ..
                } if s.is_none_or(|s| s == slot) => shake(*age),
                _ => 0.0,
            })
            .sum()
    }
}

/// A refused tile's sideways shake at `age`, as a share of its size: quick, dying away.
fn shake(age: f32) -> f32 {
    if age >= SHAKE {
        return 0.0;
    }
    let left = 1.0 - age / SHAKE;
    (age * std::f32::consts::TAU * 9.0).sin() * 0.1 * left
}

fn with_alpha(c: Color, a: f32) -> Color {
    let mut c = c;
    c.0[3] *= a.clamp(0.0, 1.0);
    c
}

/// The colour a player's marks are drawn in: yours first, as the table's panels show them.
fn player_colour(table: &Table, player: usize, you: usize) -> Color {
    table.players[usize::from(player != you)]
}

/// A combo step's colour: the table's list, its last for every step past it.
fn combo_colour(table: &Table, combo: u32) -> Color {
    let list = &table.combo_colors;
    list.get((combo as usize).min(list.len().saturating_sub(1)))
        .copied()
        .unwrap_or(table.players[0])
}

impl Picture {
    /// A text with a soft shadow under it, so it reads over tiles and sea alike.
    fn label(&mut self, table: &Table, text: String, at: [f32; 2], size: f32, z: f32, c: Color) {
        let shadow = with_alpha(Color([0.03, 0.04, 0.1, 0.85]), c.0[3]);
        let d = size * 0.06;
        for (pos, color, z) in [([at[0] + d, at[1] - d], shadow, z), (at, c, z + 0.01)] {
            self.texts.push((
                Transform2D {
                    pos,
                    z,
                    ..Transform2D::default()
                },
                Text {
                    text: text.clone(),
                    font: table.font.clone(),
                    size,
                    color,
                    align: Align::Center,
                    wrap: None,
                    ..Text::default()
                },
            ));
        }
    }
}

/// Draws the marks of `fb` onto `pic`: under-tile lights at `z + 0.15`, tile washes at
/// `z + 0.205`, shaking tiles and numbers above the hands.
pub(super) fn draw(pic: &mut Picture, table: &Table, layout: &Layout, fb: &Feedback, you: usize) {
    let z = table.z;
    let cell = layout.cell;
    let small = (cell * 0.6).max(table.hand_tile * 0.36);
    for mark in &fb.marks {
        match mark {
            Mark::Word {
                player,
                cells,
                points,
                both_ways,
                age,
            } => {
                let colour = player_colour(table, *player, you);
                if *age < LIT {
                    let fade = 1.0 - (age / LIT).powi(2);
                    for &pos in cells {
                        let at = layout.cell_centre(pos);
                        pic.tinted(
                            &super::glow(table),
                            None,
                            at,
                            [cell * 1.5, cell * 1.5],
                            z + 0.15,
                            with_alpha(colour, 0.9 * fade),
                        );
                        pic.tinted(
                            &table.tile,
                            Some(table.tile_border),
                            at,
                            [cell * 0.94, cell * 0.94],
                            z + 0.205,
                            with_alpha(colour, 0.55 * fade),
                        );
                    }
                }
                if *age < RISE && !cells.is_empty() {
                    let n = cells.len() as f32;
                    let mid = cells.iter().fold([0.0, 0.0], |a, &p| {
                        let c = layout.cell_centre(p);
                        [a[0] + c[0] / n, a[1] + c[1] / n]
                    });
                    // From just above the word's top cell, so no kana is covered.
                    let top = cells
                        .iter()
                        .map(|&p| layout.cell_centre(p)[1])
                        .fold(f32::MIN, f32::max);
                    let p = age / RISE;
                    let rise = cell * (0.75 + 0.9 * (1.0 - (1.0 - p).powi(2)));
                    let alpha = if p < 0.6 { 1.0 } else { 1.0 - (p - 0.6) / 0.4 };
                    let bright = with_alpha(lighter(colour), alpha);
                    let at = [mid[0], top + rise];
                    pic.label(
                        table,
                        format!("+{points}"),
                        at,
                        cell * 0.95,
                        z + 0.9,
                        bright,
                    );
                    if *both_ways {
                        pic.label(
                            table,
                            "both ways ×1.5".into(),
                            [at[0], at[1] - cell * 0.5],
                            small,
                            z + 0.9,
                            bright,
                        );
                    }
                }
            }
            Mark::Damage {
                to,
                from,
                damage,
                combo,
                age,
            } => {
                let start = layout.cell_centre(*from);
                let end = table.hurt_at.unwrap_or(layout.hand_centres)[usize::from(*to != you)];
                let p = (age / FLY).min(1.0);
                let eased = 1.0 - (1.0 - p).powi(3);
                let arc = (p * std::f32::consts::PI).sin() * cell * 1.4;
                let at = [
                    start[0] + (end[0] - start[0]) * eased,
                    start[1] + (end[1] - start[1]) * eased + arc,
                ];
                let alpha = if *age <= FLY {
                    1.0
                } else {
                    1.0 - (age - FLY) / LINGER
                };
                let size = cell * (1.0 + 0.15 * (*combo).min(4) as f32) * (1.0 + 0.3 * p);
                pic.label(
                    table,
                    format!("-{damage}"),
                    at,
                    size,
                    z + 0.95,
                    with_alpha(combo_colour(table, *combo), alpha),
                );
            }
            Mark::Refused { on, why, kana, age } => {
                let (at, tile) = match *on {
                    Spot::Cell(pos) => (layout.cell_centre(pos), cell),
                    Spot::Hand(slot) => (
                        slot.and_then(|s| layout.hand.get(s).copied())
                            .unwrap_or(layout.hand_centres[0]),
                        layout.hand_tile,
                    ),
                };
                if let (Spot::Cell(_), true) = (on, *age < SHAKE) {
                    // The tried tile, tinted red, shaking on the cell that would not take it.
                    let x = at[0] + shake(*age) * tile;
                    let fade = 1.0 - (age / SHAKE).powi(3);
                    pic.sprites.push((
                        Transform2D {
                            pos: [x, at[1]],
                            z: z + 0.6,
                            ..Transform2D::default()
                        },
                        Sprite {
                            texture: table.tile.clone(),
                            size: [tile * 0.94, tile * 0.94],
                            nine_slice: Some(table.tile_border),
                            tint: Color([1.0, 0.72, 0.66, fade]),
                            ..Sprite::default()
                        },
                    ));
                    if let Some(k) = kana {
                        let ink = with_alpha(table.ink, fade);
                        let before = pic.texts.len();
                        pic.kana(table, k.to_char(), [x, at[1]], tile, z + 0.61, 0.0);
                        if let Some((_, text)) = pic.texts.get_mut(before) {
                            text.color = ink;
                        }
                    }
                }
                if *age < REASON {
                    let p = age / REASON;
                    let alpha = if p < 0.7 { 1.0 } else { 1.0 - (p - 0.7) / 0.3 };
                    pic.label(
                        table,
                        why.why().to_string(),
                        [at[0], at[1] + tile * 0.78 + p * tile * 0.15],
                        small,
                        z + 0.92,
                        with_alpha(table.refused, alpha),
                    );
                }
            }
        }
    }
}

/// A colour lifted toward white, for numbers that must stand out from their own light.
fn lighter(c: Color) -> Color {
    let [r, g, b, a] = c.0;
    Color([
        r + (1.0 - r) * 0.35,
        g + (1.0 - g) * 0.35,
        b + (1.0 - b) * 0.35,
        a,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::MadeWord;

    fn seen() -> Seen {
        Seen {
            you: 0,
            tried: Some(Pos::new(2, 3)),
            chosen: Some(1),
            face: Kana::from_char('か'),
            size: (5, 5),
        }
    }

    fn word(points: u32, cells: &[(usize, usize)]) -> MadeWord {
        MadeWord {
            reading: "かな".into(),
            written: "仮名".into(),
            meaning: "kana".into(),
            points,
            cells: cells.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        }
    }

    fn placed(player: usize, points: u32, combo: u32, words: Vec<MadeWord>) -> Event {
        Event::Placed {
            player,
            pos: Pos::new(1, 1),
            kana: Kana::from_char('か').unwrap(),
            points,
            damage: points,
            combo,
            words,
        }
    }

    #[test]
    fn a_word_lights_each_of_its_cells_once_and_says_when_it_read_both_ways() {
        let mut fb = Feedback::default();
        let across = word(4, &[(0, 1), (1, 1)]);
        let down = word(2, &[(1, 0), (1, 1)]);
        fb.observe(&[placed(0, 9, 0, vec![across, down])], seen());
        let [
            Mark::Word {
                cells, both_ways, ..
            },
        ] = fb.marks.as_slice()
        else {
            panic!("{:?}", fb.marks);
        };
        assert_eq!(cells.len(), 3);
        assert!(both_ways);
        assert_eq!(fb.owner(Pos::new(1, 1)), Some(0));
        assert_eq!(fb.owner(Pos::new(0, 1)), None);
        fb.observe(&[placed(1, 4, 0, vec![word(4, &[(1, 1), (2, 1)])])], seen());
        let Mark::Word { both_ways, .. } = &fb.marks[1] else {
            panic!()
        };
        assert!(!both_ways);
    }

    #[test]
    fn a_hit_flies_from_the_hitters_last_tile_with_its_combo() {
        let mut fb = Feedback::default();
        fb.observe(
            &[
                placed(1, 6, 2, vec![word(6, &[(1, 1), (2, 1)])]),
                Event::Hit {
                    to: 0,
                    damage: 9,
                    hp: 91,
                },
            ],
            seen(),
        );
        assert!(fb.marks.iter().any(|m| matches!(
            m,
            Mark::Damage {
                to: 0,
                damage: 9,
                combo: 2,
                ..
            }
        )));
    }

    #[test]
    fn a_refusal_on_the_board_shakes_the_cell_and_one_in_hand_shakes_the_tile() {
        let mut fb = Feedback::default();
        fb.observe(
            &[Event::Refused {
                player: 0,
                why: Refusal::Taken,
            }],
            seen(),
        );
        assert!(matches!(
            fb.marks[0],
            Mark::Refused {
                on: Spot::Cell(p),
                why: Refusal::Taken,
                ..
            } if p == Pos::new(2, 3)
        ));
        fb.observe(
            &[Event::Refused {
                player: 0,
                why: Refusal::Stunned,
            }],
            seen(),
        );
        assert!(matches!(
            fb.marks[1],
            Mark::Refused {
                on: Spot::Hand(Some(1)),
                ..
            }
        ));
        fb.age(0.05);
        assert!(fb.hand_shake(1) != 0.0);
        assert_eq!(fb.hand_shake(0), 0.0);
        // The rival's refusals are its own business.
        fb.observe(
            &[Event::Refused {
                player: 1,
                why: Refusal::NoWord,
            }],
            seen(),
        );
        assert_eq!(fb.marks.len(), 2);
    }

    #[test]
    fn marks_fade_out_and_a_new_game_clears_marks_and_owners() {
        let mut fb = Feedback::default();
        fb.observe(&[placed(0, 4, 0, vec![word(4, &[(1, 1), (2, 1)])])], seen());
        fb.age(RISE * 0.5);
        assert_eq!(fb.marks.len(), 1);
        fb.age(RISE);
        assert!(fb.marks.is_empty());
        assert_eq!(fb.owner(Pos::new(1, 1)), Some(0));
        fb.observe(&[Event::Started], seen());
        assert_eq!(fb.owner(Pos::new(1, 1)), None);
        fb.age(f32::NAN);
        fb.age(-3.0);
    }

    /// A table row with no combo colours and a damage target of NaN draws every mark without
    /// a panic (the numbers land nowhere visible, nothing else changes).
    #[test]
    fn a_hostile_table_row_draws_without_a_panic() {
        let table = crate::Table {
            combo_colors: Vec::new(),
            hurt_at: Some([[f32::NAN; 2]; 2]),
            ..crate::Table::default()
        };
        let session = crate::Session::default();
        let layout = Layout::of(&table, &session);
        let mut fb = Feedback::default();
        fb.observe(
            &[
                placed(1, 6, 9, vec![word(6, &[(1, 1), (2, 1)])]),
                Event::Hit {
                    to: 0,
                    damage: 6,
                    hp: 1,
                },
                Event::Refused {
                    player: 0,
                    why: Refusal::NoWord,
                },
            ],
            seen(),
        );
        fb.age(0.1);
        let mut pic = Picture::default();
        draw(&mut pic, &table, &layout, &fb, 0);
        assert_eq!(combo_colour(&table, 9), table.players[0]);
        assert!(pic.texts.len() >= 4, "{} texts", pic.texts.len());
    }

    #[test]
    fn a_flood_of_events_keeps_a_bounded_list() {
        let mut fb = Feedback::default();
        let events: Vec<Event> = (0..500)
            .map(|_| placed(0, 4, 0, vec![word(4, &[(1, 1), (2, 1)])]))
            .collect();
        fb.observe(&events, seen());
        assert_eq!(fb.marks.len(), MAX_MARKS);
        // Cells off the board are nobody's.
        fb.observe(
            &[placed(0, 4, 0, vec![word(4, &[(9, 9)])])],
            Seen {
                size: (1, 1),
                ..seen()
            },
        );
        assert_eq!(fb.owner(Pos::new(9, 9)), None);
    }
}
