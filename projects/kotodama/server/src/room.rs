//! A room: two seats and the battle between them. The room owns the battle and is always
//! right; it applies moves in the order it hears them, so two players racing for one cell are
//! settled by whose move arrived first.
//!
//! A room sits behind a mutex its players' tasks and its clock share. A move is applied and
//! answered under that lock, at once, by the task that heard it; the clock (a task per match)
//! moves time on and sends the state ten times a second.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use jengine_kotoba::battle::{Battle, Move, Phase};
use jengine_kotoba::net::{Gone, Rejection, Start, ToClient, events_for, start_for, state_for};
use jengine_kotoba::play::Ending;
use jengine_net::{Sender, Value};
use tokio::time::MissedTickBehavior;

use crate::server::Shared;
use crate::wire;

/// A room as its players and its clock hold it.
pub(crate) type RoomRef = Arc<Mutex<Room>>;

/// Locks a room; a task that panicked holding it leaves it as it was, which is still a room.
pub(crate) fn lock(room: &RoomRef) -> MutexGuard<'_, Room> {
    room.lock().unwrap_or_else(|e| e.into_inner())
}

/// A player in a seat: what to call them, where their frames go, and which connection they
/// are on (a seat taken over by a rejoin no longer answers to the old one).
#[derive(Clone)]
pub(crate) struct Seat {
    pub name: String,
    pub out: Sender<Value>,
    pub conn: u64,
}

/// A battle in a room, from its start until the room is left or a rematch replaces it.
struct Match {
    /// The server's count of matches, for the log.
    number: u64,
    battle: Battle,
    seed: u64,
    /// By seat: the number of the last move answered.
    acked: [u32; 2],
    /// By seat: moves the battle took.
    moves: [u32; 2],
    started: Instant,
    /// When the battle's clock was last moved on.
    clock: Instant,
    /// Over by the rules, or because a player left.
    ended: bool,
    /// Ended because a player left: the battle is frozen where it stood.
    abandoned: bool,
    /// What each seat was sent to begin: sent again, with a new ticket, to a player who
    /// comes back.
    starts: [Start; 2],
}

/// Two seats, the match between them, and who has asked for another.
pub(crate) struct Room {
    pub id: u64,
    /// The code a named room is joined by; `None` for a quick match.
    pub code: Option<String>,
    seats: [Option<Seat>; 2],
    game: Option<Match>,
    again: [bool; 2],
    closed: bool,
    /// By seat: held for a player whose connection was lost, with the hold's number (a
    /// hold's timer gives the seat up only if it is still the same hold).
    away: [Option<u64>; 2],
    holds: u64,
    /// The tickets the match in play gave out.
    tickets: Vec<String>,
}

impl Room {
    /// A room with its first player in seat 0, waiting for a second.
    pub fn new(id: u64, code: Option<String>, first: Seat) -> Room {
        Room {
            id,
            code,
            seats: [Some(first), None],
            game: None,
            again: [false; 2],
            closed: false,
            away: [None; 2],
            holds: 0,
            tickets: Vec::new(),
        }
    }

    /// Whether `conn` is the connection in `seat`.
    pub fn holds(&self, seat: usize, conn: u64) -> bool {
        self.seats[seat].as_ref().is_some_and(|s| s.conn == conn)
    }

    /// Whether a second player may sit down: one is waiting and nothing has been played.
    pub fn waiting(&self) -> bool {
        !self.closed && self.game.is_none() && self.seats[0].is_some() && self.seats[1].is_none()
    }

    /// Whether the room has been left by everyone.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Whether a match is being played: its players may not go elsewhere until it ends.
    pub fn playing(&self) -> bool {
        self.game.as_ref().is_some_and(|g| !g.ended)
    }

    /// Seats the second player and starts the first match.
    pub fn sit_and_start(&mut self, shared: &Arc<Shared>, me: &RoomRef, second: Seat) {
        self.seats[1] = Some(second);
        self.begin(shared, me);
    }

    /// A new battle from a new seed: every seat gets its `Start`, the opening events and a
    /// state; the room's clock starts.
    fn begin(&mut self, shared: &Arc<Shared>, me: &RoomRef) {
        let [Some(a), Some(b)] = &self.seats else {
            return;
        };
        let seed = shared.next_seed();
        let (board_name, setup) = shared.config.setup([&a.name, &b.name], seed);
        let Ok(battle) = Battle::new(&setup, &shared.stats) else {
            // The setup is the server's own and always makes a battle.
            return;
        };
        shared.void_tickets(&std::mem::take(&mut self.tickets));
        let mut starts = [0, 1].map(|seat| start_for(&setup, &board_name, seat));
        if !shared.config.rejoin_grace.is_zero() {
            for (seat, start) in starts.iter_mut().enumerate() {
                start.ticket = shared.issue_ticket(me, seat);
                self.tickets.push(start.ticket.clone());
            }
        }
        for (player, start) in [a, b].into_iter().zip(&starts) {
            wire::send(&player.out, &ToClient::Start(start.clone()));
        }
        let number = shared.match_started();
        let now = Instant::now();
        self.game = Some(Match {
            number,
            battle,
            seed,
            acked: [0; 2],
            moves: [0; 2],
            started: now,
            clock: now,
            ended: false,
            abandoned: false,
            starts,
        });
        self.again = [false; 2];
        if shared.config.log_matches {
            eprintln!(
                "event=match_start match={number} room={} code={} seed={seed} p0={:?} p1={:?}",
                self.id,
                self.code.as_deref().unwrap_or("-"),
                a.name,
                b.name,
            );
        }
        self.send_state();
        self.send_events();
        tokio::spawn(clock(Arc::clone(shared), Arc::clone(me), number));
    }

