//! A state as what changed since the last one a seat was sent: the board's rows that changed,
//! each fighter's fields that changed, the phase and the clocks.
//!
//! Most of a battle's tenths of a second change nothing but its clocks, and most moves one row
//! of the board and a fighter or two, so a [`Delta`] is a few bytes where a whole [`State`] is
//! hundreds. Applied to the state before it, it gives the state after exactly: every field is
//! either carried whole or left out.

use serde::{Deserialize, Serialize};

use crate::battle::{FighterState, Phase};
use crate::kana::Kana;
use crate::play::MadeWord;

use super::{Invalid, State};

/// What changed in a [`State`], for [`super::ToClient::Delta`]. A field left `None` (or a row
/// not listed) is as it was.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Delta {
    /// The seat's last answered move (always carried: it is the seat's own).
    pub acked: u32,
    /// The rows of the board that changed, by index, each whole.
    pub rows: Vec<(u8, String)>,
    /// What changed in each fighter, seat 0 first (`None`: nothing).
    pub fighters: [Option<FighterDelta>; 2],
    /// The phase, when it changed.
    pub phase: Option<Phase>,
    /// Seconds of countdown left, when they changed.
    pub countdown: Option<f32>,
    /// Seconds of fighting left, when they changed.
    pub time_left: Option<f32>,
}

/// What changed in one fighter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FighterDelta {
    /// Life left.
    pub hp: Option<u32>,
    /// Points from words.
    pub score: Option<u32>,
    /// Chain steps so far.
    pub combo: Option<u32>,
    /// Seconds left for the next word to chain.
    pub combo_left: Option<f32>,
    /// Seconds left stunned.
    pub stun: Option<f32>,
    /// Words made.
    pub words: Option<u32>,
    /// The best-scoring word, when a better one was made (it is never taken away within a
    /// battle, so there is no change back to none).
    pub best: Option<MadeWord>,
    /// The tiles held, whole, when any changed.
    pub hand: Option<Vec<Kana>>,
}

/// `after` when it differs from `before`.
fn changed<T: PartialEq + Clone>(before: &T, after: &T) -> Option<T> {
    (before != after).then(|| after.clone())
}

impl FighterDelta {
    fn between(before: &FighterState, after: &FighterState) -> FighterDelta {
        FighterDelta {
            hp: changed(&before.hp, &after.hp),
            score: changed(&before.score, &after.score),
            combo: changed(&before.combo, &after.combo),
            combo_left: changed(&before.combo_left, &after.combo_left),
            stun: changed(&before.stun, &after.stun),
            words: changed(&before.words, &after.words),
            best: if before.best != after.best {
                after.best.clone()
            } else {
                None
            },
            hand: changed(&before.hand, &after.hand),
        }
    }

    fn apply(&self, to: &mut FighterState) {
        let FighterDelta {
            hp,
            score,
            combo,
            combo_left,
            stun,
            words,
            best,
            hand,
        } = self;
        to.hp = hp.unwrap_or(to.hp);
        to.score = score.unwrap_or(to.score);
        to.combo = combo.unwrap_or(to.combo);
        to.combo_left = combo_left.unwrap_or(to.combo_left);
        to.stun = stun.unwrap_or(to.stun);
        to.words = words.unwrap_or(to.words);
        if let Some(best) = best {
            to.best = Some(best.clone());
        }
        if let Some(hand) = hand {
            to.hand = hand.clone();
        }
    }

    /// Whether only the fighter's running clocks changed (or nothing did).
    fn clocks_only(&self) -> bool {
        let FighterDelta {
            hp,
            score,
            combo,
            combo_left: _,
            stun: _,
            words,
            best,
            hand,
        } = self;
        hp.is_none()
            && score.is_none()
            && combo.is_none()
            && words.is_none()
            && best.is_none()
            && hand.is_none()
    }
}

impl Delta {
    /// What changed from `before` to `after`, with `after`'s `acked`. `None` when `after` is
    /// not of the same battle shape as `before` (another board size, or a best word taken
    /// away): send `after` whole then.
    pub fn between(before: &State, after: &State) -> Option<Delta> {
        if before.board.len() != after.board.len()
            || before.board.len() > usize::from(u8::MAX)
            || (0..2).any(|i| before.fighters[i].best.is_some() && after.fighters[i].best.is_none())
        {
            return None;
        }
        let rows = before
            .board
            .iter()
            .zip(&after.board)
            .enumerate()
            .filter(|(_, (b, a))| b != a)
            .map(|(i, (_, a))| (i as u8, a.clone()))
            .collect();
        Some(Delta {
            acked: after.acked,
            rows,
            fighters: [0, 1].map(|i| {
                Some(FighterDelta::between(
                    &before.fighters[i],
                    &after.fighters[i],
                ))
                .filter(|d| *d != FighterDelta::default())
            }),
            phase: changed(&before.phase, &after.phase),
            countdown: changed(&before.countdown, &after.countdown),
            time_left: changed(&before.time_left, &after.time_left),
        })
    }

