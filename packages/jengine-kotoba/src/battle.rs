//! Two players at once on one board: every word a player makes hits the other for its points.
//!
//! There are no turns. Moves are plain data applied in the order they arrive, and time moves
//! only through [`Battle::update`], so a battle is a pure function of its seed, its moves and
//! the time between them: replayed, it ends the same way (which is what an online match needs).
//!
//! Beside it: who fights (`battle/fighter.rs`), how a battle is set up and checked
//! (`battle/setup.rs`), the bots' moves within a step (`battle/bots.rs`), and a battle at one
//! instant, taken and put back (`battle/snapshot.rs`).

use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::board::{Board, Cell, Pos};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::{Ending, Event, MadeWord, Refusal, placement};

mod bots;
mod fighter;
mod setup;
mod snapshot;

pub use fighter::{Fighter, FighterSpec, FighterState};
pub use setup::{Setup, SetupError};
pub use snapshot::{RestoreError, Snapshot};

use fighter::multiplier;

/// Seconds after a word in which the next one chains.
pub const COMBO_WINDOW: f32 = 4.0;
/// What each step of a chain adds to the damage multiplier.
pub const COMBO_STEP: f32 = 0.25;
/// The most a chain can multiply damage by.
pub const MAX_MULTIPLIER: f32 = 2.0;
/// Seconds a swap leaves the swapper unable to move.
pub const STUN: f32 = 2.0;
/// Seconds of countdown before the fight starts.
pub const COUNTDOWN: u32 = 3;

/// A move, as plain data: what a player (or the network) sends.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    /// Put the tile in `slot` at `pos`, showing `face` (one of its forms).
    Place {
        /// The hand slot.
        slot: usize,
        /// The cell.
        pos: Pos,
        /// The face it is played as; auto-form may still pick another.
        face: Kana,
    },
    /// Turn the tile in `slot` to its next form.
    Turn {
        /// The hand slot.
        slot: usize,
    },
    /// Trade the tile in `slot` for a fresh one, and be stunned for [`STUN`] seconds.
    Swap {
        /// The hand slot.
        slot: usize,
    },
}

/// Where a battle stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Counting down; moves are refused.
    Countdown,
    /// Fighting.
    Fight,
    /// Over: the winner (`None` for a draw) and how.
    Over {
        /// Who won.
        winner: Option<usize>,
        /// How it ended.
        why: Ending,
    },
}

/// A battle in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Battle {
    board: Board,
    stats: TileStats,
    fighters: [Fighter; 2],
    rng: Pcg32,
    phase: Phase,
    countdown: f32,
    /// Seconds of fighting the battle was set up with.
    time: f32,
    time_left: f32,
    /// Which bot moves first when both finish thinking at the same instant; it alternates.
    first_on_tie: usize,
    events: Vec<Event>,
}

impl Battle {
    /// Sets up a battle: deals both hands from the seed and starts the countdown (or the
    /// fight, without one).
    ///
    /// A hand of 0 or more than [`MAX_HAND`](crate::play::MAX_HAND) tiles, a fighter with no
    /// life or a fight that lasts no time is refused ([`Setup::check`]), naming the fighter and
    /// the value.
    pub fn new(setup: &Setup, stats: &TileStats) -> Result<Battle, SetupError> {
        setup.check()?;
        let mut rng = Pcg32::seed_from_u64(setup.seed);
        let fighters =
            [0, 1].map(|i| Fighter::deal(&setup.fighters[i], i, setup.seed, stats, &mut rng));
        let mut battle = Battle {
            board: setup.board.clone(),
            stats: stats.clone(),
            fighters,
            rng,
            phase: Phase::Fight,
            countdown: 0.0,
            time: setup.time,
            time_left: setup.time,
            first_on_tie: 0,
            events: vec![Event::Started],
        };
        if setup.countdown {
            battle.phase = Phase::Countdown;
            battle.countdown = COUNTDOWN as f32;
            battle.events.push(Event::Countdown(COUNTDOWN));
        } else {
            battle.check_full();
        }
        Ok(battle)
    }

