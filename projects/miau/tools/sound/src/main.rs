//! `miau-sound`: writes Miau's music and effects and prints each file's size and levels.
//!
//! ```text
//! miau-sound [--out DIR]
//! ```
//! `--out` defaults to the project's `assets/audio/`.

use std::path::PathBuf;
use std::process::ExitCode;

use kotodama_sound::dsp::RATE;
use miau_sound::{Sound, SoundError, committed_dir, sounds, write_all};

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

fn dbfs(x: f64) -> f64 {
    20.0 * x.max(1e-9).log10()
}

fn report(sound: &Sound) -> String {
    let s: Vec<f64> = sound.samples.iter().map(|&v| v as f64 / 32768.0).collect();
    let peak = s.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let rms = (s.iter().map(|x| x * x).sum::<f64>() / s.len().max(1) as f64).sqrt();
    format!(
        "{:>16}  {:6.2} s  peak {:6.1} dBFS  rms {:6.1} dBFS",
        sound.name,
        s.len() as f64 / f64::from(RATE),
        dbfs(peak),
        dbfs(rms)
    )
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
            println!("{}", report(s));
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
