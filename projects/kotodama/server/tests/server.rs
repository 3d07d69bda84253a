//! The room server over real sockets on 127.0.0.1: each test starts its own server on a free
//! port with timeouts cut short, and speaks to it as players would, frame by frame, through a
//! plain blocking WebSocket (so a test can also send bytes no player would).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jengine_kotoba::battle::{Move, Phase};
use jengine_kotoba::bot::legal_moves;
use jengine_kotoba::dict::Dict;
use jengine_kotoba::kana::TileStats;
use jengine_kotoba::net::{
    Gone, Mirror, Received, Rejection, Start, State, ToClient, ToServer, VERSION,
};
use jengine_kotoba::play::{Event, Refusal};
use jengine_net::{Codec, RateLimit, ServerConfig, Value};
use kotodama_server::PROTOCOL;
use kotodama_server::{Config, Handle, spawn};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Message, WebSocket};

/// How long a test waits for anything before it fails.
const PATIENCE: Duration = Duration::from_secs(5);

fn config() -> Config {
    Config {
        transport: ServerConfig {
            handshake_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(3),
            ping_interval: Duration::from_millis(200),
            close_timeout: Duration::from_millis(300),
            ..Config::default().transport
        },
        hello_timeout: Duration::from_millis(400),
        countdown: false,
        battle_time: 60.0,
        seed: 7,
        workers: 1,
        log_matches: false,
        // A lost player has left at once, unless a test holds their seat.
        rejoin_grace: Duration::ZERO,
        ..Config::default()
    }
}

struct Server {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(config: Config) -> Server {
        let (handle, thread) = spawn(config).expect("the server starts");
        Server {
            handle,
            thread: Some(thread),
        }
    }

    fn player(&self, name: &str) -> Player {
        let mut p = Player::connect(self.handle.local_addr());
        p.send(&ToServer::Hello {
            version: VERSION,
            name: name.into(),
        });
        p
    }

    /// Two players, queued one after the other, and their `Start`s.
    fn pair(&self) -> ((Player, Start), (Player, Start)) {
        let mut a = self.player("あお");
        a.send(&ToServer::Queue);
        assert_eq!(a.next(), ToClient::Waiting { code: None });
        let mut b = self.player("あか");
        b.send(&ToServer::Queue);
        let sa = a.start();
        let sb = b.start();
        ((a, sa), (b, sb))
    }

    /// Waits for the server's thread to end, as it does once the server has stopped.
    fn join(mut self) {
        let thread = self.thread.take().unwrap();
        let deadline = Instant::now() + PATIENCE;
        while !thread.is_finished() {
            assert!(Instant::now() < deadline, "the server did not stop");
            std::thread::sleep(Duration::from_millis(10));
        }
        thread.join().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.handle.shutdown();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One player's socket: the game's messages behind version byte `PROTOCOL`, read with a
/// deadline.
struct Player {
    ws: WebSocket<TcpStream>,
    codec: Codec,
    /// The room's states as sent so far.
    received: Received,
}

/// What a connection's end looked like from the player's side.
#[derive(Debug)]
struct Closed {
    code: u16,
    why: String,
}

impl Player {
    fn connect(addr: SocketAddr) -> Player {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(20)))
            .unwrap();
        let (ws, _) = tungstenite::client(format!("ws://{addr}/"), stream).unwrap();
        Player {
            ws,
            codec: Codec::new(PROTOCOL),
            received: Received::default(),
        }
    }

    fn send(&mut self, msg: &ToServer) {
        let bytes = self.codec.encode(msg).unwrap();
        self.send_raw(bytes);
    }

