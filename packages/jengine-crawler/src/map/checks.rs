//! The checks a level row must pass before it becomes a [`Level`]: the drawing parses, the
//! party can get from its start to the way down, the stairs up stay in reach, and every lock
//! on the way has a key or lever the party can get to first.
//!
//! Reachability is a flood over the grid that understands the furniture (secret doors can be
//! found, a teleporter is entered and leads to its destination, a gate opens once a lever,
//! button or plate that names it is in reach, a named key once a chest or item holding it is);
//! plain keys are a small search over which locks are open.

use super::cells::{Cell, Facing, Loot, MonsterKind};
use super::fields::{Item, Mechanism};
use super::story::check_story;
use super::tables::{Level, LevelRow, MapError, MonsterStart, Place, Problem};
use std::collections::{BTreeSet, VecDeque};

pub(crate) fn build_level(
    index: usize,
    row: LevelRow,
    monsters: &[MonsterKind],
    last: bool,
    carry: &mut Carry,
) -> Result<Level, MapError> {
    let place = |r: Option<i32>, c: Option<i32>| Place {
        level: index + 1,
        name: row.name.clone(),
        row: r,
        cell: c,
    };
    let fail = |r: Option<i32>, c: Option<i32>, problem: Problem| MapError::Level {
        at: place(r, c),
        problem,
    };

    let Some(first) = row.map.first() else {
        return Err(fail(None, None, Problem::EmptyMap));
    };
    let want = first.chars().count();
    if want == 0 {
        return Err(fail(Some(0), None, Problem::EmptyMap));
    }
    let (width, height) = (want as i32, row.map.len() as i32);
    let mut cells = Vec::with_capacity(want * row.map.len());
    let mut starts = Vec::new();
    let (mut chests, mut traps) = (row.chests.iter(), 0usize);
    for (y, line) in row.map.iter().enumerate() {
        let y = y as i32;
        let got = line.chars().count();
        if got != want {
            return Err(fail(Some(y), None, Problem::RaggedRow { got, want }));
        }
        for (x, symbol) in line.chars().enumerate() {
            let x = x as i32;
            let at = |p: Problem| fail(Some(y), Some(x), p);
            let cell = match symbol {
                'C' => {
                    let text = chests.next().ok_or_else(|| at(Problem::ChestWithoutLoot))?;
                    let loot = Loot::parse(text).map_err(at)?;
                    Cell::Chest {
                        loot,
                        opened: false,
                    }
                }
                '^' => {
                    if row.traps.is_empty() {
                        return Err(at(Problem::UnnamedTrap));
                    }
                    let trap = &row.traps[traps % row.traps.len()];
                    traps += 1;
                    Cell::Trap {
                        name: trap.name.clone(),
                        sprung: false,
                        damage: trap.damage,
                    }
                }
                'M' => {
                    if row.monsters.is_empty() {
                        return Err(at(Problem::UnnamedMonster));
                    }
                    let name = &row.monsters[starts.len() % row.monsters.len()];
                    let kind = monsters
                        .iter()
                        .position(|m| &m.name == name)
                        .ok_or_else(|| at(Problem::UndefinedMonster(name.clone())))?;
                    starts.push(MonsterStart { kind, x, y });
                    Cell::Floor
                }
                other => Cell::plain(other).ok_or_else(|| at(Problem::UnknownSymbol(other)))?,
            };
            cells.push(cell);
        }
    }
    let left = chests.count();
    if left > 0 {
        return Err(fail(None, None, Problem::LootWithoutChest(left)));
    }
    for name in &row.monsters {
        if !monsters.iter().any(|m| &m.name == name) {
            return Err(fail(None, None, Problem::UndefinedMonster(name.clone())));
        }
    }

    let mut items = Vec::with_capacity(row.items.len());
    for (index, item) in row.items.iter().enumerate() {
        let [x, y] = item.at;
        let loot = Loot::parse(&item.loot).map_err(|p| fail(Some(y), Some(x), p))?;
        items.push(Item {
            at: item.at,
            loot,
            art: item.art.clone(),
            index,
        });
    }
    let level = Level {
        name: row.name.clone(),
        width,
        height,
        cells,
        start: (0, 0),
        facing: row.facing,
        monsters: starts,
        encounters: row.encounters.clone(),
        encounter_rate: row.encounter_rate,
        groups: row.groups.clone(),
        encounter_grace: row.encounter_grace,
        doors: row.doors.clone(),
        levers: row.levers.clone(),
        plates: row.plates.clone(),
        buttons: row.buttons.clone(),
        // A teleporter to its own floor by number is one to the same floor.
        teleports: row
            .teleports
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.floor = t.floor.filter(|&f| f != index);
                t
            })
            .collect(),
        spinners: row.spinners.clone(),
        items,
        decor: row.decor.clone(),
        walls: row.walls.clone(),
        events: row.events.clone(),
        links: row.links.clone(),
        sight: row.sight,
    };
    if let Err((x, y, problem)) = check_furniture(index, &level) {
        return Err(fail(y, x, problem));
    }
    if let Err((x, y, problem)) = check_fights(&level, &row.groups) {
        return Err(fail(y, x, problem));
    }
    if let Err((x, y, problem)) = check_story(&level) {
        return Err(fail(y, x, problem));
    }
    let start = match row.start {
        Some([x, y]) => (x, y),
        None => level
            .find('<')
            .ok_or_else(|| fail(None, None, Problem::NoStart))?,
    };
    if !level.cell(start.0, start.1).is_walkable() {
        return Err(fail(Some(start.1), Some(start.0), Problem::StartInWall));
    }
    let level = Level { start, ..level };

    if !row.encounter_rate.is_finite() || !(0.0..=1.0).contains(&row.encounter_rate) {
        return Err(fail(None, None, Problem::BadRate(row.encounter_rate)));
    }
    if row.encounter_rate > 0.0 && row.groups.is_empty() {
        return Err(fail(None, None, Problem::NoGroups(row.encounter_rate)));
    }

    // Reachability: doors and locked doors can be opened, a pit is a drop and leads nowhere.
    let all = flood(&level, &[start], |c| !c.is_solid() || opens(c));
    for spot in &row.encounters {
        let [x, y] = spot.at;
        let at = |p| fail(Some(y), Some(x), p);
        if x < 0 || y < 0 || x >= width || y >= height {
            return Err(at(Problem::FightOffMap));
        }
        if level.cell(x, y).is_solid() {
            return Err(at(Problem::FightInWall));
        }
        if !all[(y * width + x) as usize] {
            return Err(at(Problem::FightUnreachable));
        }
        if spot.goal && !last {
            return Err(at(Problem::GoalNotLast));
        }
    }
    let downs = positions(&level, |c| *c == Cell::Down);
    let goal = row.encounters.iter().any(|e| e.goal);
    // A link (or an event's choice that leads away) is a way on too: a town needs no stairs.
    let linked = !row.links.is_empty()
        || row
            .events
            .iter()
            .any(|e| e.choices.iter().any(|c| c.go.is_some()));
    if downs.is_empty() && !(last && goal) && !linked {
        return Err(fail(None, None, Problem::NoWayDown));
    }
    if !downs.is_empty() && !downs.iter().any(|&(x, y)| all[(y * width + x) as usize]) {
        let (x, y) = downs[0];
        return Err(fail(Some(y), Some(x), Problem::WayDownUnreachable));
    }

    // The stairs up must be reachable from wherever the party can stand on arrival
    // without spending a key, or a party that came up could be shut in.
    // A fall through a pit above lands on the cell beneath it, and must not shut the party
    // in either: from each such cell some stairs up must be in reach.
    let locks = Locking::new(&level);
    let mut arrivals = downs.clone();
    arrivals.push(start);
    let cut_off = |arrivals: &[(i32, i32)], all: bool| {
        up_cut_off(&locks, arrivals, all).map(|((x, y), p)| fail(Some(y), Some(x), p))
    };
    if let Some(e) = cut_off(&arrivals, true) {
        return Err(e);
    }
    for &landing in &carry.landings {
        if level.cell(landing.0, landing.1).is_walkable()
            && let Some(e) = cut_off(&[landing], false)
        {
            return Err(e);
        }
    }

    let loot = all_loot(&level);
    let named_above = carry.named.clone();
    carry.key_above |= loot.iter().any(|l| l.plain_keys() > 0);
    carry.named.extend(
        loot.iter()
            .filter_map(|l| l.named_key())
            .map(str::to_string),
    );
    carry.landings = positions(&level, |c| *c == Cell::Pit);
    if let Some(n) = locks.plain.first()
        && !carry.key_above
    {
        let (x, y) = (*n as i32 % width, *n as i32 / width);
        return Err(fail(Some(y), Some(x), Problem::NoKeyForLock));
    }
    for door in &level.doors {
        if let Some(key) = &door.key
            && !level.is_gate(door.at[0], door.at[1])
            && !carry.named.contains(key)
        {
            let problem = Problem::NamedKeyMissing {
                door: door.name.clone(),
                key: key.clone(),
            };
            return Err(fail(Some(door.at[1]), Some(door.at[0]), problem));
        }
    }

    // Keys: the party arrives from above on the stairs up (the top floor: at its start).
    let arrival = match index {
        0 => start,
        _ => level.find('<').unwrap_or(start),
    };
    let mut goals = downs;
    if last {
        goals.extend(
            row.encounters
                .iter()
                .filter(|e| e.goal)
                .map(|e| (e.at[0], e.at[1])),
        );
    }
    let cells = |list: &[(i32, i32)]| {
        list.iter()
            .map(|(x, y)| format!("row {y}, cell {x}"))
            .collect::<Vec<_>>()
            .join("; ")
    };
    // A floor left only by links has no way down for keys to be counted on.
    let searched = if goals.is_empty() {
        None
    } else {
        search_locks(&locks, arrival, &goals, carry.keys, &named_above)
    };
    match searched {
        None => {
            carry.keys = carry
                .keys
                .saturating_add(keys_in(&level, &vec![true; level.cells.len()]))
        }
        Some(found) => {
            let Some(fewest) = found.fewest else {
                let problem = match found.stuck.first() {
                    Some(_) => Problem::TooFewKeys {
                        locks: locks_in_the_way(&locks, arrival, &goals),
                        keys: carry.keys.saturating_add(found.keys_seen),
                        cells: cells(&found.stuck),
                    },
                    None => Problem::WayDownUnreachable,
                };
                let (x, y) = found
                    .stuck
                    .first()
                    .or(goals.first())
                    .copied()
                    .unwrap_or(arrival);
                return Err(fail(Some(y), Some(x), problem));
            };
            if let Some(&(x, y)) = found.stuck.first() {
                let problem = Problem::LockWithoutKey(cells(&found.stuck));
                return Err(fail(Some(y), Some(x), problem));
            }
            carry.keys = carry
                .keys
                .saturating_add(found.keys_seen)
                .saturating_sub(u64::from(fewest));
        }
    }
    Ok(level)
}

