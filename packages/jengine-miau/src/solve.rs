//! The author solver: graph searches over packed boards, through the same turn code as play.
//!
//! Two orders walk the same graph of reachable boards:
//!
//! - **Breadth-first** ([`Mode::Bfs`]): the arena of retained states *is* the queue, so a route it
//!   returns is a shortest one.
//! - **Best-first** ([`Mode::Best`]): weighted A* on moves made plus an estimate read from the
//!   rules in force (how far a YOU is from a WIN, or from a WIN word and a place where it would
//!   complete a sentence). Its routes win but need not be shortest.
//!
//! [`Mode::Auto`] (the default) runs breadth-first for half the attempt cap and, only if it has
//! not finished by then, goes on best-first over the same retained states for the rest, so a
//! proof small enough for breadth-first still gets its shortest route, and nothing is searched
//! twice.
//!
//! Both are complete: every retained state is expanded unless a cap stops the search first, and
//! the only states dropped unexpanded are ones from which no win can exist (nothing is YOU,
//! nothing moves on its own and no transform is pending; no WIN, YOU or IS word left where it
//! could ever stand in a sentence). So [`Outcome::Unsolvable`] from either is a proof, which is what the `mustForm`
//! necessity checks need; hitting a cap answers [`Outcome::Limit`], never "unsolvable".
//!
//! Every retained state is a fixed-size byte string ([`Board::encode`]) in one arena, found
//! again through an open-addressing table of arena indices. Boards that differ only by which of
//! two interchangeable entities stands where are one state: word tiles of the same text are
//! sorted by cell, and in a proof without automata (where entity order and facing play no part
//! in a turn) objects are sorted by noun and cell, facing left out. Entity order can still
//! decide a turn in two rare cases (two YOU objects of different nouns in one cell, one of them
//! PUSH or STOP; two sentences starting in one cell through a stack that say different things);
//! a search that meets either starts again without merging, so merging never changes an answer.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::board::{Action, Board, Proof, RuleMemo};
use crate::pack::RuleText;
use crate::rules::{PUSH, Rules, STOP, Tok, TokenKind, WIN, YOU};

/// Attempted actions allowed when neither the caller nor the proof says otherwise.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 2_000_000;
/// Retained states allowed when the caller does not say otherwise.
pub const DEFAULT_MAX_VISITED: usize = 2_000_000;
/// How much best-first search weighs its estimate against the moves already made (weighted A*:
/// priority = moves + `BEST_WEIGHT` x estimate).
pub const BEST_WEIGHT: u32 = 2;

/// Which routes count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Constraint {
    /// Any route.
    #[default]
    Free,
    /// BYPASS: the player never pushes a word.
    Bypass,
    /// HANDS-OFF: no word moves at all, by the player or by automata.
    HandsOff,
}

/// Which search order to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Breadth-first only: a route it finds is a shortest one.
    Bfs,
    /// Best-first only, informed by the rules: faster on large proofs, routes not known shortest.
    Best,
    /// Breadth-first for half the attempt cap, then best-first over the same states for the
    /// rest.
    #[default]
    Auto,
}

impl Mode {
    /// The spelling the command line uses: `bfs`, `best`, `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Bfs => "bfs",
            Mode::Best => "best",
            Mode::Auto => "auto",
        }
    }
}

impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(text: &str) -> Result<Mode, String> {
        match text.to_ascii_lowercase().as_str() {
            "bfs" => Ok(Mode::Bfs),
            "best" => Ok(Mode::Best),
            "auto" => Ok(Mode::Auto),
            _ => Err(format!("'{text}' is not a search (use bfs, best or auto)")),
        }
    }
}

/// Which search gave a report's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Breadth-first search.
    Bfs,
    /// Best-first search from the start.
    Best,
    /// Breadth-first used its share of the cap, then best-first went on over the same states.
    BfsThenBest,
}

impl Method {
    /// How the command line names it: `bfs`, `best-first`, `bfs then best-first`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Bfs => "bfs",
            Method::Best => "best-first",
            Method::BfsThenBest => "bfs then best-first",
        }
    }
}

/// What to search for and how far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// Cap on attempted actions.
    pub max_attempts: u64,
    /// Cap on retained states.
    pub max_visited: usize,
    /// Rules a route may never have active, initially or at any rule reading within a turn.
    pub forbid: Vec<RuleText>,
    /// Which routes count.
    pub constraint: Constraint,
    /// Which search order.
    pub mode: Mode,
}

impl Default for Search {
    fn default() -> Search {
        Search {
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            max_visited: DEFAULT_MAX_VISITED,
            forbid: Vec::new(),
            constraint: Constraint::Free,
            mode: Mode::Auto,
        }
    }
}

/// The answer of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A winning route (a shortest one when [`Report::shortest`] says so).
    Solved(Vec<Action>),
    /// Every reachable state was tried: no route exists under the constraints.
    Unsolvable,
    /// A cap was reached first; nothing is proven.
    Limit,
}

/// One search's answer and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The answer.
    pub outcome: Outcome,
    /// Actions tried.
    pub attempts: u64,
    /// States retained.
    pub visited: usize,
    /// Bytes of solver memory per retained state (arena, parents, table).
    pub bytes_per_state: f64,
    /// Which search gave the answer.
    pub method: Method,
    /// The route is known to be a shortest one (breadth-first found it).
    pub shortest: bool,
}

impl Report {
    /// The route, when solved.
    pub fn route(&self) -> Option<&[Action]> {
        match &self.outcome {
            Outcome::Solved(r) => Some(r),
            _ => None,
        }
    }
}

/// Searches `proof` for a winning route, in the order `search.mode` names.
pub fn solve(proof: &Proof, search: &Search) -> Report {
    match search.mode {
        Mode::Bfs => run(proof, search, Order::Breadth, search.max_attempts),
        Mode::Best => run(proof, search, Order::Best, search.max_attempts),
        Mode::Auto => run(
            proof,
            search,
            Order::Switch(search.max_attempts / 2),
            search.max_attempts,
        ),
    }
}

