//! The crawler games' sound: Umber Warren's and Seven Stairs' effects, Umber Warren's drone and
//! Seven Stairs' town music and dungeon ambience, synthesised from code and written as 16-bit
//! mono WAV files at 22 050 Hz into each game's `assets/audio/`.
//!
//! The signal maths, the koto and the score notation are the shared synthesiser's
//! ([`jengine_synth`]), which is exact on every machine; this crate adds the crawl's own voices
//! ([`voices`]: footsteps, creaks, clinks, growls, drones), lays out the effects ([`effects`])
//! and the loops ([`music`]), and levels and writes them with the synthesiser, so a run
//! anywhere writes the committed files byte for byte.
//!
//! ```no_run
//! use crawler_sound::Game;
//! let written = crawler_sound::write_all(Game::Warren, &Game::Warren.committed_dir()).unwrap();
//! assert_eq!(written.len(), 1 + crawler_sound::effects::EFFECTS.len());
//! ```

pub mod effects;
pub mod music;
pub mod voices;

use std::path::{Path, PathBuf};

pub use jengine_synth::Written;
use jengine_synth::dsp::RATE;
use jengine_synth::{Kind, Sound, SoundError, level_music, wavs_of, write_files};

/// Which game's sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Umber Warren (projects/arcade-classics).
    Warren,
    /// Seven Stairs (projects/rpg-classics).
    Stairs,
}

impl Game {
    /// Both games, in the order they are written.
    pub const ALL: [Game; 2] = [Game::Warren, Game::Stairs];

    /// The project folder's name under `projects/`.
    pub fn project(self) -> &'static str {
        match self {
            Game::Warren => "arcade-classics",
            Game::Stairs => "rpg-classics",
        }
    }

    /// The folder its committed sounds live in, found from this crate's own folder.
    pub fn committed_dir(self) -> PathBuf {
        // This crate is tools/crawler-sound; the games are projects/<game>/assets/audio/.
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
        root.join("projects")
            .join(self.project())
            .join("assets")
            .join("audio")
    }

    /// The seed its effects' noise starts from, so the two games' footsteps are not the very
    /// same footstep.
    fn seed(self) -> u64 {
        match self {
            Game::Warren => 0xC2A0_1000,
            Game::Stairs => 0xC2A0_2000,
        }
    }
}

/// Every sound of a game: its loops first, then the effects.
pub fn sounds(game: Game) -> Result<Vec<Sound>, SoundError> {
    let mut out = Vec::new();
    let drones = match game {
        Game::Warren => vec![music::WARREN_DRONE],
        Game::Stairs => {
            let town = music::town();
            out.push(Sound::music(&town, level_music(&music::render(&town)?)));
            vec![music::STAIRS_DEEP]
        }
    };
    for drone in drones {
        // A drone has no beat; it is listed as one 60 bpm bar as long as the loop.
        let beats = drone.seconds as u32;
        out.push(Sound {
            name: drone.name,
            kind: Kind::Music {
                bpm: 60,
                beats,
                beats_per_bar: beats,
            },
            samples: level_music(&drone.render()),
        });
    }
    out.extend(Sound::effects(effects::EFFECTS, game.seed()));
    Ok(out)
}

/// Every file the tool writes for a game, as `(file name, bytes)`.
pub fn files(game: Game) -> Result<Vec<(String, Vec<u8>)>, SoundError> {
    wavs_of(&sounds(game)?)
}

/// Writes a game's files into `dir` (made if missing). Everything is made and encoded before
/// the first file is written, so a failure there leaves `dir` as it was.
pub fn write_all(game: Game, dir: &Path) -> Result<Vec<Written>, SoundError> {
    write_files(dir, files(game)?)
}

/// Samples per second of every file.
pub const SAMPLE_RATE: u32 = RATE;
