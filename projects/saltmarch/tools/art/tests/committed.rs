//! The committed textures are exactly what the generator writes: regenerate into a temporary
//! folder and compare every file byte for byte, with no file missing or left over.

use jengine_paint::committed;

#[test]
fn committed_pngs_are_byte_identical_to_a_fresh_run() {
    let dir = tempfile::tempdir().unwrap();
    saltmarch_art::write_textures(dir.path()).unwrap();
    let fresh = committed::read_run(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    committed::check(
        &saltmarch_art::committed_dir(),
        &fresh,
        &["png"],
        "saltmarch-art",
    )
    .unwrap_or_else(|mismatch| panic!("{mismatch}"));
}