/// Cells the optimistic floods go through: any door opens one way or another (a secret door
/// once found).
fn opens(cell: &Cell) -> bool {
    matches!(cell, Cell::Door | Cell::Locked | Cell::Secret)
}

/// Every loot on a floor: in its chests and lying on it.
fn all_loot(level: &Level) -> Vec<&Loot> {
    let chests = level.cells.iter().filter_map(|c| match c {
        Cell::Chest { loot, .. } => Some(loot),
        _ => None,
    });
    chests.chain(level.items.iter().map(|i| &i.loot)).collect()
}

/// The stairs up the party cannot reach without a key from `arrivals` (`all`: every stairs up
/// must be in reach; otherwise one is enough), and what is in the way: a lock is the party's to
/// open, a pit only leads down, and rock is the drawing's mistake. `None` when nothing is cut
/// off, or the floor has no stairs up.
fn up_cut_off(
    locks: &Locking,
    arrivals: &[(i32, i32)],
    all: bool,
) -> Option<((i32, i32), Problem)> {
    let level = locks.level;
    let width = level.width;
    let ups = positions(level, |c| *c == Cell::Up);
    let keyless = locks.flood(arrivals, |_| false, None);
    let missed = |&(x, y): &(i32, i32)| !keyless[(y * width + x) as usize];
    let (x, y) = if all {
        ups.iter().copied().find(missed)?
    } else if ups.iter().all(missed) {
        *ups.first()?
    } else {
        return None;
    };
    let i = (y * width + x) as usize;
    let through_locks = flood(level, arrivals, |c| !c.is_solid() || opens(c));
    let over_pits = spread(level, arrivals, |_, c| !c.is_solid() || opens(c), false);
    let problem = if through_locks[i] {
        Problem::UpBehindKey
    } else if over_pits[i] {
        Problem::UpBeyondPit
    } else {
        Problem::UpWalledOff
    };
    Some(((x, y), problem))
}

