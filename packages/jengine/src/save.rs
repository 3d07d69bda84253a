//! Per-project persistent values (`Save.get` / `Save.set`), written atomically.
//!
//! The store is one JSON object. Writing goes to a temporary file that is then renamed over
//! the old one, so a crash mid-write leaves the previous save whole. A save file that cannot
//! be read is set aside (never overwritten) and the game starts from an empty store.

use std::path::{Path, PathBuf};

/// The values and where they live.
#[derive(Debug, Default)]
pub struct SaveStore {
    path: Option<PathBuf>,
    values: serde_json::Map<String, serde_json::Value>,
    /// Bytes the values take as JSON, keys included.
    total: usize,
    dirty: bool,
    /// What went wrong reading the save, in the player's words (`Save.problem()`).
    problem: Option<String>,
}

/// The most bytes one saved value may take as JSON.
pub const MAX_SAVE_VALUE: usize = 1 << 20;

/// The most bytes the whole save may take as JSON.
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

fn stored_size(key: &str, value: &serde_json::Value) -> usize {
    key.len() + serde_json::to_string(value).map_or(0, |s| s.len())
}

impl SaveStore {
    /// A store kept in memory only (tests, `check`).
    pub fn in_memory() -> SaveStore {
        SaveStore::default()
    }

    /// Opens the store at `path`. A missing file is an empty store. A file that is not a JSON
    /// object is renamed to `<path>.bad` and reported; the store starts empty.
    pub fn open(path: &Path) -> (SaveStore, Option<String>) {
        let mut store = SaveStore {
            path: Some(path.to_path_buf()),
            ..SaveStore::default()
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (store, None),
            Err(e) => {
                store.problem = Some(
                    "Your saved progress could not be read, so the game starts afresh.".into(),
                );
                return (
                    store,
                    Some(format!("{}: cannot read save: {e}", path.display())),
                );
            }
        };
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(serde_json::Value::Object(map)) => {
                store.total = map.iter().map(|(k, v)| stored_size(k, v)).sum();
                store.values = map;
                (store, None)
            }
            other => {
                let why = match other {
                    Err(e) => format!("not valid JSON: {e}"),
                    Ok(_) => "a save is a JSON object".to_string(),
                };
                let aside = path.with_extension("json.bad");
                let moved = std::fs::rename(path, &aside).is_ok();
                let kept = if moved {
                    format!("; it was kept as {}", aside.display())
                } else {
                    String::new()
                };
                let file = |p: &Path| {
                    p.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                };
                // The player's sentence is short; the log line beside it says why in full.
                store.problem = Some(if moved {
                    format!(
                        "Your saved progress could not be read, so the game starts afresh; the old file is kept as {}.",
                        file(&aside)
                    )
                } else {
                    "Your saved progress could not be read, so the game starts afresh.".to_string()
                });
                (
                    store,
                    Some(format!(
                        "{}: {why}{kept}; starting with an empty save",
                        path.display()
                    )),
                )
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
                self.total -= stored_size(key, &old);
                self.dirty = true;
            }
            return Ok(());
        }
        if self.values.get(key) == Some(&value) {
            return Ok(());
        }
        let size = stored_size(key, &value);
        if size > MAX_SAVE_VALUE {
            return Err(SaveTooLarge::Value { bytes: size });
        }
        let old = self.values.get(key).map_or(0, |v| stored_size(key, v));
        let total = self.total - old + size;
        if total > MAX_SAVE_TOTAL {
            return Err(SaveTooLarge::Total { bytes: total });
        }
        self.values.insert(key.to_string(), value);
        self.total = total;
        self.dirty = true;
        Ok(())
    }

    /// Writes the store if it changed since the last write.
    pub fn flush(&mut self) -> Result<(), String> {
        let Some(path) = &self.path else {
            self.dirty = false;
            return Ok(());
        };
        if !self.dirty {
            return Ok(());
        }
        let text = serde_json::to_string_pretty(&self.values).map_err(|e| e.to_string())?;
        write_atomically(path, text.as_bytes())
            .map_err(|e| format!("{}: cannot write save: {e}", path.display()))?;
        self.dirty = false;
        Ok(())
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        let (mut store, warning) = SaveStore::open(&path);
        assert!(warning.is_none());
        store.set("best", serde_json::json!(42)).unwrap();
        store.set("name", serde_json::json!("kana")).unwrap();
        store.set("name", serde_json::Value::Null).unwrap();
        store.flush().unwrap();
        let (store, _) = SaveStore::open(&path);
        assert_eq!(store.get("best"), Some(&serde_json::json!(42)));
        assert_eq!(store.get("name"), None);
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
    fn a_corrupt_save_is_set_aside_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.json");
        std::fs::write(&path, "{oops").unwrap();
        let (store, warning) = SaveStore::open(&path);
        let warning = warning.unwrap();
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
        let (list, warning) = SaveStore::open(&path);
        assert!(list.problem().is_some());
        assert!(warning.unwrap().contains("a save is a JSON object"));
    }
}
