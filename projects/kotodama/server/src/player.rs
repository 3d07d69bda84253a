//! One player's connection, from `Hello` to goodbye: the lobby's requests, then the moves and
//! rematches of the room they sit in, and the room told when they go, however they go.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use jengine_kotoba::net::{Gone, Redirect, Rejection, ToClient, ToServer, VERSION};
use jengine_net::Connection;
use tokio::sync::mpsc;

use crate::fleet::{Claimed, Fleet, Joined, Notice, Queued, Reserved};
use crate::lobby::{self, Lobby, Placed};
use crate::room::{self, Hall, Seat};
use crate::wire;

/// What a player's task needs past the rooms' hall: the lobby, the fleet if the process is
/// one of a fleet, and numbers for connections.
pub(crate) struct Players {
    pub hall: Arc<Hall>,
    pub lobby: Mutex<Lobby>,
    pub fleet: Option<Arc<Fleet>>,
    /// Numbers the connections, so a room knows which connection holds a seat.
    next_conn: AtomicU64,
}

impl Players {
    pub fn new(hall: Arc<Hall>, lobby: Lobby, fleet: Option<Arc<Fleet>>) -> Players {
        Players {
            hall,
            lobby: Mutex::new(lobby),
            fleet,
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh number for a connection.
    fn next_conn(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Forgets a named room that closed, here and in the fleet's lobby.
    fn forget(&self, code: String) {
        lobby::forget(&self.lobby, &code);
        if let Some(fleet) = &self.fleet {
            fleet.forget(code);
        }
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
pub(crate) async fn player(mut conn: Connection<ToClient, ToServer>, players: Arc<Players>) {
    let hall = &players.hall;
    let Some(_admitted) = admit(hall) else {
        hall.refused_busy();
        refuse(&conn, Rejection::Busy, busy_words(hall));
        return;
    };
    let Some(name) = hello(&mut conn, hall).await else {
        return;
    };
    let (notices, mut heard_notices) = mpsc::unbounded_channel();
    let mut me = Player {
        seat: Seat {
            name,
            out: conn.sender(),
            conn: players.next_conn(),
        },
        room: None,
        in_line: false,
        notices,
    };
    loop {
        let received = tokio::select! {
            received = conn.recv() => received,
            Some(notice) = heard_notices.recv() => {
                me.notice(&players, notice).await;
                continue;
            }
        };
        let frame = match received {
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
        let msg = match wire::read(frame) {
            Ok(msg) => msg,
            Err(reason) => {
                hall.removed();
                conn.close_with(reason);
                return me.leave(&players, Gone::Removed);
            }
        };
        if let Err(why) = me.hear(&players, msg, heard).await {
            if why == Rejection::Busy {
                hall.refused_busy();
            }
            wire::send(&me.seat.out, &ToClient::Refused { why });
        }
    }
}

/// Waits for the first message, which must be a `Hello` of this version with a fair name.
/// Anything else is refused and the connection closed, saying why.
async fn hello(conn: &mut Connection<ToClient, ToServer>, hall: &Hall) -> Option<String> {
    let wait = hall.config.hello_timeout;
    // A frame of another protocol version never gets here: the transport closes it, saying
    // both versions.
    let msg = match tokio::time::timeout(wait, conn.recv()).await {
        Err(_) => {
            conn.close(&format!("no Hello within {} ms", wait.as_millis()));
            return None;
        }
        Ok(Err(_)) => return None,
        Ok(Ok(msg)) => msg,
    };
    // The version is looked at before the rest is checked: a player of another version may
    // disagree about everything else.
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
fn refuse(conn: &Connection<ToClient, ToServer>, why: Rejection, words: &str) {
    wire::send(&conn.sender(), &ToClient::Refused { why });
    conn.close(words);
}

/// A player past `Hello`, the room they sit in, and in a fleet whether they wait in its
/// quick-match line (and where the fleet's news for them arrives).
struct Player {
    seat: Seat,
    room: Option<Placed>,
    in_line: bool,
    notices: mpsc::UnboundedSender<Notice>,
}

/// What a player asked the lobby for.
enum Seek {
    Queue,
    Create,
    Join(String),
    Claim(String),
}

impl Player {
    /// One message from the player. An error is the refusal to send back.
    async fn hear(
        &mut self,
        players: &Arc<Players>,
        msg: ToServer,
        heard: Instant,
    ) -> Result<(), Rejection> {
        match msg {
            ToServer::Hello { .. } => Err(Rejection::NotNow),
            ToServer::Queue => self.seek(players, Seek::Queue).await,
            ToServer::Create => self.seek(players, Seek::Create).await,
            ToServer::Join { code } => self.seek(players, Seek::Join(code)).await,
            ToServer::Claim { reservation } => self.seek(players, Seek::Claim(reservation)).await,
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
                let Some((room, seat)) = players.hall.redeem(&ticket) else {
                    return self.rejoin_elsewhere(players, ticket).await;
                };
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
    /// server drains; a room the player waits in or has finished in is left first. A server
    /// alone finds the room in its own lobby; one of a fleet asks the shared lobby, which may
    /// place the room on another process.
    async fn seek(&mut self, players: &Arc<Players>, what: Seek) -> Result<(), Rejection> {
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
        let (hall, lobby) = (&players.hall, &players.lobby);
        let Some(fleet) = &players.fleet else {
            let me = self.seat.clone();
            self.room = Some(match what {
                Seek::Queue => lobby::queue(hall, lobby, me)?,
                Seek::Create => lobby::create(hall, lobby, me, None)?,
                Seek::Join(code) => lobby::join(hall, lobby, me, &code)?,
                // A server alone reserves no seats.
                Seek::Claim(_) => return Err(Rejection::NoSuchSeat),
            });
            return Ok(());
        };
        match what {
            Seek::Queue => self.queue_fleet(players, fleet).await,
            Seek::Create => self.create_fleet(players, fleet).await,
            Seek::Join(code) => match fleet
                .join(&code.to_ascii_uppercase())
                .await
                .map_err(|_| Rejection::LobbyDown)?
            {
                Joined::NoSuchRoom => Err(Rejection::NoSuchRoom),
                Joined::Full => Err(Rejection::Full),
                Joined::Go(seat) => self.go(players, fleet, seat).await,
            },
            Seek::Claim(reservation) => self.claim(players, fleet, &reservation).await,
        }
    }

    /// The fleet's quick match: in line, or paired and sent to the room's process.
    async fn queue_fleet(
        &mut self,
        players: &Arc<Players>,
        fleet: &Arc<Fleet>,
    ) -> Result<(), Rejection> {
        let queued = fleet
            .queue(self.seat.conn, self.notices.clone())
            .await
            .map_err(|_| Rejection::LobbyDown)?;
        match queued {
            Queued::Wait => {
                self.in_line = true;
                wire::send(&self.seat.out, &ToClient::Waiting { code: None });
                Ok(())
            }
            Queued::Matched(seat) => self.go(players, fleet, seat).await,
            Queued::NoHost => Err(Rejection::Busy),
        }
    }

    /// A named room waiting here, its code opened in the fleet's lobby first.
    async fn create_fleet(
        &mut self,
        players: &Arc<Players>,
        fleet: &Arc<Fleet>,
    ) -> Result<(), Rejection> {
        for _ in 0..8 {
            let code = lobby::fresh_code(&players.lobby);
            if !fleet
                .create(&code)
                .await
                .map_err(|_| Rejection::LobbyDown)?
            {
                continue;
            }
            let me = self.seat.clone();
            return match lobby::create(&players.hall, &players.lobby, me, Some(code.clone())) {
                Ok(placed) => {
                    self.room = Some(placed);
                    Ok(())
                }
                Err(why) => {
                    fleet.forget(code);
                    Err(why)
                }
            };
        }
        Err(Rejection::Busy)
    }

    /// Takes a seat reserved in the fleet: here at once, or by sending the player to the
    /// process that holds the room.
    async fn go(
        &mut self,
        players: &Arc<Players>,
        fleet: &Arc<Fleet>,
        seat: Reserved,
    ) -> Result<(), Rejection> {
        if seat.host == fleet.id {
            return self.claim(players, fleet, &seat.reservation).await;
        }
        fleet.redirects.fetch_add(1, Ordering::Relaxed);
        wire::send(
            &self.seat.out,
            &ToClient::Redirect(Redirect {
                address: seat.address,
                reservation: seat.reservation,
                seconds: seat.ms as f32 / 1000.0,
            }),
        );
        Ok(())
    }

    /// Uses a reservation of a seat on this process: the player waits in the room it opens,
    /// or sits down and the match starts.
    async fn claim(
        &mut self,
        players: &Arc<Players>,
        fleet: &Arc<Fleet>,
        reservation: &str,
    ) -> Result<(), Rejection> {
        let claimed = fleet
            .claim(reservation)
            .await
            .map_err(|_| Rejection::LobbyDown)?
            .ok_or(Rejection::NoSuchSeat)?;
        let (hall, lobby) = (&players.hall, &players.lobby);
        match claimed {
            Claimed::Named { code } => {
                self.room = Some(lobby::join(hall, lobby, self.seat.clone(), &code)?);
                Ok(())
            }
            Claimed::Quick { key, ms } => {
                let me = self.seat.clone();
                let first = {
                    let me = me.clone();
                    move || lobby::open_placed(hall, lobby, me)
                };
                let second = |room: &room::RoomRef| {
                    let mut r = room::lock(room);
                    if !r.waiting() {
                        return false;
                    }
                    r.sit_and_start(hall, room, me);
                    true
                };
                let placed = fleet
                    .sit_placed(&key, ms, self.notices.clone(), first, second)
                    .ok_or(Rejection::Busy)?;
                self.room = Some(placed);
                Ok(())
            }
        }
    }

    /// A rejoin ticket this process did not give out: in a fleet, the player is sent to the
    /// process that did while it lives; otherwise its match is over.
    async fn rejoin_elsewhere(
        &mut self,
        players: &Arc<Players>,
        ticket: String,
    ) -> Result<(), Rejection> {
        let Some(fleet) = &players.fleet else {
            return Err(Rejection::NoSuchMatch);
        };
        let Some(owner) = fleet.owner_of(&ticket) else {
            return Err(Rejection::NoSuchMatch);
        };
        let address = fleet
            .address_of(owner)
            .await
            .map_err(|_| Rejection::LobbyDown)?
            .ok_or(Rejection::NoSuchMatch)?;
        fleet.redirects.fetch_add(1, Ordering::Relaxed);
        wire::send(
            &self.seat.out,
            &ToClient::Redirect(Redirect {
                address,
                reservation: ticket,
                seconds: players.hall.config.rejoin_grace.as_secs_f32(),
            }),
        );
        Ok(())
    }

    /// News from the fleet for this player.
    async fn notice(&mut self, players: &Arc<Players>, notice: Notice) {
        let Some(fleet) = &players.fleet else {
            return;
        };
        let refused = match notice {
            Notice::Matched(seat) if self.in_line => {
                self.in_line = false;
                self.go(players, fleet, seat).await.err()
            }
            Notice::Matched(_) => None,
            Notice::LobbyDown if self.in_line => {
                self.in_line = false;
                Some(Rejection::LobbyDown)
            }
            Notice::LobbyDown => None,
            Notice::Requeue => {
                // Still alone in the room placed here: leave it and look again.
                let alone = self.room.as_ref().is_some_and(|(room, seat)| {
                    room::lock(room).waiting() && room::lock(room).holds(*seat, self.seat.conn)
                });
                if !alone {
                    return;
                }
                self.leave(players, Gone::Quit);
                self.queue_fleet(players, fleet).await.err()
            }
        };
        if let Some(why) = refused {
            wire::send(&self.seat.out, &ToClient::Refused { why });
        }
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
            move |code: String| players.forget(code)
        };
        room::lock(room).lose(&players.hall, room, *seat, self.seat.conn, forget)
    }

    /// Leaves the room, if in one; the other player is told `why`. A seat someone else has
    /// since taken (a rejoin on a new connection) is theirs, and left alone.
    fn leave(&mut self, players: &Players, why: Gone) {
        if std::mem::take(&mut self.in_line)
            && let Some(fleet) = &players.fleet
        {
            fleet.unqueue(self.seat.conn);
        }
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
            players.forget(code);
        }
    }
}
