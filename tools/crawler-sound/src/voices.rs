//! The crawl's own voices, beside the synthesiser's instruments: feet on stone, a door's hinge, iron
//! bolts, a beast's throat and the low drone of the deep.
//!
//! Each is built from `jengine_synth::dsp` alone (its sine, exponential, filters and seeded
//! noise), so it is as exactly repeatable as the synthesiser's own; each returns floats about
//! -1..1.

use jengine_synth::dsp::{OnePole, Rng, SR, Svf, decay, samples, sin_turns};
use jengine_synth::instruments::{Mode, fade_in, fade_out, struck};

/// One footfall on stone: a dull heel thump, then the scuff of grit under the sole (noise
/// banded round `grit` Hz), the two 30 ms apart. `weight` 0..1 deepens and lengthens it.
pub fn footstep(grit: f64, weight: f64, rng: &mut Rng) -> Vec<f64> {
    let len = samples(0.16 + 0.06 * weight);
    let mut out = vec![0.0; len];
    // The heel: a short low thump whose pitch sags as the weight lands.
    let mut phase = rng.unit();
    let mut env = 0.8 + 0.4 * weight;
    let k = decay(0.07 + 0.05 * weight);
    for (i, s) in out.iter_mut().enumerate() {
        let t = i as f64 / SR;
        phase += (70.0 + 60.0 * falloff_at(t, 0.015)) / SR;
        *s += env * sin_turns(phase);
        env *= k;
    }
    // The scuff: banded noise, a quick rise and a short fall.
    let mut band = Svf::new(grit, 0.9);
    let start = samples(0.03);
    let k = decay(0.09);
    let mut env = 0.9;
    for (i, s) in out.iter_mut().enumerate().skip(start) {
        let rise = ((i - start) as f64 / samples(0.004) as f64).min(1.0);
        *s += rise * env * band.run(rng.signed()).band;
        env *= k;
    }
    fade_in(&mut out, samples(0.002));
    fade_out(&mut out, samples(0.02));
    out
}

/// e^(-t/tau), a glide's fraction still to go after `t` seconds.
fn falloff_at(t: f64, tau: f64) -> f64 {
    jengine_synth::dsp::exp(-t / tau)
}

/// A dull thud: a body knocked against rock, low and quickly damped, with a little dust.
pub fn thud(freq: f64, rng: &mut Rng) -> Vec<f64> {
    let modes = [
        Mode {
            freq,
            level: 1.0,
            ring: 0.22,
        },
        Mode {
            freq: freq * 1.53,
            level: 0.45,
            ring: 0.12,
        },
        Mode {
            freq: freq * 2.4,
            level: 0.2,
            ring: 0.06,
        },
    ];
    let mut out = struck(&modes, 0.6, 500.0, 0.06, rng);
    let mut soften = OnePole::new(900.0);
    for s in &mut out {
        *s = soften.lowpass(*s);
    }
    fade_out(&mut out, samples(0.02));
    out
}

/// A hinge creaking: stick-slip friction, a train of tiny catches whose rate glides from
/// `from` to `peak` Hz and settles at `to`, each catch ringing two resonances of the wooden
/// door (so the rate is heard as the creak's pitch and the wood as its colour).
pub fn creak(from: f64, peak: f64, to: f64, seconds: f64, rng: &mut Rng) -> Vec<f64> {
    let len = samples(seconds);
    let mut body = [Svf::new(620.0, 9.0), Svf::new(1450.0, 7.0)];
    let mut air = OnePole::new(3000.0);
    let mut phase = 0.0;
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let a = i as f64 / len as f64;
        // Up to the peak over the first 40%, then easing down, with a waver of grip.
        let rate = if a < 0.4 {
            from + (peak - from) * sin_turns(a / 0.4 * 0.25)
        } else {
            peak + (to - peak) * sin_turns((a - 0.4) / 0.6 * 0.25)
        } * (1.0 + 0.04 * rng.signed());
        phase += rate / SR;
        let catch = if phase >= 1.0 {
            phase -= phase.floor();
            1.0 + 0.3 * rng.signed()
        } else {
            0.0
        };
        // Grip comes and goes: loud in the middle of the swing, fading at both ends.
        let grip = sin_turns(a * 0.5);
        let x = catch * grip + 0.02 * rng.signed() * grip;
        let y = body[0].run(x).band + 0.6 * body[1].run(x).band;
        out.push(air.lowpass(y));
    }
    fade_in(&mut out, samples(0.01));
    fade_out(&mut out, samples(0.03));
    out
}

