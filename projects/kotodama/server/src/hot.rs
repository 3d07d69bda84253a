//! The server's hot paths, open to its instruction-count bench (`benches/instructions.rs`):
//! the frame functions the players' tasks and the rooms use, and a room of two seats in a
//! match, driven as its players' tasks and its clock drive it. Nothing here is the server's
//! public interface.

use std::sync::Arc;
use std::time::Instant;

use jengine_kotoba::battle::Move;
use jengine_kotoba::net::ToClient;
use jengine_kotoba::net::{Rejection, State, state_for};
use jengine_net::Sender;
use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::life::Life;
use crate::room::{Hall, Room, RoomRef, Seat, lock};

pub use crate::wire::{read, send};

/// A room whose two seats are taken and whose match has begun, as the lobby leaves it.
pub struct PlayingRoom {
    hall: Arc<Hall>,
    room: RoomRef,
}

impl PlayingRoom {
    /// Seats two players, their frames going to `seats`, and starts their match under
    /// `config` (its seed gives the battle's). Inside a tokio runtime: the match's clock is a
    /// task of it, beating every `config.tick`.
    pub fn start(config: Config, seats: [(String, Sender<ToClient>); 2]) -> PlayingRoom {
        let seeds = Pcg64::seed_from_u64(config.seed);
        let hall = Arc::new(Hall::new(
            config,
            seeds,
            Arc::new(Life::new()),
            String::new(),
        ));
        let [(first, a), (second, b)] = seats;
        let seat = |name: String, out: Sender<ToClient>, conn: u64| Seat { name, out, conn };
        let room = Arc::new(std::sync::Mutex::new(Room::new(1, None, seat(first, a, 1))));
        assert!(hall.room_opened(), "a hall of one room has room for it");
        lock(&room).sit_and_start(&hall, &room, seat(second, b, 2));
        PlayingRoom { hall, room }
    }

    /// A move of the player in `seat`, as their task hands it to the room the moment it is
    /// read: applied and answered with a state to both seats, then the events.
    pub fn play(&self, seat: usize, number: u32, mv: Move) -> Result<(), Rejection> {
        lock(&self.room).play(&self.hall, seat, number, mv, Instant::now())
    }

    /// One beat of the match's clock: time moves on, the state and events go out. Says
    /// whether the clock beats on.
    pub fn tick(&self) -> bool {
        let mut room = lock(&self.room);
        let Some(number) = room.match_number() else {
            return false;
        };
        room.tick(&self.hall, number)
    }

    /// The battle as the room would send it now, with `acked` 0.
    pub fn state(&self) -> Option<State> {
        lock(&self.room).battle().map(|b| state_for(b, 0))
    }

    /// Whether the match is being played.
    pub fn playing(&self) -> bool {
        lock(&self.room).playing()
    }
}
