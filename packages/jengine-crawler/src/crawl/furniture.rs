//! The dungeon's furniture in play: named doors moved by levers, plates and buttons,
//! teleporters, spinners, traps that hurt, items taken from the floor, searching for secret
//! doors, and the party changing places.
//!
//! Everything here is reached from the crawl's own actions in `game`; what it changes is kept
//! in the floor's cells and items (so a save carries it) and announced as events.

use super::event::Event;
use super::game::Crawl;
use crate::map::{Cell, Facing};
use rand::Rng;

impl Crawl {
    /// Applies the lever, plate or button entry at (x, y) of the party's floor: the doors it
    /// opens become open, the open doors it shuts are locked again (not while the party or a
    /// monster stands in one). Each door moved is announced.
    pub(super) fn work(&mut self, x: i32, y: i32) {
        let s = &mut self.state;
        let level = &self.tables.levels[s.level];
        let Some(m) = level.mechanism_at(x, y) else {
            return;
        };
        let floor = &mut s.floors[s.level];
        for name in &m.opens {
            let Some(door) = level.door_named(name) else {
                continue;
            };
            let [dx, dy] = door.at;
            if let Some(cell @ (Cell::Door | Cell::Locked)) = floor.cell_mut(dx, dy) {
                *cell = Cell::Open;
                self.events.push(Event::Opened { name: name.clone() });
            }
        }
        for name in &m.shuts {
            let Some(door) = level.door_named(name) else {
                continue;
            };
            let [dx, dy] = door.at;
            let blocked = (s.x, s.y) == (dx, dy) || floor.monster_at(dx, dy).is_some();
            if !blocked && let Some(cell @ Cell::Open) = floor.cell_mut(dx, dy) {
                *cell = Cell::Locked;
                self.events.push(Event::Shut { name: name.clone() });
            }
        }
    }

    /// The teleporter at (x, y) sends the party on: false when it did not (no entry, or a
    /// monster stands on its far end, which holds it).
    pub(super) fn teleport(&mut self, x: i32, y: i32) -> bool {
        let s = &self.state;
        let Some(t) = self.tables.levels[s.level].teleport_at(x, y) else {
            return false;
        };
        let level = t.floor.unwrap_or(s.level);
        let [tx, ty] = t.to;
        let facing = t.facing.unwrap_or(s.facing);
        let Some(there) = s.floors.get(level) else {
            return false;
        };
        if there.monster_at(tx, ty).is_some() || !there.cell(tx, ty).is_walkable() {
            return false;
        }
        let changed = level != s.level;
        if !changed {
            self.events.push(Event::Teleport {
                level,
                x: tx,
                y: ty,
            });
        }
        self.arrive_at(level, tx, ty, facing);
        if changed {
            // The move first, then the floor it came to.
            let at = self.events.len() - 1;
            self.events.insert(
                at,
                Event::Teleport {
                    level,
                    x: tx,
                    y: ty,
                },
            );
        }
        true
    }

    /// The spinner at (x, y) turns the party: by its entry, or 1 to 3 quarters at random.
    pub(super) fn spin(&mut self, x: i32, y: i32) {
        let s = &mut self.state;
        let fixed = self.tables.levels[s.level]
            .spinner_at(x, y)
            .and_then(|sp| sp.turn);
        let turn = match fixed {
            Some(t) => t as i32,
            None => s.rng.random_range(1..=3),
        };
        s.facing = s.facing.turned(turn);
        self.events.push(Event::Spun { facing: s.facing });
        self.look_around();
    }

    /// A trap with damage rolls 1 to `damage` against each standing member of the front rank.
    pub(super) fn trap_hurts(&mut self, name: &str, damage: u32) {
        if damage == 0 {
            return;
        }
        let s = &mut self.state;
        for member in s.party.iter_mut().take(2).filter(|m| m.hp > 0) {
            let hurt = s.rng.random_range(1..=damage);
            member.hp = member.hp.saturating_sub(hurt);
            self.events.push(Event::Hurt {
                member: member.name.clone(),
                damage: hurt,
                from: name.to_string(),
            });
        }
        self.check_dead();
    }

