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
use jengine_kotoba::net::{
    Delta, Gone, Rejection, Start, State, ToClient, events_for, start_for, state_for,
};
use jengine_kotoba::play::Ending;
use jengine_net::Sender;
use tokio::time::MissedTickBehavior;

use std::collections::HashMap;
use std::sync::Weak;

use jengine_kotoba::dict::Dict;
use jengine_kotoba::kana::TileStats;
use rand::RngCore;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::life::Life;
use crate::metrics::Counters;
use crate::wire;

/// What a rejoin ticket opens: its room (while the room lives) and seat.
type Ticketed = (Weak<Mutex<Room>>, usize);

/// What every room of one server shares: the rules' data, the stream of seeds, the counters,
/// the rejoin tickets of the matches in play, and the server's life (a draining server starts
/// no rematch).
pub(crate) struct Hall {
    pub config: Config,
    pub dict: &'static Dict,
    pub stats: TileStats,
    pub counters: Counters,
    pub life: Arc<Life>,
    /// The stream each battle's seed is drawn from. Taken under a room's lock, and nothing
    /// is locked while it is held.
    seeds: Mutex<Pcg64>,
    /// Rejoin tickets of the matches in play: the room and the seat each opens. A leaf lock:
    /// nothing else is locked while it is held.
    tickets: Mutex<HashMap<String, Ticketed>>,
    /// What every ticket starts with: the process's id in a fleet (so any process of it can
    /// tell where a ticket's match is), nothing for a server alone.
    ticket_prefix: String,
}

fn lock_leaf<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hall {
    /// A hall for `config`, its seeds drawn from `seeds`.
    pub fn new(config: Config, seeds: Pcg64, life: Arc<Life>, ticket_prefix: String) -> Hall {
        let dict = Dict::japanese();
        Hall {
            config,
            dict,
            stats: TileStats::from_dict(dict),
            counters: Counters::default(),
            life,
            seeds: Mutex::new(seeds),
            tickets: Mutex::new(HashMap::new()),
            ticket_prefix,
        }
    }

    /// A ticket back into `seat` of `room`'s match: 128 bits from the system's random source
    /// (it is a secret; nothing in a battle depends on it, so replays are untouched).
    pub fn issue_ticket(&self, room: &RoomRef, seat: usize) -> String {
        use rand::Rng;
        let ticket = format!(
            "{}{:032x}",
            self.ticket_prefix,
            rand::rng().random::<u128>()
        );
        lock_leaf(&self.tickets).insert(ticket.clone(), (Arc::downgrade(room), seat));
        ticket
    }

    /// Forgets tickets (their match ended or was replaced).
    pub fn void_tickets(&self, tickets: &[String]) {
        let mut map = lock_leaf(&self.tickets);
        for t in tickets {
            map.remove(t);
        }
    }

    /// The room and seat a ticket opens, while its match is in play.
    pub fn redeem(&self, ticket: &str) -> Option<(RoomRef, usize)> {
        let (room, seat) = lock_leaf(&self.tickets).get(ticket).cloned()?;
        Some((room.upgrade()?, seat))
    }

    /// A battle's seed. It fits 63 bits: a frame's numbers are JSON's signed 64-bit ones, and
    /// the seed travels in `Start`.
    pub fn next_seed(&self) -> u64 {
        lock_leaf(&self.seeds).next_u64() >> 1
    }

    pub fn draining(&self) -> bool {
        self.life.draining()
    }

    pub fn stopping(&self) -> bool {
        self.life.stopping()
    }

    /// Counts a room opened, if the server may open one more.
    pub fn room_opened(&self) -> bool {
        let before = self.counters.rooms.fetch_add(1, Ordering::SeqCst);
        if before >= self.config.max_rooms {
            self.counters.rooms.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        true
    }

    pub fn room_closed(&self) {
        self.counters.rooms.fetch_sub(1, Ordering::SeqCst);
    }

    /// Counts a match started and gives its number.
    pub fn match_started(&self) -> u64 {
        self.counters.matches_running.fetch_add(1, Ordering::SeqCst);
        self.counters.matches_started.fetch_add(1, Ordering::SeqCst) + 1
    }

    pub fn match_finished(&self) {
        self.counters.matches_running.fetch_sub(1, Ordering::SeqCst);
        self.counters
            .matches_finished
            .fetch_add(1, Ordering::SeqCst);
        self.life.match_ended();
    }

    pub fn removed(&self) {
        self.counters.removed.fetch_add(1, Ordering::Relaxed);
    }

    pub fn refused_busy(&self) {
        self.counters.refused_busy.fetch_add(1, Ordering::Relaxed);
    }
}

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
    pub out: Sender<ToClient>,
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
    /// By seat: the state last sent, which the next [`Delta`] is a change to, as the seat's
    /// `acked` then and the battle's state (kept once for both seats when they were sent it
    /// together). `None`: the next state goes whole, as after a `Start`.
    sent: [Option<(u32, Arc<State>)>; 2],
    /// Beats of the clock so far.
    beats: u32,
}

