//! Stages and rivals: read from a project's data tables, or built in.
//!
//! A table is a JSON array of row objects. Every row is checked field by field and every
//! problem is kept, so a bad table is reported whole (table, row, field) rather than one error
//! at a time; nothing half-loads. Beyond the fields, a board is checked against the shipped
//! dictionary: every kana drawn on it must be able to read in some word. A built-in stage and
//! rival let the package run with no tables, and the tables Kotodama ships are compiled in here
//! too.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};
use thiserror::Error;

use crate::battle::{FighterSpec, Setup};
use crate::board::{Board, Cell, Pos};
use crate::bot::Skill;
use crate::dict::Dict;
use crate::kana::{FACES, Kana, parse_kana};
use crate::play::MAX_HAND;
use crate::puzzle::Stage;

/// The stage table's name in a project.
pub const STAGES_TABLE: &str = "data/kotoba_stages";
/// The rival table's name in a project.
pub const RIVALS_TABLE: &str = "data/kotoba_rivals";
/// The stage table Kotodama ships.
pub const SHIPPED_STAGES: &str = include_str!("../data/kotoba_stages.json");
/// The rival table Kotodama ships.
pub const SHIPPED_RIVALS: &str = include_str!("../data/kotoba_rivals.json");

/// The player's life in a battle.
pub const PLAYER_LIFE: u32 = 100;
/// The player's hand in a battle.
pub const PLAYER_HAND: usize = 7;
/// Seconds a battle lasts unless a rival says otherwise.
pub const BATTLE_TIME: f32 = 90.0;

/// One thing wrong in a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The row, from 1; 0 for the table as a whole.
    pub row: usize,
    /// The field, empty for the table or row as a whole.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// A table that did not load, with every problem found in it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct TableError {
    /// The table's name, such as `data/kotoba_stages`.
    pub table: String,
    /// Every problem, in row order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", self.table)?;
            if p.row > 0 {
                write!(f, ", row {}", p.row)?;
            }
            if !p.field.is_empty() {
                write!(f, ", field {}", p.field)?;
            }
            write!(f, ": {}", p.message)?;
        }
        Ok(())
    }
}

/// A rival to battle, as a rival table row describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rival {
    /// Its id in the table.
    pub id: String,
    /// Its name.
    pub name: String,
    /// A line that goes with it.
    pub title: String,
    /// Its life.
    pub life: u32,
    /// How well it plays.
    pub skill: Skill,
    /// How many tiles it holds.
    pub hand: usize,
    /// Seconds the battle lasts.
    pub time: f32,
    /// The board to fight on; the built-in battle board when `None`.
    pub board: Option<Board>,
}

impl Rival {
    /// The rival as a bot-played fighter.
    pub fn fighter(&self) -> FighterSpec {
        FighterSpec {
            name: self.name.clone(),
            life: self.life,
            hand: self.hand,
            bot: Some(self.skill),
        }
    }

    /// A battle of `player` (player 0) against this rival (player 1).
    pub fn setup(&self, player: FighterSpec, seed: u64) -> Setup {
        Setup {
            board: self.board.clone().unwrap_or_else(battle_board),
            fighters: [player, self.fighter()],
            time: self.time,
            seed,
            countdown: true,
        }
    }
}

/// The player as a fighter: [`PLAYER_LIFE`], [`PLAYER_HAND`], not played by a bot.
pub fn player(name: &str) -> FighterSpec {
    FighterSpec {
        name: name.to_string(),
        life: PLAYER_LIFE,
        hand: PLAYER_HAND,
        bot: None,
    }
}

/// The name of [`battle_board`]: ひろば, an open square.
pub const BATTLE_BOARD_NAME: &str = "ひろば";

/// The board battles use unless a rival brings its own: open, with a word in the middle.
pub fn battle_board() -> Board {
    let rows = [
        "...........",
        "...........",
        "...........",
        "...........",
        "...........",
        "....ことば....",
        "...........",
        "...........",
        "...........",
        "...........",
        "...........",
    ];
    Board::from_rows(&rows).unwrap_or_else(|_| Board::new(11, 11))
}

/// The stage the package plays when a project has no stage table.
pub fn builtin_stage() -> Stage {
    let rows = [
        "........",
        "........",
        "...うみ...",
        "........",
        "........",
        "........",
    ];
    Stage {
        id: "builtin".into(),
        name: "うみ".into(),
        title: "A first board by the sea".into(),
        board: Board::from_rows(&rows).unwrap_or_else(|_| Board::new(8, 6)),
        stock: Vec::new(),
        tiles: 8,
        hand: 6,
        time: 120.0,
        stars: [60, 300, 700],
        seed: 1,
    }
}