    /// Applies one move by player `who` (0 or 1). A refused move changes nothing but is
    /// reported as an event, too, except one by a player the battle does not have
    /// ([`Refusal::NoSuchPlayer`]): there is no one to show that to.
    pub fn apply(&mut self, dict: &Dict, who: usize, mv: Move) -> Result<(), Refusal> {
        if who >= self.fighters.len() {
            return Err(Refusal::NoSuchPlayer { player: who });
        }
        let result = self.try_apply(dict, who, mv);
        if let Err(why) = result {
            self.events.push(Event::Refused { player: who, why });
        }
        result
    }

    fn try_apply(&mut self, dict: &Dict, who: usize, mv: Move) -> Result<(), Refusal> {
        if self.phase != Phase::Fight {
            return Err(Refusal::NotPlaying);
        }
        match mv {
            Move::Turn { slot } => {
                let kana = self.fighters[who].hand.turn(slot).ok_or(Refusal::NoTile)?;
                self.events.push(Event::Turned {
                    player: who,
                    slot,
                    kana,
                });
            }
            Move::Swap { slot } => {
                let f = &self.fighters[who];
                if f.stun > 0.0 {
                    return Err(Refusal::Stunned);
                }
                f.hand.get(slot).ok_or(Refusal::NoTile)?;
                let kana = self.stats.deal(&mut self.rng);
                let f = &mut self.fighters[who];
                f.hand.replace(slot, Some(kana));
                f.stun = STUN;
                self.events.push(Event::Swapped {
                    player: who,
                    slot,
                    kana,
                });
            }
            Move::Place { slot, pos, face } => self.place(dict, who, slot, pos, face)?,
        }
        Ok(())
    }

    fn place(
        &mut self,
        dict: &Dict,
        who: usize,
        slot: usize,
        pos: Pos,
        face: Kana,
    ) -> Result<(), Refusal> {
        let f = &self.fighters[who];
        if f.stun > 0.0 {
            return Err(Refusal::Stunned);
        }
        let held = f.hand.get(slot).ok_or(Refusal::NoTile)?;
        if held.base() != face.base() {
            return Err(Refusal::NoTile);
        }
        let placed = placement(&self.board, dict, &self.stats, pos, face)?;
        // Checked: now change.
        self.board.set(pos, Cell::Kana(placed.kana));
        let fresh = self.stats.deal(&mut self.rng);
        let words = MadeWord::all(dict, &self.stats, &placed);
        let f = &mut self.fighters[who];
        f.hand.replace(slot, Some(fresh));
        f.combo = if f.combo_left > 0.0 { f.combo + 1 } else { 0 };
        f.combo_left = COMBO_WINDOW;
        let damage = (placed.points as f32 * multiplier(f.combo)).round() as u32;
        f.score += placed.points;
        f.words += words.len() as u32;
        for w in &words {
            if f.best.as_ref().is_none_or(|b| w.points > b.points) {
                f.best = Some(w.clone());
            }
        }
        let combo = f.combo;
        self.events.push(Event::Placed {
            player: who,
            pos,
            kana: placed.kana,
            points: placed.points,
            damage,
            combo,
            words,
        });
        let other = 1 - who;
        let target = &mut self.fighters[other];
        target.hp = target.hp.saturating_sub(damage);
        let hp = target.hp;
        self.events.push(Event::Hit {
            to: other,
            damage,
            hp,
        });
        if hp == 0 {
            self.end(Some(who), Ending::Ko);
        } else {
            self.check_full();
        }
        Ok(())
    }

    /// Moves time on by `dt` seconds: the countdown, the clock, chains running out, stuns
    /// wearing off, and the bots' moves.
    pub fn update(&mut self, dict: &Dict, dt: f32) {
        let dt = dt.max(0.0);
        match self.phase {
            Phase::Over { .. } => {}
            Phase::Countdown => {
                let before = self.countdown.ceil() as u32;
                self.countdown -= dt;
                let now = self.countdown.max(0.0).ceil() as u32;
                for n in (now..before).rev() {
                    self.events.push(Event::Countdown(n));
                }
                if self.countdown <= 0.0 {
                    self.phase = Phase::Fight;
                    self.check_full();
                }
            }
            Phase::Fight => {
                for f in &mut self.fighters {
                    f.stun = (f.stun - dt).max(0.0);
                    f.combo_left = (f.combo_left - dt).max(0.0);
                    if f.combo_left <= 0.0 {
                        f.combo = 0;
                    }
                }
                for who in self.ready_bots(dt).into_iter().flatten() {
                    self.run_bot(dict, who);
                }
                if self.phase == Phase::Fight {
                    self.time_left = (self.time_left - dt).max(0.0);
                    if self.time_left <= 0.0 {
                        let winner = self.leader();
                        self.end(winner, Ending::Time);
                    }
                }
            }
        }
    }

