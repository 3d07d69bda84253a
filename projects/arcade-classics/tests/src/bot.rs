//! A simple player for the balance run and the route out: it plays Umber Warren's tables
//! through the crawl's core the way a person plays the game, one key at a time.
//!
//! It knows what the player is shown and nothing else: the automap (`Dungeon::automap`, the
//! game's `CrawlMap`), the state (`CrawlState`: where it stands, which way it faces, the party's
//! health, what is ahead and underfoot, how near the nearest awake monster is), what its own
//! steps taught it (a cell it stood on in the dark, a wall it bumped into, a door that stayed
//! locked, where a teleporter sent it) and the cracks painted on walls it has seen (the level's
//! `crack` decor on a seen cell). It never reads the drawing of a floor it has not seen.
//!
//! How it plays: it fights whatever stands in front of it, and turns to face an awake monster
//! at its side; it rests when the party is low and nothing awake is near, until it is whole
//! again; it searches a wall with a crack in it once (Use facing it); it picks up what it finds
//! underfoot; otherwise it walks to the nearest thing worth going to (a full chest, an item, a
//! lever or button it has not used, a teleporter it has not tried, the edge of what it knows),
//! opening doors on the way and trying locked ones whenever it holds more keys than when they
//! last refused; with nothing left to find on a floor it takes the stairs down, and with no
//! stairs in reach (a gate shut behind it) it goes back to the buttons and levers it has used.

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
    /// Chests, items, levers, buttons and cracked walls it has used.
    used: HashSet<(i32, i32)>,
    /// How often it has gone back to the buttons and doors with nothing else left.
    retries: u32,
    /// How often it has taken from the items on a cell.
    takes: HashMap<(i32, i32), u32>,
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
    /// Just stand there (a teleporter does the rest).
    Arrive,
}

/// A cell of a floor, `(x, y)`.
type At = (i32, i32);

/// The last act and where it was done: the floor, the cell, the cell ahead.
type Last = (Act, usize, At, At);

/// A plan: the cell to reach, what to do there, and the first step toward it.
type Aim = (At, Then, At);

/// The simple player.
pub struct Bot {
    floors: HashMap<usize, Memory>,
    /// Crack hints per floor: the wall cells painted with a crack.
    cracks: Vec<Vec<(i32, i32)>>,
    /// How low the party may go before it rests (a share of its health).
    care: f32,
    resting: bool,
    waited: u32,
    last: Option<Last>,
}

