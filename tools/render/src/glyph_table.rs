//! The seam's table of what the bundled fonts draw (`jengine::glyphs`) is checked here against
//! the fonts themselves, and rewritten from them when `JENGINE_BLESS` is set.

use std::collections::BTreeSet;

use crate::text::{BUNDLED_EMOJI, BUNDLED_FONT};

/// Every code point either bundled font maps to a real glyph (not glyph 0).
fn covered() -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    for data in [BUNDLED_FONT, BUNDLED_EMOJI] {
        let face = ttf_parser::Face::parse(data, 0).expect("a bundled font parses");
        let cmap = face.tables().cmap.expect("a bundled font has a cmap");
        for sub in cmap.subtables {
            if !sub.is_unicode() {
                continue;
            }
            sub.codepoints(|cp| {
                if sub.glyph_index(cp).is_some_and(|g| g.0 != 0) {
                    out.insert(cp);
                }
            });
        }
    }
    out
}

fn ranges(points: &BTreeSet<u32>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &cp in points {
        match out.last_mut() {
            Some((_, hi)) if *hi + 1 == cp => *hi = cp,
            _ => out.push((cp, cp)),
        }
    }
    out
}

fn source(ranges: &[(u32, u32)]) -> String {
    let mut s = String::from(
        "// Made from the bundled fonts' character maps by jengine-render's tests (JENGINE_BLESS=1).\n\
         /// Code point ranges (inclusive) the bundled fonts draw, sorted and disjoint.\n\
         pub const BUNDLED: &[(u32, u32)] = &[\n",
    );
    for (lo, hi) in ranges {
        s.push_str(&format!("    (0x{lo:04X}, 0x{hi:04X}),\n"));
    }
    s.push_str("];\n");
    s
}

#[test]
fn the_seams_glyph_table_matches_the_bundled_fonts() {
    let want = ranges(&covered());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../packages/jengine/src/glyph_table.rs");
    if std::env::var_os("JENGINE_BLESS").is_some() {
        std::fs::write(&path, source(&want)).expect("the table is written");
        return;
    }
    assert_eq!(
        jengine::glyphs::BUNDLED,
        &want[..],
        "the bundled fonts changed: run this test with JENGINE_BLESS=1 to rewrite {}",
        path.display()
    );
}

#[test]
fn every_emoji_the_table_lists_has_a_colour_bitmap_or_outline() {
    // A code point in the table must draw as something other than the missing-glyph box.
    let emoji = ttf_parser::Face::parse(BUNDLED_EMOJI, 0).unwrap();
    let text = ttf_parser::Face::parse(BUNDLED_FONT, 0).unwrap();
    for &(lo, hi) in jengine::glyphs::BUNDLED {
        for cp in lo..=hi {
            let Some(ch) = char::from_u32(cp) else {
                continue;
            };
            let in_text = text.glyph_index(ch).is_some_and(|g| g.0 != 0);
            let in_emoji = emoji
                .glyph_index(ch)
                .is_some_and(|g| g.0 != 0 && emoji.glyph_raster_image(g, u16::MAX).is_some());
            assert!(
                in_text || in_emoji,
                "U+{cp:04X} is listed but neither font draws it"
            );
        }
    }
}
