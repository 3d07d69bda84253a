//! A fleet of room-server processes on 127.0.0.1 sharing one lobby through a Redis the test
//! starts itself (`redis-server` on a free port, nothing saved): quick matches spread over
//! three processes, a named room joined from another, a process killed mid-match, Redis
//! stopped and started again, and reservations replayed, faked or let lapse.
//!
//! Without `redis-server` each test says plainly that it skipped, unless
//! `JENGINE_REQUIRE_REDIS=1` (as in CI), where that is a failure. Where the test must wait for
//! real time to pass (a heartbeat's entry expiring, a reservation's deadline) the times are
//! cut short on the command line and the test polls for the outcome with a generous deadline.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use jengine_kotoba::battle::Move;
use jengine_kotoba::net::{
    Received, Redirect, Rejection, Start, State, ToClient, ToServer, VERSION,
};
use jengine_net::Codec;
use redis::Commands;
use tungstenite::{Message, WebSocket};

#[path = "support/redis.rs"]
mod support;
use support::{PATIENCE, Redis, eventually, free_port};

/// The processes' heartbeat in these tests: their entry lives three beats.
const HEARTBEAT_MS: u64 = 150;
/// How long a reserved seat waits in these tests.
const RESERVATION_MS: u64 = 1500;

/// One `kotodama-server` process of the fleet, killed when dropped.
struct Process {
    child: Child,
    port: u16,
    id: String,
}

impl Process {
    fn start(redis: &Redis, seed: u64) -> Process {
        Process::start_with(redis, seed, &[])
    }

