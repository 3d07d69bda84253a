//! Rounds and turns: initiative, bleeding and spells wearing off at the top of a round, whose
//! turn it is, the computer playing its units, morale, and the end with its experience and
//! treasure. (Where each side stands when the fight begins is [`super::setup`]'s.)

use super::log::{Ending, Event, Outcome, Roll};
use super::unit::{Side, Status, UnitId};
use super::{Fight, MAX_ROUNDS, ai};
use crate::rules::Dice;

impl Fight {
    pub(super) fn emit(&mut self, e: Event) {
        self.log.push(e);
    }

    pub(super) fn start_round(&mut self) {
        self.round += 1;
        if self.round > MAX_ROUNDS {
            self.finish(Ending::Parted);
            return;
        }
        // Bleeding, and sleep and holding wearing off.
        for i in 0..self.units.len() {
            let id = self.units[i].id;
            match self.units[i].status {
                Status::Dying => {
                    self.units[i].hp -= 1;
                    let hp = self.units[i].hp;
                    self.emit(Event::Bleeding { unit: id, hp });
                    if hp <= -10 {
                        self.units[i].status = Status::Dead;
                        self.emit(Event::Died { unit: id });
                    }
                }
                Status::Asleep | Status::Held => {
                    let u = &mut self.units[i];
                    u.rounds = u.rounds.saturating_sub(1);
                    if u.rounds == 0 {
                        u.status = Status::Ok;
                        self.emit(Event::Freed { unit: id });
                    }
                }
                _ => {}
            }
            let u = &mut self.units[i];
            u.free_attack_used = false;
            u.delayed = false;
        }
        self.check_end();
        if self.outcome.is_some() {
            return;
        }
        let mut rolls: Vec<(Roll, i32)> = Vec::new();
        for i in 0..self.units.len() {
            if self.units[i].can_act() {
                let bonus = self.units[i].initiative;
                let roll = self.roller.die(10) + bonus;
                rolls.push((
                    Roll {
                        unit: self.units[i].id,
                        roll,
                    },
                    bonus,
                ));
            }
        }
        // Highest first; a tie goes to the quicker, then to the lower number.
        rolls.sort_by(|a, b| {
            b.0.roll
                .cmp(&a.0.roll)
                .then(b.1.cmp(&a.1))
                .then(a.0.unit.cmp(&b.0.unit))
        });
        self.order = rolls.iter().map(|r| r.0.unit).collect();
        self.turn = 0;
        self.emit(Event::Initiative {
            round: self.round,
            order: rolls.into_iter().map(|r| r.0).collect(),
        });
    }

    /// Moves on to the next unit in the order able to act, starting rounds as needed.
    pub(super) fn next_turn(&mut self) {
        loop {
            if self.outcome.is_some() {
                return;
            }
            if self.turn >= self.order.len() {
                self.start_round();
                continue;
            }
            let id = self.order[self.turn];
            if !self.units[id.index()].can_act() {
                self.turn += 1;
                continue;
            }
            self.begin_turn(id);
            return;
        }
    }

    pub(super) fn begin_turn(&mut self, id: UnitId) {
        self.turns += 1;
        let u = &mut self.units[id.index()];
        u.moves_left = u.rate as u16;
        u.moved = false;
        u.guarding = false;
        u.retreating = u.retreating.saturating_sub(1);
        self.emit(Event::Turn { unit: id });
        self.check_morale(id);
    }

    pub(super) fn end_turn(&mut self) {
        self.turn += 1;
        self.next_turn();
    }

    /// Plays every computer-controlled turn until a member the player controls is to act.
    pub(super) fn run_computer(&mut self) {
        while let Some(u) = self.active() {
            if !u.quick {
                return;
            }
            let turn = self.turns;
            for command in ai::plan(self) {
                if self.turns != turn || self.outcome.is_some() {
                    break;
                }
                if self.execute(&command).is_err() {
                    break;
                }
            }
            if self.turns == turn && self.outcome.is_none() {
                self.end_turn();
            }
        }
    }

