//! The notation the scores are written in: one line of text per voice, parsed into timed
//! events, with bar lines checked so a wrong length is caught where it was written.
//!
//! ```text
//! 4:1 1' 5 | 4:2 3:1/2 2 | 1,+4,:3 | r:1 d> k:1/2 k |
//! ```
//! A note is a scale degree (`1` is the tonic) with `'` an octave up or `,` down for each
//! mark; a drum line uses its kit's letters instead. `+` joins a chord, `>` accents, `:n` or
//! `:n/m` sets the length in beats (kept for the following notes until changed), `r` is a
//! rest, `~` holds the note before it on (a tie, so a note can cross a bar line) and `|` is
//! a bar line: every bar must be exactly as long as the track's bar.

use std::fmt;

/// Subdivisions of a beat: enough for halves, thirds, quarters and sixths.
pub const TICKS_PER_BEAT: u32 = 12;

/// The longest line accepted, in beats (longer is certainly a typo).
const MAX_BEATS: u32 = 4096;

/// What a note names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pitch {
    /// A scale degree, 1-based, and how many octaves up (negative: down).
    Degree {
        /// 1 is the tonic.
        degree: u8,
        /// Octaves up (negative: down).
        octave: i8,
    },
    /// A drum of the kit, by its letter.
    Hit(char),
}

/// One note, chord or hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// When it starts, in ticks from the line's start.
    pub at: u32,
    /// How long it lasts, in ticks.
    pub len: u32,
    /// What sounds: one pitch, or a chord's, low to high as written.
    pub pitches: Vec<Pitch>,
    /// Whether it is played harder (`>`).
    pub accent: bool,
}

/// A parsed line: its events in order and its whole length in ticks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The notes, chords, hits and holds, in time order (rests leave gaps).
    pub events: Vec<Event>,
    /// The whole line's length, in ticks.
    pub ticks: u32,
}

/// Which pitches a line may name.
#[derive(Clone, Copy, Debug)]
pub enum Alphabet<'a> {
    /// Degrees `1..=n` of an n-note scale.
    Degrees(u8),
    /// The letters of a drum kit (never `r`, which is a rest).
    Hits(&'a str),
}

/// A mistake in a line, with the character (counted from 1) where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreError {
    /// The character, counted from 1.
    pub column: usize,
    /// What is wrong there.
    pub kind: ScoreErrorKind,
}

/// What the mistake is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreErrorKind {
    /// A character that cannot stand here.
    Unexpected(char),
    /// A degree the scale does not have.
    NoSuchDegree {
        /// The degree written.
        degree: char,
        /// How many notes the scale has.
        notes: u8,
    },
    /// A letter the kit does not have.
    NoSuchHit {
        /// The letter written.
        hit: char,
        /// The kit's letters.
        kit: String,
    },
    /// More than four octave marks on one note.
    TooManyOctaves,
    /// A `+` with no pitch after it.
    EmptyChord,
    /// A `~` with no note right before it to hold.
    NothingToHold,
    /// A length that is not a positive number of beats, `n` or `n/m`.
    BadLength(String),
    /// A length that is not a whole number of ticks (twelfths of a beat).
    OffGrid(String),
    /// The line runs past the longest accepted.
    TooLong,
    /// A bar that is not exactly a bar long.
    BarLength {
        /// Which bar, counted from 1.
        bar: u32,
        /// How long it is, in ticks.
        ticks: u32,
        /// How long a bar is, in ticks.
        expected: u32,
    },
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: ", self.column)?;
        match &self.kind {
            ScoreErrorKind::Unexpected(c) => write!(f, "unexpected {c:?}"),
            ScoreErrorKind::NoSuchDegree { degree, notes } => {
                write!(f, "degree {degree} is not in a {notes}-note scale")
            }
            ScoreErrorKind::NoSuchHit { hit, kit } => {
                write!(f, "{hit:?} is not a drum of this kit (it has {kit:?})")
            }
            ScoreErrorKind::TooManyOctaves => write!(f, "more than four octave marks"),
            ScoreErrorKind::EmptyChord => write!(f, "'+' must be followed by a pitch"),
            ScoreErrorKind::NothingToHold => write!(f, "'~' must follow a note to hold"),
            ScoreErrorKind::BadLength(s) => {
                write!(
                    f,
                    "length {s:?} is not a positive number of beats (n or n/m)"
                )
            }
            ScoreErrorKind::OffGrid(s) => {
                write!(
                    f,
                    "length {s:?} is not a whole number of twelfths of a beat"
                )
            }
            ScoreErrorKind::TooLong => write!(f, "the line is longer than {MAX_BEATS} beats"),
            ScoreErrorKind::BarLength {
                bar,
                ticks,
                expected,
            } => write!(
                f,
                "bar {bar} lasts {} beats, a bar is {} beats",
                beats(*ticks),
                beats(*expected)
            ),
        }
    }
}

