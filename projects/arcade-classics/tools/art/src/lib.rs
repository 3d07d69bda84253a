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

use std::fmt;
use std::path::{Path, PathBuf};

use paint::Image;

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

/// Every texture as `(file name, PNG bytes)`, in the order [`textures`] gives them.
pub fn encoded() -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    textures()
        .into_iter()
        .map(|(name, image)| {
            encode::encode(&image)
                .map(|bytes| (name, bytes))
                .map_err(|source| ArtError::Encode {
                    name: name.to_string(),
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
    // This crate is projects/arcade-classics/tools/art; the textures are in its assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}