    fn send_raw(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::Binary(bytes.into())).unwrap();
    }

    /// The next message, or how the connection ended; `None` if nothing came in time.
    fn read(&mut self, within: Duration) -> Option<Result<ToClient, Closed>> {
        let deadline = Instant::now() + within;
        loop {
            match self.ws.read() {
                Ok(Message::Binary(bytes)) => {
                    let msg: ToClient = self.codec.decode(&bytes).expect("a message");
                    msg.validate().expect("a valid message");
                    // A change of state is read as the state it makes, as a player's mirror
                    // does.
                    let msg = self.received.read(msg).expect("a change that fits");
                    return Some(Ok(msg));
                }
                Ok(Message::Close(frame)) => {
                    let (code, why) = frame.map_or((1005, String::new()), |f| {
                        (u16::from(f.code), f.reason.to_string())
                    });
                    return Some(Err(Closed { code, why }));
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if Instant::now() >= deadline {
                        return None;
                    }
                }
                Err(e) => {
                    return Some(Err(Closed {
                        code: 1006,
                        why: e.to_string(),
                    }));
                }
            }
        }
    }

    /// The next message; fails the test on a close or a silence.
    fn next(&mut self) -> ToClient {
        match self.read(PATIENCE) {
            Some(Ok(msg)) => msg,
            Some(Err(closed)) => panic!("closed instead of a message: {closed:?}"),
            None => panic!("no message within {PATIENCE:?}"),
        }
    }

    /// Skips messages until `pick` takes one.
    fn until<T>(&mut self, mut pick: impl FnMut(&ToClient) -> Option<T>) -> T {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read(left) {
                Some(Ok(msg)) => {
                    if let Some(t) = pick(&msg) {
                        return t;
                    }
                }
                Some(Err(closed)) => panic!("closed while waiting: {closed:?}"),
                None => panic!("not seen within {PATIENCE:?}"),
            }
        }
    }

    fn start(&mut self) -> Start {
        self.until(|m| match m {
            ToClient::Start(s) => Some(s.clone()),
            _ => None,
        })
    }

    fn refused(&mut self) -> Rejection {
        self.until(|m| match m {
            ToClient::Refused { why } => Some(*why),
            _ => None,
        })
    }

    fn left(&mut self) -> Gone {
        self.until(|m| match m {
            ToClient::Left { why } => Some(*why),
            _ => None,
        })
    }

    /// The first state that answers move `number`.
    fn acked(&mut self, number: u32) -> State {
        self.until(|m| match m {
            ToClient::State(s) if s.acked >= number => Some(s.clone()),
            _ => None,
        })
    }

    /// Reads past any messages to the close, and gives its code and words.
    fn closed(&mut self) -> Closed {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read(left) {
                Some(Ok(_)) => {}
                Some(Err(closed)) => return closed,
                None => panic!("not closed within {PATIENCE:?}"),
            }
        }
    }
}

fn dict() -> &'static Dict {
    Dict::japanese()
}

/// A legal placement for the mirror's player, if their hand has one.
fn some_placement(m: &Mirror) -> Option<Move> {
    let stats = TileStats::from_dict(dict());
    legal_moves(m.board(), dict(), &stats, m.hand())
        .first()
        .map(|lm| Move::Place {
            slot: lm.slot,
            pos: lm.pos,
            face: lm.face,
        })
}

/// `GET path` on the metrics port: the status code and the body.
fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

#[test]
fn a_quick_match_pairs_two_players_and_answers_every_move() {
    let server = Server::start(config());
    let ((mut a, sa), (mut b, sb)) = server.pair();
    assert_eq!((sa.seat, sb.seat), (0, 1));
    assert_eq!(sa.seed, sb.seed);
    assert_eq!(sa.fighters[0].name, "あお");
    assert_eq!(sa.fighters[1].name, "あか");
    let mut mirror = Mirror::new(dict(), &sa).unwrap();
    let mv = some_placement(&mirror).expect("a hand with a word to make");
    let Ok(Some(play)) = mirror.play(dict(), mv) else {
        panic!("the mirror takes a legal move");
    };
    assert!(matches!(play, ToServer::Play { number: 1, .. }));
    a.send(&play);
    let state = a.acked(1);
    mirror.apply_state(dict(), &state).unwrap();
    assert!(mirror.pending().is_empty());
    let ToClient::Ev { events } = a.next() else {
        panic!("the events follow the state");
    };
    assert!(matches!(events[0], Event::Placed { player: 0, .. }));
    // The other seat sees the same board, with its own count of answered moves.
    let theirs = b.until(|m| match m {
        ToClient::State(s) if s.board == state.board => Some(s.clone()),
        _ => None,
    });
    assert_eq!(theirs.acked, 0);
    // A number already answered is not applied again; a move with no battle is refused.
    a.send(&play);
    let mut c = server.player("しろ");
    c.send(&ToServer::Play {
        number: 1,
        mv: Move::Swap { slot: 0 },
    });
    assert_eq!(c.refused(), Rejection::NotNow);
    let m = server.handle.metrics();
    assert_eq!((m.players, m.rooms, m.matches_running), (3, 1, 1));
    assert_eq!(m.moves, 1);
    assert!(m.ack_p99.is_some());
}

