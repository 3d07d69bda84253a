//! The sound effects: each a few instrument strokes laid out in time on a short canvas, a
//! touch of room, and a fade to silence, so every effect starts and ends at zero.
//!
//! Pitched effects stay on the yō scale on D (D E G A B), the same family as the music, so an
//! effect over a track never sounds out of tune; only a refusal and a failure step down a
//! semitone, the in scale's sad interval.

use jengine_synth::Effect;
use jengine_synth::canvas::{Canvas, Room};
use jengine_synth::dsp::{Rng, midi_hz};
use jengine_synth::instruments::{self, GONG, Pluck, RIN};

/// Every effect, in the order they are written.
pub const EFFECTS: [Effect; 16] = [
    Effect {
        name: "place.wav",
        make: place,
    },
    Effect {
        name: "refuse.wav",
        make: refuse,
    },
    Effect {
        name: "turn.wav",
        make: turn,
    },
    Effect {
        name: "swap.wav",
        make: swap,
    },
    Effect {
        name: "combo1.wav",
        make: combo1,
    },
    Effect {
        name: "combo2.wav",
        make: combo2,
    },
    Effect {
        name: "combo3.wav",
        make: combo3,
    },
    Effect {
        name: "hit.wav",
        make: hit,
    },
    Effect {
        name: "countdown.wav",
        make: countdown,
    },
    Effect {
        name: "go.wav",
        make: go,
    },
    Effect {
        name: "clear.wav",
        make: clear,
    },
    Effect {
        name: "fail.wav",
        make: fail,
    },
    Effect {
        name: "knockout.wav",
        make: knockout,
    },
    Effect {
        name: "menu_move.wav",
        make: menu_move,
    },
    Effect {
        name: "menu_select.wav",
        make: menu_select,
    },
    Effect {
        name: "pluck.wav",
        make: pluck,
    },
];

/// The room Kotodama's effects sound in: a small reverb, no fade in.
const ROOM: Room = Room {
    size: 0.45,
    damp: 0.5,
    fade_in: 0.0,
};

/// A silent canvas `seconds` long in this game's room.
fn canvas(seconds: f64) -> Canvas {
    Canvas::new(seconds, ROOM)
}

/// A koto note by MIDI number.
fn koto(note: i32, vel: f64, pluck: Pluck, rng: &mut Rng) -> Vec<f64> {
    instruments::koto(midi_hz(f64::from(note)), vel, pluck, rng)
}

// MIDI numbers of the yō scale on D, the effects' notes.
const D4: i32 = 62;
const A4: i32 = 69;
const D5: i32 = 74;
const E5: i32 = 76;
const G5: i32 = 79;
const A5: i32 = 81;
const B5: i32 = 83;
const D6: i32 = 86;
const E6: i32 = 88;

/// A tile set on the tray: a knock, and a softer one as it settles.
fn place(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.12);
    c.add(0.0, &instruments::tile_click(1.0, 1.0, rng), 1.0);
    c.add(0.014, &instruments::tile_click(0.93, 0.35, rng), 1.0);
    c.finish(0.15, 0.03)
}

/// One soft koto note on D5. A word made is heard as one pluck a kana, each a step higher on
/// the yō scale, starting higher for a longer word: the game plays this note faster for them.
fn pluck(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.3);
    c.add(0.0, &koto(D5, 0.7, Pluck::SOFT, rng), 1.0);
    c.finish(0.12, 0.15)
}

/// A refusal: two muffled low strings, the second a semitone down ("uh-uh").
fn refuse(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.3);
    c.add(0.0, &koto(57, 1.0, Pluck::MUTED, rng), 1.0);
    c.add(0.0, &instruments::wood(0.7, 0.4, rng), 0.6);
    c.add(0.11, &koto(56, 1.0, Pluck::MUTED, rng), 1.0);
    c.add(0.11, &instruments::wood(0.66, 0.4, rng), 0.6);
    c.finish(0.1, 0.06)
}

/// The turn passes: the kabuki clappers, twice ("chon, chon").
fn turn(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.4);
    c.add(0.0, &instruments::hyoshigi(0.8, rng), 1.0);
    c.add(0.14, &instruments::hyoshigi(1.0, rng), 1.0);
    c.finish(0.3, 0.1)
}

/// Two tiles trade places: a short slide of air between two light knocks.
fn swap(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.22);
    c.add(0.0, &instruments::tile_click(0.95, 0.5, rng), 1.0);
    c.add(
        0.01,
        &instruments::swish(900.0, 3200.0, 0.13, 1.6, rng),
        1.0,
    );
    c.add(0.14, &instruments::tile_click(1.08, 0.8, rng), 1.0);
    c.finish(0.15, 0.04)
}

/// A strum of koto notes `gap` seconds apart on a canvas `seconds` long.
fn strum(notes: &[i32], gap: f64, seconds: f64, rng: &mut Rng) -> Canvas {
    let mut c = canvas(seconds);
    for (i, &n) in notes.iter().enumerate() {
        let vel = 0.8 + 0.2 * i as f64 / notes.len().max(1) as f64;
        c.add(gap * i as f64, &koto(n, vel, Pluck::KOTO, rng), 1.0);
    }
    c
}

