//! What a game keeps between runs goes through [`Storage`]: the save's rules, the runtime and
//! a package's folders touch the file system only in the disk store, and a run given a store
//! in memory keeps its save there.

use std::path::Path;
use std::sync::Arc;

use jengine::host::{MemoryStorage, Storage};
use jengine_counter::CounterPackage;
use jengine_runtime::{Options, Runtime};

/// Ways of reaching the file system.
const REACHES: &[&str] = &[
    "fs::",
    "File::",
    "OpenOptions",
    "read_dir",
    "canonicalize",
    "hard_link",
    ".is_file()",
    ".is_dir()",
    ".exists()",
];

/// The code of a source file without its unit tests (by the workspace's layout, its last item).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\n#[cfg(test)]\nmod ")
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn the_save_rules_the_runtime_and_miaus_library_touch_files_only_in_the_disk_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = vec![
        "packages/jengine/src/save.rs".to_string(),
        "packages/jengine/src/storage.rs".to_string(),
        "packages/jengine-miau/src/library.rs".to_string(),
    ];
    let runtime = root.join("tools/runtime/src");
    for entry in std::fs::read_dir(&runtime).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        // `jengine run --trace <file>` writes where it is told; it is no game's data.
        if name.ends_with(".rs") && name != "trace.rs" {
            checked.push(format!("tools/runtime/src/{name}"));
        }
    }
    let mut found = Vec::new();
    for file in &checked {
        for (i, line) in code(&root.join(file)).lines().enumerate() {
            let line = line.trim();
            if !line.starts_with("//") && REACHES.iter().any(|r| line.contains(r)) {
                found.push(format!("{file}:{}: {line}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "kept data goes through jengine::host::Storage, never a path:\n{}",
        found.join("\n")
    );
    // The disk store is where the file system is, so the scan would see it.
    let disk = code(&root.join("packages/jengine/src/storage/disk.rs"));
    assert!(disk.contains("std::fs::hard_link") && disk.contains("sync_all"));
}

#[test]
fn a_run_given_a_store_in_memory_keeps_its_save_there_and_sets_a_bad_one_aside() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
    let memory = MemoryStorage::named("browser");
    memory.insert("save.json", "{not json").unwrap();
    let options = Options {
        storage: Some(Arc::new(memory.clone())),
        ..Options::default()
    };
    let mut rt = Runtime::new(&project, &[&CounterPackage], options).unwrap();
    for _ in 0..4 {
        rt.step(&[]);
    }
    let logged: Vec<String> = rt.take_log().into_iter().map(|l| l.message).collect();
    assert!(
        logged
            .iter()
            .any(|l| l.contains("browser/save.json: not valid JSON")
                && l.contains("kept as browser/save.json.bad")),
        "{logged:?}"
    );
    // The bad save is kept whole, and the game's next save went beside it.
    assert_eq!(
        memory.read_at_most("save.json.bad", 100).unwrap().unwrap(),
        b"{not json"
    );
    let save = memory.read_at_most("save.json", 1000).unwrap().unwrap();
    let save: serde_json::Value = serde_json::from_slice(&save).unwrap();
    assert!(save.get("count_at_3").is_some(), "{save}");
}