#[test]
fn named_rooms_are_joined_by_code_and_unknown_or_full_ones_refused() {
    let server = Server::start(config());
    let mut a = server.player("あお");
    a.send(&ToServer::Create);
    let ToClient::Waiting { code: Some(code) } = a.next() else {
        panic!("a named room has a code");
    };
    assert_eq!(code.len(), 4);
    let mut b = server.player("あか");
    b.send(&ToServer::Join {
        code: "ZZZZ9".into(),
    });
    assert_eq!(b.refused(), Rejection::NoSuchRoom);
    b.send(&ToServer::Join {
        code: code.to_lowercase(),
    });
    assert_eq!(b.start().seat, 1);
    assert_eq!(a.start().seat, 0);
    let mut c = server.player("しろ");
    c.send(&ToServer::Join { code: code.clone() });
    assert_eq!(c.refused(), Rejection::Full);
    // Seated players cannot go elsewhere while their match is on.
    a.send(&ToServer::Queue);
    assert_eq!(a.refused(), Rejection::NotNow);
    // Once both have left, the code is gone.
    a.send(&ToServer::Leave);
    assert_eq!(b.left(), Gone::Quit);
    b.send(&ToServer::Leave);
    let deadline = Instant::now() + PATIENCE;
    while server.handle.metrics().rooms > 0 {
        assert!(Instant::now() < deadline, "the room closes");
        std::thread::sleep(Duration::from_millis(10));
    }
    c.send(&ToServer::Join { code });
    assert_eq!(c.refused(), Rejection::NoSuchRoom);
}

#[test]
fn garbage_closes_its_sender_with_a_reason_and_the_room_goes_on() {
    let server = Server::start(config());
    let ((mut a, _), (mut b, _)) = server.pair();
    // Bytes that are no frame: closed by the transport.
    a.send_raw(vec![
        PROTOCOL, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ]);
    let closed = a.closed();
    assert_eq!(closed.code, 1007, "{closed:?}");
    assert_eq!(b.left(), Gone::Removed);
    // A frame of the right version whose bytes are no message of this game (a variant it
    // does not have): closed by the transport, saying so.
    b.send(&ToServer::Queue);
    let mut c = server.player("しろ");
    c.send(&ToServer::Queue);
    c.start();
    b.start();
    c.send_raw(vec![PROTOCOL, 99, 1, 2]);
    let closed = c.closed();
    assert_eq!(closed.code, 1007, "{closed:?}");
    assert!(!closed.why.is_empty(), "{closed:?}");
    assert_eq!(b.left(), Gone::Removed);
    // And one of the right shape that does not hold: closed too, saying which field.
    let mut d = server.player("くろ");
    d.send(&ToServer::Play {
        number: 0,
        mv: Move::Swap { slot: 0 },
    });
    let closed = d.closed();
    assert_eq!(
        (closed.code, closed.why.as_str()),
        (
            1007,
            "invalid message: Play.number is 0; it must be 1 or more"
        )
    );
    // The one who stayed plays on.
    b.send(&ToServer::Queue);
    b.until(|m| (*m == ToClient::Waiting { code: None }).then_some(()));
    assert_eq!(server.handle.metrics().removed, 3);
}

/// A server alone reserves no seats: a claim of one is refused, and a claim that is no
/// reservation at all (too long, not hex) is closed as a bad message, saying which field.
#[test]
fn a_server_alone_refuses_every_reservation() {
    let server = Server::start(config());
    let mut a = server.player("あお");
    a.send(&ToServer::Claim {
        reservation: "0123456789abcdef0123456789abcdef".into(),
    });
    assert_eq!(a.refused(), Rejection::NoSuchSeat);
    // Still in the lobby, and free to play.
    a.send(&ToServer::Queue);
    assert_eq!(a.next(), ToClient::Waiting { code: None });
    for (reservation, why) in [
        (
            "f".repeat(65),
            "invalid message: Claim.reservation has 65 characters; the most is 64",
        ),
        (
            "not a token".to_string(),
            "invalid message: Claim.reservation is \"not a token\"; it must be hexadecimal digits",
        ),
    ] {
        let mut p = server.player("にせ");
        p.send(&ToServer::Claim { reservation });
        let closed = p.closed();
        assert_eq!((closed.code, closed.why.as_str()), (1007, why));
    }
}

