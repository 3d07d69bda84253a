//! The real ALSA path without sound hardware: ALSA's own `file` PCM (defined in its standard
//! configuration, with the `null` PCM behind it) writes every sample it is given to a raw file,
//! which is compared with what the mixer made.
//!
//! Where `libasound.so.2` is missing these tests say so and pass as skipped;
//! `JENGINE_REQUIRE_ALSA=1` (set by `.ci/run`) makes that a failure.

#[path = "audio/helpers.rs"]
mod helpers;

use std::time::{Duration, Instant};

use helpers::*;
use jengine_tool::audio::{AlsaDevice, AlsaError, Audio, Device, MusicOptions, SoundOptions};

const STEP: f64 = 1.0 / 60.0;

/// Opens `pcm`, or says why the test is skipped (None) when the library is not installed.
fn open(pcm: &str) -> Option<AlsaDevice> {
    match AlsaDevice::open(pcm) {
        Ok(device) => Some(device),
        Err(AlsaError::Library(e))
            if std::env::var("JENGINE_REQUIRE_ALSA").as_deref() != Ok("1") =>
        {
            println!(
                "skipped: ALSA is not installed here ({e}); JENGINE_REQUIRE_ALSA=1 makes this a failure"
            );
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn script(audio: &mut Audio) {
    audio.music("pad.wav", MusicOptions::default()).unwrap();
    audio
        .play(
            "blip.wav",
            SoundOptions {
                volume: 0.8,
                pitch: 1.25,
                pan: -0.4,
            },
        )
        .unwrap();
}

fn sounds(assets: &std::path::Path) {
    // Two seconds: the clock, read until half a second has played, must not wrap round.
    let pad: Vec<f32> = (0..88_200)
        .flat_map(|i| [0.6 * triangle(i, 90), 0.3 * triangle(i, 64)])
        .collect();
    write_wav(&audio_path(assets, "pad.wav"), 2, 44_100, 16, false, &pad);
    let blip: Vec<f32> = (0..3_000).map(|i| 0.5 * triangle(i, 30)).collect();
    write_wav(&audio_path(assets, "blip.wav"), 1, 48_000, 16, false, &blip);
}

#[test]
fn the_file_pcm_receives_exactly_the_mixed_samples() {
    let dir = assets();
    sounds(dir.path());
    let out = tempfile::tempdir().unwrap();
    let raw = out.path().join("out.raw");
    let Some(device) = open(&format!("file:'{}',raw", raw.display())) else {
        return;
    };
    assert!(device.name().starts_with("alsa file:"));
    let mut audio = Audio::new(dir.path(), Box::new(device));
    script(&mut audio);
    // Like a game loop: step, and let the writer thread hand the frames to ALSA, until half a
    // second has been played. The device asks for no more than it can queue, so this is also
    // how the frames reach the file. (The wait is bounded; it only stops a hang.)
    let start = Instant::now();
    while audio.clock().position < 0.5 && start.elapsed() < Duration::from_secs(20) {
        audio.step(STEP);
        std::thread::sleep(Duration::from_millis(1));
    }
    let clock = audio.clock();
    assert!(clock.playing && clock.position >= 0.5, "{clock:?}");
    assert!(audio.take_warnings().is_empty());
    // Closing drains the queue into the file.
    drop(audio);

    let bytes = std::fs::read(&raw).unwrap();
    let got: Vec<i16> = bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert!(
        got.len() >= 30 * 800 * 2,
        "only {} samples arrived",
        got.len()
    );

    // The same script on a capture device, converted the way the ALSA device converts.
    let (mut reference, samples) = captured(dir.path());
    script(&mut reference);
    while samples.lock().unwrap().len() < got.len() {
        reference.step(STEP);
    }
    let want: Vec<i16> = samples.lock().unwrap()[..got.len()]
        .iter()
        .map(|&s| (s * 32767.0).round() as i16)
        .collect();
    let first_difference = got.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "the file differs from the mix");
    assert!(
        got.iter().any(|&s| s.abs() > 5_000),
        "the file holds only silence"
    );
}

#[test]
fn an_unknown_device_is_an_error_naming_it() {
    let name = "jengine_no_such_pcm";
    let err = match AlsaDevice::open(name) {
        Ok(_) => panic!("{name} opened"),
        Err(AlsaError::Library(e)) => {
            assert!(
                std::env::var("JENGINE_REQUIRE_ALSA").as_deref() != Ok("1"),
                "{e}"
            );
            println!("skipped: ALSA is not installed here ({e})");
            return;
        }
        Err(e) => e,
    };
    let text = err.to_string();
    assert!(
        text.starts_with("ALSA device \"jengine_no_such_pcm\": cannot open it: "),
        "{text}"
    );
}
