//! A battle at one instant, as everyone at the table sees it: [`Battle::snapshot`] takes one,
//! and [`Battle::restore`] puts a battle back at it after checking that it can be a moment of
//! that battle (so a player's copy can take the room's word and never half-apply it).

use thiserror::Error;

use super::{Battle, COMBO_WINDOW, COUNTDOWN, FighterState, Phase, STUN};
use crate::board::{Board, Cell, Pos};
use crate::play::Hand;

/// A battle at one instant, as everyone at the table sees it: what [`Battle::restore`] puts
/// back. The tile stream and the bots' thinking are not in it; a restored battle keeps its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The board.
    pub board: Board,
    /// Both fighters, player 0 first.
    pub fighters: [FighterState; 2],
    /// Where the battle stands.
    pub phase: Phase,
    /// Seconds of countdown left.
    pub countdown: f32,
    /// Seconds of fighting left.
    pub time_left: f32,
}

/// A [`Snapshot`] that is not a moment of this battle. The battle is unchanged when one is found.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RestoreError {
    /// The board has another size.
    #[error("the board is {found_width}x{found_height}; this battle's is {width}x{height}")]
    BoardSize {
        /// This battle's columns.
        width: usize,
        /// This battle's rows.
        height: usize,
        /// The snapshot's columns.
        found_width: usize,
        /// The snapshot's rows.
        found_height: usize,
    },
    /// A wall where this battle has none, or none where it has one: walls never change.
    #[error("column {}, row {}: the walls differ from this battle's", .pos.x + 1, .pos.y + 1)]
    Walls {
        /// The first cell that differs.
        pos: Pos,
    },
    /// More tiles than the fighter's hand holds.
    #[error("player {player} holds {found} tiles; their hand holds at most {size}")]
    Hand {
        /// 0 or 1.
        player: usize,
        /// The hand size they keep.
        size: usize,
        /// The tiles in the snapshot.
        found: usize,
    },
    /// More life than the fighter started with.
    #[error("player {player} has {hp} life, more than the {max_hp} they started with")]
    Life {
        /// 0 or 1.
        player: usize,
        /// The snapshot's life.
        hp: u32,
        /// Life at the start.
        max_hp: u32,
    },
    /// A clock outside what the rules ever show.
    #[error("{what} is {seconds}; it must be a number of seconds from 0 to {most}")]
    Clock {
        /// Which clock, such as `player 1's stun`.
        what: String,
        /// The snapshot's value.
        seconds: f32,
        /// The most it can be.
        most: f32,
    },
    /// A winner the battle does not have.
    #[error("the winner is player {player}; the players are 0 and 1")]
    Winner {
        /// The index given.
        player: usize,
    },
}

