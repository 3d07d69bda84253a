//! Each committed sound is what it says it is: a 16-bit mono WAV at 22 050 Hz, a loop exactly
//! as long as `tracks.json`'s tempo says and seamless where it wraps, an effect that starts
//! and ends in silence, levels where they were set, nothing clipped, all of it under 3 MB.

use std::path::PathBuf;

const MUSIC: [&str; 4] = ["title.wav", "puzzle.wav", "battle.wav", "results.wav"];
const EFFECTS: [&str; 16] = [
    "place.wav",
    "refuse.wav",
    "turn.wav",
    "swap.wav",
    "combo1.wav",
    "combo2.wav",
    "combo3.wav",
    "hit.wav",
    "countdown.wav",
    "go.wav",
    "clear.wav",
    "fail.wav",
    "knockout.wav",
    "menu_move.wav",
    "menu_select.wav",
    "pluck.wav",
];

fn path(name: &str) -> PathBuf {
    kotodama_sound::committed_dir().join(name)
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
fn tracks_json_gives_every_loop_a_tempo_that_fits_whole_samples() {
    let rows = tracks();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, MUSIC);
    for r in &rows {
        let bpm = r["bpm"].as_u64().unwrap();
        assert!((60..=160).contains(&bpm), "{r}");
        assert_eq!(22_050 * 60 % bpm, 0, "a beat of {r} is not whole samples");
        let (beats, bar) = (
            r["beats"].as_u64().unwrap(),
            r["beats_per_bar"].as_u64().unwrap(),
        );
        assert_eq!(beats % bar, 0, "{r} does not end on a bar line");
    }
}

#[test]
fn every_loop_lasts_exactly_its_beats_at_its_tempo() {
    for r in tracks() {
        let name = r["name"].as_str().unwrap();
        let (bpm, beats) = (r["bpm"].as_u64().unwrap(), r["beats"].as_u64().unwrap());
        let samples = read(name).len() as u64;
        assert_eq!(samples, beats * 22_050 * 60 / bpm, "{name}");
        let seconds = samples as f64 / 22_050.0;
        assert!((6.0..=40.0).contains(&seconds), "{name}: {seconds} s");
    }
}

#[test]
fn loops_wrap_without_a_click() {
    // A note cut off at the end, or an echo that starts from nothing, would make the step from
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
fn music_sits_near_minus_14_dbfs_rms_with_peaks_under_minus_1() {
    for name in MUSIC {
        let s = read(name);
        let (p, r) = (dbfs(peak(&s)), dbfs(rms(&s)));
        assert!(p <= -0.99, "{name}: peak {p:.2} dBFS");
        assert!((-15.0..=-13.0).contains(&r), "{name}: rms {r:.2} dBFS");
    }
}

#[test]
fn effects_peak_at_minus_12_dbfs_and_start_and_end_in_silence() {
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
fn nothing_is_clipped() {
    for name in MUSIC.iter().chain(EFFECTS.iter()) {
        let p = peak(&read(name));
        assert!(p < 32_767.0, "{name} reaches full scale");
    }
}

#[test]
fn all_the_audio_fits_in_3_mb() {
    let total: u64 = std::fs::read_dir(kotodama_sound::committed_dir())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(total < 3_000_000, "{total} bytes");
}
