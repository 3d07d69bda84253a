//! Two Kotodama games, headless, play a match through a server on localhost: each connects
//! from the online scene, asks for a quick match, and they are paired; a move made in one
//! (a swap: the swapper is stunned) reaches the other through the room; the clocks run down
//! alike; and when one leaves, the other is told it won by it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jengine_testkit::{Game, Options, Renderer};
use kotodama_server::{Config, FleetConfig, spawn};
use serde_json::json;

#[path = "support/redis.rs"]
mod support;

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Kotodama on its online scene, its save naming the server `url` and the player `name`. A key
/// steps only its own two frames; the lobby golden is under this crate's `tests/golden/`.
fn game(url: &str, name: &str, dir: &Path) -> Game {
    let save = serde_json::json!({ "server": url, "name": name });
    std::fs::write(dir.join("save.json"), save.to_string()).unwrap();
    let options = Options {
        scene: Some("online".into()),
        save_dir: Some(dir.to_path_buf()),
        ..Options::default()
    };
    Game::open(project(), &jengine_kotoba::packages(), options)
        .settling(0)
        .goldens(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden"),
        )
}

/// The table's `kotoba` bag.
fn kotoba(game: &Game) -> serde_json::Value {
    game.bag("table", "kotoba")
}

/// Steps both games (real time passing, for the network) until `done` holds.
fn until(a: &mut Game, b: &mut Game, what: &str, done: impl Fn(&Game, &Game) -> bool) {
    let start = Instant::now();
    while !done(a, b) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "waited for {what}: A says {:?}, B says {:?}",
            a.text("lobby_status"),
            b.text("lobby_status")
        );
        a.step(&[]);
        b.step(&[]);
        std::thread::sleep(Duration::from_millis(4));
    }
}

/// A TCP relay in front of the server whose connections can be cut at once, with no close
/// frame either way: a connection lost, as a dropped Wi-Fi loses one.
struct Relay {
    port: u16,
    open: std::sync::Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
}

