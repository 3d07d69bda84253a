//! Kotodama's art: every texture the game draws, painted by code and written as PNGs.
//!
//! Each texture is a few layers of signed-distance shapes and seeded noise ([`textures`]),
//! evaluated at pixel centres with nothing but correctly rounded float arithmetic, then
//! encoded with fixed settings ([`encode`]), so a run on any machine writes the same bytes as
//! the PNGs committed under `projects/kotodama/assets/textures/`. [`preview`] lays them out as
//! the game would (nine-slice, nearest-texel, tinted) to look at them together.
//!
//! ```no_run
//! let written = kotodama_art::write_textures(std::path::Path::new("out")).unwrap();
//! assert_eq!(written.len(), kotodama_art::textures::all().len());
//! ```

pub use jengine_paint::{encode, noise, paint};
pub mod icons;
pub mod portraits;
pub mod preview;
pub mod textures;

use std::path::{Path, PathBuf};

pub use jengine_paint::generator::{self, ArtError, Written};

/// Every texture as `(file name, PNG bytes)`, in order.
pub fn encoded() -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    generator::encode_all(
        textures::all()
            .into_iter()
            .map(|t| (t.name, t.image))
            .collect(),
    )
}

/// Writes every texture into `dir` (made if missing). Everything is encoded before the first
/// file is written, so an encoding failure leaves `dir` as it was.
pub fn write_textures(dir: &Path) -> Result<Vec<Written>, ArtError> {
    generator::write_files(dir, encoded()?)
}

/// The folder the committed textures live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/kotodama/tools/art; the textures are projects/kotodama/assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}
