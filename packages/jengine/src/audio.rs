//! What scripts ask of the host's sound: `Audio.*` calls become [`AudioRequest`]s in a queue
//! the host drains every frame.
//!
//! The seam only carries the requests and checks them; decoding, mixing and the device are the
//! host's. The option types here are the host mixer's too, so a request reaches it as it was
//! asked. The music clock the host reports back is [`crate::MusicClock`].

use serde::Deserialize;

/// One thing a script asked the sound to do.
#[derive(Debug, Clone, PartialEq)]
pub enum AudioRequest {
    /// Start a music track (`assets/audio/<name>`), replacing the one playing.
    Music {
        /// The file under `assets/audio/`.
        name: String,
        /// How it plays.
        options: MusicOptions,
    },
    /// Pause the music where it is.
    PauseMusic,
    /// Go on from where it paused.
    ResumeMusic,
    /// Stop the music, fading out over `fade` seconds.
    StopMusic {
        /// Seconds of fade (0 stops at once).
        fade: f32,
    },
    /// Play a sound once.
    Play {
        /// The file under `assets/audio/`.
        name: String,
        /// How it plays.
        options: SoundOptions,
    },
    /// Set one of the volumes.
    Volume {
        /// Which.
        kind: VolumeKind,
        /// 0 silent to 1 full.
        value: f32,
    },
}

/// How a music track plays. Every field may be left out.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MusicOptions {
    /// Start again from the top when it ends (default true).
    #[serde(rename = "loop")]
    pub looped: bool,
    /// The track's own volume, 0 to 1 (default 1).
    pub volume: f32,
    /// Seconds to fade in, and to fade out the track it replaces, 0 to 10 (default 0).
    pub fade: f32,
    /// The track's tempo, for what follows the beat; the music clock reports it (default none).
    pub bpm: Option<f32>,
}

impl Default for MusicOptions {
    fn default() -> Self {
        MusicOptions {
            looped: true,
            volume: 1.0,
            fade: 0.0,
            bpm: None,
        }
    }
}

/// How a sound plays. Every field may be left out.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SoundOptions {
    /// 0 to 1 (default 1).
    pub volume: f32,
    /// Playback speed, 0.25 to 4 (default 1): 2 is an octave up and twice as short.
    pub pitch: f32,
    /// -1 left to 1 right, equal-power (default 0).
    pub pan: f32,
}

impl Default for SoundOptions {
    fn default() -> Self {
        SoundOptions {
            volume: 1.0,
            pitch: 1.0,
            pan: 0.0,
        }
    }
}

/// Which volume `Audio.volume` sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VolumeKind {
    /// Everything.
    Master,
    /// The music.
    Music,
    /// The sounds.
    Sound,
}

impl VolumeKind {
    /// `master`, `music` or `sound`.
    pub fn parse(name: &str) -> Result<VolumeKind, String> {
        match name {
            "master" => Ok(VolumeKind::Master),
            "music" => Ok(VolumeKind::Music),
            "sound" => Ok(VolumeKind::Sound),
            other => Err(format!(
                "{other:?} is not a volume (master, music or sound)"
            )),
        }
    }
}

/// The requests made this frame, in call order; the host takes them after the commands apply.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AudioQueue(pub Vec<AudioRequest>);

/// Reads an options table (absent is the defaults), checking every number is finite and in
/// range.
pub(crate) fn options<T: serde::de::DeserializeOwned + Default>(
    table: Option<serde_json::Value>,
) -> Result<T, String> {
    match table {
        None => Ok(T::default()),
        // An empty Lua table arrives as an empty list.
        Some(serde_json::Value::Array(a)) if a.is_empty() => Ok(T::default()),
        Some(v) => crate::convert::parse_json(&v.to_string()),
    }
}

fn within(what: &str, v: f32, least: f32, most: f32) -> Result<f32, String> {
    if v.is_finite() && (least..=most).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{what} must be between {least} and {most}, got {v}"
        ))
    }
}

impl MusicOptions {
    pub(crate) fn checked(self) -> Result<MusicOptions, String> {
        within("volume", self.volume, 0.0, 1.0)?;
        within("fade", self.fade, 0.0, 10.0)?;
        if let Some(bpm) = self.bpm {
            within("bpm", bpm, 1.0, 600.0)?;
        }
        Ok(self)
    }
}

impl SoundOptions {
    pub(crate) fn checked(self) -> Result<SoundOptions, String> {
        within("volume", self.volume, 0.0, 1.0)?;
        within("pitch", self.pitch, 0.25, 4.0)?;
        within("pan", self.pan, -1.0, 1.0)?;
        Ok(self)
    }
}
