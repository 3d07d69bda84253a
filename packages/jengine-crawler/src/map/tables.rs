//! The three tables, loaded: level rows turned into checked [`Level`]s, the monster and party
//! rows checked, and the errors that name the level, row and cell at fault.
//!
//! Only [`Tables::from_json`] makes [`Tables`], and it runs every check in `checks`, so
//! a crawl never starts from tables that were not checked.

use super::cells::{Cell, Crawler, EncounterSpot, Facing, MonsterKind, cell_in};
use super::checks::{Carry, build_level, check_between};
use super::fields::{Decor, Item, ItemRow, Mechanism, NamedDoor, Spinner, Teleport, TrapRow};
use super::story::{EventSpot, Link, check_targets};
use serde::Deserialize;
use std::fmt;

/// A level row as written in the levels table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LevelRow {
    pub(crate) name: String,
    pub(crate) map: Vec<String>,
    #[serde(default)]
    pub(crate) start: Option<[i32; 2]>,
    #[serde(default)]
    pub(crate) facing: Option<Facing>,
    #[serde(default)]
    pub(crate) monsters: Vec<String>,
    #[serde(default)]
    pub(crate) chests: Vec<String>,
    #[serde(default)]
    pub(crate) traps: Vec<TrapRow>,
    #[serde(default)]
    pub(crate) encounters: Vec<EncounterSpot>,
    #[serde(default)]
    pub(crate) encounter_rate: f64,
    #[serde(default)]
    pub(crate) groups: Vec<String>,
    #[serde(default)]
    pub(crate) encounter_grace: u32,
    #[serde(default)]
    pub(crate) doors: Vec<NamedDoor>,
    #[serde(default)]
    pub(crate) levers: Vec<Mechanism>,
    #[serde(default)]
    pub(crate) plates: Vec<Mechanism>,
    #[serde(default)]
    pub(crate) buttons: Vec<Mechanism>,
    #[serde(default)]
    pub(crate) teleports: Vec<Teleport>,
    #[serde(default)]
    pub(crate) spinners: Vec<Spinner>,
    #[serde(default)]
    pub(crate) items: Vec<ItemRow>,
    #[serde(default)]
    pub(crate) decor: Vec<Decor>,
    #[serde(default)]
    pub(crate) walls: Option<String>,
    #[serde(default)]
    pub(crate) events: Vec<EventSpot>,
    #[serde(default)]
    pub(crate) links: Vec<Link>,
    #[serde(default)]
    pub(crate) sight: u32,
}

/// Where a monster starts on a level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonsterStart {
    /// Index into the monsters table.
    pub kind: usize,
    /// Cell.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// A checked level: the drawing turned into cells, and everything its row says.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// Its name.
    pub name: String,
    /// Cells across.
    pub width: i32,
    /// Rows down.
    pub height: i32,
    /// The cells, row by row, as they are before anyone arrives.
    pub cells: Vec<Cell>,
    /// Where the party starts when it arrives with no stairs to come out of.
    pub start: (i32, i32),
    /// The way it faces there, if the row says.
    pub facing: Option<Facing>,
    /// The monsters drawn on it.
    pub monsters: Vec<MonsterStart>,
    /// Fights waiting on cells.
    pub encounters: Vec<EncounterSpot>,
    /// The chance of a random fight per step onto open floor.
    pub encounter_rate: f64,
    /// The groups random fights draw from.
    pub groups: Vec<String>,
    /// Quiet steps before a random fight can come.
    pub encounter_grace: u32,
    /// The doors the row names.
    pub doors: Vec<NamedDoor>,
    /// One entry per `L`: what pulling it opens and shuts.
    pub levers: Vec<Mechanism>,
    /// One entry per `_`: what stepping on it opens and shuts.
    pub plates: Vec<Mechanism>,
    /// One entry per `B`: what pressing it opens and shuts.
    pub buttons: Vec<Mechanism>,
    /// One entry per `T`: where it sends the party.
    pub teleports: Vec<Teleport>,
    /// How the `%` cells turn the party (a spinner with no entry turns at random).
    pub spinners: Vec<Spinner>,
    /// Items lying on the floor before anyone arrives.
    pub items: Vec<Item>,
    /// Decorations on wall faces.
    pub decor: Vec<Decor>,
    /// The floor's wall set, a name in the sheet's `sets` (`None`: the sheet's own faces).
    pub walls: Option<String>,
    /// Events on cells, in the row's order.
    pub events: Vec<EventSpot>,
    /// Links from cells and stairs to cells of named levels.
    pub links: Vec<Link>,
    /// How many cells away a group standing in the party's sight is spotted (0: never; a fixed
    /// fight's own `sight` wins).
    pub sight: u32,
}

