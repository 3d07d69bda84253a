//! A simple player for the balance run and the route out: it plays Umber Warren's tables
//! through the crawl's core the way a person plays the game, one key at a time.
//!
//! It knows what the player is shown and nothing else: the automap (`Dungeon::automap`, the
//! game's `CrawlMap`), the state (`CrawlState`: where it stands, which way it faces, the party's
//! health, what is ahead, how near the nearest awake monster is), what its own steps taught it
//! (a cell it stood on in the dark, a wall it bumped into, a door that stayed locked, where a
//! teleporter sent it) and the cracks painted on walls it has seen (the level's `crack` decor
//! on a seen cell). It never reads the drawing of a floor it has not seen.
//!
//! How it plays: it fights whatever stands in front of it, and turns to face an awake monster
//! at its side; it rests when the party is low and nothing awake is near, until it is whole
//! again; it searches the walls beside a crack once; otherwise it walks to the nearest thing
//! worth going to (a full chest, an item, a lever or button it has not used, a teleporter it has
//! not tried, the edge of what it knows), opening doors on the way and trying locked ones
//! whenever it holds more keys than when they last refused; with nothing left to find on a
//! floor it takes the stairs down.

use std::collections::{HashMap, HashSet, VecDeque};

use jengine_crawler::{Crawl, Event, Facing};

/// One thing the player does, and the key that does it in `warren.lua`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// A step forward (Up).
    Forward,
    /// A quarter turn left (Left).
    TurnLeft,
    /// A quarter turn right (Right).
    TurnRight,
    /// Use what is ahead or underfoot (Space).
    Use,
    /// Swing at what is ahead (F).
    Attack,
    /// Wait a tick: F with nothing ahead.
    Wait,
    /// Rest (R).
    Rest,
    /// Search the walls around (X).
    Search,
}

impl Act {
    /// The key `warren.lua` answers with this act.
    pub fn key(self) -> &'static str {
        match self {
            Act::Forward => "up",
            Act::TurnLeft => "left",
            Act::TurnRight => "right",
            Act::Use => "space",
            Act::Attack | Act::Wait => "f",
            Act::Rest => "r",
            Act::Search => "x",
        }
    }

    /// Does it on the crawl, as the key does in the game.
    pub fn apply(self, crawl: &mut Crawl) {
        match self {
            Act::Forward => crawl.walk(0, 1),
            Act::TurnLeft => crawl.turn(-1),
            Act::TurnRight => crawl.turn(1),
            Act::Use => crawl.use_ahead(),
            Act::Attack => crawl.attack(),
            Act::Wait => crawl.wait(),
            Act::Rest => crawl.rest(),
            Act::Search => crawl.wait(), // SHIM until search lands
        };
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Out by the last stairs.
    Escaped,
    /// The whole party fell.
    Died,
    /// Nothing left it knew how to do, or it ran out of acts.
    Stuck,
}

/// A whole run: how it ended, the acts (keys) it took, and the crawl as it was left.
pub struct Run {
    /// How it ended.
    pub end: End,
    /// Every act, in order.
    pub acts: Vec<Act>,
    /// The crawl at the end.
    pub crawl: Crawl,
}

/// What the player remembers of one floor beyond its automap.
#[derive(Default)]
struct Memory {
    /// Cells learnt by stepping: stood on (`.`), bumped into (`#`, `+`).
    cells: HashMap<(i32, i32), char>,
    /// Chests, items, levers and buttons it has used, and walls it has searched beside.
    used: HashSet<(i32, i32)>,
    searched: HashSet<(i32, i32)>,
    /// Locked doors, with the keys held when they last refused.
    refused: HashMap<(i32, i32), u32>,
    /// Unknown cells it tried to step into from a cell (and where it was).
    probed: HashSet<((i32, i32), (i32, i32))>,
    /// Teleporters it has stepped on: where each sent it, and to which floor.
    sent: HashMap<(i32, i32), (usize, (i32, i32))>,
}

/// What to do on reaching a target cell.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Then {
    /// Use what is underfoot (a chest, an item, the stairs).
    Use,
    /// Face this way and use (a lever, a button).
    UseFacing(Facing),
    /// Face this way and step (into the unknown).
    Probe(Facing),
    /// Search the walls.
    Search,
    /// Just stand there (a teleporter does the rest).
    Arrive,
}

/// The simple player.
pub struct Bot {
    floors: HashMap<usize, Memory>,
    /// Crack hints per floor: the wall cells painted with a crack.
    cracks: Vec<Vec<(i32, i32)>>,
    resting: bool,
    waited: u32,
    last: Option<(Act, usize, (i32, i32), (i32, i32))>,
}

/// Whether the party is low enough that the player would stop and rest: the living together
/// under half their health, or a living member of the front rank under a third.
fn low(s: &jengine_crawler::CrawlState) -> bool {
    let living: Vec<_> = s.party.iter().filter(|m| m.hp > 0).collect();
    let hp: u32 = living.iter().map(|m| m.hp).sum();
    let max: u32 = living.iter().map(|m| m.max_hp).sum();
    let front = s
        .party
        .iter()
        .take(2)
        .any(|m| m.hp > 0 && m.hp * 3 < m.max_hp);
    hp * 2 < max || front
}

