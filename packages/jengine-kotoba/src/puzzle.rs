//! One player, one stage: place every tile of the stock before the clock runs out.
//!
//! A stage is a board drawn in text, a stock dealt from its seed, a hand size, a time and three
//! star scores. Swapping a tile costs time but never fails, since a dry stock deals a fresh tile
//! from the seed, so a hand is never a dead end; only the clock is (or a board with no free
//! cell left beside a kana).

use rand::SeedableRng;
use rand_pcg::Pcg32;

use crate::board::{Board, Pos};
use crate::bot::{LegalMove, best, legal_moves};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::{Event, Failure, Hand, MadeWord, Placed, Refusal, Stock, placement};

/// Seconds a swap costs.
pub const SWAP_COST: f32 = 5.0;
/// Seconds a hint costs.
pub const HINT_COST: f32 = 10.0;
/// Bonus points for every [`BONUS_SECONDS`] whole seconds left on a cleared stage.
pub const BONUS_PER_SECOND: u32 = 1;
/// Whole seconds left that earn [`BONUS_PER_SECOND`]: two, so that on most stages a run's
/// words are worth more than its speed.
pub const BONUS_SECONDS: u32 = 2;
/// Seconds the autoplay bot spends on each move.
pub const AUTOPLAY_THINK: f32 = 1.0;
/// How many moves in a row that place no tile the autoplay bot makes before it gives up.
///
/// More than any stage a table can describe affords: its 3600 s at most pay for 600 swaps at
/// [`SWAP_COST`] and [`AUTOPLAY_THINK`] each, so the limit only stops a stage with an
/// (all but) endless clock.
pub const AUTOPLAY_PATIENCE: u32 = 1000;

/// A puzzle stage, as a stage table row describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// Its id in the table.
    pub id: String,
    /// Its short name.
    pub name: String,
    /// A line that goes with it.
    pub title: String,
    /// The board, walls and pre-placed kana included.
    pub board: Board,
    /// Tiles always in the stock.
    pub stock: Vec<Kana>,
    /// How many more tiles the bag deals into the stock.
    pub tiles: usize,
    /// How many tiles the hand holds.
    pub hand: usize,
    /// Seconds on the clock.
    pub time: f32,
    /// The scores (words plus bonus) for one, two and three stars, rising.
    pub stars: [u32; 3],
    /// The seed the stock and fresh tiles are dealt from.
    pub seed: u64,
}

/// Where a puzzle stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Still going.
    Playing,
    /// Every tile placed.
    Cleared,
    /// Lost.
    Failed(Failure),
}

/// A suggested move: which tile, as which face, where.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The hand slot.
    pub slot: usize,
    /// The face to place it as.
    pub kana: Kana,
    /// The cell to light.
    pub pos: Pos,
}

/// A stage being played.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    stage: String,
    board: Board,
    stats: TileStats,
    hand: Hand,
    hand_size: usize,
    stock: Stock,
    rng: Pcg32,
    time: f32,
    time_left: f32,
    score: u32,
    swaps: u32,
    hints: u32,
    stars: [u32; 3],
    state: State,
    hint: Option<Hint>,
    made: Vec<MadeWord>,
    events: Vec<Event>,
}

impl Puzzle {
    /// Starts `stage`: deals its stock from its seed and fills the hand.
    pub fn new(stage: &Stage, stats: &TileStats) -> Puzzle {
        let mut rng = Pcg32::seed_from_u64(stage.seed);
        let mut stock = Stock::of(stage.stock.iter().copied());
        for _ in 0..stage.tiles {
            stock.put_back(stats.deal(&mut rng));
        }
        stock.shuffle(&mut rng);
        let mut hand = Hand::default();
        hand.fill(stage.hand.max(1), || stock.draw());
        let mut puzzle = Puzzle {
            stage: stage.id.clone(),
            board: stage.board.clone(),
            stats: stats.clone(),
            hand,
            hand_size: stage.hand.max(1),
            stock,
            rng,
            time: stage.time,
            time_left: stage.time,
            score: 0,
            swaps: 0,
            hints: 0,
            stars: stage.stars,
            state: State::Playing,
            hint: None,
            made: Vec::new(),
            events: vec![Event::Started],
        };
        puzzle.settle();
        puzzle
    }

