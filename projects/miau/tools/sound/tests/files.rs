//! Each committed sound is what it says it is: a 16-bit mono WAV at 22 050 Hz, the loop
//! exactly as long as `tracks.json`'s tempo says and seamless where it wraps, effects that
//! peak at -12 dBFS and start and end on a zero sample, nothing clipped, all of Miau's audio
//! under 1.5 MB.

use std::path::PathBuf;

const MUSIC: [&str; 1] = ["play.wav"];
const EFFECTS: [&str; 13] = [
    "step.wav",
    "push.wav",
    "rule_formed.wav",
    "rule_broken.wav",
    "refuse.wav",
    "undo.wav",
    "win.wav",
    "defeat.wav",
    "mew.wav",
    "menu_move.wav",
    "menu_select.wav",
    "transform.wav",
    "sink.wav",
];

fn path(name: &str) -> PathBuf {
    miau_sound::committed_dir().join(name)
}

use jengine_synth::check::{dbfs, peak, rms};

/// The file's samples, after checking its format.
fn read(name: &str) -> Vec<i16> {
    jengine_synth::check::read_wav(&path(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn tracks() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path("tracks.json")).unwrap();
    serde_json::from_str::<Vec<serde_json::Value>>(&text).unwrap()
}

#[test]
fn tracks_json_gives_the_loop_a_tempo_that_fits_whole_samples_and_bars() {
    let rows = tracks();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, MUSIC);
    for r in &rows {
        let bpm = r["bpm"].as_u64().unwrap();
        assert!((60..=140).contains(&bpm), "{r}");
        assert_eq!(22_050 * 60 % bpm, 0, "a beat of {r} is not whole samples");
        let (beats, bar) = (
            r["beats"].as_u64().unwrap(),
            r["beats_per_bar"].as_u64().unwrap(),
        );
        assert_eq!(beats % bar, 0, "{r} does not end on a bar line");
    }
}

#[test]
fn the_loop_lasts_exactly_its_beats_at_its_tempo() {
    for r in tracks() {
        let name = r["name"].as_str().unwrap();
        let (bpm, beats) = (r["bpm"].as_u64().unwrap(), r["beats"].as_u64().unwrap());
        let samples = read(name).len() as u64;
        assert_eq!(samples, beats * 22_050 * 60 / bpm, "{name}");
        let seconds = samples as f64 / 22_050.0;
        assert!((8.0..=30.0).contains(&seconds), "{name}: {seconds} s");
    }
}

#[test]
fn the_loop_wraps_without_a_click() {
    // A note cut off at the end, or a room that starts from nothing, would make the step from
    // the last sample to the first far bigger than the steps inside the loop.
    for name in MUSIC {
        let s = read(name);
        let (wrap, p99) = jengine_synth::check::seam(&s);
        assert!(
            wrap <= p99,
            "{name}: the seam steps {wrap}, 99% of steps are under {p99}"
        );
    }
}

#[test]
fn music_is_quiet_near_minus_20_dbfs_rms_with_peaks_under_minus_6() {
    for name in MUSIC {
        let s = read(name);
        let (p, r) = (dbfs(peak(&s)), dbfs(rms(&s)));
        assert!(p <= -5.99, "{name}: peak {p:.2} dBFS");
        assert!((-21.5..=-19.0).contains(&r), "{name}: rms {r:.2} dBFS");
    }
}

#[test]
fn effects_peak_at_minus_12_dbfs_and_start_and_end_on_zero() {
    for name in EFFECTS {
        let s = read(name);
        let p = dbfs(peak(&s));
        assert!((p + 12.0).abs() < 0.05, "{name}: peak {p:.2} dBFS");
        assert_eq!(s[0], 0, "{name} starts at {}", s[0]);
        assert_eq!(s[s.len() - 1], 0, "{name} ends at {}", s[s.len() - 1]);
        let seconds = s.len() as f64 / 22_050.0;
        assert!((0.05..=1.5).contains(&seconds), "{name}: {seconds} s");
    }
}

#[test]
fn the_step_heard_on_every_move_is_short() {
    let seconds = read("step.wav").len() as f64 / 22_050.0;
    assert!(seconds <= 0.15, "{seconds} s");
}

#[test]
fn nothing_is_clipped() {
    for name in MUSIC.iter().chain(EFFECTS.iter()) {
        let p = peak(&read(name));
        assert!(p < 32_767.0, "{name} reaches full scale");
    }
}

#[test]
fn all_of_miaus_audio_fits_in_1_5_mb() {
    let total: u64 = std::fs::read_dir(miau_sound::committed_dir())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(total < 1_500_000, "{total} bytes");
}
