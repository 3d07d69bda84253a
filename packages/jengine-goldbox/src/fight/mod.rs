//! The tactical fight: a party and a band of monsters on a grid, taking turns in initiative
//! order, each turn moving, striking, shooting or casting. One idea holds it together: every
//! roll comes from the fight's own seeded stream and every change comes from a [`Command`],
//! so a fight is its seed plus its list of commands, and replays to the same log.
//!
//! A command is checked whole before anything changes; a refused one says why and leaves the
//! fight as it was. Monsters (and members set to quick) are played by [`ai`] as soon as their
//! turn comes, so after every command the fight waits on a member the player controls, or
//! has ended.

pub mod ai;
pub mod field;
pub mod setup;
pub mod unit;

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use field::{Field, FieldError, Pos, Terrain};
pub use setup::{Encounter, Group};
pub use unit::{Attack, Side, Status, Unit, UnitId};

use crate::rules::{Dice, Effect, LevelUp, Party, Roller, Rules, SaveKind, SaveRule, Scale, Shape};

/// Rounds after which a fight nobody can finish ends with the sides parting.
pub const MAX_ROUNDS: u32 = 100;

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

fn refuse<T>(words: impl Into<String>) -> Result<T, Refused> {
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

/// A fight in progress (or over).
#[derive(Debug, Clone)]
pub struct Fight {
    rules: Arc<Rules>,
    field: Field,
    units: Vec<Unit>,
    party: Party,
    round: u32,
    order: Vec<UnitId>,
    turn: usize,
    turns: u64,
    roller: Roller,
    log: Vec<Event>,
    outcome: Option<Outcome>,
    monsters_at_start: usize,
    seed: u64,
    commands: Vec<Command>,
}

impl Fight {
    /// Starts a fight on `field` (or the encounter's own) between `party` (its members above
    /// 0 hit points, placed by formation: the first three in front) and the encounter's
    /// monsters, rolling from `seed`. The first round's initiative is rolled and the computer
    /// plays until a member the player controls is to act.
    pub fn start(
        rules: Arc<Rules>,
        field: Field,
        party: Party,
        encounter: &Encounter,
        seed: u64,
    ) -> Result<Fight, Refused> {
        let field = encounter.own_field().unwrap_or(field);
        let mut roller = Roller::new(seed);
        let mut units = Vec::new();
        for (slot, c) in party.members.iter().enumerate() {
            if c.hp > 0 {
                units.push(Unit::member(&rules, slot, c));
            }
        }
        if units.is_empty() {
            return refuse("nobody in the party can fight");
        }
        for g in &encounter.monsters {
            let Some(kind) = rules.monster(&g.kind) else {
                return refuse(format!("{:?} is not in the monsters table", g.kind));
            };
            for i in 0..g.count {
                let name = if g.count == 1 {
                    kind.name.clone()
                } else {
                    format!("{} {}", kind.name, i + 1)
                };
                units.push(Unit::monster(&rules, kind, name, &mut roller));
            }
        }
        for (i, u) in units.iter_mut().enumerate() {
            u.id = UnitId(i as u16 + 1);
        }
        place(
            &field,
            &mut units,
            Side::Party,
            encounter.party_anchor(&field),
            1,
        )?;
        place(
            &field,
            &mut units,
            Side::Monsters,
            encounter.monster_anchor(&field),
            -1,
        )?;
        let monsters_at_start = units.iter().filter(|u| u.side == Side::Monsters).count();
        let mut fight = Fight {
            rules,
            field,
            units,
            party,
            round: 0,
            order: Vec::new(),
            turn: 0,
            turns: 0,
            roller,
            log: Vec::new(),
            outcome: None,
            monsters_at_start,
            seed,
            commands: Vec::new(),
        };
        fight.next_turn();
        fight.run_computer();
        Ok(fight)
    }

    /// Plays a fight again from its start and seed through `commands`; the same inputs give
    /// the same fight, event for event. A refused command stops it, with its place.
    pub fn replay(
        rules: Arc<Rules>,
        field: Field,
        party: Party,
        encounter: &Encounter,
        seed: u64,
        commands: &[Command],
    ) -> Result<Fight, (usize, Refused)> {
        let mut fight = Fight::start(rules, field, party, encounter, seed).map_err(|e| (0, e))?;
        for (i, c) in commands.iter().enumerate() {
            fight.apply(c.clone()).map_err(|e| (i, e))?;
        }
        Ok(fight)
    }

    /// Does `command` for the active unit (or, for `Quick`, for the member it names), then
    /// lets the computer play until a member the player controls is to act. Returns what
    /// happened; a refused command changes nothing.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, Refused> {
        let start = self.log.len();
        self.execute(&command)?;
        self.commands.push(command);
        self.run_computer();
        Ok(self.log[start..].to_vec())
    }

    /// The rules the fight is played by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The battlefield.
    pub fn field(&self) -> &Field {
        &self.field
    }
    /// Every unit, by id order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// One unit.
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        (id.0 >= 1).then(|| self.units.get(id.index())).flatten()
    }
    /// The round, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }
    /// This round's order, first to last.
    pub fn order(&self) -> &[UnitId] {
        &self.order
    }
    /// The place in the order of the unit to act.
    pub fn turn_index(&self) -> usize {
        self.turn
    }
    /// The unit whose turn it is, while the fight goes on.
    pub fn active(&self) -> Option<&Unit> {
        if self.outcome.is_some() {
            return None;
        }
        self.order.get(self.turn).and_then(|id| self.unit(*id))
    }
    /// Everything that happened, in order.
    pub fn log(&self) -> &[Event] {
        &self.log
    }
    /// How it ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    /// The party: hit points, spells spent and experience written back when the fight ends.
    pub fn party(&self) -> &Party {
        &self.party
    }
    /// The commands applied so far (with the seed, all a replay needs).
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }
    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whose square `p` is.
    pub fn unit_at(&self, p: Pos) -> Option<&Unit> {
        self.units
            .iter()
            .find(|u| u.pos == p && u.status.occupies())
    }

    fn enemies_of(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.side != side)
    }

    /// Squares taken, row by row (`except` left free).
    pub(crate) fn occupancy(&self, except: UnitId) -> Vec<bool> {
        let w = self.field.width();
        let mut taken = vec![false; (w * self.field.height()) as usize];
        for u in &self.units {
            if u.id != except && u.status.occupies() && self.field.inside(u.pos) {
                taken[(u.pos.y * w + u.pos.x) as usize] = true;
            }
        }
        taken
    }

    /// Where `u` can walk with the moves it has left.
    pub(crate) fn walk_for(&self, u: &Unit) -> field::Walk {
        let taken = self.occupancy(u.id);
        let w = self.field.width();
        self.field
            .walk_costs(u.pos, u.moves_left, |p| taken[(p.y * w + p.x) as usize])
    }

    /// How many free attacks and guard strikes walking `path` from `from` invites.
    pub(crate) fn path_risk(&self, u: &Unit, path: &[Pos]) -> u8 {
        let mut risk = 0u8;
        let mut from = u.pos;
        let mut struck: Vec<UnitId> = Vec::new();
        for &to in path {
            for e in self.enemies_of(u.side).filter(|e| e.can_act()) {
                let leaving = e.pos.adjacent(from) && !e.pos.adjacent(to) && !e.free_attack_used;
                let coming = e.guarding
                    && e.pos.distance(to) <= e.reach as i32
                    && e.pos.distance(from) > e.reach as i32;
                if (leaving || coming) && !struck.contains(&e.id) {
                    struck.push(e.id);
                    risk = risk.saturating_add(1);
                }
            }
            from = to;
        }
        risk
    }

    /// Whether `u` could strike `t` from `at` in melee.
    pub(crate) fn in_reach(&self, u: &Unit, at: Pos, t: &Unit) -> bool {
        let d = at.distance(t.pos);
        d >= 1 && d <= u.reach as i32 && (d == 1 || self.field.line_of_sight(at, t.pos))
    }

    /// Whether `u` could shoot `t` from `at`: a missile, range, sight, and no enemy next to it.
    pub(crate) fn can_shoot(&self, u: &Unit, at: Pos, t: &Unit) -> bool {
        let Some(shot) = &u.missile else {
            return false;
        };
        let d = at.distance(t.pos);
        d >= 2
            && d <= shot.range as i32
            && self.field.line_of_sight(at, t.pos)
            && !self
                .enemies_of(u.side)
                .any(|e| e.status.standing() && e.pos.adjacent(at) && e.id != u.id)
    }

    /// What the active unit may do now; `None` once the fight is over.
    pub fn legal(&self) -> Option<Legal> {
        self.legal_for(self.active()?.id)
    }

    /// What `unit` may do: now if it is the active unit, otherwise on its next turn with its
    /// full moves from where it stands. `None` once the fight is over, or for a unit that
    /// cannot act (asleep, held, down, gone).
    pub fn legal_for(&self, unit: UnitId) -> Option<Legal> {
        if self.outcome.is_some() {
            return None;
        }
        let u = self.unit(unit).filter(|u| u.can_act())?;
        let fresh;
        let u = if self.active().is_some_and(|a| a.id == unit) {
            u
        } else {
            fresh = Unit {
                moves_left: u.rate as u16,
                moved: false,
                ..u.clone()
            };
            &fresh
        };
        let walk = self.walk_for(u);
        let moves = walk
            .reached()
            .filter(|(p, c)| *c > 0 && *p != u.pos)
            .map(|(p, cost)| Step {
                x: p.x,
                y: p.y,
                cost,
                risk: walk.path(p).map_or(0, |path| self.path_risk(u, &path)),
            })
            .collect();
        let targets: Vec<&Unit> = self
            .enemies_of(u.side)
            .filter(|t| t.status.occupies())
            .collect();
        let attacks = targets
            .iter()
            .filter(|t| !u.melee.is_empty() && self.in_reach(u, u.pos, t))
            .map(|t| t.id)
            .collect();
        let shots = targets
            .iter()
            .filter(|t| self.can_shoot(u, u.pos, t))
            .map(|t| t.id)
            .collect();
        let mut spells: Vec<String> = Vec::new();
        for h in u.spells.iter().filter(|h| !h.used) {
            if !spells.iter().any(|s| s.eq_ignore_ascii_case(&h.spell)) {
                spells.push(h.spell.clone());
            }
        }
        let bandage = self
            .units
            .iter()
            .filter(|t| t.side == u.side && t.status == Status::Dying && t.pos.adjacent(u.pos))
            .map(|t| t.id)
            .collect();
        Some(Legal {
            unit: u.id,
            moves_left: u.moves_left,
            moves,
            attacks,
            shots,
            spells,
            bandage,
            // The active unit needs someone still to act this round to wait for.
            can_delay: !u.moved
                && !u.delayed
                && (self.active().is_none_or(|a| a.id != u.id) || self.turn + 1 < self.order.len()),
            can_guard: !u.melee.is_empty(),
            can_flee: self.field.on_edge(u.pos),
        })
    }

    /// The squares a spell would cover if the active unit cast it at `(x, y)` (the preview);
    /// refused as the cast itself would be.
    pub fn spell_area(&self, spell: &str, x: i32, y: i32) -> Result<Vec<Pos>, Refused> {
        let u = self
            .active()
            .ok_or_else(|| Refused("the fight is over".into()))?;
        self.check_cast(u, spell, Pos::new(x, y))
            .map(|(_, area)| area)
    }

    /// What the computer would have `unit` do were it its turn (the active unit with the
    /// moves it has left, any other with its full moves); empty for no such unit.
    pub fn computer_choice(&self, unit: UnitId) -> Vec<Command> {
        match self.unit(unit) {
            Some(u) if self.outcome.is_none() => ai::plan_for(self, u),
            _ => Vec::new(),
        }
    }

    // ----- Turns -----

    fn emit(&mut self, e: Event) {
        self.log.push(e);
    }

    fn start_round(&mut self) {
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
    fn next_turn(&mut self) {
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

    fn begin_turn(&mut self, id: UnitId) {
        self.turns += 1;
        let u = &mut self.units[id.index()];
        u.moves_left = u.rate as u16;
        u.moved = false;
        u.guarding = false;
        u.retreating = u.retreating.saturating_sub(1);
        self.emit(Event::Turn { unit: id });
        self.check_morale(id);
    }

    fn end_turn(&mut self) {
        self.turn += 1;
        self.next_turn();
    }

    /// Plays every computer-controlled turn until a member the player controls is to act.
    fn run_computer(&mut self) {
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

    fn check_morale(&mut self, id: UnitId) {
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

    // ----- Commands -----

    fn execute(&mut self, command: &Command) -> Result<(), Refused> {
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

    fn quick(&mut self, unit: UnitId, on: bool) -> Result<(), Refused> {
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

    fn walk(&mut self, id: UnitId, to: Pos) -> Result<(), Refused> {
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

    fn attack(&mut self, id: UnitId, target: UnitId) -> Result<(), Refused> {
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
    fn swing(&mut self, by: UnitId, target: UnitId, attack: &Attack, ranged: bool) {
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
    fn hurt(&mut self, id: UnitId, damage: i32) {
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

    fn cast(&mut self, id: UnitId, spell: &str, at: Pos) -> Result<(), Refused> {
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
                        && self.save(t, kind)
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
                        && self.save(t, kind)
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
    fn save(&mut self, id: UnitId, against: SaveKind) -> bool {
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

    fn check_end(&mut self) {
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
    fn finish(&mut self, ending: Ending) {
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

/// Places one side by formation around `anchor`: ranks of three (the party) or of up to
/// six (monsters), each further rank one row further from the enemy (`back` is the row step
/// away from them), every unit on the free open square nearest its place.
fn place(
    field: &Field,
    units: &mut [Unit],
    side: Side,
    anchor: Pos,
    back: i32,
) -> Result<(), Refused> {
    let per_rank = if side == Side::Party { 3 } else { 6 };
    let ids: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].side == side)
        .collect();
    let mut taken: Vec<Pos> = units
        .iter()
        .filter(|u| u.side != side)
        .map(|u| u.pos)
        .collect();
    for (n, &i) in ids.iter().enumerate() {
        let rank = (n / per_rank) as i32;
        let file = (n % per_rank) as i32;
        let in_rank = (ids.len() - rank as usize * per_rank).min(per_rank) as i32;
        let want = Pos::new(anchor.x - in_rank / 2 + file, anchor.y + rank * back);
        let Some(at) = nearest_free(field, want, &taken) else {
            return refuse(format!(
                "the battlefield has no open square left for {}",
                units[i].name
            ));
        };
        taken.push(at);
        units[i].pos = at;
    }
    Ok(())
}

/// The open square nearest `want` (ring by ring, row by row within a ring) not in `taken`.
fn nearest_free(field: &Field, want: Pos, taken: &[Pos]) -> Option<Pos> {
    let reach = field.width().max(field.height()) * 2;
    for r in 0..=reach {
        for y in want.y - r..=want.y + r {
            for x in want.x - r..=want.x + r {
                let p = Pos::new(x, y);
                if p.distance(want) == r && field.passable(p) && !taken.contains(&p) {
                    return Some(p);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
