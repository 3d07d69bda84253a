//! Miau's sound: a gentle music loop and eleven effects, synthesised from code and written as
//! 16-bit mono WAV files at 22 050 Hz into `projects/miau/assets/audio/`.
//!
//! The signal maths, the score notation, the WAV encoding and the wood, swish and struck-mode
//! instruments come from the shared synthesiser ([`jengine_synth`]); Miau adds its own lighter voices
//! ([`voices`]: marimba, kalimba, a mew), lays its effects out in [`effects`] and scores its
//! loop in [`music`]. Every step is plain IEEE arithmetic and seeded noise, so a run on any
//! machine writes the committed files byte for byte; `tracks.json` gives the loop's tempo.
//!
//! ```no_run
//! let written = miau_sound::write_all(std::path::Path::new("out")).unwrap();
//! assert_eq!(written.len(), 1 + 11 + 1);
//! ```

pub mod effects;
pub mod music;
pub mod voices;

use std::path::{Path, PathBuf};

pub use jengine_synth::{Kind, Sound, SoundError, TRACKS_JSON, Written, encode_wav, tracks_json};

/// Music is levelled to this RMS (dBFS): quiet, under the effects ...
pub const MUSIC_RMS_DB: f64 = -20.0;
/// ... and its peaks are held under this (dBFS).
pub const MUSIC_CEILING_DB: f64 = -6.0;
/// Every effect's peak (dBFS).
pub const EFFECT_PEAK_DB: f64 = jengine_synth::EFFECT_PEAK_DB;

/// Levels a music loop to [`MUSIC_RMS_DB`], then turns down the few strokes that would pass
/// [`MUSIC_CEILING_DB`] with the synthesiser's loop limiter, which wraps round the loop's ends.
pub fn level_music(signal: &[f64]) -> Vec<i16> {
    jengine_synth::level_loop(signal, MUSIC_RMS_DB, MUSIC_CEILING_DB)
}

pub use jengine_synth::level_effect;

/// The seed the effects' noise starts from (the `i`th effect's is this plus `i`).
const EFFECT_SEED: u64 = 0x4D1A_E000;

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
    out.extend(Sound::effects(&effects::EFFECTS, EFFECT_SEED));
    Ok(out)
}

/// Every file the tool writes, as `(file name, bytes)`: the WAVs, then `tracks.json`.
pub fn files() -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    jengine_synth::files_of(&sounds()?)
}

/// Writes every file into `dir` (made if missing). Everything is made and encoded before the
/// first file is written, so a failure there leaves `dir` as it was.
pub fn write_all(dir: &Path) -> Result<Vec<Written>, SoundError> {
    jengine_synth::write_files(dir, files()?)
}

/// The folder the committed sounds live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/miau/tools/sound; the sounds are projects/miau/assets/audio.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("audio")
}
