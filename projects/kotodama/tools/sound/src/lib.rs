//! Kotodama's sound: four music loops and fifteen effects, synthesised from code and written
//! as 16-bit mono WAV files at 22 050 Hz.
//!
//! Instruments ([`instruments`]) are built from deterministic signal maths ([`dsp`]); the
//! music is scored in a small text notation ([`score`], [`music`]) and the effects are laid
//! out in code ([`effects`]). Every step is plain IEEE arithmetic and seeded noise, so a run
//! on any machine writes the committed files under `projects/kotodama/assets/audio/` byte for
//! byte, and `tracks.json` beside them gives each loop's tempo.
//!
//! ```no_run
//! let written = kotodama_sound::write_all(std::path::Path::new("out")).unwrap();
//! assert_eq!(written.len(), 4 + 15 + 1);
//! ```

pub mod canvas;
pub mod check;
pub mod dsp;
pub mod effects;
pub mod instruments;
pub mod music;
pub mod plot;
pub mod score;

use std::fmt;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use dsp::{RATE, Rng, db, peak, rms};

/// Music is levelled to this RMS (dBFS) ...
pub const MUSIC_RMS_DB: f64 = -14.0;
/// ... and its peaks are held under this (dBFS).
pub const MUSIC_CEILING_DB: f64 = -1.0;
/// Every effect's peak (dBFS).
pub const EFFECT_PEAK_DB: f64 = -12.0;
/// The name of the file listing the music's tempos.
pub const TRACKS_JSON: &str = "tracks.json";

/// What went wrong making the sound, and where.
#[derive(Debug)]
pub enum SoundError {
    /// A file or folder could not be written.
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A sound could not be encoded as WAV.
    Encode { name: String, source: hound::Error },
    /// A plot could not be encoded as PNG.
    Plot {
        name: String,
        source: png::EncodingError,
    },
    /// A voice's score does not parse.
    Score {
        track: &'static str,
        voice: &'static str,
        source: score::ScoreError,
    },
    /// A voice's score is not as long as its track.
    VoiceLength {
        track: &'static str,
        voice: &'static str,
        ticks: u32,
        expected: u32,
    },
}

impl fmt::Display for SoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoundError::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            SoundError::Encode { name, source } => {
                write!(f, "cannot encode {name} as WAV: {source}")
            }
            SoundError::Plot { name, source } => write!(f, "cannot draw {name}: {source}"),
            SoundError::Score {
                track,
                voice,
                source,
            } => write!(f, "{track}, voice {voice}: {source}"),
            SoundError::VoiceLength {
                track,
                voice,
                ticks,
                expected,
            } => write!(
                f,
                "{track}, voice {voice}: the line lasts {} beats, the track {}",
                score::beats(*ticks),
                score::beats(*expected)
            ),
        }
    }
}

impl std::error::Error for SoundError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SoundError::Write { source, .. } => Some(source),
            SoundError::Encode { source, .. } => Some(source),
            SoundError::Plot { source, .. } => Some(source),
            SoundError::Score { source, .. } => Some(source),
            SoundError::VoiceLength { .. } => None,
        }
    }
}

/// Whether a sound is a music loop (with its tempo) or a one-shot effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Music {
        bpm: u32,
        beats: u32,
        beats_per_bar: u32,
    },
    Effect,
}

/// One finished sound: its file name, kind and 16-bit samples.
#[derive(Clone, Debug)]
pub struct Sound {
    pub name: &'static str,
    pub kind: Kind,
    pub samples: Vec<i16>,
}

impl Sound {
    /// One line for the tool's output: name, length, peak and RMS level.
    pub fn report(&self) -> String {
        let peak = check::peak(&self.samples).max(1e-9 * 32768.0);
        let rms = check::rms(&self.samples).max(1e-9 * 32768.0);
        format!(
            "{:>16}  {:6.2} s  peak {:6.1} dBFS  rms {:6.1} dBFS",
            self.name,
            self.samples.len() as f64 / f64::from(RATE),
            check::dbfs(peak),
            check::dbfs(rms)
        )
    }
}

fn to_i16(x: f64) -> i16 {
    (x * 32767.0).round().clamp(-32767.0, 32767.0) as i16
}

/// Levels a music loop to [`MUSIC_RMS_DB`], then turns down the few plucks and drum
/// strokes that would pass [`MUSIC_CEILING_DB`] ([`dsp::limit_loop`], which wraps round the
/// loop, so the seam stays as smooth as it was).
pub fn level_music(signal: &[f64]) -> Vec<i16> {
    level_loop(signal, MUSIC_RMS_DB, MUSIC_CEILING_DB)
}