impl Level {
    /// The link leaving from (x, y), if any.
    pub fn link_at(&self, x: i32, y: i32) -> Option<&Link> {
        self.links.iter().find(|l| l.at == [x, y])
    }

    /// The cell at (x, y); anything off the drawing is rock.
    pub fn cell(&self, x: i32, y: i32) -> &Cell {
        cell_in(&self.cells, self.width, self.height, x, y)
    }

    /// The first cell drawn with this symbol, in reading order.
    pub fn find(&self, symbol: char) -> Option<(i32, i32)> {
        let i = self.cells.iter().position(|c| c.symbol() == symbol)?;
        Some((i as i32 % self.width, i as i32 / self.width))
    }

    /// Whether (x, y) is on the drawing.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    /// The door the row names `name`.
    pub fn door_named(&self, name: &str) -> Option<&NamedDoor> {
        self.doors.iter().find(|d| d.name == name)
    }

    /// The named door at (x, y), if the row names it.
    pub fn door_at(&self, x: i32, y: i32) -> Option<&NamedDoor> {
        self.doors.iter().find(|d| d.at == [x, y])
    }

    /// Whether the door at (x, y) is a gate: a lever, plate or button names it, so only they
    /// open it.
    pub fn is_gate(&self, x: i32, y: i32) -> bool {
        self.door_at(x, y).is_some_and(|door| {
            self.mechanisms()
                .any(|m| m.opens.contains(&door.name) || m.shuts.contains(&door.name))
        })
    }

    /// Every lever, plate and button entry.
    pub fn mechanisms(&self) -> impl Iterator<Item = &Mechanism> {
        self.levers.iter().chain(&self.plates).chain(&self.buttons)
    }

    /// The lever, plate or button entry at (x, y).
    pub fn mechanism_at(&self, x: i32, y: i32) -> Option<&Mechanism> {
        self.mechanisms().find(|m| m.at == [x, y])
    }

    /// The teleporter entry at (x, y).
    pub fn teleport_at(&self, x: i32, y: i32) -> Option<&Teleport> {
        self.teleports.iter().find(|t| t.at == [x, y])
    }

    /// The spinner entry at (x, y) (a spinner without one turns at random).
    pub fn spinner_at(&self, x: i32, y: i32) -> Option<&Spinner> {
        self.spinners.iter().find(|t| t.at == [x, y])
    }

    /// The original drawing, row by row.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width as usize)
            .map(|row| row.iter().map(Cell::symbol).collect())
            .collect()
    }
}

/// The three tables a crawl is built from, checked. Only [`Tables::from_json`] makes one, so
/// a crawl never starts from tables that were not checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Tables {
    pub(crate) levels: Vec<Level>,
    pub(crate) monsters: Vec<MonsterKind>,
    pub(crate) crawlers: Vec<Crawler>,
}

/// The level, row and cell a problem was found at. Rows and cells count from 0, like `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Which level, counting from 1.
    pub level: usize,
    /// Its name, when the row got that far.
    pub name: String,
    /// The row of the drawing.
    pub row: Option<i32>,
    /// The cell in that row.
    pub cell: Option<i32>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}", self.level)?;
        if !self.name.is_empty() {
            write!(f, " ({})", self.name)?;
        }
        if let Some(row) = self.row {
            write!(f, ", row {row}")?;
        }
        if let Some(cell) = self.cell {
            write!(f, ", cell {cell}")?;
        }
        Ok(())
    }
}

