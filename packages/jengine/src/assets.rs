//! Where a project's files come from: one small trait, [`Assets`], that every loader reads
//! through, so nothing that runs a game opens a path itself.
//!
//! A file is named by its path inside the set (`project.jengine`, `assets/scenes/title.scene`,
//! `data/goals.json`), held to [`check_asset_name`]. [`DiskAssets`] reads a folder on disk and
//! refuses what would leave it, links included; [`MemoryAssets`] is a map of names to bytes, what
//! a host with no file system hands in; [`within`] is the files under one folder of another set.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::asset::{AssetNameError, check_asset_name};

/// A set of files read by name: a project's folder, or bytes handed in by a host.
pub trait Assets: Send + Sync {
    /// Where the files are, for messages and for tools that work on the folder itself: the
    /// folder on disk, or the name a host gave a set in memory (empty by default).
    fn root(&self) -> &Path;

    /// The bytes of the file `name`, refused with [`AssetProblem::TooLarge`] before it is read
    /// when it holds more than `most` bytes.
    fn read_at_most(&self, name: &str, most: u64) -> Result<Vec<u8>, AssetError>;

    /// What the folder `folder` holds directly, sorted by name; `""` is the set's top. Links to
    /// folders are left out, so a walk down the set always ends.
    fn list(&self, folder: &str) -> Result<Vec<AssetEntry>, AssetError>;

    /// The bytes of the file `name`.
    fn read(&self, name: &str) -> Result<Vec<u8>, AssetError> {
        self.read_at_most(name, u64::MAX)
    }

    /// The file `name` as UTF-8 text.
    fn read_text(&self, name: &str) -> Result<String, AssetError> {
        let bytes = self.read(name)?;
        String::from_utf8(bytes).map_err(|_| AssetError {
            path: self.root().join(name),
            problem: AssetProblem::NotText,
        })
    }
}

impl fmt::Debug for dyn Assets + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Assets({})", self.root().display())
    }
}

/// One thing in a folder of an [`Assets`] set.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct AssetEntry {
    /// Its name inside the folder (no `/`).
    pub name: String,
    /// Whether it is a folder rather than a file.
    pub folder: bool,
}

/// A file that could not be read: where it was looked for and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetError {
    /// The file as a user finds it: the folder on disk joined with the name, or the name in a
    /// set in memory. A refused name is kept as written.
    pub path: PathBuf,
    /// What is wrong.
    pub problem: AssetProblem,
}

impl fmt::Display for AssetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            // The rule's message already quotes the name.
            AssetProblem::Name(e) => e.fmt(f),
            problem => write!(f, "{}: {problem}", self.path.display()),
        }
    }
}

impl std::error::Error for AssetError {}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssetProblem {
    /// The name would leave the set ([`check_asset_name`]).
    Name(AssetNameError),
    /// No file has that name.
    Missing,
    /// The name is a folder.
    Folder,
    /// The name reaches a file outside the set through a link.
    LeavesFolder,
    /// The file holds more than the reader takes.
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The most the reader takes.
        most: u64,
    },
    /// The file is not UTF-8 text.
    NotText,
    /// A folder on the way to the name is a file.
    UnderAFile(String),
    /// The system could not read it (its own words).
    Io(String),
}

impl fmt::Display for AssetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssetProblem::Name(e) => e.fmt(f),
            AssetProblem::Missing => f.write_str("no such file"),
            AssetProblem::Folder => f.write_str("is a folder, not a file"),
            AssetProblem::LeavesFolder => {
                f.write_str("is a link to a file outside the project's folder")
            }
            AssetProblem::TooLarge { size, most } => {
                write!(f, "{size} bytes is over the {most}-byte limit")
            }
            AssetProblem::NotText => f.write_str("is not UTF-8 text"),
            AssetProblem::UnderAFile(file) => write!(f, "{file:?} is a file, not a folder"),
            AssetProblem::Io(e) => f.write_str(e),
        }
    }
}

fn refused(name: &str, e: AssetNameError) -> AssetError {
    AssetError {
        path: PathBuf::from(name),
        problem: AssetProblem::Name(e),
    }
}

/// `name` checked and written one way: no `.` parts and no doubled or trailing `/`.
fn normal(name: &str) -> Result<String, AssetError> {
    check_asset_name(name).map_err(|e| refused(name, e))?;
    let parts: Vec<&str> = name
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    Ok(parts.join("/"))
}

/// A folder's name checked, `""` being the top of the set.
fn normal_folder(folder: &str) -> Result<String, AssetError> {
    if folder.is_empty() {
        Ok(String::new())
    } else {
        normal(folder)
    }
}

