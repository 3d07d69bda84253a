//! The board answers each move where the player is looking: a word lights its cells and its
//! points rise, a battle's damage flies to the hurt side, a refused tile shakes and says why,
//! the cursor and the hint look different, the countdown hides no cell, and the results add up.
//! Each is a golden, looked at when blessed, and each is also checked by what the table holds.

use jengine::{Sprite, Transform2D};
use jengine_kotoba::draw::Drawn;
use jengine_kotoba::draw::feedback::{Mark, Spot};
use jengine_kotoba::{Cell, Pos, Refusal};
use jengine_testkit::{Game, Options};
use kotodama_tests::{kotoba, look, open, play_best, tap};

fn start(scene: &str, seed: u64) -> Game {
    open(Options {
        seed,
        scene: Some(scene.into()),
        ..Options::default()
    })
}

fn marks(game: &Game) -> Vec<Mark> {
    let e = game.entity("table");
    let drawn = game.world.entities.get::<&Drawn>(e).unwrap();
    drawn.feedback.marks.clone()
}

#[test]
fn a_word_made_lights_its_cells_and_its_points_rise() {
    let mut game = start("puzzle", 1);
    game.settle(2);
    assert!(play_best(&mut game));
    game.settle(12);
    let words: Vec<_> = marks(&game)
        .into_iter()
        .filter(|m| matches!(m, Mark::Word { .. }))
        .collect();
    let [Mark::Word { cells, points, .. }] = words.as_slice() else {
        panic!("{words:?}");
    };
    assert!(cells.len() >= 2 && *points > 0);
    game.golden("feedback_word_lit");
    // It passes: a second and a half later the board is quiet again.
    game.settle(100);
    assert!(marks(&game).is_empty(), "{:?}", marks(&game));
}

#[test]
fn a_refused_tile_shakes_on_its_cell_says_why_and_warns_nobody() {
    let mut game = start("puzzle", 1);
    game.settle(2);
    let (session, layout) = look(&game);
    let board = session.board().unwrap().clone();
    // An open cell with no kana beside it.
    let lonely = board
        .positions()
        .find(|&p| {
            board.cell(p) == Cell::Empty
                && [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
                    .iter()
                    .all(|(dx, dy)| {
                        let (x, y) = (p.x as i64 + dx, p.y as i64 + dy);
                        x < 0 || y < 0 || board.kana(Pos::new(x as usize, y as usize)).is_none()
                    })
        })
        .expect("a lonely cell");
    tap(&mut game, layout.hand[0]);
    tap(&mut game, layout.cell_centre(lonely));
    game.settle(4);
    assert!(
        marks(&game).iter().any(|m| matches!(
            m,
            Mark::Refused { on: Spot::Cell(p), why: Refusal::NotNextToKana, .. } if *p == lonely
        )),
        "{:?}",
        marks(&game)
    );
    game.golden("feedback_refused");
    assert!(game.warnings().is_empty(), "{:?}", game.warnings());
}

#[test]
fn the_cursor_and_the_hint_look_different() {
    let mut game = start("puzzle", 1);
    game.settle(2);
    game.keys(&["h", "right", "right", "down"]);
    game.settle(3);
    let b = kotoba(&game);
    assert!(!b["hint"].is_null() && !b["cursor"].is_null(), "{b:#}");
    assert_ne!(b["hint"], b["cursor"]);
    game.golden("feedback_cursor_and_hint");
}

/// The countdown's card over the strip above the board, clear of every cell.
#[test]
fn the_countdown_hides_no_cell() {
    let mut game = start("battle", 3);
    game.settle(40);
    let b = kotoba(&game);
    assert_eq!(b["phase"], "countdown", "{b:#}");
    let e = game.entity("banner_back");
    let at = game.world.entities.get::<&Transform2D>(e).unwrap().pos;
    let sprite = game.world.entities.get::<&Sprite>(e).unwrap();
    assert!(sprite.tint.0[3] > 0.5, "the card shows");
    let (_, layout) = look(&game);
    let half = layout.cell / 2.0;
    let top = layout.origin[1] + half;
    let bottom = layout.origin[1] - (layout.size.1 as f32 - 1.0) * layout.cell - half;
    let card = [at[1] - sprite.size[1] / 2.0, at[1] + sprite.size[1] / 2.0];
    assert!(
        card[0] > top || card[1] < bottom,
        "card {card:?} over the board {bottom}..{top}"
    );
    game.golden("feedback_countdown");
}

#[test]
fn a_battle_hit_flies_to_the_hurt_side_and_tiles_keep_their_players_edge() {
    let mut game = start("battle", 3);
    game.settle(200);
    for _ in 0..3 {
        assert!(play_best(&mut game));
        game.settle(30);
    }
    assert!(play_best(&mut game));
    game.settle(14);
    let flying: Vec<_> = marks(&game)
        .into_iter()
        .filter(|m| matches!(m, Mark::Damage { to: 1, .. }))
        .collect();
    assert!(!flying.is_empty(), "{:?}", marks(&game));
    let e = game.entity("table");
    let drawn = game.world.entities.get::<&Drawn>(e).unwrap();
    let (session, _) = look(&game);
    let board = session.board().unwrap();
    let mine = board
        .positions()
        .filter(|&p| drawn.feedback.owner(p) == Some(0))
        .count();
    assert!(mine >= 4, "{mine} of the player's tiles known");
    drop(drawn);
    game.golden("feedback_damage_flies");
}

/// The results' lines add up: each word at its own points, the both-ways halves on top, and
/// the score is their sum.
#[test]
fn the_results_add_up() {
    let mut game = start("puzzle", 1);
    game.settle(2);
    for _ in 0..200 {
        if kotoba(&game)["phase"] != "playing" {
            break;
        }
        if !play_best(&mut game) {
            tap(&mut game, [6.1, -0.6]);
        }
    }
    let b = kotoba(&game);
    assert_eq!(b["phase"], "cleared");
    let words: u64 = b["made"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["player"] == 1)
        .map(|w| w["points"].as_u64().unwrap())
        .sum();
    let both = b["both_ways"].as_u64().unwrap();
    assert_eq!(words + both, b["score"].as_u64().unwrap(), "{b:#}");
    // The results follow by themselves.
    game.until(600, "the results", |rt| rt.scene() == "results");
    game.settle(5);
    let lines: Vec<i64> = game
        .text("lines_right")
        .lines()
        .map(|l| l.trim_start_matches('+').parse().unwrap())
        .collect();
    let [listed, halves, bonus, total] = lines[..] else {
        panic!("{lines:?}");
    };
    let rows: i64 = (1..=12)
        .filter_map(|j| game.text(&format!("row{j}_points")).parse::<i64>().ok())
        .sum();
    assert_eq!(listed, rows, "the list's points are the words line");
    assert_eq!(listed + halves, b["score"].as_i64().unwrap());
    assert_eq!(listed + halves + bonus, total);
}