    /// Places the tile in `slot` at `pos`, as the face it shows or, if that makes no word,
    /// another of its forms.
    pub fn place(&mut self, dict: &Dict, slot: usize, pos: Pos) -> Result<Placed, Refusal> {
        let result = self.try_place(dict, slot, pos);
        if let Err(why) = result {
            self.events.push(Event::Refused { player: 0, why });
        }
        result
    }

    fn try_place(&mut self, dict: &Dict, slot: usize, pos: Pos) -> Result<Placed, Refusal> {
        if self.state != State::Playing {
            return Err(Refusal::NotPlaying);
        }
        let face = self.hand.get(slot).ok_or(Refusal::NoTile)?;
        let placed = placement(&self.board, dict, &self.stats, pos, face)?;
        self.board.set(pos, crate::board::Cell::Kana(placed.kana));
        self.hand.replace(slot, self.stock.draw());
        self.score += placed.points;
        self.hint = None;
        let words = MadeWord::all(dict, &self.stats, &placed);
        self.made.extend(words.iter().cloned());
        self.events.push(Event::Placed {
            player: 0,
            pos,
            kana: placed.kana,
            points: placed.points,
            damage: 0,
            combo: 0,
            words,
        });
        self.settle();
        Ok(placed)
    }

    /// Turns the tile in `slot` to its next form.
    pub fn turn(&mut self, slot: usize) -> Option<Kana> {
        if self.state != State::Playing {
            return None;
        }
        let kana = self.hand.turn(slot)?;
        self.events.push(Event::Turned {
            player: 0,
            slot,
            kana,
        });
        Some(kana)
    }

    /// Trades the tile in `slot` for the next in the stock (a fresh one from the seed once the
    /// stock is dry), for [`SWAP_COST`] seconds.
    pub fn swap(&mut self, slot: usize) -> Result<Kana, Refusal> {
        if self.state != State::Playing {
            return Err(Refusal::NotPlaying);
        }
        let old = self.hand.get(slot).ok_or(Refusal::NoTile)?;
        let new = match self.stock.draw() {
            Some(k) => {
                self.stock.put_back(old);
                k
            }
            None => self.stats.deal(&mut self.rng),
        };
        self.hand.replace(slot, Some(new));
        self.swaps += 1;
        self.hint = None;
        self.events.push(Event::Swapped {
            player: 0,
            slot,
            kana: new,
        });
        self.spend(SWAP_COST);
        Ok(new)
    }

    /// Chooses a tile and the cell it fits best, for [`HINT_COST`] seconds. `None` (and no
    /// cost) when nothing in the hand fits anywhere.
    pub fn hint(&mut self, dict: &Dict) -> Option<Hint> {
        if self.state != State::Playing {
            return None;
        }
        let m = best(&legal_moves(
            &self.board,
            dict,
            &self.stats,
            self.hand.tiles(),
        ))?;
        let hint = Hint {
            slot: m.slot,
            kana: m.face,
            pos: m.pos,
        };
        self.hint = Some(hint);
        self.hints += 1;
        self.spend(HINT_COST);
        Some(hint)
    }

    /// Moves the clock on by `dt` seconds.
    pub fn update(&mut self, dt: f32) {
        if self.state == State::Playing {
            self.spend(dt.max(0.0));
        }
    }

    fn spend(&mut self, seconds: f32) {
        self.time_left = (self.time_left - seconds).max(0.0);
        if self.time_left <= 0.0 && self.state == State::Playing {
            self.state = State::Failed(Failure::Time);
            self.events.push(Event::Failed { why: Failure::Time });
        }
    }

    /// Clears the stage when every tile is down, or fails it when nothing more can go down.
    fn settle(&mut self) {
        if self.state != State::Playing {
            return;
        }
        if self.hand.is_empty() && self.stock.is_empty() {
            self.state = State::Cleared;
            self.events.push(Event::Cleared {
                score: self.score,
                bonus: self.bonus(),
                time_left: self.time_left,
            });
        } else if self.board.open_cells().next().is_none() {
            self.state = State::Failed(Failure::Stuck);
            self.events.push(Event::Failed {
                why: Failure::Stuck,
            });
        }
    }