    /// A process started with more flags of its own.
    fn start_with(redis: &Redis, seed: u64, extra: &[&str]) -> Process {
        let port = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_kotodama-server"))
            .args(extra)
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--metrics-port", "0", "--workers", "1", "--quiet"])
            .args(["--no-countdown", "--hello-seconds", "3", "--seed"])
            .arg(seed.to_string())
            .args(["--rejoin-seconds", "5", "--redis", &redis.url()])
            .args(["--public-address", &format!("127.0.0.1:{port}")])
            .args(["--heartbeat-ms", &HEARTBEAT_MS.to_string()])
            .args(["--reservation-ms", &RESERVATION_MS.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server binary starts");
        let (tx, rx) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(id) = line
                    .strip_prefix("event=listening ")
                    .and_then(|l| l.split("fleet=").nth(1))
                {
                    let _ = tx.send(id.trim().to_string());
                } else {
                    // What the process says besides, for a test that fails.
                    eprintln!("[{port}] {line}");
                }
            }
        });
        let id = rx
            .recv_timeout(PATIENCE)
            .expect("the server says it listens");
        let process = Process { child, port, id };
        eventually("the process registers in the fleet", || {
            let score: Option<f64> = redis
                .connection()
                .ok()?
                .zscore("kotodama:load", &process.id)
                .ok()?;
            score.map(|_| ())
        });
        process
    }

    fn address(&self) -> String {
        format!("ws://127.0.0.1:{}/", self.port)
    }

    fn player(&self, name: &str) -> Player {
        Player::hello(&self.address(), name)
    }

    fn kill(&mut self) {
        let _ = self.child.kill(); // SIGKILL
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A fleet of `n` processes on one Redis.
fn fleet(redis: &Redis, n: usize) -> Vec<Process> {
    (0..n)
        .map(|i| Process::start(redis, 11 + i as u64))
        .collect()
}

/// A player's blocking socket, read with deadlines.
struct Player {
    ws: WebSocket<TcpStream>,
    codec: Codec,
    name: String,
    /// Where the player is connected now.
    at: String,
    /// The room's states as sent so far.
    received: Received,
}

impl Player {
    fn connect(address: &str, name: &str) -> Player {
        let host = address
            .strip_prefix("ws://")
            .and_then(|a| a.strip_suffix('/'))
            .expect("a ws:// address");
        let stream = TcpStream::connect(host).unwrap();
        // The handshake waits as long as it takes (hundreds of players connect at once);
        // the frames after it are read with a short timeout, to poll with deadlines.
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let (ws, _) = tungstenite::client(address, stream).unwrap();
        ws.get_ref()
            .set_read_timeout(Some(Duration::from_millis(20)))
            .unwrap();
        Player {
            ws,
            codec: Codec::new(kotodama_server::PROTOCOL),
            received: Received::default(),
            name: name.to_string(),
            at: address.to_string(),
        }
    }

    fn hello(address: &str, name: &str) -> Player {
        let mut p = Player::connect(address, name);
        p.send(&ToServer::Hello {
            version: VERSION,
            name: name.into(),
        });
        p
    }

    fn send(&mut self, msg: &ToServer) {
        let bytes = self.codec.encode(msg).unwrap();
        self.ws.send(Message::Binary(bytes.into())).unwrap();
    }

    /// The next message; `None` if the connection ended or nothing came within `within`.
    fn read(&mut self, within: Duration) -> Option<ToClient> {
        let deadline = Instant::now() + within;
        loop {
            match self.ws.read() {
                Ok(Message::Binary(bytes)) => {
                    let msg: ToClient = self.codec.decode(&bytes).expect("a message");
                    msg.validate().expect("a valid message");
                    // A change of state is read as the state it makes, as a player's mirror
                    // does.
                    let msg = self.received.read(msg).expect("a change that fits");
                    return Some(msg);
                }
                Ok(Message::Close(_)) => return None,
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
                Err(_) => return None,
            }
        }
    }

    /// Skips messages until `pick` takes one.
    fn until<T>(&mut self, what: &str, mut pick: impl FnMut(&ToClient) -> Option<T>) -> T {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read(left) {
                Some(msg) => {
                    if let Some(t) = pick(&msg) {
                        return t;
                    }
                }
                None => panic!("{}: no {what} within {PATIENCE:?}", self.name),
            }
        }
    }

    fn refused(&mut self) -> Rejection {
        self.until("refusal", |m| match m {
            ToClient::Refused { why } => Some(*why),
            _ => None,
        })
    }

    fn redirect(&mut self) -> Redirect {
        self.until("redirect", |m| match m {
            ToClient::Redirect(r) => Some(r.clone()),
            _ => None,
        })
    }

    fn waiting(&mut self) -> Option<String> {
        self.until("Waiting", |m| match m {
            ToClient::Waiting { code } => Some(code.clone()),
            _ => None,
        })
    }

    /// Follows the lobby to a `Start`: a redirect is followed at once, as a game does, on a
    /// new connection that claims the reserved seat.
    fn start(&mut self) -> Start {
        loop {
            let got = self.until("Start or redirect", |m| match m {
                ToClient::Start(s) => Some(Ok(s.clone())),
                ToClient::Redirect(r) => Some(Err(r.clone())),
                _ => None,
            });
            match got {
                Ok(start) => return start,
                Err(redirect) => self.follow(&redirect),
            }
        }
    }

    /// Connects where a redirect says and claims the seat.
    fn follow(&mut self, redirect: &Redirect) {
        *self = Player::hello(&redirect.address, &self.name);
        self.send(&ToServer::Claim {
            reservation: redirect.reservation.clone(),
        });
    }

    /// Swaps its first tile as move `number` and waits for the state that answers it.
    fn play(&mut self, number: u32) -> State {
        self.send(&ToServer::Play {
            number,
            mv: Move::Swap { slot: 0 },
        });
        self.until("answering state", |m| match m {
            ToClient::State(s) if s.acked >= number => Some(s.clone()),
            _ => None,
        })
    }
}

/// Both players of a quick match to their `Start`s, at once: either may be the one sent on,
/// and the other waits for them.
fn both_start(a: Player, b: Player) -> ((Player, Start), (Player, Start)) {
    let other = std::thread::spawn(move || {
        let mut b = b;
        let start = b.start();
        (b, start)
    });
    let mut a = a;
    let start = a.start();
    ((a, start), other.join().unwrap())
}

