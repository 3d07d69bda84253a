//! A fixed-length buffer an effect is laid out on: strokes added at their times, then a touch
//! of room and fades to silence. Every game's sound tool lays its effects out on one, each
//! with its own room.

use crate::dsp::{Reverb, samples};
use crate::instruments;

/// The room an effect sounds in, and how it fades in.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Room {
    /// The reverb's size ([`Reverb::new`]).
    pub size: f64,
    /// The reverb's damping.
    pub damp: f64,
    /// Seconds the start fades up from silence (0: none).
    pub fade_in: f64,
}

/// Sounds laid on a buffer of a fixed length.
pub struct Canvas {
    buf: Vec<f64>,
    room: Room,
}

impl Canvas {
    /// A silent canvas `seconds` long, in `room`.
    pub fn new(seconds: f64, room: Room) -> Canvas {
        Canvas {
            buf: vec![0.0; samples(seconds)],
            room,
        }
    }

    /// Lays `sound × gain` from `at` seconds; whatever runs past the end is cut (the fade at
    /// the end hides the cut).
    pub fn add(&mut self, at: f64, sound: &[f64], gain: f64) {
        for (dst, s) in self.buf.iter_mut().skip(samples(at)).zip(sound) {
            *dst += s * gain;
        }
    }

    /// Adds `amount` of the room's reverb, fades the start up (the room's `fade_in`) and the
    /// last `fade` seconds down to silence.
    pub fn finish(mut self, amount: f64, fade: f64) -> Vec<f64> {
        if amount > 0.0 {
            let mut reverb = Reverb::new(self.room.size, self.room.damp);
            for s in &mut self.buf {
                *s += amount * reverb.run(*s);
            }
        }
        instruments::fade_in(&mut self.buf, samples(self.room.fade_in));
        instruments::fade_out(&mut self.buf, samples(fade));
        self.buf
    }
}
