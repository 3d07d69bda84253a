//! The dungeon's turn: monsters notice the party by sight, then hunt it for good, biting when
//! next to it and otherwise stepping one cell closer (the longer way first).
//!
//! Bites land on the front rank while anyone in it stands; the party falls once per turn.

use super::game::{Crawl, Event};
use rand::Rng;

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
                // The front rank takes the bites while anyone in it stands.
                let target = (0..s.party.len())
                    .filter(|&slot| s.party[slot].hp > 0)
                    .min_by_key(|&slot| slot.max(1));
                if let Some(slot) = target {
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
            let step = |sx: i32, sy: i32| (sx.signum(), sy.signum());
            let tries = if dx.abs() >= dy.abs() {
                [step(dx, 0), step(0, dy)]
            } else {
                [step(0, dy), step(dx, 0)]
            };
            for (mx, my) in tries {
                if (mx, my) == (0, 0) {
                    continue;
                }
                let (tx, ty) = (m.x + mx, m.y + my);
                let free = floor.cell(tx, ty).is_walkable()
                    && floor.monster_at(tx, ty).is_none()
                    && (tx, ty) != party;
                if free {
                    floor.monsters[i].x = tx;
                    floor.monsters[i].y = ty;
                    break;
                }
            }
        }
        // Several bites in a turn are each announced; the party falls once.
        self.check_dead();
    }
}

/// Whether the member in `slot` (from 0) can fight from there.
pub(super) fn reaches(slot: usize, reach: u32) -> bool {
    slot < 2 || reach as usize > slot
}