/// Replays `actions` from the start, returning the board after each accepted turn and whether
/// the last one won.
pub fn replay(proof: &Proof, actions: &[Action]) -> (Vec<Board>, bool) {
    let mut board = proof.initial().clone();
    let mut boards = Vec::with_capacity(actions.len());
    let mut won = false;
    for &a in actions {
        let turn = board.play(proof, a);
        boards.push(board.clone());
        won = turn.won;
        if won {
            break;
        }
    }
    (boards, won)
}

/// The estimate best-first search orders by, for `board` (0 for a won board); `None` when no
/// win can ever be reached from it. Exposed so tests and authors can see what guides the search.
pub fn estimate(proof: &Proof, board: &Board) -> Option<u32> {
    Words::of(proof).assess(proof, board, true)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Breadth,
    Best,
    /// Breadth-first until this many attempts, then best-first over the same states.
    Switch(u64),
}

/// One search order, with merging of interchangeable entities; started again without merging
/// if entity order turned out to matter.
fn run(proof: &Proof, search: &Search, order: Order, cap: u64) -> Report {
    let merged = Canon::new(proof);
    match explore(proof, search, order, cap, &merged) {
        Ok(report) => report,
        Err(spent) => {
            let order = match order {
                Order::Switch(at) => Order::Switch(at.saturating_sub(spent)),
                other => other,
            };
            let mut again = explore(
                proof,
                search,
                order,
                cap.saturating_sub(spent),
                &Canon::none(),
            )
            .unwrap_or_else(|_| unreachable!("a search without merging never restarts"));
            again.attempts += spent;
            again
        }
    }
}

/// The search itself. `Err(attempts)` when merging met a board where entity order matters.
///
/// Breadth-first takes states from the arena in order; best-first from a heap keyed by
/// priority. When `Order::Switch` changes order, every state retained but not yet expanded
/// goes into the heap, so the one search goes on over the same retained states and the whole
/// cap: nothing is searched twice, and an exhaustive answer is still exhaustive.
fn explore(
    proof: &Proof,
    search: &Search,
    order: Order,
    cap: u64,
    canon: &Canon,
) -> Result<Report, u64> {
    let forbid: Vec<(Tok, Tok)> = search
        .forbid
        .iter()
        .filter_map(|r| Some((proof.token(&r.subject)?, proof.token(&r.predicate)?)))
        .collect();
    let breaks = |rules: &Rules| forbid.iter().any(|&(s, p)| rules.has(s, p));
    let words = Words::of(proof);
    let mut informed = order == Order::Best;
    let switch_at = match order {
        Order::Switch(at) => at,
        _ => u64::MAX,
    };
    // A level with nothing on it packs to zero bytes: every state is the same empty one.
    let mut states = States::new(proof.packed_len());
    let start = proof.initial();
    let mut report = Report {
        outcome: Outcome::Unsolvable,
        attempts: 0,
        visited: 0,
        bytes_per_state: 0.0,
        method: if informed { Method::Best } else { Method::Bfs },
        shortest: false,
    };
    let Some(h0) = words.assess(proof, start, informed) else {
        return Ok(report);
    };
    if breaks(start.rules()) {
        return Ok(report);
    }
    let mut buf = Vec::with_capacity(states.stride);
    let mut scratch = Vec::new();
    start.encode(proof, &mut buf);
    canon.apply(&mut buf, &mut scratch);
    states.insert(&buf, u32::MAX, 0);
    // Moves made per state (kept only when best-first may run: breadth-first alone needs no
    // more than parent links), and the open list by (priority, estimate, newest).
    let keep_depth = order != Order::Breadth;
    let mut depth: Vec<u32> = if keep_depth { vec![0] } else { Vec::new() };
    let mut open: BinaryHeap<(Reverse<u32>, Reverse<u32>, u32)> = BinaryHeap::new();
    if informed {
        open.push((Reverse(BEST_WEIGHT * h0), Reverse(h0), 0));
    }

    let mut memo = RuleMemo::default();
    let mut head = 0usize;
    'search: loop {
        if !informed && report.attempts >= switch_at {
            // Breadth-first had its share: the states it kept but did not expand yet go on
            // best-first.
            informed = true;
            report.method = Method::BfsThenBest;
            for (i, &g) in depth.iter().enumerate().skip(head) {
                let Some(board) = Board::decode_with(proof, states.get(i), &mut memo) else {
                    continue;
                };
                if let Some(h) = words.assess(proof, &board, true) {
                    open.push((Reverse(g + BEST_WEIGHT * h), Reverse(h), i as u32));
                }
            }
        }
        let at = if informed {
            match open.pop() {
                Some((_, _, i)) => i as usize,
                None => break,
            }
        } else if head < states.len() {
            head += 1;
            head - 1
        } else {
            break;
        };
        let Some(board) = Board::decode_with(proof, states.get(at), &mut memo) else {
            continue;
        };
        if canon.sensitive(&board) {
            return Err(report.attempts);
        }
        for (a, &action) in Action::ALL.iter().enumerate() {
            if report.attempts >= cap {
                report.outcome = Outcome::Limit;
                break 'search;
            }
            report.attempts += 1;
            let mut next = board.clone();
            let mut hit = false;
            let mut tied = false;
            let turn = next.play_watching(proof, action, |r| {
                hit |= breaks(r);
                tied |= canon.words && reading_tied(r);
            });
            if tied {
                return Err(report.attempts);
            }
            let refused = match search.constraint {
                Constraint::Free => false,
                Constraint::Bypass => turn.player_moved_word,
                Constraint::HandsOff => turn.words_moved,
            };
            if turn.blocked || hit || refused {
                continue;
            }
            if turn.won {
                let mut route = vec![action];
                let mut i = at as u32;
                while states.parent[i as usize] != u32::MAX {
                    route.push(Action::ALL[states.action[i as usize] as usize]);
                    i = states.parent[i as usize];
                }
                route.reverse();
                report.outcome = Outcome::Solved(route);
                report.shortest = !informed;
                break 'search;
            }
            let Some(h) = words.assess(proof, &next, informed) else {
                continue;
            };
            buf.clear();
            next.encode(proof, &mut buf);
            canon.apply(&mut buf, &mut scratch);
            if !states.contains(&buf) {
                if states.len() >= search.max_visited {
                    report.outcome = Outcome::Limit;
                    break 'search;
                }
                let index = states.len() as u32;
                states.insert(&buf, at as u32, a as u8);
                if keep_depth {
                    let g = depth[at] + 1;
                    depth.push(g);
                    if informed {
                        open.push((Reverse(g + BEST_WEIGHT * h), Reverse(h), index));
                    }
                }
            }
        }
    }
    report.visited = states.len();
    let extra = depth.capacity() * 4 + open.capacity() * 12;
    report.bytes_per_state =
        (states.bytes() + memo.bytes() + extra) as f64 / states.len().max(1) as f64;
    Ok(report)
}

