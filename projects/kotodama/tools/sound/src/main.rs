//! `kotodama-sound`: writes Kotodama's music and effects, and on request pictures of them.
//!
//! ```text
//! kotodama-sound [--out DIR] [--plot DIR]
//! ```
//! `--out` defaults to the project's `assets/audio/`; `--plot` also draws a waveform and
//! spectrogram of every sound as `DIR/<name>.png`, and for each loop `DIR/<name>-seam.png`:
//! its last second then its first, the seam in the middle. Each file's size and levels are
//! printed.

use std::path::PathBuf;
use std::process::ExitCode;

use jengine_synth::plot;
use kotodama_sound::{SoundError, committed_dir, sounds, write_all};

#[derive(Debug)]
struct Args {
    out: PathBuf,
    plot: Option<PathBuf>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        out: committed_dir(),
        plot: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a folder after it"));
        match arg.as_str() {
            "--out" => parsed.out = PathBuf::from(value("--out")?),
            "--plot" => parsed.plot = Some(PathBuf::from(value("--plot")?)),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: kotodama-sound [--out DIR] [--plot DIR]"
                ));
            }
        }
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("kotodama-sound: {message}");
            return ExitCode::from(2);
        }
    };
    let run = || -> Result<(), SoundError> {
        let mut total = 0;
        for w in write_all(&args.out)? {
            println!("{} ({} bytes)", w.path.display(), w.bytes);
            total += w.bytes;
        }
        println!("total {total} bytes");
        let sounds = sounds()?;
        for s in &sounds {
            println!("{}", s.report());
        }
        if let Some(dir) = &args.plot {
            for path in plot::write_all(dir, &sounds)? {
                println!("{}", path.display());
            }
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kotodama-sound: {e}");
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
    fn flags_take_their_folders() {
        let a = args(&["--out", "o", "--plot", "p"]).unwrap();
        assert_eq!(a.out, PathBuf::from("o"));
        assert_eq!(a.plot, Some(PathBuf::from("p")));
        assert_eq!(args(&[]).unwrap().out, committed_dir());
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