impl Relay {
    fn start(to: std::net::SocketAddr) -> Relay {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = open.clone();
        std::thread::spawn(move || {
            for near in listener.incoming().flatten() {
                let Ok(far) = std::net::TcpStream::connect(to) else {
                    continue;
                };
                let mut list = kept.lock().unwrap();
                list.push(near.try_clone().unwrap());
                list.push(far.try_clone().unwrap());
                for (mut from, mut into) in [
                    (near.try_clone().unwrap(), far.try_clone().unwrap()),
                    (far, near),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut into);
                        let _ = into.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Relay { port, open }
    }

    fn url(&self) -> String {
        format!("ws://127.0.0.1:{}/", self.port)
    }

    /// Cuts every connection through the relay; new ones may still be made.
    fn cut(&self) {
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

#[test]
fn two_games_play_a_match_through_the_server() {
    let config = Config {
        log_matches: false,
        ..Config::default()
    };
    let (server, _thread) = spawn(config).unwrap();
    let url = server.url();
    // A's connection goes through a relay that can lose it.
    let relay = Relay::start(server.local_addr());
    let dirs = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = game(&relay.url(), "aoi", dirs.0.path());
    let mut b = game(&url, "ben", dirs.1.path());
    until(&mut a, &mut b, "both to connect", |a, b| {
        a.text("lobby_status").starts_with("Connected")
            && b.text("lobby_status").starts_with("Connected")
    });
    // Quick match, from both lobbies (the first button is focused).
    a.key("enter");
    until(&mut a, &mut b, "A to wait", |a, _| {
        a.text("lobby_status").starts_with("Waiting")
    });
    b.key("enter");
    until(&mut a, &mut b, "the match", |a, b| {
        kotoba(a)["online"] == true
            && kotoba(b)["online"] == true
            && kotoba(a)["active"] == true
            && kotoba(b)["active"] == true
    });
    let (ka, kb) = (kotoba(&a), kotoba(&b));
    assert_ne!(ka["seat"], kb["seat"], "two seats");
    // Both are told the board the room plays on, and the table says it.
    assert_eq!(
        (&ka["board"], &kb["board"]),
        (&json!("ひろば"), &json!("ひろば"))
    );
    a.step(&[]);
    assert_eq!(a.text("board_name"), "on ひろば");
    let names: Vec<String> = ka["fighters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_string())
        .collect();
    assert!(
        names.contains(&"aoi".to_string()) && names.contains(&"ben".to_string()),
        "{names:?}"
    );
    until(&mut a, &mut b, "the fight", |a, b| {
        kotoba(a)["phase"] == "fight" && kotoba(b)["phase"] == "fight"
    });
    // The match as A sees it draws without a warning (written out to be looked at; the room's
    // timing makes the clock and sea differ run to run, so it is no golden).
    let mut renderer = Renderer::new(&project().join("assets"));
    renderer.preload(&a.world);
    let frame = renderer.render(&a.world, 1280, 720);
    assert!(renderer.take_warnings().is_empty());
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("online-match.png");
    frame.save_png(&shot).unwrap();
    // A swaps a tile: A is stunned, in A's game at once and in B's through the room.
    let seat_a = ka["seat"].as_u64().unwrap() as usize;
    // The room's clock rules: a tick after the fight began there too.
    let settle = Instant::now();
    while settle.elapsed() < Duration::from_millis(300) {
        a.step(&[]);
        b.step(&[]);
        std::thread::sleep(Duration::from_millis(4));
    }
    a.key("1");
    a.key("s");
    a.step(&[]);
    let log: Vec<String> = a.take_log().into_iter().map(|l| l.message).collect();
    assert!(log.is_empty(), "{log:?}");
    until(&mut a, &mut b, "B to see A stunned", |_, b| {
        kotoba(b)["fighters"][seat_a - 1]["stun"]
            .as_f64()
            .unwrap_or(0.0)
            > 0.0
    });
    assert!(kotoba(&a)["fighters"][seat_a - 1]["stun"].as_f64().unwrap() > 0.0);
    // The clocks run alike (within a tick).
    let (ta, tb) = (
        kotoba(&a)["time_left"].as_f64().unwrap(),
        kotoba(&b)["time_left"].as_f64().unwrap(),
    );
    assert!((ta - tb).abs() < 0.5, "{ta} vs {tb}");
    assert_eq!(server.metrics().rooms, 1);
    // A's connection is lost: B is shown that A's seat is held; A connects again and takes
    // the seat back with the match's ticket, and the battle goes on for both.
    relay.cut();
    until(&mut a, &mut b, "B to hear A dropped", |_, b| {
        kotoba(b)["away"].is_number()
    });
    b.step(&[]);
    let frame = renderer.render(&b.world, 1280, 720);
    assert!(renderer.take_warnings().is_empty());
    frame
        .save_png(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("online-away.png"))
        .unwrap();
    assert!(
        b.text("banner_why").contains("aoi's connection dropped"),
        "{}",
        b.text("banner_why")
    );
    until(&mut a, &mut b, "A back in the match", |a, b| {
        kotoba(b)["away"].is_null()
            && kotoba(a)["online"] == true
            && kotoba(a)["active"] == true
            && a.text("lobby_status").contains("taking your seat back")
    });
    until(&mut a, &mut b, "A's mirror to catch up", |a, b| {
        let (ta, tb) = (
            kotoba(a)["time_left"].as_f64().unwrap(),
            kotoba(b)["time_left"].as_f64().unwrap(),
        );
        (ta - tb).abs() < 0.5
    });
    assert_eq!(kotoba(&a)["seat"].as_u64().unwrap() as usize, seat_a);
    assert_eq!(server.metrics().rooms, 1);
    // B leaves: A is told, and wins by it.
    b.key("escape");
    until(&mut a, &mut b, "A to hear B left", |a, _| {
        a.text("lobby_status").contains("left the room")
    });
    assert_eq!(b.scene(), "title");
    // A goes back to the lobby without a restart.
    a.key("enter");
    a.step(&[]);
    assert!(
        a.text("lobby_status").starts_with("Choose"),
        "{}",
        a.text("lobby_status")
    );
    server.shutdown();
}

/// The lobby once connected, at a fixed frame: the game steps once (it starts connecting), the
/// test waits in real time until the server has the player and their hello, and the rest of
/// the frames are stepped after, so the picture is the same every run.
#[test]
fn the_online_lobby_matches_its_golden() {
    let config = Config {
        log_matches: false,
        ..Config::default()
    };
    let (server, _thread) = spawn(config).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut a = game(&server.url(), "aoi", dir.path());
    a.step(&[]);
    let start = Instant::now();
    while server.metrics().players < 1 {
        assert!(start.elapsed() < Duration::from_secs(20), "never connected");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    for _ in 1..90 {
        a.step(&[]);
    }
    assert!(
        a.text("lobby_status").starts_with("Connected"),
        "{}",
        a.text("lobby_status")
    );
    // The server's port is any free one: the picture shows the usual address instead.
    let shown = a.find("lobby_server").unwrap();
    a.world
        .entities
        .get::<&mut jengine::Text>(shown)
        .unwrap()
        .text = "server ws://127.0.0.1:7777/".into();
    a.golden("online_lobby");
    server.shutdown();
}

/// Two games whose lobbies are two processes of a fleet: the quick match places the room on
/// one of them, the other game is sent there and follows without a word but "Joining the
/// room...", and they play. When the room's process is lost for good, the game that was sent
/// there finds its way back through its own lobby and reads it as the other player leaving.
#[test]
fn two_games_meet_across_a_fleet_and_a_lost_room_reads_as_leaving() {
    let Some(redis) = support::Redis::start() else {
        return;
    };
    let server = |seed: u64| {
        let port = support::free_port();
        let mut fleet = FleetConfig::new(&redis.url(), &format!("127.0.0.1:{port}"));
        fleet.heartbeat = Duration::from_millis(150);
        fleet.reservation = Duration::from_millis(3000);
        let config = Config {
            bind: ([127, 0, 0, 1], port).into(),
            log_matches: false,
            seed,
            fleet: Some(fleet),
            ..Config::default()
        };
        let (handle, _thread) = spawn(config).unwrap();
        support::eventually("the process joins the fleet", || {
            handle.lobby_up().then_some(())
        });
        handle
    };
    let servers = [server(1), server(2)];
    let dirs = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut a = game(&servers[0].url(), "aoi", dirs.0.path());
    let mut b = game(&servers[1].url(), "ben", dirs.1.path());
    until(&mut a, &mut b, "both to connect", |a, b| {
        a.text("lobby_status").starts_with("Connected")
            && b.text("lobby_status").starts_with("Connected")
    });
    a.key("enter");
    until(&mut a, &mut b, "A to wait", |a, _| {
        a.text("lobby_status").starts_with("Waiting")
    });
    b.key("enter");
    until(&mut a, &mut b, "the match", |a, b| {
        kotoba(a)["online"] == true
            && kotoba(b)["online"] == true
            && kotoba(a)["active"] == true
            && kotoba(b)["active"] == true
    });
    assert_ne!(kotoba(&a)["seat"], kotoba(&b)["seat"], "two seats");
    // One of the two was sent to the other's process; all it was told was that it joins.
    let url = |g: &Game| g.bag("net", "Online")["url"].as_str().unwrap().to_string();
    assert_eq!(url(&a), url(&b), "both play in one room");
    let host = servers
        .iter()
        .position(|s| s.url() == url(&a))
        .expect("the room is on a process of the fleet");
    let (mut sent, mut stayed) = if host == 0 { (b, a) } else { (a, b) };
    assert_eq!(sent.text("lobby_status"), "Joining the room...");
    // The processes count it: the redirect on one side, the seats claimed on the room's.
    let figures = |i: usize| servers[i].metrics().fleet.expect("a fleet process");
    assert!(figures(1 - host).redirects >= 1 || figures(host).redirects >= 1);
    assert!(figures(host).claims >= 1);
    assert!(figures(host).lobby_up);
    until(&mut sent, &mut stayed, "the fight", |a, b| {
        kotoba(a)["phase"] == "fight" && kotoba(b)["phase"] == "fight"
    });
    // The room's process is lost: the game that was sent there reads it as the other player
    // leaving, once the fleet has let the process go.
    servers[host].shutdown();
    until(
        &mut sent,
        &mut stayed,
        "the match to end for the one sent",
        |a, _| a.text("lobby_status").contains("left the room"),
    );
    sent.key("enter");
    sent.step(&[]);
    assert!(
        sent.text("lobby_status").starts_with("Choose"),
        "{}",
        sent.text("lobby_status")
    );
}