/// How a locked cell opens.
#[derive(Debug, Clone, PartialEq)]
enum Lock {
    /// Not a lock.
    No,
    /// With a plain key (spent): the lock's number among the floor's plain locks.
    Plain(usize),
    /// By a lever, plate or button only.
    Gate,
    /// With this named key (kept).
    Named(String),
}

/// A floor's locks and what opens them, for the floods that play them out.
struct Locking<'a> {
    level: &'a Level,
    /// Per cell.
    kind: Vec<Lock>,
    /// The plain locks' cells, in reading order.
    plain: Vec<usize>,
    /// Each lever, button (`false`: worked from beside it) and plate (`true`: stood on), with
    /// the cells of the doors it opens.
    mechanisms: Vec<((i32, i32), bool, Vec<usize>)>,
}

impl<'a> Locking<'a> {
    fn new(level: &'a Level) -> Locking<'a> {
        let w = level.width;
        let mut kind = vec![Lock::No; level.cells.len()];
        let mut plain = Vec::new();
        for (i, cell) in level.cells.iter().enumerate() {
            if *cell != Cell::Locked {
                continue;
            }
            let (x, y) = (i as i32 % w, i as i32 / w);
            kind[i] = if level.is_gate(x, y) {
                Lock::Gate
            } else if let Some(key) = level.door_at(x, y).and_then(|d| d.key.clone()) {
                Lock::Named(key)
            } else {
                plain.push(i);
                Lock::Plain(plain.len() - 1)
            };
        }
        let doors = |m: &Mechanism| {
            m.opens
                .iter()
                .filter_map(|n| level.door_named(n))
                .map(|d| (d.at[1] * w + d.at[0]) as usize)
                .collect::<Vec<_>>()
        };
        let mut mechanisms = Vec::new();
        for (list, stood_on) in [(&level.levers, false), (&level.buttons, false)] {
            mechanisms.extend(
                list.iter()
                    .map(|m| ((m.at[0], m.at[1]), stood_on, doors(m))),
            );
        }
        mechanisms.extend(
            level
                .plates
                .iter()
                .map(|m| ((m.at[0], m.at[1]), true, doors(m))),
        );
        Locking {
            level,
            kind,
            plain,
            mechanisms,
        }
    }

    /// The cells reached from `from` with the plain locks `plain` says are open, gates opened
    /// by every mechanism in reach, and (given the keys carried down) every named key in
    /// reach or carried; `None` opens no named lock.
    fn flood(
        &self,
        from: &[(i32, i32)],
        plain: impl Fn(usize) -> bool,
        carried: Option<&BTreeSet<String>>,
    ) -> Vec<bool> {
        let level = self.level;
        let w = level.width;
        let mut gates = vec![false; level.cells.len()];
        let mut keys = carried.cloned().unwrap_or_default();
        loop {
            let reached = spread(
                level,
                from,
                |i, c| {
                    !c.is_solid()
                        || matches!(c, Cell::Door | Cell::Secret)
                        || match &self.kind[i] {
                            Lock::No => false,
                            Lock::Plain(n) => plain(*n),
                            Lock::Gate => gates[i],
                            Lock::Named(k) => keys.contains(k),
                        }
                },
                true,
            );
            let mut changed = false;
            for (at, stood_on, opens) in &self.mechanisms {
                let worked = if *stood_on {
                    reached[(at.1 * w + at.0) as usize]
                } else {
                    beside(level, &reached, *at)
                };
                for &i in opens.iter().filter(|_| worked) {
                    changed |= !std::mem::replace(&mut gates[i], true);
                }
            }
            if carried.is_some() {
                for key in keys_found(level, &reached) {
                    changed |= keys.insert(key.to_string());
                }
            }
            if !changed {
                return reached;
            }
        }
    }
}

/// The named keys in the chests and items of the cells marked in `reach`.
fn keys_found<'l>(level: &'l Level, reach: &[bool]) -> Vec<&'l str> {
    let w = level.width;
    let chests = level
        .cells
        .iter()
        .zip(reach)
        .filter(|(_, r)| **r)
        .filter_map(|(c, _)| match c {
            Cell::Chest { loot, .. } => loot.named_key(),
            _ => None,
        });
    let items = level
        .items
        .iter()
        .filter(|i| level.contains(i.at[0], i.at[1]) && reach[(i.at[1] * w + i.at[0]) as usize])
        .filter_map(|i| i.loot.named_key());
    chests.chain(items).collect()
}