#[test]
fn an_oversized_frame_is_closed_before_it_is_read() {
    let mut cfg = config();
    cfg.transport.codec = cfg.transport.codec.with_max_frame(1024);
    let server = Server::start(cfg);
    let ((mut a, _), (mut b, _)) = server.pair();
    let mut big = vec![PROTOCOL];
    big.extend("あ".repeat(2000).as_bytes());
    a.send_raw(big);
    let closed = a.closed();
    assert_eq!(closed.code, 1009, "{closed:?}");
    assert_eq!(b.left(), Gone::Removed);
}

#[test]
fn a_flood_from_one_player_closes_that_player_only() {
    let mut cfg = config();
    cfg.transport.rate = RateLimit::new(20, 10);
    let server = Server::start(cfg);
    let ((mut a, _), (mut b, _)) = server.pair();
    for _ in 0..40 {
        a.send(&ToServer::Again);
    }
    let closed = a.closed();
    assert_eq!(closed.code, 1008, "{closed:?}");
    assert_eq!(b.left(), Gone::Removed);
}

#[test]
fn a_player_who_stops_reading_is_dropped_and_the_other_is_told() {
    let mut cfg = config();
    cfg.send_buffer = Some(4096);
    cfg.transport.send_queue = 8;
    cfg.tick = Duration::from_millis(2);
    let server = Server::start(cfg);
    let ((a, _), (mut b, _)) = server.pair();
    // `a` reads nothing more; `b` reads on, and hears that `a` is gone.
    let gone = {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            assert!(
                Instant::now() < deadline,
                "the silent reader is never dropped"
            );
            if let Some(Ok(ToClient::Left { why })) = b.read(Duration::from_millis(100)) {
                break why;
            }
        }
    };
    assert_eq!(gone, Gone::Lost);
    drop(a);
}

#[test]
fn a_vanishing_player_leaves_the_win_to_the_other() {
    let server = Server::start(config());
    let ((a, _), (mut b, _)) = server.pair();
    // No close frame: the socket just goes.
    drop(a);
    assert_eq!(b.left(), Gone::Lost);
    let m = server.handle.metrics();
    assert_eq!(
        (m.matches_started, m.matches_finished, m.matches_running),
        (1, 1, 0)
    );
    // A rematch needs both.
    b.send(&ToServer::Again);
    assert_eq!(b.refused(), Rejection::NotNow);
    // Leaving on purpose reads as quitting.
    let ((mut c, _), (mut d, _)) = server.pair();
    c.send(&ToServer::Leave);
    assert_eq!(d.left(), Gone::Quit);
    // The one who left is back in the lobby, free to queue.
    c.send(&ToServer::Queue);
    c.until(|m| (*m == ToClient::Waiting { code: None }).then_some(()));
}

#[test]
fn the_first_move_heard_takes_a_contested_cell() {
    let server = Server::start(config());
    // Pairs until both hands can make a word on one same cell.
    let (mut a, mut b, mut ma, mut mb, cell) = (1..=40)
        .find_map(|_| {
            let ((mut a, sa), (mut b, sb)) = server.pair();
            let ma = Mirror::new(dict(), &sa).unwrap();
            let mb = Mirror::new(dict(), &sb).unwrap();
            let stats = TileStats::from_dict(dict());
            let theirs = legal_moves(mb.board(), dict(), &stats, mb.hand());
            let shared = legal_moves(ma.board(), dict(), &stats, ma.hand())
                .into_iter()
                .find_map(|x| theirs.iter().find(|y| y.pos == x.pos).map(|y| (x, *y)));
            if shared.is_none() {
                a.send(&ToServer::Leave);
                b.send(&ToServer::Leave);
            }
            shared.map(|cell| (a, b, ma, mb, cell))
        })
        .expect("two hands that want one cell");
    let (x, y) = cell;
    let place = |lm: jengine_kotoba::bot::LegalMove| Move::Place {
        slot: lm.slot,
        pos: lm.pos,
        face: lm.face,
    };
    // `a` is heard first, and answered, before `b` moves.
    let first = ma.play(dict(), place(x)).unwrap().unwrap();
    a.send(&first);
    ma.apply_state(dict(), &a.acked(1)).unwrap();
    let taken = ma.board().kana(x.pos).expect("a's tile is down");
    // `b` has not heard yet: on its mirror its own tile is down there, its slot a guess.
    let hand_before = mb.hand().to_vec();
    let second = mb.play(dict(), place(y)).unwrap().unwrap();
    assert_eq!(mb.board().kana(y.pos), Some(y.face));
    assert!(mb.guessed(y.slot));
    b.send(&second);
    let mut refused = false;
    let answer = b.until(|m| match m {
        ToClient::State(s) if s.acked >= 1 => Some(s.clone()),
        ToClient::State(s) => {
            mb.apply_state(dict(), s).unwrap();
            None
        }
        ToClient::Ev { events } => {
            refused |= events.contains(&Event::Refused {
                player: 1,
                why: Refusal::Taken,
            });
            None
        }
        _ => None,
    });
    mb.apply_state(dict(), &answer).unwrap();
    // The room's word: a's tile is there, b's is back in b's hand, nothing left in flight.
    assert_eq!(mb.board().kana(x.pos), Some(taken));
    assert!(mb.pending().is_empty());
    assert!(!mb.guessed(y.slot));
    assert_eq!(mb.hand(), hand_before.as_slice());
    b.until(|m| match m {
        ToClient::Ev { events } => {
            refused |= events.contains(&Event::Refused {
                player: 1,
                why: Refusal::Taken,
            });
            refused.then_some(())
        }
        _ => refused.then_some(()),
    });
}

