//! A game at one table: which mode is playing, what the player has chosen, and what scripts read.
//!
//! The puzzle and the battle are rules; a session adds what a person at a table does with them:
//! choosing a tile (a second tap turns it), the keyboard cursor, pausing, a demo of two bots that
//! starts again when it ends, the words made this game, and this frame's events. It is plain
//! data driven by plain calls, so the engine registration stays a thin layer over it.

use serde::Serialize;

use crate::battle::{Battle, Move, Phase};
use crate::board::{Board, Cell, Pos};
use crate::bot::Skill;
use crate::content::{self, Rival};
use crate::dict::Dict;
use crate::kana::{Kana, TileStats};
use crate::net::{Gone, Mirror, ToClient, ToServer};
use crate::play::{Ending, Event, Failure, MadeWord, Refusal};
use crate::puzzle::{Puzzle, Stage, State};

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

/// A battle through a room: the player's mirror of it and what to send the room.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    /// The room's battle, with the player's moves in flight on top.
    pub mirror: Mirror,
    /// Messages for the room, taken by the package each frame.
    pub outbox: Vec<ToServer>,
    /// Who has asked for a rematch, by seat.
    pub again: [bool; 2],
    /// How the other player left, if they did.
    pub left: Option<Gone>,
    /// Seconds the room still holds the other player's seat after their connection was lost
    /// (`None` while they are here).
    pub away: Option<f32>,
}

