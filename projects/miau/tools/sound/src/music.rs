//! The music: one gentle loop for play, scored in the synthesiser's notation ([`score`]) on the
//! major pentatonic on C and played by Miau's own voices.
//!
//! Notes are mixed into a buffer exactly one loop long; a note that rings past the end wraps
//! round to the start, where it would sound when the loop repeats, and the room runs the same
//! way ([`dsp::circular`]), so the last sample flows into the first. A beat is a whole number
//! of samples, so the loop is a whole number of beats.

use jengine_synth::SoundError;
use jengine_synth::dsp::{self, RATE, Reverb, Rng, SR};
use jengine_synth::instruments;
use jengine_synth::music::add_wrapped;
use jengine_synth::score::{self, Alphabet, Pitch, TICKS_PER_BEAT};

use crate::voices::{kalimba, marimba};

/// The major pentatonic's steps above its tonic: C D E G A on C.
pub const PENTATONIC: [i32; 5] = [0, 2, 4, 7, 9];

/// The kit's letters: `t` a light wooden tick, `s` a brush of a shaker.
pub const KIT: &str = "ts";

/// What plays a voice's line.
#[derive(Clone, Copy, Debug)]
pub enum Instrument {
    /// A marimba bar whose ring is this many seconds.
    Marimba(f64),
    /// A kalimba tine whose ring is this many seconds.
    Kalimba(f64),
    /// The tick and the shaker, one letter each (see [`KIT`]).
    Kit,
}

/// One voice: what plays, its line, the octave it sits in, its level and its share of room.
#[derive(Clone, Copy, Debug)]
pub struct Voice {
    /// Its name, for mistakes in its line.
    pub name: &'static str,
    /// What plays it.
    pub instrument: Instrument,
    /// Octaves its degrees sit above (negative: below) the tonic's.
    pub octave: i8,
    /// Its line, in [`score`] notation.
    pub line: &'static str,
    /// Its level in the mix.
    pub gain: f64,
    /// Its share sent to the room.
    pub reverb: f64,
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
    /// The scale's tonic as a MIDI note.
    pub tonic: i32,
    /// Its voices, mixed in order.
    pub voices: Vec<Voice>,
    /// The seed its noise (and its players' timing) starts from.
    pub seed: u64,
}

impl Track {
    /// Beats in the loop.
    pub fn beats(&self) -> u32 {
        self.beats_per_bar * self.bars
    }

