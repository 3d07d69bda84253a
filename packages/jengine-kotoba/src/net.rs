//! A battle over the network, written once for both ends: the messages a room and its players
//! exchange, as plain serde data, and a player's [`Mirror`] of the room's battle.
//!
//! The room is always right, and a player predicts only their own moves: the mirror is the
//! room's last state with the player's moves still in flight played again on top, so a tile
//! goes down at once, stays down while its move travels, and is gone once a state answers it
//! if the room refused it.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::battle::{
    Battle, COMBO_WINDOW, COUNTDOWN, Fighter, FighterSpec, FighterState, Move, Phase, RestoreError,
    STUN, Setup, SetupError, Snapshot,
};
use crate::board::{Board, BoardError, MAX_SIDE, Pos};
use crate::play::MAX_HAND;
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::{Event, MadeWord, Refusal};

/// The version of these messages; a player says it in [`ToServer::Hello`].
pub const VERSION: u32 = 2;
/// The longest player name, in characters.
pub const MAX_NAME: usize = 16;
/// The longest room code, in characters (ASCII letters and digits).
pub const MAX_CODE: usize = 8;
/// The most events one [`ToClient::Ev`] carries; [`events_for`] splits longer lists.
pub const MAX_EVENTS: usize = 64;
/// The most words one placement can make: one per start along each direction's run.
pub const MAX_WORDS: usize = 2 * MAX_SIDE;
/// The longest reading, written form or meaning of a word, in bytes.
pub const MAX_TEXT: usize = 256;
/// The longest fight a room sets up, in seconds.
pub const MAX_TIME: f32 = 3600.0;
/// The longest rejoin ticket, in characters (ASCII hex digits).
pub const MAX_TICKET: usize = 64;

/// What the room sends a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(
    clippy::large_enum_variant,
    reason = "a message lives only between the wire and its handler; a box would only add an allocation"
)]
pub enum ToClient {
    /// The player waits for a second one: in a named room (its code, to pass on), or for a
    /// quick match (no code).
    Waiting {
        /// The room's code, for a named room.
        code: Option<String>,
    },
    /// The room will not take the player, or not that message.
    Refused {
        /// Why.
        why: Rejection,
    },
    /// A battle begins: build the mirror from this.
    Start(Start),
    /// The room's battle now.
    State(State),
    /// What happened in the room's battle since the last events.
    Ev {
        /// Oldest first.
        events: Vec<Event>,
    },
    /// Who has asked for a rematch; when both have, a new [`ToClient::Start`] follows.
    Again {
        /// By seat.
        asked: [bool; 2],
    },
    /// The other player left the room.
    Left {
        /// How.
        why: Gone,
    },
    /// The other player's connection was lost in a match: the room holds their seat (the
    /// battle goes on) for this many seconds, for them to come back with their ticket; if
    /// they do not, [`ToClient::Left`] follows.
    Away {
        /// Their seat.
        seat: usize,
        /// How long the seat is held.
        seconds: f32,
    },
    /// The player in this seat came back into the match.
    Back {
        /// Their seat.
        seat: usize,
    },
}

/// What a player sends the room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToServer {
    /// The first message: who is there, speaking which version.
    Hello {
        /// [`VERSION`] when the player was built.
        version: u32,
        /// What to call them (1 to [`MAX_NAME`] characters, none a control character).
        name: String,
    },
    /// Find any other player waiting for a quick match.
    Queue,
    /// Open a named room; the answer is [`ToClient::Waiting`] with its code.
    Create,
    /// Join the named room with this code.
    Join {
        /// The room's code.
        code: String,
    },
    /// A move, numbered by the player, the numbers rising from 1 within a battle. A placement
    /// carries the face it was played as; a turn is never sent.
    Play {
        /// The move's number.
        number: u32,
        /// The move.
        mv: Move,
    },
    /// Ask for a rematch (or accept one offered).
    Again,
    /// Leave the room.
    Leave,
    /// Come back into a match after losing the connection, instead of `Queue`, `Create` or
    /// `Join`: the ticket is the one the match's [`Start`] gave. The answer is a new
    /// [`ToClient::Start`] for the same seat and the battle as it stands (moves numbered from
    /// 1 again), or [`Rejection::NoSuchMatch`].
    Rejoin {
        /// The seat's ticket.
        ticket: String,
    },
}

/// Why the room turned a player or a message away.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rejection {
    /// The player speaks another version of these messages.
    Version {
        /// The version the room speaks.
        server: u32,
    },
    /// The name is empty, too long or holds a control character.
    Name,
    /// No room has that code.
    NoSuchRoom,
    /// The room has its two players.
    Full,
    /// The server takes no one new now: it is full or shutting down.
    Busy,
    /// The message does not fit the moment (a move with no battle, a second hello).
    NotNow,
    /// No match in play holds a seat for that ticket (it ended, or the seat was given up).
    NoSuchMatch,
}

