//! Where a game keeps what it keeps between runs: one small trait, [`Storage`], that the save,
//! a package's progress and its installed files all go through, so nothing that runs a game
//! writes a path itself.
//!
//! A store holds slots by name (`save.json`, `progress.json`), each held to
//! [`check_slot_name`], and folders of slots ([`Storage::folder`]). A write replaces a slot
//! whole or not at all, and a slot that cannot be used is moved to a free `.bad` name
//! ([`Storage::set_aside`]), never written over. [`DiskStorage`] is the player's data folder
//! on a desktop; [`MemoryStorage`] is a map of names to bytes, what a web host keeps in the
//! browser's storage, and the default of a run that keeps nothing.

mod disk;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

#[cfg(test)]
pub(crate) use disk::{Bounded, read_bounded};
pub use disk::{DiskStorage, write_atomically};

/// Slots a game keeps between runs, read and written by name.
pub trait Storage: Send + Sync {
    /// Where the slots are, for messages: the folder on disk, or the name a host gave a store
    /// in memory.
    fn root(&self) -> &Path;

    /// The bytes of `slot`; `None` when there is none. Refused with
    /// [`StorageProblem::TooLarge`] before it is read when it holds more than `most` bytes, and
    /// with [`StorageProblem::NotASlot`] when a folder or anything else stands in its place.
    fn read_at_most(&self, slot: &str, most: u64) -> Result<Option<Vec<u8>>, StorageError>;

    /// Replaces `slot` with `bytes`, whole: a reader, in this run or the next, finds the old
    /// bytes or the new ones, never a part. A set-aside name ([`is_set_aside_name`]) is
    /// refused, so a write never lands on a kept copy.
    fn write(&self, slot: &str, bytes: &[u8]) -> Result<(), StorageError>;

    /// Moves `slot` to the first free name of `<slot>.bad`, `<slot>.bad.1`, … (up to
    /// [`MAX_SET_ASIDE`]), never replacing one already there, and returns that name. On an
    /// error the slot is where it was.
    fn set_aside(&self, slot: &str) -> Result<String, StorageError>;

    /// Removes `slot`; [`StorageProblem::Missing`] when there is none.
    fn remove(&self, slot: &str) -> Result<(), StorageError>;

    /// Whether `slot` holds bytes (a folder in its place does not count).
    fn holds(&self, slot: &str) -> bool;

    /// The slots held directly in this store, sorted; folders and half-written temporaries are
    /// left out. A store nothing was written to yet lists nothing.
    fn list(&self) -> Result<Vec<String>, StorageError>;

    /// The store of the folder `name` inside this one (made when something is written to it).
    fn folder(&self, name: &str) -> Result<Arc<dyn Storage>, StorageError>;

    /// Clears what a run that was killed while writing `slot` left behind (temporary files on
    /// disk). Called before a slot is read; nothing to do for a store without temporaries.
    fn tidy(&self, _slot: &str) {}

    /// `slot` as a user finds it, for messages: the file on disk, or the name under the store's
    /// root in memory.
    fn path_of(&self, slot: &str) -> PathBuf {
        self.root().join(slot)
    }
}

impl fmt::Debug for dyn Storage + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Storage({})", self.root().display())
    }
}

/// The player's store, kept by the runtime as a world resource beside [`crate::Launch`]: a
/// package keeps its files in a [`Storage::folder`] of it rather than under a path.
#[derive(Clone, Debug)]
pub struct PlayerData(pub Arc<dyn Storage>);

/// How many `.bad` names [`Storage::set_aside`] tries before it gives up.
pub const MAX_SET_ASIDE: usize = 1000;

/// The longest slot or folder name, in bytes (what every common file system takes).
pub const MAX_SLOT_NAME: usize = 255;

/// Why a name cannot be a slot or a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotNameError {
    /// The name is empty.
    Empty,
    /// The name is longer than [`MAX_SLOT_NAME`] bytes.
    TooLong(String),
    /// The name holds `/`, `\`, NUL or another control character, so it would reach another
    /// folder or be cut short.
    Separator(String),
    /// `.`, `..`, a name a system keeps for itself (`CON`, `nul.json`, `COM1`, …), one ending
    /// in a dot or a space, or the temporary name of a write in progress (`save.json.tmp123`).
    Reserved(String),
}