    /// The state `before` becomes with this change, checked whole. A row past the board's is
    /// refused.
    pub fn apply(&self, before: &State) -> Result<State, Invalid> {
        self.validate()?;
        let mut state = before.clone();
        state.acked = self.acked;
        for (i, (row, text)) in self.rows.iter().enumerate() {
            let Some(slot) = state.board.get_mut(usize::from(*row)) else {
                return Err(Invalid::Out {
                    field: format!("Delta.rows[{i}]"),
                    value: row.to_string(),
                    expected: format!("a row of the board (it has {})", before.board.len()),
                });
            };
            *slot = text.clone();
        }
        for (delta, fighter) in self.fighters.iter().zip(&mut state.fighters) {
            if let Some(delta) = delta {
                delta.apply(fighter);
            }
        }
        state.phase = self.phase.unwrap_or(state.phase);
        state.countdown = self.countdown.unwrap_or(state.countdown);
        state.time_left = self.time_left.unwrap_or(state.time_left);
        state.validate()?;
        Ok(state)
    }

    /// Whether nothing changed but the clocks running down (the countdown, the fight's clock,
    /// chains and stuns) since a state whose `acked` was `acked`: news a player's mirror
    /// already has, since it runs the same clocks between states.
    pub fn clocks_only(&self, acked: u32) -> bool {
        self.acked == acked
            && self.rows.is_empty()
            && self.phase.is_none()
            && self
                .fighters
                .iter()
                .flatten()
                .all(FighterDelta::clocks_only)
    }
}

/// Why a change that comes before any whole state is refused.
pub(super) fn no_state_before() -> Invalid {
    Invalid::Out {
        field: "Delta".into(),
        value: "a change".into(),
        expected: "to a state the room sent before it".into(),
    }
}

/// The room's states as one seat has been sent them, for a reader that wants each whole: a
/// [`super::ToClient::Start`] forgets the last state (the next comes whole), a
/// [`super::ToClient::State`] is kept, and a [`super::ToClient::Delta`] is applied to it and
/// read as the state it makes.
#[derive(Clone, Debug, Default)]
pub struct Received {
    last: Option<State>,
}

impl Received {
    /// `msg` with a change read as the whole state it makes; any other message as it is. A
    /// change with no state before it, or one that does not fit it, is refused and the last
    /// state kept.
    pub fn read(&mut self, msg: super::ToClient) -> Result<super::ToClient, Invalid> {
        use super::ToClient;
        match msg {
            ToClient::Start(start) => {
                self.last = None;
                Ok(ToClient::Start(start))
            }
            ToClient::State(state) => {
                self.last = Some(state.clone());
                Ok(ToClient::State(state))
            }
            ToClient::Delta(delta) => {
                let before = self.last.as_ref().ok_or_else(no_state_before)?;
                let state = delta.apply(before)?;
                self.last = Some(state.clone());
                Ok(ToClient::State(state))
            }
            other => Ok(other),
        }
    }