    /// A player's move, heard at `heard`: the clock is moved on to now, the move applied (or
    /// refused by the rules) and answered with a state to both seats, then the events.
    /// A number already answered is ignored.
    pub fn play(
        &mut self,
        shared: &Shared,
        seat: usize,
        number: u32,
        mv: Move,
        heard: Instant,
    ) -> Result<(), Rejection> {
        let Some(game) = self.game.as_mut().filter(|g| !g.abandoned) else {
            return Err(Rejection::NotNow);
        };
        if number <= game.acked[seat] {
            return Ok(());
        }
        let now = Instant::now();
        game.battle
            .update(shared.dict, now.duration_since(game.clock).as_secs_f32());
        game.clock = now;
        game.acked[seat] = number;
        if game.battle.apply(shared.dict, seat, mv).is_ok() {
            game.moves[seat] += 1;
        }
        self.send_state();
        shared.counters.acked(heard.elapsed());
        self.send_events();
        self.check_over(shared);
        Ok(())
    }

    /// One beat of the clock: time moves on, the state and any events go out. Says whether
    /// the clock should keep beating for match `number`.
    fn tick(&mut self, shared: &Shared, number: u64) -> bool {
        let Some(game) = self.game.as_mut() else {
            return false;
        };
        if self.closed || game.number != number || game.ended {
            return false;
        }
        let now = Instant::now();
        game.battle
            .update(shared.dict, now.duration_since(game.clock).as_secs_f32());
        game.clock = now;
        self.send_state();
        self.send_events();
        self.check_over(shared);
        self.playing()
    }

    /// A player asks for a rematch once the match is over; when both have, it begins.
    pub fn again(
        &mut self,
        shared: &Arc<Shared>,
        me: &RoomRef,
        seat: usize,
    ) -> Result<(), Rejection> {
        let over = self.game.as_ref().is_some_and(|g| g.ended && !g.abandoned);
        if !over || self.seats.iter().any(Option::is_none) {
            return Err(Rejection::NotNow);
        }
        if shared.draining() {
            return Err(Rejection::Busy);
        }
        self.again[seat] = true;
        self.broadcast(&ToClient::Again { asked: self.again });
        if self.again == [true; 2] {
            self.begin(shared, me);
        }
        Ok(())
    }

    /// A player leaves, `why` as the other will be told. Leaving a match in play ends it: the
    /// one who stays wins. Says whether the room is now empty (closed).
    pub fn leave(&mut self, shared: &Shared, seat: usize, why: Gone) -> bool {
        if self.seats[seat].take().is_none() {
            return self.closed;
        }
        self.set_here(shared, seat);
        self.again = [false; 2];
        let stays = 1 - seat;
        if self.playing() {
            let stopping = shared.stopping();
            let winner = (!stopping && self.seats[stays].is_some()).then_some(stays);
            let why_ended = if stopping { "shutdown" } else { "left" };
            if let Some(game) = self.game.as_mut() {
                game.abandoned = true;
            }
            self.finish(shared, winner, why_ended);
        } else if let Some(game) = self.game.as_mut() {
            // No rematch without both: the one who stays is told, and may only leave.
            game.abandoned = true;
        }
        if let Some(other) = &self.seats[stays] {
            wire::send(&other.out, &ToClient::Left { why });
        }
        if self.seats.iter().all(Option::is_none) && !self.closed {
            self.closed = true;
            shared.room_closed();
        }
        self.closed
    }

