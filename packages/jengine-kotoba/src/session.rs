//! A game at one table: which mode is playing, what the player has chosen, and what happens
//! when time moves.
//!
//! The puzzle and the battle are rules; a session adds what a person at a table does with them:
//! choosing a tile (a second tap turns it), the keyboard cursor, pausing, a demo of two bots that
//! starts again when it ends, the words made this game, and this frame's events. It is plain
//! data driven by plain calls, so the engine registration stays a thin layer over it. A battle
//! through a room is [`OnlineGame`]'s; what scripts read of a session is [`crate::bag`]'s.

use crate::battle::{Battle, Move};
use crate::board::{Board, Cell, Pos};
use crate::bot::Skill;
use crate::content::{self, Rival};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::play::{Event, MadeWord, Refusal};
use crate::puzzle::{Puzzle, Stage};

mod online;

pub use online::OnlineGame;

/// Seconds a finished demo stays on screen before the next one starts.
pub const DEMO_PAUSE: f32 = 3.0;

/// What is being played.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// Nothing: the board is clear.
    None,
    /// A puzzle stage.
    Puzzle(Box<PuzzleGame>),
    /// A battle (or a demo of two bots).
    Battle(Box<BattleGame>),
    /// A battle against another player, through a room.
    Online(Box<OnlineGame>),
}

/// A puzzle with the stage it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleGame {
    /// The rules.
    pub puzzle: Puzzle,
    /// The stage's id, name and title.
    pub stage: (String, String, String),
}

/// A battle with who is fighting.
#[derive(Clone, Debug, PartialEq)]
pub struct BattleGame {
    /// The rules.
    pub battle: Battle,
    /// The rival's id.
    pub rival: String,
    /// The seed it was dealt from (a demo deals the next one from it).
    pub seed: u64,
    /// Seconds since it ended (a demo restarts after [`DEMO_PAUSE`]).
    pub ended_for: f32,
}

/// Why a session call was refused, in words a script author can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// No stage has this id.
    NoStage(String, Vec<String>),
    /// No rival has this id.
    NoRival(String, Vec<String>),
    /// The call needs a game and none is playing.
    NothingPlaying,
    /// The call needs a puzzle.
    NotAPuzzle,
    /// A slot outside the hand.
    NoSlot {
        /// The slot asked for, from 1.
        slot: i64,
        /// How many tiles the hand holds.
        len: usize,
    },
    /// The move was refused by the rules.
    Refused(Refusal),
    /// The rules would not set the game up.
    Setup(String),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::NoStage(id, known) => {
                write!(f, "no stage {id:?} (stages: {})", known.join(", "))
            }
            SessionError::NoRival(id, known) => {
                write!(f, "no rival {id:?} (rivals: {})", known.join(", "))
            }
            SessionError::NothingPlaying => f.write_str("no game is playing at this table"),
            SessionError::NotAPuzzle => f.write_str("only a puzzle has hints"),
            SessionError::NoSlot { slot, len } => {
                write!(f, "slot {slot} is not in the hand (1 to {len})")
            }
            SessionError::Refused(why) => write!(f, "refused: {why}"),
            SessionError::Setup(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SessionError {}

/// One table's game and the player's hands on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// What is playing.
    pub mode: Mode,
    /// Whether it is two bots playing for show.
    pub demo: bool,
    /// Whether the clock is stopped (and the kana hidden).
    pub paused: bool,
    /// The chosen hand slot, from 0.
    pub selected: Option<usize>,
    /// The keyboard cursor, once shown.
    pub cursor: Option<Pos>,
    /// Every word made this game, with who made it (from 0).
    pub made: Vec<(MadeWord, usize)>,
    /// This frame's events, oldest first.
    pub events: Vec<Event>,
    /// The hint cell to light.
    pub hint: Option<Pos>,
    /// A hand tile held by the pointer.
    pub carry: Option<Carry>,
    /// The cell the player last tried to place on.
    pub tried: Option<Pos>,
    /// Each player's points this game from tiles that read both across and down: the half
    /// again on top of those words' own points (rounded down with them). A player's words'
    /// points and this add up to their score.
    pub both_ways: [u32; 2],
}

