//! Pictures of a sound, to check it by eye: the waveform above (min/max and RMS per column,
//! with guides at -12 dBFS and full scale) and a spectrogram below on a log-frequency axis.
//!
//! Plots are never committed, so they use the platform's maths freely.

use std::path::{Path, PathBuf};

use crate::dsp::RATE;
use crate::{Kind, Sound, SoundError};

/// An RGB picture.
pub struct Image {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// Three bytes a pixel, row by row from the top left.
    pub rgb: Vec<u8>,
}

impl Image {
    fn new(width: u32, height: u32, fill: [u8; 3]) -> Image {
        Image {
            width,
            height,
            rgb: fill.repeat((width * height) as usize),
        }
    }

    fn set(&mut self, x: u32, y: u32, c: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = ((y * self.width + x) * 3) as usize;
            self.rgb[i..i + 3].copy_from_slice(&c);
        }
    }

    fn vline(&mut self, x: u32, y0: u32, y1: u32, c: [u8; 3]) {
        for y in y0.min(y1)..=y0.max(y1) {
            self.set(x, y, c);
        }
    }

    fn hline(&mut self, y: u32, c: [u8; 3]) {
        for x in 0..self.width {
            self.set(x, y, c);
        }
    }
}

const WIDTH: u32 = 1200;
const WAVE: u32 = 220;
const GAP: u32 = 8;
const SPECTRUM: u32 = 340;
const BACKGROUND: [u8; 3] = [0x0b, 0x1a, 0x33];
const GOLD: [u8; 3] = [0xf0, 0xc9, 0x6a];
const IVORY: [u8; 3] = [0xf4, 0xea, 0xd8];
const CORAL: [u8; 3] = [0xff, 0x9a, 0x7a];
const GUIDE: [u8; 3] = [0x2c, 0x3c, 0x5c];

/// Draws `samples` at `rate` Hz; `beat` (samples per beat) adds a tick on every beat.
pub fn draw(samples: &[i16], rate: u32, beat: Option<usize>) -> Image {
    let mut img = Image::new(WIDTH, WAVE + GAP + SPECTRUM, BACKGROUND);
    let n = samples.len().max(1);
    let mid = WAVE / 2;
    let y_of = |v: f64| {
        (mid as f64 - v * (mid as f64 - 1.0))
            .round()
            .clamp(0.0, (WAVE - 1) as f64) as u32
    };
    let minus12 = 10f64.powf(-12.0 / 20.0);
    for v in [minus12, -minus12] {
        img.hline(y_of(v), GUIDE);
    }
    img.hline(mid, GUIDE);
    if let Some(beat) = beat.filter(|&b| b > 0) {
        let mut at = 0;
        while at < n {
            let x = (at as u64 * u64::from(WIDTH) / n as u64) as u32;
            img.vline(x, 0, 10, CORAL);
            at += beat;
        }
    }
    for x in 0..WIDTH {
        let a = x as usize * n / WIDTH as usize;
        let b = ((x as usize + 1) * n / WIDTH as usize)
            .max(a + 1)
            .min(samples.len());
        if a >= b {
            continue;
        }
        let part = &samples[a..b];
        let lo = part.iter().copied().min().unwrap_or(0) as f64 / 32768.0;
        let hi = part.iter().copied().max().unwrap_or(0) as f64 / 32768.0;
        img.vline(x, y_of(hi), y_of(lo), GOLD);
        let rms = (part
            .iter()
            .map(|&s| (s as f64 / 32768.0).powi(2))
            .sum::<f64>()
            / part.len() as f64)
            .sqrt();
        img.vline(x, y_of(rms), y_of(-rms), IVORY);
    }

    // Spectrogram: a 1024-point Hann-windowed FFT centred on each column.
    const FFT: usize = 1024;
    let top = WAVE + GAP;
    let (f_lo, f_hi) = (40.0f64, rate as f64 / 2.0);
    let window: Vec<f64> = (0..FFT)
        .map(|i| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / FFT as f64).cos())
        .collect();
    for x in 0..WIDTH {
        let centre = (x as usize * n + n / 2) / WIDTH as usize;
        let mut re: Vec<f64> = (0..FFT)
            .map(|i| {
                let j = centre as i64 + i as i64 - (FFT / 2) as i64;
                if j >= 0 && (j as usize) < samples.len() {
                    samples[j as usize] as f64 / 32768.0 * window[i]
                } else {
                    0.0
                }
            })
            .collect();
        let mut im = vec![0.0; FFT];
        fft(&mut re, &mut im);
        for row in 0..SPECTRUM {
            let frac = 1.0 - row as f64 / (SPECTRUM - 1) as f64;
            let f = f_lo * (f_hi / f_lo).powf(frac);
            let bin = (f * FFT as f64 / rate as f64).round() as usize;
            let bin = bin.clamp(1, FFT / 2 - 1);
            let mag = (re[bin] * re[bin] + im[bin] * im[bin]).sqrt() / (FFT as f64 / 4.0);
            let level = 20.0 * mag.max(1e-9).log10(); // dBFS for a sine
            img.set(x, top + row, heat((level + 96.0) / 96.0));
        }
    }
    // Guides at 100 Hz, 1 kHz and 10 kHz.
    for f in [100.0f64, 1000.0, 10000.0] {
        let frac = (f / f_lo).ln() / (f_hi / f_lo).ln();
        let row = ((1.0 - frac) * (SPECTRUM - 1) as f64).round() as u32;
        for x in (0..WIDTH).step_by(4) {
            img.set(x, top + row, GUIDE);
        }
    }
    img
}

