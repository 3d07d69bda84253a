//! The balance report: every shipped stage and rival played by bots that play like people.
//!
//! `cargo run --release -p jengine-kotoba --example balance -- [--seed N] [--runs N]
//! [--games N] [--pairs N] [--threads N]`: `runs` a stage and profile (50), `games` a rival and
//! profile (200), `pairs` a pair of rivals (200), on two threads. The figures depend only on the
//! seed (1) and the sizes.

use jengine_kotoba::balance::{Sizes, report};
use jengine_kotoba::content::{shipped_rivals, shipped_stages};
use jengine_kotoba::{Dict, TileStats};

fn main() {
    let mut sizes = Sizes::default();
    let mut seed = 1u64;
    let mut threads = 2usize;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        let Some(v) = value else {
            eprintln!("balance: {flag} wants a whole number after it");
            std::process::exit(2);
        };
        match flag.as_str() {
            "--seed" => seed = v,
            "--runs" => sizes.runs = v as u32,
            "--games" => sizes.games = v as u32,
            "--pairs" => sizes.pairs = v as u32,
            "--threads" => threads = v as usize,
            _ => {
                eprintln!(
                    "balance: unknown flag {flag} (--seed, --runs, --games, --pairs, --threads)"
                );
                std::process::exit(2);
            }
        }
    }
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let stages = shipped_stages().unwrap_or_else(|e| panic!("{e}"));
    let rivals = shipped_rivals().unwrap_or_else(|e| panic!("{e}"));
    let start = std::time::Instant::now();
    let r = report(&stages, &rivals, dict, &stats, sizes, seed, threads);
    print!("{r}");
    eprintln!("played in {:.1} s", start.elapsed().as_secs_f64());
}