/// The rival the package fights when a project has no rival table.
pub fn builtin_rival() -> Rival {
    Rival {
        id: "builtin".into(),
        name: "こだま".into(),
        title: "An echo that answers slowly".into(),
        life: 80,
        skill: Skill {
            sight: 0.35,
            think: 4.0,
        },
        hand: 6,
        time: BATTLE_TIME,
        board: None,
    }
}

/// The stages Kotodama ships.
pub fn shipped_stages() -> Result<Vec<Stage>, TableError> {
    stages_from_str(STAGES_TABLE, SHIPPED_STAGES)
}

/// The rivals Kotodama ships.
pub fn shipped_rivals() -> Result<Vec<Rival>, TableError> {
    rivals_from_str(RIVALS_TABLE, SHIPPED_RIVALS)
}

/// Reads a stage table from JSON text.
pub fn stages_from_str(table: &str, text: &str) -> Result<Vec<Stage>, TableError> {
    stages_from_value(table, &parse_json(table, text)?)
}

/// Reads a rival table from JSON text.
pub fn rivals_from_str(table: &str, text: &str) -> Result<Vec<Rival>, TableError> {
    rivals_from_value(table, &parse_json(table, text)?)
}

fn parse_json(table: &str, text: &str) -> Result<Value, TableError> {
    serde_json::from_str(text).map_err(|e| TableError {
        table: table.to_string(),
        problems: vec![Problem {
            row: 0,
            field: String::new(),
            message: format!("not JSON: {e}"),
        }],
    })
}

/// Reads a stage table: an array of rows with `id`, `name`, `title`, `board` (rows of text),
/// `stock` (kana, optional), `tiles` (optional), `hand`, `time`, `stars` (three rising
/// scores) and `seed` (optional).
///
/// Besides each field, a stage is refused when it has more tiles than free cells that can
/// ever take one, or a kana on its board that no word of the shipped dictionary can read
/// through; the problem names the stage's id.
pub fn stages_from_value(table: &str, value: &Value) -> Result<Vec<Stage>, TableError> {
    let words = WordPlaces::new(Dict::japanese());
    read_table(table, value, STAGE_FIELDS, |row| {
        let id = row.string("id")?;
        let name = row.string("name")?;
        let title = row.optional_string("title")?;
        let board = row.board("board")?;
        words.check(row, "board", &format!("stage {id:?}"), &board)?;
        let stock = match row.get("stock") {
            None => Vec::new(),
            Some(_) => {
                let text = row.string("stock")?;
                parse_kana(&text)
                    .map_err(|c| row.wrong("stock", format!("{c:?} is not a tile kana")))?
            }
        };
        let tiles = row.optional_count("tiles", 0, 0..=400)?;
        if stock.len() + tiles == 0 {
            return Err(row.wrong("tiles", "the stage has no tiles to place".into()));
        }
        let (free, fillable) = (board.empty_count(), fillable_cells(&board));
        if stock.len() + tiles > fillable {
            let walled = match free - fillable {
                0 => String::new(),
                n => format!(" ({free} free, {n} of them walled off from every kana)"),
            };
            return Err(row.wrong(
                if tiles > 0 { "tiles" } else { "stock" },
                format!(
                    "stage {id:?} has {} tiles to place but only {fillable} free cells can ever \
                     take one{walled}, so it can never be cleared",
                    stock.len() + tiles
                ),
            ));
        }
        let hand = row.count("hand", 1..=MAX_HAND)?;
        let time = row.seconds("time")?;
        let stars = row.stars("stars")?;
        let seed = row.optional_count("seed", 0, 0..=u32::MAX as usize)? as u64;
        Ok(Stage {
            id,
            name,
            title,
            board,
            stock,
            tiles,
            hand,
            time,
            stars,
            seed,
        })
    })
    .and_then(|stages| unique_ids(table, &stages, |s| &s.id).map(|()| stages))
}

