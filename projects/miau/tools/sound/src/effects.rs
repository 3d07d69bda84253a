//! The sound effects: a few strokes of Miau's voices laid out in time on a short canvas, a
//! touch of room, and fades at both ends, so every effect starts and ends on a zero sample.
//!
//! Pitched effects stay on the major pentatonic on C (C D E G A), the music's scale, so an
//! effect over the loop never sounds out of tune; only the refusal and the defeat step down
//! a semitone, the one sad interval Miau allows itself.

use jengine_synth::Effect;
use jengine_synth::canvas::{Canvas, Room};
use jengine_synth::dsp::{Rng, samples};
use jengine_synth::instruments;

use crate::voices::{kalimba, marimba, mew, reversed};

/// Every effect, in the order they are written.
pub const EFFECTS: [Effect; 13] = [
    Effect {
        name: "step.wav",
        make: step,
    },
    Effect {
        name: "push.wav",
        make: push,
    },
    Effect {
        name: "rule_formed.wav",
        make: rule_formed,
    },
    Effect {
        name: "rule_broken.wav",
        make: rule_broken,
    },
    Effect {
        name: "refuse.wav",
        make: refuse,
    },
    Effect {
        name: "undo.wav",
        make: undo,
    },
    Effect {
        name: "win.wav",
        make: win,
    },
    Effect {
        name: "defeat.wav",
        make: defeat,
    },
    Effect {
        name: "mew.wav",
        make: mew_call,
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
        name: "transform.wav",
        make: transform,
    },
    Effect {
        name: "sink.wav",
        make: sink,
    },
];

// MIDI numbers of the pentatonic on C, the effects' notes.
const D4: f64 = 62.0;
const E4: f64 = 64.0;
const G4: f64 = 67.0;
const A4: f64 = 69.0;
const C5: f64 = 72.0;
const E5: f64 = 76.0;
const G5: f64 = 79.0;
const A5: f64 = 81.0;
const C6: f64 = 84.0;
const E6: f64 = 88.0;
const G6: f64 = 91.0;

/// The rule-formed triad, rising ...
pub const FORMED: [f64; 3] = [C5, E5, G5];
/// ... and the rule-broken pair, falling.
pub const BROKEN: [f64; 2] = [E5, A4];

/// The room Miau's effects sound in: a small bright reverb, 2 ms of fade in.
const ROOM: Room = Room {
    size: 0.35,
    damp: 0.6,
    fade_in: 0.002,
};

/// A silent canvas `seconds` long in this game's room.
fn canvas(seconds: f64) -> Canvas {
    Canvas::new(seconds, ROOM)
}

/// A step: a soft padded paw, a muffled low bar under a tiny tick. Heard on every move, so
/// it is short and dull.
fn step(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.12);
    c.add(0.0, &marimba(G4, 0.9, 0.09, rng), 1.0);
    c.add(0.0, &instruments::wood(1.9, 0.25, rng), 0.35);
    c.finish(0.08, 0.04)
}

/// A push: a word or thing sliding a cell, a short rising breath of air over a wooden knock.
fn push(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.2);
    c.add(0.0, &instruments::swish(500.0, 1600.0, 0.14, 1.4, rng), 1.0);
    c.add(0.0, &marimba(E4, 0.8, 0.12, rng), 0.7);
    c.add(0.11, &instruments::wood(1.2, 0.5, rng), 0.6);
    c.finish(0.1, 0.05)
}

/// A rule formed: a bright rising triad on marimba, the top doubled by a kalimba.
fn rule_formed(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.6);
    for (i, &n) in FORMED.iter().enumerate() {
        c.add(0.065 * i as f64, &marimba(n, 0.85, 0.7, rng), 1.0);
    }
    c.add(0.13, &kalimba(G5 + 12.0, 0.6, 0.6, rng), 0.4);
    c.finish(0.2, 0.2)
}

/// A rule broken: a falling pair on a muffled marimba.
fn rule_broken(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.42);
    for (i, &n) in BROKEN.iter().enumerate() {
        c.add(0.1 * i as f64, &marimba(n, 0.8, 0.35, rng), 1.0);
    }
    c.finish(0.15, 0.15)
}

