//! The crawl: a party on a floor, moving one tick at a time, and what happens when it does.
//!
//! Every action that spends time ends with the dungeon's turn (see `monsters`); an action that
//! changes nothing spends no time at all. All chance comes from one seeded stream kept in the
//! state, so a game replays exactly from its seed.

use super::event::Event;
use super::monsters::reaches;
use super::reachable::InPlay;
use crate::map::{Cell, Dungeon, Facing, Loot, Tables};
use crate::view::{self, Frame, Quad};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How much a pit hurts each member, and how much resting heals per tick.
const PIT_DAMAGE: u32 = 2;
const REST_HEAL: u32 = 1;
/// Resting costs this many ticks.
pub const REST_TICKS: u32 = 4;

/// A party member as the crawl keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Health left.
    pub hp: u32,
    /// Health when whole.
    pub max_hp: u32,
    /// The most they hit for.
    pub attack: u32,
    /// The furthest slot they fight from.
    pub reach: u32,
}

/// A fight in progress, waiting for the game to settle it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fight {
    /// The group, by the game's name.
    pub group: String,
    /// What to show.
    pub text: String,
    /// Its art.
    pub art: Option<String>,
    /// Which of the floor's fixed fights it is (`None`: a random one).
    pub fixed: Option<usize>,
    /// The cell the party stepped from, where running puts it back (its own cell for a fight
    /// it did not step into: a spotted group fought, a rest cut short).
    pub from: [i32; 2],
    /// It is the wandering group standing on the floor (see [`Wanderer`]).
    #[serde(default, skip_serializing_if = "is_false")]
    pub wanderer: bool,
    /// It is a parley, not a fight: won, the group is gone as if beaten; not, it stays.
    #[serde(default, skip_serializing_if = "is_false")]
    pub parley: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A wandering group standing on the party's floor, drawn where the level can be seen down
/// (`sight`) and waiting to be spotted, fought or walked into. It is gone when the party
/// leaves the floor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wanderer {
    /// The group, from the level's `groups`.
    pub group: String,
    /// Where it stands, `[x, y]`.
    pub at: [i32; 2],
}

/// Which group was spotted: one of the floor's fixed fights (by its place in the row) or the
/// wanderer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sighting {
    /// The floor's fixed fight with this index.
    Fixed(usize),
    /// The wandering group.
    Wanderer,
}

/// A group seen down a corridor, waiting for the game's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spotted {
    /// The group.
    pub group: String,
    /// The level's text for it.
    pub text: String,
    /// Its art.
    pub art: Option<String>,
    /// How far away, in cells (the larger of across and along).
    pub distance: u32,
    /// Where it stands.
    pub at: [i32; 2],
    /// Which group it is.
    pub who: Sighting,
}

/// The event in progress, as a game shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventNow {
    /// Its id.
    pub id: String,
    /// Its text.
    pub text: String,
    /// Its picture.
    pub picture: Option<String>,
    /// Its choices, in order (counted from 1 by `choose`).
    pub choices: Vec<crate::map::Choice>,
    /// Its cell, `[x, y]`.
    pub at: [i32; 2],
}

/// What a game reads about the crawl after each action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrawlState {
    /// The floor, counting from 0.
    pub level: usize,
    /// How many floors there are.
    pub levels: usize,
    /// The party's cell.
    pub x: i32,
    /// The party's row.
    pub y: i32,
    /// The way it faces.
    pub facing: Facing,
    /// The party, slot by slot.
    pub party: Vec<Member>,
    /// Gold carried.
    pub gold: u32,
    /// Keys carried.
    pub keys: u32,
    /// What is directly in front: the legend symbol, `M` for a monster, and `.` for a trap
    /// that has not gone off (it is floor until it does).
    pub ahead: char,
    /// Standing on stairs down.
    pub on_stairs: bool,
    /// Standing on stairs up.
    pub on_stairs_up: bool,
    /// The fight in progress.
    pub encounter: Option<Fight>,
    /// Ticks spent so far.
    pub tick: u64,
    /// The party is dead.
    pub dead: bool,
    /// The party has left the dungeon at the bottom.
    pub escaped: bool,
    /// How many steps away (across plus along, walls not counted) the nearest awake monster
    /// on this floor is; `None` while none is awake. A game can make it heard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nearest_awake: Option<u32>,
    /// The named keys carried, in the order they were found.
    #[serde(default)]
    pub keyring: Vec<String>,
    /// The party stands in a dark cell.
    #[serde(default)]
    pub in_dark: bool,
    /// The first item lying where the party stands (`kind:value`), what `use` would take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub underfoot: Option<String>,
    /// The cell event waiting for the game's `choose`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventNow>,
    /// The group spotted, waiting for the game's `answer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spotted: Option<Spotted>,
    /// The flags set (by events' choices or the game), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The level's name.
    #[serde(default)]
    pub map: String,
}

