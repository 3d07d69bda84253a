//! What the puzzle and the battle share: hands, stocks, placing a tile, and the events.
//!
//! Placing is checked before anything changes: a tile only stays where it reads in a word,
//! beside a kana, on a free cell. When the face a tile shows makes no word there, its other
//! forms are tried in turning order, so a player never has to turn a tile just to place it.

use std::collections::VecDeque;
use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::board::{Board, Cell, Pos, Word};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};

/// Why a move was not taken. The board and hands are unchanged after a refusal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Refusal {
    /// No form of the tile reads in a word there.
    NoWord,
    /// The cell has no kana beside it.
    NotNextToKana,
    /// The cell already holds a kana.
    Taken,
    /// The cell is a wall or off the board.
    NotACell,
    /// There is no tile in that hand slot, or it cannot show that face.
    NoTile,
    /// The player was stunned by a swap and cannot move yet.
    Stunned,
    /// The game is not running (counting down, over, cleared or failed).
    NotPlaying,
    /// The move names a player the game does not have (a battle has players 0 and 1).
    NoSuchPlayer {
        /// The player index given.
        player: usize,
    },
}

impl Refusal {
    /// The reason in a few words, as scripts read it.
    pub fn why(self) -> &'static str {
        match self {
            Refusal::NoWord => "no word",
            Refusal::NotNextToKana => "not next to a kana",
            Refusal::Taken => "taken",
            Refusal::NotACell => "not a cell",
            Refusal::NoTile => "no tile",
            Refusal::Stunned => "stunned",
            Refusal::NotPlaying => "not playing",
            Refusal::NoSuchPlayer { .. } => "no such player",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoSuchPlayer { player } => {
                write!(f, "no player {player}: the players are 0 and 1")
            }
            _ => f.write_str(self.why()),
        }
    }
}

/// A tile that went down, with what it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Where it went.
    pub pos: Pos,
    /// The face it went down as (after auto-form).
    pub kana: Kana,
    /// The words it reads in.
    pub words: Vec<Word>,
    /// What they score together.
    pub points: u32,
}

/// Checks placing a tile showing `face` at `pos`, trying its other forms when that face makes
/// no word, and says what would be made. Changes nothing.
pub fn placement(
    board: &Board,
    dict: &Dict,
    stats: &TileStats,
    pos: Pos,
    face: Kana,
) -> Result<Placed, Refusal> {
    match board.cell(pos) {
        Cell::Wall => return Err(Refusal::NotACell),
        Cell::Kana(_) => return Err(Refusal::Taken),
        Cell::Empty => {}
    }
    if !board.next_to_kana(pos) {
        return Err(Refusal::NotNextToKana);
    }
    let forms = face.forms();
    let at = forms.iter().position(|&k| k == face).unwrap_or(0);
    for i in 0..forms.len() {
        let kana = forms[(at + i) % forms.len()];
        let words = board.words_with(dict, pos, kana);
        if !words.is_empty() {
            let points = Board::points(dict, stats, &words);
            return Ok(Placed {
                pos,
                kana,
                words,
                points,
            });
        }
    }
    Err(Refusal::NoWord)
}

/// Places a tile showing `face` at `pos` if it makes a word (see [`placement`]).
pub fn place(
    board: &mut Board,
    dict: &Dict,
    stats: &TileStats,
    pos: Pos,
    face: Kana,
) -> Result<Placed, Refusal> {
    let placed = placement(board, dict, stats, pos, face)?;
    board.set(pos, Cell::Kana(placed.kana));
    Ok(placed)
}

/// The tiles not yet dealt, drawn from the front.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stock {
    tiles: VecDeque<Kana>,
}

impl Stock {
    /// A stock of the given tiles, in order.
    pub fn of(tiles: impl IntoIterator<Item = Kana>) -> Stock {
        Stock {
            tiles: tiles.into_iter().map(Kana::base).collect(),
        }
    }

