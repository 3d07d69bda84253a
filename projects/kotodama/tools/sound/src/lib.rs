//! Kotodama's sound: four music loops and sixteen effects, scored on the shared synthesiser
//! ([`jengine_synth`]) and written as 16-bit mono WAV files at 22 050 Hz.
//!
//! This crate is the score: the tunes ([`music`]) and the effects ([`effects`]). The
//! instruments, the signal maths, the notation, the levelling and the WAV encoding are the
//! synthesiser's, which is exact on every machine, so a run anywhere writes the committed files
//! under `projects/kotodama/assets/audio/` byte for byte, and `tracks.json` beside them gives
//! each loop's tempo.
//!
//! ```no_run
//! let written = kotodama_sound::write_all(std::path::Path::new("out")).unwrap();
//! assert_eq!(written.len(), 4 + 16 + 1);
//! ```

pub mod effects;
pub mod music;

use std::path::{Path, PathBuf};

pub use jengine_synth::{Sound, SoundError, Written};
use jengine_synth::{files_of, level_music, write_files};

/// The seed the effects' noise starts from (the `i`th effect's is this plus `i`).
const EFFECT_SEED: u64 = 0xEFFE_C700;

/// Every sound, music first, in the order they are listed.
pub fn sounds() -> Result<Vec<Sound>, SoundError> {
    let mut out = Vec::new();
    for track in music::tracks() {
        let raw = jengine_synth::music::render(&track)?;
        out.push(Sound::music(&track, level_music(&raw)));
    }
    out.extend(Sound::effects(&effects::EFFECTS, EFFECT_SEED));
    Ok(out)
}

/// Every file the tool writes, as `(file name, bytes)`: the WAVs, then `tracks.json`.
pub fn files() -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    files_of(&sounds()?)
}

/// Writes every file into `dir` (made if missing). Everything is made and encoded before the
/// first file is written, so a failure there leaves `dir` as it was.
pub fn write_all(dir: &Path) -> Result<Vec<Written>, SoundError> {
    write_files(dir, files()?)
}

/// The folder the committed sounds live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/kotodama/tools/sound; the sounds are projects/kotodama/assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("audio")
}
