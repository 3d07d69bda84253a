//! The dictionary: every word the board accepts, with how it is written and what it means.
//!
//! `words/ja.tsv` is compiled in: one word a line, `reading<TAB>written<TAB>meaning`. The
//! readings go into a trie with one slot per tile face, so the board can walk a run of kana
//! one tile at a time and learn at each step whether a word ends there or none can follow.

use std::sync::OnceLock;

use thiserror::Error;

use crate::kana::{FACES, Kana, parse_kana, to_string};

/// The dictionary shipped with the package.
pub const JAPANESE: &str = include_str!("../words/ja.tsv");

/// One word of the dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// How it reads, in tile kana.
    pub reading: Vec<Kana>,
    /// How it is usually written (kanji, kana, or several forms for homophones).
    pub written: String,
    /// What it means, in English; homophones list their meanings joined by `; `.
    pub meaning: String,
}

impl Entry {
    /// The reading as a string.
    pub fn reading_text(&self) -> String {
        to_string(&self.reading)
    }
}

/// A line of a dictionary file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("dictionary line {line}, {field}: {problem}")]
pub struct DictError {
    /// The line number, from 1.
    pub line: usize,
    /// Which field is wrong: `reading`, `written`, `meaning` or `line`.
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

/// A position in the trie of readings: the kana walked so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Node(u32);

const NONE: u32 = u32::MAX;

/// A set of words, looked up by reading.
#[derive(Clone, Debug)]
pub struct Dict {
    entries: Vec<Entry>,
    children: Vec<[u32; FACES]>,
    word: Vec<u32>,
}

impl Dict {
    /// The compiled-in Japanese dictionary, read once.
    pub fn japanese() -> &'static Dict {
        static DICT: OnceLock<Dict> = OnceLock::new();
        DICT.get_or_init(|| {
            // The shipped file is checked by this crate's tests; an empty dictionary is the
            // safe fallback rather than a panic if it ever failed to read.
            Dict::parse(JAPANESE).unwrap_or_else(|_| Dict::from_entries(Vec::new()))
        })
    }