    /// Samples in one beat; the tempo divides 60 × 22050 exactly.
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

/// Play: an unhurried walk at 100 bpm, a kalimba tune over a soft marimba arpeggio and bass,
/// a tick and a shaker keeping time lightly. Chords C, Am, Dm, G, C, Am, G, C.
pub fn play() -> Track {
    use Instrument::*;
    Track {
        name: "play.wav",
        bpm: 100,
        beats_per_bar: 4,
        bars: 8,
        tonic: 60,
        seed: 0x4D1A_0001,
        voices: vec![
            Voice {
                name: "tune",
                instrument: Kalimba(1.2),
                octave: 1,
                line: "3:1 5 4:2 | 3:1 2 1:2 | 2:1/2 3 4:1 5:2 | 4:3 r:1 | \
                       5:1 1' 5 4 | 3:1/2 4 3:1 2:2 | 1:1 2 3 4:1/2 3 | 1:3 r:1",
                gain: 0.55,
                reverb: 0.35,
            },
            Voice {
                name: "arpeggio",
                instrument: Marimba(0.6),
                octave: 0,
                line: "1:1/2 3 4 3 1 3 4 3 | 5,:1/2 1 3 1 5, 1 3 1 | \
                       2:1/2 5 1' 5 2 5 1' 5 | 4,:1/2 2 4 2 4, 2 4 2 | \
                       1:1/2 3 4 3 1 3 4 3 | 5,:1/2 1 3 1 5, 1 3 1 | \
                       4,:1/2 2 4 2 4, 2 4 2 | 1:1/2 3 4 3 1 3 4 3",
                gain: 0.22,
                reverb: 0.25,
            },
            Voice {
                name: "bass",
                instrument: Marimba(0.9),
                octave: -1,
                line: "1:2 4,:2 | 5,:2 3:2 | 2:2 5,:2 | 4,:2 2:2 | \
                       1:2 4,:2 | 5,:2 3:2 | 4,:2 2:2 | 1:4",
                gain: 0.5,
                reverb: 0.15,
            },
            Voice {
                name: "kit",
                instrument: Kit,
                octave: 0,
                line: "t:1 s:1/2 s t:1 s:1/2 s | t:1 s:1/2 s t:1 s:1/2 s | \
                       t:1 s:1/2 s t:1 s:1/2 s | t:1 s:1/2 s t:1 s:1/2 s | \
                       t:1 s:1/2 s t:1 s:1/2 s | t:1 s:1/2 s t:1 s:1/2 s | \
                       t:1 s:1/2 s t:1 s:1/2 s | t:1 s:1/2 s t:1 r:1",
                gain: 0.12,
                reverb: 0.1,
            },
        ],
    }
}

/// Every music track, in the order they are written.
pub fn tracks() -> Vec<Track> {
    vec![play()]
}

/// One kit stroke.
fn hit(letter: char, vel: f64, rng: &mut Rng) -> Vec<f64> {
    match letter {
        't' => instruments::wood(2.2, vel * 0.6, rng),
        // 's', the only letter left in KIT; the parser refuses any other.
        _ => instruments::swish(5000.0, 7000.0, 0.07, vel, rng),
    }
}

/// Renders a track: its loop, as floats about -1..1 (not yet levelled).
pub fn render(track: &Track) -> Result<Vec<f64>, SoundError> {
    let n = track.len();
    let spb = track.samples_per_beat();
    let mut dry = vec![0.0; n];
    let mut to_room = vec![0.0; n];
    let mut rng = Rng::new(track.seed);
    for v in &track.voices {
        let alphabet = match v.instrument {
            Instrument::Kit => Alphabet::Hits(KIT),
            _ => Alphabet::Degrees(PENTATONIC.len() as u8),
        };
        let line = score::parse(v.line, track.beats_per_bar, alphabet).map_err(|source| {
            SoundError::Score {
                track: track.name,
                voice: v.name,
                source,
            }
        })?;
        let expected = track.beats() * TICKS_PER_BEAT;
        if line.ticks != expected {
            return Err(SoundError::VoiceLength {
                track: track.name,
                voice: v.name,
                ticks: line.ticks,
                expected,
            });
        }
        let mut vrng = rng.fork();
        for event in &line.events {
            let at = u64::from(event.at) * spb / u64::from(TICKS_PER_BEAT);
            // A few milliseconds off the grid and a little louder or softer each time, so
            // repeats do not sound stamped.
            let late = (vrng.signed() * 0.005 * SR).round() as i64;
            let base = if event.accent { 0.95 } else { 0.7 };
            let vel = base * (1.0 + 0.08 * vrng.signed());
            for pitch in &event.pitches {
                let mut nrng = vrng.fork();
                let sound = match (*pitch, v.instrument) {
                    (Pitch::Hit(letter), _) => hit(letter, vel, &mut nrng),
                    (Pitch::Degree { degree, octave }, instrument) => {
                        let d = usize::from(degree.max(1) - 1) % PENTATONIC.len();
                        let midi = track.tonic + 12 * i32::from(octave + v.octave) + PENTATONIC[d];
                        let note = f64::from(midi);
                        match instrument {
                            Instrument::Marimba(ring) => marimba(note, vel, ring, &mut nrng),
                            Instrument::Kalimba(ring) => kalimba(note, vel, ring, &mut nrng),
                            Instrument::Kit => Vec::new(),
                        }
                    }
                };
                let start = at as i64 + late;
                add_wrapped(&mut dry, start, &sound, v.gain);
                add_wrapped(&mut to_room, start, &sound, v.gain * v.reverb);
            }
        }
    }
    let mut room = Reverb::new(0.5, 0.55);
    let wet = dsp::circular(&to_room, |x| room.run(x));
    Ok((0..n).map(|i| dry[i] + wet[i] * 0.5).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tempo_gives_a_whole_number_of_samples_per_beat() {
        for t in tracks() {
            assert_eq!(u64::from(RATE) * 60 % u64::from(t.bpm), 0, "{}", t.name);
            assert_eq!(t.len() as u64, t.samples_per_beat() * u64::from(t.beats()));
        }
    }

    #[test]
    fn a_wrong_voice_length_names_the_track_and_voice() {
        let mut t = play();
        t.voices[2].line = "1:4 | 1:4";
        let err = render(&t).unwrap_err();
        assert_eq!(
            err.to_string(),
            "play.wav, voice bass: the line lasts 8 beats, the track 32"
        );
    }
}
