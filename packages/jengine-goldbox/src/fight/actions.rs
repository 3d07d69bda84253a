//! What each command does, checked whole before anything changes: walking (with free attacks
//! and guards on the way), striking and shooting, spells by shape and effect, saving throws,
//! and hit points lost down to unconsciousness, dying and death.

use super::Fight;
use super::field::{self, Pos};
use super::log::{Command, Event, Refused, refuse};
use super::unit::{Attack, Side, Status, Unit, UnitId};
use crate::rules::{Effect, SaveKind, SaveRule, Scale, Shape};

impl Fight {
    pub(super) fn execute(&mut self, command: &Command) -> Result<(), Refused> {
        if self.outcome.is_some() {
            return refuse("the fight is over");
        }
        if let Command::Quick { unit, on } = command {
            return self.quick(*unit, *on);
        }
        let Some(u) = self.active() else {
            return refuse("no one is to act");
        };
        let id = u.id;
        match command {
            Command::Move { x, y } => self.walk(id, Pos::new(*x, *y)),
            Command::Attack { target } => self.attack(id, *target),
            Command::Cast { spell, x, y } => self.cast(id, spell, Pos::new(*x, *y)),
            Command::Delay => {
                let u = &self.units[id.index()];
                if u.moved {
                    return refuse(format!("{} has already moved this turn", u.name));
                }
                if u.delayed {
                    return refuse(format!("{} has already delayed this round", u.name));
                }
                if self.turn + 1 >= self.order.len() {
                    return refuse(format!("{} is the last to act: nobody to wait for", u.name));
                }
                self.units[id.index()].delayed = true;
                let at = self.order.remove(self.turn);
                self.order.push(at);
                self.emit(Event::Delayed { unit: id });
                self.next_turn();
                Ok(())
            }
            Command::Guard => {
                let u = &self.units[id.index()];
                if u.melee.is_empty() {
                    return refuse(format!("{} has no blow to guard with", u.name));
                }
                self.units[id.index()].guarding = true;
                self.emit(Event::Guarding { unit: id });
                self.end_turn();
                Ok(())
            }
            Command::Bandage { target } => {
                let u = &self.units[id.index()];
                let Some(t) = self.unit(*target) else {
                    return refuse(format!("there is no unit {}", target.0));
                };
                if t.side != u.side || t.status != Status::Dying {
                    return refuse(format!("{} is not a dying friend", t.name));
                }
                if !t.pos.adjacent(u.pos) {
                    return refuse(format!("{} is not next to {}", t.name, u.name));
                }
                let t = t.id;
                self.units[t.index()].status = Status::Unconscious;
                self.emit(Event::Bandaged { by: id, target: t });
                self.end_turn();
                Ok(())
            }
            Command::Flee => {
                let u = &self.units[id.index()];
                if !self.field.on_edge(u.pos) {
                    return refuse(format!(
                        "{} is not on the edge of the field (at {})",
                        u.name, u.pos
                    ));
                }
                self.units[id.index()].status = Status::Fled;
                self.emit(Event::Fled { unit: id });
                self.check_end();
                self.end_turn();
                Ok(())
            }
            Command::EndTurn => {
                self.end_turn();
                Ok(())
            }
            Command::Quick { .. } => Ok(()),
        }
    }

    pub(super) fn quick(&mut self, unit: UnitId, on: bool) -> Result<(), Refused> {
        let Some(u) = self.unit(unit) else {
            return refuse(format!("there is no unit {}", unit.0));
        };
        if u.side != Side::Party {
            return refuse(format!("{} is not a member of the party", u.name));
        }
        if !u.status.occupies() {
            return refuse(format!("{} is no longer on the field", u.name));
        }
        self.units[unit.index()].quick = on;
        self.emit(Event::Quick { unit, on });
        Ok(())
    }