fn positions(level: &Level, pred: impl Fn(&Cell) -> bool) -> Vec<(i32, i32)> {
    (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .filter(|&(x, y)| pred(level.cell(x, y)))
        .collect()
}

/// Cells reachable from `from` through cells `pass` lets through; a pit is entered, not crossed.
fn flood(level: &Level, from: &[(i32, i32)], pass: impl Fn(&Cell) -> bool) -> Vec<bool> {
    spread(level, from, |_, c| pass(c), true)
}

/// Cells reachable from `from` through cells `pass` lets through (it is given the cell's index
/// too); with `stop_at_pits` a pit is entered but not crossed, as the party falls into it.
fn spread(
    level: &Level,
    from: &[(i32, i32)],
    pass: impl Fn(usize, &Cell) -> bool,
    stop_at_pits: bool,
) -> Vec<bool> {
    let mut seen = vec![false; level.cells.len()];
    let mut queue = VecDeque::new();
    for &(x, y) in from {
        if level.cell(x, y).is_walkable() {
            seen[(y * level.width + x) as usize] = true;
            queue.push_back((x, y));
        }
    }
    while let Some((x, y)) = queue.pop_front() {
        if stop_at_pits && *level.cell(x, y) == Cell::Pit {
            continue;
        }
        // A teleporter is entered, not crossed: it leads on to its destination (another
        // floor's is no way on across this one).
        if *level.cell(x, y) == Cell::Teleporter {
            if let Some(t) = level.teleport_at(x, y).filter(|t| t.floor.is_none()) {
                let [tx, ty] = t.to;
                if level.contains(tx, ty) && level.cell(tx, ty).is_walkable() {
                    let i = (ty * level.width + tx) as usize;
                    if !seen[i] {
                        seen[i] = true;
                        queue.push_back((tx, ty));
                    }
                }
            }
            continue;
        }
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= level.width || ny >= level.height {
                continue;
            }
            let i = (ny * level.width + nx) as usize;
            if !seen[i] && pass(i, level.cell(nx, ny)) {
                seen[i] = true;
                queue.push_back((nx, ny));
            }
        }
    }
    seen
}