/// Everything that changes as the game is played; the tables never do.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct State {
    pub(super) seed: u64,
    pub(super) rng: Pcg32,
    pub(super) level: usize,
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) facing: Facing,
    pub(super) party: Vec<Member>,
    pub(super) gold: u32,
    pub(super) keys: u32,
    pub(super) keyring: Vec<String>,
    /// The crawlers table's row in each slot.
    pub(super) order: Vec<usize>,
    pub(super) tick: u64,
    pub(super) quiet: u32,
    pub(super) floors: Vec<Dungeon>,
    pub(super) fight: Option<Fight>,
    pub(super) dead: bool,
    pub(super) escaped: bool,
    /// Flags, sorted, each once.
    pub(super) flags: Vec<String>,
    /// The index (in the party's level row) of the event waiting for a choice.
    pub(super) event: Option<usize>,
    /// The group spotted, waiting for an answer.
    pub(super) spotted: Option<Spotted>,
    /// The groups announced since they came into sight (each once per approach).
    pub(super) approach: Vec<Sighting>,
    /// A wandering group standing on the party's floor.
    pub(super) wanderer: Option<Wanderer>,
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Crawl {
    pub(super) tables: Arc<Tables>,
    pub(super) frame: Frame,
    pub(super) state: State,
    pub(super) events: Vec<Event>,
    /// Whether the game in play began with `new_game` or a good load.
    pub(super) in_play: InPlay,
}

impl Crawl {
    /// A new game at the top of the dungeon.
    pub fn new(tables: Tables, seed: u64) -> Crawl {
        let tables = Arc::new(tables);
        let state = fresh(&tables, seed);
        let mut crawl = Crawl {
            tables,
            frame: Frame::default(),
            state,
            events: Vec::new(),
            in_play: InPlay::New,
        };
        crawl.look_around();
        crawl
    }

    /// Back to the top of the dungeon, with a new seed if given.
    pub fn new_game(&mut self, seed: Option<u64>) {
        let seed = seed.unwrap_or(self.state.seed);
        self.state = fresh(&self.tables, seed);
        self.events.clear();
        self.in_play = InPlay::New;
        self.look_around();
    }

    /// Lays the picture out with this frame (it also decides what the automap sees).
    pub fn set_frame(&mut self, frame: Frame) {
        self.frame = frame;
    }

    /// The tables the game runs on.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The floor the party is on.
    pub fn floor(&self) -> &Dungeon {
        &self.state.floors[self.state.level]
    }

    /// A floor by number, as it is now.
    pub fn floor_at(&self, level: usize) -> Option<&Dungeon> {
        self.state.floors.get(level)
    }

    /// What the last action announced.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The picture from where the party stands.
    pub fn view(&self) -> Vec<Quad> {
        let s = &self.state;
        view::build(self.floor(), s.x, s.y, s.facing, &self.frame)
    }

