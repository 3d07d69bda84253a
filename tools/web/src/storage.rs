//! The player's data in the browser: a [`MemoryStorage`] the page fills from `localStorage`
//! before the game starts, and whose changes it writes back after steps, so a reload keeps the
//! save.
//!
//! Each slot is one `localStorage` key, `jengine/<project name>/<slot name>`
//! ([`key_prefix`]), its value the slot's text ([`encode`]). The store keeps the rules of the
//! desktop's folder: the runtime's save sets aside a save it cannot read (kept under
//! `save.json.bad`, as the file is renamed on disk), and nothing is written over a key that was
//! not loaded. What the page hands in is bounded ([`MAX_SLOTS`], [`MAX_SLOT_BYTES`],
//! [`MAX_LOAD_BYTES`]) and every name is held to the store's rules; a key refused is reported
//! and left as it is, and the game never writes to it. Changes go back as an ordered list of
//! writes and removals ([`BrowserStorage::changes`]): new keys first, so a copy set aside is
//! kept before anything could replace the original, and only what the page confirms written
//! counts as stored, so a write the browser refused (its quota) is tried again later.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use base64::Engine;
use jengine::host::{MemoryStorage, Storage};

/// The most slots loaded from the browser (the save first, then by name); the keys past it are
/// reported and left alone.
pub const MAX_SLOTS: usize = 1024;

/// The largest slot loaded, in bytes; a larger value is reported and left alone.
pub const MAX_SLOT_BYTES: usize = 16 << 20;

/// The most the page may hand in at once (the JSON of every key), in bytes.
pub const MAX_LOAD_BYTES: usize = 64 << 20;

/// The runtime's save slot, loaded before any other.
const SAVE: &str = "save.json";

/// How many problems a load reports line by line before it only counts them.
const MAX_SAID: usize = 20;

/// The start of a value holding bytes that are not text: the rest is their base64.
pub const BYTES_MARK: &str = "\0base64:";

/// Where a project's slots are in `localStorage`: `jengine/<name>/`, the name percent-encoded
/// so that one project's keys are never under another's.
pub fn key_prefix(project_name: &str) -> String {
    let mut out = String::from("jengine/");
    for b in project_name.bytes() {
        if b.is_ascii_alphanumeric() || b"-_. ".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.push('/');
    out
}

/// A slot's bytes as a `localStorage` value: the text itself when the bytes are UTF-8 (so a
/// save reads as its JSON), else [`BYTES_MARK`] and their base64.
pub fn encode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.starts_with('\0') => text.to_string(),
        _ => format!(
            "{BYTES_MARK}{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        ),
    }
}

/// A `localStorage` value's bytes. A value that claims to be base64 and is not stays the text
/// it is, so its reader finds bytes it cannot use and sets them aside as it would a damaged
/// file.
pub fn decode(value: &str) -> Vec<u8> {
    value
        .strip_prefix(BYTES_MARK)
        .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
        .unwrap_or_else(|| value.as_bytes().to_vec())
}

/// What a load did with the keys the page handed in.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Loaded {
    /// The slots loaded, by name under the prefix.
    pub loaded: Vec<String>,
    /// The names refused: left in `localStorage` as they are and never written.
    pub held: Vec<String>,
    /// What was wrong, said once each (the first [`MAX_SAID`], then how many more).
    pub problems: Vec<String>,
}

/// One change for the page to make in `localStorage`, under the prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Set the key of this slot to this value.
    Set(String, String),
    /// Remove the key of this slot.
    Remove(String),
}

/// The store a page's game keeps its data in, and what of it the page has stored.
#[derive(Debug)]
pub struct BrowserStorage {
    memory: MemoryStorage,
    /// Each slot's bytes as the page last stored (or loaded) them.
    stored: BTreeMap<String, Vec<u8>>,
    /// Names never written back: refused on load, so their keys are kept as they are.
    held: BTreeSet<String>,
    /// The store's change count when it last matched what the page stored.
    seen: u64,
    /// Changes handed out and not yet confirmed.
    handed: Vec<Change>,
    /// Held names a write was kept from, said once each.
    said: BTreeSet<String>,
    warnings: Vec<String>,
}

