//! The pack service: list, import, export, share, install and remove packs in a library folder.
//!
//! Import and link decoding only ever return a [`Preview`]; nothing changes until the caller
//! passes that preview to [`Library::install`]. Installed packs are stored as validated JSON data
//! (`<id>.json`) in a [`Storage`] (the player's folder on disk, or slots a web host keeps in
//! the browser), so reloading them never evaluates a script; a write replaces a slot whole, so
//! a failed install leaves the catalog as it was.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jengine::host::{DiskStorage, Storage, StorageError};

use crate::pack::Pack;
use crate::share;
use crate::source::{SourceKind, load};
use crate::validate::{Checked, Note, PackError, is_pack_id, validate};
use crate::worlds;

/// The id of the built-in pack, which can be neither replaced nor removed.
pub const CORE_ID: &str = "core";

/// One catalog entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackSummary {
    /// Pack id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Semantic version.
    pub version: String,
    /// Number of levels.
    pub levels: usize,
    /// The pack ships with the game.
    pub built_in: bool,
    /// The id this pack was forked from, if it was installed beside a namesake.
    pub fork_of: Option<String>,
}

impl PackSummary {
    fn of(pack: &Pack, built_in: bool) -> PackSummary {
        PackSummary {
            id: pack.manifest.id.clone(),
            name: pack.manifest.name.clone(),
            version: pack.manifest.version.clone(),
            levels: pack.levels.len(),
            built_in,
            fork_of: pack.manifest.fork_of.clone(),
        }
    }
}

/// A validated pack waiting for the player's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    /// The pack as it would be installed.
    pub pack: Pack,
    /// Nonblocking notes about loose words.
    pub notes: Vec<Note>,
    /// Whether a pack with this id is already in the catalog.
    pub conflict: bool,
}

/// What to do when the catalog already has the preview's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstallMode {
    /// Overwrite the installed pack.
    Replace,
    /// Keep the installed pack and add this one under a new id, with `forkOf` set.
    KeepBoth,
}

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// A CommonJS module that any loader accepts.
    CommonJs,
    /// Plain JSON data.
    Json,
}

/// What [`Library::scan`] finds: every pack with its summary, and the installed files that did
/// not load (by id, with why).
pub type Scan = (Vec<(PackSummary, Pack)>, Vec<(String, PackError)>);

/// A library of installed packs (a folder of slots), plus the packs that ship with the game: the built-in
/// core pack and any a game adds with [`Library::with_shipped`]. Shipped packs are listed first
/// and can be neither replaced nor removed.
#[derive(Clone, Debug)]
pub struct Library {
    storage: Arc<dyn Storage>,
    shipped: Vec<Pack>,
}

fn io(e: StorageError) -> PackError {
    PackError::Io(e.to_string())
}

