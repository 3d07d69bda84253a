//! The effects: each a few strokes of the crawl's voices (and the synthesiser's koto) laid out in time
//! on a short canvas, a touch of stone room, and a fade to silence, so every effect starts and
//! ends on a zero sample. Both games share the list; each game's seed colours its noise.

use jengine_synth::Effect;
use jengine_synth::canvas::{Canvas, Room};
use jengine_synth::dsp::{Rng, midi_hz};
use jengine_synth::instruments::{self, Pluck};

use crate::voices;

macro_rules! effects {
    ($($name:literal => $make:ident),* $(,)?) => {
        /// Every effect, in the order they are written.
        pub const EFFECTS: &[Effect] = &[$(Effect { name: $name, make: $make }),*];
    };
}

effects! {
    "step.wav" => step,
    "bump.wav" => bump,
    "door.wav" => door,
    "locked.wav" => locked,
    "unlock.wav" => unlock,
    "lever.wav" => lever,
    "loot.wav" => loot,
    "trap.wav" => trap,
    "hit.wav" => hit,
    "hurt.wav" => hurt,
    "growl.wav" => growl,
    "stairs.wav" => stairs,
    "win.wav" => win,
    "lose.wav" => lose,
}

/// The room the crawl's effects sound in: stone, a longer reverb, 1 ms of fade in.
const ROOM: Room = Room {
    size: 0.6,
    damp: 0.35,
    fade_in: 0.001,
};

/// A silent canvas `seconds` long in this game's room.
fn canvas(seconds: f64) -> Canvas {
    Canvas::new(seconds, ROOM)
}

fn koto(note: i32, vel: f64, pluck: Pluck, rng: &mut Rng) -> Vec<f64> {
    instruments::koto(midi_hz(f64::from(note)), vel, pluck, rng)
}

/// One footfall on stone, the party's every step (played a little higher or lower each time).
fn step(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.26);
    c.add(0.0, &voices::footstep(1100.0, 0.4, rng), 1.0);
    c.finish(0.25, 0.04)
}

/// Walking into rock or a shut door: a dull thud and a scuff.
fn bump(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.32);
    c.add(0.0, &voices::thud(62.0, rng), 1.0);
    c.add(0.0, &voices::footstep(700.0, 0.9, rng), 0.4);
    c.finish(0.2, 0.05)
}

/// A door creaking open on old hinges and knocking against the wall.
fn door(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.15);
    c.add(0.0, &voices::creak(55.0, 150.0, 85.0, 0.9, rng), 1.0);
    c.add(0.88, &voices::thud(90.0, rng), 0.7);
    c.finish(0.3, 0.08)
}

/// A locked door shaken: the bolt rattles in its keep, and the door will not give.
fn locked(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.5);
    for (i, at) in [0.0, 0.045, 0.08, 0.13, 0.165, 0.21].iter().enumerate() {
        let mut r = rng.fork();
        c.add(
            *at,
            &voices::clink(0.55 + 0.07 * (i % 3) as f64, &mut r),
            0.7,
        );
        c.add(*at, &voices::thud(110.0, &mut r), 0.35);
    }
    c.finish(0.25, 0.08)
}

/// A key turned in a lock, the bolt drawn back, a short creak as the door gives.
fn unlock(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.0);
    c.add(0.0, &voices::clink(0.8, rng), 0.8);
    c.add(0.12, &voices::clink(0.6, rng), 0.9);
    c.add(0.14, &voices::thud(140.0, rng), 0.5);
    c.add(0.3, &voices::creak(70.0, 170.0, 110.0, 0.6, rng), 0.9);
    c.finish(0.3, 0.08)
}