/// Whole again: every living member at nine tenths or more.
fn whole(s: &jengine_crawler::CrawlState) -> bool {
    s.party
        .iter()
        .filter(|m| m.hp > 0)
        .all(|m| m.hp * 10 >= m.max_hp * 9)
}

fn facing_of(d: (i32, i32)) -> Facing {
    *Facing::ALL
        .iter()
        .find(|f| f.ahead() == d)
        .unwrap_or(&Facing::North)
}

/// The quarter turn that brings `from` round toward `to`.
fn turn_toward(from: Facing, to: Facing) -> Act {
    let index = |f: Facing| Facing::ALL.iter().position(|g| *g == f).unwrap_or(0);
    if (index(to) + 4 - index(from)) % 4 == 3 {
        Act::TurnLeft
    } else {
        Act::TurnRight
    }
}

impl Bot {
    /// A player who has seen nothing yet; `crawl` gives the cracks painted on each floor.
    pub fn new(crawl: &Crawl) -> Bot {
        let cracks = crawl
            .tables()
            .levels()
            .iter()
            .map(|_level| Vec::new()) // SHIM until decor lands
            .collect();
        Bot {
            floors: HashMap::new(),
            cracks,
            resting: false,
            waited: 0,
            last: None,
        }
    }

    /// What the player knows of cell (x, y) on the floor in play: the automap, else memory.
    fn known(&self, map: &[Vec<char>], level: usize, at: (i32, i32)) -> char {
        let (x, y) = at;
        if y < 0 || x < 0 {
            return '#';
        }
        let seen = map.get(y as usize).and_then(|r| r.get(x as usize)).copied();
        match seen {
            None => '#',
            Some(' ') => self
                .floors
                .get(&level)
                .and_then(|m| m.cells.get(&at))
                .copied()
                .unwrap_or(' '),
            Some(c) => c,
        }
    }

    /// Learns from what the last act did.
    fn learn(&mut self, crawl: &Crawl) {
        let s = crawl.state();
        let here = (s.x, s.y);
        let events = crawl.events().to_vec();
        if let Some((act, level, from, ahead)) = self.last.take() {
            let memory = self.floors.entry(level).or_default();
            for e in &events {
                match e {
                    Event::Bumped { what } if act == Act::Forward && what != "monster" => {
                        let c = if what == "door" { '+' } else { '#' };
                        memory.cells.insert(ahead, c);
                    }
                    Event::Locked => {
                        memory.refused.insert(ahead, s.keys);
                    }
                    _ => {}
                }
            }
            // A step that landed elsewhere than ahead went through a teleporter or a pit.
            if act == Act::Forward && s.level == level && here != ahead && here != from {
                memory.sent.entry(ahead).or_insert((s.level, here));
            }
            if act == Act::Forward && s.level != level {
                memory.sent.entry(ahead).or_insert((s.level, here));
            }
        }
        self.floors
            .entry(s.level)
            .or_default()
            .cells
            .insert(here, '.');
    }

    /// The next act, or `None` when the run is over or the player has nothing left to do.
    pub fn next(&mut self, crawl: &Crawl) -> Option<Act> {
        self.learn(crawl);
        let s = crawl.state();
        if s.dead || s.escaped {
            return None;
        }
        let act = self.choose(crawl, &s)?;
        let (dx, dy) = s.facing.ahead();
        self.last = Some((act, s.level, (s.x, s.y), (s.x + dx, s.y + dy)));
        Some(act)
    }

    fn choose(&mut self, crawl: &Crawl, s: &jengine_crawler::CrawlState) -> Option<Act> {
        // Fight what stands in front; turn to what bites from the side.
        if s.ahead == 'M' {
            self.waited = 0;
            return Some(Act::Attack);
        }
        if s.nearest_awake == Some(1) {
            return Some(Act::TurnRight);
        }
        // Rest when low, while nothing awake is near.
        if low(s) {
            self.resting = true;
        }
        if self.resting {
            if whole(s) {
                self.resting = false;
            } else if s.nearest_awake.is_none_or(|d| d > 4) {
                return Some(Act::Rest);
            }
        }
        // Something awake close by: let it come, for a few ticks.
        if s.nearest_awake.is_some_and(|d| d <= 3) && self.waited < 4 {
            self.waited += 1;
            return Some(Act::Wait);
        }
        if s.nearest_awake.is_none() {
            self.waited = 0;
        }
        let map: Vec<Vec<char>> = crawl
            .floor()
            .automap()
            .iter()
            .map(|r| r.chars().collect())
            .collect();
        let (goal, then, first) = self.plan(&map, s)?;
        let here = (s.x, s.y);
        let memory = self.floors.entry(s.level).or_default();
        if goal == here {
            return Some(match then {
                Then::Use => {
                    memory.used.insert(here);
                    Act::Use
                }
                Then::Search => {
                    memory.searched.insert(here);
                    Act::Search
                }
                Then::UseFacing(f) | Then::Probe(f) if f != s.facing => turn_toward(s.facing, f),
                Then::UseFacing(f) => {
                    let (dx, dy) = f.ahead();
                    memory.used.insert((here.0 + dx, here.1 + dy));
                    Act::Use
                }
                Then::Probe(f) => {
                    let (dx, dy) = f.ahead();
                    memory.probed.insert((here, (here.0 + dx, here.1 + dy)));
                    Act::Forward
                }
                // Standing on it already (it sent the party nowhere): nothing more to learn.
                Then::Arrive => {
                    memory.sent.insert(here, (s.level, here));
                    Act::Wait
                }
            });
        }
        let want = facing_of((first.0 - here.0, first.1 - here.1));
        if want != s.facing {
            return Some(turn_toward(s.facing, want));
        }
        let ahead = self.known(&map, s.level, first);
        Some(if matches!(ahead, '+' | '=') {
            Act::Use
        } else {
            Act::Forward
        })
    }

