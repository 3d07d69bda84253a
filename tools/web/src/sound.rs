//! The page's sound device: the runtime mixes into it exactly as into the desktop's, and the
//! page takes the mixed samples out, plays them, and says how far playback has got.
//!
//! The mixed stream is numbered frame by frame. Until the page says its output runs (a user's
//! gesture resumed the page's audio, which is not suspended), the device is the null device:
//! it asks for one step's worth each step and counts it played, so a page nobody has touched,
//! or one asked to be silent, runs sample for sample as a headless run does. Once the output
//! runs, the device keeps about [`AHEAD_FRAMES`] queued in front of what the page reports
//! played, as the desktop's device keeps its sound card fed, and the music clock reads the
//! page's count. What waits for the page is bounded ([`MAX_WAITING_FRAMES`]): a page that stops
//! taking loses what waits, never more.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use jengine_audio::{Device, RATE};

/// Frames kept queued in front of what the page has played, beyond the step being mixed:
/// 80 ms, enough to ride out an animation frame or two that comes late.
pub const AHEAD_FRAMES: usize = RATE as usize * 80 / 1000;

/// The most frames that wait for the page to take them (half a second). Mixing more than that
/// without the page taking any drops what waits.
pub const MAX_WAITING_FRAMES: usize = RATE as usize / 2;

/// What the device and the page share.
#[derive(Debug, Default)]
struct Stream {
    /// Whether the page's output runs; otherwise frames are counted played as they are mixed.
    on: bool,
    /// Frames mixed so far.
    sent: u64,
    /// Frames done without the page: counted while the output was off, or dropped.
    floor: u64,
    /// How far the page has played, as a frame of the stream.
    page_played: u64,
    /// Mixed samples (left, right interleaved) the page has not taken yet.
    waiting: VecDeque<f32>,
    /// The stream frame of the first waiting sample.
    waiting_at: u64,
    warnings: Vec<String>,
    dropped_said: bool,
}

impl Stream {
    fn played(&self) -> u64 {
        if self.on {
            self.floor.max(self.page_played).min(self.sent)
        } else {
            self.sent
        }
    }

    /// Everything mixed so far counts as done and nothing waits.
    fn settle(&mut self) {
        self.waiting.clear();
        self.floor = self.sent;
        self.waiting_at = self.sent;
        self.page_played = self.sent;
    }
}

fn lock(stream: &Mutex<Stream>) -> MutexGuard<'_, Stream> {
    // Every change is one call; a panic while it was held left the stream whole.
    stream.lock().unwrap_or_else(|e| e.into_inner())
}

/// The [`Device`] the runtime mixes into; its other half is the page's [`SoundOutput`].
#[derive(Debug)]
pub struct WebDevice {
    stream: Arc<Mutex<Stream>>,
}

/// The page's half of the device: takes mixed samples, hears how far playback has got.
#[derive(Debug, Clone)]
pub struct SoundOutput {
    stream: Arc<Mutex<Stream>>,
}

/// A device and its page half, sharing one stream; the output starts off.
pub fn web_device() -> (WebDevice, SoundOutput) {
    let stream = Arc::new(Mutex::new(Stream::default()));
    (
        WebDevice {
            stream: stream.clone(),
        },
        SoundOutput { stream },
    )
}

impl Device for WebDevice {
    fn name(&self) -> &str {
        "web audio"
    }

    fn frames_wanted(&mut self, step_frames: usize) -> usize {
        let stream = lock(&self.stream);
        if !stream.on {
            return step_frames;
        }
        let in_flight = (stream.sent - stream.played()) as usize;
        (AHEAD_FRAMES + step_frames)
            .saturating_sub(in_flight)
            .min(step_frames * 4)
    }

    fn write(&mut self, samples: &[f32]) {
        let mut stream = lock(&self.stream);
        let frames = (samples.len() / 2) as u64;
        if !stream.on {
            stream.sent += frames;
            stream.settle();
            return;
        }
        if stream.waiting.len() + samples.len() > MAX_WAITING_FRAMES * 2 {
            stream.sent += frames;
            stream.settle();
            if !stream.dropped_said {
                stream.dropped_said = true;
                stream.warnings.push(format!(
                    "audio: the page took no sound for over {} ms; what waited was dropped",
                    MAX_WAITING_FRAMES as u64 * 1000 / u64::from(RATE)
                ));
            }
            return;
        }
        stream.waiting.extend(&samples[..frames as usize * 2]);
        stream.sent += frames;
    }

