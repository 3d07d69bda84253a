//! The signal maths every sound is built from: oscillators' sine, envelopes' exponentials,
//! a seeded noise source, filters, a small reverb and an echo.
//!
//! Everything here uses only `+ - * /`, `floor`, `sqrt` and `abs`, which IEEE 754 rounds the
//! same way on every machine; `sin`, `exp` and `powf` from the platform's maths library may
//! differ in the last bit, so this module has its own (polynomials after range reduction).
//! That is what lets a run anywhere write the committed WAV files byte for byte.

/// Samples per second of every file.
pub const RATE: u32 = 22_050;
/// [`RATE`] as a float.
pub const SR: f64 = RATE as f64;

const TAU: f64 = std::f64::consts::TAU;
const LN_2: f64 = std::f64::consts::LN_2;
const LN_10: f64 = std::f64::consts::LN_10;
/// ln(1000): an envelope falls by 60 dB when its exponent falls by this much.
const LN_1000: f64 = 3.0 * LN_10;

/// sin(2πt): `t` in turns, so a phase accumulator never needs π.
pub fn sin_turns(t: f64) -> f64 {
    // Reduce to [-1/2, 1/2), then fold into [-1/4, 1/4] with sin(π - x) = sin(x).
    let r = t - (t + 0.5).floor();
    let r = if r > 0.25 {
        0.5 - r
    } else if r < -0.25 {
        -0.5 - r
    } else {
        r
    };
    let x = r * TAU;
    let x2 = x * x;
    // Taylor series to x^15 in Horner form: the error on [-π/2, π/2] is below 1e-12.
    x * (1.0
        - x2 / 6.0
            * (1.0
                - x2 / 20.0
                    * (1.0
                        - x2 / 42.0
                            * (1.0
                                - x2 / 72.0
                                    * (1.0
                                        - x2 / 110.0 * (1.0 - x2 / 156.0 * (1.0 - x2 / 210.0)))))))
}

/// cos(2πt), `t` in turns.
pub fn cos_turns(t: f64) -> f64 {
    sin_turns(t + 0.25)
}

/// e^x: split off whole powers of two (x = k·ln 2 + r, |r| ≤ ln 2 / 2), a series for e^r,
/// and the power of two put straight into the exponent bits.
pub fn exp(x: f64) -> f64 {
    // ln 2 in two parts (Cody and Waite): k · LN2_HI is exact for the k that occur here, so
    // r keeps its precision even when x is large.
    const LN2_HI: f64 = 0.693_147_180_369_123_8;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let x = x.clamp(-708.0, 709.0);
    let k = (x / LN_2).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=14 {
        term = term * r / n as f64;
        sum += term;
    }
    let two_k = f64::from_bits(((k as i64 + 1023) as u64) << 52);
    sum * two_k
}

/// 2^x.
pub fn pow2(x: f64) -> f64 {
    exp(x * LN_2)
}

/// The frequency of a MIDI note number (69 is A4 at 440 Hz); fractions bend.
pub fn midi_hz(note: f64) -> f64 {
    440.0 * pow2((note - 69.0) / 12.0)
}

/// The amplitude of a level in decibels (0 dB is 1).
pub fn db(decibels: f64) -> f64 {
    exp(decibels * LN_10 / 20.0)
}

/// The factor to multiply an envelope by each sample so it falls 60 dB in `t60` seconds.
pub fn decay(t60: f64) -> f64 {
    exp(-LN_1000 / (t60.max(1e-4) * SR))
}

/// The factor per sample that falls by 1/e in `tau` seconds (a time constant).
pub fn falloff(tau: f64) -> f64 {
    exp(-1.0 / (tau.max(1e-5) * SR))
}

/// Seconds to a whole number of samples.
pub fn samples(seconds: f64) -> usize {
    (seconds * SR).round().max(0.0) as usize
}

/// A seeded SplitMix64 generator: the only source of noise, so noise is the same every run.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`; the same seed gives the same stream on every machine.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        self.unit() * 2.0 - 1.0
    }

    /// A new generator for a sub-part (a note, a voice), so adding one note does not shift
    /// the noise of every note after it.
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64())
    }
}

