//! A battle over the network, written once for both ends: the messages a room and its players
//! exchange, as plain serde data, and a player's [`Mirror`] of the room's battle.
//!
//! The room is always right, and a player predicts only their own moves: the mirror is the
//! room's last state with the player's moves still in flight played again on top, so a tile
//! goes down at once, stays down while its move travels, and is gone once a state answers it
//! if the room refused it.
//!
//! This file holds the messages; [`check`](Invalid) is what a decoded message must hold before
//! either end trusts it, the room's side builds them from its battle ([`start_for`],
//! [`state_for`], [`events_for`]), and the player's side is the [`Mirror`].

use serde::{Deserialize, Serialize};

use crate::battle::{FighterState, Move, Phase};
use crate::board::MAX_SIDE;
use crate::play::Event;

mod check;
mod delta;
mod mirror;
mod room;
#[cfg(test)]
mod tests;

pub use check::Invalid;
pub use delta::{Delta, FighterDelta, Received};
pub use mirror::{Mirror, Pending, Unpredicted};
pub use room::{events_for, start_for, state_for};

/// The version of these messages; a player says it in [`ToServer::Hello`]. Version 3 added
/// the fleet's redirect ([`ToClient::Redirect`], [`ToServer::Claim`]); version 4 sends them as
/// their own postcard ([`WIRE`]) instead of a tree of named fields.
pub const VERSION: u32 = 4;
/// The version byte in front of every frame: then the postcard of a [`ToServer`] or a
/// [`ToClient`], nothing else. An end that speaks another version is closed at its first frame
/// by the transport, which says both versions.
pub const WIRE: u8 = VERSION as u8;
/// The name a scene's `online` component gives to speak these messages
/// (`"online": {"protocol": "kotoba"}`).
pub const PROTOCOL: &str = "kotoba";
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
/// The longest rejoin ticket or seat reservation, in characters (ASCII hex digits).
pub const MAX_TICKET: usize = 64;
/// The longest address a [`ToClient::Redirect`] names, in bytes.
pub const MAX_ADDRESS: usize = 256;

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
    /// The room is on another server of the fleet: connect to `address`, say
    /// [`ToServer::Hello`], then [`ToServer::Claim`] the reservation (or, when the player was
    /// coming back into a match, [`ToServer::Rejoin`] with the same ticket, which is then the
    /// reservation) within `seconds`.
    Redirect(Redirect),
    /// What changed in the room's battle since the last [`ToClient::State`] or
    /// [`ToClient::Delta`] this seat was sent: applied to that state, it gives the state now.
    /// The first state after a [`ToClient::Start`] is always whole.
    Delta(Delta),
}

/// Where a player's room is, and the one-time reservation of their seat in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Redirect {
    /// The server to connect to: a `ws://` address of up to [`MAX_ADDRESS`] bytes.
    pub address: String,
    /// The seat's reservation: up to [`MAX_TICKET`] hex digits, good once.
    pub reservation: String,
    /// How long the seat waits for the player, in seconds; past it the reservation is
    /// refused and the seat given to no one.
    pub seconds: f32,
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
    /// Take the seat a [`ToClient::Redirect`] reserved, instead of `Queue`, `Create` or
    /// `Join`, on the server it named. The answer is the room's [`ToClient::Start`] (or
    /// [`ToClient::Waiting`] while the other player is on their way), or
    /// [`Rejection::NoSuchSeat`] for a reservation this server does not hold: made up, used
    /// already, or past its deadline.
    Claim {
        /// The reservation the redirect gave.
        reservation: String,
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
    /// No seat is reserved under that reservation here: it is unknown, was used already, or
    /// its deadline passed.
    NoSuchSeat,
    /// The fleet's shared lobby cannot be reached just now: matches being played go on, but
    /// no new one can be made until it is back.
    LobbyDown,
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
    /// The board as rows of text, the way [`Board::from_rows`](crate::board::Board::from_rows) reads it.
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
    /// The board as rows of text, the way [`Board::from_rows`](crate::board::Board::from_rows) reads it.
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