    pub(super) fn walk(&mut self, id: UnitId, to: Pos) -> Result<(), Refused> {
        let u = &self.units[id.index()];
        if !self.field.inside(to) {
            return refuse(format!("{to} is off the field"));
        }
        if to == u.pos {
            return refuse(format!("{} already stands at {to}", u.name));
        }
        if !self.field.passable(to) {
            return refuse(format!("{to} is not open ground"));
        }
        if let Some(other) = self.unit_at(to) {
            return refuse(format!("{} stands at {to}", other.name));
        }
        let walk = self.walk_for(u);
        let Some(path) = walk.path(to) else {
            return refuse(format!(
                "{} cannot reach {to} with {} moves left",
                u.name, u.moves_left
            ));
        };
        let from = u.pos;
        for step in path {
            let here = self.units[id.index()].pos;
            // Everyone it walks away from may strike once a round.
            let leaving: Vec<UnitId> = self
                .enemies_of(self.units[id.index()].side)
                .filter(|e| {
                    e.can_act()
                        && !e.free_attack_used
                        && !e.melee.is_empty()
                        && e.pos.adjacent(here)
                        && !e.pos.adjacent(step)
                })
                .map(|e| e.id)
                .collect();
            for e in leaving {
                self.units[e.index()].free_attack_used = true;
                self.emit(Event::FreeAttack { by: e, target: id });
                let attack = self.units[e.index()].melee[0].clone();
                self.swing(e, id, &attack, false);
                if !self.units[id.index()].can_act() {
                    break;
                }
            }
            if !self.units[id.index()].can_act() {
                break;
            }
            let diagonal = here.x != step.x && here.y != step.y;
            let u = &mut self.units[id.index()];
            u.moves_left = u.moves_left.saturating_sub(if diagonal {
                field::DIAGONAL
            } else {
                field::STEP
            });
            u.pos = step;
            u.moved = true;
            // A guard strikes whoever first comes into its reach.
            let guards: Vec<UnitId> = self
                .enemies_of(self.units[id.index()].side)
                .filter(|e| {
                    e.can_act()
                        && e.guarding
                        && e.pos.distance(step) <= e.reach as i32
                        && e.pos.distance(here) > e.reach as i32
                })
                .map(|e| e.id)
                .collect();
            for g in guards {
                self.units[g.index()].guarding = false;
                self.emit(Event::GuardStrike { by: g, target: id });
                let attack = self.units[g.index()].melee[0].clone();
                self.swing(g, id, &attack, false);
                if !self.units[id.index()].can_act() {
                    break;
                }
            }
            if !self.units[id.index()].can_act() {
                break;
            }
        }
        let to = self.units[id.index()].pos;
        self.emit(Event::Moved { unit: id, from, to });
        if self.outcome.is_none() && !self.units[id.index()].can_act() {
            self.end_turn();
        }
        Ok(())
    }

    pub(super) fn attack(&mut self, id: UnitId, target: UnitId) -> Result<(), Refused> {
        let u = &self.units[id.index()];
        let Some(t) = self.unit(target) else {
            return refuse(format!("there is no unit {}", target.0));
        };
        if t.side == u.side {
            return refuse(format!("{} is on {}'s own side", t.name, u.name));
        }
        if !t.status.occupies() {
            return refuse(format!("{} is no longer on the field", t.name));
        }
        let melee = !u.melee.is_empty() && self.in_reach(u, u.pos, t);
        if !melee && !self.can_shoot(u, u.pos, t) {
            let d = u.pos.distance(t.pos);
            let why = match &u.missile {
                Some(_) if d >= 2 && u.shots == Some(0) && !u.melee.is_empty() => {
                    format!("reach {}, and nothing left to shoot", u.reach)
                }
                Some(s) if d <= s.range as i32 && d >= 2 => {
                    if self.field.line_of_sight(u.pos, t.pos) {
                        "an enemy is next to it, too close to shoot".to_string()
                    } else {
                        "it cannot see the target".to_string()
                    }
                }
                Some(s) => format!("reach {}, missile range {}", u.reach, s.range),
                None => format!("reach {}", u.reach),
            };
            return refuse(format!(
                "{} is out of {}'s reach: {d} squares away ({why})",
                t.name, u.name
            ));
        }
        if melee {
            let attacks = u.melee.clone();
            for a in attacks {
                if !self.units[target.index()].status.occupies() || self.outcome.is_some() {
                    break;
                }
                self.swing(id, target, &a, false);
            }
        } else if let Some(shot) = u.missile.clone() {
            let shooter = &mut self.units[id.index()];
            shooter.shots = shooter.shots.map(|n| n.saturating_sub(1));
            self.swing(id, target, &shot.attack, true);
        }
        if self.outcome.is_none() {
            self.end_turn();
        }
        Ok(())
    }