impl BrowserStorage {
    /// An empty store for the project whose keys start with `prefix` (named so in messages).
    pub fn empty(prefix: &str) -> BrowserStorage {
        BrowserStorage {
            memory: MemoryStorage::named(format!("localStorage {}", prefix.trim_end_matches('/'))),
            stored: BTreeMap::new(),
            held: BTreeSet::new(),
            seen: 0,
            handed: Vec::new(),
            said: BTreeSet::new(),
            warnings: Vec::new(),
        }
    }

    /// A store filled from the page's keys under `prefix`, given as the JSON list
    /// `[[name, value], ...]` (names with the prefix taken off). Too much JSON, or JSON that is
    /// not that list, loads nothing; a single key that is not a slot name, too large, or past
    /// [`MAX_SLOTS`] is held. Either way the refused keys stay as they are.
    pub fn load(prefix: &str, json: &[u8]) -> (BrowserStorage, Loaded) {
        let mut store = BrowserStorage::empty(prefix);
        let mut said = Loaded::default();
        let mut problems = Vec::new();
        let entries: Vec<(String, serde_json::Value)> = if json.len() > MAX_LOAD_BYTES {
            problems.push(format!(
                "localStorage {prefix}: the page handed in {} bytes of keys; at most {MAX_LOAD_BYTES} are read, so none were loaded",
                json.len()
            ));
            Vec::new()
        } else {
            match serde_json::from_slice(json) {
                Ok(entries) => entries,
                Err(e) => {
                    problems.push(format!(
                        "localStorage {prefix}: the page's keys are not a list of [name, value]: {e}; none were loaded"
                    ));
                    Vec::new()
                }
            }
        };
        if !problems.is_empty() {
            // Nothing could be told apart: every key is kept, and none written.
            store.held.insert(String::new());
        }
        let mut entries = entries;
        // The runtime's save comes first, so a flood of other keys never keeps it out.
        entries.sort_by(|a, b| (a.0 != SAVE, &a.0).cmp(&(b.0 != SAVE, &b.0)));
        let mut past_limit = 0usize;
        for (name, value) in entries {
            let refuse = |store: &mut BrowserStorage, said: &mut Loaded, why: Option<String>| {
                store.held.insert(name.clone());
                said.held.push(name.clone());
                why
            };
            let Some(value) = value.as_str() else {
                let why =
                    format!("localStorage {prefix}{name}: its value is not text; left as it is");
                problems.extend(refuse(&mut store, &mut said, Some(why)));
                continue;
            };
            if said.loaded.len() >= MAX_SLOTS {
                past_limit += 1;
                refuse(&mut store, &mut said, None);
                continue;
            }
            let bytes = decode(value);
            if bytes.len() > MAX_SLOT_BYTES {
                let why = format!(
                    "localStorage {prefix}{name}: {} bytes; a slot may be at most {MAX_SLOT_BYTES}, so it is left as it is and not loaded",
                    bytes.len()
                );
                problems.extend(refuse(&mut store, &mut said, Some(why)));
                continue;
            }
            match store.memory.insert(&name, bytes.clone()) {
                Ok(()) => {
                    store.stored.insert(name.clone(), bytes);
                    said.loaded.push(name);
                }
                Err(e) => {
                    let why = format!(
                        "localStorage {prefix}{name}: not a slot ({e}); left as it is and not loaded"
                    );
                    problems.extend(refuse(&mut store, &mut said, Some(why)));
                }
            }
        }
        if past_limit > 0 {
            problems.push(format!(
                "localStorage {prefix}: {past_limit} keys past the first {MAX_SLOTS} were not loaded and are left as they are"
            ));
        }
        let more = problems.len().saturating_sub(MAX_SAID);
        problems.truncate(MAX_SAID);
        if more > 0 {
            problems.push(format!(
                "and {more} more problems with localStorage {prefix}"
            ));
        }
        said.problems = problems;
        store.seen = store.memory.changes();
        (store, said)
    }

