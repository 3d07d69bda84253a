//! The computer's side of a fight (every monster, and members set to quick). It reads the
//! fight and answers with commands, never touching the state: broken morale runs for the
//! edge or falls back; otherwise a spell that catches enemies and no friend, then the weakest
//! enemy it can reach this turn, from the square that flanks it and invites fewest free
//! attacks; failing that, it closes in.

use super::field::Pos;
use super::{Command, Fight, Status, Unit};
use crate::rules::{Effect, Shape};

/// What the active unit does this turn, in order; empty when the fight is over.
pub fn plan(f: &Fight) -> Vec<Command> {
    match f.active() {
        Some(u) => plan_for(f, u),
        None => Vec::new(),
    }
}

/// What `u` would do were it its turn, with its full moves.
pub fn plan_for(f: &Fight, u: &Unit) -> Vec<Command> {
    let fresh;
    let u = if f.active().is_some_and(|a| a.id == u.id) {
        u
    } else {
        fresh = Unit {
            moves_left: u.rate as u16,
            ..u.clone()
        };
        &fresh
    };
    let enemies: Vec<&Unit> = f
        .units()
        .iter()
        .filter(|t| t.side != u.side && t.status.standing())
        .collect();
    if enemies.is_empty() {
        return vec![Command::EndTurn];
    }
    if u.fleeing
        && let Some(plan) = run_for_the_edge(f, u, &enemies)
    {
        return plan;
    }
    if u.retreating > 0 {
        return fall_back(f, u, &enemies);
    }
    if let Some(cast) = choose_spell(f, u) {
        return vec![cast];
    }
    if let Some(plan) = strike(f, u, &enemies) {
        return plan;
    }
    close_in(f, u, &enemies)
}

fn nearest_enemy(p: Pos, enemies: &[&Unit]) -> i32 {
    enemies
        .iter()
        .map(|e| e.pos.distance(p))
        .min()
        .unwrap_or(i32::MAX)
}

fn then_end(to: Pos, from: Pos, last: Command) -> Vec<Command> {
    let mut plan = Vec::new();
    if to != from {
        plan.push(Command::Move { x: to.x, y: to.y });
    }
    plan.push(last);
    plan
}

/// Broken: leave from the edge, or get as near it as it can, away from enemies. `None` when
/// no edge can be reached at all: then it fights, cornered.
fn run_for_the_edge(f: &Fight, u: &Unit, enemies: &[&Unit]) -> Option<Vec<Command>> {
    let field = f.field();
    if field.on_edge(u.pos) {
        return Some(vec![Command::Flee]);
    }
    let w = field.width();
    let edges = (0..field.height())
        .flat_map(|y| (0..w).map(move |x| Pos::new(x, y)))
        .filter(|p| field.on_edge(*p) && field.passable(*p));
    let dist = field.distances_to(edges);
    let at = |p: Pos| dist[(p.y * w + p.x) as usize];
    if at(u.pos) == u16::MAX {
        return None;
    }
    let walk = f.walk_for(u);
    let best = walk
        .reached()
        .min_by_key(|(p, c)| (at(*p), -nearest_enemy(*p, enemies), *c, *p))
        .map(|(p, _)| p)
        .unwrap_or(u.pos);
    let last = if field.on_edge(best) {
        Command::Flee
    } else {
        Command::EndTurn
    };
    Some(then_end(best, u.pos, last))
}

/// Shaken: step as far from the enemy as it can and stand guard.
fn fall_back(f: &Fight, u: &Unit, enemies: &[&Unit]) -> Vec<Command> {
    let walk = f.walk_for(u);
    let best = walk
        .reached()
        .max_by_key(|(p, c)| {
            (
                nearest_enemy(*p, enemies),
                -(*c as i32),
                std::cmp::Reverse(*p),
            )
        })
        .map(|(p, _)| p)
        .unwrap_or(u.pos);
    let last = if u.melee.is_empty() {
        Command::EndTurn
    } else {
        Command::Guard
    };
    then_end(best, u.pos, last)
}

