//! What a decoded message must hold before either end trusts it: every text, list and number
//! within its cap, and a start or state that makes a battle. Each refusal names the field, such
//! as `State.fighters[1].hand`.

use thiserror::Error;

use crate::battle::{
    COMBO_WINDOW, COUNTDOWN, FighterSpec, RestoreError, STUN, Setup, SetupError, Snapshot,
};
use crate::board::{Board, BoardError, MAX_SIDE, Pos};
use crate::play::{Event, MAX_HAND, MadeWord};

use super::*;

/// A message that does not hold: a field out of bounds, or a start or state that does not
/// make a battle. `field` is the path to it, such as `State.fighters[1].hand`.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum Invalid {
    /// A text or list longer than its cap.
    #[error("{field} has {len} {unit}; the most is {most}")]
    TooLong {
        /// Where.
        field: String,
        /// Its length.
        len: usize,
        /// What the length counts.
        unit: &'static str,
        /// The cap.
        most: usize,
    },
    /// A value outside its range.
    #[error("{field} is {value}; it must be {expected}")]
    Out {
        /// Where.
        field: String,
        /// The value found.
        value: String,
        /// What it must be.
        expected: String,
    },
    /// A board that does not read.
    #[error("{field}: {error}")]
    Board {
        /// Where.
        field: String,
        /// What is wrong with it.
        error: BoardError,
    },
    /// A start that makes no battle.
    #[error("Start: {0}")]
    Setup(#[from] SetupError),
    /// A state that is no moment of the mirror's battle.
    #[error("State: {0}")]
    Restore(#[from] RestoreError),
}

impl ToClient {
    /// Checks every field against its cap, so a decoded message can be trusted to be small
    /// and well-formed. A start and a state are checked on their own here; whether a state
    /// fits the battle is for [`Mirror::apply_state`].
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            ToClient::Waiting { code } => code
                .as_deref()
                .map_or(Ok(()), |code| check_code("Waiting.code", code)),
            ToClient::Start(start) => start.validate(),
            ToClient::State(state) => state.validate(),
            ToClient::Delta(delta) => delta.validate(),
            ToClient::Ev { events } => {
                check_len("Ev.events", events.len(), "events", MAX_EVENTS)?;
                for (i, event) in events.iter().enumerate() {
                    check_event(&format!("Ev.events[{i}]"), event)?;
                }
                Ok(())
            }
            ToClient::Away { seat, seconds } => {
                if *seat > 1 {
                    return Err(out("Away.seat", seat, "0 or 1"));
                }
                if !(seconds.is_finite() && (0.0..=MAX_TIME).contains(seconds)) {
                    return Err(out("Away.seconds", seconds, format!("0 to {MAX_TIME}")));
                }
                Ok(())
            }
            ToClient::Back { seat } if *seat > 1 => Err(out("Back.seat", seat, "0 or 1")),
            ToClient::Redirect(redirect) => redirect.validate(),
            ToClient::Refused { .. }
            | ToClient::Again { .. }
            | ToClient::Left { .. }
            | ToClient::Back { .. } => Ok(()),
        }
    }
}

impl ToServer {
    /// Checks every field against its cap (see [`ToClient::validate`]). A turn is refused: it
    /// is the player's own business and never sent.
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            ToServer::Hello { name, .. } => check_name("Hello.name", name),
            ToServer::Join { code } => check_code("Join.code", code),
            ToServer::Rejoin { ticket } => check_ticket("Rejoin.ticket", ticket),
            ToServer::Claim { reservation } => check_ticket("Claim.reservation", reservation),
            ToServer::Play { number, mv } => {
                if *number == 0 {
                    return Err(out("Play.number", 0, "1 or more"));
                }
                match *mv {
                    Move::Place { slot, pos, .. } => {
                        check_slot("Play.mv.slot", slot)?;
                        check_pos("Play.mv.pos", pos)
                    }
                    Move::Swap { slot } => check_slot("Play.mv.slot", slot),
                    Move::Turn { .. } => Err(out(
                        "Play.mv",
                        "a turn",
                        "a placement or a swap (a turn is never sent)",
                    )),
                }
            }
            ToServer::Queue | ToServer::Create | ToServer::Again | ToServer::Leave => Ok(()),
        }
    }
}

