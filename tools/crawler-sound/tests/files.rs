//! Each committed sound is what it says it is: a 16-bit mono WAV at 22 050 Hz, a loop as long
//! as it should be and seamless where it wraps, an effect that peaks at -12 dBFS and starts and
//! ends on a zero sample, nothing clipped, and each game's audio under 1.5 MB.

use crawler_sound::Game;
use crawler_sound::effects::EFFECTS;

fn loops(game: Game) -> &'static [(&'static str, f64)] {
    match game {
        Game::Warren => &[("drone.wav", 8.0)],
        Game::Stairs => &[("town.wav", 16.0), ("deep.wav", 4.0)],
    }
}

use jengine_synth::check::{dbfs, peak, rms};

/// The file's samples, after checking its format.
fn read(game: Game, name: &str) -> Vec<i16> {
    jengine_synth::check::read_wav(&game.committed_dir().join(name))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn loops_last_their_length_sit_near_minus_14_dbfs_rms_and_wrap_without_a_click() {
    for game in Game::ALL {
        for &(name, seconds) in loops(game) {
            let s = read(game, name);
            assert_eq!(s.len(), (seconds * 22_050.0) as usize, "{name}");
            let (p, r) = (dbfs(peak(&s)), dbfs(rms(&s)));
            assert!(p <= -0.99, "{name}: peak {p:.2} dBFS");
            assert!((-15.0..=-13.0).contains(&r), "{name}: rms {r:.2} dBFS");
            let (wrap, p99) = jengine_synth::check::seam(&s);
            assert!(
                wrap <= p99,
                "{name}: the seam steps {wrap}, 99% of steps are under {p99}"
            );
        }
    }
}

#[test]
fn effects_peak_at_minus_12_dbfs_and_start_and_end_on_zero() {
    for game in Game::ALL {
        for effect in EFFECTS {
            let name = effect.name;
            let s = read(game, name);
            let p = dbfs(peak(&s));
            assert!((p + 12.0).abs() < 0.05, "{name}: peak {p:.2} dBFS");
            assert_eq!(s[0], 0, "{name} starts at {}", s[0]);
            assert_eq!(s[s.len() - 1], 0, "{name} ends at {}", s[s.len() - 1]);
            let seconds = s.len() as f64 / 22_050.0;
            assert!((0.05..=1.5).contains(&seconds), "{name}: {seconds} s");
        }
    }
}

#[test]
fn nothing_is_clipped() {
    for game in Game::ALL {
        let names = loops(game)
            .iter()
            .map(|l| l.0)
            .chain(EFFECTS.iter().map(|e| e.name));
        for name in names {
            assert!(
                peak(&read(game, name)) < 32_767.0,
                "{name} reaches full scale"
            );
        }
    }
}

#[test]
fn each_games_audio_fits_in_1_5_mb() {
    for game in Game::ALL {
        let total: u64 = std::fs::read_dir(game.committed_dir())
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum();
        assert!(total < 1_500_000, "{}: {total} bytes", game.project());
    }
}
