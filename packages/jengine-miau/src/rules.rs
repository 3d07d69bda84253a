//! Reading rules from word tiles: tokens, sentences and the rules they state.
//!
//! Words form sentences across and down. A cell may hold several words, so a line of word cells
//! is read once per *path* (one word chosen from each cell); every valid sentence of every path is
//! kept, and the number of paths is what the rule-reading budget bounds. Rules depend only on
//! where the words are, so the engine re-reads them only after a word moves or disappears.

use std::collections::HashMap;

/// An interned token (word text or object noun) within one proof.
pub type Tok = u16;

/// Property bit: the player moves it.
pub const YOU: u32 = 1;
/// Property bit: moving things shove it along.
pub const PUSH: u32 = 1 << 1;
/// Property bit: nothing may enter its cell (unless it is also PUSH).
pub const STOP: u32 = 1 << 2;
/// Property bit: a YOU sharing its cell wins the proof.
pub const WIN: u32 = 1 << 3;
/// Property bit: it and anything sharing its cell are destroyed.
pub const SINK: u32 = 1 << 4;
/// Property bit: a YOU sharing its cell is destroyed.
pub const DEFEAT: u32 = 1 << 5;
/// The first bit given to a proof's own automata properties.
pub const FIRST_CUSTOM_BIT: u32 = 6;
/// How many automata properties one proof may declare.
pub const MAX_CUSTOM_PROPERTIES: usize = 16;

/// The core property words and their bits.
pub const CORE_PROPERTIES: [(&str, u32); 6] = [
    ("YOU", YOU),
    ("PUSH", PUSH),
    ("STOP", STOP),
    ("WIN", WIN),
    ("SINK", SINK),
    ("DEFEAT", DEFEAT),
];

/// Tokens that may be word text but never an object noun, palette key or vocabulary entry.
pub const RESERVED: [&str; 8] = ["IS", "AND", "YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"];

/// Whether `text` is a well-formed token: uppercase letters, digits, `_` and `-`.
pub fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// Whether `text` is one of the reserved rule tokens.
pub fn is_reserved(text: &str) -> bool {
    RESERVED.contains(&text)
}

/// What a token means in one proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// The verb `IS`.
    Is,
    /// The joiner `AND`.
    And,
    /// A property word, with its bit.
    Property(u32),
    /// Anything else: a noun (possibly one no object of the proof has yet).
    Noun,
}

/// The tokens of one proof, interned, with their meaning there.
#[derive(Clone, Debug, Default)]
pub struct Lexicon {
    words: Vec<String>,
    kinds: Vec<TokenKind>,
    index: HashMap<String, Tok, BuildFnv>,
}

/// FNV-1a for the lexicon: keys are short tokens from the proof's own data, so a fast hash
/// beats a DoS-resistant one (a pack can only slow down its own loading).
#[derive(Clone, Copy, Debug, Default)]
struct BuildFnv;

impl std::hash::BuildHasher for BuildFnv {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl Lexicon {
    /// A lexicon where `custom` names the proof's automata properties (bit order).
    pub fn new(custom: &[String]) -> Lexicon {
        let mut lex = Lexicon::default();
        lex.intern("IS");
        lex.intern("AND");
        for (word, _) in CORE_PROPERTIES {
            lex.intern(word);
        }
        for (i, word) in custom.iter().enumerate() {
            let tok = lex.intern(word);
            lex.kinds[tok as usize] = TokenKind::Property(1 << (FIRST_CUSTOM_BIT + i as u32));
        }
        lex
    }

    /// The token for `text`, adding it (as its natural kind) when new.
    pub fn intern(&mut self, text: &str) -> Tok {
        if let Some(&t) = self.index.get(text) {
            return t;
        }
        let kind = match text {
            "IS" => TokenKind::Is,
            "AND" => TokenKind::And,
            _ => CORE_PROPERTIES
                .iter()
                .find(|(w, _)| *w == text)
                .map_or(TokenKind::Noun, |&(_, bit)| TokenKind::Property(bit)),
        };
        let tok = self.words.len() as Tok;
        self.words.push(text.to_string());
        self.kinds.push(kind);
        self.index.insert(text.to_string(), tok);
        tok
    }

    /// The token for `text`, if the proof uses it.
    pub fn get(&self, text: &str) -> Option<Tok> {
        self.index.get(text).copied()
    }

    /// The text of a token.
    pub fn text(&self, tok: Tok) -> &str {
        &self.words[tok as usize]
    }

