//! The grid and the rule: which words a tile reads in, across and down.
//!
//! A tile sits in one run of kana across and one down. A word through it is any stretch of
//! that run covering the tile which the dictionary knows, so a run need not be a word itself.
//! In each direction only the longest words count: a word lying inside a longer word through
//! the same tile is dropped, so it is never scored twice.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::dict::{Dict, Node};
use crate::kana::{FACES, Kana, TileStats};

/// The widest and tallest a board may be.
pub const MAX_SIDE: usize = 32;

/// A cell's place on the board, from the top-left corner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Column, from 0 on the left.
    pub x: usize,
    /// Row, from 0 at the top.
    pub y: usize,
}

impl Pos {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }
}

/// What one square of the grid holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Not part of the board: nothing goes here and no word reads through it.
    Wall,
    /// A free cell.
    Empty,
    /// A kana, pre-placed or played.
    Kana(Kana),
}

/// The way a word reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Left to right.
    Across,
    /// Top to bottom.
    Down,
}

impl Dir {
    fn step(self) -> (usize, usize) {
        match self {
            Dir::Across => (1, 0),
            Dir::Down => (0, 1),
        }
    }
}

/// A dictionary word lying on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Word {
    /// Its index in the dictionary.
    pub entry: usize,
    /// Which way it reads.
    pub dir: Dir,
    /// Its first kana's cell.
    pub start: Pos,
    /// How many kana it has.
    pub len: usize,
}

impl Word {
    /// The cells it covers, first kana first.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        let (dx, dy) = self.dir.step();
        (0..self.len).map(move |i| Pos::new(self.start.x + dx * i, self.start.y + dy * i))
    }

    /// The points it is worth: the sum of its kana's values times one less than its length.
    pub fn points(&self, dict: &Dict, stats: &TileStats) -> u32 {
        let Some(entry) = dict.entry(self.entry) else {
            return 0;
        };
        let sum: u32 = entry.reading.iter().map(|&k| stats.value(k)).sum();
        sum * (self.len as u32).saturating_sub(1)
    }
}

/// What is wrong with a board drawn as text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// There are no rows, or the rows are empty.
    #[error("the board has no cells")]
    Empty,
    /// Wider or taller than [`MAX_SIDE`].
    #[error("the board is {width}x{height}; the most is {MAX_SIDE}x{MAX_SIDE}")]
    TooBig {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A row of another length than the first.
    #[error("row {row} has {found} cells, but the first row has {expected}")]
    Ragged {
        /// Row number, from 1.
        row: usize,
        /// The first row's length.
        expected: usize,
        /// This row's length.
        found: usize,
    },
    /// A character that is not `.`, `#` or a tile kana.
    #[error("row {row}, column {column}: {found:?} is not '.', '#' or a tile kana")]
    Unknown {
        /// Row number, from 1.
        row: usize,
        /// Column number, from 1.
        column: usize,
        /// The character found.
        found: char,
    },
}

/// The play area: a rectangle of walls, free cells and kana.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
}

/// Faces, as a set of bits by [`Kana::index`].
pub type FaceSet = u128;

const _: () = assert!(FACES <= 128);

impl Board {
    /// An empty board with no walls; sides are clamped to 1..=[`MAX_SIDE`].
    pub fn new(width: usize, height: usize) -> Board {
        let (width, height) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
        Board {
            width,
            height,
            cells: vec![Cell::Empty; width * height],
        }
    }

