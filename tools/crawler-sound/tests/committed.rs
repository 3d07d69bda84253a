//! The committed sounds are exactly what the generator makes: every file is made afresh in
//! memory and compared with the committed one byte for byte, with none missing or left over.

use crawler_sound::Game;

#[test]
fn committed_audio_is_byte_identical_to_a_fresh_run() {
    for game in Game::ALL {
        let files = crawler_sound::files(game).unwrap();
        jengine_committed::check(
            &game.committed_dir(),
            &files,
            &["wav", "json"],
            "crawler-sound",
        )
        .unwrap_or_else(|mismatch| panic!("{mismatch}"));
    }
}

#[test]
fn writing_where_a_file_stands_fails_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("audio");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = crawler_sound::write_all(Game::Warren, &blocker).unwrap_err();
    assert!(
        err.to_string().contains(&blocker.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}
