//! The instruments: each turns one note (a pitch, a loudness, a length, a seed) into samples,
//! its whole ring included.
//!
//! The koto is a Karplus–Strong string (a burst of noise circulating in a delay line one
//! period long, losing its highs a little every trip); the drums and wood are a few decaying
//! sine modes with a burst of filtered noise for the strike; the bell is inharmonic partials
//! in slightly detuned pairs, so it shimmers; the shakuhachi is a breathy sine whose pitch
//! rises into the note and sways; the shō is a soft reed chord.

use crate::dsp::{
    DcBlock, OnePole, Rng, SR, Svf, cos_turns, decay, exp, falloff, pow2, samples, sin_turns,
};

/// How a koto string is plucked.
#[derive(Clone, Copy, Debug)]
pub struct Pluck {
    /// 0..1: how bright the pick's attack is (the cutoff of the noise burst).
    pub bright: f64,
    /// Seconds for the string to fall 60 dB.
    pub ring: f64,
    /// Where along the string the pick strikes, as a fraction (near the bridge is twangier).
    pub position: f64,
}

impl Pluck {
    /// The melody koto: bright, a long ring.
    pub const KOTO: Pluck = Pluck {
        bright: 0.75,
        ring: 2.4,
        position: 0.16,
    };
    /// An accompanying koto: softer pick, shorter ring, so it stays under the melody.
    pub const SOFT: Pluck = Pluck {
        bright: 0.45,
        ring: 1.6,
        position: 0.22,
    };
    /// The bass koto (jūshichigen): dark and long.
    pub const BASS: Pluck = Pluck {
        bright: 0.3,
        ring: 2.2,
        position: 0.25,
    };
    /// A string damped by the hand: a short, muffled knock with a pitch.
    pub const MUTED: Pluck = Pluck {
        bright: 0.35,
        ring: 0.18,
        position: 0.2,
    };
}

/// A plucked string at `freq` Hz, `vel` 0..1.
pub fn koto(freq: f64, vel: f64, pluck: Pluck, rng: &mut Rng) -> Vec<f64> {
    let freq = freq.clamp(20.0, SR / 6.0);
    let period = SR / freq;
    // The loss per trip round the loop, for the fundamental to fall 60 dB in `ring` seconds.
    let loss = exp(-6.907_755_278_982_137 / (pluck.ring * freq));
    // The loop's low-pass is a two-point weighted average, (1 - w)·x[n] + w·x[n-1]: a larger w
    // dulls the overtones faster. Its gain at the fundamental must not fall below `loss`, or
    // high notes would die in a moment whatever `ring` says, so w shrinks for high notes.
    let cos0 = cos_turns(freq / SR);
    let room = (1.0 - loss * loss) / (2.0 * (1.0 - cos0));
    let preferred = 0.5 - 0.25 * pluck.bright;
    let w = if preferred * (1.0 - preferred) <= room {
        preferred
    } else {
        // The smaller root of w(1 - w) = room.
        0.5 - (0.25 - room).max(0.0).sqrt()
    };
    let gain_at_f0 = (1.0 - 2.0 * w * (1.0 - w) * (1.0 - cos0)).sqrt();
    let trim = (loss / gain_at_f0).min(1.0);
    // The loop's delay is the line (whole samples), the average (about w samples) and an
    // all-pass for the fraction left, kept in 0.1..1.1 where its phase delay is even.
    let line = ((period - w - 0.1).floor() as usize).max(2);
    let fraction = period - w - line as f64;
    let ap = (1.0 - fraction) / (1.0 + fraction);

    // The string's shape at the moment it is let go: a triangle peaked where the pick holds
    // it (most of its energy in the low harmonics, which ring on), roughened with a little
    // filtered noise (the pick's scrape, which gives the attack its edge).
    let apex = pluck.position.clamp(0.05, 0.95);
    let mut scrape = OnePole::new(600.0 + 5000.0 * pluck.bright * (0.6 + 0.4 * vel));
    let noise: Vec<f64> = (0..line).map(|_| scrape.lowpass(rng.signed())).collect();
    let noise_peak = noise.iter().fold(1e-9, |m: f64, x| m.max(x.abs()));
    let roughness = 0.1 + 0.25 * pluck.bright;
    let mut burst: Vec<f64> = (0..line)
        .map(|i| {
            let x = (i as f64 + 0.5) / line as f64;
            let shape = if x < apex {
                x / apex
            } else {
                (1.0 - x) / (1.0 - apex)
            };
            shape * (1.0 - roughness) + roughness * noise[i] / noise_peak
        })
        .collect();
    let mean = burst.iter().sum::<f64>() / line as f64;
    let level = burst.iter().map(|x| (x - mean).abs()).fold(1e-9, f64::max);
    for x in &mut burst {
        *x = (*x - mean) / level * vel;
    }

    let len = samples(pluck.ring.min(4.0));
    // The burst starts in the loop, as though the string had been circulating it already, and
    // the filters' memories hold the sample before it: no start-up step in the sound.
    let held = burst[line - 1];
    let mut ring = burst;
    let mut pos = 0;
    let (mut last, mut ap_in, mut ap_out) = (held, held, held);
    let mut dc = DcBlock::default();
    let mut out = Vec::with_capacity(len);
    for _ in 0..len {
        let back = ring[pos];
        let avg = (1.0 - w) * back + w * last;
        last = back;
        let y = ap * avg + ap_in - ap * ap_out;
        ap_in = avg;
        ap_out = y;
        let s = trim * y;
        ring[pos] = s;
        pos = (pos + 1) % line;
        out.push(dc.run(s));
    }
    // How loud a pluck comes out depends on its noise and pitch; level every string by its
    // first quarter second, so `vel` alone sets how loud a note is.
    let body = crate::dsp::rms(&out[..samples(0.25).min(len)]).max(1e-9);
    for x in &mut out {
        *x *= 0.2 * vel / body;
    }
    fade_in(&mut out, samples(0.001));
    fade_out(&mut out, samples(0.02));
    out
}

