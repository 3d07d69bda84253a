//! The tactical fight: a party and a band of monsters on a grid, taking turns in initiative
//! order, each turn moving, striking, shooting or casting. One idea holds it together: every
//! roll comes from the fight's own seeded stream and every change comes from a [`Command`],
//! so a fight is its seed plus its list of commands, and replays to the same log.
//!
//! A command is checked whole before anything changes; a refused one says why and leaves the
//! fight as it was. Monsters (and members set to quick) are played by [`ai`] as soon as their
//! turn comes, so after every command the fight waits on a member the player controls, or
//! has ended.

mod actions;
pub mod ai;
pub mod field;
mod log;
pub mod setup;
mod turns;
pub mod unit;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use field::{Field, FieldError, Pos, Terrain};
pub use log::{Command, Ending, Event, Legal, Outcome, Refused, Roll, Step};
pub use setup::{Encounter, Group};
pub use unit::{Attack, Side, Status, Unit, UnitId};

use crate::rules::{Party, Roller, Rules};
use log::refuse;

/// Rounds after which a fight nobody can finish ends with the sides parting.
pub const MAX_ROUNDS: u32 = 100;

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
    /// What it started from, for [`Fight::save`].
    start: Start,
}

/// The inputs a fight started from.
#[derive(Debug, Clone)]
struct Start {
    field: Field,
    party: Party,
    encounter: Encounter,
}

/// A fight as something to keep: what it started from, its seed and its commands. Played
/// again by [`Fight::resume`], it is the same fight, event for event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FightSave {
    /// The battlefield, as rows.
    pub field: Vec<String>,
    /// The party as it was when the fight began.
    pub party: Party,
    /// The encounter.
    pub encounter: Encounter,
    /// The seed, as decimal text (a script's numbers do not hold every 64-bit seed).
    pub seed: String,
    /// Every command applied, in order.
    pub commands: Vec<Command>,
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
        if party.members.len() > Party::MAX {
            return refuse(format!(
                "a party has at most {} members, this one {}",
                Party::MAX,
                party.members.len()
            ));
        }
        let total: usize = encounter.monsters.iter().map(|g| g.count as usize).sum();
        if total > Encounter::MAX_MONSTERS {
            return refuse(format!(
                "{total} monsters; an encounter holds at most {}",
                Encounter::MAX_MONSTERS
            ));
        }
        let start = Start {
            field: field.clone(),
            party: party.clone(),
            encounter: encounter.clone(),
        };
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
        setup::place_all(
            &field,
            &mut units,
            encounter.party_anchor(&field),
            encounter.monster_anchor(&field),
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
            start,
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

    /// The fight as something to keep (see [`FightSave`]).
    pub fn save(&self) -> FightSave {
        FightSave {
            field: self.start.field.rows(),
            party: self.start.party.clone(),
            encounter: self.start.encounter.clone(),
            seed: self.seed.to_string(),
            commands: self.commands.clone(),
        }
    }

    /// Plays a kept fight again to where it was. A save that does not fit (a field that is
    /// not terrain, a seed that is not a number, a command the fight refuses) is refused,
    /// naming what and where.
    pub fn resume(rules: Arc<Rules>, save: &FightSave) -> Result<Fight, Refused> {
        let field =
            Field::from_rows(&save.field).map_err(|e| Refused(format!("the save's field: {e}")))?;
        let seed: u64 = save.seed.trim().parse().map_err(|_| {
            Refused(format!(
                "the save's seed {:?} is not a whole number 0 or more",
                save.seed
            ))
        })?;
        Fight::replay(
            rules,
            field,
            save.party.clone(),
            &save.encounter,
            seed,
            &save.commands,
        )
        .map_err(|(i, r)| Refused(format!("the save's command {}: {r}", i + 1)))
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
    /// Where `u` may walk this turn: round its enemies, through its friends (standing or
    /// fallen, so a member down in a corridor does not wall the others off), ending on a free
    /// square.
    pub(crate) fn walk_for(&self, u: &Unit) -> field::Walk {
        let taken = self.occupancy(u.id);
        let w = self.field.width();
        let friends = self.occupancy_of(u.side, u.id);
        self.field.walk_costs_over(
            u.pos,
            u.moves_left,
            |p| {
                let i = (p.y * w + p.x) as usize;
                taken[i] && !friends[i]
            },
            |p| friends[(p.y * w + p.x) as usize],
        )
    }

    /// Squares taken by `side` (`except` left free), row by row.
    fn occupancy_of(&self, side: Side, except: UnitId) -> Vec<bool> {
        let w = self.field.width();
        let mut taken = vec![false; (w * self.field.height()) as usize];
        for u in &self.units {
            if u.side == side && u.id != except && u.status.occupies() && self.field.inside(u.pos) {
                taken[(u.pos.y * w + u.pos.x) as usize] = true;
            }
        }
        taken
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

    /// Whether `u` could shoot `t` from `at`: a missile with a shot left, range, sight, and no
    /// enemy next to it.
    pub(crate) fn can_shoot(&self, u: &Unit, at: Pos, t: &Unit) -> bool {
        let Some(shot) = &u.missile else {
            return false;
        };
        if u.shots == Some(0) {
            return false;
        }
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
}

#[cfg(test)]
mod tests;