impl Library {
    /// Opens (creating if needed) the library in the folder `dir` on disk.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Library, PackError> {
        let disk = DiskStorage::new(&dir.into());
        disk.make_folder()
            .map_err(|e| PackError::Io(format!("{}: {}", e.path.display(), e.problem)))?;
        Ok(Library::in_storage(Arc::new(disk)))
    }

    /// The library whose installed packs are the slots of `storage`.
    pub fn in_storage(storage: Arc<dyn Storage>) -> Library {
        let shipped = worlds::core().map(|c| vec![c.pack]).unwrap_or_default();
        Library { storage, shipped }
    }

    /// Adds packs the game ships (checked already) after the core pack. A pack whose id is
    /// already shipped is left out, and its id returned, so two files cannot claim one id.
    pub fn with_shipped(mut self, packs: Vec<Pack>) -> (Library, Vec<String>) {
        let mut doubled = Vec::new();
        for pack in packs {
            if self.shipped_pack(&pack.manifest.id).is_some() {
                doubled.push(pack.manifest.id.clone());
            } else {
                self.shipped.push(pack);
            }
        }
        (self, doubled)
    }

    /// Where installed packs live (the folder on disk, or the store's name in memory).
    pub fn dir(&self) -> &Path {
        self.storage.root()
    }

    fn shipped_pack(&self, id: &str) -> Option<&Pack> {
        self.shipped.iter().find(|p| p.manifest.id == id)
    }

    /// Whether `id` names a pack that ships with the game (the core pack included).
    pub fn is_shipped(&self, id: &str) -> bool {
        self.shipped_pack(id).is_some()
    }

    /// The slot of an installed pack. Every id is checked here, before it names a slot, so
    /// an id such as `../victim` can never name one outside the library.
    fn slot_of(&self, id: &str) -> Result<String, PackError> {
        if !is_pack_id(id) {
            return Err(PackError::Io(format!(
                "'{id}' is not a pack id (a lowercase letter, then a-z, 0-9, '.', '_' or '-')"
            )));
        }
        Ok(format!("{id}.json"))
    }

    /// Ids of installed packs, sorted.
    fn installed_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .storage
            .list()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|name| name.strip_suffix(".json").map(str::to_string))
            .collect();
        ids.sort();
        ids
    }

    /// The shipped packs first (core leading), then every installed pack that loads, by id.
    /// An installed file under a shipped id is never listed: the shipped pack wins.
    pub fn list(&self) -> Vec<PackSummary> {
        self.scan().0.into_iter().map(|(s, _)| s).collect()
    }

    /// Every pack in the catalog with its summary, in [`Library::list`] order, and the
    /// installed files that did not load (by id, with why), so a game can say so.
    pub fn scan(&self) -> Scan {
        let mut packs: Vec<(PackSummary, Pack)> = self
            .shipped
            .iter()
            .map(|p| (PackSummary::of(p, true), p.clone()))
            .collect();
        let mut broken = Vec::new();
        for id in self.installed_ids() {
            if self.is_shipped(&id) {
                continue;
            }
            match self.pack(&id) {
                Ok(pack) => packs.push((PackSummary::of(&pack, false), pack)),
                Err(e) => broken.push((id, e)),
            }
        }
        (packs, broken)
    }

    /// A pack from the catalog, read as data (never evaluated).
    pub fn pack(&self, id: &str) -> Result<Pack, PackError> {
        if let Some(pack) = self.shipped_pack(id) {
            return Ok(pack.clone());
        }
        let slot = self.slot_of(id)?;
        let path = self.storage.path_of(&slot);
        let Some(bytes) = self.storage.read_at_most(&slot, u64::MAX).map_err(io)? else {
            return Err(PackError::Io(format!("no installed pack '{id}'")));
        };
        let text = String::from_utf8(bytes).map_err(|_| {
            PackError::Io(format!(
                "{}: stream did not contain valid UTF-8",
                path.display()
            ))
        })?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| PackError::Syntax(format!("{}: {e}", path.display())))?;
        let pack = validate(&value)?.pack;
        // The file name is the id the catalog lists and looks up; a file whose manifest names
        // another id (copied or renamed by hand) would be listed under a name nothing finds.
        if pack.manifest.id != id {
            return Err(PackError::Io(format!(
                "{} holds pack '{}', not '{id}': rename the file to {}.json",
                path.display(),
                pack.manifest.id,
                pack.manifest.id
            )));
        }
        Ok(pack)
    }

    fn contains(&self, id: &str) -> bool {
        self.is_shipped(id) || self.slot_of(id).is_ok_and(|s| self.storage.holds(&s))
    }

    /// A checked pack as a preview: whether its id is taken here. Changes nothing.
    pub fn preview(&self, checked: Checked) -> Preview {
        let conflict = self.contains(&checked.pack.manifest.id);
        Preview {
            pack: checked.pack,
            notes: checked.notes,
            conflict,
        }
    }

    /// Reads pack text (the kind guessed from `filename`) into a preview. Changes nothing.
    pub fn import(&self, text: &str, filename: &str) -> Result<Preview, PackError> {
        load(text, SourceKind::from_name(filename), filename).map(|c| self.preview(c))
    }

    /// Reads a share link into a preview. Changes nothing and runs no code.
    pub fn decode_link(&self, url: &str) -> Result<Preview, PackError> {
        share::decode_link(url).map(|c| self.preview(c))
    }

    /// Installs a preview. With a conflict, `Replace` overwrites and `KeepBoth` installs a fork
    /// under a fresh id. Returns the installed pack's entry.
    pub fn install(&self, preview: &Preview, mode: InstallMode) -> Result<PackSummary, PackError> {
        // Re-check the data: a preview is a plain struct and may have been edited.
        let mut pack = validate(&preview.pack.to_json())?.pack;
        let id = pack.manifest.id.clone();
        if self.contains(&id) {
            match mode {
                InstallMode::Replace if self.is_shipped(&id) => {
                    return Err(PackError::Io(format!(
                        "'{id}' ships with the game and cannot be replaced: keep both instead"
                    )));
                }
                InstallMode::Replace => {}
                InstallMode::KeepBoth => {
                    let fresh = (1..)
                        .map(|n| {
                            if n == 1 {
                                format!("{id}-fork")
                            } else {
                                format!("{id}-fork-{n}")
                            }
                        })
                        .find(|candidate| !self.contains(candidate))
                        .unwrap_or_else(|| format!("{id}-fork"));
                    pack.manifest.fork_of = Some(id.clone());
                    pack.manifest.id = fresh;
                }
            }
        }
        let text = serde_json::to_string_pretty(&pack.to_json())
            .map_err(|e| PackError::Io(e.to_string()))?;
        let target = self.slot_of(&pack.manifest.id)?;
        self.storage.write(&target, text.as_bytes()).map_err(io)?;
        Ok(PackSummary::of(&pack, false))
    }

    /// Removes an installed pack.
    pub fn remove(&self, id: &str) -> Result<(), PackError> {
        if self.is_shipped(id) {
            return Err(PackError::Io(format!(
                "'{id}' ships with the game and cannot be removed"
            )));
        }
        let slot = self.slot_of(id)?;
        if !self.storage.holds(&slot) {
            return Err(PackError::Io(format!("no installed pack '{id}'")));
        }
        self.storage.remove(&slot).map_err(io)
    }

    /// A pack's text in the chosen format.
    pub fn export(&self, id: &str, format: ExportFormat) -> Result<String, PackError> {
        let pack = self.pack(id)?;
        export_pack(&pack, format)
    }

    /// A share link for a catalog pack (refused for a pack too big for a link).
    pub fn share_link(&self, id: &str, base: &str) -> Result<String, PackError> {
        share::pack_link(&self.pack(id)?, base)
    }
}

