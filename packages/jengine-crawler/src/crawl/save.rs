//! Saves: everything that changes, written as what differs from the level as drawn, and the
//! fingerprint of the dungeon it came from.
//!
//! A save is rebuilt into a whole new state and checked cell by cell before it replaces the
//! game in progress, so a bad one changes nothing.

use super::game::{Crawl, Fight, Member, Sighting, Spotted, State, Wanderer, fresh};
use super::reachable::InPlay;
use crate::map::{Cell, Dungeon, Facing, Level, Monster, Tables};
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

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
    /// Named keys, in the order found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keyring: Vec<String>,
    /// The crawlers table's row in each slot, when the party has been reordered (empty: in
    /// the table's order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<usize>,
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
    /// The flags set, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The id of the event waiting for a choice, on the party's level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The group spotted, waiting for an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spotted: Option<Spotted>,
    /// The groups announced on this approach.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approach: Vec<Sighting>,
    /// The wandering group standing on the party's floor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wanderer: Option<Wanderer>,
}

/// A fixed fight that has come toward the party from its drawn cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovedFight {
    /// Its place in the level's `encounters`.
    pub fight: usize,
    /// Where it stands now.
    pub at: [i32; 2],
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
    /// Secret doors found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<[i32; 2]>,
    /// Doors drawn shut or secret, locked now by a mechanism.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shut: Vec<[i32; 2]>,
    /// Plates and buttons pressed an odd number of times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pressed: Vec<[i32; 2]>,
    /// Items taken, by their place in the level's `items` list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taken: Vec<usize>,
    /// Doors drawn locked that are shut (not locked) now, by the game's `door`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unlocked: Vec<[i32; 2]>,
    /// The `once` events answered for good, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub done: Vec<String>,
    /// Fixed fights standing elsewhere than drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<MovedFight>,
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
    /// Each part fits the dungeon, but together they are a game no play could reach.
    #[error("the save could not come from play: {0}")]
    Impossible(String),
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
                furniture_save(level, floor, &mut out);
                story_save(level, floor, &mut out);
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
            keyring: s.keyring.clone(),
            order: if s.order.iter().enumerate().all(|(i, &o)| i == o) {
                Vec::new()
            } else {
                s.order.clone()
            },
            tick: s.tick,
            quiet: s.quiet,
            floors,
            seen: s.floors.iter().map(Dungeon::seen_string).collect(),
            encounter: s.fight.clone(),
            dead: s.dead,
            escaped: s.escaped,
            flags: s.flags.clone(),
            event: s
                .event
                .map(|i| self.tables.levels[s.level].events[i].id.clone()),
            spotted: s.spotted.clone(),
            approach: s.approach.clone(),
            wanderer: s.wanderer.clone(),
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
        super::reachable::check(&state)?;
        self.state = state;
        self.events.clear();
        self.in_play = InPlay::Loaded;
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
        let (mut party, order) = ordered_party(tables, save)?;
        for (member, &hp) in party.iter_mut().zip(&save.hp) {
            if hp > member.max_hp {
                return shape(format!("{} has {hp} hp of {}", member.name, member.max_hp));
            }
            member.hp = hp;
        }

        let mut floors = Vec::with_capacity(n);
        for (i, (level, saved)) in tables.levels.iter().zip(&save.floors).enumerate() {
            let mut floor = Dungeon::new(level, &tables.monsters);
            restore_furniture(i, saved, &mut floor)?;
            restore_story(i, level, saved, &mut floor)?;
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
        let (event, spotted) = restore_waiting(tables, save, &floors)?;
        Ok(State {
            flags: checked_flags(&save.flags)?,
            event,
            spotted,
            approach: save.approach.clone(),
            wanderer: save.wanderer.clone(),
            seed: save.seed,
            rng: save.rng.clone(),
            level: save.level,
            x: save.x,
            y: save.y,
            facing: save.facing,
            party,
            gold: save.gold,
            keys: save.keys,
            keyring: checked_keyring(tables, &save.keyring)?,
            order,
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

/// The furniture's changes on one floor: secret doors found, named doors shut, plates and
/// buttons left pressed, items taken.
fn furniture_save(level: &Level, floor: &Dungeon, out: &mut FloorSave) {
    for (i, (was, now)) in level.cells.iter().zip(&floor.cells).enumerate() {
        let at = [i as i32 % floor.width, i as i32 / floor.width];
        if *was == Cell::Secret && *now != Cell::Secret {
            out.found.push(at);
        }
        if *now == Cell::Locked && *was != Cell::Locked {
            out.shut.push(at);
        }
        if matches!(
            now,
            Cell::Plate { pressed: true } | Cell::Button { pressed: true }
        ) {
            out.pressed.push(at);
        }
    }
    out.taken = level
        .items
        .iter()
        .filter(|item| !floor.items.iter().any(|left| left.index == item.index))
        .map(|item| item.index)
        .collect();
}

/// Puts a floor's saved furniture back, each against the floor as drawn: a found secret door
/// where one is drawn, a locked door on a door, a press on a plate or button, a taken item the
/// level lists (once).
fn restore_furniture(i: usize, saved: &FloorSave, floor: &mut Dungeon) -> Result<(), SaveError> {
    let bad = |[x, y]: [i32; 2], problem: &str| SaveError::Floor {
        level: i,
        x,
        y,
        problem: problem.to_string(),
    };
    for &at in &saved.found {
        match floor.cell_mut(at[0], at[1]) {
            Some(c @ Cell::Secret) => *c = Cell::Door,
            _ => return Err(bad(at, "saved as a found secret door, but none is there")),
        }
    }
    for &at in &saved.shut {
        // A named door a mechanism shut, or any door the game locked.
        match floor.cell_mut(at[0], at[1]) {
            Some(c @ (Cell::Door | Cell::Secret)) => *c = Cell::Locked,
            _ => return Err(bad(at, "saved as a locked door, but no door is there")),
        }
    }
    for &at in &saved.pressed {
        match floor.cell_mut(at[0], at[1]) {
            Some(Cell::Plate { pressed } | Cell::Button { pressed }) if !*pressed => {
                *pressed = true
            }
            _ => return Err(bad(at, "saved as pressed, but no plate or button is there")),
        }
    }
    for &n in &saved.taken {
        let Some(k) = floor.items.iter().position(|item| item.index == n) else {
            let problem = format!("item {n} taken, but the level has no such item left");
            return Err(bad([-1, -1], &problem));
        };
        floor.items.remove(k);
    }
    Ok(())
}

/// The party in the save's order (each crawlers row once), and that order.
fn ordered_party(tables: &Tables, save: &Save) -> Result<(Vec<Member>, Vec<usize>), SaveError> {
    let party = fresh(tables, save.seed).party;
    if save.order.is_empty() {
        return Ok((party, (0..tables.crawlers.len()).collect()));
    }
    let mut sorted = save.order.clone();
    sorted.sort_unstable();
    if sorted != (0..tables.crawlers.len()).collect::<Vec<_>>() {
        return Err(SaveError::Shape(format!(
            "the party's order {:?} is not each of its {} members once",
            save.order,
            tables.crawlers.len()
        )));
    }
    let ordered = save.order.iter().map(|&i| party[i].clone()).collect();
    Ok((ordered, save.order.clone()))
}

/// The named keys of a save, each one some chest or item in the dungeon holds, none twice.
fn checked_keyring(tables: &Tables, keyring: &[String]) -> Result<Vec<String>, SaveError> {
    for (n, key) in keyring.iter().enumerate() {
        let exists = tables.levels.iter().any(|level| {
            level.cells.iter().any(
                |c| matches!(c, Cell::Chest { loot, .. } if loot.named_key() == Some(key.as_str())),
            ) || level
                .items
                .iter()
                .any(|item| item.loot.named_key() == Some(key.as_str()))
        });
        if !exists || keyring[..n].contains(key) {
            return Err(SaveError::Shape(format!(
                "the key \"{key}\" is not one the dungeon holds, or is carried twice"
            )));
        }
    }
    Ok(keyring.to_vec())
}

/// The story's changes on one floor: locks the game took off, `once` events done, fixed
/// fights that came toward the party.
fn story_save(level: &Level, floor: &Dungeon, out: &mut FloorSave) {
    for (i, (was, now)) in level.cells.iter().zip(&floor.cells).enumerate() {
        if *was == Cell::Locked && *now == Cell::Door {
            out.unlocked
                .push([i as i32 % floor.width, i as i32 / floor.width]);
        }
    }
    out.done = level
        .events
        .iter()
        .zip(&floor.events_done)
        .filter(|(_, done)| **done)
        .map(|(e, _)| e.id.clone())
        .collect();
    out.moved = level
        .encounters
        .iter()
        .zip(&floor.encounters)
        .enumerate()
        .filter(|(_, (drawn, now))| drawn.at != now.spot.at)
        .map(|(fight, (_, now))| MovedFight {
            fight,
            at: now.spot.at,
        })
        .collect();
}

/// Puts a floor's story back, each against the level: an unlocked door where a lock is drawn,
/// a done event that is one of the level's `once` events, a moved fight on a cell it may
/// stand on.
fn restore_story(
    i: usize,
    level: &Level,
    saved: &FloorSave,
    floor: &mut Dungeon,
) -> Result<(), SaveError> {
    let bad = |[x, y]: [i32; 2], problem: String| SaveError::Floor {
        level: i,
        x,
        y,
        problem,
    };
    for &at in &saved.unlocked {
        match floor.cell_mut(at[0], at[1]) {
            Some(c @ Cell::Locked) => *c = Cell::Door,
            _ => {
                return Err(bad(
                    at,
                    "saved as unlocked, but no lock is drawn there".into(),
                ));
            }
        }
    }
    for id in &saved.done {
        let Some(n) = level.events.iter().position(|e| &e.id == id && e.once) else {
            return Err(SaveError::Shape(format!(
                "level {i}: the event \"{id}\" saved as done is not a once event of this level"
            )));
        };
        floor.events_done[n] = true;
    }
    for m in &saved.moved {
        let Some(fight) = floor.encounters.get(m.fight) else {
            return Err(bad(m.at, format!("fight {} moved, no such fight", m.fight)));
        };
        let taken = floor
            .encounters
            .iter()
            .enumerate()
            .any(|(k, e)| k != m.fight && e.spot.at == m.at);
        let cell = floor.cell(m.at[0], m.at[1]);
        if fight.won || taken || !cell.is_walkable() || matches!(cell, Cell::Pit | Cell::Teleporter)
        {
            return Err(bad(m.at, format!("fight {} cannot stand here", m.fight)));
        }
        floor.encounters[m.fight].spot.at = m.at;
    }
    Ok(())
}

/// The flags of a save, sorted, none empty.
fn checked_flags(flags: &[String]) -> Result<Vec<String>, SaveError> {
    if flags.iter().any(|f| f.trim().is_empty()) {
        return Err(SaveError::Shape(
            "the save's flags hold an empty flag".into(),
        ));
    }
    let mut flags = flags.to_vec();
    flags.sort_unstable();
    flags.dedup();
    Ok(flags)
}

/// What the save says waits for the game, against the party's floor: the event in progress
/// (one of the level's, at the party's cell), the spotted group (a fixed fight not won, where
/// it stands, or the wanderer), the groups announced, the wanderer (a group of the level's on a
/// cell it may stand on).
fn restore_waiting(
    tables: &Tables,
    save: &Save,
    floors: &[Dungeon],
) -> Result<(Option<usize>, Option<Spotted>), SaveError> {
    let shape = |m: String| Err(SaveError::Shape(m));
    let level = &tables.levels[save.level];
    let floor = &floors[save.level];
    let event = match &save.event {
        None => None,
        Some(id) => {
            let found = level
                .events
                .iter()
                .position(|e| &e.id == id && e.at == [save.x, save.y]);
            if found.is_none() {
                return shape(format!(
                    "the event in progress: no event \"{id}\" on level {} stands at the party's cell",
                    save.level
                ));
            }
            found
        }
    };
    if let Some(w) = &save.wanderer {
        let [x, y] = w.at;
        let cell = floor.cell(x, y);
        if !level.groups.contains(&w.group) {
            return shape(format!(
                "the wandering group \"{}\" is not one of level {}'s groups",
                w.group, save.level
            ));
        }
        // The party stands on it only while fighting it (it walked into it).
        let fought = save.encounter.as_ref().is_some_and(|f| f.wanderer);
        let on_party = [save.x, save.y] == w.at && !fought;
        if !cell.is_walkable() || on_party || floor.encounter_at(x, y).is_some() {
            return Err(SaveError::Floor {
                level: save.level,
                x,
                y,
                problem: "the wandering group cannot stand here".into(),
            });
        }
    }
    let fixed_ok = |i: usize| floor.encounters.get(i).is_some_and(|e| !e.won);
    for who in &save.approach {
        if let Sighting::Fixed(i) = who
            && floor.encounters.get(*i).is_none()
        {
            return shape(format!(
                "fight {i} was seen, level {} has no such fight",
                save.level
            ));
        }
    }
    if let Some(s) = &save.spotted {
        let fits = match s.who {
            Sighting::Fixed(i) => {
                fixed_ok(i)
                    && floor.encounters[i].spot.at == s.at
                    && floor.encounters[i].spot.group == s.group
            }
            Sighting::Wanderer => save
                .wanderer
                .as_ref()
                .is_some_and(|w| w.at == s.at && w.group == s.group),
        };
        if !fits || !save.approach.contains(&s.who) || save.event.is_some() {
            return shape(format!(
                "the group spotted (\"{}\" at row {}, cell {}) is not one standing there",
                s.group, s.at[1], s.at[0]
            ));
        }
    }
    if save.encounter.is_some() && (save.event.is_some() || save.spotted.is_some()) {
        return shape("a fight and an event or a sighting wait at once".into());
    }
    Ok((event, save.spotted.clone()))
}