impl fmt::Display for SlotNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlotNameError::Empty => f.write_str("a slot name may not be empty"),
            SlotNameError::TooLong(n) => write!(
                f,
                "slot name {:?} is {} bytes; it may be at most {MAX_SLOT_NAME}",
                shown(n),
                n.len()
            ),
            SlotNameError::Separator(n) => write!(
                f,
                "slot name {:?} holds a '/', '\\', NUL or control character",
                shown(n)
            ),
            SlotNameError::Reserved(n) => write!(f, "slot name {:?} is reserved", shown(n)),
        }
    }
}

impl std::error::Error for SlotNameError {}

fn shown(name: &str) -> String {
    name.chars().take(60).collect()
}

/// Names Windows keeps for devices, with or without an extension.
const DEVICES: &[&str] = &["con", "prn", "aux", "nul", "conin$", "conout$"];

/// Checks that `name` can be one slot or folder of a store, the same on every system: not
/// empty, at most [`MAX_SLOT_NAME`] bytes, no separator or control character, not `.` or `..`,
/// no device name, no trailing dot or space, and not a temporary name.
pub fn check_slot_name(name: &str) -> Result<(), SlotNameError> {
    if name.is_empty() {
        return Err(SlotNameError::Empty);
    }
    if name.len() > MAX_SLOT_NAME {
        return Err(SlotNameError::TooLong(name.to_string()));
    }
    if name
        .chars()
        .any(|c| c == '/' || c == '\\' || c.is_control())
    {
        return Err(SlotNameError::Separator(name.to_string()));
    }
    let reserved = || SlotNameError::Reserved(name.to_string());
    if name == "." || name == ".." || name.ends_with('.') || name.ends_with(' ') {
        return Err(reserved());
    }
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let numbered = |prefix: &str| {
        stem.strip_prefix(prefix)
            .is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit())
    };
    if DEVICES.contains(&stem.as_str()) || numbered("com") || numbered("lpt") {
        return Err(reserved());
    }
    if is_temp_name(name) {
        return Err(reserved());
    }
    Ok(())
}

/// Whether `name` is one a write in progress uses (`<name>.tmp<digits>`), which a store may
/// remove when it tidies.
pub(crate) fn is_temp_name(name: &str) -> bool {
    name.rsplit_once(".tmp")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `name` is a copy [`Storage::set_aside`] made (`<slot>.bad` or `<slot>.bad.<n>`):
/// it may be read and listed, never written.
pub fn is_set_aside_name(name: &str) -> bool {
    if name.ends_with(".bad") {
        return true;
    }
    name.rsplit_once(".bad.")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The `n`th name [`Storage::set_aside`] tries for `slot`.
pub(crate) fn set_aside_name(slot: &str, n: usize) -> String {
    if n == 0 {
        format!("{slot}.bad")
    } else {
        format!("{slot}.bad.{n}")
    }
}

/// A slot that could not be read or written: where, which, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageError {
    /// The slot as a user finds it ([`Storage::path_of`]); a refused name as written.
    pub path: PathBuf,
    /// The slot's name in its store.
    pub slot: String,
    /// What is wrong.
    pub problem: StorageProblem,
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            // The rule's message already quotes the name.
            StorageProblem::Name(e) => e.fmt(f),
            problem => write!(f, "{}: {problem}", self.path.display()),
        }
    }
}

impl std::error::Error for StorageError {}

/// Why a slot could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageProblem {
    /// The name cannot be a slot ([`check_slot_name`]).
    Name(SlotNameError),
    /// The name is a kept copy ([`is_set_aside_name`]), which is never written.
    SetAsideName,
    /// No slot has that name.
    Missing,
    /// A folder or something else that holds no bytes stands where the slot would be.
    NotASlot,
    /// The slot holds more than the reader takes.
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The most the reader takes.
        most: u64,
    },
    /// The slot grew past what the reader takes while it was read.
    Grew {
        /// The most the reader takes.
        most: u64,
    },
    /// Every `.bad` name up to [`MAX_SET_ASIDE`] is taken.
    NoFreeName,
    /// The system could not read the slot (its own words).
    Unreadable(String),
    /// The system could not write, move or remove the slot (its own words).
    Io(String),
}