#[test]
fn three_processes_match_two_hundred_players_spread_across_them() {
    let Some(redis) = Redis::start() else { return };
    let procs = fleet(&redis, 3);
    let addresses: Vec<String> = procs.iter().map(Process::address).collect();
    // Every player is kept until all have played: one leaving early would end its match.
    let players: Vec<_> = (0..200)
        .map(|i| {
            let home = addresses[i % 3].clone();
            std::thread::spawn(move || {
                let mut p = Player::hello(&home, &format!("p{i}"));
                p.send(&ToServer::Queue);
                let start = p.start();
                // The room answers a move wherever it was placed.
                assert_eq!(p.play(1).acked, 1);
                let at = p.at.clone();
                (home, at, start.seed, start.seat, p)
            })
        })
        .collect();
    let results: Vec<_> = players.into_iter().map(|t| t.join().unwrap()).collect();
    let mut matches = std::collections::HashMap::<(String, u64), Vec<usize>>::new();
    for (_, at, seed, seat, _) in &results {
        matches.entry((at.clone(), *seed)).or_default().push(*seat);
    }
    assert_eq!(
        matches.len(),
        100,
        "two hundred players make a hundred matches"
    );
    for seats in matches.values() {
        let mut seats = seats.clone();
        seats.sort();
        assert_eq!(seats, [0, 1], "each match has both its seats, in one room");
    }
    for address in &addresses {
        assert!(
            results.iter().any(|(_, at, _, _, _)| at == address),
            "rooms were placed on {address} too"
        );
    }
    assert!(
        results.iter().any(|(home, at, _, _, _)| home != at),
        "some players were sent to another process"
    );
}

/// A process with no room for two more players is passed over, however lightly loaded: the
/// room goes where it fits and both players play there.
#[test]
fn a_process_without_room_for_a_match_is_not_given_one() {
    let Some(redis) = Redis::start() else { return };
    let full = Process::start_with(&redis, 31, &["--max-players", "1"]);
    let roomy = Process::start(&redis, 32);
    // The small process must have said what it holds before the match is made.
    eventually("the small process says what it can hold", || {
        let cap: Option<u64> = redis
            .connection()
            .ok()?
            .hget("kotodama:cap", &full.id)
            .ok()?;
        (cap == Some(1)).then_some(())
    });
    let mut a = roomy.player("a");
    let mut b = roomy.player("b");
    a.send(&ToServer::Queue);
    b.send(&ToServer::Queue);
    let ((mut a, _), (mut b, _)) = both_start(a, b);
    assert_eq!(a.at, roomy.address());
    assert_eq!(b.at, roomy.address());
    assert_eq!(a.play(1).acked, 1);
    assert_eq!(b.play(1).acked, 1);
}

#[test]
fn a_named_room_is_joined_from_another_process() {
    let Some(redis) = Redis::start() else { return };
    let procs = fleet(&redis, 3);
    let mut host = procs[0].player("あお");
    host.send(&ToServer::Create);
    let code = host.waiting().expect("a named room has a code");
    assert!(redis.exists(&format!("kotodama:code:{code}")));

    let mut unknown = procs[2].player("しろ");
    unknown.send(&ToServer::Join {
        code: "ZZZZ9".into(),
    });
    assert_eq!(unknown.refused(), Rejection::NoSuchRoom);

    let mut guest = procs[1].player("あか");
    guest.send(&ToServer::Join {
        code: code.to_ascii_lowercase(),
    });
    let redirect = guest.redirect();
    assert_eq!(redirect.address, procs[0].address());
    // While the guest is on the way the seat is theirs: a third player finds the room full.
    let mut third = procs[2].player("くろ");
    third.send(&ToServer::Join { code: code.clone() });
    assert_eq!(third.refused(), Rejection::Full);

    guest.follow(&redirect);
    let sg = guest.start();
    let sh = host.start();
    assert_eq!((sh.seat, sg.seat), (0, 1));
    assert_eq!(sh.seed, sg.seed);
    assert_eq!(guest.play(1).acked, 1);

    // The reservation was good once: replayed on a new connection, it is refused.
    let mut replay = Player::hello(&redirect.address, "まね");
    replay.send(&ToServer::Claim {
        reservation: redirect.reservation.clone(),
    });
    assert_eq!(replay.refused(), Rejection::NoSuchSeat);
    // The match goes on for both.
    assert_eq!(host.play(1).acked, 1);
}