#[test]
fn a_drain_finishes_the_match_refuses_new_ones_and_stops() {
    let mut cfg = config();
    cfg.metrics_bind = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    cfg.battle_time = 1.5;
    let server = Server::start(cfg);
    let http = server.handle.metrics_addr().unwrap();
    assert_eq!(http_get(http, "/health"), (200, "ok\n".into()));
    let ((mut a, _), (mut b, _)) = server.pair();
    let mut c = server.player("しろ");
    c.send(&ToServer::Create);
    let ToClient::Waiting { code: Some(code) } = c.next() else {
        panic!("a named room");
    };
    server.handle.drain();
    assert_eq!(http_get(http, "/health"), (503, "draining\n".into()));
    let (status, metrics) = http_get(http, "/metrics");
    assert_eq!(status, 200);
    assert!(metrics.contains("kotodama_draining 1\n"), "{metrics}");
    assert!(
        metrics.contains("kotodama_matches_running 1\n"),
        "{metrics}"
    );
    // No new matches: not by queue, not by code, not for a newcomer.
    let mut d = server.player("くろ");
    assert_eq!(d.refused(), Rejection::Busy);
    assert_eq!(d.closed().code, 1000);
    c.send(&ToServer::Queue);
    assert_eq!(c.refused(), Rejection::Busy);
    let mut e = Player::connect(server.handle.local_addr());
    e.send(&ToServer::Join { code });
    assert_eq!(e.refused(), Rejection::Busy);
    // The running match is played to its end, its last state sent, then everyone is let go.
    for p in [&mut a, &mut b] {
        p.until(|m| match m {
            ToClient::State(s) if matches!(s.phase, Phase::Over { .. }) => Some(()),
            _ => None,
        });
        let closed = p.closed();
        assert_eq!(closed.code, 1001, "{closed:?}");
    }
    assert_eq!(c.closed().code, 1001);
    assert_eq!(server.handle.metrics().matches_finished, 1);
    server.join();
}

#[test]
fn a_rematch_begins_when_both_ask() {
    let mut cfg = config();
    cfg.battle_time = 0.5;
    let server = Server::start(cfg);
    let ((mut a, sa), (mut b, _)) = server.pair();
    for p in [&mut a, &mut b] {
        p.until(|m| match m {
            ToClient::Ev { events } => events
                .iter()
                .any(|e| matches!(e, Event::Over { .. }))
                .then_some(()),
            _ => None,
        });
    }
    a.send(&ToServer::Again);
    for p in [&mut a, &mut b] {
        assert_eq!(
            p.until(|m| match m {
                ToClient::Again { asked } => Some(*asked),
                _ => None,
            }),
            [true, false]
        );
    }
    b.send(&ToServer::Again);
    assert_eq!(
        b.until(|m| match m {
            ToClient::Again { asked } => Some(*asked),
            _ => None,
        }),
        [true, true]
    );
    let again = a.start();
    assert_ne!(again.seed, sa.seed);
    assert_eq!(b.start().seed, again.seed);
    // Move numbers start again with the new battle.
    let state = a.until(|m| match m {
        ToClient::State(s) => Some(s.clone()),
        _ => None,
    });
    assert_eq!(state.acked, 0);
    assert_eq!(server.handle.metrics().matches_started, 2);
}

