//! The audio engine through its front: the golden mix, determinism, the music clock, fades,
//! loops, pause, voices, values from scripts, and every kind of bad file.
//!
//! Fixture sounds are written by the tests with hound (plus the committed `tests/audio/tone.ogg`);
//! constant-level ("DC") sounds make the gain applied at each frame directly visible.
//! `JENGINE_BLESS=1` rewrites `tests/golden/audio_mix.wav`.

#[path = "audio/helpers.rs"]
mod helpers;

use std::path::Path;

use helpers::*;
use jengine::MusicClock;
use jengine_tool::audio::{
    Audio, AudioError, DECLICK, Device, MAX_VOICES, MusicOptions, SoundOptions, VolumeKind,
    check_file, decode,
};
use proptest::prelude::*;

const STEP: f64 = 1.0 / 60.0;

fn music_opts(looped: bool, fade: f32) -> MusicOptions {
    MusicOptions {
        looped,
        fade,
        ..MusicOptions::default()
    }
}

fn sound_opts(volume: f32, pitch: f32, pan: f32) -> SoundOptions {
    SoundOptions { volume, pitch, pan }
}

/// Frame `f` of interleaved stereo samples.
fn frame(samples: &[f32], f: usize) -> (f32, f32) {
    (samples[2 * f], samples[2 * f + 1])
}

fn close(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance
}

// ---------------------------------------------------------------------------------------------
// The golden mix.

/// Writes the golden script's three sounds: a looping stereo pad at 44.1 kHz (resampled), a
/// decaying 24-bit mono blip at 22.05 kHz, and a float stereo chord at 48 kHz.
fn golden_sounds(assets: &Path) {
    let pad: Vec<f32> = (0..22_050)
        .flat_map(|i| [0.5 * triangle(i, 200), 0.4 * triangle(i, 150)])
        .collect();
    write_wav(&audio_path(assets, "pad.wav"), 2, 44_100, 16, false, &pad);
    let blip: Vec<f32> = (0..2_205)
        .map(|i| triangle(i, 25) * (1.0 - i as f32 / 2_205.0))
        .collect();
    write_wav(&audio_path(assets, "blip.wav"), 1, 22_050, 24, false, &blip);
    let chord: Vec<f32> = (0..9_600)
        .flat_map(|i| {
            let env = 0.3 * (1.0 - i as f32 / 9_600.0);
            [
                env * (triangle(i, 120) + triangle(i, 96)),
                env * (triangle(i, 80) + triangle(i, 96)),
            ]
        })
        .collect();
    write_wav(
        &audio_path(assets, "chord.wav"),
        2,
        48_000,
        32,
        true,
        &chord,
    );
}

/// The fixed script: 90 steps (1.5 s) of music, plays, volume changes, pause and stop.
fn golden_script(audio: &mut Audio) {
    for step in 0..90 {
        match step {
            0 => audio
                .music(
                    "pad.wav",
                    MusicOptions {
                        looped: true,
                        volume: 0.6,
                        fade: 0.25,
                        bpm: Some(120.0),
                    },
                )
                .unwrap(),
            6 => audio.play("blip.wav", sound_opts(1.0, 1.0, -1.0)).unwrap(),
            18 => audio.play("blip.wav", sound_opts(0.7, 1.5, 1.0)).unwrap(),
            30 => audio.play("chord.wav", sound_opts(1.0, 0.75, 0.0)).unwrap(),
            36 => audio.volume(VolumeKind::Sound, 0.5).unwrap(),
            42 => audio.pause_music(),
            54 => audio.resume_music(),
            60 => {
                for pan in [-0.5, 0.0, 0.5] {
                    audio.play("blip.wav", sound_opts(1.0, 2.0, pan)).unwrap();
                }
            }
            66 => audio.volume(VolumeKind::Master, 0.8).unwrap(),
            72 => audio.stop_music(0.2).unwrap(),
            78 => audio.play("chord.wav", sound_opts(1.0, 1.0, 0.5)).unwrap(),
            _ => {}
        }
        audio.step(STEP);
    }
}

fn golden_mix() -> Vec<f32> {
    let dir = assets();
    golden_sounds(dir.path());
    let (mut audio, samples) = captured(dir.path());
    golden_script(&mut audio);
    samples.lock().unwrap().clone()
}

