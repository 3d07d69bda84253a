//! The balance report: every shipped stage and rival played by bots that play like people.
//!
//! `cargo run --release -p jengine-kotoba --example balance -- [--seed N] [--runs N]
//! [--games N] [--pairs N] [--threads N] [--stages FILE] [--rivals FILE]`: the shipped tables or
//! the given ones; `runs` a stage and profile (50), `games` a rival and
//! profile (200), `pairs` a pair of rivals (200), on two threads. The figures depend only on the
//! seed (1) and the sizes.

use jengine_kotoba::balance::{Sizes, report};
use jengine_kotoba::content::{
    RIVALS_TABLE, STAGES_TABLE, rivals_from_str, shipped_rivals, shipped_stages, stages_from_str,
};
use jengine_kotoba::{Dict, TileStats};

fn main() {
    let mut sizes = Sizes::default();
    let mut seed = 1u64;
    let mut threads = 2usize;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    let mut stages_file = None;
    let mut rivals_file = None;
    while let Some(flag) = it.next() {
        if flag == "--stages" || flag == "--rivals" {
            let Some(path) = it.next() else {
                eprintln!("balance: {flag} wants a table file after it");
                std::process::exit(2);
            };
            let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
                eprintln!("balance: cannot read {path}: {e}");
                std::process::exit(2);
            });
            if flag == "--stages" {
                stages_file = Some(text);
            } else {
                rivals_file = Some(text);
            }
            continue;
        }
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
    let stages = match &stages_file {
        Some(text) => stages_from_str(STAGES_TABLE, text),
        None => shipped_stages(),
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let rivals = match &rivals_file {
        Some(text) => rivals_from_str(RIVALS_TABLE, text),
        None => shipped_rivals(),
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let start = std::time::Instant::now();
    let r = report(&stages, &rivals, dict, &stats, sizes, seed, threads);
    print!("{r}");
    eprintln!("played in {:.1} s", start.elapsed().as_secs_f64());
}
