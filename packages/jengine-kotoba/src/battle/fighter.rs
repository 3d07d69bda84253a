//! Who fights: a [`FighterSpec`] asks for a fighter, a [`Fighter`] is one side of a battle as it
//! goes, and a [`FighterState`] is what everyone at the table sees of them at one instant.
//!
//! A fighter's hand is dealt from the battle's stream and a bot gets a stream of its own, seeded
//! from the battle's, so both sides replay exactly.

use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use super::{COMBO_STEP, MAX_MULTIPLIER};
use crate::bot::{Bot, Skill};
use crate::kana::{Kana, TileStats};
use crate::play::{Hand, MadeWord};

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
    pub(super) hand: Hand,
    pub(super) hand_size: usize,
    pub(super) bot: Option<Bot>,
}

impl Fighter {
    /// Player `player` of a battle seeded `seed` as `spec` asks: their hand dealt from `rng`,
    /// and their own bot if the game plays them.
    pub(super) fn deal(
        spec: &FighterSpec,
        player: usize,
        seed: u64,
        stats: &TileStats,
        rng: &mut Pcg32,
    ) -> Fighter {
        let mut hand = Hand::default();
        hand.fill(spec.hand, || Some(stats.deal(&mut *rng)));
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
                .map(|skill| Bot::new(skill, seed ^ (0x9e37_79b9 * (player as u64 + 1)))),
        }
    }

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
/// started with and their hand size come from the [`Setup`](super::Setup) and never change, so
/// they are not part of it.
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

/// The damage multiplier of a word made `combo` chain steps in.
pub(super) fn multiplier(combo: u32) -> f32 {
    (1.0 + COMBO_STEP * combo as f32).min(MAX_MULTIPLIER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_chain_step_adds_a_quarter_up_to_double() {
        assert_eq!(multiplier(0), 1.0);
        assert_eq!(multiplier(1), 1.25);
        assert_eq!(multiplier(3), 1.75);
        assert_eq!(multiplier(9), MAX_MULTIPLIER);
    }
}
