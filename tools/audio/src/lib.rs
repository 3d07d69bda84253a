//! Audio: music and sound effects from `assets/audio/`, mixed at 48 kHz and played through a
//! [`Device`] the host hands in (the desktop tool's is ALSA) or, headless, through a null device
//! that keeps exact time. Nothing here opens a sound card or a path: devices are the host's, and
//! files are read through the project's [`Assets`].
//!
//! [`Audio`] is the front the runtime drives: commands change the [`Mixer`] at the current
//! output frame, [`Audio::step`] mixes what the [`Device`] asks for, and [`Audio::clock`] reports
//! the music position at the frame the device has actually played. Files are decoded once
//! ([`decode`]) and kept; values from scripts are checked here, so the mixer only sees sane ones.
//! What a sound is asked with ([`MusicOptions`], [`SoundOptions`], [`VolumeKind`]) is the seam's
//! own types, taken as a script's request carries them.

mod decode;
mod device;
mod mixer;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

pub use decode::{MAX_CHANNELS, MAX_SECONDS, RATE, Sound, decode};
pub use device::{Device, NullDevice};
pub use jengine::host::{MusicOptions, SoundOptions, VolumeKind};
pub use mixer::{DECLICK, MAX_VOICES, Mixer};

use jengine::MusicClock;
use jengine::host::{AssetProblem, Assets, DiskAssets, within};

/// Game time per fixed step, in frames: 800 at 48 kHz and 60 Hz.
pub const STEP_FRAMES: usize = RATE as usize / 60;
/// The longest fade accepted, in seconds.
pub const MAX_FADE: f64 = 10.0;
/// The pitch range (a playback-rate multiplier).
pub const PITCH: std::ops::RangeInclusive<f64> = 0.25..=4.0;
/// The longest step accepted by [`Audio::step`]: a stall mixes at most this much at once.
const MAX_STEP_SECONDS: f64 = 0.25;
/// The largest file read, a bound before any decoding starts.
const MAX_FILE_BYTES: u64 = 256 << 20;

/// Why an audio call did nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum AudioError {
    /// The file `assets/audio/<name>` is refused, missing or not decodable.
    File {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A number that is not a number (NaN or infinite), or a tempo that is not positive.
    Value {
        /// Which value (`volume`, `pitch`, `pan`, `fade`, `bpm`).
        what: &'static str,
        /// As given.
        value: f64,
    },
}

impl fmt::Display for AudioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioError::File { name, problem } => write!(f, "assets/audio/{name}: {problem}"),
            AudioError::Value { what: "bpm", value } => {
                write!(f, "audio: bpm must be a positive number, not {value}")
            }
            AudioError::Value { what, value } => {
                write!(f, "audio: {what} must be a finite number, not {value}")
            }
        }
    }
}

impl std::error::Error for AudioError {}

/// A finite value clamped into `lo..=hi`; NaN and infinities are refused. The value is widened
/// to f64 first, so the mixer's arithmetic runs in f64 on exactly what was asked.
fn finite(what: &'static str, value: f32, lo: f64, hi: f64) -> Result<f64, AudioError> {
    let value = f64::from(value);
    if value.is_finite() {
        Ok(value.clamp(lo, hi))
    } else {
        Err(AudioError::Value { what, value })
    }
}

fn fade_frames(fade: f32) -> Result<u32, AudioError> {
    let seconds = finite("fade", fade, 0.0, MAX_FADE)?;
    Ok((seconds * RATE as f64).round() as u32)
}

/// Reads and decodes `<name>` from `folder`, the files of a project's `assets/audio`.
fn load(folder: &dyn Assets, name: &str) -> Result<Sound, AudioError> {
    let failed = |problem: String| AudioError::File {
        name: name.to_string(),
        problem,
    };
    jengine::host::check_asset_name(name).map_err(|e| failed(e.to_string()))?;
    let bytes = folder
        .read_at_most(name, MAX_FILE_BYTES)
        .map_err(|e| match e.problem {
            AssetProblem::Folder => failed("is a folder, not a file".into()),
            AssetProblem::TooLarge { size, most } => failed(format!(
                "{size} bytes is over the {most}-byte limit for one sound"
            )),
            problem => failed(format!("cannot be read: {problem}")),
        })?;
    decode(&bytes).map_err(failed)
}

/// Checks that `assets/audio/<name>` under `assets_dir` on disk is there and decodes, for
/// `jengine check`. The message names the file.
pub fn check_file(assets_dir: &Path, name: &str) -> Result<(), String> {
    check_file_in(Arc::new(DiskAssets::new(assets_dir)), name)
}

