//! How a score becomes a seamless music loop: a track is a tempo, a scale and a few voices,
//! each one line of [`score`] notation played by one of the [`instruments`].
//!
//! Each game writes its own tracks on these and renders them with
//! [`render`]. Notes are mixed into a buffer exactly one loop long, and a note that rings past
//! the end wraps round to the start, where it would sound when the loop repeats; the reverb
//! and echo run the same way ([`dsp::circular`]). So the last sample flows into the first and
//! the loop has no seam. A beat is a whole number of samples, so beat `n` starts exactly at
//! sample `n × 60 × 22050 / bpm` and the game can move on the beat.

use crate::SoundError;
use crate::dsp::{self, Echo, RATE, Reverb, Rng, SR, midi_hz, samples};
use crate::instruments::{self, GONG, Pluck, RIN};
use crate::score::{self, Alphabet, Pitch, TICKS_PER_BEAT};

/// A scale: the tonic as a MIDI note and the steps of its degrees above it, in semitones.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// The tonic, as a MIDI note.
    pub tonic: i32,
    /// Each degree's semitones above the tonic, the first 0.
    pub steps: &'static [i32],
}

/// Yō: the "bright" folk pentatonic, no semitones (D E G A B on D).
pub const YO: &[i32] = &[0, 2, 5, 7, 9];
/// In (miyako-bushi): the koto's classical scale, two semitones (E F A B C on E).
pub const IN: &[i32] = &[0, 1, 5, 7, 8];

impl Scale {
    /// The MIDI note of a degree (1-based) shifted by whole octaves.
    pub fn midi(&self, degree: u8, octave: i8) -> i32 {
        let d = usize::from(degree.max(1) - 1) % self.steps.len();
        self.tonic + 12 * i32::from(octave) + self.steps[d]
    }
}

/// What plays a voice's line.
#[derive(Clone, Copy, Debug)]
pub enum Instrument {
    /// A koto string, plucked so ([`instruments::koto`]).
    Koto(Pluck),
    /// The bamboo flute ([`instruments::shakuhachi`]), each note held its length.
    Shakuhachi,
    /// The reed mouth organ ([`instruments::sho`]), each note held its length.
    Sho,
    /// Drums, wood and bells, one letter each (see [`KIT`]).
    Kit,
}

/// The kit's letters: `d` ō-daiko, `t` chū-daiko, `k` the rim (ka), `s` shime-daiko,
/// `w` wood block, `h` hyōshigi, `b` a rin two octaves over the tonic, `g` a gong.
pub const KIT: &str = "dtkswhbg";

/// One voice: what plays, its line, its level and how much of it goes to the reverb and echo.
#[derive(Clone, Copy, Debug)]
pub struct Voice {
    /// Its name, for mistakes in its line.
    pub name: &'static str,
    /// What plays it.
    pub instrument: Instrument,
    /// Its line, in [`score`] notation.
    pub line: &'static str,
    /// Its level in the mix.
    pub gain: f64,
    /// Its share sent to the track's reverb.
    pub reverb: f64,
    /// Its share sent to the dotted-eighth echo.
    pub echo: f64,
    /// Seconds between the notes of a chord, low to high, as a koto is strummed.
    pub strum: f64,
}

/// One music loop.
#[derive(Clone, Debug)]
pub struct Track {
    /// The file name, `<name>.wav`.
    pub name: &'static str,
    /// Beats a minute; 60 × 22 050 must be a whole number of them.
    pub bpm: u32,
    /// Beats to a bar.
    pub beats_per_bar: u32,
    /// Bars in the loop.
    pub bars: u32,
    /// The scale its degrees name.
    pub scale: Scale,
    /// Its voices, mixed in order.
    pub voices: Vec<Voice>,
    /// Reverb room size (0..1) and level.
    pub room: (f64, f64),
    /// The seed its noise (and its players' timing) starts from.
    pub seed: u64,
}

impl Track {
    /// Beats in the loop.
    pub fn beats(&self) -> u32 {
        self.beats_per_bar * self.bars
    }

    /// Samples in one beat; every track's tempo divides 60 × 22050 exactly.
    pub fn samples_per_beat(&self) -> u64 {
        u64::from(RATE) * 60 / u64::from(self.bpm)
    }