impl PartialEq for OnlineGame {
    fn eq(&self, other: &OnlineGame) -> bool {
        self.mirror.seat() == other.mirror.seat()
            && self.mirror.battle() == other.mirror.battle()
            && self.mirror.pending() == other.mirror.pending()
            && self.outbox == other.outbox
            && self.again == other.again
            && self.left == other.left
            && self.away == other.away
    }
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
            if let Event::Placed { player, words, .. } = e {
                self.made.extend(words.iter().map(|w| (w.clone(), *player)));
            }
        }
    }

    /// Takes a message from the room: a start builds the mirror (a new battle), a state is the
    /// room's word on it, events are what happened there. A message that does not fit the
    /// battle changes nothing and says why.
    pub fn receive(&mut self, dict: &Dict, msg: ToClient) -> Result<(), String> {
        match msg {
            ToClient::Start(start) => {
                let mirror = Mirror::new(dict, &start).map_err(|e| e.to_string())?;
                self.reset(
                    Mode::Online(Box::new(OnlineGame {
                        mirror,
                        outbox: Vec::new(),
                        again: [false; 2],
                        left: None,
                        away: None,
                    })),
                    false,
                );
                Ok(())
            }
            ToClient::State(state) => match &mut self.mode {
                Mode::Online(g) => g
                    .mirror
                    .apply_state(dict, &state)
                    .map_err(|e| e.to_string()),
                _ => Err("a state with no battle from the room".into()),
            },
            ToClient::Ev { events } => {
                if !matches!(self.mode, Mode::Online(_)) {
                    return Err("events with no battle from the room".into());
                }
                self.record(&events);
                self.events.extend(events);
                Ok(())
            }
            ToClient::Again { asked } => {
                if let Mode::Online(g) = &mut self.mode {
                    g.again = asked;
                }
                Ok(())
            }
            ToClient::Left { why } => {
                if let Mode::Online(g) = &mut self.mode {
                    g.left = Some(why);
                    g.away = None;
                }
                Ok(())
            }
            ToClient::Away { seat, seconds } => {
                if let Mode::Online(g) = &mut self.mode
                    && seat != g.mirror.seat()
                {
                    g.away = Some(seconds);
                }
                Ok(())
            }
            ToClient::Back { seat } => {
                if let Mode::Online(g) = &mut self.mode
                    && seat != g.mirror.seat()
                {
                    g.away = None;
                }
                Ok(())
            }
            // The lobby's answers are the scene's business (it reads the same frames).
            ToClient::Waiting { .. } | ToClient::Refused { .. } => Ok(()),
        }
    }

    /// The messages for the room since the last call.
    pub fn take_outbox(&mut self) -> Vec<ToServer> {
        match &mut self.mode {
            Mode::Online(g) => std::mem::take(&mut g.outbox),
            _ => Vec::new(),
        }
    }

    /// What scripts read.
    pub fn bag(&self, dict: &Dict, stages: &[Stage], rivals: &[Rival]) -> KotobaBag {
        let mut bag = KotobaBag {
            active: !matches!(self.mode, Mode::None),
            mode: match self.mode {
                Mode::None => "none",
                Mode::Puzzle(_) => "puzzle",
                Mode::Battle(_) | Mode::Online(_) => "battle",
            },
            demo: self.demo,
            paused: self.paused,
            phase: "none",
            selected: self.selected.map_or(-1, |s| s as i64 + 1),
            hand: self
                .hand()
                .iter()
                .map(|k| k.to_char().to_string())
                .collect(),
            cursor: self.cursor.map(|p| [p.x as i64 + 1, p.y as i64 + 1]),
            hint: self.hint.map(|p| [p.x as i64 + 1, p.y as i64 + 1]),
            made: self
                .made
                .iter()
                .map(|(w, player)| BagWord::of(w, *player))
                .collect(),
            words: dict.len(),
            stages: stages.iter().map(BagStage::of).collect(),
            rivals: rivals.iter().map(BagRival::of).collect(),
            events: self.events.iter().map(BagEvent::of).collect(),
            ..KotobaBag::default()
        };
        match &self.mode {
            Mode::None => {}
            Mode::Puzzle(g) => {
                let p = &g.puzzle;
                bag.phase = match p.state() {
                    State::Playing => "playing",
                    State::Cleared => "cleared",
                    State::Failed(_) => "failed",
                };
                bag.stage = Some(g.stage.0.clone());
                bag.stage_name = Some(g.stage.1.clone());
                bag.stage_title = Some(g.stage.2.clone());
                bag.time = Some(p.time());
                bag.time_left = Some(p.time_left());
                bag.score = Some(p.score());
                bag.bonus = Some(p.bonus());
                bag.tiles_left = Some(p.tiles_left());
                bag.stock = Some(p.stock());
                bag.swaps = Some(p.swaps());
                bag.stars = Some(p.stars());
                bag.star_scores = Some(p.star_scores());
            }
            Mode::Battle(g) => {
                battle_bag(&mut bag, &g.battle, YOU);
                bag.rival = Some(g.rival.clone());
            }
            Mode::Online(g) => {
                let seat = g.mirror.seat();
                battle_bag(&mut bag, g.mirror.battle(), seat);
                bag.online = true;
                bag.seat = Some(seat as i64 + 1);
                bag.board = Some(g.mirror.board_name().to_string());
                // Placements only: a swap in flight is no tile on the board.
                bag.pending = Some(
                    g.mirror
                        .pending()
                        .iter()
                        .filter(|p| p.shown && matches!(p.mv, Move::Place { .. }))
                        .count(),
                );
                bag.again = Some(g.again);
                bag.away = g.away.map(f64::from);
                bag.left = g.left.map(|why| {
                    match why {
                        Gone::Quit => "quit",
                        Gone::Lost => "lost",
                        Gone::Removed => "removed",
                    }
                    .to_string()
                });
            }
        }
        bag
    }
}

/// The battle's part of the bag, `you` the player's fighter.
fn battle_bag(bag: &mut KotobaBag, b: &Battle, you: usize) {
    bag.phase = match b.phase() {
        Phase::Countdown => "countdown",
        Phase::Fight => "fight",
        Phase::Over { .. } => "over",
    };
    bag.countdown = Some(b.countdown().ceil() as u32);
    bag.time_left = Some(b.time_left());
    bag.winner = b.winner().map(|w| w.map_or(-1, |i| i as i64 + 1));
    bag.you = Some(you as i64 + 1);
    bag.fighters = Some(
        b.fighters()
            .iter()
            .enumerate()
            .map(|(player, f)| BagFighter {
                name: f.name.clone(),
                hp: f.hp,
                max_hp: f.max_hp,
                score: f.score,
                combo: f.combo,
                multiplier: f.multiplier(),
                combo_left: f.combo_left,
                stun: f.stun,
                words: f.words,
                best: f.best.as_ref().map(|w| BagWord::of(w, player)),
                hand: f.hand().iter().map(|k| k.to_char().to_string()).collect(),
            })
            .collect(),
    );
}