/// The files of a folder on disk: the desktop's project folder.
///
/// A name is checked before anything is opened, and the file it reaches is resolved, so a link
/// inside the folder that points out of it is refused like a `..`.
#[derive(Debug, Clone)]
pub struct DiskAssets {
    root: PathBuf,
}

impl DiskAssets {
    /// The files under `root`.
    pub fn new(root: &Path) -> DiskAssets {
        DiskAssets {
            root: root.to_path_buf(),
        }
    }

    /// The file or folder `name` on disk, once it is known to stay inside the root.
    fn locate(&self, name: &str) -> Result<PathBuf, AssetError> {
        let name = normal_folder(name)?;
        let path = if name.is_empty() {
            self.root.clone()
        } else {
            self.root.join(&name)
        };
        let failed = |problem| AssetError {
            path: path.clone(),
            problem,
        };
        let real = std::fs::canonicalize(&path).map_err(|e| failed(io_problem(&e)))?;
        let root = std::fs::canonicalize(&self.root).map_err(|e| failed(io_problem(&e)))?;
        if !real.starts_with(&root) {
            return Err(failed(AssetProblem::LeavesFolder));
        }
        Ok(path)
    }
}

fn io_problem(e: &std::io::Error) -> AssetProblem {
    match e.kind() {
        std::io::ErrorKind::NotFound => AssetProblem::Missing,
        _ => AssetProblem::Io(e.to_string()),
    }
}

impl Assets for DiskAssets {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read_at_most(&self, name: &str, most: u64) -> Result<Vec<u8>, AssetError> {
        let path = self.locate(name)?;
        let failed = |problem| AssetError {
            path: path.clone(),
            problem,
        };
        let file = std::fs::File::open(&path).map_err(|e| failed(io_problem(&e)))?;
        let meta = file.metadata().map_err(|e| failed(io_problem(&e)))?;
        if meta.is_dir() {
            return Err(failed(AssetProblem::Folder));
        }
        if meta.len() > most {
            return Err(failed(AssetProblem::TooLarge {
                size: meta.len(),
                most,
            }));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.take(most)
            .read_to_end(&mut bytes)
            .map_err(|e| failed(io_problem(&e)))?;
        Ok(bytes)
    }

    fn list(&self, folder: &str) -> Result<Vec<AssetEntry>, AssetError> {
        let path = self.locate(folder)?;
        let failed = |problem| AssetError {
            path: path.clone(),
            problem,
        };
        let entries = std::fs::read_dir(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotADirectory => failed(AssetProblem::UnderAFile(folder.into())),
            _ => failed(io_problem(&e)),
        })?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let is_folder = if kind.is_symlink() {
                // A link to a file counts when the file is inside; a link to a folder is never
                // followed (it could lead back up, or out).
                let inside = if folder.is_empty() {
                    name.clone()
                } else {
                    format!("{folder}/{name}")
                };
                match self.locate(&inside) {
                    Ok(p) if p.is_file() => false,
                    _ => continue,
                }
            } else {
                kind.is_dir()
            };
            out.push(AssetEntry {
                name,
                folder: is_folder,
            });
        }
        out.sort();
        Ok(out)
    }
}

/// Files held in memory by name: what a host with no file system hands in (the web build's
/// files arrive as bytes), and a whole project for a test with no folder.
#[derive(Clone, Default)]
pub struct MemoryAssets {
    root: PathBuf,
    files: BTreeMap<String, Arc<[u8]>>,
}

impl fmt::Debug for MemoryAssets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryAssets")
            .field("root", &self.root)
            .field("files", &self.files.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl MemoryAssets {
    /// An empty set; its files are named in messages by their names alone.
    pub fn new() -> MemoryAssets {
        MemoryAssets::default()
    }

    /// An empty set whose files are named in messages as under `root` (a project's name, a
    /// URL's path).
    pub fn named(root: impl Into<PathBuf>) -> MemoryAssets {
        MemoryAssets {
            root: root.into(),
            files: BTreeMap::new(),
        }
    }

    /// Adds (or replaces) the file `name`. Refused, with nothing changed: a name that would
    /// leave the set, a name that is already a folder, and a name under a file.
    pub fn insert(&mut self, name: &str, bytes: impl Into<Vec<u8>>) -> Result<(), AssetError> {
        let name = normal(name)?;
        let failed = |problem| AssetError {
            path: self.root.join(&name),
            problem,
        };
        if self.is_folder(&name) {
            return Err(failed(AssetProblem::Folder));
        }
        let mut parent = name.as_str();
        while let Some((up, _)) = parent.rsplit_once('/') {
            if self.files.contains_key(up) {
                return Err(failed(AssetProblem::UnderAFile(up.to_string())));
            }
            parent = up;
        }
        self.files.insert(name, bytes.into().into());
        Ok(())
    }

    /// The names of every file held, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    fn is_folder(&self, name: &str) -> bool {
        let prefix = format!("{name}/");
        self.files
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(&prefix))
    }
}