#[test]
fn reservations_are_good_once_before_their_deadline_and_never_made_up() {
    let Some(redis) = Redis::start() else { return };
    let procs = fleet(&redis, 2);
    let mut a = procs[0].player("あお");
    a.send(&ToServer::Queue);
    assert_eq!(a.waiting(), None);
    let mut b = procs[1].player("あか");
    b.send(&ToServer::Queue);
    // Whichever process the room went to, both end up there and play.
    let ((a, sa), (b, sb)) = both_start(a, b);
    assert_eq!(sa.seed, sb.seed);
    assert_eq!(a.at, b.at);

    // A reservation nobody made, and one of another process, are refused on every process.
    for p in &procs {
        let mut fake = p.player("にせ");
        fake.send(&ToServer::Claim {
            reservation: "0123456789abcdef0123456789abcdef".into(),
        });
        assert_eq!(fake.refused(), Rejection::NoSuchSeat);
    }
    let mut conn = redis.connection().unwrap();
    let key = "kotodama:resv:00000000000000000000000000000abc";
    let _: () = conn
        .set_ex(key, format!("{}|q|somewhere", procs[0].id), 60)
        .unwrap();
    let mut elsewhere = procs[1].player("よそ");
    elsewhere.send(&ToServer::Claim {
        reservation: "00000000000000000000000000000abc".into(),
    });
    assert_eq!(elsewhere.refused(), Rejection::NoSuchSeat);
    assert!(
        redis.exists(key),
        "a claim on the wrong process uses nothing up"
    );

    // A seat past its deadline is refused.
    let late = "00000000000000000000000000000def";
    let _: () = conn
        .pset_ex(
            format!("kotodama:resv:{late}"),
            format!("{}|q|late", procs[0].id),
            50,
        )
        .unwrap();
    eventually("the reservation lapses", || {
        (!redis.exists(&format!("kotodama:resv:{late}"))).then_some(())
    });
    let mut tardy = procs[0].player("おそい");
    tardy.send(&ToServer::Claim {
        reservation: late.into(),
    });
    assert_eq!(tardy.refused(), Rejection::NoSuchSeat);

    // A player whose partner never arrives is put back in line when the seat frees, and
    // matched with the next one to come.
    let lone = "00000000000000000000000000000123";
    let _: () = conn
        .pset_ex(
            format!("kotodama:resv:{lone}"),
            format!("{}|q|lonely-room", procs[0].id),
            RESERVATION_MS,
        )
        .unwrap();
    let mut c = procs[0].player("ひとり");
    c.send(&ToServer::Claim {
        reservation: lone.into(),
    });
    assert_eq!(c.waiting(), None, "in the placed room, waiting");
    assert_eq!(
        c.waiting(),
        None,
        "back in the line once the other seat freed"
    );
    let mut d = procs[1].player("つぎ");
    d.send(&ToServer::Queue);
    let ((_c, sc), (_d, sd)) = both_start(c, d);
    assert_eq!(sc.seed, sd.seed);
}