    /// One attack roll: THAC0 less the target's armour class, bonuses to the d20; a 1 always
    /// misses, a 20 always hits, the helpless are hit without a roll. A friend standing on the
    /// far side of the target (a flank) adds 2 in melee.
    pub(super) fn swing(&mut self, by: UnitId, target: UnitId, attack: &Attack, ranged: bool) {
        let a = &self.units[by.index()];
        let t = &self.units[target.index()];
        let flank = !ranged && a.pos.adjacent(t.pos) && {
            let far = Pos::new(2 * t.pos.x - a.pos.x, 2 * t.pos.y - a.pos.y);
            self.units
                .iter()
                .any(|f| f.side == a.side && f.id != by && f.pos == far && f.can_act())
        };
        let need = a.thac0 - t.ac - attack.to_hit - if flank { 2 } else { 0 };
        let helpless = t.status.helpless();
        let roll = self.roller.d20();
        let hit = helpless || roll == 20 || (roll != 1 && roll >= need);
        if !hit {
            self.emit(Event::Miss {
                by,
                target,
                roll,
                need,
            });
            return;
        }
        let damage = (self.roller.roll(attack.dice) + attack.damage).max(1);
        let hp = self.units[target.index()].hp - damage;
        self.emit(Event::Hit {
            by,
            target,
            roll,
            need,
            damage,
            hp,
        });
        self.hurt(target, damage);
    }

    /// Takes hit points: a monster dies at 0; a member is unconscious at 0, dying below, dead
    /// at -10. A blow wakes a sleeper still standing.
    pub(super) fn hurt(&mut self, id: UnitId, damage: i32) {
        let u = &mut self.units[id.index()];
        if !u.status.occupies() {
            return;
        }
        u.hp -= damage;
        let hp = u.hp;
        match u.side {
            Side::Monsters if hp <= 0 => {
                u.status = Status::Dead;
                self.emit(Event::Died { unit: id });
            }
            Side::Party if hp <= -10 => {
                u.status = Status::Dead;
                self.emit(Event::Died { unit: id });
            }
            Side::Party if hp <= 0 => {
                let was_down = matches!(u.status, Status::Unconscious | Status::Dying);
                let dying = hp < 0;
                u.status = if dying {
                    Status::Dying
                } else {
                    Status::Unconscious
                };
                u.guarding = false;
                if !was_down || dying {
                    self.emit(Event::Downed {
                        unit: id,
                        hp,
                        dying,
                    });
                }
            }
            _ => {
                if u.status == Status::Asleep {
                    u.status = Status::Ok;
                    u.rounds = 0;
                    self.emit(Event::Freed { unit: id });
                }
            }
        }
        self.check_end();
    }

    /// Everything a cast needs checked, and the squares it covers.
    pub(crate) fn check_cast(
        &self,
        u: &Unit,
        spell: &str,
        at: Pos,
    ) -> Result<(crate::rules::Spell, Vec<Pos>), Refused> {
        let Some(s) = self.rules.spell(spell) else {
            return refuse(format!("there is no spell {spell:?}"));
        };
        if !u.holds(&s.name) {
            return refuse(format!("{} holds no unspent {:?}", u.name, s.name));
        }
        if u.caster_level(s.school).is_none() {
            return refuse(format!("{} cannot cast {} spells", u.name, s.school.word()));
        }
        if !self.field.inside(at) {
            return refuse(format!("{at} is off the field"));
        }
        let d = u.pos.distance(at);
        match s.shape {
            Shape::Line | Shape::Cone => {
                if at == u.pos {
                    return refuse(format!(
                        "{:?} needs a square to aim at other than the caster's own",
                        s.name
                    ));
                }
            }
            Shape::Single | Shape::Radius => {
                let range = (s.range as i32).max(1);
                if d > range {
                    return refuse(format!(
                        "{at} is {d} squares away; {:?} reaches {}",
                        s.name,
                        if s.range == 0 {
                            "only a neighbour".to_string()
                        } else {
                            format!("{range}")
                        }
                    ));
                }
                if at != u.pos && !self.field.line_of_sight(u.pos, at) {
                    return refuse(format!("{} cannot see {at}", u.name));
                }
            }
        }
        if s.shape == Shape::Single && self.unit_at(at).is_none() {
            return refuse(format!("nobody stands at {at} for {:?}", s.name));
        }
        let area = self.field.area(s.shape, s.size, u.pos, at);
        Ok((s.clone(), area))
    }