impl Assets for MemoryAssets {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read_at_most(&self, name: &str, most: u64) -> Result<Vec<u8>, AssetError> {
        let name = normal(name)?;
        let failed = |problem| AssetError {
            path: self.root.join(&name),
            problem,
        };
        match self.files.get(&name) {
            Some(bytes) if bytes.len() as u64 > most => Err(failed(AssetProblem::TooLarge {
                size: bytes.len() as u64,
                most,
            })),
            Some(bytes) => Ok(bytes.to_vec()),
            None if self.is_folder(&name) => Err(failed(AssetProblem::Folder)),
            None => Err(failed(AssetProblem::Missing)),
        }
    }

    fn list(&self, folder: &str) -> Result<Vec<AssetEntry>, AssetError> {
        let folder = normal_folder(folder)?;
        let failed = |problem| AssetError {
            path: self.root.join(&folder),
            problem,
        };
        if self.files.contains_key(&folder) {
            return Err(failed(AssetProblem::UnderAFile(folder.clone())));
        }
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        let mut out: Vec<AssetEntry> = Vec::new();
        for key in self.files.keys() {
            let Some(rest) = key.strip_prefix(&prefix) else {
                continue;
            };
            let entry = match rest.split_once('/') {
                Some((name, _)) => AssetEntry {
                    name: name.to_string(),
                    folder: true,
                },
                None => AssetEntry {
                    name: rest.to_string(),
                    folder: false,
                },
            };
            if out.last() != Some(&entry) {
                out.push(entry);
            }
        }
        if out.is_empty() && !folder.is_empty() {
            return Err(failed(AssetProblem::Missing));
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
}

/// The files under `folder` of `assets`, named from there: `within(project, "assets/scripts")`
/// reads `lib/util.lua` as the project's `assets/scripts/lib/util.lua`. A name is checked
/// before it is joined, so it cannot climb out of `folder` either.
pub fn within(assets: &Arc<dyn Assets>, folder: &str) -> Arc<dyn Assets> {
    let folder = folder.trim_matches('/').to_string();
    Arc::new(Within {
        root: assets.root().join(&folder),
        assets: assets.clone(),
        folder,
    })
}

struct Within {
    assets: Arc<dyn Assets>,
    folder: String,
    root: PathBuf,
}

impl Within {
    fn inner(&self, name: &str) -> Result<String, AssetError> {
        let name = normal_folder(name)?;
        Ok(match (self.folder.is_empty(), name.is_empty()) {
            (true, _) => name,
            (false, true) => self.folder.clone(),
            (false, false) => format!("{}/{name}", self.folder),
        })
    }
}

impl Assets for Within {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read_at_most(&self, name: &str, most: u64) -> Result<Vec<u8>, AssetError> {
        check_asset_name(name).map_err(|e| refused(name, e))?;
        self.assets.read_at_most(&self.inner(name)?, most)
    }

    fn list(&self, folder: &str) -> Result<Vec<AssetEntry>, AssetError> {
        self.assets.list(&self.inner(folder)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same few files on disk and in memory.
    fn both() -> (tempfile::TempDir, Vec<Arc<dyn Assets>>) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("game");
        let mut memory = MemoryAssets::new();
        for (name, text) in [
            ("project.jengine", "{}"),
            ("assets/scenes/title.scene", "title"),
            ("assets/scenes/levels/one.scene", "one"),
            ("data/goals.json", "[]"),
        ] {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            memory.insert(name, text).unwrap();
        }
        std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
        let sets: Vec<Arc<dyn Assets>> = vec![Arc::new(DiskAssets::new(&root)), Arc::new(memory)];
        (dir, sets)
    }

    #[test]
    fn disk_and_memory_read_and_list_the_same_files() {
        let (_dir, sets) = both();
        for set in &sets {
            assert_eq!(
                set.read_text("assets/scenes/levels/one.scene").unwrap(),
                "one"
            );
            assert_eq!(set.read("./data//goals.json").unwrap(), b"[]");
            let top: Vec<(String, bool)> = set
                .list("")
                .unwrap()
                .into_iter()
                .map(|e| (e.name, e.folder))
                .collect();
            assert_eq!(
                top,
                [
                    ("assets".to_string(), true),
                    ("data".to_string(), true),
                    ("project.jengine".to_string(), false)
                ]
            );
            let scenes: Vec<String> = set
                .list("assets/scenes")
                .unwrap()
                .into_iter()
                .map(|e| e.name)
                .collect();
            assert_eq!(scenes, ["levels", "title.scene"]);
        }
    }

    #[test]
    fn a_name_that_climbs_or_is_absolute_is_refused_by_every_set() {
        let (dir, sets) = both();
        let absolute = dir.path().join("secret.txt");
        for set in &sets {
            for name in [
                "../secret.txt",
                "assets/../../secret.txt",
                absolute.to_str().unwrap(),
            ] {
                let err = set.read(name).unwrap_err();
                let rule = check_asset_name(name).unwrap_err();
                assert_eq!(err.problem, AssetProblem::Name(rule.clone()), "{name}");
                assert_eq!(err.to_string(), rule.to_string());
                assert_eq!(
                    set.list(name).unwrap_err().problem,
                    AssetProblem::Name(rule)
                );
            }
            let scripts = within(set, "assets");
            let err = scripts.read("../project.jengine").unwrap_err();
            assert!(matches!(err.problem, AssetProblem::Name(_)), "{err}");
        }
        let mut memory = MemoryAssets::new();
        assert!(matches!(
            memory.insert("../x", "x").unwrap_err().problem,
            AssetProblem::Name(_)
        ));
        assert_eq!(memory.names().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_that_leads_out_of_the_folder_is_refused_and_not_listed() {
        let (dir, sets) = both();
        let root = dir.path().join("game");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("data/out.json"))
            .unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("data/up")).unwrap();
        std::os::unix::fs::symlink(root.join("data/goals.json"), root.join("data/in.json"))
            .unwrap();
        let disk = &sets[0];
        let err = disk.read("data/out.json").unwrap_err();
        assert_eq!(err.problem, AssetProblem::LeavesFolder);
        assert_eq!(
            err.to_string(),
            format!(
                "{}: is a link to a file outside the project's folder",
                root.join("data/out.json").display()
            )
        );
        assert_eq!(
            disk.read("data/up/secret.txt").unwrap_err().problem,
            AssetProblem::LeavesFolder
        );
        assert_eq!(disk.read("data/in.json").unwrap(), b"[]");
        let listed: Vec<String> = disk
            .list("data")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(listed, ["goals.json", "in.json"]);
    }

    #[test]
    fn a_missing_file_or_folder_names_its_path() {
        let (dir, sets) = both();
        let disk = &sets[0];
        let err = disk.read("assets/scenes/gone.scene").unwrap_err();
        let path = dir.path().join("game/assets/scenes/gone.scene");
        assert_eq!(err.path, path);
        assert_eq!(err.to_string(), format!("{}: no such file", path.display()));
        let memory = &sets[1];
        let err = memory.read("assets/scenes/gone.scene").unwrap_err();
        assert_eq!(err.to_string(), "assets/scenes/gone.scene: no such file");
        let named = MemoryAssets::named("web/game");
        assert_eq!(
            named.read("a.png").unwrap_err().to_string(),
            "web/game/a.png: no such file"
        );
        for set in &sets {
            assert_eq!(
                set.list("nowhere").unwrap_err().problem,
                AssetProblem::Missing
            );
            assert_eq!(set.read("data").unwrap_err().problem, AssetProblem::Folder);
            let scripts = within(set, "assets/scenes");
            let err = scripts.read("gone.scene").unwrap_err();
            assert!(
                err.path.ends_with("assets/scenes/gone.scene"),
                "{}",
                err.path.display()
            );
        }
    }

    #[test]
    fn a_file_over_the_limit_is_refused_before_it_is_read() {
        let (_dir, sets) = both();
        for set in &sets {
            let err = set.read_at_most("data/goals.json", 1).unwrap_err();
            assert_eq!(err.problem, AssetProblem::TooLarge { size: 2, most: 1 });
            assert_eq!(set.read_at_most("data/goals.json", 2).unwrap(), b"[]");
        }
    }

    #[test]
    fn memory_refuses_a_file_where_a_folder_is_and_keeps_what_it_had() {
        let mut memory = MemoryAssets::named("m");
        memory.insert("a/b.txt", "b").unwrap();
        assert_eq!(
            memory.insert("a", "a").unwrap_err().problem,
            AssetProblem::Folder
        );
        assert_eq!(
            memory.insert("a/b.txt/c", "c").unwrap_err().problem,
            AssetProblem::UnderAFile("a/b.txt".into())
        );
        assert_eq!(memory.names().collect::<Vec<_>>(), ["a/b.txt"]);
        memory.insert("a/b.txt", "again").unwrap();
        assert_eq!(memory.read_text("a/b.txt").unwrap(), "again");
    }

    #[test]
    fn bytes_that_are_not_text_are_said_to_be_so() {
        let mut memory = MemoryAssets::new();
        memory.insert("x.lua", vec![0xff, 0xfe]).unwrap();
        assert_eq!(
            memory.read_text("x.lua").unwrap_err().to_string(),
            "x.lua: is not UTF-8 text"
        );
    }
}
