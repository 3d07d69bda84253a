//! The shipped content, played: every stage through autoplay, every rival pair bot against bot.

use jengine_kotoba::battle::{Battle, Phase};
use jengine_kotoba::content::{shipped_rivals, shipped_stages};
use jengine_kotoba::play::Ending;
use jengine_kotoba::puzzle::{State, autoplay};
use jengine_kotoba::{Dict, TileStats};

#[test]
fn the_bot_clears_every_shipped_stage() {
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let stages = shipped_stages().unwrap_or_else(|e| panic!("{e}"));
    let mut failed = Vec::new();
    for stage in &stages {
        let out = autoplay(stage, dict, &stats);
        println!(
            "{} {}: {:?}{} score {} bonus {} stars {} time left {:.0}s moves {} swaps {}",
            stage.id,
            stage.name,
            out.state,
            out.gave_up
                .map(|why| format!(" (gave up: {why})"))
                .unwrap_or_default(),
            out.score,
            out.bonus,
            out.stars,
            out.time_left,
            out.moves,
            out.swaps
        );
        if let Some(why) = out.gave_up {
            failed.push(format!("{} ({}): gave up: {why}", stage.id, stage.name));
        } else if out.state != State::Cleared {
            failed.push(format!("{} ({}): {:?}", stage.id, stage.name, out.state));
        } else if out.stars == 0 {
            failed.push(format!(
                "{} ({}): cleared without a star",
                stage.id, stage.name
            ));
        }
    }
    assert!(failed.is_empty(), "the bot could not clear: {failed:?}");
}

#[test]
fn the_shipped_stages_rise_in_difficulty() {
    let stages = shipped_stages().unwrap_or_else(|e| panic!("{e}"));
    assert!(stages.len() >= 30);
    for pair in stages.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let tiles = |s: &jengine_kotoba::Stage| s.tiles + s.stock.len();
        let pace = |s: &jengine_kotoba::Stage| s.time / tiles(s) as f32;
        assert!(
            tiles(b) >= tiles(a),
            "{} has fewer tiles than {}",
            b.id,
            a.id
        );
        assert!(b.hand <= a.hand, "{} has a bigger hand than {}", b.id, a.id);
        assert!(
            pace(b) <= pace(a),
            "{} gives more time a tile than {}",
            b.id,
            a.id
        );
    }
    let shapes: std::collections::HashSet<Vec<bool>> = stages
        .iter()
        .map(|s| {
            let b = &s.board;
            b.positions()
                .map(|p| b.cell(p) == jengine_kotoba::Cell::Wall)
                .collect()
        })
        .collect();
    assert!(shapes.len() >= 8, "only {} board shapes", shapes.len());
}

#[test]
fn every_rival_pair_fights_to_an_end() {
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let rivals = shipped_rivals().unwrap_or_else(|e| panic!("{e}"));
    let mut wins = vec![0u32; rivals.len()];
    for (i, a) in rivals.iter().enumerate() {
        for (j, b) in rivals.iter().enumerate().skip(i + 1) {
            // On the stronger rival's board: its own, or the built-in battle board.
            let setup = b.setup(a.fighter(), (i * 31 + j) as u64);
            let mut battle =
                Battle::new(&setup, &stats).unwrap_or_else(|e| panic!("{} vs {}: {e}", a.id, b.id));
            let mut steps = 0;
            while battle.winner().is_none() && steps < 20_000 {
                battle.update(dict, 0.1);
                steps += 1;
            }
            let Phase::Over { winner, why } = battle.phase() else {
                panic!("{} vs {} did not end", a.id, b.id);
            };
            let f = battle.fighters();
            println!(
                "{} vs {}: {} by {:?} (hp {} / {}, words {} / {})",
                a.name,
                b.name,
                match winner {
                    Some(0) => a.name.as_str(),
                    Some(_) => b.name.as_str(),
                    None => "draw",
                },
                why,
                f[0].hp,
                f[1].hp,
                f[0].words,
                f[1].words
            );
            assert!(
                f[0].words + f[1].words > 0,
                "{} vs {}: no words",
                a.id,
                b.id
            );
            assert!(why != Ending::Full || battle.board().open_cells().next().is_none());
            match winner {
                Some(0) => wins[i] += 1,
                Some(_) => wins[j] += 1,
                None => {}
            }
        }
    }
    println!(
        "wins per rival: {:?}",
        rivals
            .iter()
            .map(|r| &r.name)
            .zip(&wins)
            .collect::<Vec<_>>()
    );
    // The strongest rival should beat at least half of the others.
    let last = rivals.len() - 1;
    assert!(wins[last] as usize * 2 >= last, "wins {wins:?}");
}

/// Kotodama loads its own copy of the stage table (with the lesson the how-to screen plays):
/// every stage in it is the package's shipped one, word for word, and the bot clears the ones
/// only Kotodama has.
#[test]
fn kotodamas_stage_table_is_the_shipped_one_and_the_bot_clears_its_own() {
    let dict = Dict::japanese();
    let stats = TileStats::from_dict(dict);
    let path = kotodama_tests::project().join("data/kotoba_stages.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let game =
        jengine_kotoba::content::stages_from_str(jengine_kotoba::content::STAGES_TABLE, &text)
            .unwrap_or_else(|e| panic!("{e}"));
    let shipped = shipped_stages().unwrap();
    for stage in &shipped {
        let theirs = game.iter().find(|s| s.id == stage.id);
        assert_eq!(theirs, Some(stage), "Kotodama's {} differs", stage.id);
    }
    let own: Vec<_> = game
        .iter()
        .filter(|s| !shipped.iter().any(|t| t.id == s.id))
        .collect();
    assert_eq!(
        own.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["lesson"]
    );
    for stage in own {
        let out = autoplay(stage, dict, &stats);
        assert_eq!(out.state, State::Cleared, "{}: {:?}", stage.id, out.gave_up);
    }
}
