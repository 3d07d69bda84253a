//! Instruction counts of what a room does every tenth of a second, under callgrind: a count a
//! busy machine does not disturb, so the figures compare across runs and machines of one
//! architecture.
//!
//! `cargo bench -p jengine-kotoba --bench instructions` (needs `valgrind`). As the engine's own
//! runner does, the bench runs itself under `valgrind --tool=callgrind` once per case and size,
//! counting only inside the case's `measured_` function, and each figure is the difference of
//! two sizes divided by the difference in units, so the set-up around the loop is not spread
//! over the units.
//!
//! The cases: a state encoded and decoded as the transport's dynamic frame (the way protocol 3
//! carries it) and as typed postcard, and a battle's tick (a tenth of a second of the battle
//! and the state made from it, for one seat).

use std::hint::black_box;
use std::process::Command;

use jengine_kotoba::battle::{Battle, FighterSpec, Setup};
use jengine_kotoba::content;
use jengine_kotoba::dict::Dict;
use jengine_kotoba::kana::TileStats;
use jengine_kotoba::net::{ToClient, state_for};
use jengine_net::{Codec, Value};

/// The cases: name, what one unit is, and the two sizes run.
const CASES: [(&str, &str, [u64; 2]); 5] = [
    (
        "state_value_encode",
        "a state made a dynamic frame and encoded",
        [100, 1_100],
    ),
    (
        "state_value_decode",
        "a dynamic frame decoded and read as a message",
        [100, 1_100],
    ),
    (
        "state_typed_encode",
        "a state encoded as typed postcard",
        [100, 1_100],
    ),
    (
        "state_typed_decode",
        "a typed postcard state decoded",
        [100, 1_100],
    ),
    (
        "battle_tick",
        "a tenth of a second of a battle and its state for a seat",
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
    let me = std::env::current_exe().expect("the bench knows where it is");
    for (case, unit, sizes) in CASES {
        let counts: Vec<u64> = sizes.iter().map(|&n| count(&me, case, n)).collect();
        let per = (counts[1] as f64 - counts[0] as f64) / (sizes[1] - sizes[0]) as f64;
        println!("{case:<20} {per:>9.0} instructions  {unit}");
    }
    let (value, typed) = (frame_bytes(), typed_bytes());
    println!("a state is {value} bytes as a dynamic frame, {typed} as typed postcard");
}

/// Instructions callgrind counts inside the case's function, for `n` units.
fn count(me: &std::path::Path, case: &str, n: u64) -> u64 {
    let out = std::env::temp_dir().join(format!(
        "kotoba-instructions-{}-{case}-{n}.out",
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

/// The battle a room plays: the shipped board, two players, a countdown.
fn battle() -> Battle {
    let setup = Setup {
        board: content::battle_board(),
        fighters: ["あ", "い"].map(|name| FighterSpec {
            bot: None,
            ..content::player(name)
        }),
        time: 90.0,
        seed: 9,
        countdown: true,
    };
    Battle::new(&setup, &TileStats::from_dict(Dict::japanese())).expect("the battle sets up")
}

fn state() -> ToClient {
    ToClient::State(state_for(&battle(), 41))
}

fn codec() -> Codec {
    Codec::new(3)
}

fn frame_bytes() -> usize {
    let value = Value::of(&state()).expect("a state makes a frame");
    codec().encode(&value).expect("the frame encodes").len()
}

fn typed_bytes() -> usize {
    postcard::to_allocvec(&state())
        .expect("a state encodes")
        .len()
}

fn run_case(case: &str, n: u64) {
    match case {
        "state_value_encode" => {
            let (msg, codec) = (state(), codec());
            assert!(measured_state_value_encode(&msg, &codec, n) > 0);
        }
        "state_value_decode" => {
            let codec = codec();
            let bytes = codec
                .encode(&Value::of(&state()).expect("a frame"))
                .expect("encoded");
            assert_eq!(measured_state_value_decode(&bytes, &codec, n), n);
        }
        "state_typed_encode" => {
            assert!(measured_state_typed_encode(&state(), n) > 0);
        }
        "state_typed_decode" => {
            let bytes = postcard::to_allocvec(&state()).expect("encoded");
            assert_eq!(measured_state_typed_decode(&bytes, n), n);
        }
        "battle_tick" => {
            let mut battle = battle();
            let acked = measured_battle_tick(&mut battle, n);
            assert_eq!(acked, n as u32);
        }
        other => panic!("no case {other}"),
    }
}

#[inline(never)]
fn measured_state_value_encode(msg: &ToClient, codec: &Codec, n: u64) -> usize {
    let mut total = 0;
    for _ in 0..n {
        let value = Value::of(black_box(msg)).expect("a frame");
        total += codec.encode(&value).expect("encoded").len();
    }
    total
}

#[inline(never)]
fn measured_state_value_decode(bytes: &[u8], codec: &Codec, n: u64) -> u64 {
    let mut read = 0;
    for _ in 0..n {
        let value: Value = codec.decode(black_box(bytes)).expect("decoded");
        if matches!(value.read::<ToClient>(), Ok(ToClient::State(_))) {
            read += 1;
        }
    }
    read
}

#[inline(never)]
fn measured_state_typed_encode(msg: &ToClient, n: u64) -> usize {
    let mut total = 0;
    for _ in 0..n {
        total += postcard::to_allocvec(black_box(msg))
            .expect("encoded")
            .len();
    }
    total
}

#[inline(never)]
fn measured_state_typed_decode(bytes: &[u8], n: u64) -> u64 {
    let mut read = 0;
    for _ in 0..n {
        if matches!(
            postcard::from_bytes::<ToClient>(black_box(bytes)),
            Ok(ToClient::State(_))
        ) {
            read += 1;
        }
    }
    read
}

#[inline(never)]
fn measured_battle_tick(battle: &mut Battle, n: u64) -> u32 {
    let dict = Dict::japanese();
    let mut acked = 0;
    for i in 1..=n {
        battle.update(dict, 0.1);
        acked = black_box(state_for(battle, i as u32)).acked;
    }
    acked
}