/// What the floors above hand down: whether a key was drawn anywhere on them, and the most
/// keys the party can be holding when it arrives (an upper bound, so a floor is only refused
/// when no way of playing the ones above could open its locks).
#[derive(Debug, Default)]
pub(crate) struct Carry {
    key_above: bool,
    keys: u64,
    /// Every named key in a chest or item on the floors so far.
    named: BTreeSet<String>,
    /// The pits of the floor above: the party lands on these cells of the next.
    landings: Vec<(i32, i32)>,
}

/// The most lock states the key search looks at before it gives up and lets the level load.
const LOCK_STATES: usize = 4096;

/// What the key search found on one floor.
struct Locks {
    /// The fewest locks opened with keys on any way to the way down (`None`: there is none).
    fewest: Option<u32>,
    /// Keys in every chest the party can get to, one way or another.
    keys_seen: u64,
    /// Locks the party can stand beside but no way of playing opens, in reading order.
    stuck: Vec<(i32, i32)>,
}

/// Plain keys in the chests and items of the cells marked in `reach`.
fn keys_in(level: &Level, reach: &[bool]) -> u64 {
    let w = level.width;
    let chests: u64 = level
        .cells
        .iter()
        .zip(reach)
        .filter(|(_, r)| **r)
        .map(|(c, _)| match c {
            Cell::Chest { loot, .. } => u64::from(loot.plain_keys()),
            _ => 0,
        })
        .sum();
    let items: u64 = level
        .items
        .iter()
        .filter(|i| level.contains(i.at[0], i.at[1]) && reach[(i.at[1] * w + i.at[0]) as usize])
        .map(|i| u64::from(i.loot.plain_keys()))
        .sum();
    chests.saturating_add(items)
}

/// Whether the party can stand next to (x, y): a neighbour it reaches that is not a pit.
fn beside(level: &Level, reach: &[bool], (x, y): (i32, i32)) -> bool {
    Facing::ALL.iter().any(|f| {
        let (dx, dy) = f.ahead();
        let (nx, ny) = (x + dx, y + dy);
        nx >= 0
            && ny >= 0
            && nx < level.width
            && ny < level.height
            && reach[(ny * level.width + nx) as usize]
            && *level.cell(nx, ny) != Cell::Pit
    })
}

