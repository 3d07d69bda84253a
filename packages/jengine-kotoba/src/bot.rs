//! The bot: every legal move for a hand, and one of them picked by skill.
//!
//! Legal moves are found cell by cell: the board says once which faces read in a word at a
//! cell, and the hand's tiles are matched against that set in every form. Skill is how much of
//! that list the bot sees (a weak bot overlooks moves, good ones included) and how long it
//! thinks between moves; both draw on its own seeded stream, so a bot replays exactly.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::board::{Board, Pos};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};

/// One move a hand can make: a tile, shown as one of its forms, on a cell where it reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The hand slot of the tile.
    pub slot: usize,
    /// The face it goes down as.
    pub face: Kana,
    /// Where.
    pub pos: Pos,
    /// What it scores.
    pub points: u32,
}

/// Every legal move for `hand` on `board`: every tile, every form, every cell.
///
/// Moves come cell by cell in row order, then by slot and form, so the list is the same for
/// the same board and hand.
pub fn legal_moves(board: &Board, dict: &Dict, stats: &TileStats, hand: &[Kana]) -> Vec<LegalMove> {
    let mut moves = Vec::new();
    let mut wanted: u128 = 0;
    for k in hand {
        for f in k.forms() {
            wanted |= 1 << f.index();
        }
    }
    let mut scored: Vec<(Kana, u32)> = Vec::with_capacity(24);
    for pos in board.open_cells() {
        let reads = board.faces_that_read(dict, pos, wanted);
        if reads == 0 {
            continue;
        }
        scored.clear();
        for (slot, k) in hand.iter().enumerate() {
            for &face in k.forms() {
                if reads & (1 << face.index()) == 0 {
                    continue;
                }
                let points = match scored.iter().find(|(f, _)| *f == face) {
                    Some(&(_, p)) => p,
                    None => {
                        let words = board.words_with(dict, pos, face);
                        let p = Board::points(dict, stats, &words);
                        scored.push((face, p));
                        p
                    }
                };
                moves.push(LegalMove {
                    slot,
                    face,
                    pos,
                    points,
                });
            }
        }
    }
    moves
}

/// The best-scoring move, the first of equals.
pub fn best(moves: &[LegalMove]) -> Option<LegalMove> {
    moves
        .iter()
        .copied()
        .reduce(|a, b| if b.points > a.points { b } else { a })
}

/// How well a bot plays.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// The share of legal moves it notices, from 0 to 1: at 1 it always finds the best.
    pub sight: f32,
    /// Seconds it takes over a move, on average.
    pub think: f32,
}

impl Skill {
    /// Sees everything and moves at once: the puzzle's autoplay and its hints.
    pub const PERFECT: Skill = Skill {
        sight: 1.0,
        think: 0.0,
    };
}

/// A player the game moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Bot {
    skill: Skill,
    rng: Pcg32,
    wait: f32,
}

impl Bot {
    /// A bot of the given skill, its choices drawn from `seed`.
    pub fn new(skill: Skill, seed: u64) -> Bot {
        let mut bot = Bot {
            skill,
            rng: Pcg32::seed_from_u64(seed),
            wait: 0.0,
        };
        bot.rest();
        bot
    }

    /// Its skill.
    pub fn skill(&self) -> Skill {
        self.skill
    }

    /// Moves its clock on by `dt` seconds and says whether it is ready to move.
    pub fn ready(&mut self, dt: f32) -> bool {
        self.wait -= dt;
        self.wait <= 0.0
    }

    /// How long ago its thinking ran out, in seconds; 0 while it is still thinking.
    pub fn overdue(&self) -> f32 {
        (-self.wait).max(0.0)
    }

    /// Sets how many seconds it has left to think, so a test can line bots up.
    #[cfg(test)]
    pub(crate) fn think_for(&mut self, seconds: f32) {
        self.wait = seconds;
    }

    /// Starts thinking about the next move: a pause around its `think` time.
    pub fn rest(&mut self) {
        let think = self.skill.think.max(0.0);
        self.wait = if think > 0.0 {
            think * self.rng.random_range(0.7..1.3)
        } else {
            0.0
        };
    }