/// What is wrong with a level.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The drawing has no rows.
    #[error("the map has no rows")]
    EmptyMap,
    /// A row is not as wide as the first.
    #[error("the row is {got} cells wide, the first row is {want}")]
    RaggedRow {
        /// Its width.
        got: usize,
        /// The first row's.
        want: usize,
    },
    /// A symbol not in the legend.
    #[error("'{0}' is not in the legend (. # + = A L > C O M < ^ S T % D _ B)")]
    UnknownSymbol(char),
    /// Neither stairs down nor a goal fight.
    #[error("no way down: draw a > (or, on the last floor, give a fight \"goal\": true)")]
    NoWayDown,
    /// Stairs down that cannot be walked to.
    #[error("the way down cannot be reached from the start")]
    WayDownUnreachable,
    /// No start and no stairs up to start on.
    #[error("no start: give \"start\" or draw a <")]
    NoStart,
    /// The start is off the drawing or in something solid.
    #[error("the party starts inside a wall")]
    StartInWall,
    /// An `M` with no name for it.
    #[error("a monster is drawn here but the level's \"monsters\" list is empty")]
    UnnamedMonster,
    /// An `M` whose name the monsters table lacks.
    #[error("the monster \"{0}\" is not in the monsters table")]
    UndefinedMonster(String),
    /// Stairs up only reachable through a locked door.
    #[error("the stairs up are behind a locked door")]
    UpBehindKey,
    /// Stairs up that rock shuts off from the start and the stairs down.
    #[error(
        "the stairs up are walled off: rock stands between them and both the start and the stairs down"
    )]
    UpWalledOff,
    /// Stairs up only reachable across a pit, which drops the party instead.
    #[error(
        "the stairs up are cut off by a pit: the only way to them crosses one, and a pit drops the party a floor"
    )]
    UpBeyondPit,
    /// Locks the party can walk up to but no key it can have, and no lever, ever opens.
    #[error(
        "a locked door no key can reach: every key to be had before it is spent or behind it, and no lever opens it (locks at {0})"
    )]
    LockWithoutKey(String),
    /// The way down needs more keys than the party can have by then.
    #[error(
        "more locked doors than keys on the way down: {locks} locked on the way, {keys} key(s) to be had (stuck at the locks at {cells})"
    )]
    TooFewKeys {
        /// The fewest locks between the party's arrival and the way down.
        locks: u32,
        /// Every key the party can get to, carried down or found on this floor.
        keys: u64,
        /// The locks it is left facing, as `row r, cell c` joined by `; `.
        cells: String,
    },
    /// A locked door with no key or lever anywhere to open it.
    #[error(
        "a locked door nobody can open: no key in a chest on this floor or above, no lever on this floor"
    )]
    NoKeyForLock,
    /// A fixed fight off the drawing.
    #[error("a fight is placed off the map")]
    FightOffMap,
    /// A fixed fight in rock.
    #[error("a fight is placed inside a wall")]
    FightInWall,
    /// A fixed fight no path leads to.
    #[error("a fight is placed on a cell nobody can reach")]
    FightUnreachable,
    /// A goal fight above the last floor.
    #[error("a \"goal\" fight is only the way out on the last floor")]
    GoalNotLast,
    /// Random fights with no groups to draw.
    #[error("random fights (encounter_rate {0}) with no groups to draw from")]
    NoGroups(f64),
    /// A rate that is not a chance.
    #[error("encounter_rate {0} is not between 0 and 1")]
    BadRate(f64),
    /// A `C` with no loot listed for it.
    #[error("a chest is drawn here but the level's \"chests\" list has no loot left for it")]
    ChestWithoutLoot,
    /// More loot than chests.
    #[error("the \"chests\" list has {0} more loot than chests drawn")]
    LootWithoutChest(usize),
    /// Loot not written `kind:value`.
    #[error(
        "loot \"{0}\" is not kind:value (gold: and heal: need a whole number, key: a number or a name)"
    )]
    BadLoot(String),
    /// A `^` with no names to give it.
    #[error("a trap is drawn here but the level's \"traps\" list is empty")]
    UnnamedTrap,
    /// A named door on a cell that is no door.
    #[error("the door \"{0}\" is named on a cell that is not a door (+ = or S)")]
    DoorNotADoor(String),
    /// A door name that is empty or used twice on a floor.
    #[error("the door name \"{0}\" is empty or names two doors on this floor")]
    DoorNameTaken(String),
    /// A key given to a door that is not locked.
    #[error("the door \"{0}\" takes a key but is not a locked door (=)")]
    KeyNotOnLock(String),
    /// A door that needs a named key nobody can find.
    #[error(
        "the door \"{door}\" opens with the key \"{key}\", and no chest or item on this floor or above holds it"
    )]
    NamedKeyMissing {
        /// The door.
        door: String,
        /// The key.
        key: String,
    },
    /// A symbol that needs a row entry drawn without one.
    #[error("a {symbol} is drawn here but the level's \"{field}\" list has no entry for it")]
    MissingEntry {
        /// The list.
        field: &'static str,
        /// The symbol.
        symbol: char,
    },
    /// An entry on a cell drawn with another symbol.
    #[error("this \"{field}\" entry stands on a '{found}', not a {want}")]
    EntryOffSymbol {
        /// The list.
        field: &'static str,
        /// The symbol it belongs on.
        want: char,
        /// The symbol drawn there.
        found: char,
    },
    /// Two entries of one list on one cell.
    #[error("two \"{0}\" entries stand on this cell")]
    TwoEntries(&'static str),
    /// A lever, plate or button naming a door the floor lacks.
    #[error(
        "this \"{field}\" entry names the door \"{name}\", which is not one of this floor's doors"
    )]
    UnknownDoor {
        /// The list.
        field: &'static str,
        /// The name.
        name: String,
    },
    /// A teleporter that sends the party somewhere it cannot go.
    #[error("the teleporter sends the party to {0}")]
    BadTeleport(String),
    /// A spinner's turn outside 1 to 3.
    #[error("a spinner's turn {0} is not 1 to 3 quarter turns")]
    BadSpin(u32),
    /// An item not on open floor.
    #[error("an item lies here, but items lie only on open floor (.)")]
    ItemNotOnFloor,
    /// Decor on an open cell.
    #[error("decor hangs only on a solid cell (# S B L)")]
    DecorNotOnWall,
    /// Decor on a face nobody can see.
    #[error("decor on the face toward {0} looks into rock: the cell on that side must be open")]
    DecorFacesRock(String),
    /// An empty wall set name, or decor art.
    #[error("\"{0}\" is empty")]
    EmptyName(&'static str),
    /// A pit on the last floor.
    #[error("a pit on the last floor leads nowhere")]
    PitOnLastFloor,
    /// A pit over a cell the party cannot land on.
    #[error("the pit drops the party to the same cell on the next floor, which is {0}")]
    BadLanding(String),
    /// Two fights on one cell.
    #[error("two fights are placed on this cell")]
    TwoFights,
    /// A fight on stairs.
    #[error("a fight is placed on the stairs")]
    FightOnStairs,
    /// A fight where a monster starts.
    #[error("a fight is placed where a monster starts")]
    FightOnMonster,
    /// A fight or a random group with no name.
    #[error("a group with an empty name")]
    EmptyGroup,
    /// An event id that is empty or used twice on a level.
    #[error("the event id \"{0}\" is empty or used twice on this level")]
    EventIdTaken(String),
    /// An event on a cell the party does not stop on.
    #[error("the event \"{id}\" stands {what}")]
    BadEventCell {
        /// The event.
        id: String,
        /// Where it stands.
        what: &'static str,
    },
    /// An event's choices that do not make a list to choose from.
    #[error("the event \"{id}\" has a bad choice list: {what}")]
    BadChoice {
        /// The event.
        id: String,
        /// What is wrong.
        what: String,
    },
    /// An event naming a flag with no name.
    #[error("the event \"{0}\" names an empty flag")]
    EmptyFlag(String),
    /// A link leaving from a cell the party cannot step onto, or one that moves it first.
    #[error("a link leaves from a cell that is {0}")]
    LinkFrom(&'static str),
    /// A link or an event's choice leading nowhere the party can go.
    #[error("the link or choice leads to {0}")]
    BadTarget(String),
    /// A sight too far to be a corridor's.
    #[error("a group seen from {0} cells: sight is 0 to 32")]
    BadSight(u32),
    /// The row is not the shape of a level row.
    #[error("{0}")]
    Row(String),
}

/// Why the tables would not load.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapError {
    /// A table is not JSON of the right shape.
    #[error("{table} table: {message}")]
    Table {
        /// `levels`, `monsters` or `crawlers`.
        table: &'static str,
        /// What serde said, with line and column.
        message: String,
    },
    /// A row of the monsters or crawlers table is wrong.
    #[error("{table} table, row {row}: {message}")]
    Row {
        /// `monsters` or `crawlers`.
        table: &'static str,
        /// The row, counting from 0.
        row: usize,
        /// What is wrong.
        message: String,
    },
    /// A level is wrong.
    #[error("{at}: {problem}")]
    Level {
        /// Where.
        at: Place,
        /// What.
        problem: Problem,
    },
}

