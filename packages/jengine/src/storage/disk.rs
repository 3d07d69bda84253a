//! The player's data folder on disk: the one place a game's kept files meet the file system.
//!
//! A slot is a file in the folder. Writing goes to a temporary file beside it that is synced,
//! renamed over the old one and the folder synced, so a crash leaves the old file or the new
//! one whole; setting aside links the file to a free `.bad` name (a link never replaces a
//! file, where a rename would) before the old name goes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{
    MAX_SET_ASIDE, Storage, StorageError, StorageProblem, check_slot_name, checked, failed,
    set_aside_name, writable,
};

/// The slots of a folder on disk: the desktop's player data folder (`save.json` and a
/// package's folders beside it).
#[derive(Debug, Clone)]
pub struct DiskStorage {
    root: PathBuf,
}

impl DiskStorage {
    /// The slots in the folder `root` (made when the first slot is written).
    pub fn new(root: &Path) -> DiskStorage {
        DiskStorage {
            root: root.to_path_buf(),
        }
    }

    /// Makes the folder now, so a package that is handed its path can write beside the save.
    pub fn make_folder(&self) -> Result<(), StorageError> {
        std::fs::create_dir_all(&self.root).map_err(|e| StorageError {
            path: self.root.clone(),
            slot: String::new(),
            problem: StorageProblem::Io(e.to_string()),
        })
    }

    fn file(&self, slot: &str) -> PathBuf {
        self.root.join(slot)
    }
}

impl Storage for DiskStorage {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read_at_most(&self, slot: &str, most: u64) -> Result<Option<Vec<u8>>, StorageError> {
        checked(slot)?;
        read_capped(&self.file(slot), most).map_err(|problem| failed(self, slot, problem))
    }

    fn write(&self, slot: &str, bytes: &[u8]) -> Result<(), StorageError> {
        writable(self, slot)?;
        if self.file(slot).is_dir() {
            return Err(failed(self, slot, StorageProblem::NotASlot));
        }
        write_atomically(&self.file(slot), bytes)
            .map_err(|e| failed(self, slot, StorageProblem::Io(e.to_string())))
    }

    fn set_aside(&self, slot: &str) -> Result<String, StorageError> {
        checked(slot)?;
        set_aside(&self.file(slot), slot).map_err(|problem| failed(self, slot, problem))
    }

    fn remove(&self, slot: &str) -> Result<(), StorageError> {
        checked(slot)?;
        std::fs::remove_file(self.file(slot)).map_err(|e| {
            failed(
                self,
                slot,
                match e.kind() {
                    std::io::ErrorKind::NotFound => StorageProblem::Missing,
                    _ => StorageProblem::Io(e.to_string()),
                },
            )
        })
    }

    fn holds(&self, slot: &str) -> bool {
        check_slot_name(slot).is_ok() && self.file(slot).is_file()
    }

    fn list(&self) -> Result<Vec<String>, StorageError> {
        let entries = match std::fs::read_dir(folder_of(&self.file("-"))) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(StorageError {
                    path: self.root.clone(),
                    slot: String::new(),
                    problem: StorageProblem::Unreadable(e.to_string()),
                });
            }
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| check_slot_name(name).is_ok() && self.file(name).is_file())
            .collect();
        names.sort();
        Ok(names)
    }

    fn folder(&self, name: &str) -> Result<Arc<dyn Storage>, StorageError> {
        checked(name)?;
        Ok(Arc::new(DiskStorage::new(&self.file(name))))
    }

    fn tidy(&self, slot: &str) {
        if check_slot_name(slot).is_ok() {
            remove_leftover_temps(&self.file(slot));
        }
    }
}

/// The bytes of `path`, `None` when it does not exist, or why they cannot be had.
fn read_capped(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, StorageProblem> {
    let missing = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    let unreadable = |e: std::io::Error| StorageProblem::Unreadable(e.to_string());
    // Looked at before opening: opening a pipe would wait for a writer.
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if missing(&e) => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    if !meta.is_file() {
        return Err(StorageProblem::NotASlot);
    }
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if missing(&e) => return Ok(None),
        Err(e) => return Err(unreadable(e)),
    };
    let len = file.metadata().map_or(meta.len(), |m| m.len());
    if len > cap {
        return Err(StorageProblem::TooLarge {
            size: len,
            most: cap,
        });
    }
    read_bounded(file, cap).map(Some).map_err(|e| match e {
        Bounded::Over => StorageProblem::Grew { most: cap },
        Bounded::Io(e) => unreadable(e),
    })
}

/// Why [`read_bounded`] stopped.
pub(crate) enum Bounded {
    Over,
    Io(std::io::Error),
}

/// Reads `from` to its end, refusing at the first byte past `cap`.
pub(crate) fn read_bounded(from: impl Read, cap: u64) -> Result<Vec<u8>, Bounded> {
    let mut bytes = Vec::new();
    from.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Bounded::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Bounded::Over);
    }
    Ok(bytes)
}

/// Moves the file at `path` (the slot `slot`) to the first free name of `<name>.bad`,
/// `<name>.bad.1`, … beside it, never replacing a file already there, and returns that name.
fn set_aside(path: &Path, slot: &str) -> Result<String, StorageProblem> {
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => StorageProblem::Missing,
        _ => StorageProblem::Io(e.to_string()),
    };
    for n in 0..MAX_SET_ASIDE {
        let bad = set_aside_name(slot, n);
        let candidate = path.with_file_name(&bad);
        // A hard link fails rather than replace a file; a rename would replace it.
        match std::fs::hard_link(path, &candidate) {
            Ok(()) => {
                // The copy is safe; if the old name cannot go, writing over it loses nothing.
                let _ = std::fs::remove_file(path);
                return Ok(bad);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(io(e)),
            // A folder, or a file system without hard links: look, then rename.
            Err(_) => {
                if std::fs::symlink_metadata(&candidate).is_ok() {
                    continue;
                }
                std::fs::rename(path, &candidate).map_err(io)?;
                return Ok(bad);
            }
        }
    }
    Err(StorageProblem::NoFreeName)
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
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
pub(crate) fn remove_leftover_temps(path: &Path) {
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
        {
            // Closed at the end of this block, before the rename.
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
        }
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
