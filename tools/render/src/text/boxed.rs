//! Text boxes: which of a text's lines a box of some rows shows, and the lines it draws in
//! their place ("… and 12 more", a line cut short with "…").
//!
//! A box holds whole lines only: a line that would be cut by the box's bottom is left out, so
//! a box never shows half a row of glyphs. What to show is decided from the line count alone
//! ([`plan`]), which the runtime's input and the renderer share, so both keep a scroll in the
//! same range.

use std::collections::VecDeque;

use jengine::Overflow;

use super::layout::{Line, finish_line, layout_each};
use super::*;

/// The text a box lays out: newlines at the end make no lines in a box, so a list written an
/// item and a newline at a time counts its items, not a blank line after them.
pub(super) fn without_trailing_newlines(text: &str) -> &str {
    text.trim_end_matches(['\n', '\r'])
}

/// Rows a box `height` tall holds for lines `size` tall: whole lines only (a hair of slack so
/// that three lines in a box three lines tall fit despite rounding). Zero for a height or size
/// that is not a positive finite number.
pub fn rows(height: f32, size: f32) -> usize {
    if !(height.is_finite() && height >= 0.0 && size.is_finite() && size > 0.0) {
        return 0;
    }
    let rows = (height / size + 1e-3).floor();
    if rows >= usize::MAX as f32 {
        usize::MAX
    } else {
        rows as usize
    }
}

/// A scroll kept between 0 and `max` lines: not-a-number and minus infinity are the top,
/// plus infinity the bottom. A fraction is kept.
pub fn clamp_scroll(scroll: f32, max: usize) -> f32 {
    let max = max as f32;
    if scroll.is_nan() {
        0.0
    } else {
        scroll.clamp(0.0, max)
    }
}

/// What a box shows of a text's lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The first line of the text shown.
    pub first: usize,
    /// Lines of the text shown from `first` on.
    pub shown: usize,
    /// Lines said to be hidden by a last line "… and N more" (`overflow = "more"`).
    pub more: Option<usize>,
    /// Whether the last line shown ends in "…" (`overflow = "ellipsis"`, lines hidden).
    pub ellipsis: bool,
    /// The largest useful scroll: `lines - rows`, or 0 when everything fits.
    pub max_scroll: usize,
}

/// What a box of `rows` rows shows of `lines` lines.
pub fn plan(lines: usize, rows: usize, overflow: Overflow, scroll: f32) -> Plan {
    let max_scroll = lines.saturating_sub(rows);
    let mut plan = Plan {
        first: 0,
        shown: lines.min(rows),
        more: None,
        ellipsis: false,
        max_scroll,
    };
    if lines <= rows {
        return plan;
    }
    match overflow {
        Overflow::Clip => {}
        Overflow::More => {
            if rows > 0 {
                plan.shown = rows - 1;
                plan.more = Some(lines - plan.shown);
            }
        }
        Overflow::Ellipsis => plan.ellipsis = rows > 0,
        Overflow::Scroll => {
            // At most `max_scroll`, which fits in a usize: the cast cannot wrap.
            plan.first = clamp_scroll(scroll, max_scroll).floor() as usize;
        }
    }
    plan
}

/// A box's lines as laid out: the ones to draw, top down, and what was found about the whole
/// (which only the tests look at: the runtime's facts come from [`plan`] and a count).
pub(super) struct BoxLines {
    pub lines: Vec<Line>,
    #[cfg_attr(not(test), allow(dead_code))]
    pub total: usize,
    #[cfg_attr(not(test), allow(dead_code))]
    pub plan: Plan,
}

/// Lays out `text` for a box of `rows` rows, keeping only the lines it shows (at most twice
/// `rows` lines are held at a time, however long the text).
#[allow(clippy::too_many_arguments)]
pub(super) fn layout_box(
    fonts: &mut Fonts,
    font: FontId,
    text: &str,
    wrap: Option<f32>,
    rows: usize,
    overflow: Overflow,
    scroll: f32,
    warnings: &mut Warnings,
) -> BoxLines {
    // The first line asked for; a scroll past the end shows the last lines, kept in `tail`.
    let asked = match overflow {
        Overflow::Scroll => clamp_scroll(scroll, usize::MAX).floor() as usize,
        _ => 0,
    };
    let mut kept: Vec<Line> = Vec::new();
    let mut tail: VecDeque<Line> = VecDeque::new();
    let mut total = 0usize;
    layout_each(fonts, font, text, wrap, warnings, |line| {
        let i = total;
        total += 1;
        if rows == 0 {
            return;
        }
        if i >= asked && i - asked < rows {
            kept.push(line);
        } else if asked > 0 {
            if tail.len() == rows {
                tail.pop_front();
            }
            tail.push_back(line);
        }
    });
    let plan = plan(total, rows, overflow, scroll);
    let mut lines: Vec<Line> = if plan.first == asked {
        kept
    } else {
        // The scroll was past the end: the box shows the last `rows` lines, which are the
        // tail and as many of the kept ones as follow it.
        let mut all: Vec<Line> = tail.into_iter().chain(kept).collect();
        let drop = all.len().saturating_sub(plan.shown);
        all.drain(..drop);
        all
    };
    lines.truncate(plan.shown);
    if let Some(hidden) = plan.more {
        lines.push(more_line(fonts, font, hidden, wrap, warnings));
    }
    if plan.ellipsis
        && let Some(last) = lines.pop()
    {
        lines.push(with_ellipsis(fonts, font, last, wrap, warnings));
    }
    BoxLines { lines, total, plan }
}