    /// The events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// The stage's id.
    pub fn stage(&self) -> &str {
        &self.stage
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The tile stats in play.
    pub fn stats(&self) -> &TileStats {
        &self.stats
    }

    /// The hand.
    pub fn hand(&self) -> &[Kana] {
        self.hand.tiles()
    }

    /// Tiles left in the stock (not counting the hand).
    pub fn stock(&self) -> usize {
        self.stock.len()
    }

    /// Tiles still to place: the hand and the stock.
    pub fn tiles_left(&self) -> usize {
        self.hand.len() + self.stock.len()
    }

    /// Seconds on the clock at the start.
    pub fn time(&self) -> f32 {
        self.time
    }

    /// Seconds left.
    pub fn time_left(&self) -> f32 {
        self.time_left
    }

    /// Points from words so far.
    pub fn score(&self) -> u32 {
        self.score
    }

    /// The time-left bonus: [`BONUS_PER_SECOND`] for every [`BONUS_SECONDS`] whole seconds
    /// left, and 0 until the
    /// stage is cleared (a stage lost to the clock or stuck earns none).
    pub fn bonus(&self) -> u32 {
        if self.state != State::Cleared {
            return 0;
        }
        // `as` saturates, so even an endless clock gives a finite bonus.
        (self.time_left.floor() as u32 / BONUS_SECONDS).saturating_mul(BONUS_PER_SECOND)
    }

    /// Stars earned: how many star scores the score and bonus reach, once cleared.
    pub fn stars(&self) -> u32 {
        if self.state != State::Cleared {
            return 0;
        }
        let total = self.score.saturating_add(self.bonus());
        self.stars.iter().filter(|&&s| total >= s).count() as u32
    }

    /// The star scores.
    pub fn star_scores(&self) -> [u32; 3] {
        self.stars
    }

    /// Swaps made.
    pub fn swaps(&self) -> u32 {
        self.swaps
    }

    /// Hints taken.
    pub fn hints(&self) -> u32 {
        self.hints
    }

    /// Where the game stands.
    pub fn state(&self) -> State {
        self.state
    }

    /// The hint being shown, until the next move.
    pub fn shown_hint(&self) -> Option<Hint> {
        self.hint
    }

    /// Every word made, oldest first.
    pub fn made(&self) -> &[MadeWord] {
        &self.made
    }
}

/// Why the autoplay bot stopped playing a stage that had not ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GaveUp {
    /// No tile that could ever reach the hand reads anywhere on the board: neither a
    /// placement nor any number of swaps can help.
    NothingFits,
    /// [`AUTOPLAY_PATIENCE`] moves in a row placed no tile.
    NoPlacement {
        /// The moves made since the last tile went down.
        moves: u32,
    },
}

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GaveUp::NothingFits => f.write_str(
                "no tile the hand, the stock or the bag can bring reads anywhere on the board",
            ),
            GaveUp::NoPlacement { moves } => {
                write!(f, "{moves} moves in a row placed no tile")
            }
        }
    }
}

/// How an autoplayed stage went.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How it ended: still [`State::Playing`] when the bot gave up.
    pub state: State,
    /// Why the bot stopped before the stage ended, if it did.
    pub gave_up: Option<GaveUp>,
    /// Points from words.
    pub score: u32,
    /// The time-left bonus: 0 unless the stage was cleared.
    pub bonus: u32,
    /// Stars earned.
    pub stars: u32,
    /// Seconds left.
    pub time_left: f32,
    /// Tiles placed.
    pub moves: u32,
    /// Swaps made.
    pub swaps: u32,
}

/// How much the autoplay bot favours placing a rare (dear) kana over scoring more now.
const RARE_FIRST: u32 = 4;
/// How many of its best-looking moves the autoplay bot looks one move further into.
const LOOKAHEAD: usize = 6;

