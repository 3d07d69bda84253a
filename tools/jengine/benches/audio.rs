//! The mixer's cost: one 60 Hz step (800 frames at 48 kHz) of a looping stereo music track and
//! 32 sound voices at assorted pitches and pans, through `Audio::step` on the null device.
//! A step's time divided by 1/60 s is the fraction of one core that audio takes.

use criterion::{Criterion, criterion_main};
use jengine_tool::audio::{Audio, MAX_VOICES, MusicOptions, SoundOptions};

fn write(path: &std::path::Path, channels: u16, rate: u32, frames: usize) {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for i in 0..frames * channels as usize {
        // A plain sawtooth: the content does not change the cost.
        w.write_sample(((i % 200) as i32 * 300 - 30_000) as i16)
            .unwrap();
    }
    w.finalize().unwrap();
}

fn mix(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("audio")).unwrap();
    write(&dir.path().join("audio/music.wav"), 2, 44_100, 44_100 * 20);
    write(&dir.path().join("audio/voice.wav"), 1, 22_050, 22_050 * 30);
    let mut audio = Audio::null(dir.path());
    audio.music("music.wav", MusicOptions::default()).unwrap();
    let mut n = 0u32;
    let mut top_up = |audio: &mut Audio| {
        while audio.voices() < MAX_VOICES {
            n += 1;
            let options = SoundOptions {
                volume: 0.5,
                pitch: 0.8 + (n % 9) as f32 * 0.1,
                pan: (n % 11) as f32 / 5.0 - 1.0,
            };
            audio.play("voice.wav", options).unwrap();
        }
    };
    top_up(&mut audio);
    c.bench_function("audio: one 60 Hz step, music + 32 voices", |b| {
        b.iter(|| {
            top_up(&mut audio);
            audio.step(1.0 / 60.0);
        })
    });
}

/// Runs every benchmark of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    mix(&mut c);
}

criterion_main!(benches);
