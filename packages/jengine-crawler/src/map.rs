//! Levels drawn as ASCII in a data table, the monster and party tables beside them, and the
//! live floor (`Dungeon`) the crawl walks on.
//!
//! Everything is checked once, when the tables load: a level that would strand the party, a
//! name nobody defined or a fight nobody can reach is refused with the level, row and cell at
//! fault, so nothing breaks fifty steps into a game.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

/// One cell of a floor, as it is now (doors remember being opened, chests being emptied).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// `.` (and `M`, where a monster starts): open floor.
    Floor,
    /// `#`: solid rock.
    Wall,
    /// `+`: a shut door; using it opens it.
    Door,
    /// `=`: a locked door; opens with a key or a lever on the same floor.
    Locked,
    /// A door that has been opened: passable, drawn with its arch.
    Open,
    /// `A`: an archway, a doorway with no door.
    Arch,
    /// `L`: a lever set in a wall; pulling it opens every locked door on its floor.
    Lever {
        /// Whether it has been pulled (it only goes one way).
        pulled: bool,
    },
    /// `C`: a chest standing in an open cell.
    Chest {
        /// What is inside.
        loot: Loot,
        /// Whether it has been emptied.
        opened: bool,
    },
    /// `O`: a pit in the floor; stepping in drops the party a floor.
    Pit,
    /// `>`: stairs down.
    Down,
    /// `<`: stairs up (out of the dungeon on the top floor).
    Up,
    /// `^`: a trap, floor until the party steps on it, then it goes off once.
    Trap {
        /// Its name, from the level's `traps` list.
        name: String,
        /// Whether it has gone off.
        sprung: bool,
    },
}

impl Cell {
    /// Solid cells stop sight and the picture: rock, shut and locked doors, levers.
    pub fn is_solid(&self) -> bool {
        matches!(
            self,
            Cell::Wall | Cell::Door | Cell::Locked | Cell::Lever { .. }
        )
    }

    /// Whether the party (or a monster) can stand here.
    pub fn is_walkable(&self) -> bool {
        !self.is_solid()
    }

    /// The cell a legend symbol stands for, when the symbol needs nothing from the level row
    /// (everything but `C`, `^` and `M`).
    pub fn plain(symbol: char) -> Option<Cell> {
        Some(match symbol {
            '.' => Cell::Floor,
            '#' => Cell::Wall,
            '+' => Cell::Door,
            '=' => Cell::Locked,
            'A' => Cell::Arch,
            'L' => Cell::Lever { pulled: false },
            '>' => Cell::Down,
            '<' => Cell::Up,
            'O' => Cell::Pit,
            _ => return None,
        })
    }

    /// The legend symbol the cell was drawn with (an opened door reads as an archway).
    pub fn symbol(&self) -> char {
        match self {
            Cell::Floor => '.',
            Cell::Wall => '#',
            Cell::Door => '+',
            Cell::Locked => '=',
            Cell::Open | Cell::Arch => 'A',
            Cell::Lever { .. } => 'L',
            Cell::Chest { .. } => 'C',
            Cell::Pit => 'O',
            Cell::Down => '>',
            Cell::Up => '<',
            Cell::Trap { .. } => '^',
        }
    }
}

/// What a chest holds: `kind:value`. `gold`, `key` and `heal` are the crawl's own; any other
/// kind is announced for the game to hand out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loot {
    /// The part before the colon.
    pub kind: String,
    /// The part after it.
    pub value: String,
}

impl Loot {
    /// Parses `kind:value`; `gold`, `key` and `heal` need a whole number.
    pub fn parse(text: &str) -> Result<Loot, Problem> {
        let bad = || Problem::BadLoot(text.to_string());
        let (kind, value) = text.split_once(':').ok_or_else(bad)?;
        let (kind, value) = (kind.trim(), value.trim());
        if kind.is_empty() || value.is_empty() {
            return Err(bad());
        }
        if matches!(kind, "gold" | "key" | "heal") && value.parse::<u32>().is_err() {
            return Err(bad());
        }
        Ok(Loot {
            kind: kind.to_string(),
            value: value.to_string(),
        })
    }