/// Plays `stage` with a bot that sees every move and takes [`AUTOPLAY_THINK`] seconds over
/// each; when nothing in its hand fits, it swaps, slot by slot.
///
/// The bot plays to clear, not only to score: of its best-looking moves (points, with rare
/// kana first) it takes the one that leaves the most of its remaining tiles a place to go.
///
/// It always returns, even on a stage that cannot be cleared and whose clock never runs out:
/// it gives up ([`Outcome::gave_up`]) when no tile it could ever hold fits anywhere, or after
/// [`AUTOPLAY_PATIENCE`] moves in a row that placed nothing.
pub fn autoplay(stage: &Stage, dict: &Dict, stats: &TileStats) -> Outcome {
    let mut puzzle = Puzzle::new(stage, stats);
    let mut moves = 0;
    let mut next_swap = 0;
    let mut idle = 0u32;
    let mut gave_up = None;
    while puzzle.state() == State::Playing {
        if idle >= AUTOPLAY_PATIENCE {
            gave_up = Some(GaveUp::NoPlacement { moves: idle });
            break;
        }
        match puzzle.clearing_move(dict) {
            Some(m) => {
                if puzzle.place(dict, m.slot, m.pos).is_ok() {
                    moves += 1;
                    idle = 0;
                } else {
                    idle += 1;
                }
            }
            None => {
                // Swaps leave the board as it is, so whether anything could ever fit is asked
                // once, at the first swap after a placement.
                if idle == 0 && !puzzle.anything_could_fit(dict) {
                    gave_up = Some(GaveUp::NothingFits);
                    break;
                }
                let slot = next_swap % puzzle.hand().len().max(1);
                next_swap += 1;
                idle += 1;
                // A refused swap can only mean the game just ended; the loop then stops.
                let _ = puzzle.swap(slot);
            }
        }
        puzzle.update(AUTOPLAY_THINK);
    }
    Outcome {
        state: puzzle.state(),
        gave_up,
        score: puzzle.score(),
        bonus: puzzle.bonus(),
        stars: puzzle.stars(),
        time_left: puzzle.time_left(),
        moves,
        swaps: puzzle.swaps(),
    }
}

impl Puzzle {
    /// Whether some tile that could ever reach the hand reads somewhere on the board as it is.
    ///
    /// A swap puts the old tile back under a stock that is not dry, so while it lasts swaps
    /// only ever cycle the hand and the stock; once it is dry they deal from the bag instead.
    fn anything_could_fit(&self, dict: &Dict) -> bool {
        let mut tiles: Vec<Kana> = self.hand().to_vec();
        if self.stock.is_empty() {
            let bag: Vec<Kana> = Kana::bases().filter(|&k| self.stats.dealt(k)).collect();
            if bag.is_empty() {
                // An empty bag still deals its fallback tile.
                tiles.push(self.stats.deal(&mut self.rng.clone()));
            }
            tiles.extend(bag);
        } else {
            tiles.extend(self.stock.tiles());
        }
        placeable_tiles(&self.board, dict, &tiles) > 0
    }

    /// The move autoplay makes: see [`autoplay`].
    fn clearing_move(&self, dict: &Dict) -> Option<LegalMove> {
        let stats = &self.stats;
        let mut legal = legal_moves(&self.board, dict, stats, self.hand());
        let eager = |m: &LegalMove| m.points + RARE_FIRST * stats.value(m.face);
        legal.sort_by_key(|m| std::cmp::Reverse(eager(m)));
        legal.truncate(LOOKAHEAD);
        let mut best: Option<(usize, LegalMove)> = None;
        for m in legal {
            let mut board = self.board.clone();
            board.set(m.pos, crate::board::Cell::Kana(m.face));
            let rest: Vec<Kana> = self
                .hand()
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != m.slot)
                .map(|(_, &k)| k)
                .chain(self.stock.tiles())
                .collect();
            let placeable = placeable_tiles(&board, dict, &rest);
            if best.is_none_or(|(p, _)| placeable > p) {
                best = Some((placeable, m));
            }
        }
        best.map(|(_, m)| m)
    }
}