    /// Reads a dictionary: one `reading<TAB>written<TAB>meaning` line per word; blank lines
    /// and lines starting with `#` are skipped. A reading is two or more tile kana, does not
    /// start with a small kana or `ー`, and appears once. A byte-order mark before the first
    /// line is skipped.
    pub fn parse(text: &str) -> Result<Dict, DictError> {
        // Editors on some systems save UTF-8 with a byte-order mark; it is not part of the
        // first reading. One anywhere else is still refused as a non-kana character.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut entries = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |field, problem: String| DictError {
                line,
                field,
                problem,
            };
            if raw.trim().is_empty() || raw.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = raw.split('\t').collect();
            if fields.len() != 3 {
                return Err(err(
                    "line",
                    format!("expected 3 tab-separated fields, found {}", fields.len()),
                ));
            }
            let reading = parse_kana(fields[0])
                .map_err(|c| err("reading", format!("{c:?} is not a tile kana")))?;
            if reading.len() < 2 {
                return Err(err("reading", "a word is two kana or more".into()));
            }
            if reading[0].leans() {
                return Err(err(
                    "reading",
                    format!("a word cannot start with {}", reading[0]),
                ));
            }
            if let Some(first) = seen.insert(reading.clone(), line) {
                return Err(err(
                    "reading",
                    format!(
                        "{} already appears on line {first}; homophones share one line",
                        fields[0]
                    ),
                ));
            }
            let written = fields[1].trim();
            if written.is_empty() {
                return Err(err("written", "empty".into()));
            }
            let meaning = fields[2].trim();
            if meaning.is_empty() {
                return Err(err("meaning", "empty".into()));
            }
            entries.push(Entry {
                reading,
                written: written.to_string(),
                meaning: meaning.to_string(),
            });
        }
        Ok(Dict::from_entries(entries))
    }

    /// A dictionary of the given words; a reading given twice keeps its first entry.
    pub fn from_entries(entries: Vec<Entry>) -> Dict {
        let mut dict = Dict {
            entries: Vec::new(),
            children: vec![[NONE; FACES]],
            word: vec![NONE],
        };
        for entry in entries {
            let mut node = 0usize;
            for k in &entry.reading {
                let next = dict.children[node][k.index()];
                node = if next == NONE {
                    let id = dict.children.len();
                    dict.children.push([NONE; FACES]);
                    dict.word.push(NONE);
                    dict.children[node][k.index()] = id as u32;
                    id
                } else {
                    next as usize
                };
            }
            if dict.word[node] == NONE && !entry.reading.is_empty() {
                dict.word[node] = dict.entries.len() as u32;
                dict.entries.push(entry);
            }
        }
        dict
    }

    /// Every word, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many words there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no words.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The word with index `id`.
    pub fn entry(&self, id: usize) -> Option<&Entry> {
        self.entries.get(id)
    }

    /// The index of the word that reads exactly `reading`.
    pub fn find(&self, reading: &[Kana]) -> Option<usize> {
        let mut node = self.root();
        for &k in reading {
            node = self.step(node, k)?;
        }
        self.word_at(node)
    }

    /// The word that reads exactly `reading`.
    pub fn lookup(&self, reading: &[Kana]) -> Option<&Entry> {
        self.find(reading).map(|i| &self.entries[i])
    }

    /// The start of every reading.
    pub fn root(&self) -> Node {
        Node(0)
    }

    /// Walks one kana on from `node`; `None` when no reading continues that way.
    #[inline]
    pub fn step(&self, node: Node, k: Kana) -> Option<Node> {
        let next = self.children[node.0 as usize][k.index()];
        (next != NONE).then_some(Node(next))
    }

    /// The word whose reading ends exactly at `node`.
    #[inline]
    pub fn word_at(&self, node: Node) -> Option<usize> {
        let w = self.word[node.0 as usize];
        (w != NONE).then_some(w as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kana(s: &str) -> Vec<Kana> {
        parse_kana(s).unwrap()
    }

    #[test]
    fn the_shipped_dictionary_reads() {
        let dict = Dict::parse(JAPANESE).unwrap_or_else(|e| panic!("{e}"));
        assert!(dict.len() >= 1900, "only {} words", dict.len());
        assert_eq!(Dict::japanese().len(), dict.len());
    }

    #[test]
    fn every_shipped_line_is_well_formed() {
        for (i, line) in JAPANESE.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "line {}: {line:?}", i + 1);
            assert!(
                parse_kana(fields[0]).is_ok(),
                "line {}: reading {} is not tile kana",
                i + 1,
                fields[0]
            );
            assert!(
                fields[2].is_ascii(),
                "line {}: meaning is not plain English",
                i + 1
            );
        }
    }

    #[test]
    fn the_shipped_dictionary_has_the_seed_words() {
        let dict = Dict::japanese();
        for w in [
            "さかな",
            "かな",
            "いぬ",
            "ねこ",
            "ことば",
            "ぱん",
            "らーめん",
        ] {
            assert!(dict.lookup(&kana(w)).is_some(), "{w} missing");
        }
        assert!(dict.lookup(&kana("なつさか")).is_none());
    }

    #[test]
    fn lookup_walks_the_trie() {
        let dict = Dict::parse("さかな\t魚\tfish\nかな\t仮名\tkana\n").unwrap();
        assert_eq!(dict.lookup(&kana("さかな")).unwrap().meaning, "fish");
        assert_eq!(dict.lookup(&kana("かな")).unwrap().written, "仮名");
        assert!(dict.lookup(&kana("さか")).is_none());
        let n = dict.step(dict.root(), kana("さ")[0]).unwrap();
        assert_eq!(dict.word_at(n), None);
        assert!(dict.step(n, kana("な")[0]).is_none());
    }

    #[test]
    fn a_bad_reading_is_refused_with_its_line() {
        let e = Dict::parse("さかな\t魚\tfish\nさかナ\t魚\tfish\n").unwrap_err();
        assert_eq!((e.line, e.field), (2, "reading"));
        let e = Dict::parse("# words\nい\t胃\tstomach\n").unwrap_err();
        assert_eq!((e.line, e.field), (2, "reading"));
        let e = Dict::parse("っと\tx\ty\n").unwrap_err();
        assert_eq!(e.field, "reading");
        let e = Dict::parse("いぬ\t犬\n").unwrap_err();
        assert_eq!(e.field, "line");
        let e = Dict::parse("いぬ\t\tdog\n").unwrap_err();
        assert_eq!(e.field, "written");
        let e = Dict::parse("いぬ\t犬\t \n").unwrap_err();
        assert_eq!(e.field, "meaning");
    }

    #[test]
    fn a_reading_given_twice_is_refused() {
        let e = Dict::parse("はし\t橋\tbridge\nはし\t箸\tchopsticks\n").unwrap_err();
        assert_eq!((e.line, e.field), (2, "reading"));
        assert!(e.to_string().contains("line 1"));
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        let dict = Dict::parse("\u{feff}さかな\t魚\tfish\nかな\t仮名\tkana\n").unwrap();
        assert_eq!(dict.len(), 2);
        assert_eq!(dict.entries()[0].reading_text(), "さかな");
        assert_eq!(dict.lookup(&kana("さかな")).unwrap().meaning, "fish");
        // A comment line behind the mark is still a comment.
        let dict = Dict::parse("\u{feff}# words\nいぬ\t犬\tdog\n").unwrap();
        assert_eq!(dict.len(), 1);
    }

    #[test]
    fn a_byte_order_mark_after_the_start_is_refused_with_its_line() {
        let e = Dict::parse("さかな\t魚\tfish\n\u{feff}かな\t仮名\tkana\n").unwrap_err();
        assert_eq!((e.line, e.field), (2, "reading"));
        assert!(e.problem.contains("not a tile kana"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn parsing_never_panics(text in "\\PC{0,200}") {
            let _ = Dict::parse(&text);
        }

        #[test]
        fn parsing_kana_lines_never_panics(
            lines in prop::collection::vec(("[あいうかきさしっゃーa]{0,5}", "[a-z\t]{0,4}"), 0..20)
        ) {
            let text: String = lines.iter().map(|(r, rest)| format!("{r}\t{rest}\n")).collect();
            if let Ok(dict) = Dict::parse(&text) {
                for e in dict.entries() {
                    prop_assert!(e.reading.len() >= 2);
                    prop_assert_eq!(dict.lookup(&e.reading), Some(e));
                }
            }
        }

        #[test]
        fn a_leading_byte_order_mark_changes_nothing(
            lines in prop::collection::vec(("[あいうかきさしっゃーa]{0,5}", "[a-z\t]{0,4}"), 0..20)
        ) {
            let text: String = lines.iter().map(|(r, rest)| format!("{r}\t{rest}\n")).collect();
            let plain = Dict::parse(&text).map(|d| d.entries().to_vec());
            let marked = Dict::parse(&format!("\u{feff}{text}")).map(|d| d.entries().to_vec());
            prop_assert_eq!(marked, plain);
        }
    }
}