    /// A stock of `n` tiles drawn from the bag.
    pub fn dealt(stats: &TileStats, rng: &mut impl Rng, n: usize) -> Stock {
        Stock::of((0..n).map(|_| stats.deal(rng)))
    }

    /// Shuffles the tiles with `rng`.
    pub fn shuffle(&mut self, rng: &mut impl Rng) {
        let tiles = self.tiles.make_contiguous();
        for i in (1..tiles.len()).rev() {
            let j = rng.random_range(0..=i);
            tiles.swap(i, j);
        }
    }

    /// Takes the next tile.
    pub fn draw(&mut self) -> Option<Kana> {
        self.tiles.pop_front()
    }

    /// Puts a tile back, at the bottom.
    pub fn put_back(&mut self, k: Kana) {
        self.tiles.push_back(k.base());
    }

    /// How many tiles are left.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the stock is dry.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The tiles left, next first.
    pub fn tiles(&self) -> impl Iterator<Item = Kana> + '_ {
        self.tiles.iter().copied()
    }
}

/// The most tiles a hand holds, in either mode (a stage, a rival or a room asks for 1 to this).
pub const MAX_HAND: usize = 12;

/// The tiles a player holds, each showing one of its forms.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    tiles: Vec<Kana>,
}

impl Hand {
    /// A hand holding the given faces.
    pub fn of(tiles: impl IntoIterator<Item = Kana>) -> Hand {
        Hand {
            tiles: tiles.into_iter().collect(),
        }
    }

    /// The faces held, slot 0 first.
    pub fn tiles(&self) -> &[Kana] {
        &self.tiles
    }

    /// How many tiles are held.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The face in `slot`.
    pub fn get(&self, slot: usize) -> Option<Kana> {
        self.tiles.get(slot).copied()
    }

    /// Turns the tile in `slot` to its next form and says what it shows now.
    pub fn turn(&mut self, slot: usize) -> Option<Kana> {
        let t = self.tiles.get_mut(slot)?;
        *t = t.turned();
        Some(*t)
    }

    /// Shows `face` on the tile in `slot`, if it is one of that tile's forms.
    pub fn show(&mut self, slot: usize, face: Kana) -> bool {
        match self.tiles.get_mut(slot) {
            Some(t) if t.base() == face.base() => {
                *t = face;
                true
            }
            _ => false,
        }
    }

    /// Replaces the tile in `slot` with `next`, or takes the slot away when there is none.
    pub fn replace(&mut self, slot: usize, next: Option<Kana>) {
        if slot >= self.tiles.len() {
            return;
        }
        match next {
            Some(k) => self.tiles[slot] = k.base(),
            None => {
                self.tiles.remove(slot);
            }
        }
    }

    /// Fills the hand up to `size` from `draw`.
    pub fn fill(&mut self, size: usize, mut draw: impl FnMut() -> Option<Kana>) {
        while self.tiles.len() < size {
            match draw() {
                Some(k) => self.tiles.push(k.base()),
                None => break,
            }
        }
    }
}

/// A word as players see it: what it says and where it lies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadeWord {
    /// The reading, in kana.
    pub reading: String,
    /// How it is written.
    pub written: String,
    /// What it means.
    pub meaning: String,
    /// What it scored on its own.
    pub points: u32,
    /// The cells it covers, first kana first.
    pub cells: Vec<Pos>,
}

impl MadeWord {
    /// The word `word` on the board, looked up in `dict`.
    pub fn new(dict: &Dict, stats: &TileStats, word: &Word) -> MadeWord {
        let entry = dict.entry(word.entry);
        MadeWord {
            reading: entry.map(|e| e.reading_text()).unwrap_or_default(),
            written: entry.map(|e| e.written.clone()).unwrap_or_default(),
            meaning: entry.map(|e| e.meaning.clone()).unwrap_or_default(),
            points: word.points(dict, stats),
            cells: word.cells().collect(),
        }
    }

