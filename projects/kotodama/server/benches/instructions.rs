//! Instruction counts of the room server's hot paths, under callgrind: a count a busy machine
//! does not disturb, so figures compare across runs and machines of one architecture.
//!
//! `cargo bench -p kotodama-server --bench instructions` (needs `valgrind`). The bench runs
//! itself under `valgrind --tool=callgrind`, once per case and size, counting only inside the
//! case's `measured_` function. Each case runs at two sizes and the figure is the difference
//! divided by the difference in units, so what surrounds the units (making the case, the first
//! call's warm-up) is not spread over them.

use std::process::Command;
use std::time::Duration;

use jengine_kotoba::battle::{Battle, Move, Phase};
use jengine_kotoba::board::Board;
use jengine_kotoba::dict::Dict;
use jengine_kotoba::kana::TileStats;
use jengine_kotoba::legal_moves;
use jengine_kotoba::net::{State, ToClient, ToServer, state_for};
use jengine_net::{Codec, Connection, Sender, ServerConfig};
use kotodama_server::hot::{self, PlayingRoom};
use kotodama_server::{Config, PROTOCOL};

/// The cases: name, what one unit is, and the two sizes run.
const CASES: [(&str, &str, [u64; 2]); 6] = [
    (
        "state_encode",
        "a state: the battle read into a State, made a frame and encoded to the bytes sent",
        [100, 1_100],
    ),
    (
        "state_frame",
        "the first part of that alone: the battle read into a State, not encoded",
        [100, 1_100],
    ),
    (
        "state_decode",
        "a state's bytes decoded back into a ToClient, as a player reads it",
        [100, 1_100],
    ),
    (
        "move_read",
        "a player's Play frame: its bytes decoded and read as a checked ToServer",
        [100, 1_100],
    ),
    (
        "room_move",
        "a move in a room of two: clock moved on, a legal placement applied, a state to each seat, the events",
        [8, 40],
    ),
    (
        "room_tick",
        "a beat of a room's clock with no move: time moved on, a state to each seat",
        [100, 1_100],
    ),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if let (Some(case), Some(n)) = (value("--case"), value("--n")) {
        let n: u64 = n.parse().expect("--n is a count");
        run_case(&case, n);
        return;
    }
    // `cargo test --benches` runs a bench binary too; the counting is only for `cargo bench`.
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let opening = state_bytes(&battle()).len();
    let players = players();
    let room = playing_room(&players);
    play_moves(&room, 40);
    let later = Codec::new(PROTOCOL)
        .encode(&ToClient::State(
            room.state().expect("a battle in the room"),
        ))
        .expect("a state encodes")
        .len();
    println!(
        "a state is {opening} bytes on the wire at a battle's opening (board ひろば), {later} after 40 moves; a move's frame {} bytes",
        play_bytes().len()
    );
    let me = std::env::current_exe().expect("the bench knows where it is");
    for (case, unit, sizes) in CASES {
        let counts: Vec<u64> = sizes.iter().map(|&n| count(&me, case, n)).collect();
        let per = (counts[1] as f64 - counts[0] as f64) / (sizes[1] - sizes[0]) as f64;
        println!("{case:<13} {per:>9.0} instructions  {unit}");
    }
}

/// Instructions callgrind counts inside the case's function, for `n` units.
fn count(me: &std::path::Path, case: &str, n: u64) -> u64 {
    let out = std::env::temp_dir().join(format!(
        "kotodama-instructions-{}-{case}-{n}.out",
        std::process::id()
    ));
    let status = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=*measured_*",
            &format!("--callgrind-out-file={}", out.display()),
        ])
        .arg(me)
        .args(["--case", case, "--n", &n.to_string()])
        .output()
        .unwrap_or_else(|e| {
            eprintln!("instruction counts need valgrind (apt-get install valgrind): {e}");
            std::process::exit(1)
        });
    if !status.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&status.stderr));
        panic!("the {case} case failed under callgrind");
    }
    let text = std::fs::read_to_string(&out).expect("callgrind wrote its counts");
    let _ = std::fs::remove_file(&out);
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals: ")
                .or_else(|| l.strip_prefix("summary: "))
        })
        .and_then(|t| t.trim().parse().ok())
        .expect("callgrind's counts have a total")
}