    /// The meaning of a token.
    pub fn kind(&self, tok: Tok) -> TokenKind {
        self.kinds[tok as usize]
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no tokens (never true: the rule words are always present).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// The direction a sentence reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    /// Left to right (`h`).
    Across,
    /// Top to bottom (`v`).
    Down,
}

impl Axis {
    /// `h` or `v`, as renderers name them.
    pub fn as_str(self) -> &'static str {
        match self {
            Axis::Across => "h",
            Axis::Down => "v",
        }
    }
}

/// A word tile as the reader sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordTile {
    /// Column.
    pub x: u16,
    /// Row.
    pub y: u16,
    /// Its token.
    pub token: Tok,
    /// The entity id of the tile.
    pub entity: u32,
}

/// One physical sentence: a maximal valid run of words along an axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// Which way it reads.
    pub axis: Axis,
    /// The entity ids of its words, in reading order.
    pub words: Vec<u32>,
    /// Column of its first word.
    pub x: u16,
    /// Row of its first word.
    pub y: u16,
}

/// One semantic rule, `subject IS predicate`, and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The noun the rule is about.
    pub subject: Tok,
    /// The property or noun it states.
    pub predicate: Tok,
    /// The axis of its sentence.
    pub axis: Axis,
    /// Entity ids of the subject word, the `IS` word and the predicate word.
    pub words: [u32; 3],
    /// Index of its sentence in [`Rules::sentences`].
    pub sentence: usize,
}

/// The stacks on the board need more readings than the budget allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("word stacks need {paths} readings, over the rule-reading budget of {budget}")]
pub struct OverBudget {
    /// Readings the board would need.
    pub paths: u64,
    /// The budget.
    pub budget: u64,
}

/// The rule-reading budget: total sentence paths over every line of three or more word cells.
pub const RULE_READING_BUDGET: u64 = 1024;

/// Everything one rule reading found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Every maximal physical sentence, ordered top-to-bottom, left-to-right, across before down.
    pub sentences: Vec<Sentence>,
    /// Every rule each sentence states, in sentence order (duplicates included).
    pub rules: Vec<Rule>,
    props: Vec<u32>,
    transforms: Vec<Option<Tok>>,
}

impl Rules {
    /// The property bits rules give to `noun`.
    #[inline]
    pub fn props(&self, noun: Tok) -> u32 {
        self.props.get(noun as usize).copied().unwrap_or(0)
    }

    /// The noun `noun` objects turn into this turn: the first transform by source position,
    /// none when an identity rule protects the noun.
    #[inline]
    pub fn transform(&self, noun: Tok) -> Option<Tok> {
        self.transforms.get(noun as usize).copied().flatten()
    }

    /// Whether any noun transforms this turn.
    pub fn has_transforms(&self) -> bool {
        self.transforms.iter().any(Option::is_some)
    }

    /// Whether `subject IS predicate` is among the rules.
    pub fn has(&self, subject: Tok, predicate: Tok) -> bool {
        self.rules
            .iter()
            .any(|r| r.subject == subject && r.predicate == predicate)
    }

    /// Rules as text, deduplicated, in reading order.
    pub fn texts(&self, lex: &Lexicon) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.rules {
            let t = format!("{} IS {}", lex.text(r.subject), lex.text(r.predicate));
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
}

/// Reads every sentence and rule from `tiles` on a `width` x `height` board.
pub fn read(
    width: u16,
    height: u16,
    tiles: &[WordTile],
    lex: &Lexicon,
    budget: u64,
) -> Result<Rules, OverBudget> {
    let (w, h) = (width as usize, height as usize);
    // Bucket tiles by cell so each line can be walked cell by cell.
    let mut start = vec![0u32; w * h + 1];
    for t in tiles {
        start[t.y as usize * w + t.x as usize + 1] += 1;
    }
    for i in 0..w * h {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut order = vec![0usize; tiles.len()];
    for (i, t) in tiles.iter().enumerate() {
        let c = t.y as usize * w + t.x as usize;
        order[fill[c] as usize] = i;
        fill[c] += 1;
    }
    let stack = |cell: usize| &order[start[cell] as usize..start[cell + 1] as usize];

    let mut found: Vec<Sentence> = Vec::new();
    let mut paths_used = 0u64;
    let mut run: Vec<usize> = Vec::new();
    for axis in [Axis::Across, Axis::Down] {
        let (lines, len) = match axis {
            Axis::Across => (h, w),
            Axis::Down => (w, h),
        };
        for line in 0..lines {
            let cell_at = |i: usize| match axis {
                Axis::Across => line * w + i,
                Axis::Down => i * w + line,
            };
            let mut i = 0;
            while i < len {
                run.clear();
                while i < len && !stack(cell_at(i)).is_empty() {
                    run.push(cell_at(i));
                    i += 1;
                }
                i += 1;
                if run.len() < 3 {
                    continue;
                }
                let mut paths = 1u64;
                for &c in &run {
                    paths = paths.saturating_mul(stack(c).len() as u64);
                }
                // Stacks are what the budget is for: a line with one word a cell is one
                // reading, however many such lines a board has, and costs nothing.
                if paths > 1 {
                    paths_used = paths_used.saturating_add(paths);
                }
                if paths_used > budget {
                    return Err(OverBudget {
                        paths: paths_used,
                        budget,
                    });
                }
                read_run(axis, &run, &stack, tiles, lex, w, &mut found);
            }
        }
    }
    Ok(settle(found, lex, tiles))
}

/// Reads every path through one line of word cells.
fn read_run<'a>(
    axis: Axis,
    run: &[usize],
    stack: &impl Fn(usize) -> &'a [usize],
    tiles: &[WordTile],
    lex: &Lexicon,
    w: usize,
    found: &mut Vec<Sentence>,
) {
    let mut choice = vec![0usize; run.len()];
    let mut path: Vec<&WordTile> = Vec::with_capacity(run.len());
    let mut kinds: Vec<TokenKind> = Vec::with_capacity(run.len());
    loop {
        path.clear();
        kinds.clear();
        for (k, &c) in run.iter().enumerate() {
            let tile = &tiles[stack(c)[choice[k]]];
            path.push(tile);
            kinds.push(lex.kind(tile.token));
        }
        let mut reach = 0;
        for s in 0..kinds.len() {
            if let Some(e) = parse_at(&kinds, s)
                && e > reach
            {
                reach = e;
                let words: Vec<u32> = path[s..e].iter().map(|t| t.entity).collect();
                if !found.iter().any(|f| f.axis == axis && f.words == words) {
                    found.push(Sentence {
                        axis,
                        words,
                        x: (run[s] % w) as u16,
                        y: (run[s] / w) as u16,
                    });
                }
            }
        }
        // Advance the odometer over the stacked cells.
        let mut k = run.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            choice[k] += 1;
            if choice[k] < stack(run[k]).len() {
                break;
            }
            choice[k] = 0;
        }
    }
}