/// The hash of the golden script's samples. Changing the mixer on purpose changes it: print
/// the new value with the test, listen to / look at `audio_mix.wav`, and update both.
const GOLDEN_HASH: u64 = 0x786b_a976_6a71_8340;

#[test]
fn golden_mix_matches_the_committed_hash_and_wav() {
    let samples = golden_mix();
    assert_eq!(samples.len(), 90 * 800 * 2);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/audio_mix.wav");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("audio_mix");
    std::fs::create_dir_all(&out).unwrap();
    let written = out.join("audio_mix.wav");
    write_wav(&written, 2, 48_000, 16, false, &samples);
    plot(&samples, 1200, 400)
        .save_png(&out.join("audio_mix.png"))
        .unwrap();
    if std::env::var_os("JENGINE_BLESS").is_some() {
        std::fs::copy(&written, &golden).unwrap();
    }
    let got = hash(&samples);
    assert_eq!(
        got,
        GOLDEN_HASH,
        "the golden mix changed: hash {got:#x}; see {}",
        out.display()
    );
    assert!(
        std::fs::read(&golden).unwrap() == std::fs::read(&written).unwrap(),
        "{} differs from {}",
        written.display(),
        golden.display()
    );
}

#[test]
fn the_same_commands_at_the_same_frames_give_the_same_samples() {
    assert_eq!(hash(&golden_mix()), hash(&golden_mix()));
}

/// A device that asks for uneven blocks, as a real one does.
#[derive(Default)]
struct Uneven {
    inner: Capture,
    turn: usize,
}

impl Device for Uneven {
    fn name(&self) -> &str {
        "uneven"
    }
    fn frames_wanted(&mut self, _: usize) -> usize {
        self.turn += 1;
        [1, 799, 333, 1_500, 7, 2_400][self.turn % 6]
    }
    fn write(&mut self, samples: &[f32]) {
        self.inner.write(samples);
    }
    fn played(&self) -> u64 {
        self.inner.played()
    }
}

#[test]
fn block_sizes_do_not_change_the_samples() {
    let dir = assets();
    golden_sounds(dir.path());
    let start = |audio: &mut Audio| {
        audio.music("pad.wav", music_opts(true, 0.3)).unwrap();
        audio.play("blip.wav", sound_opts(0.9, 1.3, 0.2)).unwrap();
        audio.play("chord.wav", sound_opts(1.0, 0.8, -0.7)).unwrap();
        audio.volume(VolumeKind::Music, 0.5).unwrap();
    };
    let (mut even, even_samples) = captured(dir.path());
    start(&mut even);
    let uneven = Uneven::default();
    let uneven_samples = uneven.inner.samples.clone();
    let mut odd = Audio::new(dir.path(), Box::new(uneven));
    start(&mut odd);
    for _ in 0..40 {
        even.step(STEP);
        odd.step(STEP);
    }
    let a = even_samples.lock().unwrap();
    let b = uneven_samples.lock().unwrap();
    let n = a.len().min(b.len());
    assert!(n >= 30 * 800 * 2);
    assert!(a[..n] == b[..n], "uneven blocks changed the mix");
}

// ---------------------------------------------------------------------------------------------
// The music clock.

#[test]
fn the_null_device_consumes_exactly_800_frames_per_step() {
    let dir = assets();
    write_dc(dir.path(), "long.wav", 0.25, 48_000 * 3);
    let mut audio = Audio::null(dir.path());
    audio
        .music(
            "long.wav",
            MusicOptions {
                bpm: Some(96.0),
                ..MusicOptions::default()
            },
        )
        .unwrap();
    for n in 1..=120u32 {
        audio.step(STEP);
        assert_eq!(
            audio.clock(),
            MusicClock {
                playing: true,
                position: f64::from(n * 800) / 48_000.0,
                bpm: Some(96.0),
            },
            "step {n}"
        );
    }
}

/// Consumes one step per step but asks for `latency` frames more at first, like a device
/// with a buffer: what is mixed runs ahead of what is played.
struct Buffered {
    sent: u64,
    latency: u64,
}

impl Device for Buffered {
    fn name(&self) -> &str {
        "buffered"
    }
    fn frames_wanted(&mut self, step: usize) -> usize {
        step + if self.sent == 0 {
            self.latency as usize
        } else {
            0
        }
    }
    fn write(&mut self, samples: &[f32]) {
        self.sent += (samples.len() / 2) as u64;
    }
    fn played(&self) -> u64 {
        self.sent.saturating_sub(self.latency)
    }
}