    /// Takes the first item lying where the party stands; false when there is none.
    pub(super) fn take_item(&mut self) -> bool {
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        let Some(i) = floor.item_at(s.x, s.y) else {
            return false;
        };
        let item = floor.items.remove(i);
        self.take(item.loot, "floor");
        true
    }

    /// Searches the four walls around the party for secret doors: each found becomes a shut
    /// door (`found`), and the search takes a tick. Finding none says `nothing` and takes no
    /// time.
    pub fn search(&mut self) -> &[Event] {
        self.events.clear();
        if self.halted() {
            return &self.events;
        }
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let (x, y) = (s.x + dx, s.y + dy);
            if let Some(cell @ Cell::Secret) = floor.cell_mut(x, y) {
                *cell = Cell::Door;
                self.events.push(Event::Found { x, y });
            }
        }
        if self.events.is_empty() {
            self.events.push(Event::Nothing);
        } else {
            self.spend_tick();
        }
        &self.events
    }

    /// The members in slots `a` and `b` (counting from 1) change places. It takes no time and
    /// may be done mid-fight; slots outside the party change nothing and announce nothing.
    pub fn swap(&mut self, a: usize, b: usize) -> &[Event] {
        self.events.clear();
        let n = self.state.party.len();
        if self.state.dead || a == 0 || b == 0 || a > n || b > n {
            return &self.events;
        }
        self.state.party.swap(a - 1, b - 1);
        self.state.order.swap(a - 1, b - 1);
        self.events.push(Event::Swapped { a, b });
        &self.events
    }

    /// The game sets the door at (x, y) of the party's floor by its own rules (a pick, a bash,
    /// a spell): `open`, `shut` or `locked`. No key is spent and no time passes; the door is
    /// announced (`door_changed`) even when it already was so. Refused in words, changing
    /// nothing, for a cell that is no door (an archway has none; a secret door must be found
    /// first), and for shutting a doorway someone stands in.
    pub fn set_door(&mut self, x: i32, y: i32, state: DoorState) -> Result<&[Event], String> {
        // A refused call announces nothing: what the last action said is gone either way.
        self.events.clear();
        let s = &self.state;
        let floor = self.floor();
        let cell = floor.cell(x, y);
        if !matches!(cell, Cell::Door | Cell::Locked | Cell::Open) {
            let what = match cell {
                Cell::Arch => "an archway, which has no door".to_string(),
                Cell::Secret => "a secret door not yet found".to_string(),
                _ if !floor.contains(x, y) => "off the map".to_string(),
                other => format!("'{}', not a door", other.symbol()),
            };
            return Err(format!("row {y}, cell {x} is {what}"));
        }
        let occupied = (s.x, s.y) == (x, y)
            || floor.monster_at(x, y).is_some()
            || s.wanderer.as_ref().is_some_and(|w| w.at == [x, y]);
        if state != DoorState::Open && *cell == Cell::Open && occupied {
            return Err(format!(
                "row {y}, cell {x}: someone stands in the doorway, so it cannot be {}",
                state.as_str()
            ));
        }
        let level = s.level;
        if let Some(cell) = self.state.floors[level].cell_mut(x, y) {
            *cell = match state {
                DoorState::Open => Cell::Open,
                DoorState::Shut => Cell::Door,
                DoorState::Locked => Cell::Locked,
            };
        }
        self.events.push(Event::DoorChanged {
            x,
            y,
            state: state.as_str().to_string(),
        });
        self.look_around();
        self.spot();
        Ok(&self.events)
    }
}

/// What the game may make of a door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoorState {
    /// Open: walked through, seen through.
    Open,
    /// Shut: `use` opens it.
    Shut,
    /// Locked: a key, its named key or the game opens it.
    Locked,
}

impl DoorState {
    /// The three, as scripts name them.
    pub const NAMES: [&'static str; 3] = ["open", "shut", "locked"];

    /// The state a script names, if it is one.
    pub fn named(name: &str) -> Option<DoorState> {
        match name {
            "open" => Some(DoorState::Open),
            "shut" => Some(DoorState::Shut),
            "locked" => Some(DoorState::Locked),
            _ => None,
        }
    }

    /// Its name.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}