/// Whether the party is low enough that the player would stop and rest: the living together
/// under `care` of their health, or a living member of the front rank under two thirds of
/// that.
fn low(s: &jengine_crawler::CrawlState, care: f32) -> bool {
    let living: Vec<_> = s.party.iter().filter(|m| m.hp > 0).collect();
    let hp: u32 = living.iter().map(|m| m.hp).sum();
    let max: u32 = living.iter().map(|m| m.max_hp).sum();
    let front = s
        .party
        .iter()
        .take(2)
        .any(|m| m.hp > 0 && (m.hp as f32) < m.max_hp as f32 * care * 2.0 / 3.0);
    (hp as f32) < max as f32 * care || front
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
            .map(|level| {
                level
                    .decor
                    .iter()
                    .filter(|d| d.art == "crack")
                    .map(|d| (d.at[0], d.at[1]))
                    .collect()
            })
            .collect();
        Bot {
            floors: HashMap::new(),
            cracks,
            care: 0.5,
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
            // An unfound secret door is rock to the player.
            Some('S') => '#',
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
    fn learn(&mut self, crawl: &Crawl, s: &jengine_crawler::CrawlState) {
        let here = (s.x, s.y);
        if let Some((act, level, from, ahead)) = self.last.take() {
            let memory = self.floors.entry(level).or_default();
            for e in crawl.events() {
                match e {
                    Event::Bumped { what } if act == Act::Forward && what != "monster" => {
                        let c = if what == "door" { '+' } else { '#' };
                        memory.cells.insert(ahead, c);
                    }
                    Event::Locked => {
                        memory
                            .refused
                            .insert(ahead, s.keys + s.keyring.len() as u32);
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
        let s = crawl.state();
        self.learn(crawl, &s);
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
        if low(s, self.care) {
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
        let planned = match self.plan(&map, s) {
            Some(p) => Some(p),
            // Nothing left to go to: a gate may have shut behind it. It tries the buttons,
            // levers and locked doors again, a few times a floor.
            None => {
                let memory = self.floors.entry(s.level).or_default();
                if memory.retries >= 6 {
                    return None;
                }
                memory.retries += 1;
                memory.refused.clear();
                memory.used.retain(|&(x, y)| {
                    !matches!(
                        map.get(y as usize).and_then(|r| r.get(x as usize)),
                        Some('B' | 'L')
                    )
                });
                self.plan(&map, s)
            }
        };
        let (goal, then, first) = planned?;
        // Something lies underfoot (the state says so): it picks it up on the way.
        let (goal, then, first) = if s.underfoot.is_some()
            && !self
                .floors
                .get(&s.level)
                .is_some_and(|m| m.used.contains(&(s.x, s.y)))
        {
            ((s.x, s.y), Then::Use, (s.x, s.y))
        } else {
            (goal, then, first)
        };
        let here = (s.x, s.y);
        let memory = self.floors.entry(s.level).or_default();
        if goal == here {
            // Use takes what is in front first: turn away from a door, lever or chest there.
            if then == Then::Use && matches!(s.ahead, '+' | '=' | 'L' | 'B' | 'C' | 'T') {
                return Some(Act::TurnRight);
            }
            return Some(match then {
                // Items lie several to a cell: it takes them one at a time.
                Then::Use if s.underfoot.is_some() => {
                    let tries = memory.takes.entry(here).or_default();
                    *tries += 1;
                    if *tries >= 8 {
                        memory.used.insert(here);
                    }
                    Act::Use
                }
                Then::Use => {
                    memory.used.insert(here);
                    Act::Use
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
    fn plan(&self, map: &[Vec<char>], s: &jengine_crawler::CrawlState) -> Option<Aim> {
        let level = s.level;
        let empty = Memory::default();
        let memory = self.floors.get(&level).unwrap_or(&empty);
        let held = s.keys + s.keyring.len() as u32;
        let here = (s.x, s.y);
        let cracks = self.cracks.get(level).map(Vec::as_slice).unwrap_or(&[]);
        // What the player knows of each cell, once, and the first step toward each cell
        // reached (a cell's index, `NONE` while unreached).
        let h = map.len() as i32;
        let w = map.iter().map(Vec::len).max().unwrap_or(0) as i32;
        let mut grid = Vec::with_capacity((w * h) as usize);
        for row in map {
            for x in 0..w as usize {
                // An unfound secret door is rock to the player.
                grid.push(match row.get(x) {
                    Some('S') | None => '#',
                    Some(c) => *c,
                });
            }
        }
        for (&(x, y), &c) in &memory.cells {
            if x >= 0 && y >= 0 && x < w && y < h && grid[(y * w + x) as usize] == ' ' {
                grid[(y * w + x) as usize] = c;
            }
        }
        let known = |(x, y): (i32, i32)| {
            if x < 0 || y < 0 || x >= w || y >= h {
                '#'
            } else {
                grid[(y * w + x) as usize]
            }
        };
        const NONE: (i32, i32) = (i32::MIN, i32::MIN);
        let mut first = vec![NONE; (w * h) as usize];
        let index = |(x, y): (i32, i32)| (y * w + x) as usize;
        let inside = |(x, y): (i32, i32)| x >= 0 && y >= 0 && x < w && y < h;
        if !inside(here) {
            return None;
        }
        let mut queue = VecDeque::from([here]);
        first[index(here)] = here;
        let mut stairs = None;
        while let Some(at) = queue.pop_front() {
            let c = known(at);
            let step = first[index(at)];
            // What this cell offers.
            if matches!(c, 'C' | '$') && !memory.used.contains(&at) {
                return Some((at, Then::Use, step));
            }
            if c == 'T' && !memory.sent.contains_key(&at) {
                return Some((at, Then::Arrive, step));
            }
            for f in Facing::ALL {
                let (dx, dy) = f.ahead();
                let n = (at.0 + dx, at.1 + dy);
                let nc = known(n);
                if matches!(nc, 'L' | 'B') && !memory.used.contains(&n) {
                    return Some((at, Then::UseFacing(f), step));
                }
                if nc == ' ' && !memory.probed.contains(&(at, n)) {
                    return Some((at, Then::Probe(f), step));
                }
                // A crack in a wall it has seen: it searches that wall (Use facing it).
                if nc == '#' && cracks.contains(&n) && !memory.used.contains(&n) {
                    return Some((at, Then::UseFacing(f), step));
                }
            }
            if stairs.is_none() {
                if c == '>' {
                    stairs = Some((at, Then::Use, step));
                } else if c == 'T' && memory.sent.get(&at).is_some_and(|(l, _)| *l != level) {
                    stairs = Some((at, Then::Arrive, step));
                }
            }
            // Where the player can go from here: a teleporter it knows goes where it sent it.
            if c == 'T' && at != here {
                if let Some((l, to)) = memory.sent.get(&at)
                    && *l == level
                    && *to != at
                    && inside(*to)
                    && first[index(*to)] == NONE
                {
                    first[index(*to)] = step;
                    queue.push_back(*to);
                }
                continue;
            }
            for f in Facing::ALL {
                let (dx, dy) = f.ahead();
                let n = (at.0 + dx, at.1 + dy);
                if !inside(n) || first[index(n)] != NONE {
                    continue;
                }
                let ok = match known(n) {
                    '.' | 'A' | '/' | '^' | 'C' | 'c' | '$' | '%' | '_' | '<' | '>' | 'E' | 'D'
                    | '+' | 'T' => true,
                    '=' => memory.refused.get(&n).is_none_or(|k| held > *k),
                    _ => false,
                };
                if ok {
                    first[index(n)] = if at == here { n } else { step };
                    queue.push_back(n);
                }
            }
        }
        stairs
    }

    /// The same player, resting once the party is under `care` of its health (a half unless
    /// told: a careful player rests sooner).
    pub fn careful(mut self, care: f32) -> Bot {
        self.care = care.clamp(0.0, 1.0);
        self
    }

    /// Plays `crawl` to its end (or `limit` acts), returning how it went.
    pub fn play(crawl: Crawl, limit: usize) -> Run {
        let bot = Bot::new(&crawl);
        bot.run(crawl, limit)
    }

    /// Plays `crawl` to its end (or `limit` acts) as this player.
    pub fn run(mut self, mut crawl: Crawl, limit: usize) -> Run {
        let bot = &mut self;
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
