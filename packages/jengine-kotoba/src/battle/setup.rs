//! How a battle is set up: the board, the two fighters, the time and the seed, and the check
//! that refuses a [`Setup`] that cannot make a battle before anything is dealt.

use thiserror::Error;

use super::FighterSpec;
use crate::board::Board;
use crate::play::MAX_HAND;

/// How a battle is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The board, with its first kana.
    pub board: Board,
    /// Player 0 and player 1.
    pub fighters: [FighterSpec; 2],
    /// Seconds of fighting before the clock decides.
    pub time: f32,
    /// The seed every tile and bot choice comes from.
    pub seed: u64,
    /// Whether to count down [`COUNTDOWN`](super::COUNTDOWN) seconds first.
    pub countdown: bool,
}

/// A [`Setup`] that cannot make a battle. Nothing is dealt when one is found.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SetupError {
    /// A fighter asks for an empty hand or more than [`MAX_HAND`] tiles.
    #[error(
        "player {player} ({name:?}) asks for a hand of {size} tiles; a hand holds 1 to {MAX_HAND}"
    )]
    Hand {
        /// 0 or 1.
        player: usize,
        /// The fighter's name.
        name: String,
        /// The hand size asked for.
        size: usize,
    },
    /// A fighter starts with no life.
    #[error("player {player} ({name:?}) starts with no life; a fighter needs 1 or more")]
    Life {
        /// 0 or 1.
        player: usize,
        /// The fighter's name.
        name: String,
    },
    /// The fight lasts no time, or the time is not a number.
    #[error("the battle lasts {time} seconds; it must last more than 0")]
    Time {
        /// The time asked for.
        time: f32,
    },
}

impl Setup {
    /// Whether this makes a battle: both hands hold 1 to [`MAX_HAND`] tiles, both fighters have
    /// life and the fight lasts some time. The first problem found names the fighter and the
    /// value.
    pub fn check(&self) -> Result<(), SetupError> {
        for (player, spec) in self.fighters.iter().enumerate() {
            if !(1..=MAX_HAND).contains(&spec.hand) {
                return Err(SetupError::Hand {
                    player,
                    name: spec.name.clone(),
                    size: spec.hand,
                });
            }
            if spec.life == 0 {
                return Err(SetupError::Life {
                    player,
                    name: spec.name.clone(),
                });
            }
        }
        if self.time.is_nan() || self.time <= 0.0 {
            return Err(SetupError::Time { time: self.time });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Battle;
    use crate::battle::tests::{dict, setup};
    use crate::kana::TileStats;

    #[test]
    fn a_hand_out_of_range_is_refused_naming_the_fighter_and_size() {
        let stats = TileStats::from_dict(&dict());
        let mut s = setup(1, false, false);
        s.fighters[1].hand = MAX_HAND + 1;
        let e = Battle::new(&s, &stats).unwrap_err();
        assert_eq!(
            e,
            SetupError::Hand {
                player: 1,
                name: "い".into(),
                size: MAX_HAND + 1
            }
        );
        assert_eq!(
            e.to_string(),
            format!("player 1 (\"い\") asks for a hand of 13 tiles; a hand holds 1 to {MAX_HAND}")
        );
        let mut s = setup(1, false, false);
        s.fighters[0].hand = 0;
        assert!(matches!(
            Battle::new(&s, &stats),
            Err(SetupError::Hand {
                player: 0,
                size: 0,
                ..
            })
        ));
        let mut s = setup(1, false, false);
        s.fighters[0].hand = 1_000_000_000;
        assert!(matches!(
            Battle::new(&s, &stats),
            Err(SetupError::Hand {
                size: 1_000_000_000,
                ..
            })
        ));
        // The largest hand allowed is dealt in full.
        let mut s = setup(1, false, false);
        s.fighters[0].hand = MAX_HAND;
        let b = Battle::new(&s, &stats).unwrap();
        assert_eq!(b.fighters()[0].hand().len(), MAX_HAND);
        assert_eq!(b.hand_size(0), MAX_HAND);
    }

    #[test]
    fn no_life_or_no_time_is_refused() {
        let stats = TileStats::from_dict(&dict());
        let mut s = setup(1, false, false);
        s.fighters[1].life = 0;
        assert_eq!(
            Battle::new(&s, &stats),
            Err(SetupError::Life {
                player: 1,
                name: "い".into()
            })
        );
        for time in [0.0, -3.0, f32::NAN] {
            let mut s = setup(1, false, false);
            s.time = time;
            let e = Battle::new(&s, &stats).unwrap_err();
            assert!(matches!(e, SetupError::Time { .. }), "{time}: {e:?}");
        }
    }
}
