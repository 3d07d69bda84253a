//! The committed sounds are exactly what the generator makes: every file is made afresh in
//! memory and compared with the committed one byte for byte, with none missing or left over.

#[test]
fn committed_audio_is_byte_identical_to_a_fresh_run() {
    let files = kotodama_sound::files().unwrap();
    jengine_committed::check(
        &kotodama_sound::committed_dir(),
        &files,
        &["wav", "json"],
        "kotodama-sound",
    )
    .unwrap_or_else(|mismatch| panic!("{mismatch}"));
}

#[test]
fn writing_where_a_file_stands_fails_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("audio");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = kotodama_sound::write_all(&blocker).unwrap_err();
    assert!(
        err.to_string().contains(&blocker.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}
