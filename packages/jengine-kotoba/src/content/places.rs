//! What a board can ever hold, however its free cells fill: how many free cells a tile can
//! ever reach, and which kana drawn on it no word can ever read through.
//!
//! A word through a kana lies inside one run (the cells between walls or edges), so whether a
//! kana can read is decided exactly, word by word against its two runs, with no search.

use std::fmt;

use crate::board::{Board, Cell, Pos};
use crate::dict::Dict;
use crate::kana::{FACES, Kana};

/// How many free cells could ever hold a tile: those joined to a kana through cells that are
/// not walls. A tile only goes beside a kana, so a pocket of free cells walled off from every
/// kana stays empty for good.
pub(super) fn fillable_cells(board: &Board) -> usize {
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
pub(super) struct WordPlaces<'d> {
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
    /// Every face's places in `dict`'s readings.
    pub(super) fn new(dict: &'d Dict) -> WordPlaces<'d> {
        let mut at = vec![Vec::new(); FACES];
        for (id, entry) in dict.entries().iter().enumerate() {
            for (i, k) in entry.reading.iter().enumerate() {
                at[k.index()].push((id, i));
            }
        }
        WordPlaces { dict, at }
    }

    /// Fails when a kana on `board` can never read in a word, naming `what` the board is and
    /// every such kana.
    pub(super) fn check(&self, what: &str, board: &Board) -> Result<(), String> {
        let dead = self.dead_kana(board);
        if dead.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = dead.iter().map(|d| d.to_string()).collect();
        Err(format!("{what}: {}", list.join("; ")))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::tests::stage_problem;
    use crate::content::{battle_board, builtin_stage, shipped_stages};
    use crate::kana::parse_kana;
    use proptest::prelude::*;
    use serde_json::json;

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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

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
    }
}