    /// The connection in `seat` was lost. In a match in play (and a server not draining),
    /// the room holds the seat for [`crate::Config::rejoin_grace`]: the other player is told
    /// [`ToClient::Away`], the battle goes on, and if no one comes back with the seat's ticket
    /// in time the seat is given up as lost. Says whether the seat is held; if not, the
    /// caller leaves as lost at once.
    pub fn lose(&mut self, shared: &Arc<Shared>, me: &RoomRef, seat: usize, conn: u64) -> bool {
        let grace = shared.config.rejoin_grace;
        if !self.holds(seat, conn) || !self.playing() || grace.is_zero() || shared.draining() {
            return false;
        }
        self.holds += 1;
        let hold = self.holds;
        if self.away[seat].replace(hold).is_none() {
            shared.counters.seats_held.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(other) = &self.seats[1 - seat] {
            wire::send(
                &other.out,
                &ToClient::Away {
                    seat,
                    seconds: grace.as_secs_f32(),
                },
            );
        }
        let (shared, room) = (Arc::clone(shared), Arc::clone(me));
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            let gone = {
                let mut r = lock(&room);
                if r.away[seat] != Some(hold) {
                    return;
                }
                shared
                    .counters
                    .seats_given_up
                    .fetch_add(1, Ordering::Relaxed);
                let closed = r.leave(&shared, seat, Gone::Lost);
                closed.then(|| r.code.clone()).flatten()
            };
            if let Some(code) = gone {
                crate::lobby::forget(&shared, &code);
            }
        });
        true
    }

    /// A player comes back into `seat` of the match in play with its ticket, on a new
    /// connection: the seat is theirs again (taken over from the old connection, should it
    /// linger), they get the seat's `Start` and the battle as it stands, their moves are
    /// numbered from 1 again, and the other player is told [`ToClient::Back`].
    pub fn rejoin(&mut self, shared: &Shared, seat: usize, player: Seat) -> Result<(), Rejection> {
        if !self.playing() || self.seats[seat].is_none() {
            return Err(Rejection::NoSuchMatch);
        }
        let Some(game) = self.game.as_mut() else {
            return Err(Rejection::NoSuchMatch);
        };
        game.acked[seat] = 0;
        wire::send(&player.out, &ToClient::Start(game.starts[seat].clone()));
        self.seats[seat] = Some(player);
        self.set_here(shared, seat);
        shared.counters.rejoined.fetch_add(1, Ordering::Relaxed);
        self.send_state();
        if let Some(other) = &self.seats[1 - seat] {
            wire::send(&other.out, &ToClient::Back { seat });
        }
        Ok(())
    }

    /// The seat is held no longer (its player is back, or gone).
    fn set_here(&mut self, shared: &Shared, seat: usize) {
        if self.away[seat].take().is_some() {
            shared.counters.seats_held.fetch_sub(1, Ordering::Relaxed);
        }
    }

    fn check_over(&mut self, shared: &Shared) {
        let Some(game) = &self.game else {
            return;
        };
        if game.ended {
            return;
        }
        if let Phase::Over { winner, why } = game.battle.phase() {
            let why = match why {
                Ending::Ko => "ko",
                Ending::Time => "time",
                Ending::Full => "full",
            };
            self.finish(shared, winner, why);
        }
    }

    /// Ends the match: counted, written in the log, and a drain told if it was the last.
    fn finish(&mut self, shared: &Shared, winner: Option<usize>, why: &str) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if game.ended {
            return;
        }
        game.ended = true;
        shared.void_tickets(&std::mem::take(&mut self.tickets));
        if shared.config.log_matches {
            let name = |seat: usize| game.battle.fighters()[seat].name.clone();
            let winner = winner.map_or("-".to_string(), |w| format!("{:?}", name(w)));
            eprintln!(
                "event=match_end match={} room={} code={} seed={} p0={:?} p1={:?} winner={winner} \
                 why={why} moves={}+{} seconds={:.1}",
                game.number,
                self.id,
                self.code.as_deref().unwrap_or("-"),
                game.seed,
                name(0),
                name(1),
                game.moves[0],
                game.moves[1],
                game.started.elapsed().as_secs_f32(),
            );
        }
        shared.match_finished();
    }

    /// The battle now to each seat, each with its own last answered move. The state is made
    /// a frame once, and only its `acked` changed for the other seat: ten times a second in
    /// every room, this is most of what a server does.
    fn send_state(&self) {
        let Some(game) = &self.game else {
            return;
        };
        let Some(mut frame) = wire::frame(&ToClient::State(state_for(&game.battle, 0))) else {
            return;
        };
        for (seat, player) in self.seats.iter().enumerate() {
            if let Some(player) = player.as_ref().filter(|_| self.away[seat].is_none()) {
                if !wire::set_acked(&mut frame, game.acked[seat]) {
                    return;
                }
                let _ = player.out.send(&frame);
            }
        }
    }

    /// The battle's events since the last, to both seats.
    fn send_events(&mut self) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let events = game.battle.take_events();
        for msg in events_for(events) {
            self.broadcast(&msg);
        }
    }

    fn broadcast(&self, msg: &ToClient) {
        let Some(frame) = wire::frame(msg) else {
            return;
        };
        for (seat, player) in self.seats.iter().enumerate() {
            if let Some(player) = player.as_ref().filter(|_| self.away[seat].is_none()) {
                let _ = player.out.send(&frame);
            }
        }
    }
}

/// A match's clock: beats every `tick` until the match ends, is replaced, or the room closes.
async fn clock(shared: Arc<Shared>, room: RoomRef, number: u64) {
    let mut beat = tokio::time::interval(shared.config.tick);
    beat.set_missed_tick_behavior(MissedTickBehavior::Delay);
    beat.tick().await; // the first beat is at once: the start sent a state already
    loop {
        beat.tick().await;
        if !lock(&room).tick(&shared, number) {
            return;
        }
    }
}
