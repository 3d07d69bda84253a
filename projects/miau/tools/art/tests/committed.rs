//! The committed textures are exactly what the generator writes.

#[test]
fn committed_pngs_are_byte_identical_to_a_fresh_run() {
    let dir = tempfile::tempdir().unwrap();
    let written = miau_art::write_textures(dir.path()).unwrap();
    if let Err(e) =
        jengine_paint::generator::check_committed(&miau_art::committed_dir(), &written, "miau-art")
    {
        panic!("{e}");
    }
}