    fn played(&self) -> u64 {
        lock(&self.stream).played()
    }

    fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut lock(&self.stream).warnings)
    }
}

impl SoundOutput {
    /// The page's output starts (`true`: a gesture resumed its audio) or stops (suspended,
    /// silent, gone). Either way what was mixed so far counts as played and nothing waits.
    pub fn set_running(&self, on: bool) {
        let mut stream = lock(&self.stream);
        if stream.on != on {
            stream.on = on;
            stream.settle();
        }
    }

    /// Whether the page's output runs.
    pub fn running(&self) -> bool {
        lock(&self.stream).on
    }

    /// Moves every waiting sample into `out` (cleared first, left and right interleaved);
    /// returns the stream frame of the first one. Frames follow on from the last take unless
    /// some were dropped or counted without the page in between.
    pub fn take(&self, out: &mut Vec<f32>) -> u64 {
        let mut stream = lock(&self.stream);
        out.clear();
        out.extend(stream.waiting.drain(..));
        let at = stream.waiting_at;
        stream.waiting_at += (out.len() / 2) as u64;
        at
    }

    /// The page has played the stream up to `frame`. A count that goes back is ignored, and
    /// one past what the page has taken is cut to it.
    pub fn played_to(&self, frame: u64) {
        let mut stream = lock(&self.stream);
        let taken = stream.waiting_at;
        stream.page_played = stream.page_played.max(frame.min(taken));
    }

    /// Frames mixed so far and frames counted played: what the music clock reads.
    pub fn counts(&self) -> (u64, u64) {
        let stream = lock(&self.stream);
        (stream.sent, stream.played())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine::host::{MemoryAssets, MusicOptions, SoundOptions};
    use jengine_audio::{Audio, NullDevice, STEP_FRAMES};

    /// A second of a 440 Hz tone, mono, 16-bit: something to mix.
    fn tone() -> Vec<u8> {
        let mut pcm = Vec::new();
        for i in 0..RATE {
            let s =
                ((i as f64 * 440.0 / RATE as f64 * std::f64::consts::TAU).sin() * 12000.0) as i16;
            pcm.extend_from_slice(&s.to_le_bytes());
        }
        wav(&pcm)
    }

    pub(crate) fn wav(pcm: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"RIFF");
        out.extend_from_slice(&(36 + pcm.len() as u32).to_le_bytes());
        out.extend_from_slice(b"WAVEfmt ");
        out.extend_from_slice(&16u32.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&RATE.to_le_bytes());
        out.extend_from_slice(&(RATE * 2).to_le_bytes());
        out.extend_from_slice(&2u16.to_le_bytes());
        out.extend_from_slice(&16u16.to_le_bytes());
        out.extend_from_slice(b"data");
        out.extend_from_slice(&(pcm.len() as u32).to_le_bytes());
        out.extend_from_slice(pcm);
        out
    }

    fn assets() -> Arc<dyn jengine::host::Assets> {
        let mut assets = MemoryAssets::new();
        assets.insert("audio/tone.wav", tone()).unwrap();
        Arc::new(assets)
    }

    /// Music, then a sound on top a few steps in: a mix whose every sample differs by where it
    /// falls.
    fn play(audio: &mut Audio, steps: usize, mut after_step: impl FnMut(&mut Audio)) {
        let music = MusicOptions {
            looped: true,
            ..MusicOptions::default()
        };
        audio.music("tone.wav", music).unwrap();
        for step in 0..steps {
            if step == 5 {
                let sound = SoundOptions {
                    pitch: 1.5,
                    pan: -0.5,
                    ..SoundOptions::default()
                };
                audio.play("tone.wav", sound).unwrap();
            }
            audio.step(1.0 / 60.0);
            after_step(audio);
        }
    }

    /// A device that keeps a copy of every sample written to the device it wraps.
    struct Tee<D>(Arc<Mutex<Vec<f32>>>, D);

    impl<D: Device> Device for Tee<D> {
        fn name(&self) -> &str {
            "tee"
        }
        fn frames_wanted(&mut self, step_frames: usize) -> usize {
            self.1.frames_wanted(step_frames)
        }
        fn write(&mut self, samples: &[f32]) {
            self.0.lock().unwrap().extend_from_slice(samples);
            self.1.write(samples);
        }
        fn played(&self) -> u64 {
            self.1.played()
        }
    }

