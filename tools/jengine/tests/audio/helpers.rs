//! Shared by the audio tests: fixture files written with hound, a device that keeps what it
//! is given, and a waveform plotter.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use jengine_tool::audio::{Audio, Device};
use jengine_tool::render::Frame;

/// A temporary assets folder with an empty `audio/` in it.
pub fn assets() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("audio")).unwrap();
    dir
}

pub fn audio_path(assets: &Path, name: &str) -> PathBuf {
    assets.join("audio").join(name)
}

/// The committed Ogg Vorbis fixture (see tests/audio/README.md).
pub fn tone_ogg() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/audio/tone.ogg")).unwrap()
}

/// Writes `samples` (interleaved, -1..1) as a WAV of the given shape. Integer formats round
/// to the nearest step.
pub fn write_wav(path: &Path, channels: u16, rate: u32, bits: u16, float: bool, samples: &[f32]) {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: bits,
        sample_format: if float {
            hound::SampleFormat::Float
        } else {
            hound::SampleFormat::Int
        },
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for &s in samples {
        if float {
            w.write_sample(s).unwrap();
        } else {
            let full = ((1i64 << (bits - 1)) - 1) as f32;
            let v = (s * full).round() as i32;
            match bits {
                8 => w.write_sample(v as i8).unwrap(),
                16 => w.write_sample(v as i16).unwrap(),
                _ => w.write_sample(v).unwrap(),
            }
        }
    }
    w.finalize().unwrap();
}

/// A 16-bit mono WAV at 48 kHz holding `frames` frames of the constant `level`: with it, what
/// comes out is the gain applied, frame by frame.
pub fn write_dc(assets: &Path, name: &str, level: f32, frames: usize) {
    write_wav(
        &audio_path(assets, name),
        1,
        48_000,
        16,
        false,
        &vec![level; frames],
    );
}

/// A triangle wave in -1..1 with `period` frames, from integer arithmetic only (so fixtures do
/// not depend on the platform's libm).
pub fn triangle(i: usize, period: usize) -> f32 {
    let p = (i % period) as f32 / period as f32;
    if p < 0.25 {
        4.0 * p
    } else if p < 0.75 {
        2.0 - 4.0 * p
    } else {
        4.0 * p - 4.0
    }
}

/// A device that consumes exactly what each step asks for, like the null device, and keeps
/// every sample it was given.
#[derive(Clone, Default)]
pub struct Capture {
    pub samples: Arc<Mutex<Vec<f32>>>,
    played: u64,
}

impl Device for Capture {
    fn name(&self) -> &str {
        "capture"
    }

    fn frames_wanted(&mut self, step_frames: usize) -> usize {
        step_frames
    }

    fn write(&mut self, samples: &[f32]) {
        self.played += (samples.len() / 2) as u64;
        self.samples.lock().unwrap().extend_from_slice(samples);
    }

    fn played(&self) -> u64 {
        self.played
    }
}

/// An [`Audio`] on a [`Capture`] device, and the shared sample store.
pub fn captured(assets: &Path) -> (Audio, Arc<Mutex<Vec<f32>>>) {
    let capture = Capture::default();
    let samples = Arc::clone(&capture.samples);
    (Audio::new(assets, Box::new(capture)), samples)
}

/// FNV-1a over the samples' bit patterns: equal only for bit-for-bit equal output.
pub fn hash(samples: &[f32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for s in samples {
        for b in s.to_bits().to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Plots interleaved stereo samples as two waveforms (left above, right below), each column
/// the range of samples it covers, with a grid line every tenth of a second.
pub fn plot(samples: &[f32], width: u32, height: u32) -> Frame {
    let mut rgba = vec![0u8; (width * height * 4) as usize];
    let mut put = |x: u32, y: u32, c: [u8; 3]| {
        let i = ((y * width + x) * 4) as usize;
        rgba[i..i + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
    };
    for y in 0..height {
        for x in 0..width {
            put(x, y, [250, 250, 246]);
        }
    }
    let frames = samples.len() / 2;
    let lane = height / 2;
    for x in 0..width {
        let from = frames * x as usize / width as usize;
        let to = (frames * (x as usize + 1) / width as usize).max(from + 1);
        let second_tenths = (from * 10 / 48_000, to * 10 / 48_000);
        for ch in 0..2u32 {
            let top = ch * lane;
            let mid = top + lane / 2;
            let y_of = |v: f32| {
                let v = v.clamp(-1.0, 1.0);
                (mid as f32 - v * (lane as f32 / 2.0 - 3.0)).round() as u32
            };
            if second_tenths.0 != second_tenths.1 {
                for y in top..top + lane {
                    put(x, y, [215, 215, 225]);
                }
            }
            put(x, mid, [180, 180, 190]);
            let (mut lo, mut hi) = (f32::MAX, f32::MIN);
            for f in from..to.min(frames) {
                let v = samples[2 * f + ch as usize];
                lo = lo.min(v);
                hi = hi.max(v);
            }
            if lo <= hi {
                let colour = if ch == 0 {
                    [30, 70, 160]
                } else {
                    [170, 50, 40]
                };
                for y in y_of(hi)..=y_of(lo) {
                    put(x, y, colour);
                }
            }
        }
    }
    for x in 0..width {
        put(x, lane, [40, 40, 40]);
    }
    Frame {
        width,
        height,
        rgba,
    }
}