#[test]
fn the_clock_reports_frames_played_not_frames_mixed() {
    let dir = assets();
    write_dc(dir.path(), "long.wav", 0.25, 48_000 * 3);
    let device = Buffered {
        sent: 0,
        latency: 2_000,
    };
    let mut audio = Audio::new(dir.path(), Box::new(device));
    audio.music("long.wav", MusicOptions::default()).unwrap();
    audio.step(STEP);
    // 2,800 frames mixed, 800 played.
    assert_eq!(audio.clock().position, 800.0 / 48_000.0);
    audio.step(STEP);
    assert_eq!(audio.clock().position, 1_600.0 / 48_000.0);
    // A pause holds the clock only once the device has played up to it.
    audio.pause_music();
    audio.step(STEP);
    assert!(audio.clock().playing, "the pause has not been heard yet");
    for _ in 0..5 {
        audio.step(STEP);
    }
    let held = audio.clock();
    assert!(!held.playing);
    // Paused at mixed frame 3,600, after the declick ramp.
    assert_eq!(held.position, f64::from(3_600 + DECLICK) / 48_000.0);
}

#[test]
fn pause_holds_the_clock_and_silences_and_resume_goes_on() {
    let dir = assets();
    write_dc(dir.path(), "long.wav", 0.5, 48_000 * 3);
    let (mut audio, samples) = captured(dir.path());
    audio.music("long.wav", MusicOptions::default()).unwrap();
    for _ in 0..10 {
        audio.step(STEP);
    }
    audio.pause_music();
    audio.step(STEP);
    let held = audio.clock();
    assert_eq!(
        held,
        MusicClock {
            playing: false,
            position: f64::from(8_000 + DECLICK) / 48_000.0,
            bpm: None,
        }
    );
    for _ in 0..30 {
        audio.step(STEP);
        assert_eq!(audio.clock(), held);
    }
    {
        let s = samples.lock().unwrap();
        // The ramp down takes DECLICK frames; after it, silence.
        assert!(close(frame(&s, 8_000).0, 0.5, 0.01));
        assert!(frame(&s, 8_000 + DECLICK as usize / 2).0 < 0.3);
        assert!(
            s[2 * (8_000 + DECLICK as usize)..]
                .iter()
                .all(|&v| v == 0.0)
        );
    }
    audio.resume_music();
    audio.step(STEP);
    let c = audio.clock();
    assert!(c.playing);
    assert_eq!(c.position, held.position + 800.0 / 48_000.0);
    let s = samples.lock().unwrap();
    assert!(close(*s.last().unwrap(), 0.5, 1e-6));
}

#[test]
fn a_loop_wraps_the_clock_and_repeats_the_samples() {
    let dir = assets();
    // A rising ramp of 4,800 frames (0.1 s): where it restarts is easy to see.
    let ramp: Vec<f32> = (0..4_800).map(|i| i as f32 / 4_800.0).collect();
    write_wav(
        &audio_path(dir.path(), "ramp.wav"),
        1,
        48_000,
        16,
        false,
        &ramp,
    );
    let (mut audio, samples) = captured(dir.path());
    audio.music("ramp.wav", music_opts(true, 0.0)).unwrap();
    for _ in 0..20 {
        audio.step(STEP);
    }
    // 16,000 frames played: three times round and 1,600 frames in.
    assert_eq!(audio.clock().position, 1_600.0 / 48_000.0);
    assert!(audio.clock().playing);
    let s = samples.lock().unwrap();
    for f in [0, 1, 100, 4_799] {
        assert_eq!(frame(&s, f), frame(&s, f + 4_800), "frame {f}");
        assert_eq!(frame(&s, f), frame(&s, f + 9_600), "frame {f}");
    }
    assert_eq!(frame(&s, 4_800).0, 0.0);
}

#[test]
fn music_without_a_loop_ends_and_the_clock_rests_at_its_end() {
    let dir = assets();
    write_dc(dir.path(), "short.wav", 0.5, 4_800);
    let (mut audio, samples) = captured(dir.path());
    audio
        .music(
            "short.wav",
            MusicOptions {
                looped: false,
                bpm: Some(140.0),
                ..MusicOptions::default()
            },
        )
        .unwrap();
    for _ in 0..10 {
        audio.step(STEP);
    }
    assert_eq!(
        audio.clock(),
        MusicClock {
            playing: false,
            position: 0.1,
            bpm: Some(140.0),
        }
    );
    let s = samples.lock().unwrap();
    assert!(close(frame(&s, 4_799).0, 0.5, 1e-6));
    assert!(s[2 * 4_800..].iter().all(|&v| v == 0.0));
}