/// How many of `tiles` have somewhere on `board` to go, in some form.
fn placeable_tiles(board: &Board, dict: &Dict, tiles: &[Kana]) -> usize {
    let mask = |k: &Kana| k.forms().iter().fold(0u128, |m, f| m | 1 << f.index());
    let wanted = tiles.iter().fold(0u128, |m, k| m | mask(k));
    let mut fits = 0u128;
    for pos in board.open_cells() {
        fits |= board.faces_that_read(dict, pos, wanted & !fits);
        if fits == wanted {
            break;
        }
    }
    tiles.iter().filter(|k| mask(k) & fits != 0).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kana::parse_kana;
    use proptest::prelude::*;

    fn dict() -> Dict {
        Dict::parse(
            "さかな\t魚\tfish\nかな\t仮名\tkana\nなつ\t夏\tsummer\nかぎ\t鍵\tkey\nさか\t坂\tslope\n\
             いか\t烏賊\tsquid\nいぬ\t犬\tdog\nさけ\t鮭\tsalmon\nかさ\t傘\tumbrella\n",
        )
        .unwrap()
    }

    fn stage(rows: &[&str], stock: &str, hand: usize, time: f32) -> Stage {
        Stage {
            id: "t".into(),
            name: "test".into(),
            title: "a test stage".into(),
            board: Board::from_rows(rows).unwrap(),
            stock: parse_kana(stock).unwrap(),
            tiles: 0,
            hand,
            time,
            stars: [10, 20, 1000],
            seed: 5,
        }
    }

    #[test]
    fn placing_every_tile_clears_with_a_time_bonus() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか.."], "なつ", 2, 60.0), &s);
        assert_eq!(p.tiles_left(), 2);
        let na = p.hand().iter().position(|k| k.to_char() == 'な').unwrap();
        p.place(&d, na, Pos::new(2, 0)).unwrap();
        p.update(2.5);
        p.place(&d, 0, Pos::new(3, 0)).unwrap();
        assert_eq!(p.state(), State::Cleared);
        assert_eq!(p.bonus(), 57 / BONUS_SECONDS * BONUS_PER_SECOND);
        assert_eq!(p.stars(), 2);
        let events = p.take_events();
        assert_eq!(events[0], Event::Started);
        assert!(matches!(events.last(), Some(Event::Cleared { .. })));
    }

    #[test]
    fn a_swap_costs_time_and_a_dry_stock_deals_fresh_tiles() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか.."], "いぬな", 2, 60.0), &s);
        let first = p.hand()[0];
        p.swap(0).unwrap();
        assert_eq!(p.time_left(), 60.0 - SWAP_COST);
        assert_eq!(p.tiles_left(), 3);
        assert_eq!(p.stock(), 1);
        assert_eq!(p.stock.tiles().last(), Some(first));
        // Stock of one: swap it in, then the next swap deals fresh.
        p.swap(0).unwrap();
        p.swap(1).unwrap();
        assert_eq!(p.tiles_left(), 3);
        assert_eq!(p.swaps(), 3);
    }

    #[test]
    fn a_hint_lights_a_cell_and_costs_time() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか.."], "ぬな", 2, 60.0), &s);
        let hint = p.hint(&d).unwrap();
        assert_eq!(hint.kana.to_char(), 'な');
        assert_eq!(hint.pos, Pos::new(2, 0));
        assert_eq!(p.shown_hint(), Some(hint));
        assert_eq!(p.time_left(), 60.0 - HINT_COST);
    }

    #[test]
    fn the_clock_and_a_closed_board_fail_a_stage() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか.."], "なつ", 2, 3.0), &s);
        p.update(3.5);
        assert_eq!(p.state(), State::Failed(Failure::Time));
        assert_eq!(p.place(&d, 0, Pos::new(2, 0)), Err(Refusal::NotPlaying));
        assert_eq!(p.bonus(), 0);
        let p = Puzzle::new(&stage(&["か#", "##"], "な", 1, 30.0), &s);
        assert_eq!(p.state(), State::Failed(Failure::Stuck));
    }

    #[test]
    fn a_stage_that_fails_stuck_earns_no_bonus() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        // The な closes the last open cell with the つ still in hand: stuck, 59 s left.
        let mut p = Puzzle::new(&stage(&["さか.#"], "なつ", 2, 60.0), &s);
        let na = p.hand().iter().position(|k| k.to_char() == 'な').unwrap();
        p.update(1.0);
        p.place(&d, na, Pos::new(2, 0)).unwrap();
        assert_eq!(p.state(), State::Failed(Failure::Stuck));
        assert_eq!(p.time_left(), 59.0);
        assert_eq!(p.bonus(), 0);
        assert_eq!(p.stars(), 0);
        let events = p.take_events();
        assert_eq!(
            events.last(),
            Some(&Event::Failed {
                why: Failure::Stuck
            })
        );
        assert!(!events.iter().any(|e| matches!(e, Event::Cleared { .. })));
        // A stage stuck from the start earns none either.
        let p = Puzzle::new(&stage(&["か#", "##"], "な", 1, 30.0), &s);
        assert_eq!((p.state(), p.bonus()), (State::Failed(Failure::Stuck), 0));
    }

    #[test]
    fn autoplay_reports_no_bonus_for_a_stuck_stage() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let out = autoplay(&stage(&["さか.#"], "なつ", 2, 60.0), &d, &s);
        assert_eq!(out.state, State::Failed(Failure::Stuck), "{out:?}");
        assert!(out.time_left > 0.0);
        assert_eq!((out.bonus, out.stars), (0, 0));
    }

    #[test]
    fn an_endless_clock_gives_a_finite_bonus_and_every_star() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか.."], "なつ", 2, f32::INFINITY), &s);
        let na = p.hand().iter().position(|k| k.to_char() == 'な').unwrap();
        p.place(&d, na, Pos::new(2, 0)).unwrap();
        p.place(&d, 0, Pos::new(3, 0)).unwrap();
        assert_eq!(p.state(), State::Cleared);
        assert_eq!(p.bonus(), u32::MAX / BONUS_SECONDS);
        assert_eq!(p.stars(), 3);
    }

    #[test]
    fn no_bonus_shows_while_the_stage_is_still_being_played() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか.."], "なつ", 2, 60.0), &s);
        p.update(10.0);
        assert_eq!((p.state(), p.bonus()), (State::Playing, 0));
    }

    #[test]
    fn refusals_are_reported_and_change_nothing() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let mut p = Puzzle::new(&stage(&["さか..", "...."], "ぬ", 1, 30.0), &s);
        let before = p.board().clone();
        assert_eq!(p.place(&d, 0, Pos::new(2, 0)), Err(Refusal::NoWord));
        assert_eq!(p.place(&d, 0, Pos::new(3, 1)), Err(Refusal::NotNextToKana));
        assert_eq!(p.place(&d, 0, Pos::new(0, 0)), Err(Refusal::Taken));
        assert_eq!(p.place(&d, 4, Pos::new(2, 0)), Err(Refusal::NoTile));
        assert_eq!(p.board(), &before);
        assert_eq!(p.tiles_left(), 1);
        let why: Vec<Refusal> = p
            .take_events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Refused { why, .. } => Some(why),
                _ => None,
            })
            .collect();
        assert_eq!(
            why,
            [
                Refusal::NoWord,
                Refusal::NotNextToKana,
                Refusal::Taken,
                Refusal::NoTile
            ]
        );
    }

    #[test]
    fn autoplay_clears_a_small_stage() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        let out = autoplay(&stage(&["さ....", "....."], "かなつ", 3, 60.0), &d, &s);
        assert_eq!(out.state, State::Cleared, "{out:?}");
        assert_eq!(out.moves, 3);
    }

    #[test]
    fn autoplay_gives_up_when_nothing_can_ever_fit() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        // No word starts with ぬ, and the bag deals nothing else that could go after it.
        let out = autoplay(&stage(&["ぬ."], "か", 1, f32::INFINITY), &d, &s);
        assert_eq!(out.gave_up, Some(GaveUp::NothingFits), "{out:?}");
        assert_eq!((out.state, out.moves, out.swaps), (State::Playing, 0, 0));
        assert_eq!((out.bonus, out.stars), (0, 0));
        // The stock never runs dry under swaps, so the な in the bag can never come: nothing
        // in the hand or stock reads after さか.
        let out = autoplay(&stage(&["さか.."], "いいぬ", 1, f32::INFINITY), &d, &s);
        assert_eq!(out.gave_up, Some(GaveUp::NothingFits), "{out:?}");
        assert_eq!(
            GaveUp::NothingFits.to_string(),
            "no tile the hand, the stock or the bag can bring reads anywhere on the board"
        );
    }

    #[test]
    fn autoplay_gives_up_after_too_many_moves_that_place_nothing() {
        let d = dict();
        // The bag deals ぬ a million times for each な, and only な fits.
        let mut w = [0u32; crate::kana::BASES];
        w[Kana::from_char('ぬ').unwrap().tile()] = 1_000_000;
        w[Kana::from_char('な').unwrap().tile()] = 1;
        let s = TileStats::from_weights(w);
        let out = autoplay(&stage(&["さか.."], "ぬ", 1, f32::INFINITY), &d, &s);
        assert_eq!(
            out.gave_up,
            Some(GaveUp::NoPlacement {
                moves: AUTOPLAY_PATIENCE
            }),
            "{out:?}"
        );
        assert_eq!(out.state, State::Playing);
        assert_eq!(out.swaps, AUTOPLAY_PATIENCE);
        assert_eq!(out.moves, 0);
    }

    #[test]
    fn autoplay_gives_up_only_on_a_stage_it_cannot_end() {
        let d = dict();
        let s = TileStats::from_dict(&d);
        // A clock does not make a hopeless stage worth playing out: it gives up at once.
        let out = autoplay(&stage(&["ぬ."], "か", 1, 30.0), &d, &s);
        assert_eq!(out.gave_up, Some(GaveUp::NothingFits));
        assert_eq!(out.time_left, 30.0);
        let out = autoplay(&stage(&["さ....", "....."], "かなつ", 3, 60.0), &d, &s);
        assert_eq!((out.state, out.gave_up), (State::Cleared, None));
    }

    #[derive(Clone, Debug)]
    enum Act {
        Place(usize, usize, usize),
        Turn(usize),
        Swap(usize),
        Hint,
        Wait(u8),
    }

    fn any_act() -> impl Strategy<Value = Act> {
        prop_oneof![
            4 => (0usize..4, 0usize..5, 0usize..3).prop_map(|(s, x, y)| Act::Place(s, x, y)),
            1 => (0usize..4).prop_map(Act::Turn),
            1 => (0usize..4).prop_map(Act::Swap),
            1 => Just(Act::Hint),
            1 => (0u8..30).prop_map(Act::Wait),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        #[test]
        fn autoplay_always_ends_and_says_why_when_the_stage_did_not(
            rows in prop::collection::vec("[...#さかないぬ]{4}", 1..4),
            stock in "[さかなつけいぬ]{1,6}",
            hand in 1usize..4,
            endless in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let d = dict();
            let s = TileStats::from_dict(&d);
            let Ok(board) = Board::from_rows(&rows) else { return Ok(()) };
            let mut st = stage(&["さ"], &stock, hand, if endless { f32::INFINITY } else { 40.0 });
            st.board = board;
            st.seed = seed;
            let out = autoplay(&st, &d, &s);
            prop_assert_eq!(out.state == State::Playing, out.gave_up.is_some(), "{:?}", out);
            if out.state != State::Cleared {
                prop_assert_eq!((out.bonus, out.stars), (0, 0));
            }
        }

        #[test]
        fn tiles_are_never_lost_or_made_and_refusals_change_nothing(
            acts in prop::collection::vec(any_act(), 0..40),
            seed in any::<u64>(),
        ) {
            let d = dict();
            let s = TileStats::from_dict(&d);
            let mut st = stage(&[".....", ".さか..", "....."], "なつけさい", 3, 60.0);
            st.seed = seed;
            st.tiles = 3;
            let mut p = Puzzle::new(&st, &s);
            let kana_on = |p: &Puzzle| p.board().positions().filter(|&q| p.board().kana(q).is_some()).count();
            let total = kana_on(&p) + p.tiles_left();
            for act in acts {
                let before = p.board().clone();
                match act {
                    Act::Place(slot, x, y) => {
                        if p.place(&d, slot, Pos::new(x, y)).is_err() {
                            prop_assert_eq!(p.board(), &before);
                        }
                    }
                    Act::Turn(slot) => { p.turn(slot); }
                    Act::Swap(slot) => { let _ = p.swap(slot); }
                    Act::Hint => { p.hint(&d); }
                    Act::Wait(t) => p.update(t as f32),
                }
                prop_assert_eq!(kana_on(&p) + p.tiles_left(), total);
                prop_assert!(p.time_left() >= 0.0);
                if p.state() != State::Cleared {
                    prop_assert_eq!(p.bonus(), 0);
                }
                if p.state() == State::Cleared {
                    prop_assert_eq!(p.tiles_left(), 0);
                }
            }
        }
    }
}
