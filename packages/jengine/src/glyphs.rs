//! Which characters the host's bundled fonts can draw.
//!
//! The host draws text with two bundled fonts (a Japanese font and a colour emoji font, both
//! subsets) and shows a missing-glyph box for a character neither has. A package that takes
//! text from its users (a palette glyph, a name) can ask here, when it validates, whether that
//! text will draw, instead of finding out from a box on screen.
//!
//! The table is made from the fonts' character maps; the renderer's tests check that it still
//! matches the fonts and rewrite it when `JENGINE_BLESS` is set. A project that ships its own
//! font draws more than this says: the table covers the bundled fonts only.

/// The table itself, made from the fonts.
mod table {
    include!("glyph_table.rs");
}

pub use table::BUNDLED;

/// Characters that draw nothing and need no glyph: variation selectors, joiners, tags, the
/// byte order mark, and line breaks and tabs, which layout handles.
pub fn invisible(ch: char) -> bool {
    matches!(
        ch as u32,
        0x09 | 0x0A | 0x0D
            | 0x200B..=0x200D
            | 0x2060
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xE0000..=0xE007F
            | 0xE0100..=0xE01EF
    )
}

/// Whether a bundled font has a glyph for `ch` (or `ch` draws nothing anyway).
pub fn drawable(ch: char) -> bool {
    if invisible(ch) {
        return true;
    }
    let cp = ch as u32;
    BUNDLED
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The characters of `text` no bundled font draws, each once, in the order they first appear.
pub fn undrawable(text: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for ch in text.chars() {
        if !drawable(ch) && !out.contains(&ch) {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_disjoint() {
        assert!(!BUNDLED.is_empty());
        for w in BUNDLED.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{w:?}");
        }
    }

    #[test]
    fn letters_kana_and_the_shipped_emoji_draw() {
        for ch in ['A', 'z', '0', ' ', 'あ', 'ア', '🐈', '🚩', '🧱', '\u{FE0F}'] {
            assert!(drawable(ch), "{ch:?} (U+{:04X})", ch as u32);
        }
    }

    #[test]
    fn a_face_the_emoji_subset_leaves_out_does_not() {
        assert_eq!(undrawable("CAT 💀 💀 ok"), vec!['💀']);
        assert!(!drawable('\u{10FFFF}'));
    }
}