#[test]
fn a_wrong_version_is_refused_in_words() {
    let server = Server::start(config());
    let mut p = Player::connect(server.handle.local_addr());
    p.send(&ToServer::Hello {
        version: VERSION + 1,
        name: "みらい".into(),
    });
    assert_eq!(
        p.next(),
        ToClient::Refused {
            why: Rejection::Version { server: VERSION }
        }
    );
    let closed = p.closed();
    assert_eq!(closed.code, 1000);
    assert!(closed.why.starts_with("protocol mismatch"), "{closed:?}");
    // A frame of another protocol version byte is the transport's to refuse: here a player
    // of version 3, whose frames were dynamic values behind byte 1.
    let mut q = Player::connect(server.handle.local_addr());
    let old_hello = Value::of(&ToServer::Hello {
        version: 3,
        name: "むかし".into(),
    })
    .unwrap();
    q.send_raw(Codec::new(1).encode(&old_hello).unwrap());
    let closed = q.closed();
    assert_eq!(
        (closed.code, closed.why.as_str()),
        (
            1002,
            "protocol mismatch: the server speaks protocol 4, the client 1"
        )
    );
    // A bad name, and a first message that is not a hello.
    let mut r = server.player("");
    assert_eq!(
        r.next(),
        ToClient::Refused {
            why: Rejection::Name
        }
    );
    assert_eq!(r.closed().code, 1000);
    let mut s = Player::connect(server.handle.local_addr());
    s.send(&ToServer::Queue);
    assert_eq!(
        s.next(),
        ToClient::Refused {
            why: Rejection::NotNow
        }
    );
    assert_eq!(s.closed().why, "the first message must be Hello");
}

#[test]
fn a_silent_connection_is_closed_after_the_hello_timeout() {
    let server = Server::start(config());
    let mut p = Player::connect(server.handle.local_addr());
    let closed = p.closed();
    assert_eq!(
        (closed.code, closed.why.as_str()),
        (1000, "no Hello within 400 ms")
    );
}

#[test]
fn a_full_server_refuses_clearly() {
    let mut cfg = config();
    cfg.max_players = 2;
    cfg.max_rooms = 1;
    let server = Server::start(cfg);
    let mut a = server.player("あお");
    let mut b = server.player("あか");
    a.send(&ToServer::Create);
    assert!(matches!(a.next(), ToClient::Waiting { code: Some(_) }));
    // One room is all there may be.
    b.send(&ToServer::Queue);
    assert_eq!(b.refused(), Rejection::Busy);
    // Two players are all there may be.
    let mut c = server.player("しろ");
    assert_eq!(c.refused(), Rejection::Busy);
    let closed = c.closed();
    assert_eq!(
        (closed.code, closed.why.as_str()),
        (1000, "the server is full")
    );
    assert_eq!(server.handle.metrics().refused_busy, 2);
    // Room again once one goes.
    a.ws.close(None).unwrap();
    let _ = a.closed();
    let deadline = Instant::now() + PATIENCE;
    while server.handle.metrics().players > 1 {
        assert!(Instant::now() < deadline, "the player is let go");
        std::thread::sleep(Duration::from_millis(10));
    }
    b.send(&ToServer::Queue);
    assert_eq!(b.next(), ToClient::Waiting { code: None });
    let mut d = server.player("くろ");
    d.send(&ToServer::Queue);
    assert_eq!(d.start().seat, 1);
}

#[test]
fn health_and_metrics_answer_over_http() {
    let mut cfg = config();
    cfg.metrics_bind = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
    let server = Server::start(cfg);
    let http = server.handle.metrics_addr().unwrap();
    let (_a, _b) = server.pair();
    let (status, body) = http_get(http, "/metrics");
    assert_eq!(status, 200);
    for line in [
        "kotodama_players 2\n",
        "kotodama_rooms 1\n",
        "kotodama_matches_started_total 1\n",
        "kotodama_player_capacity 10000\n",
        "# TYPE kotodama_move_ack_seconds summary\n",
    ] {
        assert!(body.contains(line), "{line:?} in {body}");
    }
    assert_eq!(http_get(http, "/nothing").0, 404);
    let mut stream = TcpStream::connect(http).unwrap();
    write!(stream, "POST /health HTTP/1.1\r\n\r\n").unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 405"), "{text}");
}

