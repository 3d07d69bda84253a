//! A unit on the battlefield: a party member or a monster reduced to the numbers a fight
//! needs (armour class, THAC0, attacks, saves, movement), worked out once when the fight
//! starts, plus what changes from round to round.

use serde::{Deserialize, Serialize};

use super::field::Pos;
use crate::rules::{Character, Dice, Monster, Roller, Rules, SaveKind, School};

/// A unit's number in the fight, from 1 (what scripts pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub u16);

impl UnitId {
    /// Its place in the fight's list of units.
    pub fn index(self) -> usize {
        self.0 as usize - 1
    }
}

/// Which side a unit fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player's party.
    Party,
    /// The monsters.
    Monsters,
}

/// How a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Up and fighting.
    Ok,
    /// Asleep: helpless until woken by a blow or the spell wearing off.
    Asleep,
    /// Held still: helpless until the hold wears off.
    Held,
    /// At 0 hit points: down but not bleeding.
    Unconscious,
    /// Below 0: bleeding a hit point a round until bandaged, dead at -10.
    Dying,
    /// Dead.
    Dead,
    /// Left the field.
    Fled,
}

impl Status {
    /// Still counts for its side: standing, or helpless but alive and on its feet.
    pub fn standing(self) -> bool {
        matches!(self, Status::Ok | Status::Asleep | Status::Held)
    }

    /// Hit without a roll.
    pub fn helpless(self) -> bool {
        matches!(
            self,
            Status::Asleep | Status::Held | Status::Unconscious | Status::Dying
        )
    }

    /// Takes up its square (the dead and the fled do not).
    pub fn occupies(self) -> bool {
        !matches!(self, Status::Dead | Status::Fled)
    }
}

/// One melee attack a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attack {
    /// Damage dice.
    pub dice: Dice,
    /// Added to the d20.
    pub to_hit: i32,
    /// Added to the damage.
    pub damage: i32,
}

/// A shot at range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    /// The attack.
    pub attack: Attack,
    /// Squares.
    pub range: u8,
}

/// A spell a unit holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Held {
    /// The spell.
    pub spell: String,
    /// Cast already.
    pub used: bool,
}

/// A unit in the fight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its number.
    pub id: UnitId,
    /// Its name (`Hild`, `orc 2`).
    pub name: String,
    /// Its side.
    pub side: Side,
    /// The monster kind, or the classes joined with `/`.
    pub kind: String,
    /// Its picture on the sheet (a monster's `art`, a member's first class).
    pub art: String,
    /// The party member it is (slot, from 0), for a member.
    pub member: Option<usize>,
    /// Where it stands.
    pub pos: Pos,
    /// Hit points.
    pub hp: i32,
    /// Hit points when whole.
    pub max_hp: i32,
    /// How it is.
    pub status: Status,
    /// Rounds of sleep or holding left.
    pub rounds: u8,
    /// Armour class.
    pub ac: i32,
    /// The roll it needs to hit armour class 0.
    pub thac0: i32,
    /// Level (a monster's hit dice, at least 1): what sleep and spell power go by.
    pub level: u8,
    /// Half-squares a round.
    pub rate: u8,
    /// Melee attacks a round.
    pub melee: Vec<Attack>,
    /// Squares its melee reaches.
    pub reach: u8,
    /// Its missile, if any.
    pub missile: Option<Shot>,
    /// Shots left for it, or `None` when it needs none (monsters, and missiles the tables
    /// sell nothing for).
    #[serde(default)]
    pub shots: Option<u32>,
    /// The five saves, in [`SaveKind`] order.
    pub saves: [i32; 5],
    /// Morale on 2d6 (12 never breaks).
    pub morale: u8,
    /// Undead: no sleep, no holding, no breaking.
    pub undead: bool,
    /// Added to its initiative.
    pub initiative: i32,
    /// Experience for killing it.
    pub xp: u32,
    /// Gold it carries.
    pub treasure: Option<Dice>,
    /// Spells it holds.
    pub spells: Vec<Held>,
    /// Caster levels by school.
    pub casts: Vec<(School, u8)>,
    /// The computer plays it (every monster, and members set to quick).
    pub quick: bool,
    /// On guard: strikes the first enemy that comes next to it, until its next turn.
    pub guarding: bool,
    /// Has taken its free attack this round.
    pub free_attack_used: bool,
    /// Half-squares of movement left this turn.
    pub moves_left: u16,
    /// Has moved this turn.
    pub moved: bool,
    /// Has delayed this round.
    pub delayed: bool,
    /// Its morale broke: it makes for the edge.
    pub fleeing: bool,
    /// Turns of falling back left after a shaken morale.
    pub retreating: u8,
    /// Morale already checked for its side's losses and for its own wounds.
    pub morale_checked: [bool; 2],
}