#[test]
fn stop_fades_out_and_the_clock_goes_to_rest() {
    let dir = assets();
    write_dc(dir.path(), "long.wav", 0.5, 48_000 * 3);
    let (mut audio, samples) = captured(dir.path());
    audio.music("long.wav", MusicOptions::default()).unwrap();
    for _ in 0..6 {
        audio.step(STEP);
    }
    audio.stop_music(0.5).unwrap();
    audio.step(STEP);
    assert_eq!(audio.clock(), MusicClock::default());
    for _ in 0..40 {
        audio.step(STEP);
    }
    let s = samples.lock().unwrap();
    let stop = 4_800;
    // Linear from 0.5 to 0 over 24,000 frames, then silence.
    for k in [0usize, 6_000, 12_000, 18_000, 23_998] {
        let want = 0.5 * (1.0 - (k + 1) as f32 / 24_000.0);
        assert!(close(frame(&s, stop + k).0, want, 1e-4), "{k}");
    }
    assert!(s[2 * (stop + 24_000)..].iter().all(|&v| v == 0.0));
}

#[test]
fn fade_in_rises_linearly_over_its_seconds() {
    let dir = assets();
    write_dc(dir.path(), "long.wav", 0.5, 48_000 * 3);
    let (mut audio, samples) = captured(dir.path());
    audio.music("long.wav", music_opts(true, 1.0)).unwrap();
    for _ in 0..70 {
        audio.step(STEP);
    }
    let s = samples.lock().unwrap();
    for f in [0usize, 12_000, 24_000, 36_000, 47_999, 50_000] {
        let want = 0.5 * ((f + 1) as f32 / 48_000.0).min(1.0);
        let (l, r) = frame(&s, f);
        assert!(close(l, want, 1e-4) && l == r, "{f}: {l} {r}");
    }
}

#[test]
fn new_music_crossfades_with_the_old() {
    let dir = assets();
    write_dc(dir.path(), "a.wav", 0.5, 48_000 * 3);
    write_dc(dir.path(), "b.wav", -0.25, 48_000 * 3);
    let (mut audio, samples) = captured(dir.path());
    audio.music("a.wav", MusicOptions::default()).unwrap();
    audio.step(STEP);
    audio.music("b.wav", music_opts(true, 0.5)).unwrap();
    for _ in 0..40 {
        audio.step(STEP);
    }
    let s = samples.lock().unwrap();
    // Halfway: half of a (0.25) plus half of b (-0.125).
    assert!(close(frame(&s, 800 + 11_999).0, 0.125, 1e-3));
    // After the fade only b.
    assert!(close(frame(&s, 800 + 24_000).0, -0.25, 1e-6));
}

// ---------------------------------------------------------------------------------------------
// Sound voices.

#[test]
fn the_33rd_voice_steals_the_oldest() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 0.5, 48_000);
    let (mut audio, samples) = captured(dir.path());
    // The oldest sounds on the left alone; the others are silent, on the right.
    audio.play("dc.wav", sound_opts(1.0, 1.0, -1.0)).unwrap();
    for _ in 1..MAX_VOICES {
        audio.play("dc.wav", sound_opts(0.0, 1.0, 1.0)).unwrap();
    }
    audio.step(STEP);
    assert_eq!(audio.voices(), MAX_VOICES);
    assert!(close(
        *samples.lock().unwrap().iter().nth_back(1).unwrap(),
        0.5,
        1e-6
    ));
    audio.play("dc.wav", sound_opts(0.0, 1.0, 1.0)).unwrap();
    audio.step(STEP);
    assert_eq!(audio.voices(), MAX_VOICES);
    let s = samples.lock().unwrap();
    assert!(
        s[2 * 800..].iter().all(|&v| v == 0.0),
        "the oldest voice still sounds"
    );
}

