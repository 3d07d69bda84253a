//! The player's side: a [`Mirror`] of the room's battle, the room's last state with the
//! player's moves still in flight played again on top.

use thiserror::Error;

use crate::battle::{Battle, Fighter, Move};
use crate::board::Board;
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::Refusal;

use super::{Delta, Invalid, Start, State, ToServer};

/// A move the player has sent and the room has not answered yet.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pending {
    /// Its number.
    pub number: u32,
    /// The move.
    pub mv: Move,
    /// Whether it is down on the mirror now. One the room's last state leaves no room for
    /// (the other player took the cell first) is kept until answered, but not shown.
    pub shown: bool,
}

/// Why a move was not predicted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Error)]
pub enum Unpredicted {
    /// The rule refuses it on the mirror: do not send it.
    #[error("refused: {0}")]
    Refused(Refusal),
    /// Its number does not come after the last one predicted.
    #[error("move {number} does not come after move {last}: the numbers must rise")]
    Number {
        /// The number given.
        number: u32,
        /// The last number predicted.
        last: u32,
    },
    /// Only placements go through `predict_place`.
    #[error("not a placement")]
    NotAPlacement,
}

/// A player's copy of the room's battle: the room's last state, with the player's own moves
/// not yet answered played again on top.
///
/// Built from a [`Start`] the way the room built its battle. [`Mirror::play`] (or
/// [`Mirror::predict_place`]) puts a move down at once and keeps it pending;
/// [`Mirror::apply_state`] takes the room's word and plays what is still pending on top, in
/// number order; [`Mirror::turn`] turns a tile, which is the player's own business and
/// survives every state. [`Mirror::update`] moves the clocks between states.
#[derive(Clone, Debug)]
pub struct Mirror {
    seat: usize,
    board_name: String,
    /// The room's last word. Never played on, so its tile stream stays put and the tiles
    /// guessed when moves are played again on top are the same guesses every time.
    truth: Battle,
    /// What the player sees: the truth with the pending moves on top, its clocks moved on.
    shown: Battle,
    pending: Vec<Pending>,
    /// The last number predicted.
    last: u32,
    /// The faces the player turned their tiles to, by slot.
    faces: Vec<Option<Kana>>,
    /// The slots holding a tile dealt by a pending move: the mirror's guess.
    guessed: Vec<bool>,
    /// The room's last state as it was sent, which the next [`Delta`] changes.
    room: Option<State>,
}

impl Mirror {
    /// The mirror of the battle `start` sets up, dealt with `dict`'s tile stats (the room's
    /// must be the same dictionary).
    pub fn new(dict: &Dict, start: &Start) -> Result<Mirror, Invalid> {
        let setup = start.setup()?;
        let mut truth = Battle::new(&setup, &TileStats::from_dict(dict))?;
        truth.take_events();
        let hand = setup.fighters[start.seat].hand;
        Ok(Mirror {
            seat: start.seat,
            board_name: start.board_name.clone(),
            shown: truth.clone(),
            truth,
            pending: Vec::new(),
            last: 0,
            faces: vec![None; hand],
            guessed: vec![false; hand],
            room: None,
        })
    }

    /// The player's seat: 0 or 1.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The name of the board the room plays on.
    pub fn board_name(&self) -> &str {
        &self.board_name
    }

    /// The battle as the player sees it.
    pub fn battle(&self) -> &Battle {
        &self.shown
    }

    /// The board as the player sees it, their pending tiles down.
    pub fn board(&self) -> &Board {
        self.shown.board()
    }

    /// Both fighters, seat 0 first.
    pub fn fighters(&self) -> &[Fighter; 2] {
        self.shown.fighters()
    }

    /// The player's hand, showing the faces they turned.
    pub fn hand(&self) -> &[Kana] {
        self.shown.fighters()[self.seat].hand()
    }

    /// Whether the tile in `slot` of the player's hand is a guess: dealt for a move the room
    /// has not answered. The room deals from its own stream, so draw it face down.
    pub fn guessed(&self, slot: usize) -> bool {
        self.guessed.get(slot).copied().unwrap_or(false)
    }

    /// The moves sent and not answered, oldest first.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    /// The number the next move sent gets.
    pub fn next_number(&self) -> u32 {
        self.last + 1
    }