impl Tables {
    /// Loads and checks the three tables, each a JSON array of rows.
    pub fn from_json(levels: &str, monsters: &str, crawlers: &str) -> Result<Tables, MapError> {
        let monsters: Vec<MonsterKind> = parse_table("monsters", monsters)?;
        let crawlers: Vec<Crawler> = parse_table("crawlers", crawlers)?;
        let rows: Vec<serde_json::Value> = parse_table("levels", levels)?;
        let mut parsed = Vec::with_capacity(rows.len());
        for (i, value) in rows.into_iter().enumerate() {
            let at = Place {
                level: i + 1,
                name: value
                    .get("name")
                    .and_then(|n| n.as_str())
                    .unwrap_or("")
                    .to_string(),
                row: None,
                cell: None,
            };
            let row: LevelRow = serde_json::from_value(value).map_err(|e| MapError::Level {
                at,
                problem: Problem::Row(e.to_string()),
            })?;
            parsed.push(row);
        }
        Tables::from_rows(parsed, monsters, crawlers)
    }

    fn from_rows(
        rows: Vec<LevelRow>,
        monsters: Vec<MonsterKind>,
        crawlers: Vec<Crawler>,
    ) -> Result<Tables, MapError> {
        check_monsters(&monsters)?;
        check_crawlers(&crawlers)?;
        if rows.is_empty() {
            return Err(MapError::Table {
                table: "levels",
                message: "there are no levels".into(),
            });
        }
        let last = rows.len() - 1;
        let mut levels = Vec::with_capacity(rows.len());
        let mut carry = Carry::default();
        for (i, row) in rows.into_iter().enumerate() {
            let level = build_level(i, row, &monsters, i == last, &mut carry)?;
            levels.push(level);
        }
        check_between(&levels)?;
        check_targets(&levels)?;
        Ok(Tables {
            levels,
            monsters,
            crawlers,
        })
    }