/// Reads a rival table: an array of rows with `id`, `name`, `title`, `life`, `sight` (0 to
/// 1), `think` (seconds), `hand`, and optionally `time` and `board`. A board is held to the
/// same rule as a stage's: every kana on it must be able to read in some word.
pub fn rivals_from_value(table: &str, value: &Value) -> Result<Vec<Rival>, TableError> {
    let words = WordPlaces::new(Dict::japanese());
    read_table(table, value, RIVAL_FIELDS, |row| {
        let id = row.string("id")?;
        let name = row.string("name")?;
        let title = row.optional_string("title")?;
        let life = row.count("life", 1..=9999)? as u32;
        let sight = row.number("sight")?;
        if !(sight > 0.0 && sight <= 1.0) {
            return Err(row.wrong("sight", format!("{sight} is not above 0 and at most 1")));
        }
        let think = row.number("think")?;
        if !(0.0..=60.0).contains(&think) {
            return Err(row.wrong("think", format!("{think} is not 0 to 60 seconds")));
        }
        let hand = row.count("hand", 1..=MAX_HAND)?;
        let time = match row.get("time") {
            None => BATTLE_TIME,
            Some(_) => row.seconds("time")?,
        };
        let board = match row.get("board") {
            None => None,
            Some(_) => {
                let board = row.board("board")?;
                words.check(row, "board", &format!("rival {id:?}"), &board)?;
                Some(board)
            }
        };
        Ok(Rival {
            id,
            name,
            title,
            life,
            skill: Skill {
                sight: sight as f32,
                think: think as f32,
            },
            hand,
            time,
            board,
        })
    })
    .and_then(|rivals| unique_ids(table, &rivals, |r| &r.id).map(|()| rivals))
}

/// How many free cells could ever hold a tile: those joined to a kana through cells that are
/// not walls. A tile only goes beside a kana, so a pocket of free cells walled off from every
/// kana stays empty for good.
fn fillable_cells(board: &Board) -> usize {
    let mut seen = vec![false; board.width() * board.height()];
    let index = |p: Pos| p.y * board.width() + p.x;
    let mut todo: Vec<Pos> = board
        .positions()
        .filter(|&p| board.kana(p).is_some())
        .collect();
    for &p in &todo {
        seen[index(p)] = true;
    }
    let mut count = 0;
    while let Some(p) = todo.pop() {
        if board.cell(p) == Cell::Empty {
            count += 1;
        }
        let mut next = vec![Pos::new(p.x + 1, p.y), Pos::new(p.x, p.y + 1)];
        if p.x > 0 {
            next.push(Pos::new(p.x - 1, p.y));
        }
        if p.y > 0 {
            next.push(Pos::new(p.x, p.y - 1));
        }
        for q in next {
            if board.cell(q) != Cell::Wall && !seen[index(q)] {
                seen[index(q)] = true;
                todo.push(q);
            }
        }
    }
    count
}

/// Where each face stands in the dictionary's readings: for a face, every (word, place in the
/// reading) that shows it. Built once per table read.
struct WordPlaces<'d> {
    dict: &'d Dict,
    at: Vec<Vec<(usize, usize)>>,
}

/// A kana drawn on a board that no word can ever read through.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DeadKana {
    pos: Pos,
    kana: Kana,
    /// The length of its run across and down: the stretch of cells, free or kana, between
    /// walls or edges that a word through it must lie in.
    runs: [usize; 2],
}

impl fmt::Display for DeadKana {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (row, column) = (self.pos.y + 1, self.pos.x + 1);
        let k = self.kana;
        if self.runs.iter().all(|&n| n < 2) {
            write!(
                f,
                "the {k} at row {row}, column {column} is walled in: a word is two kana or \
                 more, and walls close it in both across and down"
            )
        } else {
            let cells = |n: usize| {
                if n == 1 {
                    "1 cell".into()
                } else {
                    format!("{n} cells")
                }
            };
            write!(
                f,
                "no word can ever read through the {k} at row {row}, column {column}: none \
                 with {k} in it fits its run across ({}) or down ({}) together with the kana \
                 already there",
                cells(self.runs[0]),
                cells(self.runs[1])
            )
        }
    }
}