    /// What a game reads after each action.
    pub fn state(&self) -> CrawlState {
        let s = &self.state;
        let floor = self.floor();
        let (ax, ay) = s.facing.ahead();
        let (fx, fy) = (s.x + ax, s.y + ay);
        let ahead = if floor.monster_at(fx, fy).is_some() {
            'M'
        } else {
            match floor.cell(fx, fy) {
                // A trap is a secret until it goes off, a secret door until it is found: the
                // game must not be told they are there.
                Cell::Trap { sprung: false, .. } => '.',
                Cell::Secret => '#',
                cell => cell.symbol(),
            }
        };
        let here = floor.cell(s.x, s.y);
        CrawlState {
            level: s.level,
            levels: s.floors.len(),
            x: s.x,
            y: s.y,
            facing: s.facing,
            party: s.party.clone(),
            gold: s.gold,
            keys: s.keys,
            ahead,
            on_stairs: *here == Cell::Down,
            on_stairs_up: *here == Cell::Up,
            encounter: s.fight.clone(),
            tick: s.tick,
            dead: s.dead,
            escaped: s.escaped,
            nearest_awake: floor.nearest_awake((s.x, s.y)),
            keyring: s.keyring.clone(),
            in_dark: *here == Cell::Dark,
            underfoot: floor.item_at(s.x, s.y).map(|i| floor.items[i].loot.text()),
            event: s.event.and_then(|i| self.event_now(i)),
            spotted: s.spotted.clone(),
            flags: s.flags.clone(),
            map: self.tables.levels[s.level].name.clone(),
        }
    }

    /// Whether the crawl refuses actions: while a fight waits, and once the game is over.
    pub(super) fn halted(&self) -> bool {
        let s = &self.state;
        s.fight.is_some() || s.dead || s.escaped || s.event.is_some() || s.spotted.is_some()
    }

    /// A step: `dy` forward (1) or back (-1), `dx` to the right (1) or left (-1).
    /// Walking into something solid or a monster spends no time and says what was in the way
    /// (`Bumped`, or `Locked` for a locked door).
    pub fn walk(&mut self, dx: i32, dy: i32) -> &[Event] {
        self.events.clear();
        if self.halted() || (dx == 0 && dy == 0) {
            return &self.events;
        }
        let s = &self.state;
        let (ax, ay) = s.facing.ahead();
        let (rx, ry) = s.facing.right();
        // One cell at a time, forward and back before sideways.
        let (f, r) = if dy != 0 {
            (dy.signum(), 0)
        } else {
            (0, dx.signum())
        };
        let (tx, ty) = (s.x + ax * f + rx * r, s.y + ay * f + ry * r);
        let floor = self.floor();
        let target = floor.cell(tx, ty);
        let refused = if floor.monster_at(tx, ty).is_some() {
            Some(Event::Bumped {
                what: "monster".into(),
            })
        } else {
            match target {
                Cell::Locked => Some(Event::Locked),
                Cell::Door => Some(Event::Bumped {
                    what: "door".into(),
                }),
                Cell::Lever { .. } => Some(Event::Bumped {
                    what: "lever".into(),
                }),
                Cell::Button { .. } => Some(Event::Bumped {
                    what: "button".into(),
                }),
                cell if !cell.is_walkable() => Some(Event::Bumped {
                    what: "wall".into(),
                }),
                _ => None,
            }
        };
        if let Some(event) = refused {
            self.events.push(event);
            return &self.events;
        }
        let from = [s.x, s.y];
        let was_dark = self.in_dark();
        self.state.x = tx;
        self.state.y = ty;
        self.state.tick += 1;
        self.look_around();
        self.enter(from);
        if !was_dark && self.in_dark() {
            self.events.push(Event::Dark);
        }
        if !self.halted() {
            self.dungeon_turn();
            self.spot();
        }
        &self.events
    }

    /// Turn right by `steps` quarters (negative: left). One tick.
    pub fn turn(&mut self, steps: i32) -> &[Event] {
        self.events.clear();
        if self.halted() || steps.rem_euclid(4) == 0 {
            return &self.events;
        }
        self.state.facing = self.state.facing.turned(steps);
        self.spend_tick();
        &self.events
    }

    /// Stand still for a tick and let the dungeon come.
    pub fn wait(&mut self) -> &[Event] {
        self.events.clear();
        if self.halted() {
            return &self.events;
        }
        self.events.push(Event::Wait);
        self.spend_tick();
        &self.events
    }