/// [`check_file`] for `assets`, the files of a project's `assets` folder.
pub fn check_file_in(assets: Arc<dyn Assets>, name: &str) -> Result<(), String> {
    load(&*within(&assets, "audio"), name)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The engine's front: a mixer, a device, and the decoded sounds by name.
pub struct Audio {
    /// The files of the project's `assets/audio`.
    folder: Arc<dyn Assets>,
    device: Box<dyn Device>,
    mixer: Mixer,
    /// Each file decoded once; a failure is kept too, so a bad file is read once.
    cache: HashMap<String, Result<Arc<Sound>, AudioError>>,
    warnings: Vec<String>,
    /// The fraction of a frame owed from earlier steps.
    carry: f64,
    buffer: Vec<f32>,
}

impl Audio {
    /// Sounds from `<assets_dir>/audio/` on disk, played on `device`.
    pub fn new(assets_dir: &Path, device: Box<dyn Device>) -> Audio {
        Audio::with_assets(Arc::new(DiskAssets::new(assets_dir)), device)
    }

    /// Sounds from `audio/` of `assets` (the files of a project's `assets` folder), played on
    /// `device`.
    pub fn with_assets(assets: Arc<dyn Assets>, device: Box<dyn Device>) -> Audio {
        Audio {
            folder: within(&assets, "audio"),
            device,
            mixer: Mixer::new(),
            cache: HashMap::new(),
            warnings: Vec::new(),
            carry: 0.0,
            buffer: Vec::new(),
        }
    }

    /// On the [`NullDevice`]: silent, exact, the same every run.
    pub fn null(assets_dir: &Path) -> Audio {
        Audio::new(assets_dir, Box::new(NullDevice::new()))
    }

    /// Audio on the device `open` gives, or on the null device with a warning when it gives
    /// none (no sound card, no library): the game plays on, silently.
    pub fn open_with(
        assets_dir: &Path,
        open: impl FnOnce() -> Result<Box<dyn Device>, String>,
    ) -> Audio {
        Audio::open_in(Arc::new(DiskAssets::new(assets_dir)), open)
    }

    /// [`Audio::open_with`] with sounds from `assets`, the files of a project's `assets` folder.
    pub fn open_in(
        assets: Arc<dyn Assets>,
        open: impl FnOnce() -> Result<Box<dyn Device>, String>,
    ) -> Audio {
        match open() {
            Ok(device) => Audio::with_assets(assets, device),
            Err(e) => {
                let mut audio = Audio::with_assets(assets, Box::new(NullDevice::new()));
                audio
                    .warnings
                    .push(format!("audio: no sound output ({e}); playing silently"));
                audio
            }
        }
    }

    /// The device's name (`null`, `alsa default`).
    pub fn device_name(&self) -> &str {
        self.device.name()
    }

    /// Forgets every decoded sound, so the next play reads its file again (an editor's hot
    /// reload). Sounds playing now play on.
    pub fn forget(&mut self) {
        self.cache.clear();
    }

    /// Decodes `name` now (if it never was), so its first play does not wait for it.
    pub fn preload(&mut self, name: &str) -> Result<(), AudioError> {
        self.sound(name).map(|_| ())
    }

    fn sound(&mut self, name: &str) -> Result<Arc<Sound>, AudioError> {
        if let Some(found) = self.cache.get(name) {
            return found.clone();
        }
        let loaded = load(&*self.folder, name).map(Arc::new);
        self.cache.insert(name.to_string(), loaded.clone());
        loaded
    }

    /// Starts `name` as the music (replacing the current track, crossfading over
    /// `options.fade`).
    pub fn music(&mut self, name: &str, options: MusicOptions) -> Result<(), AudioError> {
        let volume = finite("volume", options.volume, 0.0, 1.0)?;
        let fade = fade_frames(options.fade)?;
        let bpm = options.bpm.map(f64::from);
        if let Some(bpm) = bpm
            && !(bpm.is_finite() && bpm > 0.0)
        {
            return Err(AudioError::Value {
                what: "bpm",
                value: bpm,
            });
        }
        let sound = self.sound(name)?;
        self.mixer
            .play_music(sound, options.looped, volume as f32, fade, bpm);
        Ok(())
    }

    /// Pauses the music; the clock holds its position.
    pub fn pause_music(&mut self) {
        self.mixer.pause_music();
    }

    /// Resumes paused music where it was.
    pub fn resume_music(&mut self) {
        self.mixer.resume_music();
    }

    /// Fades the music out over `fade` seconds (0..10) and stops it; the clock goes to rest.
    pub fn stop_music(&mut self, fade: f32) -> Result<(), AudioError> {
        let fade = fade_frames(fade)?;
        self.mixer.stop_music(fade);
        Ok(())
    }

    /// Plays `name` once as a sound.
    pub fn play(&mut self, name: &str, options: SoundOptions) -> Result<(), AudioError> {
        let volume = finite("volume", options.volume, 0.0, 1.0)?;
        let pitch = finite("pitch", options.pitch, *PITCH.start(), *PITCH.end())?;
        let pan = finite("pan", options.pan, -1.0, 1.0)?;
        let sound = self.sound(name)?;
        self.mixer.play(sound, volume as f32, pitch, pan);
        Ok(())
    }

    /// Sets the master, music or sound volume (0..1).
    pub fn volume(&mut self, kind: VolumeKind, volume: f32) -> Result<(), AudioError> {
        let volume = finite("volume", volume, 0.0, 1.0)?;
        self.mixer.set_volume(kind, volume as f32);
        Ok(())
    }

    /// Advances by `dt` seconds of game time (1/60 for one frame): mixes the frames the device
    /// asks for and hands them over. A negative, NaN or huge `dt` counts as 0 or 0.25 s.
    pub fn step(&mut self, dt: f64) {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, MAX_STEP_SECONDS)
        } else {
            0.0
        };
        // 1/60 s is not exact in binary; the tiny allowance makes it exactly 800 frames.
        let owed = dt * RATE as f64 + self.carry;
        let whole = (owed + 1e-6).floor();
        self.carry = owed - whole;
        let frames = self.device.frames_wanted(whole as usize);
        self.buffer.resize(frames * 2, 0.0);
        self.mixer.mix(&mut self.buffer);
        self.device.write(&self.buffer);
        self.mixer.prune(self.device.played());
    }

    /// The music clock at the frame the device has actually played.
    pub fn clock(&self) -> MusicClock {
        self.mixer.clock(self.device.played())
    }

    /// Sound voices playing.
    pub fn voices(&self) -> usize {
        self.mixer.voices()
    }

    /// Problems met since the last call (a device that failed, ...), each said once.
    pub fn take_warnings(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.warnings);
        out.extend(self.device.take_warnings());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine::host::MemoryAssets;

    fn beep() -> Vec<u8> {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: RATE,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut bytes = Vec::new();
        let mut w = hound::WavWriter::new(std::io::Cursor::new(&mut bytes), spec).unwrap();
        for i in 0..4_800 {
            w.write_sample(((i % 100) * 300) as i16).unwrap();
        }
        w.finalize().unwrap();
        bytes
    }

    #[test]
    fn sounds_in_memory_play_and_fail_as_sounds_on_disk_do() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("audio/sub")).unwrap();
        std::fs::write(dir.path().join("audio/beep.wav"), beep()).unwrap();
        std::fs::write(dir.path().join("audio/sub/x.wav"), b"x").unwrap();
        let mut memory = MemoryAssets::new();
        memory.insert("audio/beep.wav", beep()).unwrap();
        memory.insert("audio/sub/x.wav", "x").unwrap();
        let sets: [Arc<dyn Assets>; 2] = [Arc::new(DiskAssets::new(dir.path())), Arc::new(memory)];
        let mut mixed = Vec::new();
        for assets in sets {
            let mut audio = Audio::with_assets(assets.clone(), Box::new(NullDevice::new()));
            audio.play("beep.wav", SoundOptions::default()).unwrap();
            audio.step(1.0 / 60.0);
            assert_eq!(audio.voices(), 1);
            let said = |name: &str| {
                let mut audio = Audio::with_assets(assets.clone(), Box::new(NullDevice::new()));
                audio
                    .play(name, SoundOptions::default())
                    .unwrap_err()
                    .to_string()
            };
            assert_eq!(
                said("nope.wav"),
                "assets/audio/nope.wav: cannot be read: no such file"
            );
            assert_eq!(said("sub"), "assets/audio/sub: is a folder, not a file");
            assert_eq!(
                said("../beep.wav"),
                "assets/audio/../beep.wav: \"../beep.wav\" leaves its folder: asset names are \
                 relative paths inside it"
            );
            assert_eq!(check_file_in(assets.clone(), "beep.wav"), Ok(()));
            assert!(check_file_in(assets, "sub/x.wav").is_err());
            mixed.push(audio.clock());
        }
        assert_eq!(mixed[0], mixed[1]);
    }
}