impl std::error::Error for ScoreError {}

/// Ticks written as beats, with a fraction when needed ("3", "5/2").
pub(crate) fn beats(ticks: u32) -> String {
    // The gcd is at least 1: TICKS_PER_BEAT is not zero.
    let g = gcd(ticks, TICKS_PER_BEAT);
    let (num, den) = (ticks / g, TICKS_PER_BEAT / g);
    if den == 1 {
        num.to_string()
    } else {
        format!("{num}/{den}")
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    alphabet: Alphabet<'a>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn error(&self, kind: ScoreErrorKind) -> ScoreError {
        ScoreError {
            column: self.pos + 1,
            kind,
        }
    }

    fn pitch(&mut self) -> Result<Pitch, ScoreError> {
        let Some(c) = self.peek() else {
            return Err(self.error(ScoreErrorKind::EmptyChord));
        };
        match self.alphabet {
            Alphabet::Degrees(notes) => {
                let degree = match c.to_digit(10) {
                    Some(d) if d >= 1 && d <= u32::from(notes) => d as u8,
                    Some(_) => {
                        return Err(self.error(ScoreErrorKind::NoSuchDegree { degree: c, notes }));
                    }
                    None if c == '+' || c.is_whitespace() || c == '|' => {
                        return Err(self.error(ScoreErrorKind::EmptyChord));
                    }
                    None => return Err(self.error(ScoreErrorKind::Unexpected(c))),
                };
                self.pos += 1;
                let mut octave: i8 = 0;
                while let Some(mark @ ('\'' | ',')) = self.peek() {
                    if octave.abs() >= 4 {
                        return Err(self.error(ScoreErrorKind::TooManyOctaves));
                    }
                    octave += if mark == '\'' { 1 } else { -1 };
                    self.pos += 1;
                }
                Ok(Pitch::Degree { degree, octave })
            }
            Alphabet::Hits(kit) => {
                if c.is_alphabetic() && c != 'r' && kit.contains(c) {
                    self.pos += 1;
                    Ok(Pitch::Hit(c))
                } else if c.is_alphabetic() {
                    Err(self.error(ScoreErrorKind::NoSuchHit {
                        hit: c,
                        kit: kit.to_string(),
                    }))
                } else if c == '+' || c.is_whitespace() || c == '|' {
                    Err(self.error(ScoreErrorKind::EmptyChord))
                } else {
                    Err(self.error(ScoreErrorKind::Unexpected(c)))
                }
            }
        }
    }

    /// A whole number of at most six digits.
    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        if digits.is_empty() || digits.len() > 6 {
            return None;
        }
        digits.parse().ok()
    }

    /// The length after a `:`, in ticks.
    fn length(&mut self) -> Result<u32, ScoreError> {
        let start = self.pos;
        let text = |p: &Parser| -> String {
            p.chars[start..]
                .iter()
                .take_while(|c| !c.is_whitespace() && **c != '|')
                .collect()
        };
        let num = self.number();
        let den = if self.peek() == Some('/') {
            self.pos += 1;
            self.number()
        } else {
            Some(1)
        };
        let (Some(num), Some(den)) = (num, den) else {
            let s = text(self);
            self.pos = start;
            return Err(self.error(ScoreErrorKind::BadLength(s)));
        };
        if num == 0 || den == 0 {
            let s = text(self);
            self.pos = start;
            return Err(self.error(ScoreErrorKind::BadLength(s)));
        }
        let ticks = u64::from(num) * u64::from(TICKS_PER_BEAT);
        if ticks % u64::from(den) != 0 {
            let s = text(self);
            self.pos = start;
            return Err(self.error(ScoreErrorKind::OffGrid(s)));
        }
        let ticks = ticks / u64::from(den);
        if ticks > u64::from(MAX_BEATS * TICKS_PER_BEAT) {
            self.pos = start;
            return Err(self.error(ScoreErrorKind::TooLong));
        }
        Ok(ticks as u32)
    }
}

