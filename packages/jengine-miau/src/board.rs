//! The board and one turn of play: move every YOU, run automata, re-read rules, transform,
//! then resolve contact (DEFEAT, SINK, WIN).
//!
//! A [`Proof`] is a level compiled once (its tokens interned, its automata bound); a [`Board`] is
//! the changing part, small enough to clone per search node and to pack into a few bytes per
//! entity. Entities keep their slot for life, so an entity id is simply its index.

use std::sync::Arc;

use crate::pack::{Behaviour, Facing, Level, PlacementKind};
use crate::rules::{
    self, DEFEAT, FIRST_CUSTOM_BIT, Lexicon, OverBudget, PUSH, RULE_READING_BUDGET, Rules, SINK,
    STOP, Tok, WIN, WordTile, YOU,
};

/// The largest width or height a proof may have.
pub const MAX_SIDE: u32 = 255;

/// What the player does with one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Move every YOU one cell up.
    Up,
    /// Move every YOU one cell down.
    Down,
    /// Move every YOU one cell left.
    Left,
    /// Move every YOU one cell right.
    Right,
    /// Let a turn pass without moving.
    Wait,
}

impl Action {
    /// Every action, in the order the solver tries them.
    pub const ALL: [Action; 5] = [
        Action::Up,
        Action::Down,
        Action::Left,
        Action::Right,
        Action::Wait,
    ];

    /// The one-letter spelling: `U`, `D`, `L`, `R`, `W`.
    pub fn letter(self) -> char {
        match self {
            Action::Up => 'U',
            Action::Down => 'D',
            Action::Left => 'L',
            Action::Right => 'R',
            Action::Wait => 'W',
        }
    }

    /// Parses one letter (any case; `.` also means wait).
    pub fn from_letter(c: char) -> Option<Action> {
        match c.to_ascii_uppercase() {
            'U' => Some(Action::Up),
            'D' => Some(Action::Down),
            'L' => Some(Action::Left),
            'R' => Some(Action::Right),
            'W' | '.' => Some(Action::Wait),
            _ => None,
        }
    }

    /// Parses a whole sequence such as `RRUUL`; `None` names the first bad character.
    pub fn parse_sequence(text: &str) -> Result<Vec<Action>, char> {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| Action::from_letter(c).ok_or(c))
            .collect()
    }

    /// Writes a sequence as letters.
    pub fn sequence_text(actions: &[Action]) -> String {
        actions.iter().map(|a| a.letter()).collect()
    }

    fn delta(self) -> (i32, i32) {
        match self {
            Action::Up => (0, -1),
            Action::Down => (0, 1),
            Action::Left => (-1, 0),
            Action::Right => (1, 0),
            Action::Wait => (0, 0),
        }
    }
}

/// A word tile or an object on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entity {
    /// The word text or the object's current noun.
    pub token: Tok,
    /// Word tiles are rule text and always pushable.
    pub is_word: bool,
    /// Column.
    pub x: u16,
    /// Row.
    pub y: u16,
    /// Which way the entity looks.
    pub facing: Facing,
    /// False once destroyed; the slot stays so ids never shift.
    pub alive: bool,
}

/// Why a level cannot become a proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// Width or height is zero or above [`MAX_SIDE`].
    #[error("a proof must be 1 to {MAX_SIDE} cells wide and high, not {0}x{1}")]
    Size(u32, u32),
    /// A placement lies outside the board.
    #[error("objects[{0}] at ({1}, {2}) is outside the board")]
    OutOfBounds(usize, u32, u32),
    /// The initial word stacks exceed the rule-reading budget.
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    /// More automata properties than there are property bits.
    #[error(
        "a proof may declare at most {} automata properties",
        rules::MAX_CUSTOM_PROPERTIES
    )]
    TooManyAutomata,
}

/// A compiled level: everything about it that never changes during play.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The level's id.
    pub id: String,
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// Tokens and their meaning in this proof.
    pub lexicon: Lexicon,
    /// Behaviour of each automata property bit, in bit order.
    behaviours: Vec<Behaviour>,
    /// Paths the rule reader may walk.
    pub budget: u64,
    /// Whether the words could ever be stacked past the budget (if not, turns skip the snapshot
    /// a refused turn would need).
    may_overflow: bool,
    initial: Board,
}

/// Whether `entities`' words could ever need more readings than `budget`. A line of k words
/// has at most 3^(k/3) paths (the largest product of a partition of k), and each word lies on
/// at most one line per axis, so 2 * 3^(n/3) bounds the whole board.
fn may_overflow(entities: &[Entity], budget: u64) -> bool {
    let words = entities.iter().filter(|e| e.is_word).count() as f64;
    2.0 * 3f64.powf(words / 3.0) > budget as f64
}

