//! The author solver: breadth-first search over packed boards, through the same turn code as
//! play.
//!
//! Every retained state is a fixed-size byte string ([`Board::encode`]) in one arena, found again
//! through an open-addressing table of arena indices, so a state costs its packed bytes plus
//! about a dozen bytes of bookkeeping. Breadth-first order means the arena *is* the queue and a
//! returned route is a shortest one. Hitting a cap answers [`Outcome::Limit`], never "unsolvable".

use crate::board::{Action, Board, Proof, RuleMemo};
use crate::pack::RuleText;
use crate::rules::{Rules, Tok};

/// Attempted actions allowed when neither the caller nor the proof says otherwise.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 2_000_000;
/// Retained states allowed when the caller does not say otherwise.
pub const DEFAULT_MAX_VISITED: usize = 2_000_000;

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
}

impl Default for Search {
    fn default() -> Search {
        Search {
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            max_visited: DEFAULT_MAX_VISITED,
            forbid: Vec::new(),
            constraint: Constraint::Free,
        }
    }
}

/// The answer of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A shortest winning route.
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

/// Searches `proof` for a winning route.
pub fn solve(proof: &Proof, search: &Search) -> Report {
    let forbid: Vec<(Tok, Tok)> = search
        .forbid
        .iter()
        .filter_map(|r| Some((proof.token(&r.subject)?, proof.token(&r.predicate)?)))
        .collect();
    let breaks = |rules: &Rules| forbid.iter().any(|&(s, p)| rules.has(s, p));
    // A level with nothing on it packs to zero bytes: every state is the same empty one.
    let mut states = States::new(proof.packed_len());
    let start = proof.initial();
    let mut report = Report {
        outcome: Outcome::Unsolvable,
        attempts: 0,
        visited: 0,
        bytes_per_state: 0.0,
    };
    if breaks(start.rules()) {
        return report;
    }
    let mut buf = Vec::with_capacity(states.stride);
    start.encode(proof, &mut buf);
    states.insert(&buf, u32::MAX, 0);

    let mut memo = RuleMemo::default();
    let mut head = 0usize;
    'search: while head < states.len() {
        let Some(board) = Board::decode_with(proof, states.get(head), &mut memo) else {
            head += 1;
            continue;
        };
        for (a, &action) in Action::ALL.iter().enumerate() {
            if report.attempts >= search.max_attempts {
                report.outcome = Outcome::Limit;
                break 'search;
            }
            report.attempts += 1;
            let mut next = board.clone();
            let mut hit = false;
            let turn = next.play_watching(proof, action, |r| hit |= breaks(r));
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
                let mut at = head as u32;
                while states.parent[at as usize] != u32::MAX {
                    route.push(Action::ALL[states.action[at as usize] as usize]);
                    at = states.parent[at as usize];
                }
                route.reverse();
                report.outcome = Outcome::Solved(route);
                break 'search;
            }
            buf.clear();
            next.encode(proof, &mut buf);
            if !states.contains(&buf) {
                if states.len() >= search.max_visited {
                    report.outcome = Outcome::Limit;
                    break 'search;
                }
                states.insert(&buf, head as u32, a as u8);
            }
        }
        head += 1;
    }
    report.visited = states.len();
    report.bytes_per_state = (states.bytes() + memo.bytes()) as f64 / states.len().max(1) as f64;
    report
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
    use crate::pack::{Level, Placement};

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
}