#[test]
fn a_close_code_from_the_player_reads_as_quitting() {
    let server = Server::start(config());
    let ((mut a, _), (mut b, _)) = server.pair();
    a.ws.close(Some(tungstenite::protocol::CloseFrame {
        code: CloseCode::Normal,
        reason: "bye".into(),
    }))
    .unwrap();
    assert_eq!(b.left(), Gone::Quit);
}

#[test]
fn a_transport_of_another_protocol_is_refused_at_start() {
    let mut cfg = config();
    cfg.transport.codec = Codec::new(2);
    let err = spawn(cfg).unwrap_err();
    assert!(err.to_string().contains("protocol 2"), "{err}");
}

#[test]
fn each_match_is_fought_on_a_named_board_both_players_are_told() {
    let small = ["#######", "#.....#", "#..か..#", "#.....#", "#######"];
    let rows: Vec<String> = small.iter().map(|r| r.to_string()).collect();
    let boards = vec![
        (
            "ひろば".to_string(),
            jengine_kotoba::content::battle_board(),
        ),
        (
            "こにわ".to_string(),
            jengine_kotoba::board::Board::from_rows(&rows).unwrap(),
        ),
    ];
    let server = Server::start(Config {
        boards: boards.clone(),
        ..config()
    });
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..8 {
        let ((_a, sa), (_b, sb)) = server.pair();
        assert_eq!(sa.board_name, sb.board_name);
        assert_eq!(sa.board, sb.board);
        let (_, board) = boards
            .iter()
            .find(|(name, _)| *name == sa.board_name)
            .expect("a board of the server's");
        assert_eq!(sa.board, board.rows());
        seen.insert(sa.board_name.clone());
    }
    assert_eq!(seen.len(), 2, "the seed takes both boards in eight matches");
}

#[test]
fn a_board_given_on_the_command_line_is_read_or_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let good = file("good.txt", "#######\n#.....#\n#..か..#\n#.....#\n#######\n");
    let (name, board) = kotodama_server::read_board(&format!("こにわ={good}")).unwrap();
    assert_eq!(name, "こにわ");
    assert_eq!(board.rows()[2], "#..か..#");
    let refused = |given: String, why: &str| {
        let e = kotodama_server::read_board(&given).unwrap_err();
        assert!(e.contains(why), "{given}: {e}");
    };
    refused(good.clone(), "NAME=FILE");
    refused(format!("={good}"), "board_name");
    refused(format!("a\u{7}b={good}"), "board_name");
    refused(format!("{}={good}", "な".repeat(200)), "board_name");
    refused("x=/nonexistent/board.txt".into(), "/nonexistent/board.txt");
    refused(
        format!("x={}", file("ragged.txt", "....\n..\n")),
        "ragged.txt",
    );
    refused(format!("x={}", file("empty.txt", "\n\n")), "empty.txt");
    refused(
        format!("x={}", file("huge.txt", &".".repeat(100_000))),
        "too big",
    );
}

/// The server holding a lost player's seat for `grace`.
fn holding(grace: Duration) -> Server {
    Server::start(Config {
        rejoin_grace: grace,
        ..config()
    })
}