    /// Samples in the whole loop.
    pub fn len(&self) -> usize {
        (self.samples_per_beat() * u64::from(self.beats())) as usize
    }

    /// Whether the loop is empty (it never is for a real track).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Voice {
    /// The voice with `reverb` and `echo` as its sends.
    pub fn sends(self, reverb: f64, echo: f64) -> Voice {
        Voice {
            reverb,
            echo,
            ..self
        }
    }

    /// The voice with its chords strummed, `strum` seconds between the notes.
    pub fn strummed(self, strum: f64) -> Voice {
        Voice { strum, ..self }
    }
}

/// Adds `sound × gain` into `buf` from `at`, wrapping past the end to the start.
pub fn add_wrapped(buf: &mut [f64], at: i64, sound: &[f64], gain: f64) {
    let n = buf.len() as i64;
    if n == 0 {
        return;
    }
    let start = at.rem_euclid(n) as usize;
    let n = n as usize;
    for (i, s) in sound.iter().enumerate() {
        buf[(start + i) % n] += s * gain;
    }
}

/// One kit hit.
fn hit(letter: char, vel: f64, scale: Scale, rng: &mut Rng) -> Vec<f64> {
    match letter {
        'd' => instruments::taiko(78.0, vel, 1.0, rng),
        't' => instruments::taiko(132.0, vel, 0.5, rng),
        'k' => instruments::ka(vel, rng),
        's' => instruments::shime(vel, rng),
        'w' => instruments::wood(1.0, vel, rng),
        'h' => instruments::hyoshigi(vel, rng),
        'b' => instruments::bell(midi_hz(f64::from(scale.tonic + 24)), vel, 3.5, &RIN, 0.8),
        // 'g', the only letter left in KIT; the parser refuses any other.
        _ => instruments::bell(midi_hz(f64::from(scale.tonic - 12)), vel, 3.0, &GONG, 1.1),
    }
}