    /// The number for `gold`, `key` and `heal` (0 for anything else).
    pub fn amount(&self) -> u32 {
        self.value.parse().unwrap_or(0)
    }
}

/// The four ways the party can face. North is up the drawing (row numbers falling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    /// Up the drawing.
    North,
    /// Right.
    East,
    /// Down the drawing.
    South,
    /// Left.
    West,
}

impl Facing {
    /// All four, clockwise from north.
    pub const ALL: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];

    /// One cell forward, as (dx, dy).
    pub fn ahead(self) -> (i32, i32) {
        match self {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        }
    }

    /// One cell to the right, as (dx, dy).
    pub fn right(self) -> (i32, i32) {
        self.turned(1).ahead()
    }

    /// Turned right by `steps` quarters (negative turns left).
    pub fn turned(self, steps: i32) -> Facing {
        let index = Facing::ALL.iter().position(|f| *f == self).unwrap_or(0) as i32;
        Facing::ALL[(index + steps).rem_euclid(4) as usize]
    }
}

/// A fight waiting on a cell, from the level row's `encounters`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EncounterSpot {
    /// Where it waits, as `[x, y]` (cell, row).
    pub at: [i32; 2],
    /// The group the game fights, by the game's own name.
    pub group: String,
    /// What the game shows when it starts.
    #[serde(default)]
    pub text: String,
    /// The art that stands in the picture until it is won.
    #[serde(default)]
    pub art: Option<String>,
    /// Winning it is the way out of the last floor.
    #[serde(default)]
    pub goal: bool,
}

/// A monster kind, one row of the monsters table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MonsterKind {
    /// The name levels use for it.
    pub name: String,
    /// Its health.
    pub hp: u32,
    /// The most it bites for.
    #[serde(default = "one")]
    pub attack: u32,
    /// How many cells away it notices the party (when it can also see it).
    #[serde(default = "default_sight")]
    pub sight: u32,
    /// The art the picture names for it (its name if not given).
    #[serde(default)]
    pub art: Option<String>,
}

/// A party member, one row of the crawlers table; the row's place is their slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crawler {
    /// Their name.
    pub name: String,
    /// Their health.
    #[serde(default = "default_hp")]
    pub hp: u32,
    /// The most they hit for.
    #[serde(default = "default_attack")]
    pub attack: u32,
    /// The furthest slot they can fight from (the front two always can).
    #[serde(default = "one")]
    pub reach: u32,
}

fn one() -> u32 {
    1
}
fn default_sight() -> u32 {
    5
}
fn default_hp() -> u32 {
    10
}
fn default_attack() -> u32 {
    2
}

/// A level row as written in the levels table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelRow {
    name: String,
    map: Vec<String>,
    #[serde(default)]
    start: Option<[i32; 2]>,
    #[serde(default)]
    facing: Option<Facing>,
    #[serde(default)]
    monsters: Vec<String>,
    #[serde(default)]
    chests: Vec<String>,
    #[serde(default)]
    traps: Vec<String>,
    #[serde(default)]
    encounters: Vec<EncounterSpot>,
    #[serde(default)]
    encounter_rate: f64,
    #[serde(default)]
    groups: Vec<String>,
    #[serde(default)]
    encounter_grace: u32,
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
}

impl Level {
    /// The cell at (x, y); anything off the drawing is rock.
    pub fn cell(&self, x: i32, y: i32) -> &Cell {
        cell_in(&self.cells, self.width, self.height, x, y)
    }

    /// The first cell drawn with this symbol, in reading order.
    pub fn find(&self, symbol: char) -> Option<(i32, i32)> {
        let i = self.cells.iter().position(|c| c.symbol() == symbol)?;
        Some((i as i32 % self.width, i as i32 / self.width))
    }

    /// The original drawing, row by row.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width as usize)
            .map(|row| row.iter().map(Cell::symbol).collect())
            .collect()
    }
}

static ROCK: Cell = Cell::Wall;

