//! Per-project persistent values (`Save.get` / `Save.set`), and the rules for every file a
//! game keeps between runs.
//!
//! A kept slot is never destroyed. One that cannot be used for any reason (too large, not
//! UTF-8, not the right JSON, an I/O error) is moved to a free `.bad` name before anything
//! writes to it; a write replaces a slot whole or not at all. Every slot lives in a
//! [`Storage`] (the player's folder on disk, or slots a web host keeps in the browser), and the
//! path-taking entry points are the same rules on the folder the path is in.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[cfg(test)]
use crate::storage::{Bounded, read_bounded, write_atomically};
use crate::storage::{DiskStorage, Storage};

/// The values and where they live.
#[derive(Debug, Default)]
pub struct SaveStore {
    /// The store and slot it is written to; `None` in memory, or when a bad save could not be
    /// moved aside (so nothing writes over it).
    slot: Option<(Arc<dyn Storage>, String)>,
    values: serde_json::Map<String, serde_json::Value>,
    /// Bytes the entries take in the compact file, each with its comma (see [`entry_sizes`]).
    entries: usize,
    dirty: bool,
    /// What went wrong reading the save, in the player's words (`Save.problem()`).
    problem: Option<String>,
}

/// The most bytes one saved value may take as JSON (with its key).
pub const MAX_SAVE_VALUE: usize = 1 << 20;

/// The most bytes the whole save may take as compact JSON, and the largest save file read.
pub const MAX_SAVE_TOTAL: usize = 8 << 20;

/// A `Save.set` the store refused, keeping what it had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveTooLarge {
    /// The value alone is over [`MAX_SAVE_VALUE`].
    Value {
        /// Its size as JSON.
        bytes: usize,
    },
    /// The store would be over [`MAX_SAVE_TOTAL`].
    Total {
        /// The size it would have.
        bytes: usize,
    },
}

impl std::fmt::Display for SaveTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveTooLarge::Value { bytes } => write!(
                f,
                "the value is {bytes} bytes as JSON; one saved value may be at most {MAX_SAVE_VALUE}"
            ),
            SaveTooLarge::Total { bytes } => write!(
                f,
                "the save would be {bytes} bytes as JSON; a whole save may be at most {MAX_SAVE_TOTAL}"
            ),
        }
    }
}

impl std::error::Error for SaveTooLarge {}

fn json_len<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    serde_json::to_string(value).map_or(0, |s| s.len())
}

/// Two sizes of one entry: what [`MAX_SAVE_VALUE`] caps (the key's bytes and the value as
/// JSON), and what it adds to the compact file (`"key":value,`). The file is `{`, the entries
/// and `}` in place of the last comma, so its size is [`file_size`] exactly.
fn entry_sizes(key: &str, value: &serde_json::Value) -> (usize, usize) {
    let value = json_len(value);
    (key.len() + value, json_len(key) + 1 + value + 1)
}

fn file_size(entries: usize, count: usize) -> usize {
    if count == 0 { 2 } else { entries + 1 }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Reads a save's bytes into its values and their size, or says why they are no save.
fn parse_save(bytes: &[u8]) -> Result<(serde_json::Map<String, serde_json::Value>, usize), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (byte {} is not part of a character)",
            e.valid_up_to()
        )
    })?;
    let map = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(map)) => map,
        Ok(_) => return Err("a save is a JSON object".into()),
        Err(e) => return Err(format!("not valid JSON: {e}")),
    };
    let mut entries = 0;
    for (key, value) in &map {
        let (size, in_file) = entry_sizes(key, value);
        if size > MAX_SAVE_VALUE {
            let shown: String = key.chars().take(40).collect();
            return Err(format!(
                "the value under {shown:?} is {size} bytes as JSON; one saved value may be at most {MAX_SAVE_VALUE}"
            ));
        }
        entries += in_file;
    }
    let total = file_size(entries, map.len());
    if total > MAX_SAVE_TOTAL {
        return Err(format!(
            "it is {total} bytes as JSON; a whole save may be at most {MAX_SAVE_TOTAL}"
        ));
    }
    Ok((map, entries))
}