    pub(super) fn check_morale(&mut self, id: UnitId) {
        let u = &self.units[id.index()];
        if u.side != Side::Monsters || u.undead || u.morale >= 12 || u.fleeing {
            return;
        }
        let lost = self
            .units
            .iter()
            .filter(|m| m.side == Side::Monsters && !m.status.standing())
            .count();
        let side = !u.morale_checked[0] && lost > 0 && lost * 2 >= self.monsters_at_start;
        let hurt = !u.morale_checked[1] && u.hp * 2 <= u.max_hp;
        if !side && !hurt {
            return;
        }
        let roll = self.roller.roll(Dice::new(2, 6));
        let u = &mut self.units[id.index()];
        u.morale_checked[0] |= side;
        u.morale_checked[1] |= hurt;
        let result = if roll <= u.morale as i32 {
            "holds"
        } else if roll - (u.morale as i32) <= 2 {
            u.retreating = 2;
            "retreats"
        } else {
            u.fleeing = true;
            "flees"
        };
        let morale = u.morale;
        self.emit(Event::Morale {
            unit: id,
            roll,
            morale,
            result: result.into(),
        });
    }

    pub(super) fn check_end(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let standing = |side: Side| {
            self.units
                .iter()
                .any(|u| u.side == side && u.status.standing())
        };
        if !standing(Side::Monsters) {
            self.finish(Ending::Won);
        } else if !standing(Side::Party) {
            let fled = self
                .units
                .iter()
                .any(|u| u.side == Side::Party && u.status == Status::Fled);
            self.finish(if fled { Ending::Fled } else { Ending::Lost });
        }
    }

    /// Shares out experience for the kills (among the members still on the field, or those
    /// who got away if the party fled), rolls the fallen's treasure when the party won, and
    /// writes hit points, spent spells and experience back to the party.
    pub(super) fn finish(&mut self, ending: Ending) {
        let killed: Vec<usize> = (0..self.units.len())
            .filter(|&i| {
                self.units[i].side == Side::Monsters && self.units[i].status == Status::Dead
            })
            .collect();
        let xp: u32 = killed.iter().map(|&i| self.units[i].xp).sum();
        let mut gold = 0u32;
        if ending == Ending::Won {
            for &i in &killed {
                if let Some(t) = self.units[i].treasure {
                    gold += self.roller.roll(t).max(0) as u32;
                }
            }
        }
        let earners: Vec<usize> = (0..self.units.len())
            .filter(|&i| {
                let u = &self.units[i];
                u.side == Side::Party
                    && match ending {
                        Ending::Won | Ending::Parted => u.status.occupies(),
                        Ending::Fled => u.status == Status::Fled,
                        Ending::Lost => false,
                    }
            })
            .collect();
        let xp_each = if earners.is_empty() {
            0
        } else {
            xp / earners.len() as u32
        };
        let mut level_ups = Vec::new();
        let mut events = Vec::new();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let Some(slot) = u.member else { continue };
            let Some(c) = self.party.members.get_mut(slot) else {
                continue;
            };
            c.hp = u.hp;
            // Shots spent are gone from the quiver.
            if let (Some(n), Some(sort)) = (u.shots, c.missile(&self.rules).and_then(|m| m.sort)) {
                c.ammo.insert(sort, n);
            }
            // Spells cast in the fight are spent in the party too (only unspent ones came).
            for h in u.spells.iter().filter(|h| h.used) {
                if let Some(m) = c
                    .memorised
                    .iter_mut()
                    .find(|m| !m.used && m.spell.eq_ignore_ascii_case(&h.spell))
                {
                    m.used = true;
                }
            }
            if earners.contains(&i) && xp_each > 0 {
                for up in c.gain_xp(&self.rules, xp_each, &mut self.roller) {
                    events.push(Event::LevelUp {
                        unit: u.id,
                        class: up.class.clone(),
                        level: up.level,
                        hp: up.hp,
                    });
                    level_ups.push((slot, up));
                }
            }
        }
        for e in events {
            self.emit(e);
        }
        self.emit(Event::End {
            ending,
            xp,
            xp_each,
            gold,
        });
        self.outcome = Some(Outcome {
            ending,
            xp,
            xp_each,
            gold,
            level_ups,
        });
    }
}
