//! Dice written the way tables write them (`1d8`, `2d4+1`, `3`), and the seeded stream that
//! rolls them. Every roll in a fight comes from one [`Roller`], so a fight replays exactly.

use std::fmt;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

/// A number of dice of one size, plus a flat bonus: `count d sides + bonus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice {
    /// How many dice (0 for a flat number).
    pub count: u8,
    /// Faces on each die (1 to 100).
    pub sides: u8,
    /// Added to the total; may be negative.
    pub bonus: i16,
}

impl Dice {
    /// `count` dice of `sides` faces, no bonus.
    pub const fn new(count: u8, sides: u8) -> Dice {
        Dice {
            count,
            sides,
            bonus: 0,
        }
    }

    /// A flat number, no dice.
    pub const fn flat(n: i16) -> Dice {
        Dice {
            count: 0,
            sides: 1,
            bonus: n,
        }
    }

    /// The lowest total.
    pub fn min(&self) -> i32 {
        self.count as i32 + self.bonus as i32
    }

    /// The highest total.
    pub fn max(&self) -> i32 {
        self.count as i32 * self.sides as i32 + self.bonus as i32
    }

    /// The average total, rounded down.
    pub fn average(&self) -> i32 {
        (self.min() + self.max()).div_euclid(2)
    }

    /// Reads `NdS`, `NdS+B`, `NdS-B`, `dS` or a plain whole number.
    pub fn parse(text: &str) -> Result<Dice, String> {
        let bad = || format!("{text:?} is not dice like 1d8, 2d4+1 or 3");
        let t = text.trim();
        if t.is_empty() {
            return Err(bad());
        }
        let Some(d) = t.find(['d', 'D']) else {
            let n: i16 = t.parse().map_err(|_| bad())?;
            return Ok(Dice::flat(n));
        };
        let count = match &t[..d] {
            "" => 1,
            c => c.parse::<u8>().map_err(|_| bad())?,
        };
        let rest = &t[d + 1..];
        let (sides, bonus) = match rest.find(['+', '-']) {
            Some(at) => {
                let bonus: i16 = rest[at..].parse().map_err(|_| bad())?;
                (&rest[..at], bonus)
            }
            None => (rest, 0),
        };
        let sides: u8 = sides.parse().map_err(|_| bad())?;
        if !(1..=100).contains(&sides) || count > 50 {
            return Err(format!(
                "{text:?}: dice have 1 to 100 sides and there are at most 50 of them"
            ));
        }
        Ok(Dice {
            count,
            sides,
            bonus,
        })
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.bonus);
        }
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

impl Serialize for Dice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Dice, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Text(String),
            Whole(i16),
        }
        match Written::deserialize(d).map_err(|_| {
            serde::de::Error::custom("expected dice as text like \"1d8\" or a whole number")
        })? {
            Written::Text(t) => Dice::parse(&t).map_err(serde::de::Error::custom),
            Written::Whole(n) => Ok(Dice::flat(n)),
        }
    }
}

/// The seeded stream every roll of a fight or a character's growth comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roller {
    rng: Pcg32,
}

impl Roller {
    /// A stream from a seed: the same seed, the same rolls.
    pub fn new(seed: u64) -> Roller {
        Roller {
            rng: Pcg32::seed_from_u64(seed),
        }
    }

    /// One die of `sides` faces (1 to `sides`).
    pub fn die(&mut self, sides: u8) -> i32 {
        self.rng.random_range(1..=sides.max(1) as i32)
    }

    /// The total of `dice`.
    pub fn roll(&mut self, dice: Dice) -> i32 {
        let mut total = dice.bonus as i32;
        for _ in 0..dice.count {
            total += self.die(dice.sides);
        }
        total
    }

    /// A d20.
    pub fn d20(&mut self) -> i32 {
        self.die(20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_read_and_write_back() {
        for text in ["1d8", "2d4+1", "3d6-2", "7", "1d4+1"] {
            assert_eq!(Dice::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Dice::parse("d6").unwrap(), Dice::new(1, 6));
        let two = Dice::parse("2d4+1").unwrap();
        assert_eq!((two.min(), two.max(), two.average()), (3, 9, 6));
    }

    #[test]
    fn bad_dice_are_refused_in_words() {
        assert_eq!(
            Dice::parse("2x4").unwrap_err(),
            "\"2x4\" is not dice like 1d8, 2d4+1 or 3"
        );
        assert!(Dice::parse("1d0").unwrap_err().contains("1 to 100 sides"));
        assert!(Dice::parse("").is_err());
        assert!(Dice::parse("1d8+").is_err());
    }

    #[test]
    fn a_roller_replays_from_its_seed() {
        let mut a = Roller::new(9);
        let mut b = Roller::new(9);
        let dice = Dice::parse("3d6+1").unwrap();
        for _ in 0..100 {
            let r = a.roll(dice);
            assert_eq!(r, b.roll(dice));
            assert!((4..=19).contains(&r));
        }
    }
}
