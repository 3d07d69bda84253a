//! The crawl: a party on a floor, moving one tick at a time, and what happens when it does.
//!
//! The dungeon waits for the party. Each action that spends time ends with the dungeon's
//! turn, in which every monster that has noticed the party moves or bites; an action that
//! changes nothing (walking into rock, pulling a pulled lever) spends no time at all. All
//! chance comes from one seeded stream kept in the state, so a save replays exactly.

use crate::map::{Cell, Dungeon, Facing, Loot, Monster, Tables};
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

/// Something the crawl announces for the game (sound, text, its own rules).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The party arrived on another floor (counting from 0).
    Level {
        /// The floor.
        level: usize,
        /// Its name.
        name: String,
    },
    /// A door was opened.
    Door,
    /// A locked door was opened with a key.
    Unlocked,
    /// A locked door and no key.
    Locked,
    /// A lever was pulled.
    Lever,
    /// A chest was opened: `what:value`. Gold, keys and healing are already applied.
    Loot {
        /// The kind (`gold`, `key`, `heal`, or the game's own).
        what: String,
        /// The value as written.
        value: String,
    },
    /// A chest that was already emptied.
    Empty,
    /// The party fell through a pit.
    Pit,
    /// A party member hit a monster.
    Hit {
        /// Who swung.
        member: String,
        /// The monster's kind.
        monster: String,
        /// For how much.
        damage: u32,
    },
    /// A monster died.
    Slain {
        /// Its kind.
        monster: String,
    },
    /// A monster bit a party member.
    Bitten {
        /// Its kind.
        monster: String,
        /// Who.
        member: String,
        /// For how much.
        damage: u32,
    },
    /// The party waited a tick.
    Wait,
    /// The party rested.
    Rested,
    /// The whole party is down: the game is lost.
    Dead,
    /// The party took the last stairs down, or won the last floor's goal fight.
    Escaped,
    /// The party took the top floor's stairs up: the game decides what is outside.
    Exit,
    /// A fight began; nothing moves until the game settles it.
    Encounter {
        /// The group, by the game's name.
        group: String,
        /// The level's text for it (empty for a random one).
        text: String,
        /// Its art, if it had any.
        art: Option<String>,
    },
    /// The game settled the fight.
    Resolved {
        /// Whether the party won.
        won: bool,
    },
    /// A trap went off.
    Trap {
        /// Its name from the level's list.
        name: String,
    },
    /// The floor around the party was shown on the automap.
    Revealed {
        /// How far (0: all of it).
        radius: u32,
    },
}

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
    /// The cell the party stepped from, where running puts it back.
    pub from: [i32; 2],
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
    /// What is directly in front: the legend symbol, or `M` for a monster.
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
}

