//! Output devices: where mixed frames go, and how many of them have really been played.
//!
//! The device, not a timer, decides how much to mix each step and reports how far playback
//! has got; that count is what the music clock reads. The null device consumes exactly one
//! step's worth per step, so a headless run is the same, sample for sample, every time.

/// Something that plays interleaved stereo f32 frames at 48 kHz.
pub trait Device: Send {
    /// A short name for messages (`null`, `alsa default`).
    fn name(&self) -> &str;

    /// How many frames to mix now, given that one fixed step of game time is `step_frames`.
    fn frames_wanted(&mut self, step_frames: usize) -> usize;

    /// Takes mixed frames (interleaved left, right; samples in -1..1). Must not block for long:
    /// it is called on the game's frame.
    fn write(&mut self, samples: &[f32]);

    /// Frames consumed by the output so far: written frames that have been played, or at
    /// least handed to the hardware and no longer queued in front of it.
    fn played(&self) -> u64;

    /// Problems met since the last call, each said once.
    fn take_warnings(&mut self) -> Vec<String> {
        Vec::new()
    }
}

/// Plays nothing and consumes exactly what each step asks for: 800 frames per 60 Hz step.
#[derive(Debug, Default, Clone)]
pub struct NullDevice {
    played: u64,
}

impl NullDevice {
    /// A null device that has played nothing yet.
    pub fn new() -> NullDevice {
        NullDevice::default()
    }
}

impl Device for NullDevice {
    fn name(&self) -> &str {
        "null"
    }

    fn frames_wanted(&mut self, step_frames: usize) -> usize {
        step_frames
    }

    fn write(&mut self, samples: &[f32]) {
        self.played += (samples.len() / 2) as u64;
    }

    fn played(&self) -> u64 {
        self.played
    }
}