impl Redirect {
    /// Checks every field (see [`ToClient::validate`]): a `ws://` address of at most
    /// [`MAX_ADDRESS`] bytes with a host and no spaces or control characters, a reservation
    /// of hex digits, and a number of seconds up to [`MAX_TIME`].
    pub fn validate(&self) -> Result<(), Invalid> {
        check_len("Redirect.address", self.address.len(), "bytes", MAX_ADDRESS)?;
        let host = self.address.strip_prefix("ws://").unwrap_or("");
        if host.is_empty()
            || host.starts_with('/')
            || self
                .address
                .chars()
                .any(|c| c.is_control() || c.is_whitespace())
        {
            return Err(out(
                "Redirect.address",
                format!("{:?}", self.address),
                "a ws:// address with a host, without spaces",
            ));
        }
        check_ticket("Redirect.reservation", &self.reservation)?;
        if !(self.seconds.is_finite() && (0.0..=MAX_TIME).contains(&self.seconds)) {
            return Err(out(
                "Redirect.seconds",
                self.seconds,
                format!("0 to {MAX_TIME}"),
            ));
        }
        Ok(())
    }
}

impl Start {
    /// Checks every field (see [`ToClient::validate`]): a seat of 0 or 1, a board that reads,
    /// names, life of 1 or more, hands of 1 to [`MAX_HAND`], a time up to [`MAX_TIME`].
    pub fn validate(&self) -> Result<(), Invalid> {
        if self.seat > 1 {
            return Err(out("Start.seat", self.seat, "0 or 1"));
        }
        board("Start.board", &self.board)?;
        check_name("Start.board_name", &self.board_name)?;
        if !self.ticket.is_empty() {
            check_ticket("Start.ticket", &self.ticket)?;
        }
        for (i, f) in self.fighters.iter().enumerate() {
            check_name(&format!("Start.fighters[{i}].name"), &f.name)?;
            if f.life == 0 {
                return Err(out(&format!("Start.fighters[{i}].life"), 0, "1 or more"));
            }
            if !(1..=MAX_HAND).contains(&f.hand) {
                return Err(out(
                    &format!("Start.fighters[{i}].hand"),
                    f.hand,
                    format!("1 to {MAX_HAND}"),
                ));
            }
        }
        if !(self.time > 0.0 && self.time <= MAX_TIME) {
            return Err(out(
                "Start.time",
                self.time,
                format!("more than 0, up to {MAX_TIME} seconds"),
            ));
        }
        Ok(())
    }

    /// The setup the room built its battle from. No fighter is a bot: a room's bot moves in
    /// the room, and the mirror sees its moves in the states.
    pub fn setup(&self) -> Result<Setup, Invalid> {
        self.validate()?;
        Ok(Setup {
            board: board("Start.board", &self.board)?,
            fighters: self.fighters.clone().map(|f| FighterSpec {
                name: f.name,
                life: f.life,
                hand: f.hand,
                bot: None,
            }),
            time: self.time,
            seed: self.seed,
            countdown: self.countdown,
        })
    }
}