/// The end (exclusive) of the longest sentence starting at `s`: `NOUN (AND NOUN)* IS PRED
/// (AND PRED)*`, where a predicate is a property or a noun.
fn parse_at(kinds: &[TokenKind], s: usize) -> Option<usize> {
    let n = kinds.len();
    if kinds[s] != TokenKind::Noun {
        return None;
    }
    let mut j = s + 1;
    while j + 1 < n && kinds[j] == TokenKind::And && kinds[j + 1] == TokenKind::Noun {
        j += 2;
    }
    if j >= n || kinds[j] != TokenKind::Is {
        return None;
    }
    j += 1;
    let is_pred = |k: TokenKind| matches!(k, TokenKind::Noun | TokenKind::Property(_));
    if j >= n || !is_pred(kinds[j]) {
        return None;
    }
    j += 1;
    while j + 1 < n && kinds[j] == TokenKind::And && is_pred(kinds[j + 1]) {
        j += 2;
    }
    Some(j)
}

/// Drops sentences contained in a longer one, orders them and derives the rules.
fn settle(found: Vec<Sentence>, lex: &Lexicon, tiles: &[WordTile]) -> Rules {
    let contained = |a: &Sentence, b: &Sentence| {
        a.axis == b.axis
            && a.words.len() < b.words.len()
            && b.words.windows(a.words.len()).any(|win| win == a.words)
    };
    let mut sentences: Vec<Sentence> = found
        .iter()
        .filter(|a| !found.iter().any(|b| contained(a, b)))
        .cloned()
        .collect();
    sentences.sort_by_key(|s| (s.y, s.x, s.axis));

    let token_of = |id: u32| {
        tiles
            .iter()
            .find(|t| t.entity == id)
            .map(|t| t.token)
            .unwrap_or(0)
    };
    let mut rules = Vec::new();
    for (index, sentence) in sentences.iter().enumerate() {
        let toks: Vec<Tok> = sentence.words.iter().map(|&id| token_of(id)).collect();
        let is_at = toks
            .iter()
            .position(|&t| lex.kind(t) == TokenKind::Is)
            .unwrap_or(0);
        for si in (0..is_at).step_by(2) {
            for pi in (is_at + 1..toks.len()).step_by(2) {
                rules.push(Rule {
                    subject: toks[si],
                    predicate: toks[pi],
                    axis: sentence.axis,
                    words: [
                        sentence.words[si],
                        sentence.words[is_at],
                        sentence.words[pi],
                    ],
                    sentence: index,
                });
            }
        }
    }

    let mut props = vec![0u32; lex.len()];
    let mut transforms: Vec<Option<Tok>> = vec![None; lex.len()];
    let mut identity = vec![false; lex.len()];
    for r in &rules {
        match lex.kind(r.predicate) {
            TokenKind::Property(bit) => props[r.subject as usize] |= bit,
            TokenKind::Noun if r.predicate == r.subject => identity[r.subject as usize] = true,
            TokenKind::Noun => {
                let slot = &mut transforms[r.subject as usize];
                if slot.is_none() {
                    *slot = Some(r.predicate);
                }
            }
            TokenKind::Is | TokenKind::And => {}
        }
    }
    for (t, protected) in identity.iter().enumerate() {
        if *protected {
            transforms[t] = None;
        }
    }
    Rules {
        sentences,
        rules,
        props,
        transforms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(lex: &mut Lexicon, spec: &[(&str, u16, u16)]) -> Vec<WordTile> {
        spec.iter()
            .enumerate()
            .map(|(i, &(w, x, y))| WordTile {
                x,
                y,
                token: lex.intern(w),
                entity: i as u32,
            })
            .collect()
    }

    fn texts(spec: &[(&str, u16, u16)]) -> (Vec<String>, Rules) {
        let mut lex = Lexicon::new(&[]);
        let t = tiles(&mut lex, spec);
        let rules = read(8, 8, &t, &lex, RULE_READING_BUDGET).expect("within budget");
        (rules.texts(&lex), rules)
    }

    #[test]
    fn reads_across_and_down() {
        let (t, r) = texts(&[
            ("CAT", 0, 0),
            ("IS", 1, 0),
            ("YOU", 2, 0),
            ("IS", 0, 1),
            ("WIN", 0, 2),
        ]);
        assert_eq!(t, vec!["CAT IS YOU", "CAT IS WIN"]);
        assert_eq!(r.sentences[0].axis, Axis::Across);
        assert_eq!(r.sentences[1].axis, Axis::Down);
    }

    #[test]
    fn and_chains_multiply_out() {
        let spec = [
            ("CAT", 0, 0),
            ("AND", 1, 0),
            ("DOG", 2, 0),
            ("IS", 3, 0),
            ("YOU", 4, 0),
            ("AND", 5, 0),
            ("WIN", 6, 0),
        ];
        let (t, r) = texts(&spec);
        assert_eq!(
            t,
            vec!["CAT IS YOU", "CAT IS WIN", "DOG IS YOU", "DOG IS WIN"]
        );
        assert_eq!(
            r.sentences.len(),
            1,
            "the shorter DOG IS YOU AND WIN is not a separate span"
        );
    }

    #[test]
    fn chained_is_reads_two_sentences() {
        let (t, _) = texts(&[
            ("CAT", 0, 0),
            ("IS", 1, 0),
            ("DOG", 2, 0),
            ("IS", 3, 0),
            ("WIN", 4, 0),
        ]);
        assert_eq!(t, vec!["CAT IS DOG", "DOG IS WIN"]);
    }

    #[test]
    fn duplicate_sentences_are_all_listed() {
        let (t, r) = texts(&[
            ("CAT", 0, 0),
            ("IS", 1, 0),
            ("YOU", 2, 0),
            ("CAT", 0, 3),
            ("IS", 1, 3),
            ("YOU", 2, 3),
        ]);
        assert_eq!(t, vec!["CAT IS YOU"]);
        assert_eq!(r.sentences.len(), 2);
        assert_eq!(r.rules.len(), 2);
    }

    #[test]
    fn identity_suppresses_transform() {
        let mut lex = Lexicon::new(&[]);
        let t = tiles(
            &mut lex,
            &[
                ("CAT", 0, 0),
                ("IS", 1, 0),
                ("DOG", 2, 0),
                ("CAT", 0, 2),
                ("IS", 1, 2),
                ("CAT", 2, 2),
            ],
        );
        let rules = read(8, 8, &t, &lex, RULE_READING_BUDGET).expect("within budget");
        assert_eq!(rules.transform(lex.get("CAT").expect("cat")), None);
    }

    #[test]
    fn lines_without_stacks_cost_nothing_however_many() {
        let mut lex = Lexicon::new(&[]);
        // 64 sentences a row on 17 rows: 1,088 lines of three words, no stacks.
        let mut spec = Vec::new();
        for y in 0..17u16 {
            for s in 0..64u16 {
                let x = s * 4;
                spec.extend([
                    ("CAT", x, y * 2),
                    ("IS", x + 1, y * 2),
                    ("YOU", x + 2, y * 2),
                ]);
            }
        }
        let t = tiles(&mut lex, &spec);
        let rules = read(256, 34, &t, &lex, RULE_READING_BUDGET).expect("no stacks, no cost");
        assert_eq!(rules.sentences.len(), 17 * 64);
    }

    #[test]
    fn over_budget_is_reported() {
        let mut lex = Lexicon::new(&[]);
        let mut spec = Vec::new();
        for _ in 0..11 {
            spec.push(("CAT", 0, 0));
            spec.push(("IS", 1, 0));
            spec.push(("YOU", 2, 0));
        }
        let t = tiles(&mut lex, &spec);
        assert!(read(8, 8, &t, &lex, RULE_READING_BUDGET).is_err());
    }
}
