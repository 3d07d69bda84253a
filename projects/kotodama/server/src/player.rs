//! One player's connection, from `Hello` to goodbye: the lobby's requests, then the moves and
//! rematches of the room they sit in, and the room told when they go, however they go.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use jengine_kotoba::net::{Gone, Rejection, ToClient, ToServer, VERSION};
use jengine_net::{CloseReason, Connection, Value};

use crate::lobby::{self, Lobby, Placed};
use crate::room::{self, Hall, Seat};
use crate::wire;

/// What a player's task needs past the rooms' hall: the lobby, and numbers for connections.
pub(crate) struct Players {
    pub hall: Arc<Hall>,
    pub lobby: Mutex<Lobby>,
    /// Numbers the connections, so a room knows which connection holds a seat.
    next_conn: AtomicU64,
}

impl Players {
    pub fn new(hall: Arc<Hall>, lobby: Lobby) -> Players {
        Players {
            hall,
            lobby: Mutex::new(lobby),
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh number for a connection.
    fn next_conn(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}

/// Admits a player if there is room and the server is not draining; the guard lets go.
fn admit(hall: &Arc<Hall>) -> Option<Admitted> {
    if hall.draining() {
        return None;
    }
    let before = hall.counters.players.fetch_add(1, Ordering::SeqCst);
    let admitted = Admitted(Arc::clone(hall));
    (before < hall.config.max_players).then_some(admitted)
}

/// A player admitted; counted until dropped.
struct Admitted(Arc<Hall>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.counters.players.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves one connection until it ends.
pub(crate) async fn player(mut conn: Connection<Value, Value>, players: Arc<Players>) {
    let hall = &players.hall;
    let Some(_admitted) = admit(hall) else {
        hall.refused_busy();
        refuse(&conn, Rejection::Busy, busy_words(hall));
        return;
    };
    let Some(name) = hello(&mut conn, hall).await else {
        return;
    };
    let mut me = Player {
        seat: Seat {
            name,
            out: conn.sender(),
            conn: players.next_conn(),
        },
        room: None,
    };
    loop {
        let frame = match conn.recv().await {
            Ok(frame) => frame,
            Err(reason) => {
                let gone = wire::gone(&reason);
                if gone == Gone::Removed {
                    hall.removed();
                }
                // Lost in a match: the room may hold the seat for them to come back.
                if gone == Gone::Lost && me.hold(&players) {
                    return;
                }
                return me.leave(&players, gone);
            }
        };
        let heard = Instant::now();
        let msg = match wire::read(&frame) {
            Ok(msg) => msg,
            Err(reason) => {
                hall.removed();
                conn.close_with(reason);
                return me.leave(&players, Gone::Removed);
            }
        };
        if let Err(why) = me.hear(&players, msg, heard) {
            if why == Rejection::Busy {
                hall.refused_busy();
            }
            wire::send(&me.seat.out, &ToClient::Refused { why });
        }
    }
}

/// Waits for the first message, which must be a `Hello` of this version with a fair name.
/// Anything else is refused and the connection closed, saying why.
async fn hello(conn: &mut Connection<Value, Value>, hall: &Hall) -> Option<String> {
    let wait = hall.config.hello_timeout;
    let frame = match tokio::time::timeout(wait, conn.recv()).await {
        Err(_) => {
            conn.close(&format!("no Hello within {} ms", wait.as_millis()));
            return None;
        }
        Ok(Err(_)) => return None,
        Ok(Ok(frame)) => frame,
    };
    // The version is looked at before the rest is checked: a player of another version may
    // disagree about everything else.
    let msg = match frame.read::<ToServer>() {
        Ok(msg) => msg,
        Err(e) => {
            conn.close_with(CloseReason::Garbage(format!(
                "not a message of this game: {e}"
            )));
            return None;
        }
    };
    match msg {
        ToServer::Hello { version, .. } if version != VERSION => {
            let words = format!(
                "protocol mismatch: the server speaks version {VERSION} of the messages, the client {version}"
            );
            refuse(conn, Rejection::Version { server: VERSION }, &words);
            None
        }
        ToServer::Hello { name, .. } => match msg_valid(&name) {
            Ok(()) => Some(name),
            Err(words) => {
                refuse(conn, Rejection::Name, &words);
                None
            }
        },
        _ => {
            refuse(conn, Rejection::NotNow, "the first message must be Hello");
            None
        }
    }
}

/// Whether a `Hello`'s name passes its caps; the words say why not.
fn msg_valid(name: &str) -> Result<(), String> {
    ToServer::Hello {
        version: VERSION,
        name: name.to_string(),
    }
    .validate()
    .map_err(|e| format!("invalid name: {e}"))
}

fn busy_words(hall: &Hall) -> &'static str {
    if hall.draining() {
        "the server is draining: it takes no new players"
    } else {
        "the server is full"
    }
}

/// Sends `Refused` and closes (1000) with these words; the refusal goes out first.
fn refuse(conn: &Connection<Value, Value>, why: Rejection, words: &str) {
    wire::send(&conn.sender(), &ToClient::Refused { why });
    conn.close(words);
}

/// A player past `Hello`, and the room they sit in.
struct Player {
    seat: Seat,
    room: Option<Placed>,
}

impl Player {
    /// One message from the player. An error is the refusal to send back.
    fn hear(&mut self, players: &Players, msg: ToServer, heard: Instant) -> Result<(), Rejection> {
        match msg {
            ToServer::Hello { .. } => Err(Rejection::NotNow),
            ToServer::Queue => self.seek(players, |me| {
                lobby::queue(&players.hall, &players.lobby, me)
            }),
            ToServer::Create => self.seek(players, |me| {
                lobby::create(&players.hall, &players.lobby, me)
            }),
            ToServer::Join { code } => self.seek(players, |me| {
                lobby::join(&players.hall, &players.lobby, me, &code)
            }),
            ToServer::Play { number, mv } => {
                let (room, seat) = self.room.as_ref().ok_or(Rejection::NotNow)?;
                let mut r = room::lock(room);
                if !r.holds(*seat, self.seat.conn) {
                    return Err(Rejection::NotNow);
                }
                r.play(&players.hall, *seat, number, mv, heard)
            }
            ToServer::Again => {
                let (room, seat) = self.room.as_ref().ok_or(Rejection::NotNow)?;
                let mut r = room::lock(room);
                if !r.holds(*seat, self.seat.conn) {
                    return Err(Rejection::NotNow);
                }
                r.again(&players.hall, room, *seat)
            }
            ToServer::Rejoin { ticket } => {
                if let Some((room, seat)) = &self.room {
                    let r = room::lock(room);
                    if r.playing() && r.holds(*seat, self.seat.conn) {
                        return Err(Rejection::NotNow);
                    }
                }
                let (room, seat) = players.hall.redeem(&ticket).ok_or(Rejection::NoSuchMatch)?;
                self.leave(players, Gone::Quit);
                room::lock(&room).rejoin(&players.hall, seat, self.seat.clone())?;
                self.room = Some((room, seat));
                Ok(())
            }
            ToServer::Leave => {
                self.leave(players, Gone::Quit);
                Ok(())
            }
        }
    }

    /// Goes to the lobby for a room: refused while a match is being played, or while the
    /// server drains; a room the player waits in or has finished in is left first.
    fn seek(
        &mut self,
        players: &Players,
        find: impl FnOnce(Seat) -> Result<Placed, Rejection>,
    ) -> Result<(), Rejection> {
        if let Some((room, seat)) = &self.room {
            let r = room::lock(room);
            if r.playing() && r.holds(*seat, self.seat.conn) {
                return Err(Rejection::NotNow);
            }
        }
        if players.hall.draining() {
            return Err(Rejection::Busy);
        }
        self.leave(players, Gone::Quit);
        self.room = Some(find(self.seat.clone())?);
        Ok(())
    }

    /// Asks the room to hold this player's seat after their connection was lost; says
    /// whether it does.
    fn hold(&mut self, players: &Arc<Players>) -> bool {
        let Some((room, seat)) = &self.room else {
            return false;
        };
        // A named room that closes while the seat is held is forgotten by the lobby.
        let forget = {
            let players = Arc::clone(players);
            move |code: String| lobby::forget(&players.lobby, &code)
        };
        room::lock(room).lose(&players.hall, room, *seat, self.seat.conn, forget)
    }

    /// Leaves the room, if in one; the other player is told `why`. A seat someone else has
    /// since taken (a rejoin on a new connection) is theirs, and left alone.
    fn leave(&mut self, players: &Players, why: Gone) {
        let Some((room, seat)) = self.room.take() else {
            return;
        };
        let (closed, code) = {
            let mut r = room::lock(&room);
            if !r.holds(seat, self.seat.conn) {
                return;
            }
            (r.leave(&players.hall, seat, why), r.code.clone())
        };
        if let (true, Some(code)) = (closed, code) {
            lobby::forget(&players.lobby, &code);
        }
    }
}