impl Delta {
    /// Checks every field against its cap, as [`State::validate`] does for the fields it
    /// carries: at most a board's rows, each within a board's width, hands of at most
    /// [`MAX_HAND`], clocks in range, a best word within its caps, a winner who is a player.
    /// Whether it fits the state before it is for [`Delta::apply`].
    pub fn validate(&self) -> Result<(), Invalid> {
        check_len("Delta.rows", self.rows.len(), "rows", MAX_SIDE)?;
        for (i, (row, text)) in self.rows.iter().enumerate() {
            if usize::from(*row) >= MAX_SIDE {
                return Err(out(
                    &format!("Delta.rows[{i}].0"),
                    row,
                    format!("below {MAX_SIDE}"),
                ));
            }
            // A cell is one character, a kana at most three bytes.
            check_len(
                &format!("Delta.rows[{i}].1"),
                text.len(),
                "bytes",
                3 * MAX_SIDE,
            )?;
        }
        for (i, f) in self.fighters.iter().enumerate() {
            let Some(f) = f else { continue };
            let field = |name: &str| format!("Delta.fighters[{i}].{name}");
            if let Some(hand) = &f.hand {
                check_len(&field("hand"), hand.len(), "tiles", MAX_HAND)?;
            }
            if let Some(stun) = f.stun {
                check_seconds(&field("stun"), stun, STUN)?;
            }
            if let Some(left) = f.combo_left {
                check_seconds(&field("combo_left"), left, COMBO_WINDOW)?;
            }
            if let Some(best) = &f.best {
                check_word(&field("best"), best)?;
            }
        }
        if let Some(Phase::Over {
            winner: Some(w), ..
        }) = self.phase
        {
            check_player("Delta.phase.winner", w)?;
        }
        if let Some(countdown) = self.countdown {
            check_seconds("Delta.countdown", countdown, COUNTDOWN as f32)?;
        }
        if let Some(left) = self.time_left {
            check_seconds("Delta.time_left", left, MAX_TIME)?;
        }
        Ok(())
    }
}

impl State {
    /// Checks every field (see [`ToClient::validate`]): a board that reads, hands of at most
    /// [`MAX_HAND`], clocks in range, a best word within its caps, a winner who is a player.
    pub fn validate(&self) -> Result<(), Invalid> {
        board("State.board", &self.board)?;
        for (i, f) in self.fighters.iter().enumerate() {
            let field = |name: &str| format!("State.fighters[{i}].{name}");
            check_len(&field("hand"), f.hand.len(), "tiles", MAX_HAND)?;
            check_seconds(&field("stun"), f.stun, STUN)?;
            check_seconds(&field("combo_left"), f.combo_left, COMBO_WINDOW)?;
            if let Some(best) = &f.best {
                check_word(&field("best"), best)?;
            }
        }
        if let Phase::Over {
            winner: Some(w), ..
        } = self.phase
        {
            check_player("State.phase.winner", w)?;
        }
        check_seconds("State.countdown", self.countdown, COUNTDOWN as f32)?;
        check_seconds("State.time_left", self.time_left, MAX_TIME)
    }

    /// The moment this state shows, for [`Battle::restore`](crate::battle::Battle::restore).
    pub fn snapshot(&self) -> Result<Snapshot, Invalid> {
        self.validate()?;
        Ok(Snapshot {
            board: board("State.board", &self.board)?,
            fighters: self.fighters.clone(),
            phase: self.phase,
            countdown: self.countdown,
            time_left: self.time_left,
        })
    }
}

/// What a room sends the player in `seat` when a battle set up from `setup` begins on the
fn out(field: &str, value: impl std::fmt::Display, expected: impl Into<String>) -> Invalid {
    Invalid::Out {
        field: field.to_string(),
        value: value.to_string(),
        expected: expected.into(),
    }
}

fn check_len(field: &str, len: usize, unit: &'static str, most: usize) -> Result<(), Invalid> {
    if len > most {
        return Err(Invalid::TooLong {
            field: field.to_string(),
            len,
            unit,
            most,
        });
    }
    Ok(())
}

fn check_name(field: &str, name: &str) -> Result<(), Invalid> {
    check_len(field, name.chars().count(), "characters", MAX_NAME)?;
    if name.trim().is_empty() {
        return Err(out(field, format!("{name:?}"), "a name, not blank"));
    }
    if name.chars().any(char::is_control) {
        return Err(out(
            field,
            format!("{name:?}"),
            "free of control characters",
        ));
    }
    Ok(())
}