impl<'d> WordPlaces<'d> {
    fn new(dict: &'d Dict) -> WordPlaces<'d> {
        let mut at = vec![Vec::new(); FACES];
        for (id, entry) in dict.entries().iter().enumerate() {
            for (i, k) in entry.reading.iter().enumerate() {
                at[k.index()].push((id, i));
            }
        }
        WordPlaces { dict, at }
    }

    /// Fails the row when a kana on `board` can never read in a word, naming every such kana.
    fn check(&self, row: &Row, field: &str, what: &str, board: &Board) -> Result<(), Problem> {
        let dead = self.dead_kana(board);
        if dead.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = dead.iter().map(|d| d.to_string()).collect();
        Err(row.wrong(field, format!("{what}: {}", list.join("; "))))
    }

    /// Every kana on `board` through which no word could read, however the free cells fill.
    ///
    /// A word through a kana lies inside one run (the cells between walls or edges, across or
    /// down), so it can read there exactly when some word showing that kana fits the run at
    /// the kana's place and agrees with every kana already in the cells it would cover; free
    /// cells could take anything. That is decided exactly, word by word, with no search.
    fn dead_kana(&self, board: &Board) -> Vec<DeadKana> {
        let mut dead = Vec::new();
        for pos in board.positions() {
            let Some(kana) = board.kana(pos) else {
                continue;
            };
            let mut runs = [0; 2];
            let mut reads = false;
            for (d, step) in [(1, 0), (0, 1)].into_iter().enumerate() {
                let run = run_through(board, pos, step);
                runs[d] = run.cells.len();
                reads = reads || self.fits(kana, &run);
            }
            if !reads {
                dead.push(DeadKana { pos, kana, runs });
            }
        }
        dead
    }

    /// Whether some word with `kana` at its place fits `run` and the kana already in it.
    fn fits(&self, kana: Kana, run: &Run) -> bool {
        self.at[kana.index()].iter().any(|&(id, i)| {
            let Some(entry) = self.dict.entry(id) else {
                return false;
            };
            let reading = &entry.reading;
            let Some(start) = run.at.checked_sub(i) else {
                return false;
            };
            start + reading.len() <= run.cells.len()
                && reading
                    .iter()
                    .zip(&run.cells[start..])
                    .all(|(&k, &cell)| cell.is_none_or(|c| c == k))
        })
    }
}

/// The cells of one run, `None` for a free cell, and where the kana in question stands in it.
struct Run {
    cells: Vec<Option<Kana>>,
    at: usize,
}

/// The run through `pos` going by `step` ((1, 0) across, (0, 1) down), bounded by walls and
/// the board's edges.
fn run_through(board: &Board, pos: Pos, step: (usize, usize)) -> Run {
    let (dx, dy) = step;
    let mut start = pos;
    while start.x >= dx && start.y >= dy {
        let prev = Pos::new(start.x - dx, start.y - dy);
        if board.cell(prev) == Cell::Wall {
            break;
        }
        start = prev;
    }
    let mut cells = Vec::new();
    let mut p = start;
    while board.cell(p) != Cell::Wall {
        cells.push(board.kana(p));
        p = Pos::new(p.x + dx, p.y + dy);
    }
    let at = (pos.x - start.x) + (pos.y - start.y);
    Run { cells, at }
}

const STAGE_FIELDS: &[&str] = &[
    "id", "name", "title", "board", "stock", "tiles", "hand", "time", "stars", "seed",
];
const RIVAL_FIELDS: &[&str] = &[
    "id", "name", "title", "life", "sight", "think", "hand", "time", "board",
];

fn read_table<T>(
    table: &str,
    value: &Value,
    fields: &[&str],
    read: impl Fn(&Row) -> Result<T, Problem>,
) -> Result<Vec<T>, TableError> {
    let fail = |problems| TableError {
        table: table.to_string(),
        problems,
    };
    let Some(rows) = value.as_array() else {
        return Err(fail(vec![Problem {
            row: 0,
            field: String::new(),
            message: "a table is a JSON array of rows".into(),
        }]));
    };
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, v) in rows.iter().enumerate() {
        let number = i + 1;
        let Some(map) = v.as_object() else {
            problems.push(Problem {
                row: number,
                field: String::new(),
                message: "a row is a JSON object".into(),
            });
            continue;
        };
        let row = Row { number, map };
        if let Some(unknown) = map.keys().find(|k| !fields.contains(&k.as_str())) {
            problems.push(row.wrong(
                unknown,
                format!("unknown field; the fields are {}", fields.join(", ")),
            ));
            continue;
        }
        match read(&row) {
            Ok(t) => out.push(t),
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(fail(problems))
    }
}

fn unique_ids<T>(table: &str, rows: &[T], id: impl Fn(&T) -> &String) -> Result<(), TableError> {
    let mut seen = HashSet::new();
    let problems: Vec<Problem> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !seen.insert(id(r).clone()))
        .map(|(i, r)| Problem {
            row: i + 1,
            field: "id".into(),
            message: format!("{:?} is used by an earlier row", id(r)),
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(TableError {
            table: table.to_string(),
            problems,
        })
    }
}

/// One row being read, so every problem knows its row.
struct Row<'a> {
    number: usize,
    map: &'a Map<String, Value>,
}