    /// Reads a board drawn one row a line: `.` a free cell, `#` a wall, a kana a kana.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let rows: Vec<&str> = text.lines().collect();
        Board::from_rows(&rows)
    }

    /// Reads a board drawn as rows of text: `.` a free cell, `#` a wall, a kana a kana.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, BoardError> {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.as_ref().chars().count());
        if height == 0 || width == 0 {
            return Err(BoardError::Empty);
        }
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(BoardError::TooBig { width, height });
        }
        let mut cells = Vec::with_capacity(width * height);
        for (r, row) in rows.iter().enumerate() {
            let found = row.as_ref().chars().count();
            if found != width {
                return Err(BoardError::Ragged {
                    row: r + 1,
                    expected: width,
                    found,
                });
            }
            for (c, ch) in row.as_ref().chars().enumerate() {
                cells.push(match ch {
                    '.' => Cell::Empty,
                    '#' => Cell::Wall,
                    _ => Cell::Kana(Kana::from_char(ch).ok_or(BoardError::Unknown {
                        row: r + 1,
                        column: c + 1,
                        found: ch,
                    })?),
                });
            }
        }
        Ok(Board {
            width,
            height,
            cells,
        })
    }

    /// The board drawn as rows of text, the way [`Board::from_rows`] reads it.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| match self.cells[y * self.width + x] {
                        Cell::Wall => '#',
                        Cell::Empty => '.',
                        Cell::Kana(k) => k.to_char(),
                    })
                    .collect()
            })
            .collect()
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether `pos` is on the board.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// What is at `pos`; outside the board is a wall.
    pub fn cell(&self, pos: Pos) -> Cell {
        if self.contains(pos) {
            self.cells[pos.y * self.width + pos.x]
        } else {
            Cell::Wall
        }
    }

    /// The kana at `pos`, if there is one.
    pub fn kana(&self, pos: Pos) -> Option<Kana> {
        match self.cell(pos) {
            Cell::Kana(k) => Some(k),
            _ => None,
        }
    }

    /// Puts `cell` at `pos`; a position off the board is ignored.
    pub fn set(&mut self, pos: Pos, cell: Cell) {
        if self.contains(pos) {
            self.cells[pos.y * self.width + pos.x] = cell;
        }
    }

    /// Every position on the board, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// Whether a kana stands beside `pos`, left, right, above or below.
    pub fn next_to_kana(&self, pos: Pos) -> bool {
        if !self.contains(pos) {
            return false;
        }
        let Pos { x, y } = pos;
        (x > 0 && self.kana(Pos::new(x - 1, y)).is_some())
            || self.kana(Pos::new(x + 1, y)).is_some()
            || (y > 0 && self.kana(Pos::new(x, y - 1)).is_some())
            || self.kana(Pos::new(x, y + 1)).is_some()
    }

    /// The free cells beside a kana: the only places a tile can go.
    pub fn open_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.positions()
            .filter(|&p| self.cell(p) == Cell::Empty && self.next_to_kana(p))
    }

    /// How many cells are free.
    pub fn empty_count(&self) -> usize {
        self.cells.iter().filter(|c| **c == Cell::Empty).count()
    }

    /// The words the tile at `pos` reads in, across first, then down.
    pub fn words_at(&self, dict: &Dict, pos: Pos) -> Vec<Word> {
        match self.kana(pos) {
            Some(k) => self.words_with(dict, pos, k),
            None => Vec::new(),
        }
    }

    /// The words a tile showing `face` would read in at `pos`, across first, then down.
    pub fn words_with(&self, dict: &Dict, pos: Pos, face: Kana) -> Vec<Word> {
        let mut words = Vec::new();
        if !self.contains(pos) {
            return words;
        }
        for dir in [Dir::Across, Dir::Down] {
            let line = self.line(pos, dir, face);
            line.words(dict, &mut words);
        }
        words
    }

    /// Whether a tile showing `face` at `pos` would read in any word.
    pub fn reads_with(&self, dict: &Dict, pos: Pos, face: Kana) -> bool {
        if !self.contains(pos) {
            return false;
        }
        [Dir::Across, Dir::Down].into_iter().any(|dir| {
            let line = self.line(pos, dir, face);
            line.reads(dict)
        })
    }

    /// Which of the faces in `among` would read in a word at `pos`, as bits by
    /// [`Kana::index`] (pass `FaceSet::MAX` to ask about every face).
    ///
    /// The kana before the cell are walked once for all faces, so asking for a set is far
    /// cheaper than asking face by face.
    pub fn faces_that_read(&self, dict: &Dict, pos: Pos, among: FaceSet) -> FaceSet {
        let mut set: FaceSet = 0;
        if !self.contains(pos) {
            return set;
        }
        for dir in [Dir::Across, Dir::Down] {
            // The face in the line is a stand-in; `Line::faces` tries each face there.
            let line = self.line(pos, dir, Kana::FIRST);
            set |= line.faces(dict, among & !set);
        }
        set
    }

    /// Points for the words one tile made: each word's points, half again when the tile
    /// reads both across and down.
    pub fn points(dict: &Dict, stats: &TileStats, words: &[Word]) -> u32 {
        let sum: u32 = words.iter().map(|w| w.points(dict, stats)).sum();
        let across = words.iter().any(|w| w.dir == Dir::Across);
        let down = words.iter().any(|w| w.dir == Dir::Down);
        if across && down { sum * 3 / 2 } else { sum }
    }

    fn line(&self, pos: Pos, dir: Dir, face: Kana) -> Line {
        let (dx, dy) = dir.step();
        let mut start = pos;
        while start.x >= dx && start.y >= dy {
            let prev = Pos::new(start.x - dx, start.y - dy);
            if self.kana(prev).is_none() {
                break;
            }
            start = prev;
        }
        let mut kana = [face; MAX_SIDE];
        let mut len = 0;
        let mut at = 0;
        let mut p = start;
        loop {
            if p == pos {
                at = len;
            } else if let Some(k) = self.kana(p) {
                kana[len] = k;
            } else {
                break;
            }
            len += 1;
            if len == MAX_SIDE {
                break;
            }
            p = Pos::new(p.x + dx, p.y + dy);
        }
        Line {
            kana,
            len,
            at,
            start,
            dir,
        }
    }
}

