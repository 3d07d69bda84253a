//! Stages and rivals: read from a project's data tables, or built in.
//!
//! A table is a JSON array of row objects. Every row is checked field by field and every
//! problem is kept, so a bad table is reported whole (table, row, field) rather than one error
//! at a time; nothing half-loads. Beyond the fields, a board is checked against the shipped
//! dictionary: every kana drawn on it must be able to read in some word. A built-in stage and
//! rival let the package run with no tables, and the tables Kotodama ships are compiled in here
//! too.
//!
//! Beside it: `content/table.rs`, a table read row by row with every problem kept, and
//! `content/places.rs`, what a board can ever hold (the cells a tile can reach, the kana no word
//! can read through).

use serde_json::Value;

use crate::battle::{FighterSpec, Setup};
use crate::board::Board;
use crate::bot::Skill;
use crate::dict::Dict;
use crate::kana::parse_kana;
use crate::play::MAX_HAND;
use crate::puzzle::Stage;

mod places;
mod table;

pub use table::{Problem, TableError};

use places::{WordPlaces, fillable_cells};
use table::{parse_json, read_table, unique_ids};

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
        life: 82,
        skill: Skill {
            sight: 0.16,
            think: 6.0,
        },
        hand: 7,
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
        words
            .check(&format!("stage {id:?}"), &board)
            .map_err(|m| row.wrong("board", m))?;
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
                words
                    .check(&format!("rival {id:?}"), &board)
                    .map_err(|m| row.wrong("board", m))?;
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

const STAGE_FIELDS: &[&str] = &[
    "id", "name", "title", "board", "stock", "tiles", "hand", "time", "stars", "seed",
];
const RIVAL_FIELDS: &[&str] = &[
    "id", "name", "title", "life", "sight", "think", "hand", "time", "board",
];

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Map, json};

    pub(crate) fn good_stage() -> Value {
        json!({
            "id": "s1", "name": "うみ", "title": "by the sea",
            "board": ["....", ".うみ.", "...."],
            "stock": "かさ", "tiles": 4, "hand": 5, "time": 60, "stars": [10, 20, 30], "seed": 3
        })
    }

    pub(crate) fn good_rival() -> Value {
        json!({"id": "r1", "name": "かぜ", "title": "", "life": 50, "sight": 0.5, "think": 2, "hand": 6})
    }

    pub(crate) fn stage_problem(change: impl Fn(&mut Map<String, Value>)) -> Problem {
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