/// How the other player left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gone {
    /// They left (a [`ToServer::Leave`], or the connection closed cleanly).
    Quit,
    /// Their connection was lost.
    Lost,
    /// The room sent them away (too many or malformed messages).
    Removed,
}

/// Everything a player needs to build the battle the room owns, and which seat is theirs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Start {
    /// The player's seat: 0 or 1.
    pub seat: usize,
    /// The board as rows of text, the way [`Board::from_rows`] reads it.
    pub board: Vec<String>,
    /// The board's name, for the players to see.
    pub board_name: String,
    /// The seat's ticket back into this match should the connection be lost
    /// ([`ToServer::Rejoin`]): secret, up to [`MAX_TICKET`] hex digits; empty when the room
    /// holds no seats.
    pub ticket: String,
    /// Seat 0 and seat 1.
    pub fighters: [Entrant; 2],
    /// Seconds of fighting.
    pub time: f32,
    /// The seed the battle is dealt from.
    pub seed: u64,
    /// Whether it counts down first.
    pub countdown: bool,
}

/// One fighter as the battle is set up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// Their name.
    pub name: String,
    /// Life at the start.
    pub life: u32,
    /// Tiles held.
    pub hand: usize,
}

/// The room's battle at one instant, for one seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The number of the last of this seat's moves the room has applied or refused (0 for
    /// none yet; numbers start again with each battle).
    pub acked: u32,
    /// The board as rows of text, the way [`Board::from_rows`] reads it.
    pub board: Vec<String>,
    /// Both fighters, seat 0 first, hands included: the battle is played in the open.
    pub fighters: [FighterState; 2],
    /// Where the battle stands.
    pub phase: Phase,
    /// Seconds of countdown left.
    pub countdown: f32,
    /// Seconds of fighting left.
    pub time_left: f32,
}

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

    /// The moment this state shows, for [`Battle::restore`].
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
/// board called `board_name`.
pub fn start_for(setup: &Setup, board_name: &str, seat: usize) -> Start {
    Start {
        seat,
        board: setup.board.rows(),
        board_name: board_name.to_string(),
        ticket: String::new(),
        fighters: setup.fighters.clone().map(|f| Entrant {
            name: f.name,
            life: f.life,
            hand: f.hand,
        }),
        time: setup.time,
        seed: setup.seed,
        countdown: setup.countdown,
    }
}

/// What a room sends a player about its battle now, with `acked` the number of the last of
/// that player's moves it has applied or refused. Both seats get the same battle.
pub fn state_for(battle: &Battle, acked: u32) -> State {
    let Snapshot {
        board,
        fighters,
        phase,
        countdown,
        time_left,
    } = battle.snapshot();
    State {
        acked,
        board: board.rows(),
        fighters,
        phase,
        countdown,
        time_left,
    }
}

/// A battle's events as [`ToClient::Ev`] messages of at most [`MAX_EVENTS`] each, in order.
pub fn events_for(events: Vec<Event>) -> Vec<ToClient> {
    events
        .chunks(MAX_EVENTS)
        .map(|chunk| ToClient::Ev {
            events: chunk.to_vec(),
        })
        .collect()
}

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