#[test]
fn a_process_killed_mid_match_is_swept_and_the_others_play_on() {
    let Some(redis) = Redis::start() else { return };
    let mut procs = fleet(&redis, 3);
    // A match on process 0, its guest sent there from process 1.
    let mut a = procs[0].player("あお");
    a.send(&ToServer::Create);
    let code_a = a.waiting().unwrap();
    let mut b = procs[1].player("あか");
    b.send(&ToServer::Join {
        code: code_a.clone(),
    });
    let sb = b.start();
    a.start();
    assert_eq!(b.at, procs[0].address());
    // A match on process 1.
    let mut c = procs[1].player("しろ");
    c.send(&ToServer::Create);
    let code_c = c.waiting().unwrap();
    let mut d = procs[2].player("くろ");
    d.send(&ToServer::Join { code: code_c });
    d.start();
    c.start();
    // A named room waiting on process 0, and a seat reserved there that nobody claims yet.
    let mut e = procs[0].player("みどり");
    e.send(&ToServer::Create);
    let code_e = e.waiting().unwrap();
    let mut f = procs[0].player("きいろ");
    f.send(&ToServer::Create);
    let code_f = f.waiting().unwrap();
    let mut g = procs[2].player("あい");
    g.send(&ToServer::Join {
        code: code_f.clone(),
    });
    let reserved = g.redirect();
    let dead = procs[0].id.clone();
    assert!(redis.exists(&format!("kotodama:code:{code_e}")));
    assert!(redis.exists(&format!("kotodama:resv:{}", reserved.reservation)));

    procs[0].kill();

    // Its entry expires and the others sweep its codes and reservations away.
    eventually("the killed process is swept", || {
        let mut conn = redis.connection().ok()?;
        let member: bool = conn.sismember("kotodama:procs", &dead).ok()?;
        (!member).then_some(())
    });
    assert!(!redis.exists(&format!("kotodama:proc:{dead}")));
    assert!(!redis.exists(&format!("kotodama:code:{code_a}")));
    assert!(!redis.exists(&format!("kotodama:code:{code_e}")));
    assert!(!redis.exists(&format!("kotodama:resv:{}", reserved.reservation)));
    let mut late = procs[2].player("おそい");
    late.send(&ToServer::Join { code: code_e });
    assert_eq!(late.refused(), Rejection::NoSuchRoom);

    // A player of its match, back through another process with their ticket, is told the
    // match ended.
    let mut back = procs[1].player("あか");
    back.send(&ToServer::Rejoin {
        ticket: sb.ticket.clone(),
    });
    assert_eq!(back.refused(), Rejection::NoSuchMatch);

    // The match on process 1 goes on, and new matches are made on the two left.
    assert_eq!(c.play(1).acked, 1);
    assert_eq!(d.play(1).acked, 1);
    let mut h = procs[1].player("はる");
    h.send(&ToServer::Queue);
    let mut i = procs[2].player("なつ");
    i.send(&ToServer::Queue);
    let ((h, sh), (_i, si)) = both_start(h, i);
    assert_eq!(sh.seed, si.seed);
    assert_ne!(h.at, procs[0].address());
}

#[test]
fn redis_stopped_and_started_again() {
    let Some(mut redis) = Redis::start() else {
        return;
    };
    let procs = fleet(&redis, 2);
    let mut a = procs[0].player("あお");
    a.send(&ToServer::Create);
    let code = a.waiting().unwrap();
    let mut b = procs[1].player("あか");
    b.send(&ToServer::Join { code });
    b.start();
    a.start();
    // A named room waiting when the lobby goes.
    let mut w = procs[1].player("まち");
    w.send(&ToServer::Create);
    let waiting_code = w.waiting().unwrap();

    redis.stop();

    // New matches are refused with the reason; the running one goes on.
    let mut c = procs[0].player("しろ");
    let why = eventually("a new match is refused", || {
        c.send(&ToServer::Queue);
        match c.read(PATIENCE) {
            Some(ToClient::Refused { why }) => Some(why),
            _ => None,
        }
    });
    assert_eq!(why, Rejection::LobbyDown);
    c.send(&ToServer::Create);
    assert_eq!(c.refused(), Rejection::LobbyDown);
    assert_eq!(a.play(1).acked, 1);
    assert_eq!(b.play(1).acked, 1);

    assert!(redis.spawn(), "redis-server starts again");

    // Both processes join again: a quick match across them is made, and the named room that
    // waited through the outage can be joined again.
    eventually("both processes are back in the fleet", || {
        let mut conn = redis.connection().ok()?;
        let n: usize = conn.zcard("kotodama:load").ok()?;
        (n == 2).then_some(())
    });
    eventually("the waiting room's code is back", || {
        redis
            .exists(&format!("kotodama:code:{waiting_code}"))
            .then_some(())
    });
    let mut d = procs[0].player("くろ");
    let mut e = procs[1].player("みどり");
    d.send(&ToServer::Queue);
    eventually("the lobby takes players again", || match d.read(PATIENCE) {
        Some(ToClient::Waiting { .. }) => Some(()),
        Some(ToClient::Refused { .. }) => {
            d.send(&ToServer::Queue);
            None
        }
        _ => None,
    });
    e.send(&ToServer::Queue);
    let ((_d, sd), (_e, se)) = both_start(d, e);
    assert_eq!(sd.seed, se.seed);
    let mut j = procs[0].player("きいろ");
    j.send(&ToServer::Join { code: waiting_code });
    let sj = j.start();
    let sw = w.start();
    assert_eq!(sj.seed, sw.seed);
    // The match that ran through the outage is still on.
    assert_eq!(a.play(2).acked, 2);
}
