//! Umber Warren's art: the crawler sheet, the creatures and the HUD, painted by code.
//!
//! Every texture is signed-distance shapes, seeded integer-hash noise and pixel-art grids,
//! evaluated at pixel centres with only correctly rounded float arithmetic and encoded with
//! fixed settings ([`encode`]), so any machine writes the bytes committed under
//! `projects/arcade-classics/assets/textures/`. [`preview`] lays them out to look at together.

pub use jengine_paint::{encode, noise, paint};
pub mod monsters;
pub mod preview;
pub mod sheet;
pub mod ui;

use std::path::{Path, PathBuf};

use paint::Image;

pub use jengine_paint::generator::{self, ArtError, Written};

/// Every texture as `(file name, image)`.
pub fn textures() -> Vec<(&'static str, Image)> {
    let mut all = vec![
        ("crawler.png", sheet::crawler()),
        ("monsters.png", monsters::sheet()),
        ("panel.png", ui::panel()),
        ("frame.png", ui::frame()),
        ("button.png", ui::button()),
        ("parchment.png", ui::parchment()),
        ("compass.png", ui::compass()),
        ("white.png", ui::white()),
    ];
    all.extend(ui::icons());
    all
}

/// Every texture as `(file name, PNG bytes)`, in order.
pub fn encoded() -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    generator::encode_all(textures())
}

/// Writes every texture into `dir` (made if missing). Everything is encoded before the first
/// file is written, so an encoding failure leaves `dir` as it was.
pub fn write_textures(dir: &Path) -> Result<Vec<Written>, ArtError> {
    generator::write_files(dir, encoded()?)
}

/// The folder the committed textures live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/arcade-classics/tools/art; the textures are in its assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}