    /// Every word of a placement.
    pub fn all(dict: &Dict, stats: &TileStats, placed: &Placed) -> Vec<MadeWord> {
        placed
            .words
            .iter()
            .map(|w| MadeWord::new(dict, stats, w))
            .collect()
    }
}

/// Why a puzzle was lost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failure {
    /// The clock ran out.
    Time,
    /// No free cell is left beside a kana, so nothing more can go down.
    Stuck,
}

/// How a battle ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    /// A fighter's life ran out.
    Ko,
    /// The clock ran out; the one with the larger share of their own life left won.
    Time,
    /// No free cell is left beside a kana.
    Full,
}

/// Something that happened, for the screen, the sound and the scripts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// A game began.
    Started,
    /// A battle's countdown showed `n` (0 is "go").
    Countdown(u32),
    /// A tile went down.
    Placed {
        /// Who placed it (0 in a puzzle).
        player: usize,
        /// Where.
        pos: Pos,
        /// As which face.
        kana: Kana,
        /// The placement's points.
        points: u32,
        /// The damage it dealt (0 in a puzzle).
        damage: u32,
        /// The combo step it made (0 for a first word).
        combo: u32,
        /// The words it made.
        words: Vec<MadeWord>,
    },
    /// A move was refused.
    Refused {
        /// Whose move.
        player: usize,
        /// Why.
        why: Refusal,
    },
    /// A tile in hand was turned.
    Turned {
        /// Whose.
        player: usize,
        /// Which slot.
        slot: usize,
        /// The face it shows now.
        kana: Kana,
    },
    /// A tile in hand was swapped for another.
    Swapped {
        /// Whose.
        player: usize,
        /// Which slot.
        slot: usize,
        /// The new tile.
        kana: Kana,
    },
    /// A fighter was hit by a word.
    Hit {
        /// Who was hit.
        to: usize,
        /// How hard.
        damage: u32,
        /// Life left.
        hp: u32,
    },
    /// A puzzle was cleared.
    Cleared {
        /// Points from words.
        score: u32,
        /// Points for time left.
        bonus: u32,
        /// Seconds left on the clock.
        time_left: f32,
    },
    /// A puzzle was lost.
    Failed {
        /// Why.
        why: Failure,
    },
    /// A battle ended.
    Over {
        /// Who won; `None` for a draw.
        winner: Option<usize>,
        /// How.
        why: Ending,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;

    fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nかぎ\t鍵\tkey\n\
             ぱん\tパン\tbread\nいぬ\t犬\tdog\nにっき\t日記\tdiary\n",
        )
        .unwrap()
    }

    fn k(c: char) -> Kana {
        Kana::from_char(c).unwrap()
    }

    fn stats(d: &Dict) -> TileStats {
        TileStats::from_dict(d)
    }

    #[test]
    fn placing_the_na_between_saka_and_tsu_reads_sakana() {
        let d = dict();
        let mut b = Board::from_rows(&["さか.つ"]).unwrap();
        let placed = place(&mut b, &d, &stats(&d), Pos::new(2, 0), k('な')).unwrap();
        let made: Vec<String> = MadeWord::all(&d, &stats(&d), &placed)
            .into_iter()
            .map(|w| w.reading)
            .collect();
        assert_eq!(made, ["さかな", "なつ"]);
        assert_eq!(b.rows(), ["さかなつ"]);
    }

    #[test]
    fn a_face_that_makes_no_word_tries_its_other_forms() {
        let d = dict();
        let s = stats(&d);
        // か shows, but only かぎ is a word: the き tile goes down as ぎ.
        let mut b = Board::from_rows(&["か."]).unwrap();
        let placed = place(&mut b, &d, &s, Pos::new(1, 0), k('き')).unwrap();
        assert_eq!(placed.kana, k('ぎ'));
        // は shown, ぱ found after ば.
        let mut b = Board::from_rows(&[".ん"]).unwrap();
        assert_eq!(
            place(&mut b, &d, &s, Pos::new(0, 0), k('は')).unwrap().kana,
            k('ぱ')
        );
        // つ turns to っ in にっき.
        let mut b = Board::from_rows(&["に.き"]).unwrap();
        assert_eq!(
            place(&mut b, &d, &s, Pos::new(1, 0), k('つ')).unwrap().kana,
            k('っ')
        );
    }

    #[test]
    fn refusals_say_why_and_change_nothing() {
        let d = dict();
        let s = stats(&d);
        let mut b = Board::from_rows(&["さか.#", "...."]).unwrap();
        let before = b.clone();
        assert_eq!(
            place(&mut b, &d, &s, Pos::new(2, 0), k('ぬ')),
            Err(Refusal::NoWord)
        );
        assert_eq!(
            place(&mut b, &d, &s, Pos::new(3, 1), k('な')),
            Err(Refusal::NotNextToKana)
        );
        assert_eq!(
            place(&mut b, &d, &s, Pos::new(0, 0), k('な')),
            Err(Refusal::Taken)
        );
        assert_eq!(
            place(&mut b, &d, &s, Pos::new(3, 0), k('な')),
            Err(Refusal::NotACell)
        );
        assert_eq!(b, before);
        assert_eq!(Refusal::NotNextToKana.to_string(), "not next to a kana");
    }

    #[test]
    fn hands_turn_fill_and_replace() {
        let mut hand = Hand::of([k('は'), k('な')]);
        assert_eq!(hand.turn(0), Some(k('ば')));
        assert_eq!(hand.turn(0), Some(k('ぱ')));
        assert_eq!(hand.turn(1), Some(k('な')));
        assert_eq!(hand.turn(5), None);
        assert!(hand.show(0, k('は')));
        assert!(!hand.show(0, k('な')));
        let mut stock = Stock::of([k('が'), k('い')]);
        hand.fill(3, || stock.draw());
        assert_eq!(hand.tiles(), [k('は'), k('な'), k('か')]);
        hand.replace(1, stock.draw());
        assert_eq!(hand.tiles(), [k('は'), k('い'), k('か')]);
        hand.replace(0, stock.draw());
        assert_eq!(hand.tiles(), [k('い'), k('か')]);
    }

    #[test]
    fn a_shuffled_stock_keeps_its_tiles() {
        let d = dict();
        let mut rng = rand_pcg::Pcg32::seed_from_u64(3);
        let mut stock = Stock::dealt(&stats(&d), &mut rng, 20);
        let mut before: Vec<Kana> = stock.tiles().collect();
        stock.shuffle(&mut rng);
        let mut after: Vec<Kana> = stock.tiles().collect();
        before.sort();
        after.sort();
        assert_eq!(before, after);
        assert!(after.iter().all(|t| stats(&d).dealt(*t)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        #[test]
        fn accepted_placements_read_through_the_tile_and_refused_ones_change_nothing(
            rows in prop::collection::vec("[..さかなつぱんいぬに#]{5}", 5),
            moves in prop::collection::vec((0usize..6, 0usize..6, "[さかなつはんいぬにき]"), 1..12),
        ) {
            let d = dict();
            let s = stats(&d);
            let mut b = Board::from_rows(&rows).unwrap();
            for (x, y, face) in moves {
                let face = k(face.chars().next().unwrap());
                let pos = Pos::new(x, y);
                let before = b.clone();
                match place(&mut b, &d, &s, pos, face) {
                    Ok(placed) => {
                        prop_assert_eq!(b.kana(pos), Some(placed.kana));
                        prop_assert_eq!(placed.kana.base(), face.base());
                        prop_assert!(!placed.words.is_empty());
                        prop_assert!(placed.words.iter().all(|w| w.cells().any(|c| c == pos)));
                        prop_assert_eq!(b.words_at(&d, pos), placed.words);
                    }
                    Err(_) => prop_assert_eq!(&b, &before),
                }
            }
        }
    }
}