/// Small iron clinks: a handful of bright inharmonic modes, gone in a few hundredths of a
/// second (bolts, a chain, a key in a lock). `pitch` scales them.
pub fn clink(pitch: f64, rng: &mut Rng) -> Vec<f64> {
    let ratios = [
        (1.0, 1.0, 0.06),
        (1.51, 0.6, 0.05),
        (2.27, 0.45, 0.04),
        (3.1, 0.3, 0.03),
    ];
    let modes: Vec<Mode> = ratios
        .iter()
        .map(|&(r, level, ring)| Mode {
            freq: 1900.0 * pitch * r,
            level,
            ring,
        })
        .collect();
    struck(&modes, 0.4, 5000.0, 0.01, rng)
}

/// A coin: like a clink but ringing, its partials in pairs a few hertz apart so it shimmers.
pub fn coin(pitch: f64, rng: &mut Rng) -> Vec<f64> {
    let mut modes = Vec::new();
    for &(r, level, ring) in &[(1.0, 1.0, 0.5), (2.76, 0.5, 0.35), (5.4, 0.25, 0.2)] {
        let f = 2300.0 * pitch * r;
        modes.push(Mode {
            freq: f,
            level,
            ring,
        });
        modes.push(Mode {
            freq: f + 7.0,
            level: level * 0.6,
            ring,
        });
    }
    struck(&modes, 0.3, 6000.0, 0.01, rng)
}

/// A beast's growl: a rough buzz at `freq` Hz (a pulse train, its rate shaken by noise) through
/// a throat's two formants, swelling over `seconds` and dropping away.
pub fn growl(freq: f64, seconds: f64, rng: &mut Rng) -> Vec<f64> {
    let len = samples(seconds);
    let mut throat = [Svf::new(420.0, 4.0), Svf::new(900.0, 5.0)];
    let mut shake = OnePole::new(25.0);
    let mut phase = 0.0;
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let a = i as f64 / len as f64;
        let wobble = shake.lowpass(rng.signed()) * 6.0;
        // The pitch rises a little into the snarl and sinks at the end.
        let f = freq * (1.0 + 0.25 * sin_turns(a * 0.5)) * (1.0 + 0.3 * wobble);
        phase += f / SR;
        phase -= phase.floor();
        // A narrow pulse: rich in harmonics, the throat picks out its vowel.
        let pulse = if phase < 0.12 { 1.0 } else { -0.136 };
        let x = pulse + 0.15 * rng.signed();
        let y = throat[0].run(x).band + 0.7 * throat[1].run(x).band;
        let swell = sin_turns(a * 0.5);
        out.push(y * swell * swell.sqrt());
    }
    fade_in(&mut out, samples(0.01));
    fade_out(&mut out, samples(0.05));
    out
}

/// A sine that falls 60 dB in `ring` seconds, for a low boom under a sting.
pub fn boom(freq: f64, ring: f64) -> Vec<f64> {
    let len = samples(ring);
    let k = decay(ring);
    let mut env = 1.0;
    let mut out: Vec<f64> = (0..len)
        .map(|i| {
            let s = env * sin_turns(freq * i as f64 / SR);
            env *= k;
            s
        })
        .collect();
    fade_in(&mut out, samples(0.004));
    fade_out(&mut out, samples(0.05));
    out
}

/// A drone `len` samples long that loops seamlessly: a low pair of tones `beat` Hz apart
/// (so they swell and fade against each other), each with a few harmonics, and a breath of
/// low rumble. Every frequency must be a whole number of cycles in `len` (the caller picks
/// them on that grid), and the rumble is filtered round the loop, so the end flows into the
/// start.
pub fn drone(root: f64, beat: f64, len: usize, rng: &mut Rng) -> Vec<f64> {
    let mut out = vec![0.0; len];
    let partials = [
        (1.0, 1.0),
        (2.0, 0.45),
        (3.0, 0.22),
        (4.0, 0.1),
        (5.0, 0.06),
    ];
    for (f, gain) in [(root, 1.0), (root + beat, 0.85)] {
        for &(h, level) in &partials {
            let step = f * h / SR;
            let phase0 = rng.unit();
            for (i, s) in out.iter_mut().enumerate() {
                *s += gain * level * sin_turns(phase0 + step * i as f64);
            }
        }
    }
    let noise: Vec<f64> = (0..len).map(|_| rng.signed()).collect();
    let mut low = Svf::new(root * 2.0, 0.7);
    let rumble = jengine_synth::dsp::circular(&noise, |x| low.run(x).low);
    for (s, r) in out.iter_mut().zip(rumble) {
        *s += 1.2 * r;
    }
    out
}