    /// Picks a move from `moves`: the best of those it notices, or none if it noticed none.
    pub fn pick(&mut self, moves: &[LegalMove]) -> Option<LegalMove> {
        if self.skill.sight >= 1.0 {
            return best(moves);
        }
        let sight = self.skill.sight.max(0.0) as f64;
        let mut chosen: Option<LegalMove> = None;
        for &m in moves {
            if self.rng.random_bool(sight) && chosen.is_none_or(|c| m.points > c.points) {
                chosen = Some(m);
            }
        }
        chosen
    }

    /// A slot to swap when nothing can be placed.
    pub fn swap_slot(&mut self, hand_len: usize) -> usize {
        if hand_len == 0 {
            0
        } else {
            self.rng.random_range(0..hand_len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::placement;
    use proptest::prelude::*;

    fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nかぎ\t鍵\tkey\n\
             ぱん\tパン\tbread\nいぬ\t犬\tdog\nさけ\t鮭\tsalmon\nかさ\t傘\tumbrella\n",
        )
        .unwrap()
    }

    fn kana(s: &str) -> Vec<Kana> {
        crate::kana::parse_kana(s).unwrap()
    }

    #[test]
    fn legal_moves_cover_every_tile_form_and_cell() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let b = Board::from_rows(&["....", ".か..", "...."]).unwrap();
        let moves = legal_moves(&b, &d, &s, &kana("なきさ"));
        let mut got: Vec<(char, Pos)> = moves.iter().map(|m| (m.face.to_char(), m.pos)).collect();
        got.sort();
        let mut want = vec![
            ('な', Pos::new(2, 1)),
            ('ぎ', Pos::new(2, 1)),
            ('さ', Pos::new(2, 1)),
            ('な', Pos::new(1, 2)),
            ('ぎ', Pos::new(1, 2)),
            ('さ', Pos::new(1, 2)),
        ];
        want.sort();
        assert_eq!(got, want);
        for m in &moves {
            assert_eq!(
                m.points,
                placement(&b, &d, &s, m.pos, m.face).unwrap().points
            );
        }
    }

    #[test]
    fn a_perfect_bot_takes_the_best_move() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let b = Board::from_rows(&["さか.つ"]).unwrap();
        let moves = legal_moves(&b, &d, &s, &kana("なさ"));
        let mut bot = Bot::new(Skill::PERFECT, 1);
        let m = bot.pick(&moves).unwrap();
        assert_eq!(m.face.to_char(), 'な');
        assert_eq!(m.points, moves.iter().map(|m| m.points).max().unwrap());
        assert!(bot.ready(0.0));
    }

    #[test]
    fn a_weak_bot_misses_moves_and_is_slow() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let b = Board::from_rows(&["さか.つ"]).unwrap();
        let moves = legal_moves(&b, &d, &s, &kana("な"));
        let mut weak = Bot::new(
            Skill {
                sight: 0.2,
                think: 3.0,
            },
            9,
        );
        let missed = (0..200).filter(|_| weak.pick(&moves).is_none()).count();
        assert!(missed > 100, "missed {missed} of 200");
        assert!(!weak.ready(1.0));
        assert!(weak.ready(5.0));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        #[test]
        fn every_legal_move_places(
            rows in prop::collection::vec("[...さかなつぱんいけ#]{5}", 5),
            hand in "[さかなつはんいけき]{1,6}",
        ) {
            let d = dict();
            let s = TileStats::from_dict(&d);
            let b = Board::from_rows(&rows).unwrap();
            let hand = kana(&hand);
            let moves = legal_moves(&b, &d, &s, &hand);
            for m in &moves {
                prop_assert_eq!(m.face.base(), hand[m.slot].base());
                let placed = placement(&b, &d, &s, m.pos, m.face).unwrap();
                prop_assert_eq!(placed.kana, m.face);
                prop_assert_eq!(placed.points, m.points);
            }
            // And nothing is missed: every cell and form that places is listed.
            for pos in b.open_cells() {
                for (slot, k) in hand.iter().enumerate() {
                    for &face in k.forms() {
                        if b.reads_with(&d, pos, face) {
                            prop_assert!(moves.iter().any(|m| m.slot == slot && m.face == face && m.pos == pos));
                        }
                    }
                }
            }
        }
    }
}