impl SaveStore {
    /// A store kept in memory only (tests, `check`).
    pub fn in_memory() -> SaveStore {
        SaveStore::default()
    }

    /// Opens the store at `path` (see [`read_kept`]). A missing file is an empty store. A file
    /// that is not a save (over [`MAX_SAVE_TOTAL`] bytes, not UTF-8, not a JSON object, a value
    /// over [`MAX_SAVE_VALUE`], unreadable) is moved to a free `.bad` name and reported, and the
    /// store starts empty; if it cannot be moved, the store is not written this run.
    pub fn open(path: &Path) -> (SaveStore, Option<String>) {
        let (storage, slot) = disk_slot(path);
        SaveStore::open_in(Arc::new(storage), &slot)
    }

    /// Opens the store kept in `slot` of `storage`, with the rules of [`SaveStore::open`]: a
    /// slot that is not a save is set aside under a free `.bad` name and the store starts
    /// empty; if it cannot be set aside, the store is not written this run.
    pub fn open_in(storage: Arc<dyn Storage>, slot: &str) -> (SaveStore, Option<String>) {
        let mut store = SaveStore {
            slot: Some((storage.clone(), slot.to_string())),
            ..SaveStore::default()
        };
        match read_kept_in(&*storage, slot, MAX_SAVE_TOTAL as u64, parse_save) {
            Ok(None) => (store, None),
            Ok(Some((values, entries))) => {
                store.values = values;
                store.entries = entries;
                (store, None)
            }
            Err(aside) => {
                // The player's sentence is short; the log line beside it says why in full.
                store.problem = Some(match &aside.kept {
                    Ok(bad) => format!(
                        "Your saved progress could not be read, so the game starts afresh; the old file is kept as {}.",
                        file_name(bad)
                    ),
                    Err(_) => {
                        store.slot = None;
                        "Your saved progress could not be read, so the game starts afresh and keeps nothing this time; the old file is left as it was.".to_string()
                    }
                });
                (store, Some(format!("{aside}; starting with an empty save")))
            }
        }
    }

    /// What went wrong reading the save when it was opened, in words for the player (a title
    /// screen shows it); `None` when it read well or there was none.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&serde_json::Value> {
        self.values.get(key)
    }

    /// Sets (or with `Null`, removes) the value under `key`. A value over [`MAX_SAVE_VALUE`]
    /// bytes, or one that would take the whole store over [`MAX_SAVE_TOTAL`], is refused and
    /// the store keeps what it had.
    pub fn set(&mut self, key: &str, value: serde_json::Value) -> Result<(), SaveTooLarge> {
        if value.is_null() {
            if let Some(old) = self.values.remove(key) {
                self.entries -= entry_sizes(key, &old).1;
                self.dirty = true;
            }
            return Ok(());
        }
        if self.values.get(key) == Some(&value) {
            return Ok(());
        }
        let (size, in_file) = entry_sizes(key, &value);
        if size > MAX_SAVE_VALUE {
            return Err(SaveTooLarge::Value { bytes: size });
        }
        let old = self.values.get(key).map(|v| entry_sizes(key, v).1);
        let entries = self.entries - old.unwrap_or(0) + in_file;
        let count = self.values.len() + usize::from(old.is_none());
        let total = file_size(entries, count);
        if total > MAX_SAVE_TOTAL {
            return Err(SaveTooLarge::Total { bytes: total });
        }
        self.values.insert(key.to_string(), value);
        self.entries = entries;
        self.dirty = true;
        Ok(())
    }

    /// Bytes the store takes as compact JSON (what [`MAX_SAVE_TOTAL`] caps).
    pub fn size(&self) -> usize {
        file_size(self.entries, self.values.len())
    }

    /// Writes the store if it changed since the last write: indented when that fits under
    /// [`MAX_SAVE_TOTAL`], compact otherwise, so whatever the store holds reads back.
    pub fn flush(&mut self) -> Result<(), String> {
        let Some((storage, slot)) = &self.slot else {
            self.dirty = false;
            return Ok(());
        };
        if !self.dirty {
            return Ok(());
        }
        let mut text = Capped(Vec::new());
        if serde_json::to_writer_pretty(&mut text, &self.values).is_err() {
            text.0 = serde_json::to_vec(&self.values).map_err(|e| e.to_string())?;
        }
        storage
            .write(slot, &text.0)
            .map_err(|e| format!("{}: cannot write save: {}", e.path.display(), e.problem))?;
        self.dirty = false;
        Ok(())
    }
}