/// Whether two sentences start in one cell (through a stack) and say different things: then
/// which comes first, and so which transform wins, follows entity order.
fn reading_tied(rules: &Rules) -> bool {
    let said = |k: usize| {
        rules
            .rules
            .iter()
            .filter(move |r| r.sentence == k)
            .map(|r| (r.subject, r.predicate))
    };
    rules.sentences.windows(2).enumerate().any(|(k, pair)| {
        let (a, b) = (&pair[0], &pair[1]);
        (a.x, a.y, a.axis) == (b.x, b.y, b.axis) && !said(k).eq(said(k + 1))
    })
}

/// How boards are put in one canonical order before they are stored.
struct Canon {
    /// Word tiles of the same text may trade places: byte offsets of their cells, per text.
    groups: Vec<Vec<usize>>,
    /// Objects may trade places (no automata): byte offsets of each object's record.
    objects: Vec<usize>,
    /// Whether words are merged (and so readings must be watched).
    words: bool,
    wide_pos: bool,
    wide_tok: bool,
    dead: u32,
}

impl Canon {
    fn none() -> Canon {
        Canon {
            groups: Vec::new(),
            objects: Vec::new(),
            words: false,
            wide_pos: false,
            wide_tok: false,
            dead: 0,
        }
    }

    fn new(proof: &Proof) -> Canon {
        let (pos, tok) = (proof.pos_bytes(), proof.tok_bytes());
        let mut by_text: Vec<(Tok, Vec<usize>)> = Vec::new();
        let mut objects = Vec::new();
        let mut at = 0;
        for e in proof.initial().entities() {
            if e.is_word {
                match by_text.iter_mut().find(|(t, _)| *t == e.token) {
                    Some((_, offsets)) => offsets.push(at),
                    None => by_text.push((e.token, vec![at])),
                }
                at += pos;
            } else {
                objects.push(at);
                at += pos + tok;
            }
        }
        let groups: Vec<Vec<usize>> = by_text
            .into_iter()
            .map(|(_, o)| o)
            .filter(|o| o.len() > 1)
            .collect();
        if proof.has_automata() || objects.len() < 2 {
            objects.clear();
        }
        Canon {
            words: !groups.is_empty(),
            groups,
            objects,
            wide_pos: pos == 2,
            wide_tok: tok == 2,
            dead: if pos == 2 { 0xFFFF } else { 0xFF },
        }
    }

    fn read(bytes: &[u8], at: usize, wide: bool) -> u32 {
        if wide {
            u16::from_le_bytes([bytes[at], bytes[at + 1]]) as u32
        } else {
            bytes[at] as u32
        }
    }

    fn write(bytes: &mut [u8], at: usize, wide: bool, v: u32) {
        if wide {
            bytes[at..at + 2].copy_from_slice(&(v as u16).to_le_bytes());
        } else {
            bytes[at] = v as u8;
        }
    }

    /// Puts packed bytes in canonical order; `scratch` is reused between calls.
    fn apply(&self, bytes: &mut [u8], scratch: &mut Vec<u64>) {
        for group in &self.groups {
            scratch.clear();
            scratch.extend(
                group
                    .iter()
                    .map(|&o| Self::read(bytes, o, self.wide_pos) as u64),
            );
            scratch.sort_unstable();
            for (&o, &c) in group.iter().zip(scratch.iter()) {
                Self::write(bytes, o, self.wide_pos, c as u32);
            }
        }
        if self.objects.is_empty() {
            return;
        }
        let tok_at = if self.wide_pos { 2 } else { 1 };
        scratch.clear();
        scratch.extend(self.objects.iter().map(|&o| {
            let cell = Self::read(bytes, o, self.wide_pos);
            // Facing plays no part without automata; a destroyed object is only "gone".
            let noun = Self::read(bytes, o + tok_at, self.wide_tok) >> 1;
            let noun = if cell == self.dead { 0 } else { noun };
            (noun as u64) << 32 | cell as u64
        }));
        scratch.sort_unstable();
        for (&o, &record) in self.objects.iter().zip(scratch.iter()) {
            Self::write(bytes, o, self.wide_pos, record as u32);
            Self::write(
                bytes,
                o + tok_at,
                self.wide_tok,
                ((record >> 32) as u32) << 1,
            );
        }
    }