    /// The store the runtime keeps the player's data in.
    pub fn store(&self) -> Arc<dyn Storage> {
        Arc::new(self.memory.clone())
    }

    /// The changes to make in `localStorage` so it holds what the store holds, in order: keys
    /// that are new first, then keys replaced, then keys removed. Empty when nothing changed.
    /// The same changes (updated) come again until [`BrowserStorage::stored`] confirms them.
    pub fn changes(&mut self) -> &[Change] {
        let count = self.memory.changes();
        if count == self.seen && self.handed.is_empty() {
            return &[];
        }
        self.seen = count;
        let now: BTreeMap<String, Vec<u8>> = self.memory.slots().into_iter().collect();
        let (mut new, mut replaced, mut removed) = (Vec::new(), Vec::new(), Vec::new());
        for (name, bytes) in &now {
            let change = || Change::Set(name.clone(), encode(bytes));
            match self.stored.get(name) {
                Some(old) if old == bytes => {}
                _ if self.is_held(name) => self.keep_from(name),
                Some(_) => replaced.push(change()),
                None => new.push(change()),
            }
        }
        for name in self.stored.keys() {
            if !now.contains_key(name) {
                removed.push(Change::Remove(name.clone()));
            }
        }
        new.extend(replaced);
        new.extend(removed);
        self.handed = new;
        &self.handed
    }

    /// The page made the first `done` of the last [`BrowserStorage::changes`]; the rest (a
    /// write the browser refused, and what came after it) are handed out again next time.
    pub fn stored(&mut self, done: usize) {
        let handed = std::mem::take(&mut self.handed);
        let done = done.min(handed.len());
        for change in &handed[..done] {
            match change {
                Change::Set(name, value) => {
                    self.stored.insert(name.clone(), decode(value));
                }
                Change::Remove(name) => {
                    self.stored.remove(name);
                }
            }
        }
        if done < handed.len() {
            // Asked again next time, against what is stored now.
            self.handed = handed[done..].to_vec();
        }
    }

    /// Problems met since the last call, each said once.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    fn is_held(&self, name: &str) -> bool {
        self.held.contains(name) || self.held.contains("")
    }

    fn keep_from(&mut self, name: &str) {
        if self.said.insert(name.to_string()) {
            self.warnings.push(format!(
                "{}: the key in localStorage was not loaded, so it is kept as it is; what the game writes there lasts only until the page closes",
                self.memory.path_of(name).display()
            ));
        }
    }
}