/// Everything that changes as the game is played; the tables never do.
#[derive(Debug, Clone, PartialEq)]
struct State {
    seed: u64,
    rng: Pcg32,
    level: usize,
    x: i32,
    y: i32,
    facing: Facing,
    party: Vec<Member>,
    gold: u32,
    keys: u32,
    tick: u64,
    quiet: u32,
    floors: Vec<Dungeon>,
    fight: Option<Fight>,
    dead: bool,
    escaped: bool,
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Crawl {
    tables: Arc<Tables>,
    frame: Frame,
    state: State,
    events: Vec<Event>,
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
        };
        crawl.look_around();
        crawl
    }

    /// Back to the top of the dungeon, with a new seed if given.
    pub fn new_game(&mut self, seed: Option<u64>) {
        let seed = seed.unwrap_or(self.state.seed);
        self.state = fresh(&self.tables, seed);
        self.events.clear();
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
            floor.cell(fx, fy).symbol()
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
        }
    }

    /// Whether the crawl refuses actions: while a fight waits, and once the game is over.
    fn halted(&self) -> bool {
        self.state.fight.is_some() || self.state.dead || self.state.escaped
    }

    /// A step: `dy` forward (1) or back (-1), `dx` to the right (1) or left (-1).
    /// Walking into something solid or a monster spends no time.
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
        if !target.is_walkable() || floor.monster_at(tx, ty).is_some() {
            if *target == Cell::Locked {
                self.events.push(Event::Locked);
            }
            return &self.events;
        }
        let from = [s.x, s.y];
        self.state.x = tx;
        self.state.y = ty;
        self.state.tick += 1;
        self.look_around();
        self.enter(from);
        if !self.halted() {
            self.dungeon_turn();
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
            for m in self.state.party.iter_mut().filter(|m| m.hp > 0) {
                m.hp = (m.hp + REST_HEAL).min(m.max_hp);
            }
            self.spend_tick();
            if self.state.dead {
                break;
            }
        }
        &self.events
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
    /// stairs). Opening something spends a tick; finding it locked or empty, or taking the
    /// stairs, does not.
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
        match self.floor().cell(x, y) {
            Cell::Down => self.go_down(),
            Cell::Up => self.go_up(),
            _ => {
                if self.open_thing(x, y) {
                    self.spend_tick_if_changed();
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

    /// A tick passes and the dungeon takes its turn.
    fn spend_tick(&mut self) {
        self.state.tick += 1;
        self.look_around();
        self.dungeon_turn();
    }

    /// What happens on stepping into the party's cell.
    fn enter(&mut self, from: [i32; 2]) {
        let s = &mut self.state;
        let level = &self.tables.levels[s.level];
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
            };
            self.start_fight(fight);
            return;
        }
        match floor.cell_mut(x, y) {
            Some(Cell::Trap { name, sprung }) if !*sprung => {
                *sprung = true;
                self.events.push(Event::Trap { name: name.clone() });
            }
            Some(Cell::Pit) => {
                self.events.push(Event::Pit);
                self.hurt_all(PIT_DAMAGE);
                if self.state.level + 1 < self.state.floors.len() && !self.state.dead {
                    self.arrive(self.state.level + 1, Cell::Up);
                }
            }
            Some(Cell::Floor) if level.encounter_rate > 0.0 && !level.groups.is_empty() => {
                s.quiet += 1;
                if s.quiet > level.encounter_grace && s.rng.random_bool(level.encounter_rate) {
                    let group = level.groups[s.rng.random_range(0..level.groups.len())].clone();
                    let fight = Fight {
                        group,
                        text: String::new(),
                        art: None,
                        fixed: None,
                        from,
                    };
                    self.start_fight(fight);
                }
            }
            _ => {}
        }
    }

    fn start_fight(&mut self, fight: Fight) {
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
            Cell::Locked if s.keys > 0 => {
                s.keys -= 1;
                *cell = Cell::Open;
                self.events.push(Event::Unlocked);
            }
            Cell::Locked => self.events.push(Event::Locked),
            Cell::Lever { pulled: false } => {
                *cell = Cell::Lever { pulled: true };
                for c in floor.cells.iter_mut().filter(|c| **c == Cell::Locked) {
                    *c = Cell::Open;
                }
                self.events.push(Event::Lever);
            }
            Cell::Chest { opened: true, .. } => self.events.push(Event::Empty),
            Cell::Chest { loot, opened } => {
                *opened = true;
                let loot = loot.clone();
                self.take(loot);
            }
            _ => return false,
        }
        true
    }

    fn take(&mut self, loot: Loot) {
        let s = &mut self.state;
        match loot.kind.as_str() {
            "gold" => s.gold = s.gold.saturating_add(loot.amount()),
            "key" => s.keys = s.keys.saturating_add(loot.amount()),
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
        self.look_around();
    }

    fn hurt_all(&mut self, damage: u32) {
        for m in &mut self.state.party {
            m.hp = m.hp.saturating_sub(damage);
        }
        self.check_dead();
    }

    fn check_dead(&mut self) {
        let s = &mut self.state;
        if !s.dead && !s.party.is_empty() && s.party.iter().all(|m| m.hp == 0) {
            s.dead = true;
            self.events.push(Event::Dead);
        }
    }

    /// Marks what the party can see on the automap: every open cell in the picture and the
    /// solid cells around it, whose faces the picture draws.
    fn look_around(&mut self) {
        let s = &mut self.state;
        let floor = &mut s.floors[s.level];
        for seen in view::in_view(floor, s.x, s.y, s.facing, &self.frame) {
            floor.see(seen.x, seen.y);
            for f in Facing::ALL {
                let (dx, dy) = f.ahead();
                if floor.cell(seen.x + dx, seen.y + dy).is_solid() {
                    floor.see(seen.x + dx, seen.y + dy);
                }
            }
        }
        floor.see(s.x, s.y);
    }

    /// The dungeon's turn: each monster wakes if it sees the party, and an awake one bites
    /// if it is next to the party and otherwise comes one cell closer.
    fn dungeon_turn(&mut self) {
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
fn reaches(slot: usize, reach: u32) -> bool {
    slot < 2 || reach as usize > slot
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

fn fresh(tables: &Tables, seed: u64) -> State {
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
        tick: 0,
        quiet: 0,
        floors,
        fight: None,
        dead: false,
        escaped: false,
    }
}

/// A saved game: everything that changes, and which dungeon it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Save {
    /// The fingerprint of the dungeon it was saved from.
    pub dungeon: String,
    /// The seed the game started with.
    pub seed: u64,
    /// The random stream, mid-flow.
    pub rng: Pcg32,
    /// The floor, from 0.
    pub level: usize,
    /// The party's cell.
    pub x: i32,
    /// The party's row.
    pub y: i32,
    /// The way it faces.
    pub facing: Facing,
    /// Health per slot.
    pub hp: Vec<u32>,
    /// Gold.
    pub gold: u32,
    /// Keys.
    pub keys: u32,
    /// Ticks spent.
    pub tick: u64,
    /// Quiet steps since the last fight.
    pub quiet: u32,
    /// What has changed on each floor.
    pub floors: Vec<FloorSave>,
    /// The automap, a string per floor (see [`Dungeon::seen_string`]).
    pub seen: Vec<String>,
    /// The fight in progress.
    pub encounter: Option<Fight>,
    /// The party is dead.
    pub dead: bool,
    /// The party got out at the bottom.
    pub escaped: bool,
}

/// What has changed on one floor, by cell as `[x, y]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FloorSave {
    /// Doors (shut or locked) now open.
    pub opened: Vec<[i32; 2]>,
    /// Levers pulled.
    pub levers: Vec<[i32; 2]>,
    /// Chests emptied.
    pub emptied: Vec<[i32; 2]>,
    /// Traps gone off.
    pub sprung: Vec<[i32; 2]>,
    /// Fixed fights won, by their place in the level's list.
    pub won: Vec<usize>,
    /// The monsters still alive.
    pub monsters: Vec<MonsterSave>,
}

