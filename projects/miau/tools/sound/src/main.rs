//! `miau-sound`: writes Miau's music and effects and prints each file's size and levels.
//!
//! ```text
//! miau-sound [--out DIR]
//! ```
//! `--out` defaults to the project's `assets/audio/`.

use std::path::PathBuf;
use std::process::ExitCode;

use miau_sound::{SoundError, committed_dir, sounds, write_all};

fn parse(mut args: impl Iterator<Item = String>) -> Result<PathBuf, String> {
    let mut out = committed_dir();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => out = PathBuf::from(args.next().ok_or("--out needs a folder after it")?),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: miau-sound [--out DIR]"
                ));
            }
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let out = match parse(std::env::args().skip(1)) {
        Ok(out) => out,
        Err(message) => {
            eprintln!("miau-sound: {message}");
            return ExitCode::from(2);
        }
    };
    let run = || -> Result<(), SoundError> {
        let mut total = 0;
        for w in write_all(&out)? {
            println!("{} ({} bytes)", w.path.display(), w.bytes);
            total += w.bytes;
        }
        println!("total {total} bytes");
        for s in &sounds()? {
            println!("{}", s.report());
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("miau-sound: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<PathBuf, String> {
        parse(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn out_takes_its_folder_and_defaults_to_the_project() {
        assert_eq!(args(&["--out", "o"]).unwrap(), PathBuf::from("o"));
        assert_eq!(args(&[]).unwrap(), committed_dir());
    }

    #[test]
    fn a_flag_without_its_folder_or_an_unknown_flag_is_refused_by_name() {
        assert_eq!(
            args(&["--out"]).unwrap_err(),
            "--out needs a folder after it"
        );
        assert!(args(&["--loud"]).unwrap_err().contains("\"--loud\""));
    }
}
