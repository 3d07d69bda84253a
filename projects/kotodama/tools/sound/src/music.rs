//! Kotodama's four music loops, scored on the shared synthesiser ([`jengine_synth::music`]):
//! a lilting title, a thoughtful puzzle, a driving battle and a short, warm results tune, each
//! on a Japanese pentatonic scale, played by koto, shakuhachi, shō, taiko and bells.

use jengine_synth::instruments::Pluck;
use jengine_synth::music::{IN, Instrument, Scale, Track, Voice, YO};

/// A voice with a little reverb, no echo and no strum; `sends` and `strummed` change them.
fn voice(name: &'static str, instrument: Instrument, gain: f64, line: &'static str) -> Voice {
    Voice {
        name,
        instrument,
        line,
        gain,
        reverb: 0.3,
        echo: 0.0,
        strum: 0.0,
    }
}

/// The koto of the battle's running eighths: bright but quick to fade, so they do not blur.
const RIFF: Pluck = Pluck {
    bright: 0.6,
    ring: 0.9,
    position: 0.18,
};

/// The title: a lilting 3/4 on the yō scale, a koto tune over a flowing koto arpeggio and a
/// quiet shō, the shakuhachi answering at the end of each half, a rin on the first beat.
pub fn title() -> Track {
    use Instrument::*;
    Track {
        name: "title.wav",
        bpm: 84,
        beats_per_bar: 3,
        bars: 8,
        scale: Scale {
            tonic: 62,
            steps: YO,
        },
        voices: vec![
            voice(
                "melody",
                Koto(Pluck::KOTO),
                1.0,
                "4:1 1' 5 | 4:2 3:1/2 2 | 3:1 4:1/2 5 4:1 | 2:3 | \
                 1':1 2':1/2 1' 5:1 | 4:1 5:1/2 4 3:1 | 2:1 3 4 | 1,+1:2 r:1",
            )
            .sends(0.35, 0.18)
            .strummed(0.03),
            voice(
                "arpeggio",
                Koto(Pluck::SOFT),
                0.45,
                "1,:1/2 4, 1 4, 2 4, | 3,, 1, 3, 1, 4, 1, | 2, 5, 2 5, 3 5, | 2, 4, 5, 4, 2 4, | \
                 3,, 1, 3, 1, 5, 1, | 1, 4, 1 4, 2 4, | 2, 5, 2 4, 1 4, | 1, 4, 1:1 r:1",
            )
            .sends(0.4, 0.0),
            voice(
                "sho",
                Sho,
                0.13,
                "1,+4,+2:3 | ~ | 2,+5,+2 | ~ | 3,+1+4 | ~ | 1,+4,+1 | ~",
            )
            .sends(0.3, 0.0),
            voice(
                "shakuhachi",
                Shakuhachi,
                0.7,
                "r:3 | r | r | r:1 5 4 | r:3 | r | r | r:1 2 3",
            )
            .sends(0.2, 0.1),
            voice("rin", Kit, 0.5, "b:3 | r | r | r | r | r | r | r").sends(0.6, 0.0),
        ],
        room: (0.75, 0.55),
        seed: 0x0071_711e,
    }
}

/// The puzzle: slow 4/4 on the in scale, a thoughtful koto over a bass koto and a soft shō,
/// with room between the notes; the shakuhachi sings a long line in the second half.
pub fn puzzle() -> Track {
    use Instrument::*;
    Track {
        name: "puzzle.wav",
        bpm: 75,
        beats_per_bar: 4,
        bars: 6,
        scale: Scale {
            tonic: 64,
            steps: IN,
        },
        voices: vec![
            voice(
                "melody",
                Koto(Pluck::KOTO),
                1.0,
                "3:1 4:1/2 5 4:2 | 3:1 2 1:2 | r:1 1':1/2 5 4:1 3 | 2:1 3 4:2 | \
                 5:1 4:1/2 3 2:1 3 | 1:3 r:1",
            )
            .sends(0.4, 0.22),
            voice(
                "bass",
                Koto(Pluck::BASS),
                0.6,
                "1,,:1 4,, 1,:2 | 3,,:1 1, 3,:2 | 2,,:1 5,, 2,:2 | 1,,:1 4,, 1,:2 | \
                 3,,:1 1, 5,:2 | 1,,:1 4,, 1, 4,",
            )
            .sends(0.3, 0.0),
            voice(
                "sho",
                Sho,
                0.13,
                "1,+4,+1:4 | ~ | 2,+5,+3, | ~ | 3,+1+4, | ~",
            )
            .sends(0.3, 0.0),
            voice(
                "shakuhachi",
                Shakuhachi,
                0.7,
                "r:4 | r | r | r:2 1':2 | 5:3 4:1 | 3:4",
            )
            .sends(0.2, 0.12),
            voice("rin", Kit, 0.5, "b:4 | r | r | r | r | r").sends(0.6, 0.0),
        ],
        room: (0.8, 0.55),
        seed: 0x0090_221e,
    }
}