    /// The last state, whole.
    pub fn last(&self) -> Option<&State> {
        self.last.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{Battle, FighterSpec, Move, Setup};
    use crate::board::Board;
    use crate::dict::Dict;
    use crate::kana::TileStats;
    use crate::net::state_for;

    /// さか in the middle of a 6x5 board, fighting at once.
    fn setup(seed: u64) -> Setup {
        let fighter = |name: &str| FighterSpec {
            name: name.into(),
            life: 60,
            hand: 5,
            bot: None,
        };
        Setup {
            board: Board::from_rows(&["......", "......", "..さか..", "......", "......"]).unwrap(),
            fighters: [fighter("あ"), fighter("い")],
            time: 60.0,
            seed,
            countdown: false,
        }
    }

    fn battle(seed: u64) -> Battle {
        Battle::new(&setup(seed), &TileStats::from_dict(Dict::japanese())).unwrap()
    }

    #[test]
    fn a_moment_of_clocks_is_a_few_bytes_and_applies_back_exactly() {
        let mut b = battle(3);
        let before = state_for(&b, 2);
        b.update(Dict::japanese(), 0.1);
        let after = state_for(&b, 2);
        let delta = Delta::between(&before, &after).unwrap();
        assert!(delta.clocks_only(2), "{delta:?}");
        assert!(!delta.clocks_only(1));
        assert_eq!(delta.apply(&before).unwrap(), after);
        let bytes = postcard::to_allocvec(&delta).unwrap();
        let whole = postcard::to_allocvec(&after).unwrap();
        assert!(bytes.len() <= 12, "{} bytes", bytes.len());
        assert!(
            whole.len() > 10 * bytes.len(),
            "{} against {}",
            whole.len(),
            bytes.len()
        );
    }

    #[test]
    fn a_move_is_a_row_and_a_fighter_and_applies_back_exactly() {
        let mut b = battle(5);
        let before = state_for(&b, 0);
        let dict = Dict::japanese();
        let moves = crate::bot::legal_moves(
            &Board::from_rows(&before.board).unwrap(),
            dict,
            &TileStats::from_dict(dict),
            &before.fighters[0].hand,
        );
        let m = moves[0];
        b.apply(
            dict,
            0,
            Move::Place {
                slot: m.slot,
                pos: m.pos,
                face: m.face,
            },
        )
        .unwrap();
        let after = state_for(&b, 1);
        let delta = Delta::between(&before, &after).unwrap();
        assert!(!delta.clocks_only(0));
        assert!(!delta.rows.is_empty());
        assert!(delta.fighters[0].as_ref().unwrap().hand.is_some());
        assert_eq!(delta.apply(&before).unwrap(), after);
    }

    #[test]
    fn received_messages_read_changes_as_whole_states_and_a_start_forgets() {
        use crate::net::ToClient;
        let mut b = battle(7);
        let first = state_for(&b, 0);
        b.update(Dict::japanese(), 0.25);
        let second = state_for(&b, 0);
        let delta = ToClient::Delta(Delta::between(&first, &second).unwrap());
        let mut seen = Received::default();
        assert!(seen.read(delta.clone()).is_err(), "no state before it");
        assert_eq!(seen.last(), None);
        seen.read(ToClient::State(first.clone())).unwrap();
        assert_eq!(
            seen.read(delta.clone()),
            Ok(ToClient::State(second.clone()))
        );
        assert_eq!(seen.last(), Some(&second));
        let other = ToClient::Again {
            asked: [true, false],
        };
        assert_eq!(seen.read(other.clone()), Ok(other));
        assert_eq!(seen.last(), Some(&second));
        let start = ToClient::Start(crate::net::start_for(&setup(7), "さか", 0));
        assert_eq!(seen.read(start.clone()), Ok(start));
        assert_eq!(seen.last(), None);
        assert!(seen.read(delta).is_err(), "the next state comes whole");
    }

    #[test]
    fn a_row_past_the_board_or_a_bad_field_is_refused_and_changes_nothing() {
        let before = state_for(&battle(1), 0);
        let past = Delta {
            rows: vec![(40, "...".into())],
            ..Delta::default()
        };
        assert!(past.apply(&before).is_err());
        let bad_clock = Delta {
            time_left: Some(f32::NAN),
            ..Delta::default()
        };
        assert!(bad_clock.apply(&before).is_err());
        let bad_row = Delta {
            rows: vec![(0, "?".repeat(400))],
            ..Delta::default()
        };
        assert!(bad_row.apply(&before).is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// A change as a hostile room might send it (rows anywhere, of any text, fighters'
        /// fields of any value, clocks of any float) is refused or makes a state that holds,
        /// and never panics; a refused one leaves nothing changed.
        #[test]
        fn any_change_is_refused_or_makes_a_state_that_holds(
            rows in proptest::collection::vec((0u8..20, "[.さかなあいうー#]{0,14}"), 0..5),
            hp in proptest::option::of(0u32..500),
            hand in proptest::option::of(proptest::collection::vec(
                proptest::sample::select(Kana::all().collect::<Vec<_>>()), 0..12)),
            stun in proptest::option::of(proptest::num::f32::ANY),
            time_left in proptest::option::of(proptest::num::f32::ANY),
            acked in 0u32..100,
        ) {
            let dict = Dict::japanese();
            let before = state_for(&battle(9), 0);
            let mut mirror =
                crate::net::Mirror::new(dict, &crate::net::start_for(&setup(9), "さか", 0)).unwrap();
            mirror.apply_state(dict, &before).unwrap();
            let shown = mirror.battle().clone();
            let delta = Delta {
                acked,
                rows,
                fighters: [
                    Some(FighterDelta { hp, hand, stun, ..FighterDelta::default() }),
                    None,
                ],
                time_left,
                ..Delta::default()
            };
            match delta.apply(&before) {
                Ok(after) => {
                    proptest::prop_assert!(after.validate().is_ok());
                    proptest::prop_assert!(after.snapshot().is_ok());
                }
                Err(_) => {
                    // The mirror refuses it too, and keeps both what it shows and the state
                    // the next change applies to.
                    proptest::prop_assert!(mirror.apply_delta(dict, &delta).is_err());
                    proptest::prop_assert_eq!(mirror.battle(), &shown);
                    let quiet = Delta { acked: 0, ..Delta::default() };
                    proptest::prop_assert!(mirror.apply_delta(dict, &quiet).is_ok());
                    proptest::prop_assert_eq!(mirror.battle(), &shown);
                }
            }
        }
    }
}