#[test]
fn pitch_changes_the_playback_rate_and_is_clamped() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 0.5, 4_800);
    let length = |pitch: f32| {
        let (mut audio, samples) = captured(dir.path());
        audio.play("dc.wav", sound_opts(1.0, pitch, -1.0)).unwrap();
        for _ in 0..30 {
            audio.step(STEP);
        }
        assert_eq!(audio.voices(), 0);
        let s = samples.lock().unwrap();
        (0..s.len() / 2).filter(|&f| frame(&s, f).0 > 0.4).count()
    };
    assert_eq!(length(1.0), 4_800);
    assert_eq!(length(2.0), 2_400);
    assert_eq!(length(0.5), 9_599);
    assert_eq!(length(100.0), 1_200, "pitch is clamped to 4");
    assert_eq!(length(0.01), 19_197, "pitch is clamped to 0.25");
}

#[test]
fn pan_is_equal_power_and_hard_sides_are_silent_on_the_other() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 0.5, 4_800);
    let first = |pan: f32| {
        let (mut audio, samples) = captured(dir.path());
        audio.play("dc.wav", sound_opts(1.0, 1.0, pan)).unwrap();
        audio.step(STEP);
        let s = samples.lock().unwrap();
        frame(&s, 100)
    };
    assert_eq!(first(1.0).0, 0.0);
    assert!(close(first(1.0).1, 0.5, 1e-6));
    assert_eq!(first(-1.0).1, 0.0);
    assert!(close(first(-7.0).0, 0.5, 1e-6), "pan is clamped");
    for pan in [-0.6, 0.0, 0.3] {
        let (l, r) = first(pan);
        assert!(close(l * l + r * r, 0.25, 1e-5), "{pan}: {l} {r}");
    }
}

#[test]
fn volumes_multiply_and_ramp_without_a_step() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 0.5, 48_000);
    let (mut audio, samples) = captured(dir.path());
    audio.volume(VolumeKind::Master, 0.5).unwrap();
    audio.volume(VolumeKind::Sound, 0.5).unwrap();
    audio.play("dc.wav", sound_opts(1.0, 1.0, -1.0)).unwrap();
    audio.step(STEP);
    audio.volume(VolumeKind::Master, 7.0).unwrap(); // clamped to 1
    audio.step(STEP);
    let s = samples.lock().unwrap();
    // The volumes were set before any frame, ramping from 1 over the declick frames.
    assert!(close(frame(&s, DECLICK as usize).0, 0.125, 1e-6));
    assert!(close(frame(&s, 799).0, 0.125, 1e-6));
    let mid = frame(&s, 800 + DECLICK as usize / 2).0;
    assert!(mid > 0.13 && mid < 0.24, "{mid}");
    assert!(close(frame(&s, 1_599).0, 0.25, 1e-6));
    // Music volume leaves sounds alone.
    drop(s);
    audio.volume(VolumeKind::Music, 0.0).unwrap();
    audio.step(STEP);
    assert!(close(
        *samples.lock().unwrap().iter().nth_back(1).unwrap(),
        0.25,
        1e-6
    ));
}

#[test]
fn the_output_is_clamped() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 1.0, 4_800);
    let (mut audio, samples) = captured(dir.path());
    for _ in 0..4 {
        audio.play("dc.wav", sound_opts(1.0, 1.0, -1.0)).unwrap();
    }
    audio.step(STEP);
    let s = samples.lock().unwrap();
    assert_eq!(frame(&s, 10).0, 1.0);
    assert!(s.iter().all(|v| (-1.0..=1.0).contains(v)));
}

#[test]
fn values_that_are_not_numbers_are_refused_and_change_nothing() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 0.5, 4_800);
    let mut audio = Audio::null(dir.path());
    let err = audio
        .play("dc.wav", sound_opts(f32::NAN, 1.0, 0.0))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "audio: volume must be a finite number, not NaN"
    );
    assert_eq!(
        audio.play("dc.wav", sound_opts(1.0, f32::INFINITY, 0.0)),
        Err(AudioError::Value {
            what: "pitch",
            value: f64::INFINITY
        })
    );
    assert!(
        audio
            .play("dc.wav", sound_opts(1.0, 1.0, f32::NEG_INFINITY))
            .is_err()
    );
    assert_eq!(audio.voices(), 0);
    assert!(audio.volume(VolumeKind::Music, f32::NAN).is_err());
    assert_eq!(
        audio.stop_music(f32::NAN).unwrap_err().to_string(),
        "audio: fade must be a finite number, not NaN"
    );
    let bad_bpm = MusicOptions {
        bpm: Some(-120.0),
        ..MusicOptions::default()
    };
    assert_eq!(
        audio.music("dc.wav", bad_bpm).unwrap_err().to_string(),
        "audio: bpm must be a positive number, not -120"
    );
    audio.step(STEP);
    assert_eq!(audio.clock(), MusicClock::default());
    // A fade past 10 s is held to 10 s: half of it after 5 s.
    let (mut audio, samples) = captured(dir.path());
    write_dc(dir.path(), "long.wav", 0.5, 48_000 * 6);
    audio.music("long.wav", music_opts(true, 1e9)).unwrap();
    for _ in 0..300 {
        audio.step(STEP);
    }
    assert!(close(*samples.lock().unwrap().last().unwrap(), 0.25, 1e-3));
    // A silly step length is ignored or capped, never a panic or a giant buffer.
    audio.step(f64::NAN);
    audio.step(-1.0);
    audio.step(1e300);
    assert_eq!(samples.lock().unwrap().len(), (300 * 800 + 12_000) * 2);
}