/// Bytes written up to [`MAX_SAVE_TOTAL`]; past it, an error (so an indented save that would
/// be too large stops early instead of being made whole).
struct Capped(Vec<u8>);

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > MAX_SAVE_TOTAL {
            return Err(std::io::Error::other("over the cap"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A slot kept between runs that could not be used, and where it went.
#[derive(Debug)]
pub struct SetAside {
    /// The slot as a user finds it ([`Storage::path_of`]).
    pub path: PathBuf,
    /// Why it could not be used.
    pub why: String,
    /// The free `.bad` name it was moved to (as a user finds it), or why it could not be
    /// moved; then it is still at `path` and the caller must not write there.
    pub kept: Result<PathBuf, String>,
}

impl std::fmt::Display for SetAside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)?;
        match &self.kept {
            Ok(bad) => write!(f, "; it was kept as {}", bad.display()),
            Err(e) => write!(
                f,
                "; it could not be set aside ({e}), so it is left in place and nothing is written over it"
            ),
        }
    }
}

impl std::error::Error for SetAside {}

/// Reads the file a game keeps at `path` and hands its bytes to `parse`: [`read_kept_in`]
/// for the slot named by the file's name in the folder on disk ([`DiskStorage`]) it is in.
pub fn read_kept<T>(
    path: &Path,
    cap: u64,
    parse: impl FnOnce(&[u8]) -> Result<T, String>,
) -> Result<Option<T>, SetAside> {
    let (storage, slot) = disk_slot(path);
    read_kept_in(&storage, &slot, cap, parse)
}

/// The folder on disk `path` is in, and the slot its file name is there.
fn disk_slot(path: &Path) -> (DiskStorage, String) {
    let folder = path.parent().unwrap_or(Path::new(""));
    (DiskStorage::new(folder), file_name(path))
}