    #[test]
    fn a_page_that_keeps_up_is_handed_exactly_the_mixed_samples_in_order() {
        let mixed = Arc::new(Mutex::new(Vec::new()));
        let (device, output) = web_device();
        output.set_running(true);
        let mut audio = Audio::with_assets(assets(), Box::new(Tee(mixed.clone(), device)));
        let mut taken = Vec::new();
        let mut chunk = Vec::new();
        let (mut next, mut played) = (0, 0);
        play(&mut audio, 40, |_| {
            let at = output.take(&mut chunk);
            assert_eq!(at, next, "each take follows on from the last");
            next += (chunk.len() / 2) as u64;
            taken.extend_from_slice(&chunk);
            // The page's output plays one step's worth in the time of a step.
            played += STEP_FRAMES as u64;
            output.played_to(played);
        });
        let mixed = mixed.lock().unwrap().clone();
        assert!(taken.len() >= 40 * STEP_FRAMES * 2, "{}", taken.len());
        assert!(taken.iter().any(|s| s.abs() > 0.1), "something was mixed");
        assert_eq!(
            taken, mixed,
            "the page is handed every mixed sample, in order"
        );
        let (sent, played) = output.counts();
        assert_eq!(sent, next);
        assert_eq!(played, 40 * STEP_FRAMES as u64);
        assert_eq!(
            sent - played,
            AHEAD_FRAMES as u64,
            "what is queued stays about {AHEAD_FRAMES} frames ahead"
        );
        let clock = audio.clock();
        assert!(clock.playing);
        assert_eq!(
            clock.position,
            played as f64 / RATE as f64,
            "the music clock reads what the page played"
        );
    }

    #[test]
    fn a_page_that_never_takes_holds_at_most_what_keeps_the_output_fed() {
        let (device, output) = web_device();
        output.set_running(true);
        let mut audio = Audio::with_assets(assets(), Box::new(device));
        play(&mut audio, 600, |_| {});
        let (sent, played) = output.counts();
        assert_eq!(played, 0, "nothing was played");
        assert_eq!(
            sent as usize,
            AHEAD_FRAMES + STEP_FRAMES,
            "the mixer stops once the queue is full"
        );
        let mut chunk = Vec::new();
        assert_eq!(output.take(&mut chunk), 0);
        assert_eq!(chunk.len(), (AHEAD_FRAMES + STEP_FRAMES) * 2);
    }

    #[test]
    fn mixing_past_the_bound_drops_what_waits_says_so_once_and_moves_the_clock_on() {
        let (mut device, output) = web_device();
        output.set_running(true);
        let samples = vec![0.25f32; MAX_WAITING_FRAMES * 2];
        let max = MAX_WAITING_FRAMES as u64;
        device.write(&samples);
        assert_eq!(device.played(), 0);
        device.write(&samples[..2]);
        assert_eq!(device.played(), max + 1, "what waited counts as done");
        device.write(&samples[..20]);
        device.write(&samples);
        assert_eq!(device.played(), 2 * max + 11);
        device.write(&samples[..8]);
        let warnings = device.take_warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("dropped"), "{warnings:?}");
        let mut chunk = Vec::new();
        assert_eq!(output.take(&mut chunk), 2 * max + 11);
        assert_eq!(chunk.len(), 8);
    }

    #[test]
    fn until_the_output_runs_the_device_is_the_null_device() {
        let (device, output) = web_device();
        let mut audio = Audio::with_assets(assets(), Box::new(device));
        let mut null = Audio::with_assets(assets(), Box::new(NullDevice::new()));
        let mut clocks = Vec::new();
        play(&mut null, 30, |a| clocks.push(a.clock()));
        let mut i = 0;
        play(&mut audio, 30, |a| {
            assert_eq!(a.clock(), clocks[i], "step {i}");
            i += 1;
        });
        let mut chunk = Vec::new();
        output.take(&mut chunk);
        assert!(
            chunk.is_empty(),
            "nothing waits for a page that does not play"
        );
        // Started, then stopped: what was mixed in between counts as played.
        output.set_running(true);
        audio.step(1.0 / 60.0);
        let (sent, played) = output.counts();
        assert!(played < sent);
        output.set_running(false);
        assert_eq!(output.counts(), (sent, sent));
        output.played_to(u64::MAX);
        assert_eq!(
            output.counts().1,
            sent,
            "a count past what was taken is cut"
        );
    }
}