// ---------------------------------------------------------------------------------------------
// Files: the cache, the formats, and bad input.

#[test]
fn each_file_is_decoded_once() {
    let dir = assets();
    write_dc(dir.path(), "dc.wav", 0.5, 4_800);
    write_dc(dir.path(), "pre.wav", 0.5, 4_800);
    let mut audio = Audio::null(dir.path());
    audio.play("dc.wav", SoundOptions::default()).unwrap();
    audio.preload("pre.wav").unwrap();
    std::fs::remove_file(audio_path(dir.path(), "dc.wav")).unwrap();
    std::fs::remove_file(audio_path(dir.path(), "pre.wav")).unwrap();
    audio.play("dc.wav", SoundOptions::default()).unwrap();
    audio.music("pre.wav", MusicOptions::default()).unwrap();
    // A failure is kept as well: the file is not read again.
    assert!(audio.play("late.wav", SoundOptions::default()).is_err());
    write_dc(dir.path(), "late.wav", 0.5, 4_800);
    assert!(audio.play("late.wav", SoundOptions::default()).is_err());
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let dir = assets();
    let mut audio = Audio::null(dir.path());
    let err = audio.play("nope.wav", SoundOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("assets/audio/nope.wav: cannot be read: "),
        "{err}"
    );
    let err = audio
        .music("sub/nope.ogg", MusicOptions::default())
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("assets/audio/sub/nope.ogg: cannot be read")
    );
    std::fs::create_dir(audio_path(dir.path(), "folder.wav")).unwrap();
    assert_eq!(
        check_file(dir.path(), "folder.wav"),
        Err("assets/audio/folder.wav: is a folder, not a file".into())
    );
}

#[test]
fn a_name_that_leaves_the_audio_folder_is_refused_before_reading() {
    let dir = assets();
    // A perfectly good file one level up must still not be reachable.
    write_wav(
        &dir.path().join("secret.wav"),
        1,
        48_000,
        16,
        false,
        &[0.5; 100],
    );
    let mut audio = Audio::null(dir.path());
    for name in [
        "../secret.wav",
        "/etc/passwd",
        "a/../../secret.wav",
        "C:x.wav",
        "",
        "a\0b",
    ] {
        let err = audio.play(name, SoundOptions::default()).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("assets/audio/{name}: ")),
            "{text}"
        );
        assert!(!text.contains("cannot be read"), "{text}");
        assert!(check_file(dir.path(), name).is_err());
    }
    let err = check_file(dir.path(), "../secret.wav").unwrap_err();
    assert!(err.contains("leaves its folder"), "{err}");
    assert_eq!(audio.voices(), 0);
}

#[test]
fn wav_formats_decode_to_the_same_level() {
    let dir = assets();
    for (bits, float) in [
        (8, false),
        (16, false),
        (24, false),
        (32, false),
        (32, true),
    ] {
        for channels in [1u16, 2] {
            for rate in [8_000, 44_100, 48_000, 96_000] {
                let name = format!("dc-{bits}-{float}-{channels}-{rate}.wav");
                let samples = vec![0.5; channels as usize * rate as usize / 10];
                write_wav(
                    &audio_path(dir.path(), &name),
                    channels,
                    rate,
                    bits,
                    float,
                    &samples,
                );
                let sound = decode(&std::fs::read(audio_path(dir.path(), &name)).unwrap())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(sound.channels(), channels as usize, "{name}");
                assert!(
                    (4_790..=4_800).contains(&sound.frames()),
                    "{name}: {} frames",
                    sound.frames()
                );
                let tolerance = if bits == 8 { 1.0 / 127.0 } else { 1e-4 };
                assert!(
                    sound.samples().iter().all(|&s| close(s, 0.5, tolerance)),
                    "{name}"
                );
                assert_eq!(check_file(dir.path(), &name), Ok(()));
            }
        }
    }
}

