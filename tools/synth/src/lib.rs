//! The synthesiser the games' sound tools share: music loops and effects made from code and
//! written as 16-bit mono WAV files at 22 050 Hz, byte for byte the same on every machine.
//!
//! Instruments ([`instruments`]) are built from deterministic signal maths ([`dsp`]); music is
//! scored in a small text notation ([`score`]) and rendered into seamless loops ([`music`]);
//! effects are strokes laid out on a [`canvas`]. A game's sound tool is its score on top of
//! this: its tracks and [`Effect`]s, levelled ([`level_loop`], [`level_effect`]), turned into
//! files ([`files_of`]) and written ([`write_files`]). [`plot`] draws a sound to judge by eye,
//! and [`check`] reads a committed WAV back for the tools' tests. In order of priority:
//!
//! 1. Byte for byte the same on every machine: only `+ - * /`, `floor`, `round`, `sqrt` and
//!    `abs`, which IEEE 754 defines exactly; the sine and exponential are [`dsp`]'s own; all
//!    noise is a seeded [`dsp::Rng`]. So a game's committed sounds are a test away from a run.
//! 2. Loops without a seam: whatever rings past a loop's end sounds again from its start.
//! 3. A mistake in a score is named where it was written (track, voice, character).
//!
//! ```no_run
//! use jengine_synth::{Effect, Sound, canvas, dsp::Rng, instruments};
//!
//! fn tick(rng: &mut Rng) -> Vec<f64> {
//!     let room = canvas::Room { size: 0.3, damp: 0.5, fade_in: 0.002 };
//!     let mut c = canvas::Canvas::new(0.1, room);
//!     c.add(0.0, &instruments::wood(1.5, 0.8, rng), 1.0);
//!     c.finish(0.1, 0.03)
//! }
//!
//! const EFFECTS: [Effect; 1] = [Effect { name: "tick.wav", make: tick }];
//! let sounds = Sound::effects(&EFFECTS, 0x7105);
//! let files = jengine_synth::files_of(&sounds).unwrap();
//! jengine_synth::write_files(std::path::Path::new("out"), files).unwrap();
//! ```

pub mod canvas;
pub mod check;
pub mod dsp;
pub mod instruments;
pub mod music;
pub mod plot;
pub mod score;

use std::fmt;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use dsp::{RATE, Rng, db, peak, rms};

/// Music is levelled to this RMS (dBFS) by [`level_music`] ...
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
        /// Where.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A sound could not be encoded as WAV.
    Encode {
        /// The sound's file name.
        name: String,
        /// Why.
        source: hound::Error,
    },
    /// A plot could not be encoded as PNG.
    Plot {
        /// The picture's file name.
        name: String,
        /// Why.
        source: png::EncodingError,
    },
    /// A voice's score does not parse.
    Score {
        /// The track's file name.
        track: &'static str,
        /// The voice's name.
        voice: &'static str,
        /// What is wrong, and at which character.
        source: score::ScoreError,
    },
    /// A voice's score is not as long as its track.
    VoiceLength {
        /// The track's file name.
        track: &'static str,
        /// The voice's name.
        voice: &'static str,
        /// How long the line is, in ticks.
        ticks: u32,
        /// How long the track is, in ticks.
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
    /// A loop, listed in `tracks.json` with its tempo.
    Music {
        /// Beats a minute; 60 × 22 050 is a whole number of them.
        bpm: u32,
        /// Beats in the loop.
        beats: u32,
        /// Beats to a bar.
        beats_per_bar: u32,
    },
    /// A one-shot effect.
    Effect,
}

/// One effect of a game's score: its file name and how it is made from a seeded noise stream.
pub struct Effect {
    /// The file name, `<name>.wav`.
    pub name: &'static str,
    /// Makes the effect, as floats about -1..1 (levelled afterwards).
    pub make: fn(&mut Rng) -> Vec<f64>,
}

/// One finished sound: its file name, kind and 16-bit samples.
#[derive(Clone, Debug)]
pub struct Sound {
    /// The file name, `<name>.wav`.
    pub name: &'static str,
    /// A loop or an effect.
    pub kind: Kind,
    /// The levelled samples.
    pub samples: Vec<i16>,
}

impl Sound {
    /// A track's loop, rendered and levelled into `samples`.
    pub fn music(track: &music::Track, samples: Vec<i16>) -> Sound {
        Sound {
            name: track.name,
            kind: Kind::Music {
                bpm: track.bpm,
                beats: track.beats(),
                beats_per_bar: track.beats_per_bar,
            },
            samples,
        }
    }