impl OnlineGame {
    /// Plays a placement or a swap on the mirror at once and queues it for the room.
    fn send(&mut self, dict: &Dict, mv: Move) -> Result<(), Refusal> {
        // A guessed tile is not the player's to play until the room deals it.
        let slot = match mv {
            Move::Place { slot, .. } | Move::Swap { slot } | Move::Turn { slot } => slot,
        };
        if self.mirror.guessed(slot) {
            return Err(Refusal::NoTile);
        }
        if let Some(msg) = self.mirror.play(dict, mv)? {
            self.outbox.push(msg);
        }
        Ok(())
    }
}

fn find_rival<'a>(id: &str, rivals: &'a [Rival]) -> Result<&'a Rival, SessionError> {
    rivals.iter().find(|r| r.id == id).ok_or_else(|| {
        SessionError::NoRival(id.into(), rivals.iter().map(|r| r.id.clone()).collect())
    })
}

/// The `kotoba` bag: what scripts read of a table. Players and slots count from 1; fields that
/// belong to the other mode are `nil`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KotobaBag {
    /// Whether a game is at the table.
    pub active: bool,
    /// `puzzle`, `battle` or `none`.
    pub mode: &'static str,
    /// Whether two bots are playing for show.
    pub demo: bool,
    /// Whether the clock is stopped.
    pub paused: bool,
    /// `playing`, `cleared`, `failed` (puzzle); `countdown`, `fight`, `over` (battle); `none`.
    pub phase: &'static str,
    /// The chosen hand slot, from 1; -1 for none.
    pub selected: i64,
    /// The player's hand, one kana each.
    pub hand: Vec<String>,
    /// The keyboard cursor's cell `[x, y]` from 1, once shown.
    pub cursor: Option<[i64; 2]>,
    /// The hint's cell `[x, y]` from 1, while lit.
    pub hint: Option<[i64; 2]>,
    /// Every word made this game.
    pub made: Vec<BagWord>,
    /// How many words the dictionary holds.
    pub words: usize,
    /// The stages, for menus.
    pub stages: Vec<BagStage>,
    /// The rivals, for menus.
    pub rivals: Vec<BagRival>,
    /// This frame's events.
    pub events: Vec<BagEvent>,
    /// Puzzle: the stage's id.
    pub stage: Option<String>,
    /// Puzzle: the stage's name.
    pub stage_name: Option<String>,
    /// Puzzle: the stage's line.
    pub stage_title: Option<String>,
    /// Puzzle: seconds on the clock at the start.
    pub time: Option<f32>,
    /// Seconds left (puzzle and battle).
    pub time_left: Option<f32>,
    /// Puzzle: points from words.
    pub score: Option<u32>,
    /// Puzzle: the time bonus.
    pub bonus: Option<u32>,
    /// Puzzle: tiles still to place.
    pub tiles_left: Option<usize>,
    /// Puzzle: tiles left in the stock.
    pub stock: Option<usize>,
    /// Puzzle: swaps made.
    pub swaps: Option<u32>,
    /// Puzzle: stars earned.
    pub stars: Option<u32>,
    /// Puzzle: the three star scores.
    pub star_scores: Option<[u32; 3]>,
    /// Battle: the countdown's number (0 once fighting).
    pub countdown: Option<u32>,
    /// Battle: the winner from 1, -1 for a draw; `nil` while it goes on.
    pub winner: Option<i64>,
    /// Battle: which fighter is the player, from 1.
    pub you: Option<i64>,
    /// Battle: the rival's id.
    pub rival: Option<String>,
    /// Battle: both fighters, the player first.
    pub fighters: Option<Vec<BagFighter>>,
    /// Whether the table plays through a room (`Kotoba.online`).
    pub online: bool,
    /// Online: the player's seat, from 1.
    pub seat: Option<i64>,
    /// Online: the name of the board the room plays on.
    pub board: Option<String>,
    /// Online: the player's placements down on the board that the room has not answered.
    pub pending: Option<usize>,
    /// Online: who has asked for a rematch, by seat.
    pub again: Option<[bool; 2]>,
    /// Online: seconds the room still holds the other player's seat after their connection
    /// was lost (absent while they are here).
    pub away: Option<f64>,
    /// Online: how the other player left (`quit`, `lost`, `removed`).
    pub left: Option<String>,
}

