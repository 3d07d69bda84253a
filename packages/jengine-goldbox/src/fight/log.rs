//! The words a fight is played in: the commands a unit is given, the events the log holds,
//! how it ends, and what the active unit may do. Plain data, all of it serialisable, so a
//! script reads it as tables and a fight is kept as its seed and its commands.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::field::Pos;
use super::unit::UnitId;
use crate::rules::{LevelUp, SaveKind};

/// One thing a unit does on its turn (or, for `Quick`, a switch the player flips).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// Walk to a square within the moves left, by the cheapest way round.
    Move {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// Strike an enemy in reach, or shoot one in range and sight; ends the turn.
    Attack {
        /// The enemy.
        target: UnitId,
    },
    /// Cast a held spell at a square; ends the turn.
    Cast {
        /// The spell.
        spell: String,
        /// Column aimed at.
        x: i32,
        /// Row aimed at.
        y: i32,
    },
    /// Act later this round, after everyone still to go.
    Delay,
    /// Stand guard: strike the first enemy that comes into reach; ends the turn.
    Guard,
    /// Let the computer play a party member (or take it back).
    Quick {
        /// The member.
        unit: UnitId,
        /// On or off.
        on: bool,
    },
    /// Stop a dying friend next to it from bleeding; ends the turn.
    Bandage {
        /// The dying friend.
        target: UnitId,
    },
    /// Leave the field from a square on its edge; ends the turn.
    Flee,
    /// End the turn.
    EndTurn,
}

/// Why a command was refused, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

pub(crate) fn refuse<T>(words: impl Into<String>) -> Result<T, Refused> {
    Err(Refused(words.into()))
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// No monster stands: the party holds the field.
    Won,
    /// No member stands and none got away.
    Lost,
    /// No member stands on the field, but some got away.
    Fled,
    /// Neither side could finish it in [`MAX_ROUNDS`] rounds.
    Parted,
}

/// One initiative roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The unit.
    pub unit: UnitId,
    /// d10 plus its modifier.
    pub roll: i32,
}

/// What happened, in order: the fight's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A new round began, with this order.
    Initiative {
        /// The round, from 1.
        round: u32,
        /// Every unit that may act, first to last.
        order: Vec<Roll>,
    },
    /// A unit's turn began.
    Turn {
        /// The unit.
        unit: UnitId,
    },
    /// A unit walked.
    Moved {
        /// The unit.
        unit: UnitId,
        /// Where it started.
        from: Pos,
        /// Where it stopped.
        to: Pos,
    },
    /// An enemy struck at a unit walking away from it.
    FreeAttack {
        /// The striker.
        by: UnitId,
        /// The one walking away.
        target: UnitId,
    },
    /// A guard struck at an enemy coming into reach.
    GuardStrike {
        /// The guard.
        by: UnitId,
        /// The one coming.
        target: UnitId,
    },
    /// A blow or a shot hit.
    Hit {
        /// The attacker.
        by: UnitId,
        /// The target.
        target: UnitId,
        /// The d20.
        roll: i32,
        /// What it needed with its bonuses.
        need: i32,
        /// Damage done.
        damage: i32,
        /// The target's hit points after.
        hp: i32,
    },
    /// A blow or a shot missed.
    Miss {
        /// The attacker.
        by: UnitId,
        /// The target.
        target: UnitId,
        /// The d20.
        roll: i32,
        /// What it needed with its bonuses.
        need: i32,
    },
    /// A spell was cast.
    Cast {
        /// The caster.
        unit: UnitId,
        /// The spell.
        spell: String,
        /// The square aimed at.
        at: Pos,
        /// Every square it covered.
        area: Vec<Pos>,
    },
    /// A saving throw.
    Save {
        /// Who saved.
        unit: UnitId,
        /// Against what.
        against: SaveKind,
        /// The d20.
        roll: i32,
        /// What it needed.
        need: i32,
        /// Whether it saved.
        saved: bool,
    },
    /// A spell hurt a unit.
    SpellDamage {
        /// The unit.
        unit: UnitId,
        /// Damage done.
        damage: i32,
        /// Hit points after.
        hp: i32,
    },
    /// A unit was healed.
    Healed {
        /// The unit.
        unit: UnitId,
        /// Hit points restored.
        amount: i32,
        /// Hit points after.
        hp: i32,
    },
    /// A unit fell asleep.
    Slept {
        /// The unit.
        unit: UnitId,
    },
    /// A unit was held still.
    HeldFast {
        /// The unit.
        unit: UnitId,
        /// For this many rounds.
        rounds: u8,
    },
    /// A unit woke or was freed, and may act again.
    Freed {
        /// The unit.
        unit: UnitId,
    },
    /// A member went down: unconscious at 0, dying below.
    Downed {
        /// The unit.
        unit: UnitId,
        /// Hit points.
        hp: i32,
        /// Bleeding.
        dying: bool,
    },
    /// A dying member lost a hit point.
    Bleeding {
        /// The unit.
        unit: UnitId,
        /// Hit points after.
        hp: i32,
    },
    /// A unit died.
    Died {
        /// The unit.
        unit: UnitId,
    },
    /// A dying member was bandaged and stops bleeding.
    Bandaged {
        /// Who bandaged.
        by: UnitId,
        /// Who was bandaged.
        target: UnitId,
    },
    /// A unit put off its turn.
    Delayed {
        /// The unit.
        unit: UnitId,
    },
    /// A unit stands guard.
    Guarding {
        /// The unit.
        unit: UnitId,
    },
    /// A member was handed to the computer or taken back.
    Quick {
        /// The member.
        unit: UnitId,
        /// Handed over.
        on: bool,
    },
    /// A monster tested its morale.
    Morale {
        /// The monster.
        unit: UnitId,
        /// 2d6.
        roll: i32,
        /// Its morale.
        morale: u8,
        /// `holds`, `retreats` or `flees`.
        result: String,
    },
    /// A unit left the field.
    Fled {
        /// The unit.
        unit: UnitId,
    },
    /// A member gained a level.
    LevelUp {
        /// The member.
        unit: UnitId,
        /// The class.
        class: String,
        /// The new level.
        level: u8,
        /// Hit points gained.
        hp: i32,
    },
    /// The fight ended.
    End {
        /// How.
        ending: Ending,
        /// Experience for the kills.
        xp: u32,
        /// Each surviving member's share.
        xp_each: u32,
        /// Gold taken from the fallen (only when won).
        gold: u32,
    },
}

/// How the fight ended and what it brought.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// Experience for the kills, all together.
    pub xp: u32,
    /// Each surviving member's share.
    pub xp_each: u32,
    /// Gold taken.
    pub gold: u32,
    /// Levels gained, by member slot.
    pub level_ups: Vec<(usize, LevelUp)>,
}

/// A square the active unit may walk to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Half-squares it costs.
    pub cost: u16,
    /// Free attacks and guard strikes the way there invites.
    pub risk: u8,
}

/// What the active unit may do now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Legal {
    /// The unit.
    pub unit: UnitId,
    /// Half-squares of movement left.
    pub moves_left: u16,
    /// Squares it may walk to.
    pub moves: Vec<Step>,
    /// Enemies in melee reach.
    pub attacks: Vec<UnitId>,
    /// Enemies it may shoot.
    pub shots: Vec<UnitId>,
    /// Spells it may cast.
    pub spells: Vec<String>,
    /// Dying friends it may bandage.
    pub bandage: Vec<UnitId>,
    /// May delay.
    pub can_delay: bool,
    /// May stand guard.
    pub can_guard: bool,
    /// Stands on the edge and may leave.
    pub can_flee: bool,
}