fn run_case(case: &str, n: u64) {
    match case {
        "state_encode" => state_encode(n),
        "state_frame" => state_frame(n),
        "state_decode" => state_decode(n),
        "move_read" => move_read(n),
        "room_move" => room_move(n),
        "room_tick" => room_tick(n),
        other => panic!("no case {other}"),
    }
}

/// The server's settings for the cases: its default battle and board, without the countdown,
/// long enough that the slowed clock under callgrind never ends it, with a clock that never
/// beats by itself (the case beats it), and quiet.
fn config() -> Config {
    Config {
        countdown: false,
        battle_time: 3_600.0,
        tick: Duration::from_secs(3_600),
        log_matches: false,
        seed: 7,
        ..Config::default()
    }
}

/// A battle as a room begins it.
fn battle() -> Battle {
    let (_, setup) = config().setup(["あお", "あか"], 7);
    Battle::new(&setup, &TileStats::from_dict(Dict::japanese())).expect("the server's battle")
}

/// A state's bytes as the room sends them.
fn state_bytes(battle: &Battle) -> Vec<u8> {
    Codec::new(PROTOCOL)
        .encode(&ToClient::State(state_for(battle, 3)))
        .expect("a state encodes")
}

fn state_encode(n: u64) {
    let battle = battle();
    let codec = Codec::new(PROTOCOL);
    let bytes = measured_state_encode(&battle, &codec, n);
    assert_eq!(bytes, n as usize * state_bytes(&battle).len());
}

#[inline(never)]
fn measured_state_encode(battle: &Battle, codec: &Codec, n: u64) -> usize {
    let mut total = 0;
    for i in 0..n {
        let state = ToClient::State(state_for(battle, (i % 7) as u32));
        total += codec.encode(&state).expect("a state encodes").len();
    }
    total
}

fn state_frame(n: u64) {
    let battle = battle();
    let made = measured_state_frame(&battle, n);
    assert_eq!(made, n);
}

#[inline(never)]
fn measured_state_frame(battle: &Battle, n: u64) -> u64 {
    let mut made = 0;
    for i in 0..n {
        let state = state_for(battle, (i % 7) as u32);
        made += u64::from(state.acked < 7);
    }
    made
}

fn state_decode(n: u64) {
    let battle = battle();
    let bytes = state_bytes(&battle);
    let codec = Codec::new(PROTOCOL);
    let read = measured_state_decode(&bytes, &codec, n);
    assert_eq!(read, n);
}

#[inline(never)]
fn measured_state_decode(bytes: &[u8], codec: &Codec, n: u64) -> u64 {
    let mut read = 0;
    for _ in 0..n {
        if let Ok(ToClient::State(state)) = codec.decode::<ToClient>(bytes) {
            read += u64::from(state.acked == 3);
        }
    }
    read
}

/// The bytes of a player's first placement, move number 12, as a client sends them.
fn play_bytes() -> Vec<u8> {
    let state = state_for(&battle(), 0);
    let mv = legal_move(&state, 0).expect("an opening hand has a legal placement");
    let msg = ToServer::Play { number: 12, mv };
    Codec::new(PROTOCOL).encode(&msg).expect("a move encodes")
}

fn move_read(n: u64) {
    let bytes = play_bytes();
    let read = measured_move_read(&bytes, &Codec::new(PROTOCOL), n);
    assert_eq!(read, n);
}

#[inline(never)]
fn measured_move_read(bytes: &[u8], codec: &Codec, n: u64) -> u64 {
    let mut read = 0;
    for _ in 0..n {
        let msg: ToServer = codec.decode(bytes).expect("a move's bytes decode");
        if let Ok(ToServer::Play { number: 12, .. }) = hot::read(msg) {
            read += 1;
        }
    }
    read
}

/// A legal placement for `seat` in `state`, as the load tool's players mostly pick: here the
/// lowest scoring, so the battle lasts.
fn legal_move(state: &State, seat: usize) -> Option<Move> {
    let board = Board::from_rows(&state.board).ok()?;
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    legal_moves(&board, dict, &stats, &state.fighters[seat].hand)
        .into_iter()
        .min_by_key(|m| m.points)
        .map(|m| Move::Place {
            slot: m.slot,
            pos: m.pos,
            face: m.face,
        })
}