/// A word as scripts read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagWord {
    /// In kana.
    pub reading: String,
    /// How it is written.
    pub written: String,
    /// What it means.
    pub meaning: String,
    /// Its points.
    pub points: u32,
    /// Who made it, from 1.
    pub player: usize,
    /// Its cells, `[x, y]` from 1.
    pub cells: Vec<[usize; 2]>,
}

impl BagWord {
    fn of(w: &MadeWord, player: usize) -> BagWord {
        BagWord {
            reading: w.reading.clone(),
            written: w.written.clone(),
            meaning: w.meaning.clone(),
            points: w.points,
            player: player + 1,
            cells: w.cells.iter().map(|p| [p.x + 1, p.y + 1]).collect(),
        }
    }
}

/// A stage row for menus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagStage {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its line.
    pub title: String,
    /// Seconds on the clock.
    pub time: f32,
    /// The star scores.
    pub stars: [u32; 3],
}

impl BagStage {
    fn of(s: &Stage) -> BagStage {
        BagStage {
            id: s.id.clone(),
            name: s.name.clone(),
            title: s.title.clone(),
            time: s.time,
            stars: s.stars,
        }
    }
}

/// A rival row for menus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagRival {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its line.
    pub title: String,
    /// Its life.
    pub life: u32,
    /// How many tiles it holds.
    pub hand: usize,
}

impl BagRival {
    fn of(r: &Rival) -> BagRival {
        BagRival {
            id: r.id.clone(),
            name: r.name.clone(),
            title: r.title.clone(),
            life: r.life,
            hand: r.hand,
        }
    }
}

/// A fighter as scripts read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BagFighter {
    /// Name.
    pub name: String,
    /// Life left.
    pub hp: u32,
    /// Life at the start.
    pub max_hp: u32,
    /// Points from words.
    pub score: u32,
    /// Chain steps.
    pub combo: u32,
    /// The damage multiplier now.
    pub multiplier: f32,
    /// Seconds left for the next word to chain.
    pub combo_left: f32,
    /// Seconds left stunned.
    pub stun: f32,
    /// Words made.
    pub words: u32,
    /// The best word so far.
    pub best: Option<BagWord>,
    /// The tiles held.
    pub hand: Vec<String>,
}

/// One of this frame's events as scripts read it: `kind` says which, and the fields that
/// kind has are set.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BagEvent {
    /// `started`, `countdown`, `placed`, `refused`, `turned`, `swapped`, `hit`, `cleared`,
    /// `failed` or `over`.
    pub kind: &'static str,
    /// Countdown: the number shown (0 is "go").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// Who, from 1 (placed, refused, turned, swapped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<usize>,
    /// Placed: the cell, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<usize>,
    /// Placed: the cell, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<usize>,
    /// The kana (placed, turned, swapped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kana: Option<String>,
    /// Turned, swapped: the hand slot, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<usize>,
    /// Placed: the points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// Placed, hit: the damage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// Placed: the combo step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combo: Option<u32>,
    /// Placed: the words, each with its cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<Vec<BagWord>>,
    /// Refused, failed, over: why, in a few words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
    /// Hit: who was hit, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<usize>,
    /// Hit: life left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// Cleared: the score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u32>,
    /// Cleared: the bonus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus: Option<u32>,
    /// Cleared: seconds left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_left: Option<f32>,
    /// Over: the winner from 1, -1 for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<i64>,
}