/// Plays out the floor's plain locks: a state is the set of them opened with keys, what the
/// party reaches follows from it (with the gates its mechanisms in reach open and the named
/// locks its named keys open), and a plain key in hand opens any plain lock beside what is
/// reached. Keys are all alike and opening only ever widens the reach, so the
/// set of opened locks is the whole state. `None` when the floor has too many locks to try.
fn search_locks(
    locking: &Locking,
    arrival: (i32, i32),
    goals: &[(i32, i32)],
    keys_in_hand: u64,
    named: &BTreeSet<String>,
) -> Option<Locks> {
    let level = locking.level;
    if locking.plain.len() > 64 {
        return None;
    }
    let w = level.width;
    let index = |(x, y): (i32, i32)| (y * w + x) as usize;
    let locks: Vec<(i32, i32)> = locking
        .plain
        .iter()
        .map(|&i| (i as i32 % w, i as i32 / w))
        .collect();
    let reach = |opened: u64| locking.flood(&[arrival], |n| opened >> n & 1 == 1, Some(named));

    let mut union = vec![false; level.cells.len()];
    let mut near = 0u64;
    let mut fewest = None;
    let mut tried = std::collections::HashSet::from([0u64]);
    let mut queue = VecDeque::from([0u64]);
    // Breadth first: states come in order of locks opened, so the first to reach the way
    // down opened the fewest.
    while let Some(opened) = queue.pop_front() {
        let reached = reach(opened);
        let spent = u64::from(opened.count_ones());
        let held = (keys_in_hand + keys_in(level, &reached)).saturating_sub(spent);
        if fewest.is_none() && goals.iter().any(|&g| reached[index(g)]) {
            fewest = Some(opened.count_ones());
        }
        for (u, r) in union.iter_mut().zip(&reached) {
            *u |= *r;
        }
        for (n, &at) in locks.iter().enumerate() {
            if reached[index(at)] || !beside(level, &reached, at) {
                continue;
            }
            near |= 1 << n;
            let next = opened | 1 << n;
            if held > 0 && tried.insert(next) {
                if tried.len() > LOCK_STATES {
                    return None;
                }
                queue.push_back(next);
            }
        }
    }
    let stuck = locks
        .iter()
        .enumerate()
        .filter(|&(n, &at)| near >> n & 1 == 1 && !union[index(at)])
        .map(|(_, &at)| at)
        .collect();
    Some(Locks {
        fewest,
        keys_seen: keys_in(level, &union),
        stuck,
    })
}

/// The fewest locked doors on any way from `arrival` to a goal, every lock counted as a door
/// that costs one key (a breadth-first walk that takes free steps before paid ones).
fn locks_in_the_way(locking: &Locking, arrival: (i32, i32), goals: &[(i32, i32)]) -> u32 {
    let level = locking.level;
    let w = level.width;
    let inside = |x: i32, y: i32| (0..level.width).contains(&x) && (0..level.height).contains(&y);
    let mut cost = vec![u32::MAX; level.cells.len()];
    let mut queue = VecDeque::new();
    if level.cell(arrival.0, arrival.1).is_walkable() {
        cost[(arrival.1 * w + arrival.0) as usize] = 0;
        queue.push_back(arrival);
    }
    while let Some((x, y)) = queue.pop_front() {
        let here = cost[(y * w + x) as usize];
        if *level.cell(x, y) == Cell::Pit {
            continue;
        }
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let (nx, ny) = (x + dx, y + dy);
            if !inside(nx, ny) {
                continue;
            }
            let step = match level.cell(nx, ny) {
                Cell::Locked if matches!(locking.kind[(ny * w + nx) as usize], Lock::Plain(_)) => 1,
                c if !c.is_solid() || opens(c) => 0,
                _ => continue,
            };
            let i = (ny * w + nx) as usize;
            if here + step < cost[i] {
                cost[i] = here + step;
                if step == 0 {
                    queue.push_front((nx, ny));
                } else {
                    queue.push_back((nx, ny));
                }
            }
        }
    }
    goals
        .iter()
        .filter(|&&(x, y)| inside(x, y))
        .map(|&(x, y)| cost[(y * w + x) as usize])
        .min()
        .unwrap_or(0)
}

/// A problem at an optional cell and row, before it is given its level.
type Fault = (Option<i32>, Option<i32>, Problem);

