//! The balance run: `tests/balance_test.lua` plays Seven Stairs through the game's own rules
//! over the real floors, seed after seed (each in slices of a few fights, one Lua test each),
//! as a simple player would (it fights everything,
//! casts the obvious spell at a big group, patches up after each fight and goes back to the inn
//! when the party is low). Each seed says its outcome in a log line; here they are gathered:
//! some seeds reach the lich and win, others die on the way, and the figures are printed (the
//! game's README quotes them).

use jengine_testkit::Options;
use rpg_classics_tests::{open, project};

/// One seed's outcome, as its log line says it.
#[derive(Debug)]
struct Run {
    seed: u32,
    outcome: String,
    floor: u32,
    /// The deepest floor it reached.
    deepest: u32,
    rounds: u32,
    trips: u32,
    level: u32,
    /// Fights and rounds on each floor, "fights:rounds" by floor.
    per_floor: Vec<(u32, u32)>,
    /// The group that killed the party (or `trap`), `none` when it lived.
    killer: String,
}

fn field(line: &str, name: &str) -> String {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} in {line}"))
        .to_string()
}

fn median(mut v: Vec<u32>) -> u32 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

#[test]
fn the_balance_bot_wins_some_seeds_and_dies_in_others() {
    let mut game = open(Options::default());
    game.settle(2);
    game.take_log();
    let file = project().join("tests/balance_test.lua");
    let code = std::fs::read_to_string(&file).unwrap();
    let outcomes = game
        .rt
        .run_lua_tests("balance_test.lua", &code)
        .unwrap_or_else(|e| panic!("{e}"));
    let failed: Vec<String> = outcomes
        .iter()
        .filter_map(|t| Some(format!("{}: {}", t.name, t.failure.as_ref()?)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
    let runs: Vec<Run> = game
        .take_log()
        .into_iter()
        .filter_map(|l| {
            let at = l.message.find("balance seed=")?;
            let line = &l.message[at..];
            Some(Run {
                seed: field(line, "seed").parse().unwrap(),
                outcome: field(line, "outcome"),
                floor: field(line, "floor").parse().unwrap(),
                deepest: field(line, "deepest").parse().unwrap(),
                rounds: field(line, "rounds").parse().unwrap(),
                trips: field(line, "trips").parse().unwrap(),
                level: field(line, "level").parse().unwrap(),
                per_floor: field(line, "per_floor")
                    .split(',')
                    .map(|p| {
                        let (f, r) = p.split_once(':').unwrap();
                        (f.parse().unwrap(), r.parse().unwrap())
                    })
                    .collect(),
                killer: field(line, "killer"),
            })
        })
        .collect();
    let mut seeds: Vec<u32> = runs.iter().map(|r| r.seed).collect();
    seeds.dedup();
    assert_eq!(seeds.len(), runs.len(), "every seed said its outcome once");
    assert!(runs.len() >= 20, "{} seeds", runs.len());
    let won: Vec<&Run> = runs.iter().filter(|r| r.outcome == "won").collect();
    let died: Vec<&Run> = runs.iter().filter(|r| r.outcome == "died").collect();
    let stuck = runs.len() - won.len() - died.len();
    for r in &runs {
        eprintln!("{r:?}");
    }
    eprintln!(
        "balance: {} seeds, {} won, {} died, {} stuck; median rounds {} (won {}), median deepest floor {}, median trips to town {}, median top level {}; died: {:?}",
        runs.len(),
        won.len(),
        died.len(),
        stuck,
        median(runs.iter().map(|r| r.rounds).collect()),
        median(won.iter().map(|r| r.rounds).collect()),
        median(runs.iter().map(|r| r.deepest).collect()),
        median(runs.iter().map(|r| r.trips).collect()),
        median(runs.iter().map(|r| r.level).collect()),
        died.iter()
            .map(|r| format!("{} on floor {} by {}", r.seed, r.floor, r.killer))
            .collect::<Vec<_>>(),
    );
    let floors = runs.iter().map(|r| r.per_floor.len()).max().unwrap_or(0);
    let per: Vec<String> = (0..floors)
        .map(|i| {
            let (f, r) = runs
                .iter()
                .filter_map(|run| run.per_floor.get(i))
                .fold((0, 0), |(f, r), (a, b)| (f + a, r + b));
            format!(
                "floor {}: {:.1} rounds a fight",
                i + 1,
                r as f64 / f.max(1) as f64
            )
        })
        .collect();
    eprintln!("balance: {}", per.join(", "));
    assert!(!won.is_empty(), "no seed reaches the end: {runs:#?}");
    assert!(!died.is_empty(), "no seed dies: {runs:#?}");
}