#[test]
fn six_channel_wav_plays_in_stereo() {
    let dir = assets();
    // Front left only, then front right only (WAV order: FL FR FC LFE BL BR).
    let mut samples = vec![0.0f32; 6 * 2];
    samples[0] = 0.5;
    samples[6 + 1] = 0.5;
    write_wav(
        &audio_path(dir.path(), "six.wav"),
        6,
        48_000,
        16,
        false,
        &samples,
    );
    let sound = decode(&std::fs::read(audio_path(dir.path(), "six.wav")).unwrap()).unwrap();
    assert_eq!(sound.channels(), 2);
    let s = sound.samples();
    assert!(s[0] > 0.15 && s[1] == 0.0, "{s:?}");
    assert!(s[2] == 0.0 && close(s[3], s[0], 1e-6), "{s:?}");
}

#[test]
fn unsupported_wav_shapes_are_refused_with_the_reason() {
    let dir = assets();
    write_wav(
        &audio_path(dir.path(), "nine.wav"),
        9,
        48_000,
        16,
        false,
        &[0.0; 9 * 4],
    );
    assert_eq!(
        check_file(dir.path(), "nine.wav"),
        Err("assets/audio/nine.wav: 9 channels: 1 to 8 are supported".into())
    );
    write_wav(
        &audio_path(dir.path(), "slow.wav"),
        1,
        500,
        16,
        false,
        &[0.0; 40],
    );
    assert_eq!(
        check_file(dir.path(), "slow.wav"),
        Err("assets/audio/slow.wav: sample rate 500 Hz is outside 1000..384000 Hz".into())
    );
    // 64-bit float: a valid WAV, just not one this engine reads.
    let mut f64_wav = wav_header(3, 1, 48_000, 64, 8 * 10);
    f64_wav.extend(std::iter::repeat_n(0u8, 80));
    std::fs::write(audio_path(dir.path(), "double.wav"), &f64_wav).unwrap();
    let err = check_file(dir.path(), "double.wav").unwrap_err();
    assert!(err.starts_with("assets/audio/double.wav: "), "{err}");
    // A header claiming hours of audio is refused before anything is allocated for it.
    let mut huge = wav_header(1, 1, 1_000, 16, 0xFFFF_FFF0);
    huge.extend([0u8; 64]);
    std::fs::write(audio_path(dir.path(), "huge.wav"), &huge).unwrap();
    assert_eq!(
        check_file(dir.path(), "huge.wav"),
        Err("assets/audio/huge.wav: longer than 600 s at 1000 Hz".into())
    );
    // A header claiming more data than there is.
    let mut short = wav_header(1, 1, 48_000, 16, 2_000);
    short.extend([0u8; 100]);
    std::fs::write(audio_path(dir.path(), "short.wav"), &short).unwrap();
    let err = check_file(dir.path(), "short.wav").unwrap_err();
    assert!(
        err.starts_with("assets/audio/short.wav: the sample data is truncated"),
        "{err}"
    );
    // Not audio at all.
    std::fs::write(audio_path(dir.path(), "text.wav"), "hello").unwrap();
    assert_eq!(
        check_file(dir.path(), "text.wav"),
        Err("assets/audio/text.wav: not an Ogg Vorbis or WAV file (it does not start with \"OggS\" or \"RIFF\")".into())
    );
    std::fs::write(audio_path(dir.path(), "empty.ogg"), "").unwrap();
    assert!(check_file(dir.path(), "empty.ogg").is_err());
}

/// A plain `fmt ` + `data` WAV header (format 1 PCM, 3 float), `data_len` bytes claimed.
fn wav_header(format: u16, channels: u16, rate: u32, bits: u16, data_len: u32) -> Vec<u8> {
    let block = channels * bits / 8;
    let mut h = Vec::new();
    h.extend(b"RIFF");
    h.extend(36u32.wrapping_add(data_len).to_le_bytes());
    h.extend(b"WAVEfmt ");
    h.extend(16u32.to_le_bytes());
    h.extend(format.to_le_bytes());
    h.extend(channels.to_le_bytes());
    h.extend(rate.to_le_bytes());
    h.extend((rate * u32::from(block)).to_le_bytes());
    h.extend(block.to_le_bytes());
    h.extend(bits.to_le_bytes());
    h.extend(b"data");
    h.extend(data_len.to_le_bytes());
    h
}