    pub(super) fn cast(&mut self, id: UnitId, spell: &str, at: Pos) -> Result<(), Refused> {
        let (s, area) = self.check_cast(&self.units[id.index()], spell, at)?;
        let level = self.units[id.index()].caster_level(s.school).unwrap_or(1) as i32;
        if let Some(h) = self.units[id.index()]
            .spells
            .iter_mut()
            .find(|h| !h.used && h.spell.eq_ignore_ascii_case(&s.name))
        {
            h.used = true;
        }
        self.emit(Event::Cast {
            unit: id,
            spell: s.name.clone(),
            at,
            area: area.clone(),
        });
        // Everyone in the area, friend or foe.
        let mut hit: Vec<UnitId> = self
            .units
            .iter()
            .filter(|t| t.status.occupies() && area.contains(&t.pos))
            .map(|t| t.id)
            .collect();
        hit.sort();
        let cap = if s.max_level == 0 {
            level
        } else {
            level.min(s.max_level as i32)
        };
        match s.effect {
            Effect::Damage => {
                let times = match s.scale {
                    Scale::Flat => 1,
                    Scale::PerLevel => cap.max(1),
                    Scale::Darts => 1 + (cap.max(1) - 1) / 2,
                };
                let mut amount = 0;
                for _ in 0..times {
                    amount += self.roller.roll(s.dice);
                }
                for t in hit {
                    let mut damage = amount.max(1);
                    if s.save != SaveRule::None
                        && let Some(kind) = s.save_vs
                        && self.saving_throw(t, kind)
                    {
                        if s.save == SaveRule::Negates {
                            continue;
                        }
                        damage /= 2;
                    }
                    if damage > 0 && self.units[t.index()].status.occupies() {
                        let hp = self.units[t.index()].hp - damage;
                        self.emit(Event::SpellDamage {
                            unit: t,
                            damage,
                            hp,
                        });
                        self.hurt(t, damage);
                    }
                }
            }
            Effect::Heal => {
                for t in hit {
                    let amount = self.roller.roll(s.dice).max(1);
                    let u = &mut self.units[t.index()];
                    u.hp = (u.hp + amount).min(u.max_hp);
                    if u.hp > 0 && matches!(u.status, Status::Unconscious | Status::Dying) {
                        u.status = Status::Ok;
                    }
                    let hp = u.hp;
                    self.emit(Event::Healed {
                        unit: t,
                        amount,
                        hp,
                    });
                }
            }
            Effect::Sleep => {
                let mut pool = self.roller.roll(s.dice);
                let mut sleepers: Vec<(u8, UnitId)> = hit
                    .iter()
                    .map(|t| &self.units[t.index()])
                    .filter(|t| {
                        matches!(t.status, Status::Ok | Status::Held)
                            && !t.undead
                            && t.level <= s.max_level
                    })
                    .map(|t| (t.level, t.id))
                    .collect();
                sleepers.sort();
                for (lv, t) in sleepers {
                    let cost = lv.max(1) as i32;
                    if cost > pool {
                        break;
                    }
                    pool -= cost;
                    let u = &mut self.units[t.index()];
                    u.status = Status::Asleep;
                    u.rounds = (4 + level) as u8;
                    u.guarding = false;
                    self.emit(Event::Slept { unit: t });
                }
            }
            Effect::Hold => {
                for t in hit {
                    let u = &self.units[t.index()];
                    if u.undead || !matches!(u.status, Status::Ok | Status::Asleep) {
                        continue;
                    }
                    if s.save != SaveRule::None
                        && let Some(kind) = s.save_vs
                        && self.saving_throw(t, kind)
                    {
                        continue;
                    }
                    let rounds = self.roller.roll(s.dice).clamp(1, 255) as u8;
                    let u = &mut self.units[t.index()];
                    u.status = Status::Held;
                    u.rounds = rounds;
                    u.guarding = false;
                    self.emit(Event::HeldFast { unit: t, rounds });
                }
            }
            Effect::Release => {
                for t in hit {
                    let u = &mut self.units[t.index()];
                    if matches!(u.status, Status::Asleep | Status::Held) {
                        u.status = Status::Ok;
                        u.rounds = 0;
                        self.emit(Event::Freed { unit: t });
                    }
                }
            }
        }
        if self.outcome.is_none() {
            self.end_turn();
        }
        Ok(())
    }

    /// A saving throw: a d20 at or above the unit's number saves.
    pub(super) fn saving_throw(&mut self, id: UnitId, against: SaveKind) -> bool {
        let need = self.units[id.index()].save(against);
        let roll = self.roller.d20();
        let saved = roll >= need;
        self.emit(Event::Save {
            unit: id,
            against,
            roll,
            need,
            saved,
        });
        saved
    }
}