    /// The floors, top first (never empty).
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// The monster kinds (may be empty).
    pub fn monsters(&self) -> &[MonsterKind] {
        &self.monsters
    }

    /// The party, slot by slot (empty for a game that keeps its own party).
    pub fn crawlers(&self) -> &[Crawler] {
        &self.crawlers
    }

    /// A number that tells one dungeon from another, so a save is not loaded into the wrong one.
    /// It covers everything the tables say: the drawings and names, where each monster starts
    /// and what each kind is, the fixed fights, the loot in every chest, the traps' names, the
    /// start, the random fights and every party member's numbers. Change any of them and a
    /// save from before is refused.
    pub fn fingerprint(&self) -> String {
        let mut h = Fnv::default();
        h.count(self.levels.len());
        for level in &self.levels {
            h.text(&level.name);
            h.count(level.width as usize);
            for cell in &level.cells {
                h.byte(cell.symbol() as u8);
                match cell {
                    Cell::Chest { loot, .. } => {
                        h.text(&loot.kind);
                        h.text(&loot.value);
                    }
                    Cell::Trap { name, damage, .. } => {
                        h.text(name);
                        // Only when given, so a dungeon written before damage keeps its number.
                        if *damage > 0 {
                            h.count(*damage as usize);
                        }
                    }
                    _ => {}
                }
            }
            h.int(level.start.0);
            h.int(level.start.1);
            h.text(&level.facing.map(|f| format!("{f:?}")).unwrap_or_default());
            h.count(level.monsters.len());
            for m in &level.monsters {
                h.count(m.kind);
                h.int(m.x);
                h.int(m.y);
            }
            h.count(level.encounters.len());
            for e in &level.encounters {
                h.int(e.at[0]);
                h.int(e.at[1]);
                h.text(&e.group);
                h.text(&e.text);
                h.text(e.art.as_deref().unwrap_or(""));
                h.byte(u8::from(e.art.is_some()) | u8::from(e.goal) << 1);
                // Only when given, so a dungeon written before sight keeps its number.
                if let Some(sight) = e.sight {
                    h.count(sight as usize);
                }
            }
            h.bytes(&level.encounter_rate.to_bits().to_le_bytes());
            h.count(level.groups.len());
            for g in &level.groups {
                h.text(g);
            }
            h.count(level.encounter_grace as usize);
            level.furniture_into(&mut h);
            level.story_into(&mut h);
        }
        h.count(self.monsters.len());
        for m in &self.monsters {
            h.text(&m.name);
            for n in [m.hp, m.attack, m.sight] {
                h.count(n as usize);
            }
            h.text(m.art.as_deref().unwrap_or(""));
            h.byte(u8::from(m.art.is_some()));
        }
        h.count(self.crawlers.len());
        for c in &self.crawlers {
            h.text(&c.name);
            for n in [c.hp, c.attack, c.reach] {
                h.count(n as usize);
            }
        }
        format!("{:016x}", h.0)
    }
}