/// A one-pole low-pass filter (a leaky integrator); `x - lowpass(x)` is its high-pass.
#[derive(Clone, Debug)]
pub struct OnePole {
    a: f64,
    y: f64,
}

impl OnePole {
    /// A filter with its corner at `cutoff` Hz, at rest.
    pub fn new(cutoff: f64) -> OnePole {
        OnePole {
            a: 1.0 - exp(-TAU * cutoff / SR),
            y: 0.0,
        }
    }

    /// Filters one sample, keeping what is below the cutoff.
    pub fn lowpass(&mut self, x: f64) -> f64 {
        self.y += self.a * (x - self.y);
        self.y
    }

    /// Filters one sample, keeping what is above the cutoff.
    pub fn highpass(&mut self, x: f64) -> f64 {
        x - self.lowpass(x)
    }
}

/// A state-variable filter (the trapezoidal, "zero-delay" form): stable at any cutoff below
/// Nyquist and while the cutoff moves, which a sweep needs.
#[derive(Clone, Debug)]
pub struct Svf {
    ic1: f64,
    ic2: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    k: f64,
}

/// The three outputs of [`Svf::run`].
#[derive(Clone, Copy, Debug)]
pub struct SvfOut {
    /// Below the cutoff.
    pub low: f64,
    /// Around the cutoff.
    pub band: f64,
    /// Above the cutoff.
    pub high: f64,
}

impl Svf {
    /// A filter at `cutoff` Hz with resonance `q`, at rest.
    pub fn new(cutoff: f64, q: f64) -> Svf {
        let mut f = Svf {
            ic1: 0.0,
            ic2: 0.0,
            a1: 0.0,
            a2: 0.0,
            a3: 0.0,
            k: 1.0,
        };
        f.tune(cutoff, q);
        f
    }

    /// Moves the cutoff (Hz) and resonance (Q) without clearing the state.
    pub fn tune(&mut self, cutoff: f64, q: f64) {
        let turns = cutoff.clamp(10.0, SR * 0.49) / (2.0 * SR);
        let g = sin_turns(turns) / cos_turns(turns);
        self.k = 1.0 / q.max(0.05);
        self.a1 = 1.0 / (1.0 + g * (g + self.k));
        self.a2 = g * self.a1;
        self.a3 = g * self.a2;
    }

    /// Filters one sample into its three bands.
    pub fn run(&mut self, x: f64) -> SvfOut {
        let v3 = x - self.ic2;
        let v1 = self.a1 * self.ic1 + self.a2 * v3;
        let v2 = self.ic2 + self.a2 * self.ic1 + self.a3 * v3;
        self.ic1 = 2.0 * v1 - self.ic1;
        self.ic2 = 2.0 * v2 - self.ic2;
        SvfOut {
            low: v2,
            band: v1,
            high: x - self.k * v1 - v2,
        }
    }
}

/// Removes a constant offset (a one-zero, one-pole high-pass at a few hertz).
#[derive(Clone, Debug, Default)]
pub struct DcBlock {
    x1: f64,
    y1: f64,
}

impl DcBlock {
    /// Filters one sample.
    pub fn run(&mut self, x: f64) -> f64 {
        let y = x - self.x1 + 0.997 * self.y1;
        self.x1 = x;
        self.y1 = y;
        y
    }
}

/// A delay line read a whole number of samples back.
#[derive(Clone, Debug)]
struct Delay {
    buf: Vec<f64>,
    pos: usize,
}

impl Delay {
    fn new(len: usize) -> Delay {
        Delay {
            buf: vec![0.0; len.max(1)],
            pos: 0,
        }
    }

    /// The sample written `len` calls ago.
    fn front(&self) -> f64 {
        self.buf[self.pos]
    }

    fn push(&mut self, x: f64) {
        self.buf[self.pos] = x;
        self.pos = (self.pos + 1) % self.buf.len();
    }
}