/// The line said in place of `hidden` lines: "… and 12 more", or "… +12" in a box too narrow
/// for that. It is never wrapped: half of it would say something else.
fn more_line(
    fonts: &mut Fonts,
    font: FontId,
    hidden: usize,
    wrap: Option<f32>,
    warnings: &mut Warnings,
) -> Line {
    let one_line = |fonts: &mut Fonts, said: &str, warnings: &mut Warnings| {
        let mut line = None;
        layout_each(fonts, font, said, None, warnings, |l| line = Some(l));
        line.unwrap_or_default()
    };
    let long = one_line(fonts, &format!("… and {hidden} more"), warnings);
    match wrap {
        Some(limit) if long.1 > limit => one_line(fonts, &format!("… +{hidden}"), warnings),
        _ => long,
    }
}

/// `line` ending in "…", glyphs taken off its end until it fits in `wrap`.
fn with_ellipsis(
    fonts: &mut Fonts,
    font: FontId,
    line: Line,
    wrap: Option<f32>,
    warnings: &mut Warnings,
) -> Line {
    let dots = fonts.glyph(font, '…', false, warnings);
    let (mut glyphs, mut width) = line;
    if let Some(limit) = wrap {
        while !glyphs.is_empty() && width + dots.advance > limit {
            glyphs.pop();
            (glyphs, width) = finish_line(glyphs);
        }
    }
    glyphs.push(Placed {
        font: dots.font,
        glyph: dots.id,
        x: width,
        advance: dots.advance,
        space: false,
    });
    finish_line(glyphs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn fonts() -> (Fonts, Warnings) {
        (Fonts::new(Path::new("/nonexistent")), Warnings::default())
    }

    /// Forty numbered lines: "line 1" to "line 40".
    fn forty() -> String {
        (1..=40)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The glyph ids of `s` in the bundled font, to compare lines with.
    fn ids(fonts: &mut Fonts, w: &mut Warnings, s: &str) -> Vec<u16> {
        layout(fonts, JAPANESE, s, None, w)[0]
            .0
            .iter()
            .map(|p| p.glyph)
            .collect()
    }

    fn line_ids(line: &Line) -> Vec<u16> {
        line.0.iter().map(|p| p.glyph).collect()
    }

    #[test]
    fn rows_are_whole_lines_and_bad_heights_hold_none() {
        assert_eq!(rows(3.0, 1.0), 3);
        assert_eq!(rows(0.45 * 3.0, 0.45), 3, "rounding keeps the third line");
        assert_eq!(rows(3.9, 1.0), 3);
        assert_eq!(rows(0.5, 1.0), 0);
        for bad in [f32::NAN, -1.0, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(rows(bad, 1.0), 0, "{bad}");
            assert_eq!(rows(2.0, bad), 0, "size {bad}");
        }
        assert_eq!(rows(2.0, 0.0), 0);
        assert_eq!(rows(f32::MAX, 1e-30), usize::MAX);
    }

    #[test]
    fn each_overflow_mode_plans_forty_lines_in_ten_rows() {
        let clip = plan(40, 10, Overflow::Clip, 5.0);
        assert_eq!(
            (clip.first, clip.shown, clip.more, clip.ellipsis),
            (0, 10, None, false)
        );
        let more = plan(40, 10, Overflow::More, 0.0);
        assert_eq!((more.first, more.shown, more.more), (0, 9, Some(31)));
        let ellipsis = plan(40, 10, Overflow::Ellipsis, 0.0);
        assert_eq!((ellipsis.shown, ellipsis.ellipsis), (10, true));
        let scroll = plan(40, 10, Overflow::Scroll, 12.7);
        assert_eq!(
            (scroll.first, scroll.shown, scroll.max_scroll),
            (12, 10, 30)
        );
        // Everything fits: no "more", no "…", no scroll.
        for overflow in [
            Overflow::Clip,
            Overflow::More,
            Overflow::Scroll,
            Overflow::Ellipsis,
        ] {
            let fits = plan(10, 10, overflow, 3.0);
            assert_eq!(
                (
                    fits.first,
                    fits.shown,
                    fits.more,
                    fits.ellipsis,
                    fits.max_scroll
                ),
                (0, 10, None, false, 0)
            );
        }
        // One row: the "more" line is all there is, and it counts every line.
        assert_eq!(plan(40, 1, Overflow::More, 0.0).more, Some(40));
        assert_eq!(plan(40, 1, Overflow::More, 0.0).shown, 0);
        // No rows: nothing, and nothing said.
        let none = plan(40, 0, Overflow::More, 0.0);
        assert_eq!((none.shown, none.more), (0, None));
    }

    #[test]
    fn a_scroll_is_kept_in_the_range_that_keeps_the_box_full() {
        for (scroll, first) in [
            (-3.0, 0),
            (f32::NAN, 0),
            (f32::NEG_INFINITY, 0),
            (0.99, 0),
            (30.0, 30),
            (31.0, 30),
            (1e30, 30),
            (f32::INFINITY, 30),
        ] {
            assert_eq!(
                plan(40, 10, Overflow::Scroll, scroll).first,
                first,
                "{scroll}"
            );
        }
        assert_eq!(clamp_scroll(f32::NAN, 5), 0.0);
        assert_eq!(clamp_scroll(2.5, 5), 2.5);
        assert_eq!(clamp_scroll(9.0, 5), 5.0);
    }

    #[test]
    fn newlines_at_the_end_of_a_boxs_text_make_no_lines() {
        let (mut fonts, mut w) = fonts();
        let list: String = (1..=12).map(|i| format!("item {i}\n")).collect();
        let said = without_trailing_newlines(&list);
        let boxed = layout_box(
            &mut fonts,
            JAPANESE,
            said,
            None,
            5,
            Overflow::More,
            0.0,
            &mut w,
        );
        assert_eq!(boxed.total, 12);
        assert_eq!(
            line_ids(&boxed.lines[4]),
            ids(&mut fonts, &mut w, "… and 8 more")
        );
        assert_eq!(without_trailing_newlines("a\n\nb\r\n\n"), "a\n\nb");
        assert_eq!(without_trailing_newlines("\n\n"), "");
    }

    #[test]
    fn a_box_keeps_the_lines_it_shows_and_says_how_many_more() {
        let (mut fonts, mut w) = fonts();
        let text = forty();
        let clip = layout_box(
            &mut fonts,
            JAPANESE,
            &text,
            None,
            10,
            Overflow::Clip,
            0.0,
            &mut w,
        );
        assert_eq!((clip.total, clip.lines.len()), (40, 10));
        assert_eq!(line_ids(&clip.lines[9]), ids(&mut fonts, &mut w, "line 10"));

        let more = layout_box(
            &mut fonts,
            JAPANESE,
            &text,
            None,
            10,
            Overflow::More,
            0.0,
            &mut w,
        );
        assert_eq!(more.lines.len(), 10);
        assert_eq!(line_ids(&more.lines[8]), ids(&mut fonts, &mut w, "line 9"));
        assert_eq!(
            line_ids(&more.lines[9]),
            ids(&mut fonts, &mut w, "… and 31 more")
        );

        let scroll = layout_box(
            &mut fonts,
            JAPANESE,
            &text,
            None,
            10,
            Overflow::Scroll,
            12.0,
            &mut w,
        );
        assert_eq!(scroll.plan.first, 12);
        assert_eq!(
            line_ids(&scroll.lines[0]),
            ids(&mut fonts, &mut w, "line 13")
        );
        assert_eq!(
            line_ids(&scroll.lines[9]),
            ids(&mut fonts, &mut w, "line 22")
        );
        // Past the end: the last ten lines, from the tail kept on the way.
        for past in [35.0, 1e9, f32::INFINITY] {
            let end = layout_box(
                &mut fonts,
                JAPANESE,
                &text,
                None,
                10,
                Overflow::Scroll,
                past,
                &mut w,
            );
            assert_eq!((end.plan.first, end.lines.len()), (30, 10), "{past}");
            assert_eq!(line_ids(&end.lines[0]), ids(&mut fonts, &mut w, "line 31"));
            assert_eq!(line_ids(&end.lines[9]), ids(&mut fonts, &mut w, "line 40"));
        }
        // Just past, where part of the box was kept from the asked line on.
        let near = layout_box(
            &mut fonts,
            JAPANESE,
            &text,
            None,
            10,
            Overflow::Scroll,
            33.0,
            &mut w,
        );
        assert_eq!(line_ids(&near.lines[0]), ids(&mut fonts, &mut w, "line 31"));
        assert_eq!(line_ids(&near.lines[9]), ids(&mut fonts, &mut w, "line 40"));
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn an_ellipsis_cuts_the_last_line_to_fit_the_width() {
        let (mut fonts, mut w) = fonts();
        let x = fonts.glyph(JAPANESE, 'x', false, &mut w).advance;
        let dots = fonts.glyph(JAPANESE, '…', false, &mut w);
        assert!(
            dots.id != 0 && dots.font == JAPANESE,
            "the bundled font has …"
        );
        let link = format!("miau://pack?d={}", "x".repeat(300));
        let limit = x * 20.0;
        let one = layout_box(
            &mut fonts,
            JAPANESE,
            &link,
            Some(limit),
            1,
            Overflow::Ellipsis,
            0.0,
            &mut w,
        );
        assert!(one.total > 10, "{} lines", one.total);
        let (line, width) = &one.lines[0];
        assert_eq!(one.lines.len(), 1);
        assert!(*width <= limit + 1e-3, "{width} > {limit}");
        assert_eq!(line.last().unwrap().glyph, dots.id);
        assert_eq!(line[0].glyph, ids(&mut fonts, &mut w, "m")[0]);
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn a_long_link_breaks_between_characters_inside_the_width() {
        let (mut fonts, mut w) = fonts();
        let em = fonts.glyph(JAPANESE, 'M', false, &mut w).advance;
        let limit = em * 12.0;
        let link = format!(
            "share: miau://pack?d={}",
            "AbC0-_9xYz"
                .repeat(30)
                .chars()
                .take(300)
                .collect::<String>()
        );
        let lines = layout(&mut fonts, JAPANESE, &link, Some(limit), &mut w);
        assert!(lines.len() > 10, "{} lines", lines.len());
        assert!(
            lines.iter().all(|(_, width)| *width <= limit),
            "every line fits"
        );
        // Nothing is lost: every character of the link is on some line, in order.
        let placed: usize = lines.iter().map(|(l, _)| l.len()).sum();
        assert_eq!(
            placed,
            link.chars().count() - 1,
            "all but the breaking space"
        );
        // The word before the link keeps its own line; the link starts the next one.
        assert_eq!(lines[0].0.len(), "share:".len());
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn cjk_and_emoji_fill_rows_and_count_lines() {
        let (mut fonts, mut w) = fonts();
        let em = fonts.glyph(JAPANESE, 'あ', false, &mut w).advance;
        let kana = "あいうえおかきくけこさしすせそたちつてと";
        let boxed = layout_box(
            &mut fonts,
            JAPANESE,
            kana,
            Some(em * 5.0),
            2,
            Overflow::More,
            0.0,
            &mut w,
        );
        assert_eq!(boxed.total, 4);
        assert_eq!(boxed.lines[0].0.len(), 5);
        // Five kana wide is too narrow for "… and 3 more": the short form says it.
        assert_eq!(line_ids(&boxed.lines[1]), ids(&mut fonts, &mut w, "… +3"));
        let cats = "🐈🐈🐈🐈🐈🐈🐈";
        let cat = fonts.glyph(JAPANESE, '🐈', true, &mut w).advance;
        let scroll = layout_box(
            &mut fonts,
            JAPANESE,
            cats,
            Some(cat * 2.5),
            2,
            Overflow::Scroll,
            9.0,
            &mut w,
        );
        assert_eq!((scroll.total, scroll.plan.first), (4, 2));
        let shown: Vec<usize> = scroll.lines.iter().map(|l| l.0.len()).collect();
        assert_eq!(shown, [2, 1]);
        assert!(scroll.lines[0].0.iter().all(|p| p.font == EMOJI));
        assert!(w.pending.is_empty(), "{:?}", w.pending);
    }

    #[test]
    fn a_megabyte_of_text_keeps_only_the_rows_it_shows() {
        let (mut fonts, mut w) = fonts();
        let x = fonts.glyph(JAPANESE, 'x', false, &mut w).advance;
        let huge = "x".repeat(1 << 20);
        let boxed = layout_box(
            &mut fonts,
            JAPANESE,
            &huge,
            Some(x * 100.0),
            5,
            Overflow::Scroll,
            f32::INFINITY,
            &mut w,
        );
        assert_eq!(boxed.total, (1 << 20) / 100 + 1);
        assert_eq!(boxed.lines.len(), 5);
        assert_eq!(boxed.lines[4].0.len(), (1 << 20) % 100);
        // A huge height keeps every line, and no more.
        let tall = layout_box(
            &mut fonts,
            JAPANESE,
            &"ab\n".repeat(1000),
            None,
            usize::MAX,
            Overflow::More,
            0.0,
            &mut w,
        );
        assert_eq!((tall.total, tall.lines.len()), (1001, 1001));
    }
}