/// A dark-to-bright colour ramp: indigo, coral, gold, ivory.
fn heat(t: f64) -> [u8; 3] {
    let stops: [(f64, [f64; 3]); 5] = [
        (0.0, [0x0b as f64, 0x1a as f64, 0x33 as f64]),
        (0.35, [0x3a as f64, 0x2a as f64, 0x6a as f64]),
        (0.6, [0xff as f64, 0x9a as f64, 0x7a as f64]),
        (0.8, [0xf0 as f64, 0xc9 as f64, 0x6a as f64]),
        (1.0, [0xff as f64, 0xfb as f64, 0xf0 as f64]),
    ];
    let t = t.clamp(0.0, 1.0);
    for w in stops.windows(2) {
        let ((t0, c0), (t1, c1)) = (w[0], w[1]);
        if t <= t1 {
            let a = (t - t0) / (t1 - t0);
            return [0, 1, 2].map(|k| (c0[k] + (c1[k] - c0[k]) * a).round() as u8);
        }
    }
    [0xff, 0xfb, 0xf0]
}

/// An in-place radix-2 FFT (the length must be a power of two).
fn fft(re: &mut [f64], im: &mut [f64]) {
    let n = re.len();
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let step = -std::f64::consts::TAU / len as f64;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let (s, c) = (step * k as f64).sin_cos();
                let (a, b) = (start + k, start + k + len / 2);
                let tr = re[b] * c - im[b] * s;
                let ti = re[b] * s + im[b] * c;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
        len <<= 1;
    }
}

/// The picture as a PNG.
pub fn encode_png(img: &Image) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width, img.height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&img.rgb)?;
    }
    Ok(out)
}

/// Draws every sound into `dir` (made if missing) as `<name>.png`, each with ticks on its
/// beats when it is a loop; a loop longer than two seconds also gets `<name>-seam.png`, its last
/// second then its first, the seam in the middle. Returns the pictures written, in order.
pub fn write_all(dir: &Path, sounds: &[Sound]) -> Result<Vec<PathBuf>, SoundError> {
    std::fs::create_dir_all(dir).map_err(|source| SoundError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for sound in sounds {
        let beat = match sound.kind {
            Kind::Music { bpm, .. } => Some((u64::from(RATE) * 60 / u64::from(bpm)) as usize),
            Kind::Effect => None,
        };
        let stem = sound.name.trim_end_matches(".wav");
        let mut pictures = vec![(format!("{stem}.png"), draw(&sound.samples, RATE, beat))];
        let second = RATE as usize;
        if beat.is_some() && sound.samples.len() > 2 * second {
            let n = sound.samples.len();
            let mut seam = sound.samples[n - second..].to_vec();
            seam.extend_from_slice(&sound.samples[..second]);
            pictures.push((format!("{stem}-seam.png"), draw(&seam, RATE, Some(second))));
        }
        for (file, image) in pictures {
            let bytes = encode_png(&image).map_err(|source| SoundError::Plot {
                name: file.clone(),
                source,
            })?;
            let path = dir.join(file);
            std::fs::write(&path, bytes).map_err(|source| SoundError::Write {
                path: path.clone(),
                source,
            })?;
            written.push(path);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sine_lights_its_own_row_of_the_spectrogram() {
        let rate = 22_050;
        let tone: Vec<i16> = (0..rate)
            .map(|i| {
                ((std::f64::consts::TAU * 1000.0 * i as f64 / rate as f64).sin() * 16000.0) as i16
            })
            .collect();
        let img = draw(&tone, rate, None);
        let x = WIDTH / 2;
        let brightness = |row: u32| {
            let i = (((WAVE + GAP + row) * WIDTH + x) * 3) as usize;
            img.rgb[i..i + 3].iter().map(|&c| c as u32).sum::<u32>()
        };
        let brightest = (0..SPECTRUM).max_by_key(|&r| brightness(r)).unwrap();
        let frac = (1000.0f64 / 40.0).ln() / (11025.0f64 / 40.0).ln();
        let expected = ((1.0 - frac) * (SPECTRUM - 1) as f64).round() as i64;
        assert!(
            (brightest as i64 - expected).abs() <= 2,
            "{brightest} vs {expected}"
        );
    }

    #[test]
    fn every_sound_is_drawn_and_a_long_loop_also_at_its_seam() {
        let dir = tempfile::tempdir().unwrap();
        let sounds = [
            Sound {
                name: "loop.wav",
                kind: Kind::Music {
                    bpm: 60,
                    beats: 3,
                    beats_per_bar: 3,
                },
                samples: vec![100; 3 * 22_050],
            },
            Sound {
                name: "tick.wav",
                kind: Kind::Effect,
                samples: vec![0, 900, 0],
            },
        ];
        let written = write_all(dir.path(), &sounds).unwrap();
        let names: Vec<_> = written
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["loop.png", "loop-seam.png", "tick.png"]);
        assert!(written.iter().all(|p| p.is_file()));
    }
}
