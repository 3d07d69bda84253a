//! The shipped packs may sit in subfolders of the mods folder (`mods/worlds/crossword.cjs`):
//! the gate's listing and the game's both walk them, in the same order, and neither can be led
//! out of the folder by a link, a `..` or an odd name.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use jengine::host::{AssetEntry, AssetError, AssetProblem, Assets, MemoryAssets, MemoryStorage};
use jengine_miau::session::Session;
use jengine_miau::worlds;

fn pack(id: &str) -> String {
    format!(
        "module.exports = {{ manifest: {{ id: '{id}', name: '{id}', version: '1.0.0' }}, \
         levels: [{{ id: 'one', width: 5, height: 3, objects: [\
         {{ kind: 'word', text: 'CAT', x: 0, y: 0 }}, {{ kind: 'word', text: 'IS', x: 1, y: 0 }}, \
         {{ kind: 'word', text: 'YOU', x: 2, y: 0 }}, {{ kind: 'word', text: 'FLAG', x: 0, y: 2 }}, \
         {{ kind: 'word', text: 'IS', x: 1, y: 2 }}, {{ kind: 'word', text: 'WIN', x: 2, y: 2 }}, \
         {{ kind: 'object', noun: 'CAT', x: 3, y: 1 }}, {{ kind: 'object', noun: 'FLAG', x: 4, y: 1 }}] }}] }};\n"
    )
}

/// A mods folder on disk with packs at the top, one and two folders down, and things that are
/// not packs; beside it, outside, a pack that must never be listed.
fn mods_on_disk() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mods = dir.path().join("mods");
    for (name, text) in [
        ("top.cjs", pack("top")),
        ("worlds/crossword.cjs", pack("nested")),
        ("worlds/deeper/down.cjs", pack("deeper")),
        ("worlds/notes.txt", "not a pack".to_string()),
        ("worlds/.hidden.cjs", pack("hidden")),
        (".git/stray.json", pack("stray")),
    ] {
        let path = mods.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::write(dir.path().join("outside.cjs"), pack("outside")).unwrap();
    (dir, mods)
}

fn names_under(mods: &Path, files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            f.strip_prefix(mods)
                .expect("listed inside the folder")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect()
}

#[test]
fn packs_in_subfolders_are_listed_in_path_order() {
    let (_dir, mods) = mods_on_disk();
    let files = worlds::pack_files(&mods).expect("listed");
    assert_eq!(
        names_under(&mods, &files),
        ["top.cjs", "worlds/crossword.cjs", "worlds/deeper/down.cjs"]
    );
}

#[cfg(unix)]
#[test]
fn a_link_in_a_subfolder_cannot_lead_the_gate_out_of_the_mods_folder() {
    let (dir, mods) = mods_on_disk();
    let worlds_dir = mods.join("worlds");
    let link = |target: &Path, name: &str| {
        std::os::unix::fs::symlink(target, worlds_dir.join(name)).unwrap();
    };
    link(&dir.path().join("outside.cjs"), "escape.cjs");
    link(&worlds_dir.join("../../outside.cjs"), "dotdot.cjs");
    link(dir.path(), "up");
    link(&mods, "loop");
    link(&worlds_dir.join("crossword.cjs"), "again.cjs");
    let files = worlds::pack_files(&mods).expect("listed");
    assert_eq!(
        names_under(&mods, &files),
        [
            "top.cjs",
            "worlds/again.cjs",
            "worlds/crossword.cjs",
            "worlds/deeper/down.cjs"
        ],
        "a link to a file inside counts; links out and links to folders do not"
    );
    let checked = worlds::check_worlds(&mods, &worlds::CheckOptions::default());
    let ids: Vec<&str> = checked
        .iter()
        .filter_map(|c| c.pack_id.as_deref())
        .collect();
    assert!(!ids.contains(&"outside"), "{ids:?}");
    assert!(
        ids.contains(&"nested") && ids.contains(&"deeper"),
        "{ids:?}"
    );
    // The game reads the same folder through its project files and lists the same packs: a
    // link to a file elsewhere in the project is no more a shipped pack than one outside it.
    let files = jengine::host::DiskAssets::new(dir.path());
    let listed: Vec<String> = worlds::shipped_sources(&files, "mods")
        .expect("listed")
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let expected: Vec<String> = names_under(&mods, &worlds::pack_files(&mods).unwrap())
        .iter()
        .map(|n| dir.path().join("mods").join(n).display().to_string())
        .collect();
    assert_eq!(listed, expected);
}