/// The combos' strums, each starting and ending higher than the one before, and longer.
pub const COMBOS: [&[i32]; 3] = [&[D5, A5], &[E5, A5, B5], &[G5, A5, B5, D6]];

/// A first combo: a rising fifth.
fn combo1(rng: &mut Rng) -> Vec<f64> {
    strum(COMBOS[0], 0.06, 0.5, rng).finish(0.3, 0.2)
}

/// A second combo: three notes, higher.
fn combo2(rng: &mut Rng) -> Vec<f64> {
    strum(COMBOS[1], 0.05, 0.55, rng).finish(0.3, 0.22)
}

/// A third combo and beyond: four notes up to the high D, and a small bell.
fn combo3(rng: &mut Rng) -> Vec<f64> {
    let mut c = strum(COMBOS[2], 0.045, 0.65, rng);
    c.add(
        0.135,
        &instruments::bell(midi_hz(f64::from(D6)), 0.5, 1.2, &RIN, 1.0),
        0.5,
    );
    c.finish(0.35, 0.25)
}

/// A blow lands: a mid taiko and its rim together.
fn hit(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.38);
    c.add(0.0, &instruments::taiko(120.0, 1.0, 0.4, rng), 1.0);
    c.add(0.0, &instruments::ka(0.7, rng), 0.7);
    c.finish(0.15, 0.1)
}

/// One count of the countdown: a small taiko with the shime.
fn countdown(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.42);
    c.add(0.0, &instruments::taiko(150.0, 0.9, 0.4, rng), 1.0);
    c.add(0.0, &instruments::shime(0.6, rng), 0.6);
    c.finish(0.2, 0.12)
}

/// Go: the big drum, its rim and the clappers, with a koto chord over them.
fn go(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.8);
    c.add(0.0, &instruments::taiko(82.0, 1.0, 0.8, rng), 1.0);
    c.add(0.0, &instruments::ka(0.8, rng), 0.6);
    c.add(0.0, &instruments::hyoshigi(0.6, rng), 0.35);
    for (i, n) in [D4, A4, D5].into_iter().enumerate() {
        c.add(
            0.02 + 0.018 * i as f64,
            &koto(n, 0.9, Pluck::KOTO, rng),
            0.45,
        );
    }
    c.finish(0.3, 0.3)
}

/// A stage cleared: a quick koto run up the scale and the rin.
fn clear(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.2);
    for (i, n) in [D5, E5, G5, A5, B5, D6, E6].into_iter().enumerate() {
        c.add(0.035 * i as f64, &koto(n, 0.65, Pluck::KOTO, rng), 0.7);
    }
    c.add(
        0.25,
        &instruments::bell(midi_hz(f64::from(A5)), 0.9, 2.2, &RIN, 0.9),
        1.0,
    );
    c.finish(0.35, 0.5)
}

/// A stage failed: three soft notes falling, the last a semitone, and a quiet low drum.
fn fail(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.0);
    for (i, n) in [69, 65, 64].into_iter().enumerate() {
        c.add(0.18 * i as f64, &koto(n, 0.75, Pluck::SOFT, rng), 1.0);
    }
    c.add(0.36, &instruments::taiko(70.0, 0.45, 0.6, rng), 0.8);
    c.finish(0.35, 0.45)
}

/// A knockout: a short roll on the mid drum into the big drum and a gong.
fn knockout(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.2);
    for (i, vel) in [0.45, 0.6, 0.75].into_iter().enumerate() {
        c.add(
            0.07 * i as f64,
            &instruments::taiko(132.0, vel, 0.3, rng),
            0.7,
        );
    }
    c.add(0.23, &instruments::taiko(76.0, 1.0, 0.9, rng), 1.0);
    c.add(0.23, &instruments::ka(0.9, rng), 0.5);
    c.add(
        0.23,
        &instruments::bell(midi_hz(f64::from(D4 - 12)), 1.0, 2.5, &GONG, 1.3),
        0.7,
    );
    c.finish(0.35, 0.5)
}

/// The menu's focus moves: a tiny, high tick.
fn menu_move(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.07);
    c.add(0.0, &instruments::tile_click(1.3, 0.8, rng), 1.0);
    c.finish(0.0, 0.03)
}

/// A menu item chosen: a bright pluck on a wooden knock.
fn menu_select(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.26);
    c.add(0.0, &instruments::wood(1.6, 0.6, rng), 0.5);
    c.add(0.005, &koto(A5, 0.9, Pluck::KOTO, rng), 1.0);
    c.finish(0.2, 0.12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_combos_rise() {
        for pair in COMBOS.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(a.len() < b.len(), "{a:?} {b:?}");
            assert!(
                a[0] < b[0] && a[a.len() - 1] < b[b.len() - 1],
                "{a:?} {b:?}"
            );
        }
        for notes in COMBOS {
            assert!(
                notes.windows(2).all(|w| w[0] < w[1]),
                "{notes:?} strums upward"
            );
        }
    }

    #[test]
    fn every_effect_has_a_distinct_wav_name() {
        let mut names: Vec<&str> = EFFECTS.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), EFFECTS.len());
        assert!(names.iter().all(|n| n.ends_with(".wav")));
    }
}