/// One resonant mode of a struck body: frequency, level and the time to fall 60 dB.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    /// Hz.
    pub freq: f64,
    /// Its share of the stroke.
    pub level: f64,
    /// Seconds to fall 60 dB.
    pub ring: f64,
}

/// A struck body: decaying sine modes, each starting at the crest of a 1 ms rise, plus a
/// burst of band-passed noise for the strike itself.
pub fn struck(
    modes: &[Mode],
    noise: f64,
    noise_hz: f64,
    noise_ring: f64,
    rng: &mut Rng,
) -> Vec<f64> {
    let longest = modes
        .iter()
        .map(|m| m.ring)
        .fold(noise_ring, f64::max)
        .min(4.0);
    let len = samples(longest);
    let mut out = vec![0.0; len];
    for m in modes {
        let k = decay(m.ring);
        let mut env = m.level;
        let step = m.freq / SR;
        let phase0 = rng.unit();
        for (i, s) in out.iter_mut().enumerate() {
            *s += env * sin_turns(phase0 + step * i as f64);
            env *= k;
        }
    }
    if noise > 0.0 {
        let mut band = Svf::new(noise_hz, 1.2);
        let k = decay(noise_ring);
        let mut env = noise;
        for s in out.iter_mut() {
            *s += env * band.run(rng.signed()).band;
            env *= k;
        }
    }
    fade_in(&mut out, samples(0.001));
    fade_out(&mut out, samples(0.01));
    out
}

/// A taiko struck in the middle ("don"): the skin's pitch drops as the first shock passes,
/// then the drum booms at `freq`; `vel` 0..1.
pub fn taiko(freq: f64, vel: f64, ring: f64, rng: &mut Rng) -> Vec<f64> {
    let len = samples(ring);
    let mut out = vec![0.0; len];
    // The membrane's modes (ratios of a circular drum's), each fading faster than the last.
    let modes = [
        (1.0, 1.0, 1.0),
        (1.59, 0.32, 0.4),
        (2.14, 0.16, 0.25),
        (2.65, 0.08, 0.15),
    ];
    for (ratio, level, life) in modes {
        let k = decay(ring * life);
        let glide = falloff(0.03);
        let mut bend = 0.5;
        let mut env = level * vel;
        let mut phase = rng.unit();
        for s in out.iter_mut() {
            phase += freq * ratio * (1.0 + bend) / SR;
            *s += env * sin_turns(phase);
            env *= k;
            bend *= glide;
        }
    }
    // The stick on the skin: a short low thump of noise.
    let mut tone = Svf::new(500.0, 0.8);
    let k = decay(0.06);
    let mut env = 0.9 * vel;
    for s in out.iter_mut() {
        *s += env * tone.run(rng.signed()).low;
        env *= k;
    }
    fade_in(&mut out, samples(0.0015));
    fade_out(&mut out, samples(0.02));
    out
}

