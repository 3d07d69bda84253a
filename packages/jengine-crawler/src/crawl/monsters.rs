//! The dungeon's turn: monsters notice the party by sight, then hunt it for good, biting when
//! next to it and otherwise stepping along the shortest way to it.
//!
//! The way is a breadth-first search bounded by [`PATH_STEPS`] and [`PATH_CELLS`] over cells a
//! monster may stand on (not teleporters or pits, not another monster's cell); when it finds
//! none, the monster steps straight toward the party (the longer way first). A bite lands on
//! the rank the monster can reach from its side of the formation: from ahead the front two,
//! from behind the back two, from the left slots 1 and 3, from the right slots 2 and 4.

use super::event::Event;
use super::game::Crawl;
use crate::map::{Cell, Dungeon, Facing};
use rand::Rng;
use std::collections::VecDeque;

/// The longest way, in steps, a monster looks for.
pub const PATH_STEPS: u32 = 24;
/// The most cells one monster's search visits.
pub const PATH_CELLS: usize = 1024;

impl Crawl {
    /// The dungeon's turn: each monster wakes if it sees the party, and an awake one bites
    /// if it is next to the party and otherwise comes one cell closer.
    pub(super) fn dungeon_turn(&mut self) {
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        let party = (s.x, s.y);
        for i in 0..floor.monsters.len() {
            let m = &floor.monsters[i];
            let kind = &self.tables.monsters[m.kind];
            let (dx, dy) = (party.0 - m.x, party.1 - m.y);
            if !m.awake {
                let near = dx.abs().max(dy.abs()) as u32 <= kind.sight;
                if near && floor.line_of_sight((m.x, m.y), party) {
                    floor.monsters[i].awake = true;
                }
                continue;
            }
            if dx.abs() + dy.abs() == 1 {
                let slots = reachable_slots(s.facing, (-dx, -dy));
                let standing = |slot: &usize| s.party.get(*slot).is_some_and(|m| m.hp > 0);
                let mut targets: Vec<usize> = slots.iter().copied().filter(standing).collect();
                if targets.is_empty() {
                    targets = (0..s.party.len()).filter(standing).collect();
                }
                // Only a real choice draws from the stream.
                let slot = match targets.len() {
                    0 => None,
                    1 => Some(targets[0]),
                    n => Some(targets[s.rng.random_range(0..n)]),
                };
                if let Some(slot) = slot {
                    let damage = s.rng.random_range(1..=kind.attack.max(1));
                    let member = &mut s.party[slot];
                    member.hp = member.hp.saturating_sub(damage);
                    self.events.push(Event::Bitten {
                        monster: kind.name.clone(),
                        member: member.name.clone(),
                        damage,
                    });
                }
                continue;
            }
            let step = path_step(floor, (m.x, m.y), party).or_else(|| greedy_step(floor, i, party));
            if let Some((tx, ty)) = step {
                floor.monsters[i].x = tx;
                floor.monsters[i].y = ty;
            }
        }
        // Several bites in a turn are each announced; the party falls once.
        self.check_dead();
    }
}

/// The party's slots (from 0) a monster standing `offset` from the party reaches, by its side
/// of the formation as the party faces.
pub(super) fn reachable_slots(facing: Facing, offset: (i32, i32)) -> [usize; 2] {
    let ahead = facing.ahead();
    let right = facing.right();
    if offset == ahead {
        [0, 1]
    } else if offset == (-ahead.0, -ahead.1) {
        [2, 3]
    } else if offset == right {
        [1, 3]
    } else {
        [0, 2]
    }
}

/// Whether a monster may stand on (x, y): open, not a teleporter or a pit, nobody there.
fn free(floor: &Dungeon, x: i32, y: i32, party: (i32, i32)) -> bool {
    let cell = floor.cell(x, y);
    cell.is_walkable()
        && !matches!(cell, Cell::Teleporter | Cell::Pit)
        && floor.monster_at(x, y).is_none()
        && (x, y) != party
}

/// The first step of the shortest way from `from` to a cell beside the party, within
/// [`PATH_STEPS`] steps and [`PATH_CELLS`] cells; `None` when there is none that close.
pub(super) fn path_step(
    floor: &Dungeon,
    from: (i32, i32),
    party: (i32, i32),
) -> Option<(i32, i32)> {
    let beside = |(x, y): (i32, i32)| (x - party.0).abs() + (y - party.1).abs() == 1;
    let w = floor.width.max(1);
    let index = |(x, y): (i32, i32)| (y * w + x) as usize;
    // Where each visited cell was first reached from, and how far it is: a slot per cell of
    // the drawing (`from` lies on it, as every monster does).
    let mut came: Vec<Option<((i32, i32), u32)>> = vec![None; (w * floor.height.max(1)) as usize];
    let slot = index(from);
    if slot >= came.len() {
        return None;
    }
    came[slot] = Some((from, 0));
    let mut visited = 1;
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        let steps = came[index(at)].map_or(0, |(_, steps)| steps);
        if at != from && beside(at) {
            // Walk back to the step taken first.
            let mut cell = at;
            while let Some((prev, _)) = came[index(cell)] {
                if prev == from {
                    return Some(cell);
                }
                cell = prev;
            }
            return None;
        }
        if steps >= PATH_STEPS {
            continue;
        }
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let next = (at.0 + dx, at.1 + dy);
            if !floor.contains(next.0, next.1) || came[index(next)].is_some() {
                continue;
            }
            if !free(floor, next.0, next.1, party) {
                continue;
            }
            if visited >= PATH_CELLS {
                return None;
            }
            visited += 1;
            came[index(next)] = Some((at, steps + 1));
            queue.push_back(next);
        }
    }
    None
}

/// One cell straight toward the party, the longer way first, if that cell is free.
fn greedy_step(floor: &Dungeon, i: usize, party: (i32, i32)) -> Option<(i32, i32)> {
    let m = &floor.monsters[i];
    let (dx, dy) = (party.0 - m.x, party.1 - m.y);
    let step = |sx: i32, sy: i32| (sx.signum(), sy.signum());
    let tries = if dx.abs() >= dy.abs() {
        [step(dx, 0), step(0, dy)]
    } else {
        [step(0, dy), step(dx, 0)]
    };
    tries
        .into_iter()
        .filter(|&d| d != (0, 0))
        .map(|(mx, my)| (m.x + mx, m.y + my))
        .find(|&(tx, ty)| free(floor, tx, ty, party))
}

/// Whether the member in `slot` (from 0) can fight from there.
pub(super) fn reaches(slot: usize, reach: u32) -> bool {
    slot < 2 || reach as usize > slot
}