/// A monster in a save.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterSave {
    /// Its kind, by name.
    pub kind: String,
    /// Cell.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Health left.
    pub hp: u32,
    /// Whether it hunts the party.
    pub awake: bool,
}

/// Why a save would not load. The game in progress is left as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SaveError {
    /// Not JSON of the right shape.
    #[error("the save is not valid: {0}")]
    Json(String),
    /// Saved from a different set of levels.
    #[error("the save is from another dungeon ({saved}; this one is {ours})")]
    OtherDungeon {
        /// The save's fingerprint.
        saved: String,
        /// This dungeon's.
        ours: String,
    },
    /// Floors or party of the wrong number or shape.
    #[error("the save does not fit this dungeon: {0}")]
    Shape(String),
    /// The party stands off the map or in something solid.
    #[error(
        "the save puts the party at level {level}, cell {x}, row {y}, which is off the map or solid"
    )]
    PartyOffMap {
        /// The floor.
        level: usize,
        /// Cell.
        x: i32,
        /// Row.
        y: i32,
    },
    /// Something on a floor does not match the level.
    #[error("the save's level {level}, cell {x}, row {y}: {problem}")]
    Floor {
        /// The floor.
        level: usize,
        /// Cell.
        x: i32,
        /// Row.
        y: i32,
        /// What is wrong.
        problem: String,
    },
}

impl Crawl {
    /// Everything needed to carry on exactly where the party is.
    pub fn save(&self) -> Save {
        let s = &self.state;
        let floors = self
            .tables
            .levels
            .iter()
            .zip(&s.floors)
            .map(|(level, floor)| {
                let mut out = FloorSave::default();
                for (i, (was, now)) in level.cells.iter().zip(&floor.cells).enumerate() {
                    let at = [i as i32 % floor.width, i as i32 / floor.width];
                    match now {
                        Cell::Open if was != now => out.opened.push(at),
                        Cell::Lever { pulled: true } => out.levers.push(at),
                        Cell::Chest { opened: true, .. } => out.emptied.push(at),
                        Cell::Trap { sprung: true, .. } => out.sprung.push(at),
                        _ => {}
                    }
                }
                out.won = (0..floor.encounters.len())
                    .filter(|&i| floor.encounters[i].won)
                    .collect();
                out.monsters = floor
                    .monsters
                    .iter()
                    .map(|m| MonsterSave {
                        kind: self.tables.monsters[m.kind].name.clone(),
                        x: m.x,
                        y: m.y,
                        hp: m.hp,
                        awake: m.awake,
                    })
                    .collect();
                out
            })
            .collect();
        Save {
            dungeon: self.tables.fingerprint(),
            seed: s.seed,
            rng: s.rng.clone(),
            level: s.level,
            x: s.x,
            y: s.y,
            facing: s.facing,
            hp: s.party.iter().map(|m| m.hp).collect(),
            gold: s.gold,
            keys: s.keys,
            tick: s.tick,
            quiet: s.quiet,
            floors,
            seen: s.floors.iter().map(Dungeon::seen_string).collect(),
            encounter: s.fight.clone(),
            dead: s.dead,
            escaped: s.escaped,
        }
    }

    /// The save as JSON.
    pub fn save_json(&self) -> String {
        serde_json::to_string(&self.save()).unwrap_or_default()
    }

    /// Restores a save written by [`Crawl::save_json`]. Everything is checked before anything
    /// changes: on an error the game in progress is untouched.
    pub fn load(&mut self, json: &str) -> Result<(), SaveError> {
        let save: Save = serde_json::from_str(json).map_err(|e| SaveError::Json(e.to_string()))?;
        self.restore(&save)
    }

    /// Restores a save (see [`Crawl::load`]).
    pub fn restore(&mut self, save: &Save) -> Result<(), SaveError> {
        let state = self.rebuild(save)?;
        self.state = state;
        self.events.clear();
        Ok(())
    }