/// A hand tile held by a pointer, from press to release.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carry {
    /// Its slot, from 0.
    pub slot: usize,
    /// Where the press was, in world units.
    pub from: [f32; 2],
    /// Where the pointer is.
    pub at: [f32; 2],
    /// Whether it has moved far enough to be a drag.
    pub moved: bool,
    /// Whether the tile was already chosen when pressed (a tap then turns it).
    pub was_chosen: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            mode: Mode::None,
            demo: false,
            paused: false,
            selected: None,
            cursor: None,
            made: Vec::new(),
            events: Vec::new(),
            hint: None,
            carry: None,
            tried: None,
            both_ways: [0; 2],
        }
    }
}

/// The player at a table is player 0.
pub const YOU: usize = 0;

impl Session {
    fn reset(&mut self, mode: Mode, demo: bool) {
        *self = Session {
            mode,
            demo,
            ..Session::default()
        };
        self.collect();
    }

    /// Starts the stage `id` from `stages`.
    pub fn puzzle(
        &mut self,
        id: &str,
        stages: &[Stage],
        stats: &TileStats,
    ) -> Result<(), SessionError> {
        let stage = stages.iter().find(|s| s.id == id).ok_or_else(|| {
            SessionError::NoStage(id.into(), stages.iter().map(|s| s.id.clone()).collect())
        })?;
        let game = PuzzleGame {
            puzzle: Puzzle::new(stage, stats),
            stage: (stage.id.clone(), stage.name.clone(), stage.title.clone()),
        };
        self.reset(Mode::Puzzle(Box::new(game)), false);
        Ok(())
    }

    /// Starts a battle against the rival `id`, dealt from `seed`.
    pub fn battle(
        &mut self,
        id: &str,
        rivals: &[Rival],
        stats: &TileStats,
        seed: u64,
    ) -> Result<(), SessionError> {
        let rival = find_rival(id, rivals)?;
        let setup = rival.setup(content::player("あなた"), seed);
        let game = BattleGame {
            battle: Battle::new(&setup, stats).map_err(|e| SessionError::Setup(e.to_string()))?,
            rival: rival.id.clone(),
            seed,
            ended_for: 0.0,
        };
        self.reset(Mode::Battle(Box::new(game)), false);
        Ok(())
    }

    /// Starts two bots fighting: the first rival's skill on both sides, dealt from `seed`.
    pub fn demo(
        &mut self,
        rivals: &[Rival],
        stats: &TileStats,
        seed: u64,
    ) -> Result<(), SessionError> {
        let rival = rivals
            .first()
            .cloned()
            .unwrap_or_else(content::builtin_rival);
        let mut setup = rival.setup(rival.fighter(), seed);
        setup.fighters[0].name = "あお".into();
        setup.fighters[1].name = "あか".into();
        let quick = Skill {
            sight: 0.6,
            think: 1.2,
        };
        setup.fighters[0].bot = Some(quick);
        setup.fighters[1].bot = Some(quick);
        let game = BattleGame {
            battle: Battle::new(&setup, stats).map_err(|e| SessionError::Setup(e.to_string()))?,
            rival: rival.id.clone(),
            seed,
            ended_for: 0.0,
        };
        self.reset(Mode::Battle(Box::new(game)), true);
        Ok(())
    }

    /// Clears the table.
    pub fn stop(&mut self) {
        self.reset(Mode::None, false);
    }