    /// Heal a little over four ticks; the dungeon takes all four turns.
    pub fn rest(&mut self) -> &[Event] {
        self.events.clear();
        if self.halted() {
            return &self.events;
        }
        self.events.push(Event::Rested);
        for _ in 0..REST_TICKS {
            self.rest_tick();
            if self.halted() {
                break;
            }
        }
        &self.events
    }

    /// One tick of rest: the living heal, the dungeon takes its turn.
    pub(super) fn rest_tick(&mut self) {
        for m in self.state.party.iter_mut().filter(|m| m.hp > 0) {
            m.hp = (m.hp + REST_HEAL).min(m.max_hp);
        }
        self.spend_tick();
    }

    /// The party swings at what is in front: the front two always, slots three and four only
    /// with the reach for it. One tick, hit or miss.
    pub fn attack(&mut self) -> &[Event] {
        self.events.clear();
        if self.halted() {
            return &self.events;
        }
        let s = &mut self.state;
        let (ax, ay) = s.facing.ahead();
        let floor = &mut s.floors[s.level];
        if let Some(i) = floor.monster_at(s.x + ax, s.y + ay) {
            for (slot, member) in s.party.iter().enumerate() {
                if member.hp == 0 || !reaches(slot, member.reach) {
                    continue;
                }
                let monster = &mut floor.monsters[i];
                let damage = s.rng.random_range(1..=member.attack.max(1));
                monster.hp = monster.hp.saturating_sub(damage);
                monster.awake = true;
                let name = self.tables.monsters[monster.kind].name.clone();
                self.events.push(Event::Hit {
                    member: member.name.clone(),
                    monster: name.clone(),
                    damage,
                });
                if monster.hp == 0 {
                    floor.monsters.remove(i);
                    self.events.push(Event::Slain { monster: name });
                    break;
                }
            }
        }
        self.spend_tick();
        &self.events
    }

    /// Use what is in front (door, lever, chest), or else what is underfoot (a chest, the
    /// stairs). Opening something spends a tick; finding it locked or empty, taking the stairs,
    /// or finding nothing to use (`Nothing`) does not.
    pub fn use_ahead(&mut self) -> &[Event] {
        self.events.clear();
        if self.halted() {
            return &self.events;
        }
        let (ax, ay) = self.state.facing.ahead();
        let (fx, fy) = (self.state.x + ax, self.state.y + ay);
        if self.floor().monster_at(fx, fy).is_none() && self.open_thing(fx, fy) {
            self.spend_tick_if_changed();
            return &self.events;
        }
        let (x, y) = (self.state.x, self.state.y);
        if self.take_item() {
            self.spend_tick();
            return &self.events;
        }
        let link = self.tables.levels[self.state.level].link_at(x, y).cloned();
        match self.floor().cell(x, y) {
            Cell::Down | Cell::Up if link.is_some() => {
                if let Some(link) = link {
                    self.follow(&link.target(), "link");
                }
            }
            Cell::Down => self.go_down(),
            Cell::Up => self.go_up(),
            _ => {
                if self.open_thing(x, y) {
                    self.spend_tick_if_changed();
                } else {
                    self.events.push(Event::Nothing);
                }
            }
        }
        &self.events
    }

    /// A locked door without a key, or an empty chest, changes nothing and costs nothing.
    fn spend_tick_if_changed(&mut self) {
        if !matches!(self.events.as_slice(), [Event::Locked] | [Event::Empty]) {
            self.spend_tick();
        }
    }

    /// Settles the fight in progress. Won: a fixed fight is gone for good (and a goal fight
    /// ends the game). Run from: the party goes back to the cell it stepped from.
    pub fn resolve(&mut self, won: bool) -> &[Event] {
        self.events.clear();
        let Some(fight) = self.state.fight.take() else {
            return &self.events;
        };
        self.events.push(Event::Resolved { won });
        self.state.quiet = 0;
        if fight.wanderer && won {
            self.state.wanderer = None;
        }
        if won {
            if let Some(i) = fight.fixed {
                let floor = &mut self.state.floors[self.state.level];
                floor.encounters[i].won = true;
                if floor.encounters[i].spot.goal {
                    self.state.escaped = true;
                    self.events.push(Event::Escaped);
                }
            }
        } else {
            self.state.x = fight.from[0];
            self.state.y = fight.from[1];
            self.look_around();
        }
        &self.events
    }