fn cell_in(cells: &[Cell], width: i32, height: i32, x: i32, y: i32) -> &Cell {
    if x < 0 || y < 0 || x >= width || y >= height {
        &ROCK
    } else {
        // A hand-built floor whose cells fall short of its size reads as rock there.
        cells.get((y * width + x) as usize).unwrap_or(&ROCK)
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
    #[error("'{0}' is not in the legend (. # + = A L > C O M < ^)")]
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
    #[error("loot \"{0}\" is not kind:value (gold:, key: and heal: need a whole number)")]
    BadLoot(String),
    /// A `^` with no names to give it.
    #[error("a trap is drawn here but the level's \"traps\" list is empty")]
    UnnamedTrap,
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
        let mut key_above = false;
        for (i, row) in rows.into_iter().enumerate() {
            let level = build_level(i, row, &monsters, i == last, &mut key_above)?;
            levels.push(level);
        }
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
    pub fn fingerprint(&self) -> String {
        // FNV-1a over the drawings and names: stable across builds, unlike `DefaultHasher`.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                hash ^= u64::from(*b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for level in &self.levels {
            eat(level.name.as_bytes());
            for row in level.rows() {
                eat(row.as_bytes());
                eat(b"/");
            }
        }
        for m in &self.monsters {
            eat(m.name.as_bytes());
        }
        for c in &self.crawlers {
            eat(c.name.as_bytes());
        }
        format!("{hash:016x}")
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

fn build_level(
    index: usize,
    row: LevelRow,
    monsters: &[MonsterKind],
    last: bool,
    key_above: &mut bool,
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
                    let name = row.traps[traps % row.traps.len()].clone();
                    traps += 1;
                    Cell::Trap {
                        name,
                        sprung: false,
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
    };
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
    if downs.is_empty() && !(last && goal) {
        return Err(fail(None, None, Problem::NoWayDown));
    }
    if !downs.is_empty() && !downs.iter().any(|&(x, y)| all[(y * width + x) as usize]) {
        let (x, y) = downs[0];
        return Err(fail(Some(y), Some(x), Problem::WayDownUnreachable));
    }

    // The stairs up must be reachable from wherever the party can stand on arrival
    // without spending a key, or a party that came up could be shut in.
    let mut arrivals = downs.clone();
    arrivals.push(start);
    let keyless = flood(&level, &arrivals, |c| !c.is_solid() || *c == Cell::Door);
    for (x, y) in positions(&level, |c| *c == Cell::Up) {
        if !keyless[(y * width + x) as usize] {
            return Err(fail(Some(y), Some(x), Problem::UpBehindKey));
        }
    }

    let has = |pred: &dyn Fn(&Cell) -> bool| level.cells.iter().any(pred);
    *key_above |= has(&|c| matches!(c, Cell::Chest { loot, .. } if loot.kind == "key"));
    let lever = has(&|c| matches!(c, Cell::Lever { .. }));
    if let Some((x, y)) = level.find('=')
        && !*key_above
        && !lever
    {
        return Err(fail(Some(y), Some(x), Problem::NoKeyForLock));
    }
    Ok(level)
}

fn opens(cell: &Cell) -> bool {
    matches!(cell, Cell::Door | Cell::Locked)
}

fn positions(level: &Level, pred: impl Fn(&Cell) -> bool) -> Vec<(i32, i32)> {
    (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .filter(|&(x, y)| pred(level.cell(x, y)))
        .collect()
}

/// Cells reachable from `from` through cells `pass` lets through; a pit is entered, not crossed.
fn flood(level: &Level, from: &[(i32, i32)], pass: impl Fn(&Cell) -> bool) -> Vec<bool> {
    let mut seen = vec![false; level.cells.len()];
    let mut queue = VecDeque::new();
    for &(x, y) in from {
        if level.cell(x, y).is_walkable() {
            seen[(y * level.width + x) as usize] = true;
            queue.push_back((x, y));
        }
    }
    while let Some((x, y)) = queue.pop_front() {
        if *level.cell(x, y) == Cell::Pit {
            continue;
        }
        for f in Facing::ALL {
            let (dx, dy) = f.ahead();
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= level.width || ny >= level.height {
                continue;
            }
            let i = (ny * level.width + nx) as usize;
            if !seen[i] && pass(level.cell(nx, ny)) {
                seen[i] = true;
                queue.push_back((nx, ny));
            }
        }
    }
    seen
}

/// A monster on a floor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Index into the monsters table.
    pub kind: usize,
    /// Cell.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Health left.
    pub hp: u32,
    /// Once awake, it hunts the party for good.
    pub awake: bool,
    /// The art the picture names for it.
    pub art: String,
}

/// A fixed fight on a floor, and whether it has been won.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Encounter {
    /// What the level row said.
    pub spot: EncounterSpot,
    /// Won fights are gone for good.
    pub won: bool,
}

/// One floor as it is now: its cells, what lives on it, its fixed fights and what has been seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Dungeon {
    /// Cells across.
    pub width: i32,
    /// Rows down.
    pub height: i32,
    /// The cells, row by row.
    pub cells: Vec<Cell>,
    /// The monsters still alive.
    pub monsters: Vec<Monster>,
    /// The fixed fights.
    pub encounters: Vec<Encounter>,
    /// Which cells the party has seen, for the automap.
    pub seen: Vec<bool>,
}