    /// The nearest thing worth going to on this floor, what to do there, and the first step
    /// toward it; the stairs down (or a teleporter that leaves the floor) when nothing else is
    /// left.
    fn plan(
        &self,
        map: &[Vec<char>],
        s: &jengine_crawler::CrawlState,
    ) -> Option<((i32, i32), Then, (i32, i32))> {
        let level = s.level;
        let empty = Memory::default();
        let memory = self.floors.get(&level).unwrap_or(&empty);
        let held = s.keys;
        let here = (s.x, s.y);
        let cracks = self.cracks.get(level).map(Vec::as_slice).unwrap_or(&[]);
        let mut first: HashMap<(i32, i32), (i32, i32)> = HashMap::new();
        let mut queue = VecDeque::from([here]);
        first.insert(here, here);
        let mut stairs = None;
        while let Some(at) = queue.pop_front() {
            let c = self.known(map, level, at);
            // What this cell offers.
            if at != here || true {
                if matches!(c, 'C' | '$') && !memory.used.contains(&at) {
                    return Some((at, Then::Use, first[&at]));
                }
                if c == 'T' && !memory.sent.contains_key(&at) {
                    return Some((at, Then::Arrive, first[&at]));
                }
                for f in Facing::ALL {
                    let (dx, dy) = f.ahead();
                    let n = (at.0 + dx, at.1 + dy);
                    let nc = self.known(map, level, n);
                    if matches!(nc, 'L' | 'B') && !memory.used.contains(&n) {
                        return Some((at, Then::UseFacing(f), first[&at]));
                    }
                    if nc == ' ' && !memory.probed.contains(&(at, n)) {
                        return Some((at, Then::Probe(f), first[&at]));
                    }
                }
                let beside_crack = Facing::ALL.iter().any(|f| {
                    let (dx, dy) = f.ahead();
                    let n = (at.0 + dx, at.1 + dy);
                    cracks.contains(&n) && self.known(map, level, n) == '#'
                });
                if beside_crack && !memory.searched.contains(&at) {
                    return Some((at, Then::Search, first[&at]));
                }
                if stairs.is_none() {
                    if c == '>' {
                        stairs = Some((at, Then::Use, first[&at]));
                    } else if c == 'T' && memory.sent.get(&at).is_some_and(|(l, _)| *l != level) {
                        stairs = Some((at, Then::Arrive, first[&at]));
                    }
                }
            }
            // Where the player can go from here.
            let through_teleporter = c == 'T' && at != here;
            if through_teleporter {
                match memory.sent.get(&at) {
                    Some((l, to)) if *l == level && *to != at => {
                        if !first.contains_key(to) {
                            first.insert(*to, first[&at]);
                            queue.push_back(*to);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            for f in Facing::ALL {
                let (dx, dy) = f.ahead();
                let n = (at.0 + dx, at.1 + dy);
                if first.contains_key(&n) {
                    continue;
                }
                let ok = match self.known(map, level, n) {
                    '.' | 'A' | '/' | '^' | 'C' | 'c' | '$' | '%' | '_' | '<' | '>' | 'E' | '+'
                    | 'T' => true,
                    '=' => memory.refused.get(&n).is_none_or(|k| held > *k),
                    _ => false,
                };
                if ok {
                    let step = if at == here { n } else { first[&at] };
                    first.insert(n, step);
                    queue.push_back(n);
                }
            }
        }
        stairs
    }

    /// Plays `crawl` to its end (or `limit` acts), returning how it went.
    pub fn play(mut crawl: Crawl, limit: usize) -> Run {
        let mut bot = Bot::new(&crawl);
        let mut acts = Vec::new();
        while acts.len() < limit {
            let Some(act) = bot.next(&crawl) else {
                break;
            };
            act.apply(&mut crawl);
            acts.push(act);
        }
        let s = crawl.state();
        let end = if s.escaped {
            End::Escaped
        } else if s.dead {
            End::Died
        } else {
            End::Stuck
        };
        Run { end, acts, crawl }
    }
}