impl BagEvent {
    fn of(e: &Event) -> BagEvent {
        let none = BagEvent::default();
        match e {
            Event::Started => BagEvent {
                kind: "started",
                ..none
            },
            Event::Countdown(n) => BagEvent {
                kind: "countdown",
                n: Some(*n),
                ..none
            },
            Event::Placed {
                player,
                pos,
                kana,
                points,
                damage,
                combo,
                words,
            } => BagEvent {
                kind: "placed",
                player: Some(player + 1),
                x: Some(pos.x + 1),
                y: Some(pos.y + 1),
                kana: Some(kana.to_char().to_string()),
                points: Some(*points),
                damage: Some(*damage),
                combo: Some(*combo),
                words: Some(words.iter().map(|w| BagWord::of(w, *player)).collect()),
                ..none
            },
            Event::Refused { player, why } => BagEvent {
                kind: "refused",
                player: Some(player + 1),
                why: Some(why.why()),
                ..none
            },
            Event::Turned { player, slot, kana } => BagEvent {
                kind: "turned",
                player: Some(player + 1),
                slot: Some(slot + 1),
                kana: Some(kana.to_char().to_string()),
                ..none
            },
            Event::Swapped { player, slot, kana } => BagEvent {
                kind: "swapped",
                player: Some(player + 1),
                slot: Some(slot + 1),
                kana: Some(kana.to_char().to_string()),
                ..none
            },
            Event::Hit { to, damage, hp } => BagEvent {
                kind: "hit",
                to: Some(to + 1),
                damage: Some(*damage),
                hp: Some(*hp),
                ..none
            },
            Event::Cleared {
                score,
                bonus,
                time_left,
            } => BagEvent {
                kind: "cleared",
                score: Some(*score),
                bonus: Some(*bonus),
                time_left: Some(*time_left),
                ..none
            },
            Event::Failed { why } => BagEvent {
                kind: "failed",
                why: Some(match why {
                    Failure::Time => "time",
                    Failure::Stuck => "stuck",
                }),
                ..none
            },
            Event::Over { winner, why } => BagEvent {
                kind: "over",
                winner: Some(winner.map_or(-1, |w| w as i64 + 1)),
                why: Some(match why {
                    Ending::Ko => "ko",
                    Ending::Time => "time",
                    Ending::Full => "full",
                }),
                ..none
            },
        }
    }
}

