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

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong writing the art, and where.
#[derive(Debug)]
pub enum ArtError {
    /// A file or folder could not be written.
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A texture could not be encoded as PNG.
    Encode {
        name: String,
        source: png::EncodingError,
    },
}

impl fmt::Display for ArtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArtError::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            ArtError::Encode { name, source } => write!(f, "cannot encode {name} as PNG: {source}"),
        }
    }
}

impl std::error::Error for ArtError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArtError::Write { source, .. } => Some(source),
            ArtError::Encode { source, .. } => Some(source),
        }
    }
}

/// One file written: its path and size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub path: PathBuf,
    pub bytes: usize,
}

/// Every texture as `(file name, PNG bytes)`, in the order [`textures::all`] gives them.
pub fn encoded() -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    textures::all()
        .into_iter()
        .map(|t| {
            encode::encode(&t.image)
                .map(|bytes| (t.name, bytes))
                .map_err(|source| ArtError::Encode {
                    name: t.name.to_string(),
                    source,
                })
        })
        .collect()
}

/// Writes every texture into `dir` (made if missing). Everything is encoded before the first
/// file is written, so an encoding failure leaves `dir` as it was.
pub fn write_textures(dir: &Path) -> Result<Vec<Written>, ArtError> {
    let files = encoded()?;
    std::fs::create_dir_all(dir).map_err(|source| ArtError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    files
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.join(name);
            std::fs::write(&path, &bytes).map_err(|source| ArtError::Write {
                path: path.clone(),
                source,
            })?;
            Ok(Written {
                path,
                bytes: bytes.len(),
            })
        })
        .collect()
}

/// The folder the committed textures live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/kotodama/tools/art; the textures are projects/kotodama/assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}
