//! The loops: Seven Stairs' quiet town tune, scored in the synthesiser's notation and rendered
//! by its `music::render`, and the drones of the deep, made here from a detuned low pair.
//!
//! A drone loops seamlessly because every frequency in it is a whole number of cycles in the
//! loop (the grid is 1 / seconds Hz) and its rumble is filtered round the loop.

use jengine_synth::SoundError;
use jengine_synth::dsp::{Rng, samples};
use jengine_synth::instruments::Pluck;
use jengine_synth::music::{self, Instrument, Scale, Track, Voice};

use crate::voices;

/// D dorian: the old modal minor of a lute in a tavern, D E F G A B C.
pub const DORIAN: &[i32] = &[0, 2, 3, 5, 7, 9, 10];

fn voice(name: &'static str, instrument: Instrument, gain: f64, line: &'static str) -> Voice {
    Voice {
        name,
        instrument,
        line,
        gain,
        reverb: 0.35,
        echo: 0.0,
        strum: 0.0,
    }
}

/// The town: a slow 3/4 in D dorian, a plucked lute-like tune over a rocking bass and a soft
/// reed-organ chord, eight bars round.
pub fn town() -> Track {
    use Instrument::*;
    Track {
        name: "town.wav",
        bpm: 90,
        beats_per_bar: 3,
        bars: 8,
        scale: Scale {
            tonic: 62,
            steps: DORIAN,
        },
        voices: vec![
            voice(
                "tune",
                Koto(Pluck::SOFT),
                0.9,
                "1:2 5,:1 | 3:1 2:1/2 1 2:1 | 3:2 4:1 | 5:3 | \
                 6:1 5:1/2 4 3:1 | 4:1 3:1/2 2 1:1 | 2:2 7,:1 | 1:3",
            ),
            voice(
                "bass",
                Koto(Pluck::BASS),
                0.55,
                "1,,:1 5,, 1, | 5,,:1 2, 5, | 1,,:1 5,, 1, | 3,,:1 7,, 3, | \
                 4,,:1 1, 4, | 1,,:1 5,, 1, | 5,,:1 2, 5, | 1,,:1 5,, 1,",
            ),
            voice(
                "organ",
                Sho,
                0.07,
                "1,+3,+5,:3 | ~ | 3,+5,+7, | ~ | 4,+6,+1 | 1,+3,+5, | 5,+7,+2 | 1,+3,+5,",
            ),
        ],
        room: (0.7, 0.45),
        seed: 0x7041_5eed,
    }
}

/// A drone loop: `seconds` long, the pair at `root` and `root + beat` Hz.
pub struct Drone {
    /// The file name, `<name>.wav`.
    pub name: &'static str,
    /// The loop's length; a whole number of seconds, so it is listed as 60 bpm beats.
    pub seconds: f64,
    /// The lower of the pair, Hz.
    pub root: f64,
    /// How far above it the upper one sits, Hz: the beats a second.
    pub beat: f64,
    /// The seed its rumble's noise starts from.
    pub seed: u64,
}

/// Umber Warren's drone, louder as a hunting monster nears: A1 and a beat every two seconds.
pub const WARREN_DRONE: Drone = Drone {
    name: "drone.wav",
    seconds: 8.0,
    root: 55.0,
    beat: 0.5,
    seed: 0xd20e_0001,
};

/// Seven Stairs' dungeon ambience under the crawl: lower, G1 beating once in two seconds.
pub const STAIRS_DEEP: Drone = Drone {
    name: "deep.wav",
    seconds: 4.0,
    root: 49.0,
    beat: 0.5,
    seed: 0xd20e_0002,
};

impl Drone {
    /// The loop, as floats about -1..1 (not yet levelled).
    pub fn render(&self) -> Vec<f64> {
        voices::drone(
            self.root,
            self.beat,
            samples(self.seconds),
            &mut Rng::new(self.seed),
        )
    }
}

/// A town track rendered.
pub fn render(track: &Track) -> Result<Vec<f64>, SoundError> {
    music::render(track)
}