impl fmt::Display for StorageProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageProblem::Name(e) => e.fmt(f),
            StorageProblem::SetAsideName => {
                f.write_str("is a kept copy of a slot that could not be read; it is never written")
            }
            StorageProblem::Missing => f.write_str("no such slot"),
            StorageProblem::NotASlot => f.write_str("it is not a regular file"),
            StorageProblem::TooLarge { size, most } => {
                write!(f, "it is {size} bytes; it may be at most {most}")
            }
            StorageProblem::Grew { most } => {
                write!(f, "it grew past {most} bytes while being read")
            }
            StorageProblem::NoFreeName => {
                write!(f, "no free .bad name among the first {MAX_SET_ASIDE}")
            }
            StorageProblem::Unreadable(e) => write!(f, "cannot read it: {e}"),
            StorageProblem::Io(e) => f.write_str(e),
        }
    }
}

/// `slot` checked, or the error naming it.
pub(crate) fn checked(slot: &str) -> Result<(), StorageError> {
    check_slot_name(slot).map_err(|e| StorageError {
        path: PathBuf::from(slot),
        slot: slot.to_string(),
        problem: StorageProblem::Name(e),
    })
}

/// `slot` checked as a name that may be written.
pub(crate) fn writable(store: &dyn Storage, slot: &str) -> Result<(), StorageError> {
    checked(slot)?;
    if is_set_aside_name(slot) {
        return Err(failed(store, slot, StorageProblem::SetAsideName));
    }
    Ok(())
}

pub(crate) fn failed(store: &dyn Storage, slot: &str, problem: StorageProblem) -> StorageError {
    StorageError {
        path: store.path_of(slot),
        slot: slot.to_string(),
        problem,
    }
}

/// Slots held in memory by name: what a web host keeps in the browser's storage (it restores
/// them with [`MemoryStorage::insert`] and writes [`MemoryStorage::slots`] back when
/// [`MemoryStorage::changes`] moves), and the store of a run that keeps nothing.
///
/// Clones and [`Storage::folder`]s share the same slots.
#[derive(Clone, Default)]
pub struct MemoryStorage {
    root: PathBuf,
    /// The folder this store is, as a key prefix (`""` or `miau/`).
    prefix: String,
    shared: Arc<Mutex<Shared>>,
}

#[derive(Default)]
struct Shared {
    slots: BTreeMap<String, Arc<[u8]>>,
    changes: u64,
}

impl fmt::Debug for MemoryStorage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.lock().slots.keys().cloned().collect();
        f.debug_struct("MemoryStorage")
            .field("root", &self.root)
            .field("prefix", &self.prefix)
            .field("slots", &names)
            .finish()
    }
}

impl MemoryStorage {
    /// An empty store; its slots are named in messages by their names alone.
    pub fn new() -> MemoryStorage {
        MemoryStorage::default()
    }

    /// An empty store whose slots are named in messages as under `root` (the game's name).
    pub fn named(root: impl Into<PathBuf>) -> MemoryStorage {
        MemoryStorage {
            root: root.into(),
            ..MemoryStorage::default()
        }
    }

    /// Puts back a slot a host kept, by its full name from the top store (`save.json`,
    /// `miau/progress.json`): each part is held to [`check_slot_name`]. Refused, with nothing
    /// changed, when a part is not a name or a folder stands where the slot would be.
    pub fn insert(&self, name: &str, bytes: impl Into<Vec<u8>>) -> Result<(), StorageError> {
        let refused = |problem| StorageError {
            path: self.root.join(name),
            slot: name.to_string(),
            problem,
        };
        for part in name.split('/') {
            check_slot_name(part).map_err(|e| refused(StorageProblem::Name(e)))?;
        }
        let key = format!("{}{name}", self.prefix);
        let mut shared = self.lock();
        if is_folder(&shared.slots, &key) || under_a_slot(&shared.slots, &key) {
            return Err(refused(StorageProblem::NotASlot));
        }
        shared.slots.insert(key, bytes.into().into());
        Ok(())
    }

