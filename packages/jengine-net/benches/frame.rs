//! Encode + decode of a typical frame: a battle state of about 200 bytes, the kind a room sends
//! ten times a second to each player.

use criterion::{Criterion, black_box, criterion_main};
use jengine_net::Codec;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Fighter {
    name: String,
    hp: u16,
    max_hp: u16,
    score: u32,
    combo: u8,
    stun_ms: u16,
    hand: Vec<char>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Down {
    State {
        tick: u64,
        acked: u32,
        time_left_ms: u32,
        fighters: Vec<Fighter>,
        placed: Vec<(u8, u8, char, u8)>,
    },
    Left(u8),
}

fn typical() -> Down {
    let fighter = |name: &str, hand: &str| Fighter {
        name: name.into(),
        hp: 87,
        max_hp: 100,
        score: 1460,
        combo: 2,
        stun_ms: 0,
        hand: hand.chars().collect(),
    };
    Down::State {
        tick: 18_234,
        acked: 41,
        time_left_ms: 73_500,
        fighters: vec![fighter("たま", "かなあいう"), fighter("ぽち", "えおさしす")],
        placed: (0..18)
            .map(|i| {
                (
                    i % 9,
                    i / 3,
                    ['ね', 'こ', 'い', 'ぬ'][usize::from(i % 4)],
                    i % 2,
                )
            })
            .collect(),
    }
}

fn bench(c: &mut Criterion) {
    let codec = Codec::new(1);
    let state = typical();
    let size = codec.encode(&state).unwrap().len();
    c.bench_function(&format!("encode+decode a {size}-byte frame"), |b| {
        b.iter(|| {
            let frame = codec.encode(black_box(&state)).unwrap();
            codec.decode::<Down>(black_box(&frame)).unwrap()
        })
    });
    let frame = codec.encode(&state).unwrap();
    c.bench_function(&format!("encode a {size}-byte frame"), |b| {
        b.iter(|| codec.encode(black_box(&state)).unwrap())
    });
    c.bench_function(&format!("decode a {size}-byte frame"), |b| {
        b.iter(|| codec.decode::<Down>(black_box(&frame)).unwrap())
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
