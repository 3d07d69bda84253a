//! `arcade-art`: writes Umber Warren's textures, and on request a preview of them.
//!
//! ```text
//! arcade-art [--out DIR] [--preview DIR]
//! ```
//! `--out` defaults to the project's `assets/textures/`; `--preview` also writes
//! `art-preview.png` (a contact sheet) and `art-mock.png` (a mock screen) into DIR.

use std::path::PathBuf;
use std::process::ExitCode;

use arcade_art::{ArtError, committed_dir, encode, preview, write_textures};

#[derive(Debug)]
struct Args {
    out: PathBuf,
    preview: Option<PathBuf>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        out: committed_dir(),
        preview: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a folder after it"));
        match arg.as_str() {
            "--out" => parsed.out = PathBuf::from(value("--out")?),
            "--preview" => parsed.preview = Some(PathBuf::from(value("--preview")?)),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: arcade-art [--out DIR] [--preview DIR]"
                ));
            }
        }
    }
    Ok(parsed)
}

fn write_preview(dir: &std::path::Path) -> Result<(), ArtError> {
    std::fs::create_dir_all(dir).map_err(|source| ArtError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    for (name, image) in [
        ("art-preview.png", preview::contact_sheet()),
        ("art-mock.png", preview::mock()),
    ] {
        let path = dir.join(name);
        let bytes = encode::encode(&image).map_err(|source| ArtError::Encode {
            name: name.to_string(),
            source,
        })?;
        std::fs::write(&path, bytes).map_err(|source| ArtError::Write {
            path: path.clone(),
            source,
        })?;
        println!("{}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("arcade-art: {message}");
            return ExitCode::from(2);
        }
    };
    let run = || -> Result<(), ArtError> {
        for w in write_textures(&args.out)? {
            println!("{} ({} bytes)", w.path.display(), w.bytes);
        }
        if let Some(dir) = &args.preview {
            write_preview(dir)?;
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arcade-art: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Args, String> {
        parse(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn flags_set_the_output_and_preview_folders() {
        let a = args(&["--out", "o", "--preview", "p"]).unwrap();
        assert_eq!(a.out, PathBuf::from("o"));
        assert_eq!(a.preview, Some(PathBuf::from("p")));
    }

    #[test]
    fn no_flags_write_into_the_committed_folder_without_a_preview() {
        let a = args(&[]).unwrap();
        assert_eq!(a.out, committed_dir());
        assert_eq!(a.preview, None);
    }

    #[test]
    fn a_flag_without_its_folder_is_refused_by_name() {
        assert_eq!(
            args(&["--preview"]).unwrap_err(),
            "--preview needs a folder after it"
        );
    }

    #[test]
    fn an_unknown_argument_is_refused_by_name() {
        assert!(
            args(&["--colour"])
                .unwrap_err()
                .starts_with("unknown argument \"--colour\"")
        );
    }
}
