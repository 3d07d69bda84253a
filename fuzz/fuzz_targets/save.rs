//! A save file's bytes, opened the way a game opens its save, then written once.
//!
//! Two promises are checked besides "no panic": a save that reads is kept whole (written back
//! and read again, every value is still there), and a save that does not read is never
//! destroyed (its exact bytes survive, in place or set aside as `save.json.bad`).
#![no_main]

use std::path::PathBuf;

use jengine::host::SaveStore;
use libfuzzer_sys::fuzz_target;

thread_local! {
    static FOLDER: PathBuf = {
        let dir = std::env::temp_dir().join(format!("jengine-fuzz-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder for the save");
        dir
    };
}

fuzz_target!(|data: &[u8]| {
    FOLDER.with(|dir| {
        // Each input starts from an empty folder.
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
        let path = dir.join("save.json");
        let bad = dir.join("save.json.bad");
        std::fs::write(&path, data).expect("the input written as a save");

        let (mut store, warning) = SaveStore::open(&path);
        let readable = warning.is_none();
        assert_eq!(
            store.problem().is_some(),
            !readable,
            "the player is told exactly when the save did not read"
        );
        let _ = store.set("fuzz_written", serde_json::json!(1));
        let _ = store.flush();

        if readable {
            let Ok(serde_json::Value::Object(before)) = serde_json::from_slice(data) else {
                panic!("a save that opened without a warning is not a JSON object");
            };
            let (again, warning) = SaveStore::open(&path);
            assert_eq!(warning, None, "a save the store wrote reads back");
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
    });
});
