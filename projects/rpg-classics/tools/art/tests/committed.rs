//! The committed textures are exactly what the generator writes: regenerate into a temporary
//! folder and compare every file byte for byte, with no file missing or left over.

use jengine_paint::committed;

#[test]
fn committed_pngs_are_byte_identical_to_a_fresh_run() {
    let dir = tempfile::tempdir().unwrap();
    rpg_art::write_textures(dir.path()).unwrap();
    let fresh = committed::read_run(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    committed::check(&rpg_art::committed_dir(), &fresh, &["png"], "rpg-art")
        .unwrap_or_else(|mismatch| panic!("{mismatch}"));
}

#[test]
fn writing_where_a_file_stands_fails_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("textures");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = rpg_art::write_textures(&blocker).unwrap_err();
    assert!(
        err.to_string().contains(&blocker.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}