fn at(x: i32, y: i32, problem: Problem) -> Fault {
    (Some(x), Some(y), problem)
}

/// The row's furniture against the drawing: named doors on doors, one entry on every `L _ B T`
/// and each entry on its symbol, the doors mechanisms name, same-floor teleporters, spinners,
/// items on open floor, decor on a solid cell facing an open one, a wall set with a name.
fn check_furniture(index: usize, level: &Level) -> Result<(), Fault> {
    for (n, door) in level.doors.iter().enumerate() {
        let [x, y] = door.at;
        let cell = level.cell(x, y);
        if !matches!(cell, Cell::Door | Cell::Locked | Cell::Secret) {
            return Err(at(x, y, Problem::DoorNotADoor(door.name.clone())));
        }
        let taken = level.doors[..n]
            .iter()
            .any(|d| d.name == door.name || d.at == door.at);
        if door.name.trim().is_empty() || taken {
            return Err(at(x, y, Problem::DoorNameTaken(door.name.clone())));
        }
        if door.key.is_some() && *cell != Cell::Locked {
            return Err(at(x, y, Problem::KeyNotOnLock(door.name.clone())));
        }
        if door.key.as_deref().is_some_and(|k| k.trim().is_empty()) {
            return Err(at(x, y, Problem::EmptyName("key")));
        }
    }
    let places = |list: &[Mechanism]| list.iter().map(|m| m.at).collect::<Vec<_>>();
    let lists: [(&'static str, char, Vec<[i32; 2]>, bool); 5] = [
        ("levers", 'L', places(&level.levers), true),
        ("plates", '_', places(&level.plates), true),
        ("buttons", 'B', places(&level.buttons), true),
        (
            "teleports",
            'T',
            level.teleports.iter().map(|t| t.at).collect(),
            true,
        ),
        (
            "spinners",
            '%',
            level.spinners.iter().map(|t| t.at).collect(),
            false,
        ),
    ];
    for (field, symbol, list, needed) in &lists {
        for (n, &[x, y]) in list.iter().enumerate() {
            let found = level.cell(x, y).symbol();
            if found != *symbol {
                let problem = Problem::EntryOffSymbol {
                    field,
                    want: *symbol,
                    found,
                };
                return Err(at(x, y, problem));
            }
            if list[..n].contains(&[x, y]) {
                return Err(at(x, y, Problem::TwoEntries(field)));
            }
        }
        if *needed
            && let Some((x, y)) = positions(level, |c| c.symbol() == *symbol)
                .into_iter()
                .find(|&(x, y)| !list.contains(&[x, y]))
        {
            let problem = Problem::MissingEntry {
                field,
                symbol: *symbol,
            };
            return Err(at(x, y, problem));
        }
    }
    for (field, list) in [
        ("levers", &level.levers),
        ("plates", &level.plates),
        ("buttons", &level.buttons),
    ] {
        for m in list {
            if let Some(name) = m
                .opens
                .iter()
                .chain(&m.shuts)
                .find(|n| level.door_named(n).is_none())
            {
                let name = name.clone();
                return Err(at(m.at[0], m.at[1], Problem::UnknownDoor { field, name }));
            }
        }
    }
    for t in &level.teleports {
        if t.floor.is_none_or(|f| f == index)
            && let Some(problem) = landing_problem(level, t.to)
        {
            let [x, y] = t.to;
            let place = format!("row {y}, cell {x} of its own floor, which is {problem}");
            return Err(at(t.at[0], t.at[1], Problem::BadTeleport(place)));
        }
    }
    for s in &level.spinners {
        if let Some(turn) = s.turn
            && !(1..=3).contains(&turn)
        {
            return Err(at(s.at[0], s.at[1], Problem::BadSpin(turn)));
        }
    }
    for item in &level.items {
        let [x, y] = item.at;
        if *level.cell(x, y) != Cell::Floor {
            return Err(at(x, y, Problem::ItemNotOnFloor));
        }
    }
    for d in &level.decor {
        let [x, y] = d.at;
        if !matches!(
            level.cell(x, y),
            Cell::Wall | Cell::Secret | Cell::Button { .. } | Cell::Lever { .. }
        ) || !level.contains(x, y)
        {
            return Err(at(x, y, Problem::DecorNotOnWall));
        }
        let (dx, dy) = d.side.ahead();
        if !level.cell(x + dx, y + dy).is_walkable() {
            let side = format!("{:?}", d.side).to_lowercase();
            return Err(at(x, y, Problem::DecorFacesRock(side)));
        }
        if d.art.trim().is_empty() {
            return Err(at(x, y, Problem::EmptyName("art")));
        }
    }
    if level.walls.as_deref().is_some_and(|w| w.trim().is_empty()) {
        return Err((None, None, Problem::EmptyName("walls")));
    }
    Ok(())
}

/// Why the party cannot be put down at `to` by a teleporter or a fall, if it cannot.
fn landing_problem(level: &Level, [x, y]: [i32; 2]) -> Option<&'static str> {
    let cell = level.cell(x, y);
    Some(if !level.contains(x, y) || !cell.is_walkable() {
        "off the map or solid"
    } else if *cell == Cell::Teleporter {
        "another teleporter"
    } else if level.encounters.iter().any(|e| e.at == [x, y]) {
        "a fight's cell"
    } else {
        return None;
    })
}