#[test]
fn a_lost_player_comes_back_into_the_match_with_their_ticket() {
    let server = holding(Duration::from_secs(10));
    let ((a, sa), (mut b, sb)) = server.pair();
    assert_eq!(sa.ticket.len(), 32);
    assert_ne!(sa.ticket, sb.ticket);
    let seat = sa.seat;
    // No close frame: the socket just goes. The other is told the seat is held.
    drop(a);
    let (away, seconds) = b.until(|m| match m {
        ToClient::Away { seat, seconds } => Some((*seat, *seconds)),
        ToClient::Left { .. } => panic!("the seat was not held"),
        _ => None,
    });
    assert_eq!((away, seconds), (seat, 10.0));
    assert_eq!(server.handle.metrics().seats_held, 1);
    // The battle goes on meanwhile: the other still gets states.
    b.until(|m| matches!(m, ToClient::State(_)).then_some(()));
    // Back on a new connection, with the ticket: the same seat, board and battle.
    let mut c = server.player("あお");
    c.send(&ToServer::Rejoin {
        ticket: sa.ticket.clone(),
    });
    let again = c.start();
    assert_eq!(
        (again.seat, &again.board, &again.board_name, &again.ticket),
        (seat, &sa.board, &sa.board_name, &sa.ticket)
    );
    let state = c.until(|m| match m {
        ToClient::State(s) => Some(s.clone()),
        _ => None,
    });
    assert_eq!(state.acked, 0);
    let mut mirror = Mirror::new(dict(), &again).unwrap();
    mirror.apply_state(dict(), &state).unwrap();
    b.until(|m| (*m == ToClient::Back { seat }).then_some(()));
    let m = server.handle.metrics();
    assert_eq!((m.seats_held, m.rejoined, m.seats_given_up), (0, 1, 0));
    // Their moves count from 1 again, and are answered.
    let mv = loop {
        if let Some(mv) = some_placement(&mirror) {
            break mv;
        }
        let s = c.until(|m| match m {
            ToClient::State(s) => Some(s.clone()),
            _ => None,
        });
        mirror.apply_state(dict(), &s).unwrap();
    };
    c.send(&ToServer::Play { number: 1, mv });
    assert_eq!(c.acked(1).acked, 1);
    // Leaving now is leaving: the other wins by it.
    c.send(&ToServer::Leave);
    assert_eq!(b.left(), Gone::Quit);
    // The ticket opens nothing once the match is over.
    let mut d = server.player("あお");
    d.send(&ToServer::Rejoin { ticket: sa.ticket });
    assert_eq!(d.refused(), Rejection::NoSuchMatch);
}

#[test]
fn a_lost_player_who_does_not_come_back_in_time_has_left() {
    let server = holding(Duration::from_millis(300));
    let ((a, sa), (mut b, _)) = server.pair();
    drop(a);
    b.until(|m| matches!(m, ToClient::Away { .. }).then_some(()));
    assert_eq!(b.left(), Gone::Lost);
    let m = server.handle.metrics();
    assert_eq!((m.matches_finished, m.matches_running), (1, 0));
    assert_eq!((m.seats_held, m.rejoined, m.seats_given_up), (0, 0, 1));
    assert!(
        server
            .handle
            .metrics()
            .prometheus(10)
            .contains("kotodama_seats_given_up_total 1\n")
    );
    let mut c = server.player("あお");
    c.send(&ToServer::Rejoin { ticket: sa.ticket });
    assert_eq!(c.refused(), Rejection::NoSuchMatch);
}

#[test]
fn a_ticket_is_a_secret_of_one_seat_and_a_rejoin_takes_the_seat_over() {
    let server = holding(Duration::from_secs(10));
    let ((mut a, sa), (mut b, sb)) = server.pair();
    // Made-up tickets open nothing; tickets that are not tickets are refused as garbage.
    let mut x = server.player("くろ");
    x.send(&ToServer::Rejoin {
        ticket: "0123456789abcdef0123456789abcdef".into(),
    });
    assert_eq!(x.refused(), Rejection::NoSuchMatch);
    for bad in ["", "not hex at all", &"f".repeat(65)] {
        let mut y = server.player("くろ");
        y.send(&ToServer::Rejoin { ticket: bad.into() });
        assert!(y.closed().why.contains("ticket"), "{bad:?}");
    }
    // A player in a match cannot rejoin another seat.
    a.send(&ToServer::Rejoin {
        ticket: sb.ticket.clone(),
    });
    assert_eq!(a.refused(), Rejection::NotNow);
    // While `a` still seems connected (a connection half gone), a rejoin on a new one takes
    // the seat over: the old connection's moves are refused, and its end changes nothing.
    let mut c = server.player("あお");
    c.send(&ToServer::Rejoin {
        ticket: sa.ticket.clone(),
    });
    assert_eq!(c.start().seat, sa.seat);
    a.send(&ToServer::Again);
    assert_eq!(a.refused(), Rejection::NotNow);
    drop(a);
    std::thread::sleep(Duration::from_millis(200));
    c.send(&ToServer::Leave);
    // The first the other hears of a leaving is `c` quitting: `a` going was nothing.
    assert_eq!(b.left(), Gone::Quit);
}

#[test]
fn without_a_grace_a_start_has_no_ticket_and_a_lost_player_has_left() {
    let server = Server::start(config());
    let ((a, sa), (mut b, _)) = server.pair();
    assert!(sa.ticket.is_empty());
    drop(a);
    assert_eq!(b.left(), Gone::Lost);
}