fn check_ticket(field: &str, ticket: &str) -> Result<(), Invalid> {
    check_len(field, ticket.len(), "characters", MAX_TICKET)?;
    if ticket.is_empty() || !ticket.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(out(field, format!("{ticket:?}"), "hexadecimal digits"));
    }
    Ok(())
}

fn check_code(field: &str, code: &str) -> Result<(), Invalid> {
    check_len(field, code.chars().count(), "characters", MAX_CODE)?;
    if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(out(field, format!("{code:?}"), "ASCII letters and digits"));
    }
    Ok(())
}

fn check_player(field: &str, player: usize) -> Result<(), Invalid> {
    if player > 1 {
        return Err(out(field, player, "0 or 1"));
    }
    Ok(())
}

fn check_slot(field: &str, slot: usize) -> Result<(), Invalid> {
    if slot >= MAX_HAND {
        return Err(out(field, slot, format!("a hand slot, below {MAX_HAND}")));
    }
    Ok(())
}

fn check_pos(field: &str, pos: Pos) -> Result<(), Invalid> {
    if pos.x >= MAX_SIDE || pos.y >= MAX_SIDE {
        return Err(out(
            field,
            format!("({}, {})", pos.x, pos.y),
            format!("a cell, below {MAX_SIDE} each way"),
        ));
    }
    Ok(())
}

fn check_seconds(field: &str, seconds: f32, most: f32) -> Result<(), Invalid> {
    if !(0.0..=most).contains(&seconds) {
        return Err(out(
            field,
            seconds,
            format!("a number of seconds from 0 to {most}"),
        ));
    }
    Ok(())
}

pub(super) fn check_word(field: &str, word: &MadeWord) -> Result<(), Invalid> {
    for (name, text) in [
        ("reading", &word.reading),
        ("written", &word.written),
        ("meaning", &word.meaning),
    ] {
        check_len(&format!("{field}.{name}"), text.len(), "bytes", MAX_TEXT)?;
    }
    check_len(
        &format!("{field}.cells"),
        word.cells.len(),
        "cells",
        MAX_SIDE,
    )?;
    for (i, &cell) in word.cells.iter().enumerate() {
        check_pos(&format!("{field}.cells[{i}]"), cell)?;
    }
    Ok(())
}

fn check_event(field: &str, event: &Event) -> Result<(), Invalid> {
    let player = |p: usize| check_player(&format!("{field}.player"), p);
    match event {
        Event::Started => Ok(()),
        Event::Countdown(n) => {
            if *n > COUNTDOWN {
                return Err(out(field, n, format!("a countdown beat, 0 to {COUNTDOWN}")));
            }
            Ok(())
        }
        Event::Placed {
            player: p,
            pos,
            words,
            ..
        } => {
            player(*p)?;
            check_pos(&format!("{field}.pos"), *pos)?;
            check_len(&format!("{field}.words"), words.len(), "words", MAX_WORDS)?;
            for (i, w) in words.iter().enumerate() {
                check_word(&format!("{field}.words[{i}]"), w)?;
            }
            Ok(())
        }
        Event::Refused { player: p, .. } => player(*p),
        Event::Turned {
            player: p, slot, ..
        }
        | Event::Swapped {
            player: p, slot, ..
        } => {
            player(*p)?;
            check_slot(&format!("{field}.slot"), *slot)
        }
        Event::Hit { to, .. } => check_player(&format!("{field}.to"), *to),
        Event::Over { winner, .. } => {
            winner.map_or(Ok(()), |w| check_player(&format!("{field}.winner"), w))
        }
        Event::Cleared { .. } | Event::Failed { .. } => {
            Err(out(field, "a puzzle's event", "a battle's event"))
        }
    }
}

fn board(field: &str, rows: &[String]) -> Result<Board, Invalid> {
    // A decoded list can be long; a board never is, and the rows are not read past that.
    check_len(field, rows.len(), "rows", MAX_SIDE)?;
    Board::from_rows(rows).map_err(|error| Invalid::Board {
        field: field.to_string(),
        error,
    })
}