    /// Shows the floor within `radius` cells of the party on the automap (0: all of it).
    pub fn reveal(&mut self, radius: u32) -> &[Event] {
        self.events.clear();
        let (x, y) = (self.state.x, self.state.y);
        let floor = &mut self.state.floors[self.state.level];
        let r = radius as i32;
        for cy in 0..floor.height {
            for cx in 0..floor.width {
                if radius == 0 || ((cx - x).abs() <= r && (cy - y).abs() <= r) {
                    floor.see(cx, cy);
                }
            }
        }
        self.events.push(Event::Revealed { radius });
        &self.events
    }

    /// A tick passes and the dungeon takes its turn; then the party may spot a group.
    pub(super) fn spend_tick(&mut self) {
        self.state.tick += 1;
        self.look_around();
        self.dungeon_turn();
        self.spot();
    }

    /// What happens on stepping into the party's cell.
    pub(super) fn enter(&mut self, from: [i32; 2]) {
        let tables = Arc::clone(&self.tables);
        let s = &mut self.state;
        let level = &tables.levels[s.level];
        let floor = &mut s.floors[s.level];
        let (x, y) = (s.x, s.y);
        if let Some(i) = floor.encounter_at(x, y) {
            let spot = &floor.encounters[i].spot;
            let fight = Fight {
                group: spot.group.clone(),
                text: spot.text.clone(),
                art: spot.art.clone(),
                fixed: Some(i),
                from,
                wanderer: false,
                parley: false,
            };
            self.start_fight(fight);
            return;
        }
        if self.meet_wanderer(from) {
            return;
        }
        // A link on a stair is taken by `use`, as the stair would be.
        let stair = matches!(self.floor().cell(x, y), Cell::Up | Cell::Down);
        if let Some(link) = level.link_at(x, y).filter(|_| !stair) {
            let target = link.target();
            self.follow(&target, "link");
            return;
        }
        if self.start_event_here() {
            return;
        }
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        match floor.cell_mut(x, y) {
            // One wandering group at a time: none is drawn while one stands on the floor.
            Some(Cell::Floor)
                if level.encounter_rate > 0.0
                    && !level.groups.is_empty()
                    && s.wanderer.is_none() =>
            {
                s.quiet += 1;
                if s.quiet > level.encounter_grace && s.rng.random_bool(level.encounter_rate) {
                    let group = level.groups[s.rng.random_range(0..level.groups.len())].clone();
                    self.wandering_group(group, from);
                }
            }
            _ => self.underfoot(0),
        }
    }

    /// What the cell the party now stands on does to it, beyond fights: a trap goes off, a pit
    /// drops it, a teleporter moves it, a spinner turns it, a plate is pressed. `hops` counts
    /// the moves already made this step (a teleporter onto a pit, say), so nothing can chain
    /// for ever.
    pub(super) fn underfoot(&mut self, hops: u32) {
        if hops > 4 {
            return;
        }
        let (x, y) = (self.state.x, self.state.y);
        // Put down here by a teleporter, a fall or a journey: a wandering group standing here
        // fights, an event here starts, before the cell itself does anything.
        if hops > 0 && (self.meet_wanderer([x, y]) || self.start_event_here()) {
            return;
        }
        if *self.floor().cell(x, y) == Cell::Teleporter {
            if self.teleport(x, y) {
                self.underfoot(hops + 1);
            }
            return;
        }
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        match floor.cell_mut(x, y) {
            Some(Cell::Trap {
                name,
                sprung,
                damage,
            }) if !*sprung => {
                *sprung = true;
                let (name, damage) = (name.clone(), *damage);
                self.events.push(Event::Trap { name: name.clone() });
                self.trap_hurts(&name, damage);
            }
            Some(Cell::Pit) => {
                self.events.push(Event::Pit);
                self.hurt_all(PIT_DAMAGE);
                if self.state.level + 1 < self.state.floors.len() && !self.state.dead {
                    let facing = self.state.facing;
                    self.arrive_at(self.state.level + 1, x, y, facing);
                    self.underfoot(hops + 1);
                }
            }
            Some(Cell::Spinner) => self.spin(x, y),
            Some(Cell::Plate { pressed }) => {
                *pressed = !*pressed;
                self.events.push(Event::Plate { x, y });
                self.work(x, y);
            }
            _ => {}
        }
    }