    fn rebuild(&self, save: &Save) -> Result<State, SaveError> {
        let tables = &self.tables;
        let ours = tables.fingerprint();
        if save.dungeon != ours {
            return Err(SaveError::OtherDungeon {
                saved: save.dungeon.clone(),
                ours,
            });
        }
        let shape = |m: String| Err(SaveError::Shape(m));
        let n = tables.levels.len();
        if save.floors.len() != n || save.seen.len() != n {
            return shape(format!(
                "{} floors and {} automaps saved, the dungeon has {n} floors",
                save.floors.len(),
                save.seen.len()
            ));
        }
        if save.level >= n {
            return shape(format!("level {} of {n}", save.level));
        }
        if save.hp.len() != tables.crawlers.len() {
            return shape(format!(
                "{} party members saved, the party has {}",
                save.hp.len(),
                tables.crawlers.len()
            ));
        }
        let mut party = fresh(tables, save.seed).party;
        for (member, &hp) in party.iter_mut().zip(&save.hp) {
            if hp > member.max_hp {
                return shape(format!("{} has {hp} hp of {}", member.name, member.max_hp));
            }
            member.hp = hp;
        }

        let mut floors = Vec::with_capacity(n);
        for (i, (level, saved)) in tables.levels.iter().zip(&save.floors).enumerate() {
            let mut floor = Dungeon::new(level, &tables.monsters);
            let bad = |[x, y]: [i32; 2], problem: &str| SaveError::Floor {
                level: i,
                x,
                y,
                problem: problem.to_string(),
            };
            for &at in &saved.opened {
                match floor.cell_mut(at[0], at[1]) {
                    Some(c @ (Cell::Door | Cell::Locked)) => *c = Cell::Open,
                    _ => return Err(bad(at, "saved as an opened door, but no door is there")),
                }
            }
            for &at in &saved.levers {
                match floor.cell_mut(at[0], at[1]) {
                    Some(Cell::Lever { pulled }) => *pulled = true,
                    _ => return Err(bad(at, "saved as a pulled lever, but no lever is there")),
                }
            }
            for &at in &saved.emptied {
                match floor.cell_mut(at[0], at[1]) {
                    Some(Cell::Chest { opened, .. }) => *opened = true,
                    _ => return Err(bad(at, "saved as an emptied chest, but no chest is there")),
                }
            }
            for &at in &saved.sprung {
                match floor.cell_mut(at[0], at[1]) {
                    Some(Cell::Trap { sprung, .. }) => *sprung = true,
                    _ => return Err(bad(at, "saved as a sprung trap, but no trap is there")),
                }
            }
            for &w in &saved.won {
                match floor.encounters.get_mut(w) {
                    Some(e) => e.won = true,
                    None => return Err(bad([-1, -1], &format!("fight {w} won, no such fight"))),
                }
            }
            floor.monsters.clear();
            for m in &saved.monsters {
                let at = [m.x, m.y];
                let Some(kind) = tables.monsters.iter().position(|k| k.name == m.kind) else {
                    return Err(bad(at, &format!("no monster called {}", m.kind)));
                };
                let k = &tables.monsters[kind];
                if !floor.cell(m.x, m.y).is_walkable() || m.hp == 0 || m.hp > k.hp {
                    return Err(bad(
                        at,
                        &format!("a {} cannot be there with {} hp", m.kind, m.hp),
                    ));
                }
                floor.monsters.push(Monster {
                    kind,
                    x: m.x,
                    y: m.y,
                    hp: m.hp,
                    awake: m.awake,
                    art: k.art.clone().unwrap_or_else(|| k.name.clone()),
                });
            }
            floor.seen = floor.parse_seen(&save.seen[i]).ok_or_else(|| {
                SaveError::Shape(format!("the automap of level {i} is not the floor's shape"))
            })?;
            floors.push(floor);
        }

        let here = &floors[save.level];
        if !here.cell(save.x, save.y).is_walkable() {
            return Err(SaveError::PartyOffMap {
                level: save.level,
                x: save.x,
                y: save.y,
            });
        }
        if let Some(fight) = &save.encounter {
            let [fx, fy] = fight.from;
            if !here.cell(fx, fy).is_walkable() {
                return Err(SaveError::Floor {
                    level: save.level,
                    x: fx,
                    y: fy,
                    problem: "the fight's way back is off the map or solid".into(),
                });
            }
            if fight.fixed.is_some_and(|i| i >= here.encounters.len()) {
                return shape(format!(
                    "the fight in progress is not one of level {}'s",
                    save.level
                ));
            }
        }
        Ok(State {
            seed: save.seed,
            rng: save.rng.clone(),
            level: save.level,
            x: save.x,
            y: save.y,
            facing: save.facing,
            party,
            gold: save.gold,
            keys: save.keys,
            tick: save.tick,
            quiet: save.quiet,
            floors,
            fight: save.encounter.clone(),
            dead: save.dead,
            escaped: save.escaped,
        })
    }