/// A lever pulled: a heavy clunk, chains running, bolts sliding somewhere off.
fn lever(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.1);
    c.add(0.0, &voices::thud(75.0, rng), 1.0);
    for i in 0..10 {
        let mut r = rng.fork();
        c.add(
            0.12 + 0.05 * i as f64,
            &voices::clink(0.35 + 0.03 * (i % 4) as f64, &mut r),
            0.35,
        );
    }
    c.add(0.75, &voices::thud(55.0, rng), 0.6);
    c.finish(0.45, 0.1)
}

/// A chest's loot: coins tumbling out, bright and shimmering.
fn loot(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.9);
    c.add(0.0, &voices::thud(130.0, rng), 0.4);
    for (at, pitch) in [
        (0.03, 1.0),
        (0.09, 1.19),
        (0.14, 0.89),
        (0.2, 1.33),
        (0.27, 1.12),
    ] {
        let mut r = rng.fork();
        c.add(at, &voices::coin(pitch, &mut r), 0.6);
    }
    c.finish(0.25, 0.2)
}

/// A trap going off: a sharp iron snap and a dart's hiss.
fn trap(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.55);
    c.add(0.0, &voices::clink(0.45, rng), 1.0);
    c.add(0.0, &voices::thud(160.0, rng), 0.5);
    c.add(
        0.04,
        &instruments::swish(5000.0, 1500.0, 0.25, 1.0, rng),
        0.9,
    );
    c.finish(0.25, 0.08)
}

/// A blow landing: a crack of air and a meaty thump.
fn hit(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.35);
    c.add(0.0, &instruments::swish(2500.0, 800.0, 0.07, 1.0, rng), 0.8);
    c.add(0.03, &voices::thud(105.0, rng), 1.0);
    c.finish(0.2, 0.05)
}

/// The party hurt: a snarl and a heavy knock.
fn hurt(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(0.45);
    c.add(0.0, &voices::growl(110.0, 0.3, rng), 0.8);
    c.add(0.05, &voices::thud(80.0, rng), 1.0);
    c.finish(0.2, 0.06)
}

/// A monster waking, or a fight beginning: a low growl from the dark.
fn growl(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.0);
    c.add(0.0, &voices::growl(68.0, 0.85, rng), 1.0);
    c.finish(0.45, 0.1)
}

/// Stairs: four steps, each further down and echoing more.
fn stairs(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.2);
    for i in 0..4 {
        let mut r = rng.fork();
        let grit = 1200.0 - 150.0 * i as f64;
        c.add(
            0.2 * i as f64,
            &voices::footstep(grit, 0.3 + 0.15 * i as f64, &mut r),
            1.0,
        );
    }
    c.finish(0.5, 0.15)
}

// MIDI numbers round D: the stings sit on D, the town music's key.
const D3: i32 = 50;
const F3: i32 = 53;
const A3: i32 = 57;
const D4: i32 = 62;
const FS4: i32 = 66;
const A4: i32 = 69;
const D5: i32 = 74;

/// Victory: a quick harp run up D major and a low bell of a boom under it.
fn win(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.4);
    for (i, note) in [D4, FS4, A4, D5].iter().enumerate() {
        let mut r = rng.fork();
        c.add(0.09 * i as f64, &koto(*note, 0.8, Pluck::KOTO, &mut r), 0.7);
    }
    c.add(0.27, &koto(A3, 0.6, Pluck::BASS, rng), 0.5);
    c.add(0.0, &voices::boom(73.42, 1.2), 0.4);
    c.finish(0.35, 0.3)
}

/// Defeat: three muffled notes falling down D minor and a slow low boom.
fn lose(rng: &mut Rng) -> Vec<f64> {
    let mut c = canvas(1.45);
    for (i, note) in [A3, F3, D3].iter().enumerate() {
        let mut r = rng.fork();
        c.add(0.28 * i as f64, &koto(*note, 0.8, Pluck::SOFT, &mut r), 0.8);
    }
    c.add(0.56, &voices::boom(36.71, 0.85), 0.7);
    c.add(0.56, &voices::growl(50.0, 0.6, rng), 0.25);
    c.finish(0.35, 0.3)
}