    /// Whether the party stands in a dark cell.
    pub(super) fn in_dark(&self) -> bool {
        *self.floor().cell(self.state.x, self.state.y) == Cell::Dark
    }

    /// Starts the wandering group's fight if it stands on the party's cell; `from` is where
    /// fleeing puts the party back.
    pub(super) fn meet_wanderer(&mut self, from: [i32; 2]) -> bool {
        let s = &self.state;
        let Some(w) = s.wanderer.as_ref().filter(|w| w.at == [s.x, s.y]) else {
            return false;
        };
        let fight = Fight {
            group: w.group.clone(),
            text: String::new(),
            art: None,
            fixed: None,
            from,
            wanderer: true,
            parley: false,
        };
        self.start_fight(fight);
        true
    }

    pub(super) fn start_fight(&mut self, fight: Fight) {
        self.events.push(Event::Encounter {
            group: fight.group.clone(),
            text: fight.text.clone(),
            art: fight.art.clone(),
        });
        self.state.quiet = 0;
        self.state.fight = Some(fight);
    }

    /// Opens the door, lever or chest at (x, y); false if there is nothing there to use.
    fn open_thing(&mut self, x: i32, y: i32) -> bool {
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        let Some(cell) = floor.cell_mut(x, y) else {
            return false;
        };
        match cell {
            Cell::Door => {
                *cell = Cell::Open;
                self.events.push(Event::Door);
            }
            Cell::Locked => {
                let level = &self.tables.levels[s.level];
                // A gate opens only by its mechanisms, a named lock only with its key.
                let opens = if level.is_gate(x, y) {
                    false
                } else if let Some(key) = level.door_at(x, y).and_then(|d| d.key.as_ref()) {
                    s.keyring.contains(key)
                } else if s.keys > 0 {
                    s.keys -= 1;
                    true
                } else {
                    false
                };
                if opens {
                    *cell = Cell::Open;
                    self.events.push(Event::Unlocked);
                } else {
                    self.events.push(Event::Locked);
                }
            }
            Cell::Lever { pulled: false } => {
                *cell = Cell::Lever { pulled: true };
                self.events.push(Event::Lever);
                self.work(x, y);
            }
            Cell::Button { pressed } => {
                *pressed = !*pressed;
                self.events.push(Event::Button { x, y });
                self.work(x, y);
            }
            Cell::Secret => {
                *cell = Cell::Door;
                self.events.push(Event::Found { x, y });
            }
            Cell::Chest { opened: true, .. } => self.events.push(Event::Empty),
            Cell::Chest { loot, opened } => {
                *opened = true;
                let loot = loot.clone();
                self.take(loot, "chest");
            }
            _ => return false,
        }
        true
    }

    pub(super) fn take(&mut self, loot: Loot, from: &str) {
        let s = &mut self.state;
        match loot.kind.as_str() {
            "gold" => s.gold = s.gold.saturating_add(loot.amount()),
            "key" => match loot.named_key() {
                Some(name) if !s.keyring.iter().any(|k| k == name) => {
                    s.keyring.push(name.to_string());
                }
                Some(_) => {}
                None => s.keys = s.keys.saturating_add(loot.amount()),
            },
            "heal" => {
                for m in s.party.iter_mut().filter(|m| m.hp > 0) {
                    m.hp = m.hp.saturating_add(loot.amount()).min(m.max_hp);
                }
            }
            _ => {}
        }
        self.events.push(Event::Loot {
            what: loot.kind,
            value: loot.value,
            from: from.to_string(),
        });
    }