/// The best spell to cast from where it stands, if one is worth it: enough enemies caught
/// and no friend, or a friend in need of healing or freeing.
fn choose_spell(f: &Fight, u: &Unit) -> Option<Command> {
    let mut best: Option<(i32, Command)> = None;
    let mut names: Vec<&str> = u
        .spells
        .iter()
        .filter(|h| !h.used)
        .map(|h| h.spell.as_str())
        .collect();
    names.dedup();
    for name in names {
        let Some(s) = f.rules().spell(name) else {
            continue;
        };
        for aim in aims(f, u, s.shape, s.size, s.range) {
            let Ok((_, area)) = f.check_cast(u, name, aim) else {
                continue;
            };
            let caught: Vec<&Unit> = f
                .units()
                .iter()
                .filter(|t| t.status.occupies() && area.contains(&t.pos))
                .collect();
            let foes = |ok: &dyn Fn(&Unit) -> bool| {
                caught
                    .iter()
                    .filter(|t| t.side != u.side && t.status.standing() && ok(t))
                    .count() as i32
            };
            let friends = caught.iter().filter(|t| t.side == u.side).count() as i32;
            let score = match s.effect {
                Effect::Damage => {
                    if friends > 0 {
                        continue;
                    }
                    let n = foes(&|_| true);
                    if s.shape == Shape::Single {
                        n * 3
                    } else {
                        n * 4 - 2
                    }
                }
                Effect::Sleep | Effect::Hold => {
                    if friends > 0 {
                        continue;
                    }
                    let n = foes(&|t| {
                        t.status == Status::Ok
                            && !t.undead
                            && (s.effect != Effect::Sleep || t.level <= s.max_level)
                    });
                    n * 4 - 1
                }
                Effect::Heal => caught
                    .iter()
                    .filter(|t| t.side == u.side && t.hp * 2 <= t.max_hp)
                    .map(|t| if t.hp <= 0 { 12 } else { 5 })
                    .sum::<i32>(),
                Effect::Release => {
                    caught
                        .iter()
                        .filter(|t| {
                            t.side == u.side && matches!(t.status, Status::Asleep | Status::Held)
                        })
                        .count() as i32
                        * 6
                }
            };
            if score >= 3 && best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((
                    score,
                    Command::Cast {
                        spell: s.name.clone(),
                        x: aim.x,
                        y: aim.y,
                    },
                ));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// Squares worth aiming a spell at: every unit in range (and its own square).
fn aims(f: &Fight, u: &Unit, shape: Shape, size: u8, range: u8) -> Vec<Pos> {
    let reach = match shape {
        Shape::Line | Shape::Cone => size as i32,
        _ => (range as i32).max(1),
    };
    let mut out: Vec<Pos> = f
        .units()
        .iter()
        .filter(|t| t.status.occupies() && t.pos.distance(u.pos) <= reach)
        .map(|t| t.pos)
        .collect();
    if !matches!(shape, Shape::Line | Shape::Cone) {
        out.push(u.pos);
    }
    out.sort();
    out.dedup();
    out
}

/// How a strike is ranked: the target's weakness, less the square's score, the target's
/// number and the square; the smallest wins.
type Choice = (i32, i32, u16, Pos);

/// The weakest enemy it can strike or shoot this turn, and the square to do it from.
fn strike(f: &Fight, u: &Unit, enemies: &[&Unit]) -> Option<Vec<Command>> {
    let walk = f.walk_for(u);
    let mut best: Option<(Choice, Pos, &Unit)> = None;
    for (cell, cost) in walk.reached() {
        let path = if cell == u.pos {
            Vec::new()
        } else {
            match walk.path(cell) {
                Some(p) => p,
                None => continue,
            }
        };
        let mut risk: Option<i32> = None;
        for t in enemies {
            let melee = !u.melee.is_empty() && f.in_reach(u, cell, t);
            let shot = !melee && f.can_shoot(u, cell, t);
            if !melee && !shot {
                continue;
            }
            let risk = *risk.get_or_insert_with(|| f.path_risk(u, &path) as i32);
            let flank = melee && cell.adjacent(t.pos) && {
                let far = Pos::new(2 * t.pos.x - cell.x, 2 * t.pos.y - cell.y);
                f.units()
                    .iter()
                    .any(|a| a.side == u.side && a.id != u.id && a.pos == far && a.can_act())
            };
            let crowd = enemies
                .iter()
                .filter(|e| e.id != t.id && e.pos.adjacent(cell))
                .count() as i32;
            let score =
                40 * flank as i32 - 30 * risk - 10 * crowd - cost as i32 + if shot { 5 } else { 0 };
            // A helpless enemy is no threat: the standing ones come first.
            let weakness = t.hp + if t.status == Status::Ok { 0 } else { 1000 };
            let key = (weakness, -score, t.id.0, cell);
            if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                best = Some((key, cell, t));
            }
        }
    }
    let (_, cell, t) = best?;
    Some(then_end(cell, u.pos, Command::Attack { target: t.id }))
}

/// Nobody in reach: walk toward the nearest enemy, the way with fewest free attacks; stand
/// guard when it gets no nearer.
fn close_in(f: &Fight, u: &Unit, enemies: &[&Unit]) -> Vec<Command> {
    let field = f.field();
    let w = field.width();
    let goals = enemies.iter().flat_map(|e| {
        let p = e.pos;
        (-1..=1).flat_map(move |dy| (-1..=1).map(move |dx| Pos::new(p.x + dx, p.y + dy)))
    });
    let dist = field.distances_to(goals.filter(|p| field.passable(*p)));
    let at = |p: Pos| dist[(p.y * w + p.x) as usize];
    let walk = f.walk_for(u);
    let best = walk
        .reached()
        .filter(|(p, _)| at(*p) != u16::MAX)
        .map(|(p, c)| {
            let risk = walk.path(p).map_or(0, |path| f.path_risk(u, &path));
            ((at(p), risk, c, p), p)
        })
        .min()
        .map(|(_, p)| p);
    let guard = if u.melee.is_empty() {
        Command::EndTurn
    } else {
        Command::Guard
    };
    match best {
        Some(p) if at(p) < at(u.pos) => then_end(p, u.pos, guard),
        _ => vec![guard],
    }
}