/// Levels a loop to `rms_db` and holds its peaks under `ceiling_db` with the loop limiter:
/// [`level_music`] at another game's levels.
pub fn level_loop(signal: &[f64], rms_db: f64, ceiling_db: f64) -> Vec<i16> {
    let gain = db(rms_db) / rms(signal).max(1e-12);
    let loud: Vec<f64> = signal.iter().map(|s| s * gain).collect();
    dsp::limit_loop(&loud, db(ceiling_db))
        .into_iter()
        .map(to_i16)
        .collect()
}

/// Levels an effect so its peak is [`EFFECT_PEAK_DB`].
pub fn level_effect(signal: &[f64]) -> Vec<i16> {
    let gain = db(EFFECT_PEAK_DB) / peak(signal).max(1e-12);
    signal.iter().map(|&s| to_i16(s * gain)).collect()
}

/// Every sound, music first, in the order they are listed.
pub fn sounds() -> Result<Vec<Sound>, SoundError> {
    let mut out = Vec::new();
    for track in music::tracks() {
        let raw = music::render(&track)?;
        out.push(Sound {
            name: track.name,
            kind: Kind::Music {
                bpm: track.bpm,
                beats: track.beats(),
                beats_per_bar: track.beats_per_bar,
            },
            samples: level_music(&raw),
        });
    }
    for (i, effect) in effects::EFFECTS.iter().enumerate() {
        let mut rng = Rng::new(0xEFFE_C700 + i as u64);
        out.push(Sound {
            name: effect.name,
            kind: Kind::Effect,
            samples: level_effect(&(effect.make)(&mut rng)),
        });
    }
    Ok(out)
}

/// A sound as a WAV file: 16-bit PCM, mono, 22 050 Hz.
pub fn encode_wav(sound: &Sound) -> Result<Vec<u8>, SoundError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let wrap = |source| SoundError::Encode {
        name: sound.name.to_string(),
        source,
    };
    let mut bytes = Cursor::new(Vec::with_capacity(44 + 2 * sound.samples.len()));
    let mut writer = hound::WavWriter::new(&mut bytes, spec).map_err(wrap)?;
    for &s in &sound.samples {
        writer.write_sample(s).map_err(wrap)?;
    }
    writer.finalize().map_err(wrap)?;
    Ok(bytes.into_inner())
}

/// `tracks.json`: every music loop's file, tempo, length in beats and beats to a bar.
pub fn tracks_json(sounds: &[Sound]) -> String {
    let rows: Vec<String> = sounds
        .iter()
        .filter_map(|s| match s.kind {
            Kind::Music {
                bpm,
                beats,
                beats_per_bar,
            } => Some(format!(
                "  {{\"name\": \"{}\", \"bpm\": {bpm}, \"beats\": {beats}, \"beats_per_bar\": {beats_per_bar}}}",
                s.name
            )),
            Kind::Effect => None,
        })
        .collect();
    format!("[\n{}\n]\n", rows.join(",\n"))
}

/// `sounds` as files, `(file name, bytes)`: each WAV, then `tracks.json` when there is music
/// to describe. The sound tools of the other games write theirs with this too.
pub fn files_of(sounds: &[Sound]) -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    let mut files = Vec::new();
    for s in sounds {
        files.push((s.name.to_string(), encode_wav(s)?));
    }
    if sounds.iter().any(|s| matches!(s.kind, Kind::Music { .. })) {
        files.push((TRACKS_JSON.to_string(), tracks_json(sounds).into_bytes()));
    }
    Ok(files)
}

/// Every file the tool writes, as `(file name, bytes)`: the WAVs, then `tracks.json`.
pub fn files() -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    files_of(&sounds()?)
}

/// One file written: its path and size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub path: PathBuf,
    pub bytes: usize,
}

/// Writes every file into `dir` (made if missing). Everything is made and encoded before the
/// first file is written, so a failure there leaves `dir` as it was.
pub fn write_all(dir: &Path) -> Result<Vec<Written>, SoundError> {
    write_files(dir, files()?)
}

/// Writes `files`, already made and encoded, into `dir` (made if missing), naming the path
/// of any that fails.
pub fn write_files(dir: &Path, files: Vec<(String, Vec<u8>)>) -> Result<Vec<Written>, SoundError> {
    std::fs::create_dir_all(dir).map_err(|source| SoundError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    files
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.join(&name);
            std::fs::write(&path, &bytes).map_err(|source| SoundError::Write {
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

/// The folder the committed sounds live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/kotodama/tools/sound; the sounds are projects/kotodama/assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("audio")
}