/// One run of kana through a cell, with the tile in question at `at`.
struct Line {
    kana: [Kana; MAX_SIDE],
    len: usize,
    at: usize,
    start: Pos,
    dir: Dir,
}

impl Line {
    fn slice(&self) -> &[Kana] {
        &self.kana[..self.len]
    }

    /// Pushes the longest words covering `at`, first start first.
    ///
    /// From one start only the word reaching furthest can be longest: the shorter ones lie
    /// inside it. That word lies inside a word from an earlier start exactly when an earlier
    /// start reached at least as far. So one pass that keeps how far the earlier starts reached
    /// finds every longest word, with no list of candidates and so no limit on how many.
    fn words(&self, dict: &Dict, out: &mut Vec<Word>) {
        let line = self.slice();
        let (dx, dy) = self.dir.step();
        let mut reached: Option<usize> = None;
        for i in 0..=self.at {
            let mut node = dict.root();
            let mut furthest = None;
            for (j, &k) in line.iter().enumerate().skip(i) {
                let Some(next) = dict.step(node, k) else {
                    break;
                };
                node = next;
                if j >= self.at
                    && j > i
                    && let Some(entry) = dict.word_at(node)
                {
                    furthest = Some((j, entry));
                }
            }
            if let Some((j, entry)) = furthest
                && reached.is_none_or(|r| j > r)
            {
                reached = Some(j);
                out.push(Word {
                    entry,
                    dir: self.dir,
                    start: Pos::new(self.start.x + dx * i, self.start.y + dy * i),
                    len: j - i + 1,
                });
            }
        }
    }

    /// Whether any word covers `at`.
    fn reads(&self, dict: &Dict) -> bool {
        let line = self.slice();
        (0..=self.at).any(|i| {
            let node = (i..self.at).try_fold(dict.root(), |n, j| dict.step(n, line[j]));
            node.is_some_and(|n| self.reads_from(dict, n, i, line[self.at]))
        })
    }