impl Proof {
    /// Compiles a level. Automata properties bind only when the host has the `automata` feature.
    pub fn new(level: &Level) -> Result<Proof, ProofError> {
        if level.width == 0
            || level.height == 0
            || level.width > MAX_SIDE
            || level.height > MAX_SIDE
        {
            return Err(ProofError::Size(level.width, level.height));
        }
        let (custom, behaviours): (Vec<String>, Vec<Behaviour>) = if cfg!(feature = "automata") {
            level.automata.iter().map(|(k, b)| (k.clone(), *b)).unzip()
        } else {
            (Vec::new(), Vec::new())
        };
        if custom.len() > rules::MAX_CUSTOM_PROPERTIES {
            return Err(ProofError::TooManyAutomata);
        }
        let mut lexicon = Lexicon::new(&custom);
        let mut entities = Vec::with_capacity(level.objects.len());
        for (i, p) in level.objects.iter().enumerate() {
            if p.x >= level.width || p.y >= level.height {
                return Err(ProofError::OutOfBounds(i, p.x, p.y));
            }
            entities.push(Entity {
                token: lexicon.intern(&p.text),
                is_word: p.kind == PlacementKind::Word,
                x: p.x as u16,
                y: p.y as u16,
                facing: p.facing.unwrap_or_default(),
                alive: true,
            });
        }
        let mut proof = Proof {
            id: level.id.clone(),
            width: level.width as u16,
            height: level.height as u16,
            lexicon,
            behaviours,
            budget: RULE_READING_BUDGET,
            may_overflow: true,
            initial: Board::default(),
        };
        proof.may_overflow = may_overflow(&entities, proof.budget);
        let mut board = Board {
            entities,
            rules: Arc::default(),
            won: false,
        };
        board.rules = Arc::new(board.read(&proof)?);
        board.transform();
        proof.initial = board;
        Ok(proof)
    }

    /// The board a game starts from (initial transforms already applied).
    pub fn initial(&self) -> &Board {
        &self.initial
    }

    /// Whether the proof binds any automata property (objects that move on their own; their
    /// order and facing then matter to a turn).
    pub fn has_automata(&self) -> bool {
        !self.behaviours.is_empty()
    }

    /// The token for a word, if this proof uses it.
    pub fn token(&self, text: &str) -> Option<Tok> {
        self.lexicon.get(text)
    }

    /// Bytes one packed board takes (see [`Board::encode`]).
    pub fn packed_len(&self) -> usize {
        self.initial
            .entities
            .iter()
            .map(|e| self.pos_bytes() + if e.is_word { 0 } else { self.tok_bytes() })
            .sum()
    }

    pub(crate) fn pos_bytes(&self) -> usize {
        if (self.width as usize) * (self.height as usize) < 255 {
            1
        } else {
            2
        }
    }

    pub(crate) fn tok_bytes(&self) -> usize {
        if self.lexicon.len() < 128 { 1 } else { 2 }
    }
}

/// Rule readings remembered by word layout, so boards that differ only in where objects are
/// share one reading.
#[derive(Debug, Default)]
pub struct RuleMemo {
    readings: std::collections::HashMap<Box<[u8]>, Arc<Rules>>,
    key: Vec<u8>,
    bytes: usize,
}

impl RuleMemo {
    /// Approximate bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// What one turn did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// The turn was refused (it would exceed the rule-reading budget, or the proof is already
    /// won); nothing changed.
    pub blocked: bool,
    /// The player's move pushed at least one word.
    pub player_moved_word: bool,
    /// Some word moved this turn, by the player or by automata.
    pub words_moved: bool,
    /// The proof is won after this turn.
    pub won: bool,
    /// Objects that became another noun this turn.
    pub transformed: usize,
    /// Things that were YOU and met something DEFEAT this turn.
    pub defeated: usize,
    /// Things a SINK took down with it this turn (the SINK counted too).
    pub sunk: usize,
}

/// The changing state of a proof.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    entities: Vec<Entity>,
    rules: Arc<Rules>,
    won: bool,
}