impl Unit {
    /// A party member as a unit.
    pub fn member(rules: &Rules, slot: usize, c: &Character) -> Unit {
        let (to_hit, damage) = c.melee_bonus(rules);
        let weapon = c.weapon(rules);
        let melee = vec![Attack {
            dice: weapon
                .as_ref()
                .and_then(|w| w.damage)
                .unwrap_or(Dice::new(1, 2)),
            to_hit,
            damage,
        }];
        let missile = c.missile(rules).map(|m| {
            let (to_hit, damage) = c.missile_bonus(rules);
            Shot {
                attack: Attack {
                    dice: m.damage.unwrap_or(Dice::new(1, 4)),
                    to_hit,
                    damage,
                },
                range: m.range,
            }
        });
        let mut saves = [20; 5];
        for k in SaveKind::ALL {
            saves[k.index()] = c.save(rules, k);
        }
        let casts = [School::Arcane, School::Divine]
            .into_iter()
            .filter_map(|s| c.caster_level(rules, s).map(|l| (s, l)))
            .collect();
        let status = match c.hp {
            hp if hp <= -10 => Status::Dead,
            hp if hp < 0 => Status::Dying,
            0 => Status::Unconscious,
            _ => Status::Ok,
        };
        Unit {
            id: UnitId(0),
            name: c.name.clone(),
            side: Side::Party,
            kind: c
                .classes
                .iter()
                .map(|k| k.class.as_str())
                .collect::<Vec<_>>()
                .join("/"),
            art: c
                .classes
                .first()
                .map(|k| k.class.clone())
                .unwrap_or_default(),
            member: Some(slot),
            pos: Pos::new(0, 0),
            hp: c.hp,
            max_hp: c.max_hp,
            status,
            rounds: 0,
            ac: c.armour_class(rules),
            thac0: c.thac0(rules),
            level: c.level(),
            rate: c.move_rate(rules),
            melee,
            reach: weapon.map_or(1, |w| w.reach),
            missile,
            shots: c.shots(rules),
            saves,
            morale: 12,
            undead: false,
            initiative: crate::rules::dex_missile(c.abilities.dexterity),
            xp: 0,
            treasure: None,
            spells: c
                .memorised
                .iter()
                .filter(|m| {
                    !m.used
                        && (c.arcane_armour_ok(rules)
                            || rules
                                .spell(&m.spell)
                                .is_none_or(|s| s.school != School::Arcane))
                })
                .map(|m| Held {
                    spell: m.spell.clone(),
                    used: m.used,
                })
                .collect(),
            casts,
            quick: false,
            guarding: false,
            free_attack_used: false,
            moves_left: 0,
            moved: false,
            delayed: false,
            fleeing: false,
            retreating: 0,
            morale_checked: [false; 2],
        }
    }

    /// A monster of kind `m` as a unit, its hit points rolled.
    pub fn monster(rules: &Rules, m: &Monster, name: String, roller: &mut Roller) -> Unit {
        let hp = if m.hd == 0 {
            roller.roll(Dice::new(1, 4))
        } else {
            roller.roll(Dice::new(m.hd, 8))
        } + m.hp_bonus as i32;
        let level = m.hd.max(1);
        let mut saves = [20; 5];
        if let Some(k) = rules.class(&m.saves_as)
            && let Some(row) = k.at(&k.saves, level)
        {
            saves = row;
        }
        let school = m
            .spells
            .first()
            .and_then(|s| rules.spell(s))
            .map(|s| s.school);
        Unit {
            id: UnitId(0),
            name,
            side: Side::Monsters,
            kind: m.name.clone(),
            art: if m.art.is_empty() {
                m.name.clone()
            } else {
                m.art.clone()
            },
            member: None,
            pos: Pos::new(0, 0),
            hp: hp.max(1),
            max_hp: hp.max(1),
            status: Status::Ok,
            rounds: 0,
            ac: m.ac as i32,
            thac0: m.thac0(),
            level,
            rate: m.move_rate,
            melee: m
                .attacks
                .iter()
                .map(|d| Attack {
                    dice: *d,
                    to_hit: 0,
                    damage: 0,
                })
                .collect(),
            reach: m.reach,
            missile: m.missile.as_ref().map(|s| Shot {
                attack: Attack {
                    dice: s.damage,
                    to_hit: 0,
                    damage: 0,
                },
                range: s.range,
            }),
            shots: None,
            saves,
            morale: if m.undead { 12 } else { m.morale },
            undead: m.undead,
            initiative: m.initiative as i32,
            xp: m.xp,
            treasure: m.treasure,
            spells: m
                .spells
                .iter()
                .filter_map(|s| rules.spell(s))
                .map(|s| Held {
                    spell: s.name.clone(),
                    used: false,
                })
                .collect(),
            casts: school.map(|s| vec![(s, level)]).unwrap_or_default(),
            quick: true,
            guarding: false,
            free_attack_used: false,
            moves_left: 0,
            moved: false,
            delayed: false,
            fleeing: false,
            retreating: 0,
            morale_checked: [false; 2],
        }
    }

    /// Can take a turn: up, not asleep or held.
    pub fn can_act(&self) -> bool {
        self.status == Status::Ok
    }

    /// Caster level for a school, if it casts it.
    pub fn caster_level(&self, school: School) -> Option<u8> {
        self.casts
            .iter()
            .find(|(s, _)| *s == school)
            .map(|(_, l)| *l)
    }

    /// Holds an unspent copy of `spell`.
    pub fn holds(&self, spell: &str) -> bool {
        self.spells
            .iter()
            .any(|h| !h.used && h.spell.eq_ignore_ascii_case(spell))
    }

    /// The save needed against `kind`.
    pub fn save(&self, kind: SaveKind) -> i32 {
        self.saves[kind.index()]
    }
}