impl Battle {
    /// The battle as everyone at the table sees it now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            board: self.board.clone(),
            fighters: [0, 1].map(|i| self.fighters[i].state()),
            phase: self.phase,
            countdown: self.countdown(),
            time_left: self.time_left,
        }
    }

    /// Puts the battle at the moment `snapshot` shows: the board, both fighters, the phase and
    /// the clocks. This is how a copy of a battle kept elsewhere (a player's mirror of a room's
    /// battle) takes the owner's word for it.
    ///
    /// The snapshot must be a moment of this battle: a board of the same size and walls (kana
    /// may come and go, so a guess can be taken back), hands no bigger than they hold, no more
    /// life than at the start, clocks in range and a winner who is a player. Otherwise nothing
    /// changes. The tile stream, the bots and the events not yet taken stay as they were.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<(), RestoreError> {
        let Snapshot {
            board,
            fighters,
            phase,
            countdown,
            time_left,
        } = snapshot;
        let (width, height) = (self.board.width(), self.board.height());
        if (board.width(), board.height()) != (width, height) {
            return Err(RestoreError::BoardSize {
                width,
                height,
                found_width: board.width(),
                found_height: board.height(),
            });
        }
        if let Some(pos) = self
            .board
            .positions()
            .find(|&p| (self.board.cell(p) == Cell::Wall) != (board.cell(p) == Cell::Wall))
        {
            return Err(RestoreError::Walls { pos });
        }
        let clock = |what: String, seconds: f32, most: f32| {
            if (0.0..=most).contains(&seconds) {
                Ok(())
            } else {
                Err(RestoreError::Clock {
                    what,
                    seconds,
                    most,
                })
            }
        };
        for (player, (f, state)) in self.fighters.iter().zip(fighters).enumerate() {
            if state.hand.len() > f.hand_size {
                return Err(RestoreError::Hand {
                    player,
                    size: f.hand_size,
                    found: state.hand.len(),
                });
            }
            if state.hp > f.max_hp {
                return Err(RestoreError::Life {
                    player,
                    hp: state.hp,
                    max_hp: f.max_hp,
                });
            }
            clock(format!("player {player}'s stun"), state.stun, STUN)?;
            clock(
                format!("player {player}'s chain time"),
                state.combo_left,
                COMBO_WINDOW,
            )?;
        }
        clock("the countdown".into(), *countdown, COUNTDOWN as f32)?;
        clock("the time left".into(), *time_left, self.time)?;
        if let Phase::Over {
            winner: Some(player),
            ..
        } = *phase
            && player >= self.fighters.len()
        {
            return Err(RestoreError::Winner { player });
        }
        // Checked: now change.
        self.board = board.clone();
        for (f, state) in self.fighters.iter_mut().zip(fighters) {
            f.hp = state.hp;
            f.score = state.score;
            f.combo = state.combo;
            f.combo_left = state.combo_left;
            f.stun = state.stun;
            f.words = state.words;
            f.best = state.best.clone();
            f.hand = Hand::of(state.hand.iter().copied());
        }
        self.phase = *phase;
        self.countdown = *countdown;
        self.time_left = *time_left;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Move;
    use crate::battle::tests::{dict, k, setup, with_hands};
    use crate::kana::TileStats;
    use crate::play::Ending;

    #[test]
    fn a_restored_battle_shows_the_snapshot_and_keeps_its_tile_stream() {
        let d = dict();
        let stats = TileStats::from_dict(&d);
        let mut room = with_hands("な", "い");
        room.apply(
            &d,
            0,
            Move::Place {
                slot: 0,
                pos: Pos::new(4, 2),
                face: k('な'),
            },
        )
        .unwrap();
        room.apply(&d, 1, Move::Swap { slot: 0 }).unwrap();
        room.update(&d, 0.5);
        let mut copy = Battle::new(&setup(1, false, false), &stats).unwrap();
        copy.take_events();
        let rng = copy.rng.clone();
        copy.restore(&room.snapshot()).unwrap();
        assert_eq!(copy.snapshot(), room.snapshot());
        assert_eq!(copy.fighters()[1].stun, STUN - 0.5);
        assert_eq!(copy.rng, rng);
        assert!(copy.take_events().is_empty());
        // A placed kana can be taken back: the board is the snapshot's.
        let before = Battle::new(&setup(1, false, false), &stats).unwrap();
        copy.restore(&before.snapshot()).unwrap();
        assert_eq!(copy.board().kana(Pos::new(4, 2)), None);
        assert_eq!(copy.snapshot(), before.snapshot());
    }

    #[test]
    fn a_snapshot_of_another_battle_is_refused_and_changes_nothing() {
        let b = with_hands("な", "い");
        let good = b.snapshot();
        let refused = |change: &dyn Fn(&mut Snapshot)| {
            let mut s = good.clone();
            change(&mut s);
            let mut copy = b.clone();
            let e = copy.restore(&s).unwrap_err();
            assert_eq!(copy, b, "{e}");
            e
        };
        let e = refused(&|s| s.board = Board::new(3, 3));
        assert_eq!(e.to_string(), "the board is 3x3; this battle's is 6x5");
        let e = refused(&|s| s.board.set(Pos::new(5, 4), Cell::Wall));
        assert_eq!(
            e,
            RestoreError::Walls {
                pos: Pos::new(5, 4)
            }
        );
        assert_eq!(
            e.to_string(),
            "column 6, row 5: the walls differ from this battle's"
        );
        let e = refused(&|s| s.fighters[1].hand = vec![k('い'); 6]);
        assert_eq!(
            e.to_string(),
            "player 1 holds 6 tiles; their hand holds at most 5"
        );
        let e = refused(&|s| s.fighters[0].hp = 61);
        assert_eq!(
            e.to_string(),
            "player 0 has 61 life, more than the 60 they started with"
        );
        let e = refused(&|s| s.fighters[1].stun = f32::NAN);
        assert_eq!(
            e.to_string(),
            "player 1's stun is NaN; it must be a number of seconds from 0 to 2"
        );
        refused(&|s| s.fighters[0].combo_left = COMBO_WINDOW + 1.0);
        refused(&|s| s.countdown = -1.0);
        refused(&|s| s.time_left = 61.0);
        let e = refused(&|s| {
            s.phase = Phase::Over {
                winner: Some(2),
                why: Ending::Ko,
            }
        });
        assert_eq!(e, RestoreError::Winner { player: 2 });
    }
}