/// Writes a pack as CommonJS or JSON text that loads back to the same pack.
pub fn export_pack(pack: &Pack, format: ExportFormat) -> Result<String, PackError> {
    let json =
        serde_json::to_string_pretty(&pack.to_json()).map_err(|e| PackError::Io(e.to_string()))?;
    Ok(match format {
        ExportFormat::Json => json + "\n",
        ExportFormat::CommonJs => format!("module.exports = {json};\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HELLO: &str = r#"{ "manifest": { "id": "hello-miau", "name": "Hello Miau", "version": "1.0.0" },
      "levels": [{ "id": "intro", "width": 5, "height": 3, "objects": [
        { "kind": "word", "text": "MIAU", "x": 0, "y": 0 }, { "kind": "word", "text": "IS", "x": 1, "y": 0 },
        { "kind": "word", "text": "YOU", "x": 2, "y": 0 }, { "kind": "object", "noun": "MIAU", "x": 0, "y": 1 } ] }] }"#;

    fn library() -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().expect("temp dir");
        let lib = Library::open(dir.path().join("packs")).expect("opens");
        (dir, lib)
    }

    #[test]
    fn import_is_a_preview_that_changes_nothing() {
        let (_d, lib) = library();
        let preview = lib.import(HELLO, "hello.json").expect("valid");
        assert!(!preview.conflict);
        assert_eq!(lib.list().len(), 1, "only the core pack");
    }

    #[test]
    fn install_reload_and_remove() {
        let (_d, lib) = library();
        let preview = lib.import(HELLO, "hello.json").expect("valid");
        lib.install(&preview, InstallMode::Replace)
            .expect("installs");
        let again = Library::open(lib.dir().to_path_buf()).expect("reopens");
        let ids: Vec<String> = again.list().into_iter().map(|s| s.id).collect();
        assert_eq!(ids, ["core", "hello-miau"]);
        assert_eq!(again.pack("hello-miau").expect("loads"), preview.pack);
        again.remove("hello-miau").expect("removes");
        assert_eq!(again.list().len(), 1);
        assert!(again.remove("core").is_err());
    }

    #[test]
    fn shipped_packs_are_listed_found_and_kept() {
        let (_d, lib) = library();
        let hello = lib.import(HELLO, "hello.json").expect("valid").pack;
        let core = lib.pack(CORE_ID).expect("core");
        let (lib, doubled) = lib.with_shipped(vec![hello.clone(), core]);
        assert_eq!(doubled, ["core"]);
        let listed: Vec<(String, bool)> =
            lib.list().into_iter().map(|s| (s.id, s.built_in)).collect();
        assert_eq!(listed, [("core".into(), true), ("hello-miau".into(), true)]);
        assert_eq!(lib.pack("hello-miau").expect("found"), hello);
        assert!(
            lib.remove("hello-miau")
                .unwrap_err()
                .to_string()
                .contains("ships with the game")
        );
        let again = lib.import(HELLO, "hello.json").expect("valid");
        assert!(again.conflict);
        assert!(lib.install(&again, InstallMode::Replace).is_err());
        let fork = lib.install(&again, InstallMode::KeepBoth).expect("forks");
        assert_eq!(fork.id, "hello-miau-fork");
    }

    #[test]
    fn keep_both_installs_a_fork() {
        let (_d, lib) = library();
        let preview = lib.import(HELLO, "hello.json").expect("valid");
        lib.install(&preview, InstallMode::Replace)
            .expect("installs");
        let second = lib.import(HELLO, "hello.json").expect("valid");
        assert!(second.conflict);
        let fork = lib.install(&second, InstallMode::KeepBoth).expect("forks");
        assert_eq!(fork.id, "hello-miau-fork");
        assert_eq!(fork.fork_of.as_deref(), Some("hello-miau"));
        let third = lib
            .install(&second, InstallMode::KeepBoth)
            .expect("forks again");
        assert_eq!(third.id, "hello-miau-fork-2");
        assert_eq!(lib.list().len(), 4);
    }

    #[test]
    fn a_failed_install_leaves_the_catalog_as_it_was() {
        let (_d, lib) = library();
        let good = lib.import(HELLO, "hello.json").expect("valid");
        lib.install(&good, InstallMode::Replace).expect("installs");
        let before = std::fs::read_to_string(lib.dir().join("hello-miau.json")).expect("file");
        let mut broken = good.clone();
        broken.pack.levels[0].objects[0].x = 99;
        assert!(lib.install(&broken, InstallMode::Replace).is_err());
        assert_eq!(
            std::fs::read_to_string(lib.dir().join("hello-miau.json")).expect("file"),
            before
        );
        assert_eq!(
            std::fs::read_dir(lib.dir()).expect("dir").count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn exports_load_back_to_the_same_pack() {
        let (_d, lib) = library();
        let core = lib.pack("core").expect("core");
        for (format, name) in [
            (ExportFormat::CommonJs, "core.cjs"),
            (ExportFormat::Json, "core.json"),
        ] {
            let text = lib.export("core", format).expect("exports");
            assert_eq!(lib.import(&text, name).expect("imports").pack, core);
        }
    }

    #[test]
    fn share_links_preview_without_installing() {
        let (_d, lib) = library();
        let preview = lib.import(HELLO, "hello.json").expect("valid");
        lib.install(&preview, InstallMode::Replace)
            .expect("installs");
        let link = lib
            .share_link("hello-miau", share::DEFAULT_LINK_BASE)
            .expect("link");
        lib.remove("hello-miau").expect("removes");
        let decoded = lib.decode_link(&link).expect("decodes");
        assert_eq!(decoded.pack, preview.pack);
        assert_eq!(lib.list().len(), 1, "decoding installed nothing");
    }

    #[test]
    fn ids_that_leave_the_library_touch_no_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let lib = Library::open(dir.path().join("packs")).expect("opens");
        let victim = dir.path().join("victim.json");
        std::fs::write(&victim, HELLO).expect("writes");
        for id in [
            "../victim",
            "..",
            "/etc/passwd",
            "a/../../victim",
            "Victim",
            "",
        ] {
            let err = lib.remove(id).expect_err("refused").to_string();
            assert!(err.contains("is not a pack id"), "{id}: {err}");
            assert!(lib.pack(id).is_err(), "{id}");
            assert!(lib.export(id, ExportFormat::Json).is_err(), "{id}");
            assert!(
                lib.share_link(id, share::DEFAULT_LINK_BASE).is_err(),
                "{id}"
            );
        }
        assert!(
            victim.is_file(),
            "the file outside the library is still there"
        );
    }

    #[test]
    fn a_file_named_for_another_id_is_neither_listed_nor_found() {
        let (_d, lib) = library();
        std::fs::write(lib.dir().join("stray.json"), HELLO).expect("writes");
        assert!(
            lib.list()
                .iter()
                .all(|p| p.id != "hello-miau" && p.id != "stray")
        );
        let err = lib.pack("stray").expect_err("refused").to_string();
        assert!(
            err.contains("holds pack 'hello-miau', not 'stray'"),
            "{err}"
        );
        assert!(lib.pack("hello-miau").is_err());
        // Renamed to match, it is listed and found under the one id.
        std::fs::rename(
            lib.dir().join("stray.json"),
            lib.dir().join("hello-miau.json"),
        )
        .expect("mv");
        assert!(lib.list().iter().any(|p| p.id == "hello-miau"));
        assert!(lib.pack("hello-miau").is_ok());
    }

    #[test]
    fn a_pack_too_big_for_a_link_is_refused_with_the_way_out() {
        let (_d, lib) = library();
        // 32 levels of 64 x 64 cells, every cell a rock: about 5 MiB of JSON.
        let rocks: Vec<serde_json::Value> = (0..64 * 64)
            .map(|i| serde_json::json!({ "kind": "object", "noun": "ROCK", "x": i % 64, "y": i / 64 }))
            .collect();
        let levels: Vec<serde_json::Value> = (0..32)
            .map(|n| serde_json::json!({ "id": format!("l{n}"), "width": 64, "height": 64, "objects": rocks }))
            .collect();
        let value = serde_json::json!({
            "manifest": { "id": "boulders", "name": "Boulders", "version": "1.0.0" },
            "levels": levels,
        });
        assert!(value.to_string().len() > share::MAX_LINK_DATA);
        let checked = crate::validate::validate(&value).expect("a valid pack");
        let preview = Preview {
            pack: checked.pack,
            notes: Vec::new(),
            conflict: false,
        };
        lib.install(&preview, InstallMode::Replace)
            .expect("installs");
        let err = lib
            .share_link("boulders", share::DEFAULT_LINK_BASE)
            .expect_err("refused")
            .to_string();
        assert!(err.contains("share the exported file"), "{err}");
        assert!(lib.export("boulders", ExportFormat::Json).is_ok());
    }
}
