//! The balance run: the simple player of `arcade_classics_tests::bot` plays the warren's own
//! tables through the crawl's core over many seeds. A careful player gets out in some of them
//! and a careless one dies in others; the figures are in the game's README.

use arcade_classics_tests::bot::{Bot, End, Run};
use arcade_classics_tests::crawl;

/// Seeds tried.
const SEEDS: u64 = 20;
/// More acts than any run needs: a run that takes them all is stuck.
const LIMIT: usize = 12_000;

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    if v.is_empty() { 0 } else { v[v.len() / 2] }
}

#[test]
fn the_simple_player_escapes_in_some_seeds_and_dies_in_others() {
    let mut escaped = Vec::new();
    let mut died = Vec::new();
    let mut stuck = Vec::new();
    // Two threads, each a share of the seeds: the runs are independent.
    let runs: Vec<(u64, Run)> = std::thread::scope(|scope| {
        let halves: Vec<_> = (0..2)
            .map(|half| {
                scope.spawn(move || {
                    (1..=SEEDS)
                        .filter(|seed| seed % 2 == half)
                        .map(|seed| (seed, Bot::play(crawl(seed), LIMIT)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(u64, Run)> = halves
            .into_iter()
            .flat_map(|h| h.join().expect("a balance run panicked"))
            .collect();
        all.sort_by_key(|(seed, _)| *seed);
        all
    });
    for (seed, run) in runs {
        let s = run.crawl.state();
        let health: u32 = s.party.iter().map(|m| m.hp).sum();
        let figures = (seed, s.tick, health, s.level);
        match run.end {
            End::Escaped => escaped.push(figures),
            End::Died => died.push(figures),
            End::Stuck => stuck.push((figures, run.acts.len())),
        }
    }
    let ticks = median(escaped.iter().map(|f| f.1).collect());
    let health = median(escaped.iter().map(|f| f.2 as u64).collect());
    let died_on: Vec<usize> = died.iter().map(|f| f.3 + 1).collect();
    println!(
        "{SEEDS} seeds: {} escaped (median {ticks} ticks, {health} health left), {} died (on floors {died_on:?}), {} stuck",
        escaped.len(),
        died.len(),
        stuck.len()
    );
    assert!(stuck.is_empty(), "the player got stuck: {stuck:?}");
    assert!(!escaped.is_empty(), "nobody escaped: died {died:?}");
    assert!(!died.is_empty(), "nobody died: escaped {escaped:?}");
}