    /// Whether entity order could decide the next turn from `board`, which merging assumes it
    /// cannot: a stack starting two different sentences in one cell (words merged), or two YOU
    /// objects of different nouns in one cell with one of them PUSH or STOP (objects merged).
    fn sensitive(&self, board: &Board) -> bool {
        if self.words && reading_tied(board.rules()) {
            return true;
        }
        if self.objects.is_empty() {
            return false;
        }
        // Most boards have one noun that is YOU: nothing to compare.
        let mut you = board
            .entities()
            .iter()
            .filter(|e| e.alive && !e.is_word && board.props_of(e) & YOU != 0);
        let Some(first) = you.next().map(|e| e.token) else {
            return false;
        };
        if you.all(|e| e.token == first) {
            return false;
        }
        let mut movers: Vec<(u16, u16, Tok, bool)> = board
            .entities()
            .iter()
            .filter(|e| e.alive && !e.is_word)
            .filter_map(|e| {
                let p = board.props_of(e);
                (p & YOU != 0).then_some((e.y, e.x, e.token, p & (PUSH | STOP) != 0))
            })
            .collect();
        if movers.len() < 2 || movers.iter().all(|m| m.2 == movers[0].2) {
            return false;
        }
        movers.sort_unstable();
        movers
            .windows(2)
            .any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1) && w[0].2 != w[1].2 && (w[0].3 || w[1].3))
    }
}

/// The tokens the estimate and the dead-board test look for.
struct Words {
    win: Tok,
    you: Tok,
    is: Tok,
    stop: Tok,
}

impl Words {
    fn of(proof: &Proof) -> Words {
        // The lexicon always holds the rule words.
        let tok = |t: &str| proof.token(t).unwrap_or(Tok::MAX);
        Words {
            win: tok("WIN"),
            you: tok("YOU"),
            is: tok("IS"),
            stop: tok("STOP"),
        }
    }

    /// `None` when no win can follow `board`; otherwise the estimate (when `estimate`, else 0).
    ///
    /// Dead boards: nothing is YOU and neither automata nor a pending transform could change
    /// that; or no WIN word, no YOU
    /// word, or no IS word is left where it could ever stand in a sentence. A word in a corner
    /// can never move again (a push needs a mover on the far side, off the board); WIN and YOU
    /// are only ever predicates, which the top-left cell can never hold, and IS needs a word
    /// on both sides, which no corner has.
    fn assess(&self, proof: &Proof, board: &Board, estimate: bool) -> Option<u32> {
        let (w, h) = (proof.width, proof.height);
        let corner = |x: u16, y: u16| (x == 0 || x + 1 == w) && (y == 0 || y + 1 == h);
        let mut you: Vec<(u16, u16)> = Vec::new();
        let mut goals: Vec<(u16, u16)> = Vec::new();
        let mut win_words: Vec<(u16, u16)> = Vec::new();
        let mut is_words: Vec<(u16, u16)> = Vec::new();
        let mut nouns: Vec<((u16, u16), Tok)> = Vec::new();
        let mut things: Vec<((u16, u16), Tok)> = Vec::new();
        let mut you_word = false;
        let mut word_cells: Vec<(u16, u16)> = Vec::new();
        let mut stop_words: Vec<(u16, u16)> = Vec::new();
        // Cells a walker cannot enter: something STOP that is not PUSH stands there.
        let mut walls = vec![false; if estimate { w as usize * h as usize } else { 0 }];
        for e in board.entities().iter().filter(|e| e.alive) {
            let at = (e.x, e.y);
            if e.is_word {
                if estimate {
                    word_cells.push(at);
                }
                if e.token == self.win {
                    if at != (0, 0) {
                        win_words.push(at);
                    }
                } else if e.token == self.you {
                    you_word |= at != (0, 0);
                } else if e.token == self.is {
                    if !corner(e.x, e.y) {
                        is_words.push(at);
                    }
                } else if estimate && proof.lexicon.kind(e.token) == TokenKind::Noun {
                    nouns.push((at, e.token));
                } else if estimate && e.token == self.stop {
                    stop_words.push(at);
                }
            } else {
                let p = board.props_of(e);
                if p & YOU != 0 {
                    you.push(at);
                }
                if estimate && p & WIN != 0 {
                    goals.push(at);
                }
                // Something YOU that becomes WIN wins where it stands: it is no walk away.
                if estimate && p & YOU == 0 {
                    things.push((at, e.token));
                }
                if estimate && p & STOP != 0 && p & PUSH == 0 {
                    walls[e.y as usize * w as usize + e.x as usize] = true;
                }
            }
        }
        if win_words.is_empty() || !you_word || is_words.is_empty() {
            return None;
        }
        // With nothing YOU, nothing moving on its own and no transform still to apply, every
        // turn leaves the board as it is.
        if you.is_empty() && !proof.has_automata() && !board.rules().has_transforms() {
            return None;
        }
        if !estimate {
            return Some(0);
        }
        if you.is_empty() {
            // Only automata or a transform can make something YOU again; nothing to measure from.
            return Some(w as u32 + h as u32);
        }
        let dist =
            |a: (u16, u16), b: (u16, u16)| a.0.abs_diff(b.0) as u32 + a.1.abs_diff(b.1) as u32;
        let far = w as u32 + h as u32;
        // Steps from the nearest YOU to every cell, around walls (pushable things count as
        // passable); a cell no walk reaches is `far` twice over.
        let stuck = stuck_words(w, h, &word_cells);
        for (wall, jammed) in walls.iter_mut().zip(&stuck) {
            *wall |= *jammed;
        }
        let walk = walk_map(w, h, &you, &walls);
        let nearest = |to: (u16, u16)| walk[to.1 as usize * w as usize + to.0 as usize];
        // Walking to something WIN, or (when that is far or walled off) changing what is WIN:
        // whichever looks cheaper. A WIN walled off still counts, past a STOP word carried off.
        let unreached = u32::MAX;
        let goal = goals
            .iter()
            .map(|&g| nearest(g))
            .filter(|&d| d != unreached)
            .min()
            .or_else(|| {
                let free = |s: &(u16, u16)| {
                    nearest(*s) != unreached && !stuck[s.1 as usize * w as usize + s.0 as usize]
                };
                let walled = goals.iter().flat_map(|&g| {
                    stop_words
                        .iter()
                        .filter(|s| free(s))
                        .map(move |&s| nearest(s) + dist(s, g) + 2)
                });
                walled.min()
            });
        // A word is walked to and pushed into a sentence, then an object of its noun reached.
        // The cat first goes behind the word (on the side away from where it must go), and a
        // push that changes direction costs a walk around.
        let noun_at = |at: (u16, u16)| nouns.iter().find(|(p, _)| *p == at).map(|&(_, t)| t);
        let carry = |t: (u16, u16), s: (u16, u16)| {
            let mut behind: Vec<(u16, u16)> = Vec::new();
            if s.0 < t.0 && t.0 + 1 < w {
                behind.push((t.0 + 1, t.1));
            }
            if s.0 > t.0 && t.0 > 0 {
                behind.push((t.0 - 1, t.1));
            }
            if s.1 < t.1 && t.1 + 1 < h {
                behind.push((t.0, t.1 + 1));
            }
            if s.1 > t.1 && t.1 > 0 {
                behind.push((t.0, t.1 - 1));
            }
            let reach = behind
                .iter()
                .map(|&b| nearest(b))
                .min()
                .unwrap_or(nearest(t))
                .min(2 * far);
            let turn = if s.0 != t.0 && s.1 != t.1 { 2 } else { 0 };
            // A word on an edge stays on that edge: it cannot go where this slot is, so the
            // sentence would have to come to it instead.
            let pinned = ((t.1 == 0 || t.1 + 1 == h) && s.1 != t.1)
                || ((t.0 == 0 || t.0 + 1 == w) && s.0 != t.0);
            // A word already in the slot has to be pushed on or cleared first.
            let taken = if word_cells.contains(&s) { far / 2 } else { 0 };
            reach + dist(t, s) + turn + taken + if pinned { far } else { 0 }
        };
        let then = |s: (u16, u16), noun: Tok| {
            let you_too = board.rules().props(noun) & YOU != 0;
            things
                .iter()
                .filter(|(_, n)| *n == noun)
                .map(|&(p, _)| dist(s, p))
                .min()
                .unwrap_or(if you_too { 0 } else { far })
        };
        // The places a word would complete a sentence: WIN after `NOUN IS`, a noun before
        // `IS WIN`.
        let mut predicate_slots: Vec<((u16, u16), Tok)> = Vec::new();
        let mut subject_slots: Vec<(u16, u16)> = Vec::new();
        for &(x, y) in &is_words {
            if x > 0 && x + 1 < w {
                if let Some(n) = noun_at((x - 1, y)) {
                    predicate_slots.push(((x + 1, y), n));
                }
                if win_words.contains(&(x + 1, y)) {
                    subject_slots.push((x - 1, y));
                }
            }
            if y > 0 && y + 1 < h {
                if let Some(n) = noun_at((x, y - 1)) {
                    predicate_slots.push(((x, y + 1), n));
                }
                if win_words.contains(&(x, y + 1)) {
                    subject_slots.push((x, y - 1));
                }
            }
        }
        // A jammed word never moves, and a slot holding one can never take another word.
        let jammed = |c: (u16, u16)| stuck[c.1 as usize * w as usize + c.0 as usize];
        let win_in = win_words
            .iter()
            .flat_map(|&t| predicate_slots.iter().map(move |&(s, noun)| (t, s, noun)))
            .filter(|&(t, s, _)| !jammed(t) && !jammed(s))
            .map(|(t, s, noun)| carry(t, s) + then(s, noun));
        let noun_in = nouns
            .iter()
            .flat_map(|&(t, noun)| subject_slots.iter().map(move |&s| (t, s, noun)))
            .filter(|&(t, s, _)| t != s && !jammed(t) && !jammed(s))
            .map(|(t, s, noun)| carry(t, s) + then(s, noun));
        let form = win_in.chain(noun_in).min().unwrap_or_else(|| {
            // No sentence to finish: at least bring a WIN word to an IS.
            win_words
                .iter()
                .map(|&t| {
                    nearest(t).min(2 * far)
                        + is_words.iter().map(|&i| dist(t, i)).min().unwrap_or(0)
                        + far
                })
                .min()
                .unwrap_or(far)
        }) + 1;
        Some(goal.map_or(form, |g| g.min(form)))
    }
}