    /// Plays a move on the mirror and says what to send the room, if anything: a placement
    /// or a swap goes down at once and is sent with the next number; a turn stays here.
    /// A move the rule refuses on the mirror changes nothing and is not sent.
    pub fn play(&mut self, dict: &Dict, mv: Move) -> Result<Option<ToServer>, Refusal> {
        if let Move::Turn { slot } = mv {
            return self.turn(dict, slot).map(|_| None);
        }
        let number = self.next_number();
        self.put(dict, number, mv)?;
        Ok(Some(ToServer::Play { number, mv }))
    }

    /// Puts a placement numbered `number` down on the mirror at once and keeps it pending
    /// until a state answers it. The number must come after the last one predicted.
    pub fn predict_place(&mut self, dict: &Dict, number: u32, mv: Move) -> Result<(), Unpredicted> {
        if !matches!(mv, Move::Place { .. }) {
            return Err(Unpredicted::NotAPlacement);
        }
        if number <= self.last {
            return Err(Unpredicted::Number {
                number,
                last: self.last,
            });
        }
        self.put(dict, number, mv).map_err(Unpredicted::Refused)
    }

    /// Plays a sent move on the mirror and keeps it pending.
    fn put(&mut self, dict: &Dict, number: u32, mv: Move) -> Result<(), Refusal> {
        self.shown.apply(dict, self.seat, mv)?;
        self.shown.take_events();
        self.last = number;
        if let Some(slot) = moved_slot(mv) {
            self.faces[slot] = None;
            self.guessed[slot] = true;
        }
        self.pending.push(Pending {
            number,
            mv,
            shown: true,
        });
        Ok(())
    }

    /// Turns the tile in `slot` to its next form, here only, and says what it shows now.
    pub fn turn(&mut self, dict: &Dict, slot: usize) -> Result<Kana, Refusal> {
        self.shown.apply(dict, self.seat, Move::Turn { slot })?;
        self.shown.take_events();
        let face = self.hand()[slot];
        self.faces[slot] = Some(face);
        Ok(face)
    }

    /// Takes the room's word: the battle becomes `state`, the moves it answered (numbers up
    /// to `acked`) are dropped, and the rest are played again on top in number order. The
    /// player's turned faces stay on tiles that are still theirs.
    ///
    /// A state that is not a moment of this battle changes nothing.
    pub fn apply_state(&mut self, dict: &Dict, state: &State) -> Result<(), Invalid> {
        self.take_state(dict, state)?;
        self.room = Some(state.clone());
        Ok(())
    }

    /// Takes the room's word as a change to its last state (see [`Mirror::apply_state`]). A
    /// change with no state before it, or one that does not fit it, changes nothing.
    pub fn apply_delta(&mut self, dict: &Dict, delta: &Delta) -> Result<(), Invalid> {
        let before = self
            .room
            .as_ref()
            .ok_or_else(super::delta::no_state_before)?;
        let state = delta.apply(before)?;
        self.take_state(dict, &state)?;
        self.room = Some(state);
        Ok(())
    }

    fn take_state(&mut self, dict: &Dict, state: &State) -> Result<(), Invalid> {
        let mut snapshot = state.snapshot()?;
        // The room never sees a turn: show the player's faces on the tiles the state deals.
        let hand = &mut snapshot.fighters[self.seat].hand;
        for (slot, face) in self.faces.iter_mut().enumerate() {
            match (hand.get_mut(slot), *face) {
                (Some(tile), Some(f)) if tile.base() == f.base() => *tile = f,
                _ => *face = None,
            }
        }
        self.truth.restore(&snapshot)?;
        self.truth.take_events();
        self.pending.retain(|p| p.number > state.acked);
        // The room ignores a number it has already answered, so never send one.
        self.last = self.last.max(state.acked);
        self.shown = self.truth.clone();
        self.guessed.fill(false);
        for p in &mut self.pending {
            p.shown = self.shown.apply(dict, self.seat, p.mv).is_ok();
            if p.shown
                && let Some(slot) = moved_slot(p.mv)
            {
                self.guessed[slot] = true;
            }
        }
        self.shown.take_events();
        Ok(())
    }

    /// Moves the clocks on by `dt` seconds until the next state: the countdown, the fight's
    /// clock, chains and stuns.
    pub fn update(&mut self, dict: &Dict, dt: f32) {
        self.shown.update(dict, dt);
        self.shown.take_events();
    }
}

/// The hand slot a sent move deals a fresh tile into.
fn moved_slot(mv: Move) -> Option<usize> {
    match mv {
        Move::Place { slot, .. } | Move::Swap { slot } => Some(slot),
        Move::Turn { .. } => None,
    }
}