impl Row<'_> {
    fn wrong(&self, field: &str, message: String) -> Problem {
        Problem {
            row: self.number,
            field: field.to_string(),
            message,
        }
    }

    fn get(&self, field: &str) -> Option<&Value> {
        self.map.get(field)
    }

    fn need(&self, field: &str) -> Result<&Value, Problem> {
        self.get(field)
            .ok_or_else(|| self.wrong(field, "missing".into()))
    }

    fn string(&self, field: &str) -> Result<String, Problem> {
        let s = self
            .need(field)?
            .as_str()
            .ok_or_else(|| self.wrong(field, "must be a string".into()))?;
        if s.trim().is_empty() {
            return Err(self.wrong(field, "must not be empty".into()));
        }
        Ok(s.to_string())
    }

    fn optional_string(&self, field: &str) -> Result<String, Problem> {
        match self.get(field) {
            None => Ok(String::new()),
            Some(v) => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| self.wrong(field, "must be a string".into())),
        }
    }

    fn number(&self, field: &str) -> Result<f64, Problem> {
        self.need(field)?
            .as_f64()
            .ok_or_else(|| self.wrong(field, "must be a number".into()))
    }

    fn seconds(&self, field: &str) -> Result<f32, Problem> {
        let t = self.number(field)?;
        if !(t > 0.0 && t <= 3600.0) {
            return Err(self.wrong(
                field,
                format!("{t} is not above 0 and at most 3600 seconds"),
            ));
        }
        Ok(t as f32)
    }

    fn count(&self, field: &str, range: std::ops::RangeInclusive<usize>) -> Result<usize, Problem> {
        let v = self.need(field)?;
        let n = v
            .as_u64()
            .ok_or_else(|| self.wrong(field, format!("{v} is not a whole number")))?;
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !range.contains(&n) {
            return Err(self.wrong(
                field,
                format!("{n} is not from {} to {}", range.start(), range.end()),
            ));
        }
        Ok(n)
    }

    fn optional_count(
        &self,
        field: &str,
        default: usize,
        range: std::ops::RangeInclusive<usize>,
    ) -> Result<usize, Problem> {
        match self.get(field) {
            None => Ok(default),
            Some(_) => self.count(field, range),
        }
    }

    fn board(&self, field: &str) -> Result<Board, Problem> {
        let rows = self
            .need(field)?
            .as_array()
            .ok_or_else(|| self.wrong(field, "must be an array of rows of text".into()))?;
        let mut text = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let s = r.as_str().ok_or_else(|| {
                self.wrong(field, format!("row {} of the board is not text", i + 1))
            })?;
            text.push(s);
        }
        let board = Board::from_rows(&text).map_err(|e| self.wrong(field, e.to_string()))?;
        if board.open_cells().next().is_none() {
            return Err(self.wrong(
                field,
                "no free cell touches a kana, so nothing can be placed".into(),
            ));
        }
        Ok(board)
    }

    fn stars(&self, field: &str) -> Result<[u32; 3], Problem> {
        let v = self.need(field)?;
        let list: Option<Vec<u32>> = v.as_array().and_then(|a| {
            a.iter()
                .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
                .collect()
        });
        let Some(list) = list else {
            return Err(self.wrong(field, "must be three whole numbers".into()));
        };
        let Ok(stars) = <[u32; 3]>::try_from(list.as_slice()) else {
            return Err(self.wrong(field, format!("has {} scores, not 3", list.len())));
        };
        if !(stars[0] < stars[1] && stars[1] < stars[2]) {
            return Err(self.wrong(
                field,
                format!("{stars:?} must rise: one star, then two, then three"),
            ));
        }
        Ok(stars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn good_stage() -> Value {
        json!({
            "id": "s1", "name": "うみ", "title": "by the sea",
            "board": ["....", ".うみ.", "...."],
            "stock": "かさ", "tiles": 4, "hand": 5, "time": 60, "stars": [10, 20, 30], "seed": 3
        })
    }

    fn good_rival() -> Value {
        json!({"id": "r1", "name": "かぜ", "title": "", "life": 50, "sight": 0.5, "think": 2, "hand": 6})
    }

    fn stage_problem(change: impl Fn(&mut Map<String, Value>)) -> Problem {
        let mut row = good_stage();
        change(row.as_object_mut().unwrap());
        let err = stages_from_value(STAGES_TABLE, &json!([good_stage(), row])).unwrap_err();
        assert_eq!(err.table, STAGES_TABLE);
        assert_eq!(err.problems.len(), 1, "{err}");
        err.problems[0].clone()
    }

    #[test]
    fn a_good_stage_reads() {
        let stages = stages_from_value(STAGES_TABLE, &json!([good_stage()])).unwrap();
        assert_eq!(stages[0].board.width(), 4);
        assert_eq!(stages[0].stock.len(), 2);
        assert_eq!(stages[0].stars, [10, 20, 30]);
    }

    #[test]
    fn ragged_rows_are_named() {
        let p = stage_problem(|r| {
            r.insert("board".into(), json!(["....", "..."]));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "board"));
        assert!(p.message.contains("row 2"), "{}", p.message);
    }

    #[test]
    fn an_unknown_board_character_is_named() {
        let p = stage_problem(|r| {
            r.insert("board".into(), json!(["..x.", ".うみ."]));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "board"));
        assert!(p.message.contains("'x'"));
    }

    #[test]
    fn a_stock_kana_that_is_not_a_tile_is_named() {
        let p = stage_problem(|r| {
            r.insert("stock".into(), json!("かサ"));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "stock"));
    }

    #[test]
    fn star_scores_out_of_order_are_named() {
        let p = stage_problem(|r| {
            r.insert("stars".into(), json!([30, 20, 40]));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "stars"));
        let p = stage_problem(|r| {
            r.insert("stars".into(), json!([1, 2]));
        });
        assert_eq!(p.field, "stars");
    }

    #[test]
    fn more_tiles_than_free_cells_is_refused_with_the_stage_id() {
        // Two in the stock and twenty dealt, on a board of ten free cells.
        let p = stage_problem(|r| {
            r.insert("tiles".into(), json!(20));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "tiles"));
        assert_eq!(
            p.message,
            "stage \"s1\" has 22 tiles to place but only 10 free cells can ever take one, so \
             it can never be cleared"
        );
        // Exactly as many tiles as cells is fine.
        let mut row = good_stage();
        row["tiles"] = json!(8);
        assert!(stages_from_value(STAGES_TABLE, &json!([row])).is_ok());
        // A stock alone can be too big, and is named.
        let p = stage_problem(|r| {
            r.insert("tiles".into(), json!(0));
            r.insert("stock".into(), json!("かさかさかさかさかさか"));
        });
        assert_eq!(p.field, "stock");
        assert!(p.message.contains("11 tiles"), "{}", p.message);
    }

    #[test]
    fn free_cells_walled_off_from_every_kana_do_not_count() {
        // The bottom row is free but cut off by walls, so only 6 of the 10 free cells count.
        let board = json!(["....", ".うみ.", "####", "...."]);
        let p = stage_problem(|r| {
            r.insert("board".into(), board.clone());
            r.insert("tiles".into(), json!(5));
        });
        assert_eq!(p.field, "tiles");
        assert_eq!(
            p.message,
            "stage \"s1\" has 7 tiles to place but only 6 free cells can ever take one (10 \
             free, 4 of them walled off from every kana), so it can never be cleared"
        );
        let mut row = good_stage();
        row["board"] = board;
        assert!(stages_from_value(STAGES_TABLE, &json!([row])).is_ok());
    }

    #[test]
    fn a_walled_in_kana_is_refused_with_the_stage_id() {
        let p = stage_problem(|r| {
            r.insert("board".into(), json!(["を#..", "#うみ."]));
            r.insert("tiles".into(), json!(0));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "board"));
        assert_eq!(
            p.message,
            "stage \"s1\": the を at row 1, column 1 is walled in: a word is two kana or \
             more, and walls close it in both across and down"
        );
    }

    #[test]
    fn a_kana_no_word_fits_around_is_refused_with_the_stage_id() {
        // No word starts with ー, and its run down is one cell.
        let p = stage_problem(|r| {
            r.insert("board".into(), json!(["ー...", "#うみ."]));
        });
        assert_eq!((p.row, p.field.as_str()), (2, "board"));
        assert_eq!(
            p.message,
            "stage \"s1\": no word can ever read through the ー at row 1, column 1: none with \
             ー in it fits its run across (4 cells) or down (1 cell) together with the kana \
             already there"
        );
        // Every such kana is named, in board order.
        let p = stage_problem(|r| {
            r.insert("board".into(), json!(["ー..を", "#うみ#"]));
        });
        assert!(
            p.message.contains("the ー at row 1, column 1"),
            "{}",
            p.message
        );
        assert!(
            p.message.contains("the を at row 1, column 4"),
            "{}",
            p.message
        );
    }

    #[test]
    fn a_rival_board_with_a_dead_kana_is_refused_with_the_rival_id() {
        let mut r = good_rival();
        r["board"] = json!(["....", ".うみ.", "を#.."]);
        let err = rivals_from_value(RIVALS_TABLE, &json!([r])).unwrap_err();
        assert_eq!(err.problems[0].field, "board");
        assert!(
            err.problems[0]
                .message
                .starts_with("rival \"r1\": no word can ever read through the を at row 3"),
            "{err}"
        );
    }

    fn small_dict() -> Dict {
        Dict::parse("さかな\t魚\tfish\nかさ\t傘\tumbrella\n").unwrap()
    }

    #[test]
    fn the_kana_already_there_can_shut_every_word_out() {
        let d = small_dict();
        let places = WordPlaces::new(&d);
        // さかな fits around さ.な; with ぬ where な must go, nothing reads through さ.
        let open = Board::from_rows(&["#さ.な#"]).unwrap();
        assert_eq!(places.dead_kana(&open), []);
        let shut = Board::from_rows(&["#さ.ぬ#"]).unwrap();
        let dead: Vec<(Pos, char)> = places
            .dead_kana(&shut)
            .iter()
            .map(|d| (d.pos, d.kana.to_char()))
            .collect();
        assert_eq!(dead, [(Pos::new(1, 0), 'さ'), (Pos::new(3, 0), 'ぬ')]);
        // The same さ reads again once a column gives かさ room.
        let shut_across = Board::from_rows(&["..", "#さ.ぬ#"].map(|r| format!("{r:.<5}"))).unwrap();
        assert!(
            places
                .dead_kana(&shut_across)
                .iter()
                .all(|d| d.kana.to_char() != 'さ')
        );
    }

    /// Every way to fill the free cells of `board` with kana from `alphabet`.
    fn fillings(board: &Board, alphabet: &[Kana]) -> Vec<Board> {
        let free: Vec<Pos> = board
            .positions()
            .filter(|&p| board.cell(p) == Cell::Empty)
            .collect();
        let mut out = vec![board.clone()];
        for p in free {
            out = out
                .into_iter()
                .flat_map(|b| {
                    alphabet.iter().map(move |&k| {
                        let mut b = b.clone();
                        b.set(p, Cell::Kana(k));
                        b
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn the_shipped_and_built_in_boards_have_no_dead_kana() {
        let places = WordPlaces::new(Dict::japanese());
        assert_eq!(places.dead_kana(&builtin_stage().board), []);
        assert_eq!(places.dead_kana(&battle_board()), []);
        for s in shipped_stages().unwrap_or_else(|e| panic!("{e}")) {
            assert_eq!(places.dead_kana(&s.board), [], "{}", s.id);
            assert!(
                s.stock.len() + s.tiles <= fillable_cells(&s.board),
                "{}",
                s.id
            );
        }
    }

    #[test]
    fn other_bad_stage_fields_are_named() {
        for (field, value) in [
            ("hand", json!(0)),
            ("time", json!(-5)),
            ("name", json!(3)),
            ("tiles", json!(1.5)),
            ("colour", json!("red")),
        ] {
            let p = stage_problem(|r| {
                r.insert(field.into(), value.clone());
            });
            assert_eq!(p.field, field);
        }
        let p = stage_problem(|r| {
            r.remove("id");
        });
        assert_eq!((p.field.as_str(), p.message.as_str()), ("id", "missing"));
    }

    #[test]
    fn every_bad_row_is_reported() {
        let mut a = good_stage();
        a["hand"] = json!(99);
        let mut b = good_stage();
        b["stars"] = json!([3, 2, 1]);
        let err = stages_from_value(STAGES_TABLE, &json!([a, good_stage(), b])).unwrap_err();
        let rows: Vec<(usize, &str)> = err
            .problems
            .iter()
            .map(|p| (p.row, p.field.as_str()))
            .collect();
        assert_eq!(rows, [(1, "hand"), (3, "stars")]);
        let text = err.to_string();
        assert!(
            text.contains("data/kotoba_stages, row 3, field stars"),
            "{text}"
        );
    }

    #[test]
    fn duplicate_ids_and_non_tables_are_refused() {
        let err =
            stages_from_value(STAGES_TABLE, &json!([good_stage(), good_stage()])).unwrap_err();
        assert_eq!(
            (err.problems[0].row, err.problems[0].field.as_str()),
            (2, "id")
        );
        assert!(stages_from_str(STAGES_TABLE, "{").is_err());
        assert!(stages_from_value(STAGES_TABLE, &json!({"id": 1})).is_err());
    }

    #[test]
    fn a_rival_with_zero_life_is_named() {
        let mut r = good_rival();
        r["life"] = json!(0);
        let err = rivals_from_value(RIVALS_TABLE, &json!([good_rival(), r])).unwrap_err();
        assert_eq!(
            (err.problems[0].row, err.problems[0].field.as_str()),
            (2, "life")
        );
        assert!(
            err.to_string()
                .starts_with("data/kotoba_rivals, row 2, field life")
        );
        let mut r = good_rival();
        r["sight"] = json!(1.5);
        let err = rivals_from_value(RIVALS_TABLE, &json!([r])).unwrap_err();
        assert_eq!(err.problems[0].field, "sight");
    }

    #[test]
    fn a_good_rival_reads_and_sets_up_a_battle() {
        let rivals = rivals_from_value(RIVALS_TABLE, &json!([good_rival()])).unwrap();
        let setup = rivals[0].setup(player("わたし"), 4);
        assert_eq!(setup.fighters[1].life, 50);
        assert_eq!(setup.fighters[0].life, PLAYER_LIFE);
        assert_eq!(setup.board, battle_board());
    }

    #[test]
    fn the_built_in_content_is_sound() {
        let b = builtin_stage();
        assert!(b.board.open_cells().next().is_some());
        assert!(b.stars[0] < b.stars[1] && b.stars[1] < b.stars[2]);
        assert!(builtin_rival().life > 0);
        assert!(battle_board().open_cells().count() > 4);
    }

    #[test]
    fn the_shipped_tables_load() {
        let stages = shipped_stages().unwrap_or_else(|e| panic!("{e}"));
        assert!(stages.len() >= 30, "{} stages", stages.len());
        let rivals = shipped_rivals().unwrap_or_else(|e| panic!("{e}"));
        assert!(rivals.len() >= 8, "{} rivals", rivals.len());
        // Every rival differs from every other in sight, thinking time and life alike.
        let distinct = |key: &dyn Fn(&Rival) -> u32| {
            let mut v: Vec<u32> = rivals.iter().map(key).collect();
            v.sort();
            v.dedup();
            v.len() == rivals.len()
        };
        assert!(distinct(&|r| (r.skill.sight * 100.0).round() as u32));
        assert!(distinct(&|r| (r.skill.think * 10.0).round() as u32));
        assert!(distinct(&|r| r.life));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn reading_any_text_never_panics(text in "\\PC{0,120}") {
            let _ = stages_from_str(STAGES_TABLE, &text);
            let _ = rivals_from_str(RIVALS_TABLE, &text);
        }

        #[test]
        fn a_kana_is_dead_exactly_when_no_filling_of_the_board_reads_it(
            words in prop::collection::vec("[あいう]{2,4}", 1..6),
            rows in prop::collection::vec("[あいう.#]{3}", 1..4),
        ) {
            let d = Dict::from_entries(
                words
                    .iter()
                    .map(|w| crate::dict::Entry {
                        reading: parse_kana(w).unwrap(),
                        written: w.clone(),
                        meaning: "a test word".into(),
                    })
                    .collect(),
            );
            let board = Board::from_rows(&rows).unwrap();
            let free = board.positions().filter(|&p| board.cell(p) == Cell::Empty).count();
            prop_assume!(free <= 5);
            let dead: Vec<Pos> = WordPlaces::new(&d).dead_kana(&board).iter().map(|k| k.pos).collect();
            let alphabet = parse_kana("あいう").unwrap();
            let filled = fillings(&board, &alphabet);
            for pos in board.positions().filter(|&p| board.kana(p).is_some()) {
                let reads_somehow = filled.iter().any(|b| !b.words_at(&d, pos).is_empty());
                prop_assert_eq!(dead.contains(&pos), !reads_somehow, "{:?} at {:?}", board, pos);
            }
        }

        #[test]
        fn fillable_cells_never_exceed_the_free_cells(
            rows in prop::collection::vec("[.#う]{1,6}", 1..6),
        ) {
            if let Ok(board) = Board::from_rows(&rows) {
                let fillable = fillable_cells(&board);
                prop_assert!(fillable <= board.empty_count());
                if board.positions().all(|p| board.cell(p) != Cell::Wall) && board.kana(Pos::new(0, 0)).is_some() {
                    prop_assert_eq!(fillable, board.empty_count());
                }
            }
        }

        #[test]
        fn reading_any_row_never_panics_and_names_the_row(
            hand in any::<i64>(),
            time in any::<f64>(),
            rows in prop::collection::vec("[.#うみかx]{0,5}", 0..4),
            stock in "[かさaー]{0,4}",
            stars in prop::collection::vec(0u32..100, 0..5),
        ) {
            let row = json!({
                "id": "p", "name": "n", "board": rows, "stock": stock,
                "hand": hand, "time": time, "stars": stars
            });
            if let Err(e) = stages_from_value(STAGES_TABLE, &json!([row])) {
                prop_assert!(e.problems.iter().all(|p| p.row == 1 && !p.field.is_empty()));
            }
        }
    }
}