/// Which cells hold words that can never move, as a `w` x `h` grid: a push needs room ahead
/// and a cell behind for the pusher, and neither can be off the board or hold such words
/// (entering that cell would have to push them). Starting from the corners this spreads along
/// the edges, such as a whole sentence jammed into a corner. A guide for the estimate only.
fn stuck_words(w: u16, h: u16, cells: &[(u16, u16)]) -> Vec<bool> {
    let (wi, hi) = (w as i32, h as i32);
    let mut stuck = vec![false; w as usize * h as usize];
    let blocked = |stuck: &[bool], x: i32, y: i32| {
        x < 0 || y < 0 || x >= wi || y >= hi || stuck[(y * wi + x) as usize]
    };
    loop {
        let mut changed = false;
        for &(x, y) in cells {
            let (x, y) = (x as i32, y as i32);
            if stuck[(y * wi + x) as usize] {
                continue;
            }
            let jammed = [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().all(|&(dx, dy)| {
                blocked(&stuck, x + dx, y + dy) || blocked(&stuck, x - dx, y - dy)
            });
            if jammed {
                stuck[(y * wi + x) as usize] = true;
                changed = true;
            }
        }
        if !changed {
            return stuck;
        }
    }
}

/// Steps from the nearest of `from` to every cell of a `w` x `h` board, never entering a
/// `walls` cell (`u32::MAX` where no walk reaches).
fn walk_map(w: u16, h: u16, from: &[(u16, u16)], walls: &[bool]) -> Vec<u32> {
    let (w, h) = (w as usize, h as usize);
    let mut steps = vec![u32::MAX; w * h];
    let mut queue = std::collections::VecDeque::new();
    for &(x, y) in from {
        let i = y as usize * w + x as usize;
        if steps[i] == u32::MAX {
            steps[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let (x, y) = (i % w, i / w);
        let next = [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (y + 1 < h).then(|| i + w),
        ];
        for j in next.into_iter().flatten() {
            if steps[j] == u32::MAX && !walls[j] {
                steps[j] = steps[i] + 1;
                queue.push_back(j);
            }
        }
    }
    steps
}

/// Retained states: a byte arena in discovery order, parent links, and a hash table of indices.
struct States {
    stride: usize,
    arena: Vec<u8>,
    parent: Vec<u32>,
    action: Vec<u8>,
    table: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl States {
    fn new(stride: usize) -> States {
        States {
            stride,
            arena: Vec::new(),
            parent: Vec::new(),
            action: Vec::new(),
            table: vec![EMPTY; 1024],
        }
    }

    fn len(&self) -> usize {
        self.parent.len()
    }

    fn get(&self, i: usize) -> &[u8] {
        &self.arena[i * self.stride..(i + 1) * self.stride]
    }

    fn bytes(&self) -> usize {
        self.arena.capacity()
            + self.parent.capacity() * 4
            + self.action.capacity()
            + self.table.len() * 4
    }

    fn hash(bytes: &[u8]) -> u64 {
        // FNV-1a, then a final mix so the low bits spread well.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= h >> 29;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 32)
    }

    fn slot(&self, bytes: &[u8]) -> (usize, bool) {
        let mask = self.table.len() - 1;
        let mut i = Self::hash(bytes) as usize & mask;
        loop {
            match self.table[i] {
                EMPTY => return (i, false),
                s if self.get(s as usize) == bytes => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn contains(&self, bytes: &[u8]) -> bool {
        self.slot(bytes).1
    }

    fn insert(&mut self, bytes: &[u8], parent: u32, action: u8) {
        if (self.len() + 1) * 2 > self.table.len() {
            let mut bigger = vec![EMPTY; self.table.len() * 2];
            let mask = bigger.len() - 1;
            for s in self.table.iter().copied().filter(|&s| s != EMPTY) {
                let mut i = Self::hash(self.get(s as usize)) as usize & mask;
                while bigger[i] != EMPTY {
                    i = (i + 1) & mask;
                }
                bigger[i] = s;
            }
            self.table = bigger;
        }
        let (i, _) = self.slot(bytes);
        self.table[i] = self.len() as u32;
        self.arena.extend_from_slice(bytes);
        self.parent.push(parent);
        self.action.push(action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::{Behaviour, Facing, Level, Placement};
    use proptest::prelude::*;

    fn level() -> Proof {
        Proof::new(&Level::new(
            "walk",
            6,
            4,
            vec![
                Placement::word("CAT", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("YOU", 2, 0),
                Placement::word("FLAG", 0, 3),
                Placement::word("IS", 1, 3),
                Placement::word("WIN", 2, 3),
                Placement::object("CAT", 1, 1),
                Placement::object("FLAG", 4, 2),
            ],
        ))
        .expect("valid proof")
    }

    #[test]
    fn an_empty_level_is_unsolvable_not_a_crash() {
        let proof = Proof::new(&Level::new("bare", 3, 3, vec![])).expect("valid proof");
        let report = solve(&proof, &Search::default());
        assert_eq!(report.outcome, Outcome::Unsolvable);
        assert!(!replay(&proof, &[Action::Wait]).1);
    }

    #[test]
    fn finds_a_shortest_route_that_replays_to_a_win() {
        let proof = level();
        let report = solve(&proof, &Search::default());
        let route = report.route().expect("solved").to_vec();
        assert_eq!(route.len(), 4);
        assert!(replay(&proof, &route).1);
    }

    #[test]
    fn a_tiny_cap_is_a_limit_not_unsolvable() {
        let proof = level();
        let report = solve(
            &proof,
            &Search {
                max_attempts: 3,
                ..Search::default()
            },
        );
        assert_eq!(report.outcome, Outcome::Limit);
    }

    #[test]
    fn a_forbidden_initial_rule_leaves_no_route() {
        let proof = level();
        let search = Search {
            forbid: vec![RuleText::parse("flag is win").expect("rule")],
            ..Search::default()
        };
        assert_eq!(solve(&proof, &search).outcome, Outcome::Unsolvable);
    }

    #[test]
    fn hands_off_refuses_routes_that_move_words() {
        // The only way to win is to form FLAG IS WIN.
        let proof = Proof::new(&Level::new(
            "form",
            5,
            4,
            vec![
                Placement::word("CAT", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("YOU", 2, 0),
                Placement::word("FLAG", 0, 2),
                Placement::word("IS", 1, 2),
                Placement::word("WIN", 3, 2),
                Placement::object("CAT", 4, 1),
                Placement::object("FLAG", 4, 0),
            ],
        ))
        .expect("valid proof");
        assert!(solve(&proof, &Search::default()).route().is_some());
        let hands_off = Search {
            constraint: Constraint::HandsOff,
            ..Search::default()
        };
        assert_eq!(solve(&proof, &hands_off).outcome, Outcome::Unsolvable);
    }

    fn search(mode: Mode) -> Search {
        Search {
            mode,
            ..Search::default()
        }
    }

    /// A level whose WIN word must be fetched from the far side of a field of rocks.
    fn far_win() -> Proof {
        let mut objects = vec![
            Placement::word("CAT", 0, 0),
            Placement::word("IS", 1, 0),
            Placement::word("YOU", 2, 0),
            Placement::word("FLAG", 1, 2),
            Placement::word("IS", 2, 2),
            Placement::word("WIN", 11, 8),
            Placement::word("ROCK", 0, 9),
            Placement::word("IS", 1, 9),
            Placement::word("PUSH", 2, 9),
            Placement::object("CAT", 1, 4),
            Placement::object("FLAG", 12, 9),
        ];
        for (x, y) in [(4, 6), (7, 5), (10, 4), (11, 7), (6, 3)] {
            objects.push(Placement::object("ROCK", x, y));
        }
        Proof::new(&Level::new("far-win", 14, 10, objects)).expect("valid proof")
    }

    #[test]
    fn modes_read_back_from_their_names() {
        for mode in [Mode::Bfs, Mode::Best, Mode::Auto] {
            assert_eq!(mode.as_str().parse::<Mode>(), Ok(mode));
        }
        let err = "deep".parse::<Mode>().expect_err("not a mode");
        assert!(err.contains("'deep'") && err.contains("bfs"), "{err}");
    }

    #[test]
    fn auto_reports_the_breadth_first_shortest_route_when_it_finishes() {
        let proof = level();
        let auto = solve(&proof, &Search::default());
        assert_eq!(auto.method, Method::Bfs);
        assert!(auto.shortest);
        assert_eq!(auto.route().map(<[Action]>::len), Some(4));
        let best = solve(&proof, &search(Mode::Best));
        assert_eq!(best.method, Method::Best);
        assert!(!best.shortest);
        assert!(replay(&proof, best.route().expect("solved")).1);
    }

    #[test]
    fn auto_switches_to_best_first_when_breadth_first_runs_out_of_its_share() {
        let proof = far_win();
        let cap = 4_000;
        let bfs = solve(
            &proof,
            &Search {
                max_attempts: cap,
                ..search(Mode::Bfs)
            },
        );
        assert_eq!(bfs.outcome, Outcome::Limit);
        let auto = solve(
            &proof,
            &Search {
                max_attempts: cap,
                ..Search::default()
            },
        );
        assert_eq!(auto.method, Method::BfsThenBest);
        assert!(!auto.shortest);
        assert!(auto.attempts <= cap);
        assert!(replay(&proof, auto.route().expect("best-first finds it")).1);
    }

    #[test]
    fn the_estimate_falls_along_a_winning_route() {
        let proof = level();
        let start = estimate(&proof, proof.initial()).expect("a win is possible");
        let route = solve(&proof, &search(Mode::Bfs))
            .route()
            .expect("solved")
            .to_vec();
        let boards = replay(&proof, &route).0;
        let before_win = &boards[boards.len() - 2];
        assert!(estimate(&proof, before_win).expect("still possible") < start);
    }

    #[test]
    fn a_win_word_jammed_in_the_top_left_corner_is_a_dead_start() {
        let proof = Proof::new(&Level::new(
            "jammed",
            5,
            4,
            vec![
                Placement::word("WIN", 0, 0),
                Placement::word("CAT", 0, 3),
                Placement::word("IS", 1, 3),
                Placement::word("YOU", 2, 3),
                Placement::word("FLAG", 2, 1),
                Placement::word("IS", 3, 1),
                Placement::object("CAT", 1, 2),
                Placement::object("FLAG", 4, 2),
            ],
        ))
        .expect("valid proof");
        assert_eq!(estimate(&proof, proof.initial()), None);
        for mode in [Mode::Bfs, Mode::Best, Mode::Auto] {
            let report = solve(&proof, &search(mode));
            assert_eq!(report.outcome, Outcome::Unsolvable);
            assert_eq!(report.attempts, 0, "{mode:?}");
        }
    }

    #[test]
    fn a_pending_transform_keeps_a_board_without_you_alive() {
        // Nothing is YOU at the start, but ROCK IS CAT turns the rock into a cat on the first
        // turn, and cats are YOU.
        let proof = Proof::new(&Level::new(
            "becoming",
            6,
            5,
            vec![
                Placement::word("CAT", 0, 1),
                Placement::word("IS", 1, 1),
                Placement::word("YOU", 2, 1),
                Placement::word("FLAG", 0, 4),
                Placement::word("IS", 1, 4),
                Placement::word("WIN", 2, 4),
                Placement::object("ROCK", 4, 2),
                Placement::object("FLAG", 5, 2),
            ],
        ))
        .expect("valid proof");
        let mut board = proof.initial().clone();
        assert_eq!(board.you_count(), 0);
        assert_eq!(estimate(&proof, &board), None, "no transform pending yet");
        // The same board with a pending transform is a different story.
        let level = Level::new(
            "becoming",
            6,
            5,
            vec![
                Placement::word("CAT", 0, 1),
                Placement::word("IS", 1, 1),
                Placement::word("YOU", 2, 1),
                Placement::word("FLAG", 0, 4),
                Placement::word("IS", 1, 4),
                Placement::word("WIN", 2, 4),
                Placement::word("ROCK", 3, 0),
                Placement::word("IS", 4, 0),
                Placement::word("CAT", 5, 0),
                Placement::object("ROCK", 4, 2),
                Placement::object("FLAG", 5, 2),
            ],
        );
        let proof = Proof::new(&level).expect("valid proof");
        board = proof.initial().clone();
        assert_eq!(
            board.you_count(),
            1,
            "the rock became a cat when the level started"
        );
        let report = solve(&proof, &Search::default());
        assert!(
            replay(
                &proof,
                report.route().expect("the new cat walks to the flag")
            )
            .1
        );
    }

    #[test]
    fn interchangeable_objects_and_words_pack_to_one_state() {
        let proof = Proof::new(&Level::new(
            "twins",
            6,
            4,
            vec![
                Placement::word("CAT", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("YOU", 2, 0),
                Placement::word("IS", 4, 3),
                Placement::object("ROCK", 1, 2),
                Placement::object("ROCK", 4, 1).facing(Facing::Left),
                Placement::object("CAT", 0, 3),
            ],
        ))
        .expect("valid proof");
        let canon = Canon::new(&proof);
        let mut a = Vec::new();
        proof.initial().encode(&proof, &mut a);
        // The same board with the two rocks (records 4 and 5) and the two IS words swapped.
        let mut b = a.clone();
        let rec = proof.pos_bytes() + proof.tok_bytes();
        let (r1, r2) = (4, 4 + rec);
        let (first, second) = (b[r1..r1 + rec].to_vec(), b[r2..r2 + rec].to_vec());
        b[r1..r1 + rec].copy_from_slice(&second);
        b[r2..r2 + rec].copy_from_slice(&first);
        b.swap(1, 3);
        assert_ne!(a, b);
        canon.apply(&mut a, &mut Vec::new());
        canon.apply(&mut b, &mut Vec::new());
        assert_eq!(a, b);
        // With automata, objects keep their order and facing: only the words merge.
        let mut walking = Level::new(
            "twins",
            6,
            4,
            vec![
                Placement::word("IS", 1, 0),
                Placement::word("IS", 4, 3),
                Placement::object("ROCK", 1, 2),
                Placement::object("ROCK", 4, 1),
            ],
        );
        walking.automata.insert("PATROL".into(), Behaviour::Walk);
        let proof = Proof::new(&walking).expect("valid proof");
        let canon = Canon::new(&proof);
        assert!(canon.objects.is_empty());
        assert_eq!(canon.groups.len(), 1);
    }

    #[test]
    fn order_sensitive_boards_are_searched_again_without_merging() {
        // Two YOU objects of different nouns share a cell and the dog is PUSH: which moves first
        // decides where each ends up, so merging objects cannot be trusted here.
        let proof = Proof::new(&Level::new(
            "stacked",
            7,
            5,
            vec![
                Placement::word("CAT", 0, 0),
                Placement::word("IS", 1, 0),
                Placement::word("YOU", 2, 0),
                Placement::word("DOG", 4, 0),
                Placement::word("IS", 5, 0),
                Placement::word("YOU", 6, 0),
                Placement::word("DOG", 0, 1),
                Placement::word("IS", 1, 1),
                Placement::word("PUSH", 2, 1),
                Placement::word("FLAG", 0, 4),
                Placement::word("IS", 1, 4),
                Placement::word("WIN", 2, 4),
                Placement::object("CAT", 2, 2),
                Placement::object("DOG", 2, 2),
                Placement::object("FLAG", 5, 3),
            ],
        ))
        .expect("valid proof");
        let merged = explore(
            &proof,
            &search(Mode::Bfs),
            Order::Breadth,
            10_000,
            &Canon::new(&proof),
        );
        assert!(merged.is_err(), "merging notices the stacked movers");
        let plain = explore(
            &proof,
            &search(Mode::Bfs),
            Order::Breadth,
            10_000,
            &Canon::none(),
        )
        .expect("no merging, no restart");
        let report = solve(&proof, &search(Mode::Bfs));
        assert_eq!(report.outcome, plain.outcome);
        assert!(report.shortest);
    }

    #[test]
    fn a_sentence_jammed_into_a_corner_is_stuck_and_a_loose_word_is_not() {
        // WALL IS STOP along the top from the corner; a lone word in the open; a word on the
        // top edge with room on both sides.
        let cells = [(0, 0), (1, 0), (2, 0), (3, 3), (5, 0)];
        let stuck = stuck_words(8, 6, &cells);
        let at = |x: usize, y: usize| stuck[y * 8 + x];
        assert!(at(0, 0) && at(1, 0) && at(2, 0));
        assert!(!at(3, 3) && !at(5, 0));
    }

    #[test]
    fn walks_go_around_walls_and_stop_at_sealed_rooms() {
        // A 5x3 board with a wall down the middle column, open at the bottom.
        let mut walls = vec![false; 15];
        walls[2] = true;
        walls[7] = true;
        let steps = walk_map(5, 3, &[(0, 0)], &walls);
        assert_eq!(steps[4], 8, "down, across the bottom and up again");
        walls[12] = true;
        let sealed = walk_map(5, 3, &[(0, 0)], &walls);
        assert_eq!(sealed[4], u32::MAX);
    }

    /// Small random levels with words, rocks, cats and flags, some with a walker.
    fn arb_small() -> impl Strategy<Value = Level> {
        const WORDS: [&str; 10] = [
            "CAT", "ROCK", "FLAG", "IS", "IS", "YOU", "WIN", "PUSH", "SINK", "CAT",
        ];
        const NOUNS: [&str; 3] = ["CAT", "ROCK", "FLAG"];
        (3u32..6, 3u32..5).prop_flat_map(|(w, h)| {
            let extra =
                (any::<bool>(), 0usize..WORDS.len(), 0..w, 0..h).prop_map(|(is_word, i, x, y)| {
                    if is_word {
                        Placement::word(WORDS[i], x, y)
                    } else {
                        Placement::object(NOUNS[i % NOUNS.len()], x, y)
                    }
                });
            (prop::collection::vec(extra, 2..9), any::<bool>()).prop_map(
                move |(mut objects, walk)| {
                    objects.extend([
                        Placement::word("CAT", 0, 0),
                        Placement::word("IS", 1, 0),
                        Placement::word("YOU", 2, 0),
                    ]);
                    let mut level = Level::new("small", w, h, objects);
                    if walk {
                        level.automata.insert("PUSH".into(), Behaviour::Walk);
                    }
                    level
                },
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn merging_never_changes_an_answer(level in arb_small()) {
            if let Ok(proof) = Proof::new(&level) {
                let cap = 20_000;
                let s = search(Mode::Bfs);
                let merged = run(&proof, &s, Order::Breadth, cap);
                let plain = explore(&proof, &s, Order::Breadth, cap, &Canon::none()).expect("plain");
                if merged.outcome != Outcome::Limit && plain.outcome != Outcome::Limit {
                    prop_assert_eq!(merged.route().map(<[Action]>::len), plain.route().map(<[Action]>::len));
                    prop_assert_eq!(merged.outcome == Outcome::Unsolvable, plain.outcome == Outcome::Unsolvable);
                }
                if let Some(route) = merged.route() {
                    prop_assert!(replay(&proof, route).1);
                }
            }
        }
    }
}