impl Dungeon {
    /// The floor as it is before anyone arrives. `kinds` is the monsters table the level was
    /// checked against; a monster whose kind it lacks is left out.
    pub fn new(level: &Level, kinds: &[MonsterKind]) -> Dungeon {
        let monsters = level
            .monsters
            .iter()
            .filter_map(|m| {
                let kind = kinds.get(m.kind)?;
                Some(Monster {
                    kind: m.kind,
                    x: m.x,
                    y: m.y,
                    hp: kind.hp,
                    awake: false,
                    art: kind.art.clone().unwrap_or_else(|| kind.name.clone()),
                })
            })
            .collect();
        Dungeon {
            width: level.width,
            height: level.height,
            cells: level.cells.clone(),
            monsters,
            encounters: level
                .encounters
                .iter()
                .map(|spot| Encounter {
                    spot: spot.clone(),
                    won: false,
                })
                .collect(),
            seen: vec![false; level.cells.len()],
        }
    }

    /// A bare floor from a drawing with no monsters or fights, for tests, examples and benches.
    /// Symbols outside the legend, and ragged rows, read as rock.
    pub fn from_rows(rows: &[&str]) -> Dungeon {
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
        let height = rows.len() as i32;
        let mut cells = Vec::with_capacity((width * height) as usize);
        for row in rows {
            let mut n = 0;
            for symbol in row.chars() {
                n += 1;
                cells.push(match symbol {
                    'M' => Cell::Floor,
                    'C' => Cell::Chest {
                        loot: Loot {
                            kind: "gold".into(),
                            value: "1".into(),
                        },
                        opened: false,
                    },
                    '^' => Cell::Trap {
                        name: "trap".into(),
                        sprung: false,
                    },
                    other => Cell::plain(other).unwrap_or(Cell::Wall),
                });
            }
            cells.extend(std::iter::repeat_n(Cell::Wall, width as usize - n));
        }
        Dungeon {
            width,
            height,
            seen: vec![false; cells.len()],
            cells,
            monsters: Vec::new(),
            encounters: Vec::new(),
        }
    }

    /// The first cell equal to `cell`, in reading order.
    pub fn find(&self, cell: &Cell) -> Option<(i32, i32)> {
        let i = self.cells.iter().position(|c| c == cell)?;
        Some((i as i32 % self.width, i as i32 / self.width))
    }

    /// Whether (x, y) is on the floor's drawing.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    /// The cell at (x, y); anything off the drawing is rock.
    pub fn cell(&self, x: i32, y: i32) -> &Cell {
        cell_in(&self.cells, self.width, self.height, x, y)
    }

    /// The cell at (x, y) to change, if it is on the drawing.
    pub fn cell_mut(&mut self, x: i32, y: i32) -> Option<&mut Cell> {
        if self.contains(x, y) {
            self.cells.get_mut((y * self.width + x) as usize)
        } else {
            None
        }
    }

    /// The monster standing at (x, y), if any.
    pub fn monster_at(&self, x: i32, y: i32) -> Option<usize> {
        self.monsters.iter().position(|m| m.x == x && m.y == y)
    }

    /// The fixed fight not yet won waiting at (x, y), if any.
    pub fn encounter_at(&self, x: i32, y: i32) -> Option<usize> {
        self.encounters
            .iter()
            .position(|e| !e.won && e.spot.at == [x, y])
    }