impl Level {
    /// Feeds the row's furniture (doors, mechanisms, teleporters, spinners, items, decor, the
    /// wall set) to the fingerprint; nothing at all when the row has none, so a dungeon
    /// written before them keeps its number.
    fn furniture_into(&self, h: &mut Fnv) {
        let items: Vec<(&[i32; 2], String, &Option<String>)> = self
            .items
            .iter()
            .map(|i| (&i.at, i.loot.text(), &i.art))
            .collect();
        let all = (
            &self.doors,
            &self.levers,
            &self.plates,
            &self.buttons,
            &self.teleports,
            &self.spinners,
            items,
            &self.decor,
            &self.walls,
        );
        let text = serde_json::to_string(&all).unwrap_or_default();
        if text != "[[],[],[],[],[],[],[],[],null]" {
            h.text(&text);
        }
    }
}

impl Level {
    /// Feeds the row's events, links and sight to the fingerprint; nothing when it has none.
    fn story_into(&self, h: &mut Fnv) {
        if self.events.is_empty() && self.links.is_empty() && self.sight == 0 {
            return;
        }
        let all = (&self.events, &self.links, self.sight);
        h.text(&serde_json::to_string(&all).unwrap_or_default());
    }
}

/// FNV-1a: stable across builds and platforms, unlike `DefaultHasher`. Every text and list is
/// fed with its length first, so moving a character from one name to the next changes it.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.byte(*b);
        }
    }

    fn count(&mut self, n: usize) {
        self.bytes(&(n as u64).to_le_bytes());
    }

    fn int(&mut self, n: i32) {
        self.bytes(&n.to_le_bytes());
    }

    fn text(&mut self, text: &str) {
        self.count(text.len());
        self.bytes(text.as_bytes());
    }
}

fn parse_table<T: serde::de::DeserializeOwned>(
    table: &'static str,
    json: &str,
) -> Result<Vec<T>, MapError> {
    let values: Vec<serde_json::Value> =
        serde_json::from_str(json).map_err(|e| MapError::Table {
            table,
            message: e.to_string(),
        })?;
    values
        .into_iter()
        .enumerate()
        .map(|(row, v)| {
            serde_json::from_value(v).map_err(|e| MapError::Row {
                table,
                row,
                message: e.to_string(),
            })
        })
        .collect()
}

fn check_monsters(monsters: &[MonsterKind]) -> Result<(), MapError> {
    for (row, m) in monsters.iter().enumerate() {
        let fail = |message: String| MapError::Row {
            table: "monsters",
            row,
            message,
        };
        if m.name.is_empty() {
            return Err(fail("a monster needs a name".into()));
        }
        if m.hp == 0 {
            return Err(fail(format!("{} has no hp", m.name)));
        }
        if monsters[..row].iter().any(|o| o.name == m.name) {
            return Err(fail(format!("{} is defined twice", m.name)));
        }
    }
    Ok(())
}

fn check_crawlers(crawlers: &[Crawler]) -> Result<(), MapError> {
    for (row, c) in crawlers.iter().enumerate() {
        let fail = |message: String| MapError::Row {
            table: "crawlers",
            row,
            message,
        };
        if row >= 4 {
            return Err(fail("the formation has four slots".into()));
        }
        if c.hp == 0 {
            return Err(fail(format!("{} has no hp", c.name)));
        }
        if c.reach == 0 || c.reach > 4 {
            return Err(fail(format!(
                "{}'s reach {} is not 1 to 4",
                c.name, c.reach
            )));
        }
    }
    Ok(())
}
