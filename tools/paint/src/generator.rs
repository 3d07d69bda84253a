//! The generator around the paint: encode every image, write them (all or nothing) and read the
//! command line (`--out DIR`, `--preview DIR`). A fresh run is checked against the committed
//! files by [`crate::committed`], the check the sound tools use too.
//!
//! Every art tool is the same program around its own list of images, so this is it once.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::encode::encode;
use crate::paint::Image;

/// What went wrong writing the art, and where.
#[derive(Debug)]
pub enum ArtError {
    /// A file or folder could not be written.
    Write {
        /// Where.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An image could not be encoded as PNG.
    Encode {
        /// Its file name.
        name: String,
        /// Why.
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
    /// Where.
    pub path: PathBuf,
    /// How many bytes.
    pub bytes: usize,
}

/// Every image encoded as PNG, in order, as `(file name, bytes)`.
pub fn encode_all(
    images: Vec<(&'static str, Image)>,
) -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    images
        .into_iter()
        .map(|(name, image)| {
            encode(&image)
                .map(|bytes| (name, bytes))
                .map_err(|source| ArtError::Encode {
                    name: name.to_string(),
                    source,
                })
        })
        .collect()
}

/// Writes `files` into `dir` (made if missing). Callers encode everything first, so an
/// encoding failure leaves `dir` as it was.
pub fn write_files(
    dir: &Path,
    files: Vec<(&'static str, Vec<u8>)>,
) -> Result<Vec<Written>, ArtError> {
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

/// The command line of an art tool.
#[derive(Debug, PartialEq, Eq)]
pub struct Args {
    /// Where the art goes.
    pub out: PathBuf,
    /// Where a preview goes, if one is asked for.
    pub preview: Option<PathBuf>,
}

/// Reads `[--out DIR] [--preview DIR]`; `out` defaults to `default_out`.
pub fn parse(
    program: &str,
    default_out: PathBuf,
    mut args: impl Iterator<Item = String>,
) -> Result<Args, String> {
    let mut parsed = Args {
        out: default_out,
        preview: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a folder after it"));
        match arg.as_str() {
            "--out" => parsed.out = PathBuf::from(value("--out")?),
            "--preview" => parsed.preview = Some(PathBuf::from(value("--preview")?)),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: {program} [--out DIR] [--preview DIR]"
                ));
            }
        }
    }
    Ok(parsed)
}

/// An art tool's `main`: writes the art (`write` into a folder) and, with `--preview`, the
/// preview images `previews` makes; says every file written, or what went wrong.
pub fn main(
    program: &str,
    default_out: PathBuf,
    write: impl Fn(&Path) -> Result<Vec<Written>, ArtError>,
    previews: impl Fn() -> Vec<(&'static str, Image)>,
) -> ExitCode {
    let args = match parse(program, default_out, std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{program}: {message}");
            return ExitCode::from(2);
        }
    };
    let run = || -> Result<(), ArtError> {
        let mut written = write(&args.out)?;
        if let Some(dir) = &args.preview {
            written.extend(write_files(dir, encode_all(previews())?)?);
        }
        for w in written {
            println!("{} ({} bytes)", w.path.display(), w.bytes);
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{program}: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Args, String> {
        parse(
            "tool",
            PathBuf::from("def"),
            list.iter().map(|s| s.to_string()),
        )
    }

    #[test]
    fn flags_set_the_output_and_preview_folders() {
        let a = args(&["--out", "o", "--preview", "p"]).unwrap();
        assert_eq!(a.out, PathBuf::from("o"));
        assert_eq!(a.preview, Some(PathBuf::from("p")));
    }

    #[test]
    fn no_flags_write_into_the_default_folder_without_a_preview() {
        let a = args(&[]).unwrap();
        assert_eq!(
            a,
            Args {
                out: PathBuf::from("def"),
                preview: None
            }
        );
    }

    #[test]
    fn a_flag_without_its_folder_and_an_unknown_one_are_refused_by_name() {
        assert_eq!(
            args(&["--preview"]).unwrap_err(),
            "--preview needs a folder after it"
        );
        assert!(
            args(&["--colour"])
                .unwrap_err()
                .starts_with("unknown argument \"--colour\"; usage: tool")
        );
    }

    #[test]
    fn writing_where_a_file_stands_fails_naming_it() {
        let dir = std::env::temp_dir().join(format!("paint-gen-{}", std::process::id()));
        std::fs::write(&dir, b"not a folder").unwrap();
        let err = write_files(&dir, vec![("a.png", vec![1])]).unwrap_err();
        assert!(
            err.to_string().contains(&dir.display().to_string()),
            "{err}"
        );
        assert_eq!(std::fs::read(&dir).unwrap(), b"not a folder");
        let _ = std::fs::remove_file(&dir);
    }
}