    /// Marks (x, y) seen; off the drawing is ignored.
    pub fn see(&mut self, x: i32, y: i32) {
        if self.contains(x, y)
            && let Some(seen) = self.seen.get_mut((y * self.width + x) as usize)
        {
            *seen = true;
        }
    }

    /// Whether (x, y) has been seen.
    pub fn is_seen(&self, x: i32, y: i32) -> bool {
        self.contains(x, y) && self.seen.get((y * self.width + x) as usize) == Some(&true)
    }

    /// Gameplay sight: a straight line between the two cells' middles crosses nothing solid.
    /// Stricter than the picture's rule, which shows anything a ray through open cells reaches.
    pub fn line_of_sight(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let steps = dx.abs().max(dy.abs());
        // Sampling four times per cell crossed touches every cell the segment passes through
        // closely enough for a grid of whole cells, and needs no special case for diagonals.
        let samples = steps * 4;
        for i in 1..samples {
            let t = i as f64 / samples as f64;
            let x = (from.0 as f64 + dx as f64 * t + 0.5).floor() as i32;
            let y = (from.1 as f64 + dy as f64 * t + 0.5).floor() as i32;
            if (x, y) != from && (x, y) != to && self.cell(x, y).is_solid() {
                return false;
            }
        }
        true
    }

