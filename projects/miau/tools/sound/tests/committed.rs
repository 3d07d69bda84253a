//! The committed sounds are exactly what the generator writes: regenerate into a temporary
//! folder and compare every file byte for byte, with no file missing or left over.

use std::collections::BTreeSet;

#[test]
fn committed_audio_is_byte_identical_to_a_fresh_run() {
    let dir = tempfile::tempdir().unwrap();
    let written = miau_sound::write_all(dir.path()).unwrap();
    let committed = miau_sound::committed_dir();
    for w in &written {
        let name = w.path.file_name().unwrap();
        let fresh = std::fs::read(&w.path).unwrap();
        let kept = std::fs::read(committed.join(name)).unwrap_or_else(|e| {
            panic!("{name:?} is not committed ({e}); run `cargo run -p miau-sound`")
        });
        assert!(
            fresh == kept,
            "{name:?} differs from a fresh run; run `cargo run -p miau-sound` and commit"
        );
    }
    let made: BTreeSet<_> = written
        .iter()
        .map(|w| w.path.file_name().unwrap().to_owned())
        .collect();
    let present: BTreeSet<_> = std::fs::read_dir(&committed)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| {
            let n = n.to_string_lossy();
            n.ends_with(".wav") || n.ends_with(".json")
        })
        .collect();
    assert_eq!(
        present,
        made,
        "files in {} the generator does not make",
        committed.display()
    );
}

#[test]
fn writing_where_a_file_stands_fails_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("audio");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = miau_sound::write_all(&blocker).unwrap_err();
    assert!(
        err.to_string().contains(&blocker.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}