/// The taiko's rim ("ka"): a dry wooden crack.
pub fn ka(vel: f64, rng: &mut Rng) -> Vec<f64> {
    let modes = [
        Mode {
            freq: 1180.0,
            level: 0.5 * vel,
            ring: 0.05,
        },
        Mode {
            freq: 2530.0,
            level: 0.25 * vel,
            ring: 0.03,
        },
        Mode {
            freq: 610.0,
            level: 0.2 * vel,
            ring: 0.07,
        },
    ];
    struck(&modes, 0.9 * vel, 3200.0, 0.025, rng)
}

/// A shime-daiko: a small, tight, high drum.
pub fn shime(vel: f64, rng: &mut Rng) -> Vec<f64> {
    let modes = [
        Mode {
            freq: 340.0,
            level: 0.7 * vel,
            ring: 0.16,
        },
        Mode {
            freq: 545.0,
            level: 0.25 * vel,
            ring: 0.08,
        },
        Mode {
            freq: 760.0,
            level: 0.12 * vel,
            ring: 0.05,
        },
    ];
    struck(&modes, 0.7 * vel, 1800.0, 0.03, rng)
}

/// A wooden block struck with a stick (the mokugyo's hollow "tok"), `pitch` scaling it.
pub fn wood(pitch: f64, vel: f64, rng: &mut Rng) -> Vec<f64> {
    let modes = [
        Mode {
            freq: 520.0 * pitch,
            level: 0.8 * vel,
            ring: 0.12,
        },
        Mode {
            freq: 1390.0 * pitch,
            level: 0.3 * vel,
            ring: 0.05,
        },
        Mode {
            freq: 2740.0 * pitch,
            level: 0.12 * vel,
            ring: 0.025,
        },
    ];
    struck(&modes, 0.35 * vel, 2000.0 * pitch, 0.012, rng)
}

/// Hyōshigi, the two wooden clappers of the kabuki stage: a hard, ringing clack.
pub fn hyoshigi(vel: f64, rng: &mut Rng) -> Vec<f64> {
    let modes = [
        Mode {
            freq: 1660.0,
            level: 0.6 * vel,
            ring: 0.16,
        },
        Mode {
            freq: 2310.0,
            level: 0.35 * vel,
            ring: 0.12,
        },
        Mode {
            freq: 4090.0,
            level: 0.15 * vel,
            ring: 0.07,
        },
        Mode {
            freq: 880.0,
            level: 0.15 * vel,
            ring: 0.08,
        },
    ];
    struck(&modes, 1.0 * vel, 3500.0, 0.015, rng)
}

/// A washi tile set down on the lacquered tray: a small, dry, high knock.
pub fn tile_click(pitch: f64, vel: f64, rng: &mut Rng) -> Vec<f64> {
    let modes = [
        Mode {
            freq: 1750.0 * pitch,
            level: 0.55 * vel,
            ring: 0.035,
        },
        Mode {
            freq: 3020.0 * pitch,
            level: 0.3 * vel,
            ring: 0.022,
        },
        Mode {
            freq: 690.0 * pitch,
            level: 0.35 * vel,
            ring: 0.05,
        },
    ];
    struck(&modes, 0.8 * vel, 4200.0, 0.01, rng)
}

/// A bell: inharmonic partials, each a pair detuned by `beat` Hz so it slowly pulses.
pub fn bell(freq: f64, vel: f64, ring: f64, partials: &[(f64, f64, f64)], beat: f64) -> Vec<f64> {
    let len = samples(ring.min(4.0));
    let mut out = vec![0.0; len];
    for &(ratio, level, life) in partials {
        let f = freq * ratio;
        if f > SR * 0.45 {
            continue;
        }
        let k = decay(ring * life);
        let mut env = level * vel * 0.25;
        let (step_a, step_b) = (f / SR, (f + beat) / SR);
        for (i, s) in out.iter_mut().enumerate() {
            let t = i as f64;
            *s += env * (sin_turns(step_a * t) + sin_turns(step_b * t));
            env *= k;
        }
    }
    fade_in(&mut out, samples(0.002));
    fade_out(&mut out, samples(0.05));
    out
}

/// A rin, the small temple bowl: a pure, long, sweet ring.
pub const RIN: [(f64, f64, f64); 5] = [
    (1.0, 1.0, 1.0),
    (2.71, 0.45, 0.55),
    (5.15, 0.22, 0.3),
    (8.43, 0.08, 0.15),
    (0.5, 0.12, 0.6),
];

