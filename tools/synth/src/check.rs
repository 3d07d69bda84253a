//! What the sound tools' tests check of the sounds they commit, in one place: a WAV read back
//! in the one format every game uses, its levels, and how smoothly a loop wraps. Whether the
//! committed folder holds exactly what a fresh run makes is `jengine_committed`'s check, the
//! one the art tools use too.

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

#[cfg(test)]
mod tests {
    use super::*;

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