    fn go_down(&mut self) {
        if self.state.level + 1 < self.state.floors.len() {
            self.arrive(self.state.level + 1, Cell::Up);
        } else {
            self.state.escaped = true;
            self.events.push(Event::Escaped);
        }
    }

    fn go_up(&mut self) {
        if self.state.level == 0 {
            self.events.push(Event::Exit);
        } else {
            self.arrive(self.state.level - 1, Cell::Down);
        }
    }

    /// Onto floor `level`, out of its first `stair` (its start if it has none), facing the
    /// way on rather than the wall behind the stair.
    fn arrive(&mut self, level: usize, stair: Cell) {
        self.left_floor();
        let info = &self.tables.levels[level];
        let floor = &self.state.floors[level];
        let (x, y) = floor.find(&stair).unwrap_or(info.start);
        let facing = way_on(floor, x, y, info.facing);
        let s = &mut self.state;
        s.level = level;
        s.x = x;
        s.y = y;
        s.facing = facing;
        s.quiet = 0;
        self.events.push(Event::Level {
            level,
            name: info.name.clone(),
        });
        self.clear_landing();
        self.look_around();
    }

    /// Onto (x, y) of floor `level`, facing `facing`: where a pit or a teleporter puts the party.
    pub(super) fn arrive_at(&mut self, level: usize, x: i32, y: i32, facing: Facing) {
        let changed = level != self.state.level;
        if changed {
            self.left_floor();
        }
        let s = &mut self.state;
        s.level = level;
        s.x = x;
        s.y = y;
        s.facing = facing;
        if changed {
            s.quiet = 0;
            self.events.push(Event::Level {
                level,
                name: self.tables.levels[level].name.clone(),
            });
        }
        self.look_around();
    }

    pub(super) fn hurt_all(&mut self, damage: u32) {
        for m in &mut self.state.party {
            m.hp = m.hp.saturating_sub(damage);
        }
        self.check_dead();
    }

    pub(super) fn check_dead(&mut self) {
        let s = &mut self.state;
        if !s.dead && !s.party.is_empty() && s.party.iter().all(|m| m.hp == 0) {
            s.dead = true;
            self.events.push(Event::Dead);
        }
    }

    /// Marks what the party can see on the automap: every cell some pixel of the picture
    /// shows a face of ([`view::sight`]).
    pub(super) fn look_around(&mut self) {
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        for [x, y] in view::sight(floor, s.x, s.y, s.facing, &self.frame) {
            floor.see(x, y);
        }
    }
}

/// The way to face on arriving at (x, y): the level's own facing if it is open ahead, else
/// the first open way clockwise from north.
fn way_on(floor: &Dungeon, x: i32, y: i32, wanted: Option<Facing>) -> Facing {
    let open = |f: Facing| {
        let (dx, dy) = f.ahead();
        floor.cell(x + dx, y + dy).is_walkable()
    };
    wanted
        .filter(|f| open(*f))
        .or_else(|| Facing::ALL.into_iter().find(|f| open(*f)))
        .or(wanted)
        .unwrap_or(Facing::North)
}

pub(super) fn fresh(tables: &Tables, seed: u64) -> State {
    let floors: Vec<Dungeon> = tables
        .levels
        .iter()
        .map(|l| Dungeon::new(l, &tables.monsters))
        .collect();
    let top = &tables.levels[0];
    let (x, y) = top.start;
    State {
        seed,
        rng: Pcg32::seed_from_u64(seed),
        level: 0,
        x,
        y,
        facing: way_on(&floors[0], x, y, top.facing),
        party: tables
            .crawlers
            .iter()
            .map(|c| Member {
                name: c.name.clone(),
                hp: c.hp,
                max_hp: c.hp,
                attack: c.attack,
                reach: c.reach,
            })
            .collect(),
        gold: 0,
        keys: 0,
        keyring: Vec::new(),
        order: (0..tables.crawlers.len()).collect(),
        tick: 0,
        quiet: 0,
        floors,
        fight: None,
        dead: false,
        escaped: false,
        flags: Vec::new(),
        event: None,
        spotted: None,
        approach: Vec::new(),
        wanderer: None,
    }
}
