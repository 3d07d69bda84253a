//! The tiles: every kana a tile can show, grouped into the forms one tile turns through.
//!
//! A tile is dealt as a plain kana (its base) and turned through its other forms in a fixed
//! cycle: か → が, は → ば → ぱ, つ → づ → っ, や → ゃ. [`TileStats`] reads the bag weights and
//! values off the dictionary, so how common a kana is in the words decides how often it is dealt
//! and how little it is worth.

use std::fmt;
use std::sync::OnceLock;

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::dict::Dict;

/// The forms of each tile, base first, in turning order.
const TILES: [&str; BASES] = [
    "あぁ",
    "いぃ",
    "うぅ",
    "えぇ",
    "おぉ",
    "かが",
    "きぎ",
    "くぐ",
    "けげ",
    "こご",
    "さざ",
    "しじ",
    "すず",
    "せぜ",
    "そぞ",
    "ただ",
    "ちぢ",
    "つづっ",
    "てで",
    "とど",
    "な",
    "に",
    "ぬ",
    "ね",
    "の",
    "はばぱ",
    "ひびぴ",
    "ふぶぷ",
    "へべぺ",
    "ほぼぽ",
    "ま",
    "み",
    "む",
    "め",
    "も",
    "やゃ",
    "ゆゅ",
    "よょ",
    "ら",
    "り",
    "る",
    "れ",
    "ろ",
    "わ",
    "を",
    "ん",
    "ー",
];

/// How many different tiles there are (plain kana plus the long-vowel mark).
pub const BASES: usize = 47;

/// How many faces a tile can show, over all tiles and forms.
pub const FACES: usize = 81;

struct Table {
    chars: [char; FACES],
    base: [u8; FACES],
    forms: [&'static [Kana]; BASES],
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut chars = ['\0'; FACES];
        let mut base = [0u8; FACES];
        let mut forms: [&'static [Kana]; BASES] = [&[]; BASES];
        let mut next = 0usize;
        for (b, group) in TILES.iter().enumerate() {
            let start = next;
            for c in group.chars() {
                chars[next] = c;
                base[next] = b as u8;
                next += 1;
            }
            let list: Vec<Kana> = (start..next).map(|i| Kana(i as u8)).collect();
            forms[b] = Box::leak(list.into_boxed_slice());
        }
        debug_assert_eq!(next, FACES);
        Table { chars, base, forms }
    })
}

/// One face of a tile: a kana that can stand on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kana(u8);

impl Kana {
    /// The first face in table order (あ).
    pub(crate) const FIRST: Kana = Kana(0);

    /// The face showing `c`, if a tile can show it.
    pub fn from_char(c: char) -> Option<Kana> {
        let t = table();
        t.chars.iter().position(|&x| x == c).map(|i| Kana(i as u8))
    }

    /// The kana as a character.
    pub fn to_char(self) -> char {
        table().chars[self.0 as usize]
    }

    /// A number from 0 to [`FACES`], unique to this face.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The face with number `i`, if there is one.
    pub fn from_index(i: usize) -> Option<Kana> {
        (i < FACES).then_some(Kana(i as u8))
    }

    /// Which tile this face belongs to, from 0 to [`BASES`].
    pub fn tile(self) -> usize {
        table().base[self.0 as usize] as usize
    }

    /// The plain form of this face's tile (が → か, っ → つ).
    pub fn base(self) -> Kana {
        table().forms[self.tile()][0]
    }

    /// Whether this is the plain form a tile is dealt as.
    pub fn is_base(self) -> bool {
        self.base() == self
    }

    /// Every form of this face's tile, the plain one first, in turning order.
    pub fn forms(self) -> &'static [Kana] {
        table().forms[self.tile()]
    }

    /// The next form when the tile is turned, back to the first after the last.
    pub fn turned(self) -> Kana {
        let forms = self.forms();
        let at = forms.iter().position(|&k| k == self).unwrap_or(0);
        forms[(at + 1) % forms.len()]
    }

    /// Small kana and the long-vowel mark lean on the kana before them, so no word starts
    /// with one.
    pub fn leans(self) -> bool {
        matches!(
            self.to_char(),
            'ぁ' | 'ぃ' | 'ぅ' | 'ぇ' | 'ぉ' | 'っ' | 'ゃ' | 'ゅ' | 'ょ' | 'ー'
        )
    }

    /// The plain face of every tile, in table order.
    pub fn bases() -> impl Iterator<Item = Kana> {
        (0..BASES).map(|b| table().forms[b][0])
    }

    /// Every face, in table order.
    pub fn all() -> impl Iterator<Item = Kana> {
        (0..FACES).map(|i| Kana(i as u8))
    }
}

impl fmt::Debug for Kana {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Kana {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl Serialize for Kana {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(self.to_char())
    }
}

impl<'de> Deserialize<'de> for Kana {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let c = char::deserialize(d)?;
        Kana::from_char(c)
            .ok_or_else(|| serde::de::Error::custom(format!("{c:?} is not a tile kana")))
    }
}

/// Reads a string of tile kana, or says which character is not one.
pub fn parse_kana(text: &str) -> Result<Vec<Kana>, char> {
    text.chars().map(|c| Kana::from_char(c).ok_or(c)).collect()
}

/// Writes kana back out as a string.
pub fn to_string(kana: &[Kana]) -> String {
    kana.iter().map(|k| k.to_char()).collect()
}

/// The dearest a kana can be.
pub const MAX_VALUE: u32 = 8;

