//! Per-project persistent values (`Save.get` / `Save.set`), and the rules for every file a
//! game keeps between runs.
//!
//! A kept file is never destroyed. One that cannot be used for any reason (too large, not
//! UTF-8, not the right JSON, an I/O error) is moved to a free `.bad` name before anything
//! writes to its path; writing goes to a temporary file that is synced, renamed over the old
//! one and the folder synced, so a crash leaves the old file or the new one whole.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The values and where they live.
#[derive(Debug, Default)]
pub struct SaveStore {
    /// Where the store is written; `None` in memory, or when a bad save could not be moved
    /// aside (so nothing writes over it).
    path: Option<PathBuf>,
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
        let mut store = SaveStore {
            path: Some(path.to_path_buf()),
            ..SaveStore::default()
        };
        match read_kept(path, MAX_SAVE_TOTAL as u64, parse_save) {
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
                        store.path = None;
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
        let Some(path) = &self.path else {
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
        write_atomically(path, &text.0)
            .map_err(|e| format!("{}: cannot write save: {e}", path.display()))?;
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

/// A file kept between runs that could not be used, and where it went.
#[derive(Debug)]
pub struct SetAside {
    /// The file.
    pub path: PathBuf,
    /// Why it could not be used.
    pub why: String,
    /// The free `.bad` name it was moved to, or why it could not be moved; then it is still at
    /// `path` and the caller must not write there.
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

/// Reads the file a game keeps at `path` and hands its bytes to `parse`. `Ok(None)` when
/// there is no file. A file over `cap` bytes (checked before reading, and read through a
/// bounded reader so one that grows is still capped), one that is not a regular file, cannot
/// be read, or that `parse` refuses is moved to a free `.bad` name ([`set_aside`]) before
/// this returns. Temporary files that [`write_atomically`] left for `path` in a run that was
/// killed are removed first.
pub fn read_kept<T>(
    path: &Path,
    cap: u64,
    parse: impl FnOnce(&[u8]) -> Result<T, String>,
) -> Result<Option<T>, SetAside> {
    remove_leftover_temps(path);
    let why = match read_capped(path, cap) {
        Ok(None) => return Ok(None),
        Ok(Some(bytes)) => match parse(&bytes) {
            Ok(value) => return Ok(Some(value)),
            Err(why) => why,
        },
        Err(why) => why,
    };
    Err(SetAside {
        path: path.to_path_buf(),
        why,
        kept: set_aside(path).map_err(|e| e.to_string()),
    })
}

/// The bytes of `path`, `None` when it does not exist, or why they cannot be had.
fn read_capped(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, String> {
    let missing = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    // Looked at before opening: opening a pipe would wait for a writer.
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if missing(&e) => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if missing(&e) => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let len = file.metadata().map_or(meta.len(), |m| m.len());
    if len > cap {
        return Err(format!("it is {len} bytes; it may be at most {cap}"));
    }
    read_bounded(file, cap).map(Some).map_err(|e| match e {
        Bounded::Over => format!("it grew past {cap} bytes while being read"),
        Bounded::Io(e) => format!("cannot read it: {e}"),
    })
}

enum Bounded {
    Over,
    Io(std::io::Error),
}

/// Reads `from` to its end, refusing at the first byte past `cap`.
fn read_bounded(from: impl Read, cap: u64) -> Result<Vec<u8>, Bounded> {
    let mut bytes = Vec::new();
    from.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Bounded::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Bounded::Over);
    }
    Ok(bytes)
}

/// Moves the file at `path` to the first free name of `<name>.bad`, `<name>.bad.1`,
/// `<name>.bad.2`, … beside it, never replacing a file already there, and returns that name.
fn set_aside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file")
    })?;
    for n in 0..1000 {
        let mut candidate = name.to_os_string();
        candidate.push(if n == 0 {
            ".bad".to_string()
        } else {
            format!(".bad.{n}")
        });
        let candidate = path.with_file_name(candidate);
        // A hard link fails rather than replace a file; a rename would replace it.
        match std::fs::hard_link(path, &candidate) {
            Ok(()) => {
                // The copy is safe; if the old name cannot go, writing over it loses nothing.
                let _ = std::fs::remove_file(path);
                return Ok(candidate);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(e),
            // A folder, or a file system without hard links: look, then rename.
            Err(_) => {
                if std::fs::symlink_metadata(&candidate).is_ok() {
                    continue;
                }
                std::fs::rename(path, &candidate)?;
                return Ok(candidate);
            }
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        "no free .bad name among the first 1000",
    ))
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The temporary file [`write_atomically`] writes beside `path` in this process.
fn temp_path(path: &Path) -> std::io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file")
    })?;
    let mut temp = name.to_os_string();
    temp.push(format!(".tmp{}", std::process::id()));
    Ok(path.with_file_name(temp))
}

/// Whether `candidate` is a temporary file of `path` from some process: `<name>.tmp<pid>`,
/// or the older `<stem>.tmp<pid>`.
fn is_temp_of(path: &Path, candidate: &str) -> bool {
    let pid_after = |prefix: &str| {
        candidate
            .strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    let name = file_name(path);
    let old = file_name(&path.with_extension("tmp"));
    pid_after(&format!("{name}.tmp")) || pid_after(&old)
}

/// Removes the temporary files a killed run left for `path`. A run writing the same file at
/// this moment loses only that write (its rename fails and it writes again next time).
fn remove_leftover_temps(path: &Path) {
    let Ok(list) = std::fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in list.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if is_temp_of(path, name) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder (`<name>.tmp<pid>`),
/// synced to disk before it is renamed over `path`; the folder is synced after (on Unix), so
/// the new name survives a power cut. On any failure the old file is untouched and the
/// temporary file removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    let tmp = temp_path(path)?;
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    sync_folder(dir)
}

#[cfg(unix)]
fn sync_folder(dir: &Path) -> std::io::Result<()> {
    match std::fs::File::open(dir).and_then(|d| d.sync_all()) {
        // Some file systems cannot sync a folder; the rename is done either way.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::InvalidInput | std::io::ErrorKind::Unsupported
            ) =>
        {
            Ok(())
        }
        other => other,
    }
}

#[cfg(not(unix))]
fn sync_folder(_dir: &Path) -> std::io::Result<()> {
    Ok(())
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