/// The battle: 126 bpm on the in scale from A, taiko and shime-daiko driving a koto
/// ostinato in eighths, a bass koto on the roots, the shakuhachi carrying the tune; the
/// last bar's drum roll leads back into the first.
pub fn battle() -> Track {
    use Instrument::*;
    Track {
        name: "battle.wav",
        bpm: 126,
        beats_per_bar: 4,
        bars: 8,
        scale: Scale { tonic: 57, steps: IN },
        voices: vec![
            voice(
                "ostinato",
                Koto(RIFF),
                0.7,
                "1:1/2 4 1' 4 5 4 1' 4 | 1 4 1' 4 5 4 1' 4 | 3 1' 3' 1' 5 1' 3' 1' | \
                 4 2' 4' 2' 1' 5 4 2 | 1 4 1' 4 5 4 1' 4 | 1 4 1' 4 5 4 1' 4 | \
                 3 1' 3' 1' 5 1' 3' 1' | 4 2' 4' 2' 1' 5 4 2",
            )
            .sends(0.2, 0.0),
            voice(
                "melody",
                Shakuhachi,
                1.0,
                "1':1 4':2 5':1 | 4':3 r:1 | 3':1 5':1/2 4' 3':2 | 2':2 1':2 | \
                 1':1 3':1 4':2 | 5':1 4':1 3':2 | 4':2 5':1 1'':1 | 4':3 r:1",
            )
            .sends(0.2, 0.12),
            voice(
                "bass",
                Koto(Pluck::BASS),
                0.8,
                "1,:2 1,:1 4,:1 | 1,:2 1,:1 4,:1 | 3,:2 3,:1 1:1 | 4,:2 4,:1 2,:1 | \
                 1,:2 1,:1 4,:1 | 1,:2 1,:1 4,:1 | 3,:2 3,:1 1:1 | 4,:2 4,:1 2,:1",
            )
            .sends(0.2, 0.0),
            voice(
                "taiko",
                Kit,
                0.7,
                "d>:1 k:1/2 k d:1 k:1/2 k | d>:1 k:1/2 d d:1 k:1/2 k | \
                 d>:1 k:1/2 k d:1 k:1/2 k | d>:1 k:1/2 d d:1 t:1/2 t | \
                 d>:1 k:1/2 k d:1 k:1/2 k | d>:1 k:1/2 d d:1 k:1/2 k | \
                 d>:1 k:1/2 k d:1 k:1/2 k | d>:1/2 t t t t:1/4 t t t d:1/2 d>",
            )
            .sends(0.25, 0.0),
            voice(
                "shime",
                Kit,
                0.6,
                "s:1/2 s s> s s s s> s | s s s> s s s s> s | s s s> s s s s> s | s s s> s s s s> s | \
                 s s s> s s s s> s | s s s> s s s s> s | s s s> s s s s> s | \
                 s:1/4 s s s s s s s s s s s> s s> s s>",
            )
            .sends(0.15, 0.0),
        ],
        room: (0.6, 0.5),
        seed: 0x00ba_771e,
    }
}

/// The results: a short, warm 3/4 on the yō scale from G, a koto tune over a rising koto
/// arpeggio and the shō, a rin on the first beat.
pub fn results() -> Track {
    use Instrument::*;
    Track {
        name: "results.wav",
        bpm: 90,
        beats_per_bar: 3,
        bars: 4,
        scale: Scale {
            tonic: 55,
            steps: YO,
        },
        voices: vec![
            voice(
                "melody",
                Koto(Pluck::KOTO),
                1.0,
                "4':1 5':1/2 4' 3':1 | 2':1 1':2 | 3':1 4' 1'' | 5':2 4':1",
            )
            .sends(0.4, 0.15),
            voice(
                "arpeggio",
                Koto(Pluck::SOFT),
                0.45,
                "1:1/2 4 1' 2' 4' 2' | 3 1' 3' 2' 1' 5 | 2 5 2' 3' 5' 3' | 4, 1 4 5 1' 4",
            )
            .sends(0.4, 0.0),
            voice("sho", Sho, 0.13, "1+4+2':3 | 3+1'+5 | 2+5+2' | 4,+1+4").sends(0.3, 0.0),
            voice("rin", Kit, 0.5, "b:3 | r | r | r").sends(0.6, 0.0),
        ],
        room: (0.75, 0.55),
        seed: 0x002e_501e,
    }
}

/// Every music track, in the order they are written.
pub fn tracks() -> Vec<Track> {
    vec![title(), puzzle(), battle(), results()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use jengine_synth::dsp::RATE;
    use jengine_synth::music::render;

    #[test]
    fn every_tempo_gives_a_whole_number_of_samples_per_beat() {
        for t in tracks() {
            assert_eq!(u64::from(RATE) * 60 % u64::from(t.bpm), 0, "{}", t.name);
            assert_eq!(t.len() as u64, t.samples_per_beat() * u64::from(t.beats()));
        }
    }

    #[test]
    fn a_wrong_voice_length_names_the_track_and_voice() {
        let mut t = results();
        t.voices[0].line = "1:3 | 2:3";
        let err = render(&t).unwrap_err();
        assert_eq!(
            err.to_string(),
            "results.wav, voice melody: the line lasts 6 beats, the track 12"
        );
    }

    #[test]
    fn a_score_mistake_names_the_track_voice_and_character() {
        let mut t = results();
        t.voices[3].line = "b:3 | x | r | r";
        let err = render(&t).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("results.wav, voice rin: at character 7: 'x' is not a drum"),
            "{err}"
        );
    }
}