/// Renders a track: its loop, as floats about -1..1 (not yet levelled).
pub fn render(track: &Track) -> Result<Vec<f64>, SoundError> {
    let n = track.len();
    let spb = track.samples_per_beat();
    let mut dry = vec![0.0; n];
    let mut to_reverb = vec![0.0; n];
    let mut to_echo = vec![0.0; n];
    let mut rng = Rng::new(track.seed);
    for v in &track.voices {
        let alphabet = match v.instrument {
            Instrument::Kit => Alphabet::Hits(KIT),
            _ => Alphabet::Degrees(track.scale.steps.len() as u8),
        };
        let line = score::parse(v.line, track.beats_per_bar, alphabet).map_err(|source| {
            SoundError::Score {
                track: track.name,
                voice: v.name,
                source,
            }
        })?;
        if line.ticks != track.beats() * TICKS_PER_BEAT {
            return Err(SoundError::VoiceLength {
                track: track.name,
                voice: v.name,
                ticks: line.ticks,
                expected: track.beats() * TICKS_PER_BEAT,
            });
        }
        let mut vrng = rng.fork();
        for event in &line.events {
            let at = u64::from(event.at) * spb / u64::from(TICKS_PER_BEAT);
            let len = (u64::from(event.len) * spb / u64::from(TICKS_PER_BEAT)) as usize;
            // A player is never exactly on the grid: a few milliseconds either way, and a
            // little louder or softer, so repeats do not sound stamped.
            let (wobble, spread) = match v.instrument {
                Instrument::Kit => (0.003, 0.05),
                _ => (0.008, 0.08),
            };
            let late = (vrng.signed() * wobble * SR).round() as i64;
            let base = if event.accent { 0.95 } else { 0.7 };
            let vel = base * (1.0 + spread * vrng.signed());
            for (k, pitch) in event.pitches.iter().enumerate() {
                let mut nrng = vrng.fork();
                let sound = match (*pitch, v.instrument) {
                    (Pitch::Hit(letter), _) => hit(letter, vel, track.scale, &mut nrng),
                    (Pitch::Degree { degree, octave }, instrument) => {
                        let freq = midi_hz(f64::from(track.scale.midi(degree, octave)));
                        match instrument {
                            Instrument::Koto(pluck) => {
                                instruments::koto(freq, vel, pluck, &mut nrng)
                            }
                            Instrument::Shakuhachi => instruments::shakuhachi(
                                freq,
                                vel,
                                len.saturating_sub(samples(0.06)),
                                &mut nrng,
                            ),
                            Instrument::Sho => instruments::sho(&[freq], vel, len, &mut nrng),
                            Instrument::Kit => Vec::new(),
                        }
                    }
                };
                let start = at as i64 + late + (v.strum * SR * k as f64).round() as i64;
                add_wrapped(&mut dry, start, &sound, v.gain);
                add_wrapped(&mut to_reverb, start, &sound, v.gain * v.reverb);
                add_wrapped(&mut to_echo, start, &sound, v.gain * v.echo);
            }
        }
    }
    let mut room = Reverb::new(track.room.0, 0.5);
    let wet = dsp::circular(&to_reverb, |x| room.run(x));
    // A dotted eighth: the echo falls between the beats rather than on them.
    let mut echo = Echo::new((spb * 3 / 4) as usize, 0.35, 2500.0);
    let echoes = dsp::circular(&to_echo, |x| echo.run(x));
    Ok((0..n)
        .map(|i| dry[i] + wet[i] * track.room.1 + echoes[i])
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small 3/4 track in D yō, two bars, with one voice of each kind.
    fn small() -> Track {
        let voice = |name, instrument, line| Voice {
            name,
            instrument,
            line,
            gain: 0.5,
            reverb: 0.3,
            echo: 0.1,
            strum: 0.0,
        };
        Track {
            name: "small.wav",
            bpm: 90,
            beats_per_bar: 3,
            bars: 2,
            scale: Scale {
                tonic: 62,
                steps: YO,
            },
            voices: vec![
                voice("tune", Instrument::Koto(Pluck::KOTO), "1:1 3 5 | 1'+5:3").strummed(0.02),
                voice("reed", Instrument::Sho, "1,+5,:3 | ~"),
                voice("flute", Instrument::Shakuhachi, "r:2 5:1 | 4:3"),
                voice("kit", Instrument::Kit, "d:1 k s | t w h").sends(0.2, 0.0),
            ],
            room: (0.5, 0.4),
            seed: 7,
        }
    }

    #[test]
    fn scales_name_the_right_notes() {
        let d_yo = Scale {
            tonic: 62,
            steps: YO,
        };
        let notes: Vec<i32> = (1..=5).map(|d| d_yo.midi(d, 0)).collect();
        assert_eq!(notes, [62, 64, 67, 69, 71]); // D E G A B
        assert_eq!(d_yo.midi(1, 1), 74);
        assert_eq!(d_yo.midi(4, -1), 57);
    }

    #[test]
    fn a_track_renders_exactly_its_loop_the_same_every_time() {
        let t = small();
        assert_eq!(t.samples_per_beat(), 14_700);
        assert_eq!(t.len(), 6 * 14_700);
        let once = render(&t).unwrap();
        assert_eq!(once.len(), t.len());
        assert!(dsp::peak(&once) > 0.01);
        assert_eq!(once, render(&t).unwrap());
    }

    #[test]
    fn a_wrong_voice_length_names_the_track_and_voice() {
        let mut t = small();
        t.voices[1].line = "1:3";
        let err = render(&t).unwrap_err();
        assert_eq!(
            err.to_string(),
            "small.wav, voice reed: the line lasts 3 beats, the track 6"
        );
    }

    #[test]
    fn a_score_mistake_names_the_track_voice_and_character() {
        let mut t = small();
        t.voices[3].line = "d:3 | x";
        let err = render(&t).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("small.wav, voice kit: at character 7: 'x' is not a drum"),
            "{err}"
        );
    }

    #[test]
    fn a_note_past_the_end_wraps_to_the_start() {
        let mut buf = vec![0.0; 4];
        add_wrapped(&mut buf, 3, &[1.0, 2.0, 3.0], 1.0);
        assert_eq!(buf, [2.0, 3.0, 0.0, 1.0]);
        add_wrapped(&mut buf, -1, &[1.0], 2.0);
        assert_eq!(buf, [2.0, 3.0, 0.0, 3.0]);
    }
}