/// Reads the slot a game keeps in `storage` and hands its bytes to `parse`. `Ok(None)` when
/// there is none. A slot over `cap` bytes (checked before reading, and read through a bounded
/// reader so one that grows is still capped), one that is not a slot, cannot be read, or that
/// `parse` refuses is moved to a free `.bad` name ([`Storage::set_aside`]) before this
/// returns. What a run that was killed while writing the slot left is cleared first
/// ([`Storage::tidy`]).
pub fn read_kept_in<T>(
    storage: &dyn Storage,
    slot: &str,
    cap: u64,
    parse: impl FnOnce(&[u8]) -> Result<T, String>,
) -> Result<Option<T>, SetAside> {
    storage.tidy(slot);
    let why = match storage.read_at_most(slot, cap) {
        Ok(None) => return Ok(None),
        Ok(Some(bytes)) => match parse(&bytes) {
            Ok(value) => return Ok(Some(value)),
            Err(why) => why,
        },
        Err(e) => e.problem.to_string(),
    };
    Err(SetAside {
        path: storage.path_of(slot),
        why,
        kept: storage
            .set_aside(slot)
            .map(|bad| storage.path_of(&bad))
            .map_err(|e| e.problem.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn opened(path: &Path) -> (SaveStore, String) {
        let (store, warning) = SaveStore::open(path);
        (store, warning.expect("a warning"))
    }

    #[test]
    fn values_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        let (mut store, warning) = SaveStore::open(&path);
        assert!(warning.is_none());
        store.set("best", json!(42)).unwrap();
        store.set("name", json!("kana")).unwrap();
        store.set("name", serde_json::Value::Null).unwrap();
        store.flush().unwrap();
        let (store, warning) = SaveStore::open(&path);
        assert!(warning.is_none(), "{warning:?}");
        assert_eq!(store.get("best"), Some(&json!(42)));
        assert_eq!(store.get("name"), None);
        // Nothing but the save is left in the folder.
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["save.json"]);
    }

    #[test]
    fn the_store_size_is_the_compact_file_size() {
        let mut store = SaveStore::in_memory();
        assert_eq!(store.size(), "{}".len());
        store
            .set("a\"\n", json!({"x": [1, 2.5, "é\u{1}"]}))
            .unwrap();
        store.set("b", json!(true)).unwrap();
        assert_eq!(
            store.size(),
            serde_json::to_string(&store.values).unwrap().len()
        );
        store.set("a\"\n", serde_json::Value::Null).unwrap();
        assert_eq!(
            store.size(),
            serde_json::to_string(&store.values).unwrap().len()
        );
    }

    #[test]
    fn oversized_values_and_saves_are_refused_keeping_the_store() {
        let mut store = SaveStore::in_memory();
        let big = serde_json::Value::String("x".repeat(MAX_SAVE_VALUE));
        assert!(matches!(
            store.set("big", big),
            Err(SaveTooLarge::Value { .. })
        ));
        assert_eq!(store.get("big"), None);
        let part = serde_json::Value::String("x".repeat(MAX_SAVE_VALUE - 100));
        for i in 0..8 {
            store.set(&format!("k{i}"), part.clone()).unwrap();
        }
        let err = store.set("k8", part.clone()).unwrap_err();
        assert!(matches!(err, SaveTooLarge::Total { .. }), "{err}");
        assert_eq!(store.get("k8"), None);
        store.set("k0", serde_json::Value::Null).unwrap();
        store.set("k8", part).unwrap();
    }

    #[test]
    fn a_full_store_writes_a_file_that_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        let (mut store, _) = SaveStore::open(&path);
        // Deeply nested: indented, this is many times its compact size, and with the rest the
        // indented file would be over the cap.
        let mut deep = json!(0);
        for _ in 0..20 {
            deep = json!([deep]);
        }
        let nested = json!(vec![deep; 1500]);
        store.set("nested", nested.clone()).unwrap();
        let part = serde_json::Value::String("x".repeat(MAX_SAVE_VALUE - 100));
        for i in 0..7 {
            store.set(&format!("k{i}"), part.clone()).unwrap();
        }
        store.flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("{\"k0\":\"xxx"), "written compact");
        assert_eq!(text.len(), store.size());
        let (back, warning) = SaveStore::open(&path);
        assert!(warning.is_none(), "{warning:?}");
        assert_eq!(back.get("nested"), Some(&nested));
        assert_eq!(back.size(), store.size());
    }

    #[test]
    fn a_corrupt_save_is_set_aside_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::write(&path, "{oops").unwrap();
        let (store, warning) = opened(&path);
        assert!(warning.contains("not valid JSON"), "{warning}");
        assert!(store.get("x").is_none());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("save.json.bad")).unwrap(),
            "{oops"
        );
        // The player is told in words, with the file's name and not the machine's paths.
        let problem = store.problem().unwrap();
        assert!(problem.starts_with("Your saved progress could not be read"));
        assert!(problem.contains("kept as save.json.bad"), "{problem}");
        assert!(!problem.contains(dir.path().to_str().unwrap()));
        // A save that reads, or none, is no problem.
        let (fresh, _) = SaveStore::open(&path);
        assert_eq!(fresh.problem(), None);
        std::fs::write(&path, "[1, 2]").unwrap();
        let (list, warning) = opened(&path);
        assert!(list.problem().is_some());
        assert!(warning.contains("a save is a JSON object"), "{warning}");
    }

    #[test]
    fn a_save_that_is_not_utf8_is_set_aside_and_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        let bytes = b"\xff\xfe{\"gen\": 5}";
        std::fs::write(&path, bytes).unwrap();
        let (mut store, warning) = opened(&path);
        assert!(warning.contains("not UTF-8 text (byte 0"), "{warning}");
        assert!(warning.contains("kept as"), "{warning}");
        assert!(store.problem().unwrap().contains("save.json.bad"));
        store.set("gen", json!(6)).unwrap();
        store.flush().unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("save.json.bad")).unwrap(),
            bytes
        );
        let (back, warning) = SaveStore::open(&path);
        assert!(warning.is_none(), "{warning:?}");
        assert_eq!(back.get("gen"), Some(&json!(6)));
    }

    #[test]
    fn an_oversize_save_is_set_aside_unread_and_the_game_saves_after() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        // Sparse: 9 MiB long, no blocks written.
        let size = 9u64 << 20;
        std::fs::File::create(&path).unwrap().set_len(size).unwrap();
        let (mut store, warning) = opened(&path);
        // Refused by its length, not by what reading it would have found.
        assert!(
            warning.contains(&format!(
                "it is {size} bytes; it may be at most {MAX_SAVE_TOTAL}"
            )),
            "{warning}"
        );
        assert!(!warning.contains("JSON"), "{warning}");
        let bad = dir.path().join("save.json.bad");
        assert_eq!(std::fs::metadata(&bad).unwrap().len(), size);
        assert_eq!(store.size(), 2);
        store.set("gen", json!(1)).unwrap();
        store.flush().unwrap();
        let (back, warning) = SaveStore::open(&path);
        assert!(warning.is_none(), "{warning:?}");
        assert_eq!(back.get("gen"), Some(&json!(1)));
    }

    #[test]
    fn a_reader_that_grows_past_the_cap_is_cut_off() {
        assert!(matches!(
            read_bounded(std::io::repeat(b' '), 100),
            Err(Bounded::Over)
        ));
        assert_eq!(read_bounded(&[b'x'; 100][..], 100).ok().unwrap().len(), 100);
    }

    #[test]
    fn values_too_large_once_read_are_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        // `1e15` is 4 bytes in the file and 18 once written back.
        let numbers = vec!["1e15"; 60_000].join(",");
        std::fs::write(&path, format!("{{\"a\": [{numbers}]}}")).unwrap();
        let (_, warning) = opened(&path);
        assert!(warning.contains("the value under \"a\" is"), "{warning}");
        let third = vec!["1e15"; 50_000].join(",");
        let keys: Vec<String> = (0..9).map(|i| format!("\"k{i}\": [{third}]")).collect();
        std::fs::write(&path, format!("{{{}}}", keys.join(","))).unwrap();
        let (_, warning) = opened(&path);
        assert!(warning.contains("a whole save may be at most"), "{warning}");
        assert!(dir.path().join("save.json.bad.1").is_file());
    }

    #[test]
    fn an_older_bad_file_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::write(dir.path().join("save.json.bad"), "first").unwrap();
        std::fs::write(dir.path().join("save.json.bad.1"), "second").unwrap();
        std::fs::write(&path, "third").unwrap();
        let (store, warning) = opened(&path);
        assert!(warning.contains("save.json.bad.2"), "{warning}");
        assert!(store.problem().unwrap().contains("kept as save.json.bad.2"));
        for (name, text) in [
            ("save.json.bad", "first"),
            ("save.json.bad.1", "second"),
            ("save.json.bad.2", "third"),
        ] {
            assert_eq!(
                std::fs::read_to_string(dir.path().join(name)).unwrap(),
                text
            );
        }
        assert!(!path.exists());
    }

    #[test]
    fn a_save_that_cannot_be_set_aside_is_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::write(dir.path().join("save.json.bad"), "").unwrap();
        for n in 1..1000 {
            std::fs::write(dir.path().join(format!("save.json.bad.{n}")), "").unwrap();
        }
        std::fs::write(&path, "{kept").unwrap();
        let (mut store, warning) = opened(&path);
        assert!(warning.contains("no free .bad name"), "{warning}");
        assert!(warning.contains("nothing is written over it"), "{warning}");
        assert!(store.problem().unwrap().contains("left as it was"));
        store.set("x", json!(1)).unwrap();
        store.flush().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{kept");
    }

    #[test]
    fn a_folder_in_place_of_the_save_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), "x").unwrap();
        let (mut store, warning) = opened(&path);
        assert!(warning.contains("not a regular file"), "{warning}");
        assert!(dir.path().join("save.json.bad/inside").is_file());
        store.set("x", json!(1)).unwrap();
        store.flush().unwrap();
        assert!(path.is_file());
    }

    #[test]
    fn temporary_files_a_killed_run_left_are_removed_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::write(&path, "{\"gen\": 3}").unwrap();
        let left = ["save.json.tmp4242", "save.tmp17"];
        let kept = [
            "save.json.tmpx",
            "save.json.tmp",
            "other.json.tmp1",
            "saves.tmp1",
        ];
        for name in left.iter().chain(&kept) {
            std::fs::write(dir.path().join(name), "half a save").unwrap();
        }
        let (store, warning) = SaveStore::open(&path);
        assert!(warning.is_none(), "{warning:?}");
        assert_eq!(store.get("gen"), Some(&json!(3)));
        for name in left {
            assert!(!dir.path().join(name).exists(), "{name}");
        }
        for name in kept {
            assert!(dir.path().join(name).exists(), "{name}");
        }
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        write_atomically(&path, b"{}").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"{}");
        // A folder that is not empty cannot be renamed over.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(write_atomically(&blocked, b"x").is_err());
        assert!(blocked.join("inside").is_dir());
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
        // A folder that does not exist yet is made.
        write_atomically(&dir.path().join("a/b/save.json"), b"{}").unwrap();
    }

    /// An empty player folder on disk and an empty store in memory.
    fn both_stores() -> (tempfile::TempDir, Vec<Arc<dyn Storage>>) {
        let dir = tempfile::tempdir().unwrap();
        let disk = crate::storage::DiskStorage::new(&dir.path().join("data"));
        let memory = crate::storage::MemoryStorage::named("browser");
        (dir, vec![Arc::new(disk), Arc::new(memory)])
    }

    fn slot(storage: &dyn Storage, name: &str) -> Option<Vec<u8>> {
        storage.read_at_most(name, u64::MAX).unwrap()
    }

    #[test]
    fn a_save_that_cannot_be_read_is_set_aside_and_the_next_write_keeps_it_in_every_store() {
        let whole = br#"{"gen": 5, "name": "kana"}"#;
        let mut too_large = b"{\"a\": \"".to_vec();
        too_large.resize(MAX_SAVE_TOTAL + 1, b'x');
        let attacks: Vec<(&str, Vec<u8>, &str)> = vec![
            ("not JSON", b"{oops".to_vec(), "not valid JSON"),
            (
                "not an object",
                b"[1, 2]".to_vec(),
                "a save is a JSON object",
            ),
            (
                "not UTF-8",
                b"\xff\xfe{\"gen\": 5}".to_vec(),
                "not UTF-8 text",
            ),
            (
                "truncated",
                whole[..whole.len() - 5].to_vec(),
                "not valid JSON",
            ),
            ("too large", too_large, "may be at most 8388608"),
        ];
        let (_dir, stores) = both_stores();
        for storage in &stores {
            for (n, (what, bytes, why)) in attacks.iter().enumerate() {
                storage.write("save.json", bytes).unwrap();
                let (mut store, warning) = SaveStore::open_in(storage.clone(), "save.json");
                let warning = warning.unwrap_or_else(|| panic!("{what}: no warning"));
                assert!(warning.contains(why), "{what}: {warning}");
                let bad = crate::storage::set_aside_name("save.json", n);
                assert!(warning.contains(&bad), "{what}: {warning}");
                let problem = store.problem().unwrap();
                assert!(problem.contains(&format!("kept as {bad}")), "{problem}");
                assert_eq!(slot(&**storage, "save.json"), None, "{what}");
                store.set("gen", json!(6)).unwrap();
                store.flush().unwrap();
                // The next write made a new save and left every kept copy as it was.
                for (m, (_, earlier, _)) in attacks.iter().enumerate().take(n + 1) {
                    let kept = crate::storage::set_aside_name("save.json", m);
                    assert_eq!(slot(&**storage, &kept).as_ref(), Some(earlier), "{what}");
                }
                let (back, warning) = SaveStore::open_in(storage.clone(), "save.json");
                assert!(warning.is_none(), "{what}: {warning:?}");
                assert_eq!(back.get("gen"), Some(&json!(6)));
            }
        }
    }

    #[test]
    fn values_round_trip_through_every_store() {
        let (_dir, stores) = both_stores();
        for storage in &stores {
            let (mut store, warning) = SaveStore::open_in(storage.clone(), "save.json");
            assert!(warning.is_none());
            store.set("best", json!(42)).unwrap();
            store.flush().unwrap();
            let (back, warning) = SaveStore::open_in(storage.clone(), "save.json");
            assert!(warning.is_none(), "{warning:?}");
            assert_eq!(back.get("best"), Some(&json!(42)));
            assert_eq!(storage.list().unwrap(), ["save.json"]);
        }
    }

    #[test]
    fn a_save_that_cannot_be_set_aside_is_never_written_over_in_any_store() {
        let dir = tempfile::tempdir().unwrap();
        let memory = crate::storage::MemoryStorage::named("browser");
        for n in 0..crate::storage::MAX_SET_ASIDE {
            // Kept copies are never written by a game; a host puts them back as it found them.
            let name = crate::storage::set_aside_name("save.json", n);
            std::fs::write(dir.path().join(&name), "").unwrap();
            memory.insert(&name, "").unwrap();
        }
        let disk = crate::storage::DiskStorage::new(dir.path());
        let stores: [Arc<dyn Storage>; 2] = [Arc::new(disk), Arc::new(memory)];
        for storage in stores {
            storage.write("save.json", b"{kept").unwrap();
            let (mut store, warning) = SaveStore::open_in(storage.clone(), "save.json");
            let warning = warning.unwrap();
            assert!(warning.contains("no free .bad name"), "{warning}");
            assert!(store.problem().unwrap().contains("left as it was"));
            store.set("x", json!(1)).unwrap();
            store.flush().unwrap();
            assert_eq!(slot(&*storage, "save.json").unwrap(), b"{kept");
        }
    }

    fn save_bytes() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..256),
            "\\{( ?\"[a-z\\\\\"é]{0,3}\": ?(-?[0-9]{1,3}(\\.[0-9])?|\"[a-z]{0,3}\"|\\[\\]|null|true)[,}]?){0,4}\\}?"
                .prop_map(String::into_bytes),
            (
                "\\{\"[a-z]{1,3}\": \\[[0-9, ]{0,20}\\]\\}",
                any::<usize>(),
                any::<u8>()
            )
                .prop_map(|(text, at, byte)| {
                    let mut bytes = text.into_bytes();
                    let at = at % bytes.len();
                    bytes[at] = byte;
                    bytes
                }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any bytes in place of the save: it loads as the JSON object they are, or it is set
        /// aside with every byte kept, and the store can be written either way.
        #[test]
        fn any_bytes_as_a_save_load_or_are_kept_whole(bytes in save_bytes()) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("save.json");
            std::fs::write(&path, &bytes).unwrap();
            let (mut store, warning) = SaveStore::open(&path);
            match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Ok(serde_json::Value::Object(map)) => {
                    prop_assert!(warning.is_none(), "{:?}", warning);
                    prop_assert_eq!(&store.values, &map);
                }
                _ => {
                    prop_assert!(warning.is_some());
                    prop_assert!(store.problem().is_some());
                    prop_assert!(!path.exists());
                    prop_assert_eq!(std::fs::read(dir.path().join("save.json.bad")).unwrap(), bytes);
                }
            }
            store.set("after", json!(1)).unwrap();
            store.flush().unwrap();
            let (back, warning) = SaveStore::open(&path);
            prop_assert!(warning.is_none(), "{:?}", warning);
            prop_assert_eq!(back.get("after"), Some(&json!(1)));
        }
    }
}