/// A Schroeder–Moorer reverb (eight damped combs in parallel, four all-passes in series),
/// with delays tuned for 22 050 Hz: a small wooden room, soft rather than bright.
#[derive(Clone, Debug)]
pub struct Reverb {
    combs: Vec<(Delay, f64)>,
    alls: Vec<Delay>,
    feedback: f64,
    damp: f64,
}

impl Reverb {
    /// `size` 0..1 sets how long the tail is; `damp` 0..1 how quickly its highs fade.
    pub fn new(size: f64, damp: f64) -> Reverb {
        const COMBS: [usize; 8] = [558, 594, 638, 678, 711, 745, 778, 808];
        const ALLS: [usize; 4] = [278, 220, 170, 112];
        Reverb {
            combs: COMBS.iter().map(|&n| (Delay::new(n), 0.0)).collect(),
            alls: ALLS.iter().map(|&n| Delay::new(n)).collect(),
            feedback: 0.68 + 0.22 * size.clamp(0.0, 1.0),
            damp: damp.clamp(0.0, 1.0) * 0.4,
        }
    }

    /// One sample in, one sample of the wet signal out.
    pub fn run(&mut self, x: f64) -> f64 {
        let input = x * 0.1;
        let mut sum = 0.0;
        for (delay, store) in &mut self.combs {
            let out = delay.front();
            *store = out * (1.0 - self.damp) + *store * self.damp;
            delay.push(input + *store * self.feedback);
            sum += out;
        }
        for delay in &mut self.alls {
            let held = delay.front();
            let out = held - sum;
            delay.push(sum + held * 0.5);
            sum = out;
        }
        sum
    }
}

/// An echo: a delay with feedback through a low-pass, so each repeat is softer and darker.
#[derive(Clone, Debug)]
pub struct Echo {
    line: Delay,
    feedback: f64,
    tone: OnePole,
}

impl Echo {
    /// An echo repeating every `delay_samples`, each repeat `feedback` (at most 0.95) of the
    /// one before and darkened by a low-pass at `cutoff` Hz.
    pub fn new(delay_samples: usize, feedback: f64, cutoff: f64) -> Echo {
        Echo {
            line: Delay::new(delay_samples),
            feedback: feedback.clamp(0.0, 0.95),
            tone: OnePole::new(cutoff),
        }
    }

    /// One sample in, the repeats (without the dry signal) out.
    pub fn run(&mut self, x: f64) -> f64 {
        let out = self.line.front();
        let fed = self.tone.lowpass(x + out * self.feedback);
        self.line.push(fed);
        out
    }
}

/// Runs an effect over a loop as if the loop had already been playing: one pass to fill the
/// effect's state with the loop's own tail, then the pass that is kept. The kept pass's end
/// then flows into its start, so the loop's seam is inaudible.
pub fn circular(dry: &[f64], mut effect: impl FnMut(f64) -> f64) -> Vec<f64> {
    for &x in dry {
        effect(x);
    }
    dry.iter().map(|&x| effect(x)).collect()
}

/// A look-ahead limiter for a loop: the gain dips smoothly round every sample that would
/// pass `ceiling` and is 1 elsewhere, indexes wrapping round the loop's ends.
///
/// Each loud sample asks for its gain over a window reaching [`LIMIT_RAMP`] samples either
/// side; a moving average as long as that reach then rounds the corners. Every average
/// round a loud sample covers only samples that asked for at most its gain, so the loud
/// sample's gain is at most what it asked for: the result never passes `ceiling`.
pub fn limit_loop(signal: &[f64], ceiling: f64) -> Vec<f64> {
    let n = signal.len();
    if n == 0 {
        return Vec::new();
    }
    let reach = LIMIT_RAMP.min(n / 2);
    let mut asked = vec![1.0f64; n];
    for (i, &x) in signal.iter().enumerate() {
        if x.abs() > ceiling {
            let g = ceiling / x.abs();
            for k in 0..=2 * reach {
                let j = (i + n + k - reach) % n;
                if g < asked[j] {
                    asked[j] = g;
                }
            }
        }
    }
    // A centred moving average of `2 × half + 1` samples, `half ≤ reach / 2`, so the window of
    // any sample within `half` of a loud one lies inside that loud sample's request. The gains
    // are summed as whole numbers (rounded down), so the running sum never drifts.
    const ONE: f64 = (1u64 << 32) as f64;
    let fixed: Vec<u64> = asked.iter().map(|g| (g * ONE).floor() as u64).collect();
    let half = reach / 2;
    let width = (2 * half + 1) as f64;
    let mut sum: u64 = (0..=2 * half).map(|k| fixed[(k + n - half) % n]).sum();
    let mut out = Vec::with_capacity(n);
    for (i, &x) in signal.iter().enumerate() {
        out.push(x * (sum as f64 / width / ONE));
        sum = sum + fixed[(i + half + 1) % n] - fixed[(i + n - half) % n];
    }
    out
}