/// Whether `pos` holds a kana on `board` (for drawing and hit tests).
pub fn kana_at(board: &Board, pos: Pos) -> Option<Kana> {
    match board.cell(pos) {
        Cell::Kana(k) => Some(k),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (&'static Dict, TileStats, Vec<Stage>, Vec<Rival>) {
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

    #[test]
    fn the_bag_counts_players_and_slots_from_one() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        s.battle("r01", &rivals, &stats, 3).unwrap();
        let bag = s.bag(dict, &stages, &rivals);
        assert_eq!(
            (bag.mode, bag.phase, bag.you),
            ("battle", "countdown", Some(1))
        );
        assert_eq!(bag.selected, -1);
        assert_eq!(bag.fighters.as_ref().unwrap().len(), 2);
        assert_eq!(bag.events[0].kind, "started");
        assert_eq!(bag.events[1].n, Some(3));
        assert!(bag.stage.is_none());
    }

    #[test]
    fn a_fighters_best_word_names_that_fighter() {
        let (dict, stats, stages, rivals) = setup();
        let mut s = Session::default();
        s.demo(&rivals, &stats, 5).unwrap();
        let mut frames = 0;
        loop {
            let bag = s.bag(dict, &stages, &rivals);
            let fighters = bag.fighters.unwrap();
            if let (Some(a), Some(b)) = (&fighters[0].best, &fighters[1].best) {
                assert_eq!((a.player, b.player), (1, 2));
                break;
            }
            frames += 1;
            assert!(frames < 60 * 120, "two minutes and no word from each bot");
            s.begin_frame();
            s.update(dict, &stats, &rivals, 1.0 / 60.0);
        }
    }
}

#[cfg(test)]
mod online_tests {
    use super::*;
    use crate::battle::{FighterSpec, Setup};
    use crate::net::{start_for, state_for};

    fn setup() -> Setup {
        Setup {
            board: content::battle_board(),
            fighters: ["aoi", "ben"].map(|n| FighterSpec {
                bot: None,
                ..content::player(n)
            }),
            time: 60.0,
            seed: 9,
            countdown: false,
        }
    }

    #[test]
    fn a_room_battle_is_played_on_the_mirror_and_sent() {
        let dict = Dict::japanese();
        let stats = TileStats::from_dict(dict);
        let mut room = Battle::new(&setup(), &stats).unwrap();
        let mut s = Session::default();
        s.receive(
            dict,
            ToClient::Start(start_for(&setup(), crate::content::BATTLE_BOARD_NAME, 1)),
        )
        .unwrap();
        assert_eq!(s.you(), 1);
        let bag = s.bag(dict, &[], &[]);
        assert!(bag.online && bag.active);
        assert_eq!((bag.mode, bag.seat), ("battle", Some(2)));
        assert_eq!(bag.board.as_deref(), Some("ひろば"));
        // A swap goes down at once, is sent, and its fresh tile is a guess until answered.
        s.select(0).unwrap();
        s.swap(dict).unwrap();
        let sent = s.take_outbox();
        assert!(
            matches!(sent.as_slice(), [ToServer::Play { number: 1, .. }]),
            "{sent:?}"
        );
        assert!(s.guessed(0));
        assert_eq!(
            s.bag(dict, &[], &[]).pending,
            Some(0),
            "a swap is no tile down"
        );
        s.select(0).unwrap();
        assert_eq!(s.swap(dict), Err(SessionError::Refused(Refusal::NoTile)));
        assert!(s.take_outbox().is_empty(), "a guessed tile is not sent");
        // The room applies it and answers: the guess is the room's tile now.
        let ToServer::Play { mv, .. } = sent[0] else {
            unreachable!()
        };
        room.apply(dict, 1, mv).unwrap();
        s.receive(dict, ToClient::State(state_for(&room, 1)))
            .unwrap();
        assert!(!s.guessed(0));
        assert_eq!(s.hand(), room.fighters()[1].hand());
        // The other player's connection lost: how long their seat is held counts down, and
        // goes when they are back; word of one's own seat is not about the other.
        s.receive(
            dict,
            ToClient::Away {
                seat: 0,
                seconds: 5.0,
            },
        )
        .unwrap();
        assert_eq!(s.bag(dict, &[], &[]).away, Some(5.0));
        s.update(dict, &stats, &[], 1.0);
        assert_eq!(s.bag(dict, &[], &[]).away, Some(4.0));
        s.receive(dict, ToClient::Back { seat: 0 }).unwrap();
        assert_eq!(s.bag(dict, &[], &[]).away, None);
        s.receive(
            dict,
            ToClient::Away {
                seat: 1,
                seconds: 5.0,
            },
        )
        .unwrap();
        assert_eq!(s.bag(dict, &[], &[]).away, None);
        // Events from the room are this frame's events; a state with no battle is refused.
        s.receive(
            dict,
            ToClient::Left {
                why: crate::net::Gone::Quit,
            },
        )
        .unwrap();
        assert_eq!(s.bag(dict, &[], &[]).left.as_deref(), Some("quit"));
        let mut idle = Session::default();
        assert!(
            idle.receive(dict, ToClient::State(state_for(&room, 0)))
                .is_err()
        );
    }
}
