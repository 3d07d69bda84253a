//! A save file's bytes, opened the way a game opens its save, then written once.
//!
//! Two promises are checked besides "no panic": a save that reads is kept whole (written back
//! and read again, every value is still there), and a save that does not read (the store
//! reports a problem) is never destroyed: its exact bytes survive, in place or set aside as
//! `save.json.bad`.
#![no_main]

use std::path::PathBuf;

use jengine::host::SaveStore;
use libfuzzer_sys::fuzz_target;

/// The folder the save is written in: one per process, made for each input and removed after
/// it, so only a crashing input leaves its files behind.
fn folder() -> PathBuf {
    std::env::temp_dir().join(format!("jengine-fuzz-save-{}", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    let dir = folder();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder for the save");
    let path = dir.join("save.json");
    let bad = dir.join("save.json.bad");
    std::fs::write(&path, data).expect("the input written as a save");

    let (mut store, warning) = SaveStore::open(&path);
    let readable = store.problem().is_none();
    let _ = store.set("fuzz_written", serde_json::json!(1));
    let _ = store.flush();

    if readable {
        let Ok(serde_json::Value::Object(before)) = serde_json::from_slice(data) else {
            panic!("a save that is not a JSON object opened with no problem");
        };
        let (again, _) = SaveStore::open(&path);
        assert_eq!(again.problem(), None, "a save the store wrote reads back");
        for (key, value) in &before {
            if key != "fuzz_written" {
                assert_eq!(again.get(key), Some(value), "value {key:?} kept");
            }
        }
        assert_eq!(again.get("fuzz_written"), Some(&serde_json::json!(1)));
    } else {
        let kept = |p: &PathBuf| std::fs::read(p).is_ok_and(|b| b == data);
        assert!(
            kept(&path) || kept(&bad),
            "a save that could not be read was destroyed: {}",
            warning.unwrap_or_default()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
});