    /// Every slot held in this store and its folders, by full name, with its bytes: what a
    /// host writes back to lasting storage.
    pub fn slots(&self) -> Vec<(String, Vec<u8>)> {
        let shared = self.lock();
        shared
            .slots
            .iter()
            .filter_map(|(k, v)| {
                k.strip_prefix(&self.prefix)
                    .map(|name| (name.to_string(), v.to_vec()))
            })
            .collect()
    }

    /// Counts writes, moves and removals so far (shared by every folder of the store), so a
    /// host writes its copy back only when something changed.
    pub fn changes(&self) -> u64 {
        self.lock().changes
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        // A panic while the lock was held left the map whole (every change is one call).
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn key(&self, slot: &str) -> String {
        format!("{}{slot}", self.prefix)
    }
}

/// Whether some slot lies under `key` as a folder.
fn is_folder(slots: &BTreeMap<String, Arc<[u8]>>, key: &str) -> bool {
    let prefix = format!("{key}/");
    slots
        .range(prefix.clone()..)
        .next()
        .is_some_and(|(k, _)| k.starts_with(&prefix))
}

/// Whether a folder on the way to `key` is a slot.
fn under_a_slot(slots: &BTreeMap<String, Arc<[u8]>>, key: &str) -> bool {
    let mut up = key;
    while let Some((parent, _)) = up.rsplit_once('/') {
        if slots.contains_key(parent) {
            return true;
        }
        up = parent;
    }
    false
}

impl Storage for MemoryStorage {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read_at_most(&self, slot: &str, most: u64) -> Result<Option<Vec<u8>>, StorageError> {
        checked(slot)?;
        let key = self.key(slot);
        let shared = self.lock();
        match shared.slots.get(&key) {
            Some(bytes) if bytes.len() as u64 > most => Err(failed(
                self,
                slot,
                StorageProblem::TooLarge {
                    size: bytes.len() as u64,
                    most,
                },
            )),
            Some(bytes) => Ok(Some(bytes.to_vec())),
            None if is_folder(&shared.slots, &key) => {
                Err(failed(self, slot, StorageProblem::NotASlot))
            }
            None => Ok(None),
        }
    }

    fn write(&self, slot: &str, bytes: &[u8]) -> Result<(), StorageError> {
        writable(self, slot)?;
        let key = self.key(slot);
        let mut shared = self.lock();
        if is_folder(&shared.slots, &key) || under_a_slot(&shared.slots, &key) {
            return Err(failed(self, slot, StorageProblem::NotASlot));
        }
        shared.slots.insert(key, bytes.into());
        shared.changes += 1;
        Ok(())
    }

    fn set_aside(&self, slot: &str) -> Result<String, StorageError> {
        checked(slot)?;
        let key = self.key(slot);
        let mut shared = self.lock();
        let folder = is_folder(&shared.slots, &key);
        if !folder && !shared.slots.contains_key(&key) {
            return Err(failed(self, slot, StorageProblem::Missing));
        }
        let free = (0..MAX_SET_ASIDE)
            .map(|n| set_aside_name(slot, n))
            .find(|name| {
                let candidate = self.key(name);
                !shared.slots.contains_key(&candidate) && !is_folder(&shared.slots, &candidate)
            });
        let Some(bad) = free else {
            return Err(failed(self, slot, StorageProblem::NoFreeName));
        };
        let to = self.key(&bad);
        // A folder in the slot's place moves whole, as a folder on disk is renamed.
        let moved: Vec<String> = shared
            .slots
            .keys()
            .filter(|k| *k == &key || k.starts_with(&format!("{key}/")))
            .cloned()
            .collect();
        for from in moved {
            if let Some(bytes) = shared.slots.remove(&from) {
                shared
                    .slots
                    .insert(format!("{to}{}", &from[key.len()..]), bytes);
            }
        }
        shared.changes += 1;
        Ok(bad)
    }