    /// Stops or restarts the clock.
    pub fn pause(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// The player's hand.
    pub fn hand(&self) -> &[Kana] {
        match &self.mode {
            Mode::None => &[],
            Mode::Puzzle(g) => g.puzzle.hand(),
            Mode::Battle(g) => g.battle.fighters()[YOU].hand(),
            Mode::Online(g) => g.mirror.hand(),
        }
    }

    /// Whether hand slot `slot` holds a tile the room has not dealt yet (online: the mirror's
    /// guess for a move in flight, drawn face down).
    pub fn guessed(&self, slot: usize) -> bool {
        match &self.mode {
            Mode::Online(g) => g.mirror.guessed(slot),
            _ => false,
        }
    }

    /// Which fighter the player is: player 0 at a table, their seat in a room.
    pub fn you(&self) -> usize {
        match &self.mode {
            Mode::Online(g) => g.mirror.seat(),
            _ => YOU,
        }
    }

    /// The rival's hand (a battle's player 1).
    pub fn rival_hand(&self) -> &[Kana] {
        match &self.mode {
            Mode::Battle(g) => g.battle.fighters()[1].hand(),
            Mode::Online(g) => g.mirror.fighters()[1 - g.mirror.seat()].hand(),
            _ => &[],
        }
    }

    /// The board in play.
    pub fn board(&self) -> Option<&Board> {
        match &self.mode {
            Mode::None => None,
            Mode::Puzzle(g) => Some(g.puzzle.board()),
            Mode::Battle(g) => Some(g.battle.board()),
            Mode::Online(g) => Some(g.mirror.board()),
        }
    }

    fn playing(&self) -> Result<(), SessionError> {
        if matches!(self.mode, Mode::None) {
            return Err(SessionError::NothingPlaying);
        }
        if self.demo {
            return Err(SessionError::Refused(Refusal::NotPlaying));
        }
        if self.paused {
            return Err(SessionError::Refused(Refusal::NotPlaying));
        }
        Ok(())
    }

    /// Chooses hand slot `slot` (from 0); choosing the chosen one again turns it.
    pub fn choose(&mut self, slot: usize, dict: &Dict) -> Result<(), SessionError> {
        self.playing()?;
        let len = self.hand().len();
        if slot >= len {
            return Err(SessionError::NoSlot {
                slot: slot as i64 + 1,
                len,
            });
        }
        if self.selected == Some(slot) {
            return self.turn(dict);
        }
        self.selected = Some(slot);
        Ok(())
    }

    /// Chooses hand slot `slot` without turning it (for `select`).
    pub fn select(&mut self, slot: usize) -> Result<(), SessionError> {
        self.playing()?;
        let len = self.hand().len();
        if slot >= len {
            return Err(SessionError::NoSlot {
                slot: slot as i64 + 1,
                len,
            });
        }
        self.selected = Some(slot);
        Ok(())
    }

    fn chosen(&self) -> Result<usize, SessionError> {
        self.selected
            .filter(|&s| s < self.hand().len())
            .ok_or(SessionError::Refused(Refusal::NoTile))
    }

    /// Turns the chosen tile to its next form.
    pub fn turn(&mut self, dict: &Dict) -> Result<(), SessionError> {
        self.playing()?;
        let slot = self.chosen()?;
        match &mut self.mode {
            Mode::Puzzle(g) => {
                g.puzzle.turn(slot);
            }
            Mode::Battle(g) => g
                .battle
                .apply(dict, YOU, Move::Turn { slot })
                .map_err(SessionError::Refused)?,
            // Turning is the player's own business: never sent.
            Mode::Online(g) => {
                g.mirror.turn(dict, slot).map_err(SessionError::Refused)?;
            }
            Mode::None => return Err(SessionError::NothingPlaying),
        }
        self.collect();
        Ok(())
    }

    /// Swaps the chosen tile.
    pub fn swap(&mut self, dict: &Dict) -> Result<(), SessionError> {
        self.playing()?;
        let slot = self.chosen()?;
        let result = match &mut self.mode {
            Mode::Puzzle(g) => g.puzzle.swap(slot).map(|_| ()),
            Mode::Battle(g) => g.battle.apply(dict, YOU, Move::Swap { slot }),
            Mode::Online(g) => g.send(dict, Move::Swap { slot }),
            Mode::None => return Err(SessionError::NothingPlaying),
        };
        self.hint = None;
        self.collect();
        result.map_err(SessionError::Refused)
    }

    /// Puts the chosen tile on `pos`. A refusal is an event too, and changes nothing.
    pub fn place(&mut self, pos: Pos, dict: &Dict) -> Result<(), SessionError> {
        self.playing()?;
        let slot = self.chosen()?;
        let face = self.hand()[slot];
        self.tried = Some(pos);
        let result = match &mut self.mode {
            Mode::Puzzle(g) => g.puzzle.place(dict, slot, pos).map(|_| ()),
            Mode::Battle(g) => g.battle.apply(dict, YOU, Move::Place { slot, pos, face }),
            Mode::Online(g) => g.send(dict, Move::Place { slot, pos, face }),
            Mode::None => return Err(SessionError::NothingPlaying),
        };
        if result.is_ok() {
            self.selected = None;
            self.hint = None;
        }
        self.collect();
        result.map_err(SessionError::Refused)
    }

    /// Moves the keyboard cursor by (`dx`, `dy`) cells; the first call only shows it, on the
    /// open cell nearest the board's middle.
    pub fn move_cursor(&mut self, dx: i64, dy: i64) -> Result<(), SessionError> {
        let board = self.board().ok_or(SessionError::NothingPlaying)?;
        let (w, h) = (board.width() as i64, board.height() as i64);
        self.cursor = Some(match self.cursor {
            None => {
                let middle = (w / 2, h / 2);
                board
                    .open_cells()
                    .min_by_key(|p| {
                        let (x, y) = (p.x as i64, p.y as i64);
                        ((x - middle.0).pow(2) + (y - middle.1).pow(2), y, x)
                    })
                    .unwrap_or(Pos::new((w / 2) as usize, (h / 2) as usize))
            }
            Some(p) => Pos::new(
                (p.x as i64 + dx).clamp(0, w - 1) as usize,
                (p.y as i64 + dy).clamp(0, h - 1) as usize,
            ),
        });
        Ok(())
    }

    /// Puts the chosen tile under the cursor.
    pub fn place_at_cursor(&mut self, dict: &Dict) -> Result<(), SessionError> {
        let pos = self
            .cursor
            .ok_or(SessionError::Refused(Refusal::NotACell))?;
        self.place(pos, dict)
    }

    /// A puzzle's hint: chooses the tile and lights its cell.
    pub fn hint(&mut self, dict: &Dict) -> Result<(), SessionError> {
        self.playing()?;
        let Mode::Puzzle(g) = &mut self.mode else {
            return Err(SessionError::NotAPuzzle);
        };
        if let Some(h) = g.puzzle.hint(dict) {
            self.selected = Some(h.slot);
            self.hint = Some(h.pos);
        }
        self.collect();
        Ok(())
    }

    /// Makes sure refusal `why` of the player's move is among the events added since event
    /// `since`: the rules announce most of theirs, and the ones the table decides itself (no
    /// tile chosen, nothing running, a move a room's mirror refused) are added here.
    pub fn announce_refusal(&mut self, why: Refusal, since: usize) {
        let you = self.you();
        let told = self.events.get(since..).is_some_and(|new| {
            new.iter()
                .any(|e| matches!(e, Event::Refused { player, .. } if *player == you))
        });
        if !told {
            self.events.push(Event::Refused { player: you, why });
        }
    }

    /// Clears last frame's events; the frame's own come from [`Session::update`] and the calls.
    pub fn begin_frame(&mut self) {
        self.events.clear();
    }

    /// Moves time on by `dt` seconds (nothing while paused); a finished demo deals the next.
    pub fn update(&mut self, dict: &Dict, stats: &TileStats, rivals: &[Rival], dt: f32) {
        if self.paused {
            return;
        }
        let mut next_demo = None;
        match &mut self.mode {
            Mode::None => {}
            Mode::Puzzle(g) => g.puzzle.update(dt),
            Mode::Online(g) => {
                if let Some(away) = &mut g.away {
                    *away = (*away - dt).max(0.0);
                }
                g.mirror.update(dict, dt)
            }
            Mode::Battle(g) => {
                g.battle.update(dict, dt);
                if g.battle.winner().is_some() {
                    g.ended_for += dt;
                    if self.demo && g.ended_for >= DEMO_PAUSE {
                        next_demo = Some(g.seed.wrapping_add(1));
                    }
                }
            }
        }
        self.collect();
        if let Some(seed) = next_demo {
            let kept = std::mem::take(&mut self.events);
            // The rival dealt the last demo, so it deals the next; if not, the table clears.
            if self.demo(rivals, stats, seed).is_err() {
                self.stop();
            }
            let mut events = kept;
            events.append(&mut self.events);
            self.events = events;
        }
        // A chosen slot past the end of a hand that shrank is no choice.
        if self.selected.is_some_and(|s| s >= self.hand().len()) {
            self.selected = None;
        }
    }

    /// Moves the rules' new events into this frame's, keeping the words made.
    fn collect(&mut self) {
        let events = match &mut self.mode {
            Mode::None => Vec::new(),
            Mode::Puzzle(g) => g.puzzle.take_events(),
            Mode::Battle(g) => g.battle.take_events(),
            // The room's events arrive as messages (see `receive`).
            Mode::Online(_) => Vec::new(),
        };
        self.record(&events);
        self.events.extend(events);
    }

    fn record(&mut self, events: &[Event]) {
        for e in events {
            if let Event::Placed {
                player,
                points,
                words,
                ..
            } = e
            {
                self.made.extend(words.iter().map(|w| (w.clone(), *player)));
                let own: u32 = words.iter().map(|w| w.points).sum();
                if let Some(b) = self.both_ways.get_mut(*player) {
                    *b += points.saturating_sub(own);
                }
            }
        }
    }
}

fn find_rival<'a>(id: &str, rivals: &'a [Rival]) -> Result<&'a Rival, SessionError> {
    rivals.iter().find(|r| r.id == id).ok_or_else(|| {
        SessionError::NoRival(id.into(), rivals.iter().map(|r| r.id.clone()).collect())
    })
}

