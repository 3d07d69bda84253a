//! Two players at once on one board: every word a player makes hits the other for its points.
//!
//! There are no turns. Moves are plain data applied in the order they arrive, and time moves
//! only through [`Battle::update`], so a battle is a pure function of its seed, its moves and
//! the time between them: replayed, it ends the same way (which is what an online match needs).

use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::{Board, Cell, Pos};
use crate::bot::{Bot, Skill, legal_moves};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::{Ending, Event, Hand, MAX_HAND, MadeWord, Refusal, placement};

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

/// Who fights: name, life and hand, and a bot's skill if the game plays them.
#[derive(Clone, Debug, PartialEq)]
pub struct FighterSpec {
    /// What to call them.
    pub name: String,
    /// Life at the start.
    pub life: u32,
    /// Tiles held.
    pub hand: usize,
    /// `Some` for a fighter the game plays.
    pub bot: Option<Skill>,
}

/// One side of a battle.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// Their name.
    pub name: String,
    /// Life left.
    pub hp: u32,
    /// Life at the start.
    pub max_hp: u32,
    /// Points from words.
    pub score: u32,
    /// Chain steps so far: 0 for a lone word.
    pub combo: u32,
    /// Seconds left for the next word to chain.
    pub combo_left: f32,
    /// Seconds left stunned.
    pub stun: f32,
    /// Words made.
    pub words: u32,
    /// The best-scoring word so far.
    pub best: Option<MadeWord>,
    hand: Hand,
    hand_size: usize,
    bot: Option<Bot>,
}

impl Fighter {
    /// The damage multiplier a word made now would get.
    pub fn multiplier(&self) -> f32 {
        multiplier(self.combo)
    }

    /// The tiles held.
    pub fn hand(&self) -> &[Kana] {
        self.hand.tiles()
    }

    /// Whether the game plays this fighter.
    pub fn is_bot(&self) -> bool {
        self.bot.is_some()
    }

    /// What anyone at the table sees of them now.
    pub fn state(&self) -> FighterState {
        FighterState {
            hp: self.hp,
            score: self.score,
            combo: self.combo,
            combo_left: self.combo_left,
            stun: self.stun,
            words: self.words,
            best: self.best.clone(),
            hand: self.hand.tiles().to_vec(),
        }
    }
}

/// What anyone at the table sees of one fighter at one instant. Their name, the life they
/// started with and their hand size come from the [`Setup`] and never change, so they are not
/// part of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FighterState {
    /// Life left.
    pub hp: u32,
    /// Points from words.
    pub score: u32,
    /// Chain steps so far.
    pub combo: u32,
    /// Seconds left for the next word to chain.
    pub combo_left: f32,
    /// Seconds left stunned.
    pub stun: f32,
    /// Words made.
    pub words: u32,
    /// The best-scoring word so far.
    pub best: Option<MadeWord>,
    /// The tiles held, each showing its face, slot 0 first.
    pub hand: Vec<Kana>,
}

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

fn multiplier(combo: u32) -> f32 {
    (1.0 + COMBO_STEP * combo as f32).min(MAX_MULTIPLIER)
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
    /// Whether to count down [`COUNTDOWN`] seconds first.
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
    /// A hand of 0 or more than [`MAX_HAND`] tiles, a fighter with no life or a fight that
    /// lasts no time is refused, naming the fighter and the value.
    pub fn new(setup: &Setup, stats: &TileStats) -> Result<Battle, SetupError> {
        for (player, spec) in setup.fighters.iter().enumerate() {
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
        if setup.time.is_nan() || setup.time <= 0.0 {
            return Err(SetupError::Time { time: setup.time });
        }
        let mut rng = Pcg32::seed_from_u64(setup.seed);
        let fighters = [0, 1].map(|i| {
            let spec = &setup.fighters[i];
            let mut hand = Hand::default();
            hand.fill(spec.hand, || Some(stats.deal(&mut rng)));
            let life = spec.life;
            Fighter {
                name: spec.name.clone(),
                hp: life,
                max_hp: life,
                score: 0,
                combo: 0,
                combo_left: 0.0,
                stun: 0.0,
                words: 0,
                best: None,
                hand,
                hand_size: spec.hand,
                bot: spec
                    .bot
                    .map(|skill| Bot::new(skill, setup.seed ^ (0x9e37_79b9 * (i as u64 + 1)))),
            }
        });
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

    /// Moves every bot's thinking on by `dt` (a stunned bot does not think) and says which are
    /// ready to move, in the order they became ready within the step: neither side is built
    /// to go first. When both became ready at the same instant, the one that went second last
    /// time goes first.
    fn ready_bots(&mut self, dt: f32) -> [Option<usize>; 2] {
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
    fn run_bot(&mut self, dict: &Dict, who: usize) {
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

    /// Ends the fight when no free cell is left beside a kana.
    fn check_full(&mut self) {
        if self.phase == Phase::Fight && self.board.open_cells().next().is_none() {
            let winner = self.leader();
            self.end(winner, Ending::Full);
        }
    }

    /// The fighter with more life, `None` when even.
    fn leader(&self) -> Option<usize> {
        let [a, b] = &self.fighters;
        match a.hp.cmp(&b.hp) {
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
    /// may come and go, so a guess can be taken back), hands no bigger than they hold, no more life than at the
    /// start, clocks in range and a winner who is a player. Otherwise nothing changes. The tile
    /// stream, the bots and the events not yet taken stay as they were.
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
    use proptest::prelude::*;

    fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nさか\t坂\tslope\n\
             いか\t烏賊\tsquid\nいぬ\t犬\tdog\nさけ\t鮭\tsalmon\nかさ\t傘\tumbrella\n\
             なか\t中\tinside\nかい\t貝\tshellfish\nいし\t石\tstone\nしか\t鹿\tdeer\n",
        )
        .unwrap()
    }

    fn k(c: char) -> Kana {
        Kana::from_char(c).unwrap()
    }

    fn setup(seed: u64, bots: bool, countdown: bool) -> Setup {
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
    fn with_hands(a: &str, b: &str) -> Battle {
        let d = dict();
        let mut battle = Battle::new(&setup(1, false, false), &TileStats::from_dict(&d)).unwrap();
        battle.fighters[0].hand = Hand::of(crate::kana::parse_kana(a).unwrap());
        battle.fighters[1].hand = Hand::of(crate::kana::parse_kana(b).unwrap());
        battle
    }

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
        assert_eq!(multiplier(0), 1.0);
        assert_eq!(multiplier(1), 1.25);
        assert_eq!(multiplier(3), 1.75);
        assert_eq!(multiplier(9), MAX_MULTIPLIER);
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
