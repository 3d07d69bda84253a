//! The hot paths the package is measured on: reading words on a board, finding every legal
//! move, and autoplaying the shipped stages. Figures go in the package README.

use criterion::{Criterion, criterion_main};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use jengine_kotoba::board::Cell;
use jengine_kotoba::content::shipped_stages;
use jengine_kotoba::puzzle::autoplay;
use jengine_kotoba::{Board, Dict, Kana, Pos, TileStats, legal_moves, play};

/// A 12x12 board with every cell a kana dealt from the bag.
fn filled_board(stats: &TileStats) -> Board {
    let mut rng = Pcg32::seed_from_u64(12);
    let mut board = Board::new(12, 12);
    for pos in board.positions().collect::<Vec<_>>() {
        board.set(pos, Cell::Kana(stats.deal(&mut rng)));
    }
    board
}

/// A 12x12 board grown by real placements until half its cells hold kana.
fn half_filled_board(dict: &Dict, stats: &TileStats) -> Board {
    let mut rng = Pcg32::seed_from_u64(6);
    let mut board = Board::new(12, 12);
    for (i, c) in "ことば".chars().enumerate() {
        board.set(Pos::new(4 + i, 6), Cell::Kana(Kana::from_char(c).unwrap()));
    }
    let mut kana = 3;
    let mut tries = 0;
    while kana < 72 && tries < 100_000 {
        tries += 1;
        let tile = stats.deal(&mut rng);
        let open: Vec<Pos> = board.open_cells().collect();
        if open.is_empty() {
            break;
        }
        let pos = open[rng.random_range(0..open.len())];
        if play::place(&mut board, dict, stats, pos, tile).is_ok() {
            kana += 1;
        }
    }
    board
}

fn words_at(c: &mut Criterion) {
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let board = filled_board(&stats);
    c.bench_function("words_at, one cell of a filled 12x12", |b| {
        b.iter(|| board.words_at(dict, std::hint::black_box(Pos::new(6, 5))))
    });
    c.bench_function("words_at, all 144 cells of a filled 12x12", |b| {
        b.iter(|| {
            board
                .positions()
                .map(|p| board.words_at(dict, p).len())
                .sum::<usize>()
        })
    });
}

fn moves(c: &mut Criterion) {
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let board = half_filled_board(dict, &stats);
    let mut rng = Pcg32::seed_from_u64(8);
    let hand: Vec<Kana> = (0..8).map(|_| stats.deal(&mut rng)).collect();
    let found = legal_moves(&board, dict, &stats, &hand).len();
    println!(
        "half-filled board: {} kana, {} open cells, {found} legal moves for {hand:?}",
        144 - board.empty_count(),
        board.open_cells().count()
    );
    c.bench_function("legal moves, hand of 8, half-filled 12x12", |b| {
        b.iter(|| legal_moves(&board, dict, &stats, std::hint::black_box(&hand)))
    });
}

fn autoplay_all(c: &mut Criterion) {
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let stages = shipped_stages().expect("the shipped stages load");
    c.bench_function("autoplay, every shipped stage", |b| {
        b.iter(|| {
            stages
                .iter()
                .map(|s| autoplay(s, dict, &stats).score)
                .sum::<u32>()
        })
    });
}

fn dictionary(c: &mut Criterion) {
    c.bench_function("dictionary, parse words/ja.tsv", |b| {
        b.iter(|| Dict::parse(jengine_kotoba::dict::JAPANESE).map(|d| d.len()))
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    words_at(&mut c);
    moves(&mut c);
    autoplay_all(&mut c);
    dictionary(&mut c);
}

criterion_main!(benches);
