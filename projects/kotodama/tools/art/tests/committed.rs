//! The committed textures are exactly what the generator writes: regenerate into a temporary
//! folder and compare every file byte for byte, with no file missing or left over.

use jengine_paint::committed;

#[test]
fn committed_pngs_are_byte_identical_to_a_fresh_run() {
    let dir = tempfile::tempdir().unwrap();
    kotodama_art::write_textures(dir.path()).unwrap();
    let fresh = committed::read_run(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    committed::check(
        &kotodama_art::committed_dir(),
        &fresh,
        &["png"],
        "kotodama-art",
    )
    .unwrap_or_else(|mismatch| panic!("{mismatch}"));
}

#[test]
fn writing_where_a_file_stands_fails_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("textures");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = kotodama_art::write_textures(&blocker).unwrap_err();
    assert!(
        err.to_string().contains(&blocker.display().to_string()),
        "{err}"
    );
    assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
}

/// jengine-kotoba ships Kotodama's board textures as its defaults: each is what this tool
/// draws, byte for byte, so the package's art never drifts from the game's.
#[test]
fn the_kotoba_package_ships_exactly_the_board_textures_this_tool_draws() {
    let dir = tempfile::tempdir().unwrap();
    kotodama_art::write_textures(dir.path()).unwrap();
    let package = kotodama_art::committed_dir()
        .join("../../../../packages/jengine-kotoba/assets/textures/kotoba");
    for name in [
        "tile.png",
        "cell.png",
        "frame.png",
        "panel.png",
        "white.png",
        "wall.png",
        "glow.png",
        "scale.png",
    ] {
        let shipped = std::fs::read(package.join(name)).unwrap();
        assert!(
            shipped == std::fs::read(dir.path().join(name)).unwrap(),
            "{} differs from what kotodama-art draws; run `cargo run -p kotodama-art` and copy the game's \
             {name} there",
            package.join(name).display()
        );
    }
}