/// Parses one voice's line. `beats_per_bar` is the bar every `|` checks; the last bar must be
/// whole too, whether or not a `|` closes it.
pub fn parse(src: &str, beats_per_bar: u32, alphabet: Alphabet) -> Result<Line, ScoreError> {
    let mut p = Parser {
        chars: src.chars().collect(),
        pos: 0,
        alphabet,
    };
    let bar_ticks = beats_per_bar.max(1) * TICKS_PER_BEAT;
    let mut events: Vec<Event> = Vec::new();
    let mut tick: u32 = 0;
    let mut length = TICKS_PER_BEAT;
    let mut bar_start = 0;
    let mut bar = 1;
    let check_bar = |p: &Parser, tick: u32, bar_start: u32, bar: u32| {
        if tick - bar_start != bar_ticks {
            Err(p.error(ScoreErrorKind::BarLength {
                bar,
                ticks: tick - bar_start,
                expected: bar_ticks,
            }))
        } else {
            Ok(())
        }
    };
    loop {
        while p.peek().is_some_and(char::is_whitespace) {
            p.pos += 1;
        }
        let Some(c) = p.peek() else { break };
        if c == '|' {
            check_bar(&p, tick, bar_start, bar)?;
            bar_start = tick;
            bar += 1;
            p.pos += 1;
            continue;
        }
        let mut pitches = Vec::new();
        let tie_at = p.pos;
        let tie = c == '~';
        if c == 'r' || tie {
            p.pos += 1;
        } else {
            loop {
                pitches.push(p.pitch()?);
                if p.peek() == Some('+') {
                    p.pos += 1;
                } else {
                    break;
                }
            }
        }
        let accent = p.peek() == Some('>');
        if accent {
            p.pos += 1;
        }
        if p.peek() == Some(':') {
            p.pos += 1;
            length = p.length()?;
        }
        match p.peek() {
            None | Some('|') => {}
            Some(c) if c.is_whitespace() => {}
            Some(c) => return Err(p.error(ScoreErrorKind::Unexpected(c))),
        }
        let end = tick + length;
        if end > MAX_BEATS * TICKS_PER_BEAT {
            return Err(p.error(ScoreErrorKind::TooLong));
        }
        if tie {
            match events.last_mut() {
                Some(last) if last.at + last.len == tick => last.len += length,
                _ => {
                    return Err(ScoreError {
                        column: tie_at + 1,
                        kind: ScoreErrorKind::NothingToHold,
                    });
                }
            }
        } else if !pitches.is_empty() {
            events.push(Event {
                at: tick,
                len: length,
                pitches,
                accent,
            });
        }
        tick = end;
    }
    if tick > bar_start {
        check_bar(&p, tick, bar_start, bar)?;
    }
    Ok(Line {
        events,
        ticks: tick,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PENTA: Alphabet = Alphabet::Degrees(5);

    fn deg(degree: u8, octave: i8) -> Pitch {
        Pitch::Degree { degree, octave }
    }

    #[test]
    fn lengths_carry_over_until_changed() {
        let line = parse("1:1/2 2 3:1 4", 3, PENTA).unwrap();
        let timing: Vec<(u32, u32)> = line.events.iter().map(|e| (e.at, e.len)).collect();
        assert_eq!(timing, [(0, 6), (6, 6), (12, 12), (24, 12)]);
        assert_eq!(line.ticks, 36);
    }

    #[test]
    fn chords_octaves_accents_and_rests() {
        let line = parse("1,+5'' r 3>:2", 4, PENTA).unwrap();
        assert_eq!(line.events.len(), 2);
        assert_eq!(line.events[0].pitches, [deg(1, -1), deg(5, 2)]);
        assert!(!line.events[0].accent);
        assert_eq!(line.events[1].at, 24);
        assert_eq!(line.events[1].pitches, [deg(3, 0)]);
        assert!(line.events[1].accent);
        assert_eq!(line.ticks, 48);
    }

    #[test]
    fn a_tie_holds_a_note_across_a_bar_line() {
        let line = parse("1+3:2 | ~:1 2", 2, PENTA).unwrap();
        let timing: Vec<(u32, u32)> = line.events.iter().map(|e| (e.at, e.len)).collect();
        assert_eq!(timing, [(0, 36), (36, 12)]);
        let err = parse("r:2 | ~ 1", 2, PENTA).unwrap_err();
        assert_eq!((err.column, err.kind), (7, ScoreErrorKind::NothingToHold));
        let err = parse("~", 1, PENTA).unwrap_err();
        assert_eq!((err.column, err.kind), (1, ScoreErrorKind::NothingToHold));
    }

    #[test]
    fn drum_lines_use_their_kit() {
        let line = parse("d k:1/2 k | s+k r:3/2", 2, Alphabet::Hits("dks")).unwrap();
        assert_eq!(line.events[3].pitches, [Pitch::Hit('s'), Pitch::Hit('k')]);
        let err = parse("d x", 2, Alphabet::Hits("dks")).unwrap_err();
        assert_eq!(err.column, 3);
        assert!(matches!(
            err.kind,
            ScoreErrorKind::NoSuchHit { hit: 'x', .. }
        ));
    }

    #[test]
    fn a_short_bar_is_named_with_its_number_and_place() {
        let err = parse("1:2 2:2 | 3:2 4:1 | 5:4", 4, PENTA).unwrap_err();
        assert_eq!(err.column, 19);
        assert_eq!(
            err.kind,
            ScoreErrorKind::BarLength {
                bar: 2,
                ticks: 36,
                expected: 48
            }
        );
        assert_eq!(
            err.to_string(),
            "at character 19: bar 2 lasts 3 beats, a bar is 4 beats"
        );
    }

    #[test]
    fn an_unfinished_last_bar_is_an_error_even_without_a_bar_line() {
        let err = parse("1:4 | 2:1/2", 4, PENTA).unwrap_err();
        assert!(
            matches!(
                err.kind,
                ScoreErrorKind::BarLength {
                    bar: 2,
                    ticks: 6,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn bad_tokens_are_refused_where_they_stand() {
        let cases: [(&str, usize, ScoreErrorKind); 9] = [
            (
                "6",
                1,
                ScoreErrorKind::NoSuchDegree {
                    degree: '6',
                    notes: 5,
                },
            ),
            (
                "0",
                1,
                ScoreErrorKind::NoSuchDegree {
                    degree: '0',
                    notes: 5,
                },
            ),
            ("1 x", 3, ScoreErrorKind::Unexpected('x')),
            ("1+ 2", 3, ScoreErrorKind::EmptyChord),
            ("1:0", 3, ScoreErrorKind::BadLength("0".into())),
            ("1:1/0", 3, ScoreErrorKind::BadLength("1/0".into())),
            ("1:1/5", 3, ScoreErrorKind::OffGrid("1/5".into())),
            ("1:9999999", 3, ScoreErrorKind::BadLength("9999999".into())),
            ("1'''''", 6, ScoreErrorKind::TooManyOctaves),
        ];
        for (src, column, kind) in cases {
            let err = parse(src, 1, PENTA).unwrap_err();
            assert_eq!((err.column, &err.kind), (column, &kind), "{src:?}: {err}");
        }
    }

    #[test]
    fn a_line_past_the_longest_is_refused() {
        let err = parse("1:4000 2:4000", 1, PENTA).unwrap_err();
        assert_eq!(err.kind, ScoreErrorKind::TooLong);
        let err = parse("1:100000", 1, PENTA).unwrap_err();
        assert_eq!(err.kind, ScoreErrorKind::TooLong);
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_text_parses_or_errs_without_panicking(src in "\\PC{0,60}", bar in 0u32..9) {
                let _ = parse(&src, bar, Alphabet::Degrees(5));
                let _ = parse(&src, bar, Alphabet::Hits("dkr"));
            }

            #[test]
            fn near_miss_notation_parses_or_errs_without_panicking(
                src in "[0-9r'+,>:/|~ dk]{0,40}", bar in 1u32..5,
            ) {
                let _ = parse(&src, bar, Alphabet::Degrees(5));
                let _ = parse(&src, bar, Alphabet::Hits("dk"));
            }

            #[test]
            fn a_line_lasts_the_sum_of_its_lengths(
                notes in proptest::collection::vec((1u8..=5, 1u32..=8, 1u32..=4), 1..30),
            ) {
                let mut src = String::new();
                let mut total = 0;
                for (degree, num, den) in &notes {
                    // Only lengths on the grid: dens 1, 2, 3, 4 all divide 12.
                    src.push_str(&format!("{degree}:{num}/{den} "));
                    total += num * TICKS_PER_BEAT / den;
                }
                // A rest to the next whole beat, then one bar as long as the line.
                let pad = (TICKS_PER_BEAT - total % TICKS_PER_BEAT) % TICKS_PER_BEAT;
                if pad > 0 {
                    src.push_str(&format!("r:{pad}/{TICKS_PER_BEAT}"));
                }
                let bar = (total + pad) / TICKS_PER_BEAT;
                let line = parse(&src, bar, Alphabet::Degrees(5)).unwrap();
                prop_assert_eq!(line.ticks, total + pad);
                prop_assert_eq!(line.events.len(), notes.len());
                let mut at = 0;
                for e in &line.events {
                    prop_assert_eq!(e.at, at);
                    at += e.len;
                }
            }
        }
    }
}