    /// Whether, from `node` reached by the kana `start..at`, placing `face` at `at` completes
    /// a word of two kana or more that ends at or after `at`.
    fn reads_from(&self, dict: &Dict, node: Node, start: usize, face: Kana) -> bool {
        let Some(mut node) = dict.step(node, face) else {
            return false;
        };
        if self.at > start && dict.word_at(node).is_some() {
            return true;
        }
        for (j, &k) in self.slice().iter().enumerate().skip(self.at + 1) {
            let Some(next) = dict.step(node, k) else {
                return false;
            };
            node = next;
            if j > start && dict.word_at(node).is_some() {
                return true;
            }
        }
        false
    }

    /// The faces of `among` that complete a word covering `at`.
    fn faces(&self, dict: &Dict, among: FaceSet) -> FaceSet {
        let line = self.slice();
        let mut set: FaceSet = 0;
        if self.len < 2 || among == 0 {
            return 0;
        }
        for i in 0..=self.at {
            let Some(node) = (i..self.at).try_fold(dict.root(), |n, j| dict.step(n, line[j]))
            else {
                continue;
            };
            let mut left = among & !set;
            while left != 0 {
                let index = left.trailing_zeros() as usize;
                left &= left - 1;
                if let Some(face) = Kana::from_index(index)
                    && self.reads_from(dict, node, i, face)
                {
                    set |= 1 << index;
                }
            }
        }
        set
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.height)?;
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nいか\t烏賊\tsquid\n\
             いぬ\t犬\tdog\nねこ\t猫\tcat\nかさ\t傘\tumbrella\nさか\t坂\tslope\n",
        )
        .unwrap()
    }

    fn k(c: char) -> Kana {
        Kana::from_char(c).unwrap()
    }

    fn read(d: &Dict, words: &[Word]) -> Vec<String> {
        words
            .iter()
            .map(|w| d.entry(w.entry).unwrap().reading_text())
            .collect()
    }

    #[test]
    fn a_word_need_not_be_the_whole_run() {
        // さかなつ is not a word, but さかな through the な is, and so is なつ.
        let d = dict();
        let b = Board::from_rows(&["さか.つ"]).unwrap();
        let words = b.words_with(&d, Pos::new(2, 0), k('な'));
        assert_eq!(read(&d, &words), ["さかな", "なつ"]);
        assert!(b.reads_with(&d, Pos::new(2, 0), k('な')));
    }

    #[test]
    fn a_word_inside_a_longer_one_is_not_counted_twice() {
        let d = dict();
        let b = Board::from_rows(&["さかな"]).unwrap();
        let words = b.words_at(&d, Pos::new(2, 0));
        assert_eq!(read(&d, &words), ["さかな"]);
        // Through the さ only さかな and さか cover it; さか lies inside さかな.
        assert_eq!(read(&d, &b.words_at(&d, Pos::new(0, 0))), ["さかな"]);
    }

    #[test]
    fn words_read_across_and_down() {
        let d = dict();
        let b = Board::from_rows(&["..い.", "ねこ..", "..ぬ."]).unwrap();
        let words = b.words_with(&d, Pos::new(2, 1), k('か'));
        assert_eq!(words.len(), 1);
        assert_eq!(words[0].dir, Dir::Down);
        assert_eq!(read(&d, &words), ["いか"]);
        assert_eq!(
            words[0].cells().collect::<Vec<_>>(),
            [Pos::new(2, 0), Pos::new(2, 1)]
        );
        assert!(b.words_with(&d, Pos::new(2, 1), k('な')).is_empty());
    }

    #[test]
    fn a_word_is_two_kana_or_more_and_walls_break_runs() {
        let d = dict();
        let b = Board::from_rows(&["か#な"]).unwrap();
        assert!(b.words_at(&d, Pos::new(0, 0)).is_empty());
        // The wall ends the run, so さかな cannot reach over it.
        let b = Board::from_rows(&["さ.#な"]).unwrap();
        assert_eq!(
            read(&d, &b.words_with(&d, Pos::new(1, 0), k('か'))),
            ["さか"]
        );
    }

    #[test]
    fn scoring_multiplies_by_length_and_both_ways_by_half_again() {
        let d = dict();
        let mut w = [1u32; crate::kana::BASES];
        w[k('い').tile()] = 100;
        w[k('か').tile()] = 100;
        let stats = TileStats::from_weights(w);
        let (vi, vk) = (stats.value(k('い')), stats.value(k('か')));
        let b = Board::from_rows(&["さかな"]).unwrap();
        let words = b.words_at(&d, Pos::new(1, 0));
        let sum = stats.value(k('さ')) + vk + stats.value(k('な'));
        assert_eq!(Board::points(&d, &stats, &words), sum * 2);
        // か reads かさ across and いか down.
        let b = Board::from_rows(&["い.", "かさ"]).unwrap();
        let words = b.words_at(&d, Pos::new(0, 1));
        assert_eq!(words.len(), 2);
        let across = vk + stats.value(k('さ'));
        let down = vi + vk;
        assert_eq!(Board::points(&d, &stats, &words), (across + down) * 3 / 2);
    }

    #[test]
    fn faces_that_read_agrees_with_reads_with() {
        let d = dict();
        let b = Board::from_rows(&["さ..", "..つ", "い.."]).unwrap();
        for pos in b.positions().filter(|&p| b.cell(p) == Cell::Empty) {
            let set = b.faces_that_read(&d, pos, FaceSet::MAX);
            for face in Kana::all() {
                assert_eq!(
                    set & (1 << face.index()) != 0,
                    b.reads_with(&d, pos, face),
                    "{face} at {pos:?}"
                );
            }
        }
    }

    #[test]
    fn positions_off_the_board_read_nothing() {
        let d = dict();
        let b = Board::from_rows(&["さか"]).unwrap();
        for pos in [
            Pos::new(2, 0),
            Pos::new(0, 1),
            Pos::new(usize::MAX, usize::MAX),
        ] {
            assert!(b.words_with(&d, pos, k('な')).is_empty());
            assert!(!b.reads_with(&d, pos, k('な')));
            assert_eq!(b.faces_that_read(&d, pos, FaceSet::MAX), 0);
            assert_eq!(b.cell(pos), Cell::Wall);
            assert!(!b.next_to_kana(pos));
        }
    }

    #[test]
    fn bad_boards_are_refused_with_where() {
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert_eq!(
            Board::from_rows(&["...", ".."]),
            Err(BoardError::Ragged {
                row: 2,
                expected: 3,
                found: 2
            })
        );
        assert_eq!(
            Board::from_rows(&["..x"]),
            Err(BoardError::Unknown {
                row: 1,
                column: 3,
                found: 'x'
            })
        );
        let wide = ".".repeat(MAX_SIDE + 1);
        assert!(matches!(
            Board::from_rows(&[wide]),
            Err(BoardError::TooBig { .. })
        ));
        let b = Board::from_rows(&["#.か", "..."]).unwrap();
        assert_eq!(b.rows(), ["#.か", "..."]);
    }

    fn entry(reading: &str) -> crate::dict::Entry {
        crate::dict::Entry {
            reading: crate::kana::parse_kana(reading).unwrap(),
            written: reading.into(),
            meaning: "a test word".into(),
        }
    }

    #[test]
    fn every_longest_word_through_a_cell_is_found_however_many() {
        // Words of two to seventeen あ on a full row of 32: through the middle cell, each of
        // the first sixteen starts has its own longest word (136 candidates in all).
        let d = Dict::from_entries((2..=17).map(|n| entry(&"あ".repeat(n))).collect());
        let b = Board::from_rows(&["あ".repeat(MAX_SIDE)]).unwrap();
        let words = b.words_at(&d, Pos::new(16, 0));
        let spans: Vec<(usize, usize)> = words.iter().map(|w| (w.start.x, w.len)).collect();
        let want: Vec<(usize, usize)> = (0..16).map(|x| (x, 17)).collect();
        assert_eq!(spans, want);
        assert!(words.iter().all(|w| w.dir == Dir::Across));
        // Down a full column, the same.
        let column: Vec<String> = (0..MAX_SIDE).map(|_| "あ".to_string()).collect();
        let b = Board::from_rows(&column).unwrap();
        let words = b.words_at(&d, Pos::new(0, 16));
        let spans: Vec<(usize, usize)> = words.iter().map(|w| (w.start.y, w.len)).collect();
        assert_eq!(spans, want);
    }

    /// The rule written out the slow way: every dictionary stretch of the run covering `at`,
    /// less those lying inside another, as (start, length) in the run.
    fn longest_words_by_hand(d: &Dict, run: &[Option<Kana>], at: usize) -> Vec<(usize, usize)> {
        let (mut lo, mut hi) = (at, at);
        while lo > 0 && run[lo - 1].is_some() {
            lo -= 1;
        }
        while hi + 1 < run.len() && run[hi + 1].is_some() {
            hi += 1;
        }
        let mut found = Vec::new();
        for i in lo..=at {
            for j in at.max(i + 1)..=hi {
                let reading: Vec<Kana> = run[i..=j].iter().map(|k| k.unwrap()).collect();
                if d.find(&reading).is_some() {
                    found.push((i, j));
                }
            }
        }
        found
            .iter()
            .filter(|&&(i, j)| {
                !found
                    .iter()
                    .any(|&(a, b)| a <= i && j <= b && (a, b) != (i, j))
            })
            .map(|&(i, j)| (i, j - i + 1))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn words_at_finds_exactly_the_longest_words_by_hand(
            words in prop::collection::vec("[あい]{2,12}", 1..60),
            run in "[あいあい.]{1,32}",
            at in 0usize..32,
        ) {
            let d = Dict::from_entries(words.iter().map(|w| entry(w)).collect());
            let cells: Vec<Option<Kana>> = run.chars().map(Kana::from_char).collect();
            let at = at % cells.len();
            prop_assume!(cells[at].is_some());
            let want = longest_words_by_hand(&d, &cells, at);
            let across = Board::from_rows(&[run.as_str()]).unwrap();
            let got: Vec<(usize, usize)> = across
                .words_at(&d, Pos::new(at, 0))
                .iter()
                .map(|w| (w.start.x, w.len))
                .collect();
            prop_assert_eq!(&got, &want);
            let column: Vec<String> = run.chars().map(String::from).collect();
            let down = Board::from_rows(&column).unwrap();
            let got: Vec<(usize, usize)> = down
                .words_at(&d, Pos::new(0, at))
                .iter()
                .map(|w| (w.start.y, w.len))
                .collect();
            prop_assert_eq!(&got, &want);
        }

        #[test]
        fn parsing_never_panics(rows in prop::collection::vec("[.#さかなx]{0,6}", 0..6)) {
            if let Ok(b) = Board::from_rows(&rows) {
                prop_assert_eq!(b.rows(), rows);
            }
        }

        #[test]
        fn every_word_found_covers_the_tile_and_is_in_the_dictionary(
            rows in prop::collection::vec("[.さかなつい]{5}", 5),
            x in 0usize..5, y in 0usize..5,
        ) {
            let d = dict();
            let b = Board::from_rows(&rows).unwrap();
            let pos = Pos::new(x, y);
            for w in b.words_at(&d, pos) {
                let cells: Vec<Pos> = w.cells().collect();
                prop_assert!(cells.contains(&pos));
                prop_assert!(w.len >= 2);
                let reading: Vec<Kana> = cells.iter().map(|&c| b.kana(c).unwrap()).collect();
                prop_assert_eq!(d.find(&reading), Some(w.entry));
            }
        }
    }
}