/// A set of files that lies: its listing names `..`, absolute paths, separators and hidden
/// entries, as a broken or hostile host could. Every name the reader asks for is kept.
struct Hostile {
    asked: Mutex<Vec<String>>,
    root: PathBuf,
}

impl Assets for Hostile {
    fn root(&self) -> &Path {
        &self.root
    }

    fn read_at_most(&self, name: &str, _most: u64) -> Result<Vec<u8>, AssetError> {
        self.asked.lock().unwrap().push(format!("read {name}"));
        Ok(pack("fine").into_bytes())
    }

    fn list(&self, folder: &str) -> Result<Vec<AssetEntry>, AssetError> {
        self.asked.lock().unwrap().push(format!("list {folder}"));
        let entry = |name: &str, folder: bool| AssetEntry {
            name: name.to_string(),
            folder,
        };
        match folder {
            "mods" => Ok(vec![
                entry("", false),
                entry(".", true),
                entry("..", true),
                entry("../secret.cjs", false),
                entry("/etc/passwd.json", false),
                entry("a\\..\\b.cjs", false),
                entry(".hidden", true),
                entry("ok.cjs", false),
                entry("worlds", true),
            ]),
            "mods/worlds" => Ok(vec![
                entry("..", true),
                entry("../../up.cjs", false),
                entry("crossword.cjs", false),
                entry("broken", true),
            ]),
            _ => Err(AssetError {
                path: self.root.join(folder),
                problem: AssetProblem::Missing,
            }),
        }
    }
}

#[test]
fn odd_names_in_a_listing_are_never_followed() {
    let files = Hostile {
        asked: Mutex::new(Vec::new()),
        root: PathBuf::from("bundle"),
    };
    let sources = worlds::shipped_sources(&files, "mods").expect("the top folder lists");
    let asked = files.asked.lock().unwrap().clone();
    assert_eq!(
        asked,
        [
            "list mods",
            "read mods/ok.cjs",
            "list mods/worlds",
            "read mods/worlds/crossword.cjs",
            "list mods/worlds/broken",
        ],
        "only plain names are read or listed"
    );
    let shown: Vec<(String, bool)> = sources
        .iter()
        .map(|(name, text)| (name.clone(), text.is_ok()))
        .collect();
    assert_eq!(
        shown,
        [
            ("bundle/mods/ok.cjs".to_string(), true),
            ("bundle/mods/worlds/crossword.cjs".to_string(), true),
            ("bundle/mods/worlds/broken".to_string(), false),
        ],
        "a subfolder that cannot be listed is said, not fatal"
    );
}

/// A web build hands the game its files in memory: a pack in a subfolder is listed there too,
/// after the top folder's packs whose names sort before the subfolder's.
#[test]
fn a_subfolder_pack_is_in_the_catalog_from_files_in_memory() {
    let mut files = MemoryAssets::named("bundle");
    files
        .insert("mods/clockwork.cjs", pack("a-top").as_bytes())
        .unwrap();
    files
        .insert("mods/worlds/crossword.cjs", pack("crossword").as_bytes())
        .unwrap();
    files
        .insert("mods/zoo.cjs", pack("z-top").as_bytes())
        .unwrap();
    let storage = Arc::new(MemoryStorage::new());
    let mut session = Session::open_shipped(storage, Some((&files, "mods"))).expect("opens");
    assert_eq!(session.take_startup_problems(), Vec::<String>::new());
    let ids: Vec<&str> = session
        .catalog()
        .iter()
        .map(|c| c.summary.id.as_str())
        .collect();
    assert_eq!(ids, ["core", "a-top", "crossword", "z-top"]);
}