/// The fights among themselves: one per cell, none on the stairs or where a monster starts,
/// every group (fixed or random) named.
fn check_fights(level: &Level, groups: &[String]) -> Result<(), Fault> {
    for (n, e) in level.encounters.iter().enumerate() {
        let [x, y] = e.at;
        if e.group.trim().is_empty() {
            return Err(at(x, y, Problem::EmptyGroup));
        }
        if level.encounters[..n].iter().any(|o| o.at == e.at) {
            return Err(at(x, y, Problem::TwoFights));
        }
        if matches!(level.cell(x, y), Cell::Up | Cell::Down) {
            return Err(at(x, y, Problem::FightOnStairs));
        }
        if level.monsters.iter().any(|m| (m.x, m.y) == (x, y)) {
            return Err(at(x, y, Problem::FightOnMonster));
        }
    }
    if groups.iter().any(|g| g.trim().is_empty()) {
        return Err((None, None, Problem::EmptyGroup));
    }
    Ok(())
}

/// The checks that need the floors together: teleporters to other floors land on a floor that
/// exists and a cell the party can stand on; a pit drops to the same cell of the next floor,
/// which must be open floor (not a pit, a teleporter, stairs or a fight), and none is dug on
/// the last floor.
pub(crate) fn check_between(levels: &[Level]) -> Result<(), MapError> {
    let fail = |i: usize, (x, y): (i32, i32), problem: Problem| MapError::Level {
        at: Place {
            level: i + 1,
            name: levels[i].name.clone(),
            row: Some(y),
            cell: Some(x),
        },
        problem,
    };
    for (i, level) in levels.iter().enumerate() {
        for t in &level.teleports {
            let Some(f) = t.floor.filter(|&f| f != i) else {
                continue;
            };
            let from = (t.at[0], t.at[1]);
            let Some(there) = levels.get(f) else {
                let problem = format!(
                    "floor {f}, which does not exist (floors count from 0; there are {})",
                    levels.len()
                );
                return Err(fail(i, from, Problem::BadTeleport(problem)));
            };
            let [x, y] = t.to;
            if let Some(problem) = landing_problem(there, t.to) {
                let place = format!("row {y}, cell {x} of floor {f}, which is {problem}");
                return Err(fail(i, from, Problem::BadTeleport(place)));
            }
            // Sent to another floor, the party must not be shut in there either.
            if let Some((_, problem)) = up_cut_off(&Locking::new(there), &[(x, y)], false) {
                let place = format!("row {y}, cell {x} of floor {f}, from where {problem}");
                return Err(fail(i, from, Problem::BadTeleport(place)));
            }
        }
        for (x, y) in positions(level, |c| *c == Cell::Pit) {
            let Some(below) = levels.get(i + 1) else {
                return Err(fail(i, (x, y), Problem::PitOnLastFloor));
            };
            let what = match below.cell(x, y) {
                c if !below.contains(x, y) || !c.is_walkable() => Some("off its map or solid"),
                Cell::Pit => Some("another pit"),
                Cell::Teleporter => Some("a teleporter"),
                Cell::Up | Cell::Down => Some("stairs"),
                _ if below.encounters.iter().any(|e| e.at == [x, y]) => Some("a fight's cell"),
                _ => None,
            };
            if let Some(what) = what {
                return Err(fail(i, (x, y), Problem::BadLanding(what.into())));
            }
        }
    }
    Ok(())
}