impl Board {
    /// Every entity slot; an entity's id is its index.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// The current rule reading: rule records and sentences.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// A sentence's words as text, such as `CAT IS YOU`.
    pub fn sentence_text(&self, proof: &Proof, sentence: &crate::rules::Sentence) -> String {
        sentence
            .words
            .iter()
            .filter_map(|&id| self.entities.get(id as usize))
            .map(|e| proof.lexicon.text(e.token))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether a YOU has reached a WIN.
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// Live objects that are YOU.
    pub fn you_count(&self) -> usize {
        self.entities
            .iter()
            .filter(|e| e.alive && !e.is_word && self.rules.props(e.token) & YOU != 0)
            .count()
    }

    /// Property bits of an entity under the current rules (words are always PUSH, nothing else).
    #[inline]
    pub fn props_of(&self, e: &Entity) -> u32 {
        if e.is_word {
            PUSH
        } else {
            self.rules.props(e.token)
        }
    }

    /// Plays one turn.
    pub fn play(&mut self, proof: &Proof, action: Action) -> Turn {
        self.play_watching(proof, action, |_| {})
    }

    /// Plays one turn, calling `on_read` with every fresh rule reading the turn makes.
    pub fn play_watching(
        &mut self,
        proof: &Proof,
        action: Action,
        mut on_read: impl FnMut(&Rules),
    ) -> Turn {
        let mut turn = Turn::default();
        if self.won {
            turn.blocked = true;
            turn.won = true;
            return turn;
        }
        let saved = if proof.may_overflow {
            self.entities.clone()
        } else {
            Vec::new()
        };
        let blocked = Turn {
            blocked: true,
            ..Turn::default()
        };

        // The player's move, with the rules the turn started with.
        if action != Action::Wait {
            let (dx, dy) = action.delta();
            let mut movers: Vec<usize> = (0..self.entities.len())
                .filter(|&i| {
                    let e = &self.entities[i];
                    e.alive && !e.is_word && self.rules.props(e.token) & YOU != 0
                })
                .collect();
            // Leading movers first, so a line of YOUs walks together.
            movers.sort_by_key(|&i| {
                let e = &self.entities[i];
                -(e.x as i32 * dx + e.y as i32 * dy)
            });
            for i in movers {
                if dx != 0 {
                    self.entities[i].facing = if dx < 0 { Facing::Left } else { Facing::Right };
                }
                self.shove(proof, i, dx, dy, &mut turn.player_moved_word);
            }
            turn.words_moved = turn.player_moved_word;
        }
        let mut rules_before: Option<Arc<Rules>> = None;
        if turn.player_moved_word {
            match self.read(proof) {
                Ok(r) => {
                    on_read(&r);
                    rules_before = Some(std::mem::replace(&mut self.rules, Arc::new(r)));
                }
                Err(_) => {
                    self.entities = saved;
                    return blocked;
                }
            }
        }

        // Automata, with the rules as they now stand.
        let mut automata_moved_word = false;
        if !proof.behaviours.is_empty() {
            self.run_automata(proof, &mut automata_moved_word);
        }
        if automata_moved_word {
            turn.words_moved = true;
            match self.read(proof) {
                Ok(r) => {
                    on_read(&r);
                    self.rules = Arc::new(r);
                }
                Err(_) => {
                    self.entities = saved;
                    if let Some(r) = rules_before {
                        self.rules = r;
                    }
                    return blocked;
                }
            }
        }

        turn.transformed = self.transform();
        let (word_lost, defeated, sunk) = self.contact();
        turn.defeated = defeated;
        turn.sunk = sunk;
        if word_lost {
            // A word sank: what remains may read differently. Fewer words never need more paths.
            if let Ok(r) = self.read(proof) {
                on_read(&r);
                self.rules = Arc::new(r);
            }
        }
        turn.won = self.won;
        turn
    }

    /// Moves entity `i` one cell by `(dx, dy)`, pushing the chain ahead of it. Returns whether
    /// it moved.
    fn shove(&mut self, proof: &Proof, i: usize, dx: i32, dy: i32, moved_word: &mut bool) -> bool {
        let (x0, y0) = (self.entities[i].x as i32, self.entities[i].y as i32);
        // First find how many cells of pushables lie ahead, or that the line is blocked.
        let mut cells = 0;
        loop {
            let (cx, cy) = (x0 + dx * (cells + 1), y0 + dy * (cells + 1));
            if cx < 0 || cy < 0 || cx >= proof.width as i32 || cy >= proof.height as i32 {
                return false;
            }
            let mut any_push = false;
            for (j, e) in self.entities.iter().enumerate() {
                if !e.alive || e.x as i32 != cx || e.y as i32 != cy || j == i {
                    continue;
                }
                let p = self.props_of(e);
                if p & PUSH != 0 {
                    any_push = true;
                } else if p & STOP != 0 {
                    return false;
                }
            }
            if !any_push {
                break;
            }
            cells += 1;
        }
        // Then move the line, farthest cell first, so nothing moves twice.
        for k in (1..=cells).rev() {
            let (cx, cy) = (x0 + dx * k, y0 + dy * k);
            for j in 0..self.entities.len() {
                let e = self.entities[j];
                if j != i
                    && e.alive
                    && e.x as i32 == cx
                    && e.y as i32 == cy
                    && self.props_of(&e) & PUSH != 0
                {
                    let m = &mut self.entities[j];
                    m.x = (cx + dx) as u16;
                    m.y = (cy + dy) as u16;
                    *moved_word |= e.is_word;
                }
            }
        }
        let e = &mut self.entities[i];
        e.x = (x0 + dx) as u16;
        e.y = (y0 + dy) as u16;
        *moved_word |= e.is_word;
        true
    }

    fn run_automata(&mut self, proof: &Proof, moved_word: &mut bool) {
        for i in 0..self.entities.len() {
            let e = self.entities[i];
            if !e.alive || e.is_word {
                continue;
            }
            let custom = self.rules.props(e.token) >> FIRST_CUSTOM_BIT;
            for (bit, behaviour) in proof.behaviours.iter().enumerate() {
                if custom & (1 << bit) == 0 || !self.entities[i].alive {
                    continue;
                }
                crate::automata::act(self, proof, i, *behaviour, moved_word);
            }
        }
    }

    /// Moves an entity as automata do; exposed to the `automata` module only.
    pub(crate) fn step_entity(
        &mut self,
        proof: &Proof,
        i: usize,
        dx: i32,
        dy: i32,
        moved_word: &mut bool,
    ) -> bool {
        self.shove(proof, i, dx, dy, moved_word)
    }

    pub(crate) fn entity_mut(&mut self, i: usize) -> &mut Entity {
        &mut self.entities[i]
    }

    /// Applies at most one transform to every object, from the rules just read. Says how many
    /// objects changed.
    fn transform(&mut self) -> usize {
        if !self.rules.has_transforms() {
            return 0;
        }
        let mut changed = 0;
        for e in self.entities.iter_mut() {
            if e.alive
                && !e.is_word
                && let Some(to) = self.rules.transform(e.token)
                && to != e.token
            {
                e.token = to;
                changed += 1;
            }
        }
        changed
    }

    /// DEFEAT, then SINK, then WIN. Returns whether a word was destroyed, and how many things
    /// were defeated and how many sunk.
    fn contact(&mut self) -> (bool, usize, usize) {
        let n = self.entities.len();
        let shares = |a: &Entity, b: &Entity| b.alive && a.x == b.x && a.y == b.y;
        let mut present = 0;
        for e in self.entities.iter().filter(|e| e.alive) {
            present |= self.props_of(e);
        }
        let mut word_lost = false;
        let (mut defeated, mut sunk) = (0, 0);
        if present & (DEFEAT | SINK) != 0 && present & (YOU | SINK) != 0 {
            // DEFEAT: a YOU in a cell with anything DEFEAT (itself included) is destroyed.
            let mut doomed = vec![false; n];
            if present & DEFEAT != 0 {
                for (e, doom) in self.entities.iter().zip(doomed.iter_mut()) {
                    if e.alive && self.props_of(e) & YOU != 0 {
                        *doom = self
                            .entities
                            .iter()
                            .any(|o| shares(e, o) && self.props_of(o) & DEFEAT != 0);
                    }
                }
            }
            defeated = doomed.iter().filter(|d| **d).count();
            // SINK: a SINK sharing its cell with anything takes the whole cell down.
            if present & SINK != 0 {
                for i in 0..n {
                    let e = self.entities[i];
                    if !e.alive || doomed[i] || self.props_of(&e) & SINK == 0 {
                        continue;
                    }
                    let others =
                        (0..n).any(|j| j != i && !doomed[j] && shares(&e, &self.entities[j]));
                    if others {
                        for (o, doom) in self.entities.iter().zip(doomed.iter_mut()) {
                            if shares(&e, o) {
                                *doom = true;
                            }
                        }
                    }
                }
            }
            sunk = doomed.iter().filter(|d| **d).count() - defeated;
            for (i, d) in doomed.iter().enumerate() {
                if *d {
                    word_lost |= self.entities[i].is_word;
                    self.entities[i].alive = false;
                }
            }
        }
        // WIN: a surviving YOU in a cell with anything WIN (itself included).
        self.won = present & YOU != 0
            && present & WIN != 0
            && self.entities.iter().any(|e| {
                e.alive
                    && self.props_of(e) & YOU != 0
                    && self
                        .entities
                        .iter()
                        .any(|o| shares(e, o) && self.props_of(o) & WIN != 0)
            });
        (word_lost, defeated, sunk)
    }

    fn read(&self, proof: &Proof) -> Result<Rules, OverBudget> {
        let tiles: Vec<WordTile> = self
            .entities
            .iter()
            .enumerate()
            .filter(|(_, e)| e.alive && e.is_word)
            .map(|(i, e)| WordTile {
                x: e.x,
                y: e.y,
                token: e.token,
                entity: i as u32,
            })
            .collect();
        rules::read(
            proof.width,
            proof.height,
            &tiles,
            &proof.lexicon,
            proof.budget,
        )
    }

    /// Appends the board packed into [`Proof::packed_len`] bytes: per entity its cell (the top
    /// value for destroyed ones), and for objects the noun and facing.
    pub fn encode(&self, proof: &Proof, out: &mut Vec<u8>) {
        let wide_pos = proof.pos_bytes() == 2;
        let wide_tok = proof.tok_bytes() == 2;
        for e in &self.entities {
            let cell = if e.alive {
                e.y as u32 * proof.width as u32 + e.x as u32
            } else if wide_pos {
                0xFFFF
            } else {
                0xFF
            };
            if wide_pos {
                out.extend_from_slice(&(cell as u16).to_le_bytes());
            } else {
                out.push(cell as u8);
            }
            if !e.is_word {
                let v = (e.token as u32) << 1 | (e.facing == Facing::Left) as u32;
                if wide_tok {
                    out.extend_from_slice(&(v as u16).to_le_bytes());
                } else {
                    out.push(v as u8);
                }
            }
        }
    }

    /// Rebuilds a board from [`Board::encode`] bytes and re-reads its rules. `None` when the
    /// bytes do not fit the proof.
    pub fn decode(proof: &Proof, bytes: &[u8]) -> Option<Board> {
        Board::decode_with(proof, bytes, &mut RuleMemo::default())
    }

    /// [`Board::decode`], reusing readings of word layouts seen before.
    pub fn decode_with(proof: &Proof, bytes: &[u8], memo: &mut RuleMemo) -> Option<Board> {
        if bytes.len() != proof.packed_len() {
            return None;
        }
        let wide_pos = proof.pos_bytes() == 2;
        let wide_tok = proof.tok_bytes() == 2;
        let mut at = 0;
        let mut take = |wide: bool| {
            let v = if wide {
                u16::from_le_bytes([bytes[at], bytes[at + 1]]) as u32
            } else {
                bytes[at] as u32
            };
            at += if wide { 2 } else { 1 };
            v
        };
        let cells = proof.width as u32 * proof.height as u32;
        let mut entities = proof.initial.entities.clone();
        memo.key.clear();
        for e in entities.iter_mut() {
            let cell = take(wide_pos);
            e.alive = cell < cells;
            if e.alive {
                e.x = (cell % proof.width as u32) as u16;
                e.y = (cell / proof.width as u32) as u16;
            }
            if e.is_word {
                memo.key.extend_from_slice(&cell.to_le_bytes()[..2]);
            } else {
                let v = take(wide_tok);
                let tok = (v >> 1) as usize;
                if tok >= proof.lexicon.len() {
                    return None;
                }
                e.token = tok as Tok;
                e.facing = if v & 1 == 1 {
                    Facing::Left
                } else {
                    Facing::Right
                };
            }
        }
        let mut board = Board {
            entities,
            rules: Arc::default(),
            won: false,
        };
        board.rules = match memo.readings.get(memo.key.as_slice()) {
            Some(r) => r.clone(),
            None => {
                let r = Arc::new(board.read(proof).ok()?);
                memo.bytes += memo.key.len() + std::mem::size_of::<Rules>() + 64;
                memo.readings
                    .insert(memo.key.clone().into_boxed_slice(), r.clone());
                r
            }
        };
        Some(board)
    }

    /// The board as text, one cell per four columns: `WORD` tiles in capitals, objects in
    /// lowercase, `+` marking a stack, `.` an empty cell.
    pub fn draw_text(&self, proof: &Proof) -> String {
        let mut out = String::new();
        for y in 0..proof.height {
            for x in 0..proof.width {
                let here: Vec<&Entity> = self
                    .entities
                    .iter()
                    .filter(|e| e.alive && e.x == x && e.y == y)
                    .collect();
                let label = match here.first() {
                    None => ".".to_string(),
                    Some(e) => {
                        let text: String = proof.lexicon.text(e.token).chars().take(3).collect();
                        let text = if e.is_word { text } else { text.to_lowercase() };
                        if here.len() > 1 {
                            format!("{text}+")
                        } else {
                            text
                        }
                    }
                };
                out.push_str(&format!("{label:<5}"));
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out
    }
}