    /// The automap: the floor as drawn, with what has not been seen blank, a fight not yet won
    /// as `E` and a trap that has not gone off as floor.
    pub fn automap(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| {
                        if !self.is_seen(x, y) {
                            ' '
                        } else if self.encounter_at(x, y).is_some() {
                            'E'
                        } else {
                            match self.cell(x, y) {
                                Cell::Trap { sprung: false, .. } => '.',
                                cell => cell.symbol(),
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// What has been seen, as a string per floor: a row of `1` (seen) and `0` per line of the
    /// drawing, rows separated by `/`.
    pub fn seen_string(&self) -> String {
        let rows: Vec<String> = self
            .seen
            .chunks(self.width.max(1) as usize)
            .map(|row| row.iter().map(|s| if *s { '1' } else { '0' }).collect())
            .collect();
        rows.join("/")
    }

    /// Reads back what `seen_string` wrote; `None` if it is not the shape of this floor.
    pub fn parse_seen(&self, text: &str) -> Option<Vec<bool>> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.height as usize {
            return None;
        }
        let mut seen = Vec::with_capacity(self.seen.len());
        for row in rows {
            if row.len() != self.width as usize {
                return None;
            }
            for c in row.chars() {
                seen.push(match c {
                    '1' => true,
                    '0' => false,
                    _ => return None,
                });
            }
        }
        Some(seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const MONSTERS: &str =
        r#"[{ "name": "rat", "hp": 3 }, { "name": "bat", "hp": 2, "sight": 3 }]"#;
    const PARTY: &str = r#"[{ "name": "Vess", "reach": 3 }]"#;

    fn level(name: &str, map: &[&str]) -> Value {
        json!({ "name": name, "map": map })
    }

    fn load(levels: &[Value]) -> Result<Tables, MapError> {
        Tables::from_json(&Value::from(levels.to_vec()).to_string(), MONSTERS, PARTY)
    }

    fn fails(levels: &[Value]) -> String {
        match load(levels) {
            Ok(_) => panic!("the tables loaded"),
            Err(e) => e.to_string(),
        }
    }

    fn with(mut v: Value, key: &str, value: Value) -> Value {
        v[key] = value;
        v
    }

    const TOP: [&str; 4] = ["#####", "#<.>#", "#...#", "#####"];

    #[test]
    fn a_good_dungeon_loads_with_everything_in_its_place() {
        let top = json!({
            "name": "Top",
            "map": ["#######", "#<.M.C#", "#^.^..#", "#..M>.#", "#######"],
            "monsters": ["rat", "bat"],
            "chests": ["gold:5"],
            "traps": ["dart", "net"],
            "encounters": [{ "at": [2, 3], "group": "kobolds", "text": "Kobolds!" }],
            "encounter_rate": 0.1, "groups": ["rats"], "encounter_grace": 3
        });
        let tables = load(&[top, level("Bottom", &["#####", "#<.>#", "#####"])]).unwrap();
        let top = &tables.levels[0];
        assert_eq!((top.width, top.height), (7, 5));
        assert_eq!(top.start, (1, 1), "the start defaults to the stairs up");
        assert_eq!(top.monsters.len(), 2);
        assert_eq!((top.monsters[0].kind, top.monsters[1].kind), (0, 1));
        let traps: Vec<&Cell> = top.cells.iter().filter(|c| c.symbol() == '^').collect();
        assert_eq!(
            traps,
            vec![
                &Cell::Trap {
                    name: "dart".into(),
                    sprung: false
                },
                &Cell::Trap {
                    name: "net".into(),
                    sprung: false
                }
            ]
        );
        assert_eq!(top.encounter_grace, 3);
        assert_eq!(top.rows()[1], "#<...C#", "a monster's cell is floor");
        assert_eq!(tables.crawlers[0].reach, 3);
    }

    #[test]
    fn a_row_of_the_wrong_width_names_its_row() {
        let e = fails(&[level("Top", &["#####", "#<.>#", "#..#", "#####"])]);
        assert_eq!(
            e,
            "level 1 (Top), row 2: the row is 4 cells wide, the first row is 5"
        );
    }

    #[test]
    fn a_symbol_outside_the_legend_names_its_cell() {
        let e = fails(&[level("Top", &["#####", "#<.>#", "#.x.#", "#####"])]);
        assert_eq!(
            e,
            "level 1 (Top), row 2, cell 2: 'x' is not in the legend (. # + = A L > C O M < ^)"
        );
    }

    #[test]
    fn a_level_with_no_way_down_fails() {
        let e = fails(&[level("Top", &["#####", "#<..#", "#####"])]);
        assert_eq!(
            e,
            "level 1 (Top): no way down: draw a > (or, on the last floor, give a fight \"goal\": true)"
        );
        let walled = fails(&[level("Top", &["#######", "#<.#.>#", "#######"])]);
        assert_eq!(
            walled,
            "level 1 (Top), row 1, cell 5: the way down cannot be reached from the start"
        );
    }

    #[test]
    fn a_goal_fight_is_the_last_floors_way_out_and_only_there() {
        let goal = json!([{ "at": [2, 1], "group": "chief", "goal": true }]);
        let last = with(
            level("End", &["#####", "#<..#", "#####"]),
            "encounters",
            goal.clone(),
        );
        assert!(load(&[level("Top", &TOP), last.clone()]).is_ok());
        let e = fails(&[with(level("Top", &TOP), "encounters", goal), last]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 2: a \"goal\" fight is only the way out on the last floor"
        );
    }

    #[test]
    fn a_party_starting_in_a_wall_fails() {
        let e = fails(&[with(level("Top", &TOP), "start", json!([0, 2]))]);
        assert_eq!(
            e,
            "level 1 (Top), row 2, cell 0: the party starts inside a wall"
        );
        let off = fails(&[with(level("Top", &TOP), "start", json!([40, -2]))]);
        assert_eq!(
            off,
            "level 1 (Top), row -2, cell 40: the party starts inside a wall"
        );
        let none = fails(&[level("Top", &["#####", "#..>#", "#####"])]);
        assert_eq!(none, "level 1 (Top): no start: give \"start\" or draw a <");
    }

    #[test]
    fn an_undefined_monster_fails_at_its_cell() {
        let map = ["#####", "#<M>#", "#####"];
        let e = fails(&[with(level("Top", &map), "monsters", json!(["dragon"]))]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 2: the monster \"dragon\" is not in the monsters table"
        );
        let e = fails(&[level("Top", &map)]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 2: a monster is drawn here but the level's \"monsters\" list is empty"
        );
        let spare = fails(&[with(level("Top", &TOP), "monsters", json!(["ghoul"]))]);
        assert_eq!(
            spare,
            "level 1 (Top): the monster \"ghoul\" is not in the monsters table"
        );
    }

    #[test]
    fn stairs_up_behind_a_key_fail() {
        let map = ["#######", "#.<=.>#", "#######"];
        let row = with(level("Top", &map), "chests", json!([]));
        let e = fails(&[with(row, "start", json!([5, 1]))]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 2: the stairs up are behind a locked door"
        );
        // Behind a plain door is fine: it opens without a key.
        let ok = with(
            level("Top", &["#######", "#.<+.>#", "#######"]),
            "start",
            json!([5, 1]),
        );
        assert!(load(&[ok]).is_ok());
    }

    #[test]
    fn a_locked_door_nobody_can_open_fails() {
        let map = ["#######", "#<.=.>#", "#######"];
        let e = fails(&[level("Top", &map)]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 3: a locked door nobody can open: no key in a chest on this floor or above, no lever on this floor"
        );
        let keyed = with(
            level("Top", &["#######", "#<C=.>#", "#######"]),
            "chests",
            json!(["key:1"]),
        );
        assert!(load(&[keyed]).is_ok());
        assert!(load(&[level("Top", &["#######", "#<.=.>#", "##L####"])]).is_ok());
    }

    #[test]
    fn a_fight_nobody_can_reach_fails() {
        let map = ["#######", "#<.>#.#", "#######"];
        let at = |x: i32, y: i32| json!([{ "at": [x, y], "group": "rats" }]);
        let e = fails(&[with(level("Top", &map), "encounters", at(5, 1))]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 5: a fight is placed on a cell nobody can reach"
        );
        let e = fails(&[with(level("Top", &map), "encounters", at(4, 1))]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 4: a fight is placed inside a wall"
        );
        let e = fails(&[with(level("Top", &map), "encounters", at(9, 9))]);
        assert_eq!(
            e,
            "level 1 (Top), row 9, cell 9: a fight is placed off the map"
        );
    }

    #[test]
    fn random_fights_need_groups_and_a_rate_that_is_a_chance() {
        let e = fails(&[with(level("Top", &TOP), "encounter_rate", json!(0.2))]);
        assert_eq!(
            e,
            "level 1 (Top): random fights (encounter_rate 0.2) with no groups to draw from"
        );
        let e = fails(&[with(level("Top", &TOP), "encounter_rate", json!(1.5))]);
        assert_eq!(
            e,
            "level 1 (Top): encounter_rate 1.5 is not between 0 and 1"
        );
    }

    #[test]
    fn chests_and_their_loot_must_match() {
        let map = ["######", "#<CC>#", "######"];
        let e = fails(&[with(level("Top", &map), "chests", json!(["gold:1"]))]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 3: a chest is drawn here but the level's \"chests\" list has no loot left for it"
        );
        let e = fails(&[with(
            level("Top", &map),
            "chests",
            json!(["gold:1", "key:1", "heal:2"]),
        )]);
        assert_eq!(
            e,
            "level 1 (Top): the \"chests\" list has 1 more loot than chests drawn"
        );
        let e = fails(&[with(
            level("Top", &map),
            "chests",
            json!(["gold:1", "gold:lots"]),
        )]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 3: loot \"gold:lots\" is not kind:value (gold:, key: and heal: need a whole number)"
        );
        assert!(
            load(&[with(
                level("Top", &map),
                "chests",
                json!(["gold:1", "item:healing potion"])
            )])
            .is_ok()
        );
    }

    #[test]
    fn a_trap_needs_a_name() {
        let e = fails(&[level("Top", &["#####", "#<^>#", "#####"])]);
        assert_eq!(
            e,
            "level 1 (Top), row 1, cell 2: a trap is drawn here but the level's \"traps\" list is empty"
        );
    }

    #[test]
    fn later_levels_are_named_by_number_and_name() {
        let e = fails(&[level("Top", &TOP), level("Deep", &["####", "#<.#", "####"])]);
        assert!(e.starts_with("level 2 (Deep): no way down"), "{e}");
    }

    #[test]
    fn broken_tables_say_which_and_where() {
        let e = Tables::from_json("[{", MONSTERS, PARTY)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("levels table: EOF while parsing"), "{e}");
        let e = Tables::from_json("[]", MONSTERS, PARTY)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "levels table: there are no levels");
        let levels = Value::from(vec![level("Top", &TOP)]).to_string();
        let e = Tables::from_json(&levels, r#"[{"name":"rat","hp":0}]"#, PARTY).unwrap_err();
        assert_eq!(e.to_string(), "monsters table, row 0: rat has no hp");
        let e = Tables::from_json(
            &levels,
            r#"[{"name":"a","hp":1},{"name":"a","hp":1}]"#,
            PARTY,
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "monsters table, row 1: a is defined twice"
        );
        let e = Tables::from_json(&levels, MONSTERS, r#"[{"name":"V","reach":7}]"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "crawlers table, row 0: V's reach 7 is not 1 to 4"
        );
        let five = r#"[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}]"#;
        let e = Tables::from_json(&levels, MONSTERS, five).unwrap_err();
        assert_eq!(
            e.to_string(),
            "crawlers table, row 4: the formation has four slots"
        );
        let typo = Value::from(vec![with(level("Top", &TOP), "encounter_rat", json!(1))]);
        let e = Tables::from_json(&typo.to_string(), MONSTERS, PARTY)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("level 1 (Top): unknown field `encounter_rat`"),
            "{e}"
        );
    }

    #[test]
    fn the_readme_example_loads() {
        let row = json!({
            "name": "Kobold Halls",
            "map": ["#########", "#<..C..M#", "#.#####.#", "#.#^..#.#", "#..+..=>#", "#########"],
            "start": [1, 1], "facing": "east", "monsters": ["kobold"], "chests": ["key:1"],
            "traps": ["poison needle"],
            "encounters": [{ "at": [5, 3], "group": "chief", "text": "The chief blocks the way.",
                             "art": "m_chief", "goal": false }],
            "encounter_rate": 0.08, "groups": ["kobolds", "rats"], "encounter_grace": 5
        });
        let monsters =
            r#"[{ "name": "kobold", "hp": 6, "attack": 2, "sight": 5, "art": "m_kobold" }]"#;
        let crawlers = r#"[{ "name": "Vess", "hp": 12, "attack": 3, "reach": 3 }]"#;
        let tables = Tables::from_json(&Value::from(vec![row]).to_string(), monsters, crawlers);
        assert_eq!(tables.unwrap().levels[0].start, (1, 1));
    }

    #[test]
    fn a_game_with_no_party_and_no_monsters_loads() {
        let levels = Value::from(vec![level("Top", &TOP)]).to_string();
        let tables = Tables::from_json(&levels, "[]", "[]").unwrap();
        assert!(tables.crawlers.is_empty() && tables.monsters.is_empty());
    }

    #[test]
    fn line_of_sight_is_stopped_by_walls_not_by_open_floor() {
        let d = Dungeon::from_rows(&["#######", "#.....#", "#..#..#", "#.....#", "#######"]);
        assert!(d.line_of_sight((1, 1), (5, 1)));
        assert!(!d.line_of_sight((1, 2), (5, 2)), "the pillar is in the way");
        assert!(d.line_of_sight((1, 1), (5, 3)) == d.line_of_sight((5, 3), (1, 1)));
        assert!(d.line_of_sight((2, 2), (2, 2)));
    }

    #[test]
    fn the_automap_blanks_the_unseen_and_keeps_secrets() {
        let mut d = Dungeon::from_rows(&["#####", "#.^.#", "#####"]);
        d.encounters.push(Encounter {
            spot: EncounterSpot {
                at: [3, 1],
                group: "g".into(),
                text: String::new(),
                art: None,
                goal: false,
            },
            won: false,
        });
        for x in 0..4 {
            d.see(x, 1);
        }
        assert_eq!(d.automap(), vec!["     ", "#..E ", "     "]);
        let text = d.seen_string();
        assert_eq!(text, "00000/11110/00000");
        assert_eq!(d.parse_seen(&text), Some(d.seen.clone()));
        assert_eq!(d.parse_seen("0000/11110/00000"), None);
    }

    #[test]
    fn facing_turns_round_the_compass() {
        assert_eq!(Facing::North.turned(1), Facing::East);
        assert_eq!(Facing::North.turned(-1), Facing::West);
        assert_eq!(Facing::West.turned(6), Facing::East);
        assert_eq!(Facing::South.right(), (-1, 0));
    }
}