/// A dora, a small gong: a low hum with a cloud of partials.
pub const GONG: [(f64, f64, f64); 6] = [
    (1.0, 1.0, 1.0),
    (1.42, 0.5, 0.8),
    (2.09, 0.35, 0.6),
    (2.66, 0.25, 0.45),
    (3.47, 0.14, 0.3),
    (4.61, 0.08, 0.2),
];

/// A shakuhachi note `len` samples long (its release follows), `vel` 0..1.
pub fn shakuhachi(freq: f64, vel: f64, len: usize, rng: &mut Rng) -> Vec<f64> {
    let attack = samples(0.14);
    let release = samples(0.22);
    let total = len + release;
    let mut out = Vec::with_capacity(total);
    // The breath: a narrow band of noise round the note (the air column's own hiss) and a
    // faint wide band higher up; nothing below the note.
    let mut breath_band = Svf::new(freq * 1.02, 5.0);
    let mut breath_air = Svf::new(2500.0, 0.8);
    let mut soften = OnePole::new(3400.0);
    let mut phase = rng.unit();
    let sway_rate = 4.6 + 0.6 * rng.unit();
    let chiff = falloff(0.05);
    let mut chiff_env = 1.0;
    let rise = falloff(0.07);
    let mut scoop = -0.35; // semitones: the note is blown a little flat and rises into pitch
    for i in 0..total {
        let t = i as f64 / SR;
        let env = if i < attack {
            let a = i as f64 / attack as f64;
            a * a * (3.0 - 2.0 * a)
        } else if i < len {
            1.0
        } else {
            let r = 1.0 - (i - len) as f64 / release as f64;
            r * r
        };
        // The sway (yuri) grows in after the note settles.
        let depth = ((t - 0.35) / 0.5).clamp(0.0, 1.0) * 0.13;
        let semitones = scoop + depth * sin_turns(sway_rate * t);
        scoop *= rise;
        phase += freq * pow2(semitones / 12.0) / SR;
        let body = sin_turns(phase) + 0.2 * sin_turns(2.0 * phase) + 0.06 * sin_turns(3.0 * phase);
        let noise = rng.signed();
        let breath = breath_band.run(noise).band * 0.8 + breath_air.run(noise).band * 0.05;
        // Scaled so a held note sits about as loud as a koto string's ring.
        let s = 0.3 * env * vel * (body * (0.75 + 0.25 * env) + breath * (0.25 + 1.2 * chiff_env));
        chiff_env *= chiff;
        out.push(soften.lowpass(s));
    }
    fade_out(&mut out, samples(0.01));
    out
}

/// A shō chord: every pitch a soft reed (a few odd-leaning harmonics), slowly swelling in
/// and out over `len` samples plus its release, the pitches a hair apart so it breathes.
pub fn sho(freqs: &[f64], vel: f64, len: usize, rng: &mut Rng) -> Vec<f64> {
    let swell = samples(0.9).min(len / 2).max(1);
    let release = samples(1.0);
    let total = len + release;
    let mut out = vec![0.0; total];
    for &f in freqs {
        let detune = 1.0 + (rng.unit() - 0.5) * 0.002;
        let step = f * detune / SR;
        let phase0 = rng.unit();
        for (i, s) in out.iter_mut().enumerate() {
            let p = phase0 + step * i as f64;
            let reed = sin_turns(p)
                + 0.28 * sin_turns(2.0 * p)
                + 0.18 * sin_turns(3.0 * p)
                + 0.06 * sin_turns(5.0 * p);
            *s += reed;
        }
    }
    let mut soften = OnePole::new(1800.0);
    // Each reed well under a koto string: the shō is the floor the tune stands on.
    let scale = 0.5 * vel / freqs.len().max(1) as f64;
    for (i, s) in out.iter_mut().enumerate() {
        let env = if i < swell {
            let a = i as f64 / swell as f64;
            a * a * (3.0 - 2.0 * a)
        } else if i < len {
            1.0
        } else {
            let r = 1.0 - (i - len) as f64 / release as f64;
            r * r * (3.0 - 2.0 * r)
        };
        *s = soften.lowpass(*s * env * scale);
    }
    fade_out(&mut out, samples(0.01));
    out
}

/// A swish of air (a tile sliding): noise through a band-pass sweeping from `from` to `to` Hz.
pub fn swish(from: f64, to: f64, seconds: f64, vel: f64, rng: &mut Rng) -> Vec<f64> {
    let len = samples(seconds);
    let mut filter = Svf::new(from, 1.4);
    (0..len)
        .map(|i| {
            let a = i as f64 / len as f64;
            filter.tune(from + (to - from) * a, 1.4);
            // A rounded hump: up and back down, no corners.
            let env = sin_turns(a * 0.5);
            vel * env * env * filter.run(rng.signed()).band
        })
        .collect()
}