    /// Whether two games are in exactly the same state (the tables aside).
    pub fn same_as(&self, other: &Crawl) -> bool {
        self.state == other.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const MONSTERS: &str = r#"[
        { "name": "rat", "hp": 50, "attack": 1, "sight": 3 },
        { "name": "bat", "hp": 1, "attack": 1, "sight": 2 }
    ]"#;

    fn crawl_with(levels: Value, crawlers: &str) -> Crawl {
        let tables = Tables::from_json(&levels.to_string(), MONSTERS, crawlers).unwrap();
        Crawl::new(tables, 7)
    }

    fn party(reaches: &[u32]) -> String {
        let rows: Vec<Value> = reaches
            .iter()
            .enumerate()
            .map(|(i, r)| json!({ "name": format!("m{i}"), "hp": 20, "attack": 1, "reach": r }))
            .collect();
        Value::from(rows).to_string()
    }

    /// Three floors with stairs both ways, a door, chests, traps and a fixed fight.
    fn three_floors() -> Value {
        json!([
            {
                "name": "Top",
                "map": ["#########",
                        "#<..+..C#",
                        "#.#####.#",
                        "#.#####^#",
                        "#.#####.#",
                        "#.#####^#",
                        "#......>#",
                        "#########"],
                "chests": ["gold:12"], "traps": ["dart", "net"], "facing": "east"
            },
            {
                "name": "Middle",
                "map": ["#######",
                        "#<...C#",
                        "###.###",
                        "#>...O#",
                        "#######"],
                "chests": ["key:1"],
                "encounters": [{ "at": [3, 2], "group": "kobolds", "text": "Kobolds!", "art": "m_kobold" }]
            },
            {
                "name": "Bottom",
                "map": ["#######",
                        "#<.=.>#",
                        "#######"]
            }
        ])
    }

    fn events(list: &[Event]) -> Vec<Event> {
        list.to_vec()
    }