fn check_word(field: &str, word: &MadeWord) -> Result<(), Invalid> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::FighterSpec;
    use crate::bot::legal_moves;
    use crate::content::BATTLE_BOARD_NAME;
    use crate::play::{Ending, Failure};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;
    use serde::de::DeserializeOwned;

    /// A tenth of a second: how often the room sends its state.
    const DT: f32 = 0.1;

    fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nさか\t坂\tslope\n\
             いか\t烏賊\tsquid\nいぬ\t犬\tdog\nさけ\t鮭\tsalmon\nかさ\t傘\tumbrella\n\
             なか\t中\tinside\nかい\t貝\tshellfish\nいし\t石\tstone\nしか\t鹿\tdeer\n",
        )
        .unwrap()
    }

    fn k(c: char) -> Kana {
        Kana::from_char(c).unwrap()
    }

    fn fighter(name: &str, life: u32) -> FighterSpec {
        FighterSpec {
            name: name.into(),
            life,
            hand: 5,
            bot: None,
        }
    }

    /// さか in the middle of a 6x5 board, fighting at once.
    fn small_setup() -> Setup {
        Setup {
            board: Board::from_rows(&["......", "......", "..さか..", "......", "......"]).unwrap(),
            fighters: [fighter("あ", 60), fighter("い", 60)],
            time: 60.0,
            seed: 1,
            countdown: false,
        }
    }

    /// Two words on a 10x8 board, with a countdown; life enough that no one is knocked out.
    fn big_setup(seed: u64) -> Setup {
        Setup {
            board: Board::from_rows(&[
                "..........",
                "..........",
                "...さかな....",
                "..........",
                "....いぬ....",
                "..........",
                "..........",
                "..........",
            ])
            .unwrap(),
            fighters: [fighter("あお", 5000), fighter("あか", 5000)],
            time: 120.0,
            seed,
            countdown: true,
        }
    }

    /// Through the wire and back, as the transport would carry it.
    fn wire<T: Serialize + DeserializeOwned>(msg: &T) -> T {
        postcard::from_bytes(&postcard::to_allocvec(msg).unwrap()).unwrap()
    }

    /// The room's side, as small as it can be: one battle, moves applied as they are heard.
    struct Room {
        battle: Battle,
        acked: [u32; 2],
    }

    impl Room {
        fn new(dict: &Dict, setup: &Setup) -> Room {
            let mut battle = Battle::new(setup, &TileStats::from_dict(dict)).unwrap();
            battle.take_events();
            Room {
                battle,
                acked: [0; 2],
            }
        }

        fn hear(&mut self, dict: &Dict, seat: usize, msg: ToServer) -> Option<Result<(), Refusal>> {
            let msg = wire(&msg);
            msg.validate().unwrap();
            let ToServer::Play { number, mv } = msg else {
                return None;
            };
            assert!(
                number > self.acked[seat],
                "{number} after {}",
                self.acked[seat]
            );
            self.acked[seat] = number;
            Some(self.battle.apply(dict, seat, mv))
        }

        fn state(&self, seat: usize) -> State {
            let state = wire(&state_for(&self.battle, self.acked[seat]));
            ToClient::State(state.clone()).validate().unwrap();
            state
        }

        /// Sets the hands, as if the room had dealt them.
        fn deal(&mut self, hands: [&str; 2]) {
            let mut s = self.battle.snapshot();
            for (f, hand) in s.fighters.iter_mut().zip(hands) {
                f.hand = crate::kana::parse_kana(hand).unwrap();
            }
            self.battle.restore(&s).unwrap();
        }
    }

    fn mirrors(dict: &Dict, setup: &Setup) -> [Mirror; 2] {
        [0, 1].map(|seat| {
            Mirror::new(dict, &wire(&start_for(setup, BATTLE_BOARD_NAME, seat))).unwrap()
        })
    }

    fn place(slot: usize, x: usize, y: usize, face: char) -> Move {
        Move::Place {
            slot,
            pos: Pos::new(x, y),
            face: k(face),
        }
    }

    /// The battle with every tile in hand showing its first face: turns are the player's own.
    fn unturned(mut s: Snapshot) -> Snapshot {
        for f in &mut s.fighters {
            for t in &mut f.hand {
                *t = t.base();
            }
        }
        s
    }

    #[test]
    fn a_mirror_starts_as_the_battle_the_room_set_up() {
        let d = dict();
        let mut setup = big_setup(7);
        // A bot seat plays in the room; the mirror only sees its moves.
        setup.fighters[1].bot = Some(crate::bot::Skill {
            sight: 1.0,
            think: 1.0,
        });
        let room = Room::new(&d, &setup);
        for (seat, m) in mirrors(&d, &setup).iter().enumerate() {
            assert_eq!(m.seat(), seat);
            assert_eq!(m.battle().snapshot(), room.battle.snapshot());
            assert!(!m.battle().fighters()[1].is_bot());
            assert!(m.pending().is_empty());
            assert_eq!(m.next_number(), 1);
        }
    }

    /// Two players on their own latencies: each plays legal moves on its mirror as soon as it
    /// sees them, the room applies what it hears in arrival order and sends its state every
    /// tenth of a second. A tile the room takes never blinks on its player's mirror, from the
    /// moment it was played; and once everything is answered both mirrors are the room's
    /// battle. (A tile the room refuses may go, and so may one played against it, since the
    /// word it made may be gone with it.)
    fn exchange(seed: u64, latency: [u32; 2]) {
        let d = Dict::japanese();
        let stats = TileStats::from_dict(d);
        let setup = big_setup(seed);
        let mut room = Room::new(d, &setup);
        let mut players = mirrors(d, &setup);
        let mut rng = Pcg32::seed_from_u64(seed);
        // (arrives at tick, seat, message), in the order sent.
        let mut up: Vec<(u32, usize, ToServer)> = Vec::new();
        let mut down: Vec<(u32, usize, ToClient)> = Vec::new();
        // (seat, number, cell, whether its cell has been seen empty since).
        let mut predicted: Vec<(usize, u32, Pos, bool)> = Vec::new();
        let mut taken: Vec<(usize, u32)> = Vec::new();
        for tick in 0..400 {
            // The room hears what has arrived, first come first served.
            up.sort_by_key(|m| m.0);
            let (heard, later): (Vec<_>, _) = up.into_iter().partition(|m| m.0 <= tick);
            up = later;
            for (_, seat, msg) in heard {
                let number = match msg {
                    ToServer::Play { number, .. } => number,
                    _ => 0,
                };
                if room.hear(d, seat, msg) == Some(Ok(())) {
                    taken.push((seat, number));
                }
            }
            room.battle.update(d, DT);
            for msg in events_for(room.battle.take_events()) {
                msg.validate().unwrap();
            }
            for (seat, lag) in latency.iter().enumerate() {
                down.push((tick + lag, seat, ToClient::State(room.state(seat))));
            }
            // The players hear the room, and play.
            let (heard, later): (Vec<_>, _) = down.into_iter().partition(|m| m.0 <= tick);
            down = later;
            for (_, seat, msg) in heard {
                if let ToClient::State(state) = wire(&msg) {
                    players[seat].apply_state(d, &state).unwrap();
                }
            }
            for (seat, m) in players.iter_mut().enumerate() {
                m.update(d, DT);
                for (_, _, pos, blinked) in predicted.iter_mut().filter(|p| p.0 == seat) {
                    *blinked |= m.board().kana(*pos).is_none();
                }
                if m.battle().phase() != Phase::Fight || m.fighters()[seat].stun > 0.0 {
                    continue;
                }
                let roll = rng.random_range(0..10);
                if roll < 3 {
                    let moves: Vec<_> = legal_moves(m.board(), d, &stats, m.hand())
                        .into_iter()
                        .filter(|lm| !m.guessed(lm.slot))
                        .collect();
                    if moves.is_empty() {
                        continue;
                    }
                    let lm = moves[rng.random_range(0..moves.len())];
                    let mv = Move::Place {
                        slot: lm.slot,
                        pos: lm.pos,
                        face: lm.face,
                    };
                    let msg = m.play(d, mv).unwrap().unwrap();
                    assert_eq!(m.board().kana(lm.pos), Some(lm.face), "down at once");
                    predicted.push((seat, m.next_number() - 1, lm.pos, false));
                    up.push((tick + latency[seat], seat, msg));
                } else if roll == 3 {
                    // A turn stays on the mirror; a swap goes to the room.
                    let slot = rng.random_range(0..m.hand().len());
                    assert_eq!(m.play(d, Move::Turn { slot }).unwrap(), None);
                    if !m.guessed(slot) && rng.random_bool(0.2) {
                        let msg = m.play(d, Move::Swap { slot }).unwrap().unwrap();
                        up.push((tick + latency[seat], seat, msg));
                    }
                }
            }
        }
        // Everything arrives; the room answers once more and says nothing after.
        for (_, seat, msg) in up.drain(..) {
            room.hear(d, seat, msg);
        }
        for (seat, m) in players.iter_mut().enumerate() {
            m.apply_state(d, &room.state(seat)).unwrap();
            assert!(m.pending().is_empty());
            assert_eq!(room.acked[seat] + 1, m.next_number());
            assert_eq!(
                unturned(m.battle().snapshot()),
                room.battle.snapshot(),
                "seat {seat}"
            );
        }
        assert!(taken.len() > 20, "only {} placements", taken.len());
        for (seat, number, pos, blinked) in predicted {
            if taken.contains(&(seat, number)) {
                assert!(!blinked, "seat {seat}'s move {number} at {pos:?} blinked");
            }
        }
    }

    #[test]
    fn a_served_battle_and_its_mirrors_stay_equal() {
        exchange(1, [1, 1]);
        exchange(2, [2, 5]);
        exchange(3, [6, 3]);
    }

    #[test]
    fn two_players_racing_for_one_cell_the_first_heard_wins() {
        let d = dict();
        let setup = small_setup();
        let mut room = Room::new(&d, &setup);
        let [mut a, mut b] = mirrors(&d, &setup);
        // Both can finish the row at (4, 2): な for さかな, さ for かさ.
        room.deal(["なけけけけ", "さけけけけ"]);
        a.apply_state(&d, &room.state(0)).unwrap();
        b.apply_state(&d, &room.state(1)).unwrap();
        let from_a = a.play(&d, place(0, 4, 2, 'な')).unwrap().unwrap();
        let from_b = b.play(&d, place(0, 4, 2, 'さ')).unwrap().unwrap();
        assert_eq!(a.board().kana(Pos::new(4, 2)), Some(k('な')));
        assert_eq!(b.board().kana(Pos::new(4, 2)), Some(k('さ')));
        // The room hears a first.
        assert_eq!(room.hear(&d, 0, from_a), Some(Ok(())));
        // A state that has not heard b yet: b's tile gives way to a's at once.
        b.apply_state(&d, &room.state(1)).unwrap();
        assert_eq!(b.board().kana(Pos::new(4, 2)), Some(k('な')));
        assert!(!b.pending()[0].shown);
        assert_eq!(b.hand()[0], k('さ'));
        assert_eq!(room.hear(&d, 1, from_b), Some(Err(Refusal::Taken)));
        for (seat, m) in [&mut a, &mut b].into_iter().enumerate() {
            m.apply_state(&d, &room.state(seat)).unwrap();
            assert!(m.pending().is_empty());
            assert_eq!(m.board().kana(Pos::new(4, 2)), Some(k('な')));
            assert_eq!(m.battle().snapshot(), room.battle.snapshot());
        }
        // b still holds its さ, and a scored.
        assert_eq!(b.hand()[0], k('さ'));
        assert!(a.fighters()[0].score > 0 && b.fighters()[1].score == 0);
    }

    #[test]
    fn a_state_acking_a_refused_move_drops_the_prediction() {
        let d = dict();
        let setup = small_setup();
        let mut room = Room::new(&d, &setup);
        let [mut a, _] = mirrors(&d, &setup);
        room.deal(["なけけけけ", "けけけけけ"]);
        a.apply_state(&d, &room.state(0)).unwrap();
        let before = a.battle().snapshot();
        let sent = a.play(&d, place(0, 4, 2, 'な')).unwrap().unwrap();
        assert_eq!(a.board().kana(Pos::new(4, 2)), Some(k('な')));
        assert!(a.guessed(0));
        // The room had swapped that tile away before the move came: it refuses it.
        room.deal(["いけけけけ", "けけけけけ"]);
        assert_eq!(room.hear(&d, 0, sent), Some(Err(Refusal::NoTile)));
        a.apply_state(&d, &room.state(0)).unwrap();
        assert!(a.pending().is_empty());
        assert!(!a.guessed(0));
        assert_eq!(a.board(), &before.board);
        assert_eq!(a.hand()[0], k('い'));
        assert_eq!(a.battle().snapshot(), room.battle.snapshot());
    }

    #[test]
    fn pending_placements_are_played_again_in_number_order() {
        let d = dict();
        let setup = small_setup();
        let mut room = Room::new(&d, &setup);
        let [mut a, mut b] = mirrors(&d, &setup);
        room.deal(["なつけけけ", "いけけけけ"]);
        a.apply_state(&d, &room.state(0)).unwrap();
        b.apply_state(&d, &room.state(1)).unwrap();
        // つ at (5, 2) reads なつ only once な is down at (4, 2).
        let first = a.play(&d, place(0, 4, 2, 'な')).unwrap().unwrap();
        let second = a.play(&d, place(1, 5, 2, 'つ')).unwrap().unwrap();
        assert_eq!(
            a.pending().iter().map(|p| p.number).collect::<Vec<_>>(),
            [1, 2]
        );
        // Meanwhile b's いか goes down, and the room tells a before hearing a's moves.
        let from_b = b.play(&d, place(0, 3, 1, 'い')).unwrap().unwrap();
        room.hear(&d, 1, from_b);
        a.apply_state(&d, &room.state(0)).unwrap();
        assert_eq!(a.board().rows()[1..3], ["...い..", "..さかなつ"]);
        assert!(a.pending().iter().all(|p| p.shown));
        // The room hears the first: the second is still played on top.
        room.hear(&d, 0, first);
        a.apply_state(&d, &room.state(0)).unwrap();
        assert_eq!(a.pending().len(), 1);
        assert_eq!(a.board().rows()[2], "..さかなつ");
        room.hear(&d, 0, second);
        a.apply_state(&d, &room.state(0)).unwrap();
        assert!(a.pending().is_empty());
        assert_eq!(a.battle().snapshot(), room.battle.snapshot());
    }

    #[test]
    fn a_turn_stays_on_the_mirror_and_a_placement_carries_its_face() {
        let d = dict();
        let setup = small_setup();
        let mut room = Room::new(&d, &setup);
        let [mut a, _] = mirrors(&d, &setup);
        room.deal(["はかけけけ", "けけけけけ"]);
        a.apply_state(&d, &room.state(0)).unwrap();
        assert_eq!(a.play(&d, Move::Turn { slot: 0 }), Ok(None));
        assert_eq!(a.turn(&d, 0), Ok(k('ぱ')));
        // The room's word does not undo it, and the room never heard of it.
        a.apply_state(&d, &room.state(0)).unwrap();
        assert_eq!(a.hand()[0], k('ぱ'));
        assert_eq!(room.battle.fighters()[0].hand()[0], k('は'));
        // Once the slot holds another tile, the face goes with the old one.
        room.deal(["かかけけけ", "けけけけけ"]);
        a.apply_state(&d, &room.state(0)).unwrap();
        assert_eq!(a.hand()[0], k('か'));
        a.turn(&d, 1).unwrap();
        let Some(ToServer::Play { mv, .. }) = a.play(&d, place(1, 1, 2, 'が')).unwrap() else {
            panic!("a placement is sent");
        };
        // No word has が there: auto-form puts it down as か, but the move says what was shown.
        assert_eq!(mv, place(1, 1, 2, 'が'));
        let turn = ToServer::Play {
            number: 9,
            mv: Move::Turn { slot: 0 },
        };
        assert!(turn.validate().is_err());
    }

    #[test]
    fn predicted_numbers_rise_and_only_placements_are_predicted() {
        let d = dict();
        let setup = small_setup();
        let mut room = Room::new(&d, &setup);
        let [mut a, _] = mirrors(&d, &setup);
        room.deal(["ななけけけ", "けけけけけ"]);
        a.apply_state(&d, &room.state(0)).unwrap();
        a.predict_place(&d, 5, place(0, 4, 2, 'な')).unwrap();
        assert_eq!(a.next_number(), 6);
        assert_eq!(
            a.predict_place(&d, 5, place(1, 1, 2, 'な')),
            Err(Unpredicted::Number { number: 5, last: 5 })
        );
        assert_eq!(
            a.predict_place(&d, 6, Move::Swap { slot: 1 }),
            Err(Unpredicted::NotAPlacement)
        );
        // Refused on the mirror: nothing pending, nothing changed, the number not used.
        let before = a.battle().snapshot();
        assert_eq!(
            a.predict_place(&d, 6, place(1, 4, 2, 'な')),
            Err(Unpredicted::Refused(Refusal::Taken))
        );
        assert_eq!(
            a.play(&d, place(1, 0, 0, 'な')),
            Err(Refusal::NotNextToKana)
        );
        assert_eq!(a.battle().snapshot(), before);
        assert_eq!(a.pending().len(), 1);
        assert_eq!(a.next_number(), 6);
        // A room that has answered up to 9 gets 10 next.
        room.acked[0] = 9;
        a.apply_state(&d, &room.state(0)).unwrap();
        assert!(a.pending().is_empty());
        assert_eq!(a.next_number(), 10);
    }

    #[test]
    fn a_state_that_is_not_this_battle_changes_nothing() {
        let d = dict();
        let setup = small_setup();
        let room = Room::new(&d, &setup);
        let [mut a, _] = mirrors(&d, &setup);
        a.play(&d, Move::Swap { slot: 2 }).unwrap();
        let before = (a.battle().snapshot(), a.pending().to_vec());
        let mut other = room.state(0);
        other.board = vec!["さか".into()];
        assert!(matches!(
            a.apply_state(&d, &other),
            Err(Invalid::Restore(RestoreError::BoardSize { .. }))
        ));
        let mut other = room.state(0);
        other.fighters[1].hp = 61;
        other.acked = 1;
        assert!(a.apply_state(&d, &other).is_err());
        let mut other = room.state(0);
        other.board[0] = "..x...".into();
        assert!(matches!(
            a.apply_state(&d, &other),
            Err(Invalid::Board { .. })
        ));
        assert_eq!((a.battle().snapshot(), a.pending().to_vec()), before);
    }

    #[test]
    fn events_go_out_in_order_a_message_at_a_time() {
        let events: Vec<Event> = (0..150).map(|n| Event::Countdown(n % 4)).collect();
        let msgs = events_for(events.clone());
        assert_eq!(msgs.len(), 3);
        let mut back = Vec::new();
        for msg in msgs {
            msg.validate().unwrap();
            let ToClient::Ev { events } = msg else {
                panic!("not an Ev")
            };
            back.extend(events);
        }
        assert_eq!(back, events);
    }

    #[test]
    fn every_word_of_the_dictionary_fits_an_event() {
        let d = Dict::japanese();
        for (i, e) in d.entries().iter().enumerate() {
            let word = MadeWord {
                reading: e.reading_text(),
                written: e.written.clone(),
                meaning: e.meaning.clone(),
                points: 1,
                cells: vec![Pos::new(0, 0); e.reading.len().min(MAX_SIDE)],
            };
            check_word("word", &word).unwrap_or_else(|err| panic!("entry {i}: {err}"));
        }
    }

    /// One of every message, taken from a battle that has been played a little.
    fn every_message() -> Vec<(ToClient, ToServer)> {
        let d = dict();
        let setup = small_setup();
        let mut room = Room::new(&d, &setup);
        room.deal(["なけけけけ", "いけけけけ"]);
        room.battle.apply(&d, 0, place(0, 4, 2, 'な')).unwrap();
        room.battle.apply(&d, 1, Move::Swap { slot: 3 }).unwrap();
        room.battle.apply(&d, 1, place(0, 4, 2, 'い')).unwrap_err();
        room.battle.update(&d, 0.3);
        let events = room.battle.take_events();
        assert!(room.battle.fighters()[0].best.is_some());
        let over = Event::Over {
            winner: None,
            why: Ending::Time,
        };
        vec![
            (
                ToClient::Waiting {
                    code: Some("K7Q2".into()),
                },
                ToServer::Hello {
                    version: VERSION,
                    name: "ことだま".into(),
                },
            ),
            (ToClient::Waiting { code: None }, ToServer::Queue),
            (
                ToClient::Refused {
                    why: Rejection::Version { server: VERSION },
                },
                ToServer::Create,
            ),
            (
                ToClient::Refused {
                    why: Rejection::Full,
                },
                ToServer::Join {
                    code: "K7Q2".into(),
                },
            ),
            (
                ToClient::Start(start_for(&setup, BATTLE_BOARD_NAME, 1)),
                ToServer::Play {
                    number: 1,
                    mv: place(3, 4, 2, 'が'),
                },
            ),
            (
                ToClient::State(state_for(&room.battle, 7)),
                ToServer::Play {
                    number: u32::MAX,
                    mv: Move::Swap { slot: 11 },
                },
            ),
            (ToClient::Ev { events }, ToServer::Again),
            (ToClient::Ev { events: vec![over] }, ToServer::Leave),
            (
                ToClient::Again {
                    asked: [true, false],
                },
                ToServer::Again,
            ),
            (ToClient::Left { why: Gone::Lost }, ToServer::Leave),
        ]
    }

    #[test]
    fn every_message_goes_through_postcard_and_back() {
        let all = every_message();
        for (to_client, to_server) in &all {
            to_client.validate().unwrap();
            to_server.validate().unwrap();
            assert_eq!(&wire(to_client), to_client);
            assert_eq!(&wire(to_server), to_server);
        }
        // A state of a 6x5 board is small enough to send ten times a second.
        let state = postcard::to_allocvec(&all[5].0).unwrap();
        assert!(state.len() < 256, "{} bytes", state.len());
    }

    #[test]
    fn validation_names_the_field() {
        let d = dict();
        let setup = small_setup();
        let room = Room::new(&d, &setup);
        let mut state = room.state(0);
        state.fighters[1].stun = f32::NAN;
        assert_eq!(
            ToClient::State(state).validate().unwrap_err().to_string(),
            "State.fighters[1].stun is NaN; it must be a number of seconds from 0 to 2"
        );
        let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
        start.seat = 2;
        assert_eq!(
            start.validate().unwrap_err().to_string(),
            "Start.seat is 2; it must be 0 or 1"
        );
        let hello = ToServer::Hello {
            version: VERSION,
            name: "あ".repeat(MAX_NAME + 1),
        };
        assert_eq!(
            hello.validate().unwrap_err().to_string(),
            "Hello.name has 17 characters; the most is 16"
        );
        for bad in ["", "  ", "a\u{7}b"] {
            let hello = ToServer::Hello {
                version: VERSION,
                name: bad.into(),
            };
            assert!(hello.validate().is_err(), "{bad:?}");
        }
        for bad in ["", "AB-1", "ABCDEFGHI"] {
            assert!(
                ToServer::Join { code: bad.into() }.validate().is_err(),
                "{bad:?}"
            );
        }
        let puzzle = ToClient::Ev {
            events: vec![Event::Failed {
                why: Failure::Stuck,
            }],
        };
        assert_eq!(
            puzzle.validate().unwrap_err().to_string(),
            "Ev.events[0] is a puzzle's event; it must be a battle's event"
        );
        let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
        start.board = vec!["...".into(), "..".into()];
        assert_eq!(
            start.validate().unwrap_err().to_string(),
            "Start.board: row 2 has 2 cells, but the first row has 3"
        );
        assert_eq!(
            Board::from_rows(&start_for(&setup, BATTLE_BOARD_NAME, 0).board),
            Ok(setup.board)
        );
    }

    fn any_kana() -> impl Strategy<Value = Kana> {
        prop::sample::select(Kana::all().collect::<Vec<_>>())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn decoding_any_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            if let Ok(msg) = postcard::from_bytes::<ToClient>(&bytes) {
                let _ = msg.validate();
            }
            if let Ok(msg) = postcard::from_bytes::<ToServer>(&bytes) {
                let _ = msg.validate();
            }
        }

        #[test]
        fn decoding_a_damaged_message_never_panics(
            which in 0usize..10,
            changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
            cut in any::<prop::sample::Index>(),
        ) {
            let d = dict();
            let (to_client, to_server) = &every_message()[which];
            for mut bytes in [
                postcard::to_allocvec(to_client).unwrap(),
                postcard::to_allocvec(to_server).unwrap(),
            ] {
                for (at, byte) in &changes {
                    let i = at.index(bytes.len());
                    bytes[i] = *byte;
                }
                bytes.truncate(cut.index(bytes.len() + 1));
                if let Ok(msg) = postcard::from_bytes::<ToClient>(&bytes)
                    && msg.validate().is_ok()
                {
                    // A valid message is safe to hand to a mirror, too.
                    match msg {
                        ToClient::Start(start) => {
                            Mirror::new(&d, &start).unwrap();
                        }
                        ToClient::State(state) => {
                            let mut m = Mirror::new(&d, &start_for(&small_setup(), BATTLE_BOARD_NAME, 0)).unwrap();
                            let _ = m.apply_state(&d, &state);
                        }
                        _ => {}
                    }
                }
                if let Ok(msg) = postcard::from_bytes::<ToServer>(&bytes) {
                    let _ = msg.validate();
                }
            }
        }

        #[test]
        fn validate_refuses_every_field_over_its_cap(
            extra in 1usize..40,
            face in any_kana(),
        ) {
            let setup = small_setup();
            let mut room_state = state_for(&Battle::new(&setup, &TileStats::from_dict(&dict())).unwrap(), 0);
            let name = "な".repeat(MAX_NAME + extra);
            let too_long = |r: Result<(), Invalid>| matches!(r, Err(Invalid::TooLong { .. }));
            let hello = ToServer::Hello { version: VERSION, name: name.clone() };
            prop_assert!(too_long(hello.validate()));
            let join = ToServer::Join { code: "A".repeat(MAX_CODE + extra) };
            prop_assert!(too_long(join.validate()));
            let waiting = ToClient::Waiting { code: Some("7".repeat(MAX_CODE + extra)) };
            prop_assert!(too_long(waiting.validate()));
            let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
            start.fighters[1].name = name;
            prop_assert!(too_long(start.validate()));
            let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
            start.board_name = "ば".repeat(MAX_NAME + extra);
            prop_assert!(too_long(start.validate()));
            for bad in ["", "  ", "ひろ\u{7}ば"] {
                start.board_name = bad.into();
                prop_assert!(start.validate().is_err());
            }
            let mut start = start_for(&setup, BATTLE_BOARD_NAME, 0);
            start.fighters[0].hand = MAX_HAND + extra;
            prop_assert!(start.validate().is_err());
            let mut start = start_for(&setup, BATTLE_BOARD_NAME, 1);
            start.board = vec![".".repeat(MAX_SIDE + extra); 3];
            let wide = start.validate();
            let too_big = matches!(wide, Err(Invalid::Board { error: BoardError::TooBig { .. }, .. }));
            prop_assert!(too_big);
            start.board = vec!["..".into(); MAX_SIDE + extra];
            prop_assert!(too_long(start.validate()));
            let mut state = room_state.clone();
            state.fighters[0].hand = vec![face; MAX_HAND + extra];
            prop_assert!(too_long(ToClient::State(state).validate()));
            let word = MadeWord {
                reading: "さかな".into(),
                written: "魚".into(),
                meaning: "f".repeat(MAX_TEXT + extra),
                points: 3,
                cells: vec![Pos::new(2, 2)],
            };
            room_state.fighters[1].best = Some(word.clone());
            prop_assert!(too_long(ToClient::State(room_state).validate()));
            let placed = |words: Vec<MadeWord>| ToClient::Ev { events: vec![Event::Placed {
                player: 0, pos: Pos::new(2, 2), kana: face, points: 1, damage: 1, combo: 0, words,
            }] };
            prop_assert!(too_long(placed(vec![word]).validate()));
            let fine = MadeWord { meaning: "fish".into(), ..placed_word() };
            prop_assert!(placed(vec![fine.clone()]).validate().is_ok());
            prop_assert!(too_long(placed(vec![fine.clone(); MAX_WORDS + extra]).validate()));
            let long = MadeWord { cells: vec![Pos::new(0, 0); MAX_SIDE + extra], ..fine };
            prop_assert!(too_long(placed(vec![long]).validate()));
            let events = vec![Event::Started; MAX_EVENTS + extra];
            let many = ToClient::Ev { events };
            prop_assert!(too_long(many.validate()));
            let far = ToServer::Play { number: 1, mv: Move::Place {
                slot: 0, pos: Pos::new(MAX_SIDE + extra, 0), face,
            } };
            prop_assert!(far.validate().is_err());
            let slot = ToServer::Play { number: 1, mv: Move::Swap { slot: MAX_HAND + extra } };
            prop_assert!(slot.validate().is_err());
        }
    }

    fn placed_word() -> MadeWord {
        MadeWord {
            reading: "さかな".into(),
            written: "魚".into(),
            meaning: "fish".into(),
            points: 3,
            cells: vec![Pos::new(2, 2), Pos::new(3, 2), Pos::new(4, 2)],
        }
    }
}