    fn remove(&self, slot: &str) -> Result<(), StorageError> {
        checked(slot)?;
        let mut shared = self.lock();
        if shared.slots.remove(&self.key(slot)).is_none() {
            return Err(failed(self, slot, StorageProblem::Missing));
        }
        shared.changes += 1;
        Ok(())
    }

    fn holds(&self, slot: &str) -> bool {
        check_slot_name(slot).is_ok() && self.lock().slots.contains_key(&self.key(slot))
    }

    fn list(&self) -> Result<Vec<String>, StorageError> {
        let shared = self.lock();
        Ok(shared
            .slots
            .keys()
            .filter_map(|k| k.strip_prefix(&self.prefix))
            .filter(|rest| !rest.contains('/'))
            .map(str::to_string)
            .collect())
    }

    fn folder(&self, name: &str) -> Result<Arc<dyn Storage>, StorageError> {
        checked(name)?;
        Ok(Arc::new(MemoryStorage {
            root: self.root.join(name),
            prefix: format!("{}{name}/", self.prefix),
            shared: self.shared.clone(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty store on disk and one in memory.
    fn both() -> (tempfile::TempDir, Vec<Arc<dyn Storage>>) {
        let dir = tempfile::tempdir().unwrap();
        let disk = DiskStorage::new(&dir.path().join("data"));
        let stores: Vec<Arc<dyn Storage>> = vec![Arc::new(disk), Arc::new(MemoryStorage::new())];
        (dir, stores)
    }

    #[test]
    fn disk_and_memory_write_read_list_and_remove_the_same_slots() {
        let (_dir, stores) = both();
        for store in &stores {
            assert_eq!(store.list().unwrap(), Vec::<String>::new());
            assert_eq!(store.read_at_most("save.json", 100).unwrap(), None);
            store.write("save.json", b"{}").unwrap();
            store.write("save.json", b"{\"a\":1}").unwrap();
            store.write("b.txt", b"b").unwrap();
            let packs = store.folder("packs").unwrap();
            packs.write("one.json", b"1").unwrap();
            assert_eq!(store.list().unwrap(), ["b.txt", "save.json"]);
            assert_eq!(packs.list().unwrap(), ["one.json"]);
            assert!(store.holds("save.json") && !store.holds("packs"));
            assert_eq!(
                store.read_at_most("save.json", 100).unwrap().unwrap(),
                b"{\"a\":1}"
            );
            let err = store.read_at_most("save.json", 3).unwrap_err();
            assert_eq!(err.problem, StorageProblem::TooLarge { size: 7, most: 3 });
            assert_eq!(err.slot, "save.json");
            assert_eq!(
                store.read_at_most("packs", 100).unwrap_err().problem,
                StorageProblem::NotASlot
            );
            store.remove("b.txt").unwrap();
            assert_eq!(
                store.remove("b.txt").unwrap_err().problem,
                StorageProblem::Missing
            );
            assert_eq!(store.list().unwrap(), ["save.json"]);
        }
    }

    #[test]
    fn a_slot_set_aside_takes_the_first_free_bad_name_and_is_never_written() {
        let (_dir, stores) = both();
        for store in &stores {
            store.write("save.json", b"first").unwrap();
            assert_eq!(store.set_aside("save.json").unwrap(), "save.json.bad");
            store.write("save.json", b"second").unwrap();
            assert_eq!(store.set_aside("save.json").unwrap(), "save.json.bad.1");
            assert_eq!(
                store.set_aside("save.json").unwrap_err().problem,
                StorageProblem::Missing
            );
            store.write("save.json", b"third").unwrap();
            for (slot, bytes) in [
                ("save.json.bad", &b"first"[..]),
                ("save.json.bad.1", b"second"),
                ("save.json", b"third"),
            ] {
                assert_eq!(store.read_at_most(slot, 10).unwrap().unwrap(), bytes);
            }
            let err = store.write("save.json.bad", b"over").unwrap_err();
            assert_eq!(err.problem, StorageProblem::SetAsideName);
            assert_eq!(
                store.read_at_most("save.json.bad", 10).unwrap().unwrap(),
                b"first"
            );
        }
    }

    #[test]
    fn names_that_reach_out_or_are_reserved_are_refused_and_nothing_is_written() {
        let (dir, stores) = both();
        for store in &stores {
            store.write("keep.json", b"kept").unwrap();
            for name in [
                "",
                ".",
                "..",
                "../save.json",
                "../../etc/passwd",
                "a/b.json",
                "/save.json",
                "a\\b",
                "save\0.json",
                "line\nbreak",
                "CON",
                "nul.json",
                "com1",
                "Lpt9.txt",
                "trailing.",
                "trailing ",
                "save.json.tmp123",
                &"x".repeat(MAX_SLOT_NAME + 1),
            ] {
                let rule = check_slot_name(name).unwrap_err();
                let problem = StorageProblem::Name(rule.clone());
                for err in [
                    store.write(name, b"x").unwrap_err(),
                    store.read_at_most(name, 10).unwrap_err(),
                    store.set_aside(name).unwrap_err(),
                    store.remove(name).unwrap_err(),
                    store.folder(name).unwrap_err(),
                ] {
                    assert_eq!(err.problem, problem, "{name:?}");
                    assert_eq!(err.slot, name);
                    assert_eq!(err.to_string(), rule.to_string());
                }
                assert!(!store.holds(name));
            }
            assert_eq!(store.list().unwrap(), ["keep.json"]);
        }
        // Nothing landed beside or above the data folder.
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["data"]);
        for ok in [
            "save.json",
            "progress.json",
            "hello-miau.json",
            "console.txt",
            "a b",
        ] {
            assert_eq!(check_slot_name(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn a_folder_where_a_slot_would_be_is_set_aside_whole() {
        let (_dir, stores) = both();
        for store in &stores {
            store
                .folder("save.json")
                .unwrap()
                .write("inside", b"x")
                .unwrap();
            assert_eq!(
                store.write("save.json", b"{}").unwrap_err().problem,
                StorageProblem::NotASlot
            );
            assert_eq!(store.set_aside("save.json").unwrap(), "save.json.bad");
            let kept = store.folder("save.json.bad").unwrap();
            assert_eq!(kept.read_at_most("inside", 1).unwrap().unwrap(), b"x");
            store.write("save.json", b"{}").unwrap();
        }
    }

    #[test]
    fn a_memory_store_is_shared_by_its_folders_and_clones_and_counts_changes() {
        let store = MemoryStorage::named("web/miau");
        let copy = store.clone();
        store.insert("miau/progress.json", "{}").unwrap();
        assert_eq!(
            store.changes(),
            0,
            "putting back what a host kept is no change"
        );
        let miau = copy.folder("miau").unwrap();
        assert_eq!(
            miau.read_at_most("progress.json", 2).unwrap().unwrap(),
            b"{}"
        );
        miau.write("progress.json", b"{\"a\":1}").unwrap();
        assert_eq!(store.changes(), 1);
        assert_eq!(
            store.slots(),
            [("miau/progress.json".to_string(), b"{\"a\":1}".to_vec())]
        );
        assert_eq!(
            miau.path_of("progress.json"),
            Path::new("web/miau/miau/progress.json")
        );
        let err = store.insert("miau/../x", "x").unwrap_err();
        assert!(matches!(err.problem, StorageProblem::Name(_)), "{err}");
        assert_eq!(
            store.insert("miau", "x").unwrap_err().problem,
            StorageProblem::NotASlot
        );
        assert_eq!(store.slots().len(), 1);
    }

    #[test]
    fn an_error_names_the_slot_where_it_is() {
        let (dir, stores) = both();
        let err = stores[0].remove("gone.json").unwrap_err();
        let path = dir.path().join("data/gone.json");
        assert_eq!(err.path, path);
        assert_eq!(err.to_string(), format!("{}: no such slot", path.display()));
        let named = MemoryStorage::named("web/game");
        assert_eq!(
            named.remove("gone.json").unwrap_err().to_string(),
            "web/game/gone.json: no such slot"
        );
    }
}
