//! What the sound tools' tests check of the files they commit, in one place: a WAV read back
//! in the one format every game uses, its levels, and whether the committed folder holds
//! exactly what a fresh run makes.

use std::collections::BTreeSet;
use std::path::Path;

/// The samples of the WAV at `path`, after checking it is 16-bit mono PCM at 22 050 Hz.
pub fn read_wav(path: &Path) -> Result<Vec<i16>, String> {
    let name = path.display();
    let reader = hound::WavReader::open(path).map_err(|e| format!("{name}: {e}"))?;
    let spec = reader.spec();
    let format = (
        spec.channels,
        spec.sample_rate,
        spec.bits_per_sample,
        spec.sample_format,
    );
    if format != (1, 22_050, 16, hound::SampleFormat::Int) {
        return Err(format!(
            "{name}: {} channel(s), {} Hz, {} bits {:?}; every sound is 16-bit mono PCM at 22 050 Hz",
            spec.channels, spec.sample_rate, spec.bits_per_sample, spec.sample_format
        ));
    }
    reader
        .into_samples::<i16>()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{name}: {e}"))
}

/// A sample level in dBFS.
pub fn dbfs(x: f64) -> f64 {
    20.0 * (x / 32768.0).log10()
}

/// The largest sample, as a level.
pub fn peak(s: &[i16]) -> f64 {
    s.iter().map(|&v| f64::from(v).abs()).fold(0.0, f64::max)
}

/// The root mean square of the samples.
pub fn rms(s: &[i16]) -> f64 {
    (s.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() / s.len().max(1) as f64).sqrt()
}

/// A loop's seam: the step from its last sample back to its first, and the step that 99% of
/// the steps inside it stay under. A note cut off at the end, or an echo that starts from
/// nothing, makes the first far bigger than the second.
pub fn seam(s: &[i16]) -> (i32, i32) {
    if s.len() < 2 {
        return (0, 0);
    }
    let mut steps: Vec<i32> = s
        .windows(2)
        .map(|w| (i32::from(w[1]) - i32::from(w[0])).abs())
        .collect();
    steps.sort_unstable();
    let p99 = steps[steps.len() * 99 / 100];
    let wrap = (i32::from(s[0]) - i32::from(s[s.len() - 1])).abs();
    (wrap, p99)
}

/// How the committed folder `dir` differs from the `files` a fresh run makes: a file missing,
/// a file whose bytes differ, or a `.wav` or `.json` the run does not make. Empty when they
/// agree; each line says what to run (`tool`) to mend it.
pub fn differences(dir: &Path, files: &[(String, Vec<u8>)], tool: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name, bytes) in files {
        match std::fs::read(dir.join(name)) {
            Err(e) => out.push(format!(
                "{name} is not committed ({e}); run `cargo run -p {tool}`"
            )),
            Ok(kept) if &kept != bytes => out.push(format!(
                "{name} differs from a fresh run; run `cargo run -p {tool}` and commit"
            )),
            Ok(_) => {}
        }
    }
    let made: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let present = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".wav") || n.ends_with(".json"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    for name in present {
        if !made.contains(name.as_str()) {
            out.push(format!(
                "{name} in {} is not made by `{tool}`",
                dir.display()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_missing_changed_and_stray_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("same.wav"), b"abc").unwrap();
        std::fs::write(dir.path().join("changed.wav"), b"old").unwrap();
        std::fs::write(dir.path().join("stray.json"), b"{}").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"kept").unwrap();
        let files = vec![
            ("same.wav".to_string(), b"abc".to_vec()),
            ("changed.wav".to_string(), b"new".to_vec()),
            ("missing.wav".to_string(), b"x".to_vec()),
        ];
        let found = differences(dir.path(), &files, "a-tool");
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("changed.wav differs"));
        assert!(found[1].starts_with("missing.wav is not committed"));
        assert!(found[2].starts_with("stray.json in"));
        let same = vec![("same.wav".to_string(), b"abc".to_vec())];
        std::fs::remove_file(dir.path().join("changed.wav")).unwrap();
        std::fs::remove_file(dir.path().join("stray.json")).unwrap();
        assert!(differences(dir.path(), &same, "a-tool").is_empty());
    }

    #[test]
    fn a_wav_of_another_format_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stereo.wav");
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 44_100,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut w = hound::WavWriter::create(&path, spec).unwrap();
        w.write_sample(0i16).unwrap();
        w.write_sample(0i16).unwrap();
        w.finalize().unwrap();
        assert!(
            read_wav(&path)
                .unwrap_err()
                .contains("2 channel(s), 44100 Hz")
        );
        assert!(read_wav(&dir.path().join("none.wav")).is_err());
        assert_eq!(
            (dbfs(32768.0), peak(&[-3, 2]), rms(&[3, -3])),
            (0.0, 3.0, 3.0)
        );
    }
}