/// How many samples (about 12 ms) the limiter's gain takes to dip and to recover.
pub const LIMIT_RAMP: usize = 256;

/// Peak absolute value.
pub fn peak(signal: &[f64]) -> f64 {
    signal
        .iter()
        .fold(0.0, |m, &x| if x.abs() > m { x.abs() } else { m })
}

/// Root mean square.
pub fn rms(signal: &[f64]) -> f64 {
    if signal.is_empty() {
        return 0.0;
    }
    (signal.iter().map(|x| x * x).sum::<f64>() / signal.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_matches_the_platform_to_a_tiny_error() {
        for i in -2000..2000 {
            let t = i as f64 * 0.00731;
            assert!((sin_turns(t) - (t * TAU).sin()).abs() < 1e-11, "t = {t}");
        }
    }

    #[test]
    fn exp_matches_the_platform_to_a_tiny_relative_error() {
        for i in -400..200 {
            let x = i as f64 * 0.173;
            let rel = (exp(x) - x.exp()).abs() / x.exp();
            assert!(rel < 1e-14, "x = {x}: {rel}");
        }
    }

    #[test]
    fn a_decay_reaches_minus_sixty_db_at_its_time() {
        let k = decay(0.5);
        let mut env = 1.0;
        for _ in 0..samples(0.5) {
            env *= k;
        }
        assert!((env - 0.001).abs() < 1e-6, "{env}");
    }

    #[test]
    fn midi_69_is_440_hz_and_an_octave_doubles() {
        assert!((midi_hz(69.0) - 440.0).abs() < 1e-9);
        assert!((midi_hz(81.0) - 880.0).abs() < 1e-9);
    }

    #[test]
    fn the_limiter_holds_every_peak_under_the_ceiling_and_leaves_quiet_parts_alone() {
        let n = 20_000;
        let mut x: Vec<f64> = (0..n).map(|i| 0.3 * sin_turns(i as f64 * 0.01)).collect();
        x[100] = 1.8; // a spike near the start, whose dip wraps round to the end
        x[10_000] = -1.3;
        let y = limit_loop(&x, 0.9);
        assert!(peak(&y) <= 0.9, "{}", peak(&y));
        assert!((y[100] - 0.9).abs() < 0.02, "{}", y[100]);
        assert!(
            y[n - 60].abs() < x[n - 60].abs(),
            "the dip reaches round the seam"
        );
        assert_eq!(y[5_000], x[5_000]);
        // The gain moves smoothly: no step between neighbours bigger than the signal's own.
        let steps = |s: &[f64]| {
            s.windows(2)
                .map(|w| (w[1] - w[0]).abs())
                .fold(0.0, f64::max)
        };
        let quiet: Vec<f64> = (0..n)
            .map(|i| if i == 100 || i == 10_000 { 0.0 } else { y[i] })
            .collect();
        assert!(steps(&quiet[200..9_800]) < 0.03);
    }

    #[test]
    fn the_same_seed_gives_the_same_noise() {
        let a: Vec<u64> = (0..5).map(|_| Rng::new(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut r = Rng::new(7);
        let b: Vec<f64> = (0..1000).map(|_| r.signed()).collect();
        assert!(b.iter().all(|x| (-1.0..1.0).contains(x)));
    }
}