/// Whether `pos` holds a kana on `board` (for drawing and hit tests).
pub fn kana_at(board: &Board, pos: Pos) -> Option<Kana> {
    match board.cell(pos) {
        Cell::Kana(k) => Some(k),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn setup() -> (&'static Dict, TileStats, Vec<Stage>, Vec<Rival>) {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        (
            dict,
            stats,
            content::shipped_stages().unwrap(),
            content::shipped_rivals().unwrap(),
        )
    }

    #[test]
    fn a_second_tap_on_the_chosen_tile_turns_it() {
        let (dict, stats, stages, _) = setup();
        let mut s = Session::default();
        s.puzzle("s01", &stages, &stats).unwrap();
        s.begin_frame();
        s.choose(0, dict).unwrap();
        assert_eq!(s.selected, Some(0));
        s.choose(0, dict).unwrap();
        let turned = s
            .events
            .iter()
            .any(|e| matches!(e, Event::Turned { slot: 0, .. }));
        let base = s.hand()[0].forms().len() == 1;
        assert!(turned || base, "{:?}", s.events);
        assert_eq!(s.selected, Some(0));
    }

    #[test]
    fn unknown_ids_and_slots_are_named() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        let err = s.puzzle("s99", &stages, &stats).unwrap_err().to_string();
        assert!(
            err.starts_with("no stage \"s99\" (stages: s01, s02"),
            "{err}"
        );
        let err = s
            .battle("nobody", &rivals, &stats, 1)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("no rival \"nobody\""), "{err}");
        assert_eq!(s.choose(0, dict), Err(SessionError::NothingPlaying));
        s.puzzle("s01", &stages, &stats).unwrap();
        assert_eq!(
            s.select(99).unwrap_err().to_string(),
            "slot 100 is not in the hand (1 to 7)"
        );
    }

    #[test]
    fn pause_stops_the_clock_and_moves() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        s.puzzle("s01", &stages, &stats).unwrap();
        s.pause(true);
        s.update(dict, &stats, &rivals, 5.0);
        let bag = s.bag(dict, &stages, &rivals);
        assert_eq!(bag.time_left, bag.time);
        assert_eq!(s.select(0), Err(SessionError::Refused(Refusal::NotPlaying)));
        s.pause(false);
        s.update(dict, &stats, &rivals, 5.0);
        assert!(s.bag(dict, &stages, &rivals).time_left < bag.time);
    }

    #[test]
    fn the_cursor_first_shows_then_moves_within_the_board() {
        let (_, stats, stages, _) = setup();
        let mut s = Session::default();
        s.puzzle("s01", &stages, &stats).unwrap();
        s.move_cursor(5, 5).unwrap();
        let first = s.cursor.unwrap();
        assert!(s.board().unwrap().next_to_kana(first));
        s.move_cursor(-100, 100).unwrap();
        let h = s.board().unwrap().height();
        assert_eq!(s.cursor, Some(Pos::new(0, h - 1)));
    }

    #[test]
    fn a_demo_starts_again_after_it_ends() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        s.demo(&rivals, &stats, 7).unwrap();
        let mut restarts = 0;
        for _ in 0..(60 * 60 * 4) {
            s.begin_frame();
            s.update(dict, &stats, &rivals, 1.0 / 60.0);
            if s.events.iter().any(|e| matches!(e, Event::Over { .. })) {
                restarts += 1;
            }
            if restarts == 1 && s.events.contains(&Event::Started) {
                break;
            }
        }
        assert!(s.demo && restarts >= 1, "the demo never ended");
        let Mode::Battle(g) = &s.mode else {
            panic!("a demo is a battle")
        };
        assert_eq!(g.seed, 8);
        assert!(s.bag(dict, &stages, &rivals).demo);
    }
}
