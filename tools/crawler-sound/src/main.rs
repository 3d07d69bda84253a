//! `crawler-sound`: writes Umber Warren's and Seven Stairs' sounds into their projects.
//!
//! ```text
//! crawler-sound [--out DIR]
//! ```
//! `--out` writes into `DIR/arcade-classics/` and `DIR/rpg-classics/` instead of each project's
//! `assets/audio/`. Each file's size, length and levels are printed.

use std::path::PathBuf;
use std::process::ExitCode;

use crawler_sound::{Game, sounds, write_all};
use jengine_synth::SoundError;

fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<PathBuf>, String> {
    let mut out = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => {
                out = Some(PathBuf::from(
                    args.next().ok_or("--out needs a folder after it")?,
                ))
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: crawler-sound [--out DIR]"
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
            eprintln!("crawler-sound: {message}");
            return ExitCode::from(2);
        }
    };
    let run = || -> Result<(), SoundError> {
        for game in Game::ALL {
            let dir = match &out {
                Some(root) => root.join(game.project()),
                None => game.committed_dir(),
            };
            let mut total = 0;
            for w in write_all(game, &dir)? {
                println!("{} ({} bytes)", w.path.display(), w.bytes);
                total += w.bytes;
            }
            println!("{}: total {total} bytes", game.project());
            for s in &sounds(game)? {
                println!("{}", s.report());
            }
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("crawler-sound: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Option<PathBuf>, String> {
        parse(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn out_takes_its_folder_and_anything_else_is_refused_by_name() {
        assert_eq!(args(&["--out", "o"]).unwrap(), Some(PathBuf::from("o")));
        assert_eq!(args(&[]).unwrap(), None);
        assert_eq!(
            args(&["--out"]).unwrap_err(),
            "--out needs a folder after it"
        );
        assert!(args(&["--loud"]).unwrap_err().contains("\"--loud\""));
    }
}