    /// Ends the fight when no free cell is left beside a kana.
    fn check_full(&mut self) {
        if self.phase == Phase::Fight && self.board.open_cells().next().is_none() {
            let winner = self.leader();
            self.end(winner, Ending::Full);
        }
    }

    /// The fighter with more of their own life left, as a share of the life they started
    /// with; `None` when even. Raw life would favour whoever started with more (a rival's
    /// 160 against a player's 100), so a player who never made a word could win on time.
    fn leader(&self) -> Option<usize> {
        let [a, b] = &self.fighters;
        // a.hp / a.max_hp against b.hp / b.max_hp, exactly.
        let left_a = a.hp as u64 * b.max_hp.max(1) as u64;
        let left_b = b.hp as u64 * a.max_hp.max(1) as u64;
        match left_a.cmp(&left_b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn end(&mut self, winner: Option<usize>, why: Ending) {
        self.phase = Phase::Over { winner, why };
        self.events.push(Event::Over { winner, why });
    }

    /// The events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The tile stats in play.
    pub fn stats(&self) -> &TileStats {
        &self.stats
    }

    /// Both fighters, player 0 first.
    pub fn fighters(&self) -> &[Fighter; 2] {
        &self.fighters
    }

    /// Where the battle stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Seconds of countdown left.
    pub fn countdown(&self) -> f32 {
        self.countdown.max(0.0)
    }

    /// Seconds of fighting left.
    pub fn time_left(&self) -> f32 {
        self.time_left
    }

    /// The winner once over: `Some(Some(i))`, `Some(None)` for a draw, `None` while it goes on.
    pub fn winner(&self) -> Option<Option<usize>> {
        match self.phase {
            Phase::Over { winner, .. } => Some(winner),
            _ => None,
        }
    }

    /// The hand size each fighter keeps.
    pub fn hand_size(&self, who: usize) -> usize {
        self.fighters.get(who).map_or(0, |f| f.hand_size)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bot::Skill;
    use crate::play::Hand;
    use proptest::prelude::*;

    pub(crate) fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nさか\t坂\tslope\n\
             いか\t烏賊\tsquid\nいぬ\t犬\tdog\nさけ\t鮭\tsalmon\nかさ\t傘\tumbrella\n\
             なか\t中\tinside\nかい\t貝\tshellfish\nいし\t石\tstone\nしか\t鹿\tdeer\n",
        )
        .unwrap()
    }

    pub(crate) fn k(c: char) -> Kana {
        Kana::from_char(c).unwrap()
    }

    pub(crate) fn setup(seed: u64, bots: bool, countdown: bool) -> Setup {
        let skill = bots.then_some(Skill {
            sight: 0.8,
            think: 1.5,
        });
        Setup {
            board: Board::from_rows(&["......", "......", "..さか..", "......", "......"]).unwrap(),
            fighters: [
                FighterSpec {
                    name: "あ".into(),
                    life: 60,
                    hand: 5,
                    bot: skill,
                },
                FighterSpec {
                    name: "い".into(),
                    life: 60,
                    hand: 5,
                    bot: skill,
                },
            ],
            time: 60.0,
            seed,
            countdown,
        }
    }

    /// A battle with the given hands, fighting at once.
    pub(crate) fn with_hands(a: &str, b: &str) -> Battle {
        let d = dict();
        let mut battle = Battle::new(&setup(1, false, false), &TileStats::from_dict(&d)).unwrap();
        battle.fighters[0].hand = Hand::of(crate::kana::parse_kana(a).unwrap());
        battle.fighters[1].hand = Hand::of(crate::kana::parse_kana(b).unwrap());
        battle
    }

    #[test]
    fn a_word_hits_the_other_fighter_for_its_points() {
        let d = dict();
        let mut b = with_hands("な", "い");
        b.apply(
            &d,
            0,
            Move::Place {
                slot: 0,
                pos: Pos::new(4, 2),
                face: k('な'),
            },
        )
        .unwrap();
        let events = b.take_events();
        let Some(Event::Placed { points, damage, .. }) =
            events.iter().find(|e| matches!(e, Event::Placed { .. }))
        else {
            panic!("no placement in {events:?}");
        };
        assert_eq!(points, damage);
        assert_eq!(b.fighters()[1].hp, 60 - damage);
        assert_eq!(b.fighters()[0].score, *points);
        // The placed tile's slot was dealt a fresh one.
        assert_eq!(b.fighters()[0].hand().len(), 1);
    }

    #[test]
    fn words_inside_the_window_chain_up_to_double() {
        let d = dict();
        let mut b = with_hands("な", "い");
        let place = |b: &mut Battle, x: usize, y: usize, c: char| {
            let slot = 0;
            b.fighters[0].hand = Hand::of([k(c)]);
            b.apply(
                &d,
                0,
                Move::Place {
                    slot,
                    pos: Pos::new(x, y),
                    face: k(c),
                },
            )
        };
        place(&mut b, 4, 2, 'な').unwrap();
        assert_eq!(b.fighters()[0].combo, 0);
        b.update(&d, 3.0);
        place(&mut b, 5, 2, 'つ').unwrap();
        assert_eq!(b.fighters()[0].combo, 1);
        assert_eq!(b.fighters()[0].multiplier(), 1.25);
        b.update(&d, COMBO_WINDOW + 0.1);
        assert_eq!(b.fighters()[0].combo, 0);
        place(&mut b, 3, 3, 'い').unwrap();
        assert_eq!(b.fighters()[0].combo, 0);
    }

    #[test]
    fn a_swap_stuns_for_two_seconds() {
        let d = dict();
        let mut b = with_hands("なぬ", "い");
        b.apply(&d, 0, Move::Swap { slot: 1 }).unwrap();
        let place = Move::Place {
            slot: 0,
            pos: Pos::new(4, 2),
            face: k('な'),
        };
        assert_eq!(b.apply(&d, 0, place), Err(Refusal::Stunned));
        b.update(&d, 1.0);
        assert_eq!(b.apply(&d, 0, place), Err(Refusal::Stunned));
        b.update(&d, 1.01);
        assert_eq!(b.apply(&d, 0, place), Ok(()));
    }

    #[test]
    fn turning_and_bad_moves() {
        let d = dict();
        let mut b = with_hands("は", "い");
        b.apply(&d, 0, Move::Turn { slot: 0 }).unwrap();
        assert_eq!(b.fighters()[0].hand(), [k('ば')]);
        assert_eq!(b.apply(&d, 0, Move::Turn { slot: 3 }), Err(Refusal::NoTile));
        let wrong = Move::Place {
            slot: 0,
            pos: Pos::new(4, 2),
            face: k('な'),
        };
        let before = b.board().clone();
        assert_eq!(b.apply(&d, 0, wrong), Err(Refusal::NoTile));
        assert_eq!(b.board(), &before);
    }

    #[test]
    fn a_player_above_one_is_refused_by_its_index() {
        let d = dict();
        let mut b = with_hands("は", "い");
        b.take_events();
        let before = b.clone();
        for who in [2, 7, usize::MAX] {
            assert_eq!(
                b.apply(&d, who, Move::Turn { slot: 0 }),
                Err(Refusal::NoSuchPlayer { player: who })
            );
        }
        // Nothing changed, and there is no one to show a refusal to.
        assert_eq!(b, before);
        assert_eq!(
            Refusal::NoSuchPlayer { player: 2 }.to_string(),
            "no player 2: the players are 0 and 1"
        );
        assert_eq!(Refusal::NoSuchPlayer { player: 2 }.why(), "no such player");
        // During the countdown too, it is the index that is wrong, not the moment.
        let mut b = Battle::new(&setup(3, false, true), &TileStats::from_dict(&d)).unwrap();
        assert_eq!(
            b.apply(&d, 2, Move::Turn { slot: 0 }),
            Err(Refusal::NoSuchPlayer { player: 2 })
        );
        assert_eq!(
            b.apply(&d, 1, Move::Turn { slot: 0 }),
            Err(Refusal::NotPlaying)
        );
    }

    #[test]
    fn a_knockout_and_the_clock_end_it() {
        let d = dict();
        let mut b = with_hands("な", "い");
        b.fighters[1].hp = 1;
        b.apply(
            &d,
            0,
            Move::Place {
                slot: 0,
                pos: Pos::new(4, 2),
                face: k('な'),
            },
        )
        .unwrap();
        assert_eq!(
            b.phase(),
            Phase::Over {
                winner: Some(0),
                why: Ending::Ko
            }
        );
        let mut b = with_hands("な", "い");
        b.fighters[0].hp = 10;
        b.update(&d, 61.0);
        assert_eq!(b.winner(), Some(Some(1)));
        assert!(matches!(
            b.phase(),
            Phase::Over {
                why: Ending::Time,
                ..
            }
        ));
    }

    #[test]
    fn the_clock_goes_to_the_larger_share_of_life_not_the_larger_number() {
        let d = dict();
        let mut b = with_hands("な", "い");
        // 70 of 100 left against 50 of 60: the second fighter keeps more of theirs.
        b.fighters[0].max_hp = 100;
        b.fighters[0].hp = 70;
        b.fighters[1].max_hp = 60;
        b.fighters[1].hp = 50;
        b.update(&d, 61.0);
        assert_eq!(b.winner(), Some(Some(1)));
        // Equal shares are a draw.
        let mut b = with_hands("な", "い");
        b.fighters[0].max_hp = 100;
        b.fighters[0].hp = 50;
        b.fighters[1].max_hp = 60;
        b.fighters[1].hp = 30;
        b.update(&d, 61.0);
        assert_eq!(b.winner(), Some(None));
    }

    #[test]
    fn a_full_board_ends_it() {
        let d = dict();
        let mut s = setup(1, false, false);
        s.board = Board::from_rows(&["さか.#"]).unwrap();
        let mut b = Battle::new(&s, &TileStats::from_dict(&d)).unwrap();
        b.fighters[0].hand = Hand::of([k('な')]);
        b.apply(
            &d,
            0,
            Move::Place {
                slot: 0,
                pos: Pos::new(2, 0),
                face: k('な'),
            },
        )
        .unwrap();
        assert!(matches!(
            b.phase(),
            Phase::Over {
                winner: Some(0),
                why: Ending::Full
            }
        ));
    }

    #[test]
    fn the_countdown_beats_once_a_second_then_fights() {
        let d = dict();
        let mut b = Battle::new(&setup(3, false, true), &TileStats::from_dict(&d)).unwrap();
        assert_eq!(b.phase(), Phase::Countdown);
        assert_eq!(
            b.apply(&d, 0, Move::Turn { slot: 0 }),
            Err(Refusal::NotPlaying)
        );
        for _ in 0..40 {
            b.update(&d, 0.1);
        }
        let beats: Vec<u32> = b
            .take_events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Countdown(n) => Some(n),
                _ => None,
            })
            .collect();
        assert_eq!(beats, [3, 2, 1, 0]);
        assert_eq!(b.phase(), Phase::Fight);
    }

    fn any_move() -> impl Strategy<Value = Move> {
        let pos = (0usize..6, 0usize..5).prop_map(|(x, y)| Pos::new(x, y));
        let face = prop::sample::select(crate::kana::parse_kana("さかなつしいぬけ").unwrap());
        prop_oneof![
            (0usize..6, pos, face).prop_map(|(slot, pos, face)| Move::Place { slot, pos, face }),
            (0usize..6).prop_map(|slot| Move::Turn { slot }),
            (0usize..6).prop_map(|slot| Move::Swap { slot }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn a_battle_replays_identically_from_its_seed_and_moves(
            seed in any::<u64>(),
            bots in any::<bool>(),
            script in prop::collection::vec((0u32..20, 0usize..2, any_move()), 0..60),
        ) {
            let d = dict();
            let stats = TileStats::from_dict(&d);
            let run = || {
                let mut b = Battle::new(&setup(seed, bots, true), &stats).unwrap();
                let mut events = Vec::new();
                for &(tenths, who, mv) in &script {
                    b.update(&d, tenths as f32 / 10.0);
                    let before = b.board().clone();
                    if b.apply(&d, who, mv).is_err() {
                        assert_eq!(b.board(), &before);
                    }
                    events.extend(b.take_events());
                }
                (b, events)
            };
            let (a, ea) = run();
            let (b, eb) = run();
            prop_assert_eq!(a, b);
            prop_assert_eq!(ea, eb);
        }
    }
}
