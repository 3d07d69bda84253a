//! Lines of text: which characters draw nothing, which ask for the emoji font, where a line may
//! break (spaces, between CJK characters, never before a closing mark), and the glyphs placed
//! along each line in font units.

use super::*;

/// Characters that join or select among the ones around them and draw nothing here: variation
/// selectors (U+FE0F asks for the emoji font first), joiners, tags and the byte order mark.
pub(super) fn invisible(ch: char) -> bool {
    matches!(
        ch as u32,
        0x200B..=0x200D | 0x2060 | 0xFE00..=0xFE0F | 0xFEFF | 0xE0000..=0xE007F | 0xE0100..=0xE01EF
    )
}

/// Characters shown as emoji unless U+FE0E follows (Unicode's Emoji_Presentation): those
/// below U+1F000, which the Japanese font may draw as plain symbols; everything from U+1F000
/// on is past the Japanese font anyway.
const EMOJI_PRESENTATION: [(u32, u32); 33] = [
    (0x231A, 0x231B),
    (0x23E9, 0x23EC),
    (0x23F0, 0x23F0),
    (0x23F3, 0x23F3),
    (0x25FD, 0x25FE),
    (0x2614, 0x2615),
    (0x2648, 0x2653),
    (0x267F, 0x267F),
    (0x2693, 0x2693),
    (0x26A1, 0x26A1),
    (0x26AA, 0x26AB),
    (0x26BD, 0x26BE),
    (0x26C4, 0x26C5),
    (0x26CE, 0x26CE),
    (0x26D4, 0x26D4),
    (0x26EA, 0x26EA),
    (0x26F2, 0x26F3),
    (0x26F5, 0x26F5),
    (0x26FA, 0x26FA),
    (0x26FD, 0x26FD),
    (0x2705, 0x2705),
    (0x270A, 0x270B),
    (0x2728, 0x2728),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2795, 0x2797),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
];

pub(super) fn emoji_by_default(ch: char) -> bool {
    let cp = ch as u32;
    cp >= 0x1F000
        || EMOJI_PRESENTATION
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// No line may start with these (closing brackets, small kana, Japanese stops).
pub(super) fn no_break_before(ch: char) -> bool {
    "、。，．,.・：；？！?!ー」』）］｝〉》】々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ)]}"
        .contains(ch)
}

/// Characters a line may break around without a space (CJK scripts).
pub(super) fn breaks_freely(ch: char) -> bool {
    ch as u32 >= 0x2E80
}

/// A line of placed glyphs and its width without trailing spaces, in font units.
pub(super) type Line = (Vec<Placed>, f32);

/// Lays out `text` into lines of placed glyphs, wrapping at `wrap` font units.
pub(super) fn layout(
    fonts: &mut Fonts,
    font: FontId,
    text: &str,
    wrap: Option<f32>,
    warnings: &mut Warnings,
) -> Vec<Line> {
    let mut lines = Vec::new();
    layout_each(fonts, font, text, wrap, warnings, |line| lines.push(line));
    lines
}

/// Lays out `text` as [`layout`] does, handing each line to `each` as it is finished, so a
/// caller that keeps a few lines of a long text holds only those.
pub(super) fn layout_each(
    fonts: &mut Fonts,
    font: FontId,
    text: &str,
    wrap: Option<f32>,
    warnings: &mut Warnings,
    mut each: impl FnMut(Line),
) {
    // Whether a line has been handed on yet: a wrapped line does not start with a space.
    let mut any = false;
    for paragraph in text.split('\n') {
        let mut line: Vec<Placed> = Vec::new();
        let mut prev: Option<char> = None;
        let mut break_at: Option<usize> = None;
        let mut x = 0.0;
        let mut chars = paragraph.chars().peekable();
        while let Some(ch) = chars.next() {
            let ch = if ch == '\t' { ' ' } else { ch };
            if ch.is_control() || invisible(ch) {
                continue;
            }
            let space = ch.is_whitespace();
            let emoji = match chars.peek() {
                Some('\u{FE0F}') => true,
                Some('\u{FE0E}') => false,
                _ => emoji_by_default(ch),
            };
            let Glyph {
                font: from,
                id: glyph,
                advance,
            } = fonts.glyph(font, ch, emoji, warnings);
            if let Some(p) = prev
                && (p.is_whitespace() || breaks_freely(p) || breaks_freely(ch))
                && !no_break_before(ch)
                && !space
            {
                break_at = Some(line.len());
            }
            prev = Some(ch);
            if let Some(limit) = wrap
                && !space
                && !line.is_empty()
                && x + advance > limit
            {
                let rest = match break_at {
                    Some(at) if at > 0 => line.split_off(at),
                    _ => Vec::new(),
                };
                each(finish_line(line));
                any = true;
                line = Vec::new();
                x = 0.0;
                for mut placed in rest.into_iter().skip_while(|p| p.space) {
                    placed.x = x;
                    x += placed.advance;
                    line.push(placed);
                }
                break_at = None;
            }
            if space && line.is_empty() && any && wrap.is_some() {
                continue;
            }
            line.push(Placed {
                font: from,
                glyph,
                x,
                advance,
                space,
            });
            x += advance;
        }
        each(finish_line(line));
        any = true;
    }
}

/// A line and its width without trailing spaces.
pub(super) fn finish_line(mut line: Vec<Placed>) -> (Vec<Placed>, f32) {
    while line.last().is_some_and(|p| p.space) {
        line.pop();
    }
    let width = line.last().map_or(0.0, |p| p.x + p.advance);
    (line, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn texts(lines: &[(Vec<Placed>, f32)]) -> Vec<usize> {
        lines.iter().map(|(l, _)| l.len()).collect()
    }

    #[test]
    fn a_missing_glyph_is_notdef_and_said_once() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut warnings = Warnings::default();
        let lines = layout(&mut fonts, 0, "\u{1F600}\u{1F600}", None, &mut warnings);
        assert!(lines[0].0.iter().all(|p| p.glyph == 0));
        assert_eq!(warnings.pending.len(), 1);
        assert!(
            warnings.pending[0].contains("U+1F600"),
            "{:?}",
            warnings.pending
        );
    }

    #[test]
    fn lines_break_on_newlines_spaces_and_between_kana() {
        let mut fonts = Fonts::new(Path::new("/nonexistent"));
        let mut w = Warnings::default();
        let em = fonts.glyph(0, 'あ', false, &mut w).advance;
        assert_eq!(
            texts(&layout(&mut fonts, 0, "ab\ncd\n", None, &mut w)),
            [2, 2, 0]
        );
        // Five kana in a width of three: 3 + 2, but never starting a line with 。.
        let kana = layout(&mut fonts, 0, "あいうえお", Some(em * 3.0), &mut w);
        assert_eq!(texts(&kana), [3, 2]);
        let stop = layout(&mut fonts, 0, "あいう。え", Some(em * 3.0), &mut w);
        assert_eq!(texts(&stop), [2, 3]);
        // Latin breaks at the space, which is dropped.
        let space = fonts.glyph(0, 'x', false, &mut w).advance * 4.5;
        let latin = layout(&mut fonts, 0, "xxx xxx", Some(space), &mut w);
        assert_eq!(texts(&latin), [3, 3]);
        assert_eq!(latin[1].0[0].x, 0.0);
    }
}