    #[test]
    fn time_moves_only_when_the_party_does() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        assert_eq!((c.state().x, c.state().facing), (1, Facing::East));
        c.turn(-1); // north: rock ahead
        assert_eq!(c.state().tick, 1);
        c.walk(0, 1);
        assert_eq!(c.state().tick, 1, "walking into rock spends no time");
        c.turn(1);
        c.walk(0, 1);
        c.walk(1, 0); // strafe right: rock
        assert_eq!((c.state().x, c.state().tick), (2, 3));
        c.wait();
        c.attack();
        assert_eq!(c.state().tick, 5, "a wait and a swing are a tick each");
        c.rest();
        assert_eq!(c.state().tick, 9, "a rest is four");
        assert_eq!(c.events(), &[Event::Rested]);
        c.walk(0, -1); // step back
        assert_eq!((c.state().x, c.state().tick), (1, 10));
    }

    #[test]
    fn doors_chests_and_stairs_both_ways_with_the_floor_remembered() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        c.walk(0, 1);
        assert!(c.use_ahead().is_empty(), "nothing to use on open floor");
        c.walk(0, 1);
        assert_eq!(events(c.use_ahead()), vec![Event::Door]);
        for _ in 0..3 {
            c.walk(0, 1);
        }
        assert_eq!(c.state().ahead, 'C');
        c.use_ahead();
        assert_eq!(
            c.events(),
            &[Event::Loot {
                what: "gold".into(),
                value: "12".into()
            }]
        );
        assert_eq!(c.state().gold, 12);
        c.use_ahead();
        assert_eq!(c.events(), &[Event::Empty]);
        c.walk(0, 1); // onto the chest's cell
        c.turn(1); // south
        for _ in 0..5 {
            c.walk(0, 1);
        }
        assert!(c.state().on_stairs);
        let down = events(c.use_ahead());
        assert_eq!(
            down,
            vec![Event::Level {
                level: 1,
                name: "Middle".into()
            }]
        );
        let s = c.state();
        assert_eq!(
            (s.level, s.x, s.y),
            (1, 1, 1),
            "out of the next floor's stairs up"
        );
        assert_eq!(s.facing, Facing::East, "facing the way on");
        assert!(s.on_stairs_up);

        c.use_ahead();
        let s = c.state();
        assert_eq!(
            (s.level, s.x, s.y),
            (0, 7, 6),
            "back out of the floor's stairs down"
        );
        assert_eq!(s.facing, Facing::North, "the way on, not the wall behind");
        let top = c.floor();
        assert_eq!(*top.cell(4, 1), Cell::Open, "the door is still open");
        assert!(matches!(top.cell(7, 1), Cell::Chest { opened: true, .. }));
        assert!(top.is_seen(5, 1), "the automap remembers");
        assert_eq!(top.automap()[1], "#<..A..C#");
    }

    #[test]
    fn the_top_floors_stairs_up_lead_out() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        assert_eq!(events(c.use_ahead()), vec![Event::Exit]);
        assert_eq!((c.state().level, c.state().x, c.state().y), (0, 1, 1));
        assert_eq!(c.state().tick, 0);
    }

    #[test]
    fn a_trap_goes_off_once_named_in_order() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        c.state.x = 7;
        c.state.y = 2;
        c.state.facing = Facing::South;
        assert_eq!(
            events(c.walk(0, 1)),
            vec![Event::Trap {
                name: "dart".into()
            }]
        );
        c.walk(0, 1);
        assert!(c.walk(0, 1).contains(&Event::Trap { name: "net".into() }));
        c.walk(0, -1);
        assert!(c.walk(0, 1).is_empty(), "gone off already");
        c.walk(0, -1);
        c.walk(0, -1);
        assert!(c.events().is_empty(), "the first one too");
        assert_eq!(
            c.floor().automap()[3].chars().nth(7),
            Some('^'),
            "sprung, on the automap"
        );
    }

    #[test]
    fn a_fixed_fight_won_is_gone_and_fled_puts_the_party_back() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        c.state.level = 1;
        c.state.x = 3;
        c.state.y = 1;
        c.state.facing = Facing::South;
        let started = events(c.walk(0, 1));
        assert_eq!(
            started,
            vec![Event::Encounter {
                group: "kobolds".into(),
                text: "Kobolds!".into(),
                art: Some("m_kobold".into())
            }]
        );
        let tick = c.state().tick;
        assert!(c.walk(0, 1).is_empty() && c.wait().is_empty() && c.turn(1).is_empty());
        assert_eq!(
            c.state().tick,
            tick,
            "nothing moves until the game settles it"
        );
        assert_eq!(
            events(c.resolve(false)),
            vec![Event::Resolved { won: false }]
        );
        assert_eq!(
            (c.state().x, c.state().y),
            (3, 1),
            "back where it stepped from"
        );
        assert!(c.state().encounter.is_none());

        assert!(
            matches!(c.walk(0, 1)[0], Event::Encounter { .. }),
            "still waiting"
        );
        c.resolve(true);
        assert_eq!((c.state().x, c.state().y), (3, 2));
        c.walk(0, -1);
        assert!(c.walk(0, 1).is_empty(), "won for good");
        assert!(c.floor().encounters[0].won);
    }

    #[test]
    fn random_fights_come_after_the_grace_from_the_groups() {
        let level = json!([{
            "name": "Warren", "map": ["########", "#<....>#", "########"],
            "encounter_rate": 1.0, "groups": ["rats"], "encounter_grace": 2, "facing": "east"
        }]);
        let mut c = crawl_with(level, "[]");
        assert!(c.walk(0, 1).is_empty());
        assert!(c.walk(0, 1).is_empty());
        let third = events(c.walk(0, 1));
        assert_eq!(
            third,
            vec![Event::Encounter {
                group: "rats".into(),
                text: String::new(),
                art: None
            }]
        );
        let fight = c.state().encounter.unwrap();
        assert_eq!((fight.fixed, fight.from), (None, [3, 1]));
        c.resolve(false);
        assert_eq!(c.state().x, 3);
    }

    #[test]
    fn a_goal_fight_won_ends_the_game() {
        let levels = json!([{
            "name": "Lair", "map": ["#####", "#<..#", "#####"], "facing": "east",
            "encounters": [{ "at": [3, 1], "group": "chief", "goal": true }]
        }]);
        let mut c = crawl_with(levels, "[]");
        c.walk(0, 1);
        assert!(
            c.walk(0, 1)
                .iter()
                .any(|e| matches!(e, Event::Encounter { .. }))
        );
        assert_eq!(
            events(c.resolve(true)),
            vec![Event::Resolved { won: true }, Event::Escaped]
        );
        assert!(c.state().escaped);
        assert!(c.walk(0, -1).is_empty(), "the game is over");
    }

    fn corridor_with(monster: &str) -> Value {
        json!([{
            "name": "Hall",
            "map": ["###########",
                    "#<.......>#",
                    "#.#########",
                    "#.........#",
                    "###########"],
            "monsters": [monster], "facing": "east"
        }])
    }

    #[test]
    fn a_monster_wakes_on_sight_and_never_forgets() {
        let mut levels = corridor_with("rat");
        levels[0]["map"][1] = json!("#<.....M.>#");
        let mut c = crawl_with(levels, &party(&[1]));
        c.walk(0, 1);
        assert!(
            !c.floor().monsters[0].awake,
            "five cells off, its sight is three"
        );
        c.walk(0, 1);
        c.walk(0, 1);
        assert!(c.floor().monsters[0].awake);
        // Round the corner, out of its sight and its line of sight: it still comes.
        c.state.x = 1;
        c.state.y = 3;
        let before = (c.floor().monsters[0].x, c.floor().monsters[0].y);
        for _ in 0..4 {
            c.wait();
        }
        let m = &c.floor().monsters[0];
        assert!(m.awake);
        assert_ne!((m.x, m.y), before, "it hunts the party");
        assert!(!c.floor().line_of_sight((m.x, m.y), (1, 3)));
    }

    #[test]
    fn a_monster_out_of_sight_sleeps() {
        let mut levels = corridor_with("rat");
        levels[0]["map"][3] = json!("#........M#");
        let mut c = crawl_with(levels, &party(&[1]));
        for _ in 0..5 {
            c.wait();
        }
        assert!(!c.floor().monsters[0].awake, "a wall between");
        assert_eq!((c.floor().monsters[0].x, c.floor().monsters[0].y), (9, 3));
    }

    #[test]
    fn an_awake_monster_bites_the_front_rank_on_its_tick() {
        let mut levels = corridor_with("rat");
        levels[0]["map"][1] = json!("#<M......>#");
        let mut c = crawl_with(levels, &party(&[1, 1, 1]));
        c.wait(); // it wakes
        let bites = events(c.wait());
        assert_eq!(
            bites,
            vec![
                Event::Wait,
                Event::Bitten {
                    monster: "rat".into(),
                    member: "m0".into(),
                    damage: 1
                }
            ]
        );
        c.state.party[0].hp = 0;
        c.wait();
        assert!(matches!(&c.events()[1], Event::Bitten { member, .. } if member == "m1"));
    }

    #[test]
    fn the_front_two_fight_and_the_back_need_the_reach() {
        let mut levels = corridor_with("rat");
        levels[0]["map"][1] = json!("#<M......>#");
        let mut c = crawl_with(levels, &party(&[1, 1, 3, 3]));
        let swung: Vec<String> = c
            .attack()
            .iter()
            .filter_map(|e| match e {
                Event::Hit { member, .. } => Some(member.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(swung, vec!["m0", "m1", "m2"], "slot four needs reach 4");
        assert_eq!(c.floor().monsters[0].hp, 47);
        assert!(c.floor().monsters[0].awake, "being hit wakes it");
    }

    #[test]
    fn a_monster_slain_is_gone() {
        let mut levels = corridor_with("bat");
        levels[0]["map"][1] = json!("#<M......>#");
        let mut c = crawl_with(levels, &party(&[1]));
        let hit = events(c.attack());
        assert_eq!(
            hit,
            vec![
                Event::Hit {
                    member: "m0".into(),
                    monster: "bat".into(),
                    damage: 1
                },
                Event::Slain {
                    monster: "bat".into()
                }
            ]
        );
        assert!(c.floor().monsters.is_empty());
        c.walk(0, 1);
        assert_eq!(c.state().x, 2);
    }

    #[test]
    fn the_party_falls_once_and_the_game_is_lost() {
        let mut levels = corridor_with("rat");
        levels[0]["map"][1] = json!("#<M......>#");
        let mut c = crawl_with(levels, r#"[{ "name": "Lone", "hp": 1 }]"#);
        c.wait();
        assert_eq!(c.wait().last(), Some(&Event::Dead));
        assert!(c.state().dead);
        assert!(c.wait().is_empty(), "nothing happens to the dead");
    }

    #[test]
    fn with_no_party_nobody_is_hurt() {
        let mut levels = corridor_with("rat");
        levels[0]["map"][1] = json!("#<M......>#");
        let mut c = crawl_with(levels, "[]");
        for _ in 0..10 {
            c.wait();
            assert_eq!(c.events(), &[Event::Wait]);
        }
        assert!(!c.state().dead);
    }

    #[test]
    fn keys_open_locks_and_a_lever_opens_them_all() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        c.state.level = 2;
        c.state.x = 2;
        c.state.y = 1;
        c.state.facing = Facing::East;
        assert_eq!(events(c.use_ahead()), vec![Event::Locked]);
        assert_eq!(c.state().tick, 0, "a locked door costs nothing");
        assert_eq!(events(c.walk(0, 1)), vec![Event::Locked]);
        c.state.keys = 1;
        assert_eq!(events(c.use_ahead()), vec![Event::Unlocked]);
        assert_eq!((c.state().keys, c.floor().cell(3, 1)), (0, &Cell::Open));

        let levels = json!([{ "name": "Vault", "map": ["#######", "#<.=.>#", "##L=###", "##.####", "#######"] }]);
        let mut c = crawl_with(levels, &party(&[1]));
        c.state.x = 2;
        c.state.y = 1;
        c.state.facing = Facing::South;
        assert_eq!(events(c.use_ahead()), vec![Event::Lever]);
        assert_eq!(
            (c.floor().cell(3, 1), c.floor().cell(3, 2)),
            (&Cell::Open, &Cell::Open)
        );
        assert!(c.use_ahead().is_empty(), "it only goes one way");
    }

    #[test]
    fn every_kind_of_loot_is_announced() {
        let levels = json!([{ "name": "Hoard", "map": ["######", "#<CCC#", "#>...#", "######"],
                              "chests": ["heal:3", "key:2", "item:healing potion"], "facing": "east" }]);
        let mut c = crawl_with(levels, &party(&[1]));
        c.state.party[0].hp = 10;
        c.use_ahead();
        assert_eq!(c.state().party[0].hp, 13);
        c.walk(0, 1);
        c.use_ahead();
        assert_eq!(c.state().keys, 2);
        c.walk(0, 1);
        assert_eq!(
            events(c.use_ahead()),
            vec![Event::Loot {
                what: "item".into(),
                value: "healing potion".into()
            }]
        );
        c.walk(0, 1);
        let tick = c.state().tick;
        assert_eq!(events(c.use_ahead()), vec![Event::Empty], "underfoot");
        assert_eq!(c.state().tick, tick, "an empty chest costs no time");
    }

    #[test]
    fn reveal_shows_the_floor_around_the_party_or_all_of_it() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        assert!(!c.floor().is_seen(1, 5));
        assert_eq!(events(c.reveal(2)), vec![Event::Revealed { radius: 2 }]);
        assert!(c.floor().is_seen(3, 3) && !c.floor().is_seen(4, 4) && !c.floor().is_seen(1, 5));
        c.reveal(0);
        assert!(c.floor().seen.iter().all(|s| *s));
        assert_eq!(c.state().tick, 0, "looking costs no time");
        assert_eq!(
            c.floor().automap()[3],
            "#.#####.#",
            "an unsprung trap reads as floor"
        );
    }

    #[test]
    fn a_pit_hurts_and_drops_the_party_a_floor() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        c.state.level = 1;
        c.state.x = 4;
        c.state.y = 3;
        c.state.facing = Facing::East;
        let fell = events(c.walk(0, 1));
        assert_eq!(
            fell,
            vec![
                Event::Pit,
                Event::Level {
                    level: 2,
                    name: "Bottom".into()
                }
            ]
        );
        assert_eq!(c.state().party[0].hp, 18);
        assert_eq!((c.state().x, c.state().y), (1, 1));
    }

    #[test]
    fn a_save_mid_fight_round_trips_everything() {
        let mut c = crawl_with(three_floors(), &party(&[1, 1]));
        c.walk(0, 1);
        c.walk(0, 1);
        c.use_ahead();
        c.state.level = 1;
        c.state.x = 3;
        c.state.y = 1;
        c.state.facing = Facing::South;
        c.reveal(2);
        c.walk(0, 1);
        assert!(c.state().encounter.is_some());
        let json = c.save_json();

        let mut other = crawl_with(three_floors(), &party(&[1, 1]));
        other.load(&json).unwrap();
        assert!(other.same_as(&c));
        assert_eq!(other.save(), c.save());
        assert_eq!(other.floor_at(0).unwrap().seen, c.floor_at(0).unwrap().seen);
        // Both carry on identically, fight and all.
        c.resolve(false);
        other.resolve(false);
        for _ in 0..3 {
            c.rest();
            other.rest();
        }
        assert!(other.same_as(&c));
    }

    #[test]
    fn a_bad_save_says_where_and_leaves_the_game_alone() {
        let mut c = crawl_with(three_floors(), &party(&[1]));
        c.walk(0, 1);
        let before = c.save();

        let e = c.load("{ not json").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the save is not valid: key must be a string at line 1"),
            "{e}"
        );

        let mut foreign = before.clone();
        foreign.dungeon = "0123456789abcdef".into();
        let e = c.restore(&foreign).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "the save is from another dungeon (0123456789abcdef; this one is {})",
                before.dungeon
            )
        );

        let mut lost = before.clone();
        lost.x = 0;
        let e = c.restore(&lost).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the save puts the party at level 0, cell 0, row 1, which is off the map or solid"
        );
        lost.x = 5000;
        lost.y = -3;
        let e = c.restore(&lost).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the save puts the party at level 0, cell 5000, row -3, which is off the map or solid"
        );

        let mut bogus = before.clone();
        bogus.floors[0].opened.push([2, 1]);
        let e = c.restore(&bogus).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the save's level 0, cell 2, row 1: saved as an opened door, but no door is there"
        );

        let mut short = before.clone();
        short.floors.pop();
        assert!(matches!(c.restore(&short), Err(SaveError::Shape(_))));
        assert_eq!(c.save(), before, "untouched");
    }

    #[test]
    fn a_new_game_starts_over_and_the_seed_replays() {
        let levels = json!([{
            "name": "Warren", "map": ["##########", "#<.......#", "#.......>#", "##########"],
            "encounter_rate": 0.5, "groups": ["rats", "bats", "newts"], "facing": "east"
        }]);
        let play = |c: &mut Crawl| {
            let mut log = Vec::new();
            for i in 0..40 {
                if c.state().encounter.is_some() {
                    c.resolve(i % 2 == 0);
                } else if c.state().ahead == '#' {
                    c.turn(1);
                } else {
                    c.walk(0, 1);
                }
                log.extend(c.events().iter().cloned());
            }
            log
        };
        let mut a = crawl_with(levels.clone(), "[]");
        let first = play(&mut a);
        a.new_game(None);
        assert_eq!(play(&mut a), first, "same seed, same game");
        a.new_game(Some(99));
        assert_eq!(a.state().tick, 0);
    }
}
