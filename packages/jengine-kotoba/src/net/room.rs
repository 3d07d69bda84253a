//! The room's side: the messages a room sends, built from its battle.

use crate::battle::{Battle, Setup, Snapshot};
use crate::play::Event;

use super::{Entrant, MAX_EVENTS, Start, State, ToClient};

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