/// The changes as the JSON the page reads: `[[name, value], [name, null], ...]` in order.
pub fn changes_json(changes: &[Change]) -> String {
    let list: Vec<serde_json::Value> = changes
        .iter()
        .map(|c| match c {
            Change::Set(name, value) => serde_json::json!([name, value]),
            Change::Remove(name) => serde_json::json!([name, null]),
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine::host::SaveStore;

    const PREFIX: &str = "jengine/counter-fixture/";

    fn entries(list: &[(&str, &str)]) -> Vec<u8> {
        serde_json::to_vec(&list.iter().map(|(k, v)| [k, v]).collect::<Vec<_>>()).unwrap()
    }

    /// What the page holds, with the changes made as a page makes them (all of them).
    fn apply(page: &mut BTreeMap<String, String>, store: &mut BrowserStorage) -> usize {
        let changes = store.changes().to_vec();
        for change in &changes {
            match change {
                Change::Set(k, v) => page.insert(k.clone(), v.clone()),
                Change::Remove(k) => page.remove(k),
            };
        }
        store.stored(changes.len());
        changes.len()
    }

    #[test]
    fn a_project_name_becomes_a_prefix_no_other_project_shares() {
        assert_eq!(key_prefix("counter-fixture"), "jengine/counter-fixture/");
        assert_eq!(key_prefix("a/b"), "jengine/a%2Fb/");
        assert_eq!(key_prefix("かな"), "jengine/%E3%81%8B%E3%81%AA/");
        assert!(!key_prefix("a/b").starts_with(&key_prefix("a")));
    }

    #[test]
    fn bytes_go_to_text_and_back_whatever_they_are() {
        for bytes in [
            &b"{\"a\":1}"[..],
            b"",
            b"\0starts with nul",
            &[0xff, 0xfe, 0, 1],
            "かな".as_bytes(),
        ] {
            assert_eq!(decode(&encode(bytes)), bytes, "{bytes:?}");
        }
        assert_eq!(encode(b"{}"), "{}", "a save reads as its JSON");
        assert_eq!(decode("\0base64:not base64!"), b"\0base64:not base64!");
    }

    #[test]
    fn a_save_written_goes_back_and_loads_again_after_a_reload() {
        let (mut store, said) = BrowserStorage::load(PREFIX, b"[]");
        assert_eq!(said, Loaded::default());
        let (mut save, warning) = SaveStore::open_in(store.store(), "save.json");
        assert_eq!(warning, None);
        save.set("level", serde_json::json!(3)).unwrap();
        save.flush().unwrap();
        let mut page = BTreeMap::new();
        assert_eq!(apply(&mut page, &mut store), 1);
        assert_eq!(apply(&mut page, &mut store), 0, "nothing changed since");
        let saved: serde_json::Value = serde_json::from_str(&page["save.json"]).unwrap();
        assert_eq!(
            saved,
            serde_json::json!({ "level": 3 }),
            "a save reads as its JSON"
        );

        let json = serde_json::to_vec(&page.iter().collect::<Vec<_>>()).unwrap();
        let (store, said) = BrowserStorage::load(PREFIX, &json);
        assert_eq!(said.loaded, ["save.json"]);
        let (save, warning) = SaveStore::open_in(store.store(), "save.json");
        assert_eq!(warning, None);
        assert_eq!(save.get("level"), Some(&serde_json::json!(3)));
    }

    #[test]
    fn a_save_that_cannot_be_read_is_kept_under_another_key_and_never_written_over() {
        let mut page: BTreeMap<String, String> =
            [("save.json".to_string(), "{broken".to_string())].into();
        let json = serde_json::to_vec(&page.iter().collect::<Vec<_>>()).unwrap();
        let (mut store, _) = BrowserStorage::load(PREFIX, &json);
        let (mut save, warning) = SaveStore::open_in(store.store(), "save.json");
        let warning = warning.expect("the damaged save is reported");
        assert!(warning.contains("save.json"), "{warning}");
        assert!(save.problem().unwrap().contains("save.json.bad"));
        save.set("fresh", serde_json::json!(true)).unwrap();
        save.flush().unwrap();
        // The copy is kept before the fresh save replaces the original.
        let fresh = encode(
            &store
                .memory
                .read_at_most("save.json", 100)
                .unwrap()
                .unwrap(),
        );
        let changes = store.changes().to_vec();
        assert_eq!(
            changes,
            [
                Change::Set("save.json.bad".into(), "{broken".into()),
                Change::Set("save.json".into(), fresh.clone()),
            ]
        );
        // The browser refused the copy (its quota): the original is not written over.
        store.stored(0);
        assert_eq!(store.changes().len(), 2, "both are asked again");
        store.stored(1);
        page.insert("save.json.bad".into(), "{broken".into());
        assert_eq!(
            store.changes(),
            [Change::Set("save.json".into(), fresh.clone())]
        );
        assert_eq!(apply(&mut page, &mut store), 1);
        assert_eq!(page["save.json.bad"], "{broken");
        assert_eq!(page["save.json"], fresh);
    }

    #[test]
    fn forged_names_huge_values_and_floods_of_keys_are_held_and_never_written() {
        let mut list: Vec<(String, String)> = vec![
            ("../x".into(), "{}".into()),
            ("a/../../b".into(), "{}".into()),
            ("/abs".into(), "{}".into()),
            ("CON".into(), "{}".into()),
        ];
        for i in 0..MAX_SLOTS + 500 {
            list.push((format!("junk{i:05}"), "1".into()));
        }
        list.push(("save.json".into(), "{}".into()));
        let (_, said) = BrowserStorage::load(PREFIX, &serde_json::to_vec(&list).unwrap());
        assert_eq!(said.loaded.len(), MAX_SLOTS);
        assert_eq!(
            said.loaded[0], "save.json",
            "a flood of keys never keeps out the save"
        );
        assert_eq!(said.held.len(), 4 + 501);
        for name in ["../x", "a/../../b", "/abs", "CON", "junk01523"] {
            assert!(said.held.iter().any(|h| h == name), "{name} is held");
        }
        assert!(said.problems.len() <= MAX_SAID + 1, "{:?}", said.problems);
        for words in ["../x", "reserved", "501 keys past"] {
            assert!(
                said.problems.iter().any(|p| p.contains(words)),
                "{words}: {:?}",
                said.problems
            );
        }

        let huge = "x".repeat(MAX_SLOT_BYTES + 1);
        let list = [("save.json", huge.as_str())];
        let (mut store, said) = BrowserStorage::load(PREFIX, &entries(&list));
        assert_eq!(said.held, ["save.json"]);
        assert!(said.problems[0].contains("at most"), "{:?}", said.problems);
        // The game starts afresh, and its save stays in memory: the huge key is not replaced.
        let (mut save, warning) = SaveStore::open_in(store.store(), "save.json");
        assert_eq!(warning, None);
        save.set("a", serde_json::json!(1)).unwrap();
        save.flush().unwrap();
        assert_eq!(store.changes(), []);
        let warnings = store.take_warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("save.json"), "{warnings:?}");
        save.set("a", serde_json::json!(2)).unwrap();
        save.flush().unwrap();
        assert_eq!(store.changes(), []);
        assert_eq!(store.take_warnings(), Vec::<String>::new(), "said once");
    }

    #[test]
    fn keys_that_are_not_a_list_load_nothing_and_are_all_kept() {
        for json in [&b"{\"a\":1}"[..], b"[[1,2]]", b"not json"] {
            let (mut store, said) = BrowserStorage::load(PREFIX, json);
            assert!(said.loaded.is_empty());
            assert_eq!(said.problems.len(), 1, "{:?}", said.problems);
            store.memory.write("save.json", b"{}").unwrap();
            assert_eq!(
                store.changes(),
                [],
                "nothing is written over keys not understood"
            );
        }
        let (_, said) = BrowserStorage::load(PREFIX, &vec![b' '; MAX_LOAD_BYTES + 1]);
        assert!(
            said.problems[0].contains("none were loaded"),
            "{:?}",
            said.problems
        );
        let (_, said) = BrowserStorage::load(PREFIX, &entries(&[("a", "1")]));
        assert_eq!(said.loaded, ["a"]);
    }

    #[test]
    fn a_slot_removed_in_the_game_is_removed_from_the_page() {
        let (mut store, _) =
            BrowserStorage::load(PREFIX, &entries(&[("a.txt", "1"), ("b.txt", "2")]));
        let mut page: BTreeMap<String, String> =
            [("a.txt".into(), "1".into()), ("b.txt".into(), "2".into())].into();
        store.memory.remove("a.txt").unwrap();
        store
            .memory
            .folder("miau")
            .unwrap()
            .write("p.json", &[0xff])
            .unwrap();
        assert_eq!(apply(&mut page, &mut store), 2);
        assert_eq!(page.keys().collect::<Vec<_>>(), ["b.txt", "miau/p.json"]);
        assert_eq!(decode(&page["miau/p.json"]), [0xff]);
    }
}