/// Zero crossings in `channel` over the first `frames` frames.
fn crossings(samples: &[f32], channel: usize, frames: usize) -> usize {
    (1..frames)
        .filter(|&f| (samples[2 * (f - 1) + channel] < 0.0) != (samples[2 * f + channel] < 0.0))
        .count()
}

#[test]
fn the_ogg_fixture_decodes_to_its_two_tones() {
    let sound = decode(&tone_ogg()).unwrap();
    assert_eq!(sound.channels(), 2);
    // 11,025 frames at 44.1 kHz resampled to 48 kHz (lewton gives one frame fewer).
    assert!(
        (11_999..=12_000).contains(&sound.frames()),
        "{}",
        sound.frames()
    );
    // 0.2 s of 440 Hz crosses zero 176 times, of 660 Hz 264 times.
    let left = crossings(sound.samples(), 0, 9_600);
    let right = crossings(sound.samples(), 1, 9_600);
    assert!((172..=180).contains(&left), "{left}");
    assert!((260..=268).contains(&right), "{right}");
    let peak = sound.samples().iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.4 && peak < 0.6, "{peak}");

    let dir = assets();
    std::fs::write(audio_path(dir.path(), "tone.ogg"), tone_ogg()).unwrap();
    assert_eq!(check_file(dir.path(), "tone.ogg"), Ok(()));
}

#[test]
fn every_truncation_of_the_ogg_fixture_is_an_error() {
    let bytes = tone_ogg();
    for len in 0..bytes.len() {
        assert!(decode(&bytes[..len]).is_err(), "{len} bytes decoded");
    }
    let dir = assets();
    std::fs::write(
        audio_path(dir.path(), "cut.ogg"),
        &bytes[..bytes.len() - 100],
    )
    .unwrap();
    let err = check_file(dir.path(), "cut.ogg").unwrap_err();
    assert!(err.starts_with("assets/audio/cut.ogg: "), "{err}");
    let mut audio = Audio::null(dir.path());
    assert_eq!(
        audio
            .music("cut.ogg", MusicOptions::default())
            .unwrap_err()
            .to_string(),
        err
    );
}

#[test]
fn every_truncation_of_a_wav_is_an_error() {
    let dir = assets();
    write_wav(
        &audio_path(dir.path(), "w.wav"),
        2,
        44_100,
        24,
        false,
        &[0.25; 200],
    );
    let bytes = std::fs::read(audio_path(dir.path(), "w.wav")).unwrap();
    for len in 0..bytes.len() {
        assert!(decode(&bytes[..len]).is_err(), "{len} bytes decoded");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Damaged Ogg files (bytes overwritten anywhere, headers included) decode or fail, and
    /// the decoder itself never panics (a caught panic would say "the decoder failed").
    #[test]
    fn damaged_ogg_never_panics(edits in proptest::collection::vec((0usize..4_840, any::<u8>()), 1..8)) {
        let mut bytes = tone_ogg();
        for (at, b) in edits {
            let at = at % bytes.len();
            bytes[at] = b;
        }
        if let Err(e) = decode(&bytes) {
            prop_assert!(e != "the decoder failed on damaged data");
        }
    }

    #[test]
    fn damaged_wav_never_panics(edits in proptest::collection::vec((0usize..200, any::<u8>()), 1..8)) {
        let mut bytes = wav_header(1, 2, 22_050, 16, 64);
        bytes.extend((0..64u8).map(|i| i.wrapping_mul(37)));
        for (at, b) in edits {
            let at = at % bytes.len();
            bytes[at] = b;
        }
        if let Err(e) = decode(&bytes) {
            prop_assert!(e != "the decoder failed on damaged data");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Devices.

#[test]
fn open_default_plays_or_falls_back_with_one_warning() {
    let dir = assets();
    let mut audio = jengine_tool::audio::open_default(dir.path());
    let warnings = audio.take_warnings();
    if audio.device_name() == "null" {
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("audio: no sound output ("),
            "{warnings:?}"
        );
    } else {
        assert!(warnings.is_empty(), "{warnings:?}");
    }
    audio.step(STEP);
    assert!(audio.take_warnings().is_empty());
}