/// A beat whose only news is the clocks running down sends nothing, but for one beat in this
/// many (once a second at the default beat): a player's mirror runs the same clocks between
/// states, and this keeps them in step.
const CLOCKS_EVERY: u32 = 10;

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

    /// The server's number of the match in the room, once one has begun.
    pub fn match_number(&self) -> Option<u64> {
        self.game.as_ref().map(|g| g.number)
    }

    /// The battle of the match in the room, once one has begun.
    pub fn battle(&self) -> Option<&Battle> {
        self.game.as_ref().map(|g| &g.battle)
    }

    /// Seats the second player and starts the first match.
    pub fn sit_and_start(&mut self, hall: &Arc<Hall>, me: &RoomRef, second: Seat) {
        self.seats[1] = Some(second);
        self.begin(hall, me);
    }

    /// A new battle from a new seed: every seat gets its `Start`, the opening events and a
    /// state; the room's clock starts.
    fn begin(&mut self, hall: &Arc<Hall>, me: &RoomRef) {
        let [Some(a), Some(b)] = &self.seats else {
            return;
        };
        let seed = hall.next_seed();
        let (board_name, setup) = hall.config.setup([&a.name, &b.name], seed);
        let Ok(battle) = Battle::new(&setup, &hall.stats) else {
            // The setup is the server's own and always makes a battle.
            return;
        };
        hall.void_tickets(&std::mem::take(&mut self.tickets));
        let mut starts = [0, 1].map(|seat| start_for(&setup, &board_name, seat));
        if !hall.config.rejoin_grace.is_zero() {
            for (seat, start) in starts.iter_mut().enumerate() {
                start.ticket = hall.issue_ticket(me, seat);
                self.tickets.push(start.ticket.clone());
            }
        }
        for (player, start) in [a, b].into_iter().zip(&starts) {
            wire::send(&player.out, &ToClient::Start(start.clone()));
        }
        let number = hall.match_started();
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
            sent: [None, None],
            beats: 0,
        });
        self.again = [false; 2];
        if hall.config.log_matches {
            eprintln!(
                "event=match_start match={number} room={} code={} seed={seed} p0={:?} p1={:?}",
                self.id,
                self.code.as_deref().unwrap_or("-"),
                a.name,
                b.name,
            );
        }
        self.send_state(false);
        self.send_events();
        tokio::spawn(clock(Arc::clone(hall), Arc::clone(me), number));
    }

    /// A player's move, heard at `heard`: the clock is moved on to now, the move applied (or
    /// refused by the rules) and answered with a state to both seats, then the events.
    /// A number already answered is ignored.
    pub fn play(
        &mut self,
        hall: &Hall,
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
            .update(hall.dict, now.duration_since(game.clock).as_secs_f32());
        game.clock = now;
        game.acked[seat] = number;
        if game.battle.apply(hall.dict, seat, mv).is_ok() {
            game.moves[seat] += 1;
        }
        self.send_state(false);
        hall.counters.acked(heard.elapsed());
        self.send_events();
        self.check_over(hall);
        Ok(())
    }

    /// One beat of the clock: time moves on, the state and any events go out. Says whether
    /// the clock should keep beating for match `number`.
    pub(crate) fn tick(&mut self, hall: &Hall, number: u64) -> bool {
        let Some(game) = self.game.as_mut() else {
            return false;
        };
        if self.closed || game.number != number || game.ended {
            return false;
        }
        let now = Instant::now();
        game.battle
            .update(hall.dict, now.duration_since(game.clock).as_secs_f32());
        game.clock = now;
        self.send_state(true);
        self.send_events();
        self.check_over(hall);
        self.playing()
    }

    /// A player asks for a rematch once the match is over; when both have, it begins.
    pub fn again(&mut self, hall: &Arc<Hall>, me: &RoomRef, seat: usize) -> Result<(), Rejection> {
        let over = self.game.as_ref().is_some_and(|g| g.ended && !g.abandoned);
        if !over || self.seats.iter().any(Option::is_none) {
            return Err(Rejection::NotNow);
        }
        if hall.draining() {
            return Err(Rejection::Busy);
        }
        self.again[seat] = true;
        self.broadcast(&ToClient::Again { asked: self.again });
        if self.again == [true; 2] {
            self.begin(hall, me);
        }
        Ok(())
    }

    /// A player leaves, `why` as the other will be told. Leaving a match in play ends it: the
    /// one who stays wins. Says whether the room is now empty (closed).
    pub fn leave(&mut self, hall: &Hall, seat: usize, why: Gone) -> bool {
        if self.seats[seat].take().is_none() {
            return self.closed;
        }
        self.set_here(hall, seat);
        self.again = [false; 2];
        let stays = 1 - seat;
        if self.playing() {
            let stopping = hall.stopping();
            let winner = (!stopping && self.seats[stays].is_some()).then_some(stays);
            let why_ended = if stopping { "shutdown" } else { "left" };
            if let Some(game) = self.game.as_mut() {
                game.abandoned = true;
            }
            self.finish(hall, winner, why_ended);
        } else if let Some(game) = self.game.as_mut() {
            // No rematch without both: the one who stays is told, and may only leave.
            game.abandoned = true;
        }
        if let Some(other) = &self.seats[stays] {
            wire::send(&other.out, &ToClient::Left { why });
        }
        if self.seats.iter().all(Option::is_none) && !self.closed {
            self.closed = true;
            hall.room_closed();
        }
        self.closed
    }

    /// The connection in `seat` was lost. In a match in play (and a server not draining),
    /// the room holds the seat for [`crate::Config::rejoin_grace`]: the other player is told
    /// [`ToClient::Away`], the battle goes on, and if no one comes back with the seat's ticket
    /// in time the seat is given up as lost (and `closed` is told the code of a named room that
    /// closes then). Says whether the seat is held; if not, the caller leaves as lost at once.
    pub fn lose(
        &mut self,
        hall: &Arc<Hall>,
        me: &RoomRef,
        seat: usize,
        conn: u64,
        closed: impl FnOnce(String) + Send + 'static,
    ) -> bool {
        let grace = hall.config.rejoin_grace;
        if !self.holds(seat, conn) || !self.playing() || grace.is_zero() || hall.draining() {
            return false;
        }
        self.holds += 1;
        let hold = self.holds;
        if self.away[seat].replace(hold).is_none() {
            hall.counters.seats_held.fetch_add(1, Ordering::Relaxed);
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
        let (hall, room) = (Arc::clone(hall), Arc::clone(me));
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            let gone = {
                let mut r = lock(&room);
                if r.away[seat] != Some(hold) {
                    return;
                }
                hall.counters.seats_given_up.fetch_add(1, Ordering::Relaxed);
                let closed = r.leave(&hall, seat, Gone::Lost);
                closed.then(|| r.code.clone()).flatten()
            };
            if let Some(code) = gone {
                closed(code);
            }
        });
        true
    }

    /// A player comes back into `seat` of the match in play with its ticket, on a new
    /// connection: the seat is theirs again (taken over from the old connection, should it
    /// linger), they get the seat's `Start` and the battle as it stands, their moves are
    /// numbered from 1 again, and the other player is told [`ToClient::Back`].
    pub fn rejoin(&mut self, hall: &Hall, seat: usize, player: Seat) -> Result<(), Rejection> {
        if !self.playing() || self.seats[seat].is_none() {
            return Err(Rejection::NoSuchMatch);
        }
        let Some(game) = self.game.as_mut() else {
            return Err(Rejection::NoSuchMatch);
        };
        game.acked[seat] = 0;
        game.sent[seat] = None;
        wire::send(&player.out, &ToClient::Start(game.starts[seat].clone()));
        self.seats[seat] = Some(player);
        self.set_here(hall, seat);
        hall.counters.rejoined.fetch_add(1, Ordering::Relaxed);
        self.send_state(false);
        if let Some(other) = &self.seats[1 - seat] {
            wire::send(&other.out, &ToClient::Back { seat });
        }
        Ok(())
    }

    /// The seat is held no longer (its player is back, or gone).
    fn set_here(&mut self, hall: &Hall, seat: usize) {
        if self.away[seat].take().is_some() {
            hall.counters.seats_held.fetch_sub(1, Ordering::Relaxed);
        }
    }

    fn check_over(&mut self, hall: &Hall) {
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
            self.finish(hall, winner, why);
        }
    }

    /// Ends the match: counted, written in the log, and a drain told if it was the last.
    fn finish(&mut self, hall: &Hall, winner: Option<usize>, why: &str) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if game.ended {
            return;
        }
        game.ended = true;
        hall.void_tickets(&std::mem::take(&mut self.tickets));
        if hall.config.log_matches {
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
        hall.match_finished();
    }

    /// The battle now to each seat, each with its own last answered move, as a change to the
    /// state the seat was sent last (whole when there is none). The state is read from the
    /// battle once for both seats. On a `beat` of the clock, a seat whose change holds
    /// nothing but the clocks running down is sent nothing, but for one beat in
    /// [`CLOCKS_EVERY`]; an answer to a move always goes.
    fn send_state(&mut self, beat: bool) {
        let Room {
            game, seats, away, ..
        } = self;
        let Some(game) = game.as_mut() else {
            return;
        };
        if beat {
            game.beats = game.beats.wrapping_add(1);
        }
        let clocks_due = !beat || game.beats.is_multiple_of(CLOCKS_EVERY);
        let now = Arc::new(state_for(&game.battle, 0));
        for (seat, player) in seats.iter().enumerate() {
            let Some(player) = player.as_ref().filter(|_| away[seat].is_none()) else {
                continue;
            };
            let acked = game.acked[seat];
            let delta = game.sent[seat]
                .as_ref()
                .and_then(|(was, before)| Some((*was, Delta::between(before, &now)?)));
            let msg = match delta {
                Some((was, delta)) if !clocks_due && acked == was && delta.clocks_only(0) => {
                    continue;
                }
                Some((_, delta)) => ToClient::Delta(Delta { acked, ..delta }),
                None => ToClient::State(State {
                    acked,
                    ..(*now).clone()
                }),
            };
            wire::send(&player.out, &msg);
            game.sent[seat] = Some((acked, Arc::clone(&now)));
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
        for (seat, player) in self.seats.iter().enumerate() {
            if let Some(player) = player.as_ref().filter(|_| self.away[seat].is_none()) {
                wire::send(&player.out, msg);
            }
        }
    }
}

/// A match's clock: beats every `tick` until the match ends, is replaced, or the room closes.
async fn clock(hall: Arc<Hall>, room: RoomRef, number: u64) {
    let mut beat = tokio::time::interval(hall.config.tick);
    beat.set_missed_tick_behavior(MissedTickBehavior::Delay);
    beat.tick().await; // the first beat is at once: the start sent a state already
    loop {
        beat.tick().await;
        if !lock(&room).tick(&hall, number) {
            return;
        }
    }
}