/// Bag weights and values for every tile, read off a dictionary.
///
/// A tile's weight is how many times its kana (in any form) appears in the dictionary's
/// readings, so the bag deals what the words use. Its value falls with the logarithm of that
/// count: the commonest kana are worth 1, and each halving of use adds about two thirds of a
/// point, up to [`MAX_VALUE`]. A tile no word uses has weight 0 and is never dealt.
#[derive(Clone, Debug, PartialEq)]
pub struct TileStats {
    weight: [u32; BASES],
    value: [u32; BASES],
    total: u32,
}

impl TileStats {
    /// Counts the kana of every reading in `dict`.
    pub fn from_dict(dict: &Dict) -> TileStats {
        let mut weight = [0u32; BASES];
        for entry in dict.entries() {
            for k in &entry.reading {
                weight[k.tile()] += 1;
            }
        }
        TileStats::from_weights(weight)
    }

    /// Stats for the given use counts, one per tile in table order.
    pub fn from_weights(weight: [u32; BASES]) -> TileStats {
        let most = weight.iter().copied().max().unwrap_or(0).max(1) as f64;
        let mut value = [MAX_VALUE; BASES];
        for (v, &w) in value.iter_mut().zip(&weight) {
            if w > 0 {
                let rarity = (most / w as f64).log2();
                *v = (1.0 + rarity * 0.65).round().clamp(1.0, MAX_VALUE as f64) as u32;
            }
        }
        let total = weight.iter().sum();
        TileStats {
            weight,
            value,
            total,
        }
    }

    /// What a kana (in any form) is worth.
    pub fn value(&self, k: Kana) -> u32 {
        self.value[k.tile()]
    }

    /// How often a kana's tile is dealt, relative to the others.
    pub fn weight(&self, k: Kana) -> u32 {
        self.weight[k.tile()]
    }

    /// Whether the bag can deal this kana's tile at all.
    pub fn dealt(&self, k: Kana) -> bool {
        self.weight(k) > 0
    }

    /// Draws one tile from the bag, as its plain face.
    pub fn deal(&self, rng: &mut impl Rng) -> Kana {
        if self.total == 0 {
            return Kana::bases().next().unwrap_or(Kana(0));
        }
        let mut pick = rng.random_range(0..self.total);
        for (b, &w) in self.weight.iter().enumerate() {
            if pick < w {
                return table().forms[b][0];
            }
            pick -= w;
        }
        table().forms[BASES - 1][0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn k(c: char) -> Kana {
        Kana::from_char(c).unwrap()
    }

    #[test]
    fn table_has_every_face_once() {
        let chars: Vec<char> = Kana::all().map(Kana::to_char).collect();
        assert_eq!(chars.len(), FACES);
        let mut sorted = chars.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), FACES);
        assert_eq!(Kana::bases().count(), BASES);
    }

    #[test]
    fn turning_goes_through_the_forms_and_back() {
        assert_eq!(k('か').turned(), k('が'));
        assert_eq!(k('が').turned(), k('か'));
        assert_eq!(k('は').turned(), k('ば'));
        assert_eq!(k('ば').turned(), k('ぱ'));
        assert_eq!(k('ぱ').turned(), k('は'));
        assert_eq!(k('つ').turned(), k('づ'));
        assert_eq!(k('づ').turned(), k('っ'));
        assert_eq!(k('っ').turned(), k('つ'));
        assert_eq!(k('や').turned(), k('ゃ'));
        assert_eq!(k('な').turned(), k('な'));
        assert_eq!(k('ー').forms().len(), 1);
    }

    #[test]
    fn every_face_knows_its_plain_form() {
        assert_eq!(k('ぱ').base(), k('は'));
        assert_eq!(k('っ').base(), k('つ'));
        assert_eq!(k('ょ').base(), k('よ'));
        assert!(k('さ').is_base());
        assert!(!k('ざ').is_base());
        assert!(k('ゃ').leans());
        assert!(!k('や').leans());
        for face in Kana::all() {
            assert!(face.forms().contains(&face));
            assert_eq!(face.forms()[0], face.base());
        }
    }

    #[test]
    fn non_tiles_are_not_kana() {
        assert_eq!(Kana::from_char('a'), None);
        assert_eq!(Kana::from_char('ア'), None);
        assert_eq!(Kana::from_char('ゔ'), None);
        assert_eq!(
            parse_kana("さかな").map(|v| to_string(&v)),
            Ok("さかな".into())
        );
        assert_eq!(parse_kana("さカな"), Err('カ'));
    }

    #[test]
    fn the_shipped_dictionary_prices_the_tiles() {
        let stats = TileStats::from_dict(Dict::japanese());
        assert_eq!(stats.value(k('い')), 1);
        assert!(
            stats.value(k('ぬ')) >= 3,
            "ぬ is worth {}",
            stats.value(k('ぬ'))
        );
        assert!(stats.weight(k('い')) > stats.weight(k('ぬ')) * 10);
        assert!(!stats.dealt(k('を')));
        for b in Kana::bases() {
            assert!((1..=MAX_VALUE).contains(&stats.value(b)));
        }
    }

    #[test]
    fn common_kana_are_cheap_and_unused_ones_never_dealt() {
        let mut w = [0u32; BASES];
        w[k('い').tile()] = 1000;
        w[k('ぬ').tile()] = 40;
        w[k('か').tile()] = 500;
        let stats = TileStats::from_weights(w);
        assert_eq!(stats.value(k('い')), 1);
        assert!(stats.value(k('ぬ')) > stats.value(k('か')));
        assert_eq!(stats.value(k('が')), stats.value(k('か')));
        assert!(!stats.dealt(k('を')));
        let mut rng = rand_pcg::Pcg32::seed_from_u64(7);
        for _ in 0..500 {
            let t = stats.deal(&mut rng);
            assert!(t.is_base());
            assert!([k('い'), k('ぬ'), k('か')].contains(&t));
        }
    }
}
