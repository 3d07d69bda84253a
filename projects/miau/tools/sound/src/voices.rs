//! Miau's own voices, lighter than the synthesiser's koto and drums: a marimba bar, a kalimba tine
//! and a small cat's mew.
//!
//! The bar and the tine are a few decaying sine modes ([`instruments::struck`]) at the
//! ratios their bodies ring at (a marimba bar is tuned 1 : 4 : 10, a tine's overtones sit
//! near 5.4 and 13.3 and die at once); the mew is a buzzy tone whose pitch rises and falls
//! while a band-pass slides from an "i" to an "au", so it says "mi-au".

use jengine_synth::dsp::{Rng, SR, Svf, midi_hz, samples, sin_turns};
use jengine_synth::instruments::{self, Mode};

/// A marimba bar at MIDI `note`, `vel` 0..1; `ring` is seconds to fall 60 dB (about 0.8
/// for a bar of the middle register, shorter for a muffled stroke).
pub fn marimba(note: f64, vel: f64, ring: f64, rng: &mut Rng) -> Vec<f64> {
    let f = midi_hz(note);
    let modes = [
        Mode {
            freq: f,
            level: 0.8 * vel,
            ring,
        },
        Mode {
            freq: 3.99 * f,
            level: 0.22 * vel,
            ring: ring * 0.3,
        },
        Mode {
            freq: 9.9 * f,
            level: 0.06 * vel,
            ring: ring * 0.1,
        },
    ];
    // The mallet's soft felt: a little low noise, over in a few milliseconds.
    instruments::struck(&modes, 0.12 * vel, (2.0 * f).min(3000.0), 0.008, rng)
}

/// A kalimba tine at MIDI `note`, `vel` 0..1: a bright click and a long, pure ring.
pub fn kalimba(note: f64, vel: f64, ring: f64, rng: &mut Rng) -> Vec<f64> {
    let f = midi_hz(note);
    let modes = [
        Mode {
            freq: f,
            level: 0.7 * vel,
            ring,
        },
        Mode {
            freq: 5.4 * f,
            level: 0.18 * vel,
            ring: 0.06,
        },
        Mode {
            freq: 13.3 * f,
            level: 0.05 * vel,
            ring: 0.02,
        },
    ];
    instruments::struck(&modes, 0.2 * vel, 3500.0, 0.004, rng)
}

/// A small mew, `seconds` long, its pitch leaving from `hz`: up a fifth into the "i", then
/// down past where it started on the "au", with a quick sway.
pub fn mew(hz: f64, seconds: f64, vel: f64) -> Vec<f64> {
    let len = samples(seconds);
    let mut formant = Svf::new(2600.0, 2.5);
    let mut body = Svf::new(1800.0, 0.7);
    let mut phase = 0.0;
    let mut out: Vec<f64> = (0..len)
        .map(|i| {
            let a = i as f64 / len as f64;
            // Rise over the first third, then fall: a raised-cosine hump with a droop.
            let hump = sin_turns(0.5 * a.min(1.0));
            let pitch = hz * (1.0 + 0.5 * hump * (1.0 - 0.6 * a)) * (1.0 - 0.15 * a * a);
            let sway = 1.0 + 0.012 * sin_turns(i as f64 * 7.0 / SR);
            phase += pitch * sway / SR;
            // A buzzy source: four harmonics, falling 1/k.
            let mut src = 0.0;
            for k in 1..=4 {
                src += sin_turns(phase * k as f64) / k as f64;
            }
            // The mouth: "i" (a high formant) opening to "au" (low).
            formant.tune(2600.0 - 1800.0 * a, 2.5);
            body.tune(1800.0 - 900.0 * a, 0.7);
            let voiced = 0.6 * formant.run(src).band + 0.5 * body.run(src).low;
            // Loudness: a quick swell, held, then a soft close.
            let env = sin_turns(0.5 * a) * (1.0 - 0.3 * a);
            vel * env * voiced
        })
        .collect();
    instruments::fade_in(&mut out, samples(0.004));
    instruments::fade_out(&mut out, samples(0.02));
    out
}

/// `signal` backwards: a struck note heard in reverse swells into its strike.
pub fn reversed(signal: &[f64]) -> Vec<f64> {
    signal.iter().rev().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine_synth::dsp::peak;

    #[test]
    fn voices_are_audible_and_start_and_end_in_silence() {
        let mut rng = Rng::new(1);
        for v in [
            marimba(72.0, 1.0, 0.8, &mut rng),
            kalimba(84.0, 1.0, 1.0, &mut rng),
            mew(700.0, 0.35, 1.0),
        ] {
            assert!(peak(&v) > 0.05);
            assert!(v[0].abs() < 1e-9 && v[v.len() - 1].abs() < 1e-9);
        }
    }

    #[test]
    fn reversing_twice_is_the_same_sound() {
        let mut rng = Rng::new(2);
        let m = marimba(60.0, 1.0, 0.4, &mut rng);
        assert_eq!(reversed(&reversed(&m)), m);
    }
}