/// A runtime and two real connections on loopback, the server's ends as a room's seats hold
/// them; the clients' ends are kept open and never read during a case, so every frame is
/// queued (the queue is made long enough for a case).
struct Players {
    runtime: tokio::runtime::Runtime,
    seats: Vec<Sender<ToClient>>,
    _clients: Vec<Box<dyn std::any::Any>>,
    _connections: Vec<Connection<ToClient, ToServer>>,
}

fn players() -> Players {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let transport = ServerConfig {
        codec: Codec::new(PROTOCOL),
        send_queue: 1 << 14,
        idle_timeout: Duration::from_secs(3_600),
        ping_interval: Duration::from_secs(3_600),
        ..ServerConfig::default()
    };
    let (connections, clients) = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port");
        let addr = listener.local_addr().expect("its address");
        let mut connections = Vec::new();
        let mut clients: Vec<Box<dyn std::any::Any>> = Vec::new();
        for _ in 0..2 {
            let client = async {
                let tcp = tokio::net::TcpStream::connect(addr)
                    .await
                    .expect("connected");
                tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
                    .await
                    .expect("a WebSocket")
                    .0
            };
            let server = async {
                let (tcp, _) = listener.accept().await.expect("accepted");
                Connection::<ToClient, ToServer>::accept(tcp, &transport)
                    .await
                    .expect("a connection")
            };
            let (client, server) = tokio::join!(client, server);
            clients.push(Box::new(client));
            connections.push(server);
        }
        (connections, clients)
    });
    Players {
        runtime,
        seats: connections.iter().map(Connection::sender).collect(),
        _clients: clients,
        _connections: connections,
    }
}

/// A room of two in a battle, on real connections.
fn playing_room(players: &Players) -> PlayingRoom {
    let _in_runtime = players.runtime.enter();
    PlayingRoom::start(
        config(),
        [
            ("あお".to_string(), players.seats[0].clone()),
            ("あか".to_string(), players.seats[1].clone()),
        ],
    )
}

fn room_move(n: u64) {
    let players = players();
    let room = playing_room(&players);
    let before = placed(&room.state().expect("a battle in the room"));
    play_moves(&room, n);
    let state = room.state().expect("a battle in the room");
    assert_eq!(placed(&state), before + n as usize, "every move was taken");
    assert!(room.playing());
}

/// `n` moves, each seat in turn placing its lowest-scoring legal tile (the other seat when
/// the one in turn has none).
fn play_moves(room: &PlayingRoom, n: u64) {
    let mut numbers = [0u32; 2];
    for i in 0..n {
        let state = room.state().expect("a battle in the room");
        assert_eq!(
            state.phase,
            Phase::Fight,
            "the battle ended after {i} moves"
        );
        let (seat, mv) = [(i % 2) as usize, 1 - (i % 2) as usize]
            .into_iter()
            .find_map(|seat| legal_move(&state, seat).map(|mv| (seat, mv)))
            .unwrap_or_else(|| panic!("no legal placement after {i} moves"));
        numbers[seat] += 1;
        measured_room_move(room, seat, numbers[seat], mv);
    }
}

/// Kana on the board.
fn placed(state: &State) -> usize {
    state
        .board
        .iter()
        .flat_map(|row| row.chars())
        .filter(|c| !matches!(c, '.' | '#'))
        .count()
}

#[inline(never)]
fn measured_room_move(room: &PlayingRoom, seat: usize, number: u32, mv: Move) {
    room.play(seat, number, mv)
        .expect("the room takes the move");
}

fn room_tick(n: u64) {
    let players = players();
    let room = playing_room(&players);
    let beats = measured_room_tick(&room, n);
    assert_eq!(beats, n);
}

#[inline(never)]
fn measured_room_tick(room: &PlayingRoom, n: u64) -> u64 {
    let mut beats = 0;
    for _ in 0..n {
        beats += u64::from(room.tick());
    }
    beats
}