    /// Every effect of `effects`, in order, levelled by [`level_effect`]; the `i`th is made
    /// from the noise stream seeded `seed + i`, so each game's effects sound as its own.
    pub fn effects(effects: &[Effect], seed: u64) -> Vec<Sound> {
        effects
            .iter()
            .enumerate()
            .map(|(i, effect)| {
                let mut rng = Rng::new(seed + i as u64);
                Sound {
                    name: effect.name,
                    kind: Kind::Effect,
                    samples: level_effect(&(effect.make)(&mut rng)),
                }
            })
            .collect()
    }

    /// One line for a tool's output: name, length, peak and RMS level.
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
/// [`level_music`] at a game's own levels.
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
/// to describe.
pub fn files_of(sounds: &[Sound]) -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    let mut files = wavs_of(sounds)?;
    if sounds.iter().any(|s| matches!(s.kind, Kind::Music { .. })) {
        files.push((TRACKS_JSON.to_string(), tracks_json(sounds).into_bytes()));
    }
    Ok(files)
}

/// `sounds` as WAV files only, `(file name, bytes)`, for a game that keeps its tempos
/// elsewhere.
pub fn wavs_of(sounds: &[Sound]) -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    sounds
        .iter()
        .map(|s| Ok((s.name.to_string(), encode_wav(s)?)))
        .collect()
}

/// One file written: its path and size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Where.
    pub path: PathBuf,
    /// How many bytes.
    pub bytes: usize,
}

/// Writes `files`, already made and encoded, into `dir` (made if missing), naming the path
/// of any that fails. Callers make everything first, so a failure there leaves `dir` as it was.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn click(_: &mut Rng) -> Vec<f64> {
        vec![0.0, 0.5, -0.25, 0.0]
    }

    fn noise(rng: &mut Rng) -> Vec<f64> {
        let mut s: Vec<f64> = (0..64).map(|_| rng.signed()).collect();
        s[0] = 0.0;
        s[63] = 0.0;
        s
    }

    const EFFECTS: [Effect; 2] = [
        Effect {
            name: "click.wav",
            make: click,
        },
        Effect {
            name: "noise.wav",
            make: noise,
        },
    ];

    #[test]
    fn effects_peak_at_the_effect_level_each_from_its_own_seed() {
        let sounds = Sound::effects(&EFFECTS, 40);
        assert_eq!(sounds.len(), 2);
        let peak_db = check::dbfs(check::peak(&sounds[0].samples));
        assert!((peak_db - EFFECT_PEAK_DB).abs() < 0.01, "{peak_db}");
        assert_eq!(sounds[0].samples, [0, 8231, -4115, 0]);
        let own = level_effect(&noise(&mut Rng::new(41)));
        assert_eq!(sounds[1].samples, own);
        assert_ne!(Sound::effects(&EFFECTS, 41)[1].samples, own);
    }

    #[test]
    fn a_loop_is_levelled_to_its_rms_with_peaks_under_its_ceiling() {
        let signal: Vec<f64> = (0..22_050)
            .map(|i| {
                dsp::sin_turns(f64::from(i) * 220.0 / dsp::SR)
                    * if i % 5000 < 40 { 4.0 } else { 1.0 }
            })
            .collect();
        let s = level_loop(&signal, -20.0, -6.0);
        let (p, r) = (check::dbfs(check::peak(&s)), check::dbfs(check::rms(&s)));
        assert!(p <= -5.99, "peak {p}");
        assert!((-21.0..=-19.0).contains(&r), "rms {r}");
    }

    #[test]
    fn tracks_json_lists_only_the_music_and_files_end_with_it() {
        let loop_ = Sound {
            name: "a.wav",
            kind: Kind::Music {
                bpm: 90,
                beats: 12,
                beats_per_bar: 3,
            },
            samples: vec![0; 4],
        };
        let sounds = vec![loop_, Sound::effects(&EFFECTS[..1], 1).remove(0)];
        assert_eq!(
            tracks_json(&sounds),
            "[\n  {\"name\": \"a.wav\", \"bpm\": 90, \"beats\": 12, \"beats_per_bar\": 3}\n]\n"
        );
        let files = files_of(&sounds).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, ["a.wav", "click.wav", TRACKS_JSON]);
        assert_eq!(files[0].1.len(), 44 + 2 * 4);
        assert_eq!(wavs_of(&sounds).unwrap().len(), 2);
        assert_eq!(files_of(&sounds[1..]).unwrap().len(), 1);
    }

    #[test]
    fn writing_where_a_file_stands_fails_naming_it_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("audio");
        std::fs::write(&blocker, b"not a folder").unwrap();
        let err = write_files(&blocker, vec![("a.wav".into(), vec![1])]).unwrap_err();
        assert!(
            err.to_string().contains(&blocker.display().to_string()),
            "{err}"
        );
        assert_eq!(std::fs::read(&blocker).unwrap(), b"not a folder");
    }
}