/// A refusal: a soft, dull "uh-uh", two muffled low bars, the second a semitone lower.
fn refuse(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.3);
    c.add(0.0, &marimba(D4 - 12.0, 1.0, 0.12, rng), 1.0);
    c.add(0.0, &marimba(D4, 0.6, 0.08, rng), 0.4);
    c.add(0.12, &marimba(D4 - 13.0, 1.0, 0.12, rng), 1.0);
    c.add(0.12, &marimba(D4 - 1.0, 0.6, 0.08, rng), 0.4);
    c.finish(0.06, 0.06)
}

/// Undo: a quick reverse swish, a kalimba note heard backwards over air sweeping down.
fn undo(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.22);
    let note = kalimba(A5, 0.8, 0.2, rng);
    let tail = &note[..note.len().min(samples(0.18))];
    c.add(0.0, &reversed(tail), 1.0);
    c.add(
        0.02,
        &instruments::swish(3000.0, 700.0, 0.17, 1.2, rng),
        0.8,
    );
    c.finish(0.08, 0.03)
}

/// A win: a happy phrase up the scale to the high C, a kalimba sparkle and a mew.
fn win(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.3);
    let phrase = [C5, E5, G5, A5, G5, C6];
    let times = [0.0, 0.09, 0.18, 0.27, 0.36, 0.5];
    for (&n, &t) in phrase.iter().zip(&times) {
        c.add(t, &marimba(n, 0.85, 0.8, rng), 0.9);
    }
    for (i, &n) in [C6, E6, G6].iter().enumerate() {
        c.add(0.5 + 0.04 * i as f64, &kalimba(n, 0.6, 0.9, rng), 0.35);
    }
    c.add(0.72, &mew(760.0, 0.34, 0.8), 0.5);
    c.finish(0.25, 0.35)
}

/// A defeat: three soft notes falling, the last a semitone, and a low bar under it.
fn defeat(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.9);
    for (i, &n) in [G4, E4, E4 - 1.0].iter().enumerate() {
        c.add(0.16 * i as f64, &marimba(n, 0.8, 0.5, rng), 1.0);
    }
    c.add(0.32, &marimba(E4 - 25.0, 0.9, 0.6, rng), 0.6);
    c.finish(0.2, 0.35)
}

/// A thing becomes another: a quick kalimba shimmer up and back, like a spell.
fn transform(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.5);
    for (i, &n) in [E5, G5, C6, G5, E6].iter().enumerate() {
        c.add(0.045 * i as f64, &kalimba(n, 0.7, 0.3, rng), 0.8);
    }
    c.add(
        0.0,
        &instruments::swish(1200.0, 4200.0, 0.22, 1.0, rng),
        0.35,
    );
    c.finish(0.2, 0.12)
}

/// Something sinks: a low marimba bar and air sweeping down, as into water.
fn sink(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.6);
    c.add(0.0, &marimba(G4 - 12.0, 0.9, 0.45, rng), 1.0);
    c.add(0.02, &instruments::swish(2200.0, 300.0, 0.4, 1.4, rng), 0.7);
    c.finish(0.15, 0.15)
}

/// The mew alone: a level starts and the cat says hello.
fn mew_call(_: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.42);
    c.add(0.0, &mew(720.0, 0.36, 1.0), 1.0);
    c.finish(0.12, 0.05)
}

/// The menu's focus moves: a tiny high kalimba tick.
fn menu_move(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.08);
    c.add(0.0, &kalimba(E6, 0.7, 0.1, rng), 1.0);
    c.finish(0.0, 0.03)
}

/// A menu item chosen: two kalimba notes up a fourth.
fn menu_select(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.3);
    c.add(0.0, &kalimba(G5, 0.8, 0.4, rng), 1.0);
    c.add(0.06, &kalimba(C6, 0.9, 0.4, rng), 1.0);
    c.finish(0.12, 0.12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_formed_rises_and_a_rule_broken_falls() {
        assert!(FORMED.windows(2).all(|w| w[0] < w[1]));
        assert!(BROKEN.windows(2).all(|w| w[0] > w[1]));
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