/// A sine chirp from `from` to `to` Hz (used for a soft "pop"), with a quick decay.
pub fn chirp(from: f64, to: f64, seconds: f64, vel: f64) -> Vec<f64> {
    let len = samples(seconds);
    let mut phase = 0.0;
    let k = decay(seconds);
    let mut env = vel;
    let mut out: Vec<f64> = (0..len)
        .map(|i| {
            let a = i as f64 / len as f64;
            phase += (from * (1.0 - a) + to * a) / SR;
            let s = env * sin_turns(phase);
            env *= k;
            s
        })
        .collect();
    fade_in(&mut out, samples(0.002));
    fade_out(&mut out, samples(0.01));
    out
}

/// Ramps the first `n` samples up from silence with a raised cosine.
pub fn fade_in(signal: &mut [f64], n: usize) {
    let n = n.min(signal.len());
    for (i, s) in signal.iter_mut().take(n).enumerate() {
        *s *= 0.5 - 0.5 * cos_turns(0.5 * i as f64 / n as f64);
    }
}

/// Ramps the last `n` samples down to silence with a raised cosine, the last sample at zero.
pub fn fade_out(signal: &mut [f64], n: usize) {
    let len = signal.len();
    let n = n.min(len);
    for j in 0..n {
        let left = (n - 1 - j) as f64 / n as f64; // 1 → 0 over the fade
        signal[len - n + j] *= 0.5 - 0.5 * cos_turns(0.5 * left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsp::{peak, rms};

    /// The strongest frequency in a stretch, by testing each candidate with a correlation.
    fn strongest(signal: &[f64], from: f64, to: f64, step: f64) -> f64 {
        let mut best = (0.0, from);
        let mut f = from;
        while f <= to {
            let (mut re, mut im) = (0.0, 0.0);
            for (i, &s) in signal.iter().enumerate() {
                let t = f * i as f64 / SR;
                re += s * cos_turns(t);
                im += s * sin_turns(t);
            }
            let power = re * re + im * im;
            if power > best.0 {
                best = (power, f);
            }
            f += step;
        }
        best.1
    }

    #[test]
    fn a_koto_string_sounds_at_its_pitch_even_high_up() {
        for freq in [146.83, 440.0, 880.0, 1174.66] {
            let note = koto(freq, 0.8, Pluck::KOTO, &mut Rng::new(3));
            let part = &note[samples(0.1)..samples(0.6)];
            let found = strongest(part, freq * 0.94, freq * 1.06, freq * 0.001);
            let cents = 1200.0 * (found / freq).ln() / std::f64::consts::LN_2;
            assert!(cents.abs() < 8.0, "{freq} Hz sounded at {found} Hz");
        }
    }

    #[test]
    fn a_koto_string_fades_by_its_ring_time() {
        let note = koto(440.0, 1.0, Pluck::KOTO, &mut Rng::new(1));
        let start = rms(&note[..samples(0.05)]);
        let end = rms(&note[note.len() - samples(0.1)..]);
        assert!(end < start * 0.01, "{start} → {end}");
    }

    #[test]
    fn every_instrument_starts_and_ends_in_silence() {
        let mut rng = Rng::new(9);
        let sounds = [
            koto(300.0, 1.0, Pluck::MUTED, &mut rng),
            taiko(80.0, 1.0, 0.8, &mut rng),
            ka(1.0, &mut rng),
            shime(1.0, &mut rng),
            wood(1.0, 1.0, &mut rng),
            hyoshigi(1.0, &mut rng),
            tile_click(1.0, 1.0, &mut rng),
            bell(880.0, 1.0, 2.0, &RIN, 0.7),
            shakuhachi(440.0, 1.0, samples(0.5), &mut rng),
            sho(&[220.0, 330.0], 1.0, samples(1.0), &mut rng),
            chirp(400.0, 800.0, 0.2, 1.0),
        ];
        for (i, s) in sounds.iter().enumerate() {
            assert!(peak(s) > 0.01, "sound {i} is silent");
            assert!(s[0].abs() < 0.02 * peak(s), "sound {i} starts at {}", s[0]);
            assert!(
                s[s.len() - 1].abs() < 1e-9,
                "sound {i} ends at {}",
                s[s.len() - 1]
            );
        }
    }
}
