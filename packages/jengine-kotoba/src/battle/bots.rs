//! The bots in a battle: within one step, each bot whose thinking ran out moves, the one that
//! ran out first moving first, so neither side is built to go first.

use super::{Battle, Move, Phase};
use crate::bot::legal_moves;
use crate::dict::Dict;

impl Battle {
    /// Moves every bot's thinking on by `dt` (a stunned bot does not think) and says which are
    /// ready to move, in the order they became ready within the step: neither side is built
    /// to go first. When both became ready at the same instant, the one that went second last
    /// time goes first.
    pub(super) fn ready_bots(&mut self, dt: f32) -> [Option<usize>; 2] {
        let mut overdue = [None; 2];
        for (who, f) in self.fighters.iter_mut().enumerate() {
            if f.stun > 0.0 {
                continue;
            }
            if let Some(bot) = f.bot.as_mut()
                && bot.ready(dt)
            {
                overdue[who] = Some(bot.overdue());
            }
        }
        match overdue {
            [Some(a), Some(b)] => {
                let first = if a > b {
                    0
                } else if b > a {
                    1
                } else {
                    let first = self.first_on_tie;
                    self.first_on_tie = 1 - first;
                    first
                };
                [Some(first), Some(1 - first)]
            }
            [Some(_), None] => [Some(0), None],
            [None, Some(_)] => [Some(1), None],
            [None, None] => [None, None],
        }
    }

    /// Lets a bot that is ready make its move.
    pub(super) fn run_bot(&mut self, dict: &Dict, who: usize) {
        // The other bot's move may have just ended the battle.
        if self.phase != Phase::Fight {
            return;
        }
        let hand = self.fighters[who].hand.tiles().to_vec();
        let moves = legal_moves(&self.board, dict, &self.stats, &hand);
        let Some(bot) = self.fighters[who].bot.as_mut() else {
            return;
        };
        let mv = match bot.pick(&moves) {
            Some(m) => Some(Move::Place {
                slot: m.slot,
                pos: m.pos,
                face: m.face,
            }),
            None if moves.is_empty() => Some(Move::Swap {
                slot: bot.swap_slot(hand.len()),
            }),
            // It overlooked what it could do: it thinks again.
            None => None,
        };
        bot.rest();
        if let Some(mv) = mv {
            // A bot's move is legal by construction; a refusal would only mean the battle
            // ended this very update, and it is reported as an event like any other.
            let _ = self.apply(dict, who, mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::tests::{dict, setup};
    use crate::board::Board;
    use crate::bot::Skill;
    use crate::kana::TileStats;
    use crate::play::{Event, Hand};

    /// Two bots that always see the best move and can both place: player 0 holds な and
    /// player 1 い, on a board where each has a cell the other's move leaves open. Each bot's
    /// thinking runs out `wait` seconds into the next update.
    fn ready_to_race(b: &mut Battle, board: &Board, wait: [f32; 2]) {
        b.board = board.clone();
        for (who, hand) in ["な", "い"].into_iter().enumerate() {
            let f = &mut b.fighters[who];
            f.hand = Hand::of(crate::kana::parse_kana(hand).unwrap());
            f.hp = f.max_hp;
            f.stun = 0.0;
            f.bot.as_mut().unwrap().think_for(wait[who]);
        }
    }

    /// Who made the first move in `events`.
    fn first_mover(events: &[Event]) -> Option<usize> {
        events.iter().find_map(|e| match e {
            Event::Placed { player, .. } | Event::Swapped { player, .. } => Some(*player),
            _ => None,
        })
    }

    fn racing_bots() -> (Battle, Board) {
        let d = dict();
        let mut s = setup(5, true, false);
        for f in &mut s.fighters {
            f.bot = Some(Skill {
                sight: 1.0,
                think: 1.0,
            });
        }
        let b = Battle::new(&s, &TileStats::from_dict(&d)).unwrap();
        let board = b.board.clone();
        (b, board)
    }

    #[test]
    fn the_bot_whose_thinking_ran_out_first_moves_first() {
        let d = dict();
        let (mut b, board) = racing_bots();
        // Player 1 was ready 0.2 s into the step, player 0 only 0.5 s in.
        ready_to_race(&mut b, &board, [0.5, 0.2]);
        b.take_events();
        b.update(&d, 0.6);
        let events = b.take_events();
        assert_eq!(first_mover(&events), Some(1), "{events:?}");
        assert_eq!(
            events
                .iter()
                .filter(|e| matches!(e, Event::Placed { .. }))
                .count(),
            2
        );
        ready_to_race(&mut b, &board, [0.2, 0.5]);
        b.update(&d, 0.6);
        assert_eq!(first_mover(&b.take_events()), Some(0));
    }

    #[test]
    fn bots_ready_at_the_same_instant_take_turns_going_first() {
        let d = dict();
        let (mut b, board) = racing_bots();
        let mut firsts = Vec::new();
        for _ in 0..4 {
            ready_to_race(&mut b, &board, [0.3, 0.3]);
            b.take_events();
            b.update(&d, 0.5);
            firsts.push(first_mover(&b.take_events()));
        }
        assert_eq!(firsts, [Some(0), Some(1), Some(0), Some(1)]);
    }

    #[test]
    fn bots_fight_to_an_end() {
        let d = dict();
        let mut b = Battle::new(&setup(11, true, true), &TileStats::from_dict(&d)).unwrap();
        for _ in 0..(70 * 10) {
            b.update(&d, 0.1);
        }
        assert!(b.winner().is_some(), "{:?}", b.phase());
        assert!(b.fighters().iter().any(|f| f.words > 0));
    }
}
